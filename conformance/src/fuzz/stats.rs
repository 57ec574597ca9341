//! Campaign statistics: validity, sizes, operator histogram and rule coverage.

use crate::gen::fcl_print::nesting_depth;
use std::collections::BTreeMap;
use std::fmt::Write;

/// The FCL built-ins and operators the histogram counts (by source token).
const OPERATORS: &[&str] = &[
    "generate",
    "mapPull",
    "zipWith",
    "take",
    "drop",
    "index",
    "lengthPull",
    "lengthPush",
    "push",
    "mapPush",
    "force",
    "return",
    "interleave",
    "interleaveSeq",
    "seqfor",
    "power",
    "while",
    "forceAndPrint",
    "iota",
    "each",
    "reduce",
    "prArrI",
    "addi",
    "subi",
    "muli",
    "mini",
    "maxi",
    "andi",
    "xor",
    "sll",
    "srl",
    "absi",
    "signi",
    "clz",
    "lti",
    "eqi",
    "neqi",
    "b2i",
    "if",
    "+",
    "-",
    "*",
    "/",
    "%",
    "&",
    "<<",
    ">>",
    // TAIL
    "reshape",
    "transp",
    "transp2",
    "rotate",
    "vrotate",
    "vreverse",
    "cat",
    "cons",
    "snoc",
    "first",
    "shape",
    "rav",
    "idxS",
    "scan",
    "condScl",
    "gradeUp",
    "gradeDown",
    "i2d",
    "b2i",
    "gti",
    "addd",
    "subd",
    "muld",
    "maxd",
    "mind",
    "ltd",
    "gtd",
    "andb",
    "orb",
    "xorb",
    "notb",
    "prArrD",
    "prArrB",
    "prSclI",
    "prSclD",
    "prSclB",
    "compress",
    "replicate",
    "formatI",
    "formatD",
    "prArrC",
    "prArrX",
    "prSclX",
    "addx",
    "subx",
    "mulx",
    "negx",
    "conjx",
    "expx",
    "magnx",
    "rex",
    "imx",
    "injx",
    "d2x",
    "roll",
    "ltc",
    "eqc",
    "gtec",
];

/// Every rule the FCL oracle can report, for the "never reached" list (scalar rules are listed
/// by the operators the generator uses). Not listed: the error rules (5.61, 5.77, 5.85), which
/// generated programs avoid by construction, and `5.83s force-interleaveSeq-sub`, which the
/// oracle declares but never fires (interleaveSeq sub-programs finish through 5.84s).
pub const FCL_RULES: &[&str] = &[
    "5.50 beta",
    "5.50 let",
    "5.51 fst",
    "5.52 snd",
    "5.53 mapPull",
    "5.54 interleave",
    "5.55 interleaveSeq",
    "5.56 seqfor",
    "5.57 push",
    "5.58 generate",
    "5.59 lengthPull",
    "5.60 index",
    "5.62 return",
    "5.63 bind",
    "5.64 lengthPush-push",
    "5.65 lengthPush-interleave",
    "5.66 lengthPush-interleaveSeq",
    "5.67 lengthPush-seqfor",
    "5.68 mapPush-push",
    "5.69 mapPush-interleave",
    "5.70 mapPush-interleaveSeq",
    "5.71 mapPush-seqfor",
    "5.72 addi",
    "5.73 muli",
    "5.74 if-true",
    "5.75 if-false",
    "5.79 seqfor-step",
    "5.80 seqfor-done",
    "5.81 force-push-par",
    "5.82 force-done",
    "5.83 force-interleave-par",
    "5.83 force-interleave-sub",
    "5.84 force-interleave",
    "5.86 permute",
    "5.87 power-done",
    "5.88 power-step",
    "5.87 power-start",
    "5.89 while",
    "5.90 ifp-true",
    "5.91 ifp-false",
    "5.84s force-interleaveSeq",
    "host forceAndPrint",
];

/// The TAIL rules (spec numbering, `semantics::tail::step::rules`) for the "never reached" list
/// of a TAIL campaign. Not listed: the error rules (3.35 iota, 3.42 transp2, 3.58 idxassign),
/// which generated programs avoid by construction.
pub const TAIL_RULES: &[&str] = &[
    "3.32 addi",
    "3.32 subi",
    "3.32 muli",
    "3.32 maxi",
    "3.32 mini",
    "3.32 lti",
    "3.32 eqi",
    "3.32 gti",
    "3.32 andb",
    "3.32 orb",
    "3.32 xorb",
    "3.32 notb",
    "3.32 ltc",
    "3.32 eqc",
    "3.32 gtec",
    "3.32 b2i",
    "3.32 i2d",
    "3.33 addd",
    "3.33 subd",
    "3.33 muld",
    "3.33 maxd",
    "3.33 mind",
    "3.33 ltd",
    "3.33 gtd",
    "3.33 addx",
    "3.33 subx",
    "3.33 mulx",
    "3.33 negx",
    "3.33 conjx",
    "3.33 expx",
    "3.33 magnx",
    "3.33 rex",
    "3.33 imx",
    "3.33 injx",
    "3.33 d2x",
    "3.34 iota",
    "3.36 each",
    "3.36 reshape0",
    "3.37 reduce",
    "3.38 reshape",
    "3.39 reshape",
    "3.40 transp",
    "3.41 transp2",
    "3.43 take",
    "3.44 take",
    "3.45 first",
    "3.54 let",
    "3.55 beta",
    "3.56 alloc",
    "3.57 idxassign",
    "3.59 power",
    "3.60 power",
    "3.61 drop",
    "3.62 rotate",
    "3.62 vrotate",
    "3.63 cat",
    "3.64 cons",
    "3.64 snoc",
    "3.65 compress",
    "3.66 replicate",
    "3.67 scan",
    "3.68 zipWith",
    "3.69 shape",
    "3.69 rav",
    "3.70 vreverse",
    "3.71 idxS",
    "3.72 gradeUp",
    "3.72 gradeDown",
    "3.73 prArrI",
    "3.73 prArrD",
    "3.73 prArrB",
    "3.73 prSclI",
    "3.73 prSclD",
    "3.73 prSclB",
    "3.73 prArrC",
    "3.73 prArrX",
    "3.73 prSclX",
    "3.74 formatI",
    "3.74 formatD",
    "3.75 roll",
    "3.76 condScl",
    "3.77 zilde",
    "3.78 tuple",
    "3.78 prj",
    "3.79 if",
];

/// Accumulated statistics of a campaign.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    pub generated: u64,
    pub valid: u64,
    pub passed: u64,
    pub failed: u64,
    pub total_bytes: u64,
    pub max_bytes: u64,
    pub total_depth: u64,
    pub max_depth: u64,
    pub operators: BTreeMap<String, u64>,
    pub rules: BTreeMap<String, u64>,
    /// Programs the compiler declined, by reason (the compiled side was skipped for them).
    pub unsupported: BTreeMap<String, u64>,
    /// A TAIL campaign: rules are checked against [`TAIL_RULES`] rather than [`FCL_RULES`].
    pub tail: bool,
    /// Per external engine (in the campaign's order): programs accepted, rejected, mismatched.
    pub external: Vec<(String, [u64; 3])>,
    /// Programs whose reference run fails at run time (its output ends in `error: RULE`): the
    /// generator's failing programs (`gen::tail_gen` module `failing`).
    pub failing: u64,
    /// Programs whose compiled code reached each construct ([`super::reach`]).
    pub reached: BTreeMap<&'static str, u64>,
    /// Compiled programs counted in [`Stats::reached`].
    pub compiled: u64,
    /// TAIL programs binding a large array ([`crate::gen::tail_gen::large`]).
    pub large: u64,
}

impl Stats {
    /// Adds one program: its source and the rules its reference run fired.
    pub fn add_program(&mut self, src: &str, rules: &BTreeMap<String, u64>) {
        self.generated += 1;
        let bytes = src.len() as u64;
        self.total_bytes += bytes;
        self.max_bytes = self.max_bytes.max(bytes);
        let depth = nesting_depth(src);
        self.total_depth += depth;
        self.max_depth = self.max_depth.max(depth);
        for tok in tokens(src) {
            if OPERATORS.contains(&tok) {
                *self.operators.entry(tok.to_string()).or_default() += 1;
            }
        }
        for (r, n) in rules {
            *self.rules.entry(r.clone()).or_default() += n;
        }
        if self.tail && crate::gen::tail_gen::large::is_large_program(src) {
            self.large += 1;
        }
    }

    /// Adds what one compiled program's code reached.
    pub fn add_reached(&mut self, constructs: &[&'static str]) {
        self.compiled += 1;
        for c in constructs {
            *self.reached.entry(c).or_default() += 1;
        }
    }

    /// Counts an external engine's judgement of a program.
    pub fn add_external(&mut self, name: &str, judged: &crate::external::Judged) {
        use crate::external::Judged;
        let at = match judged {
            Judged::Accepted => 0,
            Judged::Rejected(_) => 1,
            Judged::Mismatched(_) => 2,
        };
        match self.external.iter_mut().find(|(n, _)| n == name) {
            Some((_, counts)) => counts[at] += 1,
            None => {
                let mut counts = [0; 3];
                counts[at] = 1;
                self.external.push((name.to_string(), counts));
            }
        }
    }

    /// Counts the program whose reference output is `reference` as failing when it ends in
    /// the failure line (`error: RULE`, [`super::tail::failure_line`]).
    pub fn note_failing(&mut self, reference: &str) {
        if reference
            .lines()
            .last()
            .is_some_and(|l| l.starts_with("error: "))
        {
            self.failing += 1;
        }
    }

    /// Counts a program the compiler declined.
    pub fn add_unsupported(&mut self, why: &str) {
        *self.unsupported.entry(why.to_string()).or_default() += 1;
    }

    /// The percentage of generated programs that loaded and ran without error.
    pub fn valid_percent(&self) -> f64 {
        if self.generated == 0 {
            return 100.0;
        }
        100.0 * self.valid as f64 / self.generated as f64
    }

    /// The rules of [`FCL_RULES`] (or [`TAIL_RULES`]) no program reached.
    pub fn unreached(&self) -> Vec<&'static str> {
        let all = if self.tail { TAIL_RULES } else { FCL_RULES };
        all.iter()
            .copied()
            .filter(|r| !self.rules.contains_key(*r))
            .collect()
    }

    /// The multi-line statistics report printed after the summary line.
    pub fn render(&self) -> String {
        let mut s = String::new();
        let g = self.generated.max(1);
        let _ = writeln!(
            s,
            "programs generated: {}  valid: {} ({:.2}%)",
            self.generated,
            self.valid,
            self.valid_percent()
        );
        let _ = writeln!(
            s,
            "size: mean {} bytes, max {}  nesting depth: mean {:.1}, max {}",
            self.total_bytes / g,
            self.max_bytes,
            self.total_depth as f64 / g as f64,
            self.max_depth
        );
        if self.tail {
            let _ = writeln!(
                s,
                "failing programs: {} (the oracle stops with a run-time error; every engine must \
                 fail with its rule after the same output)",
                self.failing
            );
        }
        let ops: Vec<String> = self
            .operators
            .iter()
            .map(|(k, v)| format!("{k}:{v}"))
            .collect();
        let _ = writeln!(s, "operators: {}", ops.join(" "));
        let rules: Vec<String> = self.rules.iter().map(|(k, v)| format!("{k}:{v}")).collect();
        if !rules.is_empty() {
            let _ = writeln!(s, "rule coverage: {}", rules.join(", "));
        }
        if self.rules.is_empty() {
            let _ = writeln!(s, "rule coverage: not counted for this language");
        } else {
            let unreached = self.unreached();
            let list = if unreached.is_empty() {
                "none".to_string()
            } else {
                unreached.join(", ")
            };
            let _ = writeln!(s, "rules never reached: {list}");
        }
        if self.tail {
            let _ = writeln!(
                s,
                "large arrays (over 256 elements): {} programs",
                self.large
            );
        }
        if self.compiled > 0 {
            let each: Vec<String> = self
                .reached
                .iter()
                .map(|(k, v)| format!("{k}:{v}"))
                .collect();
            let _ = writeln!(
                s,
                "compiled code reached (programs of {}): {}",
                self.compiled,
                each.join(", ")
            );
        }
        if !self.unsupported.is_empty() {
            let n: u64 = self.unsupported.values().sum();
            let _ = writeln!(
                s,
                "unsupported: the compiler (or the TAIL lowering) declined {n} programs (compiled side skipped):"
            );
            for (why, k) in &self.unsupported {
                let _ = writeln!(s, "  {k} x {why}");
            }
        }
        for (name, [accepted, rejected, mismatched]) in &self.external {
            let _ = writeln!(
                s,
                "external {name}: {accepted} accepted, {rejected} rejected, {mismatched} mismatched"
            );
        }
        s
    }
}

/// Identifiers and operator symbols of the source (comments are not skipped; generated programs
/// have only the header comment).
fn tokens(src: &str) -> impl Iterator<Item = &str> {
    src.split(|c: char| c.is_whitespace() || "(){};,".contains(c))
        .map(|t| match t.find('<') {
            Some(i) if i > 0 => &t[..i],
            _ => t,
        })
        .filter(|t| !t.is_empty())
}
