//! The TAIL lexer (spec §1): punctuation, identifiers, and every literal spelling apltail and
//! older tools produce (`~` signs, `inf`, complex `3.0j-2.0`, SML character escapes).

use crate::{Diagnostic, Span};

/// One token.
#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    LParen,
    RParen,
    LBrack,
    RBrack,
    LBrace,
    RBrace,
    Comma,
    Colon,
    Eq,
    FatArrow,
    Arrow,
    Lt,
    Gt,
    Star,
    Plus,
    /// Identifier, keyword or operator name.
    Ident(String),
    /// Integer literal (range-checked by the parser, which knows the position).
    Int(i64),
    Double(f64),
    Complex(f64, f64),
    Char(u8),
    /// `'a3`: a type variable (letter and number).
    TyVar(char, u32),
    Eof,
}

impl Tok {
    /// How the token is named in "expected X, found Y" messages.
    pub fn describe(&self) -> String {
        match self {
            Tok::Ident(s) => format!("`{s}`"),
            Tok::Int(n) => format!("integer {n}"),
            Tok::Double(_) => "a double literal".into(),
            Tok::Complex(..) => "a complex literal".into(),
            Tok::Char(_) => "a character literal".into(),
            Tok::TyVar(c, n) => format!("type variable '{c}{n}"),
            Tok::Eof => "the end of the input".into(),
            t => format!("`{}`", punct_text(t)),
        }
    }
}

fn punct_text(t: &Tok) -> &'static str {
    match t {
        Tok::LParen => "(",
        Tok::RParen => ")",
        Tok::LBrack => "[",
        Tok::RBrack => "]",
        Tok::LBrace => "{",
        Tok::RBrace => "}",
        Tok::Comma => ",",
        Tok::Colon => ":",
        Tok::Eq => "=",
        Tok::FatArrow => "=>",
        Tok::Arrow => "->",
        Tok::Lt => "<",
        Tok::Gt => ">",
        Tok::Star => "*",
        Tok::Plus => "+",
        _ => "?",
    }
}

/// A token with its span.
#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    pub tok: Tok,
    pub span: Span,
}

/// Splits `src` into tokens, ending with [`Tok::Eof`].
pub fn lex(src: &str) -> Result<Vec<Token>, Diagnostic> {
    let mut l = Lexer {
        s: src.as_bytes(),
        pos: 0,
        out: Vec::new(),
    };
    l.run()?;
    Ok(l.out)
}

struct Lexer<'a> {
    s: &'a [u8],
    pos: usize,
    out: Vec<Token>,
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

impl Lexer<'_> {
    fn at(&self, i: usize) -> Option<u8> {
        self.s.get(i).copied()
    }

    fn err(&self, start: usize, msg: impl Into<String>) -> Diagnostic {
        Diagnostic::parse(Span::new(start, (start + 1).max(self.pos)), msg)
    }

    fn run(&mut self) -> Result<(), Diagnostic> {
        while let Some(c) = self.at(self.pos) {
            let start = self.pos;
            let tok = match c {
                b' ' | b'\t' | b'\n' | b'\r' => {
                    self.pos += 1;
                    continue;
                }
                b'(' => self.punct(Tok::LParen),
                b')' => self.punct(Tok::RParen),
                b'[' => self.punct(Tok::LBrack),
                b']' => self.punct(Tok::RBrack),
                b'{' => self.punct(Tok::LBrace),
                b'}' => self.punct(Tok::RBrace),
                b',' => self.punct(Tok::Comma),
                b':' => self.punct(Tok::Colon),
                b'<' => self.punct(Tok::Lt),
                b'>' => self.punct(Tok::Gt),
                b'*' => self.punct(Tok::Star),
                b'+' => self.punct(Tok::Plus),
                b'=' if self.at(start + 1) == Some(b'>') => {
                    self.pos += 2;
                    Tok::FatArrow
                }
                b'=' => self.punct(Tok::Eq),
                b'-' if self.at(start + 1) == Some(b'>') => {
                    self.pos += 2;
                    Tok::Arrow
                }
                b'-' | b'~' | b'0'..=b'9' => self.number()?,
                b'\'' => self.quote()?,
                c if c.is_ascii_alphabetic() || c == b'_' => {
                    if self.starts_inf(start) {
                        self.number()?
                    } else {
                        while self.at(self.pos).is_some_and(is_ident) {
                            self.pos += 1;
                        }
                        let text = std::str::from_utf8(&self.s[start..self.pos]).unwrap_or("?");
                        Tok::Ident(text.to_string())
                    }
                }
                _ => {
                    let ch = String::from_utf8_lossy(&self.s[start..])
                        .chars()
                        .next()
                        .unwrap_or('?');
                    return Err(self.err(start, format!("unexpected character {ch:?}")));
                }
            };
            self.out.push(Token {
                tok,
                span: Span::new(start, self.pos),
            });
        }
        self.out.push(Token {
            tok: Tok::Eof,
            span: Span::new(self.pos, self.pos),
        });
        Ok(())
    }

    fn punct(&mut self, t: Tok) -> Tok {
        self.pos += 1;
        t
    }

    /// `inf` standing alone, or as a complex part (`infj0.0`), is a number, not a name.
    fn starts_inf(&self, i: usize) -> bool {
        if !self.s[i..].starts_with(b"inf") {
            return false;
        }
        match self.at(i + 3) {
            Some(b'j') => self.number_starts(i + 4),
            Some(c) => !is_ident(c),
            None => true,
        }
    }

    fn number_starts(&self, i: usize) -> bool {
        match self.at(i) {
            Some(b'-' | b'~') => {
                self.at(i + 1).is_some_and(|c| c.is_ascii_digit())
                    || self.s[i + 1..].starts_with(b"inf")
            }
            Some(c) if c.is_ascii_digit() => true,
            _ => self.s[i..].starts_with(b"inf"),
        }
    }

    /// An integer, double or complex literal (spec §1.3–1.5, with the recommended extensions).
    fn number(&mut self) -> Result<Tok, Diagnostic> {
        let start = self.pos;
        let (re, is_int) = self.real()?;
        if self.at(self.pos) == Some(b'j') && self.number_starts(self.pos + 1) {
            self.pos += 1;
            let (im, _) = self.real()?;
            return Ok(Tok::Complex(
                re.to_f64(self, start)?,
                im.to_f64(self, start)?,
            ));
        }
        if is_int {
            let Num::Digits(neg, digits) = re else {
                return Err(self.err(start, "malformed number"));
            };
            let text = format!("{}{}", if neg { "-" } else { "" }, digits);
            return match text.parse::<i64>() {
                Ok(n) if (i64::from(i32::MIN)..=i64::from(u32::MAX)).contains(&n) => {
                    Ok(Tok::Int(n))
                }
                _ => Err(self.err(start, format!("integer literal {text} is out of range"))),
            };
        }
        Ok(Tok::Double(re.to_f64(self, start)?))
    }

    /// One real part: returns its text form and whether it looks like an integer.
    fn real(&mut self) -> Result<(Num, bool), Diagnostic> {
        let start = self.pos;
        let neg = matches!(self.at(self.pos), Some(b'-' | b'~'));
        if neg {
            self.pos += 1;
        }
        if self.s[self.pos..].starts_with(b"inf") {
            self.pos += 3;
            return Ok((Num::Inf(neg), false));
        }
        let d0 = self.pos;
        self.digits();
        if self.pos == d0 {
            return Err(self.err(start, "expected digits after the sign"));
        }
        let mut text = String::from_utf8_lossy(&self.s[d0..self.pos]).into_owned();
        let mut is_int = true;
        if self.at(self.pos) == Some(b'.') {
            is_int = false;
            self.pos += 1;
            let f0 = self.pos;
            self.digits();
            text.push('.');
            text.push_str(&String::from_utf8_lossy(&self.s[f0..self.pos]));
            if f0 == self.pos {
                text.push('0');
            }
        }
        if matches!(self.at(self.pos), Some(b'e' | b'E')) {
            let save = self.pos;
            self.pos += 1;
            let mut exp = String::from("e");
            if let Some(c @ (b'-' | b'~' | b'+')) = self.at(self.pos) {
                exp.push(if c == b'+' { '+' } else { '-' });
                self.pos += 1;
            }
            let e0 = self.pos;
            self.digits();
            if self.pos == e0 {
                self.pos = save;
            } else {
                is_int = false;
                exp.push_str(&String::from_utf8_lossy(&self.s[e0..self.pos]));
                text.push_str(&exp);
            }
        }
        if self.at(self.pos).is_some_and(|c| is_ident(c) && c != b'j') {
            return Err(self.err(start, "malformed number"));
        }
        Ok((
            if is_int {
                Num::Digits(neg, text)
            } else {
                Num::Text(neg, text)
            },
            is_int,
        ))
    }

    fn digits(&mut self) {
        while self.at(self.pos).is_some_and(|c| c.is_ascii_digit()) {
            self.pos += 1;
        }
    }

    /// A character literal `'c'` (spec §1.6) or a type variable `'a3`.
    fn quote(&mut self) -> Result<Tok, Diagnostic> {
        let start = self.pos;
        let c1 = self.at(start + 1);
        if c1.is_some_and(|c| c.is_ascii_alphabetic()) && self.at(start + 2) != Some(b'\'') {
            self.pos += 2;
            let d0 = self.pos;
            self.digits();
            let n = std::str::from_utf8(&self.s[d0..self.pos])
                .ok()
                .and_then(|t| t.parse::<u32>().ok())
                .unwrap_or(0);
            return Ok(Tok::TyVar(c1.unwrap_or(b'a') as char, n));
        }
        self.pos += 1;
        let code = match self.at(self.pos) {
            Some(b'\\') => self.escape(start)?,
            Some(c) if (32..127).contains(&c) => {
                self.pos += 1;
                c
            }
            _ => return Err(self.err(start, "expected a character after `'`")),
        };
        if self.at(self.pos) != Some(b'\'') {
            return Err(self.err(start, "expected `'` to close the character literal"));
        }
        self.pos += 1;
        Ok(Tok::Char(code))
    }

    /// An SML escape after the backslash: `\n`, `\^A`, `\127`, ...
    fn escape(&mut self, start: usize) -> Result<u8, Diagnostic> {
        self.pos += 1;
        let c = self
            .at(self.pos)
            .ok_or_else(|| self.err(start, "unfinished escape"))?;
        self.pos += 1;
        Ok(match c {
            b'\\' => b'\\',
            b'"' => b'"',
            b'\'' => b'\'',
            b'a' => 7,
            b'b' => 8,
            b't' => 9,
            b'n' => 10,
            b'v' => 11,
            b'f' => 12,
            b'r' => 13,
            b'^' => match self.at(self.pos) {
                Some(c @ 64..=95) => {
                    self.pos += 1;
                    c - 64
                }
                _ => return Err(self.err(start, "expected a character from @ to _ after \\^")),
            },
            b'0'..=b'9' => {
                let d: Vec<u8> = (0..2).filter_map(|k| self.at(self.pos + k)).collect();
                if d.len() < 2 || !d.iter().all(u8::is_ascii_digit) {
                    return Err(self.err(start, "expected three digits in \\ddd"));
                }
                self.pos += 2;
                let n = u32::from(c - b'0') * 100
                    + u32::from(d[0] - b'0') * 10
                    + u32::from(d[1] - b'0');
                u8::try_from(n).map_err(|_| self.err(start, "character code above 255"))?
            }
            _ => return Err(self.err(start, "unknown escape")),
        })
    }
}

/// A lexed real number before conversion.
enum Num {
    Digits(bool, String),
    Text(bool, String),
    Inf(bool),
}

impl Num {
    fn to_f64(&self, l: &Lexer, start: usize) -> Result<f64, Diagnostic> {
        let (neg, x) = match self {
            Num::Inf(neg) => (*neg, f64::INFINITY),
            Num::Digits(neg, t) | Num::Text(neg, t) => {
                let x: f64 = t.parse().map_err(|_| l.err(start, "malformed number"))?;
                if x.is_infinite() {
                    return Err(l.err(start, "double literal is out of range"));
                }
                (*neg, x)
            }
        };
        Ok(if neg { -x } else { x })
    }
}
