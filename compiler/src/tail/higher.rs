//! The higher-order operators of spec §5.9 other than the reductions (`each`, `zipWith`,
//! `power`, `powerScl`, `bench`, `condScl`) and the mutation operator `idxassign` (§5.11).
//! Element functions are lowered per element inside the consumer's kernel (fusion); `power`
//! iterates with FCL's grid-level `power` over a materialized array.

use super::ops::{known_int, known_vec};
use super::program::{element_text, fails, Lowerer};
use super::value::{unsupported, Arr, Fresh, Fun, Ty, Val, R};
use semantics::tail::ops::prim::Prim;
use semantics::tail::ops::select::update_position;
use semantics::tail::syntax::{Expr, ExprKind};
use semantics::tail::value::{Array, Scalar};

/// Applies function `f` to scalar argument texts inside a kernel: the result's text, or the
/// empty text when lowering fails (the caller checked `f` on placeholders first).
pub(super) fn apply_scalar(fresh: &Fresh, f: &Val, args: &[(Ty, String)]) -> String {
    let vals = args
        .iter()
        .map(|(ty, t)| Val::Arr(Arr::scalar(*ty, t.clone())))
        .collect();
    let mut k = Lowerer::kernel(fresh);
    match k.apply_fun(f, vals) {
        Ok(Val::Arr(a)) if a.shape.is_empty() => a.text(),
        _ => String::new(),
    }
}

/// The result type of `f` on scalars of types `tys` (checked on placeholders `x0`, `x1`, …).
pub(super) fn scalar_result(fresh: &Fresh, f: &Val, tys: &[Ty]) -> R<Ty> {
    let vals = tys
        .iter()
        .enumerate()
        .map(|(k, ty)| Val::Arr(Arr::scalar(*ty, format!("x{k}"))))
        .collect();
    let mut k = Lowerer::kernel(fresh);
    match k.apply_fun(f, vals)? {
        Val::Arr(a) if a.shape.is_empty() => Ok(a.ty),
        _ => unsupported("a function argument whose result is not a scalar"),
    }
}

impl Lowerer {
    /// `each`, `zipWith`, `power`, `powerScl`, `bench`, `condScl`.
    pub(super) fn higher_order(&mut self, p: Prim, name: &str, e: &Expr, args: Vec<Val>) -> R<Val> {
        let f = args[0].clone();
        let fresh = self.fresh.clone();
        match p {
            // (3.36) each: element i is f(a_i)
            Prim::Each => {
                let a = args[1].arr()?.clone();
                let ty = scalar_result(&fresh, &f, &[a.ty])?;
                let (ta, index) = (a.ty, a.index.clone());
                let g = f.clone();
                let mut out = Arr::new(ty, a.shape.clone(), move |i| {
                    apply_scalar(&fresh, &g, &[(ta, index(i))])
                });
                if matches!(&f, Val::Fun(g) if matches!(g.as_ref(), Fun::Op(Prim::I2d))) {
                    out.int_source = Some(a.index.clone());
                }
                Ok(Val::Arr(out))
            }
            // (3.68) zipWith: identical shapes, element i is f(a_i)(b_i)
            Prim::ZipWith => {
                let (a, b) = (args[1].arr()?.clone(), args[2].arr()?.clone());
                if a.shape != b.shape {
                    let reason = format!("zipWith of shapes {:?} and {:?}", a.shape, b.shape);
                    if self.kernel {
                        return unsupported(reason);
                    }
                    return Err(fails(p, name, e, reason));
                }
                let ty = scalar_result(&fresh, &f, &[a.ty, b.ty])?;
                let (ta, tb, ia, ib) = (a.ty, b.ty, a.index.clone(), b.index.clone());
                Ok(Val::Arr(Arr::new(ty, a.shape.clone(), move |i| {
                    apply_scalar(&fresh, &f, &[(ta, ia(i)), (tb, ib(i))])
                })))
            }
            // (3.59)/(3.60) power: f applied n times
            Prim::Power | Prim::PowerScl | Prim::Bench => {
                let n = known_int(args[1].arr()?, "a power count")?;
                let x = args[2].arr()?.clone();
                if n < 0 {
                    return unsupported("power with a negative count");
                }
                self.power(&f, n, &x).map(Val::Arr)
            }
            // (3.76) condScl: f(x) if b, else x
            Prim::CondScl => {
                let (b, x) = (args[1].arr()?.clone(), args[2].arr()?.clone());
                match b.known_scalar() {
                    Some(Scalar::Bool(true)) => self.apply_fun(&f, vec![Val::Arr(x)]),
                    Some(_) => Ok(Val::Arr(x)),
                    None => {
                        let y = apply_scalar(&fresh, &f, &[(x.ty, x.text())]);
                        scalar_result(&fresh, &f, &[x.ty])?;
                        let t = format!("(if {} then {y} else {})", b.text(), x.text());
                        Ok(Val::Arr(Arr::scalar(x.ty, t)))
                    }
                }
            }
            _ => unsupported(format!("operator {name}")),
        }
    }

    /// `power(f, n, x)`: n = 0 is x; otherwise FCL's grid-level `power` over the array (a
    /// scalar state is a 1-element array), each step one kernel computing `f` of the state.
    fn power(&mut self, f: &Val, n: i64, x: &Arr) -> R<Arr> {
        if n == 0 {
            return Ok(x.clone());
        }
        if self.kernel {
            return unsupported("power inside a function");
        }
        let s = self.fresh.name("s");
        let (ty, shape) = (x.ty, x.shape.clone());
        let state = {
            let s = s.clone();
            Arr::new(ty, shape.clone(), move |i| {
                ty.load(&format!("(index {s} {i})"))
            })
        };
        let mut k = Lowerer::kernel(&self.fresh);
        let step = k.apply_fun(f, vec![Val::Arr(state)])?;
        let step = step.arr()?;
        if step.shape != shape || step.ty != ty {
            return unsupported("power whose function changes the shape or type");
        }
        let size = x.size().max(1);
        let w = self.fresh.name("w");
        self.helpers.insert(super::program::TABULATE);
        self.stmt(format!(
            "-- power: {n} iterations of one kernel over {size} elements\n    \
             {w} <- power<grid> {n} (fn it => fn {s} => tabulate {size} (fn i => {})) \
             (tabulate {size} (fn i => {}))",
            element_text(step, "i"),
            element_text(x, "i")
        ));
        Ok(Arr::new(ty, shape, move |i| {
            ty.load(&format!("(index {w} {i})"))
        }))
    }

    /// (3.57)/(3.58) `idxassign(is, mv, v)`: the variable's array becomes a materialized copy
    /// with element `is` replaced; later uses of the variable read the copy.
    pub(super) fn idxassign(&mut self, name: &str, e: &Expr, args: Vec<Val>) -> R<Val> {
        let ExprKind::App { args: exprs, .. } = &e.kind else {
            return unsupported("idxassign through a function value");
        };
        let ExprKind::Var(var) = &exprs[1].kind else {
            return unsupported("idxassign to an expression that is not a variable");
        };
        if self.kernel {
            return unsupported("idxassign inside a function");
        }
        let is = known_vec(args[0].arr()?, "an idxassign index")?;
        let (a, v) = (args[1].arr()?.clone(), args[2].arr()?.clone());
        let j = update_position(&is, &a.shape)
            .map_err(|reason| fails(Prim::Idxassign, name, e, reason))?;
        let (index, vt) = (a.index.clone(), v.text());
        let updated = Arr::new(a.ty, a.shape.clone(), move |i| {
            format!("(if {i} == {j} then {vt} else {})", index(i))
        });
        let stored = self.materialize(&updated, &format!("{var} after idxassign"));
        self.store.insert(var.clone(), Val::Arr(stored));
        Ok(Val::Arr(Arr::known(Array::scalar(Scalar::Bool(true)))?))
    }
}
