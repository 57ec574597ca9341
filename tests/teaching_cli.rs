//! The teaching gallery (examples/teaching/) builds: `tailfcl step --format html` writes one
//! self-contained page per program whose data agrees, step by step, with the JSON trace of the
//! same program: the rules, the costs, and (where the trace prints the redex as the page's term
//! does) the highlighted redex. The browser side is tests/browser/stepper_test.py.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn tailfcl() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tailfcl"))
}

fn gallery() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/teaching");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| matches!(p.extension().and_then(|e| e.to_str()), Some("tail" | "fcl")))
        .collect();
    files.sort();
    files
}

/// The page's embedded data.
fn page_data(html: &str) -> Value {
    interpreter::teach::html::unpack(html).expect("the page holds its data")
}

/// Text `i` of a keyframe/diff column, replayed as the page's script does (UTF-16 offsets).
fn text_at(entries: &[Value], i: usize) -> Vec<u16> {
    let mut k = i;
    while !entries[k].is_string() {
        k -= 1;
    }
    let mut t: Vec<u16> = entries[k].as_str().unwrap().encode_utf16().collect();
    for e in &entries[k + 1..=i] {
        let p = e[0].as_u64().unwrap() as usize;
        let s = e[1].as_u64().unwrap() as usize;
        let tail = t[t.len() - s..].to_vec();
        t.truncate(p);
        t.extend(e[2].as_str().unwrap().encode_utf16());
        t.extend(tail);
    }
    t
}

fn squeeze(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Rules whose trace prints the redex exactly as the page's term shows it.
fn redex_printed_alike(rule: &str) -> bool {
    let name = rule.split(' ').nth(1).unwrap_or("");
    !matches!(
        name,
        "let" | "beta" | "alloc" | "reshape0" | "reduce" | "each" | "power"
    ) && !rule.starts_with("5.")
        && !rule.starts_with("host")
}

#[test]
fn gallery_pages_build_and_agree_with_the_json_trace() {
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("teaching");
    std::fs::create_dir_all(&out).unwrap();
    let files = gallery();
    assert_eq!(files.len(), 5, "the five teaching programs");
    for file in files {
        let stem = file.file_stem().unwrap().to_string_lossy().into_owned();
        let page = out.join(format!("{stem}.html"));
        let st = tailfcl()
            .args(["step", "--format", "html", "-o"])
            .arg(&page)
            .arg(&file)
            .status()
            .unwrap();
        assert!(st.success(), "{stem}: {st}");
        let json = tailfcl()
            .args(["step", "--format", "json"])
            .arg(&file)
            .output()
            .unwrap();
        assert!(json.status.success(), "{stem}");
        let trace: Vec<Value> = String::from_utf8(json.stdout)
            .unwrap()
            .lines()
            .filter(|l| l.starts_with('{'))
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let html = std::fs::read_to_string(&page).unwrap();
        for external in ["<script src", "<link", "src=\"http", "href=\"http", "url("] {
            assert!(
                !html.contains(external),
                "{stem}: the page refers to {external}"
            );
        }
        let d = page_data(&html);
        let steps = &d["steps"];
        let strings: Vec<&str> = d["strings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap())
            .collect();
        assert_eq!(
            steps["count"].as_u64().unwrap() as usize,
            trace.len(),
            "{stem}"
        );
        assert!(
            d["outcome"].as_str().unwrap().starts_with("value"),
            "{stem}"
        );
        let terms = steps["term"].as_array().unwrap();
        let mut compared = 0;
        for (i, rec) in trace.iter().enumerate() {
            let rule = strings[steps["rule"][i].as_u64().unwrap() as usize];
            assert_eq!(rule, rec["rule"], "{stem} step {}", i + 1);
            for (name, col) in steps["costs"].as_object().unwrap() {
                assert_eq!(col[i], rec[name], "{stem} step {} {name}", i + 1);
            }
            let term = text_at(terms, i);
            let spans = steps["spans"][i].as_array().unwrap();
            assert!(!spans.is_empty(), "{stem} step {}: no redex marked", i + 1);
            let (a, b) = (
                spans[0].as_u64().unwrap() as usize,
                spans[1].as_u64().unwrap() as usize,
            );
            assert!(a < b && b <= term.len(), "{stem} step {}", i + 1);
            let marked = String::from_utf16(&term[a..b]).unwrap();
            let redex = rec["redex"].as_str().unwrap();
            if redex_printed_alike(rule) && !redex.contains('…') {
                assert_eq!(squeeze(&marked), redex, "{stem} step {}", i + 1);
                compared += 1;
            }
        }
        if stem.ends_with("sum") || stem == "reduce" {
            assert!(compared > 0, "{stem}: no redex compared");
        }
    }
}

#[test]
fn dash_o_writes_what_stdout_would_get() {
    let file = gallery().into_iter().next().unwrap();
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("step-o.csv");
    let st = tailfcl()
        .args(["step", "--format", "csv", "-o"])
        .arg(&path)
        .arg(&file)
        .output()
        .unwrap();
    assert!(st.status.success());
    let direct = tailfcl()
        .args(["step", "--format", "csv"])
        .arg(&file)
        .output()
        .unwrap();
    let written = std::fs::read(&path).unwrap();
    assert!(!written.is_empty());
    assert!(direct.stdout.starts_with(&written));
}

#[test]
fn a_run_that_errs_shows_its_err_step_and_exits_3() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/oracle_errors_iota.tail");
    let page = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("errs.html");
    let html_run = tailfcl()
        .args(["step", "--format", "html", "-o"])
        .arg(&page)
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(html_run.status.code(), Some(3));
    let json = tailfcl()
        .args(["step", "--format", "json"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(json.status.code(), Some(3));
    let last: Value = serde_json::from_str(
        String::from_utf8(json.stdout)
            .unwrap()
            .lines()
            .last()
            .unwrap(),
    )
    .unwrap();
    let d = page_data(&std::fs::read_to_string(&page).unwrap());
    let n = d["steps"]["count"].as_u64().unwrap();
    assert_eq!(n, last["step"].as_u64().unwrap());
    let strings = d["strings"].as_array().unwrap();
    let rule = &strings[d["steps"]["rule"][n as usize - 1].as_u64().unwrap() as usize];
    assert_eq!(rule, &last["rule"]);
    assert!(d["outcome"].as_str().unwrap().starts_with("err: 3.35"));
}
