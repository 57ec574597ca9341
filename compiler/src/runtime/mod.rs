//! The OpenCL runtime on opencl3: platforms and devices, program builds (a failure shows the
//! build log and the offending source lines), byte buffers, 1-D launches timed by profiling
//! events, and read-back.

mod build_log;
mod oclgrind;

use opencl3::command_queue::{CommandQueue, CL_QUEUE_PROFILING_ENABLE};
use opencl3::context::Context;
use opencl3::device::{Device, CL_DEVICE_TYPE_ALL};
use opencl3::kernel::{ExecuteKernel, Kernel};
use opencl3::memory::{Buffer, CL_MEM_READ_WRITE};
use opencl3::platform::get_platforms;
use opencl3::program::Program;
use opencl3::types::{cl_device_id, CL_BLOCKING};

/// `CL_LOCAL` of `CL_DEVICE_LOCAL_MEM_TYPE` (the OpenCL headers' value).
const CL_LOCAL_MEM: u32 = 0x1;
use std::fmt;
use std::ptr;

pub use build_log::offending_lines;

/// How to install an OpenCL platform, for the "no platform" message.
pub const INSTALL_HINT: &str =
    "install one, e.g. `apt-get install ocl-icd-opencl-dev pocl-opencl-icd`";

/// A runtime failure.
#[derive(Debug, Clone, PartialEq)]
pub enum RuntimeError {
    /// No OpenCL platform or device (exit 5).
    NoPlatform(String),
    /// The generated program did not build: message with build log and source lines.
    Build(String),
    /// Any other OpenCL error.
    Cl(String),
    /// A launch the device cannot take (work-group size, local memory, argument bytes beyond
    /// its limits), refused before it reaches the driver.
    Limit(String),
}

impl fmt::Display for RuntimeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuntimeError::NoPlatform(m) => write!(f, "no OpenCL device: {m}; {INSTALL_HINT}"),
            RuntimeError::Build(m) => write!(f, "OpenCL build failed:\n{m}"),
            RuntimeError::Cl(m) => write!(f, "OpenCL error: {m}"),
            RuntimeError::Limit(m) => write!(f, "beyond the device's limits: {m}"),
        }
    }
}

fn cl<E: fmt::Display>(what: &str) -> impl Fn(E) -> RuntimeError + '_ {
    move |e| RuntimeError::Cl(format!("{what}: {e}"))
}

/// One device as `tailfcl devices` lists it.
#[derive(Debug, Clone)]
pub struct DeviceInfo {
    /// Index for `--device`.
    pub index: usize,
    pub platform: String,
    pub name: String,
    pub max_work_group_size: usize,
    pub local_mem_bytes: u64,
    pub global_mem_bytes: u64,
    /// Largest single buffer (`CL_DEVICE_MAX_MEM_ALLOC_SIZE`).
    pub max_alloc_bytes: u64,
    /// Largest total size of a kernel's arguments (`CL_DEVICE_MAX_PARAMETER_SIZE`).
    pub max_param_bytes: usize,
    /// Parallel compute units (`CL_DEVICE_MAX_COMPUTE_UNITS`).
    pub compute_units: u32,
    /// Whether local memory is dedicated on-chip memory (`CL_LOCAL`, split into banks, as on
    /// GPUs) rather than global memory standing in for it (CPU implementations such as PoCL).
    pub dedicated_local_mem: bool,
    id: cl_device_id,
}

impl fmt::Display for DeviceInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} / {} (max work-group {}, local {} KiB, global {} MiB, max alloc {} MiB, \
             parameters {} B, compute units {})",
            self.index,
            self.platform,
            self.name,
            self.max_work_group_size,
            self.local_mem_bytes / 1024,
            self.global_mem_bytes / (1024 * 1024),
            self.max_alloc_bytes / (1024 * 1024),
            self.max_param_bytes,
            self.compute_units
        )
    }
}

impl DeviceInfo {
    /// PoCL, the OpenCL implementation on the CPU (by platform name): the only one the fuzzer's
    /// batching dispatchers are meant for (see `conformance::fuzz::dispatch`).
    pub fn is_pocl(&self) -> bool {
        self.platform
            .to_lowercase()
            .contains("portable computing language")
            || self.platform.to_lowercase().contains("pocl")
    }

    /// Oclgrind, the OpenCL simulator (by platform name).
    pub fn is_oclgrind(&self) -> bool {
        self.platform.to_lowercase().contains("oclgrind")
    }

    /// Whether `spec` names this device: its index, or a case-insensitive fragment of
    /// "platform / name" (`nvidia`, `pocl`, `oclgrind`).
    pub fn matches(&self, spec: &str) -> bool {
        let spec = spec.trim();
        if let Ok(i) = spec.parse::<usize>() {
            return i == self.index;
        }
        let s = spec.to_lowercase();
        !s.is_empty()
            && (format!("{} / {}", self.platform, self.name)
                .to_lowercase()
                .contains(&s)
                // "pocl" names PoCL although its platform calls itself by its long name
                || (s == "pocl" && self.is_pocl()))
    }
}

/// The index of the first device `spec` names (an index or a name fragment, see
/// [`DeviceInfo::matches`]).
pub fn find_device(spec: &str) -> Result<usize, RuntimeError> {
    let devices = list_devices()?;
    devices
        .iter()
        .find(|d| d.matches(spec))
        .map(|d| d.index)
        .ok_or_else(|| {
            let names: Vec<String> = devices
                .iter()
                .map(|d| format!("{}: {} / {}", d.index, d.platform, d.name))
                .collect();
            RuntimeError::NoPlatform(format!(
                "no device matches `{spec}` (devices: {})",
                names.join("; ")
            ))
        })
}

/// The build options actually passed to `device`'s compiler. Oclgrind always gets
/// `-cl-opt-disable`: its own Clang at -O2 turns `a < 0 ? -a : a` into `llvm.abs.i32` (and
/// similar patterns into other intrinsics) that its interpreter does not implement ("Undefined
/// external function"), and it checks the emitted code, not a C optimizer.
pub fn device_build_options(device: &DeviceInfo, options: &str) -> String {
    if device.is_oclgrind() && !options.split_whitespace().any(|o| o == "-cl-opt-disable") {
        format!("{options} -cl-opt-disable").trim().to_string()
    } else {
        options.to_string()
    }
}

/// Serializes platform discovery, context creation and program builds across threads: PoCL
/// (seen with 3.1 on Debian 12) crashes when several threads create contexts or build at once,
/// as the test harness does. Launches and transfers on separate contexts need no lock.
static DRIVER_LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn driver_lock() -> std::sync::MutexGuard<'static, ()> {
    // A panic while holding the lock leaves no OpenCL state half-made that we rely on.
    DRIVER_LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

/// Every device of every platform, numbered in order.
pub fn list_devices() -> Result<Vec<DeviceInfo>, RuntimeError> {
    let _guard = driver_lock();
    list_devices_locked()
}

fn list_devices_locked() -> Result<Vec<DeviceInfo>, RuntimeError> {
    let platforms = get_platforms().map_err(|e| RuntimeError::NoPlatform(e.to_string()))?;
    if platforms.is_empty() {
        return Err(RuntimeError::NoPlatform("no OpenCL platform found".into()));
    }
    let mut out = Vec::new();
    for p in platforms {
        let pname = p.name().unwrap_or_default();
        for id in p.get_devices(CL_DEVICE_TYPE_ALL).unwrap_or_default() {
            let d = Device::new(id);
            out.push(DeviceInfo {
                index: out.len(),
                platform: pname.clone(),
                name: d.name().unwrap_or_default(),
                max_work_group_size: d.max_work_group_size().unwrap_or(1),
                local_mem_bytes: d.local_mem_size().unwrap_or(0),
                global_mem_bytes: d.global_mem_size().unwrap_or(0),
                max_alloc_bytes: d.max_mem_alloc_size().unwrap_or(0),
                max_param_bytes: d.max_parameter_size().unwrap_or(256),
                compute_units: d.max_compute_units().unwrap_or(1),
                dedicated_local_mem: d.local_mem_type().is_ok_and(|t| t == CL_LOCAL_MEM),
                id,
            });
        }
    }
    if out.is_empty() {
        return Err(RuntimeError::NoPlatform("no OpenCL device found".into()));
    }
    Ok(out)
}

/// A context and profiling queue on one device.
pub struct Runtime {
    pub device: DeviceInfo,
    context: Context,
    queue: CommandQueue,
    /// On Oclgrind under `--log`: its log, read after each launch.
    oclgrind_log: Option<oclgrind::ErrorLog>,
}

/// A device buffer of raw bytes (element types are the caller's business).
pub struct DeviceBuffer {
    buf: Buffer<u8>,
    /// Size in bytes.
    pub bytes: usize,
}

/// A built program with its kernels.
pub struct BuiltProgram {
    program: Program,
}

/// A kernel argument.
pub enum Arg<'a> {
    Buffer(&'a DeviceBuffer),
    Int(i32),
    Double(f64),
    /// `__local` memory of this many bytes.
    Local(usize),
}

impl Runtime {
    /// Opens device `index` of [`list_devices`].
    pub fn new(index: usize) -> Result<Runtime, RuntimeError> {
        let _guard = driver_lock();
        let devices = list_devices_locked()?;
        let n = devices.len();
        let device = devices.into_iter().nth(index).ok_or_else(|| {
            RuntimeError::NoPlatform(format!("no device {index} (there are {n})"))
        })?;
        let context = Context::from_device(&Device::new(device.id)).map_err(cl("context"))?;
        let queue =
            CommandQueue::create_default_with_properties(&context, CL_QUEUE_PROFILING_ENABLE, 0)
                .map_err(cl("command queue"))?;
        let oclgrind_log = device
            .is_oclgrind()
            .then(oclgrind::ErrorLog::from_env)
            .flatten();
        Ok(Runtime {
            device,
            context,
            queue,
            oclgrind_log,
        })
    }

    /// Builds OpenCL C source; a failure carries the build log and the source lines it names.
    pub fn build(&self, src: &str) -> Result<BuiltProgram, RuntimeError> {
        self.build_with_options(src, "")
    }

    /// [`Runtime::build`] with OpenCL build options (`-cl-opt-disable`, …).
    pub fn build_with_options(
        &self,
        src: &str,
        options: &str,
    ) -> Result<BuiltProgram, RuntimeError> {
        let options = device_build_options(&self.device, options);
        let _guard = driver_lock();
        Program::create_and_build_from_source(&self.context, src, &options)
            .map(|program| BuiltProgram { program })
            .map_err(|log| RuntimeError::Build(format!("{log}\n{}", offending_lines(&log, src))))
    }

    /// A zero-filled buffer of `bytes` bytes (at least one byte is allocated).
    pub fn alloc(&self, bytes: usize) -> Result<DeviceBuffer, RuntimeError> {
        // SAFETY: no host pointer is passed; the size is positive.
        let buf = unsafe {
            Buffer::<u8>::create(
                &self.context,
                CL_MEM_READ_WRITE,
                bytes.max(1),
                ptr::null_mut(),
            )
        }
        .map_err(cl("allocation"))?;
        let mut dev = DeviceBuffer { buf, bytes };
        self.write(&mut dev, &vec![0u8; bytes.max(1)])?;
        Ok(dev)
    }

    /// Copies `data` into the start of `buf` (blocking).
    pub fn write(&self, buf: &mut DeviceBuffer, data: &[u8]) -> Result<(), RuntimeError> {
        // SAFETY: blocking write of a slice no larger than the buffer.
        unsafe {
            self.queue
                .enqueue_write_buffer(&mut buf.buf, CL_BLOCKING, 0, data, &[])
                .map_err(cl("write"))?;
        }
        Ok(())
    }

    /// Reads the whole buffer back (blocking).
    pub fn read(&self, buf: &DeviceBuffer) -> Result<Vec<u8>, RuntimeError> {
        let mut out = vec![0u8; buf.bytes.max(1)];
        // SAFETY: blocking read into a slice of the buffer's size.
        unsafe {
            self.queue
                .enqueue_read_buffer(&buf.buf, CL_BLOCKING, 0, &mut out, &[])
                .map_err(cl("read"))?;
        }
        out.truncate(buf.bytes);
        Ok(out)
    }

    /// Launches `kernel` 1-D with `groups` work-groups of `local` work-items; waits and returns
    /// the kernel's device time in nanoseconds (from its profiling event).
    pub fn launch(
        &self,
        program: &BuiltProgram,
        kernel: &str,
        groups: usize,
        local: usize,
        args: &[Arg],
    ) -> Result<u64, RuntimeError> {
        self.check_launch(kernel, local, args)?;
        let k = Kernel::create(&program.program, kernel).map_err(cl("kernel"))?;
        let mut exec = ExecuteKernel::new(&k);
        // SAFETY: the argument kinds follow the kernel's signature, which the caller generated.
        unsafe {
            for a in args {
                match a {
                    Arg::Buffer(b) => exec.set_arg(&b.buf),
                    Arg::Int(i) => exec.set_arg(i),
                    Arg::Double(d) => exec.set_arg(d),
                    Arg::Local(bytes) => exec.set_arg_local_buffer(*bytes),
                };
            }
        }
        exec.set_global_work_size(groups.max(1) * local)
            .set_local_work_size(local);
        // SAFETY: every argument is set and the sizes are consistent.
        let event = unsafe { exec.enqueue_nd_range(&self.queue) }.map_err(cl("launch"))?;
        event.wait().map_err(cl("kernel run"))?;
        if let Some(log) = &self.oclgrind_log {
            log.check(kernel)?;
        }
        let start = event.profiling_command_start().unwrap_or(0);
        let end = event.profiling_command_end().unwrap_or(start);
        Ok(end.saturating_sub(start))
    }

    /// Refuses a launch beyond the device's limits as queried at run time (a driver may
    /// otherwise fail it with a bare error code, or, seen with some, misbehave).
    pub fn check_launch(
        &self,
        kernel: &str,
        local: usize,
        args: &[Arg],
    ) -> Result<(), RuntimeError> {
        let d = &self.device;
        if local > d.max_work_group_size {
            return Err(RuntimeError::Limit(format!(
                "kernel {kernel}: work-group of {local} work-items, the device takes at most {}",
                d.max_work_group_size
            )));
        }
        let local_bytes: usize = args
            .iter()
            .map(|a| if let Arg::Local(b) = a { *b } else { 0 })
            .sum();
        if local_bytes as u64 > d.local_mem_bytes {
            return Err(RuntimeError::Limit(format!(
                "kernel {kernel}: {local_bytes} bytes of local memory, the device has {}",
                d.local_mem_bytes
            )));
        }
        // a buffer argument is a pointer; scalars as their size; local memory as a pointer
        let param_bytes: usize = args
            .iter()
            .map(|a| match a {
                Arg::Int(_) => 4,
                Arg::Double(_) | Arg::Buffer(_) | Arg::Local(_) => 8,
            })
            .sum();
        if param_bytes > d.max_param_bytes {
            return Err(RuntimeError::Limit(format!(
                "kernel {kernel}: {param_bytes} bytes of arguments, the device takes at most {}",
                d.max_param_bytes
            )));
        }
        Ok(())
    }
}
