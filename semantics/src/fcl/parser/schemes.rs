//! Parsing of levels, level parameter lists, types and type schemes (docs/fcl.md §2.3, §2.4),
//! including [O]'s spacing rules for `Z` and `1+`.

use super::{Parser, MAX_DEPTH};
use crate::fcl::lexer::Tok;
use crate::fcl::syntax::{Level, Scheme, Type, TypeKind};
use crate::Diagnostic;

impl Parser {
    /// `<l1, …>`: level parameter names (variables only).
    pub(super) fn level_params(&mut self) -> Result<Vec<String>, Diagnostic> {
        self.eat_sym("<")?;
        let mut names = Vec::new();
        if self.is_sym(">") {
            self.pos += 1;
            return Ok(names);
        }
        loop {
            let sp = self.here();
            let n = self.ident()?;
            if matches!(n.as_str(), "thread" | "block" | "grid") || n.starts_with('Z') {
                return Err(Diagnostic::parse(
                    sp,
                    format!("`{n}` cannot be a level variable"),
                ));
            }
            names.push(n);
            if self.is_sym(",") {
                self.pos += 1;
            } else {
                self.eat_sym(">")?;
                return Ok(names);
            }
        }
    }

    pub(super) fn level(&mut self) -> Result<Level, Diagnostic> {
        let start = self.here();
        let mut succs = 0u32;
        // `1+` prefixes, with the `1` touching the `+` (§2.3).
        while let (Some(Tok::Int(1)), Some(Tok::Sym("+"))) = (self.peek(), self.peek_at(1)) {
            let one = self.toks[self.pos].span;
            let plus = self.toks[self.pos + 1].span;
            if one.end != plus.start {
                return Err(Diagnostic::parse(one, "write `1+` without a space"));
            }
            self.pos += 2;
            succs += 1;
            if succs as usize > MAX_DEPTH {
                return Err(Diagnostic::parse(self.here(), "level nested too deeply"));
            }
        }
        let sp = self.here();
        let mut l = match self.peek() {
            Some(Tok::Ident(s)) => {
                let s = s.clone();
                self.pos += 1;
                match s.as_str() {
                    "thread" => Level::zero(),
                    "block" => Level::block(),
                    "grid" => Level::grid(),
                    "Z" => {
                        let next = self.toks.get(self.pos);
                        let ok = next.is_some_and(|t| {
                            t.span.start == sp.end && matches!(t.tok, Tok::Sym(">") | Tok::Sym(","))
                        });
                        if !ok {
                            return Err(Diagnostic::parse(
                                sp,
                                "`Z` must be followed directly by `>` or `,`",
                            ));
                        }
                        Level::zero()
                    }
                    _ if s.starts_with('Z') => {
                        return Err(Diagnostic::parse(
                            sp,
                            "a level variable cannot begin with `Z`",
                        ))
                    }
                    _ => Level::var(&s),
                }
            }
            _ => return Err(self.unexpected("a level")),
        };
        l.succs += succs;
        l.span = self.span_from(start);
        Ok(l)
    }

    /// `<l>` after `Program`, `]` or `do`.
    pub(super) fn level_in_brackets(&mut self) -> Result<Level, Diagnostic> {
        self.eat_sym("<")?;
        let l = self.level()?;
        self.eat_sym(">")?;
        Ok(l)
    }

    pub(super) fn scheme(&mut self) -> Result<Scheme, Diagnostic> {
        let start = self.here();
        let forall = if matches!(self.peek(), Some(Tok::Ident(s)) if s == "forall") {
            self.pos += 1;
            let levels = if self.is_sym("<") {
                self.level_params()?
            } else {
                Vec::new()
            };
            let mut tvs = Vec::new();
            while let Some(Tok::TyVar(v)) = self.peek() {
                tvs.push(v.clone());
                self.pos += 1;
            }
            self.eat_sym(".")?;
            Some((levels, tvs))
        } else {
            None
        };
        let ty = self.ty()?;
        Ok(Scheme {
            forall,
            ty,
            span: self.span_from(start),
        })
    }

    fn ty(&mut self) -> Result<Type, Diagnostic> {
        let saved = self.depth;
        let mut parts = vec![self.stype()?];
        while self.is_sym("->") {
            self.pos += 1;
            self.enter()?;
            parts.push(self.stype()?);
        }
        self.depth = saved;
        let mut t = parts.pop().expect("at least one part");
        while let Some(a) = parts.pop() {
            let span = a.span.to(t.span);
            t = Type {
                kind: TypeKind::Fun(Box::new(a), Box::new(t)),
                span,
            };
        }
        Ok(t)
    }

    fn stype(&mut self) -> Result<Type, Diagnostic> {
        self.enter()?;
        let start = self.here();
        let kind = self.stype_inner();
        self.depth -= 1;
        Ok(Type {
            kind: kind?,
            span: self.span_from(start),
        })
    }

    fn stype_inner(&mut self) -> Result<TypeKind, Diagnostic> {
        let t = match self.peek() {
            Some(Tok::Kw("int")) => TypeKind::Int,
            Some(Tok::Kw("double")) => TypeKind::Double,
            Some(Tok::Kw("bool")) => TypeKind::Bool,
            Some(Tok::Ident(s)) if s == "string" => TypeKind::Str,
            Some(Tok::Ident(s)) if s == "unit" => TypeKind::Unit,
            Some(Tok::TyVar(v)) => TypeKind::Var(v.clone()),
            Some(Tok::Ident(s)) if s == "Program" => {
                self.pos += 1;
                let l = self.level_in_brackets()?;
                let t = self.stype()?;
                return Ok(TypeKind::Program(l, Box::new(t)));
            }
            Some(Tok::Sym("(")) => {
                self.pos += 1;
                let a = self.ty()?;
                if self.is_sym(",") {
                    self.pos += 1;
                    let b = self.ty()?;
                    self.eat_sym(")")?;
                    return Ok(TypeKind::Pair(Box::new(a), Box::new(b)));
                }
                self.eat_sym(")")?;
                // Parentheses leave no node.
                return Ok(a.kind);
            }
            Some(Tok::Sym("[")) => {
                self.pos += 1;
                let a = self.ty()?;
                self.eat_sym("]")?;
                if self.is_sym("<") {
                    let l = self.level_in_brackets()?;
                    return Ok(TypeKind::Push(Box::new(a), l));
                }
                return Ok(TypeKind::Pull(Box::new(a)));
            }
            _ => return Err(self.unexpected("a type")),
        };
        self.pos += 1;
        Ok(t)
    }
}
