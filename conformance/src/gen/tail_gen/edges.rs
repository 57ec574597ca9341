//! Operators at the edges of their domains, which the other productions avoid: integer
//! division and residues of negative operands (TAIL's `divi`, `mod` and `resi` floor, C's `/`
//! and `%` truncate: where they differ is where a compiler goes wrong) and reductions of empty
//! vectors (the result is the given neutral element, here never the fill), and filters by
//! masks and counts computed from large vectors (run on the device, not folded).

use super::large::LARGE_SIZE;
use super::{Gen, Ty, Val};

/// One binding in this many hundred is an edge case ([`Gen::edge`]).
pub(super) const EDGE_PERCENT: u32 = 6;

impl Gen<'_> {
    /// A signed division or residue of an int array, or a reduction of an empty vector.
    pub(super) fn edge(&mut self) -> Option<(String, Val)> {
        match self.rng.range(0, 3) {
            0 => self.empty_reduce(),
            1 => self.signed_division(),
            _ => self.filter_large().or_else(|| self.signed_division()),
        }
    }

    /// `compress` or `replicate` (with negative counts) by a mask or counts computed from a
    /// large vector: values the lowering does not know, so the filter runs on the device
    /// (prefix sums and a binary search), where the small values of the other productions
    /// are folded at compile time.
    fn filter_large(&mut self) -> Option<(String, Val)> {
        if self.rng.chance(50) {
            return self.replicate_large();
        }
        self.large_only = true;
        let made = self.compress_computed();
        self.large_only = false;
        made
    }

    /// `replicate(0,each(fn x:[int]0 => maxi(-1,mini(2,subi(x,c))),v),v)` of a large int
    /// vector `v`, with `c` its middle element: counts -1 (one fill), 0, 1 and 2.
    fn replicate_large(&mut self) -> Option<(String, Val)> {
        let large = |v: &Val| v.ty == Ty::Int && v.rank() == 1 && v.data.len() >= LARGE_SIZE;
        let bound: Vec<(String, Val)> =
            self.env.iter().filter(|(_, v)| large(v)).cloned().collect();
        if bound.is_empty() {
            return None;
        }
        let (name, v) = self.rng.pick(&bound).clone();
        let c = v.data[v.data.len() / 2];
        let mut data = Vec::new();
        for &y in &v.data {
            let k = (y - c).clamp(-1.0, 2.0);
            let e = if k >= 0.0 { y } else { 0.0 };
            data.extend(std::iter::repeat_n(e, k.abs() as usize));
        }
        let x = self.fresh();
        let counts = format!(
            "each(fn {x}:[int]0 => maxi(-1,mini(2,subi({x},{}))),{name})",
            c as i64
        );
        Some((
            format!("replicate(0,{counts},{name})"),
            Val {
                ty: Ty::Int,
                shape: vec![data.len()],
                data,
            },
        ))
    }

    /// `each(fn x:[int]0 => divi(subi(x,c),d),v)` (or `mod(·,d)`, `resi(d,·)`), with `c`
    /// near the middle of `v`'s elements so that both signs occur, and `d` of either sign.
    fn signed_division(&mut self) -> Option<(String, Val)> {
        let (name, v) = self.pick(|v| v.ty == Ty::Int && v.rank() >= 1)?;
        let mut sorted = v.data.clone();
        sorted.sort_by(f64::total_cmp);
        let c = sorted[sorted.len() / 2] as i64;
        let d = self.rng.range(2, 5) as i64 * if self.rng.chance(50) { -1 } else { 1 };
        let x = self.fresh();
        let a = format!("subi({x},{c})");
        let (body, f): (String, fn(i64, i64) -> i64) = match self.rng.range(0, 2) {
            0 => (format!("divi({a},{d})"), floored_div),
            1 => (format!("mod({a},{d})"), floored_mod),
            _ => (format!("resi({d},{a})"), floored_mod),
        };
        let data = v.data.iter().map(|&e| f(e as i64 - c, d) as f64).collect();
        Some((
            format!("each(fn {x}:[int]0 => {body},{name})"),
            Val {
                ty: Ty::Int,
                shape: v.shape.clone(),
                data,
            },
        ))
    }

    /// `reduce(f,z,drop(n,v))` of a vector `v` of `n` elements: `z`, an element of `v`
    /// (`mini`/`maxi` and `muli` with a neutral element that is not the fill).
    fn empty_reduce(&mut self) -> Option<(String, Val)> {
        let (name, v) = self.pick(|v| v.ty == Ty::Int && v.rank() == 1 && !v.data.is_empty())?;
        let op = *self.rng.pick(&["mini", "maxi", "muli", "addi"]);
        let z = *self.rng.pick(&v.data);
        let z = if z == 0.0 { 1.0 } else { z };
        let n = v.data.len();
        Some((
            format!("reduce({op},{},drop({n},{name}))", z as i64),
            Val {
                ty: Ty::Int,
                shape: Vec::new(),
                data: vec![z],
            },
        ))
    }
}

/// Floored division, TAIL's `divi` (spec tail.md §5.1).
fn floored_div(a: i64, d: i64) -> i64 {
    (a as f64 / d as f64).floor() as i64
}

/// `a mod d` with the sign of `d` (TAIL's `mod`, and `resi(d, a)` for d ≠ 0).
fn floored_mod(a: i64, d: i64) -> i64 {
    a - d * floored_div(a, d)
}
