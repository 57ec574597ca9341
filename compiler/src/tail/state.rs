//! A loop's state in one buffer: the arrays of a `power`'s state (an array, or a tuple's
//! components) stored one after another in one device buffer, as ints or, where a component
//! holds doubles, all as doubles ([`Layout`]). A component whose length the step may change
//! is held at a fixed capacity with its current length in a slot after the components (an
//! array of run-time extents, at a capacity per axis, with one slot per extent); the
//! unbounded vectors among them (module `capacity`) come last, their lengths and then their
//! elements, one vector's block after another, in a buffer as long as they are.

use super::extents::{extents_of, product};
use super::lowerer::Lowerer;
use super::range::Range;
use super::tree::{fcl, int, times, Fcl, Name};
use super::value::{length_expr, share, unsupported, Arr, Fresh, Ty, Val, R};
use semantics::fcl::quote::unit;
use std::rc::Rc;

/// The arrays of a state: the array itself, or a tuple's components in order.
pub(super) fn components(v: &Val) -> R<Vec<Arr>> {
    match v {
        Val::Arr(a) => Ok(vec![a.clone()]),
        Val::Tuple(vs) => vs.iter().map(|v| v.arr().cloned()).collect(),
        Val::Fun(_) => unsupported("a function as the state of power"),
    }
}

/// A state of `x`'s form (array or tuple) from its components.
pub(super) fn rebuild(x: &Val, parts: &[Arr]) -> R<Val> {
    match x {
        Val::Tuple(_) => Ok(Val::Tuple(parts.iter().cloned().map(Val::Arr).collect())),
        _ => Ok(Val::Arr(parts[0].clone())),
    }
}

/// How many slots after the components hold a dynamic component's length: one for a
/// vector, one per extent for an array of run-time extents (rank 2 or more).
fn length_slots(slot: &Arr) -> usize {
    slot.shape.len().max(1)
}

/// `a` (an array of run-time extents, or static) held at the larger capacity `shape` (of its
/// rank): its elements in flat order, the slots past its own capacity fills.
pub(super) fn widened(a: &Arr, shape: Vec<usize>) -> Arr {
    let (m, index, ty) = (a.size(), a.index.clone(), a.ty);
    let mut out = Arr::new(ty, shape, move |i: &Fcl| {
        fcl!("(if lti {i} {m} then {} else {})", index(i), ty.fill())
    });
    out.range = a.range_with_fill();
    out.run_len = Some(a.run_len.clone().unwrap_or_else(|| Rc::new(int(m as i64))));
    out.run_dims = Some(extents_of(a).into_iter().map(Rc::new).collect());
    out
}

/// The states `x` with one of its vectors made unbounded (each in turn), then with all of
/// them, where none is already: a step that grows a vector past any capacity, or changes the
/// length of a vector of complex numbers (which a capacity does not hold), lowers on such a
/// state.
pub(super) fn unbounded_states(x: &Val) -> R<Vec<Val>> {
    let parts = components(x)?;
    if parts.iter().any(Arr::is_unbounded) {
        return Ok(Vec::new());
    }
    let vectors: Vec<usize> = (0..parts.len())
        .filter(|&c| parts[c].shape.len() == 1 && parts[c].run_dims.is_none())
        .collect();
    let mut choices: Vec<Vec<usize>> = vectors.iter().map(|&c| vec![c]).collect();
    if vectors.len() > 1 {
        choices.push(vectors);
    }
    choices
        .into_iter()
        .map(|cs| {
            let mut widened = parts.clone();
            for c in cs {
                widened[c] = parts[c].unbounded();
            }
            rebuild(x, &widened)
        })
        .collect()
}

/// The components read from buffer `buf`, component c starting at `offsets[c]` (a complex
/// one as two blocks of doubles, module `complex`), its elements in `ranges[c]`.
pub(super) fn reading(
    fresh: &Fresh,
    buf: &Name,
    parts: &[Arr],
    offsets: &[usize],
    doubles: bool,
    ranges: &[Option<Range>],
) -> Vec<Arr> {
    parts
        .iter()
        .zip(offsets)
        .zip(ranges)
        .map(|((a, &o), &range)| {
            let mut read = read_at(fresh, buf, a, &int(o as i64), doubles);
            read.range = range;
            read
        })
        .collect()
}

/// Array `a` (its type, shape and stored count) read from buffer `buf` at slot `o` (an FCL
/// int), a buffer of doubles where `doubles`.
fn read_at(fresh: &Fresh, buf: &Name, a: &Arr, o: &Fcl, doubles: bool) -> Arr {
    let (buf, ty, o) = (buf.clone(), a.ty, o.clone());
    if ty == Ty::Complex {
        let (fresh, n) = (fresh.clone(), a.stored_count());
        return Arr::new(ty, a.shape.clone(), move |i: &Fcl| {
            super::complex::read_pair(&fresh, &buf, &o, &n, i)
        });
    }
    Arr::new(ty, a.shape.clone(), move |i: &Fcl| {
        let t = fcl!("(index {buf} ({i} + {o}))");
        match (doubles, ty) {
            (true, Ty::Double) | (false, _) => ty.load(&t),
            // an int stored as a double is exact (|x| < 2^53)
            (true, _) => ty.load(&fcl!("(floord {t})")),
        }
    })
}

/// Element `i` of the buffer holding the components one after another.
pub(super) fn packed(
    fresh: &Fresh,
    parts: &[Arr],
    offsets: &[usize],
    doubles: bool,
    i: &Fcl,
) -> Fcl {
    let slot = |a: &Arr, j: &Fcl| stored_as(fresh, a, j, doubles);
    if parts.len() == 1 {
        return slot(&parts[0], i);
    }
    super::value::share(fresh, i, |i| {
        let mut out = slot(
            &parts[parts.len() - 1],
            &fcl!("({i} - {})", offsets[parts.len() - 1]),
        );
        for c in (0..parts.len() - 1).rev() {
            let part = slot(&parts[c], &fcl!("({i} - {})", offsets[c]));
            out = fcl!("(if lti {i} {} then {part} else {out})", offsets[c + 1]);
        }
        out
    })
}

/// Slot `j` of array `a` as a buffer of doubles (where `doubles`) or of ints stores it.
fn stored_as(fresh: &Fresh, a: &Arr, j: &Fcl, doubles: bool) -> Fcl {
    let t = super::complex::stored_slot(fresh, a, j);
    if doubles && !matches!(a.ty, Ty::Double | Ty::Complex) {
        fcl!("(i2d {t})")
    } else {
        t
    }
}

/// The layout of a loop's state buffer: the components at their capacities, one after
/// another, then the length of each component whose length changes.
pub(super) struct Layout {
    /// Whether component c's length changes.
    pub(super) dynamic: Vec<bool>,
    /// The components' element types and capacities (the data parts) followed by one int
    /// scalar per length slot.
    slots: Vec<Arr>,
    offsets: Vec<usize>,
    /// The buffer's length; with an unbounded vector, the part before its elements.
    pub(super) size: usize,
    doubles: bool,
    /// A state with unbounded vectors (module `capacity`), components `us` in order: the
    /// other components laid out as `inner` lays them out, then the unbounded vectors'
    /// lengths, then their elements, one vector's block after another (a complex one's two),
    /// each as long as the vector is (at least one element), so the buffer is as long as they
    /// are on each trip.
    unbounded: Option<Unbounded>,
}

/// The unbounded vectors of a state ([`Layout::unbounded`]), and its arrays of unbounded
/// extents (module `capacity`), held alike: an array's extents where a vector's length is.
struct Unbounded {
    /// Their components, in order.
    us: Vec<usize>,
    /// Their element types.
    tys: Vec<Ty>,
    /// Their capacities (a vector's `[UNBOUNDED]`), whose ranks say how many slots their
    /// lengths or extents take.
    shapes: Vec<Vec<usize>>,
    /// The other components, in order, laid out by `inner`.
    others: Vec<usize>,
    inner: Box<Layout>,
}

/// The number of elements of `a`, a state's unbounded vector or array of unbounded extents
/// (or what the step makes of it): its length, or its extents' product.
fn held_length(a: &Arr) -> Fcl {
    match a.shape.len() {
        1 => (*length_expr(a)).clone(),
        _ => product(&extents_of(a)),
    }
}

/// `xs` at the positions `keep`.
fn picked<T: Clone>(xs: &[T], keep: &[usize]) -> Vec<T> {
    keep.iter().map(|&c| xs[c].clone()).collect()
}

impl Layout {
    /// The layout of state `parts`, whose vectors marked in `dynamic` are held at capacity
    /// `caps` (their own size where `None`).
    /// (A state with unbounded vectors, module `capacity`, holds them last, at their
    /// run-time lengths.)
    pub(super) fn new(parts: &[Arr], dynamic: Vec<bool>, caps: &[Option<usize>]) -> R<Layout> {
        let unbounded: Vec<usize> = (0..parts.len())
            .filter(|&c| parts[c].sized_at_run_time())
            .collect();
        if !unbounded.is_empty() {
            return Layout::with_unbounded(parts, unbounded, dynamic, caps);
        }
        let mut slots: Vec<Arr> = parts
            .iter()
            .zip(caps)
            .map(|(a, cap)| {
                // (only the slot's type and shape matter)
                let shape = cap.map_or(a.shape.clone(), |c| vec![c]);
                Arr::new(a.ty, shape, |_: &Fcl| unit())
            })
            .collect();
        for (c, _) in dynamic.iter().enumerate().filter(|(_, &d)| d) {
            for _ in 0..length_slots(&slots[c]) {
                slots.push(Arr::scalar(Ty::Int, unit()));
            }
        }
        let doubles = parts
            .iter()
            .any(|a| matches!(a.ty, Ty::Double | Ty::Complex));
        let (mut offsets, mut size) = (Vec::new(), 0);
        for a in &slots {
            offsets.push(size);
            size += a.size().max(1) * a.ty.slots();
        }
        Ok(Layout {
            dynamic,
            slots,
            offsets,
            size,
            doubles,
            unbounded: None,
        })
    }

    /// The layout of state `parts` whose components `us` are unbounded vectors: the others'
    /// layout first, then the lengths of `us`, then their elements.
    fn with_unbounded(
        parts: &[Arr],
        us: Vec<usize>,
        dynamic: Vec<bool>,
        caps: &[Option<usize>],
    ) -> R<Layout> {
        let others: Vec<usize> = (0..parts.len()).filter(|c| !us.contains(c)).collect();
        let mut inner = Layout::new(
            &picked(parts, &others),
            picked(&dynamic, &others),
            &picked(caps, &others),
        )?;
        let doubles = inner.doubles
            || us
                .iter()
                .any(|&u| matches!(parts[u].ty, Ty::Double | Ty::Complex));
        inner.doubles = doubles;
        let mut dynamic = dynamic;
        for &u in &us {
            dynamic[u] = true;
        }
        Ok(Layout {
            dynamic,
            slots: inner.slots.clone(),
            offsets: inner.offsets.clone(),
            size: inner.size + us.iter().map(|&u| parts[u].shape.len()).sum::<usize>(),
            doubles,
            unbounded: Some(Unbounded {
                tys: us.iter().map(|&u| parts[u].ty).collect(),
                shapes: us.iter().map(|&u| parts[u].shape.clone()).collect(),
                us,
                others,
                inner: Box::new(inner),
            }),
        })
    }

    /// Where each unbounded vector's block starts, and where the buffer ends, for vectors of
    /// lengths `lens` (FCL ints): after the lengths, each block as long as its vector's stored
    /// count.
    fn blocks(&self, tys: &[Ty], lens: &[Fcl]) -> Vec<Fcl> {
        // (each block after the one before: a chain as long as the vectors are many)
        let mut at = vec![int(self.size as i64)];
        for (ty, len) in tys.iter().zip(lens) {
            let end = fcl!(
                "{} + {}",
                at[at.len() - 1],
                times(ty.slots(), &fcl!("maxi 1 {len}"))
            );
            at.push(end);
        }
        at
    }

    /// The length of the buffer that holds state `parts` (an FCL int): its static size, and
    /// with unbounded vectors their blocks.
    pub(super) fn size_of(&self, parts: &[Arr]) -> Fcl {
        match &self.unbounded {
            Some(Unbounded { us, tys, .. }) => {
                let lens: Vec<Fcl> = us.iter().map(|&u| held_length(&parts[u])).collect();
                self.blocks(tys, &lens).pop().expect("the end")
            }
            None => fcl!("{}", self.size),
        }
    }

    /// The state read from buffer `buf`: the components, each dynamic one with its length.
    pub(super) fn read(&self, lw: &Lowerer, buf: &Name) -> Vec<Arr> {
        if let Some(Unbounded {
            us,
            tys,
            shapes,
            inner,
            ..
        }) = &self.unbounded
        {
            // the others, then the lengths or extents (after the others) and the blocks
            let mut parts = inner.read(lw, buf);
            let k: usize = shapes.iter().map(Vec::len).sum();
            let slots = vec![Arr::scalar(Ty::Int, unit()); k];
            let at: Vec<usize> = (0..k).map(|j| inner.size + j).collect();
            let mut read = reading(&lw.fresh, buf, &slots, &at, self.doubles, &vec![None; k])
                .into_iter()
                .map(|a| a.expr());
            // each one's extents (a vector's length), their product its length
            let dims: Vec<Vec<Fcl>> = shapes
                .iter()
                .map(|shape| read.by_ref().take(shape.len()).collect())
                .collect();
            let lens: Vec<Fcl> = dims.iter().map(|ds| product(ds)).collect();
            let starts = self.blocks(tys, &lens);
            for (j, &u) in us.iter().enumerate() {
                let len = Rc::new(lens[j].clone());
                // (of the slot, only its type and its stored count matter)
                let mut slot = Arr::new(tys[j], shapes[j].clone(), |_: &Fcl| unit());
                slot.run_len = Some(len.clone());
                let mut a = read_at(&lw.fresh, buf, &slot, &starts[j], self.doubles);
                a.run_len = Some(len);
                if shapes[j].len() >= 2 {
                    a.run_dims = Some(dims[j].iter().cloned().map(Rc::new).collect());
                }
                parts.insert(u, a);
            }
            return parts;
        }
        let ranges = vec![None; self.slots.len()];
        let read = reading(
            &lw.fresh,
            buf,
            &self.slots,
            &self.offsets,
            self.doubles,
            &ranges,
        );
        let mut lens = read[self.dynamic.len()..].iter();
        read[..self.dynamic.len()]
            .iter()
            .zip(&self.dynamic)
            .map(|(a, &d)| {
                let mut a = a.clone();
                if d && a.shape.len() >= 2 {
                    // an array of run-time extents: its extents, their product its length
                    let dims: Vec<Fcl> = (0..a.shape.len())
                        .filter_map(|_| lens.next().map(Arr::expr))
                        .collect();
                    a.run_len = Some(Rc::new(product(&dims)));
                    a.run_dims = Some(dims.into_iter().map(Rc::new).collect());
                } else if d {
                    a.run_len = lens.next().map(|l| Rc::new(l.expr()));
                }
                a
            })
            .collect()
    }

    /// Element `i` of the buffer holding state `parts` (each at most its slot's capacity).
    pub(super) fn write(&self, lw: &Lowerer, parts: &[Arr], i: &Fcl) -> Fcl {
        let Some(Unbounded {
            us,
            tys,
            others,
            inner,
            ..
        }) = &self.unbounded
        else {
            return packed(
                &lw.fresh,
                &self.slot_arrays(parts),
                &self.offsets,
                self.doubles,
                i,
            );
        };
        // the others' slots, then the lengths, then the blocks, by a chain of comparisons
        let vectors = picked(parts, us);
        let lens: Vec<Fcl> = vectors.iter().map(held_length).collect();
        let starts = self.blocks(tys, &lens);
        // each one's length, or an array's extents
        let counts: Vec<Fcl> = vectors
            .iter()
            .flat_map(|a| match a.shape.len() {
                1 => vec![(*length_expr(a)).clone()],
                _ => extents_of(a),
            })
            .collect();
        let (fresh, doubles) = (&lw.fresh, self.doubles);
        share(fresh, i, |i| {
            let block =
                |j: usize| stored_as(fresh, &vectors[j], &fcl!("({i} - {})", starts[j]), doubles);
            let last = vectors.len() - 1;
            let mut out = block(last);
            for j in (0..last).rev() {
                out = fcl!(
                    "(if lti {i} {} then {} else {out})",
                    starts[j + 1],
                    block(j)
                );
            }
            for j in (0..counts.len()).rev() {
                let len = stored_as(fresh, &Arr::scalar(Ty::Int, counts[j].clone()), i, doubles);
                out = fcl!("(if lti {i} {} then {len} else {out})", inner.size + j + 1);
            }
            if inner.size == 0 {
                return out;
            }
            let first = inner.write(lw, &picked(parts, others), i);
            fcl!("(if lti {i} {} then {first} else {out})", inner.size)
        })
    }

    /// The arrays that fill this layout's slots with state `parts`.
    fn slot_arrays(&self, parts: &[Arr]) -> Vec<Arr> {
        let mut slots = Vec::new();
        let mut lens = Vec::new();
        for ((a, slot), &d) in parts.iter().zip(&self.slots).zip(&self.dynamic) {
            if !d {
                slots.push(a.clone());
                continue;
            }
            let (m, cap) = (a.size(), slot.size());
            if slot.shape.len() >= 2 {
                // an array of run-time extents (or of a static shape): each extent
                lens.extend(extents_of(a).into_iter().map(|d| Arr::scalar(Ty::Int, d)));
            } else {
                lens.push(Arr::scalar(
                    Ty::Int,
                    super::value::length_expr(a).as_ref().clone(),
                ));
            }
            let (index, ty) = (a.index.clone(), a.ty);
            // (a vector of more elements than the capacity is longer only in its junk: a
            // growing state's capacity holds its longest length, see `power_loop`)
            slots.push(if m >= cap {
                Arr::new(ty, vec![cap], move |i: &Fcl| index(i))
            } else {
                // a shorter vector: the slots past it are fills
                Arr::new(ty, vec![cap], move |i: &Fcl| {
                    fcl!("(if lti {i} {m} then {} else {})", index(i), ty.fill())
                })
            });
        }
        slots.extend(lens);
        slots
    }

    /// Whether `next` (a step's result) fits this layout; else, where it would fit with more
    /// components' lengths changing, that layout's `dynamic`. A vector that grows fits where
    /// its capacity was made for its growth (`caps`, see `power_loop`), and so does an array
    /// of run-time extents whose capacity was made for its growth by `grown` per axis.
    pub(super) fn fits(
        &self,
        parts: &[Arr],
        next: &[Arr],
        caps: &[Option<usize>],
        grown: &[Option<Vec<usize>>],
    ) -> R<Option<Vec<bool>>> {
        if next.len() != parts.len() {
            return unsupported("a power whose function changes the form of its state");
        }
        if let Some(Unbounded {
            us, others, inner, ..
        }) = &self.unbounded
        {
            // us of any lengths (the buffer takes the next state's), the others as they fit
            for &u in us {
                if next[u].ty != parts[u].ty || next[u].shape.len() != parts[u].shape.len() {
                    return unsupported(
                        "a power whose function changes its unbounded state's type",
                    );
                }
            }
            let fitted = inner.fits(
                &picked(parts, others),
                &picked(next, others),
                &picked(caps, others),
                &picked(grown, others),
            )?;
            return Ok(fitted.map(|d| {
                let mut all = vec![true; parts.len()];
                for (&c, d) in others.iter().zip(d) {
                    all[c] = d;
                }
                all
            }));
        }
        let mut dynamic = self.dynamic.clone();
        for (c, (a, b)) in parts.iter().zip(next).enumerate() {
            if a.ty != b.ty {
                return unsupported("a power whose function changes its state's element type");
            }
            if !dynamic[c] && b.shape == a.shape && !b.is_dynamic() {
                continue;
            }
            let vectors = a.shape.len() == 1 && b.shape.len() == 1;
            let grows = b.size() > self.slots[c].size() && caps[c].is_none();
            // an array of run-time extents, each within the slot's (or its growth past it)
            let growth = |k: usize| grown.get(c).and_then(|g| g.as_ref()).map_or(0, |g| g[k]);
            let extents = a.shape.len() >= 2
                && b.shape.len() == a.shape.len()
                && b.shape
                    .iter()
                    .zip(&self.slots[c].shape)
                    .enumerate()
                    .all(|(k, (x, y))| *x <= y + growth(k))
                && caps[c].is_none();
            if !(vectors || extents) || (vectors && grows) || a.ty == Ty::Complex {
                return unsupported(
                    "a power whose function grows its state, or changes a shape that is not a \
                     vector's length",
                );
            }
            dynamic[c] = true;
        }
        Ok((dynamic != self.dynamic).then_some(dynamic))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::tail::tree::parsed as p;

    fn vector(ty: Ty, n: usize, buf: &'static str) -> Arr {
        Arr::new(ty, vec![n], move |i: &Fcl| {
            fcl!("(index {buf} {i})", buf = Name::new(buf))
        })
    }

    #[test]
    fn packed_components_follow_one_another() {
        let f = Fresh::default();
        let parts = [vector(Ty::Int, 2, "a"), vector(Ty::Bool, 3, "b")];
        assert_eq!(
            packed(&f, &parts, &[0, 2], false, &p("i")),
            p("(if lti i 2 then (index a (i - 0)) else (b2i (index b (i - 2))))")
        );
        // in a buffer of doubles, ints are converted; a computed index is named once
        assert_eq!(
            packed(&f, &parts, &[0, 2], true, &p("(i + 1)")),
            p("(let x0 = (i + 1) in \
               if lti x0 2 then (i2d (index a (x0 - 0))) else (i2d (b2i (index b (x0 - 2)))))")
        );
        // one component: its slots as they are
        assert_eq!(
            packed(&f, &parts[..1], &[0], false, &p("i")),
            p("(index a i)")
        );
    }

    #[test]
    fn components_are_read_at_their_offsets() {
        let f = Fresh::default();
        let parts = [vector(Ty::Int, 2, "a"), Arr::scalar(Ty::Bool, p("c"))];
        let s = Name::new("s");
        let read = reading(&f, &s, &parts, &[0, 2], false, &[None, None]);
        assert_eq!((read[0].index)(&p("i")), p("(index s (i + 0))"));
        assert_eq!(read[1].expr(), p("((index s (0 + 2)) == 1)"));
        // ints stored as doubles are floored back
        let read = reading(&f, &s, &parts, &[0, 2], true, &[None, None]);
        assert_eq!((read[0].index)(&p("i")), p("(floord (index s (i + 0)))"));
        assert_eq!(read[1].expr(), p("((floord (index s (0 + 2))) == 1)"));
    }
}
