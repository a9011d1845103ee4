//! `(connects ZONE ZONE... [T...])` read through the player's occupancy: the same answer as
//! [`groups::connects`](super::groups::connects), which stays the general path's (`EngineOptions::general_path`)
//! and the reference this one is tested against (`tests/connect_paths.rs`).
//!
//! Hex tests the condition for both players after every ply, and the scan of every position with a fresh
//! `seen` array per call was 85% of a random game's instructions. Here the starts are read from the player's
//! occupancy bitset (only its pieces are visited, never the empty board), the pieces not yet filled are one
//! bitset reused from call to call (a neighbour is a bit test), and the fill stops as soon as its group has
//! touched every zone: the answer is whether some group of the player's pieces that holds a piece in the first
//! zone touches all the others, whatever the order the groups are filled in.
//!
//! **Groups kept from call to call.** Each thread keeps, per condition and player, the last set of pieces
//! read, its groups as a union-find (each group's root holding which zones the group touches) and the answer.
//! When the pieces read now hold every piece of that set (pieces were only added, as a stone game plays), only
//! the new pieces are joined to their neighbours: the groups of the new set are those of the old set merged
//! through the new pieces, so the answer is a kept "yes", or whether a group that holds a new piece touches
//! every zone. The same set gives the same answer: the player that did not move is answered without any work.
//! Any other change (a piece removed, moved off, turned or marked dead) builds the groups afresh. This needs
//! links that go both ways (a group is the same from any of its pieces), checked once per game and thread;
//! a board with a one-way link, a piece on a dummy position or more than 64 zones takes the fill above at
//! every call. The kept groups are told apart by the game, the condition (its zone and type lists) and the
//! player; a game freed and another compiled at the same address is told apart by the count of engines built
//! ([`engine_built`], which every engine's constructor calls), since no engine is built for the new game
//! before it is played.

use super::state::State;
use crate::compile::*;
use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};

/// Engines built so far, in every thread: part of the key of a kept answer (see the module's paragraph).
static ENGINES_BUILT: AtomicU64 = AtomicU64::new(0);

/// Tells the kept answers that an engine was built (so a game may have been compiled where a freed one was):
/// every kept answer from before is forgotten. Called by the engine's constructor.
pub fn engine_built() {
    ENGINES_BUILT.fetch_add(1, Ordering::SeqCst);
}

/// The count of engines built so far (see [`engine_built`]): with a game's address, it tells apart the games
/// a thread has played, for answers kept from call to call (here, and in extension modules that keep theirs).
pub fn engines_built() -> u64 {
    ENGINES_BUILT.load(Ordering::SeqCst)
}

/// The groups for one condition and player, and the set of pieces they were built from.
struct Kept {
    /// Engines built, the game, the zone list, the type list (addresses and lengths), the player.
    key: [usize; 7],
    /// Whether the board's links all go both ways (dummy positions aside): else the fill serves every call.
    undirected: bool,
    /// Whether `set`, `parent`, `zones` and `answer` hold groups (false until built, or after a piece on a
    /// dummy position).
    valid: bool,
    set: Vec<u64>,
    /// Per position of `set`: its parent in the union-find (a root is its own parent).
    parent: Vec<u32>,
    /// Per root: the zones its group touches (bit `i`: the condition's zone `i`).
    zones: Vec<u64>,
    answer: bool,
}

/// How many conditions and players a thread keeps groups for (a game has a condition or two, each for a
/// player or two).
const KEPT: usize = 8;

#[derive(Default)]
struct Scratch {
    /// The player's pieces not yet filled (a bitset).
    avail: Vec<u64>,
    /// The fill's stack.
    stack: Vec<u32>,
    /// Which zones the current group touches.
    touched: Vec<bool>,
    /// The pieces new since the kept set.
    fresh: Vec<u64>,
    kept: Vec<Kept>,
    /// The next kept groups to replace when all `KEPT` are taken.
    next: usize,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// Whether one group of `player`'s pieces (of `types`, all when empty) touches every zone of `zones` (each
/// read for `player`); see the module's paragraphs.
pub fn connects(
    game: &Game,
    state: &State,
    player: Player,
    zones: &[ZoneId],
    types: &[PieceType],
) -> bool {
    let b = &game.board;
    let Some((&first, rest)) = zones.split_first() else {
        return false;
    };
    // A zone not declared for the player holds none of its positions (`Board::in_zone`).
    let row = |z: ZoneId| b.zones[z.idx()].members.get(player.idx());
    if row(first).is_none() || rest.iter().any(|&z| row(z).is_none()) {
        return false;
    }
    let cells = state.cells();
    let mine = |i: usize| {
        cells[i].is_some_and(|x| {
            !x.dead && x.owner == player && (types.is_empty() || types.contains(&x.kind))
        })
    };
    let occupancy = state.occupancy(player);
    if occupancy.iter().all(|&w| w == 0) {
        return false;
    }
    SCRATCH.with(|s| {
        let s = &mut *s.borrow_mut();
        // The player's pieces: its occupancy, less the positions that hold none of its live pieces of these
        // types. Without types, only a piece captured under deferred captures (dead until its move ends) is
        // in the occupancy and not read.
        s.avail.clear();
        s.avail.extend_from_slice(occupancy);
        if !types.is_empty() || game.options.deferred_captures {
            for (w, word) in s.avail.iter_mut().enumerate() {
                let mut bits = *word;
                while bits != 0 {
                    let i = w * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    if !mine(i) {
                        *word &= !(1u64 << (i & 63));
                    }
                }
            }
        }
        debug_assert!((0..cells.len())
            .all(|i| mine(i) == s.avail.get(i >> 6).is_some_and(|w| w >> (i & 63) & 1 != 0)));
        if zones.len() > 64 {
            return fill_all(b, player, first, rest, s);
        }
        let key = [
            engines_built() as usize,
            game as *const Game as usize,
            zones.as_ptr() as usize,
            zones.len(),
            types.as_ptr() as usize,
            types.len(),
            player.idx(),
        ];
        let k = match s.kept.iter().position(|k| k.key == key) {
            Some(k) => k,
            None => {
                let k = if s.kept.len() < KEPT {
                    s.kept.push(Kept {
                        key,
                        undirected: false,
                        valid: false,
                        set: vec![],
                        parent: vec![],
                        zones: vec![],
                        answer: false,
                    });
                    s.kept.len() - 1
                } else {
                    let k = s.next;
                    s.next = (k + 1) % KEPT;
                    k
                };
                let kept = &mut s.kept[k];
                kept.key = key;
                kept.undirected = undirected(b);
                kept.valid = false;
                kept.parent.resize(b.positions.len(), 0);
                kept.zones.resize(b.positions.len(), 0);
                k
            }
        };
        let kept = &mut s.kept[k];
        if !kept.undirected {
            return fill_all(b, player, first, rest, s);
        }
        let grown = kept.valid
            && kept.set.len() == s.avail.len()
            && kept.set.iter().zip(&s.avail).all(|(o, n)| o & !n == 0);
        s.fresh.clear();
        if grown {
            if kept.answer {
                return true;
            }
            s.fresh
                .extend(kept.set.iter().zip(&s.avail).map(|(o, n)| n & !o));
            if s.fresh.iter().all(|&w| w == 0) {
                return false;
            }
        } else {
            s.fresh.extend_from_slice(&s.avail);
        }
        kept.set.clone_from(&s.avail);
        match join(b, player, zones, kept, &s.fresh) {
            Some(answer) => {
                kept.answer = answer;
                kept.valid = true;
                answer
            }
            None => {
                kept.valid = false;
                fill_all(b, player, first, rest, s)
            }
        }
    })
}

/// Whether every link of the board has a link back (links to or from dummy positions aside, which no group
/// follows).
fn undirected(b: &Board) -> bool {
    let nd = b.directions.len();
    (0..b.positions.len()).all(|p| {
        b.positions[p].dummy
            || b.links[p * nd..(p + 1) * nd].iter().all(|&q| {
                b.positions.get(q as usize).is_none_or(|x| {
                    x.dummy || b.links[q as usize * nd..(q as usize + 1) * nd].contains(&(p as u16))
                })
            })
    })
}

/// The root of `x`'s group (halving the path on the way).
#[inline]
fn find(parent: &mut [u32], mut x: u32) -> u32 {
    while parent[x as usize] != x {
        let up = parent[parent[x as usize] as usize];
        parent[x as usize] = up;
        x = up;
    }
    x
}

/// Joins the pieces of `fresh` (new to `kept.set`, which already holds them) to the groups of `kept`: each
/// its own group first, then merged with every neighbour in the set. Whether a group holding one of them
/// touches every zone; `None` (nothing kept) where one stands on a dummy position.
fn join(
    b: &Board,
    player: Player,
    zones: &[ZoneId],
    kept: &mut Kept,
    fresh: &[u64],
) -> Option<bool> {
    let nd = b.directions.len();
    let all = u64::MAX >> (64 - zones.len());
    let pieces = || {
        fresh.iter().enumerate().flat_map(|(w, &bits)| {
            let mut bits = bits;
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let i = w * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    i
                })
            })
        })
    };
    for p in pieces() {
        if b.positions[p].dummy {
            return None;
        }
        kept.parent[p] = p as u32;
        let mut touched = 0;
        for (i, &z) in zones.iter().enumerate() {
            if b.zones[z.idx()].members[player.idx()][p] {
                touched |= 1 << i;
            }
        }
        kept.zones[p] = touched;
    }
    for p in pieces() {
        for &q in &b.links[p * nd..(p + 1) * nd] {
            // `NO_POS` is past every word of the set.
            if kept
                .set
                .get(q as usize >> 6)
                .is_some_and(|&m| m >> (q & 63) & 1 != 0)
            {
                let (a, c) = (
                    find(&mut kept.parent, p as u32),
                    find(&mut kept.parent, q as u32),
                );
                if a != c {
                    kept.parent[a as usize] = c;
                    kept.zones[c as usize] |= kept.zones[a as usize];
                }
            }
        }
    }
    Some(pieces().any(|p| {
        let r = find(&mut kept.parent, p as u32);
        kept.zones[r as usize] == all
    }))
}

/// The fill of every group holding a piece of the first zone (from `s.avail`, which it empties of them):
/// whether one of them touches every zone of `rest`.
fn fill_all(b: &Board, player: Player, first: ZoneId, rest: &[ZoneId], s: &mut Scratch) -> bool {
    let starts = &b.zones[first.idx()].members[player.idx()];
    for w in 0..s.avail.len() {
        loop {
            // The next start: a piece of the first zone not yet filled (read afresh, fills clear bits).
            let mut bits = s.avail[w];
            let start = loop {
                if bits == 0 {
                    break None;
                }
                let i = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if starts[i] {
                    break Some(i);
                }
            };
            let Some(start) = start else { break };
            if fill(b, player, start, rest, s) {
                return true;
            }
        }
    }
    false
}

/// Fills the group of `start` (a piece still in `s.avail`) through `s.avail`, taking its pieces from there;
/// whether the group touches every zone of `zones` (read for `player`). Stops as soon as it does.
fn fill(b: &Board, player: Player, start: usize, zones: &[ZoneId], s: &mut Scratch) -> bool {
    let nd = b.directions.len();
    s.avail[start >> 6] &= !(1u64 << (start & 63));
    s.stack.clear();
    s.stack.push(start as u32);
    s.touched.clear();
    s.touched.resize(zones.len(), false);
    let mut left = zones.len();
    if left == 0 {
        return true;
    }
    while let Some(p) = s.stack.pop() {
        let p = p as usize;
        for (t, &z) in s.touched.iter_mut().zip(zones) {
            if !*t && b.zones[z.idx()].members[player.idx()][p] {
                *t = true;
                left -= 1;
            }
        }
        if left == 0 {
            return true;
        }
        for &q in &b.links[p * nd..(p + 1) * nd] {
            let (qw, qb) = (q as usize >> 6, 1u64 << (q & 63));
            // `NO_POS` is past every word of the bitset.
            if s.avail.get(qw).is_some_and(|&m| m & qb != 0) && !b.positions[q as usize].dummy {
                s.avail[qw] &= !qb;
                s.stack.push(q as u32);
            }
        }
    }
    false
}
