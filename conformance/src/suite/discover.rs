//! Finding conformance tests on disk.

use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};

/// The language of a test program, from its extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    Tail,
    Fcl,
}

impl Lang {
    /// The language a file extension names (`tail`, `fcl`).
    pub fn from_extension(ext: &str) -> Option<Lang> {
        match ext {
            "tail" => Some(Lang::Tail),
            "fcl" => Some(Lang::Fcl),
            _ => None,
        }
    }
}

/// What a test expects.
#[derive(Clone, Debug, PartialEq)]
pub enum Expectation {
    /// Exactly this stdout.
    Output(String),
    /// The program fails with an error of this kind (e.g. `index-out-of-bounds`).
    Error(String),
}

/// One conformance test.
#[derive(Clone, Debug)]
pub struct TestCase {
    /// The program's path without extension, relative to the folder it was found under.
    pub name: String,
    /// The program file.
    pub program: PathBuf,
    pub lang: Lang,
    pub expectation: Expectation,
    /// The FCL machine, `BxT`, from `NAME.machine`.
    pub machine: Option<String>,
    /// The numeric tolerance, from `NAME.tolerance` or an FCL `-- tolerance:` header.
    pub tolerance: Option<f64>,
}

/// Why a folder does not hold a well-formed suite.
#[derive(Debug, PartialEq)]
pub struct DiscoverError {
    pub path: PathBuf,
    pub reason: String,
}

impl fmt::Display for DiscoverError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.reason)
    }
}

impl std::error::Error for DiscoverError {}

/// Finds every test under `paths` (folders are searched recursively; a program file is taken as
/// a single test). Tests come sorted by name. A program without an expectation, with both kinds
/// of expectation, or with a malformed `.machine`/`.tolerance` file is an error, so that a broken
/// suite cannot silently shrink.
pub fn discover(paths: &[PathBuf]) -> Result<Vec<TestCase>, DiscoverError> {
    let mut tests = Vec::new();
    for root in paths {
        if root.is_dir() {
            let mut programs = Vec::new();
            collect_programs(root, &mut programs)?;
            for program in programs {
                let name = program
                    .strip_prefix(root)
                    .unwrap_or(&program)
                    .with_extension("")
                    .to_string_lossy()
                    .replace('\\', "/");
                tests.push(load(&program, name)?);
            }
        } else {
            let name = root
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            tests.push(load(root, name)?);
        }
    }
    tests.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(tests)
}

fn collect_programs(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), DiscoverError> {
    let entries = fs::read_dir(dir).map_err(|e| DiscoverError {
        path: dir.to_path_buf(),
        reason: e.to_string(),
    })?;
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            collect_programs(&path, out)?;
        } else if language_of(&path).is_some() {
            out.push(path);
        }
    }
    Ok(())
}

fn language_of(path: &Path) -> Option<Lang> {
    path.extension()
        .and_then(|e| e.to_str())
        .and_then(Lang::from_extension)
}

fn read_optional(path: &Path) -> Result<Option<String>, DiscoverError> {
    match fs::read(path) {
        Ok(bytes) => Ok(Some(String::from_utf8_lossy(&bytes).into_owned())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(DiscoverError {
            path: path.to_path_buf(),
            reason: e.to_string(),
        }),
    }
}

fn load(program: &Path, name: String) -> Result<TestCase, DiscoverError> {
    let fail = |path: &Path, reason: &str| DiscoverError {
        path: path.to_path_buf(),
        reason: reason.to_string(),
    };
    let lang = language_of(program).ok_or_else(|| fail(program, "not a .tail or .fcl program"))?;
    if !program.is_file() {
        return Err(fail(program, "no such program"));
    }
    let expected_path = program.with_extension("expected");
    let error_path = program.with_extension("expected-error");
    let expectation = match (read_optional(&expected_path)?, read_optional(&error_path)?) {
        (Some(out), None) => Expectation::Output(out),
        (None, Some(kind)) => {
            let kind = kind.lines().next().unwrap_or("").trim().to_string();
            if kind.is_empty() {
                return Err(fail(&error_path, "empty error kind"));
            }
            Expectation::Error(kind)
        }
        (Some(_), Some(_)) => return Err(fail(program, "has both .expected and .expected-error")),
        (None, None) => return Err(fail(program, "has neither .expected nor .expected-error")),
    };
    let machine_path = program.with_extension("machine");
    let machine = match read_optional(&machine_path)? {
        Some(text) => {
            let m = text.trim().to_string();
            if !is_machine(&m) {
                return Err(fail(&machine_path, "a machine is written BxT, e.g. 2x4"));
            }
            Some(m)
        }
        None => None,
    };
    let tolerance = tolerance_of(program, lang)?;
    Ok(TestCase {
        name,
        program: program.to_path_buf(),
        lang,
        expectation,
        machine,
        tolerance,
    })
}

/// `BxT` with positive B and T.
fn is_machine(text: &str) -> bool {
    let mut parts = text.split('x');
    let positive = |p: Option<&str>| p.and_then(|s| s.parse::<u32>().ok()).is_some_and(|n| n > 0);
    positive(parts.next()) && positive(parts.next()) && parts.next().is_none()
}

fn parse_tolerance(path: &Path, text: &str) -> Result<f64, DiscoverError> {
    match text.trim().parse::<f64>() {
        Ok(eps) if eps >= 0.0 && eps.is_finite() => Ok(eps),
        _ => Err(DiscoverError {
            path: path.to_path_buf(),
            reason: format!("not a tolerance: {:?}", text.trim()),
        }),
    }
}

fn tolerance_of(program: &Path, lang: Lang) -> Result<Option<f64>, DiscoverError> {
    let file = program.with_extension("tolerance");
    if let Some(text) = read_optional(&file)? {
        return parse_tolerance(&file, &text).map(Some);
    }
    if lang == Lang::Fcl {
        let source = read_optional(program)?.unwrap_or_default();
        // The header may only sit among the leading comment lines, so a string in the
        // program's body cannot turn tolerance on.
        for line in source
            .lines()
            .take_while(|l| l.trim_start().starts_with("--") || l.trim().is_empty())
        {
            if let Some(rest) = line
                .trim_start()
                .trim_start_matches('-')
                .trim_start()
                .strip_prefix("tolerance:")
            {
                return parse_tolerance(program, rest).map(Some);
            }
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn machine_syntax() {
        assert!(is_machine("2x4"));
        assert!(!is_machine("2x"));
        assert!(!is_machine("0x4"));
        assert!(!is_machine("2x4x1"));
    }
}
