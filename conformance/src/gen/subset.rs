//! Generator subsets: dialects of FCL a campaign can be limited to (`--subset NAME`), so that a
//! campaign against a compiler that implements less than this project's FCL is not all
//! rejections. A subset is a name, a one-line description and a function that turns features
//! of [`FclConfig`] off; to add one, add an entry to [`SUBSETS`] (and a line to the docs'
//! list in docs/external-engines.md).

use super::fcl_gen::FclConfig;

/// One subset.
pub struct Subset {
    pub name: &'static str,
    pub about: &'static str,
    apply: fn(&mut FclConfig),
}

/// Every subset, the default first.
pub const SUBSETS: &[Subset] = &[
    Subset {
        name: "full",
        about: "everything the generator makes (the default)",
        apply: |_| {},
    },
    Subset {
        name: "original-fcl",
        about: "what the original FCL compiler compiles: no push<grid> forced or returned \
                directly at grid level, no lengthPush, no power<grid> or while<grid>, none of \
                this project's extension built-ins",
        apply: original_fcl,
    },
];

/// The generator's configuration for subset `name` (`None`: the default, `full`), or why not.
pub fn fcl_config(name: Option<&str>) -> Result<FclConfig, String> {
    let name = name.unwrap_or("full");
    let Some(subset) = SUBSETS.iter().find(|s| s.name == name) else {
        let known: Vec<&str> = SUBSETS.iter().map(|s| s.name).collect();
        return Err(format!(
            "unknown subset `{name}` (known: {})",
            known.join(", ")
        ));
    };
    let mut config = FclConfig::default();
    (subset.apply)(&mut config);
    Ok(config)
}

/// The original compiler's FCL (spec §4.6 lists what its back end rejects). The generator uses
/// none of the extension built-ins (docs/fcl-extensions.md: all are on doubles and booleans,
/// and generated programs compute on `int`s), so only the constructs below are turned off.
fn original_fcl(c: &mut FclConfig) {
    // `force<grid> (push<grid> a)`: "parfor<grid>: Not supported yet"; grid arrays must come
    // from an interleave
    c.weights.grid_push = 0;
    // `lengthPush` has no implementation ("Undefined variable")
    c.weights.length_push_percent = 0;
    // `power<grid>`/`while<grid>` end in `return<grid> (push<grid> y)`, forced by the print;
    // and a `while<grid>` condition runs on the host, where the generated one cannot read
    // element 0
    c.weights.grid_loops = false;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gen::{generate_fcl, print_program, Rng};

    #[test]
    fn original_fcl_programs_avoid_what_the_original_rejects() {
        let config = fcl_config(Some("original-fcl")).unwrap();
        for seed in 0..200 {
            let src = print_program(&generate_fcl(&mut Rng::new(seed), &config));
            assert!(!src.contains("lengthPush"), "seed {seed}:\n{src}");
            assert!(!src.contains("while<grid>"), "seed {seed}:\n{src}");
            assert!(
                !src.contains("force<grid> (push<grid>"),
                "seed {seed}:\n{src}"
            );
            assert!(
                !src.contains("return<grid> (push<grid>"),
                "seed {seed}:\n{src}"
            );
        }
    }

    #[test]
    fn full_is_the_default_and_unknown_names_are_refused() {
        let a = print_program(&generate_fcl(&mut Rng::new(5), &fcl_config(None).unwrap()));
        let b = print_program(&generate_fcl(&mut Rng::new(5), &FclConfig::default()));
        assert_eq!(a, b);
        assert!(fcl_config(Some("nope"))
            .unwrap_err()
            .contains("original-fcl"));
    }
}
