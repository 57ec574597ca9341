//! `tailfcl step --format html` and `tailfcl step --interactive`: the teaching stepper
//! (interpreter::teach) on a file, as a page or in the terminal.

use super::{Exit, Lang, StepArgs};
use interpreter::tail::RunOptions;
use interpreter::teach::html::{HtmlTrace, PageInfo};
use interpreter::teach::{Ended, Summary, TeachStep};
use std::io::{self, Write};

/// Where a trace goes: the `-o` file, else standard output.
pub fn sink(a: &StepArgs) -> Result<Box<dyn Write>, Exit> {
    match &a.output {
        Some(path) => match std::fs::File::create(path) {
            Ok(f) => Ok(Box::new(io::BufWriter::new(f))),
            Err(e) => {
                eprintln!("error: cannot write {}: {e}", path.display());
                Err(Exit::Static)
            }
        },
        None => Ok(Box::new(io::BufWriter::new(io::stdout()))),
    }
}

/// The steps of a run, handed to `on_step` (a `false` answer stops the run); the page's header.
pub fn teach_run(
    lang: Lang,
    a: &StepArgs,
    on_step: &mut dyn FnMut(TeachStep) -> bool,
) -> Result<(Summary, PageInfo), Exit> {
    let title = a
        .run
        .input
        .files
        .last()
        .and_then(|p| p.file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    // --limit N: at most N steps (the run then ends at a step limit, which is no error)
    let limit = a.limit.unwrap_or(u64::MAX);
    match lang {
        Lang::Tail => {
            let path = super::tail::single_file(&a.run.input.files)?;
            let (_, prog) = super::tail::load(path)?;
            let opts = RunOptions {
                max_steps: a.run.max_steps.min(limit),
            };
            let summary = interpreter::teach::tail(prog, opts, |s| {
                on_step(s);
                Ok(())
            })
            .map_err(|e| {
                eprintln!("error: {e}");
                Exit::Internal
            })?;
            let info = PageInfo {
                lang: "tail",
                title,
                machine: None,
                schedule: None,
            };
            Ok((summary, info))
        }
        Lang::Fcl => {
            let (_, program) = super::fcl::load(&a.run)?;
            let cfg = super::fcl::config(&a.run)?;
            let summary = interpreter::teach::fcl(&program.main, &cfg, |s| {
                let n = s.record.step;
                on_step(s) && n < limit
            });
            let info = PageInfo {
                lang: "fcl",
                title,
                machine: Some((cfg.machine.blocks, cfg.machine.threads)),
                schedule: Some(cfg.schedule.to_string()),
            };
            Ok((summary, info))
        }
    }
}

/// `tailfcl step --format html` (to `-o FILE` or standard output), or `--interactive`.
pub fn step(lang: Lang, a: &StepArgs) -> Result<Exit, Exit> {
    if a.interactive {
        return super::tui::run(lang, a);
    }
    let mut page = HtmlTrace::new(PageInfo::default());
    let (summary, info) = teach_run(lang, a, &mut |s| {
        page.push(&s);
        true
    })?;
    page.set_info(info);
    let mut out = sink(a)?;
    page.finish(&summary, &mut out)
        .and_then(|_| out.flush())
        .map_err(|e| {
            eprintln!("error: writing the page: {e}");
            Exit::Internal
        })?;
    exit_of(&summary, a.limit.is_some())
}

/// The exit status of a teaching run (DESIGN.md), with the reason on stderr.
pub fn exit_of(summary: &Summary, limited: bool) -> Result<Exit, Exit> {
    match summary.ended {
        Ended::Value => Ok(Exit::Ok),
        Ended::Limit if limited => Ok(Exit::Ok),
        other => {
            eprintln!("error: {}", summary.outcome.trim_start_matches("err: "));
            Err(match other {
                Ended::Error => Exit::RuntimeError,
                Ended::Static => Exit::Static,
                _ => Exit::Limit,
            })
        }
    }
}
