//! External engines (docs/external-engines.md), tested with the three engine scripts of
//! tests/external/: `exec.sh` wraps `tailfcl exec` and must pass everything, `corrupt.sh`
//! corrupts the output of programs that use `xor` and must be caught, shrunk (keeping an `xor`)
//! and saved, `reject.sh` declines programs that use `interleaveSeq`, which must count as
//! rejected and not as failed. Also: `tailfcl gen` writes exactly the programs of the fuzz
//! campaign with the same seed, as a suite that passes. A few programs each, to stay cheap.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `tailfcl ARGS` with `$TAILFCL` set for the scripts: exit code, stdout, stderr.
fn tailfcl(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tailfcl"))
        .args(args)
        .env("TAILFCL", env!("CARGO_BIN_EXE_tailfcl"))
        .output()
        .expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `NAME=sh '…/tests/external/SCRIPT.sh' {}`.
fn engine(name: &str, script: &str) -> String {
    let path = root().join("tests/external").join(format!("{script}.sh"));
    format!("{name}=sh '{}' {{}}", path.display())
}

/// A fresh, empty folder for one test.
fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "tailfcl-external-test-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    dir
}

fn s(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 temporary path")
}

/// Whether an OpenCL platform exists (else `exec.sh` can only reject, and that is checked).
fn opencl() -> bool {
    tailfcl(&["devices"]).0 == 0
}

/// The `external NAME: …` statistics line.
fn stats_line<'a>(out: &'a str, name: &str) -> &'a str {
    let prefix = format!("external {name}: ");
    out.lines()
        .find(|l| l.starts_with(&prefix))
        .unwrap_or_else(|| panic!("no `{prefix}` line in:\n{out}"))
}

#[test]
fn gen_writes_the_fuzz_campaigns_programs_as_a_passing_suite() {
    let dir = temp("gen");
    let (suite, copies) = (dir.join("suite"), dir.join("copies"));
    std::fs::create_dir_all(&copies).unwrap();
    let (code, out, err) = tailfcl(&["gen", "--seed", "1", "--count", "6", "--out", s(&suite)]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("wrote 6 programs"), "{out}");
    // an engine that keeps each program the campaign hands it (and declines it)
    let copy = format!("copy=cp {{}} '{}'/ && exit 1", copies.display());
    let (code, out, err) = tailfcl(&[
        "fuzz",
        "--seed",
        "1",
        "--count",
        "6",
        "--no-opencl",
        "--external",
        &copy,
        "--save",
        s(&dir.join("saved")),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(
        stats_line(&out, "copy"),
        "external copy: 0 accepted, 6 rejected, 0 mismatched"
    );
    for k in 0..6 {
        let name = format!("fcl-1-{k}.fcl");
        let generated = std::fs::read_to_string(suite.join(&name)).expect("gen wrote it");
        let fuzzed = std::fs::read_to_string(copies.join(&name)).expect("the campaign ran it");
        assert_eq!(generated, fuzzed, "program {k}");
        assert!(suite.join(format!("fcl-1-{k}.expected")).exists());
    }
    let (code, out, err) = tailfcl(&["conform", s(&suite), "--engines", "oracle"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.ends_with("6 passed, 0 failed\n"), "{out}");
    // a subset the FCL generator does not have, or any subset for TAIL, is a usage error
    let bad = tailfcl(&["gen", "--subset", "nope", "--out", s(&suite)]);
    assert_eq!(bad.0, 2, "{}", bad.2);
    let tail = tailfcl(&[
        "gen",
        "--lang",
        "tail",
        "--subset",
        "original-fcl",
        "--out",
        s(&suite),
    ]);
    assert_eq!(tail.0, 2, "{}", tail.2);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn the_exec_wrapper_passes_everything() {
    let dir = temp("exec");
    let suite = dir.join("suite");
    for lang in ["fcl", "tail"] {
        let (code, out, err) = tailfcl(&[
            "gen",
            "--lang",
            lang,
            "--seed",
            "2",
            "--count",
            "3",
            "--out",
            s(&suite),
        ]);
        assert_eq!(code, 0, "{out}{err}");
    }
    let report = dir.join("r.csv");
    let exec = engine("exec", "exec");
    let (code, out, err) = tailfcl(&[
        "conform",
        s(&suite),
        "--engines",
        "oracle",
        "--external",
        &exec,
        "--report",
        s(&report),
    ]);
    let csv = std::fs::read_to_string(&report).expect("the report is written");
    let rows: Vec<Vec<&str>> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    let exec_rows: Vec<&Vec<&str>> = rows.iter().filter(|r| r[1] == "exec").collect();
    assert_eq!(exec_rows.len(), 6, "{csv}");
    assert!(exec_rows.iter().all(|r| r[2] == "external"), "{csv}");
    if !opencl() {
        // `tailfcl exec` exits 5: every program is declined, none fails
        assert!(exec_rows.iter().all(|r| r[3] == "reject"), "{csv}");
        eprintln!("skipped: no OpenCL platform, the exec wrapper only rejects");
        return;
    }
    assert_eq!(code, 0, "{out}{err}");
    // (a generated program the oracle stops with a run-time error, `.expected-error`, is the
    // oracle's to judge: the wrapper, which sees only an exit status, skips it)
    let passes = |r: &&Vec<&str>| {
        r[3] == "pass" || (r[3] == "skip" && r[8].contains("does not check run-time errors"))
    };
    assert!(exec_rows.iter().all(passes), "{csv}");
    assert!(
        exec_rows.iter().filter(|r| r[3] == "pass").count() >= 5,
        "{csv}"
    );
    let (code, out, err) = tailfcl(&[
        "fuzz",
        "--seed",
        "2",
        "--count",
        "3",
        "--no-opencl",
        "--external",
        &exec,
        "--save",
        s(&dir.join("saved")),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.starts_with("3 passed, 0 failed\n"), "{out}");
    assert_eq!(
        stats_line(&out, "exec"),
        "external exec: 3 accepted, 0 rejected, 0 mismatched"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn the_corrupting_engine_is_caught_shrunk_and_saved() {
    let dir = temp("corrupt");
    let (saved, report) = (dir.join("saved"), dir.join("f.csv"));
    // program 0 of seed 1 uses `xor`, program 1 does not
    let (code, out, err) = tailfcl(&[
        "fuzz",
        "--seed",
        "1",
        "--count",
        "2",
        "--subset",
        "original-fcl",
        "--no-opencl",
        "--external",
        &engine("corrupt", "corrupt"),
        "--save",
        s(&saved),
        "--report",
        s(&report),
    ]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.starts_with("1 passed, 1 failed\n"), "{out}");
    assert_eq!(
        stats_line(&out, "corrupt"),
        "external corrupt: 1 accepted, 0 rejected, 1 mismatched"
    );
    assert!(err.contains("FAIL program 0"), "{err}");
    let original = std::fs::read_to_string(saved.join("fcl-1-0.fcl")).expect("saved");
    let shrunk = std::fs::read_to_string(saved.join("fcl-1-0-shrunk.fcl")).expect("shrunk");
    let info = std::fs::read_to_string(saved.join("fcl-1-0-shrunk.txt")).expect("its outputs");
    assert!(shrunk.len() < original.len(), "{shrunk}");
    assert!(
        shrunk.contains("xor"),
        "the shrinker kept what fails:\n{shrunk}"
    );
    assert!(info.contains("mismatch on: external corrupt"), "{info}");
    let csv = std::fs::read_to_string(&report).expect("the report is written");
    assert!(
        csv.contains(",fail,") && csv.contains(",external corrupt,corrupt\n"),
        "{csv}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn the_rejecting_engine_counts_rejections_not_failures() {
    let dir = temp("reject");
    let reject = engine("reject", "reject");
    let saved = dir.join("saved");
    // programs 1, 2 and 3 of seed 1 (original-fcl) use `interleaveSeq`
    let (code, out, err) = tailfcl(&[
        "fuzz",
        "--subset",
        "original-fcl",
        "--seed",
        "1",
        "--count",
        "4",
        "--no-opencl",
        "--external",
        &reject,
        "--save",
        s(&saved),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.starts_with("4 passed, 0 failed\n"), "{out}");
    assert_eq!(
        stats_line(&out, "reject"),
        "external reject: 1 accepted, 3 rejected, 0 mismatched"
    );
    // unless rejections are failures
    let (code, out, err) = tailfcl(&[
        "fuzz",
        "--subset",
        "original-fcl",
        "--seed",
        "1",
        "--count",
        "2",
        "--no-opencl",
        "--external",
        &reject,
        "--rejects-fail",
        "--save",
        s(&saved),
    ]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.starts_with("1 passed, 1 failed\n"), "{out}");
    // in a suite: `reject` rows with the engine's stderr, and still a passing run
    let suite = dir.join("suite");
    let gen = tailfcl(&[
        "gen",
        "--seed",
        "1",
        "--subset",
        "original-fcl",
        "--count",
        "4",
        "--out",
        s(&suite),
    ]);
    assert_eq!(gen.0, 0, "{}", gen.2);
    let report = dir.join("r.csv");
    let (code, out, err) = tailfcl(&[
        "conform",
        s(&suite),
        "--engines",
        "oracle",
        "--external",
        &reject,
        "--report",
        s(&report),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.ends_with("5 passed, 0 failed, 3 rejected\n"), "{out}");
    let csv = std::fs::read_to_string(&report).expect("the report is written");
    let rejected: Vec<&str> = csv
        .lines()
        .filter(|l| l.split(',').nth(3) == Some("reject"))
        .collect();
    assert_eq!(rejected.len(), 3, "{csv}");
    assert!(
        rejected
            .iter()
            .all(|l| l.contains("interleaveSeq is not supported")),
        "{csv}"
    );
    let strict = tailfcl(&[
        "conform",
        s(&suite),
        "--engines",
        "oracle",
        "--external",
        &reject,
        "--rejects-fail",
    ]);
    assert_eq!(strict.0, 1, "{}{}", strict.1, strict.2);
    let _ = std::fs::remove_dir_all(dir);
}
