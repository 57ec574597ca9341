//! The kernel IR: typed, imperative and close to OpenCL C. Kernels hold global buffer and scalar
//! parameters, `__local` arrays, sequential loops (parallel loops over work-items and work-groups
//! are loops whose start and stride are the work-item or work-group id and count), barriers and
//! scalar statements. The host plan allocates, launches, reads scalars back and prints.

pub mod emit;
pub mod eval;
pub mod linear;
pub mod opt;

use semantics::fcl::core::ScalarOp;
use std::rc::Rc;

/// The most work-groups one launch uses; larger grids are virtualised (spec §8.3).
pub const MAX_GROUPS: usize = 65536;

/// Element and scalar types (`bool` is stored as `uchar`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    Int,
    Double,
    Bool,
}

impl Ty {
    /// The OpenCL C type of a variable.
    pub fn c_name(self) -> &'static str {
        match self {
            Ty::Int => "int",
            Ty::Double => "double",
            Ty::Bool => "bool",
        }
    }
    /// The OpenCL C type of a buffer element.
    pub fn c_elem(self) -> &'static str {
        match self {
            Ty::Bool => "uchar",
            t => t.c_name(),
        }
    }
    /// Bytes per buffer element.
    pub fn size(self) -> usize {
        match self {
            Ty::Int => 4,
            Ty::Double => 8,
            Ty::Bool => 1,
        }
    }
}

/// Work-item geometry queries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Geom {
    LocalId,
    LocalSize,
    GroupId,
    NumGroups,
    GlobalId,
    GlobalSize,
}

/// A scalar expression (pure; loads read memory).
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    Int(i32),
    Double(f64),
    Bool(bool),
    Var(Rc<str>),
    Geom(Geom),
    /// A scalar operation with FCL semantics (spec §4.2).
    Op(ScalarOp, Vec<Expr>),
    /// `c ? a : b`; only the chosen branch is evaluated.
    Select(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `buf[idx]` of a global, local or private array.
    Load(Rc<str>, Box<Expr>),
}

impl Expr {
    /// A variable.
    pub fn var(name: &str) -> Expr {
        Expr::Var(name.into())
    }
    /// A scalar operation.
    pub fn op(op: ScalarOp, args: Vec<Expr>) -> Expr {
        Expr::Op(op, args)
    }
    /// Whether the expression is a literal or a variable (cheap to duplicate).
    pub fn is_atomic(&self) -> bool {
        matches!(
            self,
            Expr::Int(_) | Expr::Double(_) | Expr::Bool(_) | Expr::Var(_) | Expr::Geom(_)
        )
    }
    /// The literal integer, if this is one.
    pub fn as_int(&self) -> Option<i32> {
        match self {
            Expr::Int(i) => Some(*i),
            _ => None,
        }
    }
}

/// The length of a [`Stmt::Private`] array whose size is an expression of run-time values: it
/// can exist only as a loop's carried scalar (`kir::opt::carried_recurrences`), and
/// `crate::compile_fcl` refuses a module that still holds one.
pub const RUN_TIME_SIZE: usize = usize::MAX;

/// A statement.
#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    /// `T name = init;`
    Decl(Rc<str>, Ty, Expr),
    /// `name = value;`
    Assign(Rc<str>, Expr),
    /// `buf[idx] = value;`
    Store(Rc<str>, Expr, Expr),
    /// A private array `T name[len];` ([`RUN_TIME_SIZE`]: a `seqfor` of a size known only
    /// when the kernel runs, which -O2 must turn into a carried scalar).
    Private(Rc<str>, Ty, usize),
    /// `for (int var = start; var < end; var += step) body`: sequential when start is 0 and
    /// step 1, a parallel loop over work-items or work-groups when they are geometry queries.
    For {
        var: Rc<str>,
        start: Expr,
        end: Expr,
        step: Expr,
        body: Vec<Stmt>,
    },
    If(Expr, Vec<Stmt>, Vec<Stmt>),
    /// `barrier(CLK_LOCAL_MEM_FENCE)`.
    Barrier,
}

/// A kernel parameter.
#[derive(Clone, Debug, PartialEq)]
pub enum Param {
    /// `__global T* name`.
    Buffer(Rc<str>, Ty),
    /// A host scalar.
    Scalar(Rc<str>, Ty),
}

impl Param {
    pub fn name(&self) -> &Rc<str> {
        match self {
            Param::Buffer(n, _) | Param::Scalar(n, _) => n,
        }
    }
}

/// A kernel.
#[derive(Clone, Debug, PartialEq)]
pub struct Kernel {
    pub name: String,
    pub params: Vec<Param>,
    /// `__local T name[len]` arrays, sized at compile time.
    pub locals: Vec<(Rc<str>, Ty, usize)>,
    pub body: Vec<Stmt>,
}

/// Whether `op` applied to `args` must check for a run-time error when it runs: `/` and `%` by
/// anything but a literal other than 0 and -1 (where C's operators are the oracle's), `powi`
/// by anything but a non-negative literal, `checki` unless its condition is literally false.
pub fn checks_errors(op: ScalarOp, args: &[Expr]) -> bool {
    match (op, args.get(1)) {
        (ScalarOp::DivI | ScalarOp::ModI, Some(Expr::Int(d))) => *d == 0 || *d == -1,
        (ScalarOp::PowI, Some(Expr::Int(e))) => *e < 0,
        (ScalarOp::DivI | ScalarOp::ModI | ScalarOp::PowI, _) => true,
        (ScalarOp::CheckI, _) => !matches!(args.get(1), Some(Expr::Bool(false))),
        (ScalarOp::AddIChecked | ScalarOp::SubIChecked | ScalarOp::MulIChecked, _) => true,
        _ => false,
    }
}

/// A host step of the plan.
#[derive(Clone, Debug, PartialEq)]
pub enum HostStep {
    /// `name = value` (a host scalar).
    Set(Rc<str>, Ty, Expr),
    /// A global buffer of `len` elements, zero-filled unless [`Init::Overwritten`].
    Alloc(Rc<str>, Ty, Expr, Init),
    /// Launch kernel `kernel` (index into the program's kernels) on `groups` work-groups
    /// (capped at run time); its parameters name the buffers and host scalars to pass.
    Launch { kernel: usize, groups: Expr },
    /// `var = buf[idx]` read back from the device.
    Read(Rc<str>, Ty, Rc<str>, Expr),
    /// `for var in 0..n { body }` on the host (a grid-level `power`).
    Loop {
        var: Rc<str>,
        n: Expr,
        body: Vec<HostStep>,
    },
    /// `while test { body }` on the host (a grid-level `while` whose condition is known only at
    /// run time): each trip runs `cond` (reads and host scalars) and evaluates `test`, a host
    /// boolean, before the step's `body`.
    While {
        cond: Vec<HostStep>,
        test: Expr,
        body: Vec<HostStep>,
    },
    /// `readIntCSV path`: the file's integers into a new buffer, their count into host `len`.
    ReadCsv {
        buf: Rc<str>,
        len: Rc<str>,
        path: Rc<str>,
    },
    /// `nowMs`: host int `var` = milliseconds since the process started
    /// (`semantics::tail::ops::io::process_ms`).
    Clock(Rc<str>),
    /// Exchange two buffers (the state of a host loop and the step's result).
    Swap(Rc<str>, Rc<str>),
    /// `benchmark n p`: run `body` n+1 times (a warm-up and n timed runs), then report the time
    /// per run on stderr (spec §4.4).
    Benchmark { n: Expr, body: Vec<HostStep> },
    /// Print the first `n` elements of a buffer of `len` elements (§4.4 format).
    Print {
        buf: Rc<str>,
        ty: Ty,
        /// Doubles as `forceAndPrintDoubleExact` writes them (docs/fcl-extensions.md).
        exact: bool,
        n: Expr,
        len: Expr,
    },
}

/// What a new global buffer holds before the launches that write it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Init {
    /// Zeros (filled on the device): the launches may leave elements unwritten.
    Zero,
    /// Nothing defined: the lowering knows the launch that follows writes every element (a
    /// `push<grid>`, or a concatenation of parts that each write all of theirs).
    Overwritten,
}

/// A compiled program: kernels and the host plan that drives them.
#[derive(Clone, Debug, PartialEq)]
pub struct Module {
    pub kernels: Vec<Kernel>,
    pub plan: Vec<HostStep>,
    /// The work-group size every kernel is launched with.
    pub block_size: usize,
}
