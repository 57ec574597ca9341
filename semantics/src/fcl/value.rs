//! Run-time values of the FCL oracle (thesis Figure 5.9, repaired in spec §7.3): base values,
//! closures, pull arrays as arrays of (delayed) expressions, push arrays (`Push`, `Interleave`,
//! `InterleaveSeq`, `SeqFor`) and `Program<l> v`.
//!
//! Pull arrays are "arrays of expressions" kept symbolic: `[f 0, …, f (n−1)]` is stored as the pair
//! (n, f) and element i is built on demand, so a step never copies an array. Materialised arrays
//! share their storage (`Rc`).

use super::core::{Level, Type};
use super::step::term::{Env, Term};
use crate::Span;
use std::fmt;
use std::rc::Rc;

/// A value.
#[derive(Clone, Debug)]
pub enum Value {
    Int(i32),
    Double(f64),
    Bool(bool),
    Unit,
    /// A string (boxed once more so that a value stays two words).
    Str(Rc<String>),
    Pair(Rc<(Value, Value)>),
    /// `fn x => e` closed over its environment.
    Closure(Rc<Closure>),
    /// A function the rules build (the `fn j x => h (b·k + j) x` of 5.69, …).
    Internal(Rc<InternalFn>),
    /// A `Program`-typed expression passed by name: it runs each time it is evaluated (§7.1).
    Thunk(Rc<Thunk>),
    Pull(Rc<Pull>),
    Push(Rc<PushArr>),
    /// `Program<l> v`: a program that has run and yields v.
    Program(Level, Rc<Value>),
}

/// A closure.
#[derive(Debug)]
pub struct Closure {
    /// The parameter's name, for printing.
    pub name: super::core::Name,
    pub param_ty: Rc<Type>,
    /// The parameter has a `Program` type: the argument is passed unevaluated.
    pub by_name: bool,
    pub body: Rc<Term>,
    pub env: Env,
    pub span: Span,
}

/// A suspended program expression with its environment.
#[derive(Debug)]
pub struct Thunk {
    pub term: Rc<Term>,
    pub env: Env,
}

/// Functions introduced by the rules themselves rather than by the program.
#[derive(Debug)]
pub enum InternalFn {
    /// `fn j x => h (offset + j) x`, the index shift of 5.69/5.70 ([O]'s concatenation index).
    OffsetIndex { h: Value, offset: i32 },
    /// `fn i x => h i (g i x)`, the composition of 5.71.
    ComposeIndexed { h: Value, g: Value },
    /// `fn i x => x`, the post-map of a fresh `SeqFor` (5.56).
    IndexedIdentity,
    /// `fn k => v_k`, the read function of 5.79. With `single`, [O]'s size-1 quirk: every read
    /// gives the one cell whatever k is.
    Read {
        buf: im::Vector<Value>,
        single: bool,
    },
    /// `fn b p => bind p (fn a => return (mapPush (fn j x => h (b·k + j) x) a))`: the
    /// sub-programs of 5.69/5.70, given their index b.
    MapPushProgram { h: Value, k: i32 },
    /// An internal two-argument function applied to its first argument.
    Partial { f: Rc<InternalFn>, first: Value },
}

/// The storage of a materialised array. Live cells are counted per thread so that a run can
/// report its peak memory ([`peak_cells`]).
#[derive(Debug)]
pub struct Cells(Vec<Value>);

thread_local! {
    static LIVE_CELLS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    static PEAK_CELLS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

impl Cells {
    /// Storage holding `data`.
    pub fn new(data: Vec<Value>) -> Cells {
        let live = LIVE_CELLS.get() + data.len() as u64;
        LIVE_CELLS.set(live);
        PEAK_CELLS.set(PEAK_CELLS.get().max(live));
        Cells(data)
    }
}

impl Drop for Cells {
    fn drop(&mut self) {
        LIVE_CELLS.set(LIVE_CELLS.get().saturating_sub(self.0.len() as u64));
    }
}

impl std::ops::Deref for Cells {
    type Target = [Value];
    fn deref(&self) -> &[Value] {
        &self.0
    }
}

/// Starts measuring peak memory on this thread from what is live now.
pub fn reset_peak_cells() {
    PEAK_CELLS.set(LIVE_CELLS.get());
}

/// The most materialised array cells live at once on this thread since [`reset_peak_cells`].
pub fn peak_cells() -> u64 {
    PEAK_CELLS.get()
}

/// A pull array `[e0, …, e(n−1)]`.
#[derive(Debug)]
pub enum Pull {
    /// `[f 0, …, f (len−1)]` (5.58).
    Gen { len: usize, f: Value },
    /// `[f e0, …]` (5.53).
    Map { f: Value, inner: Rc<Pull> },
    /// `[h 0 e0, h 1 e1, …]` (5.68, 5.80).
    MapIx { h: Value, inner: Rc<Pull> },
    /// Materialised base values (5.82).
    Mem(Rc<Cells>),
    /// `inner[start .. start+len]`: the sub-arrays of the partition in 5.81.
    Slice {
        inner: Rc<Pull>,
        start: usize,
        len: usize,
    },
    /// `[f(0,0), …, f(0,s0−1), f(1,0), …]`, the destinations of 5.84; `starts[b]` is the flat
    /// position of sub-result b's first element, `starts[n]` the total.
    Dests { f: Value, starts: Rc<Vec<usize>> },
}

impl Pull {
    /// The length n, without evaluating any element (5.59).
    pub fn len(&self) -> usize {
        match self {
            Pull::Gen { len, .. } | Pull::Slice { len, .. } => *len,
            Pull::Map { inner, .. } | Pull::MapIx { inner, .. } => inner.len(),
            Pull::Mem(v) => v.len(),
            Pull::Dests { starts, .. } => starts.last().copied().unwrap_or(0),
        }
    }

    /// Whether the array has no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The materialised storage, when every element is already a value.
    pub fn as_mem(&self) -> Option<&Rc<Cells>> {
        match self {
            Pull::Mem(v) => Some(v),
            _ => None,
        }
    }
}

/// A push array value.
#[derive(Debug)]
pub enum PushArr {
    /// `Push<l> arr` (5.57).
    Push { level: Level, arr: Rc<Pull> },
    /// `Interleave<l> k f ps` (5.54); forcing it yields a level-(1+l) array.
    Interleave {
        level: Level,
        k: i32,
        f: Value,
        ps: Rc<Pull>,
        /// Where the interleaving was made: races and holes are reported there.
        span: Span,
    },
    /// `InterleaveSeq<l> k f ps` (5.55).
    InterleaveSeq {
        level: Level,
        k: i32,
        f: Value,
        ps: Rc<Pull>,
        span: Span,
    },
    /// `SeqFor [v…] m i f g` (5.56), in [O]'s form: the buffer starts zeroed.
    SeqFor {
        buf: im::Vector<Value>,
        m: i32,
        i: i32,
        f: Value,
        g: Value,
    },
}

impl PushArr {
    /// `size(a)` of spec §4.3 (5.64–5.67).
    pub fn size(&self) -> i64 {
        match self {
            PushArr::Push { arr, .. } => arr.len() as i64,
            PushArr::Interleave { k, ps, .. } | PushArr::InterleaveSeq { k, ps, .. } => {
                *k as i64 * ps.len() as i64
            }
            PushArr::SeqFor { buf, .. } => buf.len() as i64,
        }
    }
}

/// The zero of a scalar type: the initial contents of a `seqfor` buffer (spec §4.3 recommends
/// zero-initialising; [O]'s size-1 buffer starts at `0`/`0.0`).
pub fn zero_of(ty: &Type) -> Value {
    match ty {
        Type::Double => Value::Double(0.0),
        Type::Bool => Value::Bool(false),
        _ => Value::Int(0),
    }
}

impl Default for Value {
    /// `()`, the filler of unused argument slots.
    fn default() -> Value {
        Value::Unit
    }
}

impl Value {
    /// Base values (`bv` in the rules): what a forced array may hold.
    pub fn is_base(&self) -> bool {
        matches!(self, Value::Int(_) | Value::Double(_) | Value::Bool(_))
    }
}

/// How many elements of an array a printed value shows before `…`.
const SHOW: usize = 8;

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(i) => write!(f, "{i}"),
            Value::Double(d) => write!(f, "{d:?}"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Unit => write!(f, "()"),
            Value::Str(s) => write!(f, "{s:?}"),
            Value::Pair(p) => write!(f, "({}, {})", p.0, p.1),
            Value::Closure(c) => write!(f, "fn {} => {}", c.name, c.body),
            Value::Internal(i) => write!(f, "{i}"),
            Value::Thunk(t) => write!(f, "{{{}}}", t.term),
            Value::Pull(p) => write!(f, "{p}"),
            Value::Push(p) => write!(f, "{p}"),
            Value::Program(l, v) => write!(f, "Program<{l}> {v}"),
        }
    }
}

impl fmt::Display for InternalFn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InternalFn::OffsetIndex { h, offset } => write!(f, "(fn j x => ({h}) ({offset}+j) x)"),
            InternalFn::ComposeIndexed { h, g } => write!(f, "(fn i x => ({h}) i (({g}) i x))"),
            InternalFn::IndexedIdentity => write!(f, "(fn i x => x)"),
            InternalFn::Read { buf, .. } => write!(f, "(fn k => read[{}] k)", buf.len()),
            InternalFn::Partial { f: g, first } => write!(f, "({g} {first})"),
            InternalFn::MapPushProgram { h, k } => {
                write!(f, "(fn b p => mapPush-sub ({h}) {k} b p)")
            }
        }
    }
}

impl fmt::Display for Pull {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Pull::Gen { len, f: g } => write!(f, "[({g}) i | i < {len}]"),
            Pull::Map { f: g, inner } => write!(f, "map ({g}) {inner}"),
            Pull::MapIx { h, inner } => write!(f, "mapIx ({h}) {inner}"),
            Pull::Mem(v) => {
                write!(f, "[")?;
                for (i, x) in v.iter().take(SHOW).enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{x}")?;
                }
                if v.len() > SHOW {
                    write!(f, ", … ({} elements)", v.len())?;
                }
                write!(f, "]")
            }
            Pull::Slice { inner, start, len } => write!(f, "{inner}[{start}..{}]", start + len),
            Pull::Dests { f: g, starts } => {
                write!(
                    f,
                    "[({g}) (b, j) | {} elements]",
                    starts.last().unwrap_or(&0)
                )
            }
        }
    }
}

impl fmt::Display for PushArr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PushArr::Push { level, arr } => write!(f, "Push<{level}> {arr}"),
            PushArr::Interleave {
                level, k, f: g, ps, ..
            } => {
                write!(f, "Interleave<{level}> {k} ({g}) {ps}")
            }
            PushArr::InterleaveSeq {
                level, k, f: g, ps, ..
            } => {
                write!(f, "InterleaveSeq<{level}> {k} ({g}) {ps}")
            }
            PushArr::SeqFor {
                buf, m, i, f: g, ..
            } => {
                write!(f, "SeqFor [{} cells] {m} {i} ({g})", buf.len())
            }
        }
    }
}

/// The value printed in full (every array element), for comparing results.
pub fn render_full(v: &Value) -> String {
    match v {
        Value::Pull(p) => match p.as_mem() {
            Some(m) => {
                let items: Vec<String> = m.iter().map(render_full).collect();
                format!("[{}]", items.join(", "))
            }
            None => p.to_string(),
        },
        Value::Pair(p) => format!("({}, {})", render_full(&p.0), render_full(&p.1)),
        Value::Program(l, v) => format!("Program<{l}> {}", render_full(v)),
        other => other.to_string(),
    }
}

/// `v : τ` (Figure 5.9, 5.41–5.47 as repaired in spec §7.3), checked as far as a value shows
/// it: closures by their parameter type, arrays by their materialised elements, push arrays and
/// programs by their level. Used to check type soundness at the end of runs.
pub fn has_type(v: &Value, ty: &Type) -> bool {
    match (v, ty) {
        (Value::Int(_), Type::Int)
        | (Value::Double(_), Type::Double)
        | (Value::Bool(_), Type::Bool)
        | (Value::Unit, Type::Unit)
        | (Value::Str(_), Type::Str) => true,
        (Value::Pair(p), Type::Pair(a, b)) => has_type(&p.0, a) && has_type(&p.1, b),
        // (5.41)
        (Value::Closure(c), Type::Fun(a, _)) => *c.param_ty == **a,
        (Value::Internal(_), Type::Fun(..)) => true,
        // (5.42)
        (Value::Pull(p), Type::Pull(t)) => match p.as_mem() {
            Some(m) => m.iter().all(|x| has_type(x, t)),
            None => true,
        },
        // (5.43), (5.45)–(5.47): the array's level is the type's
        (Value::Push(a), Type::Push(t, l)) => {
            t.is_scalar()
                && match &**a {
                    PushArr::Push { level, .. } | PushArr::InterleaveSeq { level, .. } => {
                        level == l
                    }
                    PushArr::Interleave { level, .. } => level.succ() == *l,
                    PushArr::SeqFor { .. } => *l == Level::THREAD,
                }
        }
        // (5.44)
        (Value::Program(l, x), Type::Program(m, t)) => l == m && has_type(x, t),
        (Value::Thunk(_), Type::Program(..)) => true,
        _ => false,
    }
}
