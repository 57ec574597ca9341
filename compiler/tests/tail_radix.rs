//! `gradeUp`/`gradeDown` of int, char, bool and double vectors of 4096 elements and more:
//! compiler::tail's radix sort on OpenCL against the TAIL oracle (stable in both directions), at
//! sizes that fill chunks and work-groups exactly and partly, with many ties, negative and
//! extreme ints, keys that differ only in some digits (the passes of the others copy), all keys
//! equal, and doubles with -0.0 and 0.0, infinities, subnormals and NaN.

mod support;

use compiler::exec::execute;
use compiler::tail::{format_result, lower_tail};
use compiler::{compile_fcl, OptLevel, DEFAULT_BLOCK_SIZE};

/// Both grades of `v` (a TAIL vector expression of element type `ty`), printed whole.
fn both_grades(ty: &str, v: &str) -> String {
    format!(
        "let a:[{ty}]1 = {v} in let u:[int]1 = prArrI(gradeUp(a)) in \
         let d:[int]1 = prArrI(gradeDown(a)) in 0"
    )
}

/// Lowers `src` (asserting that it takes the radix sort) and, where there is a platform, checks
/// the OpenCL output against the TAIL oracle's.
fn check(src: &str) {
    check_as(src, src);
}

/// [`check`] of `src` against the TAIL oracle's output for `like`, a program that must print
/// the same (where the oracle's order is not the one wanted, as with NaN).
fn check_as(src: &str, like: &str) {
    let lowered = lower_tail(src).unwrap_or_else(|e| panic!("{src}: {e}"));
    assert!(lowered.fcl.flat_text().contains("radix pass"), "{src}");
    let Some(rt) = support::runtime() else {
        return;
    };
    let tail = interpreter::tail::run_source(like, Default::default()).unwrap();
    let program = lowered.fcl.load().unwrap_or_else(|(_, d)| panic!("{d:?}"));
    let m = compile_fcl(&program.main, OptLevel::O2, DEFAULT_BLOCK_SIZE).unwrap();
    let report = execute(&m, &rt).unwrap_or_else(|e| panic!("{e}"));
    let got = format_result(&lowered, &report.stdout).expect("OpenCL output");
    assert!(tail.stdout == got, "{src}: TAIL oracle and OpenCL differ");
}

#[test]
fn ints_sort_stably_in_both_directions_at_whole_and_partial_sizes() {
    // 4096: one chunk of 1024 per thread exactly; 5000: a partial chunk; many ties
    for n in [4096, 5000] {
        check(&both_grades(
            "int",
            &format!("each(fn x:[int]0 => resi(37,muli(x,7919)),iota({n}))"),
        ));
    }
    // negatives and the extremes of the int range, every digit varying
    check(&both_grades(
        "int",
        "each(fn x:[int]0 => if eqi(resi(97,x),3) then -2147483648 else if eqi(resi(89,x),5) \
         then 2147483647 else subi(muli(resi(65521,muli(x,40503)),32771),1073741824),iota(6001))",
    ));
    // more than one work-group of threads (256 chunks of 1024), the last partly filled
    check(
        "let a:[int]1 = each(fn x:[int]0 => subi(resi(1000,muli(x,7919)),500),iota(270001)) in \
         let g:[int]1 = gradeDown(a) in \
         let s:[int]1 = prArrI(take(40,g)) in \
         reduce(addi,0,zipWith(fn x:[int]0 => fn y:[int]0 => resi(97,muli(resi(97,x),\
         resi(97,y))),g,iota(270001)))",
    );
}

#[test]
fn keys_that_share_digits_and_equal_keys() {
    // only the top digit differs: the three lower passes only copy
    check(&both_grades(
        "int",
        "each(fn x:[int]0 => muli(resi(5,x),16777216),iota(4500))",
    ));
    // only the lowest digit differs, keys negative
    check(&both_grades(
        "int",
        "each(fn x:[int]0 => subi(-1000,resi(7,x)),iota(4500))",
    ));
    // all equal: every pass copies, the grade is the identity both ways
    check(&both_grades("int", "each(fn x:[int]0 => 42,iota(4097))"));
}

#[test]
fn chars_and_bools_sort_by_code_and_false_before_true() {
    check(&both_grades(
        "char",
        "each(fn x:[int]0 => if eqi(resi(3,x),0) then 'b' else if eqi(resi(3,x),1) \
         then 'a' else 'Z',iota(5000))",
    ));
    check(&both_grades(
        "bool",
        "each(fn x:[int]0 => eqi(resi(3,x),1),iota(4100))",
    ));
}

#[test]
fn doubles_sort_by_value_with_ties_negatives_and_partial_chunks() {
    // thirds of -18..18: ties, negatives, every mantissa bit in use; 5000 a partial chunk
    for n in [4096, 5000] {
        check(&both_grades(
            "double",
            &format!(
                "each(fn x:[int]0 => divd(i2d(subi(resi(37,muli(x,7919)),18)),3.0),iota({n}))"
            ),
        ));
    }
    // -0.0 and 0.0 tie (the oracle compares with `<`); infinities, subnormals and the largest
    // doubles at the ends; keys that differ only in the low half's bits
    check(&both_grades(
        "double",
        "each(fn x:[int]0 => if eqi(resi(11,x),0) then negd(0.0) else if eqi(resi(11,x),1) \
         then 0.0 else if eqi(resi(11,x),2) then divd(1.0,0.0) else if eqi(resi(11,x),3) \
         then divd(-1.0,0.0) else if eqi(resi(11,x),4) then muld(5.0e-324,i2d(resi(3,x))) \
         else if eqi(resi(11,x),5) then negd(5.0e-324) else if eqi(resi(11,x),6) \
         then muld(1.7976931348623157e308,i2d(subi(resi(3,x),1))) else if eqi(resi(11,x),7) \
         then addd(1.0,muld(2.220446049250313e-16,i2d(resi(5,x)))) \
         else divd(i2d(subi(resi(1009,muli(x,613)),504)),7.0),iota(6007))",
    ));
    // more than one work-group of threads, descending, checked by a sum over the grade
    check(
        "let a:[double]1 = each(fn x:[int]0 => divd(i2d(subi(resi(1000,muli(x,7919)),500)),9.0),\
         iota(270001)) in \
         let g:[int]1 = gradeDown(a) in \
         let s:[int]1 = prArrI(take(40,g)) in \
         reduce(addi,0,zipWith(fn x:[int]0 => fn y:[int]0 => resi(97,muli(resi(97,x),\
         resi(97,y))),g,iota(270001)))",
    );
}

#[test]
fn doubles_that_share_digits_and_equal_doubles() {
    // small ints: the low half is all zeros in every key, most passes copy
    check(&both_grades(
        "double",
        "each(fn x:[int]0 => i2d(resi(7,x)),iota(5000))",
    ));
    check(&both_grades(
        "double",
        "each(fn x:[int]0 => i2d(subi(resi(300,muli(x,7)),150)),iota(4500))",
    ));
    // all equal, -0.0 among 0.0: every pass copies
    check(&both_grades(
        "double",
        "each(fn x:[int]0 => if eqi(resi(2,x),0) then negd(0.0) else 0.0,iota(4097))",
    ));
}

#[test]
fn nans_come_after_infinity_in_both_directions() {
    // the oracle's `<` ties NaN with everything, which no sort key can follow: the radix sort
    // takes every NaN (either sign) for one value above +inf, ties in index order, so it
    // grades as the same keys with the NaNs made +inf (and no +inf among the others)
    let keys = |nan: &str, other_nan: &str| {
        format!(
            "each(fn x:[int]0 => if eqi(resi(13,x),0) then {nan} else if eqi(resi(13,x),1) \
             then {other_nan} else divd(i2d(subi(resi(101,muli(x,37)),50)),3.0),iota(4500))"
        )
    };
    let inf = "divd(1.0,0.0)";
    check_as(
        &both_grades("double", &keys("divd(0.0,0.0)", "negd(divd(0.0,0.0))")),
        &both_grades("double", &keys(inf, inf)),
    );
}

#[test]
fn short_vectors_keep_the_bitonic_network() {
    for ty in ["int", "double"] {
        let short = lower_tail(&both_grades(
            ty,
            &format!(
                "each(fn x:[int]0 => {},iota(4095))",
                match ty {
                    "int" => "resi(7,x)",
                    _ => "i2d(resi(7,x))",
                }
            ),
        ));
        assert!(
            !short.unwrap().fcl.flat_text().contains("radix pass"),
            "{ty}"
        );
    }
}

#[test]
fn a_few_elements_in_a_wide_capacity_sort_at_their_length() {
    // a take by a count whose range is wide (a row's sum plus a constant: 4 here): a capacity
    // of about 300,000 that holds 4 elements, sorted at its run-time length, and the same
    // with the count past the capacity's first 65,536 positions
    let rows = "reshape([2,457],each(fn x:[int]0 => subi(x,879),iota(914)))";
    for k in [297054, 297050 + 70000] {
        let src = format!(
            "let s:[int]1 = reduce(addi,0,{rows}) in let v:[int]1 = take(addi(first(s),{k}),\
             each(fn x:[int]0 => resi(5,muli(x,7)),iota(80000))) in \
             let u:[int]1 = prArrI(take(9,gradeUp(v))) in \
             let d:[int]0 = prSclI(reduce(addi,0,zipWith(fn g:[int]0 => fn x:[int]0 => resi(97,muli(resi(97,g),x)),gradeDown(v),v))) in 0"
        );
        let lowered = lower_tail(&src).unwrap_or_else(|e| panic!("{src}: {e}"));
        assert!(
            lowered.fcl.flat_text().contains("a run-time number of"),
            "{src}"
        );
        check(&src);
    }
}
