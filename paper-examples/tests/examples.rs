//! The paper examples: well-formed and reproducible from the scripts. That they pass on every
//! engine is tested by the root package (tests/conformance_suites.rs), where the tailfcl binary is
//! always built first.

use conformance::suite::{discover, Expectation, Lang};
use std::collections::HashMap;
use std::process::Command;

#[test]
fn the_scripts_reproduce_every_expected_file() {
    let script = paper_examples::root().join("scripts").join("check_all.py");
    let out = Command::new("python3")
        .arg(&script)
        .output()
        .expect("python3 runs the expected-value scripts (standard library only)");
    assert!(
        out.status.success(),
        "the expected files differ from what the scripts compute:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn every_seed_has_well_formed_examples() {
    let tests =
        discover(&paper_examples::seed_dirs()).expect("every program has exactly one expectation");
    assert!(tests.len() >= 60, "only {} examples", tests.len());
    let mut per_seed: HashMap<String, usize> = HashMap::new();
    for t in &tests {
        let folder = t
            .program
            .parent()
            .unwrap()
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        *per_seed.entry(folder).or_default() += 1;
        let source = std::fs::read_to_string(&t.program).unwrap();
        match t.lang {
            // apltail prints one expression and a single newline (docs/tail.md 1.1).
            Lang::Tail => assert!(
                source.ends_with(")\n") && !source.ends_with("\n\n"),
                "{}",
                t.name
            ),
            Lang::Fcl => assert!(source.contains("val main"), "{} has no main", t.name),
        }
        if let Expectation::Output(out) = &t.expectation {
            assert!(
                out.ends_with('\n') && !out.is_empty(),
                "{}: expected output must end in a newline",
                t.name
            );
        }
    }
    for folder in paper_examples::SEED_FOLDERS {
        assert!(
            per_seed.get(folder).copied().unwrap_or(0) >= 5,
            "{folder} has too few examples"
        );
    }
}
