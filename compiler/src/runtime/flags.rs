//! The error flag, one slot per launch in flight. Kernels report a run-time error (division by
//! zero, a negative exponent, a `while` past its trip limit) by writing a code to the flag they
//! are passed. Launches no longer wait, so the flag is read only where the host drains the
//! queue anyway; to still name the kernel that failed first, every launch of a kernel that can
//! set the flag gets its own slot (a sub-buffer of one flag buffer, read back in one transfer),
//! and the slots are read in launch order. Launches of kernels that cannot fail share a spare
//! slot, which is read too: a code there is never dropped.

use super::{cl, DeviceBuffer, Runtime, RuntimeError};
use opencl3::device::Device;
use opencl3::memory::CL_MEM_READ_WRITE;

/// Slots for launches that can fail between two reads of the flags; a launch that finds them
/// all taken first drains the queue and reads them.
pub const FLAG_SLOTS: usize = 64;

/// The flag buffer, its slots and the kernel that holds each taken slot.
pub struct ErrorFlags {
    whole: DeviceBuffer,
    /// Sub-buffers, made when first needed: slot `i` at byte `i * stride`; the last is spare.
    slots: Vec<DeviceBuffer>,
    stride: usize,
    /// The kernel of each taken slot, in launch order.
    taken: Vec<String>,
}

impl ErrorFlags {
    /// A zeroed flag buffer of [`FLAG_SLOTS`] slots and a spare one.
    pub fn new(rt: &Runtime) -> Result<ErrorFlags, RuntimeError> {
        // sub-buffers must start at the device's base address alignment (given in bits)
        let align = Device::new(rt.device.id)
            .mem_base_addr_align()
            .map_or(1024, |bits| bits as usize / 8);
        let stride = align.max(4);
        let whole = rt.alloc(stride * (FLAG_SLOTS + 1))?;
        Ok(ErrorFlags {
            whole,
            slots: Vec::new(),
            stride,
            taken: Vec::new(),
        })
    }

    /// Whether every slot is taken (read the flags with [`ErrorFlags::check`] first).
    pub fn full(&self) -> bool {
        self.taken.len() >= FLAG_SLOTS
    }

    /// Whether some launch that can fail has run since the last check.
    pub fn pending(&self) -> bool {
        !self.taken.is_empty()
    }

    /// The flag to pass to a launch of `kernel`: a slot of its own when `may_fail`, else the
    /// spare. Call [`ErrorFlags::check`] first when [`ErrorFlags::full`].
    pub fn slot(&mut self, kernel: &str, may_fail: bool) -> Result<&DeviceBuffer, RuntimeError> {
        let i = if may_fail {
            if self.full() {
                return Err(RuntimeError::Cl("every error-flag slot is taken".into()));
            }
            self.taken.push(kernel.to_string());
            self.taken.len() - 1
        } else {
            FLAG_SLOTS
        };
        while self.slots.len() <= i {
            let origin = self.slots.len() * self.stride;
            // SAFETY: the region lies inside the flag buffer and starts aligned.
            let buf = unsafe {
                self.whole
                    .buf
                    .create_sub_buffer(CL_MEM_READ_WRITE, origin, 4)
            }
            .map_err(cl("error flag"))?;
            self.slots.push(DeviceBuffer {
                buf,
                bytes: 4,
                capacity: 4,
            });
        }
        Ok(&self.slots[i])
    }

    /// Drains the queue and reads the flags: the kernel and code of the first taken slot that
    /// is set (the spare one last: "a kernel"). The slots are free again afterwards. Unless
    /// `always` (the end of a run), nothing to read (no launch that can fail since the last
    /// check) reads nothing and does not wait.
    pub fn check(
        &mut self,
        rt: &Runtime,
        always: bool,
    ) -> Result<Option<(String, i32)>, RuntimeError> {
        if self.taken.is_empty() && !always {
            return Ok(None);
        }
        let bytes = rt.read(&self.whole)?;
        let code = |i: usize| {
            bytes
                .get(i * self.stride..i * self.stride + 4)
                .and_then(|c| c.try_into().ok())
                .map_or(0, i32::from_le_bytes)
        };
        let taken = std::mem::take(&mut self.taken);
        for (i, k) in taken.into_iter().enumerate() {
            if code(i) != 0 {
                return Ok(Some((k, code(i))));
            }
        }
        match code(FLAG_SLOTS) {
            0 => Ok(None),
            c => Ok(Some(("a kernel".into(), c))),
        }
    }
}
