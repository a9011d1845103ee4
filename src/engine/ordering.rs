//! Applies a game's `(capture-order ...)` (see `compile::ordering`): when some complete move captures, each
//! move gets one number per criterion, and only the moves whose numbers are lexicographically best are kept. One pass over the list
//! after generation, no re-checking as a maximum rises: the keys are computed once per move, the best key is
//! found, and the list is filtered against it.

use crate::compile::{Criterion, Game, Measure, PieceType};
use crate::engine::{Move, State};

/// Keeps only the moves no other move beats under the game's capture order. `kings` are the promoted types,
/// the kings of a criterion that names none.
pub fn keep_best(game: &Game, state: &State, kings: &[PieceType], moves: &mut Vec<Move>) {
    let order = &game.capture_order;
    // The order ranks captures: a list where nothing is captured is left whole (or `by-king` would make
    // a king's quiet step beat a man's).
    if moves.len() < 2 || order.is_empty() || !moves.iter().any(|m| m.captures() > 0) {
        return;
    }
    let k = order.len();
    let mut keys: Vec<i64> = Vec::with_capacity(moves.len() * k);
    for m in moves.iter() {
        for c in order {
            let v = measure(game, state, kings, c, m);
            keys.push(if c.maximize { v } else { -v });
        }
    }
    let best = keys
        .chunks_exact(k)
        .max()
        .map(<[i64]>::to_vec)
        .unwrap_or_default();
    let mut i = 0;
    moves.retain(|_| {
        let keep = keys[i * k..(i + 1) * k] == best[..];
        i += 1;
        keep
    });
}

/// The value of one criterion's measure on one move. Opponents' pieces do not move during a move, so the
/// pieces taken are those standing on the captured squares now, in the order the captures were made.
fn measure(game: &Game, state: &State, kings: &[PieceType], c: &Criterion, m: &Move) -> i64 {
    let is_king = |t: PieceType| match &c.types {
        Some(ts) => ts.contains(&t),
        None => kings.contains(&t),
    };
    // A prisoner taken is the top of its column, as the state before the move shows it.
    let taken = m
        .parts
        .iter()
        .flat_map(|p| p.taken())
        .map(|at| state.get(at).map(|x| x.kind));
    match c.measure {
        Measure::PiecesTaken => taken
            .filter(|t| match (&c.types, t) {
                (None, _) => true,
                (Some(ts), Some(t)) => ts.contains(t),
                (Some(_), None) => false,
            })
            .count() as i64,
        Measure::KingsTaken => taken.filter(|t| t.is_some_and(is_king)).count() as i64,
        Measure::ByKing => m
            .parts
            .first()
            .and_then(|p| p.from)
            .and_then(|f| state.get(f))
            .is_some_and(|x| is_king(x.kind)) as i64,
        Measure::FirstKingTaken => {
            let mut n = 0;
            for t in taken {
                n += 1;
                if t.is_some_and(is_king) {
                    return n;
                }
            }
            i64::MAX / 2
        }
        Measure::KingsEarly => {
            let mut bits = 0i64;
            for (i, t) in taken.enumerate().take(62) {
                if t.is_some_and(is_king) {
                    bits |= 1 << (61 - i);
                }
            }
            bits
        }
        Measure::ValueTaken => taken
            .map(|t| {
                t.and_then(|t| game.pieces[t.idx()].value)
                    .map_or(1000, |v| (v * 1000.0).round() as i64)
            })
            .sum(),
    }
}
