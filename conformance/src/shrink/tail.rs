//! One-step shrinking of TAIL programs on the TAIL abstract syntax
//! ([`semantics::tail::syntax::Expr`]). A program is seen as its top-level `let` spine
//! ([`TailProgram`]), the form the generator writes; candidates truncate the spine, drop unused
//! bindings, replace a binding by an earlier variable of the same annotated type or by a constant
//! of that type, and shrink inside expressions ([`super::tail_expr`]: an operator application
//! replaced by one of its arguments, shorter literal vectors and so smaller shapes, constants
//! toward 0/1).
//!
//! Candidates are produced syntactically; [`shrink`] keeps only those the TAIL front end type
//! checks, so every program it hands to the failure predicate (and returns) is well typed.
//! Run-time errors a candidate may introduce (an index now out of range) are for the predicate
//! to reject, as the fuzzer's does (the TAIL oracle must run the candidate without error).

use super::tail_expr::{constant_of, expr_candidates, mentions, node_count, Scope};
use semantics::tail::parser::parse;
use semantics::tail::printer::print;
use semantics::tail::syntax::{Expr, ExprKind};
use semantics::tail::typecheck::typecheck;
use semantics::tail::types::Type;
use semantics::{Diagnostic, Span};

/// Programs larger than this (AST nodes) are returned unshrunk: every candidate is a copy of
/// the program, so the candidate list grows with the square of its size.
pub const MAX_SHRINK_NODES: usize = 4000;

/// One top-level binding `let var:ty = bound in`.
#[derive(Clone, Debug, PartialEq)]
pub struct Binding {
    pub var: String,
    pub ty: Type,
    pub bound: Expr,
}

/// A TAIL program as its top-level `let` spine: the bindings in order, then the result.
#[derive(Clone, Debug, PartialEq)]
pub struct TailProgram {
    pub lets: Vec<Binding>,
    pub result: Expr,
}

impl TailProgram {
    /// Parses a program text (no type check).
    pub fn parse(src: &str) -> Result<TailProgram, Diagnostic> {
        Ok(TailProgram::from_expr(&parse(src)?))
    }

    /// Splits `e` into its `let` spine (iteratively: programs are long chains).
    pub fn from_expr(e: &Expr) -> TailProgram {
        let (lets, result) = e.let_spine();
        TailProgram {
            lets: lets
                .into_iter()
                .map(|l| Binding {
                    var: l.var.to_string(),
                    ty: l.ty.clone(),
                    bound: l.bound.clone(),
                })
                .collect(),
            result: result.clone(),
        }
    }

    /// The program as one expression.
    pub fn to_expr(&self) -> Expr {
        let mut e = self.result.clone();
        for b in self.lets.iter().rev() {
            e = Expr::new(
                ExprKind::Let {
                    var: b.var.clone(),
                    ty: b.ty.clone(),
                    bound: Box::new(b.bound.clone()),
                    body: Box::new(e),
                },
                Span::DUMMY,
            );
        }
        e
    }

    /// The program text (apltail layout, one binding a line).
    pub fn print(&self) -> String {
        print(&self.to_expr())
    }

    /// Whether the TAIL front end type checks the program.
    pub fn well_typed(&self) -> bool {
        typecheck(&self.to_expr()).is_ok()
    }

    /// The size shrinking reduces: the number of AST nodes (a `let` counts as one).
    pub fn size(&self) -> usize {
        self.lets.len()
            + self
                .lets
                .iter()
                .map(|b| node_count(&b.bound))
                .sum::<usize>()
            + node_count(&self.result)
    }

    /// Whether binding `i`'s variable is read by a later binding or the result.
    fn used_after(&self, i: usize) -> bool {
        let name = &self.lets[i].var;
        self.lets[i + 1..].iter().any(|b| mentions(&b.bound, name)) || mentions(&self.result, name)
    }

    /// The scope binding `i` sees: the earlier bindings with their annotated types.
    fn scope(&self, i: usize) -> Scope {
        self.lets[..i]
            .iter()
            .map(|b| (b.var.clone(), b.ty.clone()))
            .collect()
    }
}

/// The programs one shrinking step away from `p`, most aggressive first; not all well typed.
pub fn candidates(p: &TailProgram) -> Vec<TailProgram> {
    let mut out = Vec::new();
    let n = p.lets.len();
    // keep only the first j+1 bindings, returning the last of them
    for j in 0..n.saturating_sub(1) {
        let var = Expr::new(ExprKind::Var(p.lets[j].var.clone()), Span::DUMMY);
        let q = TailProgram {
            lets: p.lets[..=j].to_vec(),
            result: var,
        };
        if q.size() < p.size() {
            out.push(q);
        }
    }
    // drop a binding nobody reads (its printing, if any, goes with it)
    for i in 0..n {
        if !p.used_after(i) {
            let mut q = p.clone();
            q.lets.remove(i);
            out.push(q);
        }
    }
    for i in 0..n {
        let b = &p.lets[i];
        let with_bound = |e: Expr| {
            let mut q = p.clone();
            q.lets[i].bound = e;
            q
        };
        // an earlier variable of the same type, the variables in order
        for (var, ty) in p.scope(i) {
            if ty == b.ty && !is_var(&b.bound) {
                out.push(with_bound(Expr::new(ExprKind::Var(var), Span::DUMMY)));
            }
        }
        if let Some(c) = constant_of(&b.ty) {
            // smaller, or at least reading no variable (so that what it read may go)
            let reads = mentions_any(&b.bound);
            if c != b.bound && (node_count(&c) < node_count(&b.bound) || reads) {
                out.push(with_bound(c));
            }
        }
        for e in expr_candidates(&b.bound, &p.scope(i)) {
            out.push(with_bound(e));
        }
    }
    for e in expr_candidates(&p.result, &p.scope(n)) {
        let mut q = p.clone();
        q.result = e;
        out.push(q);
    }
    out
}

/// Whether `e` reads any variable.
fn mentions_any(e: &Expr) -> bool {
    let mut work = vec![e];
    while let Some(x) = work.pop() {
        if is_var(x) {
            return true;
        }
        work.extend(x.children());
    }
    false
}

fn is_var(e: &Expr) -> bool {
    matches!(e.kind, ExprKind::Var(_))
}

/// What shrinking did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ShrinkStats {
    /// Well-typed candidates handed to the predicate.
    pub tries: usize,
    /// Candidates the TAIL front end rejected (never handed to the predicate).
    pub ill_typed: usize,
    /// Steps taken (candidates accepted).
    pub steps: usize,
}

/// Shrinks greedily: takes the first well-typed candidate on which `still_fails` holds, until
/// none does or `max_tries` candidates were handed to `still_fails` (ill-typed candidates are
/// skipped, at most `16 * max_tries` of them). Deterministic: candidates come in a fixed order.
/// Returns the smallest failing program found (`p` itself when nothing smaller fails, or when
/// `p` has more than [`MAX_SHRINK_NODES`] nodes).
pub fn shrink(
    p: &TailProgram,
    max_tries: usize,
    still_fails: &mut dyn FnMut(&TailProgram) -> bool,
) -> (TailProgram, ShrinkStats) {
    let mut best = p.clone();
    let mut stats = ShrinkStats::default();
    if p.size() > MAX_SHRINK_NODES {
        return (best, stats);
    }
    'outer: loop {
        for c in candidates(&best) {
            if stats.tries >= max_tries || stats.ill_typed >= 16 * max_tries {
                break 'outer;
            }
            if !c.well_typed() {
                stats.ill_typed += 1;
                continue;
            }
            stats.tries += 1;
            if still_fails(&c) {
                best = c;
                stats.steps += 1;
                continue 'outer;
            }
        }
        break;
    }
    (best, stats)
}

/// [`shrink`] on program text: parses `src`, shrinks, prints. `None` when `src` does not parse.
pub fn shrink_source(
    src: &str,
    max_tries: usize,
    still_fails: &mut dyn FnMut(&str) -> bool,
) -> Option<(String, ShrinkStats)> {
    let p = TailProgram::parse(src).ok()?;
    let (small, stats) = shrink(&p, max_tries, &mut |c| still_fails(&c.print()));
    Some((small.print(), stats))
}

#[cfg(test)]
mod tests {
    use super::*;

    const PROGRAM: &str = "let v1:[int]1 = iota(6) in\n\
        let v2:[int]1 = each(fn x1:[int]0 => subi(x1,4),v1) in\n\
        let v3:[double]1 = [1.5,2.25,-3.0] in\n\
        let v4:[int]0 = reduce(addi,0,v2) in\n\
        let v5:[int]2 = reshape([2,3],v2) in\n\
        v5\n";

    #[test]
    fn the_spine_round_trips() {
        let p = TailProgram::parse(PROGRAM).expect("parses");
        assert_eq!(p.lets.len(), 5);
        assert!(p.well_typed());
        let again = TailProgram::parse(&p.print()).expect("reparses");
        assert_eq!(again, p);
    }

    #[test]
    fn candidates_are_smaller_and_many_are_well_typed() {
        let p = TailProgram::parse(PROGRAM).expect("parses");
        let cs = candidates(&p);
        assert!(cs.len() > 20, "{}", cs.len());
        let typed = cs.iter().filter(|c| c.well_typed()).count();
        assert!(typed * 2 > cs.len(), "{typed} of {}", cs.len());
        // each changes something and grows nothing but a constant (at most `reshape([1,1],[0])`
        // for a variable)
        for c in &cs {
            assert!(c.size() <= p.size() + 5 && *c != p, "{}", c.print());
        }
        // the unused v3 and v4 can go, and v5 = reshape(.., v2) can become a constant
        assert!(cs
            .iter()
            .any(|c| c.lets.len() == 4 && !c.print().contains("v3")));
        assert!(cs.iter().any(|c| c.print().contains("reshape([1,1],[0])")));
    }

    #[test]
    fn shrinking_keeps_the_property_and_types() {
        let p = TailProgram::parse(PROGRAM).expect("parses");
        // a stand-in failure: the program still mentions `subi` and its result has rank 2
        let (small, stats) = shrink(&p, 500, &mut |c| {
            c.print().contains("subi")
                && matches!(c.lets.last(), Some(b) if b.ty.to_string() == "[int]2")
        });
        assert!(small.well_typed());
        assert!(small.print().contains("subi"));
        assert!(small.size() < p.size(), "{}", small.print());
        assert!(stats.steps > 0 && stats.tries <= 500);
        // deterministic
        let (again, _) = shrink(&p, 500, &mut |c| {
            c.print().contains("subi")
                && matches!(c.lets.last(), Some(b) if b.ty.to_string() == "[int]2")
        });
        assert_eq!(again, small);
    }
}
