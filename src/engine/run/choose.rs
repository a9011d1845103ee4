//! `choose`: one path per chosen position, each from the program's state before the choice.

use super::{Run, Stop};
use crate::compile::*;
use crate::engine::moves::Action;
use crate::engine::state::Piece;

impl Run<'_> {
    /// `choose`: one path per chosen position (see [`Instr::Choose`]). Each path starts from the program's
    /// state before the choice, so that nothing one choice records leaks into another. Kept out of `instr`,
    /// the interpreter's hot loop, whose frame it would otherwise enlarge.
    #[inline(never)]
    #[cold]
    pub(in crate::engine) fn choose(
        &mut self,
        set: &Cond,
        otherwise: Option<&Cond>,
        body: &[Instr],
        rest: &[Instr],
    ) -> Result<(), Stop> {
        let here = self.cursor;
        let mut chosen = vec![];
        for c in std::iter::once(set).chain(otherwise) {
            for (i, info) in self.game.board.positions.iter().enumerate() {
                if info.dummy {
                    continue;
                }
                self.cursor = Pos(i as u16);
                if self.cond(c)? {
                    chosen.push(self.cursor);
                }
            }
            if !chosen.is_empty() {
                break;
            }
        }
        self.cursor = here;
        if chosen.is_empty() {
            return self.block(rest);
        }
        for p in chosen {
            let saved = self.save();
            self.cursor = p;
            let r = self.block(body).and_then(|()| self.block(rest));
            self.restore(saved);
            match r {
                Ok(()) | Err(Stop::Path) => {}
                Err(e) => return Err(e),
            }
        }
        // Every choice ran the rest of the program: nothing follows on this path.
        Err(Stop::Path)
    }

    fn save(&self) -> Saved {
        Saved {
            cursor: self.cursor,
            mark: self.mark,
            from: self.from,
            held: self.held,
            to: self.to,
            drop: self.drop,
            captures: self.captures.clone(),
            placed: self.placed.clone(),
            cascades: self.cascades.clone(),
            changes: self.changes.clone(),
            flags: self.flags.clone(),
            position_flags: self.position_flags.clone(),
            extra: self.extra,
            required: self.required,
            again: self.again,
        }
    }

    fn restore(&mut self, s: Saved) {
        self.cursor = s.cursor;
        self.mark = s.mark;
        self.from = s.from;
        self.held = s.held;
        self.to = s.to;
        self.drop = s.drop;
        self.captures = s.captures;
        self.placed = s.placed;
        self.cascades = s.cascades;
        self.changes = s.changes;
        self.flags = s.flags;
        self.position_flags = s.position_flags;
        self.extra = s.extra;
        self.required = s.required;
        self.again = s.again;
    }
}

/// A program run's state before a `choose`, restored after each choice.
struct Saved {
    cursor: Pos,
    mark: Option<Pos>,
    from: Option<Pos>,
    held: Option<Piece>,
    to: Option<Pos>,
    drop: Option<(PieceType, bool)>,
    captures: Vec<Pos>,
    placed: Vec<(Pos, Piece)>,
    cascades: Vec<(Pos, Pos)>,
    changes: Vec<Action>,
    flags: Vec<bool>,
    position_flags: Vec<(FlagId, Pos, bool)>,
    extra: bool,
    required: bool,
    again: bool,
}
