//! Large arrays: the sizes at which the lowering and the FCL compiler change strategy, which the
//! small values of the other productions never reach. A vector longer than a work-group of 256
//! reduces and scans by block-level trees in local memory with barriers, over several blocks
//! of a grid whose last block is partial (no length here is a multiple of 256); a matrix with
//! rows longer than a block does so per row; a matrix of many rows of 17 or 18 elements folds
//! each row sequentially in a loop of one thread, the threads spread over several blocks.
//!
//! Sizes stay at a few thousand elements, so that the TAIL and FCL oracles (whose speed
//! bounds a campaign) run them in a fraction of a second.

use super::{Gen, Ty, Val};

/// One binding in this many hundred is a large source, about one program in four with a
/// large array (a program has 2 to 8 bindings).
pub(super) const LARGE_PERCENT: u32 = 7;

/// One binding in this many hundred consumes a large value, when one is bound.
pub(super) const CONSUME_PERCENT: u32 = 30;

/// The percentage of picks by the other productions that may take a large value.
pub(super) const LARGE_VISIBLE: u32 = 20;

/// The size from which a value counts as large: more elements than a work-group holds.
pub const LARGE_SIZE: usize = 257;

/// The largest number of elements of a generated large value.
const MAX_ELEMS: usize = 5040;

impl Gen<'_> {
    /// The hook of [`Gen::binding`]: a large source ([`LARGE_PERCENT`]), a printed reduction,
    /// scan or map of a bound large value ([`CONSUME_PERCENT`]) or an edge case
    /// ([`super::edges::EDGE_PERCENT`]) at their shares, else `None` (the other productions).
    pub(super) fn sized_or_edge(&mut self) -> Option<(String, Val)> {
        let draw = self.rng.range(0, 99) as u32;
        if draw < LARGE_PERCENT {
            return Some(self.large_source());
        }
        if draw < LARGE_PERCENT + super::edges::EDGE_PERCENT {
            return self.edge();
        }
        if draw >= 100 - CONSUME_PERCENT {
            return self.large_consumer();
        }
        None
    }

    /// A reduction (or, less often, a scan or a map) of a bound large value, printed, so that
    /// it is computed whatever the program's result depends on.
    fn large_consumer(&mut self) -> Option<(String, Val)> {
        let bound: Vec<(String, Val)> = self
            .env
            .iter()
            .filter(|(_, v)| super::is_plain(v) && v.rank() >= 1 && v.data.len() >= LARGE_SIZE)
            .cloned()
            .collect();
        if bound.is_empty() {
            return None;
        }
        let (name, v) = self.rng.pick(&bound).clone();
        // block-level scans are rarer than reductions: PoCL takes seconds to build one
        let (text, val) = match self.rng.range(0, 5) {
            0..=2 => self.reduce_of(&name, &v)?,
            3 => self.scan_of(&name, &v)?,
            _ => {
                let (f_text, ty, f) = self.unary(v.ty, &v.data)?;
                let data = v.data.iter().map(|&a| f(a)).collect();
                let shape = v.shape.clone();
                (format!("each({f_text},{name})"), Val { ty, shape, data })
            }
        };
        let kind = if val.rank() == 0 { "Scl" } else { "Arr" };
        self.out
            .push_str(&format!("{}\n", super::printed_text(&val)));
        Some((format!("pr{kind}{}({text})", val.ty.letter()), val))
    }

    /// `iota(n)` shifted to go negative, maybe as quarters (doubles), maybe reshaped to a
    /// matrix: `reshape([r,c],each(fn x:[int]0 => subi(x,s),iota(r*c)))`.
    fn large_source(&mut self) -> (String, Val) {
        let shape = match self.rng.range(0, 3) {
            0 | 1 => vec![off_block(self.rng.range(LARGE_SIZE, 1000))],
            // rows longer than a block
            2 => vec![
                self.rng.range(2, 3),
                off_block(self.rng.range(LARGE_SIZE, 500)),
            ],
            // many rows folded by one thread each, over several blocks
            _ => vec![self.rng.range(LARGE_SIZE, 280), self.rng.range(17, 18)],
        };
        let n: usize = shape.iter().product::<usize>().min(MAX_ELEMS);
        let shape = if shape.len() == 2 && n < shape[0] * shape[1] {
            vec![n]
        } else {
            shape
        };
        let s = self.rng.range(0, n);
        let x = self.fresh();
        let ints: Vec<f64> = (1..=n).map(|i| i as f64 - s as f64).collect();
        let (text, ty, data) = if self.rng.chance(25) {
            let body = format!("muld(i2d(subi({x},{s})),0.25)");
            let data = ints.iter().map(|a| a * 0.25).collect();
            (body, Ty::Double, data)
        } else {
            (format!("subi({x},{s})"), Ty::Int, ints)
        };
        let vector = format!("each(fn {x}:[int]0 => {text},iota({n}))");
        let text = match shape.len() {
            1 => vector,
            _ => format!("reshape([{},{}],{vector})", shape[0], shape[1]),
        };
        (text, Val { ty, shape, data })
    }
}

/// `n`, or `n + 1` when `n` is a multiple of the block size: the last block stays partial.
fn off_block(n: usize) -> usize {
    if n.is_multiple_of(256) {
        n + 1
    } else {
        n
    }
}

/// Whether a generated program's source binds a large value (a literal `iota` count of at
/// least [`LARGE_SIZE`]), for the statistics and the generator's tests.
pub fn is_large_program(src: &str) -> bool {
    src.match_indices("iota(").any(|(at, _)| {
        let digits: String = src[at + 5..]
            .chars()
            .take_while(|c| c.is_ascii_digit())
            .collect();
        digits.parse::<usize>().is_ok_and(|n| n >= LARGE_SIZE)
    })
}
