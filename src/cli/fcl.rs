//! The FCL commands: check, run, step.

use super::{read_source, CheckArgs, Exit, RunArgs, StepArgs};
use semantics::fcl::load;

fn not_yet(what: &str) -> Result<Exit, Exit> {
    eprintln!("error: FCL {what} is not built yet");
    Err(Exit::Static)
}

/// `tailfcl check FILE.fcl…`: prints every top-level binding (prelude first) with its
/// generalised type (spec/fcl.md §6); a parse or type error is rendered against its file, exit 2.
pub fn check(a: &CheckArgs) -> Result<Exit, Exit> {
    let mut files = Vec::new();
    for path in &a.input.files {
        files.push((path.display().to_string(), read_source(path)?));
    }
    match load::check_program(&files, !a.input.no_prelude) {
        Ok(checked) => {
            print!("{}", checked.listing());
            Ok(Exit::Ok)
        }
        Err((file, d)) => {
            let src = files
                .iter()
                .find(|(n, _)| *n == file)
                .map(|(_, s)| s.as_str())
                .unwrap_or(match file.as_str() {
                    load::PRELUDE_NAME => load::PRELUDE,
                    _ => load::PRELUDE_THESIS,
                });
            eprint!("{}", d.render(&file, src));
            Err(Exit::Static)
        }
    }
}

pub fn run(_a: &RunArgs) -> Result<Exit, Exit> {
    not_yet("run")
}

pub fn step(_a: &StepArgs) -> Result<Exit, Exit> {
    not_yet("step")
}
