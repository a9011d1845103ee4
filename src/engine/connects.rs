//! `(connects ZONE ZONE... [T...])` read through the player's occupancy: the same answer as
//! [`groups::connects`](super::groups::connects), which stays the general path's (`EngineOptions::general_path`)
//! and the reference this one is tested against (`tests/connects_fast.rs`).
//!
//! Hex tests the condition for both players after every ply, and the scan of every position with a fresh
//! `seen` array per call was 85% of a random game's instructions. Here the starts are read from the player's
//! occupancy bitset (only its pieces are visited, never the empty board), the pieces not yet filled are one
//! bitset reused from call to call (a neighbour is a bit test), and the fill stops as soon as its group has touched every zone: the answer is whether
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
        let (avail, stack, touched) = &mut *s.borrow_mut();
        // The player's pieces not yet filled: its occupancy, less the positions that hold none of its live
        // pieces of these types. A fill takes each piece from here once.
        avail.clear();
        avail.extend_from_slice(occupancy);
        for (w, word) in avail.iter_mut().enumerate() {
            let mut bits = *word;
            while bits != 0 {
                let i = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if !mine(i) {
                    *word &= !(1u64 << (i & 63));
                }
            }
        }
        for w in 0..avail.len() {
            loop {
                // The next start: a piece of the first zone not yet filled (read afresh, fills clear bits).
                let mut bits = avail[w];
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
                avail[w] &= !(1u64 << (start & 63));
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
                        let (qw, qb) = (q as usize >> 6, 1u64 << (q & 63));
                        // `NO_POS` is past every word of the bitset.
                        if avail.get(qw).is_some_and(|&m| m & qb != 0)
                            && !b.positions[q as usize].dummy
                        {
                            avail[qw] &= !qb;
                            stack.push(q as u32);
                        }
                    }
                }
            }
        }
        false
    })
}
