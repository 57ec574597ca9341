//! `reduce` and `scan` (3.37, 3.67) along the last axis of an array of run-time extents
//! ([`Arr::run_dims`], module `extents`): its K rows (the other axes' capacities' product)
//! padded to the last axis's capacity m. With a neutral element, the padding holds it and
//! module `dynamic` reduces rows of the static length m (trees, block scans); with none (`subi`,
//! a lambda), one thread per row scans the row's run-time length (`seqfor`, which the FCL
//! compiler carries in a scalar). A `reduce` of rows whose last extent is 0 fails as the
//! oracle's 3.37.

use super::check::checked_nonempty_rows;
use super::dynamic::neutral;
use super::extents::{after_checks_of, by_coords, divisor, extents_of, flat, product};
use super::lowerer::Lowerer;
use super::tree::{fcl, fcl_stmt, int, Fcl};
use super::value::{length_expr, share, Arr, Fresh, Val, R};
use semantics::tail::ops::prim::Prim;
use semantics::tail::syntax::Expr;
use std::rc::Rc;

impl Lowerer {
    /// `reduce(f, z, a)` or `scan(f, z, a)` along the last axis of `a` (run-time extents):
    /// the rows padded to the last axis's capacity m, K = the other capacities' product rows.
    pub(super) fn reduce_extents(
        &mut self,
        p: Prim,
        e: &Expr,
        fun: &Val,
        z: &Arr,
        a: &Arr,
    ) -> R<Val> {
        if a.has_unbounded_extents() {
            return self.reduce_unbounded_rows(p, e, fun, a);
        }
        let (dims, ty) = (extents_of(a), a.ty);
        let r = dims.len();
        let (m, k) = (a.shape[r - 1], a.shape[..r - 1].iter().product::<usize>());
        let (outer, last) = (dims[..r - 1].to_vec(), dims[r - 1].clone());
        let rows = product(&outer);
        let step = divisor(&last);
        let f = self.fresh.clone();
        // the element at (row, j) of the padded rows: a's, for j below the last extent
        let src = a.clone();
        let at = move |row: &Fcl, j: &Fcl| (src.index)(&fcl!("{row} * {step} + {j}"));
        let neutral_rows = neutral(fun, ty).filter(|_| m > 0);
        let reduced_per_row = neutral_rows.is_some();
        let per_row = match neutral_rows {
            Some((n, _)) => {
                let (at, last) = (at.clone(), last.clone());
                let g = f.clone();
                let mut padded = Arr::new(ty, vec![k, m], move |q: &Fcl| {
                    share(&g, q, |q| {
                        let j = fcl!("({q} % {m})");
                        let x = at(&fcl!("({q} / {m})"), &j);
                        fcl!("(if lti {j} {last} then {x} else {n})")
                    })
                });
                padded.range = a.range;
                padded.run_len = Some(Rc::new(fcl!("{rows} * {m}")));
                padded.run_dims = Some(vec![Rc::new(rows.clone()), Rc::new(int(m as i64))].into());
                let out =
                    self.reduction(p, vec![fun.clone(), Val::Arr(z.clone()), Val::Arr(padded)])?;
                out.arr()?.clone()
            }
            None => {
                if super::apply::scalar_result(&f, fun, &[ty, ty])? != ty {
                    return super::value::unsupported(
                        "a reduce/scan function whose result type differs",
                    );
                }
                // one thread per row over the row's run-time length (none past the rows)
                let padded = Arr::new(ty, vec![k, m.max(1)], move |q: &Fcl| {
                    at(&fcl!("({q} / {})", m.max(1)), &fcl!("({q} % {})", m.max(1)))
                });
                let (rows, last) = (rows.clone(), last.clone());
                let row_len = move |row: &Fcl| fcl!("(if lti {row} {rows} then {last} else 0)");
                let name = self.fresh.name("r");
                self.scan_rows(
                    &name,
                    fun,
                    &padded,
                    k.max(1),
                    &int(m.max(1) as i64),
                    Some(&row_len),
                );
                Arr::new(ty, vec![k.max(1), m.max(1)], move |i| {
                    ty.load(&fcl!("(index {name} {i})"))
                })
            }
        };
        let m1 = m.max(1);
        if p == Prim::Scan {
            let len = (*super::value::length_expr(a)).clone();
            let (scanned, outer_dims) = (per_row, outer.clone());
            let out = by_coords(&f, ty, a.shape.clone(), dims.clone(), len, move |cs| {
                let row = flat(&cs[..r - 1], &outer_dims);
                (scanned.index)(&fcl!("{row} * {m1} + {}", cs[r - 1]))
            });
            return Ok(Val::Arr(out));
        }
        // reduce: each row's last prefix
        let (reduced, last_cell) = (per_row, divisor(&last));
        let out = reduced_rows(&f, e, a, outer, &last, move |row| match reduced_per_row {
            // (module `dynamic` reduced the padded rows: one value per row)
            true => (reduced.index)(row),
            false => (reduced.index)(&fcl!("{row} * {m1} + {last_cell} - 1")),
        });
        Ok(Val::Arr(out))
    }
}

impl Lowerer {
    /// `reduce(f, z, a)` or `scan(f, z, a)` along the last axis of an array of unbounded
    /// extents (module `capacity`), whose rows cannot be padded to a capacity: in apltail's
    /// order (as a vector's sequential fold, module `dynamic`), `reduce` by one thread per
    /// row, launched over the run-time rows, folding the row's run-time length (rows of no
    /// elements fail, 3.37); `scan` by one thread per element, folding the row's prefix up to
    /// it (work quadratic in the rows' length: a short row is the common case).
    fn reduce_unbounded_rows(&mut self, p: Prim, e: &Expr, fun: &Val, a: &Arr) -> R<Val> {
        let (dims, ty) = (extents_of(a), a.ty);
        if super::apply::scalar_result(&self.fresh, fun, &[ty, ty])? != ty {
            return super::value::unsupported("a reduce/scan function whose result type differs");
        }
        let r = dims.len();
        let (outer, last) = (dims[..r - 1].to_vec(), dims[r - 1].clone());
        let rows = product(&outer);
        let a = self.materialize(a, "an array of unbounded extents, before folding its rows");
        let step = self.step_fn(fun, ty);
        let (name, e_at, row, j) = (
            self.fresh.name("r"),
            self.fresh.name("e"),
            self.fresh.name("row"),
            self.fresh.name("j"),
        );
        let d = divisor(&last);
        // a thread per row (reduce) or per element (scan): its row, and how many elements of
        // the row it folds after the first
        let scan = p == Prim::Scan;
        let (n, at_row, folded) = match scan {
            true => (
                self.host_count(fcl!("(maxi 1 {})", length_expr(&a))),
                fcl!("{e_at} / {d}"),
                fcl!("{e_at} % {d}"),
            ),
            // (rows of no elements fail below: one thread then)
            false => (
                self.host_count(fcl!("(maxi 1 (if {last} == 0 then 1 else {rows}))")),
                fcl!("{e_at}"),
                fcl!("(maxi ({last} - 1) 0)"),
            ),
        };
        // (a row of no elements reads nothing)
        let first = ty.store(&fcl!(
            "(if lti 0 {last} then {} else {})",
            (a.index)(&fcl!("{row} * {d}")),
            ty.fill()
        ));
        let rest = ty.store(&(a.index)(&fcl!("{row} * {d} + 1 + {j}")));
        self.comment(format!(
            "{}: one thread per {} of an array of unbounded extents",
            p.name(),
            if scan { "element" } else { "row" }
        ));
        self.stmt(fcl_stmt!(
            "{name} <- forceM<grid> (concat<block> 256 (generate (({n} + 255) / 256) \
             (fn b => concat<thread> 1 (generate 256 (fn t => \
             let {e_at} = mini (b * 256 + t) ({n} - 1) in let {row} = {at_row} in return<thread> \
             (foldl {step} {first} (generate {folded} (fn {j} => {rest}))))))))"
        ));
        if scan {
            // the elements in a's order, of a's extents
            let mut out = Arr::new(ty, a.shape.clone(), move |i: &Fcl| {
                ty.load(&fcl!("(index {name} (mini {i} ({n} - 1)))"))
            });
            out.run_len = a.run_len.clone();
            out.run_dims = a.run_dims.clone();
            return Ok(Val::Arr(out));
        }
        let out = reduced_rows(&self.fresh, e, &a, outer, &last, move |row| {
            ty.load(&fcl!("(index {name} (mini {row} ({n} - 1)))"))
        });
        Ok(Val::Arr(out))
    }
}

/// `reduce`'s result along the last axis of `a` (of extents `outer` and `last`): the value of
/// each row by `at_row` of its flat index, of the extents `outer`; rows of no elements fail
/// (3.37), a check in its length.
fn reduced_rows(
    f: &Fresh,
    e: &Expr,
    a: &Arr,
    outer: Vec<Fcl>,
    last: &Fcl,
    at_row: impl Fn(&Fcl) -> Fcl + 'static,
) -> Arr {
    let rows = product(&outer);
    let len = after_checks_of(a, rows.clone());
    let len = checked_nonempty_rows(f, e.span, &rows, last, &len);
    let caps = a.shape[..a.shape.len() - 1].to_vec();
    by_coords(f, a.ty, caps, outer.clone(), len, move |cs| {
        at_row(&flat(cs, &outer))
    })
}
