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
    /// `let x = bound in body`, always by name.
    Let {
        name: Name,
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

impl Drop for EnvNode {
    /// Unlinks a long environment iteratively (10^5 nested lets make a 10^5-long list).
    fn drop(&mut self) {
        // the value first: a by-name binding's thunk holds the rest of this same list, which
        // must be left with one owner (`next`) to be unlinked here rather than recursively
        drop(std::mem::take(&mut self.value));
        let mut next = self.next.take();
        while let Some(rc) = next {
            match Rc::try_unwrap(rc) {
                Ok(mut node) => {
                    drop(std::mem::take(&mut node.value));
                    next = node.next.take();
                }
                Err(_) => break,
            }
        }
    }
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

/// Resolves a closed core expression into a term. Free variables and unsaturated calls are
/// diagnostics. The walk is iterative (an explicit work stack), so nesting depth is bounded only
/// by memory.
pub fn resolve(e: &Expr) -> Result<Rc<Term>, Diagnostic> {
    enum Work<'a> {
        Visit(&'a Expr),
        Build(&'a Expr),
        Bind(&'a Name),
        Unbind,
    }
    let mut scope: Vec<Name> = Vec::new();
    let mut work = vec![Work::Visit(e)];
    let mut out: Vec<Rc<Term>> = Vec::new();
    while let Some(w) = work.pop() {
        match w {
            Work::Bind(x) => scope.push(x.clone()),
            Work::Unbind => {
                scope.pop();
            }
            Work::Visit(e) => {
                let leaf = match &e.kind {
                    ExprKind::Var(x) => match scope.iter().rev().position(|y| y == x) {
                        Some(i) => Some(TermKind::Var(i as u32, x.clone())),
                        None => {
                            return Err(Diagnostic::type_error(
                                e.span,
                                format!("unbound variable `{x}` in core term"),
                            ))
                        }
                    },
                    ExprKind::Int(i) => Some(TermKind::Lit(Value::Int(*i))),
                    ExprKind::Double(x) => Some(TermKind::Lit(Value::Double(*x))),
                    ExprKind::Bool(b) => Some(TermKind::Lit(Value::Bool(*b))),
                    ExprKind::Str(s) => Some(TermKind::Lit(Value::Str(Rc::new(s.to_string())))),
                    ExprKind::Unit => Some(TermKind::Lit(Value::Unit)),
                    _ => None,
                };
                if let Some(kind) = leaf {
                    out.push(Rc::new(Term { kind, span: e.span }));
                    continue;
                }
                // children are pushed last-first so that they are resolved first-first
                work.push(Work::Build(e));
                match &e.kind {
                    ExprKind::Lam { param, body, .. } => {
                        work.extend([Work::Unbind, Work::Visit(body), Work::Bind(param)]);
                    }
                    ExprKind::Let {
                        name, bound, body, ..
                    } => work.extend([
                        Work::Unbind,
                        Work::Visit(body),
                        Work::Bind(name),
                        Work::Visit(bound),
                    ]),
                    ExprKind::App(a, b) | ExprKind::Pair(a, b) => {
                        work.extend([Work::Visit(b), Work::Visit(a)])
                    }
                    ExprKind::If(c, t, f) => {
                        work.extend([Work::Visit(f), Work::Visit(t), Work::Visit(c)])
                    }
                    ExprKind::Fst(a) | ExprKind::Snd(a) => work.push(Work::Visit(a)),
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
                        work.extend(args.iter().rev().map(Work::Visit));
                    }
                    _ => {}
                }
            }
            Work::Build(e) => {
                let mut take = |n: usize| out.split_off(out.len() - n);
                let kind = match &e.kind {
                    ExprKind::Lam {
                        param, param_ty, ..
                    } => TermKind::Lam {
                        name: param.clone(),
                        by_name: param_ty.is_program(),
                        param_ty: Rc::new(param_ty.clone()),
                        body: take(1).remove(0),
                    },
                    ExprKind::Let { name, .. } => {
                        let mut c = take(2).into_iter();
                        TermKind::Let {
                            name: name.clone(),
                            bound: c.next().expect("bound"),
                            body: c.next().expect("body"),
                        }
                    }
                    ExprKind::App(..) | ExprKind::Pair(..) => {
                        let mut c = take(2).into_iter();
                        let (a, b) = (c.next().expect("a"), c.next().expect("b"));
                        match e.kind {
                            ExprKind::App(..) => TermKind::App(a, b),
                            _ => TermKind::Pair(a, b),
                        }
                    }
                    ExprKind::If(..) => {
                        let mut c = take(3).into_iter();
                        TermKind::If(
                            c.next().expect("c"),
                            c.next().expect("t"),
                            c.next().expect("e"),
                        )
                    }
                    ExprKind::Fst(_) => TermKind::Fst(take(1).remove(0)),
                    ExprKind::Snd(_) => TermKind::Snd(take(1).remove(0)),
                    ExprKind::Call(b, args) => TermKind::Call(*b, take(args.len()).into()),
                    _ => continue,
                };
                out.push(Rc::new(Term { kind, span: e.span }));
            }
        }
    }
    out.pop()
        .ok_or_else(|| Diagnostic::type_error(e.span, "empty core term"))
}

impl Drop for Term {
    /// Drops the children of a deep term iteratively: a chain of 10^5 nested terms would
    /// otherwise recurse 10^5 deep.
    fn drop(&mut self) {
        let mut pending: Vec<Rc<Term>> = Vec::new();
        let mut kind = std::mem::replace(&mut self.kind, TermKind::Lit(Value::Unit));
        loop {
            match kind {
                TermKind::Lam { body, .. } => pending.push(body),
                TermKind::App(a, b) | TermKind::Pair(a, b) => pending.extend([a, b]),
                TermKind::Let { bound, body, .. } => pending.extend([bound, body]),
                TermKind::If(a, b, c) => pending.extend([a, b, c]),
                TermKind::Fst(a) | TermKind::Snd(a) => pending.push(a),
                TermKind::Call(_, args) => pending.extend(args.iter().cloned()),
                TermKind::Var(..) | TermKind::Lit(_) => {}
            }
            // only the last owner takes a child apart; shared children just lose a count
            let next = loop {
                match pending.pop() {
                    None => return,
                    Some(rc) => {
                        if let Ok(mut t) = Rc::try_unwrap(rc) {
                            break std::mem::replace(&mut t.kind, TermKind::Lit(Value::Unit));
                        }
                    }
                }
            };
            kind = next;
        }
    }
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
