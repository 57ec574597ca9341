//! Property tests of the parser and printer: parse(print(p)) == p modulo spans, for random
//! programs; and no panic on >= 20,000 random inputs (random bytes, random edits of valid
//! programs), through parsing, inference and monomorphization.

use super::load::{check_here, monomorphic_here, PRELUDE, PRELUDE_THESIS};
use super::parser::parse_program;
use super::printer::print_program;
use super::stack::with_big_stack;
use super::syntax::{
    BinOp, Decl, DeclKind, Expr, ExprKind, Level, Program, Scheme, Stmt, Type, TypeKind,
};
use crate::Span;
use quickcheck::{Arbitrary, Gen, QuickCheck};

const NAMES: &[&str] = &[
    "x",
    "y",
    "f",
    "arr",
    "x'",
    "a_1",
    "#BlockSize",
    "thread",
    "grid",
    "forall",
    "Program",
    "unit",
    "string",
    "Z",
    "thread2",
];
const LEVEL_VARS: &[&str] = &["l", "lvl", "m", "thread2"];
const TY_VARS: &[&str] = &["a", "b", "elem"];
const OPS: &[BinOp] = &[
    BinOp::Pipe,
    BinOp::Eq,
    BinOp::Neq,
    BinOp::Shl,
    BinOp::Shr,
    BinOp::And,
    BinOp::Add,
    BinOp::Sub,
    BinOp::Mul,
    BinOp::Div,
    BinOp::Mod,
];

fn pick<'a, T>(g: &mut Gen, xs: &'a [T]) -> &'a T {
    g.choose(xs).expect("non-empty")
}

fn name(g: &mut Gen) -> String {
    pick(g, NAMES).to_string()
}

fn level(g: &mut Gen, depth: usize) -> Level {
    match u8::arbitrary(g) % 4 {
        0 => Level::zero(),
        1 if depth > 0 => level(g, depth - 1).succ(),
        2 => Level::var(pick::<&str>(g, LEVEL_VARS)),
        _ => Level::grid(),
    }
}

fn ty(g: &mut Gen, depth: usize) -> Type {
    let leaf = depth == 0;
    let sub = |g: &mut Gen| Box::new(ty(g, depth.saturating_sub(1)));
    let kind = match u8::arbitrary(g) % if leaf { 6 } else { 11 } {
        0 => TypeKind::Int,
        1 => TypeKind::Double,
        2 => TypeKind::Bool,
        3 => TypeKind::Str,
        4 => TypeKind::Unit,
        5 => TypeKind::Var(pick(g, TY_VARS).to_string()),
        6 => TypeKind::Fun(sub(g), sub(g)),
        7 => TypeKind::Pair(sub(g), sub(g)),
        8 => TypeKind::Pull(sub(g)),
        9 => TypeKind::Push(sub(g), level(g, 2)),
        _ => TypeKind::Program(level(g, 2), sub(g)),
    };
    Type {
        kind,
        span: Span::DUMMY,
    }
}

fn scheme(g: &mut Gen) -> Scheme {
    let forall = if bool::arbitrary(g) {
        let ls = (0..u8::arbitrary(g) % 3)
            .map(|_| pick(g, LEVEL_VARS).to_string())
            .collect();
        let ts = (0..u8::arbitrary(g) % 3)
            .map(|_| pick(g, TY_VARS).to_string())
            .collect();
        Some((ls, ts))
    } else {
        None
    };
    Scheme {
        forall,
        ty: ty(g, 3),
        span: Span::DUMMY,
    }
}

fn expr(g: &mut Gen, depth: usize) -> Expr {
    let leaf = depth == 0;
    let kind = match u8::arbitrary(g) % if leaf { 7 } else { 15 } {
        0 => ExprKind::Int(i64::arbitrary(g)),
        1 => {
            let d = f64::arbitrary(g);
            ExprKind::Double(if d.is_finite() { d } else { 1.5e-3 })
        }
        2 => ExprKind::Bool(bool::arbitrary(g)),
        3 => ExprKind::Str(String::arbitrary(g)),
        4 => ExprKind::Unit,
        5 => ExprKind::Var(name(g), vec![]),
        6 => {
            let n = 1 + u8::arbitrary(g) % 2;
            ExprKind::Var(name(g), (0..n).map(|_| level(g, 2)).collect())
        }
        7 => ExprKind::Pair(
            std::sync::Arc::new(expr(g, depth - 1)),
            std::sync::Arc::new(expr(g, depth - 1)),
        ),
        8 => {
            let n = 1 + u8::arbitrary(g) % 3;
            ExprKind::Fn(
                (0..n).map(|_| name(g)).collect(),
                std::sync::Arc::new(expr(g, depth - 1)),
            )
        }
        9 | 10 => ExprKind::App(
            std::sync::Arc::new(expr(g, depth - 1)),
            std::sync::Arc::new(expr(g, depth - 1)),
        ),
        11 => ExprKind::BinOp(
            *pick(g, OPS),
            std::sync::Arc::new(expr(g, depth - 1)),
            std::sync::Arc::new(expr(g, depth - 1)),
        ),
        12 => ExprKind::If(
            std::sync::Arc::new(expr(g, depth - 1)),
            std::sync::Arc::new(expr(g, depth - 1)),
            std::sync::Arc::new(expr(g, depth - 1)),
        ),
        13 => ExprKind::Let {
            name: name(g),
            levels: (0..u8::arbitrary(g) % 2)
                .map(|_| pick(g, LEVEL_VARS).to_string())
                .collect(),
            sig: if bool::arbitrary(g) {
                Some(scheme(g))
            } else {
                None
            },
            rhs: std::sync::Arc::new(expr(g, depth - 1)),
            body: std::sync::Arc::new(expr(g, depth - 1)),
        },
        _ => {
            let n = u8::arbitrary(g) % 3;
            let mut stmts: Vec<Stmt> = (0..n)
                .map(|_| {
                    if bool::arbitrary(g) {
                        Stmt::Bind(name(g), expr(g, depth - 1))
                    } else {
                        Stmt::Expr(expr(g, depth - 1))
                    }
                })
                .collect();
            stmts.push(Stmt::Expr(expr(g, depth - 1)));
            ExprKind::Do(level(g, 2), stmts)
        }
    };
    Expr {
        kind,
        span: Span::DUMMY,
    }
}

/// A random program (spans are dummies).
#[derive(Clone, Debug)]
struct ArbProgram(Program);

impl Arbitrary for ArbProgram {
    fn arbitrary(g: &mut Gen) -> ArbProgram {
        let n = 1 + u8::arbitrary(g) % 3;
        let decls = (0..n)
            .map(|_| {
                let kind = if bool::arbitrary(g) {
                    DeclKind::Fun
                } else {
                    DeclKind::Val
                };
                let params = match kind {
                    // `fun f = e` with no parameters is legal (it means `val f = e`).
                    DeclKind::Fun => (0..u8::arbitrary(g) % 4).map(|_| name(g)).collect(),
                    DeclKind::Val => vec![],
                };
                Decl {
                    sig: if bool::arbitrary(g) {
                        Some((name(g), scheme(g)))
                    } else {
                        None
                    },
                    kind,
                    name: name(g),
                    levels: (0..u8::arbitrary(g) % 3)
                        .map(|_| pick(g, LEVEL_VARS).to_string())
                        .collect(),
                    params,
                    body: expr(g, 4),
                    span: Span::DUMMY,
                }
            })
            .collect();
        ArbProgram(Program { decls })
    }
}

fn roundtrips(p: ArbProgram) -> bool {
    let printed = print_program(&p.0);
    match parse_program(&printed) {
        Ok(mut q) => {
            q.erase_spans();
            if q != p.0 {
                eprintln!("printed:\n{printed}");
            }
            q == p.0
        }
        Err(d) => {
            eprintln!("printed:\n{printed}\nerror: {d:?}");
            false
        }
    }
}

#[test]
fn print_then_parse_is_the_identity() {
    QuickCheck::new()
        .tests(500)
        .quickcheck(roundtrips as fn(ArbProgram) -> bool);
}

/// The text of every `.fcl` file in `dir`.
fn example_sources(dir: &str) -> Vec<String> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).expect("examples/fcl exists") {
        let path = e.expect("entry").path();
        if path.extension().is_some_and(|x| x == "fcl") {
            out.push(std::fs::read_to_string(path).expect("readable"));
        }
    }
    assert!(out.len() >= 6, "the thesis examples are there");
    out
}

#[test]
fn the_prelude_and_examples_roundtrip() {
    let dir = format!("{}/../examples/fcl", env!("CARGO_MANIFEST_DIR"));
    let mut sources = vec![PRELUDE.to_string(), PRELUDE_THESIS.to_string()];
    sources.extend(example_sources(&dir));
    for src in sources {
        let mut p = parse_program(&src).expect("valid program");
        let mut q = parse_program(&print_program(&p)).expect("printed program parses");
        p.erase_spans();
        q.erase_spans();
        assert_eq!(p, q);
    }
}

/// A small deterministic generator (xorshift), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const SNIPPETS: &[&str] = &[
    "(",
    ")",
    "fn x =>",
    "let",
    "in",
    "do<grid>{",
    "}",
    ";",
    "<",
    ">",
    "<block>",
    "1+",
    "-1",
    "--",
    "(*",
    "*)",
    "\"",
    "'a",
    "forall",
    "sig f : ",
    "fun g x = ",
    "val v = ",
    "|>",
    "x",
    "1.5e3",
    "if",
    "then",
    "else",
    "[",
    "]",
    ",",
    "<-",
    "Program",
    "Z>",
    "0x",
    "push<l>",
    "1 +",
];

fn mutate(rng: &mut Rng, src: &str) -> String {
    let mut b: Vec<u8> = src.as_bytes().to_vec();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(b.len() + 1);
        match rng.below(5) {
            0 => {
                let end = (at + rng.below(40)).min(b.len());
                b.drain(at..end);
            }
            1 => {
                let s = SNIPPETS[rng.below(SNIPPETS.len())];
                b.splice(at..at, s.bytes());
            }
            2 => {
                let end = (at + rng.below(60)).min(b.len());
                let piece: Vec<u8> = b[at..end].to_vec();
                let to = rng.below(b.len() + 1);
                b.splice(to..to, piece);
            }
            3 => b.insert(at.min(b.len()), (rng.next() & 0xff) as u8),
            _ => {
                if at < b.len() {
                    b[at] = b"()<>{};,+-*|=.'\"x1 \n"[rng.below(20)];
                }
            }
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

#[test]
fn no_panic_on_twenty_thousand_random_inputs() {
    let dir = format!("{}/../examples/fcl", env!("CARGO_MANIFEST_DIR"));
    let mut seeds = vec![PRELUDE.to_string(), PRELUDE_THESIS.to_string()];
    seeds.extend(example_sources(&dir));
    // One worker thread with a big stack for the whole loop (the public entry points start one
    // per call).
    let (ok, err) = with_big_stack(|| fuzz_loop(&seeds));
    assert_eq!(ok + err, 20_000);
    assert!(ok > 100, "some edits keep the program valid ({ok})");
}

fn fuzz_loop(seeds: &[String]) -> (usize, usize) {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut ok, mut err) = (0, 0);
    for i in 0..20_000 {
        let src = if i % 4 == 0 {
            let n = rng.below(200);
            (0..n).map(|_| (rng.next() & 0x7f) as u8 as char).collect()
        } else {
            let seed = rng.below(seeds.len());
            mutate(&mut rng, &seeds[seed])
        };
        // Parse errors are found at the first edit; inference runs with the prelude only for a
        // part of the inputs, to keep the test fast.
        let files = vec![("fuzz.fcl".to_string(), src)];
        let prelude = i % 128 == 1;
        match check_here(&files, prelude) {
            Ok(_) => {
                ok += 1;
                if let Ok(m) = monomorphic_here(&files, prelude) {
                    let _ = super::lower::lower_program(&m);
                }
            }
            Err((_, d)) => {
                err += 1;
                let _ = d.render("fuzz.fcl", &files[0].1);
            }
        }
    }
    (ok, err)
}
