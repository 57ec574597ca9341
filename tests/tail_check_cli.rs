//! `tailfcl check FILE.tail`: prints the program's type; parse and type errors are rendered with
//! file, line, column and a caret on stderr, exit status 2.

use std::process::{Command, Output};

fn check_text(name: &str, text: &str) -> Output {
    let dir = std::env::temp_dir().join(format!("tailfcl-tail-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_tailfcl"))
        .arg("check")
        .arg(&path)
        .output()
        .expect("tailfcl runs");
    let _ = std::fs::remove_file(&path);
    out
}

#[test]
fn check_prints_the_type() {
    let out = Command::new(env!("CARGO_BIN_EXE_tailfcl"))
        .args(["check", "paper-examples/seed004-thesis/power.tail"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "[double]0\n");
    let out = check_text("vec.tail", "let v1:<int>3 = iotaV(3) in\nv1\n");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "<int>3\n");
}

#[test]
fn type_errors_exit_2_with_a_caret() {
    let out = check_text(
        "bad.tail",
        "let v1:<int>3 = iotaV(3) in\ni2d(reduce(addd,0.0,v1))\n",
    );
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad.tail:2:"), "{err}");
    assert!(err.contains("type error"), "{err}");
    assert!(err.contains("^"), "{err}");
}

#[test]
fn parse_errors_exit_2_with_a_caret() {
    let out = check_text("bad.tail", "let v1:<int>3 = iotaV(3) in\ni2d(foo(v1))\n");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("bad.tail:2:5: parse error: unknown operator `foo`"),
        "{err}"
    );
    let deep = format!("{}1{}", "negi(".repeat(100_000), ")".repeat(100_000));
    let out = check_text("deep.tail", &deep);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("nesting too deep"));
}
