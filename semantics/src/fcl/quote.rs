//! Building FCL surface syntax in Rust: short constructors for [`Expr`] trees (every span
//! [`Span::DUMMY`]) and the traits that fill the holes of the `fcl!` quasi-quote (crate
//! `fcl-quote`), which parses its template when the Rust program is compiled and expands to
//! these constructors. A program generator (the TAIL lowering) builds trees this way and hands
//! them to the front end with no text in between.

use super::syntax::{BinOp, Expr, ExprKind, Level, Scheme, Stmt, Type, TypeKind};
use crate::Span;
use std::rc::Rc;
use std::sync::Arc;

fn at(kind: ExprKind) -> Expr {
    Expr {
        kind,
        span: Span::DUMMY,
    }
}

/// An int literal.
pub fn int(i: i64) -> Expr {
    at(ExprKind::Int(i))
}
/// A double literal.
pub fn double(d: f64) -> Expr {
    at(ExprKind::Double(d))
}
/// `true` or `false`.
pub fn boolean(b: bool) -> Expr {
    at(ExprKind::Bool(b))
}
/// A string literal.
pub fn string(s: &str) -> Expr {
    at(ExprKind::Str(s.to_string()))
}
/// `()`.
pub fn unit() -> Expr {
    at(ExprKind::Unit)
}
/// A variable, with level arguments when it has any (`push<grid>`).
pub fn var(x: impl Into<String>, levels: Vec<Level>) -> Expr {
    at(ExprKind::Var(x.into(), levels))
}
/// `(a, b)`.
pub fn pair(a: Expr, b: Expr) -> Expr {
    at(ExprKind::Pair(Arc::new(a), Arc::new(b)))
}
/// `fn x y => body`.
pub fn lam(params: Vec<String>, body: Expr) -> Expr {
    at(ExprKind::Fn(params, Arc::new(body)))
}
/// `f a`.
pub fn app(f: Expr, a: Expr) -> Expr {
    at(ExprKind::App(Arc::new(f), Arc::new(a)))
}
/// `f a1 … an`: the built-in or function `f` applied to each argument in turn.
pub fn call(f: &str, args: impl IntoIterator<Item = Expr>) -> Expr {
    args.into_iter().fold(var(f, Vec::new()), app)
}
/// `a op b`.
pub fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
    at(ExprKind::BinOp(op, Arc::new(a), Arc::new(b)))
}
/// `if c then t else e`.
pub fn cond(c: Expr, t: Expr, e: Expr) -> Expr {
    at(ExprKind::If(Arc::new(c), Arc::new(t), Arc::new(e)))
}
/// `let x<levels> : sig = rhs in body`.
pub fn let_in(
    name: impl Into<String>,
    levels: Vec<String>,
    sig: Option<Scheme>,
    rhs: Expr,
    body: Expr,
) -> Expr {
    at(ExprKind::Let {
        name: name.into(),
        levels,
        sig,
        rhs: Arc::new(rhs),
        body: Arc::new(body),
    })
}
/// `do<l> { s1 ; … }`.
pub fn do_block(l: Level, stmts: Vec<Stmt>) -> Expr {
    at(ExprKind::Do(l, stmts))
}
/// A level: `succs` applications of `1+` to `Z` or to variable `var`.
pub fn level(succs: u32, var: Option<&str>) -> Level {
    Level {
        succs,
        var: var.map(str::to_string),
        span: Span::DUMMY,
    }
}
/// `1+` applied `succs` times to level `l`.
pub fn level_plus(l: Level, succs: u32) -> Level {
    Level {
        succs: l.succs + succs,
        ..l
    }
}
/// A type.
pub fn ty(kind: TypeKind) -> Type {
    Type {
        kind,
        span: Span::DUMMY,
    }
}
/// A type scheme.
pub fn scheme(forall: Option<(Vec<String>, Vec<String>)>, t: Type) -> Scheme {
    Scheme {
        forall,
        ty: t,
        span: Span::DUMMY,
    }
}

/// A value that can fill an expression hole of a quasi-quote: a tree, a name, a number.
/// Strings are not expressions: text is never spliced into a tree.
pub trait ToExpr {
    /// The expression.
    fn to_expr(&self) -> Expr;
}

impl ToExpr for Expr {
    fn to_expr(&self) -> Expr {
        self.clone()
    }
}
impl<T: ToExpr + ?Sized> ToExpr for &T {
    fn to_expr(&self) -> Expr {
        (**self).to_expr()
    }
}
impl<T: ToExpr + ?Sized> ToExpr for Box<T> {
    fn to_expr(&self) -> Expr {
        (**self).to_expr()
    }
}
impl<T: ToExpr + ?Sized> ToExpr for Arc<T> {
    fn to_expr(&self) -> Expr {
        (**self).to_expr()
    }
}
impl<T: ToExpr + ?Sized> ToExpr for Rc<T> {
    fn to_expr(&self) -> Expr {
        (**self).to_expr()
    }
}
macro_rules! int_to_expr {
    ($($t:ty),*) => {$(
        impl ToExpr for $t {
            fn to_expr(&self) -> Expr {
                int(i64::try_from(*self).expect("an FCL int literal fits in i64"))
            }
        }
    )*};
}
int_to_expr!(i32, i64, u32, u64, usize);
impl ToExpr for f64 {
    fn to_expr(&self) -> Expr {
        double(*self)
    }
}
impl ToExpr for bool {
    fn to_expr(&self) -> Expr {
        boolean(*self)
    }
}

/// A variable name: fills a name hole (a binder, a function applied to levels) and, as the
/// variable, an expression hole.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Name(pub Rc<str>);

impl Name {
    /// The name `s`.
    pub fn new(s: &str) -> Name {
        Name(Rc::from(s))
    }
    /// The name as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for Name {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl ToExpr for Name {
    fn to_expr(&self) -> Expr {
        var(self.as_str(), Vec::new())
    }
}

/// A value that can fill a name hole of a quasi-quote.
pub trait ToName {
    /// The name.
    fn to_name(&self) -> String;
}
impl ToName for Name {
    fn to_name(&self) -> String {
        self.0.to_string()
    }
}
impl ToName for str {
    fn to_name(&self) -> String {
        self.to_string()
    }
}
impl ToName for String {
    fn to_name(&self) -> String {
        self.clone()
    }
}
impl<T: ToName + ?Sized> ToName for &T {
    fn to_name(&self) -> String {
        (**self).to_name()
    }
}

/// A value that can fill a level hole of a quasi-quote (`do<{l}>`).
pub trait ToLevel {
    /// The level.
    fn to_level(&self) -> Level;
}
impl ToLevel for Level {
    fn to_level(&self) -> Level {
        self.clone()
    }
}
impl<T: ToLevel + ?Sized> ToLevel for &T {
    fn to_level(&self) -> Level {
        (**self).to_level()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fcl::parser::parse_expr;
    use crate::fcl::printer::print_expr;

    #[test]
    fn constructors_build_what_the_parser_reads() {
        let mut parsed = parse_expr("if lti i 3 then f<grid> (i, 2.5) else 0 - 1").unwrap();
        parsed.erase_spans();
        let built = cond(
            call("lti", [var("i", vec![]), int(3)]),
            app(
                var("f", vec![level(2, None)]),
                pair(var("i", vec![]), double(2.5)),
            ),
            bin(BinOp::Sub, int(0), int(1)),
        );
        assert_eq!(parsed, built);
        assert_eq!(
            print_expr(&built).trim(),
            "if lti i 3 then f<grid> (i, 2.5) else 0 - 1"
        );
    }

    #[test]
    fn names_and_numbers_fill_expression_holes() {
        assert_eq!(Name::new("x3").to_expr(), var("x3", vec![]));
        assert_eq!(7usize.to_expr(), int(7));
        assert_eq!((&&int(2)).to_expr(), int(2));
    }
}
