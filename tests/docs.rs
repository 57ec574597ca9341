//! Keeps the documentation honest: `docs/design.md` names every subcommand and every long option
//! that `tailfcl` actually has (read from the binary's own help, so a new flag without its
//! documentation fails here), and README.md and docs/*.md link only to files inside the
//! repository that exist.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Stdout of `tailfcl ARGS` (help output; exit 0 expected).
fn help(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_tailfcl"))
        .args(args)
        .output()
        .expect("the binary runs");
    assert!(out.status.success(), "tailfcl {args:?} failed");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The subcommands listed under `Commands:` in `tailfcl help` (without clap's own `help`).
fn subcommands() -> Vec<String> {
    let text = help(&["help"]);
    text.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .map(str::to_string)
        .collect()
}

/// Every `--long-option` in a help text's option column (what precedes the first two spaces of
/// a line starting with `-`; descriptions may mention other options).
fn long_options(help_text: &str) -> BTreeSet<String> {
    help_text
        .lines()
        .map(str::trim_start)
        .filter(|l| l.starts_with('-'))
        .map(|l| l.split("  ").next().unwrap_or(""))
        .flat_map(|l| l.split([' ', ',', '=']))
        .filter(|w| w.starts_with("--") && w.len() > 2)
        .map(str::to_string)
        .collect()
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

#[test]
fn design_names_every_subcommand_and_long_option() {
    let design = read(&root().join("docs/design.md"));
    let commands = subcommands();
    // the binary has more than a handful of commands; an empty list means the parsing broke
    assert!(commands.len() >= 8, "subcommands parsed: {commands:?}");
    let mut missing = Vec::new();
    for c in &commands {
        if !design.contains(&format!("`tailfcl {c}")) {
            missing.push(format!("command `tailfcl {c}`"));
        }
        for opt in long_options(&help(&["help", c])) {
            // an option is documented when it appears as code: `--opt` or `--opt <VALUE>`
            if !design.contains(&format!("`{opt}`")) && !design.contains(&format!("`{opt} ")) {
                missing.push(format!("option {opt} of `tailfcl {c}`"));
            }
        }
    }
    for opt in long_options(&help(&["--help"])) {
        if !design.contains(&format!("{opt}`")) && !design.contains(&format!("{opt} ")) {
            missing.push(format!("global option {opt}"));
        }
    }
    assert!(
        missing.is_empty(),
        "docs/design.md does not document: {missing:#?}"
    );
}

/// README.md and every docs/*.md file.
fn documents() -> Vec<PathBuf> {
    let mut docs = vec![root().join("README.md")];
    let mut found: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .expect("docs/ exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    found.sort();
    docs.extend(found);
    docs
}

/// The text with fenced code blocks and inline code spans blanked out, so that TAIL values such
/// as `[](7)` are not read as links.
fn prose(text: &str) -> String {
    let mut out = String::new();
    let mut fenced = false;
    // a code span may run over a line break, but not over a paragraph's end
    let mut in_code = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            out.push('\n');
            continue;
        }
        if line.trim().is_empty() {
            in_code = false;
        }
        if !fenced {
            for ch in line.chars() {
                if ch == '`' {
                    in_code = !in_code;
                } else if !in_code {
                    out.push(ch);
                }
            }
        }
        out.push('\n');
    }
    out
}

/// Targets of markdown links `[text](target)` in prose.
fn link_targets(text: &str) -> Vec<String> {
    let prose = prose(text);
    let mut targets = Vec::new();
    let mut rest = prose.as_str();
    while let Some(i) = rest.find("](") {
        rest = &rest[i + 2..];
        if let Some(end) = rest.find(')') {
            targets.push(rest[..end].trim().to_string());
            rest = &rest[end..];
        }
    }
    targets
}

#[test]
fn documents_link_only_inside_the_repository() {
    let mut bad = Vec::new();
    for doc in documents() {
        let text = read(&doc);
        let name = doc
            .strip_prefix(root())
            .unwrap_or(&doc)
            .display()
            .to_string();
        for needle in ["../", "shared/", "/work/"] {
            if text.contains(needle) {
                bad.push(format!(
                    "{name} mentions `{needle}`, a path outside the repository"
                ));
            }
        }
        for target in link_targets(&text) {
            if target.starts_with("http://")
                || target.starts_with("https://")
                || target.starts_with('#')
            {
                continue;
            }
            let file = target.split('#').next().unwrap_or("");
            let resolved = doc.parent().unwrap_or(root()).join(file);
            if file.is_empty() || !resolved.exists() {
                bad.push(format!("{name} links to `{target}`, which does not exist"));
            }
        }
    }
    assert!(bad.is_empty(), "{bad:#?}");
}

#[test]
fn the_link_reader_sees_links_and_skips_code() {
    let text =
        "See [design](docs/design.md) and `[](7)`, `a\n[2](1,2)`.\n```\n[x](nowhere.md)\n```\n";
    assert_eq!(link_targets(text), vec!["docs/design.md".to_string()]);
    let opts = long_options("      --max-steps <MAX_STEPS>\n  -O <OPT>  text --not-an-option\n");
    assert_eq!(opts.into_iter().collect::<Vec<_>>(), vec!["--max-steps"]);
}
