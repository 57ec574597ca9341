//! Property: `parse(print(e)) == e` for generated expressions (quickcheck), and printing is
//! idempotent. Literals are drawn from values whose 12-digit text is exact (spec §6.6 rounds).

use crate::tail::ops::prim::{Prim, ALL_NAMES};
use crate::tail::parser::parse;
use crate::tail::printer::print;
use crate::tail::shape::Shape;
use crate::tail::syntax::{Expr, ExprKind, Op};
use crate::tail::types::{Base, Type};
use crate::tail::value::{BaseType, Scalar};
use crate::Span;
use quickcheck::{Arbitrary, Gen, QuickCheck};

/// A generated program.
#[derive(Clone, Debug)]
struct Prog(Expr);

const DOUBLES: &[f64] = &[
    0.0,
    -0.0,
    1.5,
    -2.25,
    2.61828182846,
    1e20,
    1.5e-7,
    0.000001,
    100000000000.0,
    f64::INFINITY,
    f64::NEG_INFINITY,
    12345.6789012,
    -1.23456789012e14,
];
const BASES: &[BaseType] = &[
    BaseType::Int,
    BaseType::Double,
    BaseType::Bool,
    BaseType::Char,
    BaseType::Complex,
];

fn pick<T: Clone>(g: &mut Gen, xs: &[T]) -> T {
    g.choose(xs).expect("non-empty").clone()
}

fn below(g: &mut Gen, n: u32) -> u32 {
    u32::arbitrary(g) % n
}

fn gen_shape(g: &mut Gen) -> Shape {
    let mut s = Shape::lit(i64::from(i8::arbitrary(g)));
    if bool::arbitrary(g) {
        s = s.add(&Shape::var(below(g, 4)));
    }
    s
}

fn gen_base(g: &mut Gen) -> Base {
    if below(g, 6) == 0 {
        Base::Var(below(g, 4))
    } else {
        Base::Known(pick(g, BASES))
    }
}

fn gen_type(g: &mut Gen, depth: u32) -> Type {
    let k = if depth == 0 { below(g, 4) } else { below(g, 7) };
    match k {
        0 => Type::Arr(gen_base(g), gen_shape(g)),
        1 => Type::Vec(gen_base(g), gen_shape(g)),
        2 => Type::S(gen_base(g), gen_shape(g)),
        3 => Type::SV(gen_base(g), gen_shape(g)),
        4 => Type::Tuple(
            (0..2 + below(g, 2))
                .map(|_| gen_type(g, depth - 1))
                .collect(),
        ),
        5 => Type::fun(gen_type(g, depth - 1), gen_type(g, depth - 1)),
        _ => Type::Var(below(g, 4)),
    }
}

fn gen_scalar(g: &mut Gen) -> Scalar {
    match below(g, 5) {
        0 => Scalar::Int(i32::arbitrary(g)),
        1 => Scalar::Double(pick(g, DOUBLES)),
        2 => Scalar::Bool(bool::arbitrary(g)),
        3 => Scalar::Char(below(g, 128) as u8),
        _ => Scalar::Complex((pick(g, DOUBLES), pick(g, DOUBLES))),
    }
}

fn e(kind: ExprKind) -> Expr {
    Expr::new(kind, Span::DUMMY)
}

fn gen_expr(g: &mut Gen, depth: u32) -> Expr {
    let leaf = depth == 0 || below(g, 3) == 0;
    let name = format!("v{}", below(g, 5));
    if leaf {
        return match below(g, 3) {
            0 => e(ExprKind::Var(name)),
            1 => e(ExprKind::Lit(gen_scalar(g))),
            _ => {
                let op = Op::from_name(pick(g, ALL_NAMES)).expect("a name");
                if op.arity() == 0 {
                    e(ExprKind::App { op, args: vec![] })
                } else {
                    e(ExprKind::OpValue(op))
                }
            }
        };
    }
    let d = depth - 1;
    let sub = |g: &mut Gen, n: u32| (0..n).map(|_| gen_expr(g, d)).collect::<Vec<_>>();
    match below(g, 7) {
        0 => e(ExprKind::Let {
            var: name,
            ty: gen_type(g, 2),
            bound: Box::new(gen_expr(g, d)),
            body: Box::new(gen_expr(g, d)),
        }),
        1 => e(ExprKind::Fn {
            param: name,
            ty: gen_type(g, 2),
            body: Box::new(gen_expr(g, d)),
        }),
        2 => {
            let mut es = sub(g, 3);
            let c = es.remove(0);
            let a = es.remove(0);
            e(ExprKind::If(
                Box::new(c),
                Box::new(a),
                Box::new(es.remove(0)),
            ))
        }
        3 => e(ExprKind::Prj(
            below(g, 3) as usize,
            Box::new(gen_expr(g, d)),
        )),
        4 => {
            let op = Op::from_name(pick(g, ALL_NAMES)).expect("a name");
            let args = sub(g, op.arity() as u32);
            e(ExprKind::App { op, args })
        }
        5 => {
            let n = 1 + below(g, 3);
            e(ExprKind::Vector(sub(g, n)))
        }
        _ => {
            let n = 2 + below(g, 2);
            e(ExprKind::Tuple(sub(g, n)))
        }
    }
}

impl Arbitrary for Prog {
    fn arbitrary(g: &mut Gen) -> Prog {
        Prog(gen_expr(g, 5))
    }
}

fn round_trips(p: Prog) -> bool {
    let text = print(&p.0);
    match parse(&text) {
        Ok(back) => back == p.0 && print(&back) == text,
        Err(d) => panic!("{}\n{text}", d.message),
    }
}

#[test]
fn parse_of_print_is_the_identity() {
    QuickCheck::new()
        .tests(500)
        .quickcheck(round_trips as fn(Prog) -> bool);
}

#[test]
fn generator_reaches_every_form() {
    let mut g = Gen::new(10);
    let texts: String = (0..200).map(|_| print(&gen_expr(&mut g, 5))).collect();
    for needle in [
        "let ", "fn ", "if ", "Prj(", "[", "(", "'", "j", "->", "SV(", "<",
    ] {
        assert!(texts.contains(needle), "never generated {needle}");
    }
    assert!(Prim::from_name("iotaV").is_some());
}
