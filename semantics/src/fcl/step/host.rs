//! The host-level operations of spec §4.4 after their force: `forceAndPrint`,
//! `forceAndPrintDouble` (exact C formats), `forceAndPrintDoubleExact` (round-trip doubles,
//! docs/fcl-extensions.md), `benchmark` (stderr), and `readIntCSV`'s tokenizer.

use super::force::{materialised, ForceFrame};
use super::rules::{self, RunError};
use super::{run, stuck, Control, Ctx, Fired, Frame, Task};
use crate::fcl::core::{Level, PrintFormat};
use crate::fcl::value::Value;
use crate::Span;
use std::rc::Rc;

impl Task {
    /// Plugs v into a host frame.
    pub(crate) fn cont_host(
        &mut self,
        frame: ForceFrame,
        v: Value,
        ctx: &mut Ctx,
    ) -> Result<Option<Fired>, RunError> {
        match frame {
            ForceFrame::Print { n, format, span } => {
                let data = materialised(&v, span)?;
                if n < 1 || n as usize > data.len() {
                    return Err(RunError::new(
                        rules::PRINT,
                        span,
                        format!("forceAndPrint {n}: count outside [1, {}]", data.len()),
                    ));
                }
                let line = print_line(&data[..n as usize], format, span)?;
                ctx.stdout.push_str(&line);
                self.control = Control::Ret(v);
                Ok(Some(
                    self.fire(rules::PRINT, 0, ctx, || format!("PRINT({n})")),
                ))
            }
            ForceFrame::Benchmark {
                n,
                p,
                runs,
                printed_before,
                start,
                span,
            } => {
                if ctx.stdout.len() > printed_before && runs <= n {
                    // the program prints: its n repetitions are observable, so they run
                    self.stack.push(Frame::Force(ForceFrame::Benchmark {
                        n,
                        p: p.clone(),
                        runs: runs + 1,
                        printed_before,
                        start,
                        span,
                    }));
                    self.control = run(p);
                    return Ok(Some(self.fire(rules::BENCHMARK, 0, ctx, || {
                        format!("benchmark run {}", runs + 1)
                    })));
                }
                let ms = start.elapsed().as_secs_f64() * 1000.0 / n.max(1) as f64;
                ctx.stderr.push_str(&format!(
                    "Benchmark ({n} repetitions): {ms:.6} ms per run\n"
                ));
                self.control = Control::Ret(Value::Program(Level::GRID, Rc::new(Value::Unit)));
                Ok(Some(self.fire(rules::BENCHMARK, 0, ctx, || {
                    format!("benchmark {n} done")
                })))
            }
            _ => Err(RunError::new(
                rules::STUCK,
                Span::DUMMY,
                "internal: not a host frame",
            )),
        }
    }
}

/// One `forceAndPrint` line (spec §4.4): `[0,1,4,9]`, doubles as C `%.5f`, or with
/// `forceAndPrintDoubleExact` as [`format_double_exact`].
fn print_line(data: &[Value], format: PrintFormat, span: Span) -> Result<String, RunError> {
    let mut line = String::from("[");
    for (i, v) in data.iter().enumerate() {
        if i > 0 {
            line.push(',');
        }
        match (v, format) {
            (Value::Int(x), PrintFormat::Int) => line.push_str(&x.to_string()),
            (Value::Double(x), PrintFormat::Fixed5) => line.push_str(&format_double(*x)),
            (Value::Double(x), PrintFormat::Exact) => line.push_str(&format_double_exact(*x)),
            _ => return Err(stuck(span, "forceAndPrint element", v)),
        }
    }
    line.push_str("]\n");
    Ok(line)
}

/// C's `%.5f`: Rust's `{:.5}` except for NaN.
pub fn format_double(x: f64) -> String {
    if x.is_nan() {
        if x.is_sign_negative() {
            "-nan".into()
        } else {
            "nan".into()
        }
    } else {
        format!("{x:.5}")
    }
}

/// `forceAndPrintDoubleExact`'s element format: Rust's `{:?}`, the shortest text that parses back
/// to the same f64 (`0.1`, `2.0`, `1e300`, `-0.0`, `NaN`, `inf`, `-inf`), so that engines can be
/// compared at a relative 1e-12 rather than at `%.5f`'s five decimals.
pub fn format_double_exact(x: f64) -> String {
    format!("{x:?}")
}

/// `readIntCSV`'s tokenizer (spec §4.4): tokens separated by spaces, commas and newlines, each
/// read with C `atoi` (a leading integer prefix, 0 when there is none).
pub fn parse_int_csv(text: &str) -> Vec<i32> {
    text.split([' ', ',', '\n', '\r', '\t'])
        .filter(|t| !t.is_empty())
        .map(atoi)
        .collect()
}

fn atoi(t: &str) -> i32 {
    let b = t.as_bytes();
    let (neg, mut i) = match b.first() {
        Some(b'-') => (true, 1),
        Some(b'+') => (false, 1),
        _ => (false, 0),
    };
    let mut acc: i64 = 0;
    while i < b.len() && b[i].is_ascii_digit() {
        acc = (acc * 10 + (b[i] - b'0') as i64) & 0xFFFF_FFFF_FFFF;
        i += 1;
    }
    let v = if neg { -acc } else { acc };
    v as i32
}
