//! A reader from TAIL text (spec §1–§2) straight to [`Surface`] terms, so that the oracle can run
//! program files. It checks syntax only (no types): annotations are kept as text, with their
//! element type. The front end's parser and type checker are the reference for diagnostics; this
//! reader exists so that the oracle does not depend on them.

use super::compile::{Binder, Surface};
use crate::tail::value::{BaseType, Scalar};
use crate::{Diagnostic, Span};
use std::rc::Rc;

/// Reads one TAIL program.
pub fn read(src: &str) -> Result<Surface, Diagnostic> {
    let mut r = Reader {
        src: src.as_bytes(),
        pos: 0,
        depth: 0,
    };
    let e = r.exp()?;
    r.ws();
    if r.pos < r.src.len() {
        return Err(r.error("expected the end of the program"));
    }
    Ok(e)
}

struct Reader<'a> {
    src: &'a [u8],
    pos: usize,
    depth: usize,
}

/// Deeper nesting than this is rejected (each level takes a little stack).
const MAX_DEPTH: usize = 200_000;

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

impl<'a> Reader<'a> {
    fn error(&self, msg: impl Into<String>) -> Diagnostic {
        Diagnostic::parse(Span::new(self.pos, self.pos + 1), msg)
    }

    fn ws(&mut self) {
        while self.pos < self.src.len() && self.src[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.ws();
        self.src.get(self.pos).copied()
    }

    fn eat(&mut self, s: &str) -> bool {
        self.ws();
        if self.src[self.pos..].starts_with(s.as_bytes()) {
            let after = self.src.get(self.pos + s.len()).copied();
            let word = s.bytes().all(is_ident);
            if word && after.is_some_and(is_ident) {
                return false;
            }
            self.pos += s.len();
            true
        } else {
            false
        }
    }

    fn expect(&mut self, s: &str) -> Result<(), Diagnostic> {
        if self.eat(s) {
            Ok(())
        } else {
            Err(self.error(format!("expected `{s}`")))
        }
    }

    fn ident(&mut self) -> Result<String, Diagnostic> {
        self.ws();
        let start = self.pos;
        if !self.src.get(self.pos).copied().is_some_and(is_ident_start) {
            return Err(self.error("expected a name"));
        }
        while self.src.get(self.pos).copied().is_some_and(is_ident) {
            self.pos += 1;
        }
        Ok(String::from_utf8_lossy(&self.src[start..self.pos]).into_owned())
    }

    /// A type annotation, kept as text up to the next `=` (types contain none).
    fn annotation(&mut self) -> Result<(Option<BaseType>, Rc<str>), Diagnostic> {
        self.ws();
        let start = self.pos;
        while self.pos < self.src.len() && self.src[self.pos] != b'=' {
            self.pos += 1;
        }
        let text = String::from_utf8_lossy(&self.src[start..self.pos])
            .trim()
            .to_string();
        if text.is_empty() {
            return Err(self.error("expected a type"));
        }
        let elem = if text.starts_with('(') && text.contains('*') {
            None
        } else {
            [
                ("int", BaseType::Int),
                ("double", BaseType::Double),
                ("bool", BaseType::Bool),
                ("char", BaseType::Char),
                ("complex", BaseType::Complex),
            ]
            .into_iter()
            .filter_map(|(w, t)| text.find(w).map(|i| (i, t)))
            .min_by_key(|(i, _)| *i)
            .map(|(_, t)| t)
        };
        Ok((elem, text.into()))
    }

    fn list(&mut self, close: &str) -> Result<Vec<Surface>, Diagnostic> {
        let mut xs = Vec::new();
        if self.eat(close) {
            return Ok(xs);
        }
        loop {
            xs.push(self.exp()?);
            if self.eat(close) {
                return Ok(xs);
            }
            self.expect(",")?;
        }
    }

    fn exp(&mut self) -> Result<Surface, Diagnostic> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.error("expression nested too deeply"));
        }
        let r = self.exp_inner();
        self.depth -= 1;
        r
    }

    fn exp_inner(&mut self) -> Result<Surface, Diagnostic> {
        self.ws();
        let start = self.pos;
        let span = |r: &Self| Span::new(start, r.pos);
        if self.eat("let") {
            let name = self.ident()?;
            self.expect(":")?;
            let (elem, ann) = self.annotation()?;
            self.expect("=")?;
            let rhs = self.exp()?;
            self.expect("in")?;
            let body = self.exp()?;
            let b = Binder {
                name,
                elem,
                ann: Some(ann),
            };
            return Ok(Surface::Let(b, Box::new(rhs), Box::new(body), span(self)));
        }
        if self.eat("fn") {
            let name = self.ident()?;
            self.expect(":")?;
            let (elem, ann) = self.annotation()?;
            self.expect("=>")?;
            let body = self.exp()?;
            let b = Binder {
                name,
                elem,
                ann: Some(ann),
            };
            return Ok(Surface::Lam(b, Box::new(body), span(self)));
        }
        if self.eat("if") {
            let c = self.exp()?;
            self.expect("then")?;
            let a = self.exp()?;
            self.expect("else")?;
            let b = self.exp()?;
            return Ok(Surface::If(
                Box::new(c),
                Box::new(a),
                Box::new(b),
                span(self),
            ));
        }
        if self.eat("Prj") {
            self.expect("(")?;
            self.ws();
            let at = self.pos;
            let Some(Scalar::Int(i)) = self.number()? else {
                self.pos = at;
                return Err(self.error("expected a component number"));
            };
            self.expect(",")?;
            let e = self.exp()?;
            self.expect(")")?;
            return Ok(Surface::Prj(i.max(0) as usize, Box::new(e), span(self)));
        }
        if self.eat("tt") {
            return Ok(Surface::Lit(Scalar::Bool(true), span(self)));
        }
        if self.eat("ff") {
            return Ok(Surface::Lit(Scalar::Bool(false), span(self)));
        }
        match self.peek() {
            Some(b'[') => {
                self.pos += 1;
                let xs = self.list("]")?;
                if xs.is_empty() {
                    return Ok(Surface::Op("zilde".into(), vec![], span(self)));
                }
                Ok(Surface::Vector(xs, span(self)))
            }
            Some(b'(') => {
                self.pos += 1;
                let mut xs = self.list(")")?;
                if xs.len() == 1 {
                    return Ok(xs.pop().expect("one element"));
                }
                Ok(Surface::Tuple(xs, span(self)))
            }
            Some(b'\'') => Ok(Surface::Lit(self.char_lit()?, span(self))),
            Some(c) if c.is_ascii_digit() || c == b'-' || c == b'~' => match self.number()? {
                Some(x) => Ok(Surface::Lit(x, span(self))),
                None => Err(self.error("expected a number")),
            },
            Some(c) if is_ident_start(c) => {
                if self.src[self.pos..].starts_with(b"inf")
                    && !self.src.get(self.pos + 3).copied().is_some_and(is_ident)
                {
                    if let Some(x) = self.number()? {
                        return Ok(Surface::Lit(x, span(self)));
                    }
                }
                let name = self.ident()?;
                // Typed output's instance lists `op{[int],[0]}(…)` carry nothing we need.
                if self.peek() == Some(b'{') {
                    while self.pos < self.src.len() && self.src[self.pos] != b'}' {
                        self.pos += 1;
                    }
                    self.expect("}")?;
                }
                if self.eat("(") {
                    let args = self.list(")")?;
                    return Ok(Surface::Op(name, args, span(self)));
                }
                Ok(Surface::Var(name, span(self)))
            }
            _ => Err(self.error("expected an expression")),
        }
    }

    /// An int, double or complex literal (spec §1.3–§1.5, with `~` accepted as minus).
    fn number(&mut self) -> Result<Option<Scalar>, Diagnostic> {
        let Some((re, is_int)) = self.real()? else {
            return Ok(None);
        };
        if self.src.get(self.pos) == Some(&b'j') {
            self.pos += 1;
            let Some((im, _)) = self.real()? else {
                return Err(self.error("expected the imaginary part"));
            };
            return Ok(Some(Scalar::Complex((re, im))));
        }
        if is_int {
            if re < i32::MIN as f64 || re > i32::MAX as f64 {
                return Err(self.error("integer literal out of range"));
            }
            return Ok(Some(Scalar::Int(re as i32)));
        }
        Ok(Some(Scalar::Double(re)))
    }

    /// A real number's text; true when it is integer-shaped.
    fn real(&mut self) -> Result<Option<(f64, bool)>, Diagnostic> {
        let s = self.src;
        let mut p = self.pos;
        let neg = matches!(s.get(p), Some(b'-' | b'~'));
        if neg {
            p += 1;
        }
        if s[p..].starts_with(b"inf") {
            self.pos = p + 3;
            return Ok(Some((
                if neg {
                    f64::NEG_INFINITY
                } else {
                    f64::INFINITY
                },
                false,
            )));
        }
        let digits = |p: &mut usize| {
            let st = *p;
            while s.get(*p).is_some_and(u8::is_ascii_digit) {
                *p += 1;
            }
            *p - st
        };
        let d0 = p;
        if digits(&mut p) == 0 {
            return Ok(None);
        }
        let mut text = String::from_utf8_lossy(&s[d0..p]).into_owned();
        let mut is_int = true;
        if s.get(p) == Some(&b'.') {
            p += 1;
            let f = p;
            digits(&mut p);
            text.push('.');
            text.push_str(&String::from_utf8_lossy(&s[f..p]));
            is_int = false;
        }
        if matches!(s.get(p), Some(b'e' | b'E')) {
            let mut q = p + 1;
            let eneg = matches!(s.get(q), Some(b'-' | b'~'));
            if matches!(s.get(q), Some(b'-' | b'~' | b'+')) {
                q += 1;
            }
            let e0 = q;
            if digits(&mut q) > 0 {
                text.push('e');
                if eneg {
                    text.push('-');
                }
                text.push_str(&String::from_utf8_lossy(&s[e0..q]));
                p = q;
                is_int = false;
            }
        }
        self.pos = p;
        let v: f64 = text
            .trim_end_matches('.')
            .parse()
            .map_err(|_| self.error("bad number"))?;
        Ok(Some((if neg { -v } else { v }, is_int)))
    }

    /// A character literal (spec §1.6): one character or one SML escape between quotes.
    fn char_lit(&mut self) -> Result<Scalar, Diagnostic> {
        let s = self.src;
        let p = self.pos + 1;
        let (c, len) = match s.get(p) {
            Some(b'\\') => match s.get(p + 1) {
                Some(b'\\') => (b'\\', 2),
                Some(b'"') => (b'"', 2),
                Some(b'\'') => (b'\'', 2),
                Some(b'a') => (7, 2),
                Some(b'b') => (8, 2),
                Some(b't') => (9, 2),
                Some(b'n') => (10, 2),
                Some(b'v') => (11, 2),
                Some(b'f') => (12, 2),
                Some(b'r') => (13, 2),
                Some(b'^') => match s.get(p + 2) {
                    Some(&c) if (64..=95).contains(&c) => (c - 64, 3),
                    _ => return Err(self.error("bad control escape")),
                },
                Some(d) if d.is_ascii_digit() => {
                    let t = s.get(p + 1..p + 4).unwrap_or(&[]);
                    let n: u32 = std::str::from_utf8(t)
                        .ok()
                        .and_then(|t| t.parse().ok())
                        .unwrap_or(999);
                    if n > 255 {
                        return Err(self.error("bad character code"));
                    }
                    (n as u8, 4)
                }
                _ => return Err(self.error("bad escape")),
            },
            Some(&c) => (c, 1),
            None => return Err(self.error("unterminated character literal")),
        };
        if s.get(p + len) != Some(&b'\'') {
            return Err(self.error("expected `'` closing the character"));
        }
        self.pos = p + len + 1;
        Ok(Scalar::Char(c))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tail::step::{load, show::value_text, Machine, Stepped};

    fn eval(src: &str) -> String {
        let mut m = Machine::new(load(src).unwrap_or_else(|d| panic!("{src}: {d}")));
        loop {
            match m.step() {
                Stepped::Next(_) => {}
                Stepped::Value(v) => return value_text(&v),
                Stepped::Err(e) => return format!("err {}", e.rule),
            }
        }
    }

    #[test]
    fn literal_forms() {
        assert_eq!(eval("1e20\n"), "[](1E20.0)");
        assert_eq!(eval("1.5e-7"), "[](1.5E~7)");
        assert_eq!(eval("-inf"), "[](-HUGE_VAL)");
        assert_eq!(eval("~50"), "[](-50)");
        assert_eq!(eval("~2.5"), "[](-2.5)");
        assert_eq!(eval("3.0j-2.0"), "[](3.0j-2.0)");
        assert_eq!(eval("3j4"), "[](3.0j4.0)");
        assert_eq!(eval("'''"), "[](')");
        assert_eq!(eval("'\\n'"), "[](\\n)");
        assert_eq!(eval("'\\^A'"), "[](\\^A)");
        assert_eq!(eval("'\\127'"), "[](\\127)");
        assert_eq!(eval("-2147483648"), "[](-2147483648)");
        assert!(read("2147483648").is_err());
    }

    #[test]
    fn expression_forms() {
        assert_eq!(
            eval("let v1:<int>3 = [1,2,3] in reduce(addi,0,v1)"),
            "[](6)"
        );
        assert_eq!(
            eval("reduce{[int],[0]}(addi,0,iota{[int],[1]}(4))"),
            "[](10)"
        );
        assert_eq!(
            // acc := f(x_j)(acc): subi(acc, x_j) here, so 1−2−3−4.
            eval("reduce(fn a:[int]0 => fn b:[int]0 => subi(b,a),0,[1,2,3,4])"),
            "[](-8)"
        );
        assert_eq!(eval("Prj(1,(1,2.5))"), "[](2.5)");
        assert_eq!(eval("if ltei(2,2) then 1 else 2"), "[](1)");
        assert_eq!(eval("(7)"), "[](7)");
        assert_eq!(eval("zipWith(eqc,['a','b'],['a','c'])"), "[2](1,0)");
        assert_eq!(eval("[]"), "[0]()");
    }

    #[test]
    fn errors_point_at_the_problem() {
        let e = read("let x:[int]0 = 1 in\naddi(x,)").unwrap_err();
        assert_eq!(
            e.render("p.tail", "let x:[int]0 = 1 in\naddi(x,)")
                .lines()
                .next(),
            Some("p.tail:2:8: parse error: expected an expression")
        );
        assert!(read("'ab'").is_err());
        assert!(read("1 2").is_err());
        assert!(load("undefined_var").is_err());
        assert!(load("addi(1)").is_err());
    }

    #[test]
    fn annotations_keep_their_text_and_element_type() {
        let e = read("let v:S(int,5) = 5 in fn x:[double]1 => x").unwrap();
        let Surface::Let(b, _, body, _) = e else {
            panic!("not a let")
        };
        assert_eq!(b.ann.as_deref(), Some("S(int,5)"));
        assert_eq!(b.elem, Some(BaseType::Int));
        let Surface::Lam(b, _, _) = *body else {
            panic!("not a lambda")
        };
        assert_eq!(b.elem, Some(BaseType::Double));
    }

    #[test]
    fn arbitrary_text_never_panics() {
        // Random token soup: reading, compiling and up to 10^4 steps must not panic.
        let words = [
            "let",
            "x",
            ":",
            "[int]0",
            "=",
            "in",
            "fn",
            "=>",
            "(",
            ")",
            "[",
            "]",
            ",",
            "1",
            "-2",
            "2.5",
            "'a'",
            "tt",
            "addi",
            "reduce",
            "each",
            "iota",
            "zilde",
            "Prj",
            "if",
            "then",
            "else",
            "take",
            "transp2",
            "idxassign",
            "power",
            "~",
            "1e",
            "'",
            "\\",
        ];
        let mut seed = 12345u64;
        for _ in 0..3000 {
            let mut src = String::new();
            let n = (seed % 24) as usize;
            for _ in 0..n {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                src.push_str(words[(seed >> 33) as usize % words.len()]);
                src.push(' ');
            }
            seed = seed.wrapping_add(7);
            if let Ok(p) = load(&src) {
                let mut m = Machine::new(p);
                for _ in 0..10_000 {
                    if !matches!(m.step(), Stepped::Next(_)) {
                        break;
                    }
                }
            }
        }
    }
}
