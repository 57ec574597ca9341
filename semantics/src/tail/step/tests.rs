//! Rule-by-rule tests of the stepper: every rule fires on a small term and gives the spec's
//! answer; every error rule gives `err` with its rule number.

use super::compile::{compile_rc, Binder, Surface};
use super::machine::{Machine, StepError, Stepped};
use super::show::value_text;
use crate::tail::value::Scalar;
use crate::Span;

const S: Span = Span::DUMMY;

pub(super) fn int(i: i32) -> Surface {
    Surface::Lit(Scalar::Int(i), S)
}
pub(super) fn dbl(d: f64) -> Surface {
    Surface::Lit(Scalar::Double(d), S)
}
pub(super) fn bool_(b: bool) -> Surface {
    Surface::Lit(Scalar::Bool(b), S)
}
pub(super) fn chr(c: u8) -> Surface {
    Surface::Lit(Scalar::Char(c), S)
}
pub(super) fn var(x: &str) -> Surface {
    Surface::Var(x.into(), S)
}
pub(super) fn op(name: &str, args: Vec<Surface>) -> Surface {
    Surface::Op(name.into(), args, S)
}
pub(super) fn opref(name: &str) -> Surface {
    Surface::OpRef(name.into(), S)
}
pub(super) fn let_(x: &str, e1: Surface, e2: Surface) -> Surface {
    Surface::Let(Binder::new(x), Box::new(e1), Box::new(e2), S)
}
pub(super) fn lam(x: &str, body: Surface) -> Surface {
    Surface::Lam(Binder::new(x), Box::new(body), S)
}
pub(super) fn ivec(xs: &[i32]) -> Surface {
    Surface::Vector(xs.iter().map(|&x| int(x)).collect(), S)
}
pub(super) fn dvec(xs: &[f64]) -> Surface {
    Surface::Vector(xs.iter().map(|&x| dbl(x)).collect(), S)
}
pub(super) fn reshape(sh: &[i32], a: Surface) -> Surface {
    op("reshape", vec![ivec(sh), a])
}

/// Runs to a value: (flat result text, output, rules fired, total work, total span).
pub(super) struct Run {
    pub result: String,
    pub output: String,
    pub rules: Vec<String>,
    pub work: u64,
    pub span: u64,
}

pub(super) fn run(e: Surface) -> Result<Run, StepError> {
    let prog = compile_rc(&e).expect("compiles");
    let mut m = Machine::new(prog);
    let mut rules = Vec::new();
    let (mut work, mut span) = (0, 0);
    for _ in 0..1_000_000 {
        match m.step() {
            Stepped::Next(info) => {
                rules.push(info.rule.to_string());
                work += info.work;
                span += info.span;
            }
            Stepped::Value(v) => {
                let result = match &v {
                    super::Value::Loc(l) => crate::tail::print_value::flat_text(&l.get()),
                    other => value_text(other),
                };
                return Ok(Run {
                    result,
                    output: m.take_output(),
                    rules,
                    work,
                    span,
                });
            }
            Stepped::Err(e) => return Err(e),
        }
    }
    panic!("no value after a million steps")
}

pub(super) fn value(e: Surface) -> String {
    match run(e) {
        Ok(r) => r.result,
        Err(e) => panic!("unexpected err: {} {}", e.rule, e.reason),
    }
}

pub(super) fn err_rule(e: Surface) -> String {
    match run(e) {
        Ok(r) => panic!("expected err, got {}", r.result),
        Err(e) => e.rule.to_string(),
    }
}

#[test]
fn alloc_let_and_scalar_ops() {
    // (3.56) a literal allocates, (3.54) let binds, (3.32) addi adds.
    let r = run(let_("x", int(3), op("addi", vec![var("x"), int(4)]))).unwrap();
    assert_eq!(r.result, "[](7)");
    assert_eq!(
        r.rules,
        ["3.56 alloc", "3.54 let", "3.56 alloc", "3.32 addi"]
    );
    // (3.33) addd
    assert_eq!(value(op("addd", vec![dbl(1.5), dbl(2.0)])), "[](3.5)");
    assert_eq!(value(op("i2d", vec![int(2)])), "[](2.0)");
    // Overflow is err at the operator's rule.
    assert_eq!(
        err_rule(op("muli", vec![int(65536), int(65536)])),
        "3.32 muli"
    );
}

#[test]
fn vector_literal_and_iota() {
    // (3.56) a vector literal of values allocates one array.
    let r = run(ivec(&[1, 2, 3])).unwrap();
    assert_eq!(r.result, "[3](1,2,3)");
    assert_eq!(r.rules.last().unwrap(), "3.56 alloc");
    // (3.34) iota, (3.35) iota of a negative number is err.
    assert_eq!(value(op("iota", vec![int(4)])), "[4](1,2,3,4)");
    assert_eq!(err_rule(op("iota", vec![int(-1)])), "3.35 iota");
}

#[test]
fn beta_and_each() {
    // (3.36) each decomposes, (3.55) β per element, then reshape0 stores the result.
    let f = lam("v", op("muli", vec![var("v"), var("v")]));
    let r = run(op("each", vec![f, reshape(&[2, 2], ivec(&[1, 2, 3, 4]))])).unwrap();
    assert_eq!(r.result, "[2,2](1,4,9,16)");
    assert!(r.rules.contains(&"3.36 each".to_string()));
    assert_eq!(r.rules.iter().filter(|x| *x == "3.55 beta").count(), 4);
    assert_eq!(r.rules.last().unwrap(), "3.36 reshape0");
    // each over an empty array takes its type from f's body operator.
    assert_eq!(
        value(op("each", vec![opref("i2d"), op("zilde", vec![])])),
        "[0]()"
    );
}

#[test]
fn closures_capture_their_environment() {
    let e = let_(
        "k",
        int(10),
        op(
            "each",
            vec![
                lam("v", op("addi", vec![var("v"), var("k")])),
                ivec(&[1, 2]),
            ],
        ),
    );
    assert_eq!(value(e), "[2](11,12)");
    // Nested lambdas capture through two levels; shadowing picks the innermost binding.
    let e = let_(
        "x",
        int(1),
        op(
            "zipWith",
            vec![
                lam("a", lam("x", op("subi", vec![var("a"), var("x")]))),
                ivec(&[10, 20]),
                ivec(&[1, 2]),
            ],
        ),
    );
    assert_eq!(value(e), "[2](9,18)");
}

#[test]
fn reduce_follows_apltail_order() {
    // (3.37) in apltail's order: acc := f(x_j)(acc).
    assert_eq!(
        value(op(
            "reduce",
            vec![opref("subi"), int(0), ivec(&[1, 2, 3, 4])]
        )),
        "[](2)"
    );
    let f = lam(
        "a",
        lam(
            "b",
            op("addi", vec![op("muli", vec![int(10), var("b")]), var("a")]),
        ),
    );
    assert_eq!(
        value(op("reduce", vec![f, int(0), ivec(&[1, 2, 3])])),
        "[](123)"
    );
    assert_eq!(
        value(op(
            "reduce",
            vec![
                opref("addi"),
                int(0),
                reshape(&[2, 3], ivec(&[1, 2, 3, 4, 5, 6]))
            ]
        )),
        "[2](6,15)"
    );
    assert_eq!(
        value(op(
            "reduce",
            vec![opref("subi"), int(100), op("zilde", vec![])]
        )),
        "[](100)"
    );
    assert_eq!(
        value(op("reduce", vec![opref("subi"), int(100), ivec(&[5])])),
        "[](5)"
    );
    assert_eq!(
        value(op("reduce", vec![opref("addi"), int(0), int(7)])),
        "[](7)"
    );
    assert_eq!(
        err_rule(op(
            "reduce",
            vec![opref("addi"), int(0), reshape(&[2, 0], ivec(&[1]))]
        )),
        "3.37 reduce"
    );
    assert_eq!(
        value(op(
            "reduce",
            vec![opref("addd"), dbl(0.0), dvec(&[1.0, 1.0e16, -1.0e16])]
        )),
        "[](0.0)"
    );
}

#[test]
fn reduce_span_is_logarithmic() {
    // 8 elements: 7 combining strands of span 1 (addi), ⌈log2 8⌉ = 3 levels, +1 for storing.
    let r = run(op(
        "reduce",
        vec![opref("addi"), int(0), op("iota", vec![int(8)])],
    ))
    .unwrap();
    assert_eq!(r.result, "[](36)");
    // iota: span 1; literals 0 and 8: span 1 each; the reduction: 3·1 + 1.
    assert_eq!(r.span, 3 + 4);
    // Work: 8 (iota) + 2 literals + 7 additions + 1 stored result + 14 element allocations… the
    // additions are counted once each.
    assert!(r.work >= 8 + 7);
}

#[test]
fn scan_and_zipwith() {
    // (3.67) scan: new element first; z ignored.
    assert_eq!(
        value(op("scan", vec![opref("subi"), int(0), ivec(&[1, 2, 3, 4])])),
        "[4](1,1,2,2)"
    );
    assert_eq!(
        value(op(
            "scan",
            vec![
                opref("addi"),
                int(0),
                reshape(&[2, 3], ivec(&[1, 2, 3, 4, 5, 6]))
            ]
        )),
        "[2,3](1,3,6,4,9,15)"
    );
    // (3.68) zipWith, err on a shape mismatch.
    assert_eq!(
        value(op(
            "zipWith",
            vec![opref("subi"), ivec(&[10, 20]), ivec(&[1, 2])]
        )),
        "[2](9,18)"
    );
    assert_eq!(
        err_rule(op(
            "zipWith",
            vec![opref("addi"), ivec(&[1, 2]), ivec(&[10, 20, 30])]
        )),
        "3.68 zipWith"
    );
}

#[test]
fn power_steps() {
    // (3.59) twice, then (3.60).
    let f = lam("v", op("rotate", vec![int(1), var("v")]));
    let r = run(op("power", vec![f, int(2), ivec(&[1, 2, 3])])).unwrap();
    assert_eq!(r.result, "[3](3,1,2)");
    assert_eq!(r.rules.iter().filter(|x| *x == "3.59 power").count(), 2);
    assert_eq!(r.rules.last().unwrap(), "3.60 power");
    let f = lam("v", op("muli", vec![var("v"), int(2)]));
    assert_eq!(
        value(op("powerScl", vec![f.clone(), int(10), int(1)])),
        "[](1024)"
    );
    assert_eq!(value(op("power", vec![f.clone(), int(0), int(5)])), "[](5)");
    // apltail: a negative count is err (thesis 3.60 would return the argument).
    assert_eq!(
        err_rule(op("power", vec![f.clone(), int(-1), int(5)])),
        "3.60 power"
    );
    // condScl (3.76)
    assert_eq!(
        value(op("condScl", vec![f.clone(), bool_(true), int(21)])),
        "[](42)"
    );
    assert_eq!(
        value(op("condScl", vec![f, bool_(false), int(21)])),
        "[](21)"
    );
}

#[test]
fn power_over_tuples() {
    let f = lam(
        "v",
        Surface::Tuple(
            vec![
                op(
                    "rotate",
                    vec![int(1), Surface::Prj(0, Box::new(var("v")), S)],
                ),
                op("addi", vec![Surface::Prj(1, Box::new(var("v")), S), int(1)]),
            ],
            S,
        ),
    );
    let e = op(
        "power",
        vec![f, int(2), Surface::Tuple(vec![ivec(&[1, 2, 3]), int(0)], S)],
    );
    assert_eq!(value(e), "[](([3](3,1,2),[](2)))");
}

#[test]
fn shape_rules() {
    // (3.38) reshape, (3.39) of an empty array, (3.40) transp, (3.41)/(3.42) transp2.
    assert_eq!(value(reshape(&[2, 3], ivec(&[1, 2]))), "[2,3](1,2,1,2,1,2)");
    let r = run(reshape(&[2], op("zilde", vec![]))).unwrap();
    assert_eq!(r.result, "[2](0,0)");
    assert_eq!(r.rules.last().unwrap(), "3.39 reshape");
    assert_eq!(
        value(op(
            "transp",
            vec![reshape(&[2, 3], ivec(&[1, 2, 3, 4, 5, 6]))]
        )),
        "[3,2](1,4,2,5,3,6)"
    );
    assert_eq!(
        err_rule(op(
            "transp2",
            vec![ivec(&[1, 1]), reshape(&[2, 3], ivec(&[1]))]
        )),
        "3.42 transp2"
    );
    // (3.43)/(3.44) take, (3.45)/(3.46) first.
    let r = run(op("take", vec![int(-6), ivec(&[1, 2, 3, 4])])).unwrap();
    assert_eq!(r.result, "[6](0,0,1,2,3,4)");
    assert_eq!(r.rules.last().unwrap(), "3.44 take");
    assert_eq!(
        value(op(
            "first",
            vec![op("drop", vec![int(5), dvec(&[1.5, 2.5])])]
        )),
        "[](0.0)"
    );
    assert_eq!(
        value(op("takeV", vec![int(2), ivec(&[1, 2, 3])])),
        "[2](1,2)"
    );
    // Omitted rules: drop, rotate, cat, cons, snoc, vreverse, shape, rav.
    assert_eq!(
        value(op("drop", vec![int(1), ivec(&[1, 2, 3, 4])])),
        "[3](2,3,4)"
    );
    assert_eq!(
        value(op("rotateV", vec![int(-1), ivec(&[1, 2, 3, 4, 5])])),
        "[5](5,1,2,3,4)"
    );
    assert_eq!(
        value(op("catV", vec![ivec(&[1, 2]), ivec(&[3])])),
        "[3](1,2,3)"
    );
    assert_eq!(
        value(op("consV", vec![int(0), ivec(&[1, 2])])),
        "[3](0,1,2)"
    );
    assert_eq!(value(op("snoc", vec![ivec(&[1, 2]), int(3)])), "[3](1,2,3)");
    assert_eq!(value(op("vreverse", vec![ivec(&[1, 2, 3])])), "[3](3,2,1)");
    assert_eq!(
        value(op("shape", vec![reshape(&[2, 3], ivec(&[1]))])),
        "[2](2,3)"
    );
    assert_eq!(value(op("rav", vec![int(5)])), "[1](5)");
    assert_eq!(
        err_rule(op(
            "cat",
            vec![reshape(&[2, 2], ivec(&[1])), reshape(&[3, 1], ivec(&[1]))]
        )),
        "3.63 cat"
    );
    assert_eq!(err_rule(reshape(&[-1], ivec(&[1]))), "3.38 reshape");
}

#[test]
fn selection_rules() {
    let bools = Surface::Vector(vec![bool_(true), bool_(false), bool_(true)], S);
    assert_eq!(
        value(op("compress", vec![bools.clone(), ivec(&[1, 2, 3])])),
        "[2](1,3)"
    );
    assert_eq!(
        err_rule(op("compress", vec![bools, ivec(&[1, 2])])),
        "3.65 compress"
    );
    // replicate never evaluates its first argument: an erroring z does not matter.
    let bad = op("iota", vec![int(-1)]);
    assert_eq!(
        value(op(
            "replicate",
            vec![bad, ivec(&[2, 0, 1]), ivec(&[7, 8, 9])]
        )),
        "[3](7,7,9)"
    );
    let chars = Surface::Vector(vec![chr(b'a'), chr(b'b'), chr(b'c')], S);
    assert_eq!(
        value(op("replicate", vec![chr(b'x'), ivec(&[2, -1, 1]), chars])),
        "[4](a,a, ,c)"
    );
    assert_eq!(
        value(op("idxS", vec![int(1), int(2), ivec(&[10, 20, 30])])),
        "[](20)"
    );
    assert_eq!(
        err_rule(op("idxS", vec![int(1), int(4), ivec(&[10, 20, 30])])),
        "3.71 idxS"
    );
    assert_eq!(
        value(op("gradeDown", vec![ivec(&[3, 1, 2, 1, 3])])),
        "[5](1,5,3,2,4)"
    );
}

#[test]
fn update_mutates_in_place() {
    // (3.57) idxassign writes through the location every alias shares.
    let e = let_(
        "mv1",
        op("iotaV", vec![int(5)]),
        let_(
            "y",
            var("mv1"),
            let_(
                "b",
                op("idxassign", vec![ivec(&[2]), var("mv1"), int(99)]),
                var("y"),
            ),
        ),
    );
    assert_eq!(value(e), "[5](1,99,3,4,5)");
    // (3.58) out of bounds is err.
    let e = let_(
        "mv1",
        op("iotaV", vec![int(5)]),
        op("idxassign", vec![ivec(&[6]), var("mv1"), int(1)]),
    );
    assert_eq!(err_rule(e), "3.58 idxassign");
}

#[test]
fn output_is_in_evaluation_order() {
    let r = run(op(
        "addi",
        vec![op("prSclI", vec![int(1)]), op("prSclI", vec![int(2)])],
    ))
    .unwrap();
    assert_eq!(r.output, "[](1)\n[](2)\n");
    assert_eq!(r.result, "[](3)");
    let r = run(op(
        "prArrC",
        vec![Surface::Vector(vec![chr(b'o'), chr(b'k')], S)],
    ))
    .unwrap();
    assert_eq!(r.output, "ok\n");
}

#[test]
fn tuples_projections_and_if() {
    let t = Surface::Tuple(vec![int(1), dbl(2.0)], S);
    assert_eq!(value(Surface::Prj(1, Box::new(t), S)), "[](2.0)");
    let e = Surface::If(
        Box::new(op("lti", vec![int(1), int(2)])),
        Box::new(int(10)),
        Box::new(int(20)),
        S,
    );
    let r = run(e).unwrap();
    assert_eq!(r.result, "[](10)");
    assert!(r.rules.contains(&"3.79 if".to_string()));
}

#[test]
fn missing_file_is_err() {
    let name = Surface::Vector(b"/nonexistent/x".iter().map(|&c| chr(c)).collect(), S);
    assert_eq!(err_rule(op("readFile", vec![name])), "3.75 readFile");
}

#[test]
fn ill_typed_terms_are_stuck_not_panics() {
    assert_eq!(err_rule(op("addi", vec![dbl(1.0), int(2)])), "3.32 addi");
    assert_eq!(
        err_rule(op("each", vec![int(1), ivec(&[1])])),
        "stuck ill-typed"
    );
    assert_eq!(
        err_rule(op("each", vec![lam("v", ivec(&[1, 2])), ivec(&[1])])),
        "stuck ill-typed"
    );
    assert_eq!(
        err_rule(Surface::Prj(3, Box::new(int(1)), S)),
        "stuck ill-typed"
    );
    assert_eq!(
        err_rule(Surface::Vector(vec![int(1), dbl(1.0)], S)),
        "stuck ill-typed"
    );
}
