//! Complex numbers through TAIL → FCL → OpenCL: every complex operator, their printing, and
//! complex arrays through the array operators, `reduce`/`scan`, `power` and the places where
//! the lowering stores arrays (as two blocks of doubles, re then im), agree on the TAIL
//! oracle, the FCL oracle and OpenCL; the printed text is the TAIL oracle's.

mod support;

use compiler::tail::lower_tail;
use support::runtime;
use support::tail::{check_three_levels, fcl_oracle, opencl};

/// The TAIL oracle's standard output for `src`.
fn oracle(src: &str) -> String {
    interpreter::tail::run_source(src, Default::default())
        .expect("a well-typed program")
        .stdout
}

/// Checks `src` on the three levels (it must lower) and that the TAIL oracle prints `expected`.
fn check(name: &str, src: &str, expected: &str) {
    let rt = runtime();
    assert_eq!(oracle(src), expected, "{name}: the TAIL oracle's output");
    match check_three_levels(name, src, rt.as_ref()) {
        Ok(_) => {}
        Err(why) => panic!("{name}: refused: {why}"),
    }
}

#[test]
fn every_complex_operator_agrees_with_the_oracle() {
    let src = "let a:[complex]0 = 1.0j2.0 in \
               let b:[complex]0 = 3.0j-4.0 in \
               let v1:[complex]0 = prSclX(addx(a,b)) in \
               let v2:[complex]0 = prSclX(subx(a,b)) in \
               let v3:[complex]0 = prSclX(mulx(a,b)) in \
               let v4:[complex]0 = prSclX(negx(1.0j-2.0)) in \
               let v5:[complex]0 = prSclX(negx(0.0j0.0)) in \
               let v6:[complex]0 = prSclX(conjx(a)) in \
               let v7:[double]0 = prSclD(magnx(3.0j4.0)) in \
               let v8:[complex]0 = prSclX(expx(0.0j0.0)) in \
               let v9:[double]0 = prSclD(rex(a)) in \
               let v10:[double]0 = prSclD(imx(1.5j-2.5)) in \
               let v11:[complex]0 = prSclX(injx(1.0,-2.0)) in \
               let v12:[complex]0 = prSclX(d2x(2.5)) in \
               expx(injx(1.0,0.5))";
    // the examples of spec §5.3 and §5.6; negx(0.0j0.0) is 0 − z, not −0.0
    let expected = "[](4.0j-2.0)\n[](-2.0j6.0)\n[](11.0j2.0)\n[](-1.0j2.0)\n[](0.0j0.0)\n\
                    [](1.0j-2.0)\n[](5.0)\n[](1.0j0.0)\n[](1.0)\n[](-2.5)\n[](1.0j-2.0)\n\
                    [](2.5j0.0)\n[](2.38551673096j1.30321372969)\n";
    check("operators", src, expected);
}

#[test]
fn complex_values_print_in_the_oracle_layouts() {
    let src = "let v:[complex]1 = each(fn i:[int]0 => injx(i2d(i),divd(1.0,i2d(i))),iota(4)) in \
               let m:[complex]2 = prArrX(reshape([2,3],v)) in \
               let c:[complex]3 = prArrX(reshape([2,1,2],v)) in \
               let e:[complex]1 = prArrX(drop(9,v)) in \
               let p:[complex]1 = prArrX(take(6,v)) in \
               let q:[complex]1 = prArrX(take(-6,each(negx,v))) in \
               let z:[complex]1 = prArrX(take(2,zilde())) in \
               let f:[complex]0 = prSclX(first(zilde())) in \
               [1.5j-2.0,3.0j6.4]";
    // the fill of a complex array is 0.0j0.0 on the oracle, whatever built the array
    // (docs/tail.md §4.1: tailfcl does not keep apltail's int 0 fill)
    let expected = "\n            1.0j1.0            2.0j0.5 3.0j0.333333333333\n\
                    \x20          4.0j0.25            1.0j1.0            2.0j0.5\n\n\
                    [2,1,2](1.0j1.0,2.0j0.5,3.0j0.333333333333,4.0j0.25)\n[0]()\n\
                    [6](1.0j1.0,2.0j0.5,3.0j0.333333333333,4.0j0.25,0.0j0.0,0.0j0.0)\n\
                    [6](0.0j0.0,0.0j0.0,-1.0j-1.0,-2.0j-0.5,-3.0j-0.333333333333,-4.0j-0.25)\n\
                    [2](0.0j0.0,0.0j0.0)\n[](0.0j0.0)\n[2](1.5j-2.0,3.0j6.4)\n";
    check("printing", src, expected);
}

#[test]
fn complex_arrays_through_each_zipwith_and_the_shape_operators() {
    let rt = runtime();
    let programs = [
        // each and zipWith of lambdas and operator names, fused chains
        "let v:[complex]1 = each(fn i:[int]0 => injx(i2d(i),negd(i2d(i))),iota(6)) in \
         let w:[complex]1 = prArrX(zipWith(mulx,v,rotate(1,v))) in \
         let x:[complex]1 = prArrX(each(fn z:[complex]0 => addx(mulx(z,z),conjx(z)),v)) in \
         let y:[double]1 = prArrD(each(magnx,v)) in \
         zipWith(fn a:[complex]0 => fn b:[complex]0 => subx(a,expx(b)),v,each(d2x,[0.5,1.0,1.5,2.0,2.5,3.0]))",
        // transp, rotate, vreverse, vrotate, drop, idxS, cat/cons/snoc, first
        "let v:[complex]1 = each(fn i:[int]0 => injx(i2d(i),0.5),iota(12)) in \
         let m:[complex]2 = reshape([3,4],v) in \
         let a:[complex]2 = prArrX(transp(m)) in \
         let b:[complex]2 = prArrX(rotate(-1,m)) in \
         let c:[complex]2 = prArrX(vreverse(vrotate(1,m))) in \
         let d:[complex]1 = prArrX(idxS(2,3,m)) in \
         let e:[complex]2 = prArrX(cat(m,transp(reshape([1,3],[9.0j9.0,8.0j8.0,7.0j7.0])))) in \
         let f:[complex]1 = prArrX(snoc(cons(0.0j1.0,drop(10,v)),2.0j0.0)) in \
         first(drop(3,v))",
        // if on a run-time condition choosing complex scalars; idxassign of a complex vector
        "let v:[complex]1 = [1.0j1.0,2.0j2.0,3.0j3.0] in \
         let w:[complex]1 = prArrX(each(fn z:[complex]0 => \
             if ltd(rex(z),2.5) then mulx(z,0.0j1.0) else negx(z),v)) in \
         let u:[bool]0 = idxassign([2],v,7.0j-7.0) in \
         v",
    ];
    for (k, src) in programs.iter().enumerate() {
        let name = format!("shapes {k}");
        if let Err(why) = check_three_levels(&name, src, rt.as_ref()) {
            panic!("{name}: refused: {why}");
        }
    }
}

#[test]
fn complex_reductions_and_power_agree() {
    let rt = runtime();
    let programs = [
        // short rows unroll; long rows fold (two cells of the accumulator) or scan per thread
        "let v:[complex]1 = each(fn i:[int]0 => injx(i2d(i),divd(1.0,i2d(i))),iota(300)) in \
         let a:[complex]0 = prSclX(reduce(addx,0.0j0.0,take(10,v))) in \
         let b:[complex]0 = prSclX(reduce(addx,0.0j0.0,v)) in \
         let c:[complex]0 = prSclX(reduce(mulx,1.0j0.0,each(fn z:[complex]0 => mulx(z,0.01j0.0),take(40,v)))) in \
         let d:[complex]1 = prArrX(reduce(subx,0.0j0.0,reshape([3,100],v))) in \
         let e:[complex]1 = prArrX(drop(290,scan(addx,0.0j0.0,v))) in \
         let f:[complex]2 = prArrX(scan(mulx,1.0j0.0,reshape([2,3],v))) in \
         reduce(addx,0.0j0.0,reduce(mulx,1.0j0.0,reshape([5,60],v)))",
        // power over a complex matrix (z := z*z + c), and over a tuple of complex and int
        "let c:[complex]2 = reshape([3,4],each(fn i:[int]0 => injx(subd(divd(i2d(i),4.0),2.0),0.5),iota(12))) in \
         let z:[complex]2 = prArrX(power(fn z:[complex]2 => zipWith(fn a:[complex]0 => fn b:[complex]0 => \
             addx(mulx(a,a),b),z,c),6,c)) in \
         let t:([complex]1 * [int]0) = power(fn t:([complex]1 * [int]0) => \
             (each(fn x:[complex]0 => mulx(x,0.0j1.0),Prj(0,t)),addi(Prj(1,t),1)),3,([1.0j2.0,3.0j4.0],5)) in \
         let p:[complex]1 = prArrX(Prj(0,t)) in \
         let q:[int]0 = prSclI(Prj(1,t)) in \
         each(fn x:[complex]0 => lted(magnx(x),2.0),z)",
        // a let-bound complex array used many times is materialized once
        "let v:[complex]1 = each(fn i:[int]0 => expx(injx(divd(i2d(i),10.0),i2d(i))),iota(50)) in \
         zipWith(addx,zipWith(mulx,v,v),zipWith(subx,v,each(fn x:[complex]0 => mulx(x,conjx(first(v))),v)))",
    ];
    for (k, src) in programs.iter().enumerate() {
        let name = format!("reductions {k}");
        if let Err(why) = check_three_levels(&name, src, rt.as_ref()) {
            panic!("{name}: refused: {why}");
        }
    }
}

#[test]
fn complex_arrays_are_stored_as_two_blocks_of_doubles() {
    // a printed vector of 5 complex numbers: one line of 10 doubles, re parts then im parts
    let src = "each(fn i:[int]0 => injx(i2d(i),negd(i2d(i))),iota(5))";
    let l = lower_tail(src).unwrap();
    assert!(
        l.fcl.flat_text().contains("forceAndPrintDoubleExact 10 "),
        "{}",
        l.fcl
    );
    assert_eq!(
        fcl_oracle(&l.fcl).trim(),
        "[1.0,2.0,3.0,4.0,5.0,-1.0,-2.0,-3.0,-4.0,-5.0]"
    );
    // the state of power: 12 complex numbers are 24 doubles, one kernel per iteration
    let src = "power(fn z:[complex]1 => each(fn x:[complex]0 => mulx(x,x),z),4,\
               each(fn i:[int]0 => injx(0.5,divd(1.0,i2d(i))),iota(12)))";
    let l = lower_tail(src).unwrap();
    assert!(
        l.fcl
            .flat_text()
            .contains("4 iterations of one kernel over 24 elements"),
        "{}",
        l.fcl
    );
    if let Some(rt) = runtime() {
        let (out, _) = opencl(&rt, &l.fcl);
        assert_eq!(out.lines().count(), 1);
        assert_eq!(out.matches(',').count(), 23, "{out}");
    }
}

/// The FCL compiler lowers an `if` on a run-time value whose branches are pairs: component by
/// component, also where a branch needs statements (a `let` shared in the kernel).
#[test]
fn fcl_if_chooses_between_pairs() {
    let src = "sig main : Program <grid> unit\nval main =\n  do<grid>\n  { \
               a <- forceAndPrintDouble 6 (push<grid> (generate 6 (fn i => \
               let p = (if lti i 3 then (i2d i, 2.0) else (let y = muld (i2d i) (i2d i) in (y, addd y 1.0))) in \
               addd (fst p) (snd p))))\n  ; return<grid> ()\n  }\n";
    let expected = "[2.00000,3.00000,4.00000,19.00000,33.00000,51.00000]";
    assert_eq!(fcl_oracle(src).trim(), expected);
    if let Some(rt) = runtime() {
        let (out, _) = opencl(&rt, src);
        assert_eq!(out.trim(), expected);
    }
}

/// A long literal vector of complex numbers read at computed indices is a table of its real
/// parts and then its imaginary parts, not a chain of `if`s nested deeper than FCL parses.
#[test]
fn long_complex_literal_vectors_are_tables() {
    let elems: Vec<String> = (0..100).map(|i| format!("{i}.5j-{i}.25")).collect();
    let src = format!(
        "let v:[complex]1 = [{}] in let w:[complex]1 = prArrX(take(3,v)) in \
         reduce(addx,0.0j0.0,each(fn z:[complex]0 => mulx(z,z),v))",
        elems.join(",")
    );
    let l = lower_tail(&src).unwrap();
    assert!(l.fcl.flat_text().contains("tabulate 200 "), "{}", l.fcl);
    check(
        "long literal",
        &src,
        "[3](0.5j-0.25,1.5j-1.25,2.5j-2.25)\n[](2493.75j-664150.0)\n",
    );
}
