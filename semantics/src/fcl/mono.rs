//! Monomorphization ([T] Figure 5.7, rules 5.23–5.31; docs/fcl.md §3.6). Like the original
//! compiler (and unlike rule 5.31's inlining) `let`s are kept: one specialised copy per distinct
//! instance (type and level arguments), named `x@N`, and definitions nobody uses are dropped.
//! Level instances come from the explicit level arguments, as in rule 5.30. The result has no
//! type or level variables; kinds (5.11 push arrays of base types, 5.20 `if` at base types) are
//! checked here, on concrete types, as [O]'s back end does (spec §3.1).

use super::builtins;
use super::infer::{TKind, TTerm, TypedDecl};
use super::kinds::{require, well_kinded, Closed, KindReq};
use super::types::{Level, Type};
use crate::{Diagnostic, Span};
use std::collections::BTreeMap;

/// A monomorphic typed term: every type is closed (no variables).
#[derive(Clone, Debug, PartialEq)]
pub struct MTerm {
    pub kind: MKind,
    pub ty: Type,
    pub span: Span,
}

/// Monomorphic term forms.
#[derive(Clone, Debug, PartialEq)]
pub enum MKind {
    Int(i64),
    Double(f64),
    Bool(bool),
    Str(String),
    Unit,
    /// A lambda-bound variable or a specialised `let` copy (`x@N`).
    Var(String),
    /// A built-in (its [O] name; thesis aliases resolved) at concrete levels.
    Builtin(String, Vec<Level>),
    Pair(Box<MTerm>, Box<MTerm>),
    /// `fn x : τ. e` (5.27).
    Fn(String, Type, Box<MTerm>),
    App(Box<MTerm>, Box<MTerm>),
    If(Box<MTerm>, Box<MTerm>, Box<MTerm>),
    Let(String, Box<MTerm>, Box<MTerm>),
}

/// A monomorphic program: top-level copies in dependency order, then the entry expression.
#[derive(Clone, Debug, PartialEq)]
pub struct MonoProgram {
    pub bindings: Vec<(String, MTerm)>,
    pub main: MTerm,
}

/// What a name refers to during monomorphization.
#[derive(Clone, Debug)]
enum Binding {
    Builtin,
    Lambda,
    /// A `let`/declaration: index into `Mono::defs`.
    Def(usize),
}

type Env = im::HashMap<String, Binding>;

/// The substitution S of 5.30: quantified type and level variables to closed types and levels.
#[derive(Clone, Default)]
struct Subst {
    tys: BTreeMap<u32, Type>,
    lvls: BTreeMap<u32, Level>,
}

/// One specialised instance of a definition: its type arguments, level arguments and new name.
type Instance = (Vec<Type>, Vec<Level>, String);

struct Def {
    name: String,
    tyvars: Vec<u32>,
    levels: Vec<u32>,
    ty: Type,
    instances: Vec<Instance>,
}

struct Mono {
    defs: Vec<Def>,
    copies: usize,
}

/// Monomorphizes a typed program whose value is the expression `main` (already typed by the
/// caller: a use of the last `main` declaration).
pub fn monomorphize(decls: &[TypedDecl], main: &TTerm) -> Result<MonoProgram, Diagnostic> {
    let mut m = Mono {
        defs: Vec::new(),
        copies: 0,
    };
    let mut env: Env = builtins::shared_environment()
        .iter()
        .map(|(n, _)| (n.clone(), Binding::Builtin))
        .collect();
    // The environment each declaration sees: the built-ins and the earlier declarations.
    let mut envs = Vec::with_capacity(decls.len());
    for d in decls {
        envs.push(env.clone());
        let id = m.defs.len();
        m.defs.push(Def {
            name: d.name.clone(),
            tyvars: d.scheme.tyvars.clone(),
            levels: d.scheme.levels.clone(),
            ty: d.scheme.ty.clone(),
            instances: Vec::new(),
        });
        env.insert(d.name.clone(), Binding::Def(id));
    }
    let main = m.term(main, &env, &Subst::default())?;
    // Later declarations request instances of earlier ones, so specialise last to first.
    let mut groups = Vec::new();
    for (i, d) in decls.iter().enumerate().rev() {
        let mut group = Vec::new();
        let mut k = 0;
        while k < m.defs[i].instances.len() {
            let (tys, lvls, name) = m.defs[i].instances[k].clone();
            let s = m.instance_subst(i, &Subst::default(), &tys, &lvls);
            group.push((name, m.term(&d.body, &envs[i], &s)?));
            k += 1;
        }
        groups.push(group);
    }
    let bindings = groups.into_iter().rev().flatten().collect();
    Ok(MonoProgram { bindings, main })
}

fn unbound(x: &str, span: Span) -> Diagnostic {
    Diagnostic::type_error(span, format!("Not in scope during monomorphization: `{x}`"))
}

fn has_vars(t: &Type) -> bool {
    let mut v = Vec::new();
    t.free_vars(&mut v);
    if !v.is_empty() {
        return true;
    }
    t.level_vars(&mut v);
    !v.is_empty()
}

/// Finds the images of `s.tyvars` by matching the scheme type against a closed instance type.
fn matching(pattern: &Type, inst: &Type, out: &mut BTreeMap<u32, Type>) {
    match (pattern, inst) {
        (Type::Var(v), t) => {
            out.entry(*v).or_insert_with(|| t.clone());
        }
        (Type::Fun(a, b), Type::Fun(c, d)) | (Type::Pair(a, b), Type::Pair(c, d)) => {
            matching(a, c, out);
            matching(b, d, out);
        }
        (Type::Pull(a), Type::Pull(b))
        | (Type::Push(a, _), Type::Push(b, _))
        | (Type::Program(_, a), Type::Program(_, b)) => matching(a, b, out),
        _ => {}
    }
}

impl Mono {
    fn instance_subst(&self, id: usize, outer: &Subst, tys: &[Type], lvls: &[Level]) -> Subst {
        let mut s = outer.clone();
        let d = &self.defs[id];
        for (v, t) in d.tyvars.iter().zip(tys) {
            s.tys.insert(*v, t.clone());
        }
        for (v, l) in d.levels.iter().zip(lvls) {
            s.lvls.insert(*v, *l);
        }
        s
    }

    /// The closed type of a node under S, with its kinds checked (5.10–5.12).
    fn close(&self, t: &Type, s: &Subst, span: Span) -> Result<Type, Diagnostic> {
        let t = t.subst(&s.tys, &s.lvls);
        if has_vars(&t) {
            return Err(Diagnostic::type_error(
                span,
                format!("Unexpected polymorphic type  `{t}` found during monomorphization."),
            ));
        }
        well_kinded(&mut Closed, &t, span)?;
        Ok(t)
    }

    /// The instance of definition `id` at closed type `ty` and levels `lvls`: its copy's name.
    fn request(&mut self, id: usize, ty: &Type, lvls: Vec<Level>) -> String {
        let mut images = BTreeMap::new();
        matching(&self.defs[id].ty, ty, &mut images);
        let tys: Vec<Type> = self.defs[id]
            .tyvars
            .iter()
            .map(|v| images.get(v).cloned().unwrap_or(Type::Unit))
            .collect();
        if let Some((_, _, n)) = self.defs[id]
            .instances
            .iter()
            .find(|(t, l, _)| *t == tys && *l == lvls)
        {
            return n.clone();
        }
        self.copies += 1;
        let name = format!("{}@{}", self.defs[id].name, self.copies);
        self.defs[id].instances.push((tys, lvls, name.clone()));
        name
    }

    fn term(&mut self, e: &TTerm, env: &Env, s: &Subst) -> Result<MTerm, Diagnostic> {
        let span = e.span;
        let ty = self.close(&e.ty, s, span)?;
        let kind = match &e.kind {
            TKind::Int(i) => MKind::Int(*i),       // (5.23)
            TKind::Double(d) => MKind::Double(*d), // (5.24)
            TKind::Bool(b) => MKind::Bool(*b),     // (5.25)
            TKind::Str(x) => MKind::Str(x.clone()),
            TKind::Unit => MKind::Unit, // () is the identity (spec §9.2)
            TKind::Pair(a, b) => MKind::Pair(
                // (5.26)
                Box::new(self.term(a, env, s)?),
                Box::new(self.term(b, env, s)?),
            ),
            TKind::Fn(x, pt, body) => {
                // (5.27)
                let pt = self.close(pt, s, span)?;
                let mut inner = env.clone();
                inner.insert(x.clone(), Binding::Lambda);
                MKind::Fn(x.clone(), pt, Box::new(self.term(body, &inner, s)?))
            }
            TKind::App(f, a) => MKind::App(
                // (5.28)
                Box::new(self.term(f, env, s)?),
                Box::new(self.term(a, env, s)?),
            ),
            TKind::If(c, t, f) => {
                // (5.29), with the kind premise of (5.20)
                require(&mut Closed, &ty, KindReq::IF_BRANCH, span)?;
                MKind::If(
                    Box::new(self.term(c, env, s)?),
                    Box::new(self.term(t, env, s)?),
                    Box::new(self.term(f, env, s)?),
                )
            }
            TKind::Var(x, ls) => {
                // (5.30): S from the instance type and the explicit level arguments
                let lvls: Vec<Level> = ls.iter().map(|l| l.subst(&s.lvls)).collect();
                if let Some(l) = lvls.iter().find(|l| l.var.is_some()) {
                    return Err(Diagnostic::type_error(
                        span,
                        format!(
                            "Unexpected polymorphic level  `{l}` found during monomorphization."
                        ),
                    ));
                }
                match env.get(x) {
                    Some(Binding::Lambda) => MKind::Var(x.clone()),
                    Some(Binding::Def(id)) => MKind::Var(self.request(*id, &ty, lvls)),
                    Some(Binding::Builtin) => match builtins::canonical(x) {
                        Some(name) => MKind::Builtin(name.to_string(), lvls),
                        None => return Err(unbound(x, span)),
                    },
                    // Inference has resolved every name, so this is a front-end bug.
                    None => return Err(unbound(x, span)),
                }
            }
            TKind::Let {
                name,
                scheme,
                rhs,
                body,
            } => {
                // (5.31), keeping one `let` per instance
                let id = self.defs.len();
                self.defs.push(Def {
                    name: name.clone(),
                    tyvars: scheme.tyvars.clone(),
                    levels: scheme.levels.clone(),
                    ty: scheme.ty.subst(&s.tys, &s.lvls),
                    instances: Vec::new(),
                });
                let mut inner = env.clone();
                inner.insert(name.clone(), Binding::Def(id));
                let mut acc = self.term(body, &inner, s)?;
                let instances = self.defs[id].instances.clone();
                for (tys, lvls, copy) in instances.into_iter().rev() {
                    let si = self.instance_subst(id, s, &tys, &lvls);
                    let r = self.term(rhs, env, &si)?;
                    acc = MTerm {
                        ty: acc.ty.clone(),
                        kind: MKind::Let(copy, Box::new(r), Box::new(acc)),
                        span,
                    };
                }
                return Ok(acc);
            }
        };
        Ok(MTerm { kind, ty, span })
    }
}
