//! Whole FCL programs at their benchmark sizes: the thesis's chapter 5 benchmarks (Tables 5.1
//! and 5.2: reverse, transpose, partial and full reduction, scan, matrix multiplication) plus
//! copy, a matrix-vector product and a Sobol-sequence generator, each from
//! examples/fcl/bench/ with its `benchmark 100` loop. The files hold small sizes (so that the
//! oracle runs them as conformance tests); their `val size = …` lines are replaced here by the
//! benchmark sizes (2^24 elements; matmul 512 x 512). Per program on device N it prints the
//! kernel time per timed `benchmark` run (profiling events), the wall time per run (from the
//! drained queue after the warm-up to the drained queue after the last run), their ratio (the
//! host's overhead), the target `wall <= 1.10 * kernel + 0.5 ms` and whether it holds, and the
//! time of a whole `tailfcl exec` process on the same program (build, input, warm-up, 100 runs,
//! printing; `-` without the tailfcl binary next to this one). A benchmark, not a test: it
//! reports, it does not fail. Run with `cargo run --release -p compiler --bin bench_programs
//! [--device N] [--only WORD] [--small] [--no-process]` (`--small`: the files' own sizes).

use compiler::exec::execute_keeping_output;
use compiler::runtime::{Runtime, RuntimeError};
use compiler::{compile_fcl_for_device, OptLevel, DEFAULT_BLOCK_SIZE};
use semantics::fcl::lower::load_program;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// 2^24, the thesis's array size.
const N24: &str = "16777216";

/// The programs of examples/fcl/bench and their benchmark sizes (`val NAME = VALUE` lines).
const PROGRAMS: &[(&str, &[(&str, &str)])] = &[
    ("copy.fcl", &[("size", N24)]),
    ("reverse.fcl", &[("size", N24)]),
    ("transpose.fcl", &[("side", "4096")]),
    ("reduce_partial.fcl", &[("size", N24)]),
    ("reduce_full.fcl", &[("size", N24)]),
    ("scan.fcl", &[("size", N24)]),
    ("matmul.fcl", &[("side", "512")]),
    ("matvecmul.fcl", &[("rows", "4096"), ("cols", "4096")]),
    ("sobol.fcl", &[("size", "8388608")]),
];

/// One program's figures.
struct Row {
    kernel_ms: f64,
    wall_ms: f64,
}

/// Compiles and runs `src` in this process; the figures of its (first) `benchmark`.
fn measure(rt: &Runtime, name: &str, src: &str) -> Result<Row, String> {
    let p =
        load_program(&[(name.to_string(), src.to_string())]).map_err(|(_, d)| format!("{d:?}"))?;
    let bs = DEFAULT_BLOCK_SIZE.min(rt.device.max_work_group_size.max(1));
    let m =
        compile_fcl_for_device(&p.main, OptLevel::O2, bs, &rt.device).map_err(|e| e.to_string())?;
    let (report, r) = execute_keeping_output(&m, rt);
    r.map_err(|e| e.to_string())?;
    let b = report
        .benchmarks
        .first()
        .ok_or("the program ran no benchmark")?;
    let runs = b.runs.max(1) as f64;
    Ok(Row {
        kernel_ms: b.kernel_ns as f64 / 1e6 / runs,
        wall_ms: b.wall_ns as f64 / 1e6 / runs,
    })
}

/// Seconds of a whole `tailfcl exec --device N FILE` process, run in `dir`.
fn process_seconds(tailfcl: &Path, device: usize, file: &Path, dir: &Path) -> Option<f64> {
    let t = Instant::now();
    let out = std::process::Command::new(tailfcl)
        .args(["exec", "--device", &device.to_string()])
        .arg(file)
        .current_dir(dir)
        .output()
        .ok()?;
    out.status.success().then(|| t.elapsed().as_secs_f64())
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let flag = |f: &str| args.iter().any(|a| a == f);
    let value = |f: &str| {
        args.iter()
            .position(|a| a == f)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let device = value("--device").and_then(|v| v.parse().ok()).unwrap_or(0);
    let only = value("--only");
    let mut rt = match Runtime::new(device) {
        Ok(rt) => rt,
        Err(RuntimeError::NoPlatform(m)) => {
            println!("skipped: no OpenCL platform ({m})");
            return;
        }
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(5);
        }
    };
    if let Err(e) = rt.set_profiling(true) {
        eprintln!("error: {e}");
        std::process::exit(5);
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/fcl/bench");
    // readIntCSV paths are relative to the working directory: the programs' own
    if let Err(e) = std::env::set_current_dir(&dir) {
        eprintln!("error: {}: {e}", dir.display());
        std::process::exit(2);
    }
    let tailfcl: Option<PathBuf> = std::env::current_exe()
        .ok()
        .and_then(|e| Some(e.parent()?.join("tailfcl")))
        .filter(|p| p.is_file() && !flag("--no-process"));
    println!("device: {}", rt.device);
    println!(
        "{:<16} {:>12} {:>12} {:>7} {:>12} {:>5} {:>10}",
        "program", "kernel ms", "wall ms", "ratio", "target ms", "met", "process s"
    );
    let mut met_all = true;
    for &(file, sizes) in PROGRAMS {
        if only.as_ref().is_some_and(|w| !file.contains(w.as_str())) {
            continue;
        }
        let src = match std::fs::read_to_string(dir.join(file)) {
            Ok(s) if flag("--small") => s,
            Ok(s) => compiler::with_sizes(&s, sizes),
            Err(e) => {
                println!("{file:<16} cannot read: {e}");
                continue;
            }
        };
        let name = file.trim_end_matches(".fcl");
        let row = match measure(&rt, file, &src) {
            Ok(r) => r,
            Err(e) => {
                println!("{name:<16} failed: {e}");
                met_all = false;
                continue;
            }
        };
        let target = 1.10 * row.kernel_ms + 0.5;
        let met = row.wall_ms <= target;
        met_all &= met;
        let process = tailfcl.as_ref().and_then(|t| {
            let path = std::env::temp_dir().join(format!("bench_programs_{file}"));
            std::fs::write(&path, &src).ok()?;
            process_seconds(t, device, &path, &dir)
        });
        println!(
            "{name:<16} {:>12.3} {:>12.3} {:>7.3} {:>12.3} {:>5} {:>10}",
            row.kernel_ms,
            row.wall_ms,
            row.wall_ms / row.kernel_ms.max(1e-9),
            target,
            if met { "yes" } else { "NO" },
            process.map_or("-".to_string(), |s| format!("{s:.2}"))
        );
    }
    println!(
        "target wall <= 1.10 * kernel + 0.5 ms per run: {}",
        if met_all {
            "met by every program"
        } else {
            "NOT met by every program"
        }
    );
}
