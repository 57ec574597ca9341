//! What runs a test: the [`Engine`] trait and its [`Outcome`].

use super::discover::{Lang, TestCase};

/// The kinds of failure a program can end in, after the exit statuses of docs/design.md.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorClass {
    /// Parse or type error (exit 2).
    Static,
    /// The program reduced to `err` (exit 3): an index out of bounds, a race, a hole, ...
    Runtime,
    /// A step, size or time limit (exit 4).
    Limit,
}

impl ErrorClass {
    /// The class an expected-error kind belongs to: `parse-error`, `type-error`, `static-error`
    /// (and any kind ending in `parse-error`/`type-error`) are static; `limit`, `step-limit`,
    /// `size-limit`, `time-limit` are limits; every other kind (`index-out-of-bounds`, `race`,
    /// `hole`, `shape-mismatch`, `negative-iota`, `runtime-error`, ...) is a run-time error.
    pub fn of_kind(kind: &str) -> ErrorClass {
        match kind {
            "static-error" => ErrorClass::Static,
            k if k.ends_with("parse-error") || k.ends_with("type-error") => ErrorClass::Static,
            "limit" | "step-limit" | "size-limit" | "time-limit" => ErrorClass::Limit,
            _ => ErrorClass::Runtime,
        }
    }

    /// The exit status `tailfcl` uses for this class.
    pub fn exit_code(self) -> i32 {
        match self {
            ErrorClass::Static => 2,
            ErrorClass::Runtime => 3,
            ErrorClass::Limit => 4,
        }
    }
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq)]
pub enum RunStatus {
    /// The program ran to the end.
    Completed,
    /// The program failed the way programs fail (a parse, type or run-time error, a limit).
    /// `kind` is the engine's own name for the error when it knows one.
    ProgramError {
        class: ErrorClass,
        kind: Option<String>,
        message: String,
    },
    /// The engine itself crashed or timed out: a bug or a hang, not an answer.
    Crashed(String),
    /// The engine cannot run this test here (not built yet, no device); the test is skipped.
    Unavailable(String),
    /// An external engine (a compiler under test) exited non-zero: on a valid program it
    /// declined it (status `reject`), on a test that expects an error that is the error. The
    /// last lines of its stderr.
    Rejected(String),
}

/// The result of running one test on one engine.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    pub stdout: String,
    pub status: RunStatus,
    /// Reduction steps, when the engine counts them.
    pub steps: Option<u64>,
    /// Parallel cost on the machine (FCL) or span (TAIL), when reported.
    pub cost: Option<u64>,
    /// Total work, when reported.
    pub work: Option<u64>,
    pub millis: u128,
}

impl Outcome {
    /// An outcome with no statistics.
    pub fn new(stdout: impl Into<String>, status: RunStatus, millis: u128) -> Outcome {
        Outcome {
            stdout: stdout.into(),
            status,
            steps: None,
            cost: None,
            work: None,
            millis,
        }
    }
}

/// Something that runs conformance tests: the oracle, the OpenCL compiler, a test double.
/// Engines are shared by the threads of a run of several jobs ([`super::run_suite_with`]).
pub trait Engine: Sync {
    /// The name in the report's `engine` column (`oracle`, `opencl`, ...).
    fn name(&self) -> &str;
    /// The report's `device` column (`cpu` for the oracle, an OpenCL device name otherwise).
    fn device(&self) -> String;
    /// Whether this engine runs programs of this language at all; tests it does not apply to
    /// are reported as `skip`.
    fn applies_to(&self, lang: Lang) -> bool;
    /// Whether the engine detects the run-time errors of programs in `lang`. Compiled FCL does
    /// not check bounds, races or holes — what it does there is undefined, as on a GPU — so
    /// tests that expect one are skipped on such engines and the oracle judges them; compiled
    /// TAIL checks what the TAIL semantics checks (docs/tail-compiler.md §6).
    fn detects_runtime_errors(&self, _lang: Lang) -> bool {
        true
    }
    /// Runs one test. Must not panic on bad programs: failures are [`RunStatus`]es.
    fn run(&self, test: &TestCase) -> Outcome;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_fall_into_classes() {
        assert_eq!(ErrorClass::of_kind("parse-error"), ErrorClass::Static);
        assert_eq!(ErrorClass::of_kind("type-error"), ErrorClass::Static);
        assert_eq!(ErrorClass::of_kind("step-limit"), ErrorClass::Limit);
        assert_eq!(
            ErrorClass::of_kind("index-out-of-bounds"),
            ErrorClass::Runtime
        );
        assert_eq!(ErrorClass::of_kind("race"), ErrorClass::Runtime);
        assert_eq!(ErrorClass::Runtime.exit_code(), 3);
    }
}
