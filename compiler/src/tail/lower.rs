//! The lowering proper: TAIL expressions evaluated symbolically to FCL text (see the module
//! documentation of `compiler::tail`).

use super::{LowerTailError, Lowered, ResultKind, MAX_TEXT, MAX_UNROLL};
use semantics::tail::ops::prim::Prim;
use semantics::tail::syntax::{Expr, ExprKind};
use semantics::tail::value::Scalar;
use std::collections::HashMap;
use std::rc::Rc;

type R<T> = Result<T, LowerTailError>;

/// An index function: flat row-major index (FCL int text) to the element's FCL int text.
type Index = Rc<dyn Fn(&str) -> String>;

/// A TAIL value during lowering.
#[derive(Clone)]
enum Val {
    /// An int scalar: FCL text and, when known at compile time, its value.
    Int(String, Option<i64>),
    /// An int array: static shape, index function, and the elements when known statically.
    Arr {
        shape: Vec<usize>,
        index: Index,
        known: Option<Vec<i64>>,
    },
    /// A function value: a lambda with its environment, or an operator name.
    Fun(Rc<Fun>),
    /// The result of `i2d` (scalar or `each(i2d, …)`): only allowed as the program's result.
    AsDouble(Box<Val>),
}

/// A function value.
enum Fun {
    Lambda { param: String, body: Expr, env: Env },
    Op(Prim),
}

type Env = HashMap<String, Val>;

thread_local! {
    /// The values `prSclI`/`prArrI`/`prArrD` print, in evaluation order (call by value).
    static PRINTS: std::cell::RefCell<Vec<(Vec<usize>, Index, ResultKind)>> =
        const { std::cell::RefCell::new(Vec::new()) };
    /// How many lambda bodies are being lowered: a print there would run once per element.
    static IN_LAMBDA: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// The forced-and-printed value of a printing operator, or of the program's result.
fn printed(v: Val) -> R<(Vec<usize>, Index, ResultKind)> {
    let (v, kind) = match v {
        Val::AsDouble(inner) => (*inner, ResultKind::IntAsDouble),
        v => (v, ResultKind::Int),
    };
    let (shape, index) = array(v)?;
    if shape.iter().product::<usize>() == 0 {
        return unsupported("printing an empty array (forceAndPrint needs at least one element)");
    }
    Ok((shape, index, kind))
}

fn unsupported<T>(why: impl Into<String>) -> R<T> {
    Err(LowerTailError::Unsupported(why.into()))
}

/// Lowers a type-checked TAIL expression to an FCL program printing its value.
pub fn lower_expr(e: &Expr) -> R<Lowered> {
    PRINTS.with(|p| p.borrow_mut().clear());
    IN_LAMBDA.with(|d| d.set(0));
    let v = eval(e, &Env::new());
    let mut outputs = PRINTS.with(|p| std::mem::take(&mut *p.borrow_mut()));
    outputs.push(printed(v?)?);
    let mut binds = Vec::new();
    for (k, (shape, index, _)) in outputs.iter().enumerate() {
        let n: usize = shape.iter().product();
        let body = index("i");
        binds.push(format!(
            "a{k} <- forceAndPrint {n} (push<grid> (generate {n} (fn i => {body})))"
        ));
    }
    let last = outputs.len() - 1;
    let fcl = format!(
        "-- lowered from TAIL by compiler::tail\n\
         sig main : Program <grid> [int]\n\
         val main =\n  do<grid>\n  {{ {}\n  ; return<grid> a{last}\n  }}\n",
        binds.join("\n  ; ")
    );
    let (shape, _, kind) = outputs.pop().expect("the result is an output");
    let prints = outputs.into_iter().map(|(s, _, k)| (s, k)).collect();
    if fcl.len() > MAX_TEXT {
        return unsupported("the fused program text exceeds the lowering's size limit");
    }
    Ok(Lowered {
        fcl,
        prints,
        shape,
        kind,
    })
}

fn int_lit(v: i64) -> String {
    if v < 0 {
        format!("(0 - {})", -v)
    } else {
        v.to_string()
    }
}

fn arr(shape: Vec<usize>, index: impl Fn(&str) -> String + 'static) -> Val {
    Val::Arr {
        shape,
        index: Rc::new(index),
        known: None,
    }
}

fn eval(e: &Expr, env: &Env) -> R<Val> {
    match &e.kind {
        ExprKind::Var(x) => match env.get(x) {
            Some(v) => Ok(v.clone()),
            None => unsupported(format!("free variable {x}")),
        },
        ExprKind::Lit(Scalar::Int(v)) => Ok(Val::Int(int_lit(i64::from(*v)), Some(i64::from(*v)))),
        ExprKind::Lit(_) => unsupported("non-int literals"),
        ExprKind::Let {
            var, bound, body, ..
        } => {
            let v = eval(bound, env)?;
            let mut env = env.clone();
            env.insert(var.clone(), v);
            eval(body, &env)
        }
        ExprKind::Fn { param, body, .. } => Ok(Val::Fun(Rc::new(Fun::Lambda {
            param: param.clone(),
            body: body.as_ref().clone(),
            env: env.clone(),
        }))),
        ExprKind::OpValue(op) => Ok(Val::Fun(Rc::new(Fun::Op(op.prim)))),
        ExprKind::Vector(es) => {
            let mut texts = Vec::new();
            let mut known = Some(Vec::new());
            for e in es {
                match eval(e, env)? {
                    Val::Int(t, k) => {
                        texts.push(t);
                        known = match (known, k) {
                            (Some(mut ks), Some(k)) => {
                                ks.push(k);
                                Some(ks)
                            }
                            _ => None,
                        };
                    }
                    _ => return unsupported("vector literals of non-int elements"),
                }
            }
            let n = texts.len();
            let index = Rc::new(move |i: &str| select(i, &texts));
            Ok(Val::Arr {
                shape: vec![n],
                index,
                known,
            })
        }
        ExprKind::App { op, args } => {
            let vs = args.iter().map(|a| eval(a, env)).collect::<R<Vec<_>>>()?;
            apply_prim(op.prim, vs)
        }
        ExprKind::If(..) | ExprKind::Prj(..) | ExprKind::Tuple(_) => {
            unsupported("if, tuples and projections")
        }
    }
}

/// `if i == 0 then t0 else if i == 1 then t1 … else t(n-1)`.
fn select(i: &str, texts: &[String]) -> String {
    let mut out = texts.last().cloned().unwrap_or_else(|| "0".into());
    for (k, t) in texts.iter().enumerate().rev().skip(1) {
        out = format!("(if {i} == {k} then {t} else {out})");
    }
    out
}

fn apply_fun(f: &Val, args: Vec<Val>) -> R<Val> {
    let Val::Fun(f) = f else {
        return unsupported("applying a non-function");
    };
    match f.as_ref() {
        Fun::Op(p) => apply_prim(*p, args),
        Fun::Lambda { param, body, env } => {
            let mut args = args.into_iter();
            let Some(first) = args.next() else {
                return unsupported("a lambda applied to nothing");
            };
            let mut env = env.clone();
            env.insert(param.clone(), first);
            IN_LAMBDA.with(|d| d.set(d.get() + 1));
            let v = eval(body, &env);
            IN_LAMBDA.with(|d| d.set(d.get() - 1));
            let v = v?;
            let rest: Vec<Val> = args.collect();
            if rest.is_empty() {
                Ok(v)
            } else {
                apply_fun(&v, rest)
            }
        }
    }
}

fn apply_int(f: &Val, args: Vec<String>) -> R<String> {
    match apply_fun(f, args.into_iter().map(|t| Val::Int(t, None)).collect())? {
        Val::Int(t, _) => Ok(t),
        _ => unsupported("a function whose result is not an int"),
    }
}

fn ints2(vs: &[Val]) -> Option<(&str, Option<i64>, &str, Option<i64>)> {
    match vs {
        [Val::Int(a, ka), Val::Int(b, kb)] => Some((a, *ka, b, *kb)),
        _ => None,
    }
}

fn known_vec(v: &Val) -> R<Vec<i64>> {
    match v {
        Val::Arr {
            known: Some(ks), ..
        } => Ok(ks.clone()),
        Val::Int(_, Some(k)) => Ok(vec![*k]),
        _ => unsupported("a shape or count that is not known at compile time"),
    }
}

fn known_int(v: &Val) -> R<i64> {
    match v {
        Val::Int(_, Some(k)) => Ok(*k),
        _ => unsupported("a count that is not known at compile time"),
    }
}

fn array(v: Val) -> R<(Vec<usize>, Index)> {
    match v {
        Val::Arr { shape, index, .. } => Ok((shape, index)),
        Val::Int(t, _) => Ok((Vec::new(), Rc::new(move |_: &str| t.clone()))),
        _ => unsupported("an array operand that is not an int array"),
    }
}

fn usize_of(k: i64) -> R<usize> {
    usize::try_from(k).or_else(|_| unsupported("a negative extent"))
}

fn apply_prim(p: Prim, mut vs: Vec<Val>) -> R<Val> {
    if let Some((a, ka, b, kb)) = ints2(&vs) {
        let fold = |f: fn(i64, i64) -> Option<i64>| ka.zip(kb).and_then(|(x, y)| f(x, y));
        let (text, k) = match p {
            Prim::Addi => (format!("({a} + {b})"), fold(i64::checked_add)),
            Prim::Subi => (format!("({a} - {b})"), fold(i64::checked_sub)),
            Prim::Muli => (format!("({a} * {b})"), fold(i64::checked_mul)),
            Prim::Maxi => (format!("(maxi {a} {b})"), fold(|x, y| Some(x.max(y)))),
            Prim::Mini => (format!("(mini {a} {b})"), fold(|x, y| Some(x.min(y)))),
            _ => return unsupported(format!("operator {}", p.name())),
        };
        // a statically known value outside int range wraps in TAIL: keep the text then
        let k = k.filter(|v| i32::try_from(*v).is_ok());
        return Ok(Val::Int(text, k));
    }
    match (p, vs.as_slice()) {
        // (§6) prSclI, prArrI, prArrD: forced and printed in evaluation order
        (Prim::PrSclI | Prim::PrArrI | Prim::PrSclD | Prim::PrArrD, [v]) => {
            if IN_LAMBDA.with(|d| d.get()) > 0 {
                return unsupported("printing inside a function");
            }
            let out = printed(v.clone())?;
            PRINTS.with(|p| p.borrow_mut().push(out));
            Ok(v.clone())
        }
        // (§5.1) negi
        (Prim::Negi, [Val::Int(a, k)]) => Ok(Val::Int(format!("(0 - {a})"), k.map(|v| -v))),
        // (§5.6) i2d: the double is produced on the host when printing
        (Prim::I2d, [v @ Val::Int(..)]) => Ok(Val::AsDouble(Box::new(v.clone()))),
        // (§5.8) iota
        (Prim::Iota, [n]) => {
            let n = usize_of(known_int(n)?)?;
            let known = (n <= MAX_UNROLL).then(|| (1..=n as i64).collect());
            Ok(Val::Arr {
                shape: vec![n],
                index: Rc::new(|i: &str| format!("({i} + 1)")),
                known,
            })
        }
        (Prim::Shape, [a]) => {
            let (shape, _) = array(a.clone())?;
            let ks: Vec<i64> = shape.iter().map(|&d| d as i64).collect();
            let texts: Vec<String> = ks.iter().map(|k| k.to_string()).collect();
            Ok(Val::Arr {
                shape: vec![ks.len()],
                index: Rc::new(move |i: &str| select(i, &texts)),
                known: Some(ks),
            })
        }
        (Prim::Reshape, [s, a]) => {
            let shape = known_vec(s)?
                .into_iter()
                .map(usize_of)
                .collect::<R<Vec<_>>>()?;
            let (old, index) = array(a.clone())?;
            let (m, n): (usize, usize) = (old.iter().product(), shape.iter().product());
            if m == n {
                return Ok(Val::Arr {
                    shape,
                    index,
                    known: None,
                });
            }
            if m == 0 {
                return unsupported("reshape of an empty array (fill elements)");
            }
            // reshape cycles through the elements (spec §5.8)
            Ok(arr(shape, move |i| index(&format!("({i} % {m})"))))
        }
        (Prim::Rav, [a]) => {
            let (shape, index) = array(a.clone())?;
            Ok(arr(vec![shape.iter().product()], move |i| index(i)))
        }
        (Prim::Transp, [a]) => {
            let (shape, _) = array(a.clone())?;
            let perm: Vec<usize> = (0..shape.len()).rev().collect();
            transpose(&perm, a.clone())
        }
        (Prim::Transp2, [p, a]) => {
            let perm = known_vec(p)?
                .into_iter()
                .map(|k| usize_of(k - 1))
                .collect::<R<Vec<_>>>()?;
            transpose(&perm, a.clone())
        }
        (Prim::Take, [n, a]) => take_drop(true, known_int(n)?, a.clone()),
        (Prim::Drop, [n, a]) => take_drop(false, known_int(n)?, a.clone()),
        (Prim::Rotate | Prim::Vrotate, [n, a]) => {
            let k = known_int(n)?;
            let (shape, index) = array(a.clone())?;
            if shape.len() != 1 || shape[0] == 0 {
                return unsupported("rotate of a non-vector");
            }
            let len = shape[0] as i64;
            let off = k.rem_euclid(len);
            Ok(arr(shape, move |i| {
                index(&format!("(({i} + {off}) % {len})"))
            }))
        }
        (Prim::Vreverse, [a]) => {
            let (shape, index) = array(a.clone())?;
            if shape.len() != 1 {
                return unsupported("vreverse of a non-vector");
            }
            let last = shape[0] as i64 - 1;
            Ok(arr(shape, move |i| index(&format!("({last} - {i})"))))
        }
        (Prim::Cat | Prim::Cons | Prim::Snoc, [a, b]) => {
            let (sa, ia) = array(a.clone())?;
            let (sb, ib) = array(b.clone())?;
            if sa.len() > 1 || sb.len() > 1 {
                return unsupported("cat/cons/snoc of arrays of rank above 1");
            }
            let la = sa.first().copied().unwrap_or(1);
            let lb = sb.first().copied().unwrap_or(1);
            Ok(arr(vec![la + lb], move |i| {
                let j = format!("({i} - {la})");
                format!("(if lti {i} {la} then {} else {})", ia(i), ib(&j))
            }))
        }
        (Prim::First, [a]) => {
            let (shape, index) = array(a.clone())?;
            if shape.iter().product::<usize>() == 0 {
                return unsupported("first of an empty array");
            }
            Ok(Val::Int(index("0"), None))
        }
        // (§5.9) each
        (Prim::Each, [f, a]) => {
            if matches!(f, Val::Fun(g) if matches!(g.as_ref(), Fun::Op(Prim::I2d))) {
                return Ok(Val::AsDouble(Box::new(a.clone())));
            }
            let (shape, index) = array(a.clone())?;
            let f = f.clone();
            // check the function once, on a placeholder, so the index function cannot fail
            apply_int(&f, vec!["x".into()])?;
            Ok(arr(shape, move |i| {
                apply_int(&f, vec![index(i)]).unwrap_or_default()
            }))
        }
        (Prim::ZipWith, [f, a, b]) => {
            let (sa, ia) = array(a.clone())?;
            let (sb, ib) = array(b.clone())?;
            if sa != sb {
                return unsupported("zipWith of arrays with different shapes");
            }
            let f = f.clone();
            apply_int(&f, vec!["x".into(), "y".into()])?;
            Ok(arr(sa, move |i| {
                apply_int(&f, vec![ia(i), ib(i)]).unwrap_or_default()
            }))
        }
        (Prim::Reduce, [f, z, a]) => reduce(f.clone(), z.clone(), a.clone()),
        _ => {
            vs.clear();
            unsupported(format!("operator {}", p.name()))
        }
    }
}

/// Index arithmetic for a general transpose: result axis `perm[k]` is operand axis `k`.
fn transpose(perm: &[usize], a: Val) -> R<Val> {
    let (old, index) = array(a)?;
    let r = old.len();
    let mut seen = vec![false; r];
    if perm.len() != r
        || perm
            .iter()
            .any(|&p| p >= r || std::mem::replace(&mut seen[p], true))
    {
        return unsupported("transp2 with a non-permutation");
    }
    let mut shape = vec![0; r];
    for k in 0..r {
        shape[perm[k]] = old[k];
    }
    let new_strides = strides(&shape);
    let old_strides = strides(&old);
    let perm = perm.to_vec();
    let dims = shape.clone();
    Ok(arr(shape, move |i| {
        let terms: Vec<String> = (0..r)
            .map(|k| {
                let j = perm[k];
                format!(
                    "((({i}) / {}) % {}) * {}",
                    new_strides[j], dims[j], old_strides[k]
                )
            })
            .collect();
        index(&format!("({})", terms.join(" + ")))
    }))
}

fn strides(shape: &[usize]) -> Vec<usize> {
    let mut s = vec![1; shape.len()];
    for k in (0..shape.len().saturating_sub(1)).rev() {
        s[k] = s[k + 1] * shape[k + 1];
    }
    s
}

/// take/drop along the first axis (spec §5.8): row-major, so a prefix or suffix of the flat
/// elements; taking more than there are pads with zeros.
fn take_drop(take: bool, n: i64, a: Val) -> R<Val> {
    let (old, index) = array(a)?;
    if old.is_empty() {
        return unsupported("take/drop of a scalar");
    }
    let len = old[0] as i64;
    let row: usize = old[1..].iter().product();
    let (new_len, first) = match (take, n >= 0) {
        (true, true) => (n, 0),
        (true, false) => (-n, len + n),
        (false, true) => ((len - n).max(0), n.min(len)),
        (false, false) => ((len + n).max(0), 0),
    };
    if first < 0 {
        return unsupported("take of more elements than there are, from the end");
    }
    let size = (len as usize) * row;
    let off = first as usize * row;
    let mut shape = old.clone();
    shape[0] = usize_of(new_len)?;
    Ok(arr(shape, move |i| {
        let j = format!("({i} + {off})");
        if take && n > len {
            format!("(if lti {j} {size} then {} else 0)", index(&j))
        } else {
            index(&j)
        }
    }))
}

/// reduce along the last axis, unrolled as a right fold `f(a0, f(a1, … f(a(n-1), z)))`.
fn reduce(f: Val, z: Val, a: Val) -> R<Val> {
    let Val::Int(zt, _) = z else {
        return unsupported("reduce with a non-int neutral element");
    };
    let (shape, index) = array(a)?;
    let Some((&n, outer)) = shape.split_last() else {
        return unsupported("reduce of a scalar");
    };
    if n > MAX_UNROLL {
        return unsupported(format!(
            "reduce over an axis longer than {MAX_UNROLL} (not unrolled)"
        ));
    }
    apply_int(&f, vec!["x".into(), "y".into()])?;
    let fold = move |i: &str| {
        let mut acc = zt.clone();
        for k in (0..n).rev() {
            let e = index(&format!("({i} * {n} + {k})"));
            acc = apply_int(&f, vec![e, acc]).unwrap_or_default();
        }
        acc
    };
    if outer.is_empty() {
        Ok(Val::Int(fold("0"), None))
    } else {
        Ok(arr(outer.to_vec(), fold))
    }
}
