//! `(stacks)`: the game's positions hold columns of pieces (`docs/language.md`, "Stacks"). Here: the section,
//! the check that `take-prisoner` and `carry` are used only in games that declare it, and the diagnostic for a
//! setup that puts several pieces on one position in a game that does not (Zillions and our engine without
//! stacks would keep only the last, silently).

use super::game::*;
use super::{Compiler, MissingKind};
use crate::lang::{Diagnostic, GameSource, Node};

impl Compiler<'_> {
    /// Reads the `(stacks)` sections of a game: whether it declares columns.
    pub(super) fn stacks(&mut self, src: &GameSource) -> bool {
        let mut found = false;
        for s in &src.sections {
            if !s.head().is_some_and(|h| h.eq_ignore_ascii_case("stacks")) {
                continue;
            }
            if let Some(a) = s.args().first() {
                self.diags.push(
                    Diagnostic::error(a.span, "`stacks` takes nothing: write `(stacks)`")
                        .with_hint("a game with stacks keeps a column of pieces on each position"),
                );
            }
            found = true;
        }
        found
    }

    /// A setup that puts several pieces on one position: a column with `(stacks)`; without, a missing rule at
    /// the second mention (only the last piece would stay).
    pub(super) fn stacked_setup(&mut self, sections: &[&Node], board: &Board, stacks: bool) {
        if stacks {
            return;
        }
        let mut seen: Vec<bool> = vec![false; board.positions.len()];
        for s in sections {
            for per_player in s.args() {
                let Some(items) = per_player.list() else {
                    continue;
                };
                for group in items.iter().skip(1) {
                    let Some(g) = group.list() else { continue };
                    let mut k = 1;
                    while k < g.len() {
                        if g[k].is_atom("off") {
                            k += 2;
                            continue;
                        }
                        if let Some(p) = g[k].atom().and_then(|a| board.position(a)) {
                            if std::mem::replace(&mut seen[p.idx()], true) {
                                let name = board.pos_name(p).to_string();
                                self.missing_rule(MissingKind::StackedSetup, &name, "", g[k].span);
                            }
                        }
                        k += 1;
                    }
                }
            }
        }
    }

    /// `take-prisoner` and `carry` need columns: an error at the program that uses them in a game without
    /// `(stacks)`.
    pub(super) fn stack_forms_need_stacks(&mut self, pieces: &[PieceInfo], stacks: bool) {
        if stacks {
            return;
        }
        fn uses(body: &[Instr]) -> Option<&'static str> {
            body.iter().find_map(|i| match i {
                Instr::TakePrisoner(_) => Some("take-prisoner"),
                Instr::Carry(_) => Some("carry"),
                Instr::If(_, a, b) => uses(a).or_else(|| uses(b)),
                Instr::While(_, a) => uses(a),
                Instr::Choose(c) => uses(&c.body).or_else(|| uses(&c.rest)),
                _ => None,
            })
        }
        for p in pieces {
            for prog in p.moves.iter().chain(&p.drops) {
                if let Some(w) = uses(&prog.body) {
                    self.diags.push(
                        Diagnostic::error(prog.span, format!("`{w}` needs a game with stacks"))
                            .with_hint(
                                "declare `(stacks)` in the game: a position then holds a column",
                            ),
                    );
                }
            }
        }
    }
}
