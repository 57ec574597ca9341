//! The one walker over kernel code that the passes (and fault injection) share: a statement's
//! parts (its own expressions, its nested blocks), visits of every statement or expression at
//! any depth in pre-order (statements in order, a statement before its blocks, an expression
//! before its operands), and rewrites of nested blocks and of every expression bottom-up. A pass
//! matches only the statements it treats specially and leaves the rest of the structure to these.

use crate::kir::{Expr, Stmt};
use std::collections::HashSet;
use std::rc::Rc;

/// The expressions a statement holds itself, in source order (not those of its nested blocks).
pub fn own_exprs(s: &Stmt) -> Vec<&Expr> {
    parts(s).0
}

/// The blocks nested in a statement: a loop's body, an `if`'s two branches.
pub fn blocks(s: &Stmt) -> Vec<&Vec<Stmt>> {
    parts(s).1
}

/// The parts of a statement, borrowed as the statement is (shared or mutable): one match for
/// [`parts`] and [`parts_mut`].
macro_rules! stmt_parts {
    ($s:expr) => {
        match $s {
            Stmt::Decl(_, _, e) | Stmt::Assign(_, e) => (vec![e], Vec::new()),
            Stmt::Store(_, i, v) => (vec![i, v], Vec::new()),
            Stmt::For {
                start,
                end,
                step,
                body,
                ..
            } => (vec![start, end, step], vec![body]),
            Stmt::If(c, t, e) => (vec![c], vec![t, e]),
            Stmt::Private(..) | Stmt::Barrier => (Vec::new(), Vec::new()),
        }
    };
}

/// A statement's own expressions and nested blocks.
pub fn parts(s: &Stmt) -> (Vec<&Expr>, Vec<&Vec<Stmt>>) {
    stmt_parts!(s)
}

/// [`parts`], mutable.
pub fn parts_mut(s: &mut Stmt) -> (Vec<&mut Expr>, Vec<&mut Vec<Stmt>>) {
    stmt_parts!(s)
}

/// Calls `f` on every statement of a block at any depth, in pre-order.
pub fn visit_stmts<'a>(stmts: &'a [Stmt], f: &mut dyn FnMut(&'a Stmt)) {
    for s in stmts {
        f(s);
        for b in blocks(s) {
            visit_stmts(b, f);
        }
    }
}

/// Calls `f` on every statement of a block at any depth, in pre-order, mutably (`f` sees a
/// statement before its nested blocks are visited).
pub fn visit_stmts_mut(stmts: &mut [Stmt], f: &mut dyn FnMut(&mut Stmt)) {
    for s in stmts {
        f(s);
        for b in parts_mut(s).1 {
            visit_stmts_mut(b, f);
        }
    }
}

/// Whether some statement of a block, at any depth, satisfies `p`.
pub fn any_stmt(stmts: &[Stmt], p: &mut dyn FnMut(&Stmt) -> bool) -> bool {
    stmts
        .iter()
        .any(|s| p(s) || blocks(s).into_iter().any(|b| any_stmt(b, p)))
}

/// Whether a block holds a barrier at any depth.
pub fn has_barrier(stmts: &[Stmt]) -> bool {
    any_stmt(stmts, &mut |s| *s == Stmt::Barrier)
}

/// The direct operands of an expression.
pub fn operands(e: &Expr) -> Vec<&Expr> {
    match e {
        Expr::Op(_, args) => args.iter().collect(),
        Expr::Select(c, a, b) => vec![c, a, b],
        Expr::Load(_, i) => vec![i],
        Expr::Int(_) | Expr::Double(_) | Expr::Bool(_) | Expr::Var(_) | Expr::Geom(_) => Vec::new(),
    }
}

/// [`operands`], mutable.
pub fn operands_mut(e: &mut Expr) -> Vec<&mut Expr> {
    match e {
        Expr::Op(_, args) => args.iter_mut().collect(),
        Expr::Select(c, a, b) => vec![c, a, b],
        Expr::Load(_, i) => vec![i],
        Expr::Int(_) | Expr::Double(_) | Expr::Bool(_) | Expr::Var(_) | Expr::Geom(_) => Vec::new(),
    }
}

/// Calls `f` on an expression and every operand at any depth, in pre-order.
pub fn visit_expr<'a>(e: &'a Expr, f: &mut dyn FnMut(&'a Expr)) {
    f(e);
    for o in operands(e) {
        visit_expr(o, f);
    }
}

/// [`visit_expr`], mutably (`f` sees an expression before its operands are visited).
pub fn visit_expr_mut(e: &mut Expr, f: &mut dyn FnMut(&mut Expr)) {
    f(e);
    for o in operands_mut(e) {
        visit_expr_mut(o, f);
    }
}

/// Whether an expression or an operand at any depth satisfies `p`.
pub fn any_expr(e: &Expr, p: &mut dyn FnMut(&Expr) -> bool) -> bool {
    p(e) || operands(e).into_iter().any(|o| any_expr(o, p))
}

/// Calls `f` on every expression of a block (each statement's own, with their operands) at any
/// depth, in pre-order.
pub fn visit_block_exprs<'a>(stmts: &'a [Stmt], f: &mut dyn FnMut(&'a Expr)) {
    visit_stmts(stmts, &mut |s| {
        for e in own_exprs(s) {
            visit_expr(e, f);
        }
    });
}

/// `s` with each nested block (a loop body, both branches of an `if`) rewritten by `f`; other
/// statements unchanged.
pub fn in_blocks(mut s: Stmt, f: &mut dyn FnMut(Vec<Stmt>) -> Vec<Stmt>) -> Stmt {
    for b in parts_mut(&mut s).1 {
        *b = f(std::mem::take(b));
    }
    s
}

/// `s` with its own expressions (not those of nested blocks) rewritten by `f`, in source order.
pub fn map_own_exprs(mut s: Stmt, f: &mut dyn FnMut(Expr) -> Expr) -> Stmt {
    for e in parts_mut(&mut s).0 {
        *e = f(std::mem::replace(e, Expr::Bool(false)));
    }
    s
}

/// Rewrites every expression of a block bottom-up with `f`.
pub fn map_exprs(stmts: Vec<Stmt>, f: &mut dyn FnMut(Expr) -> Expr) -> Vec<Stmt> {
    stmts
        .into_iter()
        .map(|s| {
            let s = map_own_exprs(s, &mut |e| map_expr(e, f));
            in_blocks(s, &mut |b| map_exprs(b, f))
        })
        .collect()
}

/// Rewrites an expression bottom-up with `f`.
pub fn map_expr(e: Expr, f: &mut dyn FnMut(Expr) -> Expr) -> Expr {
    let e = match e {
        Expr::Op(op, args) => Expr::Op(op, args.into_iter().map(|a| map_expr(a, f)).collect()),
        Expr::Select(c, a, b) => Expr::Select(
            Box::new(map_expr(*c, f)),
            Box::new(map_expr(*a, f)),
            Box::new(map_expr(*b, f)),
        ),
        Expr::Load(b, i) => Expr::Load(b, Box::new(map_expr(*i, f))),
        e => e,
    };
    f(e)
}

/// Every array a block stores into, at any depth.
pub fn stored_in(stmts: &[Stmt]) -> HashSet<Rc<str>> {
    let mut out = HashSet::new();
    visit_stmts(stmts, &mut |s| {
        if let Stmt::Store(b, ..) = s {
            out.insert(b.clone());
        }
    });
    out
}

/// Every array a block loads from, at any depth.
pub fn loaded_in(stmts: &[Stmt]) -> HashSet<Rc<str>> {
    let mut out = HashSet::new();
    visit_block_exprs(stmts, &mut |e| {
        if let Expr::Load(a, _) = e {
            out.insert(a.clone());
        }
    });
    out
}
