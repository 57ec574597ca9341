//! Each fault planted in the TAIL lowering (`compiler::tail::fault`) is caught by a small TAIL
//! program through the tester's own detection path: the faulty lowering disagrees with the TAIL
//! oracle (on the FCL oracle, and compiled on the OpenCL device where one exists), while the
//! correct lowering agrees on the same program.

use compiler::fault::{Fault, LoweringFault};
use compiler::runtime::Runtime;
use conformance::fuzz::oracle::Verdict;
use conformance::fuzz::tail::{check_lowered, check_tail_program, CompiledSide, LoweredCheck};

/// A vector of `1-s..n-s` the lowering cannot compute at compile time (longer than the
/// lowering evaluates, as the generator's opaque vectors are), so that counts and masks made
/// from it are run-time data.
fn opaque(n: i64, s: i64) -> String {
    let m = 5000;
    let (dropped, base) = (m - n, m - n + s);
    format!("each(fn x:[int]0 => subi(x,{base}),drop({dropped},iota({m})))")
}

/// The program that shows `f`.
fn witness(f: LoweringFault) -> String {
    use LoweringFault::*;
    match f {
        RotateDirection => "rotate(2,iota(5))".into(),
        TakeFill => "take(7,iota(5))".into(),
        TakeWrongEnd => "take(-2,iota(5))".into(),
        DropWrongEnd => "drop(-2,iota(5))".into(),
        TranspShape => "transp(reshape([2,3],iota(6)))".into(),
        CatStride => "cat(reshape([2,2],iota(4)),reshape([2,3],iota(6)))".into(),
        EmptyReduceNeutral => "reduce(muli,1,drop(3,iota(3)))".into(),
        // counts -1,0,1,2 computed on the device
        ReplicateNegative => format!("replicate(0,{},iota(4))", opaque(4, 2)),
        FilterSearchBound => format!(
            "replicate(0,each(fn y:[int]0 => resi(3,y),{}),iota(5))",
            opaque(5, 0)
        ),
        CompressScatterOffset => format!(
            "compress(each(fn y:[int]0 => lti(y,3),{}),iota(5))",
            opaque(5, 0)
        ),
        DiviTruncates => "zipWith(divi,[-7,7,-7,6],[2,-2,-2,3])".into(),
        ResiOperands => "zipWith(resi,[3,5,-4],[7,9,7])".into(),
        AliasByName => "let x:[int]1 = iota(5) in let y:[int]1 = x in \
                        let u:[bool]0 = idxassign([2],y,99) in x"
            .into(),
        CarriedDropped => "let h:[int]1 = reshape([3],0) in \
                           let r:[int]0 = power(fn i:[int]0 => let u:[bool]0 = idxassign([addi(resi(3,i),1)],h,i) in addi(i,1),5000,0) in h"
            .into(),
    }
}

#[test]
fn every_lowering_fault_is_caught_by_its_program() {
    let rt = Runtime::new(0).ok();
    if rt.is_none() {
        eprintln!("no OpenCL device: checking the lowered programs on the FCL oracle only");
    }
    for f in LoweringFault::ALL {
        let src = witness(f);
        let reference = check_tail_program(&src, None, None);
        assert_eq!(reference.verdict, Verdict::Pass, "{src}");
        assert!(
            reference.unsupported.is_none(),
            "{src}: {:?}",
            reference.unsupported
        );
        let tail_out = reference.stdout.clone();
        // the correct lowering agrees, the faulty one does not
        assert!(
            matches!(
                check_lowered(&src, &tail_out, None),
                LoweredCheck::Agrees(..)
            ),
            "{src}"
        );
        let fault = Fault::Lowering(f);
        let faulty = check_lowered(&src, &tail_out, Some(fault));
        assert!(
            matches!(faulty, LoweredCheck::Mismatch(Verdict::Mismatch { .. })),
            "{} not caught by {src}",
            f.name()
        );
        if let Some(runtime) = &rt {
            let side = |fault| CompiledSide {
                runtime,
                fault,
                options: "",
                optimized: true,
            };
            let good = check_tail_program(&src, None, Some(side(None)));
            assert_eq!(good.verdict, Verdict::Pass, "{src}");
            let bad = check_tail_program(&src, Some(&tail_out), Some(side(Some(fault))));
            assert!(
                matches!(bad.verdict, Verdict::Mismatch { .. }),
                "{} not caught on the device by {src}",
                f.name()
            );
        }
    }
}

#[test]
fn lowering_faults_have_distinct_names_the_cli_parses() {
    let all = Fault::for_tail();
    assert_eq!(all.len(), Fault::ALL.len() + LoweringFault::ALL.len());
    assert!(all.len() >= 18);
    for f in &all {
        assert_eq!(Fault::parse(f.name()), Some(*f));
    }
    let mut names: Vec<&str> = all.iter().map(|f| f.name()).collect();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), all.len());
}
