//! The rules of thesis Figures 5.10–5.15 (5.48–5.91), by number, as steps report them, plus the
//! rules the thesis leaves out (named after the rule they mirror) and the host operations of
//! spec §4.4.
//!
//! Two rules never appear in a step record, by construction:
//! * (5.48)/(5.49), the context rules, are the frames of a [`super::Task`]: a step reports the
//!   rule of its redex, and an error inside a context is that redex's error (5.49, and 5.77 for
//!   the elements of a thread-level force).
//! * (5.78) forces [T]'s *initial array* of `seqfor`. The core has [O]'s form (size, iterations,
//!   step), whose buffer starts as zeros, so there is never an unevaluated initial array to force
//!   (spec §7.3: "Not needed for the [O] form").

use crate::Span;
use std::fmt;

/// A rule: its thesis number and a short name (`5.72 addi`).
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

const fn rule(number: &'static str, name: &'static str) -> Rule {
    Rule { number, name }
}

pub const BETA: Rule = rule("5.50", "beta");
/// `let x = v in e → e[v/x]` (added: the core keeps lets, spec §7.3).
pub const LET: Rule = rule("5.50", "let");
pub const FST: Rule = rule("5.51", "fst");
pub const SND: Rule = rule("5.52", "snd");
pub const MAP: Rule = rule("5.53", "mapPull");
pub const INTERLEAVE: Rule = rule("5.54", "interleave");
pub const INTERLEAVE_SEQ: Rule = rule("5.55", "interleaveSeq");
pub const SEQFOR: Rule = rule("5.56", "seqfor");
pub const PUSH: Rule = rule("5.57", "push");
pub const GENERATE: Rule = rule("5.58", "generate");
pub const LENGTH: Rule = rule("5.59", "lengthPull");
pub const INDEX: Rule = rule("5.60", "index");
pub const INDEX_ERR: Rule = rule("5.61", "index");
pub const RETURN: Rule = rule("5.62", "return");
pub const BIND: Rule = rule("5.63", "bind");
pub const LENGTH_PUSH: Rule = rule("5.64", "lengthPush-push");
pub const LENGTH_INTERLEAVE: Rule = rule("5.65", "lengthPush-interleave");
pub const LENGTH_INTERLEAVE_SEQ: Rule = rule("5.66", "lengthPush-interleaveSeq");
pub const LENGTH_SEQFOR: Rule = rule("5.67", "lengthPush-seqfor");
pub const MAP_PUSH: Rule = rule("5.68", "mapPush-push");
pub const MAP_INTERLEAVE: Rule = rule("5.69", "mapPush-interleave");
pub const MAP_INTERLEAVE_SEQ: Rule = rule("5.70", "mapPush-interleaveSeq");
pub const MAP_SEQFOR: Rule = rule("5.71", "mapPush-seqfor");
pub const IF_TRUE: Rule = rule("5.74", "if-true");
pub const IF_FALSE: Rule = rule("5.75", "if-false");
/// An error inside `force (Push<thread> …)` (5.77); the error keeps the inner rule.
pub const FORCE_ELEM_ERR: Rule = rule("5.77", "force-elem");
pub const SEQFOR_STEP: Rule = rule("5.79", "seqfor-step");
pub const SEQFOR_DONE: Rule = rule("5.80", "seqfor-done");
pub const FORCE_PAR: Rule = rule("5.81", "force-push-par");
pub const FORCE_DONE: Rule = rule("5.82", "force-done");
pub const INTERLEAVE_PAR: Rule = rule("5.83", "force-interleave-par");
/// The step 5.83 needs but [T] omits: a finished sub-program `Program<l> a` with `a` a push array
/// continues as `force<l> a`.
pub const INTERLEAVE_SUB_FORCE: Rule = rule("5.83", "force-interleave-sub");
pub const INTERLEAVE_SCATTER: Rule = rule("5.84", "force-interleave");
pub const PERMUTE_ERR: Rule = rule("5.85", "permute");
pub const PERMUTE: Rule = rule("5.86", "permute");
pub const POWER_DONE: Rule = rule("5.87", "power-done");
pub const POWER_STEP: Rule = rule("5.88", "power-step");
/// `power<l> n f p →0 powerAt<l> 0 n f p` (spec §7.3).
pub const POWER_START: Rule = rule("5.87", "power-start");
pub const WHILE: Rule = rule("5.89", "while");
pub const IFP_TRUE: Rule = rule("5.90", "ifp-true");
pub const IFP_FALSE: Rule = rule("5.91", "ifp-false");
/// The omitted sequential counterpart of 5.83 for `InterleaveSeq`: sub-program b ran to its array.
pub const INTERLEAVE_SEQ_SUB: Rule = rule("5.83s", "force-interleaveSeq-sub");
/// The omitted sequential counterpart of 5.84 for `InterleaveSeq`.
pub const INTERLEAVE_SEQ_SCATTER: Rule = rule("5.84s", "force-interleaveSeq");
pub const FORCE_AND_PRINT: Rule = rule("host", "forceAndPrint");
pub const PRINT: Rule = rule("host", "print");
pub const BENCHMARK: Rule = rule("host", "benchmark");
pub const READ_INT_CSV: Rule = rule("host", "readIntCSV");
pub const NOW_MS: Rule = rule("host", "nowMs");
pub const BLOCK_SIZE: Rule = rule("host", "#BlockSize");
/// An array larger than [`MAX_CELLS`]: a size limit (exit 4), not an `err` of the program.
pub const SIZE_LIMIT: Rule = rule("limit", "array-size");

/// The most cells one materialised array may have (2^26, 1 GiB of values): the oracle stops with
/// [`SIZE_LIMIT`] rather than exhaust memory.
pub const MAX_CELLS: i64 = 1 << 26;

/// Checks an array size against [`MAX_CELLS`].
pub fn check_size(cells: i64, span: Span) -> Result<(), RunError> {
    if cells > MAX_CELLS {
        return Err(RunError::new(
            SIZE_LIMIT,
            span,
            format!("an array of {cells} cells exceeds the limit of {MAX_CELLS}"),
        ));
    }
    Ok(())
}

/// A term that is not a value where the rules need one (only ill-typed core terms get here).
pub const STUCK: Rule = rule("stuck", "ill-typed");

/// The scalar rules (5.72 `addi`, 5.73 `muli`, and the "…" of Figure 5.13 for the others).
pub fn scalar(op: crate::fcl::core::ScalarOp) -> Rule {
    let number = if op == crate::fcl::core::ScalarOp::MulI {
        "5.73"
    } else {
        "5.72"
    };
    rule(number, op.name())
}

/// A run-time error: the term reduced to `err` by `rule`, for `reason`, at `span`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunError {
    pub rule: Rule,
    pub reason: String,
    pub span: Span,
}

impl RunError {
    pub fn new(rule: Rule, span: Span, reason: impl Into<String>) -> RunError {
        RunError {
            rule,
            reason: reason.into(),
            span,
        }
    }
}

impl RunError {
    /// A stable kebab-case name of the kind of error, for `NAME.expected-error` files
    /// (docs/design.md, conformance tests): `index-out-of-bounds`, `division-by-zero`, `race`, `hole`,
    /// `destination-out-of-range`, `level-mismatch`, `print-count-out-of-range`, `non-scalar-element`,
    /// `io-error`, `size-limit`, `ill-typed`.
    pub fn kind(&self) -> &'static str {
        let r = self.reason.as_str();
        match self.rule.number {
            _ if r.contains("does not respect level") => "level-mismatch",
            "5.61" | "5.79" => "index-out-of-bounds",
            "5.72" | "5.73" if r.starts_with("division by zero") => "division-by-zero",
            "5.72" if r.contains("does not fit an int") => "int-conversion",
            "5.72" if r.starts_with("check site") => "check-failed",
            "5.86" if r.starts_with("race") => "race",
            "5.86" if r.starts_with("hole") => "hole",
            "5.85" | "5.84" | "5.84s" => "destination-out-of-range",
            "5.82" => "non-scalar-element",
            "host" if self.rule == PRINT => "print-count-out-of-range",
            "host" if self.rule == READ_INT_CSV => "io-error",
            "limit" => "size-limit",
            _ => "ill-typed",
        }
    }
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.rule, self.reason)
    }
}
