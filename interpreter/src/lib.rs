//! The oracle: drives the TAIL and FCL small-step rules — run, step and trace, costs, limits.

pub mod fcl;
pub mod tail;
pub mod teach;
pub mod trace;

pub use trace::{StepRecord, TraceFormat, TraceWriter};
