//! Device buffers kept for reuse: a host loop or a `benchmark` repetition allocates the same
//! sizes again and again, and a buffer whose array is dead (its name rebound by the next trip)
//! serves the next allocation of its size instead of a fresh `clCreateBuffer`.

use super::{DeviceBuffer, Runtime, RuntimeError};
use std::collections::HashMap;

/// Free device buffers by size in bytes.
#[derive(Default)]
pub struct BufferPool {
    free: HashMap<usize, Vec<DeviceBuffer>>,
}

impl BufferPool {
    /// A buffer of `bytes` bytes: a free one of that size, else a new one; zeroed on the device
    /// when `zero` (otherwise its contents are whatever it last held). Commands already queued
    /// that use a reused buffer run first: the queue is in order.
    pub fn take(
        &mut self,
        rt: &Runtime,
        bytes: usize,
        zero: bool,
    ) -> Result<DeviceBuffer, RuntimeError> {
        let mut buf = match self.free.get_mut(&bytes).and_then(Vec::pop) {
            Some(b) => b,
            None => rt.alloc_uninit(bytes)?,
        };
        if zero {
            rt.fill_zero(&mut buf)?;
        }
        Ok(buf)
    }

    /// Keeps `buf` for a later [`BufferPool::take`] of its size.
    pub fn give(&mut self, buf: DeviceBuffer) {
        self.free.entry(buf.bytes).or_default().push(buf);
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
