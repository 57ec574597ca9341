//! Printing redexes, terms and values for step traces. Terms are printed in TAIL syntax with
//! values as locations (`addi(l3,l4)`), shortened to [`BUDGET`] characters (`…`), so that a
//! step's line stays readable and printing never costs more than a bounded amount.

use super::term::{Node, NodeId, Program, Value};
use crate::tail::ops::prim::Prim;
use crate::tail::print_value::{char_text, double_literal};
use crate::tail::value::Scalar;

/// Characters of a printed term before it is cut off.
pub const BUDGET: usize = 160;

/// Cuts `s` to [`BUDGET`] characters.
pub fn clip(s: &str) -> String {
    if s.chars().count() <= BUDGET {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(BUDGET).collect();
        t.push('…');
        t
    }
}

/// A value: `l3`, `fn`, or a tuple `(l1,l2)`.
pub fn value(v: &Value) -> String {
    match v {
        Value::Loc(l) => l.to_string(),
        Value::Closure(_) => "fn".into(),
        Value::Tuple(parts) => {
            let p: Vec<String> = parts.iter().map(value).collect();
            format!("({})", p.join(","))
        }
    }
}

/// A shape `2,3`.
pub fn shape(s: &[usize]) -> String {
    s.iter()
        .map(|n| n.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

/// The redex `op(v⃗)`; function arguments print as their lambdas (or eta-reduced names).
pub fn op_redex(prog: &Program, name: &str, prim: Prim, vals: &[Value]) -> String {
    let mut parts: Vec<String> = vals
        .iter()
        .map(|v| match v {
            Value::Closure(c) => term(prog, c.lam),
            other => value(other),
        })
        .collect();
    if prim == Prim::Replicate {
        parts.insert(0, "_".into());
    }
    clip(&format!("{name}({})", parts.join(",")))
}

/// The redex `let x = v in e`.
pub fn let_redex(prog: &Program, id: NodeId, v: &Value) -> String {
    match prog.node(id) {
        Node::Let { name, body, .. } => clip(&format!(
            "let {name} = {} in {}",
            value(v),
            term(prog, *body)
        )),
        _ => String::new(),
    }
}

/// A term, shortened.
pub fn term(prog: &Program, id: NodeId) -> String {
    let mut out = String::new();
    write_term(prog, id, &mut out);
    clip(&out)
}

/// A base value as a TAIL literal that reads back to exactly the same value (doubles in
/// shortest round-trip form, e.g. `49.94450610432852`, `1e20`; spec §1.4's accepted set).
pub fn scalar_lit_exact(x: Scalar) -> String {
    fn d(v: f64) -> String {
        if v.is_infinite() {
            if v > 0.0 { "inf" } else { "-inf" }.to_string()
        } else {
            format!("{v:?}")
        }
    }
    match x {
        Scalar::Double(v) => d(v),
        Scalar::Complex((re, im)) => format!("{}j{}", d(re), d(im)),
        other => scalar_lit(other),
    }
}

/// A base value as a TAIL literal (`-3`, `2.5`, `tt`, `'a'`, `1.0j2.0`).
pub fn scalar_lit(x: Scalar) -> String {
    match x {
        Scalar::Int(i) => i.to_string(),
        Scalar::Double(d) => double_literal(d),
        Scalar::Bool(b) => if b { "tt" } else { "ff" }.into(),
        Scalar::Char(c) => format!("'{}'", char_text(c)),
        Scalar::Complex((re, im)) => format!("{}j{}", double_literal(re), double_literal(im)),
    }
}

fn write_list(prog: &Program, ids: &[NodeId], out: &mut String) {
    for (k, &a) in ids.iter().enumerate() {
        if out.len() > BUDGET {
            return;
        }
        if k > 0 {
            out.push(',');
        }
        write_term(prog, a, out);
    }
}

fn write_term(prog: &Program, id: NodeId, out: &mut String) {
    if out.len() > BUDGET {
        return;
    }
    match prog.node(id) {
        Node::Lit(x, _) => out.push_str(&scalar_lit(*x)),
        Node::Var { name, .. } => out.push_str(name),
        Node::Let {
            name, rhs, body, ..
        } => {
            out.push_str(&format!("let {name} = "));
            write_term(prog, *rhs, out);
            out.push_str(" in ");
            write_term(prog, *body, out);
        }
        Node::Lam(l) if l.eta.is_some() => out.push_str(l.eta.unwrap_or_default()),
        Node::Lam(l) => {
            out.push_str(&format!("fn {} => ", l.param));
            write_term(prog, l.body, out);
        }
        Node::Op { name, args, .. } => {
            out.push_str(name);
            out.push('(');
            write_list(prog, args, out);
            out.push(')');
        }
        Node::Vector { elems, .. } => {
            out.push('[');
            write_list(prog, elems, out);
            out.push(']');
        }
        Node::Tuple { elems, .. } => {
            out.push('(');
            write_list(prog, elems, out);
            out.push(')');
        }
        Node::Prj { index, tuple, .. } => {
            out.push_str(&format!("Prj({index},"));
            write_term(prog, *tuple, out);
            out.push(')');
        }
        Node::If {
            cond, then_, else_, ..
        } => {
            out.push_str("if ");
            write_term(prog, *cond, out);
            out.push_str(" then ");
            write_term(prog, *then_, out);
            out.push_str(" else ");
            write_term(prog, *else_, out);
        }
    }
}

/// The layout of a value for `pr*` and the result line (spec §6.2), without the final newline:
/// arrays as [`crate::tail::print_value::array_text`], closures `[](fn)`, tuples
/// `[](([3](3,1,2),[](2)))`.
pub fn value_text(v: &Value) -> String {
    fn inner(v: &Value) -> String {
        match v {
            Value::Loc(l) => crate::tail::print_value::array_text(&l.get()),
            Value::Closure(_) => "[](fn)".into(),
            Value::Tuple(parts) => {
                let p: Vec<String> = parts.iter().map(inner).collect();
                format!("[](({}))", p.join(","))
            }
        }
    }
    inner(v)
}
