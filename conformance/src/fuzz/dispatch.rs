//! One OpenCL program for a batch of modules, with one kernel for most of their kernels. PoCL
//! generates code for every kernel at its first launch (a work-group function, LLVM code
//! generation and a link: tens of milliseconds even for a tiny kernel), and that, more than the
//! build, is what a campaign spends its time on. So the kernels of the batch become plain
//! functions called from a few dispatching kernels, `fcl_batch`, `fcl_batch1`, …, whose
//! `fcl_which` argument picks the function (a kernel argument, so the branch is uniform across the
//! work-group and barriers inside it are legal). Kernels with barriers join them only in a
//! program built with `-cl-opt-disable`: once its optimizations run, PoCL 3.1 generates wrong
//! code for barriers inside a branch of the dispatcher (heap corruption), so in an optimized
//! program they stay kernels of their own (renamed `uN_…` per module).
//!
//! The dispatcher takes the error flag, `fcl_which`, then enough `__global uchar*`, `int` and
//! `double` slots for any dispatched kernel; a launch fills the kernel's buffers, ints and
//! doubles into the slots in order and pads the rest (with the error flag's buffer: padding is
//! never passed on, so no two pointers a function receives alias, and the functions carry no
//! `restrict`). A dispatched kernel's `__local` arrays become pointers into one `__local` block,
//! the dispatcher's last argument (`__local ulong* fcl_lmem`, sized at launch for the kernel
//! that needs the most). It used to be a `__local` array at the dispatcher's scope, used only
//! through the functions it was passed to: a newer PoCL (on a 16-core Xeon) aborted in its
//! compiler on that (`pocl::isAutomaticLocal`: `isGVarUsedByFunction` assertion).
//!
//! Dispatchers are a PoCL device's remedy ([`compiler::runtime::DeviceInfo::is_pocl`]). Other
//! devices get the batch as plain kernels, one per module's kernel (renamed `uN_…`), in one
//! program: still one build per batch, and nothing an optimizing GPU compiler could read
//! differently from the modules alone.

use compiler::exec::{execute_with_launch_keeping_output, ExecError, ExecReport};
use compiler::kir::emit::{emit_kernel, ERROR_FLAG, PRELUDE};
use compiler::kir::{Kernel, Module, Param, Ty};
use compiler::runtime::{Arg, BuiltProgram, Runtime, RuntimeError};
use std::fmt::Write;

/// The dispatching kernel's name (the first one's; the next are `fcl_batch1`, `fcl_batch2`, …).
pub const DISPATCHER: &str = "fcl_batch";

/// The most kernels with barriers behind one dispatching kernel. PoCL's time to generate code
/// for a dispatcher with barriers grows faster than its size (in a program built with
/// `-cl-opt-disable`, a 37-case dispatcher of a fuzz batch took 470 ms of CPU time, the same
/// cases as dispatchers of 12 took 330 ms in all). A dispatcher holds barrier-free kernels or
/// kernels with barriers, never both: a dozen barrier kernels among a hundred barrier-free
/// ones took 2.4 s, as PoCL handled the whole of it as a kernel with barriers.
pub const BARRIER_CASES: usize = 12;

/// The most barrier-free kernels behind one dispatching kernel. PoCL's time for a dispatcher
/// grows a little faster than its size: on `fuzz_throughput` (batches of 32, about 250
/// barrier-free kernels each), dispatchers of 64 made 21.0–21.6 programs per CPU second, one
/// dispatcher for all 19.3–20.5, dispatchers of 32 19.2–20.7.
pub const FREE_CASES: usize = 64;

/// The name of dispatching kernel `n`.
fn dispatcher_name(n: usize) -> String {
    match n {
        0 => DISPATCHER.to_string(),
        n => format!("{DISPATCHER}{n}"),
    }
}

/// One dispatching kernel's `case` lines, their number and the 8-byte words of local memory
/// they need.
#[derive(Default)]
struct Cases {
    text: String,
    count: usize,
    with_barriers: usize,
    local_words: usize,
}

/// The most bytes of kernel arguments assumed (OpenCL's minimum `CL_DEVICE_MAX_PARAMETER_SIZE`);
/// each slot counts as 8 bytes.
const MAX_ARG_BYTES: usize = 1024;

/// The dispatcher's slots: buffers, ints, doubles.
#[derive(Clone, Copy, Debug, Default)]
struct Slots {
    buffers: usize,
    ints: usize,
    doubles: usize,
}

/// How the kernels of a batch's modules are reached.
#[derive(Debug)]
pub struct Dispatch {
    /// The OpenCL source of the whole batch.
    pub source: String,
    /// Per module, per kernel: `Some((d, n))` when it is dispatched as function `n` by
    /// dispatching kernel `d`, `None` when it is a kernel of its own named `u{module}_{name}`.
    routes: Vec<Vec<Option<(usize, usize)>>>,
    slots: Slots,
    /// Per dispatching kernel, the bytes of its `__local` block.
    local_bytes: Vec<usize>,
}

/// The batch source for `modules`; kernels with barriers go behind dispatchers too when
/// `barriers` (see the module documentation; at most [`BARRIER_CASES`] of them per
/// dispatcher), else they stay kernels of their own.
pub fn dispatch_source(modules: &[&Module], barriers: bool) -> Dispatch {
    batch_source(modules, barriers, true)
}

/// The batch source for `modules` as plain kernels of their own (no dispatcher): the form for
/// devices other than PoCL.
pub fn plain_source(modules: &[&Module]) -> Dispatch {
    batch_source(modules, false, false)
}

/// [`dispatch_source`], or with `dispatch` false [`plain_source`].
fn batch_source(modules: &[&Module], barriers: bool, dispatch: bool) -> Dispatch {
    let mut functions = String::new();
    let mut kernels = String::new();
    let mut dispatchers: Vec<Cases> = Vec::new();
    // the dispatchers now taking barrier-free kernels and kernels with barriers
    let (mut open_free, mut open_barrier): (Option<usize>, Option<usize>) = (None, None);
    let mut routes = Vec::with_capacity(modules.len());
    let mut slots = Slots::default();
    let mut id = 0usize;
    for (i, m) in modules.iter().enumerate() {
        let mut route = Vec::with_capacity(m.kernels.len());
        for k in &m.kernels {
            let text = emit_kernel(k);
            let (call, used, words) = call(k, id);
            let fits = 8
                * (3 + slots.buffers.max(used.buffers)
                    + slots.ints.max(used.ints)
                    + slots.doubles.max(used.doubles))
                <= MAX_ARG_BYTES;
            let has_barriers = text.contains("barrier(");
            let function = (dispatch && (barriers || !has_barriers) && fits)
                .then(|| as_function(k, &text, &format!("fcl_k{id}")))
                .flatten();
            let Some(function) = function else {
                let mut renamed = k.clone();
                renamed.name = format!("u{i}_{}", k.name);
                kernels.push('\n');
                kernels.push_str(&emit_kernel(&renamed));
                route.push(None);
                continue;
            };
            functions.push_str(&function);
            // PoCL treats a whole dispatcher as a kernel with barriers when any case has one,
            // at a cost that grows faster than its size, so kernels with barriers get
            // dispatchers of their own, a few cases each
            let (open, limit) = match has_barriers {
                false => (&mut open_free, FREE_CASES),
                true => (&mut open_barrier, BARRIER_CASES),
            };
            let d = match *open {
                Some(d) if dispatchers[d].count < limit => d,
                _ => {
                    dispatchers.push(Cases::default());
                    *open = Some(dispatchers.len() - 1);
                    dispatchers.len() - 1
                }
            };
            let cases = &mut dispatchers[d];
            cases.text.push_str(&call);
            cases.count += 1;
            cases.with_barriers += has_barriers as usize;
            cases.local_words = cases.local_words.max(words);
            slots.buffers = slots.buffers.max(used.buffers);
            slots.ints = slots.ints.max(used.ints);
            slots.doubles = slots.doubles.max(used.doubles);
            route.push(Some((d, id)));
            id += 1;
        }
        routes.push(route);
    }
    let mut source = String::from(PRELUDE);
    source.push_str(&functions);
    let mut params = vec![
        format!("__global int* {ERROR_FLAG}"),
        "const int fcl_which".to_string(),
    ];
    params.extend((0..slots.buffers).map(|i| format!("__global uchar* fcl_b{i}")));
    params.extend((0..slots.ints).map(|i| format!("const int fcl_i{i}")));
    params.extend((0..slots.doubles).map(|i| format!("const double fcl_d{i}")));
    params.push("__local ulong* fcl_lmem".to_string());
    for (n, cases) in dispatchers.iter().enumerate().filter(|d| d.1.count > 0) {
        let _ = writeln!(
            source,
            "\n__kernel void {}({}) {{\n  switch (fcl_which) {{\n{}  }}\n}}",
            dispatcher_name(n),
            params.join(", "),
            cases.text
        );
    }
    source.push_str(&kernels);
    Dispatch {
        source,
        routes,
        slots,
        local_bytes: dispatchers
            .iter()
            .map(|c| c.local_words.max(1) * 8)
            .collect(),
    }
}

/// Kernel `k`'s emitted `text` with its header made a function's (its parameter list kept as
/// emitted) and its `__local` declarations made pointer parameters; `None` when the text is not
/// in that form (the kernel then stays a kernel of its own).
fn as_function(k: &Kernel, text: &str, name: &str) -> Option<String> {
    let rest = text.strip_prefix(&format!("__kernel void {}(", k.name))?;
    let (params, mut rest) = rest.split_once(") {\n")?;
    // no `restrict` on a function: whether its pointers may alias is the dispatcher's business
    let mut all = vec![params.replace("* restrict ", "* ")];
    for (n, t, len) in &k.locals {
        rest = rest.strip_prefix(&format!("  __local {} {n}[{len}];\n", t.c_elem()))?;
        all.push(format!("__local {}* {n}", t.c_elem()));
    }
    Some(format!("\nvoid {name}({}) {{\n{rest}", all.join(", ")))
}

/// The `case` calling kernel `k` as function `id` from the dispatcher's slots, the slots it
/// uses, and the 8-byte words of local memory it needs.
fn call(k: &Kernel, id: usize) -> (String, Slots, usize) {
    let mut used = Slots::default();
    let mut args = vec![ERROR_FLAG.to_string()];
    for p in &k.params {
        args.push(match p {
            Param::Buffer(_, t) => {
                used.buffers += 1;
                format!("(__global {}*)fcl_b{}", t.c_elem(), used.buffers - 1)
            }
            Param::Scalar(_, Ty::Double) => {
                used.doubles += 1;
                format!("fcl_d{}", used.doubles - 1)
            }
            Param::Scalar(..) => {
                used.ints += 1;
                format!("fcl_i{}", used.ints - 1)
            }
        });
    }
    let mut words = 0;
    for (_, t, len) in &k.locals {
        args.push(format!("(__local {}*)(fcl_lmem + {words})", t.c_elem()));
        words += (t.size() * len).div_ceil(8);
    }
    let call = format!("    case {id}: fcl_k{id}({}); break;\n", args.join(", "));
    (call, used, words)
}

impl Dispatch {
    /// The OpenCL kernels of [`Dispatch::source`]: dispatchers and kernels of their own.
    pub fn kernel_count(&self) -> usize {
        let mut dispatchers = std::collections::BTreeSet::new();
        let mut own = 0;
        for route in self.routes.iter().flatten() {
            match route {
                Some((d, _)) => {
                    dispatchers.insert(*d);
                }
                None => own += 1,
            }
        }
        dispatchers.len() + own
    }

    /// Runs module `i` of the batch (`m`, the module at position `i` of [`dispatch_source`])
    /// with its kernels taken from `program`, built from [`Dispatch::source`].
    pub fn execute(
        &self,
        i: usize,
        m: &Module,
        rt: &Runtime,
        program: &BuiltProgram,
    ) -> Result<ExecReport, ExecError> {
        let (report, r) = self.execute_keeping_output(i, m, rt, program);
        r.map(|()| report)
    }

    /// [`Dispatch::execute`], returning what the run printed up to a failure too.
    pub fn execute_keeping_output(
        &self,
        i: usize,
        m: &Module,
        rt: &Runtime,
        program: &BuiltProgram,
    ) -> (ExecReport, Result<(), ExecError>) {
        let route = self.routes.get(i).map_or(&[][..], |r| &r[..]);
        execute_with_launch_keeping_output(m, rt, &|k, groups, local, args| {
            let Some(Some((dispatcher, which))) = route.get(k) else {
                let name = format!("u{i}_{}", m.kernels[k].name);
                return rt.enqueue(program, &name, groups, local, args);
            };
            let Some((Arg::Buffer(err), params)) = args.split_first() else {
                return Err(RuntimeError::Cl("a launch without the error flag".into()));
            };
            let mut buffers = Vec::with_capacity(self.slots.buffers);
            let mut ints = Vec::with_capacity(self.slots.ints);
            let mut doubles = Vec::with_capacity(self.slots.doubles);
            for a in params {
                match a {
                    Arg::Buffer(b) => buffers.push(Arg::Buffer(b)),
                    Arg::Int(x) => ints.push(Arg::Int(*x)),
                    Arg::Double(x) => doubles.push(Arg::Double(*x)),
                    Arg::Local(_) => {
                        return Err(RuntimeError::Cl(
                            "a __local argument cannot go through the dispatcher".into(),
                        ))
                    }
                }
            }
            buffers.resize_with(self.slots.buffers, || Arg::Buffer(err));
            ints.resize_with(self.slots.ints, || Arg::Int(0));
            doubles.resize_with(self.slots.doubles, || Arg::Double(0.0));
            let mut all = vec![Arg::Buffer(err), Arg::Int(*which as i32)];
            all.extend(buffers);
            all.extend(ints);
            all.extend(doubles);
            all.push(Arg::Local(
                self.local_bytes.get(*dispatcher).copied().unwrap_or(8),
            ));
            rt.enqueue(program, &dispatcher_name(*dispatcher), groups, local, &all)
        })
    }
}
