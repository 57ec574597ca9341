//! The compiler's commands: compile, exec, devices.

use super::{read_source, CompileArgs, ExecArgs, Exit, Lang};
use compiler::exec::{execute_keeping_output, ExecError};
use compiler::kir::{emit::emit_module, Module};
use compiler::lower::LowerError;
use compiler::runtime::{find_device, list_devices, Runtime, RuntimeError};
use compiler::tail::{
    device_prober, format_result, format_until_failure, lower_tail_probing, FclProgram,
    LowerTailError, Lowered,
};
use compiler::{compile_fcl, compile_fcl_for_device, OptLevel, DEFAULT_BLOCK_SIZE};
use semantics::fcl::load;
use semantics::fcl::lower::load_program;

/// `tailfcl compile FILE.fcl [-O0|-O2]`: prints the generated OpenCL C.
pub fn compile(lang: Lang, a: &CompileArgs) -> Result<Exit, Exit> {
    if lang == Lang::Tail && a.emit == "fcl" {
        print!("{}", lower_tail_file(a, None, DEFAULT_BLOCK_SIZE)?.0.fcl);
        return Ok(Exit::Ok);
    }
    let (m, _) = build(lang, a, DEFAULT_BLOCK_SIZE, None)?;
    print!("{}", emit_module(&m));
    Ok(Exit::Ok)
}

/// `tailfcl exec FILE.fcl [--device N]`: compiles and runs on a device; prints what `run` prints.
pub fn exec(lang: Lang, a: &ExecArgs) -> Result<Exit, Exit> {
    if a.verify {
        return verify(lang, a);
    }
    compiler::tail::set_checks(!a.unchecked);
    let mut rt = open_device(&a.device)?;
    // profiling events only when their times are shown
    rt.set_profiling(a.stats).map_err(|e| runtime_exit(&e))?;
    // without --block-size, the work-group size is sized from the device
    let fit = DEFAULT_BLOCK_SIZE.min(rt.device.max_work_group_size.max(1));
    let (m, tail) = build(lang, &a.compile, fit, Some(&rt))?;
    if m.block_size > rt.device.max_work_group_size {
        eprintln!(
            "error: block size {} exceeds the device's largest work-group ({})",
            m.block_size, rt.device.max_work_group_size
        );
        return Err(Exit::Static);
    }
    let (report, result) = execute_keeping_output(&m, &rt);
    match result {
        Ok(()) => {
            match &tail {
                // a lowered TAIL program prints its result line the TAIL way
                Some((l, file, src)) => match format_result(l, &report.stdout) {
                    Some(text) => {
                        print!("{text}");
                        // a failure found at compile time is reported as `tailfcl run` does
                        if let Some(f) = &l.failure {
                            eprint!("{}", report.stderr);
                            eprintln!("{}", f.render(file, src));
                            return Err(Exit::RuntimeError);
                        }
                    }
                    None => {
                        eprintln!("error: unexpected output of the lowered program");
                        return Err(Exit::RuntimeError);
                    }
                },
                None => print!("{}", report.stdout),
            }
            eprint!("{}", report.stderr);
            if a.stats {
                let total: u64 = report.launches.iter().map(|(_, ns)| ns).sum();
                for (k, ns) in &report.launches {
                    eprintln!("{k}: {:.3} ms", *ns as f64 / 1e6);
                }
                eprintln!(
                    "launches: {}, kernel time: {:.3} ms, read back: {} bytes",
                    report.launches.len(),
                    total as f64 / 1e6,
                    report.read_bytes
                );
                eprintln!(
                    "device buffers: {} allocated, peak {} bytes",
                    report.allocations, report.peak_device_bytes
                );
                if let Some((l, _, _)) = &tail {
                    // each a run of the program's statements before it (compiler::tail::probe)
                    eprintln!("values read back while lowering: {}", l.probes);
                }
            }
            Ok(Exit::Ok)
        }
        Err(e) => {
            // what the program printed before it failed stays printed; a failed check of a
            // lowered TAIL program is the TAIL oracle's failure (compiler::tail::failed_at)
            if let Some((l, file, src)) = &tail {
                if let Some(f) = compiler::tail::failed_at(l, &e.to_string()) {
                    print!(
                        "{}",
                        format_until_failure(l, &report.stdout).unwrap_or_default()
                    );
                    eprint!("{}", report.stderr);
                    eprintln!("{}", f.render(file, src));
                    return Err(Exit::RuntimeError);
                }
            } else {
                print!("{}", report.stdout);
            }
            eprint!("{}", report.stderr);
            failure_exit(e)
        }
    }
}

/// Reports a failed run and picks its exit status.
fn failure_exit(e: ExecError) -> Result<Exit, Exit> {
    match e {
        ExecError::Runtime(e) => Err(runtime_exit(&e)),
        e @ ExecError::Program(_) => {
            eprintln!("error: {e}");
            Err(Exit::RuntimeError)
        }
        e @ ExecError::Unsupported(_) => {
            eprintln!("{e}");
            Err(Exit::Unsupported)
        }
    }
}

/// `tailfcl exec FILE.tail --verify`: one line per engine (TAIL oracle, FCL oracle on the
/// lowered program, OpenCL); exit 0 when all agree, 1 otherwise.
fn verify(lang: Lang, a: &ExecArgs) -> Result<Exit, Exit> {
    let [path] = a.compile.input.files.as_slice() else {
        eprintln!("error: --verify takes exactly one file");
        return Err(Exit::Static);
    };
    if lang != Lang::Tail {
        eprintln!("error: --verify compares the engines of a TAIL program; give a .tail file");
        return Err(Exit::Static);
    }
    let src = read_source(path)?;
    let rt = open_device(&a.device)?;
    let opt = if a.compile.opt == "0" {
        OptLevel::O0
    } else {
        OptLevel::O2
    };
    let block = a
        .compile
        .block_size
        .unwrap_or(DEFAULT_BLOCK_SIZE.min(rt.device.max_work_group_size.max(1)));
    match conformance::verify::verify_tail(&src, &rt, opt, block) {
        Ok(engines) => {
            for e in &engines {
                println!("{}", e.line());
            }
            Ok(if engines.iter().all(|e| e.agrees != Some(false)) {
                Exit::Ok
            } else {
                Exit::Failures
            })
        }
        Err(e) => Err(lowering_exit(e, &path.display().to_string(), &src)),
    }
}

/// Reports why a TAIL program was not lowered and picks the exit status: static errors 2,
/// unsupported programs 6, a failure found at compile time 3.
fn lowering_exit(e: LowerTailError, file: &str, src: &str) -> Exit {
    match e {
        LowerTailError::Static(d) => {
            eprint!("{}", d.render(file, src));
            Exit::Static
        }
        e @ (LowerTailError::Unsupported(_) | LowerTailError::Probe(_)) => {
            eprintln!("{e}");
            Exit::Unsupported
        }
        e @ LowerTailError::Fails(_) => {
            eprintln!("{e}");
            Exit::RuntimeError
        }
    }
}

/// A lowered TAIL program with its file's name and text (to report its failure).
type LoweredFile = (Lowered, String, String);

/// Lowers a TAIL file to FCL (`compiler::tail`), returned with the file's name and text;
/// static errors exit 2, unsupported programs 6. Sizes computed from data are computed on `rt`
/// (work-groups of `block`), or, without one, on the first device, opened when the lowering
/// first needs one.
fn lower_tail_file(
    a: &CompileArgs,
    rt: Option<&Runtime>,
    block: usize,
) -> Result<LoweredFile, Exit> {
    let [path] = a.input.files.as_slice() else {
        eprintln!("error: compiling TAIL takes exactly one file");
        return Err(Exit::Static);
    };
    let src = read_source(path)?;
    let file = path.display().to_string();
    // `compile` has no device of its own: the first one, opened when a size needs it
    let opened: std::cell::OnceCell<Runtime> = std::cell::OnceCell::new();
    let lowered = match rt {
        Some(rt) => lower_tail_probing(&src, &mut device_prober(rt, block)),
        None => lower_tail_probing(&src, &mut |fcl: &FclProgram| {
            if opened.get().is_none() {
                let _ = opened.set(Runtime::new(0).map_err(|e| e.to_string())?);
            }
            match opened.get() {
                Some(rt) => device_prober(rt, block)(fcl),
                None => Err("no OpenCL device".into()),
            }
        }),
    };
    match lowered {
        Ok(l) => Ok((l, file, src)),
        Err(e) => Err(lowering_exit(e, &file, &src)),
    }
}

/// Loads, checks and lowers an FCL program (a TAIL one first to FCL, returned alongside);
/// static errors exit 2, unsupported programs 6. With a device, the module is compiled for it
/// ([`compile_fcl_for_device`]: e.g. padded local arrays where local memory is banked).
fn build(
    lang: Lang,
    a: &CompileArgs,
    default_block: usize,
    rt: Option<&Runtime>,
) -> Result<(Module, Option<LoweredFile>), Exit> {
    let device = rt.map(|rt| &rt.device);
    let bs = a.block_size.unwrap_or(default_block).max(1);
    let mut files = Vec::new();
    let mut tail = None;
    let loaded = if lang == Lang::Tail {
        let l = lower_tail_file(a, rt, bs)?;
        // the lowered program is a tree: an error in it is reported on its printed text
        files.push((
            format!("{}.fcl", a.input.files[0].display()),
            l.0.fcl.text(),
        ));
        let loaded = l.0.fcl.load();
        tail = Some(l);
        loaded
    } else {
        for path in &a.input.files {
            files.push((path.display().to_string(), read_source(path)?));
        }
        load_program(&files)
    };
    let program = match loaded {
        Ok(p) => p,
        Err((file, d)) => {
            let src = files
                .iter()
                .find(|(n, _)| *n == file)
                .map(|(_, s)| s.as_str())
                .unwrap_or(load::PRELUDE);
            eprint!("{}", d.render(&file, src));
            return Err(Exit::Static);
        }
    };
    let opt = if a.opt == "0" {
        OptLevel::O0
    } else {
        OptLevel::O2
    };
    let compiled = match device {
        Some(d) => compile_fcl_for_device(&program.main, opt, bs, d),
        None => compile_fcl(&program.main, opt, bs),
    };
    let m = compiled.map_err(|e| {
        let (file, span) = program.locate(e.span());
        match files.iter().find(|(n, _)| *n == file) {
            Some((name, src)) => {
                // rendered like a static error, but named for what it is
                let d = semantics::Diagnostic::type_error(span, e.to_string()).render(name, src);
                eprint!("{}", d.replacen("type error: ", "", 1))
            }
            None => eprintln!("error: {e}"),
        }
        match e {
            LowerError::Unsupported(..) => Exit::Unsupported,
            LowerError::Internal(..) => Exit::Internal,
        }
    })?;
    Ok((m, tail))
}

/// `tailfcl devices`: every OpenCL device, numbered for `--device`; none → exit 5.
pub fn devices() -> Result<Exit, Exit> {
    match list_devices() {
        Ok(ds) => {
            for d in ds {
                println!("{d}");
            }
            Ok(Exit::Ok)
        }
        Err(e) => Err(runtime_exit(&e)),
    }
}

/// The index of the device `spec` names (an index or a name fragment); none is exit 5.
pub fn device_index(spec: &str) -> Result<usize, Exit> {
    find_device(spec).map_err(|e| runtime_exit(&e))
}

/// Opens the device `spec` names.
fn open_device(spec: &str) -> Result<Runtime, Exit> {
    Runtime::new(device_index(spec)?).map_err(|e| runtime_exit(&e))
}

/// Reports a runtime error and picks its exit status.
pub fn runtime_exit(e: &RuntimeError) -> Exit {
    eprintln!("error: {e}");
    match e {
        RuntimeError::NoPlatform(_) => Exit::NoDevice,
        RuntimeError::TooLarge(_) => Exit::Limit,
        // a launch the device cannot take: this program is beyond what runs there
        RuntimeError::Limit(_) => Exit::Unsupported,
        _ => Exit::Internal,
    }
}
