//! The two sides of a row: what the oracle counts for a program, and how long its compiled
//! kernels take on a device.

use compiler::exec::execute_with_launch;
use compiler::kir::emit::emit_module;
use compiler::runtime::Runtime;
use compiler::{compile_fcl_for_device, OptLevel, DEFAULT_BLOCK_SIZE};
use interpreter::fcl::{run_tallied, Config, Tally};
use semantics::fcl::core::Level;
use semantics::fcl::lower::load_program;
use semantics::fcl::machine::Machine;
use std::cell::Cell;

/// The most blocks the oracle's machine gets: beyond it a machine's locations cost the oracle
/// more than the sizes it runs at need.
const MAX_ORACLE_BLOCKS: usize = 4096;

/// What the oracle counts for one run (of a benchmark's body, where the program has one).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Counts {
    /// Top-level steps.
    pub steps: f64,
    /// Cost: the sum of the top-level step costs (parallel time on the machine).
    pub cost: f64,
    /// Work: the sum of the thread-level step costs.
    pub work: f64,
    /// Grid-level materialisations: the compiled program's kernel launches.
    pub launches: f64,
    /// Block-level materialisations, over all blocks: the compiled program's barriers.
    pub barriers: f64,
    /// Cells written by grid-level materialisations: global memory writes.
    pub global_writes: f64,
    /// Cells written by block-level materialisations: local memory writes.
    pub local_writes: f64,
    /// Reads of cells a block-level force wrote: local memory reads.
    pub local_reads: f64,
    /// Reads of other materialised cells: global memory reads.
    pub global_reads: f64,
    /// Global reads that are not unit-stride from one thread to the next (observed per read
    /// site: the coalescing class the semantics does not have).
    pub strided_reads: f64,
}

impl Counts {
    fn of(steps: u64, cost: u64, work: u64, t: &Tally) -> Counts {
        let (grid, block) = (Level::GRID.0, Level::BLOCK.0);
        Counts {
            steps: steps as f64,
            cost: cost as f64,
            work: work as f64,
            launches: t.materialisations(grid) as f64,
            barriers: t.materialisations(block) as f64,
            global_writes: t.cells[grid as usize] as f64,
            local_writes: t.cells[block as usize] as f64,
            local_reads: t.local_reads as f64,
            global_reads: t.global_reads as f64,
            strided_reads: t.strided_reads as f64,
        }
    }

    /// `self - other`, field by field (never below 0).
    fn minus(&self, o: &Counts) -> Counts {
        let d = |a: f64, b: f64| (a - b).max(0.0);
        Counts {
            steps: d(self.steps, o.steps),
            cost: d(self.cost, o.cost),
            work: d(self.work, o.work),
            launches: d(self.launches, o.launches),
            barriers: d(self.barriers, o.barriers),
            global_writes: d(self.global_writes, o.global_writes),
            local_writes: d(self.local_writes, o.local_writes),
            local_reads: d(self.local_reads, o.local_reads),
            global_reads: d(self.global_reads, o.global_reads),
            strided_reads: d(self.strided_reads, o.strided_reads),
        }
    }
}

/// The oracle's counts of one program run on `machine`, with its stdout.
fn tally(name: &str, src: &str, machine: Machine) -> Result<(Counts, String), String> {
    let p = load_program(&[(name.to_string(), src.to_string())])
        .map_err(|(f, d)| format!("{f}: {}", d.message))?;
    let cfg = Config {
        machine,
        ..Config::default()
    };
    let (out, t) = run_tallied(&p.main, &cfg);
    if let Err(f) = &out.result {
        return Err(format!("the oracle stopped: {f:?}"));
    }
    Ok((
        Counts::of(out.stats.steps, out.stats.cost, out.stats.work, &t),
        out.stdout,
    ))
}

/// The oracle's counts for `src` on `machine`: of one run of its benchmark's body where it has
/// one (the program less the program without the `benchmark` line), of the whole program
/// otherwise; and the program's stdout.
pub fn oracle(name: &str, src: &str, machine: Machine) -> Result<(Counts, String), String> {
    let (all, stdout) = tally(name, src, machine)?;
    match super::program::without_benchmark(src) {
        Some(rest) => Ok((all.minus(&tally(name, &rest, machine)?.0), stdout)),
        None => Ok((all, stdout)),
    }
}

/// What the device measured.
#[derive(Clone, Debug)]
pub struct Timing {
    /// Median over the runs of the kernel milliseconds of one benchmark run (the mean over
    /// its timed repetitions), or of the whole program's kernels where it has no benchmark.
    pub kernel_ms: f64,
    /// The most work-groups one launch used: the oracle's machine has as many blocks.
    pub groups: usize,
    /// The work-group size of the launches: the oracle machine's threads per block.
    pub block_size: usize,
    /// What the program printed.
    pub stdout: String,
}

/// Compiles `src` at -O2 for `rt`'s device (which must profile) and runs it `runs` times after
/// one warm-up run (PoCL generates each kernel's code at its first launch).
pub fn device(rt: &Runtime, name: &str, src: &str, runs: usize) -> Result<Timing, String> {
    let p = load_program(&[(name.to_string(), src.to_string())])
        .map_err(|(f, d)| format!("{f}: {}", d.message))?;
    let bs = DEFAULT_BLOCK_SIZE.min(rt.device.max_work_group_size.max(1));
    let m = compile_fcl_for_device(&p.main, OptLevel::O2, bs, &rt.device)
        .map_err(|e| format!("compile: {e}"))?;
    let program = rt
        .build(&emit_module(&m))
        .map_err(|e| format!("build: {e}"))?;
    let groups = Cell::new(0usize);
    let mut times = Vec::new();
    let mut stdout = String::new();
    for run in 0..=runs.max(1) {
        let report = execute_with_launch(&m, rt, &|k, g, local, args| {
            groups.set(groups.get().max(g));
            rt.enqueue(&program, &m.kernels[k].name, g, local, args)
        })
        .map_err(|e| format!("run: {e}"))?;
        let ns = match report.benchmarks.first() {
            Some(b) => b.kernel_ns as f64 / b.runs.max(1) as f64,
            None => report.launches.iter().map(|(_, ns)| *ns as f64).sum(),
        };
        if run > 0 {
            times.push(ns / 1e6);
        }
        stdout = report.stdout;
    }
    Ok(Timing {
        kernel_ms: median(&mut times),
        groups: groups.get().max(1),
        block_size: bs,
        stdout,
    })
}

/// The oracle machine matching a compiled launch: as many blocks as its largest launch has
/// work-groups (at most [`MAX_ORACLE_BLOCKS`]), of the work-group size.
pub fn machine_for(t: &Timing) -> Machine {
    Machine {
        blocks: t.groups.clamp(1, MAX_ORACLE_BLOCKS) as u32,
        threads: t.block_size as u32,
    }
}

/// The median (the mean of the middle two for an even count); 0 for none.
pub fn median(v: &mut [f64]) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use compiler::with_sizes;

    fn counts(src: &str, size: (&str, i64), machine: Machine) -> Counts {
        let src = with_sizes(src, &[(size.0.to_string(), size.1)]);
        oracle("t.fcl", &src, machine).expect("the oracle runs").0
    }

    #[test]
    fn the_oracle_attributes_launches_writes_and_reads() {
        let m = Machine {
            blocks: 4,
            threads: 256,
        };
        // one benchmark repetition of copy: one kernel writing and reading each element once
        let copy = include_str!("../../../examples/fcl/bench/copy.fcl");
        for n in [512, 1024] {
            let c = counts(copy, ("size", n), m);
            assert_eq!(
                (c.launches, c.global_writes, c.global_reads),
                (1.0, n as f64, n as f64)
            );
            assert_eq!(c.local_reads, 0.0, "{c:?}");
            // thread t+1 reads the cell after thread t's: unit stride throughout
            assert_eq!(c.strided_reads, 0.0, "{c:?}");
        }
        // the tiled transpose stages each tile in local memory: a local read per element,
        // global reads and writes of each element once, and block-level forces per tile (the
        // staging force, and the forces of the tile's result that precede the scatter: more
        // than the compiled kernel's one barrier, which writes the result straight out)
        let tiled = include_str!("../../../examples/fcl/bench/transpose.fcl");
        let c = counts(tiled, ("side", 32), m);
        assert_eq!(c.launches, 1.0, "{c:?}");
        assert_eq!(
            (c.global_writes, c.global_reads, c.local_reads),
            (1024.0, 1024.0, 1024.0)
        );
        assert!(
            c.barriers >= 4.0 && c.barriers % 4.0 == 0.0,
            "per tile: {c:?}"
        );
        // the naive one reads global memory only: its counts are copy's
        let naive = include_str!("../../../examples/fcl/cost/transpose_naive.fcl");
        let c = counts(naive, ("side", 32), m);
        assert_eq!(
            (c.launches, c.global_reads, c.local_reads),
            (1.0, 1024.0, 0.0)
        );
        // but the reads of neighbouring threads are a row apart: all strided but the first
        assert_eq!(c.strided_reads, 1023.0, "{c:?}");
    }

    #[test]
    fn median_of_odd_even_and_none() {
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&mut [4.0, 1.0, 2.0, 3.0]), 2.5);
        assert_eq!(median(&mut []), 0.0);
    }
}
