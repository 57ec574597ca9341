//! The programs `cost-check` measures and the sizes it measures them at.
//!
//! A program takes its size from `val NAME = INT` lines (the convention of examples/fcl/bench,
//! which `bench_programs` also rewrites). By default the first such line is scaled by each of
//! the `--sizes` factors; a program whose sizes do not scale that way (a tile size that must
//! divide the side, an oracle run that would take minutes) names them in a comment,
//! `-- cost-check sizes: side=16,32,48,64` (several parameters: `rows=…; cols=…`, the same
//! number of values each). A program without a size line runs once, at its own size.

use std::path::{Path, PathBuf};

/// The comment that names a program's sizes.
const DIRECTIVE: &str = "-- cost-check sizes:";

/// One program at one size: its label (`size=4096`) and source text.
#[derive(Clone, Debug)]
pub struct Sized {
    pub label: String,
    pub src: String,
}

/// The `.fcl` files under `paths` (directories are searched recursively, in name order), those
/// with a `NAME.expected-error` sibling left out: a program that reduces to `err` has no time.
pub fn collect(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            walk(p, &mut out)?;
        } else if p.is_file() {
            out.push(p.clone());
        } else {
            return Err(format!("{}: no such file or directory", p.display()));
        }
    }
    Ok(out)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for e in entries {
        if e.is_dir() {
            walk(&e, out)?;
        } else if e.extension().is_some_and(|x| x == "fcl")
            && !e.with_extension("expected-error").exists()
        {
            out.push(e);
        }
    }
    Ok(())
}

/// A program's name in the report: its directory and stem (`bench/transpose`).
pub fn name(path: &Path) -> String {
    let stem = path.file_stem().unwrap_or_default().to_string_lossy();
    match path.parent().and_then(|d| d.file_name()) {
        Some(d) => format!("{}/{stem}", d.to_string_lossy()),
        None => stem.into_owned(),
    }
}

/// Parses `--sizes`: factors such as `1/4,1/2,1,2,4`.
pub fn parse_factors(s: &str) -> Result<Vec<f64>, String> {
    s.split(',')
        .map(|f| {
            let f = f.trim();
            let v = match f.split_once('/') {
                Some((a, b)) => a
                    .trim()
                    .parse::<f64>()
                    .ok()
                    .zip(b.trim().parse::<f64>().ok())
                    .map(|(a, b)| a / b),
                None => f.parse::<f64>().ok(),
            };
            v.filter(|v| v.is_finite() && *v > 0.0)
                .ok_or_else(|| format!("--sizes: `{f}` is not a positive factor (e.g. 1/4, 2)"))
        })
        .collect()
}

/// The `val NAME = INT` size lines of `src`: name and value.
fn size_lines(src: &str) -> Vec<(String, i64)> {
    src.lines()
        .filter_map(|l| {
            let rest = l.strip_prefix("val ")?;
            let (name, v) = rest.split_once(" = ")?;
            let ok =
                !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            Some((
                name.to_string(),
                v.trim().parse::<i64>().ok().filter(|_| ok)?,
            ))
        })
        .collect()
}

/// One size of a program: a value for each of its size parameters.
type Setting = Vec<(String, i64)>;

/// The sizes named by a directive: one setting per size.
fn directive(src: &str) -> Option<Result<Vec<Setting>, String>> {
    let line = src.lines().find_map(|l| l.trim().strip_prefix(DIRECTIVE))?;
    let mut params: Vec<(String, Vec<i64>)> = Vec::new();
    for part in line.split(';').filter(|p| !p.trim().is_empty()) {
        let Some((name, values)) = part.split_once('=') else {
            return Some(Err(format!("`{}`: expected NAME=V1,V2,…", part.trim())));
        };
        let values: Result<Vec<i64>, _> = values.split(',').map(|v| v.trim().parse()).collect();
        match values {
            Ok(v) => params.push((name.trim().to_string(), v)),
            Err(_) => return Some(Err(format!("`{}`: values must be integers", part.trim()))),
        }
    }
    let n = params.first().map_or(0, |p| p.1.len());
    if n == 0 || params.iter().any(|p| p.1.len() != n) {
        return Some(Err("every parameter needs the same number of values".into()));
    }
    Some(Ok((0..n)
        .map(|i| {
            params
                .iter()
                .map(|(name, v)| (name.clone(), v[i]))
                .collect()
        })
        .collect()))
}

/// The sizes to measure `src` at: from its directive, else its first size line scaled by
/// `factors`, else its own size.
pub fn sizes(src: &str, factors: &[f64]) -> Result<Vec<Sized>, String> {
    let settings: Vec<Setting> = match directive(src) {
        Some(d) => d?,
        None => match size_lines(src).into_iter().next() {
            Some((name, v)) => {
                let mut seen = Vec::new();
                for f in factors {
                    let scaled = ((v as f64) * f).round().max(1.0) as i64;
                    if !seen.contains(&scaled) {
                        seen.push(scaled);
                    }
                }
                seen.into_iter().map(|s| vec![(name.clone(), s)]).collect()
            }
            None => {
                return Ok(vec![Sized {
                    label: "as written".into(),
                    src: src.to_string(),
                }])
            }
        },
    };
    Ok(settings
        .iter()
        .map(|s| Sized {
            label: s
                .iter()
                .map(|(n, v)| format!("{n}={v}"))
                .collect::<Vec<_>>()
                .join(" "),
            src: compiler::with_sizes(src, s),
        })
        .collect())
}

/// `src` without its `benchmark` lines (`; benchmark N (…)`, a statement of main's `do`), or
/// `None` when it has none. The oracle runs a benchmark's body once (spec §4.4), so the counts
/// of one timed run are those of the program less those of this one.
pub fn without_benchmark(src: &str) -> Option<String> {
    let is_bench = |l: &str| l.trim_start().starts_with("; benchmark ");
    src.lines().any(is_bench).then(|| {
        src.lines()
            .filter(|l| !is_bench(l))
            .collect::<Vec<_>>()
            .join("\n")
            + "\n"
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_scale_the_first_size_line_or_follow_the_directive() {
        let src = "val size = 1024\nval other = 3\nsig main : Program <grid> unit\n";
        let s = sizes(src, &[0.25, 1.0, 4.0]).unwrap();
        let labels: Vec<&str> = s.iter().map(|s| s.label.as_str()).collect();
        assert_eq!(labels, ["size=256", "size=1024", "size=4096"]);
        assert!(s[2].src.contains("val size = 4096\nval other = 3\n"));
        let d = "-- cost-check sizes: side=16,32; k=1,2\nval side = 64\nval k = 9\n";
        let s = sizes(d, &[1.0]).unwrap();
        assert_eq!(s.len(), 2);
        assert_eq!(s[1].label, "side=32 k=2");
        assert!(s[1].src.contains("val side = 32\nval k = 2"));
        assert!(sizes("-- cost-check sizes: side=1,2; k=1\n", &[1.0]).is_err());
        assert_eq!(sizes("val main = 1\n", &[2.0]).unwrap()[0].label, "main=2");
        assert_eq!(
            sizes("fun f x = x\n", &[2.0]).unwrap()[0].label,
            "as written"
        );
    }

    #[test]
    fn factors_and_benchmark_lines() {
        assert_eq!(parse_factors("1/4, 2,8").unwrap(), [0.25, 2.0, 8.0]);
        assert!(parse_factors("0").is_err());
        assert!(parse_factors("x").is_err());
        let src = "do<grid>\n  { a <- f\n  ; benchmark 100 (g a)\n  ; b <- g a\n  }\n";
        assert_eq!(
            without_benchmark(src).unwrap(),
            "do<grid>\n  { a <- f\n  ; b <- g a\n  }\n"
        );
        assert!(without_benchmark("val x = 1\n").is_none());
    }
}
