//! `(capture-order ...)`: a declared lexicographic order over complete moves, of which only the best are kept
//! (the majority rules of draughts: International's most pieces, Italian's four precedence rules, Portuguese
//! and Spanish "most pieces, then most kings"). This module reads the section; `engine::ordering` applies it
//! once to the list of complete moves. See `docs/language.md`, "Capture orderings".

use super::{Compiler, PieceType};
use crate::lang::diag::suggest;
use crate::lang::{Diagnostic, Node, Span};
use rustc_hash::FxHashMap as HashMap;

/// What a criterion measures on one complete move. "Kings" are the piece types named after the measure, or
/// else the types some promotion produces (as for `maximal captures 2`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measure {
    /// Pieces the move captures (only of the named types, if any are named).
    PiecesTaken,
    /// Kings the move captures.
    KingsTaken,
    /// 1 if the piece that starts the move is a king (its type before the move), else 0.
    ByKing,
    /// The place (1 for the first capture) of the first king captured; past the last capture if none is.
    FirstKingTaken,
    /// The places of every king captured, read as a binary number whose highest digit is the first capture:
    /// larger when the first king comes earlier, then the second, and so on (Italian rule 6.9).
    KingsEarly,
    /// The sum of the declared `(value N)` of the pieces captured (1 for a type with no value).
    ValueTaken,
}

pub const MEASURES: &[(&str, Measure)] = &[
    ("pieces-taken", Measure::PiecesTaken),
    ("kings-taken", Measure::KingsTaken),
    ("by-king", Measure::ByKing),
    ("first-king-taken", Measure::FirstKingTaken),
    ("kings-early", Measure::KingsEarly),
    ("value-taken", Measure::ValueTaken),
];

/// One criterion of a capture order: `(max pieces-taken)`, `(min first-king-taken)`, `(max (kings-taken King))`.
#[derive(Clone, Debug, PartialEq)]
pub struct Criterion {
    pub maximize: bool,
    pub measure: Measure,
    /// The piece types named after the measure (`None`: all pieces for `pieces-taken`, the promoted types
    /// for the king measures).
    pub types: Option<Vec<PieceType>>,
    pub span: Span,
}

/// The game's capture order as it would be written: `(max pieces-taken) (max (kings-taken King))`.
pub fn describe(game: &super::Game) -> String {
    let words: Vec<String> = game
        .capture_order
        .iter()
        .map(|c| {
            let name = MEASURES
                .iter()
                .find(|(_, m)| *m == c.measure)
                .map_or("?", |(n, _)| *n);
            let measure = match &c.types {
                None => name.to_string(),
                Some(ts) => {
                    let ts: Vec<&str> = ts
                        .iter()
                        .map(|t| game.pieces[t.idx()].name.as_str())
                        .collect();
                    format!("({name} {})", ts.join(" "))
                }
            };
            format!("({} {measure})", if c.maximize { "max" } else { "min" })
        })
        .collect();
    words.join(" ")
}

impl Compiler<'_> {
    /// Reads one `(capture-order criterion...)` section; reports every error with its place.
    pub(super) fn capture_order(
        &mut self,
        s: &Node,
        pieces: &HashMap<String, PieceType>,
    ) -> Vec<Criterion> {
        let mut out = vec![];
        if s.args().is_empty() {
            self.err(
                s.span,
                "`capture-order` needs at least one criterion, as in `(max pieces-taken)`",
            );
        }
        for a in s.args() {
            let dir = a.head().map(|h| h.to_ascii_lowercase());
            let maximize = match dir.as_deref() {
                Some("max") => true,
                Some("min") => false,
                _ => {
                    self.diags.push(
                        Diagnostic::error(
                            a.span,
                            "a capture-order criterion is `(max M)` or `(min M)`",
                        )
                        .with_hint("e.g. `(max pieces-taken)`"),
                    );
                    continue;
                }
            };
            let [m] = a.args() else {
                self.err(
                    a.span,
                    "`max` and `min` take one measure, as in `(max pieces-taken)`",
                );
                continue;
            };
            // `pieces-taken` or `(pieces-taken Man King)`.
            let (word, named) = match (m.atom(), m.list()) {
                (Some(w), _) => (w, None),
                (None, Some([h, rest @ ..])) if h.atom().is_some() => {
                    (h.atom().unwrap_or(""), Some(rest))
                }
                _ => {
                    self.err(
                        m.span,
                        "a measure is a name, or a list of a name and piece types",
                    );
                    continue;
                }
            };
            let Some(&(_, measure)) = MEASURES.iter().find(|(n, _)| n.eq_ignore_ascii_case(word))
            else {
                let d =
                    Diagnostic::error(m.span, format!("unknown capture-order measure `{word}`"));
                let d = match suggest(word, MEASURES.iter().map(|(n, _)| *n)) {
                    Some(s) => d.with_hint(format!("did you mean `{s}`?")),
                    None => d.with_hint(format!(
                        "the measures are {}",
                        MEASURES
                            .iter()
                            .map(|(n, _)| *n)
                            .collect::<Vec<_>>()
                            .join(", ")
                    )),
                };
                self.diags.push(d);
                continue;
            };
            let types = match named {
                None => None,
                Some([]) => {
                    self.err(
                        m.span,
                        format!("`({word})` names no piece type; write `{word}`"),
                    );
                    continue;
                }
                Some(_) if measure == Measure::ValueTaken => {
                    self.err(
                        m.span,
                        "`value-taken` reads the pieces' `(value N)`; it takes no types",
                    );
                    continue;
                }
                Some(ns) => {
                    let mut ts = vec![];
                    for n in ns {
                        match n.atom().and_then(|w| pieces.get(&w.to_ascii_lowercase())) {
                            Some(&t) => ts.push(t),
                            None => self.unknown_piece(n, pieces),
                        }
                    }
                    Some(ts)
                }
            };
            out.push(Criterion {
                maximize,
                measure,
                types,
                span: a.span,
            });
        }
        out
    }
}
