//! The teaching page's data, stored compactly: consecutive configurations differ by the few
//! characters a step changed, so each is kept as a diff against the one before (common prefix
//! and suffix lengths plus the new middle), with a full copy every [`KEYFRAME`] steps (or sooner
//! when the diffs since the last copy outgrow it), so that jumping to any step replays at most
//! that many diffs. Strings that repeat (rules, locations, results, effects) go into one table
//! and are referred to by index. Offsets are in UTF-16 code units, as JavaScript counts them.

use super::{Summary, TeachStep};
use serde_json::{json, Value};
use std::collections::HashMap;

/// At most this many diffs are replayed to show a step.
pub const KEYFRAME: usize = 64;

/// Consecutive texts as keyframes and diffs.
#[derive(Default)]
pub struct TextDiffs {
    prev: String,
    entries: Vec<Value>,
    since_key: usize,
    diff_units: usize,
}

fn utf16_len(s: &str) -> usize {
    s.chars().map(char::len_utf16).sum()
}

impl TextDiffs {
    /// Appends the next text.
    pub fn push(&mut self, text: &str) {
        let len = utf16_len(text);
        if self.entries.is_empty() || self.since_key + 1 >= KEYFRAME || self.diff_units > len {
            self.entries.push(Value::String(text.to_string()));
            self.since_key = 0;
            self.diff_units = 0;
        } else {
            let (a, b) = (self.prev.as_bytes(), text.as_bytes());
            let mut p = a.iter().zip(b).take_while(|(x, y)| x == y).count();
            while !text.is_char_boundary(p) {
                p -= 1;
            }
            let room = a.len().min(b.len()) - p;
            let mut s = a
                .iter()
                .rev()
                .zip(b.iter().rev())
                .take(room)
                .take_while(|(x, y)| x == y)
                .count();
            while !text.is_char_boundary(b.len() - s) {
                s -= 1;
            }
            let mid = &text[p..b.len() - s];
            self.entries.push(json!([
                utf16_len(&text[..p]),
                utf16_len(&text[b.len() - s..]),
                mid
            ]));
            self.since_key += 1;
            self.diff_units += utf16_len(mid) + 8;
        }
        self.prev = text.to_string();
    }

    fn into_json(self) -> Value {
        Value::Array(self.entries)
    }
}

/// Interned strings.
#[derive(Default)]
struct Strings {
    list: Vec<String>,
    index: HashMap<String, usize>,
}

impl Strings {
    fn id(&mut self, s: &str) -> usize {
        if let Some(&i) = self.index.get(s) {
            return i;
        }
        self.list.push(s.to_string());
        self.index.insert(s.to_string(), self.list.len() - 1);
        self.list.len() - 1
    }
}

/// Builds the page's data one step at a time.
#[derive(Default)]
pub struct Encoder {
    strings: Strings,
    cost_names: Vec<String>,
    rule: Vec<usize>,
    costs: Vec<Vec<u64>>,
    loc: Vec<Value>,
    result: Vec<usize>,
    effects: Vec<Value>,
    term: TextDiffs,
    spans: Vec<Value>,
    store: TextDiffs,
    fired: Vec<Value>,
    groups: Vec<usize>,
    prev_groups: Vec<semantics::fcl::step::view::Group>,
}

/// How many cells of a part the machine view lists.
const CELLS_SHOWN: usize = 16;

impl Encoder {
    /// Adds one step.
    pub fn push(&mut self, s: &TeachStep) {
        let r = &s.record;
        if self.cost_names.is_empty() {
            self.cost_names = r.costs.iter().map(|(k, _)| k.to_string()).collect();
            self.costs = vec![Vec::new(); self.cost_names.len()];
        }
        self.rule.push(self.strings.id(&r.rule));
        for (col, (_, v)) in self.costs.iter_mut().zip(&r.costs) {
            col.push(*v);
        }
        self.loc.push(match &r.location {
            Some(l) => self.strings.id(l).into(),
            None => Value::Null,
        });
        self.result.push(self.strings.id(&r.result));
        let effects: Vec<usize> = r.effects.iter().map(|e| self.strings.id(e)).collect();
        self.effects.push(json!(effects));
        self.term.push(&s.before);
        let spans: Vec<usize> = s
            .redexes
            .iter()
            .flat_map(|&(a, b)| [utf16_len(&s.before[..a]), utf16_len(&s.before[..b])])
            .collect();
        self.spans.push(json!(spans));
        let store: Vec<String> = s.store.iter().map(|(l, a)| format!("{l} = {a}")).collect();
        self.store.push(&store.join("\n"));
        let fired: Vec<usize> = s.fired.iter().map(|l| self.strings.id(l)).collect();
        self.fired.push(json!(fired));
        let groups = self.groups_text(&s.groups);
        self.groups.push(self.strings.id(&groups));
        self.prev_groups = s.groups.clone();
    }

    /// The groups in progress as JSON text: per group its location, level, parts (cells written,
    /// clipped, or null) with the parts finished by this step marked, and the running parts.
    fn groups_text(&self, groups: &[semantics::fcl::step::view::Group]) -> String {
        let list: Vec<Value> = groups
            .iter()
            .map(|g| {
                let before = self.prev_groups.iter().find(|p| p.loc == g.loc);
                let fresh: Vec<usize> = (0..g.parts.len())
                    .filter(|&k| {
                        g.parts[k].is_some()
                            && before.is_none_or(|b| b.parts.get(k).is_none_or(|p| p.is_none()))
                    })
                    .collect();
                let parts: Vec<Value> = g
                    .parts
                    .iter()
                    .map(|p| match p {
                        Some(cells) => {
                            let mut c: Vec<&str> =
                                cells.iter().take(CELLS_SHOWN).map(String::as_str).collect();
                            if cells.len() > CELLS_SHOWN {
                                c.push("…");
                            }
                            json!(c)
                        }
                        None => Value::Null,
                    })
                    .collect();
                json!({"loc": g.loc, "level": g.level, "parts": parts, "fresh": fresh, "running": g.running})
            })
            .collect();
        Value::Array(list).to_string()
    }

    /// The page's data: `meta` (language, title, machine, rules table) with the steps.
    pub fn finish(self, meta: Value, summary: &Summary) -> Value {
        let costs: serde_json::Map<String, Value> = self
            .cost_names
            .into_iter()
            .zip(self.costs)
            .map(|(k, v)| (k, json!(v)))
            .collect();
        json!({
            "meta": meta,
            "strings": self.strings.list,
            "steps": {
                "count": self.rule.len(),
                "rule": self.rule,
                "costs": costs,
                "loc": self.loc,
                "result": self.result,
                "effects": self.effects,
                "term": self.term.into_json(),
                "spans": self.spans,
                "store": self.store.into_json(),
                "fired": self.fired,
                "groups": self.groups,
            },
            "last": summary.last,
            "outcome": summary.outcome,
            "output": summary.output,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Replays entries as the page's script does.
    fn replay(entries: &[Value], n: usize) -> String {
        let mut k = n;
        while !entries[k].is_string() {
            k -= 1;
        }
        let mut text: Vec<u16> = entries[k].as_str().unwrap().encode_utf16().collect();
        for e in &entries[k + 1..=n] {
            let (p, s) = (
                e[0].as_u64().unwrap() as usize,
                e[1].as_u64().unwrap() as usize,
            );
            let mid: Vec<u16> = e[2].as_str().unwrap().encode_utf16().collect();
            let tail = text[text.len() - s..].to_vec();
            text.truncate(p);
            text.extend(mid);
            text.extend(tail);
        }
        String::from_utf16(&text).unwrap()
    }

    #[test]
    fn diffs_replay_to_every_text_and_stay_small() {
        let texts: Vec<String> = (0..300)
            .map(|i| {
                let (head, tail) = ("let y = l0 in\n".repeat(20), "⟩ end\n".repeat(20));
                format!("{head}let x = l{i} in addi(x,⟨{}{tail}", i * 7 % 13)
            })
            .collect();
        let mut d = TextDiffs::default();
        for t in &texts {
            d.push(t);
        }
        let entries = d.entries.clone();
        for (n, t) in texts.iter().enumerate() {
            assert_eq!(&replay(&entries, n), t, "step {n}");
        }
        // at most KEYFRAME − 1 diffs to replay for any step
        let mut gap = 0;
        for e in &entries {
            gap = if e.is_string() { 0 } else { gap + 1 };
            assert!(gap < KEYFRAME);
        }
        // long texts with small changes: far smaller than the texts themselves
        let raw: usize = texts.iter().map(String::len).sum();
        let coded = Value::Array(entries).to_string().len();
        assert!(coded * 4 < raw, "{coded} bytes for {raw}");
        let short: Vec<String> = (0..50).map(|i| format!("l{i}")).collect();
        let mut d = TextDiffs::default();
        for t in &short {
            d.push(t);
        }
        for (n, t) in short.iter().enumerate() {
            assert_eq!(&replay(&d.entries, n), t, "short step {n}");
        }
    }
}
