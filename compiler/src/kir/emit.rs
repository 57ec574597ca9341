//! Emission of the kernel IR as OpenCL C text. Integer operations follow the oracle (spec §4.2):
//! wrapping `+ - *` through `uint`, truncating `/` and `%` guarded against the cases that are
//! undefined in C, shifts masked to 5 bits, arithmetic `>>`.

use super::{Expr, Geom, Kernel, Module, Param, Stmt};
use semantics::fcl::core::ScalarOp;
use std::fmt::Write;

/// The kernel parameter (first of every kernel) flagging run-time errors: 1 division by zero,
/// 2 a negative exponent, [`TRIP_LIMIT_CODE`] a kernel `while` past its trip limit,
/// [`CHECK_BASE`] + s a failed `checki` of site s.
pub const ERROR_FLAG: &str = "fcl_err";

/// The error-flag code of a `while` inside a kernel whose condition still holds after its
/// last allowed trip (2^20).
pub const TRIP_LIMIT_CODE: i32 = 3;

/// The error-flag code of a failed `checki` is this plus its site.
pub const CHECK_BASE: i32 = 16;

/// Helpers every program starts with. `FP_CONTRACT OFF`: every double operation rounds once, as
/// in the oracle (OpenCL C may otherwise fuse `a * b + c` into one `fma`, which differs in the
/// last bits, and by far more after cancellation; docs/fcl-extensions.md §2).
pub const PRELUDE: &str = "\
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
inline int fcl_add(int a, int b) { return (int)((uint)a + (uint)b); }
inline int fcl_sub(int a, int b) { return (int)((uint)a - (uint)b); }
inline int fcl_mul(int a, int b) { return (int)((uint)a * (uint)b); }
inline int fcl_div(int a, int b, __global int* err) { if (b == 0) { err[0] = 1; return 0; } return b == -1 ? (int)(0u - (uint)a) : a / b; }
inline int fcl_mod(int a, int b, __global int* err) { if (b == 0) { err[0] = 1; return 0; } return b == -1 ? 0 : a % b; }
inline int fcl_pow(int a, int b, __global int* err) { if (b < 0) { err[0] = 2; return 0; } uint r = 1u, x = (uint)a; while (b > 0) { if (b & 1) r *= x; x *= x; b >>= 1; } return (int)r; }
inline int fcl_pow_nat(int a, int b) { uint r = 1u, x = (uint)a; while (b > 0) { if (b & 1) r *= x; x *= x; b >>= 1; } return (int)r; }
inline int fcl_check(int site, int bad, int x, __global int* err) { if (bad) atomic_cmpxchg((volatile __global int*)err, 0, 16 + site); return x; }
inline int fcl_addc(int site, int a, int b, __global int* err) { long r = (long)a + (long)b; if (r != (long)(int)r) atomic_cmpxchg((volatile __global int*)err, 0, 16 + site); return (int)r; }
inline int fcl_subc(int site, int a, int b, __global int* err) { long r = (long)a - (long)b; if (r != (long)(int)r) atomic_cmpxchg((volatile __global int*)err, 0, 16 + site); return (int)r; }
inline int fcl_mulc(int site, int a, int b, __global int* err) { long r = (long)a * (long)b; if (r != (long)(int)r) atomic_cmpxchg((volatile __global int*)err, 0, 16 + site); return (int)r; }
inline int fcl_shl(int a, int b) { return (int)((uint)a << (b & 31)); }
inline int fcl_shr(int a, int b) { return a >> (b & 31); }
inline int fcl_sign(int a) { return (a > 0) - (a < 0); }
inline int fcl_abs(int a) { return a < 0 ? (int)(0u - (uint)a) : a; }
#ifdef cl_khr_fp64
inline double fcl_maxd(double x, double y) { return x > y ? x : y; }
inline double fcl_mind(double x, double y) { return x < y ? x : y; }
inline int fcl_signd(double x) { return x >= 0.0 ? 1 : -1; }
inline double fcl_pow_half(double x) { return x == -INFINITY ? INFINITY : sqrt(x) + 0.0; }
inline double fcl_square(double x) { return x * x; }
inline ulong fcl_mix64(ulong z) { z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9UL; z = (z ^ (z >> 27)) * 0x94D049BB133111EBUL; return z ^ (z >> 31); }
inline double fcl_roll(int site, int k, int n) {
  ulong seed = fcl_mix64((ulong)(uint)site + 0x9E3779B97F4A7C15UL);
  ulong z = fcl_mix64(seed + ((ulong)(uint)k + 1UL) * 0x9E3779B97F4A7C15UL);
  double x = (double)(z >> 11) * 0x1.0p-53;
  return n > 0 ? floor(x * (double)n) : x;
}
inline double fcl_exp(double x) {
  if (!(x > -746.0)) return x != x ? x : 0.0;
  if (x > 709.782712893384) return INFINITY;
  double k = rint(x * 1.44269504088896338700e+00);
  double hi = x - k * 6.93147180369123816490e-01, lo = k * 1.90821492927058770002e-10;
  double r = hi - lo, t = r * r;
  double c = r - t * (1.66666666666666019037e-01 + t * (-2.77777777770155933842e-03 + t * (6.61375632143793436117e-05 + t * (-1.65339022054652515390e-06 + t * 4.13813679705723846039e-08))));
  double y = 1.0 - ((lo - (r * c) / (2.0 - c)) - hi);
  int k1 = (int)k / 2, k2 = (int)k - k1;
  return y * as_double((long)(k1 + 1023) << 52) * as_double((long)(k2 + 1023) << 52);
}
inline double fcl_log(double x) {
  if (!(x > 0.0)) return x == 0.0 ? -INFINITY : (x != x ? x : NAN);
  if (x == INFINITY) return x;
  int e = 0;
  if (x < 2.2250738585072014e-308) { x *= 18014398509481984.0; e = -54; }
  long bits = as_long(x);
  e += (int)((bits >> 52) & 0x7ff) - 1023;
  double m = as_double((bits & 0x000fffffffffffffL) | 0x3ff0000000000000L);
  if (m > 1.4142135623730951) { m *= 0.5; e += 1; }
  double f = m - 1.0, s = f / (2.0 + f), z = s * s, dk = (double)e;
  double R = z * (6.666666666666735130e-01 + z * (3.999999999940941908e-01 + z * (2.857142874366239149e-01 + z * (2.222219843214978396e-01 + z * (1.818357216161805012e-01 + z * (1.531383769920937332e-01 + z * 1.479819860511658591e-01))))));
  double hfsq = 0.5 * f * f;
  return dk * 6.93147180369123816490e-01 - ((hfsq - (s * (hfsq + R) + dk * 1.90821492927058770002e-10)) - f);
}
#endif
";

/// The OpenCL C source of a module's kernels.
pub fn emit_module(m: &Module) -> String {
    let mut out = String::from(PRELUDE);
    for k in &m.kernels {
        out.push('\n');
        out.push_str(&emit_kernel(k));
    }
    out
}

/// The parameters of a kernel's header, as [`emit_kernel`] prints them: the error flag that
/// division by zero and negative exponents set (first of every kernel, used or not, so that
/// every launch passes it first), then the buffers and host scalars. Every buffer a launch
/// passes is a distinct allocation (`restrict`); the ones the kernel never stores to are
/// `const` (a read-only cache may serve them).
pub fn kernel_params(k: &Kernel) -> Vec<String> {
    let mut stored = Vec::new();
    stores_in(&k.body, &mut stored);
    std::iter::once(format!("__global int* {ERROR_FLAG}"))
        .chain(k.params.iter().map(|p| match p {
            Param::Buffer(n, t) if !stored.contains(&n) => {
                format!("__global const {}* restrict {n}", t.c_elem())
            }
            Param::Buffer(n, t) => format!("__global {}* restrict {n}", t.c_elem()),
            Param::Scalar(n, t) => format!("const {} {n}", scalar_param(*t)),
        }))
        .collect()
}

/// One kernel.
pub fn emit_kernel(k: &Kernel) -> String {
    let params = kernel_params(k);
    let mut out = format!("__kernel void {}({}) {{\n", k.name, params.join(", "));
    for (n, t, len) in &k.locals {
        let _ = writeln!(out, "  __local {} {n}[{len}];", t.c_elem());
    }
    emit_block(&k.body, 1, &mut out);
    out.push_str("}\n");
    out
}

/// The arrays a block stores to.
fn stores_in<'a>(stmts: &'a [Stmt], out: &mut Vec<&'a std::rc::Rc<str>>) {
    for s in stmts {
        match s {
            Stmt::Store(b, ..) => out.push(b),
            Stmt::For { body, .. } => stores_in(body, out),
            Stmt::If(_, t, e) => {
                stores_in(t, out);
                stores_in(e, out);
            }
            _ => {}
        }
    }
}

/// Host scalars cross as int (bools too) or double.
pub fn scalar_param(t: super::Ty) -> &'static str {
    match t {
        super::Ty::Double => "double",
        _ => "int",
    }
}

fn emit_block(stmts: &[Stmt], depth: usize, out: &mut String) {
    for s in stmts {
        emit_stmt(s, depth, out);
    }
}

fn emit_stmt(s: &Stmt, depth: usize, out: &mut String) {
    let pad = "  ".repeat(depth);
    match s {
        Stmt::Decl(n, t, e) => {
            let _ = writeln!(out, "{pad}{} {n} = {};", t.c_name(), expr(e));
        }
        Stmt::Assign(n, e) => {
            let _ = writeln!(out, "{pad}{n} = {};", expr(e));
        }
        Stmt::Store(b, i, v) => {
            let _ = writeln!(out, "{pad}{b}[{}] = {};", expr(i), expr(v));
        }
        Stmt::Private(n, t, len) => {
            let _ = writeln!(out, "{pad}{} {n}[{len}];", t.c_elem());
        }
        Stmt::For {
            var,
            start,
            end,
            step,
            body,
        } => {
            let _ = writeln!(
                out,
                "{pad}for (int {var} = {}; {var} < {}; {var} += {}) {{",
                expr(start),
                expr(end),
                expr(step)
            );
            emit_block(body, depth + 1, out);
            let _ = writeln!(out, "{pad}}}");
        }
        // a scope of its own (an unrolled copy, a taken static branch)
        Stmt::If(super::Expr::Bool(true), t, e) if e.is_empty() => {
            let _ = writeln!(out, "{pad}{{");
            emit_block(t, depth + 1, out);
            let _ = writeln!(out, "{pad}}}");
        }
        Stmt::If(c, t, e) => {
            let _ = writeln!(out, "{pad}if ({}) {{", unparenthesised(expr(c)));
            emit_block(t, depth + 1, out);
            if !e.is_empty() {
                let _ = writeln!(out, "{pad}}} else {{");
                emit_block(e, depth + 1, out);
            }
            let _ = writeln!(out, "{pad}}}");
        }
        Stmt::Barrier => {
            let _ = writeln!(out, "{pad}barrier(CLK_LOCAL_MEM_FENCE);");
        }
    }
}

/// `c` without the parentheses around all of it, if it has them (`if ((a == b))` draws a
/// warning from clang).
fn unparenthesised(c: String) -> String {
    let Some(inner) = c.strip_prefix('(').and_then(|r| r.strip_suffix(')')) else {
        return c;
    };
    // the first parenthesis must close at the very end
    let mut depth = 0i32;
    for ch in inner.chars() {
        depth += match ch {
            '(' => 1,
            ')' => -1,
            _ => 0,
        };
        if depth < 0 {
            return c;
        }
    }
    inner.to_string()
}

/// An expression in C syntax (fully parenthesised).
pub fn expr(e: &Expr) -> String {
    match e {
        Expr::Int(i) if *i == i32::MIN => "(-2147483647 - 1)".into(),
        Expr::Int(i) if *i < 0 => format!("({i})"),
        Expr::Int(i) => i.to_string(),
        Expr::Double(d) if d.is_nan() => "NAN".into(),
        Expr::Double(d) if d.is_infinite() => {
            if *d > 0.0 {
                "INFINITY".into()
            } else {
                "(-INFINITY)".into()
            }
        }
        Expr::Double(d) => format!("({d:?})"),
        Expr::Bool(b) => b.to_string(),
        Expr::Var(v) => v.to_string(),
        Expr::Geom(g) => match g {
            Geom::LocalId => "(int)get_local_id(0)",
            Geom::LocalSize => "(int)get_local_size(0)",
            Geom::GroupId => "(int)get_group_id(0)",
            Geom::NumGroups => "(int)get_num_groups(0)",
            Geom::GlobalId => "(int)get_global_id(0)",
            Geom::GlobalSize => "(int)get_global_size(0)",
        }
        .into(),
        Expr::Select(..) => select_chain(e),
        Expr::Load(b, i) => format!("{b}[{}]", expr(i)),
        Expr::Op(op, args) => op_expr(*op, args),
    }
}

/// A selection whose `else` branch is a selection again, and so on (an FCL `if … else if …`
/// chain, a table lookup of many cases): one flat `(c1 ? a1 : c2 ? a2 : … : d)`, since C's `?:`
/// groups to the right, built by a loop. Nested parentheses would stop clang at its bracket
/// limit (256) and recursion here at the length of the chain.
fn select_chain(mut e: &Expr) -> String {
    let mut out = String::from("(");
    while let Expr::Select(c, a, b) = e {
        out.push_str(&format!("{} ? {} : ", expr(c), expr(a)));
        e = b;
    }
    out.push_str(&expr(e));
    out.push(')');
    out
}

/// `powd x y`: by a literal exponent of 0.5, 2 or -1, the correctly rounded operation that C's
/// `pow` approximates (PoCL's double `pow` cost 500 ns per call on a 2-core CPU, 30 times its
/// `sqrt`: blackscholes spent most of its time there). The special cases stay C's: `pow(-0.0,
/// 0.5)` is +0.0 where `sqrt` gives -0.0 (`+ 0.0` makes it +0.0) and `pow(-inf, 0.5)` is +inf
/// where `sqrt` gives NaN; `x * x` and `1.0 / x` have `pow`'s NaN, infinities and signed zeros.
fn pow_expr(args: &[Expr]) -> String {
    let x = args.first().map(expr).unwrap_or_default();
    match args.get(1) {
        Some(Expr::Double(y)) if *y == 0.5 => format!("fcl_pow_half({x})"),
        Some(Expr::Double(y)) if *y == 2.0 => format!("fcl_square({x})"),
        Some(Expr::Double(y)) if *y == -1.0 => format!("((1.0) / {x})"),
        _ => format!("pow({x}, {})", args.get(1).map(expr).unwrap_or_default()),
    }
}

fn op_expr(op: ScalarOp, args: &[Expr]) -> String {
    use ScalarOp::*;
    let a = |i: usize| args.get(i).map(expr).unwrap_or_default();
    let call = |f: &str| format!("{f}({}, {})", a(0), a(1));
    match op {
        AddI => call("fcl_add"),
        SubI => call("fcl_sub"),
        MulI => call("fcl_mul"),
        // by a literal other than 0 and -1, C's truncating operators are the oracle's
        DivI if !super::checks_errors(op, args) => format!("({} / {})", a(0), a(1)),
        ModI if !super::checks_errors(op, args) => format!("({} % {})", a(0), a(1)),
        PowI if !super::checks_errors(op, args) => call("fcl_pow_nat"),
        DivI => format!("fcl_div({}, {}, {ERROR_FLAG})", a(0), a(1)),
        ModI => format!("fcl_mod({}, {}, {ERROR_FLAG})", a(0), a(1)),
        MinI => call("min"),
        MaxI => call("max"),
        PowI => format!("fcl_pow({}, {}, {ERROR_FLAG})", a(0), a(1)),
        Sll => call("fcl_shl"),
        Srl => call("fcl_shr"),
        AndI => format!("({} & {})", a(0), a(1)),
        OrI => format!("({} | {})", a(0), a(1)),
        Xor => format!("({} ^ {})", a(0), a(1)),
        EqI => format!("({} == {})", a(0), a(1)),
        NeqI => format!("({} != {})", a(0), a(1)),
        LtI => format!("({} < {})", a(0), a(1)),
        // not OpenCL's `abs`: PoCL lowers it to LLVM's abs with INT_MIN as poison, so
        // `abs(INT_MIN)` came back as garbage instead of INT_MIN (fuzz seed 1, program 187)
        AbsI => format!("fcl_abs({})", a(0)),
        SignI => format!("fcl_sign({})", a(0)),
        Clz => format!("clz({})", a(0)),
        NegateI => format!("fcl_sub(0, {})", a(0)),
        I2D => format!("(double)({})", a(0)),
        B2I => format!("(int)({})", a(0)),
        AddD => format!("({} + {})", a(0), a(1)),
        SubD => format!("({} - {})", a(0), a(1)),
        MulD => format!("({} * {})", a(0), a(1)),
        DivD => format!("({} / {})", a(0), a(1)),
        NegateD => format!("(-{})", a(0)),
        // The extension for TAIL (docs/fcl-extensions.md).
        PowD => pow_expr(args),
        // TAIL's NaN behaviour (NaN gives y), which OpenCL's fmax/fmin do not have
        MaxD => call("fcl_maxd"),
        MinD => call("fcl_mind"),
        NegD => format!("(-{})", a(0)),
        AbsD => format!("fabs({})", a(0)),
        ExpD => format!("fcl_exp({})", a(0)),
        LogD => format!("fcl_log({})", a(0)),
        SqrtD => format!("sqrt({})", a(0)),
        SinD => format!("sin({})", a(0)),
        CosD => format!("cos({})", a(0)),
        TanD => format!("tan({})", a(0)),
        AsinD => format!("asin({})", a(0)),
        AcosD => format!("acos({})", a(0)),
        AtanD => format!("atan({})", a(0)),
        SinhD => format!("sinh({})", a(0)),
        CoshD => format!("cosh({})", a(0)),
        TanhD => format!("tanh({})", a(0)),
        FloorD => format!("(int)floor({})", a(0)),
        CeilD => format!("(int)ceil({})", a(0)),
        SignD => format!("fcl_signd({})", a(0)),
        LtD => format!("({} < {})", a(0), a(1)),
        LeD => format!("({} <= {})", a(0), a(1)),
        GtD => format!("({} > {})", a(0), a(1)),
        GeD => format!("({} >= {})", a(0), a(1)),
        EqD => format!("({} == {})", a(0), a(1)),
        // both operands are evaluated, as in the oracle (no short circuit that could skip an
        // operand's error flag); bools are 0 or 1
        AndB => format!("({} & {})", a(0), a(1)),
        OrB => format!("({} | {})", a(0), a(1)),
        XorB => format!("({} != {})", a(0), a(1)),
        EqB => format!("({} == {})", a(0), a(1)),
        NotB => format!("(!{})", a(0)),
        // the first failed check stays (a later one of the work-item may follow from it): an
        // atomic compare-and-swap, so that work-items failing together do not race; the code
        // is CHECK_BASE + site
        CheckI if !super::checks_errors(op, args) => a(2),
        CheckI => format!("fcl_check({}, {}, {}, {ERROR_FLAG})", a(0), a(1), a(2)),
        // exact in 64 bits: the result fails when it does not fit 32
        AddIChecked => format!("fcl_addc({}, {}, {}, {ERROR_FLAG})", a(0), a(1), a(2)),
        SubIChecked => format!("fcl_subc({}, {}, {}, {ERROR_FLAG})", a(0), a(1), a(2)),
        MulIChecked => format!("fcl_mulc({}, {}, {}, {ERROR_FLAG})", a(0), a(1), a(2)),
        // through unsigned types, whose narrowing is defined (modulo 2^32) where a signed
        // one's is not
        DoubleHiBits => format!("as_int((uint)(as_ulong({}) >> 32))", a(0)),
        DoubleLoBits => format!("as_int((uint)as_ulong({}))", a(0)),
        // TAIL's counter-based `roll` generator (semantics::tail::ops::io::draw), in 64-bit
        // unsigned arithmetic
        RollAt => format!("fcl_roll({}, {}, {})", a(0), a(1), a(2)),
    }
}
