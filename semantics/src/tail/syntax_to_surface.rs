//! From the typed AST to the oracle's input term ([`Surface`]), so that the oracle runs parsed
//! and checked programs.

use crate::tail::step::compile::{Binder, Surface};
use crate::tail::syntax::{Expr, ExprKind};
use crate::tail::types::{Base, Type};
use crate::tail::value::BaseType;
use std::rc::Rc;

/// The oracle term of `e` (operator names as written; binders keep their annotation text and
/// element type).
pub fn to_surface(e: &Expr) -> Surface {
    // Walk the `let` spine iteratively: programs are long chains of `let`s.
    let (lets, result) = e.let_spine();
    let mut out = node(result);
    for l in lets.into_iter().rev() {
        let bound = to_surface(l.bound);
        out = Surface::Let(binder(l.var, l.ty), Box::new(bound), Box::new(out), l.span);
    }
    out
}

fn binder(name: &str, ty: &Type) -> Binder {
    Binder {
        name: name.to_string(),
        elem: elem_type(ty),
        ann: Some(Rc::from(ty.to_string())),
    }
}

/// The element type an annotation names, if any.
fn elem_type(ty: &Type) -> Option<BaseType> {
    match ty {
        Type::Arr(Base::Known(b), _)
        | Type::Vec(Base::Known(b), _)
        | Type::S(Base::Known(b), _)
        | Type::SV(Base::Known(b), _) => Some(*b),
        _ => None,
    }
}

fn all(es: &[Expr]) -> Vec<Surface> {
    es.iter().map(to_surface).collect()
}

fn node(e: &Expr) -> Surface {
    let span = e.span;
    match &e.kind {
        ExprKind::Var(x) => Surface::Var(x.clone(), span),
        ExprKind::Lit(x) => Surface::Lit(*x, span),
        ExprKind::Let { .. } => to_surface(e),
        ExprKind::Fn { param, ty, body } => {
            Surface::Lam(binder(param, ty), Box::new(to_surface(body)), span)
        }
        ExprKind::If(c, a, b) => Surface::If(
            Box::new(to_surface(c)),
            Box::new(to_surface(a)),
            Box::new(to_surface(b)),
            span,
        ),
        ExprKind::Prj(i, x) => Surface::Prj(*i, Box::new(to_surface(x)), span),
        ExprKind::App { op, args } => Surface::Op(op.name(), all(args), span),
        ExprKind::OpValue(op) => Surface::OpRef(op.name(), span),
        ExprKind::Vector(es) => Surface::Vector(all(es), span),
        ExprKind::Tuple(es) => Surface::Tuple(all(es), span),
    }
}
