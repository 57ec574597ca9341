//! Differential test against the oracle: random integer expressions (wrapping arithmetic,
//! truncating division and modulo by positive and negative, power-of-two and other divisors,
//! shifts, comparisons, branches) computed per element of a block-distributed array, at -O0 and
//! -O2. Skips when there is no OpenCL platform.

mod support;

use support::Rng;

fn expr(r: &mut Rng, depth: u32) -> String {
    if depth == 0 || r.next(4) == 0 {
        return match r.next(5) {
            0 => "i".into(),
            1 => "b".into(),
            2 => format!("{}", r.next(40) as i64 - 20),
            3 => "(0 - i)".into(),
            _ => format!("(b * 7 - i * {})", r.next(5) + 1),
        };
    }
    let a = expr(r, depth - 1);
    let b = expr(r, depth - 1);
    let pow2 = [2, 4, 8, 16][r.next(4) as usize];
    match r.next(14) {
        0 => format!("({a} + {b})"),
        1 => format!("({a} - {b})"),
        2 => format!("({a} * {b})"),
        3 => format!("({a} / {pow2})"),
        4 => format!("({a} % {pow2})"),
        5 => format!("({a} / (({b} % 7) + 8))"),
        6 => format!("({a} % (0 - (({b} % 5) + 6)))"),
        7 => format!("(if lti {a} {b} then {a} else {b} * 3)"),
        8 => format!("({a} >> {})", r.next(6)),
        9 => format!("({a} << {})", r.next(6)),
        10 => format!("(mini {a} {b})"),
        11 => format!("(absi {a} + signi {b})"),
        12 => format!("(if eqi {a} {b} then 1 else clz {a})"),
        _ => format!("(xor {a} ({b} & 255))"),
    }
}

#[test]
fn random_integer_programs_agree_with_the_oracle() {
    let Some(rt) = support::runtime() else {
        return;
    };
    let mut r = Rng(0x5eed);
    let mut compared = 0;
    for case in 0..24 {
        let e = expr(&mut r, 4);
        let src = format!(
            "sig main : Program <grid> unit\nval main = do<grid>\n  {{ p <- concat<block> 8 (generate 4 (fn b => return<block> (push<block> (generate 8 (fn i => {e})))))\n  ; a <- forceAndPrint 32 p\n  ; return<grid> ()\n  }}\n"
        );
        compared += support::assert_agrees_with_oracle(&rt, &format!("case{case}.fcl"), &src);
    }
    assert_eq!(compared, 48);
}
