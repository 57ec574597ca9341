//! The TAIL generator's run-time constructs (computed masks, counts, sort keys and conditions,
//! shape-changing `power`, prints in function bodies, complex numbers, `formatI`/`formatD` of
//! computed values, `roll`): every generated program runs on the TAIL oracle and prints exactly
//! what the generator predicts, and each construct is generated.

use conformance::fuzz::tail::check_tail;
use conformance::fuzz::{program_seed, Verdict};
use conformance::gen::tail_gen::generate_tail;
use conformance::gen::Rng;

/// The source of generated program `k` of the test campaign.
fn program(k: u64) -> conformance::gen::tail_gen::TailCase {
    generate_tail(&mut Rng::new(program_seed(23, k)), 8)
}

/// Whether some occurrence of `op` in `src` has an argument that starts with a name (a variable
/// or an operator application: computed) rather than a literal.
fn computed_arg(src: &str, op: &str) -> bool {
    src.match_indices(op).any(|(i, _)| {
        src[i + op.len()..]
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic())
    })
}

/// The element type annotated on variable `var` (`int`, `char`, …).
fn type_of<'a>(src: &'a str, var: &str) -> Option<&'a str> {
    let at = src.find(&format!("let {var}:["))? + var.len() + 6;
    src[at..].split(']').next()
}

/// The element types of the vectors graded directly (`gradeUp(v3)`).
fn graded_types(src: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for op in ["gradeUp(", "gradeDown("] {
        for (i, _) in src.match_indices(op) {
            let rest = &src[i + op.len()..];
            let var: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric())
                .collect();
            if rest[var.len()..].starts_with(')') {
                out.extend(type_of(src, &var));
            }
        }
    }
    out
}

/// A construct's name and its test on a program's source.
type Construct = (&'static str, fn(&str) -> bool);

/// The constructs counted.
const CONSTRUCTS: &[Construct] = &[
    ("compress by a computed mask", |s| {
        s.contains("compress(each(")
    }),
    ("replicate by computed counts", |s| {
        s.contains("mini(2,subi(")
    }),
    ("replicate by negative counts", |s| {
        s.contains("maxi(-1,mini(2,subi(")
    }),
    ("sorting (idxS of a grade)", |s| {
        s.contains(",gradeUp(") || s.contains(",gradeDown(")
    }),
    ("grade of ints", |s| graded_types(s).contains(&"int")),
    ("grade of doubles", |s| graded_types(s).contains(&"double")),
    ("grade of bools", |s| graded_types(s).contains(&"bool")),
    ("grade of chars", |s| graded_types(s).contains(&"char")),
    ("grade of a clamped key (ties)", |s| {
        s.contains("gradeUp(each(") || s.contains("gradeDown(each(")
    }),
    ("power growing (snoc/cons/cat)", |s| {
        s.contains("=> snoc(") || s.contains("=> cons(") || s.contains("=> cat(")
    }),
    ("power shrinking (drop)", |s| s.contains("=> drop(")),
    ("power with a computed count", |s| {
        // after the body, `),` and the count: a literal, or a name that is no parameter (x…)
        s.lines().filter(|l| l.contains("power(fn")).any(|l| {
            l.match_indices("),")
                .any(|(i, _)| l[i + 2..].starts_with(|c: char| c.is_ascii_alphabetic() && c != 'x'))
        })
    }),
    ("take by a computed count", |s| computed_arg(s, "take(")),
    ("drop by a computed count", |s| computed_arg(s, "drop(")),
    ("rotate by a computed count", |s| computed_arg(s, "rotate(")),
    ("iota of a computed count", |s| computed_arg(s, "iota(")),
    ("reshape to a computed shape", |s| {
        computed_arg(s, "reshape([")
    }),
    ("if on a computed condition", |s| {
        s.lines()
            .any(|l| l.contains("= if ") && l.split(" then ").next().unwrap().contains('('))
    }),
    ("complex literal", |s| {
        s.contains(".0j") || s.contains(".5j")
    }),
    ("injx", |s| s.contains("injx")),
    ("d2x", |s| s.contains("d2x")),
    ("addx/subx/mulx", |s| {
        s.contains("addx(") || s.contains("subx") || s.contains("mulx")
    }),
    ("negx/conjx", |s| s.contains("negx") || s.contains("conjx")),
    ("expx", |s| s.contains("expx")),
    ("magnx/rex/imx", |s| {
        s.contains("magnx") || s.contains("rex") || s.contains("imx")
    }),
    ("reduce(addx)", |s| s.contains("reduce(addx,")),
    ("prSclX", |s| s.contains("prSclX")),
    ("prArrX", |s| s.contains("prArrX")),
    ("print inside each", |s| s.contains("=> prScl")),
    ("print inside power", |s| {
        s.lines()
            .any(|l| l.contains("power(") && l.contains("=> prArr"))
    }),
    ("formatI of a computed value", |s| {
        computed_arg(s, "formatI(")
    }),
    ("formatD of a computed value", |s| {
        computed_arg(s, "formatD(")
    }),
    ("roll(0)", |s| s.contains("roll(0)")),
    ("roll(6)", |s| s.contains("roll(6)")),
    ("roll inside each", |s| {
        s.contains("roll(") && s.contains("i2d(x")
    }),
    ("vector from an each over 65+ elements", |s| {
        (65..=71).any(|m| s.contains(&format!("iota({m})")))
    }),
    ("vector from a power state", |s| s.contains("=> rotate(1,")),
];

#[test]
fn generated_programs_run_on_the_oracle_as_predicted() {
    for k in 0..500 {
        let case = program(k);
        let checked = check_tail(&case);
        assert_eq!(checked.verdict, Verdict::Pass, "{}", case.source);
    }
}

#[test]
fn each_run_time_construct_is_generated() {
    let n = 1000;
    let mut counts = vec![0; CONSTRUCTS.len()];
    for k in 0..n {
        let src = program(k).source;
        for (i, (_, has)) in CONSTRUCTS.iter().enumerate() {
            counts[i] += usize::from(has(&src));
        }
    }
    for ((name, _), count) in CONSTRUCTS.iter().zip(&counts) {
        eprintln!("{count:4} of {n}: {name}");
    }
    for ((name, _), &count) in CONSTRUCTS.iter().zip(&counts) {
        assert!(count >= 3, "{name}: in {count} of {n} programs");
    }
}
