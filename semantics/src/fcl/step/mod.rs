//! The small-step relation `e ↪c_loc e'` of thesis §5.3 (rules 5.48–5.91, repaired as in spec §7.3).
//!
//! A [`Task`] is an expression being reduced at one location, kept as a *focus* (the control) and
//! its evaluation context `E` (a stack of frames, Figure 5.10), so finding the next redex never
//! re-searches the term: moving the focus through a context (5.48/5.49) is free and every call of
//! [`Task::step`] fires exactly one rule, reporting its number, cost c ∈ {0, 1} and location.
//! Substitution is environment extension ([`term`]). Group locations step their parts through
//! [`force`]'s parallel state (5.81, 5.83).

pub mod builtins;
pub mod force;
pub mod host;
pub mod loops;
pub mod par;
pub mod rules;
pub mod scalar;
pub mod soundness;
pub mod tally;
pub mod term;
pub mod view;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_doubles;
#[cfg(test)]
mod tests_host;
#[cfg(test)]
mod tests_random;

use super::machine::{Loc, Scheduler};
use super::value::{Cells, InternalFn, Pull, PushArr, Thunk, Value};
use crate::Span;
use par::Par;
use rules::{Rule, RunError};
use std::rc::Rc;
use term::{Env, Term, TermKind};

/// What one fired rule did.
#[derive(Clone, Debug)]
pub struct Fired {
    pub rule: Rule,
    /// c ∈ {0, 1}; a group step costs the maximum of its parts (5.81, 5.83).
    pub cost: u32,
    /// The sum of the costs of the thread-level (leaf) steps this step made.
    pub work: u64,
    /// Rule firings this step made: 1 for a leaf step, the sum of its parts for a group step.
    pub firings: u64,
    pub loc: Loc,
    /// What a trace shows; `None` unless the context traces.
    pub trace: Option<Box<StepTrace>>,
}

/// The printed side of a step, for traces.
#[derive(Clone, Debug)]
pub struct StepTrace {
    /// The redex and its result, printed.
    pub redex: String,
    pub result: String,
    /// The steps of the parts of a group step.
    pub parts: Vec<Fired>,
}

/// The result of one step.
#[derive(Debug)]
pub enum Outcome {
    Fired(Fired),
    /// The task is a value (nothing fired).
    Done(Value),
}

/// State shared by every task of one run: the schedule, the program's output, counters.
#[derive(Debug)]
pub struct Ctx {
    pub scheduler: Scheduler,
    /// What `forceAndPrint*` wrote (stdout).
    pub stdout: String,
    /// What `benchmark` wrote (stderr).
    pub stderr: String,
    /// Fill in `Fired::redex`/`result`.
    pub trace: bool,
    /// Array cells materialised so far (forces, seqfor buffers, scatters).
    pub allocated: u64,
    /// The largest single materialised array, in cells.
    pub largest: u64,
    /// Counts by rule, level and memory access, when asked for ([`tally::Tally`]).
    pub tally: Option<Box<tally::Tally>>,
}

impl Ctx {
    pub fn new(scheduler: Scheduler, trace: bool) -> Ctx {
        Ctx {
            scheduler,
            stdout: String::new(),
            stderr: String::new(),
            trace,
            allocated: 0,
            largest: 0,
            tally: None,
        }
    }

    fn alloc(&mut self, cells: usize) {
        self.allocated += cells as u64;
        self.largest = self.largest.max(cells as u64);
    }
}

/// The evaluated arguments of a built-in call (arity ≤ 3), kept inline: no allocation per call.
pub(crate) type Args = [Value; 3];

/// The focus of a task.
#[derive(Debug)]
pub(crate) enum Control {
    Eval(Rc<Term>, Env),
    Ret(Value),
    /// `f a`, about to fire β (5.50) or an internal function.
    Apply(Value, Value, Span),
    /// Element i of a pull array, about to be evaluated.
    Elem(Rc<Pull>, usize, Span),
    /// `force a` at this task's location (5.76–5.84).
    Force(Rc<PushArr>, Span),
    /// A group step in progress (5.81, 5.83).
    Par(Box<Par>),
    /// Placeholder while a step owns the control.
    Taken,
}

/// One layer of the evaluation context.
#[derive(Debug)]
pub(crate) enum Frame {
    /// `E e`.
    AppArg(Rc<Term>, Env),
    /// `v E`: apply v to the result.
    AppFun(Value, Span),
    /// Apply the result to v.
    ApplyTo(Value, Span),
    /// Apply `h i` to the result.
    ApplyIx(Value, Value, Span),
    /// `if E then e1 else e2`.
    If(Rc<Term>, Rc<Term>, Env, Span),
    /// `(E, e)`.
    PairFst(Rc<Term>, Env),
    /// `(v, E)`.
    PairSnd(Value),
    Fst(Span),
    Snd(Span),
    /// A built-in call with some arguments evaluated (`v E` on curried applications).
    Args {
        builtin: crate::fcl::core::Builtin,
        args: Rc<[Rc<Term>]>,
        env: Env,
        vals: Args,
        /// How many of `vals` are evaluated.
        done: u8,
        span: Span,
    },
    /// The loops, forces and host operations of [`force`] and [`builtins`].
    Force(force::ForceFrame),
}

/// An expression being reduced at a location.
#[derive(Debug)]
pub struct Task {
    pub(crate) loc: Loc,
    pub(crate) control: Control,
    pub(crate) stack: Vec<Frame>,
}

impl Task {
    /// The closed term `t` at `loc`.
    pub fn new(t: Rc<Term>, loc: Loc) -> Task {
        Task {
            loc,
            control: Control::Eval(t, None),
            stack: Vec::new(),
        }
    }

    pub(crate) fn with(control: Control, stack: Vec<Frame>, loc: Loc) -> Task {
        Task {
            loc,
            control,
            stack,
        }
    }

    /// The location this task runs at.
    pub fn loc(&self) -> &Loc {
        &self.loc
    }

    /// Fires one rule, or reports that the task is a value.
    pub fn step(&mut self, ctx: &mut Ctx) -> Result<Outcome, RunError> {
        if ctx.tally.is_none() {
            return self.step_once(ctx);
        }
        // a group step's parts are recorded by their own calls, and the group step itself is
        // skipped by `record`
        let r = self.step_once(ctx);
        if let (Ok(Outcome::Fired(f)), Some(t)) = (&r, ctx.tally.as_mut()) {
            t.record(f, self.forced_cells());
        }
        r
    }

    /// The cells a force just materialised (5.82 leaves `Program<l> [bv…]`), if the focus is
    /// such a program.
    fn forced_cells(&self) -> Option<&Rc<Cells>> {
        match &self.control {
            Control::Ret(Value::Program(_, v)) => match &**v {
                Value::Pull(p) => match &**p {
                    Pull::Mem(c) => Some(c),
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        }
    }

    fn step_once(&mut self, ctx: &mut Ctx) -> Result<Outcome, RunError> {
        loop {
            let fired = match std::mem::replace(&mut self.control, Control::Taken) {
                Control::Eval(t, env) => self.eval(t, env, ctx)?,
                Control::Ret(v) => match self.stack.pop() {
                    None => {
                        self.control = Control::Ret(v.clone());
                        return Ok(Outcome::Done(v));
                    }
                    Some(frame) => self.cont(frame, v, ctx)?,
                },
                Control::Apply(f, a, span) => Some(self.apply(f, a, span, ctx)?),
                Control::Elem(p, i, span) => {
                    if let (Some(t), Pull::Mem(c)) = (ctx.tally.as_mut(), &*p) {
                        t.read(c, i, span.start as usize, self.loc.thread_id());
                    }
                    self.elem(&p, i, span);
                    None
                }
                Control::Force(a, span) => self.begin_force(a, span, ctx)?,
                Control::Par(par) => Some(self.par_step(par, ctx)?),
                Control::Taken => {
                    return Err(RunError::new(
                        rules::STUCK,
                        Span::DUMMY,
                        "internal: task re-entered",
                    ))
                }
            };
            if let Some(f) = fired {
                return Ok(Outcome::Fired(f));
            }
        }
    }

    /// A leaf step: cost c, work c, at this task's location. `redex` is only called when tracing;
    /// the result is read off the new control.
    pub(crate) fn fire(
        &self,
        rule: Rule,
        cost: u32,
        ctx: &Ctx,
        redex: impl FnOnce() -> String,
    ) -> Fired {
        let trace = ctx.trace.then(|| {
            Box::new(StepTrace {
                redex: redex(),
                result: self.describe(),
                parts: Vec::new(),
            })
        });
        Fired {
            rule,
            cost,
            work: cost as u64,
            firings: 1,
            loc: self.loc.clone(),
            trace,
        }
    }

    /// The focus, printed (for traces).
    pub(crate) fn describe(&self) -> String {
        match &self.control {
            Control::Eval(t, _) => show(format_args!("{t}")),
            Control::Ret(v) => show(format_args!("{v}")),
            Control::Apply(f, a, _) => show(format_args!("({f}) ({a})")),
            Control::Elem(p, i, _) => show(format_args!("{p}[{i}]")),
            Control::Force(a, _) => show(format_args!("force ({a})")),
            Control::Par(p) => p.describe(),
            Control::Taken => String::new(),
        }
    }

    fn eval(&mut self, t: Rc<Term>, env: Env, ctx: &mut Ctx) -> Result<Option<Fired>, RunError> {
        match &t.kind {
            TermKind::Var(i, x) => match term::lookup(&env, *i) {
                // A by-name program runs each time it is evaluated (spec §7.1).
                Some(Value::Thunk(th)) => {
                    self.control = Control::Eval(th.term.clone(), th.env.clone())
                }
                Some(v) => self.control = Control::Ret(v.clone()),
                None => {
                    return Err(RunError::new(
                        rules::STUCK,
                        t.span,
                        format!("unbound `{x}`"),
                    ))
                }
            },
            TermKind::Lit(v) => self.control = Control::Ret(v.clone()),
            TermKind::Lam {
                name,
                param_ty,
                by_name,
                body,
            } => {
                self.control = Control::Ret(Value::Closure(Rc::new(super::value::Closure {
                    name: name.clone(),
                    param_ty: param_ty.clone(),
                    by_name: *by_name,
                    body: body.clone(),
                    env,
                    span: t.span,
                })))
            }
            TermKind::App(f, a) => {
                self.stack.push(Frame::AppArg(a.clone(), env.clone()));
                self.control = Control::Eval(f.clone(), env);
            }
            TermKind::Let { bound, body, .. } => {
                // (5.50, let) let x = e1 in e2 → e2[e1/x], by name: [T] inlines lets when it
                // monomorphizes (5.31) and [O] inlines everything, so the bound expression is
                // evaluated at each use (a program re-runs, spec §7.1) and an unused erroneous
                // binding never fails (spec §7.1 "prefer by-name lets").
                let redex = || show(format_args!("{t}"));
                let v = thunk(bound, &env);
                self.control = Control::Eval(body.clone(), term::bind(&env, v));
                return Ok(Some(self.fire(rules::LET, 0, ctx, redex)));
            }
            TermKind::If(c, a, b) => {
                self.stack
                    .push(Frame::If(a.clone(), b.clone(), env.clone(), t.span));
                self.control = Control::Eval(c.clone(), env);
            }
            TermKind::Pair(a, b) => {
                self.stack.push(Frame::PairFst(b.clone(), env.clone()));
                self.control = Control::Eval(a.clone(), env);
            }
            TermKind::Fst(a) => {
                self.stack.push(Frame::Fst(t.span));
                self.control = Control::Eval(a.clone(), env);
            }
            TermKind::Snd(a) => {
                self.stack.push(Frame::Snd(t.span));
                self.control = Control::Eval(a.clone(), env);
            }
            TermKind::Call(b, args) => {
                return self.next_arg(*b, args.clone(), env, Args::default(), 0, t.span, ctx)
            }
        }
        Ok(None)
    }

    /// Evaluates the next argument of a call left to right (`v E`); `Program`-typed arguments are
    /// taken unevaluated. When all are values the call's rule fires.
    #[allow(clippy::too_many_arguments)]
    fn next_arg(
        &mut self,
        builtin: crate::fcl::core::Builtin,
        args: Rc<[Rc<Term>]>,
        env: Env,
        mut vals: Args,
        mut done: usize,
        span: Span,
        ctx: &mut Ctx,
    ) -> Result<Option<Fired>, RunError> {
        while done < args.len() && builtin.by_name(done) {
            vals[done] = thunk(&args[done], &env);
            done += 1;
        }
        if done == args.len() {
            return self.call(builtin, vals, span, ctx);
        }
        let next = args[done].clone();
        self.control = Control::Eval(next, env.clone());
        self.stack.push(Frame::Args {
            builtin,
            args,
            env,
            vals,
            done: done as u8,
            span,
        });
        Ok(None)
    }

    /// Plugs the value v into the innermost frame.
    fn cont(&mut self, frame: Frame, v: Value, ctx: &mut Ctx) -> Result<Option<Fired>, RunError> {
        match frame {
            Frame::AppArg(a, env) => match &v {
                Value::Closure(c) if c.by_name => {
                    let arg = thunk(&a, &env);
                    self.control = Control::Apply(v, arg, a.span);
                }
                _ => {
                    self.stack.push(Frame::AppFun(v, a.span));
                    self.control = Control::Eval(a, env);
                }
            },
            Frame::AppFun(f, span) => self.control = Control::Apply(f, v, span),
            Frame::ApplyTo(a, span) => self.control = Control::Apply(v, a, span),
            Frame::ApplyIx(h, i, span) => {
                self.stack.push(Frame::ApplyTo(v, span));
                self.control = Control::Apply(h, i, span);
            }
            Frame::If(a, b, env, span) => {
                let (rule, branch) = match v {
                    Value::Bool(true) => (rules::IF_TRUE, a),   // (5.74)
                    Value::Bool(false) => (rules::IF_FALSE, b), // (5.75)
                    other => return Err(stuck(span, "if", &other)),
                };
                self.control = Control::Eval(branch, env);
                return Ok(Some(self.fire(rule, 1, ctx, || format!("if {v} then …"))));
            }
            Frame::PairFst(b, env) => {
                self.stack.push(Frame::PairSnd(v));
                self.control = Control::Eval(b, env);
            }
            Frame::PairSnd(a) => self.control = Control::Ret(Value::Pair(Rc::new((a, v)))),
            Frame::Fst(span) | Frame::Snd(span) => {
                let is_fst = matches!(frame, Frame::Fst(_));
                let Value::Pair(p) = &v else {
                    return Err(stuck(span, "fst/snd", &v));
                };
                // (5.51) fst (v1, v2) → v1; (5.52) snd (v1, v2) → v2
                let (rule, out) = if is_fst {
                    (rules::FST, p.0.clone())
                } else {
                    (rules::SND, p.1.clone())
                };
                self.control = Control::Ret(out);
                let name = if is_fst { "fst" } else { "snd" };
                return Ok(Some(
                    self.fire(rule, 0, ctx, || show(format_args!("{name} {v}"))),
                ));
            }
            Frame::Args {
                builtin,
                args,
                env,
                mut vals,
                done,
                span,
            } => {
                vals[done as usize] = v;
                return self.next_arg(builtin, args, env, vals, done as usize + 1, span, ctx);
            }
            Frame::Force(f) => return self.cont_force(f, v, ctx),
        }
        Ok(None)
    }

    /// `f a`: (5.50) β for closures; the rules' internal functions otherwise.
    fn apply(&mut self, f: Value, a: Value, span: Span, ctx: &mut Ctx) -> Result<Fired, RunError> {
        let redex = |f: &Value, a: &Value| show(format_args!("({f}) ({a})"));
        match &f {
            Value::Closure(c) => {
                // (5.50) (fn x => e) v → e[v/x]
                let r = ctx.trace.then(|| redex(&f, &a));
                self.control = Control::Eval(c.body.clone(), term::bind(&c.env, a));
                Ok(self.fire(rules::BETA, 0, ctx, || r.unwrap_or_default()))
            }
            Value::Internal(i) => {
                let r = ctx.trace.then(|| redex(&f, &a));
                let rule = self.apply_internal(i, a, span)?;
                let cost = if rule == rules::INDEX { 1 } else { 0 };
                Ok(self.fire(rule, cost, ctx, || r.unwrap_or_default()))
            }
            _ => Err(stuck(span, "application", &f)),
        }
    }

    fn apply_internal(
        &mut self,
        i: &Rc<InternalFn>,
        a: Value,
        span: Span,
    ) -> Result<Rule, RunError> {
        match &**i {
            InternalFn::Read { buf, single } => {
                // The read function `fn k => v_k` of (5.79): an indexing, (5.60)/(5.61).
                let k = as_int(&a, span, "seqfor read")?;
                let cell = if *single { 0 } else { k as i64 };
                if cell < 0 || cell as usize >= buf.len() {
                    return Err(RunError::new(
                        rules::INDEX_ERR,
                        span,
                        format!("seqfor read of index {k} outside [0, {})", buf.len()),
                    ));
                }
                self.control = Control::Ret(buf[cell as usize].clone());
                Ok(rules::INDEX)
            }
            InternalFn::Partial { f, first } => self.apply_internal2(f, first.clone(), a, span),
            _ => {
                self.control = Control::Ret(Value::Internal(Rc::new(InternalFn::Partial {
                    f: i.clone(),
                    first: a,
                })));
                Ok(rules::BETA)
            }
        }
    }

    fn apply_internal2(
        &mut self,
        f: &Rc<InternalFn>,
        x: Value,
        y: Value,
        span: Span,
    ) -> Result<Rule, RunError> {
        match &**f {
            InternalFn::OffsetIndex { h, offset } => {
                let j = as_int(&x, span, "mapPush index")?;
                self.stack.push(Frame::ApplyTo(y, span));
                self.control = Control::Apply(h.clone(), Value::Int(offset.wrapping_add(j)), span);
                Ok(rules::BETA)
            }
            InternalFn::ComposeIndexed { h, g } => {
                self.stack.push(Frame::ApplyIx(h.clone(), x.clone(), span));
                self.stack.push(Frame::ApplyTo(y, span));
                self.control = Control::Apply(g.clone(), x, span);
                Ok(rules::BETA)
            }
            InternalFn::IndexedIdentity => {
                self.control = Control::Ret(y);
                Ok(rules::BETA)
            }
            InternalFn::MapPushProgram { h, k } => {
                // The sub-program of (5.69)/(5.70): bind p_b (fn a => return (mapPush h' a)),
                // with h' = fn j x => h (b·k + j) x.
                let b = as_int(&x, span, "mapPush sub-program")?;
                let Value::Program(l, inner) = &y else {
                    return Err(stuck(span, "mapPush sub-program", &y));
                };
                let Value::Push(a) = &**inner else {
                    return Err(stuck(span, "mapPush sub-program", &y));
                };
                let h2 = Value::Internal(Rc::new(InternalFn::OffsetIndex {
                    h: h.clone(),
                    offset: b.wrapping_mul(*k),
                }));
                let mapped = builtins::map_push(&h2, a).1;
                self.control = Control::Ret(Value::Program(*l, Rc::new(Value::Push(mapped))));
                Ok(rules::BIND)
            }
            InternalFn::Read { .. } | InternalFn::Partial { .. } => {
                Err(RunError::new(rules::STUCK, span, "internal: bad partial"))
            }
        }
    }

    /// Element i of a pull array `[e0, …]` becomes the focus (no rule fires: the element
    /// expression is only built).
    fn elem(&mut self, p: &Rc<Pull>, i: usize, span: Span) {
        self.control = match &**p {
            Pull::Gen { f, .. } => Control::Apply(f.clone(), Value::Int(i as i32), span),
            Pull::Map { f, inner } => {
                self.stack.push(Frame::AppFun(f.clone(), span));
                Control::Elem(inner.clone(), i, span)
            }
            Pull::MapIx { h, inner } => {
                self.stack
                    .push(Frame::ApplyIx(h.clone(), Value::Int(i as i32), span));
                Control::Elem(inner.clone(), i, span)
            }
            Pull::Mem(v) => Control::Ret(v[i].clone()),
            Pull::Slice { inner, start, .. } => Control::Elem(inner.clone(), start + i, span),
            Pull::Dests { f, starts } => {
                let b = starts.partition_point(|&s| s <= i) - 1;
                let j = i - starts[b];
                let arg = Value::Pair(Rc::new((Value::Int(b as i32), Value::Int(j as i32))));
                Control::Apply(f.clone(), arg, span)
            }
        };
    }
}

/// A by-name argument: the unevaluated term with its environment (a variable already bound to a
/// program is passed on as that program).
pub(crate) fn thunk(t: &Rc<Term>, env: &Env) -> Value {
    if let TermKind::Var(i, _) = t.kind {
        if let Some(v @ Value::Thunk(_)) = term::lookup(env, i) {
            return v.clone();
        }
    }
    Value::Thunk(Rc::new(Thunk {
        term: t.clone(),
        env: env.clone(),
    }))
}

/// The control that runs a by-name program value.
pub(crate) fn run(v: Value) -> Control {
    match v {
        Value::Thunk(t) => Control::Eval(t.term.clone(), t.env.clone()),
        v => Control::Ret(v),
    }
}

pub(crate) fn as_int(v: &Value, span: Span, what: &str) -> Result<i32, RunError> {
    match v {
        Value::Int(i) => Ok(*i),
        _ => Err(stuck(span, what, v)),
    }
}

/// An ill-typed core term met a value of the wrong shape.
pub(crate) fn stuck(span: Span, what: &str, v: &Value) -> RunError {
    RunError::new(
        rules::STUCK,
        span,
        format!("{what}: unexpected value {}", show(format_args!("{v}"))),
    )
}

/// How many bytes of a printed term or value traces and messages keep.
const SHOWN: usize = 160;

/// Prints to one readable line of at most [`SHOWN`] bytes plus `…`. Printing stops as soon as the
/// line is full, so showing a redex costs O(line), not O(term), however large the term.
pub(crate) fn show(args: std::fmt::Arguments) -> String {
    struct Bounded(String, bool);
    impl std::fmt::Write for Bounded {
        fn write_str(&mut self, s: &str) -> std::fmt::Result {
            let room = SHOWN.saturating_sub(self.0.len());
            if s.len() <= room {
                self.0.push_str(s);
                return Ok(());
            }
            let mut end = room;
            while !s.is_char_boundary(end) {
                end -= 1;
            }
            self.0.push_str(&s[..end]);
            self.1 = true;
            Err(std::fmt::Error)
        }
    }
    let mut b = Bounded(String::new(), false);
    let _ = std::fmt::Write::write_fmt(&mut b, args);
    if b.1 {
        b.0.push('…');
    }
    b.0
}
