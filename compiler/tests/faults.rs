//! Every injected fault is a real rewrite: it changes the emitted OpenCL of at least one example
//! program, and leaves a module untouched when it finds no site.

use compiler::fault::{inject, Fault};
use compiler::kir::emit::emit_module;
use compiler::{compile_fcl, compile_fcl_with_fault, OptLevel, DEFAULT_BLOCK_SIZE};
use semantics::fcl::lower::load_program;

fn example_modules() -> Vec<(String, compiler::kir::Module)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/fcl");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .expect("examples/fcl")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "fcl"))
        .collect();
    paths.sort();
    let mut out = Vec::new();
    for p in paths {
        let src = std::fs::read_to_string(&p).expect("readable example");
        let name = p.display().to_string();
        let program = load_program(&[(name.clone(), src)]).expect("example loads");
        for opt in [OptLevel::O0, OptLevel::O2] {
            if let Ok(m) = compile_fcl(&program.main, opt, DEFAULT_BLOCK_SIZE) {
                out.push((format!("{name} {opt:?}"), m));
            }
        }
    }
    out
}

#[test]
fn every_fault_changes_some_example() {
    let modules = example_modules();
    assert!(modules.len() >= 4, "the examples compile");
    for fault in Fault::ALL {
        let changed: Vec<&str> = modules
            .iter()
            .filter(|(_, m)| {
                let mut faulty = m.clone();
                let hit = inject(&mut faulty, fault);
                let differs = emit_module(&faulty) != emit_module(m) || faulty.plan != m.plan;
                assert_eq!(hit, differs, "{fault:?}: the hit flag tells the truth");
                differs
            })
            .map(|(n, _)| n.as_str())
            .collect();
        assert!(!changed.is_empty(), "{fault:?} changes no example");
    }
}

#[test]
fn fault_names_round_trip() {
    for f in Fault::ALL {
        assert_eq!(Fault::parse(f.name()), Some(f));
    }
    assert_eq!(Fault::parse("no-such-fault"), None);
}

#[test]
fn no_fault_is_the_plain_compiler() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/fcl/reduce.fcl");
    let src = std::fs::read_to_string(path).expect("readable example");
    let program = load_program(&[("reduce.fcl".to_string(), src)]).expect("example loads");
    let plain = compile_fcl(&program.main, OptLevel::O2, DEFAULT_BLOCK_SIZE).expect("compiles");
    let (hooked, hit) =
        compile_fcl_with_fault(&program.main, OptLevel::O2, DEFAULT_BLOCK_SIZE, None)
            .expect("compiles");
    assert_eq!(plain, hooked);
    assert!(!hit);
    let (faulty, hit) = compile_fcl_with_fault(
        &program.main,
        OptLevel::O2,
        DEFAULT_BLOCK_SIZE,
        Some(Fault::MissingBarrier),
    )
    .expect("compiles");
    assert!(hit);
    assert!(emit_module(&faulty).len() < emit_module(&plain).len());
}
