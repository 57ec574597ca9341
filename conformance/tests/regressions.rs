//! Replays every saved program under conformance/regressions/ through the fuzzer's comparison:
//! `*.fcl` through the FCL check, `*.tail` (with its `NAME.expected`) through the TAIL check.

use compiler::fault::Fault;
use compiler::runtime::Runtime;
use conformance::fuzz::tail::{check_tail_program, CompiledSide, TAIL_ORACLE_CONFIG};
use conformance::fuzz::{check_fcl_on, Verdict};
use std::path::{Path, PathBuf};

/// The saved programs with extension `ext`, sorted.
fn saved(ext: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("regressions");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("regressions folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no *.{ext} programs under {dir:?}");
    files
}

/// The OpenCL device, where one exists (the compiled side is then replayed too, as in
/// `tailfcl fuzz`).
fn device() -> Option<Runtime> {
    let device = Runtime::new(0).ok();
    if device.is_none() {
        println!("no OpenCL device: replaying on the oracle configurations only");
    }
    device
}

#[test]
fn saved_programs_pass_the_differential_check() {
    let device = device();
    for f in &saved("fcl") {
        let src = std::fs::read_to_string(f).expect("readable");
        let checked = check_fcl_on(&src, 1, device.as_ref());
        assert_eq!(checked.verdict, Verdict::Pass, "{}", f.display());
        assert!(
            checked.reference.contains('['),
            "{} printed nothing",
            f.display()
        );
    }
}

/// A saved TAIL program and the output it must print (`NAME.expected`, the conformance test
/// format).
fn tail_case(f: &Path) -> (String, String) {
    let src = std::fs::read_to_string(f).expect("readable");
    let expected = std::fs::read_to_string(f.with_extension("expected"))
        .unwrap_or_else(|e| panic!("{}: no NAME.expected: {e}", f.display()));
    (src, expected)
}

/// Each `*.tail`: the TAIL oracle prints exactly `NAME.expected`, the lowered program agrees on
/// the FCL oracle, and compiled at -O0 and -O2 where a device exists.
#[test]
fn saved_tail_programs_pass_the_tail_check() {
    let device = device();
    let side = device.as_ref().map(|runtime| CompiledSide {
        runtime,
        fault: None,
        options: "",
        optimized: true,
    });
    for f in &saved("tail") {
        let (src, expected) = tail_case(f);
        let checked = check_tail_program(&src, Some(&expected), side);
        assert_eq!(checked.verdict, Verdict::Pass, "{}", f.display());
        assert_eq!(checked.stdout, expected, "{}", f.display());
        assert!(
            checked.unsupported.is_none(),
            "{}: the lowering or compiler declined it: {:?}",
            f.display(),
            checked.unsupported
        );
    }
}

/// The replay can fail: a wrong expected output is a mismatch on the TAIL oracle, and a program
/// named after the fault it was shrunk under (`...-swapped-operands.tail`) fails again when that
/// fault is injected into the compiled side.
#[test]
fn the_tail_replay_detects_wrong_outputs_and_the_original_faults() {
    let device = device();
    let mut under_fault = 0;
    for f in &saved("tail") {
        let (src, expected) = tail_case(f);
        // the first digit off by one
        let wrong: String = match expected.find(|c: char| c.is_ascii_digit()) {
            Some(i) => {
                let d = expected.as_bytes()[i] - b'0';
                format!("{}{}{}", &expected[..i], (d + 1) % 10, &expected[i + 1..])
            }
            None => format!("{expected}[](0)\n"),
        };
        let checked = check_tail_program(&src, Some(&wrong), None);
        assert!(
            matches!(&checked.verdict, Verdict::Mismatch { config, .. } if config == TAIL_ORACLE_CONFIG),
            "{}: {:?}",
            f.display(),
            checked.verdict
        );
        let stem = f.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
        let (Some(runtime), Some(fault)) = (
            device.as_ref(),
            Fault::ALL.into_iter().find(|x| stem.ends_with(x.name())),
        ) else {
            continue;
        };
        let side = CompiledSide {
            runtime,
            fault: Some(fault),
            options: "",
            optimized: true,
        };
        let checked = check_tail_program(&src, Some(&expected), Some(side));
        assert!(
            matches!(&checked.verdict, Verdict::Mismatch { config, .. } if config.starts_with("compiled")),
            "{} under {}: {:?}",
            f.display(),
            fault.name(),
            checked.verdict
        );
        under_fault += 1;
    }
    if device.is_some() {
        assert!(under_fault > 0, "no *.tail named after a fault");
    }
}
