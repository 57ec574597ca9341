//! Unit tests of the -O2 passes on hand-built IR.

use super::*;
use crate::kir::eval::{eval_host, Lit};
use crate::kir::{Expr, Geom, Stmt, Ty};
use semantics::fcl::core::ScalarOp::*;
use std::collections::HashMap;

fn v(n: &str) -> Expr {
    Expr::var(n)
}
fn op(o: semantics::fcl::core::ScalarOp, a: Expr, b: Expr) -> Expr {
    Expr::op(o, vec![a, b])
}
fn store(b: &str, i: Expr, x: Expr) -> Stmt {
    Stmt::Store(b.into(), i, x)
}
fn decl(n: &str, e: Expr) -> Stmt {
    Stmt::Decl(n.into(), Ty::Int, e)
}

#[test]
fn constant_folding_and_identities() {
    let s = vec![store(
        "g",
        Expr::Int(0),
        op(
            AddI,
            op(MulI, Expr::Int(2), Expr::Int(3)),
            op(MulI, v("x"), Expr::Int(1)),
        ),
    )];
    let s = fold_block(s);
    assert_eq!(
        s,
        vec![store("g", Expr::Int(0), op(AddI, Expr::Int(6), v("x")))]
    );
    // shifts by zero (a scan step's first trip)
    let shifted = op(Sll, op(Srl, v("x"), Expr::Int(0)), Expr::Int(0));
    assert_eq!(
        fold_block(vec![store("g", shifted, Expr::Int(0))]),
        vec![store("g", v("x"), Expr::Int(0))]
    );
}

#[test]
fn constant_and_copy_propagation_then_dead_code() {
    let s = vec![
        decl("a", Expr::Int(4)),
        decl("b", v("a")),
        store("g", v("b"), v("a")),
    ];
    let s = dead_code(propagate(propagate(s)));
    assert_eq!(s, vec![store("g", Expr::Int(4), Expr::Int(4))]);
}

#[test]
fn propagation_skips_reassigned_variables() {
    let s = vec![
        decl("r", Expr::Int(0)),
        Stmt::If(v("c"), vec![Stmt::Assign("r".into(), Expr::Int(1))], vec![]),
        store("g", Expr::Int(0), v("r")),
    ];
    assert_eq!(propagate(s.clone()), s);
}

#[test]
fn common_subexpressions_are_shared() {
    let e = op(MulI, v("x"), v("y"));
    let s = cse(vec![
        decl("a", e.clone()),
        decl("b", e.clone()),
        store("g", v("a"), v("b")),
    ]);
    assert_eq!(s[1], decl("b", v("a")));
}

#[test]
fn dead_declarations_go() {
    let s = dead_code(vec![
        decl("a", op(AddI, v("x"), Expr::Int(1))),
        decl("b", v("a")),
        store("g", Expr::Int(0), v("x")),
    ]);
    assert_eq!(s, vec![store("g", Expr::Int(0), v("x"))]);
}

#[test]
fn a_variable_nobody_reads_goes_with_its_assignments() {
    // Found by `tailfcl fuzz` (seed 42): the declaration went, the branch assignments stayed,
    // and the kernel did not build.
    let s = dead_code(vec![
        decl("t", Expr::Int(0)),
        Stmt::If(
            v("c"),
            vec![Stmt::Assign("t".into(), Expr::Int(1))],
            vec![Stmt::Assign("t".into(), op(DivI, Expr::Int(7), v("x")))],
        ),
        store("g", Expr::Int(0), v("x")),
    ]);
    assert_eq!(
        s,
        vec![
            Stmt::If(v("c"), vec![], vec![]),
            store("g", Expr::Int(0), v("x"))
        ]
    );
}

#[test]
fn short_static_loops_unroll() {
    let s = vec![Stmt::For {
        var: "i".into(),
        start: Expr::Int(0),
        end: Expr::Int(3),
        step: Expr::Int(1),
        body: vec![store("g", v("i"), v("i"))],
    }];
    let s = fold_block(unroll(s));
    assert_eq!(
        s,
        vec![
            store("g", Expr::Int(0), Expr::Int(0)),
            store("g", Expr::Int(1), Expr::Int(1)),
            store("g", Expr::Int(2), Expr::Int(2))
        ]
    );
}

#[test]
fn loops_with_barriers_unroll_with_a_barrier_per_copy() {
    let s = vec![Stmt::For {
        var: "i".into(),
        start: Expr::Int(0),
        end: Expr::Int(2),
        step: Expr::Int(1),
        body: vec![
            store("l", Expr::Var("i".into()), Expr::Int(1)),
            Stmt::Barrier,
        ],
    }];
    let copy = |i| {
        Stmt::If(
            Expr::Bool(true),
            vec![store("l", Expr::Int(i), Expr::Int(1)), Stmt::Barrier],
            Vec::new(),
        )
    };
    assert_eq!(unroll(s), vec![copy(0), copy(1)]);
}

/// The reduced forms agree with truncating division on negative and positive dividends.
#[test]
fn strength_reduction_keeps_truncating_semantics() {
    for d in [2, 4, 8, 1024] {
        for o in [DivI, ModI] {
            let s = strength_reduce(vec![decl("r", op(o, v("x"), Expr::Int(d)))], 256);
            let Stmt::Decl(_, _, reduced) = &s[0] else {
                panic!()
            };
            assert!(!matches!(reduced, Expr::Op(DivI | ModI, _)), "{reduced:?}");
            for x in [
                -1025,
                -9,
                -8,
                -7,
                -1,
                0,
                1,
                7,
                8,
                9,
                1025,
                i32::MIN,
                i32::MAX,
            ] {
                let env: HashMap<String, Lit> = [("x".to_string(), Lit::Int(x))].into();
                let mut no = |_: &str, _| Err(String::new());
                let want = if o == DivI {
                    x.wrapping_div(d)
                } else {
                    x.wrapping_rem(d)
                };
                assert_eq!(
                    eval_host(reduced, &env, &mut no),
                    Ok(Lit::Int(want)),
                    "{x} {o:?} {d}"
                );
            }
        }
    }
}

#[test]
fn nonnegative_dividends_get_a_plain_shift_and_mask() {
    let block = vec![Stmt::For {
        var: "i".into(),
        start: Expr::Geom(Geom::LocalId),
        end: Expr::Int(64),
        step: Expr::Geom(Geom::LocalSize),
        body: vec![store(
            "g",
            op(DivI, v("i"), Expr::Int(4)),
            op(ModI, v("i"), Expr::Int(4)),
        )],
    }];
    let bounds = Bounds::of_block(&block, 256);
    let s = strength_reduce(block, 256);
    let Stmt::For { body, .. } = &s[0] else {
        panic!()
    };
    assert_eq!(
        body[0],
        store(
            "g",
            op(Srl, v("i"), Expr::Int(2)),
            op(AndI, v("i"), Expr::Int(3))
        )
    );
    assert!(known_nonneg(&v("i"), &bounds));
    assert_eq!(bounds.upper(&v("i")), Some(63));
}

/// A shift or mask of a flattened index `x * 2^k + y` gives back its parts: the row when the
/// column is known below `2^k`, the column's low bits whatever `x` is; a sum that may overflow
/// or a column that may be negative keeps its shift.
#[test]
fn shifts_and_masks_of_flattened_indices_split() {
    let gid = Expr::Geom(Geom::GroupId);
    let flat = |x: Expr, y: Expr| op(AddI, op(MulI, x, Expr::Int(16)), y);
    let col = op(AndI, lid(), Expr::Int(15));
    let block = vec![store(
        "g",
        op(Srl, flat(gid.clone(), col.clone()), Expr::Int(4)),
        op(AndI, flat(v("any"), col.clone()), Expr::Int(15)),
    )];
    assert_eq!(
        strength_reduce(block, 256),
        vec![store("g", gid.clone(), col.clone())]
    );
    // a column that may reach 16: the row plus the column's own quotient
    let wide = op(Srl, flat(gid.clone(), lid()), Expr::Int(4));
    assert_eq!(
        strength_reduce(vec![store("g", wide, Expr::Int(0))], 256),
        vec![store(
            "g",
            op(AddI, gid.clone(), op(Srl, lid(), Expr::Int(4))),
            Expr::Int(0)
        )]
    );
    // an unknown row (maybe negative, maybe overflowing): the shift stays; the mask still splits
    let unknown = vec![store(
        "g",
        op(Srl, flat(v("any"), col.clone()), Expr::Int(4)),
        op(AndI, flat(v("any"), v("other")), Expr::Int(7)),
    )];
    assert_eq!(
        strength_reduce(unknown, 256),
        vec![store(
            "g",
            op(Srl, flat(v("any"), col), Expr::Int(4)),
            op(AndI, v("other"), Expr::Int(7))
        )]
    );
}

#[test]
fn invariant_declarations_leave_the_loop() {
    let s = hoist(vec![Stmt::For {
        var: "i".into(),
        start: Expr::Int(0),
        end: v("n"),
        step: Expr::Int(1),
        body: vec![
            decl("a", op(MulI, v("n"), v("m"))),
            decl("b", op(AddI, v("i"), v("a"))),
            store("g", v("i"), v("b")),
        ],
    }]);
    assert_eq!(s[0], decl("a", op(MulI, v("n"), v("m"))));
    let Stmt::For { body, .. } = &s[1] else {
        panic!()
    };
    assert_eq!(body.len(), 2);
}

#[test]
fn single_trip_parallel_loops_lose_their_loop() {
    let lp = |start, step, n| Stmt::For {
        var: "i".into(),
        start: Expr::Geom(start),
        end: Expr::Int(n),
        step: Expr::Geom(step),
        body: vec![store("g", v("i"), Expr::Int(1))],
    };
    let s = single_trip_loops(vec![lp(Geom::LocalId, Geom::LocalSize, 100)], 256);
    let Stmt::If(c, t, _) = &s[0] else {
        panic!("{s:?}")
    };
    assert_eq!(*c, op(LtI, Expr::Geom(Geom::LocalId), Expr::Int(100)));
    assert_eq!(
        t[0],
        Stmt::Decl("i".into(), Ty::Int, Expr::Geom(Geom::LocalId))
    );
    // more iterations than work-items: the loop stays
    let big = vec![lp(Geom::LocalId, Geom::LocalSize, 1000)];
    assert_eq!(single_trip_loops(big.clone(), 256), big);
    let s = single_trip_loops(vec![lp(Geom::GroupId, Geom::NumGroups, 4096)], 256);
    assert!(matches!(&s[0], Stmt::If(Expr::Bool(true), _, _)));
}

/// `group * 256 + lid` is below 2^24 (at most `MAX_GROUPS` groups of 256): a plain shift; a
/// product that could overflow keeps the sign-corrected form.
#[test]
fn bounded_sums_of_geometry_are_nonnegative() {
    let gid = op(
        AddI,
        op(MulI, Expr::Geom(Geom::GroupId), Expr::Int(256)),
        Expr::Geom(Geom::LocalId),
    );
    let s = strength_reduce(
        vec![
            decl("t", gid),
            decl("q", op(DivI, v("t"), Expr::Int(4096))),
            decl("big", op(MulI, v("t"), Expr::Int(1 << 12))),
            decl("r", op(DivI, v("big"), Expr::Int(4))),
        ],
        256,
    );
    assert_eq!(s[1], decl("q", op(Srl, v("t"), Expr::Int(12))));
    assert!(!matches!(&s[3], Stmt::Decl(_, _, Expr::Op(Srl, a)) if a[0] == v("big")));
    let bounds = Bounds::of_block(&s, 256);
    assert_eq!(bounds.upper(&v("t")), Some(65536 * 256 - 1));
    assert_eq!(bounds.upper(&v("big")), None);
}

/// `for i in 0..n { if (i == 0) a else b }` runs `a` once (guarded when `n` is not a positive
/// literal) and loops over `b` from 1, with the same effect.
#[test]
fn first_trip_tests_are_peeled() {
    let body = vec![Stmt::If(
        op(EqI, v("i"), Expr::Int(0)),
        vec![store("p", Expr::Int(0), Expr::Int(7))],
        vec![store("p", Expr::Int(0), op(AddI, v("i"), v("i")))],
    )];
    let lp = |end: Expr| Stmt::For {
        var: "i".into(),
        start: Expr::Int(0),
        end,
        step: Expr::Int(1),
        body: body.clone(),
    };
    let s = peel_first_trip(vec![lp(Expr::Int(5))]);
    assert_eq!(s.len(), 2);
    assert!(matches!(&s[0], Stmt::If(Expr::Bool(true), ..)));
    let Stmt::For {
        start, body: rest, ..
    } = &s[1]
    else {
        panic!("{s:?}")
    };
    assert_eq!(start, &Expr::Int(1));
    assert_eq!(
        rest[0],
        Stmt::If(
            Expr::Bool(true),
            vec![store("p", Expr::Int(0), op(AddI, v("i"), v("i")))],
            Vec::new()
        )
    );
    let s = peel_first_trip(vec![lp(v("n"))]);
    assert_eq!(
        s[0],
        Stmt::If(
            op(LtI, Expr::Int(0), v("n")),
            substitute(body.clone(), "i", &Expr::Int(0)),
            Vec::new()
        )
    );
}

fn lid() -> Expr {
    Expr::Geom(Geom::LocalId)
}

fn load(b: &str) -> Expr {
    // another work-item's element: what a barrier orders
    Expr::Load(b.into(), Box::new(op(AddI, lid(), Expr::Int(1))))
}

/// Two loads into different local arrays need no barrier between them; a read of what the
/// interval before wrote keeps its barrier; a barrier that ends the kernel goes.
#[test]
fn barriers_between_unrelated_intervals_go() {
    let locals: std::collections::HashSet<std::rc::Rc<str>> =
        ["la".into(), "lb".into(), "lc".into()].into();
    let body = vec![
        store("la", lid(), Expr::Int(0)),
        Stmt::Barrier,
        store("lb", lid(), Expr::Load("g".into(), Box::new(lid()))),
        Stmt::Barrier,
        store("lc", lid(), Expr::Int(1)),
        Stmt::Barrier,
        store("g", lid(), op(AddI, load("lb"), load("lc"))),
        Stmt::Barrier,
    ];
    let out = fewer_barriers(body, &locals);
    // the kernel's start orders like a barrier, so the first barrier, between the unrelated
    // stores of la and lb, goes, as does the one between lb and lc; the one before their reads
    // stays; the trailing one goes
    assert_eq!(
        out,
        vec![
            store("la", lid(), Expr::Int(0)),
            store("lb", lid(), Expr::Load("g".into(), Box::new(lid()))),
            store("lc", lid(), Expr::Int(1)),
            Stmt::Barrier,
            store("g", lid(), op(AddI, load("lb"), load("lc"))),
        ]
    );
    // a barrier between a local write and its read stays, whatever comes before
    let staged = vec![
        store("la", lid(), Expr::Int(0)),
        Stmt::Barrier,
        store("g", lid(), load("la")),
    ];
    assert_eq!(fewer_barriers(staged.clone(), &locals), staged);
    // each work-item reading back only its own element needs no barrier
    let own = vec![
        store("la", lid(), Expr::Int(0)),
        Stmt::Barrier,
        store("g", lid(), Expr::Load("la".into(), Box::new(lid()))),
    ];
    assert_eq!(
        fewer_barriers(own, &locals),
        vec![
            store("la", lid(), Expr::Int(0)),
            store("g", lid(), Expr::Load("la".into(), Box::new(lid()))),
        ]
    );
}

/// A loop body entered right after a barrier and ending with one: its first barrier merges the
/// unrelated loads, the barrier before the reads and the last one stay.
#[test]
fn loop_bodies_after_a_barrier_merge_their_first_interval() {
    let locals: std::collections::HashSet<std::rc::Rc<str>> =
        ["la".into(), "lb".into(), "acc".into()].into();
    let body = vec![
        store("la", lid(), Expr::Int(0)),
        store("lb", lid(), Expr::Int(0)),
        Stmt::Barrier,
        store("la", lid(), op(AddI, load("la"), load("lb"))),
        Stmt::Barrier,
    ];
    let lp = |body| Stmt::For {
        var: "i".into(),
        start: Expr::Int(0),
        end: Expr::Int(8),
        step: Expr::Int(1),
        body,
    };
    let split = vec![
        store("la", lid(), Expr::Int(0)),
        Stmt::Barrier,
        store("lb", lid(), Expr::Int(0)),
        Stmt::Barrier,
        store("la", lid(), op(AddI, load("la"), load("lb"))),
        Stmt::Barrier,
    ];
    let kernel = vec![
        store("acc", lid(), Expr::Int(0)),
        Stmt::Barrier,
        lp(split.clone()),
        store("g", lid(), load("acc")),
    ];
    let out = fewer_barriers(kernel, &locals);
    assert_eq!(out[2], lp(body.clone()));
    // not entered right after a barrier (a local store comes first): the loop body keeps every
    // barrier
    let first = store("acc", lid(), Expr::Int(0));
    let unfenced = fewer_barriers(vec![first.clone(), lp(split.clone())], &locals);
    assert_eq!(unfenced, vec![first, lp(split.clone())]);
    // at the kernel's start, which orders like a barrier, it merges too
    assert_eq!(fewer_barriers(vec![lp(split)], &locals), vec![lp(body)]);
}

/// A tile written by rows and read by columns gets padded rows; an array read contiguously
/// keeps its layout.
#[test]
fn column_reads_of_local_tiles_get_padded_rows() {
    let kernel = |reads: Expr| crate::kir::Kernel {
        name: "k".into(),
        params: Vec::new(),
        locals: vec![("lt".into(), Ty::Int, 256)],
        body: vec![
            store("lt", lid(), Expr::Int(1)),
            Stmt::Barrier,
            store("g", lid(), Expr::Load("lt".into(), Box::new(reads))),
        ],
    };
    let column = op(
        AddI,
        op(MulI, op(AndI, lid(), Expr::Int(15)), Expr::Int(16)),
        op(Srl, lid(), Expr::Int(4)),
    );
    let mut k = kernel(column);
    pad_local_arrays(&mut k, 256);
    assert!(k.locals[0].2 > 256, "{:?}", k.locals);
    let Stmt::Store(_, i, _) = &k.body[0] else {
        panic!()
    };
    assert_ne!(i, &lid(), "every access is remapped");
    let plain = kernel(op(AddI, lid(), Expr::Int(128)));
    let mut k = plain.clone();
    pad_local_arrays(&mut k, 256);
    assert_eq!(k, plain);
}

/// A local tile that stages a global read is forwarded: each read recomputes the element at the
/// position it reads; the array, its store and (after `fewer_barriers`) its barrier go. A tile
/// stored inside a loop, or of a buffer the kernel writes, stays.
#[test]
fn staged_global_reads_are_forwarded() {
    use crate::kir::{Kernel, Param};
    let gather =
        |pos: Expr| Expr::Load("gi".into(), Box::new(op(MulI, pos, Expr::Var("s".into()))));
    let column = op(AndI, lid(), Expr::Int(15));
    let kernel = |store_lt: Stmt, out: &str| Kernel {
        name: "k".into(),
        params: vec![
            Param::Buffer("gi".into(), Ty::Int),
            Param::Buffer("go".into(), Ty::Int),
            Param::Scalar("s".into(), Ty::Int),
        ],
        locals: vec![("lt".into(), Ty::Int, 256)],
        body: vec![
            Stmt::If(
                Expr::Bool(true),
                vec![decl("t1", lid()), store_lt],
                Vec::new(),
            ),
            Stmt::Barrier,
            store(
                out,
                lid(),
                Expr::Load("lt".into(), Box::new(column.clone())),
            ),
        ],
    };
    let mut k = kernel(store("lt", lid(), gather(v("t1"))), "go");
    assert!(forward_local_stores(&mut k));
    assert!(k.locals.is_empty());
    let locals = std::collections::HashSet::new();
    assert_eq!(
        fewer_barriers(k.body, &locals),
        vec![
            Stmt::If(Expr::Bool(true), vec![decl("t1", lid())], Vec::new()),
            store("go", lid(), gather(column.clone())),
        ]
    );
    // the kernel writes the buffer the tile reads: the tile keeps the values of before
    let mut k = kernel(store("lt", lid(), gather(v("t1"))), "gi");
    assert!(!forward_local_stores(&mut k));
    // stored inside a loop: which trip's value a read sees is not the stored expression's
    let in_loop = Stmt::For {
        var: "i".into(),
        start: Expr::Int(0),
        end: Expr::Int(2),
        step: Expr::Int(1),
        body: vec![store("lt", lid(), gather(v("i")))],
    };
    let mut k = kernel(in_loop, "go");
    assert!(!forward_local_stores(&mut k));
    // a value that may fail (a division by a run-time scalar) is not recomputed
    let failing = op(DivI, Expr::Int(1), Expr::Var("s".into()));
    let mut k = kernel(store("lt", lid(), failing), "go");
    assert!(!forward_local_stores(&mut k));
    // double arithmetic, which the staging computes once for all its reads, stays staged
    let costly = Expr::Op(SqrtD, vec![gather(v("t1"))]);
    let mut k = kernel(store("lt", lid(), costly), "go");
    assert!(!forward_local_stores(&mut k));
}

fn seq(var: &str, n: i32, body: Vec<Stmt>) -> Stmt {
    Stmt::For {
        var: var.into(),
        start: Expr::Int(0),
        end: Expr::Int(n),
        step: Expr::Int(1),
        body,
    }
}

/// A chunk's scan as `seqfor 4 4` lowers it: zeroed, filled reading cell `read_at` from
/// position `back` on (the cells before are the elements), written out to `g` at `b + o`.
fn scan_of_chunk(read_at: Expr, back: i32) -> Vec<Stmt> {
    let prev = Expr::Load("p".into(), Box::new(read_at));
    let x = Expr::Load("a".into(), Box::new(op(AddI, v("b"), v("i"))));
    vec![
        Stmt::Private("p".into(), Ty::Int, 4),
        seq("z", 4, vec![store("p", v("z"), Expr::Int(0))]),
        seq(
            "i",
            4,
            vec![store(
                "p",
                v("i"),
                Expr::Select(
                    Box::new(op(LtI, v("i"), Expr::Int(back))),
                    Box::new(x.clone()),
                    Box::new(op(AddI, x, prev)),
                ),
            )],
        ),
        seq(
            "o",
            4,
            vec![store(
                "g",
                op(AddI, v("b"), v("o")),
                Expr::Load("p".into(), Box::new(v("o"))),
            )],
        ),
    ]
}

/// A tiny sequential interpreter of a kernel body (one work-item): variables, private and
/// global arrays in one map.
fn exec(body: &[Stmt], env: &mut HashMap<String, Lit>, mem: &mut HashMap<String, Vec<Lit>>) {
    let eval = |e: &Expr, env: &HashMap<String, Lit>, mem: &HashMap<String, Vec<Lit>>| {
        let mut read = |b: &str, i: i32| Ok(mem[b][i as usize]);
        eval_host(e, env, &mut read).unwrap()
    };
    for s in body {
        match s {
            Stmt::Decl(x, _, e) | Stmt::Assign(x, e) => {
                let v = eval(e, env, mem);
                env.insert(x.to_string(), v);
            }
            Stmt::Store(b, i, e) => {
                let (Lit::Int(i), v) = (eval(i, env, mem), eval(e, env, mem)) else {
                    panic!("index")
                };
                mem.get_mut(&**b).unwrap()[i as usize] = v;
            }
            Stmt::Private(b, _, n) => {
                mem.insert(b.to_string(), vec![Lit::Int(-99); *n]);
            }
            Stmt::For { var, end, body, .. } => {
                let Lit::Int(n) = eval(end, env, mem) else {
                    panic!("bound")
                };
                for i in 0..n {
                    env.insert(var.to_string(), Lit::Int(i));
                    exec(body, env, mem);
                }
            }
            Stmt::If(c, t, e) => {
                let branch = if eval(c, env, mem) == Lit::Bool(true) {
                    t
                } else {
                    e
                };
                exec(branch, env, mem);
            }
            Stmt::Barrier => {}
        }
    }
}

/// Runs a body with `a` = [1, 2, 3, 4] and b = 0, and returns `g`.
fn run_scan(body: &[Stmt]) -> Vec<Lit> {
    let mut env = HashMap::from([("b".to_string(), Lit::Int(0))]);
    let mut mem = HashMap::from([
        ("a".to_string(), (1..=4).map(Lit::Int).collect()),
        ("g".to_string(), vec![Lit::Int(0); 4]),
    ]);
    exec(body, &mut env, &mut mem);
    mem["g"].clone()
}

#[test]
fn a_recurrence_through_a_private_array_becomes_a_carried_scalar() {
    let s = scan_of_chunk(op(SubI, v("i"), Expr::Int(1)), 1);
    let carried = carried_recurrences(s.clone());
    // one declaration and one loop: no private array, no write-out loop
    assert_eq!(carried.len(), 2, "{carried:?}");
    assert!(!walk::any_stmt(&carried, &mut |s| matches!(
        s,
        Stmt::Private(..)
    )));
    let sums: Vec<Lit> = [1, 3, 6, 10].into_iter().map(Lit::Int).collect();
    assert_eq!(run_scan(&carried), sums);
    assert_eq!(run_scan(&s), sums);
    // reading two cells back: a window of two carried cells, moved on each trip
    let s = scan_of_chunk(op(SubI, v("i"), Expr::Int(2)), 2);
    let carried = carried_recurrences(s.clone());
    assert_eq!(carried.len(), 3, "{carried:?}");
    let sums: Vec<Lit> = [1, 2, 4, 6].into_iter().map(Lit::Int).collect();
    assert_eq!(run_scan(&carried), sums);
    assert_eq!(run_scan(&s), sums);
    // a step that reads another cell (past the window, or ahead) keeps its array
    for read_at in [
        op(SubI, v("i"), Expr::Int(5)),
        op(AddI, v("i"), Expr::Int(1)),
    ] {
        let other = scan_of_chunk(read_at, 4);
        assert_eq!(carried_recurrences(other.clone()), other);
    }
}
