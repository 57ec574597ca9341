//! The FCL lexer (docs/fcl.md §1): identifiers, reserved words, literals (with glued negative
//! literals), operators, `--` line comments and nesting `(* … *)` block comments.

use crate::{Diagnostic, Span};

/// One token kind.
#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    Ident(String),
    /// `'a` (the name without the quote).
    TyVar(String),
    Int(i64),
    Double(f64),
    Str(String),
    /// A reserved word (§1.2).
    Kw(&'static str),
    /// An operator or punctuation token (§1.5).
    Sym(&'static str),
}

/// A token and where it is.
#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    pub tok: Tok,
    pub span: Span,
}

const KEYWORDS: [&str; 17] = [
    "sig", "fun", "val", "let", "in", "int", "double", "bool", "char", "fn", "true", "false",
    "kernel", "if", "then", "else", "do",
];

// Longest first, so that `|>` wins over `|` and `<-` over `<`.
const SYMBOLS: [&str; 27] = [
    "|>", "==", "!=", "<<", ">>", "<-", "=>", "->", "&", "+", "-", "*", "/", "%", "=", ":", ";",
    ",", ".", "(", ")", "[", "]", "{", "}", "<", ">",
];

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'#'
}

fn is_ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'#' || c == b'\''
}

/// Splits `src` into tokens, or reports the first lexical error.
pub fn lex(src: &str) -> Result<Vec<Token>, Diagnostic> {
    let b = src.as_bytes();
    let mut i = 0;
    let mut out = Vec::new();
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if b[i..].starts_with(b"--") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i..].starts_with(b"(*") {
            i = skip_block_comment(b, i)?;
        } else if c.is_ascii_digit() || (c == b'-' && b.get(i + 1).is_some_and(u8::is_ascii_digit))
        {
            let (tok, end) = lex_number(src, i)?;
            out.push(Token {
                tok,
                span: Span::new(i, end),
            });
            i = end;
        } else if is_ident_start(c) {
            let start = i;
            while i < b.len() && is_ident_char(b[i]) {
                i += 1;
            }
            let word = &src[start..i];
            let tok = match KEYWORDS.iter().find(|k| **k == word) {
                Some(k) => Tok::Kw(k),
                None => Tok::Ident(word.to_string()),
            };
            out.push(Token {
                tok,
                span: Span::new(start, i),
            });
        } else if c == b'\'' {
            let start = i;
            i += 1;
            if i >= b.len() || !is_ident_start(b[i]) {
                return Err(Diagnostic::parse(
                    Span::new(start, i),
                    "a type variable needs a name after `'`",
                ));
            }
            while i < b.len() && is_ident_char(b[i]) {
                i += 1;
            }
            out.push(Token {
                tok: Tok::TyVar(src[start + 1..i].to_string()),
                span: Span::new(start, i),
            });
        } else if c == b'"' {
            let (s, end) = lex_string(src, i)?;
            out.push(Token {
                tok: Tok::Str(s),
                span: Span::new(i, end),
            });
            i = end;
        } else if let Some(sym) = SYMBOLS.iter().find(|s| b[i..].starts_with(s.as_bytes())) {
            out.push(Token {
                tok: Tok::Sym(sym),
                span: Span::new(i, i + sym.len()),
            });
            i += sym.len();
        } else {
            let ch = src[i..].chars().next().unwrap_or('?');
            return Err(Diagnostic::parse(
                Span::new(i, i + ch.len_utf8()),
                format!("unexpected character `{ch}`"),
            ));
        }
    }
    Ok(out)
}

/// Skips a nesting block comment starting at `start` (which holds `(*`); returns the end.
fn skip_block_comment(b: &[u8], start: usize) -> Result<usize, Diagnostic> {
    let mut depth = 0usize;
    let mut i = start;
    while i < b.len() {
        if b[i..].starts_with(b"(*") {
            depth += 1;
            i += 2;
        } else if b[i..].starts_with(b"*)") {
            depth -= 1;
            i += 2;
            if depth == 0 {
                return Ok(i);
            }
        } else {
            i += 1;
        }
    }
    Err(Diagnostic::parse(
        Span::new(start, start + 2),
        "unterminated block comment",
    ))
}

/// Lexes an int or double literal (optionally with a glued `-`) starting at `start`.
fn lex_number(src: &str, start: usize) -> Result<(Tok, usize), Diagnostic> {
    let b = src.as_bytes();
    let neg = b[start] == b'-';
    let mut i = if neg { start + 1 } else { start };
    let err = |end: usize, msg: &str| Diagnostic::parse(Span::new(start, end), msg.to_string());
    // Hexadecimal and octal integers.
    if b[i] == b'0' && matches!(b.get(i + 1), Some(b'x' | b'X' | b'o' | b'O')) {
        let radix = if matches!(b[i + 1], b'x' | b'X') {
            16
        } else {
            8
        };
        let digits_start = i + 2;
        i = digits_start;
        while i < b.len() && (b[i] as char).is_digit(radix) {
            i += 1;
        }
        if i > digits_start {
            let v = i64::from_str_radix(&src[digits_start..i], radix)
                .map_err(|_| err(i, "integer literal out of range"))?;
            return Ok((Tok::Int(if neg { -v } else { v }), i));
        }
        // `0x` without digits is `0` followed by an identifier.
        i = digits_start - 1;
        return Ok((Tok::Int(0), i));
    }
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    let mut is_double = false;
    if i + 1 < b.len() && b[i] == b'.' && b[i + 1].is_ascii_digit() {
        is_double = true;
        i += 1;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        let mut j = i + 1;
        if j < b.len() && (b[j] == b'+' || b[j] == b'-') {
            j += 1;
        }
        if j < b.len() && b[j].is_ascii_digit() {
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
            is_double = true;
            i = j;
        }
    }
    let text = &src[start..i];
    if is_double {
        let v: f64 = text.parse().map_err(|_| err(i, "bad double literal"))?;
        if !v.is_finite() {
            return Err(err(i, "double literal out of range"));
        }
        Ok((Tok::Double(v), i))
    } else {
        let v: i64 = text
            .parse()
            .map_err(|_| err(i, "integer literal out of range"))?;
        Ok((Tok::Int(v), i))
    }
}

/// Lexes a string literal with Haskell-style escapes starting at `start` (which holds `"`).
fn lex_string(src: &str, start: usize) -> Result<(String, usize), Diagnostic> {
    let mut out = String::new();
    let mut chars = src[start + 1..].char_indices();
    while let Some((off, c)) = chars.next() {
        let here = start + 1 + off;
        match c {
            '"' => return Ok((out, here + 1)),
            '\n' => break,
            '\\' => match chars.next() {
                Some((_, 'n')) => out.push('\n'),
                Some((_, 't')) => out.push('\t'),
                Some((_, 'r')) => out.push('\r'),
                Some((_, '\\')) => out.push('\\'),
                Some((_, '"')) => out.push('"'),
                Some((_, '\'')) => out.push('\''),
                Some((_, '&')) => {}
                Some((_, d)) if d.is_ascii_digit() => {
                    let mut code = d.to_digit(10).unwrap_or(0);
                    let mut rest = chars.clone();
                    while let Some((_, d2)) = rest.next() {
                        match d2.to_digit(10) {
                            Some(v) if code < 0x11_0000 => {
                                code = code * 10 + v;
                                chars = rest.clone();
                            }
                            _ => break,
                        }
                    }
                    match char::from_u32(code) {
                        Some(ch) => out.push(ch),
                        None => {
                            return Err(Diagnostic::parse(
                                Span::new(here, here + 1),
                                "bad character code in string escape",
                            ))
                        }
                    }
                }
                _ => {
                    return Err(Diagnostic::parse(
                        Span::new(here, here + 1),
                        "unknown escape in string literal",
                    ))
                }
            },
            c => out.push(c),
        }
    }
    Err(Diagnostic::parse(
        Span::new(start, start + 1),
        "unterminated string literal",
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<Tok> {
        lex(s).unwrap().into_iter().map(|t| t.tok).collect()
    }

    #[test]
    fn minus_rules() {
        assert_eq!(toks("x-1"), vec![Tok::Ident("x".into()), Tok::Int(-1)]);
        assert_eq!(
            toks("x - 1"),
            vec![Tok::Ident("x".into()), Tok::Sym("-"), Tok::Int(1)]
        );
        assert_eq!(toks("n--1"), vec![Tok::Ident("n".into())]);
        assert_eq!(
            toks("-0x10 0o17 007"),
            vec![Tok::Int(-16), Tok::Int(15), Tok::Int(7)]
        );
    }

    #[test]
    fn doubles_and_comments() {
        assert_eq!(
            toks("1e3 1.5e-3 (* a (* b *) c *) 2"),
            vec![Tok::Double(1000.0), Tok::Double(0.0015), Tok::Int(2)]
        );
        assert!(lex("(* open").is_err());
        assert!(lex("1e999").is_err());
    }

    #[test]
    fn identifiers_and_tyvars() {
        assert_eq!(
            toks("x' #BlockSize 'a fn"),
            vec![
                Tok::Ident("x'".into()),
                Tok::Ident("#BlockSize".into()),
                Tok::TyVar("a".into()),
                Tok::Kw("fn")
            ]
        );
    }
}
