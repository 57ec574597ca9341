//! The conformance commands: fuzz, conform.

use super::{ConformArgs, Exit, FuzzArgs};

fn not_yet(what: &str) -> Result<Exit, Exit> {
    eprintln!("error: {what} is not built yet");
    Err(Exit::Static)
}

pub fn fuzz(_a: &FuzzArgs) -> Result<Exit, Exit> {
    not_yet("fuzz")
}

pub fn conform(_a: &ConformArgs) -> Result<Exit, Exit> {
    not_yet("conform")
}
