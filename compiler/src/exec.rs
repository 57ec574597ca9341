//! Running a compiled module: the host plan on an OpenCL device, printing like the oracle.
//!
//! Launches are enqueued without waiting; the queue drains only where the host needs a value (a
//! print, a host read, a host `while` trip after a launch that can fail, the end of a
//! `benchmark`, the end of the run), and the error flags are read there (`runtime::ErrorFlags`:
//! the first kernel that failed is named). Buffers come from a pool, so host loops and
//! `benchmark` repetitions reuse their allocations.

use crate::kir::emit::emit_module;
use crate::kir::eval::{eval_host, Lit};
use crate::kir::{HostStep, Init, Module, Param, Ty};
use crate::runtime::{
    Arg, BufferPool, BuiltProgram, DeviceBuffer, ErrorFlags, LaunchEvent, Runtime, RuntimeError,
};
use std::collections::HashMap;
use std::fmt;
use std::time::Instant;

pub use crate::kir::MAX_GROUPS;

/// The most iterations a host `while` loop runs before the run fails (the oracle's step limit
/// stops a non-terminating `while` too; generated programs terminate well before).
pub const MAX_WHILE_TRIPS: usize = 1 << 16;

/// Why a run failed.
#[derive(Debug)]
pub enum ExecError {
    Runtime(RuntimeError),
    /// A run-time error of the program (exit 3).
    Program(String),
    /// The device cannot run the module (exit 2, "unsupported: …").
    Unsupported(String),
}

impl fmt::Display for ExecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExecError::Runtime(e) => write!(f, "{e}"),
            ExecError::Program(m) => write!(f, "run-time error: {m}"),
            ExecError::Unsupported(m) => write!(f, "unsupported: {m}"),
        }
    }
}

impl From<RuntimeError> for ExecError {
    fn from(e: RuntimeError) -> ExecError {
        ExecError::Runtime(e)
    }
}

/// What a run did.
#[derive(Debug, Default)]
pub struct ExecReport {
    /// What the program printed.
    pub stdout: String,
    /// Per launch: kernel name and device nanoseconds.
    pub launches: Vec<(String, u64)>,
    /// What `benchmark` wrote (stderr).
    pub stderr: String,
    /// Bytes read back to the host.
    pub read_bytes: usize,
    /// The most device memory the run's arrays held at once, in bytes (the buffer pool's
    /// allocations, in use or free for reuse).
    pub peak_device_bytes: usize,
    /// Device buffers allocated (allocations no buffer of the pool could serve).
    pub allocations: usize,
    /// Each `benchmark` that ran, in order.
    pub benchmarks: Vec<BenchTiming>,
}

/// What one `benchmark n p` measured.
#[derive(Debug, Default, Clone, Copy)]
pub struct BenchTiming {
    /// Timed runs of the body (n; the warm-up run before them is not counted).
    pub runs: usize,
    /// Wall-clock nanoseconds of the timed runs, from the drained queue after the warm-up until
    /// the queue drained after the last.
    pub wall_ns: u64,
    /// Device nanoseconds of the launches in those runs (0 unless the queue profiles).
    pub kernel_ns: u64,
}

struct Buf {
    dev: DeviceBuffer,
    ty: Ty,
    host: Option<Vec<u8>>,
    /// The allocation site it was taken for (see [`BufferPool`]).
    site: Option<String>,
}

/// Builds and runs `m` on `rt`.
pub fn execute(m: &Module, rt: &Runtime) -> Result<ExecReport, ExecError> {
    let (report, r) = execute_keeping_output(m, rt);
    r.map(|()| report)
}

/// [`execute`], returning what the run printed and measured up to a failure too (a run-time
/// error keeps the output printed before it).
pub fn execute_keeping_output(m: &Module, rt: &Runtime) -> (ExecReport, Result<(), ExecError>) {
    if let Err(e) = check_local_memory(m, rt) {
        return (ExecReport::default(), Err(e));
    }
    let program = match rt.build(&emit_module(m)) {
        Ok(p) => p,
        Err(e) => return (ExecReport::default(), Err(e.into())),
    };
    run_plan(m, rt, &|k, groups, local, args| {
        rt.enqueue(&program, &m.kernels[k].name, groups, local, args)
    })
}

/// Runs `m`'s host plan with its kernels taken from `program`, built beforehand from source that
/// holds `m`'s kernels (possibly among other modules' kernels: the fuzzer builds a batch of
/// programs as one OpenCL program to pay the build cost once).
pub fn execute_built(
    m: &Module,
    rt: &Runtime,
    program: &BuiltProgram,
) -> Result<ExecReport, ExecError> {
    let (report, r) = execute_built_keeping_output(m, rt, program);
    r.map(|()| report)
}

/// [`execute_built`], returning what the run printed up to a failure too.
pub fn execute_built_keeping_output(
    m: &Module,
    rt: &Runtime,
    program: &BuiltProgram,
) -> (ExecReport, Result<(), ExecError>) {
    execute_with_launch_keeping_output(m, rt, &|k, groups, local, args| {
        rt.enqueue(program, &m.kernels[k].name, groups, local, args)
    })
}

/// How a plan's launches reach the device: `launch(kernel index, work-groups, work-group size,
/// arguments)` enqueues the kernel ([`Runtime::enqueue`]: without waiting, its event when the
/// queue profiles); the arguments are the error flag, then the kernel's parameters.
pub type Launch<'a> =
    dyn Fn(usize, usize, usize, &[Arg]) -> Result<Option<LaunchEvent>, RuntimeError> + 'a;

/// Runs `m`'s host plan with its launches going through `launch` (the fuzzer runs several
/// kernels through one dispatching kernel).
pub fn execute_with_launch(
    m: &Module,
    rt: &Runtime,
    launch: &Launch,
) -> Result<ExecReport, ExecError> {
    let (report, r) = execute_with_launch_keeping_output(m, rt, launch);
    r.map(|()| report)
}

/// [`execute_with_launch`], returning what the run printed up to a failure too.
pub fn execute_with_launch_keeping_output(
    m: &Module,
    rt: &Runtime,
    launch: &Launch,
) -> (ExecReport, Result<(), ExecError>) {
    if let Err(e) = check_local_memory(m, rt) {
        return (ExecReport::default(), Err(e));
    }
    run_plan(m, rt, launch)
}

/// `Unsupported` when a kernel of `m` needs more local memory than the device has.
pub fn check_local_memory(m: &Module, rt: &Runtime) -> Result<(), ExecError> {
    for k in &m.kernels {
        let bytes: usize = k.locals.iter().map(|(_, t, n)| t.size() * n).sum();
        if bytes as u64 > rt.device.local_mem_bytes {
            return Err(ExecError::Unsupported(format!(
                "{} needs {bytes} bytes of local memory; the device has {}",
                k.name, rt.device.local_mem_bytes
            )));
        }
    }
    Ok(())
}

/// The state of a plan's run.
struct State {
    report: ExecReport,
    env: HashMap<String, Lit>,
    bufs: HashMap<String, Buf>,
    flags: ErrorFlags,
    pool: BufferPool,
    /// Profiling events of launches not yet read: (index into `report.launches`, event).
    events: Vec<(usize, LaunchEvent)>,
    /// Per kernel of the module: whether it can set the error flag.
    may_fail: Vec<bool>,
}

/// Profiling events kept before the queue is drained to read them (bounds their memory).
const MAX_EVENTS: usize = 1 << 16;

/// Runs the plan: the report so far, and how the run ended.
fn run_plan(m: &Module, rt: &Runtime, launch: &Launch) -> (ExecReport, Result<(), ExecError>) {
    let flags = match ErrorFlags::new(rt) {
        Ok(f) => f,
        Err(e) => return (ExecReport::default(), Err(e.into())),
    };
    let mut st = State {
        report: ExecReport::default(),
        env: HashMap::new(),
        bufs: HashMap::new(),
        flags,
        pool: BufferPool::default(),
        events: Vec::new(),
        may_fail: m.kernels.iter().map(may_set_error_flag).collect(),
    };
    // the end of the run drains the queue: a failure of any launch is reported, never dropped;
    // a launch that failed before a host-side error failed first
    let r = match run_steps(m, rt, launch, &m.plan, &mut st) {
        Ok(()) => drain(rt, &mut st, true),
        Err(e) => match drain(rt, &mut st, true) {
            Err(earlier @ ExecError::Program(_)) => Err(earlier),
            _ => Err(e),
        },
    };
    st.report.peak_device_bytes = st.pool.peak_bytes();
    st.report.allocations = st.pool.allocations();
    (st.report, r)
}

/// Whether kernel `k` can write the error flag: its code names the flag beyond its header.
fn may_set_error_flag(k: &crate::kir::Kernel) -> bool {
    crate::kir::emit::emit_kernel(k)
        .matches(crate::kir::emit::ERROR_FLAG)
        .count()
        > 1
}

/// Waits for the queue, reads the error flags (all of them when `always`, else only when a
/// launch that can fail ran since the last read) and the pending profiling events.
fn drain(rt: &Runtime, st: &mut State, always: bool) -> Result<(), ExecError> {
    rt.finish()?;
    check_flags(rt, st, always)?;
    for (i, e) in st.events.drain(..) {
        if let Some(l) = st.report.launches.get_mut(i) {
            l.1 = e.nanos();
        }
    }
    Ok(())
}

/// Reads the error flags if a launch that can fail ran since the last read (which drains the
/// queue); a set flag is the program's run-time error, naming the kernel.
fn check_flags(rt: &Runtime, st: &mut State, always: bool) -> Result<(), ExecError> {
    match st.flags.check(rt, always)? {
        None => Ok(()),
        Some((kernel, code)) if code >= crate::kir::emit::CHECK_BASE => {
            Err(ExecError::Program(format!(
                "{} in {kernel}",
                semantics::fcl::step::scalar::check_failure(code - crate::kir::emit::CHECK_BASE)
            )))
        }
        Some((kernel, code)) => Err(ExecError::Program(format!(
            "{} in {kernel}",
            match code {
                1 => "division by zero",
                c if c == crate::kir::emit::TRIP_LIMIT_CODE => {
                    "a while loop ran more than 1048576 trips (does it terminate?)"
                }
                _ => "negative exponent (powi)",
            }
        ))),
    }
}

fn run_steps(
    m: &Module,
    rt: &Runtime,
    launch: &Launch,
    steps: &[HostStep],
    st: &mut State,
) -> Result<(), ExecError> {
    let prog_err = ExecError::Program;
    for step in steps {
        let mut no_read = |b: &str, _| Err(format!("host read of {b} inside an expression"));
        match step {
            HostStep::Set(h, _, e) => {
                let v = eval_host(e, &st.env, &mut no_read).map_err(prog_err)?;
                st.env.insert(h.to_string(), v);
            }
            HostStep::Alloc(b, ty, len, init) => {
                let n = int(eval_host(len, &st.env, &mut no_read).map_err(prog_err)?)?;
                if n < 0 {
                    return Err(ExecError::Program(format!("negative array size {n}")));
                }
                let zero = *init == Init::Zero;
                let dev = st.pool.take(rt, n as usize * ty.size(), Some(b), zero)?;
                put_buffer(st, b, dev, *ty, Some(b));
            }
            HostStep::Launch { kernel, groups } => {
                let k = &m.kernels[*kernel];
                let g = int(eval_host(groups, &st.env, &mut no_read).map_err(prog_err)?)?;
                if g <= 0 {
                    continue;
                }
                if st.flags.full() {
                    check_flags(rt, st, false)?;
                }
                if st.events.len() >= MAX_EVENTS {
                    drain(rt, st, false)?;
                }
                let may_fail = st.may_fail.get(*kernel).copied().unwrap_or(true);
                let mut args = vec![Arg::Buffer(st.flags.slot(&k.name, may_fail)?)];
                for p in &k.params {
                    match p {
                        Param::Buffer(b, _) => match st.bufs.get(&**b) {
                            Some(buf) => args.push(Arg::Buffer(&buf.dev)),
                            None => return Err(ExecError::Program(format!("no buffer {b}"))),
                        },
                        Param::Scalar(h, _) => match st.env.get(&**h) {
                            Some(Lit::Int(i)) => args.push(Arg::Int(*i)),
                            Some(Lit::Bool(b)) => args.push(Arg::Int(*b as i32)),
                            Some(Lit::Double(d)) => args.push(Arg::Double(*d)),
                            None => return Err(ExecError::Program(format!("{h} unset"))),
                        },
                    }
                }
                let groups = (g as usize).min(MAX_GROUPS);
                let event = launch(*kernel, groups, m.block_size, &args)?;
                st.report.launches.push((k.name.clone(), 0));
                if let Some(e) = event {
                    st.events.push((st.report.launches.len() - 1, e));
                }
            }
            HostStep::Read(h, ty, b, idx) => {
                let i = int(eval_host(idx, &st.env, &mut no_read).map_err(prog_err)?)?;
                check_flags(rt, st, false)?;
                let v = read_element(rt, st, b, *ty, i)?;
                st.env.insert(h.to_string(), v);
            }
            HostStep::Loop { var, n, body } => {
                let n = int(eval_host(n, &st.env, &mut no_read).map_err(prog_err)?)?;
                for i in 0..n.max(0) {
                    st.env.insert(var.to_string(), Lit::Int(i));
                    run_steps(m, rt, launch, body, st)?;
                }
            }
            HostStep::While { cond, test, body } => {
                let mut trips = 0usize;
                loop {
                    run_steps(m, rt, launch, cond, st)?;
                    // a failed trip stops the loop (drains only when a launch could fail)
                    check_flags(rt, st, false)?;
                    match eval_host(test, &st.env, &mut no_read).map_err(prog_err)? {
                        Lit::Bool(true) => {}
                        Lit::Bool(false) => break,
                        other => {
                            return Err(ExecError::Program(format!(
                                "while condition gave {other:?}, not a boolean"
                            )))
                        }
                    }
                    trips += 1;
                    if trips > MAX_WHILE_TRIPS {
                        return Err(ExecError::Program(format!(
                            "while<grid> ran more than {MAX_WHILE_TRIPS} iterations (it does not terminate?)"
                        )));
                    }
                    run_steps(m, rt, launch, body, st)?;
                }
            }
            HostStep::ReadCsv { buf, len, path } => {
                let text = std::fs::read_to_string(&**path)
                    .map_err(|e| ExecError::Program(format!("cannot read {path}: {e}")))?;
                let data = semantics::fcl::step::host::parse_int_csv(&text);
                let bytes: Vec<u8> = data.iter().flat_map(|x| x.to_le_bytes()).collect();
                let mut dev = st.pool.take(rt, bytes.len(), None, false)?;
                rt.write(&mut dev, &bytes)?;
                st.env.insert(len.to_string(), Lit::Int(data.len() as i32));
                put_buffer(st, buf, dev, Ty::Int, None);
            }
            HostStep::Clock(h) => {
                let ms = semantics::tail::ops::io::process_ms();
                st.env.insert(h.to_string(), Lit::Int(ms));
            }
            HostStep::Swap(a, b) => {
                let (Some(x), Some(y)) = (st.bufs.remove(&**a), st.bufs.remove(&**b)) else {
                    return Err(ExecError::Program(format!("swap of {a} and {b}")));
                };
                st.bufs.insert(a.to_string(), y);
                st.bufs.insert(b.to_string(), x);
            }
            HostStep::Benchmark { n, body } => {
                let n = int(eval_host(n, &st.env, &mut no_read).map_err(prog_err)?)?;
                // the warm-up (which builds kernels for their launch sizes, on PoCL) drains
                // before the timed runs start, so that they measure the steady state
                drain(rt, st, false)?;
                let start = Instant::now();
                run_steps(m, rt, launch, body, st)?;
                drain(rt, st, false)?;
                let first = st.report.launches.len();
                let timed = Instant::now();
                for _ in 0..n.max(0) {
                    run_steps(m, rt, launch, body, st)?;
                }
                drain(rt, st, false)?;
                st.report.benchmarks.push(BenchTiming {
                    runs: n.max(0) as usize,
                    wall_ns: timed.elapsed().as_nanos() as u64,
                    kernel_ns: st.report.launches[first..].iter().map(|l| l.1).sum(),
                });
                // the stderr line counts from before the warm-up, as the original's (§4.4)
                let ms = start.elapsed().as_millis() as f64 / n.max(1) as f64;
                st.report.stderr.push_str(&format!(
                    "Benchmark ({n} repetitions): {ms:.6} ms per run\n"
                ));
            }
            HostStep::Print {
                buf,
                ty,
                exact,
                n,
                len,
            } => {
                let n = int(eval_host(n, &st.env, &mut no_read).map_err(prog_err)?)?;
                let len = int(eval_host(len, &st.env, &mut no_read).map_err(prog_err)?)?;
                if n < 1 || n > len {
                    return Err(ExecError::Program(format!(
                        "forceAndPrint {n} of an array of {len} elements (needs 1 <= n <= size)"
                    )));
                }
                check_flags(rt, st, false)?;
                let bytes = read_prefix(rt, st, buf, n as usize * ty.size())?;
                st.report.stdout.push_str(&if *exact {
                    render_exact(&bytes)
                } else {
                    render(*ty, &bytes)
                });
            }
        }
    }
    Ok(())
}

/// Binds buffer name `b` to `dev`; the buffer it held is dead (a host loop's next trip, a
/// `benchmark`'s next run) and goes back to the pool.
fn put_buffer(st: &mut State, b: &str, dev: DeviceBuffer, ty: Ty, site: Option<&str>) {
    let old = st.bufs.insert(
        b.to_string(),
        Buf {
            dev,
            ty,
            host: None,
            site: site.map(str::to_string),
        },
    );
    if let Some(old) = old {
        st.pool.give(old.dev, old.site.as_deref());
    }
}

fn int(l: Lit) -> Result<i32, ExecError> {
    match l {
        Lit::Int(i) => Ok(i),
        other => Err(ExecError::Program(format!(
            "expected an int, got {other:?}"
        ))),
    }
}

/// Buffers of at most this many bytes are copied back whole for a host read of one element
/// (the copy then serves the buffer's other elements); larger ones copy only the element, which
/// matters in a host loop that reads one element of a large state on every trip.
const WHOLE_READ_BYTES: usize = 4096;

/// Element `i` of buffer `b`, read back to the host: from its host copy when there is one (or it
/// is small enough to copy whole), else that element alone.
fn read_element(rt: &Runtime, st: &mut State, b: &str, ty: Ty, i: i32) -> Result<Lit, ExecError> {
    let sz = ty.size();
    let out_of_bounds = || ExecError::Program(format!("index {i} out of bounds"));
    let buf = st
        .bufs
        .get(b)
        .ok_or_else(|| ExecError::Program(format!("no buffer {b}")))?;
    if buf.host.is_none() && buf.dev.bytes > WHOLE_READ_BYTES {
        let at = usize::try_from(i).map_err(|_| out_of_bounds())? * sz;
        if at + sz > buf.dev.bytes {
            return Err(out_of_bounds());
        }
        let bytes = rt.read_range(&buf.dev, at, sz)?;
        st.report.read_bytes += sz;
        return Lit::from_bytes(ty, &bytes).ok_or_else(out_of_bounds);
    }
    let bytes = host_copy(rt, &mut st.bufs, b, &mut st.report)?;
    (i >= 0)
        .then(|| Lit::from_bytes(ty, bytes.get(i as usize * sz..)?))
        .flatten()
        .ok_or_else(out_of_bounds)
}

/// The first `len` bytes of buffer `b` (what a print shows): from its host copy when there is
/// one or it is small enough to copy whole (as for [`read_element`]), else only those bytes.
fn read_prefix(rt: &Runtime, st: &mut State, b: &str, len: usize) -> Result<Vec<u8>, ExecError> {
    let buf = st
        .bufs
        .get(b)
        .ok_or_else(|| ExecError::Program(format!("no buffer {b}")))?;
    if buf.host.is_some() || buf.dev.bytes <= WHOLE_READ_BYTES {
        let host = host_copy(rt, &mut st.bufs, b, &mut st.report)?;
        return Ok(host[..len.min(host.len())].to_vec());
    }
    let len = len.min(buf.dev.bytes);
    let bytes = rt.read_range(&buf.dev, 0, len)?;
    st.report.read_bytes += len;
    Ok(bytes)
}

/// The host copy of a buffer (buffers are written once, so one read-back serves every use).
fn host_copy<'a>(
    rt: &Runtime,
    bufs: &'a mut HashMap<String, Buf>,
    b: &str,
    report: &mut ExecReport,
) -> Result<&'a [u8], ExecError> {
    let buf = bufs
        .get_mut(b)
        .ok_or_else(|| ExecError::Program(format!("no buffer {b}")))?;
    if buf.host.is_none() {
        let bytes = rt.read(&buf.dev)?;
        report.read_bytes += bytes.len();
        buf.host = Some(bytes);
    }
    let _ = buf.ty;
    Ok(buf.host.as_deref().unwrap_or(&[]))
}

/// One `forceAndPrintDoubleExact` line of doubles (docs/fcl-extensions.md): each element as the
/// oracle's `format_double_exact`, the shortest text that parses back to the same f64.
pub fn render_exact(bytes: &[u8]) -> String {
    let items: Vec<String> = bytes
        .chunks_exact(8)
        .filter_map(|c| c.try_into().ok().map(f64::from_le_bytes))
        .map(semantics::fcl::step::host::format_double_exact)
        .collect();
    format!("[{}]\n", items.join(","))
}

/// One printed line in the format of spec §4.4: `[a,b,c]`, ints as `%i`, doubles as `%.5f`.
pub fn render(ty: Ty, bytes: &[u8]) -> String {
    let items: Vec<String> = bytes
        .chunks(ty.size())
        .filter_map(|c| Lit::from_bytes(ty, c))
        .map(|l| match l {
            Lit::Int(i) => i.to_string(),
            Lit::Double(d) => semantics::fcl::step::host::format_double(d),
            Lit::Bool(b) => (b as i32).to_string(),
        })
        .collect();
    format!("[{}]\n", items.join(","))
}
