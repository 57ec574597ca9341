//! FCL, the hierarchical GPU language of [T] chapter 5: surface syntax, parser and printer,
//! the prelude, level-polymorphic type inference and monomorphization.

pub mod builtins;
pub mod desugar;
pub mod infer;
pub mod lexer;
pub mod load;
pub mod mono;
pub mod parser;
pub mod printer;
#[cfg(test)]
mod roundtrip_tests;
mod stack;
pub mod syntax;
#[cfg(test)]
mod tests;
pub mod types;
