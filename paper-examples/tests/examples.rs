//! The paper examples: well-formed, reproducible from the scripts, and passing on every engine
//! that can run them.

use conformance::suite::{discover, run_suite, CliEngine, Engine, Expectation, Lang, Status};
use std::collections::HashMap;
use std::path::PathBuf;
use std::process::Command;

#[test]
fn the_scripts_reproduce_every_expected_file() {
    let script = paper_examples::root().join("scripts").join("check_all.py");
    let out = Command::new("python3")
        .arg(&script)
        .output()
        .expect("python3 runs the expected-value scripts (standard library only)");
    assert!(
        out.status.success(),
        "the expected files differ from what the scripts compute:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn every_seed_has_well_formed_examples() {
    let tests =
        discover(&paper_examples::seed_dirs()).expect("every program has exactly one expectation");
    assert!(tests.len() >= 60, "only {} examples", tests.len());
    let mut per_seed: HashMap<String, usize> = HashMap::new();
    for t in &tests {
        let folder = t
            .program
            .parent()
            .unwrap()
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        *per_seed.entry(folder).or_default() += 1;
        let source = std::fs::read_to_string(&t.program).unwrap();
        match t.lang {
            // apltail prints one expression and a single newline (spec/tail.md 1.1).
            Lang::Tail => assert!(
                source.ends_with(")\n") && !source.ends_with("\n\n"),
                "{}",
                t.name
            ),
            Lang::Fcl => assert!(source.contains("val main"), "{} has no main", t.name),
        }
        if let Expectation::Output(out) = &t.expectation {
            assert!(
                out.ends_with('\n') && !out.is_empty(),
                "{}: expected output must end in a newline",
                t.name
            );
        }
    }
    for folder in paper_examples::SEED_FOLDERS {
        assert!(
            per_seed.get(folder).copied().unwrap_or(0) >= 5,
            "{folder} has too few examples"
        );
    }
}

/// The tailfcl binary: `$TAILFCL_BIN`, else the workspace's target/{debug,release}/tailfcl.
fn tailfcl() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("TAILFCL_BIN") {
        return Some(PathBuf::from(p));
    }
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| paper_examples::root().join("..").join("target"));
    ["debug", "release"]
        .iter()
        .map(|p| target.join(p).join("tailfcl"))
        .find(|p| p.is_file())
}

#[test]
fn every_example_passes_on_every_engine_that_runs_it() {
    let Some(binary) = tailfcl() else {
        eprintln!("no tailfcl binary built (cargo build, or set TAILFCL_BIN): engines not run");
        return;
    };
    let tests = discover(&paper_examples::seed_dirs()).unwrap();
    let oracle = CliEngine::oracle(binary.clone());
    let opencl = CliEngine::opencl(binary, 0);
    let engines: [&dyn Engine; 2] = [&oracle, &opencl];
    let report = run_suite(&tests, &engines);
    let problems: Vec<String> = report
        .rows
        .iter()
        .filter(|r| matches!(r.status, Status::Fail | Status::Error))
        .map(|r| format!("{} {} on {}: {}", r.status, r.test, r.engine, r.detail))
        .collect();
    eprintln!("paper examples: {}", report.summary());
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
