//! A campaign's journal, for the process that contains it (`tailfcl fuzz` runs its campaign in a
//! child process, so that a crash or hang of what it tests cannot take it down). When the
//! environment names a file in [`JOURNAL_ENV`], the campaign appends one line per step there,
//! flushed at once, so that after the child dies the parent knows which program it was on:
//!
//! * `start K K …`: a batch of programs begins (generation and the oracles);
//! * `oracle K`: program K's oracle check begins;
//! * `build`: the batch's compiled side is being built (no program is to blame alone);
//! * `run K`: a compiled module of program K is running (also while shrinking it);
//! * `external K`: an external engine is running program K (also while shrinking it; a line
//!   that only shows progress, since an external engine runs in a process of its own);
//! * `done K`: program K's result is in the report.
//!
//! Without the variable, nothing is written.

use std::fs::File;
use std::io::Write;
use std::sync::{Mutex, OnceLock};

/// The variable naming the journal file.
pub const JOURNAL_ENV: &str = "TAILFCL_FUZZ_JOURNAL";

static JOURNAL: OnceLock<Option<Mutex<File>>> = OnceLock::new();

/// Appends `line` to the journal, if there is one.
pub fn note(line: std::fmt::Arguments) {
    let journal = JOURNAL.get_or_init(|| {
        let path = std::env::var_os(JOURNAL_ENV)?;
        File::options()
            .create(true)
            .append(true)
            .open(path)
            .ok()
            .map(Mutex::new)
    });
    if let Some(f) = journal {
        let mut f = f.lock().unwrap_or_else(|e| e.into_inner());
        // a lost line only blurs the blame for a crash
        let _ = writeln!(f, "{line}");
        let _ = f.flush();
    }
}

/// Where a journal says its campaign was when it stopped.
#[derive(Debug, Default, PartialEq)]
pub struct Position {
    /// The programs begun and not done, in the order they began (with several workers,
    /// several batches).
    pub open: Vec<u64>,
    /// The program being checked alone at that moment (`oracle K`, `run K`), if any.
    pub current: Option<u64>,
    /// Every program whose result was reported.
    pub done: Vec<u64>,
}

/// Reads a journal's text.
pub fn position(text: &str) -> Position {
    let mut p = Position::default();
    for line in text.lines() {
        let mut words = line.split_whitespace();
        let ks = |w: std::str::SplitWhitespace| w.filter_map(|k| k.parse().ok()).collect();
        match words.next() {
            Some("start") => {
                let batch: Vec<u64> = ks(words);
                p.open.extend(batch);
                p.current = None;
            }
            Some("oracle" | "run") => p.current = words.next().and_then(|k| k.parse().ok()),
            Some("build") => p.current = None,
            Some("done") => {
                if let Some(k) = words.next().and_then(|k| k.parse::<u64>().ok()) {
                    p.open.retain(|&o| o != k);
                    p.done.push(k);
                }
                p.current = None;
            }
            _ => {}
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The blame goes to the program announced last, none while a batch builds.
    #[test]
    fn position_follows_the_last_announcement() {
        let p = position("start 0 1 2\noracle 0\noracle 1\noracle 2\nbuild\nrun 0\nrun 1\n");
        assert_eq!(p.open, [0, 1, 2]);
        assert_eq!(p.current, Some(1));
        let p = position("start 0 1\noracle 1\nbuild\nrun 0\nrun 1\ndone 0\ndone 1\nstart 2 3\noracle 2\noracle 3\nbuild\n");
        assert_eq!((p.open, p.current, p.done), (vec![2, 3], None, vec![0, 1]));
    }
}
