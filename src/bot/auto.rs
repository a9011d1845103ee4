//! The `auto` bot: picks an agent and its settings from the game's features, measured once per game (after
//! each [`Bot::reset`]) from a few random games of its own fixed stream, so the choice is deterministic and
//! draws nothing from the game's stream.
//!
//! The features: the number of players (random players not counted), whether there is chance (a random
//! player), the mean branching factor and the mean length of [`SAMPLE_GAMES`] random games. The rules:
//!
//! * chance, or more than two players: MCTS (`solver`, `reuse`), which plays both as they are (chance nodes,
//!   rewards per player) where alpha-beta would be paranoid or average;
//! * two players, no chance, a mean branching factor of at most `ab_max_branching` (30): alpha-beta with
//!   `depth`, `nodes` and `time_ms` (deep search pays where the moves are few: Breakthrough, chess, draughts,
//!   Othello, Connect Four);
//! * two players, no chance, more moves than that (Go, Hex, Amazons): MCTS (`solver`, `reuse`) with
//!   `iterations` and `time_ms`.

use super::alphabeta::{AlphaBetaBot, AlphaBetaConfig};
use super::mcts::{MctsBot, MctsConfig};
use super::{Bot, BotError};
use crate::engine::playout::{game_rng, random_game_counting};
use crate::engine::{Engine, EngineError, Move, State};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// Random games played to measure a game's features.
pub const SAMPLE_GAMES: u32 = 8;
/// Their ply cap.
const SAMPLE_PLIES: u32 = 400;

/// The settings of the `auto` bot.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct AutoConfig {
    pub name: Option<String>,
    /// A clock (`tc=40/60+0.6`, moves/seconds+increment), kept by the tournament (see `tournament::clock`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tc: Option<String>,
    /// A fixed time per move, in seconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub st: Option<f64>,
    /// How far past its clock the bot may answer before its flag falls, in milliseconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timemargin: Option<u64>,
    /// MCTS's iterations per move, when MCTS is chosen.
    pub iterations: u64,
    /// Alpha-beta's depth, when alpha-beta is chosen.
    pub depth: u32,
    /// Alpha-beta's node budget per move, when alpha-beta is chosen.
    pub nodes: Option<u64>,
    /// A time budget per move for either agent (makes the bot depend on the machine's speed).
    pub time_ms: Option<u64>,
    /// The largest mean branching factor of a two-player game without chance that alpha-beta plays.
    pub ab_max_branching: f64,
}

impl Default for AutoConfig {
    fn default() -> Self {
        AutoConfig {
            name: None,
            tc: None,
            st: None,
            timemargin: None,
            iterations: 1000,
            depth: 4,
            nodes: None,
            time_ms: None,
            ab_max_branching: 30.0,
        }
    }
}

/// What the sample games showed.
#[derive(Clone, Debug, PartialEq)]
pub struct Features {
    /// Players with a stake (random players not counted).
    pub players: usize,
    pub chance: bool,
    /// Mean legal moves per position where a move was chosen.
    pub branching: f64,
    /// Mean plies per game (games cut at the cap count as that long).
    pub length: f64,
}

/// Plays [`SAMPLE_GAMES`] random games of `engine`'s game (a fixed stream) and measures its features.
pub fn features(engine: &Engine) -> Result<Features, EngineError> {
    let players = &engine.game.players;
    let mut rng = game_rng(0x0a07_0b07, 0);
    let (mut moves, mut plies) = (0u64, 0u64);
    for _ in 0..SAMPLE_GAMES {
        let r = random_game_counting(engine, &mut rng, SAMPLE_PLIES)?;
        moves += r.moves_seen.unwrap_or(0);
        plies += r.plies as u64;
    }
    Ok(Features {
        players: players.iter().filter(|p| !p.random).count(),
        chance: players.iter().any(|p| p.random),
        branching: moves as f64 / plies.max(1) as f64,
        length: plies as f64 / SAMPLE_GAMES as f64,
    })
}

/// The agent `auto` plays for a game of these features.
pub fn pick(c: &AutoConfig, f: &Features) -> super::BotSpec {
    if f.players == 2 && !f.chance && f.branching <= c.ab_max_branching {
        super::BotSpec::Alphabeta(AlphaBetaConfig {
            name: c.name.clone(),
            depth: c.depth,
            nodes: c.nodes,
            time_ms: c.time_ms,
            ..AlphaBetaConfig::default()
        })
    } else {
        super::BotSpec::Mcts(MctsConfig {
            name: c.name.clone(),
            iterations: c.iterations,
            time_ms: c.time_ms,
            solver: true,
            reuse: true,
            ..MctsConfig::default()
        })
    }
}

/// The `auto` bot: the agent [`pick`] chooses for the game, built at its first move of each game.
pub struct AutoBot {
    name: String,
    config: AutoConfig,
    inner: Option<Box<dyn Bot>>,
    /// The last game's features and the agent chosen (inline), for logs and tests.
    pub chosen: Option<(Features, String)>,
    /// The clocks for the next move, handed to the agent.
    clock: Option<super::ClockView>,
}

impl AutoBot {
    pub fn new(name: impl Into<String>, config: AutoConfig) -> Self {
        AutoBot {
            name: name.into(),
            config,
            inner: None,
            chosen: None,
            clock: None,
        }
    }
}

impl Bot for AutoBot {
    fn name(&self) -> &str {
        &self.name
    }

    fn choose(
        &mut self,
        engine: &Engine,
        state: &State,
        moves: &[Move],
        history: &[u64],
        rng: &mut ChaCha8Rng,
    ) -> Result<usize, BotError> {
        if self.inner.is_none() {
            let f = features(engine)?;
            let spec = pick(&self.config, &f);
            let bot: Box<dyn Bot> = match &spec {
                super::BotSpec::Alphabeta(c) => Box::new(AlphaBetaBot::new(&self.name, c.clone())),
                super::BotSpec::Mcts(c) => Box::new(MctsBot::new(&self.name, c.clone())),
                _ => unreachable!("auto picks alpha-beta or MCTS"),
            };
            self.chosen = Some((f, spec.inline()));
            self.inner = Some(bot);
        }
        let bot = self.inner.as_mut().expect("built above");
        if let Some(c) = self.clock.take() {
            bot.set_clock(&c);
        }
        bot.choose(engine, state, moves, history, rng)
    }

    fn set_clock(&mut self, clock: &super::ClockView) {
        self.clock = Some(clock.clone());
    }

    fn reset(&mut self) {
        self.inner = None;
    }

    fn note(&self) -> Option<String> {
        self.inner.as_ref().and_then(|b| b.note())
    }

    fn last_nodes(&self) -> Option<u64> {
        self.inner.as_ref().and_then(|b| b.last_nodes())
    }

    fn last_score(&self) -> Option<super::Score> {
        self.inner.as_ref().and_then(|b| b.last_score())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::testgames::{breakthrough, load_file};

    #[test]
    fn auto_picks_by_the_game_s_features() {
        let c = AutoConfig::default();
        let two = |branching| Features {
            players: 2,
            chance: false,
            branching,
            length: 60.0,
        };
        assert_eq!(pick(&c, &two(20.0)).kind(), "alphabeta");
        assert_eq!(pick(&c, &two(80.0)).kind(), "mcts");
        let dice = Features {
            chance: true,
            ..two(10.0)
        };
        assert_eq!(pick(&c, &dice).kind(), "mcts");
        let three = Features {
            players: 3,
            ..two(10.0)
        };
        assert_eq!(pick(&c, &three).kind(), "mcts");
        let super::super::BotSpec::Mcts(m) = pick(&c, &three) else {
            panic!()
        };
        assert!(m.solver && m.reuse);
    }

    #[test]
    fn auto_measures_breakthrough_and_plays_it() {
        let game = breakthrough(6);
        let engine = Engine::new(&game);
        let f = features(&engine).unwrap();
        assert_eq!((f.players, f.chance), (2, false));
        assert!(f.branching > 5.0 && f.branching < 30.0, "{f:?}");
        assert!(f.length > 10.0 && f.length < 100.0, "{f:?}");
        assert_eq!(features(&engine).unwrap(), f, "the same sample every time");
        let mut bot = AutoBot::new("auto", AutoConfig::default());
        let s = engine.initial();
        let moves = engine.legal_moves(&s).unwrap();
        let i = bot
            .choose(&engine, &s, &moves, &[], &mut game_rng(1, 0))
            .unwrap();
        assert!(i < moves.len());
        assert!(bot.chosen.as_ref().unwrap().1.starts_with("alphabeta"));
        bot.reset();
        assert!(bot.inner.is_none());
    }

    #[test]
    fn auto_plays_go_by_mcts() {
        let game = load_file("games/go-9x9.zrf");
        let engine = Engine::new(&game);
        let f = features(&engine).unwrap();
        assert!(f.branching > 30.0, "{f:?}");
        let mut bot = AutoBot::new(
            "auto",
            AutoConfig {
                iterations: 20,
                ..AutoConfig::default()
            },
        );
        let s = engine.initial();
        let moves = engine.legal_moves(&s).unwrap();
        bot.choose(&engine, &s, &moves, &[], &mut game_rng(1, 0))
            .unwrap();
        assert!(
            bot.chosen.as_ref().unwrap().1.starts_with("mcts"),
            "{:?}",
            bot.chosen
        );
    }
}
