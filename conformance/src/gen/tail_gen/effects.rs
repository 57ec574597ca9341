//! The generator's effectful productions beyond printing: in-place update `idxassign` (rule
//! 3.57, spec tail.md §5.11), integer formatting `formatI` (3.74, §5.12), prints inside `each`
//! bodies (one per element, in row-major order) and `roll` (3.75, §5.13).

use super::{safe, Gen, Ty, Val};
use semantics::tail::print_value::{array_text, double_literal};

/// Binding texts that make a fresh array in the store (never an alias of another variable's
/// array), so updating one in place changes no other binding.
pub(super) const FRESH: &[&str] = &[
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
            Ty::Char | Ty::Complex => return None,
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

    /// `shape(prArrC(formatI(x)))` of an int x computed from data (or, when the program has no
    /// ints yet, a literal): prints x's decimal text and gives its length as a one-element int
    /// vector.
    pub(super) fn format_int(&mut self) -> Option<(String, Val)> {
        let ints = self.int_sources();
        let (arg, n) = match ints.is_empty() {
            false => self.rng.pick(&ints).clone(),
            true => {
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

impl Gen<'_> {
    /// `each(fn x => prScl*(g(x)), a)`: the body prints each element's image (one `[](…)` line
    /// per element, in row-major order) and gives it back.
    pub(super) fn each_printing(&mut self) -> Option<(String, Val)> {
        let (name, v) = self.pick(|v| v.rank() >= 1 && v.data.len() <= 12)?;
        let x = self.fresh();
        let (body, f): (String, Box<dyn Fn(f64) -> f64>) = match v.ty {
            Ty::Bool if self.rng.chance(50) => (format!("notb({x})"), Box::new(|a| 1.0 - a)),
            Ty::Bool => (x.clone(), Box::new(|a| a)),
            _ => {
                let c = self.rng.range(0, 6) as f64 - 3.0;
                let (op, _, f) = safe(self.rng, v.ty, &v.data, &vec![c; v.data.len()]);
                let c_text = match v.ty {
                    Ty::Int => (c as i64).to_string(),
                    _ => double_literal(c),
                };
                (format!("{op}({x},{c_text})"), Box::new(move |a| f(a, c)))
            }
        };
        let data: Vec<f64> = v.data.iter().map(|&a| f(a)).collect();
        for &e in &data {
            let scalar = Val {
                ty: v.ty,
                shape: Vec::new(),
                data: vec![e],
            };
            self.out
                .push_str(&format!("{}\n", array_text(&scalar.array())));
        }
        let t = v.ty.name();
        Some((
            format!(
                "each(fn {x}:[{t}]0 => prScl{}({body}),{name})",
                v.ty.letter()
            ),
            Val {
                ty: v.ty,
                shape: v.shape.clone(),
                data,
            },
        ))
    }

    /// `roll(0)` or `roll(6)`, alone, added to a double or inside an `each` body (one roll per
    /// element, in order), or in the step of a `power` ([`Gen::roll_loop`]). The oracle's
    /// generator is advanced only here, once the binding is sure to be made, so its state
    /// follows the program's evaluation order.
    pub(super) fn roll(&mut self) -> Option<(String, Val)> {
        let n = if self.rng.chance(50) { 0 } else { 6 };
        let scalar = |d: f64| Val {
            ty: Ty::Double,
            shape: Vec::new(),
            data: vec![d],
        };
        match self.rng.range(0, 5) {
            3..=5 => self.roll_loop(n),
            0 => {
                let text = format!("roll({n})");
                let r = self.roll.roll(self.roll_site(&text, 0), n).ok()?;
                Some((text, scalar(r)))
            }
            1 => {
                let (name, d) = self.pick(|v| v.ty == Ty::Double && v.rank() == 0)?;
                let text = format!("addd({name},roll({n}))");
                let r = self.roll.roll(self.roll_site(&text, 0), n).ok()?;
                Some((text, scalar(d.data[0] + r)))
            }
            _ => {
                let (name, v) = self.pick(|v| v.ty == Ty::Int && v.rank() >= 1)?;
                let x = self.fresh();
                let text = format!("each(fn {x}:[int]0 => addd(i2d({x}),roll({n})),{name})");
                let site = self.roll_site(&text, v.rank());
                let mut data = Vec::with_capacity(v.data.len());
                for &a in &v.data {
                    data.push(a + self.roll.roll(site, n).ok()?);
                }
                Some((
                    text,
                    Val {
                        ty: Ty::Double,
                        shape: v.shape.clone(),
                        data,
                    },
                ))
            }
        }
    }

    /// `power` over a double vector whose step draws per element a number of times that may
    /// change from trip to trip: every trip, under a condition on the state's first element
    /// (an `if` the device decides), or after a filter of the state (a run-time length). The
    /// draws go trip by trip, element by element, as the oracle makes them.
    fn roll_loop(&mut self, n: i32) -> Option<(String, Val)> {
        let (name, v) = self.pick(|v| v.ty == Ty::Double && v.rank() == 1)?;
        let (s, x, y) = (self.fresh(), self.fresh(), self.fresh());
        let trips = self.rng.range(0, 3);
        let form = self.rng.range(0, 2);
        // a threshold among the values (the condition or the filter keeps some, drops some)
        let t = v
            .data
            .get(self.rng.range(0, v.data.len().max(1) - 1))
            .copied()
            .unwrap_or(0.0);
        let t = (t * 4.0).floor() / 4.0 + 0.125;
        let tl = double_literal(t);
        let draw = format!("each(fn {x}:[double]0 => addd({x},roll({n})),");
        let text = match form {
            0 => format!("power(fn {s}:[double]1 => {draw}{s}),{trips},{name})"),
            1 => format!(
                "power(fn {s}:[double]1 => if ltd(first({s}),{tl}) then {draw}{s}) \
                 else each(fn {y}:[double]0 => subd({y},1.0),{s}),{trips},{name})"
            ),
            _ => format!(
                "power(fn {s}:[double]1 => {draw}compress(each(fn {y}:[double]0 => ltd({y},{tl}),{s}),{s})),\
                 {trips},{name})"
            ),
        };
        let site = self.roll_site(&text, 1);
        // (drawn on a copy of the generator, kept only where the binding is made)
        let mut rolls = self.roll.clone();
        let mut data = v.data.clone();
        for _ in 0..trips {
            let drawing = match form {
                // (`first` of an empty vector is the fill, 0.0)
                1 => data.first().copied().unwrap_or(0.0) < t,
                2 => {
                    data.retain(|&d| d < t);
                    true
                }
                _ => true,
            };
            for d in &mut data {
                *d = if drawing {
                    *d + rolls.roll(site, n).ok()?
                } else {
                    *d - 1.0
                };
            }
        }
        // (the other productions take double vectors to have a first element)
        if data.is_empty() {
            return None;
        }
        self.roll = rolls;
        let shape = vec![data.len()];
        Some((
            text,
            Val {
                ty: Ty::Double,
                shape,
                data,
            },
        ))
    }

    /// The call site (source position) of the `roll` in binding text `text` of a double value of
    /// rank `rank`, in the line `let vK:[double]RANK = TEXT in` that `generate_tail` writes.
    fn roll_site(&self, text: &str, rank: usize) -> u32 {
        let (at, k) = self.binding_at;
        let prefix = format!("let v{k}:[double]{rank} = ").len();
        (at + prefix + text.find("roll(").unwrap_or(0)) as u32
    }
}
