//! Program generators, shrinkers, the differential tester and the conformance-suite runner.
pub mod suite;
