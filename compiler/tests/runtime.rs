//! Device tests of the runtime: they print "skipped: no OpenCL platform" and return when there
//! is none.

mod support;

use compiler::runtime::{list_devices, Arg, RuntimeError};
use support::runtime;

#[test]
fn lists_at_least_one_device_when_there_is_a_platform() {
    match list_devices() {
        Ok(ds) => assert!(ds.iter().all(|d| d.max_work_group_size >= 1) && !ds.is_empty()),
        Err(e) => println!("skipped: no OpenCL platform ({e})"),
    }
}

#[test]
fn launches_a_kernel_and_reads_back() {
    let Some(rt) = runtime() else { return };
    let p = rt
        .build("kernel void sq(global int* o, int n) { int i = get_global_id(0); if (i < n) o[i] = i * i; }")
        .unwrap();
    let buf = rt.alloc(4 * 100).unwrap();
    rt.launch(&p, "sq", 2, 64, &[Arg::Buffer(&buf), Arg::Int(100)])
        .unwrap();
    let bytes = rt.read(&buf).unwrap();
    let v: Vec<i32> = bytes
        .chunks(4)
        .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(v[99], 99 * 99);
    assert_eq!(v[7], 49);
}

#[test]
fn a_build_failure_shows_the_log_and_the_line() {
    let Some(rt) = runtime() else { return };
    let Err(RuntimeError::Build(msg)) =
        rt.build("kernel void k(global int* o) {\n  o[0] = y;\n}\n")
    else {
        panic!("expected a build error")
    };
    assert!(msg.contains("o[0] = y;"), "{msg}");
}
