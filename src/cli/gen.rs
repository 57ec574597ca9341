//! `tailfcl gen`: a fuzz campaign's programs written out as a conformance suite, for any other
//! tool to be fed (and for `tailfcl conform`).

use super::{Exit, Lang};
use clap::Args;
use conformance::fuzz::export::export_program;
use conformance::fuzz::FuzzLang;
use std::path::PathBuf;

#[derive(Args, Debug, Clone)]
pub struct GenArgs {
    /// tail or fcl.
    #[arg(long, value_enum, default_value = "fcl")]
    pub lang: Lang,
    /// The campaign's seed: program K is program K of `fuzz --seed S`.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Programs to write (0 to N-1).
    #[arg(long, default_value_t = 50)]
    pub count: u64,
    /// The folder to write NAME.fcl/.tail and NAME.expected into (created if needed).
    #[arg(long)]
    pub out: PathBuf,
    /// FCL: generate only a dialect (`original-fcl`; see docs/external-engines.md).
    #[arg(long)]
    pub subset: Option<String>,
}

/// Writes programs 0..count of the campaign with `--seed`, `LANG-SEED-K.EXT` with
/// `LANG-SEED-K.expected` (the oracle's output; `.expected-error` for a TAIL program the oracle
/// stops with a run-time error), into `--out`. A program the oracle's own
/// check rejects is left out with a note (`fuzz` reports it as invalid). Prints how many were
/// written.
pub fn gen(a: &GenArgs) -> Result<Exit, Exit> {
    let config = subset_config(a.lang, a.subset.as_deref())?;
    let lang = match a.lang {
        Lang::Fcl => FuzzLang::Fcl,
        Lang::Tail => FuzzLang::Tail,
    };
    let fail = |what: &str, e: std::io::Error| {
        eprintln!("error: cannot write {what}: {e}");
        Exit::Static
    };
    std::fs::create_dir_all(&a.out).map_err(|e| fail(&a.out.display().to_string(), e))?;
    let (mut written, mut left_out) = (0u64, 0u64);
    for k in 0..a.count {
        let p = export_program(lang, &config, a.seed, k);
        let expected = match p.expected {
            Ok(e) => e,
            Err(why) => {
                eprintln!("note: program {k} left out: {why}");
                left_out += 1;
                continue;
            }
        };
        // a program the oracle stops with a run-time error (the generator's failing
        // productions): a suite expects that as NAME.expected-error, the error's kind, whose
        // class is what `conform` compares (the output before it is not compared)
        let fails = p.ext == "tail"
            && expected
                .lines()
                .last()
                .is_some_and(|l| l.starts_with("error: "));
        let (expected_ext, expected) = match fails {
            true => ("expected-error", "runtime-error\n".to_string()),
            false => ("expected", expected),
        };
        for (ext, text) in [(p.ext, &p.source), (expected_ext, &expected)] {
            let path = a.out.join(format!("{}.{ext}", p.stem));
            std::fs::write(&path, text).map_err(|e| fail(&path.display().to_string(), e))?;
        }
        written += 1;
    }
    println!(
        "wrote {written} programs to {} ({left_out} left out)",
        a.out.display()
    );
    Ok(Exit::Ok)
}

/// The FCL generator's configuration for `--subset` (exit 2 for an unknown subset, or a subset
/// with TAIL, whose generator has none).
pub fn subset_config(
    lang: Lang,
    subset: Option<&str>,
) -> Result<conformance::gen::FclConfig, Exit> {
    if lang == Lang::Tail && subset.is_some_and(|s| s != "full") {
        eprintln!("error: --subset applies to FCL programs only");
        return Err(Exit::Static);
    }
    conformance::gen::fcl_config(subset).map_err(|why| {
        eprintln!("error: {why}");
        Exit::Static
    })
}
