//! Fuzzing throughput, end to end (generation, oracle across shapes and schedules, compiled
//! -O0/-O2 on OpenCL), in programs per second per worker, with the time of each phase.
//!
//! `cargo run --release -p conformance --bin fuzz_throughput -- [--count N] [--seed S]
//!  [--batch B,B,…] [--jobs J] [--lang fcl|tail] [--pocl-cache] [--cl-opt-disable]
//!  [--cl-options OPTS]…`
//!
//! Every `--cl-options` (OpenCL build options as `Campaign::opencl_options` reads them:
//! `A|B` for -O0 and -O2, `|` all optimized; `--cl-opt-disable` is `-cl-opt-disable`) adds a
//! setting measured with every batch size; without one, the campaign default ("").
//!
//! Besides wall-clock programs/s per worker (the machine may be shared), it prints programs per
//! CPU second: the process's user and system time with that of the children it waited for
//! (PoCL runs `ld` once per kernel it generates code for), from /proc/self/stat.
//!
//! PoCL caches built programs on disk (~/.cache/pocl), so a campaign run twice builds nothing
//! the second time; a new seed would not be so lucky. The benchmark therefore turns the cache
//! off (`POCL_KERNEL_CACHE=0`) unless `--pocl-cache` is given.

use conformance::fuzz::batch::{BuildOptions, OPTIMIZED_EVERY};

use conformance::fuzz::{check_fcl_on, run_fcl_campaign, Campaign, FuzzLang, DEFAULT_BATCH};
use conformance::gen::FclConfig;

struct Options {
    count: u64,
    seed: u64,
    batches: Vec<usize>,
    jobs: usize,
    lang: FuzzLang,
    pocl_cache: bool,
    settings: Vec<String>,
}

fn parse(args: &[String]) -> Result<Options, String> {
    let mut o = Options {
        count: 200,
        seed: 1000,
        batches: vec![1, DEFAULT_BATCH],
        jobs: 1,
        lang: FuzzLang::Fcl,
        pocl_cache: false,
        settings: Vec::new(),
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().ok_or(format!("{a} needs a value"));
        let number = |v: &str| v.parse::<u64>().map_err(|e| format!("{a} {v}: {e}"));
        match a.as_str() {
            "--count" => o.count = number(value()?)?,
            "--seed" => o.seed = number(value()?)?,
            "--jobs" => o.jobs = number(value()?)? as usize,
            "--batch" => {
                o.batches = value()?
                    .split(',')
                    .map(|b| number(b).map(|b| b.max(1) as usize))
                    .collect::<Result<_, _>>()?
            }
            "--lang" => {
                o.lang = match value()?.as_str() {
                    "fcl" => FuzzLang::Fcl,
                    "tail" => FuzzLang::Tail,
                    other => return Err(format!("unknown language {other}")),
                }
            }
            "--pocl-cache" => o.pocl_cache = true,
            "--cl-opt-disable" => o.settings.push("-cl-opt-disable".into()),
            "--cl-options" => o.settings.push(value()?.clone()),
            other => return Err(format!("unknown argument {other}")),
        }
    }
    if o.settings.is_empty() {
        o.settings.push(String::new());
    }
    Ok(o)
}

/// The CPU seconds this process and its waited-for children have used (Linux: fields 14 to 17
/// of /proc/self/stat, in clock ticks of 1/100 s, the kernel's `USER_HZ` on every common
/// configuration); `None` elsewhere.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // the command name (field 2) may hold spaces; the fields after it are numbers
    let rest = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = fields
        .get(11..15)?
        .iter()
        .map(|f| f.parse::<u64>().ok())
        .sum::<Option<u64>>()?;
    Some(ticks as f64 / 100.0)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let o = match parse(&args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    if !o.pocl_cache {
        // before any OpenCL call and any other thread
        std::env::set_var("POCL_KERNEL_CACHE", "0");
    }
    println!(
        "fuzz throughput: {} programs, seed {}, {} worker(s), PoCL kernel cache {}",
        o.count,
        o.seed,
        o.jobs,
        if o.pocl_cache { "on" } else { "off" },
    );
    for (options, &batch) in o
        .settings
        .iter()
        .flat_map(|s| o.batches.iter().map(move |b| (s, b)))
    {
        let BuildOptions {
            levels: [o0, o2],
            optimized: [_, o2_sampled],
        } = BuildOptions::parse(options);
        let c = Campaign {
            lang: o.lang,
            checker: check_fcl_on,
            count: o.count,
            seed: o.seed,
            jobs: o.jobs,
            shard: (0, 1),
            save: None,
            config: FclConfig::default(),
            shrink_tries: 400,
            device: Some(0),
            fault: None,
            batch,
            opencl_options: options.clone(),
            only: None,
            fault_program: None,
            live_report: None,
            external: Default::default(),
        };
        let cpu = cpu_seconds();
        let r = run_fcl_campaign(&c, &|_, _| {});
        let cpu = cpu.zip(cpu_seconds()).map(|(a, b)| b - a);
        if let Some(note) = &r.compiled_note {
            println!("note: {note}");
        }
        let declined: u64 = r.stats.unsupported.values().sum();
        println!(
            "batch {batch:>3}, OpenCL options -O0 {o0:?} -O2 {o2:?}{}: {:.2} s, {:.1} programs/s, {:.1} programs/s per worker, {} ({}; {declined} declined by the compiler)",
            match o2_sampled == o2 {
                true => String::new(),
                false => format!(" ({o2_sampled:?} for one program in {OPTIMIZED_EVERY})"),
            },
            r.seconds,
            o.count as f64 / r.seconds,
            o.count as f64 / r.seconds / o.jobs as f64,
            cpu.map_or("CPU time unknown".into(), |cpu| format!(
                "{:.1} programs per CPU second ({cpu:.2} s)",
                o.count as f64 / cpu.max(1e-9)
            )),
            r.summary()
        );
        print!("{}", r.profile.render());
    }
}
