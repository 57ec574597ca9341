//! Traversals of the IR and the -O2 passes: constant folding, constant and copy propagation,
//! common subexpressions, dead code, unrolling of short static loops, peeling of a first trip
//! tested inside the loop, strength reduction of division and modulo by powers of two (keeping
//! truncating semantics; `bounds`), loop-invariant hoisting; then, once per kernel, fewer
//! barriers (`barriers`) and, for one device, padded local arrays against bank conflicts
//! (`banks`, GPUs) or staged global reads forwarded past local memory (`forward`, CPUs) and
//! innermost sequential loops run in step across the work-group (`lockstep`, CPUs).

mod banks;
mod barriers;
mod bounds;
mod forward;
mod lockstep;
mod passes;
mod recurrence;
pub mod walk;

pub use banks::pad_local_arrays;
pub use barriers::fewer_barriers;
pub use bounds::{known_nonneg, strength_reduce, Bounds};
pub use forward::forward_local_stores;
pub use lockstep::lockstep_loops;

pub use passes::*;
pub use recurrence::carried_recurrences;
pub use walk::{map_expr, map_exprs};

use super::{Expr, Stmt};
use std::rc::Rc;

/// Every variable and array name a block mentions, in order of first mention.
pub fn names_in_block(stmts: &[Stmt], out: &mut Vec<Rc<str>>) {
    walk::visit_stmts(stmts, &mut |s| {
        if let Stmt::Store(b, ..) = s {
            add(b, out);
        }
        for e in walk::own_exprs(s) {
            names_in_expr(e, out);
        }
    });
}

fn add(n: &Rc<str>, out: &mut Vec<Rc<str>>) {
    if !out.contains(n) {
        out.push(n.clone());
    }
}

/// Every name an expression mentions.
pub fn names_in_expr(e: &Expr, out: &mut Vec<Rc<str>>) {
    walk::visit_expr(e, &mut |x| {
        if let Expr::Var(n) | Expr::Load(n, _) = x {
            add(n, out);
        }
    });
}

#[cfg(test)]
mod tests;
