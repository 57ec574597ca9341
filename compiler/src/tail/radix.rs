//! `gradeUp`/`gradeDown` of long int, char, bool and double vectors: an LSD radix sort on the
//! device (8-bit digits), which does O(n) work per digit where the bitonic network of module
//! `sort` does O(n log² n) in all.
//!
//! Each key is first mapped to a *sort key*, whose digits, compared as unsigned from the most
//! significant down, give the order wanted: an int's sign bit flipped (so that negatives come
//! first), a char's code, a bool's 0/1, a double's 64 bits with the sign bit flipped for a
//! positive number and every bit inverted for a negative one ([`double_key`]); for `gradeDown`
//! the same with every bit of the used digits inverted, so that a larger key has the smaller
//! sort key. Ties keep their index order in both directions because every pass is stable
//! (apltail's stable order, spec trap 21): `gradeDown` is *not* the reverse of `gradeUp`.
//!
//! The positions are cut into T chunks of [`CHUNK`] consecutive positions, one per thread;
//! padding positions past n have the sort key of all ones, so they stay behind every real
//! position (equal keys keep index order) and the scatters are permutations of all T·C
//! positions. A pass over digit `d` is four kernels and a scan:
//!
//! 1. *histogram*: each thread counts its chunk's digits sequentially in a private array of
//!    [`RADIX`] counters (`seqfor`), written transposed, `hist[v·T + t]`;
//! 2. an exclusive prefix sum of `hist` in that order (module `reduce`'s device scans): the
//!    first destination of digit v from chunk t, after every smaller digit and every earlier
//!    chunk's v;
//! 3. *destinations*: each thread walks its chunk again in order, giving each position its
//!    digit's next destination (a private array: the counters, then the chunk's destinations);
//! 4. *scatter*: the index and the sort key move to their destination (`interleave` whose
//!    destination function reads the destinations).
//!
//! Four passes for ints (three for chars, whose codes are below 2^24, one for bools), eight
//! for doubles: a double's 64-bit sort key is two int words (`doubleLoBits`, `doubleHiBits`,
//! [`double_key`]), computed once, an FCL int holding only one; pass p reads digit `p % 4` of
//! word `p / 4`. The passes are one FCL loop (`power<grid>`, a trip per digit) whose state is
//! the key words and the indices, a block of T·C positions each, every block scattered by the
//! same destinations; its kernels are built once, whatever the number of passes. The indices
//! of the last trip are the permutation.

use super::capacity::UNBOUNDED;
use super::coords::select;
use super::lowerer::{Lowerer, TABULATE};
use super::tree::{fcl, fcl_stmt, int, times, var, Fcl, Name, Stmt};
use super::value::{Arr, Fun, Index, Ty, Val, R};
use semantics::fcl::printer::print_expr;
use semantics::fcl::quote::do_block;
use semantics::fcl::syntax::Level;
use semantics::tail::ops::prim::Prim;
use semantics::tail::value::{Array, Scalar};
use std::rc::Rc;

/// Bits per digit.
const DIGIT: u32 = 8;

/// Digit values (counters per thread).
const RADIX: usize = 1 << DIGIT;

/// Positions per thread: long enough that the per-thread counters and the histogram's scan
/// are small beside the data, short enough that the private array of counters and
/// destinations (`RADIX + CHUNK` ints) stays within the FCL compiler's 4096.
const CHUNK: usize = 1024;

/// The most threads whose histogram rows are scanned one row per thread (a private array of
/// one count per thread and the total).
const ROW_SCAN_MAX: usize = 4096;

/// Threads per work-group at most.
const GROUP: usize = 256;

/// Threads per work-group of a sort of a run-time number of elements: one warp, so that a
/// short vector pads to 32K positions, not 256K (the FCL oracle runs every position's work).
const RUN_GROUP: usize = 32;

/// Below this many elements the bitonic network sorts (its launches are few and short there,
/// where a radix sort's passes each cost several launches).
pub(super) const RADIX_MIN: usize = 4096;

/// Whether vectors of `ty` with `n` elements are radix-sorted.
pub(super) fn radix_sorts(ty: Ty, n: usize) -> bool {
    n >= RADIX_MIN && matches!(ty, Ty::Int | Ty::Char | Ty::Bool | Ty::Double)
}

/// The geometry of one radix sort.
struct Plan {
    /// Threads (chunks): `blocks · group`, an FCL int (run-time for an unbounded vector).
    threads: Fcl,
    /// Threads per work-group (a power of two).
    group: usize,
    /// Work-groups (FCL).
    blocks: Fcl,
    /// Positions including the padding: `threads · CHUNK` (FCL).
    total: Fcl,
    /// The threads, where known at compile time (the histogram's scan picks its form by them).
    known_threads: Option<usize>,
}

/// A vector of run-time length whose capacity is past this many elements is sorted at its
/// run-time length (the plan's sizes the length's, read when the program runs), as an
/// unbounded one is: a filter or a `take` by a computed count whose range is wide may hold a
/// few elements in a capacity of 300,000.
const SORT_AT_LENGTH: usize = 1 << 16;

/// Whether `a` is sorted at its run-time length ([`SORT_AT_LENGTH`]).
fn sorts_at_length(a: &Arr) -> bool {
    a.is_unbounded() || (a.run_len.is_some() && a.run_dims.is_none() && a.shape[0] > SORT_AT_LENGTH)
}

impl Plan {
    /// The plan for `n` elements.
    fn new(n: usize) -> Plan {
        let chunks = n.div_ceil(CHUNK);
        let group = chunks.next_power_of_two().min(GROUP);
        let blocks = chunks.div_ceil(group);
        let threads = blocks * group;
        Plan {
            threads: int(threads as i64),
            group,
            blocks: int(blocks as i64),
            total: int((threads * CHUNK) as i64),
            known_threads: Some(threads),
        }
    }

    /// The plan for a run-time number `len` of elements (an FCL int the host evaluates): full
    /// work-groups of [`RUN_GROUP`] threads, at least one.
    fn run(len: &Fcl) -> Plan {
        let per_block = RUN_GROUP * CHUNK;
        let blocks = fcl!("((maxi 1 {len} + {}) / {per_block})", per_block - 1);
        Plan {
            threads: fcl!("({blocks} * {RUN_GROUP})"),
            group: RUN_GROUP,
            total: fcl!("({blocks} * {per_block})"),
            blocks,
            known_threads: None,
        }
    }
}

/// The sort key of stored key `k` of type `ty` (see the module comment) and the number
/// of digit passes it needs.
fn sort_key(ty: Ty, down: bool, k: &Fcl) -> (Fcl, u32) {
    match (ty, down) {
        (Ty::Bool, false) => (k.clone(), 1),
        (Ty::Bool, true) => (fcl!("(1 - {k})"), 1),
        // codes are at most 0x10FFFF
        (Ty::Char, false) => (k.clone(), 3),
        (Ty::Char, true) => (fcl!("(xor {k} 16777215)"), 3),
        (_, false) => (fcl!("(xor {k} (1 << 31))"), 4),
        (_, true) => (fcl!("(xor {k} 2147483647)"), 4),
    }
}

/// One half (`high` or low) of the 64-bit sort key of the double `x`: its encoding's bits
/// (`doubleHiBits`, `doubleLoBits`) with the sign bit flipped for a positive number and every
/// bit inverted for a negative one, which order as unsigned integers as the doubles do; -0.0
/// first becomes 0.0 (the oracle's `<` makes them ties) and every NaN one NaN above +inf
/// (sort keys cannot mirror an order in which NaN ties with everything, so NaNs come last,
/// docs/tail-compiler.md §3). For `down` every bit is inverted.
fn double_key(high: bool, down: bool, x: &Fcl) -> Fcl {
    let key = if high {
        fcl!(
            "(let rx = {x} in if eqd rx rx then (if eqd rx 0.0 then (1 << 31) else \
             let rh = doubleHiBits rx in if lti rh 0 then xor rh (0 - 1) else xor rh (1 << 31)) \
             else 0 - 524288)"
        )
    } else {
        fcl!(
            "(let rx = {x} in if eqd rx rx then (if eqd rx 0.0 then 0 else \
             if lti (doubleHiBits rx) 0 then xor (doubleLoBits rx) (0 - 1) else doubleLoBits rx) \
             else 0)"
        )
    };
    match down {
        false => key,
        true => fcl!("(xor {key} (0 - 1))"),
    }
}

/// The words of the sort key of the element `x` (one int, or a double's low and high
/// halves) and the passes they take, low digits first: pass p reads digit `p % 4` of word
/// `p / 4`.
fn key_words(ty: Ty, down: bool, x: &Fcl) -> (Vec<Fcl>, u32) {
    match ty {
        Ty::Double => (
            vec![double_key(false, down, x), double_key(true, down, x)],
            8,
        ),
        ty => {
            let (key, passes) = sort_key(ty, down, x);
            (vec![key], passes)
        }
    }
}

/// The digit that pass `it` (the loop's trip, an FCL int) reads at position `e` of the
/// loop's state `s` (the key words, `total` positions each, then the indices).
fn digit(s: &Name, total: &Fcl, it: &Name, e: &Fcl) -> Fcl {
    fcl!(
        "(((index {s} (({it} >> 2) * {total} + {e})) >> (({it} & 3) * {DIGIT})) & {})",
        RADIX - 1
    )
}

impl Lowerer {
    /// The 1-based stable permutation sorting `a` (int, char, bool or double; rank 1, not
    /// known, at least [`RADIX_MIN`] elements), ascending or (`down`) descending, by an LSD
    /// radix sort: one FCL loop of a trip per digit (`power<grid>`), whose state is the sort
    /// keys' words and the indices, `total` positions each, so that its kernels are built
    /// once whatever the number of passes.
    pub(super) fn radix_grade(&mut self, down: bool, a: &Arr) -> R<Arr> {
        let name = if down { "gradeDown" } else { "gradeUp" };
        // the real elements: past a run-time length, positions pad
        let real = super::value::length_expr(a);
        // (an unbounded vector's plan follows its run-time length, module `capacity`; so does
        // a vector of run-time length whose capacity is far past what it holds)
        let at_length = sorts_at_length(a);
        let (plan, n) = if at_length {
            let len = self.host_count((*real).clone());
            (Plan::run(&len), "a run-time number of".to_string())
        } else {
            (Plan::new(a.shape[0]), a.shape[0].to_string())
        };
        let total = plan.total.clone();
        let (words, passes) = key_words(a.ty, down, &super::lowerer::stored_element(a, &var("e")));
        let w = words.len();
        let word = select(&var("part"), &words);
        let size = times(w + 1, &total);
        let keys = self.fresh.name("rkeys");
        self.helpers.insert(TABULATE);
        self.comment(format!(
            "{name}: the sort keys of {n} elements ({w} words each), padded to {} ({} \
             threads of {CHUNK}), and their indices, for a radix sort of {passes} passes",
            print_expr(&total).trim_end(),
            print_expr(&plan.threads).trim_end()
        ));
        self.stmt(fcl_stmt!(
            "{keys} <- forceM<grid> (tabulate {size} (fn i => let part = i / {total} in \
             let e = i - part * {total} in if part == {w} then e else if lti e {real} then \
             {word} else 0 - 1))"
        ));
        // per word, the bits in which some key differs from the first: a pass whose digit
        // every key shares only copies (its kernels still launch: the sort is the same
        // program whatever the data)
        let mut spreads = Vec::new();
        for j in 0..w {
            let (k, base) = (keys.clone(), times(j, &total));
            let mut differs = Arr::new(Ty::Int, a.shape.clone(), move |i: &Fcl| {
                let first = fcl!("(index {k} {base})");
                fcl!("(xor (index {k} ({base} + {i})) {first})")
            });
            // (past a run-time length, the padding's keys: no real one differs there)
            if at_length {
                differs.run_len = a.run_len.clone();
                differs = differs.unbounded();
            }
            spreads.push(self.reduced(Prim::Ori, differs)?);
        }
        let (it, s) = (self.fresh.name("it"), self.fresh.name("rs"));
        let spread = select(&fcl!("({it} >> 2)"), &spreads);
        let skip = fcl!(
            "((({spread} >> (({it} & 3) * {DIGIT})) & {}) == 0)",
            RADIX - 1
        );
        // the pass's statements, run each trip
        let outer = std::mem::take(&mut self.stmts);
        let in_loop = std::mem::replace(&mut self.in_loop, true);
        let step = self.radix_pass(&plan, &s, &it, &skip, w + 1);
        self.in_loop = in_loop;
        let body = std::mem::replace(&mut self.stmts, outer);
        let step = step?;
        let mut body = self.nested(body);
        body.push(Stmt::Expr(step));
        let block = do_block(Level::grid(), body);
        let out = self.fresh.name("rsorted");
        self.comment(format!("{name}: {passes} radix passes, a trip per digit"));
        self.stmt(fcl_stmt!(
            "{out} <- power<grid> {passes} (fn {it} => fn {s} => {block}) \
             (tabulate {size} (fn i => index {keys} i))"
        ));
        let at = times(w, &total);
        // (sorted at its run-time length within a capacity: positions past the sorted ones,
        // which no consumer reads, read the last)
        let last = (at_length && !a.is_unbounded()).then(|| fcl!("({total} - 1)"));
        Ok(grade_of(
            a,
            Rc::new(move |i: &Fcl| match &last {
                Some(last) => fcl!("((index {out} ({at} + (mini {i} {last}))) + 1)"),
                None => fcl!("((index {out} ({at} + {i})) + 1)"),
            }),
        ))
    }

    /// One pass of the loop over the state `s` (`parts` blocks of `total` positions: the key
    /// words, then the indices) in trip `it`: its statements (steps 1 to 3 of the module
    /// comment) and the step's result, every block scattered to the destinations (step 4).
    fn radix_pass(&mut self, plan: &Plan, s: &Name, it: &Name, skip: &Fcl, parts: usize) -> R<Fcl> {
        let total = &plan.total;
        let hist = self.histogram(
            plan,
            &digit(s, total, it, &fcl!("(t * {CHUNK} + i)")),
            &fcl!("(if {skip} then 0 else {CHUNK})"),
        );
        let starts = self.digit_starts(plan, &hist)?;
        let dests = self.destinations(
            plan,
            &starts,
            &digit(s, total, it, &fcl!("(t * {CHUNK} + k)")),
            &fcl!("(if {skip} then 0 else {})", RADIX + 2 * CHUNK),
        );
        Ok(scatter(plan, &dests, skip, s, parts))
    }

    /// The reduction of the int vector `a` by `p` (`ori`) from 0, computed on the device (an
    /// FCL expression reading it).
    fn reduced(&mut self, p: Prim, a: Arr) -> R<Fcl> {
        let z = Arr::known(Array::scalar(Scalar::Int(0)));
        let f = Val::Fun(Rc::new(Fun::Op(p, semantics::Span::DUMMY)));
        let Val::Arr(r) = self.reduction(Prim::Reduce, vec![f, Val::Arr(z), Val::Arr(a)])? else {
            return super::value::unsupported("a radix sort's key range that is not an array");
        };
        let r = self.materialize(&r, "a radix sort's key range");
        Ok((r.index)(&int(0)))
    }

    /// Step 1 of a pass: `hist[v·T + t]`, how many positions of chunk t have digit v
    /// (`digit` reads the digit of position `t * CHUNK + i`).
    fn histogram(&mut self, plan: &Plan, digit: &Fcl, trips: &Fcl) -> Name {
        let h = self.fresh.name("rhist");
        let (g, t) = (plan.group, &plan.threads);
        let lg = g.trailing_zeros();
        self.comment("radix pass: each thread's counts of its chunk's digits, digit-major");
        self.stmt(fcl_stmt!(
            "{h} <- forceM<grid> (interleave<block> {} (fn q => ((snd q) >> {lg}) * {t} + \
             (fst q) * {g} + ((snd q) & {})) (generate {} (fn bb => interleave<thread> {RADIX} \
             (fn q => (snd q) * {g} + (fst q)) (generate {g} (fn tt => let t = bb * {g} + tt in \
             return<thread> (seqfor {RADIX} {trips} (fn read => fn i => let d = {digit} in \
             (d, read d + 1))))))))",
            g * RADIX,
            g - 1,
            &plan.blocks,
        ));
        h
    }

    /// Step 2: the exclusive prefix sum of `hist` (digit-major) at digit `v`, thread `t`, as
    /// an FCL expression in `v` and `t`. With at most [`ROW_SCAN_MAX`] threads, two small
    /// kernels: each digit's row of counts scanned sequentially by one thread (its total
    /// last), then one thread's scan of the totals, where digit v starts; otherwise module
    /// `reduce`'s scan of the whole histogram.
    fn digit_starts(&mut self, plan: &Plan, hist: &Name) -> R<Fcl> {
        let t = match plan.known_threads {
            Some(t) if t < ROW_SCAN_MAX => t,
            _ => return self.digit_starts_scanned(plan, hist),
        };
        let (rows, base) = (self.fresh.name("rrows"), self.fresh.name("rbase"));
        let w = t + 1;
        // a few digits per work-group, so that the rows spread over the compute units
        let g = 16;
        self.comment("radix pass: each digit's counts scanned along the threads, its total last");
        self.stmt(fcl_stmt!(
            "{rows} <- forceM<grid> (concat<block> {} (generate {} (fn bb => concat<thread> {w} \
             (generate {g} (fn tt => let v = bb * {g} + tt in return<thread> (seqfor {w} {w} \
             (fn read => fn t => (t, if t == 0 then 0 else read (t - 1) + \
             (index {hist} (v * {t} + t - 1))))))))))",
            g * w,
            RADIX / g,
        ));
        self.comment("radix pass: where each digit starts (its totals scanned)");
        self.stmt(fcl_stmt!(
            "{base} <- forceM<grid> (concat<block> {RADIX} (generate 1 (fn bb => concat<thread> \
             {RADIX} (generate 1 (fn tt => return<thread> (seqfor {RADIX} {RADIX} (fn read => \
             fn v => (v, if v == 0 then 0 else read (v - 1) + (index {rows} (v * {w} - 1))))))))))"
        ));
        Ok(fcl!("((index {base} v) + (index {rows} (v * {w} + t)))"))
    }

    /// [`Lowerer::digit_starts`] through module `reduce`'s scan of the whole histogram: the
    /// exclusive sum of entry q is the inclusive one less `hist[q]`.
    fn digit_starts_scanned(&mut self, plan: &Plan, hist: &Name) -> R<Fcl> {
        let h = hist.clone();
        let read = Rc::new(move |q: &Fcl| fcl!("(index {h} {q})"));
        let counts = match plan.known_threads {
            Some(t) => Arr::new(Ty::Int, vec![RADIX * t], move |q: &Fcl| read(q)),
            // (an unbounded vector of counts, module `capacity`)
            None => Arr::dynamic(
                Ty::Int,
                UNBOUNDED,
                Rc::new(times(RADIX, &plan.threads)),
                read,
            ),
        };
        let zero = Arr::known(Array::scalar(Scalar::Int(0)));
        let addi = Val::Fun(Rc::new(Fun::Op(Prim::Addi, semantics::Span::DUMMY)));
        let Val::Arr(sums) =
            self.reduction(Prim::Scan, vec![addi, Val::Arr(zero), Val::Arr(counts)])?
        else {
            return super::value::unsupported("a radix sort's scan that is not an array");
        };
        let sums = self.materialize(&sums, "a radix pass's digit counts, scanned");
        let q = fcl!("(v * {} + t)", plan.threads);
        Ok(fcl!("({} - (index {hist} {q}))", (sums.index)(&q)))
    }

    /// Step 3: every position's destination; thread t's private array holds its counters
    /// (the next destination of each digit, from `starts`, the exclusive sum at `v`, `t`)
    /// in slots `0..RADIX` and its chunk's destinations after them. Two steps per position:
    /// read the counter into the position's slot, then advance the counter. Returns the
    /// buffer, `RADIX + CHUNK` ints per thread.
    fn destinations(&mut self, plan: &Plan, starts: &Fcl, digit: &Fcl, trips: &Fcl) -> Name {
        let d = self.fresh.name("rdest");
        let g = plan.group;
        let slots = RADIX + CHUNK;
        self.comment("radix pass: each position's destination, in chunk order per thread");
        self.stmt(fcl_stmt!(
            "{d} <- forceM<grid> (concat<block> {} (generate {} (fn bb => concat<thread> \
             {slots} (generate {g} (fn tt => let t = bb * {g} + tt in return<thread> \
             (seqfor {slots} {trips} (fn read => fn i => if lti i {RADIX} then (let v = i in (i, \
             {starts})) else let s = i - {RADIX} in let k = s >> 1 in let d = {digit} in \
             if (s & 1) == 0 then ({RADIX} + k, read d) else (d, read d + 1))))))))",
            g * slots,
            &plan.blocks,
        ));
        d
    }
}

/// Step 4, the step's result: the state `s`, `parts` blocks of `total` positions, each block's
/// element at position e moved to e's destination (read from `dests`; e itself where every key
/// shares the pass's digit, `skip`).
fn scatter(plan: &Plan, dests: &Name, skip: &Fcl, s: &Name, parts: usize) -> Fcl {
    let total = &plan.total;
    let slots = RADIX + CHUNK;
    let lc = CHUNK.trailing_zeros();
    fcl!(
        "interleave<block> 256 (fn q => let f = (fst q) * 256 + (snd q) in let part = f / {total} in \
         let e = f - part * {total} in part * {total} + (if {skip} then e else index {dests} \
         ((e >> {lc}) * {slots} + {RADIX} + (e & {})))) \
         (generate {} (fn b => return<block> (push<block> (generate 256 (fn u => \
         index {s} (b * 256 + u))))))",
        CHUNK - 1,
        times(parts * CHUNK / 256, &plan.threads),
    )
}

/// The grade of vector `a`, the positions of its elements read by `index`: of `a`'s length,
/// static or run-time.
pub(super) fn grade_of(a: &Arr, index: Index) -> Arr {
    match &a.run_len {
        Some(len) => Arr::dynamic(Ty::Int, a.shape[0], len.clone(), index),
        None => {
            let mut out = Arr::new(Ty::Int, a.shape.clone(), |_| int(0));
            out.index = index;
            out
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::tail::tree::parsed as p;

    #[test]
    fn sort_keys_and_digits() {
        assert_eq!(sort_key(Ty::Char, true, &p("k")).0, p("(xor k 16777215)"));
        assert_eq!(
            sort_key(Ty::Int, false, &p("k")),
            (p("(xor k (1 << 31))"), 4)
        );
        assert_eq!(
            double_key(true, true, &p("x")),
            p(
                "(xor (let rx = x in if eqd rx rx then (if eqd rx 0.0 then (1 << 31) else \
               let rh = doubleHiBits rx in if lti rh 0 then xor rh (0 - 1) else \
               xor rh (1 << 31)) else 0 - 524288) (0 - 1))"
            )
        );
        assert_eq!(
            digit(
                &Name::new("rs"),
                &int(8192),
                &Name::new("it"),
                &p("(t * 1024 + i)")
            ),
            p("(((index rs ((it >> 2) * 8192 + (t * 1024 + i))) >> ((it & 3) * 8)) & 255)")
        );
    }
}
