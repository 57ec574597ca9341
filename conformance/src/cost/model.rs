//! The calibrated model: time ≈ Σ c_k · x_k over the oracle's counts x_k, with per-device
//! constants c_k ≥ 0 fitted by least squares on *relative* error, judged by leave-one-program-
//! out prediction (docs/cost-model.md).
//!
//! Why this form: a kernel's time on a device is, to first order, a sum of what it does — a
//! fixed price per launch and per barrier, and prices per unit of work and per cell of memory
//! written or read — so the model is linear in the counts, and the constants are what differs
//! between devices. The constants must not be negative (no count makes a program faster), so
//! the fit is non-negative least squares; with a handful of counts it is solved exactly by
//! trying every subset of them (an unconstrained solve on each, the best one whose constants
//! are all non-negative). Times span several orders of magnitude, and the judgement is a ratio
//! (within 2x), so each row's residual is divided by its measured time: the fit minimises
//! Σ (predicted/measured − 1)².

use super::measure::Counts;
use nalgebra::{DMatrix, DVector};

/// How many counts the model uses.
pub const N: usize = 8;

/// The counts with the observed coalescing class added (`strided_reads`).
pub const NS: usize = N + 1;

/// The counts the model uses, by name, in the order of [`features`].
pub const FEATURES: [&str; N] = [
    "launches",
    "barriers",
    "global_writes",
    "local_writes",
    "global_reads",
    "local_reads",
    "work",
    "cost",
];

/// The counts of a row with `strided_reads`, the coalescing class the semantics does not have
/// (docs/cost-model.md §4): the model it would allow.
pub fn features_strided(c: &Counts) -> [f64; NS] {
    let f = features(c);
    std::array::from_fn(|k| if k < N { f[k] } else { c.strided_reads })
}

/// The counts of a row as the model's features.
pub fn features(c: &Counts) -> [f64; N] {
    [
        c.launches,
        c.barriers,
        c.global_writes,
        c.local_writes,
        c.global_reads,
        c.local_reads,
        c.work,
        c.cost,
    ]
}

/// Fitted constants: milliseconds per unit of each feature.
#[derive(Clone, Debug, PartialEq)]
pub struct Model<const K: usize = N> {
    pub constants: [f64; K],
}

impl<const K: usize> Model<K> {
    /// The predicted milliseconds for `x`.
    pub fn predict(&self, x: &[f64; K]) -> f64 {
        self.constants.iter().zip(x).map(|(c, x)| c * x).sum()
    }
}

/// Fits the model on rows `(features, measured ms)`; `None` without a row with a positive time.
pub fn fit<const K: usize>(rows: &[([f64; K], f64)]) -> Option<Model<K>> {
    let rows: Vec<&([f64; K], f64)> = rows.iter().filter(|(_, t)| *t > 0.0).collect();
    if rows.is_empty() {
        return None;
    }
    // columns scaled to a largest entry of 1, so that the solve's tolerance means the same for
    // launches (tens) and work (millions)
    let mut scale = [0.0f64; K];
    for (x, t) in &rows {
        for k in 0..K {
            scale[k] = scale[k].max(x[k] / t);
        }
    }
    let used: Vec<usize> = (0..K).filter(|&k| scale[k] > 0.0).collect();
    let b = DVector::from_element(rows.len(), 1.0);
    let mut best: Option<(f64, [f64; K])> = None;
    for mask in 1u32..(1 << used.len()) {
        let cols: Vec<usize> = (0..used.len())
            .filter(|i| mask & (1 << i) != 0)
            .map(|i| used[i])
            .collect();
        let a = DMatrix::from_fn(rows.len(), cols.len(), |i, j| {
            let k = cols[j];
            rows[i].0[k] / rows[i].1 / scale[k]
        });
        let Ok(c) = a.clone().svd(true, true).solve(&b, 1e-12) else {
            continue;
        };
        if c.iter().any(|v| *v < 0.0 || !v.is_finite()) {
            continue;
        }
        let residual = (&a * &c - &b).norm_squared();
        if best.as_ref().is_none_or(|(r, _)| residual < *r - 1e-12) {
            let mut constants = [0.0; K];
            for (j, &k) in cols.iter().enumerate() {
                constants[k] = c[j] / scale[k];
            }
            best = Some((residual, constants));
        }
    }
    best.map(|(_, constants)| Model { constants })
}

/// Leave-one-program-out predictions: each row predicted by the model fitted on the rows of
/// the other programs (`None` where no other program has rows).
pub fn leave_one_out<const K: usize>(
    programs: &[String],
    rows: &[([f64; K], f64)],
) -> Vec<Option<f64>> {
    let mut out = vec![None; rows.len()];
    let mut names: Vec<&String> = programs.iter().collect();
    names.sort();
    names.dedup();
    for name in names {
        let train: Vec<([f64; K], f64)> = rows
            .iter()
            .zip(programs)
            .filter(|(_, p)| *p != name)
            .map(|(r, _)| *r)
            .collect();
        if let Some(m) = fit(&train) {
            for (i, p) in programs.iter().enumerate() {
                if p == name {
                    out[i] = Some(m.predict(&rows[i].0));
                }
            }
        }
    }
    out
}

/// Spearman's rank correlation of `a` and `b` (ties get their mean rank); `None` for fewer
/// than two pairs or a constant side.
pub fn rank_correlation(a: &[f64], b: &[f64]) -> Option<f64> {
    if a.len() != b.len() || a.len() < 2 {
        return None;
    }
    let (ra, rb) = (ranks(a), ranks(b));
    let n = a.len() as f64;
    let (ma, mb) = (ra.iter().sum::<f64>() / n, rb.iter().sum::<f64>() / n);
    let cov: f64 = ra.iter().zip(&rb).map(|(x, y)| (x - ma) * (y - mb)).sum();
    let va: f64 = ra.iter().map(|x| (x - ma).powi(2)).sum();
    let vb: f64 = rb.iter().map(|y| (y - mb).powi(2)).sum();
    (va > 0.0 && vb > 0.0).then(|| cov / (va * vb).sqrt())
}

fn ranks(v: &[f64]) -> Vec<f64> {
    let mut idx: Vec<usize> = (0..v.len()).collect();
    idx.sort_by(|&i, &j| v[i].total_cmp(&v[j]));
    let mut r = vec![0.0; v.len()];
    let mut i = 0;
    while i < idx.len() {
        let mut j = i;
        while j + 1 < idx.len() && v[idx[j + 1]] == v[idx[i]] {
            j += 1;
        }
        let mean = (i + j) as f64 / 2.0 + 1.0;
        for &k in &idx[i..=j] {
            r[k] = mean;
        }
        i = j + 1;
    }
    r
}

/// Whether `predicted` is within a factor 2 of `measured`.
pub fn within_2x(predicted: f64, measured: f64) -> bool {
    predicted > 0.0 && measured > 0.0 && (predicted / measured).abs().log2().abs() <= 1.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(launches: f64, work: f64, t: f64) -> ([f64; N], f64) {
        ([launches, 0.0, 0.0, 0.0, 0.0, 0.0, work, 0.0], t)
    }

    #[test]
    fn the_fit_recovers_non_negative_constants() {
        // t = 0.05 ms per launch + 1e-5 ms per unit of work, exactly
        let rows: Vec<_> = [(1.0, 1e3), (2.0, 1e5), (3.0, 1e4), (1.0, 1e6)]
            .iter()
            .map(|&(l, w)| row(l, w, 0.05 * l + 1e-5 * w))
            .collect();
        let m = fit(&rows).unwrap();
        assert!((m.constants[0] - 0.05).abs() < 1e-9, "{m:?}");
        assert!((m.constants[6] - 1e-5).abs() < 1e-12, "{m:?}");
        assert!(m.constants.iter().all(|c| *c >= 0.0));
        // a count that only makes rows faster gets no negative price
        let rows = vec![row(1.0, 10.0, 2.0), row(2.0, 20.0, 1.0), row(3.0, 5.0, 1.5)];
        assert!(fit(&rows).unwrap().constants.iter().all(|c| *c >= 0.0));
        assert!(fit::<N>(&[]).is_none());
    }

    #[test]
    fn leave_one_out_predicts_from_the_other_programs() {
        let names: Vec<String> = ["a", "a", "b", "b"].iter().map(|s| s.to_string()).collect();
        let rows = vec![
            row(1.0, 0.0, 1.0),
            row(2.0, 0.0, 2.0),
            row(3.0, 0.0, 3.0),
            row(4.0, 0.0, 4.0),
        ];
        let p = leave_one_out(&names, &rows);
        assert!(p
            .iter()
            .zip(&rows)
            .all(|(p, r)| (p.unwrap() - r.1).abs() < 1e-9));
        let only = leave_one_out(&names[..2], &rows[..2]);
        assert_eq!(only, [None, None]);
    }

    #[test]
    fn rank_correlation_and_ratios() {
        assert_eq!(
            rank_correlation(&[1.0, 2.0, 3.0], &[10.0, 20.0, 30.0]),
            Some(1.0)
        );
        assert_eq!(
            rank_correlation(&[1.0, 2.0, 3.0], &[3.0, 2.0, 1.0]),
            Some(-1.0)
        );
        assert_eq!(rank_correlation(&[1.0, 1.0], &[1.0, 2.0]), None);
        assert!(within_2x(1.9, 1.0) && within_2x(0.51, 1.0) && !within_2x(2.1, 1.0));
        assert!(!within_2x(0.0, 1.0));
    }
}
