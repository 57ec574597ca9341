//! Lowering of a monomorphic program (the output of `mono`) into the core terms the oracle and
//! the compiler consume (`core`): built-ins become saturated calls (partial applications are
//! eta-expanded into typed lambdas), `fst`/`snd` become projections, [O]'s indexed `power` is
//! [T]'s `poweri`, levels and types become concrete, and the top-level copies become nested lets
//! around `main`.
//!
//! [`load_program`] is the one entry point for the oracle and the compiler.

use super::core::{self, Builtin, ExprKind, ScalarOp};
use super::load::{monomorphic_program, source_layout, FileDiagnostic};
use super::mono::{MKind, MTerm, MonoProgram};
use super::types::{Level, Type};
use crate::{Diagnostic, Span};

/// A loaded FCL program: one closed core expression of type `Program <grid> τ` (the top-level
/// declarations `main` uses, as nested lets around `main`), plus the layout of its source files.
#[derive(Clone, Debug)]
pub struct Program {
    /// The program's value: `let d1 = … in … in main`.
    pub main: core::Expr,
    /// Its type, `Program <grid> τ`.
    pub ty: core::Type,
    /// `(file name, base offset)` of every source, prelude first. Spans in `main` are offsets
    /// into the files laid end to end; [`Program::locate`] maps them back.
    pub files: Vec<(String, usize)>,
}

impl Program {
    /// The file a span lies in, and the span relative to that file.
    pub fn locate(&self, span: Span) -> (String, Span) {
        let pos = span.start as usize;
        let i = self.files.iter().rposition(|(_, b)| *b <= pos).unwrap_or(0);
        let (name, base) = self.files.get(i).cloned().unwrap_or_default();
        let end = (span.end as usize)
            .saturating_sub(base)
            .max(pos - base.min(pos));
        (name, Span::new(pos - base.min(pos), end))
    }
}

/// Parses `files` (name, text) after the prelude, type-checks, monomorphizes and lowers them.
/// Errors carry the name of the file they are in and a span relative to it.
pub fn load_program(files: &[(String, String)]) -> Result<Program, FileDiagnostic> {
    load_program_with(files, true)
}

/// [`load_program`] of one program given as a syntax tree rather than text (the TAIL
/// lowering's output): the same pipeline after the parser. Its spans are dummies, so a
/// diagnostic points at the file's start.
pub fn load_tree(name: &str, p: &super::syntax::Program) -> Result<Program, FileDiagnostic> {
    let mono = super::load::monomorphic_tree(name, p)?;
    let layout = source_layout(&[(name.to_string(), String::new())], true);
    finish(mono, layout)
}

/// [`load_program`], with the prelude only when `prelude` is true (`--no-prelude`).
pub fn load_program_with(
    files: &[(String, String)],
    prelude: bool,
) -> Result<Program, FileDiagnostic> {
    let mono = monomorphic_program(files, prelude)?;
    finish(mono, source_layout(files, prelude))
}

/// Lowers a monomorphic program whose sources have `layout`.
fn finish(mono: MonoProgram, layout: Vec<(String, usize)>) -> Result<Program, FileDiagnostic> {
    let main = super::stack::with_big_stack(|| OwnedTree(lower_program(&mono))).0;
    let main = main.map_err(|d| {
        let p = Program {
            main: core::Expr::unit(Span::DUMMY),
            ty: core::Type::Unit,
            files: layout.clone(),
        };
        let (f, span) = p.locate(d.span);
        (f, Diagnostic { span, ..d })
    })?;
    Ok(Program {
        ty: core_type(&mono.main.ty),
        main,
        files: layout,
    })
}

/// Carries a freshly lowered tree from the big-stack worker thread back to the caller.
struct OwnedTree(Result<core::Expr, Diagnostic>);

// SAFETY: `Rc` is not `Send` because two threads could update one shared count. A tree built by
// `lower_program` creates every `Rc<str>` it holds afresh (`core::Expr::var`, `ExprKind::Str`)
// and never clones one, so each has a count of one and no other owner; the whole tree moves to
// the joining thread, and the worker keeps nothing.
unsafe impl Send for OwnedTree {}

/// Lowers a monomorphic program into nested lets around its entry expression.
pub fn lower_program(p: &MonoProgram) -> Result<core::Expr, Diagnostic> {
    let mut l = Lowering { fresh: 0 };
    let mut acc = l.term(&p.main)?;
    for (name, body) in p.bindings.iter().rev() {
        let bound = l.term(body)?;
        let span = body.span;
        acc = core::Expr::let_(name, core_type(&body.ty), bound, acc, span);
    }
    Ok(acc)
}

/// A concrete level (no variables are left after monomorphization).
pub fn core_level(l: Level) -> core::Level {
    core::Level(l.succs)
}

/// A closed type in the core's representation.
pub fn core_type(t: &Type) -> core::Type {
    match t {
        Type::Int => core::Type::Int,
        Type::Double => core::Type::Double,
        Type::Bool => core::Type::Bool,
        Type::Str => core::Type::Str,
        // Type variables cannot reach here (mono rejects them); unit is the harmless reading.
        Type::Unit | Type::Var(_) => core::Type::Unit,
        Type::Fun(a, b) => core::Type::fun(core_type(a), core_type(b)),
        Type::Pair(a, b) => core::Type::pair(core_type(a), core_type(b)),
        Type::Pull(a) => core::Type::pull(core_type(a)),
        Type::Push(a, l) => core::Type::push(core_type(a), core_level(*l)),
        Type::Program(l, a) => core::Type::program(core_level(*l), core_type(a)),
    }
}

/// What a built-in name lowers to: a projection or a core built-in.
enum Head {
    Fst,
    Snd,
    Call(Builtin),
}

fn builtin_head(name: &str, levels: &[Level], span: Span) -> Result<Head, Diagnostic> {
    let lvl = |i: usize| {
        levels
            .get(i)
            .map(|l| core_level(*l))
            .unwrap_or(core::Level::THREAD)
    };
    if let Some(op) = ScalarOp::from_name(name) {
        return Ok(Head::Call(Builtin::Scalar(op)));
    }
    Ok(Head::Call(match name {
        "fst" => return Ok(Head::Fst),
        "snd" => return Ok(Head::Snd),
        "generate" => Builtin::Generate,
        "index" => Builtin::Index,
        "lengthPull" => Builtin::LengthPull,
        "mapPull" => Builtin::MapPull,
        "push" => Builtin::Push(lvl(0)),
        "force" => Builtin::Force(lvl(0)),
        "return" => Builtin::Return(lvl(0)),
        "bind" => Builtin::Bind(lvl(0)),
        "interleave" => Builtin::Interleave(lvl(0)),
        "interleaveSeq" => Builtin::InterleaveSeq(lvl(0)),
        "seqfor" => Builtin::SeqFor,
        "mapPush" => Builtin::MapPush(lvl(0)),
        "lengthPush" => Builtin::LengthPush(lvl(0)),
        // [O]'s `power` passes the iteration index: it is [T]'s `poweri` (spec §9.1).
        "power" => Builtin::PowerI(lvl(0)),
        "while" => Builtin::While(lvl(0)),
        "forceAndPrint" => Builtin::ForceAndPrint,
        "forceAndPrintDouble" => Builtin::ForceAndPrintDouble,
        "forceAndPrintDoubleExact" => Builtin::ForceAndPrintDoubleExact,
        "benchmark" => Builtin::Benchmark,
        "readIntCSV" => Builtin::ReadIntCsv,
        "nowMs" => Builtin::NowMs,
        "#BlockSize" => Builtin::BlockSize,
        other => {
            return Err(Diagnostic::type_error(
                span,
                format!("the built-in `{other}` has no core form"),
            ))
        }
    }))
}

struct Lowering {
    fresh: usize,
}

impl Lowering {
    /// A name no FCL identifier can have (`%` is not an identifier character).
    fn fresh_name(&mut self) -> String {
        self.fresh += 1;
        format!("eta%{}", self.fresh)
    }

    fn term(&mut self, t: &MTerm) -> Result<core::Expr, Diagnostic> {
        let span = t.span;
        Ok(match &t.kind {
            MKind::Int(i) => core::Expr::int(*i as i32, span),
            MKind::Double(d) => core::Expr::double(*d, span),
            MKind::Bool(b) => core::Expr::bool(*b, span),
            MKind::Str(s) => core::Expr::new(ExprKind::Str(s.as_str().into()), span),
            MKind::Unit => core::Expr::unit(span),
            MKind::Var(x) => core::Expr::var(x, span),
            MKind::Pair(a, b) => core::Expr::pair(self.term(a)?, self.term(b)?, span),
            MKind::Fn(x, pt, body) => core::Expr::lam(x, core_type(pt), self.term(body)?, span),
            MKind::If(c, a, b) => {
                core::Expr::if_(self.term(c)?, self.term(a)?, self.term(b)?, span)
            }
            MKind::Let(x, rhs, body) => core::Expr::let_(
                x,
                core_type(&rhs.ty),
                self.term(rhs)?,
                self.term(body)?,
                span,
            ),
            MKind::Builtin(..) | MKind::App(..) => self.spine(t)?,
        })
    }

    /// An application spine `h a1 … an`: a built-in head gets a saturated call (eta-expanded
    /// when n is below its arity); any other head becomes nested applications.
    fn spine(&mut self, t: &MTerm) -> Result<core::Expr, Diagnostic> {
        let mut args = Vec::new();
        let mut head = t;
        while let MKind::App(f, a) = &head.kind {
            args.push(&**a);
            head = f;
        }
        args.reverse();
        let (name, levels) = match &head.kind {
            MKind::Builtin(n, l) => (n, l),
            _ => {
                let mut acc = self.term(head)?;
                for a in args {
                    let span = acc.span.to(a.span);
                    acc = core::Expr::app(acc, self.term(a)?, span);
                }
                return Ok(acc);
            }
        };
        let h = builtin_head(name, levels, head.span)?;
        let arity = match &h {
            Head::Fst | Head::Snd => 1,
            Head::Call(b) => b.arity(),
        };
        // The parameter types of the built-in at this instance.
        let mut params = Vec::new();
        let mut ty = &head.ty;
        while let Type::Fun(a, b) = ty {
            params.push(&**a);
            ty = b;
        }
        let mut lowered = Vec::new();
        for a in args.iter().take(arity) {
            lowered.push(self.term(a)?);
        }
        let span = t.span;
        let call = |h: &Head, mut xs: Vec<core::Expr>| match h {
            Head::Fst => core::Expr::fst(xs.remove(0), span),
            Head::Snd => core::Expr::snd(xs.remove(0), span),
            Head::Call(b) => core::Expr::call(*b, xs, span),
        };
        if lowered.len() < arity {
            // Eta-expansion: `let a1 = … in fn x : τ => … call(a1, …, x, …)`.
            let mut binds = Vec::new();
            let mut vars = Vec::new();
            for (e, p) in lowered.into_iter().zip(&params) {
                let n = self.fresh_name();
                vars.push(core::Expr::var(&n, span));
                binds.push((n, core_type(p), e));
            }
            let mut lams = Vec::new();
            for p in params.iter().take(arity).skip(vars.len()) {
                let n = self.fresh_name();
                vars.push(core::Expr::var(&n, span));
                lams.push((n, core_type(p)));
            }
            let mut acc = call(&h, vars);
            for (n, pt) in lams.into_iter().rev() {
                acc = core::Expr::lam(&n, pt, acc, span);
            }
            for (n, pt, e) in binds.into_iter().rev() {
                acc = core::Expr::let_(&n, pt, e, acc, span);
            }
            return Ok(acc);
        }
        let mut acc = call(&h, lowered);
        for a in args.iter().skip(arity) {
            acc = core::Expr::app(acc, self.term(a)?, span);
        }
        Ok(acc)
    }
}
