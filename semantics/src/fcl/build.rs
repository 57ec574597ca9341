//! Short constructors for core terms written in Rust (tests, examples, benchmarks, generators).
//! Every node gets [`Span::DUMMY`]; the front end builds real spans with [`Expr::new`].

use super::core::{Builtin, Expr, Level, ScalarOp, Type};
use crate::Span;

const S: Span = Span::DUMMY;

pub fn int(i: i32) -> Expr {
    Expr::int(i, S)
}
pub fn double(d: f64) -> Expr {
    Expr::double(d, S)
}
pub fn boolean(b: bool) -> Expr {
    Expr::bool(b, S)
}
pub fn unit() -> Expr {
    Expr::unit(S)
}
pub fn var(x: &str) -> Expr {
    Expr::var(x, S)
}
pub fn lam(x: &str, ty: Type, body: Expr) -> Expr {
    Expr::lam(x, ty, body, S)
}
pub fn app(f: Expr, a: Expr) -> Expr {
    Expr::app(f, a, S)
}
pub fn let_(x: &str, ty: Type, bound: Expr, body: Expr) -> Expr {
    Expr::let_(x, ty, bound, body, S)
}
pub fn if_(c: Expr, t: Expr, e: Expr) -> Expr {
    Expr::if_(c, t, e, S)
}
pub fn pair(a: Expr, b: Expr) -> Expr {
    Expr::pair(a, b, S)
}
pub fn fst(e: Expr) -> Expr {
    Expr::fst(e, S)
}
pub fn snd(e: Expr) -> Expr {
    Expr::snd(e, S)
}
pub fn call(b: Builtin, args: Vec<Expr>) -> Expr {
    Expr::call(b, args, S)
}
pub fn op(o: ScalarOp, args: Vec<Expr>) -> Expr {
    Expr::call(Builtin::Scalar(o), args, S)
}
pub fn add(a: Expr, b: Expr) -> Expr {
    op(ScalarOp::AddI, vec![a, b])
}
pub fn sub(a: Expr, b: Expr) -> Expr {
    op(ScalarOp::SubI, vec![a, b])
}
pub fn mul(a: Expr, b: Expr) -> Expr {
    op(ScalarOp::MulI, vec![a, b])
}
pub fn div(a: Expr, b: Expr) -> Expr {
    op(ScalarOp::DivI, vec![a, b])
}
pub fn generate(n: Expr, f: Expr) -> Expr {
    call(Builtin::Generate, vec![n, f])
}
pub fn index(arr: Expr, i: Expr) -> Expr {
    call(Builtin::Index, vec![arr, i])
}
pub fn length(arr: Expr) -> Expr {
    call(Builtin::LengthPull, vec![arr])
}
pub fn push(l: Level, arr: Expr) -> Expr {
    call(Builtin::Push(l), vec![arr])
}
pub fn force(l: Level, a: Expr) -> Expr {
    call(Builtin::Force(l), vec![a])
}
pub fn ret(l: Level, v: Expr) -> Expr {
    call(Builtin::Return(l), vec![v])
}
pub fn bind(l: Level, p: Expr, f: Expr) -> Expr {
    call(Builtin::Bind(l), vec![p, f])
}
pub fn interleave(l: Level, k: Expr, f: Expr, ps: Expr) -> Expr {
    call(Builtin::Interleave(l), vec![k, f, ps])
}
/// `fn i : int => body`.
pub fn fn_int(x: &str, body: Expr) -> Expr {
    lam(x, Type::Int, body)
}
/// `fn p : (int, int) => body`, the destination functions of interleavings.
pub fn fn_pair(x: &str, body: Expr) -> Expr {
    lam(x, Type::pair(Type::Int, Type::Int), body)
}
