//! TAIL, the typed array intermediate language of thesis chapter 3.

pub mod lexer;
pub mod ops;
pub mod parser;
pub mod print_value;
pub mod printer;
pub mod shape;
pub mod step;
pub mod store;
pub mod syntax;
pub mod syntax_to_surface;
pub mod typecheck;
pub mod types;
pub mod value;
