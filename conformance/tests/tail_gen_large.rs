//! The TAIL generator's large arrays and edge cases: a steady share of programs binds arrays
//! longer than a work-group (lengths off the block size), with signed division and empty
//! reductions among them; every one runs on the TAIL oracle and prints what the generator
//! predicts.

use conformance::fuzz::tail::check_tail;
use conformance::fuzz::{program_seed, Verdict};
use conformance::gen::tail_gen::generate_tail;
use conformance::gen::tail_gen::large::{is_large_program, LARGE_SIZE};
use conformance::gen::Rng;

/// The literal `iota` counts of a source.
fn iota_counts(src: &str) -> Vec<usize> {
    src.match_indices("iota(")
        .filter_map(|(at, _)| {
            let digits: String = src[at + 5..]
                .chars()
                .take_while(|c| c.is_ascii_digit())
                .collect();
            digits.parse().ok()
        })
        .collect()
}

#[test]
fn a_steady_share_of_programs_is_large_and_the_oracle_agrees() {
    let n = 200;
    let cases: Vec<_> = (0..n)
        .map(|k| generate_tail(&mut Rng::new(program_seed(7, k)), 8))
        .collect();
    let large: Vec<_> = cases
        .iter()
        .filter(|c| is_large_program(&c.source))
        .collect();
    let share = large.len() as f64 / n as f64;
    eprintln!("large programs: {} of {n}", large.len());
    assert!((0.1..=0.45).contains(&share), "share {share}");
    // lengths beyond a block, never a multiple of it (a partial last block)
    let counts: Vec<usize> = large
        .iter()
        .flat_map(|c| iota_counts(&c.source))
        .filter(|&m| m >= LARGE_SIZE)
        .collect();
    assert!(counts.iter().any(|&m| m > 512), "{counts:?}");
    // matrices with rows longer than a block, and with many rows
    assert!(large
        .iter()
        .any(|c| c.source.contains("reshape([2,") || c.source.contains("reshape([3,")));
    for c in &large {
        let checked = check_tail(c);
        assert_eq!(checked.verdict, Verdict::Pass, "{}", c.source);
    }
}

#[test]
fn signed_division_and_empty_reductions_are_generated() {
    let sources: Vec<String> = (0..300)
        .map(|k| generate_tail(&mut Rng::new(program_seed(7, k)), 8).source)
        .collect();
    let negative_divisor = |s: &&String| {
        ["divi(", "mod("]
            .iter()
            .any(|op| s.contains(op) && s.contains(",-"))
            || s.contains("resi(-")
    };
    assert!(sources.iter().any(|s| negative_divisor(&s)));
    let empty = sources
        .iter()
        .find(|s| s.contains("reduce(") && s.contains(",drop("))
        .expect("an empty reduction");
    let case = sources
        .iter()
        .position(|s| s == empty)
        .map(|k| generate_tail(&mut Rng::new(program_seed(7, k as u64)), 8));
    assert_eq!(check_tail(&case.unwrap()).verdict, Verdict::Pass);
}
