//! The built-in environment Γ_init ([T] Figures 5.4/5.5; docs/fcl.md §4.1 and §4.5): every
//! built-in of the original compiler, plus the thesis's names as aliases.

use super::desugar::closed_scheme;
use super::parser::parse_scheme;
use super::types::Scheme;

/// `(name, scheme)` for every built-in of [O], in parseable `sig` syntax (spec §4.1). The order
/// of the quantified type variables matters for `check` output: instantiation walks them last
/// to first.
pub const BUILTINS: &[(&str, &str)] = &[
    ("fst", "forall 'a 'b. ('a, 'b) -> 'a"),
    ("snd", "forall 'a 'b. ('a, 'b) -> 'b"),
    ("addi", "int -> int -> int"),
    ("subi", "int -> int -> int"),
    ("muli", "int -> int -> int"),
    ("divi", "int -> int -> int"),
    ("modi", "int -> int -> int"),
    ("mini", "int -> int -> int"),
    ("maxi", "int -> int -> int"),
    ("powi", "int -> int -> int"),
    ("andi", "int -> int -> int"),
    ("xor", "int -> int -> int"),
    ("ori", "int -> int -> int"),
    ("sll", "int -> int -> int"),
    ("srl", "int -> int -> int"),
    ("eqi", "int -> int -> bool"),
    ("neqi", "int -> int -> bool"),
    ("lti", "int -> int -> bool"),
    ("absi", "int -> int"),
    ("signi", "int -> int"),
    ("clz", "int -> int"),
    ("negatei", "int -> int"),
    ("i2d", "int -> double"),
    ("b2i", "bool -> int"),
    ("addd", "double -> double -> double"),
    ("subd", "double -> double -> double"),
    ("muld", "double -> double -> double"),
    ("divd", "double -> double -> double"),
    ("negated", "double -> double"),
    // The extension for TAIL (docs/fcl-extensions.md): TAIL's double, comparison and boolean
    // operators (docs/tail.md §5.2), level-free scalars like `addd`.
    ("powd", "double -> double -> double"),
    ("maxd", "double -> double -> double"),
    ("mind", "double -> double -> double"),
    ("negd", "double -> double"),
    ("absd", "double -> double"),
    ("expd", "double -> double"),
    ("logd", "double -> double"),
    ("sqrtd", "double -> double"),
    ("sind", "double -> double"),
    ("cosd", "double -> double"),
    ("tand", "double -> double"),
    ("asind", "double -> double"),
    ("acosd", "double -> double"),
    ("atand", "double -> double"),
    ("sinhd", "double -> double"),
    ("coshd", "double -> double"),
    ("tanhd", "double -> double"),
    ("floord", "double -> int"),
    ("ceild", "double -> int"),
    ("signd", "double -> int"),
    ("ltd", "double -> double -> bool"),
    ("led", "double -> double -> bool"),
    ("gtd", "double -> double -> bool"),
    ("ged", "double -> double -> bool"),
    ("eqd", "double -> double -> bool"),
    ("andb", "bool -> bool -> bool"),
    ("orb", "bool -> bool -> bool"),
    ("xorb", "bool -> bool -> bool"),
    ("eqb", "bool -> bool -> bool"),
    ("notb", "bool -> bool"),
    // the TAIL lowering's run-time checks (docs/fcl-extensions.md §7)
    ("checki", "int -> bool -> int -> int"),
    ("addiChecked", "int -> int -> int -> int"),
    ("subiChecked", "int -> int -> int -> int"),
    ("muliChecked", "int -> int -> int -> int"),
    // the bits of a double, for the TAIL lowering's radix sort (docs/fcl-extensions.md §1)
    ("doubleHiBits", "double -> int"),
    ("doubleLoBits", "double -> int"),
    // TAIL's `roll` per element (docs/fcl-extensions.md §8)
    ("rollAt", "int -> int -> int -> double"),
    ("index", "forall 'a. ['a] -> int -> 'a"),
    ("lengthPull", "forall 'a. ['a] -> int"),
    ("lengthPush", "forall <l> 'a. ['a]<l> -> int"),
    ("generate", "forall 'a. int -> (int -> 'a) -> ['a]"),
    ("mapPull", "forall 'a 'b. ('a -> 'b) -> ['a] -> ['b]"),
    (
        "mapPush",
        "forall <l> 'a 'b. (int -> 'a -> 'b) -> ['a]<l> -> ['b]<l>",
    ),
    ("push", "forall <l> 'a. ['a] -> ['a]<l>"),
    ("force", "forall <l> 'a. ['a]<l> -> Program <l> ['a]"),
    ("return", "forall <l> 'a. 'a -> Program <l> 'a"),
    (
        "bind",
        "forall <l> 'a 'b. Program <l> 'a -> ('a -> Program <l> 'b) -> Program <l> 'b",
    ),
    (
        "interleave",
        "forall <l> 'a. int -> ((int, int) -> int) -> [Program <l> ['a]<l>] -> Program <1+l> ['a]<1+l>",
    ),
    (
        "interleaveSeq",
        "forall <l> 'a. int -> ((int, int) -> int) -> [Program <l> ['a]<l>] -> Program <l> ['a]<l>",
    ),
    (
        "seqfor",
        "forall 'a. int -> int -> ((int -> 'a) -> int -> (int, 'a)) -> ['a]<thread>",
    ),
    (
        "power",
        "forall <l> 'a. int -> (int -> ['a] -> Program <l> ['a]<l>) -> Program <l> ['a]<l> -> Program <l> ['a]",
    ),
    (
        "while",
        "forall <l> 'a. (['a] -> bool) -> (['a] -> Program <l> ['a]<l>) -> Program <l> ['a]<l> -> Program <l> ['a]",
    ),
    ("#BlockSize", "int"),
    ("readIntCSV", "string -> Program <grid> [int]"),
    // TAIL's `nowi` (docs/fcl-extensions.md §9)
    ("nowMs", "int -> Program <grid> int"),
    ("forceAndPrint", "int -> [int]<grid> -> Program <grid> [int]"),
    (
        "forceAndPrintDouble",
        "int -> [double]<grid> -> Program <grid> [double]",
    ),
    (
        "forceAndPrintDoubleExact",
        "int -> [double]<grid> -> Program <grid> [double]",
    ),
    (
        "benchmark",
        "forall 'a. int -> Program <grid> 'a -> Program <grid> unit",
    ),
];

/// The thesis's names (spec §4.5) and the [O] built-in each one means.
pub const THESIS_ALIASES: &[(&str, &str)] = &[
    ("length", "lengthPull"),
    ("map", "mapPull"),
    ("min", "mini"),
    ("max", "maxi"),
    ("poweri", "power"),
    ("mapPushIx", "mapPush"),
];

/// The [O] built-in a name denotes, if it is a built-in or an alias of one.
pub fn canonical(name: &str) -> Option<&'static str> {
    if let Some((_, o)) = THESIS_ALIASES.iter().find(|(t, _)| *t == name) {
        return Some(o);
    }
    BUILTINS.iter().find(|(n, _)| *n == name).map(|(n, _)| *n)
}

/// Every built-in name (aliases included) with its scheme.
pub fn environment() -> Vec<(String, Scheme)> {
    let mut out = Vec::new();
    for (name, src) in BUILTINS {
        out.push((name.to_string(), scheme_of(src)));
    }
    for (alias, orig) in THESIS_ALIASES {
        let src = BUILTINS
            .iter()
            .find(|(n, _)| n == orig)
            .map(|(_, s)| *s)
            .unwrap_or("unit");
        out.push((alias.to_string(), scheme_of(src)));
    }
    out
}

/// [`environment`], built once per process.
pub fn shared_environment() -> &'static [(String, Scheme)] {
    static ENV: std::sync::OnceLock<Vec<(String, Scheme)>> = std::sync::OnceLock::new();
    ENV.get_or_init(environment)
}

fn scheme_of(src: &str) -> Scheme {
    // The table above is fixed text that the tests parse; a failure here is a bug in the table.
    let parsed = parse_scheme(src).expect("built-in scheme parses");
    closed_scheme(&parsed).expect("built-in scheme is closed")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_scheme_parses_and_prints() {
        let env = environment();
        assert_eq!(env.len(), BUILTINS.len() + THESIS_ALIASES.len());
        let fst = &env[0].1;
        assert_eq!(fst.render(), "forall 'a 'b. ('a, 'b) -> 'a");
        let push = env.iter().find(|(n, _)| n == "interleave").unwrap();
        assert_eq!(push.1.levels, vec![0]);
        assert_eq!(canonical("map"), Some("mapPull"));
        assert_eq!(canonical("nope"), None);
    }
}
