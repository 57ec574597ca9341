//! `interleaveSeq<grid>`: the sub-programs run one after another on the host, a host loop of
//! launches writing one result buffer (unrolled only when a sub-program's code depends on its
//! number), agreeing with the oracle at -O0 and -O2. The differential test skips (with a
//! message) when there is no OpenCL platform.

mod support;

use compiler::kir::HostStep;
use compiler::{compile_fcl, OptLevel, DEFAULT_BLOCK_SIZE};
use semantics::fcl::lower::load_program;

/// `n` sub-programs of 8 elements each, every one forcing an array and reading an element of
/// it back on the host; `mapped` wraps the result in a `mapPush` that sees element indices.
fn sequential_parts(n: i32, mapped: bool) -> String {
    let x = if mapped {
        "mapPush<grid> (fn i => fn v => v * 1000 + i) x0"
    } else {
        "x0"
    };
    format!(
        "fun part b = concat<block> 4 (generate 2 (fn c => return<block> (push<block> (generate 4 (fn t => b * 100 + c * 4 + t)))))
fun part2 b = do<grid> {{ x <- part b ; y <- force<grid> x ; part (index y 3) }}
sig main : Program <grid> unit
val main = do<grid>
  {{ x0 <- interleaveSeq<grid> 8 (fn p => snd p * {n} + fst p) (generate {n} part2)
  ; a <- forceAndPrint {len} ({x})
  ; return<grid> ()
  }}
",
        len = 8 * n
    )
}

#[test]
fn a_grid_interleave_seq_is_a_host_loop_of_launches() {
    let src = sequential_parts(5, false);
    let p = load_program(&[("seq.fcl".to_string(), src)]).expect("loads");
    let m = compile_fcl(&p.main, OptLevel::O2, DEFAULT_BLOCK_SIZE).expect("compiles");
    let body = m.plan.iter().find_map(|s| match s {
        HostStep::Loop { body, .. } => Some(body.clone()),
        _ => None,
    });
    let body = body.expect("a host loop");
    assert!(body.iter().any(|s| matches!(s, HostStep::Read(..))));
    let launches = |steps: &[HostStep]| {
        steps
            .iter()
            .filter(|s| matches!(s, HostStep::Launch { .. }))
            .count()
    };
    assert_eq!(launches(&body), 2, "the sub-program's force and its write");
}

#[test]
fn grid_interleave_seq_agrees_with_the_oracle() {
    let Some(rt) = support::runtime() else {
        return;
    };
    let mut compared = 0;
    for n in [1, 3] {
        for mapped in [false, true] {
            let src = sequential_parts(n, mapped);
            compared += support::assert_agrees_with_oracle(&rt, "seq.fcl", &src);
        }
    }
    assert_eq!(compared, 8);
}
