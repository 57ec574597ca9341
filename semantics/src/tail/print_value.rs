//! Printing values exactly as apltail does (spec §6): element texts (§6.1), the array layouts of
//! `pr*` and the result line (§6.2), `prArrC` (§6.3), and double literals in TAIL text (§6.6).

use crate::tail::value::{Array, Scalar};

/// `G(x)` of spec §6.1 for finite `x >= 0`: 12 significant digits, ties to even, fixed notation
/// iff −6 ≤ E ≤ 11, trailing zeros stripped; exponent in SML style (`~` for minus).
fn g_text(x: f64) -> String {
    if x == 0.0 {
        return "0.0".to_string();
    }
    // Rust's `{:e}` with a precision rounds the exact binary value correctly, ties to even.
    let sci = format!("{:.11e}", x);
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let e: i32 = exp.parse().unwrap_or(0);
    let digits: String = mantissa.chars().filter(|c| c.is_ascii_digit()).collect();
    let trimmed = digits.trim_end_matches('0');
    let d = if trimmed.is_empty() { "0" } else { trimmed };
    let l = d.len() as i32;
    if !(-6..12).contains(&e) {
        let mut s = d[..1].to_string();
        if l > 1 {
            s.push('.');
            s.push_str(&d[1..]);
        }
        s.push('E');
        if e < 0 {
            s.push('~');
        }
        s.push_str(&e.unsigned_abs().to_string());
        s
    } else if e >= l - 1 {
        format!("{d}{}.0", "0".repeat((e + 1 - l) as usize))
    } else if e < 0 {
        format!("0.{}{d}", "0".repeat((-e - 1) as usize))
    } else {
        let k = (e + 1) as usize;
        format!("{}.{}", &d[..k], &d[k..])
    }
}

/// The value text of a double (spec §6.1): `12500.0`, `-0.375`, `1E20.0`, `1.5E~7`, `HUGE_VAL`,
/// `~0.0` for −0.0, `nan.0`. Used by `pr*`, the result line and `formatD`.
pub fn double_text(x: f64) -> String {
    if x.is_nan() {
        "nan.0".to_string()
    } else if x == f64::INFINITY {
        "HUGE_VAL".to_string()
    } else if x < 0.0 {
        format!("-{}", double_text(-x))
    } else if x == 0.0 && x.is_sign_negative() {
        "~0.0".to_string()
    } else {
        let g = g_text(x);
        if g.contains('.') {
            g
        } else {
            g + ".0"
        }
    }
}

/// The text of a double literal in TAIL source (spec §6.6): `1e20`, `1.5e-7`, `inf`, `-0.0`.
pub fn double_literal(x: f64) -> String {
    if x.is_nan() {
        "nan.0".to_string()
    } else if x == f64::INFINITY {
        "inf".to_string()
    } else if x < 0.0 || (x == 0.0 && x.is_sign_negative()) {
        format!("-{}", double_literal(-x))
    } else {
        let g = g_text(x).replace('~', "-").replace('E', "e");
        if g.contains('.') || g.contains('e') {
            g
        } else {
            g + ".0"
        }
    }
}

/// The escaped text of a character (SML `Char.toString`, spec §1.6/§6.1), without quotes.
pub fn char_text(c: u8) -> String {
    match c {
        b'\\' => "\\\\".into(),
        b'"' => "\\\"".into(),
        7 => "\\a".into(),
        8 => "\\b".into(),
        9 => "\\t".into(),
        10 => "\\n".into(),
        11 => "\\v".into(),
        12 => "\\f".into(),
        13 => "\\r".into(),
        0..=31 => format!("\\^{}", (c + 64) as char),
        32..=126 => (c as char).to_string(),
        _ => format!("\\{c:03}"),
    }
}

/// The element text of one base value (spec §6.1).
pub fn scalar_text(x: Scalar) -> String {
    match x {
        Scalar::Int(i) => i.to_string(),
        Scalar::Double(d) => double_text(d),
        Scalar::Bool(b) => if b { "1" } else { "0" }.to_string(),
        Scalar::Char(c) => char_text(c),
        Scalar::Complex((re, im)) => format!("{}j{}", double_text(re), double_text(im)),
    }
}

fn shape_text(shape: &[usize]) -> String {
    shape
        .iter()
        .map(|n| n.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

fn element_texts(a: &Array) -> Vec<String> {
    (0..a.size()).map(|i| scalar_text(a.elems.get(i))).collect()
}

/// Lays out a non-empty rank-2 array as a matrix (spec §6.2/§6.3): a newline, then rows of one
/// space and elements right-aligned to the global width `W`, separated by `sep`, each row ending
/// in a newline.
fn matrix(rows: usize, cols: usize, texts: &[String], sep: &str) -> String {
    let w = texts.iter().map(|t| t.chars().count()).max().unwrap_or(0);
    let mut out = String::from("\n");
    for r in 0..rows {
        out.push(' ');
        let row: Vec<String> = texts[r * cols..(r + 1) * cols]
            .iter()
            .map(|t| format!("{t:>w$}"))
            .collect();
        out.push_str(&row.join(sep));
        out.push('\n');
    }
    out
}

/// The generic layout of spec §6.2 (every `pr*` except `prArrC`, and the result line), without
/// the final newline that `pr*` and the result line add: `[](7)`, `[3](1,2,3)`, `[0]()`, the
/// matrix layout for non-empty rank-2 arrays, flat for rank ≥ 3.
pub fn array_text(a: &Array) -> String {
    let texts = element_texts(a);
    if a.rank() == 2 && a.size() > 0 {
        return matrix(a.shape[0], a.shape[1], &texts, " ");
    }
    format!("[{}]({})", shape_text(&a.shape), texts.join(","))
}

/// The flat form `[shape](elements)` for every rank (spec conventions; used in traces and
/// tests, where the matrix layout would span lines).
pub fn flat_text(a: &Array) -> String {
    format!("[{}]({})", shape_text(&a.shape), element_texts(a).join(","))
}

/// The layout of `prArrC` (spec §6.3), without the final newline: a char vector is its bare
/// characters, a non-empty char matrix has unseparated rows, other ranks are flat without commas.
pub fn char_array_text(a: &Array) -> String {
    let texts = element_texts(a);
    match a.rank() {
        0 => format!("[]({})", texts.concat()),
        1 => texts.concat(),
        2 if a.size() > 0 => matrix(a.shape[0], a.shape[1], &texts, ""),
        _ => format!("[{}]({})", shape_text(&a.shape), texts.concat()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tail::value::{Buf, Elems};

    #[test]
    fn double_value_texts_follow_the_spec_table() {
        let cases: [(f64, &str); 20] = [
            (12500.0, "12500.0"),
            (-0.375, "-0.375"),
            (2.0 / 3.0, "0.666666666667"),
            (std::f64::consts::PI, "3.14159265359"),
            (0.1 + 0.2, "0.3"),
            (1e11, "100000000000.0"),
            (0.000001, "0.000001"),
            (0.00001, "0.00001"),
            (123456789012.5, "123456789012.0"),
            (1234567890.375, "1234567890.38"),
            (f64::INFINITY, "HUGE_VAL"),
            (f64::NEG_INFINITY, "-HUGE_VAL"),
            (-0.0, "~0.0"),
            (0.0, "0.0"),
            (1e20, "1E20.0"),
            (-1e20, "-1E20.0"),
            (1.5e-7, "1.5E~7"),
            (1e-7, "1E~7.0"),
            (999999999999.5, "1E12.0"),
            (123456789012345.0, "1.23456789012E14"),
        ];
        for (x, want) in cases {
            assert_eq!(double_text(x), want, "{x:e}");
        }
        assert_eq!(double_text(12345.678901234), "12345.6789012");
        assert_eq!(double_text(f64::NAN), "nan.0");
        assert_eq!(double_text(210.0), "210.0");
    }

    #[test]
    fn double_literals() {
        assert_eq!(double_literal(1e20), "1e20");
        assert_eq!(double_literal(1.5e-7), "1.5e-7");
        assert_eq!(double_literal(f64::NEG_INFINITY), "-inf");
        assert_eq!(double_literal(-0.0), "-0.0");
        assert_eq!(double_literal(3.0), "3.0");
    }

    #[test]
    fn char_escapes() {
        assert_eq!(char_text(b'\n'), "\\n");
        assert_eq!(char_text(1), "\\^A");
        assert_eq!(char_text(127), "\\127");
        assert_eq!(char_text(b'\''), "'");
        assert_eq!(scalar_text(Scalar::Complex((-1.5, -0.0))), "-1.5j~0.0");
    }

    #[test]
    fn layouts() {
        let m = Array {
            shape: vec![2, 3],
            elems: Elems::Int(Buf::from_vec(vec![1, -20, 300, 4, 5, 6])),
        };
        assert_eq!(array_text(&m), "\n   1 -20 300\n   4   5   6\n");
        let d = Array {
            shape: vec![2, 2],
            elems: Elems::Double(Buf::from_vec(vec![1.5, -2.0, 100.25, 0.001])),
        };
        assert_eq!(array_text(&d), "\n    1.5   -2.0\n 100.25  0.001\n");
        assert_eq!(array_text(&Array::int_vec(vec![])), "[0]()");
        let e = Array {
            shape: vec![0, 3],
            elems: Elems::empty(crate::tail::value::BaseType::Int),
        };
        assert_eq!(array_text(&e), "[0,3]()");
        assert_eq!(
            array_text(&Array::scalar(Scalar::Double(210.0))),
            "[](210.0)"
        );
        let c = Array {
            shape: vec![2, 2],
            elems: Elems::Char(Buf::from_vec(vec![b'a', b'\n', b'"', b'\\'])),
        };
        assert_eq!(char_array_text(&c), "\n  a\\n\n \\\"\\\\\n");
        let ok = Array {
            shape: vec![2],
            elems: Elems::Char(Buf::from_vec(vec![b'o', b'k'])),
        };
        assert_eq!(char_array_text(&ok), "ok");
        assert_eq!(array_text(&ok), "[2](o,k)");
    }
}
