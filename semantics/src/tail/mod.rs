//! TAIL, the typed array intermediate language of thesis chapter 3.

pub mod ops;
pub mod print_value;
pub mod step;
pub mod store;
pub mod value;
