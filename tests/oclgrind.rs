//! Oclgrind as the second device: its reports are failures. A compiler fault that drops a
//! barrier gives results Oclgrind happens to get right (it runs work-items one after another),
//! but its race detector sees the race; the campaign must fail that program and save it with
//! the report. Skips (and says so) where Oclgrind is not installed.

use std::process::Command;

fn temp(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("tailfcl-oclgrind-{}-{name}", std::process::id()))
}

fn oclgrind_installed() -> bool {
    Command::new("oclgrind")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn a_race_oclgrind_reports_fails_the_program() {
    if !oclgrind_installed() {
        eprintln!("skipped: oclgrind is not installed (scripts/setup installs it)");
        return;
    }
    let (log, save, report) = (temp("log"), temp("saved"), temp("report.csv"));
    let out = Command::new("oclgrind")
        .args(["--data-races", "--max-errors", "1000000", "--log"])
        .arg(&log)
        .arg(env!("CARGO_BIN_EXE_tailfcl"))
        .args(["fuzz", "--lang", "fcl", "--count", "8", "--seed", "1"])
        .args(["--inject", "missing-barrier", "--save"])
        .arg(&save)
        .arg("--report")
        .arg(&report)
        .output()
        .expect("oclgrind runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let csv = std::fs::read_to_string(&report).expect("the report is written");
    assert!(csv.lines().any(|l| l.contains(",fail,")), "{csv}");
    let saved: Vec<String> = std::fs::read_dir(&save)
        .expect("failures are saved")
        .filter_map(|e| std::fs::read_to_string(e.ok()?.path()).ok())
        .collect();
    assert!(
        saved
            .iter()
            .any(|t| t.contains("Oclgrind reported: Read-write data race")),
        "{saved:?}"
    );
    let _ = std::fs::remove_dir_all(&save);
    let _ = std::fs::remove_file(&log);
    let _ = std::fs::remove_file(&report);
}
