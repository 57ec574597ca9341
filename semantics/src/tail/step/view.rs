//! The configuration `E[e]/s` as a [`Tree`] for the teaching stepper, with the path of the hole
//! of `E` (see [`crate::view`]).
//!
//! Terms are written as step traces write redexes (`addi(l3,l4)`, `let x = l3 in …`,
//! `fn x => …`), with every variable whose value is known replaced by it (the substitutions
//! of 3.54/3.55), so the store shown next to the term is exactly the locations the term
//! mentions — the store's domain (see [`crate::tail::store`]). Between the decomposition of
//! `each`, `zipWith`, `reduce` or `scan` and its final `reshape0` step the term holds the
//! thesis's `reshape0(δ, [v_f a_0, …])`, shown with the application in progress as its only
//! sub-term and the others counted.

use super::config::{slot_value, Env};
use super::iterate::{Iter, Kind};
use super::machine::{Focus, Frame, Machine};
use super::show::scalar_lit;
use super::term::{Lambda, Node, NodeId, Program, Value};
use crate::tail::print_value::{flat_text, scalar_text};
use crate::tail::store::Loc;
use crate::tail::value::Array;
use crate::view::Tree;
use std::collections::BTreeMap;

struct Printer<'a> {
    prog: &'a Program,
    locals: &'a [Value],
    locs: BTreeMap<u64, Loc>,
}

/// The configuration of a TAIL machine, as the teaching stepper shows it.
pub struct View {
    /// `E[e]`.
    pub term: Tree,
    /// The path of the hole of `E` in `term`.
    pub hole: Vec<usize>,
    /// The store's domain: every location the term mentions, with its array (`l3 = [3](1,2,3)`).
    pub store: Vec<(String, String)>,
}

impl Machine {
    /// The current configuration as a [`View`].
    pub fn view(&self) -> View {
        let mut p = Printer {
            prog: &self.prog,
            locals: &self.locals,
            locs: BTreeMap::new(),
        };
        // the activation base in effect at each frame, outermost first
        let mut bases = Vec::with_capacity(self.stack.len());
        let mut base = self.base;
        for frame in self.stack.iter().rev() {
            bases.push(base);
            if let Frame::Activation { base: b, .. } = frame {
                base = *b;
            }
        }
        bases.reverse();
        let mut frames: &[Frame] = &self.stack;
        let mut term = match &self.focus {
            Focus::Eval(id) => p.node(*id, p.env(self.base, *id)),
            Focus::Return(v) => p.value(v),
            Focus::Resume => match frames.split_last() {
                Some((Frame::Iter(it), rest)) => {
                    frames = rest;
                    p.iter_next(it)
                }
                _ => Tree::atom("·"),
            },
        };
        let mut hole = Vec::new();
        for (frame, &base) in frames.iter().zip(&bases).rev() {
            if let Some((t, k)) = p.frame(frame, base, term.clone()) {
                term = t;
                hole.push(k);
            }
        }
        hole.reverse();
        let store = p
            .locs
            .values()
            .map(|l| (l.to_string(), store_text(&l.get())))
            .collect();
        View { term, hole, store }
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

    /// A context frame around `inner`, and the index of the hole among its children; `None` for
    /// the frames that only restore the machine's bookkeeping (scopes, activations).
    fn frame(&mut self, frame: &Frame, base: usize, inner: Tree) -> Option<(Tree, usize)> {
        let prog = self.prog;
        Some(match frame {
            Frame::LetBody { node } => {
                let Node::Let {
                    name, slot, body, ..
                } = prog.node(*node)
                else {
                    return Some((inner, 0));
                };
                let env = Env {
                    base,
                    limit: *slot as i32,
                    captured: None,
                };
                let body = self.node(*body, env);
                (let_tree(name, inner, body), 0)
            }
            Frame::Args { node, vals } => {
                let Node::Op { name, args, .. } = prog.node(*node) else {
                    return Some((inner, 0));
                };
                let env = self.env(base, *node);
                let k = vals.len as usize;
                let mut parts: Vec<Tree> = Vec::with_capacity(args.len());
                for (i, v) in vals.vals.iter().take(k).enumerate() {
                    parts.push(match v {
                        Some(v) => self.value(v),
                        // replicate's first argument is never evaluated
                        None => self.node(args[i], env),
                    });
                }
                parts.push(inner);
                for &a in args.iter().skip(k + 1) {
                    parts.push(self.node(a, env));
                }
                (Tree::call(name, parts), k)
            }
            Frame::Elems { node, vals } => {
                let (open, close, elems) = match prog.node(*node) {
                    Node::Vector { elems, .. } => ("[", "]", elems),
                    Node::Tuple { elems, .. } => ("(", ")", elems),
                    _ => return Some((inner, 0)),
                };
                let env = self.env(base, *node);
                let mut parts: Vec<Tree> = vals.iter().map(|v| self.value(v)).collect();
                parts.push(inner);
                for &a in elems.iter().skip(vals.len() + 1) {
                    parts.push(self.node(a, env));
                }
                (Tree::wrap(open, parts, close), vals.len())
            }
            Frame::Prj { node } => {
                let Node::Prj { index, .. } = prog.node(*node) else {
                    return Some((inner, 0));
                };
                (Tree::wrap(&format!("Prj({index},"), vec![inner], ")"), 0)
            }
            Frame::If { node } => {
                let Node::If { then_, else_, .. } = prog.node(*node) else {
                    return Some((inner, 0));
                };
                let env = self.env(base, *node);
                let (t, e) = (self.node(*then_, env), self.node(*else_, env));
                (Tree::if_then_else(inner, t, e), 0)
            }
            Frame::Scope { .. } | Frame::Activation { .. } => return None,
            Frame::ApplyTo { arg } => (Tree::app_value(inner, self.value(arg)), 0),
            // power(f, n, [·]) has its hole third; the others' only child is the hole
            Frame::Iter(it) => {
                let k = if it.kind == Kind::Power { 2 } else { 0 };
                (self.iter_around(it, inner), k)
            }
        })
    }

    /// An operator in progress whose current application is `inner`.
    fn iter_around(&mut self, it: &Iter, inner: Tree) -> Tree {
        let f = self.value(&Value::Closure(it.f.clone()));
        match it.kind {
            // (3.59) power(λx.e, l_n − 1, e[l/x]), the remaining count as a literal
            Kind::Power => Tree::call(it.name, vec![f, Tree::atom(it.n.to_string()), inner]),
            Kind::Each | Kind::ZipWith => {
                let done = format!("‹{} done›,", it.i);
                let left = it.n.saturating_sub(it.i + 1);
                Tree::atom(format!(
                    "reshape0([{}],[{done}",
                    super::show::shape(&it.shape)
                ))
                .child(inner)
                .text(format!(",‹{left} more›])"))
            }
            Kind::Reduce | Kind::Scan => Tree::atom(format!(
                "{}⟨row {}/{}, element {}/{}⟩(",
                it.name, it.i, it.n, it.j, it.m
            ))
            .child(inner)
            .text(")"),
        }
    }

    /// An operator in progress about to take its next step (the focus is the operator).
    fn iter_next(&mut self, it: &Iter) -> Tree {
        let f = self.value(&Value::Closure(it.f.clone()));
        let src = self.value(&it.src);
        let elem = |ix: usize| Tree::atom(format!("{}[{ix}]", src.flat()));
        let done = match it.kind {
            Kind::Power => it.n == 0,
            _ => it.i == it.n,
        };
        if done || it.kind == Kind::Power {
            // the whole operator is the redex (3.59/3.60, or the final reshape0)
            let text = match it.kind {
                Kind::Power => format!("{}({},{},{})", it.name, f.flat(), it.n, src.flat()),
                _ => format!(
                    "reshape0([{}],[‹{} values›])",
                    super::show::shape(&it.shape),
                    it.n
                ),
            };
            return Tree::atom(text);
        }
        let app = match it.kind {
            Kind::Each => Tree::app_value(f, elem(it.i)),
            Kind::ZipWith => {
                let b = it.src2.as_ref().map(|l| format!("{l}[{}]", it.i));
                Tree::app_value(
                    Tree::app_value(f, elem(it.i)),
                    Tree::atom(b.unwrap_or_default()),
                )
            }
            _ => {
                let acc = match &it.acc {
                    Some(a) => self.value(a),
                    None => elem(it.i * it.m),
                };
                Tree::app_value(Tree::app_value(f, elem(it.i * it.m + it.j)), acc)
            }
        };
        self.iter_around(it, app)
    }

    fn value(&mut self, v: &Value) -> Tree {
        match v {
            Value::Loc(l) => {
                self.locs.entry(l.id()).or_insert_with(|| l.clone());
                Tree::atom(l.to_string())
            }
            Value::Closure(c) => {
                let Node::Lam(lam) = self.prog.node(c.lam) else {
                    return Tree::atom("fn");
                };
                if let Some(op) = lam.eta {
                    return Tree::atom(op);
                }
                let captured: Vec<Option<Value>> = c.captured.iter().cloned().map(Some).collect();
                let env = Env::lambda_body(&captured);
                let body = self.node(lam.body, env);
                Tree::atom(format!("fn {} =>", lam.param))
                    .line()
                    .child(body)
            }
            Value::Tuple(parts) => {
                let ps = parts.iter().map(|p| self.value(p)).collect();
                Tree::wrap("(", ps, ")")
            }
        }
    }

    /// A variable: its value if known, else its name.
    fn var(&mut self, slot: i32, name: &str, env: Env<'_>) -> Tree {
        match self.lookup(slot, env) {
            Some(v) => self.value(&v),
            None => Tree::atom(name),
        }
    }

    fn lookup(&self, s: i32, env: Env<'_>) -> Option<Value> {
        slot_value(self.locals, s, env)
    }

    fn node(&mut self, id: NodeId, env: Env<'_>) -> Tree {
        let list = |p: &mut Self, ids: &[NodeId]| -> Vec<Tree> {
            ids.iter().map(|&a| p.node(a, env)).collect()
        };
        match self.prog.node(id) {
            Node::Lit(x, _) => Tree::atom(scalar_lit(*x)),
            Node::Var { slot, name, .. } => self.var(*slot, name, env),
            Node::Let {
                name, rhs, body, ..
            } => {
                let rhs = self.node(*rhs, env);
                let body = self.node(*body, env);
                let_tree(name, rhs, body)
            }
            Node::Lam(Lambda { eta: Some(op), .. }) => Tree::atom(*op),
            Node::Lam(lam) => {
                let captured: Vec<Option<Value>> =
                    lam.captures.iter().map(|&s| self.lookup(s, env)).collect();
                let inner = Env::lambda_body(&captured);
                let body = self.node(lam.body, inner);
                Tree::atom(format!("fn {} =>", lam.param))
                    .line()
                    .child(body)
            }
            Node::Op { name, args, .. } => Tree::call(name, list(self, args)),
            Node::Vector { elems, .. } => Tree::wrap("[", list(self, elems), "]"),
            Node::Tuple { elems, .. } => Tree::wrap("(", list(self, elems), ")"),
            Node::Prj { index, tuple, .. } => {
                let t = self.node(*tuple, env);
                Tree::wrap(&format!("Prj({index},"), vec![t], ")")
            }
            Node::If {
                cond, then_, else_, ..
            } => {
                let (c, t, e) = (
                    self.node(*cond, env),
                    self.node(*then_, env),
                    self.node(*else_, env),
                );
                Tree::if_then_else(c, t, e)
            }
        }
    }
}

/// How many elements of an array the store view lists.
const STORE_ELEMS: usize = 24;

/// An array as `flat_text` writes it, cut after [`STORE_ELEMS`] elements (`…`): showing the
/// store at every step must not cost the size of its arrays.
fn store_text(a: &Array) -> String {
    if a.size() <= STORE_ELEMS {
        return flat_text(a);
    }
    let elems: Vec<String> = (0..STORE_ELEMS)
        .map(|i| scalar_text(a.elems.get(i)))
        .collect();
    format!("[{}]({},…)", super::show::shape(&a.shape), elems.join(","))
}

/// `let x = rhs in body`.
fn let_tree(name: &str, rhs: Tree, body: Tree) -> Tree {
    Tree::let_in(name, rhs, body)
}
