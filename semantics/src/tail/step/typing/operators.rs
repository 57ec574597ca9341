//! The operator rules of the configuration typing (spec §3.7, one arm per operator or group).

use super::{arr, fun, join, same, scl, sint, subtype, svec, want, Base, Res, Ty};
use crate::tail::ops::apply::scalar_signature;
use crate::tail::ops::prim::Prim;
use crate::tail::value::BaseType;

/// The result type of `op(τ⃗)` (spec §3.7).
pub(super) fn op_type(p: Prim, name: &str, ts: &[Ty]) -> Res<Ty> {
    use Prim as P;
    let arr_b = |b: Base, r: i64| Ty::Arr(b, r);
    if let Some((args, res)) = scalar_signature(p) {
        for (t, k) in ts.iter().zip(&args) {
            want(scl(t)?, *k, "argument")?;
        }
        return Ok(match (p, ts) {
            (P::Negi, [Ty::S(_, k)]) => Ty::S(Some(BaseType::Int), -k),
            (P::B2i, [Ty::S(_, n)]) => Ty::S(Some(BaseType::Int), *n),
            _ => arr_b(Some(res), 0),
        });
    }
    let int = Some(BaseType::Int);
    Ok(match (p, ts) {
        (P::Zilde, []) => Ty::Vec(None, 0),
        (P::Pi, []) => arr_b(Some(BaseType::Double), 0),
        (P::Iota, [n]) => {
            want(scl(n)?, BaseType::Int, "count")?;
            sint(n).map_or(Ty::Arr(int, 1), |k| Ty::Vec(int, k))
        }
        (P::Shape, [a]) => match svec(a) {
            Some((_, n)) => Ty::SV(int, n),
            None => Ty::Vec(int, arr(a)?.1),
        },
        (P::Reshape, [sh, a]) => match svec(sh) {
            Some((b, n)) => {
                want(b, BaseType::Int, "shape")?;
                arr_b(arr(a)?.0, n)
            }
            None => return Err(format!("shape {sh} has no static length")),
        },
        (P::Rav, [a]) => arr_b(arr(a)?.0, 1),
        (P::Take, [n, a]) => match (sint(n), a) {
            (Some(k), Ty::Arr(b, 1) | Ty::Vec(b, _) | Ty::SV(b, _)) => Ty::Vec(*b, k.abs()),
            _ => {
                want(scl(n)?, BaseType::Int, "count")?;
                let (b, r) = arr(a)?;
                arr_b(b, r.max(1))
            }
        },
        (P::Drop, [n, a]) => match (sint(n), svec(a)) {
            (Some(k), Some((b, m))) => Ty::Vec(b, (m - k.abs()).max(0)),
            _ => {
                want(scl(n)?, BaseType::Int, "count")?;
                let (b, r) = arr(a)?;
                arr_b(b, r)
            }
        },
        (P::Cat, [a, b]) => match (svec(a), svec(b)) {
            (Some((x, n)), Some((y, m))) => Ty::Vec(same(x, y, "cat")?, n + m),
            _ => {
                let ((x, r), (y, s)) = (arr(a)?, arr(b)?);
                if r != s {
                    return Err(format!("ranks {r} and {s}"));
                }
                arr_b(same(x, y, "cat")?, r.max(1))
            }
        },
        (P::Cons, [x, a]) | (P::Snoc, [a, x]) => match (svec(a), x) {
            (Some((b, n)), _) => Ty::Vec(same(b, scl(x)?, "element")?, n + 1),
            (None, Ty::S(b, _)) => {
                let (c, r) = arr(a)?;
                if r != 1 {
                    return Err(format!("{a} is not a vector"));
                }
                arr_b(same(*b, c, "element")?, 1)
            }
            _ => {
                let ((b, r), (c, s)) = (arr(x)?, arr(a)?);
                if s != r + 1 {
                    return Err(format!("ranks {r} and {s}"));
                }
                arr_b(same(b, c, "element")?, s)
            }
        },
        (P::First, [a]) => match a {
            Ty::SV(b, n) => Ty::S(*b, *n),
            _ => arr_b(arr(a)?.0, 0),
        },
        (P::Vreverse | P::Transp | P::Mem | P::MemScl, [a]) => {
            arr(a)?;
            a.clone()
        }
        (P::Rotate | P::Vrotate, [n, a]) => {
            want(scl(n)?, BaseType::Int, "count")?;
            arr(a)?;
            a.clone()
        }
        (P::Transp2, [p, a]) => {
            let (_, r) = arr(a)?;
            match svec(p) {
                Some((b, n)) if n == r => want(b, BaseType::Int, "permutation")?,
                _ => return Err(format!("permutation {p} for rank {r}")),
            }
            a.clone()
        }
        (P::Each, [f, a]) => {
            let k = fun(f, 1)?;
            match svec(a) {
                Some((b, n)) => {
                    same(k[0], b, "element")?;
                    Ty::Vec(k[1], n)
                }
                None => {
                    let (b, r) = arr(a)?;
                    same(k[0], b, "element")?;
                    arr_b(k[1], r)
                }
            }
        }
        (P::ZipWith, [f, a, b]) => {
            let k = fun(f, 2)?;
            let ((x, r), (y, s)) = (arr(a)?, arr(b)?);
            if r != s {
                return Err(format!("ranks {r} and {s}"));
            }
            same(k[0], x, "first element")?;
            same(k[1], y, "second element")?;
            arr_b(k[2], r)
        }
        (P::Reduce | P::Scan, [f, z, a]) => {
            let k = fun(f, 2)?;
            let kb = same(same(k[0], k[1], "function")?, k[2], "function")?;
            let kb = same(kb, scl(z)?, "neutral element")?;
            let (b, r) = arr(a)?;
            let b = same(kb, b, "element")?;
            if p == P::Reduce {
                arr_b(b, (r - 1).max(0))
            } else {
                a.clone()
            }
        }
        (P::Power, [f, n, x]) => {
            want(scl(n)?, BaseType::Int, "count")?;
            let Ty::Fun(t1, t2) = f else {
                return Err(format!("expected a function, found {f}"));
            };
            if !subtype(t2, t1) {
                return Err(format!("function {f} does not map into its argument type"));
            }
            join(x, t2)?
        }
        (P::PowerScl | P::Bench | P::CondScl, [f, n, x]) => {
            let k = if p == P::CondScl {
                BaseType::Bool
            } else {
                BaseType::Int
            };
            want(scl(n)?, k, "second argument")?;
            match f {
                Ty::Fun(t1, t2) if t1 == t2 && subtype(x, t1) => (**t1).clone(),
                _ => return Err(format!("function {f} does not fit {x}")),
            }
        }
        (P::Compress, [b, a]) => {
            let ((x, r), (y, s)) = (arr(b)?, arr(a)?);
            want(x, BaseType::Bool, "mask")?;
            if r != s {
                return Err(format!("ranks {r} and {s}"));
            }
            arr_b(y, s)
        }
        (P::Replicate, [z, c, a]) => {
            let ((x, r), (y, s)) = (arr(c)?, arr(a)?);
            want(x, BaseType::Int, "counts")?;
            if r != s {
                return Err(format!("ranks {r} and {s}"));
            }
            arr_b(same(scl(z)?, y, "fill")?, s)
        }
        (P::IdxS, [d, i, a]) => {
            want(scl(d)?, BaseType::Int, "dimension")?;
            want(scl(i)?, BaseType::Int, "index")?;
            let (b, r) = arr(a)?;
            arr_b(b, (r - 1).max(0))
        }
        (P::Idxassign, [is, a, v]) => {
            let (b, r) = arr(a)?;
            same(scl(v)?, b, "value")?;
            match svec(is) {
                Some((k, n)) if n == r => want(k, BaseType::Int, "index")?,
                _ => return Err(format!("index {is} for rank {r}")),
            }
            arr_b(Some(BaseType::Bool), 0)
        }
        (P::GradeUp | P::GradeDown, [a]) => {
            if arr(a)?.1 != 1 {
                return Err(format!("{a} is not a vector"));
            }
            Ty::Arr(int, 1)
        }
        (_, [a]) if name.starts_with("prScl") || name.starts_with("prArr") => {
            let k = match name.as_bytes().last() {
                Some(b'I') => BaseType::Int,
                Some(b'B') => BaseType::Bool,
                Some(b'D') => BaseType::Double,
                Some(b'C') => BaseType::Char,
                _ => BaseType::Complex,
            };
            let (b, r) = arr(a)?;
            want(b, k, "printed value")?;
            if name.starts_with("prScl") && r != 0 {
                return Err(format!("{a} is not a scalar"));
            }
            a.clone()
        }
        (P::FormatI | P::FormatD | P::FormatX, [x]) => {
            let k = [(P::FormatI, BaseType::Int), (P::FormatD, BaseType::Double)]
                .iter()
                .find(|(q, _)| *q == p)
                .map_or(BaseType::Complex, |(_, k)| *k);
            want(scl(x)?, k, "formatted value")?;
            Ty::Arr(Some(BaseType::Char), 1)
        }
        (P::ReadFile | P::ReadIntVecFile | P::ReadDoubleVecFile, [s]) => {
            let (b, r) = arr(s)?;
            want(b, BaseType::Char, "file name")?;
            if r != 1 {
                return Err("file name must be a char vector".into());
            }
            let k = match p {
                P::ReadFile => BaseType::Char,
                P::ReadIntVecFile => BaseType::Int,
                _ => BaseType::Double,
            };
            Ty::Arr(Some(k), 1)
        }
        (P::Roll, [n]) => {
            want(scl(n)?, BaseType::Int, "roll")?;
            Ty::Arr(Some(BaseType::Double), 0)
        }
        (P::Nowi, [n]) => {
            want(scl(n)?, BaseType::Int, "nowi")?;
            Ty::Arr(int, 0)
        }
        _ => return Err("arguments do not fit".into()),
    })
}
