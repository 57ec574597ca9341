//! Smaller variants of one TAIL expression, for [`super::tail`]: an operator application, `if`,
//! projection or lambda replaced by a part of it, a vector literal with fewer elements (which
//! shrinks shapes: `iota`'s and `reshape`'s arguments are literals too), literals toward 0/1, a
//! variable replaced by an earlier one of the same type. Each variant changes one place and is
//! no larger than the original; whether it type checks is decided by the caller.

use semantics::tail::syntax::{Expr, ExprKind, Op};
use semantics::tail::types::{Base, Type};
use semantics::tail::value::{BaseType, Scalar};
use semantics::Span;

/// The top-level variables in scope, oldest first, with their annotated types.
pub type Scope = Vec<(String, Type)>;

/// Variants are made down to this depth only (generated expressions are shallow; the bound
/// keeps the recursion small on any input).
const MAX_DEPTH: usize = 64;

/// The number of nodes of `e` (iterative).
pub fn node_count(e: &Expr) -> usize {
    let mut n = 0;
    let mut work = vec![e];
    while let Some(x) = work.pop() {
        n += 1;
        work.extend(x.children());
    }
    n
}

/// Whether `e` reads the variable `name` anywhere (shadowing ignored: conservative).
pub fn mentions(e: &Expr, name: &str) -> bool {
    let mut work = vec![e];
    while let Some(x) = work.pop() {
        if matches!(&x.kind, ExprKind::Var(v) if v == name) {
            return true;
        }
        work.extend(x.children());
    }
    false
}

fn node(kind: ExprKind) -> Expr {
    Expr::new(kind, Span::DUMMY)
}

fn lit(x: Scalar) -> Expr {
    node(ExprKind::Lit(x))
}

/// The zero of a base type, as a literal.
fn zero(b: BaseType) -> Option<Scalar> {
    match b {
        BaseType::Int => Some(Scalar::Int(0)),
        BaseType::Double => Some(Scalar::Double(0.0)),
        BaseType::Bool => Some(Scalar::Bool(false)),
        // the generator writes char and complex bindings too
        BaseType::Char => Some(Scalar::Char(b'a')),
        BaseType::Complex => Some(Scalar::Complex((0.0, 0.0))),
    }
}

/// The smallest constant of an annotated type: `0` for `[int]0`, `[0]` for `[int]1`,
/// `reshape([1,1],[0])` for `[int]2` (likewise for doubles, bools, chars (`'a'`) and complex
/// numbers (`0.0j0.0`)), a tuple of constants.
pub fn constant_of(ty: &Type) -> Option<Expr> {
    match ty {
        Type::Arr(Base::Known(b), r) => {
            let z = zero(*b)?;
            match r.as_const()? {
                0 => Some(lit(z)),
                1 => Some(node(ExprKind::Vector(vec![lit(z)]))),
                r @ 2..=8 => {
                    let ones = (0..r).map(|_| lit(Scalar::Int(1))).collect();
                    let reshape = Op::from_name("reshape")?;
                    Some(node(ExprKind::App {
                        op: reshape,
                        args: vec![
                            node(ExprKind::Vector(ones)),
                            node(ExprKind::Vector(vec![lit(z)])),
                        ],
                    }))
                }
                _ => None,
            }
        }
        Type::Tuple(ts) => {
            let parts: Option<Vec<Expr>> = ts.iter().map(constant_of).collect();
            Some(node(ExprKind::Tuple(parts?)))
        }
        _ => None,
    }
}

/// Literals toward 0 and 1: ints to 0, 1, half and one step toward 0; doubles to 0.0, 1.0 and their integer part;
/// `tt` to `ff`; complex numbers to 0.0j0.0 and their real part.
pub fn literal_candidates(x: &Scalar) -> Vec<Scalar> {
    match *x {
        Scalar::Int(0) => Vec::new(),
        Scalar::Int(1) => vec![Scalar::Int(0)],
        Scalar::Int(n) => {
            let mut out = vec![Scalar::Int(0), Scalar::Int(1)];
            // halfway, then one step toward zero (a shape that fails at 3 but not at 1)
            for m in [n / 2, n - n.signum()] {
                if !out.contains(&Scalar::Int(m)) {
                    out.push(Scalar::Int(m));
                }
            }
            out
        }
        Scalar::Double(d) => {
            let mut out = Vec::new();
            for c in [0.0, 1.0, d.trunc()] {
                let smaller = c.abs() < d.abs() || (c == 0.0 && d != 0.0) || d.is_nan();
                if c.is_finite() && smaller && !out.contains(&Scalar::Double(c)) {
                    out.push(Scalar::Double(c));
                }
            }
            out
        }
        Scalar::Bool(true) => vec![Scalar::Bool(false)],
        // toward 0.0j0.0, then the real part alone
        Scalar::Complex((re, im)) if im != 0.0 => {
            let mut out = vec![Scalar::Complex((0.0, 0.0))];
            if re != 0.0 {
                out.push(Scalar::Complex((re, 0.0)));
            }
            out
        }
        Scalar::Complex((re, _)) if re != 0.0 => vec![Scalar::Complex((0.0, 0.0))],
        _ => Vec::new(),
    }
}

/// The one-step variants of `e` under `scope` (the top-level bindings before it).
pub fn expr_candidates(e: &Expr, scope: &Scope) -> Vec<Expr> {
    let mut out = Vec::new();
    variants(e, scope, 0, &mut out);
    out
}

/// Pushes `e` with child `i` replaced by each of `subs`.
fn with_child(e: &Expr, i: usize, subs: Vec<Expr>, out: &mut Vec<Expr>) {
    for s in subs {
        let mut c = e.clone();
        if let Some(slot) = child_mut(&mut c, i) {
            *slot = s;
            out.push(c);
        }
    }
}

/// The `i`-th direct subexpression, in [`Expr::children`]'s order.
fn child_mut(e: &mut Expr, i: usize) -> Option<&mut Expr> {
    match &mut e.kind {
        ExprKind::Var(_) | ExprKind::Lit(_) | ExprKind::OpValue(_) => None,
        ExprKind::Let { bound, body, .. } => match i {
            0 => Some(bound),
            1 => Some(body),
            _ => None,
        },
        ExprKind::Fn { body, .. } | ExprKind::Prj(_, body) => (i == 0).then_some(&mut **body),
        ExprKind::If(c, a, b) => [c, a, b].into_iter().nth(i).map(|x| &mut **x),
        ExprKind::App { args: es, .. } | ExprKind::Vector(es) | ExprKind::Tuple(es) => {
            es.get_mut(i)
        }
    }
}

fn is_function(e: &Expr) -> bool {
    matches!(e.kind, ExprKind::Fn { .. } | ExprKind::OpValue(_))
}

fn variants(e: &Expr, scope: &Scope, depth: usize, out: &mut Vec<Expr>) {
    if depth > MAX_DEPTH {
        return;
    }
    match &e.kind {
        ExprKind::Lit(x) => out.extend(literal_candidates(x).into_iter().map(lit)),
        ExprKind::Var(x) => {
            // an earlier top-level variable of the same type
            if let Some(k) = scope.iter().position(|(v, _)| v == x) {
                let ty = &scope[k].1;
                for (v, t) in &scope[..k] {
                    if t == ty {
                        out.push(node(ExprKind::Var(v.clone())));
                    }
                }
            }
        }
        ExprKind::OpValue(_) => {}
        ExprKind::App { args, .. } => {
            // the application replaced by one of its (array) arguments
            out.extend(args.iter().filter(|a| !is_function(a)).cloned());
        }
        ExprKind::Vector(es) if es.len() > 1 => {
            out.push(node(ExprKind::Vector(vec![es[0].clone()])));
            if es.len() / 2 > 1 {
                out.push(node(ExprKind::Vector(es[..es.len() / 2].to_vec())));
            }
            for i in 0..es.len() {
                let mut fewer = es.clone();
                fewer.remove(i);
                out.push(node(ExprKind::Vector(fewer)));
            }
        }
        ExprKind::Vector(_) | ExprKind::Tuple(_) => {}
        ExprKind::Fn { param, body, .. } => {
            if !matches!(&body.kind, ExprKind::Var(v) if v == param) {
                let mut identity = e.clone();
                if let Some(slot) = child_mut(&mut identity, 0) {
                    *slot = node(ExprKind::Var(param.clone()));
                    out.push(identity);
                }
            }
        }
        ExprKind::If(c, a, b) => {
            out.extend([(**a).clone(), (**b).clone()]);
            if !matches!(c.kind, ExprKind::Lit(_)) {
                for t in [true, false] {
                    with_child(e, 0, vec![lit(Scalar::Bool(t))], out);
                }
            }
        }
        ExprKind::Prj(i, x) => {
            if let ExprKind::Tuple(es) = &x.kind {
                out.extend(es.get(*i).cloned());
            }
        }
        ExprKind::Let { var, body, .. } => {
            if !mentions(body, var) {
                out.push((**body).clone());
            }
        }
    }
    // then each child shrunk in place
    for (i, child) in e.children().into_iter().enumerate() {
        let mut subs = Vec::new();
        variants(child, scope, depth + 1, &mut subs);
        with_child(e, i, subs, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use semantics::tail::parser::parse;
    use semantics::tail::printer::print;

    fn texts(src: &str) -> Vec<String> {
        let e = parse(src).expect("parses");
        expr_candidates(&e, &Vec::new())
            .iter()
            .map(|c| print(c).trim().to_string())
            .collect()
    }

    #[test]
    fn literals_move_toward_zero_and_one() {
        assert_eq!(literal_candidates(&Scalar::Int(1)), vec![Scalar::Int(0)]);
        assert_eq!(
            literal_candidates(&Scalar::Int(-9)),
            vec![
                Scalar::Int(0),
                Scalar::Int(1),
                Scalar::Int(-4),
                Scalar::Int(-8)
            ]
        );
        assert_eq!(
            literal_candidates(&Scalar::Double(2.5)),
            vec![
                Scalar::Double(0.0),
                Scalar::Double(1.0),
                Scalar::Double(2.0)
            ]
        );
        assert!(literal_candidates(&Scalar::Double(0.0)).is_empty());
        assert!(literal_candidates(&Scalar::Bool(false)).is_empty());
        assert_eq!(
            literal_candidates(&Scalar::Complex((1.5, -2.0))),
            vec![Scalar::Complex((0.0, 0.0)), Scalar::Complex((1.5, 0.0))]
        );
        assert!(literal_candidates(&Scalar::Complex((0.0, 0.0))).is_empty());
    }

    #[test]
    fn applications_shrink_to_arguments_and_shorter_vectors() {
        let cs = texts("take(2,[1,2,3])");
        for want in [
            "2",
            "[1,2,3]",
            "take(2,[1])",
            "take(2,[2,3])",
            "take(1,[1,2,3])",
        ] {
            assert!(cs.iter().any(|c| c == want), "{want} not in {cs:?}");
        }
        // function arguments are never the replacement
        assert!(!texts("each(notb,[tt,ff])").iter().any(|c| c == "notb"));
    }

    #[test]
    fn constants_of_annotated_types() {
        let t = |s: &str| semantics::tail::parser::parse_type(s).expect("type");
        let c = |s: &str| constant_of(&t(s)).map(|e| print(&e).trim().to_string());
        assert_eq!(c("[int]0").as_deref(), Some("0"));
        assert_eq!(c("[double]1").as_deref(), Some("[0.0]"));
        assert_eq!(c("[bool]2").as_deref(), Some("reshape([1,1],[ff])"));
        assert_eq!(c("[char]1").as_deref(), Some("['a']"));
        assert_eq!(c("[complex]0").as_deref(), Some("0.0j0.0"));
    }
}
