//! `tailfcl cost-check` end to end on a small run (two programs at four sizes each, on the
//! first OpenCL device): the CSV's columns and one row per program and size, the SVG with one
//! mark per row, the two summary lines. The figures themselves are not checked (they are
//! measurements; docs/cost-model.md reports them).

mod support;
use support::tailfcl;

#[test]
fn a_small_cost_check_writes_the_report_the_plot_and_the_summary() {
    if tailfcl(&["devices"]).0 == 5 {
        println!("skipped: no OpenCL platform");
        return;
    }
    let dir = std::env::temp_dir().join(format!("tailfcl-cost-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (csv, svg) = (dir.join("cost.csv"), dir.join("cost.svg"));
    let (code, out, err) = tailfcl(&[
        "cost-check",
        "examples/fcl/bench/copy.fcl",
        "examples/fcl/bench/reverse.fcl",
        "--sizes",
        "1/8,1/4,1/2,1",
        "--runs",
        "1",
        "--report",
        csv.to_str().unwrap(),
        "--plot",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let rank = out
        .lines()
        .find_map(|l| l.strip_prefix("rank correlation: "))
        .unwrap_or_else(|| panic!("no rank correlation line in {out}"));
    let r: f64 = rank.parse().expect("a number");
    assert!((-1.0..=1.0).contains(&r), "{r}");
    let within = out
        .lines()
        .find_map(|l| l.strip_prefix("within 2x (leave one program out): "))
        .unwrap_or_else(|| panic!("no within-2x line in {out}"));
    let (k, n) = within.split_once('/').expect("K/N");
    let (k, n): (usize, usize) = (k.parse().unwrap(), n.parse().unwrap());
    assert_eq!(n, 8, "{out}");
    assert!(k <= n);

    let mut reader = csv::Reader::from_path(&csv).unwrap();
    let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(
        header,
        conformance::cost::report::COLUMNS.map(String::from),
        "CSV columns"
    );
    let rows: Vec<csv::StringRecord> = reader.records().map(|r| r.unwrap()).collect();
    let keys: Vec<(String, String)> = rows
        .iter()
        .map(|r| (r[0].to_string(), r[1].to_string()))
        .collect();
    let expected: Vec<(String, String)> = ["bench/copy", "bench/reverse"]
        .iter()
        .flat_map(|p| [512, 1024, 2048, 4096].map(|s| (p.to_string(), format!("size={s}"))))
        .collect();
    assert_eq!(keys, expected, "one row per program and size");
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    for r in &rows {
        // the oracle counts one run of the benchmark's body: copy and reverse launch one kernel
        // and write each element once to global memory, reading each input element once
        assert_eq!(&r[col("launches")], "1", "launches in {r:?}");
        let size: f64 = r[1].trim_start_matches("size=").parse().unwrap();
        for c in ["global_writes", "global_reads"] {
            assert_eq!(r[col(c)].parse::<f64>().unwrap(), size, "{c} in {r:?}");
        }
        assert!(r[col("measured_ms")].parse::<f64>().unwrap() > 0.0, "{r:?}");
        assert!(r[col("predicted_ms")].parse::<f64>().is_ok(), "{r:?}");
    }

    let plot = std::fs::read_to_string(&svg).unwrap();
    assert!(plot.starts_with("<svg") && plot.trim_end().ends_with("</svg>"));
    assert_eq!(
        plot.matches("<circle").count(),
        rows.len(),
        "a mark per row"
    );
    for p in ["bench/copy", "bench/reverse"] {
        assert!(plot.contains(p), "the plot labels {p}");
    }
    std::fs::remove_dir_all(&dir).ok();
}
