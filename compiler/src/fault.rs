//! Fault injection: deliberate, realistic compiler bugs applied as rewrites of the kernel IR (or
//! the host plan) after lowering and optimization, before emission. The differential tester runs
//! the faulty compiler against the unchanged oracle; a fault it never catches marks a blind spot
//! of the generator (mutation testing, issue "Conformance", point 5).
//!
//! Each fault rewrites the FIRST site it finds (in kernel order, then statement order), so a
//! program exercises the fault exactly when it contains such a site.

use crate::kir::opt::walk::{operands_mut, parts_mut, visit_expr_mut, visit_stmts_mut};
use crate::kir::{Expr, Geom, HostStep, Kernel, Module, Param, Stmt, Ty};
pub use crate::tail::fault::LoweringFault;
use semantics::fcl::core::ScalarOp;
use std::rc::Rc;

/// A deliberate compiler bug.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fault {
    /// A global store writes one element too low (`buf[max(i - 1, 0)] = v`): an off-by-one in an
    /// interleave or store index.
    StoreIndexOffByOne,
    /// The first `barrier` of a kernel is dropped.
    MissingBarrier,
    /// Integer `/` or `%` (the first one found) floors instead of truncating (spec §4.2: the
    /// quotient truncates, the remainder has the sign of the dividend).
    FlooredMod,
    /// The initial value of an accumulator (a variable's first literal value, e.g. a
    /// reduction's neutral element or a padding lane's) is off by one.
    WrongNeutral,
    /// The operands of the first non-commutative operator (`-`, `/`, `%`, shifts) are swapped.
    SwappedOperands,
    /// The compiler assumes work-groups twice the size they are launched with (geometry
    /// queries replaced by constants, or half the work-groups launched).
    AssumedBlockSize,
    /// The first bounds guard `if (i < n) { ... }` without an else branch is dropped.
    DroppedBoundsGuard,
    /// Loads from a `__local` array read the next element (clamped to the array).
    LocalOffset,
    /// A sequential loop runs once too often (`i < n + 1`).
    LoopBoundPlusOne,
    /// Two global buffers of the same type share one allocation although both are live.
    SharedBuffer,
    /// Not a compiler bug but a planted failure of the thing under test (not in
    /// [`Fault::ALL`]): the first kernel with a buffer first stores far below its start, which
    /// kills the process on a CPU device (a segmentation fault), as a faulting kernel or a
    /// crashing OpenCL compiler would. Tests the tester's containment.
    PlantedCrash,
    /// A planted hang (not in [`Fault::ALL`]): the first kernel first loops forever (a loop
    /// whose step is 0, around a barrier every work-item reaches). Tests the watchdog.
    PlantedHang,
    /// A fault of the TAIL lowering (not of this compiler: [`inject`] finds no site for it;
    /// the TAIL tester plants it with `crate::tail::lower_tail_faulty`).
    Lowering(LoweringFault),
}

impl Fault {
    /// Every fault, in the order the mutation score reports them.
    pub const ALL: [Fault; 10] = [
        Fault::StoreIndexOffByOne,
        Fault::MissingBarrier,
        Fault::FlooredMod,
        Fault::WrongNeutral,
        Fault::SwappedOperands,
        Fault::AssumedBlockSize,
        Fault::DroppedBoundsGuard,
        Fault::LocalOffset,
        Fault::LoopBoundPlusOne,
        Fault::SharedBuffer,
    ];

    /// The planted failures of the tester's own tests, not compiler bugs.
    pub const PLANTED: [Fault; 2] = [Fault::PlantedCrash, Fault::PlantedHang];

    /// Every fault the TAIL tester scores: this compiler's ([`Fault::ALL`]), then the TAIL
    /// lowering's ([`LoweringFault::ALL`]).
    pub fn for_tail() -> Vec<Fault> {
        let lowering = LoweringFault::ALL.into_iter().map(Fault::Lowering);
        Fault::ALL.into_iter().chain(lowering).collect()
    }

    /// The TAIL lowering's fault, when this is one.
    pub fn lowering(self) -> Option<LoweringFault> {
        match self {
            Fault::Lowering(f) => Some(f),
            _ => None,
        }
    }

    /// The command-line name (`--inject NAME`).
    pub fn name(self) -> &'static str {
        match self {
            Fault::Lowering(f) => f.name(),
            Fault::StoreIndexOffByOne => "store-off-by-one",
            Fault::MissingBarrier => "missing-barrier",
            Fault::FlooredMod => "floored-mod",
            Fault::WrongNeutral => "wrong-neutral",
            Fault::SwappedOperands => "swapped-operands",
            Fault::AssumedBlockSize => "assumed-block-size",
            Fault::DroppedBoundsGuard => "dropped-bounds-guard",
            Fault::LocalOffset => "local-offset",
            Fault::LoopBoundPlusOne => "loop-bound-plus-one",
            Fault::SharedBuffer => "shared-buffer",
            Fault::PlantedCrash => "planted-crash",
            Fault::PlantedHang => "planted-hang",
        }
    }

    /// The fault named `name`, if any.
    pub fn parse(name: &str) -> Option<Fault> {
        Fault::for_tail()
            .into_iter()
            .chain(Fault::PLANTED)
            .find(|f| f.name() == name)
    }
}

/// Applies `fault` to `m`; true when a site was found and rewritten (the module is otherwise
/// unchanged).
pub fn inject(m: &mut Module, fault: Fault) -> bool {
    match fault {
        Fault::Lowering(_) => false,
        Fault::SharedBuffer => share_buffer(m),
        Fault::PlantedCrash => first_kernel(m, |k| {
            let Some(b) = k.params.iter().find_map(|p| match p {
                Param::Buffer(n, _) => Some(n.clone()),
                Param::Scalar(..) => None,
            }) else {
                return false;
            };
            // 2^30 elements below the buffer: gigabytes away from any mapping
            let value = Expr::Load(b.clone(), Box::new(Expr::Int(0)));
            k.body
                .insert(0, Stmt::Store(b, Expr::Int(-(1 << 30)), value));
            true
        }),
        Fault::PlantedHang => first_kernel(m, |k| {
            k.body.insert(
                0,
                Stmt::For {
                    var: "fcl_planted_hang".into(),
                    start: Expr::Int(0),
                    end: Expr::Int(1),
                    step: Expr::Int(0),
                    body: vec![Stmt::Barrier],
                },
            );
            true
        }),
        Fault::AssumedBlockSize => assume_block_size(m),
        Fault::LocalOffset => first_kernel(m, |k| {
            let locals: Vec<(Rc<str>, usize)> =
                k.locals.iter().map(|(n, _, l)| (n.clone(), *l)).collect();
            rewrite_exprs(&mut k.body, &mut |e| match e {
                Expr::Load(b, i) => {
                    let (_, len) = locals.iter().find(|(n, _)| n == b)?;
                    let next = Expr::op(ScalarOp::AddI, vec![(**i).clone(), Expr::Int(1)]);
                    let clamped = Expr::op(ScalarOp::MinI, vec![next, Expr::Int(*len as i32 - 1)]);
                    Some(Expr::Load(b.clone(), Box::new(clamped)))
                }
                _ => None,
            })
        }),
        Fault::FlooredMod => first_kernel(m, |k| {
            rewrite_exprs(&mut k.body, &mut |e| match e {
                Expr::Op(op @ (ScalarOp::ModI | ScalarOp::DivI), args) if args.len() == 2 => {
                    Some(floored(*op, args))
                }
                _ => None,
            })
        }),
        Fault::SwappedOperands => first_kernel(m, |k| {
            rewrite_exprs(&mut k.body, &mut |e| match e {
                Expr::Op(op, args) if args.len() == 2 && non_commutative(*op) => (args[0]
                    != args[1])
                    .then(|| Expr::Op(*op, vec![args[1].clone(), args[0].clone()])),
                _ => None,
            })
        }),
        Fault::StoreIndexOffByOne => first_kernel(m, |k| {
            let globals: Vec<Rc<str>> = k
                .params
                .iter()
                .filter_map(|p| match p {
                    Param::Buffer(n, _) => Some(n.clone()),
                    Param::Scalar(..) => None,
                })
                .collect();
            rewrite_stmts(&mut k.body, &mut |s| match s {
                Stmt::Store(b, i, v) if globals.contains(b) => {
                    let lower = Expr::op(ScalarOp::SubI, vec![i.clone(), Expr::Int(1)]);
                    let clamped = Expr::op(ScalarOp::MaxI, vec![lower, Expr::Int(0)]);
                    Some(vec![Stmt::Store(b.clone(), clamped, v.clone())])
                }
                _ => None,
            })
        }),
        Fault::MissingBarrier => first_kernel(m, |k| {
            rewrite_stmts(&mut k.body, &mut |s| {
                matches!(s, Stmt::Barrier).then(Vec::new)
            })
        }),
        Fault::DroppedBoundsGuard => first_kernel(m, |k| {
            rewrite_stmts(&mut k.body, &mut |s| match s {
                Stmt::If(Expr::Op(ScalarOp::LtI, _), then, els) if els.is_empty() => {
                    Some(then.clone())
                }
                _ => None,
            })
        }),
        Fault::LoopBoundPlusOne => first_kernel(m, |k| {
            rewrite_stmts(&mut k.body, &mut |s| match s {
                Stmt::For {
                    var,
                    start: Expr::Int(0),
                    end,
                    step: Expr::Int(1),
                    body,
                } => Some(vec![Stmt::For {
                    var: var.clone(),
                    start: Expr::Int(0),
                    end: Expr::op(ScalarOp::AddI, vec![end.clone(), Expr::Int(1)]),
                    step: Expr::Int(1),
                    body: body.clone(),
                }]),
                _ => None,
            })
        }),
        Fault::WrongNeutral => first_kernel(m, |k| wrong_neutral(&mut k.body)),
    }
}

/// Puts the first literal initial value (pre-order) that can be read off by one. The emitter
/// declares a variable with a placeholder and sets it right after (`int x = 0; x = 2147483647;`,
/// or an `if` assigning it in both branches): there the value set is the initial one, and a
/// fault in the placeholder would change nothing.
fn wrong_neutral(body: &mut [Stmt]) -> bool {
    for i in 0..body.len() {
        if let Stmt::Decl(n, _, _) = &body[i] {
            let n = n.clone();
            let assigns = |b: &[Stmt]| b.iter().any(|s| matches!(s, Stmt::Assign(m, _) if *m == n));
            let at = match body.get(i + 1) {
                Some(Stmt::Assign(m, _)) if *m == n => Some(i + 1),
                Some(Stmt::If(_, a, b)) if assigns(a) && assigns(b) => None,
                _ => Some(i),
            };
            if let Some(Stmt::Decl(_, _, e) | Stmt::Assign(_, e)) = at.map(|at| &mut body[at]) {
                if let Some(wrong) = off_by_one(e) {
                    *e = wrong;
                    return true;
                }
            }
        }
        if parts_mut(&mut body[i])
            .1
            .into_iter()
            .any(|b| wrong_neutral(b))
        {
            return true;
        }
    }
    false
}

/// A literal off by one (a bool negated).
fn off_by_one(e: &Expr) -> Option<Expr> {
    match e {
        Expr::Int(i) => Some(Expr::Int(i.wrapping_add(1))),
        Expr::Double(d) => Some(Expr::Double(d + 1.0)),
        Expr::Bool(b) => Some(Expr::Bool(!b)),
        _ => None,
    }
}

/// The block size assumed twice what it is: `get_local_size` and `get_global_size` in the
/// first kernel using them become constants computed from it; in a module whose kernels bake
/// the block size in, the host launches half the work-groups instead.
fn assume_block_size(m: &mut Module) -> bool {
    let assumed = Expr::Int((m.block_size * 2) as i32);
    let in_kernels = first_kernel(m, |k| {
        rewrite_exprs(&mut k.body, &mut |e| match e {
            Expr::Geom(Geom::LocalSize) => Some(assumed.clone()),
            Expr::Geom(Geom::GlobalSize) => Some(Expr::op(
                ScalarOp::MulI,
                vec![Expr::Geom(Geom::NumGroups), assumed.clone()],
            )),
            _ => None,
        })
    });
    in_kernels || halve_first_launch(&mut m.plan)
}

fn halve_first_launch(plan: &mut [HostStep]) -> bool {
    plan.iter_mut().any(|s| match s {
        HostStep::Launch { groups, .. } => {
            let half = Expr::op(
                ScalarOp::DivI,
                vec![
                    Expr::op(ScalarOp::AddI, vec![groups.clone(), Expr::Int(1)]),
                    Expr::Int(2),
                ],
            );
            *groups = half;
            true
        }
        HostStep::Loop { body, .. } | HostStep::Benchmark { body, .. } => halve_first_launch(body),
        HostStep::While { cond, body, .. } => halve_first_launch(cond) || halve_first_launch(body),
        _ => false,
    })
}

/// Operators whose operands may not be exchanged.
fn non_commutative(op: ScalarOp) -> bool {
    use ScalarOp::*;
    matches!(
        op,
        SubI | DivI | ModI | Sll | Srl | PowI | SubD | DivD | LtI
    )
}

/// Floored `/` or `%` built on the truncating ones: with `r = a % b`, when
/// `r != 0 && (r < 0) != (b < 0)` the quotient is one less and the remainder `r + b`.
fn floored(op: ScalarOp, args: &[Expr]) -> Expr {
    let r = Expr::op(ScalarOp::ModI, args.to_vec());
    let truncated = Expr::op(op, args.to_vec());
    let b = args[1].clone();
    let lt0 = |x: Expr| Expr::op(ScalarOp::LtI, vec![x, Expr::Int(0)]);
    let nonzero = Expr::op(ScalarOp::NeqI, vec![r.clone(), Expr::Int(0)]);
    let signs_differ = Expr::op(ScalarOp::NeqI, vec![lt0(r.clone()), lt0(b.clone())]);
    let wrong_sign = Expr::op(ScalarOp::AndI, vec![nonzero, signs_differ]);
    let adjusted = if op == ScalarOp::DivI {
        Expr::op(ScalarOp::SubI, vec![truncated.clone(), Expr::Int(1)])
    } else {
        Expr::op(ScalarOp::AddI, vec![r, b])
    };
    Expr::Select(
        Box::new(wrong_sign),
        Box::new(adjusted),
        Box::new(truncated),
    )
}

/// Runs `f` on each kernel in turn until it reports a rewrite.
fn first_kernel(m: &mut Module, mut f: impl FnMut(&mut Kernel) -> bool) -> bool {
    m.kernels.iter_mut().any(&mut f)
}

/// Replaces the first statement (pre-order) for which `f` gives a replacement.
fn rewrite_stmts(body: &mut Vec<Stmt>, f: &mut impl FnMut(&Stmt) -> Option<Vec<Stmt>>) -> bool {
    for i in 0..body.len() {
        if let Some(new) = f(&body[i]) {
            body.splice(i..=i, new);
            return true;
        }
        let hit = parts_mut(&mut body[i])
            .1
            .into_iter()
            .any(|b| rewrite_stmts(b, f));
        if hit {
            return true;
        }
    }
    false
}

/// Replaces the first expression (pre-order, statements in order) for which `f` gives a
/// replacement.
fn rewrite_exprs(body: &mut [Stmt], f: &mut impl FnMut(&Expr) -> Option<Expr>) -> bool {
    body.iter_mut().any(|s| {
        let (exprs, blocks) = parts_mut(s);
        exprs.into_iter().any(|e| rewrite_expr(e, f))
            || blocks.into_iter().any(|b| rewrite_exprs(b, f))
    })
}

fn rewrite_expr(e: &mut Expr, f: &mut impl FnMut(&Expr) -> Option<Expr>) -> bool {
    if let Some(new) = f(e) {
        *e = new;
        return true;
    }
    operands_mut(e).into_iter().any(|o| rewrite_expr(o, f))
}

/// A buffer-reuse bug: the second of two top-level allocations of the same type and the same
/// literal length takes over the first one's storage although the first is still read later.
/// Every use of the second buffer (plan and kernels) is renamed to the first.
fn share_buffer(m: &mut Module) -> bool {
    let allocs: Vec<(usize, Rc<str>, Ty, Expr)> = m
        .plan
        .iter()
        .enumerate()
        .filter_map(|(i, s)| match s {
            HostStep::Alloc(b, t, len, _) => Some((i, b.clone(), *t, len.clone())),
            _ => None,
        })
        .collect();
    for (j, (at, second, t2, len2)) in allocs.iter().enumerate() {
        let Some((_, first, _, _)) = allocs[..j]
            .iter()
            .find(|(_, _, t1, len1)| t1 == t2 && len1 == len2)
        else {
            continue;
        };
        let (first, second) = (first.clone(), second.clone());
        m.plan.remove(*at);
        rename_in_plan(&mut m.plan, &second, &first);
        for k in &mut m.kernels {
            rename_in_kernel(k, &second, &first);
        }
        return true;
    }
    false
}

fn rename_in_plan(plan: &mut [HostStep], from: &Rc<str>, to: &Rc<str>) {
    let re = |n: &mut Rc<str>| {
        if n == from {
            *n = to.clone();
        }
    };
    for s in plan {
        match s {
            HostStep::Read(_, _, b, _) => re(b),
            HostStep::Swap(a, b) => {
                re(a);
                re(b)
            }
            HostStep::Print { buf, .. } => re(buf),
            HostStep::Alloc(b, ..) => re(b),
            HostStep::ReadCsv { buf, .. } => re(buf),
            HostStep::Loop { body, .. } | HostStep::Benchmark { body, .. } => {
                rename_in_plan(body, from, to)
            }
            HostStep::While { cond, body, .. } => {
                rename_in_plan(cond, from, to);
                rename_in_plan(body, from, to)
            }
            HostStep::Set(..) | HostStep::Clock(_) | HostStep::Launch { .. } => {}
        }
    }
}

/// Renames buffer `from` to `to` in a kernel's parameters and body; a kernel that takes both
/// keeps one parameter.
fn rename_in_kernel(k: &mut Kernel, from: &Rc<str>, to: &Rc<str>) {
    if !k.params.iter().any(|p| p.name() == from) {
        return;
    }
    if k.params.iter().any(|p| p.name() == to) {
        k.params.retain(|p| p.name() != from);
    } else {
        for p in &mut k.params {
            if let Param::Buffer(n, _) = p {
                if n == from {
                    *n = to.clone();
                }
            }
        }
    }
    rename_buf_stmts(&mut k.body, from, to);
}

fn rename_buf_stmts(body: &mut [Stmt], from: &Rc<str>, to: &Rc<str>) {
    visit_stmts_mut(body, &mut |s| {
        if let Stmt::Store(b, ..) = s {
            if b == from {
                *b = to.clone();
            }
        }
        for e in parts_mut(s).0 {
            rename_buf_expr(e, from, to);
        }
    });
}

fn rename_buf_expr(e: &mut Expr, from: &Rc<str>, to: &Rc<str>) {
    visit_expr_mut(e, &mut |x| {
        if let Expr::Load(b, _) = x {
            if b == from {
                *b = to.clone();
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decl(n: &str, v: i32) -> Stmt {
        Stmt::Decl(n.into(), Ty::Int, Expr::Int(v))
    }
    fn assign(n: &str, e: Expr) -> Stmt {
        Stmt::Assign(n.into(), e)
    }

    #[test]
    fn wrong_neutral_changes_the_value_set_after_a_placeholder() {
        // `int t = 0; t = 2147483647;`: the identity of `mini` padding a lane
        let mut body = vec![decl("t", 0), assign("t", Expr::Int(i32::MAX))];
        assert!(wrong_neutral(&mut body));
        assert_eq!(body, vec![decl("t", 0), assign("t", Expr::Int(i32::MIN))]);
    }

    #[test]
    fn wrong_neutral_passes_over_placeholders_set_by_an_if() {
        let set = |v| vec![assign("t", Expr::Int(v))];
        let pick = Stmt::If(Expr::Bool(true), set(1), set(2));
        let mut body = vec![decl("t", 0), pick.clone(), decl("acc", 5)];
        assert!(wrong_neutral(&mut body));
        assert_eq!(body, vec![decl("t", 0), pick, decl("acc", 6)]);
        // a placeholder set from a variable: no literal to change there
        let mut body = vec![decl("t", 0), assign("t", Expr::Var("x".into()))];
        assert!(!wrong_neutral(&mut body));
    }
}
