//! A small mutation-score run on the OpenCL device detects injected compiler faults (skips, with
//! a message, where no OpenCL device is available).

use compiler::fault::Fault;
use compiler::runtime::Runtime;
use conformance::fuzz::mutation::{first_detection, mutation_score, render_table};
use conformance::gen::FclConfig;

#[test]
fn small_mutation_score_detects_faults() {
    let rt = match Runtime::new(0) {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("skipping the mutation-score test: no OpenCL device ({e})");
            return;
        }
    };
    // a missing barrier shows on CPU implementations (PoCL runs a work-group's items one after
    // another between barriers, so an item reads its neighbour's element before it is
    // written); on a GPU the tiny blocks of generated programs often run in lockstep
    let mut faults = vec![Fault::StoreIndexOffByOne, Fault::AssumedBlockSize];
    if !rt.device.dedicated_local_mem {
        faults.push(Fault::MissingBarrier);
    }
    let scores = mutation_score(&faults, 1, 80, &FclConfig::default(), &rt, &mut |_| {});
    let table = render_table(&scores);
    eprint!("{table}");
    for s in &scores {
        assert!(
            s.detected_at.is_some(),
            "{:?} not detected:\n{table}",
            s.fault
        );
        assert!(!s.crashed);
    }
    // deterministic: the same campaign detects at the same program
    let again = first_detection(faults[0], 1, 80, &FclConfig::default(), &rt, &mut |_| {});
    assert_eq!(again.detected_at, scores[0].detected_at);
}
