//! The FCL the lowering builds: `semantics::fcl::syntax` trees, written with the `fcl!` and
//! `fcl_stmt!` quasi-quotes (crate `fcl-quote`: a template is parsed when the compiler is
//! built, and a hole takes a tree, a [`Name`] or a number — never text). The lowering hands
//! the trees to the FCL front end as they are; nothing it builds is printed and parsed again.

pub(super) use fcl_quote::{fcl, fcl_stmt};
pub(super) use semantics::fcl::quote::{bin, call, Name};
pub(super) use semantics::fcl::syntax::Stmt;
use semantics::fcl::syntax::{BinOp, ExprKind};

/// An FCL expression.
pub(super) type Fcl = semantics::fcl::syntax::Expr;

/// The tree the FCL parser reads from `src` (tests compare the lowering's trees with it).
#[cfg(test)]
pub(super) fn parsed(src: &str) -> Fcl {
    let mut e = semantics::fcl::parser::parse_expr(src).expect("test FCL parses");
    e.erase_spans();
    e
}

/// The int literal `k` (negative literals are `0 - k`, as the lowering has always written
/// them, so that no `-` is glued to the term before it when the tree is printed).
pub(super) fn int(k: i64) -> Fcl {
    match k.checked_neg() {
        Some(pos) if k < 0 => fcl!("(0 - {pos})"),
        None => fcl!("(0 - 9223372036854775807 - 1)"),
        _ => semantics::fcl::quote::int(k),
    }
}

/// The variable `name`.
pub(super) fn var(name: &str) -> Fcl {
    semantics::fcl::quote::var(name, Vec::new())
}

/// `let x = rhs in body`.
pub(super) fn let_in(x: &Name, rhs: Fcl, body: Fcl) -> Fcl {
    semantics::fcl::quote::let_in(x.as_str(), Vec::new(), None, rhs, body)
}

/// A name or a literal: safe to repeat in a tree (it costs nothing to evaluate twice).
pub(super) fn is_atomic(e: &Fcl) -> bool {
    match &e.kind {
        ExprKind::Var(_, ls) => ls.is_empty(),
        ExprKind::Int(_) | ExprKind::Double(_) | ExprKind::Bool(_) | ExprKind::Unit => true,
        _ => false,
    }
}

/// The value of an int literal (`k`, or `0 - k` for a negative one).
pub(super) fn int_literal(e: &Fcl) -> Option<i64> {
    match &e.kind {
        ExprKind::Int(k) => Some(*k),
        ExprKind::BinOp(BinOp::Sub, a, b) => match (&a.kind, &b.kind) {
            (ExprKind::Int(0), ExprKind::Int(k)) => Some(-*k),
            _ => None,
        },
        _ => None,
    }
}

/// `k · x` (FCL ints), folded where `x` is a literal, and `x` itself for k = 1.
pub(super) fn times(k: usize, x: &Fcl) -> Fcl {
    if k == 1 {
        return x.clone();
    }
    match int_literal(x) {
        Some(x) => int(k as i64 * x),
        None => fcl!("({k} * {x})"),
    }
}

/// How a comment names `n` elements (an FCL int): the number, or a run-time number.
pub(super) fn described(n: &Fcl) -> String {
    match int_literal(n) {
        Some(k) => format!("{k} elements"),
        None => "a run-time number of elements".to_string(),
    }
}

/// The index an int literal stands for, where it is one and not negative.
pub(super) fn literal_index(e: &Fcl) -> Option<usize> {
    match &e.kind {
        ExprKind::Int(k) => usize::try_from(*k).ok(),
        _ => None,
    }
}

/// The name of a variable.
pub(super) fn var_name(e: &Fcl) -> Option<&str> {
    match &e.kind {
        ExprKind::Var(x, ls) if ls.is_empty() => Some(x),
        _ => None,
    }
}

/// What a tree costs to repeat, roughly: the length in bytes of its source text (a load is
/// a dozen). The lowering's budgets (module `program`'s materialization, `reduce`'s choice of
/// strategy) are in these units.
pub(super) fn size(e: &Fcl) -> usize {
    let mut total = 0;
    let mut stack = vec![e];
    while let Some(e) = stack.pop() {
        total += match &e.kind {
            ExprKind::Int(k) => k.to_string().len(),
            ExprKind::Double(_) => 4,
            ExprKind::Bool(_) => 5,
            ExprKind::Str(s) => s.len() + 2,
            ExprKind::Unit => 2,
            ExprKind::Var(x, ls) => x.len() + 8 * ls.len(),
            ExprKind::Pair(..) => 4,
            ExprKind::Fn(ps, _) => 7 + ps.iter().map(|p| p.len() + 1).sum::<usize>(),
            ExprKind::App(..) => 2,
            ExprKind::BinOp(..) => 4,
            ExprKind::If(..) => 16,
            ExprKind::Let { name, .. } => 12 + name.len(),
            ExprKind::Do(_, ss) => 12 + 8 * ss.len(),
        };
        e.for_each_child(|c| stack.push(c));
    }
    total
}

/// How deeply a tree nests (a leaf is 0): the bracket depth of the OpenCL C it compiles to
/// grows with it, and clang limits that.
pub(super) fn depth(e: &Fcl) -> usize {
    let mut deepest = 0;
    let mut stack: Vec<(&Fcl, usize)> = vec![(e, 0)];
    while let Some((e, d)) = stack.pop() {
        deepest = deepest.max(d);
        e.for_each_child(|c| stack.push((c, d + 1)));
    }
    deepest
}
