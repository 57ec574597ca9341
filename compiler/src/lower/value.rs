//! Compile-time values of the symbolic evaluation (spec §8.1): scalars are IR expressions, pull
//! arrays are a length and an index function, push arrays a first-order tree of writers, programs
//! suspended code-emitting actions, functions closures over core terms.

use crate::kir::{Expr, Ty};
use semantics::fcl::core::{self, Level, Name};
use std::rc::Rc;

/// A compile-time value.
#[derive(Clone, Debug)]
pub enum Val {
    Scalar(Expr, Ty),
    Unit,
    Str(Rc<str>),
    Pair(Rc<Val>, Rc<Val>),
    Fun(Rc<Closure>),
    /// `read` of a `seqfor`: reads element `j` of private array `name`; of a size-1 `seqfor`
    /// (`true`), always its one cell, whatever `j` is (the original's quirk, as the oracle does).
    ReadPrivate(Rc<str>, Ty, bool),
    Pull(Rc<Pull>),
    Push(Rc<Push>),
    Prog(Rc<Prog>),
}

/// `fn param => body` closed over `env`.
#[derive(Debug)]
pub struct Closure {
    pub env: Env,
    pub param: Name,
    pub body: Rc<core::Expr>,
}

/// A pull array: a length and an index function.
#[derive(Debug)]
pub struct Pull {
    pub len: Expr,
    pub index: Index,
}

/// How a pull array computes element `i`.
#[derive(Debug)]
pub enum Index {
    /// `generate n f`: `f i`.
    Generate(Val),
    /// `mapPull f a`: `f (a i)`.
    Map(Val, Rc<Pull>),
    /// A materialised array (global `g…`, local `l…` or private `p…`).
    Buffer(Rc<str>, Ty),
}

/// A push array: what writing it does.
#[derive(Debug)]
pub enum Push {
    /// `push<l> a`: a level-l parallel loop over `a`.
    Push(Level, Rc<Pull>),
    /// `interleave<l> k f ps` (parallel at 1+l) or, when `seq`, `interleaveSeq<l>`: sub-program
    /// `b` yields a push array whose element `j` goes to `f (b, j)`.
    Interleave {
        sub: Level,
        k: Expr,
        f: Val,
        ps: Rc<Pull>,
        seq: bool,
    },
    /// `seqfor n m step`.
    SeqFor { n: Expr, m: Expr, step: Val },
    /// `mapPush h a`: element `i` with value `x` becomes `h i x`.
    MapPush(Val, Rc<Push>),
}

/// A program, run each time it is bound (spec §7.1).
#[derive(Debug)]
pub enum Prog {
    Return(Val),
    Bind(Val, Val),
    Force(Level, Val),
    /// Yields the delayed push array of an interleave.
    Interleave(Rc<Push>),
    Power {
        level: Level,
        n: Expr,
        step: Val,
        init: Val,
        indexed: bool,
    },
    While {
        level: Level,
        cond: Val,
        step: Val,
        init: Val,
    },
    /// `readIntCSV path`.
    ReadCsv(Rc<str>),
    /// `nowMs 0`.
    NowMs,
    /// `benchmark n p`.
    Benchmark(Expr, Val),
    Print {
        n: Expr,
        arr: Val,
        double: bool,
        /// `forceAndPrintDoubleExact` (docs/fcl-extensions.md).
        exact: bool,
    },
}

/// An environment: a persistent list, nearest binding first.
#[derive(Clone, Debug, Default)]
pub struct Env(Option<Rc<EnvNode>>);

#[derive(Debug)]
struct EnvNode {
    name: Name,
    val: Val,
    next: Env,
}

impl Env {
    /// The environment with `name` bound to `val` in front.
    pub fn bind(&self, name: Name, val: Val) -> Env {
        Env(Some(Rc::new(EnvNode {
            name,
            val,
            next: self.clone(),
        })))
    }
    /// The nearest binding of `name`.
    pub fn lookup(&self, name: &str) -> Option<&Val> {
        let mut cur = &self.0;
        while let Some(node) = cur {
            if &*node.name == name {
                return Some(&node.val);
            }
            cur = &node.next.0;
        }
        None
    }
}
