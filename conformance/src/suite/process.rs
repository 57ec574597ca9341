//! Running a child process with its output captured and a time limit: what every engine that
//! shells out needs (the `tailfcl` engines of [`super::CliEngine`], the external engines of
//! [`crate::external`]).

use std::io::Read;
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How a captured run ended.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Captured {
    /// The exit status; `None` when a signal ended it or it was killed.
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    /// Killed at the time limit.
    pub timed_out: bool,
    pub millis: u128,
}

/// Runs `cmd` with stdin closed and stdout and stderr captured, killing it (and every process
/// it started: it runs in a process group of its own, so a shell's children die with it) after
/// `timeout`. An error only when it cannot be started.
pub fn run_captured(mut cmd: Command, timeout: Duration) -> std::io::Result<Captured> {
    let start = Instant::now();
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()?;
    // read both pipes on threads so a chatty program cannot fill a pipe and block
    let mut stdout_pipe = child.stdout.take();
    let mut stderr_pipe = child.stderr.take();
    let out_reader = std::thread::spawn(move || read_all(stdout_pipe.as_mut()));
    let err_reader = std::thread::spawn(move || read_all(stderr_pipe.as_mut()));
    let mut timed_out = false;
    let code = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status.code(),
            Ok(None) if start.elapsed() > timeout => {
                kill_group(&mut child);
                timed_out = true;
                break None;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(2)),
            Err(_) => {
                kill_group(&mut child);
                break None;
            }
        }
    };
    let stdout = out_reader.join().unwrap_or_default();
    let stderr = err_reader.join().unwrap_or_default();
    Ok(Captured {
        code,
        stdout,
        stderr,
        timed_out,
        millis: start.elapsed().as_millis(),
    })
}

/// Kills the child's whole process group (a shell's grandchildren would otherwise keep the
/// pipes open, and the readers waiting), then the child itself.
fn kill_group(child: &mut std::process::Child) {
    let _ = Command::new("kill")
        .args(["-KILL", "--", &format!("-{}", child.id())])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    let _ = child.kill();
    let _ = child.wait();
}

fn read_all(pipe: Option<&mut impl Read>) -> String {
    let mut bytes = Vec::new();
    if let Some(p) = pipe {
        let _ = p.read_to_end(&mut bytes);
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn captures_output_and_status() {
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "echo out; echo err >&2; exit 3"]);
        let c = run_captured(cmd, Duration::from_secs(10)).unwrap();
        assert_eq!(
            (c.code, c.stdout.as_str(), c.stderr.as_str()),
            (Some(3), "out\n", "err\n")
        );
        assert!(!c.timed_out);
    }

    #[test]
    fn a_hang_is_killed_with_its_children() {
        let mut cmd = Command::new("sh");
        // the sleep is a grandchild holding stdout open: the group kill ends it too
        cmd.args(["-c", "sleep 30 | cat; echo never"]);
        let c = run_captured(cmd, Duration::from_millis(300)).unwrap();
        assert!(c.timed_out);
        assert!(c.millis < 10_000, "took {} ms", c.millis);
        assert_eq!(c.stdout, "");
    }
}
