//! The progress bar of `fuzz` and `conform` (indicatif): count, rate and failures so far, on
//! stderr, drawn only when stderr is a terminal, so logs and CI output stay clean.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use std::io::IsTerminal;

/// A bar of `total` steps, counting `unit`s (`programs`, `runs`); hidden unless stderr is a
/// terminal.
pub fn bar(total: u64, unit: &'static str) -> ProgressBar {
    let target = if std::io::stderr().is_terminal() {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    };
    let style = ProgressStyle::with_template(
        "[{elapsed_precise}] {bar:40.cyan/blue} {pos}/{len} {rate} {msg} (eta {eta})",
    )
    .unwrap_or_else(|_| ProgressStyle::default_bar())
    .with_key(
        "rate",
        move |s: &ProgressState, w: &mut dyn std::fmt::Write| {
            let _ = write!(w, "{:.1} {unit}/s", s.per_sec());
        },
    )
    .progress_chars("#>-");
    let bar = ProgressBar::with_draw_target(Some(total), target).with_style(style);
    bar.set_message(failures(0));
    bar
}

/// The bar's message: the failures so far.
pub fn failures(n: u64) -> String {
    format!("{n} failed")
}
