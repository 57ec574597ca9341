//! Grid-level `power` as one host loop whose kernels are generated once, where the count is
//! known only at run time (read back from a device buffer, zero or negative too), the step
//! changes the state's length (a filter, a growing state, a halving one with no host reads) or
//! the step has statements (materialisations, host reads of single elements, a final array
//! whose length was read back in the trip). Each program agrees with the oracle at -O0 and -O2;
//! the number of kernels does not depend on the trip count; 1000 trips of a growing state hold
//! bounded device memory. The runs skip (with a message) when there is no OpenCL platform.

mod support;

use compiler::exec::execute;
use compiler::kir::{Expr, HostStep, Module};
use compiler::{compile_fcl, OptLevel, DEFAULT_BLOCK_SIZE};
use semantics::fcl::lower::load_program;

/// The filter of examples/fcl/power-filter.fcl: `count` trips over a state of `len` elements,
/// trip i keeping the elements x where `(x + i) % modulus != 0` (odd ones when `modulus` is 2,
/// keeping those where `x + i` is odd), then printing the length and up to 12 elements.
fn filter(count: &str, len: i32, modulus: i32) -> String {
    let keep = if modulus == 2 {
        "(x + i) % 2 == 1".to_string()
    } else {
        format!("(x + i) % {modulus} != 0")
    };
    format!(
        "{}fun trips u = {count}
sig main : Program <grid> unit
val main = do<grid>
  {{ cfg <- forceM<grid> (tabulate 4 (fn j => 5 - 4 * j))
  ; c <- return<grid> (trips cfg)
  ; s <- power<grid> c (filterStep (fn i => fn x => {keep}) (fn i => fn x => ((13 * x + 7 * i) / 2) % 1000))
           (initState {len} (fn j => (j * 7919) % 1000))
  ; n <- return<grid> (index s 0)
  ; a <- forceAndPrint (mini (n + 1) 12) (push<grid> s)
  ; return<grid> ()
  }}
",
        support::example_defs("power-filter")
    )
}

/// A state that grows by `i + 1` elements on trip i, after reading its length back.
fn grow(count: i32) -> String {
    format!(
        "{}sig main : Program <grid> unit
val main = do<grid>
  {{ s <- power<grid> {count} (fn i => fn s => do<grid>
           {{ n <- return<grid> (index s 0)
           ; tabulate (n + i + 2) (fn p => if p == 0 then n + i + 1 else if lti n p then 100 * i + p else index s p + 1)
           }}) (initState 3 (fn j => j * 10))
  ; n <- return<grid> (index s 0)
  ; a <- forceAndPrint (n + 1) (push<grid> s)
  ; return<grid> ()
  }}
",
        support::example_defs("power-grow")
    )
}

/// A state whose length halves on each trip with no host read: a host length variable.
fn halve(count: i32) -> String {
    format!(
        "sig main : Program <grid> unit
val main = do<grid>
  {{ s <- power<grid> {count} (fn i => fn a => concat<block> 1 (generate (lengthPull a / 2) (fn b =>
           return<block> (push<block> (generate 1 (fn t => index a (2 * b) + index a (2 * b + 1) + i))))))
           (concat<block> 64 (generate 4 (fn b => return<block> (push<block> (generate 64 (fn t => b * 64 + t))))))
  ; a <- forceAndPrint (lengthPull s) (push<grid> s)
  ; return<grid> ()
  }}
"
    )
}

/// A state of `len` elements that grows by one element a trip, with no host read.
fn grow_by_one(count: i32, len: i32) -> String {
    format!(
        "sig main : Program <grid> unit
val main = do<grid>
  {{ s <- power<grid> {count} (fn i => fn a => concat<block> 1 (generate (lengthPull a + 1) (fn b =>
           return<block> (push<block> (generate 1 (fn t => if lti b (lengthPull a) then index a b + i else i))))))
           (concat<block> 1 (generate {len} (fn b => return<block> (push<block> (generate 1 (fn t => b))))))
  ; a <- forceAndPrint (lengthPull s) (push<grid> s)
  ; return<grid> ()
  }}
"
    )
}

fn compile(src: &str) -> Module {
    let p = load_program(&[("power.fcl".to_string(), src.to_string())])
        .unwrap_or_else(|(_, d)| panic!("{src}\n{}", d.message));
    compile_fcl(&p.main, OptLevel::O2, DEFAULT_BLOCK_SIZE).unwrap_or_else(|e| panic!("{src}\n{e}"))
}

/// The host loops at the top of a plan.
fn loops(m: &Module) -> Vec<(&Expr, &[HostStep])> {
    m.plan
        .iter()
        .filter_map(|s| match s {
            HostStep::Loop { n, body, .. } => Some((n, body.as_slice())),
            _ => None,
        })
        .collect()
}

fn count(body: &[HostStep], f: fn(&HostStep) -> bool) -> usize {
    body.iter().filter(|s| f(s)).count()
}

#[test]
fn the_kernels_of_a_filtering_power_do_not_depend_on_its_trip_count() {
    let kernels: Vec<usize> = [10, 40]
        .iter()
        .map(|n| compile(&filter(&n.to_string(), 700, 2)).kernels.len())
        .collect();
    assert_eq!(kernels[0], kernels[1]);
    // init, the mask's block scans, the inner scan's init and step, the offsets, the gather, print
    assert!(kernels[0] <= 8, "{} kernels", kernels[0]);
    let m = compile(&filter("10", 700, 2));
    let [(n, body)] = loops(&m)[..] else {
        panic!("one host loop: {:?}", m.plan)
    };
    assert_eq!(*n, Expr::Int(10));
    // the trip reads the length and the new length back, allocates at run-time lengths, runs
    // the inner scan's loop, swaps the new state in and sets its length
    assert_eq!(count(body, |s| matches!(s, HostStep::Read(..))), 2);
    assert!(count(body, |s| matches!(s, HostStep::Alloc(..))) >= 3);
    assert_eq!(count(body, |s| matches!(s, HostStep::Loop { .. })), 1);
    assert!(matches!(
        body[body.len() - 2..],
        [HostStep::Swap(..), HostStep::Set(..)]
    ));
}

#[test]
fn a_run_time_count_is_one_host_loop_over_a_read_back_value() {
    let m = compile(&filter("index u 1", 300, 3));
    let [(n, _)] = loops(&m)[..] else {
        panic!("one host loop: {:?}", m.plan)
    };
    let Expr::Var(v) = n else {
        panic!("count {n:?}")
    };
    assert!(m
        .plan
        .iter()
        .any(|s| matches!(s, HostStep::Read(h, ..) if h == v)));
    let small = compile(&filter("index u 0", 300, 3));
    assert_eq!(m.kernels.len(), small.kernels.len());
}

#[test]
fn a_step_that_keeps_the_length_keeps_its_two_buffer_loop() {
    let src = support::main_of(
        "s <- power<grid> 12 (fn i => fn a => concat<block> 4 (generate 4 (fn b => return<block> (push<block> (generate 4 (fn t => index a (15 - b * 4 - t) + i)))))) (concat<block> 4 (generate 4 (fn b => return<block> (push<block> (generate 4 (fn t => b * 4 + t))))))
  ; a <- forceAndPrint 16 (push<grid> s)",
    );
    let m = compile(&src);
    let [(_, body)] = loops(&m)[..] else {
        panic!("one host loop: {:?}", m.plan)
    };
    assert_eq!(count(body, |s| matches!(s, HostStep::Set(..))), 0);
    assert_eq!(count(body, |s| matches!(s, HostStep::Launch { .. })), 1);
    assert!(matches!(body.last(), Some(HostStep::Swap(..))));
}

#[test]
fn a_halving_power_with_a_literal_count_knows_its_final_length() {
    let m = compile(&halve(6));
    let print_len = m.plan.iter().find_map(|s| match s {
        HostStep::Print { len, .. } => Some(len.clone()),
        _ => None,
    });
    assert_eq!(print_len, Some(Expr::Int(4)));
    assert_eq!(loops(&m).len(), 1);
}

#[test]
fn dynamic_power_loops_agree_with_the_oracle() {
    let Some(rt) = support::runtime() else {
        return;
    };
    let mut compared = 0;
    let mut programs = vec![
        // run-time counts 5, 1, -3 and -7 (index u k of 5, 1, -3, -7): none runs for the last two
        filter("index u 0", 700, 2),
        filter("index u 1", 300, 3),
        filter("index u 2", 300, 3),
        filter("index u 3", 0, 3),
        // literal counts: 0 and small ones unroll, the others loop; empty and one-element states
        filter("0", 50, 2),
        filter("7", 0, 2),
        filter("7", 1, 2),
        filter("12", 600, 5),
        grow(0),
        grow(6),
        halve(5),
        halve(8),
        grow_by_one(9, 5),
    ];
    programs.push(filter("index u 0 * 3", 260, 7));
    for src in &programs {
        compared += support::assert_agrees_with_oracle(&rt, "power.fcl", src);
    }
    assert_eq!(compared, 2 * programs.len());
}

#[test]
fn a_thousand_trips_of_a_growing_state_hold_bounded_memory() {
    let Some(rt) = support::runtime() else {
        return;
    };
    let (trips, len) = (1000, 1000);
    let m = compile(&grow_by_one(trips, len));
    let r = execute(&m, &rt).unwrap_or_else(|e| panic!("{e}"));
    // element b: b plus the trip indices from the trip that appended it (trip b - len), or all
    let want: Vec<String> = (0..len + trips)
        .map(|b| {
            let from = (b - len).max(0);
            let sum: i32 = (from..trips).sum();
            (if b < len { b + sum } else { sum }).to_string()
        })
        .collect();
    assert_eq!(r.stdout, format!("[{}]\n", want.join(",")));
    // each trip's state has its own size: a pool keeping every size would hold 1000 of them
    let last = ((len + trips) * 4) as usize;
    assert!(
        r.peak_device_bytes <= 8 * last,
        "peak {} bytes for a final state of {last}",
        r.peak_device_bytes
    );
    // a site that outgrew its buffer gets room to grow: not one allocation per trip
    assert!(r.allocations < 50, "{} allocations", r.allocations);
}

/// The refusal of `src` by the compiler.
fn refusal(src: &str) -> String {
    let p = load_program(&[("power.fcl".to_string(), src.to_string())])
        .unwrap_or_else(|(_, d)| panic!("{src}\n{}", d.message));
    match compile_fcl(&p.main, OptLevel::O2, DEFAULT_BLOCK_SIZE) {
        Ok(_) => panic!("compiled: {src}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn what_cannot_loop_with_a_run_time_count_is_refused_with_the_reason() {
    // the growing state is forced into local memory, which needs a length known when compiling
    let grow = "fn i => fn a => concat<block> (lengthPull a + 1) (generate 1 (fn b => do<block> { x <- force<block> (push<block> (generate (lengthPull a + 1) (fn j => j))) ; return<block> (push<block> x) }))";
    let init = "return<grid> (push<grid> (generate 4 (fn j => j)))";
    let grid = |count: &str| {
        support::main_of(&format!(
            "cfg <- forceM<grid> (concat<block> 4 (generate 1 (fn b => return<block> (push<block> (generate 4 (fn t => t))))))
  ; c <- return<grid> ({count})
  ; s <- power<grid> c ({grow}) ({init})
  ; a <- forceAndPrint 4 (push<grid> s)"
        ))
    };
    let why = refusal(&grid("index cfg 2"));
    assert!(
        why.starts_with("unsupported: power<grid> with a run-time iteration count: force<block> of an array whose length is known only at run time"),
        "{why}"
    );
    // a literal count unrolls it
    assert!(loops(&compile(&grid("6"))).is_empty());
    // inside a kernel the count must be a literal (each work-group's own count here)
    let block = support::main_of(
        "p <- concat<block> 4 (generate 2 (fn b => do<block> { r <- power<block> b (fn i => fn a => return<block> (push<block> (generate 4 (fn j => index a j + 1)))) (return<block> (push<block> (generate 4 (fn j => j)))) ; return<block> (push<block> r) }))
  ; a <- forceAndPrint 8 p",
    );
    let why = refusal(&block);
    assert!(
        why.contains("power<block> inside a kernel with an iteration count known only at run time"),
        "{why}"
    );
}
