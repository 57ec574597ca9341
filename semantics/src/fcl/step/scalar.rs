//! Scalar semantics (spec §4.2): rules 5.72, 5.73 and the "…" of Figure 5.13. `int` is i32 with
//! wrapping `+ - *`, truncating division, shifts modulo 32 and arithmetic `>>`; `double` is f64.
//! The extension for TAIL (docs/fcl-extensions.md) shares TAIL's scalar semantics
//! (`crate::tail::ops::scalar`), so that a TAIL program lowered to FCL computes what TAIL does.

use super::rules::{scalar, RunError};
use crate::fcl::core::ScalarOp;
use crate::fcl::value::Value;
use crate::tail::ops::scalar as tail;
use crate::Span;

/// Applies a scalar operation to its (already evaluated) arguments.
pub fn apply(op: ScalarOp, args: &[Value], span: Span) -> Result<Value, RunError> {
    use ScalarOp::*;
    let err = |why: String| RunError::new(scalar(op), span, why);
    let int = |i: usize| match args.get(i) {
        Some(Value::Int(x)) => Ok(*x),
        other => Err(err(format!("expected an int, got {}", show(other)))),
    };
    let dbl = |i: usize| match args.get(i) {
        Some(Value::Double(x)) => Ok(*x),
        other => Err(err(format!("expected a double, got {}", show(other)))),
    };
    let bool = |i: usize| match args.get(i) {
        Some(Value::Bool(x)) => Ok(*x),
        other => Err(err(format!("expected a bool, got {}", show(other)))),
    };
    Ok(match op {
        AddI => Value::Int(int(0)?.wrapping_add(int(1)?)),
        SubI => Value::Int(int(0)?.wrapping_sub(int(1)?)),
        MulI => Value::Int(int(0)?.wrapping_mul(int(1)?)),
        DivI | ModI => {
            let (a, b) = (int(0)?, int(1)?);
            if b == 0 {
                return Err(err(format!("division by zero ({a} {} 0)", op.name())));
            }
            Value::Int(if op == DivI {
                a.wrapping_div(b)
            } else {
                a.wrapping_rem(b)
            })
        }
        MinI => Value::Int(int(0)?.min(int(1)?)),
        MaxI => Value::Int(int(0)?.max(int(1)?)),
        PowI => {
            let (a, b) = (int(0)?, int(1)?);
            if b < 0 {
                return Err(err(format!("negative exponent ({a} powi {b})")));
            }
            Value::Int(a.wrapping_pow(b as u32))
        }
        AndI => Value::Int(int(0)? & int(1)?),
        OrI => Value::Int(int(0)? | int(1)?),
        Xor => Value::Int(int(0)? ^ int(1)?),
        Sll => Value::Int(int(0)?.wrapping_shl(int(1)? as u32)),
        Srl => Value::Int(int(0)?.wrapping_shr(int(1)? as u32)),
        EqI => Value::Bool(int(0)? == int(1)?),
        NeqI => Value::Bool(int(0)? != int(1)?),
        LtI => Value::Bool(int(0)? < int(1)?),
        AbsI => Value::Int(int(0)?.wrapping_abs()),
        SignI => Value::Int(int(0)?.signum()),
        Clz => Value::Int(int(0)?.leading_zeros() as i32),
        NegateI => Value::Int(int(0)?.wrapping_neg()),
        I2D => Value::Double(int(0)? as f64),
        B2I => match args.first() {
            Some(Value::Bool(b)) => Value::Int(*b as i32),
            other => return Err(err(format!("expected a bool, got {}", show(other)))),
        },
        AddD => Value::Double(dbl(0)? + dbl(1)?),
        SubD => Value::Double(dbl(0)? - dbl(1)?),
        MulD => Value::Double(dbl(0)? * dbl(1)?),
        DivD => Value::Double(dbl(0)? / dbl(1)?),
        NegateD => Value::Double(-dbl(0)?),
        // The extension for TAIL: C's libm functions (Rust's f64 methods).
        PowD => Value::Double(dbl(0)?.powf(dbl(1)?)),
        MaxD => Value::Double(tail::maxd(dbl(0)?, dbl(1)?)),
        MinD => Value::Double(tail::mind(dbl(0)?, dbl(1)?)),
        NegD => Value::Double(-dbl(0)?),
        AbsD => Value::Double(dbl(0)?.abs()),
        ExpD => Value::Double(dbl(0)?.exp()),
        LogD => Value::Double(dbl(0)?.ln()),
        SqrtD => Value::Double(dbl(0)?.sqrt()),
        SinD => Value::Double(dbl(0)?.sin()),
        CosD => Value::Double(dbl(0)?.cos()),
        TanD => Value::Double(dbl(0)?.tan()),
        AsinD => Value::Double(dbl(0)?.asin()),
        AcosD => Value::Double(dbl(0)?.acos()),
        AtanD => Value::Double(dbl(0)?.atan()),
        SinhD => Value::Double(dbl(0)?.sinh()),
        CoshD => Value::Double(dbl(0)?.cosh()),
        TanhD => Value::Double(dbl(0)?.tanh()),
        // NaN, ±inf and results outside int32 reduce to err, as in TAIL
        FloorD => Value::Int(tail::floor(dbl(0)?).map_err(err)?),
        CeilD => Value::Int(tail::ceil(dbl(0)?).map_err(err)?),
        SignD => Value::Int(tail::signd(dbl(0)?)),
        LtD => Value::Bool(dbl(0)? < dbl(1)?),
        LeD => Value::Bool(dbl(0)? <= dbl(1)?),
        GtD => Value::Bool(dbl(0)? > dbl(1)?),
        GeD => Value::Bool(dbl(0)? >= dbl(1)?),
        EqD => Value::Bool(dbl(0)? == dbl(1)?),
        AndB => Value::Bool(bool(0)? && bool(1)?),
        OrB => Value::Bool(bool(0)? || bool(1)?),
        XorB => Value::Bool(bool(0)? != bool(1)?),
        EqB => Value::Bool(bool(0)? == bool(1)?),
        NotB => Value::Bool(!bool(0)?),
        // the encoding's halves, reinterpreted as two's complement ints
        DoubleHiBits => Value::Int((dbl(0)?.to_bits() >> 32) as u32 as i32),
        DoubleLoBits => Value::Int(dbl(0)?.to_bits() as u32 as i32),
        // a failed check names its site; the TAIL lowering maps the site back to the TAIL
        // oracle's rule, reason and place (compiler::tail::Lowered::sites)
        CheckI => {
            let (site, bad, x) = (int(0)?, bool(1)?, int(2)?);
            if bad {
                return Err(err(check_failure(site)));
            }
            Value::Int(x)
        }
        AddIChecked | SubIChecked | MulIChecked => {
            let (site, a, b) = (int(0)?, int(1)?, int(2)?);
            let r = match op {
                AddIChecked => a.checked_add(b),
                SubIChecked => a.checked_sub(b),
                _ => a.checked_mul(b),
            };
            Value::Int(r.ok_or_else(|| err(check_failure(site)))?)
        }
        // the site and draw index as unsigned 32-bit numbers, as compiled code reads them
        RollAt => {
            let (site, k, n) = (int(0)?, int(1)?, int(2)?);
            Value::Double(crate::tail::ops::io::roll_at(
                site as u32,
                u64::from(k as u32),
                n,
            ))
        }
    })
}

/// The reason of a failed `checki` at `site`: `check site N failed` (compiled code reports the
/// same words, naming the kernel).
pub fn check_failure(site: i32) -> String {
    format!("check site {site} failed")
}

/// The site of a failed `checki` in an error text that contains [`check_failure`]'s words.
pub fn failed_site(text: &str) -> Option<usize> {
    let rest = &text[text.find("check site ")? + "check site ".len()..];
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

fn show(v: Option<&Value>) -> String {
    v.map_or_else(|| "nothing".into(), |v| v.to_string())
}
