//! Judging outcomes and writing the CSV report.

use super::compare::compare;
use super::discover::{Expectation, TestCase};
use super::engine::{Engine, ErrorClass, Outcome, RunStatus};
use std::fmt;
use std::io::Write;

/// The `status` column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Pass,
    Fail,
    /// The engine crashed or timed out.
    Error,
    /// The engine does not apply to this test, or cannot run here.
    Skip,
    /// An external engine exited non-zero on a valid program: it declined it (not a failure
    /// unless `conform --rejects-fail`).
    Reject,
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Status::Pass => "pass",
            Status::Fail => "fail",
            Status::Error => "error",
            Status::Skip => "skip",
            Status::Reject => "reject",
        })
    }
}

/// One row of the report.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub test: String,
    pub engine: String,
    pub device: String,
    pub status: Status,
    pub millis: u128,
    pub steps: Option<u64>,
    pub cost: Option<u64>,
    pub work: Option<u64>,
    pub detail: String,
}

/// Decides pass or fail for one outcome, with a one-line reason.
///
/// An expected error passes when the engine reports an error of the same [`ErrorClass`]; the
/// engine's own kind and message go into the detail (engines that shell out only know the
/// class, from the exit status).
pub fn judge(test: &TestCase, outcome: &Outcome) -> (Status, String) {
    match (&test.expectation, &outcome.status) {
        (_, RunStatus::Unavailable(why)) => (Status::Skip, why.clone()),
        (_, RunStatus::Crashed(why)) => (Status::Error, why.clone()),
        (Expectation::Output(_), RunStatus::Rejected(why)) => (Status::Reject, why.clone()),
        // an engine that only says yes or no: any non-zero exit is the expected error
        (Expectation::Error(kind), RunStatus::Rejected(why)) => {
            (Status::Pass, format!("expected {kind}: {why}"))
        }
        (Expectation::Output(want), RunStatus::Completed) => {
            match compare(want, &outcome.stdout, test.tolerance) {
                Ok(()) => (Status::Pass, String::new()),
                Err(m) => (Status::Fail, m.to_string()),
            }
        }
        (Expectation::Output(_), RunStatus::ProgramError { message, .. }) => (
            Status::Fail,
            format!("expected output, got an error: {message}"),
        ),
        (Expectation::Error(kind), RunStatus::Completed) => (
            Status::Fail,
            format!("expected error {kind}, but the program completed"),
        ),
        (
            Expectation::Error(kind),
            RunStatus::ProgramError {
                class,
                kind: got,
                message,
            },
        ) => {
            let note = match got {
                Some(k) => format!("{k}: {message}"),
                None => message.clone(),
            };
            if *class == ErrorClass::of_kind(kind) {
                (Status::Pass, note)
            } else {
                let want = ErrorClass::of_kind(kind).exit_code();
                (
                    Status::Fail,
                    format!(
                        "expected error {kind} (exit {want}), got exit {}: {note}",
                        class.exit_code()
                    ),
                )
            }
        }
    }
}

fn expects_runtime_error(test: &TestCase) -> bool {
    matches!(&test.expectation, Expectation::Error(kind) if ErrorClass::of_kind(kind) == ErrorClass::Runtime)
}

/// Runs every test on every engine, in order, one row each.
pub fn run_suite(tests: &[TestCase], engines: &[&dyn Engine]) -> Report {
    run_suite_with(tests, engines, 1, &mut |_| {})
}

/// [`run_suite`] with `jobs` tests running at once (each on every engine in turn), calling
/// `progress` with each row as it is made (for a progress bar). The report's rows are in the
/// order [`run_suite`] gives whatever the order the runs finish in.
pub fn run_suite_with(
    tests: &[TestCase],
    engines: &[&dyn Engine],
    jobs: usize,
    progress: &mut dyn FnMut(&Row),
) -> Report {
    let mut done: Vec<Option<Vec<Row>>> = vec![None; tests.len()];
    if jobs <= 1 || tests.len() <= 1 {
        for (k, test) in tests.iter().enumerate() {
            let rows = run_test(test, engines, progress);
            done[k] = Some(rows);
        }
    } else {
        let next = std::sync::atomic::AtomicUsize::new(0);
        let (send, receive) = std::sync::mpsc::channel::<(usize, Vec<Row>)>();
        std::thread::scope(|scope| {
            for _ in 0..jobs.min(tests.len()) {
                let (next, send) = (&next, send.clone());
                scope.spawn(move || loop {
                    let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(test) = tests.get(k) else { break };
                    let rows = run_test(test, engines, &mut |_| {});
                    if send.send((k, rows)).is_err() {
                        break;
                    }
                });
            }
            drop(send);
            for (k, rows) in receive {
                rows.iter().for_each(&mut *progress);
                done[k] = Some(rows);
            }
        });
    }
    Report {
        rows: done.into_iter().flatten().flatten().collect(),
    }
}

/// One test on every engine, a row each, in engine order.
fn run_test(test: &TestCase, engines: &[&dyn Engine], progress: &mut dyn FnMut(&Row)) -> Vec<Row> {
    let mut rows = Vec::new();
    for engine in engines {
        let skip_reason = if !engine.applies_to(test.lang) {
            Some(format!(
                "{} does not run {:?} programs",
                engine.name(),
                test.lang
            ))
        } else if !engine.detects_runtime_errors(test.lang) && expects_runtime_error(test) {
            Some(format!(
                "{} does not check run-time errors; the oracle judges this test",
                engine.name()
            ))
        } else {
            None
        };
        let row = if skip_reason.is_none() {
            let outcome = engine.run(test);
            let (status, detail) = judge(test, &outcome);
            Row {
                test: test.name.clone(),
                engine: engine.name().to_string(),
                device: engine.device(),
                status,
                millis: outcome.millis,
                steps: outcome.steps,
                cost: outcome.cost,
                work: outcome.work,
                detail,
            }
        } else {
            Row {
                test: test.name.clone(),
                engine: engine.name().to_string(),
                device: engine.device(),
                status: Status::Skip,
                millis: 0,
                steps: None,
                cost: None,
                work: None,
                detail: skip_reason.unwrap_or_default(),
            }
        };
        progress(&row);
        rows.push(row);
    }
    rows
}

/// All rows of a conformance run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Report {
    pub rows: Vec<Row>,
}

impl Report {
    /// How many rows have this status.
    pub fn count(&self, status: Status) -> usize {
        self.rows.iter().filter(|r| r.status == status).count()
    }

    /// Whether every row passed or was skipped.
    pub fn all_passed(&self) -> bool {
        self.count(Status::Fail) == 0 && self.count(Status::Error) == 0
    }

    /// `N passed, N failed` (errors count as failed), then `, N skipped` and `, N rejected`
    /// when any were.
    pub fn summary(&self) -> String {
        let failed = self.count(Status::Fail) + self.count(Status::Error);
        let mut s = format!("{} passed, {} failed", self.count(Status::Pass), failed);
        let skipped = self.count(Status::Skip);
        if skipped > 0 {
            s.push_str(&format!(", {skipped} skipped"));
        }
        let rejected = self.count(Status::Reject);
        if rejected > 0 {
            s.push_str(&format!(", {rejected} rejected"));
        }
        s
    }

    /// Writes the CSV: the header `test,engine,device,status,millis,steps,cost,work,detail`,
    /// then one row per (test, engine); unknown statistics are empty fields.
    pub fn write_csv(&self, out: impl Write) -> csv::Result<()> {
        let mut w = csv::Writer::from_writer(out);
        w.write_record([
            "test", "engine", "device", "status", "millis", "steps", "cost", "work", "detail",
        ])?;
        let opt = |v: Option<u64>| v.map(|n| n.to_string()).unwrap_or_default();
        for r in &self.rows {
            w.write_record([
                r.test.clone(),
                r.engine.clone(),
                r.device.clone(),
                r.status.to_string(),
                r.millis.to_string(),
                opt(r.steps),
                opt(r.cost),
                opt(r.work),
                r.detail.clone(),
            ])?;
        }
        w.flush()?;
        Ok(())
    }
}
