//! The check's outputs: the CSV (one row per program and size), the summary lines, and where
//! the model misses, what the semantics cannot see.

use super::model::{self, FEATURES};
use super::CostCheck;
use std::fmt::Write as _;
use std::path::Path;

/// The CSV's columns.
pub const COLUMNS: [&str; 18] = [
    "program",
    "size",
    "machine",
    "steps",
    "cost",
    "work",
    "launches",
    "barriers",
    "global_writes",
    "local_writes",
    "global_reads",
    "local_reads",
    "strided_reads",
    "measured_ms",
    "predicted_ms",
    "ratio",
    "within_2x",
    "predicted_strided_ms",
];

/// Writes the CSV report.
pub fn write_csv(c: &CostCheck, path: &Path) -> Result<(), String> {
    let err = |e: csv::Error| format!("{}: {e}", path.display());
    let mut w = csv::Writer::from_path(path).map_err(err)?;
    w.write_record(COLUMNS).map_err(err)?;
    for r in &c.rows {
        let k = &r.counts;
        let (pred, ratio, within) = match r.predicted_ms {
            Some(p) => (
                format!("{p:.6}"),
                format!("{:.3}", p / r.measured_ms),
                model::within_2x(p, r.measured_ms).to_string(),
            ),
            None => (String::new(), String::new(), String::new()),
        };
        let mut rec = vec![r.program.clone(), r.size.clone(), r.machine.clone()];
        rec.extend(
            [
                k.steps,
                k.cost,
                k.work,
                k.launches,
                k.barriers,
                k.global_writes,
                k.local_writes,
                k.global_reads,
                k.local_reads,
                k.strided_reads,
            ]
            .iter()
            .map(|v| format!("{v}")),
        );
        let strided = r
            .predicted_strided_ms
            .map_or(String::new(), |p| format!("{p:.6}"));
        rec.extend([
            format!("{:.6}", r.measured_ms),
            pred,
            ratio,
            within,
            strided,
        ]);
        w.write_record(&rec).map_err(err)?;
    }
    w.flush().map_err(|e| format!("{}: {e}", path.display()))
}

/// Writes the SVG plot.
pub fn write_svg(c: &CostCheck, path: &Path) -> Result<(), String> {
    let marks: Vec<super::plot::Mark> = c
        .rows
        .iter()
        .filter_map(|r| {
            Some(super::plot::Mark {
                program: &r.program,
                measured: r.measured_ms,
                predicted: r.predicted_ms?,
            })
        })
        .collect();
    let text = super::plot::svg(&format!("FCL cost model on {}", c.device), &marks)?;
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

fn fmt_r(r: Option<f64>) -> String {
    r.map_or("n/a".into(), |r| format!("{r:.3}"))
}

/// What the semantics cannot see, and the smallest annotation that would let it.
pub const BLIND_SPOTS: &str = "\
the semantics counts reads and writes of materialised cells, not how the threads of a \
work-group spread them over memory: a naive transpose (each thread's read a row apart) and \
a tiled one cost the same steps, and so do strided and coalesced reads; nor does it tell \
global from local memory on reads, bank conflicts, caches, or how many threads the device \
really runs at once. The smallest annotation that would let it: a coalescing class per global \
access (the stride of the index in the thread id: 1, constant k, or unknown), counted per \
class like `global_reads`, with a price per class";

/// The summary: the model's constants, the rank correlations, the within-2x count, and the
/// programs the model misses with why.
pub fn summary(c: &CostCheck) -> String {
    let mut s = String::new();
    if let Some(m) = &c.model {
        let terms: Vec<String> = FEATURES
            .iter()
            .zip(m.constants)
            .filter(|(_, k)| *k > 0.0)
            .map(|(f, k)| format!("{k:.3e} x {f}"))
            .collect();
        let _ = writeln!(
            s,
            "model on {} (all rows): ms = {}",
            c.device,
            terms.join(" + ")
        );
    }
    let _ = writeln!(
        s,
        "raw rank correlation with measured time: cost {}, work {}",
        fmt_r(c.rank_raw(|k| k.cost)),
        fmt_r(c.rank_raw(|k| k.work))
    );
    let _ = writeln!(s, "rank correlation: {}", fmt_r(c.rank_predicted(false)));
    let (k, n) = c.within_2x(false);
    let _ = writeln!(s, "within 2x (leave one program out): {k}/{n}");
    let (ks, ns) = c.within_2x(true);
    let _ = writeln!(
        s,
        "with the coalescing class (strided_reads) among the counts: rank correlation {}, within 2x {ks}/{ns}",
        fmt_r(c.rank_predicted(true))
    );
    let mut programs: Vec<&str> = c.rows.iter().map(|r| r.program.as_str()).collect();
    programs.dedup();
    let mut missed = Vec::new();
    for p in programs {
        let ratios: Vec<f64> = c
            .rows
            .iter()
            .filter(|r| r.program == p)
            .filter_map(|r| Some(r.predicted_ms? / r.measured_ms))
            .collect();
        let out = ratios.iter().filter(|q| !(0.5..=2.0).contains(*q)).count();
        if out > 0 {
            let lo = ratios.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = ratios.iter().copied().fold(0.0, f64::max);
            // which way the device departs from the counts' prices
            let way = if hi < 1.0 {
                "the device is slower"
            } else if lo > 1.0 {
                "the device is faster"
            } else {
                "both ways"
            };
            missed.push(format!(
                "{p} ({out}/{} sizes outside 2x; predicted/measured {lo:.2}-{hi:.2}: {way})",
                ratios.len()
            ));
        }
    }
    if !missed.is_empty() {
        let _ = writeln!(s, "missed: {}", missed.join(", "));
        let _ = writeln!(s, "why: {BLIND_SPOTS}");
    }
    for (what, why) in &c.skipped {
        let _ = writeln!(s, "skipped: {what}: {why}");
    }
    s
}
