//! The FCL oracle: drives the small-step rules of `semantics::fcl::step` (5.48–5.91) on a machine,
//! to a value (`run`) or printing every step (`trace`), with the cost model of docs/design.md: **cost**
//! is the sum of the top-level step costs (parallel time on the machine), **work** the sum of the
//! thread-level (leaf) step costs. Both use the same stepping code.

pub mod examples;

use crate::trace::StepRecord;
use semantics::fcl::core::{Expr, Type};
use semantics::fcl::machine::{Machine, Schedule, Scheduler};
use semantics::fcl::step::rules::{self, RunError};
use semantics::fcl::step::soundness::{check_task, Verdict};
pub use semantics::fcl::step::tally::Tally;
use semantics::fcl::step::term::resolve;
use semantics::fcl::step::{Ctx, Fired, Outcome, Task};
use semantics::fcl::value::{peak_cells, render_full, reset_peak_cells, Value};
use semantics::Diagnostic;

/// How to run.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    pub machine: Machine,
    pub schedule: Schedule,
    /// Stop with [`Failure::StepLimit`] after this many steps.
    pub max_steps: u64,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            machine: Machine::DEFAULT,
            schedule: Schedule::InOrder,
            max_steps: 2_000_000_000,
        }
    }
}

/// Totals of a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Top-level steps (rule firings at the grid location, group steps counted once).
    pub steps: u64,
    /// Rule firings at every location (group steps counted by their parts).
    pub firings: u64,
    /// Sum of the top-level step costs.
    pub cost: u64,
    /// Sum of the thread-level step costs.
    pub work: u64,
    /// Array cells materialised in total.
    pub allocated: u64,
    /// The largest materialised array, in cells.
    pub largest: u64,
    /// Peak memory: the most materialised array cells live at once.
    pub peak: u64,
}

/// Why a run stopped without a value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The program reduced to `err` (exit 3).
    Error(RunError),
    /// `max_steps` was reached (exit 4).
    StepLimit(u64),
    /// An array would exceed the oracle's size limit (exit 4).
    SizeLimit(RunError),
    /// The core term is not closed or is nested too deeply (exit 2).
    Static(Diagnostic),
}

/// What a run produced.
#[derive(Debug)]
pub struct RunOutput {
    /// What `forceAndPrint*` wrote: the program's stdout.
    pub stdout: String,
    /// What `benchmark` wrote: stderr.
    pub stderr: String,
    pub stats: Stats,
    /// The final value (main's, which is not printed), or why there is none.
    pub result: Result<Value, Failure>,
}

impl RunOutput {
    /// The observable result for comparisons: output and the full final value, or the error.
    pub fn observable(&self) -> String {
        match &self.result {
            Ok(v) => format!("{}=> {}", self.stdout, render_full(v)),
            Err(Failure::Error(e)) => format!("{}err {e}", self.stdout),
            Err(f) => format!("{}{f:?}", self.stdout),
        }
    }
}

/// Runs `main` (a closed core term of type `Program<grid> τ`) to a value.
pub fn run(main: &Expr, cfg: &Config) -> RunOutput {
    drive(main, cfg, None, None, None)
}

/// Runs like [`run`], counting what the run did by rule, level and memory access (for
/// `tailfcl cost-check`).
pub fn run_tallied(main: &Expr, cfg: &Config) -> (RunOutput, Tally) {
    let mut tally = Tally::default();
    let out = drive(main, cfg, None, None, Some(&mut tally));
    (out, tally)
}

/// What the per-step soundness check found (Propositions 9–11, see
/// `semantics::fcl::step::soundness`).
#[derive(Clone, Debug, Default)]
pub struct Soundness {
    /// Configurations typed in full: `E[e] : τ` at a location admitting τ.
    pub checked: u64,
    /// Configurations whose type was only partly known (no disagreement found).
    pub partial: u64,
    /// Why configurations were only partly typed: the form that hid the type, and how often.
    pub partial_reasons: std::collections::BTreeMap<&'static str, u64>,
    /// The ill-typed configurations: step number and reason (at most 10 kept).
    pub violations: Vec<(u64, String)>,
    /// How many violations there were in all.
    pub violation_count: u64,
}

/// Runs like [`run`] and checks the configuration against main's type `ty` before the first step
/// and after every `every`-th step (1: every step) — type preservation and `loc ▶ τ`.
pub fn run_checked(main: &Expr, ty: &Type, cfg: &Config, every: u64) -> (RunOutput, Soundness) {
    let mut report = Soundness::default();
    let out = drive(main, cfg, None, Some((ty, every.max(1), &mut report)), None);
    (out, report)
}

fn check_config(task: &Task, ty: &Type, step: u64, report: &mut Soundness) {
    match check_task(task, ty) {
        Ok(Verdict::Checked) => report.checked += 1,
        Ok(Verdict::Partial(why)) => {
            report.partial += 1;
            *report.partial_reasons.entry(why).or_default() += 1;
        }
        Err(v) => {
            report.violation_count += 1;
            if report.violations.len() < 10 {
                report.violations.push((step, v.0));
            }
        }
    }
}

/// Runs like [`run`], handing each step's record to `on_step`; a `false` answer stops the run
/// (the result is then the step limit).
pub fn trace(main: &Expr, cfg: &Config, on_step: &mut dyn FnMut(StepRecord) -> bool) -> RunOutput {
    drive(
        main,
        cfg,
        Some(&mut |_, s| s.is_none_or(|(_, r)| on_step(r))),
        None,
        None,
    )
}

/// Runs like [`trace`], showing the task as well: `on_step` sees the initial configuration
/// (with `None`), then the configuration after each step with the step and its record.
pub fn trace_tasks(main: &Expr, cfg: &Config, on_step: OnStep) -> RunOutput {
    drive(main, cfg, Some(on_step), None, None)
}

/// The step callback of [`trace_tasks`]: the task, and the step just taken (none before the
/// first).
pub type OnStep<'a> = &'a mut dyn FnMut(&Task, Option<(&Fired, StepRecord)>) -> bool;

fn drive(
    main: &Expr,
    cfg: &Config,
    mut on_step: Option<OnStep>,
    mut soundness: Option<(&Type, u64, &mut Soundness)>,
    tally: Option<&mut Tally>,
) -> RunOutput {
    let mut ctx = Ctx::new(Scheduler::new(cfg.schedule), on_step.is_some());
    if tally.is_some() {
        ctx.tally = Some(Box::default());
    }
    let mut stats = Stats::default();
    reset_peak_cells();
    let result = match resolve(main) {
        Err(d) => Err(Failure::Static(d)),
        Ok(term) => {
            let mut task = Task::new(term, cfg.machine.grid());
            if let Some((ty, _, report)) = soundness.as_mut() {
                check_config(&task, ty, 0, report);
            }
            if let Some(cb) = on_step.as_mut() {
                cb(&task, None);
            }
            loop {
                if stats.steps >= cfg.max_steps {
                    break Err(Failure::StepLimit(stats.steps));
                }
                match task.step(&mut ctx) {
                    Err(e) if e.rule == rules::SIZE_LIMIT => break Err(Failure::SizeLimit(e)),
                    Err(e) => break Err(Failure::Error(e)),
                    Ok(Outcome::Done(v)) => break Ok(v),
                    Ok(Outcome::Fired(f)) => {
                        stats.steps += 1;
                        stats.cost += f.cost as u64;
                        stats.work += f.work;
                        stats.firings += f.firings;
                        if let Some((ty, every, report)) = soundness.as_mut() {
                            if stats.steps % *every == 0 {
                                check_config(&task, ty, stats.steps, report);
                            }
                        }
                        if let Some(cb) = on_step.as_mut() {
                            let (redex, result) = f
                                .trace
                                .as_ref()
                                .map(|t| (t.redex.clone(), t.result.clone()))
                                .unwrap_or_default();
                            let record = StepRecord {
                                step: stats.steps,
                                rule: f.rule.to_string(),
                                costs: vec![("cost", f.cost as u64), ("work", f.work)],
                                location: Some(f.loc.to_string()),
                                redex,
                                result,
                                effects: Vec::new(),
                            };
                            if !cb(&task, Some((&f, record))) {
                                break Err(Failure::StepLimit(stats.steps));
                            }
                        }
                    }
                }
            }
        }
    };
    stats.allocated = ctx.allocated;
    stats.largest = ctx.largest;
    stats.peak = peak_cells();
    if let (Some(out), Some(t)) = (tally, ctx.tally.take()) {
        *out = *t;
    }
    RunOutput {
        stdout: ctx.stdout,
        stderr: ctx.stderr,
        stats,
        result,
    }
}

/// A schedule whose observable result differs from the in-order run.
#[derive(Debug)]
pub struct ScheduleDifference {
    pub schedule: Schedule,
    pub expected: String,
    pub got: String,
}

/// Runs `k` random schedules (seeds 1..=k) besides the in-order one and reports every run whose
/// output, value or error differs.
pub fn check_schedules(main: &Expr, cfg: &Config, k: u32) -> Vec<ScheduleDifference> {
    let base = run(
        main,
        &Config {
            schedule: Schedule::InOrder,
            ..*cfg
        },
    )
    .observable();
    (1..=k as u64)
        .filter_map(|seed| {
            let schedule = Schedule::Random(seed);
            let got = run(main, &Config { schedule, ..*cfg }).observable();
            (got != base).then(|| ScheduleDifference {
                schedule,
                expected: base.clone(),
                got,
            })
        })
        .collect()
}
