//! The TAIL generator's effectful productions: `idxassign` (3.57) and `formatI` (3.74) are
//! generated, and the TAIL oracle agrees with the generator's evaluation on them (an update is
//! seen by every later use of the array; `formatI`'s text is printed).

use conformance::fuzz::tail::check_tail;
use conformance::fuzz::{program_seed, Verdict};
use conformance::gen::tail_gen::generate_tail;
use conformance::gen::Rng;

#[test]
fn idxassign_and_format_i_are_generated_and_agree() {
    let (mut updates, mut formats) = (0, 0);
    for k in 0..300 {
        let case = generate_tail(&mut Rng::new(program_seed(11, k)), 8);
        let (u, f) = (
            case.source.contains("idxassign("),
            case.source.contains("formatI("),
        );
        if !(u || f) {
            continue;
        }
        let checked = check_tail(&case);
        assert_eq!(checked.verdict, Verdict::Pass, "{}", case.source);
        updates += checked.rules.get("3.57 idxassign").copied().unwrap_or(0);
        formats += checked.rules.get("3.74 formatI").copied().unwrap_or(0);
    }
    assert!(updates >= 10, "3.57 idxassign fired {updates} times");
    assert!(formats >= 10, "3.74 formatI fired {formats} times");
}
