//! Type soundness at every step (thesis Propositions 9–11): the configuration `E[e]` of a task —
//! its focus plugged into its stack of frames — is typed directly, frame by frame from the hole
//! outwards, with values typed per Figure 5.9 (5.41–5.47), and must have the program's type
//! (preservation) at a location that admits it (`loc ▶ τ`, Figure 5.8).
//!
//! Some run-time forms carry no type of their own (the rules' internal functions, an empty
//! materialised array, a group step in progress, the frames of a force): where one of them
//! decides the type, the configuration is *partially* checked — every known part is still
//! compared, and the first disagreement is a [`Violation`].

use super::force::ForceFrame;
use super::par::{Par, ParKind};
use super::term::{Env, Term, TermKind};
use super::{Control, Frame, Task};
use crate::fcl::core::{Level, Type};
use crate::fcl::core_type::call_type;
use crate::fcl::value::{has_type, Pull, PushArr, Value};
use crate::Span;

/// How deep value and term typing follow closures and environments before giving up (unknown).
const MAX_DEPTH: usize = 64;

/// How far a configuration could be typed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// `E[e] : τ` with τ the program's type, at a location that admits τ.
    Checked,
    /// No disagreement, but the named form left the whole configuration's type unknown.
    Partial(&'static str),
}

/// A configuration that is ill typed: preservation or the location condition failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation(pub String);

/// A type that may be unknown (`None`): see the module comment.
type Ty = Option<Type>;

fn bad<T>(msg: String) -> Result<T, Violation> {
    Err(Violation(msg))
}

/// Known types must agree.
fn agree(what: &str, want: &Ty, got: &Ty) -> Result<(), Violation> {
    match (want, got) {
        (Some(w), Some(g)) if w != g => bad(format!("{what}: expected {w}, found {g}")),
        _ => Ok(()),
    }
}

/// The parts of a function type; a known non-function is a violation.
fn fun_parts(what: &str, t: &Ty) -> Result<(Ty, Ty), Violation> {
    match t {
        None => Ok((None, None)),
        Some(Type::Fun(a, b)) => Ok((Some((**a).clone()), Some((**b).clone()))),
        Some(t) => bad(format!("{what}: expected a function, found {t}")),
    }
}

/// Checks the configuration of `task` against the program's type `program_ty` (5.41–5.47 for
/// values, core typing for terms, Figure 5.8 for the location).
pub fn check_task(task: &Task, program_ty: &Type) -> Result<Verdict, Violation> {
    let (ty, partial) = config_type(task)?;
    agree(
        "configuration (preservation)",
        &Some(program_ty.clone()),
        &ty,
    )?;
    // (Prop. 11) the task's location admits the type it evaluates: `loc ▶ τ`
    if !task.loc.admits(program_ty) {
        return bad(format!(
            "location {} does not admit {program_ty} (loc ▶ τ)",
            task.loc
        ));
    }
    Ok(match (ty, partial) {
        (Some(_), _) => Verdict::Checked,
        (None, why) => Verdict::Partial(why.unwrap_or("unknown value type")),
    })
}

/// The type of `E[e]`, if known, and the first form that hid a type.
fn config_type(task: &Task) -> Result<(Ty, Option<&'static str>), Violation> {
    let mut partial = None;
    let mut hole = match focus_type(&task.control)? {
        Ok(t) => t,
        Err(why) => {
            partial = Some(why);
            None
        }
    };
    for frame in task.stack.iter().rev() {
        hole = match frame_type(frame, hole)? {
            Ok(t) => t,
            Err(why) => {
                partial = partial.or(Some(why));
                None
            }
        };
    }
    Ok((hole, partial))
}

/// A group step in progress (5.81, 5.83): its type `Program<l> [τ]`, and every part checked at
/// its sub-location — preservation for the parts and `loc ▶ τ` there (Prop. 11).
fn par_type(par: &Par) -> Result<Ty, Violation> {
    let (level, kind, subs) = par.parts();
    let (elem, part_ty) = match kind {
        // each part forces `Push<l> chunk` at a sub-location: Program<l> [τ]
        ParKind::Chunks { arr, .. } => {
            let elem = pull_elem(arr, 0)?;
            let part = match (&elem, level.pred()) {
                (Some(t), Some(below)) => Some(Type::program(below, Type::pull(t.clone()))),
                _ => None,
            };
            (elem, part)
        }
        // each part runs one sub-program then forces its result; its own type is unknown here
        ParKind::Programs { ps, .. } => match pull_elem(ps, 0)? {
            Some(Type::Program(_, t)) => match *t {
                Type::Push(e, _) => (Some(*e), None),
                t => {
                    return bad(format!(
                        "interleaved part: expected a push array, found {t}"
                    ))
                }
            },
            Some(t) => return bad(format!("interleaved parts: expected programs, found {t}")),
            None => (None, None),
        },
    };
    for sub in subs {
        let (ty, _) = config_type(sub)?;
        agree("part of a group step", &part_ty, &ty)?;
        if let Some(t) = &ty {
            if !sub.loc.admits(t) {
                return bad(format!("location {} does not admit {t} (loc ▶ τ)", sub.loc));
            }
        }
    }
    Ok(elem.map(|t| Type::program(level, Type::pull(t))))
}

/// The focus's type; the inner `Err` names a form that has no type of its own here.
fn focus_type(c: &Control) -> Result<Result<Ty, &'static str>, Violation> {
    Ok(Ok(match c {
        Control::Eval(t, env) => term_type(t, env, &mut Vec::new(), 0)?,
        Control::Ret(v) => value_type(v, 0)?,
        Control::Apply(f, a, _) => {
            let (x, r) = fun_parts("applied value", &value_type(f, 0)?)?;
            agree("argument", &x, &value_type(a, 0)?)?;
            r
        }
        Control::Elem(p, _, _) => pull_elem(p, 0)?,
        // `force a` with a : [τ]<l> is a Program<l> [τ] (the type of force<l>)
        Control::Force(a, _) => match push_type(a, 0)? {
            Some(Type::Push(t, l)) => Some(Type::program(l, Type::pull(*t))),
            Some(t) => return bad(format!("force: expected a push array, found {t}")),
            None => return Ok(Err("force of an untyped array")),
        },
        Control::Par(par) => match par_type(par)? {
            Some(t) => Some(t),
            None => return Ok(Err("group step of unknown element type")),
        },
        Control::Taken => return bad("a task's control is taken between steps".into()),
    }))
}

/// The type of `frame[hole]` given the hole's type.
fn frame_type(frame: &Frame, hole: Ty) -> Result<Result<Ty, &'static str>, Violation> {
    Ok(Ok(match frame {
        Frame::AppArg(a, env) => {
            let (x, r) = fun_parts("applied term", &hole)?;
            agree("argument", &x, &term_type(a, env, &mut Vec::new(), 0)?)?;
            r
        }
        Frame::AppFun(f, _) => {
            let (x, r) = fun_parts("applied value", &value_type(f, 0)?)?;
            agree("argument", &x, &hole)?;
            r
        }
        Frame::ApplyTo(a, _) => {
            let (x, r) = fun_parts("applied result", &hole)?;
            agree("argument", &x, &value_type(a, 0)?)?;
            r
        }
        Frame::ApplyIx(h, i, _) => {
            let (ix, rest) = fun_parts("indexed function", &value_type(h, 0)?)?;
            agree("index", &ix, &value_type(i, 0)?)?;
            let (x, r) = fun_parts("indexed function", &rest)?;
            agree("argument", &x, &hole)?;
            r
        }
        Frame::If(a, b, env, _) => {
            agree("condition", &Some(Type::Bool), &hole)?;
            let ta = term_type(a, env, &mut Vec::new(), 0)?;
            let tb = term_type(b, env, &mut Vec::new(), 0)?;
            agree("else branch", &ta, &tb)?;
            ta.or(tb)
        }
        Frame::PairFst(b, env) => pair(hole, term_type(b, env, &mut Vec::new(), 0)?),
        Frame::PairSnd(a) => pair(value_type(a, 0)?, hole),
        Frame::Fst(_) | Frame::Snd(_) => match hole {
            None => None,
            Some(Type::Pair(a, b)) => Some(if matches!(frame, Frame::Fst(_)) {
                *a
            } else {
                *b
            }),
            Some(t) => return bad(format!("fst/snd: expected a pair, found {t}")),
        },
        Frame::Args {
            builtin,
            args,
            env,
            vals,
            done,
            ..
        } => {
            let done = *done as usize;
            let mut ts = Vec::with_capacity(args.len());
            for v in &vals[..done] {
                ts.push(value_type(v, 0)?);
            }
            ts.push(hole);
            for a in &args[done + 1..] {
                ts.push(term_type(a, env, &mut Vec::new(), 0)?);
            }
            call(*builtin, ts, args.len())?
        }
        Frame::Force(f) => return force_frame_type(f, hole),
    }))
}

fn pair(a: Ty, b: Ty) -> Ty {
    Some(Type::pair(a?, b?))
}

/// A built-in call's type when every argument type is known.
fn call(b: crate::fcl::core::Builtin, ts: Vec<Ty>, n: usize) -> Result<Ty, Violation> {
    let Some(ts) = ts.into_iter().collect::<Option<Vec<Type>>>() else {
        return Ok(None);
    };
    let spans = vec![Span::DUMMY; n];
    call_type(b, &ts, &spans)
        .map(Some)
        .map_err(|d| Violation(format!("`{}`: {}", b.name(), d.message)))
}

/// Types a term under the run-time environment `env`; `inner` holds the types of the binders
/// entered inside the term (innermost last).
fn term_type(t: &Term, env: &Env, inner: &mut Vec<Ty>, depth: usize) -> Result<Ty, Violation> {
    if depth > MAX_DEPTH {
        return Ok(None);
    }
    let d = depth + 1;
    Ok(match &t.kind {
        TermKind::Var(i, _) => {
            let i = *i as usize;
            if i < inner.len() {
                inner[inner.len() - 1 - i].clone()
            } else {
                match super::term::lookup(env, (i - inner.len()) as u32) {
                    Some(v) => value_type(v, d)?,
                    None => return bad(format!("unbound variable in {t}")),
                }
            }
        }
        TermKind::Lit(v) => value_type(v, d)?,
        TermKind::Lam { param_ty, body, .. } => {
            inner.push(Some((**param_ty).clone()));
            let r = term_type(body, env, inner, d);
            inner.pop();
            r?.map(|r| Type::fun((**param_ty).clone(), r))
        }
        TermKind::App(f, a) => {
            let (x, r) = fun_parts("applied term", &term_type(f, env, inner, d)?)?;
            agree("argument", &x, &term_type(a, env, inner, d)?)?;
            r
        }
        TermKind::Let { bound, body, .. } => {
            let tb = term_type(bound, env, inner, d)?;
            inner.push(tb);
            let r = term_type(body, env, inner, d);
            inner.pop();
            r?
        }
        TermKind::If(c, a, b) => {
            agree(
                "condition",
                &Some(Type::Bool),
                &term_type(c, env, inner, d)?,
            )?;
            let ta = term_type(a, env, inner, d)?;
            let tb = term_type(b, env, inner, d)?;
            agree("else branch", &ta, &tb)?;
            ta.or(tb)
        }
        TermKind::Pair(a, b) => pair(term_type(a, env, inner, d)?, term_type(b, env, inner, d)?),
        TermKind::Fst(p) | TermKind::Snd(p) => match term_type(p, env, inner, d)? {
            None => None,
            Some(Type::Pair(a, b)) => Some(if matches!(t.kind, TermKind::Fst(_)) {
                *a
            } else {
                *b
            }),
            Some(ty) => return bad(format!("fst/snd: expected a pair, found {ty}")),
        },
        TermKind::Call(b, args) => {
            let mut ts = Vec::with_capacity(args.len());
            for a in args.iter() {
                ts.push(term_type(a, env, inner, d)?);
            }
            call(*b, ts, args.len())?
        }
    })
}

/// A value's type per Figure 5.9, where the value determines it.
pub fn value_type(v: &Value, depth: usize) -> Result<Ty, Violation> {
    if depth > MAX_DEPTH {
        return Ok(None);
    }
    let d = depth + 1;
    Ok(match v {
        Value::Int(_) => Some(Type::Int),
        Value::Double(_) => Some(Type::Double),
        Value::Bool(_) => Some(Type::Bool),
        Value::Unit => Some(Type::Unit),
        Value::Str(_) => Some(Type::Str),
        Value::Pair(p) => pair(value_type(&p.0, d)?, value_type(&p.1, d)?),
        // (5.41) fn x:τ1 => e : τ1 -> τ2 when e : τ2 under the closure's environment
        Value::Closure(c) => {
            let r = term_type(&c.body, &c.env, &mut vec![Some((*c.param_ty).clone())], d)?;
            r.map(|r| Type::fun((*c.param_ty).clone(), r))
        }
        Value::Internal(_) => None,
        Value::Thunk(th) => term_type(&th.term, &th.env, &mut Vec::new(), d)?,
        // (5.44)
        Value::Program(l, x) => value_type(x, d)?.map(|t| Type::program(*l, t)),
        // (5.42)
        Value::Pull(p) => pull_elem(p, d)?.map(Type::pull),
        // (5.43), (5.45)–(5.47)
        Value::Push(a) => push_type(a, d)?,
    })
}

/// The element type of a pull array.
fn pull_elem(p: &Pull, depth: usize) -> Result<Ty, Violation> {
    if depth > MAX_DEPTH {
        return Ok(None);
    }
    let d = depth + 1;
    Ok(match p {
        Pull::Gen { f, .. } => {
            let (x, r) = fun_parts("generate function", &value_type(f, d)?)?;
            agree("generate index", &Some(Type::Int), &x)?;
            r
        }
        Pull::Map { f, inner } => {
            let (x, r) = fun_parts("mapped function", &value_type(f, d)?)?;
            agree("mapped element", &x, &pull_elem(inner, d)?)?;
            r
        }
        Pull::MapIx { h, inner } => {
            let (ix, rest) = fun_parts("indexed map", &value_type(h, d)?)?;
            agree("map index", &Some(Type::Int), &ix)?;
            let (x, r) = fun_parts("indexed map", &rest)?;
            agree("mapped element", &x, &pull_elem(inner, d)?)?;
            r
        }
        Pull::Mem(cells) => match cells.iter().next() {
            None => None,
            Some(first) => {
                let t = value_type(first, d)?;
                if let Some(t) = &t {
                    if let Some(odd) = cells.iter().find(|c| !has_type(c, t)) {
                        return bad(format!("array of {t} holds {odd}"));
                    }
                }
                t
            }
        },
        Pull::Slice { inner, .. } => pull_elem(inner, d)?,
        Pull::Dests { .. } => Some(Type::Int),
    })
}

/// A push array's type: its element type and its level.
fn push_type(a: &PushArr, depth: usize) -> Result<Ty, Violation> {
    let d = depth + 1;
    Ok(match a {
        PushArr::Push { level, arr } => pull_elem(arr, d)?.map(|t| Type::push(t, *level)),
        PushArr::Interleave { level, ps, .. } | PushArr::InterleaveSeq { level, ps, .. } => {
            let out = match a {
                PushArr::Interleave { .. } => level.succ(),
                _ => *level,
            };
            match pull_elem(ps, d)? {
                None => None,
                Some(Type::Program(m, t)) => match *t {
                    Type::Push(e, n) if m == *level && n == *level => Some(Type::push(*e, out)),
                    t => {
                        return bad(format!(
                            "interleaved part: expected [_]<{level}>, found {t}"
                        ))
                    }
                },
                Some(t) => return bad(format!("interleaved parts: expected programs, found {t}")),
            }
        }
        PushArr::SeqFor { buf, .. } => match buf.iter().next() {
            None => None,
            Some(first) => value_type(first, d)?.map(|t| Type::push(t, Level::THREAD)),
        },
    })
}

/// The type of the loops' and forces' frames (5.76–5.84, spec §4.3): the result is read off the
/// frame's own values; the hole is compared where its type is fixed by the frame.
fn force_frame_type(f: &ForceFrame, hole: Ty) -> Result<Result<Ty, &'static str>, Violation> {
    Ok(Ok(match f {
        // (5.76) force (Push<thread> [bv…, E, …]) : Program<thread> [τ]
        ForceFrame::ForceElems { arr, .. } => {
            let elem = pull_elem(arr, 0)?;
            agree("forced element", &elem, &hole)?;
            elem.map(|t| Type::program(Level::THREAD, Type::pull(t)))
        }
        ForceFrame::Print { format, .. } => {
            let t = Some(Type::program(Level::GRID, Type::pull(format.elem())));
            agree("forceAndPrint", &t, &hole)?;
            t
        }
        // power/poweri/while<l> … : Program<l> [τ], τ from the step function's type
        ForceFrame::PowerAt {
            level, f, indexed, ..
        }
        | ForceFrame::PowerNext {
            level, f, indexed, ..
        } => {
            let step = value_type(f, 0)?;
            let step = if *indexed {
                fun_parts("poweri step", &step)?.1
            } else {
                step
            };
            loop_result(*level, &step)?
        }
        ForceFrame::WhileInit { level, g, .. }
        | ForceFrame::WhileForced { level, g, .. }
        | ForceFrame::WhileCond { level, g, .. } => loop_result(*level, &value_type(g, 0)?)?,
        _ => return Ok(Err("force frame")),
    }))
}

/// `Program<l> [τ]` for a loop whose step has type `[τ] -> Program<l> [τ]<l>`.
fn loop_result(level: Level, step: &Ty) -> Result<Ty, Violation> {
    let (arr, _) = fun_parts("loop step", step)?;
    Ok(match arr {
        None => None,
        Some(Type::Pull(t)) => Some(Type::program(level, Type::pull(*t))),
        Some(t) => return bad(format!("loop step: expected an array argument, found {t}")),
    })
}

#[cfg(test)]
mod tests {
    use super::{check_task, Verdict};
    use crate::fcl::build::*;
    use crate::fcl::core::{Level, Type};
    use crate::fcl::core_type::type_of;
    use crate::fcl::machine::{Machine, Schedule, Scheduler};
    use crate::fcl::step::term::resolve;
    use crate::fcl::step::{Control, Ctx, Frame, Outcome, Task};
    use crate::fcl::value::Value;
    use std::rc::Rc;

    fn grid() -> crate::fcl::machine::Loc {
        Machine::DEFAULT.grid()
    }

    #[test]
    fn a_value_of_the_wrong_type_in_the_focus_is_rejected() {
        let ints = Type::pair(Type::Int, Type::Int);
        let good = Task::with(
            Control::Ret(Value::Int(2)),
            vec![Frame::PairSnd(Value::Int(1))],
            grid(),
        );
        assert_eq!(check_task(&good, &ints), Ok(Verdict::Checked));
        let bad = Task::with(
            Control::Ret(Value::Bool(true)),
            vec![Frame::PairSnd(Value::Int(1))],
            grid(),
        );
        assert!(check_task(&bad, &ints).is_err());
    }

    #[test]
    fn corrupting_a_running_configuration_is_caught() {
        // (1 + 2, if true then 3 else 4), stepped until the focus sits in the pair's first half
        let p = pair(add(int(1), int(2)), if_(boolean(true), int(3), int(4)));
        let ty = type_of(&p).unwrap();
        let mut task = Task::new(resolve(&p).unwrap(), grid());
        let mut ctx = Ctx::new(Scheduler::new(Schedule::InOrder), false);
        assert_eq!(check_task(&task, &ty), Ok(Verdict::Checked));
        while let Outcome::Fired(_) = task.step(&mut ctx).unwrap() {
            assert_eq!(check_task(&task, &ty), Ok(Verdict::Checked));
            if matches!(task.stack.last(), Some(Frame::PairFst(..))) {
                break;
            }
        }
        assert!(matches!(task.stack.last(), Some(Frame::PairFst(..))));
        task.control = Control::Ret(Value::Str(Rc::new("oops".into())));
        assert!(check_task(&task, &ty).is_err());
        // a configuration of the right shape against the wrong program type
        task.control = Control::Ret(Value::Int(3));
        assert_eq!(check_task(&task, &ty), Ok(Verdict::Checked));
        assert!(check_task(&task, &Type::pair(Type::Int, Type::Bool)).is_err());
    }

    #[test]
    fn a_program_at_a_location_that_cannot_run_it_is_rejected() {
        // `return<grid> 1` evaluated at a single thread: loc ▶ Program<grid> int fails (Prop. 11)
        let p = ret(Level::GRID, int(1));
        let ty = type_of(&p).unwrap();
        let task = Task::new(resolve(&p).unwrap(), crate::fcl::machine::Loc::thread(0));
        assert!(check_task(&task, &ty).is_err());
        let at_grid = Task::new(resolve(&p).unwrap(), grid());
        assert_eq!(check_task(&at_grid, &ty), Ok(Verdict::Checked));
    }
}
