//! Operators on arrays of run-time extents ([`Arr::run_dims`]: a `reshape` by a shape the
//! device computes), lowered over those extents instead of reading them back.
//!
//! Such an array is its capacity's buffer whose first `run_len` positions hold the elements,
//! row-major by the run-time extents d_0 … d_(r−1). Each operator here is index arithmetic on
//! those extents: an element of the result at flat index i has the coordinates
//! `(i / (d_(k+1)·…·d_(r−1))) % d_k` of the result's extents, which the operator maps to its
//! argument's coordinates, flattened by the argument's extents. Every extent divides as
//! `maxi 1 d`, so past the length (junk) the coordinates stay below the capacity's and
//! nothing there can fail, and no element tests the length.
//!
//! * `transp`, `transp2` by a known permutation: the extents permuted (3.40/3.41); by a
//!   permutation computed from data, of any array: each extent chosen when the program runs,
//!   the permutation checked.
//! * `vreverse`, `vrotate`, `take`, `drop` along the first axis (`take`/`drop` by a computed
//!   count of static rows too); `rotate` along the last.
//! * `cat` along the last axis: the other extents checked equal when the program runs.
//! * `idxS`: the index checked against the axis's run-time extent (3.71); `idxassign` (module
//!   `higher`) writes at the position by the run-time extents, each index checked (3.57).
//! * `zipWith` of arrays whose extents may differ: checked equal (3.68), then as one; `cons`
//!   and `snoc`: `cat` of the column.
//! * `reduce`/`scan` along the last axis: module `extent_rows`.

use super::capacity::{MAX_CAPACITY, UNBOUNDED};
use super::check::checked_same_extents;
use super::dynamic::{neutral, rows_dynamic};
use super::lowerer::{fails, Lowerer};
use super::tree::{fcl, int, Fcl};
use super::value::{known_ints, share, with_names, Arr, Fresh, Ty, Val, R};
use semantics::tail::ops::prim::Prim;
use semantics::tail::syntax::Expr;
use semantics::tail::value::Array;
use std::rc::Rc;

/// The run-time extents of an array: its [`Arr::run_dims`], a vector's run-time length, or
/// its static shape as literals.
pub(super) fn extents_of(a: &Arr) -> Vec<Fcl> {
    match (&a.run_dims, &a.run_len) {
        (Some(dims), _) => dims.iter().map(|d| (**d).clone()).collect(),
        (None, Some(len)) => vec![(**len).clone()],
        (None, None) => a.shape.iter().map(|&k| int(k as i64)).collect(),
    }
}

/// `maxi 1 d`: an extent that divides (a literal stays one).
pub(super) fn divisor(d: &Fcl) -> Fcl {
    match super::tree::literal_index(d) {
        Some(k) => int(k.max(1) as i64),
        None => fcl!("(maxi 1 {d})"),
    }
}

/// d0 · d1 · …, associating to the left; 1 of no extents.
pub(super) fn product(ds: &[Fcl]) -> Fcl {
    ds.iter()
        .cloned()
        .reduce(|acc, d| fcl!("{acc} * {d}"))
        .unwrap_or_else(|| int(1))
}

/// The coordinates of flat index `i` (a name) by extents `dims` (each taken as a divisor).
fn coords(i: &Fcl, dims: &[Fcl]) -> Vec<Fcl> {
    let ds: Vec<Fcl> = dims.iter().map(divisor).collect();
    (0..ds.len())
        .map(|k| match k {
            // the first coordinate too is taken modulo its extent: junk stays in range
            _ if k + 1 == ds.len() => fcl!("({i} % {})", ds[k]),
            _ => fcl!("({i} / {} % {})", product(&ds[k + 1..]), ds[k]),
        })
        .collect()
}

/// The flat index of coordinates `cs` by extents `dims` (each taken as a divisor).
pub(super) fn flat(cs: &[Fcl], dims: &[Fcl]) -> Fcl {
    let ds: Vec<Fcl> = dims.iter().map(divisor).collect();
    (0..cs.len())
        .map(|k| match k + 1 == cs.len() {
            true => cs[k].clone(),
            false => fcl!("{} * {}", cs[k], product(&ds[k + 1..])),
        })
        .reduce(|acc, t| fcl!("{acc} + {t}"))
        .unwrap_or_else(|| int(0))
}

/// The element of `a` at coordinates `cs` (of its run-time extents).
fn read(a: &Arr, cs: &[Fcl]) -> Fcl {
    (a.index)(&flat(cs, &extents_of(a)))
}

/// The length `len` of a result made from `a`, computing `a`'s length first where it checks
/// something (a reshape's negative extent), so that the check still runs wherever the result's
/// length is read.
pub(super) fn after_checks_of(a: &Arr, len: Fcl) -> Fcl {
    match a.run_len.as_deref() {
        Some(l) if super::check::has_checks(l) => fcl!("(if lti {l} 0 then 0 else {len})"),
        _ => len,
    }
}

/// An array of capacity `caps` and run-time extents `dims` (length `len`), whose element at
/// coordinates cs (names) is `element(cs)`. Where `len` checks something (extents that must
/// agree, an index, its argument's reshape), its first extent computes `len` first, since a
/// consumer of the array (a print, `shape`) may read the extents alone; the elements divide
/// by the extents as they are, so they check nothing.
pub(super) fn by_coords(
    fresh: &Fresh,
    ty: Ty,
    caps: Vec<usize>,
    dims: Vec<Fcl>,
    len: Fcl,
    element: impl Fn(&[Fcl]) -> Fcl + 'static,
) -> Arr {
    let (g, ds) = (fresh.clone(), dims.clone());
    // capacities past the largest static one (an axis of an array of unbounded extents
    // reduced away, taken or transposed to the front): unbounded (module `capacity`), so
    // that nothing is sized by them
    let mut caps = caps;
    if super::value::elements(&caps) > MAX_CAPACITY {
        caps[0] = UNBOUNDED;
    }
    let mut out = Arr::new(ty, caps, move |i: &Fcl| {
        share(&g, i, |i| with_names(&g, &coords(i, &ds), |cs| element(cs)))
    });
    if dims.len() >= 2 {
        out.run_dims = Some(reported(dims, &len));
    }
    out.run_len = Some(Rc::new(len));
    out
}

/// Extents `dims` as a result of length `len` reports them: where `len` checks something, the
/// first extent computes it first (see [`by_coords`]).
fn reported(mut dims: Vec<Fcl>, len: &Fcl) -> Rc<[Rc<Fcl>]> {
    if super::check::has_checks(len) {
        dims[0] = fcl!("(if lti {len} 0 then 0 else {})", dims[0]);
    }
    dims.into_iter().map(Rc::new).collect()
}

/// The capacities of two arrays of one rank whose extents are checked equal: the smaller.
fn smaller_capacities(a: &Arr, b: &Arr) -> Vec<usize> {
    a.shape
        .iter()
        .zip(&b.shape)
        .map(|(x, y)| *x.min(y))
        .collect()
}

/// `((n % d) + d) % d` for a divisor d: a count wrapped into 0..d.
fn wrapped(n: &Fcl, d: &Fcl) -> Fcl {
    fcl!("(({n} % {d}) + {d}) % {d}")
}

/// (3.40)/(3.41) `a` with axis k becoming axis `perm[k]` (0-based, a permutation).
pub(super) fn permuted(fresh: &Fresh, a: &Arr, perm: &[usize]) -> Arr {
    let (dims, r) = (extents_of(a), perm.len());
    let mut out_dims = dims.clone();
    let mut caps = a.shape.clone();
    for k in 0..r {
        out_dims[perm[k]] = dims[k].clone();
        caps[perm[k]] = a.shape[k];
    }
    let (src, perm) = (a.clone(), perm.to_vec());
    let len = (*super::value::length_expr(a)).clone();
    let mut out = by_coords(fresh, a.ty, caps, out_dims, len, move |cs| {
        let source: Vec<Fcl> = perm.iter().map(|&p| cs[p].clone()).collect();
        read(&src, &source)
    });
    out.range = a.range;
    out
}

/// Whether operator `p` of `args` is lowered here ([`Lowerer::on_extents`] says for sure): an
/// argument of run-time extents, a `transp2` by a computed permutation, or a `take`/`drop`
/// of rows by a computed count (whose result has a computed first extent).
pub(super) fn applies(p: Prim, args: &[Val]) -> bool {
    let arr = |k: usize| match args.get(k) {
        Some(Val::Arr(a)) => Some(a),
        _ => None,
    };
    args.iter()
        .any(|v| matches!(v, Val::Arr(a) if a.run_dims.is_some()))
        || match (p, arr(0), arr(1)) {
            (Prim::Transp2, Some(q), _) => q.known.is_none(),
            (Prim::Take | Prim::Drop, Some(n), Some(a)) => counted_rows(n, a),
            _ => false,
        }
}

/// Whether `a` has rows (rank 2 or more, static extents) and `n`, a count of them, is computed.
fn counted_rows(n: &Arr, a: &Arr) -> bool {
    n.known.is_none() && a.shape.len() >= 2 && a.run_len.is_none()
}

/// Whether `cat(a, b)` is lowered by [`catenated`]: arrays of one rank of at least 2 and one
/// type, one of them of run-time extents (a vector of run-time length has rank 1).
fn joinable(a: &Arr, b: &Arr) -> bool {
    (a.run_dims.is_some() || b.run_dims.is_some())
        && a.shape.len() == b.shape.len()
        && a.shape.len() >= 2
        && a.ty == b.ty
}

/// `x` with one more axis, of extent 1 (a vector of run-time length is then an array of
/// run-time extents).
fn column(x: &Arr) -> Arr {
    let mut dims = extents_of(x);
    dims.push(int(1));
    let mut out = Arr {
        known: None,
        at: None,
        transposed: None,
        element_ranges: None,
        ..x.clone()
    };
    out.shape.push(1);
    if x.run_len.is_some() {
        out.run_dims = Some(dims.into_iter().map(Rc::new).collect());
    }
    out
}

/// (3.63) `cat(a, b)` along the last axis: extents a's but the last, the sum of both there;
/// the others checked equal when the program runs, failing as operator `p` of the program
/// (`cat`, or the `cons`/`snoc` made of it, 3.64).
fn catenated(f: &Fresh, p: Prim, span: semantics::Span, a: &Arr, b: &Arr) -> Arr {
    let (da, db) = (extents_of(a), extents_of(b));
    let r = da.len();
    let mut out_dims = da.clone();
    out_dims[r - 1] = fcl!("{} + {}", da[r - 1], db[r - 1]);
    // (the other extents are equal: at most the smaller capacity)
    let mut caps = smaller_capacities(a, b);
    caps[r - 1] = a.shape[r - 1] + b.shape[r - 1];
    let len = after_checks_of(b, after_checks_of(a, product(&out_dims)));
    let len = checked_same_extents(f, p, span, &da[..r - 1], &db[..r - 1], &len);
    let (sa, sb, ma) = (a.clone(), b.clone(), da[r - 1].clone());
    let mb = divisor(&db[r - 1]);
    let mut out = by_coords(f, a.ty, caps, out_dims, len, move |cs| {
        let j = &cs[r - 1];
        let (mut x, mut y) = (cs.to_vec(), cs.to_vec());
        x[r - 1] = fcl!("(mini {j} ({} - 1))", divisor(&ma));
        y[r - 1] = fcl!("(mini (maxi 0 ({j} - {ma})) ({mb} - 1))");
        fcl!(
            "(if lti {j} {ma} then {} else {})",
            read(&sa, &x),
            read(&sb, &y)
        )
    });
    out.range = a.range.zip(b.range).map(|(x, y)| x.union(y));
    out
}

/// `a` and `b`, of one rank, with the one run-time extents (a's, checked equal to b's when
/// the program runs, 3.68) and the smaller capacity; their elements as they were, in flat
/// order.
fn of_same_extents(f: &Fresh, span: semantics::Span, a: &Arr, b: &Arr) -> (Arr, Arr) {
    let (da, db) = (extents_of(a), extents_of(b));
    let len = after_checks_of(b, after_checks_of(a, product(&da)));
    let len = checked_same_extents(f, Prim::ZipWith, span, &da, &db, &len);
    let (dims, caps) = (reported(da, &len), smaller_capacities(a, b));
    let len = Rc::new(len);
    let same = |x: &Arr| Arr {
        shape: caps.clone(),
        run_len: Some(len.clone()),
        run_dims: Some(dims.clone()),
        known: None,
        at: None,
        transposed: None,
        element_ranges: None,
        ..x.clone()
    };
    (same(a), same(b))
}

/// (3.57) Where `idxassign(is, a, x)` writes in `a` of run-time extents: the flat position of
/// the (1-based, known) index `is` by those extents, checked: an index past its axis's extent
/// fails as the oracle's `idxassign` does (the check is on the position, an int, which every
/// element of the update compares with).
pub(super) fn update_at(f: &Fresh, span: semantics::Span, is: &[i64], a: &Arr) -> Fcl {
    let dims = extents_of(a);
    let cs: Vec<Fcl> = is.iter().map(|&k| int(k - 1)).collect();
    dims.iter().zip(is).fold(flat(&cs, &dims), |j, (d, &k)| {
        super::check::checked_row(f, span, d, k, &j)
    })
}

impl Lowerer {
    /// Operator `p` (spelled `name`, at `e`) where an argument has run-time extents and the
    /// module comment's lowering applies; `None` for anything else (which reads the extents
    /// back, module `probe`).
    pub(super) fn on_extents(
        &mut self,
        p: Prim,
        name: &str,
        e: &Expr,
        args: &[Val],
    ) -> R<Option<Val>> {
        let general = |a: &Arr| a.run_dims.is_some();
        let f = self.fresh.clone();
        let out = match (p, args) {
            (Prim::Transp, [Val::Arr(a)]) if general(a) => {
                let perm: Vec<usize> = (0..a.shape.len()).rev().collect();
                permuted(&f, a, &perm)
            }
            (Prim::Transp2, [Val::Arr(q), Val::Arr(a)]) if general(a) && q.known.is_some() => {
                let Some(ks) = q.known.as_deref().and_then(known_ints) else {
                    return Ok(None);
                };
                let r = a.shape.len();
                let perm: Vec<usize> = ks.iter().map(|&k| (k - 1).max(0) as usize).collect();
                let mut seen = vec![false; r];
                let valid = ks.len() == r
                    && perm
                        .iter()
                        .all(|&k| k < r && !std::mem::replace(&mut seen[k], true));
                if !valid {
                    // the oracle's own failure, on an array of the same rank
                    let ones = Array {
                        shape: vec![1; r],
                        ..Array::int_vec(vec![0])
                    };
                    return match semantics::tail::ops::shape::transp2(&ks, &ones) {
                        Err(reason) => Err(fails(p, name, e, reason)),
                        Ok(_) => Ok(None),
                    };
                }
                permuted(&f, a, &perm)
            }
            // a permutation computed from data, of a static array too
            (Prim::Transp2, [Val::Arr(q), Val::Arr(a)])
                if q.known.is_none() && q.run_len.is_none() && q.shape == [a.shape.len()] =>
            {
                match self.transp2_computed(e, q, a) {
                    Some(out) => out,
                    None => return Ok(None),
                }
            }
            (Prim::Vreverse, [Val::Arr(a)]) if general(a) => {
                let src = a.clone();
                let d0 = divisor(&extents_of(a)[0]);
                self.same_extents(a, move |cs| {
                    let mut s = cs.to_vec();
                    s[0] = fcl!("{d0} - 1 - {}", cs[0]);
                    read(&src, &s)
                })
            }
            // (rotate of rows the device counts: module `dynamic`, `on_rows`)
            (Prim::Vrotate | Prim::Rotate, [Val::Arr(n), Val::Arr(a)])
                if general(a)
                    && n.shape.is_empty()
                    && n.ty == Ty::Int
                    && !(p == Prim::Rotate && rows_dynamic(a)) =>
            {
                let axis = if p == Prim::Vrotate {
                    0
                } else {
                    a.shape.len() - 1
                };
                let d = divisor(&extents_of(a)[axis]);
                let (src, n) = (a.clone(), n.expr());
                self.same_extents(a, move |cs| {
                    let mut s = cs.to_vec();
                    s[axis] = fcl!("({} + {}) % {d}", cs[axis], wrapped(&n, &d));
                    read(&src, &s)
                })
            }
            (Prim::Drop, [Val::Arr(n), Val::Arr(a)])
                if (general(a) || counted_rows(n, a)) && n.shape.is_empty() && n.ty == Ty::Int =>
            {
                let dims = extents_of(a);
                let (n, d0) = (n.expr(), dims[0].clone());
                let mut out_dims = dims.clone();
                out_dims[0] = fcl!("(maxi 0 ({d0} - (if lti {n} 0 then 0 - {n} else {n})))");
                let len = after_checks_of(a, product(&out_dims));
                let (src, last) = (a.clone(), divisor(&d0));
                let mut out = by_coords(&f, a.ty, a.shape.clone(), out_dims, len, move |cs| {
                    let mut s = cs.to_vec();
                    s[0] = fcl!("(mini ({} + (maxi 0 {n})) ({last} - 1))", cs[0]);
                    read(&src, &s)
                });
                out.range = a.range;
                out
            }
            // (a known count of rows the device counts: module `dynamic`, `taken_rows`)
            (Prim::Take, [Val::Arr(n), Val::Arr(a)])
                if (general(a) || counted_rows(n, a))
                    && n.shape.is_empty()
                    && n.ty == Ty::Int
                    && !super::dynamic::takes_rows(args) =>
            {
                // (a count of no useful bound: an array of unbounded extents, module
                // `capacity`)
                let cap = super::counts::count_capacity(n);
                let dims = extents_of(a);
                let (n, d0) = (n.expr(), dims[0].clone());
                let mut out_dims = dims.clone();
                out_dims[0] = fcl!("(if lti {n} 0 then 0 - {n} else {n})");
                let mut caps = a.shape.clone();
                caps[0] = cap;
                let len = after_checks_of(a, product(&out_dims));
                let (src, ty, last) = (a.clone(), a.ty, divisor(&d0));
                let taken = out_dims[0].clone();
                let mut out = by_coords(&f, a.ty, caps, out_dims, len, move |cs| {
                    // the source row: the same from the front, or |n| − d0 rows further on
                    // from the end; a fill outside 0..d0
                    let row = fcl!(
                        "(if lti {n} 0 then {} - ({taken} - {d0}) else {})",
                        cs[0],
                        cs[0]
                    );
                    let mut s = cs.to_vec();
                    s[0] = fcl!("(mini (maxi 0 {row}) ({last} - 1))");
                    fcl!(
                        "(if andb (lti {row} {d0}) (lti (0 - 1) {row}) then {} else {})",
                        read(&src, &s),
                        ty.fill()
                    )
                });
                out.range = a.range_with_fill();
                out
            }
            (Prim::Cat, [Val::Arr(a), Val::Arr(b)]) if joinable(a, b) => {
                catenated(&f, p, e.span, a, b)
            }
            // (3.64) a column in front of, or after, the rows: `cat` of it as one more axis of 1
            (Prim::Cons, [Val::Arr(x), Val::Arr(a)]) if joinable(&column(x), a) => {
                catenated(&f, p, e.span, &column(x), a)
            }
            (Prim::Snoc, [Val::Arr(a), Val::Arr(x)]) if joinable(a, &column(x)) => {
                catenated(&f, p, e.span, a, &column(x))
            }
            // (3.68) arrays whose extents may differ: checked equal when the program runs,
            // then mapped over the same extents (module `higher`)
            (Prim::ZipWith, [fun, Val::Arr(a), Val::Arr(b)])
                if (general(a) || general(b))
                    && a.shape.len() == b.shape.len()
                    && a.shape.len() >= 2
                    && (a.run_dims != b.run_dims || a.shape != b.shape) =>
            {
                let (a, b) = of_same_extents(&f, e.span, a, b);
                return self
                    .apply_op(p, name, e, vec![fun.clone(), Val::Arr(a), Val::Arr(b)])
                    .map(Some);
            }
            (Prim::IdxS, [Val::Arr(d), Val::Arr(i), Val::Arr(a)])
                if general(a) && !rows_dynamic(a) =>
            {
                let Some(semantics::tail::value::Scalar::Int(d)) = d.known_scalar() else {
                    return Ok(None);
                };
                let (dims, r) = (extents_of(a), a.shape.len());
                if d < 1 || d as usize > r {
                    return Ok(None);
                }
                let axis = d as usize - 1;
                let checked = super::check::checked_index(&f, e.span, &i.expr(), &dims[axis], true);
                let mut out_dims = dims.clone();
                out_dims.remove(axis);
                let mut caps = a.shape.clone();
                caps.remove(axis);
                let len = after_checks_of(
                    a,
                    fcl!("(if lti 0 {checked} then {} else 0)", product(&out_dims)),
                );
                let (src, at) = (a.clone(), fcl!("({checked} - 1)"));
                let mut out = by_coords(&f, a.ty, caps, out_dims, len, move |cs| {
                    let mut s = cs.to_vec();
                    s.insert(axis, at.clone());
                    read(&src, &s)
                });
                out.range = a.range;
                out
            }
            (Prim::Reduce | Prim::Scan, [fun, Val::Arr(z), Val::Arr(a)])
                if general(a)
                    && !self.kernel
                    && a.ty != Ty::Complex
                    && !(rows_dynamic(a) && neutral(fun, a.ty).is_some()) =>
            {
                return self.reduce_extents(p, e, fun, z, a).map(Some);
            }
            _ => return Ok(None),
        };
        Ok(Some(Val::Arr(out)))
    }

    /// (3.41) `transp2(q, a)` by a permutation `q` computed from data: result extent k is
    /// the extent of the axis i with q_i = k + 1, chosen when the program runs, its capacity
    /// the largest of a's; `q` is checked to be a permutation of 1…r there (the oracle's
    /// reason names its values, which a check site cannot). `None` where the capacities'
    /// product would pass [`MAX_CAPACITY`](super::capacity::MAX_CAPACITY), or for a vector.
    fn transp2_computed(&self, e: &Expr, q: &Arr, a: &Arr) -> Option<Arr> {
        let r = a.shape.len();
        let cap = a.shape.iter().copied().max()?;
        let size = (0..r).try_fold(1usize, |acc, _| acc.checked_mul(cap))?;
        if r < 2 || size > super::capacity::MAX_CAPACITY {
            return None;
        }
        let f = self.fresh.clone();
        let ps: Vec<Fcl> = (0..r).map(|i| (q.index)(&int(i as i64))).collect();
        let dims = extents_of(a);
        let out_dims: Vec<Fcl> = (0..r)
            .map(|k| {
                (0..r).rev().fold(int(0), |rest, i| {
                    fcl!("(if {} == {} then {} else {rest})", ps[i], k + 1, dims[i])
                })
            })
            .collect();
        let outside = (0..r).map(|i| fcl!("(orb (lti {} 1) (lti {r} {}))", ps[i], ps[i]));
        let repeated = (0..r).flat_map(|i| {
            let ps = ps.clone();
            (i + 1..r).map(move |j| fcl!("({} == {})", ps[i], ps[j]))
        });
        let bad = outside
            .chain(repeated)
            .reduce(|x, y| fcl!("(orb {x} {y})"))
            .unwrap_or_else(|| fcl!("false"));
        let len = after_checks_of(a, product(&out_dims));
        let len = super::check::checked_permutation(&f, e.span, &bad, &len);
        let src = a.clone();
        let mut out = by_coords(&f, a.ty, vec![cap; r], out_dims, len, move |cs| {
            // source axis i reads result coordinate q_i − 1, within the axis (junk where q
            // is no permutation, which then fails)
            let source: Vec<Fcl> = (0..r)
                .map(|i| {
                    let c = super::coords::select(&fcl!("({} - 1)", ps[i]), cs);
                    fcl!("(mini (maxi 0 {c}) ({} - 1))", divisor(&dims[i]))
                })
                .collect();
            read(&src, &source)
        });
        out.range = a.range;
        Some(out)
    }

    /// `a`'s extents and length, elements by `element` of the coordinates.
    fn same_extents(&self, a: &Arr, element: impl Fn(&[Fcl]) -> Fcl + 'static) -> Arr {
        let len = (*super::value::length_expr(a)).clone();
        let mut out = by_coords(
            &self.fresh,
            a.ty,
            a.shape.clone(),
            extents_of(a),
            len,
            element,
        );
        out.range = a.range;
        out
    }
}
