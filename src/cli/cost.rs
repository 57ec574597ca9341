//! `tailfcl cost-check`: the command line of `conformance::cost` (docs/cost-model.md).

use super::Exit;
use clap::Args;
use compiler::runtime::Runtime;
use conformance::cost::{self, program, report};
use std::path::PathBuf;

#[derive(Args, Debug, Clone)]
pub struct CostCheckArgs {
    /// FCL files or folders (searched recursively; programs with NAME.expected-error are left out).
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Factors for the first `val NAME = INT` line of programs without a
    /// `-- cost-check sizes:` comment (e.g. 1/4,1/2,1,2,4).
    #[arg(long, default_value = "1/4,1/2,1,2,4")]
    pub sizes: String,
    /// The device: an index or a name fragment, as for `exec`.
    #[arg(long, default_value = "0")]
    pub device: String,
    /// Timed runs per program and size (after a warm-up); the median is kept.
    #[arg(long, default_value_t = 5)]
    pub runs: usize,
    /// Also measure this many generated FCL programs (as `fuzz --lang fcl` makes them), each at
    /// its one size.
    #[arg(long, default_value_t = 0)]
    pub generated: usize,
    /// The seed of the first generated program.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Write the CSV report here (one row per program and size).
    #[arg(long)]
    pub report: Option<PathBuf>,
    /// Write the SVG plot (predicted against measured, log-log) here.
    #[arg(long)]
    pub plot: Option<PathBuf>,
}

/// Runs the check, writes the report and the plot, prints the summary.
pub fn cost_check(a: &CostCheckArgs) -> Result<Exit, Exit> {
    let factors = program::parse_factors(&a.sizes).map_err(|e| {
        eprintln!("error: {e}");
        Exit::Static
    })?;
    let mut rt = Runtime::new(super::device::device_index(&a.device)?)
        .map_err(|e| super::device::runtime_exit(&e))?;
    rt.set_profiling(true)
        .map_err(|e| super::device::runtime_exit(&e))?;
    let opts = cost::Options {
        paths: a.paths.clone(),
        factors,
        runs: a.runs.max(1),
        generated: a.generated,
        seed: a.seed,
    };
    let check = cost::run(&opts, &rt, &mut std::io::stderr()).map_err(|e| {
        eprintln!("error: {e}");
        Exit::Static
    })?;
    let fail = |e: String| {
        eprintln!("error: {e}");
        Exit::Internal
    };
    if let Some(p) = &a.report {
        report::write_csv(&check, p).map_err(fail)?;
    }
    if let Some(p) = &a.plot {
        report::write_svg(&check, p).map_err(fail)?;
    }
    print!("{}", report::summary(&check));
    Ok(Exit::Ok)
}
