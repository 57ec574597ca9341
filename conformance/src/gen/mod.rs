//! Program generators: type- and shape-directed random FCL programs, built as an AST this crate
//! owns ([`fcl_ast`]) and printed as source ([`fcl_print`]) so failures are readable and replay
//! through the normal front end.

pub mod fcl_ast;
pub mod fcl_gen;
pub mod fcl_print;
pub mod rng;
pub mod subset;
pub mod tail_gen;

pub use fcl_ast::FclProgram;
pub use fcl_gen::{generate_fcl, FclConfig};
pub use fcl_print::print_program;
pub use rng::Rng;
pub use subset::{fcl_config, SUBSETS};

/// `quickcheck` integration: an arbitrary program of the default configuration, seeded from the
/// quickcheck generator, shrinking with [`crate::shrink`].
impl quickcheck::Arbitrary for FclProgram {
    fn arbitrary(g: &mut quickcheck::Gen) -> FclProgram {
        let seed = u64::arbitrary(g);
        generate_fcl(&mut Rng::new(seed), &FclConfig::default())
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = FclProgram>> {
        Box::new(crate::shrink::fcl::candidates(self).into_iter())
    }
}
