//! Diagnostics: errors and warnings as values, with a location and a hint, and one renderer for them.

use super::source::{SourceMap, Span};
use std::fmt::Write;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    Warning,
    Error,
}

/// One problem found in a game file.
#[derive(Clone, Debug)]
pub struct Diagnostic {
    pub severity: Severity,
    pub message: String,
    pub span: Option<Span>,
    pub hint: Option<String>,
    /// Further locations that explain the error (the macro call an expansion came from, ...).
    pub notes: Vec<(Span, String)>,
}

impl Diagnostic {
    pub fn error(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            message: message.into(),
            span: Some(span),
            hint: None,
            notes: vec![],
        }
    }

    pub fn warning(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            message: message.into(),
            span: Some(span),
            hint: None,
            notes: vec![],
        }
    }

    /// An error that belongs to no place in a file (a missing file, say).
    pub fn global(message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            message: message.into(),
            span: None,
            hint: None,
            notes: vec![],
        }
    }

    pub fn with_hint(mut self, hint: impl Into<String>) -> Diagnostic {
        self.hint = Some(hint.into());
        self
    }

    pub fn with_note(mut self, span: Span, note: impl Into<String>) -> Diagnostic {
        self.notes.push((span, note.into()));
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// Renders the diagnostic as `file:line:col`, the source line and a caret under the span.
    pub fn render(&self, sources: &SourceMap) -> String {
        let mut out = String::new();
        let kind = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        let _ = writeln!(out, "{kind}: {}", self.message);
        if let Some(span) = self.span {
            render_snippet(&mut out, sources, span, None);
        }
        for (span, note) in &self.notes {
            render_snippet(&mut out, sources, *span, Some(note));
        }
        if let Some(hint) = &self.hint {
            let _ = writeln!(out, "  = hint: {hint}");
        }
        out
    }

    /// One line: `file:line:col: error: message`.
    pub fn one_line(&self, sources: &SourceMap) -> String {
        let kind = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        match self.span {
            Some(span) => format!("{}: {kind}: {}", sources.location(span), self.message),
            None => format!("{kind}: {}", self.message),
        }
    }
}

fn render_snippet(out: &mut String, sources: &SourceMap, span: Span, label: Option<&str>) {
    let file = sources.file(span.file);
    let (line, col) = file.line_col(span.start);
    let text = file.line_text(line);
    let (end_line, end_col) = file.line_col(span.end.max(span.start));
    let width = if end_line == line {
        end_col.saturating_sub(col).max(1)
    } else {
        1
    };
    let gutter = line.to_string().len();
    let _ = writeln!(
        out,
        "{:gutter$}--> {}:{}:{}",
        "",
        file.path.display(),
        line,
        col
    );
    let _ = writeln!(out, "{:gutter$} |", "");
    let shown: String = text
        .chars()
        .map(|c| if c == '\t' { ' ' } else { c })
        .collect();
    let _ = writeln!(out, "{line} | {shown}");
    let _ = write!(
        out,
        "{:gutter$} | {:pad$}{}",
        "",
        "",
        "^".repeat(width),
        pad = col - 1
    );
    match label {
        Some(l) => {
            let _ = writeln!(out, " {l}");
        }
        None => out.push('\n'),
    }
}

/// Renders many diagnostics, errors and warnings in source order.
pub fn render_all(diags: &[Diagnostic], sources: &SourceMap) -> String {
    diags
        .iter()
        .map(|d| d.render(sources))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The closest candidate to `word` by edit distance, if it is close enough to be a likely typo.
pub fn suggest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (word.chars().count() / 3).max(1);
    candidates
        .into_iter()
        .map(|c| (edit_distance(&word.to_lowercase(), &c.to_lowercase()), c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, &cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + (ca != cb) as usize)
                .min(prev[j + 1] + 1)
                .min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_close_words_only() {
        assert_eq!(suggest("nne", ["n", "ne", "sw"]), Some("ne"));
        assert_eq!(suggest("xyzzy", ["n", "ne", "sw"]), None);
    }

    #[test]
    fn renders_caret_under_span() {
        let mut sm = SourceMap::new();
        let f = sm.add("t.zrf", "(a\n  (slide nne))\n".into(), false);
        let d = Diagnostic::error(Span::new(f, 12, 15), "unknown direction `nne`")
            .with_hint("did you mean `ne`?");
        let r = d.render(&sm);
        assert!(r.contains("--> t.zrf:2:10"), "{r}");
        assert!(r.contains("2 |   (slide nne))"), "{r}");
        assert!(r.contains("  |          ^^^"), "{r}");
        assert!(r.contains("hint: did you mean `ne`?"), "{r}");
    }
}
