//! TAIL benchmarks in the style of the thesis's (chapter 3, Tables 3.1–3.6): eight programs
//! written as apltail would print them (monomorphic TAIL, spec tail.md's operators), two
//! sorts (`gradeUp` of a computed int and double vector) and a filter in a `power` loop, each
//! a template over its problem size that ends in one double scalar, so results compare
//! cheaply.
//!
//! For each program there is a straightforward sequential Rust implementation of the same
//! computation ([`reference`]), with the same element types and, where it matters for doubles,
//! the same operation order (TAIL's `reduce` is `acc := x_0; acc := f(x_j)(acc)`, spec §5.9).
//! [`opencl`] runs a program on the oracle-free path (TAIL → FCL → OpenCL) and times it; the
//! `bench_tail` binary prints both in one table; `tests/agree.rs` checks every reference against
//! the TAIL oracle at small sizes.

pub mod opencl;
pub mod reference;

/// One benchmark program.
pub struct Bench {
    /// Short name (also the template's file name under `bench/tail/`).
    pub name: &'static str,
    /// TAIL text with `{X}` placeholders, filled by [`Bench::source`].
    pub template: &'static str,
    /// The size parameters' names, e.g. `["N"]` or `["N", "K"]`.
    pub params: &'static [&'static str],
    /// Sizes the bench binary uses by default.
    pub bench_size: &'static [usize],
    /// Small sizes for the oracle test.
    pub test_size: &'static [usize],
    /// The largest value of each parameter that keeps the program's int32 arithmetic (and, for
    /// double sums of ints, exactness) within range.
    pub max_size: &'static [usize],
    /// The TAIL operators the program needs (for reports on what the lowering must support).
    pub ops: &'static str,
    /// Whether the result is computed exactly (ints, or doubles whose every rounding is exact),
    /// so that any evaluation order gives the same bits.
    pub exact: bool,
    /// The template's placeholders for a size.
    placeholders: fn(&[usize]) -> Vec<(&'static str, usize)>,
    /// The sequential Rust implementation.
    reference: fn(&[usize]) -> f64,
}

impl Bench {
    /// Checks that `size` has one positive value per parameter, each within [`Bench::max_size`].
    pub fn check_size(&self, size: &[usize]) -> Result<(), String> {
        if size.len() != self.params.len() {
            return Err(format!(
                "{} takes {} size(s) ({}), got {}",
                self.name,
                self.params.len(),
                self.params.join(","),
                size.len()
            ));
        }
        for ((p, v), max) in self.params.iter().zip(size).zip(self.max_size) {
            if *v == 0 || v > max {
                return Err(format!("{}: {p} must be in 1..={max}, got {v}", self.name));
            }
        }
        Ok(())
    }

    /// The TAIL program for `size` (which must pass [`Bench::check_size`]).
    pub fn source(&self, size: &[usize]) -> String {
        let mut src = self.template.to_string();
        for (name, value) in (self.placeholders)(size) {
            src = src.replace(&format!("{{{name}}}"), &value.to_string());
        }
        src
    }

    /// The Rust reference's result for `size`.
    pub fn reference(&self, size: &[usize]) -> f64 {
        (self.reference)(size)
    }

    /// `N=1000, K=100`.
    pub fn size_text(&self, size: &[usize]) -> String {
        self.params
            .iter()
            .zip(size)
            .map(|(p, v)| format!("{p}={v}"))
            .collect::<Vec<_>>()
            .join(",")
    }
}

fn n_only(s: &[usize]) -> Vec<(&'static str, usize)> {
    vec![("N", s[0])]
}

/// The programs, in the order of the table.
pub fn benches() -> Vec<Bench> {
    vec![
        Bench {
            name: "signal",
            template: include_str!("../tail/signal.tail"),
            params: &["N"],
            bench_size: &[1 << 26],
            test_size: &[100],
            max_size: &[300_000_000],
            ops: "iotaV eachV consV rotateV zipWith drop each i2d subi resi muli addi \
                  addd muld divd mind maxd reduce(addd)",
            exact: false,
            placeholders: |s| vec![("N", s[0]), ("N1", s[0] + 1)],
            reference: |s| reference::signal(s[0]),
        },
        Bench {
            name: "primes",
            template: include_str!("../tail/primes.tail"),
            params: &["N"],
            bench_size: &[10_000],
            test_size: &[100],
            max_size: &[46_000],
            ops: "iotaV dropV reshape transp zipWith(resi) each eqi b2i reduce(addi) over a \
                  long axis, i2d",
            exact: true,
            placeholders: |s| vec![("N", s[0]), ("M", s[0] - 1)],
            reference: |s| reference::primes(s[0]),
        },
        Bench {
            name: "sieve",
            template: include_str!("../tail/sieve.tail"),
            params: &["N"],
            bench_size: &[200_000],
            test_size: &[100],
            max_size: &[1_000_000],
            ops: "iota drop reshape transp zipWith(resi eqi lti andb b2i) reduce(addi) over the \
                  divisors, compress by a computed mask (a length known only on the device), \
                  each resi, reduce(addi), i2d",
            exact: true,
            placeholders: |s| {
                let r = (s[0] as f64).sqrt().floor() as usize;
                vec![("N", s[0]), ("M", s[0] - 1), ("R", r), ("R1", r - 1)]
            },
            reference: |s| reference::sieve(s[0]),
        },
        Bench {
            name: "easter",
            template: include_str!("../tail/easter.tail"),
            params: &["N"],
            bench_size: &[30_000_000],
            test_size: &[100],
            max_size: &[300_000_000],
            ops: "iotaV eachV each zipWith (let-bound arrays) addi subi muli resi i2d divd \
                  muld floor eqi gti orb andb b2i reduce(addd)",
            exact: true,
            placeholders: n_only,
            reference: |s| reference::easter(s[0]),
        },
        Bench {
            name: "blackscholes",
            template: include_str!("../tail/blackscholes.tail"),
            params: &["N"],
            bench_size: &[5_000_000],
            test_size: &[100],
            max_size: &[1_000_000_000],
            ops: "iotaV eachV each zipWith, let in lambdas, resi i2d addd subd muld divd \
                  powd ln expd negd absd gtd b2i pi reduce(addd)",
            exact: false,
            placeholders: n_only,
            reference: |s| reference::blackscholes(s[0]),
        },
        Bench {
            name: "life",
            template: include_str!("../tail/life.tail"),
            params: &["N", "K"],
            bench_size: &[1000, 100],
            test_size: &[12, 5],
            max_size: &[46_000, 1_000_000],
            ops: "iotaV eachV reshape power (over an [int]2) rotate vrotate zipWith \
                  addi eqi orb andb b2i resi muli gti reduce(addi) twice, i2d",
            exact: true,
            placeholders: |s| vec![("N", s[0]), ("NN", s[0] * s[0]), ("K", s[1])],
            reference: |s| reference::life(s[0], s[1]),
        },
        Bench {
            name: "sobol",
            template: include_str!("../tail/sobol.tail"),
            params: &["N"],
            bench_size: &[15_000_000],
            test_size: &[100],
            max_size: &[70_000_000],
            ops: "int vector literals, iotaV eachV reshape transp zipWith andi shri muli \
                  reduce(xori) over 30, each i2d divd muld addd gtd b2i reduce(addi)",
            exact: true,
            placeholders: n_only,
            reference: |s| reference::sobol(s[0]),
        },
        Bench {
            name: "inner_product",
            template: include_str!("../tail/inner_product.tail"),
            params: &["N"],
            bench_size: &[576],
            test_size: &[12],
            max_size: &[1290],
            ops: "iotaV eachV reshape transp2 zipWith(muld) reduce(addd) over 3 ranks, \
                  resi subi muli i2d divd",
            exact: true,
            placeholders: |s| vec![("N", s[0]), ("NN", s[0] * s[0])],
            reference: |s| reference::inner_product(s[0]),
        },
        Bench {
            name: "sort",
            template: include_str!("../tail/sort.tail"),
            params: &["N"],
            bench_size: &[3_000_000],
            test_size: &[1000],
            // (the checksum's terms are below 97: its sum stays in int32)
            max_size: &[20_000_000],
            ops: "iota each resi muli gradeUp (of a computed vector: the device's radix sort) zipWith \
                  reduce(addi) i2d",
            exact: true,
            placeholders: n_only,
            reference: |s| reference::sort(s[0]),
        },
        Bench {
            name: "sortd",
            template: include_str!("../tail/sortd.tail"),
            params: &["N"],
            bench_size: &[3_000_000],
            test_size: &[1000],
            // (the checksum's terms are below 97: its sum stays in int32)
            max_size: &[20_000_000],
            ops: "iota each resi muli subi i2d divd gradeUp (of a computed double vector: the \
                  device's radix sort over the encoding's 64 bits) zipWith reduce(addi)",
            exact: true,
            placeholders: n_only,
            reference: |s| reference::sortd(s[0]),
        },
        Bench {
            name: "filter_power",
            template: include_str!("../tail/filter_power.tail"),
            params: &["N", "K"],
            bench_size: &[2_000_000, 70],
            test_size: &[1000, 5],
            // the sum of remainders mod 1000 stays in int32
            max_size: &[2_000_000, 10_000],
            ops: "iota each resi muli, then K trips of a power whose step filters its state \
                  (compress by a computed mask: the length changes each trip, on the device), \
                  each addi gti, reduce(addi), i2d",
            exact: true,
            placeholders: |s| vec![("N", s[0]), ("K", s[1])],
            reference: |s| reference::filter_power(s[0], s[1]),
        },
    ]
}

/// Whether two results agree: exactly, or within relative `rel` plus absolute `abs` (the
/// absolute slack covers a result printed with a fixed number of decimals).
pub fn agree(a: f64, b: f64, rel: f64, abs: f64) -> bool {
    a == b || (a - b).abs() <= rel * a.abs().max(b.abs()) + abs
}
