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

/// A `cat` of matrices of two widths, where a lowering that reads the second operand's rows at
/// the first one's stride goes wrong (the planted fault `tail-cat-stride`), is generated often
/// enough for a 300-program campaign to meet it, and the oracle agrees with the generator.
#[test]
fn matrix_cats_of_two_widths_are_generated_and_agree() {
    let mut two_widths = 0;
    for k in 0..300 {
        let case = generate_tail(&mut Rng::new(program_seed(1, k)), 8);
        let Some(line) = case.source.lines().find(|l| l.contains("]2 = cat(")) else {
            continue;
        };
        let widths: Vec<&str> = line
            .split("reshape([")
            .skip(1)
            .filter_map(|s| s.split(']').next()?.split(',').nth(1))
            .collect();
        if !widths.windows(2).any(|w| w[0] != w[1]) {
            continue;
        }
        let checked = check_tail(&case);
        assert_eq!(checked.verdict, Verdict::Pass, "{}", case.source);
        assert!(checked.rules.contains_key("3.63 cat"), "{}", case.source);
        two_widths += 1;
    }
    assert!(
        two_widths >= 5,
        "{two_widths} cats of two widths in 300 programs"
    );
}
