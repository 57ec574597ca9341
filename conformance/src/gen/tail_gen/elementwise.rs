//! The element-wise productions of the TAIL generator: `each` and `zipWith` with a lambda or an
//! operator name, and the folds `reduce` and `scan`, each evaluated as spec tail.md §5.9 defines.

use super::{b2f, is_bool, safe, Gen, Ty, Val, BOOL_OPS, BOUND, COMPARISONS};

/// A unary element function: its TAIL text, result type and meaning.
pub(super) type Unary = (String, Ty, Box<dyn Fn(f64) -> f64>);

/// The characters of generated char literals: letters and digits (few, so that sort keys tie).
pub(super) const CHARS: &[u8] = b"abc019";

/// A comparison by name and meaning on element values.
type Compare = (&'static str, fn(f64, f64) -> bool);

/// A fold's operator name, neutral element's text and meaning.
type Fold = (&'static str, &'static str, fn(f64, f64) -> f64);

/// Char comparisons (spec tail.md §5.5) with their meaning on codes.
const CHAR_COMPARISONS: &[Compare] = &[
    ("ltc", |a, b| a < b),
    ("eqc", |a, b| a == b),
    ("gtec", |a, b| a >= b),
];

impl Gen<'_> {
    /// A unary scalar function of an element of type `ty`, as TAIL text (a lambda or an
    /// operator name) and its meaning; `xs` are the elements it will see (to keep ints bounded).
    /// None for complex elements (two doubles each: [`super::complex`] maps them).
    pub(super) fn unary(&mut self, ty: Ty, xs: &[f64]) -> Option<Unary> {
        let x = self.fresh();
        let lambda = |body: String| format!("fn {x}:[{}]0 => {body}", ty.name());
        Some(match (ty, self.rng.range(0, 3)) {
            (Ty::Complex, _) => return None,
            (Ty::Char, _) => {
                let (name, f) = *self.rng.pick(CHAR_COMPARISONS);
                let c = *self.rng.pick(CHARS);
                (
                    lambda(format!("{name}({x},'{}')", c as char)),
                    Ty::Bool,
                    Box::new(move |a| b2f(f(a, c as f64))),
                )
            }
            (Ty::Int, 0) => ("i2d".into(), Ty::Double, Box::new(|a| a)),
            (Ty::Int, 1) => {
                let (_, name, f) = *self.rng.pick(&COMPARISONS[..3]);
                let c = self.rng.range(0, 10) as f64 - 2.0;
                (
                    lambda(format!("{name}({x},{c})")),
                    Ty::Bool,
                    Box::new(move |a| b2f(f(a, c))),
                )
            }
            (Ty::Bool, 0) => ("b2i".into(), Ty::Int, Box::new(|a| a)),
            (Ty::Bool, 1) => (
                lambda(format!("notb({x})")),
                Ty::Bool,
                Box::new(|a| 1.0 - a),
            ),
            (Ty::Bool, _) => {
                let (name, _, f) = *self.rng.pick(BOOL_OPS);
                let c = self.rng.chance(50);
                let c_text = if c { "tt" } else { "ff" };
                (
                    lambda(format!("{name}({x},{c_text})")),
                    Ty::Bool,
                    Box::new(move |a| f(a, b2f(c))),
                )
            }
            (Ty::Double, 1) => {
                let (_, name, f) = *self.rng.pick(&COMPARISONS[3..]);
                let c = (self.rng.range(0, 16) as f64 - 8.0) / 2.0;
                (
                    lambda(format!("{name}({x},{c:?})")),
                    Ty::Bool,
                    Box::new(move |a| b2f(f(a, c))),
                )
            }
            (Ty::Int, _) => {
                let c = self.rng.range(0, 10) as f64 - 5.0;
                let (name, _, f) = safe(self.rng, Ty::Int, xs, &vec![c; xs.len()]);
                let c_text = c as i64;
                (
                    lambda(format!("{name}({x},{c_text})")),
                    Ty::Int,
                    Box::new(move |a| f(a, c)),
                )
            }
            (Ty::Double, _) => {
                let c = (self.rng.range(0, 16) as f64 - 8.0) / 4.0;
                let (name, _, f) = safe(self.rng, Ty::Double, xs, &vec![c; xs.len()]);
                (
                    lambda(format!("{name}({x},{c:?})")),
                    Ty::Double,
                    Box::new(move |a| f(a, c)),
                )
            }
        })
    }

    pub(super) fn each(&mut self) -> Option<(String, Val)> {
        let chars = match self.rng.chance(20) {
            true => self.pick_any(|v| v.ty == Ty::Char && v.rank() >= 1),
            false => None,
        };
        let (name, v) = match chars {
            Some(c) => c,
            None => self.pick_preferring(is_bool, |v| v.rank() >= 1)?,
        };
        let (f_text, ty, f) = self.unary(v.ty, &v.data)?;
        let data = v.data.iter().map(|&a| f(a)).collect();
        Some((
            format!("each({f_text},{name})"),
            Val {
                ty,
                shape: v.shape.clone(),
                data,
            },
        ))
    }

    pub(super) fn zip_with(&mut self) -> Option<(String, Val)> {
        let (a_name, a) = self.pick_preferring(is_bool, |v| v.rank() >= 1)?;
        let (b_name, b) = self
            .pick(|v| v.ty == a.ty && v.shape == a.shape)
            .unwrap_or((a_name.clone(), a.clone()));
        let (op, ty, f) = safe(self.rng, a.ty, &a.data, &b.data);
        // an operator name or the same operator in a curried lambda
        let f_text = if self.rng.chance(50) {
            op.to_string()
        } else {
            let (x, y) = (self.fresh(), self.fresh());
            let t = a.ty.name();
            format!("fn {x}:[{t}]0 => fn {y}:[{t}]0 => {op}({x},{y})")
        };
        let data = a.data.iter().zip(&b.data).map(|(&p, &q)| f(p, q)).collect();
        Some((
            format!("zipWith({f_text},{a_name},{b_name})"),
            Val {
                ty,
                shape: a.shape.clone(),
                data,
            },
        ))
    }

    /// An operator for folding rows of `v` (apltail's order: the new element first) whose
    /// partial results stay bounded, with its neutral element's text.
    fn fold_op(&mut self, v: &Val) -> Option<Fold> {
        Some(match v.ty {
            Ty::Int => {
                let total: f64 = v.data.iter().map(|x| x.abs()).sum();
                match self.rng.range(0, 2) {
                    0 if total <= BOUND => ("addi", "0", |a, b| a + b),
                    1 => ("mini", "2147483647", f64::min),
                    _ => ("maxi", "-2147483648", f64::max),
                }
            }
            Ty::Double => match self.rng.range(0, 2) {
                0 => ("addd", "0.0", |a, b| a + b),
                1 => ("mind", "inf", |a, b| if a < b { a } else { b }),
                _ => ("maxd", "-inf", |a, b| if a > b { a } else { b }),
            },
            Ty::Bool => match self.rng.range(0, 1) {
                0 => ("andb", "tt", |a, b| b2f(a != 0.0 && b != 0.0)),
                _ => ("orb", "ff", |a, b| b2f(a != 0.0 || b != 0.0)),
            },
            Ty::Char | Ty::Complex => return None,
        })
    }

    pub(super) fn reduce(&mut self) -> Option<(String, Val)> {
        let (name, v) = self.pick(|v| v.rank() >= 1)?;
        self.reduce_of(&name, &v)
    }

    /// `reduce` of the bound value `v` named `name` (rank 1 or more) along its last axis.
    pub(super) fn reduce_of(&mut self, name: &str, v: &Val) -> Option<(String, Val)> {
        let (op, z, f) = self.fold_op(v)?;
        let m = *v.shape.last()?;
        let data = v
            .data
            .chunks(m)
            .map(|row| row[1..].iter().fold(row[0], |acc, &x| f(x, acc)))
            .collect();
        Some((
            format!("reduce({op},{z},{name})"),
            Val {
                ty: v.ty,
                shape: v.shape[..v.rank() - 1].to_vec(),
                data,
            },
        ))
    }

    pub(super) fn scan(&mut self) -> Option<(String, Val)> {
        let (name, v) = self.pick(|v| v.rank() >= 1)?;
        self.scan_of(&name, &v)
    }

    /// `scan` of the bound value `v` named `name` (rank 1 or more) along its last axis.
    pub(super) fn scan_of(&mut self, name: &str, v: &Val) -> Option<(String, Val)> {
        let (op, z, f) = self.fold_op(v)?;
        let m = *v.shape.last()?;
        let mut data = Vec::with_capacity(v.data.len());
        for row in v.data.chunks(m) {
            let mut acc = row[0];
            data.push(acc);
            for &x in &row[1..] {
                acc = f(x, acc);
                data.push(acc);
            }
        }
        Some((
            format!("scan({op},{z},{name})"),
            Val {
                ty: v.ty,
                shape: v.shape.clone(),
                data,
            },
        ))
    }
}
