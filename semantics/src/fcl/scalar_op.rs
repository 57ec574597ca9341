//! The scalar built-ins of the FCL core (docs/fcl.md §4.1/§4.2, and the extension for TAIL in
//! docs/fcl-extensions.md): names, argument and result types.

use super::core::Type;

/// Scalar primitive operations (spec §4.1/§4.2); all cost 1 at run time (5.72, 5.73, "…").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScalarOp {
    AddI,
    SubI,
    MulI,
    DivI,
    ModI,
    MinI,
    MaxI,
    PowI,
    AndI,
    OrI,
    Xor,
    Sll,
    Srl,
    EqI,
    NeqI,
    LtI,
    AbsI,
    SignI,
    Clz,
    NegateI,
    I2D,
    B2I,
    AddD,
    SubD,
    MulD,
    DivD,
    NegateD,
    // The extension for TAIL (docs/fcl-extensions.md).
    PowD,
    MaxD,
    MinD,
    NegD,
    AbsD,
    ExpD,
    LogD,
    SqrtD,
    SinD,
    CosD,
    TanD,
    AsinD,
    AcosD,
    AtanD,
    SinhD,
    CoshD,
    TanhD,
    FloorD,
    CeilD,
    SignD,
    LtD,
    LeD,
    GtD,
    GeD,
    EqD,
    AndB,
    OrB,
    XorB,
    EqB,
    NotB,
    /// `checki site bad x`: x, or the failure of check site `site` when `bad` (the TAIL
    /// lowering's run-time checks, docs/fcl-extensions.md §7).
    CheckI,
    /// `addiChecked site a b`: a + b, or the failure of check site `site` when it overflows
    /// (each operand evaluated once, where `checki` would name it twice).
    AddIChecked,
    /// `subiChecked site a b`: a − b, checked like `addiChecked`.
    SubIChecked,
    /// `muliChecked site a b`: a · b, checked like `addiChecked`.
    MulIChecked,
    /// `doubleHiBits x`: the upper 32 bits of x's IEEE 754 binary64 encoding, as an int (the
    /// TAIL lowering's radix sort of doubles, docs/fcl-extensions.md §1).
    DoubleHiBits,
    /// `doubleLoBits x`: the lower 32 bits of x's encoding, as an int.
    DoubleLoBits,
    /// `rollAt site k n`: draw `k` of TAIL `roll` call site `site`, scaled by bound `n`
    /// (`crate::tail::ops::io::roll_at`; docs/fcl-extensions.md §8).
    RollAt,
}

impl ScalarOp {
    /// Every scalar operation, for tables and generators.
    pub const ALL: [ScalarOp; 64] = [
        ScalarOp::AddI,
        ScalarOp::SubI,
        ScalarOp::MulI,
        ScalarOp::DivI,
        ScalarOp::ModI,
        ScalarOp::MinI,
        ScalarOp::MaxI,
        ScalarOp::PowI,
        ScalarOp::AndI,
        ScalarOp::OrI,
        ScalarOp::Xor,
        ScalarOp::Sll,
        ScalarOp::Srl,
        ScalarOp::EqI,
        ScalarOp::NeqI,
        ScalarOp::LtI,
        ScalarOp::AbsI,
        ScalarOp::SignI,
        ScalarOp::Clz,
        ScalarOp::NegateI,
        ScalarOp::I2D,
        ScalarOp::B2I,
        ScalarOp::AddD,
        ScalarOp::SubD,
        ScalarOp::MulD,
        ScalarOp::DivD,
        ScalarOp::NegateD,
        ScalarOp::PowD,
        ScalarOp::MaxD,
        ScalarOp::MinD,
        ScalarOp::NegD,
        ScalarOp::AbsD,
        ScalarOp::ExpD,
        ScalarOp::LogD,
        ScalarOp::SqrtD,
        ScalarOp::SinD,
        ScalarOp::CosD,
        ScalarOp::TanD,
        ScalarOp::AsinD,
        ScalarOp::AcosD,
        ScalarOp::AtanD,
        ScalarOp::SinhD,
        ScalarOp::CoshD,
        ScalarOp::TanhD,
        ScalarOp::FloorD,
        ScalarOp::CeilD,
        ScalarOp::SignD,
        ScalarOp::LtD,
        ScalarOp::LeD,
        ScalarOp::GtD,
        ScalarOp::GeD,
        ScalarOp::EqD,
        ScalarOp::AndB,
        ScalarOp::OrB,
        ScalarOp::XorB,
        ScalarOp::EqB,
        ScalarOp::NotB,
        ScalarOp::CheckI,
        ScalarOp::AddIChecked,
        ScalarOp::SubIChecked,
        ScalarOp::MulIChecked,
        ScalarOp::DoubleHiBits,
        ScalarOp::DoubleLoBits,
        ScalarOp::RollAt,
    ];

    /// The built-in's source name (`addi`, `i2d`, …).
    pub fn name(self) -> &'static str {
        use ScalarOp::*;
        match self {
            AddI => "addi",
            SubI => "subi",
            MulI => "muli",
            DivI => "divi",
            ModI => "modi",
            MinI => "mini",
            MaxI => "maxi",
            PowI => "powi",
            AndI => "andi",
            OrI => "ori",
            Xor => "xor",
            Sll => "sll",
            Srl => "srl",
            EqI => "eqi",
            NeqI => "neqi",
            LtI => "lti",
            AbsI => "absi",
            SignI => "signi",
            Clz => "clz",
            NegateI => "negatei",
            I2D => "i2d",
            B2I => "b2i",
            AddD => "addd",
            SubD => "subd",
            MulD => "muld",
            DivD => "divd",
            NegateD => "negated",
            PowD => "powd",
            MaxD => "maxd",
            MinD => "mind",
            NegD => "negd",
            AbsD => "absd",
            ExpD => "expd",
            LogD => "logd",
            SqrtD => "sqrtd",
            SinD => "sind",
            CosD => "cosd",
            TanD => "tand",
            AsinD => "asind",
            AcosD => "acosd",
            AtanD => "atand",
            SinhD => "sinhd",
            CoshD => "coshd",
            TanhD => "tanhd",
            FloorD => "floord",
            CeilD => "ceild",
            SignD => "signd",
            LtD => "ltd",
            LeD => "led",
            GtD => "gtd",
            GeD => "ged",
            EqD => "eqd",
            AndB => "andb",
            OrB => "orb",
            XorB => "xorb",
            EqB => "eqb",
            NotB => "notb",
            CheckI => "checki",
            AddIChecked => "addiChecked",
            SubIChecked => "subiChecked",
            MulIChecked => "muliChecked",
            DoubleHiBits => "doubleHiBits",
            DoubleLoBits => "doubleLoBits",
            RollAt => "rollAt",
        }
    }

    /// The operation with this source name.
    pub fn from_name(name: &str) -> Option<ScalarOp> {
        ScalarOp::ALL.iter().copied().find(|o| o.name() == name)
    }

    /// Argument types and result type.
    pub fn signature(self) -> (&'static [Type], Type) {
        use ScalarOp::*;
        const II: &[Type] = &[Type::Int, Type::Int];
        const I: &[Type] = &[Type::Int];
        const DD: &[Type] = &[Type::Double, Type::Double];
        const D: &[Type] = &[Type::Double];
        const B: &[Type] = &[Type::Bool];
        const BB: &[Type] = &[Type::Bool, Type::Bool];
        match self {
            AddI | SubI | MulI | DivI | ModI | MinI | MaxI | PowI | AndI | OrI | Xor | Sll
            | Srl => (II, Type::Int),
            EqI | NeqI | LtI => (II, Type::Bool),
            AbsI | SignI | Clz | NegateI => (I, Type::Int),
            I2D => (I, Type::Double),
            B2I => (B, Type::Int),
            AddD | SubD | MulD | DivD => (DD, Type::Double),
            NegateD => (D, Type::Double),
            PowD | MaxD | MinD => (DD, Type::Double),
            NegD | AbsD | ExpD | LogD | SqrtD | SinD | CosD | TanD | AsinD | AcosD | AtanD
            | SinhD | CoshD | TanhD => (D, Type::Double),
            FloorD | CeilD | SignD | DoubleHiBits | DoubleLoBits => (D, Type::Int),
            LtD | LeD | GtD | GeD | EqD => (DD, Type::Bool),
            AndB | OrB | XorB | EqB => (BB, Type::Bool),
            NotB => (B, Type::Bool),
            CheckI => (&[Type::Int, Type::Bool, Type::Int], Type::Int),
            AddIChecked | SubIChecked | MulIChecked => {
                (&[Type::Int, Type::Int, Type::Int], Type::Int)
            }
            RollAt => (&[Type::Int, Type::Int, Type::Int], Type::Double),
        }
    }
}
