//! One record per reduction step, shared by the TAIL and FCL oracles, and the three formats
//! `tailfcl step` writes them in (text for reading, JSON lines and CSV for tools).

use serde::Serialize;
use std::io::{self, Write};

/// What one step did: the rule that fired (by its thesis number, e.g. `3.32 addi`, `5.81 force-push`),
/// its costs, where it ran, the redex, what it became, and its effects on the store.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StepRecord {
    /// 1-based step number.
    pub step: u64,
    /// Rule number and short name, as in the thesis (`3.56 alloc`).
    pub rule: String,
    /// Named costs in a fixed order per language: TAIL `work`, `span`; FCL `cost`, `work`.
    pub costs: Vec<(&'static str, u64)>,
    /// FCL: the location the step ran at (`Thread(0)`, `Group[...]`); TAIL: none.
    pub location: Option<String>,
    /// The redex, printed.
    pub redex: String,
    /// What the redex became, printed (`err: reason` for an error step).
    pub result: String,
    /// Store effects (`alloc l3 = [3](1,2,3)`, `update l3[1] := 7`), in order.
    pub effects: Vec<String>,
}

/// The output format of `tailfcl step`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TraceFormat {
    Text,
    Json,
    Csv,
}

impl std::str::FromStr for TraceFormat {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "text" => Ok(TraceFormat::Text),
            "json" => Ok(TraceFormat::Json),
            "csv" => Ok(TraceFormat::Csv),
            _ => Err(format!(
                "unknown format `{s}` (expected text, json, csv or html)"
            )),
        }
    }
}

/// Writes step records in one format; CSV gets its header before the first record.
pub struct TraceWriter<W: Write> {
    sink: Sink<W>,
    wrote_header: bool,
}

enum Sink<W: Write> {
    Text(W),
    Json(W),
    Csv(Box<csv::Writer<W>>),
}

impl<W: Write> TraceWriter<W> {
    pub fn new(format: TraceFormat, out: W) -> TraceWriter<W> {
        let sink = match format {
            TraceFormat::Text => Sink::Text(out),
            TraceFormat::Json => Sink::Json(out),
            TraceFormat::Csv => Sink::Csv(Box::new(csv::Writer::from_writer(out))),
        };
        TraceWriter {
            sink,
            wrote_header: false,
        }
    }

    /// Writes one record.
    pub fn write(&mut self, r: &StepRecord) -> io::Result<()> {
        match &mut self.sink {
            Sink::Text(out) => {
                let costs: Vec<String> = r.costs.iter().map(|(k, v)| format!("{k}={v}")).collect();
                let loc = r
                    .location
                    .as_deref()
                    .map(|l| format!(" @ {l}"))
                    .unwrap_or_default();
                writeln!(
                    out,
                    "{:>6}  {}  [{}]{}\n        {}\n    ==> {}",
                    r.step,
                    r.rule,
                    costs.join(" "),
                    loc,
                    r.redex,
                    r.result
                )?;
                for e in &r.effects {
                    writeln!(out, "        store: {e}")?;
                }
                Ok(())
            }
            Sink::Json(out) => {
                let mut obj = serde_json::Map::new();
                obj.insert("step".into(), r.step.into());
                obj.insert("rule".into(), r.rule.clone().into());
                for (k, v) in &r.costs {
                    obj.insert((*k).into(), (*v).into());
                }
                if let Some(l) = &r.location {
                    obj.insert("location".into(), l.clone().into());
                }
                obj.insert("redex".into(), r.redex.clone().into());
                obj.insert("result".into(), r.result.clone().into());
                obj.insert("effects".into(), r.effects.clone().into());
                writeln!(out, "{}", serde_json::Value::Object(obj))
            }
            Sink::Csv(w) => {
                if !self.wrote_header {
                    let mut header = vec!["step".to_string(), "rule".to_string()];
                    header.extend(r.costs.iter().map(|(k, _)| k.to_string()));
                    header.extend(["location", "redex", "result", "effects"].map(String::from));
                    w.write_record(&header)?;
                    self.wrote_header = true;
                }
                let mut row = vec![r.step.to_string(), r.rule.clone()];
                row.extend(r.costs.iter().map(|(_, v)| v.to_string()));
                row.push(r.location.clone().unwrap_or_default());
                row.push(r.redex.clone());
                row.push(r.result.clone());
                row.push(r.effects.join("; "));
                w.write_record(&row).map_err(io::Error::other)
            }
        }
    }

    /// Flushes the underlying sink.
    pub fn finish(self) -> io::Result<()> {
        match self.sink {
            Sink::Text(mut out) | Sink::Json(mut out) => out.flush(),
            Sink::Csv(mut w) => w.flush(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record() -> StepRecord {
        StepRecord {
            step: 3,
            rule: "3.32 addi".into(),
            costs: vec![("work", 1), ("span", 1)],
            location: None,
            redex: "addi(1,2)".into(),
            result: "3".into(),
            effects: vec!["alloc l0 = [2](1,2)".into()],
        }
    }

    #[test]
    fn json_lines_parse() {
        let mut buf = Vec::new();
        let mut w = TraceWriter::new(TraceFormat::Json, &mut buf);
        w.write(&record()).unwrap();
        w.finish().unwrap();
        let v: serde_json::Value = serde_json::from_slice(&buf).unwrap();
        assert_eq!(v["rule"], "3.32 addi");
        assert_eq!(v["work"], 1);
    }

    #[test]
    fn csv_has_header_and_quotes_commas() {
        let mut buf = Vec::new();
        let mut w = TraceWriter::new(TraceFormat::Csv, &mut buf);
        w.write(&record()).unwrap();
        w.write(&record()).unwrap();
        w.finish().unwrap();
        let text = String::from_utf8(buf).unwrap();
        let mut rd = csv::Reader::from_reader(text.as_bytes());
        assert_eq!(
            rd.headers().unwrap().iter().collect::<Vec<_>>(),
            ["step", "rule", "work", "span", "location", "redex", "result", "effects"]
        );
        let rows: Vec<_> = rd.records().map(|r| r.unwrap()).collect();
        assert_eq!(rows.len(), 2);
        assert_eq!(&rows[0][5], "addi(1,2)");
    }
}
