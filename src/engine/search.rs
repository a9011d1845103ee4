//! The engine as searches use it: the legal moves of a position into a reusable buffer, made and unmade on one
//! working state, on the fastest path the game's rules allow. Alpha-beta keeps one [`SearchMoves`] per ply.

use super::apply::Undo;
use super::end::MoveCount;
use super::{gen, Engine, EngineError, Move, MoveList, Outcome, State};

/// How a [`SearchMoves`] holds its moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Kind {
    /// The legal moves in `list` (games where [`Engine::flat`] holds).
    #[default]
    Listed,
    /// The candidates in `list`, the legal ones' indices in `legal` (games where [`Engine::royal_listed`] holds).
    Royal,
    /// Owned moves in `owned`: games whose rules judge whole moves (phases, maximal captures, invariants,
    /// repetition rules, extension modules).
    Owned,
}

/// The legal moves of one position, in the order of [`Engine::legal_moves`], in buffers reused from position to
/// position: nothing is allocated once they have grown (but for games listed as owned moves).
#[derive(Debug, Default)]
pub struct SearchMoves {
    kind: Kind,
    list: MoveList,
    legal: Vec<u32>,
    owned: Vec<Move>,
    cache: super::legality::LegalityCache,
}

impl SearchMoves {
    /// How many legal moves.
    pub fn len(&self) -> usize {
        match self.kind {
            Kind::Listed => self.list.len(),
            Kind::Royal => self.legal.len(),
            Kind::Owned => self.owned.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The index in `list` of legal move `i`.
    fn at(&self, i: usize) -> usize {
        match self.kind {
            Kind::Royal => self.legal[i] as usize,
            _ => i,
        }
    }

    /// The pieces legal move `i` captures (as [`Move::captures`] counts them).
    pub fn captures(&self, i: usize) -> usize {
        use super::Action;
        match self.kind {
            Kind::Owned => self.owned[i].captures(),
            _ => self
                .list
                .actions_in(self.at(i))
                .filter(|a| matches!(a, Action::Capture { .. } | Action::TakePrisoner { .. }))
                .count(),
        }
    }

    /// A key of legal move `i` that names the same move in other positions: the moving piece's type, the square
    /// it started from and the square its last part ended on, hashed into a nonzero word (for the killer and
    /// history heuristics of a search; distinct moves may rarely share a key).
    pub fn move_key(&self, i: usize) -> u32 {
        match self.kind {
            Kind::Owned => move_key(&self.owned[i]),
            _ => list_key(&self.list, self.at(i)),
        }
    }

    /// Legal move `i` as an owned move.
    pub fn to_move(&self, i: usize) -> Result<Move, EngineError> {
        match self.kind {
            Kind::Owned => Ok(self.owned[i].clone()),
            _ => self.list.to_move(self.at(i)),
        }
    }

    /// Whether every legal move is a pass (a royal listing's).
    fn all_pass(&self) -> bool {
        self.legal.iter().all(|&i| self.list.is_pass_in(i as usize))
    }
}

/// [`SearchMoves::move_key`] of an owned move.
pub fn move_key(m: &Move) -> u32 {
    let from = m
        .parts
        .first()
        .and_then(|p| p.from)
        .map_or(0xFFFF, |x| x.0 as u32);
    let to = m
        .parts
        .last()
        .and_then(|p| p.to)
        .map_or(0xFFFF, |x| x.0 as u32);
    key_of(
        m.parts.first().map_or(0, |p| p.piece.idx() + 1),
        from << 16 | to,
    )
}

/// [`SearchMoves::move_key`] of move `i` of a move buffer (the key of the same move owned, [`move_key`]).
#[inline]
pub fn list_key(list: &MoveList, i: usize) -> u32 {
    let piece = list.heads_in(i).first().map_or(0, |p| p.piece.idx() + 1);
    key_of(piece, list.ends_in(i))
}

fn key_of(piece: usize, ends: u32) -> u32 {
    (super::state::mix((piece as u64) << 32 | ends as u64) as u32) | 1
}

impl Engine<'_> {
    /// The legal moves of `s` into `out`, the same moves in the same order as [`Engine::legal_moves`]; `s` is
    /// left as it was (candidates are tested by make and unmake on it where the game has royal pieces).
    pub fn search_list(
        &self,
        s: &mut State,
        out: &mut SearchMoves,
        undo: &mut Undo,
    ) -> Result<(), EngineError> {
        if self.flat() {
            out.kind = Kind::Listed;
            return self.legal_into(s, &mut out.list);
        }
        if self.royal_listed() {
            out.kind = Kind::Royal;
            self.candidates_into(s, &mut out.list)?;
            out.legal.clear();
            let player = self.to_move(s);
            match self.royal.get(player.idx()).filter(|t| !t.is_empty()) {
                None => out.legal.extend(0..out.list.len() as u32),
                Some(types) => {
                    let cached = out.cache.rebuild(self.game, s, player, types)?;
                    for i in 0..out.list.len() {
                        let attacked = if cached {
                            out.cache
                                .attacked_listed(self.game, s, &out.list, i, undo, player, types)?
                        } else {
                            !self.listed_legal(s, &out.list, i, player, undo)?
                        };
                        if !attacked {
                            out.legal.push(i as u32);
                        }
                    }
                }
            }
            return Ok(());
        }
        out.kind = Kind::Owned;
        out.owned = self.legal_moves(s)?;
        Ok(())
    }

    /// How many legal moves `s` has ([`Engine::search_list`] into a scratch buffer).
    pub fn count_legal(&self, s: &mut State) -> Result<usize, EngineError> {
        thread_local! {
            static SCRATCH: std::cell::RefCell<(SearchMoves, Undo)> = Default::default();
        }
        SCRATCH.with(|c| match c.try_borrow_mut() {
            Ok(mut c) => {
                let (moves, undo) = &mut *c;
                self.search_list(s, moves, undo)?;
                Ok(moves.len())
            }
            // Reentered (cannot happen today): a buffer of its own.
            Err(_) => {
                let mut moves = SearchMoves::default();
                self.search_list(s, &mut moves, &mut Undo::new())?;
                Ok(moves.len())
            }
        })
    }

    /// Whether the player to move in `s` has a royal piece (one its `checkmated` condition names) under attack:
    /// in check. Always false in games without royal pieces.
    pub fn in_check(&self, s: &State) -> Result<bool, EngineError> {
        let player = self.to_move(s);
        match self.royal.get(player.idx()).filter(|t| !t.is_empty()) {
            None => Ok(false),
            Some(types) => gen::royal_attacked(self.game, s, player, types),
        }
    }

    /// [`Engine::outcome`] of `s` given its legal moves in a [`SearchMoves`].
    pub fn search_outcome(
        &self,
        s: &State,
        moves: &SearchMoves,
        history: &[u64],
    ) -> Result<Option<Outcome>, EngineError> {
        match moves.kind {
            Kind::Listed => self.outcome_of_list(s, &moves.list, history),
            Kind::Royal => self.outcome_counted(
                s,
                MoveCount {
                    count: moves.len(),
                    all_pass: moves.all_pass(),
                },
                history,
            ),
            Kind::Owned => self.outcome(s, &moves.owned, history),
        }
    }

    /// Plays legal move `i` of `moves` (listed for `s`) on `s` in place, saving in `undo` what
    /// [`Engine::unmake`] needs.
    pub fn search_make(&self, s: &mut State, moves: &SearchMoves, i: usize, undo: &mut Undo) {
        match moves.kind {
            Kind::Owned => self.make(s, &moves.owned[i], undo),
            _ => self.make_listed_in(s, &moves.list, moves.at(i), undo),
        }
    }
}
