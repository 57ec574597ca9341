//! The conformance commands: fuzz, conform.

use super::{ConformArgs, Exit, FuzzArgs};
use conformance::suite::{discover, run_suite, CliEngine, Engine, Status};

fn not_yet(what: &str) -> Result<Exit, Exit> {
    eprintln!("error: {what} is not built yet");
    Err(Exit::Static)
}

pub fn fuzz(_a: &FuzzArgs) -> Result<Exit, Exit> {
    not_yet("fuzz")
}

/// Runs the conformance tests under the given paths on every requested engine. Each engine is
/// this very binary driven through its own `run` (oracle) or `exec` (opencl) command, so the
/// suite exercises exactly what a user runs. Writes the CSV report (to `--report`, or stdout)
/// and prints the summary line; exit 1 when any test failed or an engine crashed.
pub fn conform(a: &ConformArgs) -> Result<Exit, Exit> {
    let tests = discover(&a.paths).map_err(|e| {
        eprintln!("error: {e}");
        Exit::Static
    })?;
    let binary = std::env::current_exe().map_err(|e| {
        eprintln!("error: cannot find the tailfcl binary: {e}");
        Exit::Static
    })?;
    let mut engines: Vec<CliEngine> = Vec::new();
    for name in a
        .engines
        .split(',')
        .map(str::trim)
        .filter(|n| !n.is_empty())
    {
        engines.push(match name {
            "oracle" => CliEngine::oracle(binary.clone()),
            "opencl" => CliEngine::opencl(binary.clone(), a.device),
            other => {
                eprintln!("error: unknown engine {other:?} (known: oracle, opencl)");
                return Err(Exit::Static);
            }
        });
    }
    let engines: Vec<&dyn Engine> = engines.iter().map(|e| e as &dyn Engine).collect();
    let report = run_suite(&tests, &engines);
    let written = match &a.report {
        Some(path) => std::fs::File::create(path)
            .map_err(|e| e.to_string())
            .and_then(|f| report.write_csv(f).map_err(|e| e.to_string())),
        None => report
            .write_csv(std::io::stdout())
            .map_err(|e| e.to_string()),
    };
    if let Err(e) = written {
        eprintln!("error: cannot write the report: {e}");
        return Err(Exit::Static);
    }
    for row in report
        .rows
        .iter()
        .filter(|r| matches!(r.status, Status::Fail | Status::Error))
    {
        eprintln!(
            "{} {} on {}: {}",
            row.status, row.test, row.engine, row.detail
        );
    }
    println!("{}", report.summary());
    Ok(if report.all_passed() {
        Exit::Ok
    } else {
        Exit::Failures
    })
}
