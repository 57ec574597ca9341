//! The generator's aliasing productions (spec tail.md §4.5, thesis store semantics): names
//! that share one location, and updates through one of them that every other must see.
//!
//! The generator knows the location of a binding only where its text says it: a fresh array
//! ([`super::effects::FRESH`]) is a location of its own, and the productions here make a
//! binding that is a known binding's location — `let y = x`, `mem(x)`, a print of `x` (the
//! oracle's prints return their argument), a `power` whose step returns its parameter (or that
//! runs no trip), an `if` (on a condition computed from data, too) that picks `x`, and a
//! projection of a tuple holding `x`. Any other binding's location is unknown, so an update
//! goes only to a location that no binding of unknown location mentions: none of those can
//! share it.

use super::effects::FRESH;
use super::{printed_text, Gen, Ty, Val};
use semantics::tail::print_value::double_literal;

/// Whether `text` mentions the variable `name` (not only a longer name it begins).
pub(super) fn mentions(text: &str, name: &str) -> bool {
    text.match_indices(name).any(|(k, _)| {
        let before = text[..k].chars().next_back();
        let after = text[k + name.len()..].chars().next();
        !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
            && !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}

/// A value an `idxassign` production may update: a non-empty int, double or bool array.
fn updatable_value(v: &Val) -> bool {
    matches!(v.ty, Ty::Int | Ty::Double | Ty::Bool) && v.rank() >= 1 && !v.data.is_empty()
}

impl Gen<'_> {
    /// The location of the binding just made from `text`: the one a production here named,
    /// a new one for a fresh array, else unknown.
    pub(super) fn location_of(&mut self, text: &str) -> Option<usize> {
        if let Some(loc) = self.made_loc.take() {
            return Some(loc);
        }
        FRESH.iter().any(|f| text.starts_with(f)).then(|| {
            self.locations += 1;
            self.locations
        })
    }

    /// The bindings whose location the generator knows and may update: no binding of unknown
    /// location mentions any name of it; each with its location.
    fn updatable(&self, ok: impl Fn(&Val) -> bool) -> Vec<(usize, usize)> {
        let names_of = |loc: usize| {
            (0..self.env.len())
                .filter(move |&i| self.locs[i] == Some(loc))
                .map(|i| self.env[i].0.as_str())
        };
        (0..self.env.len())
            .filter_map(|i| Some((i, self.locs[i]?)))
            .filter(|&(i, _)| ok(&self.env[i].1))
            .filter(|&(_, loc)| {
                let unknown = (0..self.env.len()).filter(|&j| self.locs[j].is_none());
                unknown
                    .clone()
                    .all(|j| names_of(loc).all(|n| !mentions(&self.texts[j], n)))
            })
            .collect()
    }

    /// A binding of a known location's array under another name (module doc), its printing
    /// included.
    pub(super) fn alias(&mut self) -> Option<(String, Val)> {
        let known = self.updatable(|v| v.ty != Ty::Complex);
        if known.is_empty() {
            return None;
        }
        let (i, loc) = *self.rng.pick(&known);
        let (name, v) = self.env[i].clone();
        let text = self.alias_text(&name, &v)?;
        self.made_loc = Some(loc);
        Some((text, v))
    }

    /// An expression whose value is `name`'s array `v` at its location: the name, `mem`, a
    /// print, a `power` whose step returns its parameter, an `if` that picks it, a projection.
    fn alias_text(&mut self, name: &str, v: &Val) -> Option<String> {
        let ann = v.annotation();
        let p = self.fresh();
        Some(match self.rng.range(0, 5) {
            0 => name.to_string(),
            1 => format!("mem({name})"),
            2 => {
                self.out.push_str(&format!("{}\n", printed_text(v)));
                let kind = if v.rank() == 0 { "Scl" } else { "Arr" };
                format!("pr{kind}{}({name})", v.ty.letter())
            }
            3 => {
                let n = self.rng.range(0, 3);
                format!("power(fn {p}:{ann} => {p},{n},{name})")
            }
            4 => {
                // an `if` the device decides (or a literal one) picking this name
                let (other, _) = self.pick_any(|w| w.ty == v.ty && w.rank() == v.rank())?;
                let (c, holds) = match self.rng.chance(60) {
                    true => self.cond_expr()?,
                    false => ("tt".to_string(), true),
                };
                match holds {
                    true => format!("if {c} then {name} else {other}"),
                    false => format!("if {c} then {other} else {name}"),
                }
            }
            _ => {
                let (other, _) = self.pick_any(|_| true)?;
                format!("Prj(1,({other},{name}))")
            }
        })
    }

    /// `idxassign(is, x, e)` of a known location's array (element `is`, in range, becomes the
    /// literal `e` in every binding of that location; then, at times, the array read through
    /// another of its names), at times inside a `power`'s step that
    /// updates its state and returns it (the loop's result is the same location) or returns
    /// a rotation of it (the first trip updates the array passed in, the later ones the
    /// trips' new arrays).
    pub(super) fn update_alias(&mut self) -> Option<(String, Val)> {
        let known = self.updatable(updatable_value);
        if known.is_empty() {
            return None;
        }
        // (mostly a location of several names: an update through one, read through another)
        let shared: Vec<(usize, usize)> = known
            .iter()
            .copied()
            .filter(|&(i, loc)| (0..self.env.len()).any(|j| j != i && self.locs[j] == Some(loc)))
            .collect();
        let (i, loc) = match shared.is_empty() || self.rng.chance(30) {
            true => *self.rng.pick(&known),
            false => *self.rng.pick(&shared),
        };
        let (name, v) = self.env[i].clone();
        let index: Vec<usize> = v.shape.iter().map(|&s| self.rng.range(1, s)).collect();
        let (x, lit) = match v.ty {
            Ty::Int => {
                let n = self.rng.range(0, 20) as f64 - 10.0;
                (n, format!("{n}"))
            }
            Ty::Double => {
                let d = (self.rng.range(0, 40) as f64 - 20.0) / 4.0;
                (d, double_literal(d))
            }
            _ => {
                let b = self.rng.chance(50);
                (f64::from(u8::from(b)), (if b { "tt" } else { "ff" }).into())
            }
        };
        let at = index
            .iter()
            .zip(&v.shape)
            .fold(0, |acc, (&k, &s)| acc * s + k - 1);
        let is: Vec<String> = index.iter().map(|k| k.to_string()).collect();
        let update = format!("idxassign([{}],{{}},{lit})", is.join(","));
        let set_all = |g: &mut Gen| {
            for j in 0..g.env.len() {
                if g.locs[j] == Some(loc) {
                    g.env[j].1.data[at] = x;
                }
            }
        };
        match self.rng.range(0, 3) {
            0 => {
                // through an alias made here, read through the name
                let (y, u) = (self.fresh(), self.fresh());
                let alias = self.alias_text(&name, &v)?;
                set_all(self);
                let step = update.replace("{}", &y);
                let ann = v.annotation();
                self.made_loc = Some(loc);
                let text = format!("let {y}:{ann} = {alias} in let {u}:[bool]0 = {step} in {name}");
                Some((text, self.env[i].1.clone()))
            }
            1 => {
                set_all(self);
                let text = update.replace("{}", &name);
                let other = (0..self.env.len()).find(|&j| j != i && self.locs[j] == Some(loc));
                match other {
                    // the update, then the array read through another name of its location
                    Some(j) if self.rng.chance(60) => {
                        let y = self.fresh();
                        let (other, now) = self.env[j].clone();
                        self.made_loc = Some(loc);
                        Some((format!("let {y}:[bool]0 = {text} in {other}"), now))
                    }
                    _ => {
                        let done = Val {
                            ty: Ty::Bool,
                            shape: Vec::new(),
                            data: vec![1.0],
                        };
                        Some((text, done))
                    }
                }
            }
            2 => {
                // a step that updates its state and returns it: the result is `name`'s
                // location, updated (if the loop runs)
                let n = self.rng.range(0, 3);
                let p = self.fresh();
                let y = self.fresh();
                if n > 0 {
                    set_all(self);
                }
                let (ann, step) = (v.annotation(), update.replace("{}", &p));
                let text =
                    format!("power(fn {p}:{ann} => let {y}:[bool]0 = {step} in {p},{n},{name})");
                self.made_loc = Some(loc);
                Some((text, self.env[i].1.clone()))
            }
            _ => {
                // a step that updates its state and returns a new array: a vector rotated
                let n = self.rng.range(0, 3);
                if v.rank() != 1 {
                    return None;
                }
                let (p, y) = (self.fresh(), self.fresh());
                let mut s = v.data.clone();
                for trip in 0..n {
                    s[at] = x;
                    if trip == 0 {
                        set_all(self);
                    }
                    s.rotate_left(1);
                }
                if n == 0 {
                    self.made_loc = Some(loc);
                }
                let (ann, step) = (v.annotation(), update.replace("{}", &p));
                let text = format!(
                    "power(fn {p}:{ann} => let {y}:[bool]0 = {step} in rotate(1,{p}),{n},{name})"
                );
                let out = Val {
                    ty: v.ty,
                    shape: v.shape.clone(),
                    data: s,
                };
                Some((text, out))
            }
        }
    }
}

impl Gen<'_> {
    /// `idxassign` of a known location's array made before the construct that updates it:
    /// in each trip of a `power` over a counter (its count a literal or computed from data),
    /// in the function of an `each` over an int vector (element by element, in order), or in
    /// the branch of an `if` the device decides. Every binding of the location sees the
    /// updates; a vector's index and an int's value follow the trip or the element.
    pub(super) fn update_outer(&mut self) -> Option<(String, Val)> {
        let known = self.updatable(updatable_value);
        if known.is_empty() {
            return None;
        }
        let (i, loc) = *self.rng.pick(&known);
        let (name, v) = self.env[i].clone();
        let (p, y) = (self.fresh(), self.fresh());
        let len = v.data.len();
        // the position and value an update with `k` (the trip or the element) writes
        let fixed: Vec<usize> = v.shape.iter().map(|&s| self.rng.range(1, s)).collect();
        let fixed_at = fixed
            .iter()
            .zip(&v.shape)
            .fold(0, |acc, (&k, &s)| acc * s + k - 1);
        let lit = self.rng.range(0, 20) as i64 - 10;
        let bit = self.rng.chance(50);
        // the update's text with `k` (the trip's or element's name, or a literal)
        let (rank, ty) = (v.rank(), v.ty);
        let fixed_text: Vec<String> = fixed.iter().map(|k| k.to_string()).collect();
        let target = name.clone();
        let update = move |k: &str| {
            let index = match rank {
                1 => format!("[addi(resi({len},{k}),1)]"),
                _ => format!("[{}]", fixed_text.join(",")),
            };
            let value = match ty {
                Ty::Int => format!("addi({k},{lit})"),
                Ty::Double => double_literal(lit as f64 / 4.0),
                _ => (if bit { "tt" } else { "ff" }).to_string(),
            };
            format!("let {y}:[bool]0 = idxassign({index},{target},{value})")
        };
        let write = move |g: &mut Gen, k: i64| {
            let at = match v.rank() {
                1 => k.rem_euclid(len as i64) as usize,
                _ => fixed_at,
            };
            let x = match v.ty {
                Ty::Int => (k + lit) as f64,
                Ty::Double => lit as f64 / 4.0,
                _ => f64::from(u8::from(bit)),
            };
            for j in 0..g.env.len() {
                if g.locs[j] == Some(loc) {
                    g.env[j].1.data[at] = x;
                }
            }
        };
        let (text, made) = match self.rng.range(0, 2) {
            0 => {
                // (mostly a count from data: a known count over a known state the lowering
                // computes trip by trip)
                let (count, n) = match self.rng.chance(80) {
                    true => self.count_expr(0, 6)?,
                    false => {
                        let n = self.rng.range(0, 6) as i64;
                        (n.to_string(), n)
                    }
                };
                for trip in 0..n {
                    write(self, trip);
                }
                let update = update(&p);
                let text = format!("power(fn {p}:[int]0 => {update} in addi({p},1),{count},0)");
                let n = Val {
                    ty: Ty::Int,
                    shape: Vec::new(),
                    data: vec![n as f64],
                };
                (text, n)
            }
            1 => {
                // (over a vector of another location, small elements: `addi` cannot overflow;
                // a trip per element writes the loop's whole state, which the FCL oracle
                // steps through: a few thousand elements)
                let names = |j: usize| self.locs[j] != Some(loc);
                let small = |w: &Val| {
                    let work = w.data.len() * (w.data.len() + len);
                    w.ty == Ty::Int
                        && w.rank() == 1
                        && work <= 40_000
                        && w.data.iter().all(|x| x.abs() < 1e6)
                };
                let sources: Vec<usize> = (0..self.env.len())
                    .filter(|&j| names(j) && small(&self.env[j].1))
                    .collect();
                if sources.is_empty() {
                    return None;
                }
                // (mostly one of more than a few elements: a few known ones the lowering
                // maps one after another)
                let long: Vec<usize> = sources
                    .iter()
                    .copied()
                    .filter(|&j| self.env[j].1.data.len() > 64)
                    .collect();
                let pool = match long.is_empty() || self.rng.chance(30) {
                    true => &sources,
                    false => &long,
                };
                let (src, w) = self.env[*self.rng.pick(pool)].clone();
                for &k in &w.data {
                    write(self, k as i64);
                }
                let update = update(&p);
                let text = format!("each(fn {p}:[int]0 => {update} in {p},{src})");
                (text, w)
            }
            _ => {
                let (c, holds) = self.cond_expr()?;
                let n = self.rng.range(0, 9) as i64;
                if holds {
                    write(self, n);
                }
                let update = update(&n.to_string());
                let text = format!("if {c} then {update} in tt else ff");
                let done = Val {
                    ty: Ty::Bool,
                    shape: Vec::new(),
                    data: vec![f64::from(u8::from(holds))],
                };
                (text, done)
            }
        };
        // (mostly the array read right after, through its name: the binding is its location)
        if self.rng.chance(60) {
            let (q, ann) = (self.fresh(), made.annotation());
            self.made_loc = Some(loc);
            let now = self.env[i].1.clone();
            return Some((format!("let {q}:{ann} = {text} in {name}"), now));
        }
        Some((text, made))
    }
}

#[cfg(test)]
mod tests {
    use super::mentions;

    #[test]
    fn a_name_is_mentioned_only_whole() {
        assert!(mentions("prArrI(v1)", "v1"));
        assert!(!mentions("prArrI(v12)", "v1"));
        assert!(!mentions("mv1", "v1"));
        assert!(mentions("Prj(1,(v3,v1))", "v1"));
    }
}
