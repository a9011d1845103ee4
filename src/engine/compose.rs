//! Complete moves: composite moves enumerated whole from their parts, and moves of the same net effect merged.

use super::apply::{make_part, make_parts, unmake, Undo};
use super::gen::{parts, Emissions, ProgramIndex, TypeFilter};
use super::movelist::MoveList;
use super::moves::{Action, Move};
use super::state::State;
use super::EngineError;
use crate::compile::*;
use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

/// Keys here are Zobrist hashes, already well mixed: hashing them again (SipHash) only costs time.
#[derive(Default)]
struct IdentityHasher(u64);

impl Hasher for IdentityHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = x;
    }
}

type KeySet = HashSet<u64, BuildHasherDefault<IdentityHasher>>;

/// Parts one composite move may have.
pub(super) const MAX_PARTS: usize = 256;
/// Complete moves one position may have.
pub(super) const MAX_MOVES: usize = 200_000;
/// Parts all the complete moves of one position may have together: long composite moves times many moves
/// would otherwise reach gigabytes before either limit above (a fuzzed file: 2.9 GB).
pub(super) const MAX_TOTAL_PARTS: usize = 2_000_000;

/// What listing moves reuses from ply to ply, per thread: the emitted parts (a stack: each level of a
/// composite move appends its continuations and truncates back), the working state and its undo log, the
/// key tables (cleared, never shrunk).
#[derive(Default)]
pub struct Scratch {
    em: Emissions,
    work: Option<State>,
    undo: Undo,
    seen: KeySet,
    expanded: KeySet,
    prefix: Vec<usize>,
    chain: Vec<u64>,
    keys: Vec<u32>,
    shared: Vec<u32>,
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::new(Scratch::default());
}

/// Runs `f` with this thread's scratch; a nested call (an extension or invariant that lists moves while moves
/// are listed) gets a fresh one.
pub fn with_scratch<R>(f: impl FnOnce(&mut Scratch) -> R) -> R {
    SCRATCH.with(|s| match s.try_borrow_mut() {
        Ok(mut s) => f(&mut s),
        Err(_) => f(&mut Scratch::default()),
    })
}

/// The working state, a copy of `state` made once per call (its buffers reused).
fn work_copy<'s>(work: &'s mut Option<State>, state: &State) -> &'s mut State {
    match work {
        Some(w) => {
            w.clone_from(state);
            w
        }
        None => work.insert(state.clone()),
    }
}

struct Composer<'a> {
    game: &'a Game,
    index: &'a ProgramIndex,
    player: Player,
    owner: Player,
    out: &'a mut MoveList,
    /// Emitted parts: the first parts, then the continuations of the levels being expanded.
    em: &'a mut Emissions,
    /// The state after the prefix, made and unmade part by part.
    work: &'a mut State,
    undo: &'a mut Undo,
    /// The parts of the move being built (indices into `em`).
    prefix: &'a mut Vec<usize>,
    /// The hashes of the states along the prefix (a continuation back to one of them would loop).
    chain: &'a mut Vec<u64>,
    /// Continuation states already expanded in this position (see `extend`).
    expanded: &'a mut KeySet,
    /// Parts of the moves finished, together (merged ones included, as before merging moved here).
    total_parts: usize,
    /// Moves finished, merged ones included.
    finished: usize,
    /// Merge as moves finish (every game but those with deferred captures, whose moves must be made whole
    /// to know their net effect): the keys of the moves kept.
    online: bool,
    seen: &'a mut KeySet,
    /// Keep composite moves as handles (`MoveList::lazy`): per level past the first, the index of the part
    /// among its level's emissions; and where the first part being extended was copied into `out`.
    lazy: bool,
    rel: Vec<u32>,
    root: Option<u32>,
}

impl Composer<'_> {
    /// Extends the composite move in `prefix`, whose last part left `work`, continuing the piece on `at`.
    fn extend(
        &mut self,
        at: Pos,
        types: Option<MoveType>,
        required: bool,
        anywhere: bool,
    ) -> Result<(), EngineError> {
        if self.prefix.len() >= MAX_PARTS
            || self.finished >= MAX_MOVES
            || self.total_parts >= MAX_TOTAL_PARTS
        {
            return Err(EngineError::TooLarge {
                game: self.game.title.clone(),
            });
        }
        let filter = match types {
            Some(t) => TypeFilter::Only(Some(t)),
            None => TypeFilter::Any,
        };
        let base = self.em.len();
        parts(
            self.game,
            self.index,
            self.work,
            self.player,
            self.owner,
            filter,
            (!anywhere).then_some(at),
            self.em,
        )?;
        let top = self.em.len();
        // A continuation that comes back to a state already seen in this chain would loop.
        let deferred = self.game.options.deferred_captures;
        let mut any = false;
        let detect_loops = self.game.options.detect_loops;
        for i in base..top {
            let e = self.em.parts[i];
            if detect_loops && e.head.to.is_some_and(|to| self.revisits(to)) {
                continue;
            }
            let leaf = !matches!((e.cont, e.head.to), (Some(_), Some(_)));
            if leaf {
                // A last part that only creates pieces (an Amazons arrow): the hash after it, without making it.
                if let Some(hash) = placed_hash(self.work, self.em.actions(i)) {
                    if !self.chain.contains(&hash) {
                        any = true;
                        self.prefix.push(i);
                        self.rel.push((i - base) as u32);
                        self.finish(hash);
                        self.rel.pop();
                        self.prefix.pop();
                    }
                    continue;
                }
            }
            make_part(self.game, self.work, self.em.view(i), deferred, self.undo);
            let hash = self.work.hash;
            if self.chain.contains(&hash) {
                unmake(self.work, self.undo);
                continue;
            }
            any = true;
            self.prefix.push(i);
            self.rel.push((i - base) as u32);
            match (e.cont, e.head.to) {
                (Some(t), Some(to)) => {
                    // Two routes of one piece to the same state (same board, same last move, same continuation)
                    // have the same completions, so the second adds only moves with an already-seen net effect,
                    // which are merged anyway. Skipping it turns an exponential count of capture routes (flying
                    // kings that take pieces at once) into a search over distinct states. Exact when the part
                    // into the state captured and nothing was created: every earlier state of any route then has
                    // more pieces, so the loop check forbids the same continuations on every route.
                    // A prisoner taken counts as a capture here: every state of a route then has fewer
                    // prisoners under the moving column (or fewer live tops) than the states after it.
                    let captured =
                        self.em.actions(i).iter().any(|a| {
                            matches!(a, Action::Capture { .. } | Action::TakePrisoner { .. })
                        });
                    let created = self.prefix.iter().any(|&j| {
                        self.em
                            .actions(j)
                            .iter()
                            .any(|a| matches!(a, Action::Place { .. }))
                    });
                    let first_from = self.em.parts[self.prefix[0]].head.from;
                    let key =
                        hash ^ super::state::mix(
                            (self.work.last_from.map_or(0xFFFF, |p| p.0) as u64) << 32
                                | (self.work.last_to.map_or(0xFFFF, |p| p.0) as u64) << 16
                                | t.map_or(0xFFFF, |m| m.0) as u64,
                        ) ^ super::state::mix(first_from.map_or(0, |f| f.0 as u64 + 1) << 40)
                            ^ trail_key(self.work);
                    if !captured || created || self.expanded.insert(key) {
                        self.chain.push(hash);
                        let r = self.extend(to, t, e.required, e.anywhere);
                        self.chain.pop();
                        r?;
                    }
                }
                _ => self.finish(hash),
            }
            self.rel.pop();
            self.prefix.pop();
            unmake(self.work, self.undo);
        }
        self.em.truncate(base);
        // A part made by `add-partial-required` is no move without its continuation.
        if (!any || self.game.options.pass_partial) && !required && !self.prefix.is_empty() {
            self.finish(self.work.hash);
        }
        Ok(())
    }

    /// `(option "detect loops" true)`, as Dagaz reads it: a later part of a composite move may not land on a
    /// square where an earlier part began or ended (the piece's start, or the end of any part so far).
    fn revisits(&self, to: Pos) -> bool {
        let Some(&first) = self.prefix.first() else {
            return false;
        };
        self.em.parts[first].head.from == Some(to)
            || self
                .prefix
                .iter()
                .any(|&j| self.em.parts[j].head.to == Some(to))
    }

    /// A complete move (the parts of `prefix`), with the hash of the board it leaves.
    fn finish(&mut self, after: u64) {
        self.total_parts += self.prefix.len();
        self.finished += 1;
        if self.online {
            // Moves with the same net effect are one move: the first one listed stays.
            let from = self.em.parts[self.prefix[0]].head.from;
            let actions = self.prefix.iter().flat_map(|&j| self.em.actions(j));
            if !self
                .seen
                .insert(after ^ from_key(from) ^ extra_key(actions))
            {
                return;
            }
        }
        if self.lazy {
            // A handle: the first part (copied once for all its moves) and the path to the rest.
            let e = self.em.parts[self.prefix[0]];
            let root = match self.root {
                Some(r) => r,
                None => {
                    let r = self.out.push_part(self.em, self.prefix[0]);
                    self.root = Some(r);
                    r
                }
            };
            self.out
                .push_handle(root, e.cont.flatten(), e.anywhere, &self.rel);
            return;
        }
        self.out.push_emitted(self.em, self.prefix);
    }
}

/// The squares of the composite move so far (`State::trail`, read by `visited?`), as a key: two routes to the
/// same board continue alike only if they visited the same squares. 0 in games without that memory (their
/// trail is empty).
fn trail_key(state: &State) -> u64 {
    state.trail.iter().fold(0u64, |k, p| {
        k.wrapping_add(super::state::mix(0x7A11_0000 | p.0 as u64))
    })
}

/// The hash of the state after a part that only puts pieces down (not from a reserve, each on its own square,
/// besides turn actions), as [`make_part`] would leave it; `None` for any other part, or in a game with stacks.
fn placed_hash(state: &State, actions: &[Action]) -> Option<u64> {
    if state.has_columns() || actions.len() > 4 {
        return None;
    }
    let mut h = state.hash;
    for (k, a) in actions.iter().enumerate() {
        match *a {
            Action::Place {
                at,
                piece,
                reserve: false,
            } => {
                let again = actions[..k]
                    .iter()
                    .any(|b| matches!(*b, Action::Place { at: q, .. } if q == at));
                if again {
                    return None;
                }
                h ^= state.set_delta(at, Some(piece));
            }
            Action::ExtraTurn | Action::GotoTurn { .. } => {}
            _ => return None,
        }
    }
    Some(h)
}

/// The complete moves whose first part comes from programs the filter selects, with moves of the same net
/// effect merged.
pub(super) fn complete_moves(
    game: &Game,
    index: &ProgramIndex,
    state: &State,
    player: Player,
    owner: Player,
    filter: TypeFilter<'_>,
) -> Result<Vec<Move>, EngineError> {
    let mut out = MoveList::new();
    with_scratch(|s| complete_moves_into(game, index, state, player, owner, filter, &mut out, s))?;
    out.to_moves()
}

/// `complete_moves` appended to a move buffer, with the scratch buffers given.
#[allow(clippy::too_many_arguments)]
pub fn complete_moves_into(
    game: &Game,
    index: &ProgramIndex,
    state: &State,
    player: Player,
    owner: Player,
    filter: TypeFilter<'_>,
    out: &mut MoveList,
    scratch: &mut Scratch,
) -> Result<(), EngineError> {
    let Scratch {
        em,
        work,
        undo,
        seen,
        expanded,
        prefix,
        chain,
        keys,
        shared,
    } = scratch;
    em.clear();
    expanded.clear();
    prefix.clear();
    chain.clear();
    let first_move = out.len();
    parts(game, index, state, player, owner, filter, None, em)?;
    let firsts = em.len();
    let composite = em
        .parts
        .iter()
        .any(|e| e.cont.is_some() && e.head.to.is_some());
    if !composite {
        // Read off the emitted heads, before they move into the list (no indirection per move).
        let may_share = may_share_ends(em.parts.iter().map(|e| e.head.ends()));
        out.push_singles(em);
        if !may_share {
            return Ok(());
        }
        return merge_equal_singles(game, state, out, first_move, work, undo, keys, shared, seen);
    }
    let work = work_copy(work, state);
    let deferred = game.options.deferred_captures;
    let out_lazy = out.lazy;
    let mut c = Composer {
        game,
        index,
        player,
        owner,
        out,
        em,
        work,
        undo,
        prefix,
        chain,
        expanded,
        total_parts: 0,
        finished: 0,
        online: !deferred,
        seen,
        lazy: out_lazy && !deferred,
        rel: vec![],
        root: None,
    };
    c.seen.clear();
    for i in 0..firsts {
        let e = c.em.parts[i];
        c.prefix.clear();
        c.prefix.push(i);
        c.rel.clear();
        c.root = None;
        match (e.cont, e.head.to) {
            (Some(t), Some(to)) => {
                c.chain.clear();
                c.chain.push(state.hash);
                make_part(game, c.work, c.em.view(i), deferred, c.undo);
                c.chain.push(c.work.hash);
                let r = c.extend(to, t, e.required, e.anywhere);
                unmake(c.work, c.undo);
                r?;
            }
            _ => {
                c.out.push_emitted(c.em, c.prefix);
                let last = c.out.len() - 1;
                if c.online && !c.seen.insert(effect_key(game, c.work, c.out, last, c.undo)) {
                    c.out.pop();
                }
            }
        }
    }
    if !deferred {
        return Ok(());
    }
    // Moves with the same net effect are one move (made whole: deferred captures go only at the end). The
    // key mixes in the square the move's piece started from, so only moves that share it can be one: the
    // others are kept without being made (most positions have one capture per piece).
    if out.len() < first_move + 2 {
        return Ok(());
    }
    keys.clear();
    keys.extend((first_move..out.len()).map(|i| out.start_in(i).map_or(u32::MAX, |p| p.0 as u32)));
    keys.sort_unstable();
    shared.clear();
    shared.extend(keys.windows(2).filter(|w| w[0] == w[1]).map(|w| w[0]));
    if shared.is_empty() {
        return Ok(());
    }
    shared.dedup();
    seen.clear();
    let mut kept = first_move;
    for i in first_move..out.len() {
        let from = out.start_in(i).map_or(u32::MAX, |p| p.0 as u32);
        if shared.binary_search(&from).is_err() || seen.insert(effect_key(game, work, out, i, undo))
        {
            out.moves[kept] = out.moves[i];
            kept += 1;
        }
    }
    out.moves.truncate(kept);
    Ok(())
}

/// The net effect of move `i` from `state` (made and unmade): the board and reserves after it, and the square
/// its piece started from. Equal keys are one move.
fn effect_key(game: &Game, state: &mut State, list: &MoveList, i: usize, undo: &mut Undo) -> u64 {
    make_parts(
        game,
        state,
        list.heads_in(i).len(),
        |j| list.view_in(i, j),
        undo,
    );
    let h = state.hash;
    unmake(state, undo);
    h ^ from_key(list.start_in(i)) ^ extra_key(list.actions_in(i))
}

/// A move that earns another turn (or sends the turn order elsewhere) differs from the same move without it.
fn extra_key<'a>(actions: impl Iterator<Item = &'a Action>) -> u64 {
    let mut extra = false;
    let mut goto = None;
    for a in actions {
        match *a {
            Action::ExtraTurn => extra = true,
            Action::GotoTurn { entry } => goto = Some(entry),
            _ => {}
        }
    }
    let jump = goto.map_or(0, |e| super::state::mix(0x7E57 ^ e as u64));
    if extra {
        0x6A09_E667_F3BC_C908 ^ jump
    } else {
        jump
    }
}

/// The square the move's piece started from, as a key to mix with the board it leaves.
fn from_key(from: Option<Pos>) -> u64 {
    from.map_or(0, |f| super::state::mix(f.0 as u64 + 1))
}

/// Whether two moves may share their (from, to) key, decided without allocating: moves come grouped by the
/// square they start from, so within each group a bitmap of destinations finds a repeat; a start square seen
/// again in a later group, or a board past 256 positions, answers "maybe" and the caller sorts.
fn may_share_ends(ends: impl Iterator<Item = u32>) -> bool {
    let mut froms = [0u64; 5];
    let mut tos = [0u64; 5];
    let mut current = u32::MAX;
    let bit = |x: u32| -> Option<(usize, u64)> {
        // 0xFFFF (no square) takes bit 256.
        let i = if x == 0xFFFF { 256 } else { x as usize };
        (i <= 256).then(|| (i >> 6, 1u64 << (i & 63)))
    };
    for k in ends {
        let (from, to) = (k >> 16, k & 0xFFFF);
        if from != current {
            let Some((w, b)) = bit(from) else { return true };
            if froms[w] & b != 0 {
                return true;
            }
            froms[w] |= b;
            tos = [0; 5];
            current = from;
        }
        let Some((w, b)) = bit(to) else { return true };
        if tos[w] & b != 0 {
            return true;
        }
        tos[w] |= b;
    }
    false
}

/// Merges single-part moves with the same net effect (two identical move programs, one removal found by two
/// scans). Cheap where nothing can merge: a moving piece ends on its part's `to`, so moves of one net effect
/// share their (from, to), and only moves that share it with another are applied and compared; in chess that
/// is promotions alone. (Two parts that move no piece and end their cursors on different squares are compared
/// by that square too, so such a pair with one effect stays two moves.)
#[allow(clippy::too_many_arguments)]
fn merge_equal_singles(
    game: &Game,
    state: &State,
    out: &mut MoveList,
    first: usize,
    work: &mut Option<State>,
    undo: &mut Undo,
    keys: &mut Vec<u32>,
    shared: &mut Vec<u32>,
    seen: &mut KeySet,
) -> Result<(), EngineError> {
    if out.len() < first + 2 || !may_share_ends((first..out.len()).map(|i| out.ends_in(i))) {
        return Ok(());
    }
    keys.clear();
    keys.extend((first..out.len()).map(|i| out.ends_in(i)));
    keys.sort_unstable();
    shared.clear();
    shared.extend(keys.windows(2).filter(|w| w[0] == w[1]).map(|w| w[0]));
    seen.clear();
    let work = work_copy(work, state);
    let mut kept = first;
    for i in first..out.len() {
        let e = out.ends_in(i);
        // `shared` is sorted: a linear scan per move was quadratic in a file that repeats one program
        // thousands of times (a fuzzed Thud).
        if shared.binary_search(&e).is_err()
            || seen.insert(effect_key(game, work, out, i, undo) ^ (e as u64) << 20)
        {
            out.moves[kept] = out.moves[i];
            kept += 1;
        }
    }
    out.moves.truncate(kept);
    Ok(())
}

/// The legal moves of the player to move, into a move buffer (cleared first): the generation of
/// `gen::legal_moves`, move priorities and passing included, for games where no rule judges the moves once
/// generated (see `Engine::flat`): no phases, maximal captures, `capture-order`, royal pieces, invariants,
/// repetition rule or extension module.
pub fn generate_into(
    game: &Game,
    index: &ProgramIndex,
    state: &State,
    out: &mut MoveList,
    scratch: &mut Scratch,
) -> Result<(), EngineError> {
    out.clear();
    let entry = &game.turn_order.entries[state.turn];
    let (player, owner) = (entry.player, entry.moves_as);
    let mut gen = |f: TypeFilter<'_>, out: &mut MoveList| {
        complete_moves_into(game, index, state, player, owner, f, out, scratch)
    };
    // Under `move-priorities`, only the first type with a move counts (as in `gen::legal_moves`).
    match entry.move_type {
        Some(t) => gen(TypeFilter::Only(Some(t)), out)?,
        None if game.move_priorities.is_empty() => gen(TypeFilter::Any, out)?,
        None => {
            for &t in &game.move_priorities {
                gen(TypeFilter::Only(Some(t)), out)?;
                if !out.is_empty() {
                    break;
                }
            }
            if out.is_empty() {
                gen(TypeFilter::Unlisted(&game.move_priorities), out)?;
            }
        }
    }
    add_pass(game, state, out);
    Ok(())
}

/// The pass of `pass turn`, after the listed moves: always (`true`), or when there is none (`forced`) unless a
/// whole round of passes has just been made (as `gen::add_pass`).
pub fn add_pass(game: &Game, state: &State, out: &mut MoveList) {
    match game.options.pass_turn {
        PassTurn::Yes => out.push_pass(),
        PassTurn::Forced if out.is_empty() && (state.passes as usize) < game.players.len() => {
            out.push_pass()
        }
        _ => {}
    }
}

/// Builds the move a handle of `list` stands for (see `MoveList::lazy`) and appends it to the list as a whole
/// move; returns its index. The handle's path is replayed: from the state after its first part, each level's
/// continuations are generated again, as the composer generated them, and the part at the recorded index made.
pub fn resolve(
    game: &Game,
    index: &ProgramIndex,
    state: &State,
    list: &mut MoveList,
    i: usize,
    scratch: &mut Scratch,
) -> Result<usize, EngineError> {
    let Some(h) = list.handle(i) else {
        return Ok(i);
    };
    let entry = &game.turn_order.entries[state.turn];
    let (player, owner) = (entry.player, entry.moves_as);
    let work = work_copy(&mut scratch.work, state);
    let em = &mut scratch.em;
    em.clear();
    let root = list.parts[h.root as usize];
    apply_part_view(game, work, list.part_view(h.root as usize));
    let (mut cont, mut anywhere, mut at) = (h.cont, h.anywhere, root.to);
    let mut chosen = std::mem::take(&mut scratch.prefix);
    chosen.clear();
    for k in 0..h.len as usize {
        let filter = match cont {
            Some(t) => TypeFilter::Only(Some(t)),
            None => TypeFilter::Any,
        };
        let base = em.len();
        let only = (!anywhere).then_some(at.unwrap_or(Pos(0)));
        parts(game, index, work, player, owner, filter, only, em)?;
        let idx = base + list.paths[h.path as usize + k] as usize;
        let Some(e) = em.parts.get(idx).copied() else {
            return Err(EngineError::Inconsistent {
                game: game.title.clone(),
                what: "a listed move could not be rebuilt".into(),
            });
        };
        apply_part_view(game, work, em.view(idx));
        chosen.push(idx);
        cont = e.cont.flatten();
        anywhere = e.anywhere;
        at = e.head.to;
    }
    let n = list.push_resolved(h.root as usize, em, &chosen);
    scratch.prefix = chosen;
    Ok(n)
}

fn apply_part_view(game: &Game, state: &mut State, part: super::apply::PartView<'_>) {
    super::apply::apply_actions(game, state, part, false);
    super::apply::note_part(game, state, part);
}
