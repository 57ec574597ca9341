//! A campaign's programs as a conformance suite (`tailfcl gen`): program k of seed S, exactly
//! as a campaign generates it ([`super::program_source`]), named as a campaign names its
//! failures (`LANG-S-k`), with the oracle's output as its expected output.

use super::oracle::check_fcl_oracle;
use super::tail::check_tail_against;
use super::{program_seed, program_source, FuzzLang, Verdict};
use crate::gen::FclConfig;

/// One program of a campaign, ready to be written as `STEM.EXT` and `STEM.expected`.
#[derive(Clone, Debug)]
pub struct Exported {
    /// `fcl-S-k` or `tail-S-k`.
    pub stem: String,
    /// `fcl` or `tail`.
    pub ext: &'static str,
    pub source: String,
    /// The oracle's stdout, or why the program is no test (the oracle's own check failed:
    /// a generator defect or an oracle bug, which `fuzz` reports as such).
    pub expected: Result<String, String>,
}

/// Program `k` of the campaign of `lang` seeded `seed` (FCL generated with `config`), with
/// the oracle's output: for FCL, the reference run's stdout once every machine shape and
/// schedule the campaign compares agrees with it (so any machine gives that output); for TAIL,
/// the TAIL oracle's.
pub fn export_program(lang: FuzzLang, config: &FclConfig, seed: u64, k: u64) -> Exported {
    let source = program_source(lang, config, seed, k);
    let (ext, checked) = match lang {
        FuzzLang::Fcl => ("fcl", check_fcl_oracle(&source, program_seed(seed, k))),
        FuzzLang::Tail => ("tail", check_tail_against(&source, None)),
    };
    let expected = match checked.verdict {
        Verdict::Pass => Ok(checked.stdout),
        Verdict::Invalid(why) => Err(why),
        Verdict::Mismatch { config, .. } => Err(format!("the oracle disagrees on {config}")),
    };
    Exported {
        stem: format!("{ext}-{seed}-{k}"),
        ext,
        source,
        expected,
    }
}
