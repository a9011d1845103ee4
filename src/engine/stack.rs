//! Columns of pieces (`(stacks)`, `docs/language.md` "Stacks"): a position may hold an ordered stack. The top
//! piece stays in `State::cells`, so every ZRF condition (`friend?`, `enemy?`, `piece?`, attributes) reads the
//! top, and the column belongs to the top's owner; the pieces under it live in `State::columns`, a side table
//! that is empty (and costs one length test) in games without stacks.
//!
//! Changes to columns are actions of the move, like every other change: a movement (`Action::Move`) carries
//! the whole column, `Action::MoveTop` the top `count` pieces of it, a capture removes the whole column, and
//! `Action::TakePrisoner` takes the top of a jumped column and puts it at the bottom of the capturing column
//! (Lasca, Bashni). The piece under a taken top becomes the top: a freed prisoner is its owner's piece again.

use super::state::{mix, Piece, State};
use crate::compile::*;

/// The Zobrist key of one piece under the top, by its position and depth (0: just under the top).
#[inline]
fn under_key(pos: Pos, depth: usize, p: &Piece) -> u64 {
    let attrs = match p.attrs.word() {
        0 => 0,
        w => mix(w ^ 0x0C0C_0000_0000_0002).rotate_left(29),
    };
    mix(0x5151_0000_0000_0000
        ^ (pos.0 as u64) << 32
        ^ (depth as u64) << 40
        ^ p.kind.0 as u64
        ^ (p.owner.0 as u64) << 16
        ^ (p.dead as u64) << 24
        ^ attrs)
}

/// The key of the pieces under the top at `pos` (0 for none).
pub fn column_key(pos: Pos, col: &[Piece]) -> u64 {
    col.iter()
        .enumerate()
        .fold(0, |h, (d, p)| h ^ under_key(pos, d, p))
}

impl State {
    /// Whether this state keeps columns (the game declares `(stacks)`, or a module asked for them).
    #[inline]
    pub fn has_columns(&self) -> bool {
        self.columns.is_some()
    }

    /// Turns columns on (for a module whose game does not declare `(stacks)`); the pieces stay where they are.
    pub fn enable_columns(&mut self) {
        if self.columns.is_none() {
            self.columns = Some(Box::new(vec![vec![]; self.cells.len()]));
        }
    }

    /// The pieces under the top at `pos`, from the one just under it down to the bottom.
    #[inline]
    pub fn under(&self, pos: Pos) -> &[Piece] {
        match &self.columns {
            Some(c) => c.get(pos.idx()).map_or(&[], |c| &c[..]),
            None => &[],
        }
    }

    /// Pieces on `pos`: 0 when empty, 1 for a lone piece, more for a column.
    pub fn height(&self, pos: Pos) -> usize {
        match self.get(pos) {
            None => 0,
            Some(_) => 1 + self.under(pos).len(),
        }
    }

    /// The whole column at `pos`, top first.
    pub fn column(&self, pos: Pos) -> Vec<Piece> {
        self.get(pos)
            .into_iter()
            .chain(self.under(pos).iter().copied())
            .collect()
    }

    /// Replaces the pieces under the top at `pos`, keeping the hash up to date.
    pub fn set_under(&mut self, pos: Pos, col: Vec<Piece>) {
        let Some(cols) = &mut self.columns else {
            return;
        };
        let new = column_key(pos, &col);
        let old = std::mem::replace(&mut cols[pos.idx()], col);
        self.hash ^= column_key(pos, &old) ^ new;
    }

    /// Removes and returns the pieces under the top at `pos`.
    pub fn take_under(&mut self, pos: Pos) -> Vec<Piece> {
        let Some(cols) = &mut self.columns else {
            return vec![];
        };
        if cols[pos.idx()].is_empty() {
            return vec![];
        }
        let old = std::mem::take(&mut cols[pos.idx()]);
        self.hash ^= column_key(pos, &old);
        old
    }

    /// Puts a piece on top of whatever stands on `pos` (the old top goes under it).
    pub fn put_on_top(&mut self, pos: Pos, piece: Piece) {
        if let Some(old) = self.get(pos) {
            let mut col = self.take_under(pos);
            col.insert(0, old);
            self.set_under(pos, col);
        }
        self.set(pos, Some(piece));
    }

    /// Takes the top piece off `pos`: the piece under it, if any, becomes the top.
    pub fn pop_top(&mut self, pos: Pos) -> Option<Piece> {
        let top = self.get(pos)?;
        let mut col = self.take_under(pos);
        if col.is_empty() {
            self.set(pos, None);
        } else {
            let next = col.remove(0);
            self.set(pos, Some(next));
            self.set_under(pos, col);
        }
        Some(top)
    }

    /// Puts a piece at the bottom of the column on `pos` (on an empty position, it is the column).
    pub fn push_bottom(&mut self, pos: Pos, piece: Piece) {
        if self.get(pos).is_none() {
            self.set(pos, Some(piece));
            return;
        }
        let mut col = self.take_under(pos);
        col.push(piece);
        self.set_under(pos, col);
    }
}

/// Applies the movements of a part in a game with columns: each carries its column (or, `MoveTop`, the top
/// `count` pieces of it), all lifted first and then put down, as cascades need.
pub(super) fn apply_movements(state: &mut State, actions: &[super::Action]) {
    use super::Action;
    let mut lifted: Vec<(Pos, Vec<Piece>)> = vec![];
    for a in actions {
        let (from, to, count) = match *a {
            Action::Move { from, to } => (from, to, usize::MAX),
            Action::MoveTop { from, to, count } => (from, to, count as usize),
            _ => continue,
        };
        let mut col = state.column(from);
        let rest = col.split_off(count.clamp(1, col.len().max(1)).min(col.len()));
        state.take_under(from);
        state.set(from, None);
        let mut rest = rest.into_iter();
        if let Some(t) = rest.next() {
            state.set(from, Some(t));
            state.set_under(from, rest.collect());
        }
        lifted.push((to, col));
    }
    for (to, col) in lifted {
        state.take_under(to);
        let mut col = col.into_iter();
        state.set(to, col.next());
        state.set_under(to, col.collect());
    }
}

/// `Action::TakePrisoner`: the top of the column on `at` goes to the bottom of the column on `to`. Under
/// deferred captures (a composite move of a game with `(option "deferred captures" true)`) it is only marked,
/// as a captured piece is: it stays, blocks, and cannot be taken again; [`release_prisoners`] moves it when
/// the move ends.
pub(super) fn take_prisoner(state: &mut State, at: Pos, to: Pos, deferred: bool) {
    if deferred {
        if let Some(mut x) = state.get(at) {
            x.dead = true;
            state.set(at, Some(x));
        }
    } else if let Some(mut p) = state.pop_top(at) {
        p.dead = false;
        state.push_bottom(to, p);
    }
}

/// At the end of a composite move with deferred captures: every prisoner it marked goes, in the order taken,
/// to the bottom of the column where the move ends (each one under the one taken before it).
pub(super) fn release_prisoners(state: &mut State, end: Pos, prisoners: impl Iterator<Item = Pos>) {
    for at in prisoners {
        if state.get(at).is_some_and(|x| x.dead) {
            if let Some(mut p) = state.pop_top(at) {
                p.dead = false;
                state.push_bottom(end, p);
            }
        }
    }
}
