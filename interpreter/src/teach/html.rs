//! `tailfcl step --format html`: one self-contained page (inline script and style, no network)
//! holding a whole trace: the configuration with the redex marked, the rule linked to its
//! statement, costs so far, the store (TAIL) or the machine (FCL), navigation, a cost plot and
//! the rule histogram. The data is [`super::encode`]'s; the page's script is `page.js`.

use super::encode::Encoder;
use super::{rules, Summary, TeachStep};
use serde_json::json;
use std::io::{self, Write};

const STYLE: &str = include_str!("page.css");
const SCRIPT: &str = include_str!("page.js");
/// The page's skeleton; the script fills it in.
const BODY: &str = include_str!("page.html");

/// What the page says about the run besides its steps.
#[derive(Clone, Debug, Default)]
pub struct PageInfo {
    /// `tail` or `fcl`.
    pub lang: &'static str,
    /// The page title (the file name).
    pub title: String,
    /// FCL: the machine, blocks × threads.
    pub machine: Option<(u32, u32)>,
    /// FCL: the schedule.
    pub schedule: Option<String>,
}

/// Collects steps and writes the page.
pub struct HtmlTrace {
    info: PageInfo,
    enc: Encoder,
}

impl HtmlTrace {
    pub fn new(info: PageInfo) -> HtmlTrace {
        HtmlTrace {
            info,
            enc: Encoder::default(),
        }
    }

    /// Replaces the page's header (known once the program is loaded).
    pub fn set_info(&mut self, info: PageInfo) {
        self.info = info;
    }

    /// Adds one step.
    pub fn push(&mut self, step: &TeachStep) {
        self.enc.push(step);
    }

    /// Writes the page.
    pub fn finish(self, summary: &Summary, out: &mut dyn Write) -> io::Result<()> {
        let table = if self.info.lang == "tail" {
            rules::TAIL
        } else {
            rules::FCL
        };
        let rules: Vec<_> = table.iter().map(|(n, s)| json!([n, s])).collect();
        let meta = json!({
            "lang": self.info.lang,
            "title": self.info.title,
            "machine": self.info.machine.map(|(b, t)| json!([b, t])),
            "schedule": self.info.schedule,
            "rules": rules,
        });
        let data = self.enc.finish(meta, summary).to_string();
        // `</` would end the script element early; `<\/` is the same JSON string
        let data = data.replace("</", "<\\/");
        let title = escape(&self.info.title);
        write!(
            out,
            "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
             <meta name=\"viewport\" content=\"width=device-width\">\
             <title>{title} — tailfcl stepper</title><style>{STYLE}</style></head>\n<body>\n{BODY}\n\
             <script id=\"trace-data\" type=\"application/json\">{data}</script>\n\
             <script>{SCRIPT}</script>\n</body></html>\n"
        )
    }
}

/// Escapes text for HTML.
pub fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
