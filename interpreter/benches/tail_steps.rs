//! Throughput of the TAIL oracle: rule steps per second and wall time for the signal program of
//! thesis Fig. 3.1 on vectors of 10^3 … 10^6 elements, and for a scalar-heavy program (a
//! `powerScl` loop of integer arithmetic). Prints one line per run and the growth ratio
//! t(2n)/t(n)-style figures between sizes.
//!
//! `cargo bench -p interpreter --bench tail_steps` (add `-- quick` for the small sizes only, or
//! `-- N M …` for chosen signal sizes).

use interpreter::tail::{run, Outcome, RunOptions};
use std::time::Instant;

/// Thesis Fig. 3.1 (as in examples/oracle_signal.tail) on the input `resi(10, iota(n)) + 1`.
fn signal(n: i32) -> String {
    format!(
        "let v0:[int]1 = each(fn x:[int]0 => addi(resi(10,x),1),iota({n})) in
let v3:[int]1 = cons(0,v0) in
reduce(addd,0.0,
  each(fn v11:[double]0 => maxd(i2d(-50),v11),
    each(fn v10:[double]0 => mind(i2d(50),v10),
      each(fn v9:[double]0 => muld(i2d(50),v9),
        zipWith(divd,
          each(i2d,
            drop(1,zipWith(subi,v3,rotate(-1,v3)))),
          each(fn v2:[double]0 => addd(0.01,v2),
            each(i2d,v0)))))))
"
    )
}

/// n iterations of `v := (31·v + 7) mod 1000003`.
fn scalar_loop(n: i32) -> String {
    format!("i2d(powerScl(fn v:[int]0 => resi(1000003,addi(muli(v,31),7)),{n},1))\n")
}

fn measure(label: &str, src: &str) -> f64 {
    let prog = semantics::tail::step::load(src).expect("benchmark program checks");
    let t = Instant::now();
    let mut sink = Vec::new();
    let (outcome, stats) = run(prog, RunOptions::default(), &mut sink).expect("runs");
    let secs = t.elapsed().as_secs_f64();
    let result = match outcome {
        Outcome::Value(v) => v,
        other => panic!("{label}: {other:?}"),
    };
    println!(
        "{label:<28} steps {:>11}  wall {:>8.3} s  {:>6.2} M steps/s  work {:>11}  span {:>7}  peak store {:>9}  result {result}",
        stats.steps,
        secs,
        stats.steps as f64 / secs / 1e6,
        stats.work,
        stats.span,
        stats.peak_store
    );
    secs
}

fn main() {
    let quick = std::env::args().any(|a| a == "quick");
    let chosen: Vec<i32> = std::env::args().filter_map(|a| a.parse().ok()).collect();
    let sizes: &[i32] = if !chosen.is_empty() {
        &chosen
    } else if quick {
        &[1_000, 2_000, 10_000]
    } else {
        &[1_000, 2_000, 10_000, 100_000, 200_000, 1_000_000, 2_000_000]
    };
    let mut prev: Option<(i32, f64)> = None;
    for &n in sizes {
        let t = measure(&format!("signal n={n}"), &signal(n));
        if let Some((pn, pt)) = prev {
            if n == 2 * pn {
                println!("    t({n})/t({pn}) = {:.2}", t / pt);
            }
        }
        prev = Some((n, t));
    }
    let loops: &[i32] = if quick {
        &[100_000]
    } else {
        &[1_000_000, 2_000_000]
    };
    let mut prev: Option<(i32, f64)> = None;
    for &n in loops {
        let t = measure(&format!("scalar loop n={n}"), &scalar_loop(n));
        if let Some((pn, pt)) = prev {
            println!("    t({n})/t({pn}) = {:.2}", t / pt);
        }
        prev = Some((n, t));
    }
}
