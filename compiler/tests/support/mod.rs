//! What the compiler's integration tests share: the OpenCL runtime (or a skip when there is no
//! platform), a deterministic generator for random programs, the definitions of an example
//! program, and the check that a compiled program prints what the oracle prints. Each test file
//! includes it with `mod support;` and uses only part of it.
#![allow(dead_code)]

pub mod tail;

use compiler::exec::execute;
use compiler::kir::Module;
use compiler::runtime::{Runtime, RuntimeError};
use compiler::{compile_fcl, OptLevel, DEFAULT_BLOCK_SIZE};
use interpreter::fcl::{run, Config};
use semantics::fcl::core::Expr;
use semantics::fcl::lower::load_program;
use std::path::Path;

/// The first OpenCL device, or `None` after printing that the test skipped (no platform).
pub fn runtime() -> Option<Runtime> {
    match Runtime::new(0) {
        Ok(rt) => Some(rt),
        Err(RuntimeError::NoPlatform(_)) => {
            println!("skipped: no OpenCL platform");
            None
        }
        Err(e) => panic!("{e}"),
    }
}

/// A small deterministic generator (64-bit LCG).
pub struct Rng(pub u64);

impl Rng {
    /// The next number in `0..n`.
    pub fn next(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

/// The definitions of `examples/fcl/NAME.fcl` (everything before its `sig main`).
pub fn example_defs(name: &str) -> String {
    let src = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../examples/fcl/{name}.fcl")),
    )
    .unwrap();
    src[..src.find("sig main").unwrap_or(src.len())].to_string()
}

/// A grid-level `main` running `body` (statements of a `do<grid>`), then returning unit.
pub fn main_of(body: &str) -> String {
    format!("sig main : Program <grid> unit\nval main = do<grid>\n  {{ {body}\n  ; return<grid> ()\n  }}\n")
}

/// The oracle's output of program `src` (named `file`) and its monomorphized `main`; panics
/// with the source when it does not load or the oracle fails.
pub fn oracle(file: &str, src: &str) -> (String, Expr) {
    let program = load_program(&[(file.to_string(), src.to_string())])
        .unwrap_or_else(|d| panic!("{src}\n{d:?}"));
    let want = run(&program.main, &Config::default());
    assert!(want.result.is_ok(), "oracle failed on {src}");
    (want.stdout, program.main)
}

/// Compiles program `src` at -O0 and -O2 with `compile`, runs it on `rt` and asserts that it
/// prints what the oracle prints (`want`, from [`oracle`]); returns the number of runs compared.
pub fn assert_compiled_agree(
    rt: &Runtime,
    src: &str,
    main: &Expr,
    want: &str,
    compile: &mut dyn FnMut(&Expr, OptLevel) -> Module,
) -> usize {
    for opt in [OptLevel::O0, OptLevel::O2] {
        let m = compile(main, opt);
        let got = execute(&m, rt).unwrap_or_else(|err| panic!("{src}\n{err}"));
        assert_eq!(got.stdout, want, "{opt:?} on\n{src}");
    }
    2
}

/// [`oracle`] then [`assert_compiled_agree`] with the plain compiler ([`compile_fcl`] at the
/// default block size); returns the number of runs compared.
pub fn assert_agrees_with_oracle(rt: &Runtime, file: &str, src: &str) -> usize {
    let (want, main) = oracle(file, src);
    assert_compiled_agree(rt, src, &main, &want, &mut |main, opt| {
        compile_fcl(main, opt, DEFAULT_BLOCK_SIZE).unwrap_or_else(|e| panic!("{src}\n{e}"))
    })
}
