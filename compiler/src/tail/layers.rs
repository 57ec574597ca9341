//! The lowering's modules import in one direction: each imports only from its own layer or
//! the layers below it (the table in the module documentation of `tail`), and within a layer
//! without a cycle. Checked on the source: the `super::module` paths outside test modules.

use std::collections::{BTreeMap, BTreeSet};

/// The layers, from the bottom (as the `tail` module documentation lists them).
const LAYERS: &[(&str, &[&str])] = &[
    (
        "trees and values",
        &[
            "tree",
            "coords",
            "capacity",
            "range",
            "fault",
            "value",
            "location",
            "check",
            "lowerer",
            "fcl_program",
        ],
    ),
    ("element functions", &["apply"]),
    (
        "operators",
        &[
            "reduce",
            "scan",
            "complex",
            "scalar",
            "shape",
            "dynamic",
            "counts",
            "extents",
            "extent_rows",
            "format",
            "radix",
            "sort",
            "roll",
            "input",
            "store",
            "filter",
            "ops",
        ],
    ),
    (
        "control",
        &[
            "state",
            "step",
            "loops",
            "carry",
            "branch",
            "higher",
            "each_loop",
        ],
    ),
    ("program", &["program", "probe"]),
];

/// The modules `src` (a module's source) imports from its sibling `modules`.
fn imports(src: &str, modules: &BTreeSet<&str>) -> BTreeSet<String> {
    let code = src.split("#[cfg(test)]").next().unwrap_or_default();
    let mut out = BTreeSet::new();
    for (k, _) in code.match_indices("super::") {
        let rest = &code[k + "super::".len()..];
        let mut names: Vec<&str> = Vec::new();
        if let Some(group) = rest.strip_prefix('{') {
            // `use super::{a::x, b::{y, z}}`: the names before `::` at the group's top level
            let group = &group[..group.find("};").unwrap_or(group.len())];
            names.extend(group.split(',').filter_map(|p| p.trim().split("::").next()));
        } else {
            let end = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            names.push(&rest[..end]);
        }
        out.extend(
            names
                .into_iter()
                .filter(|n| modules.contains(n))
                .map(str::to_string),
        );
    }
    out
}

/// The modules' imports, read from the source directory.
fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/tail");
    let modules: BTreeSet<&str> = LAYERS
        .iter()
        .flat_map(|(_, ms)| ms.iter().copied())
        .collect();
    modules
        .iter()
        .map(|m| {
            let src = std::fs::read_to_string(dir.join(format!("{m}.rs")))
                .unwrap_or_else(|e| panic!("module {m}: {e}"));
            let mut deps = imports(&src, &modules);
            deps.remove(*m);
            (m.to_string(), deps)
        })
        .collect()
}

#[test]
fn every_module_is_in_a_layer() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/tail");
    let listed: BTreeSet<&str> = LAYERS
        .iter()
        .flat_map(|(_, ms)| ms.iter().copied())
        .collect();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let stem = path.file_stem().unwrap().to_str().unwrap().to_string();
        let is_rs = path.extension().is_some_and(|e| e == "rs");
        if is_rs && stem != "mod" && stem != "layers" {
            assert!(
                listed.contains(stem.as_str()),
                "module {stem} is in no layer"
            );
        }
    }
}

#[test]
fn modules_import_only_from_their_layer_and_below() {
    let layer_of: BTreeMap<&str, usize> = LAYERS
        .iter()
        .enumerate()
        .flat_map(|(k, (_, ms))| ms.iter().map(move |m| (*m, k)))
        .collect();
    let g = graph();
    let mut wrong = Vec::new();
    for (m, deps) in &g {
        for d in deps {
            if layer_of[d.as_str()] > layer_of[m.as_str()] {
                let (up, down) = (
                    LAYERS[layer_of[d.as_str()]].0,
                    LAYERS[layer_of[m.as_str()]].0,
                );
                wrong.push(format!("{m} ({down}) imports {d} ({up})"));
            }
        }
    }
    assert!(wrong.is_empty(), "imports upward: {wrong:?}");
}

#[test]
fn no_modules_import_one_another_in_a_cycle() {
    let g = graph();
    // depth-first search for a back edge
    fn visit<'a>(
        m: &'a str,
        g: &'a BTreeMap<String, BTreeSet<String>>,
        done: &mut BTreeSet<&'a str>,
        path: &mut Vec<&'a str>,
    ) -> Option<Vec<String>> {
        if let Some(k) = path.iter().position(|p| *p == m) {
            let mut cycle: Vec<String> = path[k..].iter().map(|s| s.to_string()).collect();
            cycle.push(m.to_string());
            return Some(cycle);
        }
        if !done.insert(m) {
            return None;
        }
        path.push(m);
        for d in &g[m] {
            if let Some(c) = visit(d, g, done, path) {
                return Some(c);
            }
        }
        path.pop();
        None
    }
    let mut done = BTreeSet::new();
    for m in g.keys() {
        let cycle = visit(m, &g, &mut done, &mut Vec::new());
        assert!(
            cycle.is_none(),
            "an import cycle: {}",
            cycle.unwrap().join(" -> ")
        );
    }
}

#[test]
fn imports_are_read_from_paths_and_groups() {
    let modules: BTreeSet<&str> = ["value", "tree", "ops"].into_iter().collect();
    let src = "use super::value::Arr;\nuse super::{tree::fcl, LowerTailError};\n\
               fn f() { super::ops::known(); }\n#[cfg(test)]\nmod t { use super::super::x; }";
    let found: Vec<String> = imports(src, &modules).into_iter().collect();
    assert_eq!(found, ["ops", "tree", "value"]);
}
