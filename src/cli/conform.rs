//! The conformance commands: fuzz, conform.

use super::{ConformArgs, Exit, FuzzArgs, Lang};
use compiler::fault::Fault;
use compiler::runtime::Runtime;
use conformance::external::ExternalSuiteEngine;
use conformance::fuzz::external::ExternalSide;
use conformance::fuzz::mutation::{
    first_detection, first_detection_tail, render_table, FaultScore,
};
use conformance::fuzz::{run_fcl_campaign_counting, Campaign, FuzzLang, Verdict};
use conformance::gen::FclConfig;
use conformance::suite::{discover, run_suite_with, CliEngine, Engine, Status};

/// `tailfcl fuzz`: generates `--count` programs from `--seed` (only shard I of N), checks each
/// on the oracle across machine shapes and schedules, saves and shrinks every mismatch under
/// `--save`, prints `N passed, N failed` and the statistics; exit 1 on any mismatch.
pub fn fuzz(a: &FuzzArgs) -> Result<Exit, Exit> {
    if a.mutation_score {
        return mutation_score(a);
    }
    // `NAME@K`: program K only
    let (fault, fault_program) = match a
        .inject
        .as_deref()
        .map(|i| i.split_once('@').unwrap_or((i, "")))
    {
        None => (None, None),
        Some((name, "")) => (Some(parse_fault(name)?), None),
        Some((name, k)) => {
            let k = k.parse::<u64>().map_err(|_| {
                eprintln!("error: bad --inject `{name}@{k}`: expected NAME@PROGRAM");
                Exit::Static
            })?;
            (Some(parse_fault(name)?), Some(k))
        }
    };
    // faults live in the FCL compiler, which also compiles TAIL programs lowered to FCL
    let shard = match &a.shard {
        None => (0, 1),
        Some(s) => parse_shard(s).ok_or_else(|| {
            eprintln!("error: bad --shard `{s}`: expected I/N with 0 <= I < N");
            Exit::Static
        })?,
    };
    let lang = match a.lang {
        Lang::Fcl => FuzzLang::Fcl,
        Lang::Tail => FuzzLang::Tail,
    };
    let only = match &a.programs {
        Some(path) => Some(read_programs(path)?),
        None => None,
    };
    // checked before a child is started, so a mistake is told once
    let config = super::gen::subset_config(a.lang, a.subset.as_deref())?;
    let externals = a.external.engines()?;
    if !a.no_contain && only.is_none() {
        let (i, n) = shard;
        let mine = (0..a.count).filter(|k| k % n.max(1) == i).collect();
        return super::contain::supervise(a, mine);
    }
    // the report grows row by row; a child appends to its parent's
    let live_report = a.report.clone();
    if let (Some(path), None) = (&live_report, &only) {
        let _ = std::fs::remove_file(path);
    }
    let campaign = Campaign {
        lang,
        checker: conformance::fuzz::check_fcl_on,
        count: a.count,
        seed: a.seed,
        jobs: a.jobs.max(1),
        shard,
        save: Some(a.save.clone()),
        config,
        shrink_tries: 400,
        // no platform at all: the campaign runs the oracles and says why the compiled side
        // did not run; a device named but not there is an error
        device: match a.no_opencl {
            true => None,
            false => Some(device_or_none(&a.device)?),
        },
        fault,
        batch: a.batch.max(1),
        opencl_options: match (a.cl_opt_disable, a.cl_optimize_o2) {
            (true, _) => "-cl-opt-disable".into(),
            (false, true) => "-cl-opt-disable|".into(),
            (false, false) => String::new(),
        },
        only,
        fault_program,
        live_report,
        external: ExternalSide {
            engines: externals,
            rejects_fail: a.external.rejects_fail,
        },
    };
    let total = campaign.only.as_ref().map_or(a.count, |o| o.len() as u64);
    let bar = super::progress::bar(total, "programs");
    let progress = |done: u64, _total: u64, failed: u64| {
        bar.set_position(done);
        bar.set_message(super::progress::failures(failed));
    };
    let result = run_fcl_campaign_counting(&campaign, &progress);
    bar.finish_and_clear();
    if let Some(note) = &result.compiled_note {
        eprintln!("note: {note}; compared oracle configurations only");
    }
    for r in &result.results {
        match &r.verdict {
            Verdict::Mismatch { config, .. } => {
                eprintln!(
                    "FAIL program {} (seed {}): differs on {config}",
                    r.index, r.seed
                )
            }
            Verdict::Invalid(why) => {
                eprintln!("invalid program {} (seed {}): {why}", r.index, r.seed)
            }
            Verdict::Pass => {}
        }
    }
    for path in &result.saved {
        eprintln!("saved {}", path.display());
    }
    // a child's rows are in the report already; its parent puts them in order
    if let (Some(path), None) = (&a.report, &a.programs) {
        let written = std::fs::File::create(path)
            .map_err(|e| e.to_string())
            .and_then(|f| result.write_csv(f).map_err(|e| e.to_string()));
        if let Err(e) = written {
            eprintln!("error: cannot write the report: {e}");
            return Err(Exit::Static);
        }
    }
    println!("{}", result.summary());
    print!("{}", result.stats.render());
    println!(
        "time: {:.2} s ({:.1} programs/s)",
        result.seconds,
        result.stats.generated as f64 / result.seconds.max(1e-9)
    );
    Ok(if result.stats.failed == 0 {
        Exit::Ok
    } else {
        Exit::Failures
    })
}

/// The fault named `name`, or exit 2 listing the known ones.
fn parse_fault(name: &str) -> Result<Fault, Exit> {
    Fault::parse(name).ok_or_else(|| {
        let known: Vec<&str> = Fault::for_tail().iter().map(|f| f.name()).collect();
        eprintln!(
            "error: unknown fault {name:?} (known: {})",
            known.join(", ")
        );
        Exit::Static
    })
}

/// `tailfcl fuzz --mutation-score`: each fault (or only `--inject`'s) in turn, programs of the
/// `--seed` campaign checked on `--device` until the first mismatch (at most `--count`); prints
/// the table and the throughput. Exit 1 when some fault went undetected.
fn mutation_score(a: &FuzzArgs) -> Result<Exit, Exit> {
    let start = std::time::Instant::now();
    let scores = match &a.inject {
        Some(name) => vec![score_in_process(parse_fault(name)?, a)?],
        None => match a.lang {
            Lang::Fcl => Fault::ALL.to_vec(),
            Lang::Tail => Fault::for_tail(),
        }
        .iter()
        .map(|&f| score_in_child(f, a))
        .collect::<Result<Vec<_>, _>>()?,
    };
    let seconds = start.elapsed().as_secs_f64();
    print!("{}", render_table(&scores));
    let programs: u64 = scores.iter().map(|s| s.checked).sum();
    println!(
        "time: {seconds:.2} s ({:.1} programs/s)",
        programs as f64 / seconds.max(1e-9)
    );
    Ok(if scores.iter().all(|s| s.detected_at.is_some()) {
        Exit::Ok
    } else {
        Exit::Failures
    })
}

/// One fault in this process; announces each program (`program K`) on stderr first, so a
/// parent can tell which program crashed the process.
fn score_in_process(fault: Fault, a: &FuzzArgs) -> Result<FaultScore, Exit> {
    let rt = Runtime::new(super::device::device_index(&a.device)?).map_err(|e| {
        eprintln!("error: the mutation score needs an OpenCL device: {e}");
        Exit::NoDevice
    })?;
    let announce = &mut |k| eprintln!("program {k}");
    Ok(match a.lang {
        Lang::Fcl => first_detection(fault, a.seed, a.count, &FclConfig::default(), &rt, announce),
        Lang::Tail => first_detection_tail(fault, a.seed, a.count, &rt, announce),
    })
}

/// One fault in a child `tailfcl fuzz --mutation-score --inject FAULT`: a faulty kernel may
/// write out of bounds and corrupt the runtime's heap, and a crash is a detection too (the
/// program announced last is the one that crashed).
fn score_in_child(fault: Fault, a: &FuzzArgs) -> Result<FaultScore, Exit> {
    let exe = std::env::current_exe().map_err(|e| {
        eprintln!("error: cannot find the tailfcl binary: {e}");
        Exit::Static
    })?;
    let mut cmd = std::process::Command::new(exe);
    cmd.args(["fuzz", "--mutation-score", "--inject", fault.name()])
        .args([
            "--count",
            &a.count.to_string(),
            "--seed",
            &a.seed.to_string(),
        ])
        .args(["--device", &a.device])
        .args([
            "--lang",
            match a.lang {
                Lang::Fcl => "fcl",
                Lang::Tail => "tail",
            },
        ]);
    // a faulty kernel can also hang the child (a corrupted heap, a barrier not all work-items
    // reach): give it a deadline, and count a hang like a crash
    let deadline = std::time::Duration::from_secs(60 + a.count);
    let (code, stdout, stderr) = run_with_deadline(cmd, fault.name(), deadline).map_err(|e| {
        eprintln!("error: cannot run the fault's campaign: {e}");
        Exit::Static
    })?;
    let last_program = stderr
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix("program ")?.trim().parse::<u64>().ok());
    let row = stdout
        .lines()
        .find(|l| l.split_whitespace().next() == Some(fault.name()));
    let score = match (code, row) {
        (Some(0 | 1), Some(row)) => {
            let detected = row.split_whitespace().nth(1) == Some("yes");
            let checked = last_program.map_or(0, |k| k + 1);
            FaultScore {
                fault,
                detected_at: detected.then(|| checked.saturating_sub(1)),
                checked,
                crashed: false,
            }
        }
        (Some(code), _) if code == Exit::NoDevice as i32 => {
            eprint!("{stderr}");
            return Err(Exit::NoDevice);
        }
        _ => match last_program {
            Some(k) => FaultScore {
                fault,
                detected_at: Some(k),
                checked: k + 1,
                crashed: true,
            },
            None => {
                eprintln!("error: the campaign for {} failed: {stderr}", fault.name());
                return Err(Exit::Internal);
            }
        },
    };
    eprintln!(
        "{}: {}",
        fault.name(),
        match score.detected_at {
            Some(k) if score.crashed => format!("program {k} crashed the runtime"),
            Some(k) => format!("detected by program {k}"),
            None => format!("not detected in {} programs", score.checked),
        }
    );
    Ok(score)
}

/// Runs `cmd` with stdout and stderr in temporary files, killing it after `deadline`; gives its
/// exit code (`None` when killed or crashed) and both outputs.
fn run_with_deadline(
    mut cmd: std::process::Command,
    name: &str,
    deadline: std::time::Duration,
) -> std::io::Result<(Option<i32>, String, String)> {
    let base = std::env::temp_dir().join(format!("tailfcl-mutation-{}-{name}", std::process::id()));
    let (out_path, err_path) = (base.with_extension("out"), base.with_extension("err"));
    let mut child = cmd
        .stdout(std::fs::File::create(&out_path)?)
        .stderr(std::fs::File::create(&err_path)?)
        .spawn()?;
    let start = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break Some(status);
        }
        if start.elapsed() > deadline {
            child.kill()?;
            child.wait()?;
            break None;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    let read = |p: &std::path::Path| {
        let text = std::fs::read(p).map(|b| String::from_utf8_lossy(&b).into_owned());
        let _ = std::fs::remove_file(p);
        text
    };
    let (stdout, stderr) = (read(&out_path)?, read(&err_path)?);
    Ok((status.and_then(|s| s.code()), stdout, stderr))
}

/// `I/N` with `I < N`.
fn parse_shard(s: &str) -> Option<(u64, u64)> {
    let (i, n) = s.split_once('/')?;
    let (i, n) = (i.trim().parse().ok()?, n.trim().parse().ok()?);
    (i < n).then_some((i, n))
}

/// Runs the conformance tests under the given paths on every requested engine. Each engine is
/// this very binary driven through its own `run` (oracle) or `exec` (opencl) command, so the
/// suite exercises exactly what a user runs. Writes the CSV report (to `--report`, or stdout)
/// and prints the summary line; exit 1 when any test failed or an engine crashed.
pub fn conform(a: &ConformArgs) -> Result<Exit, Exit> {
    let tests = discover(&a.paths).map_err(|e| {
        eprintln!("error: {e}");
        Exit::Static
    })?;
    let binary = std::env::current_exe().map_err(|e| {
        eprintln!("error: cannot find the tailfcl binary: {e}");
        Exit::Static
    })?;
    let mut engines: Vec<CliEngine> = Vec::new();
    for name in a
        .engines
        .split(',')
        .map(str::trim)
        .filter(|n| !n.is_empty())
    {
        engines.push(match name {
            "oracle" => CliEngine::oracle(binary.clone()),
            "opencl" => CliEngine::opencl(binary.clone(), device_or_none(&a.device)?),
            other => {
                eprintln!("error: unknown engine {other:?} (known: oracle, opencl)");
                return Err(Exit::Static);
            }
        });
    }
    let externals: Vec<ExternalSuiteEngine> = a
        .external
        .engines()?
        .into_iter()
        .map(ExternalSuiteEngine)
        .collect();
    let engines: Vec<&dyn Engine> = engines
        .iter()
        .map(|e| e as &dyn Engine)
        .chain(externals.iter().map(|e| e as &dyn Engine))
        .collect();
    let bar = super::progress::bar((tests.len() * engines.len()) as u64, "runs");
    let mut failed = 0;
    let mut report = run_suite_with(&tests, &engines, a.jobs.max(1), &mut |row| {
        failed += matches!(row.status, Status::Fail | Status::Error) as u64;
        bar.inc(1);
        bar.set_message(super::progress::failures(failed));
    });
    bar.finish_and_clear();
    if a.external.rejects_fail {
        // a rejection of a valid program is then a failure, in the report too
        for row in report
            .rows
            .iter_mut()
            .filter(|r| r.status == Status::Reject)
        {
            row.status = Status::Fail;
            row.detail = format!("rejected: {}", row.detail);
        }
    }
    let written = match &a.report {
        Some(path) => std::fs::File::create(path)
            .map_err(|e| e.to_string())
            .and_then(|f| report.write_csv(f).map_err(|e| e.to_string())),
        None => report
            .write_csv(std::io::stdout())
            .map_err(|e| e.to_string()),
    };
    if let Err(e) = written {
        eprintln!("error: cannot write the report: {e}");
        return Err(Exit::Static);
    }
    for row in report
        .rows
        .iter()
        .filter(|r| matches!(r.status, Status::Fail | Status::Error | Status::Reject))
    {
        eprintln!(
            "{} {} on {}: {}",
            row.status, row.test, row.engine, row.detail
        );
    }
    println!("{}", report.summary());
    Ok(if report.all_passed() {
        Exit::Ok
    } else {
        Exit::Failures
    })
}

/// The index of the device `spec` names; with no OpenCL platform at all, 0, so that the run
/// goes on and reports the compiled side as not run (as it always did). A name that matches
/// no device of a platform that exists is an error (exit 5).
fn device_or_none(spec: &str) -> Result<usize, Exit> {
    match compiler::runtime::list_devices() {
        Ok(_) => super::device::device_index(spec),
        Err(_) => Ok(0),
    }
}

/// The program indices listed in `path` (one per line), for a contained campaign's child.
fn read_programs(path: &std::path::Path) -> Result<Vec<u64>, Exit> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        eprintln!("error: cannot read {}: {e}", path.display());
        Exit::Static
    })?;
    text.split_whitespace()
        .map(|k| {
            k.parse().map_err(|_| {
                eprintln!("error: bad program index `{k}` in {}", path.display());
                Exit::Static
            })
        })
        .collect()
}
