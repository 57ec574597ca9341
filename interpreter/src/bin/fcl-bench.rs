//! Benchmark of the FCL oracle: reverse, transpose and a tree reduction over 2^10 … 2^20 elements on
//! machines 1x1, 4x32 and 16x256, printing rule firings (at every location), firings/s, wall time, cost and work.
//!
//! `cargo run --release -p interpreter --bin fcl-bench [-- MAX_LOG2 [MIN_LOG2 [PROGRAM [MACHINE]]]]`

use interpreter::fcl::examples::{reduction, reverse, transpose};
use interpreter::fcl::{run, Config};
use semantics::fcl::core::Expr;
use std::time::Instant;

fn program(name: &str, log2: u32) -> Expr {
    let n = 1i32 << log2;
    match name {
        "reverse" => reverse(n, 256.min(n), None),
        "transpose" => {
            let rows = 1 << (log2 / 2);
            transpose(rows, n / rows, None)
        }
        _ => reduction(n, 1 << (log2 / 2), false),
    }
}

fn main() {
    let all: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<u32> = all.iter().filter_map(|a| a.parse().ok()).collect();
    let words: Vec<&str> = all
        .iter()
        .filter(|a| a.parse::<u32>().is_err())
        .map(String::as_str)
        .collect();
    let max = args.first().copied().unwrap_or(20).min(24);
    let min = args.get(1).copied().unwrap_or(10).min(max);
    // optional filters: a program name, then a machine
    let wanted = |x: &str, i: usize| words.get(i).is_none_or(|w| *w == x);
    println!(
        "{:<10} {:>8} {:>7} {:>11} {:>9} {:>12} {:>10} {:>11}",
        "program", "n", "machine", "rules", "wall s", "rules/s", "cost", "work"
    );
    for name in ["reverse", "transpose", "reduction"] {
        if !wanted(name, 0) {
            continue;
        }
        for log2 in (min..=max).step_by(2) {
            let prog = program(name, log2);
            for machine in ["1x1", "4x32", "16x256"] {
                if !wanted(machine, 1) {
                    continue;
                }
                let cfg = Config {
                    machine: machine.parse().expect("machine"),
                    ..Config::default()
                };
                let start = Instant::now();
                let out = run(&prog, &cfg);
                let wall = start.elapsed().as_secs_f64();
                if let Err(e) = &out.result {
                    println!("{name} 2^{log2} {machine}: failed: {e:?}");
                    continue;
                }
                let s = out.stats;
                println!(
                    "{:<10} {:>8} {:>7} {:>11} {:>9.3} {:>12.0} {:>10} {:>11}",
                    name,
                    format!("2^{log2}"),
                    machine,
                    s.firings,
                    wall,
                    s.firings as f64 / wall,
                    s.cost,
                    s.work
                );
            }
        }
    }
}
