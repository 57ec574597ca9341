//! The scalar operators of spec §5.1–§5.7 as FCL expressions, with the FCL extension
//! built-ins for doubles and booleans (docs/fcl.md's TAIL extension: `powd`,
//! `ltd`, `andb`, `floord`, …). FCL's `/` and `%` truncate, so TAIL's floored `divi`, `mod`
//! and `resi` are built from them. TAIL's error cases (overflow, division by zero, a
//! rounding outside the int range) are checked where the application has a place in the
//! program (module `check`).

use super::check::{checked_int_op, checked_rounding, checks_at};
use super::fault::LoweringFault::*;
use super::value::{share, unsupported, Fresh, Ty, R};
use semantics::tail::ops::prim::Prim;
use semantics::Span;

/// The FCL text and result type of scalar operator `p` applied to argument texts `xs`, the
/// application at `span` (`Span::DUMMY`: the lowering's own arithmetic, unchecked).
pub(super) fn scalar_op(p: Prim, xs: &[String], fresh: &Fresh, span: Span) -> R<(String, Ty)> {
    use Prim as P;
    use Ty::{Bool as B, Double as D, Int as I};
    // by a positive literal, division cannot fail
    let static_divisor = matches!(p, P::Divi | P::Mod) && positive_literal(&xs[1]);
    if checks_at(span) && !static_divisor {
        let unchecked = |ys: &[String]| {
            scalar_op(p, ys, fresh, Span::DUMMY).map_or_else(|_| String::new(), |r| r.0)
        };
        if let Some(t) = checked_int_op(p, xs, span, fresh, &unchecked) {
            return Ok((t, I));
        }
        if let Some(t) = checked_rounding(p, &xs[0], span, fresh) {
            return Ok((t, I));
        }
    }
    let bin = |f: &str| format!("({f} {} {})", xs[0], xs[1]);
    let un = |f: &str| format!("({f} {})", xs[0]);
    let infix = |o: &str| format!("({} {o} {})", xs[0], xs[1]);
    Ok(match p {
        // §5.1 integers (unchecked: overflow wraps here)
        P::Addi => (infix("+"), I),
        P::Subi => (infix("-"), I),
        P::Muli => (infix("*"), I),
        P::Maxi => (bin("maxi"), I),
        P::Mini => (bin("mini"), I),
        P::Divi => (floored_div(&xs[0], &xs[1], fresh), I),
        P::Mod => (floored_mod(&xs[0], &xs[1], fresh), I),
        // resi(m,x) = x mod m, and x when m = 0
        P::Resi if positive_literal(&xs[0]) && !fresh.planted(ResiOperands) => {
            (floored_mod(&xs[1], &xs[0], fresh), I)
        }
        P::Resi => {
            // planted fault: the modulus taken second, as C's `%` takes it
            let (m, x) = match fresh.planted(ResiOperands) {
                true => (&xs[1], &xs[0]),
                false => (&xs[0], &xs[1]),
            };
            let t = share(fresh, m, |m| {
                share(fresh, x, |x| {
                    format!("(if {m} == 0 then {x} else {})", floored_mod(x, m, fresh))
                })
            });
            (t, I)
        }
        P::Negi => (format!("(0 - {})", xs[0]), I),
        P::Absi => (un("absi"), I),
        // signi(0) = 1 (spec §5.1)
        P::Signi => (format!("(if lti {} 0 then (0 - 1) else 1)", xs[0]), I),
        P::Andi => (infix("&"), I),
        P::Xori => (bin("xor"), I),
        // a | b = a + b - (a & b) in wrapping arithmetic (FCL's ori compiles only on constants)
        P::Ori => {
            let t = share(fresh, &xs[0], |a| {
                share(fresh, &xs[1], |b| format!("({a} + {b} - ({a} & {b}))"))
            });
            (t, I)
        }
        // shift counts are unsigned: any count outside 0..31 shifts everything out
        P::Shli => {
            let t = share(fresh, &xs[1], |c| {
                format!(
                    "(if lti {c} 0 then 0 else if lti {c} 32 then {} << {c} else 0)",
                    xs[0]
                )
            });
            (t, I)
        }
        P::Shri => {
            let t = share(fresh, &xs[1], |c| {
                format!(
                    "(if {c} == 0 then {x} else if lti {c} 0 then 0 else if lti {c} 32 then \
                     ({x} >> {c}) & ((1 << (32 - {c})) - 1) else 0)",
                    x = xs[0]
                )
            });
            (t, I)
        }
        P::Shari => {
            let t = share(fresh, &xs[0], |x| {
                share(fresh, &xs[1], |c| {
                    format!(
                        "(if lti {c} 0 then (if lti {x} 0 then (0 - 1) else 0) else if lti {c} 32 \
                         then {x} >> {c} else (if lti {x} 0 then (0 - 1) else 0))"
                    )
                })
            });
            (t, I)
        }
        P::Lti => (bin("lti"), B),
        P::Gti => (format!("(lti {} {})", xs[1], xs[0]), B),
        P::Ltei => (
            format!("(if lti {} {} then false else true)", xs[1], xs[0]),
            B,
        ),
        P::Gtei => (
            format!("(if lti {} {} then false else true)", xs[0], xs[1]),
            B,
        ),
        P::Eqi => (infix("=="), B),
        // §5.5 characters: their codes
        P::Eqc => (infix("=="), B),
        P::Ltc => (bin("lti"), B),
        P::Gtc => (format!("(lti {} {})", xs[1], xs[0]), B),
        P::Ltec => (
            format!("(if lti {} {} then false else true)", xs[1], xs[0]),
            B,
        ),
        P::Gtec => (
            format!("(if lti {} {} then false else true)", xs[0], xs[1]),
            B,
        ),
        // §5.2 doubles
        P::Addd => (bin("addd"), D),
        P::Subd => (bin("subd"), D),
        P::Muld => (bin("muld"), D),
        P::Divd => (bin("divd"), D),
        P::Powd => (bin("powd"), D),
        P::Maxd => (bin("maxd"), D),
        P::Mind => (bin("mind"), D),
        // apltail's resd(m,x) is x - floor(x/m) (spec §5.2), and x when m = 0.0
        P::Resd => {
            let t = share(fresh, &xs[0], |m| {
                share(fresh, &xs[1], |x| {
                    format!("(if eqd {m} 0.0 then {x} else subd {x} (i2d (floord (divd {x} {m}))))")
                })
            });
            (t, D)
        }
        P::Negd => (un("negd"), D),
        P::Absd => (un("absd"), D),
        P::Expd => (un("expd"), D),
        P::Ln => (un("logd"), D),
        P::Sin => (un("sind"), D),
        P::Cos => (un("cosd"), D),
        P::Tan => (un("tand"), D),
        P::Asin => (un("asind"), D),
        P::Acos => (un("acosd"), D),
        P::Atan => (un("atand"), D),
        P::Sinh => (un("sinhd"), D),
        P::Cosh => (un("coshd"), D),
        P::Tanh => (un("tanhd"), D),
        P::Signd => (un("signd"), I),
        P::Floor => (un("floord"), I),
        P::Ceil => (un("ceild"), I),
        P::Ltd => (bin("ltd"), B),
        P::Lted => (bin("led"), B),
        P::Gtd => (bin("gtd"), B),
        P::Gted => (bin("ged"), B),
        P::Eqd => (bin("eqd"), B),
        // §5.4 booleans
        P::Andb => (bin("andb"), B),
        P::Orb => (bin("orb"), B),
        P::Xorb => (bin("xorb"), B),
        P::Eqb => (bin("eqb"), B),
        P::Nandb => (format!("(notb {})", bin("andb")), B),
        P::Norb => (format!("(notb {})", bin("orb")), B),
        P::Notb => (un("notb"), B),
        // §5.6 conversions
        P::I2d => (un("i2d"), D),
        P::B2i => (un("b2i"), I),
        // §5.3 complex numbers and §5.6 d2x: FCL pairs of doubles (module `complex`)
        P::Addx
        | P::Subx
        | P::Mulx
        | P::Negx
        | P::Conjx
        | P::Magnx
        | P::Expx
        | P::Rex
        | P::Imx
        | P::Injx
        | P::D2x => match super::complex::complex_op(p, xs, fresh) {
            Some(r) => r,
            None => return unsupported(format!("operator {}", p.name())),
        },
        _ => return unsupported(format!("operator {} (no FCL counterpart)", p.name())),
    })
}

/// Whether an int text is a positive literal: the sign tests of floored division are then
/// static (the program's own constant, not a value the lowering computed).
fn positive_literal(t: &str) -> bool {
    t.parse::<i32>().is_ok_and(|v| v > 0)
}

/// ⌊a/b⌋ from FCL's truncating division.
fn floored_div(a: &str, b: &str, fresh: &Fresh) -> String {
    // planted fault: TAIL's `divi` taken for C's truncating `/`
    if fresh.planted(DiviTruncates) {
        return format!("({a} / {b})");
    }
    if positive_literal(b) {
        // b > 0: the truncated quotient is one too large exactly when the remainder is negative
        return share(fresh, a, |a| {
            let q = fresh.name("q");
            format!("(let {q} = {a} / {b} in if lti ({a} - {q} * {b}) 0 then {q} - 1 else {q})")
        });
    }
    share(fresh, a, |a| {
        share(fresh, b, |b| {
            let q = fresh.name("q");
            format!(
                "(let {q} = {a} / {b} in if {q} * {b} == {a} then {q} else \
                 if b2i (lti {a} 0) == b2i (lti {b} 0) then {q} else {q} - 1)"
            )
        })
    })
}

/// a mod b with the sign of b, from FCL's truncating remainder.
fn floored_mod(a: &str, b: &str, fresh: &Fresh) -> String {
    if positive_literal(b) {
        // b > 0: a negative truncated remainder moves up by b
        let r = fresh.name("r");
        return format!("(let {r} = {a} % {b} in if lti {r} 0 then {r} + {b} else {r})");
    }
    share(fresh, b, |b| {
        let r = fresh.name("r");
        format!(
            "(let {r} = {a} % {b} in if {r} == 0 then 0 else \
             if b2i (lti {r} 0) == b2i (lti {b} 0) then {r} else {r} + {b})"
        )
    })
}
