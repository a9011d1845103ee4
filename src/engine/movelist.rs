//! The move buffer: the complete moves of a position in flat arrays, reused from ply to ply.
//!
//! The actions of every move are in one vector, the parts are Copy headers holding their range of actions,
//! and a move is a Copy header holding its range of parts. Clearing keeps the capacity, so listing, choosing and
//! playing moves allocates nothing once the buffer is warm. The owned [`Move`] (bots, `session`, records,
//! notation, extension modules) is built on demand by [`MoveList::to_move`].

use super::apply::PartView;
use super::gen::{Emissions, PartHead};
use super::moves::{Action, Move};
use crate::compile::*;

/// One move of a [`MoveList`]: its parts are `parts[first..first + len]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveHead {
    pub first: u32,
    pub len: u32,
}

/// The complete moves of one position, flat (see the module's paragraph).
#[derive(Clone, Debug, Default)]
pub struct MoveList {
    pub actions: Vec<Action>,
    pub parts: Vec<PartHead>,
    pub moves: Vec<MoveHead>,
}

impl MoveList {
    pub fn new() -> MoveList {
        MoveList::default()
    }

    pub fn len(&self) -> usize {
        self.moves.len()
    }

    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    pub fn clear(&mut self) {
        self.actions.clear();
        self.parts.clear();
        self.moves.clear();
    }

    /// The parts of move `i`.
    pub fn heads(&self, i: usize) -> &[PartHead] {
        let m = self.moves[i];
        &self.parts[m.first as usize..(m.first + m.len) as usize]
    }

    /// Part `j` of move `i`, as the apply functions read it.
    pub fn view(&self, i: usize, j: usize) -> PartView<'_> {
        let h = &self.heads(i)[j];
        PartView {
            actions: &self.actions[h.start as usize..h.end as usize],
            from: h.from,
            to: h.to,
        }
    }

    /// Every action of move `i`, part after part.
    pub fn actions_of(&self, i: usize) -> impl Iterator<Item = &Action> + '_ {
        self.heads(i)
            .iter()
            .flat_map(|h| &self.actions[h.start as usize..h.end as usize])
    }

    pub fn is_pass(&self, i: usize) -> bool {
        self.moves[i].len == 0
    }

    /// Move `i` as an owned [`Move`].
    pub fn to_move(&self, i: usize) -> Move {
        Move {
            parts: self
                .heads(i)
                .iter()
                .map(|h| h.to_part(&self.actions))
                .collect(),
        }
    }

    /// Every move, owned.
    pub fn to_moves(&self) -> Vec<Move> {
        (0..self.len()).map(|i| self.to_move(i)).collect()
    }

    /// Drops the last move, with its parts and actions.
    pub fn pop(&mut self) {
        if let Some(m) = self.moves.pop() {
            if let Some(h) = self.parts.get(m.first as usize) {
                self.actions.truncate(h.start as usize);
            }
            self.parts.truncate(m.first as usize);
        }
    }

    /// Adds a pass (a move of no parts).
    pub fn push_pass(&mut self) {
        self.moves.push(MoveHead {
            first: self.parts.len() as u32,
            len: 0,
        });
    }

    /// Adds the move made of the emitted parts `parts` (indices into `em`), in order.
    pub fn push_emitted(&mut self, em: &Emissions, parts: &[usize]) {
        let first = self.parts.len() as u32;
        for &p in parts {
            let mut h = em.parts[p].head;
            let start = self.actions.len() as u32;
            self.actions.extend_from_slice(em.actions(p));
            h.start = start;
            h.end = self.actions.len() as u32;
            self.parts.push(h);
        }
        self.moves.push(MoveHead {
            first,
            len: parts.len() as u32,
        });
    }

    /// Adds every emitted part as a move of its own. Into an empty list, the actions are taken over whole
    /// (the two buffers swap), not copied.
    pub fn push_singles(&mut self, em: &mut Emissions) {
        let shift = self.actions.len() as u32;
        if shift == 0 {
            std::mem::swap(&mut self.actions, &mut em.actions);
            em.actions.clear();
        } else {
            self.actions.extend_from_slice(&em.actions);
        }
        self.parts.reserve(em.parts.len());
        self.moves.reserve(em.parts.len());
        for e in &em.parts {
            let mut h = e.head;
            h.start += shift;
            h.end += shift;
            self.moves.push(MoveHead {
                first: self.parts.len() as u32,
                len: 1,
            });
            self.parts.push(h);
        }
        em.parts.clear();
    }

    /// Adds an owned move.
    pub fn push_move(&mut self, m: &Move) {
        let first = self.parts.len() as u32;
        for p in &m.parts {
            let start = self.actions.len() as u32;
            self.actions.extend_from_slice(&p.actions);
            self.parts.push(PartHead {
                start,
                end: self.actions.len() as u32,
                from: p.from,
                to: p.to,
                piece: p.piece,
                move_type: p.move_type,
            });
        }
        self.moves.push(MoveHead {
            first,
            len: m.parts.len() as u32,
        });
    }

    /// The square the move's piece started from, and where its last part ended (`0xFFFF` for none), in one
    /// word: moves of one net effect share it.
    pub fn ends(&self, i: usize) -> u32 {
        let h = self.heads(i);
        let from = h
            .first()
            .and_then(|p| p.from)
            .map_or(0xFFFF, |x| x.0 as u32);
        let to = h.last().and_then(|p| p.to).map_or(0xFFFF, |x| x.0 as u32);
        from << 16 | to
    }

    /// The first square the move's piece started from.
    pub fn from(&self, i: usize) -> Option<Pos> {
        self.heads(i).first().and_then(|p| p.from)
    }
}
