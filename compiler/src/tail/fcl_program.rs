//! The lowering's output: an FCL program as a syntax tree, handed to the FCL front end as it
//! is ([`FclProgram::load`]), with the comments that explain it to a reader of
//! `compile --emit fcl` ([`FclProgram::text`]: the FCL printer, comments interleaved).

use super::lowerer::Line;
use super::tree::{fcl, Fcl, Stmt};
use semantics::fcl::load::FileDiagnostic;
use semantics::fcl::printer::{print_expr, print_program};
use semantics::fcl::syntax::{Decl, DeclKind, ExprKind, Level, Program, Scheme, TypeKind};
use semantics::Span;

/// The name the lowered program's diagnostics are reported against.
const FILE: &str = "lowered.fcl";

/// A lowered FCL program: helper declarations, then `main`'s `do<grid>` block of statements.
#[derive(Clone, Debug)]
pub struct FclProgram {
    /// The program itself.
    pub tree: Program,
    /// Comment lines printed before the declarations.
    header: Vec<String>,
    /// Comments printed before `main`'s statements: (statement number, comment).
    comments: Vec<(usize, String)>,
}

impl FclProgram {
    /// The program of `helpers` (declarations) and a `main` running `lines`, then returning
    /// unit.
    pub(super) fn new(header: Vec<String>, helpers: Vec<Decl>, lines: Vec<Line>) -> FclProgram {
        let mut stmts = Vec::new();
        let mut comments = Vec::new();
        for l in lines {
            match l {
                Line::Comment(c) => comments.push((stmts.len(), c)),
                Line::Stmt(s) => stmts.push(s),
            }
        }
        stmts.push(Stmt::Expr(fcl!("return<grid> ()")));
        let unit = semantics::fcl::quote::ty(TypeKind::Unit);
        let main = Decl {
            sig: Some((
                "main".into(),
                Scheme {
                    forall: None,
                    ty: semantics::fcl::quote::ty(TypeKind::Program(Level::grid(), Box::new(unit))),
                    span: Span::DUMMY,
                },
            )),
            kind: DeclKind::Val,
            name: "main".into(),
            levels: Vec::new(),
            params: Vec::new(),
            body: semantics::fcl::quote::do_block(Level::grid(), stmts),
            span: Span::DUMMY,
        };
        let mut decls = helpers;
        decls.push(main);
        FclProgram {
            tree: Program { decls },
            header,
            comments,
        }
    }

    /// The program through the FCL front end (type checking, monomorphization, lowering to
    /// core terms), from the tree: nothing is printed or parsed.
    pub fn load(&self) -> Result<semantics::fcl::lower::Program, FileDiagnostic> {
        semantics::fcl::lower::load_tree(FILE, &self.tree)
    }

    /// The lowering's comments on `main`'s statements, in order (a loop step's among them).
    pub fn comments(&self) -> impl Iterator<Item = &str> {
        self.comments.iter().map(|(_, c)| c.as_str())
    }

    /// `main`'s statements.
    fn main_stmts(&self) -> &[Stmt] {
        match self.tree.decls.last().map(|d| &d.body.kind) {
            Some(ExprKind::Do(_, stmts)) => stmts,
            _ => &[],
        }
    }

    /// The program as FCL source: the printer's text of every declaration, `main`'s
    /// statements one per line with their comments. It parses back to [`FclProgram::tree`].
    pub fn text(&self) -> String {
        self.render(&indented)
    }

    /// [`FclProgram::text`] with each of `main`'s statements on one line, however long: for
    /// looking at the program line by line (`grep`, tests).
    pub fn flat_text(&self) -> String {
        self.render(&|e| {
            semantics::fcl::printer::print_expr_flat(e)
                .trim_end()
                .to_string()
        })
    }

    fn render(&self, print: &dyn Fn(&Fcl) -> String) -> String {
        let mut out = String::new();
        for h in &self.header {
            out.push_str(&format!("-- {h}\n"));
        }
        let helpers = &self.tree.decls[..self.tree.decls.len().saturating_sub(1)];
        if !helpers.is_empty() {
            out.push_str(&print_program(&Program {
                decls: helpers.to_vec(),
            }));
            out.push('\n');
        }
        out.push_str("sig main : Program <grid> unit\nval main =\n  do<grid>\n");
        let mut notes = self.comments.iter().peekable();
        for (k, s) in self.main_stmts().iter().enumerate() {
            while let Some((_, c)) = notes.next_if(|(at, _)| *at == k) {
                for line in c.lines() {
                    out.push_str(&format!("    -- {line}\n"));
                }
            }
            let text = match s {
                Stmt::Bind(x, e) => format!("{x} <- {}", print(e)),
                Stmt::Expr(e) => print(e),
            };
            let sep = if k == 0 { '{' } else { ';' };
            out.push_str(&format!("  {sep} {text}\n"));
        }
        out.push_str("  }\n");
        out
    }
}

impl std::fmt::Display for FclProgram {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text())
    }
}

/// An expression printed on lines after the first indented to sit inside `main`'s block.
fn indented(e: &Fcl) -> String {
    print_expr(e).trim_end().replace('\n', "\n      ")
}

/// The declarations of an FCL library text the compiler holds (a helper such as `tabulate`):
/// fixed source, so that failing to parse is a bug the tests catch.
pub(super) fn helper_decls(src: &str) -> Result<Vec<Decl>, String> {
    let mut p = semantics::fcl::parser::parse_program(src)
        .map_err(|d| format!("a helper of the lowering does not parse: {}", d.message))?;
    p.erase_spans();
    Ok(p.decls)
}

#[cfg(test)]
mod tests {
    /// `--emit fcl` prints what the FCL front end is given: the text parses back to the tree
    /// (comments and all), for programs with tables, loops, sorts and prints.
    #[test]
    fn the_printed_program_parses_back_to_the_tree() {
        for src in [
            "reduce(addi,0,each(fn x:[int]0 => muli(x,x),iota(10)))",
            "let v:[int]1 = [3,1,4,1,5,9,2,6,5,3] in i2d(reduce(addi,0,each(fn i:[int]0 => idxS(1,i,v),each(fn i:[int]0 => addi(1,resi(10,muli(i,7))),iota(20)))))",
            "power(fn v:[int]1 => compress(each(fn x:[int]0 => gti(resi(7,x),0),v),v),3,iota(100))",
            "let s:[int]1 = prArrI(gradeUp(each(fn x:[int]0 => resi(13,muli(x,5)),iota(50)))) in 0",
        ] {
            let l = crate::tail::lower_tail(src).unwrap_or_else(|e| panic!("{src}: {e}"));
            let text = l.fcl.text();
            let mut parsed = semantics::fcl::parser::parse_program(&text)
                .unwrap_or_else(|d| panic!("{src}: {}\n{text}", d.message));
            parsed.erase_spans();
            let mut tree = l.fcl.tree.clone();
            tree.erase_spans();
            assert!(parsed == tree, "{src}: the text is not the tree\n{text}");
            let mut flat = semantics::fcl::parser::parse_program(&l.fcl.flat_text()).unwrap();
            flat.erase_spans();
            assert!(flat == tree, "{src}: the flat text is not the tree");
        }
    }
}
