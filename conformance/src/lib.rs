//! Program generators, shrinkers, the differential tester, the conformance-suite runner,
//! external engines (compilers under test run as shell commands) and the cost check.
pub mod cost;
pub mod external;
pub mod fuzz;
pub mod gen;
pub mod shrink;
pub mod suite;
pub mod verify;
