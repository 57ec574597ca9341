//! Reductions and rearrangements of vectors whose length the device computes
//! ([`Arr::run_len`]): a filter's result, or the state of a `power` loop that filters. Such a
//! vector is its capacity's elements, of which the first `len` are the value; the rest are junk
//! whose computation cannot fail (module `value`, [`Arr::dynamic`]).
//!
//! * `cat`, `cons` and `snoc` with such a vector: the lengths add, and so do the capacities.
//!   `vreverse` reads from its end, `rav` is the vector itself, and the `rav` of an array of
//!   run-time extents ([`Arr::run_dims`]) is its elements in flat order ([`rearranged`]; the
//!   other operators on such arrays: module `extents`).
//!
//! * An operator with a neutral element n (`f(n, acc) = acc`: `addi` and 0, even where it
//!   checks overflow, since adding 0 never overflows; `addd` and −0.0; `maxd` and −inf; …)
//!   reduces or scans the capacity with the junk replaced by n, so every static lowering of
//!   module `reduce` (trees, blocks, sequential folds) applies; a reduction of an empty
//!   vector is then its given neutral element z.
//! * Any other function folds sequentially over the run-time length (a thread-level `foldl`
//!   over `generate (len - 1)`), in apltail's order.

use super::capacity::UNBOUNDED;
use super::lowerer::Lowerer;
use super::range::Range;
use super::tree::{fcl, fcl_stmt, int, literal_index, Fcl};
use super::value::{known_int, length_expr, share, unsupported, Arr, Fresh, Fun, Ty, Val, R};
use semantics::tail::ops::prim::Prim;
use semantics::tail::syntax::Expr;
use semantics::tail::value::Scalar;
use std::rc::Rc;

/// An element n of type `ty` with `f(n, acc) = acc` for every `acc` of the reduction
/// (apltail's `acc := f(x_j)(acc)`), as an FCL expression and as a value.
pub(super) fn neutral(f: &Val, ty: Ty) -> Option<(Fcl, Scalar)> {
    let Val::Fun(g) = f else { return None };
    let Fun::Op(p, _) = g.as_ref() else {
        return None;
    };
    Some(match (p, ty) {
        (Prim::Addi, Ty::Int) => (fcl!("0"), Scalar::Int(0)),
        (Prim::Muli, Ty::Int) => (fcl!("1"), Scalar::Int(1)),
        (Prim::Maxi, Ty::Int) => (fcl!("(0 - 2147483647 - 1)"), Scalar::Int(i32::MIN)),
        (Prim::Mini, Ty::Int) => (fcl!("2147483647"), Scalar::Int(i32::MAX)),
        // x + -0.0 is x, also for x = -0.0 (where + 0.0 gives 0.0)
        (Prim::Addd, Ty::Double) => (fcl!("(negd 0.0)"), Scalar::Double(-0.0)),
        (Prim::Muld, Ty::Double) => (fcl!("1.0"), Scalar::Double(1.0)),
        (Prim::Maxd, Ty::Double) => (
            fcl!("(negd (divd 1.0 0.0))"),
            Scalar::Double(f64::NEG_INFINITY),
        ),
        (Prim::Mind, Ty::Double) => (fcl!("(divd 1.0 0.0)"), Scalar::Double(f64::INFINITY)),
        (Prim::Andb, Ty::Bool) => (fcl!("true"), Scalar::Bool(true)),
        (Prim::Orb, Ty::Bool) => (fcl!("false"), Scalar::Bool(false)),
        _ => return None,
    })
}

impl Lowerer {
    /// `reduce(f, z, a)` or `scan(f, z, a)` of a vector `a` whose length the device computes.
    pub(super) fn dynamic_reduction(&mut self, p: Prim, args: Vec<Val>) -> R<Val> {
        let (f, z, a) = (
            args[0].clone(),
            args[1].arr()?.clone(),
            args[2].arr()?.clone(),
        );
        let Some(len) = a.run_len.clone() else {
            return self.reduction(p, args);
        };
        if let Some(dims) = a.run_dims.clone() {
            return self.reduction_of_rows(p, f, z, a, &dims);
        }
        let ty = a.ty;
        // (an unbounded vector has no capacity to reduce over: module `capacity`)
        if let Some((n, value)) = neutral(&f, ty).filter(|_| !a.is_unbounded()) {
            let masked = masked(&a, n, value);
            let r = self.reduction(p, vec![f, Val::Arr(z.clone()), Val::Arr(masked)])?;
            let r = r.arr()?.clone();
            if p == Prim::Scan {
                // the prefixes of the first len elements are the scan; the rest is junk
                return Ok(Val::Arr(Arr {
                    run_len: Some(len),
                    known: None,
                    at: None,
                    transposed: None,
                    ..r
                }));
            }
            let t = fcl!("(if {len} == 0 then {} else {})", z.expr(), r.expr());
            let mut out = Arr::scalar(ty, t);
            out.range = r.range.zip(z.range).map(|(r, z)| r.union(z));
            return Ok(Val::Arr(out));
        }
        if a.is_unbounded() && !self.kernel {
            let out = match p {
                Prim::Scan => self.scan_unbounded(&f, &a),
                _ => self.reduce_unbounded(&f, &z, &a),
            };
            if let Some(out) = out {
                return Ok(Val::Arr(out));
            }
        }
        // what has no lowering over the run-time length reads the length back
        if self.kernel {
            let a = self.settle(&a, p.name())?;
            return self.reduction(p, vec![f, Val::Arr(z), Val::Arr(a)]);
        }
        if ty == Ty::Complex && p == Prim::Scan {
            // one thread scans the capacity, or an unbounded vector's run-time length, the
            // parts interleaved in a window the FCL compiler carries (as for other types
            // below)
            let (a, m) = self.scan_extent(&a, &len);
            let r = self.fresh.name("r");
            let mut out = self.scan_rows_complex(&r, &f, &a, 1, &m, Some(&len));
            out.run_len = Some(len);
            return Ok(Val::Arr(out));
        }
        if ty == Ty::Complex {
            // one thread folds the run-time length, as for other types below
            let a = self.materialize(&a, "complex numbers, before a sequential fold");
            let r = self.fresh.name("r");
            let folded = self.fold_rows_complex(&r, &f, &a, 1, &len).expr();
            let (zx, x) = (self.fresh.name("z"), self.fresh.name("x"));
            let t = fcl!(
                "(let {zx} = {} in let {x} = {folded} in \
                 (if {len} == 0 then fst {zx} else fst {x}, if {len} == 0 then snd {zx} else snd {x}))",
                z.expr()
            );
            return Ok(Val::Arr(Arr::scalar(ty, t)));
        }
        if super::apply::scalar_result(&self.fresh, &f, &[ty, ty])? != ty {
            return unsupported("a reduce/scan function whose result type differs");
        }
        if p == Prim::Scan {
            // one thread scans the capacity in apltail's order, the junk past the length
            // keeping the last prefix (`f` never sees it: it cannot fail there); an unbounded
            // vector, its elements computed in parallel first, over its run-time length (at
            // least one position, which a consumer of an empty vector may read)
            let (a, m) = self.scan_extent(&a, &len);
            let r = self.fresh.name("r");
            self.scan_rows(&r, &f, &a, 1, &m, Some(&|_: &Fcl| (*len).clone()));
            let mut out = Arr::new(ty, a.shape.clone(), move |i| {
                ty.load(&fcl!("(index {r} {i})"))
            });
            out.run_len = Some(len);
            return Ok(Val::Arr(out));
        }
        // a sequential fold over the run-time length, in apltail's order (an unbounded
        // vector's elements computed in parallel first: it may be long)
        let a = if a.is_unbounded() {
            self.materialize(&a, "an unbounded vector, before a sequential fold")
        } else {
            a
        };
        let step = self.step_fn(&f, ty);
        let (r, j) = (self.fresh.name("r"), self.fresh.name("j"));
        let first = ty.store(&(a.index)(&int(0)));
        let rest = ty.store(&(a.index)(&fcl!("(1 + {j})")));
        self.comment(
            "reduce: thread-level fold of a vector whose length is computed on the device",
        );
        self.stmt(fcl_stmt!(
            "{r} <- forceM<grid> (concat<block> 1 (generate 1 (fn b => concat<thread> 1 \
             (generate 1 (fn t => return<thread> (foldl {step} {first} \
             (generate (maxi ({len} - 1) 0) (fn {j} => {rest}))))))))"
        ));
        let t = fcl!(
            "(if {len} == 0 then {} else {})",
            z.expr(),
            ty.load(&fcl!("(index {r} 0)"))
        );
        Ok(Val::Arr(Arr::scalar(ty, t)))
    }
}

impl Lowerer {
    /// What one thread's sequential scan of a vector `a` of run-time length `len` runs over:
    /// `a` and its capacity, or an unbounded vector materialized (its elements computed in
    /// parallel first) and its run-time length, at least one position (which a consumer of
    /// an empty vector may read), as one count that the sizes and loops read alike.
    fn scan_extent(&mut self, a: &Arr, len: &Fcl) -> (Arr, Fcl) {
        match a.is_unbounded() {
            true => (
                self.materialize(a, "an unbounded vector, before a sequential scan"),
                self.host_count(fcl!("(maxi 1 {len})")),
            ),
            false => (a.clone(), int(a.size() as i64)),
        }
    }
}

impl Lowerer {
    /// `reduce(f, z, a)` or `scan(f, z, a)` along the last axis of an array `a` of run-time
    /// extents `dims` ([`Arr::run_dims`]): where only its first extent is computed
    /// ([`rows_dynamic`]) and `f` has a neutral element, the rows at the capacity with the
    /// junk rows' elements neutral (a junk row reduces to z, without failing); the result has
    /// the same run-time extents, less the last for `reduce`. Otherwise the extents are read
    /// back (module `probe`).
    fn reduction_of_rows(&mut self, p: Prim, f: Val, z: Arr, a: Arr, dims: &[Rc<Fcl>]) -> R<Val> {
        let Some((n, value)) = neutral(&f, a.ty).filter(|_| rows_dynamic(&a)) else {
            let a = self.settle_dims(&a, dims, p.name())?;
            return self.reduction(p, vec![f, Val::Arr(z), Val::Arr(a)]);
        };
        let masked = masked(&a, n, value);
        let r = self.reduction(p, vec![f, Val::Arr(z), Val::Arr(masked)])?;
        let r = r.arr()?.clone();
        let last = (p == Prim::Reduce).then(|| dims.len() - 1);
        Ok(Val::Arr(with_rows_of(&a, r, last)))
    }
}

impl Lowerer {
    /// `rotate` or `idxS` (`p`, spelled `name`, at `e`) of an array whose rows the device
    /// counts ([`rows_dynamic`]): the operator on the rows at their capacity, whose junk rows
    /// stay junk, with the run-time extents of the result; `None` for anything else.
    pub(super) fn on_rows(
        &mut self,
        p: Prim,
        name: &str,
        e: &Expr,
        args: &[Val],
    ) -> R<Option<Val>> {
        match (p, args) {
            // along the static last axis: the same extents
            (Prim::Rotate, [n, Val::Arr(a)]) if rows_dynamic(a) => {
                let rows = at_capacity(a);
                let rotated = self.apply_op(p, name, e, vec![n.clone(), Val::Arr(rows)])?;
                Ok(Some(Val::Arr(with_rows_of(
                    a,
                    rotated.arr()?.clone(),
                    None,
                ))))
            }
            // a row (its index checked against the rows' count), static; or a slice along
            // another axis, of the same rows
            (Prim::IdxS, [Val::Arr(d), _, Val::Arr(a)]) if rows_dynamic(a) => {
                let Ok(d) = known_int(d, "") else {
                    return Ok(None);
                };
                let mut args = args.to_vec();
                self.check_slice_index(e, &mut args);
                args[2] = Val::Arr(at_capacity(a));
                let r = self.apply_op(p, name, e, args)?.arr()?.clone();
                if d == 1 {
                    return Ok(Some(Val::Arr(r)));
                }
                Ok(Some(Val::Arr(with_rows_of(a, r, Some(d as usize - 1)))))
            }
            _ => Ok(None),
        }
    }
}

/// Whether `a`, of run-time extents ([`Arr::run_dims`]), has every extent but the first
/// static and positive: its first `run_len` positions are then its rows at the capacity's
/// layout, and per-row operators take it as it is ([`Lowerer::reduction_of_rows`],
/// [`Lowerer::on_rows`], [`taken_rows`], `idxassign`).
pub(super) fn rows_dynamic(a: &Arr) -> bool {
    // (rows at the capacity: not those of an array of unbounded extents, module `capacity`)
    !a.has_unbounded_extents()
        && a.run_dims.as_deref().is_some_and(|dims| {
            dims.len() >= 2
                && dims[1..]
                    .iter()
                    .zip(&a.shape[1..])
                    .all(|(d, &c)| c > 0 && literal_index(d) == Some(c))
        })
}

/// The number of rows of `a`, an array whose rows the device counts ([`rows_dynamic`]), as
/// its length gives it, so that the check of its extents runs wherever it is read.
pub(super) fn rows_expr(a: &Arr) -> Rc<Fcl> {
    let row: usize = a.shape[1..].iter().product();
    Rc::new(fcl!("({} / {row})", length_expr(a)))
}

/// `r`, what a per-row operator made of `a` at its capacity, with `a`'s rows: `a`'s run-time
/// extents, less axis `dropped` where the operator removed one (then the rows' count as a's
/// length gives it, [`rows_expr`]).
fn with_rows_of(a: &Arr, r: Arr, dropped: Option<usize>) -> Arr {
    let (run_len, run_dims) = match dropped {
        None => (a.run_len.clone(), a.run_dims.clone()),
        Some(axis) => {
            let dims = a.run_dims.as_deref().unwrap_or_default();
            let mut kept = vec![rows_expr(a)];
            kept.extend(
                (1..dims.len())
                    .filter(|&k| k != axis)
                    .map(|k| dims[k].clone()),
            );
            // the rows' count times each kept extent, associating to the left
            let len = kept
                .iter()
                .skip(1)
                .fold((*kept[0]).clone(), |acc, d| fcl!("{acc} * {d}"));
            (Some(Rc::new(len)), (kept.len() > 1).then(|| kept.into()))
        }
    };
    Arr {
        run_len,
        run_dims,
        known: None,
        at: None,
        transposed: None,
        ..r
    }
}

/// `a`, an array whose rows the device counts, at its capacity (its junk rows fills): a
/// static array that a per-row operator takes as it is.
pub(super) fn at_capacity(a: &Arr) -> Arr {
    Arr {
        run_len: None,
        run_dims: None,
        ..a.clone()
    }
}

/// `a` (of run-time length) at its capacity, with the junk past its length replaced by the
/// neutral element `n` (`value`).
fn masked(a: &Arr, n: Fcl, value: Scalar) -> Arr {
    let (index, l) = (a.index.clone(), length_expr(a));
    let mut masked = Arr::new(a.ty, a.shape.clone(), move |i: &Fcl| {
        fcl!("(if lti {i} {l} then {} else {n})", index(i))
    });
    masked.range = a
        .range
        .zip(Range::of_scalar(value))
        .map(|(r, n)| r.union(n));
    masked
}

/// Whether `cat`, `cons` or `snoc` of these arguments is lowered by [`joined`]: vectors (and
/// a scalar for `cons`/`snoc`), one of them of run-time length.
pub(super) fn joins_dynamic(p: Prim, args: &[Val]) -> bool {
    let ranks: &[usize] = match p {
        Prim::Cat => &[1, 1],
        Prim::Cons => &[0, 1],
        Prim::Snoc => &[1, 0],
        _ => return false,
    };
    args.len() == 2
        && args
            .iter()
            .zip(ranks)
            .all(|(v, &r)| matches!(v, Val::Arr(a) if a.shape.len() == r && a.run_dims.is_none()))
        && args
            .iter()
            .any(|v| matches!(v, Val::Arr(a) if a.is_dynamic()))
}

/// `cat`, `cons`, `snoc`, `vreverse`, `rav` or `take` (`p`) of arguments of run-time
/// shape, where the module comment's lowerings apply; `None` elsewhere.
pub(super) fn rearranged(f: &Fresh, p: Prim, args: &[Val]) -> Option<Arr> {
    match (p, args) {
        (Prim::Cat | Prim::Cons | Prim::Snoc, _) => joined(f, p, args),
        (Prim::Vreverse | Prim::Rav, [Val::Arr(a)]) => reversed(f, p, a),
        (Prim::Take, [Val::Arr(n), Val::Arr(a)]) => taken_rows(f, n, a),
        _ => None,
    }
}

/// Whether `take(n, a)` of an array `a` of run-time extents is lowered by [`taken_rows`].
pub(super) fn takes_rows(args: &[Val]) -> bool {
    match args {
        [Val::Arr(n), Val::Arr(a)] => rows_dynamic(a) && n.known_scalar().is_some(),
        _ => false,
    }
}

/// (3.43)/(3.44) `take(n, a)`, n known, of an array `a` whose first extent d the device
/// computes ([`rows_dynamic`]): the static shape `[|n|, …]`, its first (n ≥ 0) or last |n|
/// rows, fills past a's rows. The rows sit at the capacity's layout, so a result position p
/// is a's position p (n ≥ 0), or p + (d − |n|)·row.
fn taken_rows(f: &Fresh, n: &Arr, a: &Arr) -> Option<Arr> {
    let (true, Some(Scalar::Int(n))) = (rows_dynamic(a), n.known_scalar()) else {
        return None;
    };
    let row: usize = a.shape[1..].iter().product();
    let mut shape = a.shape.clone();
    shape[0] = n.unsigned_abs() as usize;
    let (index, len, ty, g) = (a.index.clone(), length_expr(a), a.ty, f.clone());
    let taken = shape[0] * row;
    let element = move |p: &Fcl| {
        if n >= 0 {
            fcl!("(if lti {p} {len} then {} else {})", index(p), ty.fill())
        } else {
            share(&g, &fcl!("({p} + {len} - {taken})"), |q| {
                fcl!("(if lti {q} 0 then {} else {})", ty.fill(), index(q))
            })
        }
    };
    let mut out = Arr::new(ty, shape, element);
    out.range = a.range_with_fill();
    Some(out)
}

/// `cat(a, b)`, `cons(x, b)` or `snoc(a, x)` with a vector of run-time length
/// ([`joins_dynamic`]): element i is a's below a's length, then b's; the capacities add (of
/// an unbounded vector, module `capacity`, the result is unbounded).
fn joined(f: &Fresh, p: Prim, args: &[Val]) -> Option<Arr> {
    if !joins_dynamic(p, args) {
        return None;
    }
    let [Val::Arr(a), Val::Arr(b)] = args else {
        return None;
    };
    let part = |v: &Arr| match v.shape.len() {
        0 => (Rc::new(int(1)), 1),
        _ => (length_expr(v), v.shape[0]),
    };
    let ((la, ca), (lb, cb)) = (part(a), part(b));
    let (ia, ib) = (a.index.clone(), b.index.clone());
    let g = f.clone();
    let l = la.clone();
    let mut out = Arr::dynamic(
        a.ty,
        (ca + cb).min(UNBOUNDED),
        Rc::new(fcl!("({la} + {lb})")),
        Rc::new(move |i: &Fcl| {
            share(&g, i, |i| {
                fcl!(
                    "(if lti {i} {l} then {} else {})",
                    ia(i),
                    ib(&fcl!("({i} - {l})"))
                )
            })
        }),
    );
    out.range = a
        .range_with_fill()
        .zip(b.range_with_fill())
        .map(|(x, y)| x.union(y));
    Some(out)
}

/// `vreverse(a)` or `rav(a)` of a vector `a` of run-time length L: element i is a's L−1−i, or
/// a itself; the `rav` of an array of run-time extents is its elements in flat order, a vector
/// of run-time length. `None` for anything else.
fn reversed(f: &Fresh, p: Prim, a: &Arr) -> Option<Arr> {
    if p == Prim::Rav && a.is_dynamic() {
        return Some(Arr {
            shape: vec![a.size()],
            run_dims: None,
            at: None,
            transposed: None,
            ..a.clone()
        });
    }
    let len = a.run_len.clone().filter(|_| a.shape.len() == 1)?;
    let (index, g, l) = (a.index.clone(), f.clone(), len.clone());
    let mut out = Arr::dynamic(
        a.ty,
        a.shape[0],
        len,
        Rc::new(move |i: &Fcl| share(&g, &fcl!("({l} - 1 - {i})"), |j| index(j))),
    );
    out.range = a.range_with_fill();
    Some(out)
}
