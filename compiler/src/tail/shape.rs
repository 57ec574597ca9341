//! The shape and structure operators of spec §5.8 (and `idxS`, §5.10) as index arithmetic:
//! each builds the result's index function from its argument's, so no operator here copies
//! (ψ-reduction, seed 002). Shapes, counts and permutations must be known at compile time.

use super::coords::select;
use super::fault::LoweringFault::*;
use super::lowerer::Lowerer;
use super::tree::{fcl, int, var_name, Fcl};
use super::value::{
    index_by_coords, known_int, known_vec, share, unsupported, with_names, wrap, Arr, At, Fresh,
    Index, Ty, Val, R,
};
use semantics::fcl::syntax::{BinOp, ExprKind};
use semantics::tail::ops::prim::Prim;
use semantics::tail::value::{Array, Elems, Scalar};
use std::rc::Rc;

impl Lowerer {
    /// The structural operator `p` on its arguments.
    pub(super) fn structural(&mut self, p: Prim, args: &[&Arr]) -> R<Arr> {
        use Prim as P;
        let f = self.fresh.clone();
        match (p, args) {
            (P::Pi, []) => Ok(Arr::known(Array::scalar(Scalar::Double(
                std::f64::consts::PI,
            )))),
            // (3.34) iota
            (P::Iota, [n]) => {
                let n = extent(known_int(n, "an iota count")?)?;
                Ok(Arr::new(Ty::Int, vec![n], |i| fcl!("({i} + 1)")))
            }
            // extents computed on the device
            (P::Shape, [a]) if a.run_dims.is_some() => {
                let dims = a.run_dims.clone().unwrap_or_default();
                Ok(Arr::new(Ty::Int, vec![dims.len()], move |i| {
                    let texts: Vec<Fcl> = dims.iter().map(|d| (**d).clone()).collect();
                    select(i, &texts)
                }))
            }
            // a length computed on the device is the vector's one extent
            (P::Shape, [a]) if a.is_dynamic() => {
                let len = a.run_len.clone().unwrap_or_else(|| Rc::new(int(0)));
                Ok(Arr::new(Ty::Int, vec![1], move |_| (*len).clone()))
            }
            (P::Shape, [a]) => {
                let ks = a.shape.iter().map(|&d| d as i32).collect();
                Ok(Arr::known(Array::int_vec(ks)))
            }
            // (3.38)/(3.39) reshape: elements reused cyclically, fills for an empty argument
            (P::Reshape, [s, a]) => {
                let shape = known_vec(s, "a reshape shape")?
                    .into_iter()
                    .map(extent)
                    .collect::<R<Vec<_>>>()?;
                let n = checked_size(&shape)?;
                let m = a.size();
                let ty = a.ty;
                if m == 0 {
                    return Ok(Arr::new(ty, shape, move |_| ty.fill()));
                }
                let index = a.index.clone();
                let at = reshape_at(a, &shape);
                let mut out = if m == n || n <= m {
                    with_index(a, shape, index)
                } else {
                    with_index(a, shape, Rc::new(move |i| index(&fcl!("({i} % {m})"))))
                };
                out.at = at;
                Ok(out)
            }
            (P::Rav, [a]) => Ok(with_index(a, vec![a.size()], a.index.clone())),
            (P::Take, [n, a]) => take(&f, known_int(n, "a take count")?, a),
            (P::Drop, [n, a]) => drop(&f, known_int(n, "a drop count")?, a),
            (P::Cat, [a, b]) => cat(&f, a, b),
            (P::Cons, [x, a]) => cat(&f, &column(x, a)?, a),
            (P::Snoc, [a, x]) => cat(&f, a, &column(x, a)?),
            // (3.45)/(3.46) first: the fill of an empty array
            // (3.45)/(3.46) first: the fill of an empty array (an int made a double stays
            // one, for formatD)
            (P::First, [a]) => {
                let first = |ty: Ty, index: &Index| match (&a.run_len, a.size()) {
                    (Some(len), _) => {
                        fcl!(
                            "(if lti 0 {len} then {} else {})",
                            index(&int(0)),
                            ty.fill()
                        )
                    }
                    (None, 0) => ty.fill(),
                    (None, _) => index(&int(0)),
                };
                let mut out = Arr::scalar(a.ty, first(a.ty, &a.index));
                if let Some(ints) = &a.int_source {
                    let t = first(Ty::Int, ints);
                    out.int_source = Some(Rc::new(move |_| t.clone()));
                }
                Ok(out)
            }
            // rotate: every row along the last axis moves left by n mod m
            (P::Rotate, [n, a]) => {
                let k = known_int(n, "a rotate count")?;
                let Some(&m) = a.shape.last() else {
                    return Ok((*a).clone());
                };
                if m == 0 {
                    return Ok((*a).clone());
                }
                // planted fault: the rows move right
                let k = if f.planted(RotateDirection) { -k } else { k };
                let k = k.rem_euclid(m as i64) as usize;
                let index = a.index.clone();
                let at = {
                    let (a, f) = ((*a).clone(), f.clone());
                    let last = a.shape.len() - 1;
                    Rc::new(move |cs: &[Fcl]| {
                        let mut moved = cs.to_vec();
                        moved[last] = wrap(&f, &cs[last], k, m);
                        with_names(&f, &moved, |cs| a.element_at(cs))
                    }) as At
                };
                let g = f.clone();
                Ok(with_coords(
                    &f,
                    a,
                    Rc::new(move |i| {
                        // the column moves by k, wrapping without a division
                        share(&g, i, |i| {
                            share(&g, &fcl!("({i} % {m})"), |c| {
                                index(&fcl!("({i} - {c} + {})", wrap(&g, c, k, m)))
                            })
                        })
                    }),
                    at,
                ))
            }
            // vrotate: the rows along the first axis move; a row is q elements
            (P::Vrotate, [n, a]) => {
                let k = known_int(n, "a vrotate count")?;
                let (size, s0) = (a.size(), a.shape.first().copied().unwrap_or(0));
                if a.shape.is_empty() || s0 == 0 {
                    return Ok((*a).clone());
                }
                let rows = k.rem_euclid(s0 as i64) as usize;
                let off = rows * (size / s0);
                let index = a.index.clone();
                let at = {
                    let (a, f) = ((*a).clone(), f.clone());
                    Rc::new(move |cs: &[Fcl]| {
                        let mut moved = cs.to_vec();
                        moved[0] = wrap(&f, &cs[0], rows, s0);
                        with_names(&f, &moved, |cs| a.element_at(cs))
                    }) as At
                };
                let g = f.clone();
                Ok(with_coords(
                    &f,
                    a,
                    Rc::new(move |i| index(&wrap(&g, i, off, size))),
                    at,
                ))
            }
            (P::Vreverse, [a]) => {
                let Some(&s0) = a.shape.first() else {
                    return Ok((*a).clone());
                };
                let q = a.size() / s0.max(1);
                let index = a.index.clone();
                let at = {
                    let (a, f) = ((*a).clone(), f.clone());
                    Rc::new(move |cs: &[Fcl]| {
                        let mut moved = cs.to_vec();
                        moved[0] = fcl!("({} - {})", s0.saturating_sub(1), cs[0]);
                        with_names(&f, &moved, |cs| a.element_at(cs))
                    }) as At
                };
                let g = f.clone();
                Ok(with_coords(
                    &f,
                    a,
                    Rc::new(move |i| {
                        share(&g, i, |i| {
                            index(&fcl!("(({} - {i} / {q}) * {q} + {i} % {q})", s0 - 1))
                        })
                    }),
                    at,
                ))
            }
            (P::Transp, [a]) => {
                let perm: Vec<usize> = (0..a.shape.len()).rev().collect();
                transpose(&f, &perm, a)
            }
            // transp2: argument axis k becomes result axis p_k (1-based, spec §5.8)
            (P::Transp2, [p, a]) => {
                let perm = known_vec(p, "a transp2 permutation")?
                    .into_iter()
                    .map(|k| extent(k - 1))
                    .collect::<R<Vec<_>>>()?;
                transpose(&f, &perm, a)
            }
            (P::IdxS, [d, i, a]) => idx_s(known_int(d, "an idxS dimension")?, i, a),
            (P::GradeUp, [a]) => self.grade(false, a),
            (P::GradeDown, [a]) => self.grade(true, a),
            // the result's length depends on the data
            (P::Compress, _) => unsupported(format!(
                "{} of an array not known at compile time (its result needs run-time data)",
                p.name()
            )),
            _ => unsupported(format!("operator {}", p.name())),
        }
    }
}

/// The coordinate access of `reshape(shape, a)` where it is cheaper than the flat index: the
/// elements repeat `a` along a suffix of the axes (`a`'s size is the product of the trailing
/// extents), so the coordinates of that suffix alone locate the element, without `% m`, and
/// through `a`'s own coordinate access when the suffix is `a`'s shape.
fn reshape_at(a: &Arr, shape: &[usize]) -> Option<At> {
    let m = a.size();
    let n: usize = shape.iter().product();
    if m == 0 || m > n {
        return None;
    }
    let k = (0..=shape.len()).find(|&k| shape[k..].iter().product::<usize>() == m)?;
    if k == 0 && a.at.is_none() {
        return None; // the flat index is the same
    }
    let (a, suffix) = (a.clone(), shape[k..].to_vec());
    Some(Rc::new(move |cs: &[Fcl]| {
        if a.shape == suffix {
            a.element_at(&cs[k..])
        } else {
            (a.index)(&super::coords::flatten(&suffix, &cs[k..]))
        }
    }))
}

/// A vector literal `[e0,…]` of scalars (3.56).
pub(super) fn vector(fresh: &Fresh, elems: Vec<Arr>) -> R<Val> {
    let Some(first) = elems.first() else {
        return unsupported("an empty vector literal");
    };
    let ty = first.ty;
    if elems.iter().any(|a| !a.shape.is_empty() || a.ty != ty) {
        return unsupported("a vector literal of non-scalars or mixed types");
    }
    // the elements' own expressions (literals, or the computations of computed elements),
    // with the value attached when every element is known
    let known: Option<Vec<Scalar>> = elems.iter().map(|a| a.known_scalar()).collect();
    let texts: Vec<Fcl> = elems.iter().map(|a| a.expr()).collect();
    let literal = texts.iter().all(is_literal);
    let complex = super::complex::literal_parts(&texts, known.as_deref());
    let mut out = Arr::new(ty, vec![texts.len()], |_| int(0));
    out.range = elems
        .iter()
        .map(|a| a.range)
        .reduce(|x, y| Some(x?.union(y?)))
        .flatten();
    out.index = if literal {
        super::value::literal_vector(fresh, ty, texts)
    } else if let Some(parts) = complex {
        super::complex::literal_vector(fresh, texts, parts)
    } else {
        Rc::new(move |i: &Fcl| select(i, &texts))
    };
    out.known = known.map(|ks| {
        Rc::new(Array {
            shape: vec![ks.len()],
            elems: Elems::from_scalars(ty.base(), ks),
        })
    });
    out.element_ranges = Some((out.index.clone(), elems.iter().map(|a| a.range).collect()));
    Ok(Val::Arr(out))
}

/// Whether an element expression is a literal (a number or a bool, negated or not: `0 - k`,
/// `negd x`): no computation of the program is lost by reading it from a table.
fn is_literal(t: &Fcl) -> bool {
    match &t.kind {
        ExprKind::Int(_) | ExprKind::Double(_) | ExprKind::Bool(_) => true,
        ExprKind::BinOp(BinOp::Sub, zero, x) => {
            matches!(zero.kind, ExprKind::Int(0)) && is_literal(x)
        }
        ExprKind::App(f, x) => var_name(f) == Some("negd") && is_literal(x),
        _ => false,
    }
}

/// The number of elements of a shape, which FCL's int indices must reach.
fn checked_size(shape: &[usize]) -> R<usize> {
    shape
        .iter()
        .try_fold(1usize, |acc, &d| acc.checked_mul(d))
        .filter(|&n| n <= i32::MAX as usize)
        .map_or_else(|| unsupported("an array of 2^31 elements or more"), Ok)
}

/// A static extent or count that must not be negative.
pub(super) fn extent(k: i64) -> R<usize> {
    usize::try_from(k).or_else(|_| unsupported("a negative extent"))
}

/// `a`'s elements under a new shape and index function (known values do not carry over).
fn with_index(a: &Arr, shape: Vec<usize>, index: Index) -> Arr {
    Arr {
        shape,
        run_len: None,
        run_dims: None,
        ..a.with_elements(a.ty, index)
    }
}

/// `a`'s elements rearranged in its own shape: read at coordinates through `at`, and at a
/// flat index through `index` or, where `a` itself has a coordinate access (a chain of
/// rotations and transpositions), through `at` after finding the coordinates once.
///
/// A rearrangement of a plain array keeps its flat index and gains the coordinate access, so
/// that a chain of them (life's `vrotate(1, rotate(1, b))`) or a map of several finds the
/// coordinates once and moves each by a wrap (a comparison), not by a `%` per operand: life's
/// step kernel on a 1000x1000 board, PoCL, 341 ms for 100 steps with the flat `%` arithmetic,
/// 251-265 ms so (tailbench, 2026-11-28). (An early version, whose wraps were `%`s, was slower
/// with coordinates.)
fn with_coords(f: &Fresh, a: &Arr, index: Index, at: At) -> Arr {
    if a.at.is_some() {
        let mut out = with_index(a, a.shape.clone(), index_by_coords(f, &a.shape, at.clone()));
        out.at = Some(at);
        return out;
    }
    let mut out = with_index(a, a.shape.clone(), index);
    out.at = Some(at);
    out
}

/// (3.43)/(3.44) take along the first axis: the first (n ≥ 0) or last (n < 0) |n| rows,
/// padded with fills where the argument has too few; a scalar is a 1-vector.
fn take(f: &Fresh, n: i64, a: &Arr) -> R<Arr> {
    let old = if a.shape.is_empty() {
        vec![1]
    } else {
        a.shape.clone()
    };
    let big = old.iter().product::<usize>() as i64;
    let mut shape = old.clone();
    shape[0] = n.unsigned_abs() as usize;
    let m = checked_size(&shape)? as i64;
    // element i is a_(i - o), a fill where that is outside 0..N
    // planted fault: a negative take from the front
    let o = if n >= 0 || f.planted(TakeWrongEnd) {
        0
    } else {
        m - big
    };
    let (ty, index) = (a.ty, a.index.clone());
    let f = f.clone();
    // planted fault: padding clamps to the edge element
    let clamp = f.planted(TakeFill) && big > 0;
    Ok(with_index(
        a,
        shape,
        Rc::new(move |i| {
            let low = o > 0;
            let high = m - o > big;
            let shifted = |i: &Fcl| {
                if o >= 0 {
                    fcl!("({i} - {o})")
                } else {
                    fcl!("({i} + {})", -o)
                }
            };
            if !low && !high {
                return index(&shifted(i));
            }
            share(&f, i, |i| {
                let j = shifted(i);
                let inside = match (low, high) {
                    (true, true) => fcl!("if lti {i} {o} then false else lti {j} {big}"),
                    (true, false) => fcl!("if lti {i} {o} then false else true"),
                    _ => fcl!("lti {j} {big}"),
                };
                let pad = match clamp {
                    true => index(&fcl!("(mini (maxi {j} 0) {})", big - 1)),
                    false => ty.fill(),
                };
                fcl!("(if {inside} then {} else {pad})", index(&j))
            })
        }),
    ))
}

/// drop along the first axis (spec §5.8): a scalar is returned unchanged.
fn drop(f: &Fresh, n: i64, a: &Arr) -> R<Arr> {
    let Some(&s0) = a.shape.first() else {
        return Ok(a.clone());
    };
    let q: usize = a.shape[1..].iter().product();
    let k = n.unsigned_abs() as usize;
    let mut shape = a.shape.clone();
    shape[0] = s0.saturating_sub(k);
    // planted fault: a negative drop from the front
    let off = if n >= 0 || f.planted(DropWrongEnd) {
        k.min(s0) * q
    } else {
        0
    };
    let index = a.index.clone();
    Ok(with_index(
        a,
        shape,
        Rc::new(move |i| index(&fcl!("({i} + {off})"))),
    ))
}

/// `x` with a trailing axis of length 1, as `cons`/`snoc` put it beside `a`.
fn column(x: &Arr, a: &Arr) -> R<Arr> {
    if a.shape.is_empty() || x.shape.len() + 1 != a.shape.len() {
        return unsupported("cons/snoc of mismatched ranks");
    }
    let mut shape = x.shape.clone();
    shape.push(1);
    Ok(with_index(x, shape, x.index.clone()))
}

/// cat along the last axis: each row of a followed by the row of b (two scalars: a 2-vector).
fn cat(f: &Fresh, a: &Arr, b: &Arr) -> R<Arr> {
    let (sa, sb) = (vec_of_scalar(a), vec_of_scalar(b));
    if sa.len() != sb.len() || sa[..sa.len() - 1] != sb[..sb.len() - 1] || a.ty != b.ty {
        return unsupported("cat of mismatched shapes");
    }
    let r = sa.len();
    let (ma, mb) = (sa[r - 1], sb[r - 1]);
    let l = ma + mb;
    let mut shape = sa.clone();
    shape[r - 1] = l;
    let (ia, ib) = (a.index.clone(), b.index.clone());
    let f = f.clone();
    Ok(with_index(
        a,
        shape,
        Rc::new(move |i| {
            if ma == 0 {
                return ib(i);
            }
            if mb == 0 {
                return ia(i);
            }
            share(&f, i, |i| {
                if r == 1 {
                    // vectors: one row, the index is the column
                    let (from_a, from_b) = (ia(i), ib(&fcl!("({i} - {ma})")));
                    return fcl!("(if lti {i} {ma} then {from_a} else {from_b})");
                }
                let (row, j) = (fcl!("({i} / {l})"), fcl!("({i} % {l})"));
                let from_a = ia(&fcl!("({row} * {ma} + {j})"));
                // planted fault: b's rows read with a's row length
                let stride = if f.planted(CatStride) { ma } else { mb };
                let from_b = ib(&fcl!("({row} * {stride} + {j} - {ma})"));
                fcl!("(if lti {j} {ma} then {from_a} else {from_b})")
            })
        }),
    ))
}

fn vec_of_scalar(a: &Arr) -> Vec<usize> {
    if a.shape.is_empty() {
        vec![1]
    } else {
        a.shape.clone()
    }
}

/// Index arithmetic for a general transpose: operand axis `k` becomes result axis `perm[k]`.
fn transpose(f: &Fresh, perm: &[usize], a: &Arr) -> R<Arr> {
    let old = a.shape.clone();
    let r = old.len();
    let mut seen = vec![false; r];
    if perm.len() != r
        || perm
            .iter()
            .any(|&p| p >= r || std::mem::replace(&mut seen[p], true))
    {
        return unsupported("transp2 with a non-permutation");
    }
    if perm.iter().enumerate().all(|(k, &p)| k == p) {
        return Ok(a.clone());
    }
    if let Some(inner) = &a.transposed {
        // base axis k is a's axis p0[k], which becomes axis perm[p0[k]]
        let (base, p0) = inner.as_ref();
        let composed: Vec<usize> = p0.iter().map(|&k| perm[k]).collect();
        return transpose(f, &composed, base);
    }
    let mut shape = vec![0; r];
    for k in 0..r {
        shape[perm[k]] = old[k];
    }
    // operand axis k is result axis perm[k]: the operand's coordinates, then its element
    let at: At = {
        let (a, perm) = (a.clone(), perm.to_vec());
        Rc::new(move |cs: &[Fcl]| {
            let operand: Vec<Fcl> = perm.iter().map(|&p| cs[p].clone()).collect();
            a.element_at(&operand)
        })
    };
    let perm_copy = perm.to_vec();
    // planted fault: the flat index decoded by the operand's shape
    let decode = if f.planted(TranspShape) { &old } else { &shape };
    let mut out = with_index(a, shape.clone(), index_by_coords(f, decode, at.clone()));
    out.at = Some(at);
    out.transposed = Some(Rc::new((a.clone(), perm_copy)));
    Ok(out)
}

/// `idxS(d, i, a)`: the slice at 1-based position i of 1-based axis d; i may be computed.
fn idx_s(d: i64, i: &Arr, a: &Arr) -> R<Arr> {
    let r = a.shape.len();
    if d < 1 || d as usize > r {
        return unsupported("idxS with a dimension outside the rank");
    }
    let d = d as usize - 1;
    let sd = a.shape[d];
    if let Ok(k) = known_int(i, "") {
        if k < 1 || k as usize > sd {
            return unsupported("idxS with an index out of bounds");
        }
    }
    let inner: usize = a.shape[d + 1..].iter().product();
    let mut shape = a.shape.clone();
    shape.remove(d);
    let pos = i.expr();
    let index = a.index.clone();
    Ok(with_index(
        a,
        shape,
        Rc::new(move |j| {
            index(&fcl!(
                "({j} / {inner} * {} + ({pos} - 1) * {inner} + {j} % {inner})",
                sd * inner
            ))
        }),
    ))
}
