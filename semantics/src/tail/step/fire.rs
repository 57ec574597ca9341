//! Redexes whose subterms are all values: `op(v⃗)`, `[v⃗]`, `(v⃗)`, `Prj(i, v)`, `if v …`.
//! Each function here is one rule or one group of rules (see [`super::rules`]).

use super::machine::{ArgVals, Focus, Machine, Stepped};
use super::rules::Rule;
use super::term::{Node, NodeId, Value};
use crate::tail::ops::apply::{apply, Outcome};
use crate::tail::ops::prim::Prim;
use crate::tail::ops::select;
use crate::tail::ops::shape::ints;
use crate::tail::value::{Array, Elems, Scalar};
use std::cell::Ref;
use std::rc::Rc;

impl Machine {
    /// `op(v⃗)/s ↪ …`: the operator's rule.
    pub(super) fn fire_op(&mut self, id: NodeId, vals: ArgVals) -> Stepped {
        let prog = Rc::clone(&self.prog);
        let Node::Op { prim, name, .. } = prog.node(id) else {
            return self.stuck(id, "not an operator application");
        };
        let (prim, name) = (*prim, *name);
        let ArgVals { len, vals } = vals;
        let vals: Vec<Value> = vals.into_iter().take(len as usize).flatten().collect();
        if self.tracing {
            self.trace.redex = super::show::op_redex(&prog, name, prim, &vals);
        }
        if prim.is_higher_order() {
            return self.start_iter(id, prim, name, vals);
        }
        match prim {
            // (3.57)/(3.58) idxassign(l_idx, l_arr, l_val), the thesis's update(l_arr, l_idx, l_val).
            Prim::Idxassign => self.fire_update(id, name, &vals),
            // (3.66) replicate(e, l_c, l_a): the first argument stays unevaluated.
            Prim::Replicate => {
                let (Some(c), Some(a)) = (
                    vals.first().and_then(Value::loc),
                    vals.get(1).and_then(Value::loc),
                ) else {
                    return self.stuck(id, "replicate needs two arrays");
                };
                let r = select::replicate(&c.get(), &a.get());
                match r {
                    Ok(arr) => self.store_result(id, Rule::for_op(prim, name), arr),
                    Err(e) => self.error(Rule::for_op_error(prim, name), id, e),
                }
            }
            _ => self.fire_first_order(id, prim, name, &vals),
        }
    }

    /// A first-order operator: read `s(l⃗)`, compute the meaning, store the result.
    fn fire_first_order(
        &mut self,
        id: NodeId,
        prim: Prim,
        name: &'static str,
        vals: &[Value],
    ) -> Stepped {
        let mut locs = Vec::with_capacity(vals.len());
        for v in vals {
            match v {
                Value::Loc(l) => locs.push(l.clone()),
                _ => return self.stuck(id, &format!("{name} applied to a non-array")),
            }
        }
        let arrs: Vec<Ref<'_, Array>> = locs.iter().map(|l| l.get()).collect();
        let refs: Vec<&Array> = arrs.iter().map(|r| &**r).collect();
        let rule = refine(prim, name, &refs);
        self.env.site = self.prog.node(id).span().start;
        let res = apply(prim, &refs, &mut self.env);
        drop(refs);
        drop(arrs);
        match res {
            Err(e) => self.error(Rule::for_op_error(prim, name), id, e),
            Ok(applied) => {
                if let Some(text) = applied.output {
                    if self.tracing {
                        self.trace.effects.push(format!("output {:?}", text));
                    }
                    self.output.push_str(&text);
                }
                let result = match applied.outcome {
                    // (3.77) zilde: the empty vector of the element type inferred for it
                    Outcome::New(arr) => match self.prog.zilde_types.get(&id) {
                        Some(&ty) => self.alloc(arr.as_fills_of(ty).unwrap_or(arr)),
                        None => self.alloc(arr),
                    },
                    Outcome::Arg(i) => locs[i].clone(),
                };
                if self.tracing {
                    self.trace.result = result.to_string();
                }
                self.focus = Focus::Return(Value::Loc(result));
                self.next(rule, applied.work, 1)
            }
        }
    }

    /// Stores `arr` at a fresh location as the result of rule `rule`.
    pub(super) fn store_result(&mut self, _id: NodeId, rule: Rule, arr: Array) -> Stepped {
        let work = arr.size().max(1) as u64;
        let l = self.alloc(arr);
        if self.tracing {
            self.trace.result = l.to_string();
        }
        self.focus = Focus::Return(Value::Loc(l));
        self.next(rule, work, 1)
    }

    /// (3.57) `update(l_arr, l_idx, l_val)/s ↪ l'/s[l_arr ↦ …], {l' ↦ tt}`, or (3.58) `err`.
    fn fire_update(&mut self, id: NodeId, name: &'static str, vals: &[Value]) -> Stepped {
        let [Value::Loc(is), Value::Loc(arr), Value::Loc(v)] = vals else {
            return self.stuck(id, "idxassign needs three arrays");
        };
        let err_rule = Rule::for_op_error(Prim::Idxassign, name);
        let idx = match ints(&is.get()) {
            Ok(i) => i,
            Err(e) => return self.stuck(id, &e),
        };
        let Some(x) = v.scalar() else {
            return self.stuck(id, "idxassign of a non-scalar value");
        };
        let shape = arr.get().shape.clone();
        let j = match select::update_position(&idx, &shape) {
            Ok(j) => j,
            Err(e) => return self.error(err_rule, id, e),
        };
        if let Err(e) = select::write_element(&mut arr.get_mut(), j, x) {
            return self.stuck(id, &e);
        }
        if self.tracing {
            self.trace.effects.push(format!(
                "update {arr}[{j}] := {}",
                crate::tail::print_value::scalar_text(x)
            ));
        }
        let tt = self.alloc(Array::scalar(Scalar::Bool(true)));
        if self.tracing {
            self.trace.result = tt.to_string();
        }
        self.focus = Focus::Return(Value::Loc(tt));
        self.next(Rule::for_op(Prim::Idxassign, name), 1, 1)
    }

    /// (3.56) `[l⃗]/s ↪ l/(s, l ↦ [bv⃗]^⟨n⟩)` for a vector literal, and (3.78) a tuple of values.
    pub(super) fn fire_elems(&mut self, id: NodeId, vals: Vec<Value>) -> Stepped {
        let prog = Rc::clone(&self.prog);
        if let Node::Tuple { .. } = prog.node(id) {
            if self.tracing {
                let parts: Vec<String> = vals.iter().map(super::show::value).collect();
                self.trace.redex = format!("({})", parts.join(","));
                self.trace.result = self.trace.redex.clone();
            }
            self.focus = Focus::Return(Value::Tuple(vals.into()));
            return self.next(Rule::TUPLE, 0, 0);
        }
        let mut xs = Vec::with_capacity(vals.len());
        for v in &vals {
            match v.loc().and_then(|l| {
                let a = l.get();
                (a.rank() == 0).then(|| a.elems.get(0))
            }) {
                Some(x) => xs.push(x),
                None => return self.stuck(id, "vector literal elements must be scalars"),
            }
        }
        let ty = match xs.first() {
            Some(x) => x.base_type(),
            None => crate::tail::value::BaseType::Int,
        };
        if xs.iter().any(|x| x.base_type() != ty) {
            return self.stuck(id, "vector literal mixes base types");
        }
        if self.tracing {
            let parts: Vec<String> = vals.iter().map(super::show::value).collect();
            self.trace.redex = format!("[{}]", parts.join(","));
        }
        let n = xs.len();
        let arr = Array {
            shape: vec![n],
            elems: Elems::from_scalars(ty, xs),
        };
        let l = self.alloc(arr);
        if self.tracing {
            self.trace.result = l.to_string();
        }
        self.focus = Focus::Return(Value::Loc(l));
        self.next(Rule::ALLOC, n as u64, 1)
    }

    /// (3.78) `Prj(i, (v⃗)) ↪ v_i`.
    pub(super) fn fire_prj(&mut self, id: NodeId, v: Value) -> Stepped {
        let prog = Rc::clone(&self.prog);
        let Node::Prj { index, .. } = prog.node(id) else {
            return self.stuck(id, "not a projection");
        };
        match &v {
            Value::Tuple(parts) if *index < parts.len() => {
                let r = parts[*index].clone();
                if self.tracing {
                    self.trace.redex = format!("Prj({index},{})", super::show::value(&v));
                    self.trace.result = super::show::value(&r);
                }
                self.focus = Focus::Return(r);
                self.next(Rule::PRJ, 0, 0)
            }
            _ => self.stuck(id, "projection from a non-tuple or out of range"),
        }
    }

    /// (3.79) `if l then e1 else e2 ↪ e1` when `s(l) = tt`, else `e2`.
    pub(super) fn fire_if(&mut self, id: NodeId, v: Value) -> Stepped {
        let prog = Rc::clone(&self.prog);
        let Node::If { then_, else_, .. } = prog.node(id) else {
            return self.stuck(id, "not a conditional");
        };
        let b = match v.loc().and_then(|l| l.scalar()) {
            Some(Scalar::Bool(b)) => b,
            _ => return self.stuck(id, "condition is not a boolean"),
        };
        let next = if b { *then_ } else { *else_ };
        if self.tracing {
            self.trace.redex = format!("if {} then … else …", super::show::value(&v));
            self.trace.result = super::show::term(&prog, next);
        }
        self.focus = Focus::Eval(next);
        self.next(Rule::IF, 0, 0)
    }
}

/// The rule for a first-order redex, refined where the thesis has separate rules for cases:
/// (3.39) reshape of an empty array, (3.44) take with a negative count, (3.46) first of an empty
/// array.
fn refine(prim: Prim, name: &'static str, args: &[&Array]) -> Rule {
    match (prim, args) {
        (Prim::Reshape, [_, a]) if a.size() == 0 => Rule::new("3.39", name),
        (Prim::Take, [n, _]) if matches!(n.as_scalar(), Some(Scalar::Int(k)) if k < 0) => {
            Rule::new("3.44", name)
        }
        (Prim::First, [a]) if a.size() == 0 => Rule::new("3.46", name),
        _ => Rule::for_op(prim, name),
    }
}
