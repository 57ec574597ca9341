//! Type- and shape-directed generation of FCL programs. Every generator is asked for a value of a
//! given type *and* shape (an `int`, a pull array of exactly n elements, a level-l program whose
//! result has n elements), so the result is well typed, and run-time errors are excluded by
//! construction: indices go through `(i & 0x3fffffff) % n` with n the static length, divisors are
//! `(d & 255) + 1`, interleave destinations are bijections, loops have constant bounds.

use super::fcl_ast::*;
use super::rng::Rng;

/// Relative weights of the program-level constructs (0 turns one off).
#[derive(Clone, Debug)]
pub struct Weights {
    pub ret: u32,
    pub force: u32,
    pub interleave: u32,
    pub interleave_seq: u32,
    pub power: u32,
    pub while_loop: u32,
    /// `push<grid>`/`force<grid>` directly at grid level (the thesis allows it; [O] cannot
    /// compile it, spec §4.6).
    pub grid_push: u32,
    pub map_push: u32,
    /// `mapPush` over the push array a program yields.
    pub map_result: u32,
    pub scan: u32,
    /// The percentage of programs that may use `lengthPush` (which the compiler declines, so
    /// it is kept to a few programs).
    pub length_push_percent: u32,
    /// The percentage of indexings (with an `int` in scope) that read a neighbour of it,
    /// `v + k` or `(n - 1) - v`, instead of any `int`: a work-item reading another's element of
    /// a forced array is what needs the barrier after the force.
    pub neighbour_index_percent: u32,
    /// The percentage of `force`s whose continuation is a stencil over the forced array
    /// (`return (push (generate n (fn j => index f (j + k) OP e)))`).
    pub stencil_percent: u32,
    /// Whether `power<grid>` and `while<grid>` may appear: the generated forms end in
    /// `return<grid> (push<grid> y)`, and a `while`'s condition reads array data, neither of
    /// which the original compiler can do at grid level.
    pub grid_loops: bool,
}

impl Default for Weights {
    fn default() -> Weights {
        Weights {
            ret: 4,
            force: 2,
            interleave: 4,
            interleave_seq: 1,
            power: 1,
            while_loop: 1,
            grid_push: 1,
            map_push: 2,
            map_result: 1,
            scan: 2,
            length_push_percent: 10,
            neighbour_index_percent: 40,
            stencil_percent: 30,
            grid_loops: true,
        }
    }
}

/// Size and feature controls of the FCL generator.
#[derive(Clone, Debug)]
pub struct FclConfig {
    /// Depth budget of scalar expressions.
    pub expr_depth: u32,
    /// Depth budget of program nesting (interleave, force, loops).
    pub prog_depth: u32,
    /// Most statements (printed arrays) in `main`.
    pub max_stmts: usize,
    /// Largest printed array.
    pub max_len: usize,
    /// Deepest parenthesis nesting of the printed program.
    pub max_nesting: u64,
    pub weights: Weights,
}

impl Default for FclConfig {
    fn default() -> FclConfig {
        FclConfig {
            expr_depth: 3,
            prog_depth: 3,
            max_stmts: 3,
            max_len: 48,
            max_nesting: 48,
            weights: Weights::default(),
        }
    }
}

/// The static type of a name in scope.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ty {
    Int,
    Arr(usize),
}

/// What is in scope: names and their types, innermost last.
type Env = Vec<(String, Ty)>;

struct Generator<'a> {
    rng: &'a mut Rng,
    cfg: &'a FclConfig,
    fresh: usize,
    /// Whether this program may use `lengthPush`.
    length_push: bool,
}

/// Generates one program; a draw nested deeper than `cfg.max_nesting` (the front end limits
/// expression depth) is redrawn from the same generator, so the result stays deterministic.
pub fn generate_fcl(rng: &mut Rng, cfg: &FclConfig) -> FclProgram {
    loop {
        let p = generate_once(rng, cfg);
        if super::fcl_print::nesting_depth(&super::print_program(&p)) <= cfg.max_nesting {
            return p;
        }
    }
}

fn generate_once(rng: &mut Rng, cfg: &FclConfig) -> FclProgram {
    let length_push = rng.chance(cfg.weights.length_push_percent);
    let mut g = Generator {
        rng,
        cfg,
        fresh: 0,
        length_push,
    };
    let count = g.rng.range(1, cfg.max_stmts.max(1));
    let mut env: Env = Vec::new();
    let mut stmts = Vec::new();
    for _ in 0..count {
        let n = g.length(cfg.max_len);
        let prog = g.prog(Level::Grid, &env, cfg.prog_depth, n);
        let name = g.name("a");
        let shown = g.rng.range(1, n);
        env.push((name.clone(), Ty::Arr(n)));
        stmts.push(PrintStmt {
            name,
            prog,
            count: shown,
        });
    }
    FclProgram { stmts }
}

impl Generator<'_> {
    fn name(&mut self, prefix: &str) -> String {
        self.fresh += 1;
        format!("{prefix}{}", self.fresh)
    }

    /// A positive length up to `max`, biased to small ones.
    fn length(&mut self, max: usize) -> usize {
        if self.rng.chance(50) {
            self.rng.range(1, max.clamp(1, 8))
        } else {
            self.rng.range(1, max.max(1))
        }
    }

    fn literal(&mut self) -> i32 {
        match self.rng.range(0, 9) {
            0 => *self.rng.pick(&[i32::MAX, i32::MIN, 65536, -65536, 1 << 30]),
            1 | 2 => self.rng.range(0, 1000) as i32 - 500,
            _ => self.rng.range(0, 16) as i32 - 4,
        }
    }

    fn int_leaf(&mut self, env: &Env) -> IntE {
        let ints: Vec<&String> = env
            .iter()
            .filter(|(_, t)| *t == Ty::Int)
            .map(|(n, _)| n)
            .collect();
        if !ints.is_empty() && self.rng.chance(60) {
            IntE::Var((*self.rng.pick(&ints)).clone())
        } else {
            IntE::Lit(self.literal())
        }
    }

    fn int(&mut self, env: &Env, depth: u32) -> IntE {
        if depth == 0 {
            return self.int_leaf(env);
        }
        let d = depth - 1;
        let b = |e: IntE| Box::new(e);
        let length_push = u32::from(self.length_push);
        match self
            .rng
            .weighted(&[3, 6, 1, 1, 1, 3, 1, 1, 1, length_push, 1])
        {
            0 => self.int_leaf(env),
            1 => {
                let op = *self.rng.pick(&[
                    BinOp::Add,
                    BinOp::Sub,
                    BinOp::Mul,
                    BinOp::Min,
                    BinOp::Max,
                    BinOp::And,
                    BinOp::Xor,
                    BinOp::Shl,
                    BinOp::Shr,
                ]);
                IntE::Bin(op, b(self.int(env, d)), b(self.int(env, d)))
            }
            2 => {
                let op = *self.rng.pick(&[UnOp::Abs, UnOp::Sign, UnOp::Clz]);
                IntE::Un(op, b(self.int(env, d)))
            }
            3 => IntE::Div(b(self.int(env, d)), b(self.int(env, d))),
            4 => IntE::ModK(b(self.int(env, d)), self.rng.range(1, 17) as i32),
            5 => {
                let arr = self.any_pull(env, d);
                let i = self.index(env, d, arr.len());
                IntE::Index(b_pull(arr), b(i))
            }
            6 => IntE::Length(b_pull(self.any_pull(env, d))),
            7 => {
                let c = self.cmp();
                IntE::If(
                    c,
                    b(self.int(env, d)),
                    b(self.int(env, d)),
                    b(self.int(env, d)),
                    b(self.int(env, d)),
                )
            }
            8 => {
                let c = self.cmp();
                IntE::B2i(c, b(self.int(env, d)), b(self.int(env, d)))
            }
            10 => {
                let k = self.rng.range(1, 16) as i32;
                let k = if k > 1 && self.rng.chance(40) { -k } else { k };
                IntE::Rem(b(self.int(env, d)), k)
            }
            _ => {
                let n = self.length(8);
                IntE::LengthPush(Box::new(self.push(Level::Thread, env, d, n)))
            }
        }
    }

    /// An index into an array of `len` elements (the printer wraps it into range): any `int`,
    /// or a neighbour of an `int` in scope (`v + k`, `(len - 1) - v`), the innermost one (an
    /// element index, usually) most often. Stencils and reversals read other work-items'
    /// elements, which plain indexing rarely does.
    fn index(&mut self, env: &Env, depth: u32, len: usize) -> IntE {
        let innermost = env.iter().rev().find(|(_, t)| *t == Ty::Int);
        let neighbour = self.cfg.weights.neighbour_index_percent;
        let Some((v, _)) = innermost.filter(|_| len > 1 && self.rng.chance(neighbour)) else {
            return self.int(env, depth);
        };
        let v = if self.rng.chance(30) {
            self.int_leaf(env)
        } else {
            IntE::Var(v.clone())
        };
        self.neighbour(v, len)
    }

    /// A neighbour of `v` in an array of `len > 1` elements: `v + k` (0 < k < len) or
    /// `(len - 1) - v`.
    fn neighbour(&mut self, v: IntE, len: usize) -> IntE {
        if self.rng.chance(50) {
            let k = self.rng.range(1, len - 1) as i32;
            IntE::Bin(BinOp::Add, Box::new(v), Box::new(IntE::Lit(k)))
        } else {
            IntE::Bin(BinOp::Sub, Box::new(IntE::Lit(len as i32 - 1)), Box::new(v))
        }
    }

    fn cmp(&mut self) -> CmpOp {
        *self.rng.pick(&[CmpOp::Lt, CmpOp::Eq, CmpOp::Neq])
    }

    /// A pull array of any length: an array in scope, or a fresh one.
    fn any_pull(&mut self, env: &Env, depth: u32) -> PullE {
        let arrays: Vec<(String, usize)> = env
            .iter()
            .filter_map(|(n, t)| match t {
                Ty::Arr(len) => Some((n.clone(), *len)),
                Ty::Int => None,
            })
            .collect();
        if !arrays.is_empty() && self.rng.chance(60) {
            let (n, len) = self.rng.pick(&arrays).clone();
            PullE::Var(n, len)
        } else {
            let n = self.length(16);
            self.pull(env, depth, n)
        }
    }

    /// A pull array of exactly `n` elements.
    fn pull(&mut self, env: &Env, depth: u32, n: usize) -> PullE {
        let same: Vec<String> = env
            .iter()
            .filter(|(_, t)| *t == Ty::Arr(n))
            .map(|(x, _)| x.clone())
            .collect();
        let choice = if depth == 0 {
            self.rng.weighted(&[2, 3, 0, 0, 0, 0])
        } else {
            self.rng.weighted(&[2, 5, 2, 1, 1, 1])
        };
        let d = depth.saturating_sub(1);
        match choice {
            0 if !same.is_empty() => PullE::Var(self.rng.pick(&same).clone(), n),
            2 => {
                let v = self.name("x");
                let inner = self.pull(env, d, n);
                let e = self.int(&with(env, &v, Ty::Int), d);
                PullE::Map(v, Box::new(e), Box::new(inner))
            }
            3 => {
                let (x, y) = (self.name("x"), self.name("y"));
                let extra = self.rng.range(0, 3);
                let a = self.pull(env, d, n);
                let bb = self.pull(env, d, n + extra);
                let inner = with(&with(env, &x, Ty::Int), &y, Ty::Int);
                let e = self.int(&inner, d);
                PullE::ZipWith(x, y, Box::new(e), Box::new(a), Box::new(bb))
            }
            4 => {
                let extra = self.rng.range(0, 4);
                PullE::Take(n, Box::new(self.pull(env, d, n + extra)))
            }
            5 => {
                let k = self.rng.range(1, 4);
                PullE::Drop(k, Box::new(self.pull(env, d, n + k)))
            }
            _ => {
                let v = self.name("i");
                let e = self.int(&with(env, &v, Ty::Int), self.cfg.expr_depth.min(depth + 1));
                PullE::Generate(n, v, Box::new(e))
            }
        }
    }

    /// A push array at `level` of exactly `n` elements.
    fn push(&mut self, level: Level, env: &Env, depth: u32, n: usize) -> PushE {
        let w = &self.cfg.weights;
        let scan = if level == Level::Thread { w.scan } else { 0 };
        let map = if depth > 0 { w.map_push } else { 0 };
        let ed = self.cfg.expr_depth;
        match self.rng.weighted(&[4, map, scan]) {
            1 => {
                let (i, x) = (self.name("j"), self.name("x"));
                let inner = self.push(level, env, depth - 1, n);
                let e = self.int(&with(&with(env, &i, Ty::Int), &x, Ty::Int), ed);
                PushE::MapPush(level, i, x, Box::new(e), Box::new(inner))
            }
            2 => {
                let (rd, i) = (self.name("rd"), self.name("i"));
                let op = *self
                    .rng
                    .pick(&[BinOp::Add, BinOp::Max, BinOp::Xor, BinOp::Mul]);
                let e0 = self.int(env, ed);
                let e = self.int(&with(env, &i, Ty::Int), ed);
                PushE::Scan(rd, i, op, Box::new(e0), Box::new(e), n)
            }
            _ => PushE::Push(level, self.pull(env, ed, n)),
        }
    }

    /// A stencil: `f` (`m` elements) forced, then `n` elements where element j combines `f`'s
    /// element at a neighbour of j with an expression that may read `f` again. Work-items
    /// reading each other's elements right after the force are what the barrier between them
    /// protects (and what the compiler's barrier removal must keep). The forced elements
    /// differ by index and by the innermost `int` in scope (a block's index, usually), so a
    /// read that comes too early, finding another element or another block's, shows.
    fn stencil(&mut self, level: Level, env: &Env, (f, m): (String, usize), n: usize) -> ProgE {
        let ed = self.cfg.expr_depth.saturating_sub(1);
        let i = self.name("i");
        let outer = match env.iter().rev().find(|(_, t)| *t == Ty::Int) {
            Some((b, _)) => IntE::Bin(
                BinOp::Mul,
                Box::new(IntE::Var(b.clone())),
                Box::new(IntE::Lit(m as i32)),
            ),
            None => IntE::Lit(self.literal()),
        };
        let spread = IntE::Bin(BinOp::Add, Box::new(IntE::Var(i.clone())), Box::new(outer));
        let mixed = IntE::Bin(
            BinOp::Xor,
            Box::new(spread),
            Box::new(self.int(&with(env, &i, Ty::Int), ed)),
        );
        let forced = PushE::Push(level, PullE::Generate(m, i, Box::new(mixed)));
        let j = self.name("j");
        let inner = with(&with(env, &f, Ty::Arr(m)), &j, Ty::Int);
        let at = if m > 1 {
            self.neighbour(IntE::Var(j.clone()), m)
        } else {
            IntE::Lit(0)
        };
        let read = IntE::Index(Box::new(PullE::Var(f.clone(), m)), Box::new(at));
        let other = self.int(&inner, ed);
        let op = *self
            .rng
            .pick(&[BinOp::Add, BinOp::Sub, BinOp::Xor, BinOp::Max]);
        let e = IntE::Bin(op, Box::new(read), Box::new(other));
        let rest = ProgE::Return(
            level,
            PushE::Push(level, PullE::Generate(n, j, Box::new(e))),
        );
        ProgE::Force(level, f, forced, Box::new(rest))
    }

    /// A `Program<level> [int]<level>` whose result has exactly `n` elements.
    fn prog(&mut self, level: Level, env: &Env, depth: u32, n: usize) -> ProgE {
        let w = self.cfg.weights.clone();
        let at_grid = level == Level::Grid;
        let direct = if at_grid { w.grid_push } else { 1 };
        let nested = |x: u32| if depth > 0 { x } else { 0 };
        let par = if level == Level::Thread {
            0
        } else {
            nested(w.interleave)
        };
        let mut weights = [
            w.ret * direct,
            nested(w.force) * direct,
            par,
            nested(w.interleave_seq),
            if at_grid && !w.grid_loops {
                0
            } else {
                nested(w.power)
            },
            if at_grid && !w.grid_loops {
                0
            } else {
                nested(w.while_loop)
            },
            nested(w.map_result),
            if self.length_push { nested(1) } else { 0 },
        ];
        if weights.iter().all(|&x| x == 0) {
            if at_grid && w.grid_push == 0 {
                // a subset without direct grid push arrays: an interleave of blocks, the
                // original compiler's only way to a grid array
                weights[2] = 1;
            } else {
                // nothing else fits (grid level at depth 0 without grid push): allow the
                // direct form
                weights[0] = 1;
            }
        }
        let d = depth.saturating_sub(1);
        let ed = self.cfg.expr_depth;
        match self.rng.weighted(&weights) {
            1 => {
                let v = self.name("f");
                let m = self.length(16);
                if self.rng.chance(w.stencil_percent) {
                    return self.stencil(level, env, (v, m), n);
                }
                let a = self.push(level, env, d, m);
                let rest = self.prog(level, &with(env, &v, Ty::Arr(m)), d, n);
                ProgE::Force(level, v, a, Box::new(rest))
            }
            c @ (2 | 3) => self.interleave(level, env, d, n, c == 3),
            4 => {
                let (i, x, y) = (self.name("k"), self.name("p"), self.name("r"));
                let iters = self.rng.range(0, 3);
                let inner = with(&with(env, &i, Ty::Int), &x, Ty::Arr(n));
                let step = self.prog(level, &inner, d, n);
                let init = self.prog(level, env, d, n);
                ProgE::Power {
                    level,
                    iters,
                    i,
                    x,
                    y,
                    step: Box::new(step),
                    init: Box::new(init),
                }
            }
            5 => {
                let (x, j, y) = (self.name("w"), self.name("j"), self.name("r"));
                let bound = self.rng.range(0, 4) as i32;
                let body = self.int(&with(&with(env, &x, Ty::Arr(n)), &j, Ty::Int), ed);
                let init = self.int(&with(env, &j, Ty::Int), ed);
                ProgE::While {
                    level,
                    bound,
                    n,
                    x,
                    j,
                    y,
                    body: Box::new(body),
                    init: Box::new(init),
                }
            }
            6 => {
                let (v, i, x) = (self.name("m"), self.name("j"), self.name("x"));
                let inner = self.prog(level, env, d, n);
                let e = self.int(&with(&with(env, &i, Ty::Int), &x, Ty::Int), ed);
                ProgE::MapResult(level, v, i, x, Box::new(e), Box::new(inner))
            }
            7 => {
                let (v, q, j) = (self.name("v"), self.name("q"), self.name("j"));
                let m = self.length(16);
                // half the time the length of an interleaving (rules 5.65 and 5.66), which
                // `prog` alone rarely nests here
                let inner = match self.rng.range(0, 3) {
                    0 if level != Level::Thread => self.interleave(level, env, d, m, false),
                    1 => self.interleave(level, env, d, m, true),
                    _ => self.prog(level, env, d, m),
                };
                let e = self.int(&with(&with(env, &q, Ty::Int), &j, Ty::Int), ed);
                ProgE::LengthOf {
                    level,
                    v,
                    q,
                    j,
                    n,
                    e: Box::new(e),
                    inner: Box::new(inner),
                }
            }
            _ => ProgE::Return(level, self.push(level, env, d, n)),
        }
    }
}

impl Generator<'_> {
    /// `interleave<level>` (or `interleaveSeq<level>` when `seq`) of `n` elements: sub-programs
    /// one level down (the same level when `seq`) of `n / nb` elements each, written in one of
    /// three orders.
    fn interleave(&mut self, level: Level, env: &Env, d: u32, n: usize, seq: bool) -> ProgE {
        let divisors: Vec<usize> = (1..=n).filter(|k| n.is_multiple_of(*k)).collect();
        let nb = *self.rng.pick(&divisors);
        let b = self.name("b");
        let sub_level = if seq {
            level
        } else {
            level.below().unwrap_or(Level::Thread)
        };
        let sub = self.prog(sub_level, &with(env, &b, Ty::Int), d, n / nb);
        let perm = *self
            .rng
            .pick(&[Perm::RowMajor, Perm::Transpose, Perm::Reverse]);
        ProgE::Interleave {
            level,
            seq,
            perm,
            nb,
            b,
            sub: Box::new(sub),
        }
    }
}

fn b_pull(a: PullE) -> Box<PullE> {
    Box::new(a)
}

fn with(env: &Env, name: &str, ty: Ty) -> Env {
    let mut e = env.clone();
    e.push((name.to_string(), ty));
    e
}
