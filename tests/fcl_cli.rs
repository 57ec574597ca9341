//! `tailfcl run` and `tailfcl step` on FCL files: output, exit statuses 0/2/3/4, error format.

use std::process::{Command, Output};

fn tailfcl(args: &[&str], files: &[(&str, &str)]) -> Output {
    let dir = std::env::temp_dir().join(format!(
        "tailfcl-fcl-cli-{}-{}",
        std::process::id(),
        files.first().map_or("none", |f| f.0)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tailfcl"));
    cmd.current_dir(&dir).args(args);
    for (name, src) in files {
        std::fs::write(dir.join(name), src).unwrap();
        if name.ends_with(".fcl") {
            cmd.arg(name);
        }
    }
    cmd.output().unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

const SQUARES: &str = "val main = do<grid>
  { a <- forceAndPrint 4 (push<grid> (generate 4 (fn i => i * i)))
  ; b <- forceAndPrintDouble 2 (push<grid> (generate 2 (fn i => divd (i2d i) 2.0)))
  ; return<grid> ()
  }
";

#[test]
fn run_prints_only_what_the_program_prints() {
    let out = tailfcl(
        &["run", "--machine", "4x32", "--check-types"],
        &[("squares.fcl", SQUARES)],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "[0,1,4,9]\n[0.00000,0.50000]\n");
}

#[test]
fn stats_and_schedule_checks() {
    let out = tailfcl(
        &[
            "run",
            "--stats",
            "--schedule",
            "random:4",
            "--check-schedules",
            "3",
        ],
        &[("stats.fcl", SQUARES)],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(err.contains("cost: ") && err.contains("work: "), "{err}");
}

#[test]
fn runtime_error_exits_3_with_rule_and_place() {
    let src = "val main = do<grid>
  { a <- forceAndPrint 4 (push<grid> (generate 4 (fn i => index (generate 3 (fn j => j)) i)))
  ; return<grid> ()
  }
";
    let out = tailfcl(&["run"], &[("oob.fcl", src)]);
    assert_eq!(out.status.code(), Some(3));
    let err = text(&out.stderr);
    assert!(
        err.starts_with("oob.fcl:2:") && err.contains("error: 5.61 index: index 3 outside [0, 3)"),
        "{err}"
    );
}

#[test]
fn race_exits_3_naming_the_index() {
    let src = "val main = do<grid>
  { r <- interleave<block> 2 (fn p => fst p) (generate 2 (fn b => return<block> (push<block> (generate 2 (fn j => j)))))
  ; a <- forceAndPrint 4 r
  ; return<grid> ()
  }
";
    let out = tailfcl(&["run"], &[("race.fcl", src)]);
    assert_eq!(out.status.code(), Some(3));
    assert!(text(&out.stderr).contains("5.86 permute: race: index 0"));
}

#[test]
fn step_limit_exits_4_and_step_prints_rules() {
    let out = tailfcl(&["run", "--max-steps", "3"], &[("limit.fcl", SQUARES)]);
    assert_eq!(out.status.code(), Some(4));
    let out = tailfcl(
        &["step", "--format", "csv", "--limit", "5"],
        &[("trace.fcl", SQUARES)],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let csv = text(&out.stdout);
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some("step,rule,cost,work,location,redex,result,effects")
    );
    assert_eq!(lines.take_while(|l| !l.starts_with('[')).count(), 5);
    let json = tailfcl(
        &["step", "--format", "json", "--from", "2", "--limit", "1"],
        &[("json.fcl", SQUARES)],
    );
    assert!(
        text(&json.stdout).contains("\"step\":2,") && text(&json.stdout).lines().count() == 1,
        "{}",
        text(&json.stdout)
    );
}

#[test]
fn oversized_array_exits_4() {
    let src = "val main = do<grid>
  { a <- forceAndPrint 1 (push<grid> (generate 2000000000 (fn i => i)))
  ; return<grid> ()
  }
";
    let out = tailfcl(&["run"], &[("huge.fcl", src)]);
    assert_eq!(out.status.code(), Some(4));
    assert!(
        text(&out.stderr).contains("limit array-size"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn bad_machine_or_type_error_exits_2() {
    let out = tailfcl(&["run", "--machine", "0x4"], &[("m.fcl", SQUARES)]);
    assert_eq!(out.status.code(), Some(2));
    let out = tailfcl(&["run"], &[("ty.fcl", "val main = 1 + true\n")]);
    assert_eq!(out.status.code(), Some(2));
}

const LOOPS: &str = r#"sig step : int -> [int] -> Program <block> [int]<block>
fun step i x = return<block> (push<block> (generate (lengthPull x) (fn j => index x j + i)))

sig blk : [int] -> Program <block> [int]<block>
fun blk x = do<block>
  { y <- power<block> 3 step (return<block> (push<block> x))
  ; z <- while<block> (fn a => lti (index a 0) 100) (fn a => return<block> (push<block> (mapPull (fn v => v * 2) a))) (return<block> (push<block> y))
  ; return<block> (push<block> z)
  }

val main = do<grid>
  { d <- readIntCSV "data.csv"
  ; r <- concat<block> 6 (generate 1 (fn b => blk d))
  ; a <- forceAndPrint 6 r
  ; s <- interleaveSeq<grid> 2 (fn p => fst p * 2 + snd p) (generate 3 (fn b => computeInSingleBlock (generate 2 (fn j => b * 10 + j))))
  ; q <- forceAndPrint 6 s
  ; benchmark 2 (forceAndPrint 1 s)
  ; return<grid> ()
  }
"#;

#[test]
fn loops_interleave_seq_and_host_operations_end_to_end() {
    let files = [("loops.fcl", LOOPS), ("data.csv", "1,2,3\n4 5 6\n")];
    let out = tailfcl(&["run"], &files);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // power adds 0+1+2, while doubles until the first element reaches 100
    assert_eq!(
        text(&out.stdout),
        "[128,160,192,224,256,288]\n[0,1,10,11,20,21]\n[0]\n[0]\n[0]\n"
    );
    assert!(text(&out.stderr).starts_with("Benchmark (2 repetitions): "));
    for machine in ["1x1", "16x256"] {
        let again = tailfcl(
            &["run", "--machine", machine, "--check-schedules", "2"],
            &files,
        );
        assert_eq!(again.status.code(), Some(0));
        assert_eq!(again.stdout, out.stdout);
    }
}
