//! External engines in a campaign (`fuzz --external NAME=TEMPLATE`, [`crate::external`]): every
//! program whose reference output is sound (the oracle's own check passed) also runs on each
//! engine, in a scratch folder holding only the program (`LANG-SEED-K.fcl`/`.tail`, the name a
//! saved failure gets). Its output is compared as the compiled side's is (FCL byte for byte;
//! TAIL numbers within a relative 1e-12, [`super::tail::outputs_agree`]). A mismatch is the
//! program's failure (configuration `external NAME`), saved and shrunk with each candidate
//! required to pass the oracle's check and still mismatch on that engine; a rejection is
//! counted, and is a failure (`external NAME rejected`) only with [`ExternalSide::rejects_fail`].

use super::oracle::{Checked, Verdict};
use super::report::save_failure;
use super::tail::{check_tail_against, outputs_agree};
use super::{Campaign, FuzzLang};
use crate::external::{judge_run, ExternalEngine, Judged};
use crate::gen::{print_program, FclProgram};
use crate::shrink;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The external engines of a campaign.
#[derive(Clone, Debug, Default)]
pub struct ExternalSide {
    pub engines: Vec<ExternalEngine>,
    /// A rejection of a valid program is a failure (`--rejects-fail`).
    pub rejects_fail: bool,
}

/// The configuration of a mismatch on engine `name`.
pub fn mismatch_config(name: &str) -> String {
    format!("external {name}")
}

/// The configuration of a rejection on engine `name`, a failure with `--rejects-fail`.
pub fn rejected_config(name: &str) -> String {
    format!("external {name} rejected")
}

impl ExternalSide {
    /// The engine a failing configuration names, when it is external.
    pub fn engine_of(&self, config: &str) -> Option<&ExternalEngine> {
        self.engines
            .iter()
            .find(|e| config == mismatch_config(&e.name) || config == rejected_config(&e.name))
    }

    /// Runs every engine on `src` (program stem `stem`), whose sound reference is in
    /// `checked`; a mismatch (or, with `rejects_fail`, a rejection) becomes the verdict when it
    /// passed so far. Gives each engine's judgement, in order.
    pub fn check(
        &self,
        lang: FuzzLang,
        stem: &str,
        src: &str,
        checked: &mut Checked,
    ) -> Vec<Judged> {
        let mut out = Vec::with_capacity(self.engines.len());
        for engine in &self.engines {
            let judged = run_program(engine, lang, stem, src, &checked.stdout);
            if checked.verdict == Verdict::Pass {
                if let Some(v) = self.verdict(engine, &judged, &checked.stdout) {
                    checked.verdict = v;
                }
            }
            out.push(judged);
        }
        out
    }

    /// The failure a judgement is, if any.
    fn verdict(&self, engine: &ExternalEngine, judged: &Judged, expected: &str) -> Option<Verdict> {
        match judged {
            Judged::Accepted => None,
            Judged::Mismatched(got) => Some(Verdict::Mismatch {
                config: mismatch_config(&engine.name),
                expected: expected.to_string(),
                got: got.clone(),
            }),
            Judged::Rejected(why) if self.rejects_fail => Some(Verdict::Mismatch {
                config: rejected_config(&engine.name),
                expected: expected.to_string(),
                got: format!("rejected: {why}"),
            }),
            Judged::Rejected(_) => None,
        }
    }
}

/// A scratch folder per run (several workers run engines at once).
static SCRATCH: AtomicU64 = AtomicU64::new(0);

/// Runs `engine` on `src`, written as `STEM.fcl` (or `.tail`) into a fresh scratch folder that
/// is removed afterwards, and judges its output against `expected`.
pub fn run_program(
    engine: &ExternalEngine,
    lang: FuzzLang,
    stem: &str,
    src: &str,
    expected: &str,
) -> Judged {
    let dir = std::env::temp_dir().join(format!(
        "tailfcl-external-{}-{}",
        std::process::id(),
        SCRATCH.fetch_add(1, Ordering::SeqCst)
    ));
    let file = format!("{stem}.{}", ext(lang));
    let written = std::fs::create_dir_all(&dir).and_then(|_| std::fs::write(dir.join(&file), src));
    let judged = match written {
        Err(e) => Judged::Rejected(format!(
            "cannot write the program to {}: {e}",
            dir.display()
        )),
        Ok(()) => match engine.run(&dir, &[&file], &[]) {
            Err(why) => Judged::Rejected(why),
            Ok(run) => judge_run(&run, |got| match lang {
                FuzzLang::Fcl => got == expected,
                FuzzLang::Tail => outputs_agree(expected, got),
            }),
        },
    };
    let _ = std::fs::remove_dir_all(&dir);
    judged
}

fn ext(lang: FuzzLang) -> &'static str {
    match lang {
        FuzzLang::Fcl => "fcl",
        FuzzLang::Tail => "tail",
    }
}

/// A failing program on its way to the shrinker.
pub struct Failing<'a> {
    pub src: &'a str,
    /// The generated FCL program (a TAIL program is shrunk from its source).
    pub program: Option<&'a FclProgram>,
    pub seed: u64,
    /// Its index in the campaign.
    pub k: u64,
    pub stem: &'a str,
}

/// Shrinks a program failing on an external engine (`config`) while every candidate passes the
/// oracle's check and fails on that engine the same way, then saves it as `STEM-shrunk`.
pub fn shrink_failure(c: &Campaign, f: &Failing, config: &str, dir: &Path) -> Vec<PathBuf> {
    let Some(engine) = c.external.engine_of(config) else {
        return Vec::new();
    };
    let check = |src: &str| -> Verdict {
        let mut checked = match c.lang {
            FuzzLang::Fcl => (c.checker)(src, f.seed, None),
            FuzzLang::Tail => check_tail_against(src, None),
        };
        if checked.verdict != Verdict::Pass {
            return checked.verdict;
        }
        // progress for the containing process's watchdog
        super::journal::note(format_args!("external {}", f.k));
        let judged = run_program(engine, c.lang, f.stem, src, &checked.stdout);
        if let Some(v) = c.external.verdict(engine, &judged, &checked.stdout) {
            checked.verdict = v;
        }
        checked.verdict
    };
    let same = |v: &Verdict| matches!(v, Verdict::Mismatch { config: got, .. } if got == config);
    let small = match (c.lang, f.program) {
        (FuzzLang::Fcl, Some(program)) => {
            let mut still_fails =
                super::within_budget(|cand: &FclProgram| same(&check(&print_program(cand))));
            let shrunk = shrink::fcl::shrink(program, c.shrink_tries, &mut still_fails);
            print_program(&shrunk)
        }
        _ => match shrink::tail::TailProgram::parse(f.src) {
            Ok(program) => {
                let mut still_fails = super::within_budget(|cand: &shrink::tail::TailProgram| {
                    same(&check(&cand.print()))
                });
                let (shrunk, _) = shrink::tail::shrink(&program, c.shrink_tries, &mut still_fails);
                shrunk.print()
            }
            Err(_) => return Vec::new(),
        },
    };
    let verdict = check(&small);
    save_failure(
        dir,
        &format!("{}-shrunk", f.stem),
        ext(c.lang),
        &small,
        f.seed,
        &verdict,
    )
}
