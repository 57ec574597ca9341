//! What the end-to-end tests of the `tailfcl` binary share: running it, and asking whether an
//! OpenCL platform exists (tests that need one print that they skipped when none does).
#![allow(dead_code)] // each test file uses its own part

use std::process::Command;

/// Runs `tailfcl ARGS` in the repository root: (exit status, stdout, stderr).
pub fn tailfcl(args: &[&str]) -> (i32, String, String) {
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

/// Whether an OpenCL device exists; prints that the test skipped when none does.
pub fn have_device() -> bool {
    let (code, _, _) = tailfcl(&["devices"]);
    if code == 5 {
        println!("skipped: no OpenCL platform");
    }
    code == 0
}
