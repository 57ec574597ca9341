//! Meanings of the shape and structure operators (spec §5.8; thesis rules 3.34–3.46, corrected
//! where spec §4.4 marks a [thesis fix], and apltail's meaning where §9 lists a divergence).
//! Each function computes the result array of one operator from its argument arrays, or gives the
//! reason for `err`.

use super::scalar::Res;
use crate::tail::value::{product, to_idx, Array, BaseType, Buf, Elems, Scalar};

/// The elements of an int array, widened (for counts, shapes and permutations).
pub fn ints(a: &Array) -> Res<Vec<i64>> {
    match &a.elems {
        Elems::Int(b) => Ok(b.as_slice().iter().map(|&x| x as i64).collect()),
        Elems::Bool(b) => Ok(b.as_slice().iter().map(|&x| x as i64).collect()),
        e => Err(format!(
            "expected int elements, found {}",
            e.base_type().name()
        )),
    }
}

/// The single int of a scalar argument.
pub fn int_scalar(a: &Array) -> Res<i64> {
    match a.as_scalar() {
        Some(Scalar::Int(i)) => Ok(i as i64),
        Some(Scalar::Bool(b)) => Ok(b as i64),
        _ => Err("expected an int scalar".into()),
    }
}

fn with_shape(shape: Vec<usize>, elems: Elems) -> Array {
    Array { shape, elems }
}

/// The most elements one array may have (2^28): larger results are reported as `err` rather
/// than exhausting memory.
pub const MAX_ELEMENTS: usize = 1 << 28;

/// product(δ), or an error when it exceeds [`MAX_ELEMENTS`].
pub fn checked_size(shape: &[usize]) -> Res<usize> {
    match product(shape) {
        Some(n) if n <= MAX_ELEMENTS => Ok(n),
        _ => Err(format!(
            "array of shape [{}] exceeds the size limit of {MAX_ELEMENTS} elements",
            join(shape)
        )),
    }
}

/// (3.34)/(3.35) `iota(n)` = `[n](1,…,n)`; n < 0 is an error.
pub fn iota(n: i64) -> Res<Array> {
    if n < 0 {
        return Err(format!("iota of negative number {n}"));
    }
    checked_size(&[n as usize])?;
    Ok(Array::int_vec((1..=n as i32).collect()))
}

/// `shape(a)`: the vector of extents.
pub fn shape(a: &Array) -> Array {
    Array::int_vec(a.shape.iter().map(|&n| n as i32).collect())
}

/// (3.38)/(3.39), apltail's two-argument form: element i of the result is `a_(i mod N)`, or the
/// fill φ when a is empty. A negative extent is an error. The thesis text gives the result shape
/// δ; it is δ' (spec §4.4 [thesis fix]).
pub fn reshape(sh: &[i64], a: &Array) -> Res<Array> {
    if let Some(n) = sh.iter().find(|&&n| n < 0) {
        return Err(format!("reshape with negative extent {n}"));
    }
    let shape: Vec<usize> = sh.iter().map(|&n| n as usize).collect();
    let m = checked_size(&shape)?;
    let n = a.size();
    let elems = a
        .elems
        .gather((0..m).map(|i| if n > 0 { Some(i % n) } else { None }));
    Ok(with_shape(shape, elems))
}

/// `rav(a)`: the elements as a vector (storage shared).
pub fn rav(a: &Array) -> Array {
    with_shape(vec![a.size()], a.elems.clone())
}

/// Size of one row along the first axis, `q = s1·…·s(r−1)`.
fn row_size(a: &Array) -> usize {
    product(a.shape.get(1..).unwrap_or(&[])).unwrap_or(0)
}

/// (3.43)/(3.44) `take(n, a)` along the first axis, corrected (spec §4.4): n ≥ 0 keeps the first
/// |n| rows with fill after; n < 0 keeps the last |n| rows with fill in front (the thesis text
/// reverses the data). A scalar is treated as a 1-vector.
/// Thesis: `take(m, a, arr)` with an explicit fill argument a; apltail: `take(n, arr)`, the fill
/// φ of the element type (spec §9).
pub fn take(n: i64, a: &Array) -> Res<Array> {
    let v;
    let a = if a.rank() == 0 {
        v = rav(a);
        &v
    } else {
        a
    };
    let mut shape = a.shape.clone();
    shape[0] = n.unsigned_abs() as usize;
    let m = checked_size(&shape)?;
    let big_n = a.size() as i64;
    let elems = if n >= 0 {
        a.elems
            .gather((0..m as i64).map(|i| (i < big_n).then_some(i as usize)))
    } else {
        let o = m as i64 - big_n;
        a.elems
            .gather((0..m as i64).map(|i| (i >= o).then_some((i - o) as usize)))
    };
    Ok(with_shape(shape, elems))
}

/// `drop(n, a)` along the first axis (rule omitted by the thesis; spec §5.8): n ≥ 0 drops the
/// first n rows, n < 0 the last |n|. A scalar is returned unchanged.
pub fn drop(n: i64, a: &Array) -> Array {
    if a.rank() == 0 {
        return a.clone();
    }
    let q = row_size(a);
    let s0 = a.shape[0] as u64;
    let keep = s0.saturating_sub(n.unsigned_abs()) as usize;
    let mut shape = a.shape.clone();
    shape[0] = keep;
    let start = if n >= 0 { (s0 as usize - keep) * q } else { 0 };
    let elems = a.elems.gather((start..start + keep * q).map(Some));
    with_shape(shape, elems)
}

fn same_type(a: &Array, b: &Array) -> Res<()> {
    if a.base_type() == b.base_type() {
        Ok(())
    } else {
        Err(format!(
            "element types differ: {} and {}",
            a.base_type().name(),
            b.base_type().name()
        ))
    }
}

/// `cat(a, b)` along the last axis: ranks equal, extents equal except the last. Two scalars give
/// a 2-vector.
pub fn cat(a: &Array, b: &Array) -> Res<Array> {
    // An untyped empty side (spec §3.8) takes the other side's element type.
    if let Some(a2) = a.as_fills_of(b.base_type()).filter(|_| a.size() == 0) {
        return cat(&a2, b);
    }
    if let Some(b2) = b.as_fills_of(a.base_type()).filter(|_| b.size() == 0) {
        return cat(a, &b2);
    }
    same_type(a, b)?;
    if a.rank() != b.rank() {
        return Err(format!("cat of ranks {} and {}", a.rank(), b.rank()));
    }
    if a.rank() == 0 {
        let elems = a.elems.gather([Some(0)].into_iter());
        let both = cat_elems(&elems, &b.elems, 1, 1, 1);
        return Ok(with_shape(vec![2], both));
    }
    let r = a.rank();
    if a.shape[..r - 1] != b.shape[..r - 1] {
        return Err(format!(
            "cat of shapes [{}] and [{}]",
            join(&a.shape),
            join(&b.shape)
        ));
    }
    let (ma, mb) = (a.shape[r - 1], b.shape[r - 1]);
    let rows = product(&a.shape[..r - 1]).unwrap_or(0);
    let mut shape = a.shape.clone();
    shape[r - 1] = ma + mb;
    Ok(with_shape(
        shape,
        cat_elems(&a.elems, &b.elems, rows, ma, mb),
    ))
}

fn join(s: &[usize]) -> String {
    s.iter()
        .map(|n| n.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

/// Row-wise concatenation of `rows` rows of `ma` and `mb` elements (same element type).
fn cat_elems(a: &Elems, b: &Elems, rows: usize, ma: usize, mb: usize) -> Elems {
    fn go<T: Clone>(a: &Buf<T>, b: &Buf<T>, rows: usize, ma: usize, mb: usize) -> Buf<T> {
        let (a, b) = (a.as_slice(), b.as_slice());
        let mut out = Vec::with_capacity(rows * (ma + mb));
        for r in 0..rows {
            out.extend_from_slice(&a[r * ma..(r + 1) * ma]);
            out.extend_from_slice(&b[r * mb..(r + 1) * mb]);
        }
        Buf::from_vec(out)
    }
    match (a, b) {
        (Elems::Int(x), Elems::Int(y)) => Elems::Int(go(x, y, rows, ma, mb)),
        (Elems::Double(x), Elems::Double(y)) => Elems::Double(go(x, y, rows, ma, mb)),
        (Elems::Bool(x), Elems::Bool(y)) => Elems::Bool(go(x, y, rows, ma, mb)),
        (Elems::Char(x), Elems::Char(y)) => Elems::Char(go(x, y, rows, ma, mb)),
        (Elems::Complex(x), Elems::Complex(y)) => Elems::Complex(go(x, y, rows, ma, mb)),
        // Callers check the types first; an empty result is never observed.
        _ => Elems::empty(a.base_type()),
    }
}

/// Gives `x` (rank r−1) a trailing axis of length 1, as `cons`/`snoc` do.
fn as_column(x: &Array, a: &Array, op: &str) -> Res<Array> {
    if a.rank() == 0 || x.rank() + 1 != a.rank() {
        return Err(format!("{op} of ranks {} and {}", x.rank(), a.rank()));
    }
    let mut shape = x.shape.clone();
    shape.push(1);
    Ok(with_shape(shape, x.elems.clone()))
}

/// `cons(x, a)`: x is put in front of a along the last axis (a column for a matrix).
pub fn cons(x: &Array, a: &Array) -> Res<Array> {
    cat(&as_column(x, a, "cons")?, a)
}

/// `snoc(a, x)`: x is put after a along the last axis.
pub fn snoc(a: &Array, x: &Array) -> Res<Array> {
    cat(a, &as_column(x, a, "snoc")?)
}

/// (3.45)/(3.46) `first(a)`: the first element, or the fill φ when a is empty.
/// Thesis: `first(a, arr)` returns its explicit fill argument a for an empty array; apltail's
/// one-argument `first` returns φ (spec §9).
pub fn first(a: &Array) -> Array {
    Array::scalar(if a.size() > 0 {
        a.elems.get(0)
    } else {
        a.fill()
    })
}

/// Floored `n mod m` in `[0, m)`.
fn rot_amount(n: i64, m: usize) -> usize {
    n.rem_euclid(m as i64) as usize
}

/// `rotate(n, a)` along the last axis: every row turns left by n mod m.
pub fn rotate(n: i64, a: &Array) -> Array {
    let m = a.shape.last().copied().unwrap_or(0);
    if a.rank() == 0 || m == 0 {
        return a.clone();
    }
    let k = rot_amount(n, m);
    let elems = a
        .elems
        .gather((0..a.size()).map(|i| Some(i - i % m + (i % m + k) % m)));
    with_shape(a.shape.clone(), elems)
}

/// `vrotate(n, a)` along the first axis: the rows turn by n mod s0.
pub fn vrotate(n: i64, a: &Array) -> Array {
    if a.rank() == 0 || a.shape[0] == 0 {
        return a.clone();
    }
    let (s0, q) = (a.shape[0], row_size(a));
    let k = rot_amount(n, s0);
    let elems = a
        .elems
        .gather((0..a.size()).map(|i| Some(((i / q + k) % s0) * q + i % q)));
    with_shape(a.shape.clone(), elems)
}

/// `vreverse(a)`: the rows along the first axis in reverse order.
pub fn vreverse(a: &Array) -> Array {
    if a.rank() == 0 {
        return a.clone();
    }
    let (s0, q) = (a.shape[0], row_size(a));
    let elems = a
        .elems
        .gather((0..a.size()).map(|i| Some((s0 - 1 - i / q) * q + i % q)));
    with_shape(a.shape.clone(), elems)
}

/// Permutes axes: result axis `perm[i]` is argument axis i (0-based, a permutation).
fn permute_axes(a: &Array, perm: &[usize]) -> Array {
    let r = a.rank();
    let mut shape = vec![0; r];
    for i in 0..r {
        shape[perm[i]] = a.shape[i];
    }
    // Strides of the argument, in result-axis order.
    let mut arg_strides = vec![1usize; r];
    for i in (0..r.saturating_sub(1)).rev() {
        arg_strides[i] = arg_strides[i + 1] * a.shape[i + 1];
    }
    let mut res_strides = vec![0usize; r];
    for i in 0..r {
        res_strides[perm[i]] = arg_strides[i];
    }
    let n = a.size();
    let elems = a.elems.gather((0..n).map(|j| {
        let idx = to_idx(&shape, j);
        Some(idx.iter().zip(&res_strides).map(|(x, s)| x * s).sum())
    }));
    with_shape(shape, elems)
}

/// (3.40) `transp(a)`: the axes in reverse order, `result[j⃗] = a[rev(j⃗)]` (corrected: the text
/// composes the index maps the other way and keeps the shape δ).
pub fn transp(a: &Array) -> Array {
    let r = a.rank();
    let perm: Vec<usize> = (0..r).map(|i| r - 1 - i).collect();
    permute_axes(a, &perm)
}

/// (3.41)/(3.42) `transp2(p, a)`, apltail's reading: p is a 1-based permutation and axis i of a
/// becomes axis p_i of the result. Thesis: 0-based `exchange`, result axis j ← argument axis p_j;
/// the two agree on swaps but not on 3-cycles (spec §4.4). A p of the wrong length or that is not
/// a permutation is an error (3.42).
pub fn transp2(p: &[i64], a: &Array) -> Res<Array> {
    let r = a.rank();
    if p.len() != r {
        return Err(format!(
            "transp2: permutation of length {} for an array of rank {r}",
            p.len()
        ));
    }
    let mut seen = vec![false; r];
    let mut perm = Vec::with_capacity(r);
    for &x in p {
        if x < 1 || x as usize > r || seen[x as usize - 1] {
            return Err(format!(
                "transp2: [{}] is not a permutation of 1..{r}",
                p.iter()
                    .map(|x| x.to_string())
                    .collect::<Vec<_>>()
                    .join(",")
            ));
        }
        seen[x as usize - 1] = true;
        perm.push(x as usize - 1);
    }
    Ok(permute_axes(a, &perm))
}

/// An empty array of the given element type and shape (shape with a zero extent).
pub fn empty(ty: BaseType, shape: Vec<usize>) -> Array {
    with_shape(shape, Elems::empty(ty))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tail::print_value::array_text;

    fn iv(v: &[i32]) -> Array {
        Array::int_vec(v.to_vec())
    }
    fn m(sh: &[i64], v: &[i32]) -> Array {
        reshape(sh, &iv(v)).unwrap()
    }
    fn flat(a: &Array) -> String {
        let t: Vec<String> = (0..a.size())
            .map(|i| crate::tail::print_value::scalar_text(a.elems.get(i)))
            .collect();
        format!("[{}]({})", join(&a.shape), t.join(","))
    }

    #[test]
    fn iota_shape_reshape() {
        assert_eq!(flat(&iota(4).unwrap()), "[4](1,2,3,4)");
        assert!(iota(-1).is_err());
        assert!(iota(i32::MAX as i64).is_err());
        assert!(take(2_000_000_000, &iv(&[1])).is_err());
        assert_eq!(flat(&m(&[2, 3], &[1, 2])), "[2,3](1,2,1,2,1,2)");
        assert_eq!(flat(&reshape(&[], &iv(&[7, 8])).unwrap()), "[](7)");
        assert!(reshape(&[-1], &iv(&[1])).is_err());
        assert_eq!(flat(&reshape(&[2], &iv(&[])).unwrap()), "[2](0,0)");
        assert_eq!(flat(&shape(&m(&[2, 3], &[1]))), "[2](2,3)");
    }

    #[test]
    fn take_and_drop() {
        let v = iv(&[1, 2, 3, 4]);
        assert_eq!(flat(&take(2, &v).unwrap()), "[2](1,2)");
        assert_eq!(flat(&take(-2, &v).unwrap()), "[2](3,4)");
        assert_eq!(flat(&take(6, &v).unwrap()), "[6](1,2,3,4,0,0)");
        assert_eq!(flat(&take(-6, &v).unwrap()), "[6](0,0,1,2,3,4)");
        assert_eq!(flat(&take(0, &v).unwrap()), "[0]()");
        assert_eq!(
            flat(&take(3, &Array::scalar(Scalar::Double(7.5))).unwrap()),
            "[3](7.5,0.0,0.0)"
        );
        assert_eq!(
            flat(&take(-3, &m(&[2, 2], &[1, 2, 3, 4])).unwrap()),
            "[3,2](0,0,1,2,3,4)"
        );
        assert_eq!(
            flat(&take(-1, &m(&[2, 3], &[1, 2, 3, 4, 5, 6])).unwrap()),
            "[1,3](4,5,6)"
        );
        assert_eq!(flat(&drop(1, &v)), "[3](2,3,4)");
        assert_eq!(flat(&drop(-1, &v)), "[3](1,2,3)");
        assert_eq!(flat(&drop(5, &v)), "[0]()");
        assert_eq!(
            flat(&drop(1, &m(&[3, 2], &[1, 2, 3, 4, 5, 6]))),
            "[2,2](3,4,5,6)"
        );
        assert_eq!(flat(&drop(-1, &Array::scalar(Scalar::Int(5)))), "[](5)");
    }

    #[test]
    fn cat_cons_snoc_first() {
        assert_eq!(
            flat(&cat(&iv(&[1, 2]), &iv(&[3, 4, 5])).unwrap()),
            "[5](1,2,3,4,5)"
        );
        assert_eq!(
            flat(&cat(&m(&[2, 2], &[1, 2, 3, 4]), &m(&[2, 1], &[8, 9])).unwrap()),
            "[2,3](1,2,8,3,4,9)"
        );
        assert!(cat(&m(&[2, 2], &[1]), &m(&[3, 1], &[1])).is_err());
        let one = Array::scalar(Scalar::Int(1));
        assert_eq!(flat(&cat(&one, &one).unwrap()), "[2](1,1)");
        let d = Array::scalar(Scalar::Double(1.5));
        assert_eq!(flat(&cat(&iv(&[]), &rav(&d)).unwrap()), "[1](1.5)");
        assert_eq!(
            flat(&cons(&Array::scalar(Scalar::Int(0)), &iv(&[1, 2])).unwrap()),
            "[3](0,1,2)"
        );
        assert_eq!(
            flat(&cons(&iv(&[0, 0]), &m(&[2, 2], &[1, 2, 3, 4])).unwrap()),
            "[2,3](0,1,2,0,3,4)"
        );
        assert_eq!(
            flat(&snoc(&m(&[2, 2], &[1, 2, 3, 4]), &iv(&[8, 9])).unwrap()),
            "[2,3](1,2,8,3,4,9)"
        );
        assert!(cons(&iv(&[1, 2, 3]), &m(&[2, 2], &[1])).is_err());
        assert_eq!(flat(&first(&m(&[2, 2], &[5, 6, 7, 8]))), "[](5)");
        assert_eq!(flat(&first(&iv(&[]))), "[](0)");
    }

    #[test]
    fn rotations_and_transpositions() {
        let v = iv(&[1, 2, 3, 4, 5]);
        assert_eq!(flat(&rotate(1, &v)), "[5](2,3,4,5,1)");
        assert_eq!(flat(&rotate(-1, &v)), "[5](5,1,2,3,4)");
        assert_eq!(flat(&rotate(7, &v)), "[5](3,4,5,1,2)");
        let m23 = m(&[2, 3], &[1, 2, 3, 4, 5, 6]);
        assert_eq!(flat(&rotate(1, &m23)), "[2,3](2,3,1,5,6,4)");
        let m32 = m(&[3, 2], &[1, 2, 3, 4, 5, 6]);
        assert_eq!(flat(&vrotate(1, &m32)), "[3,2](3,4,5,6,1,2)");
        assert_eq!(flat(&vrotate(-1, &m32)), "[3,2](5,6,1,2,3,4)");
        assert_eq!(flat(&vrotate(-6, &v)), "[5](5,1,2,3,4)");
        assert_eq!(flat(&vreverse(&m32)), "[3,2](5,6,3,4,1,2)");
        assert_eq!(flat(&transp(&m23)), "[3,2](1,4,2,5,3,6)");
        let c = reshape(&[2, 3, 2], &iota(12).unwrap()).unwrap();
        assert_eq!(flat(&transp(&c)), "[2,3,2](1,7,3,9,5,11,2,8,4,10,6,12)");
        let c24 = reshape(&[2, 3, 4], &iota(24).unwrap()).unwrap();
        assert_eq!(
            flat(&transp2(&[2, 3, 1], &c24).unwrap()),
            "[4,2,3](1,5,9,13,17,21,2,6,10,14,18,22,3,7,11,15,19,23,4,8,12,16,20,24)"
        );
        assert_eq!(
            flat(&transp2(&[3, 1, 2], &c24).unwrap()),
            "[3,4,2](1,13,2,14,3,15,4,16,5,17,6,18,7,19,8,20,9,21,10,22,11,23,12,24)"
        );
        assert!(transp2(&[1, 1], &m23).is_err());
        assert!(transp2(&[1], &m23).is_err());
        assert_eq!(
            array_text(&transp2(&[2, 1], &m23).unwrap()),
            array_text(&transp(&m23))
        );
    }
}
