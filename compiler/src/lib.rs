//! The companion optimizing compiler: FCL to OpenCL C, and its runtime.
//!
//! Pipeline: the front end's monomorphic core (`semantics::fcl::lower`) → [`lower`] (compile by
//! symbolic evaluation, spec §8.1: host structure evaluated at compile time, one kernel per
//! materialised grid push array, pull arrays fused as index functions) → [`kir`] (kernels and a
//! host plan; `kir::opt` at -O2; `kir::emit` prints OpenCL C) → [`exec`] runs the plan through
//! [`runtime`] (opencl3).

pub mod exec;
pub mod fault;
pub mod kir;
pub mod lower;
pub mod runtime;
pub mod tail;

/// The default work-group size, shared with `#BlockSize` (spec §4.4, §8.3).
pub const DEFAULT_BLOCK_SIZE: usize = 256;

/// Optimization level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptLevel {
    /// Everything off: the IR as lowering produced it.
    O0,
    /// The IR passes of `kir::opt`.
    O2,
}

/// Lowers a loaded FCL program's `main` to a module and optimizes it at `opt`.
pub fn compile_fcl(
    main: &semantics::fcl::core::Expr,
    opt: OptLevel,
    block_size: usize,
) -> Result<kir::Module, lower::LowerError> {
    let mut m = lower::lower_program(main, block_size)?;
    if opt == OptLevel::O2 {
        kir::opt::optimize(&mut m);
    }
    private_arrays_fit(&m)?;
    Ok(m)
}

/// Refuses a module that keeps a private array longer than [`lower::MAX_PRIVATE`] or of a
/// run-time size ([`kir::RUN_TIME_SIZE`]): a guard, since the lowering already carries such a
/// `seqfor`'s recurrence in a scalar ([`kir::opt::carried_recurrences`]: a scan of a long row
/// in one thread, by an operator with no identity) and refuses any other.
fn private_arrays_fit(m: &kir::Module) -> Result<(), lower::LowerError> {
    let mut longest = 0;
    for k in &m.kernels {
        kir::opt::walk::any_stmt(&k.body, &mut |s| {
            if let kir::Stmt::Private(_, _, n) = s {
                longest = longest.max(*n);
            }
            false
        });
    }
    if longest <= lower::MAX_PRIVATE {
        return Ok(());
    }
    let what = match longest {
        kir::RUN_TIME_SIZE => "a run-time size".to_string(),
        n => format!("{n} elements"),
    };
    Err(lower::LowerError::Unsupported(
        format!(
            "a private array of {what} (private arrays hold at most {})",
            lower::MAX_PRIVATE
        ),
        semantics::Span::DUMMY,
    ))
}

/// [`compile_fcl`] for one device: at -O2 on a device whose local memory is dedicated and
/// banked (GPUs), local arrays read across banks get padded rows ([`kir::opt::pad_local_arrays`]);
/// where local memory is global memory standing in (CPUs), the padding would only cost, and
/// local arrays that only stage global reads are forwarded
/// ([`kir::opt::forward_local_stores`]): each read recomputes its element, and innermost
/// sequential loops that the whole work-group runs get a barrier per trip, so that the device
/// vectorizes across work-items inside them ([`kir::opt::lockstep_loops`]).
pub fn compile_fcl_for_device(
    main: &semantics::fcl::core::Expr,
    opt: OptLevel,
    block_size: usize,
    device: &runtime::DeviceInfo,
) -> Result<kir::Module, lower::LowerError> {
    let mut m = compile_fcl(main, opt, block_size)?;
    if opt == OptLevel::O2 && device.dedicated_local_mem {
        for k in &mut m.kernels {
            kir::opt::pad_local_arrays(k, block_size as i32);
        }
    } else if opt == OptLevel::O2 {
        let mut forwarded = false;
        for k in &mut m.kernels {
            forwarded |= kir::opt::forward_local_stores(k);
        }
        // the recomputed reads fold with their surroundings; barriers that fenced only the
        // forwarded arrays go
        if forwarded {
            kir::opt::optimize(&mut m);
        }
        // last: the barriers fence no local memory, and the barrier pass would drop them
        for k in &mut m.kernels {
            kir::opt::lockstep_loops(k);
        }
    }
    Ok(m)
}

/// [`compile_fcl`] with a deliberate bug: `fault` is applied to the optimized module (see
/// [`fault`]); the flag says whether the program had a site for it.
pub fn compile_fcl_with_fault(
    main: &semantics::fcl::core::Expr,
    opt: OptLevel,
    block_size: usize,
    fault: Option<fault::Fault>,
) -> Result<(kir::Module, bool), lower::LowerError> {
    let mut m = compile_fcl(main, opt, block_size)?;
    let hit = fault.is_some_and(|f| fault::inject(&mut m, f));
    Ok((m, hit))
}

/// FCL program text `src` with each `val NAME = …` line of `sizes` set to its value: how the
/// benchmark programs (examples/fcl/bench) are run at other sizes than the ones they are written
/// with (`bench_programs`, `tailfcl cost-check`).
pub fn with_sizes<N: AsRef<str>, V: std::fmt::Display>(src: &str, sizes: &[(N, V)]) -> String {
    src.lines()
        .map(|line| {
            sizes
                .iter()
                .find(|(name, _)| line.starts_with(&format!("val {} = ", name.as_ref())))
                .map_or(line.to_string(), |(name, v)| {
                    format!("val {} = {v}", name.as_ref())
                })
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}
