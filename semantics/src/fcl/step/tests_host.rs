//! Tests of the host operations (spec §4.4), the machine model (5.32, 5.33, Figure 5.8),
//! schedules, trace printing, and the iterative handling of deep terms.

use super::term::resolve;
use super::tests::{grid, ints, thread, B, G, T};
use super::{Ctx, Fired, Outcome, Task};
use crate::fcl::build::*;
use crate::fcl::core::{Builtin, Expr, ScalarOp, Type};
use crate::fcl::machine::{Loc, Machine, Schedule, Scheduler};
use crate::fcl::value::{render_full, Value};

fn print(n: i32, a: Expr) -> Expr {
    call(Builtin::ForceAndPrint, vec![int(n), a])
}

#[test]
fn host_printing_and_programs_run_each_time_they_are_bound() {
    let a = push(G, generate(int(4), fn_int("i", mul(var("i"), var("i")))));
    let r = grid(print(4, a.clone()));
    assert_eq!(r.stdout, "[0,1,4,9]\n");
    let d = push(
        G,
        generate(
            int(3),
            fn_int(
                "i",
                op(
                    ScalarOp::DivD,
                    vec![op(ScalarOp::I2D, vec![var("i")]), double(3.0)],
                ),
            ),
        ),
    );
    let r = grid(call(Builtin::ForceAndPrintDouble, vec![int(3), d]));
    assert_eq!(r.stdout, "[0.00000,0.33333,0.66667]\n");
    // a let-bound program printed twice: programs are actions (spec §7.1)
    let twice = let_(
        "p",
        Type::program(G, ints()),
        print(2, a.clone()),
        bind(G, var("p"), lam("x", ints(), var("p"))),
    );
    assert_eq!(grid(twice).stdout, "[0,1]\n[0,1]\n");
    // n outside [1, size]
    assert_eq!(
        grid(print(5, a.clone())).err().rule.to_string(),
        "host print"
    );
    assert_eq!(
        grid(print(0, a.clone())).err().rule.to_string(),
        "host print"
    );
    // benchmark: a printing program runs n+1 times; the report goes to stderr
    let r = grid(call(Builtin::Benchmark, vec![int(2), print(1, a)]));
    assert_eq!(r.stdout, "[0]\n[0]\n[0]\n");
    assert!(
        r.stderr.starts_with("Benchmark (2 repetitions): "),
        "{}",
        r.stderr
    );
    assert_eq!(grid(call(Builtin::BlockSize, vec![])).value(), "256");
}

#[test]
fn read_int_csv_tokens_like_atoi() {
    let path = std::env::temp_dir().join(format!("fcl-oracle-csv-{}.txt", std::process::id()));
    std::fs::write(&path, "1, 2,3\n-4 1.5 x\n").unwrap();
    let e = call(
        Builtin::ReadIntCsv,
        vec![Expr::new(
            crate::fcl::core::ExprKind::Str(path.display().to_string().into()),
            crate::Span::DUMMY,
        )],
    );
    let r = grid(e);
    std::fs::remove_file(&path).ok();
    assert_eq!(r.value(), "Program<grid> [1, 2, 3, -4, 1, 0]");
    let missing = call(
        Builtin::ReadIntCsv,
        vec![Expr::new(
            crate::fcl::core::ExprKind::Str("/nonexistent/x.csv".into()),
            crate::Span::DUMMY,
        )],
    );
    assert_eq!(grid(missing).err().rule.to_string(), "host readIntCSV");
}

#[test]
fn locations_respect_levels_5_32_5_33_and_admit_types() {
    let g = Machine::DEFAULT.grid();
    assert!(g.respects(G) && !g.respects(B));
    assert!(g.subs()[1].respects(B) && g.subs()[1].subs()[3].respects(T));
    assert_eq!(g.subs()[1].subs()[3].to_string(), "Thread(7)");
    let prog_block = Type::program(B, Type::Int);
    assert!(g.subs()[0].admits(&prog_block) && !g.admits(&prog_block));
    assert!(Loc::thread(0).admits(&Type::push(Type::Int, G)));
}

#[test]
fn schedules_choose_a_nonempty_set() {
    let mut out = Vec::new();
    for s in [Schedule::InOrder, Schedule::RoundRobin, Schedule::Random(3)] {
        let mut sch = Scheduler::new(s);
        for _ in 0..20 {
            sch.choose(&[0, 2, 5], &mut out);
            assert!(!out.is_empty() && out.iter().all(|j| [0, 2, 5].contains(j)));
        }
    }
    assert_eq!("random:9".parse::<Schedule>().unwrap(), Schedule::Random(9));
    assert!("sometimes".parse::<Schedule>().is_err());
}

#[test]
fn hot_types_stay_small() {
    // every step moves these around; a regression here costs speed everywhere
    assert!(std::mem::size_of::<Value>() <= 16);
    assert!(std::mem::size_of::<super::Control>() <= 40);
    assert!(std::mem::size_of::<super::Frame>() <= 96);
    assert!(std::mem::size_of::<Fired>() <= 72);
}

#[test]
fn shown_redexes_stay_one_short_line() {
    let mut big = int(0);
    for i in 0..5000 {
        big = add(big, int(i));
    }
    let r = thread(big);
    assert_eq!(r.value(), (0..5000).sum::<i32>().to_string());
    for f in &r.steps {
        let t = f.trace.as_ref().unwrap();
        assert!(t.redex.len() <= 200 && t.result.len() <= 200);
    }
}

#[test]
fn deep_nesting_does_not_overflow() {
    // 10^5 nested lets: resolving, running and dropping stay iterative
    let n = 100_000;
    let mut e = var("x0");
    for i in (1..=n).rev() {
        e = let_(&format!("x{}", i - 1), Type::Int, int(i), e);
    }
    let e = let_("x0", Type::Int, int(0), e);
    let term = resolve(&e).expect("resolves");
    // the core expression's derived (recursive) drop is not under test here; the binary drops it
    // on its 1 GiB stack
    std::mem::forget(e);
    let mut ctx = Ctx::new(Scheduler::new(Schedule::InOrder), false);
    let mut task = Task::new(term, Loc::thread(0));
    let mut steps = 0;
    let v = loop {
        match task.step(&mut ctx).unwrap() {
            Outcome::Fired(_) => steps += 1,
            Outcome::Done(v) => break v,
        }
    };
    // the innermost binder of x0 is `let x0 = 1`
    assert_eq!(render_full(&v), "1");
    assert_eq!(steps, n + 1);
}
