//! Which generated TAIL programs still need a value read back while they are lowered, and why:
//! the census behind issue 23's "compile once" (`compiler::tail::probe`).
//!
//! `cargo run --release -p conformance --example read_back_census -- SEED COUNT [DIR]` lowers
//! the COUNT programs of `fuzz --lang tail --seed SEED` with no device, prints how many lower
//! and each refusal's reason with its count, and, with DIR, saves each refused program there
//! (`SEED-K.tail`, its reason in `SEED-K.why`).

use conformance::fuzz::program_seed;
use conformance::gen::tail_gen::generate_tail;
use conformance::gen::Rng;
use std::collections::BTreeMap;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |k: usize| args.get(k).and_then(|a| a.parse::<u64>().ok());
    let (Some(seed), Some(count)) = (number(0), number(1)) else {
        eprintln!("usage: read_back_census SEED COUNT [DIR]");
        std::process::exit(2);
    };
    let dir = args.get(2).map(std::path::PathBuf::from);
    let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
    let mut lowered = 0;
    for k in 0..count {
        let src = generate_tail(&mut Rng::new(program_seed(seed, k)), 8).source;
        match compiler::tail::lower_tail(&src) {
            Ok(_) => lowered += 1,
            Err(e) => {
                let why = e.to_string();
                if let Some(dir) = &dir {
                    std::fs::create_dir_all(dir).expect("the census folder");
                    let file = |ext: &str| dir.join(format!("{seed}-{k}.{ext}"));
                    std::fs::write(file("tail"), &src).expect("a census file");
                    std::fs::write(file("why"), format!("{why}\n")).expect("a census file");
                }
                *reasons.entry(why).or_default() += 1;
            }
        }
    }
    println!("{lowered} of {count} lowered with nothing read back");
    for (why, n) in reasons {
        println!("{n:5} {why}");
    }
}
