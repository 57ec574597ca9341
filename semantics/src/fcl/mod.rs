//! FCL, the hierarchical GPU language of [T] chapter 5: surface syntax, parser and printer, the
//! prelude, level-polymorphic type inference and monomorphization (the front end); the core term
//! language, its values and machine model, and the small-step rules with cost and location (the
//! oracle).

pub mod build;
pub mod builtins;
pub mod core;
pub mod core_type;
pub mod desugar;
pub mod infer;
pub mod kinds;
pub mod lexer;
pub mod load;
pub mod lower;
pub mod machine;
pub mod mono;
pub mod parser;
pub mod printer;
pub mod quote;
pub mod scalar_op;
mod stack;
pub mod step;
pub mod syntax;
pub mod types;
pub mod value;

#[cfg(test)]
mod tests;

#[cfg(test)]
mod roundtrip_tests;

#[cfg(test)]
mod lower_tests;
