//! The typed abstract syntax of TAIL programs (thesis §3.1, spec §2.1): one [`Expr`] per source
//! expression, each with its [`Span`]. Equality ignores spans, so `parse(print(e)) == e` states
//! the printer/parser round trip directly.

use crate::tail::ops::prim::Prim;
use crate::tail::types::Type;
use crate::tail::value::Scalar;
use crate::Span;

/// An operator as written: its meaning and whether it was spelled with the `V` suffix
/// (`takeV`, `iotaV`, ...), which selects the stricter typing rules of spec §3.7.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Op {
    pub prim: Prim,
    pub v: bool,
}

impl Op {
    /// The operator of a TAIL name, base or V spelling.
    pub fn from_name(name: &str) -> Option<Op> {
        let prim = Prim::from_name(name)?;
        Some(Op {
            prim,
            v: name != prim.name(),
        })
    }

    /// The base spelling of an operator.
    pub fn base(prim: Prim) -> Op {
        Op { prim, v: false }
    }

    /// The name as written.
    pub fn name(self) -> String {
        if self.v {
            format!("{}V", self.prim.name())
        } else {
            self.prim.name().to_string()
        }
    }

    /// Number of arguments.
    pub fn arity(self) -> usize {
        self.prim.arity()
    }
}

/// A TAIL expression with its source span.
#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

/// The expression forms of spec §2.1.
#[derive(Clone, Debug)]
pub enum ExprKind {
    /// A variable `x` (apltail writes `vN` or `mvN`).
    Var(String),
    /// A literal: int, double, complex, char, `tt`/`ff`.
    Lit(Scalar),
    /// `let x:τ = e1 in e2`.
    Let {
        var: String,
        ty: Type,
        bound: Box<Expr>,
        body: Box<Expr>,
    },
    /// `fn x:τ => e`.
    Fn {
        param: String,
        ty: Type,
        body: Box<Expr>,
    },
    /// `if c then a else b`.
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `Prj(i,e)`, 0-based.
    Prj(usize, Box<Expr>),
    /// `op(e1,…,en)` with exactly the operator's arity.
    App { op: Op, args: Vec<Expr> },
    /// A bare operator name used as a function value (eta-reduced lambda, spec §2.4).
    OpValue(Op),
    /// `[e1,…,en]`, n ≥ 1.
    Vector(Vec<Expr>),
    /// `(e1,…,en)`, n ≥ 2.
    Tuple(Vec<Expr>),
}

/// One `let x:τ = e in …` of a program's top-level spine ([`Expr::let_spine`]).
pub struct SpineLet<'a> {
    pub var: &'a str,
    pub ty: &'a Type,
    pub bound: &'a Expr,
    /// The span of the whole `let` expression.
    pub span: Span,
}

impl Expr {
    /// The top-level `let` spine, outermost first, and the body it ends in. Walked iteratively:
    /// programs are long chains of `let`s, too deep for recursion.
    pub fn let_spine(&self) -> (Vec<SpineLet<'_>>, &Expr) {
        let mut lets = Vec::new();
        let mut cur = self;
        while let ExprKind::Let {
            var,
            ty,
            bound,
            body,
        } = &cur.kind
        {
            lets.push(SpineLet {
                var,
                ty,
                bound,
                span: cur.span,
            });
            cur = body;
        }
        (lets, cur)
    }

    /// An expression at `span`.
    pub fn new(kind: ExprKind, span: Span) -> Expr {
        Expr { kind, span }
    }

    /// The direct subexpressions, left to right.
    pub fn children(&self) -> Vec<&Expr> {
        match &self.kind {
            ExprKind::Var(_) | ExprKind::Lit(_) | ExprKind::OpValue(_) => Vec::new(),
            ExprKind::Let { bound, body, .. } => vec![bound, body],
            ExprKind::Fn { body, .. } | ExprKind::Prj(_, body) => vec![body],
            ExprKind::If(c, a, b) => vec![c, a, b],
            ExprKind::App { args: es, .. } | ExprKind::Vector(es) | ExprKind::Tuple(es) => {
                es.iter().collect()
            }
        }
    }

    /// Moves the direct subexpressions out (used by the iterative drop).
    fn take_children(&mut self, out: &mut Vec<Expr>) {
        let dummy = || Box::new(Expr::new(ExprKind::Lit(Scalar::Bool(false)), Span::DUMMY));
        match &mut self.kind {
            ExprKind::Var(_) | ExprKind::Lit(_) | ExprKind::OpValue(_) => {}
            ExprKind::Let { bound, body, .. } => {
                out.push(*std::mem::replace(bound, dummy()));
                out.push(*std::mem::replace(body, dummy()));
            }
            ExprKind::Fn { body, .. } | ExprKind::Prj(_, body) => {
                out.push(*std::mem::replace(body, dummy()))
            }
            ExprKind::If(c, a, b) => {
                for e in [c, a, b] {
                    out.push(*std::mem::replace(e, dummy()));
                }
            }
            ExprKind::App { args: es, .. } | ExprKind::Vector(es) | ExprKind::Tuple(es) => {
                out.append(es)
            }
        }
    }

    fn is_leaf(&self) -> bool {
        match &self.kind {
            ExprKind::Var(_) | ExprKind::Lit(_) | ExprKind::OpValue(_) => true,
            ExprKind::App { args: es, .. } | ExprKind::Vector(es) | ExprKind::Tuple(es) => {
                es.is_empty()
            }
            _ => false,
        }
    }
}

impl Drop for Expr {
    // Long `let` chains (a 10,000-line program is 10,000 nested bodies) would overflow the stack
    // with the derived recursive drop, so children are dropped from an explicit work list.
    fn drop(&mut self) {
        if self.is_leaf() {
            return;
        }
        let mut work = Vec::new();
        self.take_children(&mut work);
        while let Some(mut e) = work.pop() {
            e.take_children(&mut work);
        }
    }
}

/// Literal equality that tells `-0.0` from `0.0` and treats equal NaN bit patterns alike.
fn same_scalar(a: &Scalar, b: &Scalar) -> bool {
    match (a, b) {
        (Scalar::Double(x), Scalar::Double(y)) => x.to_bits() == y.to_bits(),
        (Scalar::Complex(x), Scalar::Complex(y)) => {
            x.0.to_bits() == y.0.to_bits() && x.1.to_bits() == y.1.to_bits()
        }
        _ => a == b,
    }
}

impl PartialEq for Expr {
    /// Structural equality ignoring spans (iterative, so deep terms are fine).
    fn eq(&self, other: &Expr) -> bool {
        let mut work = vec![(self, other)];
        while let Some((a, b)) = work.pop() {
            let same_node = match (&a.kind, &b.kind) {
                (ExprKind::Var(x), ExprKind::Var(y)) => x == y,
                (ExprKind::Lit(x), ExprKind::Lit(y)) => same_scalar(x, y),
                (ExprKind::Let { var: x, ty: t, .. }, ExprKind::Let { var: y, ty: u, .. }) => {
                    x == y && t == u
                }
                (
                    ExprKind::Fn {
                        param: x, ty: t, ..
                    },
                    ExprKind::Fn {
                        param: y, ty: u, ..
                    },
                ) => x == y && t == u,
                (ExprKind::If(..), ExprKind::If(..)) => true,
                (ExprKind::Prj(i, _), ExprKind::Prj(j, _)) => i == j,
                (ExprKind::App { op: p, args: x }, ExprKind::App { op: q, args: y }) => {
                    p == q && x.len() == y.len()
                }
                (ExprKind::OpValue(p), ExprKind::OpValue(q)) => p == q,
                (ExprKind::Vector(x), ExprKind::Vector(y))
                | (ExprKind::Tuple(x), ExprKind::Tuple(y)) => x.len() == y.len(),
                _ => false,
            };
            if !same_node {
                return false;
            }
            work.extend(a.children().into_iter().zip(b.children()));
        }
        true
    }
}
