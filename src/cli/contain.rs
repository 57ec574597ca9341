//! Containment of `tailfcl fuzz`: the tester must not die with what it tests. The campaign runs
//! in a child process (`tailfcl fuzz … --programs FILE`) that appends each program's CSV row to
//! the report and a line per step to a journal ([`conformance::fuzz::journal`]). When the
//! child dies (an OpenCL compiler's assertion, a kernel that faults, a driver error) or stops
//! making progress for `--watchdog` seconds (a hang: it is killed), the journal names the
//! program it was on: that program is reported as failed in the CSV and saved, and a new child
//! goes on with the programs not done. Where the journal cannot name one program (a batch
//! dying while it builds, or several workers at once), the programs it was on are checked again
//! one at a time, with one worker, so that the next death names its program.

use super::{Exit, FuzzArgs, Lang};
use conformance::fuzz::journal::{position, JOURNAL_ENV};
use conformance::fuzz::{
    append_csv_row, program_seed, program_source, save_contained, sort_report, FuzzLang,
};
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How a child campaign ended.
enum End {
    /// It exited by itself with this status.
    Exited(i32),
    /// It died (a signal, or a status no campaign gives) or hung: the reason.
    Died(String),
}

/// Runs the campaign `a` describes (programs `mine`) in child processes, containing their
/// deaths; prints what the campaign prints and exits as it does (1 when a death was contained).
pub fn supervise(a: &FuzzArgs, mine: Vec<u64>) -> Result<Exit, Exit> {
    let exe = std::env::current_exe().map_err(|e| {
        eprintln!("error: cannot find the tailfcl binary: {e}");
        Exit::Static
    })?;
    let tmp = std::env::temp_dir().join(format!("tailfcl-fuzz-{}", std::process::id()));
    let report = a
        .report
        .clone()
        .unwrap_or_else(|| tmp.with_extension("csv"));
    let (journal, programs, stdout) = (
        tmp.with_extension("journal"),
        tmp.with_extension("programs"),
        tmp.with_extension("out"),
    );
    // the report grows as the children go; it starts empty
    let _ = std::fs::remove_file(&report);
    let lang = match a.lang {
        Lang::Fcl => FuzzLang::Fcl,
        Lang::Tail => FuzzLang::Tail,
    };
    let (mut todo, mut single) = (mine, Vec::new());
    let (mut contained, mut last_out, mut last_code) = (0usize, String::new(), 0);
    while !todo.is_empty() || !single.is_empty() {
        // suspects first, one at a time, with one worker
        let alone = !single.is_empty();
        let list = std::mem::take(if alone { &mut single } else { &mut todo });
        let text: Vec<String> = list.iter().map(u64::to_string).collect();
        let _ = std::fs::remove_file(&journal);
        if let Err(e) = std::fs::write(&programs, text.join("\n")) {
            eprintln!("error: cannot write {}: {e}", programs.display());
            return Err(Exit::Static);
        }
        let mut cmd = Command::new(&exe);
        cmd.args(child_args(a, alone, &programs, &report))
            .env(JOURNAL_ENV, &journal);
        let end = run_child(cmd, &stdout, &journal, Duration::from_secs(watchdog(a)));
        last_out = std::fs::read_to_string(&stdout).unwrap_or_default();
        let why = match end {
            Ok(End::Exited(code @ (0 | 1))) => {
                last_code = last_code.max(code);
                continue;
            }
            Ok(End::Exited(code)) => {
                // usage, no device, …: nothing to contain
                print!("{last_out}");
                return Err(exit_of(code));
            }
            Ok(End::Died(why)) => why,
            Err(e) => {
                eprintln!("error: cannot run the campaign's process: {e}");
                return Err(Exit::Static);
            }
        };
        let pos = position(&std::fs::read_to_string(&journal).unwrap_or_default());
        let unfinished: Vec<u64> = list
            .iter()
            .copied()
            .filter(|k| !pos.done.contains(k))
            .collect();
        if unfinished.is_empty() {
            // every program was checked and reported; it died on its way out (a driver's
            // teardown, say): no program to blame, but the campaign does not pass silently
            eprintln!("note: the campaign's process ended ({why}) after checking all its programs");
            last_code = last_code.max(1);
            continue;
        }
        let open: Vec<u64> = pos
            .open
            .iter()
            .copied()
            .filter(|k| unfinished.contains(k))
            .collect();
        // one worker names the program it is on; otherwise only a lone suspect is named
        let blamed = match pos.current {
            Some(k) if (alone || a.jobs <= 1) && unfinished.contains(&k) => Some(k),
            _ if open.len() == 1 => Some(open[0]),
            _ => None,
        };
        let rest = |without: &[u64]| -> Vec<u64> {
            unfinished
                .iter()
                .copied()
                .filter(|k| !without.contains(k))
                .collect()
        };
        match blamed {
            Some(k) => {
                contained += 1;
                let phase = match pos.current {
                    Some(_) => "",
                    None => " (building its batch)",
                };
                record(a, lang, &report, k, &format!("contained {why}{phase}"));
                let mut next = rest(&[k]);
                if alone {
                    single = next;
                } else {
                    next.append(&mut todo);
                    todo = next;
                }
            }
            None if open.is_empty() => {
                // it died outside any program (opening the device, say): nothing to blame, and
                // trying again would die again
                eprintln!(
                    "error: the campaign's process ended ({why}) before checking any program"
                );
                return Err(Exit::Internal);
            }
            None => {
                eprintln!(
                    "note: the campaign's process ended ({why}) during programs {open:?}; checking them again one at a time"
                );
                let mut next = rest(&open);
                next.append(&mut todo);
                todo = next;
                single = open;
            }
        }
    }
    for p in [&journal, &programs, &stdout] {
        let _ = std::fs::remove_file(p);
    }
    let (passed, failed) = sort_report(&report);
    if a.report.is_none() {
        let _ = std::fs::remove_file(&report);
    }
    if contained == 0 {
        print!("{last_out}");
    } else {
        println!("{passed} passed, {failed} failed");
        println!(
            "contained: {contained} program(s) crashed or hung the checking process (failed in the CSV, saved under {}); the statistics below are the last process's only",
            a.save.display()
        );
        // the last child's own summary line gives way to the whole campaign's
        print!("{}", last_out.split_once('\n').map_or("", |(_, rest)| rest));
        last_code = 1;
    }
    Ok(if last_code == 0 && failed == 0 {
        Exit::Ok
    } else {
        Exit::Failures
    })
}

/// The child's arguments: the campaign's, for `programs` only, its CSV rows appended to
/// `report`; `alone`: one program per batch, one worker.
fn child_args(a: &FuzzArgs, alone: bool, programs: &Path, report: &Path) -> Vec<String> {
    let path = |p: &Path| p.to_string_lossy().into_owned();
    let mut args: Vec<String> = vec![
        "fuzz".into(),
        "--lang".into(),
        match a.lang {
            Lang::Fcl => "fcl",
            Lang::Tail => "tail",
        }
        .into(),
        "--count".into(),
        a.count.to_string(),
        "--seed".into(),
        a.seed.to_string(),
        "--jobs".into(),
        if alone { 1 } else { a.jobs }.to_string(),
        "--batch".into(),
        if alone { 1 } else { a.batch }.to_string(),
        "--save".into(),
        path(&a.save),
        "--device".into(),
        a.device.clone(),
        "--report".into(),
        path(report),
        "--programs".into(),
        path(programs),
    ];
    if let Some(fault) = &a.inject {
        args.extend(["--inject".into(), fault.clone()]);
    }
    if a.cl_opt_disable {
        args.push("--cl-opt-disable".into());
    }
    if a.cl_optimize_o2 {
        args.push("--cl-optimize-o2".into());
    }
    args.extend(a.external.to_args());
    if a.no_opencl {
        args.push("--no-opencl".into());
    }
    if let Some(subset) = &a.subset {
        args.extend(["--subset".into(), subset.clone()]);
    }
    args
}

/// Runs `cmd` (stdout to the file `out`, stderr shared), killing it when `journal` has not
/// grown for `watchdog`.
fn run_child(
    mut cmd: Command,
    out: &Path,
    journal: &Path,
    watchdog: Duration,
) -> std::io::Result<End> {
    let mut child = cmd
        .stdout(std::fs::File::create(out)?)
        .stderr(Stdio::inherit())
        .spawn()?;
    let (mut seen, mut since) = (0u64, Instant::now());
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok(match (status.code(), status.signal()) {
                (Some(code @ (0 | 1 | 2 | 5)), _) => End::Exited(code),
                (Some(code), _) => End::Died(format!("crash: exited with status {code}")),
                (None, Some(sig)) => {
                    End::Died(format!("crash: killed by signal {sig}{}", signal_name(sig)))
                }
                (None, None) => End::Died("crash: ended without a status".into()),
            });
        }
        let len = std::fs::metadata(journal).map_or(0, |m| m.len());
        if len != seen {
            (seen, since) = (len, Instant::now());
        } else if since.elapsed() > watchdog {
            child.kill()?;
            child.wait()?;
            return Ok(End::Died(format!(
                "hang: no progress for {} s, killed by the watchdog",
                watchdog.as_secs()
            )));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The watchdog's seconds: `--watchdog`, but with external engines at least a whole external
/// run and then some, since one may take its whole time limit without a journal line.
fn watchdog(a: &FuzzArgs) -> u64 {
    match a.external.external.is_empty() {
        true => a.watchdog.max(1),
        false => a.watchdog.max(a.external.external_timeout + 30),
    }
}

/// ` (SIGSEGV)` and the like, for the signals a crash gives.
fn signal_name(sig: i32) -> &'static str {
    match sig {
        4 => " (SIGILL)",
        6 => " (SIGABRT)",
        7 => " (SIGBUS)",
        8 => " (SIGFPE)",
        9 => " (SIGKILL)",
        11 => " (SIGSEGV)",
        _ => "",
    }
}

/// Reports program `k` as failed for `why` in the CSV and saves it.
fn record(a: &FuzzArgs, lang: FuzzLang, report: &Path, k: u64, why: &str) {
    // the subset was checked before any child started
    let config = conformance::gen::fcl_config(a.subset.as_deref()).unwrap_or_default();
    let bytes = program_source(lang, &config, a.seed, k).len();
    let seed = program_seed(a.seed, k).to_string();
    let row = [
        k.to_string(),
        seed.clone(),
        "fail".into(),
        bytes.to_string(),
        "0".into(),
        why.into(),
        // what died is the checking process, whichever engine it was running
        "process".into(),
    ];
    append_csv_row(report, &row);
    eprintln!("FAIL program {k} (seed {seed}): {why}");
    for path in save_contained(&a.save, lang, &config, a.seed, k, why) {
        eprintln!("saved {}", path.display());
    }
}

/// The exit status a child's code stands for.
fn exit_of(code: i32) -> Exit {
    match code {
        5 => Exit::NoDevice,
        _ => Exit::Static,
    }
}
