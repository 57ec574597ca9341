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

#[test]
fn the_pool_reuses_buffers_and_zeroes_them_unless_they_return_to_their_site() {
    use compiler::runtime::{BufferPool, DeviceBuffer};
    let Some(rt) = runtime() else { return };
    let p = rt
        .build("kernel void set(global int* o, int v) { o[get_global_id(0)] = v; }")
        .unwrap();
    let set = |b: &DeviceBuffer, v: i32| {
        rt.launch(&p, "set", 1, 64, &[Arg::Buffer(b), Arg::Int(v)])
            .unwrap();
    };
    let first = |b: &DeviceBuffer| rt.read(b).unwrap()[..4].to_vec();
    let mut pool = BufferPool::default();
    let a = pool.take(&rt, 4 * 64, Some("g1"), true).unwrap();
    assert_eq!(first(&a), 0i32.to_le_bytes(), "a fresh buffer is zeroed");
    set(&a, 7);
    pool.give(a, Some("g1"));
    assert_eq!(pool.len(), 1);
    // a size it cannot serve, asked by another site, leaves it in the pool
    let _other = pool.take(&rt, 4 * 65, Some("g9"), true).unwrap();
    assert_eq!(pool.len(), 1);
    // its own site gets it back as its launches left it
    let a = pool.take(&rt, 4 * 64, Some("g1"), true).unwrap();
    assert!(pool.is_empty());
    assert_eq!(first(&a), 7i32.to_le_bytes());
    set(&a, 9);
    pool.give(a, Some("g1"));
    // another site that needs zeros gets it zeroed; one that does not, as it was
    let b = pool.take(&rt, 4 * 64, Some("g2"), true).unwrap();
    assert_eq!(first(&b), 0i32.to_le_bytes());
    set(&b, 5);
    pool.give(b, Some("g2"));
    let c = pool.take(&rt, 4 * 64, Some("g3"), false).unwrap();
    assert_eq!(first(&c), 5i32.to_le_bytes());
    assert_eq!(pool.allocations(), 2);
}

#[test]
fn the_pool_serves_smaller_arrays_and_releases_what_a_site_outgrew() {
    use compiler::runtime::BufferPool;
    let Some(rt) = runtime() else { return };
    let mut pool = BufferPool::default();
    let mut a = pool.take(&rt, 4000, Some("g1"), false).unwrap();
    rt.write(&mut a, &[0xffu8; 4000]).unwrap();
    pool.give(a, Some("g1"));
    // at most twice the size asked for serves it, and reads see only the size asked for
    let b = pool.take(&rt, 2500, Some("g2"), true).unwrap();
    assert_eq!((b.bytes, b.capacity), (2500, 4000));
    assert_eq!(
        rt.read(&b).unwrap(),
        vec![0u8; 2500],
        "zeroed for another site"
    );
    assert_eq!(rt.read_range(&b, 2496, 4).unwrap(), vec![0u8; 4]);
    assert!(
        rt.read_range(&b, 2498, 4).is_err(),
        "beyond the array's bytes"
    );
    pool.give(b, Some("g2"));
    // more than twice: a new buffer, the large one stays for others
    let c = pool.take(&rt, 1000, Some("g3"), false).unwrap();
    assert_eq!(c.capacity, 1000);
    assert_eq!(pool.len(), 1);
    // a site that grew beyond its free buffer releases it: growing from trip to trip holds
    // one buffer per site, not one per size
    let d = pool.take(&rt, 9000, Some("g2"), false).unwrap();
    assert!(pool.is_empty());
    assert_eq!(pool.allocations(), 3);
    assert_eq!(
        (d.bytes, d.capacity),
        (9000, 9000 + 9000 / 4),
        "room to grow"
    );
    assert_eq!(
        pool.peak_bytes(),
        1000 + d.capacity,
        "the outgrown buffer went first"
    );
    pool.give(c, Some("g3"));
    pool.give(d, Some("g2"));
    let mut peak_sizes = 0;
    for trip in 0..100 {
        let e = pool
            .take(&rt, 10_000 + 100 * trip, Some("g2"), false)
            .unwrap();
        peak_sizes = peak_sizes.max(e.capacity);
        pool.give(e, Some("g2"));
    }
    assert!(pool.len() <= 2, "{} free buffers", pool.len());
    assert!(pool.peak_bytes() <= 1000 + 2 * peak_sizes);
    // 10,000 to 19,900 bytes by 1%: a new buffer when 25% more is outgrown, not every trip
    assert!(
        pool.allocations() <= 3 + 5,
        "{} allocations",
        pool.allocations()
    );
}

#[test]
fn an_allocation_beyond_the_device_limit_is_refused_before_the_driver_sees_it() {
    let Some(rt) = runtime() else { return };
    let too_big = rt.max_alloc_bytes().saturating_add(1) as usize;
    match rt.alloc(too_big) {
        Err(RuntimeError::TooLarge(m)) => assert!(m.contains("CL_DEVICE_MAX_MEM_ALLOC_SIZE")),
        Err(e) => panic!("expected TooLarge, got {e}"),
        Ok(_) => panic!("expected TooLarge"),
    }
}

#[test]
fn without_profiling_launches_run_and_report_no_time() {
    let Some(mut rt) = runtime() else { return };
    rt.set_profiling(false).unwrap();
    assert!(!rt.profiling());
    let p = rt
        .build("kernel void sq(global int* o) { int i = get_global_id(0); o[i] = i * i; }")
        .unwrap();
    let buf = rt.alloc(4 * 64).unwrap();
    // the kernel object made by the first launch serves the second
    for _ in 0..2 {
        let ev = rt.enqueue(&p, "sq", 1, 64, &[Arg::Buffer(&buf)]).unwrap();
        assert!(ev.is_none());
    }
    rt.finish().unwrap();
    assert_eq!(&rt.read(&buf).unwrap()[4 * 9..4 * 10], &81i32.to_le_bytes());
}
