//! The small-step relation of TAIL's store semantics (thesis §3.1.3 and §3.1.5, rules
//! 3.27–3.60, with the operator meanings of spec §5): configurations, evaluation contexts, and
//! [`Machine::step`], which takes exactly one rule step.

pub mod compile;
mod config;
mod fire;
mod iterate;
pub mod machine;
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
pub mod view;

pub use machine::{Machine, StepError, StepInfo, Stepped, TraceInfo};
pub use rules::Rule;
pub use term::{Program, Value};

/// Parses, type checks (rules 3.6–3.26) and compiles a TAIL program text for the stepper, so
/// that ill-typed programs never reach it: parse and type errors come back as diagnostics.
pub fn load(src: &str) -> Result<std::rc::Rc<Program>, crate::Diagnostic> {
    let e = crate::tail::parser::parse(src)?;
    let zildes: std::collections::HashMap<_, _> = crate::tail::typecheck::zilde_instances(&e)?
        .into_iter()
        .filter(|&(_, ty)| ty != crate::tail::value::BaseType::Int)
        .collect();
    let surface = crate::tail::syntax_to_surface::to_surface(&e);
    let mut prog =
        compile::compile(&surface).map_err(|c| crate::Diagnostic::type_error(c.span, c.message))?;
    for (id, node) in prog.nodes.iter().enumerate() {
        if let term::Node::Op { prim, span, .. } = node {
            if let (crate::tail::ops::prim::Prim::Zilde, Some(&ty)) = (prim, zildes.get(span)) {
                prog.zilde_types.insert(id as term::NodeId, ty);
            }
        }
    }
    Ok(std::rc::Rc::new(prog))
}
