//! Device buffers kept for reuse: a host loop or a `benchmark` repetition allocates the same
//! sizes again and again, and a buffer whose array is dead (its name rebound by the next trip)
//! serves the next allocation instead of a fresh `clCreateBuffer`.
//!
//! A request takes the smallest free buffer whose capacity is at least the size asked for and
//! at most twice it (a host loop whose state shrinks reuses the larger buffers of earlier
//! trips; the factor bounds the memory a small array can hold on to). The buffer's `bytes`
//! become the size asked for, so reads copy back only the array.
//!
//! Each buffer remembers the allocation site (the plan's buffer name) it was last taken for.
//! A site that must start from zeros (`kir::Init::Zero`: the lowering cannot prove that its
//! launches write every element) gets a fresh or foreign buffer zero-filled on the device (all
//! of its capacity), but its own buffer back unfilled: only that site's launches wrote it since
//! it was zeroed, so an element they skip holds what they wrote there on an earlier trip. A
//! program the oracle accepts writes every element (a hole is an error there), so this changes
//! nothing it prints; one with holes stays deterministic. The fill would otherwise cost as much
//! device time as the kernel writing the array (a tiled transpose: 11% of its run).
//!
//! Memory stays bounded when sizes change from trip to trip (a host loop whose state grows):
//! when a site takes a buffer, the free buffers last taken for it that cannot serve it are
//! released, since that site is the one that allocates their sizes again. So the pool holds at
//! most about one free buffer per allocation site of the plan. A site that outgrew its buffer
//! gets a quarter more than it asked for, so that a state growing by a little on every trip
//! does not allocate on every trip.

use super::{DeviceBuffer, Runtime, RuntimeError};
use std::collections::BTreeMap;

/// Free device buffers by capacity in bytes, each with the site it was last taken for, and what
/// the pool has allocated.
#[derive(Default)]
pub struct BufferPool {
    free: BTreeMap<usize, Vec<(DeviceBuffer, Option<String>)>>,
    /// Bytes of the buffers this pool allocated and has not released (lent out or free).
    live_bytes: usize,
    /// The most `live_bytes` reached.
    peak_bytes: usize,
    /// Buffers allocated (requests no free buffer could serve).
    allocations: usize,
}

impl BufferPool {
    /// A buffer of `bytes` bytes: a free one of capacity `bytes..=2*bytes` (the smallest,
    /// preferring one last taken for `site`), else a new one. When `zero`, it is zero-filled
    /// on the device unless it comes back to its own site with the same size. Commands already
    /// queued that use a reused buffer run first: the queue is in order.
    pub fn take(
        &mut self,
        rt: &Runtime,
        bytes: usize,
        site: Option<&str>,
        zero: bool,
    ) -> Result<DeviceBuffer, RuntimeError> {
        let own = |t: &Option<String>| t.as_deref() == site;
        let fit = self
            .free
            .range(bytes..=bytes.saturating_mul(2).max(1))
            .find(|(_, list)| !list.is_empty())
            .map(|(c, _)| *c);
        let taken = fit.and_then(|c| {
            let list = self.free.get_mut(&c)?;
            let i = list
                .iter()
                .rposition(|(_, t)| own(t))
                .unwrap_or(list.len() - 1);
            Some(list.swap_remove(i))
        });
        let outgrown = self.release_stale(bytes, site);
        let (mut buf, same_site) = match taken {
            Some((b, t)) => {
                let same = own(&t) && b.bytes == bytes;
                (b, same)
            }
            None => {
                // a site that outgrew its buffer is likely to grow again (a host loop's state):
                // a quarter more serves the next few sizes
                let b = match outgrown {
                    true => rt
                        .alloc_uninit(bytes.saturating_add(bytes / 4))
                        .or_else(|_| rt.alloc_uninit(bytes))?,
                    false => rt.alloc_uninit(bytes)?,
                };
                self.allocations += 1;
                self.live_bytes += b.capacity;
                self.peak_bytes = self.peak_bytes.max(self.live_bytes);
                (b, false)
            }
        };
        buf.bytes = bytes;
        if zero && !same_site {
            rt.fill_zero(&mut buf)?;
        }
        Ok(buf)
    }

    /// Releases the free buffers last taken for `site` that cannot serve a request of `bytes`;
    /// whether one of them was smaller (the site outgrew it).
    fn release_stale(&mut self, bytes: usize, site: Option<&str>) -> bool {
        let serves = |c: usize| c >= bytes && c <= bytes.saturating_mul(2).max(1);
        let (mut released, mut outgrown) = (0, false);
        for (c, list) in self.free.iter_mut().filter(|(c, _)| !serves(**c)) {
            let before = list.len();
            list.retain(|(_, t)| t.as_deref() != site);
            released += (before - list.len()) * c;
            outgrown |= before > list.len() && *c < bytes;
        }
        self.free.retain(|_, list| !list.is_empty());
        self.live_bytes -= released;
        outgrown
    }

    /// Keeps `buf`, last taken for `site`, for a later [`BufferPool::take`].
    pub fn give(&mut self, buf: DeviceBuffer, site: Option<&str>) {
        self.free
            .entry(buf.capacity)
            .or_default()
            .push((buf, site.map(str::to_string)));
    }

    /// How many buffers are free.
    pub fn len(&self) -> usize {
        self.free.values().map(Vec::len).sum()
    }

    /// Whether no buffer is free.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The most device memory, in bytes, that buffers from this pool held at once (lent out
    /// and free together).
    pub fn peak_bytes(&self) -> usize {
        self.peak_bytes
    }

    /// How many buffers the pool allocated (the requests that no free buffer served).
    pub fn allocations(&self) -> usize {
        self.allocations
    }
}
