//! One-step shrinking of generated FCL programs. Every candidate keeps each node's type and
//! static size (a subterm is only replaced by one of the same type and size in the same scope),
//! so all candidates stay well typed and free of run-time errors by the generator's invariants.

use crate::gen::fcl_ast::*;

/// The programs one shrinking step away from `p`, most aggressive first.
pub fn candidates(p: &FclProgram) -> Vec<FclProgram> {
    let mut out = Vec::new();
    let src = crate::gen::print_program(p);
    // drop a statement whose array nobody reads later
    for i in 0..p.stmts.len() {
        if p.stmts.len() > 1 && !mentions(&src, &p.stmts[i].name) {
            let mut q = p.clone();
            q.stmts.remove(i);
            out.push(q);
        }
    }
    for i in 0..p.stmts.len() {
        if p.stmts[i].count > 1 {
            let mut q = p.clone();
            q.stmts[i].count = 1;
            out.push(q);
        }
        for prog in prog_candidates(Level::Grid, &p.stmts[i].prog) {
            let mut q = p.clone();
            q.stmts[i].prog = prog;
            out.push(q);
        }
    }
    out
}

/// Whether `name` is used as an identifier in `src` outside its own binding (`name <-`).
fn mentions(src: &str, name: &str) -> bool {
    src.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '\''))
        .filter(|t| *t == name)
        .count()
        > 1
}

/// The simplest program of a level and size: `return<l> (push<l> (generate n (fn i => 0)))`.
fn trivial(level: Level, n: usize) -> ProgE {
    ProgE::Return(
        level,
        PushE::Push(
            level,
            PullE::Generate(n, "z".into(), Box::new(IntE::Lit(0))),
        ),
    )
}

fn prog_candidates(level: Level, p: &ProgE) -> Vec<ProgE> {
    let mut out = Vec::new();
    let n = p.len();
    let is_trivial = matches!(p, ProgE::Return(_, PushE::Push(_, PullE::Generate(_, _, e))) if **e == IntE::Lit(0));
    if !is_trivial {
        out.push(trivial(level, n));
    }
    match p {
        ProgE::Return(l, a) => {
            out.extend(push_candidates(a).into_iter().map(|a| ProgE::Return(*l, a)));
        }
        ProgE::Force(l, v, a, rest) => {
            if !uses(&crate::gen::fcl_print::prog(rest), v) {
                out.push((**rest).clone());
            }
            for r in prog_candidates(*l, rest) {
                out.push(ProgE::Force(*l, v.clone(), a.clone(), Box::new(r)));
            }
            for c in push_candidates(a) {
                if c.len() == a.len() {
                    out.push(ProgE::Force(*l, v.clone(), c, rest.clone()));
                }
            }
        }
        ProgE::MapResult(l, v, i, x, e, inner) => {
            out.push((**inner).clone());
            for c in int_candidates(e) {
                let (v, i, x) = (v.clone(), i.clone(), x.clone());
                out.push(ProgE::MapResult(*l, v, i, x, Box::new(c), inner.clone()));
            }
            for c in prog_candidates(*l, inner) {
                let (v, i, x) = (v.clone(), i.clone(), x.clone());
                out.push(ProgE::MapResult(*l, v, i, x, e.clone(), Box::new(c)));
            }
        }
        ProgE::LengthOf {
            level: l,
            v,
            q,
            j,
            n,
            e,
            inner,
        } => {
            for c in int_candidates(e) {
                out.push(ProgE::LengthOf {
                    level: *l,
                    v: v.clone(),
                    q: q.clone(),
                    j: j.clone(),
                    n: *n,
                    e: Box::new(c),
                    inner: inner.clone(),
                });
            }
        }
        ProgE::Interleave {
            level: l,
            seq,
            perm,
            nb,
            b,
            sub,
        } => {
            let sub_level = if *seq {
                *l
            } else {
                l.below().unwrap_or(Level::Thread)
            };
            if *perm != Perm::RowMajor {
                out.push(ProgE::Interleave {
                    level: *l,
                    seq: *seq,
                    perm: Perm::RowMajor,
                    nb: *nb,
                    b: b.clone(),
                    sub: sub.clone(),
                });
            }
            for s in prog_candidates(sub_level, sub) {
                out.push(ProgE::Interleave {
                    level: *l,
                    seq: *seq,
                    perm: *perm,
                    nb: *nb,
                    b: b.clone(),
                    sub: Box::new(s),
                });
            }
        }
        ProgE::Power {
            level: l,
            iters,
            i,
            x,
            y,
            step,
            init,
        } => {
            out.push((**init).clone());
            let rebuild = |iters: usize, step: ProgE, init: ProgE| ProgE::Power {
                level: *l,
                iters,
                i: i.clone(),
                x: x.clone(),
                y: y.clone(),
                step: Box::new(step),
                init: Box::new(init),
            };
            if *iters > 1 {
                out.push(rebuild(1, (**step).clone(), (**init).clone()));
            }
            for s in prog_candidates(*l, step) {
                out.push(rebuild(*iters, s, (**init).clone()));
            }
            for s in prog_candidates(*l, init) {
                out.push(rebuild(*iters, (**step).clone(), s));
            }
        }
        ProgE::While {
            level: l,
            bound,
            n,
            x,
            j,
            y,
            body,
            init,
        } => {
            let rebuild = |bound: i32, body: IntE, init: IntE| ProgE::While {
                level: *l,
                bound,
                n: *n,
                x: x.clone(),
                j: j.clone(),
                y: y.clone(),
                body: Box::new(body),
                init: Box::new(init),
            };
            if *bound > 1 {
                out.push(rebuild(1, (**body).clone(), (**init).clone()));
            }
            for e in int_candidates(body) {
                out.push(rebuild(*bound, e, (**init).clone()));
            }
            for e in int_candidates(init) {
                out.push(rebuild(*bound, (**body).clone(), e));
            }
        }
    }
    out
}

fn uses(src: &str, name: &str) -> bool {
    src.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '\''))
        .any(|t| t == name)
}

fn push_candidates(a: &PushE) -> Vec<PushE> {
    let mut out = Vec::new();
    match a {
        PushE::Push(l, arr) => {
            out.extend(pull_candidates(arr).into_iter().map(|p| PushE::Push(*l, p)));
        }
        PushE::MapPush(l, i, x, e, inner) => {
            out.push((**inner).clone());
            for c in int_candidates(e) {
                out.push(PushE::MapPush(
                    *l,
                    i.clone(),
                    x.clone(),
                    Box::new(c),
                    inner.clone(),
                ));
            }
            for c in push_candidates(inner) {
                out.push(PushE::MapPush(
                    *l,
                    i.clone(),
                    x.clone(),
                    e.clone(),
                    Box::new(c),
                ));
            }
        }
        PushE::Scan(rd, i, op, e0, e, n) => {
            out.push(PushE::Push(
                Level::Thread,
                PullE::Generate(*n, i.clone(), e.clone()),
            ));
            for c in int_candidates(e0) {
                out.push(PushE::Scan(
                    rd.clone(),
                    i.clone(),
                    *op,
                    Box::new(c),
                    e.clone(),
                    *n,
                ));
            }
            for c in int_candidates(e) {
                out.push(PushE::Scan(
                    rd.clone(),
                    i.clone(),
                    *op,
                    e0.clone(),
                    Box::new(c),
                    *n,
                ));
            }
        }
    }
    out
}

fn pull_candidates(a: &PullE) -> Vec<PullE> {
    let mut out = Vec::new();
    let n = a.len();
    match a {
        PullE::Var(..) => {}
        PullE::Generate(n, v, e) => {
            for c in int_candidates(e) {
                out.push(PullE::Generate(*n, v.clone(), Box::new(c)));
            }
        }
        PullE::Map(v, e, inner) => {
            out.push((**inner).clone());
            for c in int_candidates(e) {
                out.push(PullE::Map(v.clone(), Box::new(c), inner.clone()));
            }
            for c in pull_candidates(inner) {
                out.push(PullE::Map(v.clone(), e.clone(), Box::new(c)));
            }
        }
        PullE::ZipWith(x, y, e, p, q) => {
            out.push(PullE::Generate(n, "z".into(), Box::new(IntE::Lit(0))));
            if p.len() == n {
                out.push((**p).clone());
            }
            for c in int_candidates(e) {
                out.push(PullE::ZipWith(
                    x.clone(),
                    y.clone(),
                    Box::new(c),
                    p.clone(),
                    q.clone(),
                ));
            }
        }
        PullE::Take(k, inner) => {
            out.push(PullE::Generate(n, "z".into(), Box::new(IntE::Lit(0))));
            for c in pull_candidates(inner) {
                out.push(PullE::Take(*k, Box::new(c)));
            }
        }
        PullE::Drop(k, inner) => {
            out.push(PullE::Generate(n, "z".into(), Box::new(IntE::Lit(0))));
            for c in pull_candidates(inner) {
                out.push(PullE::Drop(*k, Box::new(c)));
            }
        }
    }
    out
}

/// Smaller `int` expressions in the same scope: constants toward 0/1 and the `int` children.
pub fn int_candidates(e: &IntE) -> Vec<IntE> {
    let mut out = Vec::new();
    match e {
        IntE::Lit(0) => return out,
        IntE::Lit(1) => {
            out.push(IntE::Lit(0));
            return out;
        }
        IntE::Lit(v) => {
            out.extend([IntE::Lit(0), IntE::Lit(1)]);
            if v / 2 != 0 && v / 2 != 1 {
                out.push(IntE::Lit(v / 2));
            }
            return out;
        }
        _ => out.extend([IntE::Lit(0), IntE::Lit(1)]),
    }
    let b = |x: &IntE| Box::new(x.clone());
    match e {
        IntE::Lit(_) | IntE::Var(_) => {}
        IntE::Bin(op, x, y) => {
            out.extend([(**x).clone(), (**y).clone()]);
            for c in int_candidates(x) {
                out.push(IntE::Bin(*op, Box::new(c), y.clone()));
            }
            for c in int_candidates(y) {
                out.push(IntE::Bin(*op, x.clone(), Box::new(c)));
            }
        }
        IntE::Un(op, x) => {
            out.push((**x).clone());
            for c in int_candidates(x) {
                out.push(IntE::Un(*op, Box::new(c)));
            }
        }
        IntE::Div(x, y) => {
            out.extend([(**x).clone(), (**y).clone()]);
            for c in int_candidates(x) {
                out.push(IntE::Div(Box::new(c), y.clone()));
            }
            for c in int_candidates(y) {
                out.push(IntE::Div(x.clone(), Box::new(c)));
            }
        }
        IntE::ModK(x, k) => {
            out.push((**x).clone());
            for c in int_candidates(x) {
                out.push(IntE::ModK(Box::new(c), *k));
            }
        }
        IntE::Rem(x, k) => {
            out.extend([(**x).clone(), IntE::ModK(x.clone(), k.abs())]);
            for c in int_candidates(x) {
                out.push(IntE::Rem(Box::new(c), *k));
            }
        }
        IntE::Index(arr, i) => {
            out.push((**i).clone());
            for c in int_candidates(i) {
                out.push(IntE::Index(arr.clone(), Box::new(c)));
            }
            for c in pull_candidates(arr) {
                if c.len() == arr.len() {
                    out.push(IntE::Index(Box::new(c), i.clone()));
                }
            }
        }
        IntE::Length(arr) => out.push(IntE::Lit(arr.len() as i32)),
        IntE::LengthPush(a) => out.push(IntE::Lit(a.len() as i32)),
        IntE::If(c, x, y, t, f) => {
            out.extend([(**t).clone(), (**f).clone()]);
            for s in int_candidates(t) {
                out.push(IntE::If(*c, b(x), b(y), Box::new(s), b(f)));
            }
            for s in int_candidates(f) {
                out.push(IntE::If(*c, b(x), b(y), b(t), Box::new(s)));
            }
            for s in int_candidates(x) {
                out.push(IntE::If(*c, Box::new(s), b(y), b(t), b(f)));
            }
            for s in int_candidates(y) {
                out.push(IntE::If(*c, b(x), Box::new(s), b(t), b(f)));
            }
        }
        IntE::B2i(c, x, y) => {
            for s in int_candidates(x) {
                out.push(IntE::B2i(*c, Box::new(s), b(y)));
            }
            for s in int_candidates(y) {
                out.push(IntE::B2i(*c, b(x), Box::new(s)));
            }
        }
    }
    out
}

/// Shrinks greedily: takes the first candidate on which `still_fails` holds, until none does or
/// `max_tries` candidates were tried. Returns the smallest failing program found.
pub fn shrink(
    p: &FclProgram,
    max_tries: usize,
    still_fails: &mut dyn FnMut(&FclProgram) -> bool,
) -> FclProgram {
    let mut best = p.clone();
    let mut tries = 0;
    'outer: loop {
        for c in candidates(&best) {
            if tries >= max_tries {
                break 'outer;
            }
            tries += 1;
            if still_fails(&c) {
                best = c;
                continue 'outer;
            }
        }
        break;
    }
    best
}
