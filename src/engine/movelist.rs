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
    /// Handle mode, for a caller that plays one move of the list (random playouts): a composite move is kept
    /// as a handle (its first part, copied once for all the moves that start with it, and the index of each
    /// later part among its level's continuations) and built by `compose::resolve` only if chosen. The list
    /// has the same moves in the same order, merged the same way (the keys are computed as the moves finish);
    /// only their actions are not copied. Not used in games with deferred captures.
    pub lazy: bool,
    pub(crate) paths: Vec<u32>,
    pub(crate) handles: Vec<Handle>,
}

/// A composite move kept as a handle (see [`MoveList::lazy`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Handle {
    /// The first part, in `parts` (no move of its own).
    pub root: u32,
    /// What continues the first part: the move type (`None`: any) and whether any piece may continue.
    pub cont: Option<MoveType>,
    pub anywhere: bool,
    /// The later parts' indices, `paths[path..path + len]`.
    pub path: u32,
    pub len: u32,
}

/// `MoveHead::len` of a handle (`MoveHead::first` is then the index of the handle).
const HANDLE: u32 = u32::MAX;

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
        self.paths.clear();
        self.handles.clear();
    }

    /// The handle move `i` is, if it is one (see [`MoveList::lazy`]).
    pub(crate) fn handle(&self, i: usize) -> Option<Handle> {
        let m = self.moves[i];
        (m.len == HANDLE).then(|| self.handles[m.first as usize])
    }

    /// Whether `i` names a whole move of the list: an error, saying why, where it is past the end (a stale
    /// index, or one from another list) or a handle ([`MoveList::lazy`]) not yet resolved. What the public
    /// accessors below check before they read; the engine's own loops, whose indices are the list's, use the
    /// crate's unchecked forms (`heads_in`, `view_in`, ...).
    pub fn check(&self, i: usize) -> Result<(), super::EngineError> {
        let Some(m) = self.moves.get(i) else {
            return Err(super::EngineError::Other(format!(
                "move {i} is not in the list: it holds {} move(s) (a stale index, or one of another list?)",
                self.moves.len()
            )));
        };
        if m.len == HANDLE {
            return Err(super::EngineError::Other(format!(
                "move {i} of the list is a handle (a composite move listed with MoveList::lazy): \
                 resolve it with Engine::resolve first, or list with lazy off"
            )));
        }
        let end = m.first as usize + m.len as usize;
        if end > self.parts.len() {
            return Err(super::EngineError::Other(format!(
                "move {i} of the list names parts {}..{end} of {} (the list was changed under it)",
                m.first,
                self.parts.len()
            )));
        }
        Ok(())
    }

    /// Part `p` of `parts`, as the apply functions read it.
    pub(crate) fn part_view(&self, p: usize) -> PartView<'_> {
        let h = &self.parts[p];
        PartView {
            actions: &self.actions[h.start as usize..h.end as usize],
            from: h.from,
            to: h.to,
        }
    }

    /// Copies emitted part `p` into the list, as no move of its own (a handle's first part); returns its index.
    pub(crate) fn push_part(&mut self, em: &Emissions, p: usize) -> u32 {
        let mut h = em.parts[p].head;
        let start = self.actions.len() as u32;
        self.actions.extend_from_slice(em.actions(p));
        h.start = start;
        h.end = self.actions.len() as u32;
        self.parts.push(h);
        self.parts.len() as u32 - 1
    }

    /// Adds a handle move.
    pub(crate) fn push_handle(
        &mut self,
        root: u32,
        cont: Option<MoveType>,
        anywhere: bool,
        path: &[u32],
    ) {
        let h = Handle {
            root,
            cont,
            anywhere,
            path: self.paths.len() as u32,
            len: path.len() as u32,
        };
        self.paths.extend_from_slice(path);
        self.moves.push(MoveHead {
            first: self.handles.len() as u32,
            len: HANDLE,
        });
        self.handles.push(h);
    }

    /// Adds the move of part `root` of the list followed by the emitted parts `rest`; returns its index.
    pub(crate) fn push_resolved(&mut self, root: usize, em: &Emissions, rest: &[usize]) -> usize {
        let first = self.parts.len() as u32;
        let r = self.parts[root];
        let start = self.actions.len() as u32;
        self.actions
            .extend_from_within(r.start as usize..r.end as usize);
        self.parts.push(PartHead {
            start,
            end: self.actions.len() as u32,
            ..r
        });
        for &p in rest {
            let mut h = em.parts[p].head;
            let start = self.actions.len() as u32;
            self.actions.extend_from_slice(em.actions(p));
            h.start = start;
            h.end = self.actions.len() as u32;
            self.parts.push(h);
        }
        self.moves.push(MoveHead {
            first,
            len: rest.len() as u32 + 1,
        });
        self.moves.len() - 1
    }

    /// The parts of move `i`; an error where `i` is not a whole move of the list ([`MoveList::check`]).
    pub fn heads(&self, i: usize) -> Result<&[PartHead], super::EngineError> {
        self.check(i)?;
        Ok(self.heads_in(i))
    }

    /// [`MoveList::heads`] unchecked, for the engine's loops over its own list: `i` must be a whole move.
    #[inline]
    pub(crate) fn heads_in(&self, i: usize) -> &[PartHead] {
        let m = self.moves[i];
        &self.parts[m.first as usize..(m.first + m.len) as usize]
    }

    /// Part `j` of move `i`, as the apply functions read it; an error where `i` is not a whole move of the list
    /// or `j` not one of its parts.
    pub fn view(&self, i: usize, j: usize) -> Result<PartView<'_>, super::EngineError> {
        let n = self.heads(i)?.len();
        if j >= n {
            return Err(super::EngineError::Other(format!(
                "move {i} of the list has {n} part(s): there is no part {j}"
            )));
        }
        Ok(self.view_in(i, j))
    }

    /// [`MoveList::view`] unchecked (see [`MoveList::heads_in`]).
    #[inline]
    pub(crate) fn view_in(&self, i: usize, j: usize) -> PartView<'_> {
        let h = &self.heads_in(i)[j];
        PartView {
            actions: &self.actions[h.start as usize..h.end as usize],
            from: h.from,
            to: h.to,
        }
    }

    /// Every action of move `i`, part after part; an error where `i` is not a whole move of the list.
    pub fn actions_of(
        &self,
        i: usize,
    ) -> Result<impl Iterator<Item = &Action> + '_, super::EngineError> {
        self.check(i)?;
        Ok(self.actions_in(i))
    }

    /// [`MoveList::actions_of`] unchecked (see [`MoveList::heads_in`]).
    pub(crate) fn actions_in(&self, i: usize) -> impl Iterator<Item = &Action> + '_ {
        self.heads_in(i)
            .iter()
            .flat_map(|h| &self.actions[h.start as usize..h.end as usize])
    }

    /// Whether move `i` is a pass (no parts); an error where `i` is past the end of the list. A handle is
    /// never a pass.
    pub fn is_pass(&self, i: usize) -> Result<bool, super::EngineError> {
        match self.check(i) {
            Ok(()) => Ok(self.is_pass_in(i)),
            Err(_) if i < self.moves.len() && self.moves[i].len == HANDLE => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// [`MoveList::is_pass`] unchecked: `i` must be below [`MoveList::len`].
    #[inline]
    pub(crate) fn is_pass_in(&self, i: usize) -> bool {
        self.moves[i].len == 0
    }

    /// Move `i` as an owned [`Move`]; an error where it is past the end of the list or a handle ([`MoveList::lazy`]), whose later parts
    /// only the engine can build: resolve it first ([`super::Engine::resolve`]), or list with `lazy` off.
    pub fn to_move(&self, i: usize) -> Result<Move, super::EngineError> {
        self.check(i)?;
        Ok(Move {
            parts: self
                .heads_in(i)
                .iter()
                .map(|h| h.to_part(&self.actions))
                .collect(),
        })
    }

    /// Every move, owned; an error where one is a handle (see [`MoveList::to_move`]).
    pub fn to_moves(&self) -> Result<Vec<Move>, super::EngineError> {
        (0..self.len()).map(|i| self.to_move(i)).collect()
    }

    /// Keeps the moves for which `keep(self, i)` holds, in order; the parts and actions of the others stay in
    /// the buffer, unreferenced, until it is cleared. For a list of whole moves (a handle's parts are shared).
    pub fn retain_moves(&mut self, mut keep: impl FnMut(&MoveList, usize) -> bool) {
        let mut w = 0;
        for i in 0..self.moves.len() {
            if keep(self, i) {
                self.moves[w] = self.moves[i];
                w += 1;
            }
        }
        self.moves.truncate(w);
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
        // Extended from exact-size iterators: no capacity test per element.
        let first = self.parts.len() as u32;
        self.moves
            .extend((first..first + em.parts.len() as u32).map(|first| MoveHead { first, len: 1 }));
        self.parts.extend(em.parts.iter().map(|e| PartHead {
            start: e.head.start + shift,
            end: e.head.end + shift,
            ..e.head
        }));
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
    /// word: moves of one net effect share it. An error where `i` is not a whole move of the list.
    pub fn ends(&self, i: usize) -> Result<u32, super::EngineError> {
        self.check(i)?;
        Ok(self.ends_in(i))
    }

    /// [`MoveList::ends`] unchecked (see [`MoveList::heads_in`]).
    pub(crate) fn ends_in(&self, i: usize) -> u32 {
        let h = self.heads_in(i);
        let from = h
            .first()
            .and_then(|p| p.from)
            .map_or(0xFFFF, |x| x.0 as u32);
        let to = h.last().and_then(|p| p.to).map_or(0xFFFF, |x| x.0 as u32);
        from << 16 | to
    }

    /// The first square the move's piece started from; an error where `i` is not a whole move of the list.
    pub fn from(&self, i: usize) -> Result<Option<Pos>, super::EngineError> {
        self.check(i)?;
        Ok(self.start_in(i))
    }

    /// [`MoveList::from`] unchecked (see [`MoveList::heads_in`]).
    pub(crate) fn start_in(&self, i: usize) -> Option<Pos> {
        self.heads_in(i).first().and_then(|p| p.from)
    }
}
