//! Huffing (`(huffing T...)`, docs/language.md "Huffing"): captures are never compulsory, but a piece that
//! could have captured and did not is marked, and its opponent may remove it ("huff" it) before moving.
//!
//! The marks are the implicit boolean attribute `huffable` (`Huffing::mark`), so they are part of the piece,
//! of the hash and of the position format. Every move of the player P to move is rewritten here, once its
//! list is known:
//! * first, every mark on the board is cleared (a mark lapses once the opponent has had one turn);
//! * then, if the move is not a capture (its first part is not of a `huffing` type), every piece of P that had
//!   a capture in this position is marked where it stands after the move (the moving piece at its end);
//! * if it is a capture that stopped where its chain could have gone on (another listed capture begins
//!   with all its parts), the capturing piece is marked at its end.
//!
//! P may also huff: for each marked piece X of another player, "remove X, then any move of P in the position
//! without X" (that position's moves, rewritten as above), a composite move whose first part is the removal
//! alone (no piece moves: notation `xc3 d4-e3`).

use super::moves::{Action, Move, Part};
use super::state::State;
use super::EngineError;
use crate::compile::*;

/// Whether a move is a capture for huffing: its first part is of one of the `huffing` types.
fn is_capture(h: &Huffing, m: &Move) -> bool {
    m.parts
        .first()
        .is_some_and(|p| p.move_type.is_some_and(|t| h.types.contains(&t)))
}

/// The parts of two chains agree: same squares and same pieces taken (a stopped chain's last part may
/// also promote, which its continuation's does not).
fn same_part(a: &Part, b: &Part) -> bool {
    a.from == b.from && a.to == b.to && a.taken().eq(b.taken())
}

/// A move's chain: its parts without a trailing `move-post` part (`gen::move_post`: no destination, no move
/// type), which records what happened after the chain (a promotion) and is not a step of it.
fn chain(m: &Move) -> &[Part] {
    match m.parts.split_last() {
        Some((last, rest)) if last.to.is_none() && last.move_type.is_none() && !rest.is_empty() => {
            rest
        }
        _ => &m.parts,
    }
}

/// Rewrites the moves of one position with the mark actions (see the module's comment).
pub fn mark(h: &Huffing, state: &State, moves: &mut [Move]) {
    let marked: Vec<Pos> = (0..state.cells().len())
        .map(|i| Pos(i as u16))
        .filter(|&p| state.get(p).is_some_and(|x| x.attr(h.mark)))
        .collect();
    let mut capable: Vec<Pos> = moves
        .iter()
        .filter(|m| is_capture(h, m))
        .filter_map(|m| m.parts.first().and_then(|p| p.from))
        .collect();
    capable.sort_unstable();
    capable.dedup();
    // Which captures stopped short of a continuation: decided on the list as generated.
    let stopped: Vec<bool> = moves
        .iter()
        .map(|m| {
            is_capture(h, m)
                && moves.iter().any(|o| {
                    chain(o).len() > chain(m).len()
                        && is_capture(h, o)
                        && chain(m).iter().zip(chain(o)).all(|(a, b)| same_part(a, b))
                })
        })
        .collect();
    for (m, stopped) in moves.iter_mut().zip(stopped) {
        if m.parts.is_empty() {
            continue;
        }
        let start = m.parts[0].from;
        let end = chain(m).last().and_then(|p| p.to);
        let clear = marked.iter().map(|&at| Action::SetAttribute {
            at,
            attr: h.mark,
            value: false,
        });
        m.parts[0].actions.splice(0..0, clear);
        let mut set = vec![];
        if !is_capture(h, m) {
            for &c in &capable {
                let at = if Some(c) == start { end } else { Some(c) };
                set.extend(at);
            }
        } else if stopped {
            set.extend(end);
        }
        let last = m.parts.last_mut().expect("a move with parts");
        last.actions
            .extend(set.into_iter().map(|at| Action::SetAttribute {
                at,
                attr: h.mark,
                value: true,
            }));
    }
}

/// The huff moves of the player to move (whose pieces are `owner`'s): for each marked piece of another
/// player, its removal followed by each move of `rest`, the moves of the position without it (found by
/// `moves_without`, already marked).
pub fn huffs(
    h: &Huffing,
    state: &State,
    owner: Player,
    mut moves_without: impl FnMut(&State) -> Result<Vec<Move>, EngineError>,
) -> Result<Vec<Move>, EngineError> {
    let mut out = vec![];
    for i in 0..state.cells().len() {
        let at = Pos(i as u16);
        let Some(x) = state.get(at) else { continue };
        if !x.attr(h.mark) || x.owner == owner || x.dead {
            continue;
        }
        let mut without = state.clone();
        without.set(at, None);
        for mut m in moves_without(&without)? {
            if m.is_pass() {
                continue;
            }
            m.parts.insert(
                0,
                Part {
                    actions: vec![Action::Capture { at }],
                    from: None,
                    to: None,
                    piece: x.kind,
                    move_type: None,
                },
            );
            out.push(m);
        }
    }
    Ok(out)
}
