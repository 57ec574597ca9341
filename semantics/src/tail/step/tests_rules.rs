//! One row per rule: a program whose last step fires the rule, the rule's name, and the value
//! (or `err`). Programs are TAIL text read by [`super::reader`].

use super::{load, show::value_text, Machine, Stepped};

/// Runs `src`; gives the rule of the last step and the value text or `err: reason`.
fn last_rule(src: &str) -> (String, String) {
    let mut m = Machine::new(load(src).unwrap_or_else(|d| panic!("{src}: {d}")));
    let mut last = String::new();
    loop {
        match m.step() {
            Stepped::Next(i) => last = i.rule.to_string(),
            Stepped::Value(v) => return (last, value_text(&v)),
            Stepped::Err(e) => return (e.rule.to_string(), format!("err: {}", e.reason)),
        }
    }
}

#[test]
fn every_rule_fires() {
    let table: &[(&str, &str, &str)] = &[
        ("let x:[int]0 = 1 in x", "3.54 let", "[](1)"),
        ("each(fn x:[int]0 => x,[5])", "3.36 reshape0", "[1](5)"),
        ("addi(2,3)", "3.32 addi", "[](5)"),
        ("divi(-7,2)", "3.32 divi", "[](-4)"),
        (
            "addi(2147483647,1)",
            "3.32 addi",
            "err: addi: integer overflow",
        ),
        ("mod(1,0)", "3.32 mod", "err: mod: division by zero"),
        ("resi(0,7)", "3.32 resi", "[](7)"),
        ("shari(-16,2)", "3.32 shari", "[](-4)"),
        ("eqc('a','a')", "3.32 eqc", "[](1)"),
        ("nandb(tt,tt)", "3.32 nandb", "[](0)"),
        ("b2iV(tt)", "3.32 b2iV", "[](1)"),
        ("muld(2.0,0.25)", "3.33 muld", "[](0.5)"),
        ("negd(0.0)", "3.33 negd", "[](~0.0)"),
        ("floor(-2.5)", "3.33 floor", "[](-3)"),
        (
            "ceil(inf)",
            "3.33 ceil",
            "err: ceil: inf does not fit an int",
        ),
        ("mulx(1.0j2.0,3.0j-4.0)", "3.33 mulx", "[](11.0j2.0)"),
        ("magnx(3.0j4.0)", "3.33 magnx", "[](5.0)"),
        ("d2x(2.5)", "3.33 d2x", "[](2.5j0.0)"),
        ("iota(3)", "3.34 iota", "[3](1,2,3)"),
        ("iota(-1)", "3.35 iota", "err: iota of negative number -1"),
        ("reduce(addi,0,[1,2,3])", "3.36 reshape0", "[](6)"),
        ("reduce(addi,0,[7])", "3.37 reduce", "[](7)"),
        (
            "reduce(addi,0,reshape([2,0],[1]))",
            "3.37 reduce",
            "err: reduce over an empty last axis",
        ),
        ("reshape([2,2],[1,2,3])", "3.38 reshape", "\n 1 2\n 3 1\n"),
        ("reshape([3],zilde())", "3.39 reshape", "[3](0,0,0)"),
        (
            "reshape([-1],[1])",
            "3.38 reshape",
            "err: reshape with negative extent -1",
        ),
        (
            "transp(reshape([1,3],[1,2,3]))",
            "3.40 transp",
            "\n 1\n 2\n 3\n",
        ),
        (
            "rav(transp2([2,1],reshape([2,2],[1,2,3,4])))",
            "3.69 rav",
            "[4](1,3,2,4)",
        ),
        (
            "transp2([2,1],reshape([1,2],[1,2]))",
            "3.41 transp2",
            "\n 1\n 2\n",
        ),
        (
            "transp2([1,1],reshape([1,2],[1,2]))",
            "3.42 transp2",
            "err: transp2: [1,1] is not a permutation of 1..2",
        ),
        ("take(3,[1])", "3.43 take", "[3](1,0,0)"),
        ("take(-3,[1])", "3.44 take", "[3](0,0,1)"),
        ("first([4,5])", "3.45 first", "[](4)"),
        ("first(drop(2,[4,5]))", "3.46 first", "[](0)"),
        (
            "let mv:<int>2 = [1,2] in idxassign([2],mv,7)",
            "3.57 idxassign",
            "[](1)",
        ),
        (
            "let mv:<int>2 = [1,2] in idxassign([3],mv,7)",
            "3.58 idxassign",
            "err: idxassign: index 3 out of bounds 1..2",
        ),
        ("power(fn v:[int]0 => addi(v,1),1,0)", "3.60 power", "[](1)"),
        ("power(fn v:[int]0 => addi(v,1),2,0)", "3.60 power", "[](2)"),
        (
            "power(fn v:[int]0 => v,-1,0)",
            "3.60 power",
            "err: power with negative count -1",
        ),
        ("drop(-1,[1,2,3])", "3.61 drop", "[2](1,2)"),
        ("vrotate(1,[1,2,3])", "3.62 vrotate", "[3](2,3,1)"),
        ("cat([1],[2,3])", "3.63 cat", "[3](1,2,3)"),
        ("cons(0,[1])", "3.64 cons", "[2](0,1)"),
        ("snoc([1],2)", "3.64 snoc", "[2](1,2)"),
        (
            "snoc(reshape([2,2],[1]),[1,2,3])",
            "3.64 snoc",
            "err: cat of shapes [2,2] and [3,1]",
        ),
        ("compress([tt,ff],[1,2])", "3.65 compress", "[1](1)"),
        ("replicate(0,[1,2],[1,2])", "3.66 replicate", "[3](1,2,2)"),
        (
            "replicate(0,[1],[1,2])",
            "3.66 replicate",
            "err: replicate of lengths 1 and 2",
        ),
        ("scan(addi,0,[1,2,3])", "3.36 reshape0", "[3](1,3,6)"),
        ("scan(addi,0,[1])", "3.67 scan", "[1](1)"),
        ("zipWith(addi,[1],[2])", "3.36 reshape0", "[1](3)"),
        (
            "zipWith(addi,[1],[2,3])",
            "3.68 zipWith",
            "err: zipWith of shapes [1] and [2]",
        ),
        ("shapeV([1,2])", "3.69 shapeV", "[1](2)"),
        ("vreverseV([1,2])", "3.70 vreverseV", "[2](2,1)"),
        (
            "idxS(2,1,reshape([2,2],[1,2,3,4]))",
            "3.71 idxS",
            "[2](1,3)",
        ),
        (
            "idxS(3,1,reshape([2,2],[1,2,3,4]))",
            "3.71 idxS",
            "err: idxS: dimension 3 outside 1..2",
        ),
        ("gradeUp([3.0,1.0])", "3.72 gradeUp", "[2](2,1)"),
        (
            "gradeUp([1.0j0.0])",
            "3.72 gradeUp",
            "err: grade of complex numbers",
        ),
        ("prSclD(2.5)", "3.73 prSclD", "[](2.5)"),
        ("formatD(1e20)", "3.74 formatD", "[6](1,E,2,0,.,0)"),
        ("formatI(-42)", "3.74 formatI", "[3](-,4,2)"),
        ("mem([1,2])", "3.75 mem", "[2](1,2)"),
        ("nowi(1)", "3.75 nowi", "err: nowi of 1 (only 0 is allowed)"),
        ("roll(-1)", "3.75 roll", "err: roll of negative number -1"),
        (
            "readIntVecFile(['/','n','o','n','e'])",
            "3.75 readIntVecFile",
            "err: cannot read file /none: No such file or directory (os error 2)",
        ),
        (
            "condScl(fn v:[int]0 => addi(v,1),ff,1)",
            "3.76 condScl",
            "[](1)",
        ),
        ("pi()", "3.77 pi", "[](3.14159265359)"),
        ("zilde()", "3.77 zilde", "[0]()"),
        ("Prj(0,(1,2))", "3.78 prj", "[](1)"),
        ("(1,2)", "3.78 tuple", "[](([](1),[](2)))"),
        ("if tt then 1 else 2", "3.56 alloc", "[](1)"),
        (
            "if eqi(1,2) then 1 else iota(-1)",
            "3.35 iota",
            "err: iota of negative number -1",
        ),
        ("[1,2]", "3.56 alloc", "[2](1,2)"),
        ("noti(0)", "3.32 noti", "[](-1)"),
    ];
    for (src, rule, want) in table {
        let (r, v) = last_rule(src);
        assert_eq!((r.as_str(), v.as_str()), (*rule, *want), "{src}");
    }
}

#[test]
fn untyped_empty_vectors_take_the_type_named_later() {
    // zilde() has no element type until inference names one (spec §3.8); binders, pr* and cat
    // name it here.
    assert_eq!(
        last_rule("let v:[double]1 = reshape([3],zilde()) in v").1,
        "[3](0.0,0.0,0.0)"
    );
    assert_eq!(
        last_rule("let v:[double]1 = zilde() in first(v)").1,
        "[](0.0)"
    );
    assert_eq!(last_rule("cat(zilde(),[1.5])").1, "[1](1.5)");
    let mut m = Machine::new(load("prArrD(reshape([2],zilde()))").unwrap());
    while let Stepped::Next(_) = m.step() {}
    assert_eq!(m.take_output(), "[2](0.0,0.0)\n");
    assert_eq!(
        last_rule("let v:[char]1 = take(2,zilde()) in v").1,
        "[2]( , )"
    );
}

#[test]
fn if_and_beta_steps_are_named() {
    let mut m = Machine::new(load("if tt then each(fn x:[int]0 => x,[1]) else zilde()").unwrap());
    let mut rules = Vec::new();
    while let Stepped::Next(i) = m.step() {
        rules.push(i.rule.to_string());
    }
    assert!(rules.contains(&"3.79 if".to_string()));
    assert!(rules.contains(&"3.55 beta".to_string()));
    assert!(rules.contains(&"3.36 each".to_string()));
}

#[test]
fn roll_stays_in_range() {
    let mut m = Machine::new(load("each(fn x:[int]0 => roll(6),iota(200))").unwrap());
    let v = loop {
        match m.step() {
            Stepped::Next(_) => {}
            Stepped::Value(v) => break value_text(&v),
            Stepped::Err(e) => panic!("{}", e.reason),
        }
    };
    let inner = v.trim_start_matches("[200](").trim_end_matches(')');
    let xs: Vec<f64> = inner.split(',').map(|x| x.parse().unwrap()).collect();
    assert_eq!(xs.len(), 200);
    assert!(xs
        .iter()
        .all(|&x| (0.0..6.0).contains(&x) && x.fract() == 0.0));
    assert!(xs.iter().any(|&x| x != xs[0]));
}
