//! The store of locations (docs/tail-compiler.md §4.1, module `compiler::tail::location`):
//! `idxassign` through one name of a location is seen through every other (`let y = x`, a
//! parameter, `mem`, the prints, a `power` whose step returns its parameter or that runs no
//! trip, an `if` that picks it, a projection), also where the device decides which location an
//! `if` or a `power` of computed count gives; a name that shadows an updated one is not it; and
//! a `power` whose step updates its state in place is one loop.

mod support;

use compiler::tail::lower_tail;
use support::runtime;
use support::tail::check_three_levels;

fn agree_all(programs: &[String]) {
    let rt = runtime();
    for src in programs {
        assert!(
            check_three_levels(src, src, rt.as_ref()).unwrap_or_else(|why| panic!("{src}: {why}"))
        );
    }
}

/// A program that binds `x` (1..5) and `z` (10..50), `y` by `alias` (in terms of `x`, `z` and
/// `c`, an int the device computes: 3), updates through `y`, then through `z` and through the
/// `if` of `c` that picks `z` or `y`, printing every name after each.
fn updating(alias: &str, at: i32) -> String {
    format!(
        "let c:[int]0 = resi(7,reduce(addi,0,drop(1,iota(10000)))) in \
         let x:[int]1 = iota(5) in \
         let z:[int]1 = each(fn e:[int]0 => muli(e,10),iota(5)) in \
         let y:[int]1 = {alias} in \
         let w:[int]1 = if gti(c,{at}) then z else y in \
         let u1:[bool]0 = idxassign([2],y,99) in \
         let p1:[int]1 = prArrI(x) in let q1:[int]1 = prArrI(y) in \
         let u2:[bool]0 = idxassign([3],z,-5) in \
         let p2:[int]1 = prArrI(w) in \
         let u3:[bool]0 = idxassign([1],w,-7) in \
         let p3:[int]1 = prArrI(x) in let q3:[int]1 = prArrI(y) in prArrI(z)"
    )
}

#[test]
fn an_update_through_one_name_is_seen_through_every_name_of_its_location() {
    let aliases = [
        "x",
        "mem(x)",
        "prArrI(x)",
        "Prj(1,(z,x))",
        "power(fn s:[int]1 => s,0,x)",
        "power(fn s:[int]1 => prArrI(s),3,x)",
        "power(fn s:[int]1 => vreverse(s),0,x)",
        // operators whose result is a new array
        "rav(x)",
        "vreverse(x)",
        "power(fn s:[int]1 => vreverse(s),3,x)",
        // an if the device decides, a power of computed count: either location
        "if gti(c,ATc) then x else z",
        "if gti(c,ATc) then x else iota(5)",
        "if gti(c,ATc) then x else take(3,x)",
        "power(fn s:[int]1 => s,c,x)",
        "power(fn s:[int]1 => vreverse(s),subi(c,ATc),x)",
        // a step that updates its state in place
        "power(fn s:[int]1 => let v:[bool]0 = idxassign([1],s,7) in s,c,x)",
        "power(fn s:[int]1 => let v:[bool]0 = idxassign([1],s,7) in vreverse(s),c,iota(5))",
    ];
    let mut programs = Vec::new();
    for alias in aliases {
        // the device's condition both ways (c is 3)
        for at in [2, 3] {
            programs.push(updating(&alias.replace("ATc", &at.to_string()), at));
        }
    }
    // every one compiles with nothing read back (no device needed)
    for src in &programs {
        let l = lower_tail(src).unwrap_or_else(|e| panic!("{src}: {e}"));
        assert_eq!(l.probes, 0, "{src}");
    }
    agree_all(&programs);
}

#[test]
fn reads_see_updates_and_shadowing_names_do_not() {
    let programs = [
        // a scalar if lowered inside a kernel reads the updated array
        "let m:[int]1 = iota(5) in let u:[bool]0 = idxassign([2],m,99) in \
         if gti(reduce(addi,0,drop(1,iota(9000))),3) then idxS(1,2,m) else 0",
        // a name bound again after an update is a new location
        "let m:[int]1 = iota(5) in let u:[bool]0 = idxassign([2],m,99) in \
         let m:[int]1 = iota(3) in m",
        // a closure made after an update reads it
        "let m:[int]1 = iota(5) in let u:[bool]0 = idxassign([2],m,99) in \
         each(fn e:[int]0 => addi(e,idxS(1,2,m)),iota(3))",
        // a tuple holds the location
        "let m:[int]1 = iota(5) in let t:[int]1 = Prj(0,(m,2)) in \
         let u:[bool]0 = idxassign([2],t,99) in m",
        // condScl with a false condition is its argument (3.76), a scalar updated through it
        // (`idxassign` of a rank-0 array by the empty index); a true one is f's new result;
        // one the device decides, either
        "let x:[int]0 = addi(2,3) in let y:[int]0 = condScl(fn a:[int]0 => addi(a,1),ff,x) in \
         let u:[bool]0 = idxassign(zilde(),y,7) in x",
        "let x:[int]0 = addi(2,3) in let y:[int]0 = condScl(fn a:[int]0 => addi(a,1),tt,x) in \
         let u:[bool]0 = idxassign(zilde(),y,7) in let p:[int]0 = prSclI(y) in x",
        "let x:[int]0 = addi(2,3) in \
         let y:[int]0 = condScl(fn a:[int]0 => addi(a,1),gti(reduce(addi,0,drop(1,iota(9000))),3),x) in \
         let u:[bool]0 = idxassign(zilde(),y,7) in let p:[int]0 = prSclI(y) in x",
        "let x:[int]0 = addi(2,3) in \
         let y:[int]0 = condScl(fn a:[int]0 => addi(a,1),lti(reduce(addi,0,drop(1,iota(9000))),3),x) in \
         let u:[bool]0 = idxassign(zilde(),y,7) in let p:[int]0 = prSclI(y) in x",
    ]
    .map(String::from);
    agree_all(&programs);
    // a loop that updates its state in place, the state a location that names chosen by
    // the device's ifs may be: each of them holds the loop's result where it is that location
    let mut loops = Vec::new();
    for at in [2, 6] {
        loops.push(format!(
            "let c:[int]0 = resi(7,reduce(addi,0,drop(1,iota(1000)))) in \
             let x:[int]1 = iota(5) in let z:[int]1 = each(fn e:[int]0 => muli(e,10),iota(5)) in \
             let y:[int]1 = if gti(c,{at}) then x else take(3,x) in \
             let w:[int]1 = if gti(c,{at}) then z else x in \
             let r:[int]1 = power(fn s:[int]1 => let v:[bool]0 = idxassign([1],s,addi(idxS(1,1,s),1)) in s,c,x) in \
             let p:[int]1 = prArrI(y) in let q:[int]1 = prArrI(w) in prArrI(z)"
        ));
    }
    for src in &loops {
        assert_eq!(lower_tail(src).unwrap().probes, 0, "{src}");
    }
    agree_all(&loops);
}

#[test]
fn a_step_that_updates_its_state_in_place_is_one_loop() {
    // 5000 trips: past the cap of a loop run trip by trip; the variable passed in is the
    // loop's state, updated by every trip
    let src = "let m:[int]1 = iota(5) in \
               let r:[int]1 = power(fn s:[int]1 => let u:[bool]0 = idxassign([2],s,addi(idxS(1,2,s),1)) in s,5000,m) in \
               let p:[int]1 = prArrI(r) in m"
        .to_string();
    let l = lower_tail(&src).unwrap_or_else(|e| panic!("{src}: {e}"));
    assert_eq!(l.probes, 0);
    assert!(l.fcl.flat_text().contains("power<grid>"), "{}", l.fcl);
    assert!(l.fcl.flat_text().len() < 10_000, "{}", l.fcl);
    agree_all(&[src]);
}
