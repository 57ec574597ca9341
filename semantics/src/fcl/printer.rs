//! Pretty printer for the FCL surface syntax, built on the `pretty` crate. Its output parses back
//! to the same program (modulo spans): parentheses are added wherever precedence or the
//! rightward reach of `fn`/`if`/`let` needs them.

use super::syntax::{Decl, DeclKind, Expr, ExprKind, Level, Program, Scheme, Stmt, Type, TypeKind};
use pretty::RcDoc;

type Doc = RcDoc<'static, ()>;

const WIDTH: usize = 100;

/// Renders a whole program.
pub fn print_program(p: &Program) -> String {
    super::stack::with_big_stack(|| print_program_here(p))
}

fn print_program_here(p: &Program) -> String {
    let docs = p.decls.iter().map(decl);
    render(RcDoc::intersperse(
        docs,
        RcDoc::hardline().append(RcDoc::hardline()),
    ))
}

/// Renders one expression.
pub fn print_expr(e: &Expr) -> String {
    super::stack::with_big_stack(|| render(expr(e, Ctx::Top)))
}

/// Renders one expression on one line (however long): for tools that look at it line by line.
pub fn print_expr_flat(e: &Expr) -> String {
    super::stack::with_big_stack(|| render_at(expr(e, Ctx::Top), usize::MAX / 2))
}

/// Renders a level as written in source (`thread`, `block`, `grid`, `1+l`).
pub fn print_level(l: &Level) -> String {
    match &l.var {
        Some(v) => format!("{}{v}", "1+".repeat(l.succs as usize)),
        None => match l.succs {
            0 => "thread".into(),
            1 => "block".into(),
            n => format!("{}grid", "1+".repeat(n as usize - 2)),
        },
    }
}

/// Renders a type in source syntax.
pub fn print_type(t: &Type) -> String {
    render(ty(t, false))
}

fn render(d: Doc) -> String {
    render_at(d, WIDTH)
}

fn render_at(d: Doc, width: usize) -> String {
    let mut out = Vec::new();
    d.render(width, &mut out)
        .expect("writing to a Vec cannot fail");
    let mut s = String::from_utf8(out).expect("the printer emits UTF-8");
    s.push('\n');
    s
}

fn text(s: impl Into<String>) -> Doc {
    RcDoc::text(s.into())
}

fn decl(d: &Decl) -> Doc {
    let mut doc = RcDoc::nil();
    if let Some((name, s)) = &d.sig {
        doc = doc
            .append(text(format!("sig {name} : ")))
            .append(scheme(s))
            .append(RcDoc::hardline());
    }
    let kw = match d.kind {
        DeclKind::Fun => "fun",
        DeclKind::Val => "val",
    };
    let mut head = format!("{kw} {}{}", d.name, level_params(&d.levels));
    for p in &d.params {
        head.push(' ');
        head.push_str(p);
    }
    head.push_str(" =");
    doc.append(
        text(head)
            .append(RcDoc::line().append(expr(&d.body, Ctx::Top)).nest(2))
            .group(),
    )
}

fn level_params(ls: &[String]) -> String {
    if ls.is_empty() {
        String::new()
    } else {
        format!("<{}>", ls.join(","))
    }
}

fn scheme(s: &Scheme) -> Doc {
    let prefix = match &s.forall {
        None => String::new(),
        Some((ls, tvs)) => {
            let mut p = "forall".to_string();
            if !ls.is_empty() {
                p.push_str(&format!(" <{}>", ls.join(",")));
            }
            for v in tvs {
                p.push_str(&format!(" '{v}"));
            }
            p.push_str(". ");
            p
        }
    };
    text(prefix).append(ty(&s.ty, false))
}

/// `simple` asks for a simple type (the argument of `Program` or the left side of `->`).
fn ty(t: &Type, simple: bool) -> Doc {
    match &t.kind {
        TypeKind::Int => text("int"),
        TypeKind::Double => text("double"),
        TypeKind::Bool => text("bool"),
        TypeKind::Str => text("string"),
        TypeKind::Unit => text("unit"),
        TypeKind::Var(v) => text(format!("'{v}")),
        TypeKind::Fun(a, b) => {
            let d = ty(a, true).append(text(" -> ")).append(ty(b, false));
            if simple {
                text("(").append(d).append(text(")"))
            } else {
                d
            }
        }
        TypeKind::Pair(a, b) => text("(")
            .append(ty(a, false))
            .append(text(", "))
            .append(ty(b, false))
            .append(text(")")),
        TypeKind::Pull(a) => text("[").append(ty(a, false)).append(text("]")),
        TypeKind::Push(a, l) => text("[")
            .append(ty(a, false))
            .append(text(format!("]<{}>", print_level(l)))),
        TypeKind::Program(l, a) => {
            text(format!("Program <{}> ", print_level(l))).append(ty(a, true))
        }
    }
}

/// The syntactic context an expression is printed in.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Ctx {
    /// Anywhere an `expr` may stand (nothing follows that it could swallow).
    Top,
    /// Operand of a binary operator with this minimum precedence.
    Op(u8),
    /// The function of an application.
    Fun,
    /// The argument of an application.
    Arg,
}

fn parens(d: Doc) -> Doc {
    text("(").append(d.nest(1)).append(text(")"))
}

fn level_args(ls: &[Level]) -> String {
    if ls.is_empty() {
        String::new()
    } else {
        let v: Vec<String> = ls.iter().map(print_level).collect();
        format!("<{}>", v.join(","))
    }
}

fn escape(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => out.push_str(&format!("\\{}\\&", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn expr(e: &Expr, ctx: Ctx) -> Doc {
    match &e.kind {
        ExprKind::Int(i) => text(i.to_string()),
        ExprKind::Double(d) => text(format!("{d:?}")),
        ExprKind::Bool(b) => text(b.to_string()),
        ExprKind::Str(s) => text(escape(s)),
        ExprKind::Unit => text("()"),
        ExprKind::Var(x, ls) => text(format!("{x}{}", level_args(ls))),
        ExprKind::Pair(a, b) => text("(")
            .append(expr(a, Ctx::Top))
            .append(text(","))
            .append(RcDoc::line())
            .append(expr(b, Ctx::Top))
            .append(text(")"))
            .nest(1)
            .group(),
        ExprKind::App(f, a) => {
            let d = expr(f, Ctx::Fun)
                .append(RcDoc::line().append(expr(a, Ctx::Arg)).nest(2))
                .group();
            if ctx == Ctx::Arg {
                parens(d)
            } else {
                d
            }
        }
        ExprKind::BinOp(op, l, r) => {
            let p = op.precedence();
            let d = expr(l, Ctx::Op(p))
                .append(RcDoc::line())
                .append(text(format!("{} ", op.symbol())))
                .append(expr(r, Ctx::Op(p + 1)))
                .group();
            let ok = match ctx {
                Ctx::Top => true,
                Ctx::Op(min) => p >= min,
                Ctx::Fun | Ctx::Arg => false,
            };
            if ok {
                d
            } else {
                parens(d)
            }
        }
        ExprKind::Fn(params, body) => open(
            ctx,
            text(format!("fn {} =>", params.join(" ")))
                .append(RcDoc::line().append(expr(body, Ctx::Top)).nest(2))
                .group(),
        ),
        ExprKind::If(c, t, f) => open(
            ctx,
            text("if ")
                .append(expr(c, Ctx::Top))
                .append(RcDoc::line())
                .append(text("then "))
                .append(expr(t, Ctx::Top).nest(2))
                .append(RcDoc::line())
                .append(text("else "))
                .append(expr(f, Ctx::Top).nest(2))
                .group(),
        ),
        ExprKind::Let {
            name,
            levels,
            sig,
            rhs,
            body,
        } => {
            let mut head = text(format!("let {name}{}", level_params(levels)));
            if let Some(s) = sig {
                head = head.append(text(" : ")).append(scheme(s));
            }
            // `let x = rhs in` on one line when it fits, the body below it.
            let binding = head
                .append(text(" ="))
                .append(RcDoc::line().append(expr(rhs, Ctx::Top)).nest(2))
                .append(RcDoc::line())
                .append(text("in"))
                .group();
            open(
                ctx,
                binding
                    .append(RcDoc::line())
                    .append(expr(body, Ctx::Top))
                    .group(),
            )
        }
        ExprKind::Do(l, stmts) => {
            let items = stmts.iter().map(|s| match s {
                Stmt::Bind(x, e) => text(format!("{x} <- ")).append(expr(e, Ctx::Top).nest(2)),
                Stmt::Expr(e) => expr(e, Ctx::Top).nest(2),
            });
            text(format!("do<{}>", print_level(l)))
                .append(RcDoc::line())
                .append(text("{ "))
                .append(RcDoc::intersperse(items, RcDoc::line().append(text("; "))))
                .append(RcDoc::line())
                .append(text("}"))
                .group()
        }
    }
}

/// `fn`, `if` and `let` reach as far right as possible: parenthesise them unless nothing follows.
fn open(ctx: Ctx, d: Doc) -> Doc {
    if ctx == Ctx::Top {
        d
    } else {
        parens(d)
    }
}
