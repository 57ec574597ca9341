//! The store `s` of the store semantics (thesis §3.1.5): a finite map from locations `l` to
//! array values, and the run-time values `v ::= l | λx.e` (plus apltail's tuples).
//!
//! A location is a reference-counted cell holding one array. Its number (`l0`, `l1`, ... in
//! traces) is given at allocation by the [`Store`]. The store's domain is the set of cells that
//! are still reachable from the configuration: a cell that no expression, context or closure
//! refers to can never be read again, so dropping it changes nothing observable (this is the
//! usual garbage-collection argument), and it keeps long runs in bounded memory. The store
//! counts live cells so that runs can report the peak store size.

use crate::tail::value::{Array, Scalar};
use std::cell::{Cell, Ref, RefCell, RefMut};
use std::fmt;
use std::rc::Rc;

thread_local! {
    /// Number of location cells alive on this thread (cells decrement it when dropped).
    static LIVE: Cell<u64> = const { Cell::new(0) };
}

/// A location `l` in the store: a shared, mutable cell (mutated only by `idxassign`, 3.57).
#[derive(Clone)]
pub struct Loc(Rc<LocCell>);

/// The contents of a location.
pub struct LocCell {
    id: u64,
    arr: RefCell<Array>,
}

impl Drop for LocCell {
    fn drop(&mut self) {
        LIVE.with(|c| c.set(c.get().saturating_sub(1)));
    }
}

impl Loc {
    /// The location's number (`l7` has number 7).
    pub fn id(&self) -> u64 {
        self.0.id
    }

    /// `s(l)`: the array stored at this location.
    pub fn get(&self) -> Ref<'_, Array> {
        self.0.arr.borrow()
    }

    /// Mutable access, for `s[l ↦ arr]` (3.57).
    pub fn get_mut(&self) -> RefMut<'_, Array> {
        self.0.arr.borrow_mut()
    }

    /// The element of a one-element array (scalars), if it is one.
    pub fn scalar(&self) -> Option<Scalar> {
        self.get().as_scalar()
    }

    /// True when both are the same location.
    pub fn same(&self, other: &Loc) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl fmt::Display for Loc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "l{}", self.0.id)
    }
}

impl fmt::Debug for Loc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "l{}", self.0.id)
    }
}

/// Allocates fresh locations (rule 3.56's `s, {l ↦ arr}`) and tracks the store's size.
#[derive(Debug)]
pub struct Store {
    next: u64,
    base_live: u64,
    peak: u64,
}

impl Default for Store {
    fn default() -> Self {
        Store::new()
    }
}

impl Store {
    /// An empty store.
    pub fn new() -> Store {
        Store {
            next: 0,
            base_live: LIVE.with(|c| c.get()),
            peak: 0,
        }
    }

    /// `s, {l ↦ arr}` for a fresh `l`.
    pub fn alloc(&mut self, arr: Array) -> Loc {
        let id = self.next;
        self.next += 1;
        let live = LIVE.with(|c| {
            let n = c.get() + 1;
            c.set(n);
            n
        });
        self.peak = self.peak.max(live.saturating_sub(self.base_live));
        Loc(Rc::new(LocCell {
            id,
            arr: RefCell::new(arr),
        }))
    }

    /// Number of locations allocated so far (the next location's number).
    pub fn allocated(&self) -> u64 {
        self.next
    }

    /// The largest number of locations alive at once during this run.
    pub fn peak(&self) -> u64 {
        self.peak
    }

    /// Number of locations alive now (reachable from the configuration).
    pub fn live(&self) -> u64 {
        LIVE.with(|c| c.get()).saturating_sub(self.base_live)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locations_are_numbered_and_freed() {
        let mut s = Store::new();
        let a = s.alloc(Array::scalar(Scalar::Int(1)));
        let b = s.alloc(Array::scalar(Scalar::Int(2)));
        assert_eq!(a.to_string(), "l0");
        assert_eq!(b.id(), 1);
        assert_eq!(s.live(), 2);
        drop(b);
        assert_eq!(s.live(), 1);
        assert_eq!(s.peak(), 2);
        a.get_mut().elems = crate::tail::value::Elems::Int(crate::tail::value::Buf::One(9));
        assert_eq!(a.scalar(), Some(Scalar::Int(9)));
    }
}
