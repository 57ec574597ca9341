//! The terminal stepper's screen at a fixed size (ratatui's `TestBackend`), compared as text.

use super::*;
use interpreter::tail::RunOptions;
use ratatui::backend::TestBackend;
use ratatui::Terminal;

const PROGRAM: &str = "let v:<int>3 = iotaV(3) in i2d(reduce(addi,0,v))";

fn app() -> App {
    let prog = semantics::tail::step::load(PROGRAM).expect("the program loads");
    let (steps, summary) =
        interpreter::teach::collect_tail(prog, RunOptions::default()).expect("it runs");
    App::new(steps, summary, Lang::Tail)
}

/// The screen as lines of text, and the text of the highlighted cells.
fn screen(app: &App, w: u16, h: u16) -> (Vec<String>, String) {
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(|f| draw(f, app)).unwrap();
    let buf = t.backend().buffer().clone();
    let mut lines = Vec::new();
    let mut marked = String::new();
    for y in 0..h {
        let mut line = String::new();
        for x in 0..w {
            let cell = &buf[(x, y)];
            line.push_str(cell.symbol());
            if cell.bg == Color::Yellow {
                marked.push_str(cell.symbol());
            }
        }
        lines.push(line.trim_end().to_string());
    }
    (lines, marked)
}

#[test]
fn screen_of_a_step() {
    let mut a = app();
    for _ in 0..7 {
        assert!(a.key('n'));
    }
    let (lines, marked) = screen(&a, 72, 12);
    let got = lines.join("\n");
    assert_eq!(got, EXPECTED_STEP_8);
    assert_eq!(marked, a.steps[7].record.redex);
}

const EXPECTED_STEP_8: &str = "\
step 8/13  rule 3.32 addi  costs so far: work 6, span 3
op(l1,l2)/s ↪ l'/s,{l' ↦ ⟦op⟧(s(l1),s(l2))}: integer, boolean, character
and conversion operators
┌ term ────────────────────────────────────────────────────────────────┐
│i2d(reduce⟨row 0/1, element 1/3⟩(addi(l4,l3)))                        │
│                                                                      │
└──────────────────────────────────────────────────────────────────────┘
==> l5
store: alloc l5 = [](3)


n next  p previous  g first (42g: step 42)  G last  r next use of rule";

#[test]
fn keys_navigate() {
    let mut a = app();
    let last = a.steps.len() - 1;
    a.key('p');
    assert_eq!(a.cur, 0, "no step before the first");
    a.key('G');
    assert_eq!(a.cur, last);
    a.key('n');
    assert_eq!(a.cur, last, "no step after the last");
    for c in "12g".chars() {
        a.key(c);
    }
    assert_eq!(a.cur, 11);
    a.key('g');
    assert_eq!(a.cur, 0);
    // r: the next step with the same rule as this one (3.56 alloc)
    let rule = a.steps[0].record.rule.clone();
    a.key('r');
    let next = a
        .steps
        .iter()
        .skip(1)
        .position(|s| s.record.rule == rule)
        .unwrap()
        + 1;
    assert_eq!(a.cur, next);
    assert!(!a.key('q'));
}

#[test]
fn fcl_screen_names_the_threads_that_fired() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/teaching/reverse.fcl");
    let src = std::fs::read_to_string(path).unwrap();
    let files = vec![(path.to_string(), src)];
    let program = semantics::fcl::lower::load_program(&files).expect("the program loads");
    let cfg = interpreter::fcl::Config::default();
    let (steps, summary) = interpreter::teach::collect_fcl(&program.main, &cfg);
    assert!(summary.outcome.starts_with("value"), "{}", summary.outcome);
    let k = steps
        .iter()
        .position(|s| s.fired.len() > 1)
        .expect("a group step fires several threads");
    let mut a = App::new(steps, summary, Lang::Fcl);
    for c in format!("{}g", k + 1).chars() {
        a.key(c);
    }
    let (lines, marked) = screen(&a, 100, 30);
    let s = &a.steps[k];
    assert!(lines[0].starts_with(&format!(
        "step {}/{}  rule {} at Grid",
        k + 1,
        a.steps.len(),
        s.record.rule
    )));
    let fired = lines
        .iter()
        .find(|l| l.starts_with("fired: "))
        .expect("a fired line");
    assert_eq!(fired, &format!("fired: {}", s.fired.join(", ")));
    assert!(!marked.is_empty(), "the redexes are highlighted");
}
