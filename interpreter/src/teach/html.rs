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
        let data = pack(&self.enc.finish(meta, summary).to_string())?;
        let title = escape(&self.info.title);
        write!(
            out,
            "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
             <meta name=\"viewport\" content=\"width=device-width\">\
             <title>{title} — tailfcl stepper</title><style>{STYLE}</style></head>\n<body>\n{BODY}\n\
             <script id=\"trace-data\" type=\"application/octet-stream\" \
             data-encoding=\"gzip+base64\">{data}</script>\n\
             <script>{SCRIPT}</script>\n</body></html>\n"
        )
    }
}

/// The page's data as gzip in base64: JSON of a long trace repeats itself (locations, rule
/// names, diffs of one shape), so it shrinks about tenfold; browsers inflate it with their
/// built-in `DecompressionStream`. Base64 never contains `</`, so it cannot end the element.
fn pack(json: &str) -> io::Result<String> {
    use base64::Engine;
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(json.as_bytes())?;
    Ok(base64::engine::general_purpose::STANDARD.encode(gz.finish()?))
}

/// The data of a page [`HtmlTrace::finish`] wrote, as JSON (for tests and tools).
pub fn unpack(html: &str) -> Option<serde_json::Value> {
    use base64::Engine;
    use std::io::Read;
    let start = html.find("data-encoding=\"gzip+base64\">")?;
    let rest = &html[start..];
    let open = rest.find('>')? + 1;
    let close = rest.find("</script>")?;
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(rest[open..close].trim())
        .ok()?;
    let mut text = String::new();
    flate2::read::GzDecoder::new(&bytes[..])
        .read_to_string(&mut text)
        .ok()?;
    serde_json::from_str(&text).ok()
}

/// Escapes text for HTML.
pub fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
