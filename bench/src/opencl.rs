//! The oracle-free path for one TAIL program: `compiler::tail::lower_tail` → FCL
//! (`semantics::fcl::lower::load_program`) → `compiler::compile_fcl_for_device` at -O2 (as `tailfcl exec` compiles) → OpenCL C, built
//! once, then run `runs` times with `compiler::exec::execute`. Build and execution are timed
//! apart; a refusal anywhere on the way is an [`Outcome::Unsupported`] row, never a panic.

use compiler::exec::{execute, ExecError};
use compiler::kir::emit::emit_module;
use compiler::runtime::Runtime;
use compiler::tail::{device_prober, lower_tail_probing, LowerTailError};
use compiler::{compile_fcl_for_device, OptLevel, DEFAULT_BLOCK_SIZE};

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Instant;

/// Timings and result of a program that ran.
#[derive(Clone, Debug)]
pub struct Measured {
    /// TAIL → FCL → kernels (our compilers), milliseconds.
    pub compile_ms: f64,
    /// The OpenCL C build of the generated source (the first, uncached one), milliseconds.
    pub build_ms: f64,
    /// Median over the runs of the summed device time of all kernel launches (profiling
    /// events), milliseconds.
    pub kernel_ms: f64,
    /// Median over the runs of `execute`'s wall-clock time (allocation, launches, read-back,
    /// and the OpenCL driver's cached rebuild of the program), milliseconds.
    pub wall_ms: f64,
    /// Kernel launches per run.
    pub launches: usize,
    /// Device milliseconds per kernel (launches of one kernel summed), from the last run.
    pub per_kernel: Vec<(String, f64)>,
    /// The program's result (its last printed line, one number).
    pub value: f64,
}

/// What happened to a program on the OpenCL path.
#[derive(Clone, Debug)]
pub enum Outcome {
    /// It ran.
    Ran(Measured),
    /// The lowering, the compiler or the device refused it, with the reason.
    Unsupported(String),
    /// Something that should have worked failed (a bug to report), with the reason.
    Failed(String),
}

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1e3
}

/// The median of `xs` (the mean of the middle two for an even count); 0 for none.
pub fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    match xs.len() {
        0 => 0.0,
        n if n % 2 == 1 => xs[n / 2],
        n => (xs[n / 2 - 1] + xs[n / 2]) / 2.0,
    }
}

/// The one number in the last line an FCL program printed (`[x]`).
pub fn parse_result(stdout: &str) -> Option<f64> {
    let line = stdout.lines().rev().find(|l| !l.trim().is_empty())?.trim();
    let inner = line.strip_prefix('[')?.strip_suffix(']')?;
    if inner.contains(',') {
        return None;
    }
    inner.trim().parse().ok()
}

/// Runs TAIL program `src` on `rt` `runs` times (after one warm-up run) and measures it.
pub fn run(src: &str, rt: &Runtime, runs: usize) -> Outcome {
    match catch_unwind(AssertUnwindSafe(|| run_inner(src, rt, runs))) {
        Ok(outcome) => outcome,
        Err(panic) => {
            let why = panic
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| panic.downcast_ref::<&str>().copied())
                .unwrap_or("(no message)");
            Outcome::Failed(format!("panicked: {why}"))
        }
    }
}

fn run_inner(src: &str, rt: &Runtime, runs: usize) -> Outcome {
    let t = Instant::now();
    let lowered = match lower_tail_probing(src, &mut device_prober(rt, DEFAULT_BLOCK_SIZE)) {
        Ok(l) => l,
        Err(LowerTailError::Unsupported(why)) => return Outcome::Unsupported(why),
        Err(e) => return Outcome::Failed(format!("lowering: {e}")),
    };
    let program = match lowered.fcl.load() {
        Ok(p) => p,
        Err((_, d)) => return Outcome::Failed(format!("lowered FCL does not load: {d:?}")),
    };
    let module =
        match compile_fcl_for_device(&program.main, OptLevel::O2, DEFAULT_BLOCK_SIZE, &rt.device) {
            Ok(m) => m,
            Err(e) => return Outcome::Unsupported(format!("FCL compiler: {e}")),
        };
    let compile_ms = ms(t);
    let t = Instant::now();
    if let Err(e) = rt.build(&emit_module(&module)) {
        return Outcome::Failed(format!("OpenCL build: {e}"));
    }
    let build_ms = ms(t);
    let mut value = None;
    let (mut kernel, mut wall, mut launches) = (Vec::new(), Vec::new(), 0);
    let mut per_kernel: Vec<(String, f64)> = Vec::new();
    for run in 0..=runs.max(1) {
        let t = Instant::now();
        let report = match execute(&module, rt) {
            Ok(r) => r,
            Err(ExecError::Unsupported(why)) => return Outcome::Unsupported(why),
            Err(e) => return Outcome::Failed(format!("execute: {e}")),
        };
        let elapsed = ms(t);
        let Some(v) = parse_result(&report.stdout) else {
            return Outcome::Failed(format!("unexpected output {:?}", report.stdout));
        };
        if value.is_some_and(|prev: f64| prev.to_bits() != v.to_bits()) {
            return Outcome::Failed(format!("runs disagree: {value:?} vs {v}"));
        }
        value = Some(v);
        // Run 0 warms the driver's program cache and the allocator; it is not counted.
        if run > 0 {
            wall.push(elapsed);
            kernel.push(
                report
                    .launches
                    .iter()
                    .map(|(_, ns)| *ns as f64)
                    .sum::<f64>()
                    / 1e6,
            );
            launches = report.launches.len();
            per_kernel.clear();
            for (name, ns) in &report.launches {
                let ms = *ns as f64 / 1e6;
                match per_kernel.iter_mut().find(|(n, _)| n == name) {
                    Some((_, total)) => *total += ms,
                    None => per_kernel.push((name.clone(), ms)),
                }
            }
        }
    }
    Outcome::Ran(Measured {
        compile_ms,
        build_ms,
        kernel_ms: median(kernel),
        wall_ms: median(wall),
        launches,
        per_kernel,
        value: value.unwrap_or(f64::NAN),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_result_reads_the_last_single_number() {
        assert_eq!(parse_result("[1,2]\n[3.5]\n"), Some(3.5));
        assert_eq!(parse_result("[-76.29715]\n"), Some(-76.29715));
        assert_eq!(parse_result("[42]"), Some(42.0));
        assert_eq!(parse_result("[1,2]\n"), None);
        assert_eq!(parse_result(""), None);
    }

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(median(vec![3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(vec![4.0, 1.0, 2.0, 3.0]), 2.5);
        assert_eq!(median(Vec::new()), 0.0);
    }
}
