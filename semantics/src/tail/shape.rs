//! Shape expressions `ρ ::= n | γ | ρ+ρ` (thesis §3.1.1): ranks, static lengths and singleton
//! values of TAIL types. A [`Shape`] is kept in normal form, a constant plus a sum of variables
//! with non-zero coefficients sorted by variable, so that shapes equal up to associativity,
//! commutativity and constant folding are equal as values.

use std::fmt;

/// A shape variable γ.
pub type ShapeVar = u32;

/// A shape in normal form: `konst + Σ coeff·γ`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Shape {
    konst: i64,
    terms: Vec<(ShapeVar, i64)>,
}

impl Shape {
    /// The constant shape `n`.
    pub fn lit(n: i64) -> Shape {
        Shape {
            konst: n,
            terms: Vec::new(),
        }
    }

    /// The variable shape `γ`.
    pub fn var(v: ShapeVar) -> Shape {
        Shape {
            konst: 0,
            terms: vec![(v, 1)],
        }
    }

    /// `Some(n)` when the shape is the constant n.
    pub fn as_const(&self) -> Option<i64> {
        self.terms.is_empty().then_some(self.konst)
    }

    /// The constant part.
    pub fn konst(&self) -> i64 {
        self.konst
    }

    /// The variables with their coefficients.
    pub fn terms(&self) -> &[(ShapeVar, i64)] {
        &self.terms
    }

    /// `self + other`, normalised.
    pub fn add(&self, other: &Shape) -> Shape {
        let mut terms = self.terms.clone();
        for &(v, c) in &other.terms {
            match terms.binary_search_by_key(&v, |t| t.0) {
                Ok(i) => {
                    terms[i].1 += c;
                    if terms[i].1 == 0 {
                        terms.remove(i);
                    }
                }
                Err(i) => terms.insert(i, (v, c)),
            }
        }
        Shape {
            konst: self.konst.saturating_add(other.konst),
            terms,
        }
    }

    /// `self + n`.
    pub fn plus(&self, n: i64) -> Shape {
        self.add(&Shape::lit(n))
    }

    /// `k·self`.
    pub fn scale(&self, k: i64) -> Shape {
        if k == 0 {
            return Shape::lit(0);
        }
        Shape {
            konst: self.konst.saturating_mul(k),
            terms: self.terms.iter().map(|&(v, c)| (v, c * k)).collect(),
        }
    }

    /// `self − other`.
    pub fn sub(&self, other: &Shape) -> Shape {
        self.add(&other.scale(-1))
    }

    /// Replaces every variable that `lookup` knows by its shape.
    pub fn substitute(&self, lookup: &mut dyn FnMut(ShapeVar) -> Option<Shape>) -> Shape {
        let mut out = Shape::lit(self.konst);
        for &(v, c) in &self.terms {
            let part = match lookup(v) {
                Some(s) => s.scale(c),
                None => Shape::var(v).scale(c),
            };
            out = out.add(&part);
        }
        out
    }
}

/// A number in TAIL type syntax: apltail writes negative ones with `~` (spec §2.2).
pub fn number_text(n: i64) -> String {
    if n < 0 {
        format!("~{}", n.unsigned_abs())
    } else {
        n.to_string()
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        for &(v, c) in &self.terms {
            let name = format!("'r{v}");
            if c > 0 {
                parts.extend(std::iter::repeat_n(name, c as usize));
            } else {
                parts.push(format!("~{}*{name}", c.unsigned_abs()));
            }
        }
        if self.konst != 0 || parts.is_empty() {
            parts.push(number_text(self.konst));
        }
        write!(f, "{}", parts.join("+"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normal_form_is_assoc_comm_and_folds_constants() {
        let a = Shape::var(1).plus(1).add(&Shape::var(0));
        let b = Shape::lit(1).add(&Shape::var(0).add(&Shape::var(1)));
        assert_eq!(a, b);
        assert_eq!(a.sub(&b), Shape::lit(0));
        assert_eq!(Shape::lit(2).plus(3).as_const(), Some(5));
        assert_eq!(a.to_string(), "'r0+'r1+1");
        assert_eq!(Shape::lit(-5).to_string(), "~5");
    }
}
