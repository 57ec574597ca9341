//! What compiled programs reach: the FCL constructs and levels a campaign's lowered and compiled
//! programs exercise (block-level reductions and scans, local memory, barriers, grids of several
//! work-groups, sequential loops, bounds guards of partial blocks), counted per program, so a
//! campaign's statistics show which parts of the compiler its programs test.

use compiler::kir::opt::walk::{any_stmt, has_barrier, own_exprs, visit_stmts};
use compiler::kir::{Expr, HostStep, Module, Stmt};
use semantics::fcl::core::ScalarOp;

/// The lowering's choices for reductions and scans, as the comments of the lowered FCL name
/// them (`compiler::tail`'s modules `reduce` and `scan`; in a loop's step, after a marker),
/// with the construct each counts as.
const LOWERED: [(&str, &str); 4] = [
    ("reduce: block-level tree", "block-level reduce"),
    ("scan: block-level reduce-then-scan", "block-level scan"),
    ("reduce: thread-level fold", "thread-level fold"),
    ("scan: thread-level", "thread-level scan"),
];

/// The constructs one program reaches: from the comments of its lowered FCL (a TAIL
/// program's; none for an FCL program) and its compiled module.
pub fn reached(lowered_comments: &[&str], m: &Module) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = LOWERED
        .iter()
        .filter(|(choice, _)| lowered_comments.iter().any(|c| c.contains(choice)))
        .map(|&(_, name)| name)
        .collect();
    let kernels = &m.kernels;
    if kernels.iter().any(|k| !k.locals.is_empty()) {
        out.push("local memory");
    }
    if kernels.iter().any(|k| has_barrier(&k.body)) {
        out.push("barriers");
    }
    if launches_several_groups(&m.plan) {
        out.push("multi-block grids");
    }
    let in_bodies = |p: &mut dyn FnMut(&Stmt) -> bool| kernels.iter().any(|k| any_stmt(&k.body, p));
    if in_bodies(&mut |s| {
        matches!(
            s,
            Stmt::For {
                start: Expr::Int(0),
                step: Expr::Int(1),
                ..
            }
        )
    }) {
        out.push("sequential loops");
    }
    if in_bodies(&mut |s| matches!(s, Stmt::If(Expr::Op(ScalarOp::LtI, _), _, e) if e.is_empty())) {
        out.push("bounds guards");
    }
    if kernels.iter().any(|k| divides(&k.body)) {
        out.push("integer / and %");
    }
    out
}

/// Whether some launch of the plan runs more than one work-group (a computed count counts).
fn launches_several_groups(plan: &[HostStep]) -> bool {
    plan.iter().any(|s| match s {
        HostStep::Launch { groups, .. } => !matches!(groups, Expr::Int(0 | 1)),
        HostStep::Loop { body, .. } | HostStep::Benchmark { body, .. } => {
            launches_several_groups(body)
        }
        HostStep::While { cond, body, .. } => {
            launches_several_groups(cond) || launches_several_groups(body)
        }
        _ => false,
    })
}

/// Whether a kernel body divides integers.
fn divides(body: &[Stmt]) -> bool {
    let mut found = false;
    visit_stmts(body, &mut |s| {
        found = found || own_exprs(s).into_iter().any(has_division);
    });
    found
}

fn has_division(e: &Expr) -> bool {
    matches!(e, Expr::Op(ScalarOp::DivI | ScalarOp::ModI, _))
        || compiler::kir::opt::walk::operands(e)
            .into_iter()
            .any(has_division)
}
