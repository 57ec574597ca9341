//! One well-typed and one ill-typed use of every operator scheme (spec §3.7), table-driven.

use crate::tail::ops::prim::{Prim, ALL_NAMES};
use crate::tail::parser::parse;
use crate::tail::typecheck::operators::scalar_signature;
use crate::tail::typecheck::typecheck;

/// (program, its type) — every row must check to exactly this type.
const WELL_TYPED: &[(&str, &str)] = &[
    ("addi(1,2)", "[int]0"),
    ("lti(1,2)", "[bool]0"),
    ("addd(1.0,2.0)", "[double]0"),
    ("eqd(1.0,2.0)", "[bool]0"),
    ("addx(1.0j2.0,0.0j0.0)", "[complex]0"),
    ("andb(tt,ff)", "[bool]0"),
    ("eqc('a','b')", "[bool]0"),
    ("absi(-3)", "[int]0"),
    ("negi(5)", "S(int,~5)"),
    ("negi(addi(1,2))", "[int]0"),
    ("sin(1.0)", "[double]0"),
    ("floor(1.5)", "[int]0"),
    ("notb(tt)", "[bool]0"),
    ("rex(1.0j2.0)", "[double]0"),
    ("conjx(1.0j2.0)", "[complex]0"),
    ("injx(1.0,2.0)", "[complex]0"),
    ("d2x(1.0)", "[complex]0"),
    ("i2d(3)", "[double]0"),
    ("b2i(tt)", "S(int,1)"),
    ("b2i(andb(tt,ff))", "[int]0"),
    ("b2iV(ff)", "S(int,0)"),
    ("roll(6)", "[double]0"),
    ("zilde()", "<'b0>0"),
    ("pi()", "[double]0"),
    ("iota(3)", "<int>3"),
    ("iota(addi(1,2))", "[int]1"),
    ("iotaV(4)", "<int>4"),
    ("shape([1,2,3])", "SV(int,3)"),
    ("shape(reshape([2,2],[1.0]))", "<int>2"),
    ("shapeV([1,2])", "SV(int,2)"),
    ("reshape([2,3],[1,2])", "[int]2"),
    ("rav(reshape([2,2],[1]))", "[int]1"),
    ("take(2,[1,2,3])", "<int>2"),
    ("take(addi(1,1),reshape([2,2],[1]))", "[int]2"),
    // apltail rejects a non-literal count on a static vector; being more permissive is allowed.
    ("take(addi(1,1),[1,2])", "[int]1"),
    ("takeV(-2,[1.0,2.0])", "<double>2"),
    ("drop(1,[1,2,3])", "<int>2"),
    ("drop(1,[1.0,2.0])", "[double]1"),
    ("dropV(5,[1,2,3])", "<int>0"),
    ("cat([1,2],[3])", "<int>3"),
    ("cat([1.0],[2.0])", "[double]1"),
    ("catV(iotaV(2),iotaV(3))", "<int>5"),
    ("cons(0,[1,2])", "<int>3"),
    ("cons(0.5,[1.5])", "[double]1"),
    ("cons([0,0],reshape([2,2],[1]))", "[int]2"),
    ("consV(0,iotaV(2))", "<int>3"),
    ("snoc([1,2],3)", "<int>3"),
    ("snocV(iotaV(2),3)", "<int>3"),
    ("first([7])", "S(int,7)"),
    ("first([7,8])", "[int]0"),
    ("first(reshape([2,2],[1.0]))", "[double]0"),
    ("firstV([7])", "S(int,7)"),
    ("vreverse([1,2,3])", "<int>3"),
    ("vreverseV([1,2,3])", "<int>3"),
    ("transp(reshape([2,3],[1]))", "[int]2"),
    ("mem([1.0])", "[double]1"),
    ("memScl(1.0)", "[double]0"),
    ("rotate(1,[1,2])", "<int>2"),
    ("vrotate(1,reshape([2,3],[1]))", "[int]2"),
    ("rotateV(1,[1,2])", "<int>2"),
    ("vrotateV(-1,[1,2])", "<int>2"),
    ("transp2([2,1],reshape([2,3],[1]))", "[int]2"),
    ("each(i2d,[1,2])", "<double>2"),
    ("each(i2d,reshape([2,2],[1]))", "[double]2"),
    ("eachV(fn x:[int]0 => addi(x,1),[1,2])", "<int>2"),
    ("zipWith(addi,[1,2],[3,4])", "[int]1"),
    ("reduce(addi,0,[1,2,3])", "[int]0"),
    ("reduce(addd,0.0,reshape([2,2],[1.0]))", "[double]1"),
    ("scan(addi,0,[1,2,3])", "<int>3"),
    ("power(fn v:[int]1 => rotate(1,v),2,[1,2,3])", "[int]1"),
    (
        "power(fn v:([int]1 * [int]0) => (rotate(1,Prj(0,v)),addi(Prj(1,v),1)),2,([1,2],0))",
        "([int]1 * [int]0)",
    ),
    ("powerScl(fn v:[int]0 => muli(v,2),10,1)", "[int]0"),
    ("bench(fn v:[int]0 => muli(v,2),10,1)", "[int]0"),
    ("condScl(fn v:[int]0 => muli(v,2),tt,21)", "[int]0"),
    ("compress([tt,ff],[1,2])", "[int]1"),
    ("replicate(0,[2,0],[7,8])", "[int]1"),
    ("idxS(1,2,[10,20,30])", "[int]0"),
    ("idxS(2,1,reshape([2,3],[1]))", "[int]1"),
    ("idxassign([1],[1,2],9)", "[bool]0"),
    ("gradeUp([3,1,2])", "[int]1"),
    ("gradeDown([3.0,1.0])", "[int]1"),
    ("prArrI(reshape([2,2],[1]))", "[int]2"),
    ("prArrB([tt])", "SV(bool,1)"),
    ("prArrD([1.0])", "[double]1"),
    ("prArrC(['a'])", "[char]1"),
    ("prArrX([1.0j1.0])", "[complex]1"),
    ("prSclI(7)", "S(int,7)"),
    ("prSclB(tt)", "S(bool,1)"),
    ("prSclD(1.0)", "[double]0"),
    ("prSclC('a')", "[char]0"),
    ("prSclX(1.0j0.0)", "[complex]0"),
    ("formatI(42)", "[char]1"),
    ("formatD(2.5)", "[char]1"),
    // apltail's checker rejects formatX; accepting it is more permissive (its evaluator has it).
    ("formatX(1.0j2.0)", "[char]1"),
    ("readFile(['f'])", "[char]1"),
    ("readIntVecFile(['f'])", "[int]1"),
    ("readDoubleVecFile(['f'])", "[double]1"),
    ("nowi(0)", "[int]0"),
    ("noti(0)", "[int]0"),
    ("addi", "([int]0)->([int]0)->[int]0"),
    ("i2d", "([int]0)->[double]0"),
    ("[1,2,3]", "<int>3"),
    ("[5]", "SV(int,5)"),
    ("[tt,ff]", "<bool>2"),
    ("[1.0,2.0]", "[double]1"),
    ("['a','b']", "[char]1"),
    ("[addi(1,2),3]", "<int>2"),
    ("(1,2.0)", "(S(int,1) * [double]0)"),
    ("Prj(1,(1,2.0))", "[double]0"),
    ("if tt then 1 else 2", "[int]0"),
    ("if tt then 1 else 1", "S(int,1)"),
    ("if tt then [1] else [1,2]", "[int]1"),
    ("fn x:[int]0 => x", "([int]0)->[int]0"),
    ("let v:[int]1 = [1,2,3] in v", "[int]1"),
    ("let v:<int>1 = shape([1,2,3]) in v", "<int>1"),
    ("let v:[int]0 = 5 in v", "[int]0"),
    ("let v:S(int,5) = 5 in v", "S(int,5)"),
    ("let v:<'a0>0 = zilde() in v", "<'b1>0"),
];

/// (program, a fragment the error message must contain).
const ILL_TYPED: &[(&str, &str)] = &[
    ("addi(1,2.0)", "expected [int]0, found [double]0"),
    ("lti(1.0,2)", "expected [int]0, found [double]0"),
    ("addd(1,2.0)", "expected [double]0, found S(int,1)"),
    ("eqd(tt,1.0)", "expected [double]0, found S(bool,1)"),
    ("addx(1.0,0.0j0.0)", "expected [complex]0, found [double]0"),
    ("andb(1,tt)", "expected [bool]0, found S(int,1)"),
    ("eqc(1,'b')", "expected [char]0, found S(int,1)"),
    ("absi([1])", "expected [int]0, found SV(int,1)"),
    ("negi(1.0)", "expected [int]0, found [double]0"),
    ("sin(1)", "expected [double]0, found S(int,1)"),
    ("floor(1)", "expected [double]0, found S(int,1)"),
    ("notb(0)", "expected [bool]0, found S(int,0)"),
    ("rex(1.0)", "expected [complex]0, found [double]0"),
    ("injx(1.0,1)", "expected [double]0, found S(int,1)"),
    ("d2x(1)", "expected [double]0, found S(int,1)"),
    ("i2d(1.0)", "expected [int]0, found [double]0"),
    ("b2i(1)", "expected [bool]0, found S(int,1)"),
    ("b2iV(andb(tt,tt))", "expected S(bool,n), found [bool]0"),
    ("roll(1.0)", "expected [int]0, found [double]0"),
    ("iota(1.0)", "expected [int]0, found [double]0"),
    ("iotaV(addi(1,2))", "expected S(int,n), found [int]0"),
    (
        "shape(addi)",
        "expected an array, found ([int]0)->([int]0)->[int]0",
    ),
    ("shapeV(reshape([2],[1]))", "found [int]1"),
    ("reshape(iota(addi(1,1)),[1])", "expected <int>'r"),
    ("rav(addi)", "expected an array"),
    ("take(1.0,[1.0])", "expected [int]0, found [double]0"),
    ("takeV(addi(1,1),[1,2])", "found <int>2"),
    ("drop(1.0,[1.0])", "expected [int]0, found [double]0"),
    ("dropV(1,[1.0])", "found [double]1"),
    ("cat([1],[2.0])", "expected [int]1, found [double]1"),
    ("catV([1.0],[2.0])", "found [double]1"),
    ("cons(0.0,[1,2])", "expected [int]0, found [double]0"),
    (
        "consV(reshape([1],[0]),reshape([2,2],[1]))",
        "expected a static vector",
    ),
    ("snoc([1,2],3.0)", "expected [int]0, found [double]0"),
    (
        "snocV(reshape([2,2],[1]),[0,0])",
        "expected a static vector",
    ),
    ("first(addi)", "expected an array"),
    ("firstV(reshape([2,2],[1]))", "found [int]2"),
    ("vreverse(addi)", "expected an array"),
    ("vreverseV([1.0])", "found [double]1"),
    ("transp(addi)", "expected an array"),
    ("mem(addi)", "expected an array"),
    ("memScl([1.0])", "expected a scalar, found [double]1"),
    ("rotate(1.0,[1])", "expected [int]0, found [double]0"),
    ("vrotate(tt,[1])", "expected [int]0, found S(bool,1)"),
    ("rotateV(1,[1.0])", "found [double]1"),
    ("vrotateV(1,reshape([2],[1]))", "found [int]1"),
    (
        "transp2([1],reshape([2,3],[1]))",
        "expected <int>2, found SV(int,1)",
    ),
    ("each(i2d,[1.0])", "expected element type int, found double"),
    (
        "each(1,[1])",
        "expected a function from scalars to scalars, found S(int,1)",
    ),
    (
        "eachV(i2d,reshape([2],[1]))",
        "expected a static vector, found [int]1",
    ),
    (
        "zipWith(addi,[1,2],[3.0])",
        "expected element type int, found double",
    ),
    (
        "zipWith(addi,[1,2],reshape([1,1],[1]))",
        "expected an array of rank 1, found [int]2",
    ),
    (
        "reduce(addi,0.0,[1,2,3])",
        "expected element type int, found double",
    ),
    (
        "reduce(addi,0,1)",
        "expected an array of rank at least 1, found S(int,1)",
    ),
    (
        "scan(addd,0,[1.0])",
        "expected element type double, found int",
    ),
    (
        "power(fn v:[int]1 => rotate(1,v),2.0,[1])",
        "expected [int]0, found [double]0",
    ),
    (
        "power(fn v:[int]1 => rotate(1,v),2,[1.0])",
        "expected [int]1, found [double]1",
    ),
    (
        "powerScl(fn v:[int]0 => i2d(v),1,1)",
        "expected [int]0, found [double]0",
    ),
    (
        "bench(fn v:[int]0 => v,1.0,1)",
        "expected [int]0, found [double]0",
    ),
    (
        "condScl(fn v:[int]0 => v,1,1)",
        "expected [bool]0, found S(int,1)",
    ),
    (
        "compress([1,0],[1,2])",
        "expected element type bool, found int",
    ),
    (
        "replicate(0,[2.0],[7])",
        "expected element type int, found double",
    ),
    (
        "idxS(addi(1,0),1,[1])",
        "expected an integer literal S(int,n), found [int]0",
    ),
    (
        "idxassign([1,1],[1,2],9)",
        "expected a static index vector <int>1, found <int>2",
    ),
    (
        "gradeUp(reshape([2,2],[1]))",
        "expected a vector, found [int]2",
    ),
    ("gradeDown(1)", "expected a vector, found S(int,1)"),
    ("formatX(1.0)", "expected [complex]0, found [double]0"),
    ("readIntVecFile([1])", "expected [char]1, found SV(int,1)"),
    ("readDoubleVecFile('a')", "expected [char]1, found [char]0"),
    ("cons(0,[1.5])", "expected [int]1, found [double]1"),
    ("prArrI([1.0])", "expected [int]'r"),
    ("prArrB([1])", "found SV(int,1)"),
    ("prArrD([1])", "found SV(int,1)"),
    ("prArrC([1])", "found SV(int,1)"),
    ("prArrX([1])", "found SV(int,1)"),
    ("prSclI(1.0)", "expected [int]0, found [double]0"),
    ("prSclB(1)", "expected [bool]0, found S(int,1)"),
    ("prSclD(1)", "expected [double]0, found S(int,1)"),
    ("prSclC(1)", "expected [char]0, found S(int,1)"),
    ("prSclX(1)", "expected [complex]0, found S(int,1)"),
    ("formatI(1.0)", "expected [int]0, found [double]0"),
    ("formatD(1)", "expected [double]0, found S(int,1)"),
    ("readFile(1)", "expected [char]1, found S(int,1)"),
    ("nowi(1.0)", "expected [int]0, found [double]0"),
    ("[1,2.0]", "expected [int]0, found [double]0"),
    ("[[1,2],[3]]", "found <int>2"),
    ("['a',1.0]", "expected [char]0, found [double]0"),
    (
        "Prj(2,(1,2))",
        "expected a tuple of more than 2 components, found (S(int,1) * S(int,2))",
    ),
    ("if 1 then 1 else 2", "expected [bool]0, found S(int,1)"),
    (
        "if tt then 1 else 2.0",
        "expected S(int,1), found [double]0",
    ),
    (
        "let v:<int>2 = [1,2,3] in v",
        "expected <int>2, found <int>3",
    ),
    (
        "let v:S(int,6) = 5 in v",
        "expected S(int,6), found S(int,5)",
    ),
    (
        "let v:[double]0 = 5 in v",
        "expected [double]0, found S(int,5)",
    ),
    (
        "let v:<int>3 = iota(addi(1,2)) in v",
        "expected <int>3, found [int]1",
    ),
    ("x", "unbound variable `x`"),
];

#[test]
fn well_typed_uses_get_their_types() {
    let mut failures = Vec::new();
    for (src, want) in WELL_TYPED {
        let e = parse(src).unwrap_or_else(|d| panic!("{src}: {}", d.message));
        match typecheck(&e) {
            Ok(t) if t.to_string() == *want => {}
            Ok(t) => failures.push(format!("{src}: {t}, want {want}")),
            Err(d) => failures.push(format!("{src}: {}", d.message)),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn ill_typed_uses_are_rejected_naming_both_types() {
    let mut failures = Vec::new();
    for (src, want) in ILL_TYPED {
        let e = parse(src).unwrap_or_else(|d| panic!("{src}: {}", d.message));
        match typecheck(&e) {
            Ok(t) => failures.push(format!("{src} was accepted as {t}")),
            Err(d) if d.message.contains(want) => {}
            Err(d) => failures.push(format!("{src}: got {:?}", d.message)),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_operator_has_a_typing_rule_and_a_table_row() {
    let mut missing = Vec::new();
    for name in ALL_NAMES {
        let e = parse(name)
            .or_else(|_| parse(&format!("{name}()")))
            .unwrap();
        if let Err(d) = typecheck(&e) {
            assert!(
                !d.message.contains("no typing rule"),
                "{name}: {}",
                d.message
            );
        }
        let used = |rows: &[&str]| {
            rows.iter()
                .any(|r| r.contains(&format!("{name}(")) || r == name)
        };
        let good: Vec<&str> = WELL_TYPED.iter().map(|r| r.0).collect();
        let bad: Vec<&str> = ILL_TYPED.iter().map(|r| r.0).collect();
        let scalar_sibling = scalar_signature(Prim::from_name(name).unwrap()).is_some();
        // Scalar operators share one scheme per signature; every other name has its own rows.
        let nullary = Prim::from_name(name).unwrap().arity() == 0;
        // Nullary operators cannot be misapplied (a wrong arity is a parse error).
        let exempt = scalar_sibling || nullary;
        let covered = used(&good) && used(&bad);
        if !(exempt || covered) {
            missing.push(*name);
        }
    }
    assert!(missing.is_empty(), "no table rows for {missing:?}");
}
