//! The differential fuzzer behind `tailfcl fuzz`: generate programs from a seed, check each one
//! ([`oracle::check_fcl`]), save and shrink failures, and gather statistics.
//!
//! Determinism: program k of a campaign with seed S is generated from its own seed
//! [`program_seed`]`(S, k)`, so the same seed gives the same programs whatever the shard or job
//! count; program k belongs to shard `k mod N`.

pub mod compiled;
pub mod mutation;
pub mod oracle;
pub mod stats;
pub mod tail;

use crate::gen::{generate_fcl, print_program, FclConfig, Rng};
use crate::shrink;
use compiler::runtime::Runtime;
pub use oracle::{check_fcl, check_fcl_on, Verdict};
use stats::Stats;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// The seed of program `k` of a campaign seeded with `seed`.
pub fn program_seed(seed: u64, k: u64) -> u64 {
    Rng::new(seed ^ k.wrapping_mul(0xd1b5_4a32_d192_ed03)).next_u64()
}

/// The differential check a campaign applies to each program (source, program seed, device).
pub type Checker = fn(&str, u64, Option<&Runtime>) -> oracle::Checked;

/// Which language a campaign generates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FuzzLang {
    Fcl,
    Tail,
}

/// What to run.
#[derive(Clone, Debug)]
pub struct Campaign {
    pub lang: FuzzLang,
    /// Normally [`check_fcl_on`]; tests substitute a stand-in to exercise the failure path.
    pub checker: Checker,
    pub count: u64,
    pub seed: u64,
    pub jobs: usize,
    /// `(i, n)`: only programs with `k mod n == i`.
    pub shard: (u64, u64),
    /// Where failures go; `None` keeps them in memory only.
    pub save: Option<PathBuf>,
    pub config: FclConfig,
    /// Candidates tried at most while shrinking one failure.
    pub shrink_tries: usize,
    /// Also compile each program at -O0 and -O2 and run it on this OpenCL device index.
    pub device: Option<usize>,
    /// A compiler fault injected into the compiled side (mutation testing).
    pub fault: Option<compiler::fault::Fault>,
}

/// The outcome of one program, one CSV row.
#[derive(Clone, Debug)]
pub struct ProgramResult {
    pub index: u64,
    pub seed: u64,
    pub verdict: Verdict,
    pub bytes: usize,
    pub millis: u128,
}

/// The outcome of a campaign.
#[derive(Debug, Default)]
pub struct CampaignResult {
    pub results: Vec<ProgramResult>,
    pub stats: Stats,
    /// Files written for failures.
    pub saved: Vec<PathBuf>,
    pub seconds: f64,
    /// Why the compiled comparison did not run (no device), when it was asked for.
    pub compiled_note: Option<String>,
}

impl CampaignResult {
    /// `N passed, N failed` (invalid programs are neither; see the statistics).
    pub fn summary(&self) -> String {
        format!("{} passed, {} failed", self.stats.passed, self.stats.failed)
    }

    /// Writes `index,seed,status,bytes,millis,detail` rows.
    pub fn write_csv<W: std::io::Write>(&self, w: W) -> Result<(), csv::Error> {
        let mut out = csv::Writer::from_writer(w);
        out.write_record(["index", "seed", "status", "bytes", "millis", "detail"])?;
        for r in &self.results {
            let (status, detail) = match &r.verdict {
                Verdict::Pass => ("pass", String::new()),
                Verdict::Invalid(why) => ("invalid", why.clone()),
                Verdict::Mismatch { config, .. } => ("fail", config.clone()),
            };
            out.write_record([
                r.index.to_string(),
                r.seed.to_string(),
                status.to_string(),
                r.bytes.to_string(),
                r.millis.to_string(),
                detail,
            ])?;
        }
        out.flush()?;
        Ok(())
    }
}

/// Runs the campaign on `jobs` threads; `progress(done, total)` is called after each program.
pub fn run_fcl_campaign(c: &Campaign, progress: &(dyn Fn(u64, u64) + Sync)) -> CampaignResult {
    let start = std::time::Instant::now();
    let (shard, shards) = c.shard;
    let mine: Vec<u64> = (0..c.count)
        .filter(|k| k % shards.max(1) == shard)
        .collect();
    let next = AtomicU64::new(0);
    let done = AtomicU64::new(0);
    let collected = Mutex::new((Vec::new(), Stats::default(), Vec::new()));
    let note = Mutex::new(None);
    // the OpenCL platform layer is not safe to initialise from several threads at once
    let opening = Mutex::new(());
    std::thread::scope(|s| {
        for _ in 0..c.jobs.max(1) {
            s.spawn(|| {
                // one runtime per worker (a runtime cannot move between threads)
                let rt = c.device.and_then(|d| {
                    let _one_at_a_time = opening.lock().unwrap_or_else(|e| e.into_inner());
                    match Runtime::new(d) {
                        Ok(rt) => Some(rt),
                        Err(e) => {
                            *note.lock().unwrap_or_else(|e| e.into_inner()) =
                                Some(format!("compiled comparison skipped: {e}"));
                            None
                        }
                    }
                });
                worker(c, &mine, &next, &done, &collected, rt.as_ref(), progress)
            });
        }
    });
    let (mut results, stats, saved) = collected.into_inner().unwrap_or_else(|e| e.into_inner());
    results.sort_by_key(|r: &ProgramResult| r.index);
    CampaignResult {
        results,
        stats,
        saved,
        seconds: start.elapsed().as_secs_f64(),
        compiled_note: note.into_inner().unwrap_or_else(|e| e.into_inner()),
    }
}

type Collected = Mutex<(Vec<ProgramResult>, Stats, Vec<PathBuf>)>;

fn worker(
    c: &Campaign,
    mine: &[u64],
    next: &AtomicU64,
    done: &AtomicU64,
    collected: &Collected,
    rt: Option<&Runtime>,
    progress: &(dyn Fn(u64, u64) + Sync),
) {
    loop {
        let i = next.fetch_add(1, Ordering::SeqCst) as usize;
        let Some(&k) = mine.get(i) else { break };
        let (result, src, checked, saved) = one_program(c, k, rt);
        let mut g = collected.lock().unwrap_or_else(|e| e.into_inner());
        g.1.add_program(&src, &checked.rules);
        if let Some(why) = &checked.unsupported {
            g.1.add_unsupported(why);
        }
        match &result.verdict {
            Verdict::Pass => {
                g.1.valid += 1;
                g.1.passed += 1
            }
            Verdict::Mismatch { .. } => {
                g.1.valid += 1;
                g.1.failed += 1
            }
            Verdict::Invalid(_) => {}
        }
        g.0.push(result);
        g.2.extend(saved);
        drop(g);
        progress(done.fetch_add(1, Ordering::SeqCst) + 1, mine.len() as u64);
    }
}

type OneProgram = (ProgramResult, String, oracle::Checked, Vec<PathBuf>);

fn one_program(c: &Campaign, k: u64, rt: Option<&Runtime>) -> OneProgram {
    if c.lang == FuzzLang::Tail {
        return one_tail_program(c, k);
    }
    let seed = program_seed(c.seed, k);
    let program = generate_fcl(&mut Rng::new(seed), &c.config);
    let src = print_program(&program);
    let t = std::time::Instant::now();
    let checker = c.checker;
    let fault = c.fault;
    // an injected fault replaces the checker by the faulty compiled comparison
    let check = |src: &str, seed: u64, rt: Option<&Runtime>| match fault {
        Some(f) => oracle::check_fcl_with_fault(src, seed, rt, Some(f)),
        None => checker(src, seed, rt),
    };
    let checked = check(&src, seed, rt);
    let millis = t.elapsed().as_millis();
    let mut saved = Vec::new();
    if let (Verdict::Mismatch { .. }, Some(dir)) = (&checked.verdict, &c.save) {
        // save the original first, so a crash while shrinking loses nothing
        let stem = format!("fcl-{}-{k}", c.seed);
        saved.extend(save_failure(
            dir,
            &stem,
            "fcl",
            &src,
            seed,
            &checked.verdict,
        ));
        // the same failure: a mismatch on the same configuration (engine, shape, schedule or
        // optimization level) as the original
        let failing_config = match &checked.verdict {
            Verdict::Mismatch { config, .. } => config.clone(),
            _ => String::new(),
        };
        let same_failure = |v: &Verdict| matches!(v, Verdict::Mismatch { config, .. } if *config == failing_config);
        let shrunk = shrink::fcl::shrink(&program, c.shrink_tries, &mut |cand| {
            same_failure(&check(&print_program(cand), seed, rt).verdict)
        });
        let small = print_program(&shrunk);
        let verdict = check(&small, seed, rt).verdict;
        saved.extend(save_failure(
            dir,
            &format!("{stem}-shrunk"),
            "fcl",
            &small,
            seed,
            &verdict,
        ));
    }
    let result = ProgramResult {
        index: k,
        seed,
        verdict: checked.verdict.clone(),
        bytes: src.len(),
        millis,
    };
    (result, src, checked, saved)
}

/// A TAIL program: generated with its expected output, checked on the TAIL oracle; a mismatch
/// is saved (TAIL programs are not shrunk yet).
fn one_tail_program(c: &Campaign, k: u64) -> OneProgram {
    let seed = program_seed(c.seed, k);
    let case = crate::gen::tail_gen::generate_tail(&mut Rng::new(seed), 8);
    let t = std::time::Instant::now();
    let checked = tail::check_tail(&case);
    let millis = t.elapsed().as_millis();
    let mut saved = Vec::new();
    if let (Verdict::Mismatch { .. }, Some(dir)) = (&checked.verdict, &c.save) {
        let stem = format!("tail-{}-{k}", c.seed);
        saved.extend(save_failure(
            dir,
            &stem,
            "tail",
            &case.source,
            seed,
            &checked.verdict,
        ));
    }
    let result = ProgramResult {
        index: k,
        seed,
        verdict: checked.verdict.clone(),
        bytes: case.source.len(),
        millis,
    };
    (result, case.source, checked, saved)
}

/// Writes `STEM.EXT` (the program) and `STEM.txt` (seed and both outputs) under `dir`.
fn save_failure(
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
