//! The differential check of one FCL program on the oracle: the program must load, and every
//! (machine shape, schedule) configuration must give the same observable result as the reference
//! (1x1, in-order). The reference run also counts rule firings for the coverage statistics.

use super::compiled::{compare_compiled_with, CompiledOutcome};
use compiler::fault::Fault;
use compiler::runtime::Runtime;
use interpreter::fcl::{self as oracle, Config};
use semantics::fcl::core::Expr;
use semantics::fcl::lower::load_program;
use semantics::fcl::machine::{Machine, Schedule, Scheduler};
use semantics::fcl::step::term::resolve;
use semantics::fcl::step::{Ctx, Fired, Outcome, Task};
use semantics::fcl::value::render_full;
use std::collections::BTreeMap;

/// Step budget of one run: generated programs are small, so hitting it means a generator bug.
pub const MAX_STEPS: u64 = 5_000_000;

/// The result of checking one program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Every configuration agreed.
    Pass,
    /// The program is not a valid test (front-end error, run-time error or step limit on the
    /// reference): a generator defect, counted against the validity rate.
    Invalid(String),
    /// A configuration disagreed with the reference.
    Mismatch {
        config: String,
        expected: String,
        got: String,
    },
}

/// The configurations compared against the reference, `seed` picking the random schedules.
pub fn configurations(seed: u64) -> Vec<Config> {
    let m = |b, t| Machine {
        blocks: b,
        threads: t,
    };
    let cfg = |machine, schedule| Config {
        machine,
        schedule,
        max_steps: MAX_STEPS,
    };
    vec![
        cfg(m(2, 4), Schedule::RoundRobin),
        cfg(m(2, 4), Schedule::Random(seed | 1)),
        cfg(m(4, 32), Schedule::InOrder),
        cfg(m(4, 32), Schedule::Random(seed.rotate_left(17) | 1)),
    ]
}

/// What checking one program found.
#[derive(Clone, Debug)]
pub struct Checked {
    pub verdict: Verdict,
    /// The reference's observable output (empty when the program did not load).
    pub reference: String,
    /// The reference's stdout, what a compiled program must print.
    pub stdout: String,
    /// Rule firings of the reference run, by `number name`.
    pub rules: BTreeMap<String, u64>,
    /// Why the compiler declined the program, when it did (the compiled side was then skipped).
    pub unsupported: Option<String>,
    /// The constructs its compiled code reaches ([`super::reach::reached`]; `None` when it
    /// was not compiled).
    pub reached: Option<Vec<&'static str>>,
}

/// Loads `src` and runs the differential check on the oracle only.
pub fn check_fcl(src: &str, seed: u64) -> Checked {
    check_fcl_on(src, seed, None)
}

/// Loads `src` and runs the differential check: oracle configurations, then, with a device
/// runtime, the compiled program at -O0 and -O2 (a compiler limitation counts as unsupported,
/// not as a mismatch).
pub fn check_fcl_on(src: &str, seed: u64, device: Option<&Runtime>) -> Checked {
    check_fcl_with_fault(src, seed, device, None)
}

/// [`check_fcl_on`] with `fault` injected into the compiled side.
pub fn check_fcl_with_fault(
    src: &str,
    seed: u64,
    device: Option<&Runtime>,
    fault: Option<Fault>,
) -> Checked {
    let (mut checked, main) = oracle_stage(src, seed);
    let (Some(rt), Some(main), Verdict::Pass) = (device, main, &checked.verdict) else {
        return checked;
    };
    match compare_compiled_with(&main, &checked.stdout, rt, fault) {
        CompiledOutcome::Agree => {}
        CompiledOutcome::Unsupported(why) => checked.unsupported = Some(why),
        CompiledOutcome::Differs { opt, got } => {
            checked.verdict = Verdict::Mismatch {
                config: format!("compiled {opt}"),
                expected: checked.stdout.clone(),
                got,
            }
        }
    }
    checked
}

/// The oracle's part of the check: `src` loads, and every configuration of
/// [`configurations`] gives the reference's observable result.
pub fn check_fcl_oracle(src: &str, seed: u64) -> Checked {
    oracle_stage(src, seed).0
}

/// [`check_fcl_oracle`], also giving the loaded program's `main` when it loaded.
fn oracle_stage(src: &str, seed: u64) -> (Checked, Option<Expr>) {
    let program = match load_program(&[("generated.fcl".to_string(), src.to_string())]) {
        Ok(p) => p,
        Err((_, d)) => {
            let checked = Checked {
                verdict: Verdict::Invalid(format!("front end: {}", d.message)),
                reference: String::new(),
                stdout: String::new(),
                rules: BTreeMap::new(),
                unsupported: None,
                reached: None,
            };
            return (checked, None);
        }
    };
    let mut rules = BTreeMap::new();
    let (reference, stdout) = match counted_reference(&program.main, &mut rules) {
        Ok(r) => r,
        Err(why) => {
            let checked = Checked {
                verdict: Verdict::Invalid(why),
                reference: String::new(),
                stdout: String::new(),
                rules,
                unsupported: None,
                reached: None,
            };
            return (checked, None);
        }
    };
    let mut verdict = Verdict::Pass;
    for cfg in configurations(seed) {
        let got = oracle::run(&program.main, &cfg).observable();
        if got != reference {
            verdict = Verdict::Mismatch {
                config: format!("oracle {} {}", cfg.machine, cfg.schedule),
                expected: reference.clone(),
                got,
            };
            break;
        }
    }
    let checked = Checked {
        verdict,
        reference,
        stdout,
        rules,
        unsupported: None,
        reached: None,
    };
    (checked, Some(program.main))
}

/// The reference run (1x1, in-order) with rule counting: the oracle's own stepping, with the
/// context tracing so group steps report their parts and every leaf firing is counted.
/// Gives the observable result and the stdout.
fn counted_reference(
    main: &Expr,
    rules: &mut BTreeMap<String, u64>,
) -> Result<(String, String), String> {
    let term = resolve(main).map_err(|d| format!("static: {}", d.message))?;
    let machine = Machine {
        blocks: 1,
        threads: 1,
    };
    let mut ctx = Ctx::new(Scheduler::new(Schedule::InOrder), true);
    let mut task = Task::new(term, machine.grid());
    let mut steps = 0u64;
    loop {
        if steps >= MAX_STEPS {
            return Err(format!("step limit ({MAX_STEPS}) on the reference"));
        }
        steps += 1;
        match task.step(&mut ctx) {
            Err(e) => return Err(format!("run-time error on the reference: {e}")),
            // the observable result exactly as `RunOutput::observable` renders it
            Ok(Outcome::Done(v)) => {
                let observable = format!("{}=> {}", ctx.stdout, render_full(&v));
                return Ok((observable, ctx.stdout));
            }
            Ok(Outcome::Fired(f)) => count(&f, rules),
        }
    }
}

fn count(f: &Fired, rules: &mut BTreeMap<String, u64>) {
    *rules.entry(f.rule.to_string()).or_default() += 1;
    for p in f.trace.iter().flat_map(|t| &t.parts) {
        count(p, rules);
    }
}
