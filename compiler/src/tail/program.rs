//! The lowering of a whole program: TAIL expressions evaluated symbolically (call by value,
//! left to right, spec §4.3) into the statements of FCL `main`'s `do<grid>` block (module
//! `store` makes those that store values), and the final FCL program (a tree, module `fcl_program`).

use super::fault::LoweringFault;
use super::fcl_program::{helper_decls, FclProgram};
use super::location::Store;
use super::lowerer::{Line, Lowerer, TABULATE};
use super::tree::{depth, fcl, fcl_stmt, int, is_atomic, let_in, size, var, Fcl};
use super::value::Env;
use super::value::NEW;
use super::value::{check_declared, declared_ty, unsupported, Arr, Fun, Val, R};
use super::{LowerTailError, Lowered, RunFailure, MAX_TEXT};
use semantics::tail::ops::prim::Prim;
use semantics::tail::syntax::{Expr, ExprKind};
use semantics::tail::value::Array;
use std::rc::Rc;

/// An index expression larger than this ([`size`]: about its bytes of source) is
/// materialized (at a `let` even when used once, and after any operator outside function
/// bodies), so that nesting (unrolled reductions of unrolled reductions, `cat` of `cat`)
/// cannot make the expression grow exponentially.
const LONG_INDEX: usize = 8000;
/// Likewise for expressions nested deeper than this: the OpenCL C they compile to nests its
/// brackets as deep, and clang limits that.
const DEEP_INDEX: usize = 80;
/// A `let`-bound array used several times is recomputed by each use while the uses' element
/// texts together stay under this many bytes, and materialized beyond: recomputing a few
/// dozen operations is cheaper than a buffer written once and read by every use (measured
/// with tailbench: materializing from 200 bytes on made sobol 3x and blackscholes 1.7x slower).
const RECOMPUTE_BUDGET: usize = 1200;

impl Lowerer {
    /// Evaluates an expression to its symbolic value.
    pub(super) fn eval(&mut self, e: &Expr, env: &Env) -> R<Val> {
        match &e.kind {
            // (as the store holds it now: module `location`)
            ExprKind::Var(x) => match env.get(x) {
                Some(v) => Ok(self.store.current(v)),
                None => unsupported(format!("free variable {x}")),
            },
            ExprKind::Lit(s) => Ok(Val::Arr(Arr::known(Array::scalar(*s)))),
            // (3.54) let: call by value; an array used several times is materialized once
            ExprKind::Let {
                var,
                ty,
                bound,
                body,
            } => {
                let v = check_declared(self.eval(bound, env)?, declared_ty(ty))?;
                // (the variable holds the value's location, or a new one)
                let mut v = Store::bind(&self.fresh, v);
                if let Val::Arr(a) = &v {
                    let uses = self.uses.get(var).copied().unwrap_or(0);
                    // a value whose elements are checked is computed where the oracle
                    // computes it (call by value), used or not: its failure comes before the
                    // statements after it, and all of its elements are checked
                    if !self.kernel && a.size() > 0 && {
                        let text = (a.index)(&super::tree::var("i"));
                        super::check::has_checks(&text)
                            || (uses > 0
                                && ((uses > 1
                                    && uses.saturating_mul(size(&text)) > RECOMPUTE_BUDGET)
                                    || too_long(&text)))
                    } {
                        let stored = self.materialize(a, &format!("{var}, used {uses} times"));
                        self.store.materialized(a.loc, &stored);
                        v = Val::Arr(Arr {
                            loc: a.loc,
                            ..stored
                        });
                    }
                }
                let mut env = env.clone();
                // inside a kernel, a scalar used several times is bound by an FCL let
                if let Val::Arr(a) = &v {
                    let uses = self.uses.get(var).copied().unwrap_or(0);
                    if self.kernel && a.shape.is_empty() && uses != 1 && !is_atomic(&a.expr()) {
                        let x = self.fresh.name("x");
                        let mut named = Arr::scalar(a.ty, fcl!("{x}"));
                        named.known = a.known.clone();
                        named.range = a.range;
                        env.insert(var.clone(), Val::Arr(named));
                        if let Val::Arr(r) = self.eval(body, &env)? {
                            if r.shape.is_empty() {
                                let t = let_in(&x, a.expr(), r.expr());
                                return Ok(Val::Arr(Arr {
                                    index: Arr::scalar(r.ty, t).index,
                                    ..r
                                }));
                            }
                        }
                    }
                }
                env.insert(var.clone(), v);
                self.eval(body, &env)
            }
            ExprKind::Fn { param, ty, body } => {
                // the closure sees the arrays idxassign has updated so far
                Ok(Val::Fun(Rc::new(Fun::Lambda {
                    param: param.clone(),
                    param_ty: declared_ty(ty),
                    body: body.as_ref().clone(),
                    env: self.store.current_env(env),
                })))
            }
            ExprKind::OpValue(op) => Ok(Val::Fun(Rc::new(Fun::Op(op.prim, e.span)))),
            // (3.56) a vector literal
            ExprKind::Vector(es) => {
                let mut elems = Vec::new();
                for e in es {
                    let v = self.eval(e, env)?;
                    elems.push(v.arr()?.clone());
                }
                super::shape::vector(&self.fresh, elems)
            }
            ExprKind::App { op, args } => {
                let mut vs = Vec::new();
                for (k, a) in args.iter().enumerate() {
                    // replicate never evaluates its first argument (spec §4.3)
                    if op.prim == Prim::Replicate && k == 0 {
                        vs.push(Val::Tuple(Vec::new()));
                        continue;
                    }
                    vs.push(self.eval(a, env)?);
                }
                match self.apply_op(op.prim, &op.name(), e, vs)? {
                    Val::Arr(a) if !self.kernel && a.size() > 0 => {
                        let text = (a.index)(&super::tree::var("i"));
                        if too_long(&text) {
                            let len = size(&text);
                            let why = format!("{} result (index of {len} bytes)", op.name());
                            Ok(Val::Arr(self.materialize(&a, &why)))
                        } else {
                            Ok(Val::Arr(a))
                        }
                    }
                    v => Ok(v),
                }
            }
            // (3.79) if: only the chosen branch runs
            ExprKind::If(c, a, b) => {
                let cv = self.eval(c, env)?;
                let cond = cv.arr()?.clone();
                let known = match cond.known_scalar() {
                    Some(semantics::tail::value::Scalar::Bool(t)) => Some(t),
                    _ => None,
                };
                // both branches as scalar expressions, lowered without statements (so that
                // neither runs a print or a materialization the program may skip): an FCL
                // conditional, even where the condition is known
                let mut k = self.kernel_here();
                let branches = k.eval(a, env).and_then(|x| Ok((x, k.eval(b, env)?)));
                let scalar = match &branches {
                    Ok((Val::Arr(x), Val::Arr(y))) => {
                        x.shape.is_empty() && y.shape.is_empty() && x.ty == y.ty
                    }
                    _ => false,
                };
                match (branches, known) {
                    (Ok((Val::Arr(x), Val::Arr(y))), _) if scalar => {
                        let t = fcl!("(if {} then {} else {})", cond.expr(), x.expr(), y.expr());
                        let mut out = Arr::scalar(x.ty, t);
                        out.range = x.range.zip(y.range).map(|(r, s)| r.union(s));
                        out.known = match known {
                            Some(true) => x.known.clone(),
                            Some(false) => y.known.clone(),
                            None => None,
                        };
                        out.loc = match known {
                            Some(true) => x.loc,
                            Some(false) => y.loc,
                            None => NEW,
                        };
                        let (x, y) = (Val::Arr(x), Val::Arr(y));
                        Ok(match known {
                            Some(_) => Val::Arr(out),
                            None => {
                                let c = cond.expr();
                                self.store.either(&self.fresh, &c, Val::Arr(out), &x, &y)
                            }
                        })
                    }
                    // array branches, statements or a failure in a branch: a known condition
                    // picks the branch that runs
                    (_, Some(true)) => self.eval(a, env),
                    (_, Some(false)) => self.eval(b, env),
                    (Err(e), None) if self.kernel => Err(e),
                    // a condition computed from data: a selection of pure array branches
                    // (module `branch`), else it is read back and picks the branch
                    (_, None) => {
                        if let Some(v) = self.select_on_device(&cond, a, b, env)? {
                            return Ok(v);
                        }
                        let branches =
                            self.branch_loops(&cond, |lw| lw.eval(a, env), |lw| lw.eval(b, env))?;
                        if let Some(v) = branches {
                            return Ok(v);
                        }
                        let why = "the condition of an if with array branches, not known at \
                                   compile time";
                        match self.probe(&cond, why)?.known_scalar() {
                            Some(semantics::tail::value::Scalar::Bool(false)) => self.eval(b, env),
                            _ => self.eval(a, env),
                        }
                    }
                }
            }
            ExprKind::Tuple(es) => {
                let vs = es
                    .iter()
                    .map(|e| self.eval(e, env))
                    .collect::<R<Vec<_>>>()?;
                Ok(Val::Tuple(vs))
            }
            ExprKind::Prj(i, t) => match self.eval(t, env)? {
                Val::Tuple(vs) if *i < vs.len() => Ok(vs[*i].clone()),
                _ => unsupported("a projection of a non-tuple"),
            },
        }
    }

    /// Applies a function value (a lambda or an operator name) to arguments, curried.
    pub(super) fn apply_fun(&mut self, f: &Val, args: Vec<Val>) -> R<Val> {
        let Val::Fun(f) = f else {
            return unsupported("applying a non-function");
        };
        match f.as_ref() {
            Fun::Op(p, span) => self.apply_op(*p, p.name(), &dummy_expr_at(*span), args),
            Fun::Lambda {
                param,
                param_ty,
                body,
                env,
            } => {
                let mut args = args.into_iter();
                let Some(first) = args.next() else {
                    return unsupported("a lambda applied to nothing");
                };
                let first = check_declared(first, *param_ty)?;
                let mut env = env.clone();
                let rest: Vec<Val> = args.collect();
                // (3.55) beta: inside a kernel, a scalar argument is bound by an FCL let
                // around the (scalar) result of the whole application, so that a parameter
                // used several times does not copy the argument's text (at the top level, the
                // body's statements would name a variable only that let binds)
                if let Val::Arr(a) = &first {
                    if self.kernel && a.shape.is_empty() && !is_atomic(&a.expr()) {
                        let x = self.fresh.name("x");
                        let mut named = Arr::scalar(a.ty, fcl!("{x}"));
                        named.known = a.known.clone();
                        named.range = a.range;
                        env.insert(param.clone(), Val::Arr(named));
                        let v = self.eval(body, &env)?;
                        let r = if rest.is_empty() {
                            v
                        } else {
                            self.apply_fun(&v, rest.clone())?
                        };
                        if let Val::Arr(r) = r {
                            if r.shape.is_empty() {
                                let t = let_in(&x, a.expr(), r.expr());
                                let mut out = Arr::scalar(r.ty, t);
                                out.known = r.known.clone();
                                out.range = r.range;
                                return Ok(Val::Arr(out));
                            }
                        }
                    }
                }
                env.insert(param.clone(), Store::bind(&self.fresh, first));
                let v = self.eval(body, &env)?;
                if rest.is_empty() {
                    Ok(v)
                } else {
                    self.apply_fun(&v, rest)
                }
            }
        }
    }
}

/// Whether an index expression is large or deep enough to be materialized.
fn too_long(e: &Fcl) -> bool {
    size(e) > LONG_INDEX || depth(e) > DEEP_INDEX
}

/// An expression standing for the application of an operator value at `span` (where its
/// failures are reported).
fn dummy_expr_at(span: semantics::Span) -> Expr {
    Expr {
        kind: ExprKind::Tuple(Vec::new()),
        span,
    }
}

/// Lowers a type-checked TAIL expression to an FCL program printing its value; `answers` are
/// the values the device computed for the lowering's earlier requests (module `probe`).
pub(super) fn lower_expr_with(
    e: &Expr,
    answers: Rc<[Rc<Array>]>,
    fault: Option<LoweringFault>,
) -> R<Lowered> {
    let mut lw = Lowerer::new(e, answers, fault)?;
    let failure = match lw.eval(e, &Env::new()) {
        Ok(v) => {
            let a = match v {
                Val::Arr(a) => a,
                _ => return unsupported("a program whose value is a function or a tuple"),
            };
            lw.print(&a, false)?;
            None
        }
        Err(LowerTailError::Fails(f)) => Some(f),
        Err(e) => return Err(e),
    };
    let mut outputs = std::mem::take(&mut lw.outputs);
    let result = if failure.is_none() {
        outputs.pop()
    } else {
        None
    };
    let fcl = lw.program_text(failure.as_ref())?;
    Ok(Lowered {
        fcl,
        prints: outputs,
        result,
        failure,
        probes: lw.probed,
        sites: lw.fresh.sites(),
    })
}

impl Lowerer {
    /// The FCL program of the statements so far: helpers, the tables, then `main`.
    pub(super) fn program_text(&self, failure: Option<&RunFailure>) -> R<FclProgram> {
        let tables = self.fresh.tables();
        let mut header = vec!["lowered from TAIL by compiler::tail".to_string()];
        let mut helpers = self.helpers.clone();
        if !tables.is_empty() {
            helpers.insert(TABULATE);
        }
        let mut decls = Vec::new();
        for h in &helpers {
            decls.extend(helper_decls(h).map_err(LowerTailError::Unsupported)?);
        }
        if let Some(f) = failure {
            header.push(format!(
                "the TAIL program fails after these statements: {}: {}",
                f.rule, f.reason
            ));
        }
        // the literal tables the statements read, stored first
        let mut lines = Vec::new();
        for t in tables {
            let texts: Vec<Fcl> = t.texts.iter().map(|x| t.ty.store(x)).collect();
            let n = texts.len();
            lines.push(Line::Comment(match &t.file {
                None => format!("a literal vector of {n} elements, read at computed indices"),
                Some(f) => format!("the {n} elements of file {f:?}, read by the host when lowered"),
            }));
            let name = &t.name;
            let elem = bisect(&var("i"), &texts);
            lines.push(Line::Stmt(fcl_stmt!(
                "{name} <- forceM<grid> (tabulate {n} (fn i => {elem}))"
            )));
        }
        lines.extend(self.stmts.iter().cloned());
        let program = FclProgram::new(header, decls, lines);
        let body = &program.tree.decls.last().map(|d| &d.body);
        if body.is_some_and(|b| size(b) > MAX_TEXT) {
            return unsupported("the lowered program exceeds the lowering's size limit");
        }
        // the FCL front end's passes recurse once per level, on a stack sized for what its
        // parser accepts: a tree nests no deeper
        if body.is_some_and(|b| depth(b) > semantics::fcl::parser::MAX_IF_CHAIN) {
            return unsupported("the lowered program nests deeper than the FCL front end takes");
        }
        Ok(program)
    }
}

/// The element of `texts` at index `i` (in range) by bisection: `if`s nested only
/// 2·log2(n) deep, so that a table of a large file stays within FCL's nesting limit.
pub(super) fn bisect(i: &Fcl, texts: &[Fcl]) -> Fcl {
    bisect_from(i, 0, texts)
}

/// [`bisect`] of the elements `texts`, which sit at indices `from..`.
fn bisect_from(i: &Fcl, from: usize, texts: &[Fcl]) -> Fcl {
    match texts {
        [] => int(0),
        [t] => t.clone(),
        _ => {
            let mid = texts.len() / 2;
            fcl!(
                "(if lti {i} {} then {} else {})",
                from + mid,
                bisect_from(i, from, &texts[..mid]),
                bisect_from(i, from + mid, &texts[mid..])
            )
        }
    }
}
