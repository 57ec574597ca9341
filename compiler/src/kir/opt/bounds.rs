//! Strength reduction of division and modulo by powers of two, and the value bounds it relies
//! on to drop the sign correction.

use super::map_exprs;
use super::passes::assigned;
use super::walk::visit_stmts;
use crate::kir::eval::{lit, Lit};
use crate::kir::{Expr, Geom, Stmt, Ty};
use semantics::fcl::core::ScalarOp;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

/// Strength reduction of `x / 2^k` and `x % 2^k` with the truncating semantics of the oracle:
/// a shift and a mask where `x ≥ 0` is known (see [`Bounds`]), the sign-corrected forms
/// otherwise. Kernels run with work-groups of `block_size` work-items.
pub fn strength_reduce(stmts: Vec<Stmt>, block_size: i32) -> Vec<Stmt> {
    let bounds = Bounds::of_block(&stmts, block_size);
    map_exprs(stmts, &mut |e| {
        split_shift_mask(reduce_div(e, &bounds), &bounds)
    })
}

/// Integer variables known to lie in `0..=bound`: work-item geometry (at most `MAX_GROUPS`
/// groups of `block_size` work-items are launched), counters of loops from a non-negative
/// start by a positive step (below their end), and declarations never reassigned whose
/// expression is a sum, product, shift, mask or quotient of such values that cannot overflow.
pub struct Bounds {
    block_size: i64,
    vars: HashMap<Rc<str>, Option<i64>>,
}

impl Bounds {
    /// The bounds of a kernel body's variables.
    pub fn of_block(stmts: &[Stmt], block_size: i32) -> Bounds {
        let mut reassigned = HashSet::new();
        assigned(stmts, &mut reassigned);
        let mut b = Bounds {
            block_size: block_size.max(1) as i64,
            vars: HashMap::new(),
        };
        b.collect(stmts, &reassigned);
        b
    }

    /// Every bound of a name declared more than once (the copies of an unrolled loop) is
    /// merged: the largest, or none when one copy has none.
    fn note(&mut self, n: &Rc<str>, ub: Option<i64>) {
        let merged = match self.vars.get(n) {
            Some(old) => old.zip(ub).map(|(a, b)| a.max(b)),
            None => ub,
        };
        self.vars.insert(n.clone(), merged);
    }

    fn collect(&mut self, stmts: &[Stmt], reassigned: &HashSet<Rc<str>>) {
        // pre-order: a loop's counter is bounded before its body is read
        visit_stmts(stmts, &mut |s| match s {
            Stmt::Decl(n, Ty::Int, e) if !reassigned.contains(n) => {
                let ub = self.upper(e);
                self.note(n, ub);
            }
            Stmt::Decl(n, ..) => self.note(n, None),
            Stmt::For {
                var,
                start,
                end,
                step,
                ..
            } => {
                let positive_step =
                    matches!(step, Expr::Int(k) if *k > 0) || matches!(step, Expr::Geom(_));
                let ub =
                    (positive_step && self.upper(start).is_some() && !reassigned.contains(var))
                        .then(|| self.upper(end).map_or(i32::MAX as i64, |u| (u - 1).max(0)));
                self.note(var, ub);
            }
            _ => {}
        });
    }

    /// The largest value of `e` when it is certainly in `0..=i32::MAX`.
    pub fn upper(&self, e: &Expr) -> Option<i64> {
        use ScalarOp::*;
        let fits = |u: i64| (0..=i32::MAX as i64).contains(&u).then_some(u);
        let groups = crate::kir::MAX_GROUPS as i64;
        match e {
            Expr::Int(i) => fits(*i as i64),
            Expr::Geom(g) => Some(match g {
                Geom::LocalId => self.block_size - 1,
                Geom::LocalSize => self.block_size,
                Geom::GroupId => groups - 1,
                Geom::NumGroups => groups,
                Geom::GlobalId => groups * self.block_size - 1,
                Geom::GlobalSize => groups * self.block_size,
            }),
            Expr::Var(v) => self.vars.get(v).copied().flatten(),
            Expr::Select(_, a, b) => Some(self.upper(a)?.max(self.upper(b)?)),
            Expr::Op(op, args) => {
                let arg = |i: usize| args.get(i).and_then(|a| self.upper(a));
                match (op, args.get(1)) {
                    (AddI, _) => fits(arg(0)? + arg(1)?),
                    (MulI, _) => fits(arg(0)?.checked_mul(arg(1)?)?),
                    (Srl, Some(Expr::Int(k))) => Some(arg(0)? >> (k & 31)),
                    (Srl, _) => arg(0),
                    (AndI, _) => match (arg(0), arg(1)) {
                        (Some(a), Some(b)) => Some(a.min(b)),
                        (a, b) => a.or(b),
                    },
                    (DivI, Some(Expr::Int(d))) if *d > 0 => Some(arg(0)? / *d as i64),
                    (ModI, Some(Expr::Int(d))) if *d > 0 => Some(arg(0)?.min(*d as i64 - 1)),
                    (MinI | MaxI, _) => Some(arg(0)?.max(arg(1)?)),
                    _ => None,
                }
            }
            _ => None,
        }
    }
}

/// Whether `e` is certainly `≥ 0`.
pub fn known_nonneg(e: &Expr, bounds: &Bounds) -> bool {
    bounds.upper(e).is_some()
}

fn reduce_div(e: Expr, bounds: &Bounds) -> Expr {
    use ScalarOp::*;
    let Expr::Op(op @ (DivI | ModI), args) = &e else {
        return e;
    };
    let Some(Lit::Int(d)) = args.get(1).and_then(lit) else {
        return e;
    };
    if d < 2 || d.count_ones() != 1 {
        return e;
    }
    let k = Expr::Int(d.trailing_zeros() as i32);
    let mask = Expr::Int(d - 1);
    let x = args[0].clone();
    let bin = |op, a, b| Expr::Op(op, vec![a, b]);
    if known_nonneg(&x, bounds) {
        return match op {
            DivI => bin(Srl, x, k),
            _ => bin(AndI, x, mask),
        };
    }
    if !x.is_atomic() {
        return e;
    }
    // truncation toward zero: add 2^k − 1 to negative dividends before shifting
    let bias = bin(AndI, bin(Srl, x.clone(), Expr::Int(31)), mask);
    let q = bin(Srl, bin(AddI, x.clone(), bias), k.clone());
    match op {
        DivI => q,
        _ => bin(SubI, x, bin(Sll, q, k)),
    }
}

/// A shift or mask of `x * 2^k + y` that separates the two parts again (the row and column of
/// a flattened index, recomputed where a forwarded read re-derives them): `(x * m + y) & (2^j - 1)`
/// is `y & (2^j - 1)` when `2^j` divides `m` (wrapping arithmetic keeps the low bits), and just
/// `y` when `0 ≤ y < 2^j`; `(x * 2^k + y) >> k` is `x + (y >> k)` when `x`, `y` and the sum are
/// known non-negative (no overflow), and just `x` when `y < 2^k`.
fn split_shift_mask(e: Expr, bounds: &Bounds) -> Expr {
    use ScalarOp::*;
    let Expr::Op(op @ (Srl | AndI), args) = &e else {
        return e;
    };
    let (Some(sum), Some(Expr::Int(c))) = (args.first(), args.get(1)) else {
        return e;
    };
    let Some((x, m, y)) = scaled_sum(sum) else {
        return e;
    };
    let bin = |op, a, b| Expr::Op(op, vec![a, b]);
    match op {
        AndI if *c >= 0 && (*c as i64 + 1).count_ones() == 1 && m % (*c as i64 + 1) == 0 => {
            match bounds.upper(y) {
                Some(ub) if ub <= *c as i64 => y.clone(),
                _ => bin(AndI, y.clone(), Expr::Int(*c)),
            }
        }
        Srl if (1..31).contains(c) && m == 1i64 << c => {
            let known = bounds.upper(x).is_some() && bounds.upper(sum).is_some();
            match bounds.upper(y) {
                Some(ub) if known && ub < m => x.clone(),
                Some(_) if known => bin(AddI, x.clone(), bin(Srl, y.clone(), Expr::Int(*c))),
                _ => e,
            }
        }
        _ => e,
    }
}

/// `x * m + y` (either order of the sum and of the product) with a positive literal `m`.
fn scaled_sum(e: &Expr) -> Option<(&Expr, i64, &Expr)> {
    let Expr::Op(ScalarOp::AddI, terms) = e else {
        return None;
    };
    fn scaled(t: &Expr) -> Option<(&Expr, i64)> {
        match t {
            Expr::Op(ScalarOp::MulI, f) => match f.as_slice() {
                [x, Expr::Int(m)] | [Expr::Int(m), x] if *m > 0 => Some((x, *m as i64)),
                _ => None,
            },
            _ => None,
        }
    }
    match terms.as_slice() {
        [a, b] => match (scaled(a), scaled(b)) {
            (Some((x, m)), _) => Some((x, m, b)),
            (None, Some((x, m))) => Some((x, m, a)),
            _ => None,
        },
        _ => None,
    }
}
