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

/// Where `include` may look besides the game file's own directory tree.
#[derive(Clone, Debug, Default)]
pub struct ReadOptions {
    /// Directories given with `--include-path`: files under them may be included too.
    pub include_paths: Vec<std::path::PathBuf>,
    /// The modules given with `--extension`: asked about setup positions the board lacks while the file is
    /// compiled (`Extension::setup_position`); they are attached afterwards by the caller.
    pub extensions: Vec<String>,
}

/// The largest game file read (larger ones are refused, and a device such as `/dev/zero` stops there).
pub const MAX_FILE_BYTES: u64 = 64 << 20;

/// Reads a game file from disk. Never fails: a file that cannot be read is an error diagnostic.
pub fn read_file(path: &Path) -> ReadFile {
    read_file_with(path, &ReadOptions::default())
}

/// [`read_file`] with options.
pub fn read_file_with(path: &Path, opts: &ReadOptions) -> ReadFile {
    let mut sources = SourceMap::new();
    match read_capped(path, MAX_FILE_BYTES) {
        Ok(bytes) => {
            let (text, legacy) = source::decode(bytes);
            let id = sources.add(path, text, legacy);
            let dir = match path.parent() {
                Some(p) if !p.as_os_str().is_empty() => p,
                _ => Path::new("."),
            };
            read_source(sources, id, dir, opts)
        }
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

/// The largest settings file read (`--config`, a run's `config.toml`, a bot preset, a `--position` file).
pub const MAX_SETTINGS_BYTES: u64 = 1 << 20;

/// A settings file as text, at most [`MAX_SETTINGS_BYTES`]; the error says which limit or fault it met.
pub fn read_settings(path: &Path) -> std::io::Result<String> {
    String::from_utf8(read_capped(path, MAX_SETTINGS_BYTES)?)
        .map_err(|e| std::io::Error::other(format!("it is not UTF-8 text ({})", e.utf8_error())))
}

/// Reads at most `max` bytes of a file; a longer one is an error (it may be endless, like a device).
pub fn read_capped(path: &Path, max: u64) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let f = std::fs::File::open(path)?;
    if f.metadata()?.is_dir() {
        return Err(std::io::Error::other("it is a directory"));
    }
    let mut bytes = vec![];
    f.take(max + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max {
        return Err(std::io::Error::other(format!(
            "it is larger than {} MB",
            max >> 20
        )));
    }
    Ok(bytes)
}

/// Why a text is not ZRF at all (a binary, a README), or `None` when it may be: ZRF is a sequence of forms
/// and comments, so its first token is a `(` or, in a file with a stray word first, it still holds a `game`,
/// `variant`, `define`, `include` or `version` form somewhere.
pub fn not_zrf(text: &str) -> Option<&'static str> {
    if text.bytes().take(1 << 16).any(|b| b == 0) {
        return Some("it is a binary file");
    }
    let mut rest = text;
    loop {
        rest = rest.trim_start();
        if rest.starts_with(';') {
            rest = rest.find('\n').map_or("", |i| &rest[i..]);
        } else {
            break;
        }
    }
    if rest.is_empty() || rest.starts_with('(') {
        return None;
    }
    let holds_form = text.match_indices('(').any(|(i, _)| {
        // A form quoted in Markdown's inline code (`` `(define NAME ...)` `` in a README) is prose about ZRF.
        if i > 0 && text.as_bytes()[i - 1] == b'`' {
            return false;
        }
        // Bytes, not characters: what follows the `(` may be anything.
        let w = text[i + 1..].trim_start().as_bytes();
        // The keyword whole: `print(game.moves)` in a README's Python holds no `game` form.
        ["game", "variant", "define", "include", "version"]
            .iter()
            .any(|k| {
                w.len() >= k.len()
                    && w[..k.len()].eq_ignore_ascii_case(k.as_bytes())
                    && w.get(k.len()).is_none_or(|&b| {
                        b.is_ascii_whitespace() || matches!(b, b'(' | b')' | b'"' | b';')
                    })
            })
    });
    (!holds_form).then_some(
        "it does not start with a `(` form and holds no `game`, `variant`, `define` or `include`",
    )
}

/// Reads a game from raw bytes (UTF-8, else Windows-1252); includes are looked up relative to `dir`.
pub fn read_bytes(name: &str, bytes: Vec<u8>, dir: &Path) -> ReadFile {
    let (text, legacy) = source::decode(bytes);
    let mut sources = SourceMap::new();
    let id = sources.add(name, text, legacy);
    read_source(sources, id, dir, &ReadOptions::default())
}

/// Reads a game from text; includes are looked up relative to `dir`.
pub fn read_str(name: &str, text: &str, dir: &Path) -> ReadFile {
    let mut sources = SourceMap::new();
    let id = sources.add(name, text.to_string(), false);
    read_source(sources, id, dir, &ReadOptions::default())
}

fn read_source(
    mut sources: SourceMap,
    id: source::FileId,
    dir: &Path,
    opts: &ReadOptions,
) -> ReadFile {
    let file = sources.file(id);
    if let Some(why) = not_zrf(&file.text) {
        // One line, and nothing of the file's text: it may be anything, a secret included.
        let d = Diagnostic::global(format!(
            "`{}` is not a ZRF game file: {why}",
            file.path.display()
        ));
        return ReadFile {
            sources,
            games: vec![],
            version: None,
            diagnostics: vec![d],
            ignored_forms: vec![],
        };
    }
    let text = file.text.clone();
    let (forms, mut diagnostics) = sexp::parse(&text, id);
    drop(text);
    let p = expand::preprocess(forms, dir, opts, &mut sources, &mut diagnostics);
    ReadFile {
        sources,
        games: p.games,
        version: p.version,
        diagnostics,
        ignored_forms: p.ignored,
    }
}

#[cfg(test)]
mod tests {
    use super::not_zrf;

    #[test]
    fn tells_zrf_from_other_files() {
        assert_eq!(not_zrf("; rules\n(game (title \"x\"))"), None);
        assert_eq!(not_zrf("stray (define x y)"), None);
        assert_eq!(not_zrf(""), None);
        assert!(not_zrf("# A README\n\nText (with parentheses).").is_some());
        assert!(not_zrf("(game)\0\0").is_some());
        // A multi-byte character right after a `(` (a fuzz finding: it was sliced inside the character).
        assert!(not_zrf("x (ver\u{FFFD}fy (é").is_some());
        assert_eq!(not_zrf("x (\u{FFFD}\u{FFFD} (GAME"), None);
        assert!(
            not_zrf("# Python\n\nprint(game.random_playouts(10))\nx = (games, variants)").is_some()
        );
        assert_eq!(not_zrf("stray\n(game\n  (title \"x\"))"), None);
        // A README that quotes forms in inline code.
        assert!(not_zrf("# dagaz sweep\n\nEvaluate each value of `(define NAME ...)`.").is_some());
        assert_eq!(not_zrf("stray `x` (define x y)"), None);
    }
}
