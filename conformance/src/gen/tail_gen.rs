//! A TAIL generator (apltail syntax, annotated lets) over integer vectors: `iota`, `each`,
//! `zipWith`, `reduce`, `prArrI`. It evaluates each program directly while generating it (the
//! values of every binding are known), which gives the expected output to compare the TAIL
//! oracle against, and keeps every intermediate value far from the 32-bit overflow that apltail
//! treats as an error.

use super::rng::Rng;

/// A bound value and its TAIL type annotation.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Val {
    /// A vector; `static_len` when its type is the static vector `<int>n`.
    Vector(Vec<i64>, bool),
    Scalar(i64),
}

/// The largest magnitude a generated value may reach (well inside 32 bits).
const BOUND: i64 = 1 << 24;

/// A generated TAIL program and the output the TAIL oracle must print for it.
#[derive(Clone, Debug)]
pub struct TailCase {
    pub source: String,
    pub expected: String,
}

/// A TAIL integer operator and what it computes.
type IntOp = (&'static str, fn(i64, i64) -> i64);

const OPS: &[IntOp] = &[
    ("addi", |a, b| a + b),
    ("subi", |a, b| a - b),
    ("muli", |a, b| a * b),
    ("maxi", |a, b| a.max(b)),
    ("mini", |a, b| a.min(b)),
];

/// Generates one program of up to `max_lets` bindings.
pub fn generate_tail(rng: &mut Rng, max_lets: usize) -> TailCase {
    let mut env: Vec<(String, Val)> = Vec::new();
    let mut src = String::new();
    let mut out = String::new();
    let lets = rng.range(2, max_lets.max(2));
    for k in 1..=lets {
        let name = format!("v{k}");
        let vectors: Vec<(String, Vec<i64>, bool)> = env
            .iter()
            .filter_map(|(n, v)| match v {
                Val::Vector(xs, st) => Some((n.clone(), xs.clone(), *st)),
                Val::Scalar(_) => None,
            })
            .collect();
        let (text, val) = if vectors.is_empty() || rng.chance(15) {
            let n = rng.range(1, 8);
            (
                format!("iota({n})"),
                Val::Vector((1..=n as i64).collect(), true),
            )
        } else {
            let (vname, xs, st) = rng.pick(&vectors).clone();
            match rng.range(0, 3) {
                0 => {
                    let c = rng.range(0, 10) as i64 - 5;
                    let (op, f) = safe_op(rng, &xs, &vec![c; xs.len()]);
                    let ys = xs.iter().map(|&x| f(x, c)).collect();
                    (
                        format!("each(fn x{k}:[int]0 => {op}(x{k},{c}),{vname})"),
                        Val::Vector(ys, st),
                    )
                }
                1 => {
                    let same: Vec<&(String, Vec<i64>, bool)> =
                        vectors.iter().filter(|w| w.1.len() == xs.len()).collect();
                    let (wname, ws, _) = (*rng.pick(&same)).clone();
                    let (op, f) = safe_op(rng, &xs, &ws);
                    let ys = xs.iter().zip(&ws).map(|(&a, &b)| f(a, b)).collect();
                    (
                        format!("zipWith({op},{vname},{wname})"),
                        Val::Vector(ys, false),
                    )
                }
                2 => {
                    let sum: i64 = xs.iter().sum();
                    if sum.abs() <= BOUND {
                        (format!("reduce(addi,0,{vname})"), Val::Scalar(sum))
                    } else {
                        let m = xs.iter().copied().fold(-1000, i64::max);
                        (format!("reduce(maxi,-1000,{vname})"), Val::Scalar(m))
                    }
                }
                _ => {
                    out.push_str(&format!("{}\n", layout(&xs)));
                    (format!("prArrI({vname})"), Val::Vector(xs, st))
                }
            }
        };
        let ty = match &val {
            Val::Vector(xs, true) => format!("<int>{}", xs.len()),
            Val::Vector(..) => "[int]1".to_string(),
            Val::Scalar(_) => "[int]0".to_string(),
        };
        src.push_str(&format!("let {name}:{ty} = {text} in\n"));
        env.push((name, val));
    }
    // the result: the sum of the last vector, or the last scalar
    let (last, val) = env.last().cloned().unwrap_or(("v1".into(), Val::Scalar(0)));
    let (text, result) = match val {
        Val::Vector(xs, _) => (format!("reduce(addi,0,{last})"), xs.iter().sum::<i64>()),
        Val::Scalar(s) => (last, s),
    };
    src.push_str(&format!("{text}\n"));
    out.push_str(&format!("[]({result})\n"));
    TailCase {
        source: src,
        expected: out,
    }
}

/// An operator whose results on `a`, `b` stay within [`BOUND`] (maxi always does).
fn safe_op(rng: &mut Rng, a: &[i64], b: &[i64]) -> IntOp {
    let (op, f) = *rng.pick(OPS);
    if a.iter().zip(b).all(|(&x, &y)| f(x, y).abs() <= BOUND) {
        (op, f)
    } else {
        ("maxi", |x, y| x.max(y))
    }
}

/// The rank-1 layout of spec/tail.md §6.2: `[n](x0,x1,…)`.
fn layout(xs: &[i64]) -> String {
    let items: Vec<String> = xs.iter().map(|x| x.to_string()).collect();
    format!("[{}]({})", xs.len(), items.join(","))
}
