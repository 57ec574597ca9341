//! Running programs at compile time: binds, returns, forces (grid → a kernel launch into a global
//! buffer, block → `__local` memory and a barrier, thread → private memory), loops and printing.

use super::value::{Index, Prog, Pull, Push, Val};
use super::{Lower, Res};
use crate::kir::eval::lit;
use crate::kir::eval::Lit;
use crate::kir::{Expr, HostStep, Init, Stmt, Ty};
use semantics::fcl::core::{Level, ScalarOp};
use std::rc::Rc;

/// Largest private (thread-level) array, in elements.
pub const MAX_PRIVATE: usize = 4096;

impl Lower {
    /// Runs a program value and returns its result.
    pub(super) fn run_val(&mut self, v: &Val) -> Res<Val> {
        match v {
            Val::Prog(p) => self.run(p),
            _ => self.internal("expected a program"),
        }
    }

    fn run(&mut self, p: &Prog) -> Res<Val> {
        match p {
            // (5.62) return
            Prog::Return(v) => Ok(v.clone()),
            // (5.63) bind
            Prog::Bind(p, f) => {
                let r = self.run_val(p)?;
                let next = self.apply(f, r)?;
                self.run_val(&next)
            }
            // (5.76–5.84) force
            Prog::Force(l, a) => {
                let a = self.push_arr(a.clone())?;
                self.force(*l, &a)
            }
            Prog::Interleave(push) => Ok(Val::Push(push.clone())),
            // (5.87/5.88) power: a host loop, a loop inside the kernel, or unrolled
            Prog::Power {
                level,
                n,
                step,
                init,
                indexed,
            } => self.run_power(*level, n, step, init, *indexed),
            // (5.89) while
            Prog::While {
                level,
                cond,
                step,
                init,
            } => self.run_while(*level, cond, step, init),
            // §4.4 readIntCSV: a buffer and a host length known at run time
            Prog::ReadCsv(path) => {
                if self.in_kernel() {
                    return self.internal("readIntCSV inside a kernel");
                }
                let buf = self.fresh("g");
                let len = self.fresh("h");
                self.buf_tys.insert(buf.clone(), Ty::Int);
                self.host_tys.insert(len.clone(), Ty::Int);
                self.plan.push(HostStep::ReadCsv {
                    buf: buf.clone(),
                    len: len.clone(),
                    path: path.clone(),
                });
                Ok(buffer_pull(buf, Ty::Int, Expr::Var(len)))
            }
            // nowMs: a host scalar the host sets when the program runs there
            Prog::NowMs => {
                if self.in_kernel() {
                    return self.internal("nowMs inside a kernel");
                }
                let h = self.fresh("h");
                self.host_tys.insert(h.clone(), Ty::Int);
                self.plan.push(HostStep::Clock(h.clone()));
                Ok(Val::Scalar(Expr::Var(h), Ty::Int))
            }
            // §4.4 benchmark: the program's host steps, repeated by the plan
            Prog::Benchmark(n, p) => {
                if self.in_kernel() {
                    return self.internal("benchmark inside a kernel");
                }
                let (r, body) = self.in_plan(|lw| lw.run_val(p));
                r?;
                self.plan.push(HostStep::Benchmark { n: n.clone(), body });
                Ok(Val::Unit)
            }
            // §4.4 forceAndPrint / forceAndPrintDouble
            Prog::Print {
                n,
                arr,
                double,
                exact,
            } => {
                if self.in_kernel() {
                    return self.internal("printing inside a kernel");
                }
                let a = self.push_arr(arr.clone())?;
                let v = self.force(Level::GRID, &a)?;
                let Val::Pull(p) = &v else {
                    return self.internal("force gave no array");
                };
                let Index::Buffer(buf, ty) = &p.index else {
                    return self.internal("force gave no buffer");
                };
                if *double != (*ty == Ty::Double) && p.len != Expr::Int(0) {
                    return self.internal("printing an array of the wrong element type");
                }
                self.plan.push(HostStep::Print {
                    buf: buf.clone(),
                    ty: *ty,
                    exact: *exact,
                    n: n.clone(),
                    len: p.len.clone(),
                });
                Ok(v)
            }
        }
    }

    /// `power<l>` inside a kernel as a run-time loop over one buffer pair A, B: each trip runs
    /// two steps, A into B then B into A (a barrier after each at block level, so a step never
    /// overwrites what the previous one still reads), and no step copies its result back; an odd
    /// count ends with one more step, into B. The second step of a trip reuses the `__local`
    /// arrays of the first (the barrier between them ends their use). Returns the final state.
    /// Unsupported (and the caller unrolls) when the step changes the length or type.
    pub(super) fn power_loop(
        &mut self,
        l: Level,
        n: i32,
        step: &Val,
        indexed: bool,
        arr: &Val,
    ) -> Res<Val> {
        let Val::Pull(a) = arr else {
            return self.internal("power state is not an array");
        };
        let (Index::Buffer(a_name, ty), Some(Lit::Int(len))) = (&a.index, lit(&a.len)) else {
            return self.unsupported("power over an unsized state");
        };
        let (a_name, ty) = (a_name.clone(), *ty);
        let b_name = self.fresh(if l == Level::BLOCK { "l" } else { "p" });
        let b_arr = buffer_pull(b_name.clone(), ty, a.len.clone());
        let var = self.fresh("i");
        if l == Level::BLOCK {
            if let Some(k) = self.kernel.as_mut() {
                k.locals.push((b_name.clone(), ty, len.max(1) as usize));
            }
        } else {
            self.emit(Stmt::Private(b_name.clone(), ty, len.max(1) as usize));
        }
        let twice = Expr::op(ScalarOp::MulI, vec![Expr::Var(var.clone()), Expr::Int(2)]);
        let first = self.locals_len();
        let ((), body) = self.in_block(|lw| {
            lw.power_step(l, step, indexed, twice.clone(), arr, &b_name, ty, len)?;
            let odd = Expr::op(ScalarOp::AddI, vec![twice.clone(), Expr::Int(1)]);
            lw.reused_step(first, |lw| {
                lw.power_step(l, step, indexed, odd, &b_arr, &a_name, ty, len)
            })
        })?;
        self.emit(Stmt::For {
            var,
            start: Expr::Int(0),
            end: Expr::Int(n / 2),
            step: Expr::Int(1),
            body,
        });
        if n % 2 == 1 {
            let last = Expr::Int(n - 1);
            self.reused_step(first, |lw| {
                lw.power_step(l, step, indexed, last, arr, &b_name, ty, len)
            })?;
            return Ok(b_arr);
        }
        Ok(arr.clone())
    }

    /// Emits the code `f` emits, after a barrier that ends every use of the `__local` arrays
    /// declared since `first`: the arrays `f` declares become those (renamed in its code) when
    /// the two lists have the same types and lengths, so repeated steps share local memory.
    fn reused_step(&mut self, first: usize, f: impl FnOnce(&mut Lower) -> Res<()>) -> Res<()> {
        let second = self.locals_len();
        let ((), mut body) = self.in_block(f)?;
        if let Some(k) = self.kernel.as_mut() {
            let (earlier, later) = k.locals[first..].split_at(second - first);
            let same = earlier.len() == later.len()
                && earlier
                    .iter()
                    .zip(later)
                    .all(|((_, t1, n1), (_, t2, n2))| t1 == t2 && n1 == n2);
            if same {
                for ((to, ..), (from, ..)) in earlier.iter().zip(later) {
                    body = crate::kir::opt::rename_array(body, from, to);
                }
                k.locals.truncate(second);
            }
        }
        body.into_iter().for_each(|s| self.emit(s));
        Ok(())
    }

    /// One step of a kernel-level `power`: the step applied to `from` (and the iteration `i`
    /// when indexed), written into `to`, then a barrier at block level.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn power_step(
        &mut self,
        l: Level,
        step: &Val,
        indexed: bool,
        i: Expr,
        from: &Val,
        to: &Rc<str>,
        ty: Ty,
        len: i32,
    ) -> Res<()> {
        let body = self.power_body(step, indexed, i, from.clone())?;
        let next = self.run_val(&body)?;
        let next = self.push_arr(next)?;
        if Lower::push_len(&next) != Expr::Int(len) {
            return self.unsupported("a power or while step that changes the array length");
        }
        let mut elem = None;
        self.write(&next, &mut |lw: &mut Lower, i, v| {
            lw.store(to, &mut elem, i, v)
        })?;
        if elem.is_some_and(|t| t != ty) {
            return self.unsupported("a power or while step that changes the element type");
        }
        if l == Level::BLOCK {
            self.emit(Stmt::Barrier);
        }
        Ok(())
    }

    /// The number of `__local` arrays of the open kernel.
    pub(super) fn locals_len(&self) -> usize {
        self.kernel.as_ref().map_or(0, |k| k.locals.len())
    }

    /// Materialises a push array at level `l` and returns the pull array reading it.
    pub(super) fn force(&mut self, l: Level, a: &Rc<Push>) -> Res<Val> {
        let len = Lower::push_len(a);
        if !self.in_kernel() {
            if l != Level::GRID {
                return self.internal(format!("force<{l}> on the host"));
            }
            return self.force_grid(a, len);
        }
        let n = match lit(&len) {
            Some(Lit::Int(n)) if n >= 0 => n as usize,
            _ => {
                return self.unsupported(format!(
                    "force<{l}> of an array whose length is known only at run time"
                ))
            }
        };
        match l {
            Level::BLOCK => {
                let name = self.fresh("l");
                let mut elem = None;
                self.write(a, &mut |lw: &mut Lower, i, v| {
                    lw.store(&name, &mut elem, i, v)
                })?;
                let ty = elem.unwrap_or(Ty::Int);
                if let Some(k) = self.kernel.as_mut() {
                    k.locals.push((name.clone(), ty, n.max(1)));
                }
                self.emit(Stmt::Barrier);
                Ok(buffer_pull(name, ty, len))
            }
            Level::THREAD => {
                if n > MAX_PRIVATE {
                    return self.unsupported(format!(
                        "force<thread> of {n} elements (private arrays hold at most {MAX_PRIVATE})"
                    ));
                }
                let name = self.fresh("p");
                let mut elem = None;
                let ((), body) = self.in_block(|lw| {
                    lw.write(a, &mut |lw: &mut Lower, i, v| {
                        lw.store(&name, &mut elem, i, v)
                    })
                })?;
                let ty = elem.unwrap_or(Ty::Int);
                self.emit(Stmt::Private(name.clone(), ty, n.max(1)));
                for s in body {
                    self.emit(s);
                }
                Ok(buffer_pull(name, ty, len))
            }
            _ => self.unsupported(format!("force<{l}> inside a kernel")),
        }
    }

    /// A grid-level force: one kernel writing a fresh global buffer, and its launch.
    fn force_grid(&mut self, a: &Rc<Push>, len: Expr) -> Res<Val> {
        if Lower::writes_on_host(a) {
            return self.force_on_host(a, len);
        }
        let init = if self.writes_every_element(a) {
            Init::Overwritten
        } else {
            Init::Zero
        };
        let name = self.fresh("g");
        self.begin_kernel()?;
        let mut elem = None;
        let r = self.write(a, &mut |lw: &mut Lower, i, v| {
            lw.store(&name, &mut elem, i, v)
        });
        if let Err(e) = r {
            self.kernel = None;
            self.blocks.clear();
            return Err(e);
        }
        let ty = elem.unwrap_or(Ty::Int);
        self.buf_tys.insert(name.clone(), ty);
        let (kernel, groups) = self.end_kernel()?;
        self.plan
            .push(HostStep::Alloc(name.clone(), ty, len.clone(), init));
        self.plan.push(HostStep::Launch { kernel, groups });
        Ok(buffer_pull(name, ty, len))
    }

    /// `buf[i] = v`, recording the element type.
    pub(super) fn store(
        &mut self,
        buf: &Rc<str>,
        elem: &mut Option<Ty>,
        i: Expr,
        v: Val,
    ) -> Res<()> {
        match v {
            Val::Scalar(e, ty) => {
                *elem = Some(ty);
                self.emit(Stmt::Store(buf.clone(), i, e));
                Ok(())
            }
            _ => self.unsupported("materialising an array whose elements are not scalars"),
        }
    }
}

pub(super) fn buffer_pull(name: Rc<str>, ty: Ty, len: Expr) -> Val {
    Val::Pull(Rc::new(Pull {
        len,
        index: Index::Buffer(name, ty),
    }))
}
