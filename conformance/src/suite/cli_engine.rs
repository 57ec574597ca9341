//! An engine that runs the `tailfcl` binary: `tailfcl run` (the oracle) or `tailfcl exec` (the
//! OpenCL compiler). It depends only on the command-line contract of docs/design.md (output
//! on stdout, exit statuses 0/2/3/4/5/6, `--stats` on stderr), not on the engines' crates.

use super::discover::{Lang, TestCase};
use super::engine::{Engine, ErrorClass, Outcome, RunStatus};
use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

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

    fn detects_runtime_errors(&self) -> bool {
        // Only the oracle (`run`) checks bounds, races and holes.
        self.subcommand == "run"
    }

    fn run(&self, test: &TestCase) -> Outcome {
        let start = Instant::now();
        // The program runs from its own folder: file-reading operators use relative paths.
        let dir = test.program.parent().map(PathBuf::from).unwrap_or_default();
        let mut args = self.arguments(test);
        args[1] = test
            .program
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_default();
        let child = Command::new(&self.binary)
            .args(&args)
            .current_dir(if dir.as_os_str().is_empty() {
                PathBuf::from(".")
            } else {
                dir
            })
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn();
        let mut child = match child {
            Ok(c) => c,
            Err(e) => {
                return Outcome::new(
                    "",
                    RunStatus::Unavailable(format!("cannot start {}: {e}", self.binary.display())),
                    0,
                )
            }
        };
        // Read both pipes on threads so a chatty program cannot fill a pipe and block.
        let mut stdout_pipe = child.stdout.take();
        let mut stderr_pipe = child.stderr.take();
        let out_reader = std::thread::spawn(move || read_all(stdout_pipe.as_mut()));
        let err_reader = std::thread::spawn(move || read_all(stderr_pipe.as_mut()));
        let code = loop {
            match child.try_wait() {
                Ok(Some(status)) => break status.code(),
                Ok(None) if start.elapsed() > self.timeout => {
                    let _ = child.kill();
                    let _ = child.wait();
                    let millis = start.elapsed().as_millis();
                    return Outcome::new(
                        "",
                        RunStatus::Crashed(format!("timed out after {:?}", self.timeout)),
                        millis,
                    );
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(5)),
                Err(e) => break break_with_error(&mut child, &e),
            }
        };
        let stdout = out_reader.join().unwrap_or_default();
        let stderr = err_reader.join().unwrap_or_default();
        let millis = start.elapsed().as_millis();
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

fn break_with_error(child: &mut std::process::Child, e: &std::io::Error) -> Option<i32> {
    let _ = child.kill();
    let _ = child.wait();
    eprintln!("conform: waiting for the engine failed: {e}");
    None
}

fn read_all(pipe: Option<&mut impl Read>) -> String {
    let mut bytes = Vec::new();
    if let Some(p) = pipe {
        let _ = p.read_to_end(&mut bytes);
    }
    String::from_utf8_lossy(&bytes).into_owned()
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
