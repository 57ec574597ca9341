//! The structural productions of the TAIL generator: shape operators (reshape, transpositions,
//! take, drop, rotations, reversal, cat, cons/snoc, shape/rav, idxS, first), selection (grading,
//! compress, replicate), the empty vector, `if` and tuples. Each computes its value as spec
//! tail.md §5.8–5.10 defines it.

use super::{Gen, Ty, Val};

impl Gen<'_> {
    pub(super) fn reshape(&mut self) -> Option<(String, Val)> {
        let (name, v) = self.pick(|v| v.rank() >= 1)?;
        let shape = if self.rng.chance(75) {
            vec![self.rng.range(1, 4), self.rng.range(1, 4)]
        } else {
            vec![self.rng.range(1, 9)]
        };
        let m: usize = shape.iter().product();
        let data = (0..m).map(|i| v.data[i % v.data.len()]).collect();
        let sh: Vec<String> = shape.iter().map(|s| s.to_string()).collect();
        Some((
            format!("reshape([{}],{name})", sh.join(",")),
            Val {
                ty: v.ty,
                shape,
                data,
            },
        ))
    }
    pub(super) fn transpose(&mut self) -> Option<(String, Val)> {
        let (name, v) = self.pick(|v| v.rank() == 2)?;
        let (r, c) = (v.shape[0], v.shape[1]);
        let data = (0..r * c).map(|i| v.data[(i % r) * c + i / r]).collect();
        let text = if self.rng.chance(50) {
            format!("transp({name})")
        } else {
            format!("transp2([2,1],{name})")
        };
        Some((
            text,
            Val {
                ty: v.ty,
                shape: vec![c, r],
                data,
            },
        ))
    }
    pub(super) fn take(&mut self) -> Option<(String, Val)> {
        let (name, v) = self.pick(|v| v.rank() >= 1)?;
        let s0 = v.shape[0];
        let n = self.rng.range(1, s0 + 2) as i64 * if self.rng.chance(30) { -1 } else { 1 };
        Some((format!("take({n},{name})"), take_val(&v, n)))
    }
    pub(super) fn drop(&mut self) -> Option<(String, Val)> {
        let (name, v) = self.pick(|v| v.rank() >= 1 && v.shape[0] >= 2)?;
        let k = self.rng.range(1, v.shape[0] - 1) as i64;
        let n = k * if self.rng.chance(30) { -1 } else { 1 };
        Some((format!("drop({n},{name})"), drop_val(&v, n)))
    }
    pub(super) fn rotate(&mut self) -> Option<(String, Val)> {
        let (name, v) = self.pick(|v| v.rank() >= 1)?;
        let n = self.rng.range(0, 10) as i64 - 5;
        Some((format!("rotate({n},{name})"), rotate_val(&v, n)))
    }
    pub(super) fn vreverse(&mut self) -> Option<(String, Val)> {
        let (name, v) = self.pick(|v| v.rank() >= 1)?;
        let q = v.data.len() / v.shape[0];
        let data = v.data.chunks(q).rev().flatten().copied().collect();
        Some((
            format!("vreverse({name})"),
            Val {
                ty: v.ty,
                shape: v.shape.clone(),
                data,
            },
        ))
    }
    pub(super) fn cat(&mut self) -> Option<(String, Val)> {
        // matrices of several rows half the time: a row-major `cat` of two widths is where a
        // lowering mixes up the strides of its operands (the fault `tail-cat-stride`)
        let rows = |v: &Val| v.rank() == 2 && v.shape[0] >= 2;
        let (mut a_name, mut a) = self.pick_preferring(rows, |v| v.rank() >= 1)?;
        if a.rank() == 1 && self.rng.chance(60) {
            // matrices are rare where a `cat` is drawn: make one of the vector
            let (r, c) = (self.rng.range(2, 3), self.rng.range(1, 3));
            (a_name, a) = self.reshaped(&a_name, &a, r, c);
        }
        let (b_name, b) = if rows(&a) && self.rng.chance(50) {
            self.wider(&a_name, &a)
        } else {
            self.pick(|v| {
                v.ty == a.ty
                    && v.rank() == a.rank()
                    && v.shape[..v.rank() - 1] == a.shape[..a.rank() - 1]
            })
            .unwrap_or((a_name.clone(), a.clone()))
        };
        let (ma, mb) = (*a.shape.last()?, *b.shape.last()?);
        let data = a
            .data
            .chunks(ma)
            .zip(b.data.chunks(mb))
            .flat_map(|(x, y)| x.iter().chain(y).copied())
            .collect();
        let mut shape = a.shape.clone();
        *shape.last_mut()? = ma + mb;
        Some((
            format!("cat({a_name},{b_name})"),
            Val {
                ty: a.ty,
                shape,
                data,
            },
        ))
    }
    /// A matrix of `a`'s type with as many rows as `a` and one or two columns more. Its
    /// elements are all different where the type allows (`1..r*c`), so that a row read at the
    /// wrong stride shows in the output.
    fn wider(&mut self, name: &str, a: &Val) -> (String, Val) {
        let (r, c) = (a.shape[0], a.shape[1] + self.rng.range(1, 2));
        let count = (1..=r * c).map(|i| i as f64).collect();
        let (text, data) = match a.ty {
            Ty::Int => (format!("iota({})", r * c), count),
            Ty::Double => {
                let x = self.fresh();
                let text = format!("each(fn {x}:[int]0 => i2d({x}),iota({}))", r * c);
                (text, count)
            }
            _ => return self.reshaped(name, a, r, c),
        };
        let v = Val {
            ty: a.ty,
            shape: vec![r, c],
            data,
        };
        (format!("reshape([{r},{c}],{text})"), v)
    }

    /// `reshape([r,c],a)` as an expression, with its value.
    fn reshaped(&mut self, name: &str, a: &Val, r: usize, c: usize) -> (String, Val) {
        let data = (0..r * c).map(|i| a.data[i % a.data.len()]).collect();
        let v = Val {
            ty: a.ty,
            shape: vec![r, c],
            data,
        };
        (format!("reshape([{r},{c}],{name})"), v)
    }
    pub(super) fn idx_s(&mut self) -> Option<(String, Val)> {
        let (name, v) = self.pick(|v| v.rank() >= 1)?;
        let d = self.rng.range(1, v.rank());
        let i = self.rng.range(1, v.shape[d - 1]);
        let (shape, data) = if v.rank() == 1 {
            (Vec::new(), vec![v.data[i - 1]])
        } else if d == 1 {
            let c = v.shape[1];
            (vec![c], v.data[(i - 1) * c..i * c].to_vec())
        } else {
            let (r, c) = (v.shape[0], v.shape[1]);
            (vec![r], (0..r).map(|row| v.data[row * c + i - 1]).collect())
        };
        Some((
            format!("idxS({d},{i},{name})"),
            Val {
                ty: v.ty,
                shape,
                data,
            },
        ))
    }
    pub(super) fn first(&mut self) -> Option<(String, Val)> {
        let (name, v) = self.pick(|v| v.rank() >= 1)?;
        let data = vec![v.data[0]];
        Some((
            format!("first({name})"),
            Val {
                ty: v.ty,
                shape: Vec::new(),
                data,
            },
        ))
    }
    /// `vrotate(n, a)`: the rows along the first axis move up by `n` (floored modulo).
    pub(super) fn vrotate(&mut self) -> Option<(String, Val)> {
        let (name, v) = self.pick(|v| v.rank() >= 1)?;
        let n = self.rng.range(0, 8) as i64 - 4;
        let s0 = v.shape[0];
        let q = v.data.len() / s0;
        let k = n.rem_euclid(s0 as i64) as usize;
        let data = (0..s0)
            .flat_map(|j| v.data[((j + k) % s0) * q..((j + k) % s0 + 1) * q].to_vec())
            .collect();
        Some((
            format!("vrotate({n},{name})"),
            Val {
                ty: v.ty,
                shape: v.shape.clone(),
                data,
            },
        ))
    }
    /// `cons(x, a)` or `snoc(a, x)`: x (one rank lower, one element per row) prepended or
    /// appended along the last axis.
    pub(super) fn cons_snoc(&mut self) -> Option<(String, Val)> {
        let (a_name, a) = self.pick(|v| v.rank() >= 1)?;
        let rows = a.data.len() / a.shape[a.rank() - 1];
        let (x_name, x) =
            self.pick(|v| v.ty == a.ty && v.rank() + 1 == a.rank() && v.data.len() == rows)?;
        let m = a.shape[a.rank() - 1];
        let front = self.rng.chance(50);
        let data = a
            .data
            .chunks(m)
            .zip(&x.data)
            .flat_map(|(row, &e)| {
                let mut r = row.to_vec();
                if front {
                    r.insert(0, e)
                } else {
                    r.push(e)
                }
                r
            })
            .collect();
        let mut shape = a.shape.clone();
        shape[a.rank() - 1] += 1;
        let text = if front {
            format!("cons({x_name},{a_name})")
        } else {
            format!("snoc({a_name},{x_name})")
        };
        Some((
            text,
            Val {
                ty: a.ty,
                shape,
                data,
            },
        ))
    }
    /// `shape(a)` or `rav(a)`.
    pub(super) fn shape_rav(&mut self) -> Option<(String, Val)> {
        let (name, v) = self.pick(|v| v.rank() >= 1)?;
        Some(if self.rng.chance(50) {
            (
                format!("shape({name})"),
                Val {
                    ty: Ty::Int,
                    shape: vec![v.rank()],
                    data: v.shape.iter().map(|&s| s as f64).collect(),
                },
            )
        } else {
            (
                format!("rav({name})"),
                Val {
                    ty: v.ty,
                    shape: vec![v.data.len()],
                    data: v.data.clone(),
                },
            )
        })
    }
    /// `gradeUp(a)` or `gradeDown(a)` of a vector: the 1-based stable sorting permutation.
    pub(super) fn grade(&mut self) -> Option<(String, Val)> {
        let (name, v) = self.pick_any(|v| v.rank() == 1 && v.ty != Ty::Complex)?;
        let up = self.rng.chance(50);
        let idx = grade_of(&v.data, up);
        Some((
            format!("{}({name})", if up { "gradeUp" } else { "gradeDown" }),
            Val {
                ty: Ty::Int,
                shape: vec![idx.len()],
                data: idx.iter().map(|&i| (i + 1) as f64).collect(),
            },
        ))
    }
    /// `compress(b, a)` of vectors of one length, `b` selecting at least one element.
    pub(super) fn compress(&mut self) -> Option<(String, Val)> {
        let (b_name, b) = self.pick(|v| v.ty == Ty::Bool && v.rank() == 1)?;
        if !b.data.iter().any(|&x| x != 0.0) {
            return None;
        }
        let (a_name, a) = self.pick(|v| v.rank() == 1 && v.data.len() == b.data.len())?;
        let data: Vec<f64> = a
            .data
            .iter()
            .zip(&b.data)
            .filter(|(_, &keep)| keep != 0.0)
            .map(|(&x, _)| x)
            .collect();
        Some((
            format!("compress({b_name},{a_name})"),
            Val {
                ty: a.ty,
                shape: vec![data.len()],
                data,
            },
        ))
    }
    /// `replicate(z, c, a)` of a vector with a literal count vector: `c_i` copies of `a_i`, or
    /// `|c_i|` fill elements when negative.
    pub(super) fn replicate(&mut self) -> Option<(String, Val)> {
        let (name, v) = self.pick(|v| v.rank() == 1)?;
        let counts: Vec<i64> = (0..v.data.len())
            .map(|_| self.rng.range(0, 3) as i64 - 1)
            .collect();
        if counts.iter().all(|&c| c == 0) {
            return None;
        }
        let mut data = Vec::new();
        for (&c, &x) in counts.iter().zip(&v.data) {
            let e = if c >= 0 { x } else { v.fill() };
            data.extend(std::iter::repeat_n(e, c.unsigned_abs() as usize));
        }
        let text: Vec<String> = counts.iter().map(|c| c.to_string()).collect();
        // the unused first argument has the element type
        let z = match v.ty {
            Ty::Int => "0",
            Ty::Double => "0.0",
            Ty::Bool => "ff",
            Ty::Char => "' '",
            Ty::Complex => "0.0j0.0",
        };
        Some((
            format!("replicate({z},[{}],{name})", text.join(",")),
            Val {
                ty: v.ty,
                shape: vec![data.len()],
                data,
            },
        ))
    }
    /// The empty vector: `cat(zilde(), v)` (v itself) or `reshape([n], zilde())` (n fill
    /// elements of v's type).
    pub(super) fn empty_vector(&mut self) -> Option<(String, Val)> {
        let (name, v) = self.pick(|v| v.rank() == 1)?;
        if self.rng.chance(50) {
            return Some((format!("cat(zilde(),{name})"), v));
        }
        let n = self.rng.range(1, 4);
        // the element type comes from the binding's annotation
        Some((
            "reshape([".to_string() + &n.to_string() + "],zilde())",
            Val {
                ty: v.ty,
                shape: vec![n],
                data: vec![v.fill(); n],
            },
        ))
    }
    /// `if b then x else y` with a bool scalar (or literal) `b`, `x` and `y` of one type.
    pub(super) fn conditional(&mut self) -> Option<(String, Val)> {
        let (x_name, x) = self.pick_any(|_| true)?;
        let (y_name, y) = self.pick_any(|v| v.ty == x.ty && v.shape == x.shape)?;
        let (b, cond) = match self.pick(|v| v.rank() == 0 && v.ty == Ty::Bool) {
            Some((b, bv)) => (b, bv.data[0] != 0.0),
            None => {
                let c = self.rng.chance(50);
                ((if c { "tt" } else { "ff" }).to_string(), c)
            }
        };
        let v = if cond { x } else { y };
        Some((format!("if {b} then {x_name} else {y_name}"), v))
    }
    /// `Prj(i, (x, y))`: a tuple and a projection.
    pub(super) fn projection(&mut self) -> Option<(String, Val)> {
        let (x_name, x) = self.pick_any(|_| true)?;
        let (y_name, y) = self.pick_any(|_| true)?;
        let i = self.rng.range(0, 1);
        let v = if i == 0 { x } else { y };
        Some((format!("Prj({i},({x_name},{y_name}))"), v))
    }
}

/// `take(n, v)` (spec §5.8): the first (n ≥ 0) or last (n < 0) |n| rows, padded with fill
/// elements.
pub(super) fn take_val(v: &Val, n: i64) -> Val {
    let q = v.data.len() / v.shape[0];
    let rows = n.unsigned_abs() as usize;
    let m = rows * q;
    let data: Vec<f64> = if n >= 0 {
        (0..m)
            .map(|i| v.data.get(i).copied().unwrap_or(v.fill()))
            .collect()
    } else {
        let o = m as i64 - v.data.len() as i64;
        (0..m as i64)
            .map(|i| {
                if i >= o {
                    v.data[(i - o) as usize]
                } else {
                    v.fill()
                }
            })
            .collect()
    };
    let mut shape = v.shape.clone();
    shape[0] = rows;
    Val {
        ty: v.ty,
        shape,
        data,
    }
}

/// `drop(n, v)` (spec §5.8) for |n| below the first extent: the rows after the first n (n ≥ 0)
/// or before the last |n|.
pub(super) fn drop_val(v: &Val, n: i64) -> Val {
    let s0 = v.shape[0];
    let q = v.data.len() / s0;
    let k = (n.unsigned_abs() as usize).min(s0);
    let data = if n >= 0 {
        v.data[k * q..].to_vec()
    } else {
        v.data[..(s0 - k) * q].to_vec()
    };
    let mut shape = v.shape.clone();
    shape[0] = s0 - k;
    Val {
        ty: v.ty,
        shape,
        data,
    }
}

/// `rotate(n, v)` (spec §5.8): each row along the last axis moves left by n (floored modulo).
pub(super) fn rotate_val(v: &Val, n: i64) -> Val {
    let m = v.shape[v.rank() - 1];
    let k = n.rem_euclid(m as i64) as usize;
    let data = v
        .data
        .chunks(m)
        .flat_map(|row| (0..m).map(move |j| row[(j + k) % m]))
        .collect();
    Val {
        ty: v.ty,
        shape: v.shape.clone(),
        data,
    }
}

/// The 0-based stable sorting permutation of `xs`, ascending or descending: ties keep ascending
/// index order in both directions (spec §5.10).
pub(super) fn grade_of(xs: &[f64], up: bool) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..xs.len()).collect();
    idx.sort_by(|&i, &j| {
        // IEEE order: -0.0 ties with 0.0 (generated values are never NaN)
        let o = xs[i]
            .partial_cmp(&xs[j])
            .unwrap_or(std::cmp::Ordering::Equal);
        if up {
            o
        } else {
            o.reverse()
        }
    });
    idx
}
