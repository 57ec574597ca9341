//! Meanings of the file, formatting and miscellaneous operators (spec §5.12–§5.13, §7):
//! `readFile`, `readIntVecFile`, `readDoubleVecFile`, `formatI`, `formatD`, `roll` (its generator), `nowi`.

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

/// Milliseconds since the process started (the first call of this function, which
/// `tailfcl` makes as it starts), as an int: FCL's `nowMs`, TAIL's `nowi` in compiled code.
pub fn process_ms() -> i32 {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    let start = START.get_or_init(std::time::Instant::now);
    start.elapsed().as_millis().min(i32::MAX as u128) as i32
}

/// `roll`'s generator (spec §5.13; apltail seeds from the clock): *counter-based*, so that a
/// draw is a pure function of where and how often it happens, and compiled code computes the
/// same numbers per element, in any order. Draw number `k` of *call site* `s` (the roll
/// application's source position, its span start) is [`draw`]`(s, k)`; `k` counts the site's
/// earlier draws in evaluation order. The TAIL oracle keeps the counts ([`Rolls`]); the TAIL
/// lowering knows them where an `each` draws once per element and emits FCL's `rollAt` (the same
/// function, in OpenCL C `fcl_roll`, docs/fcl-extensions.md §8).
#[derive(Clone, Debug, Default)]
pub struct Rolls(std::collections::HashMap<u32, u64>);

impl Rolls {
    /// `roll(n)` at call site `site`: the site's next draw, a uniform double in [0,1) for n = 0,
    /// a uniform integer in [0,n) (as a double) for n > 0; n < 0 is an error (no draw).
    pub fn roll(&mut self, site: u32, n: i32) -> Res<f64> {
        if n < 0 {
            return Err(format!("roll of negative number {n}"));
        }
        let k = self.0.entry(site).or_insert(0);
        let x = roll_at(site, *k, n);
        *k += 1;
        Ok(x)
    }

    /// How many times `site` has drawn.
    pub fn count(&self, site: u32) -> u64 {
        self.0.get(&site).copied().unwrap_or(0)
    }

    /// Counts `by` draws of `site` made elsewhere (by compiled code, one per element).
    pub fn advance(&mut self, site: u32, by: u64) {
        *self.0.entry(site).or_insert(0) += by;
    }

    /// The draws of each site since `before` (an earlier state of these counts), for the
    /// sites that drew.
    pub fn since(&self, before: &Rolls) -> std::collections::HashMap<u32, u64> {
        self.0
            .iter()
            .map(|(&site, &k)| (site, k - before.count(site)))
            .filter(|&(_, d)| d > 0)
            .collect()
    }
}

/// splitmix64's golden-ratio increment.
const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// splitmix64's finalizer (Stafford's mix 13): a bijection of u64 with good avalanche.
pub fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Draw `k` of call site `site`: output `k` of the splitmix64 stream seeded with
/// `mix64(site + GOLDEN)`, its top 53 bits as a double in [0,1).
pub fn draw(site: u32, k: u64) -> f64 {
    let seed = mix64(u64::from(site).wrapping_add(GOLDEN));
    let z = mix64(seed.wrapping_add(k.wrapping_add(1).wrapping_mul(GOLDEN)));
    (z >> 11) as f64 / (1u64 << 53) as f64
}

/// `roll(n)`'s value for draw `k` of `site`: the draw for n ≤ 0, `floor(draw · n)` for n > 0
/// (the caller rejects n < 0 first; FCL's `rollAt` is total).
pub fn roll_at(site: u32, k: u64, n: i32) -> f64 {
    let x = draw(site, k);
    if n > 0 {
        (x * f64::from(n)).floor()
    } else {
        x
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
        let mut r = Rolls::default();
        for k in 0..100 {
            let x = r.roll(3, 6).unwrap();
            assert!((0.0..6.0).contains(&x) && x.fract() == 0.0);
            assert_eq!(x, roll_at(3, k, 6));
            assert!((0.0..1.0).contains(&r.roll(7, 0).unwrap()));
        }
        assert!(r.roll(3, -1).is_err());
        assert_eq!((r.count(3), r.count(7), r.count(8)), (100, 100, 0));
        // the sites draw independent streams
        assert_ne!(draw(3, 0), draw(7, 0));
    }

    #[test]
    fn draws_are_splitmix64() {
        // splitmix64 seeded with 1234567 starts 6457827717110365317, 3203168211198807973
        let z = |seed: u64, k: u64| mix64(seed.wrapping_add((k + 1).wrapping_mul(GOLDEN)));
        assert_eq!(z(1234567, 0), 6457827717110365317);
        assert_eq!(z(1234567, 1), 3203168211198807973);
        // these values are also checked against OpenCL's fcl_roll (compiler tests)
        assert_eq!(draw(0, 0), 0.6524484863740322);
        let mean = (0..10_000).map(|k| draw(42, k)).sum::<f64>() / 10_000.0;
        assert!((mean - 0.5).abs() < 0.01, "{mean}");
    }
}
