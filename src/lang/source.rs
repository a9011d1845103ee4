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

/// All files read while loading one game file (the file itself and what it includes).
#[derive(Debug, Default)]
pub struct SourceMap {
    files: Vec<SourceFile>,
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

    pub fn file(&self, id: FileId) -> &SourceFile {
        &self.files[id.0 as usize]
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
