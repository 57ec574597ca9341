//! Fewer barriers (-O2). A barrier orders the local-memory accesses of the code before it (back to
//! the previous barrier) against those of the code after it (up to the next). Where the two
//! intervals share no `__local` array that one of them writes, nothing needs the order: the
//! barrier goes and the intervals merge (a block-level force followed by an unrelated one, as the
//! two tile loads of a tiled matrix multiplication), and so does one where the two intervals
//! touch a shared array only at each work-item's own element (`l[lid]`: the last step of a tree
//! reduction, written and read by work-item 0). A barrier that ends a kernel goes too. Every local
//! write stays followed by a barrier before any other work-item reads or overwrites it.

use super::walk::{has_barrier, in_blocks, own_exprs, visit_expr, visit_stmts};
use crate::kir::{Expr, Geom, Stmt};
use std::collections::HashSet;
use std::rc::Rc;

/// The local arrays a stretch of code reads and writes.
#[derive(Default)]
struct Access {
    reads: HashSet<Rc<str>>,
    writes: HashSet<Rc<str>>,
    /// Arrays accessed somewhere at an index other than the work-item's own (`l[lid]`).
    shared: HashSet<Rc<str>>,
}

impl Access {
    /// Whether a barrier must order this stretch before `later`: one writes an array the other
    /// reads or writes, unless both only ever touch each work-item's own element of it (then
    /// no work-item sees another's accesses, and each one's program order suffices).
    fn conflicts(&self, later: &Access) -> bool {
        let across = |a: &Rc<str>| self.shared.contains(a) || later.shared.contains(a);
        self.writes
            .iter()
            .any(|w| (later.reads.contains(w) || later.writes.contains(w)) && across(w))
            || self
                .reads
                .iter()
                .any(|r| later.writes.contains(r) && across(r))
    }

    fn note(&mut self, array: &Rc<str>, index: &Expr) {
        if *index != Expr::Geom(Geom::LocalId) {
            self.shared.insert(array.clone());
        }
    }
}

/// Drops the barriers of a kernel body that order nothing; `locals` are its `__local` arrays.
pub fn fewer_barriers(body: Vec<Stmt>, locals: &HashSet<Rc<str>>) -> Vec<Stmt> {
    // the kernel's start and end order like barriers: no work-item touches local memory before
    // or after the kernel
    let mut body = merge_intervals(body, true, true, locals);
    drop_trailing(&mut body);
    body
}

/// A barrier that is the last thing a kernel does (possibly inside its last static scope).
fn drop_trailing(body: &mut Vec<Stmt>) {
    loop {
        match body.last_mut() {
            Some(Stmt::Barrier) => {
                body.pop();
            }
            Some(Stmt::If(Expr::Bool(true), t, e)) if e.is_empty() => {
                drop_trailing(t);
                return;
            }
            _ => return,
        }
    }
}

/// Merges the barrier intervals of one statement list. `start_fenced`: the list is entered right
/// after a barrier (a loop body that ends with a barrier and follows one, a kernel's body);
/// `end_fenced`: a barrier follows the list (a kernel's body).
fn merge_intervals(
    stmts: Vec<Stmt>,
    start_fenced: bool,
    end_fenced: bool,
    locals: &HashSet<Rc<str>>,
) -> Vec<Stmt> {
    // nested lists first
    let mut list: Vec<Stmt> = Vec::with_capacity(stmts.len());
    for s in stmts {
        let fenced_before = fenced_at_end(&list, start_fenced, locals);
        // a loop body ending with a barrier is entered fenced on every trip when the loop is
        let fenced = fenced_before
            && matches!(&s, Stmt::For { body, .. } if body.last() == Some(&Stmt::Barrier));
        list.push(in_blocks(s, &mut |b| {
            merge_intervals(b, fenced, false, locals)
        }));
    }
    // then this list's own barriers: `prev` is where the current interval starts
    let mut out: Vec<Stmt> = Vec::with_capacity(list.len());
    let mut prev: Option<usize> = start_fenced.then_some(0);
    let mut i = 0;
    while i < list.len() {
        if list[i] != Stmt::Barrier {
            out.push(list[i].clone());
            i += 1;
            continue;
        }
        let next = list[i + 1..]
            .iter()
            .position(|s| *s == Stmt::Barrier)
            .map(|p| i + 1 + p)
            .or(end_fenced.then_some(list.len()));
        let removable = match (prev, next) {
            (Some(p), Some(n)) => {
                let before = &out[p..];
                let after = &list[i + 1..n];
                !has_barrier(before) && !has_barrier(after) && {
                    let (a, b) = (access(before, locals), access(after, locals));
                    !a.conflicts(&b)
                }
            }
            _ => false,
        };
        if !removable {
            out.push(Stmt::Barrier);
            prev = Some(out.len());
        }
        i += 1;
    }
    out
}

/// Whether the end of `list` (so far) is right after a barrier, with only code that touches no
/// local array since.
fn fenced_at_end(list: &[Stmt], start_fenced: bool, locals: &HashSet<Rc<str>>) -> bool {
    let since = match list.iter().rposition(|s| *s == Stmt::Barrier) {
        Some(b) => &list[b + 1..],
        None if start_fenced => list,
        None => return false,
    };
    let a = access(since, locals);
    !has_barrier(since) && a.reads.is_empty() && a.writes.is_empty()
}

fn access(stmts: &[Stmt], locals: &HashSet<Rc<str>>) -> Access {
    let mut a = Access::default();
    access_in(stmts, locals, &mut a);
    a
}

fn access_in(stmts: &[Stmt], locals: &HashSet<Rc<str>>, a: &mut Access) {
    visit_stmts(stmts, &mut |s| {
        if let Stmt::Store(b, i, _) = s {
            if locals.contains(b) {
                a.writes.insert(b.clone());
                a.note(b, i);
            }
        }
        for e in own_exprs(s) {
            reads_in(e, locals, a);
        }
    });
}

fn reads_in(e: &Expr, locals: &HashSet<Rc<str>>, a: &mut Access) {
    visit_expr(e, &mut |x| {
        if let Expr::Load(b, i) = x {
            if locals.contains(b) {
                a.reads.insert(b.clone());
                a.note(b, i);
            }
        }
    });
}
