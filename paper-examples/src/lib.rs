//! Every example of the seed papers, as runnable programs with independently computed expected
//! results (see README.md in this folder).
//!
//! The examples live in one folder per seed; each is a conformance test in the format of
//! docs/design.md (`NAME.tail`/`NAME.fcl` with `NAME.expected` or `NAME.expected-error`, and
//! optionally `NAME.machine`). The expected files are written by the Python scripts in
//! `scripts/`, which compute them from the papers' definitions without running tailfcl.

use std::path::PathBuf;

/// The folders of examples, one per seed paper.
pub const SEED_FOLDERS: [&str; 5] = [
    "seed000-push",
    "seed001-talk",
    "seed002-moa",
    "seed003-dps",
    "seed004-thesis",
];

/// The `paper-examples` folder.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The folder of each seed's examples.
pub fn seed_dirs() -> Vec<PathBuf> {
    SEED_FOLDERS.iter().map(|f| root().join(f)).collect()
}
