//! Comparing an engine's stdout with the expected stdout.

use super::values::{items, multi_index, number, Item, Located};
use std::fmt;

/// Where and how the actual output first differs from the expected output.
#[derive(Clone, Debug, PartialEq)]
pub struct Mismatch {
    /// 1-based line of the expected output.
    pub line: usize,
    /// The multi-dimensional index of the first differing element, when the line is an array.
    pub index: Option<Vec<usize>>,
    pub expected: String,
    pub actual: String,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}", self.line)?;
        if let Some(index) = &self.index {
            let idx: Vec<String> = index.iter().map(|i| i.to_string()).collect();
            write!(f, " element [{}]", idx.join(","))?;
        }
        write!(f, ": expected {}, got {}", self.expected, self.actual)
    }
}

/// Compares outputs: exactly, or, with a tolerance, numbers within `eps * max(1, |e|, |a|)`.
pub fn compare(expected: &str, actual: &str, tolerance: Option<f64>) -> Result<(), Mismatch> {
    if expected == actual {
        return Ok(());
    }
    let want = items(expected);
    let got = items(actual);
    for (k, w) in want.iter().enumerate() {
        let Some(g) = got.get(k) else {
            return Err(Mismatch {
                line: w.line,
                index: None,
                expected: describe(&w.item),
                actual: "end of output".into(),
            });
        };
        compare_item(w, g, tolerance)?;
    }
    if let Some(extra) = got.get(want.len()) {
        let line = want.last().map_or(1, |w| w.line + 1);
        return Err(Mismatch {
            line,
            index: None,
            expected: "end of output".into(),
            actual: describe(&extra.item),
        });
    }
    if tolerance.is_none() {
        // Same items, different text: spacing or line structure. Name the first differing line.
        return Err(first_line_difference(expected, actual));
    }
    Ok(())
}

fn compare_item(want: &Located, got: &Located, tolerance: Option<f64>) -> Result<(), Mismatch> {
    let fail = |index, expected: String, actual: String| {
        Err(Mismatch {
            line: want.line,
            index,
            expected,
            actual,
        })
    };
    match (&want.item, &got.item) {
        (
            Item::Array {
                shape: ws,
                elems: we,
            },
            Item::Array {
                shape: gs,
                elems: ge,
            },
        ) => {
            if ws != gs {
                return fail(None, format!("shape {ws:?}"), format!("shape {gs:?}"));
            }
            for (i, (e, a)) in we.iter().zip(ge).enumerate() {
                if !element_equal(e, a, tolerance) {
                    return fail(Some(multi_index(ws, i)), e.clone(), a.clone());
                }
            }
            Ok(())
        }
        (Item::Text(e), Item::Text(a)) if e == a => Ok(()),
        (w, g) => fail(None, describe(w), describe(g)),
    }
}

fn element_equal(e: &str, a: &str, tolerance: Option<f64>) -> bool {
    if e == a {
        return true;
    }
    match (tolerance, number(e), number(a)) {
        (Some(eps), Some(x), Some(y)) => {
            (x.is_nan() && y.is_nan())
                || x == y
                || (x - y).abs() <= eps * 1f64.max(x.abs()).max(y.abs())
        }
        _ => false,
    }
}

fn describe(item: &Item) -> String {
    match item {
        Item::Text(t) => format!("{t:?}"),
        Item::Array { shape, elems } if elems.len() > 8 => format!("an array of shape {shape:?}"),
        Item::Array { shape, elems } => format!("{shape:?}({})", elems.join(",")),
    }
}

fn first_line_difference(expected: &str, actual: &str) -> Mismatch {
    let mut want = expected.split('\n');
    let mut got = actual.split('\n');
    let mut line = 1;
    loop {
        match (want.next(), got.next()) {
            (Some(w), Some(g)) if w == g => line += 1,
            (w, g) => {
                let show =
                    |l: Option<&str>| l.map_or("end of output".to_string(), |s| format!("{s:?}"));
                return Mismatch {
                    line,
                    index: None,
                    expected: show(w),
                    actual: show(g),
                };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_outputs_pass() {
        assert_eq!(compare("[3](1,2,3)\n", "[3](1,2,3)\n", None), Ok(()));
    }

    #[test]
    fn names_the_first_differing_element_of_a_flat_array() {
        let m = compare(
            "[2,2,2](1,2,3,4,5,6,7,8)\n",
            "[2,2,2](1,2,3,4,5,9,7,8)\n",
            None,
        )
        .unwrap_err();
        assert_eq!(m.line, 1);
        assert_eq!(m.index, Some(vec![1, 0, 1]));
        assert_eq!((m.expected.as_str(), m.actual.as_str()), ("6", "9"));
    }

    #[test]
    fn names_the_element_of_a_matrix_block() {
        let m = compare(
            "[](1)\n\n 1 2\n 3 4\n\n[](2.0)\n",
            "[](1)\n\n 1 2\n 3 5\n\n[](2.0)\n",
            None,
        )
        .unwrap_err();
        assert_eq!((m.line, m.index), (2, Some(vec![1, 1])));
    }

    #[test]
    fn fcl_lines_and_shapes() {
        let m = compare("[0,1,4,9]\n", "[0,1,4]\n", None).unwrap_err();
        assert_eq!(m.expected, "shape [4]");
        let m = compare("[0,1]\n[2]\n", "[0,1]\n", None).unwrap_err();
        assert_eq!((m.line, m.actual.as_str()), (2, "end of output"));
        let m = compare("[0,1]\n", "[0,1]\n[5]\n", None).unwrap_err();
        assert_eq!(m.expected, "end of output");
    }

    #[test]
    fn tolerance_applies_to_numbers_only() {
        let e = "[2](1.0,2.00000000001)\n";
        let a = "[2](1.0,2.0)\n";
        assert!(compare(e, a, None).is_err());
        assert_eq!(compare(e, a, Some(1e-9)), Ok(()));
        assert!(compare(e, "[2](1.0,2.1)\n", Some(1e-9)).is_err());
        assert!(compare("[1](a)\n", "[1](b)\n", Some(1.0)).is_err());
        assert!(compare(e, "[1,2](1.0,2.0)\n", Some(1.0)).is_err());
    }

    #[test]
    fn layout_differences_are_reported_by_line() {
        let m = compare("[2](1,2)\n", "[2](1,2)", None).unwrap_err();
        assert_eq!(m.line, 2);
    }
}
