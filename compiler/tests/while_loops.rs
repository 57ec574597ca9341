//! `while` loops whose condition depends on run-time data: at grid level a host loop of
//! launches (the step's kernels generated once, the condition read back each trip), agreeing
//! with the oracle at -O0 and -O2, for steps that keep the length and steps that halve it.
//! The differential tests skip (with a message) when there is no OpenCL platform.

mod support;

use compiler::kir::{HostStep, Module};
use compiler::{compile_fcl, OptLevel, DEFAULT_BLOCK_SIZE};
use semantics::fcl::lower::load_program;

/// Halves every element while the first is above `k` (the condition reads array data).
fn halve_until(k: i32) -> String {
    format!(
        "fun halve a = concat<block> 4 (generate (lengthPull a / 4) (fn b => return<block> (push<block> (generate 4 (fn t => index a (b * 4 + t) / 2)))))
sig main : Program <grid> unit
val main = do<grid>
  {{ x <- while<grid> (fn a => lti {k} (index a 0)) halve (concat<block> 4 (generate 4 (fn b => return<block> (push<block> (generate 4 (fn t => 100 - b * 4 - t))))))
  ; y <- computeInSingleBlock x
  ; a <- forceAndPrint 16 y
  ; return<grid> ()
  }}
"
    )
}

/// Sums neighbours (halving the length) while the first element is below `k`.
fn pair_sums_until(k: i32) -> String {
    format!(
        "fun pairs a = concat<block> 1 (generate (lengthPull a / 2) (fn b => return<block> (push<block> (generate 1 (fn t => index a (2 * b) + index a (2 * b + 1))))))
sig main : Program <grid> unit
val main = do<grid>
  {{ x <- while<grid> (fn a => lti (index a 0) {k}) pairs (concat<block> 4 (generate 4 (fn b => return<block> (push<block> (generate 4 (fn t => b * 4 + t + 1))))))
  ; y <- computeInSingleBlock x
  ; a <- forceAndPrint 1 y
  ; return<grid> ()
  }}
"
    )
}

fn compile(src: &str) -> Module {
    let p = load_program(&[("while.fcl".to_string(), src.to_string())]).expect("loads");
    compile_fcl(&p.main, OptLevel::O2, DEFAULT_BLOCK_SIZE).expect("compiles")
}

/// The host `while` of a plan.
fn host_while(m: &Module) -> Option<(Vec<HostStep>, Vec<HostStep>)> {
    m.plan.iter().find_map(|s| match s {
        HostStep::While { cond, body, .. } => Some((cond.clone(), body.clone())),
        _ => None,
    })
}

#[test]
fn a_grid_while_on_array_data_is_a_host_loop_of_launches() {
    let m = compile(&halve_until(5));
    assert_eq!(m.kernels.len(), 3, "init, the step (once), the print");
    let (cond, body) = host_while(&m).expect("a host while");
    assert!(cond.iter().any(|s| matches!(s, HostStep::Read(..))));
    assert_eq!(
        body.iter()
            .filter(|s| matches!(s, HostStep::Launch { .. }))
            .count(),
        1
    );
    assert!(body.iter().any(|s| matches!(s, HostStep::Swap(..))));
}

#[test]
fn a_grid_while_that_halves_the_length_updates_a_host_length() {
    let m = compile(&pair_sums_until(20));
    let (_, body) = host_while(&m).expect("a host while");
    assert!(matches!(body.last(), Some(HostStep::Set(..))));
}

#[test]
fn grid_while_loops_agree_with_the_oracle() {
    let Some(rt) = support::runtime() else {
        return;
    };
    let mut compared = 0;
    // 200 runs no step (the condition fails at once), 5 several, 0 until the values are 0
    for src in [
        halve_until(200),
        halve_until(5),
        halve_until(0),
        pair_sums_until(1),
        pair_sums_until(20),
        pair_sums_until(100),
    ] {
        compared += support::assert_agrees_with_oracle(&rt, "while.fcl", &src);
    }
    assert_eq!(compared, 12);
}
