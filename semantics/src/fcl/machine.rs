//! The machine model of thesis §5.3.3: locations, the relations `loc ▷ l` (5.32, 5.33) and
//! `loc ▶ τ` (Figure 5.8), machine shapes `BxT`, and the schedules that choose the set J of rules
//! 5.81/5.83.

use super::core::{Level, Type};
use std::fmt;
use std::rc::Rc;

/// A location: `Thread(id)` or `Group(loc0, …, loc(m−1))`. Shared, so that a grid of 16x256 is built
/// once and sub-locations are cheap to hand to sub-computations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loc(Rc<LocNode>);

#[derive(Debug, PartialEq, Eq)]
struct LocNode {
    kind: LocKind,
    /// How traces show it: `Thread(5)`, `Block(1)`, `Grid`.
    label: String,
}

#[derive(Debug, PartialEq, Eq)]
enum LocKind {
    Thread(u32),
    Group(Vec<Loc>),
}

impl Loc {
    /// `Thread(id)`.
    pub fn thread(id: u32) -> Loc {
        Loc(Rc::new(LocNode {
            kind: LocKind::Thread(id),
            label: format!("Thread({id})"),
        }))
    }

    /// `Group(locs)` shown as `label`.
    pub fn group(label: String, locs: Vec<Loc>) -> Loc {
        Loc(Rc::new(LocNode {
            kind: LocKind::Group(locs),
            label,
        }))
    }

    /// A thread's id; `None` for a group.
    pub fn thread_id(&self) -> Option<u32> {
        match &self.0.kind {
            LocKind::Thread(id) => Some(*id),
            LocKind::Group(_) => None,
        }
    }

    /// The sub-locations of a group; empty for a thread.
    pub fn subs(&self) -> &[Loc] {
        match &self.0.kind {
            LocKind::Thread(_) => &[],
            LocKind::Group(locs) => locs,
        }
    }

    /// The highest level this location respects; `None` for a group of mixed or no depth.
    pub fn level(&self) -> Option<Level> {
        match &self.0.kind {
            LocKind::Thread(_) => Some(Level::THREAD),
            LocKind::Group(locs) => {
                let first = locs.first()?.level()?;
                locs.iter()
                    .all(|l| l.level() == Some(first))
                    .then(|| first.succ())
            }
        }
    }

    /// `loc ▷ l`: (5.32) `Thread(t) ▷ Z`; (5.33) `Group(locs) ▷ 1+l` if every sub-location `▷ l`.
    pub fn respects(&self, l: Level) -> bool {
        match (&self.0.kind, l.pred()) {
            (LocKind::Thread(_), None) => true, // (5.32)
            (LocKind::Group(locs), Some(below)) => {
                !locs.is_empty() && locs.iter().all(|s| s.respects(below)) // (5.33)
            }
            _ => false,
        }
    }

    /// `loc ▶ τ` (Figure 5.8, 5.34–5.40 with 5.36/5.37 read as `τ1`, `τ2`): which types may be
    /// evaluated here. Everything but a program is admitted anywhere; `Program<l> τ` needs `loc ▷ l`.
    pub fn admits(&self, ty: &Type) -> bool {
        match ty {
            Type::Int | Type::Double | Type::Bool | Type::Str | Type::Unit => true,
            Type::Pair(a, b) | Type::Fun(a, b) => self.admits(a) && self.admits(b),
            Type::Pull(t) => self.admits(t),
            Type::Push(..) => true,
            Type::Program(l, t) => self.respects(*l) && self.admits(t),
        }
    }
}

impl fmt::Display for Loc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.label)
    }
}

/// A machine: a grid of `blocks` work-groups of `threads` threads (`--machine BxT`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Machine {
    pub blocks: u32,
    pub threads: u32,
}

impl Machine {
    /// The default machine, 2x4.
    pub const DEFAULT: Machine = Machine {
        blocks: 2,
        threads: 4,
    };

    /// The grid location `Group(Block(0), …)`, each block `Group(Thread(…), …)` with global
    /// thread ids.
    pub fn grid(&self) -> Loc {
        let blocks = (0..self.blocks)
            .map(|b| {
                let threads = (0..self.threads)
                    .map(|t| Loc::thread(b * self.threads + t))
                    .collect();
                Loc::group(format!("Block({b})"), threads)
            })
            .collect();
        Loc::group("Grid".into(), blocks)
    }
}

impl std::str::FromStr for Machine {
    type Err = String;
    fn from_str(s: &str) -> Result<Machine, String> {
        let bad = || format!("bad machine `{s}`: expected BxT with B, T >= 1 (e.g. 2x4)");
        let (b, t) = s.split_once('x').ok_or_else(bad)?;
        let blocks: u32 = b.trim().parse().map_err(|_| bad())?;
        let threads: u32 = t.trim().parse().map_err(|_| bad())?;
        if blocks == 0 || threads == 0 || blocks.saturating_mul(threads) > 1 << 24 {
            return Err(bad());
        }
        Ok(Machine { blocks, threads })
    }
}

impl fmt::Display for Machine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.blocks, self.threads)
    }
}

/// How rules 5.81/5.83 choose the set J of sub-locations that step together.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Schedule {
    /// Every sub-location with work left steps, in index order.
    InOrder,
    /// Every sub-location with work left steps, starting one further along each group step.
    RoundRobin,
    /// A random non-empty subset steps, in random order (xorshift seeded by SEED).
    Random(u64),
}

impl std::str::FromStr for Schedule {
    type Err = String;
    fn from_str(s: &str) -> Result<Schedule, String> {
        match s {
            "in-order" => Ok(Schedule::InOrder),
            "round-robin" => Ok(Schedule::RoundRobin),
            _ => s
                .strip_prefix("random:")
                .and_then(|n| n.parse().ok())
                .map(Schedule::Random)
                .ok_or_else(|| {
                    format!("bad schedule `{s}`: expected in-order, round-robin or random:SEED")
                }),
        }
    }
}

impl fmt::Display for Schedule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Schedule::InOrder => write!(f, "in-order"),
            Schedule::RoundRobin => write!(f, "round-robin"),
            Schedule::Random(s) => write!(f, "random:{s}"),
        }
    }
}

/// The running state of a schedule: it picks J for each group step.
#[derive(Clone, Debug)]
pub struct Scheduler {
    schedule: Schedule,
    turn: usize,
    rng: u64,
}

impl Scheduler {
    pub fn new(schedule: Schedule) -> Scheduler {
        let rng = match schedule {
            Schedule::Random(seed) => seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1,
            _ => 1,
        };
        Scheduler {
            schedule,
            turn: 0,
            rng,
        }
    }

    fn next_random(&mut self) -> u64 {
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        self.rng
    }

    /// Chooses J among the sub-locations in `ready` (which have work left), writing the chosen ones
    /// in stepping order to `out`. J is never empty when `ready` is not.
    pub fn choose(&mut self, ready: &[usize], out: &mut Vec<usize>) {
        out.clear();
        if ready.is_empty() {
            return;
        }
        match self.schedule {
            Schedule::InOrder => out.extend_from_slice(ready),
            Schedule::RoundRobin => {
                let start = self.turn % ready.len();
                self.turn = self.turn.wrapping_add(1);
                out.extend(ready[start..].iter().chain(&ready[..start]));
            }
            Schedule::Random(_) => {
                for &r in ready {
                    if self.next_random().is_multiple_of(2) {
                        out.push(r);
                    }
                }
                if out.is_empty() {
                    let pick = (self.next_random() % ready.len() as u64) as usize;
                    out.push(ready[pick]);
                }
                for i in (1..out.len()).rev() {
                    let j = (self.next_random() % (i as u64 + 1)) as usize;
                    out.swap(i, j);
                }
            }
        }
    }
}
