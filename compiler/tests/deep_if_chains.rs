//! Long `if … then … else if …` chains (table lookups, as lowered TAIL programs write them) and
//! `let` chains (unrolled folds) pass
//! every stage: the FCL parser, type checking, monomorphization and lowering, the FCL oracle,
//! the compiler and OpenCL (clang's bracket limit included); other deep nestings keep a clear
//! limit error.

mod support;

use compiler::exec::execute;
use compiler::{compile_fcl, OptLevel, DEFAULT_BLOCK_SIZE};
use semantics::fcl::lower::load_program;
use semantics::fcl::parser::{MAX_DEPTH, MAX_IF_CHAIN};
use support::runtime;

/// Runs `f` on a thread with the command line's stack (1 GiB, src/main.rs): the compiler's
/// passes and clang recurse once per link of a chain.
fn on_big_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(1 << 30)
            .spawn_scoped(s, f)
            .unwrap()
            .join()
            .unwrap()
    })
}

/// A program printing `lookup` of 0..n-1 (plus a miss), where `lookup x` is a chain of `links`
/// cases `x == k` ↦ `(k * 37) % 101`, each `else` branch parenthesised as compiler::tail
/// writes it.
fn chain_program(links: usize, n: usize) -> String {
    let mut body = String::from("0 - 1");
    for k in (0..links).rev() {
        body = format!("(if x == {k} then {} else {body})", (k * 37) % 101);
    }
    format!(
        "sig tabulate : forall 'a. int -> (int -> 'a) -> Program <grid> ['a]<grid>\n\
         fun tabulate n f = concat<block> 256 (generate ((n + 255) / 256) (fn b => return<block> \
         (push<block> (generate 256 (fn t => f (mini (b * 256 + t) (n - 1)))))))\n\
         sig lookup : int -> int\nfun lookup x = {body}\n\
         sig main : Program <grid> unit\nval main =\n  do<grid>\n  \
         {{ a <- tabulate {n} (fn i => lookup (mini (i * {}) {links}))\n  \
         ; p <- forceAndPrint {n} a\n  ; return<grid> ()\n  }}\n",
        links / n.max(1)
    )
}

/// The output the chain program must print.
fn expected(links: usize, n: usize) -> String {
    let step = links / n.max(1);
    let vals: Vec<String> = (0..n)
        .map(|i| {
            let x = (i * step).min(links);
            if x < links {
                ((x * 37) % 101).to_string()
            } else {
                "-1".into()
            }
        })
        .collect();
    format!("[{}]\n", vals.join(","))
}

/// `src` loads, and prints `want` on the FCL oracle and, where there is a device, on OpenCL
/// (all on a big stack).
fn prints_on_both_engines(src: &str, want: &str) {
    on_big_stack(|| {
        let program = load_program(&[("chain.fcl".to_string(), src.to_string())])
            .unwrap_or_else(|(_, d)| panic!("{d:?}"));
        let out = interpreter::fcl::run(&program.main, &interpreter::fcl::Config::default());
        assert_eq!(out.stdout, want, "FCL oracle");
        let m = compile_fcl(&program.main, OptLevel::O2, DEFAULT_BLOCK_SIZE).unwrap();
        if let Some(rt) = runtime() {
            let report = execute(&m, &rt).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(report.stdout, want, "OpenCL");
        }
    });
}

#[test]
fn a_2000_link_if_chain_type_checks_and_runs() {
    let (links, n) = (2000, 100);
    let src = chain_program(links, n);
    let want = expected(links, n);
    prints_on_both_engines(&src, &want);
}

#[test]
fn chains_past_the_limit_and_other_deep_nestings_are_refused_clearly() {
    // the first `if` and MAX_IF_CHAIN `else if`s are accepted, one more is not
    let too_long = chain_program(MAX_IF_CHAIN + 2, 1);
    let e = on_big_stack(|| load_program(&[("chain.fcl".to_string(), too_long)]).map(|_| ()));
    let (_, d) = e.expect_err("a chain past the limit");
    assert!(d.message.contains("`if` chain longer than"), "{d:?}");
    // parentheses, and ifs nested in conditions, still count levels
    let parens = format!(
        "val main = {}1{}",
        "(".repeat(MAX_DEPTH),
        ")".repeat(MAX_DEPTH)
    );
    let conds = format!(
        "val main = {}true{}",
        "if ".repeat(MAX_DEPTH),
        " then true else false".repeat(MAX_DEPTH)
    );
    for src in [parens, conds] {
        let e = load_program(&[("deep.fcl".to_string(), src)]).map(|_| ());
        let (_, d) = e.expect_err("too deep");
        assert!(d.message.contains("nested too deeply"), "{d:?}");
    }
}

#[test]
fn a_2000_link_let_chain_type_checks_and_runs() {
    // the shape of an unrolled fold: each `let` binds the next partial result
    let links = 2000;
    let mut body = String::new();
    for k in 0..links {
        let prev = if k == 0 {
            "x".to_string()
        } else {
            format!("y{}", k - 1)
        };
        body.push_str(&format!("let y{k} = (({prev} * 3 + {k}) % 1009) in "));
    }
    body.push_str(&format!("y{}", links - 1));
    let src = format!(
        "sig tabulate : forall 'a. int -> (int -> 'a) -> Program <grid> ['a]<grid>\n\
         fun tabulate n f = concat<block> 256 (generate ((n + 255) / 256) (fn b => return<block> \
         (push<block> (generate 256 (fn t => f (mini (b * 256 + t) (n - 1)))))))\n\
         sig fold : int -> int\nfun fold x = {body}\n\
         sig main : Program <grid> unit\nval main =\n  do<grid>\n  \
         {{ a <- tabulate 3 (fn i => fold i)\n  \
         ; p <- forceAndPrint 3 a\n  ; return<grid> ()\n  }}\n"
    );
    let fold = |x: i64| (0..links).fold(x, |y, k| (y * 3 + k as i64) % 1009);
    let want = format!("[{},{},{}]\n", fold(0), fold(1), fold(2));
    prints_on_both_engines(&src, &want);
}
