//! `reduce` and `scan` along the last axis (spec §5.9), in apltail's order: `acc := x_0`, then
//! `acc := f(x_j)(acc)` for j = 1…m−1 (the new element first; z only for an empty vector).
//!
//! The lowering picks by row length m and row count k, and records its choice as an FCL
//! comment in the output:
//! * m ≤ [`UNROLL`] (or inside a function body): unrolled into the consumer's element
//!   expression, so the reduction fuses into the kernel that uses it;
//! * otherwise a thread-level sequential fold per row (prelude `foldl`/`seqfor`), one thread
//!   per row, which keeps apltail's order exactly;
//! * a long row (m ≥ [`TREE_MIN_LEN`], or m ≥ 256 with fewer than [`FEW_ROWS`] rows, where one
//!   thread per row would leave the device idle) and an operator known to be associative and
//!   commutative
//!   with an identity (`addi`, `muld`, `maxd`, `andb`, …): block-level tree reductions, each
//!   work-group folding 256·S elements with 256 threads (coalesced reads; S ≥ 8, larger where
//!   the rows would need more than [`TARGET_GROUPS`] work-groups) and combining them in a
//!   `while<block>` tree, repeated over the partial results until one per row is left; a long
//!   scan becomes a reduce-then-scan over a contiguous chunk per thread (module `scan`). For
//!   doubles the order of operations then differs from apltail's. The program's `addi` and
//!   `muli`, which fail on overflow in apltail's order, are not taken as associative (module
//!   `check`): they fold sequentially, and a long `scan(addi, …)` scans exact doubles.

use super::apply::{apply_scalar, known_apply, scalar_result, MAX_FOLD};
use super::check::checks_at;
use super::coords::unflatten;
use super::fault::LoweringFault;
use super::lowerer::Lowerer;
use super::range::{self, Range};
use super::tree::{fcl, fcl_stmt, int, let_in, Fcl, Name};
use super::value::{unsupported, with_names, Arr, Fresh, Fun, Ty, Val, R};
use semantics::tail::ops::prim::Prim;
use semantics::tail::value::{Array, Elems};
use semantics::Span;
use std::rc::Rc;

/// Rows up to this length are unrolled.
pub const UNROLL: usize = 32;
/// Rows up to this length are unrolled inside function bodies (no statements there).
pub const MAX_UNROLL: usize = 256;
/// The shortest row reduced or scanned by work-groups (one work-group's 256 threads × 8).
pub const TREE_MIN_LEN: usize = 2048;
/// Fewer rows than this are reduced by work-groups from 256 elements on.
pub const FEW_ROWS: usize = 1024;
/// The fewest elements each thread folds sequentially before the tree (per work-group: 256·S).
const PER_THREAD: usize = 8;
/// The work-groups a tree pass aims for over all rows: enough to fill a GPU (1024 groups of 256
/// threads), few enough that each thread folds many elements before the tree's barriers, which
/// cost most where work-groups run one after another (PoCL on a CPU).
const TARGET_GROUPS: usize = 1024;

/// The element at (row, column) of rows being reduced (FCL int expressions to its FCL
/// expression).
type RowElement = Rc<dyn Fn(&Fcl, &Fcl) -> Fcl>;

/// The element at column `j` of row `row` (numbered over the outer axes) of `a`: through
/// `a`'s coordinate access where it has one (no `/` and `%` to find what a transposition or
/// a repeating reshape reads), else at flat index `row * m + j`.
pub(super) fn row_element(fresh: &Fresh, a: &Arr, row: &Fcl, j: &Fcl) -> Fcl {
    let Some((&m, outer)) = a.shape.split_last() else {
        return a.expr();
    };
    if a.at.is_none() {
        return (a.index)(&fcl!("({row} * {m} + {j})"));
    }
    with_names(fresh, std::slice::from_ref(row), |r| {
        let mut cs = unflatten(outer, &r[0]);
        cs.push(j.clone());
        with_names(fresh, &cs, |cs| a.element_at(cs))
    })
}

/// The work-groups per row of a tree pass over `k` rows of `len`: at most one per 256·8
/// elements, and no more than [`TARGET_GROUPS`] over all rows (a thread then folds more than 8).
fn tree_groups(k: usize, len: usize) -> usize {
    let most = len.div_ceil(256 * PER_THREAD);
    most.min(TARGET_GROUPS.div_ceil(k)).max(1)
}

/// The work-group helper of the block-level tree (thesis §5.2.3, examples/fcl/reduce.fcl).
const TREE: &str =
    "sig treeStep : forall 'a 'b. ('a -> 'a -> 'b) -> ['a] -> Program <block> ['b]<block>
fun treeStep f arr = let x = halve arr in return<block> (push<block> (zipWith f (fst x) (snd x)))

sig treeReduce : forall 'a. ('a -> 'a -> 'a) -> ['a] -> Program <block> ['a]<block>
fun treeReduce f arr =
  do<block> { a <- while<block> (fn a => 1 != lengthPull a) (treeStep f) (treeStep f arr)
            ; return<block> (push<block> a) }
";

/// The place of `f` where it is the program's `addi` on ints (a scan that checks overflow).
pub(super) fn checked_addi(f: &Val, ty: Ty) -> Option<Span> {
    match f {
        Val::Fun(g) => match g.as_ref() {
            Fun::Op(Prim::Addi, span) if checks_at(*span) && ty == Ty::Int => Some(*span),
            _ => None,
        },
        _ => None,
    }
}

/// Whether an element of `a` costs more than a few operations, so that computing all of them
/// in parallel beats computing them one by one in a fold.
fn expensive(a: &Arr) -> bool {
    a.element_cost() > EXPENSIVE_ELEMENT
}

/// An element costing more than this ([`Arr::element_cost`]: about the bytes of its source)
/// is worth materializing before a sequential fold.
const EXPENSIVE_ELEMENT: usize = 160;

/// The identity of an associative, commutative operator on type `ty` (an FCL expression).
pub(super) fn identity(f: &Val, ty: Ty) -> Option<Fcl> {
    let Val::Fun(g) = f else { return None };
    let Fun::Op(p, span) = g.as_ref() else {
        return None;
    };
    // an int operator of the program that overflows fails where the oracle's order leaves
    // the int range: a sequential fold checks exactly there, a tree adds in another order
    // (the lowering's own sums, of counts, cannot overflow)
    let checked = checks_at(*span);
    Some(match (p, ty) {
        (Prim::Addi, Ty::Int) if !checked => fcl!("0"),
        (Prim::Muli, Ty::Int) if !checked => fcl!("1"),
        (Prim::Maxi, Ty::Int) => fcl!("(0 - 2147483647 - 1)"),
        (Prim::Mini, Ty::Int) => fcl!("2147483647"),
        // (bitwise: no check to fail)
        (Prim::Ori | Prim::Xori, Ty::Int) => fcl!("0"),
        (Prim::Andi, Ty::Int) => fcl!("(0 - 1)"),
        (Prim::Addd, Ty::Double) => fcl!("0.0"),
        (Prim::Muld, Ty::Double) => fcl!("1.0"),
        (Prim::Maxd, Ty::Double) => fcl!("(negd (divd 1.0 0.0))"),
        (Prim::Mind, Ty::Double) => fcl!("(divd 1.0 0.0)"),
        (Prim::Andb, Ty::Bool) => fcl!("true"),
        (Prim::Orb, Ty::Bool) => fcl!("false"),
        _ => return None,
    })
}

impl Lowerer {
    /// `reduce(f, z, a)` and `scan(f, z, a)`: the reduction as FCL code, with its value
    /// attached when the lowering can compute it (for the shapes and counts taken from it).
    pub(super) fn reduction(&mut self, p: Prim, args: Vec<Val>) -> R<Val> {
        if let Some(parts) = self.componentwise_reduction(p, &args)? {
            return Ok(parts);
        }
        if args[2].arr()?.is_dynamic() {
            return self.dynamic_reduction(p, args);
        }
        let mut args = args;
        let (z, a) = (args[1].arr()?.range, args[2].arr()?);
        let m = a.shape.last().copied().unwrap_or(1);
        // a sum whose every prefix stays in the int range, in any order, cannot fail: it
        // needs no check, and may add in a tree (module `range`)
        let (x, sum) = (a.range, range::sum_range(z, a.range, m));
        let op = match &args[0] {
            Val::Fun(g) => match g.as_ref() {
                Fun::Op(p, _) => Some(*p),
                _ => None,
            },
            _ => None,
        };
        let range = match op {
            Some(Prim::Addi) => sum,
            // (z only for an empty row: a row's minimum or maximum is one of its elements)
            Some(Prim::Maxi | Prim::Mini | Prim::Maxd | Prim::Mind) if m > 0 => x,
            Some(Prim::Maxi | Prim::Mini | Prim::Maxd | Prim::Mind) => z,
            _ => None,
        };
        if op == Some(Prim::Addi) && sum.is_some() {
            args[0] = Val::Fun(Rc::new(Fun::Op(Prim::Addi, Span::DUMMY)));
        }
        let (f, a) = (&args[0], args[2].arr()?);
        let known = self.known_reduction(f, a, p == Prim::Scan);
        match self.reduction_code(p, args.clone())? {
            Val::Arr(mut out) => {
                out.range = range;
                if known.as_ref().is_some_and(|k| k.shape == out.shape) {
                    out.known = known.map(Rc::new);
                    out.range = out.known.as_deref().and_then(Range::of_known).or(range);
                }
                Ok(Val::Arr(out))
            }
            v => Ok(v),
        }
    }

    /// The FCL code of a reduction (see the module comment for the choices).
    fn reduction_code(&mut self, p: Prim, args: Vec<Val>) -> R<Val> {
        let (f, z, a) = (
            args[0].clone(),
            args[1].arr()?.clone(),
            args[2].arr()?.clone(),
        );
        let Some((&m, outer)) = a.shape.split_last() else {
            return Ok(Val::Arr(a)); // rank 0: the argument itself
        };
        let outer = outer.to_vec();
        let k: usize = outer.iter().product();
        let ty = a.ty;
        if scalar_result(&self.fresh, &f, &[ty, ty])? != ty {
            return unsupported("a reduce/scan function whose result type differs");
        }
        let scan = p == Prim::Scan;
        if scan && (m <= 1 || k == 0) {
            return Ok(Val::Arr(a));
        }
        if !scan {
            if outer.is_empty() && m == 0 {
                // planted fault: the fill, not the given neutral element
                if self.fresh.planted(LoweringFault::EmptyReduceNeutral) {
                    return Ok(Val::Arr(Arr::new(ty, outer, move |_| ty.fill())));
                }
                return Ok(Val::Arr(z));
            }
            if m == 0 && k > 0 {
                return unsupported("reduce of an empty last axis (an apltail index error)");
            }
            if k == 0 {
                return Ok(Val::Arr(Arr::new(ty, outer, move |_| ty.fill())));
            }
        }
        let fresh = self.fresh.clone();
        if m <= UNROLL || (self.kernel && m <= MAX_UNROLL) {
            // unrolled: y_0 = x_0, y_j = f(x_j, y_(j-1)), a chain of FCL lets (which the FCL
            // front end takes at any length, where nested applications would nest too deeply)
            let rows = a.clone();
            let ys = move |row: &Fcl, body: &dyn Fn(&[Fcl]) -> Fcl| {
                let (mut lets, mut names) = (Vec::<(Name, Fcl)>::new(), Vec::<Fcl>::new());
                for j in 0..m {
                    let x = row_element(&fresh, &rows, row, &fcl!("{j}"));
                    let y = match names.last() {
                        None => x,
                        Some(prev) => apply_scalar(&fresh, &f, &[(ty, x), (ty, prev.clone())]),
                    };
                    let name = fresh.name("y");
                    names.push(fcl!("{name}"));
                    lets.push((name, y));
                }
                let inner = body(&names);
                lets.into_iter()
                    .rev()
                    .fold(inner, |body, (name, y)| let_in(&name, y, body))
            };
            let out = if scan {
                let f2 = self.fresh.clone();
                Arr::new(ty, a.shape.clone(), move |i| {
                    super::value::share(&f2, i, |i| {
                        let at = fcl!("({i} % {m})");
                        ys(&fcl!("({i} / {m})"), &|names| {
                            super::coords::select(&at, names)
                        })
                    })
                })
            } else {
                // m ≥ 1 here (an empty last axis returned above): a last name exists
                Arr::new(ty, outer, move |i| {
                    ys(i, &|names| {
                        names.last().cloned().unwrap_or_else(|| ty.fill())
                    })
                })
            };
            return Ok(Val::Arr(out));
        }
        if self.kernel {
            return unsupported(format!(
                "reduce/scan over rows longer than {MAX_UNROLL} inside a function"
            ));
        }
        let r = self.fresh.name("r");
        if ty == Ty::Complex {
            // no tree: a block-level tree would store pairs in local memory
            let out = if scan {
                self.scan_rows_complex(&r, &f, &a, k, &int(m as i64), None)
            } else {
                self.fold_rows_complex(&r, &f, &a, k, &int(m as i64))
            };
            return Ok(Val::Arr(out));
        }
        let long = m >= TREE_MIN_LEN || (m >= 256 && k < FEW_ROWS);
        let tree = identity(&f, ty).filter(|_| long && ty != Ty::Bool);
        if let (true, true, Some(span)) = (scan, long && m < (1 << 22), checked_addi(&f, ty)) {
            return Ok(Val::Arr(self.scan_checked_addi(&r, &a, k, m, span)));
        }
        // a sequential fold or scan of few rows runs on few threads: elements that cost more
        // than a load are computed in parallel first (a filter's binary search per element
        // would otherwise run k at a time)
        let a = match tree.is_none() && k < FEW_ROWS && expensive(&a) {
            true => self.materialize(&a, "computed in parallel before a sequential fold"),
            false => a,
        };
        match (scan, tree) {
            (true, Some(id)) => return Ok(Val::Arr(self.scan_blocks(&r, &f, &id, &a, k, m))),
            (true, None) => self.scan_rows(&r, &f, &a, k, &int(m as i64), None),
            (false, Some(id)) => self.tree_rows(&r, &f, &id, &a, k, m),
            (false, None) => self.fold_rows(&r, &f, &a, k, m),
        }
        let shape = if scan { a.shape.clone() } else { outer };
        Ok(Val::Arr(Arr::new(ty, shape, move |i| {
            ty.load(&fcl!("(index {r} {i})"))
        })))
    }

    /// `(fn acc => fn x => f(x, acc))` on stored elements (bools are stored as ints).
    pub(super) fn step_fn(&self, f: &Val, ty: Ty) -> Fcl {
        let (acc, x) = (self.fresh.name("acc"), self.fresh.name("y"));
        let args = [(ty, ty.load(&fcl!("{x}"))), (ty, ty.load(&fcl!("{acc}")))];
        let body = ty.store(&apply_scalar(&self.fresh, f, &args));
        fcl!("(fn {acc} => fn {x} => {body})")
    }

    /// One thread per row folds the row sequentially.
    fn fold_rows(&mut self, r: &Name, f: &Val, a: &Arr, k: usize, m: usize) {
        let step = self.step_fn(f, a.ty);
        let (row, j) = (self.fresh.name("row"), self.fresh.name("j"));
        let first =
            a.ty.store(&row_element(&self.fresh, a, &fcl!("{row}"), &fcl!("0")));
        let rest = a.ty.store(&row_element(
            &self.fresh,
            a,
            &fcl!("{row}"),
            &fcl!("(1 + {j})"),
        ));
        let (nb, t) = (k.div_ceil(256), k.min(256));
        self.comment(format!(
            "reduce: thread-level fold per row, rows={k} len={m}"
        ));
        self.stmt(fcl_stmt!(
            "{r} <- forceM<grid> (concat<block> {t} (generate {nb} (fn b => concat<thread> 1 \
             (generate {t} (fn t => let {row} = mini (b * {t} + t) {} in return<thread> \
             (foldl {step} {first} (generate {} (fn {j} => {rest}))))))))",
            k - 1,
            m - 1
        ));
    }

    /// Block-level tree reductions, repeated over the partial results.
    fn tree_rows(&mut self, r: &Name, f: &Val, id: &Fcl, a: &Arr, k: usize, m: usize) {
        self.helpers.insert(TREE);
        let step = self.step_fn(f, a.ty);
        let ty = a.ty;
        let id = ty.store(id);
        let mut len = m;
        // the element at (row, column) of the rows being reduced in this pass
        let mut source: RowElement = {
            let (a, fresh) = (a.clone(), self.fresh.clone());
            Rc::new(move |row: &Fcl, j: &Fcl| a.ty.store(&row_element(&fresh, &a, row, j)))
        };
        let mut pass = 0;
        loop {
            let q = tree_groups(k, len);
            let s = len.div_ceil(256 * q);
            let chunk = 256 * s;
            let q = len.div_ceil(chunk);
            let name = if q == 1 {
                r.clone()
            } else {
                Name::new(&format!("{r}_{pass}"))
            };
            let (row, c, j) = (
                self.fresh.name("row"),
                self.fresh.name("c"),
                self.fresh.name("j"),
            );
            let x = source(&fcl!("{row}"), &fcl!("{j}"));
            self.comment(format!(
                "reduce: block-level tree, rows={k} len={len} ({q} work-groups of 256 threads x \
                 {s} per row)"
            ));
            self.stmt(fcl_stmt!(
                "{name} <- forceM<grid> (concat<block> 1 (generate {} (fn g => let {row} = g / {q} in \
                 let {c} = g % {q} in do<block> {{ tp <- concat<thread> 1 (generate 256 (fn t => \
                 return<thread> (foldl {step} {id} (generate {s} (fn s => let {j} = {c} * {chunk} + s * 256 + t \
                 in if lti {j} {len} then {x} else {id}))))) ; tq <- force<block> tp ; treeReduce {step} tq }})))",
                k * q
            ));
            if q == 1 {
                return;
            }
            let partial = name.clone();
            source =
                Rc::new(move |row: &Fcl, j: &Fcl| fcl!("(index {partial} ({row} * {q} + {j}))"));
            len = q;
            pass += 1;
        }
    }

    /// A reduce or scan of a small known array whose result is known (apltail computes sizes
    /// with `reduce(muli,1,shape(a))`), in apltail's order.
    fn known_reduction(&self, f: &Val, a: &Arr, scan: bool) -> Option<Array> {
        let known = a.known.as_deref()?;
        let (&m, outer) = known.shape.split_last()?;
        if known.size() > MAX_FOLD || m == 0 {
            return None;
        }
        let mut out = Vec::new();
        for row in 0..outer.iter().product() {
            let mut acc = known.elems.get(row * m);
            if scan {
                out.push(acc);
            }
            for j in 1..m {
                acc = known_apply(&self.fresh, f, &[known.elems.get(row * m + j), acc])?;
                if scan {
                    out.push(acc);
                }
            }
            if !scan {
                out.push(acc);
            }
        }
        let shape = if scan {
            known.shape.clone()
        } else {
            outer.to_vec()
        };
        Some(Array {
            shape,
            elems: Elems::from_scalars(a.ty.base(), out),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::tail::tree::parsed as p;

    #[test]
    fn row_elements_by_flat_index_or_coordinates() {
        let f = Fresh::default();
        let a = Arr::new(Ty::Int, vec![3, 4], |i| fcl!("(index a {i})"));
        assert_eq!(
            row_element(&f, &a, &p("r"), &p("j")),
            p("(index a (r * 4 + j))")
        );
        // through the coordinate access: the row's coordinates named once each
        let mut b = Arr::new(Ty::Int, vec![2, 3, 4], |i| fcl!("(index a {i})"));
        b.at = Some(Rc::new(|cs: &[Fcl]| {
            fcl!("(g {} {} {})", cs[0].clone(), cs[1].clone(), cs[2].clone())
        }));
        assert_eq!(
            row_element(&f, &b, &p("(r * 2)"), &p("0")),
            p("(let c0 = (r * 2) in let c1 = (c0 / 3) in let c2 = (c0 % 3) in g c1 c2 0)")
        );
        // a scalar is its own row
        let s = Arr::scalar(Ty::Double, p("1.5"));
        assert_eq!(row_element(&f, &s, &p("r"), &p("j")), p("1.5"));
    }

    #[test]
    fn identities_of_associative_operators() {
        let op = |p| Val::Fun(Rc::new(Fun::Op(p, Span::DUMMY)));
        assert_eq!(
            identity(&op(Prim::Maxi), Ty::Int),
            Some(p("(0 - 2147483647 - 1)"))
        );
        assert_eq!(
            identity(&op(Prim::Maxd), Ty::Double),
            Some(p("(negd (divd 1.0 0.0))"))
        );
        // an `addi` of the lowering's own (no check site) adds in a tree
        assert_eq!(identity(&op(Prim::Addi), Ty::Int), Some(p("0")));
        assert_eq!(identity(&op(Prim::Addd), Ty::Double), Some(p("0.0")));
        assert_eq!(identity(&op(Prim::Orb), Ty::Bool), Some(p("false")));
        assert_eq!(identity(&op(Prim::Subi), Ty::Int), None);
    }
}
