//! Source positions. Every AST node of both languages carries a [`Span`].

/// A half-open byte range `[start, end)` into one source text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

impl Span {
    /// The span from byte `start` to byte `end`.
    pub fn new(start: usize, end: usize) -> Span {
        Span {
            start: start as u32,
            end: end as u32,
        }
    }

    /// A span that covers both `self` and `other`.
    pub fn to(self, other: Span) -> Span {
        Span {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }

    /// The span used for terms that do not come from source text (generated programs, the prelude
    /// after rewriting). It compares equal to every other dummy span only.
    pub const DUMMY: Span = Span { start: 0, end: 0 };
}

/// 1-based line and column (in characters) of byte offset `pos` in `src`.
pub fn line_col(src: &str, pos: usize) -> (usize, usize) {
    let pos = pos.min(src.len());
    let pos = (0..=pos)
        .rev()
        .find(|p| src.is_char_boundary(*p))
        .unwrap_or(0);
    let before = &src[..pos];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let col = src[line_start..pos].chars().count() + 1;
    (line, col)
}
