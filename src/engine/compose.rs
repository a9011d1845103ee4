//! Complete moves: composite moves enumerated whole from their parts, and moves of the same net effect merged.

use super::apply::{apply_move, apply_part};
use super::gen::{parts, TypeFilter};
use super::moves::{Action, Move, Part};
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
const MAX_PARTS: usize = 256;
/// Complete moves one position may have.
const MAX_MOVES: usize = 200_000;
/// Parts all the complete moves of one position may have together: long composite moves times many moves
/// would otherwise reach gigabytes before either limit above (a fuzzed file: 2.9 GB).
const MAX_TOTAL_PARTS: usize = 2_000_000;

struct Composer<'a> {
    game: &'a Game,
    player: Player,
    owner: Player,
    out: Vec<Move>,
    /// Per move of `out`: the hash of the board it leaves, where the enumeration already computed it (a
    /// composite move without deferred captures); `None`, or past the end, where the merge must apply it.
    after: Vec<Option<u64>>,
    seen: KeySet,
    /// Continuation states already expanded in this position (see `extend`).
    expanded: KeySet,
    /// Parts of the moves in `out`, together.
    total_parts: usize,
}

impl Composer<'_> {
    /// Extends a composite move whose last part left `state`, continuing the piece on `at`.
    fn extend(
        &mut self,
        prefix: &mut Vec<Part>,
        state: &State,
        at: Pos,
        types: Option<MoveType>,
        chain: &mut Vec<u64>,
        required: bool,
        anywhere: bool,
    ) -> Result<(), EngineError> {
        if prefix.len() >= MAX_PARTS
            || self.out.len() >= MAX_MOVES
            || self.total_parts >= MAX_TOTAL_PARTS
        {
            return Err(EngineError(format!(
                "{}: a composite move grew past {MAX_PARTS} parts, or the position past {MAX_MOVES} moves or \
                 {MAX_TOTAL_PARTS} parts in all",
                self.game.title
            )));
        }
        let mut conts = vec![];
        let filter = match types {
            Some(t) => TypeFilter::Only(Some(t)),
            None => TypeFilter::Any,
        };
        parts(
            self.game,
            state,
            self.player,
            self.owner,
            filter,
            (!anywhere).then_some(at),
            &mut conts,
        )?;
        // A continuation that comes back to a state already seen in this chain would loop.
        let deferred = self.game.options.deferred_captures;
        let mut any = false;
        for e in conts {
            let mut next = state.clone();
            apply_part(self.game, &mut next, &e.part, deferred);
            if chain.contains(&next.hash) {
                continue;
            }
            any = true;
            prefix.push(e.part.clone());
            match (e.cont, e.part.to) {
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
                        e.part.actions.iter().any(|a| {
                            matches!(a, Action::Capture { .. } | Action::TakePrisoner { .. })
                        });
                    let created = prefix
                        .iter()
                        .flat_map(|p| &p.actions)
                        .any(|a| matches!(a, Action::Place { .. }));
                    let key = next.hash
                        ^ super::state::mix(
                            (next.last_from.map_or(0xFFFF, |p| p.0) as u64) << 32
                                | (next.last_to.map_or(0xFFFF, |p| p.0) as u64) << 16
                                | t.map_or(0xFFFF, |m| m.0) as u64,
                        )
                        ^ super::state::mix(prefix[0].from.map_or(0, |f| f.0 as u64 + 1) << 40);
                    if !(captured && !created) || self.expanded.insert(key) {
                        chain.push(next.hash);
                        self.extend(prefix, &next, to, t, chain, e.required, e.anywhere)?;
                        chain.pop();
                    }
                }
                _ => self.finish(prefix, next.hash),
            }
            prefix.pop();
        }
        // A part made by `add-partial-required` is no move without its continuation.
        if (!any || self.game.options.pass_partial) && !required {
            if prefix.len() > 0 {
                self.finish(prefix, state.hash);
            }
        }
        Ok(())
    }

    /// A complete move, with the hash of the board it leaves (`state.hash` after its last part).
    fn finish(&mut self, parts: &[Part], after: u64) {
        self.total_parts += parts.len();
        self.out.push(Move {
            parts: parts.to_vec(),
        });
        // Deferred captures are removed only when the move ends: let the merge apply such a move whole.
        if !self.game.options.deferred_captures {
            self.after.resize(self.out.len() - 1, None);
            self.after.push(Some(after));
        }
    }
}

/// The complete moves whose first part comes from programs the filter selects, with moves of the same net
/// effect merged.
pub(super) fn complete_moves(
    game: &Game,
    state: &State,
    player: Player,
    owner: Player,
    filter: TypeFilter<'_>,
) -> Result<Vec<Move>, EngineError> {
    let mut firsts = vec![];
    parts(game, state, player, owner, filter, None, &mut firsts)?;
    let mut c = Composer {
        game,
        player,
        owner,
        out: Vec::with_capacity(firsts.len()),
        after: vec![],
        seen: KeySet::default(),
        expanded: KeySet::default(),
        total_parts: 0,
    };
    let deferred = game.options.deferred_captures;
    let mut composite = false;
    for e in firsts {
        match (e.cont, e.part.to) {
            (Some(t), Some(to)) => {
                composite = true;
                let mut next = state.clone();
                apply_part(game, &mut next, &e.part, deferred);
                let mut prefix = vec![e.part];
                let mut chain = vec![state.hash, next.hash];
                c.extend(
                    &mut prefix,
                    &next,
                    to,
                    t,
                    &mut chain,
                    e.required,
                    e.anywhere,
                )?;
            }
            _ => c.out.push(Move {
                parts: vec![e.part],
            }),
        }
    }
    let mut moves = c.out;
    if composite {
        // Moves with the same net effect are one move.
        let mut seen = std::mem::take(&mut c.seen);
        let after = c.after;
        let mut i = 0;
        moves.retain(|m| {
            i += 1;
            let key = match after.get(i - 1).copied().flatten() {
                Some(h) => h ^ from_key(m) ^ extra_key(m),
                None => effect_key(game, state, m),
            };
            seen.insert(key)
        });
    } else {
        merge_equal_singles(game, state, &mut moves);
    }
    Ok(moves)
}

/// The net effect of a move from `state`: the board and reserves after it, and the square its piece started
/// from. Equal keys are one move.
fn effect_key(game: &Game, state: &State, m: &Move) -> u64 {
    apply_move(game, state, m).hash ^ from_key(m) ^ extra_key(m)
}

/// A move that earns another turn (or sends the turn order elsewhere) differs from the same move without it.
fn extra_key(m: &Move) -> u64 {
    let jump = m
        .goto_turn()
        .map_or(0, |e| super::state::mix(0x7E57 ^ e as u64));
    if m.extra_turn() {
        0x6A09_E667_F3BC_C908 ^ jump
    } else {
        jump
    }
}

/// The square the move's piece started from, as a key to mix with the board it leaves.
fn from_key(m: &Move) -> u64 {
    m.parts
        .first()
        .and_then(|p| p.from)
        .map_or(0, |f| super::state::mix(f.0 as u64 + 1))
}

/// Whether two moves may share their (from, to) key, decided without allocating: moves come grouped by the
/// square they start from, so within each group a bitmap of destinations finds a repeat; a start square seen
/// again in a later group, or a board past 256 positions, answers "maybe" and the caller sorts.
fn may_share_ends(moves: &[Move], ends: impl Fn(&Move) -> u32) -> bool {
    let mut froms = [0u64; 5];
    let mut tos = [0u64; 5];
    let mut current = u32::MAX;
    let bit = |x: u32| -> Option<(usize, u64)> {
        // 0xFFFF (no square) takes bit 256.
        let i = if x == 0xFFFF { 256 } else { x as usize };
        (i <= 256).then(|| (i >> 6, 1u64 << (i & 63)))
    };
    for m in moves {
        let k = ends(m);
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
fn merge_equal_singles(game: &Game, state: &State, moves: &mut Vec<Move>) {
    if moves.len() < 2 {
        return;
    }
    let ends = |m: &Move| -> u32 {
        let p = m.parts.first();
        let from = p.and_then(|p| p.from).map_or(0xFFFF, |x| x.0 as u32);
        let to = m
            .parts
            .last()
            .and_then(|p| p.to)
            .map_or(0xFFFF, |x| x.0 as u32);
        from << 16 | to
    };
    if !may_share_ends(moves, ends) {
        return;
    }
    let mut keys: Vec<u32> = moves.iter().map(ends).collect();
    keys.sort_unstable();
    let shared: Vec<u32> = keys
        .windows(2)
        .filter(|w| w[0] == w[1])
        .map(|w| w[0])
        .collect();
    let mut seen = KeySet::default();
    moves.retain(|m| {
        let e = ends(m);
        // `shared` is sorted: a linear scan per move was quadratic in a file that repeats one program
        // thousands of times (a fuzzed Thud).
        shared.binary_search(&e).is_err()
            || seen.insert(effect_key(game, state, m) ^ (e as u64) << 20)
    });
}
