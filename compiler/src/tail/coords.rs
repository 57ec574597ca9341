//! Row-major index arithmetic on FCL trees: the flat index of coordinates and the
//! coordinates of a flat index, strides, and the choice of one of several expressions by an
//! index (an `if` chain). Pure functions of trees and shapes.

use super::tree::{fcl, int, literal_index, Fcl};

/// `if i == 0 then t0 else if i == 1 then t1 … else t(n-1)`; `tk` itself for a literal `k`.
pub(super) fn select(i: &Fcl, texts: &[Fcl]) -> Fcl {
    let Some(last) = texts.last() else {
        return int(0);
    };
    if let Some(t) = literal_index(i).and_then(|k| texts.get(k)) {
        return t.clone();
    }
    if texts.len() == 1 {
        return last.clone();
    }
    let mut out = last.clone();
    for (k, t) in texts.iter().enumerate().rev().skip(1) {
        out = fcl!("(if {i} == {k} then {t} else {out})");
    }
    out
}

/// The row-major flat index of coordinates `cs` in `shape`.
pub(super) fn flatten(shape: &[usize], cs: &[Fcl]) -> Fcl {
    let st = strides(shape);
    let terms: Vec<Fcl> = cs
        .iter()
        .zip(&st)
        .zip(shape)
        .filter(|((_, _), &d)| d != 1)
        .map(|((c, &s), _)| if s == 1 { c.clone() } else { fcl!("{c} * {s}") })
        .collect();
    let mut terms = terms.into_iter();
    match terms.next() {
        None => int(0),
        Some(first) => terms.fold(first, |acc, t| fcl!("{acc} + {t}")),
    }
}

/// The coordinates in `shape` of flat index `i` (atomic): `i / stride % extent`, without a
/// `/ 1`, or the `%` of the outermost axis.
pub(super) fn unflatten(shape: &[usize], i: &Fcl) -> Vec<Fcl> {
    let st = strides(shape);
    let total: usize = shape.iter().product();
    (0..shape.len())
        .map(|k| {
            if shape[k] == 1 {
                return int(0);
            }
            let mut t = i.clone();
            if st[k] != 1 {
                t = fcl!("{t} / {}", st[k]);
            }
            if st[k] * shape[k] != total {
                t = fcl!("{t} % {}", shape[k]);
            }
            t
        })
        .collect()
}

/// Strides of a row-major shape.
pub(super) fn strides(shape: &[usize]) -> Vec<usize> {
    let mut s = vec![1; shape.len()];
    for k in (0..shape.len().saturating_sub(1)).rev() {
        s[k] = s[k + 1] * shape[k + 1];
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::tail::tree::parsed as p;

    #[test]
    fn coordinates_of_flat_indices_and_back() {
        let shape = [2, 3, 4];
        let cs = unflatten(&shape, &p("i"));
        assert_eq!(cs, vec![p("(i / 12)"), p("(i / 4 % 3)"), p("(i % 4)")]);
        let names: Vec<Fcl> = ["a", "b", "c"].iter().map(|s| p(s)).collect();
        assert_eq!(flatten(&shape, &names), p("(a * 12 + b * 4 + c)"));
        // an axis of extent 1 has coordinate 0 and adds nothing
        assert_eq!(unflatten(&[3, 1], &p("i")), vec![p("i"), p("0")]);
        assert_eq!(flatten(&[3, 1], &names[..2]), p("a"));
    }

    #[test]
    fn select_chains_ifs() {
        let t = vec![p("1"), p("2"), p("3")];
        assert_eq!(
            select(&p("i"), &t),
            p("(if i == 0 then 1 else (if i == 1 then 2 else 3))")
        );
        assert_eq!(strides(&[2, 3, 4]), vec![12, 4, 1]);
    }
}
