//! Throughput of the TAIL oracle: rule steps per second and wall time for the signal program of
//! thesis Fig. 3.1 on vectors of 10^3 … 10^6 elements, and for a scalar-heavy program (a
//! `powerScl` loop of integer arithmetic). Prints one line per run and the growth ratio
//! t(2n)/t(n)-style figures between sizes.
//!
//! `cargo bench -p interpreter --bench tail_steps` (add `-- quick` for the small sizes only, or
//! `-- N M …` for chosen signal sizes).

use interpreter::tail::{run, Outcome, RunOptions};
use semantics::tail::step::compile::{compile_rc, Binder, Surface};
use semantics::tail::value::Scalar;
use semantics::Span;
use std::time::Instant;

const S: Span = Span::DUMMY;

fn int(i: i32) -> Surface {
    Surface::Lit(Scalar::Int(i), S)
}
fn dbl(d: f64) -> Surface {
    Surface::Lit(Scalar::Double(d), S)
}
fn var(x: &str) -> Surface {
    Surface::Var(x.into(), S)
}
fn op(name: &str, args: Vec<Surface>) -> Surface {
    Surface::Op(name.into(), args, S)
}
fn opref(name: &str) -> Surface {
    Surface::OpRef(name.into(), S)
}
fn let_(x: &str, e1: Surface, e2: Surface) -> Surface {
    Surface::Let(Binder::new(x), Box::new(e1), Box::new(e2), S)
}
fn lam(x: &str, body: Surface) -> Surface {
    Surface::Lam(Binder::new(x), Box::new(body), S)
}

/// Thesis Fig. 3.1 (OCR damage repaired) on the input `resi(10, iota(n)) + 1`.
fn signal(n: i32) -> Surface {
    let i2d = |e| op("i2d", vec![e]);
    let each = |f, a| op("each", vec![f, a]);
    let input = each(
        lam(
            "x",
            op("addi", vec![op("resi", vec![int(10), var("x")]), int(1)]),
        ),
        op("iota", vec![int(n)]),
    );
    let body = op(
        "reduce",
        vec![
            opref("addd"),
            dbl(0.0),
            each(
                lam("v11", op("maxd", vec![i2d(int(-50)), var("v11")])),
                each(
                    lam("v10", op("mind", vec![i2d(int(50)), var("v10")])),
                    each(
                        lam("v9", op("muld", vec![i2d(int(50)), var("v9")])),
                        op(
                            "zipWith",
                            vec![
                                opref("divd"),
                                each(
                                    opref("i2d"),
                                    op(
                                        "drop",
                                        vec![
                                            int(1),
                                            op(
                                                "zipWith",
                                                vec![
                                                    opref("subi"),
                                                    var("v3"),
                                                    op("rotate", vec![int(-1), var("v3")]),
                                                ],
                                            ),
                                        ],
                                    ),
                                ),
                                each(
                                    lam("v2", op("addd", vec![dbl(0.01), var("v2")])),
                                    each(opref("i2d"), var("v0")),
                                ),
                            ],
                        ),
                    ),
                ),
            ),
        ],
    );
    let_(
        "v0",
        input,
        let_("v3", op("cons", vec![int(0), var("v0")]), body),
    )
}

/// n iterations of `v := (31·v + 7) mod 1000003`.
fn scalar_loop(n: i32) -> Surface {
    let f = lam(
        "v",
        op(
            "resi",
            vec![
                int(1_000_003),
                op("addi", vec![op("muli", vec![var("v"), int(31)]), int(7)]),
            ],
        ),
    );
    op("i2d", vec![op("powerScl", vec![f, int(n), int(1)])])
}

fn measure(label: &str, e: &Surface) -> f64 {
    let prog = compile_rc(e).expect("benchmark program compiles");
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
