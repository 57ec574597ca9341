//! Whole programs of the thesis run on the stepper (built as terms; the same programs as text
//! are under `examples/oracle_*.tail`).

use super::tests::{dbl, int, ivec, lam, let_, op, opref, reshape, run, value, var};

#[test]
fn signal_program_of_figure_3_1() {
    // Thesis Fig. 3.1 with the OCR damage repaired (spec trap 40): addy → addd, sum → zipWith.
    let v0 = ivec(&[9, 8, 6, 8, 7, 4, 4, 3, 2, 2, 1, 2, 4, 5, 6]);
    let i2d = |e| op("i2d", vec![e]);
    let each = |f, a| op("each", vec![f, a]);
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
                                                    op("rotateV", vec![int(-1), var("v3")]),
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
    let prog = let_(
        "v0",
        v0,
        let_("v3", op("consV", vec![int(0), var("v0")]), body),
    );
    // Hand computation: v3 = 0,9,8,6,8,7,4,4,3,2,2,1,2,4,5,6 minus its right rotation, drop 1:
    // 9,-1,-2,2,-1,-3,0,-1,-1,0,-1,1,2,1,1; ×50 ÷ (v0+0.01), clamped to ±50, summed.
    let v0s = [9, 8, 6, 8, 7, 4, 4, 3, 2, 2, 1, 2, 4, 5, 6];
    let diffs = [9, -1, -2, 2, -1, -3, 0, -1, -1, 0, -1, 1, 2, 1, 1];
    let mut acc = None;
    for (d, v) in diffs.iter().zip(v0s.iter()) {
        let x = (50.0 * (*d as f64 / (*v as f64 + 0.01))).clamp(-50.0, 50.0);
        acc = Some(match acc {
            None => x,
            Some(a) => x + a,
        });
    }
    let want = format!(
        "[]({})",
        crate::tail::print_value::double_text(acc.unwrap())
    );
    assert_eq!(value(prog), want);
}

#[test]
fn inner_product_of_figure_3_7() {
    // Thesis Fig. 3.7; Fig. 3.5 states the result 65780.
    let e = let_(
        "v1",
        reshape(&[3, 2], op("iotaV", vec![int(5)])),
        let_(
            "v2",
            op("transp", vec![var("v1")]),
            let_(
                "v9",
                op(
                    "transp2",
                    vec![ivec(&[2, 1, 3]), reshape(&[3, 3, 2], var("v1"))],
                ),
                let_(
                    "v15",
                    op(
                        "transp2",
                        vec![ivec(&[1, 3, 2]), reshape(&[3, 2, 3], var("v2"))],
                    ),
                    let_(
                        "v20",
                        op(
                            "reduce",
                            vec![
                                opref("addi"),
                                int(0),
                                op("zipWith", vec![opref("muli"), var("v9"), var("v15")]),
                            ],
                        ),
                        op(
                            "i2d",
                            vec![op(
                                "reduce",
                                vec![
                                    opref("muli"),
                                    int(1),
                                    op("reduce", vec![opref("addi"), int(0), var("v20")]),
                                ],
                            )],
                        ),
                    ),
                ),
            ),
        ),
    );
    assert_eq!(value(e), "[](65780.0)");
}

#[test]
fn transpose_and_double_reduce() {
    let e = let_(
        "v1",
        reshape(&[4, 5], op("iota", vec![int(20)])),
        op(
            "i2d",
            vec![op(
                "reduce",
                vec![
                    opref("addi"),
                    int(0),
                    op(
                        "reduce",
                        vec![opref("addi"), int(0), op("transp", vec![var("v1")])],
                    ),
                ],
            )],
        ),
    );
    assert_eq!(value(e), "[](210.0)");
}

#[test]
fn dotpi_on_matrices() {
    // dotpi = λx.λy.reduce(addi, 0, zipWith(muli, x, y)) works row-wise on matrices (thesis §3.1.2).
    let dotpi = |x, y| {
        op(
            "reduce",
            vec![
                opref("addi"),
                int(0),
                op("zipWith", vec![opref("muli"), x, y]),
            ],
        )
    };
    let x = reshape(&[2, 3], op("iota", vec![int(6)]));
    let y = reshape(&[2, 3], ivec(&[1, 1, 1, 2, 2, 2]));
    assert_eq!(value(dotpi(x.clone(), y)), "[2](6,30)");
    // Mismatching extents: zipWith steps to err, and so does dotpi.
    let bad = run(dotpi(x, reshape(&[2, 2], ivec(&[1]))))
        .err()
        .map(|e| e.rule.to_string());
    assert_eq!(bad.as_deref(), Some("3.68 zipWith"));
}

#[test]
fn work_and_span_of_each() {
    // each over 4 elements: every strand is one β (span 0) and one muli (span 1); the bulk step
    // reports 1 + 1 = 2. The vector literal: four allocs (span 1 each) and the vector alloc.
    let r = run(op(
        "each",
        vec![
            lam("v", op("muli", vec![var("v"), var("v")])),
            ivec(&[1, 2, 3, 4]),
        ],
    ))
    .unwrap();
    assert_eq!(r.result, "[4](1,4,9,16)");
    assert_eq!(r.span, 5 + 2);
    // work: 4 literal allocs + 4 for the vector + 4 multiplications + 4 stored results.
    assert_eq!(r.work, 16);
}

#[test]
fn deep_nesting_steps_without_recursion() {
    // 10^5 nested additions and 10^5 nested lets. The stepper keeps its contexts on the heap;
    // building, compiling and dropping the source tree recurse, so this runs on a big stack like
    // the binary does.
    let t = std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(|| {
            let n = 100_000;
            let mut e = int(0);
            for _ in 0..n {
                e = op("addi", vec![int(1), e]);
            }
            let sum = value(e);
            let mut e = var("x");
            for _ in 0..n {
                e = let_("x", op("addi", vec![var("x"), int(1)]), e);
            }
            let lets = value(let_("x", int(0), e));
            (sum, lets)
        })
        .expect("spawn");
    let (sum, lets) = t.join().expect("no stack overflow");
    assert_eq!(sum, "[](100000)");
    assert_eq!(lets, "[](100000)");
}

#[test]
fn zilde_takes_the_element_type_its_context_infers() {
    // spec §3.8/§4.1: the fills of a reshaped `zilde()` follow the inferred element type (an int
    // zilde would make addd stuck); a non-empty reduce ignores its neutral element (spec §5.9)
    let prog = super::load("reduce(addd,1.5,reshape([2],zilde()))").expect("well typed");
    let mut m = super::Machine::new(prog);
    let result = loop {
        match m.step() {
            super::Stepped::Next(_) => {}
            super::Stepped::Value(super::Value::Loc(l)) => {
                break crate::tail::print_value::flat_text(&l.get())
            }
            other => panic!("{other:?}"),
        }
    };
    assert_eq!(result, "[](0.0)");
}
