//! Every FCL example with an expected output gives that output under the compiler at -O0, -O2
//! and -O2 for the device that runs it;
//! programs the lowering does not handle must fail with "unsupported: …", never print wrongly.
//! Skips (with a message) when there is no OpenCL platform.

mod support;

use compiler::exec::execute;
use compiler::{compile_fcl, compile_fcl_for_device, OptLevel, DEFAULT_BLOCK_SIZE};
use semantics::fcl::lower::load_program;
use std::path::{Path, PathBuf};

fn programs() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut out = Vec::new();
    let mut dirs = vec![root.join("examples/fcl")];
    for e in std::fs::read_dir(root.join("paper-examples"))
        .unwrap()
        .flatten()
    {
        if e.file_name().to_string_lossy().starts_with("seed") {
            dirs.push(e.path());
        }
    }
    for d in dirs {
        for e in std::fs::read_dir(d).unwrap().flatten() {
            let p = e.path();
            // outputs compared with a tolerance (`-- tolerance: EPS`, libm results that may
            // differ in the last bit) are checked by tests/conformance_suites.rs instead
            let tolerant = std::fs::read_to_string(&p).is_ok_and(|s| s.contains("-- tolerance:"));
            if p.extension().is_some_and(|x| x == "fcl")
                && p.with_extension("expected").exists()
                && !tolerant
            {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn examples_agree_with_their_expected_output() {
    let Some(rt) = support::runtime() else {
        return;
    };
    let mut passed = 0;
    let mut unsupported = Vec::new();
    let mut wrong = Vec::new();
    for path in programs() {
        let src = std::fs::read_to_string(&path).unwrap();
        let expected = std::fs::read_to_string(path.with_extension("expected")).unwrap();
        let Ok(program) = load_program(&[(path.display().to_string(), src)]) else {
            wrong.push(format!("{}: does not load", path.display()));
            continue;
        };
        // -O0, -O2, and -O2 for the device that runs it (as `tailfcl exec` compiles)
        for (opt, for_device) in [
            (OptLevel::O0, false),
            (OptLevel::O2, false),
            (OptLevel::O2, true),
        ] {
            let compiled = if for_device {
                compile_fcl_for_device(&program.main, opt, DEFAULT_BLOCK_SIZE, &rt.device)
            } else {
                compile_fcl(&program.main, opt, DEFAULT_BLOCK_SIZE)
            };
            let opt = format!("{opt:?}{}", if for_device { " for the device" } else { "" });
            match compiled {
                Err(e) => {
                    let msg = e.to_string();
                    if msg.starts_with("unsupported: ") {
                        unsupported.push(format!("{} {opt}: {msg}", path.display()));
                    } else {
                        wrong.push(format!("{} {opt}: {msg}", path.display()));
                    }
                }
                Ok(m) => match execute(&m, &rt) {
                    Ok(r) if r.stdout == expected => passed += 1,
                    Ok(r) => wrong.push(format!(
                        "{} {opt}: printed\n{}expected\n{expected}",
                        path.display(),
                        r.stdout
                    )),
                    Err(e) => wrong.push(format!("{} {opt}: {e}", path.display())),
                },
            }
        }
    }
    println!("{passed} runs agree; unsupported:");
    for u in &unsupported {
        println!("  {u}");
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(passed >= 14, "only {passed} runs agree");
}
