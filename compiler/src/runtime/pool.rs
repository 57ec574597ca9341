//! Device buffers kept for reuse: a host loop or a `benchmark` repetition allocates the same
//! sizes again and again, and a buffer whose array is dead (its name rebound by the next trip)
//! serves the next allocation of its size instead of a fresh `clCreateBuffer`.
//!
//! Each buffer remembers the allocation site (the plan's buffer name) it was last taken for.
//! A site that must start from zeros (`kir::Init::Zero`: the lowering cannot prove that its
//! launches write every element) gets a fresh or foreign buffer zero-filled on the device, but
//! its own buffer back unfilled: only that site's launches wrote it since it was zeroed, so an
//! element they skip holds what they wrote there on an earlier trip. A program the oracle
//! accepts writes every element (a hole is an error there), so this changes nothing it prints;
//! one with holes stays deterministic. The fill would otherwise cost as much device time as the
//! kernel writing the array (a tiled transpose: 11% of its run).

use super::{DeviceBuffer, Runtime, RuntimeError};
use std::collections::HashMap;

/// Free device buffers by size in bytes, each with the site it was last taken for.
#[derive(Default)]
pub struct BufferPool {
    free: HashMap<usize, Vec<(DeviceBuffer, Option<String>)>>,
}

impl BufferPool {
    /// A buffer of `bytes` bytes: a free one of that size (preferring one last taken for
    /// `site`), else a new one. When `zero`, it is zero-filled on the device unless it comes
    /// back to its own site. Commands already queued that use a reused buffer run first: the
    /// queue is in order.
    pub fn take(
        &mut self,
        rt: &Runtime,
        bytes: usize,
        site: Option<&str>,
        zero: bool,
    ) -> Result<DeviceBuffer, RuntimeError> {
        let list = self.free.entry(bytes).or_default();
        let own = site.and_then(|s| list.iter().rposition(|(_, t)| t.as_deref() == Some(s)));
        let (mut buf, same_site) = match own {
            Some(i) => (list.swap_remove(i).0, true),
            None => match list.pop() {
                Some((b, _)) => (b, false),
                None => (rt.alloc_uninit(bytes)?, false),
            },
        };
        if zero && !same_site {
            rt.fill_zero(&mut buf)?;
        }
        Ok(buf)
    }

    /// Keeps `buf`, last taken for `site`, for a later [`BufferPool::take`] of its size.
    pub fn give(&mut self, buf: DeviceBuffer, site: Option<&str>) {
        self.free
            .entry(buf.bytes)
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
}
