//! Fuzzing throughput, end to end (generation, oracle across shapes and schedules, compiled
//! -O0/-O2 on OpenCL), in programs per second per worker, with the time of each phase.
//!
//! `cargo run --release -p conformance --bin fuzz_throughput -- [--count N] [--seed S]
//!  [--batch B,B,…] [--jobs J] [--lang fcl|tail] [--pocl-cache] [--cl-opt-disable]`
//!
//! PoCL caches built programs on disk (~/.cache/pocl), so a campaign run twice builds nothing
//! the second time; a new seed would not be so lucky. The benchmark therefore turns the cache
//! off (`POCL_KERNEL_CACHE=0`) unless `--pocl-cache` is given.

use conformance::fuzz::{check_fcl_on, run_fcl_campaign, Campaign, FuzzLang, DEFAULT_BATCH};
use conformance::gen::FclConfig;

struct Options {
    count: u64,
    seed: u64,
    batches: Vec<usize>,
    jobs: usize,
    lang: FuzzLang,
    pocl_cache: bool,
    opencl_options: String,
}

fn parse(args: &[String]) -> Result<Options, String> {
    let mut o = Options {
        count: 200,
        seed: 1000,
        batches: vec![1, DEFAULT_BATCH],
        jobs: 1,
        lang: FuzzLang::Fcl,
        pocl_cache: false,
        opencl_options: String::new(),
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
            "--cl-opt-disable" => o.opencl_options = "-cl-opt-disable".into(),
            other => return Err(format!("unknown argument {other}")),
        }
    }
    Ok(o)
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
        "fuzz throughput: {} programs, seed {}, {} worker(s), PoCL kernel cache {}, OpenCL build options {:?}",
        o.count,
        o.seed,
        o.jobs,
        if o.pocl_cache { "on" } else { "off" },
        o.opencl_options
    );
    for &batch in &o.batches {
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
            opencl_options: o.opencl_options.clone(),
        };
        let r = run_fcl_campaign(&c, &|_, _| {});
        if let Some(note) = &r.compiled_note {
            println!("note: {note}");
        }
        let declined: u64 = r.stats.unsupported.values().sum();
        println!(
            "batch {batch:>3}: {:.2} s, {:.1} programs/s, {:.1} programs/s per worker ({}; {declined} declined by the compiler)",
            r.seconds,
            o.count as f64 / r.seconds,
            o.count as f64 / r.seconds / o.jobs as f64,
            r.summary()
        );
        print!("{}", r.profile.render());
    }
}
