//! Monte-Carlo tree search: UCT with random playouts, and its enhancements (each off by default).
//!
//! Rewards are per player, in [0, 1] (a win 1, a draw ½, a loss 0), and each node keeps the reward of the
//! player who moved into it, so the search plays games of any number of players. A random (`?`) player's node
//! is a chance node: its move is sampled uniformly instead of chosen. A playout that reaches `playout_plies`
//! is scored as a draw, or, with `eval_at_cap`, by the evaluation (a logistic of the player's score against
//! the others' mean). The move played is the most visited one (`final = "robust"`, ties: the better mean, then
//! the first), or with `final = "max"` the one of the best mean (ties: more visits, then the first).
//!
//! An iteration plays the moves from the root on one working state (nodes hold no position), lists a node's
//! moves once, when an iteration first goes through it, and rolls out from the new leaf with
//! [`Model::rollout`]: for the engine, the loops of `dagaz playout` (move buffers, make/unmake, the native
//! backends), with no owned move list or state copy per ply.
//!
//! Enhancements:
//! * `solver`: MCTS-Solver. A position where the game is over is proven (its rewards); a decision node is proven
//!   when a child is proven a win for its player, or when every move is expanded and proven (then the best of
//!   them for its player); a chance node when every outcome is expanded and proven the same. Iterations stop at
//!   proven nodes and back up their rewards; selection skips children proven lost for the node's player; the
//!   search ends when the root is proven. The move played is a proven win if there is one, never a proven loss
//!   while another move is not one. A new leaf is listed at once (to see whether the game is over there).
//! * `reuse`: the tree of the bot's last search in the game is kept; the next search starts from the subtree of
//!   the position reached (found by the positions' keys along the moves played since), with its visits.
//!   [`crate::bot::Bot::reset`] drops it.
//! * `rollout = "mast"`: Move-Average Sampling. Every move played in an iteration (in the tree and in the
//!   rollout) adds the iteration's reward of its player to its move's statistics, the move named by
//!   [`Model::move_id`] (the same move in any position) and its player. Rollouts list each position's moves and
//!   pick the move of the best average with probability 1 − `mast_epsilon` (else uniformly; a move never seen
//!   counts as a win so that it gets tried), or with `mast_tau` by Gibbs sampling (probability ∝
//!   exp(average / τ)). The statistics last one search (or the game, with `reuse`). Owned move lists per ply:
//!   slower per rollout than the fast loops.
//!
//! The budget is a number of iterations, optionally a time (checked between iterations: a search overshoots it
//! by at most one rollout). All randomness comes from the bot's stream, so without a time limit the move depends
//! only on the position, that stream (and with `reuse`, the bot's earlier searches in the game). The stream is
//! drawn from differently than before the rollouts ran on the fast loops (a rollout's first move was drawn from
//! the leaf's listed moves, every later one from a whole list): the same seed gives other searches than those
//! earlier builds, as deterministic, for any `--jobs`.

use super::eval::{Evaluator, ValueCache, Weights};
use super::{relative, Bot, BotError, EngineModel, Model};
use crate::engine::playout::below;
use crate::engine::{Engine, EngineError, Move, State};
use rand_chacha::ChaCha8Rng;
use rand_core::RngCore;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// How the move to play is chosen from the root's children.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FinalMove {
    /// The most visited child (ties: the better mean).
    #[default]
    Robust,
    /// The child of the best mean reward (ties: more visits).
    Max,
}

/// How rollouts pick their moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RolloutPolicy {
    /// Uniformly at random, on the fast playout loops.
    #[default]
    Random,
    /// Move-Average Sampling (see the module's documentation).
    Mast,
}

fn is_default<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}

const MAST_EPSILON: f64 = 0.1;

fn default_mast_epsilon() -> f64 {
    MAST_EPSILON
}

fn is_default_mast_epsilon(v: &f64) -> bool {
    *v == MAST_EPSILON
}

/// The settings of an MCTS bot (the keys of its preset). The enhancements' keys are left out of a preset's
/// inline form while they hold their defaults.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct MctsConfig {
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
    /// MCTS-Solver: proven wins and losses propagate and decide the move.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub solver: bool,
    /// The move played: the most visited child (`robust`) or the best mean (`max`).
    #[serde(rename = "final", skip_serializing_if = "is_default")]
    pub final_move: FinalMove,
    /// Keep the subtree of the position reached between the bot's moves in a game.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub reuse: bool,
    /// The rollout policy: `random` or `mast`.
    #[serde(skip_serializing_if = "is_default")]
    pub rollout: RolloutPolicy,
    /// MAST's ε: the chance of a uniformly random rollout move.
    #[serde(
        default = "default_mast_epsilon",
        skip_serializing_if = "is_default_mast_epsilon"
    )]
    pub mast_epsilon: f64,
    /// MAST by Gibbs sampling at this temperature instead of ε-greedy.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mast_tau: Option<f64>,
}

impl Default for MctsConfig {
    fn default() -> Self {
        let w = Weights::default();
        MctsConfig {
            name: None,
            tc: None,
            st: None,
            timemargin: None,
            iterations: 1000,
            time_ms: None,
            exploration: 1.0,
            playout_plies: 200,
            eval_at_cap: false,
            material: w.material,
            mobility: w.mobility,
            solver: false,
            final_move: FinalMove::Robust,
            reuse: false,
            rollout: RolloutPolicy::Random,
            mast_epsilon: MAST_EPSILON,
            mast_tau: None,
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
    pub solver: bool,
    pub final_move: FinalMove,
    pub rollout: RolloutPolicy,
    pub mast_epsilon: f64,
    pub mast_tau: Option<f64>,
}

impl Params {
    /// Plain UCT with random rollouts: today's defaults but the budget.
    pub fn plain(iterations: u64) -> Params {
        (&MctsConfig {
            iterations,
            ..MctsConfig::default()
        })
            .into()
    }
}

impl From<&MctsConfig> for Params {
    fn from(c: &MctsConfig) -> Self {
        Params {
            iterations: c.iterations,
            time: c.time_ms.map(Duration::from_millis),
            exploration: c.exploration,
            playout_plies: c.playout_plies,
            eval_at_cap: c.eval_at_cap,
            solver: c.solver,
            final_move: c.final_move,
            rollout: c.rollout,
            mast_epsilon: c.mast_epsilon,
            mast_tau: c.mast_tau,
        }
    }
}

const NONE: u32 = u32::MAX;

/// A uniform number in [0, 1).
fn unit(rng: &mut ChaCha8Rng) -> f64 {
    (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

/// A node of the tree. Nodes hold no position: an iteration plays the moves from the root on one working state.
/// A node's moves are listed once, when an iteration first goes through it (a leaf only rolled out from is never
/// listed, but with the solver).
pub struct Node<Mv> {
    /// Whether `moves`, `children`, `untried` and `terminal` are known yet.
    listed: bool,
    moves: Vec<Mv>,
    /// Per move: the child node, or `NONE` while unexpanded.
    children: Vec<u32>,
    /// Moves not expanded yet (decision nodes pick one at random).
    untried: Vec<u32>,
    /// Rewards of the game's end, when it is over here.
    terminal: Option<Vec<f64>>,
    /// With the solver: the rewards the position is proven to have with best play.
    proven: Option<Vec<f64>>,
    player: usize,
    chance: bool,
    visits: u32,
    /// Sum of the rewards of the player who moved into this node.
    reward: f64,
}

impl<Mv> Node<Mv> {
    fn empty() -> Self {
        Node {
            listed: false,
            moves: vec![],
            children: vec![],
            untried: vec![],
            terminal: None,
            proven: None,
            player: 0,
            chance: false,
            visits: 0,
            reward: 0.0,
        }
    }
}

/// What a search found.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    pub best: usize,
    pub iterations: u64,
    /// Visits and mean reward of each root move.
    pub visits: Vec<u32>,
    pub means: Vec<f64>,
    /// With the solver: the root moves' proven rewards for the player to move.
    pub proven: Vec<Option<f64>>,
    /// The root's visits kept from the bot's last search (`reuse`).
    pub reused: u32,
}

/// A search's tree kept for the next one (`reuse`): its nodes, its root and the game's history there.
pub struct Saved<S, Mv> {
    nodes: Vec<Node<Mv>>,
    root_id: u32,
    root: S,
    history: Vec<u64>,
    mast: Option<Mast>,
}

/// MAST's statistics: per (move identity, player), the sum of rewards and the count.
#[derive(Default)]
pub struct Mast {
    table: HashMap<u64, (f64, u32)>,
    /// The (key, player) of the moves of the current iteration.
    played: Vec<(u64, usize)>,
    /// Scratch: the Gibbs weights of one position's moves.
    weights: Vec<f64>,
}

impl Mast {
    fn key(id: u64, player: usize) -> u64 {
        crate::engine::state::mix(id ^ (player as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15))
    }

    /// The average reward of a move for its player (a move never seen: 1, so that it is tried).
    pub fn average(&self, id: u64, player: usize) -> f64 {
        match self.table.get(&Self::key(id, player)) {
            Some(&(sum, n)) if n > 0 => sum / n as f64,
            _ => 1.0,
        }
    }

    /// Records the iteration's rewards for its moves and forgets them.
    fn update(&mut self, rewards: &[f64]) {
        for &(k, pl) in &self.played {
            let e = self.table.entry(k).or_insert((0.0, 0));
            e.0 += rewards.get(pl).copied().unwrap_or(0.5);
            e.1 += 1;
        }
        self.played.clear();
    }

    /// Adds a move's result directly (for tests and seeding).
    pub fn record(&mut self, id: u64, player: usize, reward: f64) {
        let e = self.table.entry(Self::key(id, player)).or_insert((0.0, 0));
        e.0 += reward;
        e.1 += 1;
    }

    /// Picks one of `moves` for `player`: ε-greedy on the averages (ties at random), or Gibbs with `tau`.
    pub fn pick<M: Model>(
        &mut self,
        model: &M,
        moves: &[M::Move],
        player: usize,
        epsilon: f64,
        tau: Option<f64>,
        rng: &mut ChaCha8Rng,
    ) -> usize {
        let ids = |i: usize| model.move_id(&moves[i]);
        if let Some(tau) = tau {
            self.weights.clear();
            let mut total = 0.0;
            for i in 0..moves.len() {
                let w = match ids(i) {
                    Some(id) => (self.average(id, player) / tau).exp(),
                    None => 1.0,
                };
                total += w;
                self.weights.push(w);
            }
            let mut x = unit(rng) * total;
            for (i, &w) in self.weights.iter().enumerate() {
                if x < w {
                    return i;
                }
                x -= w;
            }
            return moves.len() - 1;
        }
        if epsilon > 0.0 && unit(rng) < epsilon {
            return below(rng, moves.len());
        }
        let (mut best, mut best_v, mut ties) = (0, f64::NEG_INFINITY, 0u32);
        for i in 0..moves.len() {
            let v = ids(i).map_or(0.5, |id| self.average(id, player));
            if v > best_v {
                (best, best_v, ties) = (i, v, 1);
            } else if v == best_v {
                ties += 1;
                if below(rng, ties as usize) == 0 {
                    best = i;
                }
            }
        }
        best
    }
}

struct Tree<'a, M: Model> {
    model: &'a M,
    root: M::State,
    root_id: u32,
    nodes: Vec<Node<M::Move>>,
    /// The game's earlier positions, then those on the current path.
    history: Vec<u64>,
    /// The nodes of the current iteration's path (reused).
    path: Vec<u32>,
    players: usize,
    mast: Option<Mast>,
}

fn rewards_of(results: &[i8]) -> Vec<f64> {
    results.iter().map(|&r| (r as f64 + 1.0) / 2.0).collect()
}

impl<M: Model> Tree<'_, M> {
    /// A new node for the position `s`, not listed.
    fn new_node(&mut self, s: &M::State) -> u32 {
        self.nodes.push(Node {
            player: self.model.to_move(s),
            chance: self.model.is_chance(s),
            ..Node::empty()
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
        node.proven = terminal.clone();
        node.terminal = terminal;
        node.children = vec![NONE; n];
        node.untried = (0..n as u32).collect();
        node.moves = moves;
        Ok(())
    }

    fn uct_child(&self, n: &Node<M::Move>, c: f64, solver: bool) -> usize {
        let ln = (n.visits.max(1) as f64).ln();
        let mut best = (usize::MAX, f64::NEG_INFINITY);
        let mut fallback = 0;
        for (i, &ch) in n.children.iter().enumerate() {
            if ch == NONE {
                continue;
            }
            let k = &self.nodes[ch as usize];
            let v = k.visits.max(1) as f64;
            let mut mean = k.reward / v;
            if solver {
                if let Some(r) = &k.proven {
                    let mine = r.get(n.player).copied().unwrap_or(0.5);
                    if mine <= 0.0 {
                        // Proven lost for the player to move: never worth another iteration.
                        fallback = i;
                        continue;
                    }
                    mean = mine;
                }
            }
            let u = mean + c * (ln / v).sqrt();
            if u > best.1 {
                best = (i, u);
            }
        }
        if best.0 == usize::MAX {
            fallback
        } else {
            best.0
        }
    }

    /// With the solver: whether node `id` is proven now (it was not); sets its proven rewards.
    fn prove(&mut self, id: u32) -> bool {
        let n = &self.nodes[id as usize];
        if !n.listed || n.proven.is_some() || n.children.is_empty() {
            return false;
        }
        let all_expanded = if n.chance {
            n.children.iter().all(|&c| c != NONE)
        } else {
            n.untried.is_empty()
        };
        let mut best: Option<&Vec<f64>> = None;
        let mut all = all_expanded;
        for &c in &n.children {
            let Some(r) = (c != NONE)
                .then(|| self.nodes[c as usize].proven.as_ref())
                .flatten()
            else {
                all = false;
                continue;
            };
            if n.chance {
                if best.is_some_and(|b| b != r) {
                    return false;
                }
                best = Some(r);
                continue;
            }
            let mine = r.get(n.player).copied().unwrap_or(0.5);
            if mine >= 1.0 {
                best = Some(r);
                all = true;
                break;
            }
            if best.is_none_or(|b| mine > b.get(n.player).copied().unwrap_or(0.5)) {
                best = Some(r);
            }
        }
        if !all {
            return false;
        }
        let Some(r) = best.cloned() else {
            return false;
        };
        self.nodes[id as usize].proven = Some(r);
        true
    }

    /// One iteration from the root: down the tree on one working state (a copy of the root's), a new leaf, a
    /// rollout from it, the rewards backed up.
    fn iterate(&mut self, p: &Params, rng: &mut ChaCha8Rng) -> Result<(), EngineError> {
        let base = self.history.len();
        let mut s = self.root.clone();
        self.path.clear();
        self.path.push(self.root_id);
        let mut at = self.root_id;
        let rewards = loop {
            if !self.nodes[at as usize].listed {
                self.list(at, &s, None)?;
            }
            let n = &self.nodes[at as usize];
            if let Some(r) = &n.terminal {
                break r.clone();
            }
            if p.solver && at != self.root_id {
                if let Some(r) = &n.proven {
                    break r.clone();
                }
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
                self.uct_child(n, p.exploration, p.solver)
            };
            let n = &self.nodes[at as usize];
            if let Some(mast) = &mut self.mast {
                if !n.chance {
                    if let Some(id) = self.model.move_id(&n.moves[i]) {
                        mast.played.push((Mast::key(id, n.player), n.player));
                    }
                }
            }
            self.history.push(self.model.key(&s));
            self.model.play(&mut s, &n.moves[i]);
            let child = n.children[i];
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
            if p.solver {
                self.list(id, &s, None)?;
                if let Some(r) = &self.nodes[id as usize].terminal {
                    break r.clone();
                }
            }
            break self.playout(s, p, rng)?;
        };
        self.history.truncate(base);
        if let Some(mast) = &mut self.mast {
            mast.update(&rewards);
        }
        // Each node holds the reward of the player who moved into it: its parent's player.
        self.nodes[self.path[0] as usize].visits += 1;
        for w in 1..self.path.len() {
            let mover = self.nodes[self.path[w - 1] as usize].player;
            let n = &mut self.nodes[self.path[w] as usize];
            n.visits += 1;
            n.reward += rewards.get(mover).copied().unwrap_or(0.5);
        }
        if p.solver {
            let last = *self.path.last().expect("the path holds the root");
            if self.nodes[last as usize].proven.is_some() {
                for w in (0..self.path.len() - 1).rev() {
                    if !self.prove(self.path[w]) {
                        break;
                    }
                }
            }
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

    /// The rewards of a game from the new leaf `s`, at most `playout_plies` long: random ([`Model::rollout`]) or
    /// by MAST.
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
        let r = if let Some(mast) = &mut self.mast {
            mast_rollout(self.model, mast, &mut s, &mut self.history, p, rng)?
        } else {
            self.model
                .rollout(&mut s, &mut self.history, p.playout_plies, rng)?
        };
        match r {
            Some(r) => Ok(rewards_of(&r)),
            None => self.cap_rewards(&s, p),
        }
    }
}

/// A rollout by MAST's policy (chance moves uniform), as [`Model::rollout`] otherwise; records its moves in
/// `mast.played`.
fn mast_rollout<M: Model>(
    model: &M,
    mast: &mut Mast,
    s: &mut M::State,
    history: &mut Vec<u64>,
    p: &Params,
    rng: &mut ChaCha8Rng,
) -> Result<Option<Vec<i8>>, EngineError> {
    let mut played = 0;
    loop {
        let moves = model.legal_moves(s)?;
        if let Some(r) = model.outcome(s, &moves, history)? {
            return Ok(Some(r));
        }
        if played >= p.playout_plies || moves.is_empty() {
            return Ok(None);
        }
        let i = if model.is_chance(s) {
            below(rng, moves.len())
        } else {
            let player = model.to_move(s);
            let i = mast.pick(model, &moves, player, p.mast_epsilon, p.mast_tau, rng);
            if let Some(id) = model.move_id(&moves[i]) {
                mast.played.push((Mast::key(id, player), player));
            }
            i
        };
        history.push(model.key(s));
        model.play(s, &moves[i]);
        played += 1;
    }
}

/// A subtree kept for a new search, and MAST's statistics.
type Kept<Mv> = (Vec<Node<Mv>>, Option<Mast>);

/// The subtree of `saved` at the position `root` reached since (its history `history`), compacted, if the game
/// went there from the saved root; the saved tree is consumed.
fn subtree<M: Model>(
    model: &M,
    saved: Saved<M::State, M::Move>,
    root: &M::State,
    history: &[u64],
) -> Option<Kept<M::Move>> {
    let Saved {
        mut nodes,
        root_id,
        root: old,
        history: old_history,
        mast,
    } = saved;
    let k = old_history.len();
    if history.len() < k || history[..k] != old_history[..] {
        return None;
    }
    // The keys of the positions after the saved root, up to the new one.
    let mut targets: Vec<u64> = vec![];
    if history.len() == k {
        if model.key(root) != model.key(&old) {
            return None;
        }
    } else {
        if history[k] != model.key(&old) {
            return None;
        }
        targets.extend_from_slice(&history[k + 1..]);
        targets.push(model.key(root));
    }
    let mut s = old;
    let mut at = root_id;
    for t in targets {
        let n = &nodes[at as usize];
        let found = n.children.iter().enumerate().find_map(|(i, &c)| {
            if c == NONE {
                return None;
            }
            let next = model.apply(&s, &n.moves[i]);
            (model.key(&next) == t).then_some((c, next))
        });
        let (c, next) = found?;
        at = c;
        s = next;
    }
    // Copy the subtree out, breadth first, renumbering its nodes.
    let mut out: Vec<Node<M::Move>> = vec![];
    let mut queue = std::collections::VecDeque::from([at]);
    let mut map: HashMap<u32, u32> = HashMap::new();
    map.insert(at, 0);
    while let Some(old_id) = queue.pop_front() {
        let mut n = std::mem::replace(&mut nodes[old_id as usize], Node::empty());
        for c in n.children.iter_mut() {
            if *c != NONE {
                let new = (map.len()) as u32;
                map.insert(*c, new);
                queue.push_back(*c);
                *c = new;
            }
        }
        out.push(n);
    }
    Some((out, mast))
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
    search_reusing(model, root, moves, history, p, rng, None)
}

/// [`search`], starting from the subtree of the position in `saved`'s tree (if the game went from there to
/// `root`) and leaving its own tree there, when `saved` is given.
pub fn search_reusing<M: Model>(
    model: &M,
    root: &M::State,
    moves: Vec<M::Move>,
    history: &[u64],
    p: &Params,
    rng: &mut ChaCha8Rng,
    saved: Option<&mut Option<Saved<M::State, M::Move>>>,
) -> Result<SearchResult, EngineError> {
    let n = moves.len();
    let deadline = p.time.map(|t| Instant::now() + t);
    let mut reused = None;
    let mut saved = saved;
    if let Some(slot) = saved.as_deref_mut() {
        if let Some(sv) = slot.take() {
            reused = subtree(model, sv, root, history);
        }
    }
    let mast = match p.rollout {
        RolloutPolicy::Random => None,
        RolloutPolicy::Mast => Some(reused.as_mut().and_then(|r| r.1.take()).unwrap_or_default()),
    };
    let mut tree = Tree {
        model,
        root: root.clone(),
        root_id: 0,
        nodes: vec![],
        history: history.to_vec(),
        path: vec![],
        players: model.num_players(),
        mast,
    };
    match reused {
        Some((nodes, _))
            if nodes[0].listed && nodes[0].terminal.is_none() && nodes[0].moves.len() == n =>
        {
            tree.nodes = nodes;
            // The given moves are the same as the node's (listed by the same function).
            tree.nodes[0].moves = moves;
        }
        _ => {
            tree.nodes = Vec::with_capacity(p.iterations.min(1 << 20) as usize + 1);
            let root_id = tree.new_node(root);
            tree.list(root_id, root, Some(moves))?;
        }
    }
    let reused_visits = tree.nodes[0].visits;
    if n == 1 {
        return Ok(SearchResult {
            best: 0,
            iterations: 0,
            visits: vec![0],
            means: vec![0.0],
            proven: vec![None],
            reused: reused_visits,
        });
    }
    let mut it = 0;
    while it < p.iterations.max(1) {
        if it > 0 && deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        if p.solver && tree.nodes[0].proven.is_some() {
            break;
        }
        tree.iterate(p, rng)?;
        it += 1;
    }
    let result = choose_final(&tree, p, it, reused_visits);
    if let Some(slot) = saved {
        *slot = Some(Saved {
            nodes: tree.nodes,
            root_id: 0,
            root: tree.root,
            history: history.to_vec(),
            mast: tree.mast,
        });
    }
    Ok(result)
}

/// The root's statistics and the move to play.
fn choose_final<M: Model>(
    tree: &Tree<M>,
    p: &Params,
    iterations: u64,
    reused: u32,
) -> SearchResult {
    let r = &tree.nodes[0];
    let n = r.children.len();
    let mut visits = Vec::with_capacity(n);
    let mut means = Vec::with_capacity(n);
    let mut proven = Vec::with_capacity(n);
    for &c in &r.children {
        if c == NONE {
            visits.push(0);
            means.push(0.0);
            proven.push(None);
        } else {
            let k = &tree.nodes[c as usize];
            visits.push(k.visits);
            means.push(k.reward / k.visits.max(1) as f64);
            proven.push(
                k.proven
                    .as_ref()
                    .map(|v| v.get(r.player).copied().unwrap_or(0.5)),
            );
        }
    }
    let better = |i: usize, j: usize| match p.final_move {
        FinalMove::Robust => (visits[i], means[i]) > (visits[j], means[j]),
        FinalMove::Max => {
            // An unvisited move has no mean to trust.
            (visits[i] > 0, means[i], visits[i]) > (visits[j] > 0, means[j], visits[j])
        }
    };
    let allowed: Vec<bool> = if !p.solver {
        vec![true; n]
    } else if proven.iter().any(|v| v.is_some_and(|v| v >= 1.0)) {
        // A proven win: play one.
        proven.iter().map(|v| v.is_some_and(|v| v >= 1.0)).collect()
    } else if proven.iter().all(|v| v.is_some()) {
        let top = proven
            .iter()
            .flatten()
            .fold(f64::NEG_INFINITY, |a, &b| a.max(b));
        proven.iter().map(|&v| v == Some(top)).collect()
    } else {
        // Not a proven loss while another move is not one.
        proven
            .iter()
            .map(|v| !v.is_some_and(|v| v <= 0.0))
            .collect()
    };
    let mut best = usize::MAX;
    for i in 0..n {
        if allowed[i] && (best == usize::MAX || better(i, best)) {
            best = i;
        }
    }
    SearchResult {
        best: if best == usize::MAX { 0 } else { best },
        iterations,
        visits,
        means,
        proven,
        reused,
    }
}

/// An MCTS bot.
pub struct MctsBot {
    name: String,
    config: MctsConfig,
    values: ValueCache,
    /// The last search's tree (`reuse`).
    saved: Option<Saved<State, Move>>,
    /// What the last search found (for logs and tests).
    pub last: Option<SearchResult>,
    /// The clock's budget for the next move ([`Bot::set_clock`]).
    clock_time: Option<Duration>,
}

impl MctsBot {
    pub fn new(name: impl Into<String>, config: MctsConfig) -> Self {
        MctsBot {
            name: name.into(),
            config,
            values: ValueCache::default(),
            saved: None,
            last: None,
            clock_time: None,
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
        let saved = if c.reuse { Some(&mut self.saved) } else { None };
        let mut params: Params = c.into();
        // On a clock, the clock's budget (or `time_ms`, if shorter).
        if let Some(t) = self.clock_time.take() {
            params.time = Some(params.time.map_or(t, |own| own.min(t)));
        }
        let r = search_reusing(&model, state, moves.to_vec(), history, &params, rng, saved)?;
        let best = r.best;
        self.last = Some(r);
        Ok(best)
    }

    fn set_clock(&mut self, clock: &super::ClockView) {
        self.clock_time = Some(clock.allot());
    }

    fn reset(&mut self) {
        self.values.clear();
        self.saved = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::testgames::*;
    use crate::engine::playout::game_rng;
    use crate::engine::Engine;

    fn params(iterations: u64) -> Params {
        Params {
            playout_plies: 100,
            ..Params::plain(iterations)
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

    fn with(p: Params, f: impl FnOnce(&mut Params)) -> Params {
        let mut p = p;
        f(&mut p);
        p
    }

    #[test]
    fn solver_proves_forced_wins_plain_uct_is_unsure_of() {
        // Nim taking 1 to 3: the player to move wins exactly when the heap is not a multiple of 4, by leaving one.
        let nim = Nim { max_take: 3 };
        let mut plain_wrong = 0;
        for heap in [5u32, 6, 7, 9, 10, 11, 13, 14, 15] {
            let s = NimState { heap, turn: 0 };
            let solver = with(params(1500), |p| p.solver = true);
            let r = run(&nim, &s, solver, heap as u64);
            assert_eq!(r.best as u32 + 1, heap % 4, "heap {heap}: {r:?}");
            assert_eq!(r.proven[r.best], Some(1.0), "heap {heap}: {r:?}");
            // The other moves leave a multiple of 4 or not: proven lost where the search got to them.
            assert!(r
                .proven
                .iter()
                .all(|v| v.is_none_or(|v| v == 0.0 || v == 1.0)));
            // Proven at the root: the search stops early.
            assert!(r.iterations < 1500, "heap {heap}: {r:?}");
            if run(&nim, &s, params(1500), heap as u64).best as u32 + 1 != heap % 4 {
                plain_wrong += 1;
            }
        }
        assert!(
            plain_wrong > 0,
            "plain UCT found every win too: not a test of the solver"
        );
    }

    #[test]
    fn solver_avoids_proven_losses_and_plays_proven_draws() {
        // Tic-tac-toe, O to move: X threatens 0-1-2 and 2-4-6; only a block at 2 does not lose at once, and
        // O's move at 2 then leaves a position the solver can prove.
        let mut s = TttState::new();
        s.cells = [1, 1, 0, 2, 1, 0, 0, 2, 0];
        s.turn = 1;
        let moves = TicTacToe.legal_moves(&s).unwrap();
        let r = run(&TicTacToe, &s, with(params(3000), |p| p.solver = true), 3);
        assert_eq!(moves[r.best], 2, "{r:?}");
        for (i, v) in r.proven.iter().enumerate() {
            if moves[i] != 2 {
                assert_eq!(*v, Some(0.0), "move {}: {r:?}", moves[i]);
            }
        }
    }

    #[test]
    fn solver_with_chance_and_three_players() {
        // The existing games of chance and of three players still play with the solver on.
        let race = Race {
            players: 3,
            goal: 12,
            dice: true,
        };
        let mut s = race.start();
        s.turn = 2;
        s.pos = vec![6, 8, 6];
        let r = run(&race, &s, with(params(3000), |p| p.solver = true), 4);
        assert_eq!(r.best, 1, "{r:?}");
        let race = Race {
            players: 3,
            goal: 10,
            dice: false,
        };
        let mut s = race.start();
        s.pos = vec![8, 9, 9];
        let r = run(&race, &s, with(params(200), |p| p.solver = true), 1);
        // Two squares win at once: proven.
        assert_eq!((r.best, r.proven[1]), (1, Some(1.0)), "{r:?}");
    }

    #[test]
    fn final_max_picks_the_best_mean_robust_the_most_visits() {
        let mut differ = 0;
        for seed in 0..20 {
            let s = TttState::new();
            let robust = run(&TicTacToe, &s, params(60), seed);
            let max = run(
                &TicTacToe,
                &s,
                with(params(60), |p| p.final_move = FinalMove::Max),
                seed,
            );
            // The same search, another choice.
            assert_eq!((&robust.visits, &robust.means), (&max.visits, &max.means));
            let v = &robust.visits;
            assert!(v.iter().all(|&x| x <= v[robust.best]));
            let m = &max.means;
            assert!((0..9).all(|i| max.visits[i] == 0 || m[i] <= m[max.best]));
            differ += (robust.best != max.best) as u32;
        }
        assert!(differ > 0);
    }

    #[test]
    fn reuse_keeps_the_subtree_of_the_position_reached() {
        let t = TicTacToe;
        let s0 = TttState::new();
        let p = params(2000);
        let mut saved = None;
        let mut rng = game_rng(5, 0);
        let m0 = t.legal_moves(&s0).unwrap();
        let r0 = search_reusing(&t, &s0, m0.clone(), &[], &p, &mut rng, Some(&mut saved)).unwrap();
        assert_eq!(r0.reused, 0);
        // We play our move, the opponent the reply our search visited most.
        let s1 = t.apply(&s0, &m0[r0.best]);
        let sv = saved.as_ref().unwrap();
        let n1 = &sv.nodes[sv.nodes[0].children[r0.best] as usize];
        let reply = (0..n1.children.len())
            .filter(|&i| n1.children[i] != NONE)
            .max_by_key(|&i| sv.nodes[n1.children[i] as usize].visits)
            .unwrap();
        let kept = sv.nodes[n1.children[reply] as usize].visits;
        assert!(kept > 10, "{kept}");
        let s2 = t.apply(&s1, &n1.moves[reply]);
        let history = [t.key(&s0), t.key(&s1)];
        let m2 = t.legal_moves(&s2).unwrap();
        let r2 = search_reusing(
            &t,
            &s2,
            m2.clone(),
            &history,
            &p,
            &mut rng,
            Some(&mut saved),
        )
        .unwrap();
        assert_eq!(r2.reused, kept);
        // The root's children hold the kept visits and the new search's (the leaf's first visit was its own).
        assert_eq!(
            r2.visits.iter().sum::<u32>() as u64,
            kept as u64 - 1 + r2.iterations
        );
        // Without reuse, or from a position the saved tree does not lead to, nothing is kept.
        let fresh = search(&t, &s2, m2.clone(), &history, &p, &mut game_rng(5, 1)).unwrap();
        assert_eq!(fresh.reused, 0);
        let other = t.apply(&s0, &4);
        let m = t.legal_moves(&other).unwrap();
        let r =
            search_reusing(&t, &other, m, &[t.key(&s0)], &p, &mut rng, Some(&mut saved)).unwrap();
        assert_eq!(r.reused, 0);
    }

    #[test]
    fn engine_bot_reuses_its_tree_in_a_game_until_reset() {
        let game = breakthrough(6);
        let engine = Engine::new(&game);
        let mut bot = MctsBot::new(
            "m",
            MctsConfig {
                iterations: 300,
                reuse: true,
                ..MctsConfig::default()
            },
        );
        let mut rng = game_rng(3, 0);
        let s0 = engine.initial();
        let m0 = engine.legal_moves(&s0).unwrap();
        let i = bot.choose(&engine, &s0, &m0, &[], &mut rng).unwrap();
        assert_eq!(bot.last.as_ref().unwrap().reused, 0);
        let s1 = engine.apply(&s0, &m0[i]);
        let m1 = engine.legal_moves(&s1).unwrap();
        // The reply the search looked at most.
        let sv = bot.saved.as_ref().unwrap();
        let n1 = &sv.nodes[sv.nodes[0].children[i] as usize];
        let j = (0..n1.children.len())
            .filter(|&j| n1.children[j] != NONE)
            .max_by_key(|&j| sv.nodes[n1.children[j] as usize].visits)
            .unwrap();
        let kept = sv.nodes[n1.children[j] as usize].visits;
        let s2 = engine.apply(&s1, &m1[j]);
        let m2 = engine.legal_moves(&s2).unwrap();
        let history = [s0.key(), s1.key()];
        bot.choose(&engine, &s2, &m2, &history, &mut rng).unwrap();
        assert!(kept > 0);
        assert_eq!(bot.last.as_ref().unwrap().reused, kept);
        bot.reset();
        assert!(bot.saved.is_none());
        bot.choose(&engine, &s2, &m2, &history, &mut rng).unwrap();
        assert_eq!(bot.last.as_ref().unwrap().reused, 0);
    }

    #[test]
    fn mast_prefers_a_move_that_won_in_rollouts() {
        let moves: Vec<usize> = (0..9).collect();
        let mut mast = Mast::default();
        for m in 0..9u64 {
            for _ in 0..10 {
                mast.record(m, 0, if m == 4 { 1.0 } else { 0.2 });
            }
        }
        // For the other player the statistics say nothing yet: each unseen move is tried.
        let mut rng = game_rng(1, 0);
        let count =
            |mast: &mut Mast, eps: f64, tau: Option<f64>, player: usize, rng: &mut ChaCha8Rng| {
                (0..1000)
                    .filter(|_| mast.pick(&TicTacToe, &moves, player, eps, tau, rng) == 4)
                    .count()
            };
        assert_eq!(count(&mut mast, 0.0, None, 0, &mut rng), 1000);
        let eps = count(&mut mast, 0.2, None, 0, &mut rng);
        assert!((780..=900).contains(&eps), "{eps}");
        // Gibbs at τ = ½: e^2 / (e^2 + 8·e^0.4) = 0.38 for the winner, 0.08 for each other move.
        let gibbs = count(&mut mast, 0.0, Some(0.5), 0, &mut rng);
        assert!((330..=440).contains(&gibbs), "{gibbs}");
        let other = count(&mut mast, 0.0, None, 1, &mut rng);
        assert!((60..=170).contains(&other), "{other}");
    }

    #[test]
    fn mast_learns_from_the_search_s_rollouts() {
        // Race to 30 by 1 or 2 squares: the long step wins rollouts; MAST's statistics come to say so.
        let race = Race {
            players: 2,
            goal: 30,
            dice: false,
        };
        let p = with(params(300), |p| p.rollout = RolloutPolicy::Mast);
        let moves = race.legal_moves(&race.start()).unwrap();
        let mut tree = Tree {
            model: &race,
            root: race.start(),
            root_id: 0,
            nodes: vec![],
            history: vec![],
            path: vec![],
            players: 2,
            mast: Some(Mast::default()),
        };
        let id = tree.new_node(&race.start());
        tree.list(id, &race.start(), Some(moves)).unwrap();
        let mut rng = game_rng(2, 0);
        for _ in 0..300 {
            tree.iterate(&p, &mut rng).unwrap();
        }
        let mast = tree.mast.as_ref().unwrap();
        for pl in 0..2 {
            assert!(
                mast.average(2, pl) > mast.average(1, pl) + 0.1,
                "player {pl}"
            );
        }
    }
}
