//! The configuration `e/s` of the store semantics as a machine, and the one-step relation
//! [`Machine::step`].
//!
//! The term is kept as a *focus* and a stack of evaluation contexts (a zipper): `E[e]` is the
//! focus `e` under the frames of `E`, innermost last. The contexts are those of (3.27)/(3.52):
//! `let x = E in e`, `op(v⃗ E e⃗)`, `[v⃗ E e⃗]`, plus tuples, `Prj` and `if`. Moving the focus into
//! a context or a value back out of one is not a step (it is the decomposition `E[r]` of the
//! unique-decomposition proposition); a step happens when a redex `r` is in focus, and costs O(1)
//! apart from the work of the operator itself. So the next redex is never searched for.

use super::iterate::Iter;
use super::rules::Rule;
use super::term::{Closure, Node, NodeId, Program, Value};
use crate::tail::ops::apply::OpEnv;
use crate::tail::print_value::flat_text;
use crate::tail::store::{Loc, Store};
use crate::tail::value::Array;
use crate::Span;
use std::rc::Rc;

/// What one step did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StepInfo {
    /// The rule that fired.
    pub rule: Rule,
    /// Scalar operations performed.
    pub work: u64,
    /// This step's contribution to the critical path when bulk operators run their element
    /// functions in parallel. Steps inside an element function of `each`, `zipWith`, `reduce` or
    /// `scan` report 0; the bulk operator's final step reports the span of the whole operation:
    /// the longest element strand, times ⌈log2 m⌉ levels for a reduction or scan over m elements,
    /// plus one for storing the result. So the reported spans add up to the program's span.
    pub span: u64,
}

/// A step to `err` (3.28/3.53): the rule, the reason, and the operator's source position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepError {
    pub rule: Rule,
    pub reason: String,
    pub span: Span,
}

/// The outcome of [`Machine::step`].
#[derive(Debug)]
pub enum Stepped {
    /// The configuration took one step (the machine now holds the next configuration).
    Next(StepInfo),
    /// The configuration is a value; no step is possible.
    Value(Value),
    /// The configuration stepped to `err`, or is stuck (rule [`Rule::STUCK`]).
    Err(StepError),
}

/// The printed form of the last step (only kept while tracing).
#[derive(Clone, Debug, Default)]
pub struct TraceInfo {
    pub redex: String,
    pub result: String,
    pub effects: Vec<String>,
}

/// Values of an operator application's arguments gathered so far (arity ≤ 3).
#[derive(Debug, Default)]
pub(super) struct ArgVals {
    pub len: u8,
    pub vals: [Option<Value>; 3],
}

/// An evaluation context frame; the stack of frames is the context `E`.
#[derive(Debug)]
pub(super) enum Frame {
    /// `let x = [·] in e`.
    LetBody { node: NodeId },
    /// `op(v⃗ [·] e⃗)`.
    Args { node: NodeId, vals: ArgVals },
    /// `[v⃗ [·] e⃗]` and `(v⃗, [·], e⃗)`.
    Elems { node: NodeId, vals: Vec<Value> },
    /// `Prj(i, [·])`.
    Prj { node: NodeId },
    /// `if [·] then e1 else e2`.
    If { node: NodeId },
    /// The end of a `let` body's scope: drop the bindings above `height`.
    Scope { height: usize },
    /// The end of a β-reduced body: restore the caller's activation.
    Activation { base: usize, height: usize },
    /// `[·] v`: the function position of an application whose argument is already a value
    /// (the second argument of a curried binary function).
    ApplyTo { arg: Value },
    /// A higher-order operator part way through its applications.
    Iter(Box<Iter>),
}

/// What the machine does next.
#[derive(Debug)]
pub(super) enum Focus {
    /// Evaluate this term.
    Eval(NodeId),
    /// A value, to be plugged into the innermost context.
    Return(Value),
    /// The innermost frame is an [`Iter`] whose next application (or final step) is due.
    Resume,
}

/// A configuration `e/s` of the store semantics, ready to step.
pub struct Machine {
    pub(super) prog: Rc<Program>,
    pub(super) store: Store,
    /// Activation records: slot values of the enclosing lambdas and lets.
    pub(super) locals: Vec<Value>,
    pub(super) base: usize,
    pub(super) stack: Vec<Frame>,
    pub(super) focus: Focus,
    pub(super) env: OpEnv,
    /// Nesting depth of bulk operators whose element functions are running.
    pub(super) bulk_depth: u32,
    /// Span accumulated by the current element strand (when `bulk_depth > 0`).
    pub(super) strand: u64,
    pub(super) output: String,
    pub(super) tracing: bool,
    pub(super) trace: TraceInfo,
    done: bool,
}

impl Machine {
    /// The initial configuration `e/∅` of a compiled program.
    pub fn new(prog: Rc<Program>) -> Machine {
        let root = prog.root;
        Machine {
            prog,
            store: Store::new(),
            locals: Vec::new(),
            base: 0,
            stack: Vec::new(),
            focus: Focus::Eval(root),
            env: OpEnv::default(),
            bulk_depth: 0,
            strand: 0,
            output: String::new(),
            tracing: false,
            trace: TraceInfo::default(),
            done: false,
        }
    }

    /// Keep the printed redex, result and effects of each step ([`Machine::last_trace`]).
    pub fn set_tracing(&mut self, on: bool) {
        self.tracing = on;
    }

    /// The printed form of the last step (empty unless tracing).
    pub fn last_trace(&self) -> &TraceInfo {
        &self.trace
    }

    /// Takes the standard output written by `pr*` operators so far.
    pub fn take_output(&mut self) -> String {
        std::mem::take(&mut self.output)
    }

    /// The store.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Number of evaluation-context frames (the size of `E`).
    pub fn context_depth(&self) -> usize {
        self.stack.len()
    }

    /// Takes one step: `e/s ↪ e'/s'`, or `err`, or reports that `e` is a value.
    pub fn step(&mut self) -> Stepped {
        if self.tracing {
            self.trace = TraceInfo::default();
        }
        if self.done {
            return self.stuck_at(Span::DUMMY, "the configuration has already stepped to err");
        }
        let r = self.step_inner();
        if let Stepped::Err(_) = r {
            self.done = true;
        }
        r
    }

    fn step_inner(&mut self) -> Stepped {
        let prog = Rc::clone(&self.prog);
        loop {
            match std::mem::replace(&mut self.focus, Focus::Resume) {
                Focus::Eval(id) => match prog.node(id) {
                    // (3.56) a literal base value is stored at a fresh location.
                    Node::Lit(x, _) => {
                        let l = self.alloc(Array::scalar(*x));
                        if self.tracing {
                            self.trace.redex = crate::tail::print_value::scalar_text(*x);
                            self.trace.result = l.to_string();
                        }
                        self.focus = Focus::Return(Value::Loc(l));
                        return self.next(Rule::ALLOC, 1, 1);
                    }
                    // e[v/x] already holds v where x stood: reading the slot is not a step.
                    Node::Var { slot, .. } => match self.locals.get(slot_index(self.base, *slot)) {
                        Some(v) => self.focus = Focus::Return(v.clone()),
                        None => return self.stuck(id, "unbound variable"),
                    },
                    Node::Let { rhs, .. } => {
                        self.stack.push(Frame::LetBody { node: id });
                        self.focus = Focus::Eval(*rhs);
                    }
                    // A lambda is a value: it becomes a closure over the captured slots.
                    Node::Lam(lam) => {
                        let mut captured = Vec::with_capacity(lam.captures.len());
                        for &s in lam.captures.iter() {
                            match self.locals.get(slot_index(self.base, s)) {
                                Some(v) => captured.push(v.clone()),
                                None => return self.stuck(id, "unbound captured variable"),
                            }
                        }
                        self.focus = Focus::Return(Value::Closure(Rc::new(Closure {
                            lam: id,
                            captured: captured.into_boxed_slice(),
                        })));
                    }
                    Node::Op { args, prim, .. } => {
                        // replicate never evaluates its first argument (spec trap 13).
                        let skip = usize::from(*prim == crate::tail::ops::prim::Prim::Replicate);
                        if args.len() <= skip {
                            return self.fire_op(id, ArgVals::default());
                        }
                        let vals = ArgVals {
                            len: skip as u8,
                            ..ArgVals::default()
                        };
                        self.stack.push(Frame::Args { node: id, vals });
                        self.focus = Focus::Eval(args[skip]);
                    }
                    Node::Vector { elems, .. } | Node::Tuple { elems, .. } => {
                        if elems.is_empty() {
                            return self.fire_elems(id, Vec::new());
                        }
                        let vals = Vec::with_capacity(elems.len());
                        self.stack.push(Frame::Elems { node: id, vals });
                        self.focus = Focus::Eval(elems[0]);
                    }
                    Node::Prj { tuple, .. } => {
                        self.stack.push(Frame::Prj { node: id });
                        self.focus = Focus::Eval(*tuple);
                    }
                    Node::If { cond, .. } => {
                        self.stack.push(Frame::If { node: id });
                        self.focus = Focus::Eval(*cond);
                    }
                },
                Focus::Return(v) => match self.stack.pop() {
                    None => {
                        self.focus = Focus::Return(v.clone());
                        return Stepped::Value(v);
                    }
                    Some(frame) => {
                        if let Some(s) = self.plug(&prog, frame, v) {
                            return s;
                        }
                    }
                },
                Focus::Resume => match self.stack.pop() {
                    Some(Frame::Iter(it)) => return self.resume(it),
                    _ => return self.stuck_at(Span::DUMMY, "nothing to resume"),
                },
            }
        }
    }

    /// Plugs value `v` into the innermost context `frame`. Returns a step if a redex fired.
    fn plug(&mut self, prog: &Program, frame: Frame, v: Value) -> Option<Stepped> {
        match frame {
            // (3.54) let x = v in e ↪ e[v/x]: bind x in its slot and continue with the body.
            Frame::LetBody { node } => {
                let Node::Let {
                    slot, body, elem, ..
                } = prog.node(node)
                else {
                    return Some(self.stuck(node, "let frame without let"));
                };
                if let (Some(ty), Value::Loc(l)) = (elem, &v) {
                    retag_empty(l, *ty);
                }
                let height = self.base + *slot as usize;
                if self.locals.len() != height {
                    self.locals.truncate(height);
                }
                let tail = matches!(
                    self.stack.last(),
                    Some(Frame::Scope { .. } | Frame::Activation { .. })
                );
                if !tail {
                    self.stack.push(Frame::Scope { height });
                }
                if self.tracing {
                    self.trace.redex = super::show::let_redex(prog, node, &v);
                    self.trace.result = super::show::term(prog, *body);
                }
                self.locals.push(v);
                self.focus = Focus::Eval(*body);
                Some(self.next(Rule::LET, 0, 0))
            }
            Frame::Args { node, mut vals } => {
                let Node::Op { args, .. } = prog.node(node) else {
                    return Some(self.stuck(node, "argument frame without operator"));
                };
                vals.vals[vals.len as usize] = Some(v);
                vals.len += 1;
                if (vals.len as usize) < args.len() {
                    let next = args[vals.len as usize];
                    self.stack.push(Frame::Args { node, vals });
                    self.focus = Focus::Eval(next);
                    None
                } else {
                    Some(self.fire_op(node, vals))
                }
            }
            Frame::Elems { node, mut vals } => {
                let (Node::Vector { elems, .. } | Node::Tuple { elems, .. }) = prog.node(node)
                else {
                    return Some(self.stuck(node, "element frame without vector"));
                };
                vals.push(v);
                if vals.len() < elems.len() {
                    let next = elems[vals.len()];
                    self.stack.push(Frame::Elems { node, vals });
                    self.focus = Focus::Eval(next);
                    None
                } else {
                    Some(self.fire_elems(node, vals))
                }
            }
            Frame::Prj { node } => Some(self.fire_prj(node, v)),
            Frame::If { node } => Some(self.fire_if(node, v)),
            Frame::Scope { height } => {
                self.locals.truncate(height);
                self.focus = Focus::Return(v);
                None
            }
            Frame::Activation { base, height } => {
                self.locals.truncate(height);
                self.base = base;
                self.focus = Focus::Return(v);
                None
            }
            Frame::ApplyTo { arg } => match v {
                Value::Closure(f) => Some(self.beta(&f, arg, Rule::BETA)),
                _ => Some(self.stuck_at(Span::DUMMY, "applying a value that is not a function")),
            },
            Frame::Iter(it) => self.receive(it, v),
        }
    }

    /// (3.55) `(λx.e) v/s ↪ e[v/x]/s`: opens an activation for the body with the captured
    /// values and the argument.
    pub(super) fn beta(&mut self, f: &Rc<Closure>, arg: Value, rule: Rule) -> Stepped {
        let prog = Rc::clone(&self.prog);
        let Node::Lam(lam) = prog.node(f.lam) else {
            return self.stuck_at(Span::DUMMY, "closure without lambda");
        };
        if let (Some(ty), Value::Loc(l)) = (lam.elem, &arg) {
            retag_empty(l, ty);
        }
        if self.tracing {
            self.trace.redex = format!(
                "({}) {}",
                super::show::term(&prog, f.lam),
                super::show::value(&arg)
            );
            self.trace.result = super::show::term(&prog, lam.body);
        }
        let height = self.locals.len();
        self.stack.push(Frame::Activation {
            base: self.base,
            height,
        });
        // Captured value k sits at slot −1−k, the parameter at slot 0.
        self.locals.extend(f.captured.iter().rev().cloned());
        self.base = self.locals.len();
        self.locals.push(arg);
        self.focus = Focus::Eval(lam.body);
        self.next(rule, 0, 0)
    }

    /// `s, {l ↦ arr}` for a fresh l, recorded as an effect when tracing.
    pub(super) fn alloc(&mut self, arr: Array) -> Loc {
        let l = self.store.alloc(arr);
        if self.tracing {
            let text = flat_text(&l.get());
            self.trace
                .effects
                .push(format!("alloc {l} = {}", super::show::clip(&text)));
        }
        l
    }

    /// A step's result, with its costs attributed to the current strand (see [`StepInfo::span`]).
    pub(super) fn next(&mut self, rule: Rule, work: u64, span: u64) -> Stepped {
        let span = if self.bulk_depth > 0 {
            self.strand += span;
            0
        } else {
            span
        };
        Stepped::Next(StepInfo { rule, work, span })
    }

    /// An `err` step of `rule` at node `id`.
    pub(super) fn error(&mut self, rule: Rule, id: NodeId, reason: String) -> Stepped {
        if self.tracing {
            self.trace.result = format!("err: {reason}");
        }
        Stepped::Err(StepError {
            rule,
            reason,
            span: self.prog.node(id).span(),
        })
    }

    /// A stuck configuration (ill-typed term) at node `id`.
    pub(super) fn stuck(&mut self, id: NodeId, reason: &str) -> Stepped {
        let span = self.prog.node(id).span();
        self.stuck_at(span, reason)
    }

    pub(super) fn stuck_at(&mut self, span: Span, reason: &str) -> Stepped {
        Stepped::Err(StepError {
            rule: Rule::STUCK,
            reason: format!("stuck: {reason}"),
            span,
        })
    }
}

/// The index in `locals` of `slot` relative to `base` (out of range if it would be negative).
fn slot_index(base: usize, slot: i32) -> usize {
    (base as isize + slot as isize)
        .try_into()
        .unwrap_or(usize::MAX)
}

/// Gives an array of fills the element type its binder's annotation names (spec §3.8: an empty
/// `zilde()` takes its element type from inference; see [`Array::as_fills_of`]).
fn retag_empty(l: &Loc, ty: crate::tail::value::BaseType) {
    let converted = l.get().as_fills_of(ty);
    if let Some(a) = converted {
        *l.get_mut() = a;
    }
}
