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
//!   exp(average / τ)). The statistics last one search (or the game, with `reuse`). Every move of a rollout
//!   position is listed and named: slower per rollout than the fast loops.
//! * `rollout = "nst"`: N-gram Selection Technique. MAST's statistics, and per (sequence of 2 to `nst_n`
//!   consecutive moves of the iteration, player of its last move) the same sums; a rollout move's value is the
//!   mean of its own average and of the averages of the sequences ending in it (the moves before it in the
//!   iteration) that were played at least [`NST_MIN_VISITS`] times, picked as MAST's.
//! * `grave = R`: GRAVE. Each node keeps all-moves-as-first statistics of its player's moves (every move its
//!   player played after it in an iteration through it, in the tree or the rollout, its reward). At a node of
//!   player P, a child's mean is blended with its move's AMAF mean in P's reference node: the deepest node of P
//!   on the path down to it (itself included) with more than R visits, β = n_a / (n_a + n + b·n_a·n),
//!   b = `grave_bias`; unexpanded moves are expanded best AMAF mean first. Where P has no such node yet, plain
//!   UCT (and untried moves at random). One reference per player, because a node's table holds only its own
//!   player's moves and move identities name no player (Cazenave's GRAVE keeps both colours' moves in every
//!   node, so one reference serves both).
//! * `progressive_history = W`: Progressive History, W·h / ((1 − mean)·n + 1) added to a child's UCT value, h the
//!   move's average over the search (MAST's table, kept for it); unexpanded moves best h first.
//! * `progressive_bias = W`: W·e / (n + 1) added, e the evaluation of the child's position for its mover (a
//!   logistic in [0, 1]; 1 or 0 where the game is over there), computed once when the child is made.
//! * `playout_cutoff = N`: playouts stop after N plies and are scored by the evaluation (the cap of
//!   `playout_plies` with `eval_at_cap`).
//! * `threads = T`: root parallelism (see [`search_parallel`]).
//! * `decisive`: decisive moves (Teytaud & Teytaud 2010). A rollout lists each position's moves and plays the
//!   first one after which the game is over, won by its mover, where there is one (else its policy's move).
//!   With the solver, a node is proven a win for its player when it is listed and one of its moves wins at
//!   once (that move's child made, over and proven), so its parent's move into it is proven lost without
//!   waiting for the reply to be expanded. Each candidate move is made and the end judged by
//!   [`Model::outcome_unlisted`]: for the engine, only an end that holds whatever the next position's moves are
//!   (a line, a goal reached, pieces taken, a count; not a checkmate or a stalemate) and only in games whose
//!   modules judge the end from the count of moves ([`crate::engine::Engine::outcome_unlisted`]). Elsewhere no
//!   move is found decisive and the rollouts are uniform, only slower (every position listed).
//!
//! MAST, NST, GRAVE and Progressive History record the moves of each iteration. Uniform rollouts (GRAVE and
//! Progressive History with `rollout = "random"`) record on the fast random loops
//! ([`Model::rollout_recording`]: each played move's identity read from the buffer it is played from), so they
//! play the same rollouts as plain UCT for the same stream. MAST's and NST's rollouts list every position's
//! moves into the model's buffer and read every move's identity ([`Model::move_id_at`]) to choose: slower.
//!
//! The budget is a number of iterations, optionally a time (checked between iterations: a search overshoots it
//! by at most one rollout). All randomness comes from the bot's stream, so without a time limit the move depends
//! only on the position, that stream (and with `reuse`, the bot's earlier searches in the game). The stream is
//! drawn from differently than before the rollouts ran on the fast loops (a rollout's first move was drawn from
//! the leaf's listed moves, every later one from a whole list): the same seed gives other searches than those
//! earlier builds, as deterministic, for any `--jobs`. Likewise GRAVE's and Progressive History's rollouts since
//! they record on the fast loops: unchanged where those loops draw an index into the whole list (Go, Connect
//! Four, checkers), other draws where they sample generators or candidates (Hex, breakthrough, othello, chess).

use super::eval::{Evaluator, ValueCache, Weights};
use super::{relative, Bot, BotError, EngineModel, Model};
use crate::engine::playout::below;
use crate::engine::{Engine, EngineError, Move, State};
use rand_chacha::ChaCha8Rng;
use rand_core::RngCore;
use rustc_hash::FxHashMap as HashMap;
use serde::{Deserialize, Serialize};
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
    /// N-gram Selection Technique: MAST's averages of moves and of sequences of up to `nst_n` moves.
    Nst,
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

const NST_N: u32 = 2;

fn default_nst_n() -> u32 {
    NST_N
}

fn is_default_nst_n(v: &u32) -> bool {
    *v == NST_N
}

const GRAVE_BIAS: f64 = 1e-6;

fn default_grave_bias() -> f64 {
    GRAVE_BIAS
}

fn is_default_grave_bias(v: &f64) -> bool {
    *v == GRAVE_BIAS
}

fn default_threads() -> u32 {
    1
}

fn is_one(v: &u32) -> bool {
    *v == 1
}

fn is_zero_u32(v: &u32) -> bool {
    *v == 0
}

fn is_zero_f64(v: &f64) -> bool {
    *v == 0.0
}

/// An n-gram of NST counts once it has been played this many times (a single move counts from its first).
pub const NST_MIN_VISITS: u32 = 7;

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
    /// NST: the longest sequence of moves (1 is MAST).
    #[serde(default = "default_nst_n", skip_serializing_if = "is_default_nst_n")]
    pub nst_n: u32,
    /// GRAVE: a node's all-moves-as-first statistics guide the selection below it once it has more than this
    /// many visits (0: off).
    #[serde(skip_serializing_if = "is_zero_u32")]
    pub grave: u32,
    /// GRAVE's bias b in β = n_amaf / (n_amaf + n + b·n_amaf·n).
    #[serde(
        default = "default_grave_bias",
        skip_serializing_if = "is_default_grave_bias"
    )]
    pub grave_bias: f64,
    /// Progressive History's weight W (0: off).
    #[serde(skip_serializing_if = "is_zero_f64")]
    pub progressive_history: f64,
    /// Progressive bias's weight W on the evaluation of a child's position (0: off).
    #[serde(skip_serializing_if = "is_zero_f64")]
    pub progressive_bias: f64,
    /// Playouts stop after this many plies and are scored by the evaluation (0: off; `playout_plies` and
    /// `eval_at_cap` then do not apply).
    #[serde(skip_serializing_if = "is_zero_u32")]
    pub playout_cutoff: u32,
    /// Root parallelism: this many threads, each its own tree, stream and share of the iterations.
    #[serde(default = "default_threads", skip_serializing_if = "is_one")]
    pub threads: u32,
    /// Decisive moves: a rollout plays a move that wins at once where it has one, and with the solver a node
    /// with such a move is proven when it is listed (see the module's documentation).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub decisive: bool,
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
            nst_n: NST_N,
            grave: 0,
            grave_bias: GRAVE_BIAS,
            progressive_history: 0.0,
            progressive_bias: 0.0,
            playout_cutoff: 0,
            threads: 1,
            decisive: false,
        }
    }
}

impl MctsConfig {
    /// Whether the bot's searches use the evaluation.
    pub fn uses_eval(&self) -> bool {
        self.eval_at_cap || self.playout_cutoff > 0 || self.progressive_bias != 0.0
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
    pub nst_n: u32,
    pub grave: u32,
    pub grave_bias: f64,
    pub progressive_history: f64,
    pub progressive_bias: f64,
    pub threads: u32,
    pub decisive: bool,
}

impl Params {
    /// Whether iterations record their moves (for MAST, NST, GRAVE or Progressive History).
    fn records(&self) -> bool {
        self.rollout != RolloutPolicy::Random || self.grave > 0 || self.progressive_history != 0.0
    }

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
            playout_plies: if c.playout_cutoff > 0 {
                c.playout_cutoff
            } else {
                c.playout_plies
            },
            eval_at_cap: c.eval_at_cap || c.playout_cutoff > 0,
            solver: c.solver,
            final_move: c.final_move,
            rollout: c.rollout,
            mast_epsilon: c.mast_epsilon,
            mast_tau: c.mast_tau,
            nst_n: c.nst_n,
            grave: c.grave,
            grave_bias: c.grave_bias,
            progressive_history: c.progressive_history,
            progressive_bias: c.progressive_bias,
            threads: c.threads,
            decisive: c.decisive,
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
    /// When the search records moves: each move's identity.
    ids: Vec<Option<u64>>,
    /// GRAVE: per move identity, the sum of rewards (of this node's player) and the count of the iterations
    /// through this node in which this node's player played that move later (all moves as first).
    amaf: HashMap<u64, (f64, u32)>,
    /// Progressive bias: the evaluation of the position for the player who moved into it, in [0, 1].
    bias: f64,
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
            ids: vec![],
            amaf: HashMap::default(),
            bias: 0.0,
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
    nst: Option<Nst>,
}

/// The moves of one iteration from the root, in order: each move's identity ([`Model::move_id`]; `None` for a
/// chance move or a model without identities) and its player.
pub type Seq = Vec<(Option<u64>, usize)>;

/// MAST's statistics (also NST's single moves and Progressive History's): per (move identity, player), the sum
/// of rewards and the count.
#[derive(Default)]
pub struct Mast {
    table: HashMap<u64, (f64, u32)>,
    /// Scratch: one position's move identities and Gibbs weights.
    ids: Vec<Option<u64>>,
    weights: Vec<f64>,
}

impl Mast {
    fn key(id: u64, player: usize) -> u64 {
        crate::engine::state::mix(id ^ (player as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15))
    }

    /// The sum and count of a move's rewards for its player.
    fn get(&self, id: u64, player: usize) -> Option<(f64, u32)> {
        self.table
            .get(&Self::key(id, player))
            .copied()
            .filter(|e| e.1 > 0)
    }

    /// The average reward of a move for its player (a move never seen: 1, so that it is tried).
    pub fn average(&self, id: u64, player: usize) -> f64 {
        match self.get(id, player) {
            Some((sum, n)) => sum / n as f64,
            None => 1.0,
        }
    }

    /// Records an iteration's rewards for its moves.
    fn update(&mut self, seq: &[(Option<u64>, usize)], rewards: &[f64]) {
        for &(id, pl) in seq {
            if let Some(id) = id {
                self.record(id, pl, rewards.get(pl).copied().unwrap_or(0.5));
            }
        }
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
        let mut ids = std::mem::take(&mut self.ids);
        ids.clear();
        ids.extend(moves.iter().map(|m| model.move_id(m)));
        let mut weights = std::mem::take(&mut self.weights);
        let i = pick_by(&ids, &mut weights, epsilon, tau, rng, |id| {
            self.average(id, player)
        });
        self.ids = ids;
        self.weights = weights;
        i
    }
}

/// Picks one of the moves named by `ids` by their `value`s: the best with probability 1 − `epsilon` (ties at
/// random; a move with no identity counts ½), else uniformly; or with `tau`, with probability ∝ exp(value / τ)
/// (a move with no identity: weight 1).
fn pick_by(
    ids: &[Option<u64>],
    weights: &mut Vec<f64>,
    epsilon: f64,
    tau: Option<f64>,
    rng: &mut ChaCha8Rng,
    value: impl Fn(u64) -> f64,
) -> usize {
    if let Some(tau) = tau {
        weights.clear();
        let mut total = 0.0;
        for id in ids {
            let w = match id {
                Some(id) => (value(*id) / tau).exp(),
                None => 1.0,
            };
            total += w;
            weights.push(w);
        }
        let mut x = unit(rng) * total;
        for (i, &w) in weights.iter().enumerate() {
            if x < w {
                return i;
            }
            x -= w;
        }
        return ids.len() - 1;
    }
    if epsilon > 0.0 && unit(rng) < epsilon {
        return below(rng, ids.len());
    }
    let (mut best, mut best_v, mut ties) = (0, f64::NEG_INFINITY, 0u32);
    for (i, id) in ids.iter().enumerate() {
        let v = id.map_or(0.5, &value);
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

/// NST's statistics of sequences of 2 to `n` consecutive moves (the single moves are MAST's table): per
/// (sequence, player of its last move), the sum of rewards and the count.
pub struct Nst {
    table: HashMap<u64, (f64, u32)>,
    n: usize,
}

impl Nst {
    pub fn new(n: u32) -> Nst {
        Nst {
            table: HashMap::default(),
            n: n.max(1) as usize,
        }
    }

    fn key(ids: impl Iterator<Item = u64>, player: usize) -> u64 {
        ids.fold(Mast::key(0x5eed, player), |k, id| {
            crate::engine::state::mix(k ^ id)
        })
    }

    /// Records an iteration's rewards for each of its sequences of 2 to n moves (a move without identity breaks
    /// them).
    fn update(&mut self, seq: &[(Option<u64>, usize)], rewards: &[f64]) {
        for j in 0..seq.len() {
            let pl = seq[j].1;
            for len in 2..=self.n.min(j + 1) {
                let part = &seq[j + 1 - len..=j];
                if part.iter().any(|e| e.0.is_none()) {
                    break;
                }
                self.record(
                    part.iter().map(|e| e.0.unwrap()),
                    pl,
                    rewards.get(pl).copied().unwrap_or(0.5),
                );
            }
        }
    }

    /// Adds a sequence's result directly (for tests and seeding).
    pub fn record(&mut self, ids: impl Iterator<Item = u64>, player: usize, reward: f64) {
        let e = self.table.entry(Self::key(ids, player)).or_insert((0.0, 0));
        e.0 += reward;
        e.1 += 1;
    }

    /// The value of playing `id` after the moves `before` (the latest last): the mean of the averages of the move
    /// alone (MAST's) and of each sequence ending in it that was played at least [`NST_MIN_VISITS`] times; 1 for a
    /// move never seen.
    pub fn value(
        &self,
        mast: &Mast,
        before: &[(Option<u64>, usize)],
        id: u64,
        player: usize,
    ) -> f64 {
        let Some((sum, n)) = mast.get(id, player) else {
            return 1.0;
        };
        let (mut total, mut count) = (sum / n as f64, 1.0);
        for len in 2..=self.n.min(before.len() + 1) {
            let ctx = &before[before.len() + 1 - len..];
            if ctx.iter().any(|e| e.0.is_none()) {
                break;
            }
            let ids = ctx.iter().map(|e| e.0.unwrap()).chain(std::iter::once(id));
            match self.table.get(&Self::key(ids, player)) {
                Some(&(s, n)) if n >= NST_MIN_VISITS => {
                    total += s / n as f64;
                    count += 1.0;
                }
                _ => {}
            }
        }
        total / count
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
    nst: Option<Nst>,
    /// The current iteration's moves, when the search records them.
    seq: Seq,
    record: bool,
    /// GRAVE: the current iteration's reference node of each player (see [`Tree::iterate`]).
    refs: Vec<u32>,
    /// With the solver and `decisive`: a node with a move that wins at once is proven when it is listed.
    prove_wins: bool,
}

fn rewards_of(results: &[i8]) -> Vec<f64> {
    results.iter().map(|&r| (r as f64 + 1.0) / 2.0).collect()
}

/// Whether the results of a game's end are a win for `player`.
fn wins(results: &[i8], player: usize) -> bool {
    results.get(player).is_some_and(|&r| r > 0)
}

/// The first move of `moves` (listed for `s`) after which the game is over, won by `player` (to move in `s`),
/// as [`Model::outcome_unlisted`] judges it: each move made and unmade on `s`.
fn winning_at<M: Model>(
    model: &M,
    s: &mut M::State,
    moves: &M::Moves,
    undo: &mut M::Undo,
    history: &mut Vec<u64>,
    player: usize,
) -> Result<Option<usize>, EngineError> {
    history.push(model.key(s));
    let mut found = Ok(None);
    for j in 0..model.count(moves) {
        model.make(s, moves, j, undo);
        let r = model.outcome_unlisted(s, history);
        model.unmake(s, undo);
        match r {
            Ok(Some(r)) if wins(&r, player) => {
                found = Ok(Some(j));
                break;
            }
            Ok(_) => {}
            Err(e) => {
                found = Err(e);
                break;
            }
        }
    }
    history.pop();
    found
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
        let win = if self.prove_wins && terminal.is_none() && !self.model.is_chance(s) {
            self.winning_move(s, &moves)?
        } else {
            None
        };
        let n = if terminal.is_some() { 0 } else { moves.len() };
        let node = &mut self.nodes[id as usize];
        node.listed = true;
        node.proven = terminal.clone();
        node.terminal = terminal;
        node.children = vec![NONE; n];
        node.untried = (0..n as u32).collect();
        if self.record && n > 0 {
            node.ids = moves.iter().map(|m| self.model.move_id(m)).collect();
        }
        node.moves = moves;
        if let Some((j, next, r)) = win {
            // The winning move's child, over and proven; the node proven a win for its player.
            let c = self.new_node(&next);
            let child = &mut self.nodes[c as usize];
            child.listed = true;
            child.terminal = Some(r.clone());
            child.proven = Some(r.clone());
            let node = &mut self.nodes[id as usize];
            node.children[j] = c;
            node.untried.retain(|&u| u as usize != j);
            node.proven = Some(r);
        }
        Ok(())
    }

    /// The first of `moves` (the legal moves of `s`) after which the game is over, won by the player to move,
    /// as [`Model::outcome_unlisted`] judges it: its index, the position after it and its rewards.
    #[allow(clippy::type_complexity)]
    fn winning_move(
        &mut self,
        s: &M::State,
        moves: &[M::Move],
    ) -> Result<Option<(usize, M::State, Vec<f64>)>, EngineError> {
        let player = self.model.to_move(s);
        self.history.push(self.model.key(s));
        let mut found = Ok(None);
        for (j, m) in moves.iter().enumerate() {
            let next = self.model.apply(s, m);
            match self.model.outcome_unlisted(&next, &self.history) {
                Ok(Some(r)) if wins(&r, player) => {
                    found = Ok(Some((j, next, rewards_of(&r))));
                    break;
                }
                Ok(_) => {}
                Err(e) => {
                    found = Err(e);
                    break;
                }
            }
        }
        self.history.pop();
        found
    }

    /// The child of node `at` to go down to: the best by UCT, plus, where on, GRAVE's blend with the
    /// all-moves-as-first mean of node `reference`, Progressive History's and progressive bias's terms.
    fn select_child(&self, at: u32, reference: Option<u32>, p: &Params) -> usize {
        let n = &self.nodes[at as usize];
        let c = p.exploration;
        let ln = (n.visits.max(1) as f64).ln();
        let mut best = (usize::MAX, f64::NEG_INFINITY);
        let mut fallback = 0;
        let refn = reference.map(|r| &self.nodes[r as usize]);
        for (i, &ch) in n.children.iter().enumerate() {
            if ch == NONE {
                continue;
            }
            let k = &self.nodes[ch as usize];
            let v = k.visits.max(1) as f64;
            let mut mean = k.reward / v;
            if p.solver {
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
            let id = n.ids.get(i).copied().flatten();
            let mut q = mean;
            if let Some(refn) = refn {
                if let Some(&(w, na)) = id.and_then(|id| refn.amaf.get(&id)) {
                    if na > 0 {
                        let na = na as f64;
                        let beta = na / (na + v + p.grave_bias * na * v);
                        q = (1.0 - beta) * mean + beta * (w / na);
                    }
                }
            }
            let mut u = q + c * (ln / v).sqrt();
            if p.progressive_history != 0.0 {
                if let (Some(id), Some(mast)) = (id, &self.mast) {
                    if let Some((sum, cnt)) = mast.get(id, n.player) {
                        u += p.progressive_history * (sum / cnt as f64) / ((1.0 - mean) * v + 1.0);
                    }
                }
            }
            if p.progressive_bias != 0.0 {
                u += p.progressive_bias * k.bias / (v + 1.0);
            }
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

    /// The untried move of node `at` to expand: at random, or, with GRAVE or Progressive History, the one of
    /// the best prior (the all-moves-as-first mean of node `reference`, else the history mean; a move never
    /// seen: 1), ties at random. Removed from the untried moves.
    fn pick_untried(
        &mut self,
        at: u32,
        reference: Option<u32>,
        p: &Params,
        rng: &mut ChaCha8Rng,
    ) -> usize {
        let n = &self.nodes[at as usize];
        let k = if (p.grave > 0 || p.progressive_history != 0.0) && !n.ids.is_empty() {
            let refn = reference.map(|r| &self.nodes[r as usize]);
            let prior = |i: u32| -> f64 {
                let Some(id) = n.ids[i as usize] else {
                    return 0.5;
                };
                if let Some(refn) = refn {
                    if let Some(&(w, na)) = refn.amaf.get(&id) {
                        if na > 0 {
                            return w / na as f64;
                        }
                    }
                }
                if p.progressive_history != 0.0 {
                    if let Some(mast) = &self.mast {
                        return mast.average(id, n.player);
                    }
                }
                1.0
            };
            let (mut best, mut best_v, mut ties) = (0, f64::NEG_INFINITY, 0usize);
            for (k, &i) in n.untried.iter().enumerate() {
                let v = prior(i);
                if v > best_v {
                    (best, best_v, ties) = (k, v, 1);
                } else if v == best_v {
                    ties += 1;
                    if below(rng, ties) == 0 {
                        best = k;
                    }
                }
            }
            best
        } else {
            below(rng, n.untried.len())
        };
        self.nodes[at as usize].untried.swap_remove(k) as usize
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
        self.seq.clear();
        let mut at = self.root_id;
        // GRAVE: per player, the deepest node of that player on the path so far with more than `grave` visits
        // (NONE while there is none): a node's all-moves-as-first table holds its own player's moves only.
        self.refs.clear();
        self.refs.resize(self.players, NONE);
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
            let reference = if p.grave > 0 && !n.chance {
                if n.visits > p.grave {
                    self.refs[n.player] = at;
                }
                Some(self.refs[n.player]).filter(|&r| r != NONE)
            } else {
                None
            };
            let i = if n.chance {
                below(rng, n.moves.len())
            } else if !n.untried.is_empty() {
                self.pick_untried(at, reference, p, rng)
            } else {
                self.select_child(at, reference, p)
            };
            let n = &self.nodes[at as usize];
            if self.record {
                let id = if n.chance {
                    None
                } else {
                    n.ids.get(i).copied().flatten()
                };
                self.seq.push((id, n.player));
            }
            self.history.push(self.model.key(&s));
            self.model.play(&mut s, &n.moves[i]);
            let child = n.children[i];
            let mover = n.player;
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
                // Over, or proven at once by a winning move (`decisive`).
                if let Some(r) = &self.nodes[id as usize].proven {
                    break r.clone();
                }
            }
            if p.progressive_bias != 0.0 {
                let moves = self.model.legal_moves(&s)?;
                let bias = match self.model.outcome(&s, &moves, &self.history)? {
                    Some(r) => rewards_of(&r).get(mover).copied().unwrap_or(0.5),
                    None => {
                        let v = self.model.evaluate(&s, &moves)?;
                        1.0 / (1.0 + (-relative(self.model, &v, mover)).exp())
                    }
                };
                self.nodes[id as usize].bias = bias;
            }
            break self.playout(s, p, rng)?;
        };
        self.history.truncate(base);
        if let Some(mast) = &mut self.mast {
            mast.update(&self.seq, &rewards);
        }
        if let Some(nst) = &mut self.nst {
            nst.update(&self.seq, &rewards);
        }
        // Each node holds the reward of the player who moved into it: its parent's player.
        self.nodes[self.path[0] as usize].visits += 1;
        for w in 1..self.path.len() {
            let mover = self.nodes[self.path[w - 1] as usize].player;
            let n = &mut self.nodes[self.path[w] as usize];
            n.visits += 1;
            n.reward += rewards.get(mover).copied().unwrap_or(0.5);
        }
        if p.grave > 0 {
            // Each node on the path: the moves its player played from it on, in the tree and the rollout.
            for d in 0..self.path.len() {
                let n = &mut self.nodes[self.path[d] as usize];
                if n.chance {
                    continue;
                }
                let pl = n.player;
                let r = rewards.get(pl).copied().unwrap_or(0.5);
                for &(id, q) in self.seq.iter().skip(d) {
                    if let (Some(id), true) = (id, q == pl) {
                        let e = n.amaf.entry(id).or_insert((0.0, 0));
                        e.0 += r;
                        e.1 += 1;
                    }
                }
            }
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
        let r = if self.record && p.rollout == RolloutPolicy::Random && !p.decisive {
            // A uniform rollout (under GRAVE or Progressive History) needs the identity of each move it plays
            // only: the model's fast loops, recording.
            self.model.rollout_recording(
                &mut s,
                &mut self.history,
                p.playout_plies,
                rng,
                &mut self.seq,
            )?
        } else if self.record || p.decisive {
            policy_rollout(
                self.model,
                self.mast.as_mut(),
                self.nst.as_ref(),
                &mut self.seq,
                &mut s,
                &mut self.history,
                p,
                rng,
            )?
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

/// A uniform rollout that records its moves in `seq` (see [`Model::rollout_recording`], whose default it is):
/// every position's moves listed into the model's buffer, one drawn uniformly and made; otherwise as
/// [`Model::rollout`]'s generic loop.
pub fn listed_recording<M: Model>(
    model: &M,
    s: &mut M::State,
    history: &mut Vec<u64>,
    plies: u32,
    rng: &mut ChaCha8Rng,
    seq: &mut Seq,
) -> Result<Option<Vec<i8>>, EngineError> {
    let mut moves = M::Moves::default();
    let mut undo = M::Undo::default();
    let mut played = 0;
    loop {
        model.list(s, &mut moves, &mut undo)?;
        if let Some(r) = model.outcome_at(s, &moves, history)? {
            return Ok(Some(r));
        }
        let n = model.count(&moves);
        if played >= plies || n == 0 {
            return Ok(None);
        }
        let i = below(rng, n);
        let id = if model.is_chance(s) {
            None
        } else {
            model.move_id_at(&moves, i)
        };
        seq.push((id, model.to_move(s)));
        history.push(model.key(s));
        model.make(s, &moves, i, &mut undo);
        played += 1;
    }
}

/// A rollout by MAST's or NST's policy (or uniform), with `decisive` a move that wins at once first where there
/// is one ([`winning_at`]), that records its moves in `seq`, on the model's move buffers (make and unmake, the
/// native backends for the engine): each position's moves listed and, for MAST and NST, their identities read
/// (chance moves uniform); otherwise as [`Model::rollout`].
#[allow(clippy::too_many_arguments)]
fn policy_rollout<M: Model>(
    model: &M,
    mut mast: Option<&mut Mast>,
    nst: Option<&Nst>,
    seq: &mut Seq,
    s: &mut M::State,
    history: &mut Vec<u64>,
    p: &Params,
    rng: &mut ChaCha8Rng,
) -> Result<Option<Vec<i8>>, EngineError> {
    let mut moves = M::Moves::default();
    let mut undo = M::Undo::default();
    let mut ids: Vec<Option<u64>> = vec![];
    let mut weights: Vec<f64> = vec![];
    let mut played = 0;
    loop {
        model.list(s, &mut moves, &mut undo)?;
        if let Some(r) = model.outcome_at(s, &moves, history)? {
            return Ok(Some(r));
        }
        let n = model.count(&moves);
        if played >= p.playout_plies || n == 0 {
            return Ok(None);
        }
        let player = model.to_move(s);
        let chance = model.is_chance(s);
        let win = if p.decisive && !chance {
            winning_at(model, s, &moves, &mut undo, history, player)?
        } else {
            None
        };
        let (i, id) = if chance {
            (below(rng, n), None)
        } else if let Some(i) = win {
            (i, model.move_id_at(&moves, i))
        } else if p.rollout == RolloutPolicy::Random {
            let i = below(rng, n);
            (i, model.move_id_at(&moves, i))
        } else {
            ids.clear();
            ids.extend((0..n).map(|i| model.move_id_at(&moves, i)));
            let i = match (p.rollout, mast.as_deref_mut()) {
                (RolloutPolicy::Mast, Some(mast)) => {
                    pick_by(&ids, &mut weights, p.mast_epsilon, p.mast_tau, rng, |id| {
                        mast.average(id, player)
                    })
                }
                (RolloutPolicy::Nst, Some(mast)) => {
                    let nst = nst.expect("NST's table with NST's rollouts");
                    let before = &seq[..];
                    pick_by(&ids, &mut weights, p.mast_epsilon, p.mast_tau, rng, |id| {
                        nst.value(mast, before, id, player)
                    })
                }
                _ => below(rng, n),
            };
            (i, ids[i])
        };
        seq.push((id, player));
        history.push(model.key(s));
        model.make(s, &moves, i, &mut undo);
        played += 1;
    }
}

/// A subtree kept for a new search, and MAST's statistics.
type Kept<Mv> = (Vec<Node<Mv>>, Option<Mast>, Option<Nst>);

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
        nst,
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
    let mut map: HashMap<u32, u32> = HashMap::default();
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
    Some((out, mast, nst))
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
    let record = p.records();
    let mast = (p.rollout != RolloutPolicy::Random || p.progressive_history != 0.0)
        .then(|| reused.as_mut().and_then(|r| r.1.take()).unwrap_or_default());
    let nst = (p.rollout == RolloutPolicy::Nst).then(|| {
        reused
            .as_mut()
            .and_then(|r| r.2.take())
            .unwrap_or_else(|| Nst::new(p.nst_n))
    });
    let mut tree = Tree {
        model,
        root: root.clone(),
        root_id: 0,
        nodes: vec![],
        history: history.to_vec(),
        path: vec![],
        players: model.num_players(),
        mast,
        nst,
        seq: vec![],
        record,
        refs: vec![],
        prove_wins: p.solver && p.decisive,
    };
    match reused {
        Some((nodes, _, _))
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
            nst: tree.nst,
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
    SearchResult {
        best: final_move(p, &visits, &means, &proven),
        iterations,
        visits,
        means,
        proven,
        reused,
    }
}

/// The move to play given the root moves' visits, means and proven rewards (see [`FinalMove`] and the solver).
fn final_move(p: &Params, visits: &[u32], means: &[f64], proven: &[Option<f64>]) -> usize {
    let n = visits.len();
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
    for (i, &ok) in allowed.iter().enumerate().take(n) {
        if ok && (best == usize::MAX || better(i, best)) {
            best = i;
        }
    }
    if best == usize::MAX {
        0
    } else {
        best
    }
}

/// The score of a search's chosen move for the mover, in hundredths of the cheapest piece: its mean result p
/// (win 1, draw ½, loss 0; the proven result where the solver has one) mapped back through the logistic that
/// `eval_at_cap` scores positions with, 100 · ln(p / (1 − p)), p kept within [0.001, 0.999] (so within ±691).
/// `None` when the move was never visited.
pub fn score_of(r: &SearchResult) -> Option<super::Score> {
    let b = r.best;
    let p = match r.proven.get(b).copied().flatten() {
        Some(p) => p,
        None if r.visits.get(b).is_some_and(|&v| v > 0) => r.means[b],
        None => return None,
    };
    let p = p.clamp(0.001, 0.999);
    Some(super::Score::Cp(
        (100.0 * (p / (1.0 - p)).ln()).round() as i32
    ))
}

/// Root parallelism: [`search_reusing`] on `p.threads` threads, each with its own tree (and its own saved tree
/// in `saved`, one slot per thread), its own random stream seeded from `rng` and a fixed share of the
/// iterations (the first `iterations % threads` threads one more); the root moves' visits and rewards are summed
/// (a move proven in any tree is proven) and the move chosen from the sums. With one thread, exactly
/// [`search_reusing`] on `rng`. Without a time limit the result depends only on the position, `rng` and the
/// thread count, never on the scheduling.
/// The saved trees of a bot's threads (`reuse`), one slot per thread.
pub type SavedTrees<S, M> = Vec<Option<Saved<S, M>>>;

#[allow(clippy::too_many_arguments)]
#[allow(clippy::needless_range_loop)] // one index over four parallel arrays (visits, means, rewards, proven)
pub fn search_parallel<M>(
    model: &M,
    root: &M::State,
    moves: Vec<M::Move>,
    history: &[u64],
    p: &Params,
    rng: &mut ChaCha8Rng,
    saved: Option<&mut SavedTrees<M::State, M::Move>>,
) -> Result<SearchResult, EngineError>
where
    M: Model + Sync,
    M::State: Send + Sync,
    M::Move: Send,
{
    let threads = p.threads.max(1) as usize;
    let mut saved = saved;
    if let Some(slots) = saved.as_deref_mut() {
        slots.resize_with(threads, || None);
    }
    if threads == 1 {
        let slot = saved.map(|s| &mut s[0]);
        return search_reusing(model, root, moves, history, p, rng, slot);
    }
    use rand_core::SeedableRng;
    let seeds: Vec<u64> = (0..threads).map(|_| rng.next_u64()).collect();
    let total = p.iterations.max(1);
    let share = |t: usize| total / threads as u64 + ((t as u64) < total % threads as u64) as u64;
    type Slot<'a, S, M> = Option<&'a mut Option<Saved<S, M>>>;
    let mut slots: Vec<Slot<M::State, M::Move>> = match saved {
        Some(v) => v.iter_mut().map(Some).collect(),
        None => (0..threads).map(|_| None).collect(),
    };
    let mut first_moves = Some(moves);
    let results: Vec<Result<SearchResult, EngineError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = slots
            .iter_mut()
            .enumerate()
            .map(|(t, slot)| {
                let pt = Params {
                    iterations: share(t).max(1),
                    threads: 1,
                    ..*p
                };
                let seed = seeds[t];
                let slot = slot.take();
                let given = if t == 0 { first_moves.take() } else { None };
                scope.spawn(move || {
                    let moves = match given {
                        Some(m) => m,
                        None => model.legal_moves(root)?,
                    };
                    let mut rng = ChaCha8Rng::seed_from_u64(seed);
                    search_reusing(model, root, moves, history, &pt, &mut rng, slot)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("an MCTS thread panicked"))
            .collect()
    });
    let mut merged: Option<SearchResult> = None;
    let mut rewards: Vec<f64> = vec![];
    for r in results {
        let r = r?;
        match &mut merged {
            None => {
                rewards = r
                    .means
                    .iter()
                    .zip(&r.visits)
                    .map(|(m, &v)| m * v as f64)
                    .collect();
                merged = Some(r);
            }
            Some(m) => {
                for i in 0..m.visits.len().min(r.visits.len()) {
                    m.visits[i] += r.visits[i];
                    rewards[i] += r.means[i] * r.visits[i] as f64;
                    if m.proven[i].is_none() {
                        m.proven[i] = r.proven[i];
                    }
                }
                m.iterations += r.iterations;
                m.reused += r.reused;
            }
        }
    }
    let mut m = merged.expect("at least one thread");
    for i in 0..m.visits.len() {
        m.means[i] = rewards[i] / m.visits[i].max(1) as f64;
    }
    m.best = final_move(p, &m.visits, &m.means, &m.proven);
    Ok(m)
}

/// An MCTS bot.
pub struct MctsBot {
    name: String,
    config: MctsConfig,
    values: ValueCache,
    /// The last search's trees (`reuse`), one per thread.
    saved: Vec<Option<Saved<State, Move>>>,
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
            saved: vec![],
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

    /// The chosen move's value for the mover ([`score_of`]).
    fn last_score(&self) -> Option<super::Score> {
        self.last.as_ref().and_then(score_of)
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
        let values = if c.uses_eval() {
            self.values.values(engine)
        } else {
            vec![1.0; engine.game.pieces.len()]
        };
        let model = EngineModel {
            engine,
            eval: Evaluator {
                values,
                weights,
                squares: None,
            },
        };
        let saved = if c.reuse { Some(&mut self.saved) } else { None };
        let mut params: Params = c.into();
        // On a clock, the clock's budget (or `time_ms`, if shorter).
        if let Some(t) = self.clock_time.take() {
            params.time = Some(params.time.map_or(t, |own| own.min(t)));
        }
        let r = search_parallel(&model, state, moves.to_vec(), history, &params, rng, saved)?;
        let best = r.best;
        self.last = Some(r);
        Ok(best)
    }

    fn set_clock(&mut self, clock: &super::ClockView) {
        self.clock_time = Some(clock.allot());
    }

    fn reset(&mut self) {
        self.values.clear();
        self.saved.clear();
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
        let sv = bot.saved[0].as_ref().unwrap();
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
        assert!(bot.saved.is_empty());
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
            nst: None,
            seq: vec![],
            record: true,
            refs: vec![],
            prove_wins: false,
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

    /// How many of `seeds` searches of `p` from the start of a two-player race to `goal` (steps of 1 or 2) play
    /// the long step, which is never worse: the race is won by whoever gets there first.
    fn long_steps(goal: u32, p: Params, seeds: u64) -> u64 {
        let race = Race {
            players: 2,
            goal,
            dice: false,
        };
        (0..seeds)
            .filter(|&seed| run(&race, &race.start(), p, seed).best == 1)
            .count() as u64
    }

    #[test]
    fn nst_prefers_the_reply_that_won_after_the_move_before() {
        // After move 1, the reply 7 won and 8 lost; after move 2, the other way round. Alone, 7 and 8 did equally.
        let mut mast = Mast::default();
        let mut nst = Nst::new(2);
        for (before, reply, r) in [(1u64, 7u64, 1.0), (1, 8, 0.0), (2, 7, 0.0), (2, 8, 1.0)] {
            for _ in 0..10 {
                mast.record(reply, 1, r);
                nst.record([before, reply].into_iter(), 1, r);
            }
        }
        let moves = [7u64, 8];
        let ids: Vec<Option<u64>> = moves.iter().map(|&m| Some(m)).collect();
        let mut rng = game_rng(4, 0);
        let mut w = vec![];
        let picks = |before: u64, n: u32, rng: &mut ChaCha8Rng, w: &mut Vec<f64>| {
            let nst = if n == 2 {
                &nst
            } else {
                &Nst {
                    table: HashMap::default(),
                    n: 1,
                }
            };
            let seq = vec![(Some(before), 0usize)];
            (0..1000)
                .filter(|_| {
                    pick_by(&ids, w, 0.0, None, rng, |id| nst.value(&mast, &seq, id, 1)) == 0
                })
                .count()
        };
        // NST: the reply that won after that move, every time.
        assert_eq!(picks(1, 2, &mut rng, &mut w), 1000);
        assert_eq!(picks(2, 2, &mut rng, &mut w), 0);
        // MAST's view (n = 1): a tie, broken at random.
        let alone = picks(1, 1, &mut rng, &mut w);
        assert!((400..=600).contains(&alone), "{alone}");
        // A sequence played fewer than NST_MIN_VISITS times does not count yet.
        let mut young = Nst::new(2);
        young.record([1u64, 8].into_iter(), 1, 1.0);
        assert_eq!(young.value(&mast, &[(Some(1), 0)], 8, 1), 0.5);
        // A move never seen counts as a win, so that it gets tried.
        assert_eq!(nst.value(&mast, &[(Some(1), 0)], 9, 1), 1.0);
    }

    #[test]
    fn nst_records_the_sequences_of_the_search() {
        // Race to 30: NST's search statistics hold the pairs of consecutive moves, and favour the long step.
        let race = Race {
            players: 2,
            goal: 30,
            dice: false,
        };
        let p = with(params(300), |p| p.rollout = RolloutPolicy::Nst);
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
            nst: Some(Nst::new(2)),
            seq: vec![],
            record: true,
            refs: vec![],
            prove_wins: false,
        };
        let id = tree.new_node(&race.start());
        tree.list(id, &race.start(), Some(moves)).unwrap();
        let mut rng = game_rng(2, 0);
        for _ in 0..300 {
            tree.iterate(&p, &mut rng).unwrap();
        }
        let (mast, nst) = (tree.mast.as_ref().unwrap(), tree.nst.as_ref().unwrap());
        for before in [1u64, 2] {
            let ctx = [(Some(before), 0usize)];
            assert!(
                nst.value(mast, &ctx, 2, 1) > nst.value(mast, &ctx, 1, 1) + 0.1,
                "after {before}"
            );
            for m in [1u64, 2] {
                let n = nst.table[&Nst::key([before, m].into_iter(), 1)].1;
                assert!(n >= NST_MIN_VISITS, "{before} {m}: {n}");
            }
        }
    }

    #[test]
    fn grave_finds_the_long_step_with_few_iterations() {
        // 20 iterations of a race to 20: plain UCT's choice is often wrong; the all-moves-as-first statistics of
        // the rollouts (the long step wins the games it is played in) decide it.
        let plain = long_steps(20, params(20), 200);
        let grave = long_steps(20, with(params(20), |p| p.grave = 5), 200);
        assert!(grave >= 190, "GRAVE {grave}/200 (plain {plain})");
        assert!(plain <= 170, "plain {plain}/200: not a test of GRAVE");
    }

    /// A hand-built Nim tree (heap 20, take 1 to 3) for GRAVE's reference: A (player 0, 100 visits) → B (player 1,
    /// 50 visits) → C (player 0, 3 visits), each of A and B listed with one move (take 1), C with two expanded
    /// children, take 1 and take 2, of one visit and the same mean ½. `a_amaf` and `b_amaf` are A's and B's
    /// all-moves-as-first tables (sum, count) for the moves 1 and 2.
    fn grave_tree<'a>(
        nim: &'a Nim,
        a_amaf: [(f64, u32); 2],
        b_amaf: [(f64, u32); 2],
    ) -> Tree<'a, Nim> {
        let node = |player: usize, visits: u32, moves: Vec<u32>, children: Vec<u32>| Node {
            listed: true,
            ids: moves.iter().map(|&m| Some(m as u64)).collect(),
            moves,
            children,
            player,
            visits,
            reward: visits as f64 / 2.0,
            ..Node::empty()
        };
        let mut a = node(0, 100, vec![1], vec![1]);
        let mut b = node(1, 50, vec![1], vec![2]);
        a.amaf.extend([(1, a_amaf[0]), (2, a_amaf[1])]);
        b.amaf.extend([(1, b_amaf[0]), (2, b_amaf[1])]);
        let c = node(0, 3, vec![1, 2], vec![3, 4]);
        // The leaves are not listed: the iteration lists the one it reaches and rolls out from below it.
        let leaf = |player| Node {
            player,
            visits: 1,
            reward: 0.5,
            ..Node::empty()
        };
        Tree {
            model: nim,
            root: NimState { heap: 20, turn: 0 },
            root_id: 0,
            nodes: vec![a, b, c, leaf(1), leaf(1)],
            history: vec![],
            path: vec![],
            players: 2,
            mast: None,
            nst: None,
            seq: vec![],
            record: true,
            refs: vec![],
            prove_wins: false,
        }
    }

    #[test]
    fn grave_reads_the_movers_own_all_moves_as_first_statistics() {
        // At C (player 0, 3 visits ≤ R = 5) the deepest node with more than R visits is B, player 1's: its table
        // holds player 1's moves. Player 0's own deepest such node is A. A says take 1 wins for player 0 (0.9) and
        // take 2 loses (0.1); B says the opposite of player 1's moves. C's children are otherwise equal, so the
        // table read decides which one the iteration goes down to.
        let nim = Nim { max_take: 3 };
        let p = with(params(1), |p| p.grave = 5);
        let mut rng = game_rng(1, 0);
        let mut tree = grave_tree(&nim, [(90.0, 100), (10.0, 100)], [(5.0, 50), (45.0, 50)]);
        tree.iterate(&p, &mut rng).unwrap();
        assert_eq!(tree.path[..3], [0, 1, 2]);
        assert_eq!(
            (tree.nodes[3].visits, tree.nodes[4].visits),
            (2, 1),
            "C must go down take 1, by A's (its own player's) statistics, not B's"
        );
        // The statistics still decide under the mover's own reference: A's table reversed, take 2.
        let mut tree = grave_tree(&nim, [(10.0, 100), (90.0, 100)], [(45.0, 50), (5.0, 50)]);
        tree.iterate(&p, &mut rng).unwrap();
        assert_eq!((tree.nodes[3].visits, tree.nodes[4].visits), (1, 2));
        // No node of the mover's with more than R visits on the path (A at 5): plain UCT, whose tie between C's
        // equal children goes to the first, whatever B's table says.
        let mut tree = grave_tree(&nim, [(10.0, 100), (90.0, 100)], [(5.0, 50), (45.0, 50)]);
        tree.nodes[0].visits = 5;
        tree.iterate(&p, &mut rng).unwrap();
        assert_eq!((tree.nodes[3].visits, tree.nodes[4].visits), (2, 1));
    }

    /// `n` rollouts of tic-tac-toe from `s` by [`policy_rollout`] (uniform, with or without decisive moves): each
    /// one's results and moves (cells) in order.
    fn ttt_rollouts(s: &TttState, decisive: bool, n: u64) -> Vec<(Vec<i8>, Vec<u64>)> {
        let p = with(params(1), |p| p.decisive = decisive);
        let mut rng = game_rng(5, 0);
        (0..n)
            .map(|_| {
                let (mut s, mut seq, mut history) = (s.clone(), vec![], vec![]);
                let r = policy_rollout(
                    &TicTacToe,
                    None,
                    None,
                    &mut seq,
                    &mut s,
                    &mut history,
                    &p,
                    &mut rng,
                )
                .unwrap()
                .expect("a tic-tac-toe game ends within 100 plies");
                (r, seq.iter().map(|e| e.0.unwrap()).collect())
            })
            .collect()
    }

    #[test]
    fn decisive_rollouts_play_the_win_in_one() {
        // X (player 0, mark 1) on 0 and 1, O on 3 and 4, X to move: cell 2 wins at once.
        let mut s = TttState::new();
        for (c, v) in [(0, 1), (1, 1), (3, 2), (4, 2)] {
            s.cells[c] = v;
        }
        let decisive = ttt_rollouts(&s, true, 200);
        assert!(decisive.iter().all(|(r, m)| r == &[1, -1] && m == &[2]));
        // Uniform rollouts take cell 2 first only one time in five (5 empty cells); otherwise O, on 3 and 4, may
        // take 5 and win. Strictly fewer X wins than 200 (the chance of 200 out of 200 is below 0.8^200).
        let uniform = ttt_rollouts(&s, false, 200);
        let won = uniform.iter().filter(|(r, _)| r == &[1, -1]).count();
        assert!(won < 200, "{won}");
        // O to move (X on 0 and 1, O on 4; O has no win in one): wherever O's first move leaves cell 2 open, X's
        // reply is cell 2 and wins, in every decisive rollout.
        let mut s = TttState::new();
        for (c, v) in [(0, 1), (1, 1), (4, 2)] {
            s.cells[c] = v;
        }
        s.turn = 1;
        let runs = ttt_rollouts(&s, true, 200);
        let open = runs.iter().filter(|(_, m)| m[0] != 2).count();
        assert!(open > 0);
        for (r, m) in runs.iter().filter(|(_, m)| m[0] != 2) {
            assert_eq!((&r[..], &m[1..]), (&[1, -1][..], &[2][..]), "{m:?}");
        }
    }

    #[test]
    fn decisive_listing_proves_a_node_with_a_win_in_one() {
        // Nim taking 1 to 3 from 5 stones: taking 2 or 3 leaves 3 or 2, a win in one for the opponent; taking 1
        // leaves 4, which has none (4 is lost for its mover, but only two plies down). After 3 iterations, each
        // expanding one root move (listed at once with the solver), decisive listing has proven the first two
        // lost; without it nothing is proven yet.
        let nim = Nim { max_take: 3 };
        let s = NimState { heap: 5, turn: 0 };
        let solver = with(params(3), |p| p.solver = true);
        let r = run(&nim, &s, with(solver, |p| p.decisive = true), 1);
        assert_eq!(r.iterations, 3);
        assert_eq!(r.proven, [None, Some(0.0), Some(0.0)], "{r:?}");
        assert_eq!(r.best, 0);
        let r = run(&nim, &s, solver, 1);
        assert_eq!(r.proven, [None, None, None], "{r:?}");
        // 3 stones at the root: proven at its listing, no iteration needed, and the win (take 3) is played.
        let s = NimState { heap: 3, turn: 1 };
        let r = run(&nim, &s, with(solver, |p| p.decisive = true), 1);
        assert_eq!((r.iterations, r.best), (0, 2), "{r:?}");
        assert_eq!(r.proven[2], Some(1.0));
    }

    #[test]
    fn decisive_moves_in_connect_four_are_judged_without_listing() {
        let game = load_file(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/games/connect-four.zrf"
        ));
        let engine = Engine::new(&game);
        let mut s = engine.initial();
        let mut history = vec![];
        let find = |s: &State, name: &str| {
            let moves = engine.legal_moves(s).unwrap();
            let i = (0..moves.len())
                .find(|&i| moves[i].notation(&game) == name)
                .unwrap_or_else(|| {
                    panic!("{name}: not among {:?}", Move::notations(&game, &moves))
                });
            (moves, i)
        };
        // Yellow (first) on d1, d2, d3; Red on a1, a2, a3; Yellow to move: d4 wins, any other drop does not.
        for name in ["d1", "a1", "d2", "a2", "d3", "a3"] {
            let (moves, i) = find(&s, &format!("Disc@{name}"));
            history.push(s.key());
            s = engine.apply(&s, &moves[i]);
        }
        let yellow = engine.to_move(&s).idx();
        let (moves, win) = find(&s, "Disc@d4");
        history.push(s.key());
        for (i, m) in moves.iter().enumerate() {
            let o = engine
                .outcome_unlisted(&engine.apply(&s, m), &history)
                .unwrap();
            if i == win {
                let o = o.expect("four in a row");
                assert_eq!(o.results[yellow], 1);
            } else {
                assert!(o.is_none(), "{}", m.notation(&game));
            }
        }
        history.pop();
        // The search: the root proven when listed, d4 played without an iteration.
        let model = EngineModel::new(&engine, Default::default());
        let p = with(params(1000), |p| (p.solver, p.decisive) = (true, true));
        let r = search(&model, &s, moves.clone(), &history, &p, &mut game_rng(1, 0)).unwrap();
        assert_eq!((r.iterations, r.best), (0, win), "{r:?}");
    }

    #[test]
    fn progressive_history_finds_the_long_step_with_few_iterations() {
        let plain = long_steps(20, params(40), 200);
        let ph = long_steps(20, with(params(40), |p| p.progressive_history = 100.0), 200);
        assert!(ph >= 180, "Progressive History {ph}/200 (plain {plain})");
        assert!(plain <= 170, "plain {plain}/200");
    }

    #[test]
    fn progressive_bias_follows_the_evaluation() {
        // The race's evaluation is the squares advanced: the long step's child is the better one.
        let plain = long_steps(20, params(20), 200);
        let pb = long_steps(20, with(params(20), |p| p.progressive_bias = 30.0), 200);
        assert!(pb >= 185, "progressive bias {pb}/200 (plain {plain})");
        assert!(plain <= 170, "plain {plain}/200");
    }

    #[test]
    fn playout_cutoff_scores_short_playouts_by_the_evaluation() {
        // Race to 200: a random game to the end says little about the first step; 4 plies and the evaluation do.
        let cfg = MctsConfig {
            iterations: 40,
            playout_cutoff: 4,
            ..MctsConfig::default()
        };
        let p: Params = (&cfg).into();
        assert_eq!((p.playout_plies, p.eval_at_cap), (4, true));
        let cut = long_steps(200, p, 50);
        let plain = long_steps(200, params(40), 50);
        assert_eq!(cut, 50, "cutoff {cut}/50 (plain {plain})");
        assert!(plain <= 45, "plain {plain}/50");
    }

    fn threads(p: Params, n: u32) -> Params {
        with(p, |p| p.threads = n)
    }

    fn run_parallel<M>(model: &M, s: &M::State, p: Params, seed: u64) -> SearchResult
    where
        M: Model + Sync,
        M::State: Send + Sync,
        M::Move: Send,
    {
        let moves = model.legal_moves(s).unwrap();
        search_parallel(model, s, moves, &[], &p, &mut game_rng(seed, 0), None).unwrap()
    }

    #[test]
    fn root_parallel_search_is_deterministic_for_a_count_budget() {
        let s = TttState::new();
        for n in [2u32, 3, 4] {
            let a = run_parallel(&TicTacToe, &s, threads(params(1001), n), 9);
            let b = run_parallel(&TicTacToe, &s, threads(params(1001), n), 9);
            assert_eq!(a, b, "{n} threads");
            // Every iteration counted once, shared out among the threads.
            assert_eq!(a.iterations, 1001);
            assert_eq!(a.visits.iter().sum::<u32>(), 1001);
            assert_ne!(
                a,
                run_parallel(&TicTacToe, &s, threads(params(1001), n), 10)
            );
        }
        // One thread is the plain search on the bot's stream.
        assert_eq!(
            run_parallel(&TicTacToe, &s, threads(params(500), 1), 9),
            run(&TicTacToe, &s, params(500), 9)
        );
        // Two threads: each its own stream and half the iterations; the sums are the two searches'.
        let mut rng = game_rng(9, 0);
        let seeds = [rng.next_u64(), rng.next_u64()];
        use rand_core::SeedableRng;
        let halves: Vec<SearchResult> = seeds
            .iter()
            .map(|&sd| {
                let moves = TicTacToe.legal_moves(&s).unwrap();
                search(
                    &TicTacToe,
                    &s,
                    moves,
                    &[],
                    &params(500),
                    &mut ChaCha8Rng::seed_from_u64(sd),
                )
                .unwrap()
            })
            .collect();
        let both = run_parallel(&TicTacToe, &s, threads(params(1000), 2), 9);
        for i in 0..9 {
            assert_eq!(both.visits[i], halves[0].visits[i] + halves[1].visits[i]);
        }
    }

    #[test]
    fn root_parallel_search_plays_well_with_chance_three_players_and_the_solver() {
        let nim = Nim { max_take: 3 };
        for heap in [5u32, 6, 7, 9, 10, 11] {
            let s = NimState { heap, turn: 0 };
            let r = run_parallel(
                &nim,
                &s,
                threads(with(params(1500), |p| p.solver = true), 2),
                heap as u64,
            );
            assert_eq!(r.best as u32 + 1, heap % 4, "heap {heap}: {r:?}");
            assert_eq!(r.proven[r.best], Some(1.0));
        }
        let race = Race {
            players: 3,
            goal: 12,
            dice: true,
        };
        let mut s = race.start();
        s.turn = 2;
        s.pos = vec![6, 8, 6];
        let r = run_parallel(&race, &s, threads(params(3000), 3), 4);
        assert_eq!(r.best, 1, "{r:?}");
    }

    #[test]
    fn enhancements_keep_chance_and_three_players_working() {
        // Player 1 of three, with a die, prefers the long step with each enhancement on.
        let race = Race {
            players: 3,
            goal: 12,
            dice: true,
        };
        let mut s = race.start();
        s.turn = 2;
        s.pos = vec![6, 8, 6];
        for (name, p) in [
            (
                "nst",
                with(params(3000), |p| p.rollout = RolloutPolicy::Nst),
            ),
            ("grave", with(params(3000), |p| p.grave = 20)),
            ("ph", with(params(3000), |p| p.progressive_history = 3.0)),
            ("pb", with(params(3000), |p| p.progressive_bias = 3.0)),
        ] {
            let r = run(&race, &s, p, 4);
            assert_eq!(r.best, 1, "{name}: {r:?}");
        }
    }

    #[test]
    fn engine_bot_with_threads_and_reuse_keeps_one_tree_per_thread() {
        let game = breakthrough(6);
        let engine = Engine::new(&game);
        let cfg = MctsConfig {
            iterations: 400,
            reuse: true,
            threads: 2,
            rollout: RolloutPolicy::Nst,
            grave: 20,
            ..MctsConfig::default()
        };
        let mut bot = MctsBot::new("m", cfg.clone());
        let s0 = engine.initial();
        let m0 = engine.legal_moves(&s0).unwrap();
        let i = bot
            .choose(&engine, &s0, &m0, &[], &mut game_rng(3, 0))
            .unwrap();
        assert_eq!(bot.saved.len(), 2);
        assert!(bot.saved.iter().all(|s| s.is_some()));
        let mut again = MctsBot::new("m", cfg);
        assert_eq!(
            again
                .choose(&engine, &s0, &m0, &[], &mut game_rng(3, 0))
                .unwrap(),
            i
        );
        assert_eq!(bot.last, again.last);
    }
}
