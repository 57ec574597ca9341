//! Meanings of the file, formatting and miscellaneous operators (spec §5.12–§5.13, §7):
//! `readFile`, `readIntVecFile`, `readDoubleVecFile`, `formatI`, `formatD`, `roll`, `nowi`.

use super::scalar::Res;
use crate::tail::print_value::double_text;
use crate::tail::value::{Array, Buf, Elems};

/// The text of a char vector (a file name).
pub fn string_of(a: &Array) -> Res<String> {
    match &a.elems {
        Elems::Char(b) => Ok(b.as_slice().iter().map(|&c| c as char).collect()),
        _ => Err("expected a char vector".into()),
    }
}

/// A char vector holding `bytes`.
pub fn char_vec(bytes: Vec<u8>) -> Array {
    Array {
        shape: vec![bytes.len()],
        elems: Elems::Char(Buf::from_vec(bytes)),
    }
}

fn read(name: &str) -> Res<Vec<u8>> {
    std::fs::read(name).map_err(|e| format!("cannot read file {name}: {e}"))
}

/// `readFile(name)`: the file's bytes as a char vector, relative to the working directory.
pub fn read_file(name: &str) -> Res<Array> {
    Ok(char_vec(read(name)?))
}

/// Splits at whitespace and commas, skipping empty tokens (spec §7).
fn tokens(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| c.is_ascii_whitespace() || c == ',' || c == '\u{b}')
        .filter(|t| !t.is_empty())
}

/// Splits an optional sign (`~`, `-`, `+`) off a token; true means negative.
fn sign(t: &str) -> (bool, &str) {
    if let Some(r) = t.strip_prefix('~').or_else(|| t.strip_prefix('-')) {
        (true, r)
    } else {
        (false, t.strip_prefix('+').unwrap_or(t))
    }
}

/// SML `Int32.fromString`: sign, digits, trailing junk ignored; no digits or overflow is an error.
fn parse_int(t: &str) -> Res<i32> {
    let (neg, rest) = sign(t);
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    if digits.is_empty() {
        return Err(format!("readIntVecFile: `{t}` is not an integer"));
    }
    let text = if neg { format!("-{digits}") } else { digits };
    text.parse::<i32>()
        .map_err(|_| format!("readIntVecFile: `{t}` does not fit an int"))
}

/// SML `Real.fromString`: sign, digits with optional fraction (`1.`, `.5`), optional exponent;
/// trailing junk ignored; `inf`/`nan` are errors.
fn parse_double(t: &str) -> Res<f64> {
    let (neg, rest) = sign(t);
    let b = rest.as_bytes();
    let mut k = 0;
    let int_digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
    k += int_digits;
    let mut frac_digits = 0;
    if k < b.len() && b[k] == b'.' {
        frac_digits = b[k + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
        if int_digits + frac_digits > 0 {
            k += 1 + frac_digits;
        }
    }
    if int_digits + frac_digits == 0 {
        return Err(format!("readDoubleVecFile: `{t}` is not a number"));
    }
    let mantissa = &rest[..k];
    let mut exp = String::new();
    if k < b.len() && (b[k] == b'e' || b[k] == b'E') {
        let (eneg, erest) = sign(&rest[k + 1..]);
        let ed: String = erest.chars().take_while(|c| c.is_ascii_digit()).collect();
        if !ed.is_empty() {
            exp = format!("e{}{ed}", if eneg { "-" } else { "" });
        }
    }
    let text = format!(
        "{}{}{}",
        if neg { "-" } else { "" },
        mantissa.trim_end_matches('.'),
        exp
    );
    let text = if text.starts_with('.') || text.starts_with("-.") {
        text.replacen('.', "0.", 1)
    } else {
        text
    };
    text.parse::<f64>()
        .map_err(|_| format!("readDoubleVecFile: `{t}` is not a number"))
}

/// `readIntVecFile(name)`.
pub fn read_int_vec_file(name: &str) -> Res<Array> {
    let text = String::from_utf8_lossy(&read(name)?).into_owned();
    let v = tokens(&text).map(parse_int).collect::<Res<Vec<i32>>>()?;
    Ok(Array::int_vec(v))
}

/// `readDoubleVecFile(name)`.
pub fn read_double_vec_file(name: &str) -> Res<Array> {
    let text = String::from_utf8_lossy(&read(name)?).into_owned();
    let v = tokens(&text).map(parse_double).collect::<Res<Vec<f64>>>()?;
    Ok(Array {
        shape: vec![v.len()],
        elems: Elems::Double(Buf::from_vec(v)),
    })
}

/// `formatI(i)`: the integer's decimal text as a char vector.
pub fn format_i(i: i32) -> Array {
    char_vec(i.to_string().into_bytes())
}

/// `formatD(d)`: the double's value text (spec §6.1) as a char vector.
pub fn format_d(d: f64) -> Array {
    char_vec(double_text(d).into_bytes())
}

/// `formatX(z)`: `re` `j` `im` in value text.
pub fn format_x(re: f64, im: f64) -> Array {
    char_vec(format!("{}j{}", double_text(re), double_text(im)).into_bytes())
}

/// A small deterministic generator for `roll` (apltail seeds from the clock; results are only
/// ever checked for properties, so a fixed seed makes runs reproducible).
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Default for Rng {
    fn default() -> Self {
        Rng(0x9E37_79B9_7F4A_7C15)
    }
}

impl Rng {
    fn next_f64(&mut self) -> f64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let x = self.0.wrapping_mul(0x2545_F491_4F6C_DD1D);
        (x >> 11) as f64 / (1u64 << 53) as f64
    }

    /// `roll(n)`: a uniform double in [0,1) for n = 0, a uniform integer in [0,n) (as a double)
    /// for n > 0; n < 0 is an error.
    pub fn roll(&mut self, n: i32) -> Res<f64> {
        match n {
            0 => Ok(self.next_f64()),
            n if n > 0 => Ok((self.next_f64() * n as f64).floor()),
            n => Err(format!("roll of negative number {n}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tail::print_value::array_text;

    #[test]
    fn number_files_parse_like_sml() {
        let dir = std::env::temp_dir().join(format!("tailfcl-io-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let ints = dir.join("i.txt");
        std::fs::write(&ints, "1, 2,3\n -4 ~6 12abc").unwrap();
        let a = read_int_vec_file(ints.to_str().unwrap()).unwrap();
        assert_eq!(array_text(&a), "[6](1,2,3,-4,-6,12)");
        let ds = dir.join("d.txt");
        std::fs::write(&ds, "1.5, 2e3,3\n-4.25 ~5.0 .5 1.5x").unwrap();
        let d = read_double_vec_file(ds.to_str().unwrap()).unwrap();
        assert_eq!(array_text(&d), "[7](1.5,2000.0,3.0,-4.25,-5.0,0.5,1.5)");
        std::fs::write(&ds, "inf").unwrap();
        assert!(read_double_vec_file(ds.to_str().unwrap()).is_err());
        std::fs::write(&ints, "x").unwrap();
        assert!(read_int_vec_file(ints.to_str().unwrap()).is_err());
        std::fs::write(&ints, "ab\nc").unwrap();
        assert_eq!(
            array_text(&read_file(ints.to_str().unwrap()).unwrap()),
            "[4](a,b,\\n,c)"
        );
        assert!(read_file(dir.join("missing").to_str().unwrap()).is_err());
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn formats_and_roll() {
        assert_eq!(string_of(&format_i(-42)).unwrap(), "-42");
        assert_eq!(array_text(&format_d(2.5)), "[3](2,.,5)");
        let mut r = Rng::default();
        for _ in 0..100 {
            let x = r.roll(6).unwrap();
            assert!((0.0..6.0).contains(&x) && x.fract() == 0.0);
            assert!((0.0..1.0).contains(&r.roll(0).unwrap()));
        }
        assert!(r.roll(-1).is_err());
    }
}
