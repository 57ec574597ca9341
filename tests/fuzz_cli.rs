//! `tailfcl fuzz` end to end through the binary: summary line, statistics, CSV report, shards,
//! determinism, TAIL mode and bad arguments.

use std::process::Command;

fn tailfcl(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tailfcl"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn temp(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("tailfcl-fuzz-cli-{}-{name}", std::process::id()))
}

#[test]
fn fcl_shard_writes_report_and_summary() {
    let report = temp("report.csv");
    let save = temp("saved");
    let (code, out, err) = tailfcl(&[
        "fuzz",
        "--lang",
        "fcl",
        "--count",
        "8",
        "--seed",
        "4",
        "--jobs",
        "2",
        "--shard",
        "1/2",
        "--save",
        save.to_str().unwrap_or("fuzz-failures"),
        "--report",
        report.to_str().unwrap_or("report.csv"),
    ]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.starts_with("4 passed, 0 failed\n"), "{out}");
    assert!(
        out.contains("programs generated: 4  valid: 4 (100.00%)"),
        "{out}"
    );
    assert!(out.contains("rule coverage: 5.50 beta:"), "{out}");
    let csv = std::fs::read_to_string(&report).expect("report written");
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(rows[0], "index,seed,status,bytes,millis,detail,engine");
    let indices: Vec<&str> = rows[1..]
        .iter()
        .map(|r| r.split(',').next().unwrap_or(""))
        .collect();
    assert_eq!(indices, ["1", "3", "5", "7"]);
    let _ = std::fs::remove_file(report);
}

#[test]
fn tail_campaign_is_deterministic() {
    let run = || tailfcl(&["fuzz", "--lang", "tail", "--count", "50", "--seed", "8"]);
    let (code, out, err) = run();
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("50 passed, 0 failed\n"), "{out}");
    assert!(out.contains("rule coverage: 3.32 "), "{out}");
    assert!(out.contains("rules never reached: "), "{out}");
    assert!(out.contains(" reshape:"), "{out}");
    let (_, again, _) = run();
    let stable = |s: &str| -> String { s.lines().filter(|l| !l.starts_with("time:")).collect() };
    assert_eq!(stable(&out), stable(&again));
}

#[test]
fn bad_shard_is_a_usage_error() {
    let (code, _, err) = tailfcl(&["fuzz", "--count", "1", "--shard", "2/2"]);
    assert_eq!(code, 2);
    assert!(err.contains("bad --shard"), "{err}");
}

#[test]
fn unknown_fault_is_a_usage_error_listing_the_faults() {
    let (code, _, err) = tailfcl(&["fuzz", "--inject", "no-such-fault", "--count", "1"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("missing-barrier"), "{err}");
    let (code, _, err) = tailfcl(&["fuzz", "--mutation-score", "--inject", "nope"]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn mutation_score_of_one_fault_prints_its_row() {
    let (code, out, err) = tailfcl(&[
        "fuzz",
        "--mutation-score",
        "--inject",
        "store-off-by-one",
        "--count",
        "40",
        "--seed",
        "1",
    ]);
    if code == 5 {
        eprintln!("skipping: no OpenCL device ({err})");
        return;
    }
    assert_eq!(code, 0, "{out}{err}");
    // the fault column is as wide as the longest fault name (the TAIL lowering's included)
    assert!(
        out.lines()
            .any(|l| l.starts_with("store-off-by-one ")
                && l.split_whitespace().nth(1) == Some("yes")),
        "{out}"
    );
    assert!(out.contains("mutation score: 1/1"), "{out}");
}

#[test]
fn fcl_campaign_with_unoptimized_opencl_and_small_batches_passes() {
    let save = temp("saved-noopt");
    let (code, out, err) = tailfcl(&[
        "fuzz",
        "--lang",
        "fcl",
        "--count",
        "6",
        "--seed",
        "11",
        "--batch",
        "2",
        "--cl-opt-disable",
        "--save",
        save.to_str().unwrap_or("fuzz-failures"),
    ]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.starts_with("6 passed, 0 failed\n"), "{out}");
}
