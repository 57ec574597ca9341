//! The meanings of TAIL's operators on values (spec §5), one function per operator or per
//! group of alike operators. The stepper ([`crate::tail::step`]) picks the function for a redex
//! `op(l⃗)`, reads the argument arrays from the store, and allocates the result.

pub mod apply;
pub mod io;
pub mod prim;
pub mod scalar;
pub mod select;
pub mod shape;

pub use scalar::Res;
