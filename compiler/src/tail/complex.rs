//! Complex numbers (spec §5.3, `d2x` §5.6) in lowered FCL. FCL has no complex type but has
//! pairs of doubles, which it types as base types (fcl.md rule 5.6): a complex element's
//! expression is an FCL pair `(re, im)`, its parts are `fst`/`snd`, and an operator binds each
//! argument once with `let` before taking it apart. Pairs are compile-time values of the
//! FCL→OpenCL lowering, so the parts live in registers and a pair costs nothing at run time.
//!
//! The FCL→OpenCL lowering stores only scalars, so wherever an array is stored (materialized
//! arrays, prints, the state of `power`, reductions of long rows) a complex array of n elements
//! is *two blocks of doubles*, struct of arrays: the real parts at slots `0..n`, the imaginary
//! parts at `n..2n`. One kernel of 2n threads writes both blocks, each thread one part.

use super::apply::apply_scalar;
use super::coords::select;
use super::lowerer::{stored_element, Lowerer};
use super::reduce::row_element;
use super::reduce::UNROLL;
use super::scan::{row_length, within_length};
use super::tree::{fcl, fcl_stmt, int, int_literal, literal_index, times, var, Fcl, Name};
use super::value::{scalar_expr, share, Arr, Fresh, Fun, Index, Ty, Val, R, TABLE_MIN};
use semantics::tail::ops::prim::Prim;
use semantics::tail::value::Scalar;
use std::cell::OnceCell;
use std::rc::Rc;

impl Ty {
    /// How many buffer slots (doubles or ints) one element takes when stored.
    pub(super) fn slots(self) -> usize {
        match self {
            Ty::Complex => 2,
            _ => 1,
        }
    }
}

/// The FCL expression and result type of complex operator `p` on argument expressions `xs`,
/// or `None` when `p` is not one. The arithmetic is the oracle's, operation for operation
/// (FCL's doubles are IEEE and compiled without contraction, docs/fcl-extensions.md §2).
pub(super) fn complex_op(p: Prim, xs: &[Fcl], fresh: &Fresh) -> Option<(Fcl, Ty)> {
    use Prim as P;
    use Ty::{Complex as X, Double as D};
    let un = |body: &dyn Fn(&Fcl) -> Fcl| share(fresh, &xs[0], body);
    let bin = |body: &dyn Fn(&Fcl, &Fcl) -> Fcl| {
        share(fresh, &xs[0], |a| share(fresh, &xs[1], |b| body(a, b)))
    };
    Some(match p {
        P::Addx => (bin(&|a, b| parts(a, b, "addd")), X),
        P::Subx => (bin(&|a, b| parts(a, b, "subd")), X),
        // (a+bi)(c+di) = (ac − bd) + (ad + bc)i
        P::Mulx => (
            bin(&|a, b| {
                fcl!(
                    "(subd (muld (fst {a}) (fst {b})) (muld (snd {a}) (snd {b})), \
                     addd (muld (fst {a}) (snd {b})) (muld (snd {a}) (fst {b})))"
                )
            }),
            X,
        ),
        // 0 − z, so that negx(0.0j0.0) is 0.0j0.0, not −0.0
        P::Negx => (un(&|z| fcl!("(subd 0.0 (fst {z}), subd 0.0 (snd {z}))")), X),
        P::Conjx => (un(&|z| fcl!("(fst {z}, negd (snd {z}))")), X),
        // √(a² + b²), naively, as apltail computes it
        P::Magnx => (
            un(&|z| fcl!("(sqrtd (addd (muld (fst {z}) (fst {z})) (muld (snd {z}) (snd {z}))))")),
            D,
        ),
        // eᵃ(cos b + i sin b)
        P::Expx => (
            un(&|z| {
                let m = fresh.name("e");
                fcl!(
                    "(let {m} = expd (fst {z}) in (muld {m} (cosd (snd {z})), muld {m} (sind (snd {z}))))"
                )
            }),
            X,
        ),
        P::Rex => (fcl!("(fst {})", xs[0]), D),
        P::Imx => (fcl!("(snd {})", xs[0]), D),
        P::Injx => (fcl!("({}, {})", xs[0], xs[1]), X),
        P::D2x => (fcl!("({}, 0.0)", xs[0]), X),
        _ => return None,
    })
}

/// `(f (fst a) (fst b), f (snd a) (snd b))`: a componentwise operation (`f` a built-in).
fn parts(a: &Fcl, b: &Fcl, f: &str) -> Fcl {
    let f = var(f);
    fcl!("({f} (fst {a}) (fst {b}), {f} (snd {a}) (snd {b}))")
}

/// Slot `i` (an FCL int expression) of array `a` as stored in a buffer: the element for
/// scalar types; for complex ones, with n elements, the real part of element i below n and the
/// imaginary part of element i − n from n on (the element computed once, its other part unused).
pub(super) fn stored_slot(fresh: &Fresh, a: &Arr, i: &Fcl) -> Fcl {
    if a.ty != Ty::Complex {
        return stored_element(a, i);
    }
    // (an unbounded vector's two blocks are as long as it is, module `capacity`)
    let n = a.stored_count();
    share(fresh, i, |i| {
        let (j, z) = (fresh.name("j"), fresh.name("z"));
        let elem = (a.index)(&var(j.as_str()));
        fcl!(
            "(let {j} = (if lti {i} {n} then {i} else {i} - {n}) in let {z} = {elem} in \
             if lti {i} {n} then fst {z} else snd {z})"
        )
    })
}

/// The complex element at index `i` of the two blocks that start at slot `off` of buffer
/// `buf`, `n` elements each (FCL ints: literals, or, for an unbounded vector, its stored
/// count and the run-time start of its blocks in a loop's state).
pub(super) fn read_pair(fresh: &Fresh, buf: &Name, off: &Fcl, n: &Fcl, i: &Fcl) -> Fcl {
    share(fresh, i, |i| {
        let at = |o: Fcl| match int_literal(&o) {
            Some(0) => fcl!("(index {buf} {i})"),
            _ => fcl!("(index {buf} ({i} + {o}))"),
        };
        let second = match (int_literal(off), int_literal(n)) {
            (Some(off), Some(n)) => int(off + n),
            _ => fcl!("({off} + {n})"),
        };
        fcl!("({}, {})", at(off.clone()), at(second))
    })
}

/// The real parts and then the imaginary parts (FCL double expressions) of a vector literal
/// whose elements are complex literals: each element's expression is its known value's
/// literal, so no computation of the program is lost by reading the elements from a table.
pub(super) fn literal_parts(texts: &[Fcl], known: Option<&[Scalar]>) -> Option<Vec<Fcl>> {
    let xs = known?
        .iter()
        .zip(texts)
        .map(|(&k, t)| match k {
            Scalar::Complex(z) if *t == scalar_expr(k) => Some(z),
            _ => None,
        })
        .collect::<Option<Vec<_>>>()?;
    let re = xs.iter().map(|z| scalar_expr(Scalar::Double(z.0)));
    let im = xs.iter().map(|z| scalar_expr(Scalar::Double(z.1)));
    Some(re.chain(im).collect())
}

/// The index function of a literal vector of complex numbers (element expressions `texts`,
/// parts `parts` as [`literal_parts`] gives them): the element's own expression at a literal
/// index; otherwise a chain of `if`s for a short vector, or, from [`TABLE_MIN`] elements on, a
/// read of a table holding the real parts and then the imaginary parts (made on first use),
/// which keeps a long literal vector from nesting `if`s deeper than FCL parses.
pub(super) fn literal_vector(fresh: &Fresh, texts: Vec<Fcl>, parts: Vec<Fcl>) -> Index {
    if texts.len() < TABLE_MIN {
        return Rc::new(move |i: &Fcl| select(i, &texts));
    }
    let (n, parts) = (texts.len(), Rc::new(parts));
    let (fresh, table) = (fresh.clone(), Rc::new(OnceCell::new()));
    Rc::new(move |i: &Fcl| {
        if let Some(t) = literal_index(i).and_then(|k| texts.get(k)) {
            return t.clone();
        }
        let m = table.get_or_init(|| fresh.table(Ty::Double, parts.clone()));
        read_pair(&fresh, m, &int(0), &int(n as i64), i)
    })
}

impl Lowerer {
    /// `reduce` of complex rows too long to unroll: one thread per row folds it with
    /// `seqfor`, whose private cells hold doubles, so the accumulator is two cells. A step
    /// writes one part, so step 2j (re) and 2j+1 (im) of element j write the pair of cells
    /// `2·(j mod 2)` while reading accumulator j−1 from the other pair (double buffering).
    /// Buffer `r` gets four slots per row; returns the array reading the result.
    /// `m`, the row length, is an FCL int: a literal, or a run-time length (of one row).
    pub(super) fn fold_rows_complex(
        &mut self,
        r: &Name,
        f: &Val,
        a: &Arr,
        k: usize,
        m: &Fcl,
    ) -> Arr {
        let fresh = self.fresh.clone();
        let (row, s, j, read, z) = (
            fresh.name("row"),
            fresh.name("s"),
            fresh.name("j"),
            fresh.name("read"),
            fresh.name("z"),
        );
        let x = row_element(&fresh, a, &var(row.as_str()), &var(j.as_str()));
        // (j + 1) mod 2 = (j − 1) mod 2 from j = 1 on, and stays a cell index at j = 0
        let prev = fcl!("({read} (2 * (({j} + 1) % 2)), {read} (2 * (({j} + 1) % 2) + 1))");
        let next = apply_scalar(&fresh, f, &[(Ty::Complex, x), (Ty::Complex, prev)]);
        let first = row_element(&fresh, a, &var(row.as_str()), &int(0));
        // fewer rows than a block: as many threads as rows
        let (nb, t) = (k.div_ceil(256), k.min(256));
        let len = match int_literal(m) {
            Some(m) => m.to_string(),
            None => "run-time".to_string(),
        };
        self.comment(format!(
            "reduce: thread-level fold per row of complex numbers (two cells per \
             accumulator, double-buffered), rows={k} len={len}"
        ));
        self.stmt(fcl_stmt!(
            "{r} <- forceM<grid> (concat<block> {} (generate {nb} (fn b => concat<thread> 4 \
             (generate {t} (fn t => let {row} = mini (b * {t} + t) {} in return<thread> \
             (seqfor 4 {} (fn {read} => fn {s} => let {j} = {s} / 2 in \
             let {z} = (if {j} == 0 then {first} else {next}) in \
             (2 * ({j} % 2) + {s} % 2, if {s} % 2 == 0 then fst {z} else snd {z}))))))))",
            4 * t,
            k - 1,
            times(2, m)
        ));
        // the pair of cells that the last element wrote
        let (c, c1) = match int_literal(m) {
            Some(m) => (int(2 * ((m - 1) % 2)), int(2 * ((m - 1) % 2) + 1)),
            None => (
                fcl!("(2 * (({m} - 1) % 2))"),
                fcl!("(2 * (({m} - 1) % 2) + 1)"),
            ),
        };
        let r = r.clone();
        Arr::new(
            Ty::Complex,
            a.shape[..a.shape.len() - 1].to_vec(),
            move |i| {
                share(&fresh, i, |i| {
                    fcl!("((index {r} ({i} * 4 + {c})), (index {r} ({i} * 4 + {c1})))")
                })
            },
        )
    }

    /// `reduce(f, z, a)` or `scan(f, z, a)` of complex numbers by `addx` or `subx`, which
    /// work on the real and the imaginary parts apart: the same reduction of doubles (`addd`,
    /// `subd`) of each part, so that long rows and vectors of run-time length take the paths
    /// of doubles (trees, block-level scans) where a pair has none. `None` for another `f`,
    /// for rows the reduction unrolls and inside a function.
    pub(super) fn componentwise_reduction(&mut self, p: Prim, args: &[Val]) -> R<Option<Val>> {
        let (Val::Fun(g), Val::Arr(z), Val::Arr(a)) = (&args[0], &args[1], &args[2]) else {
            return Ok(None);
        };
        let Fun::Op(op, span) = g.as_ref() else {
            return Ok(None);
        };
        let part_op = match op {
            Prim::Addx => Prim::Addd,
            Prim::Subx => Prim::Subd,
            _ => return Ok(None),
        };
        let m = a.shape.last().copied().unwrap_or(1);
        if a.ty != Ty::Complex || self.kernel || (!a.is_dynamic() && m <= UNROLL) {
            return Ok(None);
        }
        // stored once: each part reads its own block
        let a = self.materialize(a, "complex numbers, reduced part by part");
        let f = Val::Fun(Rc::new(Fun::Op(part_op, *span)));
        let mut parts = Vec::new();
        for part in ["fst", "snd"] {
            let of = |x: &Arr| {
                let index = x.index.clone();
                let part = Rc::new(move |i: &Fcl| fcl!("({} {})", var(part), index(i)));
                x.with_elements(Ty::Double, part)
            };
            let args = vec![f.clone(), Val::Arr(of(z)), Val::Arr(of(&a))];
            parts.push(self.reduction(p, args)?.arr()?.clone());
        }
        let (re, im) = (parts[0].index.clone(), parts[1].index.clone());
        // (the real parts' shape and run-time length)
        let pairs = Rc::new(move |i: &Fcl| fcl!("({}, {})", re(i), im(i)));
        Ok(Some(Val::Arr(parts[0].with_elements(Ty::Complex, pairs))))
    }

    /// `scan` of complex rows too long to unroll: one thread per row scans it with `seqfor`
    /// into 2m private cells, the parts interleaved (element j's real part at 2j, its
    /// imaginary part at 2j + 1); step 2j writes the real part of element j, step 2j + 1 its
    /// imaginary part, each reading element j − 1 two or three cells back, so that the FCL
    /// compiler keeps the row in a window of carried scalars (no private array: any length).
    /// `m` is a literal, or for one row an unbounded vector's run-time length; with `len` (a
    /// vector of run-time length, one row) the positions from `len` on keep the last prefix
    /// and an empty vector's first element is not read. Buffer `r` holds the rows one after
    /// another in that layout; returns the array reading it.
    pub(super) fn scan_rows_complex(
        &mut self,
        r: &Name,
        f: &Val,
        a: &Arr,
        k: usize,
        m: &Fcl,
        len: Option<&Fcl>,
    ) -> Arr {
        let fresh = self.fresh.clone();
        let (row, s, j, read, z, even) = (
            fresh.name("row"),
            fresh.name("s"),
            fresh.name("j"),
            fresh.name("read"),
            fresh.name("z"),
            fresh.name("even"),
        );
        let x = row_element(&fresh, a, &var(row.as_str()), &var(j.as_str()));
        // element j − 1: from step 2j two and one cells back, from step 2j + 1 three and two
        let prev = fcl!(
            "(if {even} then {read} ({s} - 2) else {read} ({s} - 3), \
             if {even} then {read} ({s} - 1) else {read} ({s} - 2))"
        );
        let next = apply_scalar(&fresh, f, &[(Ty::Complex, x), (Ty::Complex, prev.clone())]);
        let first = row_element(&fresh, a, &var(row.as_str()), &int(0));
        let fill = fcl!("(0.0, 0.0)");
        let (first, next) = within_length(len, &j, first, next, fill, prev);
        let length = row_length(m);
        self.comment(format!(
            "scan: thread-level per row of complex numbers (the parts interleaved), rows={k} \
             len={length}"
        ));
        let step = fcl!(
            "(fn {read} => fn {s} => let {j} = {s} / 2 in let {even} = {s} % 2 == 0 in \
             let {z} = (if {j} == 0 then {first} else {next}) in \
             ({s}, if {even} then fst {z} else snd {z}))"
        );
        self.seqfor_per_row(r, k, &times(2, m), &row, &step);
        let r = r.clone();
        Arr::new(Ty::Complex, a.shape.clone(), move |i| {
            share(&fresh, i, |i| {
                fcl!("((index {r} (2 * {i})), (index {r} (2 * {i} + 1)))")
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::tail::tree::parsed as p;

    #[test]
    fn operators_take_pairs_apart() {
        let f = Fresh::default();
        let (e, ty) = complex_op(Prim::Mulx, &[p("a"), p("b")], &f).expect("an operator");
        assert_eq!(ty, Ty::Complex);
        assert_eq!(
            e,
            p("(subd (muld (fst a) (fst b)) (muld (snd a) (snd b)), \
               addd (muld (fst a) (snd b)) (muld (snd a) (fst b)))")
        );
        // an argument that is not a name is bound once
        let (e, _) = complex_op(Prim::Addx, &[p("(u, v)"), p("b")], &f).expect("an operator");
        assert_eq!(
            e,
            p("(let x0 = (u, v) in (addd (fst x0) (fst b), addd (snd x0) (snd b)))")
        );
        let (e, ty) = complex_op(Prim::Magnx, &[p("z")], &f).expect("an operator");
        assert_eq!(ty, Ty::Double);
        assert_eq!(
            e,
            p("(sqrtd (addd (muld (fst z) (fst z)) (muld (snd z) (snd z))))")
        );
        let (e, _) = complex_op(Prim::Expx, &[p("z")], &f).expect("an operator");
        assert_eq!(
            e,
            p("(let e1 = expd (fst z) in (muld e1 (cosd (snd z)), muld e1 (sind (snd z))))")
        );
        let (e, _) = complex_op(Prim::Injx, &[p("1.5"), p("(a + b)")], &f).expect("an operator");
        assert_eq!(e, p("(1.5, (a + b))"));
        assert!(complex_op(Prim::Addi, &[p("a"), p("b")], &f).is_none());
    }

    #[test]
    fn stored_complex_arrays_are_two_blocks() {
        let f = Fresh::default();
        let a = Arr::new(Ty::Complex, vec![5], |i: &Fcl| fcl!("(pairs {i})"));
        assert_eq!(
            stored_slot(&f, &a, &p("i")),
            p(
                "(let j0 = (if lti i 5 then i else i - 5) in let z1 = (pairs j0) in \
               if lti i 5 then fst z1 else snd z1)"
            )
        );
        let b = Arr::new(Ty::Bool, vec![5], |i: &Fcl| fcl!("(bits {i})"));
        assert_eq!(stored_slot(&f, &b, &p("i")), p("(b2i (bits i))"));
        let buf = Name::new("buf");
        assert_eq!(
            read_pair(&f, &buf, &int(0), &int(5), &p("i")),
            p("((index buf i), (index buf (i + 5)))")
        );
        assert_eq!(
            read_pair(&f, &buf, &int(2), &int(5), &p("(i * 2)")),
            p("(let x2 = (i * 2) in ((index buf (x2 + 2)), (index buf (x2 + 7))))")
        );
    }

    #[test]
    fn long_complex_literal_vectors_read_a_table_of_parts() {
        let f = Fresh::default();
        let zs: Vec<Scalar> = (0..TABLE_MIN)
            .map(|k| Scalar::Complex((k as f64, -(k as f64))))
            .collect();
        let texts: Vec<Fcl> = zs.iter().map(|&z| scalar_expr(z)).collect();
        let parts = literal_parts(&texts, Some(&zs)).expect("literal parts");
        assert_eq!(parts.len(), 2 * TABLE_MIN);
        assert_eq!(parts[1], p("1.0"));
        assert_eq!(parts[TABLE_MIN + 1], p("(negd 1.0)"));
        // a computed element is not a literal
        let mut computed = texts.clone();
        computed[0] = p("(a, b)");
        assert!(literal_parts(&computed, Some(&zs)).is_none());
        let index = literal_vector(&f, texts.clone(), parts);
        assert_eq!(index(&p("3")), texts[3]);
        assert!(f.tables().is_empty(), "a literal index needs no table");
        let n = TABLE_MIN;
        assert_eq!(
            index(&p("i")),
            p(&format!("((index tab0 i), (index tab0 (i + {n})))"))
        );
        assert_eq!(f.tables().len(), 1);
    }
}
