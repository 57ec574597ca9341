//! The higher-order operators (spec §5.9) as sequences of steps.
//!
//! `each`, `zipWith`, `reduce` and `scan` first take one step that decomposes the redex into its
//! applications (thesis 3.36: `each(v_f, [a⃗]^δ) ↪ reshape0(δ, [v_f a_0, …, v_f a_(n−1)])`). An
//! [`Iter`] frame then stands for the rest of that term: each application is one β step (3.55),
//! which stores the element a_i at a fresh location and enters f's body; the body's steps follow;
//! its value comes back to the frame. When all applications are done, a `reshape0` step stores
//! the result array. The applications happen in apltail's order (spec §4.3, §5.9).
//!
//! `power` follows (3.59)/(3.60): each 3.59 step applies f once (the thesis's `subi(l_n, 1)` is
//! folded into the frame's counter instead of being a separate redex).

use super::machine::{Focus, Frame, Machine, Stepped};
use super::rules::Rule;
use super::term::{Closure, Node, NodeId, Value};
use crate::tail::ops::apply::{is_scalar_op, scalar_result_type};
use crate::tail::ops::prim::Prim;
use crate::tail::ops::shape::int_scalar;
use crate::tail::store::Loc;
use crate::tail::value::{product, Array, BaseType, ElemsBuilder, Scalar};
use std::rc::Rc;

/// Which operator an [`Iter`] runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Each,
    ZipWith,
    Reduce,
    Scan,
    Power,
}

/// A higher-order operator part way through its applications.
#[derive(Debug)]
pub(super) struct Iter {
    pub(super) kind: Kind,
    node: NodeId,
    pub(super) name: &'static str,
    pub(super) f: Rc<Closure>,
    /// The argument array (the first one for `zipWith`); for `power`, the current value.
    pub(super) src: Value,
    pub(super) src2: Option<Loc>,
    /// The result's shape.
    pub(super) shape: Vec<usize>,
    /// Number of applications (each, zipWith) or rows (reduce, scan); remaining count (power).
    pub(super) n: usize,
    /// Row length (reduce, scan).
    pub(super) m: usize,
    /// Next application (each, zipWith) or row (reduce, scan).
    pub(super) i: usize,
    /// Next element within the row (reduce, scan).
    pub(super) j: usize,
    /// The accumulator of the current row (reduce, scan).
    pub(super) acc: Option<Value>,
    out: ElemsBuilder,
    out_ty: Option<BaseType>,
    /// The enclosing strand's span, restored when the operator finishes.
    outer_strand: u64,
    /// The longest application strand so far.
    max_strand: u64,
}

fn ceil_log2(m: usize) -> u64 {
    if m <= 1 {
        0
    } else {
        (usize::BITS - (m - 1).leading_zeros()) as u64
    }
}

impl Machine {
    /// The first step of a higher-order redex `op(v_f, v⃗)`.
    pub(super) fn start_iter(
        &mut self,
        id: NodeId,
        prim: Prim,
        name: &'static str,
        vals: Vec<Value>,
    ) -> Stepped {
        let rule = Rule::for_op(prim, name);
        let Some(Value::Closure(f)) = vals.first().cloned() else {
            return self.stuck(id, &format!("{name} needs a function argument"));
        };
        match prim {
            // (3.59)/(3.60) power, and powerScl/bench which step alike.
            Prim::Power | Prim::PowerScl | Prim::Bench => {
                let n = match vals
                    .get(1)
                    .and_then(Value::loc)
                    .map(|l| int_scalar(&l.get()))
                {
                    Some(Ok(n)) => n,
                    _ => return self.stuck(id, "power count is not an int"),
                };
                let x = vals[2].clone();
                if n < 0 {
                    // apltail: a negative count is an error. Thesis (3.60): returns the argument.
                    return self.error(
                        Rule::POWER_DONE,
                        id,
                        format!("{name} with negative count {n}"),
                    );
                }
                if n == 0 {
                    if self.tracing {
                        self.trace.result = super::show::value(&x);
                    }
                    self.focus = Focus::Return(x);
                    return self.next(Rule::POWER_DONE, 0, 0);
                }
                let it = self.new_iter(
                    Kind::Power,
                    id,
                    name,
                    f.clone(),
                    x.clone(),
                    None,
                    vec![],
                    n as usize - 1,
                    0,
                );
                self.stack.push(Frame::Iter(Box::new(it)));
                self.beta(&f, x, Rule::POWER)
            }
            // (3.76) condScl(v_f, l_b, l) ↪ v_f l if s(l_b) = tt, else l.
            Prim::CondScl => {
                let b = match vals.get(1).and_then(Value::loc).and_then(|l| l.scalar()) {
                    Some(Scalar::Bool(b)) => b,
                    _ => return self.stuck(id, "condScl condition is not a boolean"),
                };
                let x = vals[2].clone();
                if b {
                    self.beta(&f, x, rule)
                } else {
                    self.focus = Focus::Return(x);
                    self.next(rule, 0, 0)
                }
            }
            Prim::Each => {
                let Some(a) = vals.get(1).and_then(Value::loc).cloned() else {
                    return self.stuck(id, "each of a non-array");
                };
                let (shape, n) = {
                    let arr = a.get();
                    (arr.shape.clone(), arr.size())
                };
                let it = self.new_iter(Kind::Each, id, name, f, Value::Loc(a), None, shape, n, 0);
                self.begin_bulk(it, rule)
            }
            // (3.68) zipWith: both shapes must be equal (no scalar extension).
            Prim::ZipWith => {
                let (Some(a), Some(b)) = (
                    vals.get(1).and_then(Value::loc),
                    vals.get(2).and_then(Value::loc),
                ) else {
                    return self.stuck(id, "zipWith of non-arrays");
                };
                let (sa, sb) = (a.get().shape.clone(), b.get().shape.clone());
                if sa != sb {
                    return self.error(rule, id, format!("zipWith of shapes {sa:?} and {sb:?}"));
                }
                let n = a.get().size();
                let it = self.new_iter(
                    Kind::ZipWith,
                    id,
                    name,
                    f,
                    Value::Loc(a.clone()),
                    Some(b.clone()),
                    sa,
                    n,
                    0,
                );
                self.begin_bulk(it, rule)
            }
            // (3.37) reduce and (3.67) scan, along the last axis, in apltail's order (spec §5.9):
            // per row `acc := x_0; acc := f(x_j)(acc)` for j = 1…m−1, z used only for ⟨0⟩, and an
            // empty last axis at rank ≥ 2 is an error. Thesis (3.37), indices corrected: a right
            // fold `f(x_0, f(x_1, … f(x_(m−1), z)))` with z on every row (so ⟨2,0⟩ gives z, z).
            // They agree for exact associative-commutative f with z an identity; they differ for
            // subi, float sums and curried lambdas. scan: thesis has 2 arguments and no rule;
            // apltail evaluates z and ignores it, `y_0 = x_0`, `y_j = f(x_j)(y_(j−1))`.
            Prim::Reduce | Prim::Scan => {
                let Some(a) = vals.get(2).and_then(Value::loc).cloned() else {
                    return self.stuck(id, "reduce of a non-array");
                };
                let z = vals[1].clone();
                let shape = a.get().shape.clone();
                // r = 0: the result is the argument itself.
                if shape.is_empty() {
                    self.focus = Focus::Return(Value::Loc(a));
                    return self.next(rule, 0, 1);
                }
                // The empty vector: reduce gives z, scan the empty vector.
                if shape == [0] {
                    let r = if prim == Prim::Reduce {
                        z
                    } else {
                        Value::Loc(a)
                    };
                    self.focus = Focus::Return(r);
                    return self.next(rule, 0, 1);
                }
                let m = *shape.last().unwrap_or(&0);
                let rows_shape = shape[..shape.len() - 1].to_vec();
                let k = product(&rows_shape).unwrap_or(0);
                if prim == Prim::Reduce && m == 0 && k > 0 {
                    // apltail reads x_0 of an empty row (spec §5.9). Thesis (3.37): z per row.
                    return self.error(rule, id, "reduce over an empty last axis".into());
                }
                let (kind, out_shape) = if prim == Prim::Reduce {
                    (Kind::Reduce, rows_shape)
                } else {
                    (Kind::Scan, shape.clone())
                };
                let ty = a.get().base_type();
                if m <= 1 || k == 0 {
                    // No application of f is needed: each row's result is its first element.
                    let arr = a.get();
                    let elems = arr
                        .elems
                        .gather((0..product(&out_shape).unwrap_or(0)).map(Some));
                    drop(arr);
                    return self.store_result(
                        id,
                        rule,
                        Array {
                            shape: out_shape,
                            elems,
                        },
                    );
                }
                let mut it = self.new_iter(kind, id, name, f, Value::Loc(a), None, out_shape, k, m);
                it.j = 1;
                it.out_ty = Some(ty);
                self.begin_bulk(it, rule)
            }
            _ => self.stuck(id, "not a higher-order operator"),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn new_iter(
        &self,
        kind: Kind,
        node: NodeId,
        name: &'static str,
        f: Rc<Closure>,
        src: Value,
        src2: Option<Loc>,
        shape: Vec<usize>,
        n: usize,
        m: usize,
    ) -> Iter {
        Iter {
            kind,
            node,
            name,
            f,
            src,
            src2,
            shape,
            n,
            m,
            i: 0,
            j: 0,
            acc: None,
            out: ElemsBuilder::default(),
            out_ty: None,
            outer_strand: 0,
            max_strand: 0,
        }
    }

    /// The decomposition step of a bulk operator: from here its applications run as strands.
    fn begin_bulk(&mut self, mut it: Iter, rule: Rule) -> Stepped {
        let step = self.next(rule, 0, 0);
        it.outer_strand = self.strand;
        it.out = ElemsBuilder::with_capacity(it.n.saturating_mul(it.m.max(1)).min(1 << 24));
        self.bulk_depth += 1;
        self.strand = 0;
        if self.tracing {
            self.trace.result = format!("reshape0(…) of {} applications", it.n);
        }
        self.stack.push(Frame::Iter(Box::new(it)));
        self.focus = Focus::Resume;
        step
    }

    /// The next step of an operator in progress: an application, or the final step.
    pub(super) fn resume(&mut self, mut it: Box<Iter>) -> Stepped {
        match it.kind {
            Kind::Power => {
                let x = it.src.clone();
                if it.n == 0 {
                    // (3.60) power(λx.e, l_n, l)/s ↪ l/s when s(l_n) ≤ 0.
                    if self.tracing {
                        self.trace.redex = format!("{}(…, 0, {})", it.name, super::show::value(&x));
                        self.trace.result = super::show::value(&x);
                    }
                    self.focus = Focus::Return(x);
                    return self.next(Rule::POWER_DONE, 0, 0);
                }
                // (3.59) power(λx.e, l_n, l)/s ↪ power(λx.e, subi(l_n,1), e[l/x])/s.
                it.n -= 1;
                let f = it.f.clone();
                self.stack.push(Frame::Iter(it));
                self.beta(&f, x, Rule::POWER)
            }
            Kind::Each | Kind::ZipWith => {
                if it.i == it.n {
                    return self.finish_bulk(it, 1);
                }
                self.strand = 0;
                let Some(src) = it.src.loc().cloned() else {
                    return self.stuck(it.node, "bulk operator over a non-array");
                };
                let a = self.element(&src, it.i);
                let f = it.f.clone();
                if let Some(b) = it.src2.clone() {
                    let bv = self.element(&b, it.i);
                    self.stack.push(Frame::Iter(it));
                    self.stack.push(Frame::ApplyTo { arg: bv });
                } else {
                    self.stack.push(Frame::Iter(it));
                }
                self.beta(&f, a, Rule::BETA)
            }
            Kind::Reduce | Kind::Scan => {
                if it.i == it.n {
                    let levels = ceil_log2(it.m);
                    return self.finish_bulk(it, levels);
                }
                self.strand = 0;
                let Some(src) = it.src.loc().cloned() else {
                    return self.stuck(it.node, "reduction over a non-array");
                };
                let row = it.i * it.m;
                let acc = match it.acc.take() {
                    Some(a) => a,
                    None => {
                        let x0 = self.element(&src, row);
                        if it.kind == Kind::Scan {
                            if let Some(x) = x0.loc().and_then(Loc::scalar) {
                                it.out.push(x);
                            }
                        }
                        x0
                    }
                };
                // acc := f(x_j)(acc): the new element is the first argument (spec trap 1).
                let x = self.element(&src, row + it.j);
                let f = it.f.clone();
                self.stack.push(Frame::Iter(it));
                self.stack.push(Frame::ApplyTo { arg: acc });
                self.beta(&f, x, Rule::BETA)
            }
        }
    }

    /// Element `i` of the array at `l`, stored at a fresh location (for a β step).
    fn element(&mut self, l: &Loc, i: usize) -> Value {
        let x = {
            let a = l.get();
            (i < a.size()).then(|| a.elems.get(i))
        };
        let x = x.unwrap_or(Scalar::Int(0));
        Value::Loc(self.alloc(Array::scalar(x)))
    }

    /// An application's value comes back to its operator. Returns a step only on failure.
    pub(super) fn receive(&mut self, mut it: Box<Iter>, v: Value) -> Option<Stepped> {
        if it.kind == Kind::Power {
            it.src = v;
            self.stack.push(Frame::Iter(it));
            self.focus = Focus::Resume;
            return None;
        }
        let x = match v.loc().map(|l| {
            let a = l.get();
            (a.rank() == 0).then(|| a.elems.get(0))
        }) {
            Some(Some(x)) => x,
            _ => return Some(self.stuck(it.node, "element function must return a scalar")),
        };
        match it.out_ty {
            None => it.out_ty = Some(x.base_type()),
            Some(t) if t != x.base_type() => {
                return Some(self.stuck(it.node, "element function returns mixed base types"))
            }
            Some(_) => {}
        }
        it.max_strand = it.max_strand.max(self.strand);
        match it.kind {
            Kind::Each | Kind::ZipWith => {
                it.out.push(x);
                it.i += 1;
            }
            Kind::Reduce | Kind::Scan => {
                if it.kind == Kind::Scan {
                    it.out.push(x);
                }
                it.j += 1;
                if it.j == it.m {
                    if it.kind == Kind::Reduce {
                        it.out.push(x);
                    }
                    it.i += 1;
                    it.j = 1;
                    it.acc = None;
                } else {
                    it.acc = Some(v);
                }
            }
            Kind::Power => {}
        }
        self.stack.push(Frame::Iter(it));
        self.focus = Focus::Resume;
        None
    }

    /// The final `reshape0` step: store the results with the operator's shape. Its span is the
    /// parallel span of the whole operation: `levels` rounds of the longest strand, plus one.
    fn finish_bulk(&mut self, it: Box<Iter>, levels: u64) -> Stepped {
        let ty = it.out_ty.unwrap_or_else(|| self.guess_result_type(&it));
        let n = it.out.len();
        let arr = Array {
            shape: it.shape.clone(),
            elems: it.out.finish(ty),
        };
        self.bulk_depth -= 1;
        self.strand = it.outer_strand;
        let span = levels.max(1) * it.max_strand + 1;
        let l = self.alloc(arr);
        if self.tracing {
            self.trace.redex = format!(
                "reshape0([{}], [{} values]) of {}",
                super::show::shape(&it.shape),
                n,
                it.name
            );
            self.trace.result = l.to_string();
        }
        self.focus = Focus::Return(Value::Loc(l));
        self.next(Rule::RESHAPE0, n as u64, span)
    }

    /// The element type of an operator's result when no application ran (an empty argument):
    /// the result type of f's body operator if it is a scalar operator, else the argument's.
    fn guess_result_type(&self, it: &Iter) -> BaseType {
        let prog = &self.prog;
        if let Node::Lam(l) = prog.node(it.f.lam) {
            let mut body = l.body;
            // Look through curried lambdas to the innermost body.
            while let Node::Lam(inner) = prog.node(body) {
                body = inner.body;
            }
            if let Node::Op { prim, .. } = prog.node(body) {
                if is_scalar_op(*prim) {
                    if let Some(t) = scalar_result_type(*prim) {
                        return t;
                    }
                }
            }
        }
        it.src
            .loc()
            .map(|l| l.get().base_type())
            .unwrap_or(BaseType::Int)
    }
}
