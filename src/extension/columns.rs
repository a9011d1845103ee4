//! Column draughts played leg by leg, shared by the `stapeldammen` and `adiuh-checkers` modules.
//!
//! The corpus files of these games write each capture as one jump (`capture`, then `add`); their Dagaz
//! scripts turn the capture into the column rule (the jumped column's top goes under the capturing column)
//! and let the same player move the same column again while it can capture on, never straight back the way
//! it came. Here a whole turn is one move: the rules' single jumps are the first legs, each leg's `capture`
//! becomes `take-prisoner` (taken at once, so a column may be jumped again later in the same turn: loops are
//! allowed, and they end because every leg takes an enemy piece off the tops), and every continuation the
//! rules allow from the landing square is a further part. Every effect is an action of the move.

use crate::compile::*;
use crate::engine::gen::{apply_move, apply_part, legal_moves, ProgramIndex};
use crate::engine::state::mix;
use crate::engine::{Action, EngineError, Move, Part, State};

/// What distinguishes one game's legs from another's.
pub(super) struct LegRules {
    /// Piece types that capture at a distance (a king flies over empty squares to the enemy it takes).
    pub flying: Vec<PieceType>,
    /// Whether a capture that can go on is preferred, for the column that makes it, over its captures that
    /// cannot: for captures by any piece (`None`), or only by pieces of these types.
    pub prefer_continuing: Option<Vec<PieceType>>,
    /// `(king, man, zone)`: a king whose captures end outside the zone becomes a man again.
    pub demote: Option<(PieceType, PieceType, ZoneId)>,
}

/// The direction from `a` along which `b` lies (on the board's straight lines).
fn toward(game: &Game, player: Player, a: Pos, b: Pos) -> Option<Dir> {
    let n = game.board.positions.len();
    (0..game.board.directions.len())
        .map(|i| Dir(i as u16))
        .find(|&d| {
            let mut p = a;
            for _ in 0..n {
                match game.board.step(player, p, d) {
                    Some(q) if q == b => return true,
                    Some(q) => p = q,
                    None => return false,
                }
            }
            false
        })
}

/// Whether the column on `at` (of `player`) can capture along some direction other than the one back to
/// `came_from`: an enemy top next to it (or, for a flying piece, after empty squares) with an empty square
/// beyond.
fn can_capture(
    game: &Game,
    s: &State,
    player: Player,
    at: Pos,
    came_from: Pos,
    flying: bool,
) -> bool {
    let back = toward(game, player, at, came_from);
    (0..game.board.directions.len())
        .map(|i| Dir(i as u16))
        .any(|d| {
            if Some(d) == back {
                return false;
            }
            let mut p = game.board.step(player, at, d);
            if flying {
                while let Some(q) = p.filter(|&q| s.get(q).is_none()) {
                    p = game.board.step(player, q, d);
                }
            }
            let Some(over) = p else { return false };
            let enemy = s
                .get(over)
                .is_some_and(|x| !x.dead && !game.same_team(x.owner, player));
            enemy
                && game
                    .board
                    .step(player, over, d)
                    .is_some_and(|beyond| s.get(beyond).is_none())
        })
}

/// A part of the rules with every `capture` made `take-prisoner` onto the part's destination.
fn as_leg(part: &Part) -> Part {
    let mut p = part.clone();
    if let Some(to) = p.to {
        for a in &mut p.actions {
            if let Action::Capture { at } = *a {
                *a = Action::TakePrisoner { at, to };
            }
        }
    }
    p
}

fn takes(part: &Part) -> bool {
    part.actions
        .iter()
        .any(|a| matches!(a, Action::TakePrisoner { .. }))
}

struct Expander<'a> {
    game: &'a Game,
    /// The game's programs by move type, for the continuations' generation.
    index: ProgramIndex,
    rules: &'a LegRules,
    player: Player,
    out: Vec<Move>,
}

impl Expander<'_> {
    /// Plays one level of a turn: `cands` are the single parts the rules allow now (the first legs, or the
    /// continuations of the column on its landing square), `prefix` the legs made so far.
    fn level(
        &mut self,
        state: &State,
        cands: Vec<Part>,
        prefix: &mut Vec<Part>,
    ) -> Result<(), EngineError> {
        if prefix.len() > 512 {
            return Err(EngineError::Other(format!(
                "{}: a column's capture went past 512 legs",
                self.game.title
            )));
        }
        let (game, player) = (self.game, self.player);
        // Each candidate: the state after it, whether it goes on, whether it is preferred.
        let mut infos = Vec::with_capacity(cands.len());
        for c in cands {
            let mut after = state.clone();
            apply_part(game, &mut after, &c, false);
            let goes_on = match (takes(&c), c.from, c.to) {
                (true, Some(f), Some(t)) => after.get(t).is_some_and(|x| {
                    can_capture(
                        game,
                        &after,
                        player,
                        t,
                        f,
                        self.rules.flying.contains(&x.kind),
                    )
                }),
                _ => false,
            };
            let mover = c.from.and_then(|f| state.get(f)).map(|x| x.kind);
            let preferred = goes_on
                && match &self.rules.prefer_continuing {
                    None => true,
                    Some(types) => mover.is_some_and(|k| types.contains(&k)),
                };
            infos.push((c, after, goes_on, preferred, mover));
        }
        let preferred_from: Vec<Pos> = infos
            .iter()
            .filter(|i| i.3)
            .filter_map(|i| i.0.from)
            .collect();
        for (mut c, after, goes_on, preferred, mover) in infos {
            if !preferred && c.from.is_some_and(|f| preferred_from.contains(&f)) {
                continue;
            }
            let (Some(from), Some(to)) = (c.from, c.to) else {
                prefix.push(c);
                self.finish(prefix);
                prefix.pop();
                continue;
            };
            if goes_on {
                // The same column moves on from `to`, never back toward `from`.
                let back = toward(game, player, to, from);
                let next: Vec<Part> = legal_moves(game, &self.index, &after, &[], &[])?
                    .into_iter()
                    .filter(|m| m.parts.len() == 1 && m.parts[0].from == Some(to))
                    .filter(|m| {
                        let t = m.parts[0].to.unwrap_or(to);
                        back.is_none() || toward(game, player, to, t) != back
                    })
                    .map(|m| as_leg(&m.parts[0]))
                    .collect();
                prefix.push(c);
                if next.is_empty() {
                    self.finish(prefix);
                } else {
                    self.level(&after, next, prefix)?;
                }
                prefix.pop();
                continue;
            }
            if let Some((king, man, zone)) = self.rules.demote {
                if takes(&c) && mover == Some(king) && !game.board.in_zone(zone, player, to) {
                    c.actions.push(Action::ChangeType { at: to, kind: man });
                }
            }
            prefix.push(c);
            self.finish(prefix);
            prefix.pop();
        }
        Ok(())
    }

    fn finish(&mut self, parts: &[Part]) {
        self.out.push(Move {
            parts: parts.to_vec(),
        });
    }
}

/// Rewrites the rules' moves of `state` into whole turns of column draughts (see the module comment).
pub(super) fn expand(
    game: &Game,
    state: &State,
    rules: &LegRules,
    moves: &mut Vec<Move>,
) -> Result<(), EngineError> {
    let player = game.turn_order.entries[state.turn()].player;
    let mut singles = vec![];
    let mut others = vec![];
    for m in moves.drain(..) {
        if m.parts.len() == 1 {
            singles.push(as_leg(&m.parts[0]));
        } else {
            // A chain the rules built themselves (another variant of the file): its captures take prisoners.
            others.push(Move {
                parts: m.parts.iter().map(as_leg).collect(),
            });
        }
    }
    let mut x = Expander {
        game,
        index: ProgramIndex::new(game, false),
        rules,
        player,
        out: others,
    };
    x.level(state, singles, &mut vec![])?;
    // Two routes to one net effect are one move (the engine's convention).
    let mut seen = std::collections::HashSet::new();
    x.out.retain(|m| {
        let from = m
            .parts
            .first()
            .and_then(|p| p.from)
            .map_or(0, |f| f.0 as u64 + 1);
        seen.insert(apply_move(game, state, m).hash() ^ mix(from << 40))
    });
    *moves = x.out;
    Ok(())
}
