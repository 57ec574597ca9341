//! The terms the stepper runs: the program compiled into an arena of [`Node`]s with variables
//! resolved to slots, and the run-time values `v ::= l | λx.e` (plus tuples).
//!
//! Variables are resolved statically (see [`super::compile`]): relative to a lambda's activation
//! base, slot 0 holds its parameter, slots 1, 2, … the `let`-bound variables in scope in nesting
//! order, and slots −1, −2, … the values the lambda captured where it was defined. This
//! is the environment form of the thesis's substitution `e[v/x]` (3.54/3.55): instead of
//! rewriting the body, a β or let step binds the value in the activation, and a variable
//! occurrence reads it when evaluation reaches it — exactly where the substituted value would
//! stand. So the configuration `e/s` is represented by the focus term, its activation and the
//! stack of evaluation contexts, and reading a variable is not a step.

use crate::tail::ops::prim::Prim;
use crate::tail::store::Loc;
use crate::tail::value::{BaseType, Scalar};
use crate::Span;
use std::rc::Rc;

/// Index of a node in [`Program::nodes`].
pub type NodeId = u32;

/// A compiled program: an arena of nodes and the root expression.
#[derive(Debug)]
pub struct Program {
    pub nodes: Vec<Node>,
    /// For each node, the number of parameter and `let` slots in scope where it stands (slots at
    /// or above it belong to binders inside the node).
    pub depth: Vec<u32>,
    pub root: NodeId,
    /// The element type the checker gave each `zilde()` node whose context fixes one other than
    /// int (spec §3.8: the evaluator needs inferred element types for fills); the others are int.
    pub zilde_types: std::collections::HashMap<NodeId, crate::tail::value::BaseType>,
}

impl Program {
    /// The node with this id.
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id as usize]
    }
}

/// A lambda `fn x:τ => e` with its captured variables.
#[derive(Debug)]
pub struct Lambda {
    pub param: Rc<str>,
    /// The parameter's element type, when its annotation names one (used to give an empty array
    /// its element type; spec §3.8: the evaluator needs inferred element types for fills).
    pub elem: Option<BaseType>,
    /// The parameter's annotation in TAIL syntax, when known.
    pub ann: Option<Rc<str>>,
    /// Slots, in the defining activation, of the values this lambda captures (in order).
    pub captures: Box<[i32]>,
    pub body: NodeId,
    pub span: Span,
    /// For the outermost lambda of an eta-expanded operator name (spec §2.4), that name.
    pub eta: Option<&'static str>,
}

/// One expression form (spec §2.1) with resolved variables.
#[derive(Debug)]
pub enum Node {
    /// A literal base value; it steps to a fresh location (3.56).
    Lit(Scalar, Span),
    /// A variable, read from slot `slot` of the current activation.
    Var {
        slot: i32,
        name: Rc<str>,
        span: Span,
    },
    /// `let x:τ = rhs in body`; `x` is bound in slot `slot`.
    Let {
        name: Rc<str>,
        slot: u32,
        elem: Option<BaseType>,
        ann: Option<Rc<str>>,
        rhs: NodeId,
        body: NodeId,
        span: Span,
    },
    /// `fn x:τ => e`: evaluates to a closure at once.
    Lam(Lambda),
    /// `op(e⃗)`; `name` is the operator as written (`takeV`).
    Op {
        prim: Prim,
        name: &'static str,
        args: Box<[NodeId]>,
        span: Span,
    },
    /// `[e⃗]`: a vector literal; when its elements are values it allocates (3.56).
    Vector { elems: Box<[NodeId]>, span: Span },
    /// `(e1,…,en)`.
    Tuple { elems: Box<[NodeId]>, span: Span },
    /// `Prj(i, e)`, 0-based.
    Prj {
        index: usize,
        tuple: NodeId,
        span: Span,
    },
    /// `if c then a else b`.
    If {
        cond: NodeId,
        then_: NodeId,
        else_: NodeId,
        span: Span,
    },
}

impl Node {
    /// Where the node came from.
    pub fn span(&self) -> Span {
        match self {
            Node::Lit(_, s) => *s,
            Node::Var { span, .. }
            | Node::Let { span, .. }
            | Node::Op { span, .. }
            | Node::Vector { span, .. }
            | Node::Tuple { span, .. }
            | Node::Prj { span, .. }
            | Node::If { span, .. } => *span,
            Node::Lam(l) => l.span,
        }
    }
}

/// A closure: a lambda and the values of its captured variables.
#[derive(Debug)]
pub struct Closure {
    pub lam: NodeId,
    pub captured: Box<[Value]>,
}

/// A run-time value: a store location, a closure, or a tuple of values.
#[derive(Clone, Debug)]
pub enum Value {
    Loc(Loc),
    Closure(Rc<Closure>),
    Tuple(Rc<[Value]>),
}

impl Value {
    /// The location, if this value is one.
    pub fn loc(&self) -> Option<&Loc> {
        match self {
            Value::Loc(l) => Some(l),
            _ => None,
        }
    }
}
