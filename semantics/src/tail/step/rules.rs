//! The names of the reduction rules, by thesis number.
//!
//! Rules the thesis states keep their numbers: (3.54) let, (3.55) β, (3.56) alloc (of the store
//! semantics, which replace 3.29–3.31), (3.32)/(3.33) the scalar operators ("the other scalar
//! operators follow by analogy": integer, boolean, character and conversion operators are named
//! 3.32, double and complex ones 3.33), (3.34)–(3.46) and (3.57)–(3.60). Every step names one rule
//! as `"<number> <operator or rule name>"`, e.g. `3.32 addi`, `3.56 alloc`, `3.59 power`.
//!
//! The thesis leaves out the rules for `rotate`, `cat`, `cons`, `snoc`, `drop`, `compress`,
//! `replicate`, `scan` and the V-forms, and has no `zipWith`, `idxS`, `gradeUp`, `pr*`, tuple or
//! `if` rules. They are numbered from 3.61 on here, in the thesis's style (`s(l)` reads the store,
//! `l'` is fresh, `⟦op⟧` is the meaning of spec §5 implemented in [`crate::tail::ops`]):
//!
//! ```text
//!   s(l⃗) = arr⃗   ⟦op⟧(arr⃗) = arr'   s' = s, {l' ↦ arr'}
//!   ───────────────────────────────────────────────────  (3.61)–(3.78), one per operator group
//!              op(l⃗)/s ↪ l'/s'                             below; ⟦op⟧(arr⃗) undefined ↪ err
//! ```
//!
//! | number | operators |
//! |---|---|
//! | 3.61 | `drop` |
//! | 3.62 | `rotate`, `vrotate` |
//! | 3.63 | `cat` |
//! | 3.64 | `cons`, `snoc` |
//! | 3.65 | `compress` |
//! | 3.66 | `replicate` (its first argument is not evaluated: the context is `replicate(e, v⃗ E e⃗)`) |
//! | 3.67 | `scan`: `scan(v_f, l_z, l) ↪ reshape0(δ, [y⃗])` with `y_0 = a_0`, `y_j = v_f a_j y_(j−1)` per row |
//! | 3.68 | `zipWith`: `zipWith(v_f, l_a, l_b) ↪ reshape0(δ, [v_f a_0 b_0, …])` when both shapes are δ |
//! | 3.69 | `shape`, `rav` |
//! | 3.70 | `vreverse` |
//! | 3.71 | `idxS` |
//! | 3.72 | `gradeUp`, `gradeDown` |
//! | 3.73 | `prArr*`, `prScl*`: `pr(l)/s ↪ l/s`, writing `s(l)` to standard output |
//! | 3.74 | `formatI`, `formatD`, `formatX` |
//! | 3.75 | `readFile`, `readIntVecFile`, `readDoubleVecFile`, `roll`, `nowi`, `mem`, `memScl` |
//! | 3.76 | `condScl`: `condScl(v_f, l_b, l) ↪ v_f l` if `s(l_b) = tt`, else `l` |
//! | 3.77 | `zilde()`, `pi()` |
//! | 3.78 | tuples `(v⃗)` (a tuple of values is a value; the step marks its completion), `Prj(i, (v⃗)) ↪ v_i` |
//! | 3.79 | `if l then e1 else e2 ↪ e1` if `s(l) = tt`, else `e2` |
//!
//! `each`, `reduce`, `zipWith` and `scan` take one step to decompose the redex into applications
//! (the thesis's `reshape0(δ, [v_f a_0, …])`), one β step per application (3.55, allocating the
//! element as a location), and a final `reshape0` step that stores the result array.
//! `powerScl` and `bench` step like `power` (3.59/3.60).

use crate::tail::ops::prim::Prim;
use std::fmt;

/// A rule of the reduction relation: its number and a short name (`3.32` `addi`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rule {
    pub number: &'static str,
    pub name: &'static str,
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.number, self.name)
    }
}

impl Rule {
    pub const LET: Rule = Rule::new("3.54", "let");
    pub const BETA: Rule = Rule::new("3.55", "beta");
    pub const ALLOC: Rule = Rule::new("3.56", "alloc");
    pub const RESHAPE0: Rule = Rule::new("3.36", "reshape0");
    pub const POWER: Rule = Rule::new("3.59", "power");
    pub const POWER_DONE: Rule = Rule::new("3.60", "power");
    pub const TUPLE: Rule = Rule::new("3.78", "tuple");
    pub const PRJ: Rule = Rule::new("3.78", "prj");
    pub const IF: Rule = Rule::new("3.79", "if");
    /// Not a rule: the configuration is stuck (only ill-typed terms get here).
    pub const STUCK: Rule = Rule::new("stuck", "ill-typed");

    /// A rule with this number and name.
    pub const fn new(number: &'static str, name: &'static str) -> Rule {
        Rule { number, name }
    }

    /// The rule that reduces a redex `op(v⃗)`; `name` is the operator as spelled (`takeV`).
    pub fn for_op(p: Prim, name: &'static str) -> Rule {
        Rule::new(op_number(p, false), name)
    }

    /// The rule that takes a redex `op(v⃗)` to `err` (3.35 iota, 3.42 transp2, 3.58 update; the
    /// operator's own number where the thesis has no separate error rule).
    pub fn for_op_error(p: Prim, name: &'static str) -> Rule {
        Rule::new(op_number(p, true), name)
    }
}

fn op_number(p: Prim, error: bool) -> &'static str {
    use Prim as P;
    match p {
        P::Iota if error => "3.35",
        P::Iota => "3.34",
        P::Each => "3.36",
        P::Reduce => "3.37",
        P::Reshape => "3.38",
        P::Transp => "3.40",
        P::Transp2 if error => "3.42",
        P::Transp2 => "3.41",
        P::Take => "3.43",
        P::First => "3.45",
        P::Idxassign if error => "3.58",
        P::Idxassign => "3.57",
        P::Power | P::PowerScl | P::Bench => "3.59",
        P::Drop => "3.61",
        P::Rotate | P::Vrotate => "3.62",
        P::Cat => "3.63",
        P::Cons | P::Snoc => "3.64",
        P::Compress => "3.65",
        P::Replicate => "3.66",
        P::Scan => "3.67",
        P::ZipWith => "3.68",
        P::Shape | P::Rav => "3.69",
        P::Vreverse => "3.70",
        P::IdxS => "3.71",
        P::GradeUp | P::GradeDown => "3.72",
        P::PrArrI
        | P::PrArrB
        | P::PrArrD
        | P::PrArrC
        | P::PrArrX
        | P::PrSclI
        | P::PrSclB
        | P::PrSclD
        | P::PrSclC
        | P::PrSclX => "3.73",
        P::FormatI | P::FormatD | P::FormatX => "3.74",
        P::ReadFile
        | P::ReadIntVecFile
        | P::ReadDoubleVecFile
        | P::Roll
        | P::Nowi
        | P::Mem
        | P::MemScl => "3.75",
        P::CondScl => "3.76",
        P::Zilde | P::Pi => "3.77",
        P::Addd
        | P::Subd
        | P::Muld
        | P::Divd
        | P::Powd
        | P::Maxd
        | P::Mind
        | P::Resd
        | P::Negd
        | P::Absd
        | P::Expd
        | P::Ln
        | P::Sin
        | P::Cos
        | P::Tan
        | P::Asin
        | P::Acos
        | P::Atan
        | P::Sinh
        | P::Cosh
        | P::Tanh
        | P::Signd
        | P::Floor
        | P::Ceil
        | P::Ltd
        | P::Lted
        | P::Gtd
        | P::Gted
        | P::Eqd
        | P::Addx
        | P::Subx
        | P::Mulx
        | P::Injx
        | P::Rex
        | P::Imx
        | P::Negx
        | P::Conjx
        | P::Expx
        | P::Magnx
        | P::D2x => "3.33",
        _ => "3.32",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_names() {
        assert_eq!(Rule::for_op(Prim::Addi, "addi").to_string(), "3.32 addi");
        assert_eq!(Rule::for_op(Prim::Muld, "muld").to_string(), "3.33 muld");
        assert_eq!(
            Rule::for_op_error(Prim::Iota, "iota").to_string(),
            "3.35 iota"
        );
        assert_eq!(Rule::for_op(Prim::Take, "takeV").to_string(), "3.43 takeV");
        assert_eq!(Rule::ALLOC.to_string(), "3.56 alloc");
    }
}
