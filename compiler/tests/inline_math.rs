//! The double math that compiled code computes inline instead of calling OpenCL's library
//! (`compiler::kir::emit`: `fcl_exp`, `fcl_log`, and `powd` by 0.5, 2 and -1): on inputs over
//! the whole double range, with NaN, ±inf, ±0.0, subnormals and the overflow and underflow
//! edges, the compiled value agrees with the oracle's (Rust's `exp`, `ln`, `powf`) within a few
//! ulp, and exactly in every special case. Skips when there is no OpenCL platform.

mod support;

use compiler::exec::execute;
use compiler::kir::emit::PRELUDE;
use compiler::{compile_fcl, OptLevel, DEFAULT_BLOCK_SIZE};

/// The inputs, as FCL text (the chain of `if`s keeps them run-time values for the compiler).
const INPUTS: &[&str] = &[
    "divd 0.0 0.0",
    "divd 1.0 0.0",
    "divd -1.0 0.0",
    "0.0",
    "negd 0.0",
    "1.0",
    "-1.0",
    "0.5",
    "2.0",
    "1e-310",
    "4.9e-324",
    "-1e-310",
    "2.2250738585072014e-308",
    "1.7976931348623157e308",
    "709.782712893384",
    "709.79",
    "-745.1",
    "-745.2",
    "-746.0",
    "-1000.0",
    "1e-20",
    "-1e-20",
    "0.34657359",
    "-0.34657359",
    "1.4142135623730951",
    "0.7071067811865476",
    "100.0",
    "-100.0",
    "12345.678",
    "3.0e-5",
    "0.9999999999",
    "1.0000000001",
];

/// Each input through `op` (FCL text of a function of `x`), compiled, against the oracle.
fn check(rt: &compiler::runtime::Runtime, op: &str, ulps: f64) {
    let n = INPUTS.len();
    let mut input = String::from("sig input : int -> double\nfun input i = ");
    for (k, v) in INPUTS.iter().enumerate() {
        input.push_str(&format!("if i == {k} then {v} else "));
    }
    input.push_str("0.0\n");
    let blocks = n.div_ceil(8);
    let src = format!(
        "{input}sig main : Program <grid> unit\nval main = do<grid>\n  {{ p <- concat<block> 8 \
         (generate {blocks} (fn b => return<block> (push<block> (generate 8 (fn j => let x = \
         input (b * 8 + j) in {op})))))\n  ; a <- forceAndPrintDoubleExact {n} p\n  ; \
         return<grid> ()\n  }}\n"
    );
    let (want, main) = support::oracle("math.fcl", &src);
    for opt in [OptLevel::O0, OptLevel::O2] {
        let m = compile_fcl(&main, opt, DEFAULT_BLOCK_SIZE).unwrap();
        let got = execute(&m, rt).unwrap().stdout;
        let (w, g) = (numbers(&want), numbers(&got));
        assert_eq!(w.len(), n, "{want}");
        assert_eq!(g.len(), n, "{got}");
        for (k, (a, b)) in w.iter().zip(&g).enumerate() {
            let same = a.to_bits() == b.to_bits()
                || (a.is_nan() && b.is_nan())
                || (a.is_finite()
                    && b.is_finite()
                    && *a != 0.0
                    && a.is_normal()
                    && ((a - b) / a).abs() <= ulps * f64::EPSILON);
            assert!(same, "{op} at {}: oracle {a:e}, compiled {b:e}", INPUTS[k]);
        }
    }
}

fn numbers(line: &str) -> Vec<f64> {
    let inner = line.trim().trim_start_matches('[').trim_end_matches(']');
    inner
        .split(',')
        .map(|t| match t.trim() {
            "nan" | "NaN" | "-nan" => f64::NAN,
            "inf" | "Infinity" => f64::INFINITY,
            "-inf" | "-Infinity" => f64::NEG_INFINITY,
            t => t.parse().unwrap_or_else(|_| panic!("{t:?} in {line}")),
        })
        .collect()
}

#[test]
fn inline_exp_log_and_pow_agree_with_the_oracle() {
    for helper in ["fcl_exp", "fcl_log", "fcl_pow_half", "fcl_square"] {
        assert!(PRELUDE.contains(&format!(" {helper}(")), "{helper}");
    }
    let Some(rt) = support::runtime() else {
        return;
    };
    check(&rt, "expd x", 2.0);
    check(&rt, "logd x", 2.0);
    check(&rt, "logd (absd x)", 2.0);
    // exp of moderate arguments over a dense range: the reduction's both ends
    check(&rt, "expd (muld x 0.37)", 2.0);
    check(&rt, "powd x 0.5", 2.0);
    check(&rt, "powd (absd x) 0.5", 2.0);
    check(&rt, "powd x 2.0", 0.0);
    check(&rt, "powd x -1.0", 0.0);
}
