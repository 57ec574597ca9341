//! `formatI(n)` and `formatD(x)` of numbers the device computes: their text (spec §6.1) as a
//! char vector of run-time length.
//!
//! * `formatI`: a minus sign, then the digits of |n|, at most 11 chars, each char computed in
//!   the kernels that read it.
//! * `formatD` of an int made a double (`i2d`): the int's text and `.0`.
//! * `formatD` of any other double: its value text, at most 20 chars (`-0.00000123456789012`).
//!   One small kernel computes its 12 digits, its exponent and its kind (sign, zero, infinity,
//!   NaN) into 4 ints; each char reads them (the FCL helpers of [`FORMAT_DOUBLE`]). The digits
//!   are rounded from the exact binary value, ties to even, by comparing x·10^s with the
//!   midpoints k + ½ between candidate digit strings k, exactly (Dekker's two-product, no fused
//!   multiply-add: the OpenCL C is compiled with `FP_CONTRACT OFF`) wherever 10^|s| is a
//!   double, |s| ≤ 22, that is for every x in [1e-11, 1e34); beyond, x·10^s is a double-double
//!   from a table of 10^(22·j) ([`decimal_scales`]) to about 2^-104, so only a double that
//!   close to a midpoint could round the other way.

use super::lowerer::Lowerer;
use super::range::Range;
use super::tree::{fcl, fcl_stmt, int, Fcl};
use super::value::{share, Arr, Fresh, Ty};
use std::rc::Rc;

/// The chars of the longest `formatD` text: a sign, `0.` and five zeros, then 12 digits.
const DOUBLE_CAPACITY: usize = 20;

/// `formatI(x)` of int expression `x`: at most 11 chars (`-2147483648`), a minus sign then the
/// digits of |x|, as the oracle (Rust's `i32::to_string`) writes them. The digits are computed
/// in doubles, where |x| is exact for every int (no negation overflows): digit p is
/// `⌊(|x| mod 10^(p+1)) / 10^p⌋`, each step exact for integers below 2^53, and every floor
/// fits an int.
pub(super) fn format_int(f: &Fresh, x: &Fcl) -> Arr {
    // 10^k as a double literal (exact: 10^10 < 2^53)
    let ten = |k: u32| 10i64.pow(k) as f64;
    let pow10 = move |p: &Fcl| {
        (1..=10).rev().fold(fcl!("1.0"), |rest, k| {
            fcl!("(if {p} == {k} then {v} else {rest})", v = ten(k))
        })
    };
    let abs = |x: &Fcl| fcl!("(if lti {x} 0 then negd (i2d {x}) else i2d {x})");
    let digits = move |ad: &Fcl| {
        (1..=9).fold(fcl!("1"), |acc, k| {
            fcl!("{acc} + b2i (ged {ad} {v})", v = ten(k))
        })
    };
    let len = share(f, x, |x| {
        share(f, &abs(x), |ad| {
            fcl!("(b2i (lti {x} 0) + {d})", d = digits(ad))
        })
    });
    let (g, xt) = (f.clone(), x.clone());
    Arr::dynamic(
        Ty::Char,
        11,
        Rc::new(len),
        Rc::new(move |i: &Fcl| {
            share(&g, &xt, |x| {
                share(&g, &abs(x), |ad| {
                    let p = fcl!("(b2i (lti {x} 0) + {d} - 1 - {i})", d = digits(ad));
                    share(&g, &p, |p| {
                        let hi = fcl!("(floord (divd {ad} {t}))", t = pow10(&fcl!("({p} + 1)")));
                        let rest = fcl!(
                            "(subd {ad} (muld {t} (i2d {hi})))",
                            t = pow10(&fcl!("({p} + 1)"))
                        );
                        let digit = fcl!("(floord (divd {rest} {t}))", t = pow10(p));
                        fcl!("(if andb (lti {x} 0) ({i} == 0) then 45 else 48 + {digit})")
                    })
                })
            })
        }),
    )
}

impl Lowerer {
    /// `formatD(x)` of a double scalar `x` the lowering does not know: the text of the int it
    /// was made from, or the value text computed by [`FORMAT_DOUBLE`]'s helpers.
    pub(super) fn format_double(&mut self, x: &Arr) -> Option<Arr> {
        if !x.shape.is_empty() || self.kernel {
            return None;
        }
        if let Some(ints) = &x.int_source {
            return Some(format_int_double(&self.fresh, &ints(&int(0))));
        }
        let table = match &self.decimal_scales {
            Some(t) => t.clone(),
            None => {
                let t = self.fresh.table(Ty::Double, Rc::new(decimal_scales()));
                self.decimal_scales = Some(t.clone());
                t
            }
        };
        self.helpers.insert(FORMAT_DOUBLE);
        self.helpers.insert(super::lowerer::TABULATE);
        // the digits, the exponent and the kind of number, computed once; each char reads them
        let (d, xt) = (self.fresh.name("digits"), x.expr());
        self.comment("formatD: the 12 digits and the exponent of a double");
        self.stmt(fcl_stmt!(
            "{d} <- forceM<grid> (tabulate 4 (fn i => fmtdStored {table} {xt} i))"
        ));
        // `what` is `fst` (the length) or `snd` (the char at `i`)
        let text = move |what: &str, i: &Fcl| {
            let read = |k: usize| fcl!("(index {d} {k})");
            fcl!(
                "({w} (fmtdText {} {} {} {} {i}))",
                read(3),
                read(0),
                read(1),
                read(2),
                w = super::tree::var(what)
            )
        };
        let len = text("fst", &int(0));
        let mut out = Arr::dynamic(
            Ty::Char,
            DOUBLE_CAPACITY,
            Rc::new(len),
            Rc::new(move |i: &Fcl| text("snd", i)),
        );
        out.range = Range::new(0.0, 126.0);
        Some(out)
    }
}

/// `formatD(x)` of a double made from int expression `n` (`i2d`): `formatI(n)` then `.0`, 13
/// chars at most. Such a double has at most 10 digits, so its value text is fixed-point with
/// nothing rounded (spec §6.1).
fn format_int_double(f: &Fresh, n: &Fcl) -> Arr {
    let digits = format_int(f, n);
    let len = digits.run_len.clone().unwrap_or_else(|| Rc::new(int(0)));
    let (index, l) = (digits.index.clone(), len.clone());
    let mut out = Arr::dynamic(
        Ty::Char,
        13,
        Rc::new(fcl!("({len} + 2)")),
        Rc::new(move |i: &Fcl| {
            // 46 is '.', 48 '0'
            fcl!(
                "(if lti {i} {l} then {} else (if {i} == {l} then 46 else 48))",
                index(i)
            )
        }),
    );
    out.range = Range::new(0.0, 57.0);
    out
}

/// The table the helpers of [`FORMAT_DOUBLE`] read: for j from −14 to 15, three double
/// literals `dh dl g` with 10^(22·j) = (dh + dl)·2^g to about 2^-106, dh + dl in [1, 2) (the
/// scales s = 22·j + r, 0 ≤ r < 22, of every double: −298 to 336). A negative g is a negative
/// literal, as the FCL parser reads `-74.0`.
pub(super) fn decimal_scales() -> Vec<Fcl> {
    let mut texts = Vec::new();
    for j in -14..=15 {
        let (bits, g) = power_of_ten_bits(22 * j);
        // the leading 53 bits, then the next 53 (the rest below 2^-106 is dropped)
        let hi = (bits >> 75) as f64 / (1u64 << 52) as f64;
        let lo = ((bits >> 22) & ((1u128 << 53) - 1)) as f64 / 2f64.powi(105);
        for v in [hi, lo, g as f64] {
            texts.push(semantics::fcl::quote::double(v));
        }
    }
    texts
}

/// The leading 128 bits of 10^s (the top bit set, truncated) and g = ⌊log2 10^s⌋: 10^s lies
/// in [bits·2^(g−127), (bits+1)·2^(g−127)).
fn power_of_ten_bits(s: i32) -> (u128, i32) {
    // 10^|s| as a big integer (base 2^32 limbs in u64s, least significant first)
    let mut n: Vec<u64> = vec![1];
    for _ in 0..s.unsigned_abs() {
        let mut carry = 0u64;
        for limb in n.iter_mut() {
            let v = *limb * 10 + carry;
            *limb = v & 0xffff_ffff;
            carry = v >> 32;
        }
        if carry > 0 {
            n.push(carry);
        }
    }
    if s >= 0 {
        let last = *n.last().unwrap_or(&1);
        let g = (n.len() as i32 - 1) * 32 + (63 - last.leading_zeros() as i32);
        return (leading_bits(&n, g), g);
    }
    // 1 / 10^|s| by long division in binary: bit j of the quotient weighs 2^-j
    let (mut r, mut q, mut count, mut g) = (vec![1u64], 0u128, 0, 0);
    for j in 1.. {
        if count == 128 {
            break;
        }
        shift_in(&mut r, false);
        let bit = geq(&r, &n);
        if bit {
            sub(&mut r, &n);
        }
        if count == 0 && !bit {
            continue;
        }
        if count == 0 {
            g = -j;
        }
        q = (q << 1) | bit as u128;
        count += 1;
    }
    (q, g)
}

/// The 128 bits of big integer `n` from bit `g` (its highest set bit) down, zeros past bit 0.
fn leading_bits(n: &[u64], g: i32) -> u128 {
    let bit = |j: i32| -> u128 {
        if j < 0 {
            return 0;
        }
        ((n[(j / 32) as usize] >> (j % 32)) & 1) as u128
    };
    (0..128).fold(0u128, |acc, t| (acc << 1) | bit(g - t))
}

/// r := 2r + b.
fn shift_in(r: &mut Vec<u64>, b: bool) {
    let mut carry = b as u64;
    for limb in r.iter_mut() {
        let v = (*limb << 1) | carry;
        *limb = v & 0xffff_ffff;
        carry = v >> 32;
    }
    if carry > 0 {
        r.push(carry);
    }
}

/// Whether a ≥ b.
fn geq(a: &[u64], b: &[u64]) -> bool {
    let n = a.len().max(b.len());
    for j in (0..n).rev() {
        let (x, y) = (
            a.get(j).copied().unwrap_or(0),
            b.get(j).copied().unwrap_or(0),
        );
        if x != y {
            return x > y;
        }
    }
    true
}

/// a := a − b (a ≥ b).
fn sub(a: &mut [u64], b: &[u64]) {
    let mut borrow = 0i64;
    for (j, limb) in a.iter_mut().enumerate() {
        let v = *limb as i64 - b.get(j).copied().unwrap_or(0) as i64 - borrow;
        (*limb, borrow) = if v < 0 {
            ((v + (1 << 32)) as u64, 1)
        } else {
            (v as u64, 0)
        };
    }
}

/// The FCL helpers of `formatD` (module comment). `t` is the table of [`decimal_scales`];
/// chars are their codes.
pub(super) const FORMAT_DOUBLE: &str = include_str!("format_double.fcl");

#[cfg(test)]
mod tests {
    use super::*;
    use semantics::tail::print_value::double_text;

    /// Test double j, as the FCL function `testX` of [`program`] computes it: a random 53-bit
    /// mantissa times a power of two from the subnormals to the largest doubles, either sign;
    /// or, every third one, a tie of the 12-digit rounding (a 12-digit N, then 5) times
    /// 10^(j mod 4).
    fn test_x(j: i64) -> f64 {
        if j % 3 == 2 {
            let (p, q) = ((j * 7919) % 900000 + 100000, (j * 104729) % 1000000);
            let n = p as f64 * 1000000.0 + q as f64;
            return (n + 0.5) * [1.0, 10.0, 100.0, 1000.0][(j % 4) as usize];
        }
        let hi = (j * 48271 + 11) % 33554432 + 33554432;
        let lo = (j * 69621 + 7) % 134217728;
        let m = hi as f64 * 134217728.0 + lo as f64;
        let k = ((j * 7919) % 2098 - 1126) as i32;
        let x = m * 2f64.powi(k / 2) * 2f64.powi(k - k / 2);
        if j % 2 == 1 {
            -x
        } else {
            x
        }
    }

    /// The FCL function computing test double j as [`test_x`] does.
    const TEST_X: &str = "sig testX : int -> double
fun testX j =
  if j % 3 == 2 then
    (let n = addd (muld (i2d ((j * 7919) % 900000 + 100000)) 1000000.0) (i2d ((j * 104729) % 1000000)) in
     muld (addd n 0.5) (fmtdTen (j % 4)))
  else
    (let m = addd (muld (i2d ((j * 48271 + 11) % 33554432 + 33554432)) 134217728.0) (i2d ((j * 69621 + 7) % 134217728)) in
     let k = (j * 7919) % 2098 - 1126 in
     let x = muld (muld m (fmtdTwo (k / 2))) (fmtdTwo (k - k / 2)) in
     if j % 2 == 1 then negd x else x)
";

    /// An FCL program printing the value texts of `n` test doubles, 21 ints each: the
    /// length, then the chars. Its `main` is built as the lowering builds one (the table of
    /// [`decimal_scales`] by [`bisect`](super::super::program::bisect)) and loaded from the
    /// tree.
    fn program(n: usize) -> semantics::fcl::lower::Program {
        use super::super::fcl_program::{helper_decls, FclProgram};
        use super::super::lowerer::{Line, TABULATE};
        use super::super::program::bisect;
        let mut helpers = Vec::new();
        for src in [FORMAT_DOUBLE, TABULATE, TEST_X] {
            helpers.extend(helper_decls(src).expect("the test's helpers parse"));
        }
        let table = decimal_scales();
        let (len, elem) = (table.len(), bisect(&super::super::tree::var("i"), &table));
        let stmts = vec![
            fcl_stmt!("t <- forceM<grid> (tabulate {len} (fn i => {elem}))"),
            fcl_stmt!(
                "d <- forceM<grid> (tabulate {} (fn i => fmtdStored t (testX (i / 4)) (i % 4)))",
                4 * n
            ),
            fcl_stmt!(
                "c <- tabulate {} (fn i => let j = i / 21 in let p = i % 21 in
                   let r = fmtdText (index d (j * 4 + 3)) (index d (j * 4)) (index d (j * 4 + 1))
                     (index d (j * 4 + 2)) (if p == 0 then 0 else p - 1) in
                   if p == 0 then fst r else snd r)",
                21 * n
            ),
            fcl_stmt!("q <- forceAndPrint {} c", 21 * n),
        ];
        FclProgram::new(
            Vec::new(),
            helpers,
            stmts.into_iter().map(Line::Stmt).collect(),
        )
        .load()
        .map_err(|(_, d)| d.message)
        .expect("the test program loads")
    }

    /// Checks printed output `out` (one line of ints, 21 per double) against the oracle's
    /// value texts.
    fn check(out: &str, n: usize) {
        let ints: Vec<i64> = out
            .split(|c: char| !(c.is_ascii_digit() || c == '-'))
            .filter_map(|w| w.parse().ok())
            .collect();
        let ints = &ints[ints.len() - 21 * n..];
        for j in 0..n {
            let x = test_x(j as i64);
            let row = &ints[21 * j..21 * j + 21];
            let len = row[0] as usize;
            let got: String = row[1..=len.min(20)]
                .iter()
                .map(|&c| char::from(c as u8))
                .collect();
            assert_eq!(got, double_text(x), "double {j}: {x:e}");
        }
    }

    use crate::tail::tree::parsed as p;

    /// Each entry of the table is the double literal the parser reads from the value's
    /// shortest text (a negative exponent g a negative literal).
    #[test]
    fn decimal_scales_are_double_literals() {
        let table = decimal_scales();
        assert_eq!(table.len(), 90);
        for t in &table {
            let semantics::fcl::syntax::ExprKind::Double(v) = t.kind else {
                panic!("not a double literal: {t:?}");
            };
            assert_eq!(*t, p(&format!("{v:e}")));
        }
        // 10^0 = 1.0 · 2^0, at j = 0
        assert_eq!(table[3 * 14..3 * 15], [p("1.0"), p("0.0"), p("0.0")]);
        // 10^-22 lies in [2^-74, 2^-73): a negative literal, as the parser reads one
        assert_eq!(table[3 * 13 + 2], p("-74.0"));
        assert_eq!(table[3 * 13 + 2], p("-7.4e1"));
    }

    /// The length of `formatI(x)`: a sign, and 1 + the powers of ten at most |x|.
    #[test]
    fn int_text_length() {
        let f = Fresh::default();
        let a = format_int(&f, &p("x"));
        let len = a.run_len.expect("a run-time length");
        let more: Vec<String> = (1..=9)
            .map(|k| format!("b2i (ged x0 {}.0)", 10i64.pow(k)))
            .collect();
        let expected = format!(
            "(let x0 = (if lti x 0 then negd (i2d x) else i2d x) in (b2i (lti x 0) + (1 + {})))",
            more.join(" + ")
        );
        assert_eq!(*len, p(&expected));
        assert_eq!(a.shape, vec![11]);
    }

    /// The helpers on the device agree with the oracle's value text for 3000 doubles.
    #[test]
    fn format_double_agrees_with_the_oracle_on_the_device() {
        let rt = match crate::runtime::Runtime::new(0) {
            Ok(rt) => rt,
            Err(e) => {
                println!("skipped: no OpenCL device ({e})");
                return;
            }
        };
        let n = 3000;
        let loaded = program(n);
        let m = crate::compile_fcl_for_device(&loaded.main, crate::OptLevel::O2, 256, &rt.device)
            .unwrap();
        let out = crate::exec::execute(&m, &rt).unwrap().stdout;
        check(&out, n);
    }

    /// The FCL oracle runs the same helpers to the same texts.
    #[test]
    fn format_double_agrees_with_the_oracle_on_the_fcl_oracle() {
        let n = 6;
        let loaded = program(n);
        let out = interpreter::fcl::run(&loaded.main, &Default::default());
        assert!(out.result.is_ok(), "{}", out.observable());
        check(&out.stdout, n);
    }
}
