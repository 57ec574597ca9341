//! `tailfcl cost-check`: does FCL's cost model predict run time? For each FCL program at
//! several sizes, the oracle's cost, work and the counts it can attribute (launches, barriers,
//! global and local writes, reads of materialised cells) on the machine that matches the
//! compiled launch, next to the measured kernel time of the compiled program; a linear model
//! of the counts calibrated per device ([`model`]) and judged by leave-one-program-out
//! prediction; a CSV report and an SVG plot (docs/cost-model.md).

pub mod measure;
pub mod model;
pub mod plot;
pub mod program;
pub mod report;

use crate::gen::fcl_gen::{generate_fcl, FclConfig};
use crate::gen::fcl_print::print_program;
use crate::gen::rng::Rng;
use compiler::runtime::Runtime;
use measure::Counts;
use std::io::Write;
use std::path::PathBuf;

/// What to measure.
#[derive(Clone, Debug)]
pub struct Options {
    /// Files or directories (searched for `.fcl`).
    pub paths: Vec<PathBuf>,
    /// Factors for the first size line of programs without a `cost-check sizes` directive.
    pub factors: Vec<f64>,
    /// Timed runs per (program, size), after a warm-up; the median is kept.
    pub runs: usize,
    /// Generated programs to add (`conformance::gen`, each at its one size).
    pub generated: usize,
    /// The seed of the first generated program (then seed + 1, …).
    pub seed: u64,
}

/// One (program, size).
#[derive(Clone, Debug)]
pub struct Row {
    pub program: String,
    pub size: String,
    /// The oracle's machine, `BxT`.
    pub machine: String,
    pub counts: Counts,
    /// Median kernel milliseconds on the device.
    pub measured_ms: f64,
    /// The leave-one-program-out prediction (none where no other program has rows).
    pub predicted_ms: Option<f64>,
    /// The same with the observed coalescing class (`strided_reads`) among the counts.
    pub predicted_strided_ms: Option<f64>,
}

/// The result of a check.
#[derive(Debug)]
pub struct CostCheck {
    pub device: String,
    pub rows: Vec<Row>,
    /// (program or program at a size, why it was left out).
    pub skipped: Vec<(String, String)>,
    /// The model fitted on every row: the device's constants.
    pub model: Option<model::Model>,
}

impl CostCheck {
    /// Rank correlation of the held-out predictions (`strided`: of the model with the
    /// coalescing class) with the measured times.
    pub fn rank_predicted(&self, strided: bool) -> Option<f64> {
        let (p, m): (Vec<f64>, Vec<f64>) = self
            .rows
            .iter()
            .filter_map(|r| Some((r.prediction(strided)?, r.measured_ms)))
            .unzip();
        model::rank_correlation(&p, &m)
    }

    /// Rank correlation of a raw count with the measured times.
    pub fn rank_raw(&self, count: impl Fn(&Counts) -> f64) -> Option<f64> {
        let (c, m): (Vec<f64>, Vec<f64>) = self
            .rows
            .iter()
            .map(|r| (count(&r.counts), r.measured_ms))
            .unzip();
        model::rank_correlation(&c, &m)
    }

    /// Held-out predictions within 2x of the measured time, and how many there are.
    pub fn within_2x(&self, strided: bool) -> (usize, usize) {
        let held: Vec<(f64, f64)> = self
            .rows
            .iter()
            .filter_map(|r| Some((r.prediction(strided)?, r.measured_ms)))
            .collect();
        let k = held
            .iter()
            .filter(|(p, m)| model::within_2x(*p, *m))
            .count();
        (k, held.len())
    }
}

impl Row {
    /// The held-out prediction of the model (`strided`: with the coalescing class).
    pub fn prediction(&self, strided: bool) -> Option<f64> {
        if strided {
            self.predicted_strided_ms
        } else {
            self.predicted_ms
        }
    }
}

/// Runs the check on `rt`, logging progress to `log`.
pub fn run(opts: &Options, rt: &Runtime, log: &mut dyn Write) -> Result<CostCheck, String> {
    let files = program::collect(&opts.paths)?;
    let home = std::env::current_dir().map_err(|e| e.to_string())?;
    let mut rows = Vec::new();
    let mut skipped = Vec::new();
    for file in files {
        let file = home.join(file);
        let name = program::name(&file);
        let src = match std::fs::read_to_string(&file) {
            Ok(s) => s,
            Err(e) => {
                skipped.push((name, e.to_string()));
                continue;
            }
        };
        // readIntCSV reads relative to the working directory: the program's own
        if let Some(dir) = file.parent() {
            std::env::set_current_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        let fname = file.file_name().unwrap_or_default().to_string_lossy();
        let checked = check_program(rt, opts, &name, &fname, &src, log);
        std::env::set_current_dir(&home).map_err(|e| e.to_string())?;
        rows.extend(checked.0);
        skipped.extend(checked.1);
    }
    for k in 0..opts.generated as u64 {
        let seed = opts.seed.wrapping_add(k);
        let src = print_program(&generate_fcl(&mut Rng::new(seed), &FclConfig::default()));
        let name = format!("generated/{seed}");
        let (r, s) = check_program(rt, opts, &name, &format!("{name}.fcl"), &src, log);
        rows.extend(r);
        skipped.extend(s);
    }
    let data: Vec<([f64; model::N], f64)> = rows
        .iter()
        .map(|r| (model::features(&r.counts), r.measured_ms))
        .collect();
    let names: Vec<String> = rows.iter().map(|r| r.program.clone()).collect();
    for (r, p) in rows.iter_mut().zip(model::leave_one_out(&names, &data)) {
        r.predicted_ms = p;
    }
    let strided: Vec<([f64; model::NS], f64)> = rows
        .iter()
        .map(|r| (model::features_strided(&r.counts), r.measured_ms))
        .collect();
    for (r, p) in rows.iter_mut().zip(model::leave_one_out(&names, &strided)) {
        r.predicted_strided_ms = p;
    }
    Ok(CostCheck {
        device: format!("{} ({})", rt.device.name, rt.device.platform),
        rows,
        skipped,
        model: model::fit(&data),
    })
}

/// One program at each of its sizes: its rows, and the sizes left out with why.
fn check_program(
    rt: &Runtime,
    opts: &Options,
    name: &str,
    file: &str,
    src: &str,
    log: &mut dyn Write,
) -> (Vec<Row>, Vec<(String, String)>) {
    let (mut rows, mut skipped) = (Vec::new(), Vec::new());
    let sizes = match program::sizes(src, &opts.factors) {
        Ok(s) => s,
        Err(e) => return (rows, vec![(name.to_string(), format!("sizes: {e}"))]),
    };
    for s in sizes {
        match measure_one(rt, file, &s.src, opts.runs) {
            Ok((counts, machine, ms)) => {
                let _ = writeln!(
                    log,
                    "{name} {}: {ms:.4} ms, cost {} work {} on {machine}",
                    s.label, counts.cost, counts.work
                );
                rows.push(Row {
                    program: name.to_string(),
                    size: s.label,
                    machine,
                    counts,
                    measured_ms: ms,
                    predicted_ms: None,
                    predicted_strided_ms: None,
                });
            }
            Err(e) => {
                // the reason's first line, shortened: a disagreement quotes whole outputs
                let short: String = e.lines().next().unwrap_or("").chars().take(160).collect();
                let _ = writeln!(log, "{name} {}: skipped: {short}", s.label);
                skipped.push((format!("{name} {}", s.label), short));
            }
        }
    }
    (rows, skipped)
}

/// One (program, size): the device first (its launch gives the oracle's machine), then the
/// oracle; both must print the same.
fn measure_one(
    rt: &Runtime,
    name: &str,
    src: &str,
    runs: usize,
) -> Result<(Counts, String, f64), String> {
    let t = measure::device(rt, name, src, runs)?;
    let machine = measure::machine_for(&t);
    let (counts, stdout) = measure::oracle(name, src, machine)?;
    if stdout != t.stdout {
        return Err(format!(
            "the oracle and the device print differently ({:?} against {:?})",
            stdout, t.stdout
        ));
    }
    if t.kernel_ms <= 0.0 {
        return Err("no kernel time was measured".into());
    }
    Ok((
        counts,
        format!("{}x{}", machine.blocks, machine.threads),
        t.kernel_ms,
    ))
}
