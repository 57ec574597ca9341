//! Subtyping (thesis (3.1)–(3.5); the strengthened `⊆s` of (3.49)) and join, decided
//! structurally as apltail does (spec §3.3–§3.4): variables are unified as needed.

use super::subst::Subst;
use crate::tail::shape::Shape;
use crate::tail::types::Type;

/// Which subtyping relation applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Relation {
    /// `⊆`: rules (3.1)–(3.5), apltail's relation.
    Full,
    /// `⊆s`: the store semantics' relation, without (3.4) `SV ⊆ <κ>1` (3.49).
    Strengthened,
}

impl Subst {
    /// `t ≤ u`, binding variables to make it hold where possible.
    pub fn subtype(&mut self, t: &Type, u: &Type, rel: Relation) -> bool {
        let (t, u) = (self.head(t), self.head(u));
        match (&t, &u) {
            // (3.1) reflexivity, and S ⊆ S only when equal
            (Type::S(..), Type::S(..))
            | (Type::SV(..), Type::SV(..))
            | (Type::Vec(..), Type::Vec(..)) => self.unify(&t, &u),
            // (3.5) S(κ,n) ⊆ [κ]0
            (Type::S(k, _), _) => self.unify(&u, &Type::Arr(*k, Shape::lit(0))),
            // (3.4) SV(κ,n) ⊆ <κ>1, then (3.2)+(3.3) up to [κ]1
            (Type::SV(k, _), Type::Vec(l, m)) if rel == Relation::Full => {
                self.unify_base(*k, *l) && self.unify_shape(m, &Shape::lit(1))
            }
            (Type::SV(k, _), _) | (Type::Vec(k, _), _) => {
                // (3.3) <κ>n ⊆ [κ]1
                self.unify(&u, &Type::Arr(*k, Shape::lit(1)))
            }
            (Type::Tuple(ts), Type::Tuple(us)) => {
                ts.len() == us.len() && ts.iter().zip(us).all(|(t, u)| self.subtype(t, u, rel))
            }
            _ => self.unify(&t, &u),
        }
    }

    /// The least upper bound `t ⊔ u` (spec §3.4), or `None` when there is none.
    pub fn join(&mut self, t: &Type, u: &Type) -> Option<Type> {
        let (t, u) = (self.head(t), self.head(u));
        match (&t, &u) {
            (Type::S(k, n), Type::S(l, m))
            | (Type::SV(k, n), Type::SV(l, m))
            | (Type::Vec(k, n), Type::Vec(l, m)) => {
                if !self.unify_base(*k, *l) {
                    return None;
                }
                if self.shape(n) == self.shape(m) {
                    return Some(t);
                }
                Some(match t {
                    Type::S(..) => Type::Arr(*k, Shape::lit(0)),
                    Type::SV(..) => Type::Vec(*k, Shape::lit(1)),
                    _ => Type::Arr(*k, Shape::lit(1)),
                })
            }
            (Type::S(k, _), _) => self.join(&Type::Arr(*k, Shape::lit(0)), &u),
            (_, Type::S(k, _)) => self.join(&t, &Type::Arr(*k, Shape::lit(0))),
            (Type::SV(k, _), _) => self.join(&Type::Vec(*k, Shape::lit(1)), &u),
            (_, Type::SV(k, _)) => self.join(&t, &Type::Vec(*k, Shape::lit(1))),
            (Type::Vec(k, _), _) => self.join(&Type::Arr(*k, Shape::lit(1)), &u),
            (_, Type::Vec(k, _)) => self.join(&t, &Type::Arr(*k, Shape::lit(1))),
            (Type::Tuple(ts), Type::Tuple(us)) if ts.len() == us.len() => {
                let parts: Option<Vec<Type>> =
                    ts.iter().zip(us).map(|(t, u)| self.join(t, u)).collect();
                parts.map(Type::Tuple)
            }
            _ => self.unify(&t, &u).then_some(t),
        }
    }
}
