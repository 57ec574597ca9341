//! Grid-level `interleaveSeq` (rule 5.55, spec §8.2): its sub-programs are grid programs that
//! run one after another on the host, so forcing it is a host loop of launches, each writing
//! its sub-program's part of the result buffer.

use super::run::buffer_pull;
use super::value::{Pull, Push, Val};
use super::write::IndexedSink;
use super::{Lower, LowerError, Res};
use crate::kir::eval::{lit, Lit};
use crate::kir::{Expr, HostStep, Init, Param, Ty};
use semantics::fcl::core::Level;
use std::rc::Rc;

/// A grid `interleaveSeq` whose sub-programs cannot share one host loop body (their code
/// depends on the sub-program's number) is unrolled when it has at most this many.
const MAX_UNROLL: i32 = 64;

impl Lower {
    /// Whether writing `p` runs grid-level sub-programs on the host.
    pub(super) fn writes_on_host(p: &Push) -> bool {
        match p {
            Push::Interleave { sub, seq, .. } => *seq && *sub == Level::GRID,
            Push::MapPush(_, a) => Lower::writes_on_host(a),
            _ => false,
        }
    }

    /// A grid-level force of a push array that runs sub-programs on the host: one result
    /// buffer, written by the launches of every sub-program in turn.
    pub(super) fn force_on_host(&mut self, a: &Push, len: Expr) -> Res<Val> {
        let name = self.fresh("g");
        let at = self.plan.len();
        self.plan.push(HostStep::Alloc(
            name.clone(),
            Ty::Int,
            len.clone(),
            Init::Zero,
        ));
        // the element type is known once the first element is written: int until then
        self.buf_tys.insert(name.clone(), Ty::Int);
        let mut elem = None;
        self.write_on_host(a, &mut |lw: &mut Lower, d, _ix, v| {
            lw.store(&name, &mut elem, d, v)
        })?;
        let ty = elem.unwrap_or(Ty::Int);
        self.plan[at] = HostStep::Alloc(name.clone(), ty, len.clone(), Init::Zero);
        self.buf_tys.insert(name.clone(), ty);
        for k in &mut self.kernels {
            for p in &mut k.params {
                if let Param::Buffer(n, t) = p {
                    if *n == name {
                        *t = ty;
                    }
                }
            }
        }
        Ok(buffer_pull(name, ty, len))
    }

    /// Emits the host steps and kernels that write every element of `p` into `sink`.
    fn write_on_host(&mut self, p: &Push, sink: &mut IndexedSink) -> Res<()> {
        match p {
            // (5.55) interleaveSeq<grid>: the sub-programs one after another
            Push::Interleave {
                sub,
                k,
                f,
                ps,
                seq: true,
            } if *sub == Level::GRID => self.interleave_seq_on_host(k, f, ps, sink),
            // (5.68–5.71) mapPush of a host-written array
            Push::MapPush(h, a) if Lower::writes_on_host(a) => {
                let h = h.clone();
                self.write_on_host(a, &mut |lw: &mut Lower, dest, ix: Expr, v| {
                    let g = lw.apply(&h, Val::Scalar(ix.clone(), Ty::Int))?;
                    let v = lw.apply(&g, v)?;
                    sink(lw, dest, ix, v)
                })
            }
            // anything else: one kernel and its launch
            _ => {
                self.begin_kernel()?;
                if let Err(e) = self.write_indexed(p, sink) {
                    self.kernel = None;
                    self.blocks.clear();
                    return Err(e);
                }
                let (kernel, groups) = self.end_kernel()?;
                self.plan.push(HostStep::Launch { kernel, groups });
                Ok(())
            }
        }
    }

    /// `interleaveSeq<grid> k f ps` as a host loop over the sub-programs (their code generated
    /// once), or unrolled when the code depends on the sub-program's number.
    fn interleave_seq_on_host(
        &mut self,
        k: &Expr,
        f: &Val,
        ps: &Rc<Pull>,
        sink: &mut IndexedSink,
    ) -> Res<()> {
        let kernels = self.kernels.len();
        let b = self.fresh("h");
        self.host_tys.insert(b.clone(), Ty::Int);
        let (r, body) =
            self.in_plan(|lw| lw.interleave_seq_part(Expr::Var(b.clone()), k, f, ps, sink));
        let n = match (r, lit(&ps.len)) {
            (Ok(()), _) => {
                self.plan.push(HostStep::Loop {
                    var: b,
                    n: ps.len.clone(),
                    body,
                });
                return Ok(());
            }
            (Err(LowerError::Unsupported(..)), Some(Lit::Int(n))) if n <= MAX_UNROLL => n,
            (Err(e), _) => return Err(e),
        };
        self.kernels.truncate(kernels);
        for i in 0..n.max(0) {
            self.interleave_seq_part(Expr::Int(i), k, f, ps, sink)?;
        }
        Ok(())
    }

    /// Sub-program `b` of a grid `interleaveSeq`: run on the host, its element `j` written at
    /// `f (b, j)` (element index `b·k + j` for `mapPush`).
    fn interleave_seq_part(
        &mut self,
        b: Expr,
        k: &Expr,
        f: &Val,
        ps: &Pull,
        sink: &mut IndexedSink,
    ) -> Res<()> {
        let arr = self.interleave_part(ps, &b)?;
        self.write_on_host(&arr, &mut |lw: &mut Lower, j, jx, v| {
            let (d, ix) = lw.interleave_dest(f, &b, k, j, jx)?;
            sink(lw, d, ix, v)
        })
    }
}
