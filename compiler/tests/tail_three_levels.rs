//! TAIL → FCL → OpenCL: every TAIL program in examples/ and paper-examples/ that the lowering
//! supports prints the same result line on the TAIL oracle, the FCL oracle (on the lowered
//! program) and OpenCL; and the lowering fuses index arithmetic into one `generate`.

use compiler::exec::execute;
use compiler::runtime::{Runtime, RuntimeError};
use compiler::tail::{format_result, lower_tail, LowerTailError};
use compiler::{compile_fcl, OptLevel, DEFAULT_BLOCK_SIZE};
use semantics::fcl::lower::load_program;
use std::path::{Path, PathBuf};

fn tail_programs(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            tail_programs(&p, out);
        } else if p.extension().is_some_and(|x| x == "tail") {
            out.push(p);
        }
    }
}

/// The lowered program's output on the FCL oracle, read back as the TAIL result line.
fn fcl_oracle(fcl: &str) -> String {
    let program = load_program(&[("lowered.fcl".to_string(), fcl.to_string())])
        .unwrap_or_else(|(_, d)| panic!("lowered FCL does not load: {d:?}\n{fcl}"));
    let out = interpreter::fcl::run(&program.main, &interpreter::fcl::Config::default());
    out.stdout
}

#[test]
fn supported_tail_programs_agree_on_three_levels() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut paths = Vec::new();
    tail_programs(&root.join("examples"), &mut paths);
    tail_programs(&root.join("paper-examples"), &mut paths);
    paths.sort();
    let rt = match Runtime::new(0) {
        Ok(rt) => Some(rt),
        Err(RuntimeError::NoPlatform(_)) => None,
        Err(e) => panic!("{e}"),
    };
    let (mut supported, mut unsupported) = (Vec::new(), Vec::new());
    for path in &paths {
        let src = std::fs::read_to_string(path).unwrap();
        let lowered = match lower_tail(&src) {
            Ok(l) => l,
            Err(LowerTailError::Unsupported(why)) => {
                unsupported.push(format!("{}: {why}", path.display()));
                continue;
            }
            Err(LowerTailError::Static(_)) => continue,
        };
        let tail = interpreter::tail::run_source(&src, Default::default())
            .expect("the TAIL oracle loads what the lowering accepted")
            .stdout;
        let fcl = format_result(&lowered, &fcl_oracle(&lowered.fcl)).expect("FCL oracle output");
        assert_eq!(tail, fcl, "{}: TAIL oracle vs FCL oracle", path.display());
        if let Some(rt) = &rt {
            let program =
                load_program(&[("lowered.fcl".to_string(), lowered.fcl.clone())]).unwrap();
            let m = compile_fcl(&program.main, OptLevel::O2, DEFAULT_BLOCK_SIZE).unwrap();
            let report = execute(&m, rt).unwrap();
            let ocl = format_result(&lowered, &report.stdout).expect("OpenCL output");
            assert_eq!(tail, ocl, "{}: TAIL oracle vs OpenCL", path.display());
        }
        supported.push(path.display().to_string());
    }
    println!("supported ({}): {supported:#?}", supported.len());
    println!("unsupported ({}): {unsupported:#?}", unsupported.len());
    println!("OpenCL level checked: {}", rt.is_some());
    assert!(
        supported.len() >= 19,
        "the supported count dropped: {supported:?}"
    );
}

#[test]
fn transpose_twice_and_take_of_reshape_fuse_into_one_generate() {
    for src in [
        "let a:[int]2 = reshape([3,4],iotaV(12)) in transp(transp(a))",
        "take(2,drop(1,reshape([4,3],iotaV(12))))",
    ] {
        let l = lower_tail(src).unwrap();
        assert_eq!(l.fcl.matches("generate").count(), 1, "{}", l.fcl);
        assert_eq!(l.fcl.matches("forceAndPrint").count(), 1, "{}", l.fcl);
        let tail = interpreter::tail::run_source(src, Default::default())
            .unwrap()
            .stdout;
        assert_eq!(tail, format_result(&l, &fcl_oracle(&l.fcl)).unwrap());
    }
}
