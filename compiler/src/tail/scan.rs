//! Scans of rows too long to unroll (module `reduce` picks the strategy by row length, row
//! count and operator):
//! * one thread per row scans the row sequentially (`scan_rows`), which keeps apltail's order;
//! * a long row and an associative, commutative operator with an identity: reduce-then-scan
//!   (`scan_blocks`). Up to [`SCAN_GROUPS`] work-groups of 256 threads, each thread owning a
//!   *contiguous* chunk of s elements: a first kernel folds every chunk sequentially and scans
//!   the 256 thread totals of each work-group (Sklansky, in local memory), the work-groups'
//!   totals are scanned (one thread per row, or recursively), and a second kernel scans every
//!   chunk again sequentially from the prefix of everything before it. A CPU device (PoCL runs
//!   a work-group as loops over its work-items, one loop per barrier) then pays one work-group's
//!   barriers per 256·s elements, where the Sklansky scan of every 256-element chunk that this
//!   replaced paid 8 barriers per 256 elements, and 3 launches instead of 5. Measured on PoCL
//!   (2 cores): a 2M-element scan about 7-11 ms instead of 70, and no shape measured slower
//!   (rows of 256 with few rows, the shortest that take it, cost the same either way).
//!
//! A long `scan(addi, …)` of the program, which fails on overflow, scans exact doubles
//! (`scan_checked_addi`).

use super::apply::apply_scalar;
use super::capacity::UNBOUNDED;
use super::check::int_prefix;
use super::lowerer::Lowerer;
use super::reduce::{checked_addi, identity, row_element, TREE_MIN_LEN};
use super::tree::{fcl, fcl_stmt, int, int_literal, times, Fcl, Name};
use super::value::{Arr, Fun, Ty, Val};
use semantics::tail::ops::prim::Prim;
use semantics::Span;
use std::rc::Rc;

/// The work-group scan of the block-level scan (thesis §5.4.3, examples/fcl/scan.fcl).
const SKLANSKY: &str = "sig sklanskyStep : forall 'a. int -> ('a -> 'a -> 'a) -> ['a] -> ['a]
fun sklanskyStep i op a =
  generate (lengthPull a) (fn j => if (j & (1 << i)) == 0 then index a j
                                   else op (index a (((j >> i) << i) - 1)) (index a j))

sig sklansky : forall 'a. int -> ('a -> 'a -> 'a) -> ['a] -> Program <block> ['a]<block>
fun sklansky lgn op arr =
  do<block> { r <- power<block> lgn (fn i => fn a => return<block> (push<block> (sklanskyStep i op a)))
                                    (return<block> (push<block> arr))
            ; return<block> (push<block> r) }
";

/// The most work-groups a reduce-then-scan uses over all rows (unless a thread would then own
/// more than [`SCAN_MAX_PER_THREAD`]): enough to fill a GPU. Rows shorter than 256·128·1024
/// elements use fewer, as [`SCAN_PER_THREAD`] decides.
const SCAN_GROUPS: usize = 1024;
/// The fewest elements a thread of a reduce-then-scan owns. Measured on PoCL (2 cores,
/// `filter_power`'s kernel time, 2M ints, 40 trips): 8 per thread (977 work-groups) took
/// 840 ms, 16 655, 32 573, 64 523, 128 486, 256 506: longer chunks pay fewer work-groups'
/// barriers, and past 128 the second kernel's private array of s cells costs what they save.
const SCAN_PER_THREAD: usize = 128;
/// The most elements a thread of a reduce-then-scan owns: its second kernel keeps them in a
/// private array (`seqfor`, at most 4096 cells), which a CPU device keeps per work-item.
const SCAN_MAX_PER_THREAD: usize = 256;

/// The elements a thread of a reduce-then-scan owns in a row of run-time length: fewer than
/// [`SCAN_PER_THREAD`], so that a short row (an unbounded vector may be short) costs few
/// positions of a work-group's 256 · 32; its totals are scanned the same way, at most
/// 2^31 / 8192 of them, then 32.
const RUN_PER_THREAD: usize = 32;

/// The work-groups per row (q) and elements per thread (s) of a reduce-then-scan over `k` rows
/// of `m`: [`SCAN_PER_THREAD`] per thread where the rows are long enough, no more than
/// [`SCAN_GROUPS`] work-groups over all rows unless a thread would then own more than
/// [`SCAN_MAX_PER_THREAD`].
fn scan_shape(k: usize, m: usize) -> (usize, usize) {
    let q = m
        .div_ceil(256 * SCAN_PER_THREAD)
        .min(SCAN_GROUPS.div_ceil(k))
        .max(m.div_ceil(256 * SCAN_MAX_PER_THREAD))
        .max(1);
    let s = m.div_ceil(256 * q);
    (m.div_ceil(256 * s), s)
}

impl Lowerer {
    /// A long `scan(addi, …)` of the program over `rows`: the prefix sums in doubles by the
    /// block-level scans, each prefix checked against the int range, so that the scan fails
    /// exactly when a prefix in the oracle's order leaves it. The doubles are exact up to the
    /// first prefix that leaves the range, however long the row: every sum the scan forms on
    /// the way to prefix j adds a run of elements that ends at j or before, which is the
    /// difference of two prefixes (below 2^31 in magnitude up to there), so below 2^32.
    pub(super) fn scan_checked_addi(
        &mut self,
        r: &Name,
        a: &Arr,
        k: usize,
        m: usize,
        span: Span,
    ) -> Arr {
        self.scan_checked_addi_of(r, a, &Rows::Static { k, m }, span)
    }

    /// [`Lowerer::scan_checked_addi`] of `rows`: static ones, or one row of run-time length.
    fn scan_checked_addi_of(&mut self, r: &Name, a: &Arr, rows: &Rows, span: Span) -> Arr {
        let ints = a.clone();
        let doubles = Arr::new(Ty::Double, a.shape.clone(), move |i| {
            fcl!("(i2d {})", (ints.index)(i))
        });
        let addd = Val::Fun(Rc::new(Fun::Op(Prim::Addd, Span::DUMMY)));
        let sums = self.scan_blocks_of(r, &addd, &fcl!("0.0"), &doubles, rows);
        let fresh = self.fresh.clone();
        Arr::new(Ty::Int, a.shape.clone(), move |i| {
            int_prefix(&fresh, Prim::Addi, span, &(sums.index)(i))
        })
    }

    /// `scan(f, z, a)` of an unbounded vector `a` (module `capacity`), where `f` is the
    /// program's checked `addi` or has an identity: the block-level scan over its run-time
    /// length, the result of that length; `None` for another `f` (the caller reads the
    /// length back).
    pub(super) fn scan_unbounded(&mut self, f: &Val, a: &Arr) -> Option<Arr> {
        let len = a.run_len.clone()?;
        let (ty, r) = (a.ty, self.fresh.name("r"));
        let rows = Rows::Run {
            len: self.host_count((*len).clone()),
            most: UNBOUNDED,
        };
        let mut out = if let Some(span) = checked_addi(f, ty) {
            self.comment("scan: an unbounded vector's checked sums");
            self.scan_checked_addi_of(&r, a, &rows, span)
        } else {
            let id = identity(f, ty).filter(|_| ty != Ty::Bool)?;
            self.scan_blocks_of(&r, f, &id, a, &rows)
        };
        out.run_len = Some(len);
        Some(out)
    }

    /// `reduce(f, z, a)` of an unbounded vector `a` where `f` has an identity and checks
    /// nothing: the last prefix of its block-level scan (z for an empty vector), where a
    /// sequential fold would run on one thread; `None` for another `f`.
    pub(super) fn reduce_unbounded(&mut self, f: &Val, z: &Arr, a: &Arr) -> Option<Arr> {
        let len = a.run_len.clone()?;
        identity(f, a.ty)?;
        let scanned = self.scan_unbounded(f, a)?;
        let last = (scanned.index)(&fcl!("({len} - 1)"));
        Some(Arr::scalar(
            a.ty,
            fcl!("(if {len} == 0 then {} else {last})", z.expr()),
        ))
    }

    /// One thread per row scans the row sequentially into a private buffer (which FCL's -O2
    /// keeps in a carried scalar). `m`, the row length, is a literal, or for one row an
    /// unbounded vector's run-time length (the FCL compiler then carries the scan at every
    /// level: a `seqfor` of run-time size has no private array). With `len` (a row's run-time
    /// length, given the row: a vector of run-time length, or the rows of an array of run-time
    /// extents): the positions from the length on keep the last prefix, so that `f` never
    /// sees the junk, and an empty row's first element is not read.
    pub(super) fn scan_rows(
        &mut self,
        r: &Name,
        f: &Val,
        a: &Arr,
        k: usize,
        m: &Fcl,
        len: Option<&dyn Fn(&Fcl) -> Fcl>,
    ) {
        let (row, j, read) = (
            self.fresh.name("row"),
            self.fresh.name("j"),
            self.fresh.name("read"),
        );
        let ty = a.ty;
        let x = row_element(&self.fresh, a, &fcl!("{row}"), &fcl!("{j}"));
        let prev = ty.load(&fcl!("({read} ({j} - 1))"));
        let next = ty.store(&apply_scalar(
            &self.fresh,
            f,
            &[(ty, x), (ty, prev.clone())],
        ));
        let first = ty.store(&row_element(&self.fresh, a, &fcl!("{row}"), &fcl!("0")));
        let len = len.map(|len| len(&fcl!("{row}")));
        let (first, next) =
            within_length(len.as_ref(), &j, first, next, ty.store(&ty.fill()), prev);
        let length = row_length(m);
        self.comment(format!("scan: thread-level per row, rows={k} len={length}"));
        let step = fcl!("(fn {read} => fn {j} => ({j}, if {j} == 0 then {first} else {next}))");
        self.seqfor_per_row(r, k, m, &row, &step);
    }

    /// `r <- ` one thread per row of `k` rows, each running `seqfor cells cells step` with
    /// `row` bound to its row (fewer rows than a block: as many threads as rows, since the
    /// oracle simulates every thread); the rows' results one after another.
    pub(super) fn seqfor_per_row(
        &mut self,
        r: &Name,
        k: usize,
        cells: &Fcl,
        row: &Name,
        step: &Fcl,
    ) {
        let (nb, t) = (k.div_ceil(256), k.min(256));
        self.stmt(fcl_stmt!(
            "{r} <- forceM<grid> (concat<block> {} (generate {nb} (fn b => concat<thread> {cells} \
             (generate {t} (fn t => let {row} = mini (b * {t} + t) {} in return<thread> \
             (seqfor {cells} {cells} {step}))))))",
            times(t, cells),
            k - 1
        ));
    }

    /// The scan of `k` rows of `q` work-group totals (`total(i)` the FCL expression of total
    /// i, numbered row by row), or None for one work-group per row: recursively for long
    /// rows, else one thread per row.
    fn scan_totals(
        &mut self,
        f: &Val,
        id: &Fcl,
        ty: Ty,
        k: usize,
        q: usize,
        total: impl Fn(&Fcl) -> Fcl + 'static,
    ) -> Option<Arr> {
        if q == 1 {
            return None;
        }
        let totals = Arr::new(ty, vec![k, q], total);
        let p = self.fresh.name("r");
        Some(if q >= TREE_MIN_LEN {
            self.scan_blocks(&p, f, id, &totals, k, q)
        } else {
            self.scan_rows(&p, f, &totals, k, &int(q as i64), None);
            Arr::new(ty, vec![k, q], move |i| ty.load(&fcl!("(index {p} {i})")))
        })
    }

    /// A long scan by an associative, commutative `f` with identity `id` (an FCL expression)
    /// of `k` rows of `m`, into buffer `r`: reduce-then-scan (module comment), q work-groups
    /// per row, each of its 256 threads owning s contiguous elements (past the row's end,
    /// `id`). Every prefix combines real elements only, never `id` (`addd`'s 0.0 would turn a
    /// −0.0 prefix into 0.0): a chunk's fold starts at its first element, and the first thread
    /// of a row starts from nothing.
    pub(super) fn scan_blocks(
        &mut self,
        r: &Name,
        f: &Val,
        id: &Fcl,
        a: &Arr,
        k: usize,
        m: usize,
    ) -> Arr {
        self.scan_blocks_of(r, f, id, a, &Rows::Static { k, m })
    }

    /// [`Lowerer::scan_blocks`] of `rows`: static ones, or one row of run-time length.
    pub(super) fn scan_blocks_of(
        &mut self,
        r: &Name,
        f: &Val,
        id: &Fcl,
        a: &Arr,
        rows: &Rows,
    ) -> Arr {
        self.helpers.insert(SKLANSKY);
        let ty = a.ty;
        let step = self.step_fn(f, ty);
        let shape = rows.shape();
        let (s, chunk, q) = (shape.s, 256 * shape.s, shape.q.clone());
        let fresh = self.fresh.clone();
        let (len, run) = (shape.len.clone(), matches!(rows, Rows::Run { .. }));
        let element = |row: &Name, j: &Name| {
            let x = match run {
                true => (a.index)(&fcl!("{j}")),
                false => row_element(&fresh, a, &fcl!("{row}"), &fcl!("{j}")),
            };
            fcl!("(if lti {j} {len} then {x} else {id})")
        };
        // the row and the chunk of work-group g
        let (row_of, chunk_of) = match run {
            true => (int(0), fcl!("g")),
            false => (fcl!("g / {q}"), fcl!("g % {q}")),
        };
        let groups = shape.groups.clone();
        // 1. each thread folds its chunk; the work-group scans the 256 thread totals
        let parts = Name::new(&format!("{r}_parts"));
        let (row, c, b, j0, j) = (
            self.fresh.name("row"),
            self.fresh.name("c"),
            self.fresh.name("b"),
            self.fresh.name("j"),
            self.fresh.name("j"),
        );
        let (first, rest) = (ty.store(&element(&row, &j0)), ty.store(&element(&row, &j)));
        let groups_text = int_literal(&q).map_or("a run-time number of".into(), |q| q.to_string());
        self.comment(format!(
            "scan: block-level reduce-then-scan, {} ({groups_text} work-groups of 256 threads x \
             {s} contiguous per row): chunk totals, scanned per work-group",
            rows.what()
        ));
        self.stmt(fcl_stmt!(
            "{parts} <- forceM<grid> (concat<block> 256 (generate {groups} (fn g => let {row} = \
             {row_of} in let {c} = {chunk_of} in do<block> {{ tp <- concat<thread> 1 (generate \
             256 (fn t => let {b} = {c} * {chunk} + t * {s} in return<thread> (foldl {step} \
             (let {j0} = {b} in {first}) (generate {} (fn i => let {j} = {b} + 1 + i in \
             {rest}))))) ; tq <- force<block> tp ; sklansky 8 {step} tq }})))",
            s - 1
        ));
        // 2. the work-groups' totals, scanned along each row (of a row of run-time length:
        //    as a row of their run-time number, where there can be more than one)
        let before = {
            let parts = parts.clone();
            let total = move |i: &Fcl| ty.load(&fcl!("(index {parts} ({i} * 256 + 255))"));
            match run {
                true if shape.most_groups == 1 => None,
                true => {
                    let (p, most) = (self.fresh.name("r"), shape.most_groups);
                    let totals = Arr::new(ty, vec![most], total);
                    let rows = Rows::Run {
                        len: q.clone(),
                        most,
                    };
                    Some(self.scan_blocks_of(&p, f, id, &totals, &rows))
                }
                false => self.scan_totals(f, id, ty, shape.k, shape.most_groups, total),
            }
        };
        // 3. each thread scans its chunk again from the prefix before it
        let (row, c, b, j, read, x) = (
            self.fresh.name("row"),
            self.fresh.name("c"),
            self.fresh.name("b"),
            self.fresh.name("j"),
            self.fresh.name("read"),
            self.fresh.name("x"),
        );
        let apply = |acc: Fcl| apply_scalar(&self.fresh, f, &[(ty, fcl!("{x}")), (ty, acc)]);
        let mine = ty.load(&fcl!("(index {parts} (g * 256 + t - 1))"));
        let start = match &before {
            None => {
                let other = apply(mine);
                fcl!("if t == 0 then {x} else {other}")
            }
            Some(p) => {
                let earlier = match run {
                    true => fcl!("({c} - 1)"),
                    false => fcl!("({row} * {q} + {c} - 1)"),
                };
                let group = (p.index)(&earlier);
                let both = apply_scalar(&self.fresh, f, &[(ty, mine.clone()), (ty, group.clone())]);
                let first_group = apply(mine);
                let later = apply(fcl!("(if t == 0 then {group} else {both})"));
                fcl!("if {c} == 0 then (if t == 0 then {x} else {first_group}) else {later}")
            }
        };
        let next = apply(ty.load(&fcl!("({read} (i - 1))")));
        let elem = element(&row, &j);
        let scanned = ty.store(&fcl!("(if i == 0 then ({start}) else {next})"));
        self.comment(format!(
            "scan: block-level reduce-then-scan, {}: each chunk scanned from the prefix \
             before it",
            rows.what()
        ));
        self.stmt(fcl_stmt!(
            "{r} <- forceM<grid> (concat<block> {chunk} (generate {groups} (fn g => let {row} = \
             {row_of} in let {c} = {chunk_of} in concat<thread> {s} (generate 256 (fn t => let \
             {b} = {c} * {chunk} + t * {s} in return<thread> (seqfor {s} {s} (fn {read} => fn i \
             => (i, let {j} = {b} + i in let {x} = {elem} in {scanned}))))))))"
        ));
        // a row takes q·256·s ≥ m positions in `r`
        let r = r.clone();
        let at = match *rows {
            Rows::Static { k, m } if k > 1 && shape.most_groups * chunk != m => {
                let width = shape.most_groups * chunk;
                Some((m, width))
            }
            _ => None,
        };
        Arr::new(ty, a.shape.clone(), move |i| {
            let at = match at {
                Some((m, width)) => fcl!("({i} / {m} * {width} + {i} % {m})"),
                None => i.clone(),
            };
            ty.load(&fcl!("(index {r} {at})"))
        })
    }
}

/// The rows a block-level scan runs over.
#[derive(Clone)]
pub(super) enum Rows {
    /// `k` rows of `m` elements.
    Static { k: usize, m: usize },
    /// One row of run-time length `len` (an FCL int the host evaluates, see
    /// `Lowerer::host_count`), at most `most`: an unbounded vector (module `capacity`), or
    /// the work-groups' totals of one.
    Run { len: Fcl, most: usize },
}

/// How a block-level scan divides its rows among work-groups.
struct ScanShape {
    /// The rows.
    k: usize,
    /// Elements per thread.
    s: usize,
    /// Work-groups per row: an FCL int, run-time for a row of run-time length.
    q: Fcl,
    /// Work-groups over all rows (FCL).
    groups: Fcl,
    /// The most work-groups a row can have.
    most_groups: usize,
    /// The row's length (FCL).
    len: Fcl,
}

impl Rows {
    /// The rows, for the comments.
    fn what(&self) -> String {
        match self {
            Rows::Static { k, m } => format!("rows={k} len={m}"),
            Rows::Run { .. } => "one row of run-time length".to_string(),
        }
    }

    fn shape(&self) -> ScanShape {
        match self {
            Rows::Static { k, m } => {
                let (q, s) = scan_shape(*k, *m);
                ScanShape {
                    k: *k,
                    s,
                    q: fcl!("{q}"),
                    groups: fcl!("{}", k * q),
                    most_groups: q,
                    len: fcl!("{m}"),
                }
            }
            Rows::Run { len, most } => {
                let (s, chunk) = (RUN_PER_THREAD, 256 * RUN_PER_THREAD);
                // (at least one work-group: a consumer reads position 0 of an empty vector's
                // buffer, module `capacity`)
                let q = fcl!("((maxi 1 {len} + {}) / {chunk})", chunk - 1);
                ScanShape {
                    k: 1,
                    s,
                    q: q.clone(),
                    groups: q,
                    most_groups: most.div_ceil(chunk),
                    len: len.clone(),
                }
            }
        }
    }
}

/// A sequential scan's first element and next prefix for a vector of run-time length `len`:
/// an empty vector's first element is not read (`fill` instead), and the positions from `len`
/// on keep the previous prefix `prev`, so that the function never sees the junk; as they are
/// without `len`.
pub(super) fn within_length(
    len: Option<&Fcl>,
    j: &Name,
    first: Fcl,
    next: Fcl,
    fill: Fcl,
    prev: Fcl,
) -> (Fcl, Fcl) {
    match len {
        Some(len) => (
            fcl!("(if lti 0 {len} then {first} else {fill})"),
            fcl!("(if lti {j} {len} then {next} else {prev})"),
        ),
        None => (first, next),
    }
}

/// How a comment names a row length `m`: the number, or its run-time length.
pub(super) fn row_length(m: &Fcl) -> String {
    int_literal(m).map_or("its run-time length".into(), |m| m.to_string())
}
