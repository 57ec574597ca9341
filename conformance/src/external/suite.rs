//! An external engine as a conformance-suite [`Engine`]: the test's program runs through the
//! template in the test's folder; exit 0 is a completed run (its stdout judged by the suite's
//! rules, tolerance included), any other exit a [`RunStatus::Rejected`] (`reject` on a test with
//! expected output, a pass on a test that expects an error), the time limit an engine error.

use super::{rejection, ExternalEngine};
use crate::suite::{Engine, Lang, Outcome, RunStatus, TestCase};
use std::path::PathBuf;

/// The environment variable that carries a test's `NAME.machine` (`BxT`) to an external
/// engine, for compilers that take a launch geometry.
pub const MACHINE_ENV: &str = "TAILFCL_MACHINE";

/// An [`ExternalEngine`] running conformance tests.
#[derive(Clone, Debug)]
pub struct ExternalSuiteEngine(pub ExternalEngine);

impl Engine for ExternalSuiteEngine {
    fn name(&self) -> &str {
        &self.0.name
    }

    fn device(&self) -> String {
        "external".into()
    }

    fn applies_to(&self, _lang: Lang) -> bool {
        true
    }

    fn detects_runtime_errors(&self, _lang: Lang) -> bool {
        // compiled code does not check bounds, races or holes (undefined, as on a GPU): as for
        // `opencl`, tests expecting a run-time error are the oracle's to judge
        false
    }

    fn run(&self, test: &TestCase) -> Outcome {
        let dir = match test.program.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let file = test
            .program
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_default();
        let env: Vec<(&str, String)> = test
            .machine
            .iter()
            .map(|m| (MACHINE_ENV, m.clone()))
            .collect();
        let run = match self.0.run(&dir, &[&file], &env) {
            Ok(run) => run,
            Err(why) => return Outcome::new("", RunStatus::Unavailable(why), 0),
        };
        let status = match (run.timed_out, run.code) {
            (true, _) => RunStatus::Crashed(format!("timed out after {:?}", self.0.timeout)),
            (false, Some(0)) => RunStatus::Completed,
            _ => RunStatus::Rejected(rejection(&run)),
        };
        Outcome::new(run.stdout, status, run.millis)
    }
}
