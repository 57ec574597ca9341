//! TAIL → FCL → OpenCL: every TAIL program in examples/ and paper-examples/ that the lowering
//! supports writes the same output on the TAIL oracle, the FCL oracle (on the lowered program)
//! and OpenCL (ints exactly, doubles within relative 1e-12); programs that certainly fail fail
//! the same way; and the lowering fuses index arithmetic into one kernel.

mod support;

use compiler::tail::{format_result, lower_tail, LowerTailError};
use std::path::{Path, PathBuf};
use support::runtime;
use support::tail::{check_three_levels, fcl_oracle, opencl};

fn tail_programs(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            tail_programs(&p, out);
        } else if p.extension().is_some_and(|x| x == "tail") {
            out.push(p);
        }
    }
}

#[test]
fn supported_tail_programs_agree_on_three_levels() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut paths = Vec::new();
    tail_programs(&root.join("examples"), &mut paths);
    tail_programs(&root.join("paper-examples"), &mut paths);
    paths.sort();
    let rt = runtime();
    let (mut supported, mut unsupported) = (Vec::new(), Vec::new());
    for path in &paths {
        let src = std::fs::read_to_string(path).unwrap();
        let name = path.display().to_string();
        if semantics::tail::step::load(&src).is_err() {
            continue; // a parse or type error: not a program
        }
        // file names in programs are relative to the working directory (spec §7), which
        // tests/tail_cli.rs sets to the program's directory (no other test here reads files)
        std::env::set_current_dir(path.parent().unwrap()).unwrap();
        match check_three_levels(&name, &src, rt.as_ref()) {
            Ok(_) => supported.push(name),
            Err(why) => unsupported.push(format!("{name}: {why}")),
        }
    }
    println!("supported ({}): {supported:#?}", supported.len());
    println!("unsupported ({}): {unsupported:#?}", unsupported.len());
    assert!(
        supported.len() >= 58,
        "the supported count dropped: {unsupported:#?}"
    );
}

/// Programs checked on the three levels, one per lowering feature.
#[test]
fn features_agree_on_three_levels() {
    let rt = runtime();
    let programs = [
        // typed scalars: bools, comparisons, floored division and modulo, shifts
        "let v1:[int]1 = prArrI(each(fn x:[int]0 => divi(x,-3),[7,-7,6,-6])) in \
         let v2:[int]1 = prArrI(zipWith(mod,[7,-7,7,-7],[3,3,-3,-3])) in \
         let v3:[int]1 = prArrI(zipWith(resi,[3,-3,0],[-7,7,7])) in \
         let v4:[bool]1 = prArrB(zipWith(ltei,[1,2,3],[2,2,2])) in \
         let v5:[int]1 = prArrI(zipWith(shri,[-1,-2147483648,8],[28,30,40])) in \
         let v6:[int]1 = prArrI(zipWith(shari,[-16,-1,5],[2,40,-1])) in \
         let v7:[int]1 = prArrI(zipWith(ori,[12,5],[10,3])) in \
         i2d(reduce(addi,0,each(b2i,each(notb,v4))))",
        // floored division and modulo by positive literals (simpler code) and by computed ints
        "let a:[int]1 = each(fn x:[int]0 => subi(muli(x,37),500),iota(40)) in \
         let v:[int]1 = prArrI(each(fn x:[int]0 => resi(7,x),a)) in \
         let w:[int]1 = prArrI(each(fn x:[int]0 => divi(x,7),a)) in \
         let u:[int]1 = prArrI(each(fn x:[int]0 => mod(x,7),a)) in \
         let t:[int]1 = prArrI(zipWith(divi,[-2147483648,2147483647,-1],[7,1,3])) in \
         i2d(reduce(addi,0,zipWith(resi,each(fn x:[int]0 => subi(x,20),iota(40)),a)))",
        // idxS of every axis, vreverse/vrotate of matrices, take padding at both ends
        "let v1:[int]3 = reshape([2,3,4],iota(24)) in \
         let v2:[int]2 = prArrI(idxS(2,3,v1)) in \
         let v3:[int]2 = prArrI(idxS(3,1,v1)) in \
         let v4:[int]3 = prArrI(vreverse(v1)) in \
         let v5:[int]3 = prArrI(vrotate(-1,v1)) in \
         let v6:[int]2 = prArrI(take(-4,reshape([2,2],[1,2,3,4]))) in \
         let v7:[int]2 = prArrI(take(3,reshape([2,2],[1,2,3,4]))) in \
         let v8:[int]3 = prArrI(rotate(3,v1)) in \
         i2d(first(idxS(1,2,v2)))",
        // cat/cons/snoc of matrices, first of an empty array, reduce of an empty vector
        "let v1:[int]2 = reshape([2,3],iota(6)) in \
         let v2:[int]2 = prArrI(cat(v1,reshape([2,1],[8,9]))) in \
         let v3:[int]2 = prArrI(snoc(cons([0,0],v1),[7,7])) in \
         let v4:[int]0 = prSclI(first(drop(9,[1,2]))) in \
         let v5:[int]1 = prArrI(drop(5,[1,2])) in \
         i2d(reduce(addi,5,drop(9,[1,2])))",
        // materialization: an array used twice, scan, long thread-level folds, reduce order
        "let v1:[int]1 = each(fn x:[int]0 => muli(x,x),iota(300)) in \
         let v2:[int]0 = prSclI(reduce(subi,0,v1)) in \
         let v3:[int]1 = prArrI(take(5,scan(subi,0,v1))) in \
         let v4:[int]1 = prArrI(reduce(maxi,0,reshape([3,100],v1))) in \
         i2d(addi(v2,reduce(addi,0,v1)))",
        // nested unrolled reductions: a long index text is materialized, not nested further
        "let a:[int]3 = reshape([16,16,16],iota(4096)) in \
         i2d(reduce(addi,0,reduce(addi,0,reduce(addi,0,each(fn x:[int]0 => mod(x,7),a)))))",
        // block-level tree reduction of a long row
        "let v1:[int]0 = prSclI(reduce(addi,0,each(fn x:[int]0 => mod(x,7),iota(100000)))) in \
         let v2:[int]1 = prArrI(reduce(maxi,0,reshape([2,50000],iota(100000)))) in \
         i2d(v1)",
        // block-level scans: chunk folds, scanned work-group totals, chunks scanned again
        "let v1:[int]1 = scan(addi,0,each(fn x:[int]0 => mod(x,7),iota(100000))) in \
         let v2:[int]1 = prArrI(take(3,drop(99990,v1))) in \
         let v3:[int]2 = scan(maxi,0,reshape([3,5000],each(fn x:[int]0 => mod(muli(x,79),1009),iota(15000)))) in \
         let v4:[int]1 = prArrI(reduce(addi,0,v3)) in \
         let v5:[int]1 = scan(addi,0,each(fn x:[int]0 => mod(x,3),iota(600000))) in \
         let v6:[int]1 = prArrI(take(-3,v5)) in \
         i2d(reduce(maxi,0,v1))",
        // block-level scans of several rows of several work-groups each (a row padded to the
        // work-groups' width), and a prefix of -0.0s that a chunk's fold from the identity 0.0
        // would turn into 0.0
        "let v1:[int]2 = scan(maxi,0,reshape([2,70000],each(fn x:[int]0 => resi(100003,muli(x,7919)),iota(140000)))) in \
         let v2:[int]1 = prArrI(take(3,drop(69998,reshape([140000],v1)))) in \
         let v3:[double]1 = scan(addd,0.0,each(fn x:[int]0 => negd(0.0),iota(40000))) in \
         let v4:[double]0 = prSclD(divd(1.0,first(drop(39999,v3)))) in \
         i2d(reduce(addi,0,reduce(maxi,0,v1)))",
        // power over an array, powerScl, condScl, idxassign twice
        "let v1:[int]1 = prArrI(power(fn v:[int]1 => each(fn x:[int]0 => addi(x,1),rotate(1,v)),3,iota(5))) in \
         let v2:[int]0 = prSclI(powerScl(fn x:[int]0 => muli(x,3),4,2)) in \
         let v3:[int]0 = prSclI(condScl(fn x:[int]0 => addi(x,1),lti(2,3),10)) in \
         let mv4:[int]2 = reshape([2,2],iota(4)) in \
         let v5:[bool]0 = idxassign([1,2],mv4,20) in \
         let v6:[bool]0 = idxassign([2,2],mv4,40) in \
         i2d(reduce(addi,0,reduce(addi,0,mv4)))",
        // power over a tuple state (spec §5.9's example), one buffer
        "let v:([int]1 * [int]0) = power(fn v1:([int]1 * [int]0) => (rotate(1,Prj(0,v1)),addi(Prj(1,v1),1)),2,([1,2,3],0)) in \
         let p:[int]1 = prArrI(Prj(0,v)) in i2d(Prj(1,v))",
        // shapes and counts computed by each, reduce and scan of known vectors
        "let s:<int>2 = eachV(fn x:[int]0 => muli(x,2),[2,3]) in \
         let v:[int]1 = scan(addi,0,[1,2,3]) in \
         let w:[int]1 = prArrI(reshape([reduce(addi,0,v)],iota(5))) in \
         i2d(reduce(addi,0,reduce(addi,0,reshape(s,iota(reduce(muli,1,s))))))",
        // compress and replicate with a static mask and counts
        "let v1:[int]1 = prArrI(compress([tt,ff,tt],[1,2,3])) in \
         i2d(reduce(addi,0,replicate(0,[2,0,-1],[7,8,9])))",
        // a static mask and static counts over computed data: a gather, the data computed
        "let v0:[int]1 = take(6,each(fn x:[int]0 => muli(x,x),iota(100))) in \
         let v1:[int]1 = prArrI(compress([tt,ff,tt,ff,ff,tt],v0)) in \
         let v2:[int]1 = prArrI(replicate(0,[1,-2,0,3,1,0],v0)) in \
         i2d(reduce(addi,0,compress([ff,tt],[7,addi(4,4)])))",
        // if on a computed condition: both branches scalar expressions
        "let v:[int]0 = reduce(addi,0,each(fn x:[int]0 => muli(x,x),iota(100))) in \
         i2d(if lti(v,50) then muli(v,2) else subi(v,1))",
        // zilde is int in the lowering, polymorphic in TAIL: reshaped into doubles, the fills
        // are double fills (fuzz seed 21, program 67)
        "let v2:[double]1 = reshape([3],zilde()) in \
         let v3:[bool]1 = prArrB(each(fn x1:[double]0 => gtd(x1,2.0),v2)) in \
         reduce(addd,1.5,each(fn x:[double]0 => addd(x,0.5),v2))",
        // static failures after some output
        "let v1:[int]1 = prArrI(iota(3)) in i2d(reduce(addi,0,iota(subi(2,5))))",
        "let mv1:[int]1 = iota(3) in let v2:[bool]0 = idxassign([4],mv1,1) in i2d(first(mv1))",
        "let v1:[int]2 = reshape([2,3],iota(6)) in i2d(first(cat(v1,reshape([3,1],[1,2,3]))))",
        "let v1:[int]1 = prArrI([1]) in i2d(first(idxS(1,3,reshape([2,3],iota(6)))))",
        "i2d(first(transp2([1,1],reshape([2,3],iota(6)))))",
        // chars: comparisons on codes, prArrC's layout, char results
        "let v1:[char]1 = prArrC(['o','k']) in \
         let v2:[bool]1 = prArrB(zipWith(ltc,v1,['p','a'])) in \
         let v3:[char]1 = prArrC(take(4,v1)) in \
         i2d(reduce(addi,0,each(b2i,each(fn c:[char]0 => eqc(c,'k'),v1))))",
    ];
    for src in programs {
        assert!(
            check_three_levels(src, src, rt.as_ref()).unwrap_or_else(|why| panic!("{src}: {why}"))
        );
    }
}

/// `zilde()` has the element type the type checker infers for each application (not the
/// enclosing annotation's), so empty vectors of doubles, bools and chars lower and agree.
#[test]
fn zilde_takes_the_element_type_of_its_context() {
    let rt = runtime();
    for src in [
        // the fill of an empty double vector reshaped: [](0.0) + 1.5 … on the oracle
        "reduce(addd,1.5,reshape([2],zilde()))",
        "reduce(addd,0.0,cat([1.5,2.5],zilde()))",
        "let v:[double]1 = each(i2d,zilde()) in reduce(addd,0.5,v)",
        "let v:[double]1 = prArrD(cat(zilde(),[0.5])) in reduce(addd,0.0,v)",
        "i2d(reduce(addi,3,each(b2i,reshape([3],cat([tt],zilde())))))",
        // inside a function body applied per element
        "reduce(addd,0.0,each(fn x:[int]0 => reduce(addd,i2d(x),cat(zilde(),[1.5])),iota(3)))",
        "let c:[char]1 = prArrC(cat(['a','b'],zilde())) in \
         i2d(reduce(addi,0,each(b2i,each(fn x:[char]0 => eqc(x,'b'),c))))",
        "let v:[int]1 = prArrI(reshape([3],zilde())) in \
         reduce(addd,0.25,each(fn x:[double]0 => muld(x,2.0),reshape([2,2],zilde())))",
    ] {
        assert!(
            check_three_levels(src, src, rt.as_ref()).unwrap_or_else(|why| panic!("{src}: {why}"))
        );
    }
}

/// A TAIL char vector literal spelling `text`.
fn char_literal(text: &str) -> String {
    let chars: Vec<String> = text.chars().map(|c| format!("'{c}'")).collect();
    format!("[{}]", chars.join(","))
}

/// File reads are host-level operations: the file is read when the program is lowered, its
/// contents are a buffer of `main` and its length a static extent; a missing or ill-formed
/// file is the same run-time failure as on the TAIL oracle.
#[test]
fn file_reads_agree_on_three_levels() {
    let dir = std::env::temp_dir().join(format!("tail_io_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = |name: &str, contents: &str| {
        let p = dir.join(name);
        std::fs::write(&p, contents).unwrap();
        char_literal(p.to_str().unwrap())
    };
    let doubles = file("d.txt", "1.5, -2 ~3.25e1\n.5 7.");
    let text = file("t.txt", "banana\n");
    let six = file("six.txt", "1 2 3\n4 5 6\n");
    let many: Vec<String> = (0..10000)
        .map(|k| ((k * 37) % 1001 - 500).to_string())
        .collect();
    let many = file("many.txt", &many.join(" "));
    let bad = file("bad.txt", "1 x 2");
    let empty = file("empty.txt", "");
    let missing = char_literal(dir.join("missing.txt").to_str().unwrap());
    let programs = [
        format!(
            "let v:[double]1 = prArrD(readDoubleVecFile({doubles})) in \
             reduce(addd,0.0,each(fn x:[double]0 => muld(x,x),v))"
        ),
        format!(
            "let c:[char]1 = prArrC(readFile({text})) in \
             i2d(reduce(addi,0,each(b2i,each(fn x:[char]0 => eqc(x,'a'),c))))"
        ),
        format!(
            "let v:[int]1 = readIntVecFile({six}) in \
             let w:[int]2 = prArrI(transp(reshape([2,divi(first(shape(v)),2)],v))) in \
             i2d(reduce(addi,0,reduce(muli,1,w)))"
        ),
        format!(
            "let v:[int]1 = readIntVecFile({many}) in \
             let w:[int]1 = prArrI(take(5,rotate(3,v))) in \
             i2d(reduce(maxi,-1000,scan(addi,0,v)))"
        ),
        format!("let v:[int]1 = prArrI(readIntVecFile({empty})) in i2d(reduce(addi,7,v))"),
        format!(
            "let v:[int]1 = prArrI(iota(3)) in \
             i2d(reduce(addi,0,readIntVecFile({missing})))"
        ),
        format!(
            "let v:[int]1 = prArrI(iota(3)) in \
             i2d(reduce(addi,0,readIntVecFile({bad})))"
        ),
    ];
    let rt = runtime();
    for src in &programs {
        assert!(
            check_three_levels(src, src, rt.as_ref()).unwrap_or_else(|why| panic!("{src}: {why}"))
        );
    }
    // the buffer is stored once by `main`, named after the file
    let l = lower_tail(&programs[2]).unwrap();
    assert!(
        l.fcl.flat_text().contains("read by the host when lowered"),
        "{}",
        l.fcl
    );
    // a file read inside a function body runs once per element, at the top level of `main`
    let inner = format!(
        "i2d(reduce(addi,0,each(fn x:[int]0 => reduce(addi,x,readIntVecFile({six})),iota(3))))"
    );
    assert!(check_three_levels(&inner, &inner, rt.as_ref()).unwrap_or_else(|why| panic!("{why}")));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Doubles: literals, the §5.2 operators, conversions and double reductions.
#[test]
fn doubles_agree_on_three_levels() {
    let rt = runtime();
    let programs = [
        "let v1:[double]1 = prArrD([0.1,-2.5,1e20,-0.0,3.0]) in \
         let v2:[double]1 = prArrD(each(fn x:[double]0 => divd(x,3.0),v1)) in \
         let v3:[int]1 = prArrI(each(floor,[2.5,-2.5])) in \
         let v4:[int]1 = prArrI(each(ceil,[2.5,-2.5])) in \
         let v5:[int]1 = prArrI(each(signd,[-0.0,-1.5,2.0])) in \
         let v6:[bool]1 = prArrB(zipWith(lted,[1.0,2.0],[1.0,1.5])) in \
         let v7:[double]0 = prSclD(maxd(1.0,powd(2.0,10.0))) in \
         reduce(addd,0.0,each(fn x:[double]0 => muld(x,x),[0.5,1.25,2.0]))",
        "reduce(addd,0.0,each(fn x:[int]0 => divd(1.0,i2d(x)),iota(10000)))",
        "let v1:[double]1 = scan(addd,0.0,each(fn x:[int]0 => divd(1.0,i2d(x)),iota(5000))) in \
         let v2:[double]1 = prArrD(take(-2,v1)) in \
         reduce(maxd,0.0,v1)",
        "let v1:[double]1 = prArrD(reduce(mind,1.0,reshape([4,3],each(i2d,iota(12))))) in \
         let v2:[double]1 = prArrD(scan(addd,0.0,[1.0,1e16,-1e16])) in \
         let v3:[double]0 = prSclD(resd(2.5,7.0)) in \
         expd(ln(addd(cos(0.0),tanh(0.5))))",
        // block-level trees with infinite identities (maxd: -inf, mind: inf)
        "let v:[double]0 = prSclD(reduce(maxd,0.0,each(fn x:[int]0 => negd(i2d(x)),iota(5000)))) in \
         reduce(mind,0.0,each(fn x:[int]0 => addd(0.5,i2d(x)),iota(5000)))",
        // a tuple state of doubles, ints and bools: one buffer of doubles
        "let v:([double]1 * [int]0 * [bool]0) = power(fn v1:([double]1 * [int]0 * [bool]0) => \
         (each(fn x:[double]0 => muld(x,1.5),Prj(0,v1)),addi(Prj(1,v1),-7),notb(Prj(2,v1))),3,([1.0,2.5],4,tt)) in \
         let p:[double]1 = prArrD(Prj(0,v)) in let q:[bool]0 = prSclB(Prj(2,v)) in i2d(Prj(1,v))",
    ];
    for src in programs {
        assert!(
            check_three_levels(src, src, rt.as_ref()).unwrap_or_else(|why| panic!("{src}: {why}"))
        );
    }
}

#[test]
fn transpositions_and_slices_of_reshape_fuse_into_one_kernel() {
    let rt = runtime();
    for src in [
        "let a:[int]2 = reshape([3,4],iotaV(12)) in transp(transp(a))",
        "let a:[int]3 = reshape([2,3,4],iotaV(24)) in transp2([3,1,2],transp2([2,3,1],a))",
        "transp2([2,1,3],transp2([1,3,2],reshape([2,3,4],iotaV(24))))",
        "take(2,drop(1,reshape([4,3],iotaV(12))))",
        "rotate(2,reshape([3,4],iotaV(12)))",
        "vrotate(1,take(-3,reshape([4,3],iotaV(12))))",
    ] {
        let l = lower_tail(src).unwrap();
        // one statement in main: the printed value, computed by one generate
        assert_eq!(
            l.fcl.flat_text().matches("<- tabulate").count(),
            1,
            "{}",
            l.fcl
        );
        assert_eq!(
            l.fcl.flat_text().matches("forceAndPrint").count(),
            1,
            "{}",
            l.fcl
        );
        assert!(!l.fcl.flat_text().contains("forceM"), "{}", l.fcl);
        let tail = interpreter::tail::run_source(src, Default::default())
            .unwrap()
            .stdout;
        assert_eq!(tail, format_result(&l, &fcl_oracle(&l.fcl)).unwrap());
        if let Some(rt) = &rt {
            let (out, kernels) = opencl(rt, &l.fcl);
            assert_eq!(kernels, 1, "{}", l.fcl);
            assert_eq!(tail, format_result(&l, &out).unwrap());
        }
    }
}

#[test]
fn transpositions_compose_and_cancel() {
    // transp(transp(a)) and a transp2 chain that permutes nothing read a's elements directly
    for src in [
        "let a:[int]2 = reshape([3,4],iotaV(12)) in transp(transp(a))",
        "let a:[int]3 = reshape([2,3,4],iotaV(24)) in transp2([3,1,2],transp2([2,3,1],a))",
    ] {
        let l = lower_tail(src).unwrap();
        assert!(l.fcl.flat_text().contains("(fn i => i + 1)"), "{}", l.fcl);
    }
    // a chain that does permute is one permutation: one layer of index arithmetic
    let l = lower_tail("transp2([2,1,3],transp2([1,3,2],reshape([2,3,4],iotaV(24))))").unwrap();
    let text = l.fcl.flat_text();
    let main = &text[text.find("val main").unwrap()..];
    assert_eq!(main.matches(" / ").count(), 2, "{main}");
}

#[test]
fn long_chains_are_materialized_before_fcl_nests_too_deeply() {
    let mut src = String::from("let v0:[int]1 = iota(3) in ");
    for k in 1..400 {
        src.push_str(&format!(
            // maxi cannot fail: a checked map (addi) is materialized at every let, call by
            // value, which is another limit (docs/tail-compiler.md §7)
            "let v{k}:[int]1 = each(fn x:[int]0 => maxi(x,{k}),v{}) in ",
            k - 1
        ));
    }
    src.push_str("i2d(first(v399))");
    let rt = runtime();
    assert!(check_three_levels("chain", &src, rt.as_ref()).unwrap());
    let l = lower_tail(&src).unwrap();
    assert!(l.fcl.flat_text().contains("-- materialize"), "{}", l.fcl);
}

#[test]
fn long_reductions_record_their_strategy() {
    let thread = lower_tail("reduce(addi,0,reshape([2000,50],iota(100000)))").unwrap();
    let scan = lower_tail("scan(addi,0,iota(100000))").unwrap();
    assert!(
        scan.fcl
            .flat_text()
            .contains("-- scan: block-level reduce-then-scan, rows=1 len=100000"),
        "{}",
        scan.fcl
    );
    assert!(
        thread
            .fcl
            .flat_text()
            .contains("-- reduce: thread-level fold per row, rows=2000 len=50"),
        "{}",
        thread.fcl
    );
    // addi of the program folds sequentially (its overflow checks follow the oracle's order);
    // the block-level tree is for operators that cannot fail
    let tree = lower_tail("reduce(maxi,0,iota(1000000))").unwrap();
    assert!(
        tree.fcl
            .flat_text()
            .contains("-- reduce: block-level tree, rows=1 len=1000000"),
        "{}",
        tree.fcl
    );
    // few medium rows: one work-group per row rather than one thread
    let few = lower_tail("reduce(maxi,0,reshape([4,500],iota(2000)))").unwrap();
    assert!(
        few.fcl
            .flat_text()
            .contains("-- reduce: block-level tree, rows=4 len=500"),
        "{}",
        few.fcl
    );
    // many long rows: one work-group per row, each thread folding more than 8 elements, so
    // that no second pass of trees (nor its barriers) is needed
    let many = lower_tail("reduce(maxi,0,reshape([2048,4096],iota(8388608)))").unwrap();
    assert!(
        many.fcl
            .flat_text()
            .contains("rows=2048 len=4096 (1 work-groups of 256 threads x 16 per row)"),
        "{}",
        many.fcl
    );
    assert!(!many.fcl.flat_text().contains("len=2 "), "{}", many.fcl);
    // an operator not known to be associative keeps apltail's sequential order
    let seq = lower_tail("reduce(subi,0,iota(1000000))").unwrap();
    assert!(
        seq.fcl.flat_text().contains("thread-level fold"),
        "{}",
        seq.fcl
    );
    let short = lower_tail("reduce(addi,0,reshape([4,3],iota(12)))").unwrap();
    assert!(
        !short.fcl.flat_text().contains("-- reduce"),
        "{}",
        short.fcl
    );
}

#[test]
fn unsupported_programs_say_why() {
    for (src, why) in [
        // a `power` of 5000 trips that updates in place an array an `if` may have given to
        // a variable of other extents: no loop form, and past the trips run one by one
        (
            "let n:[int]0 = addi(muli(subi(0,maxi(-1,mini(0,nowi(0)))),10000000),3) in \
             let a:[int]2 = reshape([2,3],iota(6)) in let b:[int]2 = reshape([3,2],iota(6)) in \
             let c:[int]2 = if gti(n,1) then a else b in \
             let r:[int]2 = power(fn s:[int]2 => let u:[bool]0 = idxassign([1,1],s,addi(idxS(1,1,idxS(1,1,s)),1)) in s,5000,c) in \
             i2d(first(rav(r)))",
            "power whose state's length is computed on the device",
        ),
    ] {
        match lower_tail(src) {
            Err(LowerTailError::Unsupported(r)) => assert!(r.contains(why), "{src}: {r}"),
            other => panic!("{src}: {other:?}"),
        }
    }
}

/// Whether an FCL element text is a literal: numbers, `true`/`false`, negation of a literal
/// and the `if i == k then … else …` chains of a literal vector, nothing computed.
fn literal_text(body: &str) -> bool {
    let spaced = body.replace('(', " ( ").replace(')', " ) ");
    let tokens: Vec<&str> = spaced.split_whitespace().collect();
    tokens.iter().enumerate().all(|(k, t)| {
        matches!(
            *t,
            "(" | ")" | "if" | "i" | "==" | "then" | "else" | "negd" | "b2i" | "true" | "false"
        ) || t.parse::<f64>().is_ok()
            // `(0 - 5)`: a negative int literal
            || (*t == "-" && tokens.get(k.wrapping_sub(1)) == Some(&"0"))
    })
}

/// The element texts of the values a lowered program prints (its `pNp <- tabulate` lines).
fn printed_bodies(fcl: &str) -> Vec<String> {
    fcl.lines()
        .filter(|l| l.contains("p <- tabulate "))
        .filter_map(|l| {
            let body = &l[l.find("(fn i => ")? + "(fn i => ".len()..];
            Some(body.strip_suffix(')')?.to_string())
        })
        .collect()
}

/// (programs whose every printed value is a literal, literal printed values, printed values)
/// over the lowered programs of `srcs`.
fn literal_counts<'a>(srcs: impl Iterator<Item = &'a str>) -> (usize, usize, usize) {
    let (mut hollow, mut literal, mut total) = (0, 0, 0);
    for src in srcs {
        let Ok(l) = lower_tail(src) else { continue };
        let bodies = printed_bodies(&l.fcl.flat_text());
        let lits = bodies.iter().filter(|b| literal_text(b)).count();
        hollow += usize::from(!bodies.is_empty() && lits == bodies.len());
        literal += lits;
        total += bodies.len();
    }
    (hollow, literal, total)
}

#[test]
fn literal_classifier_tells_literals_from_computations() {
    assert!(literal_text("(negd 27.870466000131344)"));
    assert!(literal_text("(if i == 0 then (0 - 20) else 300)"));
    assert!(!literal_text("(i + 1)"));
    assert!(!literal_text("(addd 1.0 2.0)"));
    assert!(!literal_text("(5 - 3)"));
    let l = lower_tail("let v:[int]1 = prArrI([1,2]) in i2d(reduce(addi,0,iota(300)))").unwrap();
    assert_eq!(printed_bodies(&l.fcl.flat_text()).len(), 2, "{}", l.fcl);
}

/// Closed repository programs still compute on the FCL and OpenCL levels: the lowering
/// evaluates at compile time only what it needs statically (shapes, counts), so the printed
/// values are computations, not literals folded by the lowering.
#[test]
fn repository_programs_compute_rather_than_print_literals() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut paths = Vec::new();
    tail_programs(&root.join("examples"), &mut paths);
    tail_programs(&root.join("paper-examples"), &mut paths);
    paths.sort();
    let srcs: Vec<String> = paths
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    let (hollow, literal, total) = literal_counts(srcs.iter().map(String::as_str));
    println!("programs printing only literals: {hollow}; literal prints: {literal} of {total}");
    // what the symbolic code costs the FCL oracle
    let (mut steps, mut most) = (0u64, 0u64);
    for src in &srcs {
        let Ok(l) = lower_tail(src) else { continue };
        let program = l.fcl.load().unwrap();
        let out = interpreter::fcl::run(&program.main, &interpreter::fcl::Config::default());
        steps += out.stats.steps;
        most = most.max(out.stats.steps);
    }
    println!("FCL oracle steps: {steps} in all, {most} at most");
    assert_eq!(hollow, 0, "programs print only literals");
    assert!(
        literal * 5 <= total,
        "{literal} of {total} prints are literals"
    );
}

/// Closed programs lower to their computations (the `generate`s, unrolled or looped folds and
/// `power` of the program), not to the values the lowering could compute, and the three
/// engines still agree on them.
#[test]
fn closed_programs_keep_their_computations() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let signal = std::fs::read_to_string(root.join("examples/oracle_signal.tail")).unwrap();
    let rt = runtime();
    for (name, src, ops, folded) in [
        // reduce(addd, …) of each/zipWith chains over a literal vector: -27.870466000131344
        (
            "signal",
            signal.as_str(),
            &["addd", "divd", "maxd", "mind", "muld"][..],
            "27.87",
        ),
        // a short reduce over iota: unrolled into the print's kernel
        ("reduce of iota", "i2d(reduce(addi,0,iota(10)))", &["+", "i * 10"][..], "55"),
        // a long reduce over iota: a thread-level fold
        (
            "reduce of iota, sequential",
            "i2d(reduce(subi,0,iota(300)))",
            &["foldl", "(generate 299"][..],
            "150",
        ),
        // each over iota: the map in the print's generate
        (
            "each of iota",
            "let v:[int]1 = prArrI(each(fn x:[int]0 => muli(x,x),iota(6))) in i2d(first(v))",
            &["i + 1", "x1 * x1"][..],
            "25",
        ),
        // a power loop of a scalar and of an array
        (
            "powerScl",
            "i2d(powerScl(fn x:[int]0 => muli(x,3),4,2))",
            &["power<grid> 4", "muliChecked 0 x"][..],
            "162",
        ),
        (
            "power",
            "i2d(reduce(addi,0,power(fn v:[int]1 => each(fn x:[int]0 => addi(x,x),v),5,iota(4))))",
            &["power<grid> 5"][..],
            "320",
        ),
        // computed shapes and counts are static, the elements stay computations
        (
            "computed shape",
            "let s:<int>2 = [2,addi(1,2)] in i2d(reduce(addi,0,reduce(addi,0,reshape(s,iota(reduce(muli,1,s))))))",
            &["* 3 + 2 + 1"][..],
            "21",
        ),
        // a known condition still becomes an FCL conditional
        (
            "if",
            "i2d(if lti(reduce(addi,0,[1,2]),5) then condScl(fn x:[int]0 => muli(x,7),tt,6) else 0)",
            &["if lti (let", "if true then 6 * 7 else 6"][..],
            "42",
        ),
    ] {
        let l = lower_tail(src).unwrap_or_else(|e| panic!("{name}: {e}"));
        let text = l.fcl.flat_text();
        let main = &text[text.find("val main").unwrap()..];
        for op in ops {
            assert!(main.contains(op), "{name}: no {op} in\n{main}");
        }
        // the folded value as a token of its own (names like `y21` do not count)
        let folded_token = main
            .split(|c: char| !(c.is_alphanumeric() || c == '.'))
            .any(|t| t == folded);
        assert!(!folded_token, "{name}: folded to {folded}:\n{main}");
        assert!(
            printed_bodies(main).iter().all(|b| !literal_text(b)),
            "{name}: prints a literal:\n{main}"
        );
        assert!(check_three_levels(name, src, rt.as_ref()).unwrap());
    }
}

/// A literal vector read at computed indices is a table stored once when `main` starts, one
/// load per read (also inside a `power` step), not a chain of `if`s in every kernel.
#[test]
fn literal_vectors_read_at_computed_indices_are_tables() {
    let src = "let t:[int]1 = [5,3,8,1,9,2,7,4,6,0] in \
               let v:[int]1 = prArrI(power(fn v:[int]1 => zipWith(addi,rotate(1,v),t),3,t)) in \
               let w:[double]1 = prArrD(each(fn x:[double]0 => muld(x,2.0),reshape([20],[0.5,1.5,2.5,3.5,4.5,5.5,6.5,7.5,8.5,9.5]))) in \
               i2d(addi(first(t),reduce(addi,0,reduce(addi,0,reshape([3,10],t)))))";
    let l = lower_tail(src).unwrap();
    let text = l.fcl.flat_text();
    let main = &text[text.find("val main").unwrap()..];
    assert_eq!(
        main.matches("-- a literal vector of 10 elements").count(),
        2,
        "{main}"
    );
    // the bisections by `if`s are only in the two statements storing the tables
    assert_eq!(main.matches("if lti i 5 then").count(), 2, "{main}");
    assert!(main.contains("index tab"), "{main}");
    let rt = runtime();
    assert!(check_three_levels("tables", src, rt.as_ref()).unwrap());
}

/// A reduction along the last axis reads a transposition, or a reshape that repeats its
/// argument along the trailing axes, by its coordinates: no `/` or `%` re-derives them.
#[test]
fn reductions_read_transpositions_by_coordinates() {
    let rt = runtime();
    for (src, divisions) in [
        // primes' shape: rows and columns of transposed, repeating reshapes of a vector
        (
            "let v1:[int]1 = drop(1,iotaV(41)) in \
             let v4:[int]2 = zipWith(subi,transp(reshape([40,40],v1)),reshape([40,40],v1)) in \
             i2d(reduce(addi,0,reduce(addi,0,transp(each(fn x:[int]0 => muli(x,x),v4)))))",
            0,
        ),
        // the inner product's shape: transp2 of rank-3 reshapes; the row number splits into
        // two coordinates (for the first element and in the loop: loop-invariant); rows of
        // 40, longer than `compiler::tail::UNROLL`, so each reduction is a kernel
        (
            "let a:[int]2 = reshape([40,40],iotaV(1600)) in \
             let v5:[int]3 = transp2([2,1,3],reshape([40,40,40],a)) in \
             let v6:[int]3 = transp2([1,3,2],reshape([40,40,40],transp(a))) in \
             i2d(reduce(addi,0,reduce(addi,0,reduce(addi,0,zipWith(muli,v5,v6)))))",
            2,
        ),
    ] {
        let l = lower_tail(src).unwrap();
        let text = l.fcl.flat_text();
        let first = text
            .lines()
            // a reduction's buffer (`rN`; a checked let-bound array is materialized first)
            .find(|s| {
                let stmt = s.trim_start().trim_start_matches(['{', ';']).trim_start();
                stmt.starts_with('r') && s.contains("<- forceM<grid>")
            })
            .unwrap();
        // the first reduction kernel: its row arithmetic only
        assert_eq!(first.matches(" / ").count(), divisions, "{first}");
        assert_eq!(first.matches(" % ").count(), divisions, "{first}");
        assert!(check_three_levels(src, src, rt.as_ref()).unwrap());
    }
}

/// Run-time checks are left out exactly where the value ranges prove that an operator cannot
/// fail (`compiler::tail` module `range`): the arithmetic of `iota`'s elements, residues and
/// `b2i` sums is unchecked and fuses, while what may overflow keeps its check; the engines
/// agree either way, failures included.
#[test]
fn checks_are_left_out_where_ranges_prove_no_failure() {
    let rt = runtime();
    for (name, src, checked) in [
        // 1…1000 times 3 plus 0…6, summed: every prefix below 3.1·10^6
        (
            "sum of a map of iota",
            "i2d(reduce(addi,0,each(fn x:[int]0 => addi(muli(x,3),resi(7,x)),iota(1000))))",
            false,
        ),
        // a let-bound array of ranged elements is not materialized for its checks
        (
            "let-bound map",
            "let v:[int]1 = each(fn x:[int]0 => subi(x,1),iota(500)) in \
             i2d(reduce(addi,0,zipWith(muli,v,v)))",
            false,
        ),
        // the floor of a bounded quotient, and b2i sums of comparisons over a long row
        (
            "floor and b2i",
            "i2d(reduce(addi,0,each(fn x:[int]0 => addi(floor(divd(i2d(x),7.0)),b2i(gti(x,9))),iota(5000))))",
            false,
        ),
        // a power whose step keeps its state in the initial state's range (0 or 1): the
        // sums of neighbours cannot overflow on any trip
        (
            "power keeping its range",
            "let v:[int]1 = power(fn s:[int]1 => each(fn c:[int]0 => b2i(eqi(c,2)), \
             zipWith(addi,s,zipWith(addi,rotate(1,s),rotate(-1,s)))),5, \
             each(fn x:[int]0 => resi(2,x),iota(300))) in i2d(reduce(addi,0,v))",
            false,
        ),
        // a state that grows: the initial range does not hold on later trips
        (
            "power leaving its range",
            "let v:[int]1 = power(fn s:[int]1 => zipWith(addi,s,rotate(1,s)),5, \
             each(fn x:[int]0 => resi(2,x),iota(300))) in i2d(reduce(maxi,0,v))",
            true,
        ),
        // may overflow (and does: 70000·70001/2 > 2^31)
        ("long sum of iota", "i2d(reduce(addi,0,iota(70000)))", true),
        ("large products", "i2d(reduce(maxi,0,each(fn x:[int]0 => muli(x,100000),iota(30000))))", true),
        // a divisor that may be 0
        ("division", "i2d(reduce(addi,0,each(fn x:[int]0 => divi(100,subi(x,3)),iota(10))))", true),
    ] {
        let l = lower_tail(src).unwrap_or_else(|e| panic!("{name}: {e}"));
        let text = l.fcl.flat_text();
        let main = &text[text.find("val main").unwrap()..];
        let has = ["Checked ", "(checki "].iter().any(|c| main.contains(c));
        assert_eq!(has, checked, "{name}: checks {has}, expected {checked}:\n{main}");
        if !checked {
            assert!(!main.contains("materialize"), "{name}: materialized:\n{main}");
        }
        assert!(check_three_levels(name, src, rt.as_ref()).unwrap());
    }
}

/// A `reshape` that repeats each element of a computed array many times (an inner product's
/// `reshape([n,n,n], a)` of an n×n matrix) stores the array first, so each element is computed
/// once; cheap elements (an `iota`) and a reshape that repeats nothing stay fused.
#[test]
fn repeated_computed_elements_are_computed_once() {
    let rt = runtime();
    for (name, src, stored) in [
        (
            "inner product",
            "let a:[double]2 = reshape([6,6],each(fn x:[int]0 => divd(i2d(resi(7,x)),4.0),iota(36))) in \
             let b:[double]3 = transp2([2,1,3],reshape([6,6,6],a)) in \
             reduce(addd,0.0,reduce(addd,0.0,reduce(addd,0.0,zipWith(muld,b,b))))",
            true,
        ),
        (
            "cheap elements",
            "let b:[int]2 = reshape([40,40],iota(40)) in i2d(reduce(addi,0,reduce(addi,0,b)))",
            false,
        ),
        (
            "no repeats",
            "let a:[double]1 = each(fn x:[int]0 => divd(i2d(resi(7,x)),4.0),iota(36)) in \
             reduce(addd,0.0,reduce(addd,0.0,reshape([6,6],a)))",
            false,
        ),
    ] {
        let l = lower_tail(src).unwrap_or_else(|e| panic!("{name}: {e}"));
        let has = l.fcl.flat_text().contains("-- materialize the elements a reshape repeats");
        assert_eq!(has, stored, "{name}:\n{}", l.fcl);
        assert!(check_three_levels(name, src, rt.as_ref()).unwrap());
    }
}
