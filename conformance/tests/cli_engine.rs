//! The `tailfcl`-driving engine end to end, against a stand-in binary (a shell script that obeys
//! the command-line contract): arguments, working folder, exit statuses and `--stats` parsing.
#![cfg(unix)]

use conformance::suite::{discover, run_suite, CliEngine, ErrorClass, RunStatus, Status};
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tailfcl-cli-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// A stand-in for `tailfcl`: `run FILE ...` prints FILE's first line as the output. A first line
/// `exit N` exits with N instead, `pwd` prints the working folder, and `sleep` hangs. Every run
/// first reports its arguments on stderr.
fn stand_in(dir: &Path) -> PathBuf {
    let path = dir.join("tailfcl");
    let script = r#"#!/bin/sh
cmd="$1"; file="$2"; shift 2
echo "args: $cmd $file $*" >&2
first=$(head -n 1 "$file")
case "$first" in
  exit\ 2nb) echo "error: TAIL run is not built yet" >&2; exit 2 ;;
  exit*) echo "err: rule 5.61" >&2; exit ${first#exit } ;;
  sleep) exec sleep 30 ;;
  pwd) pwd; exit 0 ;;
esac
echo "steps: 12 cost: 5 work: 20" >&2
echo "$first"
"#;
    fs::write(&path, script).unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
    path
}

fn add(dir: &Path, name: &str, program: &str, expectation: (&str, &str)) {
    fs::write(dir.join(name), program).unwrap();
    let stem = name.rsplit_once('.').unwrap().0;
    fs::write(dir.join(format!("{stem}.{}", expectation.0)), expectation.1).unwrap();
}

#[test]
fn drives_the_binary_and_reads_its_exit_status() {
    let bin_dir = scratch("bin");
    let binary = stand_in(&bin_dir);
    let suite = scratch("suite");
    add(&suite, "good.tail", "[](1.0)\n", ("expected", "[](1.0)\n"));
    add(&suite, "bad.tail", "[](2.0)\n", ("expected", "[](1.0)\n"));
    add(
        &suite,
        "fails.fcl",
        "exit 3\n",
        ("expected-error", "index-out-of-bounds\n"),
    );
    fs::write(suite.join("fails.machine"), "4x8\n").unwrap();
    add(
        &suite,
        "static.tail",
        "exit 2\n",
        ("expected-error", "index-out-of-bounds\n"),
    );
    add(
        &suite,
        "limit.tail",
        "exit 4\n",
        ("expected-error", "step-limit\n"),
    );
    add(
        &suite,
        "missing.tail",
        "exit 2nb\n",
        ("expected", "[](1.0)\n"),
    );
    add(&suite, "crash.tail", "exit 70\n", ("expected", "[](1.0)\n"));
    add(
        &suite,
        "declined.tail",
        "exit 6\n",
        ("expected", "[](1.0)\n"),
    );
    let tests = discover(std::slice::from_ref(&suite)).unwrap();
    let oracle = CliEngine::oracle(binary.clone());
    let report = run_suite(&tests, &[&oracle]);
    let status = |name: &str| report.rows.iter().find(|r| r.test == name).unwrap().clone();
    assert_eq!(status("good").status, Status::Pass);
    assert_eq!(
        (
            status("good").steps,
            status("good").cost,
            status("good").work
        ),
        (Some(12), Some(5), Some(20))
    );
    assert_eq!(status("bad").status, Status::Fail);
    assert_eq!(
        status("bad").detail,
        "line 1 element []: expected 1.0, got 2.0"
    );
    assert_eq!(status("fails").status, Status::Pass);
    // The program is passed by file name, with --stats and its machine.
    assert_eq!(
        status("fails").detail,
        "args: run fails.fcl --stats --machine 4x8"
    );
    assert_eq!(status("static").status, Status::Fail);
    assert_eq!(status("limit").status, Status::Pass);
    assert_eq!(status("missing").status, Status::Skip);
    assert_eq!(status("crash").status, Status::Error);
    // Exit 6: the compiler declines the program; the engine does not apply, and says why.
    assert_eq!(status("declined").status, Status::Skip);
    assert!(status("declined").detail.starts_with("unsupported: "));

    // The program runs from its own folder, by file name, with --stats and the machine.
    let test = tests.iter().find(|t| t.name == "fails").unwrap();
    let outcome = conformance::suite::Engine::run(&oracle, test);
    assert_eq!(
        outcome.status,
        RunStatus::ProgramError {
            class: ErrorClass::Runtime,
            kind: None,
            message: "args: run fails.fcl --stats --machine 4x8".into()
        }
    );
}

#[test]
fn a_hanging_engine_times_out_as_an_error() {
    let bin_dir = scratch("bin-hang");
    let binary = stand_in(&bin_dir);
    let suite = scratch("suite-hang");
    add(&suite, "hang.tail", "sleep\n", ("expected", "[](1.0)\n"));
    let tests = discover(std::slice::from_ref(&suite)).unwrap();
    let oracle = CliEngine::oracle(binary).with_timeout(std::time::Duration::from_millis(300));
    let report = run_suite(&tests, &[&oracle]);
    assert_eq!(report.rows[0].status, Status::Error);
    assert!(
        report.rows[0].detail.contains("timed out"),
        "{}",
        report.rows[0].detail
    );
}
