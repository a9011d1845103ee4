//! `(rotation (name NAME) (cycle P...) ...)` in a board: a fragment that turns with its pieces (Pentago's
//! quadrants), read after the positions are final. The move-program form `(add-rotate NAME [STEPS])` is compiled
//! in `compile/program.rs` and run in `engine/run/rotate.rs`; `docs/language.md`, "Rotations".

use super::super::game::{Board, Pos, Rotation, NO_POS};
use super::{short, Builder};
use crate::lang::{Diagnostic, Node};

impl Builder<'_> {
    /// Adds one `(rotation ...)` form to the board, or reports why it cannot.
    pub(super) fn rotation(&mut self, board: &mut Board, form: &Node) {
        let mut name = None;
        let mut cycles: Vec<Vec<Pos>> = Vec::new();
        let mut ok = true;
        for part in form.args() {
            match part.head().map(|h| h.to_ascii_lowercase()).as_deref() {
                Some("name") => match part.args() {
                    [n] if n.text().is_some() => name = n.text(),
                    _ => {
                        self.error(part.span, "expected (name ROTATION)");
                        ok = false;
                    }
                },
                Some("cycle") => {
                    let mut cycle = Vec::new();
                    for p in part.args() {
                        let Some(old) = self.position_ref(p) else {
                            ok = false;
                            continue;
                        };
                        match self.renumber[old as usize] {
                            NO_POS => {
                                self.error(
                                    p.span,
                                    format!("position `{}` is killed: it cannot turn", short(p)),
                                );
                                ok = false;
                            }
                            pos => {
                                let pos = Pos(pos);
                                if cycle.contains(&pos)
                                    || cycles.iter().flatten().any(|&q| q == pos)
                                {
                                    self.diags.push(
                                        Diagnostic::error(
                                            p.span,
                                            format!(
                                                "position `{}` is twice in this rotation",
                                                short(p)
                                            ),
                                        )
                                        .with_hint("the cycles of one rotation are disjoint"),
                                    );
                                    ok = false;
                                }
                                cycle.push(pos);
                            }
                        }
                    }
                    if cycle.len() < 2 && ok {
                        self.diags.push(
                            Diagnostic::error(part.span, "a cycle needs two positions or more")
                                .with_hint("a position on no cycle stays where it is"),
                        );
                        ok = false;
                    }
                    cycles.push(cycle);
                }
                Some(h) => {
                    self.diags.push(
                        Diagnostic::error(part.span, format!("unknown rotation form `{h}`"))
                            .with_hint(
                                "a rotation holds (name NAME) and (cycle POSITION ...) forms",
                            ),
                    );
                    ok = false;
                }
                None => {
                    self.error(
                        part.span,
                        format!("unexpected `{}` in a rotation", short(part)),
                    );
                    ok = false;
                }
            }
        }
        let Some(name) = name else {
            self.diags.push(
                Diagnostic::error(form.span, "this rotation has no name")
                    .with_hint("add (name ROTATION)"),
            );
            return;
        };
        if cycles.is_empty() {
            self.diags.push(
                Diagnostic::error(form.span, format!("rotation `{name}` has no cycle")).with_hint(
                    "add (cycle POSITION ...): each position's piece goes to the next one",
                ),
            );
            return;
        }
        if board
            .rotations
            .iter()
            .any(|r| r.name.eq_ignore_ascii_case(name))
        {
            self.error(form.span, format!("rotation `{name}` is declared twice"));
            return;
        }
        if ok {
            board.rotations.push(Rotation {
                name: name.to_string(),
                cycles,
            });
        }
    }
}
