//! Differential property: the stepper (contexts, activations, closures, iteration frames) agrees
//! with a direct recursive evaluator on random well-scoped programs over ints and int vectors.
//! Both use the same operator meanings ([`crate::tail::ops`]); what is compared is how the
//! relation drives them: evaluation order, binding, closure capture, apltail's reduction order.

use super::compile::{compile_rc, Binder, Surface};
use super::show::value_text;
use super::{Machine, Stepped};
use crate::tail::ops::apply::{apply, OpEnv, Outcome};
use crate::tail::ops::prim::Prim;
use crate::tail::print_value::array_text;
use crate::tail::value::{Array, Scalar};
use crate::Span;
use quickcheck::{Gen, QuickCheck};
use std::collections::HashMap;

const S: Span = Span::DUMMY;

/// A random program: scalars (`s`) and vectors (`v`) over ints.
#[derive(Clone, Debug)]
struct Prog(Surface);

fn pick<'a, T>(g: &mut Gen, xs: &'a [T]) -> &'a T {
    g.choose(xs).expect("non-empty choice")
}

struct Scope {
    scalars: Vec<String>,
    vectors: Vec<String>,
    fresh: usize,
}

fn annotated(x: String, ann: &str) -> Binder {
    Binder {
        name: x,
        elem: Some(crate::tail::value::BaseType::Int),
        ann: Some(ann.into()),
    }
}

fn op(name: &str, args: Vec<Surface>) -> Surface {
    Surface::Op(name.into(), args, S)
}

fn scalar(g: &mut Gen, sc: &mut Scope, size: usize) -> Surface {
    let choice = if size == 0 {
        *pick(g, &[0, 1])
    } else {
        *pick(g, &[0, 1, 2, 2, 3, 4, 5])
    };
    match choice {
        0 => Surface::Lit(Scalar::Int(*pick(g, &[-3, -1, 0, 1, 2, 5, 7])), S),
        1 if !sc.scalars.is_empty() => Surface::Var(pick(g, &sc.scalars).clone(), S),
        1 => Surface::Lit(Scalar::Int(4), S),
        2 => {
            let name = *pick(g, &["addi", "subi", "muli", "maxi", "resi"]);
            op(name, vec![scalar(g, sc, size / 2), scalar(g, sc, size / 2)])
        }
        3 => {
            let rhs = scalar(g, sc, size / 2);
            sc.fresh += 1;
            let x = format!("s{}", sc.fresh);
            sc.scalars.push(x.clone());
            let body = scalar(g, sc, size / 2);
            sc.scalars.pop();
            Surface::Let(annotated(x, "[int]0"), Box::new(rhs), Box::new(body), S)
        }
        4 => {
            let f = *pick(g, &["addi", "maxi", "subi"]);
            op(
                "reduce",
                vec![
                    Surface::OpRef(f.into(), S),
                    scalar(g, sc, 0),
                    vector(g, sc, size / 2),
                ],
            )
        }
        _ => op("first", vec![vector(g, sc, size / 2)]),
    }
}

fn lambda(g: &mut Gen, sc: &mut Scope, size: usize, params: usize) -> Surface {
    let names: Vec<String> = (0..params)
        .map(|_| {
            sc.fresh += 1;
            format!("p{}", sc.fresh)
        })
        .collect();
    sc.scalars.extend(names.iter().cloned());
    let mut body = scalar(g, sc, size);
    sc.scalars.truncate(sc.scalars.len() - params);
    for n in names.into_iter().rev() {
        body = Surface::Lam(annotated(n, "[int]0"), Box::new(body), S);
    }
    body
}

fn vector(g: &mut Gen, sc: &mut Scope, size: usize) -> Surface {
    let choice = if size == 0 {
        *pick(g, &[0, 1])
    } else {
        *pick(g, &[0, 1, 2, 3, 4, 5, 6])
    };
    match choice {
        0 => op(
            "iota",
            vec![Surface::Lit(Scalar::Int(*pick(g, &[0, 1, 3, 4])), S)],
        ),
        1 if !sc.vectors.is_empty() => Surface::Var(pick(g, &sc.vectors).clone(), S),
        1 => Surface::Vector(vec![scalar(g, sc, 0), scalar(g, sc, 0)], S),
        2 => op(
            "each",
            vec![lambda(g, sc, size / 2, 1), vector(g, sc, size / 2)],
        ),
        3 => op(
            "zipWith",
            vec![
                lambda(g, sc, size / 3, 2),
                vector(g, sc, size / 3),
                vector(g, sc, size / 3),
            ],
        ),
        4 => {
            let rhs = vector(g, sc, size / 2);
            sc.fresh += 1;
            let x = format!("v{}", sc.fresh);
            sc.vectors.push(x.clone());
            let body = vector(g, sc, size / 2);
            sc.vectors.pop();
            Surface::Let(annotated(x, "[int]1"), Box::new(rhs), Box::new(body), S)
        }
        5 => {
            let name = *pick(g, &["rotate", "drop", "take", "vrotate"]);
            op(name, vec![scalar(g, sc, 0), vector(g, sc, size / 2)])
        }
        _ => op(
            "scan",
            vec![
                Surface::OpRef("addi".into(), S),
                scalar(g, sc, 0),
                vector(g, sc, size / 2),
            ],
        ),
    }
}

impl quickcheck::Arbitrary for Prog {
    fn arbitrary(g: &mut Gen) -> Prog {
        let mut sc = Scope {
            scalars: Vec::new(),
            vectors: Vec::new(),
            fresh: 0,
        };
        let size = g.size().min(24);
        Prog(if bool::arbitrary(g) {
            scalar(g, &mut sc, size)
        } else {
            vector(g, &mut sc, size)
        })
    }
}

use quickcheck::Arbitrary;

/// A value of the reference evaluator.
#[derive(Clone)]
enum Val {
    Arr(Array),
    Fun(String, Box<Surface>, Env),
}

type Env = HashMap<String, Val>;

fn arr(v: Val) -> Result<Array, String> {
    match v {
        Val::Arr(a) => Ok(a),
        Val::Fun(..) => Err("function".into()),
    }
}

fn call(f: &Val, x: Val) -> Result<Val, String> {
    match f {
        Val::Fun(p, body, env) => {
            let mut env = env.clone();
            env.insert(p.clone(), x);
            eval(body, &env)
        }
        Val::Arr(_) => Err("not a function".into()),
    }
}

fn eval(e: &Surface, env: &Env) -> Result<Val, String> {
    let scal = |x: Scalar| Val::Arr(Array::scalar(x));
    match e {
        Surface::Lit(x, _) => Ok(scal(*x)),
        Surface::Var(x, _) => env.get(x).cloned().ok_or_else(|| "unbound".into()),
        Surface::Let(b, rhs, body, _) => {
            let v = eval(rhs, env)?;
            let mut env = env.clone();
            env.insert(b.name.clone(), v);
            eval(body, &env)
        }
        Surface::Lam(b, body, _) => Ok(Val::Fun(b.name.clone(), body.clone(), env.clone())),
        Surface::OpRef(name, _) => {
            let body = Surface::Op(
                name.clone(),
                vec![Surface::Var("#a".into(), S), Surface::Var("#b".into(), S)],
                S,
            );
            let inner = Surface::Lam(Binder::new("#b"), Box::new(body), S);
            Ok(Val::Fun("#a".into(), Box::new(inner), env.clone()))
        }
        Surface::Vector(es, _) => {
            let mut xs = Vec::new();
            for e in es {
                xs.push(arr(eval(e, env)?)?.elems.get(0));
            }
            Ok(Val::Arr(Array::int_vec(
                xs.into_iter()
                    .map(|x| if let Scalar::Int(i) = x { i } else { 0 })
                    .collect(),
            )))
        }
        Surface::Op(name, args, _) => {
            let mut vals = Vec::new();
            for a in args {
                vals.push(eval(a, env)?);
            }
            let prim = Prim::from_name(name).ok_or("unknown")?;
            let elems_of = |a: &Array| (0..a.size()).map(|i| a.elems.get(i)).collect::<Vec<_>>();
            let ints = |xs: Vec<Scalar>| {
                Array::int_vec(
                    xs.into_iter()
                        .map(|x| if let Scalar::Int(i) = x { i } else { 0 })
                        .collect(),
                )
            };
            match prim {
                Prim::Each => {
                    let a = arr(vals[1].clone())?;
                    let mut out = Vec::new();
                    for x in elems_of(&a) {
                        out.push(arr(call(&vals[0], scal(x))?)?.elems.get(0));
                    }
                    Ok(Val::Arr(ints(out)))
                }
                Prim::ZipWith => {
                    let (a, b) = (arr(vals[1].clone())?, arr(vals[2].clone())?);
                    if a.shape != b.shape {
                        return Err("shapes".into());
                    }
                    let mut out = Vec::new();
                    for (x, y) in elems_of(&a).into_iter().zip(elems_of(&b)) {
                        let g = call(&vals[0], scal(x))?;
                        out.push(arr(call(&g, scal(y))?)?.elems.get(0));
                    }
                    Ok(Val::Arr(ints(out)))
                }
                Prim::Reduce | Prim::Scan => {
                    let a = arr(vals[2].clone())?;
                    let xs = elems_of(&a);
                    if xs.is_empty() {
                        return Ok(if prim == Prim::Reduce {
                            vals[1].clone()
                        } else {
                            Val::Arr(a)
                        });
                    }
                    let mut acc = xs[0];
                    let mut out = vec![acc];
                    for &x in &xs[1..] {
                        let g = call(&vals[0], scal(x))?;
                        acc = arr(call(&g, scal(acc))?)?.elems.get(0);
                        out.push(acc);
                    }
                    Ok(if prim == Prim::Reduce {
                        scal(acc)
                    } else {
                        Val::Arr(ints(out))
                    })
                }
                _ => {
                    let arrays: Vec<Array> = vals.into_iter().map(arr).collect::<Result<_, _>>()?;
                    let refs: Vec<&Array> = arrays.iter().collect();
                    match apply(prim, &refs, &mut OpEnv::default())?.outcome {
                        Outcome::New(a) => Ok(Val::Arr(a)),
                        Outcome::Arg(i) => Ok(Val::Arr(arrays[i].clone())),
                    }
                }
            }
        }
        _ => Err("unsupported".into()),
    }
}

fn stepper(e: &Surface) -> Option<String> {
    let mut m = Machine::new(compile_rc(e).ok()?);
    loop {
        match m.step() {
            Stepped::Next(_) => {}
            Stepped::Value(v) => return Some(value_text(&v)),
            Stepped::Err(_) => return None,
        }
    }
}

#[test]
fn stepper_agrees_with_a_direct_evaluator() {
    fn prop(p: Prog) -> bool {
        let want = eval(&p.0, &Env::new()).ok().map(|v| match v {
            Val::Arr(a) => array_text(&a),
            Val::Fun(..) => "[](fn)".into(),
        });
        let got = stepper(&p.0);
        if got != want {
            eprintln!("program {:?}\nstepper {got:?}\ndirect  {want:?}", p.0);
        }
        got == want
    }
    QuickCheck::new()
        .tests(400)
        .rng(Gen::new(16))
        .quickcheck(prop as fn(Prog) -> bool);
}

#[test]
fn generated_programs_exercise_closures_and_values() {
    // The generator is not degenerate: many programs have values, and some bind variables that
    // lambdas capture.
    let mut g = Gen::new(16);
    let (mut values, mut captures, mut typed) = (0, 0, 0);
    for _ in 0..300 {
        let p = Prog::arbitrary(&mut g);
        let text = format!("{:?}", p.0);
        if stepper(&p.0).is_some() {
            values += 1;
        }
        if super::typing::type_of_program(&p.0).is_ok() {
            typed += 1;
        }
        if text.contains("Lam") && text.contains("Let") {
            captures += 1;
        }
    }
    assert!(values > 100, "{values} programs had values");
    assert!(captures > 20, "{captures} programs had lambdas and lets");
    assert!(typed > 150, "{typed} programs typed");
}

#[test]
fn random_programs_preserve_their_type() {
    // Type preservation (Propositions 2/5) on random programs: every configuration with TAIL
    // syntax types, under its store typing, to a subtype of the program's type.
    use super::reader::read;
    use super::typing::{subtype, type_of_program};
    fn prop(p: Prog) -> bool {
        let Ok(tau) = type_of_program(&p.0) else {
            return true;
        };
        let Ok(prog) = compile_rc(&p.0) else {
            return false;
        };
        let mut m = Machine::new(prog);
        loop {
            if let Some(cfg) = m.configuration(50_000) {
                let ok = read(&cfg)
                    .map_err(|d| d.message)
                    .and_then(|e| type_of_program(&e))
                    .map(|t| subtype(&t, &tau));
                if ok != Ok(true) {
                    eprintln!("program type {tau}\nconfiguration {cfg}\n{ok:?}");
                    return false;
                }
            }
            if !matches!(m.step(), Stepped::Next(_)) {
                return true;
            }
        }
    }
    QuickCheck::new()
        .tests(300)
        .rng(Gen::new(12))
        .quickcheck(prop as fn(Prog) -> bool);
}
