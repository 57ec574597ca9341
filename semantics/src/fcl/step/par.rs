//! Group steps (5.81, 5.83): the parts of a `Push<1+l>` (its chunks) or of an `Interleave<l>`
//! (its sub-programs) are tasks pinned to the sub-locations of a `Group(loc0..loc(m−1))` — part p on
//! sub-location p mod m, one after another there. Each group step lets the schedule choose J among
//! the sub-locations with work left, steps the current part of each once, costs the maximum of
//! their costs and does the sum of their work. When every part is done, 5.82 (the barrier) or
//! 5.84 (the scatter) fires.

use super::force::{materialised, program, ForceFrame};
use super::rules::{self, RunError};
use super::{Control, Ctx, Fired, Frame, Outcome, Task};
use crate::fcl::core::Level;
use crate::fcl::machine::Loc;
use crate::fcl::value::{Cells, Pull, PushArr, Value};
use crate::Span;
use std::rc::Rc;

/// A group step in progress: the parts of 5.81 or 5.83.
#[derive(Debug)]
pub(crate) struct Par {
    kind: ParKind,
    /// The level of the group location (= the level of the array being built).
    level: Level,
    span: Span,
    n_parts: usize,
    subs: Vec<Sub>,
    results: Vec<Option<Rc<Cells>>>,
    ready: Vec<usize>,
    chosen: Vec<usize>,
}

#[derive(Debug)]
pub(crate) enum ParKind {
    /// 5.81: `Push<1+l> arr` cut into consecutive chunks of `chunk` elements, one per sub-location.
    Chunks { arr: Rc<Pull>, chunk: usize },
    /// 5.83: the sub-programs `ps` of `Interleave<l> k f ps`.
    Programs { k: i32, f: Value, ps: Rc<Pull> },
}

/// A sub-location's part in progress: the part's index and its task.
pub(crate) type Running<'a> = Option<(usize, &'a Task)>;

#[derive(Debug)]
struct Sub {
    next: usize,
    current: Option<(usize, Box<Task>)>,
}

impl Par {
    /// The group's level, what it builds, and the sub-tasks in progress (for the soundness check).
    pub(crate) fn parts(&self) -> (Level, &ParKind, impl Iterator<Item = &Task>) {
        let tasks = self
            .subs
            .iter()
            .filter_map(|s| s.current.as_ref().map(|(_, t)| &**t));
        (self.level, &self.kind, tasks)
    }

    pub(crate) fn new(
        kind: ParKind,
        level: Level,
        span: Span,
        n_parts: usize,
        m: usize,
    ) -> Box<Par> {
        Box::new(Par {
            kind,
            level,
            span,
            n_parts,
            subs: (0..m)
                .map(|j| Sub {
                    next: j,
                    current: None,
                })
                .collect(),
            results: vec![None; n_parts],
            ready: Vec::new(),
            chosen: Vec::new(),
        })
    }

    /// For the teaching view: per sub-location, the part it runs and that part's task; the
    /// parts' results so far (the cells each part has written); the group's level.
    pub(crate) fn progress(&self) -> (Vec<Running<'_>>, &[Option<Rc<Cells>>], Level) {
        let subs = self
            .subs
            .iter()
            .map(|s| s.current.as_ref().map(|(p, t)| (*p, &**t)))
            .collect();
        (subs, &self.results, self.level)
    }

    /// The task of part p at sub-location `loc`.
    fn start(&self, p: usize, loc: Loc) -> Task {
        let below = Level(self.level.0 - 1);
        match &self.kind {
            ParKind::Chunks { arr, chunk } => {
                let start = p * chunk;
                let len = (*chunk).min(arr.len() - start);
                let slice = Rc::new(Pull::Slice {
                    inner: arr.clone(),
                    start,
                    len,
                });
                let a = PushArr::Push {
                    level: below,
                    arr: slice,
                };
                Task::with(Control::Force(Rc::new(a), self.span), Vec::new(), loc)
            }
            ParKind::Programs { ps, .. } => Task::with(
                Control::Elem(ps.clone(), p, self.span),
                vec![Frame::Force(ForceFrame::RunSub { span: self.span })],
                loc,
            ),
        }
    }

    pub(crate) fn describe(&self) -> String {
        let done = self.results.iter().filter(|r| r.is_some()).count();
        let n = self.n_parts;
        match &self.kind {
            ParKind::Chunks { arr, .. } => super::show(format_args!(
                "force (Push<{}> {arr}) [{done}/{n} parts done]",
                self.level
            )),
            ParKind::Programs { k, ps, .. } => super::show(format_args!(
                "force (Interleave<{}> {k} _ {ps}) [{done}/{n} parts done]",
                Level(self.level.0 - 1)
            )),
        }
    }
}

impl Task {
    /// One group step (5.81/5.83), or the final rule once every part is done (5.82/5.84).
    pub(crate) fn par_step(&mut self, mut par: Box<Par>, ctx: &mut Ctx) -> Result<Fired, RunError> {
        let m = par.subs.len();
        loop {
            let mut ready = std::mem::take(&mut par.ready);
            ready.clear();
            for (j, s) in par.subs.iter().enumerate() {
                if s.current.is_some() || s.next < par.n_parts {
                    ready.push(j);
                }
            }
            if ready.is_empty() {
                par.ready = ready;
                return self.par_finish(*par, ctx);
            }
            let mut chosen = std::mem::take(&mut par.chosen);
            ctx.scheduler.choose(&ready, &mut chosen);
            par.ready = ready;
            let (mut cost, mut work, mut firings, mut any) = (0, 0, 0, false);
            let mut parts: Vec<Fired> = Vec::new();
            for &j in &chosen {
                loop {
                    let (p, mut task) = match par.subs[j].current.take() {
                        Some(c) => c,
                        None if par.subs[j].next < par.n_parts => {
                            let p = par.subs[j].next;
                            par.subs[j].next += m;
                            (p, Box::new(par.start(p, self.loc.subs()[j].clone())))
                        }
                        None => break,
                    };
                    match task.step(ctx)? {
                        Outcome::Fired(f) => {
                            cost = cost.max(f.cost);
                            work += f.work;
                            firings += f.firings;
                            any = true;
                            if ctx.trace {
                                parts.push(f);
                            }
                            par.subs[j].current = Some((p, task));
                            break;
                        }
                        Outcome::Done(v) => par.results[p] = Some(materialised(&v, par.span)?),
                    }
                }
            }
            par.chosen = chosen;
            if any {
                let rule = match par.kind {
                    ParKind::Chunks { .. } => rules::FORCE_PAR,
                    ParKind::Programs { .. } => rules::INTERLEAVE_PAR,
                };
                // the printed side only when tracing: this runs once per group step
                let trace = ctx.trace.then(|| {
                    // the leaf steps underneath, where the work happened
                    let mut leaves = Vec::new();
                    leaf_steps(&parts, &mut leaves);
                    let notes: Vec<String> = leaves
                        .iter()
                        .take(4)
                        .map(|f| format!("{}: {}", f.loc, f.rule))
                        .collect();
                    let more = if leaves.len() > 4 { "; …" } else { "" };
                    Box::new(super::StepTrace {
                        redex: par.describe(),
                        result: format!("{}{more}", notes.join("; ")),
                        parts,
                    })
                });
                self.control = Control::Par(par);
                return Ok(Fired {
                    rule,
                    cost,
                    work,
                    firings,
                    loc: self.loc.clone(),
                    trace,
                });
            }
        }
    }

    fn par_finish(&mut self, par: Par, ctx: &mut Ctx) -> Result<Fired, RunError> {
        let redex = if ctx.trace {
            par.describe()
        } else {
            String::new()
        };
        let results: Vec<Rc<Cells>> = par.results.into_iter().flatten().collect();
        match par.kind {
            ParKind::Chunks { .. } => {
                // (5.82) force (Push<1+l> [bv…]) →0 Program<1+l> [bv…]: the barrier
                let data: Vec<Value> = results.iter().flat_map(|r| r.iter().cloned()).collect();
                self.control = Control::Ret(program(par.level, data));
                Ok(self.fire(rules::FORCE_DONE, 0, ctx, || redex))
            }
            ParKind::Programs { k, f, .. } => {
                self.scatter_step(false, par.level, k, &f, results, par.span, ctx)
            }
        }
    }
}

/// The leaf steps (those without parts) under `parts`, in order.
fn leaf_steps<'a>(parts: &'a [Fired], out: &mut Vec<&'a Fired>) {
    for f in parts {
        match f.trace.as_ref().filter(|t| !t.parts.is_empty()) {
            Some(t) => leaf_steps(&t.parts, out),
            None => out.push(f),
        }
    }
}
