//! An engine that runs the `tailfcl` binary: `tailfcl run` (the oracle) or `tailfcl exec` (the
//! OpenCL compiler). It depends only on the command-line contract of docs/design.md (output
//! on stdout, exit statuses 0/2/3/4/5/6, `--stats` on stderr), not on the engines' crates.

use super::discover::{Lang, TestCase};
use super::engine::{Engine, ErrorClass, Outcome, RunStatus};
use super::process::{run_captured, Captured};
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

/// What `tailfcl` prints for a command that does not exist yet (src/cli); such runs are skipped.
const NOT_BUILT: &str = "is not built yet";

/// Runs tests through a `tailfcl` subcommand.
#[derive(Clone, Debug)]
pub struct CliEngine {
    name: String,
    binary: PathBuf,
    subcommand: String,
    extra_args: Vec<String>,
    device: String,
    languages: Vec<Lang>,
    timeout: Duration,
}

impl CliEngine {
    /// The oracle: `tailfcl run --stats`, on both languages, device `cpu`.
    pub fn oracle(binary: PathBuf) -> CliEngine {
        CliEngine {
            name: "oracle".into(),
            binary,
            subcommand: "run".into(),
            extra_args: vec!["--stats".into()],
            device: "cpu".into(),
            languages: vec![Lang::Tail, Lang::Fcl],
            timeout: Duration::from_secs(120),
        }
    }

    /// The compiler: `tailfcl exec --device N`: FCL compiled to OpenCL, TAIL lowered to FCL
    /// first (compiler::tail).
    pub fn opencl(binary: PathBuf, device: usize) -> CliEngine {
        CliEngine {
            name: "opencl".into(),
            binary,
            subcommand: "exec".into(),
            extra_args: vec!["--device".into(), device.to_string()],
            device: format!("opencl:{device}"),
            languages: vec![Lang::Tail, Lang::Fcl],
            timeout: Duration::from_secs(120),
        }
    }

    /// The same engine with another time limit per test.
    pub fn with_timeout(mut self, timeout: Duration) -> CliEngine {
        self.timeout = timeout;
        self
    }

    fn arguments(&self, test: &TestCase) -> Vec<String> {
        let mut args = vec![
            self.subcommand.clone(),
            test.program.to_string_lossy().into_owned(),
        ];
        args.extend(self.extra_args.iter().cloned());
        if let (Some(machine), "run") = (&test.machine, self.subcommand.as_str()) {
            args.push("--machine".into());
            args.push(machine.clone());
        }
        args
    }
}

impl Engine for CliEngine {
    fn name(&self) -> &str {
        &self.name
    }

    fn device(&self) -> String {
        self.device.clone()
    }

    fn applies_to(&self, lang: Lang) -> bool {
        self.languages.contains(&lang)
    }

    fn detects_runtime_errors(&self, lang: Lang) -> bool {
        // The oracle (`run`) checks bounds, races and holes; compiled TAIL (`exec`) fails with
        // the oracle's rule where the TAIL semantics fails
        self.subcommand == "run" || (self.subcommand == "exec" && lang == Lang::Tail)
    }

    fn run(&self, test: &TestCase) -> Outcome {
        // The program runs from its own folder: file-reading operators use relative paths.
        let dir = test.program.parent().map(PathBuf::from).unwrap_or_default();
        let mut args = self.arguments(test);
        args[1] = test
            .program
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut cmd = Command::new(&self.binary);
        cmd.args(&args).current_dir(if dir.as_os_str().is_empty() {
            PathBuf::from(".")
        } else {
            dir
        });
        let captured = match run_captured(cmd, self.timeout) {
            Ok(c) => c,
            Err(e) => {
                return Outcome::new(
                    "",
                    RunStatus::Unavailable(format!("cannot start {}: {e}", self.binary.display())),
                    0,
                )
            }
        };
        if captured.timed_out {
            return Outcome::new(
                "",
                RunStatus::Crashed(format!("timed out after {:?}", self.timeout)),
                captured.millis,
            );
        }
        let Captured {
            code,
            stdout,
            stderr,
            millis,
            ..
        } = captured;
        let message = stderr
            .lines()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("")
            .trim()
            .to_string();
        let status = match code {
            Some(0) => RunStatus::Completed,
            Some(2) if stderr.contains(NOT_BUILT) => RunStatus::Unavailable(message.clone()),
            Some(2) => RunStatus::ProgramError {
                class: ErrorClass::Static,
                kind: None,
                message: message.clone(),
            },
            Some(3) => RunStatus::ProgramError {
                class: ErrorClass::Runtime,
                kind: None,
                message: message.clone(),
            },
            Some(4) => RunStatus::ProgramError {
                class: ErrorClass::Limit,
                kind: None,
                message: message.clone(),
            },
            Some(5) => RunStatus::Unavailable(format!("no OpenCL device: {message}")),
            // The compiler declines the program (well-typed, outside what it handles): the
            // engine does not apply, as with no device; the report says why.
            Some(6) if message.starts_with("unsupported") => {
                RunStatus::Unavailable(message.clone())
            }
            Some(6) => RunStatus::Unavailable(format!("unsupported: {message}")),
            Some(c) => RunStatus::Crashed(format!("exit status {c}: {message}")),
            None => RunStatus::Crashed(format!("killed by a signal: {message}")),
        };
        let mut outcome = Outcome::new(stdout, status, millis);
        outcome.steps = statistic(&stderr, "steps");
        outcome.cost = statistic(&stderr, "cost");
        outcome.work = statistic(&stderr, "work");
        outcome
    }
}

/// The number after `name` in `--stats` output (`steps: 12`, `cost=3`, `work 40`), if any.
fn statistic(stderr: &str, name: &str) -> Option<u64> {
    for line in stderr.lines() {
        let lower = line.to_ascii_lowercase();
        let mut rest = lower.as_str();
        while let Some(at) = rest.find(name) {
            let before_ok = at == 0 || !rest.as_bytes()[at - 1].is_ascii_alphanumeric();
            let after = rest[at + name.len()..].trim_start_matches([':', '=', ' ', '\t']);
            let digits: String = after.chars().take_while(|c| c.is_ascii_digit()).collect();
            if before_ok && !digits.is_empty() {
                return digits.parse().ok();
            }
            rest = &rest[at + name.len()..];
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_statistics_in_several_spellings() {
        let err = "steps: 120\ncost=7 work 30\nspan: 4\n";
        assert_eq!(statistic(err, "steps"), Some(120));
        assert_eq!(statistic(err, "cost"), Some(7));
        assert_eq!(statistic(err, "work"), Some(30));
        assert_eq!(statistic("worker 3", "work"), None);
        assert_eq!(statistic("", "steps"), None);
    }

    #[test]
    fn a_missing_binary_is_unavailable_not_a_crash() {
        let engine = CliEngine::oracle(PathBuf::from("/nonexistent/tailfcl"));
        let test = TestCase {
            name: "t".into(),
            program: PathBuf::from("t.tail"),
            lang: Lang::Tail,
            expectation: super::super::Expectation::Output(String::new()),
            machine: None,
            tolerance: None,
        };
        assert!(matches!(
            engine.run(&test).status,
            RunStatus::Unavailable(_)
        ));
    }
}
