//! File reads (`readFile`, `readIntVecFile`, `readDoubleVecFile`, spec §5.13 and §7) as
//! host-level operations: the host reads the file when the program is lowered for a run (`exec`
//! lowers and runs in one process, so the read happens as the run starts), with the TAIL
//! semantics' own readers, so the path is resolved as the TAIL oracle resolves it (relative to
//! the working directory) and the contents parse as they do there. The contents become a
//! *table*: a buffer stored once when `main` starts, which every use reads at computed
//! indices; the file's length is a static extent. A file that cannot be read or does not
//! parse is the TAIL program's run-time failure at that application (rule 3.75, the oracle's
//! reason). `compile --emit fcl` embeds the contents as of compile time.
//!
//! `nowi(0)` is an input read later: FCL's grid-level `nowMs`, which the host evaluates when it
//! runs `main` (the FCL oracle when it reaches it), so its value is the run's, not the
//! lowering's.

use super::lowerer::{fails, Lowerer};
use super::tree::{fcl, fcl_stmt, Fcl};
use super::value::{scalar_expr, unsupported, Arr, Ty, Val, MAX_KNOWN, R};
use semantics::tail::ops::apply::{apply, OpEnv};
use semantics::tail::ops::io;
use semantics::tail::ops::prim::Prim;
use semantics::tail::syntax::Expr;
use std::cell::OnceCell;
use std::rc::Rc;

impl Lowerer {
    /// `p(name)` for a file read `p` with file-name argument `file`.
    pub(super) fn read_input(&mut self, p: Prim, op: &str, e: &Expr, file: &Arr) -> R<Val> {
        if self.kernel {
            return unsupported(format!(
                "{op} inside a function body (a file read is a host-level operation of `main`)"
            ));
        }
        let Some(name) = file.known.as_deref() else {
            return unsupported(format!("{op} of a file name not known at compile time"));
        };
        let name = io::string_of(name).map_err(|reason| fails(p, op, e, reason))?;
        let read = match p {
            Prim::ReadFile => io::read_file(&name),
            Prim::ReadIntVecFile => io::read_int_vec_file(&name),
            _ => io::read_double_vec_file(&name),
        };
        let contents = read.map_err(|reason| fails(p, op, e, reason))?;
        let ty = Ty::of(contents.base_type());
        let texts: Rc<Vec<Fcl>> = Rc::new(
            (0..contents.size())
                .map(|i| scalar_expr(contents.elems.get(i)))
                .collect(),
        );
        // every element is read from the buffer, at literal indices too: the file's
        // contents are the program's input, not constants of its text
        let (fresh, table) = (self.fresh.clone(), Rc::new(OnceCell::new()));
        let mut a = Arr::new(ty, contents.shape.clone(), move |i: &Fcl| {
            let t = table.get_or_init(|| fresh.table_of(ty, texts.clone(), Some(name.clone())));
            ty.load(&fcl!("(index {t} {i})"))
        });
        // the contents ride along for static decisions (a read shape or count), as any value
        // known when the program is lowered
        if contents.size() <= MAX_KNOWN {
            a.known = Some(Rc::new(contents));
        }
        Ok(Val::Arr(a))
    }

    /// `nowi(x)`: milliseconds since the process started, a host value read when `main` runs
    /// (FCL's `nowMs`, docs/fcl-extensions.md §9); x ≠ 0 fails as on the oracle.
    pub(super) fn nowi(&mut self, p: Prim, op: &str, e: &Expr, x: &Arr) -> R<Val> {
        if self.kernel {
            return unsupported(format!(
                "{op} inside a function body (a host value read when `main` runs)"
            ));
        }
        if let Some(known) = x.known.as_deref() {
            if let Err(reason) = apply(p, &[known], &mut OpEnv::default()) {
                return Err(fails(p, op, e, reason));
            }
        }
        let t = self.fresh.name("t");
        self.stmt(fcl_stmt!("{t} <- nowMs 0"));
        let reading = match x.known {
            Some(_) => fcl!("{t}"),
            // an argument the device computes: checked to be 0 where the reading is used
            None => {
                super::check::checked_clock_argument(&self.fresh, e.span, &x.expr(), &fcl!("{t}"))
            }
        };
        Ok(Val::Arr(Arr::scalar(Ty::Int, reading)))
    }
}
