//! Tests of the FCL front end as a whole: the thesis examples under examples/fcl, one ill-typed
//! program per error kind, monomorphization, and deep nesting.

use super::load::{check_program, monomorphic_program, FileDiagnostic};
use super::mono::{MKind, MTerm, MonoProgram};
use super::types::Type;

fn example(name: &str) -> (String, String) {
    let path = format!("{}/../examples/fcl/{name}", env!("CARGO_MANIFEST_DIR"));
    let src = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    (name.to_string(), src)
}

fn listing(files: &[(String, String)], prelude: bool) -> String {
    match check_program(files, prelude) {
        Ok(c) => c.listing(),
        Err((f, d)) => panic!("{f}: {d:?}"),
    }
}

fn render_err(files: &[(String, String)], prelude: bool) -> String {
    match check_program(files, prelude) {
        Ok(c) => panic!("expected an error, got\n{}", c.listing()),
        Err(e) => render(files, e),
    }
}

fn render(files: &[(String, String)], (f, d): FileDiagnostic) -> String {
    let src = files
        .iter()
        .find(|x| x.0 == f)
        .map(|x| x.1.as_str())
        .unwrap_or("");
    d.render(&f, src)
}

fn one(src: &str) -> Vec<(String, String)> {
    vec![("t.fcl".to_string(), src.to_string())]
}

/// Every node of a monomorphic term: no type variable anywhere.
fn assert_closed(t: &MTerm) {
    let mut stack = vec![t];
    while let Some(t) = stack.pop() {
        let mut v = Vec::new();
        t.ty.free_vars(&mut v);
        t.ty.level_vars(&mut v);
        assert!(v.is_empty(), "variables left in {}", t.ty);
        match &t.kind {
            MKind::Pair(a, b) | MKind::App(a, b) | MKind::Let(_, a, b) => {
                stack.push(a);
                stack.push(b);
            }
            MKind::Fn(_, pt, b) => {
                let mut v = Vec::new();
                pt.free_vars(&mut v);
                assert!(v.is_empty());
                stack.push(b);
            }
            MKind::If(a, b, c) => {
                stack.push(a);
                stack.push(b);
                stack.push(c);
            }
            MKind::Builtin(_, ls) => assert!(ls.iter().all(|l| l.var.is_none())),
            _ => {}
        }
    }
}

fn mono(files: &[(String, String)], prelude: bool) -> MonoProgram {
    match monomorphic_program(files, prelude) {
        Ok(p) => p,
        Err(e) => panic!("{}", render(files, e)),
    }
}

#[test]
fn thesis_examples_check_with_their_signatures() {
    let cases: &[(&str, &[&str])] = &[
        (
            "reverse.fcl",
            &[
                "reverse : forall 'a. ['a] -> ['a]",
                "revBlock : forall 'a. ['a] -> Program <block> ['a]<block>",
                "splitUp : forall 'a. int -> ['a] -> [['a]]",
                "revDistribute : forall 'a. int -> ['a] -> Program <grid> ['a]<grid>",
                "main : Program <grid> ()",
            ],
        ),
        (
            "transpose.fcl",
            &[
                "transpose : forall 'a. int -> int -> ['a] -> ['a]",
                "splitGrid : forall 'a. int -> int -> int -> ['a] -> [['a]]",
                "concatGrid : forall 'a <l52>. int -> int -> [Program <l52> ['a]<l52>] -> Program <1+l52> ['a]<1+l52>",
                "transposeBlock : forall 'a. int -> int -> Program <block> ['a] -> Program <block> ['a]<block>",
                "transposeTiled : forall 'a. int -> int -> int -> ['a] -> Program <grid> ['a]<grid>",
            ],
        ),
        (
            "reduce.fcl",
            &[
                "step : forall 'a 'b <l50>. ('a -> 'a -> 'b) -> ['a] -> Program <l50> ['b]<l50>",
                "reduce : forall 'a <l54>. ('a -> 'a -> 'a) -> ['a] -> Program <l54> ['a]<l54>",
                "reducePart : forall 'a. ('a -> 'a -> 'a) -> ['a] -> Program <grid> ['a]<grid>",
                "reduceFull : forall 'a. ('a -> 'a -> 'a) -> ['a] -> Program <grid> 'a",
            ],
        ),
        (
            "fold.fcl",
            &[
                "foldl : forall 'a 'b. ('a -> 'b -> 'a) -> 'a -> ['b] -> ['a]<thread>",
                "scanl : forall 'a 'b. ('a -> 'b -> 'a) -> 'a -> ['b] -> ['a]<thread>",
            ],
        ),
        (
            "matmul.fcl",
            &[
                "dotp : forall 'a 'b 'c 'd. ('a -> 'b -> 'a) -> ('d -> 'c -> 'b) -> 'a -> ['d] -> ['c] -> ['a]<thread>",
                "zipWithPush : forall 'a 'b 'c <l58>. ('a -> 'b -> 'c) -> ['a] -> ['b]<l58> -> ['c]<l58>",
                "matmulTiled : forall 'a 'b 'c. ('c -> 'c -> 'c) -> ('a -> 'b -> 'c) -> 'c -> int -> int -> int -> int -> ['a] -> ['b] -> Program <grid> ['c]<grid>",
            ],
        ),
        (
            "scan.fcl",
            &[
                "sklansky : forall 'a. int -> ('a -> 'a -> 'a) -> ['a] -> Program <block> ['a]<block>",
                "scanChunked : forall 'a. int -> ('a -> 'a -> 'a) -> ['a] -> Program <grid> ['a]<grid>",
                "intermediateSums : forall 'a. int -> ['a] -> ['a]",
                "scan : forall 'a. ('a -> 'a -> 'a) -> 'a -> ['a] -> Program <grid> ['a]<grid>",
            ],
        ),
    ];
    for (file, lines) in cases {
        let files = vec![example(file)];
        let out = listing(&files, true);
        for l in *lines {
            assert!(
                out.lines().any(|x| x == *l),
                "{file}: missing `{l}` in\n{out}"
            );
        }
        let p = mono(&files, true);
        assert_closed(&p.main);
        for (_, b) in &p.bindings {
            assert_closed(b);
        }
        assert!(!p.bindings.is_empty(), "{file}: main uses definitions");
    }
}

#[test]
fn spec_section_6_reference_output() {
    let src = "sig swap : forall 'a 'b. ('a, 'b) -> ('b, 'a)\nfun swap p = (snd p, fst p)\n\
        fun blocks<lvl> n f arr =\n  interleave<lvl> n (fn ix => fst ix * n + snd ix)\n\
        (generate (lengthPull arr / n)\n (fn b => return<lvl> (push<lvl> (generate n (fn t => f (index arr (b * n + t)))))))\n\
        val size = 256\nsig main : Program <grid> unit\nval main =\n  do<grid>\n  \
        { sq <- blocks<block> 64 (fn x => x * x) (generate size (fn i => i))\n  ; a <- forceAndPrint 8 sq\n  ; return<grid> ()\n  }\n\
        fun k x y = x\nfun app f x = f x\nfun unc f p = f (fst p) (snd p)\nval u = ()\nval s = \"hi\"\nfun sf n f = seqfor n n f\n\
        fun f<l,m> x = 1\nfun g<l,m> x = (x, 1)\nfun h<l> x = return<l> 1\nfun w<l> x = return<l> (x + 1)\n";
    let out = listing(&one(src), false);
    let expected = "swap : forall 'a 'b. ('a, 'b) -> ('b, 'a)\n\
        blocks : forall 'a 'b <l2>. int -> ('a -> 'b) -> ['a] -> Program <1+l2> ['b]<1+l2>\n\
        size : int\nmain : Program <grid> ()\nk : forall 'a 'b. 'b -> 'a -> 'b\n\
        app : forall 'a 'b. ('a -> 'b) -> 'a -> 'b\n\
        unc : forall 'a 'b 'c. ('b -> 'a -> 'c) -> ('b, 'a) -> 'c\nu : ()\ns : string\n\
        sf : forall 'a. int -> ((int -> 'a) -> int -> (int, 'a)) -> ['a]<thread>\n\
        f : forall 'a <l3,l4>. 'a -> int\n\
        g : forall 'a <l5,\nl6>. 'a -> ('a, int)\n\
        h : forall 'a <l7>. 'a -> Program <l7> int\nw : forall  <l8>. int -> Program <l8> int\n";
    assert_eq!(out, expected);
}

#[test]
fn the_prelude_ends_the_counter_at_50() {
    let out = listing(&one("fun f<l> x = return<l> x\n"), true);
    assert!(
        out.ends_with("f : forall 'a <l50>. 'a -> Program <l50> 'a\n"),
        "{out}"
    );
}

#[test]
fn type_mismatch_names_both_types() {
    let r = render_err(&one("fun f x = x + true\n"), false);
    assert_eq!(
        r,
        "t.fcl:1:11: type error: Cannot unify: `int` and `bool`\n  fun f x = x + true\n            ^^^^^^^^\n"
    );
}

#[test]
fn level_mismatch() {
    let r = render_err(&one("fun f a = force<block> (push<grid> a)\n"), false);
    assert!(
        r.starts_with("t.fcl:1:11: type error: Cannot unify levels:  `thread` and `block`"),
        "{r}"
    );
}

#[test]
fn level_parameters_are_rigid() {
    let r = render_err(&one("fun f<l> a = force<block> (push<l> a)\n"), false);
    assert!(
        r.contains("Cannot unify levels:  `thread` and `l0`") || r.contains("`l0`"),
        "{r}"
    );
}

#[test]
fn occurs_check_on_types() {
    let r = render_err(&one("fun f x = x x\n"), false);
    assert!(
        r.starts_with("t.fcl:1:11: type error: Occurs check failed. `'tv"),
        "{r}"
    );
}

#[test]
fn occurs_check_on_levels() {
    let r = render_err(&one("fun f<l> a = force<l> (push<1+l> a)\n"), false);
    assert!(
        r.starts_with("t.fcl:1:14: type error: Occurs check failed. `l0` found in `1+l0`"),
        "{r}"
    );
}

#[test]
fn variables_must_be_fully_level_applied() {
    let r = render_err(&one("fun f a = push a\n"), false);
    assert!(r.starts_with("t.fcl:1:11: type error: Variable `push` is not applied to right number of level parameters"), "{r}");
    let r = render_err(&one("fun f a = fst<block> a\n"), false);
    assert!(r.contains("Variable `fst` is not applied"), "{r}");
}

#[test]
fn unbound_names() {
    let r = render_err(&one("val x = 1\nfun f a = a + y\n"), false);
    assert_eq!(
        r,
        "t.fcl:2:15: type error: Not in scope: `y`\n  fun f a = a + y\n                ^\n"
    );
    // No recursion: a declaration does not see itself.
    let r = render_err(&one("fun f a = f a\n"), false);
    assert!(r.contains("Not in scope: `f`"), "{r}");
}

#[test]
fn signatures_are_exact() {
    let r = render_err(&one("sig f : int -> int\nfun f x = x\n"), false);
    assert!(
        r.contains("Inferred type `forall 'a. 'a -> 'a` does not match signature type int -> int"),
        "{r}"
    );
    let r = render_err(&one("sig f : int -> 'a\nfun f x = x\n"), false);
    assert!(
        r.starts_with("t.fcl:1:16: type error: Type variable not in scope: `'a`"),
        "{r}"
    );
    listing(
        &one("sig h : forall 'a 'b. 'a -> 'b -> 'a\nfun h x y = x\n"),
        false,
    );
}

#[test]
fn parse_errors_have_spans() {
    let r = render_err(&one("fun f x = (1, 2, 3)\n"), false);
    assert!(
        r.starts_with("t.fcl:1:16: parse error: expected `)`, found `,`"),
        "{r}"
    );
    let r = render_err(&one("val f x = 1\n"), false);
    assert!(
        r.starts_with("t.fcl:1:7: parse error: `val` takes no parameters (use `fun`)"),
        "{r}"
    );
    let r = render_err(&one("val x = do<grid> { a <- return<grid> 1 }\n"), false);
    assert!(
        r.contains("Final expression in `do`-construct can not be a bind."),
        "{r}"
    );
    let r = render_err(&one("val x = concat<1 + block> 1\n"), false);
    assert!(r.contains("write `1+` without a space"), "{r}");
}

#[test]
fn errors_are_reported_in_the_right_file() {
    let files = vec![
        ("a.fcl".to_string(), "fun f x = x + 1\n".to_string()),
        ("b.fcl".to_string(), "val y = f true\n".to_string()),
    ];
    let r = render_err(&files, true);
    assert!(
        r.starts_with("b.fcl:1:9: type error: Cannot unify: `int` and `bool`"),
        "{r}"
    );
}

#[test]
fn a_level_polymorphic_function_used_at_two_levels_gets_two_copies() {
    let src = "fun rev<l> arr = return<l> (push<l> (generate (lengthPull arr) (fn i => index arr (lengthPull arr - i - 1))))\n\
        fun inner x = concat<thread> 1 (generate 4 (fn i => rev<thread> (generate 1 (fn j => x))))\n\
        val main = do<grid> { a <- concat<block> 4 (generate 2 (fn b => inner b)) ; \
        b <- concat<block> 8 (generate 2 (fn b => rev<block> (generate 8 (fn i => i)))) ; \
        c <- forceAndPrint 8 b ; return<grid> () }\n";
    let p = mono(&one(src), true);
    let names: Vec<&str> = p.bindings.iter().map(|(n, _)| n.as_str()).collect();
    let revs: Vec<&&str> = names.iter().filter(|n| n.starts_with("rev@")).collect();
    assert_eq!(revs.len(), 2, "{names:?}");
    // The two copies differ in their levels.
    let tys: Vec<String> = p
        .bindings
        .iter()
        .filter(|(n, _)| n.starts_with("rev@"))
        .map(|(_, b)| b.ty.to_string())
        .collect();
    assert!(
        tys.contains(&"[int] -> Program <thread> [int]<thread>".to_string()),
        "{tys:?}"
    );
    assert!(
        tys.contains(&"[int] -> Program <block> [int]<block>".to_string()),
        "{tys:?}"
    );
    for (_, b) in &p.bindings {
        assert_closed(b);
    }
    assert_closed(&p.main);
    // Unused definitions are dropped; one type instance per distinct use.
    let src2 = "fun id2 x = x\nfun unused y = y\nval main = do<grid> { a <- return<grid> (id2 1, id2 2) ; return<grid> (id2 true) }\n";
    let p = mono(&one(src2), false);
    let names: Vec<&str> = p.bindings.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names.iter().filter(|n| n.starts_with("id2@")).count(),
        2,
        "{names:?}"
    );
    assert!(!names.iter().any(|n| n.starts_with("unused")));
    assert!(matches!(p.main.ty, Type::Program(..)));
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let n = 100_000;
    let mut src = String::from("val x = ");
    src.push_str(&"(".repeat(n));
    src.push('1');
    src.push_str(&")".repeat(n));
    let r = render_err(&one(&src), false);
    assert!(r.contains("nested too deeply"), "{r}");
    let chain = format!("val x = 1{}\n", " + 1".repeat(n));
    assert!(render_err(&one(&chain), false).contains("nested too deeply"));
    let apps = format!("val x = f{}\n", " 1".repeat(n));
    assert!(render_err(&one(&apps), false).contains("nested too deeply"));
    // `let`s in body position are a chain (an unrolled fold), with a budget of links of its own
    let lets = format!("val x = {} 1\n", "let y = 1 in ".repeat(n));
    assert!(render_err(&one(&lets), false).contains("`let` chain longer than"));
    let nested = format!("val x = {}1{}\n", "let y = ".repeat(n), " in 1".repeat(n));
    assert!(render_err(&one(&nested), false).contains("nested too deeply"));
}

/// The deepest program of one shape that the parser accepts (`wrap(n)` nests n times).
fn deepest_accepted(wrap: impl Fn(usize) -> String) -> String {
    let too_deep = |n: usize| {
        check_program(&one(&wrap(n)), false).is_err_and(|(_, d)| d.message.contains("too deeply"))
    };
    // Binary search for the largest accepted n in [1, MAX_DEPTH].
    let (mut lo, mut hi) = (1, super::parser::MAX_DEPTH + 1);
    assert!(!too_deep(lo) && too_deep(hi));
    while hi - lo > 1 {
        let mid = (lo + hi) / 2;
        if too_deep(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    wrap(lo)
}

#[test]
fn nesting_up_to_the_limit_goes_through_every_pass() {
    // The deepest accepted programs of several shapes, on a default-sized test thread: parse,
    // print, infer and monomorphize must all cope.
    let shapes: Vec<Box<dyn Fn(usize) -> String>> = vec![
        Box::new(|n| {
            format!(
                "val main = return<grid> ({}1{})\n",
                "(fn x => ".repeat(n),
                ") 2".repeat(n)
            )
        }),
        Box::new(|n| {
            format!(
                "val main = return<grid> ({}1{})\n",
                "(".repeat(n),
                ")".repeat(n)
            )
        }),
        // `let`s nested in the bound expression (a chain in body position is a budget of links,
        // tested on a big stack in compiler/tests/deep_if_chains.rs)
        Box::new(|n| {
            format!(
                "val main = return<grid> ({}1{})\n",
                "let y = ".repeat(n),
                " in 1".repeat(n)
            )
        }),
        Box::new(|n| format!("val main = return<grid> (1{})\n", " + 1".repeat(n))),
        Box::new(|n| {
            format!(
                "val main = return<grid> (fst (1, ()){})\n",
                " |> (fn x => x)".repeat(n)
            )
        }),
        Box::new(|n| {
            format!(
                "val main = do<grid> {{ {} return<grid> 1 }}\n",
                "x <- return<grid> 1 ; ".repeat(n)
            )
        }),
        Box::new(|n| {
            format!(
                "val main = return<grid> ({}1{})\n",
                "(1, ".repeat(n),
                ")".repeat(n)
            )
        }),
    ];
    for wrap in shapes {
        let src = deepest_accepted(wrap);
        let files = one(&src);
        let out = listing(&files, false);
        assert!(out.contains("main : Program <grid> "), "{out}");
        mono(&files, false);
        let core = super::lower::load_program(&files).expect("loads");
        drop(core);
        let parsed = super::parser::parse_program(&src).expect("parses");
        let printed = super::printer::print_program(&parsed);
        let mut again = super::parser::parse_program(&printed).expect("printed form parses");
        let mut orig = parsed.clone();
        again.erase_spans();
        orig.erase_spans();
        assert_eq!(orig, again);
    }
}

#[test]
fn level_variables_must_be_in_scope() {
    let r = render_err(&one("fun f x = push<m> x\n"), false);
    assert!(
        r.starts_with("t.fcl:1:16: type error: Level variable not in scope: `m`"),
        "{r}"
    );
    // A declaration's level parameters are not in scope in its signature.
    let r = render_err(
        &one("sig f : [int] -> [int]<l>\nfun f<l> x = push<l> x\n"),
        false,
    );
    assert!(r.contains("Level variable not in scope: `l`"), "{r}");
}

#[test]
fn exponentially_large_types_are_rejected_not_computed() {
    // `dup` doubles the type at each application: 2^60 leaves.
    let src = format!(
        "fun dup x = (x, x)\nval big = {}1{}\n",
        "dup (".repeat(60),
        ")".repeat(60)
    );
    let r = render_err(&one(&src), false);
    assert!(r.contains("types grow too large to infer"), "{r}");
}

/// The prelude's listing, exactly as docs/fcl.md §5 prints the original prelude's types.
const PRELUDE_LISTING: &[&str] = &[
        "id : forall 'a. 'a -> 'a",
        "const : forall 'a 'b. 'b -> 'a -> 'b",
        "concat : forall 'a <l3>. int -> [Program <l3> ['a]<l3>] -> Program <1+l3> ['a]<1+l3>",
        "concatSeq : forall 'a <l6>. int -> [Program <l6> ['a]<l6>] -> Program <l6> ['a]<l6>",
        "iota : int -> [int]",
        "range : int -> int -> [int]",
        "zipWith : forall 'a 'b 'c. ('a -> 'b -> 'c) -> ['a] -> ['b] -> ['c]",
        "zipWithPush : forall 'a 'b 'c <l12>. ('a -> 'b -> 'c) -> ['a] -> ['b]<l12> -> ['c]<l12>",
        "backpermute : forall 'a. int -> (int -> (int, int)) -> [['a]] -> ['a]",
        "splitAt : forall 'a. int -> ['a] -> (['a], ['a])",
        "halve : forall 'a. ['a] -> (['a], ['a])",
        "evenOdds : forall 'a. ['a] -> (['a], ['a])",
        "splitUp : forall 'a. int -> ['a] -> [['a]]",
        "coalesce : forall 'a. int -> ['a] -> [['a]]",
        "concatMap : forall 'a 'b <l23>. int -> ('b -> Program <l23> ['a]<l23>) -> ['b] -> Program <1+l23> ['a]<1+l23>",
        "pushM : forall 'a <l27>. ['a] -> Program <l27> ['a]<l27>",
        "forceM : forall 'a <l30>. Program <l30> ['a]<l30> -> Program <l30> ['a]",
        "forcePull : forall 'a <l33>. ['a] -> Program <l33> ['a]",
        "liftM : forall 'a 'b <l36>. ('a -> 'b) -> Program <l36> 'a -> Program <l36> 'b",
        "take : forall 'a. int -> ['a] -> ['a]",
        "drop : forall 'a. int -> ['a] -> ['a]",
        "last : forall 'a. ['a] -> 'a",
        "bit : int -> int",
        "testBit : int -> int -> bool",
        "foldl : forall 'a 'b. ('a -> 'b -> 'a) -> 'a -> ['b] -> ['a]<thread>",
        "scanl1 : forall 'a. ('a -> 'a -> 'a) -> ['a] -> ['a]<thread>",
        "scanl : forall 'a 'b. ('a -> 'b -> 'a) -> 'a -> ['b] -> ['a]<thread>",
        "pad : forall 'a. int -> 'a -> ['a] -> ['a]",
        "computeInSingleBlock : forall 'a. ['a] -> Program <grid> ['a]<grid>",
];

#[test]
fn the_prelude_lists_exactly_the_original_types() {
    let out = listing(&one("val x = 1\n"), true);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), PRELUDE_LISTING.len() + 1, "{out}");
    for (ours, spec) in lines.iter().zip(PRELUDE_LISTING) {
        assert_eq!(ours, spec);
    }
    assert_eq!(lines.last(), Some(&"x : int"));
}
