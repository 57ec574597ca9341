//! Front-end throughput: lexes, parses and type checks a generated 10,000-line TAIL program in
//! apltail's style (a `let` chain of operator applications), then prints it back. Prints lines/s.

use semantics::tail::parser::parse;
use semantics::tail::printer::print;
use semantics::tail::typecheck::typecheck;
use std::time::Instant;

/// A 10,000-line program: each line binds a vector, matrix or scalar built from earlier lines.
fn program(lines: usize) -> String {
    let mut s = String::from("let v0:<int>6 = iotaV(6) in\n");
    s.push_str("let v1:[int]2 = reshape([2,3],v0) in\n");
    let mut i = 2;
    while i + 4 < lines {
        s.push_str(&format!(
            "let v{i}:[double]1 = each(fn v{a}:[double]0 => addd(muld(2.0,v{a}),1.5),each(i2d,v0)) in\n",
            a = i + 1
        ));
        s.push_str(&format!(
            "let v{}:[int]1 = reduce(addi,0,zipWith(muli,transp(v1),transp(v1))) in\n",
            i + 1
        ));
        s.push_str(&format!(
            "let v{}:[int]0 = prSclI(addi(first(v{}),b2i(eqi(3,idxS(1,2,v0))))) in\n",
            i + 2,
            i + 1
        ));
        s.push_str(&format!(
            "let v{}:[double]0 = reduce(maxd,-inf,cat(v{i},[1.0,2.5e-7])) in\n",
            i + 3
        ));
        i += 4;
    }
    s.push_str(&format!("let v{i}:S(int,7) = 7 in\n"));
    s.push_str(&format!("addd(i2d(v{}),v{})\n", i - 2, i - 1));
    s
}

fn main() {
    let lines = std::env::var("TAIL_FRONT_LINES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000);
    let src = program(lines);
    let n = src.lines().count();
    let rounds = 5;
    let (mut parse_s, mut check_s) = (0.0, 0.0);
    for _ in 0..rounds {
        let t = Instant::now();
        let e = parse(&src).expect("the generated program parses");
        parse_s += t.elapsed().as_secs_f64();
        let t = Instant::now();
        let ty = typecheck(&e).expect("the generated program checks");
        check_s += t.elapsed().as_secs_f64();
        assert_eq!(ty.to_string(), "[double]0");
    }
    let (parse_s, check_s) = (parse_s / rounds as f64, check_s / rounds as f64);
    for (what, secs) in [
        ("parse", parse_s),
        ("check", check_s),
        ("parse+check", parse_s + check_s),
    ] {
        println!(
            "tail_front: {what} {n} lines in {:.1} ms = {:.0} lines/s",
            secs * 1e3,
            n as f64 / secs
        );
    }
    let e = parse(&src).expect("parses");
    let t = Instant::now();
    let text = print(&e);
    let secs = t.elapsed().as_secs_f64();
    assert_eq!(text, src);
    println!(
        "tail_front: print {n} lines in {:.1} ms = {:.0} lines/s",
        secs * 1e3,
        n as f64 / secs
    );
}
