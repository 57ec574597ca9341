//! Whether a grid `force` writes every element of its buffer, so that the buffer needs no zero
//! fill before the launch (a fill costs as much device time as writing the array once). A
//! defect-free program writes every element anyway (the oracle reports a hole), but the
//! compiled code cannot tell a hole, and an unfilled buffer would show whatever it last held;
//! so the fill is dropped only where the writers provably cover the array: `push`, `seqfor`,
//! `mapPush` of such, and interleavings whose destination is `b·k + j` (`concat`,
//! `concatMap`) over parts that each cover their `k` elements.

use super::value::{Push, Val};
use super::{Lower, Res};
use crate::kir::eval::fold_op;
use crate::kir::{Expr, Stmt, Ty};
use semantics::fcl::core::ScalarOp::{AddI, MulI};

impl Lower {
    /// Whether writing `p` (about to become a grid kernel) writes every index below its length.
    /// Evaluates the parts symbolically in a scratch kernel, which is then thrown away.
    pub(super) fn writes_every_element(&mut self, p: &Push) -> bool {
        if self.in_kernel() {
            return false;
        }
        let span = self.span;
        let kernels = self.kernels.len();
        if self.begin_kernel().is_err() {
            return false;
        }
        let r = self.covers(p);
        self.kernel = None;
        self.blocks.clear();
        self.kernels.truncate(kernels);
        self.span = span;
        r.unwrap_or(false)
    }

    /// [`Lower::writes_every_element`] inside the scratch kernel.
    fn covers(&mut self, p: &Push) -> Res<bool> {
        match p {
            // every i below the length, at any level
            Push::Push(..) | Push::SeqFor { .. } => Ok(true),
            Push::MapPush(_, a) => self.covers(a),
            Push::Interleave { k, f, ps, .. } => {
                let b = Expr::Var(self.fresh("cover_b"));
                let j = Expr::Var(self.fresh("cover_j"));
                let part = self.interleave_part(ps, &b)?;
                let len = Lower::push_len(&part);
                let same_len = len == *k
                    || self
                        .constant_size(&len)
                        .is_some_and(|n| Some(n) == self.constant_size(k));
                if !same_len || !self.covers(&part)? {
                    return Ok(false);
                }
                let pair = Val::Pair(
                    std::rc::Rc::new(Val::Scalar(b.clone(), Ty::Int)),
                    std::rc::Rc::new(Val::Scalar(j.clone(), Ty::Int)),
                );
                let d = self.apply(f, pair)?;
                let d = self.scalar(d)?;
                Ok(is_concat_index(&d, &b, k, &j))
            }
        }
    }
}

/// Whether `d` is `b·k + j` (in either operand order).
fn is_concat_index(d: &Expr, b: &Expr, k: &Expr, j: &Expr) -> bool {
    let products = [
        fold_op(MulI, vec![b.clone(), k.clone()]),
        fold_op(MulI, vec![k.clone(), b.clone()]),
    ];
    products.iter().any(|bk| {
        *d == fold_op(AddI, vec![bk.clone(), j.clone()])
            || *d == fold_op(AddI, vec![j.clone(), bk.clone()])
    })
}

impl Lower {
    /// The integer `n` always holds, when its run-time parts cancel (see
    /// [`crate::kir::linear`]); kernel temporaries declared once and never assigned in the open
    /// blocks are seen through.
    pub(super) fn constant_size(&self, n: &Expr) -> Option<i32> {
        let defs = |v: &str| -> Option<Expr> {
            let mut def = None;
            for b in &self.blocks {
                for s in b {
                    if let Stmt::Decl(d, _, e) = s {
                        if &**d == v {
                            def = Some(e.clone());
                        }
                    }
                }
            }
            if self.blocks.iter().any(|b| assigns(b, v)) {
                return None;
            }
            def
        };
        crate::kir::linear::constant_int_with(n, &defs)
    }
}

/// Whether a statement of `block` (at any depth) assigns variable `v`.
fn assigns(block: &[Stmt], v: &str) -> bool {
    block.iter().any(|s| match s {
        Stmt::Assign(a, _) => &**a == v,
        Stmt::For { var, body, .. } => &**var == v || assigns(body, v),
        Stmt::If(_, t, e) => assigns(t, v) || assigns(e, v),
        _ => false,
    })
}
