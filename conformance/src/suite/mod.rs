//! The conformance-suite runner behind `tailfcl conform`.
//!
//! A **test** is a program `NAME.tail` or `NAME.fcl` with, next to it:
//! * `NAME.expected`: the exact expected stdout, or `NAME.expected-error`: one line, the error
//!   kind (see [`ErrorClass::of_kind`] for how kinds are grouped);
//! * optionally `NAME.machine`: the FCL machine `BxT` (B blocks of T threads) to run on;
//! * optionally `NAME.tolerance`: one number `eps`. Numbers in the output then compare equal when
//!   `|e - a| <= eps * max(1, |e|, |a|)`; everything else (shapes, brackets, line structure)
//!   still compares exactly. FCL programs may instead carry the header comment
//!   `-- tolerance: EPS` on one of their first lines (TAIL has no comments).
//!
//! [`discover`] finds tests, an [`Engine`] runs one (the oracle, the OpenCL compiler, or a test
//! double), [`judge`] compares its [`Outcome`] with the expectation, and [`Report`] collects one
//! CSV row per (test, engine) with the header
//! `test,engine,device,status,millis,steps,cost,work,detail`. An external engine (a compiler
//! under test, [`crate::external`]) adds the status `reject`: it exited non-zero on a valid
//! program.

mod cli_engine;
mod compare;
mod discover;
mod engine;
mod process;
mod report;
mod values;

pub use cli_engine::CliEngine;
pub use compare::{compare, Mismatch};
pub use discover::{discover, DiscoverError, Expectation, Lang, TestCase};
pub use engine::{Engine, ErrorClass, Outcome, RunStatus};
pub use process::{run_captured, Captured};
pub use report::{judge, run_suite, run_suite_with, Report, Row, Status};
