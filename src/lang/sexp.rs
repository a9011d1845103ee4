//! Lexer and parser: ZRF text to s-expressions with spans. The parser never stops at the first problem: it
//! records every unbalanced parenthesis and unterminated string and returns what it could read.

use super::diag::Diagnostic;
use super::source::{FileId, Span};
use std::rc::Rc;

/// One s-expression.
#[derive(Clone, Debug)]
pub struct Node {
    pub kind: NodeKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum NodeKind {
    /// A bare word: a name, a number, a direction, `$1`.
    Atom(Rc<str>),
    /// A double-quoted string (ZRF has no escapes inside strings).
    Str(Rc<str>),
    /// A list. Shared, so that copying a section (variants inherit whole games) costs nothing.
    List(Rc<Vec<Node>>),
}

impl Node {
    pub fn atom(&self) -> Option<&str> {
        match &self.kind {
            NodeKind::Atom(a) => Some(a),
            _ => None,
        }
    }

    pub fn string(&self) -> Option<&str> {
        match &self.kind {
            NodeKind::Str(s) => Some(s),
            _ => None,
        }
    }

    /// An atom's or a string's text.
    pub fn text(&self) -> Option<&str> {
        match &self.kind {
            NodeKind::Atom(a) | NodeKind::Str(a) => Some(a),
            _ => None,
        }
    }

    pub fn list(&self) -> Option<&[Node]> {
        match &self.kind {
            NodeKind::List(l) => Some(l),
            _ => None,
        }
    }

    /// The head word of a list: `piece` for `(piece (name Pawn) ...)`.
    pub fn head(&self) -> Option<&str> {
        self.list().and_then(|l| l.first()).and_then(|n| n.atom())
    }

    /// The elements after the head of a list (empty for atoms).
    pub fn args(&self) -> &[Node] {
        match &self.kind {
            NodeKind::List(l) if !l.is_empty() => &l[1..],
            _ => &[],
        }
    }

    /// True for an atom equal (case-insensitively, as ZRF keywords are) to `word`.
    pub fn is_atom(&self, word: &str) -> bool {
        self.atom().is_some_and(|a| a.eq_ignore_ascii_case(word))
    }

    /// Writes the node back as ZRF text.
    pub fn to_source(&self) -> String {
        let mut s = String::new();
        self.write_source(&mut s, usize::MAX);
        s
    }

    /// The node as ZRF text, cut after about `max` bytes with `...` (macro expansions can be megabytes).
    pub fn to_source_limited(&self, max: usize) -> String {
        let mut s = String::new();
        self.write_source(&mut s, max);
        if s.len() > max {
            let mut cut = max;
            while !s.is_char_boundary(cut) {
                cut -= 1;
            }
            s.truncate(cut);
            s.push_str(" ...");
        }
        s
    }

    fn write_source(&self, out: &mut String, max: usize) {
        if out.len() > max {
            return;
        }
        match &self.kind {
            NodeKind::Atom(a) => out.push_str(a),
            NodeKind::Str(s) => {
                out.push('"');
                out.push_str(s);
                out.push('"');
            }
            NodeKind::List(l) => {
                out.push('(');
                for (i, n) in l.iter().enumerate() {
                    if i > 0 {
                        out.push(' ');
                    }
                    n.write_source(out, max);
                }
                out.push(')');
            }
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tok {
    Open,
    Close,
    Atom,
    Str,
}

fn is_delimiter(c: char) -> bool {
    c.is_whitespace() || matches!(c, '(' | ')' | '"' | ';')
}

/// How deep lists may nest, in a file as written and after macro expansion. The corpus nests at most 64 deep
/// (Focus, an unbalanced file); the compiler, the printers and the engine recurse on nesting, so this bound
/// is what keeps them far from the end of a 2 MB thread stack.
pub const MAX_NESTING: usize = 256;

/// How many forms (atoms, strings, lists) one file may hold. The largest corpus file holds about 40,000; this
/// bounds the memory of a hostile file (about 100 bytes per form) before anything else looks at it.
pub const MAX_FORMS: usize = 2_000_000;

/// How many errors of one kind the parser records; past it, they are counted.
const MAX_REPORTED: usize = 100;

/// The tokens of a text, produced on demand (a token vector would cost 24 bytes per token of a hostile file).
struct Lexer<'t> {
    text: &'t str,
    it: std::iter::Peekable<std::str::CharIndices<'t>>,
    /// Where an unterminated string starts: it ends the token stream.
    unterminated: Option<usize>,
}

impl Iterator for Lexer<'_> {
    type Item = (Tok, usize, usize);

    fn next(&mut self) -> Option<(Tok, usize, usize)> {
        while let Some((i, c)) = self.it.next() {
            match c {
                c if c.is_whitespace() => {}
                ';' => {
                    while let Some(&(_, c)) = self.it.peek() {
                        if c == '\n' {
                            break;
                        }
                        self.it.next();
                    }
                }
                '(' => return Some((Tok::Open, i, i + 1)),
                ')' => return Some((Tok::Close, i, i + 1)),
                '"' => {
                    let rest = &self.text[i + 1..];
                    return match rest.find('"') {
                        Some(j) => {
                            let end = i + 1 + j + 1;
                            // Skip the string's characters in the iterator.
                            while self.it.peek().is_some_and(|&(k, _)| k < end) {
                                self.it.next();
                            }
                            Some((Tok::Str, i, end))
                        }
                        None => {
                            self.unterminated = Some(i);
                            while self.it.next().is_some() {}
                            None
                        }
                    };
                }
                _ => {
                    let mut end = i + c.len_utf8();
                    while let Some(&(j, c)) = self.it.peek() {
                        if is_delimiter(c) {
                            break;
                        }
                        end = j + c.len_utf8();
                        self.it.next();
                    }
                    return Some((Tok::Atom, i, end));
                }
            }
        }
        None
    }
}

/// Parses a whole file into its top-level forms, recovering from unbalanced parentheses. Lists nested deeper
/// than [`MAX_NESTING`] are an error and left out; past [`MAX_FORMS`] forms reading stops with an error.
pub fn parse(text: &str, file: FileId) -> (Vec<Node>, Vec<Diagnostic>) {
    let mut errors = Vec::new();
    let mut lexer = Lexer {
        text,
        it: text.char_indices().peekable(),
        unterminated: None,
    };
    // A stack of open lists: (start offset, elements).
    let mut stack: Vec<(usize, Vec<Node>)> = vec![(0, Vec::new())];
    // Lists opened past the nesting limit and not yet closed: their contents are skipped.
    let mut skipped_depth = 0usize;
    let mut too_deep_reported = false;
    let mut unmatched = 0usize;
    let mut forms = 0usize;
    // Where each line starts, and the column of a line's first token, for the indentation heuristic below.
    let line_starts: Vec<usize> = std::iter::once(0)
        .chain(
            text.bytes()
                .enumerate()
                .filter(|(_, b)| *b == b'\n')
                .map(|(i, _)| i + 1),
        )
        .collect();
    let line_of = |offset: usize| line_starts.partition_point(|&s| s <= offset) - 1;
    let column_of = |offset: usize| offset - line_starts[line_of(offset)];
    // The first open form that a later line starts at or left of its own indentation: the usual place of a
    // forgotten `)` in indented code.
    let mut suspect: Option<usize> = None;
    let mut last_line = usize::MAX;
    for (tok, start, end) in lexer.by_ref() {
        let span = Span::new(file, start, end);
        if skipped_depth > 0 {
            match tok {
                Tok::Open => skipped_depth += 1,
                Tok::Close => skipped_depth -= 1,
                _ => {}
            }
            continue;
        }
        if tok != Tok::Close {
            forms += 1;
            if forms > MAX_FORMS {
                errors.push(
                    Diagnostic::error(
                        span,
                        format!("the file holds more than {MAX_FORMS} words, strings and lists"),
                    )
                    .with_hint("this is not a game file, or one far larger than any game needs; reading stopped here"),
                );
                return (vec![], errors);
            }
        }
        if suspect.is_none() && tok == Tok::Open && stack.len() > 2 {
            let line = line_of(start);
            if line != last_line {
                let col = column_of(start);
                let culprit = stack[2..].iter().map(|(s, _)| *s).find(|&s| {
                    line_of(s) < line && column_of(s) >= col && text[s..].starts_with('(')
                });
                suspect = culprit;
            }
        }
        last_line = line_of(start);
        match tok {
            Tok::Open if stack.len() > MAX_NESTING => {
                skipped_depth = 1;
                if !too_deep_reported {
                    too_deep_reported = true;
                    errors.push(
                        Diagnostic::error(
                            span,
                            format!("lists nest more than {MAX_NESTING} deep here"),
                        )
                        .with_hint("no game needs this; a `(` is probably repeated"),
                    );
                }
            }
            Tok::Open => stack.push((start, Vec::new())),
            Tok::Close => {
                if stack.len() == 1 {
                    unmatched += 1;
                    if unmatched <= MAX_REPORTED {
                        errors.push(
                            Diagnostic::error(span, "unmatched `)`")
                                .with_hint("remove it, or add the `(` it closes"),
                        );
                    }
                    continue;
                }
                let (s, items) = stack.pop().unwrap();
                let node = Node {
                    kind: NodeKind::List(items.into()),
                    span: Span::new(file, s, end),
                };
                stack.last_mut().unwrap().1.push(node);
            }
            Tok::Atom => {
                let node = Node {
                    kind: NodeKind::Atom(text[start..end].into()),
                    span,
                };
                stack.last_mut().unwrap().1.push(node);
            }
            Tok::Str => {
                let node = Node {
                    kind: NodeKind::Str(text[start + 1..end - 1].into()),
                    span,
                };
                stack.last_mut().unwrap().1.push(node);
            }
        }
    }
    if unmatched > MAX_REPORTED {
        errors.push(Diagnostic::global(format!(
            "{} more unmatched `)` not shown",
            unmatched - MAX_REPORTED
        )));
    }
    let unterminated_string = lexer.unterminated.is_some();
    if let Some(i) = lexer.unterminated {
        // First, as it explains the rest: the string swallowed the end of the file.
        errors.insert(
            0,
            Diagnostic::error(Span::new(file, i, i + 1), "unterminated string")
                .with_hint("add the closing `\"`"),
        );
    }
    if stack.len() > 1 && unterminated_string {
        // The string swallowed the rest of the file; its error says all there is to say.
    } else if let Some(s) = suspect.filter(|_| stack.len() > 1) {
        errors.push(
            Diagnostic::error(Span::new(file, s, s + 1), "this `(` is probably never closed")
                .with_hint(format!(
                    "a later line starts at its indentation while it is still open; the file ends with {} `)` missing",
                    stack.len() - 1
                )),
        );
    } else if stack.len() > 1 {
        // Report the outermost unclosed form: it is the one whose extent is wrong. The innermost is usually
        // where the missing `)` belongs, so it goes in a note.
        let outer = stack[1].0;
        let inner = stack.last().unwrap().0;
        let mut d = Diagnostic::error(
            Span::new(file, outer, outer + 1),
            "unclosed `(`: the file ends before it is closed",
        )
        .with_hint(format!("{} `)` missing", stack.len() - 1));
        if inner != outer {
            d = d.with_note(
                Span::new(file, inner, inner + 1),
                "the innermost form still open starts here",
            );
        }
        errors.push(d);
    }
    // Close what is still open at the end of the file, so the rest of the reader sees the forms as written.
    while stack.len() > 1 {
        let (s, items) = stack.pop().unwrap();
        let node = Node {
            kind: NodeKind::List(items.into()),
            span: Span::new(file, s, text.len()),
        };
        stack.last_mut().unwrap().1.push(node);
    }
    (stack.pop().unwrap().1, errors)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> (Vec<Node>, Vec<Diagnostic>) {
        parse(s, FileId(0))
    }

    #[test]
    fn parses_atoms_strings_lists_and_comments() {
        let (nodes, errs) = p("(game (title \"A b\") ; comment (\n  (x$1 y))");
        assert!(errs.is_empty());
        assert_eq!(nodes.len(), 1);
        assert_eq!(nodes[0].to_source(), "(game (title \"A b\") (x$1 y))");
        assert_eq!(nodes[0].head(), Some("game"));
    }

    #[test]
    fn backslashes_are_plain_characters_in_strings() {
        let (nodes, errs) = p("(s \"Audio\\Pickup.wav\")");
        assert!(errs.is_empty());
        assert_eq!(nodes[0].args()[0].string(), Some("Audio\\Pickup.wav"));
    }

    #[test]
    fn nesting_past_the_limit_is_one_error_and_is_left_out() {
        let deep = format!("(a {}x{} b) (c)", "(".repeat(1000), ")".repeat(1000));
        let (nodes, errs) = p(&deep);
        assert_eq!(errs.len(), 1, "{errs:?}");
        assert!(errs[0].message.contains("nest more than 256 deep"));
        // The forms around the deep part are read, and nothing deeper than the limit is kept.
        assert_eq!(nodes.len(), 2);
        assert_eq!(nodes[1].to_source(), "(c)");
        assert_eq!(crate::lang::expand::nesting(&nodes[0]), MAX_NESTING);
        let (_, errs) = p(&format!("{}{}", "(".repeat(256), ")".repeat(256)));
        assert!(errs.is_empty(), "256 levels are allowed: {errs:?}");
    }

    #[test]
    fn many_unmatched_parentheses_are_counted_not_listed() {
        let (_, errs) = p(&")".repeat(1000));
        assert_eq!(errs.len(), 101);
        assert_eq!(errs[100].message, "900 more unmatched `)` not shown");
    }

    #[test]
    fn reports_unbalanced_parentheses() {
        let (_, errs) = p("(a (b c)\n(d)");
        assert_eq!(errs.len(), 1);
        assert!(errs[0].message.contains("unclosed"));
        let (_, errs) = p("(a))");
        assert_eq!(errs.len(), 1);
        assert!(errs[0].message.contains("unmatched"));
        let (_, errs) = p("(a \"b)");
        assert!(errs
            .iter()
            .any(|e| e.message.contains("unterminated string")));
    }
}
