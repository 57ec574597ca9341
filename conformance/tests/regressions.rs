//! Replays every saved program under conformance/regressions/ through the fuzzer's comparison.

use compiler::runtime::Runtime;
use conformance::fuzz::{check_fcl_on, Verdict};
use std::path::Path;

#[test]
fn saved_programs_pass_the_differential_check() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("regressions");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("regressions folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "fcl"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no regression programs under {dir:?}");
    // the compiled side too where an OpenCL device exists, as in `tailfcl fuzz`
    let device = Runtime::new(0).ok();
    if device.is_none() {
        println!("no OpenCL device: replaying on the oracle configurations only");
    }
    for f in &files {
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
