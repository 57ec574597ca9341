//! Random closed core terms, well typed or not, never make the oracle panic: every run ends in a
//! value, an `err`, or the step budget.

use super::term::resolve;
use super::{Ctx, Outcome, Task};
use crate::fcl::build::*;
use crate::fcl::core::{Builtin, Expr, Level, ScalarOp, Type};
use crate::fcl::machine::{Loc, Machine, Schedule, Scheduler};

struct Gen(u64);

impl Gen {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn level(&mut self) -> Level {
        Level(self.below(3) as u32)
    }
    fn ty(&mut self) -> Type {
        match self.below(6) {
            0 => Type::Double,
            1 => Type::pull(Type::Int),
            2 => Type::program(self.level(), Type::pull(Type::Int)),
            3 => Type::pair(Type::Int, Type::Int),
            _ => Type::Int,
        }
    }

    /// A term over the variables `vars` (all in scope).
    fn term(&mut self, depth: u32, vars: &mut Vec<String>) -> Expr {
        if depth == 0 || self.below(5) == 0 {
            return match self.below(5) {
                0 if !vars.is_empty() => {
                    let i = self.below(vars.len() as u64) as usize;
                    var(&vars[i])
                }
                1 => boolean(self.below(2) == 0),
                2 => double(self.below(7) as f64 / 2.0),
                _ => int(self.below(9) as i32 - 2),
            };
        }
        let d = depth - 1;
        match self.below(12) {
            0 | 1 => {
                let x = format!("v{}", vars.len());
                let ty = self.ty();
                vars.push(x.clone());
                let body = self.term(d, vars);
                vars.pop();
                lam(&x, ty, body)
            }
            2 => app(self.term(d, vars), self.term(d, vars)),
            3 => {
                let x = format!("v{}", vars.len());
                let ty = self.ty();
                let bound = self.term(d, vars);
                vars.push(x.clone());
                let body = self.term(d, vars);
                vars.pop();
                let_(&x, ty, bound, body)
            }
            4 => if_(self.term(d, vars), self.term(d, vars), self.term(d, vars)),
            5 => pair(self.term(d, vars), self.term(d, vars)),
            6 => fst(self.term(d, vars)),
            7 => {
                let op = ScalarOp::ALL[self.below(ScalarOp::ALL.len() as u64) as usize];
                let args = (0..op.signature().0.len())
                    .map(|_| self.term(d, vars))
                    .collect();
                call(Builtin::Scalar(op), args)
            }
            _ => {
                let l = self.level();
                let builtins = [
                    Builtin::Generate,
                    Builtin::Index,
                    Builtin::LengthPull,
                    Builtin::MapPull,
                    Builtin::Push(l),
                    Builtin::Force(l),
                    Builtin::Return(l),
                    Builtin::Bind(l),
                    Builtin::Interleave(l),
                    Builtin::InterleaveSeq(l),
                    Builtin::SeqFor,
                    Builtin::MapPush(l),
                    Builtin::LengthPush(l),
                    Builtin::Power(l),
                    Builtin::PowerI(l),
                    Builtin::While(l),
                    Builtin::Ifp(l),
                    Builtin::Permute(l),
                    Builtin::ForceAndPrint,
                    Builtin::ForceAndPrintDouble,
                    Builtin::Benchmark,
                    Builtin::BlockSize,
                ];
                let b = builtins[self.below(builtins.len() as u64) as usize];
                let args = (0..b.arity()).map(|_| self.term(d, vars)).collect();
                call(b, args)
            }
        }
    }
}

#[test]
fn random_terms_never_panic() {
    let mut g = Gen(0x5EED_1234_ABCD_0001);
    let locs = [
        Loc::thread(0),
        Machine::DEFAULT.grid(),
        Machine {
            blocks: 1,
            threads: 3,
        }
        .grid()
        .subs()[0]
            .clone(),
    ];
    let mut outcomes = [0u32; 3];
    for i in 0..20_000 {
        let e = g.term(7, &mut Vec::new());
        let term = resolve(&e).expect("closed");
        let schedule =
            [Schedule::InOrder, Schedule::RoundRobin, Schedule::Random(i)][i as usize % 3];
        let mut ctx = Ctx::new(Scheduler::new(schedule), i % 2 == 0);
        let mut task = Task::new(term, locs[i as usize % 3].clone());
        let mut budget = 3000;
        outcomes[loop {
            if budget == 0 {
                break 2;
            }
            budget -= 1;
            match task.step(&mut ctx) {
                Ok(Outcome::Fired(_)) => {}
                Ok(Outcome::Done(_)) => break 0,
                Err(_) => break 1,
            }
        }] += 1;
    }
    // the generator reaches values and errors alike
    assert!(outcomes[0] > 100 && outcomes[1] > 100, "{outcomes:?}");
}
