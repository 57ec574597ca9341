//! The chapter-5 programs of examples/fcl, through the front end (parse, infer, monomorphize,
//! lower) and the oracle: identical output on every machine shape and schedule, work independent
//! of the shape, the final value of main's type, and cost falling with the machine for reverse.

use interpreter::fcl::{check_schedules, run, Config};
use semantics::fcl::core_type::type_of;
use semantics::fcl::lower::{load_program, Program};
use semantics::fcl::machine::Schedule;
use semantics::fcl::value::has_type;

fn load(name: &str, src: &str) -> Program {
    load_program(&[(name.to_string(), src.to_string())])
        .unwrap_or_else(|(f, d)| panic!("{f}: {}", d.message))
}

fn examples() -> Vec<(String, Program)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/fcl");
    let mut out: Vec<(String, Program)> = std::fs::read_dir(dir)
        .expect("examples/fcl")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "fcl"))
        .map(|p| {
            let src = std::fs::read_to_string(&p).unwrap();
            let name = p.display().to_string();
            let prog = load(&name, &src);
            (name, prog)
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

fn cfg(machine: &str, schedule: Schedule) -> Config {
    Config {
        machine: machine.parse().unwrap(),
        schedule,
        ..Config::default()
    }
}

#[test]
fn examples_agree_on_every_shape_and_schedule() {
    let examples = examples();
    assert!(examples.len() >= 6, "found {}", examples.len());
    for (name, p) in &examples {
        let base = run(&p.main, &Config::default());
        let value = base
            .result
            .as_ref()
            .unwrap_or_else(|e| panic!("{name}: {e:?}"));
        assert!(!base.stdout.is_empty(), "{name} printed nothing");
        assert!(
            has_type(value, &p.ty),
            "{name}: result {value} is not a {}",
            p.ty
        );
        // the lowered program is well typed, at main's type
        assert_eq!(type_of(&p.main).as_ref(), Ok(&p.ty), "{name}");
        for machine in ["1x1", "4x32", "16x256", "3x5"] {
            for s in [
                Schedule::InOrder,
                Schedule::RoundRobin,
                Schedule::Random(11),
            ] {
                let out = run(&p.main, &cfg(machine, s));
                assert_eq!(
                    out.observable(),
                    base.observable(),
                    "{name} on {machine} {s}"
                );
                assert_eq!(
                    out.stats.work, base.stats.work,
                    "{name}: work on {machine} {s}"
                );
            }
        }
        assert!(check_schedules(&p.main, &cfg("4x32", Schedule::InOrder), 3).is_empty());
    }
}

#[test]
fn example_outputs_match_their_expected_files() {
    let mut checked = 0;
    for (name, p) in examples() {
        let expected = std::path::Path::new(&name).with_extension("expected");
        let Ok(want) = std::fs::read_to_string(&expected) else {
            continue;
        };
        for machine in ["2x4", "1x1", "16x256"] {
            let out = run(&p.main, &cfg(machine, Schedule::InOrder));
            assert_eq!(out.stdout, want, "{name} on {machine}");
        }
        checked += 1;
    }
    assert!(checked >= 6, "only {checked} examples have .expected files");
}

/// The thesis's reverse (§5.2.1), distributed over blocks of 256, on 2^16 elements.
const REVERSE_2_16: &str = "
sig rev : forall 'a. ['a] -> ['a]
fun rev arr = let n = lengthPull arr in generate n (fn i => index arr (n - i - 1))
sig revBlock : forall 'a. ['a] -> Program <block> ['a]<block>
fun revBlock arr = return<block> (push<block> (rev arr))
sig chunks : forall 'a. int -> ['a] -> [['a]]
fun chunks n arr = generate (lengthPull arr / n) (fn i => generate n (fn j => index arr ((i * n) + j)))
val main = do<grid>
  { r <- concat<block> 256 (rev (mapPull revBlock (chunks 256 (generate 65536 (fn i => i)))))
  ; a <- forceAndPrint 3 r
  ; return<grid> ()
  }
";

#[test]
fn reverse_2_16_cost_falls_with_the_machine_and_work_stays() {
    let p = load("rev16.fcl", REVERSE_2_16);
    let outs: Vec<_> = ["1x1", "4x32", "16x256"]
        .iter()
        .map(|m| run(&p.main, &cfg(m, Schedule::InOrder)))
        .collect();
    for o in &outs {
        assert!(o.result.is_ok(), "{:?}", o.result);
        assert_eq!(o.stdout, "[65535,65534,65533]\n");
        assert_eq!(o.stats.work, outs[0].stats.work);
    }
    let cost: Vec<u64> = outs.iter().map(|o| o.stats.cost).collect();
    assert!(cost[0] > cost[1] && cost[1] > cost[2], "{cost:?}");
}
