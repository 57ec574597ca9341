//! The -O2 passes. Every expression is pure (division helpers are total), so moving, merging or
//! dropping a declaration never changes what a kernel writes.

use super::names_in_expr;
use super::walk::{any_expr, has_barrier, in_blocks, map_exprs, visit_stmts};
use crate::kir::eval::{fold_op, lit, Lit};
use crate::kir::{Expr, Geom, Module, Stmt};
use semantics::fcl::core::ScalarOp;
use std::collections::HashSet;
use std::rc::Rc;

/// Largest trip count of a loop that is unrolled.
pub const UNROLL_LIMIT: i32 = 4;

/// The -O2 pipeline over every kernel, run to a fixed point (at most 8 rounds).
pub fn optimize(m: &mut Module) {
    let block_size = m.block_size as i32;
    for k in &mut m.kernels {
        k.body = single_trip_loops(std::mem::take(&mut k.body), block_size);
        // (before the fixed point: peeling the recurrence's first trip would hide it)
        k.body = super::carried_recurrences(std::mem::take(&mut k.body));
        for _ in 0..8 {
            let before = k.body.clone();
            let mut body = std::mem::take(&mut k.body);
            body = fold_block(body);
            body = unroll(body);
            body = peel_first_trip(body);
            body = propagate(body);
            body = cse(body);
            body = hoist(body);
            body = super::strength_reduce(body, block_size);
            body = dead_code(body);
            k.body = body;
            if k.body == before {
                break;
            }
        }
        let locals = k.locals.iter().map(|(n, ..)| n.clone()).collect();
        k.body = super::fewer_barriers(std::mem::take(&mut k.body), &locals);
    }
}

/// Parallel loops that give each work-item (or work-group) at most one iteration lose their loop:
/// a block loop over a literal `n ≤ block_size` becomes `if (lid < n)` (no test when equal), a
/// grid loop over a literal `n ≤ MAX_GROUPS` becomes its body (exactly `n` groups are launched).
pub fn single_trip_loops(stmts: Vec<Stmt>, block_size: i32) -> Vec<Stmt> {
    let mut out = Vec::new();
    for s in stmts {
        match s {
            Stmt::For {
                var,
                start: Expr::Geom(g @ (Geom::LocalId | Geom::GroupId)),
                end: Expr::Int(n),
                step: Expr::Geom(Geom::LocalSize | Geom::NumGroups),
                body,
            } if (g == Geom::LocalId && n <= block_size && !has_barrier(&body))
                || (g == Geom::GroupId && n as usize <= crate::kir::MAX_GROUPS) =>
            {
                let mut inner = vec![Stmt::Decl(var, crate::kir::Ty::Int, Expr::Geom(g))];
                inner.extend(single_trip_loops(body, block_size));
                // a group's only iteration needs no barrier to protect the next one
                if g == Geom::GroupId && inner.last() == Some(&Stmt::Barrier) {
                    inner.pop();
                }
                let whole = g == Geom::GroupId || n == block_size;
                let cond = if whole {
                    Expr::Bool(true)
                } else {
                    Expr::op(ScalarOp::LtI, vec![Expr::Geom(g), Expr::Int(n)])
                };
                out.push(Stmt::If(cond, inner, Vec::new()));
            }
            s => out.push(in_blocks(s, &mut |b| single_trip_loops(b, block_size))),
        }
    }
    out
}

/// Constant folding, algebraic identities and static branches.
pub fn fold_block(stmts: Vec<Stmt>) -> Vec<Stmt> {
    let stmts = map_exprs(stmts, &mut fold_expr);
    let mut out = Vec::new();
    for s in stmts {
        match s {
            Stmt::If(Expr::Bool(true), t, e) if e.is_empty() && !declares(&t) => {
                out.extend(fold_block(t))
            }
            Stmt::If(Expr::Bool(c), t, e) => {
                let taken = fold_block(if c { t } else { e });
                if !taken.is_empty() {
                    out.push(Stmt::If(Expr::Bool(true), taken, Vec::new()));
                }
            }
            s => out.push(in_blocks(s, &mut fold_block)),
        }
    }
    out
}

fn declares(stmts: &[Stmt]) -> bool {
    stmts
        .iter()
        .any(|s| matches!(s, Stmt::Decl(..) | Stmt::Private(..)))
}

/// One folding step on an expression whose operands are already folded.
pub fn fold_expr(e: Expr) -> Expr {
    use ScalarOp::*;
    match e {
        Expr::Op(op, args) => {
            let folded = fold_op(op, args);
            let Expr::Op(op, args) = folded else {
                return folded;
            };
            let (a, b) = (args.first().and_then(lit), args.get(1).and_then(lit));
            match (op, a, b) {
                (AddI, Some(Lit::Int(0)), _) => args[1].clone(),
                (AddI | SubI, _, Some(Lit::Int(0))) => args[0].clone(),
                (MulI, Some(Lit::Int(1)), _) => args[1].clone(),
                (MulI | DivI, _, Some(Lit::Int(1))) => args[0].clone(),
                (MulI, Some(Lit::Int(0)), _) | (MulI, _, Some(Lit::Int(0))) => Expr::Int(0),
                (ModI, _, Some(Lit::Int(1))) => Expr::Int(0),
                (Sll | Srl, _, Some(Lit::Int(0))) => args[0].clone(),
                _ => Expr::Op(op, args),
            }
        }
        Expr::Select(c, a, b) => match *c {
            Expr::Bool(true) => *a,
            Expr::Bool(false) => *b,
            c => Expr::Select(Box::new(c), a, b),
        },
        e => e,
    }
}

/// Variables that some statement assigns after their declaration (if-results).
pub(super) fn assigned(stmts: &[Stmt], out: &mut HashSet<Rc<str>>) {
    visit_stmts(stmts, &mut |s| {
        if let Stmt::Assign(n, _) = s {
            out.insert(n.clone());
        }
    });
}

/// Substitutes `by` for variable `name` in a block.
pub fn substitute(stmts: Vec<Stmt>, name: &str, by: &Expr) -> Vec<Stmt> {
    map_exprs(stmts, &mut |e| match e {
        Expr::Var(v) if &*v == name => by.clone(),
        e => e,
    })
}

/// Renames array `from` to `to` in a block (its stores and loads).
pub fn rename_array(stmts: Vec<Stmt>, from: &str, to: &Rc<str>) -> Vec<Stmt> {
    fn stores(stmts: Vec<Stmt>, from: &str, to: &Rc<str>) -> Vec<Stmt> {
        stmts
            .into_iter()
            .map(|s| match s {
                Stmt::Store(b, i, v) if &*b == from => Stmt::Store(to.clone(), i, v),
                s => in_blocks(s, &mut |b| stores(b, from, to)),
            })
            .collect()
    }
    let stmts = map_exprs(stmts, &mut |e| match e {
        Expr::Load(b, i) if &*b == from => Expr::Load(to.clone(), i),
        e => e,
    });
    stores(stmts, from, to)
}

/// Constant and copy propagation: a declaration of a literal or of a variable that is never
/// reassigned is replaced by its value in the rest of its block (the declaration stays for
/// dead-code elimination to remove).
pub fn propagate(stmts: Vec<Stmt>) -> Vec<Stmt> {
    let mut fixed = HashSet::new();
    assigned(&stmts, &mut fixed);
    propagate_in(stmts, &fixed)
}

fn propagate_in(stmts: Vec<Stmt>, reassigned: &HashSet<Rc<str>>) -> Vec<Stmt> {
    let mut out = Vec::new();
    let mut rest: std::collections::VecDeque<Stmt> = stmts.into();
    while let Some(s) = rest.pop_front() {
        let s = in_blocks(s, &mut |b| propagate_in(b, reassigned));
        if let Stmt::Decl(n, _, e) = &s {
            let copyable = match e {
                Expr::Int(_) | Expr::Double(_) | Expr::Bool(_) | Expr::Geom(_) => true,
                Expr::Var(v) => !reassigned.contains(v),
                _ => false,
            };
            if copyable && !reassigned.contains(n) {
                rest = substitute(rest.into(), n, e).into();
            }
        }
        out.push(s);
    }
    out
}

/// Common subexpressions: a later declaration of an expression already declared earlier in the
/// same block (without loads, over variables never reassigned) becomes a copy of the first.
pub fn cse(stmts: Vec<Stmt>) -> Vec<Stmt> {
    let mut fixed = HashSet::new();
    assigned(&stmts, &mut fixed);
    cse_in(stmts, &fixed)
}

fn cse_in(stmts: Vec<Stmt>, reassigned: &HashSet<Rc<str>>) -> Vec<Stmt> {
    let mut seen: Vec<(Expr, Rc<str>)> = Vec::new();
    let mut out = Vec::new();
    for s in stmts {
        match s {
            Stmt::Decl(n, t, e) if !e.is_atomic() && pure_of(&e, reassigned) => {
                if let Some((_, first)) = seen.iter().find(|(x, _)| *x == e) {
                    out.push(Stmt::Decl(n, t, Expr::Var(first.clone())));
                } else {
                    seen.push((e.clone(), n.clone()));
                    out.push(Stmt::Decl(n, t, e));
                }
            }
            s => out.push(in_blocks(s, &mut |b| cse_in(b, reassigned))),
        }
    }
    out
}

fn pure_of(e: &Expr, reassigned: &HashSet<Rc<str>>) -> bool {
    let mut names = Vec::new();
    names_in_expr(e, &mut names);
    !has_load(e) && names.iter().all(|n| !reassigned.contains(n))
}

fn has_load(e: &Expr) -> bool {
    any_expr(e, &mut |x| matches!(x, Expr::Load(..)))
}

/// Dead code: declarations of scalars nobody reads, and every assignment to them, repeatedly.
/// Dropping an assignment whose value could fail (a division by zero) is right: FCL's lets are
/// by name, so the oracle never evaluates a value nobody uses.
pub fn dead_code(stmts: Vec<Stmt>) -> Vec<Stmt> {
    let mut stmts = stmts;
    loop {
        let mut used = Vec::new();
        super::names_in_block(&stmts, &mut used);
        let used: HashSet<Rc<str>> = used.into_iter().collect();
        let before = stmts.len();
        let (next, removed) = drop_unused(stmts, &used);
        stmts = next;
        if !removed && stmts.len() == before {
            return stmts;
        }
    }
}

fn drop_unused(stmts: Vec<Stmt>, used: &HashSet<Rc<str>>) -> (Vec<Stmt>, bool) {
    let mut removed = false;
    let mut out = Vec::new();
    for s in stmts {
        match s {
            Stmt::Decl(n, _, _) | Stmt::Assign(n, _) if !used.contains(&n) => removed = true,
            s => out.push(in_blocks(s, &mut |b| {
                let (b, r) = drop_unused(b, used);
                removed |= r;
                b
            })),
        }
    }
    (out, removed)
}

/// Unrolls sequential loops `0..n` step 1 with a literal `n ≤ UNROLL_LIMIT`; each copy is its
/// own scope. A loop with barriers unrolls too (a `power<block>` over a buffer pair): its trip
/// count is a literal, so every work-item still meets each barrier, and the copies' shift and
/// index arithmetic folds to constants.
pub fn unroll(stmts: Vec<Stmt>) -> Vec<Stmt> {
    let mut out = Vec::new();
    for s in stmts {
        match s {
            Stmt::For {
                var,
                start: Expr::Int(0),
                end: Expr::Int(n),
                step: Expr::Int(1),
                body,
            } if n <= UNROLL_LIMIT => {
                let body = unroll(body);
                for i in 0..n.max(0) {
                    let copy = substitute(body.clone(), &var, &Expr::Int(i));
                    out.push(Stmt::If(Expr::Bool(true), copy, Vec::new()));
                }
            }
            s => out.push(in_blocks(s, &mut unroll)),
        }
    }
    out
}

/// Peels the first trip of a sequential loop `0..n` (no barrier) whose body branches on
/// `var == 0` at its top level (a `seqfor` writing its first element apart, as `foldl` does):
/// the first trip runs alone, guarded by `0 < n` unless `n` is a positive literal, and the loop
/// goes on from 1 with only the other branch, so the inner loop has no conditional.
pub fn peel_first_trip(stmts: Vec<Stmt>) -> Vec<Stmt> {
    let mut out = Vec::new();
    for s in stmts {
        match s {
            Stmt::For {
                var,
                start: Expr::Int(0),
                end,
                step: Expr::Int(1),
                body,
            } if !has_barrier(&body) && body.iter().any(|b| tests_first(b, &var)) => {
                let body = peel_first_trip(body);
                let first = substitute(body.clone(), &var, &Expr::Int(0));
                let guard = match end {
                    Expr::Int(n) if n > 0 => Expr::Bool(true),
                    _ => Expr::op(ScalarOp::LtI, vec![Expr::Int(0), end.clone()]),
                };
                out.push(Stmt::If(guard, first, Vec::new()));
                let rest = body
                    .into_iter()
                    .map(|b| match b {
                        Stmt::If(_, _, e) if tests_first(&b, &var) => {
                            Stmt::If(Expr::Bool(true), e, Vec::new())
                        }
                        b => b,
                    })
                    .collect();
                out.push(Stmt::For {
                    var,
                    start: Expr::Int(1),
                    end,
                    step: Expr::Int(1),
                    body: rest,
                });
            }
            s => out.push(in_blocks(s, &mut peel_first_trip)),
        }
    }
    out
}

/// Whether `s` is `if (var == 0) … else …`.
fn tests_first(s: &Stmt, var: &str) -> bool {
    let Stmt::If(Expr::Op(ScalarOp::EqI, args), ..) = s else {
        return false;
    };
    let is_var = |e: &Expr| matches!(e, Expr::Var(v) if &**v == var);
    matches!(args.as_slice(), [a, Expr::Int(0)] | [Expr::Int(0), a] if is_var(a))
}

/// Loop-invariant hoisting: a declaration at the top level of a loop body whose expression has no
/// load and mentions nothing the loop declares, assigns or counts moves in front of the loop.
pub fn hoist(stmts: Vec<Stmt>) -> Vec<Stmt> {
    let mut out = Vec::new();
    for s in stmts {
        match s {
            Stmt::For {
                var,
                start,
                end,
                step,
                body,
            } => {
                let body = hoist(body);
                let mut local: HashSet<Rc<str>> = HashSet::new();
                local.insert(var.clone());
                declared(&body, &mut local);
                assigned(&body, &mut local);
                let mut kept = Vec::new();
                for b in body {
                    match b {
                        Stmt::Decl(n, t, e) if invariant(&e, &local) => {
                            local.remove(&n);
                            out.push(Stmt::Decl(n, t, e));
                        }
                        b => kept.push(b),
                    }
                }
                out.push(Stmt::For {
                    var,
                    start,
                    end,
                    step,
                    body: kept,
                });
            }
            s => out.push(in_blocks(s, &mut hoist)),
        }
    }
    out
}

fn declared(stmts: &[Stmt], out: &mut HashSet<Rc<str>>) {
    visit_stmts(stmts, &mut |s| match s {
        Stmt::Decl(n, ..) | Stmt::Private(n, ..) | Stmt::For { var: n, .. } => {
            out.insert(n.clone());
        }
        _ => {}
    });
}

fn invariant(e: &Expr, local: &HashSet<Rc<str>>) -> bool {
    let mut names = Vec::new();
    names_in_expr(e, &mut names);
    !e.is_atomic() && !has_load(e) && !may_fail(e) && names.iter().all(|n| !local.contains(n))
}

/// Whether evaluating `e` may raise a run-time error (division by a non-literal or zero, a
/// non-literal exponent, a `checki`), which must not move in front of a loop that might not run.
fn may_fail(e: &Expr) -> bool {
    any_expr(e, &mut |x| {
        matches!(x, Expr::Op(ScalarOp::DivI | ScalarOp::ModI | ScalarOp::PowI, a)
            if !matches!(a.get(1), Some(Expr::Int(d)) if *d > 0))
            || matches!(x, Expr::Op(op @ (ScalarOp::CheckI | ScalarOp::AddIChecked | ScalarOp::SubIChecked | ScalarOp::MulIChecked), a) if crate::kir::checks_errors(*op, a))
    })
}
