//! FCL (thesis chapter 5): the core term language, its values and machine model, and the
//! small-step rules with cost and location.

pub mod build;
pub mod core;
pub mod machine;
pub mod step;
pub mod value;
