//! The current configuration `e/s` as a closed TAIL program, for checking type preservation
//! (thesis Propositions 2 and 5).
//!
//! The machine's focus, activation and context stack are put back together into the term `E[e]`,
//! with every variable whose value is known replaced by that value (the substitutions the thesis
//! performs in 3.54/3.55). A value is a location `l` or a closure; closures print as lambdas with
//! their captured values substituted. Each location `l_k` in the term becomes a `let`-bound
//! variable holding a literal of its array, annotated with its store type Σ(l_k) — the most
//! precise type rules 3.11–3.16 give the array (`S(int,n)`, `SV(int,n)`, `<int>n`, `[κ]r`).
//! So `let l_3:<int>3 = [1,2,3] in reduce(addi,0,l_3)` is the configuration `reduce(addi,0,l3)`
//! under the store `{l3 ↦ [1,2,3]}`: typing it is typing the configuration under Σ (3.50/3.51).
//!
//! Configurations inside `each`, `zipWith`, `reduce` or `scan` (between their decomposition and
//! their `reshape0` step) contain the thesis's `reshape0(δ, [v_f a_0, …])` and applications `v v'`,
//! which have no concrete TAIL syntax; for them [`Machine::configuration`] gives `None`.

use super::iterate::Kind;
use super::machine::{Focus, Frame, Machine};
use super::show::scalar_lit_exact as scalar_lit;
use super::term::{Lambda, Node, NodeId, Program, Value};
use crate::tail::store::Loc;
use crate::tail::value::{Array, BaseType, Scalar};
use std::collections::BTreeMap;
use std::fmt::Write;

/// How the variables of a term being printed are resolved (also by the teaching view).
#[derive(Clone, Copy)]
pub(super) struct Env<'a> {
    /// Slots are relative to this activation base.
    pub(super) base: usize,
    /// Slots at or above this are bound inside the term (printed by name).
    pub(super) limit: i32,
    /// For a lambda body: the captured values (slot −1−k; `None` for a variable bound inside
    /// the printed term, printed by name), and no locals.
    pub(super) captured: Option<&'a [Option<Value>]>,
}

impl<'a> Env<'a> {
    /// The environment of a lambda body: its captured values, and no locals.
    pub(super) fn lambda_body(captured: &'a [Option<Value>]) -> Env<'a> {
        Env {
            base: 0,
            limit: 0,
            captured: Some(captured),
        }
    }
}

/// The value of slot `s` in `env` over the machine's `locals`, if it has one (not bound inside
/// the printed term).
pub(super) fn slot_value(locals: &[Value], s: i32, env: Env<'_>) -> Option<Value> {
    if let Some(captured) = env.captured {
        return if s < 0 {
            captured.get((-1 - s) as usize).cloned().flatten()
        } else {
            None
        };
    }
    if s >= env.limit {
        return None;
    }
    let i: usize = (env.base as isize + s as isize).try_into().ok()?;
    locals.get(i).cloned()
}

struct Printer<'a> {
    prog: &'a Program,
    locals: &'a [Value],
    locs: BTreeMap<u64, Loc>,
    /// Output budget: gives up (None) on very large terms.
    budget: usize,
}

impl Machine {
    /// The configuration as a closed TAIL program (see the module docs), or `None` inside a bulk
    /// operator or when the term would be longer than `max_len` characters.
    pub fn configuration(&self, max_len: usize) -> Option<String> {
        let mut p = Printer {
            prog: &self.prog,
            locals: &self.locals,
            locs: BTreeMap::new(),
            budget: max_len,
        };
        let mut base = self.base;
        let mut stack = self.stack.iter().rev().peekable();
        let mut term = match &self.focus {
            Focus::Eval(id) => p.node(*id, p.env(base, *id))?,
            Focus::Return(v) => p.value(v)?,
            Focus::Resume => match stack.next() {
                Some(Frame::Iter(it)) if it.kind == Kind::Power => {
                    let f = p.value(&Value::Closure(it.f.clone()))?;
                    let x = p.value(&it.src)?;
                    format!("{}({f},{},{x})", it.name, it.n)
                }
                _ => return None,
            },
        };
        for frame in stack {
            term = match frame {
                Frame::LetBody { node } => {
                    let Node::Let {
                        name,
                        slot,
                        ann,
                        body,
                        ..
                    } = p.prog.node(*node)
                    else {
                        return None;
                    };
                    let env = Env {
                        base,
                        limit: *slot as i32,
                        captured: None,
                    };
                    let body = p.node(*body, env)?;
                    format!("let {name}:{} = {term} in {body}", ann.as_deref()?)
                }
                Frame::Args { node, vals } => {
                    let Node::Op { name, args, .. } = p.prog.node(*node) else {
                        return None;
                    };
                    let mut parts = Vec::with_capacity(args.len());
                    for v in vals.vals.iter().take(vals.len as usize) {
                        match v {
                            Some(v) => parts.push(p.value(v)?),
                            // replicate's unevaluated first argument
                            None => parts.push(p.node(args[0], p.env(base, *node))?),
                        }
                    }
                    parts.push(term);
                    for &a in args.iter().skip(vals.len as usize + 1) {
                        parts.push(p.node(a, p.env(base, *node))?);
                    }
                    format!("{name}({})", parts.join(","))
                }
                Frame::Elems { node, vals } => {
                    let (open, close, elems) = match p.prog.node(*node) {
                        Node::Vector { elems, .. } => ("[", "]", elems),
                        Node::Tuple { elems, .. } => ("(", ")", elems),
                        _ => return None,
                    };
                    let mut parts = Vec::with_capacity(elems.len());
                    for v in vals {
                        parts.push(p.value(v)?);
                    }
                    parts.push(term);
                    for &a in elems.iter().skip(vals.len() + 1) {
                        parts.push(p.node(a, p.env(base, *node))?);
                    }
                    format!("{open}{}{close}", parts.join(","))
                }
                Frame::Prj { node } => {
                    let Node::Prj { index, .. } = p.prog.node(*node) else {
                        return None;
                    };
                    format!("Prj({index},{term})")
                }
                Frame::If { node } => {
                    let Node::If { then_, else_, .. } = p.prog.node(*node) else {
                        return None;
                    };
                    let env = p.env(base, *node);
                    format!(
                        "if {term} then {} else {}",
                        p.node(*then_, env)?,
                        p.node(*else_, env)?
                    )
                }
                Frame::Scope { .. } => term,
                Frame::Activation { base: b, .. } => {
                    base = *b;
                    term
                }
                // (3.59): power(λx.e, l_n − 1, e[l/x]) with the remaining count as a literal.
                Frame::Iter(it) if it.kind == Kind::Power => {
                    let f = p.value(&Value::Closure(it.f.clone()))?;
                    format!("{}({f},{},{term})", it.name, it.n)
                }
                Frame::Iter(_) | Frame::ApplyTo { .. } => return None,
            };
            if term.len() > p.budget {
                return None;
            }
        }
        let mut out = String::new();
        for (id, l) in &p.locs {
            let (ty, lit) = store_type_and_literal(&l.get());
            write!(out, "let l_{id}:{ty} = {lit} in ").ok()?;
        }
        out.push_str(&term);
        out.push('\n');
        Some(out)
    }
}

impl<'a> Printer<'a> {
    fn env(&self, base: usize, id: NodeId) -> Env<'a> {
        Env {
            base,
            limit: self.prog.depth.get(id as usize).copied().unwrap_or(0) as i32,
            captured: None,
        }
    }

    fn value(&mut self, v: &Value) -> Option<String> {
        match v {
            Value::Loc(l) => {
                self.locs.entry(l.id()).or_insert_with(|| l.clone());
                Some(format!("l_{}", l.id()))
            }
            Value::Closure(c) => {
                let captured: Vec<Option<Value>> = c.captured.iter().cloned().map(Some).collect();
                let env = Env::lambda_body(&captured);
                // The lambda node itself, printed with its captured values substituted.
                let Node::Lam(lam) = self.prog.node(c.lam) else {
                    return None;
                };
                if let Some(op) = lam.eta {
                    return Some(op.to_string());
                }
                let body = self.node(lam.body, env)?;
                Some(format!(
                    "fn {}:{} => {body}",
                    lam.param,
                    lam.ann.as_deref()?
                ))
            }
            Value::Tuple(parts) => {
                let mut ps = Vec::with_capacity(parts.len());
                for v in parts.iter() {
                    ps.push(self.value(v)?);
                }
                Some(format!("({})", ps.join(",")))
            }
        }
    }

    /// A variable: its value if known, else its name.
    fn var(&mut self, slot: i32, name: &str, env: Env<'_>) -> Option<String> {
        if let Some(captured) = env.captured {
            return match captured.get((-1 - slot) as usize) {
                Some(Some(v)) if slot < 0 => {
                    let v = v.clone();
                    self.value(&v)
                }
                _ => Some(name.to_string()),
            };
        }
        if slot >= env.limit {
            return Some(name.to_string());
        }
        let i = (env.base as isize + slot as isize).try_into().ok()?;
        let v = self.locals.get::<usize>(i)?.clone();
        self.value(&v)
    }

    fn node(&mut self, id: NodeId, env: Env<'_>) -> Option<String> {
        if self.budget == 0 {
            return None;
        }
        self.budget = self.budget.saturating_sub(1);
        let list = |p: &mut Self, ids: &[NodeId], env: Env<'_>| -> Option<String> {
            let mut parts = Vec::with_capacity(ids.len());
            for &a in ids {
                parts.push(p.node(a, env)?);
            }
            Some(parts.join(","))
        };
        Some(match self.prog.node(id) {
            Node::Lit(x, _) => scalar_lit(*x),
            Node::Var { slot, name, .. } => self.var(*slot, name, env)?,
            Node::Let {
                name,
                ann,
                rhs,
                body,
                ..
            } => {
                let rhs = self.node(*rhs, env)?;
                let body = self.node(*body, env)?;
                format!("let {name}:{} = {rhs} in {body}", ann.as_deref()?)
            }
            Node::Lam(Lambda { eta: Some(op), .. }) => op.to_string(),
            Node::Lam(lam) => {
                // Inside the lambda, its captures refer to this environment's slots.
                let captured: Vec<Option<Value>> =
                    lam.captures.iter().map(|&s| self.lookup(s, env)).collect();
                let inner = Env::lambda_body(&captured);
                let body = self.node(lam.body, inner)?;
                format!("fn {}:{} => {body}", lam.param, lam.ann.as_deref()?)
            }
            Node::Op { name, args, .. } => format!("{name}({})", list(self, args, env)?),
            Node::Vector { elems, .. } => format!("[{}]", list(self, elems, env)?),
            Node::Tuple { elems, .. } => format!("({})", list(self, elems, env)?),
            Node::Prj { index, tuple, .. } => format!("Prj({index},{})", self.node(*tuple, env)?),
            Node::If {
                cond, then_, else_, ..
            } => format!(
                "if {} then {} else {}",
                self.node(*cond, env)?,
                self.node(*then_, env)?,
                self.node(*else_, env)?
            ),
        })
    }

    /// The value of slot `s` in `env`, if it has one (not bound inside the printed term).
    fn lookup(&self, s: i32, env: Env<'_>) -> Option<Value> {
        slot_value(self.locals, s, env)
    }
}

/// Σ(l) and a literal whose type is Σ(l), for the array at l.
fn store_type_and_literal(a: &Array) -> (String, String) {
    let ty = a.base_type();
    let lits: Vec<String> = (0..a.size()).map(|i| scalar_lit(a.elems.get(i))).collect();
    let singleton = matches!(ty, BaseType::Int | BaseType::Bool);
    let sing_val = |x: Scalar| match x {
        Scalar::Int(i) => i.to_string(),
        Scalar::Bool(b) => (b as i32).to_string(),
        _ => String::new(),
    };
    match a.rank() {
        0 if singleton => (
            format!("S({},{})", ty.name(), sing_val(a.elems.get(0))),
            lits[0].clone(),
        ),
        0 => (format!("[{}]0", ty.name()), lits[0].clone()),
        1 if a.size() == 0 => (format!("<{}>0", ty.name()), "zilde()".into()),
        1 if singleton && a.size() == 1 => (
            format!("SV({},{})", ty.name(), sing_val(a.elems.get(0))),
            format!("[{}]", lits[0]),
        ),
        1 if singleton => (
            format!("<{}>{}", ty.name(), a.size()),
            format!("[{}]", lits.join(",")),
        ),
        1 => (format!("[{}]1", ty.name()), format!("[{}]", lits.join(","))),
        r => {
            let dims: Vec<String> = a.shape.iter().map(|n| n.to_string()).collect();
            let data = if a.size() == 0 {
                "zilde()".to_string()
            } else {
                format!("[{}]", lits.join(","))
            };
            (
                format!("[{}]{r}", ty.name()),
                format!("reshape([{}],{data})", dims.join(",")),
            )
        }
    }
}
