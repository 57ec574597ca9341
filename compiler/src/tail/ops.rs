//! Operator application during lowering: the dispatch of `op(v⃗)` to the scalar, shape,
//! higher-order and reduction lowerings, and compile-time evaluation of first-order operators
//! whose arguments are known (with the TAIL semantics' own operator functions), which gives
//! the static shapes, counts and permutations the lowering needs and finds programs that
//! certainly fail.

use super::lowerer::{fails, Lowerer};
use super::range::{self, Range};
use super::tree::{fcl, Fcl};
use super::value::{
    known_int, known_ints, share, unsupported, Arr, Ty, Val, MAX_FILLS, MAX_KNOWN, NEW, R,
};
use super::LowerTailError;
use semantics::tail::ops::apply::{apply, is_scalar_op, scalar_op as fold_scalar, OpEnv, Outcome};
use semantics::tail::ops::prim::Prim;
use semantics::tail::ops::select;
use semantics::tail::syntax::Expr;
use semantics::tail::value::{Array, Elems, Scalar};

/// The largest known result indexed by a chain of `if`s when no index arithmetic exists.
const MAX_SELECT: usize = 64;
/// The largest static argument (a shape vector) read back from the device.
const MAX_STATIC: usize = 64;
/// A `reshape` whose result repeats each element of its argument this many times or more
/// stores the argument first, where an element costs more than a load ([`COSTLY_ELEMENT`]).
const REPEATS: usize = 4;
/// An element expression larger than this ([`super::tree::size`], about bytes of its source)
/// costs more than a load or an index computation.
const COSTLY_ELEMENT: usize = 48;

impl Lowerer {
    /// `reshape(s, a)` reads each element of `a` size(s)/size(a) times: in an inner product's
    /// `reshape([n,n,n], a)` of an n×n matrix, n times. Where that is [`REPEATS`] times or more
    /// and an element is a computation, `a` is materialized first, so that each element is
    /// computed once and the repeats are loads (at the top level; a function body has no
    /// statements).
    fn compute_repeated_once(&mut self, args: &mut [Val]) {
        let [Val::Arr(s), Val::Arr(a)] = args else {
            return;
        };
        let Some(n) = s.known.as_deref().and_then(known_ints) else {
            return;
        };
        let n = n
            .iter()
            .try_fold(1usize, |p, &d| p.checked_mul(usize::try_from(d).ok()?));
        let m = a.size();
        let repeats = m > 0 && n.is_some_and(|n| n / m >= REPEATS);
        if repeats && a.element_cost() > COSTLY_ELEMENT {
            let stored = self.materialize(a, "the elements a reshape repeats");
            args[1] = Val::Arr(stored);
        }
    }
}

/// The prints, which return their argument itself (its location: spec §4.5).
fn shares_argument(p: Prim) -> bool {
    use Prim as P;
    matches!(p, P::PrArrI | P::PrArrB | P::PrArrD | P::PrArrC | P::PrArrX)
        || matches!(p, P::PrSclI | P::PrSclB | P::PrSclD | P::PrSclC | P::PrSclX)
}

/// Whether operator `p` takes argument `k` of `args` as a vector whose length the device
/// computes ([`Arr::run_len`]; an unbounded one too, module `capacity`, whose length the
/// operator reads back where it must): maps, reductions, filters by a computed mask,
/// `shape`, `first`, the prints, and `take`/`drop`/`rotate` (module `counts`); of an array of
/// run-time extents, only `first`, `shape`, `mem` and the prints. Every other operator needs
/// its arguments' shapes static.
fn takes_dynamic(p: Prim, k: usize, args: &[Val]) -> bool {
    use Prim as P;
    // an array of run-time extents ([`Arr::run_dims`]): only what reads it in flat order
    if matches!(&args[k], Val::Arr(a) if a.run_dims.is_some()) {
        // (rows the device counts: module `dynamic`, `rows_dynamic`)
        let rows =
            |j: usize| matches!(args.get(j), Some(Val::Arr(a)) if super::dynamic::rows_dynamic(a));
        match p {
            P::Reshape => return k == 1 && super::counts::reshapes_dynamic(args),
            P::Take => return k == 1 && super::dynamic::takes_rows(args),
            // a loop's state (module `state`: its extents in slots of the state)
            P::Power | P::PowerScl => return k == 2,
            P::Rotate => return k == 1 && rows(1),
            // (by the run-time extents where the rows are not all that the device counts)
            P::Idxassign => return k == 1,
            P::IdxS | P::Reduce | P::Scan => return k == 2 && rows(2),
            _ => {}
        }
        return reads_in_flat_order(p);
    }
    match p {
        P::Each | P::Reduce | P::Scan | P::Shape | P::First | P::Mem | P::MemScl => true,
        P::PrArrI | P::PrArrB | P::PrArrD | P::PrArrC | P::PrArrX => true,
        // both of one length, or the other one static: decided where they meet
        P::ZipWith => true,
        // by a computed mask or counts (module `filter`)
        // (known ones too, of a vector of run-time length)
        P::Compress => true,
        P::Replicate => k >= 1,
        // a drop, or a take whose count bounds its length (module `counts`)
        P::Take | P::Drop | P::Rotate | P::Vrotate => {
            k == 1 && super::counts::counts_take_dynamic(p, args)
        }
        P::Cat | P::Cons | P::Snoc => super::dynamic::joins_dynamic(p, args),
        // by a static shape, or a computed one whose extents are bounded (module `counts`)
        P::Reshape => k == 1 && super::counts::reshapes_dynamic(args),
        // an element of a vector, its index checked against the length (`check_slice_index`)
        P::IdxS => k == 2 && matches!(&args[2], Val::Arr(a) if a.shape.len() == 1),
        // an element of a vector replaced, its index checked against the length
        P::Idxassign => k == 1 && matches!(&args[1], Val::Arr(a) if a.shape.len() == 1),
        // a vector's transposition is itself
        P::Transp => matches!(&args[0], Val::Arr(a) if a.shape.len() == 1),
        // a vector read from its end, or as it is (module `dynamic`)
        P::Vreverse | P::Rav => matches!(&args[0], Val::Arr(a) if a.shape.len() == 1),
        // sorted at their capacity (module `sort`)
        P::GradeUp | P::GradeDown => true,
        P::Power | P::PowerScl => k == 2,
        _ => false,
    }
}

/// Whether `p` reads an array of run-time extents in flat order, as its elements are stored:
/// maps, `rav`, `shape`, `first`, `mem` and the prints.
fn reads_in_flat_order(p: Prim) -> bool {
    use Prim as P;
    matches!(
        p,
        P::First
            | P::Rav
            | P::Each
            | P::ZipWith
            | P::Shape
            | P::Mem
            | P::MemScl
            | P::PrArrI
            | P::PrArrB
            | P::PrArrD
            | P::PrArrC
            | P::PrArrX
    )
}

/// Whether operator `p` takes an array of unbounded extents (module `capacity`) as its
/// argument: what reads it in flat order, the index operators of module `extents`, `reshape`,
/// `reduce` and `scan` (module `extent_rows`), `idxassign` (at the position by its run-time
/// extents) and a `power`'s state (module `state`); any other operator has its extents read
/// back first.
fn unbounded_extents_taken(p: Prim) -> bool {
    use Prim as P;
    reads_in_flat_order(p)
        || matches!(
            p,
            P::Transp
                | P::Transp2
                | P::Vreverse
                | P::Vrotate
                | P::Rotate
                | P::Drop
                | P::Take
                | P::Cat
                | P::Cons
                | P::Snoc
                | P::IdxS
                | P::Idxassign
                | P::Reduce
                | P::Scan
                | P::Reshape
                | P::Power
                | P::PowerScl
        )
}

impl Lowerer {
    /// Applies operator `p` (spelled `name`, at expression `e`) to evaluated arguments. The
    /// result is a new array (module `location`), but for the operators that return their
    /// argument (`mem`, the prints) and those whose result a function gives (`power`,
    /// `condScl`), which keep the location they give.
    pub(super) fn apply_op(&mut self, p: Prim, name: &str, e: &Expr, args: Vec<Val>) -> R<Val> {
        use Prim as P;
        let keeps = matches!(p, P::Mem | P::MemScl | P::Power | P::PowerScl | P::Bench)
            || matches!(p, P::CondScl)
            || shares_argument(p);
        let argument = args.first().cloned();
        match self.apply_prim(p, name, e, args)? {
            Val::Arr(a) if !keeps => Ok(Val::Arr(Arr { loc: NEW, ..a })),
            // a print in a loop's step of an array made before the step: the array as it
            // was, not as read from the step's own buffer, since an `if` may give it as the
            // array at its location after the loop (module `location`, `Store::either`)
            Val::Arr(a)
                if shares_argument(p)
                    && self.in_loop
                    && a.loc != NEW
                    && a.loc < self.store.floor =>
            {
                Ok(argument.unwrap_or(Val::Arr(a)))
            }
            v => Ok(v),
        }
    }

    fn apply_prim(&mut self, p: Prim, name: &str, e: &Expr, args: Vec<Val>) -> R<Val> {
        use Prim as P;
        let mut args = args;
        // an array of unbounded extents reaches only the operators that take it; any other
        // reads its extents back first (module `capacity`)
        for arg in args.iter_mut() {
            if let Val::Arr(a) = arg {
                if a.has_unbounded_extents() && !unbounded_extents_taken(p) {
                    *arg = Val::Arr(self.settle(a, name)?);
                }
            }
        }
        // an operator on an array of run-time extents, over those extents, or a `transp2`
        // by a computed permutation (module `extents`)
        if super::extents::applies(p, &args) {
            if let Some(v) = self.on_extents(p, name, e, &args)? {
                return Ok(v);
            }
        }
        // a vector whose length the device computes reaches only the operators that take
        // it as it is; any other reads its length back first
        for k in 0..args.len() {
            if let Val::Arr(a) = &args[k] {
                if a.is_dynamic() && !takes_dynamic(p, k, &args) {
                    args[k] = Val::Arr(self.settle(a, name)?);
                }
            }
        }
        // an operator on rows the device counts (module `dynamic`)
        if let Some(v) = self.on_rows(p, name, e, &args)? {
            return Ok(v);
        }
        // a count that the kernels compute (module `counts`)
        if let Some(a) = self.computed_count(p, e, &args)? {
            return Ok(Val::Arr(a));
        }
        // a count, shape or permutation computed from data: its value is read back
        for (k, what) in static_arguments(p) {
            if let Some(Val::Arr(a)) = args.get(*k) {
                if a.known.is_none() && a.size() <= MAX_STATIC {
                    let known = self.probe(a, &format!("{what} not known at compile time"))?;
                    args[*k] = Val::Arr(known);
                }
            }
        }
        if p == P::Reshape {
            self.compute_repeated_once(&mut args);
        }
        if p == P::IdxS {
            self.check_slice_index(e, &mut args);
        }
        match p {
            P::Each | P::ZipWith | P::Power | P::PowerScl | P::Bench | P::CondScl => {
                return self.higher_order(p, name, e, args)
            }
            P::Reduce | P::Scan => return self.reduction(p, args),
            P::Idxassign => return self.idxassign(name, e, args),
            P::PrArrI
            | P::PrArrB
            | P::PrArrD
            | P::PrArrC
            | P::PrArrX
            | P::PrSclI
            | P::PrSclB
            | P::PrSclD
            | P::PrSclC
            | P::PrSclX => {
                // (the print returns its argument, at its location)
                let a = args[0].arr()?.clone();
                let printed = self.print(&a, p == P::PrArrC)?;
                return Ok(Val::Arr(Arr {
                    loc: a.loc,
                    ..printed
                }));
            }
            P::Mem | P::MemScl => return Ok(args[0].clone()),
            // (3.77) zilde: the empty vector of the element type its context gives it
            P::Zilde => {
                let ty = self.fresh.zilde_ty(e.span);
                let mut a = Arr::new(ty, vec![0], move |_| ty.fill());
                a.known = Some(std::rc::Rc::new(Array {
                    shape: vec![0],
                    elems: Elems::from_scalars(ty.base(), Vec::new()),
                }));
                return Ok(Val::Arr(a));
            }
            P::ReadFile | P::ReadIntVecFile | P::ReadDoubleVecFile => {
                return self.read_input(p, name, e, args[0].arr()?)
            }
            // the oracle's counter-based generator (spec §5.13, module `roll`)
            P::Roll => return self.roll(p, name, e, args[0].arr()?),
            // a host value read when the program runs (module `input`)
            P::Nowi => return self.nowi(p, name, e, args[0].arr()?),
            P::Replicate if args[1].arr()?.known.is_none() || args[2].arr()?.is_dynamic() => {
                return self.gather_dynamic(p, name, e, args[1].arr()?, args[2].arr()?)
            }
            P::Compress if args[0].arr()?.known.is_none() || args[1].arr()?.is_dynamic() => {
                return self.gather_dynamic(p, name, e, args[0].arr()?, args[1].arr()?)
            }
            P::Replicate => {
                return self
                    .gather_static(p, name, e, &args[1..], |xs| select::replicate(xs[0], xs[1]))
            }
            P::Compress => {
                return self.gather_static(p, name, e, &args, |xs| select::compress(xs[0], xs[1]))
            }
            _ => {}
        }
        let arrs = args.iter().map(|v| v.arr()).collect::<R<Vec<&Arr>>>()?;
        let known = self.fold(p, name, e, &arrs)?;
        let symbolic = if is_scalar_op(p) {
            self.scalar(p, &arrs, e.span)
        } else {
            self.structural(p, &arrs).map(|mut a| {
                a.range = structural_range(p, &arrs, &a);
                a
            })
        };
        match (symbolic, known) {
            // the computation stays in the FCL tree (constant folding is the FCL compiler's
            // job); the known value rides along for the static decisions made on it
            (Ok(mut a), Some(k)) => {
                a.known = Some(std::rc::Rc::new(k));
                Ok(Val::Arr(a))
            }
            (Ok(a), None) => Ok(Val::Arr(a)),
            // no symbolic lowering exists (scalar operators without an FCL counterpart): the
            // known result is the only lowering
            (Err(_), Some(k)) if k.size() <= MAX_SELECT => Ok(Val::Arr(Arr::known(k))),
            (Err(why), _) => Err(self.shape_failure(p, name, e, &arrs).unwrap_or(why)),
        }
    }

    /// Where the lowering refuses an operator, whether the TAIL program fails there: shape
    /// operators fail on shapes and static arguments only, so the semantics' operator applied to
    /// arrays of fills of the same shapes tells (`cat` of mismatched rows, `idxS` out of range,
    /// `transp2` of a non-permutation).
    fn shape_failure(
        &self,
        p: Prim,
        name: &str,
        e: &Expr,
        args: &[&Arr],
    ) -> Option<LowerTailError> {
        if self.kernel || is_scalar_op(p) || p.is_higher_order() {
            return None;
        }
        let dummies = args
            .iter()
            .map(|a| match &a.known {
                Some(k) => Some((**k).clone()),
                None if a.size() <= MAX_FILLS => Some(a.fills()),
                None => None,
            })
            .collect::<Option<Vec<Array>>>()?;
        let refs: Vec<&Array> = dummies.iter().collect();
        match apply(p, &refs, &mut OpEnv::default()) {
            Err(reason) => Some(fails(p, name, e, reason)),
            Ok(_) => None,
        }
    }

    /// The value of `p` on known arguments (`None` when one is unknown or large); a failure on
    /// known arguments outside any function body is a failure of the TAIL program.
    fn fold(&mut self, p: Prim, name: &str, e: &Expr, args: &[&Arr]) -> R<Option<Array>> {
        if p.is_higher_order() {
            return Ok(None);
        }
        let Some(known) = args
            .iter()
            .map(|a| a.known.as_deref())
            .collect::<Option<Vec<&Array>>>()
        else {
            return Ok(None);
        };
        if large_result(p, &known) {
            return Ok(None);
        }
        if is_scalar_op(p) {
            let xs: Vec<Scalar> = known.iter().filter_map(|a| a.as_scalar()).collect();
            return match fold_scalar(p, &xs) {
                Ok(x) => Ok(Some(Array::scalar(x))),
                // a TAIL error (overflow, division by zero): leave it to run time
                Err(_) => Ok(None),
            };
        }
        match apply(p, &known, &mut OpEnv::default()) {
            Ok(r) => match r.outcome {
                Outcome::New(a) if a.size() <= MAX_KNOWN => Ok(Some(a)),
                _ => Ok(None),
            },
            Err(reason) if !self.kernel => Err(fails(p, name, e, reason)),
            Err(_) => Ok(None),
        }
    }

    /// `compress(b, a)` and `replicate(_, c, a)` with the mask or counts `b`/`c` known at
    /// compile time: a gather from `a`, whose elements stay symbolic. The gathered positions
    /// are the semantics' own operator applied to the mask or counts and `a`'s 1-based
    /// positions (so a fill, 0, marks a padding element); that also finds the shapes and masks
    /// the operator rejects.
    fn gather_static(
        &mut self,
        p: Prim,
        name: &str,
        e: &Expr,
        args: &[Val],
        f: impl Fn(&[&Array]) -> Result<Array, String>,
    ) -> R<Val> {
        let (sel, a) = (args[0].arr()?, args[1].arr()?);
        let Some(mask) = sel.known.as_deref() else {
            return unsupported(format!(
                "{name} of an array not known at compile time (the mask or counts, which \
                 decide the result's length, are run-time data)"
            ));
        };
        if a.size() > MAX_FILLS {
            return unsupported(format!("{name} of a large array"));
        }
        let positions = Array {
            shape: a.shape.clone(),
            elems: Elems::from_scalars(
                semantics::tail::value::BaseType::Int,
                (1..=a.size()).map(|k| Scalar::Int(k as i32)).collect(),
            ),
        };
        let picked = match f(&[mask, &positions]) {
            Ok(r) => known_ints(&r).unwrap_or_default(),
            Err(reason) if !self.kernel => return Err(fails(p, name, e, reason)),
            Err(reason) => {
                return unsupported(format!("{name} failing inside a function: {reason}"))
            }
        };
        let n = picked.len();
        let fills = picked.contains(&0);
        // (a padding element's position is the literal -1)
        let texts: Vec<Fcl> = picked.iter().map(|&k| fcl!("{}", k - 1)).collect();
        // the positions picked: a choice in the element's expression, or a table where there
        // are many
        let table =
            (n > MAX_SELECT).then(|| self.fresh.table(Ty::Int, std::rc::Rc::new(texts.clone())));
        let (ty, index, fresh) = (a.ty, a.index.clone(), self.fresh.clone());
        let mut out = Arr::new(ty, vec![n], move |i| {
            share(&fresh, i, |i| {
                let at = match &table {
                    Some(t) => fcl!("(index {t} {i})"),
                    None => super::coords::select(i, &texts),
                };
                if !fills {
                    return index(&at);
                }
                share(&fresh, &at, |j| {
                    fcl!("(if lti {j} 0 then {} else {})", ty.fill(), index(j))
                })
            })
        });
        if let Some(known) = a.known.as_deref() {
            out.known = f(&[mask, known]).ok().map(std::rc::Rc::new);
        }
        Ok(Val::Arr(out))
    }

    /// A scalar operator on scalar arguments (spec §5.1–§5.7), applied at `span`.
    fn scalar(&mut self, p: Prim, args: &[&Arr], span: semantics::Span) -> R<Arr> {
        if args.iter().any(|a| !a.shape.is_empty()) {
            return unsupported(format!("{} applied to an array", p.name()));
        }
        if p == Prim::Pi {
            return Ok(Arr::known(Array::scalar(Scalar::Double(
                std::f64::consts::PI,
            ))));
        }
        let texts: Vec<Fcl> = args.iter().map(|a| a.expr()).collect();
        let ranges: Vec<Option<Range>> = args.iter().map(|a| a.range).collect();
        // an application the argument ranges prove cannot fail needs no run-time check
        let span = match range::cannot_fail(p, &ranges) {
            true => semantics::Span::DUMMY,
            false => span,
        };
        let (text, ty) = super::scalar::scalar_op(p, &texts, &self.fresh, span)?;
        let mut out = Arr::scalar(ty, text);
        out.range = range::scalar_range(p, &ranges);
        if p == Prim::I2d {
            out.int_source = Some(args[0].index.clone());
        }
        Ok(out)
    }
}

impl Lowerer {
    /// `idxS(d, i, a)` with index `i` computed: checked at run time against the extent of
    /// axis d (a vector's length where the device computes it), unless `i`'s range lies within
    /// it (rule 3.71).
    pub(super) fn check_slice_index(&self, e: &Expr, args: &mut [Val]) {
        let [Val::Arr(d), Val::Arr(i), Val::Arr(a)] = &*args else {
            return;
        };
        let d = match known_int(d, "") {
            Ok(d) if d >= 1 && d as usize <= a.shape.len() => d as usize - 1,
            _ => return,
        };
        let extent = a.shape[d];
        // the axis's extent where the device computes it: a vector's length, or the number
        // of rows of an array whose rows it counts (`dynamic::rows_dynamic`)
        let computed: Option<Fcl> = match (&a.run_len, &a.run_dims) {
            (Some(len), None) => Some((**len).clone()),
            (Some(_), Some(_)) if d == 0 => Some((*super::dynamic::rows_expr(a)).clone()),
            _ => None,
        };
        let within = i
            .range
            .is_some_and(|r| r.lo >= 1.0 && r.hi <= extent as f64);
        if computed.is_none() && (i.known.is_some() || within) {
            return;
        }
        let text = computed.clone().unwrap_or_else(|| fcl!("{extent}"));
        let checked =
            super::check::checked_index(&self.fresh, e.span, &i.expr(), &text, computed.is_some());
        let mut c = Arr::scalar(Ty::Int, checked);
        c.range = Range::new(1.0, extent.max(1) as f64);
        args[1] = Val::Arr(c);
    }
}

/// The range of the elements of shape operator `p`'s result `out` (module `range`): operators
/// that only move their data arguments' elements and add fills keep their ranges.
fn structural_range(p: Prim, args: &[&Arr], out: &Arr) -> Option<Range> {
    use Prim as P;
    if out.known.is_some() {
        return out.range;
    }
    // the extents of an array of run-time shape are at most its capacity's
    if p == P::Shape {
        return Range::new(0.0, args[0].shape.iter().copied().max().unwrap_or(0) as f64);
    }
    // `first` and `idxS` of a vector of run-time length: one of its elements, or the fill
    // (of an empty one); its junk is within its range and the fill too (`range_with_fill`)
    match (p, args) {
        (P::First, [a]) if a.is_dynamic() => return a.range_with_fill(),
        (P::IdxS, [_, _, a]) if a.is_dynamic() => return a.range_with_fill(),
        _ => {}
    }
    if args.iter().any(|a| a.is_dynamic()) {
        return None;
    }
    let data = match p {
        // (3.34) iota(n) is 1…n
        P::Iota => return Range::new(1.0, out.size() as f64),
        // a permutation of 1…n
        P::GradeUp | P::GradeDown => return Range::new(1.0, out.size().max(1) as f64),
        // permutations of their argument's elements, with no fill
        P::Transp | P::Rav | P::Vreverse => return args[0].range,
        P::Rotate | P::Vrotate | P::Transp2 => return args[1].range,
        P::First | P::Cat | P::Cons | P::Snoc => args,
        P::Reshape | P::Take | P::Drop => &args[1..],
        P::IdxS => &args[2..],
        _ => return None,
    };
    let fill = Range::of_scalar(Scalar::fill(out.ty.base()))?;
    data.iter()
        .try_fold(fill, |acc, a| Some(acc.union(a.range?)))
}

/// The arguments of `p` that decide shapes (counts, shapes, permutations, a formatted
/// number), with what they are called in messages.
fn static_arguments(p: Prim) -> &'static [(usize, &'static str)] {
    use Prim as P;
    match p {
        P::Iota => &[(0, "an iota count")],
        P::Reshape => &[(0, "a reshape shape")],
        P::Take => &[(0, "a take count")],
        P::Drop => &[(0, "a drop count")],
        P::Rotate => &[(0, "a rotate count")],
        P::Vrotate => &[(0, "a vrotate count")],
        P::Transp2 => &[(0, "a transp2 permutation")],
        P::IdxS => &[(0, "an idxS dimension")],
        P::FormatI | P::FormatD => &[(0, "a formatted number (its text's length)")],
        _ => &[],
    }
}

/// Whether `p` on these known arguments builds a result too large to track (checked before
/// computing it: `iota(10000000)` is known but not worth building at compile time).
fn large_result(p: Prim, args: &[&Array]) -> bool {
    let int = |a: &Array| match a.as_scalar() {
        Some(Scalar::Int(v)) => i64::from(v).unsigned_abs() as usize,
        _ => 0,
    };
    match (p, args) {
        (Prim::Iota, [n]) => int(n) > MAX_KNOWN,
        (Prim::Reshape, [sh, _]) => known_ints(sh)
            .map(|s| {
                s.iter()
                    .map(|&d| d.unsigned_abs() as usize)
                    .product::<usize>()
            })
            .is_some_and(|n| n > MAX_KNOWN),
        (Prim::Take, [n, a]) => {
            int(n).saturating_mul(a.shape.get(1..).map_or(1, |r| r.iter().product())) > MAX_KNOWN
        }
        _ => false,
    }
}
