//! `force` (5.76–5.84), `permute` (5.85/5.86), the loops `power`/`while` (5.87–5.89), the omitted
//! `InterleaveSeq` rules, and the host operations' continuations (spec §4.4).
//!
//! At a thread location `force (Push<thread> …)` evaluates the elements left to right in place
//! (5.76/5.77) and ends with the barrier 5.82. At a group location `Group(loc0..loc(m−1))` the
//! parts — the chunks of a `Push<1+l>` (5.81) or the sub-programs of an `Interleave<l>` (5.83) —
//! are tasks pinned to sub-locations (part p on sub-location p mod m, one after another there);
//! each group step lets the schedule choose J, steps the current part of every sub-location in J
//! once, and costs the maximum of their costs.

use super::par::{Par, ParKind};
use super::rules::{self, RunError};
use super::{stuck, Control, Ctx, Fired, Frame, Task};
use crate::fcl::core::{Level, PrintFormat};
use crate::fcl::machine::Loc;
use crate::fcl::value::{Cells, InternalFn, Pull, PushArr, Value};
use crate::Span;
use std::rc::Rc;

/// The frames of the force, loop and host rules.
#[derive(Debug)]
pub(crate) enum ForceFrame {
    /// (5.76) `force (Push<thread> [bv0..bv(i−1), E, …])`.
    ForceElems {
        arr: Rc<Pull>,
        out: Vec<Value>,
        span: Span,
    },
    /// (5.79) waiting for `f (fn k => v_k) i` = (p, u).
    SeqForWrite { state: Rc<PushArr>, span: Span },
    /// A sub-program of an interleaving, run at level `level`; its push array gets forced.
    RunSub { span: Span },
    /// `InterleaveSeq`: sub-programs done so far, run one after another here.
    InterleaveSeqNext {
        level: Level,
        k: i32,
        f: Value,
        ps: Rc<Pull>,
        results: Vec<Rc<Cells>>,
        span: Span,
    },
    /// (5.84) `bind (force (Push [f(b,j)…])) (fn d => permute d (Push [bv…]))`.
    Permute {
        level: Level,
        data: Rc<Cells>,
        /// Where each sub-result starts in `data`, to name writers as (b, j).
        starts: Rc<Vec<usize>>,
        out_len: usize,
        span: Span,
    },
    /// `powerAt<l> i n f E`.
    PowerAt {
        level: Level,
        i: i32,
        n: i32,
        f: Value,
        indexed: bool,
        span: Span,
    },
    /// `bind (force a) (fn x => powerAt (i+1) n f (f i x))` with the force running.
    PowerNext {
        level: Level,
        i: i32,
        n: i32,
        f: Value,
        indexed: bool,
        span: Span,
    },
    /// `while<l> c g E`.
    WhileInit {
        level: Level,
        c: Value,
        g: Value,
        span: Span,
    },
    /// `bind (force a) (fn x => ifp (c x) …)` with the force running.
    WhileForced {
        level: Level,
        c: Value,
        g: Value,
        span: Span,
    },
    /// `ifp E (while c g (g x)) (return x)`.
    WhileCond {
        level: Level,
        c: Value,
        g: Value,
        x: Rc<Pull>,
        span: Span,
    },
    /// `forceAndPrint n`: print once the force is done.
    Print {
        n: i32,
        format: PrintFormat,
        span: Span,
    },
    /// `benchmark n p` after `runs` runs of p.
    Benchmark {
        n: i32,
        p: Value,
        runs: i32,
        printed_before: usize,
        start: std::time::Instant,
        span: Span,
    },
}

impl Task {
    /// `force a` at this location: sets up the rule that applies; fires only when the array is
    /// already complete (5.82, 5.84 on no parts, 5.80).
    pub(crate) fn begin_force(
        &mut self,
        a: Rc<PushArr>,
        span: Span,
        ctx: &mut Ctx,
    ) -> Result<Option<Fired>, RunError> {
        rules::check_size(a.size(), span)?;
        if let PushArr::Interleave { ps, .. } | PushArr::InterleaveSeq { ps, .. } = &*a {
            // one part per sub-program, whatever k is
            rules::check_size(ps.len() as i64, span)?;
        }
        let here = self.loc.level();
        let wrong_level = |rule, l: Level, loc: &Loc| {
            RunError::new(
                rule,
                span,
                format!("location {loc} does not respect level {l}"),
            )
        };
        match &*a {
            PushArr::Push { level, arr } => {
                if here != Some(*level) {
                    return Err(wrong_level(rules::FORCE_DONE, *level, &self.loc));
                }
                if arr.is_empty() {
                    // (5.82) force (Push<l> []) →0 Program<l> []
                    self.control = Control::Ret(program(*level, Vec::new()));
                    return Ok(Some(self.fire(rules::FORCE_DONE, 0, ctx, || a.to_string())));
                }
                if *level == Level::THREAD {
                    // (5.76) evaluate e0 first
                    self.stack.push(Frame::Force(ForceFrame::ForceElems {
                        arr: arr.clone(),
                        out: Vec::with_capacity(arr.len()),
                        span,
                    }));
                    self.control = Control::Elem(arr.clone(), 0, span);
                } else {
                    // (5.81) consecutive chunks, one per sub-location
                    let m = self.loc.subs().len();
                    let chunk = arr.len().div_ceil(m);
                    let parts = arr.len().div_ceil(chunk);
                    let kind = ParKind::Chunks {
                        arr: arr.clone(),
                        chunk,
                    };
                    self.control = Control::Par(Par::new(kind, *level, span, parts, m));
                }
                Ok(None)
            }
            PushArr::Interleave {
                level,
                k,
                f,
                ps,
                span,
            } => {
                // races and holes are reported at the interleaving
                let span = *span;
                if here != Some(level.succ()) {
                    return Err(wrong_level(rules::INTERLEAVE_PAR, level.succ(), &self.loc));
                }
                if ps.is_empty() {
                    return self
                        .scatter_step(false, level.succ(), *k, f, Vec::new(), span, ctx)
                        .map(Some);
                }
                let m = self.loc.subs().len();
                let kind = ParKind::Programs {
                    k: *k,
                    f: f.clone(),
                    ps: ps.clone(),
                };
                self.control = Control::Par(Par::new(kind, level.succ(), span, ps.len(), m));
                Ok(None)
            }
            PushArr::InterleaveSeq {
                level,
                k,
                f,
                ps,
                span,
            } => {
                // races and holes are reported at the interleaving
                let span = *span;
                if here != Some(*level) {
                    return Err(wrong_level(
                        rules::INTERLEAVE_SEQ_SCATTER,
                        *level,
                        &self.loc,
                    ));
                }
                if ps.is_empty() {
                    return self
                        .scatter_step(true, *level, *k, f, Vec::new(), span, ctx)
                        .map(Some);
                }
                self.stack.push(Frame::Force(ForceFrame::InterleaveSeqNext {
                    level: *level,
                    k: *k,
                    f: f.clone(),
                    ps: ps.clone(),
                    results: Vec::new(),
                    span,
                }));
                self.stack.push(Frame::Force(ForceFrame::RunSub { span }));
                self.control = Control::Elem(ps.clone(), 0, span);
                Ok(None)
            }
            PushArr::SeqFor { buf, m, i, f, g } => {
                if here != Some(Level::THREAD) {
                    return Err(wrong_level(rules::SEQFOR_STEP, Level::THREAD, &self.loc));
                }
                if i < m {
                    // (5.79) evaluate f (fn k => v_k) i; the step fires on the write
                    self.stack.push(Frame::Force(ForceFrame::SeqForWrite {
                        state: a.clone(),
                        span,
                    }));
                    self.stack.push(Frame::ApplyTo(Value::Int(*i), span));
                    let read = InternalFn::Read {
                        buf: buf.clone(),
                        single: buf.len() == 1,
                    };
                    self.control = Control::Apply(f.clone(), Value::Internal(Rc::new(read)), span);
                    return Ok(None);
                }
                // (5.80) force (SeqFor [v⃗] m m f g) →1 force (Push<thread> [g 0 v0, …])
                let mem = Rc::new(Pull::Mem(Rc::new(Cells::new(
                    buf.iter().cloned().collect(),
                ))));
                let arr = Rc::new(Pull::MapIx {
                    h: g.clone(),
                    inner: mem,
                });
                let pushed = PushArr::Push {
                    level: Level::THREAD,
                    arr,
                };
                self.control = Control::Force(Rc::new(pushed), span);
                Ok(Some(
                    self.fire(rules::SEQFOR_DONE, 1, ctx, || a.to_string()),
                ))
            }
        }
    }

    /// (5.84, fixed) every sub-program is `Program<l> [bv^b…]`:
    /// `→1 bind (force<1+l> (Push<1+l> [f(b,j)…])) (fn d => permute<1+l> d (Push<1+l> [bv…]))`.
    /// With `level` = l for `InterleaveSeq` (the omitted rule 5.84s).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn scatter_step(
        &mut self,
        seq: bool,
        level: Level,
        k: i32,
        f: &Value,
        results: Vec<Rc<Cells>>,
        span: Span,
        ctx: &mut Ctx,
    ) -> Result<Fired, RunError> {
        let rule = if seq {
            rules::INTERLEAVE_SEQ_SCATTER
        } else {
            rules::INTERLEAVE_SCATTER
        };
        let n = results.len() as i64;
        let out_len = k as i64 * n;
        if out_len < 0 {
            return Err(RunError::new(
                rule,
                span,
                format!("size {k}·{n} out of range"),
            ));
        }
        rules::check_size(out_len, span)?;
        let mut starts = Vec::with_capacity(results.len() + 1);
        let mut total = 0;
        starts.push(0);
        for r in &results {
            total += r.len();
            starts.push(total);
        }
        let data: Vec<Value> = results.iter().flat_map(|r| r.iter().cloned()).collect();
        let starts = Rc::new(starts);
        self.stack.push(Frame::Force(ForceFrame::Permute {
            level,
            data: Rc::new(Cells::new(data)),
            starts: starts.clone(),
            out_len: out_len as usize,
            span,
        }));
        let dests = Pull::Dests {
            f: f.clone(),
            starts,
        };
        let a = PushArr::Push {
            level,
            arr: Rc::new(dests),
        };
        self.control = Control::Force(Rc::new(a), span);
        Ok(self.fire(rule, 1, ctx, || {
            format!("force (Interleave<_> {k} ({f}) […{n} programs done])")
        }))
    }

    /// Plugs v into a force, loop or host frame.
    pub(crate) fn cont_force(
        &mut self,
        frame: ForceFrame,
        v: Value,
        ctx: &mut Ctx,
    ) -> Result<Option<Fired>, RunError> {
        match frame {
            ForceFrame::ForceElems { arr, mut out, span } => {
                if !v.is_base() {
                    return Err(RunError::new(
                        rules::FORCE_DONE,
                        span,
                        format!(
                            "element {} is not a base value: {}",
                            out.len(),
                            super::show(format_args!("{v}"))
                        ),
                    ));
                }
                out.push(v);
                if out.len() < arr.len() {
                    // (5.76) the next element
                    let i = out.len();
                    self.stack.push(Frame::Force(ForceFrame::ForceElems {
                        arr: arr.clone(),
                        out,
                        span,
                    }));
                    self.control = Control::Elem(arr, i, span);
                    return Ok(None);
                }
                // (5.82) force (Push<thread> [bv…]) →0 Program<thread> [bv…]
                ctx.alloc(out.len());
                self.control = Control::Ret(program(Level::THREAD, out));
                Ok(Some(self.fire(rules::FORCE_DONE, 0, ctx, || {
                    format!("force (Push<thread> {arr})")
                })))
            }
            ForceFrame::SeqForWrite { state, span } => {
                let PushArr::SeqFor { buf, m, i, f, g } = &*state else {
                    return Err(stuck(span, "seqfor state", &v));
                };
                let (m, i, f, g) = (*m, *i, f.clone(), g.clone());
                // (5.79, fixed) write u at p, then the next iteration; err when p ∉ [0, n)
                let Value::Pair(pu) = &v else {
                    return Err(stuck(span, "seqfor step", &v));
                };
                let p = super::as_int(&pu.0, span, "seqfor step")?;
                let n = buf.len();
                // [O]'s size-1 quirk (spec §4.3): one cell, indices ignored
                let cell = if n == 1 { 0 } else { p as i64 };
                if cell < 0 || cell as usize >= n {
                    return Err(RunError::new(
                        rules::SEQFOR_STEP,
                        span,
                        format!("iteration {i} writes index {p} outside [0, {n})"),
                    ));
                }
                let buf = buf.update(cell as usize, pu.1.clone());
                let next = PushArr::SeqFor {
                    buf,
                    m,
                    i: i + 1,
                    f,
                    g,
                };
                self.control = Control::Force(Rc::new(next), span);
                Ok(Some(self.fire(rules::SEQFOR_STEP, 1, ctx, || {
                    format!("seqfor iteration {i}: {v}")
                })))
            }
            ForceFrame::RunSub { span } => match &v {
                Value::Program(_, inner) => match &**inner {
                    // (5.83, added) Program<l> a with a a push array continues as force<l> a
                    Value::Push(a) => {
                        self.control = Control::Force(a.clone(), span);
                        Ok(Some(self.fire(rules::INTERLEAVE_SUB_FORCE, 0, ctx, || {
                            v.to_string()
                        })))
                    }
                    Value::Pull(_) => {
                        self.control = Control::Ret(v);
                        Ok(None)
                    }
                    _ => Err(stuck(span, "interleave sub-program", &v)),
                },
                _ => Err(stuck(span, "interleave sub-program", &v)),
            },
            ForceFrame::InterleaveSeqNext {
                level,
                k,
                f,
                ps,
                mut results,
                span,
            } => {
                results.push(materialised(&v, span)?);
                let b = results.len();
                if b == ps.len() {
                    return self
                        .scatter_step(true, level, k, &f, results, span, ctx)
                        .map(Some);
                }
                // (5.83s) the next sub-program runs at this same location
                self.stack.push(Frame::Force(ForceFrame::InterleaveSeqNext {
                    level,
                    k,
                    f,
                    ps: ps.clone(),
                    results,
                    span,
                }));
                self.stack.push(Frame::Force(ForceFrame::RunSub { span }));
                self.control = Control::Elem(ps, b, span);
                Ok(None)
            }
            ForceFrame::Permute {
                level,
                data,
                starts,
                out_len,
                span,
            } => {
                // (5.86, fixed: a scatter) permute [d…] (Push<l> [bv…]) →1 Program<l> r,
                // r[d_i] = bv_i; (5.85) err when some d_i ∉ [0, N)
                let dests = materialised(&v, span)?;
                let r = scatter(&dests, &data, out_len, span, Some(&starts))?;
                ctx.alloc(r.len());
                self.control = Control::Ret(Value::Program(
                    level,
                    Rc::new(Value::Pull(Rc::new(Pull::Mem(r)))),
                ));
                Ok(Some(self.fire(rules::PERMUTE, 1, ctx, || {
                    format!("permute<{level}> {v} (Push [{} values])", data.len())
                })))
            }
            frame @ (ForceFrame::PowerAt { .. }
            | ForceFrame::PowerNext { .. }
            | ForceFrame::WhileInit { .. }
            | ForceFrame::WhileForced { .. }
            | ForceFrame::WhileCond { .. }) => self.cont_loop(frame, v, ctx),
            frame @ (ForceFrame::Print { .. } | ForceFrame::Benchmark { .. }) => {
                self.cont_host(frame, v, ctx)
            }
        }
    }
}
/// `Program<l> [bv…]` over fresh storage.
pub(crate) fn program(level: Level, data: Vec<Value>) -> Value {
    Value::Program(
        level,
        Rc::new(Value::Pull(Rc::new(Pull::Mem(Rc::new(Cells::new(data)))))),
    )
}

/// The storage of `Program<l> [bv…]` (or of a bare materialised array).
pub(crate) fn materialised(v: &Value, span: Span) -> Result<Rc<Cells>, RunError> {
    let inner = match v {
        Value::Program(_, inner) => &**inner,
        other => other,
    };
    match inner {
        Value::Pull(p) => match p.as_mem() {
            Some(m) => Ok(m.clone()),
            None => Err(stuck(span, "expected a materialised array", v)),
        },
        _ => Err(stuck(span, "expected a materialised array", v)),
    }
}

pub(crate) fn program_push(v: &Value, span: Span, what: &str) -> Result<Rc<PushArr>, RunError> {
    match v {
        Value::Program(_, inner) => match &**inner {
            Value::Push(a) => Ok(a.clone()),
            _ => Err(stuck(span, what, v)),
        },
        _ => Err(stuck(span, what, v)),
    }
}

pub(crate) fn program_pull(v: &Value, span: Span, what: &str) -> Result<Rc<Pull>, RunError> {
    match v {
        Value::Program(_, inner) => match &**inner {
            Value::Pull(a) => Ok(a.clone()),
            _ => Err(stuck(span, what, v)),
        },
        _ => Err(stuck(span, what, v)),
    }
}

/// The scatter of (5.86): `r[d_i] = bv_i` over `out_len` cells. A destination outside
/// `[0, out_len)` is (5.85); two writes to one cell (a race) and a cell nobody writes (a hole) are
/// errors naming the index (docs/design.md: never resolved silently).
pub(crate) fn scatter(
    dests: &[Value],
    data: &[Value],
    out_len: usize,
    span: Span,
    starts: Option<&[usize]>,
) -> Result<Rc<Cells>, RunError> {
    // element i, named as (sub-program b, position j) when it comes from an interleaving
    let who = |i: usize| match starts {
        Some(st) => {
            let b = st.partition_point(|&s| s <= i) - 1;
            format!("element {} of sub-program {b}", i - st[b])
        }
        None => format!("element {i}"),
    };
    if dests.len() != data.len() {
        return Err(RunError::new(
            rules::PERMUTE_ERR,
            span,
            format!("{} destinations for {} values", dests.len(), data.len()),
        ));
    }
    let mut writer = vec![u32::MAX; out_len];
    let mut out = vec![Value::Unit; out_len];
    for (i, (d, v)) in dests.iter().zip(data).enumerate() {
        let Value::Int(d) = *d else {
            return Err(stuck(span, "permute destination", d));
        };
        if d < 0 || d as usize >= out_len {
            return Err(RunError::new(
                rules::PERMUTE_ERR,
                span,
                format!("destination {d} of {} outside [0, {out_len})", who(i)),
            ));
        }
        let w = &mut writer[d as usize];
        if *w != u32::MAX {
            return Err(RunError::new(
                rules::PERMUTE,
                span,
                format!(
                    "race: index {d} written by {} and {}",
                    who(*w as usize),
                    who(i)
                ),
            ));
        }
        *w = i as u32;
        out[d as usize] = v.clone();
    }
    if let Some(h) = writer.iter().position(|w| *w == u32::MAX) {
        return Err(RunError::new(
            rules::PERMUTE,
            span,
            format!("hole: index {h} of {out_len} never written"),
        ));
    }
    Ok(Rc::new(Cells::new(out)))
}
