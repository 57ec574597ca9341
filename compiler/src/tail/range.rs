//! Value ranges: what the lowering knows of an array's elements without knowing them, so that
//! the run-time checks of module `check` are left out where they cannot fail.
//!
//! A TAIL operator that can fail at run time (`addi` overflowing, `divi` by zero, `floor` of a
//! double outside the int range) is checked in lowered code, and a `let`-bound array whose
//! elements are checked is materialized where the oracle computes it (call by value), which
//! costs the fusion of everything after it; a `reduce(addi)` that checks folds sequentially in
//! the oracle's order instead of taking a block-level tree. Most arithmetic of real programs
//! cannot fail: `iota`'s elements are 1…n, `resi(7, x)` is 0…6, `b2i` is 0 or 1, and a sum of
//! a thousand of those fits an int by far. An interval per array (the bounds of every element,
//! [`Range`]) is carried from the sources the lowering knows (known values, `iota`) through the
//! scalar operators (interval arithmetic, [`scalar_range`]), the functions of `each` and
//! `zipWith`, the shape operators (which only move elements and add fills) and reductions; an
//! operator whose argument ranges prove that it cannot fail ([`cannot_fail`]) is lowered
//! unchecked, as the oracle would never stop there.
//!
//! Soundness is the point: every element the array can hold at run time lies in its range.
//! Where the lowering cannot tell, the range is `None` (any value of the type, NaN included
//! for doubles), and the check stays.

use semantics::tail::ops::prim::Prim;
use semantics::tail::value::{Array, Scalar};

/// Inclusive bounds of an array's elements (ints, bool as 0/1, char codes, or doubles that are
/// never NaN). Bounds are f64: every int is exact, and a product of two ints is exact where it
/// matters, near the int range (below 2^53).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Range {
    pub lo: f64,
    pub hi: f64,
}

/// The bounds of an int.
const INT: Range = Range {
    lo: i32::MIN as f64,
    hi: i32::MAX as f64,
};

/// A bool, as 0 or 1.
const BOOL: Range = Range { lo: 0.0, hi: 1.0 };

impl Range {
    /// `[lo, hi]`; `None` where a bound is NaN.
    pub(super) fn new(lo: f64, hi: f64) -> Option<Range> {
        (lo <= hi).then_some(Range { lo, hi })
    }

    /// The one value `x`.
    pub(super) fn point(x: f64) -> Option<Range> {
        Range::new(x, x)
    }

    /// The bounds of a known array's elements (`None` for an empty array, or with a NaN or a
    /// complex element).
    pub(super) fn of_known(a: &Array) -> Option<Range> {
        (0..a.size())
            .map(|i| Range::of_scalar(a.elems.get(i)))
            .reduce(|r, s| Some(r?.union(s?)))
            .flatten()
    }

    /// The one value of scalar `s` (`None` for NaN and complex numbers).
    pub(super) fn of_scalar(s: Scalar) -> Option<Range> {
        Range::point(scalar_value(s)?)
    }

    /// The bounds of both.
    pub(super) fn union(self, o: Range) -> Range {
        Range {
            lo: self.lo.min(o.lo),
            hi: self.hi.max(o.hi),
        }
    }

    /// Whether every value of `self` lies in `o`.
    pub(super) fn within(self, o: Range) -> bool {
        o.lo <= self.lo && self.hi <= o.hi
    }

    /// Whether every value lies in the int range.
    fn fits_int(self) -> bool {
        self.lo >= INT.lo && self.hi <= INT.hi
    }

    /// Whether both bounds are finite.
    fn finite(self) -> bool {
        self.lo.is_finite() && self.hi.is_finite()
    }

    /// Whether 0 is outside the range (a divisor that is never zero).
    fn nonzero(self) -> bool {
        self.lo > 0.0 || self.hi < 0.0
    }

    /// The smallest range holding `f` of each pair of bounds (for operators monotone in each
    /// argument on the given ranges).
    fn corners(self, o: Range, f: impl Fn(f64, f64) -> f64) -> Option<Range> {
        let cs = [
            f(self.lo, o.lo),
            f(self.lo, o.hi),
            f(self.hi, o.lo),
            f(self.hi, o.hi),
        ];
        if cs.iter().any(|c| c.is_nan()) {
            return None;
        }
        let lo = cs.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = cs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        Range::new(lo, hi)
    }
}

/// A scalar's value on the number line (`None` for NaN and complex numbers).
fn scalar_value(s: Scalar) -> Option<f64> {
    match s {
        Scalar::Int(v) => Some(f64::from(v)),
        Scalar::Bool(b) => Some(f64::from(u8::from(b))),
        Scalar::Char(c) => Some(f64::from(c)),
        Scalar::Double(d) if !d.is_nan() => Some(d),
        _ => None,
    }
}

/// The exact range of int operator `p`'s results on arguments in ranges `xs`, before any
/// overflow: the operator cannot overflow exactly when this fits the int range.
fn int_exact(p: Prim, xs: &[Range]) -> Option<Range> {
    use Prim as P;
    Some(match (p, xs) {
        (P::Addi, [a, b]) => Range::new(a.lo + b.lo, a.hi + b.hi)?,
        (P::Subi, [a, b]) => Range::new(a.lo - b.hi, a.hi - b.lo)?,
        (P::Muli, [a, b]) => a.corners(*b, |x, y| x * y)?,
        (P::Negi, [a]) => Range::new(-a.hi, -a.lo)?,
        (P::Absi, [a]) if a.lo >= 0.0 => *a,
        (P::Absi, [a]) if a.hi <= 0.0 => Range::new(-a.hi, -a.lo)?,
        (P::Absi, [a]) => Range::new(0.0, a.hi.max(-a.lo))?,
        // floored division by a divisor of one sign: monotone in each argument
        (P::Divi, [a, b]) if b.nonzero() => a.corners(*b, |x, y| (x / y).floor())?,
        _ => return None,
    })
}

/// Whether scalar operator `p` cannot fail (int overflow, division by zero, a rounding outside
/// the int range) on arguments in ranges `xs` (`None`: unknown).
pub(super) fn cannot_fail(p: Prim, xs: &[Option<Range>]) -> bool {
    use Prim as P;
    // `mod` fails only by its divisor
    if let (P::Mod, [_, Some(b)]) = (p, xs) {
        return b.nonzero();
    }
    let Some(xs) = xs.iter().copied().collect::<Option<Vec<Range>>>() else {
        return false;
    };
    match (p, xs.as_slice()) {
        (P::Addi | P::Subi | P::Muli | P::Negi | P::Absi | P::Divi, _) => {
            int_exact(p, &xs).is_some_and(Range::fits_int)
        }
        (P::Floor, [d]) => d.lo.floor() >= INT.lo && d.hi.floor() <= INT.hi,
        (P::Ceil, [d]) => d.lo.ceil() >= INT.lo && d.hi.ceil() <= INT.hi,
        _ => false,
    }
}

/// The range of scalar operator `p`'s result on arguments in ranges `xs` (`None`: unknown). An
/// operator that may fail gives the int range: where it does not stop the program, its result
/// is an int.
pub(super) fn scalar_range(p: Prim, xs: &[Option<Range>]) -> Option<Range> {
    use Prim as P;
    // results that are bounded whatever the arguments
    match p {
        P::Lti
        | P::Gti
        | P::Ltei
        | P::Gtei
        | P::Eqi
        | P::Eqc
        | P::Ltc
        | P::Gtc
        | P::Ltec
        | P::Gtec
        | P::Ltd
        | P::Lted
        | P::Gtd
        | P::Gted
        | P::Eqd
        | P::Andb
        | P::Orb
        | P::Xorb
        | P::Eqb
        | P::Nandb
        | P::Norb
        | P::Notb
        | P::B2i => return Some(BOOL),
        P::Signi | P::Signd => return Range::new(-1.0, 1.0),
        _ => {}
    }
    // a residue is bounded by its modulus alone
    match (p, xs) {
        (P::Mod, [_, Some(m)]) | (P::Resi, [Some(m), _]) if m.nonzero() => {
            return residue(*m);
        }
        _ => {}
    }
    // a bitwise and with a nonnegative operand is in 0..=that operand, whatever the other
    // (two's complement: the sign bit is cleared, no bit above the operand's survives)
    if let (P::Andi, [a, b]) = (p, xs) {
        let bound = [a, b]
            .into_iter()
            .flatten()
            .filter(|r| r.lo >= 0.0)
            .map(|r| r.hi)
            .reduce(f64::min);
        if let Some(hi) = bound {
            return Range::new(0.0, hi);
        }
    }
    // an int with no range is any int: a bound of maxi or mini holds whatever the other is
    let any_int = |x: &Option<Range>| x.or(Some(INT));
    let xs: Vec<Range> = match p {
        P::Maxi | P::Mini => xs.iter().map(any_int).collect::<Option<Vec<Range>>>()?,
        _ => xs.iter().copied().collect::<Option<Vec<Range>>>()?,
    };
    match (p, xs.as_slice()) {
        (P::Addi | P::Subi | P::Muli | P::Negi | P::Absi | P::Divi, _) => {
            Some(int_exact(p, &xs).filter(|r| r.fits_int()).unwrap_or(INT))
        }
        (P::Maxi | P::Maxd, [a, b]) => Range::new(a.lo.max(b.lo), a.hi.max(b.hi)),
        (P::Mini | P::Mind, [a, b]) => Range::new(a.lo.min(b.lo), a.hi.min(b.hi)),
        (P::I2d, [a]) => Some(*a),
        (P::Floor, [d]) if cannot_fail(p, &[Some(*d)]) => Range::new(d.lo.floor(), d.hi.floor()),
        (P::Ceil, [d]) if cannot_fail(p, &[Some(*d)]) => Range::new(d.lo.ceil(), d.hi.ceil()),
        (P::Floor | P::Ceil, _) => Some(INT),
        // doubles: finite bounds only, so that no ∞ − ∞ or 0 · ∞ makes a NaN
        (P::Addd, [a, b]) if a.finite() && b.finite() => Range::new(a.lo + b.lo, a.hi + b.hi),
        (P::Subd, [a, b]) if a.finite() && b.finite() => Range::new(a.lo - b.hi, a.hi - b.lo),
        (P::Muld, [a, b]) if a.finite() && b.finite() => a.corners(*b, |x, y| x * y),
        (P::Divd, [a, b]) if a.finite() && b.finite() && b.nonzero() => a.corners(*b, |x, y| x / y),
        (P::Negd, [a]) => Range::new(-a.hi, -a.lo),
        (P::Absd, [a]) if a.lo >= 0.0 => Some(*a),
        (P::Absd, [a]) => Range::new(0.0, a.hi.max(-a.lo)),
        (P::Expd, [a]) => Range::new(a.lo.exp(), a.hi.exp()),
        (P::Ln, [a]) if a.lo > 0.0 => Range::new(a.lo.ln(), a.hi.ln()),
        _ => None,
    }
}

/// The range of `x mod m` (floored: the sign of m) for a modulus in `m`, which is never 0
/// (`resi(m, x)` is `x mod m`).
fn residue(m: Range) -> Option<Range> {
    match m.lo > 0.0 {
        true => Range::new(0.0, m.hi - 1.0),
        false => Range::new(m.lo + 1.0, 0.0),
    }
}

/// The range of every prefix of a fold of `addi` over m elements in `x` from a start in `z`,
/// in whatever order; `None` when some prefix may leave the int range (the fold may fail).
pub(super) fn sum_range(z: Option<Range>, x: Option<Range>, m: usize) -> Option<Range> {
    let (z, x) = (z?, x?);
    let m = m as f64;
    let r = Range::new(z.lo + m * x.lo.min(0.0), z.hi + m * x.hi.max(0.0))?;
    r.fits_int().then_some(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(lo: f64, hi: f64) -> Option<Range> {
        Range::new(lo, hi)
    }

    #[test]
    fn int_arithmetic_fails_only_past_the_int_range() {
        let max = i32::MAX as f64;
        assert!(cannot_fail(Prim::Addi, &[r(0.0, max - 1.0), r(0.0, 1.0)]));
        assert!(!cannot_fail(Prim::Addi, &[r(0.0, max), r(0.0, 1.0)]));
        assert!(cannot_fail(
            Prim::Muli,
            &[r(-46340.0, 46340.0), r(-46340.0, 46340.0)]
        ));
        assert!(!cannot_fail(
            Prim::Muli,
            &[r(0.0, 46341.0), r(0.0, 46341.0)]
        ));
        assert!(!cannot_fail(Prim::Negi, &[r(i32::MIN as f64, 0.0)]));
        assert!(!cannot_fail(Prim::Addi, &[None, r(0.0, 0.0)]));
        // division: a divisor that may be 0, or INT_MIN / −1
        assert!(!cannot_fail(Prim::Divi, &[r(0.0, 9.0), r(-1.0, 1.0)]));
        assert!(cannot_fail(Prim::Divi, &[r(0.0, 9.0), r(1.0, 3.0)]));
        assert!(!cannot_fail(
            Prim::Divi,
            &[r(i32::MIN as f64, 0.0), r(-2.0, -1.0)]
        ));
        assert!(cannot_fail(Prim::Mod, &[None, r(1.0, 7.0)]));
        assert!(!cannot_fail(Prim::Mod, &[None, r(0.0, 7.0)]));
    }

    #[test]
    fn results_bound_every_value_the_oracle_computes() {
        let ops = [
            Prim::Addi,
            Prim::Subi,
            Prim::Muli,
            Prim::Divi,
            Prim::Mod,
            Prim::Resi,
        ];
        let vals = [-7, -3, -1, 0, 1, 2, 5, 9];
        for p in ops {
            for (alo, ahi) in [(-7, 2), (0, 9), (1, 5), (-3, -1)] {
                for (blo, bhi) in [(-7, 2), (1, 5), (-3, -1), (2, 9)] {
                    let range =
                        scalar_range(p, &[r(alo as f64, ahi as f64), r(blo as f64, bhi as f64)]);
                    for &a in vals.iter().filter(|&&a| (alo..=ahi).contains(&a)) {
                        for &b in vals.iter().filter(|&&b| (blo..=bhi).contains(&b)) {
                            let args = [Scalar::Int(a), Scalar::Int(b)];
                            let Ok(Scalar::Int(v)) =
                                semantics::tail::ops::apply::scalar_op(p, &args)
                            else {
                                continue;
                            };
                            let range = range.unwrap_or(INT);
                            assert!(
                                range.lo <= v as f64 && v as f64 <= range.hi,
                                "{p:?}({a},{b}) = {v} outside {range:?}"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn roundings_and_sums() {
        let q = scalar_range(Prim::Divd, &[r(1.0, 3000.0), r(100.0, 100.0)]);
        assert_eq!(q, r(0.01, 30.0));
        assert!(cannot_fail(Prim::Floor, &[q]));
        assert_eq!(scalar_range(Prim::Floor, &[q]), r(0.0, 30.0));
        assert!(!cannot_fail(Prim::Floor, &[r(0.0, f64::INFINITY)]));
        assert_eq!(scalar_range(Prim::Divd, &[r(1.0, 2.0), r(-1.0, 1.0)]), None);
        assert_eq!(sum_range(r(0.0, 0.0), r(0.0, 1.0), 9999), r(0.0, 9999.0));
        assert_eq!(sum_range(r(0.0, 0.0), r(-2.0, 1.0), 10), r(-20.0, 10.0));
        assert_eq!(sum_range(r(0.0, 0.0), r(0.0, 1e6), 1e4 as usize), None);
    }
}
