//! The TAIL oracle: drives [`semantics::tail::step::Machine`] to a value (`run`) or records every
//! step (`trace`). Both use the same loop, [`drive`].

mod drive;

pub use drive::{
    drive, err_record, record, run, run_source, trace, Outcome, Report, RunOptions, Stats,
};
