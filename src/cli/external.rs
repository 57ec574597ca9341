//! The options that name external engines (compilers under test) for `conform` and `fuzz`
//! (docs/external-engines.md).

use super::Exit;
use clap::Args;
use conformance::external::ExternalEngine;
use std::time::Duration;

/// `--external NAME=TEMPLATE` (repeatable), its time limit and `--rejects-fail`.
#[derive(Args, Debug, Clone, Default)]
pub struct ExternalArgs {
    /// Also run every program on a compiler under test: a `sh -c` command line in which `{}`
    /// becomes the program's files (shell-quoted), run in the program's folder with stdin
    /// closed; its stdout is the output. Exit 0 and equal output passes, other output is a
    /// mismatch, a non-zero exit a rejection. Repeatable.
    #[arg(long, value_name = "NAME=TEMPLATE")]
    pub external: Vec<String>,
    /// Seconds an external engine may take on one program.
    #[arg(long, default_value_t = conformance::external::DEFAULT_TIMEOUT.as_secs())]
    pub external_timeout: u64,
    /// Count an external engine's rejection of a valid program as a failure.
    #[arg(long)]
    pub rejects_fail: bool,
}

impl ExternalArgs {
    /// The engines named, or exit 2 on a malformed one.
    pub fn engines(&self) -> Result<Vec<ExternalEngine>, Exit> {
        let timeout = Duration::from_secs(self.external_timeout.max(1));
        let mut engines: Vec<ExternalEngine> = Vec::new();
        for spec in &self.external {
            let e = ExternalEngine::parse(spec, timeout).map_err(|why| {
                eprintln!("error: {why}");
                Exit::Static
            })?;
            if engines.iter().any(|o| o.name == e.name) {
                eprintln!("error: two external engines are named `{}`", e.name);
                return Err(Exit::Static);
            }
            engines.push(e);
        }
        Ok(engines)
    }

    /// The options again, for a child process.
    pub fn to_args(&self) -> Vec<String> {
        let mut args = Vec::new();
        for spec in &self.external {
            args.push("--external".to_string());
            args.push(spec.clone());
        }
        args.push("--external-timeout".into());
        args.push(self.external_timeout.to_string());
        if self.rejects_fail {
            args.push("--rejects-fail".into());
        }
        args
    }
}
