//! The preprocessor: `include`, `define` macros with textual `$N` substitution, and the assembly of `game` and
//! `variant` forms into one list of sections per playable game.
//!
//! A file may include only regular files under its own directory or an `--include-path` directory, and what
//! an include brings is never shown when it is not ZRF. Expansion is bounded in calls (`MAX_DEPTH`), in
//! nesting ([`MAX_NESTING`]) and in work (`MAX_WORK`), so that no file can exhaust the stack or the memory.
//!
//! Substitution is textual, as in Zillions: `$N` is pasted inside atoms (`p$1`) and strings (`"images/$1.bmp"`),
//! and an argument may be a whole list. An atom that becomes text with parentheses or spaces is read again.

use super::diag::Diagnostic;
use super::sexp::{parse, Node, NodeKind, MAX_NESTING};
use super::source::{FileId, SourceMap, Span};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// How deep macros may call macros before we call it runaway recursion.
const MAX_DEPTH: usize = 200;
/// How much work expansion may do for one file, in nodes built plus bytes pasted; guards against exponential
/// macros. The most any corpus file needs is 6.6 million (Focus.zrf); at this budget a runaway expansion
/// stops within about a second and 400 MB.
const MAX_WORK: usize = 10_000_000;
/// How many sections the games and variants of a file may hold in all (a variant copies its game's); the
/// corpus needs at most a few thousand.
const MAX_SECTIONS: usize = 250_000;
/// How many ignored top-level forms are reported one by one.
const MAX_IGNORED_REPORTED: usize = 100;
/// How many ignored top-level forms are kept for the missing-rules report (a file of junk lists 100).
const MAX_IGNORED_KEPT: usize = 100;
/// How deep includes may nest.
const MAX_INCLUDE_DEPTH: usize = 16;

struct Macro {
    name: std::sync::Arc<str>,
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

/// The largest file that may be included, and the most bytes all the includes of one game file may add.
const MAX_INCLUDE_BYTES: u64 = 4 << 20;
const MAX_INCLUDED_TOTAL: u64 = 16 << 20;

/// Resolves `include` forms: which files may be included, and their forms.
struct Includes<'a> {
    /// The game file's directory and the `--include-path` directories, canonical: an included file must lie
    /// under one of them.
    roots: Vec<PathBuf>,
    sources: &'a mut SourceMap,
    diags: &'a mut Vec<Diagnostic>,
    /// Files being included (a file including itself, directly or not, is an error).
    open: HashSet<PathBuf>,
    /// Bytes included so far.
    total: u64,
    /// Each file is read once, however often it is included.
    read: HashMap<PathBuf, super::source::FileId>,
}

impl Includes<'_> {
    /// The file an `include` names, if it may be included: a regular file under one of the roots.
    fn admit(&mut self, node: &Node, name: &str, dir: &Path) -> Option<PathBuf> {
        let span = node.args()[0].span;
        let path = dir.join(name.replace('\\', "/"));
        let canonical = match path.canonicalize() {
            Ok(c) => c,
            Err(e) => {
                self.diags.push(
                    Diagnostic::error(
                        span,
                        format!("cannot read included file `{}`: {e}", path.display()),
                    )
                    .with_hint("include paths are relative to the including file"),
                );
                return None;
            }
        };
        if !self.roots.iter().any(|r| canonical.starts_with(r)) {
            self.diags.push(
                Diagnostic::error(
                    span,
                    format!("`{name}` is outside the game's directory: it is not included"),
                )
                .with_hint(
                    "a game may include files under its own directory, or under a directory given with --include-path",
                ),
            );
            return None;
        }
        let meta = std::fs::metadata(&canonical);
        let size = match &meta {
            Ok(m) if m.is_file() => m.len(),
            _ => {
                self.diags.push(Diagnostic::error(
                    span,
                    format!("`{name}` is not a regular file: it is not included"),
                ));
                return None;
            }
        };
        if size > MAX_INCLUDE_BYTES || self.total + size > MAX_INCLUDED_TOTAL {
            self.diags.push(Diagnostic::error(
                span,
                format!(
                    "`{name}` is too large to include: a file may include {} MB in all, {} MB per file",
                    MAX_INCLUDED_TOTAL >> 20,
                    MAX_INCLUDE_BYTES >> 20
                ),
            ));
            return None;
        }
        if self.open.contains(&canonical) {
            self.diags.push(Diagnostic::error(
                node.span,
                format!("`{name}` includes itself"),
            ));
            return None;
        }
        if self.open.len() >= MAX_INCLUDE_DEPTH {
            self.diags.push(Diagnostic::error(
                node.span,
                format!(
                    "`{name}` is not included: the files include each other more than {MAX_INCLUDE_DEPTH} \
                     deep"
                ),
            ));
            return None;
        }
        self.total += size;
        Some(canonical)
    }

    /// Splices `(include "file")` forms anywhere in the tree with the forms of that file; `depth` is the list
    /// depth of `nodes` (top-level forms: 0).
    fn resolve(&mut self, nodes: Vec<Node>, dir: &Path, depth: usize) -> Vec<Node> {
        let mut out = Vec::with_capacity(nodes.len());
        for node in nodes {
            if node
                .head()
                .is_some_and(|h| h.eq_ignore_ascii_case("include"))
            {
                let Some(name) = node.args().first().and_then(|n| n.text()) else {
                    self.diags.push(
                        Diagnostic::error(node.span, "`include` needs a file name")
                            .with_hint("(include \"file.zrf\")"),
                    );
                    continue;
                };
                let Some(path) = self.admit(&node, name, dir) else {
                    continue;
                };
                let id = match self.read.get(&path) {
                    Some(&id) => Ok(id),
                    None => super::read_capped(&path, MAX_INCLUDE_BYTES).map(|bytes| {
                        let (text, legacy) = super::source::decode(bytes);
                        let id = self.sources.add(path.clone(), text, legacy);
                        self.read.insert(path.clone(), id);
                        id
                    }),
                };
                let id = match id {
                    Ok(id) => id,
                    Err(e) => {
                        self.diags.push(Diagnostic::error(
                            node.args()[0].span,
                            format!("cannot read included file `{}`: {e}", path.display()),
                        ));
                        continue;
                    }
                };
                let text = &self.sources.file(id).text;
                if let Some(why) = super::not_zrf(text) {
                    // Nothing of its text is shown: it may be anything.
                    self.diags.push(Diagnostic::error(
                        node.args()[0].span,
                        format!("`{name}` is not a ZRF file: {why}"),
                    ));
                    continue;
                }
                let (forms, errs) = parse(&text.clone(), id);
                self.diags.extend(errs);
                if let Some(f) = forms.iter().find(|f| depth + nesting(f) > MAX_NESTING) {
                    let _ = f;
                    self.diags.push(Diagnostic::error(
                        node.span,
                        format!("included here, `{name}` nests lists more than {MAX_NESTING} deep"),
                    ));
                    continue;
                }
                self.open.insert(path.clone());
                let sub_dir = path.parent().unwrap_or(dir).to_path_buf();
                let forms = self.resolve(forms, &sub_dir, depth);
                out.extend(forms);
                self.open.remove(&path);
                continue;
            }
            match node.kind {
                NodeKind::List(items) if items.iter().any(|n| n.list().is_some()) => {
                    let items = self.resolve(items.to_vec(), dir, depth + 1);
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
}

struct Expander<'a> {
    macros: HashMap<String, Rc<Macro>>,
    diags: &'a mut Vec<Diagnostic>,
    /// Where each call's expansion is registered (see [`SourceMap::expansion`]).
    sources: &'a mut SourceMap,
    /// Work done so far (see [`MAX_WORK`]).
    work: usize,
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

    fn too_much(&mut self, span: Span) {
        if !self.failed {
            self.failed = true;
            self.diags.push(Diagnostic::error(span, "macro expansion produces too much text").with_hint(
                "a macro probably calls itself, directly or through others, with growing arguments",
            ));
        }
    }

    fn too_deep(&mut self, span: Span) {
        if !self.failed {
            self.failed = true;
            self.diags.push(
                Diagnostic::error(
                    span,
                    format!("macro expansion nests lists more than {MAX_NESTING} deep"),
                )
                .with_hint("a macro wraps its argument in lists and is called on its own result"),
            );
        }
    }

    /// Expands `nodes`, which stand at list depth `depth` (top-level forms: 0).
    fn expand_all(&mut self, nodes: &[Node], calls: usize, depth: usize) -> Vec<Node> {
        let mut out = Vec::with_capacity(nodes.len());
        for n in nodes {
            self.expand(n, calls, depth, &mut out);
        }
        out
    }

    /// Expands one node into `out`. The recursion is bounded: each level is a list of the output (at most
    /// [`MAX_NESTING`]) or a macro call (at most [`MAX_DEPTH`]).
    fn expand(&mut self, node: &Node, calls: usize, depth: usize, out: &mut Vec<Node>) {
        if self.failed {
            return;
        }
        self.work += 1;
        if self.work > MAX_WORK {
            self.too_much(node.span);
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
            if calls >= MAX_DEPTH {
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
            // The expansion's nodes carry spans in this call's own file id, which leads back to the call.
            let body_file = m.body.first().map_or(node.span.file, |b| b.span.file);
            let file = self
                .sources
                .expansion(body_file, node.span, m.name.clone())
                .unwrap_or(body_file);
            let args = &items[1..];
            let mut sub = Substitution {
                file,
                args,
                arg_depths: vec![None; args.len()],
                work: &mut self.work,
                too_deep: false,
            };
            let mut substituted = Vec::with_capacity(m.body.len());
            for b in &m.body {
                sub.substitute(b, 0, &mut substituted);
            }
            let too_deep = sub.too_deep;
            if too_deep {
                self.too_deep(node.span);
                return;
            }
            if self.work > MAX_WORK {
                self.too_much(node.span);
                return;
            }
            for n in &substituted {
                self.expand(n, calls + 1, depth, out);
            }
            return;
        }
        if depth >= MAX_NESTING {
            self.too_deep(node.span);
            return;
        }
        let items = self.expand_all(items, calls, depth + 1);
        out.push(Node {
            kind: NodeKind::List(items.into()),
            span: node.span,
        });
    }
}

/// How deep lists nest in a node (0 for an atom); iterative, so that it holds for any tree.
pub fn nesting(node: &Node) -> usize {
    let mut deepest = 0;
    let mut todo = vec![(node, 0usize)];
    while let Some((n, d)) = todo.pop() {
        if let NodeKind::List(items) = &n.kind {
            deepest = deepest.max(d + 1);
            todo.extend(items.iter().map(|i| (i, d + 1)));
        }
    }
    deepest
}

/// One macro call's substitution of its arguments into the body.
struct Substitution<'a> {
    /// The file id of this call's expansion: the spans of the body's nodes are moved into it.
    file: FileId,
    args: &'a [Node],
    /// [`nesting`] of each argument, computed when first needed.
    arg_depths: Vec<Option<usize>>,
    work: &'a mut usize,
    /// The result would nest deeper than [`MAX_NESTING`].
    too_deep: bool,
}

impl Substitution<'_> {
    fn arg_depth(&mut self, k: usize) -> usize {
        if let Some(d) = self.arg_depths[k] {
            return d;
        }
        let d = nesting(&self.args[k]);
        self.arg_depths[k] = Some(d);
        d
    }

    /// Substitutes into `body`, which stands at list depth `depth` inside the macro's body.
    fn substitute(&mut self, body: &Node, depth: usize, out: &mut Vec<Node>) {
        if self.too_deep || *self.work > MAX_WORK {
            return;
        }
        *self.work += 1;
        // The place in the body, as expanded at this call.
        let span = Span {
            file: self.file,
            ..body.span
        };
        match &body.kind {
            NodeKind::Atom(a) if a.contains('$') => {
                // A whole `$N` becomes the argument itself, with the span of the call site's argument.
                if let Some(n) = a.strip_prefix('$').and_then(|d| d.parse::<usize>().ok()) {
                    if let Some(k) = n.checked_sub(1).filter(|&k| k < self.args.len()) {
                        if depth + self.arg_depth(k) > MAX_NESTING {
                            self.too_deep = true;
                            return;
                        }
                        out.push(self.args[k].clone());
                    }
                    return;
                }
                let text = paste(a, self.args, self.work);
                if text.is_empty() || *self.work > MAX_WORK {
                    return;
                }
                if text
                    .chars()
                    .any(|c| c.is_whitespace() || matches!(c, '(' | ')' | '"' | ';'))
                {
                    let (nodes, _) = parse(&text, body.span.file);
                    for mut n in nodes {
                        if depth + nesting(&n) > MAX_NESTING {
                            self.too_deep = true;
                            return;
                        }
                        set_spans(&mut n, span);
                        out.push(n);
                    }
                } else {
                    out.push(Node {
                        kind: NodeKind::Atom(text.into()),
                        span,
                    });
                }
            }
            NodeKind::Str(s) if s.contains('$') => {
                out.push(Node {
                    kind: NodeKind::Str(paste(s, self.args, self.work).into()),
                    span,
                });
            }
            NodeKind::List(items) => {
                let mut new = Vec::with_capacity(items.len());
                for i in items.iter() {
                    self.substitute(i, depth + 1, &mut new);
                }
                out.push(Node {
                    kind: NodeKind::List(new.into()),
                    span,
                });
            }
            _ => out.push(Node {
                kind: body.kind.clone(),
                span,
            }),
        }
    }
}

/// The text an argument contributes when pasted into an atom or string, cut after about `max` bytes (the
/// budget left: a longer text ends the expansion anyway).
fn arg_text(arg: &Node, max: usize) -> String {
    match &arg.kind {
        NodeKind::Atom(a) | NodeKind::Str(a) => a.to_string(),
        NodeKind::List(_) => arg.to_source_limited(max),
    }
}

/// Replaces every `$N` in `text` (N is all the digits that follow) with argument N's text; the bytes pasted
/// count as work, and nothing more is pasted once the budget is spent.
fn paste(text: &str, args: &[Node], work: &mut usize) -> String {
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
                    if *work > MAX_WORK {
                        return out;
                    }
                    let t = arg_text(arg, MAX_WORK - *work);
                    *work += t.len();
                    out.push_str(&t);
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
    opts: &super::ReadOptions,
    sources: &mut SourceMap,
    diags: &mut Vec<Diagnostic>,
) -> Preprocessed {
    // `Path::parent` of a bare file name is the empty path: the current directory.
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let roots = std::iter::once(dir)
        .chain(opts.include_paths.iter().map(PathBuf::as_path))
        .filter_map(|d| d.canonicalize().ok())
        .collect();
    let mut inc = Includes {
        roots,
        sources: &mut *sources,
        diags,
        open: HashSet::default(),
        total: 0,
        read: HashMap::default(),
    };
    let forms = inc.resolve(forms, dir, 0);
    let mut ex = Expander {
        macros: HashMap::default(),
        diags,
        sources,
        work: 0,
        failed: false,
    };
    ex.collect(&forms);
    let forms = ex.expand_all(&forms, 0, 0);
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
    let mut ignored_count = 0;
    let mut sections_total = 0;
    for form in forms {
        let head = form.head().map(|h| h.to_ascii_lowercase());
        match head.as_deref() {
            Some("game") => {
                sections_total += form.args().len();
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
                // Each variant copies the game's sections: a big game with many variants would multiply.
                sections_total += b.len() + own.len();
                if sections_total > MAX_SECTIONS {
                    diags.push(
                        Diagnostic::error(
                            form.span,
                            format!("the games and variants of this file add up to more than {MAX_SECTIONS} sections"),
                        )
                        .with_hint("each variant holds all the sections of its game; no game needs this many"),
                    );
                    break;
                }
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
                ignored_count += 1;
                if ignored_count <= MAX_IGNORED_REPORTED {
                    diags.push(
                        Diagnostic::warning(form.span, "ignored top-level form").with_hint(
                            "a file holds `define`, `include`, `version`, `game` and `variant` forms",
                        ),
                    );
                }
                // Kept for the missing-rules report; bounded, as a hostile file may hold millions.
                if ignored.len() < MAX_IGNORED_KEPT {
                    let what = form.head().or_else(|| form.text()).unwrap_or("(list)");
                    ignored.push((what.to_string(), form.span));
                }
            }
        }
    }
    if ignored_count > MAX_IGNORED_REPORTED {
        diags.push(Diagnostic {
            severity: super::Severity::Warning,
            ..Diagnostic::global(format!(
                "{} more ignored top-level forms",
                ignored_count - MAX_IGNORED_REPORTED
            ))
        });
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
        let p = preprocess(
            forms,
            Path::new("."),
            &Default::default(),
            &mut sm,
            &mut diags,
        );
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
