//! Every configuration along a run is a closed TAIL program (its store bound by `let`s with the
//! store typing Σ as annotations). Type preservation (thesis Propositions 2/5): it types to a
//! subtype of the program's type. And read back and run, it reaches the same value as the
//! original run (the decomposition `E[r]/s` is the configuration). Checked on every step of the
//! example programs where the configuration has TAIL syntax (not inside a bulk operator).

use semantics::tail::step::typing::{subtype, type_of_program};
use semantics::tail::step::{load, reader::read, show::value_text, Machine, Stepped};
use std::path::PathBuf;

fn examples() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("examples/ exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            name.starts_with("oracle_") && name.ends_with(".tail")
        })
        .collect();
    v.sort();
    v
}

/// Runs to the end: the result line, or `err` with its rule.
fn final_value(m: &mut Machine) -> String {
    loop {
        match m.step() {
            Stepped::Next(_) => {}
            Stepped::Value(v) => return value_text(&v),
            Stepped::Err(e) => return format!("err {}", e.rule),
        }
    }
}

#[test]
fn configurations_preserve_the_type_and_reach_the_same_value() {
    let files = examples();
    assert!(files.len() >= 6, "example programs found: {files:?}");
    // File names in programs are relative to the working directory (spec §7); this is the only
    // test in this binary, so changing the directory affects nothing else.
    std::env::set_current_dir(files[0].parent().unwrap()).unwrap();
    let mut checked = 0;
    for path in files {
        let src = std::fs::read_to_string(&path).unwrap();
        let prog = load(&src).unwrap_or_else(|d| panic!("{}: {d}", path.display()));
        // The program's type τ; every configuration must have a subtype of it (Proposition 5).
        let tau = type_of_program(&read(&src).unwrap())
            .unwrap_or_else(|m| panic!("{}: program does not type: {m}", path.display()));
        let want = final_value(&mut Machine::new(prog.clone()));
        let mut m = Machine::new(prog);
        let mut step = 0;
        loop {
            if let Some(cfg) = m.configuration(100_000) {
                let p = load(&cfg).unwrap_or_else(|d| {
                    panic!(
                        "{} step {step}: configuration does not read: {d}\n{cfg}",
                        path.display()
                    )
                });
                let ty = type_of_program(&read(&cfg).unwrap()).unwrap_or_else(|m| {
                    panic!(
                        "{} step {step}: configuration does not type: {m}\n{cfg}",
                        path.display()
                    )
                });
                assert!(
                    subtype(&ty, &tau),
                    "{} step {step}: {ty} is not a subtype of {tau}\n{cfg}",
                    path.display()
                );
                let got = final_value(&mut Machine::new(p));
                assert_eq!(got, want, "{} step {step}: {cfg}", path.display());
                checked += 1;
            }
            match m.step() {
                Stepped::Next(_) => step += 1,
                _ => break,
            }
        }
    }
    assert!(checked > 200, "only {checked} configurations checked");
}
