//! `each`/`zipWith` (3.36, 3.68) of a function whose body has statements (a print, a sort, a
//! filter, a reduction's passes), which cannot become per-element kernel code: one FCL loop of
//! a trip per element, in element order as the oracle applies the function (`map_loop`). Trip
//! `it` applies the function to the elements at `it`, its statements running in the trip, and
//! writes the result at `it` of the state, the result array. The function's statements are
//! lowered once, so the kernels are the same for any number of elements. Where the body does
//! what runs once per program (reads a value back for the lowering, draws from `roll`), the
//! map runs element by element at the top level instead (`map_unrolled`), each element's
//! statements in turn.

use super::lowerer::Lowerer;
use super::state::Layout;
use super::step::{Counters, Step};
use super::tree::{fcl, int, Fcl};
use super::value::{unsupported, Arr, Loc, Val, R};
use super::LowerTailError;
use semantics::tail::value::Array;
use std::rc::Rc;

/// The most elements of an `each`/`zipWith` whose function runs element by element.
const MAX_UNROLLED_ELEMENTS: usize = 1024;

impl Lowerer {
    /// `each`/`zipWith` of `f` over `args` (equal shapes, or of one length or extents the
    /// device computes) for a function with statements: one loop (see the module comment),
    /// else element by element at the top level (static shapes only). `why`: why `f` has no per-element lowering, the refusal inside a kernel.
    pub(super) fn map_with_statements(
        &mut self,
        f: &Val,
        args: &[&Arr],
        why: LowerTailError,
    ) -> R<Val> {
        if self.kernel {
            return Err(why);
        }
        // a few known elements: the results may be known too, as the lowering computes them
        // one after another
        let small = (1..=super::apply::MAX_FOLD).contains(&args[0].size());
        if small && args.iter().all(|a| a.known.is_some()) {
            return self.map_unrolled(f, args, why);
        }
        let saved = self.checkpoint();
        // (a function that updates arrays made before the map: the loop's state carries them)
        let r = self.carrying(&[], |lw, carry| lw.map_loop(f, args, &carry));
        match r {
            Err(LowerTailError::Unsupported(_) | LowerTailError::Fails(_))
                if !args[0].is_dynamic() =>
            {
                self.restore(saved);
                self.map_unrolled(f, args, why)
            }
            r => r,
        }
    }

    /// The map as one FCL loop of a trip per element: the state is the result array, trip
    /// `it` replaces its element `it` with `f` of the arguments' elements `it`; it also carries
    /// the arrays `carry` (made before the map, which its function updates: [`Lowerer::carry`]).
    fn map_loop(&mut self, f: &Val, args: &[&Arr], carry: &[(Loc, Arr)]) -> R<Val> {
        let shape = args[0].shape.clone();
        let n = args[0].size();
        // over a length the device computes (both arguments of one length, `zipWith`'s
        // checked): as many trips as it says, the result of its length, fills past it
        let run_len = args[0].run_len.clone();
        let it = self.fresh.name("it");
        let xs = elements_at(args, &fcl!("{it}"));
        let saved = self.checkpoint();
        let scalar = |r: Val| match r {
            Val::Arr(r) if r.shape.is_empty() && !r.is_dynamic() => Ok(r),
            _ => unsupported("a function with statements whose result is not a scalar"),
        };
        // (the carried arrays as they are before the map: the result's type is all this
        // lowering is for where there are any)
        for (loc, a) in carry {
            self.store.update(*loc, a.clone());
        }
        let (r, mut step) = self.loop_body(f, xs.clone(), &it, None)?;
        let mut r = scalar(r)?;
        let r_ty = r.ty;
        let fill = r_ty.fill();
        let mut first = Arr::new(r_ty, shape.clone(), move |_| fill.clone());
        // over an unbounded vector or an array of unbounded extents (module `capacity`): the
        // state as long as it is, its length or extents in the state
        let unbounded = args[0].sized_at_run_time();
        let run_dims = args[0].run_dims.clone();
        if unbounded {
            first.run_len = run_len.clone();
            first.run_dims = run_dims.clone();
        }
        if n == 0 {
            // no element, no application: only the result's type was needed
            self.restore(saved);
            return Ok(Val::Arr(first));
        }
        // draws whose number the device computes: the state counts them after the result
        let sites = std::mem::take(&mut step.counted);
        // the state: the result, the carried arrays, the draw counters
        let mut parts = vec![first];
        parts.extend(carry.iter().map(|c| c.1.clone()));
        parts.extend(Counters::zeros(&sites));
        let mut dynamic: Vec<bool> = parts.iter().map(Arr::is_dynamic).collect();
        dynamic[0] = unbounded;
        let layout = Layout::new(&parts, dynamic, &vec![None; parts.len()])?;
        let s = self.fresh.name("s");
        let mut state = layout.read(self, &s);
        let now = state.split_off(1 + carry.len());
        for ((loc, _), a) in carry.iter().zip(state.split_off(1)) {
            self.store.update(*loc, a);
        }
        if !sites.is_empty() || !carry.is_empty() {
            let counters = Counters {
                sites: sites.clone(),
                now,
            };
            let counters = (!sites.is_empty()).then_some(&counters);
            let counted;
            (counted, step) = self.loop_body(f, xs, &it, counters)?;
            r = scalar(counted)?;
        }
        let before = state.remove(0).index;
        let (rt, at) = (r.expr(), it.clone());
        let mut next = Arr::new(r.ty, shape, move |i| {
            fcl!("(if {i} == {at} then {rt} else {})", before(i))
        });
        if unbounded {
            next.run_len = run_len.clone();
            next.run_dims = run_dims;
        }
        let (trips, known) = match &run_len {
            Some(len) => (self.trips_of((**len).clone()), None),
            None => (fcl!("{n}"), Some(n as i64)),
        };
        self.count_loop_draws(&step.draws, known, &trips)?;
        let mut next = vec![next];
        for (loc, _) in carry {
            next.push(self.store.at(*loc).expect("a carried location").clone());
        }
        next.extend(std::mem::take(&mut step.counts));
        let w = self.emit_loop(&trips, &it, &s, &layout, &parts, Step { next, ..step });
        let mut finals = layout.read(self, &w);
        self.count_state_draws(&sites, finals.split_off(1 + carry.len()));
        let last = finals.split_off(1);
        self.carried_back(carry, last)?;
        let mut out = finals.remove(0);
        // every element is one of f's results: the fills of the first state are all replaced
        // (past a run-time length, they stay)
        out.range = match run_len {
            Some(_) => r.range_with_fill(),
            None => r.range,
        };
        out.run_len = run_len;
        out.run_dims = args[0].run_dims.clone();
        Ok(Val::Arr(out))
    }

    /// `each`/`zipWith` of `f` over `args` (equal shapes) element by element at the top level,
    /// for a function whose body has statements (a print, a sort, a filter): its applications
    /// run in element order, as the oracle runs them. `why`: why `f` has no scalar lowering.
    fn map_unrolled(&mut self, f: &Val, args: &[&Arr], why: LowerTailError) -> R<Val> {
        let a = args[0];
        if a.size() > MAX_UNROLLED_ELEMENTS {
            return Err(why);
        }
        let mut elems = Vec::new();
        for i in 0..a.size() {
            match self.apply_fun(f, elements_at(args, &fcl!("{i}")))? {
                Val::Arr(r) if r.shape.is_empty() => elems.push(r),
                _ => return Err(why),
            }
        }
        let Val::Arr(v) = super::shape::vector(&self.fresh, elems)? else {
            return Err(why);
        };
        let mut out = Arr::new(v.ty, a.shape.clone(), |_| int(0));
        out.index = v.index;
        out.known = v.known.map(|k| {
            Rc::new(Array {
                shape: a.shape.clone(),
                elems: k.elems.clone(),
            })
        });
        Ok(Val::Arr(out))
    }
}

/// The arguments' elements at flat index `i` (an FCL int expression), as scalars in their
/// ranges.
fn elements_at(args: &[&Arr], i: &Fcl) -> Vec<Val> {
    args.iter()
        .map(|b| {
            let mut x = Arr::scalar(b.ty, (b.index)(i));
            x.range = b.range;
            Val::Arr(x)
        })
        .collect()
}
