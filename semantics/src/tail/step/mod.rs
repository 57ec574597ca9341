//! The small-step relation of TAIL's store semantics (thesis §3.1.3 and §3.1.5, rules
//! 3.27–3.60, with the operator meanings of spec §5): configurations, evaluation contexts, and
//! [`Machine::step`], which takes exactly one rule step.

pub mod compile;
mod config;
mod fire;
mod iterate;
pub mod machine;
pub mod reader;
pub mod rules;
pub mod show;
pub mod term;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_config;
#[cfg(test)]
mod tests_differential;
#[cfg(test)]
mod tests_programs;
#[cfg(test)]
mod tests_rules;
pub mod typing;

pub use machine::{Machine, StepError, StepInfo, Stepped, TraceInfo};
pub use rules::Rule;
pub use term::{Program, Value};

/// Reads and compiles a TAIL program text for the stepper. Unknown names and wrong arities are
/// reported as type errors, syntax errors as parse errors.
pub fn load(src: &str) -> Result<std::rc::Rc<Program>, crate::Diagnostic> {
    let e = reader::read(src)?;
    compile::compile_rc(&e).map_err(|c| crate::Diagnostic::type_error(c.span, c.message))
}
