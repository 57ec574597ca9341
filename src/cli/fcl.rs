//! The FCL commands: check, run, step.

use super::{CheckArgs, Exit, RunArgs, StepArgs};

fn not_yet(what: &str) -> Result<Exit, Exit> {
    eprintln!("error: FCL {what} is not built yet");
    Err(Exit::Static)
}

pub fn check(_a: &CheckArgs) -> Result<Exit, Exit> {
    not_yet("check")
}

pub fn run(_a: &RunArgs) -> Result<Exit, Exit> {
    not_yet("run")
}

pub fn step(_a: &StepArgs) -> Result<Exit, Exit> {
    not_yet("step")
}
