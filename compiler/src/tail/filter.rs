//! `compress(b, a)` and `replicate(_, c, a)` whose mask or counts are computed from data
//! (spec §5.10): the result's length is the sum of the counts, known only once they are.
//!
//! The counts' inclusive prefix sum is materialized on the device (the scans of module
//! `reduce`). A `compress` result is then one scatter (a stable partition) whose length, the
//! last prefix sum, stays on the device: a vector of run-time length (module `dynamic`). A
//! `replicate` result is a pull array of run-time length too: of capacity n elements times
//! the largest count where the counts' range bounds it, else unbounded (module `capacity`):
//! element j comes from the first position i whose prefix sum exceeds j, found by a binary
//! search of ⌈log2 n⌉ steps unrolled into FCL. No element of the mask, the counts or the
//! data leaves the device, and nothing is read back.

use super::capacity::{MAX_CAPACITY, UNBOUNDED};
use super::check::of_same_length;
use super::fault::LoweringFault;
use super::lowerer::{fails, Lowerer};
use super::tree::{fcl, fcl_stmt, int, var, Fcl, Name};
use super::value::{share, unsupported, Arr, Fun, Ty, Val, R};
use semantics::tail::ops::prim::Prim;
use semantics::tail::ops::select;
use semantics::tail::syntax::Expr;
use semantics::tail::value::{Array, Scalar};
use std::rc::Rc;

impl Lowerer {
    /// `compress(sel, a)` (a bool mask) or `replicate(_, sel, a)` (int counts, a negative
    /// count standing for that many fills), with `sel` not known at compile time.
    pub(super) fn gather_dynamic(
        &mut self,
        p: Prim,
        name: &str,
        e: &Expr,
        sel: &Arr,
        a: &Arr,
    ) -> R<Val> {
        let refuse = || {
            unsupported(format!(
                "{name} inside a function body of an array not known at compile time (the \
                 mask or counts, which decide the result's length, are run-time data)"
            ))
        };
        if self.kernel {
            return refuse();
        }
        // a mask and vector whose length the device computes: the same length, or read back
        let (mut sel, mut a) = (sel.clone(), a.clone());
        let same = sel.run_len == a.run_len && sel.shape == a.shape;
        let vectors = sel.shape.len() == 1 && a.shape.len() == 1 && sel.size().min(a.size()) > 0;
        let dynamic = sel.is_dynamic() || a.is_dynamic();
        if dynamic && !same && vectors {
            // lengths that may differ: checked to be the same when the program runs, both
            // then within the smaller capacity
            (sel, a) = of_same_length(&self.fresh, p, e.span, &sel, &a);
        } else if dynamic && !same {
            sel = self.settle(&sel, name)?;
            a = self.settle(&a, name)?;
        }
        // an unbounded vector (module `capacity`): filtered as long as it is (where it is of
        // one length with the mask or counts), else its length read back
        let mut unbounded = sel.is_unbounded() || a.is_unbounded();
        if unbounded && sel.run_len != a.run_len {
            sel = self.settle(&sel, name)?;
            a = self.settle(&a, name)?;
            unbounded = false;
        }
        let (sel, a) = (&sel, &a);
        let len = a.run_len.clone();
        // the shapes the operator rejects (vectors of equal length only), with the oracle's
        // reason: the operator applied to fills of the same shapes
        if sel.shape.len() != 1 || a.shape.len() != 1 || sel.shape != a.shape {
            if sel.size().max(a.size()) > super::value::MAX_FILLS {
                return refuse();
            }
            let (s, x) = (sel.fills(), a.fills());
            let r = match p {
                Prim::Compress => select::compress(&s, &x),
                _ => select::replicate(&s, &x),
            };
            return Err(match r {
                Err(reason) => fails(p, name, e, reason),
                Ok(_) => return refuse(),
            });
        }
        let n = a.size();
        if n == 0 {
            let ty = a.ty;
            return Ok(Val::Arr(Arr::new(ty, vec![0], move |_| ty.fill())));
        }
        // how many result elements each position gives
        let (counts_of, fresh) = (sel.index.clone(), self.fresh.clone());
        let compress = p == Prim::Compress;
        // planted fault: a negative count gives nothing
        let no_fills = fresh.planted(LoweringFault::ReplicateNegative);
        let mut counts = Arr::new(Ty::Int, vec![n], move |i: &Fcl| {
            if let (true, Some(len)) = (compress, &len) {
                fcl!("(if lti {i} {len} then b2i {} else 0)", counts_of(i))
            } else if compress {
                fcl!("(b2i {})", counts_of(i))
            } else {
                let count = share(&fresh, &counts_of(i), |c| {
                    let fills = if no_fills { int(0) } else { fcl!("0 - {c}") };
                    fcl!("(if lti {c} 0 then {fills} else {c})")
                });
                // (past a run-time length: nothing)
                match &len {
                    Some(len) => fcl!("(if lti {i} {len} then {count} else 0)"),
                    None => count,
                }
            }
        });
        if unbounded {
            counts.run_len = a.run_len.clone();
        }
        let zero = Arr::known(Array::scalar(Scalar::Int(0)));
        let addi = Val::Fun(Rc::new(Fun::Op(Prim::Addi, semantics::Span::DUMMY)));
        let Val::Arr(sums) =
            self.reduction(Prim::Scan, vec![addi, Val::Arr(zero), Val::Arr(counts)])?
        else {
            return refuse();
        };
        let sums = self.materialize(&sums, &format!("the prefix sums of {name}'s counts"));
        // the elements searched: n, or an unbounded vector's run-time length
        let (last, extent) = match (unbounded, &a.run_len) {
            (true, Some(len)) => {
                // (an empty vector's total is 0, with no sum to read)
                let last = (sums.index)(&fcl!("({len} - 1)"));
                let total = fcl!("(if lti 0 {len} then {last} else 0)");
                (total, self.host_count((**len).clone()))
            }
            _ => ((sums.index)(&fcl!("{}", n - 1)), fcl!("{n}")),
        };
        if compress && a.ty != Ty::Complex {
            return Ok(Val::Arr(self.compress_scatter(a, &sums, &last, &extent)));
        }
        // a compress of complex numbers (two blocks of doubles, which the scatter does not
        // move) and a replicate search for their elements; the length stays on the device,
        // the capacity n elements times the largest count where the counts' range bounds
        // them, else unbounded (module `capacity`)
        let cap = match compress {
            true => n,
            false => replicate_capacity(sel, n).unwrap_or(UNBOUNDED),
        };
        let (ty, data, counts_of, fresh) =
            (a.ty, a.index.clone(), sel.index.clone(), self.fresh.clone());
        let sum_at = sums.index.clone();
        let index = move |j: &Fcl| {
            share(&fresh, j, |j| {
                let pos = search(&fresh, j, n, &extent, &*sum_at);
                if compress {
                    return pos.wrap(|i| data(i));
                }
                // a negative count gives fills
                pos.wrap(|i| {
                    fcl!(
                        "(if lti {} 0 then {} else {})",
                        counts_of(i),
                        ty.fill(),
                        data(i)
                    )
                })
            })
        };
        let mut out = Arr::dynamic(ty, cap, Rc::new(last), Rc::new(index));
        // the elements are the argument's, and fills (replicate's negative counts, the
        // elements of a compress result past its computed length)
        out.range = a.range_with_fill();
        if let (Some(s), Some(x)) = (&sel.known, &a.known) {
            let r = match p {
                Prim::Compress => select::compress(s, x),
                _ => select::replicate(s, x),
            };
            out.known = r.ok().map(Rc::new);
        }
        Ok(Val::Arr(out))
    }

    /// `compress` of `a` (n elements: its size, or an unbounded vector's run-time length) by
    /// the counts whose inclusive prefix sums are `sums` (total `len`) as one scatter: a
    /// stable partition, kept element i to `sums[i] − 1`, dropped element i to
    /// `len + i − sums[i]` (the positions past the length, so every position is written
    /// once), each element read once. The result's length stays on the device; its junk is
    /// the dropped elements, computed as the oracle computes them (all of `a`, by value).
    fn compress_scatter(&mut self, a: &Arr, sums: &Arr, len: &Fcl, n: &Fcl) -> Arr {
        let ty = a.ty;
        // (at least one block: a consumer reads position 0 of an empty vector's buffer)
        let blocks = match super::tree::int_literal(n) {
            Some(n) => fcl!("{}", (n as usize).div_ceil(256)),
            None => fcl!("((maxi 1 {n} + 255) / 256)"),
        };
        let out = self.fresh.name("kept");
        let (s, prev, e) = (
            self.fresh.name("s"),
            self.fresh.name("s"),
            self.fresh.name("e"),
        );
        let sum_at = |i: &Fcl| (sums.index)(i);
        // planted fault: the kept element one place too far
        let kept_at = match self.fresh.planted(LoweringFault::CompressScatterOffset) {
            true => var(s.as_str()),
            false => fcl!("{s} - 1"),
        };
        let dest = fcl!(
            "let {e} = (fst q) * 256 + (snd q) in if lti {e} {n} then (let {s} = {} in \
             let {prev} = (if {e} == 0 then 0 else {}) in \
             if lti {prev} {s} then {kept_at} else {len} + {e} - {s}) else {e}",
            sum_at(&var(e.as_str())),
            sum_at(&fcl!("({e} - 1)")),
        );
        let elem = super::lowerer::stored_element(a, &var(e.as_str()));
        self.comment(
            "compress: the kept elements scattered to the front, in order (a stable partition)",
        );
        self.stmt(fcl_stmt!(
            "{out} <- forceM<grid> (interleave<block> 256 (fn q => {dest}) \
             (generate {} (fn b => return<block> (push<block> (generate 256 (fn u => \
             let {e} = b * 256 + u in if lti {e} {n} then {elem} else {}))))))",
            blocks,
            ty.store(&ty.fill()),
        ));
        let mut kept = Arr::new(ty, a.shape.clone(), move |i: &Fcl| {
            ty.load(&fcl!("(index {out} {i})"))
        });
        kept.run_len = Some(Rc::new(len.clone()));
        kept.range = a.range;
        kept
    }
}

/// The steps of a binary search (each a name and the expression it is bound to) and its
/// result (the last step's name).
struct Search {
    steps: Vec<(Name, Fcl)>,
    result: Fcl,
}

impl Search {
    /// `body` of the found position, inside the search's steps: `(fn p1 => … (fn pk => body)
    /// ek …) e1`, each bound by value.
    fn wrap(&self, body: impl FnOnce(&Fcl) -> Fcl) -> Fcl {
        let body = body(&self.result);
        self.steps.iter().rev().fold(body, |body, (name, bound)| {
            fcl!("((fn {name} => {body}) ({bound}))")
        })
    }
}

/// The capacity of a `replicate` of n elements by `counts` whose range bounds every count's
/// magnitude: n times that bound, where at most [`MAX_CAPACITY`] and not 0.
fn replicate_capacity(counts: &Arr, n: usize) -> Option<usize> {
    let r = counts.range?;
    let c = r.lo.abs().max(r.hi.abs());
    let cap = c * n as f64;
    (cap >= 1.0 && cap <= MAX_CAPACITY as f64).then_some(cap as usize)
}

/// The first position i in 0..len whose prefix sum `sum_at(i)` exceeds `j` (one exists: j
/// is below the total): the number of prefix sums at most j, found bit by bit from the
/// highest power of two up to n, a static bound on the length `len` (an FCL int: n itself,
/// or an unbounded vector's run-time length). Each step names the previous position twice,
/// so it binds the next one by applying a function, not by `let`: the FCL oracle binds `let`s
/// by name, which would make its work double per step (2n sums read per element), while an
/// argument is evaluated once (compiled code computes each once either way).
fn search(
    fresh: &super::value::Fresh,
    j: &Fcl,
    n: usize,
    len: &Fcl,
    sum_at: &dyn Fn(&Fcl) -> Fcl,
) -> Search {
    let mut p = int(0);
    let mut steps = Vec::new();
    let mut bit = 1usize << (usize::BITS - 1 - n.leading_zeros());
    while bit > 0 {
        let q = fresh.name("p");
        // a step past the length reads the last sum, the total, which exceeds j: no step
        let sum = sum_at(&fcl!("(mini ({p} + {bit}) {len} - 1)"));
        // planted fault: `j <= sum` for `j < sum`
        let bound = if fresh.planted(LoweringFault::FilterSearchBound) {
            fcl!("{sum} + 1")
        } else {
            sum
        };
        steps.push((
            q.clone(),
            fcl!("{p} + {bit} - {bit} * b2i (lti {j} ({bound}))"),
        ));
        p = var(q.as_str());
        bit >>= 1;
    }
    Search { steps, result: p }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::tail::tree::parsed as p;

    #[test]
    fn the_search_binds_each_step_by_application() {
        let f = super::super::value::Fresh::default();
        let found = search(&f, &p("j"), 5, &p("5"), &|i| fcl!("(index s {i})")).wrap(|i| i.clone());
        assert_eq!(
            found,
            p("((fn p0 => ((fn p1 => ((fn p2 => p2) \
               (p1 + 1 - 1 * b2i (lti j ((index s (mini (p1 + 1) 5 - 1))))))) \
               (p0 + 2 - 2 * b2i (lti j ((index s (mini (p0 + 2) 5 - 1))))))) \
               (0 + 4 - 4 * b2i (lti j ((index s (mini (0 + 4) 5 - 1))))))")
        );
    }
}
