//! The TAIL benchmarks on the oracle-free path (TAIL → FCL → OpenCL) against sequential Rust,
//! in one run, as a table in the shape of the thesis's Tables 3.2/3.6. Run with
//! `cargo run --release -p tailbench --bin bench_tail -- [options]`; `--help` lists them.

use compiler::runtime::{Runtime, RuntimeError};
use std::hint::black_box;
use std::process::ExitCode;
use std::time::Instant;
use tailbench::opencl::{self, median, Outcome};
use tailbench::{agree, benches, Bench};

const HELP: &str = "bench_tail: TAIL programs on OpenCL (TAIL -> FCL -> OpenCL) vs sequential Rust

options:
  --device D        OpenCL device index (default 0; see `tailfcl devices`)
  --runs R          timed runs per engine, after one warm-up run (default 3); medians reported
  --only A,B        only these programs
  --NAME N[,K]      the size of program NAME (e.g. --primes 10000, --life 1000,100)
  --scale F         multiply every default size's first parameter by F (e.g. 0.01 for a smoke run)
  --kernels         also print each program's device time per kernel
  --unchecked       lower without the run-time checks of int overflow and division by zero
  --print NAME      print program NAME's TAIL text at its size and exit (for `tailfcl exec`)
  --help            this text

programs and default sizes:";

/// Tolerances of the agreement check: relative for inexact double results (the OpenCL
/// reductions add in tree order), none for exact ones; absolute for all, because FCL may print
/// doubles with five decimals.
const REL: f64 = 1e-9;
const ABS: f64 = 1e-5;

struct Options {
    device: usize,
    runs: usize,
    only: Option<Vec<String>>,
    sizes: Vec<(String, Vec<usize>)>,
    scale: f64,
    print: Option<String>,
    kernels: bool,
}

fn parse_args(args: &[String]) -> Result<Options, String> {
    let mut o = Options {
        device: 0,
        runs: 3,
        only: None,
        sizes: Vec::new(),
        scale: 1.0,
        print: None,
        kernels: false,
    };
    let names: Vec<&str> = benches().iter().map(|b| b.name).collect();
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--device" => o.device = value()?.parse().map_err(|e| format!("--device: {e}"))?,
            "--runs" => o.runs = value()?.parse().map_err(|e| format!("--runs: {e}"))?,
            "--scale" => {
                o.scale = value()?.parse().map_err(|e| format!("--scale: {e}"))?;
                if !(o.scale > 0.0 && o.scale.is_finite()) {
                    return Err("--scale must be positive".into());
                }
            }
            "--kernels" => o.kernels = true,
            "--unchecked" => compiler::tail::set_checks(false),
            "--print" => {
                let name = value()?.replace('-', "_");
                if !names.contains(&name.as_str()) {
                    return Err(format!("--print: no program {name} ({})", names.join(", ")));
                }
                o.print = Some(name);
            }
            "--only" => {
                let list: Vec<String> = value()?.split(',').map(str::to_string).collect();
                if let Some(bad) = list.iter().find(|n| !names.contains(&n.as_str())) {
                    return Err(format!("--only: no program {bad} ({})", names.join(", ")));
                }
                o.only = Some(list);
            }
            f if f.starts_with("--") && names.contains(&f[2..].replace('-', "_").as_str()) => {
                let size = value()?
                    .split(',')
                    .map(|v| v.trim().parse::<usize>())
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(|e| format!("{f}: {e}"))?;
                o.sizes.push((f[2..].replace('-', "_"), size));
            }
            f => return Err(format!("unknown option {f} (see --help)")),
        }
    }
    if o.runs == 0 {
        return Err("--runs must be at least 1".into());
    }
    Ok(o)
}

/// The size a program runs at: the option's, or the default scaled.
fn size_of(b: &Bench, o: &Options) -> Vec<usize> {
    if let Some((_, s)) = o.sizes.iter().rev().find(|(n, _)| n == b.name) {
        return s.clone();
    }
    let mut s = b.bench_size.to_vec();
    s[0] = ((s[0] as f64 * o.scale).round() as usize).max(2);
    s
}

/// Median wall time of the Rust reference over `runs` runs (after a warm-up), and its result.
fn time_rust(b: &Bench, size: &[usize], runs: usize) -> (f64, f64) {
    let value = b.reference(black_box(size));
    let times = (0..runs)
        .map(|_| {
            let t = Instant::now();
            black_box(b.reference(black_box(size)));
            t.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    (median(times), value)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--help" || a == "-h") {
        println!("{HELP}");
        for b in benches() {
            println!(
                "  --{:<14} {:<14} needs: {}",
                b.name,
                b.size_text(b.bench_size),
                b.ops
            );
        }
        return ExitCode::SUCCESS;
    }
    let o = match parse_args(&args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("bench_tail: {e}");
            return ExitCode::from(2);
        }
    };
    if let Some(name) = &o.print {
        let Some(b) = benches().into_iter().find(|b| b.name == name) else {
            return ExitCode::from(2);
        };
        let size = size_of(&b, &o);
        if let Err(e) = b.check_size(&size) {
            eprintln!("bench_tail: {e}");
            return ExitCode::from(2);
        }
        print!("{}", b.source(&size));
        return ExitCode::SUCCESS;
    }
    let rt = match Runtime::new(o.device) {
        Ok(rt) => {
            println!("device: {}", rt.device);
            Some(rt)
        }
        Err(RuntimeError::NoPlatform(m)) => {
            println!("device: none ({m}); only the Rust column is measured");
            None
        }
        Err(e) => {
            eprintln!("bench_tail: {e}");
            return ExitCode::from(5);
        }
    };
    println!(
        "runs: {} timed (+1 warm-up) per engine, medians; OpenCL ms = summed kernel device time",
        o.runs
    );
    println!(
        "{:<14} {:<14} {:>10} {:>11} {:>11} {:>9} {:>9} {:>8}  result",
        "program", "size", "Rust ms", "OpenCL ms", "wall ms", "build ms", "Rust/OCL", "agree"
    );
    let mut all_agree = true;
    let mut short_rows = false;
    for b in benches() {
        if o.only
            .as_ref()
            .is_some_and(|l| !l.iter().any(|n| n == b.name))
        {
            continue;
        }
        let size = size_of(&b, &o);
        if let Err(e) = b.check_size(&size) {
            println!("{:<14} {:<14} invalid size: {e}", b.name, "");
            all_agree = false;
            continue;
        }
        let (rust_ms, rust) = time_rust(&b, &size, o.runs);
        let head = format!(
            "{:<14} {:<14} {:>10.1}",
            b.name,
            b.size_text(&size),
            rust_ms
        );
        let Some(rt) = &rt else {
            println!("{head} {:>11}  Rust {rust:?}", "no device");
            continue;
        };
        match opencl::run(&b.source(&size), rt, o.runs) {
            Outcome::Ran(m) => {
                let rel = if b.exact { 0.0 } else { REL };
                let ok = agree(m.value, rust, rel, ABS);
                all_agree &= ok;
                // The thesis-style comparison wants sizes where launch overhead is noise: at
                // least 100 ms of sequential Rust time.
                let short = if rust_ms < 100.0 { "*" } else { " " };
                short_rows |= rust_ms < 100.0;
                println!(
                    "{head} {:>10.1}{short} {:>11.1} {:>9.0} {:>9.2} {:>8}  Rust {rust:?}, OpenCL {:?} ({} launches)",
                    m.kernel_ms,
                    m.wall_ms,
                    m.compile_ms + m.build_ms,
                    rust_ms / m.kernel_ms,
                    if ok { "yes" } else { "NO" },
                    m.value,
                    m.launches
                );
                if o.kernels {
                    for (name, ms) in &m.per_kernel {
                        println!("{:<29} {name:>20} {ms:>10.1} ms", "");
                    }
                }
            }
            Outcome::Unsupported(why) => println!("{head}  unsupported: {}", one_line(&why)),
            Outcome::Failed(why) => {
                all_agree = false;
                println!("{head}  FAILED: {}", one_line(&why));
            }
        }
    }
    if short_rows {
        println!("* under 100 ms of Rust time: raise the size for a meaningful ratio");
    }
    if all_agree {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// The first line of a reason, shortened for the table.
fn one_line(s: &str) -> String {
    let line = s.lines().next().unwrap_or("");
    if line.chars().count() > 160 {
        format!("{}…", line.chars().take(160).collect::<String>())
    } else {
        line.to_string()
    }
}
