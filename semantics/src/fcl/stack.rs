//! The front end's passes recurse over the syntax tree, which the parser limits to
//! `parser::MAX_DEPTH` levels. Unoptimised builds use large stack frames, so each public entry
//! point runs its passes on a helper thread with a generous stack: deep (but accepted) programs
//! then work on any calling thread, including default-sized test threads.

/// Stack size of the helper thread.
const STACK_BYTES: usize = 256 << 20;

/// Runs `f` on a thread with a large stack and returns its result (panics propagate).
pub fn with_big_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|s| {
        match std::thread::Builder::new()
            .stack_size(STACK_BYTES)
            .spawn_scoped(s, f)
        {
            Ok(handle) => match handle.join() {
                Ok(v) => v,
                Err(panic) => std::panic::resume_unwind(panic),
            },
            // Could not start a thread (resource limits): the caller's stack must do.
            Err(e) => panic!("cannot start the front end's worker thread: {e}"),
        }
    })
}
