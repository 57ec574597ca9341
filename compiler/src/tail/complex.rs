//! Complex numbers (spec §5.3, `d2x` §5.6) in lowered FCL. FCL has no complex type but has
//! pairs of doubles, which it types as base types (fcl.md rule 5.6): a complex element's text is
//! an FCL pair `(re, im)`, its parts are `fst`/`snd`, and an operator binds each argument once
//! with `let` before taking it apart. Pairs are compile-time values of the FCL→OpenCL lowering,
//! so the parts live in registers and a pair costs nothing at run time.
//!
//! The FCL→OpenCL lowering stores only scalars, so wherever an array is stored (materialized
//! arrays, prints, the state of `power`, reductions of long rows) a complex array of n elements
//! is *two blocks of doubles*, struct of arrays: the real parts at slots `0..n`, the imaginary
//! parts at `n..2n`. One kernel of 2n threads writes both blocks, each thread one part.

use super::higher::apply_scalar;
use super::program::{element_text, Lowerer};
use super::reduce::row_element;
use super::value::{scalar_text, select, share, Arr, Fresh, Index, Ty, Val, TABLE_MIN};
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

/// The FCL text and result type of complex operator `p` on argument texts `xs`, or `None`
/// when `p` is not one. The arithmetic is the oracle's, operation for operation (FCL's
/// doubles are IEEE and compiled without contraction, docs/fcl-extensions.md §2).
pub(super) fn complex_op(p: Prim, xs: &[String], fresh: &Fresh) -> Option<(String, Ty)> {
    use Prim as P;
    use Ty::{Complex as X, Double as D};
    let un = |body: &dyn Fn(&str) -> String| share(fresh, &xs[0], body);
    let bin = |body: &dyn Fn(&str, &str) -> String| {
        share(fresh, &xs[0], |a| share(fresh, &xs[1], |b| body(a, b)))
    };
    Some(match p {
        P::Addx => (bin(&|a, b| parts(a, b, "addd")), X),
        P::Subx => (bin(&|a, b| parts(a, b, "subd")), X),
        // (a+bi)(c+di) = (ac − bd) + (ad + bc)i
        P::Mulx => (
            bin(&|a, b| {
                format!(
                    "(subd (muld (fst {a}) (fst {b})) (muld (snd {a}) (snd {b})), \
                     addd (muld (fst {a}) (snd {b})) (muld (snd {a}) (fst {b})))"
                )
            }),
            X,
        ),
        // 0 − z, so that negx(0.0j0.0) is 0.0j0.0, not −0.0
        P::Negx => (
            un(&|z| format!("(subd 0.0 (fst {z}), subd 0.0 (snd {z}))")),
            X,
        ),
        P::Conjx => (un(&|z| format!("(fst {z}, negd (snd {z}))")), X),
        // √(a² + b²), naively, as apltail computes it
        P::Magnx => (
            un(&|z| {
                format!("(sqrtd (addd (muld (fst {z}) (fst {z})) (muld (snd {z}) (snd {z}))))")
            }),
            D,
        ),
        // eᵃ(cos b + i sin b)
        P::Expx => (
            un(&|z| {
                let m = fresh.name("e");
                format!(
                    "(let {m} = expd (fst {z}) in (muld {m} (cosd (snd {z})), muld {m} (sind (snd {z}))))"
                )
            }),
            X,
        ),
        P::Rex => (format!("(fst {})", xs[0]), D),
        P::Imx => (format!("(snd {})", xs[0]), D),
        P::Injx => (format!("({}, {})", xs[0], xs[1]), X),
        P::D2x => (format!("({}, 0.0)", xs[0]), X),
        _ => return None,
    })
}

/// `(f (fst a) (fst b), f (snd a) (snd b))`: a componentwise operation.
fn parts(a: &str, b: &str, f: &str) -> String {
    format!("({f} (fst {a}) (fst {b}), {f} (snd {a}) (snd {b}))")
}

/// Slot `i` (FCL int text) of array `a` as stored in a buffer: the element for scalar types;
/// for complex ones, with n elements, the real part of element i below n and the imaginary
/// part of element i − n from n on (the element computed once, its other part unused).
pub(super) fn stored_slot(fresh: &Fresh, a: &Arr, i: &str) -> String {
    if a.ty != Ty::Complex {
        return element_text(a, i);
    }
    let n = a.size().max(1);
    share(fresh, i, |i| {
        let (j, z) = (fresh.name("j"), fresh.name("z"));
        format!(
            "(let {j} = (if lti {i} {n} then {i} else {i} - {n}) in let {z} = {} in \
             if lti {i} {n} then fst {z} else snd {z})",
            (a.index)(&j)
        )
    })
}

/// The complex element at index `i` of the two blocks that start at slot `off` of buffer
/// `buf`, `n` elements each.
pub(super) fn read_pair(fresh: &Fresh, buf: &str, off: usize, n: usize, i: &str) -> String {
    share(fresh, i, |i| {
        let at = |o: usize| match o {
            0 => format!("(index {buf} {i})"),
            o => format!("(index {buf} ({i} + {o}))"),
        };
        format!("({}, {})", at(off), at(off + n))
    })
}

/// The real parts and then the imaginary parts (FCL double texts) of a vector literal whose
/// elements are complex literals: each element's text is its known value's literal text, so no
/// computation of the program is lost by reading the elements from a table.
pub(super) fn literal_parts(texts: &[String], known: Option<&[Scalar]>) -> Option<Vec<String>> {
    let xs = known?
        .iter()
        .zip(texts)
        .map(|(&k, t)| match k {
            Scalar::Complex(z) if *t == scalar_text(k) => Some(z),
            _ => None,
        })
        .collect::<Option<Vec<_>>>()?;
    let re = xs.iter().map(|z| scalar_text(Scalar::Double(z.0)));
    let im = xs.iter().map(|z| scalar_text(Scalar::Double(z.1)));
    Some(re.chain(im).collect())
}

/// The index function of a literal vector of complex numbers (element texts `texts`, parts
/// `parts` as [`literal_parts`] gives them): the element's own text at a literal index;
/// otherwise a chain of `if`s for a short vector, or, from [`TABLE_MIN`] elements on, a read
/// of a table holding the real parts and then the imaginary parts (made on first use), which
/// keeps a long literal vector from nesting `if`s deeper than FCL parses.
pub(super) fn literal_vector(fresh: &Fresh, texts: Vec<String>, parts: Vec<String>) -> Index {
    if texts.len() < TABLE_MIN {
        return Rc::new(move |i: &str| select(i, &texts));
    }
    let (n, parts) = (texts.len(), Rc::new(parts));
    let (fresh, table) = (fresh.clone(), Rc::new(OnceCell::new()));
    Rc::new(move |i: &str| {
        if let Some(t) = i.parse::<usize>().ok().and_then(|k| texts.get(k)) {
            return t.clone();
        }
        let m = table.get_or_init(|| fresh.table(Ty::Double, parts.clone()));
        read_pair(&fresh, m, 0, n, i)
    })
}

impl Lowerer {
    /// `reduce` of complex rows too long to unroll: one thread per row folds it with
    /// `seqfor`, whose private cells hold doubles, so the accumulator is two cells. A step
    /// writes one part, so step 2j (re) and 2j+1 (im) of element j write the pair of cells
    /// `2·(j mod 2)` while reading accumulator j−1 from the other pair (double buffering).
    /// Buffer `r` gets four slots per row; returns the array reading the result.
    pub(super) fn fold_rows_complex(
        &mut self,
        r: &str,
        f: &Val,
        a: &Arr,
        k: usize,
        m: usize,
    ) -> Arr {
        let fresh = self.fresh.clone();
        let (row, s, j, read, z) = (
            fresh.name("row"),
            fresh.name("s"),
            fresh.name("j"),
            fresh.name("read"),
            fresh.name("z"),
        );
        let x = row_element(&fresh, a, &row, &j);
        // (j + 1) mod 2 = (j − 1) mod 2 from j = 1 on, and stays a cell index at j = 0
        let prev = format!("({read} (2 * (({j} + 1) % 2)), {read} (2 * (({j} + 1) % 2) + 1))");
        let next = apply_scalar(&fresh, f, &[(Ty::Complex, x), (Ty::Complex, prev)]);
        let first = row_element(&fresh, a, &row, "0");
        let nb = k.div_ceil(256);
        self.stmt(format!(
            "-- reduce: thread-level fold per row of complex numbers (two cells per \
             accumulator, double-buffered), rows={k} len={m}\n    \
             {r} <- forceM<grid> (concat<block> 1024 (generate {nb} (fn b => concat<thread> 4 \
             (generate 256 (fn t => let {row} = mini (b * 256 + t) {} in return<thread> \
             (seqfor 4 {} (fn {read} => fn {s} => let {j} = {s} / 2 in \
             let {z} = (if {j} == 0 then {first} else {next}) in \
             (2 * ({j} % 2) + {s} % 2, if {s} % 2 == 0 then fst {z} else snd {z}))))))))",
            k - 1,
            2 * m
        ));
        let (r, c) = (r.to_string(), 2 * ((m - 1) % 2));
        Arr::new(
            Ty::Complex,
            a.shape[..a.shape.len() - 1].to_vec(),
            move |i| {
                share(&fresh, i, |i| {
                    format!(
                        "((index {r} ({i} * 4 + {c})), (index {r} ({i} * 4 + {})))",
                        c + 1
                    )
                })
            },
        )
    }

    /// `scan` of complex rows too long to unroll: one thread per row scans it with `seqfor`
    /// into 2m private cells, the real parts of the row at `0..m` and the imaginary parts at
    /// `m..2m`; step 2j writes the real part of element j, step 2j+1 its imaginary part.
    /// Buffer `r` holds the rows one after another in that layout; returns the array reading it.
    pub(super) fn scan_rows_complex(
        &mut self,
        r: &str,
        f: &Val,
        a: &Arr,
        k: usize,
        m: usize,
    ) -> Arr {
        let fresh = self.fresh.clone();
        let (row, s, j, read, z, p) = (
            fresh.name("row"),
            fresh.name("s"),
            fresh.name("j"),
            fresh.name("read"),
            fresh.name("z"),
            fresh.name("p"),
        );
        let x = row_element(&fresh, a, &row, &j);
        // element j − 1, at a cell index that stays in range at j = 0 (where it is unused)
        let prev = format!("(let {p} = maxi ({j} - 1) 0 in ({read} {p}, {read} ({p} + {m})))");
        let next = apply_scalar(&fresh, f, &[(Ty::Complex, x), (Ty::Complex, prev)]);
        let first = row_element(&fresh, a, &row, "0");
        let nb = k.div_ceil(256);
        self.stmt(format!(
            "-- scan: thread-level per row of complex numbers (real parts, then imaginary \
             parts), rows={k} len={m}\n    \
             {r} <- forceM<grid> (concat<block> {} (generate {nb} (fn b => concat<thread> {} \
             (generate 256 (fn t => let {row} = mini (b * 256 + t) {} in return<thread> \
             (seqfor {} {} (fn {read} => fn {s} => let {j} = {s} / 2 in \
             let {z} = (if {j} == 0 then {first} else {next}) in \
             ({j} + {s} % 2 * {m}, if {s} % 2 == 0 then fst {z} else snd {z}))))))))",
            256 * 2 * m,
            2 * m,
            k - 1,
            2 * m,
            2 * m
        ));
        let r = r.to_string();
        Arr::new(Ty::Complex, a.shape.clone(), move |i| {
            share(&fresh, i, |i| {
                let q = fresh.name("q");
                format!(
                    "(let {q} = {i} + {i} / {m} * {m} in ((index {r} {q}), (index {r} ({q} + {m}))))"
                )
            })
        })
    }
}
