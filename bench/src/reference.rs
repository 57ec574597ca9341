//! Straightforward sequential Rust implementations of the benchmark programs: the same
//! computation as the TAIL text, element by element, with the same element types and the same
//! order of double operations. TAIL's operators are spelled out where Rust differs: `resi(m,x)`
//! is the floored `x.rem_euclid(m)` (m > 0 here), `reduce(f,z,a)` is `acc := a_0;
//! acc := f(a_j)(acc)` (the new element first), `mind(x,y)`/`maxd(x,y)` are
//! `if x < y {x} else {y}` / `if x > y {x} else {y}` (spec tail.md §5.2, §5.9).

use std::f64::consts::PI;

/// TAIL's `reduce` step order for a running double sum: `acc := x_0`, then `acc := x_j + acc`.
fn add_to(acc: &mut Option<f64>, x: f64) {
    *acc = Some(match *acc {
        None => x,
        Some(a) => x + a,
    });
}

fn b2i(b: bool) -> i32 {
    i32::from(b)
}

/// signal (thesis Example 3.1 on a long input): `+/ ¯50⌈50⌊50×(diff 0,A)÷0.01+A` with
/// `A ← 1+9|7×⍳N` and `diff ← {1↓⍵-¯1⌽⍵}`.
pub fn signal(n: usize) -> f64 {
    let a = |i: usize| 1 + (7 * (i as i32 + 1)).rem_euclid(9);
    let mut acc = None;
    for i in 0..n {
        let prev = if i == 0 { 0 } else { a(i - 1) };
        let x = f64::from(a(i) - prev) / (0.01 + f64::from(a(i)));
        let x = 50.0 * x;
        let x = if 50.0 < x { 50.0 } else { x };
        let x = if -50.0 > x { -50.0 } else { x };
        add_to(&mut acc, x);
    }
    acc.unwrap_or(0.0)
}

/// primes by outer product (thesis §3.5.2): with `A ← 1↓⍳N`, the number of `A[j]` that exactly
/// one `A[i]` divides (`+/1=+⌿0=A∘.|A`), by the same N² remainders.
pub fn primes(n: usize) -> f64 {
    let n = n as i32;
    let mut count = 0;
    for j in 2..=n {
        let mut divisors = 0;
        for i in 2..=n {
            divisors += b2i(j.rem_euclid(i) == 0);
        }
        count += b2i(divisors == 1);
    }
    f64::from(count)
}

/// primes by sieve: the primes up to N, those a in 2..N that no d in 2..⌊√N⌋ below a divides
/// (the same N·√N remainders as the TAIL program), filtered by that mask and summed mod 1000.
pub fn sieve(n: usize) -> f64 {
    let r = (n as f64).sqrt().floor() as i32;
    let mut sum = 0i32;
    for a in 2..=n as i32 {
        let mut divisors = 0;
        for d in 2..=r {
            divisors += b2i(a.rem_euclid(d) == 0 && d < a);
        }
        if divisors == 0 {
            sum += a.rem_euclid(1000);
        }
    }
    f64::from(sum)
}

/// A filter in a loop: v = (5·i) mod 1000003 for i = 1..N; K times, keep the elements not
/// divisible by 97 and add 13 to each; then the sum of the elements mod 1000.
pub fn filter_power(n: usize, k: usize) -> f64 {
    let mut v: Vec<i32> = (1..=n as i32)
        .map(|i| (i * 5).rem_euclid(1_000_003))
        .collect();
    for _ in 0..k {
        v = v
            .iter()
            .filter(|&&x| x.rem_euclid(97) > 0)
            .map(|&x| x + 13)
            .collect();
    }
    f64::from(v.iter().map(|x| x.rem_euclid(1000)).sum::<i32>())
}

/// The date of Easter (Dyalog's/Knuth's algorithm) as yyyymmdd for the years
/// `Y ← 1+3000|¯1+⍳N` (years 1–3000 over and over, as the thesis's 300 × 3000), summed.
pub fn easter(n: usize) -> f64 {
    let floor = |x: f64| x.floor() as i32;
    let mut acc = None;
    for v in 1..=n as i32 {
        let y = 1 + (v - 1).rem_euclid(3000);
        let g = 1 + y.rem_euclid(19);
        let c = 1 + floor(f64::from(y) / 100.0);
        let x = -12 + floor(f64::from(c) * 0.75);
        let z = -5 + floor(f64::from(5 + 8 * c) / 25.0);
        let s = floor(f64::from(5 * y) / 4.0) - (x + 10);
        let e = (11 * g + (20 + (z - x))).rem_euclid(30);
        let f = e + b2i(e == 24 || (e == 25 && g > 11));
        let full = 30 * b2i(f > 23) + (44 - f);
        let sunday = full + (7 - (s + full).rem_euclid(7));
        let month = 3 + b2i(sunday > 31);
        let day = sunday - 31 * b2i(sunday > 31);
        add_to(&mut acc, f64::from(10000 * y + (100 * month + day)));
    }
    acc.unwrap_or(0.0)
}

/// The cumulative normal distribution (Abramowitz–Stegun 26.2.17), as the TAIL lambda has it.
fn cnd(x: f64) -> f64 {
    let l = x.abs();
    let k = 1.0 / (1.0 + 0.2316419 * l);
    let poly = k
        * (0.31938153
            + k * (-0.356563782 + k * (1.781477937 + k * (-1.821255978 + k * 1.330274429))));
    let w = 1.0 - (1.0 / (2.0 * PI).powf(0.5)) * (-(l * l / 2.0)).exp() * poly;
    w + f64::from(b2i(0.0 > x)) * (1.0 - 2.0 * w)
}

/// Black–Scholes call prices of N options (spot `60+40|i`, expiry `0.25+(8|i)÷4`, strike 75,
/// rate 0.02, volatility 0.3), summed.
pub fn blackscholes(n: usize) -> f64 {
    let mut acc = None;
    for v in 1..=n as i32 {
        let s = 60.0 + f64::from(v.rem_euclid(40));
        let t = 0.25 + f64::from(v.rem_euclid(8)) / 4.0;
        let d1 = ((s / 75.0).ln() + (0.02 + 0.3f64.powf(2.0) / 2.0) * t) / (0.3 * t.powf(0.5));
        let d2 = d1 - 0.3 * t.powf(0.5);
        let price = s * cnd(d1) - 75.0 * (-(0.02 * t)).exp() * cnd(d2);
        add_to(&mut acc, price);
    }
    acc.unwrap_or(0.0)
}

/// The initial board's cell at flat index `k` (1-based): a cheap hash, about 30% alive.
fn life_cell(k: i32) -> i32 {
    let h = (k.rem_euclid(4093) * 1021).rem_euclid(8191);
    b2i(3 > (h * 37).rem_euclid(127).rem_euclid(10))
}

/// Conway's game of life on an N×N torus for K generations; the number of live cells.
pub fn life(n: usize, k: usize) -> f64 {
    let mut board: Vec<i32> = (1..=(n * n) as i32).map(life_cell).collect();
    let mut next = vec![0; n * n];
    for _ in 0..k {
        for i in 0..n {
            let up = if i == 0 { n - 1 } else { i - 1 };
            let down = if i + 1 == n { 0 } else { i + 1 };
            for j in 0..n {
                let left = if j == 0 { n - 1 } else { j - 1 };
                let right = if j + 1 == n { 0 } else { j + 1 };
                let at = |r: usize, c: usize| board[r * n + c];
                let count = at(up, j)
                    + at(down, j)
                    + at(i, left)
                    + at(i, right)
                    + at(up, left)
                    + at(up, right)
                    + at(down, left)
                    + at(down, right);
                let alive = at(i, j);
                next[i * n + j] = b2i(count == 3 || (alive == 1 && count == 2));
            }
        }
        std::mem::swap(&mut board, &mut next);
    }
    f64::from(board.iter().sum::<i32>())
}

/// Sobol direction numbers of dimensions 1 and 2 as 30-bit integers (dimension 2 from the
/// primitive polynomial x+1: m_1 = 1, m_k = 2·m_(k−1) xor m_(k−1)).
pub fn sobol_directions() -> [[i32; 30]; 2] {
    let (mut first, mut second) = ([0; 30], [0; 30]);
    let mut m = 1;
    for (k, (v1, v2)) in first.iter_mut().zip(&mut second).enumerate() {
        *v1 = 1 << (29 - k);
        *v2 = m << (29 - k);
        m ^= 2 * m;
    }
    [first, second]
}

/// Monte-Carlo π from the first N points of a 2-D Sobol sequence (point i is the xor of the
/// direction numbers of i's set bits, over 2^30): 4 × (points inside the circle) ÷ N.
pub fn sobol(n: usize) -> f64 {
    let dirs = sobol_directions();
    let coordinate = |i: i32, d: &[i32; 30]| {
        let mut x = 0;
        for (k, v) in d.iter().enumerate() {
            x ^= ((i as u32 >> k) & 1) as i32 * v;
        }
        f64::from(x) / 1073741824.0
    };
    let mut inside = 0;
    for i in 1..=n as i32 {
        let x = coordinate(i, &dirs[0]);
        let y = coordinate(i, &dirs[1]);
        inside += b2i(1.0 > x * x + y * y);
    }
    4.0 * f64::from(inside) / n as f64
}

/// The inner product `A +.× B` of two N×N double matrices (thesis Fig. 3.6/3.7), summed.
pub fn inner_product(n: usize) -> f64 {
    let a: Vec<f64> = (1..=(n * n) as i32)
        .map(|v| f64::from(v.rem_euclid(7)) / 4.0)
        .collect();
    let b: Vec<f64> = (1..=(n * n) as i32)
        .map(|v| f64::from((3 * v).rem_euclid(5) - 1) / 2.0)
        .collect();
    let mut total = None;
    for i in 0..n {
        let mut row = None;
        for j in 0..n {
            let mut c = None;
            for k in 0..n {
                add_to(&mut c, a[i * n + k] * b[k * n + j]);
            }
            add_to(&mut row, c.unwrap_or(0.0));
        }
        add_to(&mut total, row.unwrap_or(0.0));
    }
    total.unwrap_or(0.0)
}

/// sort: `gradeUp` of the pseudo-random keys `100003|21407×100003|⍳N` (many ties), checked by
/// `+/97|(97|g)×97|⍳N` over the 1-based grade g; the standard library's stable sort by key keeps
/// ties in index order, as `gradeUp` does.
pub fn sort(n: usize) -> f64 {
    let keys: Vec<i32> = (1..=n as i32)
        .map(|x| (x.rem_euclid(100_003) * 21_407).rem_euclid(100_003))
        .collect();
    let mut grade: Vec<i32> = (1..=n as i32).collect();
    grade.sort_by_key(|&g| keys[g as usize - 1]);
    grade_checksum(&grade)
}

/// `+/97|(97|g)×97|⍳N` over a 1-based grade g: the check of `sort` and `sortd` (each term
/// below 97, so the sum stays in int32 up to 22 million elements).
fn grade_checksum(grade: &[i32]) -> f64 {
    let sum: i32 = grade
        .iter()
        .zip(1..)
        .map(|(&g, i): (&i32, i32)| (g.rem_euclid(97) * i.rem_euclid(97)).rem_euclid(97))
        .sum();
    f64::from(sum)
}

/// sortd: `gradeUp` of the doubles `(100003|21407×100003|⍳N) − 50000) ÷ 7` (negative and
/// positive, every bit of the mantissa in use, ties as in `sort`), checked like `sort`. The
/// comparison is the TAIL oracle's (IEEE `<`, no NaN here) in a stable sort.
pub fn sortd(n: usize) -> f64 {
    let keys: Vec<f64> = (1..=n as i32)
        .map(|x| f64::from((x.rem_euclid(100_003) * 21_407).rem_euclid(100_003) - 50_000) / 7.0)
        .collect();
    let mut grade: Vec<i32> = (1..=n as i32).collect();
    grade.sort_by(|&a, &b| {
        let (ka, kb) = (keys[a as usize - 1], keys[b as usize - 1]);
        ka.partial_cmp(&kb).unwrap_or(std::cmp::Ordering::Equal)
    });
    grade_checksum(&grade)
}
