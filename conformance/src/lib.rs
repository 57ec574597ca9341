//! Program generators, shrinkers, the differential tester and the conformance-suite runner.
pub mod cost;
pub mod fuzz;
pub mod gen;
pub mod shrink;
pub mod suite;
pub mod verify;
