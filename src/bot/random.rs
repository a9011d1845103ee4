//! The random bot: uniform over the legal moves, the baseline every other bot must beat.

use super::{Bot, BotError};
use crate::engine::playout::below;
use crate::engine::{Engine, Move, State};
use rand_chacha::ChaCha8Rng;

/// Plays a uniformly random legal move.
pub struct RandomBot {
    name: String,
}

impl RandomBot {
    pub fn new(name: impl Into<String>) -> Self {
        RandomBot { name: name.into() }
    }
}

impl Bot for RandomBot {
    fn name(&self) -> &str {
        &self.name
    }

    fn choose(
        &mut self,
        _: &Engine,
        _: &State,
        moves: &[Move],
        _: &[u64],
        rng: &mut ChaCha8Rng,
    ) -> Result<usize, BotError> {
        Ok(below(rng, moves.len()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::playout::game_rng;

    #[test]
    fn uniform_and_reproducible() {
        let game = crate::bot::testgames::bare_game();
        let engine = Engine::new(&game);
        let s = engine.initial();
        let moves = vec![Move::default(); 4];
        let mut bot = RandomBot::new("random");
        let picks = |seed| {
            let mut rng = game_rng(seed, 0);
            let mut b = RandomBot::new("random");
            (0..400)
                .map(|_| b.choose(&engine, &s, &moves, &[], &mut rng).unwrap())
                .collect::<Vec<_>>()
        };
        assert_eq!(picks(7), picks(7));
        assert_ne!(picks(7), picks(8));
        let mut counts = [0; 4];
        let mut rng = game_rng(1, 0);
        for _ in 0..4000 {
            counts[bot.choose(&engine, &s, &moves, &[], &mut rng).unwrap()] += 1;
        }
        assert!(
            counts.iter().all(|&c| (850..1150).contains(&c)),
            "{counts:?}"
        );
    }
}
