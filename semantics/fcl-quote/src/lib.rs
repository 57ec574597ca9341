//! `fcl!` and `fcl_stmt!`: FCL quasi-quotes. A template is FCL source with `format!`-style
//! holes; it is parsed by the FCL parser when the Rust program is compiled (a template that
//! does not parse is a compile error), and the macro expands to Rust that builds the
//! `semantics::fcl::syntax` tree with the holes filled:
//!
//! ```text
//! let e: Expr = fcl!("(if lti {i} {n} then {x} else 0)");      // captured variables
//! let s: Stmt = fcl_stmt!("{v} <- forceM<grid> ({a})", a = pushed);
//! ```
//!
//! A hole is `{name}` (a variable in scope, or a `name = value` argument), `{}` (the next
//! positional argument) or `{k}` (positional argument k); `{{` and `}}` are braces. Where the
//! hole stands decides what fills it (traits of `semantics::fcl::quote`): an expression
//! ([`ToExpr`]: a tree, a `Name`, a number, a bool), a name — a binder of `fn`, `let` or `<-`,
//! or a variable applied to levels, `{f}<grid>` — ([`ToName`]), or a level, `do<{l}>`
//! ([`ToLevel`]). Strings fill no expression hole: text is never spliced into a tree. Every
//! argument is evaluated once, as `format!` does.
//!
//! [`ToExpr`]: ../semantics/fcl/quote/trait.ToExpr.html
//! [`ToName`]: ../semantics/fcl/quote/trait.ToName.html
//! [`ToLevel`]: ../semantics/fcl/quote/trait.ToLevel.html

use proc_macro::TokenStream;
use proc_macro2::{Ident, Spacing, Span, TokenStream as Tokens, TokenTree};
use quote::{format_ident, quote};
use semantics::fcl::parser::parse_expr;
use semantics::fcl::syntax::{BinOp, Expr, ExprKind, Level, Scheme, Stmt, Type, TypeKind};

/// An FCL expression (`semantics::fcl::syntax::Expr`) from a template with holes.
#[proc_macro]
pub fn fcl(input: TokenStream) -> TokenStream {
    expand(input.into(), Form::Expr).into()
}

/// One statement of a `do` block (`semantics::fcl::syntax::Stmt`): `x <- e` or `e`.
#[proc_macro]
pub fn fcl_stmt(input: TokenStream) -> TokenStream {
    expand(input.into(), Form::Stmt).into()
}

#[derive(Clone, Copy, PartialEq)]
enum Form {
    Expr,
    Stmt,
}

/// The placeholder identifier of hole `k` (`#` starts an FCL identifier, and no program
/// written by hand names a variable `#q…`).
fn placeholder(k: usize) -> String {
    format!("#q{k}")
}

/// A character of an FCL identifier.
fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '#' || c == '\''
}

fn hole_of(name: &str) -> Option<usize> {
    name.strip_prefix("#q")?.parse().ok()
}

fn error(span: Span, msg: impl std::fmt::Display) -> Tokens {
    let msg = msg.to_string();
    quote::quote_spanned!(span => compile_error!(#msg))
}

fn expand(input: Tokens, form: Form) -> Tokens {
    let mut tts = input.into_iter().peekable();
    let Some(first) = tts.next() else {
        return error(Span::call_site(), "fcl! needs a template string");
    };
    let lit_span = first.span();
    let template = match syn::parse2::<syn::LitStr>(first.into()) {
        Ok(l) => l.value(),
        Err(e) => return e.to_compile_error(),
    };
    // the arguments: split at top-level commas; `name = value` names one
    let mut positional: Vec<Tokens> = Vec::new();
    let mut named: Vec<(String, Tokens)> = Vec::new();
    let mut current: Vec<TokenTree> = Vec::new();
    let rest: Vec<TokenTree> = tts.collect();
    let mut pieces: Vec<Vec<TokenTree>> = Vec::new();
    for t in rest {
        match &t {
            TokenTree::Punct(p) if p.as_char() == ',' && p.spacing() == Spacing::Alone => {
                pieces.push(std::mem::take(&mut current));
            }
            _ => current.push(t),
        }
    }
    pieces.push(current);
    for piece in pieces.into_iter().skip(1).filter(|p| !p.is_empty()) {
        let is_named = matches!(
            (&piece.first(), &piece.get(1), &piece.get(2)),
            (Some(TokenTree::Ident(_)), Some(TokenTree::Punct(p)), next)
                if p.as_char() == '=' && p.spacing() == Spacing::Alone
                    && !matches!(next, Some(TokenTree::Punct(q)) if q.as_char() == '=')
        );
        if is_named {
            let name = piece[0].to_string();
            named.push((name, piece[2..].iter().cloned().collect()));
        } else if !named.is_empty() {
            return error(lit_span, "positional arguments come before named ones");
        } else {
            positional.push(piece.into_iter().collect());
        }
    }

    // the template with each hole replaced by its placeholder
    let mut holes: Vec<Tokens> = Vec::new();
    let mut hole_names: Vec<String> = Vec::new();
    let mut src = String::new();
    let mut next_positional = 0;
    let mut chars = template.chars().peekable();
    let mut used_positional = vec![false; positional.len()];
    let mut used_named = vec![false; named.len()];
    while let Some(c) = chars.next() {
        match c {
            '{' if chars.peek() == Some(&'{') => {
                chars.next();
                src.push('{');
            }
            '}' if chars.peek() == Some(&'}') => {
                chars.next();
                src.push('}');
            }
            '}' => return error(lit_span, "unmatched `}` in the template (write `}}`)"),
            '{' => {
                if src.ends_with(is_ident_char) {
                    return error(
                        lit_span,
                        "a hole glued to the name before it (`x{k}`): build that name in Rust",
                    );
                }
                let mut spec = String::new();
                loop {
                    match chars.next() {
                        Some('}') => break,
                        Some(c) => spec.push(c),
                        None => return error(lit_span, "unclosed `{` in the template"),
                    }
                }
                let key = if spec.is_empty() {
                    next_positional += 1;
                    format!("{}", next_positional - 1)
                } else {
                    spec.clone()
                };
                let k = match hole_names.iter().position(|n| *n == key) {
                    Some(k) => k,
                    None => {
                        let value = if let Ok(p) = key.parse::<usize>() {
                            match positional.get(p) {
                                Some(_) => {
                                    used_positional[p] = true;
                                    let a = format_ident!("__fcl_arg{}", p);
                                    quote!(#a)
                                }
                                None => {
                                    return error(
                                        lit_span,
                                        format!("hole {{{spec}}} has no positional argument {p}"),
                                    )
                                }
                            }
                        } else if let Some(j) = named.iter().position(|(n, _)| *n == key) {
                            used_named[j] = true;
                            let a = format_ident!("__fcl_arg{}", positional.len() + j);
                            quote!(#a)
                        } else if key.chars().all(|c| c.is_alphanumeric() || c == '_')
                            && !key.starts_with(|c: char| c.is_ascii_digit())
                        {
                            let id = Ident::new(&key, lit_span);
                            quote!(&#id)
                        } else {
                            return error(lit_span, format!("hole {{{spec}}} is not a name"));
                        };
                        holes.push(value);
                        hole_names.push(key);
                        holes.len() - 1
                    }
                };
                if chars.peek().is_some_and(|c| is_ident_char(*c)) {
                    return error(
                        lit_span,
                        "a hole glued to the name after it (`{k}p`): build that name in Rust",
                    );
                }
                // spaces keep the placeholder one token wherever the hole stands
                src.push(' ');
                src.push_str(&placeholder(k));
                src.push(' ');
            }
            c => src.push(c),
        }
    }
    if let Some(j) = used_named.iter().position(|u| !u) {
        return error(
            lit_span,
            format!("named argument {} fills no hole", named[j].0),
        );
    }
    if let Some(p) = used_positional.iter().position(|u| !u) {
        return error(lit_span, format!("positional argument {p} fills no hole"));
    }
    if src.contains("--") || src.contains("(*") {
        return error(
            lit_span,
            "a template holds no comments (the tree has nowhere to keep them)",
        );
    }
    let wrapped = match form {
        Form::Expr => src.clone(),
        Form::Stmt => format!("do<thread> {{ {src} ; () }}"),
    };
    let parsed = match parse_expr(&wrapped) {
        Ok(e) => e,
        Err(d) => {
            let at = d.span.start as usize;
            let near: String = wrapped.get(at..).unwrap_or("").chars().take(30).collect();
            return error(
                lit_span,
                format!(
                    "the FCL template does not parse: {} (near `{near}`)",
                    d.message
                ),
            );
        }
    };
    let mut g = Gen {
        used: vec![false; holes.len()],
        error: None,
    };
    let body = match form {
        Form::Expr => g.expr(&parsed),
        Form::Stmt => match &parsed.kind {
            ExprKind::Do(_, stmts) if stmts.len() == 2 => g.stmt(&stmts[0]),
            _ => return error(lit_span, "fcl_stmt! takes exactly one statement"),
        },
    };
    if let Some(e) = g.error {
        return error(lit_span, e);
    }
    if let Some(k) = g.used.iter().position(|u| !u) {
        return error(
            lit_span,
            format!(
                "hole {{{}}} is not where an expression, a name or a level stands",
                hole_names[k]
            ),
        );
    }
    // the arguments evaluated once each, in the order they are written (as `format!` does:
    // a fresh name drawn by one comes before the next's), then each hole bound to its value
    let values: Vec<&Tokens> = positional
        .iter()
        .chain(named.iter().map(|(_, v)| v))
        .collect();
    let args: Vec<Ident> = (0..values.len())
        .map(|k| format_ident!("__fcl_arg{}", k))
        .collect();
    let binders: Vec<Ident> = (0..holes.len())
        .map(|k| format_ident!("__fcl_hole{}", k))
        .collect();
    quote! {
        {
            #[allow(clippy::needless_borrow)]
            match (#(&(#values),)*) {
                (#(#args,)*) => {
                    #(let #binders = #holes;)*
                    #body
                }
            }
        }
    }
}

/// Rust that builds a parsed template, holes filled from the `__fcl_hole{k}` bindings.
struct Gen {
    used: Vec<bool>,
    error: Option<String>,
}

impl Gen {
    fn hole(&mut self, k: usize) -> Ident {
        match self.used.get_mut(k) {
            Some(u) => *u = true,
            None => self.error = Some(format!("no hole {k}")),
        }
        format_ident!("__fcl_hole{}", k)
    }

    fn name(&mut self, n: &str) -> Tokens {
        match hole_of(n) {
            Some(k) => {
                let h = self.hole(k);
                quote!(::semantics::fcl::quote::ToName::to_name(#h))
            }
            None => quote!(::std::string::String::from(#n)),
        }
    }

    fn names(&mut self, ns: &[String]) -> Tokens {
        let ns: Vec<Tokens> = ns.iter().map(|n| self.name(n)).collect();
        quote!(::std::vec![#(#ns),*])
    }

    fn level(&mut self, l: &Level) -> Tokens {
        let succs = l.succs;
        match &l.var {
            Some(v) => match hole_of(v) {
                Some(k) => {
                    let h = self.hole(k);
                    quote!(::semantics::fcl::quote::level_plus(
                        ::semantics::fcl::quote::ToLevel::to_level(#h), #succs))
                }
                None => {
                    quote!(::semantics::fcl::quote::level(#succs, ::std::option::Option::Some(#v)))
                }
            },
            None => quote!(::semantics::fcl::quote::level(#succs, ::std::option::Option::None)),
        }
    }

    fn levels(&mut self, ls: &[Level]) -> Tokens {
        let ls: Vec<Tokens> = ls.iter().map(|l| self.level(l)).collect();
        quote!(::std::vec![#(#ls),*])
    }

    fn stmt(&mut self, s: &Stmt) -> Tokens {
        match s {
            Stmt::Bind(x, e) => {
                let x = self.name(x);
                let e = self.expr(e);
                quote!(::semantics::fcl::syntax::Stmt::Bind(#x, #e))
            }
            Stmt::Expr(e) => {
                let e = self.expr(e);
                quote!(::semantics::fcl::syntax::Stmt::Expr(#e))
            }
        }
    }

    fn expr(&mut self, e: &Expr) -> Tokens {
        let q = quote!(::semantics::fcl::quote);
        match &e.kind {
            ExprKind::Int(i) => quote!(#q::int(#i)),
            ExprKind::Double(d) => {
                let bits = d.to_bits();
                quote!(#q::double(f64::from_bits(#bits)))
            }
            ExprKind::Bool(b) => quote!(#q::boolean(#b)),
            ExprKind::Str(s) => quote!(#q::string(#s)),
            ExprKind::Unit => quote!(#q::unit()),
            ExprKind::Var(x, ls) => match hole_of(x) {
                Some(k) if ls.is_empty() => {
                    let h = self.hole(k);
                    quote!(::semantics::fcl::quote::ToExpr::to_expr(#h))
                }
                _ => {
                    let x = self.name(x);
                    let ls = self.levels(ls);
                    quote!(#q::var(#x, #ls))
                }
            },
            ExprKind::Pair(a, b) => {
                let (a, b) = (self.expr(a), self.expr(b));
                quote!(#q::pair(#a, #b))
            }
            ExprKind::Fn(ps, body) => {
                let ps = self.names(ps);
                let body = self.expr(body);
                quote!(#q::lam(#ps, #body))
            }
            ExprKind::App(f, a) => {
                let (f, a) = (self.expr(f), self.expr(a));
                quote!(#q::app(#f, #a))
            }
            ExprKind::BinOp(op, a, b) => {
                let op = binop(*op);
                let (a, b) = (self.expr(a), self.expr(b));
                quote!(#q::bin(::semantics::fcl::syntax::BinOp::#op, #a, #b))
            }
            ExprKind::If(c, t, f) => {
                let (c, t, f) = (self.expr(c), self.expr(t), self.expr(f));
                quote!(#q::cond(#c, #t, #f))
            }
            ExprKind::Let {
                name,
                levels,
                sig,
                rhs,
                body,
            } => {
                let name = self.name(name);
                let levels = self.names(levels);
                let sig = match sig {
                    Some(s) => {
                        let s = self.scheme(s);
                        quote!(::std::option::Option::Some(#s))
                    }
                    None => quote!(::std::option::Option::None),
                };
                let (rhs, body) = (self.expr(rhs), self.expr(body));
                quote!(#q::let_in(#name, #levels, #sig, #rhs, #body))
            }
            ExprKind::Do(l, stmts) => {
                let l = self.level(l);
                let ss: Vec<Tokens> = stmts.iter().map(|s| self.stmt(s)).collect();
                quote!(#q::do_block(#l, ::std::vec![#(#ss),*]))
            }
        }
    }

    fn scheme(&mut self, s: &Scheme) -> Tokens {
        let forall = match &s.forall {
            Some((ls, ts)) => quote!(::std::option::Option::Some((
                ::std::vec![#(::std::string::String::from(#ls)),*],
                ::std::vec![#(::std::string::String::from(#ts)),*]
            ))),
            None => quote!(::std::option::Option::None),
        };
        let t = self.ty(&s.ty);
        quote!(::semantics::fcl::quote::scheme(#forall, #t))
    }

    fn ty(&mut self, t: &Type) -> Tokens {
        let k = quote!(::semantics::fcl::syntax::TypeKind);
        let kind = match &t.kind {
            TypeKind::Int => quote!(#k::Int),
            TypeKind::Double => quote!(#k::Double),
            TypeKind::Bool => quote!(#k::Bool),
            TypeKind::Str => quote!(#k::Str),
            TypeKind::Unit => quote!(#k::Unit),
            TypeKind::Var(v) => quote!(#k::Var(::std::string::String::from(#v))),
            TypeKind::Fun(a, b) => {
                let (a, b) = (self.ty(a), self.ty(b));
                quote!(#k::Fun(::std::boxed::Box::new(#a), ::std::boxed::Box::new(#b)))
            }
            TypeKind::Pair(a, b) => {
                let (a, b) = (self.ty(a), self.ty(b));
                quote!(#k::Pair(::std::boxed::Box::new(#a), ::std::boxed::Box::new(#b)))
            }
            TypeKind::Pull(a) => {
                let a = self.ty(a);
                quote!(#k::Pull(::std::boxed::Box::new(#a)))
            }
            TypeKind::Push(a, l) => {
                let (a, l) = (self.ty(a), self.level(l));
                quote!(#k::Push(::std::boxed::Box::new(#a), #l))
            }
            TypeKind::Program(l, a) => {
                let (l, a) = (self.level(l), self.ty(a));
                quote!(#k::Program(#l, ::std::boxed::Box::new(#a)))
            }
        };
        quote!(::semantics::fcl::quote::ty(#kind))
    }
}

/// The variant name of `op` (`Add`), which its `Debug` writes.
fn binop(op: BinOp) -> Ident {
    format_ident!("{op:?}")
}
