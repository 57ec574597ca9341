//! Tests of `lower::load_program`: every thesis example loads into closed, saturated core terms.

use super::core::{Builtin, Expr, ExprKind, Level, Type};
use super::lower::load_program;

fn example(name: &str) -> (String, String) {
    let path = format!("{}/../examples/fcl/{name}", env!("CARGO_MANIFEST_DIR"));
    let src = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    (name.to_string(), src)
}

/// Checks that every call is saturated and every variable is bound; collects the built-ins.
fn well_formed(e: &Expr, scope: &mut Vec<String>, seen: &mut Vec<Builtin>) {
    match &e.kind {
        ExprKind::Var(x) => assert!(scope.iter().any(|s| **s == **x), "unbound `{x}`"),
        ExprKind::Lam { param, body, .. } => {
            scope.push(param.to_string());
            well_formed(body, scope, seen);
            scope.pop();
        }
        ExprKind::Let {
            name, bound, body, ..
        } => {
            well_formed(bound, scope, seen);
            scope.push(name.to_string());
            well_formed(body, scope, seen);
            scope.pop();
        }
        ExprKind::App(a, b) | ExprKind::Pair(a, b) => {
            well_formed(a, scope, seen);
            well_formed(b, scope, seen);
        }
        ExprKind::If(a, b, c) => {
            well_formed(a, scope, seen);
            well_formed(b, scope, seen);
            well_formed(c, scope, seen);
        }
        ExprKind::Fst(a) | ExprKind::Snd(a) => well_formed(a, scope, seen),
        ExprKind::Call(b, args) => {
            assert_eq!(args.len(), b.arity(), "{} is not saturated", b.name());
            if !seen.contains(b) {
                seen.push(*b);
            }
            for a in args {
                well_formed(a, scope, seen);
            }
        }
        ExprKind::Int(_)
        | ExprKind::Double(_)
        | ExprKind::Bool(_)
        | ExprKind::Str(_)
        | ExprKind::Unit => {}
    }
}

fn load(files: &[(String, String)]) -> super::lower::Program {
    match load_program(files) {
        Ok(p) => p,
        Err((f, d)) => panic!("{f}: {d:?}"),
    }
}

#[test]
fn every_example_loads_into_closed_saturated_core_terms() {
    let mut all = Vec::new();
    for name in [
        "reverse.fcl",
        "transpose.fcl",
        "reduce.fcl",
        "fold.fcl",
        "matmul.fcl",
        "scan.fcl",
        "blocks.fcl",
    ] {
        let p = load(&[example(name)]);
        assert!(
            matches!(p.ty, Type::Program(Level::GRID, _)),
            "{name}: {}",
            p.ty
        );
        well_formed(&p.main, &mut Vec::new(), &mut all);
    }
    assert!(
        all.contains(&Builtin::PowerI(Level::BLOCK)),
        "[O]'s power is poweri"
    );
    assert!(all.contains(&Builtin::Interleave(Level::BLOCK)));
    assert!(all.contains(&Builtin::While(Level::GRID)));
    assert!(all.contains(&Builtin::SeqFor));
    assert!(all.contains(&Builtin::ForceAndPrint));
}

#[test]
fn partial_applications_are_eta_expanded() {
    let src = "val main = do<grid> { a <- forceAndPrint 2 (push<grid> (mapPull (addi 1) (mapPull fst (generate 2 (fn i => (i, i)))))) ; return<grid> () }\n";
    let p = load(&[("t.fcl".into(), src.into())]);
    let mut seen = Vec::new();
    well_formed(&p.main, &mut Vec::new(), &mut seen);
    let printed = format!("{:?}", p.main);
    assert!(printed.contains("eta%"), "{printed}");
    assert!(printed.contains("Fst"), "{printed}");
}

#[test]
fn errors_name_their_file() {
    let files = vec![
        ("lib.fcl".to_string(), "fun f x = x + 1\n".to_string()),
        (
            "main.fcl".to_string(),
            "val main = return<grid> (f 1)\nval z = q\n".to_string(),
        ),
    ];
    let (file, d) = load_program(&files).expect_err("q is unbound");
    assert_eq!(file, "main.fcl");
    assert_eq!(
        d.render(&file, &files[1].1).lines().next(),
        Some("main.fcl:2:9: type error: Not in scope: `q`")
    );
    let (file, _) = load_program(&[("m.fcl".into(), "val x = 1\n".into())]).expect_err("no main");
    assert_eq!(file, "m.fcl");
}

#[test]
fn spans_map_back_to_their_file() {
    let files = vec![(
        "a.fcl".to_string(),
        "val main = return<grid> 7\n".to_string(),
    )];
    let p = load(&files);
    let (file, span) = p.locate(p.main.span);
    assert!(file == "a.fcl" || file.starts_with("<prelude"), "{file}");
    assert!((span.end as usize) <= files[0].1.len() || file != "a.fcl");
}
