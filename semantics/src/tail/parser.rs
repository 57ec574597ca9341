//! Recursive-descent parser for TAIL programs (spec §2): text → [`Expr`].
//!
//! `let` chains (the spine of every apltail program) are parsed in a loop, so a program may have
//! any number of lines; other nesting is limited to [`MAX_DEPTH`] levels ("nesting too deep").

use crate::tail::lexer::{lex, Tok, Token};
use crate::tail::ops::prim::Prim;
use crate::tail::shape::Shape;
use crate::tail::syntax::{Expr, ExprKind, Op};
use crate::tail::types::{Base, Type};
use crate::tail::value::{BaseType, Scalar};
use crate::{Diagnostic, Span};
use std::collections::HashMap;

/// Deepest nesting of non-`let` forms accepted ("nesting too deep" beyond).
pub const MAX_DEPTH: usize = 2_000;

/// Stack for the recursive passes over an expression: a generous bound for [`MAX_DEPTH`] levels
/// of unoptimised frames. It is only reserved address space; pages are touched as used.
const DEEP_STACK: usize = 512 << 20;

/// Runs a recursive pass on a thread with a stack big enough for [`MAX_DEPTH`] levels, so that
/// callers on small stacks (test threads, 2 MiB) are safe. Falls back to the caller's thread if
/// no thread can be started.
pub fn on_deep_stack<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    let mut f = Some(f);
    let mut out = None;
    std::thread::scope(|s| {
        let spawned = std::thread::Builder::new()
            .stack_size(DEEP_STACK)
            .spawn_scoped(s, || (f.take().expect("run once"))());
        if let Ok(h) = spawned {
            out = h.join().ok();
        }
    });
    match (out, f) {
        (Some(r), _) => r,
        (None, Some(f)) => f(),
        // The pass panicked on its thread: re-raise here.
        (None, None) => panic!("a recursive pass panicked"),
    }
}

/// Parses one TAIL program (one expression, optionally followed by whitespace).
pub fn parse(src: &str) -> Result<Expr, Diagnostic> {
    on_deep_stack(|| parse_here(src))
}

fn parse_here(src: &str) -> Result<Expr, Diagnostic> {
    let toks = lex(src)?;
    let mut p = Parser {
        toks,
        pos: 0,
        depth: 0,
        bound: HashMap::new(),
    };
    let e = p.exp()?;
    p.expect(&Tok::Eof, "the end of the program")?;
    Ok(e)
}

/// Parses a type in TAIL syntax (spec §2.2).
pub fn parse_type(src: &str) -> Result<Type, Diagnostic> {
    let mut p = Parser {
        toks: lex(src)?,
        pos: 0,
        depth: 0,
        bound: HashMap::new(),
    };
    let t = p.ty()?;
    p.expect(&Tok::Eof, "the end of the type")?;
    Ok(t)
}

struct Parser {
    toks: Vec<Token>,
    pos: usize,
    depth: usize,
    /// How many enclosing binders bind each name (a bound name is a variable, not an operator).
    bound: HashMap<String, u32>,
}

const KEYWORDS: &[&str] = &["let", "in", "fn", "if", "then", "else", "tt", "ff", "Prj"];

/// A `let x:τ = e1 in` waiting for its body.
struct PendingLet {
    start: Span,
    var: String,
    ty: Type,
    bound: Expr,
}

impl Parser {
    fn peek(&self) -> &Tok {
        &self.toks[self.pos].tok
    }

    fn span(&self) -> Span {
        self.toks[self.pos].span
    }

    fn prev_end(&self) -> Span {
        self.toks[self.pos.saturating_sub(1)].span
    }

    /// Steps past the current token; returns it (identifiers' text is moved out, as no token is
    /// read twice except keywords, whose text is kept).
    fn bump(&mut self) -> Token {
        let tok = match &mut self.toks[self.pos].tok {
            Tok::Ident(s) if !KEYWORDS.contains(&s.as_str()) => Tok::Ident(std::mem::take(s)),
            t => t.clone(),
        };
        let t = Token {
            tok,
            span: self.toks[self.pos].span,
        };
        if self.pos + 1 < self.toks.len() {
            self.pos += 1;
        }
        t
    }

    fn error(&self, what: &str) -> Diagnostic {
        Diagnostic::parse(
            self.span(),
            format!("expected {what}, found {}", self.peek().describe()),
        )
    }

    fn eat(&mut self, t: &Tok) -> bool {
        if self.peek() == t {
            self.bump();
            true
        } else {
            false
        }
    }

    fn expect(&mut self, t: &Tok, what: &str) -> Result<(), Diagnostic> {
        if self.eat(t) {
            Ok(())
        } else {
            Err(self.error(what))
        }
    }

    fn is_kw(&self, kw: &str) -> bool {
        matches!(self.peek(), Tok::Ident(s) if s == kw)
    }

    fn expect_kw(&mut self, kw: &str) -> Result<(), Diagnostic> {
        if self.is_kw(kw) {
            self.bump();
            Ok(())
        } else {
            Err(self.error(&format!("`{kw}`")))
        }
    }

    fn var_name(&mut self) -> Result<String, Diagnostic> {
        match self.peek() {
            Tok::Ident(s) if !KEYWORDS.contains(&s.as_str()) => match self.bump().tok {
                Tok::Ident(s) => Ok(s),
                _ => Err(self.error("a variable name")),
            },
            _ => Err(self.error("a variable name")),
        }
    }

    fn enter(&mut self) -> Result<(), Diagnostic> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(Diagnostic::parse(self.span(), "nesting too deep"));
        }
        Ok(())
    }

    fn bind(&mut self, x: &str) {
        *self.bound.entry(x.to_string()).or_insert(0) += 1;
    }

    fn unbind(&mut self, x: &str) {
        if let Some(n) = self.bound.get_mut(x) {
            *n -= 1;
            if *n == 0 {
                self.bound.remove(x);
            }
        }
    }

    /// `exp` (spec §2.1). A chain of `let`s is collected first and nested afterwards.
    fn exp(&mut self) -> Result<Expr, Diagnostic> {
        let mut chain: Vec<PendingLet> = Vec::new();
        let result = self.let_chain(&mut chain);
        for l in &chain {
            self.unbind(&l.var);
        }
        let mut e = result?;
        while let Some(l) = chain.pop() {
            let span = l.start.to(e.span);
            e = Expr::new(
                ExprKind::Let {
                    var: l.var,
                    ty: l.ty,
                    bound: Box::new(l.bound),
                    body: Box::new(e),
                },
                span,
            );
        }
        Ok(e)
    }

    fn let_chain(&mut self, chain: &mut Vec<PendingLet>) -> Result<Expr, Diagnostic> {
        while self.is_kw("let") {
            let start = self.bump().span;
            let var = self.var_name()?;
            self.expect(&Tok::Colon, "`:`")?;
            let ty = self.ty()?;
            self.expect(&Tok::Eq, "`=`")?;
            self.enter()?;
            let bound = self.exp()?;
            self.depth -= 1;
            self.expect_kw("in")?;
            self.bind(&var);
            chain.push(PendingLet {
                start,
                var,
                ty,
                bound,
            });
        }
        self.enter()?;
        let e = self.atom_exp();
        self.depth -= 1;
        e
    }

    /// Every form except `let`.
    fn atom_exp(&mut self) -> Result<Expr, Diagnostic> {
        let start = self.span();
        if let Tok::Ident(_) = self.peek() {
            let t = self.bump();
            let Tok::Ident(s) = t.tok else {
                return Err(self.error("an expression"));
            };
            return self.ident(s, t.span);
        }
        match *self.peek() {
            Tok::Int(n) => {
                self.bump();
                let n = i32::try_from(n).map_err(|_| {
                    Diagnostic::parse(start, format!("integer literal {n} is out of range"))
                })?;
                Ok(Expr::new(ExprKind::Lit(Scalar::Int(n)), start))
            }
            Tok::Double(d) => {
                self.bump();
                Ok(Expr::new(ExprKind::Lit(Scalar::Double(d)), start))
            }
            Tok::Complex(re, im) => {
                self.bump();
                Ok(Expr::new(ExprKind::Lit(Scalar::Complex((re, im))), start))
            }
            Tok::Char(c) => {
                self.bump();
                Ok(Expr::new(ExprKind::Lit(Scalar::Char(c)), start))
            }
            Tok::LBrack => self.vector(),
            Tok::LParen => self.paren(),
            _ => Err(self.error("an expression")),
        }
    }

    fn exps_until(&mut self, close: &Tok, what: &str) -> Result<Vec<Expr>, Diagnostic> {
        let mut es = Vec::new();
        if self.eat(close) {
            return Ok(es);
        }
        loop {
            es.push(self.exp()?);
            if self.eat(close) {
                return Ok(es);
            }
            self.expect(&Tok::Comma, &format!("`,` or {what}"))?;
        }
    }

    fn vector(&mut self) -> Result<Expr, Diagnostic> {
        let start = self.bump().span;
        let es = self.exps_until(&Tok::RBrack, "`]`")?;
        let span = start.to(self.prev_end());
        if es.is_empty() {
            // `[]` is accepted as `zilde()` (spec §2.1).
            let op = Op::base(Prim::Zilde);
            return Ok(Expr::new(ExprKind::App { op, args: es }, span));
        }
        Ok(Expr::new(ExprKind::Vector(es), span))
    }

    fn paren(&mut self) -> Result<Expr, Diagnostic> {
        let start = self.bump().span;
        let mut es = self.exps_until(&Tok::RParen, "`)`")?;
        let span = start.to(self.prev_end());
        match es.len() {
            0 => Err(Diagnostic::parse(
                span,
                "expected an expression, found `()`",
            )),
            1 => {
                let mut e = es.pop().expect("one element");
                e.span = span;
                Ok(e)
            }
            _ => Ok(Expr::new(ExprKind::Tuple(es), span)),
        }
    }

    /// The forms that start with an identifier `s` (already consumed, at `start`).
    fn ident(&mut self, s: String, start: Span) -> Result<Expr, Diagnostic> {
        match s.as_str() {
            "tt" | "ff" => Ok(Expr::new(ExprKind::Lit(Scalar::Bool(s == "tt")), start)),
            "fn" => {
                let param = self.var_name()?;
                self.expect(&Tok::Colon, "`:`")?;
                let ty = self.ty()?;
                self.expect(&Tok::FatArrow, "`=>`")?;
                self.bind(&param);
                let body = self.exp();
                self.unbind(&param);
                let body = body?;
                let span = start.to(body.span);
                Ok(Expr::new(
                    ExprKind::Fn {
                        param,
                        ty,
                        body: Box::new(body),
                    },
                    span,
                ))
            }
            "if" => {
                let c = self.exp()?;
                self.expect_kw("then")?;
                let a = self.exp()?;
                self.expect_kw("else")?;
                let b = self.exp()?;
                let span = start.to(b.span);
                Ok(Expr::new(
                    ExprKind::If(Box::new(c), Box::new(a), Box::new(b)),
                    span,
                ))
            }
            "Prj" => {
                self.expect(&Tok::LParen, "`(`")?;
                let i = match *self.peek() {
                    Tok::Int(i) if i >= 0 => i as usize,
                    _ => return Err(self.error("a component index")),
                };
                self.bump();
                self.expect(&Tok::Comma, "`,`")?;
                let e = self.exp()?;
                self.expect(&Tok::RParen, "`)`")?;
                let span = start.to(self.prev_end());
                Ok(Expr::new(ExprKind::Prj(i, Box::new(e)), span))
            }
            "let" | "in" | "then" | "else" => {
                self.pos -= 1;
                Err(self.error("an expression"))
            }
            _ if self.bound.contains_key(&s) => Ok(Expr::new(ExprKind::Var(s), start)),
            _ => self.operator(s, start),
        }
    }

    /// `op(…)`, `op{…}(…)` or a bare operator name.
    fn operator(&mut self, name: String, start: Span) -> Result<Expr, Diagnostic> {
        let Some(op) = Op::from_name(&name) else {
            if matches!(self.peek(), Tok::LParen | Tok::LBrace) {
                return Err(Diagnostic::parse(
                    start,
                    format!("unknown operator `{name}`"),
                ));
            }
            // An unbound name: the checker reports it with its scope.
            return Ok(Expr::new(ExprKind::Var(name), start));
        };
        if *self.peek() == Tok::LBrace {
            self.instance_lists()?;
        }
        if !self.eat(&Tok::LParen) {
            if op.arity() == 0 {
                return Err(self.error(&format!("`(` after `{name}`")));
            }
            return Ok(Expr::new(ExprKind::OpValue(op), start));
        }
        let args = self.exps_until(&Tok::RParen, "`)`")?;
        let span = start.to(self.prev_end());
        if args.len() != op.arity() {
            return Err(Diagnostic::parse(
                span,
                format!(
                    "expected {} argument(s) to `{name}`, found {}",
                    op.arity(),
                    args.len()
                ),
            ));
        }
        Ok(Expr::new(ExprKind::App { op, args }, span))
    }

    /// Typed output's `{[κ,…],[ρ,…]}` (spec §2.7): checked for form, then ignored.
    fn instance_lists(&mut self) -> Result<(), Diagnostic> {
        self.bump();
        self.expect(&Tok::LBrack, "`[`")?;
        if !self.eat(&Tok::RBrack) {
            loop {
                self.btype()?;
                if self.eat(&Tok::RBrack) {
                    break;
                }
                self.expect(&Tok::Comma, "`,` or `]`")?;
            }
        }
        self.expect(&Tok::Comma, "`,`")?;
        self.expect(&Tok::LBrack, "`[`")?;
        if !self.eat(&Tok::RBrack) {
            loop {
                self.rank()?;
                if self.eat(&Tok::RBrack) {
                    break;
                }
                self.expect(&Tok::Comma, "`,` or `]`")?;
            }
        }
        self.expect(&Tok::RBrace, "`}`")
    }

    /// `type` (spec §2.2); `->` is right-associative.
    fn ty(&mut self) -> Result<Type, Diagnostic> {
        self.enter()?;
        let t = self.ty_inner();
        self.depth -= 1;
        t
    }

    fn ty_inner(&mut self) -> Result<Type, Diagnostic> {
        let t = self.ty_atom()?;
        if self.eat(&Tok::Arrow) {
            let r = self.ty()?;
            return Ok(Type::fun(t, r));
        }
        Ok(t)
    }

    fn ty_atom(&mut self) -> Result<Type, Diagnostic> {
        match self.peek().clone() {
            Tok::LBrack | Tok::Lt => {
                let vec = *self.peek() == Tok::Lt;
                self.bump();
                let b = self.btype()?;
                if vec {
                    self.expect(&Tok::Gt, "`>`")?;
                } else {
                    self.expect(&Tok::RBrack, "`]`")?;
                }
                let r = self.rank()?;
                Ok(if vec {
                    Type::Vec(b, r)
                } else {
                    Type::Arr(b, r)
                })
            }
            Tok::Ident(s) if s == "S" || s == "SV" => {
                self.bump();
                self.expect(&Tok::LParen, "`(`")?;
                let b = self.btype()?;
                self.expect(&Tok::Comma, "`,`")?;
                let r = self.rank()?;
                self.expect(&Tok::RParen, "`)`")?;
                Ok(if s == "S" {
                    Type::S(b, r)
                } else {
                    Type::SV(b, r)
                })
            }
            Tok::LParen => {
                self.bump();
                let mut ts = vec![self.ty()?];
                while self.eat(&Tok::Star) {
                    ts.push(self.ty()?);
                }
                self.expect(&Tok::RParen, "`*` or `)`")?;
                Ok(if ts.len() == 1 {
                    ts.pop().expect("one type")
                } else {
                    Type::Tuple(ts)
                })
            }
            Tok::TyVar(_, n) => {
                self.bump();
                Ok(Type::Var(n))
            }
            _ => Err(self.error("a type")),
        }
    }

    fn btype(&mut self) -> Result<Base, Diagnostic> {
        let b = match self.peek() {
            Tok::Ident(s) => match s.as_str() {
                "int" => Base::Known(BaseType::Int),
                "double" => Base::Known(BaseType::Double),
                "bool" => Base::Known(BaseType::Bool),
                "char" => Base::Known(BaseType::Char),
                "complex" => Base::Known(BaseType::Complex),
                _ => return Err(self.error("a base type")),
            },
            Tok::TyVar(_, n) => Base::Var(*n),
            _ => return Err(self.error("a base type")),
        };
        self.bump();
        Ok(b)
    }

    /// `RANK ('+' RANK)*`: numbers (with `-`/`~`) and shape variables.
    fn rank(&mut self) -> Result<Shape, Diagnostic> {
        let mut s = Shape::lit(0);
        loop {
            let part = match *self.peek() {
                Tok::Int(n) if i32::try_from(n).is_ok() => Shape::lit(n),
                Tok::TyVar(_, v) => Shape::var(v),
                _ => return Err(self.error("a rank or static value")),
            };
            self.bump();
            s = s.add(&part);
            if !self.eat(&Tok::Plus) {
                return Ok(s);
            }
        }
    }
}
