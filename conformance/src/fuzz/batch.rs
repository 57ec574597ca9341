//! The compiled side of many programs at once. OpenCL is what a campaign spends its time on
//! (PoCL runs clang and LLVM on every build, with a large fixed cost, and generates code for each
//! kernel at its first launch), so the modules of a batch of programs go into one OpenCL program
//! ([`super::dispatch`]: one build, most kernels behind one dispatching kernel), then each
//! module's host plan runs against the shared program. A batch whose build fails is split in
//! halves down to single modules, so a module that does not build is reported against its own
//! program, with the message its own build gives.
//!
//! Identical modules (an -O2 module the optimizer left as -O0 made it, or two programs that
//! compile alike) are built and run once; a worker also remembers the outputs of the modules it
//! ran, so a module seen in an earlier batch is not run again.

use super::compiled::CompiledOutcome;
use super::dispatch::{dispatch_source, plain_source, Dispatch};
use super::profile::Profile;
use super::tail::outputs_agree;
use compiler::exec::{check_local_memory, execute_built_keeping_output, ExecError, ExecReport};
use compiler::fault::Fault;
use compiler::kir::emit::emit_module;
use compiler::kir::Module;
use compiler::lower::LowerError;
use compiler::runtime::{BuiltProgram, Runtime, RuntimeError};
use compiler::tail::Lowered;
use compiler::{compile_fcl_with_fault, OptLevel, DEFAULT_BLOCK_SIZE};
use semantics::fcl::core::Expr;
use std::collections::HashMap;
use std::rc::Rc;
use std::time::Instant;

/// The optimization levels compared, in order.
pub const LEVELS: [(OptLevel, &str); 2] = [(OptLevel::O0, "-O0"), (OptLevel::O2, "-O2")];

/// The OpenCL build options of each level's modules (in [`LEVELS`] order) when a campaign gives
/// none: both levels are built without the C compiler's optimizations. PoCL generates code for
/// every kernel at its first launch, and with its optimizations on that costs several times as
/// much (an optimized -O2 build took 40% of a campaign's time); unoptimized, kernels with
/// barriers can also share dispatching kernels ([`super::dispatch`]).
pub const DEFAULT_LEVEL_OPTIONS: [&str; 2] = ["-cl-opt-disable", "-cl-opt-disable"];

/// With default options, one program in this many has its -O2 modules built with the C
/// compiler's optimizations on, so undefined behaviour in emitted C that only those
/// optimizations expose (PoCL's `abs(INT_MIN)`, for one) is still caught, at an eighth of the
/// cost of optimizing every -O2 build. They come in runs of [`OPTIMIZED_RUN`] consecutive
/// programs (0–47, 384–431, …), so an unsharded campaign's batch needs one build, not two.
pub const OPTIMIZED_EVERY: u64 = 8;

/// The length of a run of programs [`OPTIMIZED_EVERY`] picks: the default batch.
pub const OPTIMIZED_RUN: u64 = super::DEFAULT_BATCH as u64;

/// The OpenCL build options of a campaign's compiled side, per level (in [`LEVELS`] order).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildOptions {
    /// For most programs.
    pub levels: [String; 2],
    /// For a program whose job is [`CompiledJob::optimized`].
    pub optimized: [String; 2],
}

impl BuildOptions {
    /// A campaign's options string: empty gives [`DEFAULT_LEVEL_OPTIONS`] (with -O2 optimized
    /// for the programs [`OPTIMIZED_EVERY`] picks), `A|B` gives -O0 options `A` and -O2 options
    /// `B`, and anything else applies to every level (`-cl-opt-disable`: nothing optimized;
    /// `|`: everything optimized).
    pub fn parse(options: &str) -> BuildOptions {
        let fixed = |levels: [String; 2]| BuildOptions {
            optimized: levels.clone(),
            levels,
        };
        match options.split_once('|') {
            _ if options.is_empty() => BuildOptions {
                levels: DEFAULT_LEVEL_OPTIONS.map(String::from),
                optimized: [DEFAULT_LEVEL_OPTIONS[0].to_string(), String::new()],
            },
            Some((o0, o2)) => fixed([o0.trim().to_string(), o2.trim().to_string()]),
            None => fixed([options.to_string(), options.to_string()]),
        }
    }

    /// The options of `job`'s levels.
    fn of(&self, job: &CompiledJob) -> &[String; 2] {
        match job.optimized {
            true => &self.optimized,
            false => &self.levels,
        }
    }
}

/// Whether program `k` of a campaign is one of those [`OPTIMIZED_EVERY`] picks (by its index
/// alone, so a program shrinks as it ran whatever the batch, shard or worker).
pub fn optimized_program(k: u64) -> bool {
    (k / OPTIMIZED_RUN).is_multiple_of(OPTIMIZED_EVERY)
}

/// Whether a program built with these OpenCL options may hold kernels with barriers behind its
/// dispatching kernel: PoCL 3.1 generates wrong code for barriers in a dispatcher's branch once
/// its optimizations run (heap corruption seen on seed 8 of `fuzz_throughput`), not without them.
fn dispatches_barriers(options: &str) -> bool {
    options.split_whitespace().any(|o| o == "-cl-opt-disable")
}

/// One program's compiled side: per optimization level (in [`LEVELS`] order) its module, or the
/// outcome that ends the comparison at that level (the compiler declined or failed); and what
/// every level must print.
#[derive(Clone, Debug)]
pub struct CompiledJob {
    pub levels: Vec<(&'static str, Result<Module, CompiledOutcome>)>,
    pub expected: String,
    pub compare: Compare,
    /// Built with [`BuildOptions::optimized`]: true for a check of one program; a campaign's
    /// batches set it by [`optimized_program`].
    pub optimized: bool,
    /// The program's index in its campaign (0 outside one), for the [`super::journal`].
    pub index: u64,
}

/// How a compiled program's stdout is compared with the expected output.
#[derive(Clone, Debug)]
pub enum Compare {
    /// Byte for byte (an FCL program against the FCL oracle's stdout).
    Exact,
    /// A lowered TAIL program: its stdout read back as TAIL result lines
    /// ([`compiler::tail::format_result`]) against the TAIL oracle's, doubles within a relative
    /// 1e-12 ([`super::tail::outputs_agree`]).
    Tail(Box<Lowered>),
}

impl CompiledJob {
    /// Whether `got` (a compiled run's stdout) agrees; otherwise what to report as printed.
    fn judge(&self, got: &str) -> Result<(), String> {
        match &self.compare {
            Compare::Exact if got == self.expected => Ok(()),
            Compare::Exact => Err(got.to_string()),
            Compare::Tail(lowered) => match super::tail::read_back_tail(lowered, got) {
                Some(tail) if outputs_agree(&self.expected, &tail) => Ok(()),
                Some(tail) => Err(tail),
                None => Err(got.to_string()),
            },
        }
    }
}

/// Compiles `main` at each level of [`LEVELS`], stopping at the first level that cannot be
/// compiled (the comparison never gets past it).
pub fn compile_job(main: &Expr, expected: &str, fault: Option<Fault>) -> CompiledJob {
    compile_job_sized(main, expected, fault, DEFAULT_BLOCK_SIZE)
}

/// [`compile_job`] with work-groups of `block` work-items (a device's limit may be lower than
/// the default).
pub fn compile_job_sized(
    main: &Expr,
    expected: &str,
    fault: Option<Fault>,
    block: usize,
) -> CompiledJob {
    let mut levels = Vec::new();
    for (opt, name) in LEVELS {
        let level = match compile_fcl_with_fault(main, opt, block, fault) {
            Ok((m, _)) => Ok(m),
            Err(LowerError::Unsupported(why, _)) => Err(CompiledOutcome::Unsupported(why)),
            Err(e) => Err(CompiledOutcome::Differs {
                opt: name.into(),
                got: format!("compile error: {e}"),
            }),
        };
        let stop = level.is_err();
        levels.push((name, level));
        if stop {
            break;
        }
    }
    CompiledJob {
        levels,
        expected: expected.to_string(),
        compare: Compare::Exact,
        optimized: true,
        index: 0,
    }
}

/// What running one module gave: its stdout (or `error: …` when it failed to build or run, which
/// then differs from any expected stdout), or why the device cannot run it.
type RunResult = Result<String, String>;

/// A worker's memory of module runs, keyed by the OpenCL build options and the module's full
/// text (kernels and plan); the flag says whether the module was built alone (a result that
/// disagrees is only believed then).
pub struct RunCache {
    runs: HashMap<String, (RunResult, bool)>,
    options: BuildOptions,
}

impl Default for RunCache {
    /// An empty cache with [`DEFAULT_LEVEL_OPTIONS`].
    fn default() -> RunCache {
        RunCache::with_build_options("")
    }
}

impl RunCache {
    /// An empty cache whose builds use these OpenCL build options (see [`BuildOptions::parse`]).
    pub fn with_build_options(options: &str) -> RunCache {
        RunCache {
            runs: HashMap::new(),
            options: BuildOptions::parse(options),
        }
    }
}

/// The most module runs a [`RunCache`] keeps (it starts afresh when full).
const CACHE_LIMIT: usize = 4096;

/// How a distinct module of the batch gets its kernels.
enum Built {
    /// From the batch's shared program, as module number `.1` of its dispatch.
    Shared(Rc<(BuiltProgram, Dispatch)>, usize),
    /// From its own program.
    Own(BuiltProgram),
    /// Its own build failed.
    Failed(RuntimeError),
}

/// Compares every job's levels with its expected stdout, building the distinct modules of all
/// jobs as one OpenCL program. The outcomes are those [`super::compiled::compare_compiled_with`]
/// gives for each job alone: levels run in order up to the first that disagrees, and a module
/// that disagrees after a batched build is built and run again alone, and that run decides.
pub fn run_jobs(
    jobs: &[CompiledJob],
    rt: &Runtime,
    cache: &mut RunCache,
    profile: &mut Profile,
) -> Vec<CompiledOutcome> {
    if cache.runs.len() > CACHE_LIMIT {
        cache.runs.clear();
    }
    // per build options, the distinct modules not run before; a module the device cannot
    // hold is settled at once
    let mut units: Vec<(&str, Vec<(String, &Module)>)> = Vec::new();
    for job in jobs {
        profile.levels += job.levels.iter().filter(|l| l.1.is_ok()).count() as u64;
        for (level, (_, m)) in job.levels.iter().enumerate() {
            let Ok(m) = m else { continue };
            let options = &cache.options.of(job)[level];
            let key = module_key(options, m);
            let group = match units.iter().position(|u| u.0 == options) {
                Some(g) => g,
                None => {
                    units.push((options, Vec::new()));
                    units.len() - 1
                }
            };
            if cache.runs.contains_key(&key) || units[group].1.iter().any(|u| u.0 == key) {
                continue;
            }
            match check_local_memory(m, rt) {
                Ok(()) => units[group].1.push((key, m)),
                Err(e) => {
                    cache
                        .runs
                        .insert(key, (run_result((ExecReport::default(), Err(e))), true));
                }
            }
        }
    }
    let mut pending: HashMap<String, Built> = HashMap::new();
    for (options, units) in units.iter().filter(|u| !u.1.is_empty()) {
        profile.modules += units.len() as u64;
        profile.kernels += units.iter().map(|u| u.1.kernels.len() as u64).sum::<u64>();
        let t = Instant::now();
        let modules: Vec<&Module> = units.iter().map(|u| u.1).collect();
        let built = build_units(&modules, rt, options, profile);
        profile.build += t.elapsed();
        pending.extend(units.iter().map(|u| u.0.clone()).zip(built));
    }
    let t = Instant::now();
    let outcomes = jobs
        .iter()
        .map(|job| job_outcome(job, rt, cache, &mut pending, profile))
        .collect();
    profile.run += t.elapsed();
    outcomes
}

/// A job's outcome: its levels in order, each module run when first needed (so nothing runs
/// after a level that disagreed: a faulty module may corrupt the process). A disagreement seen
/// through a batched build is confirmed by building and running the module alone.
fn job_outcome(
    job: &CompiledJob,
    rt: &Runtime,
    cache: &mut RunCache,
    pending: &mut HashMap<String, Built>,
    profile: &mut Profile,
) -> CompiledOutcome {
    for (level, (name, module)) in job.levels.iter().enumerate() {
        let module = match module {
            Err(outcome) => return outcome.clone(),
            Ok(m) => m,
        };
        let options = &cache.options.of(job)[level];
        let key = module_key(options, module);
        super::journal::note(format_args!("run {}", job.index));
        let (result, alone) = match cache.runs.get(&key) {
            Some(r) => r.clone(),
            None => {
                let r = run_module(module, pending.remove(&key), rt, options);
                cache.runs.insert(key.clone(), r.clone());
                r
            }
        };
        let mut verdict = judge(job, name, &result);
        if matches!(verdict, Some(CompiledOutcome::Differs { .. })) && !alone {
            profile.confirmations += 1;
            let r = run_module(module, None, rt, options);
            verdict = judge(job, name, &r.0);
            cache.runs.insert(key, r);
        }
        if let Some(o) = verdict {
            return o;
        }
    }
    CompiledOutcome::Agree
}

/// Runs `module` through its build (`None`: built alone now); the flag says it was built alone.
fn run_module(
    module: &Module,
    built: Option<Built>,
    rt: &Runtime,
    options: &str,
) -> (RunResult, bool) {
    let failed = |e| (ExecReport::default(), Err(ExecError::Runtime(e)));
    let (report, alone) = match built {
        Some(Built::Shared(shared, i)) => (
            shared.1.execute_keeping_output(i, module, rt, &shared.0),
            false,
        ),
        Some(Built::Own(program)) => (execute_built_keeping_output(module, rt, &program), true),
        Some(Built::Failed(e)) => (failed(e), true),
        None => {
            let report = match rt.build_with_options(&emit_module(module), &quiet(options)) {
                Ok(program) => execute_built_keeping_output(module, rt, &program),
                Err(e) => failed(e),
            };
            (report, true)
        }
    };
    (run_result(report), alone)
}

/// `None` when a level's run agrees, else the outcome it ends the comparison with.
fn judge(job: &CompiledJob, name: &str, result: &RunResult) -> Option<CompiledOutcome> {
    match result {
        Ok(got) => job.judge(got).err().map(|got| CompiledOutcome::Differs {
            opt: name.into(),
            got,
        }),
        Err(why) => Some(CompiledOutcome::Unsupported(why.clone())),
    }
}

/// A campaign's build options with the C compiler's warnings off: generated expressions such as
/// `x == x` draw warnings that PoCL prints on stderr, across the progress bar, and no one reads.
fn quiet(options: &str) -> String {
    format!("{options} -w")
}

/// The key of a module built with these OpenCL options: the options and the module's whole
/// text, kernels and host plan.
fn module_key(options: &str, m: &Module) -> String {
    format!("{options}\n{m:?}")
}

/// The stdout, the error as [`super::compiled::compare_compiled_with`] reports it, or why the
/// device cannot run the module.
fn run_result((report, r): (ExecReport, Result<(), ExecError>)) -> RunResult {
    match r {
        Ok(()) => Ok(report.stdout),
        Err(ExecError::Unsupported(why)) => Err(why),
        // a launch beyond this device's limits is not the compiler's fault: skipped, with why
        Err(ExecError::Runtime(e @ RuntimeError::Limit(_))) => Err(e.to_string()),
        // what the program printed before it failed, then the error (a failing TAIL program
        // must print what the oracle printed before its failure)
        Err(e) => Ok(format!("{}error: {e}", report.stdout)),
    }
}

/// Builds the modules' kernels as one program ([`dispatch`]: most kernels behind one
/// dispatching kernel). When that fails, each half is built the same way, down to single
/// modules built as they are, so a module that does not build fails alone, with the log of its
/// own build.
fn build_units(
    modules: &[&Module],
    rt: &Runtime,
    options: &str,
    profile: &mut Profile,
) -> Vec<Built> {
    let mut built = Vec::with_capacity(modules.len());
    build_group(modules, rt, options, profile, &mut built);
    built
}

fn build_group(
    modules: &[&Module],
    rt: &Runtime,
    options: &str,
    profile: &mut Profile,
    built: &mut Vec<Built>,
) {
    match modules {
        [] => {}
        [alone] => {
            profile.builds += 1;
            profile.generated += alone.kernels.len() as u64;
            built.push(
                match rt.build_with_options(&emit_module(alone), &quiet(options)) {
                    Ok(p) => Built::Own(p),
                    Err(e) => Built::Failed(e),
                },
            );
        }
        _ => {
            // dispatchers on PoCL only; other devices get plain kernels (see `dispatch`)
            let d = match rt.device.is_pocl() {
                true => dispatch_source(modules, dispatches_barriers(options)),
                false => plain_source(modules),
            };
            profile.builds += 1;
            if let Ok(program) = rt.build_with_options(&d.source, &quiet(options)) {
                profile.generated += d.kernel_count() as u64;
                let shared = Rc::new((program, d));
                built.extend((0..modules.len()).map(|i| Built::Shared(shared.clone(), i)));
                return;
            }
            profile.failed_batch_builds += 1;
            let half = modules.len() / 2;
            build_group(&modules[..half], rt, options, profile, built);
            build_group(&modules[half..], rt, options, profile, built);
        }
    }
}
