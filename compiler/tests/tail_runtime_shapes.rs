//! Sizes computed from data (docs/tail-compiler.md): counts, shapes and conditions the kernels
//! compute (most of them now: each such program lowers with no device and reads nothing back),
//! `compress`/`replicate` by computed masks and counts, branches and effects inside functions,
//! each checked on the TAIL oracle, the FCL oracle and OpenCL; and what a lowering without a
//! device refuses.

mod support;

use compiler::tail::{lower_tail, LowerTailError};
use support::runtime;
use support::tail::check_three_levels;

/// A vector of n ints computed on the device (not known at compile time: more elements than
/// the lowering evaluates), `(7·i) mod 11 − 3` for i = 1..n.
fn data(n: usize) -> String {
    // (`nowi` makes it data the lowering cannot fold: it is 0 when the program runs)
    format!(
        "let z:[int]0 = maxi(-1,mini(0,nowi(0))) in each(fn x:[int]0 => subi(resi(11,muli(x,7)),subi(3,z)),iota({n}))"
    )
}

fn agree_all(programs: &[String]) {
    let rt = runtime();
    for src in programs {
        assert!(
            check_three_levels(src, src, rt.as_ref()).unwrap_or_else(|why| panic!("{src}: {why}"))
        );
    }
}

#[test]
fn filters_by_computed_masks_and_counts() {
    let v = data(100);
    agree_all(&[
        // a mask from data, the result reduced, printed, and filtered again
        format!("let v:[int]1 = {v} in let w:[int]1 = prArrI(compress(each(fn x:[int]0 => lti(x,2),v),v)) in reduce(addi,0,compress(each(fn x:[int]0 => gti(x,0),w),w))"),
        // nothing and everything kept
        format!("let v:[int]1 = {v} in prArrI(compress(each(fn x:[int]0 => gti(x,100),v),v))"),
        format!("let v:[int]1 = {v} in i2d(reduce(addi,0,compress(each(fn x:[int]0 => lti(x,100),v),v)))"),
        // doubles, chars and bools filtered
        format!("let v:[int]1 = {v} in prArrD(compress(each(fn x:[int]0 => eqi(x,0),v),each(fn x:[int]0 => divd(i2d(x),4.0),v)))"),
        format!("let v:[int]1 = {v} in prArrB(compress(each(fn x:[int]0 => lti(x,0),v),each(fn x:[int]0 => eqi(x,-3),v)))"),
        // replicate by computed counts, negative ones giving fills; zero counts everywhere
        format!("let v:[int]1 = {v} in replicate(0,each(fn x:[int]0 => subi(resi(3,x),1),v),v)"),
        format!("let v:[int]1 = {v} in replicate(0,each(fn x:[int]0 => muli(x,0),v),v)"),
        format!("let v:[int]1 = {v} in replicate(0.0,each(fn x:[int]0 => resi(4,x),v),each(fn x:[int]0 => i2d(x),v))"),
        // two filtered vectors of the same computed length zipped
        format!("let v:[int]1 = {v} in let m:[bool]1 = each(fn x:[int]0 => lti(x,3),v) in reduce(addi,0,zipWith(muli,compress(m,v),compress(m,rotate(1,v))))"),
    ]);
}

#[test]
fn counts_shapes_and_conditions_from_data() {
    let v = data(200);
    agree_all(&[
        format!("let v:[int]1 = {v} in let k:[int]0 = reduce(maxi,0,v) in prArrI(take(k,v))"),
        format!("let v:[int]1 = {v} in prArrI(take(subi(0,reduce(maxi,0,v)),v))"),
        format!("let v:[int]1 = {v} in reduce(addi,0,drop(addi(190,reduce(maxi,0,v)),v))"),
        format!("let v:[int]1 = {v} in prArrI(iota(reduce(maxi,0,v)))"),
        format!("let v:[int]1 = {v} in prArrI(iota(muli(0,reduce(maxi,0,v))))"),
        format!("let v:[int]1 = {v} in prArrI(rotate(first(v),iota(10)))"),
        format!("let v:[int]1 = {v} in prArrI(reshape([reduce(maxi,0,v),3],v))"),
        format!(
            "let v:[int]1 = {v} in prArrI(if gti(reduce(addi,0,v),0) then take(3,v) else iota(9))"
        ),
        format!(
            "let v:[int]1 = {v} in prArrI(if lti(reduce(addi,0,v),0) then take(3,v) else iota(9))"
        ),
        format!("let v:[int]1 = {v} in power(fn w:[int]1 => rotate(1,w),reduce(maxi,0,v),iota(5))"),
        format!("let v:[int]1 = {v} in power(fn w:[int]1 => rotate(1,w),muli(0,first(v)),iota(5))"),
        format!("let v:[int]1 = {v} in prArrC(formatI(reduce(addi,0,v)))"),
        format!("let v:[int]1 = {v} in prArrC(formatD(divd(i2d(reduce(addi,0,v)),7.0)))"),
    ]);
}

#[test]
fn effects_and_growing_states_run_in_order() {
    agree_all(&[
        // prints inside each and power, in the oracle's order
        "let v:[int]1 = each(fn x:[int]0 => prSclI(muli(x,x)),iota(4)) in reduce(addi,0,v)".into(),
        "power(fn w:[int]1 => prArrI(rotate(1,w)),3,iota(4))".into(),
        // a state that grows and one that shrinks
        "power(fn w:[int]1 => snoc(w,reduce(addi,0,w)),6,[1])".into(),
        format!("power(fn w:[int]1 => drop(1,w),5,{})", data(100)),
        // a filter in each trip
        format!("power(fn w:[int]1 => compress(each(fn x:[int]0 => gti(x,first(w)),w),w),3,{})", data(100)),
        // roll in order, at the top level and per element
        "let a:[double]0 = roll(0) in let b:[double]1 = each(fn x:[int]0 => roll(x),iota(4)) in addd(a,reduce(addd,0.0,b))".into(),
    ]);
}

#[test]
fn a_failure_behind_a_computed_size_is_the_oracles() {
    let v = data(100);
    // compress of vectors of different lengths (the mask is computed): the oracle's rule
    let src = format!("let v:[int]1 = {v} in compress(each(fn x:[int]0 => lti(x,2),v),take(5,v))");
    let rt = runtime();
    assert!(check_three_levels(&src, &src, rt.as_ref()).unwrap());
    // a value read back whose own computation fails (the extents' product checks a negative
    // extent, 3.38): the program fails there, after its earlier prints (before, the program
    // ran without the failing statement and printed nothing of it)
    let src = format!("let v:[int]1 = {v} in let k:[int]0 = reduce(maxi,0,v) in let a:[int]0 = prSclI(k) in reduce(subi,0,reshape([subi(k,20),3],v))");
    assert!(check_three_levels(&src, &src, rt.as_ref()).unwrap());
}

#[test]
fn without_a_device_computed_sizes_stay_on_the_device() {
    let v = data(100);
    // a count whose range bounds it stays on the device (at most 7 elements here) ...
    let src = format!("let v:[int]1 = {v} in take(reduce(maxi,0,v),v)");
    let lowered = lower_tail(&src).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(lowered.probes, 0);
    // ... one with no useful bound (up to 7 million elements) too, as an unbounded vector
    // (module `capacity`), whose buffers take its run-time length ...
    let src = format!("let v:[int]1 = {v} in take(muli(reduce(maxi,0,v),1000000),v)");
    let lowered = lower_tail(&src).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(lowered.probes, 0);
    let result = lowered.result.expect("a result");
    assert!(result.dynamic && result.shape == [i32::MAX as usize]);
    // ... and so does a `reshape` to two extents whose product has no bound (an array of
    // unbounded extents, module `capacity`; before 2026-11-29 its shape was read back) ...
    let src = format!("let v:[int]1 = {v} in reshape([muli(reduce(maxi,0,v),1000000),2],v)");
    let lowered = lower_tail(&src).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(lowered.probes, 0);
    let result = lowered.result.expect("a result");
    assert!(result.dynamic && result.shape == [i32::MAX as usize, 2]);
    // ... and so do a map with statements over it (a loop of a trip per element, its result
    // held at its run-time extents: before 2026-11-30 its extents were read back), an
    // `idxassign` in it, and `nowi` of a computed argument (checked to be 0 when the program
    // runs)
    for body in [
        "each(fn x:[int]0 => prSclI(x),t)",
        "let q:[bool]0 = idxassign([1,2],t,7) in rav(t)",
        "let q:[int]0 = nowi(resi(2,first(v))) in v",
    ] {
        let src = format!(
            "let v:[int]1 = {v} in let t:[int]2 = reshape([muli(reduce(maxi,0,v),1000000),2],v) in {body}"
        );
        let lowered = lower_tail(&src).unwrap_or_else(|e| panic!("{src}: {e:?}"));
        assert_eq!(lowered.probes, 0, "{src}");
    }
    // `nowi` of a computed 0 reads the clock; of a computed 1 it fails as the oracle does
    agree_all(&[
        format!("let v:[int]1 = {v} in let q:[int]0 = nowi(resi(2,first(v))) in prArrI(take(3,v))"),
        format!("let v:[int]1 = {v} in let w:[int]1 = prArrI(take(2,v)) in let q:[int]0 = nowi(resi(2,addi(first(v),1))) in prArrI(take(3,v))"),
    ]);
}

/// A filter in a `power` loop over `data(n)`: k trips, each keeping the elements not divisible
/// by 97 (a length known only on the device) and adding 13.
fn filter_loop(n: usize, k: usize) -> String {
    format!(
        "power(fn w:[int]1 => compress(each(fn x:[int]0 => gti(resi(97,x),0),w),each(fn x:[int]0 => addi(x,13),w)),{k},{})",
        data(n)
    )
}

#[test]
fn filter_lengths_stay_on_the_device_and_loops_compile_once() {
    let v = data(100);
    let keep = "each(fn x:[int]0 => lti(x,2),v)";
    // no value is read back while lowering: no device is needed
    for src in [
        format!("let v:[int]1 = {v} in prArrI(compress({keep},v))"),
        format!("let v:[int]1 = {v} in first(shape(compress({keep},v)))"),
        format!("let v:[int]1 = {v} in reduce(fn a:[int]0 => fn b:[int]0 => subi(a,b),7,compress({keep},v))"),
        format!("i2d(reduce(addi,0,{}))", filter_loop(100, 40)),
    ] {
        let l = lower_tail(&src).unwrap_or_else(|e| panic!("{src}: {e}"));
        assert_eq!(l.probes, 0, "{src}");
    }
    // the loop's kernels do not depend on its trip count
    let kernels = |k: usize| {
        let l = lower_tail(&filter_loop(3000, k)).unwrap();
        let p = l.fcl.load().unwrap();
        compiler::compile_fcl(&p.main, compiler::OptLevel::O2, 256)
            .unwrap()
            .kernels
            .len()
    };
    assert_eq!(kernels(10), kernels(40));
}

#[test]
fn vectors_of_device_lengths_agree() {
    let v = data(300);
    let keep = "each(fn x:[int]0 => lti(x,2),v)";
    let none = "each(fn x:[int]0 => gti(x,100),v)";
    agree_all(&[
        // maps, zips of one length, reductions with and without a neutral element, scans,
        // first and shape of a vector that may be empty
        format!("let v:[int]1 = {v} in let w:[int]1 = compress({keep},v) in prArrI(zipWith(addi,w,each(fn x:[int]0 => muli(x,3),w)))"),
        format!("let v:[int]1 = {v} in let w:[int]1 = compress({none},v) in let a:[int]0 = prSclI(first(w)) in let b:[int]0 = prSclI(reduce(maxi,5,w)) in prArrI(shape(w))"),
        format!("let v:[int]1 = {v} in reduce(fn a:[int]0 => fn b:[int]0 => subi(a,b),7,compress({keep},v))"),
        format!("let v:[int]1 = {v} in reduce(fn a:[int]0 => fn b:[int]0 => subi(a,b),7,compress({none},v))"),
        format!("let v:[int]1 = {v} in prArrI(scan(addi,0,compress({keep},v)))"),
        format!("let v:[int]1 = {v} in prArrD(compress({keep},each(fn x:[int]0 => divd(1.0,i2d(x)),v)))"),
        // a check past the computed length never fails: 1/x of the kept (nonzero) elements
        format!("let v:[int]1 = {v} in i2d(reduce(addi,0,each(fn x:[int]0 => divi(100,x),compress(each(fn x:[int]0 => gti(muli(x,x),0),v),v))))"),
        // filters in loops: shrinking to nothing, doubles, a filter of a filter
        format!("i2d(reduce(addi,0,{}))", filter_loop(1000, 7)),
        format!("power(fn w:[int]1 => compress(each(fn x:[int]0 => gti(x,first(w)),w),w),30,{v})"),
        format!("prArrD(power(fn w:[double]1 => compress(each(fn x:[double]0 => gtd(x,0.5),w),each(fn x:[double]0 => muld(x,1.5),w)),4,each(fn x:[int]0 => divd(i2d(x),3.0),{v})))"),
        format!("let v:[int]1 = {v} in power(fn w:[int]1 => let u:[int]1 = compress(each(fn x:[int]0 => gti(x,-2),w),w) in compress(each(fn x:[int]0 => lti(x,7),u),each(fn x:[int]0 => subi(x,1),u)),5,v)"),
    ]);
}

#[test]
fn counts_computed_on_the_device_are_not_read_back() {
    let v = data(120);
    let k = "reduce(maxi,0,v)";
    let w = "compress(each(fn x:[int]0 => gti(x,0),v),v)";
    let big = data(5000);
    let programs = [
        // take, drop, rotate and iota by computed counts, from either end, beyond the length
        format!("let v:[int]1 = {v} in let a:[int]1 = prArrI(take({k},v)) in let b:[int]1 = prArrI(take(subi(0,muli({k},30)),v)) in prArrI(take(muli({k},30),v))"),
        format!("let v:[int]1 = {v} in let a:[int]1 = prArrI(drop(addi({k},30),v)) in let b:[int]1 = prArrI(drop(subi(0,muli({k},20)),v)) in prArrI(drop(muli({k},20),v))"),
        format!("let v:[int]1 = {v} in let a:[int]1 = prArrI(rotate(first(v),iota({k}))) in prArrI(rotate(subi(0,{k}),reshape([3,4],v)))"),
        format!("let v:[int]1 = {v} in let a:[int]1 = prArrI(iota(subi({k},2))) in reduce(addi,0,iota(subi({k},9)))"),
        // vrotate of static arrays by computed counts: of any rank, either way, past the
        // extent, the smallest int
        format!("let v:[int]1 = {v} in let a:[int]3 = prArrI(vrotate(subi(0,first(v)),reshape([5,4,5],v))) in let b:[int]1 = prArrI(vrotate(muli(first(v),1000),drop(3,v))) in let c:[int]2 = prArrI(vrotate(idxS(1,5,v),transp(reshape([4,25],v)))) in vrotate(subi(-2147483647,1),take(7,v))"),
        // the same on a vector of run-time length: a filter's result
        format!("let v:[int]1 = {v} in let w:[int]1 = {w} in let a:[int]1 = prArrI(take(subi(0,70),w)) in let b:[int]1 = prArrI(drop(3,w)) in prArrI(rotate({k},take(5,drop({k},w))))"),
        // a replicate whose counts' range bounds its length
        format!("let v:[int]1 = {v} in prArrI(replicate(0,each(fn x:[int]0 => subi(resi(4,x),1),v),v))"),
        // power counts: a loop whose count the host reads when the program runs (zero, and
        // negative, which fails as the oracle's 3.60 does)
        format!("let v:[int]1 = {v} in let a:[int]1 = prArrI(power(fn w:[int]1 => compress(each(fn x:[int]0 => gti(x,2),w),each(fn x:[int]0 => addi(x,1),w)),{k},v)) in prArrI(power(fn w:[int]1 => each(fn x:[int]0 => addi(x,1),w),subi({k},7),iota(3)))"),
        format!("let v:[int]1 = {v} in prArrI(power(fn w:[int]1 => each(fn x:[int]0 => addi(x,1),w),subi({k},8),iota(3)))"),
        // reshape by computed extents: printed, its shape, its first element, a transposition
        // (which reads the extents back), and a negative extent failing as the oracle's does
        format!("let v:[int]1 = {v} in let k:[int]0 = {k} in let d:[int]2 = prArrI(reshape([first(drop(2,v)),k],v)) in let d1:[int]1 = prArrI(reshape([k],iota(4))) in let d3:[int]3 = prArrI(reshape([2,k,maxi(0,first(v))],v)) in let sh:[int]1 = prArrI(shape(reshape([maxi(0,first(drop(2,v))),k],v))) in prSclI(first(reshape([maxi(0,first(drop(2,v))),k],v)))"),
        format!("let v:[int]1 = {v} in let k:[int]0 = {k} in let d:[int]2 = prArrI(reshape([subi(k,7),k],v)) in reshape([subi(k,8),k],v)"),
        // an if with pure array branches selects on the device, whatever their lengths
        format!("let v:[int]1 = {v} in let s:[int]0 = reduce(addi,0,v) in let a:[int]1 = prArrI(if gti(s,100) then iota(maxi(0,first(v))) else take(2,v)) in let b:[int]1 = prArrI(if lti(s,100) then iota(maxi(0,first(v))) else take(2,v)) in prArrI(if lti(s,100) then reshape([2,3],v) else reshape([2,3],iota(6)))"),
        // formatI of computed ints, the smallest int too
        format!("let v:[int]1 = {v} in let s:[int]0 = reduce(addi,0,v) in let a:[char]1 = prArrC(formatI(s)) in let b:[char]1 = prArrC(formatI(subi(0,s))) in let c:[char]1 = prArrC(formatI(subi(s,s))) in let d:[char]1 = prArrC(formatI(subi(subi(0,2147483647),first(iota({k}))))) in reduce(addi,0,each(fn x:[char]0 => b2i(eqc(x,'0')),formatI(muli(s,1000))))"),
        // formatD of computed ints made doubles: the int's text and `.0`
        format!("let v:[int]1 = {v} in let s:[int]0 = reduce(addi,0,v) in let a:[char]1 = prArrC(formatD(i2d(s))) in let b:[char]1 = prArrC(formatD(i2d(subi(0,s)))) in let c:[char]1 = prArrC(formatD(i2d(subi(s,s)))) in let d:[char]1 = prArrC(formatD(first(each(i2d,drop({k},v))))) in shape(formatD(i2d(subi(subi(0,2147483647),1))))"),
        // formatD of computed doubles: fixed and scientific, a tie rounded to even, the
        // smallest double, infinity, negative zero (module compiler::tail::format)
        format!("let v:[int]1 = {v} in let one:[double]0 = i2d(first(take(1,iota(maxi(1,{k}))))) in let a:[char]1 = prArrC(formatD(divd(2.0,muld(3.0,one)))) in let b:[char]1 = prArrC(formatD(muld(123456789012.5,one))) in let c:[char]1 = prArrC(formatD(muld(-1.5e-7,one))) in let d:[char]1 = prArrC(formatD(muld(5e-324,one))) in let e:[char]1 = prArrC(formatD(divd(one,0.0))) in shape(formatD(muld(-0.0,one)))"),
        // cat, cons and snoc of vectors of run-time length, with each other, a static vector
        // and an empty one
        format!("let v:[int]1 = {v} in let w:[int]1 = {w} in let a:[int]1 = prArrI(cat(w,iota(3))) in let b:[int]1 = prArrI(cat(zilde(),w)) in let c:[int]1 = prArrI(cons({k},snoc(w,7))) in let d:[int]1 = prArrI(cat(w,drop({k},w))) in reduce(addi,0,cat(take(2,v),w))"),
        // an if whose branches are arrays of other extents selects them on the device
        format!("let v:[int]1 = {v} in let k:[int]0 = {k} in let s:[int]0 = reduce(addi,0,v) in let d:[int]2 = reshape([maxi(0,first(drop(2,v))),k],v) in let a:[int]2 = prArrI(if gti(s,100) then d else transp(d)) in let b:[int]2 = prArrI(if lti(s,100) then d else transp(d)) in prArrI(if lti(s,100) then reshape([2,3],v) else reshape([3,4],v))"),
        // maps of an array of run-time extents keep them; its transposition reverses them
        format!("let v:[int]1 = {v} in let k:[int]0 = {k} in let d:[int]2 = reshape([maxi(0,first(drop(2,v))),k],v) in let e:[int]2 = prArrI(each(fn x:[int]0 => muli(x,2),d)) in let t:[int]2 = prArrI(transp(d)) in let t3:[int]3 = prArrI(transp(reshape([2,maxi(1,first(drop(3,v))),k],v))) in prArrI(zipWith(addi,d,each(fn x:[int]0 => subi(x,1),d)))"),
        // a loop whose state grows: held at its longest length for the most trips a bounded
        // count can be; with a known count its length after the trips is static (reshape
        // reads no length back)
        format!("let v:[int]1 = {v} in let w:[int]1 = {w} in let a:[int]1 = prArrI(power(fn s:[int]1 => snoc(s,first(s)),maxi(0,mini(5,{k})),v)) in let b:[int]1 = prArrI(power(fn s:[int]1 => cat(s,take(2,s)),resi(4,first(v)),w)) in let g:[int]1 = power(fn s:[int]1 => snoc(s,addi(first(s),1)),4,each(fn x:[int]0 => addi(x,first(w)),v)) in prArrI(reshape([4,31],g))"),
        // a count from a row's minimum: its range is the elements', not the identity's, so
        // it bounds the growth of the state (the fuzzer's program 37 of seed 1)
        format!("let v:[int]1 = {v} in let m:[int]1 = reduce(mini,2147483647,reshape([2,60],v)) in prArrI(power(fn w:[int]1 => prArrI(cat(w,m)),addi(first(m),7),m))"),
        // a loop whose step prints (the trips' count, then each trip's prints: one loop,
        // kernels built once), growing and filtering; and one that fails in its third trip
        format!("let v:[int]1 = {v} in let k:[int]0 = {k} in let a:[int]1 = power(fn s:[int]1 => prArrI(cons(-1,s)),k,v) in let b:[int]1 = power(fn s:[int]1 => let t:[int]1 = prArrI(compress(each(fn x:[int]0 => gti(x,0),s),s)) in prArrI(snoc(t,first(s))),maxi(0,mini(3,k)),v) in prSclD(reduce(addd,0.0,each(i2d,a)))"),
        format!("let v:[int]1 = {v} in let a:[int]1 = prArrI(iota(3)) in power(fn s:[int]1 => prArrI(each(fn x:[int]0 => muli(x,1000),s)),addi({k},3),v)"),
        // vrotate, vreverse and rav of a vector of run-time length, rav of an array of
        // run-time extents
        format!("let v:[int]1 = {v} in let w:[int]1 = {w} in let a:[int]1 = prArrI(vreverse(w)) in let b:[int]1 = prArrI(rav(drop({k},w))) in let c:[int]1 = prArrI(rav(reshape([maxi(0,first(drop(2,v))),{k}],v))) in prArrI(vrotate(subi(0,{k}),w))"),
        // grades of vectors of run-time length (the network, and the radix sort from 4096
        // elements on; stable), and the permutation they give read back through idxS
        format!("let v:[int]1 = {v} in let w:[int]1 = {w} in let a:[int]1 = prArrI(gradeUp(w)) in let b:[int]1 = prArrI(gradeDown(w)) in let c:[int]1 = prArrI(each(fn x:[int]0 => idxS(1,x,w),gradeUp(w))) in prArrI(gradeDown(each(fn x:[int]0 => divd(i2d(x),4.0),w)))"),
        format!("let u:[int]1 = {big} in let w:[int]1 = compress(each(fn x:[int]0 => gti(x,0),u),u) in let a:[int]1 = prArrI(take(40,gradeUp(w))) in let b:[int]1 = prArrI(take(40,gradeDown(w))) in reduce(addi,0,each(fn x:[int]0 => muli(x,idxS(1,x,w)),gradeUp(w)))"),
        // an index computed on the device, outside the vector: the oracle's 3.71, on a vector
        // of static length and on one of run-time length
        format!("let v:[int]1 = {v} in idxS(1,addi(121,mini(0,nowi(0))),v)"),
        format!("let v:[int]1 = {v} in let w:[int]1 = {w} in let a:[int]0 = prSclI(idxS(1,addi(3,mini(0,nowi(0))),w)) in idxS(1,addi(120,mini(0,nowi(0))),w)"),
        // each and zipWith whose function prints, filters or sorts: one loop of a trip per
        // element, in element order; over no elements, nothing printed; one that fails at its
        // fourth element, after printing the first three
        format!("let v:[int]1 = {v} in let a:[int]1 = each(fn x:[int]0 => prSclI(muli(x,x)),v) in let b:[int]1 = each(fn x:[int]0 => reduce(addi,0,compress(each(fn y:[int]0 => lti(y,x),v),v)),v) in let c:[double]1 = zipWith(fn x:[int]0 => fn y:[double]0 => prSclD(addd(i2d(first(gradeDown(rotate(x,v)))),y)),take(70,v),each(fn z:[int]0 => divd(i2d(z),4.0),drop(50,v))) in let d:[int]1 = prArrI(each(fn x:[int]0 => prSclI(x),drop(200,v))) in addd(i2d(reduce(addi,0,b)),reduce(addd,0.0,c))"),
        format!("let v:[int]1 = {v} in let w:[int]1 = {w} in each(fn x:[int]0 => prSclI(idxS(1,addi(x,3),w)),take(80,v))"),
        // reshape of vectors of run-time length by static shapes (reused cyclically, fills
        // for an empty one) and by computed ones, each extent bounded by its own range
        format!("let v:[int]1 = {v} in let w:[int]1 = {w} in let e:[int]1 = compress(each(fn x:[int]0 => gti(x,100),v),v) in let k:[int]0 = {k} in let a:[int]2 = prArrI(reshape([2,5],w)) in let b:[int]2 = prArrI(reshape([3,2],e)) in let c:[int]2 = prArrI(reshape([k,3],w)) in let d:[int]1 = prArrI(reshape([7],reshape([k,2],v))) in prArrI(reshape([subi(k,2),k],reshape([k,2],w)))"),
        // reduce and scan along the rows of an array whose first extent is computed: the
        // rows at the capacity, junk rows neutral; a function with no neutral element reads
        // the shape back; a negative extent fails through the reduction
        format!("let v:[int]1 = {v} in let k:[int]0 = {k} in let m:[int]2 = reshape([k,3],v) in let a:[int]1 = prArrI(reduce(addi,0,m)) in let b:[int]2 = prArrI(scan(maxi,-100,m)) in let c:[int]2 = prArrI(reduce(addi,0,reshape([k,2,3],v))) in let d:[double]1 = prArrD(reduce(addd,0.0,each(fn x:[int]0 => divd(1.0,i2d(x)),m))) in reduce(addi,0,reduce(addi,0,reshape([subi(k,20),3],v)))"),
        // take and rotate of an array whose first extent is computed: the rows at the
        // capacity's layout (fills past them), from either end
        format!("let v:[int]1 = {v} in let k:[int]0 = {k} in let m:[int]2 = reshape([k,3],v) in let a:[int]2 = prArrI(take(2,m)) in let b:[int]2 = prArrI(take(-3,m)) in let c:[int]2 = prArrI(take(12,m)) in let d:[int]2 = prArrI(take(-10,m)) in let e:[int]3 = prArrI(take(-4,reshape([subi(k,3),2,2],v))) in let f:[int]2 = prArrI(rotate(subi(0,k),m)) in prArrI(rotate(k,reshape([subi(k,3),2,2],v)))"),
        // idxassign into rows the device counts: checked against their count (3.57 past it)
        format!("let v:[int]1 = {v} in let k:[int]0 = {k} in let m:[int]2 = reshape([k,3],v) in let a:[bool]0 = idxassign([2,3],m,100) in let b:[int]2 = prArrI(m) in let c:[bool]0 = idxassign([7,1],m,-5) in let d:[int]1 = prArrI(reduce(addi,0,m)) in let g:[bool]0 = idxassign([8,1],m,-5) in m"),
        // if and condScl whose branches run statements (prints, stores, checks) under a
        // condition computed on the device: each branch a loop of 0 or 1 trip, only the taken
        // one printing or failing; branches of other lengths; inside a power's step
        format!("let v:[int]1 = {v} in let w:[int]1 = {w} in let a:[int]1 = if gti(first(v),0) then prArrI(take(3,v)) else prArrI(iota(7)) in let b:[int]1 = if lti(first(v),0) then prArrI(take(3,v)) else prArrI(iota(7)) in let c:[int]0 = if gti(first(v),0) then prSclI(5) else 6 in let d:[int]1 = if lti(first(v),0) then prArrI(take(3,v)) else w in let e:[int]2 = if gti(first(v),0) then prArrI(reshape([2,2],v)) else reshape([2,2],iota(4)) in let f:[int]1 = prArrI(d) in reduce(addi,0,cat(a,b))"),
        format!("let v:[int]1 = {v} in let a:[int]0 = if gti(first(v),100) then idxS(1,addi(first(v),200),v) else prSclI(7) in let b:[int]0 = if gti(first(v),0) then prSclI(idxS(1,addi(first(v),200),v)) else 8 in a"),
        format!("let v:[int]1 = {v} in power(fn w:[int]1 => if gti(first(w),0) then prArrI(rotate(1,w)) else each(fn x:[int]0 => addi(x,1),w),4,take(5,v))"),
        // a power step that certainly fails: only where the loop runs a trip
        format!("let v:[int]1 = {v} in let a:[int]1 = prArrI(power(fn w:[int]1 => prArrI(drop(1,iota(subi(0,2)))),subi(first(v),first(v)),iota(3))) in power(fn w:[int]1 => prArrI(zipWith(addi,w,iota(4))),maxi(0,first(v)),iota(3))"),
        // a branch that certainly fails (found when lowered) fails only where it is taken
        format!("let v:[int]1 = {v} in let a:[int]1 = prArrI(iota(2)) in let b:[int]1 = if gti(first(v),100) then prArrI(drop(1,iota(subi(0,2)))) else prArrI(iota(3)) in let c:[int]1 = if lti(first(v),100) then prArrI(take(2,v)) else prArrI(zipWith(addi,iota(3),iota(4))) in if gti(first(v),100) then prArrI(take(2,v)) else prArrI(zipWith(addi,iota(3),iota(4)))"),
        format!("let v:[int]1 = {v} in let a:[int]0 = prSclI(condScl(fn x:[int]0 => reduce(addi,0,take(x,v)),gti(first(v),0),5)) in condScl(fn x:[int]0 => prSclI(reduce(addi,0,take(x,v))),lti(first(v),0),5)"),
        // zipWith and replicate of a vector of run-time length with one of another (static or
        // computed) length: checked to be the same when the program runs (3.68, 3.66), and a
        // vector's transposition
        format!("let v:[int]1 = {v} in let w:[int]1 = {w} in let n:[int]0 = reduce(addi,0,each(fn x:[int]0 => b2i(gti(x,0)),v)) in let a:[int]1 = prArrI(zipWith(addi,w,take(n,v))) in let b:[int]1 = prArrI(zipWith(muli,take(n,v),transp(w))) in let c:[int]0 = prSclI(reduce(addi,0,zipWith(addi,w,drop(first(v),v)))) in zipWith(addi,w,take(addi(n,1),v))"),
        format!("let v:[int]1 = {v} in let w:[int]1 = {w} in let n:[int]0 = reduce(addi,0,each(fn x:[int]0 => b2i(gti(x,0)),v)) in let a:[int]1 = prArrI(replicate(0,each(fn x:[int]0 => subi(resi(3,x),1),w),w)) in let c:[int]1 = prArrI(replicate(0,each(fn x:[int]0 => resi(3,x),w),take(n,v))) in replicate(0,each(fn x:[int]0 => resi(3,x),v),w)"),
        // idxassign into a vector of run-time length: checked against it (3.58 past it)
        format!("let v:[int]1 = {v} in let w:[int]1 = {w} in let a:[bool]0 = idxassign([2],w,500) in let b:[int]1 = prArrI(w) in let c:[bool]0 = idxassign([60],w,-5) in let d:[int]1 = prArrI(take(-3,w)) in let g:[bool]0 = idxassign([100],w,-5) in w"),
        // idxS of rows the device counts: a row (its index checked against their count,
        // 3.71 past it), a slice along a static axis keeping the rows; and a known index past
        // a vector's run-time length, within its capacity (it read the junk before)
        format!("let v:[int]1 = {v} in let k:[int]0 = {k} in let m:[int]2 = reshape([k,3],v) in let a:[int]1 = prArrI(idxS(1,2,m)) in let b:[int]1 = prArrI(idxS(2,3,m)) in let c:[int]2 = prArrI(idxS(3,1,reshape([k,2,2],v))) in let d:[int]2 = prArrI(idxS(2,2,reshape([k,2,2],v))) in let g:[int]1 = prArrI(idxS(1,k,m)) in idxS(1,addi(k,1),m)"),
        format!("let v:[int]1 = {v} in let w:[int]1 = {w} in let a:[int]0 = prSclI(idxS(1,3,w)) in idxS(1,100,w)"),
        // compress whose mask and vector have lengths the device computes apart: checked to
        // be the same when the program runs (3.65 where they differ)
        format!("let v:[int]1 = {v} in let w:[int]1 = {w} in let a:[int]1 = prArrI(compress(each(fn x:[int]0 => gti(x,-10),w),compress(each(fn x:[int]0 => gti(x,0),v),v))) in let b:[int]1 = prArrI(compress(each(fn x:[int]0 => gti(x,3),w),each(fn x:[int]0 => muli(x,10),w))) in compress(each(fn x:[int]0 => gti(x,3),w),v)"),
        // in a loop: the state shortened by a computed count each trip
        format!("let v:[int]1 = {v} in power(fn s:[int]1 => drop(resi(3,first(s)),rotate(first(s),each(fn x:[int]0 => addi(x,1),s))),12,v)"),
    ];
    for src in &programs {
        let lowered = lower_tail(src).unwrap_or_else(|e| panic!("{src}: {e:?}"));
        assert_eq!(lowered.probes, 0, "{src}");
    }
    agree_all(&programs);
}

#[test]
fn unbounded_vectors_take_their_run_time_length() {
    let v = data(120);
    // counts whose ranges give no bound below 4M elements (module `capacity`), though their
    // values are small: 150, 3 and -50 when the program runs
    let big = "muli(maxi(-1,mini(0,nowi(0))),10000000)";
    let n = format!("addi({big},150)");
    let three = format!("addi({big},3)");
    let w = format!("iota({n})");
    let programs = [
        // an iota: printed, reduced, mapped, zipped, indexed, taken, dropped, rotated
        format!("let w:[int]1 = {w} in let a:[int]1 = prArrI(w) in let b:[int]0 = prSclI(reduce(addi,0,w)) in let c:[int]1 = prArrI(take(-3,rotate(7,w))) in let d:[int]1 = prArrI(drop(140,w)) in let e:[int]0 = prSclI(addi(idxS(1,149,w),first(drop(17,w)))) in let f:[int]1 = prArrI(shape(w)) in let g:[double]1 = prArrD(take(4,each(fn x:[int]0 => divd(i2d(x),3.0),w))) in reduce(addi,0,zipWith(fn x:[int]0 => fn y:[int]0 => muli(x,y),w,vreverse(w)))"),
        // scans (the program's checked sums, a maximum of doubles) and a compress
        format!("let w:[int]1 = {w} in let a:[int]1 = prArrI(take(-3,scan(addi,0,w))) in let b:[double]1 = prArrD(take(-2,scan(maxd,0.0,each(fn x:[int]0 => i2d(resi(17,x)),w)))) in let c:[int]1 = prArrI(compress(each(fn x:[int]0 => eqi(resi(40,x),0),w),w)) in reduce(addi,0,compress(each(fn x:[int]0 => gti(x,3),w),w))"),
        // a replicate of one (negative counts giving fills)
        format!("let w:[int]1 = iota(subi({n},140)) in let a:[int]1 = prArrI(replicate(0,each(fn x:[int]0 => subi(resi(3,x),1),w),w)) in reduce(addi,0,replicate(0,each(fn x:[int]0 => resi(4,x),{w}),{w}))"),
        // a take past the data (fills) from either end, and a replicate by unbounded counts
        format!("let v:[int]1 = {v} in let a:[int]1 = prArrI(take(-3,take({n},v))) in let b:[int]1 = prArrI(take(4,take(subi(0,{n}),v))) in let r:[int]1 = replicate(0,each(fn x:[int]0 => muli(maxi(0,x),{three}),v),v) in let s:[int]1 = prArrI(shape(r)) in reduce(addi,0,r)"),
        // failures: a negative iota count (3.35), a checked scan past the int range
        format!("iota(subi({n},200))"),
        format!("let w:[int]1 = {w} in scan(addi,0,each(fn x:[int]0 => addi(100000000,resi(2,x)),w))"),
        // loops over one: filtered each trip, shortened past empty, of doubles, printing
        // (one FCL loop each, its buffer as long as the state on each trip)
        format!("let w:[int]1 = {w} in let a:[int]1 = power(fn s:[int]1 => compress(each(fn x:[int]0 => gti(resi(7,x),0),s),each(fn x:[int]0 => addi(x,3),s)),6,w) in let b:[int]1 = prArrI(a) in let c:[int]1 = prArrI(power(fn s:[int]1 => drop(40,s),5,w)) in let d:[double]1 = prArrD(take(3,power(fn s:[double]1 => each(fn x:[double]0 => muld(x,0.5),s),3,each(fn x:[int]0 => i2d(x),w)))) in reduce(addi,0,power(fn s:[int]1 => prArrI(take(2,s)),3,w))"),
        // reductions: by operators with an identity (the last prefix of a scan), and by
        // others (a sequential fold)
        format!("let w:[int]1 = {w} in let a:[int]0 = prSclI(reduce(maxi,-5,w)) in let b:[int]0 = prSclI(reduce(mini,99999999,drop({n},w))) in let c:[double]0 = prSclD(reduce(addd,0.0,each(fn x:[int]0 => divd(1.0,i2d(x)),w))) in let d:[bool]0 = prSclB(reduce(andb,tt,each(fn x:[int]0 => gti(x,0),w))) in reduce(subi,0,w)"),
        // sorted by the radix sort, its plan the run-time length's (of ints, bools, doubles
        // with ties of 0.0 and -0.0; an empty one)
        format!("let w:[double]1 = each(fn x:[int]0 => divd(i2d(subi(resi(13,x),6)),subd(i2d(subi(resi(7,x),3)),0.5)),{w}) in let g:[int]1 = gradeDown(w) in let a:[int]1 = prArrI(take(12,g)) in take(-12,g)"),
        format!("let w:[int]1 = each(fn x:[int]0 => resi(101,muli(x,37)),{w}) in let g:[int]1 = gradeUp(w) in let a:[int]1 = prArrI(take(5,g)) in let c:[int]1 = prArrI(take(-5,each(fn i:[int]0 => idxS(1,i,w),g))) in let d:[int]1 = prArrI(gradeUp(iota(subi({n},150)))) in let e:[int]1 = prArrI(take(3,gradeDown(each(fn x:[int]0 => gti(x,50),w)))) in reduce(addi,0,g)"),
        // a reshape to a vector of a length with no bound (elements reused cyclically; a
        // negative extent fails, 3.38)
        format!("let v:[int]1 = {v} in let a:[int]1 = prArrI(take(-3,reshape([{n}],v))) in let b:[int]1 = prArrI(shape(reshape([subi({n},140)],{w}))) in reshape([subi({n},151)],v)"),
        // joined with others, and itself
        format!("let w:[int]1 = {w} in let a:[int]1 = prArrI(take(-4,cat(w,iota(3)))) in let b:[int]1 = prArrI(take(3,cons(7,w))) in let c:[int]1 = prArrI(shape(snoc(cat(w,w),9))) in reduce(addi,0,cat(drop(140,w),w))"),
        // a loop's state with one beside other components: a count, a vector of doubles
        format!("let t:([int]1 * [int]0) = power(fn s:([int]1 * [int]0) => (compress(each(fn x:[int]0 => gti(resi(7,x),0),Prj(0,s)),each(fn x:[int]0 => addi(x,3),Prj(0,s))),addi(Prj(1,s),1)),5,({w},0)) in let a:[int]1 = prArrI(take(3,Prj(0,t))) in let u:([double]1 * [int]1) = power(fn s:([double]1 * [int]1) => (each(fn x:[double]0 => muld(x,0.5),Prj(0,s)),drop(1,Prj(1,s))),4,([1.0,3.0],{w})) in let c:[double]1 = prArrD(Prj(0,u)) in let d:[int]1 = prArrI(take(2,Prj(1,u))) in addi(Prj(1,t),reduce(addi,0,Prj(0,t)))"),
        // an if whose branches print, one giving an unbounded vector (the two loops of 0 or
        // 1 trip write one buffer)
        format!("let v:[int]1 = {v} in let b:[int]1 = if lti(first(v),0) then prArrI(take(3,{w})) else {w} in let c:[int]1 = if gti(first(v),0) then prArrI(take(3,{w})) else {w} in let d:[int]1 = prArrI(shape(c)) in reduce(addi,0,b)"),
        // of complex numbers: mapped, printed, filtered both ways, taken past the data
        format!("let w:[complex]1 = each(fn x:[int]0 => injx(i2d(x),divd(1.0,i2d(x))),{w}) in let a:[complex]1 = prArrX(take(-3,w)) in let b:[complex]1 = prArrX(take(-3,compress(each(fn x:[int]0 => gti(resi(3,x),0),{w}),w))) in let c:[complex]1 = prArrX(take(6,replicate(0.0j0.0,each(fn x:[int]0 => subi(resi(3,x),1),{w}),w))) in let d:[complex]1 = prArrX(take(3,take({n},[1.0j2.0,3.0j4.0]))) in each(fn z:[complex]0 => rex(z),take(4,w))"),
        // an empty one, printed, scanned, filtered
        format!("let w:[int]1 = iota(subi({n},150)) in let a:[int]1 = prArrI(w) in let b:[int]1 = prArrI(scan(addi,0,w)) in compress(each(fn x:[int]0 => gti(x,3),w),w)"),
        // mapped and zipped by functions that print (a loop of a trip per element, its state
        // as long as the vector; before, a buffer of 2^31 elements for each, a read-back for
        // zipWith), of lengths checked to be one when the program runs (3.68), an empty one
        format!("let w:[int]1 = {w} in let b:[int]1 = zipWith(fn x:[int]0 => fn y:[int]0 => prSclI(addi(x,y)),drop(146,w),each(fn x:[int]0 => muli(x,3),drop(146,w))) in let v:[int]1 = compress(each(fn x:[int]0 => gti(resi(3,x),0),w),w) in let u:[int]1 = compress(each(fn x:[int]0 => gti(resi(3,x),1),w),w) in let c:[int]1 = zipWith(fn x:[int]0 => fn y:[int]0 => prSclI(muli(x,y)),take(-3,v),take(-3,u)) in zipWith(fn x:[int]0 => fn y:[int]0 => prSclI(muli(x,y)),v,u)"),
        format!("let w:[int]1 = {w} in let a:[int]1 = each(fn x:[int]0 => let p:[int]0 = prSclI(x) in muli(x,2),take(-4,w)) in let c:[int]1 = each(fn x:[int]0 => prSclI(x),iota(subi({n},150))) in reduce(addi,0,each(fn x:[int]0 => prSclI(x),drop(140,w)))"),
    ];
    for src in &programs {
        let lowered = lower_tail(src).unwrap_or_else(|e| panic!("{src}: {e:?}"));
        assert_eq!(lowered.probes, 0, "{src}");
    }
    agree_all(&programs);
}

#[test]
fn complex_reductions_wide_states_and_computed_draws_stay_on_the_device() {
    let v = data(120);
    // as in `unbounded_vectors_take_their_run_time_length`: counts with no bound below 4M
    let big = "muli(maxi(-1,mini(0,nowi(0))),10000000)";
    let n = format!("addi({big},150)");
    let w = format!("iota({n})");
    let z = format!("each(fn x:[int]0 => injx(i2d(resi(7,x)),divd(1.0,i2d(addi(x,1)))),{w})");
    // a count the device computes, 3 when the program runs
    let k = format!("addi({big},3)");
    let programs = [
        // reductions and scans of unbounded complex numbers: by addx/subx part by part, by
        // mulx and a lambda in one sequential fold; a static scan by addx past 2048 elements
        format!("let z:[complex]1 = {z} in let a:[complex]0 = prSclX(reduce(addx,0.0j0.0,z)) in let b:[complex]0 = prSclX(reduce(subx,1.0j1.0,z)) in let c:[complex]0 = prSclX(reduce(mulx,1.0j0.0,take(9,drop(1,z)))) in let d:[complex]1 = prArrX(take(-3,scan(addx,0.0j0.0,z))) in let e:[complex]0 = prSclX(reduce(fn a:[complex]0 => fn b:[complex]0 => addx(mulx(a,0.5j0.0),b),0.0j0.0,z)) in let f:[complex]0 = prSclX(reduce(mulx,2.0j0.0,drop({n},z))) in take(-2,scan(addx,0.0j0.0,each(fn x:[int]0 => injx(i2d(x),1.0),iota(3000))))"),
        // complex scans by other functions: one thread per row, the parts interleaved in a
        // window of carried scalars (no private array), over unbounded vectors (also empty),
        // a capacity, and a static row past 2048 elements
        format!("let z:[complex]1 = each(fn x:[complex]0 => mulx(x,0.1j0.0),{z}) in let a:[complex]1 = prArrX(take(-3,scan(mulx,1.0j0.0,z))) in let e:[complex]1 = prArrX(scan(mulx,1.0j0.0,take({big},z))) in take(3,scan(fn a:[complex]0 => fn b:[complex]0 => addx(mulx(a,0.5j0.5),b),0.0j0.0,z))"),
        format!("let v:[int]1 = {} in let w:[complex]1 = each(fn x:[int]0 => injx(i2d(x),1.0),compress(each(fn x:[int]0 => gti(x,0),v),v)) in let a:[complex]1 = prArrX(take(-2,scan(mulx,1.0j0.0,each(fn x:[complex]0 => mulx(x,0.1j0.0),w)))) in let e:[complex]1 = prArrX(scan(mulx,1.0j0.0,compress(each(fn x:[complex]0 => gtd(rex(x),100.0),w),w))) in take(3,scan(fn a:[complex]0 => fn b:[complex]0 => addx(mulx(a,0.5j0.5),b),0.0j0.0,w))", data(60)),
        "take(-2,scan(fn a:[complex]0 => fn b:[complex]0 => addx(mulx(a,0.999j0.001),b),0.0j0.0,each(fn x:[int]0 => injx(i2d(resi(7,x)),1.0),iota(2100))))".to_string(),
        // loop states with several unbounded vectors, a complex one, beside static and
        // bounded ones, for a count the device computes
        format!("let v:[int]1 = {v} in let small:[int]1 = compress(each(fn x:[int]0 => gti(x,0),v),v) in let p:([double]0 * [complex]1 * [int]1 * [int]1 * [bool]1) = power(fn s:([double]0 * [complex]1 * [int]1 * [int]1 * [bool]1) => (addd(Prj(0,s),1.5),drop(2,Prj(1,s)),cons(7,Prj(2,s)),drop(1,Prj(3,s)),snoc(Prj(4,s),tt)),{k},(0.5,{z},{w},small,[ff,tt])) in let a:[double]0 = prSclD(Prj(0,p)) in let b:[complex]1 = prArrX(take(3,Prj(1,p))) in let c:[int]1 = prArrI(take(4,Prj(2,p))) in let d:[int]1 = prArrI(take(4,Prj(3,p))) in let e:[bool]1 = prArrB(Prj(4,p)) in let f:[int]1 = prArrI(shape(Prj(1,p))) in prArrI(shape(Prj(2,p)))"),
        format!("let w:[int]1 = {w} in let t:([int]1 * [int]1) = power(fn s:([int]1 * [int]1) => (compress(each(fn x:[int]0 => gti(resi(7,x),0),Prj(0,s)),Prj(0,s)),drop(1,Prj(1,s))),{k},(w,w)) in let a:[int]1 = prArrI(shape(Prj(0,t))) in reduce(addi,0,Prj(1,t))"),
        // complex vectors of run-time length (a static capacity) whose lengths the step
        // changes: held unbounded, both at once
        format!("let v:[int]1 = {v} in let z:[complex]1 = each(fn x:[int]0 => injx(i2d(x),0.5),compress(each(fn x:[int]0 => gti(x,0),v),v)) in let p:([complex]1 * [complex]1) = power(fn s:([complex]1 * [complex]1) => (drop(3,Prj(0,s)),drop(1,Prj(1,s))),{k},(z,z)) in let a:[int]1 = prArrI(shape(Prj(1,p))) in prArrX(take(2,Prj(0,p)))"),
        // states that grow by a count with no bound, or by more on each trip: unbounded
        format!("let p:[int]1 = power(fn s:[int]1 => cons(3,s),{k},iota(5)) in let a:[int]1 = prArrI(p) in prArrI(power(fn s:[int]1 => cat(s,take(divi(first(shape(s)),2),s)),{k},iota(5)))"),
        // draws inside loops whose counts the device computes, and after them
        // branches the device picks whose results hold complex vectors of other lengths
        // (unbounded in the branches' state), of a static and an unbounded length
        format!("let v:[int]1 = {v} in let c:[bool]0 = gti(first(drop(3,v)),0) in let zs:[complex]1 = each(fn x:[int]0 => injx(i2d(x),0.5),iota(8)) in let a:[complex]1 = if c then prArrX(take(3,zs)) else take(5,zs) in let b:[complex]1 = if notb(c) then prArrX(take(3,zs)) else rotate(1,take(5,zs)) in let d:[complex]1 = prArrX(cat(a,b)) in let z:[complex]1 = {z} in let t:([int]1 * [complex]1) = if c then (prArrI(take(2,{w})),drop(1,z)) else (drop(2,{w}),z) in let e:[int]1 = prArrI(shape(Prj(0,t))) in prArrX(take(2,Prj(1,t)))"),
        // scans by operators with no identity over rows past 4096 elements: one thread per
        // row, its recurrence in a carried scalar (FCL -O2)
        format!("let v:[int]1 = {} in let m:[int]2 = reshape([3,5000],v) in let a:[int]2 = prArrI(transp(take(-2,transp(scan(subi,0,m))))) in take(-3,scan(fn x:[int]0 => fn y:[int]0 => maxi(x,subi(y,1)),0,v))", data(15000)),
        // scans by operators with no identity of vectors of run-time length (a capacity)
        format!("let v:[int]1 = {} in let w:[int]1 = compress(each(fn x:[int]0 => gti(x,0),v),v) in let a:[int]1 = prArrI(take(-3,scan(subi,0,w))) in let c:[double]1 = prArrD(take(3,scan(subd,0.0,each(fn x:[int]0 => i2d(x),w)))) in let e:[int]1 = prArrI(scan(subi,0,compress(each(fn x:[int]0 => gti(x,100),v),v))) in scan(fn x:[int]0 => fn y:[int]0 => muli(x,y),1,w)", data(300)),
        // ... and of unbounded vectors (also empty and of one element): one thread over the
        // run-time length, a seqfor of run-time size carried in a scalar
        format!("let a:[int]1 = prArrI(take(-3,scan(subi,0,{w}))) in let e:[int]1 = prArrI(scan(subi,0,iota({big}))) in let f:[int]1 = prArrI(scan(subi,0,iota(addi({big},1)))) in let c:[double]1 = prArrD(take(3,scan(subd,0.0,each(fn x:[int]0 => i2d(x),{w})))) in reduce(addi,0,scan(fn x:[int]0 => fn y:[int]0 => maxi(x,subi(y,1)),0,{w}))"),
        // draws in the branches of an if whose condition the device computes: the taken
        // branch's draws move the counts on
        "let v:[int]1 = each(fn v2:[int]0 => b2i(ltd(roll(0),0.5)),iota(10)) in let c:[bool]0 = gti(reduce(addi,0,v),4) in let f:[int]0 -> [double]0 = fn x:[int]0 => roll(10) in let a:[double]1 = if c then prArrD(each(f,iota(3))) else each(f,iota(5)) in let b:[double]1 = prArrD(each(f,iota(4))) in let d:[double]1 = if notb(c) then prArrD(each(f,iota(3))) else each(f,iota(1)) in let e:[double]1 = prArrD(each(f,iota(4))) in let h:[double]0 = if c then roll(3) else addd(roll(4),roll(5)) in let k:[double]1 = prArrD(each(f,iota(4))) in reduce(addd,0.0,cat(a,d))".to_string(),
        format!("let f:[int]1 -> [int]1 = fn s:[int]1 => each(fn x:[int]0 => addi(x,b2i(ltd(roll(10),5.0))),s) in let p:[int]1 = prArrI(power(f,{k},iota(4))) in let q:[int]1 = prArrI(power(f,3,p)) in let r:[int]1 = prArrI(power(fn s:[int]1 => each(fn x:[int]0 => addi(x,b2i(ltd(roll(0),0.5))),s),{k},q)) in let d:[double]0 = prSclD(roll(7)) in each(fn x:[int]0 => roll(5),iota(3))"),
    ];
    for src in &programs {
        let lowered = lower_tail(src).unwrap_or_else(|e| panic!("{src}: {e:?}"));
        assert_eq!(lowered.probes, 0, "{src}");
    }
    agree_all(&programs);
}

/// Arrays of run-time extents (a `reshape` by a shape computed from data, a `transp2` by a
/// computed permutation) under the structural operators, reductions and scans, at several extents (empty axes too, which some operators
/// reject as the oracle does): each lowers with no device, reading nothing back, and agrees on
/// the three levels.
#[test]
fn operators_on_arrays_of_run_time_extents_agree_without_reading_them_back() {
    let ops = [
        "reduce(addi,0,a)",
        "reduce(subi,0,a)",
        "scan(addi,0,a)",
        "scan(subi,0,transp(r))",
        "reduce(fn x:[int]0 => fn y:[int]0 => addi(muli(x,2),y),1,transp(a))",
        "reduce(subi,0,reduce(subi,0,c3))",
        "scan(maxi,0,c3)",
        "reduce(andb,tt,each(fn x:[int]0 => gti(x,0),a))",
        "reduce(addd,0.0,each(fn x:[int]0 => divd(i2d(x),3.0),transp(a)))",
        "scan(addi,0,a)",
        "scan(subi,0,transp(c3))",
        "scan(fn x:[int]0 => fn y:[int]0 => addi(muli(x,2),y),1,r)",
        "transp2([2,1,3],b3)",
        "transp2([3,1,2],c3)",
        "transp2([1,1],a)",
        "cat(a,a)",
        "cat(a,transp(a))",
        "cat(a,reshape([2,2],v))",
        "rotate(-7,transp(r))",
        "vrotate(n,c3)",
        "drop(n,transp(c3))",
        "drop(-1,r)",
        "take(-3,a)",
        "take(subi(0,n),b3)",
        "idxS(2,n,c3)",
        "idxS(3,2,b3)",
        "vreverse(transp(b3))",
        "shape(cat(transp(a),transp(a)))",
        "reduce(addi,0,idxS(1,2,transp(c3)))",
        // permutations computed from data, of static arrays too; not permutations
        "transp2(each(fn x:[int]0 => addi(x,z),[2,1]),reshape([3,4],v))",
        "transp2(each(fn x:[int]0 => addi(x,z),[2,3,1]),c3)",
        "shape(transp2(each(fn x:[int]0 => addi(x,z),[2,1,3]),b3))",
        "reduce(addi,0,transp2(each(fn x:[int]0 => addi(x,z),[2,1]),a))",
        "transp2(each(fn x:[int]0 => addi(x,z),[1,1]),reshape([3,4],v))",
        "transp2(each(fn x:[int]0 => addi(x,z),[3,1]),a)",
        // columns joined, maps of two arrays whose extents may differ (checked), updates
        "cons(iota(n),a)",
        "snoc(transp(a),idxS(1,1,a))",
        "cons(reshape([2,2],v),c3)",
        "zipWith(addi,a,reshape([2,3],v))",
        "zipWith(fn x:[int]0 => fn y:[int]0 => muli(x,y),c3,reshape([2,n,3],v))",
        "let q:[bool]0 = idxassign([2,3],a,5) in reduce(addi,0,a)",
        "let q:[bool]0 = idxassign([1,2,3],c3,99) in c3",
        // (found by the generator: the check of a bool update's position, not of the bool)
        "let p:[bool]2 = each(fn x:[int]0 => gti(x,0),a) in let q:[bool]0 = idxassign([1,1],p,ff) in p",
        // a function with statements, a trip per element of the run-time length
        "each(fn x:[int]0 => prSclI(addi(x,1)),a)",
        "each(fn x:[int]0 => reduce(addi,0,iota(maxi(0,x))),transp(a))",
        // loops whose state has run-time extents (exchanged by a transposition, computed by
        // the step from a static first state), the extents in slots of the state
        "power(fn s:[int]2 => vreverse(transp(s)),n,a)",
        "power(fn s:[int]3 => each(fn x:[int]0 => muli(x,2),s),m,c3)",
        "power(fn s:[int]2 => reshape([n,m],rav(s)),2,reshape([3,4],v))",
        "reduce(addi,0,power(fn s:[int]2 => scan(addi,0,transp(s)),3,a))",
        "power(fn s:[int]2 => prArrI(transp(s)),2,a)",
        // a vector's extent of no known range (what a print returns): an unbounded vector
        "reduce(addi,0,reshape([subi(first(each(fn x:[int]0 => prSclI(x),iota(2))),n)],v))",
        // rows of a static array taken or dropped by a computed count
        "take(subi(0,n),reshape([3,4],v))",
        "drop(n,reshape([2,3,2],v))",
    ];
    let mut programs = Vec::new();
    for (n, m) in [(2, 3), (0, 3), (3, 0), (4, 2), (0, 0)] {
        for op in ops {
            programs.push(format!(
                "let v:[int]1 = each(fn y:[int]0 => subi(muli(y,7),40),iota(13)) in \
                 let z:[int]0 = maxi(-1,mini(0,nowi(0))) in \
                 let n:[int]0 = addi(resi(5,z),{n}) in let m:[int]0 = addi(resi(5,z),{m}) in \
                 let a:[int]2 = reshape([n,m],v) in let r:[int]2 = reshape([n,3],v) in \
                 let b3:[int]3 = reshape([n,m,2],v) in let c3:[int]3 = reshape([2,n,m],v) in {op}"
            ));
        }
    }
    // long rows and many rows: the reductions' trees and block scans over padded rows
    for (n, m) in [(300, 301), (2, 3000), (3000, 2)] {
        for op in [
            "reduce(addi,0,reduce(addi,0,scan(addi,0,a)))",
            "reduce(maxi,0,reduce(subi,0,transp(a)))",
            "reduce(addi,0,reduce(addi,0,cat(a,vreverse(a))))",
        ] {
            programs.push(format!(
                "let z:[int]0 = maxi(-1,mini(0,nowi(0))) in \
                 let n:[int]0 = addi(resi(5,z),{n}) in let m:[int]0 = addi(resi(5,z),{m}) in \
                 let a:[int]2 = reshape([n,m],iota(130000)) in {op}"
            ));
        }
    }
    for src in &programs {
        let lowered = lower_tail(src).unwrap_or_else(|e| panic!("{src}: {e:?}"));
        assert_eq!(lowered.probes, 0, "{src}");
    }
    agree_all(&programs);
}

/// Arrays of *unbounded extents* (module `capacity`): a `reshape` to two or more extents whose
/// ranges give no bound on their product (before, its shape was read back, so `compile`
/// needed a device): index operators, maps, `rav`, prints, `reduce` and `scan` (a thread per
/// row or element), loops over the run-time extents, updates, maps with statements and `if`s
/// whose branches run statements or differ in extents: nothing read back.
#[test]
fn arrays_of_unbounded_extents_take_their_run_time_extents() {
    let ops = [
        "a",
        "reduce(addi,0,a)",
        "reduce(subi,0,transp(a))",
        "reduce(maxi,-9,r)",
        "reduce(fn x:[int]0 => fn y:[int]0 => addi(muli(x,2),y),1,transp(r))",
        "reduce(subi,0,reduce(subi,0,c3))",
        "reduce(andb,tt,each(fn x:[int]0 => gti(x,0),a))",
        "reduce(addd,0.0,each(fn x:[int]0 => divd(i2d(x),3.0),transp(a)))",
        "scan(addi,0,a)",
        "scan(subi,0,transp(c3))",
        "scan(fn x:[int]0 => fn y:[int]0 => addi(muli(x,2),y),1,r)",
        "transp2([2,1,3],b3)",
        "transp2([3,1,2],c3)",
        "cat(a,a)",
        "cat(a,transp(a))",
        "rotate(-7,transp(r))",
        "vrotate(n,c3)",
        "drop(n,transp(c3))",
        "drop(-1,r)",
        "take(-3,a)",
        "idxS(2,n,c3)",
        "idxS(3,2,b3)",
        "vreverse(transp(b3))",
        "shape(cat(transp(a),transp(a)))",
        "cons(iota(n),a)",
        "snoc(transp(a),idxS(1,1,a))",
        "zipWith(addi,a,reshape([2,3],v))",
        "zipWith(fn x:[int]0 => fn y:[int]0 => muli(x,y),c3,vreverse(c3))",
        "rav(transp(a))",
        "first(transp(b3))",
        "prArrI(each(fn x:[int]0 => muli(x,x),b3))",
        "reshape([m,n],a)",
        "reduce(addi,0,reshape([mini(n,4),maxi(1,m)],rav(a)))",
        // a loop's state: held at its run-time length, its extents in the state
        "power(fn s:[int]2 => transp(s),3,a)",
        "power(fn s:[int]3 => each(fn x:[int]0 => addi(x,1),s),n,c3)",
        "Prj(1,power(fn s:([int]2 * [int]0) => (vreverse(Prj(0,s)),addi(Prj(1,s),reduce(addi,0,rav(Prj(0,s))))),3,(r,0)))",
        // what read the extents back before 2026-11-30: a take by a count of no bound, an
        // update (at a known and a computed index), a map with statements, an `if` whose
        // branches run statements or differ in extents
        "take(addi(BIG,n),r)",
        "take(subi(0,addi(BIG,5)),transp(a))",
        "let q:[bool]0 = idxassign([1,2],a,99) in a",
        "let q:[bool]0 = idxassign([n,addi(resi(3,first(v)),1)],r,99) in let z:[int]2 = prArrI(r) in transp(r)",
        "each(fn x:[int]0 => let p:[int]0 = prSclI(x) in muli(x,3),a)",
        "zipWith(fn x:[int]0 => fn y:[int]0 => prSclI(subi(x,y)),c3,c3)",
        "if gti(n,2) then prArrI(a) else transp(reshape([3,2],v))",
        "let w:[int]2 = if lti(n,3) then r else prArrI(reshape([4,3],v)) in cat(w,w)",
        "if gti(m,n) then a else reshape([2,2],v)",
        // complex tables (a first version held them in the state as a complex vector)
        "each(rex,if gti(n,1) then prArrX(each(fn x:[int]0 => injx(i2d(x),1.0),a)) else reshape([1,3],[3.0j2.0]))",
    ];
    // extents of no useful bound (their product passes any capacity), small when the
    // program runs
    let big = "muli(subi(0,maxi(-1,mini(0,nowi(0)))),10000000)";
    let mut programs = Vec::new();
    for (n, m) in [(2, 3), (0, 3), (3, 0), (4, 2)] {
        for op in ops {
            let op = op.replace("BIG", big);
            programs.push(format!(
                "let v:[int]1 = each(fn y:[int]0 => subi(muli(y,7),40),iota(13)) in \
                 let n:[int]0 = addi({big},{n}) in let m:[int]0 = addi({big},{m}) in \
                 let a:[int]2 = reshape([n,m],v) in let r:[int]2 = reshape([n,3],v) in \
                 let b3:[int]3 = reshape([n,m,2],v) in let c3:[int]3 = reshape([2,n,m],v) in {op}"
            ));
        }
    }
    for src in &programs {
        let lowered = lower_tail(src).unwrap_or_else(|e| panic!("{src}: {e:?}"));
        assert_eq!(lowered.probes, 0, "{src}");
    }
    agree_all(&programs);
}

/// Loops the lowering used to unroll (at most 4096 trips, a copy of the step per trip): a
/// `power` whose static state of two or more axes changes shape (a transposition, a `take` of
/// rows; held at the largest capacity of each axis with its extents in the state), and a map
/// with statements over complex numbers (a trip per element). Each is one loop, whatever the
/// trips; a state that doubles each trip is refused with a reason, not a panic.
#[test]
fn loops_over_states_that_change_shape_stay_loops() {
    let programs = [
        "reduce(addi,0,reduce(addi,0,power(fn s:[int]2 => transp(each(fn x:[int]0 => addi(x,1),s)),4100,reshape([2,3],iota(6)))))",
        "reduce(addi,0,reduce(addi,0,power(fn s:[int]2 => transp(take(2,s)),4100,reshape([3,2],iota(6)))))",
        "reduce(addi,0,reduce(addi,0,reduce(addi,0,power(fn s:[int]3 => transp2([3,1,2],s),4100,reshape([2,3,4],iota(24))))))",
        "reduce(addx,0.0j0.0,each(fn x:[complex]0 => prSclX(mulx(x,x)),\
         each(fn x:[int]0 => injx(i2d(x),divd(1.0,i2d(addi(x,1)))),iota(1100))))",
        // a matrix that grows by a column (by a row) each trip: held at the capacity of the
        // most trips, its extents in the state
        "reduce(addi,0,reduce(addi,0,power(fn s:[int]2 => cat(s,reshape([3,1],each(fn x:[int]0 => addi(x,first(s)),iota(3)))),300,reshape([3,2],iota(6)))))",
        "let c:[int]0 = resi(7,reduce(addi,0,drop(1,iota(10000)))) in \
         let r:[double]2 = power(fn s:[double]2 => transp(cat(transp(s),reshape([3,1],each(fn x:[int]0 => addd(i2d(x),first(s)),iota(3))))),muli(c,20),reshape([2,3],each(i2d,iota(6)))) in \
         let p:[int]1 = prArrI(shape(r)) in reduce(addd,0.0,reduce(addd,0.0,r))",
    ];
    for src in programs {
        let l = lower_tail(src).unwrap_or_else(|e| panic!("{src}: {e}"));
        assert_eq!(l.probes, 0, "{src}");
        let text = l.fcl.flat_text();
        assert_eq!(text.matches("power<grid>").count(), 1, "{src}: {}", l.fcl);
        // (3001 trips unrolled were 875,000 characters)
        assert!(text.len() < 100_000, "{src}: {}", text.len());
    }
    let agreeing: Vec<String> = programs.iter().map(|p| p.to_string()).collect();
    agree_all(&agreeing);
    // known masks and counts of a vector of run-time length: its length checked (3.65/3.66)
    let filtered =
        "let w:[int]1 = compress(each(fn x:[int]0 => gti(resi(5,x),2),iota(10)),iota(10)) in";
    let gathers: Vec<String> = [
        "cat(replicate(0,[2,1,0,3],w),compress([tt,ff,tt,tt],w))",
        "replicate(0,[2,1,0],w)",
        "compress([tt,ff],w)",
    ]
    .iter()
    .map(|op| format!("{filtered} {op}"))
    .collect();
    for src in &gathers {
        assert_eq!(lower_tail(src).map(|l| l.probes).ok(), Some(0), "{src}");
    }
    agree_all(&gathers);
    let doubling = "reduce(addi,0,reduce(addi,0,power(fn s:[int]2 => transp(drop(1,cat(s,s))),3001,reshape([3,4],iota(12)))))";
    match lower_tail(doubling) {
        Err(LowerTailError::Unsupported(why)) => assert!(why.contains("2^31 elements"), "{why}"),
        other => panic!("{doubling}: {other:?}"),
    }
}

/// `idxassign` into a vector of run-time length or rows the device counts, of doubles and
/// bools: the position is checked (an int), never the value (found by the generator: a double
/// wrapped in an int check was ill-typed FCL), and a position past the run-time length fails
/// as the oracle's 3.57.
#[test]
fn idxassign_into_run_time_lengths_checks_the_position_whatever_the_type() {
    let base = "let v:[double]1 = each(fn x:[int]0 => i2d(x),iota(65)) in \
                let w:[double]1 = compress(each(fn x:[double]0 => ltd(x,LIMIT),v),v) in \
                let b:[bool]1 = compress(each(fn x:[double]0 => ltd(x,3.0),v),each(fn x:[double]0 => gtd(x,1.0),v)) in \
                let m:[double]2 = reshape([resi(5,first(shape(w))),2],v) in";
    let mut programs = Vec::new();
    for limit in ["0.0", "10.0"] {
        for op in [
            "let q:[bool]0 = idxassign([4],w,0.5) in w",
            "let q:[bool]0 = idxassign([2],b,ff) in b",
            "let q:[bool]0 = idxassign([3,2],m,9.5) in m",
            "let q:[bool]0 = idxassign([7,2],m,9.5) in m",
        ] {
            programs.push(format!("{} {op}", base.replace("LIMIT", limit)));
        }
    }
    for src in &programs {
        assert_eq!(lower_tail(src).map(|l| l.probes).ok(), Some(0), "{src}");
    }
    agree_all(&programs);
}

/// A grade of a known vector is a permutation of 1…n: a reshape by its first element and an
/// extent the device computes has a bounded product, an array of run-time extents (found by
/// the generator, seed 2: the grade had no range, so the shape was read back).
#[test]
fn a_grade_of_a_known_vector_bounds_the_shapes_made_from_it() {
    let src = "let v1:[double]1 = [4.75,-6.0,-0.75,1.25,3.0,2.0] in \
               let v2:[int]1 = drop(64,each(fn x1:[int]0 => subi(x1,64),iota(71))) in \
               let v3:[int]1 = gradeUp(each(fn x2:[double]0 => mind(x2,4.75),v1)) in \
               reshape([first(v3),idxS(1,2,v2)],[-6.0,-6.0])";
    let l = lower_tail(src).unwrap_or_else(|e| panic!("{src}: {e}"));
    assert_eq!(l.probes, 0);
    agree_all(&[src.to_string()]);
}
