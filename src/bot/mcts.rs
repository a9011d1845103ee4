//! Monte-Carlo tree search: UCT with uniformly random playouts.
//!
//! Rewards are per player, in [0, 1] (a win 1, a draw ½, a loss 0), and each node keeps the reward of the
//! player who moved into it, so the search plays games of any number of players. A random (`?`) player's node
//! is a chance node: its move is sampled uniformly instead of chosen. A playout that reaches `playout_plies`
//! is scored as a draw, or, with `eval_at_cap`, by the evaluation (a logistic of the player's score against
//! the others' mean). The move played is the most visited one (ties: the better mean, then the first).
//!
//! An iteration plays the moves from the root on one working state (nodes hold no position), lists a node's
//! moves once, when an iteration first goes through it, and rolls out from the new leaf with
//! [`Model::rollout`]: for the engine, the loops of `dagaz playout` (move buffers, make/unmake, the native
//! backends), with no owned move list or state copy per ply.
//!
//! The budget is a number of iterations, optionally a time (checked between iterations: a search overshoots it
//! by at most one rollout). All randomness comes from the bot's stream, so without a time limit the move depends
//! only on the position and that stream. The stream is drawn from differently than before the rollouts ran on
//! the fast loops (a rollout's first move was drawn from the leaf's listed moves, every later one from a whole
//! list): the same seed gives other searches than those earlier builds, as deterministic, for any `--jobs`.

use super::eval::{Evaluator, ValueCache, Weights};
use super::{relative, Bot, BotError, EngineModel, Model};
use crate::engine::playout::below;
use crate::engine::{Engine, EngineError, Move, State};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::time::{Duration, Instant};

/// The settings of an MCTS bot (the keys of its preset).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct MctsConfig {
    pub name: Option<String>,
    /// Iterations (selection, expansion, playout, backpropagation) per move.
    pub iterations: u64,
    /// Stop after this many milliseconds (makes the bot depend on the machine's speed).
    pub time_ms: Option<u64>,
    /// The UCT exploration constant c in `mean + c·sqrt(ln N / n)`.
    pub exploration: f64,
    /// A playout stops after this many plies.
    pub playout_plies: u32,
    /// Score a playout stopped by the cap with the evaluation instead of as a draw.
    pub eval_at_cap: bool,
    /// Evaluation weight of material (with `eval_at_cap`).
    pub material: f64,
    /// Evaluation weight of each legal move (with `eval_at_cap`).
    pub mobility: f64,
}

impl Default for MctsConfig {
    fn default() -> Self {
        let w = Weights::default();
        MctsConfig {
            name: None,
            iterations: 1000,
            time_ms: None,
            exploration: 1.0,
            playout_plies: 200,
            eval_at_cap: false,
            material: w.material,
            mobility: w.mobility,
        }
    }
}

/// The budget and settings of one search.
#[derive(Clone, Copy, Debug)]
pub struct Params {
    pub iterations: u64,
    pub time: Option<Duration>,
    pub exploration: f64,
    pub playout_plies: u32,
    pub eval_at_cap: bool,
}

impl From<&MctsConfig> for Params {
    fn from(c: &MctsConfig) -> Self {
        Params {
            iterations: c.iterations,
            time: c.time_ms.map(Duration::from_millis),
            exploration: c.exploration,
            playout_plies: c.playout_plies,
            eval_at_cap: c.eval_at_cap,
        }
    }
}

const NONE: u32 = u32::MAX;

/// A node of the tree. Nodes hold no position: an iteration plays the moves from the root on one working state.
/// A node's moves are listed once, when an iteration first goes through it (a leaf only rolled out from is never
/// listed).
struct Node<M: Model> {
    /// Whether `moves`, `children`, `untried` and `terminal` are known yet.
    listed: bool,
    moves: Vec<M::Move>,
    /// Per move: the child node, or `NONE` while unexpanded.
    children: Vec<u32>,
    /// Moves not expanded yet (decision nodes pick one at random).
    untried: Vec<u32>,
    /// Rewards of the game's end, when it is over here.
    terminal: Option<Vec<f64>>,
    player: usize,
    chance: bool,
    visits: u32,
    /// Sum of the rewards of the player who moved into this node.
    reward: f64,
}

/// What a search found.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    pub best: usize,
    pub iterations: u64,
    /// Visits and mean reward of each root move.
    pub visits: Vec<u32>,
    pub means: Vec<f64>,
}

struct Tree<'a, M: Model> {
    model: &'a M,
    root: M::State,
    nodes: Vec<Node<M>>,
    /// The game's earlier positions, then those on the current path.
    history: Vec<u64>,
    /// The nodes of the current iteration's path (reused).
    path: Vec<u32>,
    players: usize,
}

fn rewards_of(results: &[i8]) -> Vec<f64> {
    results.iter().map(|&r| (r as f64 + 1.0) / 2.0).collect()
}

impl<M: Model> Tree<'_, M> {
    /// A new node for the position `s`, not listed.
    fn new_node(&mut self, s: &M::State) -> u32 {
        self.nodes.push(Node {
            listed: false,
            moves: vec![],
            children: vec![],
            untried: vec![],
            terminal: None,
            player: self.model.to_move(s),
            chance: self.model.is_chance(s),
            visits: 0,
            reward: 0.0,
        });
        self.nodes.len() as u32 - 1
    }

    /// Lists node `id`, whose position is `s`: its moves (given at the root), and whether the game is over there.
    fn list(
        &mut self,
        id: u32,
        s: &M::State,
        moves: Option<Vec<M::Move>>,
    ) -> Result<(), EngineError> {
        let root = moves.is_some();
        let moves = match moves {
            Some(m) => m,
            None => self.model.legal_moves(s)?,
        };
        // The root is searched even if the history says the game is over: the caller asks for a move.
        let terminal = if root {
            None
        } else {
            self.model
                .outcome(s, &moves, &self.history)?
                .map(|r| rewards_of(&r))
        };
        let n = if terminal.is_some() { 0 } else { moves.len() };
        let node = &mut self.nodes[id as usize];
        node.listed = true;
        node.terminal = terminal;
        node.children = vec![NONE; n];
        node.untried = (0..n as u32).collect();
        node.moves = moves;
        Ok(())
    }

    fn uct_child(&self, n: &Node<M>, c: f64) -> usize {
        let ln = (n.visits.max(1) as f64).ln();
        let mut best = (0, f64::NEG_INFINITY);
        for (i, &ch) in n.children.iter().enumerate() {
            if ch == NONE {
                continue;
            }
            let k = &self.nodes[ch as usize];
            let v = k.visits.max(1) as f64;
            let u = k.reward / v + c * (ln / v).sqrt();
            if u > best.1 {
                best = (i, u);
            }
        }
        best.0
    }

    /// One iteration from the root: down the tree on one working state (a copy of the root's), a new leaf, a
    /// rollout from it, the rewards backed up.
    fn iterate(&mut self, p: &Params, rng: &mut ChaCha8Rng) -> Result<(), EngineError> {
        let base = self.history.len();
        let mut s = self.root.clone();
        self.path.clear();
        self.path.push(0);
        let mut at = 0u32;
        let rewards = loop {
            if !self.nodes[at as usize].listed {
                self.list(at, &s, None)?;
            }
            let n = &self.nodes[at as usize];
            if let Some(r) = &n.terminal {
                break r.clone();
            }
            if n.moves.is_empty() {
                // No move and no end condition: the engine's outcome always covers this; be safe.
                break vec![0.5; self.players];
            }
            let i = if n.chance {
                below(rng, n.moves.len())
            } else if !n.untried.is_empty() {
                let k = below(rng, n.untried.len());
                let node = &mut self.nodes[at as usize];
                node.untried.swap_remove(k) as usize
            } else {
                self.uct_child(n, p.exploration)
            };
            self.history.push(self.model.key(&s));
            self.model.play(&mut s, &self.nodes[at as usize].moves[i]);
            let child = self.nodes[at as usize].children[i];
            if child != NONE {
                at = child;
                self.path.push(at);
                continue;
            }
            let id = self.new_node(&s);
            let node = &mut self.nodes[at as usize];
            node.children[i] = id;
            if node.chance {
                node.untried.retain(|&u| u as usize != i);
            }
            self.path.push(id);
            break self.playout(s, p, rng)?;
        };
        self.history.truncate(base);
        // Each node holds the reward of the player who moved into it: its parent's player.
        self.nodes[self.path[0] as usize].visits += 1;
        for w in 1..self.path.len() {
            let mover = self.nodes[self.path[w - 1] as usize].player;
            let n = &mut self.nodes[self.path[w] as usize];
            n.visits += 1;
            n.reward += rewards.get(mover).copied().unwrap_or(0.5);
        }
        Ok(())
    }

    /// The rewards of a position where the game is not over and no more is played: draws, or with `eval_at_cap`
    /// the evaluation's.
    fn cap_rewards(&self, s: &M::State, p: &Params) -> Result<Vec<f64>, EngineError> {
        Ok(if p.eval_at_cap {
            let moves = self.model.legal_moves(s)?;
            let v = self.model.evaluate(s, &moves)?;
            (0..self.players)
                .map(|q| 1.0 / (1.0 + (-relative(self.model, &v, q)).exp()))
                .collect()
        } else {
            vec![0.5; self.players]
        })
    }

    /// The rewards of a random game from the new leaf `s` ([`Model::rollout`]), at most `playout_plies` long.
    fn playout(
        &mut self,
        mut s: M::State,
        p: &Params,
        rng: &mut ChaCha8Rng,
    ) -> Result<Vec<f64>, EngineError> {
        if p.playout_plies == 0 {
            let moves = self.model.legal_moves(&s)?;
            if let Some(r) = self.model.outcome(&s, &moves, &self.history)? {
                return Ok(rewards_of(&r));
            }
            return self.cap_rewards(&s, p);
        }
        match self
            .model
            .rollout(&mut s, &mut self.history, p.playout_plies, rng)?
        {
            Some(r) => Ok(rewards_of(&r)),
            None => self.cap_rewards(&s, p),
        }
    }
}

/// Searches `root` (whose legal moves are `moves`, not empty) and returns the chosen move's index.
pub fn search<M: Model>(
    model: &M,
    root: &M::State,
    moves: Vec<M::Move>,
    history: &[u64],
    p: &Params,
    rng: &mut ChaCha8Rng,
) -> Result<SearchResult, EngineError> {
    let n = moves.len();
    let deadline = p.time.map(|t| Instant::now() + t);
    let mut tree = Tree {
        model,
        root: root.clone(),
        nodes: Vec::with_capacity(p.iterations.min(1 << 20) as usize + 1),
        history: history.to_vec(),
        path: vec![],
        players: model.num_players(),
    };
    let root_id = tree.new_node(root);
    tree.list(root_id, root, Some(moves))?;
    if n == 1 {
        return Ok(SearchResult {
            best: 0,
            iterations: 0,
            visits: vec![0],
            means: vec![0.0],
        });
    }
    let mut it = 0;
    while it < p.iterations.max(1) {
        if it > 0 && deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        tree.iterate(p, rng)?;
        it += 1;
    }
    let r = &tree.nodes[root_id as usize];
    let (visits, means): (Vec<u32>, Vec<f64>) = r
        .children
        .iter()
        .map(|&c| {
            if c == NONE {
                (0, 0.0)
            } else {
                let k = &tree.nodes[c as usize];
                (k.visits, k.reward / k.visits.max(1) as f64)
            }
        })
        .unzip();
    let mut best = 0;
    for i in 1..n {
        if (visits[i], means[i]) > (visits[best], means[best]) {
            best = i;
        }
    }
    Ok(SearchResult {
        best,
        iterations: it,
        visits,
        means,
    })
}

/// An MCTS bot.
pub struct MctsBot {
    name: String,
    config: MctsConfig,
    values: ValueCache,
    /// What the last search found (for logs and tests).
    pub last: Option<SearchResult>,
}

impl MctsBot {
    pub fn new(name: impl Into<String>, config: MctsConfig) -> Self {
        MctsBot {
            name: name.into(),
            config,
            values: ValueCache::default(),
            last: None,
        }
    }
}

impl Bot for MctsBot {
    fn name(&self) -> &str {
        &self.name
    }

    fn last_nodes(&self) -> Option<u64> {
        self.last.as_ref().map(|r| r.iterations)
    }

    fn choose(
        &mut self,
        engine: &Engine,
        state: &State,
        moves: &[Move],
        history: &[u64],
        rng: &mut ChaCha8Rng,
    ) -> Result<usize, BotError> {
        super::check_moves(moves)?;
        if engine.is_chance(state) {
            return Ok(below(rng, moves.len()));
        }
        let c = &self.config;
        let weights = Weights {
            material: c.material,
            mobility: c.mobility,
        };
        // The piece values are estimated only when the evaluation is used.
        let values = if c.eval_at_cap {
            self.values.values(engine)
        } else {
            vec![1.0; engine.game.pieces.len()]
        };
        let model = EngineModel {
            engine,
            eval: Evaluator { values, weights },
        };
        let r = search(&model, state, moves.to_vec(), history, &c.into(), rng)?;
        let best = r.best;
        self.last = Some(r);
        Ok(best)
    }

    fn reset(&mut self) {
        self.values.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::testgames::*;
    use crate::engine::playout::game_rng;

    fn params(iterations: u64) -> Params {
        Params {
            iterations,
            time: None,
            exploration: 1.0,
            playout_plies: 100,
            eval_at_cap: false,
        }
    }

    fn run<M: Model>(model: &M, s: &M::State, p: Params, seed: u64) -> SearchResult {
        let moves = model.legal_moves(s).unwrap();
        search(model, s, moves, &[], &p, &mut game_rng(seed, 0)).unwrap()
    }

    #[test]
    fn nim_winning_moves_are_found() {
        let nim = Nim { max_take: 3 };
        for heap in [5u32, 6, 7, 9, 10, 11] {
            let s = NimState { heap, turn: 0 };
            let r = run(&nim, &s, params(3000), heap as u64);
            assert_eq!(r.best as u32 + 1, heap % 4, "heap {heap}: {r:?}");
        }
    }

    #[test]
    fn same_seed_same_search() {
        let a = run(&TicTacToe, &TttState::new(), params(500), 9);
        let b = run(&TicTacToe, &TttState::new(), params(500), 9);
        assert_eq!(a, b);
        assert_eq!(a.iterations, 500);
        assert_eq!(a.visits.iter().sum::<u32>(), 500);
    }

    #[test]
    fn tic_tac_toe_win_in_one_and_block() {
        let mut s = TttState::new();
        for (c, v) in [(0, 1), (1, 1), (3, 2), (4, 2)] {
            s.cells[c] = v;
        }
        let moves = TicTacToe.legal_moves(&s).unwrap();
        let r = run(&TicTacToe, &s, params(400), 1);
        assert_eq!(moves[r.best], 2, "{r:?}");
        s.cells = [1, 1, 0, 2, 0, 1, 0, 2, 0];
        s.turn = 1;
        let moves = TicTacToe.legal_moves(&s).unwrap();
        let r = run(&TicTacToe, &s, params(2000), 1);
        assert_eq!(moves[r.best], 2, "{r:?}");
    }

    #[test]
    fn three_players_with_a_die() {
        let race = Race {
            players: 3,
            goal: 10,
            dice: false,
        };
        let mut s = race.start();
        s.pos = vec![8, 9, 9];
        assert_eq!(run(&race, &s, params(200), 1).best, 1);
        // Player 1 (second) also prefers the longer step, its reward counted for it, not for player 0.
        let race = Race {
            players: 3,
            goal: 12,
            dice: true,
        };
        let mut s = race.start();
        s.turn = 2;
        s.pos = vec![6, 8, 6];
        assert_eq!(race.to_move(&s), 1);
        let r = run(&race, &s, params(3000), 4);
        assert_eq!(r.best, 1, "{r:?}");
    }

    #[test]
    fn eval_at_cap_scores_by_the_evaluation() {
        // Playouts of one ply: only the evaluation can tell the moves apart.
        let race = Race {
            players: 2,
            goal: 100,
            dice: false,
        };
        let p = Params {
            playout_plies: 0,
            eval_at_cap: true,
            ..params(200)
        };
        let r = run(&race, &race.start(), p, 3);
        assert_eq!(r.best, 1, "{r:?}");
        assert!(r.means[1] > r.means[0]);
    }
}
