//! `power` (rules 5.87/5.88) and the host loops that grid-level `power` and `while` share.
//!
//! A grid-level `power n step init` becomes one `HostStep::Loop` whose body holds the step's
//! launches, generated once, whenever its count is a run-time value or above [`HOST_UNROLL`]:
//! - a step that keeps the state's length (the same length expression) writes a second buffer
//!   that is swapped with the state after each trip;
//! - otherwise the state's length is a host variable: each trip allocates the step's result at
//!   its run-time length, swaps it in and sets the variable. The step's own statements
//!   (materialisations, host reads of single elements, lets) run inside the trip.
//!
//! A count of 1 runs its one trip in place, and a literal count whose step cannot be a host
//! loop's body unrolls; inside a kernel, `power` is a run-time loop over a buffer pair
//! (`Lower::power_loop`) or unrolled.

use super::run::buffer_pull;
use super::value::{Index, Val};
use super::{Lower, LowerError, Res};
use crate::kir::eval::{eval_host, lit, Lit};
use crate::kir::{Expr, HostStep, Ty};
use semantics::fcl::core::Level;
use std::collections::HashMap;
use std::rc::Rc;

/// Grid-level `power` loops of at most this many steps are unrolled at compile time: only a
/// single trip, as each unrolled trip is another set of kernels to build (on PoCL about 0.2 s
/// each), which a launch more or less never pays back.
const HOST_UNROLL: i32 = 1;

/// A literal-count loop whose state length is a host variable gets a literal final length
/// when the length follows from the count and the initial length alone, computed by running
/// the length update at compile time: for at most this many trips.
const MAX_FOLDED_TRIPS: i32 = 1 << 16;

/// The state of a host loop (`power<grid>`, `while<grid>`): its buffer, element type and
/// length (a host variable when `len_var`, as the step may change it).
pub(super) struct HostLoopState {
    pub(super) buffer: Rc<str>,
    pub(super) ty: Ty,
    pub(super) len: Expr,
    pub(super) len_var: bool,
}

impl HostLoopState {
    /// The pull array reading the state.
    pub(super) fn pull(&self) -> Val {
        buffer_pull(self.buffer.clone(), self.ty, self.len.clone())
    }
}

impl Lower {
    /// `power<l> n step init`: `x = force(run init)`; for i in 0..n, `x = force(run (step i
    /// x))` (`step x` when not `indexed`); the result is `x`. A count below 1 runs no step
    /// (as the oracle's `powerAt i n` stops once `i >= n`).
    pub(super) fn run_power(
        &mut self,
        level: Level,
        n: &Expr,
        step: &Val,
        init: &Val,
        indexed: bool,
    ) -> Res<Val> {
        let count = match lit(n) {
            Some(Lit::Int(n)) => Some(n),
            _ => None,
        };
        if count.is_none() && self.in_kernel() {
            return self.unsupported(format!(
                "power<{level}> inside a kernel with an iteration count known only at run time"
            ));
        }
        let first = self.run_val(init)?;
        let first = self.push_arr(first)?;
        let arr = self.force(level, &first)?;
        if !self.in_kernel() && count.is_none_or(|n| n > HOST_UNROLL) {
            match self.host_power(n, count, step, indexed, &arr) {
                Ok(last) => return Ok(last),
                Err(LowerError::Unsupported(why, span)) => {
                    if count.is_none() {
                        let why = format!("power<grid> with a run-time iteration count: {why}");
                        return Err(LowerError::Unsupported(why, span));
                    }
                }
                Err(e) => return Err(e),
            }
        }
        let n = count.unwrap_or(0);
        if self.in_kernel() && n > 1 {
            let locals = self.locals_len();
            match self.power_loop(level, n, step, indexed, &arr) {
                Ok(last) => return Ok(last),
                Err(LowerError::Unsupported(..)) => {
                    if let Some(k) = self.kernel.as_mut() {
                        k.locals.truncate(locals);
                    }
                }
                Err(e) => return Err(e),
            }
        }
        let mut arr = arr;
        for i in 0..n.max(0) {
            let body = self.power_body(step, indexed, Expr::Int(i), arr)?;
            let next = self.run_val(&body)?;
            let next = self.push_arr(next)?;
            arr = self.force(level, &next)?;
        }
        Ok(arr)
    }

    /// The program of one `power` trip: `step i x`, or `step x` when not indexed.
    pub(super) fn power_body(&mut self, step: &Val, indexed: bool, i: Expr, x: Val) -> Res<Val> {
        if indexed {
            let f = self.apply(step, Val::Scalar(i, Ty::Int))?;
            self.apply(&f, x)
        } else {
            self.apply(step, x)
        }
    }

    /// `power<grid>` as one host loop of launches, with the state's length fixed if the step
    /// keeps it, else in a host variable. Unsupported (with nothing left behind in the plan or
    /// the kernels) when the step cannot run as a loop body.
    fn host_power(
        &mut self,
        n: &Expr,
        count: Option<i32>,
        step: &Val,
        indexed: bool,
        arr: &Val,
    ) -> Res<Val> {
        let (kernels, mark) = (self.kernels.len(), self.plan.len());
        let mut r = self.host_power_with(n, count, step, indexed, arr, false);
        if let Err(LowerError::Unsupported(..)) = r {
            self.kernels.truncate(kernels);
            self.plan.truncate(mark);
            r = self.host_power_with(n, count, step, indexed, arr, true);
        }
        if r.is_err() {
            self.kernels.truncate(kernels);
            self.plan.truncate(mark);
        }
        r
    }

    /// One attempt of [`Lower::host_power`]: with the state's length in a host variable when
    /// `len_var`, else with its length fixed.
    fn host_power_with(
        &mut self,
        n: &Expr,
        count: Option<i32>,
        step: &Val,
        indexed: bool,
        arr: &Val,
        len_var: bool,
    ) -> Res<Val> {
        let st = self.host_loop_state(arr, len_var, "power<grid>")?;
        let var = self.fresh("h");
        self.host_tys.insert(var.clone(), Ty::Int);
        let (r, body) = self.in_plan(|lw| {
            let prog = lw.power_body(step, indexed, Expr::Var(var.clone()), st.pull())?;
            lw.host_loop_step(&prog, &st, "power<grid>")
        });
        let next_len = r?;
        self.plan.push(HostStep::Loop {
            var: var.clone(),
            n: n.clone(),
            body,
        });
        let arr_len = match arr {
            Val::Pull(a) => a.len.clone(),
            _ => return self.internal("power state is not an array"),
        };
        // a length that follows from the literal count and initial length stays literal for
        // the code after the loop (an unrolled loop had it so)
        let last_len = match (count, len_var) {
            (Some(n), true) => fold_length(&arr_len, &st, &var, &next_len, n).unwrap_or(st.len),
            _ => st.len,
        };
        Ok(buffer_pull(st.buffer, st.ty, last_len))
    }

    /// The state of a host loop over `arr`, a materialised array; with `len_var`, its length is
    /// copied into a fresh host variable (a `Set` on the plan).
    pub(super) fn host_loop_state(
        &mut self,
        arr: &Val,
        len_var: bool,
        what: &str,
    ) -> Res<HostLoopState> {
        let Val::Pull(a) = arr else {
            return self.internal(format!("{what} state is not an array"));
        };
        let Index::Buffer(a_name, ty) = &a.index else {
            return self.unsupported(format!("{what} over an unmaterialised state"));
        };
        let len = if len_var {
            let h = self.fresh("h");
            self.host_tys.insert(h.clone(), Ty::Int);
            self.plan
                .push(HostStep::Set(h.clone(), Ty::Int, a.len.clone()));
            Expr::Var(h)
        } else {
            a.len.clone()
        };
        Ok(HostLoopState {
            buffer: a_name.clone(),
            ty: *ty,
            len,
            len_var,
        })
    }

    /// One trip of a host loop: runs `prog` (the step applied to the state), forces its result
    /// into a fresh buffer (allocated at its run-time length, inside the trip), swaps that
    /// with the state and, with a length variable, sets it to the new length. Returns the new
    /// length expression.
    pub(super) fn host_loop_step(
        &mut self,
        prog: &Val,
        st: &HostLoopState,
        what: &str,
    ) -> Res<Expr> {
        let next = self.run_val(prog)?;
        let next = self.push_arr(next)?;
        let next_len = Lower::push_len(&next);
        if !st.len_var && next_len != st.len {
            return self.unsupported(format!("a {what} step that changes the length"));
        }
        let Val::Pull(b) = self.force(Level::GRID, &next)? else {
            return self.internal("force gave no array");
        };
        match &b.index {
            Index::Buffer(b_name, t) if *t == st.ty => {
                self.plan
                    .push(HostStep::Swap(st.buffer.clone(), b_name.clone()));
            }
            _ => return self.unsupported(format!("a {what} step that changes the element type")),
        }
        if let (true, Expr::Var(h)) = (st.len_var, &st.len) {
            self.plan
                .push(HostStep::Set(h.clone(), Ty::Int, next_len.clone()));
        }
        Ok(next_len)
    }
}

/// The state's length after `n` trips of a host loop whose trip sets the length variable of
/// `st` to `next_len` (which may read the loop variable `var`), when that follows from the
/// initial length `init` alone (no host reads, no other host variables): computed here.
fn fold_length(
    init: &Expr,
    st: &HostLoopState,
    var: &str,
    next_len: &Expr,
    n: i32,
) -> Option<Expr> {
    let Expr::Var(h) = &st.len else { return None };
    let mut len = match lit(init)? {
        Lit::Int(l) => l,
        _ => return None,
    };
    if n > MAX_FOLDED_TRIPS {
        return None;
    }
    let mut env = HashMap::new();
    let mut no_read = |_: &str, _| Err(String::new());
    for i in 0..n.max(0) {
        env.insert(h.to_string(), Lit::Int(len));
        env.insert(var.to_string(), Lit::Int(i));
        match eval_host(next_len, &env, &mut no_read).ok()? {
            Lit::Int(l) => len = l,
            _ => return None,
        }
    }
    Some(Expr::Int(len))
}
