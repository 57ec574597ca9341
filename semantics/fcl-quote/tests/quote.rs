//! The quasi-quotes build the trees the FCL parser reads from the same text.

use fcl_quote::{fcl, fcl_stmt};
use semantics::fcl::parser::parse_expr;
use semantics::fcl::quote::{int, Name};
use semantics::fcl::syntax::{Expr, Level, Stmt};

fn parsed(src: &str) -> Expr {
    let mut e = parse_expr(src).unwrap();
    e.erase_spans();
    e
}

#[test]
fn holes_take_trees_names_numbers_and_levels() {
    let i = Name::new("i");
    let n = 32usize;
    let x = parsed("a + b * 2");
    let f = Name::new("g");
    let l = Level::block();
    let e = fcl!(
        "(if lti {i} {n} then {x} else {f}<{l}> ({}, {k}))",
        2.5,
        k = int(-1)
    );
    assert_eq!(
        e,
        parsed("if lti i 32 then a + b * 2 else g<block> (2.5, -1)")
    );
}

#[test]
fn binders_take_names_and_each_argument_is_evaluated_once() {
    let mut count = 0;
    let mut fresh = || {
        count += 1;
        Name::new(&format!("x{count}"))
    };
    let e = fcl!("(let {v} = 3 in fn {v} => {v} + 1)", v = fresh());
    assert_eq!(count, 1);
    assert_eq!(e, parsed("let x1 = 3 in fn x1 => x1 + 1"));
}

#[test]
fn statements() {
    let v = Name::new("v0");
    let a = parsed("push<grid> xs");
    let s = fcl_stmt!("{v} <- forceM<grid> ({a})");
    let want = match parsed("do<thread> { v0 <- forceM<grid> (push<grid> xs) ; () }").kind {
        semantics::fcl::syntax::ExprKind::Do(_, ss) => ss[0].clone(),
        _ => unreachable!(),
    };
    assert_eq!(s, want);
    assert!(matches!(fcl_stmt!("print {a}"), Stmt::Expr(_)));
}

#[test]
fn arguments_are_evaluated_in_the_order_written() {
    let mut n = 0;
    let mut next = || {
        n += 1;
        Name::new(&format!("v{n}"))
    };
    // the template names the second argument first; the first is still drawn first
    let e = fcl!("({1}, {0})", next(), next());
    assert_eq!(e, parsed("(v2, v1)"));
}
