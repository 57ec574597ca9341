//! Arrays made before a loop that its step updates (module `location`): a `power`'s step, the
//! function of an `each`/`zipWith` that is a loop of a trip per element (module `each_loop`),
//! or a branch of an `if` the device decides (module `branch`) changes such an array on every
//! trip, outside the loop's own state. The loop's state carries it ([`Lowerer::carry`]): after
//! the loop's own components (and before its draw counters) come the arrays at those
//! locations, the first state holding them as they are before the loop; each trip binds the
//! locations to the state's components (the step reads and updates them as its own,
//! `Store::carried`) and writes them back into the next state; after the loop the locations
//! hold the last state's ([`Lowerer::carried_back`]).
//!
//! Which locations a step updates is found by lowering it: an `idxassign` of a location made
//! before the step that the state does not carry is refused there and logged
//! ([`Lowerer::wanted`]), and the loop lowers again carrying it ([`Lowerer::carrying`]), until
//! no attempt finds another. A location an `if` may have made another (a choice) is not
//! carried. Also here: a `power` whose step updates its state in place and returns a new
//! array, from a variable's array, runs its first trip apart ([`Lowerer::first_trip_peeled`]).

use super::fault::LoweringFault;
use super::loops::Trips;
use super::lowerer::Lowerer;
use super::state::components;
use super::tree::fcl;
use super::value::{unsupported, Arr, Loc, Ty, Val, NEW, R};
use super::LowerTailError;

impl Lowerer {
    /// `attempt` (a loop's lowering, given the arrays its state carries, their locations in
    /// [`Lowerer::carry`] while it runs) with none carried, then carrying each array made
    /// before the loop that an attempt's step wanted to update ([`Lowerer::carriable`], `own`
    /// the loop's own state's locations), until one succeeds or no attempt finds another: the
    /// last attempt's result. What a failed attempt lowered is dropped.
    pub(super) fn carrying<T>(
        &mut self,
        own: &[Loc],
        mut attempt: impl FnMut(&mut Lowerer, Vec<(Loc, Arr)>) -> R<T>,
    ) -> R<T> {
        let saved = self.checkpoint();
        let mut carry: Vec<(Loc, Arr)> = Vec::new();
        loop {
            let wanted = self.wanted.len();
            let locs = carry.iter().map(|c| c.0).collect();
            let outer = std::mem::replace(&mut self.carry, locs);
            let r = attempt(self, carry.clone());
            self.carry = outer;
            if !matches!(
                r,
                Err(LowerTailError::Unsupported(_) | LowerTailError::Fails(_))
            ) {
                return r;
            }
            self.restore(saved.clone());
            let more = self.carriable(own, wanted)?;
            if more.is_empty() || more.iter().any(|m| carry.iter().any(|c| c.0 == m.0)) {
                return r;
            }
            carry.extend(more);
        }
    }

    /// The locations (with their arrays now) that `idxassign`s in a `power`'s step wanted to
    /// update since `wanted` (in [`Lowerer::wanted`]), made before the step, that its loop's
    /// state can carry: not its own state's, and each the one location an update of it
    /// reaches (an alias an `if` made is refused). In a loop's step, one made before that
    /// step too is refused, and logged for that loop's `power` to carry.
    fn carriable(&mut self, own: &[Loc], wanted: usize) -> R<Vec<(Loc, Arr)>> {
        let mut carry: Vec<(Loc, Arr)> = Vec::new();
        for (loc, a) in self.wanted.split_off(wanted) {
            if carry.iter().any(|c| c.0 == loc) {
                continue;
            }
            if own.contains(&loc) || !self.store.aliases(loc).is_empty() {
                return Ok(Vec::new());
            }
            if !self.store.outside(loc, self.in_loop).is_empty() {
                self.wanted.push((loc, a));
                return unsupported("idxassign inside a loop's step of an array made before it");
            }
            let now = self.store.current(&Val::Arr(a)).arr()?.clone();
            carry.push((loc, now));
        }
        Ok(carry)
    }

    /// After a loop whose state carried the arrays at the locations `carry` ([`Lowerer::carry`],
    /// module `location`): those locations hold the last state's, `last`.
    pub(super) fn carried_back(&mut self, carry: &[(Loc, Arr)], last: Vec<Arr>) -> R<()> {
        if self.fresh.planted(LoweringFault::CarriedDropped) {
            return Ok(());
        }
        for ((loc, _), now) in carry.iter().zip(last) {
            self.replace_at(*loc, now)?;
        }
        Ok(())
    }

    /// `power(f, n, x)` of a known count of two or more whose state is at a variable's
    /// location, where the loop cannot follow it (a step that updates its state in place and
    /// returns a new array: the first trip updates the variable's array, the later ones
    /// their own new ones, module `location`): the first trip here, then the rest as one
    /// loop over its new arrays. `None` where that does not apply or the rest is no loop.
    pub(super) fn first_trip_peeled(
        &mut self,
        f: &Val,
        n: &Trips,
        x: &Val,
        why: &str,
    ) -> R<Option<Val>> {
        if components(x)?.iter().all(|a| a.loc == NEW) {
            return Ok(None);
        }
        let Some(k) = n.known else {
            return self.first_trip_peeled_on_device(f, n, x, why);
        };
        if k < 2 {
            return Ok(None);
        }
        let saved = self.checkpoint();
        let first = match self.apply_fun(f, vec![x.clone()]) {
            Ok(first) if components(&first)?.iter().all(|a| a.loc == NEW) => first,
            _ => {
                self.restore(saved);
                return Ok(None);
            }
        };
        let rest = Trips::known(k - 1);
        match self.power_loop_or_unrolled(f, &rest, &first, why.to_string()) {
            Err(LowerTailError::Unsupported(_)) => {
                self.restore(saved);
                Ok(None)
            }
            r => r.map(Some),
        }
    }

    /// [`Lowerer::first_trip_peeled`] for a count `n` the device computes: `if n ≥ 1` (an `if`
    /// the device decides, its branches loops of 0 or 1 trip, module `branch`), the first
    /// trip then `n − 1` as one loop, else `x` as it is (rule 3.60). The first trip's update
    /// of the variable's array is made in a branch, whose state carries that array.
    fn first_trip_peeled_on_device(
        &mut self,
        f: &Val,
        n: &Trips,
        x: &Val,
        why: &str,
    ) -> R<Option<Val>> {
        let runs = Arr::scalar(Ty::Bool, fcl!("(lti 0 {})", n.expr));
        let rest = Trips {
            expr: fcl!("({} - 1)", n.expr),
            known: None,
            most: n.most.map(|m| m.saturating_sub(1)),
        };
        let peeled = |lw: &mut Lowerer| {
            let first = lw.apply_fun(f, vec![x.clone()])?;
            if components(&first)?.iter().any(|a| a.loc != NEW) {
                return unsupported(why);
            }
            lw.power_loop_or_unrolled(f, &rest, &first, why.to_string())
        };
        self.branch_loops(&runs, peeled, |_| Ok(x.clone()))
    }
}
