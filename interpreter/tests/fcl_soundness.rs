//! Type soundness along runs (thesis Propositions 9–11): every FCL example with an expected
//! output runs on two machine shapes with the configuration checked after every step.

use interpreter::fcl::{run_checked, Config};
use semantics::fcl::lower::load_program;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

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

/// Configurations typed in full and partly along the run of one program on one shape, and
/// why the partial ones were partial.
type Tally = (u64, u64, BTreeMap<&'static str, u64>);

fn check_program(path: &Path, shape: &str) -> Tally {
    let src = std::fs::read_to_string(path).unwrap();
    let name = path.display().to_string();
    let program = load_program(&[(name.clone(), src)])
        .unwrap_or_else(|(f, d)| panic!("{name}: {f}: {}", d.message));
    let mut tally: Tally = (0, 0, BTreeMap::new());
    {
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
        tally.0 += sound.checked;
        tally.1 += sound.partial;
        for (why, n) in sound.partial_reasons {
            *tally.2.entry(why).or_insert(0) += n;
        }
    }
    tally
}

#[test]
fn every_configuration_of_every_example_is_well_typed() {
    let files = programs();
    assert!(files.len() >= 5, "found only {files:?}");
    // the runs are independent: one thread per core, each taking the next run, the longest
    // programs (by their text) first
    let mut runs: Vec<(&PathBuf, &str)> = files
        .iter()
        .flat_map(|f| [(f, "1x1"), (f, "2x4")])
        .collect();
    runs.sort_by_key(|(f, _)| std::cmp::Reverse(std::fs::metadata(f).map_or(0, |m| m.len())));
    let next = AtomicUsize::new(0);
    let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    let tallies: Vec<Tally> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..jobs)
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    while let Some((path, shape)) = runs.get(next.fetch_add(1, Ordering::Relaxed)) {
                        mine.push(check_program(path, shape));
                    }
                    mine
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    let (mut checked, mut partial) = (0, 0);
    let mut reasons = BTreeMap::new();
    for (c, p, why) in tallies {
        checked += c;
        partial += p;
        for (w, n) in why {
            *reasons.entry(w).or_insert(0) += n;
        }
    }
    eprintln!(
        "{} programs × 2 shapes: {checked} configurations typed in full, {partial} partly ({reasons:?})",
        files.len()
    );
}
