//! The FCL fragment the generator produces, as an AST it owns: every node carries what is needed
//! to keep it well typed (array lengths are static constants, levels are explicit), so shrinking
//! can rewrite structure and still print a program the front end accepts.

/// A level of the hierarchy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    Thread,
    Block,
    Grid,
}

impl Level {
    /// The source name, as written inside `<…>`.
    pub fn name(self) -> &'static str {
        match self {
            Level::Thread => "thread",
            Level::Block => "block",
            Level::Grid => "grid",
        }
    }

    /// The level one below (`1+l` → `l`); thread has none.
    pub fn below(self) -> Option<Level> {
        match self {
            Level::Thread => None,
            Level::Block => Some(Level::Thread),
            Level::Grid => Some(Level::Block),
        }
    }
}

/// A binary integer operator that is total on every input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Min,
    Max,
    And,
    Xor,
    Shl,
    Shr,
}

/// A unary integer operator that is total on every input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    Abs,
    Sign,
    Clz,
}

/// A comparison, giving a `bool`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpOp {
    Lt,
    Eq,
    Neq,
}

/// An `int` expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IntE {
    Lit(i32),
    Var(String),
    Bin(BinOp, Box<IntE>, Box<IntE>),
    Un(UnOp, Box<IntE>),
    /// `e / ((d & 255) + 1)`: the divisor is at least 1.
    Div(Box<IntE>, Box<IntE>),
    /// `(e & 1073741823) % k` with `k >= 1`: a non-negative value below `k`.
    ModK(Box<IntE>, i32),
    /// `e % k` with `k` a literal other than 0 and -1: a signed remainder (the sign of `e`),
    /// negative dividends and divisors included.
    Rem(Box<IntE>, i32),
    /// `index arr ((i & 1073741823) % len arr)`: always in bounds.
    Index(Box<PullE>, Box<IntE>),
    /// `lengthPull arr`.
    Length(Box<PullE>),
    /// `lengthPush<thread> a` ([T] rules 5.64–5.67; the compiler declines it, spec §4.6).
    LengthPush(Box<PushE>),
    If(CmpOp, Box<IntE>, Box<IntE>, Box<IntE>, Box<IntE>),
    /// `b2i (cmp a b)`.
    B2i(CmpOp, Box<IntE>, Box<IntE>),
}

/// A pull array `[int]` of a statically known, positive length.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PullE {
    /// A bound array and its length.
    Var(String, usize),
    /// `generate n (fn v => e)`.
    Generate(usize, String, Box<IntE>),
    /// `mapPull (fn v => e) arr`.
    Map(String, Box<IntE>, Box<PullE>),
    /// `zipWith (fn a => fn b => e) x y`; length the minimum.
    ZipWith(String, String, Box<IntE>, Box<PullE>, Box<PullE>),
    /// `take n arr` with `n <= len arr`.
    Take(usize, Box<PullE>),
    /// `drop n arr` with `n < len arr`.
    Drop(usize, Box<PullE>),
}

impl PullE {
    /// The static length.
    pub fn len(&self) -> usize {
        match self {
            PullE::Var(_, n) | PullE::Generate(n, _, _) | PullE::Take(n, _) => *n,
            PullE::Map(_, _, a) => a.len(),
            PullE::ZipWith(_, _, _, a, b) => a.len().min(b.len()),
            PullE::Drop(n, a) => a.len() - n,
        }
    }

    /// Never true: generated arrays have at least one element (kept for clippy's `len` rule).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// How an `interleave` places element j of sub-program b (nb sub-programs of k elements): each is
/// a bijection on `[0, k*nb)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Perm {
    /// `b*k + j`.
    RowMajor,
    /// `j*nb + b`.
    Transpose,
    /// `(k*nb - 1) - (b*k + j)`.
    Reverse,
}

/// A push array `[int]<l>` of a statically known size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PushE {
    /// `push<l> arr`.
    Push(Level, PullE),
    /// `mapPush<l> (fn i => fn x => e) a`.
    MapPush(Level, String, String, Box<IntE>, Box<PushE>),
    /// Thread level: `seqfor n n (fn rd => fn i => (i, if i == 0 then e0 else rd (i - 1) OP e))`
    /// with `rd`, `i` the given names; an inclusive scan.
    Scan(String, String, BinOp, Box<IntE>, Box<IntE>, usize),
}

impl PushE {
    /// The static size.
    pub fn len(&self) -> usize {
        match self {
            PushE::Push(_, a) => a.len(),
            PushE::MapPush(_, _, _, _, a) => a.len(),
            PushE::Scan(_, _, _, _, _, n) => *n,
        }
    }

    /// Never true (see [`PullE::is_empty`]).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A program `Program<l> [int]<l>` of a statically known result size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProgE {
    /// `return<l> a`.
    Return(Level, PushE),
    /// `do<l> { v <- force<l> a ; rest }`.
    Force(Level, String, PushE, Box<ProgE>),
    /// `interleave<l-1> k (fn p => perm) (generate nb (fn b => sub))`, or `interleaveSeq<l>` when
    /// `seq` (then `sub` runs at l itself).
    Interleave {
        level: Level,
        seq: bool,
        perm: Perm,
        nb: usize,
        b: String,
        sub: Box<ProgE>,
    },
    /// `do<l> { v <- prog ; return<l> (mapPush<l> (fn i => fn x => e) v) }`: maps over the push
    /// array a program yields (an interleave, a seqfor), which `PushE::MapPush` cannot reach.
    MapResult(Level, String, String, String, Box<IntE>, Box<ProgE>),
    /// `do<l> { v <- inner ; let q = lengthPush<l> v in return<l> (push<l> (generate n (fn j
    /// => q + e))) }` with `q` and `j` in scope of `e`: the size of any program's push array
    /// (`q` used, or the by-name `let` would never run `lengthPush`).
    LengthOf {
        level: Level,
        v: String,
        q: String,
        j: String,
        n: usize,
        e: Box<IntE>,
        inner: Box<ProgE>,
    },
    /// `do<l> { y <- power<l> n (fn i => fn x => step) init ; return<l> (push<l> y) }`.
    Power {
        level: Level,
        iters: usize,
        i: String,
        x: String,
        y: String,
        step: Box<ProgE>,
        init: Box<ProgE>,
    },
    /// `do<l> { y <- while<l> (fn x => lti (index x 0) bound) (fn x => return<l> (push<l>
    /// (generate n (fn j => if j == 0 then index x 0 + 1 else body)))) (return<l> (push<l>
    /// (generate n (fn j => if j == 0 then 0 else init))))) ; return<l> (push<l> y) }`: at most
    /// `bound` iterations.
    While {
        level: Level,
        bound: i32,
        n: usize,
        x: String,
        j: String,
        y: String,
        body: Box<IntE>,
        init: Box<IntE>,
    },
}

impl ProgE {
    /// The static size of the result.
    pub fn len(&self) -> usize {
        match self {
            ProgE::Return(_, a) => a.len(),
            ProgE::Force(_, _, _, rest) => rest.len(),
            ProgE::MapResult(_, _, _, _, _, p) => p.len(),
            ProgE::Interleave { nb, sub, .. } => nb * sub.len(),
            ProgE::Power { init, .. } => init.len(),
            ProgE::While { n, .. } | ProgE::LengthOf { n, .. } => *n,
        }
    }

    /// Never true (see [`PullE::is_empty`]).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// One statement of `main`: run a grid program, print its first `count` elements; the printed
/// (materialised) array is bound to `name` for later statements.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PrintStmt {
    pub name: String,
    pub prog: ProgE,
    pub count: usize,
}

/// A whole generated program: `main` is a grid `do` block of print statements.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FclProgram {
    pub stmts: Vec<PrintStmt>,
}
