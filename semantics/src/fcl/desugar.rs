//! Desugaring of the surface syntax into the core terms of [T] §5.3 (docs/fcl.md §2.5): `fun` to
//! `fn` chains, operators to built-in applications, `|>` to reverse application, `do` to `bind`.
//! Level variables and signature type variables are numbered by one counter that runs over all
//! files in order, so that `check` prints the level numbers [O] prints.

use super::syntax::{self, DeclKind, Expr, ExprKind, Stmt};
use super::types::{Level, Scheme, Type};
use crate::{Diagnostic, Span};
use std::collections::BTreeMap;

/// A desugared expression of the core syntax (§5.3), with its span.
#[derive(Clone, Debug, PartialEq)]
pub struct Term {
    pub kind: TermKind,
    pub span: Span,
}

/// The core expression forms.
#[derive(Clone, Debug, PartialEq)]
pub enum TermKind {
    Int(i64),
    Double(f64),
    Bool(bool),
    Str(String),
    Unit,
    /// `x⟨l⃗⟩`.
    Var(String, Vec<Level>),
    Pair(Box<Term>, Box<Term>),
    Fn(String, Box<Term>),
    App(Box<Term>, Box<Term>),
    If(Box<Term>, Box<Term>, Box<Term>),
    /// `let x⟨δ⃗⟩ (: σ) = e1 in e2`.
    Let {
        name: String,
        levels: Vec<u32>,
        sig: Option<Annotation>,
        rhs: Box<Term>,
        body: Box<Term>,
    },
}

/// A signature or let-annotation, its variables numbered by the desugar counter.
#[derive(Clone, Debug, PartialEq)]
pub struct Annotation {
    pub scheme: Scheme,
    pub span: Span,
}

/// A desugared top-level declaration: `let name⟨levels⟩ (: sig) = body in …`.
#[derive(Clone, Debug, PartialEq)]
pub struct CoreDecl {
    pub name: String,
    pub levels: Vec<u32>,
    pub sig: Option<Annotation>,
    pub body: Term,
    pub span: Span,
}

/// The desugar counter of spec §2.5, shared by every file of one program.
#[derive(Default)]
pub struct Desugarer {
    counter: u32,
}

/// Level variables in scope: name to number, innermost last.
type LevelScope = Vec<(String, u32)>;

impl Desugarer {
    /// A fresh counter (starting at 0 for the first file).
    pub fn new() -> Desugarer {
        Desugarer { counter: 0 }
    }

    /// A counter starting at `n` (for library files that must not shift user numbers).
    pub fn starting_at(n: u32) -> Desugarer {
        Desugarer { counter: n }
    }

    /// The next number the counter will hand out.
    pub fn counter(&self) -> u32 {
        self.counter
    }

    fn next(&mut self) -> u32 {
        let n = self.counter;
        self.counter += 1;
        n
    }

    /// Desugars the declarations of one file, continuing the counter.
    pub fn program(&mut self, p: &syntax::Program) -> Result<Vec<CoreDecl>, Diagnostic> {
        p.decls.iter().map(|d| self.decl(d)).collect()
    }

    fn decl(&mut self, d: &syntax::Decl) -> Result<CoreDecl, Diagnostic> {
        // (a) the declaration's own level parameters
        let mut scope: LevelScope = Vec::new();
        let mut levels = Vec::new();
        for l in &d.levels {
            let n = self.next();
            scope.push((l.clone(), n));
            levels.push(n);
        }
        // (b) its body; `fun f p1 … pn = e` is `fn p1 => … fn pn => e`
        let mut body = self.expr(&d.body, &scope)?;
        if d.kind == DeclKind::Fun {
            for p in d.params.iter().rev() {
                body = Term {
                    span: d.span,
                    kind: TermKind::Fn(p.clone(), Box::new(body)),
                };
            }
        }
        // (c) its signature
        let sig = match &d.sig {
            Some((_, s)) => Some(self.annotation(s, &[])?),
            None => None,
        };
        Ok(CoreDecl {
            name: d.name.clone(),
            levels,
            sig,
            body,
            span: d.span,
        })
    }

    /// Numbers a scheme's level variables, then its type variables.
    fn annotation(
        &mut self,
        s: &syntax::Scheme,
        outer: &[(String, u32)],
    ) -> Result<Annotation, Diagnostic> {
        let (lnames, tnames) = match &s.forall {
            Some((l, t)) => (l.clone(), t.clone()),
            None => (Vec::new(), Vec::new()),
        };
        let mut scope: LevelScope = outer.to_vec();
        let mut levels = Vec::new();
        for l in &lnames {
            let n = self.next();
            scope.push((l.clone(), n));
            levels.push(n);
        }
        let mut tyvars = BTreeMap::new();
        let mut order = Vec::new();
        for t in &tnames {
            let n = self.next();
            tyvars.insert(t.clone(), n);
            order.push(n);
        }
        let ty = convert_type(&s.ty, &scope, &tyvars)?;
        Ok(Annotation {
            scheme: Scheme {
                tyvars: order,
                levels,
                ty,
                kinds: BTreeMap::new(),
            },
            span: s.span,
        })
    }

    fn expr(&mut self, e: &Expr, scope: &LevelScope) -> Result<Term, Diagnostic> {
        let span = e.span;
        let mk = |kind| Term { kind, span };
        Ok(match &e.kind {
            ExprKind::Int(i) => mk(TermKind::Int(*i)),
            ExprKind::Double(d) => mk(TermKind::Double(*d)),
            ExprKind::Bool(b) => mk(TermKind::Bool(*b)),
            ExprKind::Str(s) => mk(TermKind::Str(s.clone())),
            ExprKind::Unit => mk(TermKind::Unit),
            ExprKind::Var(x, ls) => {
                let ls = ls
                    .iter()
                    .map(|l| convert_level(l, scope))
                    .collect::<Result<_, _>>()?;
                mk(TermKind::Var(x.clone(), ls))
            }
            ExprKind::Pair(a, b) => {
                let a = self.expr(a, scope)?;
                let b = self.expr(b, scope)?;
                mk(TermKind::Pair(Box::new(a), Box::new(b)))
            }
            ExprKind::Fn(params, body) => {
                let mut t = self.expr(body, scope)?;
                for p in params.iter().rev() {
                    t = mk(TermKind::Fn(p.clone(), Box::new(t)));
                }
                t
            }
            ExprKind::App(f, a) => {
                let f = self.expr(f, scope)?;
                let a = self.expr(a, scope)?;
                mk(TermKind::App(Box::new(f), Box::new(a)))
            }
            ExprKind::BinOp(op, a, b) => {
                let a = self.expr(a, scope)?;
                let b = self.expr(b, scope)?;
                match op.builtin() {
                    // `e1 |> e2` is `e2 e1`: the function is inferred first.
                    None => mk(TermKind::App(Box::new(b), Box::new(a))),
                    // `e1 OP e2` is `(opname e1) e2`.
                    Some(name) => {
                        let opv = mk(TermKind::Var(name.to_string(), Vec::new()));
                        let partial = mk(TermKind::App(Box::new(opv), Box::new(a)));
                        mk(TermKind::App(Box::new(partial), Box::new(b)))
                    }
                }
            }
            ExprKind::If(c, t, f) => {
                let c = self.expr(c, scope)?;
                let t = self.expr(t, scope)?;
                let f = self.expr(f, scope)?;
                mk(TermKind::If(Box::new(c), Box::new(t), Box::new(f)))
            }
            ExprKind::Let {
                name,
                levels,
                sig,
                rhs,
                body,
            } => {
                // level parameters first, then the right-hand side, the body, the annotation
                let mut inner = scope.clone();
                let mut nums = Vec::new();
                for l in levels {
                    let n = self.next();
                    inner.push((l.clone(), n));
                    nums.push(n);
                }
                let rhs = self.expr(rhs, &inner)?;
                let body = self.expr(body, scope)?;
                let sig = match sig {
                    Some(s) => Some(self.annotation(s, &inner)?),
                    None => None,
                };
                mk(TermKind::Let {
                    name: name.clone(),
                    levels: nums,
                    sig,
                    rhs: Box::new(rhs),
                    body: Box::new(body),
                })
            }
            ExprKind::Do(l, stmts) => {
                let level = convert_level(l, scope)?;
                if let Some(Stmt::Bind(..)) = stmts.last() {
                    return Err(Diagnostic::parse(
                        span,
                        "Final expression in `do`-construct can not be a bind.",
                    ));
                }
                // Statements are desugared in file order, for the counter.
                let mut parts = Vec::new();
                for s in stmts {
                    parts.push(match s {
                        Stmt::Bind(x, e) => (x.clone(), self.expr(e, scope)?),
                        // `_` can never be written by a user, so it captures nothing.
                        Stmt::Expr(e) => ("_".to_string(), self.expr(e, scope)?),
                    });
                }
                let mut acc = match parts.pop() {
                    Some((_, e)) => e,
                    None => return Err(Diagnostic::parse(span, "Empty `do`-construct.")),
                };
                for (x, e) in parts.into_iter().rev() {
                    let sp = e.span;
                    let bind = Term {
                        kind: TermKind::Var("bind".into(), vec![level]),
                        span: sp,
                    };
                    let lam = Term {
                        kind: TermKind::Fn(x, Box::new(acc)),
                        span: sp,
                    };
                    let partial = Term {
                        kind: TermKind::App(Box::new(bind), Box::new(e)),
                        span: sp,
                    };
                    acc = Term {
                        kind: TermKind::App(Box::new(partial), Box::new(lam)),
                        span: sp,
                    };
                }
                acc
            }
        })
    }
}

fn convert_level(l: &syntax::Level, scope: &[(String, u32)]) -> Result<Level, Diagnostic> {
    let base = match &l.var {
        None => Level::THREAD,
        Some(v) => match scope.iter().rev().find(|(n, _)| n == v) {
            Some((_, n)) => Level::var(*n),
            None => {
                return Err(Diagnostic::type_error(
                    l.span,
                    format!("Level variable not in scope: `{v}`"),
                ))
            }
        },
    };
    Ok(Level {
        succs: base.succs + l.succs,
        ..base
    })
}

fn convert_type(
    t: &syntax::Type,
    scope: &[(String, u32)],
    tyvars: &BTreeMap<String, u32>,
) -> Result<Type, Diagnostic> {
    let go = |t: &syntax::Type| convert_type(t, scope, tyvars);
    Ok(match &t.kind {
        syntax::TypeKind::Int => Type::Int,
        syntax::TypeKind::Double => Type::Double,
        syntax::TypeKind::Bool => Type::Bool,
        syntax::TypeKind::Str => Type::Str,
        syntax::TypeKind::Unit => Type::Unit,
        syntax::TypeKind::Var(v) => match tyvars.get(v) {
            Some(n) => Type::Var(*n),
            None => {
                return Err(Diagnostic::type_error(
                    t.span,
                    format!("Type variable not in scope: `'{v}`"),
                ))
            }
        },
        syntax::TypeKind::Fun(a, b) => Type::fun(go(a)?, go(b)?),
        syntax::TypeKind::Pair(a, b) => Type::pair(go(a)?, go(b)?),
        syntax::TypeKind::Pull(a) => Type::pull(go(a)?),
        syntax::TypeKind::Push(a, l) => Type::push(go(a)?, convert_level(l, scope)?),
        syntax::TypeKind::Program(l, a) => Type::program(convert_level(l, scope)?, go(a)?),
    })
}

/// Converts a closed scheme written in source syntax (used for the built-in table): type
/// variables are numbered 0, 1, … in `forall` order, level variables likewise.
pub fn closed_scheme(s: &syntax::Scheme) -> Result<Scheme, Diagnostic> {
    let (lnames, tnames) = s.forall.clone().unwrap_or_default();
    let scope: LevelScope = lnames
        .iter()
        .enumerate()
        .map(|(i, n)| (n.clone(), i as u32))
        .collect();
    let tyvars: BTreeMap<String, u32> = tnames
        .iter()
        .enumerate()
        .map(|(i, n)| (n.clone(), i as u32))
        .collect();
    Ok(Scheme {
        tyvars: (0..tnames.len() as u32).collect(),
        levels: (0..lnames.len() as u32).collect(),
        ty: convert_type(&s.ty, &scope, &tyvars)?,
        // Built-in schemes leave kinds implicit: instantiation makes their types well-kinded
        // (spec: element types of push arrays are BT, of pull arrays and programs GT).
        kinds: BTreeMap::new(),
    })
}
