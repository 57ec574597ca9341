//! `tailfcl run` and `tailfcl step` on TAIL files: outputs, exit statuses, trace formats; output
//! into a closed pipe.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn tailfcl(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tailfcl"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("tailfcl runs")
}

fn oracle_examples() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> =
        std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("examples"))
            .expect("examples/")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                let n = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
                n.starts_with("oracle_") && n.ends_with(".tail")
            })
            .collect();
    v.sort();
    v
}

#[test]
fn examples_print_their_expected_output() {
    let files = oracle_examples();
    assert!(files.len() >= 8);
    for f in files {
        // File names in programs are relative to the working directory (spec §7).
        let out = Command::new(env!("CARGO_BIN_EXE_tailfcl"))
            .args(["run", f.file_name().unwrap().to_str().unwrap()])
            .current_dir(f.parent().unwrap())
            .output()
            .expect("tailfcl runs");
        let expected = f.with_extension("expected");
        if expected.exists() {
            assert_eq!(
                out.status.code(),
                Some(0),
                "{}: {}",
                f.display(),
                String::from_utf8_lossy(&out.stderr)
            );
            assert_eq!(
                String::from_utf8_lossy(&out.stdout),
                std::fs::read_to_string(&expected).unwrap(),
                "{}",
                f.display()
            );
        } else {
            assert_eq!(out.status.code(), Some(3), "{}", f.display());
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(
                err.contains("error: 3.35 iota: iota of negative number"),
                "{err}"
            );
            assert!(err.contains("oracle_errors_iota.tail:1:17:"), "{err}");
        }
    }
}

#[test]
fn stats_and_limits() {
    let out = tailfcl(&["run", "examples/oracle_transpose_sum.tail", "--stats"]);
    assert_eq!(out.status.code(), Some(0));
    let err = String::from_utf8_lossy(&out.stderr);
    for key in ["steps: ", "work: ", "span: ", "peak store: "] {
        assert!(err.contains(key), "{err}");
    }
    let out = tailfcl(&[
        "run",
        "examples/oracle_transpose_sum.tail",
        "--max-steps",
        "5",
    ]);
    assert_eq!(out.status.code(), Some(4));
    assert!(String::from_utf8_lossy(&out.stderr).contains("step limit"));
    assert!(out.stdout.is_empty());
}

#[test]
fn static_errors_exit_2_with_a_rendered_diagnostic() {
    let dir = std::env::temp_dir().join(format!("tailfcl-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("bad.tail");
    std::fs::write(&f, "let x:[int]0 = 1 in\n  nosuchop(x)\n").unwrap();
    let out = tailfcl(&["run", f.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad.tail:2:3:"), "{err}");
    assert!(err.contains('^'), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn step_formats_parse() {
    let out = tailfcl(&[
        "step",
        "examples/oracle_dotpi_matrices.tail",
        "--format",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    let recs: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(recs.len() > 50);
    assert!(recs.iter().any(|r| r["rule"] == "3.68 zipWith"));
    assert!(recs
        .iter()
        .all(|r| r["work"].is_u64() && r["span"].is_u64()));

    let out = tailfcl(&[
        "step",
        "examples/oracle_dotpi_matrices.tail",
        "--format",
        "csv",
        "--from",
        "5",
        "--limit",
        "10",
    ]);
    let mut rd = csv::Reader::from_reader(out.stdout.as_slice());
    assert_eq!(
        rd.headers().unwrap().iter().take(4).collect::<Vec<_>>(),
        ["step", "rule", "work", "span"]
    );
    let rows: Vec<csv::StringRecord> = rd.records().map(|r| r.unwrap()).collect();
    assert_eq!(rows.len(), 10);
    assert_eq!(&rows[0][0], "5");

    let out = tailfcl(&["step", "examples/oracle_update.tail", "--limit", "1000"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("store: update l"), "{text}");
    assert!(text.contains("3.57 idxassign"));
    assert!(text.trim_end().ends_with("value: [](112.0)"));
}

#[test]
fn output_into_a_closed_pipe_ends_quietly() {
    use std::io::Read;
    use std::process::Stdio;
    // a long trace (4.8 MB, far more than a pipe holds), of which the reader takes a few
    // bytes and then closes the pipe
    let mut child = Command::new(env!("CARGO_BIN_EXE_tailfcl"))
        .args(["step", "examples/fcl/reduce.fcl"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tailfcl runs");
    let mut first = [0u8; 16];
    child
        .stdout
        .take()
        .expect("stdout")
        .read_exact(&mut first)
        .expect("some output");
    let out = child.wait_with_output().expect("tailfcl ends");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        assert!(
            out.status.signal() == Some(libc::SIGPIPE),
            "{:?}",
            out.status
        );
    }
}
