//! `tailfcl check` on FCL files, end to end through the binary.

use std::process::Command;

fn tailfcl(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tailfcl"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn check_prints_every_binding_prelude_first() {
    let (code, out, err) = tailfcl(&["check", "examples/fcl/reverse.fcl"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "id : forall 'a. 'a -> 'a");
    assert!(lines.contains(
        &"concat : forall 'a <l3>. int -> [Program <l3> ['a]<l3>] -> Program <1+l3> ['a]<1+l3>"
    ));
    assert!(lines.contains(&"revDistribute : forall 'a. int -> ['a] -> Program <grid> ['a]<grid>"));
    assert_eq!(lines.last(), Some(&"main : Program <grid> ()"));
}

#[test]
fn check_without_the_prelude_and_with_several_files() {
    let dir = std::env::temp_dir().join(format!("tailfcl-fcl-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let lib = dir.join("lib.fcl");
    let main = dir.join("main.fcl");
    std::fs::write(&lib, "fun twice x = x * 2\n").expect("write");
    std::fs::write(&main, "val y = twice 4\nval z = twice true\n").expect("write");
    let (code, out, err) = tailfcl(&[
        "check",
        "--no-prelude",
        lib.to_str().expect("utf-8 path"),
        main.to_str().expect("utf-8 path"),
    ]);
    assert_eq!(code, 2);
    assert!(
        out.is_empty(),
        "nothing on stdout when checking fails: {out}"
    );
    let first = err.lines().next().unwrap_or("");
    assert!(
        first.ends_with("main.fcl:2:9: type error: Cannot unify: `int` and `bool`"),
        "{err}"
    );
    std::fs::write(&main, "val y = twice 4\n").expect("write");
    let (code, out, _) = tailfcl(&[
        "check",
        "--no-prelude",
        lib.to_str().expect("utf-8 path"),
        main.to_str().expect("utf-8 path"),
    ]);
    assert_eq!(code, 0);
    assert_eq!(out, "twice : int -> int\ny : int\n");
    let _ = std::fs::remove_dir_all(&dir);
}
