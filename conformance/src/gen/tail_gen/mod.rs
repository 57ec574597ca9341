//! A TAIL generator (apltail syntax, annotated lets) over int, double and bool arrays of rank 0
//! to 2: `iota`, literal vectors, `reshape`, `transp`, `transp2`, `take`, `drop`, `rotate`,
//! `vreverse`, `cat`, `idxS`, `each`/`zipWith` with lambdas and operator names, `reduce`, `scan`,
//! `power`, `condScl`, `i2d`, `b2i`, the `pr*` operators, `idxassign` and `formatI`.
//!
//! It evaluates each program directly while generating it (the value of every binding is known,
//! following spec tail.md §5), which gives the expected output to compare the TAIL oracle
//! against. Values are chosen so that no operator errs: ints stay far from 32-bit overflow
//! (apltail treats it as an error), indices and axes are in range, extents are positive.
//! Printing uses the semantics' value printer (spec §6), so what is tested is the evaluation.

mod effects;
mod structure;

use super::rng::Rng;
use semantics::tail::print_value::array_text;
use semantics::tail::value::{Array, BaseType, Elems, Scalar};

/// The element type of a generated array.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ty {
    Int,
    Double,
    Bool,
}

impl Ty {
    fn name(self) -> &'static str {
        match self {
            Ty::Int => "int",
            Ty::Double => "double",
            Ty::Bool => "bool",
        }
    }
    /// The letter of `prArrX`/`prSclX`.
    fn letter(self) -> &'static str {
        match self {
            Ty::Int => "I",
            Ty::Double => "D",
            Ty::Bool => "B",
        }
    }
}

/// A value of the program: type, shape (empty for a scalar) and row-major elements (ints and
/// bools as exact small doubles).
#[derive(Clone, Debug)]
struct Val {
    ty: Ty,
    shape: Vec<usize>,
    data: Vec<f64>,
}

impl Val {
    fn rank(&self) -> usize {
        self.shape.len()
    }
    fn annotation(&self) -> String {
        format!("[{}]{}", self.ty.name(), self.rank())
    }
    /// The fill element (spec §5.8 φ).
    fn fill(&self) -> f64 {
        0.0
    }
    /// The semantics' array, for printing.
    fn array(&self) -> Array {
        let scalars: Vec<Scalar> = self
            .data
            .iter()
            .map(|&x| match self.ty {
                Ty::Int => Scalar::Int(x as i32),
                Ty::Double => Scalar::Double(x),
                Ty::Bool => Scalar::Bool(x != 0.0),
            })
            .collect();
        if self.shape.is_empty() {
            return Array::scalar(scalars[0]);
        }
        let base = match self.ty {
            Ty::Int => BaseType::Int,
            Ty::Double => BaseType::Double,
            Ty::Bool => BaseType::Bool,
        };
        Array {
            shape: self.shape.clone(),
            elems: Elems::from_scalars(base, scalars),
        }
    }
}

/// The largest magnitude a generated value may reach (well inside 32 bits; doubles stay exact
/// enough to avoid inf).
const BOUND: f64 = (1 << 24) as f64;

/// A generated TAIL program and the output the TAIL oracle must print for it.
#[derive(Clone, Debug)]
pub struct TailCase {
    pub source: String,
    pub expected: String,
}

/// A binary scalar operator: its TAIL name, result type and meaning.
type BinOp = (&'static str, Ty, fn(f64, f64) -> f64);

const INT_OPS: &[BinOp] = &[
    ("addi", Ty::Int, |a, b| a + b),
    ("subi", Ty::Int, |a, b| a - b),
    ("muli", Ty::Int, |a, b| a * b),
    ("maxi", Ty::Int, f64::max),
    ("mini", Ty::Int, f64::min),
];
const DOUBLE_OPS: &[BinOp] = &[
    ("addd", Ty::Double, |a, b| a + b),
    ("subd", Ty::Double, |a, b| a - b),
    ("muld", Ty::Double, |a, b| a * b),
    ("maxd", Ty::Double, |a, b| if a > b { a } else { b }),
    ("mind", Ty::Double, |a, b| if a < b { a } else { b }),
];
const BOOL_OPS: &[BinOp] = &[
    ("andb", Ty::Bool, |a, b| b2f(a != 0.0 && b != 0.0)),
    ("orb", Ty::Bool, |a, b| b2f(a != 0.0 || b != 0.0)),
    ("xorb", Ty::Bool, |a, b| b2f((a != 0.0) != (b != 0.0))),
];
/// A comparison: argument type, name, meaning (the result is a bool).
type Comparison = (Ty, &'static str, fn(f64, f64) -> bool);

const COMPARISONS: &[Comparison] = &[
    (Ty::Int, "lti", |a, b| a < b),
    (Ty::Int, "eqi", |a, b| a == b),
    (Ty::Int, "gti", |a, b| a > b),
    (Ty::Double, "ltd", |a, b| a < b),
    (Ty::Double, "gtd", |a, b| a > b),
];

fn is_bool(v: &Val) -> bool {
    v.ty == Ty::Bool
}

fn b2f(b: bool) -> f64 {
    if b {
        1.0
    } else {
        0.0
    }
}

fn ops(ty: Ty) -> &'static [BinOp] {
    match ty {
        Ty::Int => INT_OPS,
        Ty::Double => DOUBLE_OPS,
        Ty::Bool => BOOL_OPS,
    }
}

/// How often each production of [`Gen::binding`] is tried, in its order: iota, double literals,
/// reshape, each, zipWith, reduce, scan, transpositions, take, drop, rotate, vreverse, cat,
/// idxS, printing, power, condScl, scalar conversions, first, vrotate, cons/snoc, shape/rav,
/// grading, compress, replicate, zilde, if, tuple projection, idxassign, formatI.
const WEIGHTS: [u32; 30] = [
    3, 2, 4, 6, 4, 3, 3, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 1,
];

/// The generator's state: the bindings so far, the source and the expected output.
struct Gen<'r> {
    rng: &'r mut Rng,
    env: Vec<(String, Val)>,
    out: String,
    /// Lambda parameters made so far (for fresh names).
    params: usize,
    /// The text of the binding made last (`idxassign` updates only a fresh array).
    last_text: String,
}

/// Generates one program of up to `max_lets` bindings.
pub fn generate_tail(rng: &mut Rng, max_lets: usize) -> TailCase {
    let mut g = Gen {
        rng,
        env: Vec::new(),
        out: String::new(),
        params: 0,
        last_text: String::new(),
    };
    let mut src = String::new();
    let lets = g.rng.range(2, max_lets.max(2));
    for k in 1..=lets {
        let (text, val) = g.binding();
        let name = format!("v{k}");
        src.push_str(&format!("let {name}:{} = {text} in\n", val.annotation()));
        g.env.push((name, val));
        g.last_text = text;
    }
    let (last, val) = g.env.last().cloned().unwrap_or(("v1".into(), iota(1)));
    src.push_str(&format!("{last}\n"));
    g.out.push_str(&format!("{}\n", array_text(&val.array())));
    TailCase {
        source: src,
        expected: g.out,
    }
}

fn iota(n: usize) -> Val {
    Val {
        ty: Ty::Int,
        shape: vec![n],
        data: (1..=n).map(|i| i as f64).collect(),
    }
}

impl Gen<'_> {
    fn fresh(&mut self) -> String {
        self.params += 1;
        format!("x{}", self.params)
    }

    /// A bound value satisfying `ok`, with its name.
    fn pick(&mut self, ok: impl Fn(&Val) -> bool) -> Option<(String, Val)> {
        let fits: Vec<&(String, Val)> = self.env.iter().filter(|(_, v)| ok(v)).collect();
        if fits.is_empty() {
            return None;
        }
        Some((*self.rng.pick(&fits)).clone())
    }

    /// [`Gen::pick`], but half the time among the values `prefer` accepts first: bools and
    /// double scalars are the rarest values, and without this their operators and print rules
    /// went unreached.
    fn pick_preferring(
        &mut self,
        prefer: impl Fn(&Val) -> bool,
        ok: impl Fn(&Val) -> bool,
    ) -> Option<(String, Val)> {
        let preferred = match self.rng.chance(50) {
            true => self.pick(|v| prefer(v) && ok(v)),
            false => None,
        };
        preferred.or_else(|| self.pick(ok))
    }

    /// One binding's expression and value.
    fn binding(&mut self) -> (String, Val) {
        for _ in 0..8 {
            let choice = self.rng.weighted(&WEIGHTS);
            let made = match choice {
                0 => Some(self.source_iota()),
                1 => Some(self.source_doubles()),
                2 => self.reshape(),
                3 => self.each(),
                4 => self.zip_with(),
                5 => self.reduce(),
                6 => self.scan(),
                7 => self.transpose(),
                8 => self.take(),
                9 => self.drop(),
                10 => self.rotate(),
                11 => self.vreverse(),
                12 => self.cat(),
                13 => self.idx_s(),
                14 => self.print(),
                15 => self.power(),
                16 => self.cond_scl(),
                17 => self.convert_scalar(),
                18 => self.first(),
                19 => self.vrotate(),
                20 => self.cons_snoc(),
                21 => self.shape_rav(),
                22 => self.grade(),
                23 => self.compress(),
                24 => self.replicate(),
                25 => self.empty_vector(),
                26 => self.conditional(),
                27 => self.projection(),
                28 => self.idx_assign(),
                _ => self.format_int(),
            };
            if let Some(m) = made {
                return m;
            }
        }
        self.source_iota()
    }

    fn source_iota(&mut self) -> (String, Val) {
        let n = self.rng.range(1, 8);
        (format!("iota({n})"), iota(n))
    }

    /// A literal double vector of quarters (exact in binary).
    fn source_doubles(&mut self) -> (String, Val) {
        let n = self.rng.range(1, 6);
        let data: Vec<f64> = (0..n)
            .map(|_| (self.rng.range(0, 48) as f64 - 24.0) / 4.0)
            .collect();
        let items: Vec<String> = data.iter().map(|x| format!("{x:?}")).collect();
        let v = Val {
            ty: Ty::Double,
            shape: vec![n],
            data,
        };
        (format!("[{}]", items.join(",")), v)
    }

    /// A unary scalar function of an element of type `ty`, as TAIL text (a lambda or an
    /// operator name) and its meaning; `xs` are the elements it will see (to keep ints bounded).
    fn unary(&mut self, ty: Ty, xs: &[f64]) -> (String, Ty, Box<dyn Fn(f64) -> f64>) {
        let x = self.fresh();
        let lambda = |body: String| format!("fn {x}:[{}]0 => {body}", ty.name());
        match (ty, self.rng.range(0, 3)) {
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
        }
    }

    fn each(&mut self) -> Option<(String, Val)> {
        let (name, v) = self.pick_preferring(is_bool, |v| v.rank() >= 1)?;
        let (f_text, ty, f) = self.unary(v.ty, &v.data);
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

    fn zip_with(&mut self) -> Option<(String, Val)> {
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
    fn fold_op(&mut self, v: &Val) -> (&'static str, &'static str, fn(f64, f64) -> f64) {
        match v.ty {
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
        }
    }

    fn reduce(&mut self) -> Option<(String, Val)> {
        let (name, v) = self.pick(|v| v.rank() >= 1)?;
        let (op, z, f) = self.fold_op(&v);
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

    fn scan(&mut self) -> Option<(String, Val)> {
        let (name, v) = self.pick(|v| v.rank() >= 1)?;
        let (op, z, f) = self.fold_op(&v);
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

    fn print(&mut self) -> Option<(String, Val)> {
        // prArrB, prSclB, prSclD
        let rare = |v: &Val| is_bool(v) || (v.ty == Ty::Double && v.rank() == 0);
        let (name, v) = self.pick_preferring(rare, |_| true)?;
        let kind = if v.rank() == 0 { "Scl" } else { "Arr" };
        self.out.push_str(&format!("{}\n", array_text(&v.array())));
        Some((format!("pr{kind}{}({name})", v.ty.letter()), v))
    }

    /// `power(fn v => rotate(1,v), n, a)` or with an `each` of a bounded int step.
    fn power(&mut self) -> Option<(String, Val)> {
        let (name, v) = self.pick(|v| v.rank() >= 1)?;
        let n = self.rng.range(0, 3);
        let p = self.fresh();
        let m = *v.shape.last()?;
        let mut data = v.data.clone();
        let body = if v.ty == Ty::Int && self.rng.chance(50) {
            let x = self.fresh();
            for _ in 0..n {
                data.iter_mut().for_each(|a| *a = (*a).max(-3.0));
            }
            format!("each(fn {x}:[int]0 => maxi({x},-3),{p})")
        } else {
            for _ in 0..n {
                data = data
                    .chunks(m)
                    .flat_map(|row| (0..m).map(move |j| row[(j + 1) % m]))
                    .collect();
            }
            format!("rotate(1,{p})")
        };
        Some((
            format!("power(fn {p}:{} => {body},{n},{name})", v.annotation()),
            Val {
                ty: v.ty,
                shape: v.shape.clone(),
                data,
            },
        ))
    }

    fn cond_scl(&mut self) -> Option<(String, Val)> {
        let (name, v) = self.pick(|v| v.rank() == 0 && v.ty == Ty::Int)?;
        let (cond_text, cond) = match self.pick(|v| v.rank() == 0 && v.ty == Ty::Bool) {
            Some((b, bv)) if self.rng.chance(50) => (b, bv.data[0] != 0.0),
            _ => {
                let c = self.rng.chance(50);
                ((if c { "tt" } else { "ff" }).to_string(), c)
            }
        };
        let x = self.fresh();
        let a = v.data[0];
        let (op, _, f) = safe(self.rng, Ty::Int, &[a], &[2.0]);
        let data = vec![if cond { f(a, 2.0) } else { a }];
        Some((
            format!("condScl(fn {x}:[int]0 => {op}({x},2),{cond_text},{name})"),
            Val {
                ty: Ty::Int,
                shape: Vec::new(),
                data,
            },
        ))
    }

    /// `i2d`, `b2i`, `andb`/`xorb` with `tt`, or a comparison of a scalar.
    fn convert_scalar(&mut self) -> Option<(String, Val)> {
        let (name, v) = self.pick_preferring(is_bool, |v| v.rank() == 0)?;
        let (text, ty, x) = match v.ty {
            Ty::Int if self.rng.chance(50) => (format!("i2d({name})"), Ty::Double, v.data[0]),
            Ty::Int => (format!("lti({name},3)"), Ty::Bool, b2f(v.data[0] < 3.0)),
            Ty::Bool => match self.rng.range(0, 2) {
                0 => (format!("b2i({name})"), Ty::Int, v.data[0]),
                1 => (format!("andb({name},tt)"), Ty::Bool, v.data[0]),
                _ => (format!("xorb({name},tt)"), Ty::Bool, b2f(v.data[0] == 0.0)),
            },
            Ty::Double => (format!("gtd({name},0.5)"), Ty::Bool, b2f(v.data[0] > 0.5)),
        };
        Some((
            text,
            Val {
                ty,
                shape: Vec::new(),
                data: vec![x],
            },
        ))
    }
}

/// A binary operator on `ty` whose results on `a`, `b` stay within [`BOUND`] (the max operator
/// always does).
fn safe(rng: &mut Rng, ty: Ty, a: &[f64], b: &[f64]) -> BinOp {
    let op = *rng.pick(ops(ty));
    if a.iter().zip(b).all(|(&x, &y)| op.2(x, y).abs() <= BOUND) {
        op
    } else {
        ops(ty)[3.min(ops(ty).len() - 1)]
    }
}
