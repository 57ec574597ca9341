//! Where a campaign's time goes, phase by phase, summed over its workers (so with several jobs the
//! phases add up to more than the wall-clock time).

use std::fmt::Write;
use std::time::Duration;

/// Time per phase and the OpenCL build counts.
#[derive(Clone, Debug, Default)]
pub struct Profile {
    /// Generating and printing programs.
    pub generate: Duration,
    /// The oracle: front end, reference run, the other machine shapes and schedules.
    pub oracle: Duration,
    /// The compiler at every optimization level (lowering, -O2 passes).
    pub compile: Duration,
    /// OpenCL builds (clBuildProgram).
    pub build: Duration,
    /// Running compiled modules (PoCL compiles a kernel for its work-group size at its first
    /// launch, so this includes code generation too).
    pub run: Duration,
    /// Shrinking failures.
    pub shrink: Duration,
    /// External engines (compilers under test) running programs.
    pub external: Duration,
    /// OpenCL builds made.
    pub builds: u64,
    /// Batch builds that failed (and were split).
    pub failed_batch_builds: u64,
    /// Disagreeing modules of a batch built and run again alone to confirm.
    pub confirmations: u64,
    /// Distinct modules built and run.
    pub modules: u64,
    /// Modules compiled in all (every level of every program).
    pub levels: u64,
    /// Kernels of the distinct modules.
    pub kernels: u64,
    /// Kernels PoCL generates code for separately at their first launch: dispatching kernels,
    /// and kernels left to be kernels of their own ([`super::dispatch`]).
    pub generated: u64,
}

impl Profile {
    /// Adds `other`'s times and counts.
    pub fn add(&mut self, other: &Profile) {
        self.generate += other.generate;
        self.oracle += other.oracle;
        self.compile += other.compile;
        self.build += other.build;
        self.run += other.run;
        self.shrink += other.shrink;
        self.external += other.external;
        self.builds += other.builds;
        self.failed_batch_builds += other.failed_batch_builds;
        self.confirmations += other.confirmations;
        self.modules += other.modules;
        self.levels += other.levels;
        self.kernels += other.kernels;
        self.generated += other.generated;
    }

    /// One line per phase: seconds and share of the total, then the build counts.
    pub fn render(&self) -> String {
        let phases = [
            ("generate", self.generate),
            ("oracle", self.oracle),
            ("compile", self.compile),
            ("opencl build", self.build),
            ("opencl run", self.run),
            ("shrink", self.shrink),
            ("external", self.external),
        ];
        let total: f64 = phases.iter().map(|p| p.1.as_secs_f64()).sum();
        let mut s = String::new();
        for (name, d) in phases {
            let _ = writeln!(
                s,
                "  {name:<13} {:>8.2} s  {:>5.1}%",
                d.as_secs_f64(),
                100.0 * d.as_secs_f64() / total.max(1e-9)
            );
        }
        let _ = writeln!(
            s,
            "  modules compiled {}, distinct and run {} ({} kernels; {} OpenCL kernels), OpenCL builds {} ({} batch builds failed, {} disagreements confirmed alone)",
            self.levels, self.modules, self.kernels, self.generated, self.builds, self.failed_batch_builds, self.confirmations
        );
        s
    }
}
