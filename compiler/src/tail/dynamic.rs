//! Reductions over vectors whose length the device computes ([`Arr::run_len`]): a filter's
//! result, or the state of a `power` loop that filters. Such a vector is its capacity's
//! elements, of which the first `len` are the value; the rest are junk whose computation
//! cannot fail (module `value`, [`Arr::dynamic`]).
//!
//! * An operator with a neutral element n (`f(n, acc) = acc`: `addi` and 0, even where it
//!   checks overflow, since adding 0 never overflows; `addd` and −0.0; `maxd` and −inf; …)
//!   reduces or scans the capacity with the junk replaced by n, so every static lowering of
//!   module `reduce` (trees, blocks, sequential folds) applies; a reduction of an empty
//!   vector is then its given neutral element z.
//! * Any other function folds sequentially over the run-time length (a thread-level `foldl`
//!   over `generate (len - 1)`), in apltail's order.

use super::program::Lowerer;
use super::range::Range;
use super::value::{unsupported, Arr, Fun, Ty, Val, R};
use semantics::tail::ops::prim::Prim;
use semantics::tail::value::Scalar;

/// An element n of type `ty` with `f(n, acc) = acc` for every `acc` of the reduction
/// (apltail's `acc := f(x_j)(acc)`), as FCL text and as a value.
fn neutral(f: &Val, ty: Ty) -> Option<(&'static str, Scalar)> {
    let Val::Fun(g) = f else { return None };
    let Fun::Op(p, _) = g.as_ref() else {
        return None;
    };
    Some(match (p, ty) {
        (Prim::Addi, Ty::Int) => ("0", Scalar::Int(0)),
        (Prim::Muli, Ty::Int) => ("1", Scalar::Int(1)),
        (Prim::Maxi, Ty::Int) => ("(0 - 2147483647 - 1)", Scalar::Int(i32::MIN)),
        (Prim::Mini, Ty::Int) => ("2147483647", Scalar::Int(i32::MAX)),
        // x + -0.0 is x, also for x = -0.0 (where + 0.0 gives 0.0)
        (Prim::Addd, Ty::Double) => ("(negd 0.0)", Scalar::Double(-0.0)),
        (Prim::Muld, Ty::Double) => ("1.0", Scalar::Double(1.0)),
        (Prim::Maxd, Ty::Double) => ("(negd (divd 1.0 0.0))", Scalar::Double(f64::NEG_INFINITY)),
        (Prim::Mind, Ty::Double) => ("(divd 1.0 0.0)", Scalar::Double(f64::INFINITY)),
        (Prim::Andb, Ty::Bool) => ("true", Scalar::Bool(true)),
        (Prim::Orb, Ty::Bool) => ("false", Scalar::Bool(false)),
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
        let ty = a.ty;
        if let Some((n, value)) = neutral(&f, ty) {
            let index = a.index.clone();
            let l = len.clone();
            let mut masked = Arr::new(ty, a.shape.clone(), move |i| {
                format!("(if lti {i} {l} then {} else {n})", index(i))
            });
            masked.range = a
                .range
                .zip(Range::of_scalar(value))
                .map(|(r, n)| r.union(n));
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
            let t = format!("(if {len} == 0 then {} else {})", z.text(), r.text());
            let mut out = Arr::scalar(ty, t);
            out.range = r.range.zip(z.range).map(|(r, z)| r.union(z));
            return Ok(Val::Arr(out));
        }
        if p == Prim::Scan || self.kernel || ty == Ty::Complex {
            let a = self.settle(&a, p.name())?;
            return self.reduction(p, vec![f, Val::Arr(z), Val::Arr(a)]);
        }
        if super::higher::scalar_result(&self.fresh, &f, &[ty, ty])? != ty {
            return unsupported("a reduce function whose result type differs");
        }
        // a sequential fold over the run-time length, in apltail's order
        let step = self.step_fn(&f, ty);
        let (r, j) = (self.fresh.name("r"), self.fresh.name("j"));
        let first = ty.store(&(a.index)("0"));
        let rest = ty.store(&(a.index)(&format!("(1 + {j})")));
        self.stmt(format!(
            "-- reduce: thread-level fold of a vector whose length is computed on the device\n    \
             {r} <- forceM<grid> (concat<block> 1 (generate 1 (fn b => concat<thread> 1 \
             (generate 1 (fn t => return<thread> (foldl {step} {first} \
             (generate (maxi ({len} - 1) 0) (fn {j} => {rest}))))))))"
        ));
        let t = format!(
            "(if {len} == 0 then {} else {})",
            z.text(),
            ty.load(&format!("(index {r} 0)"))
        );
        Ok(Val::Arr(Arr::scalar(ty, t)))
    }
}
