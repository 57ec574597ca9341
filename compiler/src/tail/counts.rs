//! Shape operators whose count is computed on the device: `iota(n)`, `take(n, v)`,
//! `drop(n, v)`, `rotate(n, a)`, `reshape(s, a)` and `formatI(n)` with `n` or `s` not known at
//! compile time, and `take`/`drop`/`rotate` of a vector whose length the device computes
//! ([`Arr::run_len`]). None of them reads its count back: the count stays an FCL int expression
//! that the kernels evaluate.
//!
//! * `rotate` keeps its argument's shape: the count only moves the columns, `(c + s) mod m`
//!   with `s = n mod m` computed in the kernel.
//! * `drop` gives a vector of run-time length `max(0, L − |n|)` and its argument's capacity.
//! * `take` and `iota` give a vector of run-time length `|n|` (`n` for `iota`, whose negative
//!   count fails, rule 3.35). Its capacity is the largest `|n|` that the count's range allows
//!   (module `range`: `resi(7, x)` is at most 6, a `reduce(maxi…)` of such values too), at most
//!   [`MAX_CAPACITY`]; a count with no such bound gives an unbounded vector (module
//!   `capacity`), whose buffers and launches take its run-time length.
//! * `reshape` bounds each extent by the range of the shape vector: a vector of run-time
//!   length, or an array of run-time extents ([`Arr::run_dims`]).
//! * `formatI` and `formatD` give their text, of run-time length (module `format`).
//!
//! Every element past the run-time length is a fill, computed by nothing that can fail.

use super::capacity::{MAX_CAPACITY, UNBOUNDED};
use super::check::{checked_extents, checked_iota_count};
use super::lowerer::Lowerer;
use super::range::Range;
use super::tree::{fcl, int, Fcl};
use super::value::{length_expr, share, Arr, Ty, Val, R};
use semantics::tail::ops::prim::Prim;
use semantics::tail::syntax::Expr;
use semantics::tail::value::Scalar;
use std::rc::Rc;

/// The largest `|n|` of an int count `n`: its value where known, else the bound its range
/// gives, where that is at most [`MAX_CAPACITY`].
pub(super) fn count_bound(n: &Arr) -> Option<usize> {
    if let Some(Scalar::Int(k)) = n.known_scalar() {
        return Some(k.unsigned_abs() as usize);
    }
    let r = n.range?;
    let b = r.lo.abs().max(r.hi.abs());
    (b <= MAX_CAPACITY as f64).then_some(b as usize)
}

/// The capacity of a vector of `|n|` elements: the bound [`count_bound`] gives, or
/// [`UNBOUNDED`] where it gives none (module `capacity`).
pub(super) fn count_capacity(n: &Arr) -> usize {
    count_bound(n).unwrap_or(UNBOUNDED)
}

/// A vector of `a`'s elements or fills, of capacity `cap` and run-time length `len`: element
/// i is `element(s, i)`, with `shared` (a count, or a shift from it) bound to the name `s`
/// where i is below the length. Its range holds `a`'s elements and the fill.
fn counted(
    f: &super::value::Fresh,
    a: &Arr,
    cap: usize,
    len: Rc<Fcl>,
    shared: Fcl,
    element: impl Fn(&Fcl, &Fcl) -> Fcl + 'static,
) -> Arr {
    let g = f.clone();
    let index = move |i: &Fcl| share(&g, &shared, |s| element(s, i));
    let mut out = Arr::dynamic(a.ty, cap, len, Rc::new(index));
    out.range = a.range_with_fill();
    out
}

/// Whether `take`/`drop`/`rotate` by count `args[0]` is lowered here, so that its argument 1
/// may be a vector of run-time length: a `drop` or `rotate` always, a `take` where its count
/// is known or bounded.
pub(super) fn counts_take_dynamic(p: Prim, args: &[Val]) -> bool {
    let Some(Val::Arr(n)) = args.first() else {
        return false;
    };
    n.shape.is_empty()
        && n.ty == Ty::Int
        && match p {
            Prim::Drop | Prim::Rotate => true,
            // of a vector, vrotate is rotate
            Prim::Vrotate => matches!(args.get(1), Some(Val::Arr(a)) if a.shape.len() == 1),
            Prim::Take => count_capacity(n) > 0,
            _ => false,
        }
}

impl Lowerer {
    /// `iota`, `take`, `drop` or `rotate` lowered with a count computed on the device (or of
    /// a vector whose length is), where this module applies; `None` where the count is read
    /// back (module `probe`) or known.
    pub(super) fn computed_count(&mut self, p: Prim, e: &Expr, args: &[Val]) -> R<Option<Arr>> {
        if p == Prim::Reshape {
            return self.reshape_computed(e, args);
        }
        if let Some(a) = super::dynamic::rearranged(&self.fresh, p, args) {
            return Ok(Some(a));
        }
        let (Some(Val::Arr(n)), rest) = (args.first(), &args[1.min(args.len())..]) else {
            return Ok(None);
        };
        let a = match rest.first() {
            Some(Val::Arr(a)) => Some(a),
            _ => None,
        };
        if p == Prim::FormatD {
            return Ok(match n.known {
                None => self.format_double(n),
                Some(_) => None,
            });
        }
        let computed = n.known.is_none() && n.shape.is_empty() && n.ty == Ty::Int;
        let dynamic = a.is_some_and(Arr::is_dynamic);
        if self.kernel || !(computed || dynamic) {
            return Ok(None);
        }
        let f = self.fresh.clone();
        let nt = n.expr();
        Ok(match (p, a) {
            // (3.34)/(3.35) iota: 1…n, a negative count fails
            (Prim::Iota, None) => {
                let cap = count_capacity(n);
                if cap == 0 {
                    return Ok(None);
                }
                let len = if n.range.is_some_and(|r| r.lo >= 0.0) {
                    nt
                } else {
                    checked_iota_count(&f, e.span, &nt)
                };
                let mut out = Arr::dynamic(
                    Ty::Int,
                    cap,
                    Rc::new(len),
                    Rc::new(|i: &Fcl| fcl!("({i} + 1)")),
                );
                out.range = Range::new(0.0, cap as f64);
                Some(out)
            }
            // formatI: the int's decimal text, as Rust and the oracle write it
            (Prim::FormatI, None) if computed => Some(super::format::format_int(&f, &nt)),
            (Prim::Drop, Some(a)) if a.shape.len() == 1 => {
                let (l, cap) = (length_expr(a), a.shape[0]);
                if cap == 0 {
                    return Ok(Some(a.clone()));
                }
                // max(0, L − |n|), with no |n| that overflows
                let len = share(&f, &nt, |n| {
                    fcl!(
                        "(if lti {n} 0 then (if lti {n} (0 - {l}) then 0 else {l} + {n}) \
                         else (if lti {l} {n} then 0 else {l} - {n}))"
                    )
                });
                let index = a.index.clone();
                Some(counted(&f, a, cap, Rc::new(len), nt, move |n, i| {
                    index(&fcl!("({i} + (if lti {n} 0 then 0 else {n}))"))
                }))
            }
            (Prim::Take, Some(a)) if a.shape.len() == 1 => {
                let cap = count_capacity(n);
                if cap == 0 {
                    return Ok(None);
                }
                let l = length_expr(a);
                let len = share(&f, &nt, |n| fcl!("(if lti {n} 0 then 0 - {n} else {n})"));
                let (index, fill, g) = (a.index.clone(), a.ty.fill(), f.clone());
                // element i: a_i (n ≥ 0) or a_(L + n + i) (n < 0), a fill outside 0…L−1
                Some(counted(&f, a, cap, Rc::new(len), nt, move |n, i| {
                    let j = fcl!("(if lti {n} 0 then {l} + {n} + {i} else {i})");
                    share(&g, &j, |j| {
                        fcl!(
                            "(if andb (lti {j} {l}) (lti (0 - 1) {j}) then {} else {fill})",
                            index(j)
                        )
                    })
                }))
            }
            // rotate (or vrotate) of a vector of run-time length L: left by n mod L
            (Prim::Rotate | Prim::Vrotate, Some(a)) if dynamic => {
                let (l, index, g) = (length_expr(a), a.index.clone(), f.clone());
                // (the shift is computed only for i < L, so L > 0 there)
                let shift = fcl!("(({nt}) % {l} + {l}) % {l}");
                Some(counted(&f, a, a.shape[0], l.clone(), shift, move |s, i| {
                    let j = fcl!("({i} + {s})");
                    share(&g, &j, |j| {
                        fcl!(
                            "(if lti {j} {l} then {} else {})",
                            index(j),
                            index(&fcl!("({j} - {l})"))
                        )
                    })
                }))
            }
            // rotate: every row along the last axis moves left by n mod m
            (Prim::Rotate, Some(a)) if computed => {
                let Some(&m) = a.shape.last() else {
                    return Ok(Some(a.clone()));
                };
                if m == 0 {
                    return Ok(Some(a.clone()));
                }
                let (index, g) = (a.index.clone(), f.clone());
                let mut out = Arr::new(a.ty, a.shape.clone(), move |i: &Fcl| {
                    share(&g, i, |i| {
                        share(&g, &fcl!("((({nt}) % {m} + {m}) % {m})"), |s| {
                            share(&g, &fcl!("({i} % {m})"), |c| {
                                let moved = fcl!(
                                    "(if lti ({c} + {s}) {m} then {c} + {s} else {c} + {s} - {m})"
                                );
                                index(&fcl!("({i} - {c} + {moved})"))
                            })
                        })
                    })
                });
                out.range = a.range;
                Some(out)
            }
            // vrotate: the rows along the first axis move up by n mod s0, so the flat index
            // moves by (n mod s0)·q (q elements a row), wrapping without a division
            (Prim::Vrotate, Some(a)) if computed => {
                let (size, s0) = (a.size(), a.shape.first().copied().unwrap_or(0));
                if s0 == 0 || size == 0 {
                    return Ok(Some(a.clone()));
                }
                let (q, index, g) = (size / s0, a.index.clone(), f.clone());
                let mut out = Arr::new(a.ty, a.shape.clone(), move |i: &Fcl| {
                    let off = fcl!("((({nt}) % {s0} + {s0}) % {s0} * {q})");
                    share(&g, &fcl!("({i} + {off})"), |j| {
                        fcl!(
                            "(if lti {j} {size} then {} else {})",
                            index(j),
                            index(&fcl!("({j} - {size})"))
                        )
                    })
                });
                out.range = a.range;
                Some(out)
            }
            _ => None,
        })
    }
}

/// The most axes of a `reshape` by a shape the device computes.
const MAX_RANK: usize = 8;

impl Lowerer {
    /// (3.38)/(3.39) `reshape(s, a)` with the extents `s` computed on the device, each
    /// bounded by its range: a vector of run-time length, or an array of run-time extents
    /// ([`Arr::run_dims`]); or with `s` known and `a` of run-time length (or extents): the
    /// static shape, a's elements reused cyclically by its run-time length. `None` where the
    /// ranges give no bound (the shape is read back) or everything is static.
    fn reshape_computed(&mut self, e: &Expr, args: &[Val]) -> R<Option<Arr>> {
        let [Val::Arr(s), Val::Arr(a)] = args else {
            return Ok(None);
        };
        let Some(target) = reshape_target(s).filter(|_| !self.kernel) else {
            return Ok(None);
        };
        let size = target.size();
        let element = cyclic(a, size);
        let (ty, range) = (a.ty, a.range_with_fill());
        let (bounds, checked) = match target {
            // a static shape of a vector of run-time length (else the static lowering)
            ReshapeTarget::Known(shape) if a.is_dynamic() => {
                let mut out = Arr::new(ty, shape, move |i| element(i));
                out.range = range;
                return Ok(Some(out));
            }
            ReshapeTarget::Known(_) => return Ok(None),
            ReshapeTarget::Computed { bounds, checked } => (bounds, checked),
        };
        let f = self.fresh.clone();
        let rank = bounds.len();
        let dims: Vec<Fcl> = (0..rank).map(|k| (s.index)(&fcl!("{k}"))).collect();
        // d0 * d1 * …, associating to the left (reshape_target gives at least one extent)
        let product = dims
            .iter()
            .cloned()
            .reduce(|acc, d| fcl!("{acc} * {d}"))
            .unwrap_or_else(|| int(1));
        let len = if checked {
            checked_extents(&f, e.span, &dims, &product)
        } else {
            product
        };
        let mut out = Arr::dynamic(ty, size, Rc::new(len), element);
        out.range = range;
        if rank > 1 {
            out.shape = bounds;
            out.run_dims = Some(dims.into_iter().map(Rc::new).collect());
        }
        Ok(Some(out))
    }
}

/// What `reshape(s, a)` by shape vector `s` gives where this module lowers it.
enum ReshapeTarget {
    /// A shape known at compile time (lowered here for an `a` of run-time length).
    Known(Vec<usize>),
    /// A shape computed on the device: each extent at most its bound (from its range, module
    /// `range`), and whether an extent may be negative (which fails, rule 3.38).
    Computed { bounds: Vec<usize>, checked: bool },
}

impl ReshapeTarget {
    /// The most elements the result can have.
    fn size(&self) -> usize {
        let shape = match self {
            ReshapeTarget::Known(shape) => shape,
            ReshapeTarget::Computed { bounds, .. } => bounds,
        };
        super::value::elements(shape)
    }
}

/// The shape `reshape(s, …)` gives, where this module lowers it: known, or computed with
/// every extent bounded and at most [`MAX_CAPACITY`] elements in all, or one extent with no
/// such bound (an unbounded vector); `None` where the shape is read back (module `probe`).
/// An extent of `[n, 3]` is bounded by its own range.
fn reshape_target(s: &Arr) -> Option<ReshapeTarget> {
    let rank = s.shape.first().copied().unwrap_or(0);
    if s.shape.len() != 1 || s.ty != Ty::Int || !(1..=MAX_RANK).contains(&rank) {
        return None;
    }
    if let Some(k) = &s.known {
        let shape = (0..k.size())
            .map(|i| match k.elems.get(i) {
                Scalar::Int(n) => usize::try_from(n).ok(),
                _ => None,
            })
            .collect::<Option<Vec<usize>>>()?;
        return Some(ReshapeTarget::Known(shape));
    }
    // (an extent of no known range may be any int: a vector's is then unbounded)
    let any = Range::new(i32::MIN as f64, i32::MAX as f64)?;
    let ranges: Vec<Range> = (0..rank).map(|k| s.range_at(k).unwrap_or(any)).collect();
    // (an extent that is never positive has a capacity of 1: the buffers are not empty)
    let bounds: Vec<f64> = ranges.iter().map(|r| r.hi.max(1.0).floor()).collect();
    let cap: f64 = bounds.iter().product();
    let bounds = match (cap > MAX_CAPACITY as f64, rank) {
        (false, _) => bounds.into_iter().map(|b| b as usize).collect(),
        // a vector with no useful bound: unbounded (module `capacity`)
        (true, 1) => vec![UNBOUNDED],
        // an array of unbounded extents (module `capacity`): its first axis's capacity
        // loosened to the most, which makes its size so
        (true, _) => {
            let mut bounds: Vec<usize> = bounds.into_iter().map(|b| b as usize).collect();
            bounds[0] = UNBOUNDED;
            bounds
        }
    };
    Some(ReshapeTarget::Computed {
        bounds,
        checked: ranges.iter().any(|r| r.lo < 0.0),
    })
}

/// Whether `reshape` takes argument `a` of run-time length as it is: where its shape is
/// lowered here ([`reshape_target`]).
pub(super) fn reshapes_dynamic(args: &[Val]) -> bool {
    matches!(args.first(), Some(Val::Arr(s)) if reshape_target(s).is_some())
}

/// (3.39) `a`'s elements reused cyclically, by flat index below `cap`: fills for an empty `a`; of a
/// vector of run-time length L, element i is a's `i mod L` (`mod` by at least 1, so a junk
/// position cannot fail).
fn cyclic(a: &Arr, cap: usize) -> super::value::Index {
    let (m, ty, index) = (a.size(), a.ty, a.index.clone());
    if let Some(l) = &a.run_len {
        let l = l.clone();
        return Rc::new(move |i: &Fcl| {
            fcl!(
                "(if {l} == 0 then {} else {})",
                ty.fill(),
                index(&fcl!("({i} % (maxi 1 {l}))"))
            )
        });
    }
    match m {
        0 => Rc::new(move |_: &Fcl| ty.fill()),
        m if cap <= m => index,
        m => Rc::new(move |i: &Fcl| index(&fcl!("({i} % {m})"))),
    }
}
