//! The benchmark programs and their Rust references checked against each other: at small sizes
//! every program's TAIL-oracle result equals the reference's (relative 1e-12; in fact to the
//! bit, since the references keep TAIL's operation order), and prints the same result line. On
//! the OpenCL path a program either runs and agrees with its reference, or is refused with a
//! reason; nothing panics.

use compiler::runtime::{Runtime, RuntimeError};
use interpreter::tail::{drive, Outcome, RunOptions, Stats};
use semantics::tail::print_value::array_text;
use semantics::tail::step::{Machine, Value};
use semantics::tail::value::{Array, Scalar};
use tailbench::opencl;
use tailbench::{agree, benches};

/// The TAIL oracle's result (a double scalar) and its result line.
fn oracle(src: &str) -> (f64, String) {
    let prog = semantics::tail::step::load(src).unwrap_or_else(|d| panic!("{d:?}\n{src}"));
    let mut m = Machine::new(prog);
    let mut stats = Stats::default();
    let (outcome, value) = drive(
        &mut m,
        RunOptions::default(),
        &mut stats,
        |_, _, _| Ok(()),
        |_| Ok(()),
    )
    .expect("no output errors");
    let Outcome::Value(line) = outcome else {
        panic!("the oracle did not reach a value: {outcome:?}\n{src}");
    };
    let Some(Value::Loc(l)) = value else {
        panic!("not an array value");
    };
    match l.scalar() {
        Some(Scalar::Double(d)) => (d, line),
        other => panic!("the result is not a double scalar: {other:?}"),
    }
}

#[test]
fn references_equal_the_tail_oracle_at_small_sizes() {
    for b in benches() {
        b.check_size(b.test_size).unwrap();
        let src = b.source(b.test_size);
        assert!(!src.contains('{'), "{}: unfilled placeholder", b.name);
        let (tail, line) = oracle(&src);
        let rust = b.reference(b.test_size);
        assert!(
            agree(tail, rust, 1e-12, 0.0),
            "{} at {}: TAIL oracle {tail:?}, Rust {rust:?}",
            b.name,
            b.size_text(b.test_size)
        );
        assert_eq!(
            line,
            array_text(&Array::scalar(Scalar::Double(rust))),
            "{}: result lines",
            b.name
        );
    }
}

#[test]
fn references_at_second_sizes_still_agree() {
    // A second size per program, so that a reference matching at one size by accident fails.
    for (name, size) in [
        ("signal", vec![37]),
        ("primes", vec![61]),
        ("sieve", vec![1009]),
        ("easter", vec![3005]),
        ("blackscholes", vec![57]),
        ("life", vec![9, 8]),
        ("sobol", vec![1000]),
        ("inner_product", vec![7]),
        ("sort", vec![4099]),
        ("sortd", vec![4099]),
    ] {
        let b = benches().into_iter().find(|b| b.name == name).unwrap();
        let (tail, _) = oracle(&b.source(&size));
        let rust = b.reference(&size);
        assert!(
            agree(tail, rust, 1e-12, 0.0),
            "{name}: {tail:?} vs {rust:?}"
        );
    }
}

#[test]
fn known_values() {
    let b = |name: &str| benches().into_iter().find(|b| b.name == name).unwrap();
    // 25 primes below 100; 168 below 1000.
    assert_eq!(b("primes").reference(&[100]), 25.0);
    assert_eq!(b("primes").reference(&[1000]), 168.0);
    // The primes below 100 sum to 1060 (all below 1000, so mod 1000 changes none).
    assert_eq!(b("sieve").reference(&[100]), 1060.0);
    // Easter 2024 is March 31, Easter 2000 April 23: the 2024th year's term is 20240331.
    let easter = b("easter");
    assert_eq!(
        easter.reference(&[2024]) - easter.reference(&[2023]),
        20240331.0
    );
    assert_eq!(
        easter.reference(&[2000]) - easter.reference(&[1999]),
        20000423.0
    );
    // The Sobol estimate of π converges.
    assert!((b("sobol").reference(&[100_000]) - std::f64::consts::PI).abs() < 1e-3);
    // The direction numbers in the template are the ones the reference computes.
    let dirs = tailbench::reference::sobol_directions();
    let src = b("sobol").template;
    for d in dirs {
        let text = d
            .iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(",");
        assert!(src.contains(&format!("[{text}]")), "{text}");
    }
}

#[test]
fn sizes_are_checked() {
    for b in benches() {
        b.check_size(b.bench_size).unwrap();
        assert!(b.check_size(&[]).is_err());
        let zero = vec![0; b.params.len()];
        assert!(b.check_size(&zero).is_err(), "{}", b.name);
        let over: Vec<usize> = b.max_size.iter().map(|m| m + 1).collect();
        assert!(b.check_size(&over).is_err(), "{}", b.name);
    }
}

#[test]
fn opencl_path_agrees_with_the_references() {
    let rt = match Runtime::new(0) {
        Ok(rt) => rt,
        Err(RuntimeError::NoPlatform(m)) => {
            println!("no OpenCL platform: {m}");
            return;
        }
        Err(e) => panic!("{e}"),
    };
    for b in benches() {
        let src = b.source(b.test_size);
        match opencl::run(&src, &rt, 1) {
            opencl::Outcome::Ran(m) => {
                let rust = b.reference(b.test_size);
                assert!(
                    agree(m.value, rust, 1e-9, 1e-5),
                    "{}: OpenCL {} vs Rust {rust}",
                    b.name,
                    m.value
                );
                println!("{}: ran, {} launches", b.name, m.launches);
            }
            // every benchmark compiles (issue 17: the compiler takes all of TAIL)
            opencl::Outcome::Unsupported(why) => panic!("{}: unsupported: {why}", b.name),
            opencl::Outcome::Failed(why) => panic!("{}: {why}", b.name),
        }
    }
}

#[test]
fn opencl_runner_measures_a_lowerable_program_and_refuses_with_reasons() {
    let Ok(rt) = Runtime::new(0) else {
        println!("no OpenCL device");
        return;
    };
    match opencl::run("i2d(reduce(addi,0,iotaV(10)))", &rt, 3) {
        opencl::Outcome::Ran(m) => {
            assert_eq!(m.value, 55.0);
            assert!(m.launches >= 1 && m.kernel_ms >= 0.0 && m.wall_ms > 0.0);
        }
        other => panic!("{other:?}"),
    }
    // A program the lowering cannot take (a char vector) is a reasoned refusal, not a panic.
    match opencl::run(
        "let v1:[char]1 = ['a','b'] in i2d(first(shape(v1)))",
        &rt,
        1,
    ) {
        opencl::Outcome::Unsupported(why) => assert!(!why.is_empty()),
        opencl::Outcome::Ran(m) => assert_eq!(m.value, 2.0),
        other => panic!("{other:?}"),
    }
}

#[test]
fn templates_are_in_apltails_layout() {
    // apltail's printer layout (spec §2.6), as the project's TAIL printer reproduces it: the
    // text parses and prints back unchanged.
    for b in benches() {
        let src = b.source(b.test_size);
        let e = semantics::tail::parser::parse(&src).unwrap();
        let printed = semantics::tail::printer::print(&e);
        assert_eq!(printed, src, "{}: apltail would print\n{printed}", b.name);
    }
}
