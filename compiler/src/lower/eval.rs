//! Evaluating core expressions to compile-time values; scalar code becomes IR expressions and,
//! where a value is shared or a branch needs statements, kernel statements or host steps.

use super::value::{Closure, Env, Index, Prog, Pull, Push, Val};
use super::{Lower, Res, MAX_DEPTH};
use crate::kir::eval::fold_op;
use crate::kir::{Expr, HostStep, Stmt, Ty};
use semantics::fcl::core::{Builtin, Expr as CExpr, ExprKind};
use std::rc::Rc;

impl Lower {
    /// Evaluates `e` in `env`.
    pub(super) fn eval(&mut self, env: &Env, e: &CExpr) -> Res<Val> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            self.depth = 0;
            return self.unsupported("program nested too deeply to lower");
        }
        let r = self.eval_kind(env, e);
        self.depth -= 1;
        r
    }

    fn eval_kind(&mut self, env: &Env, e: &CExpr) -> Res<Val> {
        Ok(match &e.kind {
            ExprKind::Var(x) => match env.lookup(x) {
                Some(v) => v.clone(),
                None => {
                    self.span = e.span;
                    return self.internal(format!("unbound variable {x}"));
                }
            },
            ExprKind::Int(i) => Val::Scalar(Expr::Int(*i), Ty::Int),
            ExprKind::Double(d) => Val::Scalar(Expr::Double(*d), Ty::Double),
            ExprKind::Bool(b) => Val::Scalar(Expr::Bool(*b), Ty::Bool),
            ExprKind::Str(s) => Val::Str(s.clone()),
            ExprKind::Unit => Val::Unit,
            ExprKind::Lam { param, body, .. } => Val::Fun(Rc::new(Closure {
                env: env.clone(),
                param: param.clone(),
                body: Rc::new((**body).clone()),
            })),
            ExprKind::App(f, a) => {
                let f = self.eval(env, f)?;
                let a = self.eval(env, a)?;
                self.span = e.span;
                self.apply(&f, a)?
            }
            ExprKind::Let {
                name, bound, body, ..
            } => {
                let v = self.eval(env, bound)?;
                let v = self.share(v);
                self.eval(&env.bind(name.clone(), v), body)?
            }
            ExprKind::If(c, t, f) => {
                let c = self.eval(env, c)?;
                self.span = e.span;
                self.branch(env, c, t, f)?
            }
            ExprKind::Pair(a, b) => {
                let a = self.eval(env, a)?;
                let b = self.eval(env, b)?;
                Val::Pair(Rc::new(a), Rc::new(b))
            }
            ExprKind::Fst(p) => match self.eval(env, p)? {
                Val::Pair(a, _) => (*a).clone(),
                _ => return self.internal("fst of a non-pair"),
            },
            ExprKind::Snd(p) => match self.eval(env, p)? {
                Val::Pair(_, b) => (*b).clone(),
                _ => return self.internal("snd of a non-pair"),
            },
            ExprKind::Call(b, args) => {
                let mut vals = Vec::with_capacity(args.len());
                for a in args {
                    vals.push(self.eval(env, a)?);
                }
                self.span = e.span;
                self.call(*b, vals)?
            }
        })
    }

    /// `if c then t else f`: a known condition picks a branch at compile time; otherwise both
    /// scalar branches are computed under the condition (a ternary when they need no statements).
    fn branch(&mut self, env: &Env, c: Val, t: &CExpr, f: &CExpr) -> Res<Val> {
        let cond = self.scalar(c)?;
        match cond {
            Expr::Bool(true) => return self.eval(env, t),
            Expr::Bool(false) => return self.eval(env, f),
            _ => {}
        }
        if !self.in_kernel() {
            let before = self.plan.len();
            let a = self.eval(env, t)?;
            let b = self.eval(env, f)?;
            return match select(&cond, &a, &b) {
                Some(v) if self.plan.len() == before => Ok(v),
                _ => self.unsupported("a host-level `if` on a run-time value"),
            };
        }
        let (a, mut sa) = self.in_block(|lw| lw.eval(env, t))?;
        let (b, mut sb) = self.in_block(|lw| lw.eval(env, f))?;
        let (Some(xs), Some(ys)) = (leaves(&a), leaves(&b)) else {
            return self.unsupported("an `if` on a run-time value whose branches are not scalars");
        };
        if xs.len() != ys.len() {
            return self.internal("`if` branches of different pair structure");
        }
        if sa.is_empty() && sb.is_empty() {
            // a pair picks each component apart: the condition is named once for them all
            let cond = if xs.len() > 1 {
                let c = self.share(Val::Scalar(cond, Ty::Bool));
                self.scalar(c)?
            } else {
                cond
            };
            return select(&cond, &a, &b).map_or_else(
                || self.internal("`if` branches of different pair structure"),
                Ok,
            );
        }
        // statements in a branch: one variable per scalar component, assigned in each branch
        let mut names = Vec::new();
        for ((x, ty), (y, _)) in xs.into_iter().zip(ys) {
            let r = self.fresh("t");
            let zero = match ty {
                Ty::Int => Expr::Int(0),
                Ty::Double => Expr::Double(0.0),
                Ty::Bool => Expr::Bool(false),
            };
            self.emit(Stmt::Decl(r.clone(), ty, zero));
            sa.push(Stmt::Assign(r.clone(), x));
            sb.push(Stmt::Assign(r.clone(), y));
            names.push(Val::Scalar(Expr::Var(r), ty));
        }
        self.emit(Stmt::If(cond, sa, sb));
        Ok(rebuild(&a, &mut names.into_iter()))
    }

    /// Applies a function value.
    pub(super) fn apply(&mut self, f: &Val, a: Val) -> Res<Val> {
        match f {
            Val::Fun(c) => {
                let a = self.share(a);
                let env = c.env.bind(c.param.clone(), a);
                let body = c.body.clone();
                self.eval(&env, &body)
            }
            Val::ReadPrivate(p, ty, one_cell) => {
                let j = if *one_cell {
                    Expr::Int(0)
                } else {
                    self.scalar(a)?
                };
                Ok(Val::Scalar(Expr::Load(p.clone(), Box::new(j)), *ty))
            }
            _ => self.internal("application of a non-function"),
        }
    }

    /// The IR expression of a scalar value.
    pub(super) fn scalar(&self, v: Val) -> Res<Expr> {
        match v {
            Val::Scalar(e, _) => Ok(e),
            other => self.internal(format!("expected a scalar, got {other:?}")),
        }
    }

    pub(super) fn pull(&self, v: Val) -> Res<Rc<Pull>> {
        match v {
            Val::Pull(p) => Ok(p),
            _ => self.internal("expected a pull array"),
        }
    }

    pub(super) fn push_arr(&self, v: Val) -> Res<Rc<Push>> {
        match v {
            Val::Push(p) => Ok(p),
            _ => self.internal("expected a push array"),
        }
    }

    /// Element `i` of a pull array. On the host, an element of a device buffer is read back.
    pub(super) fn index(&mut self, p: &Pull, i: Expr) -> Res<Val> {
        match &p.index {
            Index::Generate(f) => self.apply(f, Val::Scalar(i, Ty::Int)),
            Index::Map(f, a) => {
                let x = self.index(a, i)?;
                self.apply(f, x)
            }
            Index::Buffer(b, ty) => {
                if self.in_kernel() {
                    Ok(Val::Scalar(Expr::Load(b.clone(), Box::new(i)), *ty))
                } else {
                    let h = self.fresh("h");
                    self.host_tys.insert(h.clone(), *ty);
                    self.plan.push(HostStep::Read(h.clone(), *ty, b.clone(), i));
                    Ok(Val::Scalar(Expr::Var(h), *ty))
                }
            }
        }
    }

    /// The length of a push array, as an expression.
    pub(super) fn push_len(p: &Push) -> Expr {
        use semantics::fcl::core::ScalarOp::MulI;
        match p {
            Push::Push(_, a) => a.len.clone(),
            Push::Interleave { k, ps, .. } => fold_op(MulI, vec![k.clone(), ps.len.clone()]),
            Push::SeqFor { n, .. } => n.clone(),
            Push::MapPush(_, a) => Lower::push_len(a),
        }
    }

    /// A saturated built-in call on evaluated arguments.
    fn call(&mut self, b: Builtin, args: Vec<Val>) -> Res<Val> {
        let mut it = args.into_iter();
        let mut next = || it.next().unwrap_or(Val::Unit);
        Ok(match b {
            Builtin::Scalar(op) => {
                let ty = match op.signature().1 {
                    semantics::fcl::core::Type::Double => Ty::Double,
                    semantics::fcl::core::Type::Bool => Ty::Bool,
                    _ => Ty::Int,
                };
                let mut es = Vec::new();
                for _ in 0..op.signature().0.len() {
                    es.push(self.scalar(next())?);
                }
                Val::Scalar(fold_op(op, es), ty)
            }
            Builtin::BlockSize => Val::Scalar(Expr::Int(self.block_size as i32), Ty::Int),
            Builtin::Generate => {
                let n = self.scalar(next())?;
                Val::Pull(Rc::new(Pull {
                    len: n,
                    index: Index::Generate(next()),
                }))
            }
            Builtin::Index => {
                let a = self.pull(next())?;
                let i = self.scalar(next())?;
                self.index(&a, i)?
            }
            Builtin::LengthPull => Val::Scalar(self.pull(next())?.len.clone(), Ty::Int),
            Builtin::MapPull => {
                let f = next();
                let a = self.pull(next())?;
                Val::Pull(Rc::new(Pull {
                    len: a.len.clone(),
                    index: Index::Map(f, a),
                }))
            }
            Builtin::Push(l) => Val::Push(Rc::new(Push::Push(l, self.pull(next())?))),
            Builtin::Force(l) => Val::Prog(Rc::new(Prog::Force(l, next()))),
            Builtin::Return(_) => Val::Prog(Rc::new(Prog::Return(next()))),
            Builtin::Bind(_) => {
                let p = next();
                Val::Prog(Rc::new(Prog::Bind(p, next())))
            }
            Builtin::Interleave(l) | Builtin::InterleaveSeq(l) => {
                let k = self.scalar(next())?;
                let f = next();
                let ps = self.pull(next())?;
                Val::Prog(Rc::new(Prog::Interleave(Rc::new(Push::Interleave {
                    sub: l,
                    k,
                    f,
                    ps,
                    seq: matches!(b, Builtin::InterleaveSeq(_)),
                }))))
            }
            Builtin::SeqFor => {
                let n = self.scalar(next())?;
                let m = self.scalar(next())?;
                Val::Push(Rc::new(Push::SeqFor { n, m, step: next() }))
            }
            Builtin::MapPush(_) => {
                let h = next();
                Val::Push(Rc::new(Push::MapPush(h, self.push_arr(next())?)))
            }
            Builtin::LengthPush(_) => {
                let a = self.push_arr(next())?;
                Val::Scalar(Lower::push_len(&a), Ty::Int)
            }
            Builtin::Power(level) | Builtin::PowerI(level) => {
                let n = self.scalar(next())?;
                let step = next();
                Val::Prog(Rc::new(Prog::Power {
                    level,
                    n,
                    step,
                    init: next(),
                    indexed: matches!(b, Builtin::PowerI(_)),
                }))
            }
            Builtin::While(level) => {
                let cond = next();
                let step = next();
                Val::Prog(Rc::new(Prog::While {
                    level,
                    cond,
                    step,
                    init: next(),
                }))
            }
            Builtin::ForceAndPrint
            | Builtin::ForceAndPrintDouble
            | Builtin::ForceAndPrintDoubleExact => {
                let n = self.scalar(next())?;
                Val::Prog(Rc::new(Prog::Print {
                    n,
                    arr: next(),
                    double: b != Builtin::ForceAndPrint,
                    exact: b == Builtin::ForceAndPrintDoubleExact,
                }))
            }
            Builtin::Benchmark => {
                let n = self.scalar(next())?;
                Val::Prog(Rc::new(Prog::Benchmark(n, next())))
            }
            // (the argument is TAIL's `nowi` argument, which the TAIL lowering checked)
            Builtin::NowMs => Val::Prog(Rc::new(Prog::NowMs)),
            Builtin::ReadIntCsv => match next() {
                Val::Str(path) => Val::Prog(Rc::new(Prog::ReadCsv(path))),
                _ => return self.internal("readIntCSV of a non-string"),
            },
            Builtin::Ifp(_) | Builtin::Permute(_) => {
                return self.unsupported(format!("the built-in {}", b.name()))
            }
        })
    }
}

/// `if cond then a else b` for scalars and pairs of them, component by component (FCL types
/// pairs of base types as base types, rule 5.6, so an `if` may choose between pairs).
fn select(cond: &Expr, a: &Val, b: &Val) -> Option<Val> {
    match (a, b) {
        (Val::Scalar(x, ty), Val::Scalar(y, _)) => Some(Val::Scalar(
            Expr::Select(
                Box::new(cond.clone()),
                Box::new(x.clone()),
                Box::new(y.clone()),
            ),
            *ty,
        )),
        (Val::Pair(a1, a2), Val::Pair(b1, b2)) => Some(Val::Pair(
            Rc::new(select(cond, a1, b1)?),
            Rc::new(select(cond, a2, b2)?),
        )),
        _ => None,
    }
}

/// The scalar components of a scalar or a (nested) pair of scalars, left to right.
fn leaves(v: &Val) -> Option<Vec<(Expr, Ty)>> {
    match v {
        Val::Scalar(e, ty) => Some(vec![(e.clone(), *ty)]),
        Val::Pair(a, b) => {
            let mut out = leaves(a)?;
            out.extend(leaves(b)?);
            Some(out)
        }
        _ => None,
    }
}

/// A value of `shape`'s pair structure whose scalar components are taken from `parts`.
fn rebuild(shape: &Val, parts: &mut impl Iterator<Item = Val>) -> Val {
    match shape {
        Val::Pair(a, b) => {
            let a = rebuild(a, parts);
            let b = rebuild(b, parts);
            Val::Pair(Rc::new(a), Rc::new(b))
        }
        _ => parts.next().unwrap_or(Val::Unit),
    }
}
