//! The monomorphic FCL core that the front end lowers into and that the oracle (rules 5.48–5.91)
//! and the compiler consume: thesis Figures 5.4/5.5 after monomorphization (5.23–5.31), with the
//! built-ins of docs/fcl.md §4 as explicit, saturated calls carrying concrete levels.
//!
//! Conventions the lowering must follow (and the oracle relies on):
//! * Built-ins are always **saturated**: `Call(b, args)` with `args.len() == b.arity()`. A partial
//!   application (`mapPull (addi 1) a`) is eta-expanded into typed lambdas by the lowering.
//! * Every `Lam` and `Let` carries the (monomorphic) type of its variable. The oracle uses it to
//!   pass `Program`-typed arguments **by name** (spec §7.1 "programs are suspended actions"), and
//!   [`super::core_type::type_of`] recovers every node's type from it (for the compiler and for
//!   soundness checks).
//! * The oracle binds every `Let` by name ([T]'s monomorphization inlines lets, 5.31).
//! * `fst`/`snd` and `if` are syntax, not calls. Infix operators are `Call(Scalar(op), [a, b])`.
//! * Levels are concrete: `thread` = 0, `block` = 1, `grid` = 2 (deeper levels are representable;
//!   they have no GPU meaning).

use crate::Span;
use std::fmt;
use std::rc::Rc;

/// A concrete level: the number of `1+` above `Z` (`thread` = 0, `block` = 1, `grid` = 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Level(pub u32);

impl Level {
    pub const THREAD: Level = Level(0);
    pub const BLOCK: Level = Level(1);
    pub const GRID: Level = Level(2);

    /// `1+l`.
    pub fn succ(self) -> Level {
        Level(self.0 + 1)
    }

    /// `l` when `self` is `1+l`; `None` for `thread`.
    pub fn pred(self) -> Option<Level> {
        self.0.checked_sub(1).map(Level)
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            0 => write!(f, "thread"),
            1 => write!(f, "block"),
            2 => write!(f, "grid"),
            n => write!(f, "{}grid", "1+".repeat(n as usize - 2)),
        }
    }
}

/// Monomorphic types (spec §2.4 without variables).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    Int,
    Double,
    Bool,
    Str,
    Unit,
    Pair(Box<Type>, Box<Type>),
    Fun(Box<Type>, Box<Type>),
    /// Pull array `[t]`.
    Pull(Box<Type>),
    /// Push array `[t]<l>`.
    Push(Box<Type>, Level),
    /// `Program<l> t`.
    Program(Level, Box<Type>),
}

impl Type {
    /// `a -> b`.
    pub fn fun(a: Type, b: Type) -> Type {
        Type::Fun(Box::new(a), Box::new(b))
    }
    /// `(a, b)`.
    pub fn pair(a: Type, b: Type) -> Type {
        Type::Pair(Box::new(a), Box::new(b))
    }
    /// `[t]`.
    pub fn pull(t: Type) -> Type {
        Type::Pull(Box::new(t))
    }
    /// `[t]<l>`.
    pub fn push(t: Type, l: Level) -> Type {
        Type::Push(Box::new(t), l)
    }
    /// `Program<l> t`.
    pub fn program(l: Level, t: Type) -> Type {
        Type::Program(l, Box::new(t))
    }
    /// Scalar base types, the only ones a forced push array may hold (spec §9.2, rule 5.6).
    pub fn is_scalar(&self) -> bool {
        matches!(self, Type::Int | Type::Double | Type::Bool)
    }
    /// Whether values of this type are suspended actions, passed by name.
    pub fn is_program(&self) -> bool {
        matches!(self, Type::Program(..))
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::Int => write!(f, "int"),
            Type::Double => write!(f, "double"),
            Type::Bool => write!(f, "bool"),
            Type::Str => write!(f, "string"),
            Type::Unit => write!(f, "unit"),
            Type::Pair(a, b) => write!(f, "({a}, {b})"),
            Type::Fun(a, b) => match **a {
                Type::Fun(..) => write!(f, "({a}) -> {b}"),
                _ => write!(f, "{a} -> {b}"),
            },
            Type::Pull(t) => write!(f, "[{t}]"),
            Type::Push(t, l) => write!(f, "[{t}]<{l}>"),
            Type::Program(l, t) => match **t {
                Type::Fun(..) => write!(f, "Program <{l}> ({t})"),
                _ => write!(f, "Program <{l}> {t}"),
            },
        }
    }
}

pub use super::scalar_op::ScalarOp;

/// The array, program and host built-ins (spec §4.1, §4.3–§4.5), with their levels resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Builtin {
    /// A scalar operation.
    Scalar(ScalarOp),
    /// `generate n f` (5.58).
    Generate,
    /// `index arr i` (5.60/5.61).
    Index,
    /// `lengthPull arr` (5.59).
    LengthPull,
    /// `mapPull f arr` (5.53).
    MapPull,
    /// `push<l> arr` (5.57).
    Push(Level),
    /// `force<l> a` (5.76–5.84).
    Force(Level),
    /// `return<l> v` (5.62).
    Return(Level),
    /// `bind<l> p f` (5.63).
    Bind(Level),
    /// `interleave<l> k f ps`: a `Program<1+l>` of a level-(1+l) push array (5.54, 5.83, 5.84).
    Interleave(Level),
    /// `interleaveSeq<l> k f ps` (5.55 and the omitted sequential rules).
    InterleaveSeq(Level),
    /// `seqfor n m step` in [O]'s (size, iterations, step) form (5.56, 5.78–5.80).
    SeqFor,
    /// `mapPush<l> h a`, `h` taking the index as [O] does (5.68–5.71).
    MapPush(Level),
    /// `lengthPush<l> a` (5.64–5.67).
    LengthPush(Level),
    /// [T]'s un-indexed `power<l> n step init` (5.87/5.88).
    Power(Level),
    /// [T]'s `poweri<l> n step init` = [O]'s `power` (the step gets the iteration index).
    PowerI(Level),
    /// `while<l> cond step init` (5.89).
    While(Level),
    /// `ifp<l> b p q` (5.90/5.91).
    Ifp(Level),
    /// `permute<l> dests arr`, a scatter (5.85/5.86).
    Permute(Level),
    /// `forceAndPrint n a` (host, §4.4).
    ForceAndPrint,
    /// `forceAndPrintDouble n a` (host, §4.4).
    ForceAndPrintDouble,
    /// `forceAndPrintDoubleExact n a`: doubles printed so they parse back exactly (the extension
    /// for TAIL, docs/fcl-extensions.md).
    ForceAndPrintDoubleExact,
    /// `benchmark n p` (host, §4.4).
    Benchmark,
    /// `readIntCSV path` (host, §4.4).
    ReadIntCsv,
    /// `nowMs 0`: milliseconds since the process started, read by the host when the program
    /// runs (TAIL's `nowi`, docs/fcl-extensions.md §9).
    NowMs,
    /// `#BlockSize` (arity 0; 256).
    BlockSize,
}

impl Builtin {
    /// The number of arguments of a saturated call.
    pub fn arity(self) -> usize {
        use Builtin::*;
        match self {
            Scalar(op) => op.signature().0.len(),
            BlockSize => 0,
            Push(_) | Force(_) | Return(_) | LengthPull | LengthPush(_) | ReadIntCsv | NowMs => 1,
            Generate
            | Index
            | MapPull
            | Bind(_)
            | MapPush(_)
            | Permute(_)
            | ForceAndPrint
            | ForceAndPrintDouble
            | ForceAndPrintDoubleExact
            | Benchmark => 2,
            Interleave(_) | InterleaveSeq(_) | SeqFor | Power(_) | PowerI(_) | While(_)
            | Ifp(_) => 3,
        }
    }

    /// Whether argument `i` is a program that the rule itself decides when (and whether, and how
    /// often) to run, so it is passed by name, unevaluated (spec §7.1, §7.3: a program runs each
    /// time it is bound). `bind`'s program runs at once, in context, so it is not among them.
    pub fn by_name(self, i: usize) -> bool {
        use Builtin::*;
        matches!(
            (self, i),
            (Power(_), 2)
                | (PowerI(_), 2)
                | (While(_), 2)
                | (Ifp(_), 1)
                | (Ifp(_), 2)
                | (Benchmark, 1)
        )
    }

    /// The source-like name with its level (`push<block>`), for traces and messages.
    pub fn name(self) -> String {
        use Builtin::*;
        match self {
            Scalar(op) => op.name().to_string(),
            Generate => "generate".into(),
            Index => "index".into(),
            LengthPull => "lengthPull".into(),
            MapPull => "mapPull".into(),
            Push(l) => format!("push<{l}>"),
            Force(l) => format!("force<{l}>"),
            Return(l) => format!("return<{l}>"),
            Bind(l) => format!("bind<{l}>"),
            Interleave(l) => format!("interleave<{l}>"),
            InterleaveSeq(l) => format!("interleaveSeq<{l}>"),
            SeqFor => "seqfor".into(),
            MapPush(l) => format!("mapPush<{l}>"),
            LengthPush(l) => format!("lengthPush<{l}>"),
            Power(l) => format!("power<{l}>"),
            PowerI(l) => format!("poweri<{l}>"),
            While(l) => format!("while<{l}>"),
            Ifp(l) => format!("ifp<{l}>"),
            Permute(l) => format!("permute<{l}>"),
            ForceAndPrint => "forceAndPrint".into(),
            ForceAndPrintDouble => "forceAndPrintDouble".into(),
            ForceAndPrintDoubleExact => "forceAndPrintDoubleExact".into(),
            Benchmark => "benchmark".into(),
            ReadIntCsv => "readIntCSV".into(),
            NowMs => "nowMs".into(),
            BlockSize => "#BlockSize".into(),
        }
    }

    /// How a printing built-in writes its elements; `None` for the others.
    pub fn print_format(self) -> Option<PrintFormat> {
        match self {
            Builtin::ForceAndPrint => Some(PrintFormat::Int),
            Builtin::ForceAndPrintDouble => Some(PrintFormat::Fixed5),
            Builtin::ForceAndPrintDoubleExact => Some(PrintFormat::Exact),
            _ => None,
        }
    }
}

/// The element format of a printed line (spec §4.4; docs/fcl-extensions.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PrintFormat {
    /// `forceAndPrint`: ints as C `%i`.
    Int,
    /// `forceAndPrintDouble`: doubles as C `%.5f`.
    Fixed5,
    /// `forceAndPrintDoubleExact`: doubles as Rust's `{:?}` (shortest round-trip).
    Exact,
}

impl PrintFormat {
    /// The element type of the printed array.
    pub fn elem(self) -> Type {
        match self {
            PrintFormat::Int => Type::Int,
            PrintFormat::Fixed5 | PrintFormat::Exact => Type::Double,
        }
    }
}

/// A variable name. Shadowing is allowed; the nearest binder wins.
pub type Name = Rc<str>;

/// A core expression with its source span.
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

/// Core expressions (Figure 5.4 after monomorphization).
#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    Var(Name),
    Int(i32),
    Double(f64),
    Bool(bool),
    Str(Rc<str>),
    Unit,
    /// `fn x : ty => body`.
    Lam {
        param: Name,
        param_ty: Type,
        body: Box<Expr>,
    },
    App(Box<Expr>, Box<Expr>),
    /// `let x : ty = bound in body` (monomorphic). The oracle binds by name, as [T]'s
    /// monomorphization inlines lets (5.31) and [O] inlines everything: `bound` is evaluated at
    /// each use of x, and not at all when x is unused.
    Let {
        name: Name,
        ty: Type,
        bound: Box<Expr>,
        body: Box<Expr>,
    },
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    Pair(Box<Expr>, Box<Expr>),
    Fst(Box<Expr>),
    Snd(Box<Expr>),
    /// A saturated built-in call.
    Call(Builtin, Vec<Expr>),
}

impl Expr {
    /// An expression of this kind at this span.
    pub fn new(kind: ExprKind, span: Span) -> Expr {
        Expr { kind, span }
    }
    pub fn var(name: &str, span: Span) -> Expr {
        Expr::new(ExprKind::Var(name.into()), span)
    }
    pub fn int(i: i32, span: Span) -> Expr {
        Expr::new(ExprKind::Int(i), span)
    }
    pub fn double(d: f64, span: Span) -> Expr {
        Expr::new(ExprKind::Double(d), span)
    }
    pub fn bool(b: bool, span: Span) -> Expr {
        Expr::new(ExprKind::Bool(b), span)
    }
    pub fn unit(span: Span) -> Expr {
        Expr::new(ExprKind::Unit, span)
    }
    pub fn lam(param: &str, param_ty: Type, body: Expr, span: Span) -> Expr {
        Expr::new(
            ExprKind::Lam {
                param: param.into(),
                param_ty,
                body: Box::new(body),
            },
            span,
        )
    }
    pub fn app(f: Expr, a: Expr, span: Span) -> Expr {
        Expr::new(ExprKind::App(Box::new(f), Box::new(a)), span)
    }
    pub fn let_(name: &str, ty: Type, bound: Expr, body: Expr, span: Span) -> Expr {
        Expr::new(
            ExprKind::Let {
                name: name.into(),
                ty,
                bound: Box::new(bound),
                body: Box::new(body),
            },
            span,
        )
    }
    pub fn if_(c: Expr, t: Expr, e: Expr, span: Span) -> Expr {
        Expr::new(ExprKind::If(Box::new(c), Box::new(t), Box::new(e)), span)
    }
    pub fn pair(a: Expr, b: Expr, span: Span) -> Expr {
        Expr::new(ExprKind::Pair(Box::new(a), Box::new(b)), span)
    }
    pub fn fst(e: Expr, span: Span) -> Expr {
        Expr::new(ExprKind::Fst(Box::new(e)), span)
    }
    pub fn snd(e: Expr, span: Span) -> Expr {
        Expr::new(ExprKind::Snd(Box::new(e)), span)
    }
    /// A saturated call; the caller guarantees `args.len() == b.arity()`.
    pub fn call(b: Builtin, args: Vec<Expr>, span: Span) -> Expr {
        Expr::new(ExprKind::Call(b, args), span)
    }
    /// A scalar operation on two operands.
    pub fn binop(op: ScalarOp, a: Expr, b: Expr, span: Span) -> Expr {
        Expr::call(Builtin::Scalar(op), vec![a, b], span)
    }
}
