//! A loop's step (module `loops`: a `power` that is one FCL loop; module `each_loop`: a map of
//! a trip per element; module `branch`: an `if`'s branches as loops of 0 or 1 trip): the
//! function applied as the step, its statements and prints kept apart from `main`'s, and its
//! draws from `roll` counted from the loop's first trip (module `roll`), by `it · d` where
//! each trip draws d times, else by draw counters the state carries ([`Counters`]).

use super::location::{Kept, Store};
use super::lowerer::{Line, Lowerer};
use super::tree::{fcl, Name};
use super::value::{unsupported, Arr, Ty, Val, R};
use super::Output;
use semantics::tail::value::{Array, Scalar};
use std::collections::HashMap;

/// A loop step's lowering.
#[derive(Default)]
pub(super) struct Step {
    /// The next state's components.
    pub next: Vec<Arr>,
    /// The statements of a trip (with the comments on them).
    pub body: Vec<Line>,
    /// The values a trip prints.
    pub prints: Vec<Output>,
    /// The draws of each `roll` call site in a trip (module `roll`), where each trip draws
    /// as many; empty where the state counts them ([`Counters`]).
    pub draws: HashMap<u32, u64>,
    /// Lowered with no counters: the call sites a trip draws from where the device computes
    /// how many times (a loop of computed count, an `if` it decides, in the step), so that
    /// the state must count them; else empty.
    pub counted: Vec<u32>,
    /// Lowered with counters: each counted site's draws after the trip, a scalar int.
    pub counts: Vec<Arr>,
    /// What the step gives for each component of its (first) argument's locations (module
    /// `location`), or `None` where the loop cannot follow them.
    pub kept: Option<Vec<Kept>>,
}

/// The draws from `roll` that a loop's state counts (module `roll`), where the device computes
/// how many a trip makes: for each call site (in order), its draws in the trips before this
/// one, read from the state (a scalar int component after the loop's own, 0 at the start).
pub(super) struct Counters {
    pub sites: Vec<u32>,
    pub now: Vec<Arr>,
}

impl Counters {
    /// The first state's counters: none drawn.
    pub(super) fn zeros(sites: &[u32]) -> Vec<Arr> {
        let zero = Array::scalar(Scalar::Int(0));
        sites.iter().map(|_| Arr::known(zero.clone())).collect()
    }
}

impl Lowerer {
    /// After a loop whose state counted the draws of `sites` ([`Counters`]): the last
    /// state's `counters` are the loop's draws, run-time values of this scope.
    pub(super) fn count_state_draws(&mut self, sites: &[u32], counters: Vec<Arr>) {
        for (&site, c) in sites.iter().zip(counters) {
            self.add_run_draws(site, c.expr());
        }
    }

    /// `f` applied to `args` as the step of a loop whose trip variable is `it`: its result,
    /// and the statements it runs and the values it prints, which go into the loop (not
    /// `main`), where nothing may run that runs once per program (`in_loop`). Its draws from
    /// `roll` count from the loop's first trip: with no `counters`, trip `it` of a step
    /// drawing d times from a site draws after `it · d` draws of the loop's trips before, so a
    /// step that draws is lowered twice, the second time knowing d; where the device computes
    /// d, [`Step::counted`] says which sites the state must count. With `counters`, the trips
    /// before drew as many as they say, and [`Step::counts`] adds this trip's. The draws'
    /// counts are left as before the step; the caller counts the trips' draws
    /// (`count_loop_draws`, or the last state's counters).
    pub(super) fn loop_body(
        &mut self,
        f: &Val,
        args: Vec<Val>,
        it: &Name,
        counters: Option<&Counters>,
    ) -> R<(Val, Step)> {
        let (result, step) = self.loop_body_or_failure(f, args, it, counters)?;
        Ok((result?, step))
    }

    /// [`Lowerer::loop_body`], its step kept where its result is an error: a step that
    /// certainly fails (found when lowered) still runs its statements before it fails.
    pub(super) fn loop_body_or_failure(
        &mut self,
        f: &Val,
        args: Vec<Val>,
        it: &Name,
        counters: Option<&Counters>,
    ) -> R<(R<Val>, Step)> {
        let kept = std::cell::RefCell::new(None);
        let once = |lw: &mut Lowerer, args| lw.loop_body_once(f, args, &kept);
        let (lowered, draws, counted, counts) = match counters {
            None => {
                let (mut lowered, first) =
                    self.in_draw_scope(Vec::new(), |lw| once(lw, args.clone()));
                // (where the device computes them, the caller lowers the step again, counting)
                let counted = match first.counted_on_device() {
                    true => first.sites(),
                    false => Vec::new(),
                };
                if counted.is_empty() && !first.drawn.is_empty() {
                    let per_trip = first.drawn.iter();
                    let per_trip = per_trip.map(|(&site, &d)| (site, fcl!("{it} * {d}")));
                    let again;
                    (lowered, again) = self.in_draw_scope(per_trip.collect(), |lw| once(lw, args));
                    if again.drawn != first.drawn || again.counted_on_device() {
                        lowered.0 = changing_draws();
                    }
                }
                (lowered, first.drawn, counted, Vec::new())
            }
            Some(c) => {
                let bases = c.sites.iter().zip(&c.now).map(|(&s, n)| (s, n.expr()));
                let (mut lowered, scope) = self.in_draw_scope(bases.collect(), |lw| once(lw, args));
                if scope.sites().iter().any(|s| !c.sites.contains(s)) {
                    lowered.0 = changing_draws();
                }
                let counts = c.sites.iter().zip(&c.now);
                let counts = counts.map(|(&site, now)| {
                    Arr::scalar(Ty::Int, fcl!("{} + {}", now.expr(), scope.of(site)))
                });
                (lowered, HashMap::new(), Vec::new(), counts.collect())
            }
        };
        let (result, body, prints) = lowered;
        Ok((
            result,
            Step {
                next: Vec::new(),
                body,
                prints,
                draws,
                counted,
                counts,
                kept: kept.into_inner(),
            },
        ))
    }

    /// The step applied once, its arguments bound in it (at locations of the step, which it
    /// may update); `kept`: what it gives for its first argument's locations.
    fn loop_body_once(
        &mut self,
        f: &Val,
        args: Vec<Val>,
        kept: &std::cell::RefCell<Option<Vec<Kept>>>,
    ) -> (R<Val>, Vec<Line>, Vec<Output>) {
        self.in_loop_body(|lw| {
            let args: Vec<Val> = args
                .into_iter()
                .map(|a| Store::bind(&lw.fresh, a))
                .collect();
            let first = args.first().cloned();
            // (a step that certainly fails gives no location: empty, each component is new)
            *kept.borrow_mut() = Some(Vec::new());
            let result = lw.apply_fun(f, args)?;
            *kept.borrow_mut() = first.and_then(|x| lw.store.kept(&x, &result).ok());
            Ok(result)
        })
    }

    /// `run` lowered as (part of) a loop's step: its result, and the statements it runs and
    /// the values it prints, kept apart from `main`'s (`in_loop`: nothing that runs once per
    /// program).
    pub(super) fn in_loop_body<T>(
        &mut self,
        run: impl FnOnce(&mut Lowerer) -> R<T>,
    ) -> (R<T>, Vec<Line>, Vec<Output>) {
        let outer = std::mem::take(&mut self.stmts);
        let outer_prints = std::mem::take(&mut self.outputs);
        let in_loop = std::mem::replace(&mut self.in_loop, true);
        // (the step updates only arrays made in it and those its `power`'s state carries:
        // module `location`; a loop nested in it carries its own)
        let floor = std::mem::replace(&mut self.store.floor, self.fresh.loc());
        let carry = std::mem::take(&mut self.carry);
        let carried = std::mem::replace(&mut self.store.carried, carry.iter().copied().collect());
        let choices = self.store.choices();
        let result = run(self);
        self.store.restore_choices(choices);
        self.store.carried = carried;
        self.carry = carry;
        self.store.floor = floor;
        self.in_loop = in_loop;
        let body = std::mem::replace(&mut self.stmts, outer);
        let prints = std::mem::replace(&mut self.outputs, outer_prints);
        (result, body, prints)
    }
}

/// The refusal of a step whose draws differ between its lowerings.
fn changing_draws<T>() -> R<T> {
    unsupported("a loop step whose draws from roll change with what they know")
}
