//! A loop's state in one buffer: the arrays of a `power`'s state (an array, or a tuple's
//! components) stored one after another in one device buffer, as ints or, where a component
//! holds doubles, all as doubles ([`Layout`]). A component whose length the step may change
//! is held at a fixed capacity with its current length in a slot after the components; an
//! unbounded vector among them (module `capacity`) comes last, its length and then its
//! elements, in a buffer as long as they are.

use super::lowerer::Lowerer;
use super::range::Range;
use super::tree::{fcl, Fcl, Name};
use super::value::{unsupported, Arr, Fresh, Ty, Val, R};
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
            let (buf, ty) = (buf.clone(), a.ty);
            let mut read = if ty == Ty::Complex {
                let (fresh, n) = (fresh.clone(), a.stored_count());
                Arr::new(ty, a.shape.clone(), move |i: &Fcl| {
                    super::complex::read_pair(&fresh, &buf, o, &n, i)
                })
            } else {
                Arr::new(ty, a.shape.clone(), move |i: &Fcl| {
                    let t = fcl!("(index {buf} ({i} + {o}))");
                    match (doubles, ty) {
                        (true, Ty::Double) | (false, _) => ty.load(&t),
                        // an int stored as a double is exact (|x| < 2^53)
                        (true, _) => ty.load(&fcl!("(floord {t})")),
                    }
                })
            };
            read.range = range;
            read
        })
        .collect()
}

/// Element `i` of the buffer holding the components one after another.
pub(super) fn packed(
    fresh: &Fresh,
    parts: &[Arr],
    offsets: &[usize],
    doubles: bool,
    i: &Fcl,
) -> Fcl {
    let slot = |a: &Arr, j: &Fcl| {
        let t = super::complex::stored_slot(fresh, a, j);
        if doubles && !matches!(a.ty, Ty::Double | Ty::Complex) {
            fcl!("(i2d {t})")
        } else {
            t
        }
    };
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
    /// A state with one unbounded vector (module `capacity`), component u: the other
    /// components laid out as `inner` lays them out, then u's length, then u's elements, the
    /// buffer as long as they are on each trip.
    unbounded: Option<(usize, Box<Layout>)>,
}

/// `xs` without its element `u`.
fn without<T: Clone>(xs: &[T], u: usize) -> Vec<T> {
    let mut out = xs.to_vec();
    out.remove(u);
    out
}

impl Layout {
    /// The layout of state `parts`, whose vectors marked in `dynamic` are held at capacity
    /// `caps` (their own size where `None`).
    /// (A state with one unbounded vector, module `capacity`, holds it last, at its run-time
    /// length; one with more is refused, its vectors' lengths read back first.)
    pub(super) fn new(parts: &[Arr], dynamic: Vec<bool>, caps: &[Option<usize>]) -> R<Layout> {
        let unbounded: Vec<usize> = (0..parts.len())
            .filter(|&c| parts[c].is_unbounded())
            .collect();
        match unbounded[..] {
            [] => {}
            [u] if parts[u].ty != Ty::Complex => {
                return Layout::with_unbounded(parts, u, dynamic, caps)
            }
            _ => return unsupported("a loop's or a branch's state holding unbounded vectors"),
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
        for _ in dynamic.iter().filter(|&&d| d) {
            slots.push(Arr::scalar(Ty::Int, unit()));
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

    /// The layout of state `parts` whose component u is an unbounded vector: the others'
    /// layout first, then u's length and elements (at least one, as any buffer of one).
    fn with_unbounded(
        parts: &[Arr],
        u: usize,
        dynamic: Vec<bool>,
        caps: &[Option<usize>],
    ) -> R<Layout> {
        let mut inner = Layout::new(&without(parts, u), without(&dynamic, u), &without(caps, u))?;
        let a = &parts[u];
        let doubles = inner.doubles || a.ty == Ty::Double;
        inner.doubles = doubles;
        let mut slots = inner.slots.clone();
        slots.push(Arr::scalar(Ty::Int, unit()));
        slots.push(Arr::new(a.ty, a.shape.clone(), |_: &Fcl| unit()));
        let mut offsets = inner.offsets.clone();
        offsets.extend([inner.size, inner.size + 1]);
        let mut dynamic = inner.dynamic.clone();
        dynamic.insert(u, true);
        Ok(Layout {
            dynamic,
            slots,
            offsets,
            size: inner.size + 1,
            doubles,
            unbounded: Some((u, Box::new(inner))),
        })
    }

    /// The length of the buffer that holds state `parts` (an FCL int): its static size, and
    /// with an unbounded vector max(1, its length) more.
    pub(super) fn size_of(&self, parts: &[Arr]) -> Fcl {
        match &self.unbounded {
            Some((u, _)) => fcl!(
                "({} + maxi 1 {})",
                self.size,
                super::value::length_expr(&parts[*u])
            ),
            None => fcl!("{}", self.size),
        }
    }

    /// The state read from buffer `buf`: the components, each dynamic one with its length.
    pub(super) fn read(&self, lw: &Lowerer, buf: &Name) -> Vec<Arr> {
        if let Some((u, inner)) = &self.unbounded {
            // the others, then u's length and elements (the last two slots)
            let last = self.slots.len() - 2;
            let read = reading(
                &lw.fresh,
                buf,
                &self.slots[last..],
                &self.offsets[last..],
                self.doubles,
                &[None, None],
            );
            let mut parts = inner.read(lw, buf);
            let mut a = read[1].clone();
            a.run_len = Some(Rc::new(read[0].expr()));
            parts.insert(*u, a);
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
                if d {
                    a.run_len = lens.next().map(|l| Rc::new(l.expr()));
                }
                a
            })
            .collect()
    }

    /// Element `i` of the buffer holding state `parts` (each at most its slot's capacity).
    pub(super) fn write(&self, lw: &Lowerer, parts: &[Arr], i: &Fcl) -> Fcl {
        packed(
            &lw.fresh,
            &self.slot_arrays(parts),
            &self.offsets,
            self.doubles,
            i,
        )
    }

    /// The arrays that fill this layout's slots with state `parts`.
    fn slot_arrays(&self, parts: &[Arr]) -> Vec<Arr> {
        if let Some((u, inner)) = &self.unbounded {
            let a = &parts[*u];
            let mut slots = inner.slot_arrays(&without(parts, *u));
            slots.push(Arr::scalar(
                Ty::Int,
                (*super::value::length_expr(a)).clone(),
            ));
            slots.push(a.clone());
            return slots;
        }
        let mut slots = Vec::new();
        let mut lens = Vec::new();
        for ((a, slot), &d) in parts.iter().zip(&self.slots).zip(&self.dynamic) {
            if !d {
                slots.push(a.clone());
                continue;
            }
            let (m, cap) = (a.size(), slot.size());
            lens.push(Arr::scalar(
                Ty::Int,
                super::value::length_expr(a).as_ref().clone(),
            ));
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
    /// its capacity was made for its growth (`caps`, see `power_loop`).
    pub(super) fn fits(
        &self,
        parts: &[Arr],
        next: &[Arr],
        caps: &[Option<usize>],
    ) -> R<Option<Vec<bool>>> {
        if next.len() != parts.len() {
            return unsupported("a power whose function changes the form of its state");
        }
        if let Some((u, inner)) = &self.unbounded {
            // u of any length (the buffer takes the next state's), the others as they fit
            let u = *u;
            if next[u].ty != parts[u].ty || next[u].shape.len() != 1 {
                return unsupported("a power whose function changes its unbounded state's type");
            }
            let others = inner.fits(&without(parts, u), &without(next, u), &without(caps, u))?;
            return Ok(others.map(|mut d| {
                d.insert(u, true);
                d
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
            if !vectors || grows || a.ty == Ty::Complex {
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
