//! Argument parsing and dispatch. Each language's commands live in their own module.

mod conform;
mod contain;
mod cost;
mod device;
mod external;
mod fcl;
mod gen;
mod progress;
mod tail;
mod teach;
mod tui;

use clap::{Args, Parser, Subcommand};
use std::path::{Path, PathBuf};

/// Exit statuses of every command (docs/design.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    Ok = 0,
    /// Tests or fuzzing found failures.
    Failures = 1,
    /// Usage, parse or type error.
    Static = 2,
    /// The program reduced to `err`.
    RuntimeError = 3,
    /// A step, size or time limit was hit.
    Limit = 4,
    /// No OpenCL device where one is needed.
    NoDevice = 5,
    /// The compiler does not support the program: it is well-typed, but outside what `exec`
    /// and `compile` handle (the message starts with `unsupported:`).
    Unsupported = 6,
    /// A bug in tailfcl itself (a panic was caught).
    Internal = 70,
}

#[derive(Parser, Debug)]
#[command(
    name = "tailfcl",
    version,
    about = "Reference semantics of TAIL and FCL, and a compiler to OpenCL"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Evaluate with the oracle: print the program's output, then (TAIL) the result.
    Run(RunArgs),
    /// Print every reduction step: number, rule, costs, location, redex and result.
    Step(StepArgs),
    /// Parse and type check; print the type (FCL: every top-level binding's type).
    Check(CheckArgs),
    /// Print the generated OpenCL C (TAIL: or the lowered FCL, with --emit fcl).
    Compile(CompileArgs),
    /// Compile and run on an OpenCL device; same output as `run`.
    Exec(ExecArgs),
    /// List OpenCL platforms and devices.
    Devices,
    /// Differential testing: generated programs, oracle against compiler.
    Fuzz(FuzzArgs),
    /// Run conformance tests (NAME.tail/.fcl + NAME.expected) on every engine.
    Conform(ConformArgs),
    /// Write a fuzz campaign's programs with their oracle outputs: a conformance suite.
    Gen(gen::GenArgs),
    /// The oracle's cost and work against measured kernel time per (program, size).
    CostCheck(cost::CostCheckArgs),
}

#[derive(Args, Debug, Clone)]
pub struct CompileArgs {
    #[command(flatten)]
    pub input: Input,
    /// Turn every optimization off.
    #[arg(short = 'O', default_value = "2", value_parser = ["0", "2"])]
    pub opt: String,
    /// TAIL: which stage to print, fcl or opencl.
    #[arg(long, default_value = "opencl")]
    pub emit: String,
    /// Block size (work-group size) when the program does not fix one.
    #[arg(long)]
    pub block_size: Option<usize>,
}

#[derive(Args, Debug, Clone)]
pub struct ExecArgs {
    #[command(flatten)]
    pub compile: CompileArgs,
    /// The device: its index as `tailfcl devices` lists them, or a case-insensitive fragment
    /// of its platform or name (`nvidia`, `pocl`, `oclgrind`; the first match).
    #[arg(long, default_value = "0")]
    pub device: String,
    /// Print kernel times and transfers to stderr.
    #[arg(long)]
    pub stats: bool,
    /// TAIL: run on three engines (the TAIL oracle, the FCL oracle on the lowered program,
    /// OpenCL), print one line per engine, exit 1 unless all agree.
    #[arg(long)]
    pub verify: bool,
    /// TAIL: leave out the run-time checks of int overflow, division by zero and rounding
    /// (the program wraps where `run` fails; docs/tail-compiler.md §6).
    #[arg(long)]
    pub unchecked: bool,
}

#[derive(Args, Debug, Clone)]
pub struct FuzzArgs {
    /// tail or fcl.
    #[arg(long, value_enum, default_value = "fcl")]
    pub lang: Lang,
    /// Programs to generate.
    #[arg(long, default_value_t = 300)]
    pub count: u64,
    /// Seed of the campaign; the same seed generates the same programs.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Worker threads.
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    /// Run only shard I of N (`--shard 2/8`).
    #[arg(long)]
    pub shard: Option<String>,
    /// Where failures are saved.
    #[arg(long, default_value = "fuzz-failures")]
    pub save: PathBuf,
    /// The device: an index or a name fragment, as for `exec`.
    #[arg(long, default_value = "0")]
    pub device: String,
    /// Inject one compiler fault into the compiled side, the oracle unchanged (testing the
    /// tester): store-off-by-one, missing-barrier, floored-mod, wrong-neutral,
    /// swapped-operands, assumed-block-size, dropped-bounds-guard, local-offset,
    /// loop-bound-plus-one, shared-buffer. With --mutation-score, score only this fault.
    /// `NAME@K` injects it into program K only; planted-crash and planted-hang (the tester's
    /// own tests) make a kernel crash the process or loop forever.
    #[arg(long)]
    pub inject: Option<String>,
    /// Inject each fault in turn and report how many programs it took to detect it.
    #[arg(long)]
    pub mutation_score: bool,
    /// Write one CSV row per program here.
    #[arg(long)]
    pub report: Option<PathBuf>,
    /// Programs whose compiled kernels share one OpenCL build (1: each program alone); the
    /// verdicts do not depend on it.
    #[arg(long, default_value_t = conformance::fuzz::DEFAULT_BATCH)]
    pub batch: usize,
    /// Build no -O2 module's OpenCL C with optimization (-cl-opt-disable; by default one
    /// program in 8 has its -O2 modules optimized): faster on PoCL, but bugs that only the C
    /// compiler's optimizations expose go unseen.
    #[arg(long, conflicts_with = "cl_optimize_o2")]
    pub cl_opt_disable: bool,
    /// Build every program's -O2 modules with the OpenCL C compiler's optimizations (by
    /// default one program in 8): slower on PoCL, which then gives each kernel with barriers
    /// a kernel of its own.
    #[arg(long)]
    pub cl_optimize_o2: bool,
    /// Run the campaign in this process. By default it runs in a child process, so that a
    /// crash or a hang of what is tested (an OpenCL compiler, a kernel, a driver) is reported
    /// as that program's failure and the campaign goes on.
    #[arg(long)]
    pub no_contain: bool,
    /// Seconds without progress after which the campaign's process counts as hung, is killed,
    /// and the program it was on fails.
    #[arg(long, default_value_t = 120)]
    pub watchdog: u64,
    /// (internal) Check only the programs listed in this file, appending to the report: the
    /// child process of a contained campaign.
    #[arg(long, hide = true)]
    pub programs: Option<PathBuf>,
    #[command(flatten)]
    pub external: external::ExternalArgs,
    /// Run no compiled side of tailfcl's own (with --external: the oracle against the external
    /// engines only).
    #[arg(long)]
    pub no_opencl: bool,
    /// FCL: generate only a dialect (`original-fcl`; see docs/external-engines.md).
    #[arg(long)]
    pub subset: Option<String>,
}

#[derive(Args, Debug, Clone)]
pub struct ConformArgs {
    /// Folders (searched recursively) or single test files.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Comma-separated engines: oracle, opencl.
    #[arg(long, default_value = "oracle,opencl")]
    pub engines: String,
    /// Write the CSV report here.
    #[arg(long)]
    pub report: Option<PathBuf>,
    /// The opencl engine's device: an index or a name fragment, as for `exec`.
    #[arg(long, default_value = "0")]
    pub device: String,
    /// Tests run at once (each its own processes; the report's order does not change).
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    #[command(flatten)]
    pub external: external::ExternalArgs,
}

/// Which language a command reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Lang {
    Tail,
    Fcl,
}

#[derive(Args, Debug, Clone)]
pub struct Input {
    /// Source files. FCL files are concatenated in order after the prelude.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// The language; by default it follows the file extension (.tail, .fcl).
    #[arg(long, value_enum)]
    pub lang: Option<Lang>,
    /// FCL: do not load the prelude before the files.
    #[arg(long)]
    pub no_prelude: bool,
}

#[derive(Args, Debug, Clone)]
pub struct RunArgs {
    #[command(flatten)]
    pub input: Input,
    /// Stop with exit status 4 after this many reduction steps.
    #[arg(long, default_value_t = 2_000_000_000)]
    pub max_steps: u64,
    /// FCL: the machine, B blocks of T threads.
    #[arg(long, default_value = "2x4")]
    pub machine: String,
    /// FCL: in-order, round-robin or random:SEED.
    #[arg(long, default_value = "in-order")]
    pub schedule: String,
    /// FCL: run K random schedules as well and report any difference in the result.
    #[arg(long)]
    pub check_schedules: Option<u32>,
    /// Print steps and costs to stderr.
    #[arg(long)]
    pub stats: bool,
    /// FCL: type-check the lowered core program before running, and the final value after
    /// (type soundness, thesis Figure 5.9); a failure is an internal error (exit 70).
    #[arg(long)]
    pub check_types: bool,
}

#[derive(Args, Debug, Clone)]
pub struct StepArgs {
    #[command(flatten)]
    pub run: RunArgs,
    /// text, json, csv or html (one self-contained page: the whole term with the redex marked,
    /// store or machine, navigation, cost plot; see README).
    #[arg(long, default_value = "text")]
    pub format: String,
    /// Write the trace to this file instead of standard output.
    #[arg(short = 'o', long)]
    pub output: Option<PathBuf>,
    /// Step through the run in the terminal: n/p next/previous, g/G first/last, r next use of
    /// the rule, q quit.
    #[arg(long, conflicts_with = "output")]
    pub interactive: bool,
    /// First step to print (1-based).
    #[arg(long, default_value_t = 1)]
    pub from: u64,
    /// Print at most this many steps.
    #[arg(long)]
    pub limit: Option<u64>,
}

#[derive(Args, Debug, Clone)]
pub struct CheckArgs {
    #[command(flatten)]
    pub input: Input,
}

impl Input {
    /// The language of the input: `--lang`, else the first file's extension.
    pub fn lang(&self) -> Result<Lang, String> {
        if let Some(l) = self.lang {
            return Ok(l);
        }
        let first = &self.files[0];
        match first.extension().and_then(|e| e.to_str()) {
            Some("tail") => Ok(Lang::Tail),
            Some("fcl") => Ok(Lang::Fcl),
            _ => Err(format!(
                "cannot tell the language of {}: name it .tail or .fcl, or pass --lang",
                first.display()
            )),
        }
    }
}

/// Reads a source file, or reports why not (exit 2).
pub fn read_source(path: &Path) -> Result<String, Exit> {
    std::fs::read(path)
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .map_err(|e| {
            eprintln!("error: cannot read {}: {e}", path.display());
            Exit::Static
        })
}

/// Runs one command and returns its exit status.
pub fn main(cli: Cli) -> Exit {
    let result = match cli.command {
        Command::Run(a) => with_lang(&a.input, |l| match l {
            Lang::Tail => tail::run(&a),
            Lang::Fcl => fcl::run(&a),
        }),
        Command::Step(a) if a.interactive || a.format == "html" => {
            with_lang(&a.run.input, |l| teach::step(l, &a))
        }
        Command::Step(a) => with_lang(&a.run.input, |l| match l {
            Lang::Tail => tail::step(&a),
            Lang::Fcl => fcl::step(&a),
        }),
        Command::Check(a) => with_lang(&a.input, |l| match l {
            Lang::Tail => tail::check(&a),
            Lang::Fcl => fcl::check(&a),
        }),
        Command::Compile(a) => with_lang(&a.input, |l| device::compile(l, &a)),
        Command::Exec(a) => with_lang(&a.compile.input, |l| device::exec(l, &a)),
        Command::Devices => device::devices(),
        Command::Fuzz(a) => conform::fuzz(&a),
        Command::Conform(a) => conform::conform(&a),
        Command::Gen(a) => gen::gen(&a),
        Command::CostCheck(a) => cost::cost_check(&a),
    };
    result.unwrap_or_else(|e| e)
}

fn with_lang(input: &Input, f: impl FnOnce(Lang) -> Result<Exit, Exit>) -> Result<Exit, Exit> {
    match input.lang() {
        Ok(l) => f(l),
        Err(msg) => {
            eprintln!("error: {msg}");
            Err(Exit::Static)
        }
    }
}
