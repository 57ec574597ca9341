//! Chapter-5-style programs (core terms from `interpreter::fcl::examples`) on several machine shapes
//! and schedules: identical results everywhere, work independent of the shape, cost falling as the
//! machine grows.

use interpreter::fcl::examples::{reduction, reverse, transpose};
use interpreter::fcl::{check_schedules, run, Config, Failure};
use semantics::fcl::machine::{Machine, Schedule};

fn cfg(machine: &str, schedule: Schedule) -> Config {
    Config {
        machine: machine.parse().unwrap(),
        schedule,
        ..Config::default()
    }
}

fn expected_reverse(n: i32) -> String {
    let v: Vec<String> = (0..n).rev().map(|i| i.to_string()).collect();
    format!("[{}]\n", v.join(","))
}

#[test]
fn example_core_programs_are_well_typed() {
    use semantics::fcl::core::{Level, Type};
    use semantics::fcl::core_type::type_of;
    let printed = Type::program(Level::GRID, Type::pull(Type::Int));
    for p in [
        reverse(64, 8, Some(4)),
        transpose(4, 8, None),
        reduction(64, 8, true),
    ] {
        assert_eq!(type_of(&p), Ok(printed.clone()));
    }
}

#[test]
fn reverse_prints_the_reversed_array() {
    let out = run(&reverse(16, 4, Some(16)), &Config::default());
    assert!(out.result.is_ok(), "{:?}", out.result);
    assert_eq!(out.stdout, expected_reverse(16));
}

#[test]
fn transpose_scatters_rows_to_columns() {
    let out = run(&transpose(3, 4, Some(12)), &Config::default());
    assert!(out.result.is_ok(), "{:?}", out.result);
    // [[0,1,2,3],[4,5,6,7],[8,9,10,11]] transposed, row-major
    assert_eq!(out.stdout, "[0,4,8,1,5,9,2,6,10,3,7,11]\n");
}

#[test]
fn reduction_sums() {
    let out = run(&reduction(64, 8, true), &Config::default());
    assert!(out.result.is_ok(), "{:?}", out.result);
    assert_eq!(out.stdout, format!("[{}]\n", 63 * 64 / 2));
}

#[test]
fn results_agree_across_shapes_and_schedules_and_work_does_not_depend_on_shape() {
    let shapes = ["1x1", "2x4", "4x32", "3x5"];
    let schedules = [Schedule::InOrder, Schedule::RoundRobin, Schedule::Random(7)];
    for prog in [
        reverse(64, 8, Some(64)),
        transpose(8, 16, Some(128)),
        reduction(256, 16, true),
    ] {
        let base = run(&prog, &Config::default());
        assert!(base.result.is_ok(), "{:?}", base.result);
        for shape in shapes {
            for s in schedules {
                let out = run(&prog, &cfg(shape, s));
                assert_eq!(out.observable(), base.observable(), "{shape} {s}");
                assert_eq!(out.stats.work, base.stats.work, "work on {shape} {s}");
            }
        }
        assert!(check_schedules(&prog, &Config::default(), 5).is_empty());
    }
}

#[test]
fn reverse_cost_falls_as_the_machine_grows() {
    let prog = reverse(1 << 16, 256, None);
    let costs: Vec<u64> = ["1x1", "4x32", "16x256"]
        .iter()
        .map(|m| {
            let out = run(&prog, &cfg(m, Schedule::InOrder));
            assert!(out.result.is_ok(), "{m}: {:?}", out.result);
            out.stats.cost
        })
        .collect();
    assert!(costs[0] > costs[1] && costs[1] > costs[2], "{costs:?}");
}

#[test]
fn peak_memory_counts_live_cells() {
    // the input (64 cells) and the reversed output (64) are live together at the end; the
    // destination index array (64) is freed by then
    let out = run(&reverse(64, 8, Some(64)), &Config::default());
    assert!(
        out.stats.peak >= 128 && out.stats.peak <= out.stats.allocated,
        "{:?}",
        out.stats
    );
}

#[test]
fn step_limit_stops_the_run() {
    let out = run(
        &reverse(64, 8, Some(64)),
        &Config {
            max_steps: 10,
            ..Config::default()
        },
    );
    assert_eq!(out.result.unwrap_err(), Failure::StepLimit(10));
}

#[test]
fn machine_shapes_parse() {
    assert_eq!("16x256".parse::<Machine>().unwrap().threads, 256);
    assert!("0x4".parse::<Machine>().is_err());
    assert!("4".parse::<Machine>().is_err());
}
