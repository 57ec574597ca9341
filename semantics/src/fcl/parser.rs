//! Recursive-descent parser for the FCL surface syntax (docs/fcl.md §2). Nesting is limited to
//! [`MAX_DEPTH`] so that no later (recursive) pass can overflow the stack.

use super::lexer::{lex, Tok, Token};
use super::syntax::{BinOp, Decl, DeclKind, Expr, ExprKind, Program, Scheme, Stmt};
use crate::{Diagnostic, Span};

mod schemes;

/// The deepest expression or type nesting the parser accepts. Chains (`a + b + …`, `f a b …`,
/// `do` statements) count one level per link, since they become nested trees.
pub const MAX_DEPTH: usize = 256;

/// The longest `if … then … else if …` or `let … in let … in …` chain the parser accepts: an
/// `if` or `let` that is the `else` branch of an `if` or the body of a `let` (through
/// parentheses only, as `else (if …)`) resumes at its parent's depth, so a chain (a table lookup
/// of many cases, an unrolled fold) costs one link of this budget rather than levels of
/// [`MAX_DEPTH`]. The later passes recurse once per link, on the front end's big stack.
pub const MAX_IF_CHAIN: usize = 10_000;

/// Parses one FCL source file.
pub fn parse_program(src: &str) -> Result<Program, Diagnostic> {
    parse_program_at(src, 0)
}

/// Parses one FCL source file whose spans start at byte `base` (several files share one span
/// space when they are concatenated; see `load`).
pub fn parse_program_at(src: &str, base: usize) -> Result<Program, Diagnostic> {
    super::stack::with_big_stack(|| parse_program_here(src, base))
}

pub(super) fn parse_program_here(src: &str, base: usize) -> Result<Program, Diagnostic> {
    let shift = |mut d: Diagnostic| {
        d.span = Span::new(d.span.start as usize + base, d.span.end as usize + base);
        d
    };
    let mut toks = lex(src).map_err(shift)?;
    for t in &mut toks {
        t.span = Span::new(t.span.start as usize + base, t.span.end as usize + base);
    }
    let mut p = Parser {
        toks,
        pos: 0,
        depth: 0,
        chain_base: None,
        chain: 0,
        src_len: src.len() + base,
    };
    let mut decls = Vec::new();
    while p.pos < p.toks.len() {
        decls.push(p.decl()?);
    }
    if decls.is_empty() {
        return Err(Diagnostic::parse(
            Span::new(src.len() + base, src.len() + base),
            "a program needs at least one declaration",
        ));
    }
    Ok(Program { decls })
}

/// Parses a single expression (used by tests and tools).
pub fn parse_expr(src: &str) -> Result<Expr, Diagnostic> {
    super::stack::with_big_stack(|| parse_expr_here(src))
}

fn parse_expr_here(src: &str) -> Result<Expr, Diagnostic> {
    let toks = lex(src)?;
    let mut p = Parser {
        toks,
        pos: 0,
        depth: 0,
        chain_base: None,
        chain: 0,
        src_len: src.len(),
    };
    let e = p.expr()?;
    if p.pos < p.toks.len() {
        return Err(p.unexpected("end of input"));
    }
    Ok(e)
}

struct Parser {
    toks: Vec<Token>,
    pos: usize,
    depth: usize,
    src_len: usize,
    /// Set while parsing an `if`'s `else` branch until its first term: the depth of that `if`,
    /// at which an `if` that is the branch (through parentheses) resumes.
    chain_base: Option<usize>,
    /// The `if`s open now that resumed at their parent's depth (links of chains).
    chain: usize,
}

fn describe(t: &Tok) -> String {
    match t {
        Tok::Ident(s) => format!("identifier `{s}`"),
        Tok::TyVar(s) => format!("type variable `'{s}`"),
        Tok::Int(i) => format!("integer `{i}`"),
        Tok::Double(d) => format!("double `{d}`"),
        Tok::Str(_) => "string literal".into(),
        Tok::Kw(k) => format!("`{k}`"),
        Tok::Sym(s) => format!("`{s}`"),
    }
}

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|t| &t.tok)
    }

    fn peek_at(&self, k: usize) -> Option<&Tok> {
        self.toks.get(self.pos + k).map(|t| &t.tok)
    }

    fn here(&self) -> Span {
        match self.toks.get(self.pos) {
            Some(t) => t.span,
            None => Span::new(self.src_len, self.src_len),
        }
    }

    fn prev_end(&self) -> u32 {
        if self.pos == 0 {
            0
        } else {
            self.toks[self.pos - 1].span.end
        }
    }

    fn span_from(&self, start: Span) -> Span {
        Span {
            start: start.start,
            end: self.prev_end().max(start.start),
        }
    }

    fn unexpected(&self, expected: &str) -> Diagnostic {
        let found = match self.peek() {
            Some(t) => describe(t),
            None => "end of input".into(),
        };
        Diagnostic::parse(self.here(), format!("expected {expected}, found {found}"))
    }

    fn is_sym(&self, s: &str) -> bool {
        matches!(self.peek(), Some(Tok::Sym(x)) if *x == s)
    }

    fn is_kw(&self, s: &str) -> bool {
        matches!(self.peek(), Some(Tok::Kw(x)) if *x == s)
    }

    fn eat_sym(&mut self, s: &str) -> Result<Span, Diagnostic> {
        if self.is_sym(s) {
            self.pos += 1;
            Ok(self.toks[self.pos - 1].span)
        } else {
            Err(self.unexpected(&format!("`{s}`")))
        }
    }

    fn eat_kw(&mut self, s: &str) -> Result<Span, Diagnostic> {
        if self.is_kw(s) {
            self.pos += 1;
            Ok(self.toks[self.pos - 1].span)
        } else {
            Err(self.unexpected(&format!("`{s}`")))
        }
    }

    fn ident(&mut self) -> Result<String, Diagnostic> {
        match self.peek() {
            Some(Tok::Ident(s)) => {
                let s = s.clone();
                self.pos += 1;
                Ok(s)
            }
            _ => Err(self.unexpected("an identifier")),
        }
    }

    fn enter(&mut self) -> Result<(), Diagnostic> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(Diagnostic::parse(
                self.here(),
                format!("expression nested too deeply (more than {MAX_DEPTH} levels)"),
            ));
        }
        Ok(())
    }

    // ---- declarations ------------------------------------------------------------------

    fn decl(&mut self) -> Result<Decl, Diagnostic> {
        let start = self.here();
        let sig = if self.is_kw("sig") {
            self.pos += 1;
            let name = self.ident()?;
            self.eat_sym(":")?;
            Some((name, self.scheme()?))
        } else {
            None
        };
        let kind = if self.is_kw("fun") {
            DeclKind::Fun
        } else if self.is_kw("val") {
            DeclKind::Val
        } else {
            return Err(self.unexpected("`fun` or `val`"));
        };
        self.pos += 1;
        let name = self.ident()?;
        let levels = if self.is_sym("<") {
            self.level_params()?
        } else {
            Vec::new()
        };
        let mut params = Vec::new();
        while let Some(Tok::Ident(p)) = self.peek() {
            params.push(p.clone());
            self.pos += 1;
        }
        // `fun f = e` (no parameters) means `val f = e`: the original compiler's own tests
        // write it (`fun foo = return <grid> 0`). Only `val` with parameters is an error.
        if kind == DeclKind::Val && !params.is_empty() {
            return Err(Diagnostic::parse(
                self.toks[self.pos - 1].span,
                "`val` takes no parameters (use `fun`)",
            ));
        }
        self.eat_sym("=")?;
        let body = self.expr()?;
        Ok(Decl {
            sig,
            kind,
            name,
            levels,
            params,
            body,
            span: self.span_from(start),
        })
    }

    // ---- expressions ------------------------------------------------------------------

    /// An expression: the binary operators of §2.2 over applications.
    pub fn expr(&mut self) -> Result<Expr, Diagnostic> {
        self.enter()?;
        let e = self.binary(1);
        self.depth -= 1;
        e
    }

    fn binop_here(&self) -> Option<BinOp> {
        Some(match self.peek()? {
            Tok::Sym("|>") => BinOp::Pipe,
            Tok::Sym("==") => BinOp::Eq,
            Tok::Sym("!=") => BinOp::Neq,
            Tok::Sym("<<") => BinOp::Shl,
            Tok::Sym(">>") => BinOp::Shr,
            Tok::Sym("&") => BinOp::And,
            Tok::Sym("+") => BinOp::Add,
            Tok::Sym("-") => BinOp::Sub,
            Tok::Sym("*") => BinOp::Mul,
            Tok::Sym("/") => BinOp::Div,
            Tok::Sym("%") => BinOp::Mod,
            _ => return None,
        })
    }

    fn binary(&mut self, prec: u8) -> Result<Expr, Diagnostic> {
        if prec > 5 {
            return self.application();
        }
        let saved = self.depth;
        let mut lhs = self.binary(prec + 1)?;
        while let Some(op) = self.binop_here().filter(|o| o.precedence() == prec) {
            self.pos += 1;
            self.enter()?;
            let rhs = self.binary(prec + 1)?;
            let span = lhs.span.to(rhs.span);
            lhs = Expr {
                kind: ExprKind::BinOp(op, std::sync::Arc::new(lhs), std::sync::Arc::new(rhs)),
                span,
            };
        }
        self.depth = saved;
        Ok(lhs)
    }

    fn starts_term(&self) -> bool {
        matches!(
            self.peek(),
            Some(
                Tok::Kw("fn" | "if" | "let" | "do" | "true" | "false")
                    | Tok::Sym("(")
                    | Tok::Int(_)
                    | Tok::Double(_)
                    | Tok::Str(_)
                    | Tok::Ident(_)
            )
        )
    }

    fn application(&mut self) -> Result<Expr, Diagnostic> {
        let saved = self.depth;
        let mut f = self.term()?;
        while self.starts_term() {
            self.enter()?;
            let a = self.term()?;
            let span = f.span.to(a.span);
            f = Expr {
                kind: ExprKind::App(std::sync::Arc::new(f), std::sync::Arc::new(a)),
                span,
            };
        }
        self.depth = saved;
        Ok(f)
    }

    /// An `if` or a `let` (after the keyword), parsed by `parts`. In a chain position
    /// (`chain_base`: an `else` branch or a `let`'s body) it resumes at its parent's depth and
    /// costs one link of the chain budget instead, so a table lookup or an unrolled fold of
    /// any length up to [`MAX_IF_CHAIN`] links parses.
    fn chain_link<T>(
        &mut self,
        chain_base: Option<usize>,
        what: &str,
        parts: impl FnOnce(&mut Self) -> Result<T, Diagnostic>,
    ) -> Result<T, Diagnostic> {
        let outer = self.depth;
        if let Some(base) = chain_base {
            if self.chain >= MAX_IF_CHAIN {
                return Err(Diagnostic::parse(
                    self.here(),
                    format!("`{what}` chain longer than {MAX_IF_CHAIN} links"),
                ));
            }
            self.chain += 1;
            self.depth = base;
        }
        let r = parts(self);
        self.depth = outer;
        self.chain_base = None;
        if chain_base.is_some() {
            self.chain -= 1;
        }
        r
    }

    /// The condition and branches of an `if` (after the keyword); an `if` in the `else`
    /// branch resumes at this one's depth.
    fn if_parts(&mut self) -> Result<(Expr, Expr, Expr), Diagnostic> {
        let base = self.depth;
        let c = self.expr()?;
        self.eat_kw("then")?;
        let t = self.expr()?;
        self.eat_kw("else")?;
        self.chain_base = Some(base);
        let e = self.expr()?;
        Ok((c, t, e))
    }

    /// The binding and body of a `let` (after the keyword); a `let` or `if` in the body
    /// resumes at this one's depth.
    #[allow(clippy::type_complexity)]
    fn let_parts(
        &mut self,
    ) -> Result<(String, Vec<String>, Option<Scheme>, Expr, Expr), Diagnostic> {
        let base = self.depth;
        let name = self.ident()?;
        let levels = if self.is_sym("<") {
            self.level_params()?
        } else {
            Vec::new()
        };
        let sig = if self.is_sym(":") {
            self.pos += 1;
            Some(self.scheme()?)
        } else {
            None
        };
        self.eat_sym("=")?;
        let rhs = self.expr()?;
        self.eat_kw("in")?;
        self.chain_base = Some(base);
        let body = self.expr()?;
        Ok((name, levels, sig, rhs, body))
    }

    fn term(&mut self) -> Result<Expr, Diagnostic> {
        self.enter()?;
        let e = self.term_inner();
        self.depth -= 1;
        e
    }

    fn term_inner(&mut self) -> Result<Expr, Diagnostic> {
        let start = self.here();
        // only a parenthesis or an `if` passes on the resumption point of an `else` branch
        let chain_base = self.chain_base.take();
        let kind = match self.peek().cloned() {
            Some(Tok::Int(i)) => {
                self.pos += 1;
                ExprKind::Int(i)
            }
            Some(Tok::Double(d)) => {
                self.pos += 1;
                ExprKind::Double(d)
            }
            Some(Tok::Str(s)) => {
                self.pos += 1;
                ExprKind::Str(s)
            }
            Some(Tok::Kw("true")) => {
                self.pos += 1;
                ExprKind::Bool(true)
            }
            Some(Tok::Kw("false")) => {
                self.pos += 1;
                ExprKind::Bool(false)
            }
            Some(Tok::Ident(name)) => {
                self.pos += 1;
                let mut levels = Vec::new();
                if self.is_sym("<") {
                    self.pos += 1;
                    if !self.is_sym(">") {
                        loop {
                            levels.push(self.level()?);
                            if self.is_sym(",") {
                                self.pos += 1;
                            } else {
                                break;
                            }
                        }
                    }
                    self.eat_sym(">")?;
                }
                ExprKind::Var(name, levels)
            }
            Some(Tok::Sym("(")) => {
                self.pos += 1;
                if self.is_sym(")") {
                    self.pos += 1;
                    ExprKind::Unit
                } else {
                    self.chain_base = chain_base;
                    let a = self.expr();
                    self.chain_base = None;
                    let a = a?;
                    if self.is_sym(",") {
                        self.pos += 1;
                        let b = self.expr()?;
                        self.eat_sym(")")?;
                        ExprKind::Pair(std::sync::Arc::new(a), std::sync::Arc::new(b))
                    } else {
                        self.eat_sym(")")?;
                        // Parentheses leave no node; widen the span to include them.
                        return Ok(Expr {
                            kind: a.kind,
                            span: self.span_from(start),
                        });
                    }
                }
            }
            Some(Tok::Kw("fn")) => {
                self.pos += 1;
                let mut params = vec![self.ident()?];
                while let Some(Tok::Ident(p)) = self.peek() {
                    params.push(p.clone());
                    self.pos += 1;
                    self.enter()?;
                }
                self.eat_sym("=>")?;
                let body = self.expr()?;
                ExprKind::Fn(params, std::sync::Arc::new(body))
            }
            Some(Tok::Kw("if")) => {
                self.pos += 1;
                let (c, t, e) = self.chain_link(chain_base, "if", Self::if_parts)?;
                ExprKind::If(
                    std::sync::Arc::new(c),
                    std::sync::Arc::new(t),
                    std::sync::Arc::new(e),
                )
            }
            Some(Tok::Kw("let")) => {
                self.pos += 1;
                // unrolled folds are long chains of `let`s
                let (name, levels, sig, rhs, body) =
                    self.chain_link(chain_base, "let", Self::let_parts)?;
                ExprKind::Let {
                    name,
                    levels,
                    sig,
                    rhs: std::sync::Arc::new(rhs),
                    body: std::sync::Arc::new(body),
                }
            }
            Some(Tok::Kw("do")) => {
                self.pos += 1;
                let level = self.level_in_brackets()?;
                self.eat_sym("{")?;
                let saved = self.depth;
                let mut stmts = Vec::new();
                loop {
                    self.enter()?;
                    let is_bind = matches!(self.peek(), Some(Tok::Ident(_)))
                        && matches!(self.peek_at(1), Some(Tok::Sym("<-")));
                    if is_bind {
                        let x = self.ident()?;
                        self.pos += 1;
                        stmts.push(Stmt::Bind(x, self.expr()?));
                    } else {
                        stmts.push(Stmt::Expr(self.expr()?));
                    }
                    if self.is_sym(";") {
                        self.pos += 1;
                    } else {
                        break;
                    }
                }
                self.depth = saved;
                let close = self.here();
                self.eat_sym("}")?;
                if let Some(Stmt::Bind(..)) = stmts.last() {
                    return Err(Diagnostic::parse(
                        close,
                        "Final expression in `do`-construct can not be a bind.",
                    ));
                }
                ExprKind::Do(level, stmts)
            }
            _ => return Err(self.unexpected("an expression")),
        };
        Ok(Expr {
            kind,
            span: self.span_from(start),
        })
    }
}

/// Parses a type scheme on its own (the built-in table, tools).
pub fn parse_scheme(src: &str) -> Result<Scheme, Diagnostic> {
    let toks = lex(src)?;
    let mut p = Parser {
        toks,
        pos: 0,
        depth: 0,
        chain_base: None,
        chain: 0,
        src_len: src.len(),
    };
    let s = p.scheme()?;
    if p.pos < p.toks.len() {
        return Err(p.unexpected("end of input"));
    }
    Ok(s)
}
