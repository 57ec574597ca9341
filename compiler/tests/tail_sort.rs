//! `gradeUp`/`gradeDown` of computed vectors, sorted on the device (compiler::tail's bitonic
//! network): the lowered program prints what the TAIL oracle prints, on the FCL oracle (small
//! sizes; it interprets every stage) and on OpenCL (every size).

mod support;

use compiler::exec::execute;
use compiler::tail::{format_result, lower_tail};
use compiler::{compile_fcl, OptLevel, DEFAULT_BLOCK_SIZE};
use support::runtime;

/// Checks `src` on the TAIL oracle against the lowered program on OpenCL (where there is a
/// platform) and, when `fcl_oracle`, on the FCL oracle.
fn check(src: &str, fcl_oracle: bool) {
    let lowered = lower_tail(src).unwrap_or_else(|e| panic!("{src}: {e}"));
    assert!(lowered.failure.is_none(), "{src}");
    let tail = interpreter::tail::run_source(src, Default::default()).unwrap();
    let program = lowered
        .fcl
        .load()
        .unwrap_or_else(|(_, d)| panic!("{d:?}\n{}", lowered.fcl));
    if fcl_oracle {
        let out = interpreter::fcl::run(&program.main, &interpreter::fcl::Config::default());
        let got = format_result(&lowered, &out.stdout).expect("FCL oracle output");
        assert_eq!(tail.stdout, got, "{src}: TAIL oracle vs FCL oracle");
    }
    if let Some(rt) = runtime() {
        let m = compile_fcl(&program.main, OptLevel::O2, DEFAULT_BLOCK_SIZE).unwrap();
        let report = execute(&m, &rt).unwrap_or_else(|e| panic!("{e}\n{}", lowered.fcl));
        let got = format_result(&lowered, &report.stdout).expect("OpenCL output");
        assert_eq!(tail.stdout, got, "{src}: TAIL oracle vs OpenCL");
    }
}

/// Prints both grades of `v` (a TAIL expression of a vector with element type `ty`).
fn both_grades(ty: &str, v: &str) -> String {
    format!(
        "let a:[{ty}]1 = {v} in let u:[int]1 = prArrI(gradeUp(a)) in \
         let d:[int]1 = prArrI(gradeDown(a)) in 0"
    )
}

#[test]
fn small_computed_vectors_sort_stably() {
    for src in [
        // ints with many ties (7 values over 37 elements, n not a power of two)
        both_grades("int", "each(fn x:[int]0 => resi(7,muli(x,37)),iota(37))"),
        // negative ints and the extremes of the int range
        both_grades(
            "int",
            "each(fn x:[int]0 => if eqi(x,3) then -2147483648 else if eqi(x,5) then 2147483647 \
             else subi(resi(9,muli(x,5)),4),iota(12))",
        ),
        // doubles: negatives, ties, -0.0 equal to 0.0
        both_grades(
            "double",
            "each(fn x:[int]0 => if eqi(x,4) then negd(0.0) else \
             muld(i2d(subi(resi(11,muli(x,7)),5)),0.5),iota(29))",
        ),
        // chars by code, with ties
        both_grades(
            "char",
            "each(fn x:[int]0 => if eqi(resi(3,x),0) then 'b' else if eqi(resi(3,x),1) \
             then 'a' else 'Z',iota(10))",
        ),
        // bools: ff < tt
        both_grades("bool", "each(fn x:[int]0 => eqi(resi(3,x),1),iota(11))"),
        // one element; a power of two; all equal
        both_grades("int", "each(fn x:[int]0 => muli(x,3),iota(1))"),
        both_grades("int", "each(fn x:[int]0 => resi(5,muli(x,3)),iota(16))"),
        both_grades("double", "each(fn x:[int]0 => 1.5,iota(9))"),
    ] {
        check(&src, true);
    }
}

#[test]
fn sorted_values_ranks_and_indexing_by_the_grade() {
    // sorting through idxS, and the rank of every element (the grade of the grade)
    let src = "let a:[int]1 = each(fn x:[int]0 => resi(100,muli(x,7919)),iota(1000)) in \
               let g:[int]1 = gradeUp(a) in \
               let s:[int]1 = prArrI(each(fn i:[int]0 => idxS(1,i,a),g)) in \
               let r:[int]1 = prArrI(gradeUp(g)) in \
               gradeDown(a)";
    check(src, true);
    // from 2 x 256 positions on, the stages with small strides run in local memory: n = 300
    // (P = 512, the smallest such network) in both directions, doubles with ties
    let blocked = both_grades(
        "double",
        "each(fn x:[int]0 => muld(i2d(resi(13,muli(x,5))),-0.5),iota(300))",
    );
    let l = lower_tail(&blocked).unwrap();
    assert!(l.fcl.flat_text().contains("in local memory"), "{}", l.fcl);
    check(&blocked, true);
    let small = lower_tail(&both_grades(
        "int",
        "each(fn x:[int]0 => resi(3,x),iota(200))",
    ));
    assert!(!small.unwrap().fcl.flat_text().contains("in local memory"));
}

#[test]
fn large_vectors_sort_on_the_device() {
    // n = 100000 (P = 2^17): the TAIL oracle against OpenCL; the sorted vector must be
    // ascending (the count of descents printed is 0) and the grade printed as a checksum
    let src = "let a:[int]1 = each(fn x:[int]0 => resi(1000,muli(x,7919)),iota(100000)) in \
               let g:[int]1 = gradeUp(a) in \
               let s:[int]1 = each(fn i:[int]0 => idxS(1,i,a),g) in \
               let ok:[int]0 = prSclI(reduce(addi,0,zipWith(fn x:[int]0 => fn y:[int]0 => \
               b2i(gti(x,y)),take(99999,s),drop(1,s)))) in \
               let h:[int]1 = prArrI(take(20,gradeDown(a))) in \
               reduce(addi,0,zipWith(fn x:[int]0 => fn y:[int]0 => \
               resi(1000,muli(resi(1000,x),y)),g,iota(100000)))";
    check(src, false);
    let doubles = "let a:[double]1 = each(fn x:[int]0 => subd(muld(i2d(resi(977,muli(x,31))),0.25),100.0),iota(5000)) in \
                   let g:[int]1 = prArrI(take(50,gradeDown(a))) in \
                   reduce(addi,0,zipWith(fn x:[int]0 => fn y:[int]0 => resi(9973,muli(x,y)),gradeUp(a),iota(5000)))";
    check(doubles, false);
}

#[test]
fn known_arguments_sort_at_compile_time() {
    let l = lower_tail("gradeUp([3,1,2,1,5,9,2,6,5,3])").unwrap();
    assert!(!l.fcl.flat_text().contains("power<grid>"), "{}", l.fcl);
    check("gradeDown([3,1,2,1,5,9,2,6,5,3])", true);
    // a known vector graded inside a function body: a table, no statements needed
    check(
        "reduce(addi,0,each(fn x:[int]0 => reduce(addi,x,gradeUp([3,1,2])),iota(4)))",
        true,
    );
}

#[test]
fn grades_inside_functions_run_element_by_element_or_as_a_loop() {
    // a sort per element of a short known vector: each application at the top level, in order
    check(
        "reduce(addi,0,each(fn x:[int]0 => first(gradeUp(each(fn y:[int]0 => \
         resi(x,y),iota(5)))),iota(4)))",
        true,
    );
    // of a long one: one loop of a trip per element, the sort's kernels built once (before,
    // more than 1024 elements were refused)
    let src = "reduce(addi,0,each(fn x:[int]0 => first(gradeUp(each(fn y:[int]0 => \
               resi(x,y),iota(5)))),iota(2000)))";
    let lowered = lower_tail(src).unwrap_or_else(|e| panic!("{src}: {e}"));
    assert_eq!(
        lowered.fcl.flat_text().matches("power<grid> 2000 ").count(),
        1,
        "{}",
        lowered.fcl
    );
    check(&src.replace("iota(2000)", "iota(150)"), true);
}
