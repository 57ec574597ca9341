//! The compiled side of the differential check: the program compiled at -O0 and -O2 and run on
//! an OpenCL device must print what the oracle printed.

use compiler::exec::{execute, ExecError};
use compiler::fault::Fault;
use compiler::lower::LowerError;
use compiler::runtime::Runtime;
use compiler::{compile_fcl_with_fault, OptLevel, DEFAULT_BLOCK_SIZE};
use semantics::fcl::core::Expr;

/// How the compiled program compared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CompiledOutcome {
    /// Both optimization levels printed the oracle's output.
    Agree,
    /// The compiler declined the program (a documented limitation, not a wrong answer).
    Unsupported(String),
    /// An optimization level printed something else, failed at run time, or produced OpenCL
    /// that does not build.
    Differs { opt: String, got: String },
}

/// Compiles `main` at -O0 and -O2, runs both on `rt` and compares with the oracle's `expected`
/// stdout.
pub fn compare_compiled(main: &Expr, expected: &str, rt: &Runtime) -> CompiledOutcome {
    compare_compiled_with(main, expected, rt, None)
}

/// [`compare_compiled`] with `fault` injected into the compiler (the oracle's `expected` is
/// unchanged).
pub fn compare_compiled_with(
    main: &Expr,
    expected: &str,
    rt: &Runtime,
    fault: Option<Fault>,
) -> CompiledOutcome {
    for (opt, name) in [(OptLevel::O0, "-O0"), (OptLevel::O2, "-O2")] {
        let module = match compile_fcl_with_fault(main, opt, DEFAULT_BLOCK_SIZE, fault) {
            Ok((m, _)) => m,
            Err(LowerError::Unsupported(why, _)) => return CompiledOutcome::Unsupported(why),
            Err(e) => {
                return CompiledOutcome::Differs {
                    opt: name.into(),
                    got: format!("compile error: {e}"),
                }
            }
        };
        let got = match execute(&module, rt) {
            Ok(report) => report.stdout,
            Err(ExecError::Unsupported(why)) => return CompiledOutcome::Unsupported(why),
            Err(e) => format!("error: {e}"),
        };
        if got != expected {
            return CompiledOutcome::Differs {
                opt: name.into(),
                got,
            };
        }
    }
    CompiledOutcome::Agree
}
