//! The store of locations (thesis §3.1.5, spec §4.5 "aliasing") as far as the lowering follows
//! it: which arrays are one location, so that `idxassign` through one name is seen through all.
//!
//! Every array a variable holds is at a location ([`Arr::loc`]). `let y = x`, a function's
//! parameter bound to `x`, `mem(x)` and the prints (the oracle's operators that return their
//! argument), a tuple holding `x`, a `power` whose step returns its parameter (or that runs no
//! trip), an `if` that picks `x` and `condScl(f, ff, x)` are `x`'s location; every other
//! operator's result is a new one. [`Store`] maps each location `idxassign` has updated to its array now, and every
//! read of a variable goes through it ([`Store::current`]), so a variable bound before an
//! update, a closure or an alias reads the updated array, and a variable that shadows an
//! updated one does not.
//!
//! An `if` whose condition the device decides, between two locations, gives a location that
//! is one or the other when the program runs; a `power` of computed count whose step returns a
//! new array, one that is its initial array's where the loop runs no trip. Each location is
//! therefore a choice among *bases* (the locations variables were first given), each under a
//! condition the device decides ([`Store::bases`]). An update of one location updates every
//! other that shares a base with it, element `is` replaced only where the conditions under
//! which they share it hold ([`Store::aliases`]).
//!
//! A `power` whose step updates its state in place and returns it leaves its result at the
//! initial array's location, and at every location that may be it (`Lowerer::replace_at`).
//!
//! What it does not follow it refuses rather than guesses (the lowering then takes another
//! path: a `power` runs trip by trip): inside a loop's step (`in_loop`), an update of a
//! location made before the step ([`Store::floor`]), which would have to change on every trip
//! outside the loop's state; a step that updates its state and returns a new array, from a
//! variable's array ([`Kept::New`]); an update that reaches a location of run-time extents,
//! or of another shape, through a choice.

use super::fault::LoweringFault;
use super::tree::{fcl, Fcl};
use super::value::{unsupported, Arr, Fresh, Loc, Val, NEW, R};
use std::rc::Rc;

/// A condition the device decides, as an FCL bool expression; `None` is always.
pub(super) type When = Option<Fcl>;

/// The store as the lowering tracks it (module doc).
#[derive(Clone, Default)]
pub(super) struct Store {
    /// The array now at each location `idxassign` has updated, or that a choice (below) may
    /// be: the arrays a guarded update starts from.
    cells: im::HashMap<Loc, Arr>,
    /// The locations that are a choice: the bases each may be, each under its condition. A
    /// location absent here is its own one base, always.
    bases: im::HashMap<Loc, Rc<[(Loc, Fcl)]>>,
    /// Inside a loop's step, the first location made in it: `idxassign` updates only
    /// locations from here on (module doc), and those before that the loop's state carries.
    pub floor: Loc,
    /// Inside a loop's step, the locations made before it that the loop's state carries
    /// (`Lowerer::carry`): the step updates their arrays as its own.
    pub carried: im::HashSet<Loc>,
}

/// What a loop's step gives for one component of its state (spec §4.5: a `power` whose step
/// returns its parameter returns its initial array's location).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Kept {
    /// The component's own location; `updated`: updated in place by the step.
    Same { updated: bool },
    /// A new array; `updated`: the step updated the component's location first (the first
    /// trip then updates the initial array).
    New { updated: bool },
}

impl Store {
    /// `v` as it is now: each array at a location `idxassign` has updated is the updated one.
    pub(super) fn current(&self, v: &Val) -> Val {
        match v {
            Val::Arr(a) => match self.cells.get(&a.loc) {
                Some(now) => Val::Arr(now.clone()),
                None => v.clone(),
            },
            Val::Tuple(vs) => Val::Tuple(vs.iter().map(|v| self.current(v)).collect()),
            Val::Fun(_) => v.clone(),
        }
    }

    /// `env` as it is now (a closure's, where it is made): each variable's array as
    /// [`Store::current`] reads it.
    pub(super) fn current_env(&self, env: &super::value::Env) -> super::value::Env {
        if self.cells.is_empty() {
            return env.clone();
        }
        let mut now = env.clone();
        for (x, v) in env {
            if matches!(v, Val::Arr(a) if self.cells.contains_key(&a.loc))
                || matches!(v, Val::Tuple(_))
            {
                now.insert(x.clone(), self.current(v));
            }
        }
        now
    }

    /// `v` bound to a variable: each of its arrays that is at no location yet gets one.
    pub(super) fn bind(fresh: &Fresh, v: Val) -> Val {
        let own = fresh.planted(LoweringFault::AliasByName);
        match v {
            Val::Arr(a) if a.loc == NEW || own => Val::Arr(Arr {
                loc: fresh.loc(),
                ..a
            }),
            Val::Tuple(vs) => Val::Tuple(vs.into_iter().map(|v| Self::bind(fresh, v)).collect()),
            v => v,
        }
    }

    /// The other locations an `idxassign` of the array at location `loc` updates
    /// ([`Store::aliases`]), where the lowering follows it (module doc); `in_loop`: inside a
    /// loop's step.
    pub(super) fn updated_with(&self, loc: Loc, in_loop: bool) -> R<Vec<(Loc, When, Arr)>> {
        if loc == NEW {
            return unsupported("idxassign of an array at no location");
        }
        if !self.outside(loc, in_loop).is_empty() {
            return unsupported("idxassign inside a loop's step of an array made before it");
        }
        Ok(self.aliases(loc))
    }

    /// The locations an `idxassign` of the array at `loc` updates (it and its aliases) that
    /// were made before the loop step being lowered (`in_loop`) and that its state does not
    /// carry: none where the lowering follows the update.
    pub(super) fn outside(&self, loc: Loc, in_loop: bool) -> Vec<Loc> {
        let outside = |l: &Loc| in_loop && *l < self.floor && !self.carried.contains(l);
        let aliases = self.aliases(loc).into_iter().map(|(l, _, _)| l);
        std::iter::once(loc)
            .chain(aliases)
            .filter(outside)
            .collect()
    }

    /// The array at location `loc` where `idxassign` has updated it (or a choice may be it).
    pub(super) fn at(&self, loc: Loc) -> Option<&Arr> {
        self.cells.get(&loc)
    }

    /// The array at location `loc`, materialized as `now` (its elements the same): where the
    /// store holds the location, reads take the materialized one.
    pub(super) fn materialized(&mut self, loc: Loc, now: &Arr) {
        if let Some(cell) = self.cells.get_mut(&loc) {
            *cell = Arr { loc, ..now.clone() };
        }
    }

    /// (3.57) `idxassign`'s new array `now` at location `loc` ([`Store::updated_with`]).
    pub(super) fn update(&mut self, loc: Loc, now: Arr) {
        self.cells.insert(loc, Arr { loc, ..now });
    }

    /// The other locations that may be `loc` when the program runs, each with its array now
    /// and the condition under which it is `loc` (`None`: always).
    pub(super) fn aliases(&self, loc: Loc) -> Vec<(Loc, When, Arr)> {
        let mine = self.bases_of(loc);
        let mut out = Vec::new();
        let others = self
            .bases
            .keys()
            .copied()
            .chain(mine.iter().map(|(b, _)| *b));
        let mut seen = std::collections::HashSet::from([loc]);
        for other in others {
            if !seen.insert(other) {
                continue;
            }
            // the conditions under which both are one base, for each base they share
            let theirs = self.bases_of(other);
            let mut when: Option<When> = None;
            for (b, g) in &mine {
                for (c, h) in &theirs {
                    if b == c {
                        let both = and(g, h);
                        when = Some(match when {
                            None => both,
                            Some(w) => or(&w, &both),
                        });
                    }
                }
            }
            if let (Some(when), Some(now)) = (when, self.cells.get(&other)) {
                out.push((other, when, now.clone()));
            }
        }
        out
    }

    /// The bases location `loc` may be, each under its condition.
    fn bases_of(&self, loc: Loc) -> Vec<(Loc, When)> {
        match self.bases.get(&loc) {
            Some(bs) => bs.iter().map(|(b, g)| (*b, Some(g.clone()))).collect(),
            None => vec![(loc, None)],
        }
    }

    /// `result`, which is `a` where `cond` (decided on the device) holds and `b` where it
    /// does not: a component is at their location where both give the same, and else at a
    /// location that is a choice of theirs (a new array's own where one is new).
    pub(super) fn either(
        &mut self,
        fresh: &Fresh,
        cond: &Fcl,
        result: Val,
        a: &Val,
        b: &Val,
    ) -> Val {
        match (result, a, b) {
            (Val::Arr(r), Val::Arr(x), Val::Arr(y)) if x.loc == y.loc => {
                Val::Arr(Arr { loc: x.loc, ..r })
            }
            (Val::Arr(r), Val::Arr(x), Val::Arr(y)) => {
                let loc = fresh.loc();
                let not = fcl!("(if {cond} then false else true)");
                let mut bases = Vec::new();
                for (part, when) in [(x, cond), (y, &not)] {
                    match part.loc {
                        NEW => bases.push((loc, when.clone())),
                        l => {
                            self.cells.entry(l).or_insert_with(|| part.clone());
                            let bs = self.bases_of(l);
                            let guarded = bs.into_iter().map(|(b, g)| {
                                (b, and(&Some(when.clone()), &g).unwrap_or(fcl!("true")))
                            });
                            bases.extend(guarded);
                        }
                    }
                }
                let r = Arr { loc, ..r };
                self.cells.insert(loc, r.clone());
                self.bases.insert(loc, bases.into());
                Val::Arr(r)
            }
            (Val::Tuple(rs), Val::Tuple(xs), Val::Tuple(ys)) if rs.len() == xs.len() => {
                let parts = rs.into_iter().zip(xs.iter().zip(ys));
                let parts = parts.map(|(r, (x, y))| self.either(fresh, cond, r, x, y));
                Val::Tuple(parts.collect())
            }
            (r, _, _) => r,
        }
    }

    /// The choices made inside a loop's step, dropped after it: their conditions are the
    /// step's own names.
    pub(super) fn choices(&self) -> im::HashMap<Loc, Rc<[(Loc, Fcl)]>> {
        self.bases.clone()
    }

    /// Back to the choices before a loop's step ([`Store::choices`]).
    pub(super) fn restore_choices(&mut self, bases: im::HashMap<Loc, Rc<[(Loc, Fcl)]>>) {
        self.bases = bases;
    }

    /// What a loop's step did with the locations of its parameter `param` (as bound, each
    /// component at a location of the step), giving `result`: per component, or a refusal
    /// where the loop cannot follow it (a component from outside the step, another
    /// component's location, or one an `if` chose).
    pub(super) fn kept(&self, param: &Val, result: &Val) -> R<Vec<Kept>> {
        let params = locs(param);
        let results = locs(result);
        if params.len() != results.len() {
            return unsupported("a power step whose state changes form");
        }
        // (the step's own arrays are at locations made after its parameter's)
        let last = params.iter().copied().max().unwrap_or(NEW);
        params
            .iter()
            .zip(&results)
            .map(|(&p, &r)| match r {
                r if r == p => Ok(Kept::Same {
                    updated: self.cells.contains_key(&p),
                }),
                r if r == NEW || (r > last && !self.bases.contains_key(&r)) => Ok(Kept::New {
                    updated: self.cells.contains_key(&p),
                }),
                _ => unsupported(
                    "a power step that returns an array from outside it, or its state's \
                     components in another order",
                ),
            })
            .collect()
    }

    /// `power`'s `result` (of components each step keeps as `kept`) from the initial state
    /// `init`, where the loop runs no trip when `skips` holds (`None`: it runs one at least):
    /// a component the step returns in place is the initial array's location (where the step
    /// updates it, the caller puts the result there: the pairs returned); a new one is new,
    /// or a choice of the two where the loop may run no trip.
    pub(super) fn after_loop(
        &mut self,
        fresh: &Fresh,
        init: &Val,
        kept: &[Kept],
        skips: Option<&Fcl>,
        result: Val,
    ) -> R<(Val, Vec<(Loc, Arr)>)> {
        let mut after = AfterLoop {
            fresh,
            kept: kept.iter(),
            skips,
            updated: Vec::new(),
        };
        let v = after.parts(self, init, result)?;
        Ok((v, after.updated))
    }
}

/// [`Store::after_loop`] going through the state's components in order.
struct AfterLoop<'a> {
    fresh: &'a Fresh,
    kept: std::slice::Iter<'a, Kept>,
    skips: Option<&'a Fcl>,
    updated: Vec<(Loc, Arr)>,
}

impl AfterLoop<'_> {
    fn parts(&mut self, store: &mut Store, init: &Val, result: Val) -> R<Val> {
        match (init, result) {
            (Val::Arr(x), Val::Arr(r)) => {
                let how = self
                    .kept
                    .next()
                    .copied()
                    .unwrap_or(Kept::New { updated: false });
                Ok(match how {
                    Kept::Same { updated: true } if x.loc != NEW => {
                        self.updated.push((x.loc, r.clone()));
                        Val::Arr(Arr { loc: x.loc, ..r })
                    }
                    Kept::Same { .. } => Val::Arr(Arr { loc: x.loc, ..r }),
                    Kept::New { .. } if x.loc == NEW => Val::Arr(Arr { loc: NEW, ..r }),
                    Kept::New { updated: true } => {
                        return unsupported(
                            "a power step that updates its state in place and returns a new \
                             array, from a variable's array",
                        )
                    }
                    Kept::New { .. } => match self.skips {
                        None => Val::Arr(Arr { loc: NEW, ..r }),
                        Some(skips) => {
                            let (x, r) = (Val::Arr(x.clone()), Val::Arr(Arr { loc: NEW, ..r }));
                            store.either(self.fresh, skips, r.clone(), &x, &r)
                        }
                    },
                })
            }
            (Val::Tuple(xs), Val::Tuple(rs)) if xs.len() == rs.len() => {
                let mut parts = Vec::new();
                for (x, r) in xs.iter().zip(rs) {
                    parts.push(self.parts(store, x, r)?);
                }
                Ok(Val::Tuple(parts))
            }
            (_, r) => Ok(r),
        }
    }
}

/// Both conditions.
fn and(a: &When, b: &When) -> When {
    match (a, b) {
        (None, w) | (w, None) => w.clone(),
        (Some(a), Some(b)) => Some(fcl!("(if {a} then {b} else false)")),
    }
}

/// Either condition.
fn or(a: &When, b: &When) -> When {
    match (a, b) {
        (None, _) | (_, None) => None,
        (Some(a), Some(b)) => Some(fcl!("(if {a} then true else {b})")),
    }
}

/// The locations of `v`'s arrays, in order.
fn locs(v: &Val) -> Vec<Loc> {
    match v {
        Val::Arr(a) => vec![a.loc],
        Val::Tuple(vs) => vs.iter().flat_map(locs).collect(),
        Val::Fun(_) => Vec::new(),
    }
}
