//! From source terms to the stepper's [`Program`]: resolves every variable to a slot of its
//! activation and turns lambdas into closure-converted [`Lambda`]s.
//!
//! The input is a [`Surface`] term, a plain mirror of TAIL's expression forms (spec §2.1) that
//! the front end produces (`crate::tail::syntax_to_surface::to_surface`). Layout of an
//! activation (relative to its base): slot 0 is the lambda's parameter, slots 1, 2, … the `let`s
//! in scope in nesting order, and slot −1−k the lambda's k-th captured value. The top level has
//! no parameter: its `let`s start at slot 0.

use super::term::{Lambda, Node, NodeId, Program};
use crate::tail::ops::prim::{Prim, ALL_NAMES};
use crate::tail::value::{BaseType, Scalar};
use crate::Span;
use std::rc::Rc;

/// A TAIL expression before variable resolution.
#[derive(Clone, Debug)]
pub enum Surface {
    Lit(Scalar, Span),
    Var(String, Span),
    /// `let x:τ = e1 in e2`.
    Let(Binder, Box<Surface>, Box<Surface>, Span),
    /// `fn x:τ => e`.
    Lam(Binder, Box<Surface>, Span),
    /// `op(e⃗)`.
    Op(String, Vec<Surface>, Span),
    /// A bare operator name used as a function (eta-reduced lambda, spec §2.4).
    OpRef(String, Span),
    Vector(Vec<Surface>, Span),
    Tuple(Vec<Surface>, Span),
    Prj(usize, Box<Surface>, Span),
    If(Box<Surface>, Box<Surface>, Box<Surface>, Span),
}

/// A variable binding `x:τ` of a `let` or `fn`.
#[derive(Clone, Debug)]
pub struct Binder {
    pub name: String,
    /// τ's element type, when it names one (empty arrays take it, spec §3.8).
    pub elem: Option<BaseType>,
    /// τ in TAIL syntax, when known (configurations are printed with it).
    pub ann: Option<Rc<str>>,
}

impl Binder {
    /// A binder with no annotation.
    pub fn new(name: impl Into<String>) -> Binder {
        Binder {
            name: name.into(),
            elem: None,
            ann: None,
        }
    }
}

/// Why a term could not be compiled (unknown names, wrong arity): the span and a reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompileError {
    pub span: Span,
    pub message: String,
}

/// One function's scope during compilation.
struct FnScope {
    /// Visible bindings, innermost last: name and slot.
    names: Vec<(String, i32)>,
    /// Captured variables: name and slot in the enclosing activation.
    captures: Vec<(String, i32)>,
    /// Next `let` slot.
    depth: i32,
}

struct Compiler {
    nodes: Vec<Node>,
    depth: Vec<u32>,
    scopes: Vec<FnScope>,
    depth_left: usize,
}

/// Compiles a term; the program's root is the whole term.
pub fn compile(e: &Surface) -> Result<Program, CompileError> {
    let mut c = Compiler {
        nodes: Vec::new(),
        depth: Vec::new(),
        scopes: vec![FnScope {
            names: Vec::new(),
            captures: Vec::new(),
            depth: 0,
        }],
        // Deeper terms than the parsers accept are rejected; compiling one level takes well under
        // 1 KiB of stack, so the binary's 1 GiB stack suffices.
        depth_left: 1_000_000,
    };
    let root = c.expr(e)?;
    Ok(Program {
        nodes: c.nodes,
        depth: c.depth,
        root,
        zilde_types: Default::default(),
    })
}

/// The `'static` spelling of an operator name (for rule names).
fn static_name(name: &str) -> Option<&'static str> {
    ALL_NAMES.iter().copied().find(|n| *n == name)
}

impl Compiler {
    fn push(&mut self, n: Node) -> NodeId {
        let depth = self.scopes.last().map_or(0, |s| s.depth);
        self.depth.push(depth as u32);
        self.nodes.push(n);
        (self.nodes.len() - 1) as NodeId
    }

    /// The slot of `name` in scope level `level`, capturing it from outer levels if needed.
    fn resolve(&mut self, level: usize, name: &str) -> Option<i32> {
        let scope = &self.scopes[level];
        if let Some((_, s)) = scope.names.iter().rev().find(|(n, _)| n == name) {
            return Some(*s);
        }
        if let Some(k) = scope.captures.iter().position(|(n, _)| n == name) {
            return Some(-1 - k as i32);
        }
        if level == 0 {
            return None;
        }
        let outer = self.resolve(level - 1, name)?;
        let scope = &mut self.scopes[level];
        scope.captures.push((name.to_string(), outer));
        Some(-(scope.captures.len() as i32))
    }

    fn expr(&mut self, e: &Surface) -> Result<NodeId, CompileError> {
        if self.depth_left == 0 {
            return Err(CompileError {
                span: span_of(e),
                message: "expression nested too deeply".into(),
            });
        }
        self.depth_left -= 1;
        let r = self.expr_inner(e);
        self.depth_left += 1;
        r
    }

    fn expr_inner(&mut self, e: &Surface) -> Result<NodeId, CompileError> {
        let err = |span: Span, m: String| Err(CompileError { span, message: m });
        match e {
            Surface::Lit(x, s) => Ok(self.push(Node::Lit(*x, *s))),
            Surface::Var(name, s) => {
                let level = self.scopes.len() - 1;
                match self.resolve(level, name) {
                    Some(slot) => Ok(self.push(Node::Var {
                        slot,
                        name: name.as_str().into(),
                        span: *s,
                    })),
                    None if Prim::from_name(name).is_some() => {
                        self.expr(&Surface::OpRef(name.clone(), *s))
                    }
                    None => err(*s, format!("unbound variable {name}")),
                }
            }
            Surface::Let(b, rhs, body, s) => {
                let name = &b.name;
                let rhs = self.expr(rhs)?;
                let scope = self.scopes.last_mut().expect("a scope");
                let slot = scope.depth;
                scope.depth += 1;
                scope.names.push((name.clone(), slot));
                let body = self.expr(body);
                let scope = self.scopes.last_mut().expect("a scope");
                scope.names.pop();
                scope.depth -= 1;
                Ok(self.push(Node::Let {
                    name: name.as_str().into(),
                    slot: slot as u32,
                    elem: b.elem,
                    ann: b.ann.clone(),
                    rhs,
                    body: body?,
                    span: *s,
                }))
            }
            Surface::Lam(b, body, s) => {
                self.scopes.push(FnScope {
                    names: vec![(b.name.clone(), 0)],
                    captures: Vec::new(),
                    depth: 1,
                });
                let body = self.expr(body);
                let scope = self.scopes.pop().expect("the lambda's scope");
                let body = body?;
                Ok(self.push(Node::Lam(Lambda {
                    param: b.name.as_str().into(),
                    elem: b.elem,
                    ann: b.ann.clone(),
                    captures: scope.captures.iter().map(|(_, s)| *s).collect(),
                    body,
                    span: *s,
                    eta: None,
                })))
            }
            Surface::Op(name, args, s) => {
                let (Some(prim), Some(sname)) = (Prim::from_name(name), static_name(name)) else {
                    return err(*s, format!("unknown operator {name}"));
                };
                if args.len() != prim.arity() {
                    return err(
                        *s,
                        format!(
                            "{name} takes {} arguments, not {}",
                            prim.arity(),
                            args.len()
                        ),
                    );
                }
                let args = args
                    .iter()
                    .map(|a| self.expr(a))
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(self.push(Node::Op {
                    prim,
                    name: sname,
                    args: args.into(),
                    span: *s,
                }))
            }
            // An operator name used as a function: fn x1 => … => fn xn => op(x1,…,xn).
            Surface::OpRef(name, s) => {
                let Some(prim) = Prim::from_name(name) else {
                    return err(*s, format!("unknown operator {name}"));
                };
                let params: Vec<String> =
                    (0..prim.arity()).map(|k| format!("{name}_{k}")).collect();
                let mut body = Surface::Op(
                    name.clone(),
                    params.iter().map(|p| Surface::Var(p.clone(), *s)).collect(),
                    *s,
                );
                for p in params.iter().rev() {
                    body = Surface::Lam(Binder::new(p.clone()), Box::new(body), *s);
                }
                let id = self.expr(&body)?;
                if let Node::Lam(l) = &mut self.nodes[id as usize] {
                    l.eta = static_name(name);
                }
                Ok(id)
            }
            Surface::Vector(es, s) => {
                let elems = es
                    .iter()
                    .map(|a| self.expr(a))
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(self.push(Node::Vector {
                    elems: elems.into(),
                    span: *s,
                }))
            }
            Surface::Tuple(es, s) => {
                let elems = es
                    .iter()
                    .map(|a| self.expr(a))
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(self.push(Node::Tuple {
                    elems: elems.into(),
                    span: *s,
                }))
            }
            Surface::Prj(i, t, s) => {
                let tuple = self.expr(t)?;
                Ok(self.push(Node::Prj {
                    index: *i,
                    tuple,
                    span: *s,
                }))
            }
            Surface::If(c, a, b, s) => {
                let cond = self.expr(c)?;
                let then_ = self.expr(a)?;
                let else_ = self.expr(b)?;
                Ok(self.push(Node::If {
                    cond,
                    then_,
                    else_,
                    span: *s,
                }))
            }
        }
    }
}

/// The span of a surface term.
pub fn span_of(e: &Surface) -> Span {
    match e {
        Surface::Lit(_, s)
        | Surface::Var(_, s)
        | Surface::Let(.., s)
        | Surface::Lam(.., s)
        | Surface::Op(.., s)
        | Surface::OpRef(_, s)
        | Surface::Vector(_, s)
        | Surface::Tuple(_, s)
        | Surface::Prj(.., s)
        | Surface::If(.., s) => *s,
    }
}

/// Compiles a term and wraps it for a [`super::Machine`].
pub fn compile_rc(e: &Surface) -> Result<Rc<Program>, CompileError> {
    compile(e).map(Rc::new)
}
