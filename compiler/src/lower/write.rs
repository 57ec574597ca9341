//! Writing push arrays: the first-order tree of writers (push, interleave, interleaveSeq,
//! mapPush, seqfor) becomes loops at the array's level: work-groups (virtualised) for grid,
//! work-items for block, sequential loops for thread.

use super::value::{Pull, Push, Val};
use super::{Lower, Res};
use crate::kir::eval::{lit, Lit};
use crate::kir::{Expr, Geom, Stmt, Ty};
use semantics::fcl::core::{Level, ScalarOp};
use std::rc::Rc;

/// Where written elements go: `(index, value)`.
pub(super) type Sink<'a> = dyn FnMut(&mut Lower, Expr, Val) -> Res<()> + 'a;

/// Where written elements go, with the element's own index as `mapPush` sees it (spec fcl.md
/// §4.3): `(destination, element index, value)`. The element index of a push is its position;
/// of an interleaving `b·k + j` (the concatenation index, not the destination); of a seqfor its
/// position in the result (5.71).
pub(super) type IndexedSink<'a> = dyn FnMut(&mut Lower, Expr, Expr, Val) -> Res<()> + 'a;

impl Lower {
    /// Emits the code that writes every element of `p` into `sink`.
    pub(super) fn write(&mut self, p: &Push, sink: &mut Sink) -> Res<()> {
        self.write_indexed(p, &mut |lw: &mut Lower, dest, _ix, v| sink(lw, dest, v))
    }

    pub(super) fn write_indexed(&mut self, p: &Push, sink: &mut IndexedSink) -> Res<()> {
        match p {
            // (5.57) push<l>: a parallel loop at level l
            Push::Push(l, a) => {
                let a = a.clone();
                self.par_loop(*l, a.len.clone(), &mut |lw, i| {
                    let v = lw.index(&a, i.clone())?;
                    sink(lw, i.clone(), i, v)
                })
            }
            // (5.54, 5.55) interleave / interleaveSeq: sub-program b writes at f (b, j)
            Push::Interleave { sub, k, f, ps, seq } => {
                let outer = if *seq { None } else { Some(sub.succ()) };
                let ps = ps.clone();
                let f = f.clone();
                let k = k.clone();
                let sub = *sub;
                let mut body = |lw: &mut Lower, b: Expr| -> Res<()> {
                    let arr = lw.interleave_part(&ps, &b)?;
                    lw.write_indexed(&arr, &mut |lw: &mut Lower, j, jx, v| {
                        let (d, ix) = lw.interleave_dest(&f, &b, &k, j, jx)?;
                        sink(lw, d, ix, v)
                    })
                };
                match outer {
                    Some(l) => self.par_loop(l, ps.len.clone(), &mut body),
                    None if sub == Level::GRID || !self.in_kernel() => {
                        self.unsupported("interleaveSeq<grid> (a host loop of launches)")
                    }
                    None => self.seq_loop(ps.len.clone(), &mut body),
                }
            }
            // (5.68–5.71) mapPush: h i x
            Push::MapPush(h, a) => {
                let h = h.clone();
                self.write_indexed(a, &mut |lw: &mut Lower, dest, ix: Expr, v| {
                    let g = lw.apply(&h, Val::Scalar(ix.clone(), Ty::Int))?;
                    let v = lw.apply(&g, v)?;
                    sink(lw, dest, ix, v)
                })
            }
            // (5.56, 5.78–5.80) seqfor: a private array filled sequentially, then written out
            Push::SeqFor { n, m, step } => {
                // a size that mentions run-time values may still be constant (a `range` over a
                // run-time start has a fixed length); one that is not, or one past
                // MAX_PRIVATE, cannot be a private array: only a recurrence on cells i - 1 …
                // i - 4, carried in scalars, may have it
                let size = match self.constant_size(n) {
                    Some(s) if s >= 0 => s as usize,
                    Some(_) => return self.unsupported("seqfor whose size is a negative constant"),
                    None => crate::kir::RUN_TIME_SIZE,
                };
                let cells = match size {
                    crate::kir::RUN_TIME_SIZE => n.clone(),
                    s => Expr::Int(s.max(1) as i32),
                };
                let name = self.fresh("p");
                // a dry run learns the element type (the reader must know it)
                let ty = {
                    let mut ty = Ty::Int;
                    let counter = self.counter;
                    let locals = self.kernel.as_ref().map(|k| k.locals.len());
                    let probe = self.in_block(|lw| {
                        let f =
                            lw.apply(step, Val::ReadPrivate(name.clone(), Ty::Int, size == 1))?;
                        lw.apply(&f, Val::Scalar(Expr::Int(0), Ty::Int))
                    });
                    if let Ok((Val::Pair(_, v), _)) = probe {
                        if let Val::Scalar(_, t) = &*v {
                            ty = *t;
                        }
                    }
                    self.counter = counter + 1000;
                    if let (Some(k), Some(n)) = (self.kernel.as_mut(), locals) {
                        k.locals.truncate(n);
                    }
                    ty
                };
                // the array, its zeroing, the loop filling it and its write-out
                let ((), stmts) = self.in_block(|lw| {
                    lw.emit(Stmt::Private(name.clone(), ty, size.max(1)));
                    // (5.56) the array starts as n zeros, which a step may read before it writes
                    let zero = match ty {
                        Ty::Int => Expr::Int(0),
                        Ty::Double => Expr::Double(0.0),
                        Ty::Bool => Expr::Bool(false),
                    };
                    lw.seq_loop(cells, &mut |lw: &mut Lower, i| {
                        lw.emit(Stmt::Store(name.clone(), i, zero.clone()));
                        Ok(())
                    })?;
                    // size 1: [O]'s quirk (the oracle's too): one cell, the step's write and read
                    // indices ignored
                    let reader = Val::ReadPrivate(name.clone(), ty, size == 1);
                    let step = step.clone();
                    lw.seq_loop(m.clone(), &mut |lw: &mut Lower, i| {
                        let f = lw.apply(&step, reader.clone())?;
                        let r = lw.apply(&f, Val::Scalar(i.clone(), Ty::Int))?;
                        let Val::Pair(ix, v) = r else {
                            return lw.internal("seqfor step did not give a pair");
                        };
                        let ix = if size == 1 {
                            Expr::Int(0)
                        } else {
                            lw.scalar((*ix).clone())?
                        };
                        let v = lw.scalar((*v).clone())?;
                        lw.emit(Stmt::Store(name.clone(), ix, v));
                        Ok(())
                    })?;
                    lw.seq_loop(n.clone(), &mut |lw: &mut Lower, i| {
                        let v = Val::Scalar(Expr::Load(name.clone(), Box::new(i.clone())), ty);
                        sink(lw, i.clone(), i, v)
                    })
                })?;
                let stmts = match size <= super::run::MAX_PRIVATE {
                    true => stmts,
                    false => self.carried_seqfor(stmts, &name, size)?,
                };
                for s in stmts {
                    self.emit(s);
                }
                Ok(())
            }
        }
    }

    /// A `seqfor`'s statements (its array `name` of `size` cells, zeroed, filled and written
    /// out) where no private array of that size may be (past [`super::run::MAX_PRIVATE`], or
    /// [`crate::kir::RUN_TIME_SIZE`]): as a loop over carried scalars already here, at -O0 too
    /// ([`crate::kir::opt::carried_recurrences`]), or refused with the reason.
    fn carried_seqfor(&mut self, stmts: Vec<Stmt>, name: &Rc<str>, size: usize) -> Res<Vec<Stmt>> {
        let carried = crate::kir::opt::carried_recurrences(stmts);
        if !carried
            .iter()
            .any(|s| matches!(s, Stmt::Private(p, ..) if p == name))
        {
            return Ok(carried);
        }
        let what = match size {
            crate::kir::RUN_TIME_SIZE => "of a run-time size".to_string(),
            n => format!("of {n} elements"),
        };
        self.unsupported(format!(
            "a seqfor {what} whose step reads a cell other than i - 1 ... i - 4 (private arrays \
             hold at most {} elements; a step that reads only those keeps them in scalars)",
            super::run::MAX_PRIVATE
        ))
    }

    /// A loop over `0..n` at level `l`: grid → over work-groups (in a kernel with local arrays
    /// each iteration ends with a barrier, as local memory is reused by the next), block → over work-items, thread →
    /// sequential.
    pub(super) fn par_loop(
        &mut self,
        l: Level,
        n: Expr,
        body: &mut dyn FnMut(&mut Lower, Expr) -> Res<()>,
    ) -> Res<()> {
        match l {
            Level::THREAD => self.seq_loop(n, body),
            Level::BLOCK => self.loop_(
                n,
                Expr::Geom(Geom::LocalId),
                Expr::Geom(Geom::LocalSize),
                false,
                body,
            ),
            Level::GRID => {
                if let Some(k) = self.kernel.as_mut() {
                    if k.groups.is_none() {
                        k.groups = Some(n.clone());
                    }
                }
                self.loop_(
                    n,
                    Expr::Geom(Geom::GroupId),
                    Expr::Geom(Geom::NumGroups),
                    true,
                    body,
                )
            }
            _ => self.unsupported(format!("a parallel loop at level {l}")),
        }
    }

    fn seq_loop(&mut self, n: Expr, body: &mut dyn FnMut(&mut Lower, Expr) -> Res<()>) -> Res<()> {
        self.loop_(n, Expr::Int(0), Expr::Int(1), false, body)
    }

    fn loop_(
        &mut self,
        n: Expr,
        start: Expr,
        step: Expr,
        barrier: bool,
        body: &mut dyn FnMut(&mut Lower, Expr) -> Res<()>,
    ) -> Res<()> {
        if !self.in_kernel() {
            return self.unsupported("a grid-level push array written outside a kernel");
        }
        if let (Some(Lit::Int(0)), Expr::Int(0)) = (lit(&n), &start) {
            return Ok(());
        }
        let var = self.fresh("i");
        let ((), mut stmts) = self.in_block(|lw| body(lw, Expr::Var(var.clone())))?;
        // the barrier guards local memory against the next trip; with none in the kernel, a
        // local fence orders nothing
        if barrier && self.locals_len() > 0 {
            stmts.push(Stmt::Barrier);
        }
        // a one-trip sequential loop is its body
        if lit(&n) == Some(Lit::Int(1)) && start == Expr::Int(0) {
            self.emit(Stmt::Decl(var, Ty::Int, Expr::Int(0)));
            for s in stmts {
                self.emit(s);
            }
            return Ok(());
        }
        self.emit(Stmt::For {
            var,
            start,
            end: n,
            step,
            body: stmts,
        });
        Ok(())
    }

    /// Sub-program `b` of an interleave (5.54, 5.55), run: the push array it writes.
    pub(super) fn interleave_part(&mut self, ps: &Pull, b: &Expr) -> Res<Rc<Push>> {
        let prog = self.index(ps, b.clone())?;
        let arr = self.run_val(&prog)?;
        self.push_arr(arr)
    }

    /// Where an interleave's sub-program `b` puts its element `j` (element index `jx`): the
    /// destination `f (b, j)` and the element index `b·k + jx` (for `mapPush`).
    pub(super) fn interleave_dest(
        &mut self,
        f: &Val,
        b: &Expr,
        k: &Expr,
        j: Expr,
        jx: Expr,
    ) -> Res<(Expr, Expr)> {
        let pair = Val::Pair(
            Rc::new(Val::Scalar(b.clone(), Ty::Int)),
            Rc::new(Val::Scalar(j, Ty::Int)),
        );
        let d = self.apply(f, pair)?;
        let d = self.scalar(d)?;
        let ix = Expr::op(
            ScalarOp::AddI,
            vec![Expr::op(ScalarOp::MulI, vec![b.clone(), k.clone()]), jx],
        );
        Ok((d, ix))
    }
}
