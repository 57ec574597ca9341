//! Evaluating IR expressions: constant folding (the compile-time evaluation of host structure,
//! with the oracle's scalar semantics) and the host plan's scalar interpreter.

use super::{Expr, Ty};
use semantics::fcl::core::ScalarOp;
use semantics::fcl::step::scalar::apply;
use semantics::fcl::value::Value;
use semantics::Span;
use std::collections::HashMap;

/// A host scalar value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Lit {
    Int(i32),
    Double(f64),
    Bool(bool),
}

impl Lit {
    /// Back to a literal expression.
    pub fn to_expr(self) -> Expr {
        match self {
            Lit::Int(i) => Expr::Int(i),
            Lit::Double(d) => Expr::Double(d),
            Lit::Bool(b) => Expr::Bool(b),
        }
    }
    /// Its type.
    pub fn ty(self) -> Ty {
        match self {
            Lit::Int(_) => Ty::Int,
            Lit::Double(_) => Ty::Double,
            Lit::Bool(_) => Ty::Bool,
        }
    }
    /// From `bytes` holding one element of type `ty` (little-endian, as the device stores it).
    pub fn from_bytes(ty: Ty, bytes: &[u8]) -> Option<Lit> {
        Some(match ty {
            Ty::Int => Lit::Int(i32::from_le_bytes(bytes.get(..4)?.try_into().ok()?)),
            Ty::Double => Lit::Double(f64::from_le_bytes(bytes.get(..8)?.try_into().ok()?)),
            Ty::Bool => Lit::Bool(*bytes.first()? != 0),
        })
    }
}

/// The literal value of a literal expression.
pub fn lit(e: &Expr) -> Option<Lit> {
    match e {
        Expr::Int(i) => Some(Lit::Int(*i)),
        Expr::Double(d) => Some(Lit::Double(*d)),
        Expr::Bool(b) => Some(Lit::Bool(*b)),
        _ => None,
    }
}

/// Applies `op` to literal arguments with the oracle's semantics; `Err` for division by zero
/// or a negative exponent (the oracle's run-time errors).
pub fn apply_op(op: ScalarOp, args: &[Lit]) -> Result<Lit, String> {
    let vals: Vec<Value> = args
        .iter()
        .map(|l| match l {
            Lit::Int(i) => Value::Int(*i),
            Lit::Double(d) => Value::Double(*d),
            Lit::Bool(b) => Value::Bool(*b),
        })
        .collect();
    match apply(op, &vals, Span::default()).map_err(|e| e.to_string())? {
        Value::Int(i) => Ok(Lit::Int(i)),
        Value::Double(d) => Ok(Lit::Double(d)),
        Value::Bool(b) => Ok(Lit::Bool(b)),
        other => Err(format!("{} gave {other:?}", op.name())),
    }
}

/// Folds `op` when every argument is a literal and the operation is defined on them; otherwise
/// builds the operation.
pub fn fold_op(op: ScalarOp, args: Vec<Expr>) -> Expr {
    let lits: Option<Vec<Lit>> = args.iter().map(lit).collect();
    match lits.map(|l| apply_op(op, &l)) {
        Some(Ok(v)) => v.to_expr(),
        _ => Expr::Op(op, args),
    }
}

/// Evaluates a host expression; `read` fetches `buf[idx]` for loads.
pub fn eval_host(
    e: &Expr,
    env: &HashMap<String, Lit>,
    read: &mut dyn FnMut(&str, i32) -> Result<Lit, String>,
) -> Result<Lit, String> {
    Ok(match e {
        Expr::Int(i) => Lit::Int(*i),
        Expr::Double(d) => Lit::Double(*d),
        Expr::Bool(b) => Lit::Bool(*b),
        Expr::Var(v) => *env
            .get(&**v)
            .ok_or_else(|| format!("host variable {v} is not set"))?,
        Expr::Geom(g) => return Err(format!("{g:?} on the host")),
        Expr::Op(op, args) => {
            let mut vals = Vec::new();
            for a in args {
                vals.push(eval_host(a, env, read)?);
            }
            apply_op(*op, &vals)?
        }
        Expr::Select(c, a, b) => match eval_host(c, env, read)? {
            Lit::Bool(true) => eval_host(a, env, read)?,
            _ => eval_host(b, env, read)?,
        },
        Expr::Load(buf, idx) => match eval_host(idx, env, read)? {
            Lit::Int(i) => read(buf, i)?,
            other => return Err(format!("index {other:?}")),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_with_truncating_division() {
        let e = fold_op(ScalarOp::DivI, vec![Expr::Int(-7), Expr::Int(2)]);
        assert_eq!(e, Expr::Int(-3));
        let e = fold_op(ScalarOp::ModI, vec![Expr::Int(-7), Expr::Int(2)]);
        assert_eq!(e, Expr::Int(-1));
    }

    #[test]
    fn leaves_division_by_zero_to_run_time() {
        let e = fold_op(ScalarOp::DivI, vec![Expr::Int(1), Expr::Int(0)]);
        assert!(matches!(e, Expr::Op(ScalarOp::DivI, _)));
    }
}
