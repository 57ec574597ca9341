//! A task's configuration `E[e]` as a [`Tree`] for the teaching stepper, the paths of the redexes
//! a step fired (one per leaf step: a group step fires one in each chosen sub-task), and the
//! group steps in progress with the cells their parts have written (see [`crate::view`]).
//!
//! Terms are written as step traces write redexes (`(f) (a)`, `let x = e1 in e2`,
//! `builtin (a) (b)`), variables by name. A group step in progress (5.81, 5.83) is written
//! `par<Grid>{ t0 ‖ t1 ‖ … }` with one sub-term per sub-location (`·` where it is idle), so a
//! sub-task's redex has a path through its sub-location.

use super::force::ForceFrame;
use super::par::Par;
use super::term::{Term, TermKind};
use super::{show, Control, Fired, Frame, Task};
use crate::fcl::value::Value;
use crate::view::Tree;

/// A group step in progress, as the machine view shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// The group location (`Grid`, `Block(1)`).
    pub loc: String,
    /// The level of the array it builds (`1`: block-level, shared memory; `2`: grid, global).
    pub level: u32,
    /// The parts, in order: the cells a finished part wrote, or `None` while it runs or waits.
    pub parts: Vec<Option<Vec<String>>>,
    /// Per sub-location: the part it is running, if any.
    pub running: Vec<Option<usize>>,
}

/// A task's configuration, as the teaching stepper shows it.
pub struct View {
    /// `E[e]`.
    pub term: Tree,
    /// The paths of the redexes of the step just taken (see [`Task::view`]).
    pub holes: Vec<Vec<usize>>,
    /// Group steps in progress, outermost first.
    pub groups: Vec<Group>,
}

impl Task {
    /// The configuration; with `fired`, the step that produced it, whose redexes' paths (valid
    /// in the configuration *before* that step, since a step keeps its context) are `holes`.
    pub fn view(&self, fired: Option<&Fired>) -> View {
        let mut groups = Vec::new();
        let term = self.tree(&mut groups);
        let holes = fired.map(|f| self.holes(f)).unwrap_or_default();
        View {
            term,
            holes,
            groups,
        }
    }

    fn tree(&self, groups: &mut Vec<Group>) -> Tree {
        let mut t = match &self.control {
            Control::Eval(term, _) => term_tree(term),
            Control::Ret(v) => value_tree(v),
            Control::Apply(f, a, _) => Tree::app(value_tree(f), value_tree(a)),
            Control::Elem(p, i, _) => Tree::atom(show(format_args!("{p}[{i}]"))),
            Control::Force(a, _) => Tree::atom(show(format_args!("force ({a})"))),
            Control::Par(par) => self.par_tree(par, groups),
            Control::Taken => Tree::atom("·"),
        };
        for frame in self.stack.iter().rev() {
            t = frame_tree(frame, t).0;
        }
        t
    }

    fn par_tree(&self, par: &Par, groups: &mut Vec<Group>) -> Tree {
        let (subs, results, level) = par.progress();
        groups.push(Group {
            loc: self.loc.to_string(),
            level: level.0,
            parts: results
                .iter()
                .map(|r| {
                    r.as_ref()
                        .map(|cells| cells.iter().map(|v| v.to_string()).collect())
                })
                .collect(),
            running: subs.iter().map(|s| s.map(|(p, _)| p)).collect(),
        });
        let children: Vec<Tree> = subs
            .iter()
            .map(|s| match s {
                Some((_, task)) => task.tree(groups),
                None => Tree::atom("·"),
            })
            .collect();
        let mut t = Tree::atom(format!("par<{}>{{", self.loc));
        for (k, c) in children.into_iter().enumerate() {
            if k > 0 {
                t = t.line().text("‖ ");
            } else {
                t = t.line();
            }
            t = t.child(c);
        }
        t.line().text("}")
    }

    /// The path of the hole of this task's context, then into the sub-tasks a group step fired.
    fn holes(&self, fired: &Fired) -> Vec<Vec<usize>> {
        let mut base = Vec::new();
        let mut probe = Tree::default();
        for frame in &self.stack {
            let (_, k) = frame_tree(frame, std::mem::take(&mut probe));
            base.extend(k);
        }
        let parts = fired
            .trace
            .as_ref()
            .map(|t| t.parts.as_slice())
            .unwrap_or_default();
        let Control::Par(par) = &self.control else {
            return vec![base];
        };
        if parts.is_empty() {
            return vec![base];
        }
        let (subs, _, _) = par.progress();
        let mut out = Vec::new();
        for part in parts {
            let Some(j) = self.loc.subs().iter().position(|l| *l == part.loc) else {
                continue;
            };
            let mut here = base.clone();
            here.push(j);
            match subs.get(j).copied().flatten() {
                Some((_, task)) => {
                    for q in task.holes(part) {
                        let mut p = here.clone();
                        p.extend(q);
                        out.push(p);
                    }
                }
                None => out.push(here),
            }
        }
        if out.is_empty() {
            out.push(base);
        }
        out
    }
}

/// A frame around `inner`, and the index of the hole among its children (`None`: the frame is
/// shown as text around the hole, e.g. the rules' internal loops).
fn frame_tree(frame: &Frame, inner: Tree) -> (Tree, Option<usize>) {
    match frame {
        Frame::AppArg(a, _) => (Tree::app(inner, term_tree(a)), Some(0)),
        Frame::AppFun(f, _) => (Tree::app(value_tree(f), inner), Some(1)),
        Frame::ApplyTo(a, _) => (Tree::app(inner, value_tree(a)), Some(0)),
        Frame::ApplyIx(h, i, _) => (
            Tree::app(Tree::app(value_tree(h), value_tree(i)), inner),
            Some(1),
        ),
        Frame::If(a, b, _, _) => (
            Tree::if_then_else(inner, term_tree(a), term_tree(b)),
            Some(0),
        ),
        Frame::PairFst(b, _) => (Tree::wrap("(", vec![inner, term_tree(b)], ")"), Some(0)),
        Frame::PairSnd(a) => (Tree::wrap("(", vec![value_tree(a), inner], ")"), Some(1)),
        Frame::Fst(_) => (Tree::wrap("fst (", vec![inner], ")"), Some(0)),
        Frame::Snd(_) => (Tree::wrap("snd (", vec![inner], ")"), Some(0)),
        Frame::Args {
            builtin,
            args,
            vals,
            done,
            ..
        } => {
            let k = *done as usize;
            let mut t = Tree::atom(builtin.name());
            for v in vals.iter().take(k) {
                t = t.line().text("(").child(value_tree(v)).text(")");
            }
            t = t.line().text("(").child(inner).text(")");
            for a in args.iter().skip(k + 1) {
                t = t.line().text("(").child(term_tree(a)).text(")");
            }
            (t, Some(k))
        }
        Frame::Force(f) => (
            Tree::atom(format!("{}[", force_label(f)))
                .child(inner)
                .text("]"),
            Some(0),
        ),
    }
}

/// The rules' internal context frames, named after the rule they stand for.
fn force_label(f: &ForceFrame) -> String {
    let name = match f {
        ForceFrame::ForceElems { out, .. } => return format!("force⟨{} elements done⟩", out.len()),
        ForceFrame::SeqForWrite { .. } => "seqfor-write",
        ForceFrame::RunSub { .. } => "run-sub",
        ForceFrame::InterleaveSeqNext { results, .. } => {
            return format!("interleaveSeq⟨{} done⟩", results.len())
        }
        ForceFrame::Permute { .. } => "permute",
        ForceFrame::PowerAt { i, n, .. } | ForceFrame::PowerNext { i, n, .. } => {
            return format!("power⟨{i}/{n}⟩")
        }
        ForceFrame::WhileInit { .. }
        | ForceFrame::WhileForced { .. }
        | ForceFrame::WhileCond { .. } => "while",
        ForceFrame::Print { .. } => "forceAndPrint",
        ForceFrame::Benchmark { .. } => "benchmark",
        #[allow(unreachable_patterns)]
        _ => "force",
    };
    format!("{name}⟨⟩")
}

/// A value: closures as their lambda (children: the body), everything else as one atom.
fn value_tree(v: &Value) -> Tree {
    match v {
        Value::Closure(c) => Tree::atom(format!("fn {} =>", c.name))
            .line()
            .child(term_tree(&c.body)),
        v => Tree::atom(show(format_args!("{v}"))),
    }
}

/// A term, as its `Display` writes it, with its sub-terms as children.
pub fn term_tree(t: &Term) -> Tree {
    match &t.kind {
        TermKind::Var(_, x) => Tree::atom(x.to_string()),
        TermKind::Lit(v) => value_tree(v),
        TermKind::Lam { name, body, .. } => Tree::atom(format!("fn {name} =>"))
            .line()
            .child(term_tree(body)),
        TermKind::App(a, b) => Tree::app(term_tree(a), term_tree(b)),
        TermKind::Let {
            name, bound, body, ..
        } => Tree::let_in(name, term_tree(bound), term_tree(body)),
        TermKind::If(c, a, b) => Tree::if_then_else(term_tree(c), term_tree(a), term_tree(b)),
        TermKind::Pair(a, b) => Tree::wrap("(", vec![term_tree(a), term_tree(b)], ")"),
        TermKind::Fst(a) => Tree::wrap("fst (", vec![term_tree(a)], ")"),
        TermKind::Snd(a) => Tree::wrap("snd (", vec![term_tree(a)], ")"),
        TermKind::Call(b, args) => {
            let mut t = Tree::atom(b.name());
            for a in args.iter() {
                t = t.line().text("(").child(term_tree(a)).text(")");
            }
            t
        }
    }
}
