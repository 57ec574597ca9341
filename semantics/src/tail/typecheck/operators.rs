//! Operator typing, rule (3.26) with each operator's scheme as apltail's checker applies it
//! (spec §3.7; the thesis's schemes of §3.6 where apltail agrees). Schemes are instantiated
//! afresh at each application through fresh unification variables.

use super::Checker;
use crate::tail::ops::prim::Prim;
use crate::tail::shape::Shape;
use crate::tail::syntax::{Expr, Op};
use crate::tail::types::{Base, Type};
use crate::tail::value::BaseType::{self, Bool, Char, Complex, Double, Int};
use crate::{Diagnostic, Span};

/// The scalar operators' signatures: argument base type and result base type (spec §5.1–5.6).
/// Every argument must be `≤ [κ]0`.
pub fn scalar_signature(p: Prim) -> Option<(BaseType, BaseType)> {
    use Prim::*;
    Some(match p {
        Addi | Subi | Muli | Divi | Mod | Resi | Maxi | Mini | Andi | Ori | Xori | Shli | Shri
        | Shari | Absi | Signi | Noti | Nowi => (Int, Int),
        Lti | Ltei | Eqi | Gti | Gtei => (Int, Bool),
        Addd | Subd | Muld | Divd | Powd | Maxd | Mind | Resd | Negd | Absd | Expd | Ln | Sin
        | Cos | Tan | Asin | Acos | Atan | Sinh | Cosh | Tanh => (Double, Double),
        Signd | Floor | Ceil => (Double, Int),
        Ltd | Lted | Gtd | Gted | Eqd => (Double, Bool),
        Addx | Subx | Mulx | Expx | Negx | Conjx => (Complex, Complex),
        Rex | Imx | Magnx => (Complex, Double),
        Injx | D2x => (Double, Complex),
        Andb | Orb | Nandb | Norb | Eqb | Xorb | Notb => (Bool, Bool),
        Eqc | Ltc | Ltec | Gtc | Gtec => (Char, Bool),
        I2d | Roll => (Int, Double),
        _ => return None,
    })
}

/// The element type an output operator's letter names (`prArrI` → int, ...).
fn output_type(p: Prim) -> Option<(BaseType, bool)> {
    use Prim::*;
    Some(match p {
        PrArrI => (Int, true),
        PrArrB => (Bool, true),
        PrArrD => (Double, true),
        PrArrC => (Char, true),
        PrArrX => (Complex, true),
        PrSclI => (Int, false),
        PrSclB => (Bool, false),
        PrSclD => (Double, false),
        PrSclC => (Char, false),
        PrSclX => (Complex, false),
        _ => return None,
    })
}

fn lit(n: i64) -> Shape {
    Shape::lit(n)
}

fn known(b: BaseType) -> Base {
    Base::Known(b)
}

impl Checker {
    /// The views of spec §3.7. `arr(t) = (κ, r)`.
    fn arr(&mut self, t: &Type) -> Option<(Base, Shape)> {
        match self.s.head(t) {
            Type::Arr(k, r) => Some((k, r)),
            Type::Vec(k, _) | Type::SV(k, _) => Some((k, lit(1))),
            Type::S(k, _) => Some((k, lit(0))),
            v @ Type::Var(_) => {
                let a = self.s.fresh_array();
                self.s.unify(&v, &a);
                match a {
                    Type::Arr(k, r) => Some((k, r)),
                    _ => None,
                }
            }
            Type::Tuple(_) | Type::Fun(..) => None,
        }
    }

    /// `scl(t) = κ`: t is `[κ]0` or `S(κ,_)`.
    fn scl(&mut self, t: &Type) -> Option<Base> {
        match self.s.head(t) {
            Type::S(k, _) => Some(k),
            Type::Arr(k, r) => self.s.unify_shape(&r, &lit(0)).then_some(k),
            v @ Type::Var(_) => {
                let k = self.s.fresh_base();
                self.s.unify(&v, &Type::Arr(k, lit(0))).then_some(k)
            }
            _ => None,
        }
    }

    /// `svec(t) = (κ, n)`: a static vector `<κ>n` or `SV(κ,_)` (n = 1).
    fn svec(&self, t: &Type) -> Option<(Base, Shape)> {
        match self.s.head(t) {
            Type::Vec(k, n) => Some((k, n)),
            Type::SV(k, _) => Some((k, lit(1))),
            _ => None,
        }
    }

    /// `sint(t) = k`: t is `S(int,k)`.
    fn sint(&self, t: &Type) -> Option<Shape> {
        match self.s.head(t) {
            Type::S(k, n) if self.s.base(k) == known(Int) => Some(n),
            _ => None,
        }
    }

    /// A function's parameter and result types (a variable becomes `α -> β`).
    fn fun(&mut self, t: &Type) -> Option<(Type, Type)> {
        match self.s.head(t) {
            Type::Fun(a, b) => Some((*a, *b)),
            v @ Type::Var(_) => {
                let (a, b) = (self.s.fresh_type(), self.s.fresh_type());
                self.s
                    .unify(&v, &Type::fun(a.clone(), b.clone()))
                    .then_some((a, b))
            }
            _ => None,
        }
    }

    /// `fun1(f) = (κ1, κ2)`.
    fn fun1(&mut self, t: &Type) -> Option<(Base, Base)> {
        let (a, b) = self.fun(t)?;
        Some((self.scl(&a)?, self.scl(&b)?))
    }

    /// `fun2(f) = (κ1, κ2, κ3)` (curried).
    fn fun2(&mut self, t: &Type) -> Option<(Base, Base, Base)> {
        let (a, g) = self.fun(t)?;
        let (b, c) = self.fun(&g)?;
        Some((self.scl(&a)?, self.scl(&b)?, self.scl(&c)?))
    }

    fn rank(&self, r: &Shape) -> Option<i64> {
        self.s.shape(r).as_const()
    }

    /// (3.26) `op(e⃗) : τ` for argument types `ts` (spans from `args`).
    pub(super) fn op_type(
        &mut self,
        op: Op,
        span: Span,
        args: &[Expr],
        ts: &[Type],
    ) -> Result<Type, Diagnostic> {
        let name = op.name();
        let at = |i: usize| args.get(i).map_or(span, |a| a.span);
        // "argument i of `op`: expected X, found Y"
        let bad = |c: &Checker, i: usize, expected: &str| {
            c.error(
                at(i),
                format!(
                    "argument {} of `{name}`: expected {expected}, found {}",
                    i + 1,
                    c.s.resolve(&ts[i])
                ),
            )
        };
        let sub = |c: &mut Checker, i: usize, u: &Type| -> Result<(), Diagnostic> {
            let what = format!("argument {} of `{name}`", i + 1);
            c.require_sub(at(i), &what, &ts[i], u)
        };
        let same_base = |c: &mut Checker, i: usize, k: Base, l: Base| -> Result<(), Diagnostic> {
            if c.s.unify_base(k, l) {
                Ok(())
            } else {
                let (k, l) = (c.s.base(k), c.s.base(l));
                Err(c.error(
                    at(i),
                    format!(
                        "argument {} of `{name}`: expected element type {k}, found {l} (in {})",
                        i + 1,
                        c.s.resolve(&ts[i])
                    ),
                ))
            }
        };
        let p = op.prim;
        if let Some((arg, res)) = scalar_signature(p) {
            for i in 0..ts.len() {
                sub(self, i, &Type::scalar(arg))?;
            }
            return Ok(Type::scalar(res));
        }
        if let Some((k, array)) = output_type(p) {
            // prArr*: a ≤ [κ]ρ with ρ fresh; prScl*: x ≤ [κ]0. The result is the argument's type.
            let r = if array { self.s.fresh_shape() } else { lit(0) };
            sub(self, 0, &Type::Arr(known(k), r))?;
            return Ok(ts[0].clone());
        }
        use Prim::*;
        match p {
            Negi => match self.sint(&ts[0]) {
                Some(k) => Ok(Type::S(known(Int), k.scale(-1))),
                None => {
                    sub(self, 0, &Type::scalar(Int))?;
                    Ok(Type::scalar(Int))
                }
            },
            B2i => match self.s.head(&ts[0]) {
                Type::S(k, n) if self.s.base(k) == known(Bool) => Ok(Type::S(known(Int), n)),
                _ if op.v => Err(bad(self, 0, "S(bool,n)")),
                _ => {
                    sub(self, 0, &Type::scalar(Bool))?;
                    Ok(Type::scalar(Int))
                }
            },
            FormatI | FormatD | FormatX => {
                let k = match p {
                    FormatI => Int,
                    FormatD => Double,
                    _ => Complex,
                };
                sub(self, 0, &Type::scalar(k))?;
                Ok(Type::arr(Char, 1))
            }
            ReadFile | ReadIntVecFile | ReadDoubleVecFile => {
                sub(self, 0, &Type::arr(Char, 1))?;
                Ok(Type::arr(
                    match p {
                        ReadFile => Char,
                        ReadIntVecFile => Int,
                        _ => Double,
                    },
                    1,
                ))
            }
            Zilde => {
                let b = self.s.fresh_base();
                self.zildes.push((span, b));
                Ok(Type::Vec(b, lit(0)))
            }
            Pi => Ok(Type::scalar(Double)),
            Iota => match self.sint(&ts[0]) {
                Some(k) => Ok(Type::Vec(known(Int), k)),
                None if op.v => Err(bad(self, 0, "S(int,n)")),
                None => {
                    sub(self, 0, &Type::scalar(Int))?;
                    Ok(Type::arr(Int, 1))
                }
            },
            Shape => match self.svec(&ts[0]) {
                Some((_, n)) => Ok(Type::SV(known(Int), n)),
                None if op.v => Err(bad(self, 0, "a static vector <κ>n or SV(κ,n)")),
                None => match self.arr(&ts[0]) {
                    Some((_, r)) => Ok(Type::Vec(known(Int), r)),
                    None => Err(bad(self, 0, "an array")),
                },
            },
            Reshape => {
                let (k, _) = self.arr(&ts[1]).ok_or_else(|| bad(self, 1, "an array"))?;
                let r = self.s.fresh_shape();
                sub(self, 0, &Type::Vec(known(Int), r.clone()))?;
                Ok(Type::Arr(k, r))
            }
            Rav => {
                let (k, _) = self.arr(&ts[0]).ok_or_else(|| bad(self, 0, "an array"))?;
                Ok(Type::Arr(k, lit(1)))
            }
            Take | Drop => self.take_drop(op, &ts[0], &ts[1], &bad, &sub),
            Cat => {
                if let (Some((k, n)), Some((l, m))) = (self.svec(&ts[0]), self.svec(&ts[1])) {
                    same_base(self, 1, k, l)?;
                    return Ok(Type::Vec(k, n.add(&m)));
                }
                if op.v {
                    return Err(bad(self, 0, "static vectors"));
                }
                let (k, r) = self.arr(&ts[0]).ok_or_else(|| bad(self, 0, "an array"))?;
                if self.rank(&r) == Some(0) {
                    return Err(bad(self, 0, "an array of rank at least 1"));
                }
                sub(self, 1, &Type::Arr(k, r.clone()))?;
                Ok(Type::Arr(k, r))
            }
            Cons | Snoc => {
                let (x, a) = if p == Cons { (0, 1) } else { (1, 0) };
                if let Some((k, n)) = self.svec(&ts[a]) {
                    // (i) static vector
                    sub(self, x, &Type::Arr(k, lit(0)))?;
                    return Ok(Type::Vec(k, n.plus(1)));
                }
                if let Type::S(k, _) = self.s.head(&ts[x]) {
                    // (ii) singleton element
                    sub(self, a, &Type::Arr(k, lit(1)))?;
                    return Ok(Type::Arr(k, lit(1)));
                }
                if op.v {
                    return Err(bad(self, a, "a static vector"));
                }
                // (iii) general
                let (k, r) = self.arr(&ts[x]).ok_or_else(|| bad(self, x, "an array"))?;
                sub(self, a, &Type::Arr(k, r.plus(1)))?;
                Ok(Type::Arr(k, r.plus(1)))
            }
            First => match self.s.head(&ts[0]) {
                Type::SV(k, n) => Ok(Type::S(k, n)),
                Type::Vec(k, _) => Ok(Type::Arr(k, lit(0))),
                _ if op.v => Err(bad(self, 0, "SV(κ,n) or <κ>n")),
                _ => {
                    let (k, _) = self.arr(&ts[0]).ok_or_else(|| bad(self, 0, "an array"))?;
                    Ok(Type::Arr(k, lit(0)))
                }
            },
            Vreverse | Transp | Mem => {
                if op.v && !matches!(self.s.head(&ts[0]), Type::Vec(..)) {
                    return Err(bad(self, 0, "<κ>n"));
                }
                self.arr(&ts[0]).ok_or_else(|| bad(self, 0, "an array"))?;
                Ok(ts[0].clone())
            }
            MemScl => {
                self.scl(&ts[0]).ok_or_else(|| bad(self, 0, "a scalar"))?;
                Ok(ts[0].clone())
            }
            Rotate | Vrotate => {
                sub(self, 0, &Type::scalar(Int))?;
                if op.v && !matches!(self.s.head(&ts[1]), Type::Vec(..)) {
                    return Err(bad(self, 1, "<κ>n"));
                }
                self.arr(&ts[1]).ok_or_else(|| bad(self, 1, "an array"))?;
                Ok(ts[1].clone())
            }
            Transp2 => {
                let (_, r) = self.arr(&ts[1]).ok_or_else(|| bad(self, 1, "an array"))?;
                if !self.s.unify(&ts[0], &Type::Vec(known(Int), r.clone())) {
                    let want = format!("<int>{}", self.s.shape(&r));
                    return Err(bad(self, 0, &want));
                }
                Ok(ts[1].clone())
            }
            Each => {
                let (k1, k2) = self
                    .fun1(&ts[0])
                    .ok_or_else(|| bad(self, 0, "a function from scalars to scalars"))?;
                if let Some((k, n)) = self.svec(&ts[1]) {
                    same_base(self, 1, k1, k)?;
                    return Ok(Type::Vec(k2, n));
                }
                if op.v {
                    return Err(bad(self, 1, "a static vector"));
                }
                let (k, r) = self.arr(&ts[1]).ok_or_else(|| bad(self, 1, "an array"))?;
                same_base(self, 1, k1, k)?;
                Ok(Type::Arr(k2, r))
            }
            ZipWith => {
                let (k1, k2, k3) = self
                    .fun2(&ts[0])
                    .ok_or_else(|| bad(self, 0, "a binary function on scalars"))?;
                let (k, r) = self.arr(&ts[1]).ok_or_else(|| bad(self, 1, "an array"))?;
                same_base(self, 1, k1, k)?;
                let (l, q) = self.arr(&ts[2]).ok_or_else(|| bad(self, 2, "an array"))?;
                same_base(self, 2, k2, l)?;
                if !self.s.unify_shape(&r, &q) {
                    return Err(bad(
                        self,
                        2,
                        &format!("an array of rank {}", self.s.shape(&r)),
                    ));
                }
                Ok(Type::Arr(k3, r))
            }
            Reduce | Scan => {
                let (k1, k2, k3) = self
                    .fun2(&ts[0])
                    .ok_or_else(|| bad(self, 0, "a binary function on scalars"))?;
                same_base(self, 0, k1, k2)?;
                same_base(self, 0, k1, k3)?;
                let z = self.scl(&ts[1]).ok_or_else(|| bad(self, 1, "a scalar"))?;
                same_base(self, 1, k1, z)?;
                let (k, r) = self.arr(&ts[2]).ok_or_else(|| bad(self, 2, "an array"))?;
                same_base(self, 2, k1, k)?;
                if p == Scan {
                    return Ok(ts[2].clone());
                }
                if self.rank(&r) == Some(0) {
                    return Err(bad(self, 2, "an array of rank at least 1"));
                }
                Ok(Type::Arr(k, r.plus(-1)))
            }
            Power => {
                sub(self, 1, &Type::scalar(Int))?;
                let (t1, t2) = self.fun(&ts[0]).ok_or_else(|| bad(self, 0, "a function"))?;
                let what = format!("result of `{name}`'s function");
                self.require_sub(at(0), &what, &t2, &t1)?;
                self.s.join(&ts[2], &t2).ok_or_else(|| {
                    self.mismatch(at(2), &format!("argument 3 of `{name}`"), &t2, &ts[2])
                })
            }
            PowerScl | Bench | CondScl => {
                let count = if p == CondScl { Bool } else { Int };
                sub(self, 1, &Type::scalar(count))?;
                let (t1, t2) = self.fun(&ts[0]).ok_or_else(|| bad(self, 0, "a function"))?;
                self.require_eq(at(0), &format!("`{name}`'s function"), &t2, &t1)?;
                sub(self, 2, &t1)?;
                self.scl(&ts[2]).ok_or_else(|| bad(self, 2, "a scalar"))?;
                Ok(t1)
            }
            Compress => {
                let (b, r) = self.arr(&ts[0]).ok_or_else(|| bad(self, 0, "an array"))?;
                same_base(self, 0, known(Bool), b)?;
                let (k, q) = self.arr(&ts[1]).ok_or_else(|| bad(self, 1, "an array"))?;
                if !self.s.unify_shape(&r, &q) {
                    return Err(bad(
                        self,
                        1,
                        &format!("an array of rank {}", self.s.shape(&r)),
                    ));
                }
                Ok(Type::Arr(k, r))
            }
            Replicate => {
                let z = self.scl(&ts[0]).ok_or_else(|| bad(self, 0, "a scalar"))?;
                let (c, r) = self.arr(&ts[1]).ok_or_else(|| bad(self, 1, "an array"))?;
                same_base(self, 1, known(Int), c)?;
                let (k, q) = self.arr(&ts[2]).ok_or_else(|| bad(self, 2, "an array"))?;
                same_base(self, 2, z, k)?;
                if !self.s.unify_shape(&r, &q) {
                    return Err(bad(
                        self,
                        2,
                        &format!("an array of rank {}", self.s.shape(&r)),
                    ));
                }
                Ok(Type::Arr(k, r))
            }
            IdxS => {
                if self.sint(&ts[0]).is_none() {
                    return Err(bad(self, 0, "an integer literal S(int,n)"));
                }
                sub(self, 1, &Type::scalar(Int))?;
                let (k, r) = self.arr(&ts[2]).ok_or_else(|| bad(self, 2, "an array"))?;
                if self.rank(&r) == Some(0) {
                    return Err(bad(self, 2, "an array of rank at least 1"));
                }
                Ok(Type::Arr(k, r.plus(-1)))
            }
            Idxassign => {
                let (k, r) = self.arr(&ts[1]).ok_or_else(|| bad(self, 1, "an array"))?;
                let v = self.scl(&ts[2]).ok_or_else(|| bad(self, 2, "a scalar"))?;
                same_base(self, 2, k, v)?;
                match self.svec(&ts[0]) {
                    Some((i, n))
                        if self.s.unify_base(i, known(Int)) && self.s.unify_shape(&n, &r) =>
                    {
                        Ok(Type::scalar(Bool))
                    }
                    _ => Err(bad(
                        self,
                        0,
                        &format!("a static index vector <int>{}", self.s.shape(&r)),
                    )),
                }
            }
            GradeUp | GradeDown => {
                let (_, r) = self.arr(&ts[0]).ok_or_else(|| bad(self, 0, "an array"))?;
                if !self.s.unify_shape(&r, &lit(1)) {
                    return Err(bad(self, 0, "a vector"));
                }
                Ok(Type::arr(Int, 1))
            }
            _ => Err(self.error(span, format!("no typing rule for `{name}`"))),
        }
    }

    /// `take`/`drop` and their V forms (spec §3.7).
    fn take_drop(
        &mut self,
        op: Op,
        n: &Type,
        a: &Type,
        bad: &dyn Fn(&Checker, usize, &str) -> Diagnostic,
        sub: &dyn Fn(&mut Checker, usize, &Type) -> Result<(), Diagnostic>,
    ) -> Result<Type, Diagnostic> {
        let is_take = op.prim == Prim::Take;
        if let Some(k) = self.sint(n).and_then(|k| self.s.shape(&k).as_const()) {
            let static_arg = match self.s.head(a) {
                Type::Vec(b, m) => Some((b, Some(m))),
                Type::SV(b, _) => Some((b, Some(lit(1)))),
                Type::Arr(b, r) if is_take && self.rank(&r) == Some(1) => Some((b, None)),
                _ => None,
            };
            if let Some((b, m)) = static_arg {
                if is_take {
                    return Ok(Type::Vec(b, lit(k.abs())));
                }
                if let Some(m) = m.and_then(|m| self.s.shape(&m).as_const()) {
                    return Ok(Type::Vec(b, lit((m - k.abs()).max(0))));
                }
            }
        }
        if op.v {
            return Err(bad(
                self,
                1,
                "a static vector with an integer literal count",
            ));
        }
        sub(self, 0, &Type::scalar(Int))?;
        let (k, r) = self.arr(a).ok_or_else(|| bad(self, 1, "an array"))?;
        if is_take && self.rank(&r) == Some(0) {
            // apltail types take(n, scalar) as a scalar but yields a vector (spec §3.8).
            return Ok(Type::Arr(k, lit(1)));
        }
        Ok(Type::Arr(k, r))
    }
}
