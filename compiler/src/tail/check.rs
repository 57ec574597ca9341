//! Run-time checks: lowered code fails where the TAIL oracle fails. Int overflow of `addi`,
//! `subi`, `muli`, `negi`, `absi` and `divi`, division by zero in `divi` and `mod`, and
//! `floor`/`ceil` of a double outside the int range are errors in TAIL (spec §5.1, apltail)
//! but wrap or are undefined in FCL and C. Each such operator application of the program is a
//! *check site*: a number standing for the oracle's failure there (rule, reason, place). The
//! lowered FCL computes `addi`/`subi`/`muli` (and `negi`, `absi` through `subi`) with the
//! extension built-ins `addiChecked site a b`, … and wraps the other operations in `checki site
//! bad x` (docs/fcl-extensions.md §7), which is x, or an error naming the site when `bad` holds:
//! on the FCL oracle a run-time error `check site N failed`, in compiled code the error-flag code
//! `CHECK_BASE + N` of the launch (`compiler::exec` reports `check site N failed in kernel_K`).
//! [`failed_at`] maps either back to the TAIL failure, so `exec` reports exactly what `run`
//! reports.
//!
//! Reductions and scans check in the oracle's order: an operator of the program that can fail
//! (`addi`, `muli`) never takes the block-level trees, whose other order of additions could
//! overflow where the oracle's does not, or not where it does (module `reduce`).

use super::value::{share, Fresh};
use super::{Lowered, RunFailure};
use semantics::fcl::step::scalar::failed_site;
use semantics::tail::ops::prim::Prim;
use semantics::tail::ops::scalar as tail;
use semantics::Span;
use std::sync::atomic::{AtomicBool, Ordering};

/// Whether the lowering checks (on unless `exec --unchecked` turned it off for the process).
static CHECKS: AtomicBool = AtomicBool::new(true);

/// Turns the run-time checks of lowered TAIL programs on (the default) or off (`tailfcl exec
/// --unchecked`, `bench_tail --unchecked`: int arithmetic wraps, as FCL's does).
pub fn set_checks(on: bool) {
    CHECKS.store(on, Ordering::Relaxed);
}

/// Whether the application at `span` is checked: an operator of the program (the lowering's
/// own arithmetic has no place), with checks on.
pub(super) fn checks_at(span: Span) -> bool {
    span != Span::DUMMY && CHECKS.load(Ordering::Relaxed)
}

/// The smallest int, as FCL text.
const INT_MIN: &str = "(0 - 2147483647 - 1)";

/// The site of operator `p` of the program at `span` failing with `reason`.
fn site(fresh: &Fresh, p: Prim, span: Span, reason: String) -> usize {
    let rule = semantics::tail::step::Rule::for_op_error(p, "");
    fresh.site(RunFailure {
        rule: format!("{} {}", rule.number, p.name()),
        reason,
        span,
    })
}

/// `x`, checked: the FCL text that is `x` unless `bad` holds, where operator `p` of the program
/// (at `span`) fails with `reason`. Operators the lowering applies itself (no place in the
/// program: a filter's sums of counts) are not checked.
fn checked(fresh: &Fresh, p: Prim, span: Span, reason: String, bad: &str, x: &str) -> String {
    if !checks_at(span) {
        return x.to_string();
    }
    let site = site(fresh, p, span, reason);
    format!("(checki {site} {bad} {x})")
}

/// The oracle's reason for a failing operation (its own function on failing arguments, so the
/// words are the same).
fn reason(r: Result<i32, String>) -> String {
    r.err().unwrap_or_default()
}

/// The checked FCL text of int operator `p` on argument texts `xs`, where the lowering checks
/// it (`None`: not an operator that fails, or the check is static). `op` builds the unchecked
/// text from argument texts (bound to names where used more than once).
pub(super) fn checked_int_op(
    p: Prim,
    xs: &[String],
    span: Span,
    fresh: &Fresh,
    op: &dyn Fn(&[String]) -> String,
) -> Option<String> {
    if !checks_at(span) {
        return None;
    }
    let c = |why: String, bad: &str, x: &str| checked(fresh, p, span, why, bad, x);
    // `addiChecked site a b` and friends name each operand once: FCL's lets are by name
    // (5.50), so a condition naming a `let`-bound sum again would evaluate it again, and an
    // unrolled fold of k steps 4^k times
    let at = |why: String| site(fresh, p, span, why);
    Some(match p {
        Prim::Addi => format!(
            "(addiChecked {} {} {})",
            at(reason(tail::addi(i32::MAX, 1))),
            xs[0],
            xs[1]
        ),
        Prim::Subi => format!(
            "(subiChecked {} {} {})",
            at(reason(tail::subi(i32::MIN, 1))),
            xs[0],
            xs[1]
        ),
        Prim::Muli => format!(
            "(muliChecked {} {} {})",
            at(reason(tail::muli(i32::MAX, 2))),
            xs[0],
            xs[1]
        ),
        // −a overflows exactly when 0 − a does
        Prim::Negi => format!(
            "(subiChecked {} 0 {})",
            at(reason(tail::negi(i32::MIN))),
            xs[0]
        ),
        // |a| = 0 − (−|a|), where −|a| never overflows (the wrapped |INT_MIN| is INT_MIN, and
        // 0 − INT_MIN is INT_MIN again) and the subtraction overflows exactly for INT_MIN
        Prim::Absi => format!(
            "(subiChecked {} 0 (0 - (absi {})))",
            at(reason(tail::absi(i32::MIN))),
            xs[0]
        ),
        // division by zero first, then the one quotient outside the range (the oracle's
        // order); the division itself is by a non-zero stand-in, so that only the check fails
        Prim::Divi | Prim::Mod => share(fresh, &xs[0], |a| {
            share(fresh, &xs[1], |b| {
                let safe = format!("(if {b} == 0 then 1 else {b})");
                let mut x = op(&[a.into(), safe]);
                if p == Prim::Divi {
                    let bad = format!("(andb ({a} == {INT_MIN}) ({b} == (0 - 1)))");
                    x = c(reason(tail::divi(i32::MIN, -1)), &bad, &x);
                }
                let zero = match p {
                    Prim::Divi => reason(tail::divi(1, 0)),
                    _ => reason(tail::mod_(1, 0)),
                };
                c(zero, &format!("({b} == 0)"), &x)
            })
        }),
        _ => return None,
    })
}

/// The int of double text `d`, an exact prefix sum of operator `p` at `span`: `p`'s overflow
/// when it is outside the int range.
pub(super) fn int_prefix(fresh: &Fresh, p: Prim, span: Span, d: &str) -> String {
    share(fresh, d, |d| {
        let bad = format!("(orb (ltd {d} (negd 2147483648.0)) (gtd {d} 2147483647.0))");
        let value = format!("(floord (if {bad} then 0.0 else {d}))");
        checked(
            fresh,
            p,
            span,
            reason(tail::addi(i32::MAX, 1)),
            &bad,
            &value,
        )
    })
}

/// `floor`/`ceil` (FCL `floord`/`ceild`) of double text `x`, checked: NaN, ±inf and results
/// outside the int range fail. The oracle's reason names the value, which the check site
/// cannot carry: the reason here says "the argument" instead.
pub(super) fn checked_rounding(p: Prim, x: &str, span: Span, fresh: &Fresh) -> Option<String> {
    if !checks_at(span) {
        return None;
    }
    let (f, ok) = match p {
        Prim::Floor => (
            "floord",
            "andb (ged {d} (negd 2147483648.0)) (ltd {d} 2147483648.0)",
        ),
        Prim::Ceil => (
            "ceild",
            "andb (gtd {d} (negd 2147483649.0)) (led {d} 2147483647.0)",
        ),
        _ => return None,
    };
    Some(share(fresh, x, |d| {
        let ok = ok.replace("{d}", d);
        let why = format!("{}: the argument does not fit an int", p.name());
        let value = format!("({f} (if {ok} then {d} else 0.0))");
        checked(fresh, p, span, why, &format!("(notb ({ok}))"), &value)
    }))
}

/// `roll`'s bound `n` (FCL int text), checked: a negative bound fails as the oracle's `roll`
/// does (rule 3.75). The reason names the bound where it is known; a bound computed per element
/// cannot ride along with the check site, so the reason says "a negative bound" then.
pub(super) fn checked_roll_bound(fresh: &Fresh, span: Span, n: &str, known: Option<i32>) -> String {
    let why = match known {
        Some(b) => reason(
            semantics::tail::ops::io::Rolls::default()
                .roll(0, b)
                .map(|_| 0),
        ),
        None => "roll of a negative number (a bound computed per element)".to_string(),
    };
    share(fresh, n, |n| {
        checked(fresh, Prim::Roll, span, why, &format!("(lti {n} 0)"), n)
    })
}

/// `iota`'s count `n` (FCL int text) where the device computes it, checked: a negative count
/// fails as the oracle's `iota` does (rule 3.35), whose reason names the count, which the
/// check site cannot carry.
pub(super) fn checked_iota_count(fresh: &Fresh, span: Span, n: &str) -> String {
    let why = "iota of a negative number (a count computed on the device)".to_string();
    share(fresh, n, |n| {
        checked(fresh, Prim::Iota, span, why, &format!("(lti {n} 0)"), n)
    })
}

/// A `power` count `n` (FCL int text) that the device computes, checked: a negative count
/// fails as the oracle's `power` does (rule 3.60), whose reason names the count.
pub(super) fn checked_power_count(fresh: &Fresh, span: Span, name: &str, n: &str) -> String {
    if !checks_at(span) {
        return n.to_string();
    }
    let site = fresh.site(RunFailure {
        rule: semantics::tail::step::Rule::POWER_DONE.to_string(),
        reason: format!("{name} with a negative count (computed on the device)"),
        span,
    });
    share(fresh, n, |n| format!("(checki {site} (lti {n} 0) {n})"))
}

/// `idxS`'s index `i` (FCL int text) on an axis of `extent` elements (FCL int text, a
/// length the device computes where `computed`), checked: an index outside 1…extent fails as
/// the oracle's `idxS` does (rule 3.71), whose reason names the index, which the check site
/// cannot carry. The index read is 1 where the check fails, so no kernel reads out of bounds.
pub(super) fn checked_index(
    fresh: &Fresh,
    span: Span,
    i: &str,
    extent: &str,
    computed: bool,
) -> String {
    let why = match computed {
        true => "idxS: an index outside the vector (computed on the device)".to_string(),
        false => format!("idxS: an index out of bounds 1..{extent} (computed on the device)"),
    };
    share(fresh, i, |i| {
        let bad = format!("(orb (lti {i} 1) (lti {extent} {i}))");
        checked(
            fresh,
            Prim::IdxS,
            span,
            why,
            &bad,
            &format!("(if {bad} then 1 else {i})"),
        )
    })
}

/// The product of `reshape`'s extents (FCL int texts) that the device computes, checked: a
/// negative extent fails as the oracle's `reshape` does (rule 3.38), whose reason names the
/// extent, which the check site cannot carry.
pub(super) fn checked_extents(fresh: &Fresh, span: Span, dims: &[String], product: &str) -> String {
    let bad = dims
        .iter()
        .map(|d| format!("(lti {d} 0)"))
        .reduce(|a, b| format!("(orb {a} {b})"))
        .unwrap_or_else(|| "false".into());
    let why = "reshape with a negative extent (computed on the device)".to_string();
    checked(fresh, Prim::Reshape, span, why, &bad, product)
}

/// The length `la` of `compress`'s vector where the mask's, `lm`, may differ from it (either
/// computed on the device), checked: different lengths fail as the oracle's `compress` does
/// (rule 3.65), whose reason names the lengths, which the check site cannot carry.
pub(super) fn checked_same_length(fresh: &Fresh, span: Span, lm: &str, la: &str) -> String {
    let why = "compress of vectors of different lengths (computed on the device)".to_string();
    share(fresh, la, |la| {
        checked(
            fresh,
            Prim::Compress,
            span,
            why,
            &format!("({lm} != {la})"),
            la,
        )
    })
}

/// The value `x` that `idxassign` writes in row `row` (1-based, known) of an array whose
/// number of rows `rows` the device computes, checked: a row past them fails as the oracle's
/// `idxassign` does (rule 3.57), whose reason names the index, which the check site cannot
/// carry.
pub(super) fn checked_row(fresh: &Fresh, span: Span, rows: &str, row: i64, x: &str) -> String {
    let why = "idxassign: an index past the rows (counted on the device)".to_string();
    checked(
        fresh,
        Prim::Idxassign,
        span,
        why,
        &format!("(lti {rows} {row})"),
        x,
    )
}

/// Whether FCL element text checks something at run time.
pub(super) fn has_checks(text: &str) -> bool {
    [
        "(checki ",
        "(addiChecked ",
        "(subiChecked ",
        "(muliChecked ",
    ]
    .iter()
    .any(|c| text.contains(c))
}

/// The TAIL failure a failed check stands for, from the error text of the FCL oracle or of
/// compiled code (`check site N failed`, in a kernel or not).
pub fn failed_at<'a>(l: &'a Lowered, error: &str) -> Option<&'a RunFailure> {
    l.sites.get(failed_site(error)?)
}

/// What the TAIL program printed before it failed, from the FCL program's output up to the
/// failure: the `pr*` values whose lines are there, in order (`None` when the output is not a
/// prefix of what the lowered program prints).
pub fn format_until_failure(l: &Lowered, fcl_stdout: &str) -> Option<String> {
    let lines: Vec<&str> = fcl_stdout.lines().collect();
    super::format_outputs(&l.prints, &lines, true).map(|(text, _)| text)
}
