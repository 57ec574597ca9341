//! The compiler's commands: compile, exec, devices.

use super::{CompileArgs, ExecArgs, Exit, Lang};
use compiler::runtime::{list_devices, RuntimeError};

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

/// `tailfcl devices`: every OpenCL device, numbered for `--device`; none → exit 5.
pub fn devices() -> Result<Exit, Exit> {
    match list_devices() {
        Ok(ds) => {
            for d in ds {
                println!("{d}");
            }
            Ok(Exit::Ok)
        }
        Err(e) => Err(runtime_exit(&e)),
    }
}

/// Reports a runtime error and picks its exit status.
fn runtime_exit(e: &RuntimeError) -> Exit {
    eprintln!("error: {e}");
    match e {
        RuntimeError::NoPlatform(_) => Exit::NoDevice,
        _ => Exit::Internal,
    }
}
