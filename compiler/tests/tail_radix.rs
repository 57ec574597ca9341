//! `gradeUp`/`gradeDown` of int, char and bool vectors of 4096 elements and more: compiler::tail's
//! radix sort on OpenCL against the TAIL oracle (stable in both directions), at sizes that fill
//! chunks and work-groups exactly and partly, with many ties, negative and extreme ints, keys
//! that differ only in some digits (the passes of the others copy), and all keys equal.

mod support;

use compiler::exec::execute;
use compiler::tail::{format_result, lower_tail};
use compiler::{compile_fcl, OptLevel, DEFAULT_BLOCK_SIZE};
use semantics::fcl::lower::load_program;

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
    let lowered = lower_tail(src).unwrap_or_else(|e| panic!("{src}: {e}"));
    assert!(lowered.fcl.contains("radix pass"), "{src}");
    let Some(rt) = support::runtime() else {
        return;
    };
    let tail = interpreter::tail::run_source(src, Default::default()).unwrap();
    let program = load_program(&[("radix.fcl".to_string(), lowered.fcl.clone())])
        .unwrap_or_else(|(_, d)| panic!("{d:?}"));
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
fn short_vectors_and_doubles_keep_the_bitonic_network() {
    let short = lower_tail(&both_grades(
        "int",
        "each(fn x:[int]0 => resi(7,x),iota(4095))",
    ));
    assert!(!short.unwrap().fcl.contains("radix pass"));
    let doubles = lower_tail(&both_grades(
        "double",
        "each(fn x:[int]0 => i2d(resi(7,x)),iota(5000))",
    ));
    assert!(!doubles.unwrap().fcl.contains("radix pass"));
}
