//! Shrinkers: smaller variants of a failing program that stay well typed.

pub mod fcl;
pub mod tail;
pub mod tail_expr;
