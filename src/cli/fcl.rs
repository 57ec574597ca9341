//! The FCL commands: check, run, step.

use super::{read_source, CheckArgs, Exit, RunArgs, StepArgs};
use interpreter::fcl::{self as oracle, Config, Failure, RunOutput};
use interpreter::{TraceFormat, TraceWriter};
use semantics::fcl::core_type::type_of;
use semantics::fcl::load;
use semantics::fcl::lower::{load_program, Program};
use semantics::fcl::value::has_type;
use semantics::span::line_col;
use semantics::Span;

/// `tailfcl check FILE.fcl…`: prints every top-level binding (prelude first) with its
/// generalised type (docs/fcl.md §6); a parse or type error is rendered against its file, exit 2.
pub fn check(a: &CheckArgs) -> Result<Exit, Exit> {
    let mut files = Vec::new();
    for path in &a.input.files {
        files.push((path.display().to_string(), read_source(path)?));
    }
    match load::check_program(&files, !a.input.no_prelude) {
        Ok(checked) => {
            print!("{}", checked.listing());
            Ok(Exit::Ok)
        }
        Err((file, d)) => {
            let src = files
                .iter()
                .find(|(n, _)| *n == file)
                .map(|(_, s)| s.as_str())
                .unwrap_or(match file.as_str() {
                    load::PRELUDE_NAME => load::PRELUDE,
                    _ => load::PRELUDE_THESIS,
                });
            eprint!("{}", d.render(&file, src));
            Err(Exit::Static)
        }
    }
}

/// `tailfcl run FILE.fcl…`: evaluates `main` with the oracle on `--machine` under `--schedule`;
/// stdout is what the program prints, `--stats` reports steps, cost and work on stderr, and
/// `--check-schedules K` reruns under K random schedules and reports any difference (exit 1).
pub fn run(a: &RunArgs) -> Result<Exit, Exit> {
    let (files, program) = load(a)?;
    let cfg = config(a)?;
    if a.check_types {
        check_core_type(&program)?;
    }
    let out = if a.check_types {
        // type preservation and `loc ▶ τ` at every configuration (Propositions 9–11)
        let (out, sound) = oracle::run_checked(&program.main, &program.ty, &cfg, 1);
        for (step, why) in &sound.violations {
            eprintln!("internal error: ill-typed configuration after step {step}: {why}");
        }
        if a.stats {
            eprintln!(
                "configurations: {} typed in full, {} partly, {} ill typed",
                sound.checked, sound.partial, sound.violation_count
            );
        }
        if sound.violation_count > 0 {
            print!("{}", out.stdout);
            return Err(Exit::Internal);
        }
        out
    } else {
        oracle::run(&program.main, &cfg)
    };
    print!("{}", out.stdout);
    eprint!("{}", out.stderr);
    if a.stats {
        print_stats(&out, &cfg);
    }
    if let (true, Ok(v)) = (a.check_types, &out.result) {
        if !has_type(v, &program.ty) {
            eprintln!(
                "internal error: main's value {v} does not have main's type {}",
                program.ty
            );
            return Err(Exit::Internal);
        }
    }
    if let Some(k) = a.check_schedules {
        let diffs = oracle::check_schedules(&program.main, &cfg, k);
        for d in &diffs {
            eprintln!(
                "schedule {} gives a different result:\n  in-order: {}\n  {}: {}",
                d.schedule, d.expected, d.schedule, d.got
            );
        }
        if !diffs.is_empty() {
            outcome(&out, &program, &files)?;
            return Err(Exit::Failures);
        }
    }
    outcome(&out, &program, &files)
}

/// `tailfcl step FILE.fcl…`: prints every step (number, rule, cost and work, location, redex and
/// result) from `--from`, at most `--limit` of them, then the program's output.
pub fn step(a: &StepArgs) -> Result<Exit, Exit> {
    let format: TraceFormat = a.format.parse().map_err(|e| {
        eprintln!("error: {e}");
        Exit::Static
    })?;
    let (files, program) = load(&a.run)?;
    let cfg = config(&a.run)?;
    let mut writer = TraceWriter::new(format, super::teach::sink(a)?);
    let last = a.limit.map(|l| a.from.saturating_add(l).saturating_sub(1));
    let mut io_error = None;
    let mut on_step = |r: interpreter::StepRecord| {
        if r.step >= a.from {
            if let Err(e) = writer.write(&r) {
                io_error = Some(e);
                return false;
            }
        }
        last.is_none_or(|l| r.step < l)
    };
    let out = oracle::trace(&program.main, &cfg, &mut on_step);
    let flushed = writer.finish();
    if let Some(e) = io_error.or(flushed.err()) {
        eprintln!("error: writing the trace: {e}");
        return Err(Exit::Internal);
    }
    print!("{}", out.stdout);
    eprint!("{}", out.stderr);
    if a.run.stats {
        print_stats(&out, &cfg);
    }
    match (&out.result, last) {
        // stopping at --limit is what was asked for, not a limit hit
        (Err(Failure::StepLimit(n)), Some(l)) if *n == l => Ok(Exit::Ok),
        _ => outcome(&out, &program, &files),
    }
}

/// The lowered program must have main's type (a front-end bug otherwise).
fn check_core_type(program: &Program) -> Result<(), Exit> {
    match type_of(&program.main) {
        Ok(t) if t == program.ty => Ok(()),
        Ok(t) => {
            eprintln!(
                "internal error: the lowered program has type {t}, main has {}",
                program.ty
            );
            Err(Exit::Internal)
        }
        Err(d) => {
            eprintln!(
                "internal error: the lowered program is ill typed: {}",
                d.message
            );
            Err(Exit::Internal)
        }
    }
}

/// Reads, checks and lowers the input files; a static error is rendered against its file (exit 2).
pub(super) fn load(a: &RunArgs) -> Result<(Vec<(String, String)>, Program), Exit> {
    let mut files = Vec::new();
    for path in &a.input.files {
        files.push((path.display().to_string(), read_source(path)?));
    }
    match load_program(&files) {
        Ok(p) => Ok((files, p)),
        Err((file, d)) => {
            eprint!("{}", d.render(&file, source_of(&files, &file)));
            Err(Exit::Static)
        }
    }
}

fn source_of<'a>(files: &'a [(String, String)], name: &str) -> &'a str {
    files
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, s)| s.as_str())
        .unwrap_or(match name {
            load::PRELUDE_NAME => load::PRELUDE,
            _ => load::PRELUDE_THESIS,
        })
}

pub(super) fn config(a: &RunArgs) -> Result<Config, Exit> {
    let bad = |e: String| {
        eprintln!("error: {e}");
        Exit::Static
    };
    Ok(Config {
        machine: a.machine.parse().map_err(bad)?,
        schedule: a.schedule.parse().map_err(bad)?,
        max_steps: a.max_steps,
    })
}

fn print_stats(out: &RunOutput, cfg: &Config) {
    // the program's output first, so that a terminal shows the two in order
    let _ = std::io::Write::flush(&mut std::io::stdout());
    let s = &out.stats;
    eprintln!(
        "machine: {}  schedule: {}  steps: {}  rule firings: {}  cost: {}  work: {}  peak cells: {}  cells allocated: {}  largest array: {}",
        cfg.machine, cfg.schedule, s.steps, s.firings, s.cost, s.work, s.peak, s.allocated, s.largest
    );
}

/// The exit status of a finished run: 0, 3 (`file:line:col: error: RULE: reason`), 4 (a limit).
pub(super) fn outcome(
    out: &RunOutput,
    program: &Program,
    files: &[(String, String)],
) -> Result<Exit, Exit> {
    match &out.result {
        Ok(_) => Ok(Exit::Ok),
        Err(Failure::Error(e)) => {
            eprintln!("{}: error: {e}", place(program, files, e.span));
            Err(Exit::RuntimeError)
        }
        Err(Failure::StepLimit(n)) => {
            eprintln!("error: step limit reached after {n} steps (--max-steps)");
            Err(Exit::Limit)
        }
        Err(Failure::SizeLimit(e)) => {
            eprintln!("{}: error: {e}", place(program, files, e.span));
            Err(Exit::Limit)
        }
        Err(Failure::Static(d)) => {
            eprintln!("{}: error: {}", place(program, files, d.span), d.message);
            Err(Exit::Static)
        }
    }
}

/// `file:line:col` of a span of the loaded program.
fn place(program: &Program, files: &[(String, String)], span: Span) -> String {
    let (file, local) = program.locate(span);
    let (line, col) = line_col(source_of(files, &file), local.start as usize);
    format!("{file}:{line}:{col}")
}
