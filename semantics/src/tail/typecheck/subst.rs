//! Unification variables and their solutions: base-type variables α, shape variables γ and type
//! variables, with unification of base types, shapes (linear, up to assoc/comm/constants) and
//! types.

use crate::tail::shape::{Shape, ShapeVar};
use crate::tail::types::{Base, Type};

/// The current solution of every unification variable.
#[derive(Default, Debug)]
pub struct Subst {
    bases: Vec<Option<Base>>,
    shapes: Vec<Option<Shape>>,
    types: Vec<Option<Type>>,
}

impl Subst {
    /// A fresh base-type variable α.
    pub fn fresh_base(&mut self) -> Base {
        self.bases.push(None);
        Base::Var(self.bases.len() as u32 - 1)
    }

    /// A fresh shape variable γ.
    pub fn fresh_shape(&mut self) -> Shape {
        self.shapes.push(None);
        Shape::var(self.shapes.len() as ShapeVar - 1)
    }

    /// A fresh type variable.
    pub fn fresh_type(&mut self) -> Type {
        self.types.push(None);
        Type::Var(self.types.len() as u32 - 1)
    }

    /// `[α]γ` with fresh α, γ.
    pub fn fresh_array(&mut self) -> Type {
        Type::Arr(self.fresh_base(), self.fresh_shape())
    }

    /// κ with bound variables replaced.
    pub fn base(&self, b: Base) -> Base {
        let mut b = b;
        while let Base::Var(v) = b {
            match self.bases.get(v as usize).copied().flatten() {
                Some(next) => b = next,
                None => break,
            }
        }
        b
    }

    /// ρ with bound variables replaced.
    pub fn shape(&self, s: &Shape) -> Shape {
        let mut s = s.clone();
        // Each round replaces bound variables by their (older) solutions; solutions never
        // mention their own variable, so this terminates.
        for _ in 0..=self.shapes.len() {
            let mut changed = false;
            let next = s.substitute(&mut |v| {
                let r = self.shapes.get(v as usize).cloned().flatten();
                changed |= r.is_some();
                r
            });
            s = next;
            if !changed {
                break;
            }
        }
        s
    }

    /// The outermost constructor of τ, with a bound type variable replaced.
    pub fn head(&self, t: &Type) -> Type {
        let mut t = t.clone();
        while let Type::Var(v) = t {
            match self.types.get(v as usize).cloned().flatten() {
                Some(next) => t = next,
                None => break,
            }
        }
        t
    }

    /// τ with every bound variable replaced (for messages and results).
    pub fn resolve(&self, t: &Type) -> Type {
        match self.head(t) {
            Type::Arr(b, r) => Type::Arr(self.base(b), self.shape(&r)),
            Type::Vec(b, r) => Type::Vec(self.base(b), self.shape(&r)),
            Type::S(b, r) => Type::S(self.base(b), self.shape(&r)),
            Type::SV(b, r) => Type::SV(self.base(b), self.shape(&r)),
            Type::Tuple(ts) => Type::Tuple(ts.iter().map(|t| self.resolve(t)).collect()),
            Type::Fun(a, b) => Type::fun(self.resolve(&a), self.resolve(&b)),
            v @ Type::Var(_) => v,
        }
    }

    /// Makes κ and κ' equal.
    pub fn unify_base(&mut self, a: Base, b: Base) -> bool {
        match (self.base(a), self.base(b)) {
            (Base::Known(x), Base::Known(y)) => x == y,
            (Base::Var(x), Base::Var(y)) if x == y => true,
            (Base::Var(x), other) | (other, Base::Var(x)) => {
                self.bases[x as usize] = Some(other);
                true
            }
        }
    }

    /// Makes ρ and ρ' equal: solves `ρ − ρ' = 0` for a variable with coefficient ±1. An equation
    /// with no such variable is left unsolved (accepted), as apltail leaves pending constraints.
    pub fn unify_shape(&mut self, a: &Shape, b: &Shape) -> bool {
        let d = self.shape(&a.sub(b));
        if let Some(k) = d.as_const() {
            return k == 0;
        }
        let Some(&(v, c)) = d.terms().iter().find(|(_, c)| c.abs() == 1) else {
            return true;
        };
        // c·v + rest = 0  ⇒  v = −rest / c
        let rest = d.sub(&Shape::var(v).scale(c));
        self.shapes[v as usize] = Some(rest.scale(-c));
        true
    }

    fn occurs(&self, v: u32, t: &Type) -> bool {
        match self.head(t) {
            Type::Var(w) => v == w,
            Type::Tuple(ts) => ts.iter().any(|t| self.occurs(v, t)),
            Type::Fun(a, b) => self.occurs(v, &a) || self.occurs(v, &b),
            _ => false,
        }
    }

    /// Makes τ and τ' equal.
    pub fn unify(&mut self, a: &Type, b: &Type) -> bool {
        match (self.head(a), self.head(b)) {
            (Type::Var(x), Type::Var(y)) if x == y => true,
            (Type::Var(x), t) | (t, Type::Var(x)) => {
                if self.occurs(x, &t) {
                    return false;
                }
                self.types[x as usize] = Some(t);
                true
            }
            (Type::Arr(k, r), Type::Arr(l, s))
            | (Type::Vec(k, r), Type::Vec(l, s))
            | (Type::S(k, r), Type::S(l, s))
            | (Type::SV(k, r), Type::SV(l, s)) => self.unify_base(k, l) && self.unify_shape(&r, &s),
            (Type::Tuple(ts), Type::Tuple(us)) => {
                ts.len() == us.len() && ts.iter().zip(&us).all(|(t, u)| self.unify(t, u))
            }
            (Type::Fun(a1, b1), Type::Fun(a2, b2)) => self.unify(&a1, &a2) && self.unify(&b1, &b2),
            _ => false,
        }
    }
}
