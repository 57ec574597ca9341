//! Staged lowering: values that only the device knows.
//!
//! The lowering keeps shapes static, but a TAIL program's sizes, counts and conditions may be
//! computed from data (`compress` by a computed mask, `drop` by a computed count, `iota` of a
//! reduction, a `power` count, the condition of an `if` with array branches). Where the
//! lowering needs such a value at the top level of the program, it asks for it: the request is
//! an FCL program of the statements lowered so far that prints the value last
//! ([`ProbeRequest`]). [`lower_tail_probing`] runs it (on the device the program will run on),
//! reads the value back, and lowers the program again from the start with the answer given:
//! the lowering is deterministic, so it asks the same questions in the same order and this time
//! the value is known. The final program is specialised to the values read back, the way a JIT
//! specialises on sizes: only those values (sizes, counts, conditions) cross to the host, never
//! the arrays they describe, but the statements before a request run once per request.

use super::fault::LoweringFault;
use super::lowerer::Lowerer;
use super::program::lower_expr_with;
use super::value::{Arr, R};
use super::{parse_output, FclProgram, LowerTailError, Lowered, Output};
use crate::exec::execute;
use crate::runtime::Runtime;
use crate::{compile_fcl_for_device, OptLevel};
use semantics::tail::value::Array;
use std::rc::Rc;

/// The most values one program may read back from the device while it is lowered.
pub const MAX_PROBES: usize = 256;

/// A value the lowering needs: the FCL program that prints it last, and how it prints.
#[derive(Clone, Debug)]
pub struct ProbeRequest {
    /// A complete FCL program: the statements lowered so far, then the value's print.
    pub fcl: FclProgram,
    /// The value's TAIL shape and element kind.
    pub output: Output,
    /// Why the lowering needs it ("a drop count not known at compile time"): the refusal
    /// when there is no device to ask.
    pub why: String,
    /// The program of the statements before the request, without the value's print: what
    /// runs when one of their checks fails while the value is computed (the TAIL program
    /// fails there, and its run reports the check's rule and place).
    pub before: Box<Lowered>,
}

/// Runs a complete FCL program and returns its standard output (or why it could not).
pub type Prober<'a> = dyn FnMut(&FclProgram) -> Result<String, String> + 'a;

/// Parses, type checks and lowers a TAIL program, running the programs of its requests
/// ([`ProbeRequest`]) with `probe` and lowering again with their values, until the lowering
/// needs no more.
pub fn lower_tail_probing(src: &str, probe: &mut Prober) -> Result<Lowered, LowerTailError> {
    lower_staged(src, Some(probe), None)
}

/// [`lower_tail_probing`]; without a prober, a request is the refusal it carries.
pub(super) fn lower_staged(
    src: &str,
    mut probe: Option<&mut Prober>,
    fault: Option<LoweringFault>,
) -> Result<Lowered, LowerTailError> {
    let e = semantics::tail::parser::parse(src).map_err(LowerTailError::Static)?;
    semantics::tail::typecheck::typecheck(&e).map_err(LowerTailError::Static)?;
    // the printed lines the device answered with (values hold `Rc`s, and the lowering runs
    // on a thread of its own with a deep stack)
    let mut answers: Vec<(Output, String)> = Vec::new();
    loop {
        let lowered = semantics::tail::parser::on_deep_stack(|| {
            let given: Rc<[Rc<Array>]> = answers
                .iter()
                .filter_map(|(o, line)| parse_output(o, line).map(Rc::new))
                .collect();
            lower_expr_with(&e, given, fault)
        });
        match lowered {
            Err(LowerTailError::Probe(req)) => {
                let Some(probe) = probe.as_deref_mut() else {
                    return Err(LowerTailError::Unsupported(req.why));
                };
                if answers.len() >= MAX_PROBES {
                    return Err(LowerTailError::Unsupported(format!(
                        "{} (the program reads back more than {MAX_PROBES} values computed on \
                         the device)",
                        req.why
                    )));
                }
                let stdout = match probe(&req.fcl) {
                    Ok(stdout) => stdout,
                    // the statements before the request fail, or the value's own checks (a
                    // negative extent in a shape's product): so does the program, there. The
                    // request is the program up to that point, printing what it prints
                    // before; it fails before it prints the value.
                    Err(e) if super::failed_at(&req.before, &e).is_some() => {
                        return Ok(Lowered {
                            fcl: req.fcl,
                            ..*req.before
                        })
                    }
                    Err(e) => {
                        return Err(LowerTailError::Unsupported(format!(
                            "{}: computing it on the device failed: {e}",
                            req.why
                        )))
                    }
                };
                let line = if req.output.lines() > 0 {
                    stdout.lines().last().unwrap_or_default()
                } else {
                    "[]"
                };
                if parse_output(&req.output, line).is_none() {
                    return Err(LowerTailError::Unsupported(format!(
                        "{}: the device printed {line:?}, not a value of shape {:?}",
                        req.why, req.output.shape
                    )));
                }
                answers.push((req.output.clone(), line.to_string()));
            }
            r => return r,
        }
    }
}

/// A prober that compiles each request and runs it on `rt` (work-groups of `block_size`).
pub fn device_prober(
    rt: &Runtime,
    block_size: usize,
) -> impl FnMut(&FclProgram) -> Result<String, String> + '_ {
    move |fcl: &FclProgram| {
        let program = fcl
            .load()
            .map_err(|(_, d)| format!("the lowered program does not load: {}", d.message))?;
        let m = compile_fcl_for_device(&program.main, OptLevel::O2, block_size, &rt.device)
            .map_err(|e| e.to_string())?;
        execute(&m, rt).map(|r| r.stdout).map_err(|e| e.to_string())
    }
}

impl Lowerer {
    /// `a` with its value known: as it is when the lowering knows it; else, at the top level
    /// of the program, the value the device computed for an earlier lowering, or a request
    /// for it. `why` says what the value decides ("a drop count not known at compile time"):
    /// inside a function body, where there is no program to run, it is the refusal.
    pub(super) fn probe(&mut self, a: &Arr, why: &str) -> R<Arr> {
        if a.known.is_some() {
            return Ok(a.clone());
        }
        if self.kernel || self.in_loop {
            return super::value::unsupported(why);
        }
        let k = self.probed;
        self.probed += 1;
        if let Some(v) = self.answers.get(k) {
            return Ok(Arr::known((**v).clone()));
        }
        let before = Box::new(Lowered {
            fcl: self.program_text(None)?,
            prints: self.outputs.clone(),
            result: None,
            failure: None,
            probes: k,
            sites: self.fresh.sites(),
        });
        // the program so far, printing `a` last; the statements go again (the request ends
        // this lowering, and the next one makes them anew)
        let saved = self.checkpoint();
        self.print(a, false)?;
        let output = self.outputs.pop();
        let fcl = self.program_text(None);
        self.restore(saved);
        let (Some(output), fcl) = (output, fcl?) else {
            return super::value::unsupported(why);
        };
        Err(LowerTailError::Probe(Box::new(ProbeRequest {
            fcl,
            output,
            why: why.to_string(),
            before,
        })))
    }
}
