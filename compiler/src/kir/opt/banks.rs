//! Padding of `__local` arrays against bank conflicts (-O2). GPU local memory is split into
//! banks of 4-byte words; the work-items of a warp that touch different words of one bank wait
//! for each other. A tile read along its columns (a transpose through local memory) touches
//! every 16th word: 8 lanes share a bank. Inserting one word after every row of `C` words
//! (element `i` lives at `i + i / C`) spreads a column over the banks, as hand-written kernels
//! do with `tile[16][17]`. The remap is a bijection applied to every access of the array, so it
//! never changes what a kernel computes; it is chosen only where it lowers the conflicts of the
//! array's accesses, estimated over the first warp with every other variable at 0.

use super::walk::{in_blocks, own_exprs, visit_expr, visit_stmts};
use crate::kir::eval::{apply_op, Lit};
use crate::kir::{Expr, Geom, Kernel, Stmt, Ty};
use semantics::fcl::core::ScalarOp;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

/// Banks of 4-byte words, and work-items that access local memory together.
const BANKS: i64 = 32;
const WARP: i32 = 32;

/// Pads each 4-byte `__local` array of `k` whose accesses conflict less when padded.
pub fn pad_local_arrays(k: &mut Kernel, block_size: i32) {
    let defs = definitions(&k.body);
    let lanes = WARP.min(block_size.max(1));
    for idx in 0..k.locals.len() {
        let (name, ty, len) = k.locals[idx].clone();
        if ty.size() != 4 {
            continue;
        }
        let mut indices = Vec::new();
        accesses(&k.body, &name, &mut indices);
        let cost = |row: Option<i64>| -> Option<usize> {
            indices
                .iter()
                .map(|i| conflicts(i, &defs, lanes, row))
                .sum::<Option<usize>>()
        };
        let Some(plain) = cost(None) else {
            continue;
        };
        let best = [8i64, 16, 32, 64]
            .into_iter()
            .filter(|c| len as i64 % c == 0 && len as i64 > *c)
            .filter_map(|c| Some((cost(Some(c))?, c)))
            .min();
        if let Some((padded, row)) = best {
            if padded < plain {
                let shift = row.trailing_zeros() as i32;
                k.body = remap(std::mem::take(&mut k.body), &name, shift);
                k.locals[idx].2 = len + len / row as usize;
            }
        }
    }
}

/// The expressions of the integer variables declared exactly once and never reassigned.
fn definitions(body: &[Stmt]) -> HashMap<Rc<str>, Expr> {
    let mut seen: HashMap<Rc<str>, Option<Expr>> = HashMap::new();
    visit_stmts(body, &mut |s| match s {
        Stmt::Decl(n, t, e) => {
            let first = !seen.contains_key(n) && *t == Ty::Int;
            seen.insert(n.clone(), first.then(|| e.clone()));
        }
        Stmt::Assign(n, _) | Stmt::For { var: n, .. } => {
            seen.insert(n.clone(), None);
        }
        _ => {}
    });
    seen.into_iter()
        .filter_map(|(n, e)| Some((n, e?)))
        .collect()
}

/// The index expressions of every load and store of `array`.
fn accesses(stmts: &[Stmt], array: &str, out: &mut Vec<Expr>) {
    visit_stmts(stmts, &mut |s| {
        if let Stmt::Store(b, i, _) = s {
            if &**b == array {
                out.push(i.clone());
            }
        }
        for e in own_exprs(s) {
            visit_expr(e, &mut |x| {
                if let Expr::Load(b, i) = x {
                    if &**b == array {
                        out.push((**i).clone());
                    }
                }
            });
        }
    });
}

/// The most distinct words one bank serves for an access by lanes `0..lanes`, with rows of
/// `row` words padded by one (`None`: unpadded); `None` when the index cannot be estimated.
fn conflicts(
    index: &Expr,
    defs: &HashMap<Rc<str>, Expr>,
    lanes: i32,
    row: Option<i64>,
) -> Option<usize> {
    let mut words: Vec<HashSet<i64>> = vec![HashSet::new(); BANKS as usize];
    for lane in 0..lanes {
        let i = lane_value(index, defs, lane, 0)? as i64;
        let word = row.map_or(i, |c| i + i.div_euclid(c));
        words[word.rem_euclid(BANKS) as usize].insert(word);
    }
    words.iter().map(HashSet::len).max()
}

/// The value of `e` in lane `lane` of the first work-group, every variable without a single
/// definition (loop counters, if-results) and every load taken as 0.
fn lane_value(e: &Expr, defs: &HashMap<Rc<str>, Expr>, lane: i32, depth: u32) -> Option<i32> {
    if depth > 64 {
        return None;
    }
    let int = |l: Lit| match l {
        Lit::Int(i) => Some(i),
        Lit::Bool(b) => Some(b as i32),
        Lit::Double(_) => None,
    };
    match e {
        Expr::Int(i) => Some(*i),
        Expr::Bool(b) => Some(*b as i32),
        Expr::Double(_) => None,
        Expr::Geom(Geom::LocalId | Geom::GlobalId) => Some(lane),
        Expr::Geom(_) => Some(0),
        Expr::Var(v) => match defs.get(v) {
            Some(d) => lane_value(d, defs, lane, depth + 1),
            None => Some(0),
        },
        Expr::Load(..) => Some(0),
        Expr::Select(c, a, b) => {
            let pick = if lane_value(c, defs, lane, depth + 1)? != 0 {
                a
            } else {
                b
            };
            lane_value(pick, defs, lane, depth + 1)
        }
        Expr::Op(op, args) => {
            let vals = args
                .iter()
                .map(|a| lane_value(a, defs, lane, depth + 1).map(Lit::Int))
                .collect::<Option<Vec<_>>>()?;
            // comparisons and logic take ints here; the oracle's ops want bools for those
            let vals: Vec<Lit> = match op {
                ScalarOp::AndI
                | ScalarOp::OrI
                | ScalarOp::Xor
                | ScalarOp::AddI
                | ScalarOp::SubI
                | ScalarOp::MulI
                | ScalarOp::DivI
                | ScalarOp::ModI
                | ScalarOp::Sll
                | ScalarOp::Srl
                | ScalarOp::MinI
                | ScalarOp::MaxI
                | ScalarOp::EqI
                | ScalarOp::NeqI
                | ScalarOp::LtI => vals,
                _ => return None,
            };
            apply_op(*op, &vals).ok().and_then(int)
        }
    }
}

/// Every access of `array` at `i` becomes an access at `i + (i >> shift)`.
fn remap(stmts: Vec<Stmt>, array: &str, shift: i32) -> Vec<Stmt> {
    let pad = |i: Expr| {
        Expr::op(
            ScalarOp::AddI,
            vec![
                i.clone(),
                Expr::op(ScalarOp::Srl, vec![i, Expr::Int(shift)]),
            ],
        )
    };
    let stmts = super::map_exprs(stmts, &mut |e| match e {
        Expr::Load(b, i) if &*b == array => Expr::Load(b, Box::new(pad(*i))),
        e => e,
    });
    fn stores(stmts: Vec<Stmt>, array: &str, pad: &dyn Fn(Expr) -> Expr) -> Vec<Stmt> {
        stmts
            .into_iter()
            .map(|s| match s {
                Stmt::Store(b, i, v) if &*b == array => Stmt::Store(b, pad(i), v),
                s => in_blocks(s, &mut |b| stores(b, array, pad)),
            })
            .collect()
    }
    stores(stmts, array, &pad)
}
