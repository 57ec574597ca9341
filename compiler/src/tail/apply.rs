//! Function values applied to scalars inside a kernel: the element function of a map, a
//! reduction's operator, a `condScl`'s branch. The function is lowered by a kernel-level
//! [`Lowerer`] on scalar arguments (their FCL expressions), which gives the element's
//! expression, its type, its range and the `roll` call sites it draws from; on known
//! arguments it evaluates at compile time ([`known_apply`]).

use super::lowerer::{Bases, Draws, Lowerer};
use super::range::Range;
use super::tree::{var, Fcl};
use super::value::{unsupported, Arr, Fresh, Ty, Val, R};
use semantics::tail::value::{Array, Scalar};

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
pub(super) fn apply_at(
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
pub(super) fn apply_drawing(
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

/// Whether `f` applied to scalars of types `tys` is per-element code, drawing from `roll` or
/// not (its draws counted by [`Lowerer::element_draws`]).
pub(super) fn is_element_code(fresh: &Fresh, f: &Val, tys: &[Ty]) -> bool {
    scalar_draws(fresh, f, tys, Some(Draws::placeholder())).is_ok()
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

/// The largest `each`/`zipWith`/`reduce` evaluated at compile time.
pub(super) const MAX_FOLD: usize = 64;
