//! The statements that store values: arrays materialized into global buffers, the prints
//! (`pr*` and the program's result, read back by the host), and a vector or array of run-time
//! shape settled to a static one by reading its length or extents back (module `probe`).

use super::complex::{read_pair, stored_slot};
use super::coords::select;
use super::lowerer::{Lowerer, TABULATE};
use super::tree::{described, fcl, fcl_stmt, int, is_atomic, times, var, var_name, Fcl, Name};
use super::value::{known_ints, unsupported, Arr, Index, Ty, R};
use super::{Output, ResultKind};
use semantics::fcl::syntax::ExprKind;
use std::rc::Rc;

impl Lowerer {
    /// Forces an array into a global buffer (a statement of `main`) and returns the array that
    /// reads it; inside a kernel, the array itself.
    pub(super) fn materialize(&mut self, a: &Arr, why: &str) -> Arr {
        if self.kernel || a.size() == 0 || reads_a_buffer(&(a.index)(&var("i"))) {
            return a.clone();
        }
        let n = self.host_count(slots(a));
        let m = self.fresh.name("m");
        let body = stored_slot(&self.fresh, a, &var("i"));
        self.helpers.insert(TABULATE);
        self.comment(format!("materialize {why}: {}", described(&n)));
        self.stmt(fcl_stmt!(
            "{m} <- forceM<grid> (tabulate {n} (fn i => {body}))"
        ));
        self.read_back(a, m)
    }

    /// Forces, prints and returns a value (the `pr*` operators and the program's result).
    /// `bare_chars`: `prArrC`'s layout (spec §6.3).
    pub(super) fn print(&mut self, a: &Arr, bare_chars: bool) -> R<Arr> {
        if self.kernel {
            return unsupported("printing inside a function");
        }
        let (kind, body_of): (ResultKind, Index) = match (&a.int_source, a.ty) {
            (Some(ints), Ty::Double) => (ResultKind::IntAsDouble, ints.clone()),
            (_, Ty::Double) => (ResultKind::Double, a.index.clone()),
            (_, Ty::Int) => (ResultKind::Int, a.index.clone()),
            (_, Ty::Bool) => (ResultKind::Bool, a.index.clone()),
            (_, Ty::Char) if bare_chars => (ResultKind::CharText, a.index.clone()),
            (_, Ty::Char) => (ResultKind::Char, a.index.clone()),
            (_, Ty::Complex) => (ResultKind::Complex, a.index.clone()),
        };
        self.outputs.push(Output {
            shape: a.shape.clone(),
            kind,
            dynamic: a.is_dynamic(),
            repeats: None,
        });
        if a.size() == 0 && !a.shape.is_empty() {
            // nothing to compute: the host prints the empty array from its shape
            return Ok(a.clone());
        }
        let n = self.host_count(slots(a));
        let i = var("i");
        let body = match kind {
            ResultKind::Bool => fcl!("b2i {}", body_of(&i)),
            ResultKind::Complex => stored_slot(&self.fresh, a, &i),
            _ => body_of(&i),
        };
        let print = var(match kind {
            ResultKind::Double | ResultKind::Complex => "forceAndPrintDoubleExact",
            _ => "forceAndPrint",
        });
        let p = self.fresh.name("p");
        let pp = suffixed(&p);
        self.helpers.insert(TABULATE);
        self.stmt(fcl_stmt!("{pp} <- tabulate {n} (fn i => {body})"));
        self.stmt(fcl_stmt!("{p} <- {print} {n} {pp}"));
        if let Some(dims) = &a.run_dims {
            // then the extents, on a line of their own: the host keeps their product of
            // elements, in that shape
            let q = self.fresh.name("p");
            let qp = suffixed(&q);
            let extents: Vec<Fcl> = dims.iter().map(|d| (**d).clone()).collect();
            let n = dims.len();
            self.comment("the extents of an array computed on the device");
            self.stmt(fcl_stmt!(
                "{qp} <- tabulate {n} (fn i => {})",
                select(&i, &extents)
            ));
            self.stmt(fcl_stmt!("{q} <- forceAndPrint {n} {qp}"));
        } else if let Some(len) = &a.run_len {
            // then the length, on a line of its own: the host keeps that many elements (after
            // the elements, so that a program failing in them prints neither line)
            let q = self.fresh.name("p");
            let qp = suffixed(&q);
            self.comment("the length of a vector computed on the device");
            self.stmt(fcl_stmt!("{qp} <- tabulate 1 (fn i => {len})"));
            self.stmt(fcl_stmt!("{q} <- forceAndPrint 1 {qp}"));
        }
        Ok(match kind {
            ResultKind::IntAsDouble => {
                // (only its type and shape matter: read_back reads the buffer instead)
                let mut ints = Arr::new(Ty::Int, a.shape.clone(), |_: &Fcl| {
                    semantics::fcl::quote::unit()
                });
                ints.run_len = a.run_len.clone();
                let ints = self.read_back(&ints, p.clone());
                let mut out = Arr::new(Ty::Double, a.shape.clone(), {
                    let ix = ints.index.clone();
                    move |i: &Fcl| fcl!("(i2d {})", ix(i))
                });
                out.known = a.known.clone();
                out.run_len = a.run_len.clone();
                out.int_source = Some(ints.index);
                out
            }
            _ => self.read_back(a, p),
        })
    }

    /// A count `n` (an FCL int) in a form the FCL host evaluates when it sizes a buffer or a
    /// launch, a loop's trips or an `if`'s: `n` itself where it is arithmetic on literals and
    /// buffer reads ([`host_evaluable`]), else a read of a buffer that a kernel fills with it
    /// first (the host evaluates no `let`, check, or `if` whose branch reads the device: an
    /// unbounded vector's length, module `capacity`, is often one).
    pub(super) fn host_count(&mut self, n: Fcl) -> Fcl {
        if host_evaluable(&n) {
            return n;
        }
        let c = self.fresh.name("count");
        self.helpers.insert(TABULATE);
        self.stmt(fcl_stmt!("{c} <- forceM<grid> (tabulate 1 (fn i => {n}))"));
        fcl!("(index {c} 0)")
    }

    /// The array reading buffer `m` (bools are stored as ints, complex numbers as two
    /// blocks of doubles).
    fn read_back(&self, a: &Arr, m: Name) -> Arr {
        let ty = a.ty;
        let mut out = if ty == Ty::Complex {
            let (fresh, n) = (self.fresh.clone(), a.stored_count());
            Arr::new(ty, a.shape.clone(), move |i: &Fcl| {
                read_pair(&fresh, &m, &int(0), &n, i)
            })
        } else {
            Arr::new(ty, a.shape.clone(), move |i: &Fcl| {
                ty.load(&fcl!("(index {m} {i})"))
            })
        };
        out.known = a.known.clone();
        out.range = a.range;
        out.run_len = a.run_len.clone();
        out.run_dims = a.run_dims.clone();
        out
    }

    /// `a` with a length known at compile time: a vector whose length the device computes
    /// ([`Arr::run_len`]) has it read back (module `probe`) where an operator (`what`) needs
    /// it static; inside a function body or a `power` step that is the refusal.
    pub(super) fn settle(&mut self, a: &Arr, what: &str) -> R<Arr> {
        let Some(len) = &a.run_len else {
            return Ok(a.clone());
        };
        if let Some(dims) = &a.run_dims {
            return self.settle_dims(a, dims, what);
        }
        let why = format!("the length of a vector computed on the device, used by {what}");
        if self.kernel || self.in_loop {
            return unsupported(why);
        }
        let known = self.probe(&Arr::scalar(Ty::Int, (**len).clone()), &why)?;
        let n = match known.known_scalar() {
            Some(semantics::tail::value::Scalar::Int(n)) => n,
            _ => return unsupported(why),
        };
        match usize::try_from(n) {
            Ok(n) if n <= a.size() => Ok(Arr {
                shape: vec![n],
                run_len: None,
                known: None,
                at: None,
                transposed: None,
                ..a.clone()
            }),
            _ => unsupported(format!("{why}: the device computed {n}")),
        }
    }

    /// `a`, an array whose extents the device computes ([`Arr::run_dims`]), with them read
    /// back (module `probe`) where an operator (`what`) needs its shape static.
    pub(super) fn settle_dims(&mut self, a: &Arr, dims: &[Rc<Fcl>], what: &str) -> R<Arr> {
        let why = format!("the shape of an array computed on the device, used by {what}");
        if self.kernel || self.in_loop {
            return unsupported(why);
        }
        // the extents, then their product as `run_len` computes it, which checks them: a
        // negative extent fails there with the oracle's rule, as the program would
        let mut texts: Vec<Fcl> = dims.iter().map(|d| (**d).clone()).collect();
        texts.extend(a.run_len.as_deref().cloned());
        let shape = Arr::new(Ty::Int, vec![texts.len()], move |i: &Fcl| select(i, &texts));
        let known = self.probe(&shape, &why)?;
        let extents = known.known.as_deref().and_then(known_ints).and_then(|ks| {
            ks.into_iter()
                .take(dims.len())
                .map(|k| usize::try_from(k).ok())
                .collect::<Option<Vec<usize>>>()
        });
        match extents {
            Some(ks)
                if ks.len() == a.shape.len() && ks.iter().zip(&a.shape).all(|(k, c)| k <= c) =>
            {
                Ok(Arr {
                    shape: ks,
                    run_len: None,
                    run_dims: None,
                    known: None,
                    at: None,
                    transposed: None,
                    ..a.clone()
                })
            }
            _ => unsupported(format!("{why}: the device computed another shape")),
        }
    }
}

/// The number of slots a buffer that stores `a` holds: [`Arr::stored_count`] elements
/// (an FCL int, the run-time length of an unbounded vector), each of its type's slots.
fn slots(a: &Arr) -> Fcl {
    match a.ty.slots() {
        1 => a.stored_count(),
        k => times(k, &a.stored_count()),
    }
}

/// Whether the FCL host evaluates int expression `e` as it is: no `let`, function or check in
/// it, and an `if` only between names and literals (the host computes both branches, so a
/// branch may not read the device, which an `if` on a length often guards).
fn host_evaluable(e: &Fcl) -> bool {
    let mut stack = vec![e];
    while let Some(e) = stack.pop() {
        match &e.kind {
            ExprKind::If(_, t, f) if !(is_atomic(t) && is_atomic(f)) => return false,
            ExprKind::Let { .. } | ExprKind::Fn(..) | ExprKind::Do(..) => return false,
            _ => e.for_each_child(|c| stack.push(c)),
        }
    }
    !super::check::has_checks(e)
}

/// Whether an element expression is a plain read of a buffer at the index `i` (`(index m5 i)`):
/// the array is stored already, and storing it again would only copy it.
fn reads_a_buffer(e: &Fcl) -> bool {
    let ExprKind::App(f, i) = &e.kind else {
        return false;
    };
    let ExprKind::App(index, buf) = &f.kind else {
        return false;
    };
    var_name(index) == Some("index") && var_name(buf).is_some() && var_name(i) == Some("i")
}

/// The name `{p}p` of the buffer a print statement prints (`p` names the printed one).
fn suffixed(p: &Name) -> Name {
    Name::new(&format!("{p}p"))
}
