//! Lowering core FCL to the kernel IR by symbolic evaluation (spec §8.1): the host (grid-level)
//! structure is evaluated at compile time; every materialised grid push array becomes one kernel
//! launch, block programs run one per work-group (virtualised over the groups launched), thread
//! programs one per work-item. Pull arrays are index functions, so map/generate chains fuse.

mod coverage;
mod eval;
mod host_write;
mod power;
mod run;
pub use run::MAX_PRIVATE;
pub mod value;
mod while_loop;
mod write;

use crate::kir::{Expr, HostStep, Kernel, Module, Param, Stmt, Ty};
use semantics::Span;
use std::collections::HashMap;
use std::fmt;
use std::rc::Rc;
use value::{Env, Val};

/// Why a program could not be lowered.
#[derive(Debug, Clone, PartialEq)]
pub enum LowerError {
    /// A construct this compiler does not handle (exit 2, "unsupported: …").
    Unsupported(String, Span),
    /// A static fault that the front end should have ruled out.
    Internal(String, Span),
}

impl fmt::Display for LowerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LowerError::Unsupported(m, _) => write!(f, "unsupported: {m}"),
            LowerError::Internal(m, _) => write!(f, "internal compiler error: {m}"),
        }
    }
}

impl LowerError {
    /// Where in the source.
    pub fn span(&self) -> Span {
        match self {
            LowerError::Unsupported(_, s) | LowerError::Internal(_, s) => *s,
        }
    }
}

type Res<T> = Result<T, LowerError>;

/// The kernel being generated.
struct KernelState {
    locals: Vec<(Rc<str>, Ty, usize)>,
    /// Work-groups to launch (a host expression), set by the outermost grid loop.
    groups: Option<Expr>,
}

/// The lowering state: the module under construction and where statements go.
pub struct Lower {
    block_size: usize,
    kernels: Vec<Kernel>,
    plan: Vec<HostStep>,
    host_tys: HashMap<Rc<str>, Ty>,
    buf_tys: HashMap<Rc<str>, Ty>,
    counter: usize,
    kernel: Option<KernelState>,
    /// Open statement blocks of the current kernel, innermost last.
    blocks: Vec<Vec<Stmt>>,
    /// The span of the construct being lowered, for messages.
    span: Span,
    depth: usize,
}

/// Evaluation nesting beyond which lowering gives up instead of overflowing the stack.
const MAX_DEPTH: usize = 20_000;

/// Lowers `main` (a closed core term of type `Program<grid> τ`) to a module.
pub fn lower_program(main: &semantics::fcl::core::Expr, block_size: usize) -> Res<Module> {
    let mut lw = Lower {
        block_size,
        kernels: Vec::new(),
        plan: Vec::new(),
        host_tys: HashMap::new(),
        buf_tys: HashMap::new(),
        counter: 0,
        kernel: None,
        blocks: Vec::new(),
        span: main.span,
        depth: 0,
    };
    let prog = lw.eval(&Env::default(), main)?;
    lw.run_val(&prog)?;
    Ok(Module {
        kernels: lw.kernels,
        plan: lw.plan,
        block_size,
    })
}

impl Lower {
    fn unsupported<T>(&self, what: impl Into<String>) -> Res<T> {
        Err(LowerError::Unsupported(what.into(), self.span))
    }

    fn internal<T>(&self, what: impl Into<String>) -> Res<T> {
        Err(LowerError::Internal(what.into(), self.span))
    }

    /// A fresh name with this prefix.
    fn fresh(&mut self, prefix: &str) -> Rc<str> {
        self.counter += 1;
        format!("{prefix}{}", self.counter).into()
    }

    /// Whether code goes into a kernel (else onto the host plan).
    fn in_kernel(&self) -> bool {
        self.kernel.is_some()
    }

    /// Appends a kernel statement to the innermost open block.
    fn emit(&mut self, s: Stmt) {
        if let Some(b) = self.blocks.last_mut() {
            b.push(s);
        }
    }

    /// Runs `f` with a fresh statement block and returns its result and the block.
    fn in_block<T>(&mut self, f: impl FnOnce(&mut Lower) -> Res<T>) -> Res<(T, Vec<Stmt>)> {
        self.blocks.push(Vec::new());
        let r = f(self);
        let block = self.blocks.pop().unwrap_or_default();
        Ok((r?, block))
    }

    /// Runs `f` on an empty host plan: its result, and the host steps it planned (a host loop's
    /// body). The outer plan is back in place either way.
    fn in_plan<T>(&mut self, f: impl FnOnce(&mut Lower) -> Res<T>) -> (Res<T>, Vec<HostStep>) {
        let outer = std::mem::take(&mut self.plan);
        let r = f(self);
        let body = std::mem::replace(&mut self.plan, outer);
        (r, body)
    }

    /// Binds a scalar expression to a variable when it is not atomic, so that it is computed
    /// once however often it is used: a kernel temporary, or a host scalar.
    fn share(&mut self, v: Val) -> Val {
        match v {
            Val::Scalar(e, ty) if !e.is_atomic() => {
                if self.in_kernel() {
                    let t = self.fresh("t");
                    self.emit(Stmt::Decl(t.clone(), ty, e));
                    Val::Scalar(Expr::Var(t), ty)
                } else {
                    let h = self.fresh("h");
                    self.host_tys.insert(h.clone(), ty);
                    self.plan.push(HostStep::Set(h.clone(), ty, e));
                    Val::Scalar(Expr::Var(h), ty)
                }
            }
            Val::Pair(a, b) => {
                let a = self.share((*a).clone());
                let b = self.share((*b).clone());
                Val::Pair(Rc::new(a), Rc::new(b))
            }
            v => v,
        }
    }

    /// Starts a kernel.
    fn begin_kernel(&mut self) -> Res<()> {
        if self.in_kernel() {
            return self.unsupported("a grid-level materialisation inside a kernel");
        }
        self.kernel = Some(KernelState {
            locals: Vec::new(),
            groups: None,
        });
        self.blocks = vec![Vec::new()];
        Ok(())
    }

    /// Ends the kernel: its parameters are the global buffers and host scalars it mentions.
    /// Returns its index and the number of groups to launch.
    fn end_kernel(&mut self) -> Res<(usize, Expr)> {
        let state = match self.kernel.take() {
            Some(s) => s,
            None => return self.internal("no kernel to end"),
        };
        let body = self.blocks.pop().unwrap_or_default();
        self.blocks.clear();
        let mut names = Vec::new();
        crate::kir::opt::names_in_block(&body, &mut names);
        let mut params = Vec::new();
        for n in names {
            if let Some(t) = self.buf_tys.get(&n) {
                if n.starts_with('g') && !params.iter().any(|p: &Param| *p.name() == n) {
                    params.push(Param::Buffer(n.clone(), *t));
                }
            } else if let Some(t) = self.host_tys.get(&n) {
                if !params.iter().any(|p: &Param| *p.name() == n) {
                    params.push(Param::Scalar(n.clone(), *t));
                }
            }
        }
        params.sort_by(|a, b| a.name().cmp(b.name()));
        let idx = self.kernels.len();
        self.kernels.push(Kernel {
            name: format!("kernel_{idx}"),
            params,
            locals: state.locals,
            body,
        });
        Ok((idx, state.groups.unwrap_or(Expr::Int(1))))
    }
}
