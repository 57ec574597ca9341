//! The teaching stepper's view of a run: for every step, the whole configuration *before* it,
//! laid out with the `pretty` crate, with the redex(es) marked, next to the step's record
//! (rule, costs, location, result, store effects), the store (TAIL) or the machine (FCL) after it.
//! `tailfcl step --format html` writes these as one page ([`html`]); `--interactive` shows them in
//! the terminal.

pub mod encode;
pub mod html;
pub mod rules;

use crate::fcl::{Config, Failure};
use crate::tail::{drive, Outcome, RunOptions, Stats};
use crate::trace::StepRecord;
use semantics::fcl::step::view::Group;
use semantics::fcl::step::Fired;
use semantics::tail::step::{Machine, Program};
use semantics::view::{render, Tree, WIDTH};
use std::io;
use std::rc::Rc;

/// One step as the teaching stepper shows it.
#[derive(Clone, Debug)]
pub struct TeachStep {
    pub record: StepRecord,
    /// The configuration before the step.
    pub before: String,
    /// Byte spans of the redexes in `before` (FCL group steps have one per sub-step).
    pub redexes: Vec<(usize, usize)>,
    /// TAIL: the store after the step (`l3 = [3](1,2,3)`, one location a line).
    pub store: Vec<(String, String)>,
    /// FCL: the thread locations whose leaf steps fired (`Thread(5)`).
    pub fired: Vec<String>,
    /// FCL: the group steps in progress after the step.
    pub groups: Vec<Group>,
}

/// What a teaching run has besides its steps.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// The configuration after the last step.
    pub last: String,
    /// How the run ended: `value: …`, `err: …`, `step limit`.
    pub outcome: String,
    /// What the program printed.
    pub output: String,
    /// How the run ended, for the exit status.
    pub ended: Ended,
}

/// How a teaching run ended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Ended {
    #[default]
    Value,
    /// The program reduced to `err`.
    Error,
    /// A step or size limit.
    Limit,
    /// The core term was not closed (FCL).
    Static,
}

/// Steps `prev ↪ next`: the previous configuration laid out with the redexes at `holes` marked.
fn before(prev: &Tree, holes: &[Vec<usize>]) -> (String, Vec<(usize, usize)>) {
    render(prev, WIDTH, holes)
}

/// Runs a TAIL program, handing every step to `on_step`.
pub fn tail(
    prog: Rc<Program>,
    opts: RunOptions,
    mut on_step: impl FnMut(TeachStep) -> io::Result<()>,
) -> io::Result<Summary> {
    let mut m = Machine::new(prog);
    m.set_tracing(true);
    let mut prev = m.view().term;
    let mut stats = Stats::default();
    let mut output = String::new();
    let (outcome, _) = drive(
        &mut m,
        opts,
        &mut stats,
        |m, n, info| {
            let view = m.view();
            let (text, redexes) = before(&prev, &[view.hole]);
            prev = view.term;
            let t = m.last_trace();
            on_step(TeachStep {
                record: crate::tail::record(n, info, t),
                before: text,
                redexes,
                store: view.store,
                fired: Vec::new(),
                groups: Vec::new(),
            })
        },
        |s| {
            output.push_str(s);
            Ok(())
        },
    )?;
    // A step to err is a step too (3.28/3.53), as `tailfcl step` shows it: its redex is where
    // the machine's context now has its hole.
    if let Outcome::Err(e) = &outcome {
        let view = m.view();
        let (text, redexes) = before(&prev, &[view.hole]);
        on_step(TeachStep {
            record: crate::tail::err_record(stats.steps + 1, e, m.last_trace()),
            before: text,
            redexes,
            store: view.store,
            fired: Vec::new(),
            groups: Vec::new(),
        })?;
    }
    let last = before(&prev, &[]).0;
    let (outcome, ended) = match outcome {
        Outcome::Value(v) => (format!("value: {v}"), Ended::Value),
        Outcome::Err(e) => (format!("err: {}: {}", e.rule, e.reason), Ended::Error),
        Outcome::Limit => (
            format!("step limit: no value after {} steps", stats.steps),
            Ended::Limit,
        ),
    };
    Ok(Summary {
        last,
        outcome,
        output,
        ended,
    })
}

/// Runs an FCL program (`main`, a closed core term), handing every step to `on_step`; a
/// `false` answer stops the run.
pub fn fcl(
    main: &semantics::fcl::core::Expr,
    cfg: &Config,
    mut on_step: impl FnMut(TeachStep) -> bool,
) -> Summary {
    let mut prev = Tree::default();
    let out = crate::fcl::trace_tasks(main, cfg, &mut |task, step| {
        let Some((fired, record)) = step else {
            prev = task.view(None).term;
            return true;
        };
        let view = task.view(Some(fired));
        let (text, redexes) = before(&prev, &view.holes);
        prev = view.term;
        let mut leaves = Vec::new();
        leaf_locations(fired, &mut leaves);
        on_step(TeachStep {
            record,
            before: text,
            redexes,
            store: Vec::new(),
            fired: leaves,
            groups: view.groups,
        })
    });
    let (outcome, ended) = match &out.result {
        Ok(v) => (format!("value: {v}"), Ended::Value),
        Err(Failure::Error(e)) => (format!("err: {e}"), Ended::Error),
        Err(Failure::StepLimit(n)) => {
            (format!("step limit: stopped after {n} steps"), Ended::Limit)
        }
        Err(Failure::SizeLimit(e)) => (format!("size limit: {e}"), Ended::Limit),
        Err(Failure::Static(d)) => (format!("static error: {}", d.message), Ended::Static),
    };
    Summary {
        last: before(&prev, &[]).0,
        outcome,
        output: out.stdout,
        ended,
    }
}

/// The locations of the thread-level steps under `f` (itself, when it has no parts).
fn leaf_locations(f: &Fired, out: &mut Vec<String>) {
    match f.trace.as_ref().filter(|t| !t.parts.is_empty()) {
        Some(t) => t.parts.iter().for_each(|p| leaf_locations(p, out)),
        None => out.push(f.loc.to_string()),
    }
}

/// Collects every step of a run in memory (for the terminal view and tests).
pub fn collect_tail(prog: Rc<Program>, opts: RunOptions) -> io::Result<(Vec<TeachStep>, Summary)> {
    let mut steps = Vec::new();
    let summary = tail(prog, opts, |s| {
        steps.push(s);
        Ok(())
    })?;
    Ok((steps, summary))
}

/// Collects every step of an FCL run in memory.
pub fn collect_fcl(main: &semantics::fcl::core::Expr, cfg: &Config) -> (Vec<TeachStep>, Summary) {
    let mut steps = Vec::new();
    let summary = fcl(main, cfg, |s| {
        steps.push(s);
        true
    });
    (steps, summary)
}
