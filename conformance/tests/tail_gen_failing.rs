//! The TAIL generator's failing programs (`gen::tail_gen` module `failing`): a share of programs
//! ends in an expression that fails at run time, the TAIL oracle fails with the rule the
//! generator predicts after the predicted output, and the lowered program on the FCL oracle
//! fails with the same rule after the same output.

use conformance::fuzz::tail::{check_lowered, check_tail, LoweredCheck};
use conformance::fuzz::{program_seed, Verdict};
use conformance::gen::tail_gen::generate_tail;
use conformance::gen::Rng;
use std::collections::BTreeSet;

#[test]
fn failing_programs_are_generated_and_fail_alike_on_both_oracles() {
    let mut rules = BTreeSet::new();
    let mut failing = 0;
    for k in 0..200 {
        let case = generate_tail(&mut Rng::new(program_seed(5, k)), 6);
        let Some(last) = case.expected.lines().last() else {
            continue;
        };
        let Some(rule) = last.strip_prefix("error: ") else {
            continue;
        };
        failing += 1;
        rules.insert(rule.to_string());
        let checked = check_tail(&case);
        assert_eq!(checked.verdict, Verdict::Pass, "{}", case.source);
        match check_lowered(&case.source, &checked.stdout, None) {
            LoweredCheck::Agrees(..) | LoweredCheck::Unsupported(_) => {}
            LoweredCheck::Mismatch(v) => panic!("{}\n{v:?}", case.source),
        }
    }
    assert!(failing >= 10, "{failing} failing programs of 200");
    assert!(rules.len() >= 5, "rules: {rules:?}");
}
