//! Guarantees of the lowering: fused pull chains need no intermediate buffer, the tiled
//! transpose is one kernel, and every block-level force ends with a barrier.

use compiler::kir::{Expr, Geom, HostStep, Module, Param, Stmt};
use compiler::{compile_fcl, OptLevel, DEFAULT_BLOCK_SIZE};
use semantics::fcl::lower::load_program;
use std::path::Path;

fn compile(name: &str, src: &str, opt: OptLevel) -> Module {
    let p = load_program(&[(name.to_string(), src.to_string())]).expect("loads");
    compile_fcl(&p.main, opt, DEFAULT_BLOCK_SIZE).expect("compiles")
}

fn example(rel: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(rel)).unwrap()
}

#[test]
fn a_fused_map_generate_chain_has_no_intermediate_buffer() {
    let src = "
sig main : Program <grid> [int]
val main =
  do<grid>
  { r <- generate 1024 (fn i => i)
  |> mapPull (fn x => x * 2)
  |> mapPull (fn x => x + 1)
  |> splitUp 256
  |> mapPull (fn a => return<block> (push<block> (mapPull (fn x => x - 3) a)))
  |> concat<block> 256
  ; forceAndPrint 4 r
  }
";
    for opt in [OptLevel::O0, OptLevel::O2] {
        let m = compile("chain.fcl", src, opt);
        let allocs = m
            .plan
            .iter()
            .filter(|s| matches!(s, HostStep::Alloc(..)))
            .count();
        assert_eq!(allocs, 1, "only the result is allocated");
        assert_eq!(m.kernels.len(), 1);
        let bufs: Vec<_> = m.kernels[0]
            .params
            .iter()
            .filter(|p| matches!(p, Param::Buffer(..)))
            .collect();
        assert_eq!(bufs.len(), 1, "the kernel reads no buffer: {bufs:?}");
        assert!(m.kernels[0].locals.is_empty());
    }
}

#[test]
fn transpose_tiled_is_one_kernel_through_local_memory() {
    for opt in [OptLevel::O0, OptLevel::O2] {
        let m = compile("transpose.fcl", &example("examples/fcl/transpose.fcl"), opt);
        assert_eq!(m.kernels.len(), 1);
        assert_eq!(m.kernels[0].locals.len(), 1, "one tile in local memory");
        let launches = m
            .plan
            .iter()
            .filter(|s| matches!(s, HostStep::Launch { .. }))
            .count();
        assert_eq!(launches, 1);
    }
}

/// Whether the block-parallel loops that store into local memory are each followed by a barrier.
fn local_writes_end_with_barriers(stmts: &[Stmt]) -> Result<(), String> {
    for (i, s) in stmts.iter().enumerate() {
        match s {
            Stmt::For { start, body, .. } => {
                if *start == Expr::Geom(Geom::LocalId)
                    && stores_local(body)
                    && stmts.get(i + 1) != Some(&Stmt::Barrier)
                {
                    return Err(format!("no barrier after {s:?}"));
                }
                local_writes_end_with_barriers(body)?;
            }
            Stmt::If(_, t, e) => {
                local_writes_end_with_barriers(t)?;
                local_writes_end_with_barriers(e)?;
            }
            _ => {}
        }
    }
    Ok(())
}

fn stores_local(stmts: &[Stmt]) -> bool {
    stmts.iter().any(|s| match s {
        Stmt::Store(b, ..) => b.starts_with('l'),
        Stmt::For { body, .. } => stores_local(body),
        Stmt::If(_, t, e) => stores_local(t) || stores_local(e),
        _ => false,
    })
}

#[test]
fn every_block_level_force_ends_with_a_barrier() {
    let mut checked = 0;
    for rel in [
        "examples/fcl/transpose.fcl",
        "examples/fcl/reduce.fcl",
        "examples/fcl/scan.fcl",
        "examples/fcl/matmul.fcl",
    ] {
        for opt in [OptLevel::O0, OptLevel::O2] {
            let m = compile(rel, &example(rel), opt);
            for k in &m.kernels {
                if !k.locals.is_empty() {
                    checked += 1;
                }
                local_writes_end_with_barriers(&k.body).unwrap_or_else(|e| panic!("{rel}: {e}"));
            }
        }
    }
    assert!(checked >= 8, "kernels with local memory checked: {checked}");
}

fn loops_with_barrier(stmts: &[Stmt], trips: i32) -> usize {
    stmts
        .iter()
        .map(|s| match s {
            Stmt::For {
                start: Expr::Int(0),
                end: Expr::Int(n),
                body,
                ..
            } if *n == trips && body.contains(&Stmt::Barrier) => {
                1 + loops_with_barrier(body, trips)
            }
            Stmt::For { body, .. } => loops_with_barrier(body, trips),
            Stmt::If(_, t, e) => loops_with_barrier(t, trips) + loops_with_barrier(e, trips),
            _ => 0,
        })
        .sum()
}

/// Barriers directly in the bodies of sequential loops of `trips` trips.
fn barriers_in_loops(stmts: &[Stmt], trips: i32) -> usize {
    stmts
        .iter()
        .map(|s| match s {
            Stmt::For {
                start: Expr::Int(0),
                end: Expr::Int(n),
                body,
                ..
            } if *n == trips => body.iter().filter(|s| **s == Stmt::Barrier).count(),
            Stmt::For { body, .. } => barriers_in_loops(body, trips),
            Stmt::If(_, t, e) => barriers_in_loops(t, trips) + barriers_in_loops(e, trips),
            _ => 0,
        })
        .sum()
}

#[test]
fn block_level_power_is_a_loop_over_one_buffer_pair() {
    // sklansky: power<block> 2 over chunks of 4
    let m = compile("scan.fcl", &example("examples/fcl/scan.fcl"), OptLevel::O0);
    let k = &m.kernels[0];
    assert_eq!(k.locals.len(), 2, "the state and its pair: {:?}", k.locals);
    // one trip per two steps (A into B, B into A), a barrier after each, no copy back
    assert_eq!(loops_with_barrier(&k.body, 1), 1);
    assert_eq!(barriers_in_loops(&k.body, 1), 2, "{:?}", k.body);
    // -O2 unrolls the static loop: the same buffer pair, the steps still apart by a barrier
    let m = compile("scan.fcl", &example("examples/fcl/scan.fcl"), OptLevel::O2);
    let k = &m.kernels[0];
    assert_eq!(k.locals.len(), 2, "the state and its pair: {:?}", k.locals);
    assert_eq!(loops_with_barrier(&k.body, 1), 0, "{:?}", k.body);
    assert!(count_barriers(&k.body) >= 1, "{:?}", k.body);
}

/// The barriers anywhere in `stmts`.
fn count_barriers(stmts: &[Stmt]) -> usize {
    stmts
        .iter()
        .map(|s| match s {
            Stmt::Barrier => 1,
            Stmt::For { body, .. } => count_barriers(body),
            Stmt::If(_, t, e) => count_barriers(t) + count_barriers(e),
            _ => 0,
        })
        .sum()
}

const GRID_POWER: &str = "
fun step i a = concat<block> 4 (generate (lengthPull a / 4) (fn b => return<block> (push<block> (generate 4 (fn t => index a (b * 4 + t) * 2 + i)))))
sig main : Program <grid> unit
val main = do<grid>
  { x <- power<grid> 10 step (concat<block> 4 (generate 4 (fn b => return<block> (push<block> (generate 4 (fn t => b * 4 + t))))))
  ; y <- computeInSingleBlock x
  ; a <- forceAndPrint 16 y
  ; return<grid> ()
  }
";

#[test]
fn grid_level_power_is_a_host_loop_of_launches() {
    let m = compile("power.fcl", GRID_POWER, OptLevel::O2);
    assert_eq!(m.kernels.len(), 3, "init, the step (once), the print");
    let body = m.plan.iter().find_map(|s| match s {
        HostStep::Loop { n, body, .. } => Some((n.clone(), body.clone())),
        _ => None,
    });
    let (n, body) = body.expect("a host loop");
    assert_eq!(n, Expr::Int(10));
    assert!(body.iter().any(|s| matches!(s, HostStep::Launch { .. })));
    assert!(body.iter().any(|s| matches!(s, HostStep::Swap(..))));
}

/// A kernel without local memory has no barrier at -O0 either: the barrier that ends a
/// work-group's trip guards local memory against the next trip, and a local fence with none
/// orders nothing (with one, every such kernel was a kernel with barriers, which PoCL takes
/// several times as long to generate code for).
#[test]
fn kernels_without_local_memory_have_no_barrier() {
    let src = "sig main : Program <grid> unit\nval main = do<grid> { a <- forceAndPrint 8 (push<grid> (generate 8 (fn i => i * 2))) ; return<grid> () }\n";
    let m = compile("grid.fcl", src, OptLevel::O0);
    for k in &m.kernels {
        assert!(k.locals.is_empty(), "{k:?}");
        assert_eq!(count_barriers(&k.body), 0, "{:?}", k.body);
    }
    // with a block-level force, the trip ends with one
    let src = "sig main : Program <grid> unit\nval main = do<grid> { g <- interleave<block> 3 (fn p => (fst p * 3) + snd p) (generate 2 (fn b => do<block> { a <- force<block> (push<block> (generate 3 (fn i => i * b))) ; return<block> (push<block> a) })) ; a <- forceAndPrint 6 g ; return<grid> () }\n";
    let m = compile("block.fcl", src, OptLevel::O0);
    let k = m.kernels.iter().find(|k| !k.locals.is_empty());
    let k = k.expect("a kernel with local memory");
    assert!(count_barriers(&k.body) >= 2, "{:?}", k.body);
}

/// The `Init` of every top-level allocation, in plan order.
fn inits(m: &Module) -> Vec<compiler::kir::Init> {
    m.plan
        .iter()
        .filter_map(|s| match s {
            HostStep::Alloc(_, _, _, init) => Some(*init),
            _ => None,
        })
        .collect()
}

#[test]
fn buffers_written_whole_are_not_zero_filled_and_others_are() {
    use compiler::kir::Init::{Overwritten, Zero};
    // reverse: a concat of blocks that each push all of theirs
    let m = compile(
        "reverse.fcl",
        &example("examples/fcl/reverse.fcl"),
        OptLevel::O2,
    );
    assert_eq!(inits(&m), vec![Overwritten]);
    // transpose: concatGrid's destinations are a permutation the lowering cannot prove
    let m = compile(
        "transpose.fcl",
        &example("examples/fcl/transpose.fcl"),
        OptLevel::O2,
    );
    assert_eq!(inits(&m), vec![Zero]);
    // an interleave that writes only every second element
    let holes = "
sig main : Program <grid> unit
val main = do<grid>
  { p <- interleave<block> 2 (fn ix => fst ix * 4 + snd ix)
           (generate 2 (fn b => return<block> (push<block> (generate 2 (fn i => i)))))
  ; a <- forceAndPrint 2 p
  ; q <- pushM<grid> (generate 8 (fn i => i))
  ; c <- forceAndPrint 2 q
  ; return<grid> ()
  }
";
    assert_eq!(
        inits(&compile("holes.fcl", holes, OptLevel::O2)),
        vec![Zero, Overwritten]
    );
}

#[test]
fn a_scanl_over_a_range_with_a_run_time_start_compiles() {
    // the range's length (s + 6) - s + 1 mentions the work-item's s, but is 7
    let src = "
sig main : Program <grid> unit
val main = do<grid>
  { p <- generate 8 (fn t => return<thread> (scanl addi 0 (range (t * 7) (t * 7 + 6))))
         |> splitUp 8
         |> mapPull (concat<thread> 8)
         |> concat<block> 64
  ; a <- forceAndPrint 16 p
  ; return<grid> ()
  }
";
    let m = compile("scanl_range.fcl", src, OptLevel::O2);
    assert_eq!(m.kernels.len(), 1);
}

/// A program that scans `n` ints in one thread with a `seqfor` whose step reads cell
/// `i - back`.
fn long_seqfor(n: usize, back: usize, run_time: bool) -> String {
    // the size as a literal, or read from a buffer (not a compile-time constant)
    let size = match run_time {
        true => "(index k 0)".to_string(),
        false => n.to_string(),
    };
    format!(
        "
sig main : Program <grid> unit
val main =
  do<grid>
  {{ k <- forceM<grid> (concat<block> 1 (generate 1 (fn b => return<block> (push<block> (generate 1 (fn t => {n}))))))
  ; s <- concat<block> {size} (generate 1 (fn b => concat<thread> {size} (generate 1 (fn t =>
      return<thread> (seqfor {size} {size} (fn read => fn i =>
        (i, if lti i {back} then i else (read (i - {back})) - i)))))))
  ; a <- forceAndPrint {n} s
  ; return<grid> ()
  }}
"
    )
}

#[test]
fn a_seqfor_past_the_private_limit_or_of_run_time_size_is_a_carried_recurrence() {
    let n = compiler::lower::MAX_PRIVATE + 904;
    let load = |src: &str| load_program(&[("long.fcl".to_string(), src.to_string())]).unwrap();
    for run_time in [false, true] {
        // a recurrence on cell i - 1 or i - 2: carried from trip to trip, no private array,
        // at either level (the lowering carries it: no such array could exist)
        for (back, opt) in [(1, OptLevel::O0), (1, OptLevel::O2), (2, OptLevel::O0)] {
            let p = load(&long_seqfor(n, back, run_time));
            let m = compile_fcl(&p.main, opt, DEFAULT_BLOCK_SIZE)
                .unwrap_or_else(|e| panic!("run_time {run_time}, back {back}, {opt:?}: {e}"));
            assert!(!m
                .kernels
                .iter()
                .any(|k| compiler::kir::opt::walk::any_stmt(&k.body, &mut |s| {
                    matches!(s, Stmt::Private(..))
                })));
        }
        // a step reading cell i - 5 would need the array: refused
        let p = load(&long_seqfor(n, 5, run_time));
        let e = compile_fcl(&p.main, OptLevel::O2, DEFAULT_BLOCK_SIZE).unwrap_err();
        let what = match run_time {
            true => "a seqfor of a run-time size".to_string(),
            false => format!("a seqfor of {n} elements"),
        };
        assert!(
            e.to_string()
                .contains(&format!("{what} whose step reads a cell other than i - 1")),
            "{e}"
        );
    }
}
