//! `gradeUp`/`gradeDown` (spec §5.10) of a vector not known at compile time: a bitonic sort
//! network over element indices on the device, for vectors shorter than
//! [`super::radix::RADIX_MIN`] (longer ones, and unbounded ones, take module `radix`).
//!
//! The keys are materialized once; the network then sorts the indices `0..P` (P the next power
//! of two ≥ n) by the strict total order "index a before index b": a real index (< n) before a
//! padding index, and two real ones by (key, index) lexicographically: key ascending for
//! `gradeUp`, descending for `gradeDown`, and ties by ascending index in both (apltail's
//! stable order, spec trap 21). Since no two real indices are equal under that order, the
//! network's result is exactly the stable permutation, whatever order the network compares
//! in; padding indices sort last, so the first n positions are the result (plus one, 1-based).
//!
//! Stage (k, s) of the network (k = 2, 4, …, P; s = k/2, …, 1) puts at position i the first
//! or the last (by the order) of the indices at i and its partner `i xor s`: the first where
//! bits log2 k and log2 s of i are equal (i is the lower position of an ascending pair or the
//! upper of a descending one). A stage over the whole array is one launch of a kernel that
//! `power<grid>` iterates, reading (k, s) from a table of the stages; log2(P)·(log2(P)+1)/2
//! stages in all, no host round trip of the data. From P = 2·[`BLOCK`] on, the stages with
//! s < BLOCK run in local memory, each work-group on its block of positions (`power<block>`):
//! one kernel for all stages with k ≤ BLOCK, then for each larger k its log2(k/BLOCK) stages
//! over the whole array and one kernel for its last log2(BLOCK) stages. For P = 2^20 that is
//! 108 launches instead of 210 (PoCL on 2 CPU cores: equal kernel time within noise, as local
//! memory is ordinary memory there; on a GPU it saves 102 passes over global memory).

use super::lowerer::{stored_element, Lowerer, TABULATE};
use super::radix::grade_of;
use super::tree::{fcl, fcl_stmt, int, var, Fcl, Name};
use super::value::{literal_vector, scalar_expr, unsupported, Arr, Ty, R};
use semantics::tail::value::Array;
use std::rc::Rc;

/// Positions per work-group in the stages run in local memory (one per thread).
const BLOCK: usize = 256;

/// The longest vector sorted on the device (positions and partner indices stay FCL ints).
const MAX_SORT: usize = 1 << 30;

/// A sort being lowered: where its keys are and which order it sorts by.
struct Network {
    /// Number of real elements: an FCL int, a literal or a length computed on the device.
    n: Rc<Fcl>,
    /// The buffer of the keys as stored (bools and chars as ints).
    keys: Name,
    /// Doubles compare with `ltd`, everything else as ints.
    double: bool,
    /// `gradeDown`: keys descending (ties still by ascending index).
    down: bool,
}

impl Network {
    /// Whether index `a` comes strictly before index `b` (both atomic names of indices in
    /// `0..P`), an FCL bool.
    fn before(&self, a: &Fcl, b: &Fcl) -> Fcl {
        let (n, keys) = (&self.n, &self.keys);
        let (ka, kb) = (fcl!("(index {keys} {a})"), fcl!("(index {keys} {b})"));
        // the keys in the order that puts the first index first
        let (lo, hi) = if self.down {
            (var("kb"), var("ka"))
        } else {
            (var("ka"), var("kb"))
        };
        let keyed = if self.double {
            // IEEE `<` only, as the oracle compares: neither less is a tie
            fcl!("if ltd {lo} {hi} then true else if ltd {hi} {lo} then false else lti {a} {b}")
        } else {
            fcl!("if ka == kb then lti {a} {b} else lti {lo} {hi}")
        };
        fcl!(
            "(if lti {a} {n} then (if lti {b} {n} then (let ka = {ka} in let kb = {kb} in \
             {keyed}) else true) else false)"
        )
    }
}

impl Lowerer {
    /// `gradeUp(a)` (`down` false) or `gradeDown(a)`: the 1-based stable permutation sorting
    /// vector `a`. A known argument gives its known result (a table); otherwise a bitonic
    /// network on the device, which needs statements of `main` (refused inside a function
    /// applied per element). A vector whose length the device computes is sorted at its
    /// capacity, the positions past its length last, and so is its grade.
    pub(super) fn grade(&mut self, down: bool, a: &Arr) -> R<Arr> {
        let name = if down { "gradeDown" } else { "gradeUp" };
        if a.shape.len() != 1 {
            return unsupported(format!("{name} of an array of rank {}", a.shape.len()));
        }
        if let Some(k) = a.known.as_deref() {
            return known_grade(self, k, down, name);
        }
        if self.kernel {
            return unsupported(format!(
                "{name} of an array not known at compile time inside a function applied per \
                 element (the device sort is a sequence of kernels, statements of main)"
            ));
        }
        if a.is_unbounded() {
            // by the radix sort, its plan the run-time length's (module `capacity`)
            return self.radix_grade(down, a);
        }
        let n = a.shape[0];
        if n == 0 {
            return Ok(Arr::new(Ty::Int, vec![0], |_| int(0)));
        }
        if n > MAX_SORT {
            return unsupported(format!("{name} of more than {MAX_SORT} elements"));
        }
        if super::radix::radix_sorts(a.ty, n) {
            return self.radix_grade(down, a);
        }
        let real = super::value::length_expr(a);
        let p = n.next_power_of_two();
        let keys = self.fresh.name("keys");
        self.helpers.insert(TABULATE);
        self.comment(format!(
            "{name}: the {n} keys, read by every stage of a bitonic network over {p} positions"
        ));
        self.stmt(fcl_stmt!(
            "{keys} <- forceM<grid> (tabulate {n} (fn i => {}))",
            stored_element(a, &var("i"))
        ));
        let net = Network {
            n: real,
            keys,
            double: a.ty == Ty::Double,
            down,
        };
        if p == 1 {
            return Ok(grade_of(a, Rc::new(|_: &Fcl| int(1))));
        }
        let table = self.stage_table(p);
        let bits = p.trailing_zeros();
        let g = if p < 2 * BLOCK {
            self.global_stages(&net, &table, None, p, 0, bits * (bits + 1) / 2)
        } else {
            self.blocked_network(&net, &table, p)
        };
        Ok(grade_of(
            a,
            Rc::new(move |i: &Fcl| fcl!("((index {g} {i}) + 1)")),
        ))
    }

    /// The network over `p` ≥ 2·[`BLOCK`] positions: every work-group sorts its block of
    /// [`BLOCK`] positions in local memory (the stages with k ≤ BLOCK), then each larger k has
    /// its stages with s ≥ BLOCK over the whole array and the rest in local memory again. A
    /// stage in local memory costs a barrier instead of a launch and a pass over global memory.
    /// Returns the buffer of the sorted indices.
    fn blocked_network(&mut self, net: &Network, table: &Name, p: usize) -> Name {
        let lb = BLOCK.trailing_zeros();
        let mut src = self.local_stages(net, table, None, p, 0, lb * (lb + 1) / 2);
        for kb in lb + 1..=p.trailing_zeros() {
            let first = kb * (kb - 1) / 2;
            let global = kb - lb;
            let g = self.global_stages(net, table, Some(&src), p, first, global);
            src = self.local_stages(net, table, Some(&g), p, first + global, lb);
        }
        src
    }

    /// `count` stages from stage `from` over the whole array, one launch each (one kernel
    /// iterated by `power<grid>`), reading index buffer `src` (the identity when `None`).
    fn global_stages(
        &mut self,
        net: &Network,
        table: &Name,
        src: Option<&Name>,
        p: usize,
        from: u32,
        count: u32,
    ) -> Name {
        let g = self.fresh.name("g");
        let init = match src {
            Some(buf) => fcl!("index {buf} i"),
            None => var("i"),
        };
        self.comment(format!(
            "sort: {count} stages from {from} of one kernel over {p} positions"
        ));
        let i = var("i");
        let elem = exchange(net, table, from, &i, &i, |u| fcl!("index src {u}"));
        self.stmt(fcl_stmt!(
            "{g} <- power<grid> {count} (fn t => fn src => tabulate {p} (fn i => {elem})) \
             (tabulate {p} (fn i => {init}))"
        ));
        g
    }

    /// `count` stages from stage `from`, all with s < [`BLOCK`], in local memory: one
    /// work-group per block of positions, iterating with `power<block>`.
    fn local_stages(
        &mut self,
        net: &Network,
        table: &Name,
        src: Option<&Name>,
        p: usize,
        from: u32,
        count: u32,
    ) -> Name {
        let g = self.fresh.name("g");
        let init = match src {
            Some(buf) => fcl!("index {buf} (b * {BLOCK} + u)"),
            None => fcl!("b * {BLOCK} + u"),
        };
        self.comment(format!(
            "sort: {count} stages from {from} in local memory, blocks of {BLOCK} positions"
        ));
        let elem = exchange(net, table, from, &var("i"), &var("u"), |u| {
            fcl!("index a {u}")
        });
        self.stmt(fcl_stmt!(
            "{g} <- forceM<grid> (concat<block> {BLOCK} (generate {} (fn b => do<block> \
             {{ r <- power<block> {count} (fn t => fn a => return<block> (push<block> \
             (generate {BLOCK} (fn u => let i = b * {BLOCK} + u in {elem})))) \
             (return<block> (push<block> (generate {BLOCK} (fn u => {init})))) \
             ; return<block> (push<block> r) }})))",
            p / BLOCK,
        ));
        g
    }
}

/// The element of stage `from + t` at global position `i` (local index `u` in the array that
/// `read` reads): the first or the last by the order of the indices at `u` and its partner.
fn exchange(
    net: &Network,
    table: &Name,
    from: u32,
    i: &Fcl,
    u: &Fcl,
    read: impl Fn(&Fcl) -> Fcl,
) -> Fcl {
    fcl!(
        "let st = index {table} (t + {from}) in let kb = st >> 5 in let sb = st & 31 in \
         let x = {} in let y = {} in let c = {} in \
         if (xor ({i} >> kb) ({i} >> sb) & 1) == 0 then (if c then y else x) \
         else (if c then x else y)",
        read(u),
        read(&fcl!("(xor {u} (1 << sb))")),
        net.before(&var("y"), &var("x"))
    )
}

impl Lowerer {
    /// The table of the stages of the network over `p` positions, in network order, each
    /// `log2 k * 32 + log2 s`; one per size however many sorts the program has.
    fn stage_table(&mut self, p: usize) -> Name {
        if let Some(t) = self.sort_stages.get(&p) {
            return t.clone();
        }
        let mut stages = Vec::new();
        for kb in 1..=p.trailing_zeros() {
            for sb in (0..kb).rev() {
                stages.push(fcl!("{}", kb * 32 + sb));
            }
        }
        let t = self.fresh.table(Ty::Int, Rc::new(stages));
        self.sort_stages.insert(p, t.clone());
        t
    }
}

/// The grade of a known vector, computed at compile time: a table of the result.
fn known_grade(lw: &Lowerer, k: &Array, down: bool, name: &str) -> R<Arr> {
    let r = match semantics::tail::ops::select::grade(k, down) {
        Ok(r) => r,
        Err(why) => return unsupported(format!("{name}: {why}")),
    };
    let elems: Vec<Fcl> = (0..r.size()).map(|i| scalar_expr(r.elems.get(i))).collect();
    let mut out = Arr::new(Ty::Int, r.shape.clone(), |_| int(0));
    out.index = literal_vector(&lw.fresh, Ty::Int, elems);
    // (a permutation of 1…n: counts and shapes made from it are bounded, module `range`)
    out.range = super::range::Range::new(1.0, r.size().max(1) as f64);
    out.known = Some(Rc::new(r));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::tail::tree::parsed as p;

    #[test]
    fn descending_order_with_ties_by_index() {
        let net = Network {
            n: Rc::new(p("n")),
            keys: Name::new("keys"),
            double: false,
            down: true,
        };
        assert_eq!(
            net.before(&p("y"), &p("x")),
            p(
                "(if lti y n then (if lti x n then (let ka = (index keys y) in \
               let kb = (index keys x) in if ka == kb then lti y x else lti kb ka) \
               else true) else false)"
            )
        );
    }
}
