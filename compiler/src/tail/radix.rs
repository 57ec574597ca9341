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
//! for doubles: the low half of the sort key (`doubleLoBits`), then the high half
//! (`doubleHiBits`). An FCL int holds only one half, so doubles stay doubles in the keys'
//! buffer and every pass computes its digit from the double; the padding, whose value is
//! never read, stays behind the real positions through every pass (its digits are all ones),
//! so a position past n has the digit `RADIX - 1`. The sorted indices of the last pass are the
//! permutation.

use super::program::{Lowerer, TABULATE};
use super::value::{Arr, Fun, Ty, Val, R};
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

/// Below this many elements the bitonic network sorts (its launches are few and short there,
/// where a radix sort's passes each cost several launches).
pub(super) const RADIX_MIN: usize = 4096;

/// Whether vectors of `ty` with `n` elements are radix-sorted.
pub(super) fn radix_sorts(ty: Ty, n: usize) -> bool {
    n >= RADIX_MIN && matches!(ty, Ty::Int | Ty::Char | Ty::Bool | Ty::Double)
}

/// The geometry of one radix sort.
struct Plan {
    /// Real elements.
    n: usize,
    /// Threads (chunks): `blocks · group`.
    threads: usize,
    /// Threads per work-group (a power of two).
    group: usize,
    /// Work-groups.
    blocks: usize,
}

impl Plan {
    fn new(n: usize) -> Plan {
        let chunks = n.div_ceil(CHUNK);
        let group = chunks.next_power_of_two().min(GROUP);
        let blocks = chunks.div_ceil(group);
        Plan {
            n,
            threads: blocks * group,
            group,
            blocks,
        }
    }

    /// Positions including the padding.
    fn padded(&self) -> usize {
        self.threads * CHUNK
    }
}

/// The sort key of stored key text `k` of type `ty` (see the module comment) and the number
/// of digit passes it needs.
fn sort_key(ty: Ty, down: bool, k: &str) -> (String, u32) {
    match (ty, down) {
        (Ty::Bool, false) => (k.to_string(), 1),
        (Ty::Bool, true) => (format!("(1 - {k})"), 1),
        // codes are at most 0x10FFFF
        (Ty::Char, false) => (k.to_string(), 3),
        (Ty::Char, true) => (format!("(xor {k} 16777215)"), 3),
        (_, false) => (format!("(xor {k} (1 << 31))"), 4),
        (_, true) => (format!("(xor {k} 2147483647)"), 4),
    }
}

/// How the passes read the keys: the digit of a position and whether every key shares it.
enum Digits {
    /// Int sort keys (module comment); `spread` is FCL text of their `max xor min`.
    Ints { spread: String },
    /// Doubles, stored as they are and read through [`double_key`]; `n` real positions (the
    /// padding's digits are all ones); `spread`, per half (low, high), the bits in which some
    /// key's half differs from the first key's.
    Doubles {
        n: usize,
        down: bool,
        spread: [String; 2],
    },
}

impl Digits {
    /// FCL text of the digit of pass `pass` of position `e` of the keys in `keys`.
    fn digit(&self, keys: &str, pass: u32, e: &str) -> String {
        let key = |k: String, shift: u32| match shift {
            0 => format!("({k} & {})", RADIX - 1),
            _ => format!("(({k} >> {shift}) & {})", RADIX - 1),
        };
        match self {
            Digits::Ints { .. } => key(format!("(index {keys} {e})"), pass * DIGIT),
            Digits::Doubles { n, down, .. } => {
                let half = double_key(pass >= 4, *down, &format!("(index {keys} {e})"));
                let d = key(half, (pass % 4) * DIGIT);
                format!("(if lti {e} {n} then {d} else {})", RADIX - 1)
            }
        }
    }

    /// FCL text that is true when every key has the same digit in pass `pass`, whose pass then
    /// only copies (the kernels still launch, the sort being the same program whatever the data).
    fn skip(&self, pass: u32) -> String {
        match self {
            // every digit above the spread's highest bit
            Digits::Ints { spread } => format!("(({spread} >> {}) == 0)", pass * DIGIT),
            // exactly the digits where no key differs from the first
            Digits::Doubles { spread, .. } => format!(
                "((({} >> {}) & {}) == 0)",
                spread[pass as usize / 4],
                (pass % 4) * DIGIT,
                RADIX - 1
            ),
        }
    }
}

/// FCL text of one half (`high` or low) of the 64-bit sort key of the double `x`: its
/// encoding's bits (`doubleHiBits`, `doubleLoBits`) with the sign bit flipped for a positive
/// number and every bit inverted for a negative one, which order as unsigned integers as the
/// doubles do; -0.0 first becomes 0.0 (the oracle's `<` makes them ties) and every NaN one
/// NaN above +inf (sort keys cannot mirror an order in which NaN ties with everything, so
/// NaNs come last, docs/tail-compiler.md §3). For `down` every bit is inverted.
fn double_key(high: bool, down: bool, x: &str) -> String {
    let key = if high {
        "if eqd rx rx then (if eqd rx 0.0 then (1 << 31) else let rh = doubleHiBits rx in \
         if lti rh 0 then xor rh (0 - 1) else xor rh (1 << 31)) else 0 - 524288"
    } else {
        "if eqd rx rx then (if eqd rx 0.0 then 0 else if lti (doubleHiBits rx) 0 then \
         xor (doubleLoBits rx) (0 - 1) else doubleLoBits rx) else 0"
    };
    match down {
        false => format!("(let rx = {x} in {key})"),
        true => format!("(xor (let rx = {x} in {key}) (0 - 1))"),
    }
}

impl Lowerer {
    /// The 1-based stable permutation sorting `a` (int, char, bool or double; rank 1, not
    /// known, at least [`RADIX_MIN`] elements), ascending or (`down`) descending, by an LSD
    /// radix sort.
    pub(super) fn radix_grade(&mut self, down: bool, a: &Arr) -> R<Arr> {
        let name = if down { "gradeDown" } else { "gradeUp" };
        let plan = Plan::new(a.shape[0]);
        let (n, total) = (plan.n, plan.padded());
        let stored = super::program::element_text(a, "i");
        // the real elements: past a run-time length, positions pad (ints only, see `grade`)
        let real = super::counts::length_text(a);
        // doubles are stored as they are (the padding's value is never read) and 64 bits wide
        let (key, pad, passes) = match a.ty {
            Ty::Double => (stored, "0.0".to_string(), 8),
            ty => {
                let (key, passes) = sort_key(ty, down, &stored);
                (key, "0 - 1".to_string(), passes)
            }
        };
        let mut keys = self.fresh.name("rkeys");
        self.helpers.insert(TABULATE);
        self.stmt(format!(
            "-- {name}: the sort keys of {n} elements, padded to {total} ({} threads of {CHUNK}), \
             for a radix sort of {passes} passes\n    \
             {keys} <- forceM<grid> (tabulate {total} (fn i => if lti i {real} then {key} else {pad}))",
            plan.threads
        ));
        let digits = match a.ty {
            Ty::Double => Digits::Doubles {
                n,
                down,
                spread: [
                    self.double_spread(&keys, n, false)?,
                    self.double_spread(&keys, n, true)?,
                ],
            },
            ty => Digits::Ints {
                spread: self.key_spread(&keys, n, ty, down)?,
            },
        };
        let mut idx: Option<String> = None;
        for pass in 0..passes {
            let skip = digits.skip(pass);
            let hist = self.histogram(
                &plan,
                &digits.digit(&keys, pass, &format!("(t * {CHUNK} + i)")),
                &format!("(if {skip} then 0 else {CHUNK})"),
                pass,
            );
            let starts = self.digit_starts(&plan, &hist, pass)?;
            let dests = self.destinations(
                &plan,
                &starts,
                &digits.digit(&keys, pass, &format!("(t * {CHUNK} + k)")),
                &format!("(if {skip} then 0 else {})", RADIX + 2 * CHUNK),
                pass,
            );
            let last = pass + 1 == passes;
            let from = match &idx {
                Some(b) => format!("index {b} e"),
                None => "e".into(),
            };
            idx = Some(self.scatter(&plan, &dests, &skip, &from, "indices", pass));
            if !last {
                let from = format!("index {keys} e");
                keys = self.scatter(&plan, &dests, &skip, &from, "keys", pass);
            }
        }
        let g = idx.unwrap_or_default();
        Ok(super::sort::grade_of(
            a,
            Rc::new(move |i| format!("((index {g} {i}) + 1)")),
        ))
    }

    /// FCL text of `max xor min` over the `n` keys (the sort keys in `keys` mapped back: the
    /// map is its own inverse): every digit above its highest set bit is the same in every
    /// key, as the keys lie between the two; so is every bit of the sort keys, whose map is a
    /// fixed `xor` (or `1 - b` for bools) that the `xor` of two keys cancels.
    fn key_spread(&mut self, keys: &str, n: usize, ty: Ty, down: bool) -> R<String> {
        let mut ends = Vec::new();
        for p in [Prim::Maxi, Prim::Mini] {
            let k = keys.to_string();
            let stored = Arr::new(Ty::Int, vec![n], move |i| {
                sort_key(ty, down, &format!("(index {k} {i})")).0
            });
            ends.push(self.reduced(p, stored)?);
        }
        Ok(format!("(xor {} {})", ends[0], ends[1]))
    }

    /// FCL text of the bits in which the `high` or low half of some double's sort key in
    /// `keys` differs from the first's: the `or` of their `xor`s. Unlike an int's `max xor
    /// min` it tells every shared digit, also below one that differs (small ints as doubles
    /// share their low 32 bits, all zeros).
    fn double_spread(&mut self, keys: &str, n: usize, high: bool) -> R<String> {
        let k = keys.to_string();
        let differs = Arr::new(Ty::Int, vec![n], move |i| {
            let first = double_key(high, false, &format!("(index {k} 0)"));
            let key = double_key(high, false, &format!("(index {k} {i})"));
            format!("(xor {key} {first})")
        });
        self.reduced(Prim::Ori, differs)
    }

    /// FCL text of the reduction of the int vector `a` by `p` (`maxi`, `mini`, `ori`) from 0,
    /// computed on the device.
    fn reduced(&mut self, p: Prim, a: Arr) -> R<String> {
        let z = Arr::known(Array::scalar(Scalar::Int(0)));
        let f = Val::Fun(Rc::new(Fun::Op(p, semantics::Span::DUMMY)));
        let Val::Arr(r) = self.reduction(Prim::Reduce, vec![f, Val::Arr(z), Val::Arr(a)])? else {
            return super::value::unsupported("a radix sort's key range that is not an array");
        };
        let r = self.materialize(&r, "a radix sort's key range");
        Ok((r.index)("0"))
    }

    /// Step 1 of a pass: `hist[v·T + t]`, how many positions of chunk t have digit v
    /// (`digit` reads the digit of position `t * CHUNK + i`).
    fn histogram(&mut self, plan: &Plan, digit: &str, trips: &str, pass: u32) -> String {
        let h = self.fresh.name("rhist");
        let (g, t) = (plan.group, plan.threads);
        let lg = g.trailing_zeros();
        self.stmt(format!(
            "-- radix pass {pass}: each thread's counts of its chunk's digits, digit-major\n    \
             {h} <- forceM<grid> (interleave<block> {} (fn q => ((snd q) >> {lg}) * {t} + \
             (fst q) * {g} + ((snd q) & {})) (generate {} (fn bb => interleave<thread> {RADIX} \
             (fn q => (snd q) * {g} + (fst q)) (generate {g} (fn tt => let t = bb * {g} + tt in \
             return<thread> (seqfor {RADIX} {trips} (fn read => fn i => let d = {digit} in \
             (d, read d + 1))))))))",
            g * RADIX,
            g - 1,
            plan.blocks,
        ));
        h
    }

    /// Step 2: the exclusive prefix sum of `hist` (digit-major) at digit `v`, thread `t`, as
    /// FCL text in `v` and `t`. With at most [`ROW_SCAN_MAX`] threads, two small kernels: each
    /// digit's row of counts scanned sequentially by one thread (its total last), then one
    /// thread's scan of the totals, where digit v starts; otherwise module `reduce`'s scan of
    /// the whole histogram.
    fn digit_starts(&mut self, plan: &Plan, hist: &str, pass: u32) -> R<String> {
        let t = plan.threads;
        if t >= ROW_SCAN_MAX {
            return self.digit_starts_scanned(plan, hist);
        }
        let (rows, base) = (self.fresh.name("rrows"), self.fresh.name("rbase"));
        let w = t + 1;
        // a few digits per work-group, so that the rows spread over the compute units
        let g = 16;
        self.stmt(format!(
            "-- radix pass {pass}: each digit's counts scanned along the threads, its total last\n    \
             {rows} <- forceM<grid> (concat<block> {} (generate {} (fn bb => concat<thread> {w} \
             (generate {g} (fn tt => let v = bb * {g} + tt in return<thread> (seqfor {w} {w} \
             (fn read => fn t => (t, if t == 0 then 0 else read (t - 1) + \
             (index {hist} (v * {t} + t - 1))))))))))",
            g * w,
            RADIX / g,
        ));
        self.stmt(format!(
            "-- radix pass {pass}: where each digit starts (its totals scanned)\n    \
             {base} <- forceM<grid> (concat<block> {RADIX} (generate 1 (fn bb => concat<thread> \
             {RADIX} (generate 1 (fn tt => return<thread> (seqfor {RADIX} {RADIX} (fn read => \
             fn v => (v, if v == 0 then 0 else read (v - 1) + (index {rows} (v * {w} - 1))))))))))"
        ));
        Ok(format!("((index {base} v) + (index {rows} (v * {w} + t)))"))
    }

    /// [`Lowerer::digit_starts`] through module `reduce`'s scan of the whole histogram: the
    /// exclusive sum of entry q is the inclusive one less `hist[q]`.
    fn digit_starts_scanned(&mut self, plan: &Plan, hist: &str) -> R<String> {
        let len = RADIX * plan.threads;
        let h = hist.to_string();
        let counts = Arr::new(Ty::Int, vec![len], move |q| format!("(index {h} {q})"));
        let zero = Arr::known(Array::scalar(Scalar::Int(0)));
        let addi = Val::Fun(Rc::new(Fun::Op(Prim::Addi, semantics::Span::DUMMY)));
        let Val::Arr(sums) =
            self.reduction(Prim::Scan, vec![addi, Val::Arr(zero), Val::Arr(counts)])?
        else {
            return super::value::unsupported("a radix sort's scan that is not an array");
        };
        let sums = self.materialize(&sums, "a radix pass's digit counts, scanned");
        let q = format!("(v * {} + t)", plan.threads);
        Ok(format!("({} - (index {hist} {q}))", (sums.index)(&q)))
    }

    /// Step 3: every position's destination; thread t's private array holds its counters
    /// (the next destination of each digit, from `starts`, the exclusive sum at `v`, `t`)
    /// in slots `0..RADIX` and its chunk's destinations after them. Two steps per position:
    /// read the counter into the position's slot, then advance the counter. Returns the
    /// buffer, `RADIX + CHUNK` ints per thread.
    fn destinations(
        &mut self,
        plan: &Plan,
        starts: &str,
        digit: &str,
        trips: &str,
        pass: u32,
    ) -> String {
        let d = self.fresh.name("rdest");
        let g = plan.group;
        let slots = RADIX + CHUNK;
        self.stmt(format!(
            "-- radix pass {pass}: each position's destination, in chunk order per thread\n    \
             {d} <- forceM<grid> (concat<block> {} (generate {} (fn bb => concat<thread> \
             {slots} (generate {g} (fn tt => let t = bb * {g} + tt in return<thread> \
             (seqfor {slots} {trips} (fn read => fn i => if lti i {RADIX} then (let v = i in (i, \
             {starts})) else let s = i - {RADIX} in let k = s >> 1 in let d = {digit} in \
             if (s & 1) == 0 then ({RADIX} + k, read d) else (d, read d + 1))))))))",
            g * slots,
            plan.blocks,
        ));
        d
    }

    /// Step 4: the array whose element at position e's destination is `from` (text of `e`).
    fn scatter(
        &mut self,
        plan: &Plan,
        dests: &str,
        skip: &str,
        from: &str,
        what: &str,
        pass: u32,
    ) -> String {
        let out = self.fresh.name("rsorted");
        let slots = RADIX + CHUNK;
        let lc = CHUNK.trailing_zeros();
        self.stmt(format!(
            "-- radix pass {pass}: the {what} scattered to their destinations\n    \
             {out} <- forceM<grid> (interleave<block> 256 (fn q => let e = (fst q) * 256 + \
             (snd q) in if {skip} then e else index {dests} ((e >> {lc}) * {slots} + {RADIX} + \
             (e & {}))) \
             (generate {} (fn b => return<block> (push<block> (generate 256 (fn u => \
             let e = b * 256 + u in {from}))))))",
            CHUNK - 1,
            plan.padded() / 256,
        ));
        out
    }
}
