//! The FCL front end as one pipeline: parse every file (the prelude first), desugar with one
//! counter, infer, and — for running and compiling — monomorphize. Files share one span space
//! (each starts where the previous one ended), and diagnostics are mapped back to their file.

use super::builtins;
use super::desugar::Desugarer;
use super::infer::{Inference, TKind, TTerm, TypedDecl};
use super::mono::{monomorphize, MonoProgram};
use super::parser::parse_program_here;
use super::syntax::Program;
use super::types::{Level, Scheme, Type};
use crate::{Diagnostic, Span};
use std::sync::OnceLock;

/// The standard prelude, with the original's signatures (spec §5).
pub const PRELUDE: &str = include_str!("prelude.fcl");
/// The thesis's library functions the original prelude lacks (reverse, splitGrid, concatGrid).
pub const PRELUDE_THESIS: &str = include_str!("prelude_thesis.fcl");

/// The file name diagnostics in the prelude are reported against.
pub const PRELUDE_NAME: &str = "<prelude>";
/// The file name of the thesis library.
pub const PRELUDE_THESIS_NAME: &str = "<prelude-thesis>";

/// Where the desugar counter of the thesis library starts.
const THESIS_COUNTER_START: u32 = 10_000;

/// A diagnostic with the name of the file it belongs to (its span is relative to that file).
pub type FileDiagnostic = (String, Diagnostic);

/// Source files laid out in one span space.
struct Sources {
    files: Vec<(String, String)>,
    bases: Vec<usize>,
    /// Programs built as syntax trees (a program generator's output) rather than read from
    /// text, by file index: such a file's text is empty and its spans are dummies.
    trees: Vec<Option<Program>>,
}

impl Sources {
    /// One file whose program is the tree `p`, after the prelude.
    fn of_tree(name: &str, p: &Program) -> Sources {
        let mut s = Sources::new(&[(name.to_string(), String::new())], true);
        s.trees = vec![None; s.files.len()];
        if let Some(last) = s.trees.last_mut() {
            *last = Some(p.clone());
        }
        s
    }

    fn new(user: &[(String, String)], prelude: bool) -> Sources {
        let mut files = Vec::new();
        if prelude {
            files.push((PRELUDE_NAME.to_string(), PRELUDE.to_string()));
            files.push((PRELUDE_THESIS_NAME.to_string(), PRELUDE_THESIS.to_string()));
        }
        files.extend(user.iter().cloned());
        let mut bases = Vec::new();
        let mut at = 0;
        for (_, src) in &files {
            bases.push(at);
            at += src.len() + 1;
        }
        Sources {
            trees: vec![None; files.len()],
            files,
            bases,
        }
    }

    /// Maps a diagnostic in the shared span space back to its file.
    fn locate(&self, mut d: Diagnostic) -> FileDiagnostic {
        let pos = d.span.start as usize;
        let i = self.bases.iter().rposition(|b| *b <= pos).unwrap_or(0);
        let base = self.bases.get(i).copied().unwrap_or(0);
        d.span = Span::new(
            pos - base,
            (d.span.end as usize).saturating_sub(base).max(pos - base),
        );
        let name = self.files.get(i).map(|f| f.0.clone()).unwrap_or_default();
        (name, d)
    }

    /// Parses, desugars and infers every file after the prelude, continuing from the prelude's
    /// snapshot (or from Γ_init without the prelude).
    fn typed(&self, prelude: bool) -> Result<Vec<TypedDecl>, FileDiagnostic> {
        let (mut inference, mut typed, mut counter, first) = if prelude {
            let snap = prelude_snapshot();
            let counter = Desugarer::starting_at(snap.counter);
            (snap.inference.clone(), snap.typed.clone(), counter, 2)
        } else {
            let inference = Inference::new(builtins::shared_environment());
            (inference, Vec::new(), Desugarer::new(), 0)
        };
        for i in first..self.files.len() {
            let parsed;
            let p = match &self.trees[i] {
                Some(p) => p,
                None => {
                    parsed = parse_program_here(&self.files[i].1, self.bases[i])
                        .map_err(|d| self.locate(d))?;
                    &parsed
                }
            };
            for d in counter.program(p).map_err(|d| self.locate(d))? {
                typed.push(inference.declare(&d, i).map_err(|d| self.locate(d))?);
            }
        }
        Ok(typed)
    }
}

/// The prelude, inferred once per process: the inference state after it, its typed
/// declarations and the desugar counter (50) the user's files continue from.
struct PreludeSnapshot {
    inference: Inference,
    typed: Vec<TypedDecl>,
    counter: u32,
}

fn prelude_snapshot() -> &'static PreludeSnapshot {
    static SNAPSHOT: OnceLock<PreludeSnapshot> = OnceLock::new();
    SNAPSHOT.get_or_init(|| {
        let sources = Sources::new(&[], true);
        let mut inference = Inference::new(builtins::shared_environment());
        let mut counter = Desugarer::new();
        // The thesis library has its own counter, so that it does not shift user numbers.
        let mut thesis = Desugarer::starting_at(THESIS_COUNTER_START);
        let mut typed = Vec::new();
        for (i, (_, src)) in sources.files.iter().enumerate() {
            let desugarer = if i == 0 { &mut counter } else { &mut thesis };
            // The prelude is fixed text, checked by the tests: an error here is a bug in it.
            let p = parse_program_here(src, sources.bases[i]).expect("the prelude parses");
            for d in desugarer.program(&p).expect("the prelude desugars") {
                typed.push(inference.declare(&d, i).expect("the prelude type-checks"));
            }
        }
        PreludeSnapshot {
            inference,
            typed,
            counter: counter.counter(),
        }
    })
}

/// `(file name, base offset)` of every source file in the shared span space, prelude first.
pub fn source_layout(files: &[(String, String)], prelude: bool) -> Vec<(String, usize)> {
    let s = Sources::new(files, prelude);
    s.files.into_iter().map(|f| f.0).zip(s.bases).collect()
}

/// A type-checked program: every top-level declaration (prelude first) with its scheme.
pub struct Checked {
    pub decls: Vec<TypedDecl>,
    /// The file index of the thesis library, whose declarations `check` does not list.
    pub thesis_file: Option<usize>,
}

impl Checked {
    /// The `check` output (spec §6): one `name : scheme` line per top-level declaration. The
    /// thesis library (reverse, splitGrid, concatGrid) is our extension of the prelude; leaving
    /// it out keeps the output identical to the original compiler's.
    pub fn listing(&self) -> String {
        let mut out = String::new();
        for d in self
            .decls
            .iter()
            .filter(|d| Some(d.file) != self.thesis_file)
        {
            out.push_str(&format!("{} : {}\n", d.name, d.scheme.render()));
        }
        out
    }
}

/// Parses and type-checks `files` (name, text), after the prelude unless `prelude` is false.
pub fn check_program(files: &[(String, String)], prelude: bool) -> Result<Checked, FileDiagnostic> {
    super::stack::with_big_stack(|| check_here(files, prelude))
}

pub(super) fn check_here(
    files: &[(String, String)],
    prelude: bool,
) -> Result<Checked, FileDiagnostic> {
    let sources = Sources::new(files, prelude);
    let typed = sources.typed(prelude)?;
    Ok(Checked {
        decls: typed,
        thesis_file: prelude.then_some(1),
    })
}

/// Type-checks and monomorphizes a program for running or compiling: its value is the last
/// declaration named `main`, which must have type `Program <grid> τ` (spec §2.1).
pub fn monomorphic_program(
    files: &[(String, String)],
    prelude: bool,
) -> Result<MonoProgram, FileDiagnostic> {
    super::stack::with_big_stack(|| monomorphic_here(files, prelude))
}

/// [`monomorphic_program`] of one program given as a syntax tree (a program generator's
/// output: the TAIL lowering), after the prelude: nothing is printed or parsed.
pub fn monomorphic_tree(name: &str, p: &Program) -> Result<MonoProgram, FileDiagnostic> {
    super::stack::with_big_stack(|| monomorphic_of(Sources::of_tree(name, p), true))
}

pub(super) fn monomorphic_here(
    files: &[(String, String)],
    prelude: bool,
) -> Result<MonoProgram, FileDiagnostic> {
    monomorphic_of(Sources::new(files, prelude), prelude)
}

fn monomorphic_of(sources: Sources, prelude: bool) -> Result<MonoProgram, FileDiagnostic> {
    let typed = sources.typed(prelude)?;
    let end =
        sources.bases.last().copied().unwrap_or(0) + sources.files.last().map_or(0, |f| f.1.len());
    let main = typed.iter().rev().find(|d| d.name == "main");
    let ok = |s: &Scheme| {
        s.tyvars.is_empty()
            && s.levels.is_empty()
            && matches!(s.ty, Type::Program(l, _) if l == Level::GRID)
    };
    let main_term = match main {
        Some(d) if ok(&d.scheme) => TTerm {
            kind: TKind::Var("main".into(), Vec::new()),
            ty: d.scheme.ty.clone(),
            span: d.span,
        },
        Some(d) => {
            return Err(sources.locate(Diagnostic::type_error(
                d.span,
                format!(
                    "`main` has type `{}`; it must have type `Program <grid> t` for some closed t",
                    d.scheme.render().replace('\n', "")
                ),
            )))
        }
        None => {
            return Err(sources.locate(Diagnostic::type_error(
                Span::new(end, end),
                "the program has no `main` declaration of type `Program <grid> t`",
            )))
        }
    };
    monomorphize(&typed, &main_term).map_err(|d| sources.locate(d))
}
