//! TAIL values during lowering: arrays as a static shape plus an index function from a flat
//! row-major index (an FCL int expression) to the element's FCL expression, with the elements
//! themselves when they are known at compile time; functions; and the FCL of literals.

use super::coords::{flatten, select, unflatten};
use super::fault::LoweringFault;
use super::range::Range;
use super::tree::{fcl, int, is_atomic, let_in, literal_index, size, Fcl, Name};
use super::LowerTailError;
use semantics::tail::syntax::Expr;
use semantics::tail::value::{Array, BaseType, Elems, Scalar};
use semantics::Span;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

/// Lowering results.
pub(super) type R<T> = Result<T, LowerTailError>;

/// An index function: flat row-major index (an FCL int expression) to the element.
pub(super) type Index = Rc<dyn Fn(&Fcl) -> Fcl>;

/// A coordinate function: coordinates (atomic FCL int expressions, one per axis, each in
/// range) to the element.
pub(super) type At = Rc<dyn Fn(&[Fcl]) -> Fcl>;

/// The element types the lowering supports (chars are their codes, FCL ints; complex numbers
/// are FCL pairs `(re, im)` of doubles, stored as two blocks of doubles, module `complex`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Ty {
    Int,
    Double,
    Bool,
    Char,
    Complex,
}

impl Ty {
    /// The lowering's type of a TAIL base type.
    pub(super) fn of(b: BaseType) -> Ty {
        match b {
            BaseType::Int => Ty::Int,
            BaseType::Double => Ty::Double,
            BaseType::Bool => Ty::Bool,
            BaseType::Char => Ty::Char,
            BaseType::Complex => Ty::Complex,
        }
    }

    /// The TAIL base type.
    pub(super) fn base(self) -> BaseType {
        match self {
            Ty::Int => BaseType::Int,
            Ty::Double => BaseType::Double,
            Ty::Bool => BaseType::Bool,
            Ty::Char => BaseType::Char,
            Ty::Complex => BaseType::Complex,
        }
    }

    /// The element from what an FCL buffer stores (bools are stored as ints).
    pub(super) fn load(self, stored: &Fcl) -> Fcl {
        match self {
            Ty::Bool => fcl!("({stored} == 1)"),
            _ => stored.clone(),
        }
    }

    /// What an FCL buffer stores for an element.
    pub(super) fn store(self, elem: &Fcl) -> Fcl {
        match self {
            Ty::Bool => fcl!("(b2i {elem})"),
            _ => elem.clone(),
        }
    }

    /// The fill element φ (spec §4.1).
    pub(super) fn fill(self) -> Fcl {
        scalar_expr(Scalar::fill(self.base()))
    }
}

/// A TAIL array (a scalar is rank 0) during lowering.
#[derive(Clone)]
pub(super) struct Arr {
    pub ty: Ty,
    pub shape: Vec<usize>,
    pub index: Index,
    /// The value, when known at compile time (small arrays only): shapes, counts, permutations.
    pub known: Option<Rc<Array>>,
    /// For a double array that is `i2d` of an int array: that int array's index function, so
    /// that printing can move the ints and convert them exactly on the host.
    pub int_source: Option<Index>,
    /// When this array is a transposition of another (axis k of that array is axis `perm[k]`
    /// of this one): transpositions compose, and a chain that permutes nothing is the array
    /// itself, with no index arithmetic at all.
    pub transposed: Option<Rc<(Arr, Vec<usize>)>>,
    /// Where the element at given coordinates is cheaper to reach than through the flat
    /// index (transpositions, reshapes that repeat a suffix, maps of those): a consumer that
    /// has the coordinates (a reduction along the last axis, a transposition) uses this and
    /// skips re-deriving them with `/` and `%`.
    pub at: Option<At>,
    /// Bounds of every element (module `range`): where they prove that an operator cannot
    /// fail, it is lowered without its run-time check.
    pub range: Option<Range>,
    /// For a vector whose length the device computes (a filter's result, a `power` state
    /// that such a result flows into): that length as an FCL int expression, which kernels
    /// read where the statements stored it. `shape` is then `[capacity]`, a bound on the length that
    /// sizes the buffers and launches; the elements past the length are junk that no consumer
    /// reads and whose computation cannot fail (each producer masks them).
    pub run_len: Option<Rc<Fcl>>,
    /// For an array of rank 2 or more whose shape the device computes (a `reshape` by a
    /// computed shape): its extents as FCL int expressions. `shape` then bounds each extent,
    /// `run_len` is their product, and the elements are row-major by these extents in the
    /// first `run_len` positions. The operators that take such an array as it is are listed
    /// in `ops::takes_dynamic` (most only where the first extent alone is computed, module
    /// `dynamic`); any other reads the extents back (module `probe`).
    pub run_dims: Option<Rc<[Rc<Fcl>]>>,
    /// For a vector built from scalars (a vector literal such as `[n, 3]`): each element's
    /// bounds, tighter than `range` (their union). They hold for the index function they
    /// were made with, so [`Arr::range_at`] trusts them only while the array has it.
    pub element_ranges: Option<(Index, Rc<[Option<Range>]>)>,
    /// The store location this array is at, where a variable holds it (module `location`:
    /// `idxassign` through one name is seen through every name of the same location).
    pub loc: Loc,
}

/// The location of an array in the store (module `location`): a number the lowering gives
/// when a variable first holds the array.
pub(super) type Loc = u32;

/// The location of a value no variable holds yet (an operator's result): binding it to a
/// variable gives it a location of its own.
pub(super) const NEW: Loc = 0;

/// The largest array whose elements the lowering tracks at compile time.
pub(super) const MAX_KNOWN: usize = 4096;

/// The largest array of fills built to find out whether a shape operator fails.
pub(super) const MAX_FILLS: usize = 1 << 20;

/// The most elements a TAIL array holds (its shape's product is an int).
pub(super) const MOST_ELEMENTS: usize = i32::MAX as usize;

/// The number of elements of shape `shape`, at most [`MOST_ELEMENTS`]: a capacity past it, of
/// an array of unbounded extents (module `capacity`), counts as that.
pub(super) fn elements(shape: &[usize]) -> usize {
    shape
        .iter()
        .try_fold(1usize, |p, &d| p.checked_mul(d))
        .map_or(MOST_ELEMENTS, |p| p.min(MOST_ELEMENTS))
}

impl Arr {
    /// An array with no known elements.
    pub(super) fn new(ty: Ty, shape: Vec<usize>, index: impl Fn(&Fcl) -> Fcl + 'static) -> Arr {
        Arr {
            ty,
            shape,
            index: Rc::new(index),
            known: None,
            int_source: None,
            transposed: None,
            at: None,
            range: None,
            run_len: None,
            run_dims: None,
            element_ranges: None,
            loc: NEW,
        }
    }

    /// A scalar of FCL expression `e`.
    pub(super) fn scalar(ty: Ty, e: Fcl) -> Arr {
        Arr::new(ty, Vec::new(), move |_| e.clone())
    }

    /// A known value; small arrays index by a chain of `if`s over their elements.
    pub(super) fn known(a: Array) -> Arr {
        let ty = Ty::of(a.base_type());
        let texts: Vec<Fcl> = (0..a.size()).map(|i| scalar_expr(a.elems.get(i))).collect();
        let index: Index = if a.shape.is_empty() {
            let t = texts.first().cloned().unwrap_or_else(|| ty.fill());
            Rc::new(move |_| t.clone())
        } else {
            Rc::new(move |i: &Fcl| select(i, &texts))
        };
        Arr {
            ty,
            shape: a.shape.clone(),
            index,
            range: Range::of_known(&a),
            known: Some(Rc::new(a)),
            int_source: None,
            transposed: None,
            at: None,
            run_len: None,
            run_dims: None,
            element_ranges: None,
            loc: NEW,
        }
    }

    /// The bounds of element k: its own where they are known ([`Arr::element_ranges`]),
    /// else every element's.
    pub(super) fn range_at(&self, k: usize) -> Option<Range> {
        match &self.element_ranges {
            Some((index, ranges)) if Rc::ptr_eq(index, &self.index) => {
                ranges.get(k).copied().flatten().or(self.range)
            }
            _ => self.range,
        }
    }

    /// Whether the length is computed on the device ([`Arr::run_len`]).
    pub(super) fn is_dynamic(&self) -> bool {
        self.run_len.is_some()
    }

    /// This array's shape and run-time extents with other elements, of type `ty` at `index`:
    /// nothing that describes the old elements (known value, views, ranges) is kept.
    pub(super) fn with_elements(&self, ty: Ty, index: Index) -> Arr {
        Arr {
            ty,
            index,
            known: None,
            int_source: None,
            transposed: None,
            at: None,
            range: None,
            element_ranges: None,
            ..self.clone()
        }
    }

    /// A vector of capacity `cap` whose first `len` elements (an FCL int) are `index`'s and
    /// whose others are fills: the elements past the length computed by nothing that can fail.
    /// (Its range, where the caller sets one, must hold the fill too: a range bounds every
    /// element, junk included, since the code it saves a check in runs on the junk as well.)
    pub(super) fn dynamic(ty: Ty, cap: usize, len: Rc<Fcl>, index: Index) -> Arr {
        let l = len.clone();
        let mut out = Arr::new(ty, vec![cap], move |i| {
            fcl!("(if lti {i} {l} then {} else {})", index(i), ty.fill())
        });
        out.run_len = Some(len);
        out
    }

    /// The range of an array of `self`'s elements and fills (an operator that pads, or the
    /// junk of a vector of run-time length).
    pub(super) fn range_with_fill(&self) -> Option<Range> {
        let fill = Range::of_scalar(Scalar::fill(self.ty.base()))?;
        Some(self.range?.union(fill))
    }

    /// Number of elements ([`elements`] of its shape).
    pub(super) fn size(&self) -> usize {
        elements(&self.shape)
    }

    /// An array of fills of this shape and type: stands in for unknown elements where only the
    /// shape decides whether an operator fails.
    pub(super) fn fills(&self) -> Array {
        let base = self.ty.base();
        Array {
            shape: self.shape.clone(),
            elems: Elems::from_scalars(base, vec![Scalar::fill(base); self.size()]),
        }
    }

    /// The scalar's FCL expression (element 0).
    pub(super) fn expr(&self) -> Fcl {
        (self.index)(&int(0))
    }

    /// What one element costs, roughly: the length in bytes of its FCL source (a load is a
    /// dozen; the lowering stores elements that cost much more before reusing them).
    pub(super) fn element_cost(&self) -> usize {
        size(&(self.index)(&super::tree::var("i")))
    }

    /// The element at coordinates `cs` (atomic, one per axis, each in range).
    pub(super) fn element_at(&self, cs: &[Fcl]) -> Fcl {
        match &self.at {
            Some(at) => at(cs),
            None => (self.index)(&flatten(&self.shape, cs)),
        }
    }

    /// The known value of a scalar.
    pub(super) fn known_scalar(&self) -> Option<Scalar> {
        self.known.as_ref().and_then(|a| a.as_scalar())
    }
}

/// The FCL of a TAIL scalar (ints, doubles, bools): FCL has no unary minus, and a `-` glued
/// to digits after a term would be an application (spec fcl.md §2.2), so negatives subtract.
pub(super) fn scalar_expr(x: Scalar) -> Fcl {
    match x {
        Scalar::Int(v) if v == i32::MIN => fcl!("(0 - 2147483647 - 1)"),
        Scalar::Int(v) => int(i64::from(v)),
        Scalar::Bool(b) => fcl!("{b}"),
        Scalar::Double(d) => double_literal(d),
        Scalar::Char(c) => fcl!("{}", u32::from(c)),
        Scalar::Complex((re, im)) => fcl!("({}, {})", double_literal(re), double_literal(im)),
    }
}

/// The FCL of a double: a literal where it is finite and not negative; signs, infinities and
/// NaN are computed.
fn double_literal(d: f64) -> Fcl {
    if d.is_nan() {
        fcl!("(divd 0.0 0.0)")
    } else if d.is_infinite() {
        if d > 0.0 {
            fcl!("(divd 1.0 0.0)")
        } else {
            fcl!("(negd (divd 1.0 0.0))")
        }
    } else if d.is_sign_negative() {
        fcl!("(negd {})", double_literal(-d))
    } else {
        semantics::fcl::quote::double(d)
    }
}

/// A function value: a lambda with its environment, or an operator name (spec §2.4).
pub(super) enum Fun {
    Lambda {
        param: String,
        /// The element type the parameter is declared with, where it is one.
        param_ty: Option<Ty>,
        body: Expr,
        env: Env,
    },
    /// An operator name used as a value, with its place (a check inside it reports there).
    Op(semantics::tail::ops::prim::Prim, Span),
}

/// The element type a TAIL type declares, where it is a known base type the lowering has.
pub(super) fn declared_ty(t: &semantics::tail::types::Type) -> Option<Ty> {
    use semantics::tail::types::{Base, Type};
    match t {
        Type::Arr(Base::Known(b), _)
        | Type::Vec(Base::Known(b), _)
        | Type::S(Base::Known(b), _)
        | Type::SV(Base::Known(b), _) => Some(Ty::of(*b)),
        _ => None,
    }
}

/// `v`, checked against its declared element type `ty` (a `let` or lambda annotation). The
/// lowering types every value as the type checker does (`zilde` by the type inferred for
/// each application), so a difference is a gap in the lowering, refused rather than lowered
/// to wrong code.
pub(super) fn check_declared(v: Val, ty: Option<Ty>) -> R<Val> {
    match (&v, ty) {
        (Val::Arr(a), Some(t)) if a.ty != t => unsupported(format!(
            "a value of element type {:?} declared as {:?}",
            a.ty, t
        )),
        _ => Ok(v),
    }
}

/// Variables in scope (persistent: closures capture it, and copies must be cheap).
pub(super) type Env = im::HashMap<String, Val>;

/// A TAIL value during lowering.
#[derive(Clone)]
pub(super) enum Val {
    Arr(Arr),
    Fun(Rc<Fun>),
    Tuple(Vec<Val>),
}

impl Val {
    /// The array, or why this value is not one.
    pub(super) fn arr(&self) -> R<&Arr> {
        match self {
            Val::Arr(a) => Ok(a),
            _ => unsupported("a function or tuple where an array is needed"),
        }
    }
}

/// The error of an unsupported construct.
pub(super) fn unsupported<T>(why: impl Into<String>) -> R<T> {
    Err(LowerTailError::Unsupported(why.into()))
}

/// Fresh FCL names, shared by the lowering and the index functions it builds, the constant
/// tables those index functions ask for, the element type of each `zilde` application
/// (by its span) as the type checker infers it from the program, the check sites of the
/// run-time checks the lowered code makes (module `check`), and the fault planted in this
/// lowering, if any (module `fault`: every index function and function body sees it).
#[derive(Clone, Default)]
pub(super) struct Fresh(
    Rc<Cell<usize>>,
    Rc<RefCell<Vec<Table>>>,
    Rc<HashMap<Span, Ty>>,
    Rc<RefCell<Vec<super::RunFailure>>>,
    Option<LoweringFault>,
    Rc<Cell<Loc>>,
);

/// A literal vector stored in a global buffer when `main` starts: a read at a computed index
/// is one load instead of a chain of `if`s over the elements.
#[derive(Clone)]
pub(super) struct Table {
    pub name: Name,
    pub ty: Ty,
    pub texts: Rc<Vec<Fcl>>,
    /// What the table holds, for the comment in `main`: `None` for a literal vector of the
    /// program, else the file whose contents the host read when the program was lowered.
    pub file: Option<String>,
}

impl Fresh {
    /// The context of a program whose `zilde` applications have element types `zildes`.
    pub(super) fn with_zildes(zildes: HashMap<Span, Ty>, fault: Option<LoweringFault>) -> Fresh {
        Fresh(
            Rc::default(),
            Rc::default(),
            Rc::new(zildes),
            Rc::default(),
            fault,
            Rc::default(),
        )
    }

    /// The number of the check site that fails with `f` (the same failure, the same site).
    pub(super) fn site(&self, f: super::RunFailure) -> usize {
        let mut sites = self.3.borrow_mut();
        let same =
            |g: &super::RunFailure| g.rule == f.rule && g.reason == f.reason && g.span == f.span;
        match sites.iter().position(same) {
            Some(k) => k,
            None => {
                sites.push(f);
                sites.len() - 1
            }
        }
    }

    /// The check sites made so far, by number.
    pub(super) fn sites(&self) -> Vec<super::RunFailure> {
        self.3.borrow().clone()
    }

    /// Whether this lowering plants `fault` (mutation testing only).
    pub(super) fn planted(&self, fault: LoweringFault) -> bool {
        self.4 == Some(fault)
    }

    /// The element type of the `zilde` application at `span` (int where the program leaves
    /// it unconstrained, as TAIL prints it).
    pub(super) fn zilde_ty(&self, span: Span) -> Ty {
        self.2.get(&span).copied().unwrap_or(Ty::Int)
    }

    /// A new store location (module `location`), never [`NEW`].
    pub(super) fn loc(&self) -> Loc {
        let n = self.5.get() + 1;
        self.5.set(n);
        n
    }

    /// A name `prefix` + a number not used before in this program.
    pub(super) fn name(&self, prefix: &str) -> Name {
        let n = self.0.get();
        self.0.set(n + 1);
        Name::new(&format!("{prefix}{n}"))
    }

    /// The name of a new table holding literal elements `texts`.
    pub(super) fn table(&self, ty: Ty, texts: Rc<Vec<Fcl>>) -> Name {
        self.table_of(ty, texts, None)
    }

    /// The name of a new table holding elements `texts`, the contents of `file` when the table
    /// holds a file read by the host.
    pub(super) fn table_of(&self, ty: Ty, texts: Rc<Vec<Fcl>>, file: Option<String>) -> Name {
        let name = self.name("tab");
        self.1.borrow_mut().push(Table {
            name: name.clone(),
            ty,
            texts,
            file,
        });
        name
    }

    /// The tables asked for so far.
    pub(super) fn tables(&self) -> Vec<Table> {
        self.1.borrow().clone()
    }
}

/// Literal vectors at least this long are read from a table at computed indices.
pub(super) const TABLE_MIN: usize = 8;

/// The index function of a literal vector of elements `texts`: the element itself at a
/// literal index; otherwise a read of a table (made on first use), or a chain of `if`s for a
/// short vector.
pub(super) fn literal_vector(fresh: &Fresh, ty: Ty, texts: Vec<Fcl>) -> Index {
    let texts = Rc::new(texts);
    if texts.len() < TABLE_MIN {
        return Rc::new(move |i: &Fcl| select(i, &texts));
    }
    let (fresh, table) = (fresh.clone(), Rc::new(std::cell::OnceCell::new()));
    Rc::new(move |i: &Fcl| {
        if let Some(t) = literal_index(i).and_then(|k| texts.get(k)) {
            return t.clone();
        }
        let m = table.get_or_init(|| fresh.table(ty, texts.clone()));
        ty.load(&fcl!("(index {m} {i})"))
    })
}

/// `let x = e in body(x)`, or `body(e)` when `e` is a name or a literal, so that an
/// expression used several times is computed once (no exponential growth through nested
/// lambdas).
pub(super) fn share(fresh: &Fresh, e: &Fcl, body: impl FnOnce(&Fcl) -> Fcl) -> Fcl {
    if is_atomic(e) {
        body(e)
    } else {
        let x = fresh.name("x");
        let_in(&x, e.clone(), body(&super::tree::var(x.as_str())))
    }
}

/// An index function that finds the coordinates of the flat index once and reads the
/// element through the coordinate access `at`.
pub(super) fn index_by_coords(fresh: &Fresh, shape: &[usize], at: At) -> Index {
    let (fresh, shape) = (fresh.clone(), shape.to_vec());
    Rc::new(move |i: &Fcl| {
        share(&fresh, i, |i| {
            with_names(&fresh, &unflatten(&shape, i), |cs| at(cs))
        })
    })
}

/// `c + k` wrapped into `0..m` (for `c` in `0..m` and `k` in `0..m`): a comparison, no `%`.
pub(super) fn wrap(fresh: &Fresh, c: &Fcl, k: usize, m: usize) -> Fcl {
    if k == 0 {
        return c.clone();
    }
    let x = fresh.name("w");
    fcl!("(let {x} = {c} + {k} in if lti {x} {m} then {x} else {x} - {m})")
}

/// `body` of names for `texts`: each expression that is not atomic is bound by an FCL `let`.
pub(super) fn with_names(fresh: &Fresh, texts: &[Fcl], body: impl FnOnce(&[Fcl]) -> Fcl) -> Fcl {
    let mut names = Vec::new();
    let mut lets = Vec::new();
    for t in texts {
        if is_atomic(t) {
            names.push(t.clone());
        } else {
            let x = fresh.name("c");
            names.push(super::tree::var(x.as_str()));
            lets.push((x, t.clone()));
        }
    }
    let inner = body(&names);
    lets.into_iter()
        .rev()
        .fold(inner, |body, (x, rhs)| let_in(&x, rhs, body))
}

/// The elements of a known array as `i64`s (ints and bools).
pub(super) fn known_ints(a: &Array) -> Option<Vec<i64>> {
    match &a.elems {
        Elems::Int(b) => Some(b.as_slice().iter().map(|&v| i64::from(v)).collect()),
        Elems::Bool(b) => Some(b.as_slice().iter().map(|&v| i64::from(v)).collect()),
        _ => None,
    }
}

/// A known int scalar argument (a count, a dimension).
pub(super) fn known_int(a: &Arr, what: &str) -> R<i64> {
    match a.known_scalar() {
        Some(Scalar::Int(v)) => Ok(i64::from(v)),
        Some(Scalar::Bool(b)) => Ok(i64::from(b)),
        _ => unsupported(format!("{what} not known at compile time")),
    }
}

/// A known int vector argument (a shape, a permutation, an index).
pub(super) fn known_vec(a: &Arr, what: &str) -> R<Vec<i64>> {
    match a.known.as_deref().and_then(known_ints) {
        Some(v) => Ok(v),
        None => unsupported(format!("{what} not known at compile time")),
    }
}

/// A vector's length as an FCL expression: its run-time length, or its static one.
pub(super) fn length_expr(a: &Arr) -> Rc<Fcl> {
    match &a.run_len {
        Some(len) => len.clone(),
        None => Rc::new(fcl!("{}", a.shape[0])),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::tail::tree::parsed as p;

    #[test]
    fn literals_are_fcl_literals() {
        // FCL has no unary minus: negatives subtract or negate
        assert_eq!(scalar_expr(Scalar::Int(-5)), p("(0 - 5)"));
        assert_eq!(
            scalar_expr(Scalar::Int(i32::MIN)),
            p("(0 - 2147483647 - 1)")
        );
        assert_eq!(scalar_expr(Scalar::Double(0.1)), p("0.1"));
        assert_eq!(scalar_expr(Scalar::Double(3.0)), p("3.0"));
        assert_eq!(scalar_expr(Scalar::Double(1e-7)), p("1e-7"));
        assert_eq!(scalar_expr(Scalar::Double(-0.0)), p("(negd 0.0)"));
        assert_eq!(
            scalar_expr(Scalar::Double(f64::NEG_INFINITY)),
            p("(negd (divd 1.0 0.0))")
        );
        assert_eq!(scalar_expr(Scalar::Bool(true)), p("true"));
        assert_eq!(scalar_expr(Scalar::Char(b'a')), p("97"));
    }

    #[test]
    fn shared_expressions_are_computed_once() {
        let f = Fresh::default();
        assert_eq!(share(&f, &p("i"), |x| fcl!("{x} + {x}")), p("i + i"));
        assert_eq!(
            share(&f, &p("(i * 2)"), |x| fcl!("{x} + {x}")),
            p("(let x0 = (i * 2) in x0 + x0)")
        );
    }

    #[test]
    fn coordinates_are_named_once_and_wrapped() {
        let cs = unflatten(&[2, 3, 4], &p("i"));
        let f = Fresh::default();
        let t = with_names(&f, &cs, |cs| fcl!("({}, ({}, {}))", cs[0], cs[1], cs[2]));
        assert_eq!(
            t,
            p("(let c0 = (i / 12) in (let c1 = (i / 4 % 3) in (let c2 = (i % 4) in (c0, (c1, c2)))))")
        );
        assert_eq!(wrap(&f, &p("c"), 0, 5), p("c"));
        assert_eq!(
            wrap(&f, &p("c"), 2, 5),
            p("(let w3 = c + 2 in if lti w3 5 then w3 else w3 - 5)")
        );
    }

    #[test]
    fn literal_vectors_become_tables_when_read_at_computed_indices() {
        let f = Fresh::default();
        let short = literal_vector(&f, Ty::Int, vec![p("1"), p("2")]);
        assert_eq!(short(&p("i")), p("(if i == 0 then 1 else 2)"));
        let texts: Vec<Fcl> = (0..TABLE_MIN).map(|k| int(k as i64)).collect();
        let long = literal_vector(&f, Ty::Bool, texts);
        assert_eq!(long(&p("3")), p("3"));
        assert!(f.tables().is_empty(), "a literal index needs no table");
        assert_eq!(long(&p("i")), p("((index tab0 i) == 1)"));
        assert_eq!(long(&p("j")), p("((index tab0 j) == 1)"));
        assert_eq!(f.tables().len(), 1, "one table however often it is read");
    }
}
