//! Types, levels and type schemes of FCL as the type checker sees them ([T] §5.3.1, rules
//! 5.1–5.12), and their printing in the `check` format of docs/fcl.md §6.

use super::kinds::KindReq;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

/// A level `δ | Z | 1+l`, kept as a base (zero or a variable) under `succs` applications of `1+`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Level {
    /// `None` is `Z` (thread); `Some(n)` is the level variable `l<n>`.
    pub var: Option<u32>,
    /// How many `1+` are applied.
    pub succs: u32,
}

impl Level {
    /// `thread`.
    pub const THREAD: Level = Level {
        var: None,
        succs: 0,
    };
    /// `block`.
    pub const BLOCK: Level = Level {
        var: None,
        succs: 1,
    };
    /// `grid`.
    pub const GRID: Level = Level {
        var: None,
        succs: 2,
    };

    /// The level variable `l<n>`.
    pub fn var(n: u32) -> Level {
        Level {
            var: Some(n),
            succs: 0,
        }
    }

    /// `1+self`.
    pub fn succ(self) -> Level {
        Level {
            var: self.var,
            succs: self.succs + 1,
        }
    }

    /// Replaces the level variable (if any) by its image under `s`.
    pub fn subst(self, s: &BTreeMap<u32, Level>) -> Level {
        match self.var.and_then(|v| s.get(&v)) {
            Some(img) => Level {
                var: img.var,
                succs: img.succs + self.succs,
            },
            None => self,
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.var {
            None => {
                let extra = self.succs.saturating_sub(2);
                for _ in 0..extra {
                    write!(f, "1+")?;
                }
                match self.succs {
                    0 => write!(f, "thread"),
                    1 => write!(f, "block"),
                    _ => write!(f, "grid"),
                }
            }
            Some(v) => {
                for _ in 0..self.succs {
                    write!(f, "1+")?;
                }
                write!(f, "l{v}")
            }
        }
    }
}

/// A type (rules 5.1–5.12). Type variables are numbered inference variables.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Type {
    Int,
    Double,
    Bool,
    Str,
    Unit,
    Var(u32),
    Fun(Arc<Type>, Arc<Type>),
    Pair(Arc<Type>, Arc<Type>),
    /// `[τ]`.
    Pull(Arc<Type>),
    /// `[bt]<l>`.
    Push(Arc<Type>, Level),
    /// `Program<l> τ`.
    Program(Level, Arc<Type>),
}

impl Type {
    /// `a -> b`.
    pub fn fun(a: Type, b: Type) -> Type {
        Type::Fun(Arc::new(a), Arc::new(b))
    }
    /// `(a, b)`.
    pub fn pair(a: Type, b: Type) -> Type {
        Type::Pair(Arc::new(a), Arc::new(b))
    }
    /// `[a]`.
    pub fn pull(a: Type) -> Type {
        Type::Pull(Arc::new(a))
    }
    /// `[a]<l>`.
    pub fn push(a: Type, l: Level) -> Type {
        Type::Push(Arc::new(a), l)
    }
    /// `Program<l> a`.
    pub fn program(l: Level, a: Type) -> Type {
        Type::Program(l, Arc::new(a))
    }

    /// Type variables in order of first occurrence (left to right).
    pub fn free_vars(&self, out: &mut Vec<u32>) {
        match self {
            Type::Var(v) if !out.contains(v) => out.push(*v),
            Type::Fun(a, b) | Type::Pair(a, b) => {
                a.free_vars(out);
                b.free_vars(out);
            }
            Type::Pull(a) | Type::Push(a, _) | Type::Program(_, a) => a.free_vars(out),
            _ => {}
        }
    }

    /// Level variables in order of first occurrence.
    pub fn level_vars(&self, out: &mut Vec<u32>) {
        let mut add = |l: &Level| {
            if let Some(v) = l.var {
                if !out.contains(&v) {
                    out.push(v)
                }
            }
        };
        match self {
            Type::Push(a, l) | Type::Program(l, a) => {
                add(l);
                a.level_vars(out);
            }
            Type::Fun(a, b) | Type::Pair(a, b) => {
                a.level_vars(out);
                b.level_vars(out);
            }
            Type::Pull(a) => a.level_vars(out),
            _ => {}
        }
    }

    /// Applies a substitution of type variables and one of level variables simultaneously.
    pub fn subst(&self, tys: &BTreeMap<u32, Type>, lvls: &BTreeMap<u32, Level>) -> Type {
        match self {
            Type::Var(v) => tys.get(v).cloned().unwrap_or(Type::Var(*v)),
            Type::Fun(a, b) => Type::fun(a.subst(tys, lvls), b.subst(tys, lvls)),
            Type::Pair(a, b) => Type::pair(a.subst(tys, lvls), b.subst(tys, lvls)),
            Type::Pull(a) => Type::pull(a.subst(tys, lvls)),
            Type::Push(a, l) => Type::push(a.subst(tys, lvls), l.subst(lvls)),
            Type::Program(l, a) => Type::program(l.subst(lvls), a.subst(tys, lvls)),
            t => t.clone(),
        }
    }

    /// Prints the type with a naming for its type variables (unnamed ones print as `'tvN`).
    pub fn display<'a>(&'a self, names: &'a BTreeMap<u32, String>) -> TypeDisplay<'a> {
        TypeDisplay { ty: self, names }
    }
}

/// A type printed in the §6 format under a variable naming.
pub struct TypeDisplay<'a> {
    ty: &'a Type,
    names: &'a BTreeMap<u32, String>,
}

impl TypeDisplay<'_> {
    fn sub<'b>(&'b self, ty: &'b Type) -> TypeDisplay<'b> {
        TypeDisplay {
            ty,
            names: self.names,
        }
    }
}

impl fmt::Display for TypeDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.ty {
            Type::Int => write!(f, "int"),
            Type::Double => write!(f, "double"),
            Type::Bool => write!(f, "bool"),
            Type::Str => write!(f, "string"),
            Type::Unit => write!(f, "()"),
            Type::Var(v) => match self.names.get(v) {
                Some(n) => write!(f, "{n}"),
                None => write!(f, "'tv{v}"),
            },
            Type::Fun(a, b) => {
                if matches!(**a, Type::Fun(..)) {
                    write!(f, "({}) -> {}", self.sub(a), self.sub(b))
                } else {
                    write!(f, "{} -> {}", self.sub(a), self.sub(b))
                }
            }
            Type::Pair(a, b) => write!(f, "({}, {})", self.sub(a), self.sub(b)),
            Type::Pull(a) => write!(f, "[{}]", self.sub(a)),
            Type::Push(a, l) => write!(f, "[{}]<{l}>", self.sub(a)),
            Type::Program(l, a) => {
                if matches!(**a, Type::Fun(..)) {
                    write!(f, "Program <{l}> ({})", self.sub(a))
                } else {
                    write!(f, "Program <{l}> {}", self.sub(a))
                }
            }
        }
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.display(&BTreeMap::new()))
    }
}

/// A type scheme `∀⟨δ⃗⟩ α⃗:κ⃗. τ`: quantified type variables (in order), level parameters, and
/// the kinds of the type variables that are narrower than TYP (`kinds`, [T] 5.22).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scheme {
    pub tyvars: Vec<u32>,
    pub levels: Vec<u32>,
    pub ty: Type,
    /// Kind constraints by quantified variable; a variable not listed has kind TYP. Not printed
    /// (`check` prints schemes as the original compiler does).
    pub kinds: BTreeMap<u32, KindReq>,
}

impl Scheme {
    /// A scheme with no quantifiers.
    pub fn mono(ty: Type) -> Scheme {
        Scheme {
            tyvars: Vec::new(),
            levels: Vec::new(),
            ty,
            kinds: BTreeMap::new(),
        }
    }

    /// The name the printer gives the i-th quantified type variable: `'a`…`'z`, `'a0`, `'a1`, ….
    pub fn var_name(i: usize) -> String {
        if i < 26 {
            format!("'{}", (b'a' + i as u8) as char)
        } else {
            format!("'a{}", i - 26)
        }
    }

    /// The printed scheme (docs/fcl.md §6), including the line-break quirk for two or more
    /// level parameters on a line longer than 32 characters.
    pub fn render(&self) -> String {
        let names: BTreeMap<u32, String> = self
            .tyvars
            .iter()
            .enumerate()
            .map(|(i, v)| (*v, Scheme::var_name(i)))
            .collect();
        let body = self.ty.display(&names).to_string();
        if self.tyvars.is_empty() && self.levels.is_empty() {
            return body;
        }
        // "forall " + the type variables joined by spaces, so that a scheme with level
        // parameters only gets two spaces: `forall  <l0>.` (spec §6).
        let vars: Vec<String> = (0..self.tyvars.len()).map(Scheme::var_name).collect();
        let vars = vars.join(" ");
        let lvls: Vec<String> = self.levels.iter().map(|l| format!("l{l}")).collect();
        let one_line = |sep: &str| {
            if lvls.is_empty() {
                format!("forall {vars}. {body}")
            } else {
                format!("forall {vars} <{}>. {body}", lvls.join(sep))
            }
        };
        let line = one_line(",");
        if self.levels.len() >= 2 && line.chars().count() > 32 {
            one_line(",\n")
        } else {
            line
        }
    }
}

impl fmt::Display for Scheme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.render())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scheme_printing_quirks() {
        let s = Scheme {
            tyvars: vec![],
            levels: vec![0],
            ty: Type::fun(Type::Int, Type::program(Level::var(0), Type::Int)),
            kinds: BTreeMap::new(),
        };
        assert_eq!(s.render(), "forall  <l0>. int -> Program <l0> int");
        let g = Scheme {
            tyvars: vec![7],
            levels: vec![2, 3],
            ty: Type::fun(Type::Var(7), Type::pair(Type::Var(7), Type::Int)),
            kinds: BTreeMap::new(),
        };
        assert_eq!(g.render(), "forall 'a <l2,\nl3>. 'a -> ('a, int)");
        let f = Scheme {
            tyvars: vec![1],
            levels: vec![0, 1],
            ty: Type::fun(Type::Var(1), Type::Int),
            kinds: BTreeMap::new(),
        };
        assert_eq!(f.render(), "forall 'a <l0,l1>. 'a -> int");
        assert_eq!(Level::GRID.succ().to_string(), "1+grid");
        assert_eq!(Level::var(3).succ().to_string(), "1+l3");
        assert_eq!(Type::Unit.to_string(), "()");
    }
}
