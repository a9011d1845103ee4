//! The preprocessor: `include`, `define` macros with textual `$N` substitution, and the assembly of `game` and
//! `variant` forms into one list of sections per playable game.
//!
//! Substitution is textual, as in Zillions: `$N` is pasted inside atoms (`p$1`) and strings (`"images/$1.bmp"`),
//! and an argument may be a whole list. An atom that becomes text with parentheses or spaces is read again.

use super::diag::Diagnostic;
use super::sexp::{parse, Node, NodeKind};
use super::source::{SourceMap, Span};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::path::Path;
use std::rc::Rc;

/// How deep macros may call macros before we call it runaway recursion.
const MAX_DEPTH: usize = 200;
/// How many nodes expansion may produce for one file; guards against exponential macros.
const MAX_NODES: usize = 20_000_000;
/// How deep includes may nest.
const MAX_INCLUDE_DEPTH: usize = 16;

struct Macro {
    name: Rc<str>,
    body: Vec<Node>,
}

/// One playable game of a file: a `game`, or a `variant` merged with the game before it.
#[derive(Clone, Debug)]
pub struct GameSource {
    pub title: String,
    /// 1-based number in file order, counting games and variants (menu separators are not counted).
    pub number: usize,
    pub is_variant: bool,
    /// Marked `(default)`: the variant a Zillions menu opens first.
    pub default: bool,
    /// The sections after macro expansion and variant inheritance.
    pub sections: Vec<Node>,
    /// The `game` or `variant` form.
    pub span: Span,
}

/// Splices `(include "file")` forms anywhere in the tree with the forms of that file.
fn resolve_includes(
    nodes: Vec<Node>,
    dir: &Path,
    sources: &mut SourceMap,
    diags: &mut Vec<Diagnostic>,
    depth: usize,
    seen: &mut HashSet<std::path::PathBuf>,
) -> Vec<Node> {
    let mut out = Vec::with_capacity(nodes.len());
    for node in nodes {
        if node
            .head()
            .is_some_and(|h| h.eq_ignore_ascii_case("include"))
        {
            let Some(name) = node.args().first().and_then(|n| n.text()) else {
                diags.push(
                    Diagnostic::error(node.span, "`include` needs a file name")
                        .with_hint("(include \"file.zrf\")"),
                );
                continue;
            };
            let path = dir.join(name.replace('\\', "/"));
            if depth >= MAX_INCLUDE_DEPTH || seen.contains(&path) {
                diags.push(Diagnostic::error(
                    node.span,
                    format!("`{name}` includes itself"),
                ));
                continue;
            }
            match sources.read(&path) {
                Ok(id) => {
                    let (forms, errs) = parse(&sources.file(id).text.clone(), id);
                    diags.extend(errs);
                    seen.insert(path.clone());
                    let sub_dir = path.parent().unwrap_or(dir).to_path_buf();
                    out.extend(resolve_includes(
                        forms,
                        &sub_dir,
                        sources,
                        diags,
                        depth + 1,
                        seen,
                    ));
                    seen.remove(&path);
                }
                Err(e) => diags.push(
                    Diagnostic::error(
                        node.args()[0].span,
                        format!("cannot read included file `{}`: {e}", path.display()),
                    )
                    .with_hint("include paths are relative to the including file"),
                ),
            }
            continue;
        }
        match node.kind {
            NodeKind::List(items) if items.iter().any(|n| n.list().is_some()) => {
                let items = resolve_includes(items.to_vec(), dir, sources, diags, depth, seen);
                out.push(Node {
                    kind: NodeKind::List(items.into()),
                    span: node.span,
                });
            }
            _ => out.push(node),
        }
    }
    out
}

struct Expander<'a> {
    macros: HashMap<String, Rc<Macro>>,
    diags: &'a mut Vec<Diagnostic>,
    produced: usize,
    failed: bool,
}

impl Expander<'_> {
    /// Collects every `define` (at any depth, outside other defines); the last definition of a name wins.
    fn collect(&mut self, nodes: &[Node]) {
        for node in nodes {
            if node
                .head()
                .is_some_and(|h| h.eq_ignore_ascii_case("define"))
            {
                match node.args().first().and_then(|n| n.atom()) {
                    Some(name) => {
                        let m = Macro {
                            name: name.into(),
                            body: node.args()[1..].to_vec(),
                        };
                        self.macros.insert(name.to_string(), Rc::new(m));
                    }
                    None => self.diags.push(
                        Diagnostic::error(node.span, "`define` needs a name")
                            .with_hint("(define NAME body...)"),
                    ),
                }
            } else if let Some(items) = node.list() {
                self.collect(items);
            }
        }
    }

    fn expand_all(&mut self, nodes: &[Node], depth: usize) -> Vec<Node> {
        let mut out = Vec::with_capacity(nodes.len());
        for n in nodes {
            self.expand(n, depth, &mut out);
        }
        out
    }

    fn expand(&mut self, node: &Node, depth: usize, out: &mut Vec<Node>) {
        if self.failed {
            return;
        }
        self.produced += 1;
        if self.produced > MAX_NODES {
            self.failed = true;
            self.diags.push(Diagnostic::error(node.span, "macro expansion produces too much text").with_hint(
                "a macro probably calls itself, directly or through others, with growing arguments",
            ));
            return;
        }
        let NodeKind::List(items) = &node.kind else {
            out.push(node.clone());
            return;
        };
        let head = items.first().and_then(|h| h.atom());
        if head.is_some_and(|h| h.eq_ignore_ascii_case("define")) {
            return;
        }
        if let Some(m) = head.and_then(|h| self.macros.get(h)).cloned() {
            if depth >= MAX_DEPTH {
                self.failed = true;
                self.diags.push(
                    Diagnostic::error(
                        node.span,
                        format!("expansion of macro `{}` nests too deeply", m.name),
                    )
                    .with_hint("a macro calls itself, directly or through others"),
                );
                return;
            }
            let mut substituted = Vec::with_capacity(m.body.len());
            for b in &m.body {
                substitute(b, &items[1..], node.span, &mut substituted);
            }
            for n in &substituted {
                self.expand(n, depth + 1, out);
            }
            return;
        }
        let items = self.expand_all(items, depth);
        out.push(Node {
            kind: NodeKind::List(items.into()),
            span: node.span,
        });
    }
}

/// The text an argument contributes when pasted into an atom or string.
fn arg_text(arg: &Node) -> String {
    match &arg.kind {
        NodeKind::Atom(a) | NodeKind::Str(a) => a.to_string(),
        NodeKind::List(_) => arg.to_source(),
    }
}

/// Replaces every `$N` in `text` (N is all the digits that follow) with argument N's text.
fn paste(text: &str, args: &[Node]) -> String {
    let mut out = String::with_capacity(text.len());
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'$' {
            let mut j = i + 1;
            while j < bytes.len() && bytes[j].is_ascii_digit() {
                j += 1;
            }
            if j > i + 1 {
                let n: usize = text[i + 1..j].parse().unwrap_or(usize::MAX);
                if let Some(arg) = n.checked_sub(1).and_then(|k| args.get(k)) {
                    out.push_str(&arg_text(arg));
                }
                i = j;
                continue;
            }
        }
        let c = text[i..].chars().next().unwrap();
        out.push(c);
        i += c.len_utf8();
    }
    out
}

fn set_spans(node: &mut Node, span: Span) {
    node.span = span;
    if let NodeKind::List(items) = &node.kind {
        let mut items = items.to_vec();
        for n in &mut items {
            set_spans(n, span);
        }
        node.kind = NodeKind::List(items.into());
    }
}

fn substitute(body: &Node, args: &[Node], call: Span, out: &mut Vec<Node>) {
    match &body.kind {
        NodeKind::Atom(a) if a.contains('$') => {
            // A whole `$N` becomes the argument itself, with the span of the call site's argument.
            if let Some(n) = a.strip_prefix('$').and_then(|d| d.parse::<usize>().ok()) {
                if let Some(arg) = n.checked_sub(1).and_then(|k| args.get(k)) {
                    out.push(arg.clone());
                }
                return;
            }
            let text = paste(a, args);
            if text.is_empty() {
                return;
            }
            if text
                .chars()
                .any(|c| c.is_whitespace() || matches!(c, '(' | ')' | '"' | ';'))
            {
                let (nodes, _) = parse(&text, body.span.file);
                for mut n in nodes {
                    set_spans(&mut n, body.span);
                    out.push(n);
                }
            } else {
                out.push(Node {
                    kind: NodeKind::Atom(text.into()),
                    span: body.span,
                });
            }
        }
        NodeKind::Str(s) if s.contains('$') => {
            out.push(Node {
                kind: NodeKind::Str(paste(s, args).into()),
                span: body.span,
            });
        }
        NodeKind::List(items) => {
            let mut new = Vec::with_capacity(items.len());
            for i in items.iter() {
                substitute(i, args, call, &mut new);
            }
            out.push(Node {
                kind: NodeKind::List(new.into()),
                span: body.span,
            });
        }
        _ => out.push(body.clone()),
    }
}

/// The identity of a section for variant inheritance: its head, plus its `(name X)` where it has one.
fn section_key(node: &Node) -> String {
    let head = node.head().unwrap_or("").to_ascii_lowercase();
    let name = node
        .args()
        .iter()
        .find(|a| a.head().is_some_and(|h| h.eq_ignore_ascii_case("name")))
        .and_then(|a| a.args().first())
        .and_then(|n| n.text());
    match name {
        Some(n) => format!("{head}\u{0}{}", n.to_ascii_lowercase()),
        None => head,
    }
}

fn title_of(sections: &[Node]) -> Option<String> {
    sections
        .iter()
        .find(|s| s.head().is_some_and(|h| h.eq_ignore_ascii_case("title")))
        .and_then(|s| s.args().first())
        .and_then(|n| n.text())
        .map(str::to_string)
}

fn is_section(n: &Node, head: &str) -> bool {
    n.head().is_some_and(|h| h.eq_ignore_ascii_case(head))
}

/// A variant's sections: the base game's, with each section the variant redefines replaced in place.
fn merge_variant(base: &[Node], variant: &[Node]) -> Vec<Node> {
    let mut by_key: HashMap<String, Vec<&Node>> = HashMap::default();
    let mut order = Vec::new();
    for s in variant {
        let k = section_key(s);
        if !by_key.contains_key(&k) {
            order.push(k.clone());
        }
        by_key.entry(k).or_default().push(s);
    }
    let mut used = HashSet::default();
    let mut out = Vec::new();
    for s in base.iter().filter(|s| !is_section(s, "default")) {
        let k = section_key(s);
        match by_key.get(&k) {
            Some(repl) => {
                if used.insert(k) {
                    out.extend(repl.iter().map(|n| (*n).clone()));
                }
            }
            None => out.push(s.clone()),
        }
    }
    for k in order {
        if !used.contains(&k) {
            out.extend(by_key[&k].iter().map(|n| (*n).clone()));
        }
    }
    out
}

/// What the preprocessor makes of one file.
pub struct Preprocessed {
    pub games: Vec<GameSource>,
    pub version: Option<String>,
    /// Top-level forms that are none of the known ones, ignored: their head (or text) and place. What they
    /// asked for is a missing rule of every game of the file.
    pub ignored: Vec<(String, Span)>,
}

/// Reads the top-level forms of a parsed file into games.
pub fn preprocess(
    forms: Vec<Node>,
    dir: &Path,
    sources: &mut SourceMap,
    diags: &mut Vec<Diagnostic>,
) -> Preprocessed {
    let forms = resolve_includes(forms, dir, sources, diags, 0, &mut HashSet::default());
    let mut ex = Expander {
        macros: HashMap::default(),
        diags,
        produced: 0,
        failed: false,
    };
    ex.collect(&forms);
    let forms = ex.expand_all(&forms, 0);
    let failed = ex.failed;
    let mut games: Vec<GameSource> = Vec::new();
    let mut version = None;
    let mut ignored = vec![];
    // A variant derives from the game before it; variants written before any game (some files list them
    // first) derive from the first game that follows.
    let mut base: Option<Vec<Node>> = forms
        .iter()
        .find(|f| f.head().is_some_and(|h| h.eq_ignore_ascii_case("game")))
        .map(|g| g.args().to_vec());
    if failed {
        return Preprocessed {
            games,
            version,
            ignored: vec![],
        };
    }
    for form in forms {
        let head = form.head().map(|h| h.to_ascii_lowercase());
        match head.as_deref() {
            Some("game") => {
                let sections = form.args().to_vec();
                let title =
                    title_of(&sections).unwrap_or_else(|| format!("game {}", games.len() + 1));
                let default = sections.iter().any(|s| is_section(s, "default"));
                base = Some(sections.clone());
                games.push(GameSource {
                    title,
                    number: games.len() + 1,
                    is_variant: false,
                    default,
                    sections,
                    span: form.span,
                });
            }
            Some("variant") => {
                let own = form.args();
                if title_of(own).as_deref() == Some("-") {
                    continue; // a menu separator
                }
                let Some(b) = &base else {
                    diags.push(
                        Diagnostic::error(form.span, "`variant` in a file with no `game`")
                            .with_hint("a variant takes its sections from the game before it"),
                    );
                    continue;
                };
                let sections = merge_variant(b, own);
                let title =
                    title_of(&sections).unwrap_or_else(|| format!("variant {}", games.len() + 1));
                games.push(GameSource {
                    title,
                    number: games.len() + 1,
                    is_variant: true,
                    default: own.iter().any(|s| is_section(s, "default")),
                    sections,
                    span: form.span,
                });
            }
            Some("version") => {
                version = form
                    .args()
                    .first()
                    .and_then(|n| n.text())
                    .map(str::to_string)
            }
            _ => {
                diags.push(
                    Diagnostic::warning(form.span, "ignored top-level form").with_hint(
                        "a file holds `define`, `include`, `version`, `game` and `variant` forms",
                    ),
                );
                let what = form.head().or_else(|| form.text()).unwrap_or("(list)");
                ignored.push((what.to_string(), form.span));
            }
        }
    }
    Preprocessed {
        games,
        version,
        ignored,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn games_of(text: &str) -> (Vec<GameSource>, Vec<Diagnostic>) {
        let mut sm = SourceMap::new();
        let id = sm.add("t.zrf", text.to_string(), false);
        let (forms, mut diags) = parse(text, id);
        let p = preprocess(forms, Path::new("."), &mut sm, &mut diags);
        (p.games, diags)
    }

    fn src(nodes: &[Node]) -> Vec<String> {
        nodes.iter().map(|n| n.to_source()).collect()
    }

    #[test]
    fn pastes_arguments_into_atoms_strings_and_lists() {
        let (g, d) = games_of(
            "(define shift ($1 (verify empty?) add))
             (define img (image \"images/$1.bmp\") (flag frozen-$1?))
             (define two ($2 $1 $10))
             (game (moves (shift n) (two (a b) c)) (img King))",
        );
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(
            src(&g[0].sections),
            [
                "(moves (n (verify empty?) add) (c (a b)))",
                "(image \"images/King.bmp\")",
                "(flag frozen-King?)"
            ]
        );
    }

    #[test]
    fn macros_as_predicates_nest_and_last_definition_wins() {
        let (g, _) = games_of(
            "(define safe (and (on-board? $1) (not-enemy? $1)))
             (define m (verify (safe $1)))
             (define m (verify (not (safe $1))))
             (game (moves ((m ne) add)))",
        );
        assert_eq!(
            src(&g[0].sections),
            ["(moves ((verify (not (and (on-board? ne) (not-enemy? ne)))) add))"]
        );
    }

    #[test]
    fn pasting_a_list_into_an_atom_reads_it_again() {
        let (g, _) = games_of("(define p (x$1)) (game (p \"(a b)\"))");
        assert_eq!(src(&g[0].sections), ["(x (a b))"]);
    }

    #[test]
    fn recursive_macros_are_an_error_not_a_hang() {
        let (g, d) = games_of("(define r (a (r $1))) (game (r x))");
        assert!(g.is_empty());
        assert!(
            d.iter().any(|d| d.message.contains("nests too deeply")),
            "{d:?}"
        );
        let (_, d) = games_of("(define r ((r $1 $1) (r $1 $1))) (game (r x))");
        assert!(d.iter().any(|d| d.is_error()), "{d:?}");
    }

    #[test]
    fn variants_replace_sections_by_head_and_name() {
        let (g, d) = games_of(
            "(game (title \"Base\") (players A B) (piece (name Man) (m1)) (piece (name King) (k1))
                   (option \"pass turn\" true) (option \"x\" 1) (win-condition (A) w1) (loss-condition (A) l1))
             (variant (title \"-\"))
             (variant (title \"V\") (default) (piece (name King) (k2)) (option \"y\" 2) (win-condition (B) w2)
                   (zone z))",
        );
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(g.len(), 2);
        assert_eq!(g[1].title, "V");
        assert_eq!(g[1].number, 2);
        assert!(g[1].default && g[1].is_variant);
        assert_eq!(
            src(&g[1].sections),
            [
                "(title \"V\")",
                "(players A B)",
                "(piece (name Man) (m1))",
                "(piece (name King) (k2))",
                "(option \"y\" 2)",
                "(win-condition (B) w2)",
                "(loss-condition (A) l1)",
                "(default)",
                "(zone z)",
            ]
        );
    }
}
