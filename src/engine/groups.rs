//! Groups, connections and repetition rules (`docs/language.md`, "Groups, connections and repetition"; the
//! forms are compiled in `compile/groups.rs`).
//!
//! A group is a maximal set of pieces of one player, each next to another along any of the board's
//! directions (off-board positions excepted); its liberties are the empty positions next to it. The move
//! program forms read the board through the interpreter (so that every read is tracked), as a function from a
//! position to the owner of the live piece there.
//!
//! Ko and superko need the positions of the game before this one: a state of a game that declares
//! `forbid-repetition` carries them ([`Past`], a shared list that a copy of the state shares, so copying stays
//! one pointer), pushed by `apply_move`. Perft, the bots and the tournament all go through `apply_move`, so
//! every path sees the same history; a position read from text starts with none.

use super::movelist::MoveList;
use super::moves::{Action, Move};
use super::state::State;
use crate::compile::*;
use std::sync::Arc;

/// The owner of the live piece on a position, `None` when it is empty.
pub type Owner<'a> = &'a dyn Fn(usize) -> Option<Player>;

/// The keys of earlier positions of the game, newest first (see the module's paragraph). Empty unless the
/// game declares `forbid-repetition`; under `simple-ko` it holds only the position before the last move.
#[derive(Clone, Debug, Default)]
pub struct Past(Option<Arc<PastNode>>);

#[derive(Debug)]
pub struct PastNode {
    key: u64,
    prev: Option<Arc<PastNode>>,
}

impl Drop for PastNode {
    // A long game's list would otherwise be dropped recursively, one stack frame per position.
    fn drop(&mut self) {
        let mut next = self.prev.take();
        while let Some(node) = next {
            match Arc::try_unwrap(node) {
                Ok(mut n) => next = n.prev.take(),
                Err(_) => break,
            }
        }
    }
}

impl Past {
    /// The keys, newest first.
    pub fn iter(&self) -> impl Iterator<Item = u64> + '_ {
        let mut cur = self.0.as_deref();
        std::iter::from_fn(move || {
            let n = cur?;
            cur = n.prev.as_deref();
            Some(n.key)
        })
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_none()
    }
}

impl PartialEq for Past {
    fn eq(&self, other: &Past) -> bool {
        self.iter().eq(other.iter())
    }
}

impl Eq for Past {}

/// The key a repetition rule compares: the whole position without the player to move (positional), or with
/// it (situational).
fn rule_key(rule: RepetitionRule, s: &State) -> u64 {
    match rule {
        RepetitionRule::SituationalSuperko => s.key(),
        RepetitionRule::SimpleKo | RepetitionRule::PositionalSuperko => s.hash,
    }
}

/// The history of the position after a move from `before` (called by `apply_move`).
pub fn record(rule: RepetitionRule, before: &State) -> Past {
    let prev = match rule {
        RepetitionRule::SimpleKo => None,
        _ => before.past.0.clone(),
    };
    Past(Some(Arc::new(PastNode {
        key: rule_key(rule, before),
        prev,
    })))
}

/// Removes the moves that recreate a position the rule forbids. Passes are never refused. With `fast` (off on
/// the engine's general path), the key after a move that only places and captures is worked out from the
/// hash keys of the squares it changes (`key_after_drop`) rather than by applying the move.
pub fn filter_repetition(
    game: &Game,
    state: &State,
    rule: RepetitionRule,
    moves: &mut Vec<Move>,
    fast: bool,
) {
    if state.past.is_empty() {
        return;
    }
    let forbidden = Forbidden::new(rule, state);
    // A move of one part that only places and captures (a drop in Go) is tried on one scratch copy and undone,
    // rather than applied to a fresh copy of the state: on 19x19, a copy per candidate was most of the time.
    let mut scratch: Option<State> = None;
    let mut touched = vec![];
    let np = game.pieces.len();
    moves.retain(|m| {
        if m.is_pass() {
            return true;
        }
        let simple = matches!(&m.parts[..], [p] if p.actions.iter().all(|a| {
            matches!(a, Action::Place { .. } | Action::Capture { .. })
        })) && game.captures_to_hand.is_none()
            && !game.options.recycle_captures
            && !game.stacks; // columns live in a side table the undo below does not restore
        if !simple {
            let after = super::gen::apply_move(game, state, m);
            return !forbidden.has(rule_key(rule, &after));
        }
        let part = &m.parts[0];
        if fast {
            let turn = rule_turn(rule, next_turn(game, state.turn));
            return !forbidden.has(key_after_drop(
                game,
                state,
                &part.actions,
                turn,
                &mut touched,
            ));
        }
        let scratch = scratch.get_or_insert_with(|| state.clone());
        super::gen::apply_part(game, scratch, part, false);
        let turn = scratch.turn;
        scratch.turn = next_turn(game, state.turn);
        let key = rule_key(rule, scratch);
        scratch.turn = turn;
        for a in &part.actions {
            match *a {
                Action::Place { at, piece, reserve } => {
                    scratch.set(at, state.get(at));
                    if reserve {
                        let slot = piece.owner.idx() * np + piece.kind.idx();
                        scratch.set_reserve(slot, state.reserves[slot]);
                    }
                }
                Action::Capture { at } => scratch.set(at, state.get(at)),
                _ => {}
            }
        }
        debug_assert_eq!(scratch.hash, state.hash);
        !forbidden.has(key)
    });
}

/// The keys a repetition rule forbids after a move from `state`: a short list is read through (simple ko's
/// one key), a long one looked up in a set.
pub(crate) struct Forbidden {
    keys: Vec<u64>,
    set: Option<rustc_hash::FxHashSet<u64>>,
}

impl Forbidden {
    pub(crate) fn new(rule: RepetitionRule, state: &State) -> Forbidden {
        let keys: Vec<u64> = match rule {
            RepetitionRule::SimpleKo => state.past.iter().take(1).collect(),
            _ => state
                .past
                .iter()
                .chain(std::iter::once(rule_key(rule, state)))
                .collect(),
        };
        let set = (keys.len() > 16).then(|| keys.iter().copied().collect());
        Forbidden { keys, set }
    }

    fn has(&self, key: u64) -> bool {
        match &self.set {
            Some(set) => set.contains(&key),
            None => self.keys.contains(&key),
        }
    }
}

/// [`filter_repetition`] on a move buffer whose moves are all whole (no handle, `MoveList::lazy`): the same
/// moves kept, in the same order. The engine lists the moves of a game with a repetition rule this way
/// (`Engine::legal_into`), off the general path.
pub fn filter_listed(game: &Game, state: &State, rule: RepetitionRule, list: &mut MoveList) {
    if state.past.is_empty() {
        return;
    }
    let forbidden = Forbidden::new(rule, state);
    let turn = rule_turn(rule, next_turn(game, state.turn));
    let plain = game.captures_to_hand.is_none() && !game.options.recycle_captures && !game.stacks;
    let mut touched = vec![];
    list.retain_moves(|l, i| {
        if l.is_pass_in(i) {
            return true;
        }
        if plain && l.heads_in(i).len() == 1 {
            let actions = l.view_in(i, 0).actions;
            if actions
                .iter()
                .all(|a| matches!(a, Action::Place { .. } | Action::Capture { .. }))
            {
                return !forbidden.has(key_after_drop(game, state, actions, turn, &mut touched));
            }
        }
        // Whole moves only: under a repetition rule the list is made with `lazy` off (`Engine::compose_into`).
        let Ok(m) = l.to_move(i) else {
            return true;
        };
        let after = super::gen::apply_move(game, state, &m);
        !forbidden.has(rule_key(rule, &after))
    });
}

/// A move of one part, emitted by a run into `em` (its only part), judged as [`filter_listed`] judges it:
/// whether `rule` forbids the position after it (never for a pass; `false` when the game has no earlier
/// position). For the sampled playouts (`engine/sample.rs`), which run one move generator at a time.
pub(crate) struct PartJudge<'a> {
    rule: RepetitionRule,
    forbidden: Forbidden,
    plain: bool,
    turn: u64,
    state: &'a State,
    touched: Vec<(bool, usize, Option<super::state::Piece>, u32)>,
}

impl<'a> PartJudge<'a> {
    /// The judge of the moves from `state`, `None` where nothing is forbidden (no rule, no earlier position).
    pub(crate) fn new(game: &Game, state: &'a State) -> Option<PartJudge<'a>> {
        let rule = game.forbid_repetition?;
        if state.past.is_empty() {
            return None;
        }
        Some(PartJudge {
            rule,
            forbidden: Forbidden::new(rule, state),
            plain: game.captures_to_hand.is_none()
                && !game.options.recycle_captures
                && !game.stacks,
            turn: rule_turn(rule, next_turn(game, state.turn)),
            state,
            touched: vec![],
        })
    }

    /// Whether the one part of `em` makes a move the rule forbids.
    pub(crate) fn forbids(&mut self, game: &Game, em: &super::gen::Emissions) -> bool {
        let actions = em.actions(0);
        if self.plain
            && actions
                .iter()
                .all(|a| matches!(a, Action::Place { .. } | Action::Capture { .. }))
        {
            let key = key_after_drop(game, self.state, actions, self.turn, &mut self.touched);
            return self.forbidden.has(key);
        }
        // Any other part: applied whole, as `filter_listed` does.
        let mut one = MoveList::new();
        one.push_singles(&mut em.clone());
        if one.is_pass_in(0) {
            return false;
        }
        // `push_singles` lists whole moves, never handles, so `to_move` cannot fail here.
        let m = one.to_move(0).expect("a list of singles holds no handles");
        let after = super::gen::apply_move(game, self.state, &m);
        self.forbidden.has(rule_key(self.rule, &after))
    }
}

/// What [`rule_key`] adds to the hash of a position whose turn-order entry is `turn`.
fn rule_turn(rule: RepetitionRule, turn: usize) -> u64 {
    match rule {
        RepetitionRule::SituationalSuperko => super::state::turn_key(turn),
        RepetitionRule::SimpleKo | RepetitionRule::PositionalSuperko => 0,
    }
}

/// The repetition key of the position after a part of `actions`, places and captures only, is applied to
/// `state` (with no captures to hand, no recycled captures, no columns, as [`filter_repetition`] checks) and
/// the turn passed: `turn` is [`rule_turn`] of the next turn. As `apply_part` does it: the captures first,
/// each emptying its square if a piece stands there, then the placements in order, each taking one piece
/// from its reserve when it says so. `touched` is scratch space: the squares and reserves changed so far.
fn key_after_drop(
    game: &Game,
    state: &State,
    actions: &[Action],
    turn: u64,
    touched: &mut Vec<(bool, usize, Option<super::state::Piece>, u32)>,
) -> u64 {
    use super::state::{cell_key, reserve_key};
    touched.clear();
    let np = game.pieces.len();
    let mut h = state.hash ^ turn;
    // The square's contents as the part has left them so far.
    let cell = |touched: &Vec<(bool, usize, Option<super::state::Piece>, u32)>, i: usize| {
        touched
            .iter()
            .rev()
            .find(|t| !t.0 && t.1 == i)
            .map_or(state.cells[i], |t| t.2)
    };
    for a in actions {
        if let Action::Capture { at } = *a {
            if let Some(old) = cell(touched, at.idx()) {
                h ^= cell_key(at, &old);
                touched.push((false, at.idx(), None, 0));
            }
        }
    }
    for a in actions {
        if let Action::Place { at, piece, reserve } = *a {
            if let Some(old) = cell(touched, at.idx()) {
                h ^= cell_key(at, &old);
            }
            h ^= cell_key(at, &piece);
            touched.push((false, at.idx(), Some(piece), 0));
            if reserve {
                let slot = piece.owner.idx() * np + piece.kind.idx();
                let count = touched
                    .iter()
                    .rev()
                    .find(|t| t.0 && t.1 == slot)
                    .map_or(state.reserves[slot], |t| t.3);
                let c = count.saturating_sub(1);
                h ^= reserve_key(slot, count) ^ reserve_key(slot, c);
                touched.push((true, slot, None, c));
            }
        }
    }
    h
}

/// The turn-order entry after `turn` (no extra turn).
fn next_turn(game: &Game, turn: usize) -> usize {
    if turn + 1 >= game.turn_order.entries.len() {
        game.turn_order.repeat_from
    } else {
        turn + 1
    }
}

/// The positions next to `p` on the board (off-board positions excepted).
#[inline]
pub(super) fn neighbours(board: &Board, p: usize) -> impl Iterator<Item = usize> + '_ {
    let nd = board.directions.len();
    board.links[p * nd..(p + 1) * nd]
        .iter()
        .filter(move |&&q| q != NO_POS && !board.positions[q as usize].dummy)
        .map(|&q| q as usize)
}

/// Flood fill of `player`'s group from `start`, treating `occupied` as holding a piece of another player.
/// Appends the group's positions to `members` (marking them in `seen`); returns its liberties (each empty
/// neighbour once). With `any`, stops at the first liberty (returns 1, with no member listed or marked):
/// capture and suicide tests only ask whether there is one, and a big group usually has one near where the
/// fill starts. Generic in the owner
/// function, so that a caller's closure is inlined rather than called through a pointer per neighbour.
#[allow(clippy::too_many_arguments)]
fn flood<F: Fn(usize) -> Option<Player> + ?Sized>(
    board: &Board,
    owner: &F,
    start: usize,
    player: Player,
    occupied: Option<usize>,
    any: bool,
    seen: &mut [u8],
    members: &mut Vec<usize>,
) -> u32 {
    const MEMBER: u8 = 1;
    const LIBERTY: u8 = 2;
    // Most groups asked for any liberty have one next to the stone the fill starts from: answered with no
    // mark and no member listed, as a fill stopped there leaves them (see below).
    if any
        && neighbours(board, start)
            .any(|q| Some(q) != occupied && seen[q] & MEMBER == 0 && owner(q).is_none())
    {
        return 1;
    }
    let first = members.len();
    members.push(start);
    seen[start] |= MEMBER;
    let mut libs = 0;
    // The liberty a fill with `any` stopped at: its one liberty mark.
    let mut found = usize::MAX;
    let mut i = first;
    'fill: while i < members.len() {
        let p = members[i];
        i += 1;
        for q in neighbours(board, p) {
            if seen[q] & (MEMBER | LIBERTY) != 0 || Some(q) == occupied {
                continue;
            }
            match owner(q) {
                None => {
                    seen[q] |= LIBERTY;
                    libs += 1;
                    if any {
                        found = q;
                        break 'fill;
                    }
                }
                Some(o) if o == player => {
                    seen[q] |= MEMBER;
                    members.push(q);
                }
                Some(_) => {}
            }
        }
    }
    // Liberty marks are per group: clear them for the next fill. A fill stopped early leaves no member mark
    // either (nor members: they are taken off the list): a later fill of the same group from another stone
    // must not stop at its partial marks.
    if libs > 0 {
        if any {
            seen[found] &= !LIBERTY;
            for &p in &members[first..] {
                seen[p] &= !MEMBER;
            }
            members.truncate(first);
        } else {
            for &p in &members[first..] {
                for q in neighbours(board, p) {
                    seen[q] &= !LIBERTY;
                }
            }
        }
    }
    libs
}

thread_local! {
    /// The marks and members of the flood fills of one group test, kept from call to call (with their
    /// capacity) rather than allocated per call: the marks all zero between calls.
    static SCRATCH: std::cell::RefCell<(Vec<u8>, Vec<usize>)> =
        const { std::cell::RefCell::new((Vec::new(), Vec::new())) };
}

/// Runs `f` with zeroed marks for `n` positions and an empty list of members, from this thread's scratch
/// (fresh vectors if a caller up the stack holds it).
fn with_scratch<R>(n: usize, f: impl FnOnce(&mut [u8], &mut Vec<usize>) -> R) -> R {
    SCRATCH.with(|cell| match cell.try_borrow_mut() {
        Ok(mut s) => {
            let (seen, members) = &mut *s;
            if seen.len() < n {
                seen.resize(n, 0);
            }
            members.clear();
            let r = f(&mut seen[..n], members);
            seen[..n].fill(0);
            r
        }
        Err(_) => f(&mut vec![0u8; n], &mut vec![]),
    })
}

/// Whether an enemy group of `mover` next to `at` has a piece next to it (a quick test before any fill).
fn enemy_next_to<F: Fn(usize) -> Option<Player> + ?Sized>(
    game: &Game,
    owner: &F,
    at: Pos,
    mover: Player,
) -> bool {
    neighbours(&game.board, at.idx()).any(|q| owner(q).is_some_and(|o| !game.same_team(o, mover)))
}

/// The enemy groups next to `at` that a piece of `mover` put on `at` leaves without a liberty, appended to
/// `out` (marks in `seen`); with `first`, stops at the first such group.
#[allow(clippy::too_many_arguments)]
fn captured_into<F: Fn(usize) -> Option<Player> + ?Sized>(
    game: &Game,
    owner: &F,
    at: Pos,
    mover: Player,
    first: bool,
    seen: &mut [u8],
    out: &mut Vec<usize>,
) {
    let b = &game.board;
    for q in neighbours(b, at.idx()) {
        if seen[q] != 0 {
            continue;
        }
        let Some(o) = owner(q).filter(|&o| !game.same_team(o, mover)) else {
            continue;
        };
        let start = out.len();
        if flood(b, owner, q, o, Some(at.idx()), true, seen, out) > 0 {
            out.truncate(start);
        } else if first {
            return;
        }
    }
}

/// The enemy groups next to `at` that a piece of `mover` put on `at` leaves without a liberty.
pub fn captured_by_placing<F: Fn(usize) -> Option<Player> + ?Sized>(
    game: &Game,
    owner: &F,
    at: Pos,
    mover: Player,
) -> Vec<usize> {
    // Quick test: no enemy neighbour, nothing to capture.
    if !enemy_next_to(game, owner, at, mover) {
        return vec![];
    }
    let n = game.board.positions.len();
    with_scratch(n, |seen, out| {
        captured_into(game, owner, at, mover, false, seen, out);
        // Nothing allocated for the usual answer, none.
        if out.is_empty() {
            vec![]
        } else {
            out.clone()
        }
    })
}

/// Whether a piece of `mover` put on `at` would leave its group (with the mover's groups next to `at`)
/// without a liberty, once the enemy groups it takes are removed.
pub fn suicide<F: Fn(usize) -> Option<Player> + ?Sized>(
    game: &Game,
    owner: &F,
    at: Pos,
    mover: Player,
) -> bool {
    let b = &game.board;
    let a = at.idx();
    if neighbours(b, a).any(|q| owner(q).is_none()) {
        return false;
    }
    let n = b.positions.len();
    with_scratch(n, |seen, members| {
        // A capture frees a neighbour of `at`.
        if enemy_next_to(game, owner, at, mover) {
            captured_into(game, owner, at, mover, true, seen, members);
            if !members.is_empty() {
                return false;
            }
            seen.fill(0);
        }
        for q in neighbours(b, a) {
            if seen[q] == 0 && owner(q) == Some(mover) {
                // Its liberties other than `at` (which the new piece fills).
                if flood(b, owner, q, mover, Some(a), true, seen, members) > 0 {
                    return false;
                }
            }
        }
        true
    })
}

/// The stones of `mover`'s groups next to `at` (for a suicide that removes its own group).
pub fn own_groups_next_to(game: &Game, owner: Owner, at: Pos, mover: Player) -> Vec<usize> {
    let b = &game.board;
    let mut seen = vec![0u8; b.positions.len()];
    let mut out = vec![];
    for q in neighbours(b, at.idx()) {
        if seen[q] == 0 && owner(q) == Some(mover) {
            flood(
                b,
                owner,
                q,
                mover,
                Some(at.idx()),
                false,
                &mut seen,
                &mut out,
            );
        }
    }
    out
}

/// The liberties and size of the group of the piece on `at` (0 and 0 on an empty position).
pub fn group_of(game: &Game, owner: Owner, at: Pos) -> (u32, u32) {
    let Some(p) = owner(at.idx()) else {
        return (0, 0);
    };
    let n = game.board.positions.len();
    let mut seen = vec![0u8; n];
    let mut members = vec![];
    let libs = flood(
        &game.board,
        owner,
        at.idx(),
        p,
        None,
        false,
        &mut seen,
        &mut members,
    );
    (libs, members.len() as u32)
}

/// The owner of the live piece on each position of a state.
fn state_owner(state: &State) -> impl Fn(usize) -> Option<Player> + '_ {
    move |i: usize| state.cells[i].filter(|x| !x.dead).map(|x| x.owner)
}

/// Area scoring: `player`'s pieces on the board plus the empty positions of every empty region whose
/// neighbouring pieces are all `player`'s (a region touching no piece counts for nobody).
pub fn area(game: &Game, state: &State, player: Player) -> i64 {
    let b = &game.board;
    let owner = state_owner(state);
    let n = b.positions.len();
    let mut seen = vec![false; n];
    let mut total = 0i64;
    let mut region = vec![];
    for i in 0..n {
        if b.positions[i].dummy {
            continue;
        }
        match owner(i) {
            Some(o) => total += (o == player) as i64,
            None if !seen[i] => {
                region.clear();
                region.push(i);
                seen[i] = true;
                let (mut mine, mut other) = (false, false);
                let mut k = 0;
                while k < region.len() {
                    let p = region[k];
                    k += 1;
                    for q in neighbours(b, p) {
                        match owner(q) {
                            Some(o) if o == player => mine = true,
                            Some(_) => other = true,
                            None if !seen[q] => {
                                seen[q] = true;
                                region.push(q);
                            }
                            None => {}
                        }
                    }
                }
                if mine && !other {
                    total += region.len() as i64;
                }
            }
            None => {}
        }
    }
    total
}

/// Whether one group of `player`'s pieces (of `types`, all when empty) touches every zone of `zones` (each
/// read for `player`): Hex's and Y's connection.
pub fn connects(
    game: &Game,
    state: &State,
    player: Player,
    zones: &[ZoneId],
    types: &[PieceType],
) -> bool {
    let b = &game.board;
    let n = b.positions.len();
    let mine = |i: usize| {
        state.cells[i].is_some_and(|x| {
            !x.dead && x.owner == player && (types.is_empty() || types.contains(&x.kind))
        })
    };
    let Some((&first, rest)) = zones.split_first() else {
        return false;
    };
    let mut seen = vec![false; n];
    let mut group = vec![];
    for start in 0..n {
        if seen[start] || !b.in_zone(first, player, Pos(start as u16)) || !mine(start) {
            continue;
        }
        group.clear();
        group.push(start);
        seen[start] = true;
        let mut touched = vec![false; rest.len()];
        let mut k = 0;
        while k < group.len() {
            let p = group[k];
            k += 1;
            for (t, z) in touched.iter_mut().zip(rest) {
                *t |= b.in_zone(*z, player, Pos(p as u16));
            }
            for q in neighbours(b, p) {
                if !seen[q] && mine(q) {
                    seen[q] = true;
                    group.push(q);
                }
            }
        }
        if touched.iter().all(|&t| t) {
            return true;
        }
    }
    false
}
