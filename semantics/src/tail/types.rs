//! TAIL types (thesis §3.1.1, spec §3.2): base types κ, array types `[κ]ρ`, shape vectors `<κ>ρ`,
//! singletons `S(κ,ρ)` and `SV(κ,ρ)`, tuples, functions and type variables. [`Type`]'s
//! `Display` writes TAIL syntax (spec §2.2).

use crate::tail::shape::Shape;
use crate::tail::value::BaseType;
use std::fmt;

/// A base type κ, or a base-type variable α.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Base {
    Known(BaseType),
    Var(u32),
}

/// A type τ.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    /// `[κ]ρ`: array of rank ρ.
    Arr(Base, Shape),
    /// `<κ>ρ`: vector of static length ρ.
    Vec(Base, Shape),
    /// `S(κ,ρ)`: scalar with static value ρ.
    S(Base, Shape),
    /// `SV(κ,ρ)`: one-element vector with static element ρ.
    SV(Base, Shape),
    /// `(τ1 * … * τk)`, k ≥ 2.
    Tuple(Vec<Type>),
    /// `τ -> τ'`.
    Fun(Box<Type>, Box<Type>),
    /// A type variable.
    Var(u32),
}

impl Type {
    /// `[κ]r` for a known κ and constant r.
    pub fn arr(b: BaseType, r: i64) -> Type {
        Type::Arr(Base::Known(b), Shape::lit(r))
    }

    /// `[κ]0`.
    pub fn scalar(b: BaseType) -> Type {
        Type::arr(b, 0)
    }

    /// `τ -> τ'`.
    pub fn fun(a: Type, b: Type) -> Type {
        Type::Fun(Box::new(a), Box::new(b))
    }
}

impl fmt::Display for Base {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Base::Known(b) => write!(f, "{}", b.name()),
            Base::Var(v) => write!(f, "'b{v}"),
        }
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::Arr(b, r) => write!(f, "[{b}]{r}"),
            Type::Vec(b, r) => write!(f, "<{b}>{r}"),
            Type::S(b, r) => write!(f, "S({b},{r})"),
            Type::SV(b, r) => write!(f, "SV({b},{r})"),
            Type::Tuple(ts) => {
                write!(f, "(")?;
                for (i, t) in ts.iter().enumerate() {
                    if i > 0 {
                        write!(f, " * ")?;
                    }
                    write!(f, "{t}")?;
                }
                write!(f, ")")
            }
            Type::Fun(a, b) => write!(f, "({a})->{b}"),
            Type::Var(v) => write!(f, "'a{v}"),
        }
    }
}
