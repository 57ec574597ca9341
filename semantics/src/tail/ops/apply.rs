//! Applying a first-order operator to its argument arrays: the right-hand sides of the rules
//! `op(l⃗)/s ↪ l/(s, l ↦ arr)` (3.32–3.46 and the rules the thesis omits). Higher-order operators,
//! `idxassign` and `replicate` (which does not evaluate its first argument) are handled by the
//! stepper itself.

use super::io::{self, Rolls};
use super::prim::Prim;
use super::scalar::{self as sc, Res};
use super::select;
use super::shape::{self, int_scalar, ints};
use crate::tail::print_value::{array_text, char_array_text, scalar_text};
use crate::tail::value::{Array, BaseType, Scalar};
use std::time::Instant;

/// What a first-order operator produced.
#[derive(Debug)]
pub enum Outcome {
    /// A new array, to be stored at a fresh location.
    New(Array),
    /// The operator returns its argument number `i` itself, sharing its location (`mem`, the
    /// `pr*` operators; spec §4.5 aliasing).
    Arg(usize),
}

/// An operator's result with its cost and output.
#[derive(Debug)]
pub struct Applied {
    pub outcome: Outcome,
    /// Scalar operations performed (elements computed or moved).
    pub work: u64,
    /// Text written to standard output (`pr*`), with its final newline.
    pub output: Option<String>,
}

/// Per-run state some operators need: the draw counts of `roll`'s call sites, the start time of
/// `nowi`, and the source position of the application being applied (`roll`'s call site).
#[derive(Debug)]
pub struct OpEnv {
    pub rolls: Rolls,
    pub start: Instant,
    pub site: u32,
}

impl Default for OpEnv {
    fn default() -> Self {
        OpEnv {
            rolls: Rolls::default(),
            start: Instant::now(),
            site: 0,
        }
    }
}

fn new(a: Array) -> Res<Applied> {
    let work = a.size().max(1) as u64;
    Ok(Applied {
        outcome: Outcome::New(a),
        work,
        output: None,
    })
}

fn scalar(x: Scalar) -> Res<Applied> {
    Ok(Applied {
        outcome: Outcome::New(Array::scalar(x)),
        work: 1,
        output: None,
    })
}

fn stuck(p: Prim, args: &[&Array]) -> String {
    let tys: Vec<String> = args
        .iter()
        .map(|a| format!("[{}]{}", a.base_type().name(), a.rank()))
        .collect();
    format!("{} cannot be applied to {}", p.name(), tys.join(", "))
}

fn printed(p: Prim, a: &Array, want: BaseType, text: String) -> Res<Applied> {
    if a.base_type() != want {
        // An array of fills whose type inference would have fixed (spec §3.8).
        if let Some(c) = a.as_fills_of(want) {
            let text = if want == BaseType::Char {
                char_array_text(&c)
            } else {
                array_text(&c)
            };
            return Ok(Applied {
                outcome: Outcome::New(c),
                work: a.size() as u64,
                output: Some(text + "\n"),
            });
        }
        return Err(stuck(p, &[a]));
    }
    Ok(Applied {
        outcome: Outcome::Arg(0),
        work: a.size() as u64,
        output: Some(text + "\n"),
    })
}

/// Applies scalar operator `p` to scalar arguments (3.32, 3.33 and their analogues).
pub fn scalar_op(p: Prim, xs: &[Scalar]) -> Res<Scalar> {
    use Prim as P;
    use Scalar::{Bool as B, Char as C, Complex as X, Double as D, Int as I};
    Ok(match (p, xs) {
        (P::Addi, [I(x), I(y)]) => I(sc::addi(*x, *y)?),
        (P::Subi, [I(x), I(y)]) => I(sc::subi(*x, *y)?),
        (P::Muli, [I(x), I(y)]) => I(sc::muli(*x, *y)?),
        (P::Divi, [I(x), I(y)]) => I(sc::divi(*x, *y)?),
        (P::Mod, [I(x), I(y)]) => I(sc::mod_(*x, *y)?),
        (P::Resi, [I(m), I(x)]) => I(sc::resi(*m, *x)),
        (P::Maxi, [I(x), I(y)]) => I(*x.max(y)),
        (P::Mini, [I(x), I(y)]) => I(*x.min(y)),
        (P::Andi, [I(x), I(y)]) => I(x & y),
        (P::Ori, [I(x), I(y)]) => I(x | y),
        (P::Xori, [I(x), I(y)]) => I(x ^ y),
        (P::Shli, [I(x), I(c)]) => I(sc::shli(*x, *c)),
        (P::Shri, [I(x), I(c)]) => I(sc::shri(*x, *c)),
        (P::Shari, [I(x), I(c)]) => I(sc::shari(*x, *c)),
        (P::Negi, [I(x)]) => I(sc::negi(*x)?),
        (P::Absi, [I(x)]) => I(sc::absi(*x)?),
        (P::Signi, [I(x)]) => I(sc::signi(*x)),
        // apltail cannot evaluate noti; bitwise not is its natural meaning (spec §5.1).
        (P::Noti, [I(x)]) => I(!x),
        (P::Lti, [I(x), I(y)]) => B(x < y),
        (P::Ltei, [I(x), I(y)]) => B(x <= y),
        (P::Eqi, [I(x), I(y)]) => B(x == y),
        (P::Gti, [I(x), I(y)]) => B(x > y),
        (P::Gtei, [I(x), I(y)]) => B(x >= y),
        (P::Addd, [D(x), D(y)]) => D(x + y),
        (P::Subd, [D(x), D(y)]) => D(x - y),
        (P::Muld, [D(x), D(y)]) => D(x * y),
        (P::Divd, [D(x), D(y)]) => D(x / y),
        (P::Powd, [D(x), D(y)]) => D(x.powf(*y)),
        (P::Maxd, [D(x), D(y)]) => D(sc::maxd(*x, *y)),
        (P::Mind, [D(x), D(y)]) => D(sc::mind(*x, *y)),
        (P::Resd, [D(m), D(x)]) => D(sc::resd(*m, *x)?),
        (P::Negd, [D(x)]) => D(-x),
        (P::Absd, [D(x)]) => D(x.abs()),
        (P::Expd, [D(x)]) => D(x.exp()),
        (P::Ln, [D(x)]) => D(x.ln()),
        (P::Sin, [D(x)]) => D(x.sin()),
        (P::Cos, [D(x)]) => D(x.cos()),
        (P::Tan, [D(x)]) => D(x.tan()),
        (P::Asin, [D(x)]) => D(x.asin()),
        (P::Acos, [D(x)]) => D(x.acos()),
        (P::Atan, [D(x)]) => D(x.atan()),
        (P::Sinh, [D(x)]) => D(x.sinh()),
        (P::Cosh, [D(x)]) => D(x.cosh()),
        (P::Tanh, [D(x)]) => D(x.tanh()),
        (P::Signd, [D(x)]) => I(sc::signd(*x)),
        (P::Floor, [D(x)]) => I(sc::floor(*x)?),
        (P::Ceil, [D(x)]) => I(sc::ceil(*x)?),
        (P::Ltd, [D(x), D(y)]) => B(x < y),
        (P::Lted, [D(x), D(y)]) => B(x <= y),
        (P::Gtd, [D(x), D(y)]) => B(x > y),
        (P::Gted, [D(x), D(y)]) => B(x >= y),
        (P::Eqd, [D(x), D(y)]) => B(x == y),
        (P::Addx, [X(x), X(y)]) => X((x.0 + y.0, x.1 + y.1)),
        (P::Subx, [X(x), X(y)]) => X((x.0 - y.0, x.1 - y.1)),
        (P::Mulx, [X(x), X(y)]) => X(sc::mulx(*x, *y)),
        (P::Injx, [D(re), D(im)]) => X((*re, *im)),
        (P::Rex, [X(z)]) => D(z.0),
        (P::Imx, [X(z)]) => D(z.1),
        // negx is computed as 0 − z, so negx(0.0j0.0) = 0.0j0.0 (spec §5.3).
        (P::Negx, [X(z)]) => X((0.0 - z.0, 0.0 - z.1)),
        (P::Conjx, [X(z)]) => X((z.0, -z.1)),
        (P::Expx, [X(z)]) => X(sc::expx(*z)),
        (P::Magnx, [X(z)]) => D(sc::magnx(*z)),
        (P::Andb, [B(x), B(y)]) => B(*x && *y),
        (P::Orb, [B(x), B(y)]) => B(*x || *y),
        (P::Nandb, [B(x), B(y)]) => B(!(*x && *y)),
        (P::Norb, [B(x), B(y)]) => B(!(*x || *y)),
        (P::Eqb, [B(x), B(y)]) => B(x == y),
        (P::Xorb, [B(x), B(y)]) => B(x != y),
        (P::Notb, [B(x)]) => B(!x),
        (P::Eqc, [C(x), C(y)]) => B(x == y),
        (P::Ltc, [C(x), C(y)]) => B(x < y),
        (P::Ltec, [C(x), C(y)]) => B(x <= y),
        (P::Gtc, [C(x), C(y)]) => B(x > y),
        (P::Gtec, [C(x), C(y)]) => B(x >= y),
        (P::I2d, [I(x)]) => D(*x as f64),
        (P::B2i, [B(x)]) => I(*x as i32),
        (P::D2x, [D(x)]) => X((*x, 0.0)),
        _ => {
            let tys: Vec<&str> = xs.iter().map(|x| x.base_type().name()).collect();
            return Err(format!(
                "{} cannot be applied to {}",
                p.name(),
                tys.join(", ")
            ));
        }
    })
}

/// Applies first-order operator `p` to its argument arrays.
pub fn apply(p: Prim, args: &[&Array], env: &mut OpEnv) -> Res<Applied> {
    use Prim as P;
    // Scalar operators: every argument must be a rank-0 array (no scalar extension, trap 19).
    if is_scalar_op(p) {
        let mut xs = [Scalar::Int(0); 2];
        for (k, a) in args.iter().enumerate() {
            if a.rank() != 0 {
                return Err(stuck(p, args));
            }
            xs[k] = a.elems.get(0);
        }
        return scalar(scalar_op(p, &xs[..args.len()])?);
    }
    match (p, args) {
        (P::Zilde, []) => new(shape::empty(BaseType::Int, vec![0])),
        (P::Pi, []) => scalar(Scalar::Double(std::f64::consts::PI)),
        (P::Iota, [n]) => new(shape::iota(int_scalar(n)?)?),
        (P::Shape, [a]) => new(shape::shape(a)),
        (P::Reshape, [sh, a]) if sh.rank() == 1 => new(shape::reshape(&ints(sh)?, a)?),
        (P::Rav, [a]) => new(shape::rav(a)),
        (P::Take, [n, a]) => new(shape::take(int_scalar(n)?, a)?),
        (P::Drop, [n, a]) => new(shape::drop(int_scalar(n)?, a)),
        (P::Cat, [a, b]) => new(shape::cat(a, b)?),
        (P::Cons, [x, a]) => new(shape::cons(x, a)?),
        (P::Snoc, [a, x]) => new(shape::snoc(a, x)?),
        (P::First, [a]) => new(shape::first(a)),
        (P::Rotate, [n, a]) => new(shape::rotate(int_scalar(n)?, a)),
        (P::Vrotate, [n, a]) => new(shape::vrotate(int_scalar(n)?, a)),
        (P::Vreverse, [a]) => new(shape::vreverse(a)),
        (P::Transp, [a]) => new(shape::transp(a)),
        (P::Transp2, [p, a]) if p.rank() == 1 => new(shape::transp2(&ints(p)?, a)?),
        (P::Compress, [b, a]) => new(select::compress(b, a)?),
        (P::IdxS, [d, i, a]) => new(select::idx_s(int_scalar(d)?, int_scalar(i)?, a)?),
        (P::GradeUp, [a]) => new(select::grade(a, false)?),
        (P::GradeDown, [a]) => new(select::grade(a, true)?),
        (P::PrArrI, [a]) => printed(p, a, BaseType::Int, array_text(a)),
        (P::PrArrB, [a]) => printed(p, a, BaseType::Bool, array_text(a)),
        (P::PrArrD, [a]) => printed(p, a, BaseType::Double, array_text(a)),
        (P::PrArrX, [a]) => printed(p, a, BaseType::Complex, array_text(a)),
        (P::PrArrC, [a]) => printed(p, a, BaseType::Char, char_array_text(a)),
        (P::PrSclI | P::PrSclB | P::PrSclD | P::PrSclC | P::PrSclX, [a]) if a.rank() == 0 => {
            let want = match p {
                P::PrSclI => BaseType::Int,
                P::PrSclB => BaseType::Bool,
                P::PrSclD => BaseType::Double,
                P::PrSclC => BaseType::Char,
                _ => BaseType::Complex,
            };
            let x = a
                .as_fills_of(want)
                .map_or(a.elems.get(0), |c| c.elems.get(0));
            printed(p, a, want, format!("[]({})", scalar_text(x)))
        }
        (P::FormatI, [a]) => match a.as_scalar() {
            Some(Scalar::Int(i)) => new(io::format_i(i)),
            _ => Err(stuck(p, args)),
        },
        (P::FormatD, [a]) => match a.as_scalar() {
            Some(Scalar::Double(d)) => new(io::format_d(d)),
            _ => Err(stuck(p, args)),
        },
        (P::FormatX, [a]) => match a.as_scalar() {
            Some(Scalar::Complex((re, im))) => new(io::format_x(re, im)),
            _ => Err(stuck(p, args)),
        },
        (P::ReadFile, [s]) => new(io::read_file(&io::string_of(s)?)?),
        (P::ReadIntVecFile, [s]) => new(io::read_int_vec_file(&io::string_of(s)?)?),
        (P::ReadDoubleVecFile, [s]) => new(io::read_double_vec_file(&io::string_of(s)?)?),
        (P::Roll, [n]) => match n.as_scalar() {
            Some(Scalar::Int(n)) => scalar(Scalar::Double(env.rolls.roll(env.site, n)?)),
            _ => Err(stuck(p, args)),
        },
        (P::Nowi, [x]) => match x.as_scalar() {
            Some(Scalar::Int(0)) => {
                let ms = env.start.elapsed().as_millis().min(i32::MAX as u128) as i32;
                scalar(Scalar::Int(ms))
            }
            Some(Scalar::Int(n)) => Err(format!("nowi of {n} (only 0 is allowed)")),
            _ => Err(stuck(p, args)),
        },
        (P::Mem | P::MemScl, [_]) => Ok(Applied {
            outcome: Outcome::Arg(0),
            work: 0,
            output: None,
        }),
        _ => Err(stuck(p, args)),
    }
}

/// True for the operators of spec §5.1–§5.6 (scalars in, scalar out).
pub fn is_scalar_op(p: Prim) -> bool {
    use Prim as P;
    !matches!(
        p,
        P::Zilde
            | P::Pi
            | P::Iota
            | P::Shape
            | P::Reshape
            | P::Rav
            | P::Take
            | P::Drop
            | P::Cat
            | P::Cons
            | P::Snoc
            | P::First
            | P::Rotate
            | P::Vrotate
            | P::Vreverse
            | P::Transp
            | P::Transp2
            | P::Each
            | P::ZipWith
            | P::Reduce
            | P::Scan
            | P::Power
            | P::PowerScl
            | P::CondScl
            | P::Bench
            | P::Compress
            | P::Replicate
            | P::IdxS
            | P::GradeUp
            | P::GradeDown
            | P::Idxassign
            | P::PrArrI
            | P::PrArrB
            | P::PrArrD
            | P::PrArrC
            | P::PrArrX
            | P::PrSclI
            | P::PrSclB
            | P::PrSclD
            | P::PrSclC
            | P::PrSclX
            | P::FormatI
            | P::FormatD
            | P::FormatX
            | P::ReadFile
            | P::ReadIntVecFile
            | P::ReadDoubleVecFile
            | P::Roll
            | P::Nowi
            | P::Mem
            | P::MemScl
    )
}

/// The signature of a scalar operator: its argument base types and result base type (found
/// by applying it to ones of each base type; every scalar operator takes arguments of one type).
pub fn scalar_signature(p: Prim) -> Option<(Vec<BaseType>, BaseType)> {
    if !is_scalar_op(p) {
        return None;
    }
    let ones = [
        Scalar::Int(1),
        Scalar::Double(1.0),
        Scalar::Bool(true),
        Scalar::Char(b'a'),
        Scalar::Complex((1.0, 0.0)),
    ];
    ones.into_iter().find_map(|one| {
        let xs = vec![one; p.arity()];
        scalar_op(p, &xs)
            .ok()
            .map(|r| (vec![one.base_type(); p.arity()], r.base_type()))
    })
}

/// The base type of a scalar operator's result (used to type the result of `each` over an empty
/// array).
pub fn scalar_result_type(p: Prim) -> Option<BaseType> {
    scalar_signature(p).map(|(_, r)| r)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(p: Prim, args: &[Array]) -> Res<String> {
        let refs: Vec<&Array> = args.iter().collect();
        let a = apply(p, &refs, &mut OpEnv::default())?;
        match a.outcome {
            Outcome::New(x) => Ok(crate::tail::print_value::flat_text(&x)),
            Outcome::Arg(i) => Ok(format!("arg{i}:{}", a.output.unwrap_or_default())),
        }
    }
    fn i(x: i32) -> Array {
        Array::scalar(Scalar::Int(x))
    }

    #[test]
    fn scalar_ops_reject_arrays_and_wrong_types() {
        assert_eq!(run(Prim::Addi, &[i(1), i(2)]).unwrap(), "[](3)");
        assert!(run(Prim::Addi, &[Array::int_vec(vec![1]), i(2)]).is_err());
        assert!(run(Prim::Addd, &[i(1), i(2)]).is_err());
        assert_eq!(
            run(Prim::Negx, &[Array::scalar(Scalar::Complex((0.0, 0.0)))]).unwrap(),
            "[](0.0j0.0)"
        );
    }

    #[test]
    fn printing_ops_return_their_argument() {
        assert_eq!(run(Prim::PrSclI, &[i(7)]).unwrap(), "arg0:[](7)\n");
        assert!(run(Prim::PrSclD, &[i(7)]).is_err());
        assert!(run(Prim::Nowi, &[i(1)]).is_err());
    }

    #[test]
    fn result_types_of_scalar_ops() {
        assert_eq!(scalar_result_type(Prim::I2d), Some(BaseType::Double));
        assert_eq!(scalar_result_type(Prim::Eqc), Some(BaseType::Bool));
        assert_eq!(scalar_result_type(Prim::Injx), Some(BaseType::Complex));
        assert_eq!(scalar_result_type(Prim::Iota), None);
        assert_eq!(scalar_result_type(Prim::Divi), Some(BaseType::Int));
        assert_eq!(
            scalar_signature(Prim::Injx),
            Some((vec![BaseType::Double, BaseType::Double], BaseType::Complex))
        );
    }
}
