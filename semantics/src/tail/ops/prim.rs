//! The operators by meaning: [`Prim`] is what the stepper dispatches on. Every name of spec §5.0
//! maps to one `Prim`; a V-variant (`takeV`, `eachV`, ...) maps to the `Prim` of its base
//! operator, because V operators evaluate exactly like the base operator (spec §5.0).

macro_rules! prims {
    ($( $variant:ident = $name:literal / $arity:literal $(| $vname:literal)? ; )*) => {
        /// An operator's meaning (one per base operator of spec §5.0).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Prim {
            $( $variant, )*
        }

        impl Prim {
            /// The operator of a TAIL name (V-variants give their base operator).
            pub fn from_name(name: &str) -> Option<Prim> {
                match name {
                    $( $name $(| $vname)? => Some(Prim::$variant), )*
                    _ => None,
                }
            }

            /// The base operator's name.
            pub fn name(self) -> &'static str {
                match self {
                    $( Prim::$variant => $name, )*
                }
            }

            /// Number of arguments.
            pub fn arity(self) -> usize {
                match self {
                    $( Prim::$variant => $arity, )*
                }
            }
        }

        /// Every TAIL operator name (base and V spellings), for tests and tools.
        pub const ALL_NAMES: &[&str] = &[ $( $name, $($vname,)? )* ];
    };
}

prims! {
    // §5.1 integers
    Addi = "addi"/2; Subi = "subi"/2; Muli = "muli"/2; Divi = "divi"/2; Mod = "mod"/2;
    Resi = "resi"/2; Maxi = "maxi"/2; Mini = "mini"/2; Andi = "andi"/2; Ori = "ori"/2;
    Xori = "xori"/2; Shli = "shli"/2; Shri = "shri"/2; Shari = "shari"/2;
    Negi = "negi"/1; Absi = "absi"/1; Signi = "signi"/1; Noti = "noti"/1;
    Lti = "lti"/2; Ltei = "ltei"/2; Eqi = "eqi"/2; Gti = "gti"/2; Gtei = "gtei"/2;
    // §5.2 doubles
    Addd = "addd"/2; Subd = "subd"/2; Muld = "muld"/2; Divd = "divd"/2; Powd = "powd"/2;
    Maxd = "maxd"/2; Mind = "mind"/2; Resd = "resd"/2;
    Negd = "negd"/1; Absd = "absd"/1; Expd = "expd"/1; Ln = "ln"/1; Sin = "sin"/1;
    Cos = "cos"/1; Tan = "tan"/1; Asin = "asin"/1; Acos = "acos"/1; Atan = "atan"/1;
    Sinh = "sinh"/1; Cosh = "cosh"/1; Tanh = "tanh"/1;
    Signd = "signd"/1; Floor = "floor"/1; Ceil = "ceil"/1;
    Ltd = "ltd"/2; Lted = "lted"/2; Gtd = "gtd"/2; Gted = "gted"/2; Eqd = "eqd"/2;
    // §5.3 complex
    Addx = "addx"/2; Subx = "subx"/2; Mulx = "mulx"/2; Injx = "injx"/2;
    Rex = "rex"/1; Imx = "imx"/1; Negx = "negx"/1; Conjx = "conjx"/1; Expx = "expx"/1;
    Magnx = "magnx"/1;
    // §5.4 booleans, §5.5 characters
    Andb = "andb"/2; Orb = "orb"/2; Nandb = "nandb"/2; Norb = "norb"/2; Eqb = "eqb"/2;
    Xorb = "xorb"/2; Notb = "notb"/1;
    Eqc = "eqc"/2; Ltc = "ltc"/2; Ltec = "ltec"/2; Gtc = "gtc"/2; Gtec = "gtec"/2;
    // §5.6 conversions, §5.7 nullary
    I2d = "i2d"/1; B2i = "b2i"/1 | "b2iV"; D2x = "d2x"/1;
    Zilde = "zilde"/0; Pi = "pi"/0;
    // §5.8 shape and structure
    Iota = "iota"/1 | "iotaV"; Shape = "shape"/1 | "shapeV"; Reshape = "reshape"/2;
    Rav = "rav"/1; Take = "take"/2 | "takeV"; Drop = "drop"/2 | "dropV";
    Cat = "cat"/2 | "catV"; Cons = "cons"/2 | "consV"; Snoc = "snoc"/2 | "snocV";
    First = "first"/1 | "firstV"; Rotate = "rotate"/2 | "rotateV";
    Vrotate = "vrotate"/2 | "vrotateV"; Vreverse = "vreverse"/1 | "vreverseV";
    Transp = "transp"/1; Transp2 = "transp2"/2;
    // §5.9 higher-order
    Each = "each"/2 | "eachV"; ZipWith = "zipWith"/3; Reduce = "reduce"/3; Scan = "scan"/3;
    Power = "power"/3; PowerScl = "powerScl"/3; CondScl = "condScl"/3; Bench = "bench"/3;
    // §5.10 selection, §5.11 mutation
    Compress = "compress"/2; Replicate = "replicate"/3; IdxS = "idxS"/3;
    GradeUp = "gradeUp"/1; GradeDown = "gradeDown"/1; Idxassign = "idxassign"/3;
    // §5.12 output and formatting
    PrArrI = "prArrI"/1; PrArrB = "prArrB"/1; PrArrD = "prArrD"/1; PrArrC = "prArrC"/1;
    PrArrX = "prArrX"/1; PrSclI = "prSclI"/1; PrSclB = "prSclB"/1; PrSclD = "prSclD"/1;
    PrSclC = "prSclC"/1; PrSclX = "prSclX"/1;
    FormatI = "formatI"/1; FormatD = "formatD"/1; FormatX = "formatX"/1;
    // §5.13 I/O and miscellaneous
    ReadFile = "readFile"/1; ReadIntVecFile = "readIntVecFile"/1;
    ReadDoubleVecFile = "readDoubleVecFile"/1;
    Roll = "roll"/1; Nowi = "nowi"/1; Mem = "mem"/1; MemScl = "memScl"/1;
}

impl Prim {
    /// Operators whose first argument is a function (applied by the stepper, spec §5.9).
    pub fn is_higher_order(self) -> bool {
        matches!(
            self,
            Prim::Each
                | Prim::ZipWith
                | Prim::Reduce
                | Prim::Scan
                | Prim::Power
                | Prim::PowerScl
                | Prim::CondScl
                | Prim::Bench
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_round_trips_and_v_forms_share_meaning() {
        assert_eq!(ALL_NAMES.len(), 141, "spec §5.0 lists 141 names");
        for n in ALL_NAMES {
            let p = Prim::from_name(n).unwrap();
            assert!(n.starts_with(p.name()));
        }
        assert_eq!(Prim::from_name("takeV"), Some(Prim::Take));
        assert_eq!(Prim::from_name("reverse"), None);
        assert_eq!(Prim::ZipWith.arity(), 3);
    }
}
