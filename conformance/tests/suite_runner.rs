//! The conformance runner end to end with a test engine: discovery, judging, CSV and summary.

use conformance::suite::{
    discover, run_suite, Engine, ErrorClass, Expectation, Lang, Outcome, RunStatus, Status,
    TestCase,
};
use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};

/// A fresh, empty folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tailfcl-suite-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(dir: &Path, file: &str, text: &str) {
    let path = dir.join(file);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

/// Answers each test with a canned outcome, keyed by test name; TAIL only.
struct Canned {
    answers: HashMap<String, Outcome>,
}

impl Engine for Canned {
    fn name(&self) -> &str {
        "canned"
    }
    fn device(&self) -> String {
        "test".into()
    }
    fn applies_to(&self, lang: Lang) -> bool {
        lang == Lang::Tail
    }
    fn run(&self, test: &TestCase) -> Outcome {
        self.answers
            .get(&test.name)
            .cloned()
            .unwrap_or_else(|| Outcome::new("", RunStatus::Crashed("no answer".into()), 1))
    }
}

fn ok(stdout: &str) -> Outcome {
    let mut o = Outcome::new(stdout, RunStatus::Completed, 3);
    o.steps = Some(10);
    o.cost = Some(4);
    o.work = Some(9);
    o
}

fn error(class: ErrorClass) -> Outcome {
    Outcome::new(
        "",
        RunStatus::ProgramError {
            class,
            kind: None,
            message: "boom".into(),
        },
        2,
    )
}

#[test]
fn discovers_tests_with_their_files() {
    let dir = scratch("discover");
    write(&dir, "a.tail", "i2d(1)\n");
    write(&dir, "a.expected", "[](1.0)\n");
    write(
        &dir,
        "sub/b.fcl",
        "-- tolerance: 1e-6\nval main = return<grid> ()\n",
    );
    write(
        &dir,
        "sub/b.expected-error",
        "index-out-of-bounds\nextra text\n",
    );
    write(&dir, "sub/b.machine", "4x8\n");
    write(&dir, "c.tail", "i2d(2)\n");
    write(&dir, "c.expected", "[](2.0)\n");
    write(&dir, "c.tolerance", "0.001\n");
    write(&dir, "notes.txt", "not a test\n");
    let tests = discover(std::slice::from_ref(&dir)).unwrap();
    let names: Vec<&str> = tests.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["a", "c", "sub/b"]);
    assert_eq!(
        tests[0].expectation,
        Expectation::Output("[](1.0)\n".into())
    );
    assert_eq!(tests[1].tolerance, Some(0.001));
    assert_eq!(tests[2].lang, Lang::Fcl);
    assert_eq!(
        tests[2].expectation,
        Expectation::Error("index-out-of-bounds".into())
    );
    assert_eq!(tests[2].machine.as_deref(), Some("4x8"));
    assert_eq!(tests[2].tolerance, Some(1e-6));
    // A single file is a suite of one.
    let one = discover(&[dir.join("c.tail")]).unwrap();
    assert_eq!((one.len(), one[0].name.as_str()), (1, "c"));
}

#[test]
fn malformed_suites_are_errors() {
    let dir = scratch("malformed");
    write(&dir, "lonely.tail", "i2d(1)\n");
    let e = discover(std::slice::from_ref(&dir)).unwrap_err();
    assert!(e.reason.contains("neither"), "{e}");
    write(&dir, "lonely.expected", "[](1.0)\n");
    write(&dir, "lonely.expected-error", "race\n");
    assert!(discover(std::slice::from_ref(&dir))
        .unwrap_err()
        .reason
        .contains("both"));
    fs::remove_file(dir.join("lonely.expected-error")).unwrap();
    write(&dir, "lonely.machine", "2by4\n");
    assert!(discover(std::slice::from_ref(&dir))
        .unwrap_err()
        .reason
        .contains("BxT"));
    fs::remove_file(dir.join("lonely.machine")).unwrap();
    write(&dir, "lonely.tolerance", "tiny\n");
    assert!(discover(std::slice::from_ref(&dir))
        .unwrap_err()
        .reason
        .contains("tolerance"));
}

#[test]
fn judges_every_kind_of_outcome_and_reports_csv() {
    let dir = scratch("judge");
    for (name, expectation) in [
        ("pass", "expected"),
        ("wrong", "expected"),
        ("crash", "expected"),
        ("err-ok", "expected-error"),
        ("err-wrong-class", "expected-error"),
        ("err-missing", "expected-error"),
        ("unavailable", "expected"),
    ] {
        write(&dir, &format!("{name}.tail"), "i2d(1)\n");
        let text = if expectation == "expected" {
            "[2,2](1,2,3,4)\n"
        } else {
            "index-out-of-bounds\n"
        };
        write(&dir, &format!("{name}.{expectation}"), text);
    }
    write(&dir, "other.fcl", "val main = return<grid> ()\n");
    write(&dir, "other.expected", "");
    let answers: HashMap<String, Outcome> = [
        ("pass", ok("[2,2](1,2,3,4)\n")),
        ("wrong", ok("[2,2](1,2,3,5)\n")),
        ("err-ok", error(ErrorClass::Runtime)),
        ("err-wrong-class", error(ErrorClass::Static)),
        ("err-missing", ok("[](1.0)\n")),
        (
            "unavailable",
            Outcome::new("", RunStatus::Unavailable("not built".into()), 0),
        ),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    let engine = Canned { answers };
    let tests = discover(&[dir]).unwrap();
    let report = run_suite(&tests, &[&engine]);
    let status: HashMap<&str, Status> = report
        .rows
        .iter()
        .map(|r| (r.test.as_str(), r.status))
        .collect();
    assert_eq!(status["pass"], Status::Pass);
    assert_eq!(status["wrong"], Status::Fail);
    assert_eq!(status["crash"], Status::Error);
    assert_eq!(status["err-ok"], Status::Pass);
    assert_eq!(status["err-wrong-class"], Status::Fail);
    assert_eq!(status["err-missing"], Status::Fail);
    assert_eq!(status["unavailable"], Status::Skip);
    assert_eq!(status["other"], Status::Skip);
    let wrong = report.rows.iter().find(|r| r.test == "wrong").unwrap();
    assert_eq!(wrong.detail, "line 1 element [1,1]: expected 4, got 5");
    assert_eq!(report.summary(), "2 passed, 4 failed, 2 skipped");
    assert!(!report.all_passed());

    let mut csv = Vec::new();
    report.write_csv(&mut csv).unwrap();
    let csv = String::from_utf8(csv).unwrap();
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some("test,engine,device,status,millis,steps,cost,work,detail")
    );
    assert!(csv.contains("\npass,canned,test,pass,3,10,4,9,\n"), "{csv}");
    assert!(
        csv.contains(
            "\nwrong,canned,test,fail,3,10,4,9,\"line 1 element [1,1]: expected 4, got 5\"\n"
        ),
        "{csv}"
    );
    assert_eq!(csv.lines().count(), 1 + 8);
}
