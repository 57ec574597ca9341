//! Pointing at the source lines that an OpenCL build log complains about.

/// The generated-source lines that `log` names as `<source>:LINE:COL` (or `:LINE:`), each with
/// its number, so that a build failure shows the code, not just the message.
pub fn offending_lines(log: &str, src: &str) -> String {
    let lines: Vec<&str> = src.lines().collect();
    let mut seen = Vec::new();
    for word in log.split(|c: char| c.is_whitespace()) {
        let mut parts = word.split(':');
        let (_, Some(line)) = (parts.next(), parts.next()) else {
            continue;
        };
        if let Ok(n) = line.parse::<usize>() {
            if n >= 1 && n <= lines.len() && !seen.contains(&n) && parts.next().is_some() {
                seen.push(n);
            }
        }
    }
    seen.iter()
        .map(|n| format!("{n:5} | {}\n", lines[n - 1]))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_the_lines_of_the_log() {
        let src = "kernel void k() {\n  int x = y;\n}\n";
        let log = "<source>:2:11: error: use of undeclared identifier 'y'";
        assert_eq!(offending_lines(log, src), "    2 |   int x = y;\n");
    }
}
