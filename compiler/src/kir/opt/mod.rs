//! Traversals of the IR and the -O2 passes: constant folding, constant and copy propagation,
//! common subexpressions, dead code, unrolling of short static loops, peeling of a first trip
//! tested inside the loop, strength reduction of division and modulo by powers of two (keeping
//! truncating semantics; `bounds`), loop-invariant hoisting; then, once per kernel, fewer
//! barriers (`barriers`) and, for one device, padded local arrays against bank conflicts
//! (`banks`, GPUs) or staged global reads forwarded past local memory (`forward`, CPUs).

mod banks;
mod barriers;
mod bounds;
mod forward;
mod passes;

pub use banks::pad_local_arrays;
pub use barriers::fewer_barriers;
pub use bounds::{known_nonneg, strength_reduce, Bounds};
pub use forward::forward_local_stores;

pub use passes::*;

use super::{Expr, Stmt};
use std::rc::Rc;

/// Every variable and array name a block mentions, in order of first mention.
pub fn names_in_block(stmts: &[Stmt], out: &mut Vec<Rc<str>>) {
    for s in stmts {
        match s {
            Stmt::Decl(_, _, e) | Stmt::Assign(_, e) => names_in_expr(e, out),
            Stmt::Store(b, i, v) => {
                add(b, out);
                names_in_expr(i, out);
                names_in_expr(v, out);
            }
            Stmt::Private(..) | Stmt::Barrier => {}
            Stmt::For {
                start,
                end,
                step,
                body,
                ..
            } => {
                names_in_expr(start, out);
                names_in_expr(end, out);
                names_in_expr(step, out);
                names_in_block(body, out);
            }
            Stmt::If(c, t, e) => {
                names_in_expr(c, out);
                names_in_block(t, out);
                names_in_block(e, out);
            }
        }
    }
}

fn add(n: &Rc<str>, out: &mut Vec<Rc<str>>) {
    if !out.contains(n) {
        out.push(n.clone());
    }
}

/// Every name an expression mentions.
pub fn names_in_expr(e: &Expr, out: &mut Vec<Rc<str>>) {
    match e {
        Expr::Var(v) => add(v, out),
        Expr::Load(b, i) => {
            add(b, out);
            names_in_expr(i, out);
        }
        Expr::Op(_, args) => args.iter().for_each(|a| names_in_expr(a, out)),
        Expr::Select(c, a, b) => {
            names_in_expr(c, out);
            names_in_expr(a, out);
            names_in_expr(b, out);
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests;
