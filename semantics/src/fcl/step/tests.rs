//! One test per rule of 5.48–5.91 (and the error rules, races, holes, host operations), on core
//! terms built with `fcl::build`, at chosen locations.

use super::rules::RunError;
use super::term::resolve;
use super::{Ctx, Fired, Outcome, Task};
use crate::fcl::build::*;
use crate::fcl::core::{Builtin, Expr, Level, ScalarOp, Type};
use crate::fcl::machine::{Loc, Machine, Schedule, Scheduler};
use crate::fcl::value::{render_full, Value};

pub(super) const T: Level = Level::THREAD;
pub(super) const B: Level = Level::BLOCK;
pub(super) const G: Level = Level::GRID;

pub(super) struct Ran {
    pub(super) result: Result<Value, RunError>,
    pub(super) steps: Vec<Fired>,
    pub(super) stdout: String,
    pub(super) stderr: String,
}

impl Ran {
    pub(super) fn value(&self) -> String {
        match &self.result {
            Ok(v) => render_full(v),
            Err(e) => panic!("expected a value, got {e}"),
        }
    }
    pub(super) fn err(&self) -> &RunError {
        self.result.as_ref().expect_err("expected an error")
    }
    /// The (rule, cost) of every step, at every location (parts of group steps included), rule
    /// printed as `5.72 addi`.
    pub(super) fn rules(&self) -> Vec<(String, u32)> {
        fn walk(f: &Fired, out: &mut Vec<(String, u32)>) {
            out.push((f.rule.to_string(), f.cost));
            f.trace
                .iter()
                .flat_map(|t| &t.parts)
                .for_each(|p| walk(p, out));
        }
        let mut out = Vec::new();
        self.steps.iter().for_each(|f| walk(f, &mut out));
        out
    }
    pub(super) fn fired(&self, rule: &str, cost: u32) -> bool {
        self.rules().iter().any(|(r, c)| r == rule && *c == cost)
    }
}

pub(super) fn run_at(e: Expr, loc: Loc) -> Ran {
    let mut ctx = Ctx::new(Scheduler::new(Schedule::InOrder), true);
    let mut task = Task::new(resolve(&e).expect("closed term"), loc);
    let mut steps = Vec::new();
    let result = loop {
        assert!(steps.len() < 100_000, "runaway");
        match task.step(&mut ctx) {
            Ok(Outcome::Fired(f)) => steps.push(f),
            Ok(Outcome::Done(v)) => break Ok(v),
            Err(e) => break Err(e),
        }
    };
    Ran {
        result,
        steps,
        stdout: ctx.stdout,
        stderr: ctx.stderr,
    }
}

pub(super) fn thread(e: Expr) -> Ran {
    run_at(e, Loc::thread(0))
}

pub(super) fn grid(e: Expr) -> Ran {
    run_at(e, Machine::DEFAULT.grid())
}

/// A block location of 4 threads.
pub(super) fn block(e: Expr) -> Ran {
    run_at(
        e,
        Machine {
            blocks: 1,
            threads: 4,
        }
        .grid()
        .subs()[0]
            .clone(),
    )
}

pub(super) fn iota(n: i32) -> Expr {
    generate(int(n), fn_int("i", var("i")))
}

pub(super) fn ints() -> Type {
    Type::pull(Type::Int)
}

/// `force<l> a` and its materialised result.
pub(super) fn forced(l: Level, a: Expr) -> Expr {
    force(l, a)
}

#[test]
fn beta_5_50_and_let() {
    let r = thread(app(fn_int("x", add(var("x"), int(1))), int(41)));
    assert_eq!(r.value(), "42");
    assert!(r.fired("5.50 beta", 0) && r.fired("5.72 addi", 1));
    let r = thread(let_("x", Type::Int, int(2), mul(var("x"), var("x"))));
    assert_eq!(r.value(), "4");
    assert!(r.fired("5.50 let", 0) && r.fired("5.73 muli", 1));
    // lets are by name (5.31 inlining): an unused erroneous binding never runs, and a used one
    // runs at each use
    let r = thread(let_("bad", Type::Int, index(iota(1), int(5)), int(7)));
    assert_eq!(r.value(), "7");
    let twice = let_("y", Type::Int, add(int(1), int(2)), mul(var("y"), var("y")));
    let r = thread(twice);
    assert_eq!(r.value(), "9");
    assert_eq!(
        r.rules().iter().filter(|(x, _)| x == "5.72 addi").count(),
        2
    );
}

#[test]
fn projections_5_51_5_52() {
    let r = thread(add(fst(pair(int(1), int(2))), snd(pair(int(3), int(4)))));
    assert_eq!(r.value(), "5");
    assert!(r.fired("5.51 fst", 0) && r.fired("5.52 snd", 0));
}

#[test]
fn map_generate_length_index_5_53_5_58_5_59_5_60() {
    let doubled = call(
        Builtin::MapPull,
        vec![fn_int("x", mul(var("x"), int(2))), iota(5)],
    );
    let r = thread(add(index(doubled, int(3)), length(iota(7))));
    assert_eq!(r.value(), "13");
    for (rule, cost) in [
        ("5.53 mapPull", 0),
        ("5.58 generate", 0),
        ("5.59 lengthPull", 0),
        ("5.60 index", 1),
    ] {
        assert!(r.fired(rule, cost), "{rule}: {:?}", r.rules());
    }
    // generate with n ≤ 0 is empty
    assert_eq!(
        thread(length(generate(int(-3), fn_int("i", var("i"))))).value(),
        "0"
    );
}

#[test]
fn index_out_of_range_5_61() {
    let r = thread(index(iota(4), int(4)));
    assert_eq!(r.err().rule.to_string(), "5.61 index");
    assert_eq!(r.err().kind(), "index-out-of-bounds");
    assert!(r.err().reason.contains("index 4 outside [0, 4)"));
    assert_eq!(thread(index(iota(4), int(-1))).err().rule.number, "5.61");
}

#[test]
fn scalars_5_72_5_73_and_errors() {
    use ScalarOp::*;
    let cases = [
        (op(DivI, vec![int(-8), int(3)]), "-2"),
        (op(ModI, vec![int(-8), int(3)]), "-2"),
        (op(Srl, vec![int(-8), int(1)]), "-4"),
        (op(Sll, vec![int(1), int(32)]), "1"),
        (op(Clz, vec![int(1)]), "31"),
        (op(SignI, vec![int(-7)]), "-1"),
        (op(AddI, vec![int(i32::MAX), int(1)]), "-2147483648"),
        (op(LtI, vec![int(1), int(2)]), "true"),
        (op(I2D, vec![int(3)]), "3.0"),
        (op(SubD, vec![double(0.0), double(1.5)]), "-1.5"),
    ];
    for (e, want) in cases {
        let r = thread(e);
        assert_eq!(r.value(), want);
        assert_eq!(r.steps.len(), 1);
        assert_eq!(r.steps[0].cost, 1);
    }
    let r = thread(op(DivI, vec![int(1), int(0)]));
    assert_eq!(r.err().rule.to_string(), "5.72 divi");
    assert!(r.err().reason.contains("division by zero"));
    assert_eq!(r.err().kind(), "division-by-zero");
}

#[test]
fn conditionals_5_74_5_75() {
    let r = thread(if_(boolean(true), int(1), index(iota(1), int(9))));
    assert_eq!(r.value(), "1");
    assert!(r.fired("5.74 if-true", 1));
    let r = thread(if_(op(ScalarOp::EqI, vec![int(1), int(2)]), int(1), int(2)));
    assert_eq!(r.value(), "2");
    assert!(r.fired("5.75 if-false", 1));
}

#[test]
fn return_bind_push_5_57_5_62_5_63() {
    let prog = bind(
        T,
        ret(T, int(5)),
        fn_int("x", ret(T, add(var("x"), int(1)))),
    );
    let r = thread(prog);
    assert_eq!(r.value(), "Program<thread> 6");
    assert!(r.fired("5.62 return", 0) && r.fired("5.63 bind", 0));
    let r = thread(push(T, iota(2)));
    assert!(r.fired("5.57 push", 0));
    // the premise loc ▷ l: a block program cannot run at a thread
    let r = thread(ret(B, int(1)));
    assert_eq!(r.err().rule.to_string(), "5.62 return");
    assert!(r.err().reason.contains("does not respect level block"));
    let r = thread(bind(B, ret(T, int(1)), fn_int("x", ret(T, var("x")))));
    assert_eq!(r.err().rule.number, "5.63");
}

#[test]
fn force_push_thread_5_76_5_82_and_element_error_5_77() {
    let r = thread(forced(T, push(T, iota(3))));
    assert_eq!(r.value(), "Program<thread> [0, 1, 2]");
    assert!(r.fired("5.82 force-done", 0));
    // an element's error propagates with the element's own rule (5.77)
    let bad = generate(int(3), fn_int("i", index(iota(2), var("i"))));
    let r = thread(forced(T, push(T, bad)));
    assert_eq!(r.err().rule.number, "5.61");
}

#[test]
fn parallel_force_5_81_costs_the_max_and_works_the_sum() {
    // four elements, each one addition, on a block of four threads
    let arr = generate(int(4), fn_int("i", add(var("i"), int(10))));
    let r = block(forced(B, push(B, arr)));
    assert_eq!(r.value(), "Program<block> [10, 11, 12, 13]");
    let par: Vec<&Fired> = r.steps.iter().filter(|f| f.rule.number == "5.81").collect();
    assert!(par.iter().all(|f| f.loc.to_string() == "Block(0)"));
    // the addition step of all four threads happens in one group step: cost 1, work 4
    assert!(
        par.iter().any(|f| f.cost == 1 && f.work == 4),
        "{:?}",
        r.rules()
    );
    // the work is the four additions (β and the barriers cost 0)
    assert_eq!(r.steps.iter().map(|f| f.work).sum::<u64>(), 4);
    let threads: Vec<String> = par[0]
        .trace
        .as_ref()
        .unwrap()
        .parts
        .iter()
        .map(|p| p.loc.to_string())
        .collect();
    assert_eq!(
        threads,
        ["Thread(0)", "Thread(1)", "Thread(2)", "Thread(3)"]
    );
}

#[test]
fn force_at_a_location_of_the_wrong_level_is_an_error() {
    let r = thread(forced(B, push(B, iota(2))));
    assert!(r.err().reason.contains("does not respect level block"));
}

/// `interleave<thread> k (fn p => dest) [return (push [b·10 + j | j < k]) | b < n]`.
fn interleave_thread(n: i32, k: i32, dest: Expr) -> Expr {
    let sub = ret(
        T,
        push(
            T,
            generate(int(k), fn_int("j", add(mul(var("b"), int(10)), var("j")))),
        ),
    );
    interleave(
        T,
        int(k),
        fn_pair("p", dest),
        generate(int(n), fn_int("b", sub)),
    )
}

fn force_program(l: Level, p: Expr) -> Expr {
    bind(l, p, lam("a", Type::push(Type::Int, l), force(l, var("a"))))
}

#[test]
fn interleave_5_54_5_83_5_84_scatters() {
    // destination j·2 + b: a scatter that is not a concatenation
    let dest = add(mul(snd(var("p")), int(2)), fst(var("p")));
    let r = block(force_program(B, interleave_thread(2, 3, dest)));
    assert_eq!(r.value(), "Program<block> [0, 10, 1, 11, 2, 12]");
    for (rule, cost) in [
        ("5.54 interleave", 0),
        ("5.84 force-interleave", 1),
        ("5.86 permute", 1),
        ("5.83 force-interleave-sub", 0),
    ] {
        assert!(r.fired(rule, cost), "{rule}: {:?}", r.rules());
    }
    assert!(r.steps.iter().any(|f| f.rule.number == "5.83"));
}

#[test]
fn interleave_race_and_hole_are_reported() {
    // every element to index 0: a race
    let r = block(force_program(B, interleave_thread(2, 2, int(0))));
    assert_eq!(r.err().rule.number, "5.86");
    assert!(r.err().reason.contains("race: index 0"), "{}", r.err());
    assert_eq!(r.err().kind(), "race");
    // b·2 + j·0 leaves odd indices unwritten... and races; use a sub-size smaller than k instead
    let short = interleave(
        T,
        int(3),
        fn_pair("p", add(mul(fst(var("p")), int(3)), snd(var("p")))),
        generate(int(2), fn_int("b", ret(T, push(T, iota(2))))),
    );
    let r = block(force_program(B, short));
    assert!(r.err().reason.contains("hole: index 2 of 6"), "{}", r.err());
    assert_eq!(r.err().kind(), "hole");
    // a destination outside [0, k·n): 5.85
    let r = block(force_program(B, interleave_thread(2, 2, int(9))));
    assert_eq!(r.err().rule.to_string(), "5.85 permute");
}

#[test]
fn permute_5_85_5_86_is_a_scatter() {
    let dests = forced(
        T,
        push(
            T,
            call(
                Builtin::MapPull,
                vec![
                    fn_int("i", op(ScalarOp::ModI, vec![add(var("i"), int(2)), int(3)])),
                    iota(3),
                ],
            ),
        ),
    );
    // d = [2, 0, 1]: r[2] = 0, r[0] = 10, r[1] = 20  (a gather would give [20, 0, 10])
    let values = generate(int(3), fn_int("i", mul(var("i"), int(10))));
    let prog = bind(
        T,
        dests,
        lam(
            "d",
            ints(),
            bind(
                T,
                forced(T, push(T, values)),
                lam(
                    "v",
                    ints(),
                    call(Builtin::Permute(T), vec![var("d"), push(T, var("v"))]),
                ),
            ),
        ),
    );
    let r = thread(prog);
    assert_eq!(r.value(), "Program<thread> [10, 20, 0]");
    assert!(r.fired("5.86 permute", 1));
    let out_of_range = bind(
        T,
        forced(T, push(T, iota(2))),
        lam(
            "v",
            ints(),
            call(
                Builtin::Permute(T),
                vec![generate(int(2), fn_int("i", int(5))), push(T, var("v"))],
            ),
        ),
    );
    // the index array must be materialised: a delayed one is refused by 5.85
    assert_eq!(thread(out_of_range).err().rule.number, "5.85");
}

#[test]
fn interleave_seq_5_55_and_its_scatter() {
    let sub = ret(
        G,
        push(
            G,
            generate(int(2), fn_int("j", add(mul(var("b"), int(10)), var("j")))),
        ),
    );
    let p = call(
        Builtin::InterleaveSeq(G),
        vec![
            int(2),
            fn_pair("p", add(mul(snd(var("p")), int(2)), fst(var("p")))),
            generate(int(2), fn_int("b", sub)),
        ],
    );
    let r = grid(force_program(G, p));
    assert_eq!(r.value(), "Program<grid> [0, 10, 1, 11]");
    assert!(r.fired("5.55 interleaveSeq", 0));
    assert!(r.fired("5.84s force-interleaveSeq", 1));
}

fn seqfor(n: i32, m: i32, step: Expr) -> Expr {
    call(Builtin::SeqFor, vec![int(n), int(m), step])
}

/// `fn read => fn i => body`.
fn seq_step(body: Expr) -> Expr {
    lam("read", Type::fun(Type::Int, Type::Int), fn_int("i", body))
}

#[test]
fn seqfor_5_56_5_79_5_80() {
    // prefix sums of [1, 2, 3]: (i, read (i−1) + i + 1)
    let body = pair(
        var("i"),
        add(
            if_(
                op(ScalarOp::EqI, vec![var("i"), int(0)]),
                int(0),
                app(var("read"), sub(var("i"), int(1))),
            ),
            add(var("i"), int(1)),
        ),
    );
    let r = thread(forced(T, seqfor(3, 3, seq_step(body))));
    assert_eq!(r.value(), "Program<thread> [1, 3, 6]");
    assert!(r.fired("5.56 seqfor", 0));
    assert_eq!(
        r.rules()
            .iter()
            .filter(|(x, _)| x == "5.79 seqfor-step")
            .count(),
        3
    );
    assert!(r.fired("5.80 seqfor-done", 1));
    // a write outside [0, n) when n > 1
    let r = thread(forced(T, seqfor(2, 1, seq_step(pair(int(5), int(1))))));
    assert_eq!(r.err().rule.to_string(), "5.79 seqfor-step");
    // [O]'s size-1 quirk: indices ignored (spec §4.3: gives [30])
    let quirk = seq_step(pair(int(5), add(app(var("read"), int(7)), int(10))));
    assert_eq!(
        thread(forced(T, seqfor(1, 3, quirk))).value(),
        "Program<thread> [30]"
    );
}

#[test]
fn length_push_5_64_to_5_67() {
    let lp = |a: Expr| call(Builtin::LengthPush(T), vec![a]);
    let r = thread(lp(push(T, iota(4))));
    assert_eq!(r.value(), "4");
    assert!(r.fired("5.64 lengthPush-push", 0));
    let r = thread(lp(seqfor(6, 0, seq_step(pair(int(0), int(0))))));
    assert_eq!(r.value(), "6");
    assert!(r.fired("5.67 lengthPush-seqfor", 0));
    // Interleave: k·n, read out of the Program it comes in
    let il = bind(
        G,
        interleave(
            B,
            int(3),
            fn_pair("p", int(0)),
            generate(int(5), fn_int("b", ret(B, push(B, iota(3))))),
        ),
        lam(
            "a",
            Type::push(Type::Int, G),
            ret(G, call(Builtin::LengthPush(G), vec![var("a")])),
        ),
    );
    let r = grid(il);
    assert_eq!(r.value(), "Program<grid> 15");
    assert!(r.fired("5.65 lengthPush-interleave", 0));
    let ils = bind(
        T,
        call(
            Builtin::InterleaveSeq(T),
            vec![
                int(2),
                fn_pair("p", int(0)),
                generate(int(3), fn_int("b", ret(T, push(T, iota(2))))),
            ],
        ),
        lam(
            "a",
            Type::push(Type::Int, T),
            ret(T, call(Builtin::LengthPush(T), vec![var("a")])),
        ),
    );
    let r = thread(ils);
    assert_eq!(r.value(), "Program<thread> 6");
    assert!(r.fired("5.66 lengthPush-interleaveSeq", 0));
}

/// `fn i x => i·100 + x`.
fn tag() -> Expr {
    fn_int("i", fn_int("x", add(mul(var("i"), int(100)), var("x"))))
}

#[test]
fn map_push_5_68_to_5_71_pass_o_indices() {
    let mp = |l: Level, a: Expr| call(Builtin::MapPush(l), vec![tag(), a]);
    let r = thread(forced(T, mp(T, push(T, iota(3)))));
    assert_eq!(r.value(), "Program<thread> [0, 101, 202]");
    assert!(r.fired("5.68 mapPush-push", 0));
    let r = thread(forced(
        T,
        mp(T, seqfor(2, 2, seq_step(pair(var("i"), int(7))))),
    ));
    assert_eq!(r.value(), "Program<thread> [7, 107]");
    assert!(r.fired("5.71 mapPush-seqfor", 0));
    // interleave with destination j·2 + b: the index passed is the concatenation index b·k + j
    let dest = add(mul(snd(var("p")), int(2)), fst(var("p")));
    let mapped = bind(
        B,
        interleave_thread(2, 2, dest),
        lam("a", Type::push(Type::Int, B), force(B, mp(B, var("a")))),
    );
    let r = block(mapped);
    // sub-program b writes b·10 + j to j·2 + b with index b·2 + j
    assert_eq!(r.value(), "Program<block> [0, 210, 101, 311]");
    assert!(r.fired("5.69 mapPush-interleave", 0));
    let seq = call(
        Builtin::InterleaveSeq(T),
        vec![
            int(2),
            fn_pair("p", add(mul(fst(var("p")), int(2)), snd(var("p")))),
            generate(int(2), fn_int("b", ret(T, push(T, iota(2))))),
        ],
    );
    let r = thread(bind(
        T,
        seq,
        lam("a", Type::push(Type::Int, T), force(T, mp(T, var("a")))),
    ));
    assert_eq!(r.value(), "Program<thread> [0, 101, 200, 301]");
    assert!(r.fired("5.70 mapPush-interleaveSeq", 0));
}

/// `fn i x => return (push (mapPull (+1) x))` at level l.
fn incr_step(l: Level) -> Expr {
    fn_int(
        "i",
        lam(
            "x",
            ints(),
            ret(
                l,
                push(
                    l,
                    call(
                        Builtin::MapPull,
                        vec![fn_int("y", add(var("y"), var("i"))), var("x")],
                    ),
                ),
            ),
        ),
    )
}

#[test]
fn power_5_87_5_88() {
    let p = call(
        Builtin::PowerI(T),
        vec![int(3), incr_step(T), ret(T, push(T, iota(2)))],
    );
    let r = thread(p);
    // adds 0, then 1, then 2
    assert_eq!(r.value(), "Program<thread> [3, 4]");
    assert_eq!(
        r.rules()
            .iter()
            .filter(|(x, c)| x == "5.88 power-step" && *c == 1)
            .count(),
        3
    );
    assert!(r.fired("5.87 power-done", 1) && r.fired("5.87 power-start", 0));
    let zero = call(
        Builtin::PowerI(T),
        vec![int(0), incr_step(T), ret(T, push(T, iota(2)))],
    );
    assert_eq!(thread(zero).value(), "Program<thread> [0, 1]");
    // [T]'s un-indexed power
    let step = lam(
        "x",
        ints(),
        ret(
            T,
            push(
                T,
                call(
                    Builtin::MapPull,
                    vec![fn_int("y", mul(var("y"), int(2))), var("x")],
                ),
            ),
        ),
    );
    let p = call(
        Builtin::Power(T),
        vec![int(2), step, ret(T, push(T, iota(3)))],
    );
    assert_eq!(thread(p).value(), "Program<thread> [0, 4, 8]");
}

#[test]
fn while_5_89_and_ifp_5_90_5_91() {
    // double [1] while its element is < 20
    let cond = lam(
        "x",
        ints(),
        op(ScalarOp::LtI, vec![index(var("x"), int(0)), int(20)]),
    );
    let step = lam(
        "x",
        ints(),
        ret(
            T,
            push(
                T,
                generate(int(1), fn_int("j", mul(index(var("x"), int(0)), int(2)))),
            ),
        ),
    );
    let init = ret(T, push(T, generate(int(1), fn_int("j", int(1)))));
    let r = thread(call(Builtin::While(T), vec![cond, step, init]));
    assert_eq!(r.value(), "Program<thread> [32]");
    assert_eq!(
        r.rules().iter().filter(|(x, _)| x == "5.89 while").count(),
        6
    );
    assert!(r.fired("5.90 ifp-true", 1) && r.fired("5.91 ifp-false", 1));
    // ifp runs only the chosen program
    let p = call(
        Builtin::Ifp(T),
        vec![
            boolean(false),
            ret(T, index(iota(1), int(5))),
            ret(T, int(2)),
        ],
    );
    let r = thread(p);
    assert_eq!(r.value(), "Program<thread> 2");
    assert!(r.fired("5.91 ifp-false", 1));
}
