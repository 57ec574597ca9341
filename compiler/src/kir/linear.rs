//! Integer expressions as linear combinations of their non-linear parts, to find sizes that are
//! constant although they mention run-time values: `range s (s + n - 2)` has length
//! `(s + n - 2) - s + 1`, which is `n - 1` for every `s`. Integers wrap (spec §4.2), and `+`,
//! `-` and `*` by a constant are ring operations modulo 2^32, so the rewriting is exact.

use super::eval::{lit, Lit};
use super::Expr;
use semantics::fcl::core::ScalarOp;

/// A linear combination: a constant and (term, coefficient) pairs, terms compared structurally.
#[derive(Default)]
struct Linear {
    constant: i32,
    terms: Vec<(Expr, i32)>,
}

impl Linear {
    fn add(&mut self, other: Linear, sign: i32) {
        self.constant = self
            .constant
            .wrapping_add(other.constant.wrapping_mul(sign));
        for (t, c) in other.terms {
            let c = c.wrapping_mul(sign);
            match self.terms.iter_mut().find(|(u, _)| *u == t) {
                Some((_, d)) => *d = d.wrapping_add(c),
                None => self.terms.push((t, c)),
            }
        }
    }

    fn scale(mut self, k: i32) -> Linear {
        self.constant = self.constant.wrapping_mul(k);
        for (_, c) in &mut self.terms {
            *c = c.wrapping_mul(k);
        }
        self
    }
}

/// The integer `e` always evaluates to, when its run-time parts cancel (e.g. `(s + 5) - s`).
pub fn constant_int(e: &Expr) -> Option<i32> {
    constant_int_with(e, &|_| None)
}

/// [`constant_int`], seeing through variables: `defs(v)` is the expression variable `v` always
/// holds (a temporary that is declared once and never assigned), if any.
pub fn constant_int_with(e: &Expr, defs: &dyn Fn(&str) -> Option<Expr>) -> Option<i32> {
    if let Some(Lit::Int(i)) = lit(e) {
        return Some(i);
    }
    let l = linear(e, defs, 0);
    l.terms.iter().all(|(_, c)| *c == 0).then_some(l.constant)
}

/// How many variables deep [`linear`] looks through definitions.
const MAX_DEPTH: usize = 32;

fn linear(e: &Expr, defs: &dyn Fn(&str) -> Option<Expr>, depth: usize) -> Linear {
    if let Some(Lit::Int(i)) = lit(e) {
        return Linear {
            constant: i,
            terms: Vec::new(),
        };
    }
    let sub = |e: &Expr| linear(e, defs, depth + 1);
    match e {
        Expr::Var(v) if depth < MAX_DEPTH => match defs(v) {
            Some(d) => sub(&d),
            None => opaque(e),
        },
        Expr::Op(op @ (ScalarOp::AddI | ScalarOp::SubI), args) if args.len() == 2 => {
            let mut l = sub(&args[0]);
            l.add(sub(&args[1]), if *op == ScalarOp::AddI { 1 } else { -1 });
            l
        }
        Expr::Op(ScalarOp::MulI, args) if args.len() == 2 => {
            let (a, b) = (sub(&args[0]), sub(&args[1]));
            match (a.terms.is_empty(), b.terms.is_empty()) {
                (true, _) => b.scale(a.constant),
                (_, true) => a.scale(b.constant),
                _ => opaque(e),
            }
        }
        _ => opaque(e),
    }
}

fn opaque(e: &Expr) -> Linear {
    Linear {
        constant: 0,
        terms: vec![(e.clone(), 1)],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn op(o: ScalarOp, a: Expr, b: Expr) -> Expr {
        Expr::op(o, vec![a, b])
    }

    #[test]
    fn a_range_length_over_a_run_time_start_is_constant() {
        let s = Expr::var("s");
        let end = op(
            ScalarOp::SubI,
            op(ScalarOp::AddI, s.clone(), Expr::Int(64)),
            Expr::Int(2),
        );
        let len = op(
            ScalarOp::AddI,
            op(ScalarOp::SubI, end, s.clone()),
            Expr::Int(1),
        );
        assert_eq!(constant_int(&len), Some(63));
        let scaled = op(ScalarOp::MulI, Expr::Int(3), len);
        assert_eq!(constant_int(&scaled), Some(189));
    }

    #[test]
    fn definitions_of_temporaries_are_seen_through() {
        // t1 = s * 64; t2 = t1 + 62; length t2 - t1 + 1
        let defs = |v: &str| match v {
            "t1" => Some(op(ScalarOp::MulI, Expr::var("s"), Expr::Int(64))),
            "t2" => Some(op(ScalarOp::AddI, Expr::var("t1"), Expr::Int(62))),
            _ => None,
        };
        let len = op(
            ScalarOp::AddI,
            op(ScalarOp::SubI, Expr::var("t2"), Expr::var("t1")),
            Expr::Int(1),
        );
        assert_eq!(constant_int(&len), None);
        assert_eq!(constant_int_with(&len, &defs), Some(63));
    }

    #[test]
    fn run_time_parts_that_do_not_cancel_are_not_constant() {
        let s = Expr::var("s");
        let t = Expr::var("t");
        assert_eq!(constant_int(&op(ScalarOp::SubI, s.clone(), t)), None);
        assert_eq!(
            constant_int(&op(ScalarOp::MulI, s.clone(), s.clone())),
            None
        );
        assert_eq!(
            constant_int(&op(
                ScalarOp::DivI,
                op(ScalarOp::SubI, s.clone(), s),
                Expr::Int(1)
            )),
            None
        );
    }
}
