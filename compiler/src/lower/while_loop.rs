//! `while` (rule 5.89): unrolled at compile time while the condition is a literal; a grid-level
//! loop whose condition depends on run-time data becomes a host loop of launches, one inside a
//! kernel a run-time loop over a buffer pair.

use super::value::{Index, Pull, Push, Val};
use super::{Lower, LowerError, Res};
use crate::kir::emit::{ERROR_FLAG, TRIP_LIMIT_CODE};
use crate::kir::eval::{lit, Lit};
use crate::kir::{Expr, HostStep, Stmt, Ty};
use semantics::fcl::core::{Level, ScalarOp};
use std::rc::Rc;

/// Compile-time iteration bound of unrolled `while` loops.
const MAX_ITERATIONS: usize = 1 << 16;

/// Trips after which a `while` inside a kernel stops even though its condition still holds, so
/// that a non-terminating loop cannot hang the device (the oracle stops it with its step limit;
/// here the result is then the state after this many steps, with no error reported).
const MAX_KERNEL_TRIPS: i32 = 1 << 20;

impl Lower {
    /// `while<l> cond step init`: `x = force(run init)`; while `cond x`, `x = force(run (step
    /// x))`; the result is `x`. Iterations whose condition is known at compile time are
    /// unrolled; at the first one that depends on run-time data, the rest of the loop becomes a
    /// host loop (grid level) or is unsupported (inside a kernel).
    pub(super) fn run_while(&mut self, l: Level, cond: &Val, step: &Val, init: &Val) -> Res<Val> {
        let first = self.run_val(init)?;
        let mut cur = self.push_arr(first)?;
        for _ in 0..MAX_ITERATIONS {
            let arr = self.force(l, &cur)?;
            let mark = self.plan.len();
            let emitted = self.blocks.last().map_or(0, Vec::len);
            let c = self.apply(cond, arr.clone())?;
            match self.scalar(c)? {
                Expr::Bool(true) => {}
                Expr::Bool(false) => return Ok(arr),
                _ if !self.in_kernel() => {
                    // the condition's reads are redone in the loop, before every trip
                    self.plan.truncate(mark);
                    return self.host_while(cond, step, &arr);
                }
                _ => {
                    if let Some(b) = self.blocks.last_mut() {
                        b.truncate(emitted);
                    }
                    return self.kernel_while(l, cond, step, &arr);
                }
            }
            let body = self.apply(step, arr)?;
            let next = self.run_val(&body)?;
            cur = self.push_arr(next)?;
        }
        self.unsupported(format!(
            "while<{l}> running more than {MAX_ITERATIONS} iterations"
        ))
    }

    /// `while<l>` inside a kernel: a sequential loop `for (i = 0; i < go; i++)` whose bound `go`
    /// is the condition (`i + 2` while it holds, else 0), recomputed at the end of each trip
    /// (and 0 after [`MAX_KERNEL_TRIPS`] trips, with the error flag set to [`TRIP_LIMIT_CODE`]).
    /// A trip writes the step's result from the state A into B, then copies B back into A (a
    /// barrier after each at block level, so no step overwrites what is still read, and the
    /// condition reads A after a barrier: every work-item computes the same `go`, so the loop
    /// and its barriers are uniform). A is the freshly forced state, so it may be overwritten.
    fn kernel_while(&mut self, l: Level, cond: &Val, step: &Val, arr: &Val) -> Res<Val> {
        let Val::Pull(a) = arr else {
            return self.internal("while state is not an array");
        };
        let (Index::Buffer(a_name, ty), Some(Lit::Int(len))) = (&a.index, lit(&a.len)) else {
            return self.unsupported(format!("while<{l}> over an unsized state"));
        };
        let (a_name, ty, len) = (a_name.clone(), *ty, len);
        let b_name = self.fresh(if l == Level::BLOCK { "l" } else { "p" });
        if l == Level::BLOCK {
            if let Some(k) = self.kernel.as_mut() {
                k.locals.push((b_name.clone(), ty, len.max(1) as usize));
            }
        } else {
            self.emit(Stmt::Private(b_name.clone(), ty, len.max(1) as usize));
        }
        let b_arr = Rc::new(Pull {
            len: a.len.clone(),
            index: Index::Buffer(b_name.clone(), ty),
        });
        let go = self.fresh("t");
        let var = self.fresh("i");
        let c = self.apply(cond, arr.clone())?;
        let c = self.scalar(c)?;
        self.emit(Stmt::Decl(
            go.clone(),
            Ty::Int,
            Expr::Select(Box::new(c), Box::new(Expr::Int(1)), Box::new(Expr::Int(0))),
        ));
        let ((), body) = self.in_block(|lw| {
            lw.power_step(l, step, false, Expr::Int(0), arr, &b_name, ty, len)?;
            let mut elem = None;
            lw.write(&Push::Push(l, b_arr), &mut |lw: &mut Lower, i, v| {
                lw.store(&a_name, &mut elem, i, v)
            })?;
            if l == Level::BLOCK {
                lw.emit(Stmt::Barrier);
            }
            let c = lw.apply(cond, arr.clone())?;
            let c = lw.scalar(c)?;
            let holds = lw.fresh("t");
            lw.emit(Stmt::Decl(
                holds.clone(),
                Ty::Int,
                Expr::Select(Box::new(c), Box::new(Expr::Int(1)), Box::new(Expr::Int(0))),
            ));
            let holds = Expr::op(ScalarOp::EqI, vec![Expr::Var(holds), Expr::Int(1)]);
            let within = Expr::op(
                ScalarOp::LtI,
                vec![Expr::Var(var.clone()), Expr::Int(MAX_KERNEL_TRIPS - 1)],
            );
            let again = Expr::Select(
                Box::new(within.clone()),
                Box::new(Expr::op(
                    ScalarOp::AddI,
                    vec![Expr::Var(var.clone()), Expr::Int(2)],
                )),
                Box::new(Expr::Int(0)),
            );
            lw.emit(Stmt::Assign(
                go.clone(),
                Expr::Select(
                    Box::new(holds.clone()),
                    Box::new(again),
                    Box::new(Expr::Int(0)),
                ),
            ));
            // the condition still holds after the last allowed trip: a run-time error (the
            // oracle would run on to its step limit), reported by the host from the error flag
            lw.emit(Stmt::If(
                holds,
                vec![Stmt::If(
                    within,
                    vec![],
                    vec![Stmt::Store(
                        ERROR_FLAG.into(),
                        Expr::Int(0),
                        Expr::Int(TRIP_LIMIT_CODE),
                    )],
                )],
                vec![],
            ));
            Ok(())
        })?;
        self.emit(Stmt::For {
            var,
            start: Expr::Int(0),
            end: Expr::Var(go),
            step: Expr::Int(1),
            body,
        });
        Ok(arr.clone())
    }

    /// `while<grid>` as a host loop: each trip computes the condition on the host (reading back
    /// what it needs of the state) and, while it holds, launches the step's kernels, generated
    /// once, into a fresh buffer that then takes the state's place. A step that keeps the
    /// length keeps the state's length expression; otherwise the length is a host variable
    /// updated each trip.
    fn host_while(&mut self, cond: &Val, step: &Val, arr: &Val) -> Res<Val> {
        let kernels = self.kernels.len();
        match self.host_while_with(cond, step, arr, false) {
            Err(LowerError::Unsupported(..)) => {
                self.kernels.truncate(kernels);
                self.host_while_with(cond, step, arr, true)
            }
            r => r,
        }
    }

    /// One attempt of [`Lower::host_while`]: with the state's length in a host variable when
    /// `len_var`, else with its length fixed.
    fn host_while_with(&mut self, cond: &Val, step: &Val, arr: &Val, len_var: bool) -> Res<Val> {
        let st = self.host_loop_state(arr, len_var, "while<grid>")?;
        let state = st.pull();
        let (c, cond_steps) = self.in_plan(|lw| lw.apply(cond, state.clone()));
        let test = self.scalar(c?)?;
        let (r, body) = self.in_plan(|lw| {
            let prog = lw.apply(step, st.pull())?;
            lw.host_loop_step(&prog, &st, "while<grid>")
        });
        r?;
        self.plan.push(HostStep::While {
            cond: cond_steps,
            test,
            body,
        });
        Ok(state)
    }
}
