//! Tests of the FCL extension for TAIL (docs/fcl-extensions.md): every new scalar built-in with
//! its edge cases (NaN, ±0.0, ±inf), exact printing, and shadowing of the new names.

use super::host::format_double_exact;
use super::tests::{grid, thread, G};
use crate::fcl::build::*;
use crate::fcl::core::{Builtin, Expr, ExprKind, ScalarOp};
use crate::fcl::lower::load_program;

fn d(x: f64) -> Expr {
    double(x)
}

fn b(x: bool) -> Expr {
    boolean(x)
}

#[test]
fn every_new_scalar_is_one_step_of_cost_1_under_rule_5_72() {
    use ScalarOp::*;
    let nan = f64::NAN;
    let inf = f64::INFINITY;
    let cases = [
        (op(PowD, vec![d(2.0), d(10.0)]), "1024.0"),
        (op(PowD, vec![d(-8.0), d(1.0 / 3.0)]), "NaN"),
        (op(PowD, vec![d(nan), d(0.0)]), "1.0"),
        // maxd x y = if x > y then x else y: a NaN on either side gives y
        (op(MaxD, vec![d(1.0), d(2.0)]), "2.0"),
        (op(MaxD, vec![d(nan), d(2.0)]), "2.0"),
        (op(MaxD, vec![d(2.0), d(nan)]), "NaN"),
        (op(MaxD, vec![d(0.0), d(-0.0)]), "-0.0"),
        (op(MinD, vec![d(1.0), d(2.0)]), "1.0"),
        (op(MinD, vec![d(nan), d(2.0)]), "2.0"),
        (op(MinD, vec![d(2.0), d(nan)]), "NaN"),
        (op(MinD, vec![d(-0.0), d(0.0)]), "0.0"),
        (op(NegD, vec![d(0.0)]), "-0.0"),
        (op(NegD, vec![d(-0.0)]), "0.0"),
        (op(NegD, vec![d(inf)]), "-inf"),
        (op(AbsD, vec![d(-0.0)]), "0.0"),
        (op(AbsD, vec![d(-2.5)]), "2.5"),
        (op(ExpD, vec![d(0.0)]), "1.0"),
        (op(ExpD, vec![d(-inf)]), "0.0"),
        (op(LogD, vec![d(1.0)]), "0.0"),
        (op(LogD, vec![d(0.0)]), "-inf"),
        (op(LogD, vec![d(-1.0)]), "NaN"),
        (op(SqrtD, vec![d(2.25)]), "1.5"),
        (op(SqrtD, vec![d(-0.0)]), "-0.0"),
        (op(SqrtD, vec![d(-1.0)]), "NaN"),
        (op(SinD, vec![d(0.0)]), "0.0"),
        (op(CosD, vec![d(0.0)]), "1.0"),
        (op(TanD, vec![d(-0.0)]), "-0.0"),
        (
            op(AsinD, vec![d(1.0)]),
            &format!("{:?}", std::f64::consts::FRAC_PI_2),
        ),
        (op(AsinD, vec![d(2.0)]), "NaN"),
        (op(AcosD, vec![d(1.0)]), "0.0"),
        (
            op(AtanD, vec![d(inf)]),
            &format!("{:?}", std::f64::consts::FRAC_PI_2),
        ),
        (op(SinhD, vec![d(0.0)]), "0.0"),
        (op(CoshD, vec![d(0.0)]), "1.0"),
        (op(TanhD, vec![d(inf)]), "1.0"),
        (op(FloorD, vec![d(-3.5)]), "-4"),
        (op(FloorD, vec![d(2147483647.5)]), "2147483647"),
        (op(CeilD, vec![d(-3.5)]), "-3"),
        (op(CeilD, vec![d(0.25)]), "1"),
        // signd: 1 for x >= 0.0, -0.0 included; -1 otherwise, NaN included
        (op(SignD, vec![d(-0.0)]), "1"),
        (op(SignD, vec![d(0.0)]), "1"),
        (op(SignD, vec![d(-1e-300)]), "-1"),
        (op(SignD, vec![d(nan)]), "-1"),
        (op(LtD, vec![d(1.0), d(2.0)]), "true"),
        (op(LtD, vec![d(nan), d(2.0)]), "false"),
        (op(LeD, vec![d(2.0), d(2.0)]), "true"),
        (op(GtD, vec![d(2.0), d(nan)]), "false"),
        (op(GeD, vec![d(-0.0), d(0.0)]), "true"),
        (op(EqD, vec![d(-0.0), d(0.0)]), "true"),
        (op(EqD, vec![d(nan), d(nan)]), "false"),
        (op(AndB, vec![b(true), b(false)]), "false"),
        (op(AndB, vec![b(true), b(true)]), "true"),
        (op(OrB, vec![b(false), b(true)]), "true"),
        (op(OrB, vec![b(false), b(false)]), "false"),
        (op(XorB, vec![b(true), b(true)]), "false"),
        (op(XorB, vec![b(true), b(false)]), "true"),
        (op(EqB, vec![b(false), b(false)]), "true"),
        (op(EqB, vec![b(true), b(false)]), "false"),
        (op(NotB, vec![b(false)]), "true"),
    ];
    for (e, want) in cases {
        let shown = format!("{e:?}");
        let r = thread(e);
        assert_eq!(r.value(), want, "{shown}");
        assert_eq!(r.steps.len(), 1, "{shown}");
        assert_eq!(r.steps[0].cost, 1, "{shown}");
        assert_eq!(r.steps[0].rule.number, "5.72", "{shown}");
    }
}

#[test]
fn every_new_scalar_has_its_tail_name_and_scheme() {
    use crate::fcl::builtins::{canonical, environment};
    let env = environment();
    let scheme = |n: &str| env.iter().find(|(m, _)| m == n).map(|(_, s)| s.render());
    for (name, want) in [
        ("powd", "double -> double -> double"),
        ("negd", "double -> double"),
        ("floord", "double -> int"),
        ("signd", "double -> int"),
        ("ged", "double -> double -> bool"),
        ("xorb", "bool -> bool -> bool"),
        ("notb", "bool -> bool"),
        (
            "forceAndPrintDoubleExact",
            "int -> [double]<grid> -> Program <grid> [double]",
        ),
    ] {
        assert_eq!(scheme(name).as_deref(), Some(want), "{name}");
        assert_eq!(canonical(name), Some(name));
    }
    // the table and the core enumeration agree on every scalar
    for op in ScalarOp::ALL {
        let (params, result) = op.signature();
        let mut t = result.to_string();
        for p in params.iter().rev() {
            t = format!("{p} -> {t}");
        }
        assert_eq!(scheme(op.name()), Some(t), "{}", op.name());
    }
}

#[test]
fn floord_and_ceild_outside_int_reduce_to_err() {
    for x in [f64::NAN, f64::INFINITY, 2147483648.0, -2147483649.0] {
        for o in [ScalarOp::FloorD, ScalarOp::CeilD] {
            let r = thread(op(o, vec![d(x)]));
            assert_eq!(r.err().rule.to_string(), format!("5.72 {}", o.name()));
            assert!(r.err().reason.contains("does not fit an int"), "{x}");
            assert_eq!(r.err().kind(), "int-conversion");
        }
    }
    // both operands of andb are evaluated: an error in the second is not skipped
    let r = thread(op(
        ScalarOp::AndB,
        vec![
            b(false),
            op(ScalarOp::EqI, vec![div(int(1), int(0)), int(0)]),
        ],
    ));
    assert_eq!(r.err().kind(), "division-by-zero");
}

#[test]
fn exact_printing_round_trips() {
    let xs = [
        0.1,
        2.0,
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        -0.0,
        1e300,
        1e-7,
    ];
    let shown: Vec<String> = xs.iter().map(|x| format_double_exact(*x)).collect();
    assert_eq!(shown.join(","), "0.1,2.0,NaN,inf,-inf,-0.0,1e300,1e-7");
    for (x, s) in xs.iter().zip(&shown) {
        let back: f64 = s.parse().unwrap();
        assert!(
            back.to_bits() == x.to_bits() || (x.is_nan() && back.is_nan()),
            "{s}"
        );
    }
    // forceAndPrintDoubleExact inside a grid program
    let pick = |i: usize| {
        xs[i + 1..]
            .iter()
            .enumerate()
            .rev()
            .fold(d(xs[i]), |els, (k, x)| {
                if_(
                    op(ScalarOp::EqI, vec![var("i"), int((i + 1 + k) as i32)]),
                    d(*x),
                    els,
                )
            })
    };
    let arr = push(G, generate(int(xs.len() as i32), fn_int("i", pick(0))));
    let r = grid(call(
        Builtin::ForceAndPrintDoubleExact,
        vec![int(xs.len() as i32), arr.clone()],
    ));
    assert_eq!(r.stdout, "[0.1,2.0,NaN,inf,-inf,-0.0,1e300,1e-7]\n");
    assert_eq!(r.value(), format!("Program<grid> [{}]", shown.join(", ")));
    // the %.5f printer on the same values, for contrast
    let r = grid(call(
        Builtin::ForceAndPrintDouble,
        vec![int(2), arr.clone()],
    ));
    assert_eq!(r.stdout, "[0.10000,2.00000]\n");
    // the count is checked as for forceAndPrint
    let r = grid(call(Builtin::ForceAndPrintDoubleExact, vec![int(9), arr]));
    assert_eq!(r.err().kind(), "print-count-out-of-range");
}

/// Whether a core term calls `b` anywhere.
fn calls(e: &Expr, b: Builtin) -> bool {
    match &e.kind {
        ExprKind::Call(c, args) => *c == b || args.iter().any(|a| calls(a, b)),
        ExprKind::Lam { body, .. } | ExprKind::Fst(body) | ExprKind::Snd(body) => calls(body, b),
        ExprKind::Let { bound, body, .. } => calls(bound, b) || calls(body, b),
        ExprKind::App(x, y) | ExprKind::Pair(x, y) => calls(x, b) || calls(y, b),
        ExprKind::If(x, y, z) => calls(x, b) || calls(y, b) || calls(z, b),
        _ => false,
    }
}

#[test]
fn user_definitions_shadow_the_new_names() {
    let load = |src: &str| {
        load_program(&[("t.fcl".to_string(), src.to_string())])
            .unwrap_or_else(|(f, e)| panic!("{f}: {e:?}"))
    };
    let builtin = load(
        "val main = do<grid> { a <- forceAndPrint 1 (push<grid> (generate 1 (fn i => signd (maxd 1.0 2.0)))) ; return<grid> () }\n",
    );
    assert!(calls(&builtin.main, Builtin::Scalar(ScalarOp::MaxD)));
    assert_eq!(grid(builtin.main).stdout, "[1]\n");
    // a top-level `maxd` of another type, and a local `signd`, win over the built-ins
    let shadowed = load(
        "sig maxd : int -> int -> int\nfun maxd x y = x * y\n\
         val main = do<grid> { a <- forceAndPrint 1 (push<grid> (generate 1 (fn i => \
         let signd = fn z => z + 100 in signd (maxd 3 4)))) ; return<grid> () }\n",
    );
    assert!(!calls(&shadowed.main, Builtin::Scalar(ScalarOp::MaxD)));
    assert!(!calls(&shadowed.main, Builtin::Scalar(ScalarOp::SignD)));
    assert_eq!(grid(shadowed.main).stdout, "[112]\n");
}

#[test]
fn double_bits_are_the_encodings_halves() {
    use ScalarOp::*;
    let halves = |x: f64| {
        let bits = x.to_bits();
        ((bits >> 32) as u32 as i32, bits as u32 as i32)
    };
    for x in [
        0.0,
        -0.0,
        1.0,
        -1.5,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        -f64::NAN,
        f64::MIN_POSITIVE / 4.0,
        f64::MAX,
        1.0 + f64::EPSILON,
    ] {
        let (hi, lo) = halves(x);
        for (o, want) in [(DoubleHiBits, hi), (DoubleLoBits, lo)] {
            let r = thread(op(o, vec![d(x)]));
            assert_eq!(r.value(), want.to_string(), "{} {x}", o.name());
            assert_eq!((r.steps.len(), r.steps[0].cost), (1, 1));
            assert_eq!(r.steps[0].rule.number, "5.72");
        }
    }
    // the sign and exponent are the top bits; the last mantissa bit is the low half's bit 0
    assert_eq!(halves(-0.0), (i32::MIN, 0));
    assert_eq!(halves(1.0), (0x3ff0_0000, 0));
    assert_eq!(halves(1.0 + f64::EPSILON), (0x3ff0_0000, 1));
}
