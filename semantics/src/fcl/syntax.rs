//! The FCL surface syntax (docs/fcl.md §2): declarations, expressions, levels, types and schemes,
//! exactly as written, with a [`Span`] on every node. Desugaring (§2.5) happens in `desugar`.

use crate::Span;
use std::sync::Arc;

/// A level as written (§2.3): `succs` applications of `1+` to `Z` (`var` is `None`) or to a
/// level variable. `thread` is `Z`, `block` is `1+Z`, `grid` is `1+1+Z`.
#[derive(Clone, Debug, PartialEq)]
pub struct Level {
    pub succs: u32,
    pub var: Option<String>,
    pub span: Span,
}

impl Level {
    /// `Z` / `thread`.
    pub fn zero() -> Level {
        Level {
            succs: 0,
            var: None,
            span: Span::DUMMY,
        }
    }
    /// `block`.
    pub fn block() -> Level {
        Level {
            succs: 1,
            ..Level::zero()
        }
    }
    /// `grid`.
    pub fn grid() -> Level {
        Level {
            succs: 2,
            ..Level::zero()
        }
    }
    /// The level variable `name`.
    pub fn var(name: &str) -> Level {
        Level {
            var: Some(name.to_string()),
            ..Level::zero()
        }
    }
    /// `1+self`.
    pub fn succ(self) -> Level {
        Level {
            succs: self.succs + 1,
            ..self
        }
    }
}

/// A type as written in a signature or annotation (§2.4), with its span.
#[derive(Clone, Debug, PartialEq)]
pub struct Type {
    pub kind: TypeKind,
    pub span: Span,
}

impl Type {
    /// Sets every span in this type to [`Span::DUMMY`].
    pub fn erase_spans(&mut self) {
        self.span = Span::DUMMY;
        match &mut self.kind {
            TypeKind::Fun(a, b) | TypeKind::Pair(a, b) => {
                a.erase_spans();
                b.erase_spans();
            }
            TypeKind::Pull(a) => a.erase_spans(),
            TypeKind::Push(a, l) | TypeKind::Program(l, a) => {
                l.span = Span::DUMMY;
                a.erase_spans();
            }
            _ => {}
        }
    }
}

/// The type forms of §2.4.
#[derive(Clone, Debug, PartialEq)]
pub enum TypeKind {
    Int,
    Double,
    Bool,
    Str,
    Unit,
    /// `'a` (the name without the quote).
    Var(String),
    Fun(Box<Type>, Box<Type>),
    Pair(Box<Type>, Box<Type>),
    /// `[t]`, a pull array.
    Pull(Box<Type>),
    /// `[t]<l>`, a push array.
    Push(Box<Type>, Level),
    /// `Program <l> t`.
    Program(Level, Box<Type>),
}

/// A type scheme `forall <ls> 'as. t`, or a bare type (no `forall`).
#[derive(Clone, Debug, PartialEq)]
pub struct Scheme {
    /// `Some((level vars, type vars))` when a `forall` is written.
    pub forall: Option<(Vec<String>, Vec<String>)>,
    pub ty: Type,
    pub span: Span,
}

/// The infix operators of §2.2 (all left-associative).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Pipe,
    Eq,
    Neq,
    Shl,
    Shr,
    And,
    Add,
    Sub,
    Mul,
    Div,
    Mod,
}

impl BinOp {
    /// Precedence level, 1 (lowest) to 5.
    pub fn precedence(self) -> u8 {
        match self {
            BinOp::Pipe => 1,
            BinOp::Eq | BinOp::Neq => 2,
            BinOp::Shl | BinOp::Shr | BinOp::And => 3,
            BinOp::Add | BinOp::Sub => 4,
            BinOp::Mul | BinOp::Div | BinOp::Mod => 5,
        }
    }

    /// The source token.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Pipe => "|>",
            BinOp::Eq => "==",
            BinOp::Neq => "!=",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
            BinOp::And => "&",
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Mod => "%",
        }
    }

    /// The built-in the operator desugars to (`None` for `|>`, which is reverse application).
    pub fn builtin(self) -> Option<&'static str> {
        Some(match self {
            BinOp::Pipe => return None,
            BinOp::Eq => "eqi",
            BinOp::Neq => "neqi",
            BinOp::Shl => "sll",
            BinOp::Shr => "srl",
            BinOp::And => "andi",
            BinOp::Add => "addi",
            BinOp::Sub => "subi",
            BinOp::Mul => "muli",
            BinOp::Div => "divi",
            BinOp::Mod => "modi",
        })
    }
}

/// An expression with its source span.
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

/// One statement of a `do` block.
#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    /// `x <- e`.
    Bind(String, Expr),
    /// `e`.
    Expr(Expr),
}

/// The expression forms of §2.2. Subexpressions are shared (`Arc`), so that a program
/// generator that repeats a subtree (the TAIL lowering's index functions) copies it in O(1).
#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    Int(i64),
    Double(f64),
    Bool(bool),
    Str(String),
    Unit,
    /// `x` or `x<l1,…>`.
    Var(String, Vec<Level>),
    Pair(Arc<Expr>, Arc<Expr>),
    /// `fn x y => e`.
    Fn(Vec<String>, Arc<Expr>),
    App(Arc<Expr>, Arc<Expr>),
    BinOp(BinOp, Arc<Expr>, Arc<Expr>),
    If(Arc<Expr>, Arc<Expr>, Arc<Expr>),
    /// `let x<ls> : σ = e1 in e2`.
    Let {
        name: String,
        levels: Vec<String>,
        sig: Option<Scheme>,
        rhs: Arc<Expr>,
        body: Arc<Expr>,
    },
    /// `do<l> { s1 ; … ; e }`.
    Do(Level, Vec<Stmt>),
}

/// `fun` (with parameters) or `val` (without).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeclKind {
    Fun,
    Val,
}

/// One top-level declaration with its optional preceding `sig`.
#[derive(Clone, Debug, PartialEq)]
pub struct Decl {
    /// The name written after `sig` ([O] does not check it against `name`).
    pub sig: Option<(String, Scheme)>,
    pub kind: DeclKind,
    pub name: String,
    pub levels: Vec<String>,
    pub params: Vec<String>,
    pub body: Expr,
    pub span: Span,
}

/// A parsed source file: its declarations in order.
#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    pub decls: Vec<Decl>,
}

impl Program {
    /// Sets every span to [`Span::DUMMY`], so that programs can be compared modulo positions.
    pub fn erase_spans(&mut self) {
        for d in &mut self.decls {
            d.span = Span::DUMMY;
            if let Some((_, s)) = &mut d.sig {
                s.span = Span::DUMMY;
                s.ty.erase_spans();
            }
            d.body.erase_spans();
        }
    }
}

impl Expr {
    /// Calls `f` on each immediate subexpression, left to right (the expressions of a `do`
    /// block's statements included): the one place that knows where an `Expr` has children,
    /// for walks over trees too deep to recurse on.
    pub fn for_each_child<'a>(&'a self, mut f: impl FnMut(&'a Expr)) {
        match &self.kind {
            ExprKind::Int(_)
            | ExprKind::Double(_)
            | ExprKind::Bool(_)
            | ExprKind::Str(_)
            | ExprKind::Unit
            | ExprKind::Var(..) => {}
            ExprKind::Pair(a, b) | ExprKind::App(a, b) | ExprKind::BinOp(_, a, b) => {
                f(a);
                f(b);
            }
            ExprKind::Fn(_, b) => f(b),
            ExprKind::If(c, t, e) => {
                f(c);
                f(t);
                f(e);
            }
            ExprKind::Let { rhs, body, .. } => {
                f(rhs);
                f(body);
            }
            ExprKind::Do(_, stmts) => {
                for s in stmts {
                    match s {
                        Stmt::Bind(_, e) | Stmt::Expr(e) => f(e),
                    }
                }
            }
        }
    }

    /// Sets every span in this expression to [`Span::DUMMY`] (iteratively: trees may be deep).
    pub fn erase_spans(&mut self) {
        let mut stack: Vec<&mut Expr> = vec![self];
        while let Some(e) = stack.pop() {
            e.span = Span::DUMMY;
            match &mut e.kind {
                ExprKind::Int(_)
                | ExprKind::Double(_)
                | ExprKind::Bool(_)
                | ExprKind::Str(_)
                | ExprKind::Unit => {}
                ExprKind::Var(_, ls) => ls.iter_mut().for_each(|l| l.span = Span::DUMMY),
                ExprKind::Pair(a, b) | ExprKind::App(a, b) | ExprKind::BinOp(_, a, b) => {
                    stack.push(Arc::make_mut(a));
                    stack.push(Arc::make_mut(b));
                }
                ExprKind::Fn(_, b) => stack.push(Arc::make_mut(b)),
                ExprKind::If(a, b, c) => {
                    stack.push(Arc::make_mut(a));
                    stack.push(Arc::make_mut(b));
                    stack.push(Arc::make_mut(c));
                }
                ExprKind::Let { sig, rhs, body, .. } => {
                    if let Some(s) = sig {
                        s.span = Span::DUMMY;
                        s.ty.erase_spans();
                    }
                    stack.push(Arc::make_mut(rhs));
                    stack.push(Arc::make_mut(body));
                }
                ExprKind::Do(l, stmts) => {
                    l.span = Span::DUMMY;
                    for s in stmts {
                        match s {
                            Stmt::Bind(_, e) | Stmt::Expr(e) => stack.push(e),
                        }
                    }
                }
            }
        }
    }
}
