//! `roll` with the counter-based generator (docs/tail-compiler.md §4): FCL's `rollAt` computes
//! on OpenCL exactly what the oracle's generator computes, a `roll` inside `each`/`zipWith`
//! becomes per-element code (a bound computed per element included), the fallbacks that run
//! element by element or trip by trip draw the same numbers, and a negative bound fails with the
//! oracle's rule and place.

mod support;

use compiler::tail::lower_tail;
use support::tail::check_three_levels;
use support::{assert_agrees_with_oracle, main_of, runtime};

fn agree_all(programs: &[&str]) {
    let rt = runtime();
    for src in programs {
        assert!(
            check_three_levels(src, src, rt.as_ref()).unwrap_or_else(|why| panic!("{src}: {why}"))
        );
    }
}

#[test]
fn opencl_draws_what_the_oracle_draws() {
    // sites and draw indices up to 2^31 - 1 (the hash reads them as unsigned 64-bit numbers),
    // bounds 0 and positive, bit for bit (forceAndPrintDoubleExact) at -O0 and -O2
    let body = "a <- forceAndPrintDoubleExact 64 (push<grid> (generate 64 (fn i => \
        rollAt (i * 33554431 + 7) (2147483647 - i * i * 524287) (if lti i 32 then 0 else i * 3))))";
    let src = main_of(body);
    // the FCL oracle's rollAt is the TAIL oracle's generator (semantics::tail::ops::io)
    if let Some(rt) = runtime() {
        assert_agrees_with_oracle(&rt, "roll.fcl", &src);
    }
}

#[test]
fn a_roll_per_element_is_pure_element_code() {
    // 100000 draws: no element-by-element unrolling, a rollAt per element function
    let src = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/tail-compiler/monte_carlo_pi.tail"
    ))
    .unwrap();
    let l = lower_tail(&src).unwrap();
    // (the reduction's fold reads its first element apart from the rest)
    let draws = l.fcl.flat_text().matches("rollAt").count();
    assert!((2..=4).contains(&draws), "{}", l.fcl);
    assert!(
        l.fcl.flat_text().len() < 20_000,
        "{}",
        l.fcl.flat_text().len()
    );
    agree_all(&[&src]);
}

#[test]
fn bounds_computed_per_element_and_at_the_top_level() {
    agree_all(&[
        "each(fn x:[int]0 => roll(x),iota(1000))",
        "reduce(addd,0.0,zipWith(fn x:[int]0 => fn y:[int]0 => roll(muli(x,y)),iota(300),iota(300)))",
        // two sites per element, and one site drawn again by a later each
        "let f:[double]1 = each(fn x:[int]0 => addd(roll(0),roll(x)),iota(500)) in \
         let g:[double]1 = f in reduce(addd,0.0,cat(g,each(fn x:[double]0 => roll(3),f)))",
        // a bound computed from data at the top level
        "let v:[int]1 = each(fn x:[int]0 => muli(x,x),iota(100)) in roll(reduce(addi,0,v))",
        // the each's result read at other elements (a rotation) and twice
        "let r:[double]1 = each(fn x:[int]0 => roll(0),iota(70)) in zipWith(subd,r,rotate(3,r))",
        // draws over a matrix, in row-major order
        "let m:[double]2 = each(fn x:[int]0 => roll(9),reshape([3,4],iota(12))) in transp(m)",
    ]);
}

#[test]
fn draws_the_lowering_cannot_count_per_element_fall_back_in_order() {
    agree_all(&[
        // a function drawing twice per element from one site (a power inside the function)
        "each(fn x:[int]0 => powerScl(fn y:[double]0 => addd(y,roll(0)),2,i2d(x)),iota(20))",
        // a roll in a branch whose condition is computed per element
        "each(fn x:[int]0 => if lti(x,5) then roll(0) else 1.0,iota(10))",
        "each(fn x:[int]0 => condScl(fn y:[double]0 => addd(y,roll(0)),lti(x,3),i2d(x)),iota(20))",
        // a known condition: the draw happens once per element
        "each(fn x:[int]0 => condScl(fn y:[double]0 => addd(y,roll(0)),tt,i2d(x)),iota(20))",
        // nested maps
        "each(fn x:[int]0 => reduce(addd,0.0,each(fn y:[int]0 => roll(y),iota(x))),iota(6))",
        // a power whose step draws, a few known trips: trip by trip
        "power(fn v:[double]1 => each(fn x:[double]0 => addd(x,roll(0)),v),3,[0.0,1.0])",
        // one whose state grows, so its draws per trip do too
        "power(fn s:[double]1 => snoc(each(fn x:[double]0 => addd(x,roll(3)),s),roll(0)),20,each(i2d,iota(5)))",
        // an operator name as the function, and top-level draws around per-element ones
        "let a:[double]0 = roll(5) in let v:[double]1 = each(roll,iota(10)) in \
         let w:[double]1 = zipWith(fn x:[int]0 => fn y:[double]0 => addd(roll(x),y),iota(10),v) in \
         addd(a,addd(roll(7),reduce(addd,0.0,w)))",
    ]);
}

/// Loops whose step draws (a `power` that is one FCL loop, an `each` whose function has
/// statements): trip t of a step drawing d times from a site draws numbers b + t·d + j, so
/// the kernels are built once, whatever the number of trips.
#[test]
fn loops_whose_steps_draw_are_loops() {
    let programs = [
        // a random walk: a top-level draw per trip, with draws of the same site before and
        // after the loop's
        "let w:[int]0 = powerScl(fn s:[int]0 => addi(s,subi(muli(2,b2i(ltd(roll(0),0.5))),1)),700,0) in \
         addd(i2d(w),roll(0))",
        // a draw per element per trip, and a bound per element, next to a top-level draw
        "let v:[double]1 = power(fn s:[double]1 => each(fn x:[double]0 => addd(x,roll(0)),s),200,each(i2d,iota(300))) in \
         let u:[double]1 = power(fn s:[double]1 => zipWith(fn x:[double]0 => fn k:[int]0 => addd(x,roll(k)),s,iota(8)),100,each(i2d,iota(8))) in \
         addd(roll(3),addd(reduce(addd,0.0,v),reduce(addd,0.0,u)))",
        // a loop inside a loop's step: draws of the inner trips counted in the outer's
        "reduce(addd,0.0,power(fn s:[double]1 => power(fn t:[double]1 => each(fn x:[double]0 => maxd(x,roll(0)),t),3,s),40,[0.0,0.0,0.0]))",
        // a map whose function filters and draws: a loop of a trip per element
        "let v:[int]1 = each(fn x:[int]0 => muli(x,3),iota(90)) in \
         reduce(addd,0.0,each(fn x:[int]0 => addd(roll(x),i2d(reduce(addi,0,compress(each(fn y:[int]0 => lti(y,x),v),v)))),v))",
    ];
    for src in programs {
        let l = lower_tail(src).unwrap_or_else(|e| panic!("{src}: {e}"));
        assert!(
            l.fcl.flat_text().contains("power<grid>"),
            "{src}: {}",
            l.fcl
        );
        assert!(
            l.fcl.flat_text().len() < 20_000,
            "{src}: {}",
            l.fcl.flat_text().len()
        );
    }
    agree_all(&programs);
}

#[test]
fn a_negative_bound_fails_with_the_oracles_rule_and_place() {
    // computed per element (the third element's bound is -1), and known
    agree_all(&[
        "each(fn x:[int]0 => roll(subi(2,x)),iota(5))",
        "each(fn x:[int]0 => roll(-3),iota(4))",
        "roll(-2)",
    ]);
    // an empty map draws nothing and does not fail
    agree_all(&["each(fn x:[int]0 => roll(subi(0,x)),iota(0))"]);
}

/// A loop whose step draws a number of times the device computes (an inner loop of computed
/// count, an `if` the device decides, a map over a vector of run-time length, a state that
/// grows): the loop's state counts each site's draws, so the step is lowered once and the
/// counts after the loop are run-time values; one loop each, whatever the trips, no value read
/// back while lowering, and every draw the oracle's.
#[test]
fn loops_whose_steps_draw_a_computed_number_of_times_count_them_in_their_state() {
    let programs = [
        // an `if` on data inside the step, one branch drawing per element
        "let p:[double]1 = power(fn s:[double]1 => if gtd(reduce(addd,0.0,s),900.0) \
         then each(fn y:[double]0 => addd(y,roll(3)),s) else each(fn y:[double]0 => addd(y,1.0),s),\
         6,each(i2d,iota(40))) in addd(roll(5),reduce(addd,0.0,p))",
        // a loop of computed count inside the step
        "let p:[double]1 = power(fn s:[double]1 => let n:[int]0 = reduce(addi,0,\
         compress(each(fn y:[double]0 => gtd(y,30.0),s),each(fn y:[double]0 => 1,s))) in \
         power(fn t:[double]1 => each(fn y:[double]0 => addd(y,roll(3)),t),n,s),3,each(i2d,iota(40))) in \
         addd(roll(3),reduce(addd,0.0,p))",
        // a map of a function with statements whose inner map's length is per element
        "let p:[double]1 = each(fn x:[int]0 => addd(roll(2),reduce(addd,0.0,\
         each(fn y:[int]0 => roll(3),iota(resi(5,x))))),iota(80)) in addd(roll(5),reduce(addd,0.0,p))",
        // a state that grows: its map draws one more each trip
        "power(fn s:[double]1 => snoc(each(fn x:[double]0 => addd(x,roll(3)),s),roll(0)),70,each(i2d,iota(5)))",
        // (found by the generator) an `if` whose branch maps a filtered state: the branch's
        // draws are counted in the branches' state, and the condition's `if` on device values
        // is computed by a kernel, not the host
        "let v:[double]1 = compress(each(fn x:[double]0 => gtd(x,-0.75),[-0.5,0.0,0.5]),[-0.5,0.0,0.5]) in \
         power(fn s:[double]1 => if ltd(first(s),-0.375) then each(fn x:[double]0 => addd(x,roll(0)),s) \
         else each(fn x:[double]0 => subd(x,1.0),s),3,v)",
        "let v:[double]1 = each(i2d,iota(9)) in addd(roll(0),reduce(addd,0.0,power(fn s:[double]1 => \
         if ltd(first(s),3.5) then each(fn x:[double]0 => addd(x,roll(0)),compress(each(fn x:[double]0 => \
         gtd(x,1.0),s),s)) else s,4,v)))",
    ];
    for src in programs {
        let l = lower_tail(src).unwrap_or_else(|e| panic!("{src}: {e}"));
        assert_eq!(l.probes, 0, "{src}");
        assert!(
            l.fcl.flat_text().contains("power<grid>"),
            "{src}: {}",
            l.fcl
        );
        // (the kernels are built once: no copy of the step per trip or element)
        assert!(
            l.fcl.flat_text().matches("rollAt").count() <= 8,
            "{src}: {}",
            l.fcl
        );
    }
    agree_all(&programs);
}

/// A map drawing per element over a vector of run-time length (a filter's result) or an array
/// of run-time extents is per-element code like any other: element i draws number b + i, and
/// the count moves on by the run-time length. Before, it was a loop of a trip per element (2000
/// elements, 2007 launches; 6 now).
#[test]
fn maps_that_draw_over_run_time_lengths_are_element_code() {
    let w = "let v:[int]1 = iota(3000) in \
             let w:[int]1 = compress(each(fn x:[int]0 => gti(resi(3,x),0),v),v) in";
    let programs: Vec<String> = [
        "reduce(addd,roll(0),each(fn x:[int]0 => addd(i2d(x),roll(0)),w))",
        "let r:[double]1 = zipWith(fn x:[int]0 => fn y:[double]0 => addd(roll(resi(7,x)),y),w,each(i2d,w)) in \
         addd(roll(0),reduce(maxd,0.0,r))",
        "let n:[int]0 = resi(40,first(shape(w))) in \
         reduce(addd,0.0,reduce(addd,0.0,each(fn x:[int]0 => addd(roll(0),i2d(x)),reshape([n,7],w))))",
        "power(fn s:[double]1 => each(fn x:[double]0 => addd(x,roll(0)),compress(each(fn x:[double]0 => \
         gtd(x,0.4),s),s)),5,each(fn x:[int]0 => i2d(resi(2,x)),w))",
    ]
    .iter()
    .map(|p| format!("{w} {p}"))
    .collect();
    for (k, src) in programs.iter().enumerate() {
        let l = lower_tail(src).unwrap_or_else(|e| panic!("{src}: {e}"));
        assert_eq!(l.probes, 0, "{src}");
        // (the last one's loop is its `power`'s, one trip per trip)
        let loops = l.fcl.flat_text().matches("power<grid>").count();
        assert_eq!(loops, usize::from(k == 3), "{src}: {}", l.fcl);
    }
    let refs: Vec<&str> = programs.iter().map(String::as_str).collect();
    agree_all(&refs);
}
