//! Reading program output back into values, so that a mismatch can name the element that
//! differs. Three forms are recognised (docs/tail.md section 6, docs/fcl.md section 4.4):
//! a flat TAIL array `[2,3](1,2,3,4,5,6)`, an FCL line `[1,2,3]`, and a TAIL rank-2 matrix block
//! (an empty line, rows that start with a space, an empty line). Anything else is plain text.

/// One item of program output.
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    /// An array with its shape and its element texts in row-major order.
    Array {
        shape: Vec<usize>,
        elems: Vec<String>,
    },
    /// A line that is not an array.
    Text(String),
}

/// An item and the 1-based line where it starts.
#[derive(Clone, Debug, PartialEq)]
pub struct Located {
    pub line: usize,
    pub item: Item,
}

/// Splits output into items.
pub fn items(output: &str) -> Vec<Located> {
    let lines: Vec<&str> = output.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if let Some((item, used)) = matrix_block(&lines[i..]) {
            out.push(Located { line: i + 1, item });
            i += used;
            continue;
        }
        let item = array_line(lines[i]).unwrap_or_else(|| Item::Text(lines[i].to_string()));
        out.push(Located { line: i + 1, item });
        i += 1;
    }
    out
}

/// An empty line, at least one row starting with a space, and the closing empty line.
fn matrix_block(lines: &[&str]) -> Option<(Item, usize)> {
    if lines.first() != Some(&"") {
        return None;
    }
    let rows: Vec<&str> = lines[1..]
        .iter()
        .take_while(|l| l.starts_with(' '))
        .copied()
        .collect();
    if rows.is_empty() || lines.get(rows.len() + 1) != Some(&"") {
        return None;
    }
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|r| r.split_whitespace().map(str::to_string).collect())
        .collect();
    let cols = cells[0].len();
    if cols == 0 || cells.iter().any(|r| r.len() != cols) {
        return None;
    }
    let shape = vec![rows.len(), cols];
    Some((
        Item::Array {
            shape,
            elems: cells.concat(),
        },
        rows.len() + 2,
    ))
}

/// `[s1,s2](e1,e2,...)` or `[e1,e2,...]`.
fn array_line(line: &str) -> Option<Item> {
    let rest = line.strip_prefix('[')?;
    let close = rest.find(']')?;
    let inside = &rest[..close];
    let after = &rest[close + 1..];
    if after.is_empty() {
        let elems = split_elems(inside);
        return Some(Item::Array {
            shape: vec![elems.len()],
            elems,
        });
    }
    let body = after.strip_prefix('(')?.strip_suffix(')')?;
    let shape: Vec<usize> = if inside.is_empty() {
        Vec::new()
    } else {
        inside
            .split(',')
            .map(|s| s.parse().ok())
            .collect::<Option<_>>()?
    };
    let elems = split_elems(body);
    if elems.len() != shape.iter().product::<usize>() {
        return None;
    }
    Some(Item::Array { shape, elems })
}

fn split_elems(text: &str) -> Vec<String> {
    if text.is_empty() {
        Vec::new()
    } else {
        text.split(',').map(str::to_string).collect()
    }
}

/// A number in any of the printed forms: `-3`, `2.5`, `1E20.0`, `1.5E~7`, `~0.0`, `HUGE_VAL`,
/// `1.50000`.
pub fn number(text: &str) -> Option<f64> {
    let t = text.replace('~', "-");
    match t.as_str() {
        "HUGE_VAL" | "inf" => return Some(f64::INFINITY),
        "-HUGE_VAL" | "-inf" => return Some(f64::NEG_INFINITY),
        _ => {}
    }
    let t = if t.contains('E') {
        t.trim_end_matches(".0").to_string()
    } else {
        t
    };
    t.parse::<f64>().ok()
}

/// The row-major multi-dimensional index of flat position `i` in `shape`.
pub fn multi_index(shape: &[usize], mut i: usize) -> Vec<usize> {
    let mut idx = vec![0; shape.len()];
    for (k, &s) in shape.iter().enumerate().rev() {
        if s > 0 {
            idx[k] = i % s;
            i /= s;
        }
    }
    idx
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_form() {
        let out = "[](7)\n\n  1 -2\n  3  4\n\n[2,2,1](1,2,3,4)\n[0,1,4]\nok\n";
        let got = items(out);
        assert_eq!(
            got[0].item,
            Item::Array {
                shape: vec![],
                elems: vec!["7".into()]
            }
        );
        assert_eq!(got[1].line, 2);
        assert_eq!(
            got[1].item,
            Item::Array {
                shape: vec![2, 2],
                elems: vec!["1".into(), "-2".into(), "3".into(), "4".into()]
            }
        );
        assert_eq!(got[2].line, 6);
        assert!(matches!(&got[2].item, Item::Array { shape, .. } if shape == &vec![2, 2, 1]));
        assert!(matches!(&got[3].item, Item::Array { shape, .. } if shape == &vec![3]));
        assert_eq!(got[4].item, Item::Text("ok".into()));
    }

    #[test]
    fn numbers_in_printed_forms() {
        assert_eq!(number("1E20.0"), Some(1e20));
        assert_eq!(number("1.5E~7"), Some(1.5e-7));
        assert_eq!(number("-0.375"), Some(-0.375));
        assert_eq!(number("HUGE_VAL"), Some(f64::INFINITY));
        assert_eq!(number("abc"), None);
    }

    #[test]
    fn multi_indices_are_row_major() {
        assert_eq!(multi_index(&[2, 3], 4), vec![1, 1]);
        assert_eq!(multi_index(&[2, 3, 4], 23), vec![1, 2, 3]);
        assert_eq!(multi_index(&[], 0), Vec::<usize>::new());
    }
}
