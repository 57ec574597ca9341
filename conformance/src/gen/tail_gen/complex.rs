//! The generator's complex productions (spec tail.md §5.3, §5.6): literals, `d2x` and `injx`
//! from doubles, `addx`/`subx`/`mulx`/`negx`/`conjx`/`expx` through `each` and `zipWith`,
//! `magnx`/`rex`/`imx` back to doubles, `reduce(addx, …)`, and an `each` whose body prints with
//! `prSclX`. The meanings follow the oracle's formulas exactly (`negx` as 0 − z, `magnx`
//! naively), so results agree to the bit.

use super::{Gen, Ty, Val, BOUND};
use semantics::tail::print_value::{array_text, double_literal};

/// A complex number (re, im).
type C = (f64, f64);

/// A complex unary operator: its TAIL text and meaning.
type CUnary = (String, Box<dyn Fn(C) -> C>);

/// The elements of a complex value.
fn elements(v: &Val) -> Vec<C> {
    v.data.chunks(2).map(|z| (z[0], z[1])).collect()
}

/// A complex value of this shape and these elements.
fn complex(shape: Vec<usize>, zs: &[C]) -> Val {
    Val {
        ty: Ty::Complex,
        shape,
        data: zs.iter().flat_map(|&(a, b)| [a, b]).collect(),
    }
}

/// A double value of this shape and these elements.
fn doubles(shape: Vec<usize>, data: Vec<f64>) -> Val {
    Val {
        ty: Ty::Double,
        shape,
        data,
    }
}

/// The text of a complex literal (spec §1.5): `1.5j-2.0`.
fn literal(z: C) -> String {
    format!("{}j{}", double_literal(z.0), double_literal(z.1))
}

fn mulx(x: C, y: C) -> C {
    (x.0 * y.0 - x.1 * y.1, x.0 * y.1 + x.1 * y.0)
}

fn expx(z: C) -> C {
    let m = z.0.exp();
    (m * z.1.cos(), m * z.1.sin())
}

fn magnx(z: C) -> f64 {
    (z.0 * z.0 + z.1 * z.1).sqrt()
}

/// Whether every part stays within [`BOUND`] (complex products grow quickly).
fn bounded(zs: &[C]) -> bool {
    zs.iter().all(|z| z.0.abs() <= BOUND && z.1.abs() <= BOUND)
}

/// A binary complex operator: name and meaning.
type CBinary = (&'static str, fn(C, C) -> C);

/// The binary complex operators.
const BINARY: &[CBinary] = &[
    ("addx", |x, y| (x.0 + y.0, x.1 + y.1)),
    ("subx", |x, y| (x.0 - y.0, x.1 - y.1)),
    ("mulx", mulx),
];

fn is_complex(v: &Val) -> bool {
    v.ty == Ty::Complex
}

impl Gen<'_> {
    /// A complex number with quarter parts in [-3, 3] (exact in binary, so sums and products
    /// are exact too).
    fn complex_number(&mut self) -> C {
        let mut quarter = || (self.rng.range(0, 24) as f64 - 12.0) / 4.0;
        (quarter(), quarter())
    }

    /// A complex value from literals or doubles: a literal scalar or vector, `d2x` of a double
    /// scalar or (through `each`) array, `injx` of two double scalars or (through `zipWith`)
    /// two double arrays of one shape.
    pub(super) fn complex_source(&mut self) -> Option<(String, Val)> {
        let from_doubles = match self.rng.range(0, 2) {
            1 => self.pick(|v| v.ty == Ty::Double).map(|(name, d)| {
                let zs: Vec<C> = d.data.iter().map(|&x| (x, 0.0)).collect();
                let text = match d.rank() {
                    0 => format!("d2x({name})"),
                    _ => format!("each(d2x,{name})"),
                };
                (text, complex(d.shape.clone(), &zs))
            }),
            2 => self.pick(|v| v.ty == Ty::Double).and_then(|(a_name, a)| {
                let (b_name, b) = self.pick(|v| v.ty == Ty::Double && v.shape == a.shape)?;
                let zs: Vec<C> = a.data.iter().zip(&b.data).map(|(&x, &y)| (x, y)).collect();
                let text = match a.rank() {
                    0 => format!("injx({a_name},{b_name})"),
                    _ => format!("zipWith(injx,{a_name},{b_name})"),
                };
                Some((text, complex(a.shape.clone(), &zs)))
            }),
            _ => None,
        };
        if from_doubles.is_some() {
            return from_doubles;
        }
        if self.rng.chance(25) {
            let z = self.complex_number();
            return Some((literal(z), complex(Vec::new(), &[z])));
        }
        let n = self.rng.range(1, 5);
        let zs: Vec<C> = (0..n).map(|_| self.complex_number()).collect();
        let items: Vec<String> = zs.iter().map(|&z| literal(z)).collect();
        Some((format!("[{}]", items.join(",")), complex(vec![n], &zs)))
    }

    /// An operation on a complex value: `zipWith` (or, of scalars, a direct application) of
    /// `addx`/`subx`/`mulx`; `each` of `negx`/`conjx`/`expx` or a lambda with a literal; `each`
    /// (or, of a scalar, an application) of `magnx`/`rex`/`imx`; `reduce(addx, 0.0j0.0, z)`;
    /// an `each` whose body prints with `prSclX`.
    pub(super) fn complex_op(&mut self) -> Option<(String, Val)> {
        let (name, z) = self.pick_any(is_complex)?;
        let zs = elements(&z);
        let (text, v) = match self.rng.range(0, 4) {
            0 => {
                let (b_name, b) = self.pick_any(|v| is_complex(v) && v.shape == z.shape)?;
                let &(op, f) = self.rng.pick(BINARY);
                let out: Vec<C> = zs.iter().zip(elements(&b)).map(|(&x, y)| f(x, y)).collect();
                let text = match (z.rank(), self.rng.chance(50)) {
                    (0, _) => format!("{op}({name},{b_name})"),
                    (_, true) => format!("zipWith({op},{name},{b_name})"),
                    (_, false) => {
                        let (x, y) = (self.fresh(), self.fresh());
                        format!(
                            "zipWith(fn {x}:[complex]0 => fn {y}:[complex]0 => {op}({x},{y}),{name},{b_name})"
                        )
                    }
                };
                (text, complex(z.shape.clone(), &out))
            }
            1 if z.rank() >= 1 => {
                let (f_text, f) = self.complex_unary(&zs);
                let out: Vec<C> = zs.iter().map(|&x| f(x)).collect();
                (
                    format!("each({f_text},{name})"),
                    complex(z.shape.clone(), &out),
                )
            }
            2 => {
                let (op, f): (&str, fn(C) -> f64) = *self.rng.pick(&[
                    ("magnx", magnx as fn(C) -> f64),
                    ("rex", |z: C| z.0),
                    ("imx", |z: C| z.1),
                ]);
                let data = zs.iter().map(|&x| f(x)).collect();
                let text = match z.rank() {
                    0 => format!("{op}({name})"),
                    _ => format!("each({op},{name})"),
                };
                (text, doubles(z.shape.clone(), data))
            }
            3 if z.rank() >= 1 && self.rng.chance(50) => {
                let m = z.shape[z.rank() - 1];
                let sums: Vec<C> = zs
                    .chunks(m)
                    .map(|row| {
                        row[1..]
                            .iter()
                            .fold(row[0], |acc, &x| (x.0 + acc.0, x.1 + acc.1))
                    })
                    .collect();
                let shape = z.shape[..z.rank() - 1].to_vec();
                (
                    format!("reduce(addx,0.0j0.0,{name})"),
                    complex(shape, &sums),
                )
            }
            _ if z.rank() >= 1 && zs.len() <= 8 => {
                let x = self.fresh();
                // conjugates are as bounded as z: the check below cannot undo these prints
                let out: Vec<C> = zs.iter().map(|&(a, b)| (a, -b)).collect();
                for &e in &out {
                    let shown = complex(Vec::new(), &[e]);
                    self.out
                        .push_str(&format!("{}\n", array_text(&shown.array())));
                }
                (
                    format!("each(fn {x}:[complex]0 => prSclX(conjx({x})),{name})"),
                    complex(z.shape.clone(), &out),
                )
            }
            _ => return None,
        };
        match v.ty {
            Ty::Complex if !bounded(&elements(&v)) => None,
            _ if v.data.iter().any(|d| d.abs() > BOUND) => None,
            _ => Some((text, v)),
        }
    }

    /// A unary complex function for `each`: an operator name (`expx` only where the real parts
    /// are small) or a lambda applying `addx`/`mulx` with a literal.
    fn complex_unary(&mut self, zs: &[C]) -> CUnary {
        let small = zs.iter().all(|z| z.0.abs() <= 3.0);
        match self.rng.range(0, 3) {
            0 => ("negx".into(), Box::new(|z: C| (0.0 - z.0, 0.0 - z.1))),
            1 | 2 if small => ("expx".into(), Box::new(expx)),
            1 | 2 => ("conjx".into(), Box::new(|z: C| (z.0, -z.1))),
            _ => {
                let c = self.complex_number();
                let x = self.fresh();
                let &(op, f) = self.rng.pick(BINARY);
                (
                    format!("fn {x}:[complex]0 => {op}({x},{})", literal(c)),
                    Box::new(move |z| f(z, c)),
                )
            }
        }
    }
}
