//! `tailfcl step --interactive`: the teaching stepper in the terminal, for a projector without a
//! browser. The whole configuration before the step with the redex highlighted, the rule and its
//! statement, the result, costs so far and (FCL) the threads that fired. Keys: n/→ next,
//! p/← previous, g first (or `42g`: step 42), G last, r next use of this step's rule, q quit.
//! [`draw`] only reads an [`App`], so its screen is tested on ratatui's `TestBackend`.

use super::teach::{exit_of, teach_run};
use super::{Exit, Lang, StepArgs};
use crossterm::event::{self, Event, KeyCode, KeyEventKind};
use interpreter::teach::{rules, Summary, TeachStep};
use ratatui::layout::{Constraint, Layout};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};
use ratatui::Frame;

/// The stepper's state: the steps of a run and the one shown.
pub struct App {
    pub steps: Vec<TeachStep>,
    pub summary: Summary,
    pub lang: Lang,
    /// Index of the step shown.
    pub cur: usize,
    /// Digits typed before `g`.
    pub count: Option<usize>,
}

impl App {
    pub fn new(steps: Vec<TeachStep>, summary: Summary, lang: Lang) -> App {
        App {
            steps,
            summary,
            lang,
            cur: 0,
            count: None,
        }
    }

    /// Handles one key; `false` means quit.
    pub fn key(&mut self, k: char) -> bool {
        let last = self.steps.len().saturating_sub(1);
        match k {
            'q' => return false,
            'n' => self.cur = (self.cur + 1).min(last),
            'p' => self.cur = self.cur.saturating_sub(1),
            'g' => self.cur = self.count.map_or(0, |n| n.saturating_sub(1)).min(last),
            'G' => self.cur = last,
            'r' => {
                if let Some(rule) = self.steps.get(self.cur).map(|s| &s.record.rule) {
                    let next = self.steps[self.cur + 1..]
                        .iter()
                        .position(|s| &s.record.rule == rule);
                    if let Some(k) = next {
                        self.cur += k + 1;
                    }
                }
            }
            d if d.is_ascii_digit() => {
                let v = d as usize - '0' as usize;
                self.count = Some(self.count.unwrap_or(0).saturating_mul(10).saturating_add(v));
                return true;
            }
            _ => {}
        }
        self.count = None;
        true
    }

    /// Costs summed over steps 1..=cur+1.
    fn costs_so_far(&self) -> Vec<(&'static str, u64)> {
        let mut total: Vec<(&'static str, u64)> = Vec::new();
        for s in &self.steps[..=self.cur.min(self.steps.len().saturating_sub(1))] {
            for (k, v) in &s.record.costs {
                match total.iter_mut().find(|(n, _)| n == k) {
                    Some(t) => t.1 += v,
                    None => total.push((k, *v)),
                }
            }
        }
        total
    }
}

/// The configuration's lines with the byte ranges `marks` highlighted.
fn marked_lines(text: &str, marks: &[(usize, usize)]) -> Vec<Line<'static>> {
    let hl = Style::default()
        .bg(Color::Yellow)
        .fg(Color::Black)
        .add_modifier(Modifier::BOLD);
    let mut out = Vec::new();
    let mut start = 0;
    for line in text.split('\n') {
        let end = start + line.len();
        // cut points inside this line
        let mut cuts = vec![start, end];
        for &(a, b) in marks {
            for c in [a, b] {
                if c > start && c < end {
                    cuts.push(c);
                }
            }
        }
        cuts.sort_unstable();
        cuts.dedup();
        let spans: Vec<Span> = cuts
            .windows(2)
            .map(|w| {
                let piece = text[w[0]..w[1]].to_string();
                if marks.iter().any(|&(a, b)| a <= w[0] && w[1] <= b && a < b) {
                    Span::styled(piece, hl)
                } else {
                    Span::raw(piece)
                }
            })
            .collect();
        out.push(Line::from(spans));
        start = end + 1;
    }
    out
}

/// Draws the step `app.cur`.
pub fn draw(f: &mut Frame, app: &App) {
    let [head, term, foot, help] = Layout::vertical([
        Constraint::Length(3),
        Constraint::Min(3),
        Constraint::Length(4),
        Constraint::Length(1),
    ])
    .areas(f.area());
    let Some(s) = app.steps.get(app.cur) else {
        let p = Paragraph::new(format!("no steps: {}", app.summary.outcome));
        f.render_widget(p, term);
        return;
    };
    let r = &s.record;
    let number = r.rule.split(' ').next().unwrap_or_default();
    let table = match app.lang {
        Lang::Tail => rules::TAIL,
        Lang::Fcl => rules::FCL,
    };
    let costs: Vec<String> = app
        .costs_so_far()
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect();
    let at = r
        .location
        .as_deref()
        .map(|l| format!(" at {l}"))
        .unwrap_or_default();
    let header = vec![
        Line::from(vec![
            Span::styled(
                format!("step {}/{}", r.step, app.steps.len()),
                Style::default().add_modifier(Modifier::BOLD),
            ),
            Span::raw(format!("  rule {}{at}  ", r.rule)),
            Span::raw(format!("costs so far: {}", costs.join(", "))),
        ]),
        Line::from(rules::statement(table, number).unwrap_or("").to_string()),
    ];
    f.render_widget(Paragraph::new(header).wrap(Wrap { trim: false }), head);
    // keep the first redex in view
    let redex_line = s
        .redexes
        .first()
        .map(|&(a, _)| s.before[..a].matches('\n').count())
        .unwrap_or(0);
    let inner_height = term.height.saturating_sub(2) as usize;
    let scroll = redex_line.saturating_sub(inner_height / 2) as u16;
    let body = Paragraph::new(marked_lines(&s.before, &s.redexes))
        .block(Block::default().borders(Borders::ALL).title(" term "))
        .scroll((scroll, 0));
    f.render_widget(body, term);
    let mut notes = vec![Line::from(format!("==> {}", r.result))];
    if !r.effects.is_empty() {
        notes.push(Line::from(format!("store: {}", r.effects.join("; "))));
    }
    if !s.fired.is_empty() {
        notes.push(Line::from(format!("fired: {}", s.fired.join(", "))));
    }
    f.render_widget(Paragraph::new(notes).wrap(Wrap { trim: false }), foot);
    f.render_widget(
        Paragraph::new(
            "n next  p previous  g first (42g: step 42)  G last  r next use of rule  q quit",
        ),
        help,
    );
}

/// Runs the stepper on the terminal until `q`.
pub fn run(lang: Lang, a: &StepArgs) -> Result<Exit, Exit> {
    let mut steps = Vec::new();
    let (summary, _) = teach_run(lang, a, &mut |s| {
        steps.push(s);
        true
    })?;
    let status = exit_of(&summary, a.limit.is_some());
    let mut app = App::new(steps, summary, lang);
    if !std::io::IsTerminal::is_terminal(&std::io::stdout()) {
        eprintln!("error: --interactive needs a terminal (use --format html -o FILE instead)");
        return Err(Exit::Static);
    }
    let mut terminal = ratatui::try_init().map_err(|e| {
        eprintln!("error: cannot set up the terminal: {e}");
        Exit::Static
    })?;
    let result = (|| -> std::io::Result<()> {
        loop {
            terminal.draw(|f| draw(f, &app))?;
            if let Event::Key(k) = event::read()? {
                if k.kind != KeyEventKind::Press {
                    continue;
                }
                let c = match k.code {
                    KeyCode::Char(c) => c,
                    KeyCode::Right => 'n',
                    KeyCode::Left => 'p',
                    KeyCode::Home => 'g',
                    KeyCode::End => 'G',
                    KeyCode::Esc => 'q',
                    _ => continue,
                };
                if !app.key(c) {
                    return Ok(());
                }
            }
        }
    })();
    ratatui::restore();
    result.map_err(|e| {
        eprintln!("error: terminal: {e}");
        Exit::Internal
    })?;
    status
}

#[cfg(test)]
#[path = "tui_tests.rs"]
mod tests;
