//! A TAIL generator (apltail syntax, annotated lets) over int, double and bool arrays of rank 0
//! to 2: `iota`, literal vectors, `reshape`, `transp`, `transp2`, `take`, `drop`, `rotate`,
//! `vreverse`, `cat`, `idxS`, `each`/`zipWith` with lambdas and operator names, `reduce`, `scan`,
//! `power`, `condScl`, `i2d`, `b2i`, the `pr*` operators, `idxassign` (also through other names of
//! a location and in `power` steps: [`aliasing`]) and `formatI`; char vectors
//! (literals, `formatI`/`formatD` of computed values) and complex arrays ([`complex`]); and the
//! constructs whose shapes or values are known only at run time ([`runtime`]): masks, counts and
//! sort keys computed from data, `power` whose state grows or shrinks, `if` on a computed
//! condition, prints inside `each` and `power` bodies, and `roll`.
//!
//! It evaluates each program directly while generating it (the value of every binding is known,
//! following spec tail.md §5), which gives the expected output to compare the TAIL oracle
//! against. Values are chosen so that no operator errs: ints stay far from 32-bit overflow
//! (apltail treats it as an error), indices and axes are in range, extents are positive.
//! Printing uses the semantics' value printer (spec §6), so what is tested is the evaluation.

mod aliasing;
mod complex;
mod edges;
mod effects;
mod elementwise;
mod failing;
pub mod large;
mod runtime;
mod structure;
mod text;

use super::rng::Rng;
use semantics::tail::ops::io::Rolls;
use semantics::tail::print_value::{array_text, char_array_text};
use semantics::tail::value::{Array, BaseType, Elems, Scalar};

/// The element type of a generated array.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ty {
    Int,
    Double,
    Bool,
    /// Only literal vectors and `formatI`/`formatD` make chars; the productions that take them
    /// ask for them ([`Gen::pick_any`]).
    Char,
    /// Elements are (re, im) pairs, stored interleaved in [`Val::data`]; only the productions
    /// that take them ask for them ([`Gen::pick_any`]).
    Complex,
}

impl Ty {
    fn name(self) -> &'static str {
        match self {
            Ty::Int => "int",
            Ty::Double => "double",
            Ty::Bool => "bool",
            Ty::Char => "char",
            Ty::Complex => "complex",
        }
    }
    /// The letter of `prArrX`/`prSclX`.
    fn letter(self) -> &'static str {
        match self {
            Ty::Int => "I",
            Ty::Double => "D",
            Ty::Bool => "B",
            Ty::Char => "C",
            Ty::Complex => "X",
        }
    }
}

/// A value of the program: type, shape (empty for a scalar) and row-major elements (ints, bools
/// and char codes as exact small doubles; a complex element as two doubles, re then im).
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
    /// The fill element (spec §5.8 φ; complex arrays never reach the productions that fill).
    fn fill(&self) -> f64 {
        match self.ty {
            Ty::Char => 32.0,
            _ => 0.0,
        }
    }
    /// The semantics' array, for printing.
    fn array(&self) -> Array {
        let scalars: Vec<Scalar> = match self.ty {
            Ty::Complex => self
                .data
                .chunks(2)
                .map(|z| Scalar::Complex((z[0], z[1])))
                .collect(),
            _ => self
                .data
                .iter()
                .map(|&x| match self.ty {
                    Ty::Int => Scalar::Int(x as i32),
                    Ty::Double => Scalar::Double(x),
                    Ty::Char => Scalar::Char(x as u8),
                    _ => Scalar::Bool(x != 0.0),
                })
                .collect(),
        };
        if self.shape.is_empty() {
            return Array::scalar(scalars[0]);
        }
        let base = match self.ty {
            Ty::Int => BaseType::Int,
            Ty::Double => BaseType::Double,
            Ty::Bool => BaseType::Bool,
            Ty::Char => BaseType::Char,
            Ty::Complex => BaseType::Complex,
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
    // (+ 0.0: an int has no negative zero, `muli(0,-2)` is 0, which `i2d` makes 0.0)
    ("muli", Ty::Int, |a, b| a * b + 0.0),
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

/// Int, double and bool values: the ones every production takes ([`Gen::pick`]).
fn is_plain(v: &Val) -> bool {
    !matches!(v.ty, Ty::Char | Ty::Complex)
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
        // no binary operator of these types gives the same type back
        Ty::Char | Ty::Complex => &[],
    }
}

/// How often each production of [`Gen::binding`] is tried, in its order: iota, double literals,
/// reshape, each, zipWith, reduce, scan, transpositions, take, drop, rotate, vreverse, cat,
/// idxS, printing, power, condScl, scalar conversions, first, vrotate, cons/snoc, shape/rav,
/// grading, compress, replicate, zilde, if, tuple projection, idxassign, formatI; then the
/// run-time constructs: compress by a computed mask, replicate by computed counts, sorting,
/// power with a growing or shrinking state, take/drop/rotate/iota/reshape by computed counts
/// (a reshape to rows of a computed count, and at times of computed columns too: an array of
/// run-time extents),
/// `if` on a computed condition, complex sources, complex operations, `each` printing its
/// elements, char vectors, formatD, roll, vectors the lowering cannot fold; then aliases of a
/// location and updates through them (module `aliasing`).
const WEIGHTS: [u32; 46] = [
    3, 2, 4, 6, 4, 3, 3, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2,
    1, //
    2, 2, 2, 2, 3, 2, 2, 6, 1, 2, 1, 1, 3, //
    2, 3, 3,
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
    /// The TAIL oracle's `roll` generator, advanced as the program's `roll`s run (in program
    /// order: a production rolls only once it is sure to be used).
    roll: Rolls,
    /// Where the binding being made starts in the source, and its number: a `roll`'s draws
    /// depend on its call site, its position in the source.
    binding_at: (usize, usize),
    /// Picks take only large values (while [`edges`] reuses a production on them).
    large_only: bool,
    /// Each binding's text and, where the generator knows it, its location (module
    /// `aliasing`); the number of locations made, and the one the production just run
    /// made its binding's.
    texts: Vec<String>,
    locs: Vec<Option<usize>>,
    locations: usize,
    made_loc: Option<usize>,
}

/// Generates one program of up to `max_lets` bindings.
pub fn generate_tail(rng: &mut Rng, max_lets: usize) -> TailCase {
    let mut g = Gen {
        rng,
        env: Vec::new(),
        out: String::new(),
        params: 0,
        last_text: String::new(),
        roll: Rolls::default(),
        binding_at: (0, 0),
        large_only: false,
        texts: Vec::new(),
        locs: Vec::new(),
        locations: 0,
        made_loc: None,
    };
    let mut src = String::new();
    let lets = g.rng.range(2, max_lets.max(2));
    for k in 1..=lets {
        g.binding_at = (src.len(), k);
        g.made_loc = None;
        let (text, val) = g.binding();
        let name = format!("v{k}");
        src.push_str(&format!("let {name}:{} = {text} in\n", val.annotation()));
        let loc = g.location_of(&text);
        g.env.push((name, val));
        g.texts.push(text.clone());
        g.locs.push(loc);
        g.last_text = text;
    }
    // a share of programs ends in an expression that fails (module `failing`)
    if g.rng.chance(failing::FAILING_SHARE) {
        if let Some((text, rule)) = g.failing() {
            src.push_str(&format!("{text}\n"));
            g.out.push_str(&format!("error: {rule}\n"));
            return TailCase {
                source: src,
                expected: g.out,
            };
        }
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

    /// A bound int, double or bool value satisfying `ok`, with its name (char and complex values
    /// go only to the productions that ask for them with [`Gen::pick_any`]).
    fn pick(&mut self, ok: impl Fn(&Val) -> bool) -> Option<(String, Val)> {
        self.pick_any(|v| is_plain(v) && ok(v))
    }

    /// A bound value of any type satisfying `ok`, with its name.
    fn pick_any(&mut self, ok: impl Fn(&Val) -> bool) -> Option<(String, Val)> {
        // large values only now and then ([`large::LARGE_VISIBLE`]): a sort or a computed
        // filter of thousands of elements costs the oracles and PoCL seconds
        let large = self.rng.chance(large::LARGE_VISIBLE);
        let fits: Vec<&(String, Val)> = self
            .env
            .iter()
            .filter(|(_, v)| {
                let big = v.data.len() >= large::LARGE_SIZE;
                ok(v) && if self.large_only { big } else { large || !big }
            })
            .collect();
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
        if let Some(made) = self.sized_or_edge() {
            return made;
        }
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
                29 => self.format_int(),
                30 => self.compress_computed(),
                31 => self.replicate_computed(),
                32 => self.sort(),
                33 => self.power_resizing(),
                34 => self.counted(),
                35 => self.conditional_computed(),
                36 => self.complex_source(),
                37 => self.complex_op(),
                38 => self.each_printing(),
                39 => self.char_vector(),
                40 => self.format_double(),
                41 => self.roll(),
                43 => self.alias(),
                44 => self.update_alias(),
                45 => self.update_outer(),
                _ => self.opaque(),
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

    fn print(&mut self) -> Option<(String, Val)> {
        // prArrB, prSclB, prSclD; prArrC, prArrX and prSclX of the rarer types
        let rare = |v: &Val| is_bool(v) || (v.ty == Ty::Double && v.rank() == 0);
        let special = match self.rng.chance(30) {
            true => self.pick_any(|v| !is_plain(v)),
            false => None,
        };
        let (name, v) = match special {
            Some(s) => s,
            None => self.pick_preferring(rare, |_| true)?,
        };
        let kind = if v.rank() == 0 { "Scl" } else { "Arr" };
        self.out.push_str(&format!("{}\n", printed_text(&v)));
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
            Ty::Char | Ty::Complex => return None,
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

/// What `prArr*`/`prScl*` of `v` write, without the newline: `prArrC` of a char array has its
/// own layout (spec §6.3), every other one the generic layout (§6.2).
fn printed_text(v: &Val) -> String {
    if v.ty == Ty::Char && v.rank() > 0 {
        char_array_text(&v.array())
    } else {
        array_text(&v.array())
    }
}

/// A binary operator on `ty` (int, double or bool) whose results on `a`, `b` stay within [`BOUND`] (the max operator
/// always does).
fn safe(rng: &mut Rng, ty: Ty, a: &[f64], b: &[f64]) -> BinOp {
    let op = *rng.pick(ops(ty));
    if a.iter().zip(b).all(|(&x, &y)| op.2(x, y).abs() <= BOUND) {
        op
    } else {
        ops(ty)[3.min(ops(ty).len() - 1)]
    }
}
