//! Forwarding of staged reads, for devices whose local memory is global memory standing in (CPU
//! implementations such as PoCL). A `force<block>` of a pull array that only reads global memory
//! (a tile of a transpose) becomes a store of each work-item's element into a local array, a
//! barrier, and reads of the array at other work-items' positions. On a GPU the staging turns
//! scattered global reads into coalesced ones; on a CPU it is a copy through ordinary memory plus
//! a barrier that splits the work-group's loop in two, each half keeping its variables in
//! per-work-item context arrays. There, each read `l[e]` is better served by computing the
//! element at position `e` directly: the stored value with the local id replaced by `e`.
//!
//! Only a local array stored once, by every work-item at its own position (the store is not
//! inside a loop or a real condition), whose stored value depends only on the group, the local
//! id, the kernel's scalars and global buffers the kernel never writes, and is cheap integer
//! arithmetic that cannot fail, is forwarded: then the element every read sees is exactly the one
//! it recomputes, at about the cost of reading it.

use super::passes::assigned;
use super::walk::{in_blocks, map_expr, map_exprs, visit_stmts};
use crate::kir::{checks_errors, Expr, Geom, Kernel, Param, Stmt};
use semantics::fcl::core::ScalarOp;
use std::collections::HashSet;
use std::rc::Rc;

/// Largest stored value (in expression nodes, after inlining its declarations) that is
/// recomputed at each read instead of staged.
const FORWARD_LIMIT: usize = 64;

/// Replaces the reads of every forwardable local array of `k` by the recomputed element and
/// drops the array and its store; returns whether any array went. Barriers are left to
/// [`super::fewer_barriers`], which drops those that no longer fence a local access.
pub fn forward_local_stores(k: &mut Kernel) -> bool {
    let mut changed = false;
    for (name, ..) in k.locals.clone() {
        if let Some(value) = forwardable(k, &name) {
            let body = std::mem::take(&mut k.body);
            k.body = map_exprs(drop_store(body, &name), &mut |e| match e {
                Expr::Load(b, i) if b == name => at_position(&value, &i),
                e => e,
            });
            k.locals.retain(|(n, ..)| *n != name);
            changed = true;
        }
    }
    changed
}

/// The value work-item `lid` stores into `array`, closed (its declarations inlined), when the
/// array can be forwarded.
fn forwardable(k: &Kernel, array: &Rc<str>) -> Option<Expr> {
    let mut stores = Vec::new();
    let mut scope = Vec::new();
    let total = count_stores(&k.body, array);
    straight_stores(&k.body, array, &mut scope, &mut stores);
    let [(decls, Expr::Geom(Geom::LocalId), value)] = stores.as_slice() else {
        return None;
    };
    if total != 1 {
        return None;
    }
    let mut assigned = HashSet::new();
    assigned_in(&k.body, &mut assigned);
    let mut value = value.clone();
    // later declarations may mention earlier ones: inline from the innermost out
    for (n, e) in decls.iter().rev() {
        if assigned.contains(n) {
            return None;
        }
        value = map_expr(value, &mut |x| match x {
            Expr::Var(v) if v == *n => e.clone(),
            x => x,
        });
    }
    let scalars: HashSet<&Rc<str>> = k
        .params
        .iter()
        .filter_map(|p| match p {
            Param::Scalar(n, _) => Some(n),
            Param::Buffer(..) => None,
        })
        .collect();
    let mut written = HashSet::new();
    written.extend(super::walk::stored_in(&k.body));
    let unwritten_global = |b: &Rc<str>| {
        !written.contains(b)
            && k.params
                .iter()
                .any(|p| matches!(p, Param::Buffer(n, _) if n == b))
    };
    let mut nodes = 0;
    closed(&value, &scalars, &unwritten_global, &mut nodes)
        .then_some(value)
        .filter(|_| nodes <= FORWARD_LIMIT)
}

/// Whether `e` depends only on geometry other than the global id, scalar parameters and
/// global buffers the kernel never writes, and is [`cheap`] (so cannot fail); counts its nodes.
fn closed(
    e: &Expr,
    scalars: &HashSet<&Rc<str>>,
    unwritten_global: &dyn Fn(&Rc<str>) -> bool,
    nodes: &mut usize,
) -> bool {
    *nodes += 1;
    match e {
        Expr::Int(_) | Expr::Double(_) | Expr::Bool(_) => true,
        // the global id mentions the local id implicitly
        Expr::Geom(g) => !matches!(g, Geom::GlobalId),
        Expr::Var(v) => scalars.contains(v),
        Expr::Op(op, args) => {
            cheap(*op, args)
                && args
                    .iter()
                    .all(|a| closed(a, scalars, unwritten_global, nodes))
        }
        Expr::Select(c, a, b) => [c, a, b]
            .iter()
            .all(|x| closed(x, scalars, unwritten_global, nodes)),
        Expr::Load(b, i) => unwritten_global(b) && closed(i, scalars, unwritten_global, nodes),
    }
}

/// Whether an operation costs about as much as an index computation, so that recomputing it at
/// each read costs no more than reading a staged copy: integer and boolean arithmetic, but not
/// what the staging may exist to compute once (double arithmetic, powers) nor what may fail.
fn cheap(op: ScalarOp, args: &[Expr]) -> bool {
    use ScalarOp::*;
    match op {
        AddI | SubI | MulI | MinI | MaxI | AndI | OrI | Xor | Sll | Srl | EqI | NeqI | LtI
        | AbsI | SignI | Clz | NegateI | B2I | AndB | OrB | XorB | EqB | NotB => true,
        // by a literal (other than 0 and -1, which check): a multiplication and shifts
        DivI | ModI => !checks_errors(op, args),
        _ => false,
    }
}

/// The stored value at local position `pos`.
fn at_position(value: &Expr, pos: &Expr) -> Expr {
    map_expr(value.clone(), &mut |x| match x {
        Expr::Geom(Geom::LocalId) => pos.clone(),
        x => x,
    })
}

/// Declarations in scope, in order: name and initializer.
type Scope = Vec<(Rc<str>, Expr)>;

/// A store reached straight from the top: the declarations in scope before it, index, value.
type StraightStore = (Scope, Expr, Expr);

/// The stores to `array` reached from the top through unconditional blocks only, each with the
/// declarations in scope before it (name, initializer), its index and its value.
fn straight_stores(stmts: &[Stmt], array: &str, scope: &mut Scope, out: &mut Vec<StraightStore>) {
    let depth = scope.len();
    for s in stmts {
        match s {
            Stmt::Decl(n, _, e) => scope.push((n.clone(), e.clone())),
            Stmt::Store(b, i, v) if &**b == array => {
                out.push((scope.clone(), i.clone(), v.clone()))
            }
            Stmt::If(Expr::Bool(true), t, _) => straight_stores(t, array, scope, out),
            _ => {}
        }
    }
    scope.truncate(depth);
}

/// How many stores to `array` the block holds, at any depth.
fn count_stores(stmts: &[Stmt], array: &str) -> usize {
    let mut n = 0;
    visit_stmts(stmts, &mut |s| {
        n += usize::from(matches!(s, Stmt::Store(b, ..) if &**b == array));
    });
    n
}

/// Every variable assigned (not only declared) in the block, loop counters included.
fn assigned_in(stmts: &[Stmt], out: &mut HashSet<Rc<str>>) {
    assigned(stmts, out);
    visit_stmts(stmts, &mut |s| {
        if let Stmt::For { var, .. } = s {
            out.insert(var.clone());
        }
    });
}

/// The block without its stores to `array`.
fn drop_store(stmts: Vec<Stmt>, array: &str) -> Vec<Stmt> {
    stmts
        .into_iter()
        .filter(|s| !matches!(s, Stmt::Store(b, ..) if &**b == array))
        .map(|s| in_blocks(s, &mut |b| drop_store(b, array)))
        .collect()
}
