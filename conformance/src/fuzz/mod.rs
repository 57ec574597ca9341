//! The differential fuzzer behind `tailfcl fuzz`: generate programs from a seed, check each one
//! on the oracles ([`oracle::check_fcl`]; TAIL: [`tail::check_tail`], [`tail::check_lowered`]),
//! then the compiled side of a batch of them at once ([`batch`]), save and shrink failures, and
//! gather statistics ([`stats`]) and the time of each phase ([`profile`]).
//!
//! Determinism: program k of a campaign with seed S is generated from its own seed
//! [`program_seed`]`(S, k)`, so the same seed gives the same programs whatever the shard, job
//! count or batch size; program k belongs to shard `k mod N`.

pub mod batch;
pub mod compiled;
pub mod dispatch;
pub mod export;
pub mod external;
pub mod journal;
pub mod mutation;
pub mod oracle;
pub mod profile;
pub mod reach;
pub mod report;
pub mod stats;
pub mod tail;

use crate::gen::{generate_fcl, print_program, FclConfig, FclProgram, Rng};
use crate::shrink;
use batch::{compile_job_sized, optimized_program, run_jobs, Compare, CompiledJob, RunCache};
use compiled::CompiledOutcome;
use compiler::runtime::Runtime;
use compiler::DEFAULT_BLOCK_SIZE;
pub use oracle::{check_fcl, check_fcl_on, Verdict};
use profile::Profile;
use report::save_failure;
pub use report::{
    append_csv_row, program_source, save_contained, sort_report, ProgramResult, CSV_HEADER,
};
use semantics::fcl::lower::load_program;
use stats::Stats;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Wall-clock time spent shrinking one failure at most (the failing program is saved before
/// shrinking starts): a candidate of a program with long arrays takes a second or more through
/// the oracles and a device build, and 400 of them took 13 minutes.
pub const SHRINK_BUDGET: Duration = Duration::from_secs(120);

/// `still_fails`, answering "no" without running once [`SHRINK_BUDGET`] has passed since the
/// call: the shrinker then keeps the smallest failing program found so far.
pub(crate) fn within_budget<T: ?Sized>(
    mut still_fails: impl FnMut(&T) -> bool,
) -> impl FnMut(&T) -> bool {
    let deadline = Instant::now() + SHRINK_BUDGET;
    move |c| Instant::now() < deadline && still_fails(c)
}

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
    /// The per-program FCL check, normally [`check_fcl_on`]; tests substitute a stand-in to
    /// exercise the failure path. A campaign calls it without a device, for the oracle's part;
    /// the compiled side runs batched (and as a batch of one while shrinking).
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
    /// Programs whose compiled side shares one OpenCL build ([`batch`]); 1 builds each program
    /// alone. Verdicts do not depend on it.
    pub batch: usize,
    /// OpenCL build options of the compiled side, per optimization level as
    /// [`batch::BuildOptions::parse`] reads them: empty builds every module with
    /// `-cl-opt-disable` except the -O2 modules of one program in
    /// [`batch::OPTIMIZED_EVERY`], built optimized; `-cl-opt-disable|` optimizes every -O2
    /// build (slower), `-cl-opt-disable` none (the bugs only the C compiler's optimizations
    /// would expose go unseen).
    pub opencl_options: String,
    /// Only these programs (in this order), instead of the shard's: a containing parent
    /// restarts a campaign after a crash with the programs still to check.
    pub only: Option<Vec<u64>>,
    /// Apply [`Campaign::fault`] to this program only (the planted crash and hang of the
    /// containment tests).
    pub fault_program: Option<u64>,
    /// Append each program's CSV row here as soon as it is known (with the header when the
    /// file is new), so that a killed campaign keeps what it found.
    pub live_report: Option<PathBuf>,
    /// Compilers under test run on every program beside (or, without a device, instead of)
    /// tailfcl's own compiled side ([`external`]).
    pub external: external::ExternalSide,
}

impl Campaign {
    /// The fault program `k` is compiled with.
    pub fn fault_for(&self, k: u64) -> Option<compiler::fault::Fault> {
        self.fault
            .filter(|_| self.fault_program.is_none_or(|only| only == k))
    }
}

/// The default [`Campaign::batch`]. Larger batches build less often and share dispatching
/// kernels, but each build grows with the batch: on `fuzz_throughput --count 768`, batches of
/// 48 and 64 made 23.4 and 23.3 programs per CPU second, 32 made 22.0; 48 keeps a batch's
/// latency and a failure's rebuilds smaller.
pub const DEFAULT_BATCH: usize = 48;

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
    /// Where the time went, summed over the workers.
    pub profile: Profile,
}

impl CampaignResult {
    /// `N passed, N failed` (invalid programs are neither; see the statistics).
    pub fn summary(&self) -> String {
        format!("{} passed, {} failed", self.stats.passed, self.stats.failed)
    }

    /// Writes `index,seed,status,bytes,millis,detail,engine` rows.
    pub fn write_csv<W: std::io::Write>(&self, w: W) -> Result<(), csv::Error> {
        let mut out = csv::Writer::from_writer(w);
        out.write_record(CSV_HEADER)?;
        for r in &self.results {
            out.write_record(r.csv_row())?;
        }
        out.flush()?;
        Ok(())
    }
}

/// Runs the campaign on `jobs` threads; `progress(done, total)` is called after each program.
pub fn run_fcl_campaign(c: &Campaign, progress: &(dyn Fn(u64, u64) + Sync)) -> CampaignResult {
    run_fcl_campaign_counting(c, &|done, total, _| progress(done, total))
}

/// [`run_fcl_campaign`], `progress(done, total, failed)` also giving the failures so far (for
/// a progress bar).
pub fn run_fcl_campaign_counting(
    c: &Campaign,
    progress: &(dyn Fn(u64, u64, u64) + Sync),
) -> CampaignResult {
    let start = std::time::Instant::now();
    let (shard, shards) = c.shard;
    let mine: Vec<u64> = match &c.only {
        Some(only) => only.clone(),
        None => (0..c.count)
            .filter(|k| k % shards.max(1) == shard)
            .collect(),
    };
    let next = AtomicU64::new(0);
    let done = AtomicU64::new(0);
    let failed = AtomicU64::new(0);
    let counters = (&done, &failed);
    let stats = Stats {
        tail: c.lang == FuzzLang::Tail,
        external: c
            .external
            .engines
            .iter()
            .map(|e| (e.name.clone(), [0; 3]))
            .collect(),
        ..Stats::default()
    };
    let collected = Mutex::new((Vec::new(), stats, Vec::new(), Profile::default()));
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
                worker(c, &mine, &next, counters, &collected, rt.as_ref(), progress)
            });
        }
    });
    let (mut results, stats, saved, profile) =
        collected.into_inner().unwrap_or_else(|e| e.into_inner());
    results.sort_by_key(|r: &ProgramResult| r.index);
    CampaignResult {
        results,
        stats,
        saved,
        seconds: start.elapsed().as_secs_f64(),
        compiled_note: note.into_inner().unwrap_or_else(|e| e.into_inner()),
        profile,
    }
}

type Collected = Mutex<(Vec<ProgramResult>, Stats, Vec<PathBuf>, Profile)>;

fn worker(
    c: &Campaign,
    mine: &[u64],
    next: &AtomicU64,
    (done, failed): (&AtomicU64, &AtomicU64),
    collected: &Collected,
    rt: Option<&Runtime>,
    progress: &(dyn Fn(u64, u64, u64) + Sync),
) {
    // batches matter only for the compiled side; without it, programs go one by one
    let size = if rt.is_some() { c.batch.max(1) } else { 1 };
    let mut cache = RunCache::with_build_options(&c.opencl_options);
    let mut profile = Profile::default();
    loop {
        let start = next.fetch_add(1, Ordering::SeqCst) as usize * size;
        if start >= mine.len() {
            break;
        }
        let batch = &mine[start..(start + size).min(mine.len())];
        for (result, src, checked, saved) in one_batch(c, batch, rt, &mut cache, &mut profile) {
            let mut g = collected.lock().unwrap_or_else(|e| e.into_inner());
            g.1.add_program(&src, &checked.rules);
            g.1.note_failing(&checked.reference);
            if let Some(reached) = &checked.reached {
                g.1.add_reached(reached);
            }
            if let Some(why) = &checked.unsupported {
                g.1.add_unsupported(why);
            }
            for (name, judged) in &result.external {
                g.1.add_external(name, judged);
            }
            match &result.verdict {
                Verdict::Pass => {
                    g.1.valid += 1;
                    g.1.passed += 1
                }
                Verdict::Mismatch { .. } => {
                    g.1.valid += 1;
                    g.1.failed += 1;
                    failed.fetch_add(1, Ordering::SeqCst);
                }
                Verdict::Invalid(_) => {}
            }
            if let Some(path) = &c.live_report {
                append_csv_row(path, &result.csv_row());
            }
            journal::note(format_args!("done {}", result.index));
            g.0.push(result);
            g.2.extend(saved);
            drop(g);
            let failures = failed.load(Ordering::SeqCst);
            progress(
                done.fetch_add(1, Ordering::SeqCst) + 1,
                mine.len() as u64,
                failures,
            );
        }
    }
    let mut g = collected.lock().unwrap_or_else(|e| e.into_inner());
    g.3.add(&profile);
}

type OneProgram = (ProgramResult, String, oracle::Checked, Vec<PathBuf>);

/// A generated FCL program on its way through the check.
struct Pending {
    k: u64,
    seed: u64,
    /// The FCL program, for shrinking (a TAIL program is shrunk from its source).
    program: Option<FclProgram>,
    src: String,
    checked: oracle::Checked,
    /// Time spent on this program alone.
    own: Duration,
    /// The oracle's own check passed, so its output is a sound reference for external engines.
    reference_ok: bool,
    /// Each external engine's judgement.
    external: Vec<crate::external::Judged>,
}

/// Checks programs `ks`: each on the oracle, then the compiled side of all of them together
/// ([`batch::run_jobs`]: one OpenCL build for the batch); then saves every failure and shrinks
/// it with the per-program check.
fn one_batch(
    c: &Campaign,
    ks: &[u64],
    rt: Option<&Runtime>,
    cache: &mut RunCache,
    profile: &mut Profile,
) -> Vec<OneProgram> {
    let mut pending = Vec::with_capacity(ks.len());
    let mut jobs = Vec::new();
    let list: Vec<String> = ks.iter().map(u64::to_string).collect();
    journal::note(format_args!("start {}", list.join(" ")));
    for &k in ks {
        journal::note(format_args!("oracle {k}"));
        let seed = program_seed(c.seed, k);
        let (p, job) = match c.lang {
            FuzzLang::Fcl => generate_and_check_fcl(c, k, seed, block_size(rt), profile),
            FuzzLang::Tail => generate_and_check_tail(c, k, seed, block_size(rt), profile),
        };
        if let Some(job) = job {
            jobs.push((pending.len(), job));
        }
        pending.push(p);
    }
    if let Some(rt) = rt {
        let t = Instant::now();
        let (at, compiled): (Vec<usize>, Vec<CompiledJob>) = jobs.into_iter().unzip();
        journal::note(format_args!("build"));
        let outcomes = run_jobs(&compiled, rt, cache, profile);
        let share = t.elapsed() / (at.len().max(1) as u32);
        for (i, outcome) in at.into_iter().zip(outcomes) {
            let p = &mut pending[i];
            p.own += share;
            apply_compiled(&mut p.checked, outcome);
        }
    }
    let ext = match c.lang {
        FuzzLang::Fcl => "fcl",
        FuzzLang::Tail => "tail",
    };
    let stem = |p: &Pending| format!("{ext}-{}-{}", c.seed, p.k);
    if !c.external.engines.is_empty() {
        let t = Instant::now();
        for p in pending.iter_mut().filter(|p| p.reference_ok) {
            let started = Instant::now();
            journal::note(format_args!("external {}", p.k));
            p.external = c.external.check(c.lang, &stem(p), &p.src, &mut p.checked);
            p.own += started.elapsed();
        }
        profile.external += t.elapsed();
    }
    // save every failure of the batch before shrinking any, so a crash while shrinking loses
    // nothing
    let mut saved: Vec<Vec<PathBuf>> = pending
        .iter()
        .map(|p| match (&p.checked.verdict, &c.save) {
            (Verdict::Mismatch { .. }, Some(dir)) => {
                save_failure(dir, &stem(p), ext, &p.src, p.seed, &p.checked.verdict)
            }
            _ => Vec::new(),
        })
        .collect();
    let t = Instant::now();
    for (p, saved) in pending.iter().zip(&mut saved) {
        if let (Verdict::Mismatch { config, .. }, Some(dir)) = (&p.checked.verdict, &c.save) {
            if c.external.engine_of(config).is_some() {
                let failing = external::Failing {
                    src: &p.src,
                    program: p.program.as_ref(),
                    seed: p.seed,
                    k: p.k,
                    stem: &stem(p),
                };
                saved.extend(external::shrink_failure(c, &failing, config, dir));
                continue;
            }
            match &p.program {
                Some(program) => {
                    saved.extend(shrink_failure(c, p, program, config, dir, &stem(p), rt))
                }
                None => saved.extend(tail::shrink_failure(
                    c,
                    &p.src,
                    (p.seed, p.k),
                    config,
                    dir,
                    &stem(p),
                    rt,
                )),
            }
        }
    }
    profile.shrink += t.elapsed();
    pending
        .into_iter()
        .zip(saved)
        .map(|(p, saved)| {
            let names = c.external.engines.iter().map(|e| e.name.clone());
            let result = ProgramResult {
                index: p.k,
                seed: p.seed,
                verdict: p.checked.verdict.clone(),
                bytes: p.src.len(),
                millis: p.own.as_millis(),
                unsupported: p.checked.unsupported.clone(),
                engine: report::engine_column(&p.checked, rt.is_some(), &c.external, &p.external),
                external: names.zip(p.external).collect(),
            };
            (result, p.src, p.checked, saved)
        })
        .collect()
}

/// The work-group size of a campaign's compiled side on `rt` (none without a device): the
/// compiler's default, clamped to the device's largest work-group (1024 on an H100, 256 on
/// some GPUs), so that every launch fits it.
fn block_size(rt: Option<&Runtime>) -> Option<usize> {
    rt.map(|rt| DEFAULT_BLOCK_SIZE.min(rt.device.max_work_group_size.max(1)))
}

/// Generates FCL program `k` and checks it on the oracle; with a device, also gives its
/// compiled side to run with the batch.
fn generate_and_check_fcl(
    c: &Campaign,
    k: u64,
    seed: u64,
    compiled: Option<usize>,
    profile: &mut Profile,
) -> (Pending, Option<CompiledJob>) {
    let t = Instant::now();
    let program = generate_fcl(&mut Rng::new(seed), &c.config);
    let src = print_program(&program);
    let generated = t.elapsed();
    profile.generate += generated;
    let t = Instant::now();
    let checked = (c.checker)(&src, seed, None);
    profile.oracle += t.elapsed();
    let t = Instant::now();
    let mut job = None;
    if let (Some(block), Verdict::Pass) = (compiled, &checked.verdict) {
        if let Ok(loaded) = load_program(&[("generated.fcl".to_string(), src.clone())]) {
            let mut j = compile_job_sized(&loaded.main, &checked.stdout, c.fault_for(k), block);
            j.optimized = optimized_program(k);
            j.index = k;
            job = Some(j);
        }
    }
    profile.compile += t.elapsed();
    let p = Pending {
        k,
        seed,
        program: Some(program),
        src,
        reference_ok: checked.verdict == Verdict::Pass,
        checked,
        own: generated + t.elapsed(),
        external: Vec::new(),
    };
    (p, job)
}

/// Generates TAIL program `k` with its expected output and checks it on the TAIL oracle, then
/// lowered to FCL on the FCL oracle; with a device, also gives the lowered program's compiled
/// side to run with the batch. A program the lowering refuses is unsupported.
fn generate_and_check_tail(
    c: &Campaign,
    k: u64,
    seed: u64,
    compiled: Option<usize>,
    profile: &mut Profile,
) -> (Pending, Option<CompiledJob>) {
    let t = Instant::now();
    let case = crate::gen::tail_gen::generate_tail(&mut Rng::new(seed), 8);
    let generated = t.elapsed();
    profile.generate += generated;
    let t = Instant::now();
    let mut checked = tail::check_tail(&case);
    let reference_ok = checked.verdict == Verdict::Pass;
    let mut job = None;
    let mut compiling = Duration::ZERO;
    if checked.verdict == Verdict::Pass {
        match tail::check_lowered(&case.source, &checked.stdout, c.fault_for(k)) {
            tail::LoweredCheck::Unsupported(why) => checked.unsupported = Some(why),
            tail::LoweredCheck::Mismatch(v) => checked.verdict = v,
            tail::LoweredCheck::Agrees(lowered, main) if compiled.is_some() => {
                let t = Instant::now();
                let block = compiled.unwrap_or(DEFAULT_BLOCK_SIZE);
                let mut j = compile_job_sized(&main, &checked.stdout, c.fault_for(k), block);
                if let Some((_, Ok(m))) = j.levels.last() {
                    let comments: Vec<&str> = lowered.fcl.comments().collect();
                    checked.reached = Some(reach::reached(&comments, m));
                }
                j.compare = Compare::Tail(lowered);
                j.optimized = optimized_program(k);
                j.index = k;
                job = Some(j);
                compiling = t.elapsed();
            }
            tail::LoweredCheck::Agrees(..) => {}
        }
    }
    profile.oracle += t.elapsed() - compiling;
    profile.compile += compiling;
    let p = Pending {
        k,
        seed,
        program: None,
        src: case.source,
        checked,
        own: generated + t.elapsed(),
        reference_ok,
        external: Vec::new(),
    };
    (p, job)
}

/// The per-program check, staged as in the campaign: the checker for the oracle's part, then
/// the compiled side (with the campaign's fault and OpenCL build options) as a batch of one.
fn check_one(c: &Campaign, p: &Pending, src: &str, rt: Option<&Runtime>) -> oracle::Checked {
    let seed = p.seed;
    let mut checked = (c.checker)(src, seed, None);
    let (Some(rt), Verdict::Pass) = (rt, &checked.verdict) else {
        return checked;
    };
    let Ok(loaded) = load_program(&[("generated.fcl".to_string(), src.to_string())]) else {
        return checked;
    };
    let block = block_size(Some(rt)).unwrap_or(DEFAULT_BLOCK_SIZE);
    let mut job = compile_job_sized(&loaded.main, &checked.stdout, c.fault_for(p.k), block);
    job.optimized = optimized_program(p.k);
    job.index = p.k;
    let mut cache = RunCache::with_build_options(&c.opencl_options);
    if let Some(outcome) = run_jobs(&[job], rt, &mut cache, &mut Profile::default()).pop() {
        apply_compiled(&mut checked, outcome);
    }
    checked
}

/// Records the compiled side's outcome in the oracle's verdict.
fn apply_compiled(checked: &mut oracle::Checked, outcome: CompiledOutcome) {
    match outcome {
        CompiledOutcome::Agree => {}
        CompiledOutcome::Unsupported(why) => checked.unsupported = Some(why),
        CompiledOutcome::Differs { opt, got } => {
            checked.verdict = Verdict::Mismatch {
                config: format!("compiled {opt}"),
                expected: checked.stdout.clone(),
                got,
            }
        }
    }
}

/// Shrinks a failing program while it keeps failing on the same configuration (engine, shape,
/// schedule or optimization level) and saves the result as `STEM-shrunk`.
fn shrink_failure(
    c: &Campaign,
    p: &Pending,
    program: &FclProgram,
    failing_config: &str,
    dir: &Path,
    stem: &str,
    rt: Option<&Runtime>,
) -> Vec<PathBuf> {
    let same_failure =
        |v: &Verdict| matches!(v, Verdict::Mismatch { config, .. } if config == failing_config);
    let mut still_fails = within_budget(|cand: &FclProgram| {
        same_failure(&check_one(c, p, &print_program(cand), rt).verdict)
    });
    let shrunk = shrink::fcl::shrink(program, c.shrink_tries, &mut still_fails);
    let small = print_program(&shrunk);
    let verdict = check_one(c, p, &small, rt).verdict;
    save_failure(
        dir,
        &format!("{stem}-shrunk"),
        "fcl",
        &small,
        p.seed,
        &verdict,
    )
}
