//! The repository's TAIL programs (examples/, paper-examples/seed*/): every one parses, prints
//! back to its own text, re-parses to the same AST, type checks to `[double]0` (apltail compiles
//! every APL program to a double scalar), and compiles for the oracle.

use crate::tail::parser::parse;
use crate::tail::printer::print;
use crate::tail::step::compile::compile;
use crate::tail::syntax_to_surface::to_surface;
use crate::tail::typecheck::typecheck;
use std::path::{Path, PathBuf};

fn tail_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut dirs = vec![root.join("examples")];
    if let Ok(rd) = std::fs::read_dir(root.join("paper-examples")) {
        dirs.extend(rd.flatten().map(|d| d.path()).filter(|p| p.is_dir()));
    }
    let mut files: Vec<PathBuf> = dirs
        .iter()
        .filter_map(|d| std::fs::read_dir(d).ok())
        .flat_map(|rd| rd.flatten().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "tail"))
        .collect();
    files.sort();
    files
}

fn expects_parse_error(p: &Path) -> bool {
    std::fs::read_to_string(p.with_extension("expected-error"))
        .is_ok_and(|s| s.trim() == "parse-error")
}

#[test]
fn every_repository_program_parses_prints_back_and_checks() {
    let files = tail_files();
    assert!(files.len() >= 50, "found only {} programs", files.len());
    let mut checked = 0;
    let mut identical = 0;
    for f in &files {
        let src = std::fs::read_to_string(f).unwrap();
        let name = f.display();
        if expects_parse_error(f) {
            assert!(parse(&src).is_err(), "{name} should not parse");
            continue;
        }
        let e = parse(&src).unwrap_or_else(|d| panic!("{}", d.render(&name.to_string(), &src)));
        let printed = print(&e);
        if printed.trim_end() == src.trim_end() {
            identical += 1;
        } else {
            eprintln!("{name} is not in apltail's layout");
        }
        let again = parse(&printed).unwrap();
        assert_eq!(again, e, "{name}: parse(print(e)) != e");
        assert_eq!(print(&again), printed, "{name}: printing is not idempotent");
        let t = typecheck(&e).unwrap_or_else(|d| panic!("{}", d.render(&name.to_string(), &src)));
        assert_eq!(t.to_string(), "[double]0", "{name}");
        assert!(compile(&to_surface(&e)).is_ok(), "{name} does not compile");
        checked += 1;
    }
    assert!(checked >= 45);
    // Hand-indented programs (thesis figures) differ only in layout; apltail output is identical.
    assert!(identical >= 40, "only {identical} print back identically");
}

#[test]
fn parse_errors_name_what_was_expected_and_found() {
    let d = parse("let v1:[int]0 = 5 v1").unwrap_err();
    assert_eq!(d.message, "expected `in`, found `v1`");
    assert_eq!(d.span.start, 18);
    let d = parse("addi(1)").unwrap_err();
    assert_eq!(d.message, "expected 2 argument(s) to `addi`, found 1");
    let d = parse("foo(1)").unwrap_err();
    assert_eq!(d.message, "unknown operator `foo`");
    assert!(parse("let v:[int]0 = 2147483648 in v").is_err());
    assert!(parse("99999999999999999999999").is_err());
    assert!(parse("1e999").is_err());
    let d = parse("let x:int = 1 in x").unwrap_err();
    assert_eq!(d.message, "expected a type, found `int`");
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    // 10^5 levels, on the default test-thread stack.
    let n = 100_000;
    let src = format!("{}1{}", "negi(".repeat(n), ")".repeat(n));
    assert_eq!(parse(&src).unwrap_err().message, "nesting too deep");
    let src = format!("{}1{}", "[".repeat(n), "]".repeat(n));
    assert_eq!(parse(&src).unwrap_err().message, "nesting too deep");
    let src = format!("{}1{}", "(".repeat(n), ")".repeat(n));
    assert_eq!(parse(&src).unwrap_err().message, "nesting too deep");
    let src = format!("let v:{}[int]0{} = 1 in v", "(".repeat(n), ")".repeat(n));
    assert_eq!(parse(&src).unwrap_err().message, "nesting too deep");
    // Just below the limit everything works, checker and printer included.
    let k = crate::tail::parser::MAX_DEPTH - 2;
    let src = format!("i2d({}1{})", "negi(".repeat(k), ")".repeat(k));
    let e = parse(&src).unwrap();
    assert_eq!(typecheck(&e).unwrap().to_string(), "[double]0");
    assert_eq!(print(&e).trim_end(), src);
}

#[test]
fn long_let_chains_need_no_stack() {
    let mut src = String::new();
    for i in 0..100_000 {
        src.push_str(&format!("let v{i}:[int]0 = {i} in\n"));
    }
    src.push_str("i2d(v99999)");
    let e = parse(&src).unwrap();
    assert_eq!(typecheck(&e).unwrap().to_string(), "[double]0");
    assert_eq!(print(&e).trim_end(), src);
    assert_eq!(parse(&print(&e)).unwrap(), e);
    crate::tail::parser::on_deep_stack(|| drop(to_surface(&e)));
}

/// Debug text with every span removed.
fn without_spans(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find("Span {") {
        out.push_str(&rest[..i]);
        rest = rest[i..].split_once('}').map_or("", |(_, r)| r);
    }
    out.push_str(rest);
    out
}

#[test]
fn to_surface_agrees_with_the_oracles_reader() {
    for f in tail_files() {
        let src = std::fs::read_to_string(&f).unwrap();
        let (Ok(e), Ok(read)) = (parse(&src), crate::tail::step::reader::read(&src)) else {
            assert!(expects_parse_error(&f), "{}", f.display());
            continue;
        };
        // The reader leaves bare operator names as variables for the compiler to resolve; the
        // parser has already resolved them to `OpRef`s.
        let ours = without_spans(&format!("{:?}", to_surface(&e))).replace("OpRef(", "Var(");
        let theirs = without_spans(&format!("{read:?}"));
        assert_eq!(ours, theirs, "{}", f.display());
    }
}

#[test]
fn long_let_chains_inside_lambdas_need_no_stack() {
    let mut body = String::new();
    for i in 0..50_000 {
        body.push_str(&format!("let v{i}:[int]0 = addi(x,{i}) in\n       "));
    }
    let src = format!("each(fn x:[int]0 => {body}x,[1,2])");
    let e = parse(&src).unwrap();
    assert_eq!(typecheck(&e).unwrap().to_string(), "<int>2");
    assert_eq!(print(&e).trim_end(), src);
    assert_eq!(parse(&print(&e)).unwrap(), e);
}

#[test]
fn spec_example_programs_round_trip_and_check() {
    // spec §2.8 and §6.4
    let programs = [
        "let v1:<int>4 = iotaV(4) in\nlet v2:[int]1 = eachV(fn v3:[int]0 => muli(v3,v3),v1) in\nlet v4:[int]0 = prSclI(reduce(addi,0,v2)) in\ni2d(v4)\n",
        "let v1:[int]2 = prArrI(reshape([2,3],[1,-20,300,4,5,6])) in\nlet v2:[char]1 = prArrC(['o','k']) in\nlet v3:[double]1 = prArrD([0.5,-2.0,100.0]) in\nlet v4:[int]0 = prSclI(7) in\ni2d(reduce(addi,0,reduce(addi,0,v1)))\n",
        "let mv1:<int>5 = iotaV(5) in let v2:[bool]0 = idxassign([2],mv1,99) in i2d(first(mv1))\n",
    ];
    for src in programs {
        let e = parse(src).unwrap();
        assert_eq!(typecheck(&e).unwrap().to_string(), "[double]0", "{src}");
        assert_eq!(parse(&print(&e)).unwrap(), e);
    }
    assert_eq!(print(&parse(programs[0]).unwrap()), programs[0]);
    assert_eq!(print(&parse(programs[1]).unwrap()), programs[1]);
}
