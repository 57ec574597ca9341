//! Argument parsing and dispatch. Each language's commands live in their own module.

mod fcl;
mod tail;

use clap::{Args, Parser, Subcommand};
use std::path::{Path, PathBuf};

/// Exit statuses of every command (shared/DESIGN.md).
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
}

#[derive(Args, Debug, Clone)]
pub struct StepArgs {
    #[command(flatten)]
    pub run: RunArgs,
    /// text, json or csv.
    #[arg(long, default_value = "text")]
    pub format: String,
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
        Command::Step(a) => with_lang(&a.run.input, |l| match l {
            Lang::Tail => tail::step(&a),
            Lang::Fcl => fcl::step(&a),
        }),
        Command::Check(a) => with_lang(&a.input, |l| match l {
            Lang::Tail => tail::check(&a),
            Lang::Fcl => fcl::check(&a),
        }),
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
