//! Meanings of the scalar operators (spec §5.1–§5.6; thesis rules 3.32/3.33 "and by analogy").
//!
//! Integers are 32-bit and follow apltail: `addi subi muli negi absi divi` report overflow as an
//! error instead of wrapping; bitwise and shift operators work on the raw 32-bit words; `divi`,
//! `mod` and `resi` use floored division.

use crate::tail::value::C64;

/// Result of a scalar operator: the value, or the reason for `err`.
pub type Res<T> = Result<T, String>;

fn overflow(op: &str) -> String {
    format!("{op}: integer overflow")
}

/// `addi(x,y)` = x + y (3.32); overflow is an error.
pub fn addi(x: i32, y: i32) -> Res<i32> {
    x.checked_add(y).ok_or_else(|| overflow("addi"))
}

/// `subi(x,y)` = x − y; overflow is an error.
pub fn subi(x: i32, y: i32) -> Res<i32> {
    x.checked_sub(y).ok_or_else(|| overflow("subi"))
}

/// `muli(x,y)` = x · y; overflow is an error.
pub fn muli(x: i32, y: i32) -> Res<i32> {
    x.checked_mul(y).ok_or_else(|| overflow("muli"))
}

/// `divi(x,y)` = ⌊x/y⌋ rounded toward −∞; division by zero and overflow are errors.
pub fn divi(x: i32, y: i32) -> Res<i32> {
    if y == 0 {
        return Err("divi: division by zero".into());
    }
    let q = x.checked_div(y).ok_or_else(|| overflow("divi"))?;
    Ok(if (x % y != 0) && ((x < 0) != (y < 0)) {
        q - 1
    } else {
        q
    })
}

/// Floored modulo: the result has the sign of `m` (m ≠ 0).
fn floor_mod(x: i32, m: i32) -> i32 {
    let r = (x as i64).rem_euclid(m as i64);
    // rem_euclid gives 0..|m|; move it into m's sign range.
    (if m < 0 && r != 0 { r + m as i64 } else { r }) as i32
}

/// `mod(x,m)`: x mod m, floored (sign of m), dividend first; m = 0 is an error.
pub fn mod_(x: i32, m: i32) -> Res<i32> {
    if m == 0 {
        return Err("mod: division by zero".into());
    }
    Ok(floor_mod(x, m))
}

/// `resi(m,x)`: APL residue, modulus first; x when m = 0; never an error.
pub fn resi(m: i32, x: i32) -> i32 {
    if m == 0 {
        x
    } else {
        floor_mod(x, m)
    }
}

/// `negi(x)` = −x; `negi(-2147483648)` is an error.
pub fn negi(x: i32) -> Res<i32> {
    x.checked_neg().ok_or_else(|| overflow("negi"))
}

/// `absi(x)` = |x|; `absi(-2147483648)` is an error.
pub fn absi(x: i32) -> Res<i32> {
    x.checked_abs().ok_or_else(|| overflow("absi"))
}

/// `signi(x)`: 1 if x ≥ 0 (also for 0), −1 otherwise.
pub fn signi(x: i32) -> i32 {
    if x >= 0 {
        1
    } else {
        -1
    }
}

/// `shli(x,c)`: left shift in 32 bits; the count is unsigned, ≥ 32 gives 0.
pub fn shli(x: i32, c: i32) -> i32 {
    let c = c as u32;
    if c >= 32 {
        0
    } else {
        ((x as u32) << c) as i32
    }
}

/// `shri(x,c)`: logical right shift; count ≥ 32 (or negative) gives 0.
pub fn shri(x: i32, c: i32) -> i32 {
    let c = c as u32;
    if c >= 32 {
        0
    } else {
        ((x as u32) >> c) as i32
    }
}

/// `shari(x,c)`: arithmetic right shift; count ≥ 32 gives the sign fill.
pub fn shari(x: i32, c: i32) -> i32 {
    let c = c as u32;
    if c >= 32 {
        if x < 0 {
            -1
        } else {
            0
        }
    } else {
        x >> c
    }
}

/// `maxd(x,y)` = if x > y then x else y (so NaN gives y).
pub fn maxd(x: f64, y: f64) -> f64 {
    if x > y {
        x
    } else {
        y
    }
}

/// `mind(x,y)` = if x < y then x else y.
pub fn mind(x: f64, y: f64) -> f64 {
    if x < y {
        x
    } else {
        y
    }
}

/// Converts a double to int32 for `floor`/`ceil`; NaN, ±inf and out-of-range are errors.
fn to_int(op: &str, x: f64) -> Res<i32> {
    if x.is_finite() && x >= i32::MIN as f64 && x <= i32::MAX as f64 {
        Ok(x as i32)
    } else {
        Err(format!("{op}: {x} does not fit an int"))
    }
}

/// `floor(x)` → int.
pub fn floor(x: f64) -> Res<i32> {
    to_int("floor", x.floor())
}

/// `ceil(x)` → int.
pub fn ceil(x: f64) -> Res<i32> {
    to_int("ceil", x.ceil())
}

/// `signd(x)` → int: 1 if x ≥ 0.0 (also −0.0), −1 otherwise (NaN too).
pub fn signd(x: f64) -> i32 {
    if x >= 0.0 {
        1
    } else {
        -1
    }
}

/// `resd(m,x)`: apltail's formula `x − floor(x/m)` (spec §5.2, trap 9), x when m = 0.
pub fn resd(m: f64, x: f64) -> Res<f64> {
    if m == 0.0 {
        return Ok(x);
    }
    let q = x / m;
    if !q.is_finite() || q.abs() >= 4.611686018427388e18 {
        return Err(format!("resd: {x}/{m} is out of range"));
    }
    Ok(x - q.floor())
}

/// `mulx`: (a+bi)(c+di).
pub fn mulx(x: C64, y: C64) -> C64 {
    (x.0 * y.0 - x.1 * y.1, x.0 * y.1 + x.1 * y.0)
}

/// `expx(z)` = eᵃ(cos b + i sin b).
pub fn expx(z: C64) -> C64 {
    let m = z.0.exp();
    (m * z.1.cos(), m * z.1.sin())
}

/// `magnx(z)` = √(a²+b²), computed naively as apltail does.
pub fn magnx(z: C64) -> f64 {
    (z.0 * z.0 + z.1 * z.1).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_edge_cases_follow_apltail() {
        assert!(muli(65536, 65536).is_err());
        assert!(addi(i32::MAX, 1).is_err());
        assert_eq!(divi(-7, 2), Ok(-4));
        assert_eq!(divi(7, -2), Ok(-4));
        assert_eq!(divi(6, 3), Ok(2));
        assert!(divi(i32::MIN, -1).is_err());
        assert!(divi(1, 0).is_err());
        assert_eq!(mod_(-7, 3), Ok(2));
        assert_eq!(mod_(7, -3), Ok(-2));
        assert_eq!(resi(3, -7), 2);
        assert_eq!(resi(-3, 7), -2);
        assert_eq!(resi(0, 7), 7);
        assert_eq!(signi(0), 1);
        assert_eq!(shli(1, 31), i32::MIN);
        assert_eq!(shli(1, 32), 0);
        assert_eq!(shli(1, -1), 0);
        assert_eq!(shri(-1, 28), 15);
        assert_eq!(shri(i32::MIN, 30), 2);
        assert_eq!(shari(-16, 2), -4);
        assert_eq!(shari(i32::MIN, 30), -2);
        assert_eq!(shari(-5, 40), -1);
        assert!(negi(i32::MIN).is_err());
        assert!(absi(i32::MIN).is_err());
    }

    #[test]
    fn double_edge_cases() {
        assert_eq!(floor(-2.5), Ok(-3));
        assert_eq!(ceil(-0.5), Ok(0));
        assert!(floor(f64::NAN).is_err());
        assert!(ceil(3e9).is_err());
        assert_eq!(signd(-0.0), 1);
        assert_eq!(signd(-0.5), -1);
        assert_eq!(resd(2.5, 7.0), Ok(5.0));
        assert_eq!(maxd(f64::NAN, 1.0), 1.0);
        assert_eq!(mulx((1.0, 2.0), (3.0, -4.0)), (11.0, 2.0));
        assert_eq!(magnx((3.0, 4.0)), 5.0);
        assert_eq!(expx((0.0, 0.0)), (1.0, 0.0));
    }
}
