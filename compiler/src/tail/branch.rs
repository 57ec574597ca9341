//! `if c then a else b` (3.79) with array branches and a condition the device computes: where
//! both branches are pure arrays (no statements, prints, draws from `roll` or reads back, no
//! check that could fail, so computing the branch the oracle skips changes nothing), the result selects
//! element by element, `if c then a_i else b_i`. Vectors may differ in length: the result is
//! a vector of run-time length (`if c then |a| else |b|`, module `dynamic`) whose capacity is
//! the larger of the two; arrays of one rank and other extents give an array of run-time
//! extents (`Arr::run_dims`), each `if c then a's else b's`.
//!
//! Branches that run statements (prints, materializations, checks that could fail) are each
//! the step of an FCL loop that runs once or not at all: `power<grid> t` with `t = if c then 1
//! else 0` for the first and `1 - t` for the second, both writing one state buffer (module
//! `state`), so only the branch the condition picks runs its statements, when the program runs
//! (`branch_loops`; `condScl` of a function with statements too; where a branch draws from
//! `roll` a number of times the device computes, the state counts its draws, as a loop's
//! does). What neither covers (results of other types or ranks) reads the condition back
//! (module `probe`).

use super::capacity::UNBOUNDED;
use super::check::{failing, has_checks};
use super::extents::{by_coords, extents_of};
use super::lowerer::Lowerer;
use super::roll::ScopeDraws;
use super::state::{components, rebuild, Layout};
use super::step::Step;
use super::tree::{fcl, fcl_stmt, int, var, Fcl};
use super::value::Env;
use super::value::{unsupported, Arr, Loc, Ty, Val, NEW, R};
use super::{LowerTailError, RunFailure};
use semantics::tail::syntax::Expr;
use std::rc::Rc;

impl Lowerer {
    /// The `if` of condition `cond` (computed on the device) and branch expressions `a`, `b`
    /// as a selection, or `None` (with nothing of the branches' lowering kept) where it is
    /// not one.
    pub(super) fn select_on_device(
        &mut self,
        cond: &Arr,
        a: &Expr,
        b: &Expr,
        env: &Env,
    ) -> R<Option<Val>> {
        if self.kernel {
            return Ok(None);
        }
        let saved = self.checkpoint();
        let branches = self.eval(a, env).and_then(|x| Ok((x, self.eval(b, env)?)));
        let selected = match (branches, self.added_nothing_since(&saved)) {
            (Ok((Val::Arr(x), Val::Arr(y))), true) => select(cond, &x, &y).map(|s| {
                let (x, y) = (Val::Arr(x), Val::Arr(y));
                self.store
                    .either(&self.fresh, &cond.expr(), Val::Arr(s), &x, &y)
            }),
            _ => None,
        };
        if selected.is_none() {
            self.restore(saved);
        }
        Ok(selected)
    }

    /// `if cond then run_a else run_b` with `cond` computed on the device, where the branches
    /// run statements: two loops of at most one trip over one state buffer (module doc), or
    /// `None` (with nothing of the branches' lowering kept) where the branches do not fit one.
    pub(super) fn branch_loops(
        &mut self,
        cond: &Arr,
        run_a: impl Fn(&mut Lowerer) -> R<Val>,
        run_b: impl Fn(&mut Lowerer) -> R<Val>,
    ) -> R<Option<Val>> {
        if self.kernel {
            return Ok(None);
        }
        // (branches that update arrays made before the `if`: the state carries them)
        let looped = self.carrying(&[], |lw, carry| {
            lw.branches_as_loops(cond, &run_a, &run_b, &carry)
        });
        match looped {
            Ok(v) => Ok(Some(v)),
            // (a branch that certainly fails may be the one the program skips)
            Err(LowerTailError::Unsupported(_) | LowerTailError::Fails(_)) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// [`Lowerer::branch_loops`]'s loops, their state also carrying the arrays at the
    /// locations `carry` (made before the `if`, which a branch updates: [`Lowerer::carry`]):
    /// each branch starts from them as they are, and gives them as it leaves them.
    fn branches_as_loops(
        &mut self,
        cond: &Arr,
        run_a: &impl Fn(&mut Lowerer) -> R<Val>,
        run_b: &impl Fn(&mut Lowerer) -> R<Val>,
        carry: &[(Loc, Arr)],
    ) -> R<Val> {
        let taken = self.fresh.name("taken");
        let t = self.host_count(fcl!("(if {} then 1 else 0)", cond.expr()));
        self.stmt(fcl_stmt!("{taken} <- return<grid> {t}"));
        // each branch draws from `roll` after the draws before the `if`; after it, the sites'
        // counts move on by the taken branch's draws. Where the device computes how many a
        // branch makes (in the branch's own names), the branches' state counts them (as a
        // loop's does, `Counters`), and the last state's counters are the `if`'s draws.
        let branch = |lw: &mut Lowerer, run: &dyn Fn(&mut Lowerer) -> R<Val>| {
            for (loc, a) in carry {
                lw.store.update(*loc, a.clone());
            }
            let lowered = lw.in_draw_scope(Vec::new(), |lw| lw.in_loop_body(run));
            let left: Vec<Arr> = carry
                .iter()
                .map(|c| lw.store.at(c.0).cloned())
                .collect::<Option<_>>()
                .expect("a carried location");
            (lowered, left)
        };
        // (locations from here on are made in a branch)
        let floor = self.fresh.loc();
        let ((((ra, body_a, prints_a), a), left_a), (((rb, body_b, prints_b), b), left_b)) =
            (branch(self, run_a), branch(self, run_b));
        // an array a branch made is a new one after the `if`: its location's array there
        // names the branch's own buffers
        let (ra, rb) = (
            ra.map(|v| made_since(v, floor)),
            rb.map(|v| made_since(v, floor)),
        );
        let mut sites: Vec<u32> = a.run.keys().chain(b.run.keys()).copied().collect();
        sites.sort_unstable();
        sites.dedup();
        let counts = |scope: &ScopeDraws| -> Vec<Arr> {
            let count = |&site: &u32| Arr::scalar(Ty::Int, scope.of(site));
            sites.iter().map(count).collect()
        };
        let (counts_a, counts_b) = (counts(&a), counts(&b));
        let (mut drawn_a, mut drawn_b) = (a.drawn, b.drawn);
        drawn_a.retain(|site, _| !sites.contains(site));
        drawn_b.retain(|site, _| !sites.contains(site));
        self.count_branch_draws(&taken, &drawn_a, &drawn_b)?;
        // a branch that certainly fails when it runs: the other's form, its elements failing
        let (ra, rb) = match (ra, rb) {
            (Err(LowerTailError::Fails(f)), Ok(rb)) => (self.failing_like(f, &rb)?, rb),
            (Ok(ra), Err(LowerTailError::Fails(f))) => {
                let rb = self.failing_like(f, &ra)?;
                (ra, rb)
            }
            (ra, rb) => (ra?, rb?),
        };
        let (mut pa, mut pb) = (components(&ra)?, components(&rb)?);
        let same_form = matches!(
            (&ra, &rb),
            (Val::Tuple(_), Val::Tuple(_)) | (Val::Arr(_), Val::Arr(_))
        );
        if !same_form || pa.len() != pb.len() {
            return unsupported("an if whose branches are of other forms");
        }
        pa.extend(left_a);
        pb.extend(left_b);
        pa.extend(counts_a);
        pb.extend(counts_b);
        // each component: one static shape, or two vectors at the larger capacity with the
        // length in the state
        let mut caps = Vec::new();
        let mut dynamic = Vec::new();
        let mut fills = Vec::new();
        let own = pa.len() - carry.len() - sites.len();
        for (c, (x, y)) in pa.iter().zip(&pb).enumerate() {
            // a carried array: its shape and extents as before the `if` (an update keeps
            // them), which is also the first state's
            if let Some((_, before)) = c.checked_sub(own).and_then(|k| carry.get(k)) {
                caps.push(None);
                dynamic.push(before.is_dynamic());
                fills.push(before.clone());
                continue;
            }
            let vectors = x.shape.len() == 1 && y.shape.len() == 1;
            let same = x.shape == y.shape && !x.is_dynamic() && !y.is_dynamic();
            let tables = x.shape.len() >= 2 && x.shape.len() == y.shape.len();
            if x.ty != y.ty || !(same || vectors || tables) {
                return unsupported("an if whose branches are arrays of other types or ranks");
            }
            let ty = x.ty;
            if same {
                caps.push(None);
                dynamic.push(false);
                fills.push(Arr::new(ty, x.shape.clone(), move |_: &Fcl| ty.fill()));
            } else if tables {
                // arrays of one rank and other extents (static or computed): an array of
                // unbounded extents, its extents in the state (module `capacity`), no
                // elements first
                let mut most: Vec<usize> = x
                    .shape
                    .iter()
                    .zip(&y.shape)
                    .map(|(a, b)| *a.max(b))
                    .collect();
                most[0] = UNBOUNDED;
                let none = vec![int(0); most.len()];
                caps.push(None);
                dynamic.push(true);
                fills.push(by_coords(&self.fresh, ty, most, none, int(0), move |_| {
                    ty.fill()
                }));
            } else if x.is_unbounded() || y.is_unbounded() || ty == Ty::Complex {
                // (at its run-time length, module `capacity`: an empty unbounded vector first;
                // complex vectors too, which a capacity does not hold)
                caps.push(None);
                dynamic.push(true);
                let fill = Rc::new(move |_: &Fcl| ty.fill());
                fills.push(Arr::dynamic(ty, UNBOUNDED, Rc::new(int(0)), fill));
            } else {
                caps.push(Some(x.size().max(y.size())));
                dynamic.push(true);
                fills.push(Arr::new(ty, vec![0], move |_: &Fcl| ty.fill()));
            }
        }
        let layout = Layout::new(&fills, dynamic, &caps)?;
        let branches = [
            (
                fcl!("{taken}"),
                pa,
                body_a,
                prints_a,
                "the first branch, run when the condition holds",
            ),
            (
                fcl!("(1 - {taken})"),
                pb,
                body_b,
                prints_b,
                "the second branch, run when it does not",
            ),
        ];
        let mut state = fills;
        for (trips, next, body, prints, what) in branches {
            let (it, s) = (self.fresh.name("it"), self.fresh.name("s"));
            self.comment(format!("if: {what} (a loop of 0 or 1 trip)"));
            let step = Step {
                next,
                body,
                prints,
                ..Default::default()
            };
            let w = self.emit_loop(&trips, &it, &s, &layout, &state, step);
            state = layout.read(self, &w);
        }
        let counters = state.split_off(state.len() - sites.len());
        self.count_state_draws(&sites, counters);
        // the carried arrays' locations hold the branch's that ran
        let last = state.split_off(state.len() - carry.len());
        self.carried_back(carry, last)?;
        let result = rebuild(&ra, &state)?;
        let when = fcl!("({taken} == 1)");
        Ok(self.store.either(&self.fresh, &when, result, &ra, &rb))
    }

    /// A value of `like`'s form and static shapes whose every element fails with `f`.
    pub(super) fn failing_like(&self, f: RunFailure, like: &Val) -> R<Val> {
        let parts = components(like)?
            .iter()
            .map(|a| {
                let bad = failing(&self.fresh, f.clone(), &a.ty.fill());
                Arr::new(a.ty, a.shape.clone(), move |_: &Fcl| bad.clone())
            })
            .collect::<Vec<_>>();
        rebuild(like, &parts)
    }
}

/// `if c then x else y` element by element, where both are of one type and shape, or both
/// vectors, and neither checks anything.
fn select(cond: &Arr, x: &Arr, y: &Arr) -> Option<Arr> {
    let pure = |a: &Arr| a.size() == 0 || !has_checks(&(a.index)(&var("i")));
    if x.ty != y.ty || !pure(x) || !pure(y) {
        return None;
    }
    let c = cond.expr();
    let (xi, yi) = (x.index.clone(), y.index.clone());
    let pick = {
        let c = c.clone();
        move |i: &Fcl| fcl!("(if {c} then {} else {})", xi(i), yi(i))
    };
    let range = x.range.zip(y.range).map(|(r, s)| r.union(s));
    let mut out = if x.shape == y.shape && !x.is_dynamic() && !y.is_dynamic() {
        Arr::new(x.ty, x.shape.clone(), pick)
    } else if x.shape.len() == 1 && y.shape.len() == 1 {
        let len = super::value::length_expr;
        let l = fcl!("(if {c} then {} else {})", len(x), len(y));
        let cap = x.shape[0].max(y.shape[0]);
        if cap == 0 {
            // (no element is ever read)
            let ty = x.ty;
            return Some(Arr::new(ty, vec![0], move |_: &Fcl| ty.fill()));
        }
        let mut out = Arr::dynamic(x.ty, cap, Rc::new(l), Rc::new(pick));
        // the fill stands past the length
        out.range = range;
        out.range = out.range_with_fill();
        return Some(out);
    } else if x.shape.len() == y.shape.len() {
        // arrays of one rank and other extents: each extent chosen, the capacity the larger
        let size = |a: &Arr| -> Fcl {
            a.run_len
                .as_deref()
                .map_or_else(|| fcl!("{}", a.size()), Fcl::clone)
        };
        let dims: Vec<Rc<Fcl>> = extents_of(x)
            .iter()
            .zip(extents_of(y))
            .map(|(d, e)| Rc::new(fcl!("(if {c} then {d} else {e})")))
            .collect();
        let shape: Vec<usize> = x
            .shape
            .iter()
            .zip(&y.shape)
            .map(|(m, n)| *m.max(n))
            .collect();
        let cap: usize = shape.iter().product();
        if cap == 0 {
            return None;
        }
        let l = fcl!("(if {c} then {} else {})", size(x), size(y));
        let mut out = Arr::dynamic(x.ty, cap, Rc::new(l), Rc::new(pick));
        out.shape = shape;
        out.run_dims = Some(dims.into());
        out.range = range;
        out.range = out.range_with_fill();
        return Some(out);
    } else {
        return None;
    };
    out.range = range;
    Some(out)
}

/// `v` with each array at a location made after `floor` at none ([`NEW`]).
fn made_since(v: Val, floor: Loc) -> Val {
    match v {
        Val::Arr(a) if a.loc > floor => Val::Arr(Arr { loc: NEW, ..a }),
        Val::Tuple(vs) => Val::Tuple(vs.into_iter().map(|v| made_since(v, floor)).collect()),
        v => v,
    }
}

#[cfg(test)]
mod tests {
    use super::super::value::Ty;
    use super::*;

    use crate::tail::tree::parsed as p;

    fn vector(n: usize, buf: &'static str) -> Arr {
        let buf = super::super::tree::Name::new(buf);
        Arr::new(Ty::Int, vec![n], move |i: &Fcl| fcl!("(index {buf} {i})"))
    }

    #[test]
    fn branches_select_element_by_element() {
        let c = Arr::scalar(Ty::Bool, p("c"));
        let same = select(&c, &vector(3, "a"), &vector(3, "b")).expect("a selection");
        assert_eq!(same.shape, vec![3]);
        assert!(!same.is_dynamic());
        assert_eq!(
            (same.index)(&p("i")),
            p("(if c then (index a i) else (index b i))")
        );
        // vectors of other lengths: a run-time length, the capacity the larger
        let other = select(&c, &vector(2, "a"), &vector(3, "b")).expect("a selection");
        assert_eq!(other.shape, vec![3]);
        assert_eq!(other.run_len.as_deref(), Some(&p("(if c then 2 else 3)")));
        assert_eq!(
            (other.index)(&p("i")),
            p(
                "(if lti i (if c then 2 else 3) then (if c then (index a i) else (index b i)) \
               else 0)"
            )
        );
    }

    #[test]
    fn matrices_of_other_extents_select_each_extent() {
        let c = Arr::scalar(Ty::Bool, p("c"));
        let m = |rows: usize, cols: usize, buf| {
            let mut a = vector(rows * cols, buf);
            a.shape = vec![rows, cols];
            a
        };
        let out = select(&c, &m(2, 3, "a"), &m(4, 1, "b")).expect("a selection");
        assert_eq!(out.shape, vec![4, 3]);
        assert_eq!(out.run_len.as_deref(), Some(&p("(if c then 6 else 4)")));
        let dims: Vec<Fcl> = out
            .run_dims
            .as_deref()
            .expect("run-time extents")
            .iter()
            .map(|d| d.as_ref().clone())
            .collect();
        assert_eq!(
            dims,
            vec![p("(if c then 2 else 4)"), p("(if c then 3 else 1)")]
        );
    }
}
