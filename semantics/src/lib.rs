//! TAIL and FCL as data: syntax with source spans, parsers, pretty printers, type systems and the
//! small-step reduction rules of the thesis (chapters 3 and 5 of Dybdal 2017).

pub mod diagnostic;
pub mod fcl;
pub mod span;

pub use diagnostic::{Diagnostic, Phase};
pub use span::Span;
pub mod tail;
pub mod view;
