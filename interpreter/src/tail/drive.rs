//! Driving the TAIL stepper: `run` evaluates to a value collecting `pr*` output; `trace` emits
//! one [`StepRecord`] per step. Both go through [`drive`], so what is traced is what runs.

use crate::trace::StepRecord;
use semantics::tail::step::show::value_text;
use semantics::tail::step::{Machine, Program, StepError, StepInfo, Stepped, TraceInfo, Value};
use std::io::{self, Write};
use std::rc::Rc;

/// Limits of a run.
#[derive(Clone, Copy, Debug)]
pub struct RunOptions {
    /// Stop after this many steps with [`Outcome::Limit`].
    pub max_steps: u64,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            max_steps: 2_000_000_000,
        }
    }
}

/// Totals of a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Rule steps taken.
    pub steps: u64,
    /// Scalar operations performed.
    pub work: u64,
    /// Critical-path length with bulk operators in parallel.
    pub span: u64,
    /// Largest number of store locations alive at once.
    pub peak_store: u64,
    /// Locations allocated in all.
    pub allocated: u64,
}

/// How a run ended.
#[derive(Debug)]
pub enum Outcome {
    /// The program reduced to a value; its result line (spec §6.5, without the newline).
    Value(String),
    /// The program reduced to `err`.
    Err(StepError),
    /// The step limit was reached first.
    Limit,
}

/// Steps `m` until it is a value, errs, or takes `max_steps` steps; calls `on_step` after each
/// step with the step's number (1-based) and info, and `on_output` with `pr*` output as soon as
/// it is written.
pub fn drive(
    m: &mut Machine,
    opts: RunOptions,
    stats: &mut Stats,
    mut on_step: impl FnMut(&Machine, u64, StepInfo) -> io::Result<()>,
    mut on_output: impl FnMut(&str) -> io::Result<()>,
) -> io::Result<(Outcome, Option<Value>)> {
    let result = loop {
        if stats.steps >= opts.max_steps {
            break (Outcome::Limit, None);
        }
        match m.step() {
            Stepped::Next(info) => {
                stats.steps += 1;
                stats.work += info.work;
                stats.span += info.span;
                let out = m.take_output();
                if !out.is_empty() {
                    on_output(&out)?;
                }
                on_step(m, stats.steps, info)?;
            }
            Stepped::Value(v) => break (Outcome::Value(value_text(&v)), Some(v)),
            Stepped::Err(e) => break (Outcome::Err(e), None),
        }
    };
    stats.peak_store = m.store().peak();
    stats.allocated = m.store().allocated();
    Ok(result)
}

/// Runs a program to its result, writing `pr*` output to `out` as it happens.
pub fn run(
    prog: Rc<Program>,
    opts: RunOptions,
    out: &mut dyn Write,
) -> io::Result<(Outcome, Stats)> {
    let mut m = Machine::new(prog);
    let mut stats = Stats::default();
    let (outcome, _) = drive(
        &mut m,
        opts,
        &mut stats,
        |_, _, _| Ok(()),
        |s| out.write_all(s.as_bytes()),
    )?;
    Ok((outcome, stats))
}

/// Runs a program and hands a [`StepRecord`] for each step numbered `from ..< from + limit` to
/// `emit`. `pr*` output is collected and returned, not printed.
pub fn trace(
    prog: Rc<Program>,
    opts: RunOptions,
    from: u64,
    limit: Option<u64>,
    mut emit: impl FnMut(&StepRecord) -> io::Result<()>,
) -> io::Result<(Outcome, Stats, String)> {
    let mut m = Machine::new(prog);
    m.set_tracing(true);
    let mut stats = Stats::default();
    let mut output = String::new();
    let last = limit.map(|l| from.saturating_add(l));
    let (outcome, _) = drive(
        &mut m,
        opts,
        &mut stats,
        |m, n, info| {
            if n < from || last.is_some_and(|l| n >= l) {
                return Ok(());
            }
            emit(&record(n, info, m.last_trace()))
        },
        |s| {
            output.push_str(s);
            Ok(())
        },
    )?;
    // A step to err is a step too (3.28/3.53): show it as the last record.
    if let Outcome::Err(e) = &outcome {
        let n = stats.steps + 1;
        if n >= from && last.is_none_or(|l| n < l) {
            emit(&err_record(n, e, m.last_trace()))?;
        }
    }
    Ok((outcome, stats, output))
}

/// The record of step `n`, which did `info` and printed as `t`.
pub fn record(n: u64, info: StepInfo, t: &TraceInfo) -> StepRecord {
    StepRecord {
        step: n,
        rule: info.rule.to_string(),
        costs: vec![("work", info.work), ("span", info.span)],
        location: None,
        redex: t.redex.clone(),
        result: t.result.clone(),
        effects: t.effects.clone(),
    }
}

/// The record of step `n`, the step to `err` (3.28/3.53) that ended the run.
pub fn err_record(n: u64, e: &StepError, t: &TraceInfo) -> StepRecord {
    StepRecord {
        step: n,
        rule: e.rule.to_string(),
        costs: vec![("work", 0), ("span", 0)],
        location: None,
        redex: t.redex.clone(),
        result: format!("err: {}", e.reason),
        effects: t.effects.clone(),
    }
}

/// What [`run_source`] produced: the program's standard output (the `pr*` output followed by the
/// result line, exactly as `tailfcl run` prints it), how it ended, and its totals.
#[derive(Debug)]
pub struct Report {
    pub stdout: String,
    pub outcome: Outcome,
    pub stats: Stats,
}

/// Reads, compiles and runs TAIL program text: the library form of `tailfcl run`, for other
/// engines to compare against. Static errors come back as the [`semantics::Diagnostic`].
pub fn run_source(src: &str, opts: RunOptions) -> Result<Report, semantics::Diagnostic> {
    let prog = semantics::tail::step::load(src)?;
    let mut out = Vec::new();
    let (outcome, stats) = run(prog, opts, &mut out).unwrap_or_else(|e| {
        // Writing to a Vec cannot fail; keep the contract total anyway.
        (Outcome::Err(io_failure(e)), Stats::default())
    });
    let mut stdout = String::from_utf8_lossy(&out).into_owned();
    if let Outcome::Value(v) = &outcome {
        stdout.push_str(v);
        stdout.push('\n');
    }
    Ok(Report {
        stdout,
        outcome,
        stats,
    })
}

fn io_failure(e: io::Error) -> StepError {
    StepError {
        rule: semantics::tail::step::Rule::STUCK,
        reason: format!("output failed: {e}"),
        span: semantics::Span::DUMMY,
    }
}
