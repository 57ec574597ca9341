//! Private arrays that only carry a recurrence. A thread-level `seqfor n n step` whose step
//! writes cell i and reads only cells i − 1 … i − 4 (a scan of a chunk: `(i, if i == 0 then x
//! else f x (read (i - 1)))`; a scan of complex numbers, their parts interleaved, reads two
//! and three cells back) lowers to a private array, zeroed, filled by one loop and written
//! out by another. Here the array becomes a window of scalars carried from one trip to the
//! next, and the write-out moves into the filling loop: no array, and a loop the device can
//! keep in registers (PoCL keeps a private array in memory per work-item, indexed by lane).
//! A step that read cell i − c before trip c would read outside the array; the window gives
//! its initial zero there (the steps guard such reads: they are never made). n may be
//! a run-time expression (the three loops then have the same end): the lowering applies this
//! at once to a `seqfor` longer than a private array may be, or of run-time size.

use super::walk::{any_expr, any_stmt, loaded_in, map_expr, map_exprs, own_exprs, stored_in};
use crate::kir::{Expr, Stmt};
use semantics::fcl::core::ScalarOp;
use std::rc::Rc;

/// How far back a step may read: cells i − 1 … i − WINDOW (a complex scan's two parts,
/// interleaved, read up to i − 3).
const WINDOW: i32 = 4;

/// Every recurrence of a block, at any depth, with its private array made a carried scalar.
pub fn carried_recurrences(stmts: Vec<Stmt>) -> Vec<Stmt> {
    let stmts: Vec<Stmt> = stmts
        .into_iter()
        .map(|s| super::walk::in_blocks(s, &mut carried_recurrences))
        .collect();
    let mut out = Vec::new();
    let mut k = 0;
    while k < stmts.len() {
        match carried(&stmts[k..]) {
            Some(replaced) => {
                out.extend(replaced);
                k += 4;
            }
            None => {
                out.push(stmts[k].clone());
                k += 1;
            }
        }
    }
    out
}

/// A sequential loop `for (int var = 0; var < n; var += 1) body`, with its n.
fn counted(s: &Stmt) -> Option<(&Rc<str>, &Expr, &Vec<Stmt>)> {
    match s {
        Stmt::For {
            var,
            start: Expr::Int(0),
            end,
            step: Expr::Int(1),
            body,
        } => Some((var, end, body)),
        _ => None,
    }
}

/// The four statements at the start of `s`, a private array, its zeroing, the recurrence
/// filling it and its write-out, as one loop over a carried scalar; `None` where they are
/// not that.
fn carried(s: &[Stmt]) -> Option<Vec<Stmt>> {
    let [Stmt::Private(p, ty, size), zeroing, filling, writing, rest @ ..] = s else {
        return None;
    };
    // zeroing: p[z] = 0, over the array's size (a literal, or the run-time size's expression)
    let (z, n, zb) = counted(zeroing)?;
    if *size != crate::kir::RUN_TIME_SIZE && *n != Expr::Int(i32::try_from(*size).ok()?) {
        return None;
    }
    let zero = match zb.as_slice() {
        [Stmt::Store(a, Expr::Var(v), zero)] if a == p && v == z && zero.is_atomic() => zero,
        _ => return None,
    };
    // filling: …; p[i] = v, reading only p[i - 1]
    let (i, nf, fb) = counted(filling)?;
    let (Stmt::Store(a, Expr::Var(v), value), before) = fb.split_last()? else {
        return None;
    };
    // p[i - c], 1 <= c <= WINDOW: the cell c trips back
    let back = |e: &Expr| match e {
        Expr::Op(ScalarOp::SubI, xs) => match xs.as_slice() {
            [Expr::Var(x), Expr::Int(c)] if x == i && (1..=WINDOW).contains(c) => Some(*c),
            _ => None,
        },
        _ => None,
    };
    let previous = |e: &Expr| back(e).is_some();
    let stores_p = |b: &[Stmt]| stored_in(b).contains(p);
    let loads_p_but = |b: &[Stmt], ok: &dyn Fn(&Expr) -> bool| {
        let mut bad = false;
        super::walk::visit_block_exprs(b, &mut |e| {
            bad |= matches!(e, Expr::Load(a, ix) if a == p && !ok(ix));
        });
        bad
    };
    let loads_in_value_but = |ok: &dyn Fn(&Expr) -> bool| {
        any_expr(
            value,
            &mut |e| matches!(e, Expr::Load(a, ix) if a == p && !ok(ix)),
        )
    };
    if a != p
        || v != i
        || stores_p(before)
        || loads_p_but(before, &previous)
        || loads_in_value_but(&previous)
    {
        return None;
    }
    // writing: reads p[o] only, stores nothing the filling reads, reads nothing it stores
    let (o, nw, wb) = counted(writing)?;
    let at_o = |e: &Expr| matches!(e, Expr::Var(x) if x == o);
    if nf != n || nw != n || stores_p(wb) || loads_p_but(wb, &at_o) {
        return None;
    }
    let (filled_reads, filled_stores) = (loaded_in(fb), stored_in(fb));
    let (written_reads, written_stores) = (loaded_in(wb), stored_in(wb));
    if written_stores.iter().any(|b| filled_reads.contains(b))
        || filled_stores
            .iter()
            .any(|b| b != p && written_reads.contains(b))
    {
        return None;
    }
    // p is not used after the write-out
    let mentions_p = |e: &Expr| any_expr(e, &mut |x| matches!(x, Expr::Load(a, _) if a == p));
    if any_stmt(rest, &mut |s| {
        matches!(s, Stmt::Store(a, ..) if a == p) || own_exprs(s).into_iter().any(mentions_p)
    }) {
        return None;
    }
    // the cells the window keeps: p_carried (i - 1), p_carried2 (i - 2), …
    let mut window = 1;
    let mut widest = |e: &Expr| {
        if let Expr::Load(a, ix) = e {
            if a == p {
                window = window.max(back(ix).unwrap_or(1));
            }
        }
    };
    super::walk::visit_block_exprs(before, &mut widest);
    let _ = any_expr(value, &mut |e| {
        widest(e);
        false
    });
    let cell = |c: i32| -> Rc<str> {
        match c {
            1 => format!("{p}_carried").into(),
            c => format!("{p}_carried{c}").into(),
        }
    };
    let x: Rc<str> = format!("{p}_next").into();
    let carry = |e: Expr| match e {
        Expr::Load(a, ix) if a == *p => match back(&ix) {
            Some(c) => Expr::Var(cell(c)),
            None => Expr::Load(a, ix),
        },
        e => e,
    };
    let mut body = map_exprs(before.to_vec(), &mut { carry });
    body.push(Stmt::Decl(
        x.clone(),
        *ty,
        map_expr(value.clone(), &mut { carry }),
    ));
    // (bottom-up: a load's index o has become i when the load is seen)
    let written = map_exprs(wb.clone(), &mut |e| match e {
        Expr::Var(y) if y == *o => Expr::Var(i.clone()),
        Expr::Load(a, ix) if a == *p && matches!(&*ix, Expr::Var(y) if y == i) => {
            Expr::Var(x.clone())
        }
        e => e,
    });
    body.extend(written);
    // the window moves on by one cell: the oldest first
    for c in (2..=window).rev() {
        body.push(Stmt::Assign(cell(c), Expr::Var(cell(c - 1))));
    }
    body.push(Stmt::Assign(cell(1), Expr::Var(x)));
    let mut out: Vec<Stmt> = (1..=window)
        .map(|c| Stmt::Decl(cell(c), *ty, zero.clone()))
        .collect();
    out.push(Stmt::For {
        var: i.clone(),
        start: Expr::Int(0),
        end: n.clone(),
        step: Expr::Int(1),
        body,
    });
    Some(out)
}
