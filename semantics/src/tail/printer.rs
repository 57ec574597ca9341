//! The TAIL pretty printer in apltail's layout (spec §2.6) with apltail's literal formats
//! (spec §6.6), on the `pretty` crate. `parse(&print(e)) == e` for every expression.

use crate::tail::print_value::{char_text, double_literal};
use crate::tail::syntax::{Expr, ExprKind, SpineLet};
use crate::tail::value::Scalar;
use pretty::RcDoc;

/// The program text of `e`, ending with one newline.
pub fn print(e: &Expr) -> String {
    crate::tail::parser::on_deep_stack(|| print_here(e))
}

fn print_here(e: &Expr) -> String {
    // The top-level `let` spine is rendered line by line, so that a program of any length builds
    // only small documents (documents are trees, and deep trees cost stack to drop).
    let mut out = String::new();
    let (lets, result) = e.let_spine();
    for l in &lets {
        render(&let_doc(l), &mut out);
        out.push('\n');
    }
    render(&doc(result), &mut out);
    out.push('\n');
    out
}

fn render(d: &RcDoc<'static>, out: &mut String) {
    let mut buf = Vec::new();
    // Layout is fixed (hard lines only), so the width never matters.
    if d.render(usize::MAX / 2, &mut buf).is_ok() {
        out.push_str(&String::from_utf8_lossy(&buf));
    }
}

/// The literal text of a scalar (spec §1.3–1.7, §6.6).
pub fn literal_text(x: &Scalar) -> String {
    match *x {
        Scalar::Int(n) => n.to_string(),
        Scalar::Double(d) => double_literal(d),
        Scalar::Complex((re, im)) => format!("{}j{}", double_literal(re), double_literal(im)),
        Scalar::Char(c) => format!("'{}'", char_text(c)),
        Scalar::Bool(b) => (if b { "tt" } else { "ff" }).to_string(),
    }
}

fn joined(es: &[Expr]) -> RcDoc<'static> {
    RcDoc::intersperse(es.iter().map(doc), RcDoc::text(","))
}

/// `let x:τ = e in`, without the line break after it.
fn let_doc(l: &SpineLet) -> RcDoc<'static> {
    RcDoc::text(format!("let {}:{} = ", l.var, l.ty))
        .append(doc(l.bound).nest(2))
        .append(" in")
}

/// The document of one expression (`pp(i, e)` of spec §2.6, with i the current nesting).
fn doc(e: &Expr) -> RcDoc<'static> {
    match &e.kind {
        ExprKind::Var(x) => RcDoc::text(x.clone()),
        ExprKind::Lit(x) => RcDoc::text(literal_text(x)),
        ExprKind::Let { .. } => {
            let (lets, result) = e.let_spine();
            let lines = lets.iter().map(|l| let_doc(l).append(RcDoc::hardline()));
            RcDoc::concat(lines.chain(std::iter::once(doc(result))))
        }
        ExprKind::Fn { param, ty, body } => {
            RcDoc::text(format!("fn {param}:{ty} => ")).append(doc(body).nest(2))
        }
        ExprKind::If(c, a, b) => RcDoc::text("if ")
            .append(doc(c).nest(3))
            .append(" then")
            .append(RcDoc::hardline().append(doc(a)).nest(2))
            .append(RcDoc::hardline())
            .append("else ")
            .append(RcDoc::hardline().append(doc(b)).nest(2)),
        ExprKind::Prj(i, x) => RcDoc::text(format!("Prj({i},"))
            .append(doc(x).nest(5))
            .append(")"),
        ExprKind::App { op, args } => {
            let name = op.name();
            let indent = 1 + name.len() as isize;
            RcDoc::text(name)
                .append("(")
                .append(joined(args).nest(indent))
                .append(")")
        }
        ExprKind::OpValue(op) => RcDoc::text(op.name()),
        ExprKind::Vector(es) if es.is_empty() => RcDoc::text("zilde()"),
        ExprKind::Vector(es) => RcDoc::text("[").append(joined(es).nest(1)).append("]"),
        ExprKind::Tuple(es) => RcDoc::text("(").append(joined(es).nest(1)).append(")"),
    }
}
