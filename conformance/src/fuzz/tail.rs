//! The TAIL check: the TAIL oracle must print exactly what the generator's direct evaluation
//! predicts; then the program lowered to FCL ([`compiler::tail::lower_tail`]) must print the
//! same on the FCL oracle and, compiled, on OpenCL (see [`super::batch::Compare::Tail`]). A
//! program the lowering refuses is unsupported, never a failure.
//!
//! A failure is saved, then shrunk ([`crate::shrink::tail`]) with [`check_tail_program`], the
//! same check on one program with the TAIL oracle's own output as the reference.

use super::batch::{compile_job_sized, optimized_program, run_jobs, Compare, RunCache};
use super::oracle::{Checked, Verdict, MAX_STEPS};
use super::profile::Profile;
use super::{apply_compiled, save_failure, Campaign};
use crate::gen::tail_gen::TailCase;
use crate::shrink::tail::{shrink, TailProgram};
use compiler::fault::Fault;
use compiler::runtime::Runtime;
use compiler::tail::{
    failed_at, format_result, format_until_failure, lower_tail_faulty, LowerTailError, Lowered,
};
use interpreter::tail::{drive, Outcome, RunOptions, Stats};
use semantics::fcl::core::Expr;
use semantics::tail::step::Machine;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The configuration of a mismatch between the TAIL oracle and the generator's evaluation.
pub const TAIL_ORACLE_CONFIG: &str = "tail oracle vs direct evaluation";

/// Runs `case` on the TAIL oracle, counting the rules its steps fire, and compares its stdout
/// with the expected output.
pub fn check_tail(case: &TailCase) -> Checked {
    check_tail_against(&case.source, Some(&case.expected))
}

/// Runs `src` on the TAIL oracle, counting the rules its steps fire; with `expected`, compares
/// its stdout with it (without, any run that ends with a value passes).
pub fn check_tail_against(src: &str, expected: Option<&str>) -> Checked {
    let mut rules = BTreeMap::new();
    let prog = match semantics::tail::step::load(src) {
        Ok(p) => p,
        Err(d) => {
            return Checked {
                verdict: Verdict::Invalid(format!("front end: {}", d.message)),
                reference: String::new(),
                stdout: String::new(),
                rules,
                unsupported: None,
                reached: None,
            }
        }
    };
    let mut machine = Machine::new(prog);
    let mut stdout = String::new();
    let driven = drive(
        &mut machine,
        RunOptions {
            max_steps: MAX_STEPS,
        },
        &mut Stats::default(),
        |_, _, info| {
            *rules.entry(info.rule.to_string()).or_default() += 1;
            Ok(())
        },
        |out| {
            stdout.push_str(out);
            Ok(())
        },
    );
    // the oracle's output against the generator's prediction
    let compare = |stdout: &String| match expected {
        Some(want) if stdout != want => Verdict::Mismatch {
            config: TAIL_ORACLE_CONFIG.into(),
            expected: want.to_string(),
            got: stdout.clone(),
        },
        _ => Verdict::Pass,
    };
    let verdict = match driven {
        Ok((Outcome::Value(line), _)) => {
            stdout.push_str(&line);
            stdout.push('\n');
            compare(&stdout)
        }
        // a program that fails prints its output, then the failing rule (the generator makes
        // such programs, and every engine must fail with the same rule)
        Ok((Outcome::Err(e), _)) => {
            stdout.push_str(&failure_line(&e.rule.to_string()));
            compare(&stdout)
        }
        Ok((Outcome::Limit, _)) => Verdict::Invalid("step limit".into()),
        Err(e) => Verdict::Invalid(format!("output failed: {e}")),
    };
    Checked {
        verdict,
        reference: stdout.clone(),
        stdout,
        rules,
        unsupported: None,
        reached: None,
    }
}

/// The OpenCL side of a TAIL check: the device, the fault injected into the FCL compiler and
/// the OpenCL build options.
#[derive(Clone, Copy)]
pub struct CompiledSide<'a> {
    pub runtime: &'a Runtime,
    pub fault: Option<Fault>,
    pub options: &'a str,
    /// Whether -O2's build is the optimized one ([`super::batch::CompiledJob::optimized`]).
    pub optimized: bool,
}

/// The whole TAIL check of one program, staged as a campaign runs it: the TAIL oracle (against
/// `expected` when given, else its own output is the reference), the lowered program on the FCL
/// oracle, then with a device the compiled program at -O0 and -O2 (a batch of one).
pub fn check_tail_program(
    src: &str,
    expected: Option<&str>,
    compiled: Option<CompiledSide>,
) -> Checked {
    let mut checked = check_tail_against(src, expected);
    if checked.verdict != Verdict::Pass {
        return checked;
    }
    match check_lowered(src, &checked.stdout, compiled.and_then(|c| c.fault)) {
        LoweredCheck::Unsupported(why) => checked.unsupported = Some(why),
        LoweredCheck::Mismatch(v) => checked.verdict = v,
        LoweredCheck::Agrees(lowered, main) => {
            if let Some(side) = compiled {
                let block = compiler::DEFAULT_BLOCK_SIZE
                    .min(side.runtime.device.max_work_group_size.max(1));
                let mut job = compile_job_sized(&main, &checked.stdout, side.fault, block);
                job.compare = Compare::Tail(lowered);
                job.optimized = side.optimized;
                let mut cache = RunCache::with_build_options(side.options);
                let mut profile = Profile::default();
                if let Some(outcome) =
                    run_jobs(&[job], side.runtime, &mut cache, &mut profile).pop()
                {
                    apply_compiled(&mut checked, outcome);
                }
            }
        }
    }
    checked
}

/// Shrinks a failing TAIL program while [`check_tail_program`] still fails on the same
/// configuration, and saves the result as `STEM-shrunk.tail` (with its `.txt`). A mismatch
/// between the TAIL oracle and the generator is not shrunk: a smaller program has no
/// generator's evaluation to compare with (the saved original is the evidence). `(seed, k)`:
/// the program's seed and its index in the campaign.
pub fn shrink_failure(
    c: &Campaign,
    src: &str,
    (seed, k): (u64, u64),
    failing_config: &str,
    dir: &Path,
    stem: &str,
    rt: Option<&Runtime>,
) -> Vec<PathBuf> {
    if failing_config == TAIL_ORACLE_CONFIG {
        return Vec::new();
    }
    let Ok(program) = TailProgram::parse(src) else {
        return Vec::new();
    };
    let side = rt.map(|runtime| CompiledSide {
        runtime,
        fault: c.fault_for(k),
        options: &c.opencl_options,
        optimized: optimized_program(k),
    });
    let same_failure =
        |v: &Verdict| matches!(v, Verdict::Mismatch { config, .. } if config == failing_config);
    let mut still_fails = super::within_budget(|cand: &TailProgram| {
        same_failure(&check_tail_program(&cand.print(), None, side).verdict)
    });
    let (shrunk, _) = shrink(&program, c.shrink_tries, &mut still_fails);
    let small = shrunk.print();
    let verdict = check_tail_program(&small, None, side).verdict;
    save_failure(
        dir,
        &format!("{stem}-shrunk"),
        "tail",
        &small,
        seed,
        &verdict,
    )
}

/// What lowering a TAIL program that passed the TAIL oracle gave.
pub enum LoweredCheck {
    /// The lowering refuses the program (outside its scope), with the reason.
    Unsupported(String),
    /// The lowered program does not load or disagrees on the FCL oracle: the mismatch.
    Mismatch(Verdict),
    /// The lowered program agrees on the FCL oracle: its lowering and loaded `main`, ready to
    /// be compiled.
    Agrees(Box<Lowered>, Expr),
}

/// Lowers `src` to FCL and runs it on the FCL oracle; its output read back as TAIL must agree
/// with `tail_stdout` (what the TAIL oracle printed). A fault of the TAIL lowering in `fault`
/// is planted in the lowering (an FCL compiler's fault is the compiled side's business).
pub fn check_lowered(src: &str, tail_stdout: &str, fault: Option<Fault>) -> LoweredCheck {
    let mismatch = |config: &str, got: String| {
        LoweredCheck::Mismatch(Verdict::Mismatch {
            config: config.into(),
            expected: tail_stdout.to_string(),
            got,
        })
    };
    // lowered without running anything: sizes computed from data stay in the program, so
    // the code that computes them at run time is what the engines check (a program that
    // needs a value read back while it is lowered is outside what is checked: unsupported)
    let planted = fault.and_then(Fault::lowering);
    let lowered = match lower_tail_faulty(src, planted) {
        Ok(l) => l,
        Err(LowerTailError::Unsupported(why)) => return LoweredCheck::Unsupported(why),
        Err(LowerTailError::Static(d)) => {
            return mismatch("tail lowering", format!("static error: {}", d.message))
        }
        Err(e @ (LowerTailError::Fails(_) | LowerTailError::Probe(_))) => {
            return mismatch("tail lowering", e.to_string())
        }
    };
    let program = match lowered.fcl.load() {
        Ok(p) => p,
        Err((_, d)) => {
            return mismatch(
                "lowered fcl front end",
                format!("{}\n{}", d.message, lowered.fcl.text()),
            )
        }
    };
    // (the lowered program may compute at its capacities, bounds on lengths the device
    // computes, which can be a few times what the reference computed)
    let cfg = interpreter::fcl::Config {
        max_steps: LOWERED_STEPS_PER_REFERENCE_STEP * MAX_STEPS,
        ..Default::default()
    };
    let out = interpreter::fcl::run(&program.main, &cfg);
    let got = match &out.result {
        Ok(_) => out.stdout.clone(),
        // a failed check is the TAIL program's failure (read back below)
        Err(interpreter::fcl::Failure::Error(e)) => format!("{}error: {}", out.stdout, e.reason),
        Err(_) => return mismatch("fcl oracle (lowered)", out.observable()),
    };
    match read_back_tail(&lowered, &got) {
        Some(tail) if outputs_agree(tail_stdout, &tail) => {
            LoweredCheck::Agrees(Box::new(lowered), program.main)
        }
        Some(tail) => mismatch("fcl oracle (lowered)", tail),
        None => mismatch("fcl oracle (lowered)", out.stdout),
    }
}

/// The FCL oracle's steps for a lowered program, per step the TAIL oracle's reference may take.
const LOWERED_STEPS_PER_REFERENCE_STEP: u64 = 4;

/// The line a failing TAIL program's output ends with: its rule (`error: 3.32 muli`).
pub fn failure_line(rule: &str) -> String {
    format!("error: {rule}\n")
}

/// A lowered TAIL program's output as the TAIL oracle's reference writes it
/// ([`check_tail_against`]): the FCL program's stdout read back as TAIL, then, where the program
/// fails, the failing rule: a failure the lowering found, or a failed check (the output's last
/// line `error: …check site N failed…`, after what the program printed before it). `None` when
/// the output is not what the lowered program prints or fails with.
pub fn read_back_tail(lowered: &Lowered, got: &str) -> Option<String> {
    // the last line that starts with the error (its text has `error:` inside too)
    let start = match got.starts_with("error: ") {
        true => Some(0),
        false => got.rfind("\nerror: ").map(|k| k + 1),
    };
    let (printed, error) = match start {
        Some(k) => (&got[..k], Some(&got[k..])),
        None => (got, None),
    };
    match error {
        Some(e) => {
            let f = failed_at(lowered, e)?;
            Some(format_until_failure(lowered, printed)? + &failure_line(&f.rule))
        }
        None => {
            let mut text = format_result(lowered, printed)?;
            if let Some(f) = &lowered.failure {
                text.push_str(&failure_line(&f.rule));
            }
            Some(text)
        }
    }
}

/// Whether two TAIL outputs agree: the same text, except that numbers may differ by a relative
/// 1e-12 (doubles computed by different engines; NaN agrees with NaN).
pub fn outputs_agree(a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    let (ta, tb) = (tokens(a), tokens(b));
    ta.len() == tb.len()
        && ta.iter().zip(&tb).all(|(x, y)| {
            x == y
                || match (x.parse::<f64>(), y.parse::<f64>()) {
                    (Ok(p), Ok(q)) if p.is_nan() && q.is_nan() => true,
                    (Ok(p), Ok(q)) => (p - q).abs() <= 1e-12 * p.abs().max(q.abs()),
                    _ => false,
                }
        })
}

/// Numbers (and words) and the punctuation between them.
fn tokens(s: &str) -> Vec<&str> {
    let number_char = |c: char| c.is_ascii_alphanumeric() || "._+-".contains(c);
    let mut out = Vec::new();
    let mut start = 0;
    let mut in_number = false;
    for (i, c) in s.char_indices() {
        let n = number_char(c);
        if i > start && (n != in_number || !n) {
            out.push(&s[start..i]);
            start = i;
        }
        in_number = n;
    }
    if start < s.len() {
        out.push(&s[start..]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{check_tail_program, outputs_agree, read_back_tail};
    use crate::fuzz::Verdict;

    #[test]
    fn a_failed_check_reads_back_as_the_oracles_rule_after_the_prints() {
        let src = "let a:[int]1 = prArrI(iota(3)) in\neach(fn x:[int]0 => divi(6,subi(x,2)),a)\n";
        let l = compiler::tail::lower_tail(src).expect("lowers");
        let site = l
            .sites
            .iter()
            .position(|f| f.reason == "divi: division by zero");
        let got = format!(
            "[1,2,3]\nerror: run-time error: check site {} failed in kernel_1",
            site.expect("a site for the division by zero")
        );
        assert_eq!(
            read_back_tail(&l, &got).as_deref(),
            Some("[3](1,2,3)\nerror: 3.32 divi\n")
        );
        // an error that is no check of this program does not read back
        assert_eq!(
            read_back_tail(&l, "error: run-time error: division by zero"),
            None
        );
        // the whole check: the TAIL oracle and the FCL oracle on the lowered program fail alike
        let checked = check_tail_program(src, Some("[3](1,2,3)\nerror: 3.32 divi\n"), None);
        assert_eq!(checked.verdict, Verdict::Pass);
        let wrong = check_tail_program(src, Some("[3](1,2,3)\nerror: 3.32 mod\n"), None);
        assert!(matches!(wrong.verdict, Verdict::Mismatch { .. }));
    }

    #[test]
    fn numbers_agree_within_a_relative_tolerance() {
        assert!(outputs_agree("[2](1,2)\n", "[2](1,2)\n"));
        assert!(outputs_agree("[](0.1)\n", "[](0.10000000000000002)\n"));
        assert!(outputs_agree("[](NaN)\n", "[](NaN)\n"));
        assert!(!outputs_agree("[](0.1)\n", "[](0.1001)\n"));
        assert!(!outputs_agree("[2](1,2)\n", "[2](1,3)\n"));
        assert!(!outputs_agree("[2](1,2)\n", "[3](1,2,3)\n"));
        assert!(!outputs_agree("[](1)\n", "[](1)\n[](1)\n"));
    }
}
