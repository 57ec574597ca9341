//! `tailfcl`: the command line of the TAIL/FCL reference semantics, oracle and compiler.
//! The contract (commands, flags, exit codes) is fixed by docs/design.md.

mod cli;

use clap::Parser;

fn main() {
    // Output into a closed pipe (`tailfcl compile p.tail | head`) ends the process quietly, as
    // it does other Unix tools, instead of panicking in `println!` (Rust ignores SIGPIPE).
    // tailfcl writes to no child's stdin, so nothing else meets the signal.
    #[cfg(unix)]
    // SAFETY: setting a signal's disposition to the default, before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
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
