//! Tests of configuration printing ([`Machine::configuration`]).

use super::compile::{compile_rc, Binder, Surface};
use super::machine::{Machine, Stepped};
use crate::tail::value::{BaseType, Scalar};
use crate::Span;

const S: Span = Span::DUMMY;

fn int(i: i32) -> Surface {
    Surface::Lit(Scalar::Int(i), S)
}
fn var(x: &str) -> Surface {
    Surface::Var(x.into(), S)
}
fn op(name: &str, args: Vec<Surface>) -> Surface {
    Surface::Op(name.into(), args, S)
}
fn binder(x: &str, ann: &str) -> Binder {
    Binder {
        name: x.into(),
        elem: Some(BaseType::Int),
        ann: Some(ann.into()),
    }
}
fn let_(x: &str, ann: &str, e1: Surface, e2: Surface) -> Surface {
    Surface::Let(binder(x, ann), Box::new(e1), Box::new(e2), S)
}

fn configurations(e: Surface) -> Vec<Option<String>> {
    let mut m = Machine::new(compile_rc(&e).unwrap());
    let mut out = vec![m.configuration(10_000)];
    while let Stepped::Next(_) = m.step() {
        out.push(m.configuration(10_000));
    }
    out
}

#[test]
fn configurations_substitute_values_and_bind_locations() {
    let e = let_(
        "v1",
        "<int>3",
        Surface::Vector(vec![int(1), int(2), int(3)], S),
        op(
            "i2d",
            vec![op(
                "reduce",
                vec![Surface::OpRef("addi".into(), S), int(0), var("v1")],
            )],
        ),
    );
    let cs = configurations(e);
    assert_eq!(
        cs[0].as_deref(),
        Some("let v1:<int>3 = [1,2,3] in i2d(reduce(addi,0,v1))\n")
    );
    // After the first literal's step (3.56) it is a location in the vector literal's context.
    assert_eq!(
        cs[1].as_deref(),
        Some("let l_0:S(int,1) = 1 in let v1:<int>3 = [l_0,2,3] in i2d(reduce(addi,0,v1))\n")
    );
    // The let step substitutes the location for v1.
    let after_let = cs
        .iter()
        .flatten()
        .find(|c| c.contains("reduce(") && !c.contains("let v1"))
        .expect("a configuration after the let step");
    assert!(
        after_let.starts_with("let l_3:<int>3 = [1,2,3] in"),
        "{after_let}"
    );
    assert!(after_let.contains("l_3)"), "{after_let}");
    // Inside the reduction the configuration has no TAIL syntax.
    assert!(cs.iter().any(Option::is_none));
    // The final configuration is a location holding the result.
    let last = cs.last().unwrap().as_deref().unwrap();
    assert!(
        last.starts_with("let l_") && last.contains(":[double]0 = 6.0 in l_"),
        "{last}"
    );
}

#[test]
fn closures_print_with_captured_values() {
    // let k:S(int,10) = 10 in powerScl(fn v:[int]0 => addi(v,k), 2, 1)
    let lam = Surface::Lam(
        binder("v", "[int]0"),
        Box::new(op("addi", vec![var("v"), var("k")])),
        S,
    );
    let e = let_(
        "k",
        "[int]0",
        int(10),
        op("powerScl", vec![lam, int(2), int(1)]),
    );
    let cs = configurations(e);
    let inside = cs
        .iter()
        .flatten()
        .find(|c| c.contains("powerScl(fn v:[int]0 => addi(v,l_0),1,"))
        .expect("a configuration inside the power loop");
    assert!(inside.starts_with("let l_0:S(int,10) = 10 in"), "{inside}");
}
