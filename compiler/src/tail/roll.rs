//! `roll` (spec §5.13) with the oracle's counter-based generator
//! (`semantics::tail::ops::io::Rolls`): draw k of call site s (the application's span start) is
//! a pure function of (s, k), FCL's `rollAt s k n` (docs/fcl-extensions.md §8), so the lowering
//! only has to know k, the number of draws of that site before, counted in evaluation order.
//!
//! * At the top level of `main` an application runs once: a known bound draws when the program
//!   is lowered (the value is known, as a constant of the program); a computed bound becomes
//!   `rollAt s k n` with the site's count k, checked against negative bounds.
//! * Inside the function of an `each`/`zipWith` over m elements that draws from each of its
//!   sites exactly once per element, the lowering knows the site's count b before the map, so
//!   element i draws number b + i (row-major order is the oracle's evaluation order): the
//!   element is pure per-element code, and the count moves on by m (by the run-time length,
//!   a value of the scope, over a vector of run-time length or an array of run-time extents). Whether a function draws
//!   once per element is found on placeholders ([`Lowerer::element_draws`]): every site the
//!   function's own lowering reaches counts; an application lowered by another lowerer (a
//!   nested `each`, a `reduce`, a branch of an `if` or `condScl` whose condition is
//!   computed) has no draw context and refuses `roll`, and a site reached twice (a function
//!   applied twice, an unrolled reduction) is refused too. A refused function runs element by
//!   element at the top level (module `each_loop`), where every `roll` is a top-level
//!   one again.
//! * In the step of a loop (module `loops`, and `each_loop`'s maps) with trip variable `it`,
//!   a site the step draws from d times per trip has counted, at trip `it`, its draws before
//!   the loop plus `it · d` ([`Lowerer::draw_count`]); the loop's step is lowered twice, the
//!   first time to find d, and after the loop the count moves on by d per trip
//!   ([`Lowerer::count_loop_draws`]).
//! * Where the device computes how many draws something makes (a loop of computed count, an
//!   `if` whose condition it computes), the count moves on by a run-time value of the scope
//!   being lowered ([`Lowerer::run_draws`]): `trips · d`, or `taken · a + (1 − taken) · b`,
//!   which every later draw of the site adds to its count. In a loop's step that makes the
//!   draws per trip differ from trip to trip: the loop's state then counts them (module
//!   `step`, `Counters`: a scalar per site, its draws in the trips before, carried from trip
//!   to trip), and after the loop the last state's counters are the run-time draws. A
//!   branch of an `if` that does so is refused (its names end with it).

use super::apply::scalar_draws;
use super::check::checked_roll_bound;
use super::lowerer::{fails, Bases, Draws, Lowerer};
use super::tree::{fcl, int, Fcl, Name};
use super::value::{unsupported, Arr, Fresh, Ty, Val, R};
use semantics::tail::ops::prim::Prim;
use semantics::tail::syntax::Expr;
use semantics::tail::value::{Array, Scalar};
use std::collections::HashMap;
use std::rc::Rc;

/// The draws from `roll` of a part of the program lowered in a scope of its own (a loop's
/// step, a branch of an `if`: [`Lowerer::in_draw_scope`]): each site's draws the lowering
/// counted, and those the device counts, in the scope's own names.
pub(super) struct ScopeDraws {
    pub drawn: HashMap<u32, u64>,
    pub run: HashMap<u32, Fcl>,
}

impl ScopeDraws {
    /// Whether the device computes how many times the scope draws from some site.
    pub(super) fn counted_on_device(&self) -> bool {
        !self.run.is_empty()
    }

    /// The sites the scope drew from, in order.
    pub(super) fn sites(&self) -> Vec<u32> {
        let mut sites: Vec<u32> = self.drawn.keys().chain(self.run.keys()).copied().collect();
        sites.sort_unstable();
        sites.dedup();
        sites
    }

    /// The scope's draws of `site`, an FCL int of the scope's names.
    pub(super) fn of(&self, site: u32) -> Fcl {
        let d = self.drawn.get(&site).copied().unwrap_or(0);
        match self.run.get(&site) {
            Some(run) => fcl!("{d} + {run}"),
            None => fcl!("{d}"),
        }
    }
}

impl Lowerer {
    /// `roll(n)` at expression `e`.
    pub(super) fn roll(&mut self, p: Prim, op: &str, e: &Expr, n: &Arr) -> R<Val> {
        let site = e.span.start;
        let bound = match n.known_scalar() {
            Some(Scalar::Int(b)) => Some(b),
            _ => None,
        };
        if self.kernel {
            let Some(d) = self.draws.clone() else {
                return unsupported(format!(
                    "{op} inside a function body whose applications the lowering cannot count"
                ));
            };
            self.drawn.push(site);
            // the placeholder pass has no counts yet
            let base = d.bases.get(&site).cloned().unwrap_or_else(|| int(0));
            let k = fcl!("({base} + {})", &d.index);
            let t = roll_text(&self.fresh, e, site, &k, n, bound);
            return Ok(Val::Arr(Arr::scalar(Ty::Double, t)));
        }
        if self.in_loop {
            // the draw of this trip: counted from the loop's first trip, as at the top level
            let k = self.draw_count(site);
            self.rolls.advance(site, 1);
            let t = roll_text(&self.fresh, e, site, &k, n, bound);
            return Ok(Val::Arr(Arr::scalar(Ty::Double, t)));
        }
        // (a site that loops of computed counts drew from has a run-time count)
        if let Some(b) = bound.filter(|_| !self.run_draws.contains_key(&site)) {
            let x = self
                .rolls
                .roll(site, b)
                .map_err(|reason| fails(p, op, e, reason))?;
            return Ok(Val::Arr(Arr::known(Array::scalar(Scalar::Double(x)))));
        }
        if self.rolls.count(site) >= i32::MAX as u64 {
            return unsupported(format!("{op}: more than 2^31 draws of one call site"));
        }
        let k = self.draw_count(site);
        self.rolls.advance(site, 1);
        let t = roll_text(&self.fresh, e, site, &k, n, bound);
        Ok(Val::Arr(Arr::scalar(Ty::Double, t)))
    }

    /// The result type of `f` applied per element to scalars of types `tys` over `count`
    /// elements (a capacity, where `run_len` says how many there are when the program runs),
    /// with the counts before the map of the sites it draws from; those counts move on by
    /// the number of elements (a run-time value of this scope where `run_len` is given).
    /// Unsupported where `f` has no scalar lowering or does not draw exactly once per element
    /// from each of its sites.
    pub(super) fn element_draws(
        &mut self,
        f: &Val,
        tys: &[Ty],
        count: usize,
        run_len: Option<&Fcl>,
    ) -> R<(Ty, Bases)> {
        let (ty, drawn) = scalar_draws(&self.fresh, f, tys, Some(Draws::placeholder()))?;
        if drawn.is_empty() {
            return Ok((ty, None));
        }
        if self.kernel {
            return unsupported("roll inside a function applied per element inside a function");
        }
        let mut bases = HashMap::new();
        for &site in &drawn {
            if bases.insert(site, self.draw_count(site)).is_some() {
                return unsupported("a function that draws more than once per element from a roll");
            }
        }
        if let Some(len) = run_len {
            for &site in bases.keys() {
                self.add_run_draws(site, len.clone());
            }
            return Ok((ty, Some(Rc::new(bases))));
        }
        if bases
            .keys()
            .any(|&site| self.rolls.count(site) + count as u64 > i32::MAX as u64)
        {
            return unsupported("more than 2^31 draws of one roll call site");
        }
        for &site in bases.keys() {
            self.rolls.advance(site, count as u64);
        }
        Ok((ty, Some(Rc::new(bases))))
    }

    /// The number of draws of `site` before its next one, as an FCL int expression: its count
    /// so far, the draws the device counted in this scope and, inside loops, the draws made
    /// before each enclosing step's trip ([`Lowerer::trip_draws`]).
    fn draw_count(&self, site: u32) -> Fcl {
        let k = self.rolls.count(site);
        let before = match self.run_draws.get(&site) {
            Some(run) => fcl!("{k} + {run}"),
            None => fcl!("{k}"),
        };
        self.trip_draws
            .iter()
            .filter_map(|bases| bases.get(&site))
            .fold(before, |acc, b| fcl!("{acc} + {b}"))
    }

    /// Moves `site`'s run-time count ([`Lowerer::run_draws`]) on by `moved` (an FCL int).
    pub(super) fn add_run_draws(&mut self, site: u32, moved: Fcl) {
        let run = match self.run_draws.remove(&site) {
            Some(run) => fcl!("{run} + {moved}"),
            None => moved,
        };
        self.run_draws.insert(site, run);
    }

    /// `run` lowered in a scope of its own (a loop's step, a branch of an `if`), whose names
    /// end with it: its draws count from the draws before it, those `rolls` counts, `bases`
    /// (per site: the trips before this one) and the enclosing scope's run-time ones (which
    /// its own run-time draws, in its names, do not join). The counts are left as before it.
    pub(super) fn in_draw_scope<T>(
        &mut self,
        bases: Vec<(u32, Fcl)>,
        run: impl FnOnce(&mut Lowerer) -> T,
    ) -> (T, ScopeDraws) {
        let before = self.rolls.clone();
        let outer = std::mem::take(&mut self.run_draws);
        let mut all = outer.clone();
        for (site, b) in bases {
            let b = match all.remove(&site) {
                Some(run) => fcl!("{run} + {b}"),
                None => b,
            };
            all.insert(site, b);
        }
        self.trip_draws.push(Rc::new(all));
        let result = run(self);
        self.trip_draws.pop();
        let drawn = self.rolls.since(&before);
        self.rolls = before;
        let run = std::mem::replace(&mut self.run_draws, outer);
        (result, ScopeDraws { drawn, run })
    }

    /// Counts the draws of an `if` whose branches ran as loops of 0 or 1 trip (module
    /// `branch`), `taken` (an FCL int, 1 or 0) the first's trips: branch a drew `drawn_a` from
    /// each site, b `drawn_b`, each from the counts before the `if`, so after it a site's count
    /// moves on by `taken · a + (1 − taken) · b`, a run-time value where the two differ. Not
    /// inside a function body, as for [`Lowerer::count_loop_draws`].
    pub(super) fn count_branch_draws(
        &mut self,
        taken: &Name,
        drawn_a: &HashMap<u32, u64>,
        drawn_b: &HashMap<u32, u64>,
    ) -> R<()> {
        let mut sites: Vec<u32> = drawn_a.keys().chain(drawn_b.keys()).copied().collect();
        sites.sort_unstable();
        sites.dedup();
        if sites.is_empty() {
            return Ok(());
        }
        if self.kernel {
            return unsupported("an if whose branches draw from roll, in a function body");
        }
        for site in sites {
            let (a, b) = (
                drawn_a.get(&site).copied().unwrap_or(0),
                drawn_b.get(&site).copied().unwrap_or(0),
            );
            if a.max(b) + self.rolls.count(site) > i32::MAX as u64 {
                return unsupported("more than 2^31 draws of one roll call site");
            }
            if a == b {
                self.rolls.advance(site, a);
                continue;
            }
            self.add_run_draws(site, fcl!("{taken} * {a} + (1 - {taken}) * {b}"));
        }
        Ok(())
    }

    /// Counts the draws of `trips` trips (`count`, an FCL int) of a loop whose step draws
    /// `per_trip` from each site (the step was lowered once: the counts are as before it);
    /// refused where known draws pass 2^31, or where the device computes the count inside a
    /// function body. (Draws past 2^31 of one site by a computed count are not checked: the
    /// count wraps, as FCL's ints do.)
    pub(super) fn count_loop_draws(
        &mut self,
        per_trip: &HashMap<u32, u64>,
        trips: Option<i64>,
        count: &Fcl,
    ) -> R<()> {
        if per_trip.is_empty() {
            return Ok(());
        }
        let Some(n) = trips.and_then(|n| u64::try_from(n).ok()) else {
            // a count the device computes (`count`, a name bound in this scope, checked not
            // negative): the sites' counts after the loop are run-time values, in this scope
            // (`main`, or a loop's step, whose state then counts its draws, module `loops`);
            // a branch's body refuses them (module `branch`)
            if self.kernel {
                return unsupported(
                    "roll inside a loop whose count the device computes, in a function body",
                );
            }
            for (&site, &d) in per_trip {
                self.add_run_draws(site, fcl!("{count} * {d}"));
            }
            return Ok(());
        };
        for (&site, &d) in per_trip {
            let after = d
                .checked_mul(n)
                .and_then(|g| g.checked_add(self.rolls.count(site)));
            if after.is_none_or(|a| a > i32::MAX as u64) {
                return unsupported("more than 2^31 draws of one roll call site");
            }
        }
        for (&site, &d) in per_trip {
            self.rolls.advance(site, d * n);
        }
        Ok(())
    }
}

/// `rollAt site k n` with the bound checked (known bounds that are not negative need no check).
fn roll_text(fresh: &Fresh, e: &Expr, site: u32, k: &Fcl, n: &Arr, bound: Option<i32>) -> Fcl {
    let n = match bound {
        Some(b) if b >= 0 => fcl!("{b}"),
        _ => checked_roll_bound(fresh, e.span, &n.expr(), bound),
    };
    fcl!("(rollAt {site} {k} {n})")
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::tail::tree::parsed as p;

    #[test]
    fn draws_count_the_trips_of_enclosing_loops() {
        let mut l = Lowerer::kernel(&Fresh::default());
        l.rolls.advance(7, 3);
        assert_eq!(l.draw_count(7), p("3"));
        let bases = |site: u32, b: &str| Rc::new(HashMap::from([(site, p(b))]));
        l.trip_draws.push(bases(7, "it0 * 2"));
        l.trip_draws.push(bases(8, "it1 * 5"));
        l.trip_draws.push(bases(7, "it2 * 4"));
        assert_eq!(l.draw_count(7), p("(3 + it0 * 2 + it2 * 4)"));
        assert_eq!(l.draw_count(8), p("(0 + it1 * 5)"));
        l.run_draws.insert(8, p("trips * 2"));
        assert_eq!(l.draw_count(8), p("(0 + trips * 2 + it1 * 5)"));
    }
}
