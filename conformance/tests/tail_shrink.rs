//! TAIL shrinking: against a stand-in failure on generated programs, and end to end in a
//! `fuzz --lang tail` campaign with a compiler fault injected (where an OpenCL device exists).

use compiler::fault::Fault;
use conformance::fuzz::tail::{check_tail_against, check_tail_program};
use conformance::fuzz::{run_fcl_campaign, Campaign, FuzzLang, Verdict};
use conformance::gen::tail_gen::generate_tail;
use conformance::gen::{FclConfig, Rng};
use conformance::shrink::tail::{shrink, TailProgram};

/// Whether the TAIL oracle runs `src` without error and prints a negative number.
fn prints_a_negative_number(src: &str) -> bool {
    let checked = check_tail_against(src, None);
    checked.verdict == Verdict::Pass
        && checked
            .stdout
            .as_bytes()
            .windows(2)
            .any(|w| w[0] == b'-' && w[1].is_ascii_digit())
}

/// Stand-in failure "the output has a negative number": every generated program with one
/// shrinks to a smaller, well-typed program that still runs and still prints one.
#[test]
fn generated_programs_shrink_and_keep_the_failure() {
    let mut shrunk = 0;
    let (mut before, mut after) = (0, 0);
    for seed in 0..60u64 {
        let case = generate_tail(&mut Rng::new(seed), 8);
        if !prints_a_negative_number(&case.source) {
            continue;
        }
        let p = TailProgram::parse(&case.source).expect("generated programs parse");
        let (small, stats) = shrink(&p, 300, &mut |c| prints_a_negative_number(&c.print()));
        let text = small.print();
        assert!(small.well_typed(), "{text}");
        assert!(semantics::tail::step::load(&text).is_ok(), "{text}");
        assert!(prints_a_negative_number(&text), "{text}");
        assert!(small.size() <= p.size(), "{text}");
        assert!(stats.tries <= 300);
        if small.size() < p.size() {
            shrunk += 1;
        }
        before += p.size();
        after += small.size();
    }
    println!("{shrunk} programs shrunk: {before} nodes -> {after}");
    assert!(shrunk >= 5, "only {shrunk} programs shrunk");
    // a negative number needs one literal or one subtraction: most of each program goes
    assert!(after * 3 < before, "{before} nodes -> {after}");
}

/// A TAIL campaign with `store-off-by-one` injected: each failure is saved, then a shrunk
/// program that is smaller, well typed and fails on the same configuration.
#[test]
fn a_tail_campaign_saves_and_shrinks_injected_failures() {
    let dir = std::env::temp_dir().join(format!("tail-shrink-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let c = Campaign {
        lang: FuzzLang::Tail,
        checker: conformance::fuzz::check_fcl_on,
        // the generator finds this fault in several of the first 8 programs already, and each
        // failure's shrink compiles up to 100 candidates
        count: 8,
        seed: 1,
        jobs: 1,
        shard: (0, 1),
        save: Some(dir.clone()),
        config: FclConfig::default(),
        shrink_tries: 100,
        device: Some(0),
        fault: Some(Fault::StoreIndexOffByOne),
        batch: 8,
        opencl_options: String::new(),
        only: None,
        fault_program: None,
        live_report: None,
        external: Default::default(),
    };
    let r = run_fcl_campaign(&c, &|_, _| {});
    if let Some(note) = &r.compiled_note {
        println!("{note}");
        return;
    }
    assert!(
        r.stats.failed > 0,
        "the fault went unnoticed: {}",
        r.summary()
    );
    let runtime = compiler::runtime::Runtime::new(0).expect("the campaign had a device");
    let side = conformance::fuzz::tail::CompiledSide {
        runtime: &runtime,
        fault: c.fault,
        options: "",
        optimized: true,
    };
    for res in &r.results {
        let Verdict::Mismatch { config, .. } = &res.verdict else {
            continue;
        };
        let stem = dir.join(format!("tail-1-{}", res.index));
        let original = std::fs::read_to_string(stem.with_extension("tail")).expect("saved");
        let small = std::fs::read_to_string(dir.join(format!("tail-1-{}-shrunk.tail", res.index)))
            .expect("shrunk saved");
        assert!(std::fs::read_to_string(stem.with_extension("txt"))
            .expect("outputs saved")
            .contains(config.as_str()));
        let (p, q) = (
            TailProgram::parse(&original).expect("parses"),
            TailProgram::parse(&small).expect("parses"),
        );
        assert!(q.well_typed() && q.size() <= p.size(), "{small}");
        let again = check_tail_program(&small, None, Some(side)).verdict;
        assert!(
            matches!(&again, Verdict::Mismatch { config: c2, .. } if c2 == config),
            "{small}: {again:?}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
