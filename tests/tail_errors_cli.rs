//! Compiled TAIL programs fail as the TAIL oracle fails: `exec` exits 3 with the oracle's
//! output before the failure and its error line (rule, reason, source position), for int
//! overflow (in `each`, a long `reduce`, a long `scan`, a product, the statements before a
//! filter's length is read back), division and modulo by
//! zero, a negative `power` count and a negative `roll` bound per element (examples/tail-errors, docs/tail-compiler.md §6).

mod support;
use support::{have_device, tailfcl};

fn examples() -> Vec<String> {
    let mut files: Vec<String> = std::fs::read_dir("examples/tail-errors")
        .expect("the examples exist")
        .filter_map(|e| e.ok())
        .map(|e| e.path().to_string_lossy().into_owned())
        .filter(|p| p.ends_with(".tail"))
        .collect();
    files.sort();
    files
}

#[test]
fn the_oracle_stops_each_error_example_with_its_rule() {
    let want = [
        (
            "division_by_zero",
            "2:21: error: 3.32 divi: divi: division by zero",
        ),
        (
            "modulo_by_zero",
            "2:1: error: 3.32 mod: mod: division by zero",
        ),
        (
            "negative_power",
            "2:1: error: 3.60 power: power with negative count -10",
        ),
        (
            "negative_roll",
            "2:26: error: 3.75 roll: roll of negative number -3",
        ),
        // the overflow happens in the statements that compute the filter's length: the
        // compiled program fails there too, after the print before it
        (
            "overflow_before_filter",
            "2:36: error: 3.32 muli: muli: integer overflow",
        ),
        (
            "overflow_each",
            "1:36: error: 3.32 muli: muli: integer overflow",
        ),
        (
            "overflow_fold_order",
            "2:8: error: 3.32 addi: addi: integer overflow",
        ),
        (
            "overflow_product",
            "1:8: error: 3.32 muli: muli: integer overflow",
        ),
        (
            "overflow_reduce",
            "3:8: error: 3.32 addi: addi: integer overflow",
        ),
        (
            "overflow_scan",
            "1:21: error: 3.32 addi: addi: integer overflow",
        ),
    ];
    let files = examples();
    assert_eq!(files.len(), want.len(), "{files:?}");
    for (f, (name, line)) in files.iter().zip(want) {
        assert!(f.ends_with(&format!("{name}.tail")), "{f}");
        let (code, _, err) = tailfcl(&["run", f]);
        assert_eq!(code, 3, "{f}: {err}");
        assert_eq!(err.trim_end(), format!("{f}:{line}"));
    }
}

#[test]
fn exec_fails_exactly_as_run_does() {
    if !have_device() {
        return;
    }
    for f in examples() {
        let run = tailfcl(&["run", &f]);
        let exec = tailfcl(&["exec", &f]);
        assert_eq!(exec, run, "{f}");
    }
}

#[test]
fn verify_agrees_on_failing_programs() {
    if !have_device() {
        return;
    }
    for name in [
        "overflow_before_filter",
        "division_by_zero",
        "overflow_fold_order",
        "negative_power",
        "negative_roll",
    ] {
        let f = format!("examples/tail-errors/{name}.tail");
        let (code, out, err) = tailfcl(&["exec", "--verify", &f]);
        assert_eq!(code, 0, "{f}: {out}{err}");
        assert!(out.contains("error:"), "{out}");
        assert_eq!(out.matches(": agrees").count(), 2, "{out}");
    }
}

#[test]
fn programs_that_do_not_fail_still_run() {
    if !have_device() {
        return;
    }
    // the sums stay in range: checked arithmetic gives the oracle's values
    let path = std::env::temp_dir().join("tailfcl_tail_errors_ok.tail");
    std::fs::write(
        &path,
        "let v:[int]1 = scan(addi,0,each(fn x:[int]0 => subi(x,50000),iota(100000))) in\n\
         prArrI(take(3,drop(49998,v)))\n",
    )
    .unwrap();
    let p = path.to_string_lossy().into_owned();
    let (code, out, err) = tailfcl(&["exec", &p]);
    assert_eq!(code, 0, "{err}");
    let (_, want, _) = tailfcl(&["run", &p]);
    assert_eq!(out, want);
}
