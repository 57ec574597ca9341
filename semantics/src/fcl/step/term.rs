//! The oracle's internal form of core terms: variables resolved to de Bruijn indices and children
//! shared (`Rc`), so that substitution `e[v/x]` (5.50) is an environment extension and stepping never
//! copies a term. The environment is a persistent list.

use crate::fcl::core::{Builtin, Expr, ExprKind, Name, Type};
use crate::fcl::value::Value;
use crate::{Diagnostic, Span};
use std::fmt;
use std::rc::Rc;

/// A term with its span.
#[derive(Debug)]
pub struct Term {
    pub kind: TermKind,
    pub span: Span,
}

/// Terms; see [`crate::fcl::core::ExprKind`].
#[derive(Debug)]
pub enum TermKind {
    /// A variable: its de Bruijn index and its name (for printing).
    Var(u32, Name),
    Lit(Value),
    Lam {
        name: Name,
        param_ty: Rc<Type>,
        by_name: bool,
        body: Rc<Term>,
    },
    App(Rc<Term>, Rc<Term>),
    Let {
        name: Name,
        by_name: bool,
        bound: Rc<Term>,
        body: Rc<Term>,
    },
    If(Rc<Term>, Rc<Term>, Rc<Term>),
    Pair(Rc<Term>, Rc<Term>),
    Fst(Rc<Term>),
    Snd(Rc<Term>),
    Call(Builtin, Rc<[Rc<Term>]>),
}

/// An environment: the values of the enclosing binders, innermost first.
pub type Env = Option<Rc<EnvNode>>;

/// One binding of an environment.
#[derive(Debug)]
pub struct EnvNode {
    pub value: Value,
    pub next: Env,
}

/// `env` extended with `v`.
pub fn bind(env: &Env, value: Value) -> Env {
    Some(Rc::new(EnvNode {
        value,
        next: env.clone(),
    }))
}

/// The value at de Bruijn index `i`.
pub fn lookup(env: &Env, i: u32) -> Option<&Value> {
    let mut node = env.as_deref()?;
    for _ in 0..i {
        node = node.next.as_deref()?;
    }
    Some(&node.value)
}

/// The deepest term nesting [`resolve`] accepts; deeper input is a diagnostic, not a stack overflow.
pub const MAX_DEPTH: usize = 20_000;

/// Resolves a closed core expression into a term. Free variables, unsaturated calls and nesting
/// deeper than [`MAX_DEPTH`] are diagnostics.
pub fn resolve(e: &Expr) -> Result<Rc<Term>, Diagnostic> {
    let mut scope = Vec::new();
    go(e, &mut scope, 0)
}

fn go(e: &Expr, scope: &mut Vec<Name>, depth: usize) -> Result<Rc<Term>, Diagnostic> {
    if depth > MAX_DEPTH {
        return Err(Diagnostic::type_error(
            e.span,
            format!("term nested deeper than {MAX_DEPTH} levels"),
        ));
    }
    let d = depth + 1;
    let kind = match &e.kind {
        ExprKind::Var(x) => match scope.iter().rev().position(|y| y == x) {
            Some(i) => TermKind::Var(i as u32, x.clone()),
            None => {
                return Err(Diagnostic::type_error(
                    e.span,
                    format!("unbound variable `{x}` in core term"),
                ))
            }
        },
        ExprKind::Int(i) => TermKind::Lit(Value::Int(*i)),
        ExprKind::Double(x) => TermKind::Lit(Value::Double(*x)),
        ExprKind::Bool(b) => TermKind::Lit(Value::Bool(*b)),
        ExprKind::Str(s) => TermKind::Lit(Value::Str(Rc::new(s.to_string()))),
        ExprKind::Unit => TermKind::Lit(Value::Unit),
        ExprKind::Lam {
            param,
            param_ty,
            body,
        } => {
            scope.push(param.clone());
            let body = go(body, scope, d);
            scope.pop();
            TermKind::Lam {
                name: param.clone(),
                by_name: param_ty.is_program(),
                param_ty: Rc::new(param_ty.clone()),
                body: body?,
            }
        }
        ExprKind::App(f, a) => TermKind::App(go(f, scope, d)?, go(a, scope, d)?),
        ExprKind::Let {
            name,
            ty,
            bound,
            body,
        } => {
            let bound = go(bound, scope, d)?;
            scope.push(name.clone());
            let body = go(body, scope, d);
            scope.pop();
            TermKind::Let {
                name: name.clone(),
                by_name: ty.is_program(),
                bound,
                body: body?,
            }
        }
        ExprKind::If(c, t, f) => TermKind::If(go(c, scope, d)?, go(t, scope, d)?, go(f, scope, d)?),
        ExprKind::Pair(a, b) => TermKind::Pair(go(a, scope, d)?, go(b, scope, d)?),
        ExprKind::Fst(a) => TermKind::Fst(go(a, scope, d)?),
        ExprKind::Snd(a) => TermKind::Snd(go(a, scope, d)?),
        ExprKind::Call(b, args) => {
            if args.len() != b.arity() {
                return Err(Diagnostic::type_error(
                    e.span,
                    format!(
                        "`{}` takes {} arguments in the core, got {}",
                        b.name(),
                        b.arity(),
                        args.len()
                    ),
                ));
            }
            let args = args
                .iter()
                .map(|a| go(a, scope, d))
                .collect::<Result<Vec<_>, _>>()?;
            TermKind::Call(*b, args.into())
        }
    };
    Ok(Rc::new(Term { kind, span: e.span }))
}

impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            TermKind::Var(_, x) => write!(f, "{x}"),
            TermKind::Lit(v) => write!(f, "{v}"),
            TermKind::Lam { name, body, .. } => write!(f, "fn {name} => {body}"),
            TermKind::App(a, b) => write!(f, "({a}) ({b})"),
            TermKind::Let {
                name, bound, body, ..
            } => write!(f, "let {name} = {bound} in {body}"),
            TermKind::If(c, t, e) => write!(f, "if {c} then {t} else {e}"),
            TermKind::Pair(a, b) => write!(f, "({a}, {b})"),
            TermKind::Fst(a) => write!(f, "fst ({a})"),
            TermKind::Snd(a) => write!(f, "snd ({a})"),
            TermKind::Call(b, args) => {
                write!(f, "{}", b.name())?;
                for a in args.iter() {
                    write!(f, " ({a})")?;
                }
                Ok(())
            }
        }
    }
}
