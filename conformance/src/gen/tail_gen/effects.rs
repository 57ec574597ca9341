//! The generator's effectful productions beyond printing: in-place update `idxassign` (rule
//! 3.57, spec tail.md §5.11) and integer formatting `formatI` (3.74, §5.12).

use super::{Gen, Ty, Val};
use semantics::tail::print_value::double_literal;

/// Binding texts that make a fresh array in the store (never an alias of another variable's
/// array), so updating one in place changes no other binding.
const FRESH: &[&str] = &[
    "iota(",
    "[",
    "each(",
    "zipWith(",
    "scan(",
    "reshape([",
    "transp",
];

impl Gen<'_> {
    /// `idxassign(is, v, x)` on the binding just made, when its array is fresh: element `is`
    /// (1-based, in range) of `v` becomes the literal `x`, for every later use of `v`; the
    /// binding itself is `tt`.
    pub(super) fn idx_assign(&mut self) -> Option<(String, Val)> {
        if !FRESH.iter().any(|f| self.last_text.starts_with(f)) {
            return None;
        }
        let (name, v) = self.env.last()?.clone();
        if v.rank() == 0 || v.data.is_empty() {
            return None;
        }
        let index: Vec<usize> = v.shape.iter().map(|&s| self.rng.range(1, s)).collect();
        let (x, text) = match v.ty {
            Ty::Int => {
                let n = self.rng.range(0, 20) as i64 - 10;
                (n as f64, n.to_string())
            }
            Ty::Double => {
                let d = (self.rng.range(0, 40) as f64 - 20.0) / 4.0;
                (d, double_literal(d))
            }
            Ty::Bool => {
                let b = self.rng.chance(50);
                (
                    if b { 1.0 } else { 0.0 },
                    (if b { "tt" } else { "ff" }).into(),
                )
            }
        };
        // row-major position of the 1-based index
        let at = index
            .iter()
            .zip(&v.shape)
            .fold(0, |acc, (&i, &s)| acc * s + i - 1);
        if let Some((_, target)) = self.env.last_mut() {
            target.data[at] = x;
        }
        let is: Vec<String> = index.iter().map(|i| i.to_string()).collect();
        Some((
            format!("idxassign([{}],{name},{text})", is.join(",")),
            Val {
                ty: Ty::Bool,
                shape: Vec::new(),
                data: vec![1.0],
            },
        ))
    }

    /// `shape(prArrC(formatI(x)))` of an int scalar (or literal) x: prints x's decimal text and
    /// gives its length as a one-element int vector.
    pub(super) fn format_int(&mut self) -> Option<(String, Val)> {
        let (arg, n) = match self.pick(|v| v.rank() == 0 && v.ty == Ty::Int) {
            Some((name, v)) => (name, v.data[0] as i64),
            None => {
                let n = self.rng.range(0, 2000) as i64 - 1000;
                (n.to_string(), n)
            }
        };
        let text = n.to_string();
        self.out.push_str(&format!("{text}\n"));
        Some((
            format!("shape(prArrC(formatI({arg})))"),
            Val {
                ty: Ty::Int,
                shape: vec![1],
                data: vec![text.len() as f64],
            },
        ))
    }
}
