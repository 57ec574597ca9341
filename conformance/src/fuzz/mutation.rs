//! The mutation score: each compiler fault of `compiler::fault` injected in turn, generated
//! programs checked against the oracle until the first mismatch. A fault that no program of the
//! campaign detects shows what the generator does not exercise.

use super::oracle::{check_fcl_with_fault, Verdict};
use super::program_seed;
use super::tail::{check_tail_program, CompiledSide};
use crate::gen::tail_gen::generate_tail;
use crate::gen::{generate_fcl, print_program, FclConfig, Rng};
use compiler::fault::Fault;
use compiler::runtime::Runtime;

/// The `let` budget of generated TAIL programs, as the TAIL campaign uses.
pub const TAIL_MAX_LETS: usize = 8;

/// How one fault fared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FaultScore {
    pub fault: Fault,
    /// The index of the first program whose compiled output differed, if any did.
    pub detected_at: Option<u64>,
    /// Programs checked (up to and including the detecting one).
    pub checked: u64,
    /// The faulty program crashed the process (memory corruption) at `detected_at`.
    pub crashed: bool,
}

/// Checks programs `0..count` of the FCL campaign `seed` with `fault` injected, stopping at
/// the first mismatch that the fault-free compiler does not share (a real compiler bug or an
/// unsupported program must not be credited to the fault).
pub fn first_detection(
    fault: Fault,
    seed: u64,
    count: u64,
    config: &FclConfig,
    rt: &Runtime,
    on_program: &mut dyn FnMut(u64),
) -> FaultScore {
    first_detection_by(fault, seed, count, on_program, &mut |s, fault| {
        let src = print_program(&generate_fcl(&mut Rng::new(s), config));
        check_fcl_with_fault(&src, s, Some(rt), fault).verdict
    })
}

/// [`first_detection`] over the TAIL campaign `seed`: each generated TAIL program lowered to
/// FCL and compiled by the faulty compiler, against the TAIL oracle.
pub fn first_detection_tail(
    fault: Fault,
    seed: u64,
    count: u64,
    rt: &Runtime,
    on_program: &mut dyn FnMut(u64),
) -> FaultScore {
    first_detection_by(fault, seed, count, on_program, &mut |s, fault| {
        let case = generate_tail(&mut Rng::new(s), TAIL_MAX_LETS);
        let side = CompiledSide {
            runtime: rt,
            fault,
            options: "",
            optimized: true,
        };
        check_tail_program(&case.source, Some(&case.expected), Some(side)).verdict
    })
}

/// The detection loop: `check(program seed, fault)` gives a program's verdict with the fault
/// injected (or none).
fn first_detection_by(
    fault: Fault,
    seed: u64,
    count: u64,
    on_program: &mut dyn FnMut(u64),
    check: &mut dyn FnMut(u64, Option<Fault>) -> Verdict,
) -> FaultScore {
    for k in 0..count {
        on_program(k);
        let s = program_seed(seed, k);
        // a mismatch counts only when the fault-free compiler agrees on the same program
        if matches!(check(s, Some(fault)), Verdict::Mismatch { .. })
            && check(s, None) == Verdict::Pass
        {
            return FaultScore {
                fault,
                detected_at: Some(k),
                checked: k + 1,
                crashed: false,
            };
        }
    }
    FaultScore {
        fault,
        detected_at: None,
        checked: count,
        crashed: false,
    }
}

/// [`first_detection`] for each of `faults`; `progress` hears each score as it is found.
pub fn mutation_score(
    faults: &[Fault],
    seed: u64,
    count: u64,
    config: &FclConfig,
    rt: &Runtime,
    progress: &mut dyn FnMut(&FaultScore),
) -> Vec<FaultScore> {
    faults
        .iter()
        .map(|&f| {
            let score = first_detection(f, seed, count, config, rt, &mut |_| {});
            progress(&score);
            score
        })
        .collect()
}

/// The table: fault, detected?, programs needed.
pub fn render_table(scores: &[FaultScore]) -> String {
    let mut out = format!("{:<27} {:<9} {}\n", "fault", "detected", "programs");
    for s in scores {
        let (det, n) = match s.detected_at {
            Some(k) if s.crashed => ("crash", (k + 1).to_string()),
            Some(k) => ("yes", (k + 1).to_string()),
            None => ("NO", format!(">{}", s.checked)),
        };
        out.push_str(&format!("{:<27} {:<9} {}\n", s.fault.name(), det, n));
    }
    let found = scores.iter().filter(|s| s.detected_at.is_some()).count();
    out.push_str(&format!("mutation score: {found}/{}\n", scores.len()));
    out
}
