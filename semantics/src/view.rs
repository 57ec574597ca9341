//! Whole configurations as trees for the teaching stepper: a [`Tree`] is a term laid out with the
//! `pretty` crate whose sub-terms can be addressed by a *path* (child indices from the root).
//!
//! Why paths: a step `E[r] ↪ E[r']` keeps its context `E`, so the path of the hole of `E` — read
//! off the steppers' context stacks after the step — is also where the redex `r` sat in the
//! configuration before the step. Rendering the previous configuration with that path marked
//! highlights the redex without searching for it. A path that runs past a leaf (a rule whose
//! contractum pushed new frames, e.g. a decomposition into applications) marks the deepest node
//! it reached, which is the redex in the thesis's sense.

use pretty::{RcDoc, Render, RenderAnnotated};

/// Line width of rendered configurations.
pub const WIDTH: usize = 80;

/// One piece of a [`Tree`].
#[derive(Clone, Debug)]
pub enum Item {
    /// Literal text.
    Text(String),
    /// A sub-term: the k-th `Child` of a tree is its child k.
    Child(Tree),
    /// A space, or a line break when the group does not fit.
    Line,
    /// Nothing, or a line break when the group does not fit.
    Break,
}

/// A term as a sequence of text, breaks and sub-terms; laid out as one `pretty` group.
#[derive(Clone, Debug, Default)]
pub struct Tree {
    pub items: Vec<Item>,
    /// Lay the items out without indenting continuation lines (a `let` chain reads down the
    /// page rather than stepping right).
    pub no_indent: bool,
}

impl Tree {
    /// A leaf.
    pub fn atom(s: impl Into<String>) -> Tree {
        Tree {
            items: vec![Item::Text(s.into())],
            no_indent: false,
        }
    }

    /// `name(c0,c1,…)` with the arguments as children.
    pub fn call(name: &str, args: Vec<Tree>) -> Tree {
        Tree::wrap(&format!("{name}("), args, ")")
    }

    /// `open c0, c1, … close` with the elements as children.
    pub fn wrap(open: &str, elems: Vec<Tree>, close: &str) -> Tree {
        let mut items = vec![Item::Text(open.to_string()), Item::Break];
        for (k, e) in elems.into_iter().enumerate() {
            if k > 0 {
                items.push(Item::Text(",".into()));
                items.push(Item::Break);
            }
            items.push(Item::Child(e));
        }
        items.push(Item::Text(close.to_string()));
        Tree {
            items,
            no_indent: false,
        }
    }

    /// `(f) (a)`: an application with the function and the argument as children 0 and 1.
    pub fn app(f: Tree, a: Tree) -> Tree {
        Tree {
            items: vec![
                Item::Text("(".into()),
                Item::Child(f),
                Item::Text(")".into()),
                Item::Line,
                Item::Text("(".into()),
                Item::Child(a),
                Item::Text(")".into()),
            ],
            no_indent: false,
        }
    }

    /// `(f) a`: an application as TAIL traces write it (the argument is a value).
    pub fn app_value(f: Tree, a: Tree) -> Tree {
        Tree::atom("(").child(f).text(")").line().child(a)
    }

    /// Appends literal text.
    pub fn text(mut self, s: impl Into<String>) -> Tree {
        self.items.push(Item::Text(s.into()));
        self
    }

    /// Appends a child.
    pub fn child(mut self, t: Tree) -> Tree {
        self.items.push(Item::Child(t));
        self
    }

    /// Appends a space-or-newline.
    pub fn line(mut self) -> Tree {
        self.items.push(Item::Line);
        self
    }

    /// `let x = rhs in` and the body on the next line when it does not fit, unindented.
    pub fn let_in(name: &str, rhs: Tree, body: Tree) -> Tree {
        let mut t = Tree::atom(format!("let {name} = "))
            .child(rhs)
            .text(" in")
            .line()
            .child(body);
        t.no_indent = true;
        t
    }

    /// `if c then a else b`, the three parts as children 0, 1, 2.
    pub fn if_then_else(c: Tree, a: Tree, b: Tree) -> Tree {
        Tree::atom("if ")
            .child(c)
            .line()
            .text("then ")
            .child(a)
            .line()
            .text("else ")
            .child(b)
    }

    /// The tree as flat text (no line breaks).
    pub fn flat(&self) -> String {
        render(self, usize::MAX / 4, &[]).0
    }
}

type Doc<'a> = RcDoc<'a, ()>;

/// Renders `tree` at `width`, marking the sub-terms at `paths`; returns the text and the byte
/// span of each marked sub-term, in order of appearance.
pub fn render(tree: &Tree, width: usize, paths: &[Vec<usize>]) -> (String, Vec<(usize, usize)>) {
    let targets: Vec<&[usize]> = paths.iter().map(|p| p.as_slice()).collect();
    let doc = doc(tree, &targets);
    let mut out = Marks::default();
    // writing to a String cannot fail
    let _ = doc.render_raw(width, &mut out);
    (out.text, out.spans)
}

fn doc<'a>(tree: &'a Tree, targets: &[&[usize]]) -> Doc<'a> {
    let n_children = tree
        .items
        .iter()
        .filter(|i| matches!(i, Item::Child(_)))
        .count();
    // a target ending here, or running past this node's children, marks this node
    let here = targets
        .iter()
        .any(|p| p.first().is_none_or(|&k| k >= n_children));
    let inner: Vec<&[usize]> = if here { Vec::new() } else { targets.to_vec() };
    let mut k = 0;
    let parts = tree.items.iter().map(|item| match item {
        Item::Text(s) => RcDoc::text(s.as_str()),
        Item::Line => RcDoc::line(),
        Item::Break => RcDoc::line_(),
        Item::Child(c) => {
            let sub: Vec<&[usize]> = inner
                .iter()
                .filter(|p| p.first() == Some(&k))
                .map(|p| &p[1..])
                .collect();
            k += 1;
            doc(c, &sub)
        }
    });
    let d = RcDoc::concat(parts);
    let d = if tree.no_indent { d } else { d.nest(2) }.group();
    if here {
        d.annotate(())
    } else {
        d
    }
}

/// A renderer that records where annotated documents start and end.
#[derive(Default)]
struct Marks {
    text: String,
    spans: Vec<(usize, usize)>,
    open: Vec<usize>,
}

impl Render for Marks {
    type Error = std::fmt::Error;
    fn write_str(&mut self, s: &str) -> Result<usize, Self::Error> {
        self.text.push_str(s);
        Ok(s.len())
    }
    fn fail_doc(&self) -> Self::Error {
        std::fmt::Error
    }
}

impl RenderAnnotated<'_, ()> for Marks {
    fn push_annotation(&mut self, _: &()) -> Result<(), Self::Error> {
        self.open.push(self.text.len());
        Ok(())
    }
    fn pop_annotation(&mut self) -> Result<(), Self::Error> {
        if let Some(start) = self.open.pop() {
            self.spans.push((start, self.text.len()));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Tree {
        Tree::call(
            "addi",
            vec![
                Tree::atom("l1"),
                Tree::call("subi", vec![Tree::atom("l2"), Tree::atom("3")]),
            ],
        )
    }

    #[test]
    fn marks_the_sub_term_at_a_path() {
        let (text, spans) = render(&sample(), WIDTH, &[vec![1, 0]]);
        assert_eq!(text, "addi(l1,subi(l2,3))");
        assert_eq!(spans, vec![(13, 15)]);
        assert_eq!(&text[13..15], "l2");
    }

    #[test]
    fn a_path_past_a_leaf_marks_the_leaf() {
        let (text, spans) = render(&sample(), WIDTH, &[vec![0, 4, 2]]);
        assert_eq!(&text[spans[0].0..spans[0].1], "l1");
        let (_, root) = render(&sample(), WIDTH, &[vec![]]);
        assert_eq!(root, vec![(0, 19)]);
    }

    #[test]
    fn narrow_width_breaks_lines_and_keeps_marks_exact() {
        let long: Vec<Tree> = (0..30).map(|i| Tree::atom(format!("l{i}"))).collect();
        let t = Tree::call("cat", vec![Tree::wrap("[", long, "]"), Tree::atom("l99")]);
        let (text, spans) = render(&t, 20, &[vec![0, 17], vec![1]]);
        assert!(text.lines().count() > 3, "{text}");
        assert!(text.lines().all(|l| l.chars().count() <= 20), "{text}");
        assert_eq!(&text[spans[0].0..spans[0].1], "l17");
        assert_eq!(&text[spans[1].0..spans[1].1], "l99");
        assert_eq!(
            t.flat().replace(',', ""),
            text.split_whitespace().collect::<String>().replace(',', "")
        );
    }
}
