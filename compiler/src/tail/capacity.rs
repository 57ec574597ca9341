//! The capacity of a vector whose length the device computes ([`Arr::run_len`]): a static
//! bound that sizes its buffers and launches where the count's range gives one (at most
//! [`MAX_CAPACITY`]), and otherwise no static size at all.
//!
//! A vector whose count has no such bound (`iota(n)` or `take(n, v)` with `n` computed from
//! data, its range wider than [`MAX_CAPACITY`]) is *unbounded*: its shape is
//! `[`[`UNBOUNDED`]`]`, the largest length a TAIL vector can have, which the range analysis
//! may use as the sound bound it is, but which no buffer or launch is sized by. Its buffers
//! and launches take the run-time length instead: the FCL program computes the length on
//! the device and the FCL host reads it where an allocation or a launch needs it, when the
//! program runs. Every operator that takes a vector of run-time length (`ops::takes_dynamic`)
//! takes an unbounded one: maps, folds, scans, filters, joins, prints, sorts, `take`, `drop`,
//! `rotate`, `reshape` to a vector, indexing, a loop's or branch's state with any number of
//! them. A buffer of complex numbers holds two blocks as long as the vector
//! ([`Arr::stored_count`]). A loop's state that grows past any capacity is made unbounded
//! ([`Arr::unbounded`]). Where an operator cannot take it (a scan of complex numbers by an
//! operator other than `addx`/`subx`), it reads the length back (module `probe`), as before.
//!
//! A `reshape` to two or more extents whose product has no such bound gives an array of
//! *unbounded extents* ([`Arr::has_unbounded_extents`]): its first axis's capacity is
//! [`UNBOUNDED`] (a sound bound, if a loose one), so its size is too, and like an unbounded
//! vector its buffers hold its run-time length. The operators that only compute indices
//! from its extents (module `extents`: transpositions, reversals, rotations, `drop`, `cat`,
//! `idxS`, `zipWith`), maps, `rav` (an unbounded vector), `shape`, `first`, prints, `reduce`
//! and `scan` (a thread per row or per element, over the run-time extents: module
//! `extent_rows`) take it, and
//! so does a `power`'s state (module `state`: held as an unbounded vector is, its extents
//! where a vector's length is); any other operator (`idxassign`, …), an `if`'s state and a
//! map with statements read its extents back (`ops::unbounded_extents_taken`). An operator's
//! result whose capacities pass [`MAX_CAPACITY`] is made unbounded too (`extents::by_coords`).

use super::tree::{fcl, Fcl};
use super::value::{length_expr, Arr};

/// The largest capacity given to a vector whose length is a count computed on the device:
/// beyond it the vector is [`UNBOUNDED`].
pub(super) const MAX_CAPACITY: usize = 1 << 22;

/// The shape `[UNBOUNDED]` of an unbounded vector: the int range's largest length. (A vector
/// of run-time length with a static capacity past [`MAX_CAPACITY`], such as a filter of a
/// static vector of 5M elements, is not unbounded: only this shape says so, and an operator
/// that derives a capacity from an unbounded one keeps it.)
pub(super) const UNBOUNDED: usize = super::value::MOST_ELEMENTS;

impl Arr {
    /// Whether this is a vector whose length the device computes and whose capacity is not
    /// static (the module comment).
    pub(super) fn is_unbounded(&self) -> bool {
        self.run_dims.is_none() && self.sized_at_run_time()
    }

    /// Whether this is an array of run-time extents whose capacity is not static (the
    /// module comment).
    pub(super) fn has_unbounded_extents(&self) -> bool {
        self.run_dims.is_some() && self.sized_at_run_time()
    }

    /// Whether no static capacity sizes this array's buffers, only its run-time length: an
    /// unbounded vector or an array of unbounded extents.
    pub(super) fn sized_at_run_time(&self) -> bool {
        self.run_len.is_some() && self.size() >= UNBOUNDED
    }

    /// This vector (static, or of run-time length) as an unbounded one of the same length
    /// and elements: for a loop's state that grows past any capacity, whose buffer then
    /// takes its length on each trip.
    pub(super) fn unbounded(&self) -> Arr {
        Arr {
            shape: vec![UNBOUNDED],
            run_len: Some(length_expr(self)),
            known: None,
            at: None,
            transposed: None,
            element_ranges: None,
            int_source: None,
            ..self.clone()
        }
    }

    /// The number of elements a buffer that stores this array holds (at least one, so that
    /// no buffer is empty): its size, or for an unbounded vector or an array of unbounded
    /// extents its run-time length.
    pub(super) fn stored_count(&self) -> Fcl {
        match &self.run_len {
            Some(len) if self.sized_at_run_time() => fcl!("(maxi 1 {len})"),
            _ => fcl!("{}", self.size().max(1)),
        }
    }
}
