//! Sequential loops in lockstep, for devices that run a work-group as a loop over its
//! work-items (CPU implementations such as PoCL). Such a device vectorizes the loop over the
//! work-items, one work-item per SIMD lane, but only across straight-line code: a work-item
//! that runs a sequential loop of its own (the per-thread part of a reduction, `foldl`, a
//! `seqfor`) runs it alone, scalar, math functions included. A barrier at the end of
//! each trip turns the nesting around: the device splits the work-group's code at barriers, so
//! the trip loop runs outside and the loop over work-items inside, one trip of every
//! work-item at a time, vectorized. Measured on PoCL (2 cores, AVX-512): the per-thread fold of
//! blackscholes (`exp`, `log`, division) ran 2.8 times as fast.
//!
//! A barrier must be reached by every work-item of the group or by none, so only loops whose
//! every trip every work-item runs get one: loops whose bounds are the same for the whole
//! group (literals, group geometry, variables declared from such and never reassigned, the
//! counters of such loops), reached through nothing but blocks and such loops, never under
//! a condition. Only innermost loops that compute math functions (elsewhere the barrier's
//! cost, saving and restoring each work-item's live variables per trip, outweighs the gain)
//! and have no barrier of their own are changed, and
//! only in kernels that index their private arrays by literals alone: a private array indexed
//! by data or by a loop counter (a `seqfor`'s counters, as in the radix sort's histograms and
//! scans) that lives across a barrier becomes per-work-item copies in memory, which ran the
//! radix sort's kernels up to 10 times as slow.

use super::walk::{any_expr, any_stmt, has_barrier, own_exprs, visit_stmts};
use crate::kir::{Expr, Geom, Kernel, Stmt};
use semantics::fcl::core::ScalarOp;
use std::collections::HashSet;
use std::rc::Rc;

/// Puts a barrier at the end of the body of every innermost sequential loop of `k` that the
/// whole work-group runs in step; returns whether any loop changed.
pub fn lockstep_loops(k: &mut Kernel) -> bool {
    let mut assigned = HashSet::new();
    visit_stmts(&k.body, &mut |s| {
        if let Stmt::Assign(n, _) = s {
            assigned.insert(n.clone());
        }
    });
    let mut cx = Context {
        assigned,
        private: HashSet::new(),
        uniform: HashSet::new(),
    };
    visit_stmts(&k.body, &mut |s| {
        if let Stmt::Private(n, ..) = s {
            cx.private.insert(n.clone());
        }
    });
    if private_by_data(&k.body, &cx) {
        return false;
    }
    walk(&mut k.body, &mut cx)
}

/// What the walk knows about a kernel's names.
struct Context {
    /// Variables assigned somewhere.
    assigned: HashSet<Rc<str>>,
    /// Private arrays.
    private: HashSet<Rc<str>>,
    /// Variables with one value for the whole work-group where the walk is.
    uniform: HashSet<Rc<str>>,
}

/// Whether the kernel indexes a private array other than by a literal (a fold's accumulator
/// is `p[0]`): every barrier splits the work-group's code around such an array, which the
/// device then keeps as one copy per work-item in memory, indexed by lane.
fn private_by_data(body: &[Stmt], cx: &Context) -> bool {
    let by_data = |i: &Expr| !matches!(i, Expr::Int(_));
    let load = |e: &Expr| {
        any_expr(
            e,
            &mut |x| matches!(x, Expr::Load(a, i) if cx.private.contains(a) && by_data(i)),
        )
    };
    any_stmt(body, &mut |s| {
        matches!(s, Stmt::Store(a, i, _) if cx.private.contains(a) && by_data(i))
            || own_exprs(s).into_iter().any(load)
    })
}

/// Whether a loop body computes a double math function (`exp`, `log`, `pow`, the
/// trigonometric and hyperbolic ones): long straight-line code or library calls, several
/// times as fast vectorized. Without them the barrier per trip only costs (each trip
/// saves and restores every work-item's live variables): sobol's loop over the bits of its
/// index ran 13 times as slow, primes' fold of remainders 10 times.
fn calls_math(body: &[Stmt]) -> bool {
    use ScalarOp::*;
    let math = |e: &Expr| {
        any_expr(e, &mut |x| {
            matches!(
                x,
                Expr::Op(
                    ExpD | LogD
                        | PowD
                        | SinD
                        | CosD
                        | TanD
                        | AsinD
                        | AcosD
                        | AtanD
                        | SinhD
                        | CoshD
                        | TanhD,
                    _
                )
            )
        })
    };
    any_stmt(body, &mut |s| own_exprs(s).into_iter().any(math))
}

/// Whether `e` has one value for the whole work-group.
fn is_uniform(e: &Expr, uniform: &HashSet<Rc<str>>) -> bool {
    !any_expr(e, &mut |x| match x {
        Expr::Geom(g) => matches!(g, Geom::LocalId | Geom::GlobalId),
        Expr::Var(n) => !uniform.contains(n),
        Expr::Load(..) => true,
        _ => false,
    })
}

fn walk(stmts: &mut [Stmt], cx: &mut Context) -> bool {
    let mut changed = false;
    for s in stmts.iter_mut() {
        match s {
            Stmt::Decl(n, _, e) if !cx.assigned.contains(n) && is_uniform(e, &cx.uniform) => {
                cx.uniform.insert(n.clone());
            }
            Stmt::If(Expr::Bool(true), t, e) if e.is_empty() => {
                changed |= walk(t, cx);
            }
            Stmt::For {
                var,
                start,
                end,
                step,
                body,
            } if [&*start, &*end, &*step]
                .iter()
                .all(|e| is_uniform(e, &cx.uniform)) =>
            {
                cx.uniform.insert(var.clone());
                let inner = any_stmt(body, &mut |s| matches!(s, Stmt::For { .. }));
                if inner {
                    changed |= walk(body, cx);
                } else if !has_barrier(body) && calls_math(body) {
                    body.push(Stmt::Barrier);
                    changed = true;
                }
            }
            _ => {}
        }
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kir::Ty;

    fn for_loop(var: &str, start: Expr, end: Expr, body: Vec<Stmt>) -> Stmt {
        Stmt::For {
            var: var.into(),
            start,
            end,
            step: Expr::Int(1),
            body,
        }
    }

    fn kernel(body: Vec<Stmt>) -> Kernel {
        Kernel {
            name: "k".into(),
            params: Vec::new(),
            locals: Vec::new(),
            body,
        }
    }

    fn barriers(stmts: &[Stmt]) -> usize {
        let mut n = 0;
        visit_stmts(stmts, &mut |s| n += usize::from(matches!(s, Stmt::Barrier)));
        n
    }

    #[test]
    fn a_loop_the_whole_group_runs_gets_a_barrier_per_trip() {
        let exp = Expr::Op(ScalarOp::ExpD, vec![Expr::var("i")]);
        let acc = Stmt::Assign("a".into(), exp);
        let group = Stmt::Decl("g".into(), Ty::Int, Expr::Geom(Geom::GroupId));
        // a fold's accumulator: a private array at a fixed position
        let fold = Stmt::Store("p".into(), Expr::Int(0), Expr::var("i"));
        let mut k = kernel(vec![
            Stmt::Decl("a".into(), Ty::Int, Expr::Int(0)),
            Stmt::Private("p".into(), Ty::Int, 1),
            group,
            Stmt::If(
                Expr::Bool(true),
                vec![for_loop("i", Expr::Int(0), Expr::var("g"), vec![acc, fold])],
                Vec::new(),
            ),
        ]);
        assert!(lockstep_loops(&mut k));
        assert_eq!(barriers(&k.body), 1);
        // a second time: the loop has its barrier
        assert!(!lockstep_loops(&mut k));
    }

    #[test]
    fn loops_some_work_items_skip_or_run_differently_are_left_alone() {
        let acc = || Stmt::Assign("a".into(), Expr::Op(ScalarOp::LogD, vec![Expr::var("i")]));
        let lid = Expr::Geom(Geom::LocalId);
        let cases = vec![
            // under a real condition
            Stmt::If(
                Expr::var("c"),
                vec![for_loop("i", Expr::Int(0), Expr::Int(8), vec![acc()])],
                Vec::new(),
            ),
            // bounds that differ by work-item
            for_loop("i", lid.clone(), Expr::Int(8), vec![acc()]),
            for_loop("i", Expr::Int(0), Expr::var("x"), vec![acc()]),
            // a bound a variable gives that is reassigned
            for_loop("i", Expr::Int(0), Expr::var("a"), vec![acc()]),
            // no math call: the barrier would only cost
            for_loop(
                "i",
                Expr::Int(0),
                Expr::Int(8),
                vec![Stmt::Assign("a".into(), Expr::Int(1))],
            ),
            // a private array indexed by data
            for_loop(
                "i",
                Expr::Int(0),
                Expr::Int(8),
                vec![acc(), Stmt::Store("p".into(), Expr::var("x"), Expr::Int(1))],
            ),
            for_loop(
                "i",
                Expr::Int(0),
                Expr::Int(8),
                vec![
                    acc(),
                    Stmt::Assign("a".into(), Expr::Load("p".into(), Box::new(Expr::var("x")))),
                ],
            ),
        ];
        for case in cases {
            let mut k = kernel(vec![
                Stmt::Decl("a".into(), Ty::Int, Expr::Int(0)),
                Stmt::Decl("x".into(), Ty::Int, lid.clone()),
                Stmt::Private("p".into(), Ty::Int, 8),
                case,
            ]);
            assert!(!lockstep_loops(&mut k), "{:?}", k.body);
            assert_eq!(barriers(&k.body), 0);
        }
    }
}
