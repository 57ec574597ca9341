//! The TAIL type checker: thesis rules (3.6)–(3.26) and (3.49)–(3.51), with apltail's operator
//! typing (spec §3.5–§3.7). Annotated monotypes on every binder, operator schemes instantiated
//! afresh at each use, unification of base-type, shape and type variables.

mod lattice;
pub mod operators;
mod subst;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_operators;

pub use lattice::Relation;
pub use subst::Subst;

use crate::tail::shape::Shape;
use crate::tail::syntax::{Expr, ExprKind};
use crate::tail::types::{Base, Type};
use crate::tail::value::{Array, BaseType, Scalar};
use crate::{Diagnostic, Span};
use std::collections::HashMap;

/// Deepest expression nesting checked (the parser accepts less; `let` bodies do not count).
const MAX_DEPTH: usize = 2 * crate::tail::parser::MAX_DEPTH;

/// `t ≤ u` under `rel` (thesis (3.1)–(3.5), or `⊆s` of (3.49)), with the variables of both
/// types free to be unified.
pub fn is_subtype(t: &Type, u: &Type, rel: Relation) -> bool {
    Subst::default().subtype(t, u, rel)
}

/// The type of a closed program, e.g. `[double]0` (type errors name both types).
pub fn typecheck(e: &Expr) -> Result<Type, Diagnostic> {
    typecheck_with_store(e, &[], Relation::Full)
}

/// The type of `e` under a store typing Σ (thesis (3.50)/(3.51)): each `(l, τ)` gives a free
/// name (a location) its type. `rel` picks the subsumption relation: [`Relation::Strengthened`]
/// is the store semantics' `⊆s` (3.49).
pub fn typecheck_with_store(
    e: &Expr,
    sigma: &[(String, Type)],
    rel: Relation,
) -> Result<Type, Diagnostic> {
    crate::tail::parser::on_deep_stack(|| typecheck_here(e, sigma, rel))
}

fn typecheck_here(e: &Expr, sigma: &[(String, Type)], rel: Relation) -> Result<Type, Diagnostic> {
    let mut c = Checker::new(rel);
    for (l, t) in sigma {
        let t = c.annotation(t);
        c.env.entry(l.clone()).or_default().push(t);
    }
    let t = c.check(e)?;
    Ok(c.s.resolve(&t))
}

/// The element type of every `zilde` application in a closed program, by its span, as the
/// program's context fixes it (an unconstrained one is `int`, the type printing uses).
pub fn zilde_instances(e: &Expr) -> Result<Vec<(Span, BaseType)>, Diagnostic> {
    crate::tail::parser::on_deep_stack(|| {
        let mut c = Checker::new(Relation::Full);
        c.check(e)?;
        Ok(c.zildes
            .iter()
            .map(|&(span, b)| match c.s.base(b) {
                Base::Known(k) => (span, k),
                Base::Var(_) => (span, BaseType::Int),
            })
            .collect())
    })
}

/// The type of an array value in the store (thesis (3.11)–(3.16)): a scalar int or bool `n` is
/// `S(κ,n)` (3.13)–(3.15), a one-element int/bool vector `SV(κ,n)` (3.16), any other vector
/// `<κ>n` (3.12), and an array of rank r `[κ]r` (3.11).
pub fn array_type(a: &Array) -> Type {
    let k = a.base_type();
    let static_value = |x: Scalar| match x {
        Scalar::Int(n) => Some(i64::from(n)),
        Scalar::Bool(b) => Some(i64::from(b)),
        _ => None,
    };
    let first = (a.size() > 0)
        .then(|| a.elems.get(0))
        .and_then(static_value);
    match (a.rank(), a.size(), first) {
        (0, _, Some(n)) => Type::S(Base::Known(k), Shape::lit(n)),
        (1, 1, Some(n)) => Type::SV(Base::Known(k), Shape::lit(n)),
        (1, len, _) => Type::Vec(Base::Known(k), Shape::lit(len as i64)),
        (r, _, _) => Type::arr(k, r as i64),
    }
}

/// The store typing Σ of a store (3.51): each location with its array's type.
pub fn store_typing(store: &[(String, Array)]) -> Vec<(String, Type)> {
    store
        .iter()
        .map(|(l, a)| (l.clone(), array_type(a)))
        .collect()
}

/// The checker's state: the substitution, the environment Γ and the relation in use.
pub struct Checker {
    pub s: Subst,
    env: HashMap<String, Vec<Type>>,
    rel: Relation,
    /// Annotation variables (`'a3`) to their checker variables, by kind and number.
    named: HashMap<(u8, u32), Type>,
    depth: usize,
    /// The element type of every `zilde` met, by the span of its application: `zilde` is
    /// polymorphic, and a compiler needs the instance its context chose.
    zildes: Vec<(Span, Base)>,
}

impl Checker {
    fn new(rel: Relation) -> Checker {
        Checker {
            s: Subst::default(),
            env: HashMap::new(),
            rel,
            named: HashMap::new(),
            depth: 0,
            zildes: Vec::new(),
        }
    }

    /// A type error at `span`.
    fn error(&self, span: Span, msg: impl Into<String>) -> Diagnostic {
        Diagnostic::type_error(span, msg)
    }

    /// "expected τ, found τ'" with both types resolved.
    fn mismatch(&self, span: Span, what: &str, expected: &Type, found: &Type) -> Diagnostic {
        self.error(
            span,
            format!(
                "{what}: expected {}, found {}",
                self.s.resolve(expected),
                self.s.resolve(found)
            ),
        )
    }

    /// `found ≤ expected`, or a type error naming both.
    fn require_sub(
        &mut self,
        span: Span,
        what: &str,
        found: &Type,
        expected: &Type,
    ) -> Result<(), Diagnostic> {
        if self.s.subtype(found, expected, self.rel) {
            Ok(())
        } else {
            Err(self.mismatch(span, what, expected, found))
        }
    }

    /// `found = expected`, or a type error naming both.
    fn require_eq(
        &mut self,
        span: Span,
        what: &str,
        found: &Type,
        expected: &Type,
    ) -> Result<(), Diagnostic> {
        if self.s.unify(found, expected) {
            Ok(())
        } else {
            Err(self.mismatch(span, what, expected, found))
        }
    }

    /// An annotation's type with its named variables made checker variables (spec §2.2: an
    /// unresolved `'a0` in an annotation stands for a fresh variable).
    fn annotation(&mut self, t: &Type) -> Type {
        match t {
            Type::Arr(b, r) => Type::Arr(self.ann_base(*b), self.ann_shape(r)),
            Type::Vec(b, r) => Type::Vec(self.ann_base(*b), self.ann_shape(r)),
            Type::S(b, r) => Type::S(self.ann_base(*b), self.ann_shape(r)),
            Type::SV(b, r) => Type::SV(self.ann_base(*b), self.ann_shape(r)),
            Type::Tuple(ts) => Type::Tuple(ts.iter().map(|t| self.annotation(t)).collect()),
            Type::Fun(a, b) => Type::fun(self.annotation(a), self.annotation(b)),
            Type::Var(v) => {
                let s = &mut self.s;
                self.named
                    .entry((0, *v))
                    .or_insert_with(|| s.fresh_type())
                    .clone()
            }
        }
    }

    fn ann_base(&mut self, b: Base) -> Base {
        match b {
            Base::Known(_) => b,
            Base::Var(v) => {
                let s = &mut self.s;
                let t = self
                    .named
                    .entry((1, v))
                    .or_insert_with(|| Type::Arr(s.fresh_base(), Shape::lit(0)));
                match t {
                    Type::Arr(b, _) => *b,
                    _ => b,
                }
            }
        }
    }

    fn ann_shape(&mut self, r: &Shape) -> Shape {
        let mut fresh = Vec::new();
        for &(v, _) in r.terms() {
            let s = &mut self.s;
            let t = self
                .named
                .entry((2, v))
                .or_insert_with(|| Type::Arr(Base::Known(BaseType::Int), s.fresh_shape()));
            if let Type::Arr(_, g) = t {
                fresh.push((v, g.clone()));
            }
        }
        r.substitute(&mut |v| fresh.iter().find(|(w, _)| *w == v).map(|(_, g)| g.clone()))
    }

    fn bind(&mut self, x: &str, t: Type) {
        self.env.entry(x.to_string()).or_default().push(t);
    }

    fn unbind(&mut self, x: &str) {
        if let Some(ts) = self.env.get_mut(x) {
            ts.pop();
        }
    }

    /// `Γ ⊢ e : τ`.
    pub fn check(&mut self, e: &Expr) -> Result<Type, Diagnostic> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.error(e.span, "nesting too deep"));
        }
        let t = self.check_node(e);
        self.depth -= 1;
        t
    }

    fn check_node(&mut self, e: &Expr) -> Result<Type, Diagnostic> {
        match &e.kind {
            // (3.7)–(3.10), (3.13)–(3.15) literals; (3.17) closed values type anywhere
            ExprKind::Lit(x) => Ok(literal_type(x)),
            // (3.20) x : τ if Γ(x) = τ (monotypes: no generalisation in apltail)
            ExprKind::Var(x) => match self.env.get(x).and_then(|ts| ts.last()) {
                Some(t) => Ok(t.clone()),
                None => Err(self.error(e.span, format!("unbound variable `{x}`"))),
            },
            // (3.25) let, with annotated monotypes and (3.21) subsumption at the binding
            ExprKind::Let { .. } => self.check_lets(e),
            // (3.18) λx.e : τ → τ'
            ExprKind::Fn { param, ty, body } => {
                let t = self.annotation(ty);
                self.bind(param, t.clone());
                let r = self.check(body);
                self.unbind(param);
                Ok(Type::fun(t, r?))
            }
            // apltail's `if` (spec §3.5): condition ≤ [bool]0, branches joined
            ExprKind::If(c, a, b) => {
                let tc = self.check(c)?;
                self.require_sub(c.span, "if condition", &tc, &Type::scalar(BaseType::Bool))?;
                let ta = self.check(a)?;
                let tb = self.check(b)?;
                match self.s.join(&ta, &tb) {
                    Some(t) => Ok(t),
                    None => Err(self.mismatch(b.span, "if branches differ", &ta, &tb)),
                }
            }
            // apltail's tuple projection (spec §3.5), 0-based
            ExprKind::Prj(i, x) => {
                let t = self.check(x)?;
                match self.s.head(&t) {
                    Type::Tuple(ts) if *i < ts.len() => Ok(ts[*i].clone()),
                    _ => Err(self.error(
                        e.span,
                        format!(
                            "Prj({i},…): expected a tuple of more than {i} components, found {}",
                            self.s.resolve(&t)
                        ),
                    )),
                }
            }
            // apltail's tuples: componentwise
            ExprKind::Tuple(es) => {
                let ts = es.iter().map(|x| self.check(x)).collect::<Result<_, _>>()?;
                Ok(Type::Tuple(ts))
            }
            // (3.19), (3.22), (3.23) vector literals
            ExprKind::Vector(es) => self.check_vector(e.span, es),
            // (3.26) op(e⃗) : τ if TySc(op) ≥ τ⃗ → τ; the operator applies function arguments,
            // which is where (3.24) application happens (TAIL has no application syntax)
            ExprKind::App { op, args } => {
                if args.len() != op.arity() {
                    // The parser rejects these; ASTs built in code may not.
                    return Err(self.error(
                        e.span,
                        format!(
                            "`{}` takes {} argument(s), found {}",
                            op.name(),
                            op.arity(),
                            args.len()
                        ),
                    ));
                }
                let ts = args
                    .iter()
                    .map(|x| self.check(x))
                    .collect::<Result<Vec<_>, _>>()?;
                self.op_type(*op, e.span, args, &ts)
            }
            // (2.4) a bare operator is `fn x1 => … => fn xn => op(x1,…,xn)`
            ExprKind::OpValue(op) => {
                let params: Vec<Type> = (0..op.arity()).map(|_| self.s.fresh_type()).collect();
                let args: Vec<Expr> = params
                    .iter()
                    .map(|_| Expr::new(ExprKind::Var(String::new()), e.span))
                    .collect();
                let mut t = self.op_type(*op, e.span, &args, &params)?;
                for p in params.into_iter().rev() {
                    t = Type::fun(p, t);
                }
                Ok(t)
            }
        }
    }

    /// (3.25) `let x:τ = e1 in e2`, for a whole chain of `let`s without recursion: e1's type must
    /// be a subtype of τ, and x has type τ in e2.
    fn check_lets(&mut self, e: &Expr) -> Result<Type, Diagnostic> {
        let mut bound_names = Vec::new();
        let mut cur = e;
        let result = loop {
            let ExprKind::Let {
                var,
                ty,
                bound,
                body,
            } = &cur.kind
            else {
                break self.check(cur);
            };
            let t1 = match self.check(bound) {
                Ok(t) => t,
                Err(d) => break Err(d),
            };
            let t = self.annotation(ty);
            if let Err(d) = self.require_sub(bound.span, &format!("`{var}`'s annotation"), &t1, &t)
            {
                break Err(d);
            }
            self.bind(var, t);
            bound_names.push(var);
            cur = body;
        };
        for x in bound_names {
            self.unbind(x);
        }
        result
    }

    /// (3.11)/(3.19)/(3.22)/(3.23) with apltail's rule (spec §3.5): int and bool literals give
    /// `<κ>n` (or `SV(κ,k)` for one singleton), other element types `[κ]1`.
    fn check_vector(&mut self, span: Span, es: &[Expr]) -> Result<Type, Diagnostic> {
        let ts = es
            .iter()
            .map(|x| self.check(x))
            .collect::<Result<Vec<_>, _>>()?;
        if ts.is_empty() {
            // `[]`, as `zilde()` (spec §2.1)
            return Ok(Type::Vec(self.s.fresh_base(), Shape::lit(0)));
        }
        for k in [BaseType::Int, BaseType::Bool] {
            let is_k = |s: &Subst, t: &Type| match s.head(t) {
                Type::S(b, _) => s.base(b) == Base::Known(k),
                Type::Arr(b, r) => s.base(b) == Base::Known(k) && s.shape(&r).as_const() == Some(0),
                _ => false,
            };
            if ts.iter().any(|t| is_k(&self.s, t)) {
                for (x, t) in es.iter().zip(&ts) {
                    self.require_sub(x.span, "vector element", t, &Type::scalar(k))?;
                }
                if let [t] = ts.as_slice() {
                    if let Type::S(b, n) = self.s.head(t) {
                        return Ok(Type::SV(b, n));
                    }
                }
                return Ok(Type::Vec(Base::Known(k), Shape::lit(ts.len() as i64)));
            }
        }
        let first = ts[0].clone();
        let elem = Type::Arr(self.s.fresh_base(), Shape::lit(0));
        self.require_eq(
            es[0].span,
            "vector element (must be a scalar)",
            &first,
            &elem,
        )?;
        for (x, t) in es.iter().zip(&ts).skip(1) {
            self.require_eq(x.span, "vector element", t, &first)?;
        }
        let Type::Arr(b, _) = elem else {
            return Err(self.error(span, "vector element"));
        };
        Ok(Type::Arr(b, Shape::lit(1)))
    }
}

/// (3.7)–(3.10), (3.13)–(3.15): literal types, with apltail's singletons for int and bool.
pub fn literal_type(x: &Scalar) -> Type {
    match *x {
        Scalar::Int(n) => Type::S(Base::Known(BaseType::Int), Shape::lit(i64::from(n))),
        Scalar::Bool(b) => Type::S(Base::Known(BaseType::Bool), Shape::lit(i64::from(b))),
        Scalar::Double(_) => Type::scalar(BaseType::Double),
        Scalar::Char(_) => Type::scalar(BaseType::Char),
        Scalar::Complex(_) => Type::scalar(BaseType::Complex),
    }
}
#[cfg(test)]
mod tests_fuzz;
#[cfg(test)]
mod tests_programs;
#[cfg(test)]
mod tests_roundtrip;
