//! The companion optimizing compiler: FCL (and TAIL through FCL) to OpenCL C, and its runtime.

pub mod runtime;
