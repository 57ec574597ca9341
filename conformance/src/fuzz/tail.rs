//! The TAIL check: the TAIL oracle must print exactly what the generator's direct evaluation
//! predicts (there is no TAIL compiler to compare with yet).

use super::oracle::{Checked, Verdict};
use crate::gen::tail_gen::TailCase;
use interpreter::tail::{run_source, Outcome, RunOptions};
use std::collections::BTreeMap;

/// Runs `case` on the TAIL oracle and compares its stdout with the expected output.
pub fn check_tail(case: &TailCase) -> Checked {
    let checked = |verdict, reference: String| Checked {
        verdict,
        stdout: reference.clone(),
        reference,
        rules: BTreeMap::new(),
        unsupported: None,
    };
    let report = match run_source(
        &case.source,
        RunOptions {
            max_steps: super::oracle::MAX_STEPS,
        },
    ) {
        Ok(r) => r,
        Err(d) => {
            return checked(
                Verdict::Invalid(format!("front end: {}", d.message)),
                String::new(),
            )
        }
    };
    match report.outcome {
        Outcome::Value(_) if report.stdout == case.expected => {
            checked(Verdict::Pass, report.stdout)
        }
        Outcome::Value(_) => checked(
            Verdict::Mismatch {
                config: "tail oracle vs direct evaluation".into(),
                expected: case.expected.clone(),
                got: report.stdout.clone(),
            },
            report.stdout,
        ),
        Outcome::Err(e) => checked(
            Verdict::Invalid(format!("run-time error: {}", e.reason)),
            report.stdout,
        ),
        Outcome::Limit => checked(Verdict::Invalid("step limit".into()), report.stdout),
    }
}
