//! `(add-rotate NAME [STEPS])`: `add`, with a board fragment turned with its pieces as part of the part
//! (Pentago's quadrants; `docs/language.md`, "Rotations").
//!
//! The part is emitted as `add` would emit it, then rewritten so that the rotation turns the board as the rest
//! of the part leaves it. In actions, which `apply` runs as captures first, then every movement at once, then
//! placements and changes:
//! * each piece that stood on the rotation's cycles when the part began, and that the part neither captures
//!   nor moves itself, moves to where the rotation takes its position (one `Move` each, all at once);
//! * where the part's own piece lands, where it places or creates a piece, and where it changes one, are
//!   taken through the rotation too (a marble dropped on a quadrant that then turns ends where it turns to);
//! * captures are untouched: they take what stood there before the part.
//!
//! The part's head keeps the square of its `add` (`to`), so notation, `last-to` and the identity of moves
//! (their ends and net effect) name where the program put its piece down, before the turn.
//!
//! All of it runs only where a program says `add-rotate`: the interpreter's other paths are unchanged.

use super::{Run, Stop};
use crate::compile::*;
use crate::engine::moves::Action;

/// What a part that rotates cannot also do: an error at run time, with the program's text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::engine) enum Misuse {
    /// A cascade under way: its movements and the rotation's would meet.
    Cascade,
    /// A game with `(stacks)`: columns are not written for.
    Stacks,
}

impl Misuse {
    pub(in crate::engine) fn text(self) -> &'static str {
        match self {
            Misuse::Cascade => "a part that rotates cannot also cascade",
            Misuse::Stacks => "`add-rotate` is not written for games with (stacks)",
        }
    }
}

impl Run<'_> {
    /// `(add-rotate NAME STEPS)`: emits the part as `add` does, with rotation `r` turned by `steps`.
    #[cold]
    #[inline(never)]
    pub(in crate::engine) fn add_rotate(&mut self, r: u16, steps: i32) -> Result<(), Stop> {
        if self.game.stacks {
            return Err(Stop::Rotation(Misuse::Stacks));
        }
        if !self.cascades.is_empty() {
            return Err(Stop::Rotation(Misuse::Cascade));
        }
        let start = self.out.actions.len();
        let parts = self.out.parts.len();
        self.emit(&[], false, None)?;
        // In attack mode nothing is emitted (a rotation captures nothing).
        if self.out.parts.len() != parts + 1 {
            return Ok(());
        }
        // `add-rotate` is never partial: the part ends the move, so no continuation starts from its `to`.
        let e = self.out.parts[parts];
        let rotation = &self.game.board.rotations[r as usize];
        let turned = |p: Pos| rotation.turn(p, steps);
        let end = self.out.actions.len();
        for k in start..end {
            let a = match self.out.actions[k] {
                Action::Move { from, to } => Action::Move {
                    from,
                    to: turned(to),
                },
                Action::Place { at, piece, reserve } => Action::Place {
                    at: turned(at),
                    piece,
                    reserve,
                },
                Action::ChangeType { at, kind } => Action::ChangeType {
                    at: turned(at),
                    kind,
                },
                Action::ChangeOwner { at, owner } => Action::ChangeOwner {
                    at: turned(at),
                    owner,
                },
                Action::SetAttribute { at, attr, value } => Action::SetAttribute {
                    at: turned(at),
                    attr,
                    value,
                },
                Action::SetIntAttribute { at, field, value } => Action::SetIntAttribute {
                    at: turned(at),
                    field,
                    value,
                },
                other => other,
            };
            self.out.actions[k] = a;
        }
        // The piece the part moves itself is carried by its own movement (to the turned square above).
        let dest = e.head.to;
        let moving = e.head.from.filter(|f| Some(*f) != dest);
        for p in rotation.positions() {
            if moving == Some(p) || self.live(p).is_none_or(|x| x.dead) {
                continue;
            }
            let captured = self.out.actions[start..end]
                .iter()
                .any(|a| matches!(*a, Action::Capture { at } if at == p));
            let to = turned(p);
            if !captured && to != p {
                self.out.actions.push(Action::Move { from: p, to });
            }
        }
        let added = self.out.actions.len() - end;
        self.out.parts[parts].head.end += added as u32;
        self.emitted_actions += added;
        if self.emitted_actions > super::MAX_EMITTED_ACTIONS {
            return Err(Stop::TooMany);
        }
        Ok(())
    }
}
