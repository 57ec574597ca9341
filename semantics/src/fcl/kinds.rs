//! Kinds ([T] rules 5.1–5.12) as constraints on inference variables.
//!
//! The thesis sorts types into three kinds, each contained in the next (5.7, 5.8):
//! **BT**, the base types `int`, `double`, `bool` and pairs of them (5.1–5.6); **GT**, the ground
//! types: BT, `unit`, pairs of GT, pull arrays of GT (5.10), push arrays of BT (5.11) and programs
//! (5.12); **TYP**, everything, functions included (5.9). The original compiler has no kinds; the
//! oracle must reject what the formal system rejects, so inference enforces them:
//!
//! * every instantiated type is *well-kinded*: a pull array's elements are GT (5.10), a push
//!   array's BT (5.11), a program's result GT (5.12, read as GT: every example has
//!   `Program<l> [α]`, which 5.12 as printed, demanding BT, would reject);
//! * an `if`'s branches are BT (5.20);
//! * a constraint on a type variable rides on it: binding the variable checks the type it is
//!   bound to, generalisation records it in the scheme (`∀α:κ. τ`) and instantiation gives it to
//!   the fresh variable.
//!
//! `check` prints schemes without kinds, as the original does, so its output stays comparable.
//! Strings (only `readIntCSV`'s argument, not in the thesis) are ground, not base.

use super::types::Type;
use crate::{Diagnostic, Span};

/// A kind, narrowest first: `Base ⊂ Ground ⊂ Any` (5.7, 5.8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// BT: `int`, `double`, `bool`, pairs of BT.
    Base,
    /// GT: no function types anywhere a value is stored.
    Ground,
    /// TYP: any type.
    Any,
}

/// A kind demanded of a type, with the rule that demands it (for the diagnostic).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KindReq {
    pub kind: Kind,
    /// The thesis rule, e.g. `5.20`.
    pub rule: &'static str,
}

impl KindReq {
    /// No constraint (TYP, which every type has).
    pub const ANY: KindReq = KindReq {
        kind: Kind::Any,
        rule: "5.9",
    };
    /// Pull-array elements (5.10).
    pub const PULL_ELEM: KindReq = KindReq {
        kind: Kind::Ground,
        rule: "5.10",
    };
    /// Push-array elements (5.11).
    pub const PUSH_ELEM: KindReq = KindReq {
        kind: Kind::Base,
        rule: "5.11",
    };
    /// A program's result (5.12, read as GT).
    pub const PROGRAM_RESULT: KindReq = KindReq {
        kind: Kind::Ground,
        rule: "5.12",
    };
    /// The branches of an `if` (5.20).
    pub const IF_BRANCH: KindReq = KindReq {
        kind: Kind::Base,
        rule: "5.20",
    };

    /// The narrower of two constraints (the first on a tie, so the older reason is kept).
    pub fn meet(self, other: KindReq) -> KindReq {
        if other.kind < self.kind {
            other
        } else {
            self
        }
    }

    /// The diagnostic for a type `found` (printed) that does not have this kind.
    pub fn violated(self, span: Span, found: &str) -> Diagnostic {
        let what = match self.rule {
            "5.10" => "pull array elements must have a ground type (no functions)",
            "5.11" => {
                "push array elements must have a base type (int, double, bool or pairs of them)"
            }
            "5.12" => "a program's result must have a ground type (no functions)",
            "5.20" => "if branches must have a base type (int, double, bool or pairs of them)",
            _ => "the type has the wrong kind",
        };
        Diagnostic::rule_error(span, self.rule, format!("{what}, found `{found}`"))
    }
}

/// What checking a type against a kind needs from inference: following the substitution at the
/// top of a type, and reading and narrowing the constraints of unbound variables.
pub trait KindEnv {
    /// The type with the substitution applied at its top (an unbound variable stays a variable).
    fn resolve(&self, t: &Type) -> Type;
    /// Narrows the constraint of the unbound variable `v` to `req`.
    fn narrow(&mut self, v: u32, req: KindReq);
    /// The type, fully substituted and printed, for a diagnostic.
    fn show(&self, t: &Type) -> String;
}

/// Checks that `t` has the kind `req` demands, narrowing the constraints of the variables in it.
pub fn require(
    env: &mut impl KindEnv,
    t: &Type,
    req: KindReq,
    span: Span,
) -> Result<(), Diagnostic> {
    let t = env.resolve(t);
    let ok = match (&t, req.kind) {
        (_, Kind::Any) => return well_kinded(env, &t, span),
        (Type::Var(v), _) => {
            env.narrow(*v, req);
            return Ok(());
        }
        (Type::Int | Type::Double | Type::Bool, _) => true, // (5.1–5.3)
        (Type::Pair(a, b), _) => {
            // (5.6) pairs of BT are BT; pairs of GT are GT
            require(env, a, req, span)?;
            return require(env, b, req, span);
        }
        (Type::Unit | Type::Str, Kind::Ground) => true, // (5.4)
        (Type::Pull(_) | Type::Push(..) | Type::Program(..), Kind::Ground) => {
            // (5.10–5.12): ground when their elements are
            return well_kinded(env, &t, span);
        }
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        Err(req.violated(span, &env.show(&t)))
    }
}

/// Checks that every array and program inside `t` holds elements of its kind (5.10–5.12).
pub fn well_kinded(env: &mut impl KindEnv, t: &Type, span: Span) -> Result<(), Diagnostic> {
    match env.resolve(t) {
        Type::Pull(a) => require(env, &a, KindReq::PULL_ELEM, span),
        Type::Push(a, _) => require(env, &a, KindReq::PUSH_ELEM, span),
        Type::Program(_, a) => require(env, &a, KindReq::PROGRAM_RESULT, span),
        Type::Fun(a, b) | Type::Pair(a, b) => {
            well_kinded(env, &a, span)?;
            well_kinded(env, &b, span)
        }
        _ => Ok(()),
    }
}

/// Kind checking of closed types (after monomorphization), where there is nothing to resolve or
/// narrow: the monomorphizer re-checks kinds there as a soundness check.
pub struct Closed;

impl KindEnv for Closed {
    fn resolve(&self, t: &Type) -> Type {
        t.clone()
    }

    fn narrow(&mut self, _: u32, _: KindReq) {}

    fn show(&self, t: &Type) -> String {
        t.to_string()
    }
}
