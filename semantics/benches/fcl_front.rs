//! Throughput of the FCL front end: parse + type check (`check`), and the full pipeline to core
//! terms (`load_program`), on the thesis examples (each after the prelude). Prints figures.

use semantics::fcl::load::check_program;
use semantics::fcl::lower::load_program;
use std::time::Instant;

fn main() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/fcl");
    let mut files = Vec::new();
    for e in std::fs::read_dir(dir).expect("examples/fcl exists") {
        let path = e.expect("entry").path();
        if path.extension().is_some_and(|x| x == "fcl") {
            let src = std::fs::read_to_string(&path).expect("readable");
            files.push((path.display().to_string(), src));
        }
    }
    files.sort();
    let reps = 200;
    let tiny = vec![("tiny.fcl".to_string(), "val x = 1\n".to_string())];
    for (label, prelude) in [("no prelude", false), ("prelude only", true)] {
        let t = Instant::now();
        for _ in 0..reps {
            check_program(&tiny, prelude).expect("checks");
        }
        let ms = t.elapsed().as_secs_f64() * 1e3 / reps as f64;
        println!("{label:16} check {ms:7.3} ms   (`val x = 1`)");
    }
    let t = Instant::now();
    for _ in 0..reps {
        std::hint::black_box(semantics::fcl::builtins::environment());
    }
    let ms = t.elapsed().as_secs_f64() * 1e3 / reps as f64;
    println!("{:16} {ms:7.3} ms", "built-in table");
    for (name, src) in &files {
        let one = vec![(name.clone(), src.clone())];
        let t = Instant::now();
        for _ in 0..reps {
            check_program(&one, true).expect("the example checks");
        }
        let check = t.elapsed().as_secs_f64() * 1e3 / reps as f64;
        let t = Instant::now();
        for _ in 0..reps {
            load_program(&one).expect("the example loads");
        }
        let load = t.elapsed().as_secs_f64() * 1e3 / reps as f64;
        let short = name.rsplit('/').next().unwrap_or(name);
        println!(
            "{short:16} check {check:7.3} ms   load_program {load:7.3} ms   (prelude included)"
        );
    }
}
