//! Source files and byte spans. Every token the reader produces carries a [`Span`]; line and column are
//! derived from it on demand, so spans stay small and cheap to copy.

use std::path::{Path, PathBuf};

/// Index of a file in a [`SourceMap`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FileId(pub u32);

/// A byte range in one source file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Span {
    pub file: FileId,
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(file: FileId, start: usize, end: usize) -> Span {
        Span {
            file,
            start: start as u32,
            end: end as u32,
        }
    }
}

/// One loaded file: its path as given, its text, and where its lines start.
#[derive(Debug)]
pub struct SourceFile {
    pub path: PathBuf,
    pub text: String,
    /// True when the file was not valid UTF-8 and was read as Windows-1252 (Zillions files often are).
    pub legacy_encoding: bool,
    line_starts: Vec<u32>,
}

impl SourceFile {
    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, offset: u32) -> (usize, usize) {
        let line = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.line_starts[line] as usize;
        let end = (offset as usize).min(self.text.len());
        let col = self
            .text
            .get(start..end)
            .map_or(end - start, |s| s.chars().count());
        (line + 1, col + 1)
    }

    /// The text of a 1-based line, without its line break.
    pub fn line_text(&self, line: usize) -> &str {
        let start = self.line_starts[line - 1] as usize;
        let end = self
            .line_starts
            .get(line)
            .map_or(self.text.len(), |&e| e as usize);
        self.text[start..end].trim_end_matches(['\n', '\r'])
    }
}

/// All files read while loading one game file (the file itself and what it includes), and the macro calls
/// expanded in them.
#[derive(Debug, Default)]
pub struct SourceMap {
    files: Vec<SourceFile>,
    /// One entry per macro call expanded: the nodes of that call's expansion carry spans in the call's own
    /// [`FileId`] (with [`EXPANDED`] set), which stands for the macro's body as expanded at that call. So an
    /// error raised on an expanded node names the line in the macro's body and, through this entry, the call.
    expansions: Vec<Expansion>,
}

/// The bit of a [`FileId`] that marks one macro call's expansion rather than a file.
pub const EXPANDED: u32 = 1 << 31;

/// One macro call: the file of the macro's body, the call's span and the macro's name.
#[derive(Debug)]
struct Expansion {
    body: FileId,
    call: Span,
    name: std::sync::Arc<str>,
}

/// Windows-1252 code points for bytes 0x80..0x9F; the rest of the range maps to itself (Latin-1).
const CP1252_HIGH: [char; 32] = [
    '€', '\u{81}', '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', '\u{8d}', 'Ž', '\u{8f}',
    '\u{90}', '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', '\u{9d}', 'ž', 'Ÿ',
];

/// Decodes a file's bytes: UTF-8 when valid, else Windows-1252, the encoding of most Zillions-era files.
pub fn decode(bytes: Vec<u8>) -> (String, bool) {
    match String::from_utf8(bytes) {
        Ok(s) => (s, false),
        Err(e) => {
            let bytes = e.into_bytes();
            let s = bytes
                .iter()
                .map(|&b| {
                    if (0x80..0xA0).contains(&b) {
                        CP1252_HIGH[(b - 0x80) as usize]
                    } else {
                        b as char
                    }
                })
                .collect();
            (s, true)
        }
    }
}

impl SourceMap {
    pub fn new() -> SourceMap {
        SourceMap::default()
    }

    /// Adds a file from its text.
    pub fn add(&mut self, path: impl Into<PathBuf>, text: String, legacy_encoding: bool) -> FileId {
        let mut line_starts = vec![0u32];
        for (i, b) in text.bytes().enumerate() {
            if b == b'\n' {
                line_starts.push(i as u32 + 1);
            }
        }
        self.files.push(SourceFile {
            path: path.into(),
            text,
            legacy_encoding,
            line_starts,
        });
        FileId(self.files.len() as u32 - 1)
    }

    /// Reads and adds a file from disk.
    pub fn read(&mut self, path: &Path) -> std::io::Result<FileId> {
        let bytes = std::fs::read(path)?;
        let (text, legacy) = decode(bytes);
        Ok(self.add(path, text, legacy))
    }

    /// The file a span's [`FileId`] points into: for a macro call's expansion, the file of the macro's body.
    pub fn file(&self, id: FileId) -> &SourceFile {
        &self.files[self.real(id).0 as usize]
    }

    /// Whether `id` names a file of this map (or an expansion of one).
    pub fn contains(&self, id: FileId) -> bool {
        (self.real(id).0 as usize) < self.files.len()
    }

    /// The file behind an id: itself, or for an expansion the file of the macro's body.
    pub fn real(&self, mut id: FileId) -> FileId {
        while id.0 & EXPANDED != 0 {
            match self.expansions.get((id.0 & !EXPANDED) as usize) {
                Some(e) => id = e.body,
                None => return FileId(!EXPANDED),
            }
        }
        id
    }

    /// Registers one macro call's expansion: `body` is the file of the macro's body, `call` the call's span.
    /// Returns the id the expanded nodes' spans carry. `None` past 2³¹ calls (no expansion budget allows it).
    pub fn expansion(
        &mut self,
        body: FileId,
        call: Span,
        name: std::sync::Arc<str>,
    ) -> Option<FileId> {
        let i = u32::try_from(self.expansions.len())
            .ok()
            .filter(|i| i & EXPANDED == 0)?;
        self.expansions.push(Expansion { body, call, name });
        Some(FileId(i | EXPANDED))
    }

    /// The macro calls a span was expanded from, innermost first: each macro's name and the span of its call.
    /// Empty for a span written in a file.
    pub fn calls(&self, span: Span) -> Vec<(&str, Span)> {
        let mut out = vec![];
        let mut id = span.file;
        while id.0 & EXPANDED != 0 {
            let Some(e) = self.expansions.get((id.0 & !EXPANDED) as usize) else {
                break;
            };
            out.push((&*e.name, e.call));
            id = e.call.file;
        }
        out
    }

    /// [`SourceMap::calls`] with each run of the same call in a row (a macro that calls itself) given once, with
    /// how many times it came in a row: a recursive macro's error names its call twice, not once per level.
    pub fn calls_collapsed(&self, span: Span) -> Vec<(&str, Span, usize)> {
        let mut out: Vec<(&str, Span, usize)> = vec![];
        for (name, call) in self.calls(span) {
            match out.last_mut() {
                Some(last) if last.0 == name && self.same_place(last.1, call) => last.2 += 1,
                _ => out.push((name, call, 1)),
            }
        }
        out
    }

    /// Whether two spans are the same text of the same file (an expansion's span as the body's).
    fn same_place(&self, a: Span, b: Span) -> bool {
        self.real(a.file) == self.real(b.file) && a.start == b.start && a.end == b.end
    }

    /// Where a span was expanded from, for a message: `` in macro `X` called at path:line:col`` per call,
    /// innermost first (a run of the same call once, with `(N times in a row)`), joined with `, `; empty for a
    /// span written in a file.
    pub fn called_from(&self, span: Span) -> String {
        self.calls_collapsed(span)
            .iter()
            .map(|(name, call, n)| {
                let times = if *n > 1 {
                    format!(" ({n} times in a row)")
                } else {
                    String::new()
                };
                format!(
                    "in macro `{name}` called at {}{times}",
                    self.location(*call)
                )
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    pub fn files(&self) -> &[SourceFile] {
        &self.files
    }

    /// The source text a span covers.
    pub fn text(&self, span: Span) -> &str {
        let f = self.file(span.file);
        f.text
            .get(span.start as usize..span.end as usize)
            .unwrap_or("")
    }

    /// `path:line:col` of the start of a span.
    pub fn location(&self, span: Span) -> String {
        let f = self.file(span.file);
        let (line, col) = f.line_col(span.start);
        format!("{}:{}:{}", f.path.display(), line, col)
    }
}
