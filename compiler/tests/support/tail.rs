//! TAIL programs on three levels: the TAIL oracle, the FCL oracle on the lowered program and
//! OpenCL on the compiled one, compared as TAIL output (`tail_three_levels.rs`,
//! `tail_complex.rs`).

use compiler::exec::execute;
use compiler::runtime::Runtime;
use compiler::tail::{
    device_prober, format_result, lower_tail_probing, FclProgram, LowerTailError, Lowered,
};
use compiler::{compile_fcl, OptLevel, DEFAULT_BLOCK_SIZE};
use interpreter::tail::Outcome;
use semantics::fcl::lower::{load_program, Program};

/// An FCL program to run: a lowered one (a tree) or FCL source text.
pub trait Runnable {
    /// Through the FCL front end.
    fn loaded(&self) -> Program;
}

impl Runnable for FclProgram {
    fn loaded(&self) -> Program {
        self.load()
            .unwrap_or_else(|(_, d)| panic!("lowered FCL does not load: {d:?}\n{self}"))
    }
}

impl Runnable for str {
    fn loaded(&self) -> Program {
        load_program(&[("test.fcl".to_string(), self.to_string())])
            .unwrap_or_else(|(_, d)| panic!("FCL does not load: {d:?}\n{self}"))
    }
}

/// The program's raw output on the FCL oracle.
pub fn fcl_oracle(fcl: &(impl Runnable + ?Sized)) -> String {
    let out = interpreter::fcl::run(&fcl.loaded().main, &interpreter::fcl::Config::default());
    out.stdout
}

/// The program's raw output on OpenCL, and its number of kernels.
pub fn opencl(rt: &Runtime, fcl: &(impl Runnable + ?Sized)) -> (String, usize) {
    let program = fcl.loaded();
    let m = compile_fcl(&program.main, OptLevel::O2, DEFAULT_BLOCK_SIZE).unwrap();
    let report = execute(&m, rt).unwrap_or_else(|e| panic!("{e}"));
    (report.stdout, m.kernels.len())
}

/// A number in TAIL's value text (`1.5E~7`, `~0.0`, `HUGE_VAL`), if the token is one.
pub fn number(t: &str) -> Option<f64> {
    match t {
        "HUGE_VAL" => Some(f64::INFINITY),
        "-HUGE_VAL" => Some(f64::NEG_INFINITY),
        _ => t.replace('~', "-").replace('E', "e").parse().ok(),
    }
}

/// Equal output, except that doubles may differ by a relative 1e-12 (plus the 12-digit
/// rounding of TAIL's printer); ints and everything else must match exactly.
pub fn agree(a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    let split = |s: &str| -> Vec<String> {
        // `j` parts a complex number's texts (`1.5j-2.0`), which compare as two doubles
        s.split(|c: char| "()[],\n j".contains(c))
            .map(str::to_string)
            .collect()
    };
    let (ta, tb) = (split(a), split(b));
    ta.len() == tb.len()
        && ta.iter().zip(&tb).all(|(x, y)| {
            x == y
                || (x.contains('.') && y.contains('.'))
                    && match (number(x), number(y)) {
                        (Some(p), Some(q)) => {
                            (p - q).abs() <= 1e-11 * p.abs().max(q.abs()) || p == q
                        }
                        _ => false,
                    }
        })
}

/// Checks one program on the three levels; `Ok(false)` when the lowering refuses it.
pub fn check_three_levels(name: &str, src: &str, rt: Option<&Runtime>) -> Result<bool, String> {
    // sizes computed from data are read back from the device, or else from the FCL oracle
    let lowered = match rt {
        Some(rt) => lower_tail_probing(src, &mut device_prober(rt, DEFAULT_BLOCK_SIZE)),
        None => lower_tail_probing(src, &mut |fcl: &FclProgram| Ok(fcl_oracle(fcl))),
    };
    let lowered: Lowered = match lowered {
        Ok(l) => l,
        Err(LowerTailError::Unsupported(why)) => return Err(why),
        Err(e) => panic!("{name}: {e}"),
    };
    let tail = interpreter::tail::run_source(src, Default::default())
        .expect("the TAIL oracle loads what the lowering accepted");
    match (&tail.outcome, &lowered.failure) {
        (Outcome::Value(_), None) => {}
        (Outcome::Err(e), Some(f)) => {
            assert_eq!(e.rule.to_string(), f.rule, "{name}: failing rule");
            assert_eq!(e.reason, f.reason, "{name}: failure reason");
            assert_eq!(e.span, f.span, "{name}: failure place");
        }
        // a failure found at run time by a check of the lowered code (the oracle's rule and
        // place are a check site's); tests/tail_errors_cli.rs compares the engines on it
        (Outcome::Err(e), None)
            if lowered
                .sites
                .iter()
                .any(|f| f.rule == e.rule.to_string() && f.span == e.span) =>
        {
            return Ok(true);
        }
        (o, f) => panic!("{name}: TAIL oracle {o:?}, lowering's failure {f:?}"),
    }
    let fcl = format_result(&lowered, &fcl_oracle(&lowered.fcl))
        .unwrap_or_else(|| panic!("{name}: FCL oracle output\n{}", lowered.fcl));
    assert!(
        agree(&tail.stdout, &fcl),
        "{name}: TAIL oracle vs FCL oracle:\n{}\n{fcl}",
        tail.stdout
    );
    if let Some(rt) = rt {
        let (out, _) = opencl(rt, &lowered.fcl);
        let ocl = format_result(&lowered, &out).expect("OpenCL output");
        assert!(
            agree(&tail.stdout, &ocl),
            "{name}: TAIL oracle vs OpenCL:\n{}\n{ocl}",
            tail.stdout
        );
    }
    Ok(true)
}
