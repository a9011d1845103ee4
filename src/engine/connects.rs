//! `(connects ZONE ZONE... [T...])` read through the player's occupancy: the same answer as
//! [`groups::connects`](super::groups::connects), which stays the general path's (`EngineOptions::general_path`)
//! and the reference this one is tested against (`tests/connects_fast.rs`).
//!
//! Hex tests the condition for both players after every ply, and the scan of every position with a fresh
//! `seen` array per call was 85% of a random game's instructions. Here the starts are read from the player's
//! occupancy bitset (only its pieces are visited, never the empty board), the marks live in one bitset reused
//! from call to call, and the fill stops as soon as its group has touched every zone: the answer is whether
//! some group of the player's pieces that holds a piece in the first zone touches all the others, whatever the
//! order the groups are filled in.

use super::state::State;
use crate::compile::*;
use std::cell::RefCell;

thread_local! {
    /// The marks of the positions already filled (a bitset) and the fill's stack, reused between calls.
    static SCRATCH: RefCell<(Vec<u64>, Vec<u32>, Vec<bool>)> = const { RefCell::new((Vec::new(), Vec::new(), Vec::new())) };
}

/// Whether one group of `player`'s pieces (of `types`, all when empty) touches every zone of `zones` (each
/// read for `player`); see the module's paragraph.
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
    let Some(starts) = row(first) else {
        return false;
    };
    if rest.iter().any(|&z| row(z).is_none()) {
        return false;
    }
    let cells = state.cells();
    let mine = |i: usize| {
        cells[i].is_some_and(|x| {
            !x.dead && x.owner == player && (types.is_empty() || types.contains(&x.kind))
        })
    };
    let nd = b.directions.len();
    let occupancy = state.occupancy(player);
    if occupancy.iter().all(|&w| w == 0) {
        return false;
    }
    SCRATCH.with(|s| {
        let (seen, stack, touched) = &mut *s.borrow_mut();
        seen.clear();
        seen.resize(occupancy.len(), 0);
        for (w, &bits) in occupancy.iter().enumerate() {
            let mut bits = bits;
            while bits != 0 {
                let start = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if seen[w] >> (start & 63) & 1 != 0 || !starts[start] || !mine(start) {
                    continue;
                }
                seen[w] |= 1 << (start & 63);
                stack.clear();
                stack.push(start as u32);
                touched.clear();
                touched.resize(rest.len(), false);
                let mut left = rest.len();
                while let Some(p) = stack.pop() {
                    let p = p as usize;
                    for (t, &z) in touched.iter_mut().zip(rest) {
                        if !*t && b.zones[z.idx()].members[player.idx()][p] {
                            *t = true;
                            left -= 1;
                        }
                    }
                    if left == 0 {
                        return true;
                    }
                    for &q in &b.links[p * nd..(p + 1) * nd] {
                        if q == NO_POS {
                            continue;
                        }
                        let q = q as usize;
                        let (qw, qb) = (q >> 6, 1u64 << (q & 63));
                        if seen.get(qw).is_some_and(|&m| m & qb == 0)
                            && !b.positions[q].dummy
                            && mine(q)
                        {
                            seen[qw] |= qb;
                            stack.push(q as u32);
                        }
                    }
                }
            }
        }
        false
    })
}
