//! Every conformance suite of the repository — the paper examples and examples/ — passes on every
//! engine that runs it: the oracles, and the OpenCL compiler on device 0 (PoCL in CI). Without an
//! OpenCL platform the compiled runs are skipped, and the test says so.

use conformance::suite::{discover, run_suite_with, CliEngine, Engine, Status};
use std::path::PathBuf;

/// The paper examples (tests named `seed000-push/...`, as in oracle-costs.csv) and examples/.
fn suites() -> Vec<PathBuf> {
    vec![
        paper_examples::root(),
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples"),
    ]
}

#[test]
fn every_example_passes_on_every_engine_that_runs_it() {
    let binary = PathBuf::from(env!("CARGO_BIN_EXE_tailfcl"));
    let tests = discover(&suites()).unwrap();
    assert!(tests.len() >= 100, "only {} tests found", tests.len());
    let oracle = CliEngine::oracle(binary.clone());
    let opencl = CliEngine::opencl(binary, 0);
    let engines: [&dyn Engine; 2] = [&oracle, &opencl];
    // every test runs its own processes: one job per core
    let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    let report = run_suite_with(&tests, &engines, jobs, &mut |_| {});
    eprintln!("conformance suites: {}", report.summary());
    let problems: Vec<String> = report
        .rows
        .iter()
        .filter(|r| matches!(r.status, Status::Fail | Status::Error))
        .map(|r| format!("{} {} on {}: {}", r.status, r.test, r.engine, r.detail))
        .collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    // The oracle judges every test: none may be skipped there.
    let oracle_skips: Vec<&str> = report
        .rows
        .iter()
        .filter(|r| r.engine == "oracle" && r.status == Status::Skip)
        .map(|r| r.test.as_str())
        .collect();
    assert!(
        oracle_skips.is_empty(),
        "skipped on the oracle: {oracle_skips:?}"
    );
    costs_in_the_readme_are_current(&report);
    let compiled = report
        .rows
        .iter()
        .filter(|r| r.engine == "opencl" && r.status == Status::Pass)
        .count();
    if compiled == 0 {
        eprintln!("skipped: no OpenCL platform, compiled runs not checked");
        return;
    }
    // compiled TAIL fails where the TAIL semantics fails (exit 3): no TAIL test is left to the
    // oracle alone, the error tests included
    let tail_skips: Vec<&str> = tests
        .iter()
        .filter(|t| t.lang == conformance::suite::Lang::Tail)
        .filter(|t| {
            report
                .rows
                .iter()
                .any(|r| r.engine == "opencl" && r.test == t.name && r.status == Status::Skip)
        })
        .map(|t| t.name.as_str())
        .collect();
    assert!(
        tail_skips.is_empty(),
        "TAIL tests skipped on opencl: {tail_skips:?}"
    );
}

/// paper-examples/README.md quotes each FCL example's cost and work on its machine, from
/// scripts/oracle-costs.csv; they must be what the oracle measures now (regenerate with
/// scripts/oracle_costs.py when the oracle's cost model changes).
fn costs_in_the_readme_are_current(report: &conformance::suite::Report) {
    let path = paper_examples::root()
        .join("scripts")
        .join("oracle-costs.csv");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut checked = 0;
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        let (test, cost, work) = (f[0], f[3], f[4]);
        let row = report
            .rows
            .iter()
            .find(|r| r.engine == "oracle" && r.test == test)
            .unwrap_or_else(|| panic!("{test} in oracle-costs.csv is not a test"));
        let got = (
            row.cost.map(|c| c.to_string()),
            row.work.map(|w| w.to_string()),
        );
        assert_eq!(
            got,
            (Some(cost.to_string()), Some(work.to_string())),
            "{test}: README figures are stale; run paper-examples/scripts/oracle_costs.py"
        );
        checked += 1;
    }
    assert!(checked >= 50, "only {checked} FCL examples have figures");
}
