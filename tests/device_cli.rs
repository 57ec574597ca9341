//! `tailfcl compile`, `exec` and `devices` end to end through the binary.

mod support;
use std::process::Command;
use support::{have_device, tailfcl};

#[test]
fn compile_prints_opencl_kernels_at_both_levels() {
    for o in ["-O0", "-O2"] {
        let (code, out, err) = tailfcl(&["compile", o, "examples/fcl/transpose.fcl"]);
        assert_eq!(code, 0, "{err}");
        assert!(out.contains("__kernel void kernel_0("), "{out}");
        assert!(out.contains("barrier(CLK_LOCAL_MEM_FENCE);"));
    }
}

#[test]
fn exec_prints_what_run_prints() {
    if !have_device() {
        return;
    }
    // exec compiles for the device it runs on (banked local memory gets padded tiles): the
    // tiled programs, whose local arrays that would pad, print what `run` prints too
    for f in [
        "examples/fcl/reduce.fcl",
        "examples/fcl/scan.fcl",
        "examples/fcl/transpose.fcl",
        "examples/fcl/matmul.fcl",
    ] {
        let (code, out, err) = tailfcl(&["exec", f]);
        assert_eq!(code, 0, "{err}");
        let (_, want, _) = tailfcl(&["run", f]);
        assert_eq!(out, want);
    }
}

#[test]
fn unsupported_programs_exit_6_with_a_clear_message() {
    let path = std::env::temp_dir().join("tailfcl_device_cli_bench.fcl");
    std::fs::write(
        &path,
        // a block-level while whose run-time loop would change the state's length
        "sig main : Program <grid> unit\nval main = do<grid> { g <- (concat<block> 2 (generate 1 (fn b => do<block> { r <- while<block> (fn a => lti (index a 0) 5) (fn a => return<block> (push<block> (generate (divi (lengthPull a) 2) (fn i => index a i + 1)))) (return<block> (push<block> (generate 64 (fn i => i)))) ; return<block> (push<block> r) }))) ; a <- forceAndPrint 2 g ; return<grid> () }\n",
    )
    .unwrap();
    let (code, out, err) = tailfcl(&["compile", path.to_str().unwrap()]);
    assert_eq!(code, 6, "{out}{err}");
    assert!(
        err.contains(":2:133: unsupported: a power or while step that changes the array length"),
        "{err}"
    );
}

#[test]
fn print_of_too_many_elements_is_a_run_time_error() {
    if !have_device() {
        return;
    }
    let path = std::env::temp_dir().join("tailfcl_device_cli_print.fcl");
    std::fs::write(
        &path,
        "sig main : Program <grid> [int]\nval main = do<grid> { p <- concat<block> 4 (generate 1 (fn b => return<block> (push<block> (generate 4 (fn i => i))))) ; forceAndPrint 5 p }\n",
    )
    .unwrap();
    let (code, _, err) = tailfcl(&["exec", path.to_str().unwrap()]);
    assert_eq!(code, 3, "{err}");
}

#[test]
fn division_by_zero_in_a_kernel_is_a_run_time_error() {
    if !have_device() {
        return;
    }
    let path = std::env::temp_dir().join("tailfcl_device_cli_div.fcl");
    std::fs::write(
        &path,
        "sig main : Program <grid> [int]\nval main = do<grid> { p <- concat<block> 4 (generate 1 (fn b => return<block> (push<block> (generate 4 (fn i => 8 / (i - 2)))))) ; forceAndPrint 4 p }\n",
    )
    .unwrap();
    let (code, out, err) = tailfcl(&["exec", path.to_str().unwrap()]);
    assert_eq!(code, 3, "{out}{err}");
    assert!(err.contains("division by zero"), "{err}");
    let (code, _, _) = tailfcl(&["run", path.to_str().unwrap()]);
    assert_eq!(code, 3, "the oracle agrees");
}

#[test]
fn benchmark_runs_its_program_n_plus_one_times() {
    if !have_device() {
        return;
    }
    let path = std::env::temp_dir().join("tailfcl_device_cli_benchmark.fcl");
    std::fs::write(
        &path,
        "sig main : Program <grid> unit\nval main = benchmark 2 (do<grid> { p <- concat<block> 4 (generate 1 (fn b => return<block> (push<block> (generate 4 (fn i => i * 3))))) ; forceAndPrint 4 p })\n",
    )
    .unwrap();
    let (code, out, err) = tailfcl(&["exec", path.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let (_, want, _) = tailfcl(&["run", path.to_str().unwrap()]);
    assert_eq!(out, want);
    assert_eq!(out, "[0,3,6,9]\n".repeat(3));
    assert!(err.contains("Benchmark (2 repetitions): "), "{err}");
}

#[test]
fn a_host_loop_of_launches_prints_what_run_prints() {
    if !have_device() {
        return;
    }
    let path = std::env::temp_dir().join("tailfcl_device_cli_power.fcl");
    std::fs::write(
        &path,
        "fun step i a = concat<block> 4 (generate (lengthPull a / 4) (fn b => return<block> (push<block> (generate 4 (fn t => index a (b * 4 + t) * 2 + i)))))\nsig main : Program <grid> unit\nval main = do<grid> { x <- power<grid> 10 step (concat<block> 4 (generate 4 (fn b => return<block> (push<block> (generate 4 (fn t => b * 4 + t)))))) ; y <- computeInSingleBlock x ; a <- forceAndPrint 16 y ; return<grid> () }\n",
    )
    .unwrap();
    let (_, want, _) = tailfcl(&["run", path.to_str().unwrap()]);
    for o in ["-O0", "-O2"] {
        let (code, out, err) = tailfcl(&["exec", o, path.to_str().unwrap()]);
        assert_eq!(code, 0, "{err}");
        assert_eq!(out, want);
    }
}

#[test]
fn read_int_csv_feeds_a_kernel() {
    if !have_device() {
        return;
    }
    let dir = std::env::temp_dir();
    let csv = dir.join("tailfcl_device_cli_ints.csv");
    std::fs::write(&csv, "1, 2,3\n-4 x 5.5\n").unwrap();
    let path = dir.join("tailfcl_device_cli_csv.fcl");
    std::fs::write(
        &path,
        format!("sig main : Program <grid> unit\nval main = do<grid> {{ a <- readIntCSV \"{}\" ; p <- concat<block> 1 (generate (lengthPull a) (fn b => return<block> (push<block> (generate 1 (fn i => index a b * 10))))) ; r <- forceAndPrint 6 p ; return<grid> () }}\n", csv.display()),
    )
    .unwrap();
    let (code, out, err) = tailfcl(&["exec", path.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "[10,20,30,-40,0,50]\n");
    let (_, want, _) = tailfcl(&["run", path.to_str().unwrap()]);
    assert_eq!(out, want);
}

#[test]
fn exec_verify_prints_one_line_per_engine_and_exits_0_when_they_agree() {
    if !have_device() {
        return;
    }
    let (code, out, err) = tailfcl(&["exec", "--verify", "examples/oracle_dotpi_matrices.tail"]);
    assert_eq!(code, 0, "{out}{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines,
        [
            "tail-oracle: reference: [2](6,30) | [](36.0)",
            "fcl-oracle: agrees",
            "opencl: agrees"
        ],
        "{out}"
    );
}

#[test]
fn exec_verify_refuses_fcl_exec_reads_nowi_and_roll_agrees() {
    let (code, _, err) = tailfcl(&["exec", "--verify", "examples/fcl/reduce.fcl"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--verify compares the engines of a TAIL program"),
        "{err}"
    );
    if !have_device() {
        return;
    }
    // `nowi` is a run-time input, different at every run: the host reads it when the program
    // runs; an argument other than 0 fails as on the oracle
    let dir = std::env::temp_dir().join(format!("device_cli_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let nowi = dir.join("nowi.tail");
    std::fs::write(
        &nowi,
        "let t:[int]0 = nowi(0) in each(fn x:[int]0 => addi(t,x),[0,1])",
    )
    .unwrap();
    let (code, out, err) = tailfcl(&["exec", nowi.to_str().unwrap()]);
    let bad = dir.join("nowi1.tail");
    std::fs::write(&bad, "nowi(1)").unwrap();
    let (bad_code, _, bad_err) = tailfcl(&["exec", bad.to_str().unwrap()]);
    let (run_code, _, run_err) = tailfcl(&["run", bad.to_str().unwrap()]);
    // `roll` draws from the oracle's generator: the engines agree
    let roll = dir.join("roll.tail");
    std::fs::write(&roll, "addd(roll(6),roll(0))").unwrap();
    let (roll_code, roll_out, roll_err) = tailfcl(&["exec", "--verify", roll.to_str().unwrap()]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(code, 0, "{err}");
    let ms: Vec<i64> = out
        .trim()
        .trim_start_matches("[2](")
        .trim_end_matches(')')
        .split(',')
        .map(|t| t.parse().unwrap_or(-1))
        .collect();
    assert!(ms.len() == 2 && ms[0] >= 0 && ms[1] == ms[0] + 1, "{out}");
    assert!(ms[0] < 600_000, "{out}");
    assert_eq!((bad_code, run_code), (3, 3), "{bad_err}");
    assert!(
        bad_err.contains("error: 3.75 nowi: nowi of 1 (only 0 is allowed)"),
        "{bad_err}"
    );
    assert_eq!(bad_err, run_err);
    assert_eq!(roll_code, 0, "{roll_out}{roll_err}");
    assert!(roll_out.contains("opencl: agrees"), "{roll_out}");
}

#[test]
fn exec_verify_reads_files_on_the_host() {
    if !have_device() {
        return;
    }
    // file names are relative to the working directory (spec §7), as on the TAIL oracle
    let examples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let out = Command::new(env!("CARGO_BIN_EXE_tailfcl"))
        .args(["exec", "--verify", "oracle_read_file.tail"])
        .current_dir(examples)
        .output()
        .expect("the binary runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert_eq!(
        text.lines().collect::<Vec<_>>(),
        [
            "tail-oracle: reference: [6](1,2,3,-4,-6,12) | [](8.0)",
            "fcl-oracle: agrees",
            "opencl: agrees"
        ],
        "{text}"
    );
}

#[test]
fn tail_programs_run_lowered_and_fail_like_run() {
    let (code, out, err) = tailfcl(&[
        "compile",
        "paper-examples/seed004-thesis/transpose-double-reduce.tail",
        "--emit",
        "fcl",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("sig main : Program <grid> unit"), "{out}");
    if !have_device() {
        return;
    }
    // a program that prints, and ones that certainly fail after printing or at once
    for f in [
        "paper-examples/seed002-moa/take-reverse.tail",
        "examples/oracle_errors_iota.tail",
        "paper-examples/seed004-thesis/dotpi-mismatch.tail",
        "paper-examples/seed004-thesis/update-out-of-range.tail",
    ] {
        let (code, out, err) = tailfcl(&["exec", f]);
        let (want_code, want, want_err) = tailfcl(&["run", f]);
        assert_eq!((code, &out), (want_code, &want), "{f}: {err}");
        let last = |s: &str| s.lines().last().unwrap_or_default().to_string();
        assert_eq!(last(&err), last(&want_err), "{f}");
    }
}

/// `devices` prints each device's limits; `--device` takes an index or a case-insensitive
/// fragment of the platform or device name, and one that names nothing is exit 5, listing the
/// devices there are.
#[test]
fn devices_show_limits_and_device_takes_a_name_fragment() {
    if !have_device() {
        return;
    }
    let (code, out, err) = tailfcl(&["devices"]);
    assert_eq!(code, 0, "{err}");
    let first = out.lines().next().unwrap_or_default();
    for limit in [
        "max work-group ",
        "local ",
        "max alloc ",
        "parameters ",
        "compute units ",
    ] {
        assert!(first.contains(limit), "{first}");
    }
    // a fragment of the first device's name, in other case
    let name = first
        .split(" / ")
        .nth(1)
        .and_then(|n| n.split(" (").next())
        .unwrap_or_default();
    let fragment: String = name.chars().take(6).collect::<String>().to_uppercase();
    for device in ["0", fragment.as_str()] {
        let (code, out, err) = tailfcl(&["exec", "examples/fcl/reverse.fcl", "--device", device]);
        assert_eq!(code, 0, "--device {device}: {err}");
        assert!(out.starts_with("[15,14,13,"), "{out}");
    }
    let (code, _, err) = tailfcl(&[
        "exec",
        "examples/fcl/reverse.fcl",
        "--device",
        "no-such-gpu",
    ]);
    assert_eq!(code, 5, "{err}");
    assert!(err.contains("no device matches `no-such-gpu`"), "{err}");
    assert!(err.contains(name), "{err}");
}
