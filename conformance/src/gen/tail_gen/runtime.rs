//! The generator's run-time constructs: counts, masks, sort keys and conditions computed from the
//! program's data (so that a compiler cannot read them off literals), `power` whose state grows
//! or shrinks, and `if` whose branches may differ in shape. The generator still knows every
//! value, so it keeps each count in range (no operator errs) and every extent positive.

use super::structure::{drop_val, grade_of, rotate_val, take_val};
use super::{b2f, Gen, Ty, Val, BOUND};
use semantics::tail::print_value::double_literal;

/// A row fold in apltail's order (the new element first), as the generator's `reduce` does.
fn fold(xs: &[f64], f: fn(f64, f64) -> f64) -> f64 {
    xs[1..].iter().fold(xs[0], |acc, &x| f(x, acc))
}

/// The text of an element literal of type `ty` (int, double, bool or char) with value `x`.
pub(super) fn literal(ty: Ty, x: f64) -> String {
    match ty {
        Ty::Int => (x as i64).to_string(),
        Ty::Double => double_literal(x),
        Ty::Char => format!("'{}'", x as u8 as char),
        _ => (if x != 0.0 { "tt" } else { "ff" }).to_string(),
    }
}

/// One iteration of a `power` body on a vector state.
type Step = Box<dyn Fn(&[f64]) -> Vec<f64>>;

impl Gen<'_> {
    /// Int scalar expressions computed from bound values, with their values: int scalars,
    /// `first`, `idxS` and sums of int vectors, the number of `tt`s of bool vectors.
    pub(super) fn int_sources(&mut self) -> Vec<(String, i64)> {
        let env = self.env.clone();
        let mut out = Vec::new();
        for (name, v) in &env {
            match (v.ty, v.rank()) {
                (Ty::Int, 0) => out.push((name.clone(), v.data[0] as i64)),
                (Ty::Int, 1) => {
                    out.push((format!("first({name})"), v.data[0] as i64));
                    let j = self.rng.range(1, v.data.len());
                    out.push((format!("idxS(1,{j},{name})"), v.data[j - 1] as i64));
                    let sum: f64 = v.data.iter().sum();
                    if sum.abs() <= BOUND {
                        out.push((format!("reduce(addi,0,{name})"), sum as i64));
                    }
                }
                (Ty::Bool, 1) => {
                    let n: f64 = v.data.iter().sum();
                    out.push((format!("reduce(addi,0,each(b2i,{name}))"), n as i64));
                }
                _ => {}
            }
        }
        out
    }

    /// Double scalar expressions computed from bound values, with their values: double scalars,
    /// `first` and sums of double vectors, `i2d` of an int source.
    pub(super) fn double_sources(&mut self) -> Vec<(String, f64)> {
        let mut out = Vec::new();
        for (name, v) in &self.env {
            match (v.ty, v.rank()) {
                (Ty::Double, 0) => out.push((name.clone(), v.data[0])),
                (Ty::Double, 1) => {
                    out.push((format!("first({name})"), v.data[0]));
                    out.push((
                        format!("reduce(addd,0.0,{name})"),
                        fold(&v.data, |a, b| a + b),
                    ));
                }
                _ => {}
            }
        }
        let ints = self.int_sources();
        if !ints.is_empty() {
            let (t, n) = self.rng.pick(&ints).clone();
            out.push((format!("i2d({t})"), n as f64));
        }
        out
    }

    /// An int expression computed from data whose value lies in `lo..=hi`: a source that
    /// happens to fit, or one shifted (`addi`) or clamped (`maxi`/`mini`) into the range.
    pub(super) fn count_expr(&mut self, lo: i64, hi: i64) -> Option<(String, i64)> {
        let sources = self.int_sources();
        if sources.is_empty() {
            return None;
        }
        let fits: Vec<&(String, i64)> = sources
            .iter()
            .filter(|(_, n)| (lo..=hi).contains(n))
            .collect();
        if !fits.is_empty() && self.rng.chance(60) {
            return Some((*self.rng.pick(&fits)).clone());
        }
        let (t, n) = self.rng.pick(&sources).clone();
        Some(if self.rng.chance(50) {
            let target = lo + self.rng.range(0, (hi - lo) as usize) as i64;
            (format!("addi({t},{})", target - n), target)
        } else {
            (format!("maxi({lo},mini({hi},{t}))"), n.clamp(lo, hi))
        })
    }

    /// A bool scalar expression computed from data: a comparison of an int or double source
    /// with a constant near its value, or a bool scalar, `first` or fold of a bool vector.
    pub(super) fn cond_expr(&mut self) -> Option<(String, bool)> {
        let mut out: Vec<(String, bool)> = Vec::new();
        let ints = self.int_sources();
        if !ints.is_empty() {
            let (t, n) = self.rng.pick(&ints).clone();
            let c = n + self.rng.range(0, 4) as i64 - 2;
            out.push(match self.rng.range(0, 2) {
                0 => (format!("lti({t},{c})"), n < c),
                1 => (format!("gti({t},{c})"), n > c),
                _ => (format!("eqi({t},{c})"), n == c),
            });
        }
        let doubles = self.double_sources();
        if !doubles.is_empty() {
            let (t, d) = self.rng.pick(&doubles).clone();
            // never d itself: engines may differ in a double's last bit, not by a quarter
            let c = d + *self.rng.pick(&[-0.5, -0.25, 0.25, 0.5]);
            let c_text = double_literal(c);
            out.push(match self.rng.chance(50) {
                true => (format!("ltd({t},{c_text})"), d < c),
                false => (format!("gtd({t},{c_text})"), d > c),
            });
        }
        if let Some((name, b)) = self.pick(|v| v.ty == Ty::Bool && v.rank() <= 1) {
            out.push(match (b.rank(), self.rng.range(0, 2)) {
                (0, _) => (name, b.data[0] != 0.0),
                (_, 0) => (format!("first({name})"), b.data[0] != 0.0),
                (_, 1) => (format!("reduce(orb,ff,{name})"), b.data.contains(&1.0)),
                _ => (format!("reduce(andb,tt,{name})"), !b.data.contains(&0.0)),
            });
        }
        if out.is_empty() {
            return None;
        }
        Some(self.rng.pick(&out).clone())
    }

    /// `compress(each(fn x => lti(x,c), b), a)`: a mask computed from an int or double vector b
    /// of a's length, with c chosen so that at least one element is kept.
    pub(super) fn compress_computed(&mut self) -> Option<(String, Val)> {
        let (a_name, a) = self.pick_any(|v| v.rank() == 1 && v.ty != Ty::Complex)?;
        let n = a.data.len();
        let numeric = |v: &Val| v.rank() == 1 && matches!(v.ty, Ty::Int | Ty::Double);
        let (b_name, b) = self.pick(|v| numeric(v) && v.data.len() == n)?;
        let e = *self.rng.pick(&b.data);
        let x = self.fresh();
        let (op, c, keep): (&str, f64, fn(f64, f64) -> bool) = match (b.ty, self.rng.range(0, 2)) {
            (Ty::Int, 0) => ("lti", e + 1.0, |x, c| x < c),
            (Ty::Int, 1) => ("gti", e - 1.0, |x, c| x > c),
            (Ty::Int, _) => ("eqi", e, |x, c| x == c),
            (_, 0) => ("ltd", e + 0.25, |x, c| x < c),
            _ => ("gtd", e - 0.25, |x, c| x > c),
        };
        let data: Vec<f64> = a
            .data
            .iter()
            .zip(&b.data)
            .filter(|(_, &y)| keep(y, c))
            .map(|(&v, _)| v)
            .collect();
        let t = b.ty.name();
        let c_text = literal(b.ty, c);
        Some((
            format!("compress(each(fn {x}:[{t}]0 => {op}({x},{c_text}),{b_name}),{a_name})"),
            Val {
                ty: a.ty,
                shape: vec![data.len()],
                data,
            },
        ))
    }

    /// `replicate(z, each(fn x => maxi(lo,mini(2,subi(x,c))), b), a)`: counts computed from an
    /// int vector b of a's length, non-negative (lo = 0) or some negative (lo = -1, fill
    /// elements), with c chosen so that at least one count is positive.
    pub(super) fn replicate_computed(&mut self) -> Option<(String, Val)> {
        let (a_name, a) = self.pick_any(|v| v.rank() == 1 && v.ty != Ty::Complex)?;
        let n = a.data.len();
        let (b_name, b) = self.pick(|v| v.ty == Ty::Int && v.rank() == 1 && v.data.len() == n)?;
        let c = *self.rng.pick(&b.data) - 1.0;
        let lo = if self.rng.chance(50) { 0.0 } else { -1.0 };
        let mut data = Vec::new();
        for (&y, &v) in b.data.iter().zip(&a.data) {
            let k = (y - c).clamp(lo, 2.0);
            let e = if k >= 0.0 { v } else { a.fill() };
            data.extend(std::iter::repeat_n(e, k.abs() as usize));
        }
        let x = self.fresh();
        let z = literal(a.ty, a.fill());
        let counts = format!(
            "each(fn {x}:[int]0 => maxi({lo},mini(2,subi({x},{c}))),{b_name})",
            lo = lo as i64,
            c = c as i64
        );
        Some((
            format!("replicate({z},{counts},{a_name})"),
            Val {
                ty: a.ty,
                shape: vec![data.len()],
                data,
            },
        ))
    }

    /// Sorting: `each(fn i => idxS(1,i,w), gradeUp(k))` (w reordered by the key k) or the
    /// permutation `gradeDown(k)` alone, where k is w itself or w clamped at one of its elements
    /// (`maxi`/`mind`, so that keys tie and the grade's stability shows).
    pub(super) fn sort(&mut self) -> Option<(String, Val)> {
        let sortable = |v: &Val| v.rank() == 1 && v.ty != Ty::Complex;
        // bool and char vectors are rarer than the others: sought first some of the time
        let rare = match self.rng.chance(40) {
            true => self.pick_any(|v| sortable(v) && matches!(v.ty, Ty::Bool | Ty::Char)),
            false => None,
        };
        let (w_name, w) = match rare {
            Some(r) => r,
            None => self.pick_any(sortable)?,
        };
        let e = *self.rng.pick(&w.data);
        let x = self.fresh();
        let (key_text, keys) = match w.ty {
            Ty::Int if self.rng.chance(50) => (
                format!("each(fn {x}:[int]0 => maxi({x},{}),{w_name})", e as i64),
                w.data.iter().map(|&a| a.max(e)).collect(),
            ),
            Ty::Double if self.rng.chance(50) => (
                format!(
                    "each(fn {x}:[double]0 => mind({x},{}),{w_name})",
                    double_literal(e)
                ),
                w.data.iter().map(|&a| if a < e { a } else { e }).collect(),
            ),
            _ => (w_name.clone(), w.data.clone()),
        };
        let up = self.rng.chance(50);
        let grade = format!("{}({key_text})", if up { "gradeUp" } else { "gradeDown" });
        let perm = grade_of(&keys, up);
        if self.rng.chance(40) {
            let data = perm.iter().map(|&i| (i + 1) as f64).collect();
            return Some((grade, int_vector(data)));
        }
        let i = self.fresh();
        Some((
            format!("each(fn {i}:[int]0 => idxS(1,{i},{w_name}),{grade})"),
            Val {
                ty: w.ty,
                shape: vec![perm.len()],
                data: perm.iter().map(|&i| w.data[i]).collect(),
            },
        ))
    }

    /// `power(fn p => body, k, a)` over a vector whose body changes the state's length: `snoc`
    /// or `cons` of an element, `cat` with a bound vector, `drop` of one element; sometimes
    /// printing each new state (`prArr*` in the body, once per iteration); k literal or computed.
    pub(super) fn power_resizing(&mut self) -> Option<(String, Val)> {
        let (name, v) = self.pick(|v| v.rank() == 1)?;
        let (k_text, k) = match self.rng.chance(40) {
            true => self.count_expr(0, 3)?,
            false => {
                let k = self.rng.range(0, 3) as i64;
                (k.to_string(), k)
            }
        };
        let p = self.fresh();
        let lit = match v.ty {
            Ty::Int => self.rng.range(0, 10) as f64 - 5.0,
            Ty::Double => (self.rng.range(0, 16) as f64 - 8.0) / 4.0,
            _ => b2f(self.rng.chance(50)),
        };
        let lit_text = literal(v.ty, lit);
        let shrinks = (k as usize) < v.data.len();
        let (body, step): (String, Step) = match self.rng.range(0, 4) {
            0 => (
                format!("snoc({p},first({p}))"),
                Box::new(|s| [s, &s[..1]].concat()),
            ),
            1 => (
                format!("cons({lit_text},{p})"),
                Box::new(move |s| [&[lit], s].concat()),
            ),
            2 => {
                let w = v.data.clone();
                (
                    format!("cat({p},{name})"),
                    Box::new(move |s| [s, &w].concat()),
                )
            }
            3 if shrinks && self.rng.chance(50) => {
                (format!("drop(1,{p})"), Box::new(|s| s[1..].to_vec()))
            }
            3 if shrinks => (
                format!("drop(-1,{p})"),
                Box::new(|s| s[..s.len() - 1].to_vec()),
            ),
            _ => (
                format!("snoc({p},{lit_text})"),
                Box::new(move |s| [s, &[lit]].concat()),
            ),
        };
        let prints = self.rng.chance(30);
        let mut state = v.data.clone();
        for _ in 0..k {
            state = step(&state);
            if prints {
                let shown = Val {
                    ty: v.ty,
                    shape: vec![state.len()],
                    data: state.clone(),
                };
                self.out
                    .push_str(&format!("{}\n", super::printed_text(&shown)));
            }
        }
        let body = match prints {
            true => format!("prArr{}({body})", v.ty.letter()),
            false => body,
        };
        Some((
            format!("power(fn {p}:{} => {body},{k_text},{name})", v.annotation()),
            Val {
                ty: v.ty,
                shape: vec![state.len()],
                data: state,
            },
        ))
    }

    /// take, drop, rotate, iota or reshape by a count computed from data (in range).
    pub(super) fn counted(&mut self) -> Option<(String, Val)> {
        let shaped = |v: &Val| v.rank() >= 1 && v.ty != Ty::Complex;
        match self.rng.range(0, 4) {
            0 => {
                let (name, v) = self.pick_any(shaped)?;
                let m = v.shape[0] as i64 + 2;
                let (t, n) = match self.rng.chance(30) {
                    true => self.count_expr(-m, -1)?,
                    false => self.count_expr(1, m)?,
                };
                Some((format!("take({t},{name})"), take_val(&v, n)))
            }
            1 => {
                let (name, v) = self.pick_any(|v| shaped(v) && v.shape[0] >= 2)?;
                let m = v.shape[0] as i64 - 1;
                let (t, n) = match self.rng.chance(30) {
                    true => self.count_expr(-m, -1)?,
                    false => self.count_expr(1, m)?,
                };
                Some((format!("drop({t},{name})"), drop_val(&v, n)))
            }
            2 => {
                let (name, v) = self.pick_any(shaped)?;
                let (t, n) = self.count_expr(-5, 5)?;
                Some((format!("rotate({t},{name})"), rotate_val(&v, n)))
            }
            3 if self.rng.chance(50) => {
                let (t, n) = self.count_expr(1, 8)?;
                let data = (1..=n).map(|i| i as f64).collect();
                Some((format!("iota({t})"), int_vector(data)))
            }
            _ => {
                let (name, v) = self.pick(|v| v.rank() >= 1)?;
                let (t, rows) = self.count_expr(1, 4)?;
                // at times of a range with no useful bound, though small when the program runs:
                // an array the lowering sizes by its run-time extents alone (of unbounded
                // extents, `compiler::tail`'s module `capacity`)
                let t = match self.rng.chance(25) {
                    true => format!("addi(muli(subi({t},{t}),10000000),{t})"),
                    false => t,
                };
                // the columns too computed, at times: an array of run-time extents
                let (u, cols) = match self.rng.chance(60) {
                    true => {
                        let (u, c) = self.count_expr(1, 4)?;
                        (u, c as usize)
                    }
                    false => {
                        let c = self.rng.range(1, 4);
                        (c.to_string(), c)
                    }
                };
                let m = rows as usize * cols;
                let data = (0..m).map(|i| v.data[i % v.data.len()]).collect();
                Some((
                    format!("reshape([{t},{u}],{name})"),
                    Val {
                        ty: v.ty,
                        shape: vec![rows as usize, cols],
                        data,
                    },
                ))
            }
        }
    }

    /// `if c then x else y` with c computed from data ([`Gen::cond_expr`]) and branches of one
    /// type and rank, of any shapes (preferably different ones).
    pub(super) fn conditional_computed(&mut self) -> Option<(String, Val)> {
        let (x_name, x) = self.pick_any(|_| true)?;
        let same = |v: &Val| v.ty == x.ty && v.rank() == x.rank();
        let (y_name, y) = self
            .pick_any(|v| same(v) && v.shape != x.shape)
            .or_else(|| self.pick_any(same))?;
        let (c, holds) = self.cond_expr()?;
        let v = if holds { x } else { y };
        Some((format!("if {c} then {x_name} else {y_name}"), v))
    }
}

/// An int vector of these elements.
pub(super) fn int_vector(data: Vec<f64>) -> Val {
    Val {
        ty: Ty::Int,
        shape: vec![data.len()],
        data,
    }
}

/// The size of the arrays [`Gen::opaque`] maps over: above the 64 elements up to which the TAIL
/// lowering evaluates `each` of known arrays at compile time (`compiler::tail`'s `MAX_FOLD`),
/// so that the result is run-time data to it.
const OPAQUE_SIZE: usize = 65;

impl Gen<'_> {
    /// A vector computed from data the TAIL lowering does not evaluate at compile time (every
    /// other value of a generated program derives from literals, which it folds): the last few
    /// elements of an `each` over a long `iota`, or the state of a `power` (always run-time
    /// data to the lowering). Masks, counts and sort keys computed from these are what exercises
    /// run-time shapes.
    pub(super) fn opaque(&mut self) -> Option<(String, Val)> {
        if self.rng.chance(40) {
            let (name, v) = self.pick(|v| v.rank() == 1)?;
            let k = self.rng.range(1, 3) as i64;
            let p = self.fresh();
            return Some((
                format!(
                    "power(fn {p}:{} => rotate(1,{p}),{k},{name})",
                    v.annotation()
                ),
                rotate_val(&v, k),
            ));
        }
        let n = self.rng.range(3, 8);
        let m = OPAQUE_SIZE + self.rng.range(0, 7);
        // the last n elements of iota(m), shifted to 1-s..n-s, maybe clamped at t (ties)
        let s = self.rng.range(0, 3) as f64;
        let base = (m - n) as f64 + s;
        let x = self.fresh();
        let shifted = format!("subi({x},{})", base as i64);
        let ints: Vec<f64> = (m - n + 1..=m).map(|i| i as f64 - base).collect();
        let (body, ty, data) = match self.rng.range(0, 3) {
            0 => (shifted, Ty::Int, ints),
            3 => {
                let t = self.rng.range(0, 3) as f64;
                let data = ints.iter().map(|&a| b2f(a < t)).collect();
                (format!("lti({shifted},{})", t as i64), Ty::Bool, data)
            }
            1 => {
                let t = self.rng.range(1, 3) as f64;
                let data = ints.iter().map(|&a| a.max(t)).collect();
                (format!("maxi({shifted},{})", t as i64), Ty::Int, data)
            }
            _ => {
                let data = ints.iter().map(|&a| a * 0.5).collect();
                (format!("muld(i2d({shifted}),0.5)"), Ty::Double, data)
            }
        };
        Some((
            format!("drop({},each(fn {x}:[int]0 => {body},iota({m})))", m - n),
            Val {
                ty,
                shape: vec![n],
                data,
            },
        ))
    }
}
