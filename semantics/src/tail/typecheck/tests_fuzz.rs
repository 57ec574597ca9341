//! No panics on bad input: random bytes, random token soup and random edits of valid programs
//! go through the parser, and whatever parses through the checker, printer and `to_surface`.

use crate::tail::parser::parse;
use crate::tail::printer::print;
use crate::tail::syntax_to_surface::to_surface;
use crate::tail::typecheck::typecheck;

/// A small deterministic generator (splitmix64), so that failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const PIECES: &[&str] = &[
    "let ",
    " in ",
    "fn ",
    " => ",
    "if ",
    " then ",
    " else ",
    "Prj(",
    "(",
    ")",
    "[",
    "]",
    ",",
    ":",
    "=",
    "<",
    ">",
    "*",
    "->",
    "+",
    "{",
    "}",
    "[int]0",
    "<int>3",
    "S(int,~1)",
    "SV(bool,1)",
    "'a1",
    "'b0",
    "'\\^A'",
    "'\\127'",
    "'''",
    "1",
    "-7",
    "~3",
    "2147483648",
    "1.5e-7",
    "inf",
    "3.0j-2.0",
    "tt",
    "ff",
    "v1",
    "mv2",
    "addi",
    "reduce",
    "each",
    "iotaV",
    "zilde",
    "take",
    "power",
    "idxassign",
    "transp2",
    "prArrI",
    "i2d",
    "x",
    "\n",
];

fn seeds() -> Vec<String> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../paper-examples");
    let mut out = vec![
        "let v1:<int>4 = iotaV(4) in\nlet v2:[int]1 = eachV(fn v3:[int]0 => muli(v3,v3),v1) in\ni2d(reduce(addi,0,v2))\n".to_string(),
    ];
    for dir in std::fs::read_dir(root).into_iter().flatten().flatten() {
        for f in std::fs::read_dir(dir.path())
            .into_iter()
            .flatten()
            .flatten()
        {
            if f.path().extension().is_some_and(|x| x == "tail") {
                out.extend(std::fs::read_to_string(f.path()).ok());
            }
        }
    }
    out
}

fn exercise(src: &str) {
    if let Ok(e) = parse(src) {
        let _ = typecheck(&e);
        // Literals are printed with 12 significant digits (spec §6.6), so the AST may change
        // once; the text is then stable.
        let text = print(&e);
        let again = parse(&text).unwrap_or_else(|d| panic!("{src:?} printed unparsable: {d}"));
        assert_eq!(print(&again), text, "printing {src:?} is not stable");
        drop(to_surface(&e));
    }
}

#[test]
fn twenty_thousand_bad_inputs_never_panic() {
    let mut rng = Rng(7);
    let seeds = seeds();
    let mut count = 0;
    for _ in 0..6_000 {
        let n = rng.below(40);
        let bytes: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
        exercise(&String::from_utf8_lossy(&bytes));
        count += 1;
    }
    for _ in 0..6_000 {
        let n = 1 + rng.below(20);
        let src: String = (0..n).map(|_| PIECES[rng.below(PIECES.len())]).collect();
        exercise(&src);
        count += 1;
    }
    for _ in 0..8_000 {
        let mut s = seeds[rng.below(seeds.len())].clone().into_bytes();
        for _ in 0..1 + rng.below(3) {
            let at = rng.below(s.len() + 1);
            match rng.below(3) {
                0 if at < s.len() => {
                    let len = rng.below(8).min(s.len() - at);
                    s.drain(at..at + len);
                }
                1 => {
                    let piece = PIECES[rng.below(PIECES.len())];
                    s.splice(at..at, piece.bytes());
                }
                _ if at < s.len() => s[at] = b"()[],:=<>'-~0j.e"[rng.below(16)],
                _ => {}
            }
        }
        exercise(&String::from_utf8_lossy(&s));
        count += 1;
    }
    assert_eq!(count, 20_000);
}
