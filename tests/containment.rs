//! The tester never dies with what it tests: a kernel that crashes the process (planted: a
//! store gigabytes below its buffer) and a kernel that never ends (planted: a loop that does
//! not advance, killed by the watchdog) each end as one failed program, saved, in a campaign
//! that checks every other program and writes its whole CSV report. Skips (and says so) where
//! no OpenCL device exists.

use std::process::Command;

fn temp(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("tailfcl-contain-{}-{name}", std::process::id()))
}

fn tailfcl(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tailfcl"))
        .args(args)
        .output()
        .expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn have_device() -> bool {
    let found = tailfcl(&["devices"]).0 == 0;
    if !found {
        eprintln!("skipped: no OpenCL device");
    }
    found
}

/// Runs a campaign of `count` programs with `fault` planted in program `k`; checks that only
/// program `k` failed, for `why`, that every program has its row, and that `k` was saved.
/// The watchdog must outlast the slowest step of a healthy campaign (a batch's first build on
/// a busy 2-core machine took more than 4 s).
fn planted(lang: &str, count: u64, fault: &str, k: u64, watchdog: &str, why: &str) {
    let (save, report) = (
        temp(&format!("{fault}-saved")),
        temp(&format!("{fault}.csv")),
    );
    let inject = format!("{fault}@{k}");
    let count_s = count.to_string();
    let (code, out, err) = tailfcl(&[
        "fuzz",
        "--lang",
        lang,
        "--count",
        &count_s,
        "--seed",
        "1",
        "--inject",
        &inject,
        "--watchdog",
        watchdog,
        "--save",
        save.to_str().expect("utf-8 path"),
        "--report",
        report.to_str().expect("utf-8 path"),
    ]);
    assert_eq!(code, 1, "{out}\n{err}");
    assert!(
        out.starts_with(&format!("{} passed, 1 failed\n", count - 1)),
        "{out}"
    );
    let csv = std::fs::read_to_string(&report).expect("the report is written");
    let rows: Vec<&str> = csv.lines().skip(1).collect();
    assert_eq!(rows.len() as u64, count, "{csv}");
    for (i, row) in rows.iter().enumerate() {
        assert!(row.starts_with(&format!("{i},")), "{csv}");
        let failed = row.contains(",fail,");
        assert_eq!(failed, i as u64 == k, "{csv}");
        if failed {
            assert!(row.contains(why), "{row}");
        }
    }
    let ext = if lang == "fcl" { "fcl" } else { "tail" };
    let saved = save.join(format!("{ext}-1-{k}.{ext}"));
    assert!(saved.exists(), "{err}");
    let _ = std::fs::remove_dir_all(&save);
    let _ = std::fs::remove_file(&report);
}

#[test]
fn a_crashing_kernel_fails_its_program_only() {
    if have_device() {
        planted(
            "fcl",
            6,
            "planted-crash",
            2,
            "120",
            "contained crash: killed by signal",
        );
    }
}

#[test]
fn a_hanging_kernel_fails_its_program_only() {
    if have_device() {
        // program 3 of the tail campaign reaches the compiled side (program 4 has complex
        // numbers, which the lowering declines)
        planted(
            "tail",
            6,
            "planted-hang",
            3,
            "20",
            "contained hang: no progress for 20 s",
        );
    }
}
