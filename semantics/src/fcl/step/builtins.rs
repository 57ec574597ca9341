//! The rules for saturated built-in calls: pull arrays (5.53, 5.57–5.61), the program and
//! push-array algebra (5.54–5.56, 5.62–5.71), scalars (5.72, 5.73), `ifp` (5.90/5.91), the loops'
//! first steps (5.87–5.89), `permute` (5.85/5.86) and the host operations of spec §4.4.

use super::force::ForceFrame;
use super::rules::{self, Rule, RunError};
use super::{as_int, run, scalar, stuck, Args, Control, Ctx, Fired, Frame, Task};
use crate::fcl::core::{Builtin, Level, PrintFormat, Type};
use crate::fcl::value::{zero_of, Cells, InternalFn, Pull, PushArr, Value};
use crate::Span;
use std::rc::Rc;

impl Task {
    /// Fires the rule of `builtin` applied to the values `vals` (by-name arguments are thunks).
    pub(crate) fn call(
        &mut self,
        builtin: Builtin,
        vals: Args,
        span: Span,
        ctx: &mut Ctx,
    ) -> Result<Option<Fired>, RunError> {
        let redex = if ctx.trace {
            let args = Shown(&vals[..builtin.arity()]);
            super::show(format_args!("{} {args}", builtin.name()))
        } else {
            String::new()
        };
        // `None`: the call only moved the focus (into a force or a loop's initial program).
        let Some((rule, cost)) = self.call_rule(builtin, vals, span, ctx)? else {
            return Ok(None);
        };
        Ok(Some(self.fire(rule, cost, ctx, || redex)))
    }

    fn call_rule(
        &mut self,
        builtin: Builtin,
        mut vals: Args,
        span: Span,
        ctx: &mut Ctx,
    ) -> Result<Option<(Rule, u32)>, RunError> {
        let mut arg = |i: usize| std::mem::replace(&mut vals[i], Value::Unit);
        let ret = |task: &mut Task, v: Value| task.control = Control::Ret(v);
        Ok(Some(match builtin {
            // (5.72) addi, (5.73) muli, … : scalar operations, cost 1
            Builtin::Scalar(op) => {
                let v = scalar::apply(op, &vals[..op.signature().0.len()], span)?;
                ret(self, v);
                (rules::scalar(op), 1)
            }
            // (5.58) generate n f → [f 0, …, f (n−1)]; [] when n ≤ 0
            Builtin::Generate => {
                let n = as_int(&arg(0), span, "generate")?.max(0) as usize;
                let f = arg(1);
                ret(self, Value::Pull(Rc::new(Pull::Gen { len: n, f })));
                (rules::GENERATE, 0)
            }
            // (5.60) index [e0..e(n−1)] i →1 e_i; (5.61) →1 err when i ∉ [0, n)
            Builtin::Index => {
                let arr = pull(&arg(0), span, "index")?;
                let i = as_int(&arg(1), span, "index")?;
                if i < 0 || i as usize >= arr.len() {
                    return Err(RunError::new(
                        rules::INDEX_ERR,
                        span,
                        format!("index {i} outside [0, {})", arr.len()),
                    ));
                }
                self.control = Control::Elem(arr, i as usize, span);
                (rules::INDEX, 1)
            }
            // (5.59) lengthPull [e0..e(n−1)] → n
            Builtin::LengthPull => {
                let arr = pull(&arg(0), span, "lengthPull")?;
                ret(self, Value::Int(arr.len() as i32));
                (rules::LENGTH, 0)
            }
            // (5.53) mapPull f [e0, …] → [f e0, …]
            Builtin::MapPull => {
                let f = arg(0);
                let inner = pull(&arg(1), span, "mapPull")?;
                ret(self, Value::Pull(Rc::new(Pull::Map { f, inner })));
                (rules::MAP, 0)
            }
            // (5.57) push<l> v → Push<l> v
            Builtin::Push(level) => {
                let arr = pull(&arg(0), span, "push")?;
                ret(self, Value::Push(Rc::new(PushArr::Push { level, arr })));
                (rules::PUSH, 0)
            }
            // force<l> a: the force rules (5.76–5.84) take over from the next iteration.
            Builtin::Force(_) => {
                let a = push(&arg(0), span, "force")?;
                self.control = Control::Force(a, span);
                return Ok(None);
            }
            // (5.62) return<l> v → Program<l> v
            Builtin::Return(l) => {
                self.check_level(rules::RETURN, l, span)?;
                ret(self, Value::Program(l, Rc::new(arg(0))));
                (rules::RETURN, 0)
            }
            // (5.63) bind<l> (Program<l> v) f → f v
            Builtin::Bind(l) => {
                self.check_level(rules::BIND, l, span)?;
                let p = arg(0);
                let f = arg(1);
                let Value::Program(_, v) = p else {
                    return Err(stuck(span, "bind", &p));
                };
                self.control = Control::Apply(f, (*v).clone(), span);
                (rules::BIND, 0)
            }
            // (5.54, fixed) interleave<l> k f ps → Program<1+l> (Interleave<l> k f ps)
            Builtin::Interleave(level) => {
                let (k, f, ps) = (
                    int(&arg(0), span)?,
                    arg(1),
                    pull(&arg(2), span, "interleave")?,
                );
                let a = PushArr::Interleave {
                    level,
                    k,
                    f,
                    ps,
                    span,
                };
                ret(
                    self,
                    Value::Program(level.succ(), Rc::new(Value::Push(Rc::new(a)))),
                );
                (rules::INTERLEAVE, 0)
            }
            // (5.55, fixed) interleaveSeq<l> k f ps → Program<l> (InterleaveSeq<l> k f ps)
            Builtin::InterleaveSeq(level) => {
                let (k, f) = (int(&arg(0), span)?, arg(1));
                let ps = pull(&arg(2), span, "interleaveSeq")?;
                let a = PushArr::InterleaveSeq {
                    level,
                    k,
                    f,
                    ps,
                    span,
                };
                ret(
                    self,
                    Value::Program(level, Rc::new(Value::Push(Rc::new(a)))),
                );
                (rules::INTERLEAVE_SEQ, 0)
            }
            // (5.56, [O] form) seqfor n m f → SeqFor [0, …, 0] m 0 f (fn i x => x)
            Builtin::SeqFor => {
                let n = int(&arg(0), span)?.max(0) as usize;
                let m = int(&arg(1), span)?;
                let f = arg(2);
                let zero = match &f {
                    Value::Closure(c) => match &*c.param_ty {
                        Type::Fun(_, elem) => zero_of(elem),
                        _ => Value::Int(0),
                    },
                    _ => Value::Int(0),
                };
                rules::check_size(n as i64, span)?;
                ctx.alloc(n);
                let buf = im::Vector::from(vec![zero; n]);
                let g = Value::Internal(Rc::new(InternalFn::IndexedIdentity));
                let a = PushArr::SeqFor { buf, m, i: 0, f, g };
                ret(self, Value::Push(Rc::new(a)));
                (rules::SEQFOR, 0)
            }
            // (5.68)–(5.71) mapPush
            Builtin::MapPush(_) => {
                let h = arg(0);
                let a = push(&arg(1), span, "mapPush")?;
                let (rule, mapped) = map_push(&h, &a);
                ret(self, Value::Push(mapped));
                (rule, 0)
            }
            // (5.64)–(5.67) lengthPush
            Builtin::LengthPush(_) => {
                let a = push(&arg(0), span, "lengthPush")?;
                let rule = match &*a {
                    PushArr::Push { .. } => rules::LENGTH_PUSH,
                    PushArr::Interleave { .. } => rules::LENGTH_INTERLEAVE,
                    PushArr::InterleaveSeq { .. } => rules::LENGTH_INTERLEAVE_SEQ,
                    PushArr::SeqFor { .. } => rules::LENGTH_SEQFOR,
                };
                ret(self, Value::Int(a.size() as i32));
                (rule, 0)
            }
            // power<l> n f p →0 powerAt<l> 0 n f p (spec §7.3); p runs next
            Builtin::Power(level) | Builtin::PowerI(level) => {
                let n = int(&arg(0), span)?;
                let f = arg(1);
                let indexed = matches!(builtin, Builtin::PowerI(_));
                self.stack.push(Frame::Force(ForceFrame::PowerAt {
                    level,
                    i: 0,
                    n,
                    f,
                    indexed,
                    span,
                }));
                self.control = run(arg(2));
                (rules::POWER_START, 0)
            }
            // while<l> c g p: p runs, then (5.89) fires on Program<l> a
            Builtin::While(level) => {
                let (c, g) = (arg(0), arg(1));
                self.stack
                    .push(Frame::Force(ForceFrame::WhileInit { level, c, g, span }));
                self.control = run(arg(2));
                return Ok(None);
            }
            // (5.90) ifp true p q →1 p; (5.91) ifp false p q →1 q
            Builtin::Ifp(_) => {
                let b = arg(0);
                let (rule, chosen) = match b {
                    Value::Bool(true) => (rules::IFP_TRUE, arg(1)),
                    Value::Bool(false) => (rules::IFP_FALSE, arg(2)),
                    other => return Err(stuck(span, "ifp", &other)),
                };
                self.control = run(chosen);
                (rule, 1)
            }
            // (5.85)/(5.86) permute, a scatter
            Builtin::Permute(level) => {
                let dests = pull(&arg(0), span, "permute")?;
                let a = push(&arg(1), span, "permute")?;
                let (Some(d), PushArr::Push { arr, .. }) = (dests.as_mem(), &*a) else {
                    return Err(RunError::new(
                        rules::PERMUTE_ERR,
                        span,
                        "permute needs a materialised index array and Push of base values",
                    ));
                };
                let Some(data) = arr.as_mem() else {
                    return Err(RunError::new(
                        rules::PERMUTE_ERR,
                        span,
                        "permute needs a Push of base values",
                    ));
                };
                let r = super::force::scatter(d, data, data.len(), span, None)?;
                ctx.alloc(r.len());
                ret(
                    self,
                    Value::Program(level, Rc::new(Value::Pull(Rc::new(Pull::Mem(r))))),
                );
                (rules::PERMUTE, 1)
            }
            // forceAndPrint n a → bind<grid> (force<grid> a) (fn x => PRINT(x, n); return x)
            Builtin::ForceAndPrint
            | Builtin::ForceAndPrintDouble
            | Builtin::ForceAndPrintDoubleExact => {
                let n = int(&arg(0), span)?;
                let a = push(&arg(1), span, "forceAndPrint")?;
                let format = builtin.print_format().unwrap_or(PrintFormat::Int);
                self.stack
                    .push(Frame::Force(ForceFrame::Print { n, format, span }));
                self.control = Control::Force(a, span);
                (rules::FORCE_AND_PRINT, 0)
            }
            // benchmark n p: p runs once, and n more times when it prints (spec §4.4)
            Builtin::Benchmark => {
                let n = int(&arg(0), span)?;
                let p = arg(1);
                self.stack.push(Frame::Force(ForceFrame::Benchmark {
                    n,
                    p: p.clone(),
                    runs: 1,
                    printed_before: ctx.stdout.len(),
                    start: std::time::Instant::now(),
                    span,
                }));
                self.control = run(p);
                (rules::BENCHMARK, 0)
            }
            // nowMs 0 → Program<grid> (milliseconds since the process started)
            Builtin::NowMs => {
                let ms = crate::tail::ops::io::process_ms();
                ret(self, Value::Program(Level::GRID, Rc::new(Value::Int(ms))));
                (rules::NOW_MS, 1)
            }
            // readIntCSV path → Program<grid> [contents]
            Builtin::ReadIntCsv => {
                let path = match arg(0) {
                    Value::Str(s) => s,
                    other => return Err(stuck(span, "readIntCSV", &other)),
                };
                let text = std::fs::read_to_string(path.as_str()).map_err(|e| {
                    RunError::new(
                        rules::READ_INT_CSV,
                        span,
                        format!("cannot read {path}: {e}"),
                    )
                })?;
                let data: Vec<Value> = super::host::parse_int_csv(&text)
                    .into_iter()
                    .map(Value::Int)
                    .collect();
                ctx.alloc(data.len());
                let arr = Value::Pull(Rc::new(Pull::Mem(Rc::new(Cells::new(data)))));
                ret(self, Value::Program(Level::GRID, Rc::new(arr)));
                (rules::READ_INT_CSV, 1)
            }
            // #BlockSize → 256, [O]'s fixed work-group size (spec §4.4)
            Builtin::BlockSize => {
                ret(self, Value::Int(256));
                (rules::BLOCK_SIZE, 0)
            }
        }))
    }
}

impl Task {
    /// The premise `loc ▷ l` of 5.62/5.63: a level-l program runs only where l is respected.
    fn check_level(&self, rule: Rule, l: Level, span: Span) -> Result<(), RunError> {
        if self.loc.respects(l) {
            return Ok(());
        }
        Err(RunError::new(
            rule,
            span,
            format!("location {} does not respect level {l}", self.loc),
        ))
    }
}

/// (5.68)–(5.71): `mapPush h a`, pushing the map inward. The index h receives is [O]'s
/// (spec §4.3): the position for `Push`, the final position for `SeqFor`, the concatenation index
/// `b·k + j` for interleavings.
pub(crate) fn map_push(h: &Value, a: &Rc<PushArr>) -> (Rule, Rc<PushArr>) {
    let sub = |k: i32| Rc::new(InternalFn::MapPushProgram { h: h.clone(), k });
    let (rule, out) = match &**a {
        // (5.68, fixed) mapPush h (Push<l> [e0..]) → Push<l> [h 0 e0, …]
        PushArr::Push { level, arr } => (
            rules::MAP_PUSH,
            PushArr::Push {
                level: *level,
                arr: Rc::new(Pull::MapIx {
                    h: h.clone(),
                    inner: arr.clone(),
                }),
            },
        ),
        // (5.69, fixed) mapPush h (Interleave<l> k f [p0..]) → Interleave<l> k f [p'0..]
        PushArr::Interleave {
            level,
            k,
            f,
            ps,
            span,
        } => (
            rules::MAP_INTERLEAVE,
            PushArr::Interleave {
                level: *level,
                k: *k,
                f: f.clone(),
                ps: Rc::new(Pull::MapIx {
                    h: Value::Internal(sub(*k)),
                    inner: ps.clone(),
                }),
                span: *span,
            },
        ),
        // (5.70, fixed) the same for InterleaveSeq
        PushArr::InterleaveSeq {
            level,
            k,
            f,
            ps,
            span,
        } => (
            rules::MAP_INTERLEAVE_SEQ,
            PushArr::InterleaveSeq {
                level: *level,
                k: *k,
                f: f.clone(),
                ps: Rc::new(Pull::MapIx {
                    h: Value::Internal(sub(*k)),
                    inner: ps.clone(),
                }),
                span: *span,
            },
        ),
        // (5.71) mapPush h (SeqFor [e⃗] m i f g) → SeqFor [e⃗] m i f (fn i x => h i (g i x))
        PushArr::SeqFor { buf, m, i, f, g } => (
            rules::MAP_SEQFOR,
            PushArr::SeqFor {
                buf: buf.clone(),
                m: *m,
                i: *i,
                f: f.clone(),
                g: Value::Internal(Rc::new(InternalFn::ComposeIndexed {
                    h: h.clone(),
                    g: g.clone(),
                })),
            },
        ),
    };
    (rule, Rc::new(out))
}

fn int(v: &Value, span: Span) -> Result<i32, RunError> {
    as_int(v, span, "int argument")
}

fn pull(v: &Value, span: Span, what: &str) -> Result<Rc<Pull>, RunError> {
    match v {
        Value::Pull(p) => Ok(p.clone()),
        _ => Err(stuck(span, what, v)),
    }
}

fn push(v: &Value, span: Span, what: &str) -> Result<Rc<PushArr>, RunError> {
    match v {
        Value::Push(p) => Ok(p.clone()),
        _ => Err(stuck(span, what, v)),
    }
}

/// Call arguments printed `(a) (b)`, lazily, for [`super::show`].
struct Shown<'a>(&'a [Value]);

impl std::fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, v) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "({v})")?;
        }
        Ok(())
    }
}
