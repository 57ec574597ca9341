//! Oclgrind's reports as launch failures. Oclgrind (an OpenCL simulator, run as `oclgrind
//! --data-races --log FILE tailfcl …`) reports data races, barrier divergence, out-of-bounds and
//! other invalid accesses as text, and lets the kernel finish: its results may even be right,
//! as it runs work-items one after another. Under `--log FILE` (the wrapper passes it to the
//! process as `OCLGRIND_LOG`), the runtime reads what a launch added to that file and fails the
//! launch with the first report, so a race in generated code is a failed program, saved and
//! shrunk like any other. Without `--log` the reports only reach stderr.
//!
//! The file is one per process tree: each process that loads Oclgrind truncates it when it
//! starts, so the runtime rereads it from the start when it shrinks. Two processes or threads
//! launching at once could see each other's reports: run Oclgrind campaigns with one job.

use super::RuntimeError;
use std::io::{Read, Seek, SeekFrom};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

/// The log of the Oclgrind run this process belongs to, and how much of it was seen.
pub(super) struct ErrorLog {
    path: PathBuf,
    seen: AtomicU64,
}

/// The most lines of a report the error message keeps.
const REPORT_LINES: usize = 8;

impl ErrorLog {
    /// The log named by `OCLGRIND_LOG`, from its present end; `None` when not set.
    pub(super) fn from_env() -> Option<ErrorLog> {
        let path = PathBuf::from(std::env::var_os("OCLGRIND_LOG")?);
        let seen = std::fs::metadata(&path).map_or(0, |m| m.len());
        Some(ErrorLog {
            path,
            seen: AtomicU64::new(seen),
        })
    }

    /// An error carrying the first report written since the last call, if any.
    pub(super) fn check(&self, kernel: &str) -> Result<(), RuntimeError> {
        let Ok(mut f) = std::fs::File::open(&self.path) else {
            return Ok(());
        };
        let len = f.metadata().map_or(0, |m| m.len());
        let mut from = self.seen.load(Ordering::Relaxed);
        if len < from {
            // another process loading Oclgrind truncated it
            from = 0;
        }
        if len == from {
            return Ok(());
        }
        let mut text = String::new();
        if f.seek(SeekFrom::Start(from)).is_err() || f.read_to_string(&mut text).is_err() {
            return Ok(());
        }
        self.seen.store(from + text.len() as u64, Ordering::Relaxed);
        match first_report(&text) {
            Some(report) => Err(RuntimeError::Cl(format!(
                "kernel {kernel}: Oclgrind reported: {report}"
            ))),
            None => Ok(()),
        }
    }
}

/// Whether Oclgrind checks for reads of uninitialized memory (`oclgrind --uninitialized` sets
/// `OCLGRIND_UNINITIALIZED` for the process).
pub(super) fn checks_uninitialized() -> bool {
    std::env::var_os("OCLGRIND_UNINITIALIZED").is_some_and(|v| !v.is_empty() && v != "0")
}

/// The first report of `text` (its lines up to the first blank one, at most [`REPORT_LINES`]),
/// joined into one line; `None` when `text` holds nothing but blank lines.
pub fn first_report(text: &str) -> Option<String> {
    let lines: Vec<&str> = text
        .lines()
        .skip_while(|l| l.trim().is_empty())
        .take_while(|l| !l.trim().is_empty())
        .take(REPORT_LINES)
        .map(str::trim)
        .collect();
    (!lines.is_empty()).then(|| lines.join(" | "))
}

#[cfg(test)]
mod tests {
    use super::first_report;

    /// A race report as Oclgrind 21.10 writes it becomes one line with its first lines.
    #[test]
    fn first_report_takes_the_first_block() {
        let log = "\nRead-write data race at local memory address 0x1000000000000\n\tKernel: fcl_batch1\n\t\n\tFirst entity: Global(257,0,0)\nInvalid write of size 4\n";
        assert_eq!(
            first_report(log).as_deref(),
            Some(
                "Read-write data race at local memory address 0x1000000000000 | Kernel: fcl_batch1"
            )
        );
        assert_eq!(first_report("\n \n"), None);
    }
}
