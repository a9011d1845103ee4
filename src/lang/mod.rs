//! The reader: source files, spans, the s-expression parser, the preprocessor (`include`, `define`, games and
//! variants) and diagnostics. It turns a `.zrf` file into one list of expanded sections per game or variant;
//! the compiler gives those sections their meaning.

pub mod diag;
pub mod expand;
pub mod sexp;
pub mod source;

pub use diag::{Diagnostic, Severity};
pub use expand::GameSource;
pub use sexp::{Node, NodeKind};
pub use source::{SourceMap, Span};

use std::path::Path;

/// A file read and preprocessed: its games, and every problem found on the way.
pub struct ReadFile {
    pub sources: SourceMap,
    pub games: Vec<GameSource>,
    pub version: Option<String>,
    pub diagnostics: Vec<Diagnostic>,
    /// Top-level forms the reader ignored (head, place): missing rules of every game of the file.
    pub ignored_forms: Vec<(String, Span)>,
}

impl ReadFile {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(|d| d.is_error())
    }
}

/// Reads a game file from disk. Never fails: a file that cannot be read is an error diagnostic.
pub fn read_file(path: &Path) -> ReadFile {
    let mut sources = SourceMap::new();
    match sources.read(path) {
        Ok(id) => read_source(sources, id, path.parent().unwrap_or(Path::new("."))),
        Err(e) => ReadFile {
            sources,
            games: vec![],
            version: None,
            diagnostics: vec![Diagnostic::global(format!(
                "cannot read `{}`: {e}",
                path.display()
            ))],
            ignored_forms: vec![],
        },
    }
}

/// Reads a game from raw bytes (UTF-8, else Windows-1252); includes are looked up relative to `dir`.
pub fn read_bytes(name: &str, bytes: Vec<u8>, dir: &Path) -> ReadFile {
    let (text, legacy) = source::decode(bytes);
    let mut sources = SourceMap::new();
    let id = sources.add(name, text, legacy);
    read_source(sources, id, dir)
}

/// Reads a game from text; includes are looked up relative to `dir`.
pub fn read_str(name: &str, text: &str, dir: &Path) -> ReadFile {
    let mut sources = SourceMap::new();
    let id = sources.add(name, text.to_string(), false);
    read_source(sources, id, dir)
}

fn read_source(mut sources: SourceMap, id: source::FileId, dir: &Path) -> ReadFile {
    let text = sources.file(id).text.clone();
    let (forms, mut diagnostics) = sexp::parse(&text, id);
    let p = expand::preprocess(forms, dir, &mut sources, &mut diagnostics);
    ReadFile {
        sources,
        games: p.games,
        version: p.version,
        diagnostics,
        ignored_forms: p.ignored,
    }
}
