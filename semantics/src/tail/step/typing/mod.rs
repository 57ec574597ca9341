//! Typing of configurations under a store typing, for the type-preservation property (thesis
//! Propositions 2 and 5): the minimal typing judgement `Σ; Γ ⊢ e : τ` the oracle's tests need,
//! following apltail's checker (spec §3.3–§3.7). A configuration printed by
//! [`super::Machine::configuration`] binds each location with `let l_k:Σ(l_k) = …`, so Σ is part
//! of Γ here (3.50). The front end's checker is the reference for diagnostics on programs; this
//! one types the terms the stepper produces.
//!
//! Base types may be unknown (`None`) where apltail would have a type variable (the element type
//! of `zilde()`); an unknown base type is compatible with every base type. Where apltail's checker
//! is unsound (`take`/`cat` of scalars, `reduce` of a scalar, spec §3.8) this one gives the type
//! of the value the rule produces.

mod operators;

use super::compile::Surface;
use crate::tail::ops::apply::scalar_signature;
use crate::tail::ops::prim::Prim;
use crate::tail::value::{BaseType, Scalar};
use operators::op_type;
use std::fmt;

/// A base type, or `None` when not yet known.
pub type Base = Option<BaseType>;

/// The types τ of spec §3.2.
#[derive(Clone, Debug, PartialEq)]
pub enum Ty {
    /// `[κ]r`
    Arr(Base, i64),
    /// `<κ>n`
    Vec(Base, i64),
    /// `S(κ,n)`
    S(Base, i64),
    /// `SV(κ,n)`
    SV(Base, i64),
    Tuple(Vec<Ty>),
    Fun(Box<Ty>, Box<Ty>),
}

fn bname(b: Base) -> &'static str {
    b.map_or("'a", BaseType::name)
}

impl fmt::Display for Ty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ty::Arr(b, r) => write!(f, "[{}]{r}", bname(*b)),
            Ty::Vec(b, n) => write!(f, "<{}>{n}", bname(*b)),
            Ty::S(b, n) => write!(f, "S({},{n})", bname(*b)),
            Ty::SV(b, n) => write!(f, "SV({},{n})", bname(*b)),
            Ty::Tuple(ts) => {
                let parts: Vec<String> = ts.iter().map(|t| t.to_string()).collect();
                write!(f, "({})", parts.join(" * "))
            }
            Ty::Fun(a, b) => write!(f, "({a})->{b}"),
        }
    }
}

pub(super) type Res<T> = Result<T, String>;

fn beq(a: Base, b: Base) -> bool {
    a.is_none() || b.is_none() || a == b
}

/// `t ≤ u` (spec §3.3, with rule 3.4 kept as apltail does).
pub fn subtype(t: &Ty, u: &Ty) -> bool {
    use Ty::*;
    match (t, u) {
        (S(a, n), S(b, m))
        | (SV(a, n), SV(b, m))
        | (Vec(a, n), Vec(b, m))
        | (Arr(a, n), Arr(b, m)) => beq(*a, *b) && n == m,
        (S(a, _), Arr(b, 0)) => beq(*a, *b),
        (SV(a, _), Vec(b, 1)) | (SV(a, _), Arr(b, 1)) | (Vec(a, _), Arr(b, 1)) => beq(*a, *b),
        (Tuple(ts), Tuple(us)) => {
            ts.len() == us.len() && ts.iter().zip(us).all(|(t, u)| subtype(t, u))
        }
        (Fun(a, b), Fun(c, d)) => subtype(a, c) && subtype(c, a) && subtype(b, d) && subtype(d, b),
        _ => false,
    }
}

/// `t ⊔ u` (spec §3.4).
pub fn join(t: &Ty, u: &Ty) -> Res<Ty> {
    use Ty::*;
    if subtype(t, u) {
        return Ok(u.clone());
    }
    if subtype(u, t) {
        return Ok(t.clone());
    }
    let widen = |t: &Ty| match t {
        S(b, _) => Arr(*b, 0),
        SV(b, _) => Vec(*b, 1),
        Vec(b, _) => Arr(*b, 1),
        other => other.clone(),
    };
    match (t, u) {
        (Tuple(ts), Tuple(us)) if ts.len() == us.len() => Ok(Tuple(
            ts.iter()
                .zip(us)
                .map(|(t, u)| join(t, u))
                .collect::<Res<_>>()?,
        )),
        _ if widen(t) != *t || widen(u) != *u => join(&widen(t), &widen(u)),
        _ => Err(format!("no common type of {t} and {u}")),
    }
}

/// `arr(t)`: element type and rank.
pub(super) fn arr(t: &Ty) -> Res<(Base, i64)> {
    match t {
        Ty::Arr(b, r) => Ok((*b, *r)),
        Ty::Vec(b, _) | Ty::SV(b, _) => Ok((*b, 1)),
        Ty::S(b, _) => Ok((*b, 0)),
        other => Err(format!("expected an array, found {other}")),
    }
}

/// `scl(t)`: the base type of a scalar type.
pub(super) fn scl(t: &Ty) -> Res<Base> {
    match t {
        Ty::Arr(b, 0) | Ty::S(b, _) => Ok(*b),
        other => Err(format!("expected a scalar, found {other}")),
    }
}

/// `svec(t)`: a statically sized vector's base type and length.
pub(super) fn svec(t: &Ty) -> Option<(Base, i64)> {
    match t {
        Ty::Vec(b, n) => Some((*b, *n)),
        Ty::SV(b, _) => Some((*b, 1)),
        _ => None,
    }
}

pub(super) fn sint(t: &Ty) -> Option<i64> {
    match t {
        Ty::S(Some(BaseType::Int) | None, k) => Some(*k),
        _ => None,
    }
}

pub(super) fn want(b: Base, k: BaseType, what: &str) -> Res<()> {
    if beq(b, Some(k)) {
        Ok(())
    } else {
        Err(format!("{what}: expected {}, found {}", k.name(), bname(b)))
    }
}

pub(super) fn same(a: Base, b: Base, what: &str) -> Res<Base> {
    if beq(a, b) {
        Ok(a.or(b))
    } else {
        Err(format!("{what}: {} and {} differ", bname(a), bname(b)))
    }
}

/// `fun1(f)` / `fun2(f)`: the scalar base types of a unary or curried binary function.
pub(super) fn fun(f: &Ty, n: usize) -> Res<Vec<Base>> {
    let mut out = Vec::new();
    let mut t = f;
    for _ in 0..n {
        match t {
            Ty::Fun(a, b) => {
                out.push(scl(a)?);
                t = b;
            }
            other => {
                return Err(format!(
                    "expected a function of {n} arguments, found {other}"
                ))
            }
        }
    }
    out.push(scl(t)?);
    Ok(out)
}

/// Parses a type annotation (spec §2.2).
pub fn parse_type(text: &str) -> Res<Ty> {
    let t = text.trim();
    let base = |s: &str| -> Res<Base> {
        match s.trim() {
            "int" => Ok(Some(BaseType::Int)),
            "double" => Ok(Some(BaseType::Double)),
            "bool" => Ok(Some(BaseType::Bool)),
            "char" => Ok(Some(BaseType::Char)),
            "complex" => Ok(Some(BaseType::Complex)),
            s if s.starts_with('\'') => Ok(None),
            s => Err(format!("unknown base type {s}")),
        }
    };
    let num = |s: &str| -> Res<i64> {
        s.trim()
            .replace('~', "-")
            .parse()
            .map_err(|_| format!("bad number {s} in type"))
    };
    if let Some(rest) = t.strip_prefix('[') {
        let (b, r) = rest.split_once(']').ok_or("missing ]")?;
        return Ok(Ty::Arr(base(b)?, num(r)?));
    }
    if let Some(rest) = t.strip_prefix('<') {
        let (b, n) = rest.split_once('>').ok_or("missing >")?;
        return Ok(Ty::Vec(base(b)?, num(n)?));
    }
    for (prefix, sv) in [("SV(", true), ("S(", false)] {
        if let Some(rest) = t.strip_prefix(prefix) {
            let inner = rest.strip_suffix(')').ok_or("missing )")?;
            let (b, n) = inner.split_once(',').ok_or("missing ,")?;
            let (b, n) = (base(b)?, num(n)?);
            return Ok(if sv { Ty::SV(b, n) } else { Ty::S(b, n) });
        }
    }
    if t.starts_with('(') {
        // Split at top-level `*` (tuple) or a top-level `->` (function).
        let (mut depth, mut parts, mut start) = (0i32, Vec::new(), 0usize);
        let bytes = t.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'(' | b'[' | b'<' => depth += 1,
                b')' | b']' => depth -= 1,
                b'>' if i > 0 && bytes[i - 1] == b'-' => {}
                b'>' => depth -= 1,
                b'-' if depth == 0 && bytes.get(i + 1) == Some(&b'>') => {
                    let a = parse_type(&t[..i])?;
                    let b = parse_type(&t[i + 2..])?;
                    return Ok(Ty::Fun(Box::new(a), Box::new(b)));
                }
                b'*' if depth == 1 => {
                    parts.push(&t[start + 1..i]);
                    start = i;
                }
                _ => {}
            }
            i += 1;
        }
        let inner = t.strip_suffix(')').ok_or("missing )")?;
        parts.push(&inner[start + 1..]);
        if parts.len() == 1 {
            return parse_type(parts[0]);
        }
        return Ok(Ty::Tuple(
            parts.into_iter().map(parse_type).collect::<Res<_>>()?,
        ));
    }
    Err(format!("cannot read type {t}"))
}

/// A typing environment Γ (with Σ as `l_k` bindings), innermost last.
pub type Gamma = Vec<(String, Ty)>;

/// The type of a closed program or configuration.
pub fn type_of_program(e: &Surface) -> Res<Ty> {
    type_of(e, &mut Vec::new())
}

fn lit_type(x: Scalar) -> Ty {
    match x {
        Scalar::Int(n) => Ty::S(Some(BaseType::Int), n as i64),
        Scalar::Bool(b) => Ty::S(Some(BaseType::Bool), b as i64),
        other => Ty::Arr(Some(other.base_type()), 0),
    }
}

/// A scalar operator used as a function value: its curried signature (spec §2.4).
fn op_value_type(name: &str) -> Res<Ty> {
    let p = Prim::from_name(name).ok_or_else(|| format!("unknown operator {name}"))?;
    let (args, res) =
        scalar_signature(p).ok_or_else(|| format!("{name} is not a scalar operator"))?;
    let mut t = Ty::Arr(Some(res), 0);
    for a in args.into_iter().rev() {
        t = Ty::Fun(Box::new(Ty::Arr(Some(a), 0)), Box::new(t));
    }
    Ok(t)
}

/// `Γ ⊢ e : τ`.
pub fn type_of(e: &Surface, g: &mut Gamma) -> Res<Ty> {
    match e {
        Surface::Lit(x, _) => Ok(lit_type(*x)),
        Surface::Var(x, _) => match g.iter().rev().find(|(n, _)| n == x) {
            Some((_, t)) => Ok(t.clone()),
            None => op_value_type(x),
        },
        Surface::OpRef(x, _) => op_value_type(x),
        Surface::Let(b, rhs, body, _) => {
            let t1 = type_of(rhs, g)?;
            let ann = match &b.ann {
                Some(a) => parse_type(a)?,
                None => t1.clone(),
            };
            if !subtype(&t1, &ann) {
                return Err(format!("let {}: {t1} is not a subtype of {ann}", b.name));
            }
            g.push((b.name.clone(), ann));
            let r = type_of(body, g);
            g.pop();
            r
        }
        Surface::Lam(b, body, _) => {
            let ann = parse_type(b.ann.as_deref().ok_or("unannotated lambda")?)?;
            g.push((b.name.clone(), ann.clone()));
            let r = type_of(body, g);
            g.pop();
            Ok(Ty::Fun(Box::new(ann), Box::new(r?)))
        }
        Surface::Vector(es, _) => {
            let ts = es.iter().map(|e| type_of(e, g)).collect::<Res<Vec<_>>>()?;
            vector_type(&ts)
        }
        Surface::Tuple(es, _) => Ok(Ty::Tuple(
            es.iter().map(|e| type_of(e, g)).collect::<Res<_>>()?,
        )),
        Surface::Prj(i, e, _) => match type_of(e, g)? {
            Ty::Tuple(ts) if *i < ts.len() => Ok(ts[*i].clone()),
            t => Err(format!("Prj({i}) of {t}")),
        },
        Surface::If(c, a, b, _) => {
            want(scl(&type_of(c, g)?)?, BaseType::Bool, "if")?;
            join(&type_of(a, g)?, &type_of(b, g)?)
        }
        Surface::Op(name, args, _) => {
            let p = Prim::from_name(name).ok_or_else(|| format!("unknown operator {name}"))?;
            if args.len() != p.arity() {
                return Err(format!("{name} takes {} arguments", p.arity()));
            }
            let ts = args
                .iter()
                .map(|a| type_of(a, g))
                .collect::<Res<Vec<_>>>()?;
            op_type(p, name, &ts).map_err(|m| format!("{name}: {m}"))
        }
    }
}

/// Vector literals (spec §3.5): int and bool literals get `<κ>n` or `SV`, others `[κ]1`.
fn vector_type(ts: &[Ty]) -> Res<Ty> {
    for k in [BaseType::Int, BaseType::Bool] {
        if ts
            .iter()
            .any(|t| matches!(t, Ty::S(Some(b), _) | Ty::Arr(Some(b), 0) if *b == k))
        {
            if !ts.iter().all(|t| subtype(t, &Ty::Arr(Some(k), 0))) {
                return Err("vector literal mixes base types".into());
            }
            return Ok(match ts {
                [Ty::S(_, v)] => Ty::SV(Some(k), *v),
                _ => Ty::Vec(Some(k), ts.len() as i64),
            });
        }
    }
    let first = ts.first().ok_or("empty vector literal")?;
    let b = scl(first)?;
    if ts.iter().any(|t| t != first) {
        return Err("vector literal elements differ in type".into());
    }
    Ok(Ty::Arr(b, 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tail::step::reader::read;

    fn ty(src: &str) -> Res<String> {
        type_of_program(&read(src).map_err(|d| d.message)?).map(|t| t.to_string())
    }

    #[test]
    fn annotations_parse() {
        for t in [
            "[int]0",
            "<double>3",
            "S(int,-5)",
            "SV(bool,1)",
            "([int]1 * [double]0)",
            "([int]0)->[int]0",
        ] {
            assert_eq!(parse_type(t).unwrap().to_string(), t);
        }
        assert_eq!(
            parse_type("S(int,~1)").unwrap(),
            Ty::S(Some(BaseType::Int), -1)
        );
        assert!(parse_type("[float]1").is_err());
    }

    #[test]
    fn subtyping_lattice() {
        let p = |s| parse_type(s).unwrap();
        assert!(subtype(&p("S(int,3)"), &p("[int]0")));
        assert!(subtype(&p("SV(int,3)"), &p("<int>1")));
        assert!(subtype(&p("<int>4"), &p("[int]1")));
        assert!(!subtype(&p("[int]0"), &p("S(int,3)")));
        assert!(!subtype(&p("<int>2"), &p("<int>3")));
        assert_eq!(join(&p("S(int,1)"), &p("S(int,2)")).unwrap(), p("[int]0"));
        assert_eq!(join(&p("<int>1"), &p("<int>2")).unwrap(), p("[int]1"));
    }

    #[test]
    fn expressions_type_like_apltail() {
        assert_eq!(ty("[1,2,3]").unwrap(), "<int>3");
        assert_eq!(ty("[5]").unwrap(), "SV(int,5)");
        assert_eq!(ty("[1.0,2.0]").unwrap(), "[double]1");
        assert_eq!(ty("iota(4)").unwrap(), "<int>4");
        assert_eq!(
            ty("reduce(addi,0,reshape([2,3],iota(6)))").unwrap(),
            "[int]1"
        );
        assert_eq!(ty("each(i2d,zilde())").unwrap(), "<double>0");
        assert_eq!(ty("let v:[int]1 = [1,2] in shape(v)").unwrap(), "<int>1");
        assert_eq!(ty("negi(5)").unwrap(), "S(int,-5)");
        assert_eq!(
            ty("power(fn v:([int]1 * [int]0) => (rotate(1,Prj(0,v)),addi(Prj(1,v),1)),2,([1,2,3],0))").unwrap(),
            "([int]1 * [int]0)"
        );
    }

    #[test]
    fn ill_typed_terms_are_rejected() {
        for bad in [
            "addi(1,2.0)",
            "let v:<int>2 = [1,2,3] in v",
            "let v:S(int,6) = 5 in v",
            "[1,2.0]",
            "each(fn x:[double]0 => x,[1,2])",
            "zipWith(addi,[1],reshape([1,1],[1]))",
            "reshape(iota(addi(1,1)),[1])",
            "transp2([1],reshape([2,2],[1]))",
            "idxassign([1,1],[1,2],3)",
        ] {
            assert!(ty(bad).is_err(), "{bad} typed as {:?}", ty(bad));
        }
    }
}
