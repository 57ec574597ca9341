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

use super::tree::{fcl, int, int_literal, var, Fcl};
use super::value::{length_expr, share, Arr, Fresh};
use super::RunFailure;
use semantics::fcl::syntax::ExprKind;
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

/// The smallest int, as an FCL expression.
fn int_min() -> Fcl {
    fcl!("(0 - 2147483647 - 1)")
}

/// The site of operator `p` of the program at `span` failing with `reason`.
fn site(fresh: &Fresh, p: Prim, span: Span, reason: String) -> usize {
    let rule = semantics::tail::step::Rule::for_op_error(p, "");
    fresh.site(RunFailure {
        rule: format!("{} {}", rule.number, p.name()),
        reason,
        span,
    })
}

/// `x`, checked: the FCL expression that is `x` unless `bad` holds, where operator `p` of the
/// program (at `span`) fails with `reason`. Operators the lowering applies itself (no place in
/// the program: a filter's sums of counts) are not checked.
fn checked(fresh: &Fresh, p: Prim, span: Span, reason: String, bad: &Fcl, x: &Fcl) -> Fcl {
    if !checks_at(span) {
        return x.clone();
    }
    let site = site(fresh, p, span, reason);
    fcl!("(checki {site} {bad} {x})")
}

/// `x`, failing with `f` wherever it is computed: a failure the lowering found in code that
/// may not run (a branch or a loop step the program may skip), left to the run.
pub(super) fn failing(fresh: &Fresh, f: RunFailure, x: &Fcl) -> Fcl {
    let site = fresh.site(f);
    fcl!("(checki {site} (0 == 0) {x})")
}

/// The oracle's reason for a failing operation (its own function on failing arguments, so the
/// words are the same).
fn reason(r: Result<i32, String>) -> String {
    r.err().unwrap_or_default()
}

/// The checked FCL expression of int operator `p` on argument expressions `xs`, where the
/// lowering checks it (`None`: not an operator that fails, or the check is static). `op` builds
/// the unchecked expression from argument expressions (bound to names where used more than
/// once).
pub(super) fn checked_int_op(
    p: Prim,
    xs: &[Fcl],
    span: Span,
    fresh: &Fresh,
    op: &dyn Fn(&[Fcl]) -> Fcl,
) -> Option<Fcl> {
    if !checks_at(span) {
        return None;
    }
    let c = |why: String, bad: &Fcl, x: &Fcl| checked(fresh, p, span, why, bad, x);
    // `addiChecked site a b` and friends name each operand once: FCL's lets are by name
    // (5.50), so a condition naming a `let`-bound sum again would evaluate it again, and an
    // unrolled fold of k steps 4^k times
    let at = |why: String| site(fresh, p, span, why);
    Some(match p {
        Prim::Addi => fcl!(
            "(addiChecked {} {} {})",
            at(reason(tail::addi(i32::MAX, 1))),
            &xs[0],
            &xs[1]
        ),
        Prim::Subi => fcl!(
            "(subiChecked {} {} {})",
            at(reason(tail::subi(i32::MIN, 1))),
            &xs[0],
            &xs[1]
        ),
        Prim::Muli => fcl!(
            "(muliChecked {} {} {})",
            at(reason(tail::muli(i32::MAX, 2))),
            &xs[0],
            &xs[1]
        ),
        // −a overflows exactly when 0 − a does
        Prim::Negi => fcl!(
            "(subiChecked {} 0 {})",
            at(reason(tail::negi(i32::MIN))),
            &xs[0]
        ),
        // |a| = 0 − (−|a|), where −|a| never overflows (the wrapped |INT_MIN| is INT_MIN, and
        // 0 − INT_MIN is INT_MIN again) and the subtraction overflows exactly for INT_MIN
        Prim::Absi => fcl!(
            "(subiChecked {} 0 (0 - (absi {})))",
            at(reason(tail::absi(i32::MIN))),
            &xs[0]
        ),
        // division by zero first, then the one quotient outside the range (the oracle's
        // order); the division itself is by a non-zero stand-in, so that only the check fails
        Prim::Divi | Prim::Mod => share(fresh, &xs[0], |a| {
            share(fresh, &xs[1], |b| {
                let safe = fcl!("(if {b} == 0 then 1 else {b})");
                let mut x = op(&[a.clone(), safe]);
                if p == Prim::Divi {
                    let bad = fcl!("(andb ({a} == {}) ({b} == (0 - 1)))", int_min());
                    x = c(reason(tail::divi(i32::MIN, -1)), &bad, &x);
                }
                let zero = match p {
                    Prim::Divi => reason(tail::divi(1, 0)),
                    _ => reason(tail::mod_(1, 0)),
                };
                c(zero, &fcl!("({b} == 0)"), &x)
            })
        }),
        _ => return None,
    })
}

/// The int of double expression `d`, an exact prefix sum of operator `p` at `span`: `p`'s
/// overflow when it is outside the int range.
pub(super) fn int_prefix(fresh: &Fresh, p: Prim, span: Span, d: &Fcl) -> Fcl {
    share(fresh, d, |d| {
        let bad = fcl!("(orb (ltd {d} (negd 2147483648.0)) (gtd {d} 2147483647.0))");
        let value = fcl!("(floord (if {bad} then 0.0 else {d}))");
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

/// `floor`/`ceil` (FCL `floord`/`ceild`) of double expression `x`, checked: NaN, ±inf and
/// results outside the int range fail. The oracle's reason names the value, which the check
/// site cannot carry: the reason here says "the argument" instead.
pub(super) fn checked_rounding(p: Prim, x: &Fcl, span: Span, fresh: &Fresh) -> Option<Fcl> {
    if !checks_at(span) {
        return None;
    }
    // the rounding, and whether double `d` rounds to an int
    let (f, ok): (&str, fn(&Fcl) -> Fcl) = match p {
        Prim::Floor => ("floord", |d| {
            fcl!("andb (ged {d} (negd 2147483648.0)) (ltd {d} 2147483648.0)")
        }),
        Prim::Ceil => ("ceild", |d| {
            fcl!("andb (gtd {d} (negd 2147483649.0)) (led {d} 2147483647.0)")
        }),
        _ => return None,
    };
    Some(share(fresh, x, |d| {
        let ok = ok(d);
        let why = format!("{}: the argument does not fit an int", p.name());
        let value = fcl!("({f} (if {ok} then {d} else 0.0))", f = var(f));
        checked(fresh, p, span, why, &fcl!("(notb ({ok}))"), &value)
    }))
}

/// `roll`'s bound `n` (an FCL int expression), checked: a negative bound fails as the oracle's `roll`
/// does (rule 3.75). The reason names the bound where it is known; a bound computed per element
/// cannot ride along with the check site, so the reason says "a negative bound" then.
pub(super) fn checked_roll_bound(fresh: &Fresh, span: Span, n: &Fcl, known: Option<i32>) -> Fcl {
    let why = match known {
        Some(b) => reason(
            semantics::tail::ops::io::Rolls::default()
                .roll(0, b)
                .map(|_| 0),
        ),
        None => "roll of a negative number (a bound computed per element)".to_string(),
    };
    share(fresh, n, |n| {
        checked(fresh, Prim::Roll, span, why, &fcl!("(lti {n} 0)"), n)
    })
}

/// `iota`'s count `n` (an FCL int expression) where the device computes it, checked: a negative count
/// fails as the oracle's `iota` does (rule 3.35), whose reason names the count, which the
/// check site cannot carry.
pub(super) fn checked_iota_count(fresh: &Fresh, span: Span, n: &Fcl) -> Fcl {
    let why = "iota of a negative number (a count computed on the device)".to_string();
    share(fresh, n, |n| {
        checked(fresh, Prim::Iota, span, why, &fcl!("(lti {n} 0)"), n)
    })
}

/// A `power` count `n` (an FCL int expression) that the device computes, checked: a negative count
/// fails as the oracle's `power` does (rule 3.60), whose reason names the count.
pub(super) fn checked_power_count(fresh: &Fresh, span: Span, name: &str, n: &Fcl) -> Fcl {
    if !checks_at(span) {
        return n.clone();
    }
    let site = fresh.site(RunFailure {
        rule: semantics::tail::step::Rule::POWER_DONE.to_string(),
        reason: format!("{name} with a negative count (computed on the device)"),
        span,
    });
    share(fresh, n, |n| fcl!("(checki {site} (lti {n} 0) {n})"))
}

/// `idxS`'s index `i` (an FCL int expression) on an axis of `extent` elements (an FCL int
/// expression, a length the device computes where `computed`), checked: an index outside 1…extent fails as
/// the oracle's `idxS` does (rule 3.71), whose reason names the index, which the check site
/// cannot carry. The index read is 1 where the check fails, so no kernel reads out of bounds.
pub(super) fn checked_index(
    fresh: &Fresh,
    span: Span,
    i: &Fcl,
    extent: &Fcl,
    computed: bool,
) -> Fcl {
    let why = match computed {
        true => "idxS: an index outside the vector (computed on the device)".to_string(),
        false => {
            // a static extent is a literal; anything else is shown as FCL source
            let extent = match int_literal(extent) {
                Some(k) => k.to_string(),
                None => semantics::fcl::printer::print_expr(extent)
                    .trim()
                    .to_string(),
            };
            format!("idxS: an index out of bounds 1..{extent} (computed on the device)")
        }
    };
    share(fresh, i, |i| {
        let bad = fcl!("(orb (lti {i} 1) (lti {extent} {i}))");
        checked(
            fresh,
            Prim::IdxS,
            span,
            why,
            &bad,
            &fcl!("(if {bad} then 1 else {i})"),
        )
    })
}

/// The product of `reshape`'s extents (FCL int expressions) that the device computes, checked: a
/// negative extent fails as the oracle's `reshape` does (rule 3.38), whose reason names the
/// extent, which the check site cannot carry.
pub(super) fn checked_extents(fresh: &Fresh, span: Span, dims: &[Fcl], product: &Fcl) -> Fcl {
    let bad = dims
        .iter()
        .map(|d| fcl!("(lti {d} 0)"))
        .reduce(|a, b| fcl!("(orb {a} {b})"))
        .unwrap_or_else(|| fcl!("false"));
    let why = "reshape with a negative extent (computed on the device)".to_string();
    checked(fresh, Prim::Reshape, span, why, &bad, product)
}

/// `len`, the length of operator `p`'s result on arrays of extents `da` and `db` (some
/// computed on the device) that must agree: `cat` on every axis but the last (3.63), `zipWith`
/// on all (3.68), whose reasons name the shapes, which a check site cannot.
pub(super) fn checked_same_extents(
    fresh: &Fresh,
    p: Prim,
    span: Span,
    da: &[Fcl],
    db: &[Fcl],
    len: &Fcl,
) -> Fcl {
    let bad = da
        .iter()
        .zip(db)
        .filter(|(x, y)| x != y)
        .map(|(x, y)| fcl!("({x} != {y})"))
        .reduce(|a, b| fcl!("(orb {a} {b})"));
    let Some(bad) = bad else {
        return len.clone();
    };
    let why = format!(
        "{} of arrays whose extents differ (computed on the device)",
        p.name()
    );
    checked(fresh, p, span, why, &bad, len)
}

/// `len`, the length of `transp2(q, a)` by a permutation q computed on the device, checked:
/// `bad` holds where q is not a permutation of 1…r (3.41).
pub(super) fn checked_permutation(fresh: &Fresh, span: Span, bad: &Fcl, len: &Fcl) -> Fcl {
    let why = "transp2 by a vector that is not a permutation (computed on the device)".into();
    checked(fresh, Prim::Transp2, span, why, bad, len)
}

/// `len`, the length of `reduce`'s result over `rows` rows of `last` elements (run-time
/// extents), checked: rows of no elements fail as the oracle's 3.37 does.
pub(super) fn checked_nonempty_rows(
    fresh: &Fresh,
    span: Span,
    rows: &Fcl,
    last: &Fcl,
    len: &Fcl,
) -> Fcl {
    let bad = fcl!("(andb ({last} == 0) (lti 0 {rows}))");
    checked(
        fresh,
        Prim::Reduce,
        span,
        "reduce over an empty last axis".into(),
        &bad,
        len,
    )
}

/// The length `la` of operator `p`'s second vector where the first's, `lm`, may differ from
/// it (either computed on the device): `compress`'s mask and vector, `zipWith`'s and
/// `replicate`'s operands. Checked: different lengths fail as the oracle's `p` does (3.65,
/// 3.68, 3.66), whose reason names the lengths, which the check site cannot carry.
fn checked_same_length(fresh: &Fresh, p: Prim, span: Span, lm: &Fcl, la: &Fcl) -> Fcl {
    let why = format!(
        "{} of vectors of different lengths (computed on the device)",
        p.name()
    );
    share(fresh, la, |la| {
        checked(fresh, p, span, why, &fcl!("({lm} != {la})"), la)
    })
}

/// Vectors `x` and `y` (operands of `p` at `span`) whose lengths may differ, one at least
/// computed on the device: both of the one length checked to be theirs when the program runs
/// ([`checked_same_length`]), within the smaller capacity.
pub(super) fn of_same_length(fresh: &Fresh, p: Prim, span: Span, x: &Arr, y: &Arr) -> (Arr, Arr) {
    let (lx, ly) = (length_expr(x), length_expr(y));
    let len = std::rc::Rc::new(checked_same_length(fresh, p, span, &lx, &ly));
    let cap = x.shape[0].min(y.shape[0]);
    let within = |v: &Arr| Arr {
        shape: vec![cap],
        run_len: Some(len.clone()),
        run_dims: None,
        known: None,
        at: None,
        transposed: None,
        ..v.clone()
    };
    (within(x), within(y))
}

/// The value `x` that `idxassign` writes in row `row` (1-based, known) of an array whose
/// number of rows `rows` the device computes, checked: a row past them fails as the oracle's
/// `idxassign` does (rule 3.57), whose reason names the index, which the check site cannot
/// carry.
pub(super) fn checked_row(fresh: &Fresh, span: Span, rows: &Fcl, row: i64, x: &Fcl) -> Fcl {
    let why = "idxassign: an index past the rows or elements (counted on the device)".to_string();
    checked(
        fresh,
        Prim::Idxassign,
        span,
        why,
        &fcl!("(lti {rows} {})", int(row)),
        x,
    )
}

/// The position `x` that `idxassign` writes at for index `k` (1-based, computed on the
/// device) along an axis of extent `extent`, checked: an index outside `1..extent` fails as
/// the oracle's `idxassign` does (rule 3.58), whose reason names the index, which the check
/// site cannot carry.
pub(super) fn checked_update_index(
    fresh: &Fresh,
    span: Span,
    extent: &Fcl,
    k: &Fcl,
    x: &Fcl,
) -> Fcl {
    let why = "idxassign: an index (computed on the device) out of bounds".to_string();
    let bad = fcl!("(orb (lti {k} 1) (lti {extent} {k}))");
    checked(fresh, Prim::Idxassign, span, why, &bad, x)
}

/// `nowi`'s reading `t` of the clock for an argument `x` the device computes, checked: an
/// argument other than 0 fails as the oracle's `nowi` does, whose reason names the argument,
/// which the check site cannot carry.
pub(super) fn checked_clock_argument(fresh: &Fresh, span: Span, x: &Fcl, t: &Fcl) -> Fcl {
    let why = "nowi of an argument other than 0 (computed on the device; only 0 is allowed)";
    checked(
        fresh,
        Prim::Nowi,
        span,
        why.to_string(),
        &fcl!("({x} != 0)"),
        t,
    )
}

/// The built-ins that check at run time.
const CHECKING: [&str; 4] = ["checki", "addiChecked", "subiChecked", "muliChecked"];

/// Whether an FCL element expression checks something at run time (it names one of the
/// checking built-ins).
pub(super) fn has_checks(e: &Fcl) -> bool {
    let mut stack = vec![e];
    while let Some(e) = stack.pop() {
        if matches!(&e.kind, ExprKind::Var(x, _) if CHECKING.contains(&x.as_str())) {
            return true;
        }
        e.for_each_child(|c| stack.push(c));
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::tail::tree::parsed as p;

    #[test]
    fn checks_are_found_in_trees() {
        assert!(has_checks(&p("(let y = (checki 0 b x) in y + 1)")));
        assert!(has_checks(&p("(fn z => muliChecked 3 z z)")));
        assert!(has_checks(&p("(if c then 1 else addiChecked 0 a b)")));
        assert!(!has_checks(&p("(let y = (addi a b) in checkedness y)")));
    }

    #[test]
    fn checks_wrap_their_values() {
        let at = Span::new(3, 4);
        let f = Fresh::default();
        let dims = [p("a"), p("b"), p("c")];
        assert_eq!(
            checked_extents(&f, at, &dims, &p("(a * b * c)")),
            p("(checki 0 (orb (orb (lti a 0) (lti b 0)) (lti c 0)) (a * b * c))")
        );
        let f = Fresh::default();
        assert_eq!(
            checked_index(&f, at, &p("(i + 1)"), &p("5"), false),
            p(
                "(let x0 = (i + 1) in (checki 0 (orb (lti x0 1) (lti 5 x0)) \
               (if (orb (lti x0 1) (lti 5 x0)) then 1 else x0)))"
            )
        );
        assert_eq!(
            f.sites()[0].reason,
            "idxS: an index out of bounds 1..5 (computed on the device)"
        );
        let f = Fresh::default();
        assert_eq!(
            checked_row(&f, at, &p("n"), 3, &p("v")),
            p("(checki 0 (lti n 3) v)")
        );
        assert_eq!(
            checked_power_count(&f, at, "power", &p("n")),
            p("(checki 1 (lti n 0) n)")
        );
        assert_eq!(
            int_prefix(&f, Prim::Addi, at, &p("s")),
            p("(checki 2 (orb (ltd s (negd 2147483648.0)) (gtd s 2147483647.0)) \
               (floord (if (orb (ltd s (negd 2147483648.0)) (gtd s 2147483647.0)) then 0.0 else s)))")
        );
        // the lowering's own arithmetic is not checked
        assert_eq!(checked_iota_count(&f, Span::DUMMY, &p("n")), p("n"));
    }
}
