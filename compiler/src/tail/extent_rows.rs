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
use super::tree::{fcl, int, Fcl};
use super::value::{share, Arr, Val, R};
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
        // reduce: each row's last prefix; an empty last axis under rows fails (3.37)
        let len = after_checks_of(a, rows.clone());
        let len = checked_nonempty_rows(&f, e.span, &rows, &last, &len);
        let reduced = per_row;
        let last_cell = divisor(&last);
        let out = by_coords(
            &f,
            ty,
            a.shape[..r - 1].to_vec(),
            outer.clone(),
            len,
            move |cs| {
                let row = flat(cs, &outer);
                match reduced_per_row {
                    // (module `dynamic` reduced the padded rows: one value per row)
                    true => (reduced.index)(&row),
                    false => (reduced.index)(&fcl!("{row} * {m1} + {last_cell} - 1")),
                }
            },
        );
        Ok(Val::Arr(out))
    }
}
