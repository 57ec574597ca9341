//! TAIL to FCL: lowers a type-checked TAIL program to a monomorphic FCL program (spec fcl.md's
//! syntax plus the TAIL extension built-ins of doubles and booleans), so that the FCL front
//! end, the FCL oracle and the FCL→OpenCL compiler run it unchanged. The program is built as
//! `semantics::fcl::syntax` trees (module `tree`: the `fcl!` quasi-quotes, parsed when the
//! compiler is built) and handed to the FCL front end as a tree ([`FclProgram`]); it is
//! printed only for a reader (`compile --emit fcl`).
//!
//! Representation: every TAIL array is a *static shape* plus an *index function* from a flat
//! row-major index (an FCL int expression) to the element's FCL expression (module `value`). The shape
//! operators (`transp`, `transp2`, `take`, `drop`, `rotate`, `vrotate`, `vreverse`, `reshape`,
//! `cat`, `cons`, `snoc`, `idxS`) compose index functions and never copy (module `shape`);
//! `each` and `zipWith` apply their function per element (module `higher`), so a chain of them
//! fuses into the one `generate` of its consumer. Where coordinates are cheaper than the flat
//! index (transpositions, reshapes that repeat their argument along trailing axes, rotations
//! of those and of vectors, maps of them), an array also has a *coordinate access*
//! (`Arr::at`): a reduction along the last axis reads its rows by (row, column) and a
//! transposition permutes coordinates, so neither re-derives them with `/` and `%` (thesis
//! §3.4's shaped index functions, beside the flat ones that make reshapes free). A literal
//! vector read at computed indices is a *table*, a buffer stored once when `main` starts.
//! Arrays are *materialized* (forced into a global buffer by a statement of `main`) only
//! where needed (module `program`): a `let`-bound array whose uses together would recompute
//! more than a budget of element size, very large index expressions, a printed value, a reduction
//! result, the state of `power`, and an array updated by `idxassign`.
//!
//! `reduce`/`scan` along the last axis are unrolled for short rows and otherwise become
//! thread-level sequential folds/scans per row or, for long rows of an associative operator,
//! block-level tree reductions and reduce-then-scans over a contiguous chunk per thread
//! (modules `reduce` and `scan`; the choice is an FCL comment in the output). `power`/`powerScl`
//! iterate FCL's grid-level `power` over one buffer holding the state (scalars and tuple states
//! included, modules `loops` and `state`); `idxassign` tracks the store: the updated variable
//! reads a materialized copy from then on.
//!
//! Scope: element types int, double, bool, char (chars as their codes) and complex (FCL pairs
//! `(re, im)` of doubles, stored as a block of real parts and a block of imaginary parts, module
//! `complex`). Shapes are static where the lowering knows them. A count, length or extent the
//! program computes from data stays on the device as an FCL expression: the array has a static
//! *capacity* and a *run-time length* (`Arr::run_len`, `Arr::run_dims`) that the kernels
//! compute and the host reads only to size an allocation or a launch, when the program runs
//! (modules `counts`, `dynamic`; `compress`/`replicate` by a computed mask or counts are a
//! device prefix sum and a scatter or a binary-search gather, module `filter`). What an operator
//! still needs static is *read back* (module `probe`: the statements so far run on the device,
//! the value comes back, and the program is lowered again specialised to it). Known values are
//! evaluated with the TAIL semantics' own operators where the arguments are known (module `ops`;
//! `each`, `zipWith`, `reduce`, `scan` of small known arrays too), which gives the shapes apltail
//! computes. A known value only rides along (`Arr::known`, module `value`) for static
//! decisions: shapes, counts, permutations, static failures. The FCL is always the
//! computation itself (constant folding is the FCL compiler's job), except for
//! `gradeUp`/`gradeDown` of a known vector, lowered as its known result (a table); of any other
//! vector they are a radix sort on the device for ints, chars and bools of 4096 elements and
//! more (module `radix`) and a bitonic sort network otherwise (module `sort`), which need
//! statements of `main`. A function whose body has statements (a `pr*`, a filter, a sort) is
//! one FCL loop: `power` a trip per iteration, `each`/`zipWith` a trip per element, in the
//! oracle's order (modules `loops`, `each_loop`); a `power` whose state changes length keeps it
//! at a capacity with its length in the state. File reads happen when the
//! program is lowered (module `input`: the host reads the file, its contents become a table,
//! docs/fcl-extensions.md §5). `roll` draws from the oracle's counter-based generator (module
//! `roll`): draw k of a call site is FCL's pure `rollAt site k bound`, so inside an
//! `each`/`zipWith` whose function draws once per element it is per-element code, element i
//! drawing number b + i; where the lowering cannot count the draws the function runs at the top
//! level as above. `nowi(0)` is FCL's grid-level `nowMs 0`, which the host evaluates when it
//! runs `main` (module `input`). `zilde` has the element type
//! the type checker infers for each application (`semantics::tail::typecheck::zilde_instances`).
//! Anything else is refused with [`LowerTailError::Unsupported`] and a reason. Int overflow,
//! division by zero and roundings outside the int range, run-time errors in TAIL, are checked in
//! lowered code at check sites that map back to the oracle's rule and place (module `check`).
//! A program that certainly fails at run time (a negative `iota`, `zipWith` of different
//! shapes, `idxassign` or `idxS` out of range, `cat` of mismatched shapes, `transp2` of a
//! non-permutation: anything the semantics rejects on known arguments or shapes) lowers to the
//! statements before the failure plus a [`RunFailure`], reported as `tailfcl run` reports it.
//!
//! Printing: each printed value becomes one `forceAndPrint` (ints; bools via `b2i`; chars) or
//! `forceAndPrintDoubleExact` line (doubles; complex numbers as their real parts, then their
//! imaginary parts); [`format_result`] turns those lines back into TAIL's
//! output with the TAIL value printer, using the static shapes the lowering knows. A double
//! array that is `i2d` of ints is printed as ints and converted exactly on the host.
//!
//! Layers: the modules import in one direction, each from its own layer or those below
//! (checked by the tests of `layers`), so one operator's lowering is found in one place:
//!
//! | layer | modules | what they are |
//! |---|---|---|
//! | trees and values | `tree`, `coords`, `range`, `fault`, `value`, `location`, `check`, `lowerer`, `fcl_program` | FCL trees, a TAIL value's shape and index function, the store of locations `idxassign` updates, value ranges, check sites, the lowerer's state, the output program |
//! | element functions | `apply` | a function value applied to scalars inside a kernel |
//! | operators | `reduce`, `scan`, `complex`, `scalar`, `shape`, `dynamic`, `counts`, `extents`, `extent_rows`, `format`, `radix`, `sort`, `roll`, `input`, `store`, `filter`, `ops` | one operator family each; `ops` dispatches an application to them |
//! | control | `state`, `step`, `loops`, `branch`, `higher`, `each_loop` | a loop's state and step (with its draw counters), `power` and effectful `each` as FCL loops, `if` with array branches, the higher-order operators |
//! | program | `program`, `probe` | expressions, bindings and the whole program; values read back |
//!
//! The layers order what modules share by name: types, free functions, constants. The
//! lowerer's methods (`impl Lowerer`) live with their operators and are called through `self`
//! across layers (a step of `power` is lowered by `program`'s `eval`; `ops` dispatches `each` to
//! `higher`): the evaluation is mutually recursive, as the semantics is.

mod apply;
mod branch;
mod capacity;
mod carry;
mod check;
mod complex;
mod coords;
mod counts;
mod dynamic;
mod each_loop;
mod extent_rows;
mod extents;
pub mod fault;
mod fcl_program;
mod filter;
mod format;
mod higher;
mod input;
#[cfg(test)]
mod layers;
mod location;
mod loops;
mod lowerer;
mod ops;
mod probe;
mod program;
mod radix;
mod range;
mod reduce;
mod roll;
mod scalar;
mod scan;
mod shape;
mod sort;
mod state;
mod step;
mod store;
mod tree;
mod value;

pub use check::set_checks;
pub use fcl_program::FclProgram;
pub use probe::{device_prober, lower_tail_probing, ProbeRequest, Prober, MAX_PROBES};
pub use reduce::{FEW_ROWS, MAX_UNROLL, TREE_MIN_LEN, UNROLL};

use semantics::tail::print_value::{array_text, char_array_text};
use semantics::tail::value::{Array, BaseType, Elems, Scalar};
use semantics::{Diagnostic, Span};

/// The largest FCL program the lowering emits (bytes of its source, roughly: `tree::size`).
pub const MAX_TEXT: usize = 1 << 22;

/// Why a TAIL program could not be lowered.
#[derive(Debug)]
pub enum LowerTailError {
    /// Parse or type error (exit 2).
    Static(Diagnostic),
    /// Outside the lowering's scope (exit 2), with the reason.
    Unsupported(String),
    /// Used inside the lowering only: the program certainly fails here ([`lower_tail`] puts it
    /// in [`Lowered::failure`] instead).
    Fails(RunFailure),
    /// Used inside the lowering only: it needs a value that only the device knows
    /// ([`lower_tail_probing`] runs the request; [`lower_tail`] refuses the program).
    Probe(Box<ProbeRequest>),
}

impl std::fmt::Display for LowerTailError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LowerTailError::Static(d) => write!(f, "{d:?}"),
            LowerTailError::Unsupported(why) => write!(f, "unsupported: {why}"),
            LowerTailError::Fails(e) => write!(f, "error: {}: {}", e.rule, e.reason),
            LowerTailError::Probe(r) => write!(f, "unsupported: {}", r.why),
        }
    }
}

/// A run-time failure of the TAIL program found at compile time: the rule, reason and place
/// the TAIL oracle reports.
#[derive(Clone, Debug)]
pub struct RunFailure {
    /// `"3.35 iota"`.
    pub rule: String,
    /// `"iota of negative number -3"`.
    pub reason: String,
    /// The failing operator application.
    pub span: Span,
}

impl RunFailure {
    /// The error line `tailfcl run` writes for this failure (without the newline).
    pub fn render(&self, file: &str, src: &str) -> String {
        if self.span == Span::DUMMY {
            format!("error: {}: {}", self.rule, self.reason)
        } else {
            let (line, col) = semantics::span::line_col(src, self.span.start as usize);
            format!("{file}:{line}:{col}: error: {}: {}", self.rule, self.reason)
        }
    }
}

/// How a printed value's elements travel and print.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResultKind {
    /// Ints, printed as ints.
    Int,
    /// Doubles, printed exactly by `forceAndPrintDoubleExact`.
    Double,
    /// Doubles that are `i2d` of ints: the ints travel and the host converts them.
    IntAsDouble,
    /// Bools, printed as 0/1 ints.
    Bool,
    /// Chars, moved as their codes, printed in the generic layout.
    Char,
    /// Chars printed by `prArrC` (spec §6.3: bare characters).
    CharText,
    /// Complex numbers, printed exactly as doubles: the real parts, then the imaginary parts.
    Complex,
}

/// One printed value: its TAIL shape and element kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Output {
    pub shape: Vec<usize>,
    pub kind: ResultKind,
    /// A vector whose length the device computed: the program prints a line of `shape[0]`
    /// elements (the capacity), then that length on a line of its own: the value is that many
    /// of the elements. For an array of rank 2 or more, the capacity is the product of
    /// `shape` (bounds on the extents) and the second line holds the extents.
    pub dynamic: bool,
    /// The prints of a loop's step (a `power` that is one FCL loop, module `loops`): the
    /// program prints the number of trips on a line of its own (the `Output` itself, an int),
    /// then these values once per trip.
    pub repeats: Option<Vec<Output>>,
}

impl Output {
    /// How many lines the FCL program prints for it (an empty array prints nothing there; a
    /// loop's count, without its trips' lines).
    pub fn lines(&self) -> usize {
        if self.dynamic {
            2
        } else {
            usize::from(self.shape.is_empty() || self.shape.iter().product::<usize>() > 0)
        }
    }

    /// The value from the next of the FCL program's output lines.
    fn take<'a>(&self, lines: &mut impl Iterator<Item = &'a str>) -> Option<Array> {
        if !self.dynamic {
            let line = if self.lines() > 0 {
                lines.next()?
            } else {
                "[]"
            };
            return parse_output(self, line);
        }
        let full = parse_output(self, lines.next()?)?;
        // the length, or the extents of an array of rank 2 or more
        let dims = lines
            .next()?
            .trim_end()
            .strip_prefix('[')?
            .strip_suffix(']')?
            .split(',')
            .map(|d| d.parse().ok())
            .collect::<Option<Vec<usize>>>()?;
        let fits =
            dims.len() == self.shape.len() && dims.iter().zip(&self.shape).all(|(d, c)| d <= c);
        let len = dims.iter().product();
        if !fits || len > full.size() {
            return None;
        }
        let scalars = (0..len).map(|i| full.elems.get(i)).collect();
        Some(Array {
            shape: dims,
            elems: Elems::from_scalars(full.base_type(), scalars),
        })
    }
}

/// A lowered program: the FCL source and how to read its output back as TAIL values.
#[derive(Clone, Debug)]
pub struct Lowered {
    /// The FCL program whose `main` forces and prints the printed values and the result: a
    /// syntax tree ([`FclProgram::load`] takes it through the FCL front end; `text` prints it).
    pub fcl: FclProgram,
    /// The values the program's `pr*` operators print, in order.
    pub prints: Vec<Output>,
    /// The result, printed last (`None` when the program fails).
    pub result: Option<Output>,
    /// The failure the TAIL program reaches after its prints, if it certainly fails.
    pub failure: Option<RunFailure>,
    /// How many values the device computed while the program was lowered (module `probe`).
    pub probes: usize,
    /// The run-time checks of the lowered code by site number (`checki site …`): the TAIL
    /// oracle's failure each stands for (module `check`).
    pub sites: Vec<RunFailure>,
}

/// Parses, type checks and lowers a TAIL program without a device: a program that needs a
/// value only the device knows (a size computed from data) is refused
/// ([`lower_tail_probing`] lowers it).
pub fn lower_tail(src: &str) -> Result<Lowered, LowerTailError> {
    probe::lower_staged(src, None, None)
}

/// [`lower_tail`] with `fault` planted in the lowering (mutation testing, module `fault`);
/// `None` is the correct lowering.
pub fn lower_tail_faulty(
    src: &str,
    fault: Option<fault::LoweringFault>,
) -> Result<Lowered, LowerTailError> {
    probe::lower_staged(src, None, fault)
}

/// Turns the FCL program's output (one `[a,b,…]` line per printed value) into what the TAIL
/// program writes to standard output (the `pr*` output, then the result line unless it fails);
/// `None` when the output is not what the lowered program prints.
pub fn format_result(l: &Lowered, fcl_stdout: &str) -> Option<String> {
    let lines: Vec<&str> = fcl_stdout.lines().collect();
    let outputs: Vec<Output> = l.prints.iter().chain(&l.result).cloned().collect();
    let (out, read) = format_outputs(&outputs, &lines, false)?;
    (read == lines.len()).then_some(out)
}

/// The text of `outputs` read from `lines`, and how many lines that took. With `prefix`, the
/// outputs whose lines are all there (what a program printed before it failed): reading stops
/// at the first one whose lines are not.
pub(crate) fn format_outputs(
    outputs: &[Output],
    lines: &[&str],
    prefix: bool,
) -> Option<(String, usize)> {
    let (mut out, mut at) = (String::new(), 0);
    for o in outputs {
        if prefix && at + o.lines() > lines.len() {
            break;
        }
        if let Some(body) = &o.repeats {
            // the number of trips, then each trip's prints
            let trips: usize = lines
                .get(at)?
                .trim_end()
                .strip_prefix('[')?
                .strip_suffix(']')?
                .parse()
                .ok()?;
            at += 1;
            for _ in 0..trips {
                let (text, read) = format_outputs(body, &lines[at..], prefix)?;
                out.push_str(&text);
                at += read;
            }
            continue;
        }
        let mut rest = lines[at..].iter().copied();
        let arr = o.take(&mut rest)?;
        at += o.lines();
        out.push_str(&if o.kind == ResultKind::CharText {
            char_array_text(&arr)
        } else {
            array_text(&arr)
        });
        out.push('\n');
    }
    Some((out, at))
}

/// One `forceAndPrint` line as the TAIL value `o` describes.
fn parse_output(o: &Output, line: &str) -> Option<Array> {
    let inner = line.trim_end().strip_prefix('[')?.strip_suffix(']')?;
    let size: usize = o.shape.iter().product();
    let texts: Vec<&str> = if size == 0 && !o.shape.is_empty() {
        Vec::new()
    } else {
        inner.split(',').collect()
    };
    let slots = if o.kind == ResultKind::Complex { 2 } else { 1 };
    let count = match (o.dynamic, o.shape.is_empty()) {
        // the elements of a value of run-time shape: as many as its capacity, or (an
        // unbounded vector's, module `capacity`) as its length; the next line says how many
        // of them the value has
        (true, _) if texts.len() / slots <= size => texts.len() / slots,
        (_, true) => 1,
        _ => size,
    };
    if o.kind == ResultKind::Complex {
        return complex_array(o, count, &texts);
    }
    if texts.len() != count {
        return None;
    }
    let scalars = texts
        .iter()
        .map(|t| {
            Some(match o.kind {
                ResultKind::Int => Scalar::Int(t.parse().ok()?),
                ResultKind::IntAsDouble => Scalar::Double(f64::from(t.parse::<i32>().ok()?)),
                ResultKind::Double => Scalar::Double(t.parse().ok()?),
                ResultKind::Bool => Scalar::Bool(t.parse::<i32>().ok()? != 0),
                ResultKind::Char | ResultKind::CharText => Scalar::Char(t.parse().ok()?),
                ResultKind::Complex => return None,
            })
        })
        .collect::<Option<Vec<Scalar>>>()?;
    let base = match o.kind {
        ResultKind::Int => BaseType::Int,
        ResultKind::Bool => BaseType::Bool,
        ResultKind::Char | ResultKind::CharText => BaseType::Char,
        _ => BaseType::Double,
    };
    Some(Array {
        shape: shape_of(o, count),
        elems: Elems::from_scalars(base, scalars),
    })
}

/// The shape of `count` elements printed for `o`: its shape, or those elements as a vector
/// where the next line gives the shape (a value of run-time shape).
fn shape_of(o: &Output, count: usize) -> Vec<usize> {
    if o.dynamic {
        vec![count]
    } else {
        o.shape.clone()
    }
}

/// The `count` complex numbers printed as their real parts followed by their imaginary parts
/// (`texts`, 2·count doubles), as the TAIL value `o` describes.
fn complex_array(o: &Output, count: usize, texts: &[&str]) -> Option<Array> {
    if texts.len() != 2 * count {
        return None;
    }
    let scalars = (0..count)
        .map(|k| {
            let re = texts[k].parse().ok()?;
            let im = texts[count + k].parse().ok()?;
            Some(Scalar::Complex((re, im)))
        })
        .collect::<Option<Vec<Scalar>>>()?;
    Some(Array {
        shape: shape_of(o, count),
        elems: Elems::from_scalars(BaseType::Complex, scalars),
    })
}

/// The TAIL failure a failed check stands for, from the error text of the FCL oracle or of
/// compiled code (`check site N failed`, in a kernel or not).
pub fn failed_at<'a>(l: &'a Lowered, error: &str) -> Option<&'a RunFailure> {
    l.sites
        .get(semantics::fcl::step::scalar::failed_site(error)?)
}

/// What the TAIL program printed before it failed, from the FCL program's output up to the
/// failure: the `pr*` values whose lines are there, in order (`None` when the output is not a
/// prefix of what the lowered program prints).
pub fn format_until_failure(l: &Lowered, fcl_stdout: &str) -> Option<String> {
    let lines: Vec<&str> = fcl_stdout.lines().collect();
    format_outputs(&l.prints, &lines, true).map(|(text, _)| text)
}
