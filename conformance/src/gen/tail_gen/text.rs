//! The generator's char vectors and formatting: char literal vectors, `formatI`/`formatD` of
//! computed values bound as char vectors (spec tail.md §5.12), and `formatD` printed through
//! `prArrC` (§6.3).

use super::elementwise::CHARS;
use super::runtime::literal;
use super::{Gen, Ty, Val};
use semantics::tail::print_value::double_text;

/// The char vector of `text`'s bytes.
fn chars_of(text: &str) -> Val {
    Val {
        ty: Ty::Char,
        shape: vec![text.len()],
        data: text.bytes().map(|c| c as f64).collect(),
    }
}

impl Gen<'_> {
    /// A char vector: a literal of a few letters and digits (so that sort keys tie), or the
    /// text of `formatI`/`formatD` of a value computed from data.
    pub(super) fn char_vector(&mut self) -> Option<(String, Val)> {
        match self.rng.range(0, 2) {
            0 => {
                let n = self.rng.range(2, 6);
                let data: Vec<f64> = (0..n).map(|_| *self.rng.pick(CHARS) as f64).collect();
                let items: Vec<String> = data.iter().map(|&c| literal(Ty::Char, c)).collect();
                Some((
                    format!("[{}]", items.join(",")),
                    Val {
                        ty: Ty::Char,
                        shape: vec![n],
                        data,
                    },
                ))
            }
            1 => {
                let ints = self.int_sources();
                if ints.is_empty() {
                    return None;
                }
                let (t, n) = self.rng.pick(&ints).clone();
                let text = n.to_string();
                Some((format!("formatI({t})"), chars_of(&text)))
            }
            _ => {
                let doubles = self.double_sources();
                if doubles.is_empty() {
                    return None;
                }
                let (t, d) = self.rng.pick(&doubles).clone();
                Some((format!("formatD({t})"), chars_of(&double_text(d))))
            }
        }
    }

    /// `shape(prArrC(formatD(d)))` of a double computed from data: prints d's value text (spec
    /// §6.1) and gives its length as a one-element int vector.
    pub(super) fn format_double(&mut self) -> Option<(String, Val)> {
        let doubles = self.double_sources();
        if doubles.is_empty() {
            return None;
        }
        let (t, d) = self.rng.pick(&doubles).clone();
        let text = double_text(d);
        self.out.push_str(&format!("{text}\n"));
        Some((
            format!("shape(prArrC(formatD({t})))"),
            Val {
                ty: Ty::Int,
                shape: vec![1],
                data: vec![text.len() as f64],
            },
        ))
    }
}
