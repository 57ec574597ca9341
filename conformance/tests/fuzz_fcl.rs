//! A short FCL campaign: generated programs are valid (>= 99%) and the oracle agrees with itself
//! on every machine shape and schedule.

use conformance::fuzz::oracle::Checked;
use conformance::fuzz::{run_fcl_campaign, Campaign, Verdict};
use conformance::gen::FclConfig;

fn campaign(count: u64, seed: u64) -> Campaign {
    Campaign {
        lang: conformance::fuzz::FuzzLang::Fcl,
        checker: conformance::fuzz::check_fcl_on,
        count,
        seed,
        jobs: 2,
        shard: (0, 1),
        save: None,
        config: FclConfig::default(),
        shrink_tries: 50,
        device: None,
        fault: None,
        batch: conformance::fuzz::DEFAULT_BATCH,
        opencl_options: String::new(),
        only: None,
        fault_program: None,
        live_report: None,
        external: Default::default(),
    }
}

#[test]
fn short_campaign_is_valid_and_agrees() {
    let r = run_fcl_campaign(&campaign(300, 7), &|_, _| {});
    for res in &r.results {
        if let Verdict::Invalid(why) = &res.verdict {
            eprintln!("invalid program {} (seed {}): {why}", res.index, res.seed);
        }
    }
    eprintln!(
        "{}\n{}{:.2} s, {:.1} programs/s",
        r.summary(),
        r.stats.render(),
        r.seconds,
        300.0 / r.seconds
    );
    assert_eq!(r.stats.generated, 300);
    assert!(r.stats.valid_percent() >= 99.0, "{}", r.stats.render());
    assert_eq!(r.stats.failed, 0, "{}", r.summary());
}

#[test]
fn same_seed_same_programs_and_shards_partition() {
    let a = run_fcl_campaign(&campaign(12, 3), &|_, _| {});
    let b = run_fcl_campaign(&campaign(12, 3), &|_, _| {});
    let seeds = |r: &conformance::fuzz::CampaignResult| -> Vec<u64> {
        r.results.iter().map(|x| x.seed).collect()
    };
    assert_eq!(seeds(&a), seeds(&b));
    let mut shard = campaign(12, 3);
    shard.shard = (1, 4);
    let s = run_fcl_campaign(&shard, &|_, _| {});
    let idx: Vec<u64> = s.results.iter().map(|x| x.index).collect();
    assert_eq!(idx, vec![1, 5, 9]);
    for r in &s.results {
        assert_eq!(r.seed, a.results[r.index as usize].seed);
    }
}

/// Shrinking against a stand-in failure ("the program uses `interleave`") ends with a smaller
/// program that still has the property and still passes the oracle check (stays well typed).
#[test]
fn shrinking_keeps_programs_valid_and_failing() {
    use conformance::gen::{generate_fcl, print_program, Rng};
    use conformance::shrink::fcl::shrink;
    let mut shrunk_some = 0;
    for seed in 0..40u64 {
        let p = generate_fcl(&mut Rng::new(seed), &FclConfig::default());
        let src = print_program(&p);
        if !src.contains("interleave") {
            continue;
        }
        let small = shrink(&p, 300, &mut |c| print_program(c).contains("interleave"));
        let small_src = print_program(&small);
        assert!(small_src.contains("interleave"));
        assert!(small_src.len() <= src.len());
        shrunk_some += usize::from(small_src.len() < src.len());
        let v = conformance::fuzz::check_fcl(&small_src, seed).verdict;
        assert_eq!(v, Verdict::Pass, "{small_src}");
    }
    assert!(
        shrunk_some > 5,
        "shrinking made only {shrunk_some} programs smaller"
    );
}

/// The compiled side: generated programs compiled at -O0 and -O2 print what the oracle printed
/// (skipped, with a note, where no OpenCL device exists).
#[test]
fn compiled_programs_agree_with_the_oracle() {
    let mut c = campaign(12, 21);
    c.jobs = 1;
    c.device = Some(0);
    let r = run_fcl_campaign(&c, &|_, _| {});
    if let Some(note) = &r.compiled_note {
        println!("{note}");
        return;
    }
    let declined: u64 = r.stats.unsupported.values().sum();
    assert!(declined < 12, "the compiler declined every program");
    assert_eq!(r.stats.failed, 0, "{:?}", r.results);
}

/// A stand-in engine bug: programs using `interleaveSeq` "differ".
fn buggy_check(src: &str, seed: u64, _: Option<&compiler::runtime::Runtime>) -> Checked {
    let mut c = conformance::fuzz::check_fcl(src, seed);
    if c.verdict == Verdict::Pass && src.contains("interleaveSeq") {
        c.verdict = Verdict::Mismatch {
            config: "stand-in".into(),
            expected: c.reference.clone(),
            got: "something else".into(),
        };
    }
    c
}

/// On a mismatch the campaign saves the original program with seed and both outputs, shrinks
/// it (the shrunk program still fails and is smaller), and saves the shrunk program.
#[test]
fn failures_are_saved_then_shrunk() {
    let dir = std::env::temp_dir().join(format!("tailfcl-fuzz-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut c = campaign(30, 5);
    c.checker = buggy_check;
    c.save = Some(dir.clone());
    let r = run_fcl_campaign(&c, &|_, _| {});
    assert!(r.stats.failed > 0, "no stand-in failure in 30 programs");
    let first = r
        .results
        .iter()
        .find(|x| matches!(x.verdict, Verdict::Mismatch { .. }))
        .expect("a failure");
    let stem = format!("fcl-5-{}", first.index);
    let original =
        std::fs::read_to_string(dir.join(format!("{stem}.fcl"))).expect("original saved");
    let info = std::fs::read_to_string(dir.join(format!("{stem}.txt"))).expect("details saved");
    assert!(info.contains(&format!("seed: {}", first.seed)) && info.contains("something else"));
    let shrunk = std::fs::read_to_string(dir.join(format!("fcl-5-{}-shrunk.fcl", first.index)))
        .expect("shrunk saved");
    assert!(shrunk.len() < original.len(), "{shrunk}");
    assert!(matches!(
        buggy_check(&shrunk, first.seed, None).verdict,
        Verdict::Mismatch { .. }
    ));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A short TAIL campaign: every generated program type checks and the TAIL oracle prints what
/// the generator's direct evaluation predicts.
#[test]
fn short_tail_campaign_agrees_with_direct_evaluation() {
    let mut c = campaign(300, 9);
    c.lang = conformance::fuzz::FuzzLang::Tail;
    let r = run_fcl_campaign(&c, &|_, _| {});
    for res in &r.results {
        if res.verdict != Verdict::Pass {
            eprintln!(
                "program {} (seed {}): {:?}",
                res.index, res.seed, res.verdict
            );
        }
    }
    assert_eq!(r.stats.generated, 300);
    assert!(r.stats.valid_percent() >= 99.0, "{}", r.stats.render());
    assert_eq!(r.stats.failed, 0, "{}", r.summary());
}

/// The generator as a quickcheck `Arbitrary`: the oracle agrees with itself on arbitrary
/// programs, and every shrink candidate quickcheck would try is itself a valid program.
#[test]
fn arbitrary_programs_and_their_shrinks_pass() {
    fn prop(p: conformance::gen::FclProgram) -> bool {
        let ok = |q: &conformance::gen::FclProgram| {
            conformance::fuzz::check_fcl(&conformance::gen::print_program(q), 1).verdict
                == Verdict::Pass
        };
        ok(&p) && quickcheck::Arbitrary::shrink(&p).take(5).all(|q| ok(&q))
    }
    quickcheck::QuickCheck::new()
        .tests(25)
        .quickcheck(prop as fn(conformance::gen::FclProgram) -> bool);
}
