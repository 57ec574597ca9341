//! The compiler's commands: compile, exec, devices.

use super::{CompileArgs, ExecArgs, Exit, Lang};

fn not_yet(what: &str) -> Result<Exit, Exit> {
    eprintln!("error: {what} is not built yet");
    Err(Exit::Static)
}

pub fn compile(_lang: Lang, _a: &CompileArgs) -> Result<Exit, Exit> {
    not_yet("compile")
}

pub fn exec(_lang: Lang, _a: &ExecArgs) -> Result<Exit, Exit> {
    not_yet("exec")
}

pub fn devices() -> Result<Exit, Exit> {
    not_yet("devices")
}
