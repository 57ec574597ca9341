//! `while` loops whose condition depends on run-time data: at grid level a host loop of
//! launches (the step's kernels generated once, the condition read back each trip), for steps
//! that keep the length and steps that halve it; at block and thread level a run-time loop in
//! the kernel over a buffer pair, with steps that read other work-items' elements (a reversal, a
//! rotation: wrong if a step overwrote what it reads). All agree with the oracle at -O0 and -O2.
//! The differential tests skip (with a message) when there is no OpenCL platform.

mod support;

use compiler::kir::{Expr, HostStep, Module, Stmt};
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

/// A block-level while per work-group: reverse and bump the group's local array while its first
/// element is below a bound that depends on the group (so only known at run time).
fn block_while(k: i32) -> String {
    format!(
        "fun rev a = generate (lengthPull a) (fn j => index a (lengthPull a - 1 - j) + 1)
fun step a = return<block> (push<block> (rev a))
fun chunk b = while<block> (fn a => lti (index a 0) (b * 3 + {k})) step (return<block> (push<block> (generate 8 (fn j => b + j))))
sig main : Program <grid> unit
val main = do<grid>
  {{ p <- concat<block> 8 (generate 3 (fn b => do<block> {{ r <- chunk b ; return<block> (push<block> r) }}))
  ; a <- forceAndPrint 24 p
  ; return<grid> ()
  }}
"
    )
}

/// A thread-level while per work-item over a private array of 4, rotated and scaled while its
/// first element is below a bound that depends on the work-item's input.
fn thread_while(k: i32) -> String {
    format!(
        "fun step a = return<thread> (push<thread> (generate 4 (fn j => index a ((j + 1) % 4) * 2 + j)))
fun cell t = while<thread> (fn a => lti (index a 0) (t * 10 + {k})) step (return<thread> (push<thread> (generate 4 (fn j => t + j))))
sig main : Program <grid> unit
val main = do<grid>
  {{ p <- concat<block> 4 (generate 2 (fn b => return<block> (push<block> (generate 4 (fn t => b * 4 + t)))))
  ; q <- force<grid> p
  ; s <- concat<block> 16 (generate 2 (fn b => concat<thread> 4 (generate 4 (fn t => do<thread> {{ c <- cell (index q (b * 4 + t)) ; return<thread> (push<thread> c) }}))))
  ; a <- forceAndPrint 32 s
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

/// Whether some kernel holds a sequential loop bounded by a variable (a run-time loop).
fn has_run_time_loop(m: &Module) -> bool {
    fn in_block(b: &[Stmt]) -> bool {
        b.iter().any(|s| match s {
            Stmt::For { end, body, .. } => matches!(end, Expr::Var(_)) || in_block(body),
            Stmt::If(_, t, e) => in_block(t) || in_block(e),
            _ => false,
        })
    }
    m.kernels.iter().any(|k| in_block(&k.body))
}

#[test]
fn a_kernel_while_on_run_time_data_is_a_run_time_loop() {
    for src in [block_while(5), thread_while(7)] {
        let m = compile(&src);
        assert!(has_run_time_loop(&m), "{src}");
        assert!(host_while(&m).is_none());
    }
}

#[test]
fn kernel_while_loops_agree_with_the_oracle() {
    let Some(rt) = support::runtime() else {
        return;
    };
    let mut compared = 0;
    // 0 runs no step, the others a number of steps that differs between groups or items
    for k in [0, 5, 20] {
        for src in [block_while(k), thread_while(k)] {
            compared += support::assert_agrees_with_oracle(&rt, "while.fcl", &src);
        }
    }
    assert_eq!(compared, 12);
}

/// A block `while` whose condition never fails: the kernel stops at its trip limit and the host
/// reports a run-time error (exit 3 in the CLI), at -O0 and -O2, instead of a silent result.
#[test]
fn a_kernel_while_that_does_not_terminate_is_a_run_time_error() {
    let Some(rt) = support::runtime() else {
        return;
    };
    let src = "sig main : Program <grid> unit\nval main = do<grid> { g <- (concat<block> 4 \
               (generate 1 (fn b => do<block> { r <- while<block> (fn a => lti (index a 0) 5) \
               (fn a => return<block> (push<block> (generate 4 (fn i => index a i)))) \
               (return<block> (push<block> (generate 4 (fn i => i)))) ; \
               return<block> (push<block> r) }))) ; a <- forceAndPrint 4 g ; return<grid> () }\n";
    let main = load_program(&[("loop.fcl".to_string(), src.to_string())])
        .unwrap_or_else(|(_, d)| panic!("{}", d.message))
        .main;
    for opt in [OptLevel::O0, OptLevel::O2] {
        let m = compile_fcl(&main, opt, DEFAULT_BLOCK_SIZE).expect("compiles");
        let err = match compiler::exec::execute(&m, &rt) {
            Ok(r) => panic!("{opt:?}: ran to an end: {}", r.stdout),
            Err(e) => e.to_string(),
        };
        assert!(err.contains("more than 1048576 trips"), "{opt:?}: {err}");
    }
}
