//! The loops: `power`/`poweri` (5.87/5.88, repaired in spec §7.3 as `powerAt`), `while` (5.89)
//! and the `ifp` steps inside it (5.90/5.91). Every iteration forces into a fresh array (the [T]
//! semantics; [O]'s in-place reuse is a compiler concern).

use super::force::{program_pull, program_push, ForceFrame};
use super::rules::{self, RunError};
use super::{stuck, Control, Ctx, Fired, Frame, Task};
use crate::fcl::value::Value;
use std::rc::Rc;

impl Task {
    /// Plugs v into a loop frame.
    pub(crate) fn cont_loop(
        &mut self,
        frame: ForceFrame,
        v: Value,
        ctx: &mut Ctx,
    ) -> Result<Option<Fired>, RunError> {
        match frame {
            ForceFrame::PowerAt {
                level,
                i,
                n,
                f,
                indexed,
                span,
            } => {
                let a = program_push(&v, span, "power")?;
                if i >= n {
                    // (5.87, fixed) powerAt i n f (Program<l> a) →1 force<l> a when i ≥ n
                    self.control = Control::Force(a, span);
                    return Ok(Some(self.fire(rules::POWER_DONE, 1, ctx, || {
                        format!("powerAt {i} {n} _ ({v})")
                    })));
                }
                // (5.88, fixed) →1 bind (force a) (fn x => powerAt (i+1) n f (f i x))
                self.stack.push(Frame::Force(ForceFrame::PowerNext {
                    level,
                    i,
                    n,
                    f,
                    indexed,
                    span,
                }));
                self.control = Control::Force(a, span);
                Ok(Some(self.fire(rules::POWER_STEP, 1, ctx, || {
                    format!("powerAt {i} {n} _ ({v})")
                })))
            }
            ForceFrame::PowerNext {
                level,
                i,
                n,
                f,
                indexed,
                span,
            } => {
                // (5.63) bind (Program x) (fn x => powerAt (i+1) n f (f i x)) → …
                let x = program_pull(&v, span, "power")?;
                self.stack.push(Frame::Force(ForceFrame::PowerAt {
                    level,
                    i: i + 1,
                    n,
                    f: f.clone(),
                    indexed,
                    span,
                }));
                if indexed {
                    self.stack.push(Frame::ApplyTo(Value::Pull(x), span));
                    self.control = Control::Apply(f, Value::Int(i), span);
                } else {
                    self.control = Control::Apply(f, Value::Pull(x), span);
                }
                Ok(Some(self.fire(rules::BIND, 0, ctx, || {
                    format!("bind ({v}) (fn x => powerAt …)")
                })))
            }
            ForceFrame::WhileInit { level, c, g, span } => {
                // (5.89, fixed) while c g (Program<l> a) →1
                //   bind (force a) (fn x => ifp (c x) (while c g (g x)) (return x))
                let a = program_push(&v, span, "while")?;
                self.stack
                    .push(Frame::Force(ForceFrame::WhileForced { level, c, g, span }));
                self.control = Control::Force(a, span);
                Ok(Some(
                    self.fire(rules::WHILE, 1, ctx, || format!("while _ _ ({v})")),
                ))
            }
            ForceFrame::WhileForced { level, c, g, span } => {
                // (5.63) the bind fires: the condition is evaluated next
                let x = program_pull(&v, span, "while")?;
                self.stack.push(Frame::Force(ForceFrame::WhileCond {
                    level,
                    c: c.clone(),
                    g,
                    x: x.clone(),
                    span,
                }));
                self.control = Control::Apply(c, Value::Pull(x), span);
                Ok(Some(self.fire(rules::BIND, 0, ctx, || {
                    format!("bind ({v}) (fn x => ifp (c x) …)")
                })))
            }
            ForceFrame::WhileCond {
                level,
                c,
                g,
                x,
                span,
            } => match v {
                // (5.90) ifp true (while c g (g x)) _ →1 while c g (g x)
                Value::Bool(true) => {
                    self.stack.push(Frame::Force(ForceFrame::WhileInit {
                        level,
                        c,
                        g: g.clone(),
                        span,
                    }));
                    self.control = Control::Apply(g, Value::Pull(x), span);
                    Ok(Some(self.fire(rules::IFP_TRUE, 1, ctx, || {
                        "ifp true (while …) (return x)".into()
                    })))
                }
                // (5.91) ifp false _ (return x) →1 return x, with (5.62) return<l> x → Program<l> x
                // taken in the same step
                Value::Bool(false) => {
                    self.control = Control::Ret(Value::Program(level, Rc::new(Value::Pull(x))));
                    Ok(Some(self.fire(rules::IFP_FALSE, 1, ctx, || {
                        "ifp false (while …) (return x)".into()
                    })))
                }
                other => Err(stuck(span, "while condition", &other)),
            },
            _ => unreachable_frame(),
        }
    }
}

fn unreachable_frame() -> Result<Option<Fired>, RunError> {
    Err(RunError::new(
        rules::STUCK,
        crate::Span::DUMMY,
        "internal: not a loop frame",
    ))
}
