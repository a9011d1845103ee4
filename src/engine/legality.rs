//! The `checkmated` legality rule made cheap: which candidate moves leave the mover's royal piece attacked.
//!
//! Before the candidate moves of a position are tried, every enemy attack on the royal square is answered once
//! on the position itself: each backward walk of an attack shape (`super::attack`) and each enemy program run
//! forwards, recording which squares it read and whether it read the last move. A move changes a few squares;
//! an answer that read none of them (and not the last move, which every move changes) is the same after the
//! move, so only the others are found again, on the position after the move. Exact, not a heuristic: an
//! answer depends only on what it read.
//!
//! The answers are indexed by square (per square, the set of answers that read it), so that a move costs a
//! few set unions: when an answer it leaves alone was a hit, the royal piece stays attacked and the move is
//! refused without being made; when it touches no answer (and none was a hit), it is legal without being
//! made, the usual case for a move away from the lines through the royal piece when the mover is not in
//! check. Only a move that touches an answer is made, those answers found again, and unmade.
//!
//! Used when the player has one royal piece, which the move does not touch, on a board of at most 256
//! positions, and the move creates no piece and changes no owner or variable; otherwise the full test runs.
//! The general path (`EngineOptions::general`) never builds the cache.

use super::apply::Undo;
use super::attack::Walk;
use super::gen::{royal_attacked, Emissions};
use super::moves::{Action, Move};
use super::run::{Mode, Run};
use super::state::{Piece, State};
use super::{EngineError, MoveList};
use crate::compile::*;

/// A cached answer of a forward run: program `prog` of the piece `piece` run from `start`. (The answers after
/// the runs are the walks: per attacking player of `LegalityCache::attackers`, one per attack shape.)
#[derive(Clone, Copy, Debug)]
struct Answer {
    start: Pos,
    piece: Piece,
    prog: u16,
}

/// Up to this many answers, the sets of a move are kept on the stack.
const STACK_WORDS: usize = 8;

/// The cached answers of one position for one player (see the module's documentation). Reusable: a search
/// keeps one per ply and builds it again for each position, without allocating once its buffers have grown.
#[derive(Clone, Debug, Default)]
pub(crate) struct LegalityCache {
    royal: Pos,
    answers: Vec<Answer>,
    /// Words of the answer sets (one bit per answer).
    words: usize,
    /// `touch[sq * words ..][.. words]`: the answers that read square `sq`.
    touch: Vec<u64>,
    /// How many answers are runs (they come first, as `answers`).
    runs: usize,
    /// The answers that read the last move.
    last: Vec<u64>,
    /// The answers that were hits.
    hits: Vec<u64>,
    /// The squares of pieces not of the player's team: a move that moves one or changes its type may bring an
    /// attacker where none was, which no answer covers (see [`LegalityCache::touched`]).
    foreign: [u64; 4],
    /// The players whose walks are answers, in order.
    attackers: Vec<Player>,
}

impl LegalityCache {
    /// A cache for `player` to move in `state`, or `None` where it does not serve (see the module's
    /// documentation).
    pub(super) fn build(
        game: &Game,
        state: &State,
        player: Player,
        types: &[PieceType],
    ) -> Result<Option<LegalityCache>, EngineError> {
        let mut c = LegalityCache::default();
        Ok(c.rebuild(game, state, player, types)?.then_some(c))
    }

    /// [`LegalityCache::build`] into this cache, reusing its buffers: whether it serves.
    pub(super) fn rebuild(
        &mut self,
        game: &Game,
        state: &State,
        player: Player,
        types: &[PieceType],
    ) -> Result<bool, EngineError> {
        let np = state.cells.len();
        if np > 256 {
            return Ok(false);
        }
        // The player's one live royal piece, found from the occupancy bitsets (not the whole board).
        let (mut royal, mut several) = (None, false);
        for p in state.pieces_of(player) {
            if state
                .get(p)
                .is_some_and(|x| types.contains(&x.kind) && !x.dead)
            {
                several |= royal.is_some();
                royal.get_or_insert(p);
            }
        }
        let (Some(royal), false) = (royal, several) else {
            return Ok(false);
        };
        self.royal = royal;
        self.answers.clear();
        self.attackers.clear();
        self.foreign = [0; 4];
        let table = game.attack_table();
        // At most how many answers, so that each is indexed as soon as it is found: the runs of the enemy
        // pieces' programs run forwards (at most the most any type has, per piece), then a walk per attack
        // shape and attacking player.
        let forward_of = |x: &Piece| {
            let moves = &game.pieces[x.kind.idx()].moves;
            let forward = table.usable.then(|| &table.forward[x.kind.idx()]);
            (moves, forward)
        };
        let most = if table.usable {
            table.forward.iter().map(|f| f.len()).max()
        } else {
            game.pieces.iter().map(|p| p.moves.len()).max()
        }
        .unwrap_or(0);
        let target = state.get(royal).filter(|x| !x.dead);
        let mut pieces = 0;
        for (q, info) in game.players.iter().enumerate() {
            let enemy = Player(q as u8);
            if game.same_team(enemy, player) {
                continue;
            }
            for (w, &bits) in state.occupancy(enemy).iter().enumerate() {
                if let Some(f) = self.foreign.get_mut(w) {
                    *f |= bits;
                }
                if !info.random {
                    pieces += bits.count_ones() as usize;
                }
            }
            if !info.random && table.usable && target.is_some() {
                self.attackers.push(enemy);
            }
        }
        let total = pieces * most + self.attackers.len() * table.shapes.len();
        let words = total.div_ceil(64).max(1);
        self.words = words;
        self.touch.clear();
        self.touch.resize(np * words, 0);
        self.last.clear();
        self.last.resize(words, 0);
        self.hits.clear();
        self.hits.resize(words, 0);
        let mut a = 0;
        let mut scratch = Emissions::default();
        let mut run = Run::new(game, state, player, Mode::Attack(royal), &mut scratch);
        run.track = true;
        for (q, info) in game.players.iter().enumerate() {
            let enemy = Player(q as u8);
            if info.random || game.same_team(enemy, player) {
                continue;
            }
            for start in state.pieces_of(enemy) {
                let Some(x) = state.get(start).filter(|x| !x.dead && x.owner == enemy) else {
                    continue;
                };
                let i = start.idx();
                // Plain programs are answered by the backward walks below.
                let (moves, forward) = forward_of(&x);
                for f in 0..forward.map_or(moves.len(), |f| f.len()) {
                    let j = forward.map_or(f, |fw| fw[f] as usize);
                    run.player = x.owner;
                    run.owner = x.owner;
                    let hit = match moves.get(j) {
                        Some(prog) => run.exec(prog, start, Some(x), None)?,
                        None => false,
                    };
                    let mut squares = run.reads.get();
                    squares[(i >> 6) & 3] |= 1 << (i & 63);
                    self.note(a, squares, run.reads_last.get(), hit);
                    self.answers.push(Answer {
                        start,
                        piece: x,
                        prog: j as u16,
                    });
                    a += 1;
                }
            }
        }
        drop(run);
        self.runs = a;
        if let Some(target) = target {
            for &attacker in &self.attackers {
                for (k, shape) in table.shapes.iter().enumerate() {
                    let mut w = Walk::new(game, table, state, royal, target, attacker, player);
                    w.track = true;
                    let hit = w.hits(k, shape);
                    let (squares, last) = (w.reads.get(), w.reads_last.get());
                    Self::note_in(
                        &mut self.touch,
                        &mut self.last,
                        &mut self.hits,
                        words,
                        a,
                        squares,
                        last,
                        hit,
                    );
                    a += 1;
                }
            }
        }
        Ok(true)
    }

    /// Indexes answer `a`: the squares it read, whether it read the last move, whether it was a hit.
    #[inline]
    fn note(&mut self, a: usize, squares: [u64; 4], last: bool, hit: bool) {
        let words = self.words;
        Self::note_in(
            &mut self.touch,
            &mut self.last,
            &mut self.hits,
            words,
            a,
            squares,
            last,
            hit,
        );
    }

    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn note_in(
        touch: &mut [u64],
        lasts: &mut [u64],
        hits: &mut [u64],
        words: usize,
        a: usize,
        squares: [u64; 4],
        last: bool,
        hit: bool,
    ) {
        let (w, bit) = (a >> 6, 1u64 << (a & 63));
        for (k, &word) in squares.iter().enumerate() {
            let mut word = word;
            while word != 0 {
                let sq = k * 64 + word.trailing_zeros() as usize;
                word &= word - 1;
                if let Some(t) = touch.get_mut(sq * words + w) {
                    *t |= bit;
                }
            }
        }
        if last {
            lasts[w] |= bit;
        }
        if hit {
            hits[w] |= bit;
        }
    }

    /// Whether the royal piece is attacked in `after`, the state after move `m` of the position the cache was
    /// built on.
    pub(super) fn attacked_after(
        &self,
        game: &Game,
        after: &State,
        m: &Move,
        player: Player,
        types: &[PieceType],
    ) -> Result<bool, EngineError> {
        let mut stack = [0u64; STACK_WORDS];
        let mut heap = vec![];
        let touched = self.sets(&mut stack, &mut heap);
        if !self.touched(m.parts.iter().flat_map(|p| &p.actions), touched) {
            return royal_attacked(game, after, player, types);
        }
        match self.standing(touched) {
            Some(answer) => Ok(answer),
            None => self.attacked_given(game, after, touched, player, types),
        }
    }

    /// [`LegalityCache::attacked_after`] for move `i` of a move buffer, `state` being the position before it
    /// (the one the cache was built on): the move is made (and unmade) only when some cached answer is touched
    /// by it and must be found again.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn attacked_listed(
        &self,
        game: &Game,
        state: &mut State,
        list: &MoveList,
        i: usize,
        undo: &mut Undo,
        player: Player,
        types: &[PieceType],
    ) -> Result<bool, EngineError> {
        let mut stack = [0u64; STACK_WORDS];
        let mut heap = vec![];
        let touched = self.sets(&mut stack, &mut heap);
        let known = if self.words == 1 {
            // The usual case, up to 64 answers: one word, no loops over words.
            let mut t = self.last[0];
            let known = self.squares_of(list.actions_in(i), |p| match self.touch.get(p.idx()) {
                Some(r) => {
                    t |= r;
                    true
                }
                None => false,
            });
            touched[0] = t;
            known
        } else {
            self.touched(list.actions_in(i), touched)
        };
        if known {
            if let Some(answer) = self.standing(touched) {
                return Ok(answer);
            }
            // Walks alone read nothing but the board and the last move: the move played on the board only.
            if !self.runs_touched(touched) {
                if let Some(r) = self.on_board_after(game, state, list, i, touched, player, types) {
                    return r;
                }
            }
        }
        super::apply::make_parts(
            game,
            state,
            list.heads_in(i).len(),
            |j| list.view_in(i, j),
            undo,
        );
        let r = if known {
            self.attacked_given(game, state, touched, player, types)
        } else {
            royal_attacked(game, state, player, types)
        };
        super::apply::unmake(state, undo);
        r
    }

    /// [`LegalityCache::attacked_given`] for move `i` of a move buffer when only walks are touched: the move's
    /// actions applied to the board alone (and the last move set), the walks found again, the board put back.
    /// The walks read nothing else of the state (`super::attack::Walk`), so the answers are those of the
    /// position after the whole move. `None` (nothing changed) where the move's actions do more than change
    /// squares of a board without columns: captures that go to a hand or a reserve, deferred captures,
    /// movements of columns, or more squares than are saved here.
    #[allow(clippy::too_many_arguments)]
    fn on_board_after(
        &self,
        game: &Game,
        state: &mut State,
        list: &MoveList,
        i: usize,
        touched: &[u64],
        player: Player,
        types: &[PieceType],
    ) -> Option<Result<bool, EngineError>> {
        let n = list.heads_in(i).len();
        if state.has_columns()
            || game.captures_to_hand.is_some()
            || game.options.recycle_captures
            || (game.options.deferred_captures && n > 1)
        {
            return None;
        }
        let mut saved = [(Pos(0), None); 16];
        let mut k = 0;
        for j in 0..n {
            for a in list.view_in(i, j).actions {
                let squares: &[Pos] = match a {
                    Action::Move { from, to } => &[*from, *to],
                    Action::Capture { at }
                    | Action::ChangeType { at, .. }
                    | Action::SetAttribute { at, .. }
                    | Action::SetIntAttribute { at, .. } => &[*at],
                    Action::ExtraTurn | Action::GotoTurn { .. } => &[],
                    _ => return None,
                };
                for p in squares {
                    let slot = saved.get_mut(k)?;
                    *slot = (*p, *state.cells.get(p.idx())?);
                    k += 1;
                }
            }
        }
        let (hash, last_from, last_to) = (state.hash, state.last_from, state.last_to);
        for j in 0..n {
            let part = list.view_in(i, j);
            match *part.actions {
                // A piece moving (and taking what stands where it lands), as `apply::play_parts` writes it;
                // the hash is left alone (walks do not read it, and it is put back).
                [Action::Move { from, to }]
                | [Action::Capture { .. }, Action::Move { from, to }] => {
                    if let [Action::Capture { at }, _] = *part.actions {
                        state.put(at, None);
                    }
                    let x = state.get(from);
                    state.put(from, None);
                    state.put(to, x);
                    if part.from.is_some() || part.to.is_some() {
                        state.last_from = part.from.or(part.to);
                        state.last_to = part.to;
                    }
                }
                _ => super::apply::apply_actions(game, state, part, false),
            }
        }
        let r = self.attacked_given(game, state, touched, player, types);
        for &(p, c) in saved[..k].iter().rev() {
            state.put(p, c);
        }
        state.hash = hash;
        state.last_from = last_from;
        state.last_to = last_to;
        Some(r)
    }

    /// Whether some run is among the answers `touched`.
    #[inline]
    fn runs_touched(&self, touched: &[u64]) -> bool {
        touched.iter().enumerate().any(|(w, &t)| {
            let below = self.runs.saturating_sub(w * 64).min(64);
            let mask = if below == 64 {
                u64::MAX
            } else {
                (1u64 << below) - 1
            };
            t & mask != 0
        })
    }

    /// An empty answer set of this cache's size, on the stack where it fits.
    fn sets<'a>(&self, stack: &'a mut [u64; STACK_WORDS], heap: &'a mut Vec<u64>) -> &'a mut [u64] {
        if self.words <= STACK_WORDS {
            &mut stack[..self.words]
        } else {
            heap.resize(self.words, 0);
            heap
        }
    }

    /// Adds to `touched` the answers that read a square the actions change, or the last move; false when the
    /// cache cannot answer for the move: it touches the royal square, creates a piece, changes an owner or a
    /// variable, or moves or changes the type of a piece not of the player's team (the programs of a piece
    /// are run forwards only from the squares it stood on).
    fn touched<'a>(&self, actions: impl Iterator<Item = &'a Action>, touched: &mut [u64]) -> bool {
        let words = self.words;
        for (t, l) in touched.iter_mut().zip(&self.last) {
            *t |= l;
        }
        self.squares_of(actions, |p| {
            let Some(row) = self.touch.get(p.idx() * words..(p.idx() + 1) * words) else {
                return false;
            };
            for (t, r) in touched.iter_mut().zip(row) {
                *t |= r;
            }
            true
        })
    }

    /// Calls `f` on every square the actions change (false from `f` stops with false); false when the cache
    /// cannot answer for the move (see [`LegalityCache::touched`]).
    #[inline(always)]
    fn squares_of<'a>(
        &self,
        actions: impl Iterator<Item = &'a Action>,
        mut f: impl FnMut(Pos) -> bool,
    ) -> bool {
        for a in actions {
            let squares: &[Pos] = match a {
                Action::Move { from, to }
                | Action::MoveTop { from, to, .. }
                | Action::TakePrisoner { at: from, to } => &[*from, *to],
                Action::Capture { at }
                | Action::ChangeType { at, .. }
                | Action::SetAttribute { at, .. }
                | Action::SetIntAttribute { at, .. } => &[*at],
                Action::ExtraTurn | Action::GotoTurn { .. } => &[],
                // A new piece or a new owner may add an attacker the cache never saw.
                // So may a variable that a program reads.
                Action::Place { .. } | Action::ChangeOwner { .. } | Action::SetVar { .. } => {
                    return false
                }
            };
            if let Action::Move { from: p, .. }
            | Action::MoveTop { from: p, .. }
            | Action::TakePrisoner { at: p, .. }
            | Action::ChangeType { at: p, .. } = a
            {
                if self.foreign[(p.idx() >> 6) & 3] >> (p.idx() & 63) & 1 != 0 {
                    return false;
                }
            }
            for p in squares {
                if *p == self.royal || !f(*p) {
                    return false;
                }
            }
        }
        true
    }

    /// The answer when the answers a move leaves alone decide it: attacked when one of them was a hit, not
    /// attacked when the move touches none. `None`: the touched answers must be found again.
    #[inline]
    fn standing(&self, touched: &[u64]) -> Option<bool> {
        if let ([h], [t]) = (&self.hits[..], touched) {
            return if h & !t != 0 {
                Some(true)
            } else {
                (*t == 0).then_some(false)
            };
        }
        if self.hits.iter().zip(touched).any(|(h, t)| h & !t != 0) {
            return Some(true);
        }
        touched.iter().all(|&t| t == 0).then_some(false)
    }

    /// Whether the royal piece is attacked in `after`, the state after a move that touched the answers
    /// `touched` and left alone none that was a hit ([`LegalityCache::standing`]): the touched answers are
    /// found again.
    fn attacked_given(
        &self,
        game: &Game,
        after: &State,
        touched: &[u64],
        player: Player,
        types: &[PieceType],
    ) -> Result<bool, EngineError> {
        let table = game.attack_table();
        let mut scratch = Emissions::default();
        // The runs come first in `answers`: a context for them only when one is touched.
        let mut run = self
            .runs_touched(touched)
            .then(|| Run::new(game, after, player, Mode::Attack(self.royal), &mut scratch));
        let target = after.get(self.royal).filter(|x| !x.dead);
        for (w, &word) in touched.iter().enumerate() {
            let mut word = word;
            while word != 0 {
                let a = w * 64 + word.trailing_zeros() as usize;
                word &= word - 1;
                let Some(&Answer { start, piece, prog }) = self.answers.get(a) else {
                    // A walk: its attacking player and shape from its index.
                    let k = a - self.runs;
                    let n = table.shapes.len();
                    let (attacker, shape) = (self.attackers[k / n], k % n);
                    let Some(target) = target else {
                        return royal_attacked(game, after, player, types);
                    };
                    let w = Walk::new(game, table, after, self.royal, target, attacker, player);
                    if w.hits(shape, &table.shapes[shape]) {
                        return Ok(true);
                    }
                    continue;
                };
                // The attacker itself may be gone or changed.
                let Some(now) = after.get(start) else {
                    continue;
                };
                if game.same_team(now.owner, player) || now.dead {
                    continue;
                }
                let Some(run) = run.as_mut() else {
                    continue;
                };
                run.player = now.owner;
                run.owner = now.owner;
                let moves = &game.pieces[now.kind.idx()].moves;
                if now.kind == piece.kind {
                    if let Some(p) = moves.get(prog as usize) {
                        if run.exec(p, start, Some(now), None)? {
                            return Ok(true);
                        }
                    }
                    continue;
                }
                // A piece of another type stands there now: test all of its programs (those the backward
                // walk does not cover).
                for (j, p) in moves.iter().enumerate() {
                    if table.usable && !table.forward[now.kind.idx()].contains(&(j as u16)) {
                        continue;
                    }
                    if run.exec(p, start, Some(now), None)? {
                        return Ok(true);
                    }
                }
            }
        }
        Ok(false)
    }
}
