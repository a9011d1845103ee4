//! End of game: the win, loss, draw and count conditions, tested for each listed player after each move. When
//! several hold at once the highest priority decides. A player to move with no legal move and no condition
//! that covers it draws the game (Zillions' default), recorded as type `stalemated`.
//!
//! Decisions where ZRF is unclear (see README): `pieces-remaining n` means exactly n pieces on the board (and in
//! reserve with `include off-pieces`); `repetition` means the position (with the player to move) occurs for the
//! third time; `stalemated` and `checkmated` hold only for the player to move.

use super::gen;
use super::moves::Move;
use super::state::State;
use super::EngineError;
use crate::compile::*;

/// How a game ended.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// Per player: 1 win, 0 draw, -1 loss.
    pub results: Vec<i8>,
    /// The condition kind that fired (`checkmated`, `stalemated`, `absolute-config`, ... or `move-limit`).
    pub end_type: String,
    /// Declared name, or the kind.
    pub name: String,
    pub priority: i32,
}

struct Ctx<'a> {
    game: &'a Game,
    state: &'a State,
    /// How many legal moves the player to move has, and whether all of them are passes.
    moves: MoveCount,
    history: &'a [u64],
    royal: &'a [Vec<PieceType>],
    /// How often the current position's key occurs in `history`, once counted (every player's repetition
    /// condition reads the same count).
    seen: std::cell::Cell<Option<usize>>,
    /// The engine's general path is forced: `connects` is read by the reference fill
    /// ([`super::groups::connects`]), not through the occupancy ([`super::connects`]).
    general: bool,
}

impl Ctx<'_> {
    /// The occurrences of the current position's key in the history.
    fn occurrences(&self) -> usize {
        if let Some(n) = self.seen.get() {
            return n;
        }
        let k = self.state.key();
        let n = self.history.iter().filter(|&&h| h == k).count();
        self.seen.set(Some(n));
        n
    }

    fn to_move(&self) -> Player {
        self.game.turn_order.entries[self.state.turn].player
    }

    fn count(&self, player: Option<Player>, types: &[PieceType]) -> u32 {
        self.count_past(player, types, u32::MAX)
    }

    /// Whether the count of [`Ctx::count`] is `n`, counting no further than one past it.
    #[inline]
    fn count_is(&self, player: Option<Player>, types: &[PieceType], n: u32) -> bool {
        // `(pieces-remaining 0)`, the common case: whether the player has no live piece on the board.
        if let (0, true, false, Some(p)) = (
            n,
            types.is_empty(),
            self.game.options.include_off_pieces,
            player,
        ) {
            return !self.any_live(p);
        }
        self.count_past(player, types, n) == n
    }

    /// Whether `p` has a live piece on the board, read through its occupancy.
    #[inline]
    fn any_live(&self, p: Player) -> bool {
        let cells = self.state.cells();
        for (w, &bits) in self.state.occupancy(p).iter().enumerate() {
            let mut bits = bits;
            while bits != 0 {
                let i = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if cells.get(i).copied().flatten().is_some_and(|x| !x.dead) {
                    return true;
                }
            }
        }
        false
    }

    /// [`Ctx::count`], but once the pieces on the board pass `limit` the count stops there (a number above
    /// `limit`): `(pieces-remaining 0)` asks only whether a player has a piece. The board's pieces are read
    /// through the owners' occupancy (the squares of their pieces), not over every square.
    fn count_past(&self, player: Option<Player>, types: &[PieceType], limit: u32) -> u32 {
        let np = self.game.pieces.len();
        let mut on_board = 0u32;
        let cells = self.state.cells();
        let mut owner = |p: Player| -> bool {
            for (w, &bits) in self.state.occupancy(p).iter().enumerate() {
                let mut bits = bits;
                while bits != 0 {
                    let i = w * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    let Some(x) = cells.get(i).copied().flatten() else {
                        continue;
                    };
                    if !x.dead && (types.is_empty() || types.contains(&x.kind)) {
                        on_board += 1;
                        if on_board > limit {
                            return false;
                        }
                    }
                }
            }
            true
        };
        match player {
            Some(p) => {
                owner(p);
            }
            // Every owner's pieces, those past the game's players included (their occupancy is empty past the
            // last owner the state holds).
            None => {
                for k in 0..=u8::MAX {
                    if self.state.occupancy(Player(k)).is_empty() || !owner(Player(k)) {
                        break;
                    }
                }
            }
        }
        if !self.game.options.include_off_pieces || on_board > limit {
            return on_board;
        }
        let mut off = 0;
        for (slot, &n) in self.state.reserves.iter().enumerate() {
            let (p, t) = (slot / np.max(1), slot % np.max(1));
            if player.is_none_or(|q| q.idx() == p)
                && (types.is_empty() || types.iter().any(|x| x.idx() == t))
            {
                off += n;
            }
        }
        on_board + off
    }

    /// [`Ctx::holds`] of the conditions tested at every ply of most games, inlined into the loop of
    /// [`outcome_of`]: `stalemated`, `blocked`, `absolute-config` (read through the player's occupancy),
    /// `pieces-remaining` and `repetition`, always answered; `None` for any other condition.
    #[inline(always)]
    fn holds_plain(&self, c: &EndCond, p: Player) -> Option<bool> {
        Some(match c {
            EndCond::PiecesRemaining { n, types } => self.count_is(Some(p), types, *n),
            EndCond::Repetition => self.occurrences() >= 2,
            EndCond::Stalemated => self.to_move() == p && self.moves.count == 0,
            EndCond::Blocked => self.to_move() == p && self.moves.all_pass,
            EndCond::AbsoluteConfig {
                types,
                positions,
                opponent,
                negated,
            } => {
                // `(not T)` negates the whole configuration: none of the positions holds such a piece (Cheskers:
                // "(absolute-config (not King) (a1 ... h8))" is the loss of the player who has no king left).
                let Some(list) = positions.get(p.idx().min(positions.len().wrapping_sub(1))) else {
                    // No positions (for no player): none holds a piece.
                    return Some(*negated);
                };
                let mine = self.state.occupancy(p);
                let found = list.iter().any(|&pos| {
                    let i = pos.idx();
                    // A square the player's occupancy does not hold has none of its pieces.
                    if !*opponent && mine.get(i >> 6).is_none_or(|w| w >> (i & 63) & 1 == 0) {
                        return false;
                    }
                    self.state.get(pos).is_some_and(|x| {
                        !x.dead
                            && (x.owner == p) != *opponent
                            && (types.is_empty() || types.contains(&x.kind))
                    })
                });
                found != *negated
            }
            _ => return None,
        })
    }

    fn holds(&self, c: &EndCond, p: Player) -> Result<bool, EngineError> {
        let g = self.game;
        Ok(match c {
            EndCond::Compare(op, ab) => {
                let a = gen::numbers::eval_static(g, self.state, p, &ab.0);
                let b = gen::numbers::eval_static(g, self.state, p, &ab.1);
                op.holds(a, b)
            }
            EndCond::Connected { types, opponent } => {
                let n = g.players.len() as u8;
                if *opponent {
                    (0..n)
                        .map(Player)
                        .filter(|&q| q != p && !g.players[q.idx()].random)
                        .any(|q| gen::numbers::connected(g, self.state, q, types))
                } else {
                    gen::numbers::connected(g, self.state, p, types)
                }
            }
            // Answered by `holds_plain`, which always answers these.
            EndCond::Stalemated
            | EndCond::Blocked
            | EndCond::AbsoluteConfig { .. }
            | EndCond::PiecesRemaining { .. }
            | EndCond::Repetition => self.holds_plain(c, p).unwrap_or(false),
            EndCond::TotalPieceCount { n, types } => self.count_is(None, types, *n),
            EndCond::Checkmated(types) => {
                self.to_move() == p
                    && self.moves.count == 0
                    && gen::royal_attacked(g, self.state, p, types)?
            }
            EndCond::Captured(types) => {
                // Every piece of these types the player had is gone (and the player had one at the start).
                let had = g
                    .setup
                    .pieces
                    .iter()
                    .any(|(q, t, _)| *q == p && types.contains(t));
                had && self.count_is(Some(p), types, 0)
            }
            EndCond::RelativeConfig {
                types,
                dirs,
                opponent,
                negated,
            } => (0..self.state.cells.len()).any(|start| {
                let mut pos = Some(Pos(start as u16));
                for (i, t) in types.iter().enumerate() {
                    let neg = negated.get(i) == Some(&true);
                    let holds = pos
                        .and_then(|h| self.state.get(h))
                        .is_some_and(|x| !x.dead && x.kind == *t && (x.owner == p) != *opponent);
                    // A negated slot also matches beyond the edge of the board.
                    if holds == neg || (pos.is_none() && !neg) {
                        return false;
                    }
                    pos = pos.and_then(|h| dirs.get(i).and_then(|d| g.board.step(p, h, *d)));
                }
                true
            }),
            EndCond::InReserve(types) => {
                let np = g.pieces.len().max(1);
                (0..g.pieces.len()).any(|t| {
                    (types.is_empty() || types.iter().any(|x| x.idx() == t))
                        && self.state.reserves[p.idx() * np + t] > 0
                })
            }
            EndCond::Attacked { types, all } => {
                let mut n = 0;
                let mut hit = 0;
                for (i, x) in self.state.cells.iter().enumerate() {
                    if let Some(x) =
                        x.filter(|x| !x.dead && x.owner == p && types.contains(&x.kind))
                    {
                        n += 1;
                        if gen::attacked_by(g, self.state, Pos(i as u16), x.owner, false, None)? {
                            hit += 1;
                            if !*all {
                                break;
                            }
                        }
                    }
                }
                if *all {
                    n > 0 && hit == n
                } else {
                    hit > 0
                }
            }
            EndCond::Connects { zones, types } if self.general => {
                super::groups::connects(g, self.state, p, zones, types)
            }
            EndCond::Connects { zones, types } => {
                super::connects::connects(g, self.state, p, zones, types)
            }
            EndCond::CausedRepetition(n) => {
                self.state.last_mover == Some(p) && self.occurrences() + 1 >= *n as usize
            }
            EndCond::And(cs) => {
                for c in cs {
                    if !self.holds(c, p)? {
                        return Ok(false);
                    }
                }
                true
            }
            EndCond::Or(cs) => {
                for c in cs {
                    if self.holds(c, p)? {
                        return Ok(true);
                    }
                }
                false
            }
            EndCond::Not(c) => !self.holds(c, p)?,
        })
    }
}

/// The part of a game's history where the current position can occur again, for `repetition` and
/// `caused-repetition` in a playout. Positions with different numbers of pieces on the board differ (and so do
/// their keys, barring a collision of 64-bit hashes), so while that number has never grown in the game, no
/// position before its last fall can recur: only the history since then is read. Once it has grown (a drop, a
/// piece created), the whole history is read for the rest of the game. Decided as the game goes, for any
/// rules.
#[derive(Clone, Debug, Default)]
pub struct RepetitionWindow {
    start: usize,
    pieces: Option<usize>,
    grown: bool,
}

impl RepetitionWindow {
    /// Notes the current state, whose history holds `len` keys (the positions before it).
    pub fn update(&mut self, s: &State, len: usize) {
        // The occupied squares, through every owner's occupancy (dead pieces included, as in the cells).
        let mut n = 0;
        for k in 0..=u8::MAX {
            let occ = s.occupancy(Player(k));
            if occ.is_empty() {
                break;
            }
            n += occ.iter().map(|w| w.count_ones() as usize).sum::<usize>();
        }
        match self.pieces {
            Some(p) if n > p => {
                self.grown = true;
                self.start = 0;
            }
            Some(p) if n < p && !self.grown => self.start = len,
            _ => {}
        }
        self.pieces = Some(n);
    }

    /// The keys of `history` the current position may equal.
    pub fn of<'h>(&self, history: &'h [u64]) -> &'h [u64] {
        &history[self.start.min(history.len())..]
    }
}

/// Whether a phase's condition holds for `player` (the compiler admits only conditions that need neither the
/// legal moves nor the history).
pub fn phase_holds(
    game: &Game,
    state: &State,
    cond: &EndCond,
    player: Player,
) -> Result<bool, EngineError> {
    let ctx = Ctx {
        game,
        state,
        moves: MoveCount {
            count: 0,
            all_pass: true,
        },
        history: &[],
        royal: &[],
        seen: Default::default(),
        // A phase's condition keeps the reference reading (no playout reads it at every ply).
        general: true,
    };
    ctx.holds(cond, player)
}

/// The outcome of the state, if the game is over. `moves` are the legal moves of the player to move;
/// `history` the keys of earlier positions of this game (for `repetition`).
pub fn outcome(
    game: &Game,
    state: &State,
    moves: &[Move],
    history: &[u64],
    royal: &[Vec<PieceType>],
    general: bool,
) -> Result<Option<Outcome>, EngineError> {
    let moves = MoveCount {
        count: moves.len(),
        all_pass: moves.iter().all(Move::is_pass),
    };
    outcome_of(game, state, moves, history, royal, general)
}

/// What the end conditions need to know of the legal moves: how many, and whether all are passes.
#[derive(Clone, Copy, Debug)]
pub struct MoveCount {
    pub count: usize,
    pub all_pass: bool,
}

/// [`outcome`] from the count of the legal moves alone (a move buffer's).
pub fn outcome_of(
    game: &Game,
    state: &State,
    moves: MoveCount,
    history: &[u64],
    royal: &[Vec<PieceType>],
    general: bool,
) -> Result<Option<Outcome>, EngineError> {
    // Where every end condition is `stalemated` (the draughts games), none holds while the player to move has a
    // move: the game goes on, decided without setting up the context.
    if moves.count > 0
        && game
            .end_conditions
            .iter()
            .all(|ec| matches!(ec.cond, EndCond::Stalemated))
    {
        return Ok(None);
    }
    let ctx = Ctx {
        game,
        state,
        moves,
        history,
        royal,
        seen: Default::default(),
        general,
    };
    // Which condition decides and for whom; the outcome is built once, out of the loop (`decided`).
    let mut best: Option<(i32, usize, Player)> = None;
    for (index, ec) in game.end_conditions.iter().enumerate() {
        if best.is_some_and(|(p, i, _)| {
            (p, std::cmp::Reverse(i)) >= (ec.priority, std::cmp::Reverse(index))
        }) {
            continue;
        }
        for &p in &ec.players {
            let holds = match ctx.holds_plain(&ec.cond, p) {
                Some(h) => h,
                None => ctx.holds(&ec.cond, p)?,
            };
            if holds {
                best = Some((ec.priority, index, p));
                break;
            }
        }
    }
    if let Some((_, index, p)) = best {
        return Ok(Some(decided(&ctx, &game.end_conditions[index], p)));
    }
    let _ = ctx.royal;
    let n = game.players.len();
    if moves.count == 0 {
        return Ok(Some(Outcome {
            results: vec![0; n],
            end_type: "stalemated".into(),
            name: "stalemated".into(),
            priority: i32::MIN,
        }));
    }
    Ok(None)
}

/// The outcome when end condition `ec` holds for player `p`.
#[cold]
fn decided(ctx: &Ctx<'_>, ec: &EndCondition, p: Player) -> Outcome {
    let game = ctx.game;
    let n = game.players.len();
    let mut results = vec![0i8; n];
    match ec.kind {
        // A player's allies (`(allies ...)`) share its win or loss.
        EndKind::Win => {
            for (q, r) in results.iter_mut().enumerate() {
                *r = if game.same_team(Player(q as u8), p) {
                    1
                } else {
                    -1
                };
            }
        }
        EndKind::Loss => {
            for (q, r) in results.iter_mut().enumerate() {
                *r = if game.same_team(Player(q as u8), p) {
                    -1
                } else {
                    1
                };
            }
        }
        EndKind::Draw => {}
        EndKind::Count => {
            let counts: Vec<u32> = (0..n)
                .map(|q| ctx.count(Some(Player(q as u8)), &[]))
                .collect();
            let max = counts.iter().copied().max().unwrap_or(0);
            let winners = counts.iter().filter(|&&c| c == max).count();
            for (q, &c) in counts.iter().enumerate() {
                results[q] = if c == max && winners == 1 {
                    1
                } else if c == max {
                    0
                } else {
                    -1
                };
            }
        }
    }
    for (q, info) in game.players.iter().enumerate() {
        if info.random {
            results[q] = 0;
        }
    }
    Outcome {
        results,
        end_type: ec.cond.kind().to_string(),
        name: ec.name.clone(),
        priority: ec.priority,
    }
}
