//! The higher-order operators of spec §5.9 other than the reductions (`each`, `zipWith`,
//! `power`, `powerScl`, `bench`, `condScl`) and the mutation operator `idxassign` (§5.11).
//! Element functions are lowered per element inside the consumer's kernel (fusion); `power`
//! iterates with FCL's grid-level `power` over a materialized array.

use super::apply::{
    apply_at, apply_drawing, apply_in_ranges, is_element_code, known_apply, result_range,
    scalar_result, MAX_FOLD,
};
use super::check::{checked_row, checked_update_index, of_same_length};
use super::location::When;
use super::loops::Trips;
use super::lowerer::{fails, Lowerer};
use super::range::Range;
use super::tree::{fcl, int, var, Fcl};
use super::value::{
    index_by_coords, known_int, known_ints, unsupported, Arr, At, Fresh, Fun, Loc, Ty, Val, NEW, R,
};
use super::LowerTailError;
use semantics::tail::ops::prim::Prim;
use semantics::tail::ops::select::update_position;
use semantics::tail::syntax::{Expr, ExprKind};
use semantics::tail::value::{Array, Elems, Scalar};
use std::rc::Rc;

impl Lowerer {
    /// `each`, `zipWith`, `power`, `powerScl`, `bench`, `condScl`.
    pub(super) fn higher_order(&mut self, p: Prim, name: &str, e: &Expr, args: Vec<Val>) -> R<Val> {
        let f = args[0].clone();
        let fresh = self.fresh.clone();
        match p {
            // (3.36) each: element i is f(a_i)
            Prim::Each => {
                let mut a = args[1].arr()?.clone();
                if a.is_dynamic() && !is_element_code(&fresh, &f, &[a.ty]) {
                    // a function with statements: a trip per element over the run-time
                    // length (module `each_loop`)
                    if let (false, Err(why)) = (self.kernel, scalar_result(&fresh, &f, &[a.ty])) {
                        let saved = self.checkpoint();
                        match self.map_with_statements(&f, &[&a], why) {
                            Err(LowerTailError::Unsupported(_)) => self.restore(saved),
                            r => return r,
                        }
                    }
                    a = self.settle(&a, name)?;
                }
                let like = a.clone();
                let run_len = a.run_len.as_deref();
                let (ty, bases) = match self.element_draws(&f, &[a.ty], a.size(), run_len) {
                    Ok(r) => r,
                    // a function with statements (a print, a sort, a filter) runs element by
                    // element at the top level, in order
                    Err(why) => return self.map_with_statements(&f, &[&a], why),
                };
                let (ta, index, ra) = (a.ty, a.index.clone(), [a.range]);
                let (g, b) = (f.clone(), bases.clone());
                let mut out = Arr::new(ty, a.shape.clone(), move |i: &Fcl| {
                    apply_at(&fresh, &g, &[(ta, index(i))], &ra, &b, i)
                });
                out.range = result_range(&self.fresh, &f, &[ta], &ra);
                if matches!(&f, Val::Fun(g) if matches!(g.as_ref(), Fun::Op(Prim::I2d, _))) {
                    out.int_source = Some(a.index.clone());
                }
                out.known = known_map(&self.fresh, &f, ty, &[&a]);
                // (a function that draws reads its element by the flat index)
                if a.at.is_some() && bases.is_none() {
                    let (fresh, g) = (self.fresh.clone(), f.clone());
                    let at: At = Rc::new(move |cs: &[Fcl]| {
                        apply_in_ranges(&fresh, &g, &[(ta, a.element_at(cs))], &ra)
                    });
                    out.index = index_by_coords(&self.fresh, &out.shape, at.clone());
                    out.at = Some(at);
                }
                Ok(Val::Arr(dynamic_map(out, &like)))
            }
            // (3.68) zipWith: identical shapes, element i is f(a_i)(b_i)
            Prim::ZipWith => {
                let (mut a, mut b) = (args[1].arr()?.clone(), args[2].arr()?.clone());
                let vectors = a.shape.len() == 1 && b.shape.len() == 1;
                let apart = a.run_len != b.run_len || a.shape != b.shape;
                let element = is_element_code(&fresh, &f, &[a.ty, b.ty]);
                if (a.is_dynamic() || b.is_dynamic()) && vectors && apart {
                    // vectors whose lengths may differ: checked to be the same when the
                    // program runs (3.68 where they differ), both within the smaller capacity
                    (a, b) = of_same_length(&fresh, p, e.span, &a, &b);
                }
                let same = a.run_len == b.run_len && a.run_dims == b.run_dims && a.shape == b.shape;
                if (a.is_dynamic() || b.is_dynamic()) && same && !element {
                    // a function with statements: a trip per element over the run-time
                    // length (module `each_loop`)
                    if let (false, Err(why)) =
                        (self.kernel, scalar_result(&fresh, &f, &[a.ty, b.ty]))
                    {
                        let saved = self.checkpoint();
                        match self.map_with_statements(&f, &[&a, &b], why) {
                            Err(LowerTailError::Unsupported(_)) => self.restore(saved),
                            r => return r,
                        }
                    }
                }
                if (a.is_dynamic() || b.is_dynamic()) && (!same || !element) {
                    a = self.settle(&a, name)?;
                    b = self.settle(&b, name)?;
                }
                let like = a.clone();
                if a.shape != b.shape {
                    let reason = format!("zipWith of shapes {:?} and {:?}", a.shape, b.shape);
                    if self.kernel {
                        return unsupported(reason);
                    }
                    return Err(fails(p, name, e, reason));
                }
                let run_len = a.run_len.as_deref();
                let (ty, bases) = match self.element_draws(&f, &[a.ty, b.ty], a.size(), run_len) {
                    Ok(r) => r,
                    Err(why) => return self.map_with_statements(&f, &[&a, &b], why),
                };
                let known = known_map(&fresh, &f, ty, &[&a, &b]);
                let (ta, tb, ia, ib) = (a.ty, b.ty, a.index.clone(), b.index.clone());
                let rs = [a.range, b.range];
                let mut out = Arr::new(ty, a.shape.clone(), {
                    let (fresh, f, bases) = (fresh.clone(), f.clone(), bases.clone());
                    move |i: &Fcl| apply_at(&fresh, &f, &[(ta, ia(i)), (tb, ib(i))], &rs, &bases, i)
                });
                out.known = known;
                out.range = result_range(&fresh, &f, &[ta, tb], &rs);
                if (a.at.is_some() || b.at.is_some()) && bases.is_none() {
                    let shape = a.shape.clone();
                    let at: At = Rc::new({
                        let fresh = fresh.clone();
                        move |cs: &[Fcl]| {
                            let (x, y) = (a.element_at(cs), b.element_at(cs));
                            apply_in_ranges(&fresh, &f, &[(ta, x), (tb, y)], &rs)
                        }
                    });
                    out.index = index_by_coords(&fresh, &shape, at.clone());
                    out.at = Some(at);
                }
                Ok(Val::Arr(dynamic_map(out, &like)))
            }
            // (3.59)/(3.60) power: f applied n times
            Prim::Power | Prim::PowerScl | Prim::Bench => {
                let count = args[1].arr()?;
                if count.known.is_none() && !self.kernel {
                    if let Some(v) = self.power_computed(name, e, &f, count, &args[2])? {
                        return Ok(v);
                    }
                }
                let count =
                    self.probe(args[1].arr()?, "a power count not known at compile time")?;
                let n = known_int(&count, "a power count")?;
                // apltail (and the oracle, rule 3.60) stops on a negative count; inside a
                // function body the count's application may never run
                if n < 0 && self.kernel {
                    return unsupported("power with a negative count inside a function");
                }
                if n < 0 {
                    return Err(LowerTailError::Fails(super::RunFailure {
                        rule: semantics::tail::step::Rule::POWER_DONE.to_string(),
                        reason: format!("{name} with negative count {n}"),
                        span: e.span,
                    }));
                }
                self.power(&f, &Trips::known(n), &args[2])
            }
            // (3.76) condScl: f(x) if b, else x; a conditional in FCL even where b is known
            Prim::CondScl => {
                let (b, x) = (args[1].arr()?.clone(), args[2].arr()?.clone());
                let y = apply_drawing(&fresh, &f, &[(x.ty, x.expr())], &[x.range], None)
                    .map(|y| y.expr());
                let same_type = scalar_result(&fresh, &f, &[x.ty]).map(|t| t == x.ty);
                let known = b.known_scalar();
                let Some(y) = y.filter(|_| matches!(same_type, Ok(true))) else {
                    // f has no scalar lowering inside a kernel (a `power`, a long reduction):
                    // only a known condition can pick its branch here
                    return match known {
                        Some(Scalar::Bool(true)) => self.apply_fun(&f, vec![Val::Arr(x)]),
                        Some(_) => Ok(Val::Arr(x)),
                        None => {
                            // (a function that draws from `roll` has no scalar lowering but
                            // runs at the top level once the condition is read back)
                            if self.kernel {
                                same_type?;
                            }
                            // (f's statements run in a loop of 0 or 1 trip, module `branch`)
                            let (g, y) = (f.clone(), x.clone());
                            let looped = self.branch_loops(
                                &b,
                                |lw| lw.apply_fun(&g, vec![Val::Arr(y.clone())]),
                                |_| Ok(Val::Arr(x.clone())),
                            )?;
                            if let Some(v) = looped {
                                return Ok(v);
                            }
                            let why = "the condition of a condScl whose function has no scalar \
                                       lowering, not known at compile time";
                            match self.probe(&b, why)?.known_scalar() {
                                Some(Scalar::Bool(true)) => self.apply_fun(&f, vec![Val::Arr(x)]),
                                _ => Ok(Val::Arr(x)),
                            }
                        }
                    };
                };
                let t = fcl!("(if {} then {y} else {})", b.expr(), x.expr());
                let mut out = Arr::scalar(x.ty, t);
                out.known = match (known, x.known_scalar()) {
                    (Some(Scalar::Bool(true)), Some(v)) => {
                        known_apply(&fresh, &f, &[v]).map(|r| Rc::new(Array::scalar(r)))
                    }
                    (Some(_), _) => x.known.clone(),
                    (None, _) => None,
                };
                // (3.76) where b is false the result is x itself, at its location; f's result
                // is taken as a new array (module `location`)
                Ok(match known {
                    Some(Scalar::Bool(false)) => Val::Arr(Arr { loc: x.loc, ..out }),
                    Some(_) => Val::Arr(out),
                    None => {
                        let fx = Val::Arr(out.clone());
                        let c = b.expr();
                        self.store
                            .either(&self.fresh, &c, Val::Arr(out), &fx, &Val::Arr(x))
                    }
                })
            }
            _ => unsupported(format!("operator {name}")),
        }
    }

    /// (3.57)/(3.58) `idxassign(is, mv, v)`: the array at `mv`'s location becomes a
    /// materialized copy with element `is` replaced; later reads of every variable at that
    /// location read the copy (module `location`). An `mv` at no location (a new array, not
    /// a variable's) is updated all the same, its checks run, and no one reads it again.
    pub(super) fn idxassign(&mut self, name: &str, e: &Expr, args: Vec<Val>) -> R<Val> {
        let ExprKind::App { args: exprs, .. } = &e.kind else {
            return unsupported("idxassign through a function value");
        };
        let var = match &exprs[1].kind {
            ExprKind::Var(var) => var.to_string(),
            _ => "an array no variable names".to_string(),
        };
        if self.kernel {
            return unsupported("idxassign inside a function");
        }
        let (a, v) = (args[1].arr()?.clone(), args[2].arr()?.clone());
        // (an array made before a loop's step that the loop's state does not carry: the
        // loop tries again carrying it, module `carry`)
        if a.loc != NEW && !self.store.outside(a.loc, self.in_loop).is_empty() {
            self.wanted.push((a.loc, a.clone()));
        }
        let aliases = match a.loc {
            NEW => Vec::new(),
            loc => self.store.updated_with(loc, self.in_loop)?,
        };
        let fail = |reason| Err(fails(Prim::Idxassign, name, e, reason));
        let ix = args[0].arr()?;
        let is = ix.known.as_deref().and_then(known_ints);
        let j = match &is {
            Some(is) => match self.known_position(e, is, &a) {
                Ok(j) => j,
                Err(reason) => return fail(reason),
            },
            None => match computed_position(&self.fresh, e, ix, &a)? {
                Ok(j) => j,
                Err(reason) => return fail(reason),
            },
        };
        let (index, vt) = (a.index.clone(), v.expr());
        let mut updated = Arr::new(a.ty, a.shape.clone(), move |i: &Fcl| {
            fcl!("(if {i} == {j} then {vt} else {})", index(i))
        });
        updated.range = a.range.zip(v.range).map(|(a, v)| a.union(v));
        updated.run_len = a.run_len.clone();
        updated.run_dims = a.run_dims.clone();
        let mut stored = self.materialize(&updated, &format!("{var} after idxassign"));
        // a known array updated by a known element stays known (counts and shapes made
        // from it are folded as before)
        let known_at = is
            .as_deref()
            .and_then(|is| update_position(is, &a.shape).ok());
        if let (Some(known), Some(x), Some(p)) = (&a.known, v.known_scalar(), known_at) {
            let elems = (0..known.size()).map(|k| if k == p { x } else { known.elems.get(k) });
            stored.known = Some(Rc::new(Array {
                shape: known.shape.clone(),
                elems: Elems::from_scalars(known.base_type(), elems.collect()),
            }));
        }
        if a.loc == NEW {
            return Ok(Val::Arr(Arr::known(Array::scalar(Scalar::Bool(true)))));
        }
        self.store.update(a.loc, stored);
        // every other location that may be this one when the program runs (module
        // `location`): the same element replaced where the conditions that make it so hold
        // (none is where the index is past its shape: there the update above fails)
        for (loc, when, was) in aliases {
            let j = match &is {
                // (of a vector of run-time length: within its capacity, where the condition
                // makes it this one, whose update checked the index against the length)
                Some(is) if was.run_dims.is_none() => match update_position(is, &was.shape) {
                    Ok(j) => fcl!("{j}"),
                    Err(_) => continue,
                },
                // the position by `was`'s own extents, static or computed: where the
                // condition makes it this one, the update above checked the index against
                // them (`a`'s then)
                _ => {
                    let cs: Vec<Fcl> = match &is {
                        Some(is) => is.iter().map(|&k| int(k - 1)).collect(),
                        None => coordinates(ix),
                    };
                    super::extents::flat(&cs, &super::extents::extents_of(&was))
                }
            };
            let (index, vt) = (was.index.clone(), v.expr());
            let now = move |i: &Fcl| fcl!("(if {i} == {j} then {vt} else {})", index(i));
            let what = format!("{var}'s alias after idxassign");
            self.store_where(loc, when, &was, now, v.range, &what);
        }
        Ok(Val::Arr(Arr::known(Array::scalar(Scalar::Bool(true)))))
    }
}

impl Lowerer {
    /// (3.57) The flat position `idxassign` writes at in `a` for the known index `is`, checked
    /// against extents the device computes when the program runs; `Err`: the oracle's reason
    /// where it certainly fails (3.58).
    fn known_position(&self, e: &Expr, is: &[i64], a: &Arr) -> Result<Fcl, String> {
        let rows = super::dynamic::rows_dynamic(a);
        let j = match update_position(is, &a.shape) {
            Ok(p) => fcl!("{p}"),
            Err(reason) if !a.is_dynamic() || is.len() != a.shape.len() => return Err(reason),
            // (columns of rows the device counts are static)
            Err(reason) if rows && update_position(&is[1..], &a.shape[1..]).is_err() => {
                return Err(reason)
            }
            // an index past the capacity of a run-time extent is past the extent: the check
            // below fails when the program runs, where its reason can name the extent; the
            // position is none
            Err(_) => int(-1),
        };
        Ok(if a.run_dims.is_some() && !rows {
            // extents the device computes: the position by them, each index checked against
            // its axis's extent when the program runs
            super::extents::update_at(&self.fresh, e.span, is, a)
        } else if let Some(dims) = a.run_dims.as_deref() {
            // rows the device counts (the only extents that may be): the row checked against
            // their count when the program runs, the update within the capacity's layout
            // (the check on the position, an int: the value may be a double or a bool)
            checked_row(&self.fresh, e.span, &dims[0], is[0], &j)
        } else if let Some(len) = a.run_len.as_deref() {
            // a vector of run-time length: the index checked against it the same way
            checked_row(&self.fresh, e.span, len, is[0], &j)
        } else {
            j
        })
    }
}

/// (3.57) The flat position `idxassign` writes at in `a` for an index vector `ix` that the
/// device computes: by `a`'s layout (its run-time extents where the device computes more than
/// its rows, else its capacity's), each index checked against its axis's extent when the
/// program runs, where its range does not prove it within (3.58). `Ok(Err(reason))`: the
/// index's length is not `a`'s rank, which certainly fails.
fn computed_position(fresh: &Fresh, e: &Expr, ix: &Arr, a: &Arr) -> R<Result<Fcl, String>> {
    if ix.shape.len() != 1 || ix.is_dynamic() {
        return unsupported("an idxassign index of run-time length");
    }
    let rank = a.shape.len();
    if ix.shape[0] != rank {
        let r = ix.shape[0];
        return Ok(Err(format!(
            "idxassign: index of length {r} for an array of rank {rank}"
        )));
    }
    // (each index is read twice, by the position and by its check: bound to a name)
    let mut names = Vec::new();
    let mut is = Vec::new();
    for k in 0..rank {
        let x = (ix.index)(&fcl!("{k}"));
        if super::tree::is_atomic(&x) {
            is.push(x);
        } else {
            let n = fresh.name("ix");
            is.push(var(n.as_str()));
            names.push((n, x));
        }
    }
    let extents = super::extents::extents_of(a);
    let layout = match a.run_dims.is_some() && !super::dynamic::rows_dynamic(a) {
        true => extents.clone(),
        false => a.shape.iter().map(|&d| int(d as i64)).collect(),
    };
    let cs: Vec<Fcl> = is.iter().map(|k| fcl!("{k} - 1")).collect();
    let mut j = super::extents::flat(&cs, &layout);
    for (k, (x, d)) in is.iter().zip(&extents).enumerate() {
        let within = ix
            .range_at(k)
            .is_some_and(|r| r.lo >= 1.0 && !a.is_dynamic() && r.hi <= a.shape[k] as f64);
        if !within {
            j = checked_update_index(fresh, e.span, d, x, &j);
        }
    }
    Ok(Ok(names
        .into_iter()
        .rev()
        .fold(j, |body, (n, x)| super::tree::let_in(&n, x, body))))
}

/// The coordinates (0-based) of the index vector `ix` (1-based) of `idxassign`.
fn coordinates(ix: &Arr) -> Vec<Fcl> {
    (0..ix.shape[0])
        .map(|k| fcl!("{} - 1", (ix.index)(&fcl!("{k}"))))
        .collect()
}

impl Lowerer {
    /// The array at location `loc` replaced by `now` (a `power` whose step updates its state
    /// in place, module `location`), and every location that may be it where the conditions
    /// that make it so hold.
    pub(super) fn replace_at(&mut self, loc: Loc, now: Arr) -> R<()> {
        let aliases = self.store.aliases(loc);
        self.store.update(loc, now.clone());
        for (other, when, was) in aliases {
            // (vectors of run-time length: where the condition holds, the two are one, of
            // one length; elsewhere `now` is read within its capacity)
            let vectors = was.shape.len() == 1 && now.shape.len() == 1;
            let static_same = was.shape == now.shape && !was.is_dynamic() && !now.is_dynamic();
            let extents = was.run_dims.is_some() || now.run_dims.is_some();
            let extents = extents || was.is_unbounded() || now.is_unbounded();
            if !(static_same || vectors) || extents || now.size() == 0 {
                return unsupported(
                    "a power that updates in place an array an if may have given to a \
                     variable of another shape",
                );
            }
            let (new, last) = (now.index.clone(), now.size() as i64 - 1);
            let now_at = move |i: &Fcl| new(&fcl!("(mini {i} {last})"));
            self.store_where(
                other,
                when,
                &was,
                now_at,
                now.range,
                "an alias of a power's state",
            );
        }
        Ok(())
    }

    /// Location `loc`, whose array was `was`, now holds `now`'s elements (over `was`'s
    /// shape and length; ranged in `now`'s range and `was`'s) where `when` holds, `was`'s
    /// elsewhere: the array materialized (described as `what`) and stored.
    fn store_where(
        &mut self,
        loc: Loc,
        when: When,
        was: &Arr,
        now: impl Fn(&Fcl) -> Fcl + 'static,
        range: Option<Range>,
        what: &str,
    ) {
        let hit = when.unwrap_or_else(|| fcl!("true"));
        let old = was.index.clone();
        let mut guarded = Arr::new(was.ty, was.shape.clone(), move |i: &Fcl| {
            fcl!("(if {hit} then {} else {})", now(i), old(i))
        });
        guarded.run_len = was.run_len.clone();
        guarded.run_dims = was.run_dims.clone();
        guarded.range = range.zip(was.range).map(|(a, b)| a.union(b));
        let stored = self.materialize(&guarded, what);
        self.store.update(loc, stored);
    }
}

/// `out`, a map over `like`: of `like`'s length (and extents) where the device computes them,
/// its elements past the length fills where computing them could fail a check.
fn dynamic_map(out: Arr, like: &Arr) -> Arr {
    let Some(len) = like.run_len.clone() else {
        return out;
    };
    let mut out = if super::check::has_checks(&(out.index)(&var("i"))) {
        let mut m = Arr::dynamic(out.ty, out.size(), len, out.index.clone());
        // (of the map's capacity per axis, where its extents are computed)
        m.shape = out.shape.clone();
        // (the junk is the fill)
        m.range = out.range_with_fill();
        m.int_source = out.int_source;
        m
    } else {
        Arr {
            run_len: Some(len),
            ..out
        }
    };
    out.run_dims = like.run_dims.clone();
    out.at = None;
    out.transposed = None;
    out.known = None;
    out
}

/// The elements of `each`/`zipWith` of `f` over small known arrays, when all are known: the
/// shapes and counts of apltail programs are often computed this way.
fn known_map(fresh: &Fresh, f: &Val, ty: Ty, args: &[&Arr]) -> Option<Rc<Array>> {
    let known = args
        .iter()
        .map(|a| a.known.as_deref())
        .collect::<Option<Vec<&Array>>>()?;
    let n = known[0].size();
    if n > MAX_FOLD {
        return None;
    }
    let elems = (0..n)
        .map(|i| {
            let xs: Vec<Scalar> = known.iter().map(|a| a.elems.get(i)).collect();
            known_apply(fresh, f, &xs)
        })
        .collect::<Option<Vec<Scalar>>>()?;
    Some(Rc::new(Array {
        shape: known[0].shape.clone(),
        elems: Elems::from_scalars(ty.base(), elems),
    }))
}
