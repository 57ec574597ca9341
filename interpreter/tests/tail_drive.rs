//! The TAIL run and trace drivers: results, output order, limits, and trace formats that parse.

use interpreter::tail::{run, trace, Outcome, RunOptions};
use interpreter::{TraceFormat, TraceWriter};
use semantics::tail::step::compile::{compile_rc, Surface};
use semantics::tail::value::Scalar;
use semantics::Span;

const S: Span = Span::DUMMY;

fn int(i: i32) -> Surface {
    Surface::Lit(Scalar::Int(i), S)
}
fn op(name: &str, args: Vec<Surface>) -> Surface {
    Surface::Op(name.into(), args, S)
}

/// `i2d(reduce(addi, 0, prArrI(iota(prSclI(4)))))`
fn program() -> Surface {
    op(
        "i2d",
        vec![op(
            "reduce",
            vec![
                Surface::OpRef("addi".into(), S),
                int(0),
                op("prArrI", vec![op("iota", vec![op("prSclI", vec![int(4)])])]),
            ],
        )],
    )
}

#[test]
fn run_prints_output_then_gives_the_result() {
    let mut out = Vec::new();
    let (outcome, stats) = run(
        compile_rc(&program()).unwrap(),
        RunOptions::default(),
        &mut out,
    )
    .unwrap();
    assert_eq!(String::from_utf8(out).unwrap(), "[](4)\n[4](1,2,3,4)\n");
    match outcome {
        Outcome::Value(v) => assert_eq!(v, "[](10.0)"),
        other => panic!("{other:?}"),
    }
    assert!(stats.steps > 5 && stats.work >= stats.steps / 2);
    assert!(stats.span > 0 && stats.span <= stats.work);
}

#[test]
fn max_steps_stops_with_a_limit() {
    let mut out = Vec::new();
    let (outcome, stats) = run(
        compile_rc(&program()).unwrap(),
        RunOptions { max_steps: 3 },
        &mut out,
    )
    .unwrap();
    assert!(matches!(outcome, Outcome::Limit));
    assert_eq!(stats.steps, 3);
}

#[test]
fn errors_carry_their_rule() {
    let mut out = Vec::new();
    let e = op("iota", vec![int(-2)]);
    let (outcome, _) = run(compile_rc(&e).unwrap(), RunOptions::default(), &mut out).unwrap();
    match outcome {
        Outcome::Err(e) => {
            assert_eq!(e.rule.to_string(), "3.35 iota");
            assert!(e.reason.contains("negative"), "{}", e.reason);
        }
        other => panic!("{other:?}"),
    }
}

fn traced(format: TraceFormat, from: u64, limit: Option<u64>) -> (String, u64) {
    let mut buf = Vec::new();
    let mut w = TraceWriter::new(format, &mut buf);
    let (_, stats, output) = trace(
        compile_rc(&program()).unwrap(),
        RunOptions::default(),
        from,
        limit,
        |r| w.write(r),
    )
    .unwrap();
    w.finish().unwrap();
    assert_eq!(output, "[](4)\n[4](1,2,3,4)\n");
    (String::from_utf8(buf).unwrap(), stats.steps)
}

#[test]
fn json_trace_lines_parse_and_cover_every_step() {
    let (text, steps) = traced(TraceFormat::Json, 1, None);
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len() as u64, steps);
    assert_eq!(lines[0]["rule"], "3.56 alloc");
    // Left to right: reduce's neutral element 0 is the first literal stored.
    assert_eq!(lines[0]["effects"][0], "alloc l0 = [](0)");
    let rules: Vec<&str> = lines.iter().map(|l| l["rule"].as_str().unwrap()).collect();
    assert!(rules.contains(&"3.34 iota"));
    assert!(rules.contains(&"3.73 prSclI"));
    assert!(rules.contains(&"3.55 beta"));
    let work: u64 = lines.iter().map(|l| l["work"].as_u64().unwrap()).sum();
    assert!(work > 0);
}

#[test]
fn csv_trace_parses_and_honours_from_and_limit() {
    let (text, _) = traced(TraceFormat::Csv, 3, Some(4));
    let mut rd = csv::Reader::from_reader(text.as_bytes());
    let rows: Vec<csv::StringRecord> = rd.records().map(|r| r.unwrap()).collect();
    assert_eq!(rows.len(), 4);
    assert_eq!(&rows[0][0], "3");
    assert_eq!(&rows[3][0], "6");
}

#[test]
fn an_err_step_is_the_last_record() {
    let mut recs = Vec::new();
    let e = op("addi", vec![int(1), op("iota", vec![int(-1)])]);
    let (outcome, stats, _) = trace(
        compile_rc(&e).unwrap(),
        RunOptions::default(),
        1,
        None,
        |r| {
            recs.push(r.clone());
            Ok(())
        },
    )
    .unwrap();
    assert!(matches!(outcome, Outcome::Err(_)));
    assert_eq!(recs.len() as u64, stats.steps + 1);
    let last = recs.last().unwrap();
    assert_eq!(last.rule, "3.35 iota");
    assert!(last.result.starts_with("err: "), "{}", last.result);
    assert_eq!(last.redex, "iota(l1)");
}

#[test]
fn run_source_gives_what_the_cli_prints() {
    let r = interpreter::tail::run_source(
        "let v1:[int]0 = prSclI(reduce(addi,0,iota(4))) in i2d(v1)\n",
        RunOptions::default(),
    )
    .unwrap();
    assert_eq!(r.stdout, "[](10)\n[](10.0)\n");
    assert!(matches!(r.outcome, Outcome::Value(_)));
    assert!(interpreter::tail::run_source("addi(1,", RunOptions::default()).is_err());
}
