//! Type soundness along runs (thesis Propositions 9–11): every FCL example with an expected
//! output runs on two machine shapes with the configuration checked after every step.

use interpreter::fcl::{run_checked, Config};
use semantics::fcl::lower::load_program;
use std::path::{Path, PathBuf};

fn programs() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut dirs = vec![root.join("examples/fcl")];
    for e in std::fs::read_dir(root.join("paper-examples")).unwrap() {
        let p = e.unwrap().path();
        if p.file_name().unwrap().to_string_lossy().starts_with("seed") {
            dirs.push(p);
        }
    }
    let mut out = Vec::new();
    for d in dirs {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "fcl") && p.with_extension("expected").exists() {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn every_configuration_of_every_example_is_well_typed() {
    let files = programs();
    assert!(files.len() >= 5, "found only {files:?}");
    let (mut checked, mut partial) = (0, 0);
    let mut reasons = std::collections::BTreeMap::new();
    for path in &files {
        let src = std::fs::read_to_string(path).unwrap();
        let name = path.display().to_string();
        let program = load_program(&[(name.clone(), src)])
            .unwrap_or_else(|(f, d)| panic!("{name}: {f}: {}", d.message));
        for shape in ["1x1", "2x4"] {
            let cfg = Config {
                machine: shape.parse().unwrap(),
                max_steps: 2_000_000,
                ..Config::default()
            };
            let (out, sound) = run_checked(&program.main, &program.ty, &cfg, 1);
            assert!(out.result.is_ok(), "{name} on {shape}: {:?}", out.result);
            assert_eq!(
                sound.violation_count, 0,
                "{name} on {shape}: {:?}",
                sound.violations
            );
            assert!(
                sound.checked > 0,
                "{name} on {shape}: nothing typed in full"
            );
            checked += sound.checked;
            partial += sound.partial;
            for (why, n) in sound.partial_reasons {
                *reasons.entry(why).or_insert(0) += n;
            }
        }
    }
    eprintln!(
        "{} programs × 2 shapes: {checked} configurations typed in full, {partial} partly ({reasons:?})",
        files.len()
    );
}
