//! Type inference for FCL ([T] Figure 5.6, rules 5.13–5.22), following the algorithm of the
//! original compiler step by step (docs/fcl.md §3.2) so that `check` prints the same type
//! variable names: one fresh-variable counter, instantiation from the last quantifier, arrows and
//! pairs unified right component first, variable-vs-variable binds the left one.
//!
//! Level parameters are rigid ([T] quantifies them; spec §3.3 [fix]): every level-polymorphic name
//! must be level-applied explicitly, so levels in types are always expressions over declared
//! level parameters and level unification is an equality check.

use super::desugar::{Annotation, CoreDecl, Term, TermKind};
use super::kinds::{require, well_kinded, KindEnv, KindReq};
use super::types::{Level, Scheme, Type};
use crate::{Diagnostic, Span};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc as Rc;

/// A typed term: the core term with the type inference gave every node (fully substituted once
/// its top-level declaration is done).
#[derive(Clone, Debug, PartialEq)]
pub struct TTerm {
    pub kind: TKind,
    pub ty: Type,
    pub span: Span,
}

/// Typed core forms; lambdas carry their parameter type and lets their generalised scheme, as
/// monomorphization needs (spec §9.2 on 5.27/5.31).
#[derive(Clone, Debug, PartialEq)]
pub enum TKind {
    Int(i64),
    Double(f64),
    Bool(bool),
    Str(String),
    Unit,
    Var(String, Vec<Level>),
    Pair(Box<TTerm>, Box<TTerm>),
    Fn(String, Type, Box<TTerm>),
    App(Box<TTerm>, Box<TTerm>),
    If(Box<TTerm>, Box<TTerm>, Box<TTerm>),
    Let {
        name: String,
        scheme: Scheme,
        rhs: Box<TTerm>,
        body: Box<TTerm>,
    },
}

/// A top-level declaration after inference.
#[derive(Clone, Debug, PartialEq)]
pub struct TypedDecl {
    pub name: String,
    pub scheme: Scheme,
    pub body: TTerm,
    pub span: Span,
    /// Index of the source file the declaration came from.
    pub file: usize,
}

/// The inference state of §3.2: the fresh counter and the substitution S.
pub struct Infer {
    subst: Vec<Option<Type>>,
    /// The kind constraint of each inference variable ([T] 5.1–5.12; see [`super::kinds`]),
    /// meaningful while the variable is unbound.
    kinds: Vec<KindReq>,
    /// Types of the lambda-bound variables in scope; their free variables are ftv(Γ).
    lambda_types: Vec<Type>,
    /// Work done on types (unify, occurs, zonk steps). Shared substitutions can make types
    /// exponentially large (`dup (dup (… x))` with `dup x = (x, x)`); past [`STEP_BUDGET`] the
    /// program is rejected instead of exhausting time or memory.
    steps: AtomicU64,
}

impl Clone for Infer {
    fn clone(&self) -> Infer {
        Infer {
            subst: self.subst.clone(),
            kinds: self.kinds.clone(),
            lambda_types: self.lambda_types.clone(),
            steps: AtomicU64::new(self.steps.load(Ordering::Relaxed)),
        }
    }
}

/// The most type-level work one program may cause.
pub const STEP_BUDGET: u64 = 20_000_000;

type Env = im::HashMap<String, Rc<Scheme>>;

/// Inference over a sequence of top-level declarations: Γ and the state of §3.2. It can be
/// cloned, so that the prelude is inferred once and every program continues from there.
#[derive(Clone)]
pub struct Inference {
    env: Env,
    st: Infer,
}

impl Inference {
    /// Γ_init: the built-ins, and a fresh counter.
    pub fn new(builtins: &[(String, Scheme)]) -> Inference {
        Inference {
            env: builtins
                .iter()
                .map(|(n, s)| (n.clone(), Rc::new(s.clone())))
                .collect(),
            st: Infer {
                subst: Vec::new(),
                kinds: Vec::new(),
                lambda_types: Vec::new(),
                steps: AtomicU64::new(0),
            },
        }
    }

    /// Infers the next top-level declaration (from file `file`) and adds it to Γ.
    pub fn declare(&mut self, d: &CoreDecl, file: usize) -> Result<TypedDecl, Diagnostic> {
        let st = &mut self.st;
        let (scheme, body) = st.let_binding(&self.env, &d.levels, d.sig.as_ref(), &d.body)?;
        self.env.insert(d.name.clone(), Rc::new(scheme.clone()));
        let body = st.zonk_term(body);
        st.within_budget(d.span)?;
        Ok(TypedDecl {
            name: d.name.clone(),
            scheme,
            body,
            span: d.span,
            file,
        })
    }
}

/// Infers every declaration in order. `decls` pairs each declaration with its file index.
/// Returns the typed declarations (their schemes are what `check` prints).
pub fn infer_program(
    builtins: &[(String, Scheme)],
    decls: &[(usize, CoreDecl)],
) -> Result<Vec<TypedDecl>, (usize, Diagnostic)> {
    let mut inference = Inference::new(builtins);
    decls
        .iter()
        .map(|(file, d)| inference.declare(d, *file).map_err(|e| (*file, e)))
        .collect()
}

impl Infer {
    fn fresh(&mut self) -> Type {
        self.subst.push(None);
        self.kinds.push(KindReq::ANY);
        Type::Var(self.subst.len() as u32 - 1)
    }

    /// Follows S at the top of a type only.
    fn shallow(&self, t: &Type) -> Type {
        let mut t = t.clone();
        while let Type::Var(v) = t {
            match self.subst.get(v as usize).and_then(|b| b.clone()) {
                Some(b) => t = b,
                None => break,
            }
        }
        t
    }

    /// Counts one step of type-level work; true once the budget is spent.
    fn tick(&self) -> bool {
        // One thread owns an `Infer`; the atomic only makes the prelude snapshot shareable, so
        // a plain load and store suffice.
        let n = self.steps.load(Ordering::Relaxed) + 1;
        self.steps.store(n, Ordering::Relaxed);
        n > STEP_BUDGET
    }

    fn within_budget(&self, span: Span) -> Result<(), Diagnostic> {
        if self.steps.load(Ordering::Relaxed) > STEP_BUDGET {
            return Err(Diagnostic::type_error(
                span,
                format!("types grow too large to infer (more than {STEP_BUDGET} steps)"),
            ));
        }
        Ok(())
    }

    /// Applies S completely (a placeholder past the budget, which the caller then reports).
    pub fn zonk(&self, t: &Type) -> Type {
        if self.tick() {
            return Type::Unit;
        }
        match self.shallow(t) {
            Type::Fun(a, b) => Type::fun(self.zonk(&a), self.zonk(&b)),
            Type::Pair(a, b) => Type::pair(self.zonk(&a), self.zonk(&b)),
            Type::Pull(a) => Type::pull(self.zonk(&a)),
            Type::Push(a, l) => Type::push(self.zonk(&a), l),
            Type::Program(l, a) => Type::program(l, self.zonk(&a)),
            t => t,
        }
    }

    fn zonk_term(&self, t: TTerm) -> TTerm {
        let ty = self.zonk(&t.ty);
        let kind = match t.kind {
            TKind::Pair(a, b) => {
                TKind::Pair(Box::new(self.zonk_term(*a)), Box::new(self.zonk_term(*b)))
            }
            TKind::Fn(x, pt, b) => TKind::Fn(x, self.zonk(&pt), Box::new(self.zonk_term(*b))),
            TKind::App(a, b) => {
                TKind::App(Box::new(self.zonk_term(*a)), Box::new(self.zonk_term(*b)))
            }
            TKind::If(a, b, c) => TKind::If(
                Box::new(self.zonk_term(*a)),
                Box::new(self.zonk_term(*b)),
                Box::new(self.zonk_term(*c)),
            ),
            TKind::Let {
                name,
                scheme,
                rhs,
                body,
            } => TKind::Let {
                name,
                scheme,
                rhs: Box::new(self.zonk_term(*rhs)),
                body: Box::new(self.zonk_term(*body)),
            },
            k => k,
        };
        TTerm {
            kind,
            ty,
            span: t.span,
        }
    }

    fn occurs(&self, v: u32, t: &Type) -> bool {
        if self.tick() {
            return false;
        }
        match self.shallow(t) {
            Type::Var(u) => u == v,
            Type::Fun(a, b) | Type::Pair(a, b) => self.occurs(v, &a) || self.occurs(v, &b),
            Type::Pull(a) | Type::Push(a, _) | Type::Program(_, a) => self.occurs(v, &a),
            _ => false,
        }
    }

    fn show(&self, t: &Type) -> String {
        self.zonk(t).to_string()
    }

    /// unify(t, u) of §3.2.
    fn unify(&mut self, t: &Type, u: &Type, span: Span) -> Result<(), Diagnostic> {
        self.tick();
        self.within_budget(span)?;
        let (t, u) = (self.shallow(t), self.shallow(u));
        match (&t, &u) {
            (Type::Int, Type::Int)
            | (Type::Double, Type::Double)
            | (Type::Bool, Type::Bool)
            | (Type::Str, Type::Str)
            | (Type::Unit, Type::Unit) => Ok(()),
            (Type::Fun(t1, t2), Type::Fun(u1, u2)) | (Type::Pair(t1, t2), Type::Pair(u1, u2)) => {
                self.unify(t2, u2, span)?;
                self.unify(t1, u1, span)
            }
            (Type::Pull(a), Type::Pull(b)) => self.unify(a, b, span),
            (Type::Push(a, l), Type::Push(b, m)) | (Type::Program(l, a), Type::Program(m, b)) => {
                unify_level(*l, *m, span)?;
                self.unify(a, b, span)
            }
            (Type::Var(a), _) => self.bind_var(*a, &u, span),
            (_, Type::Var(b)) => self.bind_var(*b, &t, span),
            _ => Err(Diagnostic::type_error(
                span,
                format!("Cannot unify: `{}` and `{}`", self.show(&t), self.show(&u)),
            )),
        }
    }

    fn bind_var(&mut self, a: u32, t: &Type, span: Span) -> Result<(), Diagnostic> {
        if let Type::Var(b) = t {
            if *b != a {
                self.subst[a as usize] = Some(t.clone());
                let merged = self.kinds[*b as usize].meet(self.kinds[a as usize]);
                self.kinds[*b as usize] = merged;
            }
            return Ok(());
        }
        if self.occurs(a, t) {
            return Err(Diagnostic::type_error(
                span,
                format!("Occurs check failed. `'tv{a}` found in `{}`", self.show(t)),
            ));
        }
        self.subst[a as usize] = Some(t.clone());
        // The variable's kind constraint now applies to what it stands for.
        match self.kinds[a as usize] {
            KindReq::ANY => Ok(()),
            req => require(self, t, req, span),
        }
    }

    /// Instantiation (5.21): fresh variables for the quantified type variables, last first;
    /// the explicit level arguments for the level parameters.
    fn instantiate(
        &mut self,
        x: &str,
        s: &Scheme,
        levels: &[Level],
        span: Span,
    ) -> Result<Type, Diagnostic> {
        if levels.len() != s.levels.len() {
            return Err(Diagnostic::type_error(
                span,
                format!(
                    "Variable `{x}` is not applied to right number of level parameters (expects {}, given {}).",
                    s.levels.len(),
                    levels.len()
                ),
            ));
        }
        let mut tys = BTreeMap::new();
        for v in s.tyvars.iter().rev() {
            let f = self.fresh();
            tys.insert(*v, f);
        }
        let lvls: BTreeMap<u32, Level> = s
            .levels
            .iter()
            .copied()
            .zip(levels.iter().copied())
            .collect();
        let inst = s.ty.subst(&tys, &lvls);
        // (5.21) with kinds: the fresh variables inherit the scheme's constraints, and the
        // instance must be well-kinded (which gives built-ins' element variables theirs).
        for (v, req) in &s.kinds {
            if let Some(Type::Var(f)) = tys.get(v) {
                self.kinds[*f as usize] = self.kinds[*f as usize].meet(*req);
            }
        }
        well_kinded(self, &inst, span)?;
        self.within_budget(span)?;
        let b = self.fresh();
        self.unify(&inst, &b, span)?;
        Ok(b)
    }

    /// generalize(Γ, δs, t) of §3.2.
    fn generalize(&self, levels: &[u32], t: &Type) -> Scheme {
        let t = self.zonk(t);
        let mut env_vars = Vec::new();
        for lt in &self.lambda_types {
            self.zonk(lt).free_vars(&mut env_vars);
        }
        let mut vars = Vec::new();
        t.free_vars(&mut vars);
        vars.retain(|v| !env_vars.contains(v));
        vars.sort_unstable();
        // (5.22) `∀α:κ`: the generalised variables keep their kind constraints.
        let kinds = vars
            .iter()
            .map(|v| (*v, self.kinds[*v as usize]))
            .filter(|(_, req)| *req != KindReq::ANY)
            .collect();
        Scheme {
            tyvars: vars,
            levels: levels.to_vec(),
            ty: t,
            kinds,
        }
    }

    /// Infers `e1` of a `let x⟨δs⟩ (: σ) = e1` (5.22) and returns its generalised scheme.
    fn let_binding(
        &mut self,
        env: &Env,
        levels: &[u32],
        sig: Option<&Annotation>,
        rhs: &Term,
    ) -> Result<(Scheme, TTerm), Diagnostic> {
        let t = self.infer(env, rhs)?;
        let scheme = self.generalize(levels, &t.ty);
        self.within_budget(rhs.span)?;
        if let Some(a) = sig {
            check_annotation(&scheme, a)?;
        }
        Ok((scheme, t))
    }

    /// infer(Γ, e) of §3.2, one arm per rule.
    fn infer(&mut self, env: &Env, e: &Term) -> Result<TTerm, Diagnostic> {
        let span = e.span;
        let done = |kind, ty| Ok(TTerm { kind, ty, span });
        match &e.kind {
            TermKind::Int(i) => done(TKind::Int(*i), Type::Int), // (5.13)
            TermKind::Double(d) => done(TKind::Double(*d), Type::Double), // (5.14)
            TermKind::Bool(b) => done(TKind::Bool(*b), Type::Bool), // (5.15)
            TermKind::Str(s) => done(TKind::Str(s.clone()), Type::Str),
            TermKind::Unit => done(TKind::Unit, Type::Unit), // (5.16)
            TermKind::Pair(a, b) => {
                // (5.17)
                let a = self.infer(env, a)?;
                let b = self.infer(env, b)?;
                let ty = Type::pair(a.ty.clone(), b.ty.clone());
                done(TKind::Pair(Box::new(a), Box::new(b)), ty)
            }
            TermKind::Fn(x, body) => {
                // (5.18)
                let a = self.fresh();
                let mut inner = env.clone();
                inner.insert(x.clone(), Rc::new(Scheme::mono(a.clone())));
                self.lambda_types.push(a.clone());
                let body = self.infer(&inner, body);
                self.lambda_types.pop();
                let body = body?;
                let ty = Type::fun(a.clone(), body.ty.clone());
                done(TKind::Fn(x.clone(), a, Box::new(body)), ty)
            }
            TermKind::App(f, a) => {
                // (5.19)
                let f = self.infer(env, f)?;
                let a = self.infer(env, a)?;
                let r = self.fresh();
                let expected = Type::fun(a.ty.clone(), r.clone());
                self.unify(&f.ty, &expected, span)?;
                done(TKind::App(Box::new(f), Box::new(a)), r)
            }
            TermKind::If(c, t, f) => {
                // (5.20): the branches have one type, of kind BT. [O] has no kinds; the
                // side condition creates no variables, so `check` output stays identical.
                let c = self.infer(env, c)?;
                let t = self.infer(env, t)?;
                let f = self.infer(env, f)?;
                self.unify(&c.ty, &Type::Bool, c.span)?;
                self.unify(&t.ty, &f.ty, span)?;
                require(self, &t.ty, KindReq::IF_BRANCH, span)?;
                let ty = t.ty.clone();
                done(TKind::If(Box::new(c), Box::new(t), Box::new(f)), ty)
            }
            TermKind::Var(x, levels) => {
                // (5.21)
                let s = match env.get(x) {
                    Some(s) => s.clone(),
                    None => {
                        return Err(Diagnostic::type_error(span, format!("Not in scope: `{x}`")))
                    }
                };
                let ty = self.instantiate(x, &s, levels, span)?;
                done(TKind::Var(x.clone(), levels.clone()), ty)
            }
            TermKind::Let {
                name,
                levels,
                sig,
                rhs,
                body,
            } => {
                // (5.22)
                let (scheme, rhs) = self.let_binding(env, levels, sig.as_ref(), rhs)?;
                let mut inner = env.clone();
                inner.insert(name.clone(), Rc::new(scheme.clone()));
                let body = self.infer(&inner, body)?;
                let ty = body.ty.clone();
                done(
                    TKind::Let {
                        name: name.clone(),
                        scheme,
                        rhs: Box::new(rhs),
                        body: Box::new(body),
                    },
                    ty,
                )
            }
        }
    }
}

impl KindEnv for Infer {
    fn resolve(&self, t: &Type) -> Type {
        // Past the budget a placeholder ends the walk; the caller then reports the budget.
        if self.tick() {
            return Type::Unit;
        }
        self.shallow(t)
    }

    fn narrow(&mut self, v: u32, req: KindReq) {
        self.kinds[v as usize] = self.kinds[v as usize].meet(req);
    }

    fn show(&self, t: &Type) -> String {
        Infer::show(self, t)
    }
}

/// unifyLevel of §3.2 with rigid level variables: the levels must be equal. After stripping the
/// common `1+` prefixes, a variable facing a level that contains it is an occurs-check failure.
pub fn unify_level(l: Level, m: Level, span: Span) -> Result<(), Diagnostic> {
    if l == m {
        return Ok(());
    }
    let k = l.succs.min(m.succs);
    let a = Level {
        var: l.var,
        succs: l.succs - k,
    };
    let b = Level {
        var: m.var,
        succs: m.succs - k,
    };
    if a.var.is_some() && a.var == b.var {
        let (v, other) = if a.succs == 0 { (a, b) } else { (b, a) };
        return Err(Diagnostic::type_error(
            span,
            format!("Occurs check failed. `{v}` found in `{other}`"),
        ));
    }
    Err(Diagnostic::type_error(
        span,
        format!("Cannot unify levels:  `{a}` and `{b}`"),
    ))
}

/// A `sig` or let-annotation is only a check: the inferred type must be α-equivalent to the
/// annotation's (spec §3.4).
fn check_annotation(inferred: &Scheme, a: &Annotation) -> Result<(), Diagnostic> {
    let mut tys = (BTreeMap::new(), BTreeMap::new());
    let mut lvls = (BTreeMap::new(), BTreeMap::new());
    if alpha_eq(&inferred.ty, &a.scheme.ty, &mut tys, &mut lvls) {
        return Ok(());
    }
    Err(Diagnostic::type_error(
        a.span,
        format!(
            "Inferred type `{}` does not match signature type {}",
            inferred.render().replace('\n', ""),
            a.scheme.render().replace('\n', "")
        ),
    ))
}

type Bijection = (BTreeMap<u32, u32>, BTreeMap<u32, u32>);

fn same_var(map: &mut Bijection, x: u32, y: u32) -> bool {
    match (map.0.get(&x), map.1.get(&y)) {
        (None, None) => {
            map.0.insert(x, y);
            map.1.insert(y, x);
            true
        }
        (Some(y2), Some(x2)) => *y2 == y && *x2 == x,
        _ => false,
    }
}

fn alpha_eq_level(l: Level, m: Level, lvls: &mut Bijection) -> bool {
    l.succs == m.succs
        && match (l.var, m.var) {
            (None, None) => true,
            (Some(x), Some(y)) => same_var(lvls, x, y),
            _ => false,
        }
}

fn alpha_eq(t: &Type, u: &Type, tys: &mut Bijection, lvls: &mut Bijection) -> bool {
    match (t, u) {
        (Type::Var(x), Type::Var(y)) => same_var(tys, *x, *y),
        (Type::Fun(a, b), Type::Fun(c, d)) | (Type::Pair(a, b), Type::Pair(c, d)) => {
            alpha_eq(a, c, tys, lvls) && alpha_eq(b, d, tys, lvls)
        }
        (Type::Pull(a), Type::Pull(b)) => alpha_eq(a, b, tys, lvls),
        (Type::Push(a, l), Type::Push(b, m)) | (Type::Program(l, a), Type::Program(m, b)) => {
            alpha_eq_level(*l, *m, lvls) && alpha_eq(a, b, tys, lvls)
        }
        (Type::Int, Type::Int)
        | (Type::Double, Type::Double)
        | (Type::Bool, Type::Bool)
        | (Type::Str, Type::Str)
        | (Type::Unit, Type::Unit) => true,
        _ => false,
    }
}
