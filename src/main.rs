//! `tailfcl`: the command line of the TAIL/FCL reference semantics, oracle and compiler.
//! The contract (commands, flags, exit codes) is fixed by docs/design.md.

mod cli;

use clap::Parser;

fn main() {
    // the clock of compiled `nowi` (FCL `nowMs`) starts with the process
    semantics::tail::ops::io::process_ms();
    // Deeply nested programs recurse deeply in the parser and checker; give them a big stack
    // rather than overflowing (inputs nested past the parsers' own depth limit are rejected there).
    let child = std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(|| cli::main(cli::Cli::parse()))
        .expect("spawning the main thread");
    let code = child.join().unwrap_or(cli::Exit::Internal);
    std::process::exit(code as i32);
}
