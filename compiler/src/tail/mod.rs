//! TAIL to FCL: lowers a type-checked TAIL program to monomorphic FCL source text (spec
//! fcl.md's original syntax), so that the FCL front end, the FCL oracle and the FCL→OpenCL
//! compiler run it unchanged.
//!
//! Every TAIL array becomes a *static shape* plus an *index function* from a flat row-major
//! index (FCL int expression text) to the element's FCL expression. Operators compose index
//! functions (`transp`, `take`, `drop`, `rotate`, `reshape`, `cat` are index arithmetic, never
//! copies), so the whole program fuses into one `generate` that is forced and printed once.
//! `reduce` over a static last axis unrolls into a right fold of the axis' elements.
//!
//! Scope of this slice: int scalars and arrays with static (literal) shapes, `prSclI`/`prArrI`
//! outside functions (one `forceAndPrint` each, in evaluation order); a final `i2d`
//! (scalar or `each(i2d, …)`) turns the printed ints into doubles on the host. Anything else is
//! refused with [`LowerTailError::Unsupported`].
//!
//! Printing: FCL's `forceAndPrint` writes `[a,b,c]`; [`format_result`] turns that line into
//! the TAIL result line (`[shape](elements)`, spec tail.md §6) with the TAIL value printer,
//! using the static shape the lowering knows. No FCL extension is needed for ints.

mod lower;

pub use lower::lower_expr;

use semantics::tail::print_value::array_text;
use semantics::tail::value::{Array, BaseType, Elems, Scalar};
use semantics::Diagnostic;

/// The largest unrolled reduction axis and emitted program text; beyond them, unsupported.
pub const MAX_UNROLL: usize = 256;
/// The largest FCL text the lowering emits (bytes).
pub const MAX_TEXT: usize = 1 << 20;

/// Why a TAIL program could not be lowered.
#[derive(Debug)]
pub enum LowerTailError {
    /// Parse or type error (exit 2).
    Static(Diagnostic),
    /// Outside the lowering's scope (exit 2), with the reason.
    Unsupported(String),
}

impl std::fmt::Display for LowerTailError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LowerTailError::Static(d) => write!(f, "{d:?}"),
            LowerTailError::Unsupported(why) => write!(f, "unsupported: {why}"),
        }
    }
}

/// The element type the TAIL program's result has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResultKind {
    /// Ints, printed as ints.
    Int,
    /// Ints converted by a final `i2d`, printed as TAIL doubles.
    IntAsDouble,
}

/// A lowered program: the FCL source and how to read its output back as a TAIL value.
#[derive(Clone, Debug)]
pub struct Lowered {
    /// FCL source text with a `main` that forces and prints the result's elements.
    pub fcl: String,
    /// What the program's printing operators print before the result: shape and element type.
    pub prints: Vec<(Vec<usize>, ResultKind)>,
    /// The TAIL result's shape (empty for a scalar).
    pub shape: Vec<usize>,
    /// The result's element type.
    pub kind: ResultKind,
}

/// Parses, type checks and lowers a TAIL program.
pub fn lower_tail(src: &str) -> Result<Lowered, LowerTailError> {
    let e = semantics::tail::parser::parse(src).map_err(LowerTailError::Static)?;
    semantics::tail::typecheck::typecheck(&e).map_err(LowerTailError::Static)?;
    semantics::tail::parser::on_deep_stack(|| lower_expr(&e))
}

/// Turns the FCL program's output (`[a,b,…]\n`) into the TAIL result line plus newline;
/// `None` when the output is not what the lowered program prints.
pub fn format_result(l: &Lowered, fcl_stdout: &str) -> Option<String> {
    let lines: Vec<&str> = fcl_stdout.lines().collect();
    if lines.len() != l.prints.len() + 1 {
        return None;
    }
    let mut out = String::new();
    for ((shape, kind), line) in l.prints.iter().zip(&lines) {
        out.push_str(&format_line(shape, *kind, line)?);
    }
    out.push_str(&format_line(&l.shape, l.kind, lines[l.prints.len()])?);
    Some(out)
}

/// One `forceAndPrint` line as the TAIL value of `shape` and `kind`, plus newline.
fn format_line(shape: &[usize], kind: ResultKind, line: &str) -> Option<String> {
    let l = Lowered {
        fcl: String::new(),
        prints: Vec::new(),
        shape: shape.to_vec(),
        kind,
    };
    let line = line.trim_end();
    let inner = line.strip_prefix('[')?.strip_suffix(']')?;
    let ints = inner
        .split(',')
        .map(|t| t.parse::<i32>().ok())
        .collect::<Option<Vec<i32>>>()?;
    let size: usize = l.shape.iter().product();
    if ints.len() != size.max(1) {
        return None;
    }
    let arr = match l.kind {
        ResultKind::Int if l.shape.is_empty() => Array::scalar(Scalar::Int(ints[0])),
        ResultKind::IntAsDouble if l.shape.is_empty() => {
            Array::scalar(Scalar::Double(f64::from(ints[0])))
        }
        ResultKind::Int => {
            let mut a = Array::int_vec(ints);
            a.shape = l.shape.clone();
            a
        }
        ResultKind::IntAsDouble => {
            let mut a = Array::int_vec(ints);
            a.shape = l.shape.clone();
            a.elems = Elems::from_scalars(
                BaseType::Double,
                (0..size)
                    .map(|i| match a.elems.get(i) {
                        Scalar::Int(v) => Scalar::Double(f64::from(v)),
                        s => s,
                    })
                    .collect(),
            );
            a
        }
    };
    Some(format!("{}\n", array_text(&arr)))
}
