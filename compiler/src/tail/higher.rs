//! The higher-order operators of spec §5.9 other than the reductions (`each`, `zipWith`,
//! `power`, `powerScl`, `bench`, `condScl`) and the mutation operator `idxassign` (§5.11).
//! Element functions are lowered per element inside the consumer's kernel (fusion); `power`
//! iterates with FCL's grid-level `power` over a materialized array.

use super::check::checked_row;
use super::loops::Trips;
use super::lowerer::{fails, Lowerer};
use super::lowerer::{Bases, Draws};
use super::ops::{known_int, known_vec};
use super::range::Range;
use super::tree::{fcl, var, Fcl, Name};
use super::value::{index_by_coords, unsupported, Arr, At, Fresh, Fun, Ty, Val, R};
use super::LowerTailError;
use semantics::tail::ops::prim::Prim;
use semantics::tail::ops::select::update_position;
use semantics::tail::syntax::{Expr, ExprKind};
use semantics::tail::value::{Array, Elems, Scalar};
use std::rc::Rc;

/// Applies function `f` to scalar argument expressions inside a kernel: the result's
/// expression, or `()` (which no FCL scalar operation takes, so the program does not type
/// check) when lowering fails (the caller checked `f` on placeholders first).
pub(super) fn apply_scalar(fresh: &Fresh, f: &Val, args: &[(Ty, Fcl)]) -> Fcl {
    apply_in_ranges(fresh, f, args, &[])
}

/// [`apply_scalar`] on arguments whose values lie in `ranges` (one per argument; missing ones
/// are unknown), so that what they prove cannot fail is not checked (module `range`).
pub(super) fn apply_in_ranges(
    fresh: &Fresh,
    f: &Val,
    args: &[(Ty, Fcl)],
    ranges: &[Option<Range>],
) -> Fcl {
    expr_of(apply_drawing(fresh, f, args, ranges, None))
}

/// [`apply_in_ranges`] for element `i` of a map whose function draws from `roll` call sites
/// with counts `bases` before the map (module `roll`).
fn apply_at(
    fresh: &Fresh,
    f: &Val,
    args: &[(Ty, Fcl)],
    ranges: &[Option<Range>],
    bases: &Bases,
    i: &Fcl,
) -> Fcl {
    let draws = bases.as_ref().map(|b| Draws {
        index: i.clone(),
        bases: b.clone(),
    });
    expr_of(apply_drawing(fresh, f, args, ranges, draws))
}

/// A scalar result's expression, or `()` where there is none (see [`apply_scalar`]).
fn expr_of(a: Option<Arr>) -> Fcl {
    a.map_or_else(semantics::fcl::quote::unit, |a| a.expr())
}

/// The bounds of `f`'s results on arguments of types `tys` in `ranges` (module `range`).
pub(super) fn result_range(
    fresh: &Fresh,
    f: &Val,
    tys: &[Ty],
    ranges: &[Option<Range>],
) -> Option<Range> {
    let placeholders: Vec<(Ty, Fcl)> = tys
        .iter()
        .enumerate()
        .map(|(k, ty)| (*ty, var(&format!("x{k}"))))
        .collect();
    apply_drawing(fresh, f, &placeholders, ranges, None)?.range
}

/// `f` applied to scalar arguments (FCL expressions, in `ranges`) inside a kernel, drawing
/// from `roll` call sites as `draws` says.
fn apply_drawing(
    fresh: &Fresh,
    f: &Val,
    args: &[(Ty, Fcl)],
    ranges: &[Option<Range>],
    draws: Option<Draws>,
) -> Option<Arr> {
    let vals = args
        .iter()
        .enumerate()
        .map(|(k, (ty, t))| {
            let mut a = Arr::scalar(*ty, t.clone());
            a.range = ranges.get(k).copied().flatten();
            Val::Arr(a)
        })
        .collect();
    let mut k = Lowerer::kernel(fresh);
    k.draws = draws;
    match k.apply_fun(f, vals) {
        Ok(Val::Arr(a)) if a.shape.is_empty() => Some(a),
        _ => None,
    }
}

/// The result type of `f` on scalars of types `tys` (checked on placeholders `x0`, `x1`, …).
pub(super) fn scalar_result(fresh: &Fresh, f: &Val, tys: &[Ty]) -> R<Ty> {
    Ok(scalar_draws(fresh, f, tys, None)?.0)
}

/// [`scalar_result`], with the `roll` call sites `f` draws from (once per draw) when applied
/// per element of a map (`draws`: a placeholder context; `None`: `roll` is refused).
pub(super) fn scalar_draws(
    fresh: &Fresh,
    f: &Val,
    tys: &[Ty],
    draws: Option<Draws>,
) -> R<(Ty, Vec<u32>)> {
    let vals = tys
        .iter()
        .enumerate()
        .map(|(k, ty)| Val::Arr(Arr::scalar(*ty, var(&format!("x{k}")))))
        .collect();
    let mut k = Lowerer::kernel(fresh);
    k.draws = draws;
    match k.apply_fun(f, vals)? {
        Val::Arr(a) if a.shape.is_empty() => Ok((a.ty, k.drawn)),
        _ => unsupported("a function argument whose result is not a scalar"),
    }
}

impl Lowerer {
    /// `each`, `zipWith`, `power`, `powerScl`, `bench`, `condScl`.
    pub(super) fn higher_order(&mut self, p: Prim, name: &str, e: &Expr, args: Vec<Val>) -> R<Val> {
        let f = args[0].clone();
        let fresh = self.fresh.clone();
        match p {
            // (3.36) each: element i is f(a_i)
            Prim::Each => {
                let mut a = args[1].arr()?.clone();
                if a.is_dynamic() && !maps_per_element(&fresh, &f, &[a.ty]) {
                    a = self.settle(&a, name)?;
                }
                let like = a.clone();
                let (ty, bases) = match self.element_draws(&f, &[a.ty], a.size()) {
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
                if (a.is_dynamic() || b.is_dynamic())
                    && (a.run_len != b.run_len
                        || a.run_dims != b.run_dims
                        || a.shape != b.shape
                        || !maps_per_element(&fresh, &f, &[a.ty, b.ty]))
                {
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
                let (ty, bases) = match self.element_draws(&f, &[a.ty, b.ty], a.size()) {
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
                if count.known.is_none() && !self.kernel && !self.in_loop {
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
                Ok(Val::Arr(out))
            }
            _ => unsupported(format!("operator {name}")),
        }
    }

    /// (3.57)/(3.58) `idxassign(is, mv, v)`: the variable's array becomes a materialized copy
    /// with element `is` replaced; later uses of the variable read the copy.
    pub(super) fn idxassign(&mut self, name: &str, e: &Expr, args: Vec<Val>) -> R<Val> {
        let ExprKind::App { args: exprs, .. } = &e.kind else {
            return unsupported("idxassign through a function value");
        };
        let ExprKind::Var(var) = &exprs[1].kind else {
            return unsupported("idxassign to an expression that is not a variable");
        };
        if self.kernel || self.in_loop {
            return unsupported("idxassign inside a function");
        }
        let is = known_vec(args[0].arr()?, "an idxassign index")?;
        let (a, v) = (args[1].arr()?.clone(), args[2].arr()?.clone());
        let j = update_position(&is, &a.shape)
            .map_err(|reason| fails(Prim::Idxassign, name, e, reason))?;
        let (index, mut vt) = (a.index.clone(), v.expr());
        if let Some(dims) = a.run_dims.as_deref() {
            // rows the device counts (the only extents that may be): the row checked against
            // their count when the program runs, the update within the capacity's layout
            vt = checked_row(&self.fresh, e.span, &dims[0], is[0], &vt);
        }
        let mut updated = Arr::new(a.ty, a.shape.clone(), move |i: &Fcl| {
            fcl!("(if {i} == {j} then {vt} else {})", index(i))
        });
        updated.range = a.range.zip(v.range).map(|(a, v)| a.union(v));
        updated.run_len = a.run_len.clone();
        updated.run_dims = a.run_dims.clone();
        let stored = self.materialize(&updated, &format!("{var} after idxassign"));
        self.store.insert(var.clone(), Val::Arr(stored));
        Ok(Val::Arr(Arr::known(Array::scalar(Scalar::Bool(true)))))
    }
}

/// The arrays of a state: the array itself, or a tuple's components in order.
pub(super) fn components(v: &Val) -> R<Vec<Arr>> {
    match v {
        Val::Arr(a) => Ok(vec![a.clone()]),
        Val::Tuple(vs) => vs.iter().map(|v| v.arr().cloned()).collect(),
        Val::Fun(_) => unsupported("a function as the state of power"),
    }
}

/// Whether `f` applies to scalars of types `tys` inside a kernel without drawing from `roll`:
/// a map of it over a vector whose length the device computes is a map over its capacity.
fn maps_per_element(fresh: &Fresh, f: &Val, tys: &[Ty]) -> bool {
    matches!(scalar_draws(fresh, f, tys, Some(Draws::placeholder())), Ok((_, d)) if d.is_empty())
}

/// `out`, a map over `like`: of `like`'s length (and extents) where the device computes them,
/// its elements past the length fills where computing them could fail a check.
fn dynamic_map(out: Arr, like: &Arr) -> Arr {
    let Some(len) = like.run_len.clone() else {
        return out;
    };
    let mut out = if super::check::has_checks(&(out.index)(&var("i"))) {
        let mut m = Arr::dynamic(out.ty, out.size(), len, out.index.clone());
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

/// A state of `x`'s form (array or tuple) from its components.
pub(super) fn rebuild(x: &Val, parts: &[Arr]) -> R<Val> {
    match x {
        Val::Tuple(_) => Ok(Val::Tuple(parts.iter().cloned().map(Val::Arr).collect())),
        _ => Ok(Val::Arr(parts[0].clone())),
    }
}

/// The components read from buffer `buf`, component c starting at `offsets[c]` (a complex
/// one as two blocks of doubles, module `complex`), its elements in `ranges[c]`.
pub(super) fn reading(
    fresh: &Fresh,
    buf: &Name,
    parts: &[Arr],
    offsets: &[usize],
    doubles: bool,
    ranges: &[Option<Range>],
) -> Vec<Arr> {
    parts
        .iter()
        .zip(offsets)
        .zip(ranges)
        .map(|((a, &o), &range)| {
            let (buf, ty) = (buf.clone(), a.ty);
            let mut read = if ty == Ty::Complex {
                let (fresh, n) = (fresh.clone(), a.size().max(1));
                Arr::new(ty, a.shape.clone(), move |i: &Fcl| {
                    super::complex::read_pair(&fresh, &buf, o, n, i)
                })
            } else {
                Arr::new(ty, a.shape.clone(), move |i: &Fcl| {
                    let t = fcl!("(index {buf} ({i} + {o}))");
                    match (doubles, ty) {
                        (true, Ty::Double) | (false, _) => ty.load(&t),
                        // an int stored as a double is exact (|x| < 2^53)
                        (true, _) => ty.load(&fcl!("(floord {t})")),
                    }
                })
            };
            read.range = range;
            read
        })
        .collect()
}

/// Element `i` of the buffer holding the components one after another.
pub(super) fn packed(
    fresh: &Fresh,
    parts: &[Arr],
    offsets: &[usize],
    doubles: bool,
    i: &Fcl,
) -> Fcl {
    let slot = |a: &Arr, j: &Fcl| {
        let t = super::complex::stored_slot(fresh, a, j);
        if doubles && !matches!(a.ty, Ty::Double | Ty::Complex) {
            fcl!("(i2d {t})")
        } else {
            t
        }
    };
    if parts.len() == 1 {
        return slot(&parts[0], i);
    }
    super::value::share(fresh, i, |i| {
        let mut out = slot(
            &parts[parts.len() - 1],
            &fcl!("({i} - {})", offsets[parts.len() - 1]),
        );
        for c in (0..parts.len() - 1).rev() {
            let part = slot(&parts[c], &fcl!("({i} - {})", offsets[c]));
            out = fcl!("(if lti {i} {} then {part} else {out})", offsets[c + 1]);
        }
        out
    })
}

/// `f` applied to known scalars, when its result is known (compile-time evaluation).
pub(super) fn known_apply(fresh: &Fresh, f: &Val, xs: &[Scalar]) -> Option<Scalar> {
    let vals = xs
        .iter()
        .map(|x| Val::Arr(Arr::known(Array::scalar(*x))))
        .collect();
    let mut k = Lowerer::kernel(fresh);
    match k.apply_fun(f, vals) {
        Ok(Val::Arr(a)) => a.known_scalar(),
        _ => None,
    }
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

/// The largest `each`/`zipWith`/`reduce` evaluated at compile time.
pub(super) const MAX_FOLD: usize = 64;

#[cfg(test)]
mod tests {
    use super::*;

    use crate::tail::tree::parsed as p;

    fn vector(ty: Ty, n: usize, buf: &'static str) -> Arr {
        Arr::new(ty, vec![n], move |i: &Fcl| {
            fcl!("(index {buf} {i})", buf = Name::new(buf))
        })
    }

    #[test]
    fn packed_components_follow_one_another() {
        let f = Fresh::default();
        let parts = [vector(Ty::Int, 2, "a"), vector(Ty::Bool, 3, "b")];
        assert_eq!(
            packed(&f, &parts, &[0, 2], false, &p("i")),
            p("(if lti i 2 then (index a (i - 0)) else (b2i (index b (i - 2))))")
        );
        // in a buffer of doubles, ints are converted; a computed index is named once
        assert_eq!(
            packed(&f, &parts, &[0, 2], true, &p("(i + 1)")),
            p("(let x0 = (i + 1) in \
               if lti x0 2 then (i2d (index a (x0 - 0))) else (i2d (b2i (index b (x0 - 2)))))")
        );
        // one component: its slots as they are
        assert_eq!(
            packed(&f, &parts[..1], &[0], false, &p("i")),
            p("(index a i)")
        );
    }

    #[test]
    fn components_are_read_at_their_offsets() {
        let f = Fresh::default();
        let parts = [vector(Ty::Int, 2, "a"), Arr::scalar(Ty::Bool, p("c"))];
        let s = Name::new("s");
        let read = reading(&f, &s, &parts, &[0, 2], false, &[None, None]);
        assert_eq!((read[0].index)(&p("i")), p("(index s (i + 0))"));
        assert_eq!(read[1].expr(), p("((index s (0 + 2)) == 1)"));
        // ints stored as doubles are floored back
        let read = reading(&f, &s, &parts, &[0, 2], true, &[None, None]);
        assert_eq!((read[0].index)(&p("i")), p("(floord (index s (i + 0)))"));
        assert_eq!(read[1].expr(), p("((floord (index s (0 + 2))) == 1)"));
    }
}
