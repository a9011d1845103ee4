//! The `auto` bot: picks an agent and its settings from the game's features, measured once per game (after
//! each [`Bot::reset`]) from a few random games of its own fixed stream, so the choice is deterministic and
//! draws nothing from the game's stream.
//!
//! The features: the number of players (random players not counted), whether there is chance (a random
//! player), the mean branching factor and the mean length of [`SAMPLE_GAMES`] random games, the share of the
//! listed moves that are drops (a piece entering the board: placement games), and the share of the drops played
//! that change another square too (turn pieces over or capture: Othello's flips). The rules:
//!
//! * chance, or more than two players: MCTS (`solver`, `reuse`), which plays both as they are (chance nodes,
//!   rewards per player) where alpha-beta would be paranoid or average;
//! * two players, no chance, a mean branching factor of at most `ab_max_branching` (30): alpha-beta with
//!   `depth`, `nodes` and `time_ms` (deep search pays where the moves are few: Breakthrough, chess, draughts,
//!   Othello, Connect Four), unless `agent = "mcts"`;
//! * otherwise MCTS with `iterations` and `time_ms`, its settings by [`mcts_settings`]: the best of the pilots
//!   against plain UCT at equal time (BENCHMARKS.md) for games of the same features.

use super::alphabeta::{AlphaBetaBot, AlphaBetaConfig};
use super::mcts::{MctsBot, MctsConfig};
use super::{Bot, BotError};
use crate::engine::playout::{below, game_rng};
use crate::engine::{Action, Engine, EngineError, Move, State};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// Random games played to measure a game's features.
pub const SAMPLE_GAMES: u32 = 8;
/// Their ply cap.
const SAMPLE_PLIES: u32 = 400;

/// Which agents `auto` may pick.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Agent {
    /// Alpha-beta or MCTS, by the game's features.
    #[default]
    Any,
    /// MCTS always, its settings by the game's features.
    Mcts,
}

fn is_default<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}

/// A placement game (most listed moves are drops) of more moves than this a position is played with GRAVE's
/// reference threshold at 50 visits, of fewer at 20.
pub const GRAVE_MIN_BRANCHING: f64 = 30.0;

/// A game whose listed moves are drops at least this often is a placement game.
pub const PLACEMENT: f64 = 0.5;

/// A placement game whose drops change another square at least this often (flips, captures) is played with a
/// lower exploration constant.
pub const FLIPPING: f64 = 0.5;

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
    /// `any` (alpha-beta or MCTS) or `mcts` (MCTS always, with the settings the features call for).
    #[serde(skip_serializing_if = "is_default")]
    pub agent: Agent,
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
            agent: Agent::Any,
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
    /// The share of the listed moves, passes aside, that are drops (their first part enters a piece).
    pub drops: f64,
    /// The share of the drops played that change a square other than the one dropped on.
    pub flips: f64,
}

/// Whether a move's first part enters a piece (a drop).
fn is_drop(m: &Move) -> bool {
    m.parts.first().is_some_and(|p| p.from.is_none())
}

/// Whether a drop changes a square other than the one it lands on (a flip, a capture, a piece moved).
fn changes_another(m: &Move) -> bool {
    let Some(at) = m.parts.first().and_then(|p| p.to) else {
        return false;
    };
    m.parts.iter().flat_map(|p| &p.actions).any(|a| match *a {
        Action::Place { at: x, .. }
        | Action::Capture { at: x }
        | Action::ChangeOwner { at: x, .. }
        | Action::ChangeType { at: x, .. } => x != at,
        Action::Move { .. } | Action::MoveTop { .. } | Action::TakePrisoner { .. } => true,
        _ => false,
    })
}

/// Plays [`SAMPLE_GAMES`] random games of `engine`'s game (a fixed stream) and measures its features. The
/// games are `random_game_counting`'s (every position's moves listed, one drawn uniformly).
pub fn features(engine: &Engine) -> Result<Features, EngineError> {
    let players = &engine.game.players;
    let mut rng = game_rng(0x0a07_0b07, 0);
    let (mut moves, mut plies) = (0u64, 0u64);
    let (mut listed, mut drops, mut dropped, mut flips) = (0u64, 0u64, 0u64, 0u64);
    for _ in 0..SAMPLE_GAMES {
        let mut s = engine.initial();
        let mut history = vec![];
        loop {
            let legal = engine.legal_moves(&s)?;
            if engine.outcome(&s, &legal, &history)?.is_some() || s.ply() >= SAMPLE_PLIES {
                plies += s.ply() as u64;
                break;
            }
            moves += legal.len() as u64;
            for m in legal.iter().filter(|m| !m.is_pass()) {
                listed += 1;
                drops += is_drop(m) as u64;
            }
            history.push(s.key());
            let m = &legal[below(&mut rng, legal.len())];
            if is_drop(m) {
                dropped += 1;
                flips += changes_another(m) as u64;
            }
            engine.play(&mut s, m);
        }
    }
    Ok(Features {
        players: players.iter().filter(|p| !p.random).count(),
        chance: players.iter().any(|p| p.random),
        branching: moves as f64 / plies.max(1) as f64,
        length: plies as f64 / SAMPLE_GAMES as f64,
        drops: drops as f64 / listed.max(1) as f64,
        flips: flips as f64 / dropped.max(1) as f64,
    })
}

/// The MCTS settings `auto` plays a game of features `f` with (the budget aside), the best of the pilots
/// against plain UCT at equal time for games of those features (BENCHMARKS.md):
/// * chance or more than two players: `solver`, `reuse`;
/// * a placement game whose drops change other squares (Othello): `exploration` 0.5;
/// * another placement game: GRAVE, `solver`, `reuse`; `grave` 50 where there are more than
///   [`GRAVE_MIN_BRANCHING`] moves a position (Hex, Go), 20 where there are fewer (Connect Four);
/// * a game of moving pieces of at most `ab_max_branching` moves (Breakthrough, draughts, chess): `solver`,
///   `reuse`, `playout_cutoff` 20 (the preset `mcts-plus`);
/// * a game of moving pieces of more moves (Amazons): `solver`, `reuse`.
pub fn mcts_settings(c: &AutoConfig, f: &Features) -> MctsConfig {
    let base = MctsConfig {
        name: c.name.clone(),
        iterations: c.iterations,
        time_ms: c.time_ms,
        solver: true,
        reuse: true,
        ..MctsConfig::default()
    };
    if f.players != 2 || f.chance {
        return base;
    }
    if f.drops >= PLACEMENT {
        if f.flips >= FLIPPING {
            return MctsConfig {
                exploration: 0.5,
                solver: false,
                reuse: false,
                ..base
            };
        }
        let grave = if f.branching > GRAVE_MIN_BRANCHING {
            50
        } else {
            20
        };
        return MctsConfig { grave, ..base };
    }
    if f.branching <= c.ab_max_branching {
        return MctsConfig {
            playout_cutoff: 20,
            ..base
        };
    }
    base
}

/// The agent `auto` plays for a game of these features.
pub fn pick(c: &AutoConfig, f: &Features) -> super::BotSpec {
    if c.agent == Agent::Any && f.players == 2 && !f.chance && f.branching <= c.ab_max_branching {
        super::BotSpec::Alphabeta(AlphaBetaConfig {
            name: c.name.clone(),
            depth: c.depth,
            nodes: c.nodes,
            time_ms: c.time_ms,
            ..AlphaBetaConfig::default()
        })
    } else {
        super::BotSpec::Mcts(mcts_settings(c, f))
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
            drops: 0.0,
            flips: 0.0,
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
        // `agent = "mcts"`: MCTS where alpha-beta would play.
        let mcts = AutoConfig {
            agent: Agent::Mcts,
            ..AutoConfig::default()
        };
        assert_eq!(pick(&mcts, &two(20.0)).kind(), "mcts");
        assert_eq!(pick(&mcts, &two(80.0)).kind(), "mcts");
    }

    /// The MCTS settings of each kind of game, as `mcts_settings` documents them.
    #[test]
    fn auto_picks_the_mcts_settings_by_the_game_s_features() {
        let c = AutoConfig {
            agent: Agent::Mcts,
            iterations: 77,
            time_ms: Some(5),
            ..AutoConfig::default()
        };
        let game = |branching, drops, flips| Features {
            players: 2,
            chance: false,
            branching,
            length: 60.0,
            drops,
            flips,
        };
        let settings = |f: &Features| {
            let m = mcts_settings(&c, f);
            assert_eq!((m.iterations, m.time_ms), (77, Some(5)), "the budget");
            (m.grave, m.exploration, m.playout_cutoff, m.solver, m.reuse)
        };
        // Placement of many moves (Hex, Go): GRAVE.
        assert_eq!(settings(&game(100.0, 1.0, 0.1)), (50, 1.0, 0, true, true));
        // Placement whose drops turn pieces over (Othello), whatever the moves: exploration 0.5 alone.
        assert_eq!(settings(&game(10.0, 1.0, 1.0)), (0, 0.5, 0, false, false));
        assert_eq!(settings(&game(100.0, 0.9, 0.8)), (0, 0.5, 0, false, false));
        // Placement of few moves that change nothing else (Connect Four): GRAVE at 20 visits.
        assert_eq!(settings(&game(7.0, 1.0, 0.0)), (20, 1.0, 0, true, true));
        // Moving pieces (Breakthrough, draughts): playouts cut at 20 plies; many moves (Amazons): not.
        assert_eq!(settings(&game(25.0, 0.0, 0.0)), (0, 1.0, 20, true, true));
        assert_eq!(settings(&game(400.0, 0.0, 0.0)), (0, 1.0, 0, true, true));
        // Chance or three players: solver and reuse, whatever the rest.
        for f in [
            Features {
                chance: true,
                ..game(100.0, 1.0, 0.0)
            },
            Features {
                players: 3,
                ..game(25.0, 0.0, 0.0)
            },
        ] {
            assert_eq!(settings(&f), (0, 1.0, 0, true, true), "{f:?}");
        }
    }

    /// The features measured on the repository's games, and what `auto:agent=mcts` plays them with.
    #[test]
    fn auto_measures_placement_and_flips_in_the_games() {
        let c = AutoConfig {
            agent: Agent::Mcts,
            ..AutoConfig::default()
        };
        // (grave, exploration, playout_cutoff, solver)
        for (file, placement, flipping, settings) in [
            ("games/hex.zrf", true, false, (50, 1.0, 0, true)),
            ("games/go-9x9.zrf", true, false, (50, 1.0, 0, true)),
            ("games/othello.zrf", true, true, (0, 0.5, 0, false)),
            ("games/connect-four.zrf", true, false, (20, 1.0, 0, true)),
            ("games/breakthrough.zrf", false, false, (0, 1.0, 20, true)),
            (
                "games/english-checkers.zrf",
                false,
                false,
                (0, 1.0, 20, true),
            ),
        ] {
            let game = load_file(file);
            let engine = Engine::new(&game);
            let f = features(&engine).unwrap();
            assert_eq!(f.drops >= PLACEMENT, placement, "{file}: {f:?}");
            if placement {
                assert!(f.drops > 0.99, "{file}: every move a drop: {f:?}");
                assert_eq!(f.flips >= FLIPPING, flipping, "{file}: {f:?}");
            } else {
                assert_eq!(f.drops, 0.0, "{file}: {f:?}");
            }
            let super::super::BotSpec::Mcts(m) = pick(&c, &f) else {
                panic!("{file}: MCTS with agent = mcts")
            };
            let got = (m.grave, m.exploration, m.playout_cutoff, m.solver);
            assert_eq!(got, settings, "{file}: {f:?}");
        }
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
