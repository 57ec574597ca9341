//! The batched compiled side: verdicts do not depend on the batch size, and a module that does
//! not build is reported against its own program while the rest of its batch still agrees.
//! (Skipped, with a note, where no OpenCL device exists.)

use compiler::runtime::Runtime;
use conformance::fuzz::batch::{compile_job, run_jobs, RunCache};
use conformance::fuzz::compiled::CompiledOutcome;
use conformance::fuzz::profile::Profile;
use conformance::fuzz::{run_fcl_campaign, Campaign, FuzzLang, Verdict};
use conformance::gen::FclConfig;

/// The compiled side of a program printing `[0,2,4]`.
fn doubling_job() -> conformance::fuzz::batch::CompiledJob {
    let src = "sig main : Program <grid> [int]\nval main = forceAndPrint 3 (push<grid> (generate 3 (fn i => i * 2)))\n";
    let program = semantics::fcl::lower::load_program(&[("t.fcl".into(), src.into())])
        .unwrap_or_else(|(_, d)| panic!("{}", d.message));
    compile_job(&program.main, "[0,2,4]\n", None)
}

/// The modules of a job's levels that compiled.
fn job_modules(job: &conformance::fuzz::batch::CompiledJob) -> Vec<&compiler::kir::Module> {
    job.levels
        .iter()
        .filter_map(|(_, l)| l.as_ref().ok())
        .collect()
}

fn campaign(lang: FuzzLang, count: u64, seed: u64, batch: usize) -> Campaign {
    Campaign {
        lang,
        checker: conformance::fuzz::check_fcl_on,
        count,
        seed,
        jobs: 1,
        shard: (0, 1),
        save: None,
        config: FclConfig::default(),
        shrink_tries: 50,
        device: Some(0),
        fault: None,
        batch,
        opencl_options: String::new(),
        only: None,
        fault_program: None,
        live_report: None,
        external: Default::default(),
    }
}

fn verdicts(c: &Campaign) -> Option<Vec<(u64, Verdict, Option<String>)>> {
    let r = run_fcl_campaign(c, &|_, _| {});
    if let Some(note) = &r.compiled_note {
        println!("{note}");
        return None;
    }
    Some(
        r.results
            .into_iter()
            .map(|p| (p.index, p.verdict, p.unsupported))
            .collect(),
    )
}

#[test]
fn verdicts_do_not_depend_on_the_batch_size() {
    let Some(alone) = verdicts(&campaign(FuzzLang::Fcl, 10, 31, 1)) else {
        return;
    };
    let batched = verdicts(&campaign(FuzzLang::Fcl, 10, 31, 4)).unwrap_or_default();
    assert_eq!(alone, batched);
    assert!(alone.iter().all(|v| v.1 == Verdict::Pass), "{alone:?}");
}

#[test]
fn tail_programs_agree_lowered_and_compiled() {
    let c = campaign(FuzzLang::Tail, 40, 5, 8);
    let r = run_fcl_campaign(&c, &|_, _| {});
    if r.compiled_note.is_some() {
        return;
    }
    assert_eq!(r.stats.failed, 0, "{:?}", r.results);
    let compiled = r.results.iter().filter(|p| p.unsupported.is_none()).count();
    assert!(
        compiled >= 5,
        "only {compiled} of 40 TAIL programs were lowered and compiled"
    );
    assert!(
        r.stats.rules.contains_key("3.55 beta"),
        "{:?}",
        r.stats.rules
    );
}

#[test]
fn a_module_that_does_not_build_fails_alone() {
    let Ok(rt) = Runtime::new(0) else {
        println!("skipped: no OpenCL device");
        return;
    };
    let src = "sig main : Program <grid> [int]\nval main = forceAndPrint 3 (push<grid> (generate 3 (fn i => i * 2)))\n";
    let program = semantics::fcl::lower::load_program(&[("t.fcl".into(), src.into())])
        .unwrap_or_else(|(_, d)| panic!("{}", d.message));
    let expected = "[0,2,4]\n";
    let good = compile_job(&program.main, expected, None);
    let mut bad = good.clone();
    for (_, level) in &mut bad.levels {
        if let Ok(m) = level {
            // a parameter OpenCL C cannot parse (a kernel's name may not reach the source: a
            // dispatched kernel becomes a function named after its place in the batch)
            for p in &mut m.kernels[0].params {
                if let compiler::kir::Param::Buffer(name, _) = p {
                    *name = "not a name".into();
                }
            }
        }
    }
    let outcomes = run_jobs(
        &[good.clone(), bad, good],
        &rt,
        &mut RunCache::default(),
        &mut Profile::default(),
    );
    assert_eq!(outcomes[0], CompiledOutcome::Agree);
    assert_eq!(outcomes[2], CompiledOutcome::Agree);
    match &outcomes[1] {
        CompiledOutcome::Differs { opt, got } => {
            assert_eq!(opt, "-O0");
            assert!(got.starts_with("error: OpenCL build failed"), "{got}");
        }
        other => panic!("{other:?}"),
    }
}

/// Barrier-free kernels go behind the one dispatching kernel; kernels with barriers stay
/// kernels of their own, renamed per module, unless barriers may be dispatched too (a program
/// built with `-cl-opt-disable`), when the dispatcher is the only kernel.
#[test]
fn barrier_free_kernels_share_the_dispatcher() {
    use conformance::fuzz::dispatch::{dispatch_source, DISPATCHER};
    let job = doubling_job();
    let modules = job_modules(&job);
    assert_eq!(modules.len(), 2);
    let all = dispatch_source(&modules, true);
    assert_eq!(
        all.source.matches("__kernel void ").count(),
        1,
        "{}",
        all.source
    );
    assert_eq!(all.kernel_count(), 1);
    let d = dispatch_source(&modules, false);
    let with_barriers = modules
        .iter()
        .flat_map(|m| &m.kernels)
        .filter(|k| compiler::kir::emit::emit_kernel(k).contains("barrier("))
        .count();
    let total: usize = modules.iter().map(|m| m.kernels.len()).sum();
    assert!(with_barriers < total, "{}", d.source);
    assert_eq!(
        d.source.matches("__kernel void ").count(),
        1 + with_barriers,
        "{}",
        d.source
    );
    assert!(d.source.contains(&format!("__kernel void {DISPATCHER}(")));
    assert_eq!(d.kernel_count(), 1 + with_barriers);
    assert_eq!(
        all.source.matches("barrier(").count(),
        d.source.matches("barrier(").count()
    );
    assert_eq!(d.source.matches("barrier(").count(), {
        let per: usize = modules
            .iter()
            .flat_map(|m| &m.kernels)
            .map(|k| {
                compiler::kir::emit::emit_kernel(k)
                    .matches("barrier(")
                    .count()
            })
            .sum();
        per
    });
}

/// More kernels with barriers than one dispatcher holds spread over several dispatchers (at
/// most `BARRIER_CASES` each, with no barrier-free kernel among them), and every program still
/// prints what it should.
#[test]
fn barrier_kernels_spread_over_dispatchers() {
    use conformance::fuzz::dispatch::{dispatch_source, BARRIER_CASES};
    let jobs: Vec<_> = (1..=2 * BARRIER_CASES as i32)
        .map(|k| {
            // a block-level force: local memory, so a barrier at -O0
            let src = format!(
                "sig main : Program <grid> unit\nval main = do<grid> {{ g <- interleave<block> 3 (fn p => (fst p * 3) + snd p) (generate 1 (fn b => do<block> {{ a <- force<block> (push<block> (generate 3 (fn i => i * {k}))) ; return<block> (push<block> a) }})) ; a <- forceAndPrint 3 g ; return<grid> () }}\n"
            );
            let program = semantics::fcl::lower::load_program(&[("t.fcl".into(), src)])
                .unwrap_or_else(|(_, d)| panic!("{}", d.message));
            compile_job(&program.main, &format!("[0,{k},{}]\n", 2 * k), None)
        })
        .collect();
    let o0: Vec<&compiler::kir::Module> = jobs
        .iter()
        .filter_map(|j| j.levels[0].1.as_ref().ok())
        .collect();
    let barrier_kernels = o0
        .iter()
        .flat_map(|m| &m.kernels)
        .filter(|k| compiler::kir::emit::emit_kernel(k).contains("barrier("))
        .count();
    assert!(barrier_kernels > BARRIER_CASES, "{barrier_kernels}");
    let d = dispatch_source(&o0, true);
    assert_eq!(
        d.kernel_count(),
        barrier_kernels.div_ceil(BARRIER_CASES).max(1),
        "{}",
        d.source
    );
    let Ok(rt) = Runtime::new(0) else {
        println!("skipped: no OpenCL device");
        return;
    };
    let outcomes = run_jobs(
        &jobs,
        &rt,
        &mut RunCache::default(),
        &mut Profile::default(),
    );
    assert!(
        outcomes.iter().all(|o| *o == CompiledOutcome::Agree),
        "{outcomes:?}"
    );
}

/// By default every build is unoptimized except the -O2 modules of one run of programs in
/// `OPTIMIZED_EVERY`; explicit options apply to every program.
#[test]
fn default_build_options_optimize_a_sample_of_o2_builds() {
    use conformance::fuzz::batch::{
        optimized_program, BuildOptions, OPTIMIZED_EVERY, OPTIMIZED_RUN,
    };
    let d = BuildOptions::parse("");
    assert_eq!(d.levels, ["-cl-opt-disable", "-cl-opt-disable"]);
    assert_eq!(d.optimized, ["-cl-opt-disable", ""]);
    let all = BuildOptions::parse("-cl-opt-disable|");
    assert_eq!(all.levels, all.optimized);
    assert_eq!(all.levels, ["-cl-opt-disable", ""]);
    let picked = (0..OPTIMIZED_RUN * OPTIMIZED_EVERY * 4)
        .filter(|&k| optimized_program(k))
        .count() as u64;
    assert_eq!(picked, OPTIMIZED_RUN * 4);
    assert!(optimized_program(0) && optimized_program(OPTIMIZED_RUN - 1));
    assert!(!optimized_program(OPTIMIZED_RUN));
    assert!(optimized_program(OPTIMIZED_RUN * OPTIMIZED_EVERY));
}

/// Off PoCL, a batch is plain kernels, one per module's kernel, in one program; on PoCL the
/// dispatchers take their `__local` block as an argument (no `__local` variable at a kernel's
/// scope used only through functions: a newer PoCL's compiler asserted on that) and the
/// dispatched functions carry no `restrict`. Both forms print what each module prints alone.
#[test]
fn plain_batches_and_dispatchers_are_portable_and_agree() {
    use conformance::fuzz::dispatch::{dispatch_source, plain_source, DISPATCHER};
    let job = doubling_job();
    let modules = job_modules(&job);
    let total: usize = modules.iter().map(|m| m.kernels.len()).sum();
    let plain = plain_source(&modules);
    assert!(!plain.source.contains(DISPATCHER), "{}", plain.source);
    assert_eq!(plain.kernel_count(), total);
    assert_eq!(plain.source.matches("__kernel void ").count(), total);
    let dispatched = dispatch_source(&modules, true);
    assert!(dispatched.source.contains("__local ulong* fcl_lmem"));
    assert!(!dispatched.source.contains("__local ulong fcl_lmem["));
    let functions = dispatched
        .source
        .split("__kernel void")
        .next()
        .unwrap_or_default();
    assert!(!functions.contains("restrict"), "{}", dispatched.source);
    let Ok(rt) = Runtime::new(0) else {
        println!("skipped: no OpenCL device");
        return;
    };
    for d in [&plain, &dispatched] {
        let built = rt
            .build_with_options(&d.source, "-cl-opt-disable")
            .unwrap_or_else(|e| panic!("{e}\n{}", d.source));
        for (i, m) in modules.iter().enumerate() {
            let report = d
                .execute(i, m, &rt, &built)
                .unwrap_or_else(|e| panic!("{e}\n{}", d.source));
            assert_eq!(report.stdout, "[0,2,4]\n");
        }
    }
}
