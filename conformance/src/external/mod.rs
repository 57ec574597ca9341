//! External engines: a compiler under test, run as a shell command. `--external NAME=TEMPLATE`
//! (for `conform` and `fuzz`) names one; TEMPLATE is a `sh -c` command line in which `{}`
//! becomes the program's files, shell-quoted, in order (shared library files first, the
//! program last). It runs in the program's folder (a fuzz campaign's: a scratch folder holding
//! only the program) with stdin closed and a time limit. Its stdout is the program's output.
//!
//! What a run means ([`Judged`]): exit 0 with the expected output passes; exit 0 with other
//! output is a mismatch; any other exit on a valid program is a rejection (the compiler
//! declines it: reported with the last lines of its stderr, not a failure unless the campaign
//! says so); on a test that expects an error, any non-zero exit is that error. A run past the
//! time limit is a rejection too (`timed out`), for a campaign, and an engine error for
//! `conform`, as for every engine there.

mod suite;

pub use suite::ExternalSuiteEngine;

use crate::suite::{run_captured, Captured};
use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// The time limit of one external run unless `--external-timeout` says otherwise.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// How many lines of its stderr a rejection reports.
pub const STDERR_LINES: usize = 3;

/// The names an external engine may not take: the project's own engines.
const RESERVED: [&str; 2] = ["oracle", "opencl"];

/// One external engine: `NAME=TEMPLATE`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExternalEngine {
    pub name: String,
    pub template: String,
    pub timeout: Duration,
}

impl ExternalEngine {
    /// Reads `NAME=TEMPLATE`: NAME is letters, digits, `-`, `_` or `.` (it names the engine in
    /// reports and statistics), not `oracle` or `opencl`; TEMPLATE is not empty.
    pub fn parse(spec: &str, timeout: Duration) -> Result<ExternalEngine, String> {
        let Some((name, template)) = spec.split_once('=') else {
            return Err(format!(
                "bad --external `{spec}`: expected NAME=TEMPLATE, e.g. mycc='mycc {{}} && ./a.out'"
            ));
        };
        let name = name.trim();
        let good = |c: char| c.is_ascii_alphanumeric() || "-_.".contains(c);
        if name.is_empty() || !name.chars().all(good) {
            return Err(format!(
                "bad --external name `{name}`: use letters, digits, `-`, `_` and `.`"
            ));
        }
        if RESERVED.contains(&name) {
            return Err(format!(
                "bad --external name `{name}`: {} are tailfcl's own engines",
                RESERVED.join(" and ")
            ));
        }
        if template.trim().is_empty() {
            return Err(format!("bad --external `{spec}`: the command is empty"));
        }
        Ok(ExternalEngine {
            name: name.to_string(),
            template: template.to_string(),
            timeout,
        })
    }

    /// The command line for `files`: every `{}` of the template replaced by the files,
    /// shell-quoted and separated by spaces (a template without `{}` gets them at its end).
    pub fn command_line(&self, files: &[&str]) -> String {
        let quoted: Vec<String> = files.iter().map(|f| shell_quote(f)).collect();
        let list = quoted.join(" ");
        if self.template.contains("{}") {
            self.template.replace("{}", &list)
        } else {
            format!("{} {list}", self.template)
        }
    }

    /// Runs the engine on `files` (paths relative to `dir`) in `dir`, with `env` added to its
    /// environment. An error only when `sh` cannot be started.
    pub fn run(
        &self,
        dir: &Path,
        files: &[&str],
        env: &[(&str, String)],
    ) -> Result<Captured, String> {
        let mut cmd = Command::new("sh");
        cmd.arg("-c").arg(self.command_line(files)).current_dir(dir);
        for (k, v) in env {
            cmd.env(k, v);
        }
        run_captured(cmd, self.timeout).map_err(|e| format!("cannot start sh: {e}"))
    }
}

/// `s` quoted for `sh`: as it is when it holds only safe characters, else in single quotes.
pub fn shell_quote(s: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "-_./=+,:@%".contains(c);
    if !s.is_empty() && s.chars().all(safe) {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// The last `n` non-empty lines of `stderr`, joined with ` | ` (one line for a report).
pub fn last_lines(stderr: &str, n: usize) -> String {
    let lines: Vec<&str> = stderr
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    lines[lines.len().saturating_sub(n)..].join(" | ")
}

/// What an external run on a valid program means.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Judged {
    /// Exit 0 and the expected output.
    Accepted,
    /// A non-zero exit, a signal or the time limit: why (the exit and the last stderr lines).
    Rejected(String),
    /// Exit 0 and other output: what it printed.
    Mismatched(String),
}

/// Judges a run on a valid program with expected output; `agree` compares the expected output
/// with what the engine printed (the suite's rules: exact, or numbers within a tolerance).
pub fn judge_run(run: &Captured, agree: impl FnOnce(&str) -> bool) -> Judged {
    match run.code {
        Some(0) if agree(&run.stdout) => Judged::Accepted,
        Some(0) => Judged::Mismatched(run.stdout.clone()),
        _ => Judged::Rejected(rejection(run)),
    }
}

/// Why a run that did not exit 0 ended, with the last lines of its stderr.
pub fn rejection(run: &Captured) -> String {
    let how = match (run.timed_out, run.code) {
        (true, _) => "timed out".to_string(),
        (false, Some(c)) => format!("exit {c}"),
        (false, None) => "killed by a signal".to_string(),
    };
    let tail = last_lines(&run.stderr, STDERR_LINES);
    if tail.is_empty() {
        how
    } else {
        format!("{how}: {tail}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn engine(spec: &str) -> ExternalEngine {
        ExternalEngine::parse(spec, DEFAULT_TIMEOUT).unwrap()
    }

    #[test]
    fn parses_name_and_template() {
        let e = engine("my-cc=mycc {} && ./a.out");
        assert_eq!(
            (e.name.as_str(), e.template.as_str()),
            ("my-cc", "mycc {} && ./a.out")
        );
        // the template may itself hold `=`
        assert_eq!(engine("x=A=1 run {}").template, "A=1 run {}");
        for bad in [
            "noequals",
            "=cmd {}",
            "a b=cmd",
            "oracle=cmd",
            "opencl=x",
            "x=  ",
        ] {
            assert!(
                ExternalEngine::parse(bad, DEFAULT_TIMEOUT).is_err(),
                "{bad}"
            );
        }
    }

    #[test]
    fn files_are_quoted_in_order() {
        let e = engine("x=cc {} -o out");
        assert_eq!(
            e.command_line(&["lib.fcl", "my prog.fcl"]),
            "cc lib.fcl 'my prog.fcl' -o out"
        );
        assert_eq!(engine("x=cat").command_line(&["a.fcl"]), "cat a.fcl");
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
        assert_eq!(shell_quote(""), "''");
    }

    #[test]
    fn judges_pass_reject_and_mismatch() {
        let dir = std::env::temp_dir();
        let run = |t: &str| engine(&format!("x={t}")).run(&dir, &[], &[]).unwrap();
        let want = |got: &str| got == "[1,2]\n";
        assert_eq!(judge_run(&run("echo '[1,2]'"), want), Judged::Accepted);
        assert_eq!(
            judge_run(&run("echo '[1,3]'"), want),
            Judged::Mismatched("[1,3]\n".into())
        );
        assert_eq!(
            judge_run(&run("echo a >&2; echo b >&2; exit 4"), want),
            Judged::Rejected("exit 4: a | b".into())
        );
    }
}
