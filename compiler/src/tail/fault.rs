//! Faults planted in the TAIL lowering: deliberate, realistic mistakes of a writer of this
//! lowering, each one changed line at a site named below, for the mutation score of the TAIL
//! tester (`tailfcl fuzz --lang tail --mutation-score`), beside the FCL compiler's faults of
//! [`crate::fault`].
//!
//! A fault is a setting of one lowering ([`super::lower_tail_faulty`]) carried by the
//! lowering's shared context (`value::Fresh`), so it reaches every index function and
//! every function-body lowerer of that program and nothing else: the TAIL oracle, the known
//! values the lowering computes with the semantics' own operators (module `ops`) and every
//! other lowering in the process stay correct. Only the FCL it builds changes, so the lowered
//! program disagrees with the TAIL oracle on the FCL oracle and on the device alike.

/// A deliberate bug of the TAIL lowering.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LoweringFault {
    /// `rotate` moves rows right instead of left (site: `shape.rs`, `P::Rotate`, the count
    /// `k` negated). Breaks every rotation whose count is not 0 or half the row modulo its
    /// length.
    RotateDirection,
    /// Over-`take` repeats the edge element instead of padding with fills (clamped
    /// addressing; site: `shape.rs`, `take`). Breaks a take longer than its argument (or a
    /// negative one longer than it) whose edge element is not the fill.
    TakeFill,
    /// A negative `take` takes the first rows instead of the last (site: `shape.rs`, `take`,
    /// the offset `o`). Breaks `take(-n, a)` wherever the first and last rows differ.
    TakeWrongEnd,
    /// A negative `drop` drops the first rows instead of the last (site: `shape.rs`, `drop`,
    /// the offset). Breaks `drop(-n, a)`.
    DropWrongEnd,
    /// A transposition decodes its flat index with the operand's shape instead of the
    /// result's (site: `shape.rs`, `transpose`, `index_by_coords`). Breaks `transp`/`transp2`
    /// of a non-square matrix read by flat index.
    TranspShape,
    /// `cat` of matrices reads the second operand's rows with the first operand's row length
    /// (site: `shape.rs`, `cat`). Breaks `cat` of matrices of different widths.
    CatStride,
    /// `reduce` of an empty vector gives the fill instead of the given neutral element (site:
    /// `reduce.rs`, `reduction_code`). Breaks `reduce(f, z, a)` of an empty `a` with `z`
    /// other than 0.
    EmptyReduceNeutral,
    /// `replicate` by computed counts takes a negative count as 0 instead of that many fills
    /// (site: `filter.rs`, the counts). Breaks `replicate` with a negative count computed on
    /// the device.
    ReplicateNegative,
    /// The binary search of a `replicate` by computed counts finds the first position whose
    /// prefix sum reaches the output index instead of exceeding it (`<=` for `<`; site:
    /// `filter.rs`, `search`). Breaks every such `replicate` with a count other than 1.
    FilterSearchBound,
    /// The scatter of a `compress` by a computed mask sends kept element i to its inclusive
    /// prefix sum instead of one before it (site: `filter.rs`, `compress_scatter`). Breaks
    /// every such `compress` that keeps an element.
    CompressScatterOffset,
    /// `divi` truncates as FCL's `/` does instead of flooring (site: `scalar.rs`,
    /// `floored_div`). Breaks `divi` of operands of different signs that do not divide.
    DiviTruncates,
    /// `resi(m, x)` takes its arguments in the C order, as `x`'s residue taken by `m` swapped
    /// (`m mod x`; site: `scalar.rs`, `P::Resi`). Breaks `resi` wherever `m mod x` differs
    /// from `x mod m`.
    ResiOperands,
    /// A variable bound to another variable's array (`let y = x`, a parameter, a print's
    /// result) gets a location of its own, so `idxassign` through one name is not seen
    /// through the others (site: `location.rs`, `Store::bind`). Breaks every update through
    /// an alias read through another name.
    AliasByName,
    /// A loop whose step updates an array made before it carries that array in its state but
    /// leaves its location with the array from before the loop (site: `carry.rs`,
    /// `Lowerer::carried_back`). Breaks every read after a `power`, an `each` or a device `if`
    /// that updated an array made before it.
    CarriedDropped,
}

impl LoweringFault {
    /// Every lowering fault, in the order the mutation score reports them.
    pub const ALL: [LoweringFault; 14] = [
        LoweringFault::RotateDirection,
        LoweringFault::TakeFill,
        LoweringFault::TakeWrongEnd,
        LoweringFault::DropWrongEnd,
        LoweringFault::TranspShape,
        LoweringFault::CatStride,
        LoweringFault::EmptyReduceNeutral,
        LoweringFault::ReplicateNegative,
        LoweringFault::FilterSearchBound,
        LoweringFault::CompressScatterOffset,
        LoweringFault::DiviTruncates,
        LoweringFault::ResiOperands,
        LoweringFault::AliasByName,
        LoweringFault::CarriedDropped,
    ];

    /// The command-line name (`--inject NAME`).
    pub fn name(self) -> &'static str {
        match self {
            LoweringFault::RotateDirection => "tail-rotate-direction",
            LoweringFault::TakeFill => "tail-take-fill",
            LoweringFault::TakeWrongEnd => "tail-take-wrong-end",
            LoweringFault::DropWrongEnd => "tail-drop-wrong-end",
            LoweringFault::TranspShape => "tail-transp-shape",
            LoweringFault::CatStride => "tail-cat-stride",
            LoweringFault::EmptyReduceNeutral => "tail-empty-reduce-neutral",
            LoweringFault::ReplicateNegative => "tail-replicate-negative",
            LoweringFault::FilterSearchBound => "tail-filter-search-bound",
            LoweringFault::CompressScatterOffset => "tail-compress-scatter-offset",
            LoweringFault::DiviTruncates => "tail-divi-truncates",
            LoweringFault::ResiOperands => "tail-resi-operands",
            LoweringFault::AliasByName => "tail-alias-by-name",
            LoweringFault::CarriedDropped => "tail-carried-dropped",
        }
    }
}
