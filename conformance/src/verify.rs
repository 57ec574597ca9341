//! The three-engine check behind `tailfcl exec FILE.tail --verify`: the TAIL oracle (the
//! reference), the FCL oracle on the program lowered to FCL, and the lowered program compiled and
//! run on OpenCL. Outputs agree when they are the same TAIL text up to a relative 1e-12 on
//! numbers, or when both end in a run-time error.

use crate::fuzz::tail::outputs_agree;
use compiler::exec::execute_keeping_output;
use compiler::runtime::Runtime;
use compiler::tail::{
    device_prober, failed_at, format_result, format_until_failure, lower_tail_probing,
    LowerTailError, Lowered,
};
use compiler::{compile_fcl, OptLevel};
use interpreter::fcl::Failure;
use interpreter::tail::{run_source, Outcome, RunOptions};

/// What one engine printed, and whether it agrees with the reference (`None` for the
/// reference itself).
#[derive(Clone, Debug)]
pub struct EngineOutput {
    pub engine: &'static str,
    pub output: String,
    pub agrees: Option<bool>,
}

impl EngineOutput {
    /// `engine: reference: OUTPUT`, `engine: agrees` or `engine: differs: OUTPUT`, output lines
    /// joined by ` | `.
    pub fn line(&self) -> String {
        let text = self.output.trim_end().replace('\n', " | ");
        match self.agrees {
            None => format!("{}: reference: {text}", self.engine),
            Some(true) => format!("{}: agrees", self.engine),
            Some(false) => format!("{}: differs: {text}", self.engine),
        }
    }
}

/// Runs `src` on the three engines (OpenCL at `opt` with work-groups of `block_size` on `rt`).
/// A program that does not parse or type check, or that the lowering refuses, is the error.
pub fn verify_tail(
    src: &str,
    rt: &Runtime,
    opt: OptLevel,
    block_size: usize,
) -> Result<Vec<EngineOutput>, LowerTailError> {
    let report = run_source(src, RunOptions::default()).map_err(LowerTailError::Static)?;
    let mut reference = report.stdout;
    match report.outcome {
        Outcome::Value(_) => {}
        Outcome::Err(e) => reference.push_str(&format!("error: {}\n", e.reason)),
        Outcome::Limit => reference.push_str("error: step limit\n"),
    }
    // sizes computed from data are computed on the device under test
    let lowered = lower_tail_probing(src, &mut device_prober(rt, block_size))?;
    // a program the lowering knows to fail prints its output, then fails
    let failure = lowered
        .failure
        .as_ref()
        .map_or(String::new(), |f| format!("error: {}\n", f.reason));
    let fcl = fcl_oracle(&lowered) + &failure;
    let opencl = opencl(&lowered, rt, opt, block_size) + &failure;
    let agrees =
        |out: &str| outputs_agree(&reference, out) || (is_error(&reference) && is_error(out));
    Ok(vec![
        EngineOutput {
            engine: "tail-oracle",
            output: reference.clone(),
            agrees: None,
        },
        EngineOutput {
            engine: "fcl-oracle",
            agrees: Some(agrees(&fcl)),
            output: fcl,
        },
        EngineOutput {
            engine: "opencl",
            agrees: Some(agrees(&opencl)),
            output: opencl,
        },
    ])
}

/// Whether an engine's output ends in a run-time error.
fn is_error(out: &str) -> bool {
    out.lines().last().is_some_and(|l| l.starts_with("error:"))
}

/// The lowered program on the FCL oracle, read back as TAIL.
fn fcl_oracle(lowered: &Lowered) -> String {
    let program = match lowered.fcl.load() {
        Ok(p) => p,
        Err((_, d)) => return format!("lowered FCL does not load: {}\n", d.message),
    };
    let out = interpreter::fcl::run(&program.main, &interpreter::fcl::Config::default());
    let why = match &out.result {
        Ok(_) => return read_back(lowered, &out.stdout),
        Err(Failure::Error(e)) if failed_at(lowered, &e.reason).is_some() => {
            return read_back_failed(lowered, &out.stdout, &e.reason)
        }
        Err(Failure::Error(e) | Failure::SizeLimit(e)) => e.to_string(),
        Err(Failure::StepLimit(n)) => format!("step limit ({n} steps)"),
        Err(Failure::Static(d)) => format!("static: {}", d.message),
    };
    format!("{}error: {why}\n", out.stdout)
}

/// The lowered program compiled and run on OpenCL, read back as TAIL.
fn opencl(lowered: &Lowered, rt: &Runtime, opt: OptLevel, block_size: usize) -> String {
    let program = match lowered.fcl.load() {
        Ok(p) => p,
        Err((_, d)) => return format!("lowered FCL does not load: {}\n", d.message),
    };
    let module = match compile_fcl(&program.main, opt, block_size) {
        Ok(m) => m,
        Err(e) => return format!("compile error: {e}\n"),
    };
    match execute_keeping_output(&module, rt) {
        (report, Ok(())) => read_back(lowered, &report.stdout),
        (report, Err(e)) if failed_at(lowered, &e.to_string()).is_some() => {
            read_back_failed(lowered, &report.stdout, &e.to_string())
        }
        (_, Err(e)) => format!("error: {e}\n"),
    }
}

/// A failed check's output as TAIL: what the program printed before it, then the TAIL oracle's
/// reason for the failure the check stands for.
fn read_back_failed(lowered: &Lowered, stdout: &str, error: &str) -> String {
    let printed = format_until_failure(lowered, stdout).unwrap_or_else(|| stdout.to_string());
    let reason = failed_at(lowered, error).map_or(error, |f| &f.reason);
    format!("{printed}error: {reason}\n")
}

/// FCL output as TAIL result lines, or as it is when it does not have the lowered shape.
fn read_back(lowered: &Lowered, stdout: &str) -> String {
    format_result(lowered, stdout).unwrap_or_else(|| stdout.to_string())
}

#[cfg(test)]
mod tests {
    use super::{is_error, EngineOutput};

    #[test]
    fn lines_say_reference_agrees_or_differs() {
        let e = |agrees, output: &str| EngineOutput {
            engine: "opencl",
            output: output.into(),
            agrees,
        };
        assert_eq!(
            e(None, "[2](1,2)\n[](3)\n").line(),
            "opencl: reference: [2](1,2) | [](3)"
        );
        assert_eq!(e(Some(true), "[](3)\n").line(), "opencl: agrees");
        assert_eq!(e(Some(false), "[](4)\n").line(), "opencl: differs: [](4)");
        assert!(is_error("[](1)\nerror: division by zero\n"));
        assert!(!is_error("[](1)\n"));
    }
}
