//! Type synthesis for monomorphic core terms: the type of every node follows from the parameter
//! types on `Lam`/`Let` and the built-ins' monomorphic signatures (spec §4.1 with levels resolved).
//! The compiler can use it to type the nodes it lowers; the oracle's tests use it to check that
//! lowered programs are well typed before they run (type soundness, Figure 5.9 at the end).

use super::core::{Builtin, Expr, ExprKind, Level, Name, Type};
use crate::{Diagnostic, Span};

/// The deepest nesting [`type_of`] follows before it reports a diagnostic: past what the parser
/// accepts (an `if` chain of `parser::MAX_IF_CHAIN` links is as many nested nodes).
pub const MAX_DEPTH: usize = 50_000;

/// The type of a closed core term, or the first node that is ill typed.
pub fn type_of(e: &Expr) -> Result<Type, Diagnostic> {
    Checker { vars: Vec::new() }.synth(e, 0)
}

struct Checker {
    vars: Vec<(Name, Type)>,
}

fn err<T>(span: Span, msg: impl Into<String>) -> Result<T, Diagnostic> {
    Err(Diagnostic::type_error(span, msg))
}

/// `got` must be `want`.
fn expect(span: Span, what: &str, want: &Type, got: &Type) -> Result<(), Diagnostic> {
    if want == got {
        Ok(())
    } else {
        err(span, format!("{what}: expected {want}, found {got}"))
    }
}

fn fun(span: Span, t: &Type) -> Result<(&Type, &Type), Diagnostic> {
    match t {
        Type::Fun(a, b) => Ok((a, b)),
        _ => err(span, format!("expected a function, found {t}")),
    }
}

fn pull(span: Span, t: &Type) -> Result<&Type, Diagnostic> {
    match t {
        Type::Pull(a) => Ok(a),
        _ => err(span, format!("expected a pull array, found {t}")),
    }
}

fn push_at(span: Span, t: &Type, l: Level) -> Result<&Type, Diagnostic> {
    match t {
        Type::Push(a, m) if *m == l => Ok(a),
        _ => err(
            span,
            format!("expected a push array at level {l}, found {t}"),
        ),
    }
}

fn program_at(span: Span, t: &Type, l: Level) -> Result<&Type, Diagnostic> {
    match t {
        Type::Program(m, a) if *m == l => Ok(a),
        _ => err(span, format!("expected a Program<{l}>, found {t}")),
    }
}

impl Checker {
    fn synth(&mut self, e: &Expr, depth: usize) -> Result<Type, Diagnostic> {
        if depth > MAX_DEPTH {
            return err(e.span, format!("term nested deeper than {MAX_DEPTH}"));
        }
        let d = depth + 1;
        let s = e.span;
        Ok(match &e.kind {
            ExprKind::Var(x) => match self.vars.iter().rev().find(|(y, _)| y == x) {
                Some((_, t)) => t.clone(),
                None => return err(s, format!("unbound variable `{x}`")),
            },
            ExprKind::Int(_) => Type::Int,
            ExprKind::Double(_) => Type::Double,
            ExprKind::Bool(_) => Type::Bool,
            ExprKind::Str(_) => Type::Str,
            ExprKind::Unit => Type::Unit,
            ExprKind::Lam {
                param,
                param_ty,
                body,
            } => {
                self.vars.push((param.clone(), param_ty.clone()));
                let body = self.synth(body, d);
                self.vars.pop();
                Type::fun(param_ty.clone(), body?)
            }
            ExprKind::App(f, a) => {
                let tf = self.synth(f, d)?;
                let ta = self.synth(a, d)?;
                let (x, r) = fun(s, &tf)?;
                expect(a.span, "argument", x, &ta)?;
                r.clone()
            }
            ExprKind::Let {
                name,
                ty,
                bound,
                body,
            } => {
                let tb = self.synth(bound, d)?;
                expect(bound.span, "let-bound expression", ty, &tb)?;
                self.vars.push((name.clone(), ty.clone()));
                let body = self.synth(body, d);
                self.vars.pop();
                body?
            }
            ExprKind::If(c, t, f) => {
                let tc = self.synth(c, d)?;
                expect(c.span, "condition", &Type::Bool, &tc)?;
                let tt = self.synth(t, d)?;
                let tf = self.synth(f, d)?;
                expect(f.span, "else branch", &tt, &tf)?;
                tt
            }
            ExprKind::Pair(a, b) => Type::pair(self.synth(a, d)?, self.synth(b, d)?),
            ExprKind::Fst(p) | ExprKind::Snd(p) => match self.synth(p, d)? {
                Type::Pair(a, b) => {
                    if matches!(e.kind, ExprKind::Fst(_)) {
                        *a
                    } else {
                        *b
                    }
                }
                t => return err(s, format!("expected a pair, found {t}")),
            },
            ExprKind::Call(b, args) => {
                if args.len() != b.arity() {
                    return err(s, format!("`{}` takes {} arguments", b.name(), b.arity()));
                }
                let ts = args
                    .iter()
                    .map(|a| self.synth(a, d))
                    .collect::<Result<Vec<_>, _>>()?;
                let spans: Vec<Span> = args.iter().map(|a| a.span).collect();
                call_type(*b, &ts, &spans)?
            }
        })
    }
}

/// The result type of a saturated built-in call with argument types `ts` (argument spans `spans`).
pub(crate) fn call_type(b: Builtin, ts: &[Type], spans: &[Span]) -> Result<Type, Diagnostic> {
    let at = |i: usize| spans[i];
    let int = Type::Int;
    Ok(match b {
        Builtin::Scalar(op) => {
            let (params, result) = op.signature();
            for (i, p) in params.iter().enumerate() {
                expect(at(i), op.name(), p, &ts[i])?;
            }
            result
        }
        Builtin::Generate => {
            expect(at(0), "generate size", &int, &ts[0])?;
            let (x, r) = fun(at(1), &ts[1])?;
            expect(at(1), "generate index", &int, x)?;
            Type::pull(r.clone())
        }
        Builtin::Index => {
            expect(at(1), "index", &int, &ts[1])?;
            pull(at(0), &ts[0])?.clone()
        }
        Builtin::LengthPull => {
            pull(at(0), &ts[0])?;
            int
        }
        Builtin::MapPull => {
            let (x, r) = fun(at(0), &ts[0])?;
            expect(at(1), "mapPull array element", x, pull(at(1), &ts[1])?)?;
            Type::pull(r.clone())
        }
        Builtin::Push(l) => Type::push(pull(at(0), &ts[0])?.clone(), l),
        Builtin::Force(l) => Type::program(l, Type::pull(push_at(at(0), &ts[0], l)?.clone())),
        Builtin::Return(l) => Type::program(l, ts[0].clone()),
        Builtin::Bind(l) => {
            let a = program_at(at(0), &ts[0], l)?;
            let (x, r) = fun(at(1), &ts[1])?;
            expect(at(1), "bind continuation", a, x)?;
            program_at(at(1), r, l)?;
            r.clone()
        }
        Builtin::Interleave(l) | Builtin::InterleaveSeq(l) => {
            expect(at(0), "interleave size", &int, &ts[0])?;
            let dest = Type::fun(Type::pair(int.clone(), int.clone()), int.clone());
            expect(at(1), "interleave destination", &dest, &ts[1])?;
            let p = pull(at(2), &ts[2])?;
            let elem = push_at(at(2), program_at(at(2), p, l)?, l)?.clone();
            let out = if matches!(b, Builtin::Interleave(_)) {
                l.succ()
            } else {
                l
            };
            Type::program(out, Type::push(elem, out))
        }
        Builtin::SeqFor => {
            expect(at(0), "seqfor size", &int, &ts[0])?;
            expect(at(1), "seqfor iterations", &int, &ts[1])?;
            let (read, rest) = fun(at(2), &ts[2])?;
            let (_, elem) = fun(at(2), read)?;
            let want = Type::fun(
                read.clone(),
                Type::fun(int.clone(), Type::pair(int.clone(), elem.clone())),
            );
            expect(
                at(2),
                "seqfor step",
                &want,
                &Type::fun(read.clone(), rest.clone()),
            )?;
            Type::push(elem.clone(), Level::THREAD)
        }
        Builtin::MapPush(l) => {
            let (i, rest) = fun(at(0), &ts[0])?;
            expect(at(0), "mapPush index", &int, i)?;
            let (x, r) = fun(at(0), rest)?;
            expect(at(1), "mapPush element", x, push_at(at(1), &ts[1], l)?)?;
            Type::push(r.clone(), l)
        }
        Builtin::LengthPush(l) => {
            push_at(at(0), &ts[0], l)?;
            int
        }
        Builtin::Power(l) | Builtin::PowerI(l) | Builtin::While(l) => {
            let elem = push_at(at(2), program_at(at(2), &ts[2], l)?, l)?.clone();
            let arr = Type::pull(elem.clone());
            let step = Type::fun(arr.clone(), Type::program(l, Type::push(elem, l)));
            let (first, want) = match b {
                Builtin::Power(_) => (int.clone(), step),
                Builtin::PowerI(_) => (int.clone(), Type::fun(int.clone(), step)),
                _ => (Type::fun(arr.clone(), Type::Bool), step),
            };
            expect(at(0), "loop count or condition", &first, &ts[0])?;
            expect(at(1), "loop step", &want, &ts[1])?;
            Type::program(l, arr)
        }
        Builtin::Ifp(l) => {
            expect(at(0), "ifp condition", &Type::Bool, &ts[0])?;
            program_at(at(1), &ts[1], l)?;
            expect(at(2), "ifp branch", &ts[1], &ts[2])?;
            ts[1].clone()
        }
        Builtin::Permute(l) => {
            expect(at(0), "permute destinations", &Type::pull(int), &ts[0])?;
            Type::program(l, Type::pull(push_at(at(1), &ts[1], l)?.clone()))
        }
        Builtin::ForceAndPrint
        | Builtin::ForceAndPrintDouble
        | Builtin::ForceAndPrintDoubleExact => {
            let elem = b.print_format().map_or(Type::Int, |f| f.elem());
            expect(at(0), "print count", &int, &ts[0])?;
            expect(
                at(1),
                "printed array",
                &Type::push(elem.clone(), Level::GRID),
                &ts[1],
            )?;
            Type::program(Level::GRID, Type::pull(elem))
        }
        Builtin::Benchmark => {
            expect(at(0), "benchmark count", &int, &ts[0])?;
            program_at(at(1), &ts[1], Level::GRID)?;
            Type::program(Level::GRID, Type::Unit)
        }
        Builtin::ReadIntCsv => {
            expect(at(0), "readIntCSV path", &Type::Str, &ts[0])?;
            Type::program(Level::GRID, Type::pull(int))
        }
        Builtin::NowMs => {
            expect(at(0), "nowMs argument", &int, &ts[0])?;
            Type::program(Level::GRID, int)
        }
        Builtin::BlockSize => int,
    })
}

#[cfg(test)]
mod tests {
    use super::type_of;
    use crate::fcl::build::*;
    use crate::fcl::core::{Builtin, Level, Type};

    #[test]
    fn well_typed_terms_get_their_types() {
        let p = bind(
            Level::BLOCK,
            force(
                Level::BLOCK,
                push(Level::BLOCK, generate(int(3), fn_int("i", var("i")))),
            ),
            lam(
                "x",
                Type::pull(Type::Int),
                ret(Level::BLOCK, length(var("x"))),
            ),
        );
        assert_eq!(type_of(&p).unwrap(), Type::program(Level::BLOCK, Type::Int));
        let il = interleave(
            Level::BLOCK,
            int(2),
            fn_pair("p", fst(var("p"))),
            generate(
                int(2),
                fn_int(
                    "b",
                    ret(
                        Level::BLOCK,
                        push(Level::BLOCK, generate(int(2), fn_int("j", var("j")))),
                    ),
                ),
            ),
        );
        assert_eq!(
            type_of(&il).unwrap(),
            Type::program(Level::GRID, Type::push(Type::Int, Level::GRID))
        );
    }

    #[test]
    fn ill_typed_terms_are_reported() {
        let bad = [
            add(int(1), boolean(true)),
            app(int(1), int(2)),
            if_(int(1), int(2), int(3)),
            force(
                Level::GRID,
                push(Level::BLOCK, generate(int(1), fn_int("i", var("i")))),
            ),
            call(Builtin::Index, vec![int(1), int(2)]),
            var("free"),
        ];
        for e in bad {
            assert!(type_of(&e).is_err(), "{e:?}");
        }
    }
}
