//! The OpenCL runtime on opencl3: platforms and devices, program builds (a failure shows the
//! build log and the offending source lines), byte buffers filled on the device, 1-D launches
//! enqueued without waiting (kernel objects made once per program; profiling events only when
//! the queue profiles), and read-back.

mod build_log;
mod flags;
mod oclgrind;
mod pool;

use opencl3::command_queue::{CommandQueue, CL_QUEUE_PROFILING_ENABLE};
use opencl3::context::Context;
use opencl3::device::{Device, CL_DEVICE_TYPE_ALL};
use opencl3::event::Event;
use opencl3::kernel::{ExecuteKernel, Kernel};
use opencl3::memory::{Buffer, ClMem, CL_MEM_READ_WRITE};
use opencl3::platform::get_platforms;
use opencl3::program::Program;
use opencl3::types::{cl_device_id, CL_BLOCKING};
use std::collections::HashMap;
use std::sync::Mutex;

/// `CL_LOCAL` of `CL_DEVICE_LOCAL_MEM_TYPE` (the OpenCL headers' value).
const CL_LOCAL_MEM: u32 = 0x1;
use std::fmt;
use std::ptr;

pub use build_log::offending_lines;
pub use flags::{ErrorFlags, FLAG_SLOTS};
pub use pool::BufferPool;

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
    /// An allocation larger than the device allows (`CL_DEVICE_MAX_MEM_ALLOC_SIZE`): a limit of
    /// the device, not a fault of the program (exit 4).
    TooLarge(String),
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
            RuntimeError::TooLarge(m) => write!(f, "{m}"),
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

/// A context and an in-order queue on one device. The queue profiles (launches give device
/// times) unless [`Runtime::set_profiling`] turned that off.
pub struct Runtime {
    pub device: DeviceInfo,
    context: Context,
    queue: CommandQueue,
    profiling: bool,
    /// On Oclgrind under `--log`: its log, read after each launch.
    oclgrind_log: Option<oclgrind::ErrorLog>,
    /// On Oclgrind under `--uninitialized`: buffers are never freed (see
    /// [`Runtime::alloc_uninit`]).
    keep_buffers: bool,
}

/// A device buffer of raw bytes (element types are the caller's business).
pub struct DeviceBuffer {
    buf: Buffer<u8>,
    /// Size in bytes: what reads copy back (a reused allocation may be larger).
    pub bytes: usize,
    /// Bytes of the allocation, at least `bytes` ([`BufferPool`] reuses a buffer for a smaller
    /// array).
    pub capacity: usize,
}

/// A built program with its kernel objects, each made on its first launch and reused after
/// (`clCreateKernel` per launch cost more than the launch itself on a GPU).
pub struct BuiltProgram {
    program: Program,
    kernels: Mutex<HashMap<String, Kernel>>,
}

/// A launch in flight: its profiling event (only on a profiling queue).
pub struct LaunchEvent(Event);

impl LaunchEvent {
    /// The kernel's device time in nanoseconds; call after the queue has drained.
    pub fn nanos(&self) -> u64 {
        let start = self.0.profiling_command_start().unwrap_or(0);
        let end = self.0.profiling_command_end().unwrap_or(start);
        end.saturating_sub(start)
    }
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
        let keep_buffers = device.is_oclgrind() && oclgrind::checks_uninitialized();
        Ok(Runtime {
            device,
            context,
            queue,
            profiling: true,
            oclgrind_log,
            keep_buffers,
        })
    }

    /// Makes the queue profile launches (their device times) or not; call before any work is
    /// enqueued (the queue is replaced). Without profiling, launches return no events.
    pub fn set_profiling(&mut self, on: bool) -> Result<(), RuntimeError> {
        if on != self.profiling {
            let props = if on { CL_QUEUE_PROFILING_ENABLE } else { 0 };
            self.queue = CommandQueue::create_default_with_properties(&self.context, props, 0)
                .map_err(cl("command queue"))?;
            self.profiling = on;
        }
        Ok(())
    }

    /// Whether launches are profiled.
    pub fn profiling(&self) -> bool {
        self.profiling
    }

    /// The largest single allocation the device allows (`CL_DEVICE_MAX_MEM_ALLOC_SIZE`).
    pub fn max_alloc_bytes(&self) -> u64 {
        Device::new(self.device.id)
            .max_mem_alloc_size()
            .unwrap_or(u64::MAX)
    }

    /// Waits until every enqueued command has finished.
    pub fn finish(&self) -> Result<(), RuntimeError> {
        self.queue.finish().map_err(cl("device run"))
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
            .map(|program| BuiltProgram {
                program,
                kernels: Mutex::new(HashMap::new()),
            })
            .map_err(|log| RuntimeError::Build(format!("{log}\n{}", offending_lines(&log, src))))
    }

    /// A zero-filled buffer of `bytes` bytes (at least one byte is allocated), filled on the
    /// device without waiting.
    pub fn alloc(&self, bytes: usize) -> Result<DeviceBuffer, RuntimeError> {
        let mut dev = self.alloc_uninit(bytes)?;
        self.fill_zero(&mut dev)?;
        Ok(dev)
    }

    /// A buffer of `bytes` bytes whose contents are undefined: for one that a launch writes
    /// completely before anything reads it. Larger than the device allows: [`RuntimeError::TooLarge`].
    pub fn alloc_uninit(&self, bytes: usize) -> Result<DeviceBuffer, RuntimeError> {
        let max = self.max_alloc_bytes();
        if bytes as u64 > max {
            return Err(RuntimeError::TooLarge(format!(
                "an array of {bytes} bytes is larger than the device's largest allocation ({max} bytes, CL_DEVICE_MAX_MEM_ALLOC_SIZE)"
            )));
        }
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
        if self.keep_buffers {
            // Oclgrind 21.10's `--uninitialized` keeps a freed buffer's shadow state for the
            // next buffer given its number: that one's kernel writes beyond the old size are
            // lost (reported uninitialized when read) and its never-written bytes read as the
            // old ones' (unreported). One retain more than drops release: never freed, no
            // number reused (scripts/oclgrind-reuse-repro.c).
            // SAFETY: `buf` is a valid buffer just created.
            unsafe { opencl3::memory::retain_mem_object(buf.get()) }.map_err(cl("retain"))?;
        }
        Ok(DeviceBuffer {
            buf,
            bytes,
            capacity: bytes,
        })
    }

    /// Enqueues zeroing the whole allocation on the device (`clEnqueueFillBuffer`, all of its
    /// capacity: see [`BufferPool`]); does not wait.
    /// On Oclgrind, writes zeros from the host instead: Oclgrind 21.10's `--uninitialized`
    /// loses the writes a kernel makes to a buffer filled by `clEnqueueFillBuffer` (a later
    /// kernel's reads of them are reported uninitialized; `scripts/oclgrind-fill-repro.c` shows
    /// it without this project), and a write keeps the check usable.
    pub fn fill_zero(&self, buf: &mut DeviceBuffer) -> Result<(), RuntimeError> {
        let size = buf.capacity.max(1);
        if self.device.is_oclgrind() {
            return self.write(buf, &vec![0u8; size]);
        }
        // SAFETY: the pattern is one byte and the range is the whole buffer.
        unsafe {
            self.queue
                .enqueue_fill_buffer(&mut buf.buf, &[0u8], 0, size, &[])
                .map_err(cl("fill"))?;
        }
        Ok(())
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

    /// Reads `len` bytes from byte `offset` of the buffer back (blocking); the range must lie
    /// within its `bytes`.
    pub fn read_range(
        &self,
        buf: &DeviceBuffer,
        offset: usize,
        len: usize,
    ) -> Result<Vec<u8>, RuntimeError> {
        if offset.checked_add(len).is_none_or(|end| end > buf.bytes) {
            return Err(RuntimeError::Cl(format!(
                "read of bytes {offset}..+{len} of a buffer of {}",
                buf.bytes
            )));
        }
        let mut out = vec![0u8; len];
        if len > 0 {
            // SAFETY: blocking read into a slice of `len` bytes, within the buffer (checked).
            unsafe {
                self.queue
                    .enqueue_read_buffer(&buf.buf, CL_BLOCKING, offset, &mut out, &[])
                    .map_err(cl("read"))?;
            }
        }
        Ok(out)
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
    /// the kernel's device time in nanoseconds (from its profiling event; 0 when the queue does
    /// not profile).
    pub fn launch(
        &self,
        program: &BuiltProgram,
        kernel: &str,
        groups: usize,
        local: usize,
        args: &[Arg],
    ) -> Result<u64, RuntimeError> {
        let event = self.enqueue(program, kernel, groups, local, args)?;
        self.finish()?;
        Ok(event.map_or(0, |e| e.nanos()))
    }

    /// Enqueues a launch of `kernel` (as [`Runtime::launch`]) without waiting; its event when
    /// the queue profiles. The kernel object is made once per program.
    pub fn enqueue(
        &self,
        program: &BuiltProgram,
        kernel: &str,
        groups: usize,
        local: usize,
        args: &[Arg],
    ) -> Result<Option<LaunchEvent>, RuntimeError> {
        self.check_launch(kernel, local, args)?;
        // a launch that failed with the lock held leaves the map whole
        let mut kernels = program.kernels.lock().unwrap_or_else(|e| e.into_inner());
        if !kernels.contains_key(kernel) {
            let k = Kernel::create(&program.program, kernel).map_err(cl("kernel"))?;
            kernels.insert(kernel.to_string(), k);
        }
        let Some(k) = kernels.get(kernel) else {
            return Err(RuntimeError::Cl(format!("kernel {kernel} vanished")));
        };
        let mut exec = ExecuteKernel::new(k);
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
        if let Some(log) = &self.oclgrind_log {
            // Oclgrind (a simulator) gains nothing from overlap: wait, so its report is read
            // against the launch that made it.
            event.wait().map_err(cl("kernel run"))?;
            log.check(kernel)?;
        }
        Ok(self.profiling.then_some(LaunchEvent(event)))
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
