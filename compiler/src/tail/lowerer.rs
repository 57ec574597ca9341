//! The lowerer: the state a lowering carries (the statements of `main` so far, what they
//! print, the store of `idxassign`, the draws of `roll`), the checkpoints that undo an abandoned
//! attempt, and what every operator's lowering shares (`fails`, `stored_element`, `tabulate`).
//! Module `program` evaluates TAIL expressions with it; the operators' modules add statements.

use super::fault::LoweringFault;
use super::location::Store;
use super::tree::{int, Fcl, Name, Stmt};
use super::value::{Arr, Fresh, Loc, Ty, R};
use super::{LowerTailError, Output, RunFailure};
use semantics::tail::ops::prim::Prim;
use semantics::tail::syntax::{Expr, ExprKind};
use semantics::tail::value::Array;
use std::collections::{BTreeSet, HashMap};
use std::rc::Rc;

/// The lowering's state: the statements of `main` so far and what they print.
pub(super) struct Lowerer {
    pub fresh: Fresh,
    /// Statements of `main`'s `do<grid>` block, in evaluation order, with the comments that
    /// explain them in `compile --emit fcl`.
    pub stmts: Vec<Line>,
    /// The values printed so far (the `pr*` operators), in order.
    pub outputs: Vec<Output>,
    /// FCL helper declarations the statements use.
    pub helpers: BTreeSet<&'static str>,
    /// True while lowering a function body that runs per element inside a kernel: there is
    /// no `do` block to add statements to, so nothing is materialized or printed.
    pub kernel: bool,
    /// True while lowering the step of a loop (a `power` that becomes one FCL loop, a map
    /// whose function has statements): statements go into the step and run once per trip, so
    /// nothing is read back for the lowering (module `probe`) or updated in place there; its
    /// prints and draws from `roll` repeat per trip (modules `loops`, `roll`).
    pub in_loop: bool,
    /// How often each variable is used (a use inside a lambda counts as many).
    pub(super) uses: Rc<HashMap<String, usize>>,
    /// The arrays `idxassign` has updated, by location (module `location`).
    pub store: Store,
    /// While a `power` lowers its step as one loop: the locations made before the step whose
    /// arrays the step updates, which the loop's state carries after its own components
    /// (module `loops`); the step's lowering takes them as [`Store::carried`].
    pub carry: Vec<Loc>,
    /// The locations made before a loop's step that an `idxassign` in it would have updated
    /// and could not (the loop's state did not carry them), each with its array before the
    /// step: the `power` tries again carrying them (module `loops`). A log, kept across
    /// abandoned attempts.
    pub wanted: Vec<(Loc, Arr)>,
    /// Values the device computed for earlier lowerings of this program, in the order the
    /// lowering asks for them (module `probe`).
    pub answers: Rc<[Rc<Array>]>,
    /// How many of `answers` this lowering has used.
    pub probed: usize,
    /// `roll` (module `roll`): the draws of each call site so far, in evaluation order; in a
    /// function drawing per element, the element and the counts before the map; the call
    /// sites this lowering drew from, once per draw.
    pub rolls: semantics::tail::ops::io::Rolls,
    pub draws: Option<Draws>,
    pub drawn: Vec<u32>,
    /// The loops (module `loops`) whose step is being lowered, outermost first: for each
    /// `roll` call site, the draws made before the step's trip that `rolls` does not count
    /// (the trips before this one, and the run-time draws before the loop), an FCL int
    /// expression (module `roll`).
    pub trip_draws: Vec<Rc<HashMap<u32, Fcl>>>,
    /// The draws of each `roll` call site whose number the device computes (loops of computed
    /// counts, `if`s it decides), made in the innermost scope being lowered (`main`, or the
    /// step of a loop): an FCL int expression added to the site's count in `rolls`. Its
    /// names are that scope's (module `roll`).
    pub run_draws: HashMap<u32, Fcl>,
    /// The table of a sort network's stages, by its number of positions (module `sort`).
    pub sort_stages: HashMap<usize, Name>,
    /// The table of powers of ten `formatD` reads (module `format`), once made.
    pub decimal_scales: Option<Name>,
}

impl Lowerer {
    pub(super) fn new(
        e: &Expr,
        answers: Rc<[Rc<Array>]>,
        fault: Option<LoweringFault>,
    ) -> R<Lowerer> {
        let mut uses = HashMap::new();
        count_uses(e, 1, &mut uses);
        let zildes = semantics::tail::typecheck::zilde_instances(e)
            .map_err(LowerTailError::Static)?
            .into_iter()
            .map(|(span, b)| (span, Ty::of(b)))
            .collect::<HashMap<_, _>>();
        // a program's lowerer: a kernel's, at the top level, with its uses and answers
        Ok(Lowerer {
            kernel: false,
            uses: Rc::new(uses),
            answers,
            ..Lowerer::kernel(&Fresh::with_zildes(zildes, fault))
        })
    }

    /// A lowerer for an expression of this one's scope lowered inside a kernel: it reads
    /// the arrays `idxassign` has updated so far.
    pub(super) fn kernel_here(&self) -> Lowerer {
        Lowerer {
            store: self.store.clone(),
            ..Lowerer::kernel(&self.fresh)
        }
    }

    /// A lowerer for a function body applied inside a kernel.
    pub(super) fn kernel(fresh: &Fresh) -> Lowerer {
        Lowerer {
            fresh: fresh.clone(),
            stmts: Vec::new(),
            outputs: Vec::new(),
            helpers: BTreeSet::new(),
            kernel: true,
            in_loop: false,
            uses: Rc::new(HashMap::new()),
            store: Store::default(),
            carry: Vec::new(),
            wanted: Vec::new(),
            answers: Rc::new([]),
            probed: 0,
            rolls: Default::default(),
            draws: None,
            drawn: Vec::new(),
            trip_draws: Vec::new(),
            run_draws: HashMap::new(),
            sort_stages: HashMap::new(),
            decimal_scales: None,
        }
    }

    /// A statement of `main` (or of the loop step being lowered).
    pub(super) fn stmt(&mut self, s: Stmt) {
        self.stmts.push(Line::Stmt(s));
    }

    /// The statements of `body`, a block nested in the next statement (a loop's step): its
    /// comments move out before that statement, where `--emit fcl` can print them.
    pub(super) fn nested(&mut self, body: Vec<Line>) -> Vec<Stmt> {
        let mut stmts = Vec::new();
        for l in body {
            match l {
                Line::Stmt(s) => stmts.push(s),
                Line::Comment(c) => self.comment(format!("(in the next statement) {c}")),
            }
        }
        stmts
    }

    /// A comment on the statements that follow, for the reader of `compile --emit fcl`.
    pub(super) fn comment(&mut self, c: impl Into<String>) {
        self.stmts.push(Line::Comment(c.into()));
    }

    /// The lowering's state now, to go back to where an attempt is abandoned.
    pub(super) fn checkpoint(&self) -> Checkpoint {
        Checkpoint {
            stmts: self.stmts.len(),
            outputs: self.outputs.len(),
            drawn: self.drawn.len(),
            helpers: self.helpers.clone(),
            probed: self.probed,
            store: self.store.clone(),
            rolls: self.rolls.clone(),
            run_draws: self.run_draws.clone(),
        }
    }

    /// Back to `c`: what was lowered since is dropped.
    pub(super) fn restore(&mut self, c: Checkpoint) {
        self.stmts.truncate(c.stmts);
        self.outputs.truncate(c.outputs);
        self.drawn.truncate(c.drawn);
        self.helpers = c.helpers;
        self.probed = c.probed;
        self.store = c.store;
        self.rolls = c.rolls;
        self.run_draws = c.run_draws;
    }

    /// Whether nothing that runs once per program (a statement, a print, a draw from `roll`)
    /// was lowered since `c`.
    pub(super) fn added_nothing_since(&self, c: &Checkpoint) -> bool {
        self.stmts.len() == c.stmts
            && self.outputs.len() == c.outputs
            && self.drawn.len() == c.drawn
            // (a map drawing per element counts its draws without a statement)
            && self.rolls.since(&c.rolls).is_empty()
            && self.run_draws == c.run_draws
    }
}

/// A line of a `do` block the lowering builds: a statement, or a comment on those after it
/// (the FCL tree has no comments; `compile --emit fcl` prints them).
#[derive(Clone, Debug)]
pub(super) enum Line {
    Comment(String),
    Stmt(Stmt),
}

/// The statements of `lines`, their comments dropped (tests compare statements).
#[cfg(test)]
pub(super) fn statements(lines: Vec<Line>) -> Vec<Stmt> {
    lines
        .into_iter()
        .filter_map(|l| match l {
            Line::Stmt(s) => Some(s),
            Line::Comment(_) => None,
        })
        .collect()
}

/// The lowering's state at one point ([`Lowerer::checkpoint`]): an attempt that is abandoned
/// (an `if` that does not select, a `power` that does not loop, a probe's print) leaves nothing
/// of itself behind.
#[derive(Clone)]
pub(super) struct Checkpoint {
    stmts: usize,
    outputs: usize,
    drawn: usize,
    helpers: BTreeSet<&'static str>,
    probed: usize,
    store: Store,
    rolls: semantics::tail::ops::io::Rolls,
    run_draws: HashMap<u32, Fcl>,
}

/// The element of an array as a buffer stores it (bools become ints).
pub(super) fn stored_element(a: &Arr, i: &Fcl) -> Fcl {
    a.ty.store(&(a.index)(i))
}

/// Counts the uses of each variable; a use under a lambda counts double (it runs per element).
pub(super) fn count_uses(e: &Expr, weight: usize, out: &mut HashMap<String, usize>) {
    match &e.kind {
        ExprKind::Var(x) => *out.entry(x.clone()).or_insert(0) += weight,
        ExprKind::Lit(_) | ExprKind::OpValue(_) => {}
        ExprKind::Let { bound, body, .. } => {
            count_uses(bound, weight, out);
            count_uses(body, weight, out);
        }
        ExprKind::Fn { body, .. } => count_uses(body, 2 * weight, out),
        ExprKind::If(a, b, c) => {
            for x in [a, b, c] {
                count_uses(x, weight, out);
            }
        }
        ExprKind::Prj(_, x) => count_uses(x, weight, out),
        ExprKind::Tuple(es) | ExprKind::Vector(es) | ExprKind::App { args: es, .. } => {
            for x in es {
                count_uses(x, weight, out);
            }
        }
    }
}

/// Grid-level materialization in blocks of 256 threads (a grid-level `push` runs one element
/// per work-group); the index is clamped so the last block's spare threads stay in range.
pub(super) const TABULATE: &str =
    "sig tabulate : forall 'a. int -> (int -> 'a) -> Program <grid> ['a]<grid>
fun tabulate n f =
  concat<block> 256 (generate ((n + 255) / 256)
    (fn b => return<block> (push<block> (generate 256 (fn t => f (mini (b * 256 + t) (n - 1)))))))
";

/// The failure of a TAIL program found at compile time, located at expression `e`.
pub(super) fn fails(p: Prim, name: &str, e: &Expr, reason: String) -> LowerTailError {
    let rule = semantics::tail::step::Rule::for_op_error(p, "");
    LowerTailError::Fails(RunFailure {
        rule: format!("{} {name}", rule.number),
        reason,
        span: e.span,
    })
}

/// The draw context of a function applied per element: the flat index of the element (an FCL
/// int expression) and, per call site, the site's count before the map.
#[derive(Clone)]
pub(super) struct Draws {
    pub index: Fcl,
    pub bases: Rc<HashMap<u32, Fcl>>,
}

impl Draws {
    /// The context of a function checked on placeholders: element 0, no counts yet.
    pub(super) fn placeholder() -> Draws {
        Draws {
            index: int(0),
            bases: Rc::new(HashMap::new()),
        }
    }
}

/// The counts before an `each`/`zipWith` of the sites its function draws from (`None`: it
/// draws from none).
pub(super) type Bases = Option<Rc<HashMap<u32, Fcl>>>;
