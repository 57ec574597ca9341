//! The compiled side of the differential check: the program compiled at -O0 and -O2 and run on
//! an OpenCL device must print what the oracle printed.

use super::batch::{compile_job_sized, run_jobs, RunCache};
use super::profile::Profile;
use compiler::fault::Fault;
use compiler::runtime::Runtime;
use semantics::fcl::core::Expr;

/// How the compiled program compared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CompiledOutcome {
    /// Both optimization levels printed the oracle's output.
    Agree,
    /// The compiler declined the program (a documented limitation, not a wrong answer).
    Unsupported(String),
    /// An optimization level printed something else, failed at run time, or produced OpenCL
    /// that does not build.
    Differs { opt: String, got: String },
}

/// Compiles `main` at -O0 and -O2, runs both on `rt` and compares with the oracle's `expected`
/// stdout.
pub fn compare_compiled(main: &Expr, expected: &str, rt: &Runtime) -> CompiledOutcome {
    compare_compiled_with(main, expected, rt, None)
}

/// [`compare_compiled`] with `fault` injected into the compiler (the oracle's `expected` is
/// unchanged). The program is a batch of one (see [`super::batch`]): -O0 and -O2 share one
/// OpenCL build, and -O2 is not run again when the optimizer left the module as it was.
pub fn compare_compiled_with(
    main: &Expr,
    expected: &str,
    rt: &Runtime,
    fault: Option<Fault>,
) -> CompiledOutcome {
    let block = compiler::DEFAULT_BLOCK_SIZE.min(rt.device.max_work_group_size.max(1));
    let job = compile_job_sized(main, expected, fault, block);
    let mut outcomes = run_jobs(
        &[job],
        rt,
        &mut RunCache::default(),
        &mut Profile::default(),
    );
    outcomes.pop().unwrap_or(CompiledOutcome::Differs {
        opt: "-O0".into(),
        got: "error: no outcome for the program".into(),
    })
}
