//! The TAIL commands: check, run, step.

use super::{read_source, CheckArgs, Exit, RunArgs, StepArgs};
use interpreter::tail::{run as run_program, trace, Outcome, RunOptions, Stats};
use interpreter::{TraceFormat, TraceWriter};
use semantics::span::line_col;
use semantics::tail::step::{Program, StepError};
use std::io::{self, Write};
use std::path::Path;
use std::rc::Rc;

/// `tailfcl check FILE.tail`: parses and type checks, then prints the program's type in TAIL
/// syntax; a parse or type error is rendered on stderr (exit 2).
pub fn check(a: &CheckArgs) -> Result<Exit, Exit> {
    let path = single_file(&a.input.files)?;
    let src = read_source(path)?;
    let file = path.display().to_string();
    let checked = semantics::tail::parser::parse(&src)
        .and_then(|e| semantics::tail::typecheck::typecheck(&e));
    match checked {
        Ok(t) => {
            println!("{t}");
            Ok(Exit::Ok)
        }
        Err(d) => {
            eprint!("{}", d.render(&file, &src));
            Err(Exit::Static)
        }
    }
}

/// Reads, parses, type checks and compiles one TAIL file; static errors are rendered (exit 2).
pub(super) fn load(path: &Path) -> Result<(String, Rc<Program>), Exit> {
    let src = read_source(path)?;
    let file = path.display().to_string();
    match semantics::tail::step::load(&src) {
        Ok(prog) => Ok((src, prog)),
        Err(d) => {
            eprint!("{}", d.render(&file, &src));
            Err(Exit::Static)
        }
    }
}

pub(super) fn single_file(files: &[std::path::PathBuf]) -> Result<&Path, Exit> {
    match files {
        [f] => Ok(f),
        _ => {
            eprintln!("error: TAIL takes exactly one file");
            Err(Exit::Static)
        }
    }
}

/// `error: RULE: reason` with the operator's position when known.
fn report_err(file: &str, src: &str, e: &StepError) {
    if e.span == semantics::Span::DUMMY {
        eprintln!("error: {}: {}", e.rule, e.reason);
    } else {
        let (line, col) = line_col(src, e.span.start as usize);
        eprintln!("{file}:{line}:{col}: error: {}: {}", e.rule, e.reason);
    }
}

fn io_error(e: io::Error) -> Exit {
    if e.kind() == io::ErrorKind::BrokenPipe {
        return Exit::Ok;
    }
    eprintln!("error: {e}");
    Exit::Internal
}

fn print_stats(s: &Stats) {
    // For TAIL the parallel cost of docs/design.md is the span.
    eprintln!(
        "steps: {}\nwork: {}\nspan: {}\ncost: {}\npeak store: {} locations ({} allocated)",
        s.steps, s.work, s.span, s.span, s.peak_store, s.allocated
    );
}

/// Maps a finished run to its exit status, printing the result line or the error.
fn finish(
    file: &str,
    src: &str,
    outcome: Outcome,
    max_steps: u64,
    out: &mut dyn Write,
) -> Result<Exit, Exit> {
    match outcome {
        Outcome::Value(text) => {
            writeln!(out, "{text}").map_err(io_error)?;
            out.flush().map_err(io_error)?;
            Ok(Exit::Ok)
        }
        Outcome::Err(e) => {
            out.flush().map_err(io_error)?;
            report_err(file, src, &e);
            Ok(Exit::RuntimeError)
        }
        Outcome::Limit => {
            out.flush().map_err(io_error)?;
            eprintln!("error: step limit reached: no value after {max_steps} steps (--max-steps)");
            Ok(Exit::Limit)
        }
    }
}

/// `tailfcl run FILE.tail`: the `pr*` output, then the result line (spec §6.5).
pub fn run(a: &RunArgs) -> Result<Exit, Exit> {
    let path = single_file(&a.input.files)?;
    let (src, prog) = load(path)?;
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let opts = RunOptions {
        max_steps: a.max_steps,
    };
    let (outcome, stats) = run_program(prog, opts, &mut out).map_err(io_error)?;
    let code = finish(
        &path.display().to_string(),
        &src,
        outcome,
        a.max_steps,
        &mut out,
    );
    if a.stats {
        print_stats(&stats);
    }
    code
}

/// `tailfcl step FILE.tail`: one record per step, in text, JSON lines or CSV.
pub fn step(a: &StepArgs) -> Result<Exit, Exit> {
    let format: TraceFormat = a.format.parse().map_err(|e: String| {
        eprintln!("error: {e}");
        Exit::Static
    })?;
    let path = single_file(&a.run.input.files)?;
    let (src, prog) = load(path)?;
    let mut w = TraceWriter::new(format, super::teach::sink(a)?);
    let opts = RunOptions {
        max_steps: a.run.max_steps,
    };
    let (outcome, stats, _output) =
        trace(prog, opts, a.from.max(1), a.limit, |r| w.write(r)).map_err(io_error)?;
    w.finish().map_err(io_error)?;
    let file = path.display().to_string();
    let code = match outcome {
        Outcome::Value(text) => {
            if format == TraceFormat::Text {
                println!("value: {text}");
            }
            Ok(Exit::Ok)
        }
        Outcome::Err(e) => {
            report_err(&file, &src, &e);
            Ok(Exit::RuntimeError)
        }
        Outcome::Limit => {
            eprintln!(
                "error: step limit reached: no value after {} steps (--max-steps)",
                a.run.max_steps
            );
            Ok(Exit::Limit)
        }
    };
    if a.run.stats {
        print_stats(&stats);
    }
    code
}
