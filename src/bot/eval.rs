//! The generic evaluation both searches use: material plus mobility, per player.
//!
//! Material counts each piece at its value: the `(value N)` a game declares, else an estimate from how many
//! moves a piece of that type has alone on the board, averaged over (up to 64) positions and normalized so that
//! the cheapest estimated type is worth 1. Mobility is the number of legal moves a player would have if it were
//! to move. Both are weighted ([`Weights`]); a player's score is used against the others' mean.

use crate::compile::{Game, Player, Pos};
use crate::engine::state::initial_attrs;
use crate::engine::{Engine, EngineError, Move, Piece, State};
use serde::{Deserialize, Serialize};

/// Positions sampled per piece type when estimating values.
const SAMPLE_POSITIONS: usize = 64;

/// How much each term counts.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Weights {
    /// Per unit of piece value.
    pub material: f64,
    /// Per legal move. Zero skips generating the other players' moves.
    pub mobility: f64,
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            material: 1.0,
            mobility: 0.05,
        }
    }
}

/// Piece values of one game and the weights to combine them with mobility.
#[derive(Clone, Debug)]
pub struct Evaluator {
    /// Per piece type.
    pub values: Vec<f64>,
    pub weights: Weights,
    /// Piece-square terms added to each piece's value (`dagaz tune` fits them; none by default).
    pub squares: Option<std::sync::Arc<super::squares::SquareTable>>,
}

impl Evaluator {
    pub fn new(engine: &Engine, weights: Weights) -> Evaluator {
        Evaluator {
            values: piece_values(engine),
            weights,
            squares: None,
        }
    }

    /// Material per player: pieces on the board (with their piece-square terms) and in reserve.
    pub fn material(&self, game: &Game, s: &State) -> Vec<f64> {
        let mut m = vec![0.0; game.players.len()];
        match &self.squares {
            None => {
                for p in s.cells().iter().flatten() {
                    if !p.dead {
                        m[p.owner.idx()] += self.values[p.kind.idx()];
                    }
                }
            }
            Some(sq) => {
                for (i, c) in s.cells().iter().enumerate() {
                    if let Some(p) = c {
                        if !p.dead {
                            m[p.owner.idx()] +=
                                self.values[p.kind.idx()] + sq.value(p.owner, p.kind.idx(), i);
                        }
                    }
                }
            }
        }
        let np = game.pieces.len().max(1);
        for (slot, &n) in s.reserves().iter().enumerate() {
            if n > 0 && slot % np < self.values.len() {
                m[slot / np] += n as f64 * self.values[slot % np];
            }
        }
        m
    }

    /// Legal moves per player as if each were to move (`moves` are those of the player to move).
    pub fn mobility(
        &self,
        engine: &Engine,
        s: &State,
        moves: &[Move],
    ) -> Result<Vec<f64>, EngineError> {
        self.mobility_counted(engine, s, moves.len())
    }

    /// [`Evaluator::mobility`] given how many legal moves the player to move has: the others' are counted on the
    /// engine's fastest listing ([`Engine::count_legal`]), on one copy of the state.
    pub fn mobility_counted(
        &self,
        engine: &Engine,
        s: &State,
        moves: usize,
    ) -> Result<Vec<f64>, EngineError> {
        let game = engine.game;
        let mut mob = vec![0.0; game.players.len()];
        let mover = engine.to_move(s);
        let mut copy: Option<State> = None;
        for (q, info) in game.players.iter().enumerate() {
            if info.random {
                continue;
            }
            if q == mover.idx() {
                mob[q] = moves as f64;
            } else if let Some(turn) = next_turn_of(game, s.turn(), Player(q as u8)) {
                let t = copy.get_or_insert_with(|| s.clone());
                t.set_turn(turn);
                mob[q] = engine.count_legal(t)? as f64;
            }
        }
        Ok(mob)
    }

    /// The score of each player: weighted material plus weighted mobility.
    pub fn evaluate(
        &self,
        engine: &Engine,
        s: &State,
        moves: &[Move],
    ) -> Result<Vec<f64>, EngineError> {
        self.evaluate_counted(engine, s, moves.len())
    }

    /// [`Evaluator::evaluate`] given how many legal moves the player to move has.
    pub fn evaluate_counted(
        &self,
        engine: &Engine,
        s: &State,
        moves: usize,
    ) -> Result<Vec<f64>, EngineError> {
        let mut score = self.material(engine.game, s);
        for v in &mut score {
            *v *= self.weights.material;
        }
        if self.weights.mobility != 0.0 {
            for (v, m) in score
                .iter_mut()
                .zip(self.mobility_counted(engine, s, moves)?)
            {
                *v += self.weights.mobility * m;
            }
        }
        // An extension module that evaluates the game (`Extension::evaluate`) knows its representation better
        // than the generic count of pieces (a backgammon point is one piece holding many checkers): its value
        // replaces material and mobility for the players it gives one for.
        for m in engine.extension_hooks() {
            for (q, v) in score.iter_mut().enumerate() {
                if let Some(h) = m.evaluate(engine.game, s, Player(q as u8)) {
                    *v = self.weights.material * h;
                }
            }
        }
        Ok(score)
    }
}

/// The piece values of the last game seen, so that they are estimated once per game rather than once per move.
/// Keyed by the game's address and shape; [`Bot::reset`](super::Bot::reset) empties it.
#[derive(Clone, Debug, Default)]
pub struct ValueCache {
    key: Option<(usize, String, usize, usize)>,
    values: Vec<f64>,
}

impl ValueCache {
    pub fn values(&mut self, engine: &Engine) -> Vec<f64> {
        let g = engine.game;
        let key = (
            g as *const Game as usize,
            g.title.clone(),
            g.board.positions.len(),
            g.pieces.len(),
        );
        if self.key.as_ref() != Some(&key) {
            self.values = piece_values(engine);
            self.key = Some(key);
        }
        self.values.clone()
    }

    pub fn clear(&mut self) {
        self.key = None;
    }
}

/// The next entry of the turn order, after `turn`, at which `player` moves.
fn next_turn_of(game: &Game, turn: usize, player: Player) -> Option<usize> {
    let entries = &game.turn_order.entries;
    let mut t = turn;
    for _ in 0..=entries.len() {
        t += 1;
        if t >= entries.len() {
            t = game
                .turn_order
                .repeat_from
                .min(entries.len().saturating_sub(1));
        }
        if entries.get(t)?.player == player {
            return Some(t);
        }
    }
    None
}

/// The value of each piece type: declared, or estimated from its mobility alone on the board.
///
/// Estimates are put on the declared values' scale (times the declared values' sum over their types' estimated
/// sum); with nothing declared the cheapest type that moves is worth 1. A type that never moves alone (a stone,
/// a piece that only captures) is worth as much as the cheapest type.
pub fn piece_values(engine: &Engine) -> Vec<f64> {
    let game = engine.game;
    let est: Vec<f64> = (0..game.pieces.len())
        .map(|t| estimate_mobility(engine, t))
        .collect();
    let (mut declared, mut declared_est) = (0.0, 0.0);
    for (p, &e) in game.pieces.iter().zip(&est) {
        if let Some(v) = p.value {
            declared += v;
            declared_est += e;
        }
    }
    let cheapest_moving = est
        .iter()
        .copied()
        .filter(|&v| v > 0.0)
        .fold(f64::INFINITY, f64::min);
    let scale = if declared > 0.0 && declared_est > 0.0 {
        declared / declared_est
    } else if cheapest_moving.is_finite() {
        1.0 / cheapest_moving
    } else {
        1.0
    };
    let mut values: Vec<f64> = game
        .pieces
        .iter()
        .zip(&est)
        .map(|(p, &e)| p.value.unwrap_or(e * scale))
        .collect();
    let floor = values
        .iter()
        .copied()
        .filter(|&v| v > 0.0)
        .fold(f64::INFINITY, f64::min);
    let floor = if floor.is_finite() { floor } else { 1.0 };
    for (v, p) in values.iter_mut().zip(&game.pieces) {
        if p.value.is_none() && *v <= 0.0 {
            *v = floor;
        }
    }
    values
}

/// Mean number of moves of one piece of type `t` alone on the board, over sampled positions and the players
/// that move pieces.
fn estimate_mobility(engine: &Engine, t: usize) -> f64 {
    let game = engine.game;
    let mut empty = engine.initial();
    for i in 0..empty.cells().len() {
        empty.set(Pos(i as u16), None);
    }
    for slot in 0..empty.reserves().len() {
        empty.set_reserve(slot, 0);
    }
    // One turn entry per distinct (pieces moved, move type).
    let mut turns: Vec<usize> = vec![];
    for (i, e) in game.turn_order.entries.iter().enumerate() {
        if game.players[e.player.idx()].random {
            continue;
        }
        let dup = turns.iter().any(|&j| {
            let f = &game.turn_order.entries[j];
            f.moves_as == e.moves_as && f.move_type == e.move_type
        });
        if !dup {
            turns.push(i);
        }
    }
    let positions: Vec<usize> = (0..game.board.positions.len())
        .filter(|&i| !game.board.positions[i].dummy)
        .collect();
    if positions.is_empty() || turns.is_empty() {
        return 0.0;
    }
    let stride = positions.len().div_ceil(SAMPLE_POSITIONS);
    let kind = crate::compile::PieceType(t as u16);
    let attrs = initial_attrs(game, kind);
    let (mut total, mut samples) = (0usize, 0usize);
    for &turn in &turns {
        let owner = game.turn_order.entries[turn].moves_as;
        for &pos in positions.iter().step_by(stride) {
            let pos = Pos(pos as u16);
            let mut s = empty.clone();
            s.set_turn(turn);
            s.set(
                pos,
                Some(Piece {
                    kind,
                    owner,
                    attrs,
                    dead: false,
                }),
            );
            if let Ok(moves) = engine.legal_moves(&s) {
                total += moves
                    .iter()
                    .filter(|m| m.parts.first().and_then(|p| p.from) == Some(pos))
                    .count();
            }
            samples += 1;
        }
    }
    total as f64 / samples.max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::testgames::load_zrf;

    const TWO_PIECES: &str = r#"
(game (title "Two pieces") (players A B) (turn-order A B)
  (board (grid (dimensions ("a/b/c/d/e" (50 0)) ("5/4/3/2/1" (0 50)))
               (directions (n 0 -1) (e 1 0) (s 0 1) (w -1 0))))
  (piece (name Rook) (moves (n (while empty? add n)) (e (while empty? add e))
                            (s (while empty? add s)) (w (while empty? add w))))
  (piece (name Stepper) (moves (n (verify empty?) add)))
  (piece (name Stone))
  (board-setup (A (Rook a1) (Stepper b1)) (B (Stepper b5) (Stone c5)))
  (win-condition (A B) (pieces-remaining 0)))
"#;

    #[test]
    fn estimated_values_follow_mobility_and_the_cheapest_is_one() {
        let game = load_zrf("two-pieces", TWO_PIECES);
        let engine = Engine::new(&game);
        let v = piece_values(&engine);
        assert_eq!(v.len(), 3);
        assert!(
            v[0] > v[1],
            "the rook is worth more than the stepper: {v:?}"
        );
        assert_eq!(v[1], 1.0, "the stepper is the unit: {v:?}");
        assert_eq!(
            v[2], 1.0,
            "a piece that never moves is worth the unit: {v:?}"
        );
    }

    #[test]
    fn declared_values_win_over_estimates() {
        let text = TWO_PIECES.replace("(piece (name Stone))", "(piece (name Stone) (value 7))");
        let game = load_zrf("two-pieces", &text);
        let engine = Engine::new(&game);
        let v = piece_values(&engine);
        assert_eq!(v[2], 7.0);
        // The declared type never moves, so estimates cannot be scaled to it: the cheapest estimate is 1.
        assert_eq!(v[1], 1.0, "{v:?}");
        assert!(v[0] > 1.0);
        // A declared stepper sets the scale: the rook (8 moves anywhere) over the stepper (n: 0.8 on average).
        let text = TWO_PIECES.replace("(name Stepper)", "(name Stepper) (value 2)");
        let game = load_zrf("two-pieces", &text);
        let v = piece_values(&Engine::new(&game));
        assert_eq!(v[1], 2.0);
        assert!((v[0] - 2.0 * 8.0 / 0.8).abs() < 1e-9, "{v:?}");
        assert_eq!(v[2], 2.0, "the stone is worth the cheapest: {v:?}");
    }

    #[test]
    fn material_and_mobility_per_player() {
        let game = load_zrf("two-pieces", TWO_PIECES);
        let engine = Engine::new(&game);
        let ev = Evaluator::new(
            &engine,
            Weights {
                material: 1.0,
                mobility: 1.0,
            },
        );
        let s = engine.initial();
        let moves = engine.legal_moves(&s).unwrap();
        let mat = ev.material(&game, &s);
        assert_eq!(mat[1], 2.0, "B has a stepper and a stone");
        assert!(mat[0] > mat[1]);
        let mob = ev.mobility(&engine, &s, &moves).unwrap();
        assert_eq!(mob[0], moves.len() as f64);
        assert_eq!(
            mob[1], 0.0,
            "B's stepper at b5 cannot go north, its stone never moves"
        );
        let score = ev.evaluate(&engine, &s, &moves).unwrap();
        assert_eq!(score[0], mat[0] + mob[0]);
    }
}
