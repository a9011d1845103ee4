//! Invariants: `(invariant ...)` conditions every legal move must leave true for the player who made it, tested
//! on the position after the complete move (`docs/language.md`, Invariants). The attack test is the one behind
//! `checkmated` ([`gen::attacked_by`]: every enemy program is run against the square); allies (`(allies ...)`)
//! never attack each other.

use super::gen::{self, attacked_by, turn_of, ProgramIndex};
use super::{EngineError, Move, State};
use crate::compile::*;
use std::cell::Cell;

thread_local! {
    /// Set while `mates` generates the replies of the player who may be mated: inside, `mates` is false, so the
    /// replies' own tests do not recurse. A reply is then legal whether or not it would mate in turn, which is
    /// what escaping a mate asks (a reply that gets out of check is an escape whatever it threatens).
    static IN_MATE_TEST: Cell<bool> = const { Cell::new(false) };
}

/// Keeps the moves after which every invariant of the game holds for `player`.
#[allow(clippy::too_many_arguments)]
pub fn filter(
    game: &Game,
    index: &ProgramIndex,
    state: &State,
    player: Player,
    moves: Vec<Move>,
    royal: &[Vec<PieceType>],
    kings: &[PieceType],
) -> Result<Vec<Move>, EngineError> {
    // `(not-attacked T)` on its own is the `checkmated` rule: test it with the same cache (only the enemy
    // programs that read a square the move changed run again).
    let mut caches = Vec::with_capacity(game.invariants.len());
    for inv in &game.invariants {
        caches.push(match &inv.cond {
            InvCond::NotAttacked { types, all: false } if !index.general() => {
                super::legality::LegalityCache::build(game, state, player, types)?
            }
            _ => None,
        });
    }
    let mut keep = Vec::with_capacity(moves.len());
    'moves: for m in moves {
        if m.is_pass() {
            keep.push(m);
            continue;
        }
        let after = gen::apply_move(game, state, &m);
        for (inv, cache) in game.invariants.iter().zip(&caches) {
            let ok = match (cache, &inv.cond) {
                (Some(c), InvCond::NotAttacked { types, .. }) => {
                    !c.attacked_after(game, &after, &m, player, types)?
                }
                _ => holds(game, index, &inv.cond, &m, &after, player, royal, kings)?,
            };
            if !ok {
                continue 'moves;
            }
        }
        keep.push(m);
    }
    Ok(keep)
}

/// Whether the condition holds for `player`, who made `m`, reaching `after`.
#[allow(clippy::too_many_arguments)]
pub fn holds(
    game: &Game,
    index: &ProgramIndex,
    c: &InvCond,
    m: &Move,
    after: &State,
    player: Player,
    royal: &[Vec<PieceType>],
    kings: &[PieceType],
) -> Result<bool, EngineError> {
    Ok(match c {
        InvCond::NotAttacked { types, all } => {
            let mut any_safe = false;
            let mut any = false;
            for (i, x) in after.cells.iter().enumerate() {
                let Some(x) = x else { continue };
                if x.dead || x.owner != player || !types.contains(&x.kind) {
                    continue;
                }
                any = true;
                let attacked = attacked_by(game, after, Pos(i as u16), player, false, None)?;
                if attacked && !*all {
                    return Ok(false);
                }
                any_safe |= !attacked;
                if any_safe && *all {
                    return Ok(true);
                }
            }
            !*all || !any || any_safe
        }
        InvCond::Facing { types, dirs } => facing(game, after, player, types, dirs),
        InvCond::Moved(types) => m
            .parts
            .iter()
            .any(|p| p.from.is_some() && types.contains(&p.piece)),
        InvCond::Dropped(types) => m
            .parts
            .iter()
            .any(|p| p.from.is_none() && types.contains(&p.piece)),
        InvCond::Mates(r) => {
            if IN_MATE_TEST.with(Cell::get) {
                false
            } else {
                let next = turn_of(game, after).player;
                if !gen::royal_attacked(game, after, next, r)? {
                    false
                } else {
                    IN_MATE_TEST.with(|f| f.set(true));
                    // The replies the game allows: the modules' filters and ko included.
                    let replies = gen::complete_legal_moves(game, index, after, royal, kings);
                    IN_MATE_TEST.with(|f| f.set(false));
                    replies?.iter().all(Move::is_pass)
                }
            }
        }
        InvCond::And(cs) => {
            for c in cs {
                if !holds(game, index, c, m, after, player, royal, kings)? {
                    return Ok(false);
                }
            }
            true
        }
        InvCond::Or(cs) => {
            for c in cs {
                if holds(game, index, c, m, after, player, royal, kings)? {
                    return Ok(true);
                }
            }
            false
        }
        InvCond::Not(c) => !holds(game, index, c, m, after, player, royal, kings)?,
    })
}

/// Whether one of `player`'s pieces of `types` sees an enemy piece of `types` along one of `dirs`, with only
/// empty positions between.
fn facing(game: &Game, s: &State, player: Player, types: &[PieceType], dirs: &[Dir]) -> bool {
    for (i, x) in s.cells.iter().enumerate() {
        let Some(x) = x else { continue };
        if x.dead || x.owner != player || !types.contains(&x.kind) {
            continue;
        }
        for &d in dirs {
            let mut p = Pos(i as u16);
            while let Some(q) = game.board.step(player, p, d) {
                p = q;
                match s.get(q) {
                    Some(y) if !y.dead => {
                        if !game.same_team(y.owner, player) && types.contains(&y.kind) {
                            return true;
                        }
                        break;
                    }
                    _ => {}
                }
            }
        }
    }
    false
}
