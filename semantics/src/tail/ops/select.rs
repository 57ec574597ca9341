//! Meanings of the selection, ordering and mutation operators (spec §5.10–§5.11): `compress`,
//! `replicate`, `idxS` (thesis `index`), `gradeUp`/`gradeDown`, and `idxassign` (thesis `update`,
//! rules 3.57/3.58).

use super::scalar::Res;
use crate::tail::value::{from_idx, product, Array, Elems, Scalar};

fn vector_pair(op: &str, a: &Array, b: &Array) -> Res<usize> {
    if a.rank() != 1 || b.rank() != 1 {
        return Err(format!(
            "{op} works on vectors only (ranks {} and {})",
            a.rank(),
            b.rank()
        ));
    }
    if a.size() != b.size() {
        return Err(format!("{op} of lengths {} and {}", a.size(), b.size()));
    }
    Ok(a.size())
}

/// `compress(b, a)`: the a_i whose b_i is tt. apltail: vectors of equal length only (the thesis
/// allows any rank).
pub fn compress(b: &Array, a: &Array) -> Res<Array> {
    let n = vector_pair("compress", b, a)?;
    let bits: Vec<bool> = match &b.elems {
        Elems::Bool(v) => v.as_slice().to_vec(),
        Elems::Int(v) => v.as_slice().iter().map(|&x| x != 0).collect(),
        _ => return Err("compress: the mask must be boolean".into()),
    };
    let idx: Vec<Option<usize>> = (0..n).filter(|&i| bits[i]).map(Some).collect();
    Ok(Array {
        shape: vec![idx.len()],
        elems: a.elems.gather(idx.into_iter()),
    })
}

/// `replicate(z, c, a)` (z is never evaluated, spec trap 13): c_i ≥ 0 copies of a_i, or |c_i|
/// fills for a negative count. Vectors of equal length only.
pub fn replicate(c: &Array, a: &Array) -> Res<Array> {
    let n = vector_pair("replicate", c, a)?;
    let counts = super::shape::ints(c)?;
    let total: i64 = counts.iter().map(|c| c.abs()).sum();
    if total as usize > super::shape::MAX_ELEMENTS {
        return Err("replicate: result exceeds the size limit".into());
    }
    let mut idx = Vec::with_capacity(total as usize);
    for (i, &k) in counts.iter().enumerate().take(n) {
        let pick = (k >= 0).then_some(i);
        idx.extend(std::iter::repeat_n(pick, k.unsigned_abs() as usize));
    }
    Ok(Array {
        shape: vec![idx.len()],
        elems: a.elems.gather(idx.into_iter()),
    })
}

/// `idxS(d, i, a)`: the slice at 1-based position i along 1-based axis d; errors when d or i is
/// out of range.
pub fn idx_s(d: i64, i: i64, a: &Array) -> Res<Array> {
    let r = a.rank();
    if d < 1 || d as usize > r {
        return Err(format!("idxS: dimension {d} outside 1..{r}"));
    }
    let d = d as usize - 1;
    let sd = a.shape[d];
    if i < 1 || i as usize > sd {
        return Err(format!("idxS: index {i} out of bounds 1..{sd}"));
    }
    let i = i as usize - 1;
    let outer = product(&a.shape[..d]).unwrap_or(0);
    let inner = product(&a.shape[d + 1..]).unwrap_or(0);
    let idx = (0..outer).flat_map(move |o| (0..inner).map(move |k| Some((o * sd + i) * inner + k)));
    let mut shape = a.shape.clone();
    shape.remove(d);
    Ok(Array {
        shape,
        elems: a.elems.gather(idx),
    })
}

/// `gradeUp(a)` / `gradeDown(a)`: the 1-based permutation that sorts a vector, stable in both
/// directions (ties keep ascending index order). Complex elements are an error.
pub fn grade(a: &Array, down: bool) -> Res<Array> {
    if a.rank() != 1 {
        return Err(format!("grade of an array of rank {}", a.rank()));
    }
    let n = a.size();
    let key = |i: usize| -> Res<f64> {
        Ok(match a.elems.get(i) {
            Scalar::Int(x) => x as f64,
            Scalar::Double(x) => x,
            Scalar::Bool(b) => b as i32 as f64,
            Scalar::Char(c) => c as f64,
            Scalar::Complex(_) => return Err("grade of complex numbers".into()),
        })
    };
    let keys = (0..n).map(key).collect::<Res<Vec<f64>>>()?;
    let mut perm: Vec<usize> = (0..n).collect();
    // IEEE `<`; sort_by is stable, so ties keep index order in both directions.
    perm.sort_by(|&x, &y| {
        let (kx, ky) = (keys[x], keys[y]);
        let (lo, hi) = if down { (ky, kx) } else { (kx, ky) };
        if lo < hi {
            std::cmp::Ordering::Less
        } else if hi < lo {
            std::cmp::Ordering::Greater
        } else {
            std::cmp::Ordering::Equal
        }
    });
    Ok(Array::int_vec(
        perm.into_iter().map(|i| i as i32 + 1).collect(),
    ))
}

/// (3.57)/(3.58) `idxassign(is, a, v)` (thesis `update(a, is, v)`): the flat position of the
/// 1-based index vector `is` in a. Thesis: `j = fromIdx(i⃗ − 1) < m` (its `x+1` is a typo, spec
/// §4.5). apltail checks each component's upper bound and only the first component's lower bound;
/// following the spec's recommendation every component must lie in 1..s_k.
pub fn update_position(is: &[i64], shape: &[usize]) -> Res<usize> {
    if is.len() != shape.len() {
        return Err(format!(
            "idxassign: index of length {} for an array of rank {}",
            is.len(),
            shape.len()
        ));
    }
    let mut idx = Vec::with_capacity(is.len());
    for (&i, &s) in is.iter().zip(shape) {
        if i < 1 || i as u64 > s as u64 {
            return Err(format!("idxassign: index {i} out of bounds 1..{s}"));
        }
        idx.push(i as usize - 1);
    }
    Ok(from_idx(shape, &idx))
}

/// Writes `v` at flat position `j` of `a` in place (3.57's `s[l_arr ↦ …]`).
pub fn write_element(a: &mut Array, j: usize, v: Scalar) -> Res<()> {
    match (&mut a.elems, v) {
        (Elems::Int(b), Scalar::Int(x)) => b.make_mut()[j] = x,
        (Elems::Double(b), Scalar::Double(x)) => b.make_mut()[j] = x,
        (Elems::Bool(b), Scalar::Bool(x)) => b.make_mut()[j] = x,
        (Elems::Char(b), Scalar::Char(x)) => b.make_mut()[j] = x,
        (Elems::Complex(b), Scalar::Complex(x)) => b.make_mut()[j] = x,
        (e, v) => {
            return Err(format!(
                "idxassign: a {} value into a {} array",
                v.base_type().name(),
                e.base_type().name()
            ))
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tail::print_value::array_text;
    use crate::tail::value::Buf;

    fn iv(v: &[i32]) -> Array {
        Array::int_vec(v.to_vec())
    }
    fn bv(v: &[bool]) -> Array {
        Array {
            shape: vec![v.len()],
            elems: Elems::Bool(Buf::from_vec(v.to_vec())),
        }
    }

    #[test]
    fn compress_and_replicate() {
        let r = compress(&bv(&[true, false, true]), &iv(&[1, 2, 3])).unwrap();
        assert_eq!(array_text(&r), "[2](1,3)");
        assert!(compress(&bv(&[true, false]), &iv(&[1, 2, 3])).is_err());
        assert_eq!(
            array_text(&replicate(&iv(&[2, 0, 1]), &iv(&[7, 8, 9])).unwrap()),
            "[3](7,7,9)"
        );
        assert_eq!(
            array_text(&replicate(&iv(&[-2, 1]), &iv(&[7, 8])).unwrap()),
            "[3](0,0,8)"
        );
    }

    #[test]
    fn idx_s_slices() {
        let m = super::super::shape::reshape(&[2, 3], &iv(&[1, 2, 3, 4, 5, 6])).unwrap();
        assert_eq!(
            array_text(&idx_s(1, 2, &iv(&[10, 20, 30])).unwrap()),
            "[](20)"
        );
        assert_eq!(array_text(&idx_s(1, 2, &m).unwrap()), "[3](4,5,6)");
        assert_eq!(array_text(&idx_s(2, 3, &m).unwrap()), "[2](3,6)");
        let c = super::super::shape::reshape(&[2, 3, 2], &super::super::shape::iota(12).unwrap())
            .unwrap();
        assert_eq!(
            crate::tail::print_value::flat_text(&idx_s(3, 1, &c).unwrap()),
            "[2,3](1,3,5,7,9,11)"
        );
        assert!(idx_s(1, 4, &iv(&[10, 20, 30])).is_err());
        assert!(idx_s(2, 1, &iv(&[10])).is_err());
    }

    #[test]
    fn grades_are_stable() {
        assert_eq!(
            array_text(&grade(&iv(&[3, 1, 2, 1]), false).unwrap()),
            "[4](2,4,3,1)"
        );
        assert_eq!(
            array_text(&grade(&iv(&[3, 1, 2, 1, 3]), true).unwrap()),
            "[5](1,5,3,2,4)"
        );
        let cx = Array::scalar(Scalar::Complex((1.0, 0.0)));
        assert!(grade(&super::super::shape::rav(&cx), false).is_err());
    }

    #[test]
    fn update_positions() {
        assert_eq!(update_position(&[2, 1], &[2, 3]), Ok(3));
        assert!(update_position(&[2, 0], &[2, 2]).is_err());
        assert!(update_position(&[3], &[2]).is_err());
        assert!(update_position(&[1], &[2, 2]).is_err());
        let mut a = iv(&[1, 2, 3]);
        write_element(&mut a, 1, Scalar::Int(99)).unwrap();
        assert_eq!(array_text(&a), "[3](1,99,3)");
        assert!(write_element(&mut a, 1, Scalar::Double(1.0)).is_err());
    }
}
