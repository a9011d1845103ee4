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
            // Raised inside a macro's expansion: the calls it came from, innermost first.
            for (name, call, n) in sources.calls_collapsed(span) {
                let note = if n > 1 {
                    format!("in the expansion of macro `{name}` called here, {n} times in a row")
                } else {
                    format!("in the expansion of macro `{name}` called here")
                };
                render_snippet(&mut out, sources, call, Some(&note));
            }
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
            Some(span) => {
                let from = sources.called_from(span);
                let from = if from.is_empty() {
                    from
                } else {
                    format!(" ({from})")
                };
                format!("{}: {kind}: {}{from}", sources.location(span), self.message)
            }
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
    // A long line (a generated file, one line of junk) is cut around the caret; only the window is looked at,
    // so that many diagnostics on one long line cost little.
    let line_start = text.as_ptr() as usize - file.text.as_ptr() as usize;
    let mut caret = (span.start as usize)
        .saturating_sub(line_start)
        .min(text.len());
    while !text.is_char_boundary(caret) {
        caret -= 1;
    }
    let (from, to) = if text.len() > MAX_EXCERPT {
        let from = text[..caret]
            .char_indices()
            .rev()
            .nth(MAX_EXCERPT / 2 - 1)
            .map_or(0, |(i, _)| i);
        let to = text[from..]
            .char_indices()
            .nth(MAX_EXCERPT)
            .map_or(text.len(), |(i, _)| from + i);
        (from, to)
    } else {
        (0, text.len())
    };
    let (before, after) = (
        if from > 0 { "..." } else { "" },
        if to < text.len() { "..." } else { "" },
    );
    let shown: String = text[from..to]
        .chars()
        .map(|c| if c == '\t' || c.is_control() { ' ' } else { c })
        .collect();
    let _ = writeln!(out, "{line} | {before}{shown}{after}");
    let pad = text[from..caret.max(from)].chars().count() + before.len();
    let width = width.min(text[caret.min(to)..to].chars().count().max(1));
    let _ = write!(out, "{:gutter$} | {:pad$}{}", "", "", "^".repeat(width));
    match label {
        Some(l) => {
            let _ = writeln!(out, " {l}");
        }
        None => out.push('\n'),
    }
}

/// How many diagnostics are shown; the rest are counted.
pub const MAX_SHOWN: usize = 100;
/// How many characters of a source line an excerpt shows.
const MAX_EXCERPT: usize = 160;

/// The diagnostics to show, at most [`MAX_SHOWN`] (errors first, then warnings, each kept in order), and a
/// line counting the others when there are any.
pub fn shown(diags: &[Diagnostic]) -> (Vec<&Diagnostic>, Option<String>) {
    if diags.len() <= MAX_SHOWN {
        return (diags.iter().collect(), None);
    }
    let errors = diags
        .iter()
        .filter(|d| d.is_error() && d.span.is_some())
        .count();
    let placeless = diags.iter().filter(|d| d.span.is_none()).count();
    let show_errors = errors.min(MAX_SHOWN);
    let show_warnings = MAX_SHOWN - show_errors;
    let (mut e, mut w) = (0, 0);
    // Diagnostics without a place (a file that cannot be read, a count of errors left out) are few and
    // always shown.
    let picked: Vec<&Diagnostic> = diags
        .iter()
        .filter(|d| {
            if d.span.is_none() {
                true
            } else if d.is_error() {
                e += 1;
                e <= show_errors
            } else {
                w += 1;
                w <= show_warnings
            }
        })
        .collect();
    let warnings = diags.len() - errors - placeless;
    let (more_e, more_w) = (errors - show_errors, warnings.saturating_sub(show_warnings));
    if more_e + more_w == 0 {
        return (picked, None);
    }
    let mut parts = vec![];
    if more_e > 0 {
        parts.push(format!(
            "{more_e} more error{}",
            if more_e == 1 { "" } else { "s" }
        ));
    }
    if more_w > 0 {
        parts.push(format!(
            "{more_w} more warning{}",
            if more_w == 1 { "" } else { "s" }
        ));
    }
    (
        picked,
        Some(format!("... and {} not shown", parts.join(" and "))),
    )
}

/// Renders many diagnostics, at most [`MAX_SHOWN`] of them (see [`shown`]).
pub fn render_all(diags: &[Diagnostic], sources: &SourceMap) -> String {
    let (picked, more) = shown(diags);
    let mut out = picked
        .iter()
        .map(|d| d.render(sources))
        .collect::<Vec<_>>()
        .join("\n");
    if let Some(m) = more {
        out.push('\n');
        out.push_str(&m);
        out.push('\n');
    }
    out
}

/// The closest candidate to `word` by edit distance, if it is close enough to be a likely typo. The word
/// itself is never suggested (it is known, but not valid where it stands).
pub fn suggest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let len = word.chars().count();
    if len > 64 {
        return None; // no name is that long: not a typo
    }
    let limit = (len / 3).max(1);
    let word = word.to_lowercase();
    candidates
        .into_iter()
        // The distance is at least the difference in length: skip what cannot be close.
        .filter(|c| c.len().abs_diff(word.len()) <= limit * 4)
        .map(|c| (edit_distance(&word, &c.to_lowercase()), c))
        .filter(|(d, _)| *d <= limit && *d > 0)
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
    fn never_suggests_the_word_itself() {
        assert_eq!(suggest("or", ["or", "on", "to"]), Some("on"));
        assert_eq!(suggest("OR", ["or"]), None);
        assert_eq!(suggest(&"x".repeat(100), ["x"]), None);
    }

    #[test]
    fn long_lines_are_cut_around_the_caret() {
        let mut sm = SourceMap::new();
        let line = format!("{}BAD{}", "a ".repeat(5000), " b".repeat(5000));
        let f = sm.add("t.zrf", line, false);
        let d = Diagnostic::error(Span::new(f, 10_000, 10_003), "unknown word `BAD`");
        let r = d.render(&sm);
        assert!(r.lines().all(|l| l.len() < 200), "{r}");
        let text = r.lines().find(|l| l.starts_with("1 | ")).unwrap();
        let caret = r.lines().find(|l| l.contains('^')).unwrap();
        let at = caret.find('^').unwrap();
        assert_eq!(&text[at..at + 3], "BAD", "{r}");
        assert!(text.starts_with("1 | ...") && text.ends_with("..."), "{r}");
    }

    #[test]
    fn at_most_a_hundred_diagnostics_are_shown_errors_first() {
        let mut sm = SourceMap::new();
        let f = sm.add("t.zrf", "(a)".into(), false);
        let mut diags: Vec<Diagnostic> = (0..300)
            .map(|_| Diagnostic::warning(Span::new(f, 0, 1), "w"))
            .collect();
        diags.push(Diagnostic::error(Span::new(f, 0, 1), "the error"));
        let (picked, more) = shown(&diags);
        assert_eq!(picked.len(), MAX_SHOWN);
        assert!(picked.iter().any(|d| d.message == "the error"));
        assert_eq!(more.as_deref(), Some("... and 201 more warnings not shown"));
        let r = render_all(&diags, &sm);
        assert_eq!(r.matches("warning: w").count(), 99);
        assert!(r.ends_with("... and 201 more warnings not shown\n"), "{r}");
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
