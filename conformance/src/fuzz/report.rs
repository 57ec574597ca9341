//! A campaign's files as it runs: the CSV report (a [`ProgramResult`] per row), appended to row
//! by row (so that a killed campaign keeps what it found) and put in program order at the end,
//! and the saved failures.

use super::external::ExternalSide;
use super::oracle::Checked;
use super::{program_seed, FuzzLang, Verdict};
use crate::external::Judged;
use crate::gen::{generate_fcl, print_program, FclConfig, Rng};
use std::path::{Path, PathBuf};

/// The CSV header of a campaign's report. `engine` names, for a failure, the engine that
/// disagreed, else the engines the program was compared on (see [`engine_column`]).
pub const CSV_HEADER: [&str; 7] = [
    "index", "seed", "status", "bytes", "millis", "detail", "engine",
];

/// The engine a failing configuration belongs to: `opencl` (`compiled -O0`/`-O2`), `lowering`
/// (the TAIL-to-FCL lowering and the FCL oracle on its output), an external engine's name, or
/// `oracle` (machine shapes and schedules, the TAIL oracle against the generator).
pub fn engine_of_config(config: &str, external: &ExternalSide) -> String {
    if let Some(e) = external.engine_of(config) {
        return e.name.clone();
    }
    let lowering = [
        "tail lowering",
        "lowered fcl front end",
        "fcl oracle (lowered)",
    ];
    if config.starts_with("compiled") {
        "opencl".into()
    } else if lowering.contains(&config) {
        "lowering".into()
    } else {
        "oracle".into()
    }
}

/// The `engine` column of a program's row: the failing engine, or for a pass the engines it
/// was compared on (`oracle`, `opencl` when the compiled side ran, each external engine that
/// accepted it), joined by `+`.
pub fn engine_column(
    checked: &Checked,
    compiled: bool,
    external: &ExternalSide,
    judged: &[Judged],
) -> String {
    match &checked.verdict {
        Verdict::Mismatch { config, .. } => engine_of_config(config, external),
        Verdict::Invalid(_) => "oracle".into(),
        Verdict::Pass => {
            let mut engines = vec!["oracle".to_string()];
            if compiled && checked.unsupported.is_none() {
                engines.push("opencl".into());
            }
            for (e, j) in external.engines.iter().zip(judged) {
                if *j == Judged::Accepted {
                    engines.push(e.name.clone());
                }
            }
            engines.join("+")
        }
    }
}

/// The outcome of one program, one CSV row.
#[derive(Clone, Debug)]
pub struct ProgramResult {
    pub index: u64,
    pub seed: u64,
    pub verdict: Verdict,
    pub bytes: usize,
    pub millis: u128,
    /// Why the compiled side was skipped (the compiler or the TAIL lowering declined).
    pub unsupported: Option<String>,
    /// The CSV's `engine` column: for a failure the engine that disagreed (`oracle`,
    /// `lowering`, `opencl` or an external engine's name), else the engines the program was
    /// compared on, joined by `+`.
    pub engine: String,
    /// Each external engine's judgement (in the campaign's order; empty when none ran).
    pub external: Vec<(String, Judged)>,
}

impl ProgramResult {
    /// The program's CSV row (see [`CSV_HEADER`]).
    pub fn csv_row(&self) -> [String; 7] {
        let (status, detail) = match &self.verdict {
            Verdict::Pass => {
                let mut notes: Vec<String> = self
                    .unsupported
                    .iter()
                    .map(|why| format!("unsupported: {why}"))
                    .collect();
                for (name, judged) in &self.external {
                    if let Judged::Rejected(why) = judged {
                        notes.push(format!("rejected by {name}: {why}"));
                    }
                }
                ("pass", notes.join("; "))
            }
            Verdict::Invalid(why) => ("invalid", why.clone()),
            Verdict::Mismatch { config, .. } => ("fail", config.clone()),
        };
        [
            self.index.to_string(),
            self.seed.to_string(),
            status.to_string(),
            self.bytes.to_string(),
            self.millis.to_string(),
            detail,
            self.engine.clone(),
        ]
    }
}

/// Appends `row` to the CSV file at `path`, with the header first when the file is new or
/// empty. Errors are ignored: the final report is written again in full at the end.
pub fn append_csv_row(path: &Path, row: &[String]) {
    let new = std::fs::metadata(path).map_or(true, |m| m.len() == 0);
    let Ok(f) = std::fs::File::options()
        .create(true)
        .append(true)
        .open(path)
    else {
        return;
    };
    let mut w = csv::Writer::from_writer(f);
    if new {
        let _ = w.write_record(CSV_HEADER);
    }
    let _ = w.write_record(row);
    let _ = w.flush();
}

/// Rewrites the CSV report at `path` with its rows in program order; the numbers of passed
/// and failed programs in it.
pub fn sort_report(path: &Path) -> (usize, usize) {
    let Ok(mut reader) = csv::Reader::from_path(path) else {
        return (0, 0);
    };
    let mut rows: Vec<csv::StringRecord> = reader.records().filter_map(Result::ok).collect();
    rows.sort_by_key(|r| {
        r.get(0)
            .and_then(|k| k.parse::<u64>().ok())
            .unwrap_or(u64::MAX)
    });
    let count = |s: &str| rows.iter().filter(|r| r.get(2) == Some(s)).count();
    let (passed, failed) = (count("pass"), count("fail"));
    if let Ok(mut w) = csv::Writer::from_path(path) {
        let _ = w.write_record(CSV_HEADER);
        for r in &rows {
            let _ = w.write_record(r);
        }
        let _ = w.flush();
    }
    (passed, failed)
}

/// The source of program `k` of a campaign of `lang` seeded `seed` (FCL with `config`), as the
/// campaign generates it.
pub fn program_source(lang: FuzzLang, config: &FclConfig, seed: u64, k: u64) -> String {
    let mut rng = Rng::new(program_seed(seed, k));
    match lang {
        FuzzLang::Fcl => print_program(&generate_fcl(&mut rng, config)),
        FuzzLang::Tail => crate::gen::tail_gen::generate_tail(&mut rng, 8).source,
    }
}

/// Saves program `k`, which took the checking process down (`why`: a crash or a hang), as a
/// failure `LANG-SEED-K` under `dir`; the files written.
pub fn save_contained(
    dir: &Path,
    lang: FuzzLang,
    config: &FclConfig,
    seed: u64,
    k: u64,
    why: &str,
) -> Vec<PathBuf> {
    let ext = match lang {
        FuzzLang::Fcl => "fcl",
        FuzzLang::Tail => "tail",
    };
    let verdict = Verdict::Mismatch {
        config: why.to_string(),
        expected: "(the oracle's output: the checking process died before it was kept)".into(),
        got: why.to_string(),
    };
    let src = program_source(lang, config, seed, k);
    let stem = format!("{ext}-{seed}-{k}");
    save_failure(dir, &stem, ext, &src, program_seed(seed, k), &verdict)
}

/// Writes `STEM.EXT` (the program) and `STEM.txt` (seed and both outputs) under `dir`.
pub(super) fn save_failure(
    dir: &Path,
    stem: &str,
    ext: &str,
    src: &str,
    seed: u64,
    v: &Verdict,
) -> Vec<PathBuf> {
    let mut written = Vec::new();
    if std::fs::create_dir_all(dir).is_err() {
        return written;
    }
    let prog = dir.join(format!("{stem}.{ext}"));
    if std::fs::write(&prog, src).is_ok() {
        written.push(prog);
    }
    let detail = match v {
        Verdict::Mismatch {
            config,
            expected,
            got,
        } => format!(
            "seed: {seed}\nmismatch on: {config}\nreference (oracle 1x1 in-order):\n{expected}\n\n{config}:\n{got}\n"
        ),
        other => format!("seed: {seed}\n{other:?}\n"),
    };
    let info = dir.join(format!("{stem}.txt"));
    if std::fs::write(&info, detail).is_ok() {
        written.push(info);
    }
    written
}
