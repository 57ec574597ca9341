//! The FCL front end as the thesis types it and the original compiler parses it, end to end
//! through the binary: parameterless `fun` declarations, and the kinding rules (5.10, 5.11,
//! 5.20) rejecting ill-kinded programs with exit 2 and a located message naming the rule, while
//! the same constructs at base types are accepted.

use std::path::PathBuf;
use std::process::Command;

/// Writes `src` to a fresh file named `name` and runs `tailfcl ARGS FILE`.
fn tailfcl(args: &[&str], name: &str, src: &str) -> (i32, String, String) {
    let dir = std::env::temp_dir().join(format!("tailfcl-kinds-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path: PathBuf = dir.join(name);
    std::fs::write(&path, src).expect("write the program");
    let out = Command::new(env!("CARGO_BIN_EXE_tailfcl"))
        .args(args)
        .arg(&path)
        .output()
        .expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn parameterless_fun_declarations_parse_and_run() {
    // The original compiler's frontend tests, verbatim: both parse.
    let src = "fun foo = return <grid> 0\n\
               fun sharedmem_array = force (push <block> (generate 32 (fn i => i)))\n";
    let (code, _, err) = tailfcl(&["check", "--no-prelude"], "original.fcl", src);
    // The second needs its level argument (`force<block>`): every use of a level-polymorphic
    // name gives one, in the original as here. The parse itself succeeds.
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("original.fcl:2:23: type error: Variable `force` is not applied"),
        "{err}"
    );
    // With the level written, both type-check as the declarations without parameters they are.
    let src = "fun foo = return <grid> 0\n\
               fun sharedmem_array = force<block> (push <block> (generate 32 (fn i => i)))\n";
    let (code, out, err) = tailfcl(&["check", "--no-prelude"], "levels.fcl", src);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("foo : Program <grid> int"), "{out}");
    assert!(
        out.contains("sharedmem_array : Program <block> [int]"),
        "{out}"
    );
    // And they run: `fun f = e` is `val f = e`.
    let src = "fun xs = generate 4 (fn i => i * i)\n\
               fun main = forceAndPrint 4 (push<grid> xs)\n";
    let (code, out, err) = tailfcl(&["run"], "runs.fcl", src);
    assert_eq!((code, out.as_str()), (0, "[0,1,4,9]\n"), "{err}");
    // `val` with parameters stays an error.
    let (code, _, err) = tailfcl(&["check"], "val.fcl", "val f x = x\n");
    assert_eq!(code, 2);
    assert!(
        err.contains("val.fcl:1:7: parse error: `val` takes no parameters"),
        "{err}"
    );
}

/// `(program, rule, line:col of the error)` for each ill-kinded program.
const ILL_KINDED: [(&str, &str, &str); 5] = [
    // (5.20) an `if` whose branches are pull arrays.
    (
        "fun pick c = if c then generate 3 (fn i => i) else generate 2 (fn i => i)\n",
        "5.20",
        "1:14",
    ),
    // (5.10, 5.11) a push array of functions: already its pull array holds functions, which
    // 5.10 forbids (pull arrays hold ground types).
    (
        "val fs = push<grid> (generate 3 (fn i => fn x => x + i))\n",
        "5.10",
        "1:21",
    ),
    // (5.11) a push array whose elements are pull arrays.
    (
        "val nested = push<grid> (generate 3 (fn i => generate i (fn j => j)))\n",
        "5.11",
        "1:14",
    ),
    // (5.11) through a polymorphic function: `mk`'s variable is BT in its scheme, even where
    // its result type no longer mentions the push array.
    (
        "fun mk x = push<grid> (generate 1 (fn i => x))\n\
         fun f x = let y = mk x in 5\n\
         val bad = f (generate 2 (fn i => i))\n",
        "5.11",
        "3:11",
    ),
    // (5.20) through a polymorphic function: the prelude-style `if` over a variable makes it BT.
    (
        "fun choose c a b = if c then a else b\n\
         val bad = choose true (generate 1 (fn i => i)) (generate 2 (fn i => i))\n",
        "5.20",
        "2:11",
    ),
];

#[test]
fn ill_kinded_programs_are_rejected_naming_their_rule() {
    for (k, (src, rule, at)) in ILL_KINDED.iter().enumerate() {
        let name = format!("ill{k}.fcl");
        let (code, out, err) = tailfcl(&["check"], &name, src);
        assert_eq!(code, 2, "{src}: {err}");
        assert!(out.is_empty(), "{out}");
        let first = err.lines().next().unwrap_or("");
        assert!(
            first.starts_with(&format!("{}:{at}: type error[{rule}]: ", dir_file(&name))),
            "{src}: {err}"
        );
        // The caret line is there, under the spot.
        assert!(
            err.lines()
                .nth(2)
                .is_some_and(|l| l.trim_start().starts_with('^')),
            "{err}"
        );
    }
}

/// The path the binary prints for a file written by [`tailfcl`].
fn dir_file(name: &str) -> String {
    std::env::temp_dir()
        .join(format!("tailfcl-kinds-{}", std::process::id()))
        .join(name)
        .display()
        .to_string()
}

#[test]
fn the_same_constructs_at_base_types_are_accepted() {
    let src = "fun pick c = if c then 3 else 4\n\
               fun pair c = if c then (1, true) else (2, false)\n\
               fun choose c a b = if c then a else b\n\
               val pairs = push<grid> (generate 3 (fn i => (i, 2.5)))\n\
               val arrays = generate 3 (fn i => generate i (fn j => j))\n\
               val programs = generate 2 (fn i => return<block> (push<block> (generate 4 (fn j => j + i))))\n\
               fun main = do<grid> {\n\
                 a <- forceAndPrint 3 (push<grid> (generate 3 (fn i => choose (i == 1) (pick true) i))) ;\n\
                 return<grid> ()\n\
               }\n";
    let (code, out, err) = tailfcl(&["check"], "good.fcl", src);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("choose : forall 'a. bool -> 'a -> 'a -> 'a"),
        "{out}"
    );
    let (code, out, err) = tailfcl(&["run"], "good-run.fcl", src);
    assert_eq!((code, out.as_str()), (0, "[0,3,2]\n"), "{err}");
}
