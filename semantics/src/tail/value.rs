//! Run-time values of TAIL (thesis §3.1, spec §4.1): arrays `[bv⃗]^δ` of one base type, closures
//! and (apltail's extension) tuples.
//!
//! In the store semantics (§3.1.5) a value is a location `l` or a lambda; arrays live in the store
//! ([`crate::tail::store`]). Element storage is shared: an [`Elems`] buffer is an `Rc` that
//! operators clone instead of copying, and a scalar is held inline ([`Buf::One`]) so that the
//! scalar operators of scalar-heavy programs allocate no element buffers at all.

use std::rc::Rc;

/// A complex number `(re, im)`.
pub type C64 = (f64, f64);

/// The base types κ (spec §3.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BaseType {
    Int,
    Double,
    Bool,
    Char,
    Complex,
}

impl BaseType {
    /// The TAIL spelling (`int`, `double`, ...).
    pub fn name(self) -> &'static str {
        match self {
            BaseType::Int => "int",
            BaseType::Double => "double",
            BaseType::Bool => "bool",
            BaseType::Char => "char",
            BaseType::Complex => "complex",
        }
    }
}

/// One base value `bv` (thesis §3.1: `i | d | b`, plus apltail's chars and complex numbers).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scalar {
    Int(i32),
    Double(f64),
    Bool(bool),
    Char(u8),
    Complex(C64),
}

impl Scalar {
    /// The base type of this value.
    pub fn base_type(self) -> BaseType {
        match self {
            Scalar::Int(_) => BaseType::Int,
            Scalar::Double(_) => BaseType::Double,
            Scalar::Bool(_) => BaseType::Bool,
            Scalar::Char(_) => BaseType::Char,
            Scalar::Complex(_) => BaseType::Complex,
        }
    }

    /// The fill element φ(κ) (spec §4.1): 0, 0.0, ff, space, 0.0j0.0.
    pub fn fill(ty: BaseType) -> Scalar {
        match ty {
            BaseType::Int => Scalar::Int(0),
            BaseType::Double => Scalar::Double(0.0),
            BaseType::Bool => Scalar::Bool(false),
            BaseType::Char => Scalar::Char(b' '),
            BaseType::Complex => Scalar::Complex((0.0, 0.0)),
        }
    }
}

/// An element buffer: one inline element (scalars, the common case in scalar code) or a shared,
/// reference-counted vector. Cloning never copies elements.
#[derive(Clone, Debug)]
pub enum Buf<T> {
    One(T),
    Many(Rc<Vec<T>>),
}

impl<T: Clone> Buf<T> {
    /// A buffer holding `v`; a single element is kept inline.
    pub fn from_vec(mut v: Vec<T>) -> Buf<T> {
        if v.len() == 1 {
            Buf::One(v.pop().expect("length checked"))
        } else {
            Buf::Many(Rc::new(v))
        }
    }

    /// The elements, in row-major order.
    pub fn as_slice(&self) -> &[T] {
        match self {
            Buf::One(x) => std::slice::from_ref(x),
            Buf::Many(v) => v,
        }
    }

    /// Mutable access for in-place update (rule 3.57); copies only if the storage is shared with
    /// another location.
    pub fn make_mut(&mut self) -> &mut [T] {
        match self {
            Buf::One(x) => std::slice::from_mut(x),
            Buf::Many(v) => Rc::make_mut(v).as_mut_slice(),
        }
    }
}

/// The elements of an array, tagged with their base type.
#[derive(Clone, Debug)]
pub enum Elems {
    Int(Buf<i32>),
    Double(Buf<f64>),
    Bool(Buf<bool>),
    Char(Buf<u8>),
    Complex(Buf<C64>),
}

/// Applies `$body` to the buffer inside an [`Elems`], whatever its element type, and rewraps a
/// buffer result in the same variant (`$b` names the buffer inside the body).
#[macro_export]
macro_rules! map_elems {
    ($e:expr, $b:ident => $body:expr) => {
        match $e {
            $crate::tail::value::Elems::Int($b) => $crate::tail::value::Elems::Int($body),
            $crate::tail::value::Elems::Double($b) => $crate::tail::value::Elems::Double($body),
            $crate::tail::value::Elems::Bool($b) => $crate::tail::value::Elems::Bool($body),
            $crate::tail::value::Elems::Char($b) => $crate::tail::value::Elems::Char($body),
            $crate::tail::value::Elems::Complex($b) => $crate::tail::value::Elems::Complex($body),
        }
    };
}

impl Elems {
    /// The element type.
    pub fn base_type(&self) -> BaseType {
        match self {
            Elems::Int(_) => BaseType::Int,
            Elems::Double(_) => BaseType::Double,
            Elems::Bool(_) => BaseType::Bool,
            Elems::Char(_) => BaseType::Char,
            Elems::Complex(_) => BaseType::Complex,
        }
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        match self {
            Elems::Int(b) => b.as_slice().len(),
            Elems::Double(b) => b.as_slice().len(),
            Elems::Bool(b) => b.as_slice().len(),
            Elems::Char(b) => b.as_slice().len(),
            Elems::Complex(b) => b.as_slice().len(),
        }
    }

    /// True when there are no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Element `i` (row-major), which must exist.
    pub fn get(&self, i: usize) -> Scalar {
        match self {
            Elems::Int(b) => Scalar::Int(b.as_slice()[i]),
            Elems::Double(b) => Scalar::Double(b.as_slice()[i]),
            Elems::Bool(b) => Scalar::Bool(b.as_slice()[i]),
            Elems::Char(b) => Scalar::Char(b.as_slice()[i]),
            Elems::Complex(b) => Scalar::Complex(b.as_slice()[i]),
        }
    }

    /// The elements at the given flat positions, in order; `None` positions get the fill φ.
    pub fn gather(&self, idx: impl Iterator<Item = Option<usize>>) -> Elems {
        fn pick<T: Clone>(b: &Buf<T>, fill: T, idx: impl Iterator<Item = Option<usize>>) -> Buf<T> {
            let s = b.as_slice();
            Buf::from_vec(
                idx.map(|i| i.map_or_else(|| fill.clone(), |i| s[i].clone()))
                    .collect(),
            )
        }
        match self {
            Elems::Int(b) => Elems::Int(pick(b, 0, idx)),
            Elems::Double(b) => Elems::Double(pick(b, 0.0, idx)),
            Elems::Bool(b) => Elems::Bool(pick(b, false, idx)),
            Elems::Char(b) => Elems::Char(pick(b, b' ', idx)),
            Elems::Complex(b) => Elems::Complex(pick(b, (0.0, 0.0), idx)),
        }
    }

    /// An empty buffer of the given element type.
    pub fn empty(ty: BaseType) -> Elems {
        Elems::from_scalars(ty, Vec::new())
    }

    /// Builds a buffer of type `ty` from scalars, which must all have that type (the caller has
    /// checked; a mismatching scalar is replaced by the fill so that this never panics).
    pub fn from_scalars(ty: BaseType, xs: Vec<Scalar>) -> Elems {
        macro_rules! build {
            ($variant:ident, $fill:expr) => {
                Elems::$variant(Buf::from_vec(
                    xs.into_iter()
                        .map(|x| match x {
                            Scalar::$variant(v) => v,
                            _ => $fill,
                        })
                        .collect(),
                ))
            };
        }
        match ty {
            BaseType::Int => build!(Int, 0),
            BaseType::Double => build!(Double, 0.0),
            BaseType::Bool => build!(Bool, false),
            BaseType::Char => build!(Char, b' '),
            BaseType::Complex => build!(Complex, (0.0, 0.0)),
        }
    }
}

/// Collects the results of an element function into a typed buffer (the first element fixes
/// the type), without the overhead of a vector of tagged [`Scalar`]s.
#[derive(Debug, Default)]
pub struct ElemsBuilder {
    buf: Option<Elems>,
    len: usize,
    cap: usize,
}

impl ElemsBuilder {
    /// A builder expecting about `cap` elements.
    pub fn with_capacity(cap: usize) -> ElemsBuilder {
        ElemsBuilder {
            buf: None,
            len: 0,
            cap,
        }
    }

    /// The element type, once an element has been pushed.
    pub fn base_type(&self) -> Option<BaseType> {
        self.buf.as_ref().map(Elems::base_type)
    }

    /// Number of elements pushed.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when nothing was pushed.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Appends `x`; false (and nothing appended) if its type differs from the earlier elements'.
    pub fn push(&mut self, x: Scalar) -> bool {
        let cap = self.cap;
        let buf = self.buf.get_or_insert_with(|| {
            let mut e = Elems::empty(x.base_type());
            macro_rules! reserve {
                ($($v:ident),*) => { match &mut e { $(Elems::$v(Buf::Many(v)) => Rc::make_mut(v).reserve(cap),)* _ => {} } };
            }
            reserve!(Int, Double, Bool, Char, Complex);
            e
        });
        let ok = match (buf, x) {
            (Elems::Int(Buf::Many(v)), Scalar::Int(y)) => {
                Rc::make_mut(v).push(y);
                true
            }
            (Elems::Double(Buf::Many(v)), Scalar::Double(y)) => {
                Rc::make_mut(v).push(y);
                true
            }
            (Elems::Bool(Buf::Many(v)), Scalar::Bool(y)) => {
                Rc::make_mut(v).push(y);
                true
            }
            (Elems::Char(Buf::Many(v)), Scalar::Char(y)) => {
                Rc::make_mut(v).push(y);
                true
            }
            (Elems::Complex(Buf::Many(v)), Scalar::Complex(y)) => {
                Rc::make_mut(v).push(y);
                true
            }
            _ => false,
        };
        self.len += ok as usize;
        ok
    }

    /// The elements; `ty` gives the type when none was pushed.
    pub fn finish(self, ty: BaseType) -> Elems {
        match self.buf {
            Some(e) if self.len == 1 => Elems::from_scalars(e.base_type(), vec![e.get(0)]),
            Some(e) => e,
            None => Elems::empty(ty),
        }
    }
}

/// An array value `[bv⃗]^δ`: a shape δ (extents, possibly empty for a scalar) and
/// product(δ) elements in row-major order.
#[derive(Clone, Debug)]
pub struct Array {
    pub shape: Vec<usize>,
    pub elems: Elems,
}

impl Array {
    /// A rank-0 array.
    pub fn scalar(x: Scalar) -> Array {
        let elems = match x {
            Scalar::Int(v) => Elems::Int(Buf::One(v)),
            Scalar::Double(v) => Elems::Double(Buf::One(v)),
            Scalar::Bool(v) => Elems::Bool(Buf::One(v)),
            Scalar::Char(v) => Elems::Char(Buf::One(v)),
            Scalar::Complex(v) => Elems::Complex(Buf::One(v)),
        };
        Array {
            shape: Vec::new(),
            elems,
        }
    }

    /// A vector of ints.
    pub fn int_vec(v: Vec<i32>) -> Array {
        Array {
            shape: vec![v.len()],
            elems: Elems::Int(Buf::from_vec(v)),
        }
    }

    /// The rank r (length of the shape).
    pub fn rank(&self) -> usize {
        self.shape.len()
    }

    /// The number of elements, product(δ).
    pub fn size(&self) -> usize {
        self.elems.len()
    }

    /// The element type.
    pub fn base_type(&self) -> BaseType {
        self.elems.base_type()
    }

    /// The fill element φ of this array's element type.
    pub fn fill(&self) -> Scalar {
        Scalar::fill(self.base_type())
    }

    /// This array with element type `ty`, when its type differs and all its elements are fills.
    ///
    /// Such arrays come only from an empty vector whose element type was left to inference
    /// (`zilde()`, spec §3.8), padded or reshaped before its type was known: the stepper has no
    /// types, so it gives `zilde()` the type int and converts at the first place that names the
    /// type (a binder's annotation, a `pr*` operator, the other argument of `cat`).
    pub fn as_fills_of(&self, ty: BaseType) -> Option<Array> {
        if self.base_type() == ty {
            return None;
        }
        let fill = self.fill();
        if (0..self.size()).any(|i| self.elems.get(i) != fill) {
            return None;
        }
        let n = self.size();
        Some(Array {
            shape: self.shape.clone(),
            elems: Elems::from_scalars(ty, vec![Scalar::fill(ty); n]),
        })
    }

    /// The single element of a rank-0 array (or of any one-element array).
    pub fn as_scalar(&self) -> Option<Scalar> {
        (self.size() == 1).then(|| self.elems.get(0))
    }
}

/// `product(δ)`: the number of elements of shape δ (1 for ⟨⟩). `None` on overflow.
pub fn product(shape: &[usize]) -> Option<usize> {
    shape.iter().try_fold(1usize, |acc, &n| acc.checked_mul(n))
}

/// `fromIdx_δ ⟨i⃗⟩` (thesis §3.1.3): the row-major flat index of a 0-based multi-index.
pub fn from_idx(shape: &[usize], idx: &[usize]) -> usize {
    shape.iter().zip(idx).fold(0, |acc, (&n, &i)| acc * n + i)
}

/// `toIdx_δ i` (thesis §3.1.3): the 0-based multi-index of flat index `i`.
pub fn to_idx(shape: &[usize], mut i: usize) -> Vec<usize> {
    let mut out = vec![0; shape.len()];
    for (k, &n) in shape.iter().enumerate().rev() {
        if n > 0 {
            out[k] = i % n;
            i /= n;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_helpers_are_inverse() {
        let shape = [2, 3, 4];
        for i in 0..24 {
            assert_eq!(from_idx(&shape, &to_idx(&shape, i)), i);
        }
        assert_eq!(to_idx(&shape, 23), vec![1, 2, 3]);
        assert_eq!(product(&[]), Some(1));
        assert_eq!(product(&[usize::MAX, 2]), None);
    }

    #[test]
    fn scalars_are_inline_and_gather_fills() {
        let a = Array::scalar(Scalar::Int(5));
        assert!(matches!(a.elems, Elems::Int(Buf::One(5))));
        let v = Array::int_vec(vec![1, 2, 3]);
        let g = v.elems.gather([Some(2), None, Some(0)].into_iter());
        assert_eq!(g.get(0), Scalar::Int(3));
        assert_eq!(g.get(1), Scalar::Int(0));
        assert_eq!(Scalar::fill(BaseType::Char), Scalar::Char(b' '));
    }
}
