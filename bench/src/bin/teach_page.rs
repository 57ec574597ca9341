//! The teaching page on a long run: generates the page of a TAIL trace of at least 100,000 steps
//! (`reduce(addi, 0, iotaV(n))`, three rule steps per element) and reports its size, the time to
//! generate it and, in headless Chromium (tests/browser/open_time.py, Selenium), the time to
//! open it and to jump to its last and middle steps. Run with
//! `cargo run --release -p tailbench --bin teach_page -- [--steps N] [--out FILE]`.

use interpreter::tail::RunOptions;
use interpreter::teach::html::{HtmlTrace, PageInfo};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Instant;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1).cloned())
    };
    let steps: u64 = arg("--steps")
        .and_then(|s| s.parse().ok())
        .unwrap_or(100_000);
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf();
    let out = arg("--out")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target/teach-bench/reduce.html"));
    // three steps per element (two β, one addi), plus a few around the reduction
    let n = steps.div_ceil(3) + 1;
    let src = format!("let v:<int>{n} = iotaV({n}) in i2d(reduce(addi,0,v))");
    let prog = match semantics::tail::step::load(&src) {
        Ok(p) => p,
        Err(d) => {
            eprintln!("teach_page: {}", d.message);
            return ExitCode::FAILURE;
        }
    };
    let t0 = Instant::now();
    let mut page = HtmlTrace::new(PageInfo {
        lang: "tail",
        title: format!("reduce(addi,0,iotaV({n}))"),
        ..PageInfo::default()
    });
    let mut count = 0u64;
    let summary = interpreter::teach::tail(prog, RunOptions::default(), |s| {
        count += 1;
        page.push(&s);
        Ok(())
    });
    let Ok(summary) = summary else {
        eprintln!("teach_page: the run failed");
        return ExitCode::FAILURE;
    };
    if let Some(dir) = out.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    let written = std::fs::File::create(&out)
        .map(std::io::BufWriter::new)
        .and_then(|mut f| page.finish(&summary, &mut f));
    if let Err(e) = written {
        eprintln!("teach_page: writing {}: {e}", out.display());
        return ExitCode::FAILURE;
    }
    let gen = t0.elapsed();
    let size = std::fs::metadata(&out).map(|m| m.len()).unwrap_or(0);
    println!("page: {}", out.display());
    println!("steps: {count} ({})", summary.outcome);
    println!(
        "file size: {:.2} MB ({size} bytes, {:.1} bytes/step)",
        size as f64 / 1e6,
        size as f64 / count.max(1) as f64
    );
    println!("generation: {:.2} s", gen.as_secs_f64());
    let script = root.join("tests/browser/open_time.py");
    if !Path::new("/usr/bin/chromium").exists() {
        println!("opening time: skipped (no /usr/bin/chromium; scripts/setup installs it)");
        return ExitCode::SUCCESS;
    }
    match Command::new("/usr/bin/python3")
        .arg(&script)
        .arg(&out)
        .output()
    {
        Ok(o) if o.status.success() => {
            let text = String::from_utf8_lossy(&o.stdout);
            let v: serde_json::Value = serde_json::from_str(text.trim()).unwrap_or_default();
            println!(
                "opening in headless Chromium: load event {} ms, first step shown {} ms",
                v["load_ms"], v["ready_ms"]
            );
            println!(
                "jump to the last step: {} ms; to the middle step ({}): {} ms",
                v["last_ms"], v["middle_step"], v["middle_ms"]
            );
            ExitCode::SUCCESS
        }
        Ok(o) => {
            eprintln!(
                "teach_page: open_time.py failed: {}",
                String::from_utf8_lossy(&o.stderr)
            );
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("teach_page: cannot run python3: {e}");
            ExitCode::FAILURE
        }
    }
}
