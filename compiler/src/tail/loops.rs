//! `power(f, n, x)` (3.59/3.60): one kernel per trip where the step is a map of its state
//! (`power`), one FCL loop whose step has statements (a filter's prefix sums, a sort, a
//! reduction's passes) or whose state's length changes from trip to trip (`power_loop`), a
//! count the device computes read by the host when the program runs (`power_computed`), and
//! trip by trip at the top level where none of these applies, or where the state and the
//! count are known (`power_unrolled`).
//!
//! The step is lowered once, with statements going into the step's own `do<grid>` block,
//! which FCL's grid-level `power` runs once per trip (the FCL compiler makes it a host loop of
//! launches whose kernels are built once). A state component that is a vector whose length
//! the step may change is held at a fixed capacity, with its current length in a slot of the
//! state buffer after the components: the step reads it there (a vector whose length the
//! device computes, module `dynamic`) and writes the next one. The capacity is the first
//! trip's length, or, for a vector the step lengthens by d elements, that length plus d for
//! each of the most trips the count can be (its value, or its range's bound); with a known
//! count, a vector that the step lengthens from a static length to a static one has that
//! capacity as its static length after the loop. A step that prints prints each trip: the
//! program prints the number of trips first, so the host knows how many lines follow
//! (`Output::repeats`); module `each_loop` uses the same loop for maps whose function has
//! statements. Its draws from `roll` count from the loop's first trip (module `roll`); where
//! the device computes how many a trip makes, the state counts them (`Counters`, module `step`). The
//! step may not do what runs once per program (read a value back for the lowering,
//! `idxassign`): such a `power` runs trip by trip at the top level instead.

use super::apply::MAX_FOLD;
use super::capacity::MAX_CAPACITY;
use super::check::checked_power_count;
use super::location::{Kept, Store};
use super::lowerer::{Lowerer, TABULATE};
use super::range::Range;
use super::state::{components, packed, reading, rebuild, unbounded_states, widened, Layout};
use super::step::{Counters, Step};
use super::tree::{fcl, fcl_stmt, int, var, Fcl, Name, Stmt};
use super::value::{unsupported, Arr, Loc, Ty, Val, R};
use super::{LowerTailError, Output, ResultKind};
use semantics::fcl::printer::print_expr;
use semantics::fcl::quote::do_block;
use semantics::fcl::syntax::Level;
use semantics::tail::syntax::Expr;

/// A `power` count: an FCL int expression (a literal, or the name the program binds a count
/// the device computes to), its value where the lowering knows it, and the most trips it can
/// be (from its range, module `range`) where that is bounded.
pub(super) struct Trips {
    pub expr: Fcl,
    pub known: Option<i64>,
    pub most: Option<usize>,
}

impl Trips {
    /// A count known at compile time.
    pub(super) fn known(n: i64) -> Trips {
        Trips {
            expr: int(n),
            known: Some(n),
            most: usize::try_from(n).ok(),
        }
    }

    /// Where the loop may run no trip (its result is then its initial state: rule 3.60), the
    /// condition under which it runs none.
    pub(super) fn skips(&self) -> Option<Fcl> {
        match self.known {
            Some(k) if k >= 1 => None,
            _ => Some(fcl!("(lti {} 1)", self.expr)),
        }
    }
}

/// A `power` step being lowered on states of more and more settled layouts (`power_loop`).
struct Settling<'a> {
    f: &'a Val,
    x: &'a Val,
    s: &'a Name,
    it: &'a Name,
}

impl Settling<'_> {
    /// The step on the state `parts` (of capacities `caps`, the components in `dynamic` with
    /// their lengths in the state), and its layout. Where the step draws from `roll` a number
    /// of times the device computes, the state gains the counters of `sites` ([`Counters`]:
    /// components after the loop's own, once for all later layouts).
    fn step(
        &self,
        lw: &mut Lowerer,
        parts: &mut Vec<Arr>,
        caps: &mut Vec<Option<usize>>,
        mut dynamic: Vec<bool>,
        sites: &mut Vec<u32>,
    ) -> R<(Layout, Step)> {
        let layout = Layout::new(parts, dynamic.clone(), caps)?;
        let mut step = lw.loop_step(self.f, self.x, &layout, self.s, self.it, sites)?;
        if step.counted.is_empty() {
            return Ok((layout, step));
        }
        *sites = std::mem::take(&mut step.counted);
        parts.extend(Counters::zeros(sites));
        caps.resize(parts.len(), None);
        dynamic.resize(parts.len(), false);
        let layout = Layout::new(parts, dynamic, caps)?;
        let step = lw.loop_step(self.f, self.x, &layout, self.s, self.it, sites)?;
        Ok((layout, step))
    }
}

impl Lowerer {
    /// `power(f, n, x)` (n ≥ 1, or a count computed on the device) as one FCL loop (see the module comment), else trip by trip
    /// at the top level; `why`: why the step has no kernel of its own.
    pub(super) fn power_loop_or_unrolled(
        &mut self,
        f: &Val,
        n: &Trips,
        x: &Val,
        why: String,
    ) -> R<Val> {
        // a small known state and count: the trips' values are known too, as the lowering
        // computes them one after another
        if let Some(k) = n.known {
            let parts = components(x)?;
            let work = parts.iter().map(Arr::size).sum::<usize>().max(1) as i64 * k;
            if work <= MAX_FOLD as i64 && parts.iter().all(|a| a.known.is_some()) {
                return self.power_unrolled(f, k, x, why);
            }
        }
        // (a step that updates arrays made before it: the loop's state carries them too)
        let own: Vec<Loc> = components(x)?.iter().map(|a| a.loc).collect();
        let looped = self.carrying(&own, |lw, carry| {
            lw.power_loop_carrying(f, n, x, carry)?
                .map_or_else(|| unsupported(why.clone()), Ok)
        });
        match looped {
            Err(LowerTailError::Unsupported(_) | LowerTailError::Fails(_)) => {}
            r => return r,
        }
        if let Some(v) = self.first_trip_peeled(f, n, x, &why)? {
            return Ok(v);
        }
        match n.known {
            Some(n) => self.power_unrolled(f, n, x, why),
            None => unsupported(why),
        }
    }

    /// [`Lowerer::power_loop_or_unrolled`]'s loop, its state also carrying the arrays at
    /// the locations `carry` (made before the step, which updates them: [`Lowerer::carry`],
    /// set by [`Lowerer::carrying`]); `None` where it has none.
    fn power_loop_carrying(
        &mut self,
        f: &Val,
        n: &Trips,
        x: &Val,
        carry: Vec<(Loc, Arr)>,
    ) -> R<Option<Val>> {
        // the state as it is, then with vectors that may grow past any capacity, or by a count
        // the device computes, unbounded: a buffer as long as they are on each trip (module
        // `capacity`)
        for state in std::iter::once(x.clone()).chain(unbounded_states(x)?) {
            let saved = self.checkpoint();
            match self.power_loop(f, n, &state, x, &carry) {
                Err(LowerTailError::Unsupported(_) | LowerTailError::Fails(_)) => {
                    self.restore(saved);
                }
                r => return r.map(Some),
            }
        }
        Ok(None)
    }

    /// [`Lowerer::power_loop_or_unrolled`]'s loop over the initial state `x` in the form the
    /// loop holds it (its vectors unbounded, or as it is), `init` the array the program
    /// passes (its location's, module `location`).
    fn power_loop(
        &mut self,
        f: &Val,
        n: &Trips,
        x: &Val,
        init: &Val,
        carry: &[(Loc, Arr)],
    ) -> R<Val> {
        let mut parts = components(x)?;
        parts.extend(carry.iter().map(|c| c.1.clone()));
        let mut caps = vec![None; parts.len()];
        let mut sites = Vec::new();
        let s = self.fresh.name("s");
        let it = self.fresh.name("it");
        let on = Settling {
            f,
            x,
            s: &s,
            it: &it,
        };
        let dynamic = parts.iter().map(Arr::is_dynamic).collect();
        let (mut layout, mut step) = on.step(self, &mut parts, &mut caps, dynamic, &mut sites)?;
        // an array of run-time extents whose step may make an extent larger than its
        // capacity (a transposition exchanges them), or a static one of two or more axes
        // whose step changes its shape: held at the larger capacity of each axis, with its
        // extents in the state, the step lowered again on it (until no axis grows: a
        // permutation of r axes settles in r rounds)
        // (one that grows by the same extents two rounds running grows by them on every trip:
        // held at the capacity of the most trips the count can be, as a growing vector is)
        let firsts: Vec<Vec<usize>> = components(x)?.iter().map(|a| a.shape.clone()).collect();
        let mut grown_extents: Vec<Option<Vec<usize>>> = vec![None; parts.len()];
        let mut last_growth: Vec<Option<Vec<usize>>> = vec![None; parts.len()];
        for _ in 0..=MAX_RANK_ROUNDS {
            let mut wider = false;
            for (c, b) in step.next.iter().enumerate() {
                let a = &parts[c];
                if grown_extents[c].is_none()
                    && (a.run_dims.is_some() || b.run_dims.is_some() || a.shape.len() >= 2)
                    && a.shape.len() == b.shape.len()
                    && b.shape.iter().zip(&a.shape).any(|(y, x)| y > x)
                {
                    let growth: Vec<usize> = b
                        .shape
                        .iter()
                        .zip(&a.shape)
                        .map(|(y, x)| y.saturating_sub(*x))
                        .collect();
                    if last_growth[c].as_ref() == Some(&growth) && c < firsts.len() {
                        let Some(most) = n.most else {
                            return unsupported(
                                "a power whose state grows, by a count with no bound",
                            );
                        };
                        let shape = firsts[c]
                            .iter()
                            .zip(&growth)
                            .map(|(s, d)| d.checked_mul(most).and_then(|g| g.checked_add(*s)))
                            .collect::<Option<Vec<usize>>>()
                            .filter(|cap| {
                                cap.iter()
                                    .try_fold(1usize, |p, &k| p.checked_mul(k))
                                    .is_some_and(|p| p <= MAX_CAPACITY)
                            });
                        let Some(shape) = shape else {
                            return unsupported("a power whose state grows past the capacity");
                        };
                        parts[c] = widened(a, shape);
                        grown_extents[c] = Some(growth);
                        wider = true;
                        continue;
                    }
                    last_growth[c] = Some(growth);
                    let shape = a
                        .shape
                        .iter()
                        .zip(&b.shape)
                        .map(|(x, y)| *x.max(y))
                        .collect();
                    parts[c] = widened(a, shape);
                    wider = true;
                }
            }
            if !wider {
                break;
            }
            let dynamic = parts.iter().map(Arr::is_dynamic).collect();
            (layout, step) = on.step(self, &mut parts, &mut caps, dynamic, &mut sites)?;
        }
        // a vector the step lengthens by d elements is held at the capacity of its longest
        // length, d per trip for the most trips the count can be
        let growth: Vec<Option<usize>> = parts
            .iter()
            .zip(&step.next)
            .map(|(a, b)| {
                let vectors = a.shape.len() == 1 && b.shape.len() == 1;
                (vectors && b.size() > a.size()).then(|| b.size() - a.size())
            })
            .collect();
        let grown = growth.iter().any(Option::is_some);
        // (a static vector the step lengthens to a static one, see `exact_lengths`)
        let statically: Vec<bool> = parts
            .iter()
            .zip(&step.next)
            .map(|(a, b)| !a.is_dynamic() && !b.is_dynamic())
            .collect();
        if grown {
            let Some(most) = n.most else {
                return unsupported("a power whose state grows, by a count with no bound");
            };
            for (c, d) in growth.iter().enumerate() {
                if let Some(d) = d {
                    let cap = d
                        .checked_mul(most)
                        .and_then(|g| g.checked_add(parts[c].size()));
                    match cap {
                        Some(cap) if cap <= MAX_CAPACITY => caps[c] = Some(cap),
                        _ => return unsupported("a power whose state grows past the capacity"),
                    }
                }
            }
            let dynamic = parts
                .iter()
                .zip(&caps)
                .map(|(a, c)| a.is_dynamic() || c.is_some())
                .collect();
            (layout, step) = on.step(self, &mut parts, &mut caps, dynamic, &mut sites)?;
        }
        // a component the step shortens is dynamic from the first trip on: lowered again so
        if let Some(dynamic) = layout.fits(&parts, &step.next, &caps, &grown_extents)? {
            (layout, step) = on.step(self, &mut parts, &mut caps, dynamic, &mut sites)?;
            if layout
                .fits(&parts, &step.next, &caps, &grown_extents)?
                .is_some()
            {
                return unsupported("a power state whose lengths do not settle");
            }
        }
        // each trip adds the same d to the capacity (at the first length and at the longest),
        // so the capacity holds the state's length after any number of trips up to the most
        let steady = caps
            .iter()
            .zip(&growth)
            .zip(&step.next)
            .all(|((cap, d), b)| match cap {
                Some(cap) => b.size() == cap + d.unwrap_or(0),
                None => true,
            });
        let steady = steady
            && grown_extents
                .iter()
                .zip(&parts)
                .zip(&step.next)
                .all(|((g, a), b)| match g {
                    Some(g) => a
                        .shape
                        .iter()
                        .zip(g)
                        .map(|(x, d)| x + d)
                        .eq(b.shape.iter().copied()),
                    None => true,
                });
        if !steady {
            return unsupported("a power whose state grows by more on each trip");
        }
        let Some(kept) = step.kept.clone() else {
            return unsupported("a power step whose locations the loop cannot follow");
        };
        self.count_loop_draws(&step.draws, n.known, &n.expr)?;
        let w = self.emit_loop(&n.expr, &it, &s, &layout, &parts, step);
        let mut state = layout.read(self, &w);
        self.count_state_draws(&sites, state.split_off(state.len() - sites.len()));
        let carried = state.split_off(state.len() - carry.len());
        if n.known.is_some() {
            // each growing component the step lengthens from a static length to a static one,
            // with the size it has after one more trip
            // (draw counters added since are not among them)
            let candidates: Vec<(usize, usize)> = (0..statically.len())
                .filter(|&c| statically[c])
                .filter_map(|c| Some((c, caps[c]? + growth[c]?)))
                .collect();
            for c in self.exact_lengths(f, x, &layout, &caps, candidates, &sites) {
                // its capacity, the most trips' growth, is its length
                state[c].run_len = None;
            }
        }
        let result = rebuild(x, &state)?;
        self.carried_back(carry, carried)?;
        self.located_after_loop(init, &kept, n, result)
    }

    /// The FCL loop `power<grid> trips (fn it => fn s => step) init` over a state in `layout`,
    /// from `parts` to the step's result, bound to a fresh name (returned); the step's
    /// statements run each trip, and where it prints, the program prints the number of trips
    /// first (`Output::repeats`).
    pub(super) fn emit_loop(
        &mut self,
        trips: &Fcl,
        it: &Name,
        s: &Name,
        layout: &Layout,
        parts: &[Arr],
        Step {
            next, body, prints, ..
        }: Step,
    ) -> Name {
        let step = layout.write(self, &next, &var("i"));
        let init = layout.write(self, parts, &var("i"));
        // the buffers' lengths, as the host evaluates them (the next state's computed in the
        // step, module `capacity`)
        let size = self.host_count(layout.size_of(parts));
        let (next_size, counted, _) =
            self.in_loop_body(|lw| Ok(lw.host_count(layout.size_of(&next))));
        let next_size = next_size.expect("a count");
        let tabulated = fcl!("tabulate {next_size} (fn i => {step})");
        // (the step's comments go before the loop: a nested block's tree holds none)
        let mut body = body;
        body.extend(counted);
        let mut stmts: Vec<Stmt> = self.nested(body);
        let step = if stmts.is_empty() {
            tabulated
        } else {
            stmts.push(Stmt::Expr(tabulated));
            do_block(Level::grid(), stmts)
        };
        if !prints.is_empty() {
            // the number of trips, then each trip's prints (`Output::repeats`)
            let q = self.fresh.name("p");
            let qp = Name::new(&format!("{q}p"));
            self.comment("the trips of a loop that prints");
            self.stmt(fcl_stmt!("{qp} <- tabulate 1 (fn i => {trips})"));
            self.stmt(fcl_stmt!("{q} <- forceAndPrint 1 {qp}"));
            self.outputs.push(Output {
                shape: Vec::new(),
                kind: ResultKind::Int,
                dynamic: false,
                repeats: Some(prints),
            });
        }
        let w = self.fresh.name("w");
        self.helpers.insert(TABULATE);
        self.comment(format!(
            "loop: {} trips over a state of {} (the step's statements run each trip)",
            print_expr(trips).trim_end(),
            super::tree::described(&size)
        ));
        self.stmt(fcl_stmt!(
            "{w} <- power<grid> {trips} (fn {it} => fn {s} => {step}) \
             (tabulate {size} (fn i => {init}))"
        ));
        w
    }

    /// Of the growing components `candidates` (each with the size one trip from its capacity
    /// gives), those whose length after a known number of trips is their capacity: the step
    /// lengthens them from a static length to a static one at their first length (checked by
    /// the caller) and at their capacity, so their length grows by the same each trip.
    fn exact_lengths(
        &mut self,
        f: &Val,
        x: &Val,
        layout: &Layout,
        caps: &[Option<usize>],
        candidates: Vec<(usize, usize)>,
        sites: &[u32],
    ) -> Vec<usize> {
        if candidates.is_empty() {
            return Vec::new();
        }
        let mut dynamic = layout.dynamic.clone();
        for &(c, _) in &candidates {
            dynamic[c] = false;
        }
        // (only the components' types and shapes matter: no buffer is read)
        let parts = layout.read(self, &Name::new(""));
        let Ok(at_capacity) = Layout::new(&parts, dynamic, caps) else {
            return Vec::new();
        };
        let (s, it) = (self.fresh.name("s"), self.fresh.name("it"));
        let saved = self.checkpoint();
        let next = self.loop_step(f, x, &at_capacity, &s, &it, sites);
        self.restore(saved);
        match next {
            Ok(Step { next, .. })
                if candidates
                    .iter()
                    .all(|&(c, size)| !next[c].is_dynamic() && next[c].size() == size) =>
            {
                candidates.into_iter().map(|(c, _)| c).collect()
            }
            _ => Vec::new(),
        }
    }

    /// The step applied to the state read from buffer `s` in `layout`: its result's
    /// components, the statements it runs and the values it prints. Where `sites` are given,
    /// the state's last components are their draw counters ([`Counters`]), and so are the
    /// next state's.
    fn loop_step(
        &mut self,
        f: &Val,
        x: &Val,
        layout: &Layout,
        s: &Name,
        it: &Name,
        sites: &[u32],
    ) -> R<Step> {
        let mut parts = layout.read(self, s);
        let now = parts.split_off(parts.len() - sites.len());
        // the carried arrays (`Lowerer::carry`) as the trip starts, at their locations
        let carry = self.carry.clone();
        for (&loc, a) in carry.iter().zip(parts.split_off(parts.len() - carry.len())) {
            self.store.update(loc, a);
        }
        let counters = Counters {
            sites: sites.to_vec(),
            now,
        };
        let state = rebuild(x, &parts)?;
        let counters = (!sites.is_empty()).then_some(&counters);
        let (next, step) = self.loop_body_or_failure(f, vec![state.clone()], it, counters)?;
        // a step that certainly fails: its statements, then a state whose elements fail (the
        // loop may run no trip, where the program goes on)
        let next = match next {
            Err(LowerTailError::Fails(failure)) => self.failing_like(failure, &state)?,
            next => next?,
        };
        let mut next = components(&next)?;
        for loc in carry {
            next.push(self.store.at(loc).expect("a carried location").clone());
        }
        next.extend(step.counts.iter().cloned());
        Ok(Step { next, ..step })
    }

    /// `power(f, n, x)` with a count `n` the device computes: one FCL loop whose count the
    /// host reads when the program runs (a negative count fails there, rule 3.60); `None`
    /// where the step has no loop lowering (trip by trip needs the count: it is read back).
    pub(super) fn power_computed(
        &mut self,
        name: &str,
        e: &Expr,
        f: &Val,
        count: &Arr,
        x: &Val,
    ) -> R<Option<Val>> {
        let saved = self.checkpoint();
        let checked = checked_power_count(&self.fresh, e.span, name, &count.expr());
        let c = self.trips_of(checked);
        let most = count
            .range
            .filter(|r| r.hi < MAX_CAPACITY as f64)
            .map(|r| r.hi.max(0.0) as usize);
        let trips = Trips {
            expr: c,
            known: None,
            most,
        };
        match self.power(f, &trips, x) {
            Err(LowerTailError::Unsupported(_)) => {
                self.restore(saved);
                Ok(None)
            }
            r => r.map(Some),
        }
    }

    /// A `power`'s `result` from `init` at its locations (module `location`): where the step
    /// updates its state in place, the initial array's location now holds the result, and so
    /// does every location that may be it.
    fn located_after_loop(&mut self, init: &Val, kept: &[Kept], n: &Trips, result: Val) -> R<Val> {
        let skips = n.skips();
        let (result, updated) =
            self.store
                .after_loop(&self.fresh, init, kept, skips.as_ref(), result)?;
        for (loc, now) in updated {
            self.replace_at(loc, now)?;
        }
        Ok(result)
    }

    /// A loop's count `n` computed on the device, bound to a name of `main` (the FCL host
    /// reads it when the loop starts): that name.
    pub(super) fn trips_of(&mut self, n: Fcl) -> Fcl {
        // (a count the host cannot evaluate, such as an `if` on device values, from a kernel)
        let n = self.host_count(n);
        let c = self.fresh.name("trips");
        self.stmt(fcl_stmt!("{c} <- return<grid> ({n})"));
        fcl!("{c}")
    }

    pub(super) fn power(&mut self, f: &Val, n: &Trips, x: &Val) -> R<Val> {
        if n.known == Some(0) {
            return Ok(x.clone());
        }
        if self.kernel {
            return unsupported("power inside a function");
        }
        let parts = components(x)?;
        if parts.iter().any(Arr::is_dynamic) {
            let why = "power whose state's length is computed on the device";
            return self.power_loop_or_unrolled(f, n, x, why.into());
        }
        let doubles = parts
            .iter()
            .any(|a| matches!(a.ty, Ty::Double | Ty::Complex));
        let mut offsets = Vec::new();
        let mut size = 0;
        for a in &parts {
            offsets.push(size);
            size += a.size().max(1) * a.ty.slots();
        }
        let s = self.fresh.name("s");
        // the initial state's ranges hold on every trip where one trip keeps the state in them
        // (then its checks that cannot fail are left out); otherwise the state has no range
        let step = |ranges: &[Option<Range>]| {
            let read = reading(&self.fresh, &s, &parts, &offsets, doubles, ranges);
            let mut k = self.kernel_here();
            let arg = Store::bind(&self.fresh, rebuild(x, &read)?);
            let next = k.apply_fun(f, vec![arg.clone()])?;
            Ok((components(&next)?, k.store.kept(&arg, &next)?))
        };
        let mut ranges: Vec<Option<Range>> = parts.iter().map(|a| a.range).collect();
        let mut next = step(&ranges);
        let in_ranges = |next: &[Arr]| {
            next.iter()
                .zip(&ranges)
                .all(|(a, r)| r.is_none_or(|r| a.range.is_some_and(|a| a.within(r))))
        };
        if matches!(&next, Ok((n, _)) if n.len() == parts.len() && !in_ranges(n)) {
            ranges = vec![None; parts.len()];
            next = step(&ranges);
        }
        let (next, kept) = match next {
            Ok((next, kept))
                if next.len() == parts.len()
                    && next
                        .iter()
                        .zip(&parts)
                        .all(|(a, b)| a.shape == b.shape && a.ty == b.ty) =>
            {
                (next, kept)
            }
            // a step that changes the state's shape, or that has statements (prints, sorts,
            // filters): the trips run one after another at the top level
            Ok(_) => {
                let why = "power whose function changes the shape or type of its state";
                return self.power_loop_or_unrolled(f, n, x, why.into());
            }
            Err(LowerTailError::Unsupported(why)) => {
                return self.power_loop_or_unrolled(f, n, x, why)
            }
            Err(e) => return Err(e),
        };
        let w = self.fresh.name("w");
        self.helpers.insert(super::lowerer::TABULATE);
        self.comment(format!(
            "power: {} iterations of one kernel over {size} elements",
            print_expr(&n.expr).trim_end()
        ));
        let stepped = packed(&self.fresh, &next, &offsets, doubles, &var("i"));
        let init = packed(&self.fresh, &parts, &offsets, doubles, &var("i"));
        self.stmt(fcl_stmt!(
            "{w} <- power<grid> {n} (fn it => fn {s} => tabulate {size} (fn i => {stepped})) \
             (tabulate {size} (fn i => {init}))",
            n = &n.expr,
        ));
        let result = rebuild(
            x,
            &reading(&self.fresh, &w, &parts, &offsets, doubles, &ranges),
        )?;
        self.located_after_loop(x, &kept, n, result)
    }

    /// `power(f, n, x)` trip by trip at the top level of `main`: each trip's statements (its
    /// prints, sorts and filters) in order, its state materialized, so its shape may change
    /// from trip to trip. `why`: why the step has no kernel of its own, the refusal inside a
    /// function body or beyond [`MAX_TRIPS`].
    pub(super) fn power_unrolled(&mut self, f: &Val, n: i64, x: &Val, why: String) -> R<Val> {
        if self.kernel || n > MAX_TRIPS {
            return unsupported(why);
        }
        let mut state = x.clone();
        for trip in 1..=n {
            let next = self.apply_fun(f, vec![state])?;
            let parts = components(&next)?;
            // (a state that doubles each trip passes any buffer's size before its shape's
            // arithmetic overflows)
            let elements = |a: &Arr| a.shape.iter().try_fold(1usize, |p, &d| p.checked_mul(d));
            if parts
                .iter()
                .any(|a| elements(a).is_none_or(|k| k > i32::MAX as usize))
            {
                return unsupported(format!(
                    "{why}: the state passes 2^31 elements after trip {trip}"
                ));
            }
            let parts = parts
                .iter()
                .map(|a| self.materialize(a, &format!("power state after trip {trip} of {n}")))
                .collect::<Vec<Arr>>();
            state = rebuild(&next, &parts)?;
        }
        Ok(state)
    }
}

/// The most rounds of widening a state of run-time extents to the capacities its step makes.
const MAX_RANK_ROUNDS: usize = 8;

/// The most `power` trips run one after another at the top level.
const MAX_TRIPS: i64 = 4096;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tail::lowerer::Line;

    use crate::tail::tree::parsed as p;

    /// The statements a lowerer made, without the comments.
    fn made(lw: &Lowerer) -> Vec<Stmt> {
        crate::tail::lowerer::statements(lw.stmts.clone())
    }

    #[test]
    fn a_loop_runs_its_steps_statements_each_trip() {
        let mut lw = Lowerer::kernel(&Default::default());
        let parts = [Arr::new(Ty::Int, vec![3], |_: &Fcl| int(0))];
        let layout = Layout::new(&parts, vec![false], &[None]).expect("a layout");
        let next = Arr::new(Ty::Int, vec![3], |i: &Fcl| fcl!("({i} + 1)"));
        let step = Step {
            next: vec![next],
            body: vec![
                Line::Comment("a statement of the step".into()),
                Line::Stmt(fcl_stmt!("y <- return<grid> 1")),
            ],
            ..Default::default()
        };
        let (it, s) = (Name::new("it"), Name::new("s"));
        let w = lw.emit_loop(&Trips::known(4).expr, &it, &s, &layout, &parts, step);
        // the step's comment moves out before the loop, then the loop's own
        let comments: Vec<&str> = lw
            .stmts
            .iter()
            .filter_map(|l| match l {
                Line::Comment(c) => Some(c.as_str()),
                Line::Stmt(_) => None,
            })
            .collect();
        assert_eq!(comments.len(), 2, "{comments:?}");
        assert_eq!(
            comments[0],
            "(in the next statement) a statement of the step"
        );
        assert!(
            comments[1].starts_with("loop: 4 trips over a state of 3 elements"),
            "{}",
            comments[1]
        );
        let Stmt::Bind(x, e) = &made(&lw)[0] else {
            panic!("a binding");
        };
        assert_eq!(x.as_str(), w.as_str());
        assert_eq!(
            *e,
            p(
                "power<grid> 4 (fn it => fn s => do<grid> { y <- return<grid> 1\n    \
               ; tabulate 3 (fn i => (i + 1)) }) (tabulate 3 (fn i => 0))"
            )
        );
    }

    #[test]
    fn a_step_without_statements_is_a_tabulation() {
        let mut lw = Lowerer::kernel(&Default::default());
        let parts = [Arr::new(Ty::Int, vec![2], |_: &Fcl| int(0))];
        let layout = Layout::new(&parts, vec![false], &[None]).expect("a layout");
        let step = Step {
            next: vec![Arr::new(Ty::Int, vec![2], |i: &Fcl| fcl!("(index s {i})"))],
            // (comments alone make no block)
            body: vec![Line::Comment("nothing".into())],
            ..Default::default()
        };
        let trips = fcl!("{}", Name::new("trips0"));
        let (it, s) = (Name::new("it"), Name::new("s"));
        lw.emit_loop(&trips, &it, &s, &layout, &parts, step);
        let Stmt::Bind(_, e) = &made(&lw)[0] else {
            panic!("a binding");
        };
        assert_eq!(
            *e,
            p(
                "power<grid> trips0 (fn it => fn s => tabulate 2 (fn i => (index s i))) \
               (tabulate 2 (fn i => 0))"
            )
        );
    }

    #[test]
    fn a_dynamic_component_is_read_with_its_length() {
        let lw = Lowerer::kernel(&Default::default());
        let parts = [Arr::new(Ty::Int, vec![4], |_: &Fcl| int(0))];
        let layout = Layout::new(&parts, vec![true], &[None]).expect("a layout");
        let read = layout.read(&lw, &Name::new("s"));
        assert_eq!(read[0].run_len.as_deref(), Some(&p("(index s (0 + 4))")));
        assert_eq!((read[0].index)(&p("i")), p("(index s (i + 0))"));
        assert_eq!(Trips::known(7).expr, p("7"));
    }
}
