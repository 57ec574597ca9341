//! Errors found in source text (parse and type errors), rendered as
//! `file:line:col: error: reason`, the source line, and a caret under the spot.

use crate::span::{line_col, Span};
use std::fmt;

/// What kind of static error a [`Diagnostic`] reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Parse,
    Type,
}

/// One static error: where it is and a one-line reason (for type errors, naming both types).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub phase: Phase,
    pub span: Span,
    pub message: String,
    /// The thesis rule the program breaks, where one names the error (FCL's kinding rules,
    /// e.g. `5.20`); rendered as `type error[5.20]: …`.
    pub rule: Option<&'static str>,
}

impl Diagnostic {
    pub fn parse(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            phase: Phase::Parse,
            span,
            message: message.into(),
            rule: None,
        }
    }

    pub fn type_error(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            phase: Phase::Type,
            span,
            message: message.into(),
            rule: None,
        }
    }

    /// A type error that breaks the thesis rule `rule` (e.g. a kinding rule, `5.20`).
    pub fn rule_error(span: Span, rule: &'static str, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            rule: Some(rule),
            ..Diagnostic::type_error(span, message)
        }
    }

    /// Renders the diagnostic against the text it was found in:
    ///
    /// ```text
    /// prog.tail:3:7: type error: expected [int]1, found [double]1
    ///   let v = addd(x,y) in
    ///       ^^^^
    /// ```
    pub fn render(&self, file: &str, src: &str) -> String {
        let start = (self.span.start as usize).min(src.len());
        let (line, col) = line_col(src, start);
        let line_text = src.lines().nth(line - 1).unwrap_or("");
        // Keep very long lines readable: show at most 200 characters around the caret.
        let skip = col.saturating_sub(100);
        let shown: String = line_text.chars().skip(skip).take(200).collect();
        let width = (self.span.end.saturating_sub(self.span.start) as usize)
            .clamp(1, 80)
            .min(shown.chars().count().saturating_sub(col - 1 - skip).max(1));
        let phase = match self.phase {
            Phase::Parse => "parse error",
            Phase::Type => "type error",
        };
        let kind = match self.rule {
            Some(rule) => format!("{phase}[{rule}]"),
            None => phase.to_string(),
        };
        format!(
            "{file}:{line}:{col}: {kind}: {}\n  {shown}\n  {}{}\n",
            self.message,
            " ".repeat(col - 1 - skip),
            "^".repeat(width)
        )
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.rule {
            Some(rule) => write!(f, "[{rule}] {}", self.message),
            None => write!(f, "{}", self.message),
        }
    }
}

impl std::error::Error for Diagnostic {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caret_points_at_the_span() {
        let src = "let x = 1 in\n  foo(x)\n";
        let d = Diagnostic::parse(Span::new(15, 18), "unknown operator foo");
        let out = d.render("a.tail", src);
        assert_eq!(
            out,
            "a.tail:2:3: parse error: unknown operator foo\n    foo(x)\n    ^^^\n"
        );
    }

    #[test]
    fn span_past_the_end_does_not_panic() {
        let d = Diagnostic::parse(Span::new(99, 120), "unexpected end of input");
        let out = d.render("a.tail", "abc");
        assert!(out.starts_with("a.tail:1:4:"), "{out}");
    }
}
