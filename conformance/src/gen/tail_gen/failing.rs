//! Programs that fail at run time: a share of generated programs ends in an expression the
//! TAIL semantics stops on (int overflow in `each`, in a long `reduce` or `scan`; division by
//! zero in `divi` or `mod`; a negative `iota` or `power` count; an `idxS` out of range;
//! `zipWith` of different shapes). The generator predicts the failing rule (spec tail.md §5.1:
//! apltail's overflow and division errors; §5.8/§5.9 for the shapes and counts), and the
//! expected output is what the program printed before, then `error: RULE`; every engine must
//! fail with that rule (`crate::fuzz::tail`).
//!
//! The failing expression is the program's last: the statements before it run and print as in
//! a program that does not fail, and it is the result, so every engine computes it whole.

use super::{Gen, Ty};

/// Percent of generated programs that end in a failing expression.
pub const FAILING_SHARE: u32 = 12;

/// The largest int, as a double.
const INT_MAX: f64 = 2147483647.0;

/// A failing expression: its text and the rule the oracle fails with (`3.32 muli`).
pub(super) type Failing = (String, String);

impl Gen<'_> {
    /// A failing expression over the values bound so far (or literal ones), or `None` when the
    /// production drawn finds nothing it can make fail for certain.
    pub(super) fn failing(&mut self) -> Option<Failing> {
        match self.rng.range(0, 7) {
            0 => self.overflow_each(),
            1 => self.overflow_fold(),
            2 => self.division_by_zero(),
            3 => self.negative_count(),
            4 => self.index_out_of_range(),
            5 => self.mismatched_zip(),
            6 => Some(self.negative_iota()),
            _ => self.subtract_overflow(),
        }
    }

    /// `each(fn x => muli(x, 2147483647), v)` where some element of v is at least 2 in
    /// magnitude.
    fn overflow_each(&mut self) -> Option<Failing> {
        let (name, _) = self
            .pick(|v| v.ty == Ty::Int && v.rank() >= 1 && v.data.iter().any(|x| x.abs() >= 2.0))?;
        let x = self.fresh();
        Some((
            format!("each(fn {x}:[int]0 => muli({x},2147483647),{name})"),
            "3.32 muli".into(),
        ))
    }

    /// `each(fn x => subi(negi(2147483647), x), v)` where some element is at least 2.
    fn subtract_overflow(&mut self) -> Option<Failing> {
        let (name, _) =
            self.pick(|v| v.ty == Ty::Int && v.rank() >= 1 && v.data.iter().any(|&x| x >= 2.0))?;
        let x = self.fresh();
        Some((
            format!("each(fn {x}:[int]0 => subi(negi(2147483647),{x}),{name})"),
            "3.32 subi".into(),
        ))
    }

    /// A long `reduce` or `scan` of `addi` whose prefix sums leave the int range (rows longer
    /// than a work-group's block, so the compiled reduction is a long one), or a product of
    /// 13 to 20 factors.
    fn overflow_fold(&mut self) -> Option<Failing> {
        let n = self.rng.range(2100, 4000);
        let x = self.fresh();
        // the prefix sums 1000·j(j+1)/2 pass 2^31 near j = 2072
        let elems = format!("each(fn {x}:[int]0 => muli({x},1000),iota({n}))");
        Some(match self.rng.range(0, 2) {
            0 => (format!("reduce(addi,0,{elems})"), "3.32 addi".into()),
            1 => (format!("scan(addi,0,{elems})"), "3.32 addi".into()),
            _ => {
                let m = self.rng.range(13, 20);
                (format!("reduce(muli,1,iota({m}))"), "3.32 muli".into())
            }
        })
    }

    /// `each(fn x => divi(100, subi(x, k)), v)` (or `mod`) where k is an element of v, and no
    /// element before the first k fails otherwise.
    fn division_by_zero(&mut self) -> Option<Failing> {
        let (name, v) = self.pick(|v| v.ty == Ty::Int && v.rank() >= 1 && !v.data.is_empty())?;
        let k = v.data[self.rng.range(0, v.data.len() - 1)];
        let x = self.fresh();
        let (op, rule) = match self.rng.chance(50) {
            true => ("divi", "3.32 divi"),
            false => ("mod", "3.32 mod"),
        };
        Some((
            format!("each(fn {x}:[int]0 => {op}(100,subi({x},{k})),{name})"),
            rule.into(),
        ))
    }

    /// `power(fn p => p, c, v)` with a negative count c computed from data (read back by the
    /// compiled program) or written as a subtraction.
    fn negative_count(&mut self) -> Option<Failing> {
        let (name, v) = self.pick(|v| v.rank() >= 1)?;
        let p = self.fresh();
        let count = match self.pick(|v| v.ty == Ty::Int && v.rank() == 1 && !v.data.is_empty()) {
            // a count from data: the sum of a vector minus more than its sum
            Some((w, wv)) if self.rng.chance(50) => {
                let sum: f64 = wv.data.iter().sum();
                if sum.abs() > INT_MAX / 2.0 {
                    return None;
                }
                format!("subi(reduce(addi,0,{w}),{})", sum as i64 + 1)
            }
            _ => format!("subi(0,{})", self.rng.range(1, 5)),
        };
        Some((
            format!("power(fn {p}:{} => {p},{count},{name})", v.annotation()),
            "3.60 power".into(),
        ))
    }

    /// `iota` of a negative count.
    fn negative_iota(&mut self) -> Failing {
        let k = self.rng.range(1, 9);
        (
            format!("iota(subi({},{}))", k, k + 1 + self.rng.range(0, 3)),
            "3.35 iota".into(),
        )
    }

    /// `idxS(1, i, a)` with i past the first axis (or 0).
    fn index_out_of_range(&mut self) -> Option<Failing> {
        let (name, v) = self.pick(|v| v.rank() >= 1)?;
        let n = v.shape[0];
        let i = match self.rng.chance(50) {
            true => n + 1 + self.rng.range(0, 2),
            false => 0,
        };
        Some((format!("idxS(1,{i},{name})"), "3.71 idxS".into()))
    }

    /// `zipWith` of two int vectors of different lengths.
    fn mismatched_zip(&mut self) -> Option<Failing> {
        let (name, v) = self.pick(|v| v.ty == Ty::Int && v.rank() == 1)?;
        let n = v.shape[0] + 1 + self.rng.range(0, 2);
        Some((
            format!("zipWith(addi,{name},iota({n}))"),
            "3.68 zipWith".into(),
        ))
    }
}
