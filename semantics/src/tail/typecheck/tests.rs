//! Subtyping (3.1)–(3.5), the strengthened relation (3.49), join, store typing (3.50)/(3.51),
//! and the lexer's literal spellings (spec §1).

use super::{typecheck, typecheck_with_store, Relation, Subst};
use crate::tail::parser::{parse, parse_type};
use crate::tail::syntax::ExprKind;
use crate::tail::types::Type;
use crate::tail::value::Scalar;

fn ty(s: &str) -> Type {
    parse_type(s).unwrap_or_else(|d| panic!("{s}: {}", d.message))
}

fn sub(t: &str, u: &str, rel: Relation) -> bool {
    Subst::default().subtype(&ty(t), &ty(u), rel)
}

#[test]
fn subtyping_is_apltails_lattice() {
    let full = Relation::Full;
    // (3.1) reflexivity
    assert!(sub("[int]2", "[int]2", full));
    // (3.3) <κ>n ⊆ [κ]1
    assert!(sub("<int>3", "[int]1", full));
    // (3.4) SV(κ,n) ⊆ <κ>1, and by (3.2) transitivity SV ⊆ [κ]1
    assert!(sub("SV(int,3)", "<int>1", full));
    assert!(sub("SV(int,3)", "[int]1", full));
    // (3.5) S(κ,n) ⊆ [κ]0
    assert!(sub("S(bool,1)", "[bool]0", full));
    // (3.49) the strengthened relation drops (3.4) only
    assert!(!sub("SV(int,3)", "<int>1", Relation::Strengthened));
    assert!(sub("SV(int,3)", "[int]1", Relation::Strengthened));
    assert!(sub("S(int,3)", "[int]0", Relation::Strengthened));
    // nothing downwards, across base types or ranks
    for (t, u) in [
        ("[int]0", "S(int,3)"),
        ("[int]1", "<int>3"),
        ("<int>2", "<int>3"),
        ("S(int,2)", "S(int,3)"),
        ("SV(int,1)", "S(int,1)"),
        ("<int>1", "SV(int,1)"),
        ("S(int,1)", "[double]0"),
        ("[int]1", "[int]2"),
        ("<int>2", "<int>1"),
    ] {
        assert!(!sub(t, u, full), "{t} ≤ {u}");
    }
    // tuples are covariant; functions invariant
    assert!(sub("(S(int,1) * <int>2)", "([int]0 * [int]1)", full));
    assert!(!sub("([int]0)->S(int,1)", "([int]0)->[int]0", full));
    // a variable on the right gets bound
    let mut s = Subst::default();
    let v = s.fresh_type();
    assert!(s.subtype(&ty("<int>3"), &v, full));
    assert_eq!(s.resolve(&v).to_string(), "[int]1");
}

#[test]
fn join_is_the_least_upper_bound() {
    let join = |t: &str, u: &str| Subst::default().join(&ty(t), &ty(u)).map(|t| t.to_string());
    assert_eq!(join("S(int,1)", "S(int,1)").as_deref(), Some("S(int,1)"));
    assert_eq!(join("S(int,1)", "S(int,2)").as_deref(), Some("[int]0"));
    assert_eq!(join("S(int,1)", "[int]0").as_deref(), Some("[int]0"));
    assert_eq!(join("SV(int,1)", "SV(int,2)").as_deref(), Some("<int>1"));
    assert_eq!(join("SV(int,1)", "<int>1").as_deref(), Some("<int>1"));
    assert_eq!(join("SV(int,1)", "<int>2").as_deref(), Some("[int]1"));
    assert_eq!(join("<int>2", "<int>3").as_deref(), Some("[int]1"));
    assert_eq!(
        join("(S(int,1) * <int>2)", "(S(int,2) * <int>2)").as_deref(),
        Some("([int]0 * <int>2)")
    );
    assert_eq!(join("[int]0", "[double]0"), None);
    assert_eq!(join("<int>2", "[int]2"), None);
}

#[test]
fn store_typing_gives_locations_their_types() {
    // (3.50) Σ(l) = τ gives Σ,Γ ⊢ l : τ; (3.51) the store's arrays have their types.
    let e = parse("addi(first(l0),l1)").unwrap();
    let sigma = vec![
        ("l0".to_string(), ty("<int>3")),
        ("l1".to_string(), ty("S(int,4)")),
    ];
    let t = typecheck_with_store(&e, &sigma, Relation::Strengthened).unwrap();
    assert_eq!(t.to_string(), "[int]0");
    // (3.49) under ⊆s an SV location does not fit an <int>1 annotation, under ⊆ it does.
    let e = parse("let v:<int>1 = l in v").unwrap();
    let sigma = vec![("l".to_string(), ty("SV(int,3)"))];
    assert!(typecheck_with_store(&e, &sigma, Relation::Strengthened).is_err());
    assert!(typecheck_with_store(&e, &sigma, Relation::Full).is_ok());
    assert!(typecheck(&e)
        .unwrap_err()
        .message
        .contains("unbound variable `l`"));
}

#[test]
fn shadowing_and_curried_lambdas() {
    let e = parse("let v:[int]0 = 1 in let v:[double]0 = i2d(v) in v").unwrap();
    assert_eq!(typecheck(&e).unwrap().to_string(), "[double]0");
    let e = parse("reduce(fn a:[int]0 => fn b:[int]0 => subi(b,a),0,[1,2])").unwrap();
    assert_eq!(typecheck(&e).unwrap().to_string(), "[int]0");
    // a bound name shadows an operator of the same name
    let e = parse("let addi:[int]0 = 1 in addi").unwrap();
    assert!(
        matches!(e.kind, ExprKind::Let { ref body, .. } if matches!(body.kind, ExprKind::Var(_)))
    );
}

fn lit(src: &str) -> Scalar {
    match &parse(src)
        .unwrap_or_else(|d| panic!("{src}: {}", d.message))
        .kind
    {
        ExprKind::Lit(x) => *x,
        k => panic!("{src} is {k:?}"),
    }
}

#[test]
fn every_literal_spelling_lexes() {
    assert_eq!(lit("-2147483648"), Scalar::Int(i32::MIN));
    assert_eq!(lit("~50"), Scalar::Int(-50));
    assert_eq!(lit("1e20"), Scalar::Double(1e20));
    assert_eq!(lit("1.5e-7"), Scalar::Double(1.5e-7));
    assert_eq!(lit("1e-05"), Scalar::Double(1e-5));
    assert_eq!(lit("3E4"), Scalar::Double(3e4));
    assert_eq!(lit("1.5e+3"), Scalar::Double(1500.0));
    assert_eq!(lit("1.5e~3"), Scalar::Double(0.0015));
    assert_eq!(lit("2."), Scalar::Double(2.0));
    assert_eq!(lit("~50.00"), Scalar::Double(-50.0));
    assert_eq!(lit("inf"), Scalar::Double(f64::INFINITY));
    assert_eq!(lit("-inf"), Scalar::Double(f64::NEG_INFINITY));
    assert_eq!(lit("~inf"), Scalar::Double(f64::NEG_INFINITY));
    assert_eq!(lit("3.0j-2.0"), Scalar::Complex((3.0, -2.0)));
    assert_eq!(lit("3j4"), Scalar::Complex((3.0, 4.0)));
    assert_eq!(lit("infj0.0"), Scalar::Complex((f64::INFINITY, 0.0)));
    assert_eq!(lit("1e20j-1.5e-7"), Scalar::Complex((1e20, -1.5e-7)));
    assert_eq!(lit("~1.0j~2.0"), Scalar::Complex((-1.0, -2.0)));
    assert_eq!(lit("tt"), Scalar::Bool(true));
    let chars = [
        ("'a'", b'a'),
        ("'''", b'\''),
        ("' '", b' '),
        ("'\\\\'", b'\\'),
        ("'\\\"'", b'"'),
        ("'\\a'", 7),
        ("'\\b'", 8),
        ("'\\t'", 9),
        ("'\\n'", 10),
        ("'\\v'", 11),
        ("'\\f'", 12),
        ("'\\r'", 13),
        ("'\\^@'", 0),
        ("'\\^A'", 1),
        ("'\\^['", 27),
        ("'\\^_'", 31),
        ("'\\127'", 127),
        ("'\\''", b'\''),
    ];
    for (src, c) in chars {
        assert_eq!(lit(src), Scalar::Char(c), "{src}");
    }
    for bad in [
        "'ab'", "'\\q'", "'\\12'", "'\\999'", "'", "1.5x", "-", "~", "1e999", "#",
    ] {
        assert!(parse(bad).is_err(), "{bad} should not parse");
    }
}

#[test]
fn typed_output_instance_lists_mv_names_and_bare_operators() {
    let e = parse("let mv1:<int>3 = iotaV{[],[3]}(3) in reduce{[int],[0]}(addi,0,mv1)").unwrap();
    assert_eq!(typecheck(&e).unwrap().to_string(), "[int]0");
    assert_eq!(
        crate::tail::printer::print(&e),
        "let mv1:<int>3 = iotaV(3) in\nreduce(addi,0,mv1)\n"
    );
    let e = parse("zipWith(eqc,['a'],['b'])").unwrap();
    assert_eq!(typecheck(&e).unwrap().to_string(), "[bool]1");
    let e = parse("let v:S(int,~5) = negi(5) in v").unwrap();
    assert_eq!(typecheck(&e).unwrap().to_string(), "S(int,~5)");
    assert_eq!(
        ty("([int]0)->([int]0)->[int]0").to_string(),
        "([int]0)->([int]0)->[int]0"
    );
    assert_eq!(ty("[int]'r1+2").to_string(), "[int]'r1+2");
}

#[test]
fn asts_built_in_code_with_bad_arity_or_empty_vectors_do_not_panic() {
    use crate::tail::ops::prim::Prim;
    use crate::tail::syntax::{Expr, Op};
    use crate::Span;
    let one = Expr::new(ExprKind::Lit(Scalar::Int(1)), Span::DUMMY);
    let app = Expr::new(
        ExprKind::App {
            op: Op::base(Prim::Addi),
            args: vec![one],
        },
        Span::DUMMY,
    );
    assert!(typecheck(&app)
        .unwrap_err()
        .message
        .contains("takes 2 argument(s), found 1"));
    let empty = Expr::new(ExprKind::Vector(vec![]), Span::DUMMY);
    assert_eq!(typecheck(&empty).unwrap().to_string(), "<'b0>0");
}

#[test]
fn printer_follows_apltails_layout() {
    use crate::tail::printer::print;
    // spec §2.6: arguments at i+1+len(op), lambda bodies at i+2, `let` bodies at i
    let text = "each(fn v1:[int]0 => let v2:[int]0 = addi(v1,1) in\n       muli(v2,v2),[1,2])\n";
    assert_eq!(print(&parse(text).unwrap()), text);
    let text = "let v1:[int]0 = let v2:[int]0 = 1 in\n  v2 in\ni2d(v1)\n";
    assert_eq!(print(&parse(text).unwrap()), text);
    let text = "if tt then\n  1\nelse \n  2\n";
    assert_eq!(print(&parse(text).unwrap()), text);
    let text = "(Prj(0,(1,2.5)),[1.0,-0.0,inf,1e20,1.5e-7],'\\n',''',3.0j-2.0,zilde())\n";
    assert_eq!(print(&parse(text).unwrap()), text);
    // older spellings print in apltail's form
    let e = parse("[~50, ~50.00, 3E4, 1e-05, ~inf]").unwrap();
    assert_eq!(print(&e), "[-50,-50.0,30000.0,0.00001,-inf]\n");
}

#[test]
fn store_values_get_their_most_precise_types() {
    use crate::tail::typecheck::{array_type, store_typing};
    use crate::tail::value::{Array, Elems};
    let t = |a: &Array| array_type(a).to_string();
    assert_eq!(t(&Array::scalar(Scalar::Int(7))), "S(int,7)");
    assert_eq!(t(&Array::scalar(Scalar::Bool(false))), "S(bool,0)");
    assert_eq!(t(&Array::scalar(Scalar::Double(1.5))), "[double]0");
    assert_eq!(t(&Array::int_vec(vec![3])), "SV(int,3)");
    assert_eq!(t(&Array::int_vec(vec![1, 2, 3])), "<int>3");
    let m = Array {
        shape: vec![2, 2],
        elems: Elems::from_scalars(crate::tail::value::BaseType::Int, vec![Scalar::Int(1); 4]),
    };
    assert_eq!(t(&m), "[int]2");
    // (3.51) a store typing, then (3.50) and (3.49) as in `typecheck_with_store`
    let sigma = store_typing(&[
        ("l0".to_string(), m),
        ("l1".to_string(), Array::int_vec(vec![2])),
    ]);
    let e = parse("let v:<int>1 = l1 in reduce(addi,0,reduce(addi,0,l0))").unwrap();
    assert!(typecheck_with_store(&e, &sigma, Relation::Strengthened).is_err());
    assert_eq!(
        typecheck_with_store(&e, &sigma, Relation::Full)
            .unwrap()
            .to_string(),
        "[int]0"
    );
}

#[test]
fn zilde_instances_come_from_the_context() {
    use super::zilde_instances;
    use crate::tail::value::BaseType;
    let src = "let v:[double]1 = reshape([1],zilde()) in let w:[int]1 = zilde() in \
               let b:[bool]1 = zilde() in v";
    let e = parse(src).unwrap_or_else(|d| panic!("{}", d.message));
    let found: Vec<BaseType> = zilde_instances(&e)
        .expect("well typed")
        .into_iter()
        .map(|(_, b)| b)
        .collect();
    assert_eq!(found, [BaseType::Double, BaseType::Int, BaseType::Bool]);
}
