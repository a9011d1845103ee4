//! Alpha-beta: iterative-deepening minimax with alpha-beta pruning, a transposition table on the position hash,
//! move ordering (the table's move, then captures, most first, then killer moves and the history heuristic),
//! and a quiescence search of captures past the depth. With two players on opposite sides it is a
//! principal-variation search with aspiration windows at the root and late-move reductions; where the side to
//! move is in check it searches one ply deeper, and captures may extend a line by a few plies ([`Features`]).
//!
//! Scores are from the point of view of the player to move at the root. With two players this is negamax;
//! with more it is the *paranoid* search: every other player is assumed to play against the root player, but
//! for the root player's partners in a game of teams, who play with it.
//! Random (`?`) players' moves are averaged (expectimax). Leaves are scored by the model's evaluation, the
//! root player's score minus the others' mean, in hundredths of the cheapest piece; won and lost positions
//! score ±[`WIN`] less the distance, so the bot wins fast and loses slowly.
//!
//! The budget is a depth, optionally a number of nodes (then the search stops inside an iteration and keeps the
//! best move found so far) and optionally a time. Without a time limit the result depends only on the position
//! and the random stream (and, with `tt_reuse`, on the bot's earlier searches in the game, whose table entries it
//! reads): the root moves are shuffled once with it (so that equal moves vary between games).

use super::eval::{Evaluator, ValueCache, Weights};
use super::{relative, Bot, BotError, EngineModel, Model};
use crate::engine::playout::below;
use crate::engine::{Engine, EngineError, Move, State};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::time::{Duration, Instant};

/// The score of a won position (less the plies to the win).
pub const WIN: i32 = 1_000_000;
const INF: i32 = 2_000_000;
/// Scores beyond `WIN - MAX_PLY` are wins or losses, adjusted by the ply in the table.
const MAX_PLY: i32 = 10_000;

/// The settings of an alpha-beta bot (the keys of its preset).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct AlphaBetaConfig {
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
    /// Maximum depth in plies.
    pub depth: u32,
    /// Plies of captures searched past the depth (0: none).
    pub quiescence: u32,
    /// Stop after this many nodes.
    pub nodes: Option<u64>,
    /// Stop after this many milliseconds (makes the bot depend on the machine's speed).
    pub time_ms: Option<u64>,
    /// Evaluation weight of material.
    pub material: f64,
    /// Evaluation weight of each legal move.
    pub mobility: f64,
    /// Piece values, one per piece type in the game's order (`dagaz tune` writes them); empty: the game's own.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<f64>,
    /// Piece-square terms (`dagaz tune` writes them): one row per piece type in the game's order, one value per
    /// board position in the game's order, as the first player sees the board (other players' pieces are read
    /// through their frame, `bot::squares`); empty: none. Another shape is an error.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub squares: Vec<Vec<f64>>,
    /// Transposition table size in MiB.
    pub tt_mb: usize,
    /// Keep the transposition table's entries from one move of a game to the next (cleared by a new game).
    pub tt_reuse: bool,
    /// Principal-variation search: every move after the first searched with a null window first (two-player
    /// games only).
    pub pvs: bool,
    /// Half-width of the aspiration window around the last iteration's score, in hundredths of the cheapest
    /// piece (two-player games only; 0: a full window).
    pub aspiration: u32,
    /// Order quiet moves that caused cutoffs at the same ply (two per ply) first after captures.
    pub killers: bool,
    /// Order the other quiet moves by how often (weighted by depth squared) they caused a cutoff.
    pub history: bool,
    /// Late-move reductions: quiet moves after this many searched one ply shallower (two at depth 6 and after
    /// 12 moves), searched again at full depth when they beat the best so far (0: off; two-player games only).
    pub lmr: u32,
    /// Search one ply deeper where the player to move is in check (games with royal pieces).
    pub check_extension: bool,
    /// Plies by which captures may extend one line of the search (0: none).
    pub capture_extension: u32,
}

impl Default for AlphaBetaConfig {
    fn default() -> Self {
        let w = Weights::default();
        AlphaBetaConfig {
            name: None,
            tc: None,
            st: None,
            timemargin: None,
            depth: 4,
            quiescence: 4,
            nodes: None,
            time_ms: None,
            material: w.material,
            mobility: w.mobility,
            values: vec![],
            squares: vec![],
            tt_mb: 16,
            tt_reuse: true,
            pvs: true,
            aspiration: 50,
            killers: true,
            history: true,
            lmr: 3,
            check_extension: true,
            capture_extension: 0,
        }
    }
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// Index of the chosen root move.
    pub best: usize,
    /// Its score for the root player.
    pub score: i32,
    /// The deepest iteration completed (0 when even the first was cut short).
    pub depth: u32,
    pub nodes: u64,
}

const EXACT: u8 = 0;
const LOWER: u8 = 1;
const UPPER: u8 = 2;

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    score: i32,
    best: u16,
    depth: u8,
    bound: u8,
    generation: u8,
}

/// The transposition table: one entry per slot, always replaced. Entries of an earlier generation are ignored: a
/// search starts a generation of its own, or with `tt_reuse` keeps the one of the game (a new game starts one).
///
/// The table starts small and doubles while a search fills more than half of it, up to its size in MiB
/// (`tt_mb`): a bot uses the memory its searches need, not its whole allowance up front. The growth depends only
/// on the search, so the search stays deterministic (a smaller table replaces entries a full-size one would
/// keep: the same settings can search differently from builds whose table was whole from the start).
pub struct Table {
    entries: Vec<Entry>,
    /// The most entries the table may grow to (a power of two).
    max: usize,
    /// `tt_mb`, for the budget's message.
    mb: usize,
    /// Slots holding an entry of the current generation.
    used: usize,
    generation: u8,
}

/// The entries a table starts with (or fewer, where its size allows fewer).
const FIRST_ENTRIES: usize = 1 << 12;

/// Bytes held by every transposition table of the process (all bots of all games of a run).
static TT_BYTES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
/// Whether the budget's warning has been printed (once per process).
static TT_WARNED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// The memory all transposition tables of a run may hold together, in bytes: `DAGAZ_TT_BUDGET_MB` MiB, or
/// half the machine's memory (`MemTotal` of `/proc/meminfo`), or 4 GiB where that cannot be read. `tt_mb` is
/// what one table may grow to; the budget bounds them all, however many bots and games run at once.
pub fn tt_budget() -> usize {
    static BUDGET: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *BUDGET.get_or_init(|| {
        if let Some(mb) = std::env::var("DAGAZ_TT_BUDGET_MB")
            .ok()
            .and_then(|v| v.trim().parse::<usize>().ok())
        {
            return mb.max(1).saturating_mul(1 << 20);
        }
        std::fs::read_to_string("/proc/meminfo")
            .ok()
            .and_then(|m| {
                m.lines()
                    .find(|l| l.starts_with("MemTotal:"))
                    .and_then(|l| l.split_whitespace().nth(1))
                    .and_then(|kb| kb.parse::<usize>().ok())
            })
            .map_or(4 << 30, |kb| kb.saturating_mul(1024) / 2)
            // Nor more than half of what the process may map (`ulimit -v`) or its cgroup may use.
            .min(address_space_limit().map_or(usize::MAX, |b| b / 2))
            .min(
                std::fs::read_to_string("/sys/fs/cgroup/memory.max")
                    .ok()
                    .and_then(|m| m.trim().parse::<usize>().ok())
                    .map_or(usize::MAX, |b| b / 2),
            )
    })
}

/// The process's address-space limit (RLIMIT_AS), if any.
fn address_space_limit() -> Option<usize> {
    #[cfg(unix)]
    {
        let mut r = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit writes into the struct it is given.
        if unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut r) } == 0
            && r.rlim_cur != libc::RLIM_INFINITY
        {
            return Some(r.rlim_cur as usize);
        }
    }
    None
}

/// Takes `bytes` from the run's budget; false (and a warning, once) if they do not fit.
fn tt_take(bytes: usize, asked_mb: usize) -> bool {
    use std::sync::atomic::Ordering;
    let budget = tt_budget();
    let before = TT_BYTES.fetch_add(bytes, Ordering::SeqCst);
    if before.saturating_add(bytes) <= budget {
        return true;
    }
    TT_BYTES.fetch_sub(bytes, Ordering::SeqCst);
    if !TT_WARNED.swap(true, Ordering::SeqCst) {
        eprintln!(
            "warning: transposition tables: the run's memory budget for them ({} MiB in all, set by \
             DAGAZ_TT_BUDGET_MB; by default half the machine's memory) is in use, so a table that could grow \
             to tt_mb={asked_mb} MiB stops growing at {} MiB; searches from here on may depend on which games \
             run at once (a smaller tt_mb, fewer --jobs or a larger budget avoid it)",
            budget >> 20,
            (before.min(budget) >> 20).max(1).min(asked_mb),
        );
    }
    false
}

impl Drop for Table {
    fn drop(&mut self) {
        TT_BYTES.fetch_sub(
            self.entries.len() * std::mem::size_of::<Entry>(),
            std::sync::atomic::Ordering::SeqCst,
        );
    }
}

impl Table {
    pub fn new(mb: usize) -> Table {
        let n = (mb.max(1) << 20) / std::mem::size_of::<Entry>();
        let max = 1usize << (usize::BITS - 1 - n.leading_zeros());
        let first = max.min(FIRST_ENTRIES);
        // The first entries are taken from the run's budget even when it is used up (a few tens of KiB).
        TT_BYTES.fetch_add(
            first * std::mem::size_of::<Entry>(),
            std::sync::atomic::Ordering::SeqCst,
        );
        Table {
            entries: vec![Entry::default(); first],
            max,
            mb,
            used: 0,
            generation: 0,
        }
    }

    /// The entries allocated now.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.entries.len()
    }

    fn next_generation(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        self.used = 0;
        if self.generation == 0 {
            self.entries.fill(Entry::default());
            self.generation = 1;
        }
    }

    /// Doubles the table, keeping the current generation's entries (each lands in a slot of its own: the new
    /// slot of a key is its old slot plus one more bit of the key).
    fn grow(&mut self) {
        // Within the run's budget, and never an abort where the memory is not there: the table stays as it is.
        let extra = self.entries.len() * std::mem::size_of::<Entry>();
        if !tt_take(extra, self.mb) {
            self.max = self.entries.len();
            return;
        }
        let mut bigger: Vec<Entry> = vec![];
        if bigger.try_reserve_exact(self.entries.len() * 2).is_err() {
            TT_BYTES.fetch_sub(extra, std::sync::atomic::Ordering::SeqCst);
            self.max = self.entries.len();
            return;
        }
        bigger.resize(self.entries.len() * 2, Entry::default());
        let mask = bigger.len() - 1;
        for e in &self.entries {
            if e.generation == self.generation && self.generation != 0 {
                bigger[(e.key as usize) & mask] = *e;
            }
        }
        self.entries = bigger;
    }

    fn slot(&self, key: u64) -> usize {
        (key as usize) & (self.entries.len() - 1)
    }

    fn probe(&self, key: u64) -> Option<Entry> {
        let e = self.entries[self.slot(key)];
        (e.generation == self.generation && e.key == key).then_some(e)
    }

    fn store(&mut self, key: u64, depth: u32, score: i32, bound: u8, best: usize) {
        let slot = self.slot(key);
        if self.entries[slot].generation != self.generation {
            self.used += 1;
            if self.used * 2 > self.entries.len() && self.entries.len() < self.max {
                self.grow();
            }
        }
        let slot = self.slot(key);
        self.entries[slot] = Entry {
            key,
            score,
            best: best.min(u16::MAX as usize) as u16,
            depth: depth.min(255) as u8,
            bound,
            generation: self.generation,
        };
    }
}

fn to_table(score: i32, ply: u32) -> i32 {
    if score > WIN - MAX_PLY {
        score + ply as i32
    } else if score < -WIN + MAX_PLY {
        score - ply as i32
    } else {
        score
    }
}

fn from_table(score: i32, ply: u32) -> i32 {
    if score > WIN - MAX_PLY {
        score - ply as i32
    } else if score < -WIN + MAX_PLY {
        score + ply as i32
    } else {
        score
    }
}

/// The budget of one search.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub depth: u32,
    /// Plies of captures searched past the depth.
    pub quiescence: u32,
    pub nodes: Option<u64>,
    pub time: Option<Duration>,
    pub features: Features,
}

/// The enhancements of a search (see [`AlphaBetaConfig`] for each).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    pub tt_reuse: bool,
    pub pvs: bool,
    pub aspiration: u32,
    pub killers: bool,
    pub history: bool,
    pub lmr: u32,
    pub check_extension: bool,
    pub capture_extension: u32,
}

impl Features {
    /// None: plain alpha-beta with the table's move and captures first.
    pub fn plain() -> Features {
        Features {
            tt_reuse: false,
            pvs: false,
            aspiration: 0,
            killers: false,
            history: false,
            lmr: 0,
            check_extension: false,
            capture_extension: 0,
        }
    }

    pub fn of(c: &AlphaBetaConfig) -> Features {
        Features {
            tt_reuse: c.tt_reuse,
            pvs: c.pvs,
            aspiration: c.aspiration,
            killers: c.killers,
            history: c.history,
            lmr: c.lmr,
            check_extension: c.check_extension,
            capture_extension: c.capture_extension,
        }
    }
}

/// Slots of the history table per player (a power of two; move keys are folded into it).
const HISTORY_SLOTS: usize = 1 << 12;
/// The most a history entry counts; killers order before any quiet move below it.
const HISTORY_MAX: i32 = 0x3000_0000;

struct Searcher<'a, M: Model> {
    model: &'a M,
    root: usize,
    tt: &'a mut Table,
    nodes: u64,
    max_nodes: u64,
    deadline: Option<Instant>,
    stop: bool,
    /// Plies of captures searched past the depth.
    quiescence: u32,
    /// Keys of the game's earlier positions, then of the positions on the current path.
    history: Vec<u64>,
    /// Per ply: the legal moves of the position there, and its search order (reused from node to node).
    lists: Vec<M::Moves>,
    orders: Vec<Vec<u64>>,
    /// The moves made on the working state, to unmake.
    undo: M::Undo,
    f: Features,
    /// Two players on opposite sides and no random player: PVS, aspiration and reductions apply.
    zero_sum: bool,
    /// The depth of the current iteration (extensions stop at twice it).
    iteration: u32,
    /// Plies of capture extension on the current line.
    extended: u32,
    /// Per ply: two move keys that caused cutoffs there (0: none).
    killer: Vec<[u32; 2]>,
    /// Per player (modulo 4) and folded move key: the cutoffs' depth-squared sums.
    hist: Vec<i32>,
}

impl<M: Model> Searcher<'_, M> {
    fn terminal(&self, results: &[i8], ply: u32) -> i32 {
        match results.get(self.root).copied().unwrap_or(0) {
            r if r > 0 => WIN - ply as i32,
            r if r < 0 => -WIN + ply as i32,
            _ => 0,
        }
    }

    fn evaluate(&self, s: &M::State, moves: &M::Moves) -> Result<i32, EngineError> {
        let v = self.model.evaluate_at(s, moves)?;
        let x = (relative(self.model, &v, self.root) * 100.0).round();
        let cap = (WIN - MAX_PLY - 1) as f64;
        Ok(if x.is_nan() {
            0
        } else {
            x.clamp(-cap, cap) as i32
        })
    }

    fn out_of_budget(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes > self.max_nodes {
            self.stop = true;
        }
        if let Some(d) = self.deadline {
            // Every node: a node costs at least one move generation, far more than reading the clock.
            if Instant::now() >= d {
                self.stop = true;
            }
        }
        self.stop
    }

    /// The buffers of ply `ply` (taken out; [`Searcher::give_back`] returns them).
    fn take(&mut self, ply: usize) -> (M::Moves, Vec<u64>) {
        while self.lists.len() <= ply {
            self.lists.push(M::Moves::default());
            self.orders.push(vec![]);
            self.killer.push([0; 2]);
        }
        (
            std::mem::take(&mut self.lists[ply]),
            std::mem::take(&mut self.orders[ply]),
        )
    }

    fn give_back(&mut self, ply: usize, moves: M::Moves, order: Vec<u64>) {
        self.lists[ply] = moves;
        self.orders[ply] = order;
    }

    /// Move indices in search order into `order` (each packed by [`packed`], read by [`index`]): the table's
    /// move, then captures (most first), then the killers, then the rest by their history (as generated
    /// without).
    fn order(
        &self,
        moves: &M::Moves,
        first: Option<usize>,
        ply: usize,
        player: usize,
        order: &mut Vec<u64>,
    ) {
        order.clear();
        let killers = if self.f.killers {
            self.killer[ply]
        } else {
            [0; 2]
        };
        let keyed = self.f.killers || self.f.history;
        order.extend((0..self.model.count(moves)).map(|i| {
            let c = self.model.captures_at(moves, i);
            let rank = if c > 0 || !keyed {
                capture_rank(c)
            } else {
                let k = self.model.move_key_at(moves, i);
                if k != 0 && k == killers[0] {
                    KILLER_RANK
                } else if k != 0 && k == killers[1] {
                    KILLER_RANK + 1
                } else if self.f.history && k != 0 {
                    QUIET_RANK - self.hist[hist_slot(player, k)] as u32
                } else {
                    QUIET_RANK
                }
            };
            packed(Some(i) != first, rank, i)
        }));
        order.sort_unstable();
    }

    /// Whether move `i` is one of the killers of `ply`.
    fn is_killer(&self, moves: &M::Moves, i: usize, ply: usize) -> bool {
        if !self.f.killers {
            return false;
        }
        let k = self.model.move_key_at(moves, i);
        k != 0 && self.killer[ply].contains(&k)
    }

    /// A quiet move caused a cutoff at `ply` with `depth` left: it becomes the first killer there and its
    /// history grows.
    fn cutoff(&mut self, moves: &M::Moves, i: usize, ply: usize, player: usize, depth: u32) {
        if !(self.f.killers || self.f.history) {
            return;
        }
        let k = self.model.move_key_at(moves, i);
        if k == 0 {
            return;
        }
        if self.f.killers && self.killer[ply][0] != k {
            self.killer[ply] = [k, self.killer[ply][0]];
        }
        if self.f.history {
            let h = &mut self.hist[hist_slot(player, k)];
            *h = (*h + (depth * depth) as i32).min(HISTORY_MAX);
        }
    }

    /// Past the depth: the evaluation, or within `left` more plies the better of it and the captures (the
    /// side to move may always decline to capture). Random players' captures are not followed. `moves` are the
    /// legal moves of `s`, the position at `ply`.
    #[allow(clippy::too_many_arguments)]
    fn quiesce(
        &mut self,
        s: &mut M::State,
        moves: &M::Moves,
        ply: u32,
        left: u32,
        mut alpha: i32,
        mut beta: i32,
    ) -> Result<i32, EngineError> {
        let stand = self.evaluate(s, moves)?;
        if left == 0 || self.model.is_chance(s) {
            return Ok(stand);
        }
        let (next, mut captures) = self.take(ply as usize + 1);
        captures.clear();
        captures.extend((0..self.model.count(moves)).filter_map(|i| {
            let c = self.model.captures_at(moves, i);
            (c > 0).then(|| packed(false, capture_rank(c), i))
        }));
        if captures.is_empty() {
            self.give_back(ply as usize + 1, next, captures);
            return Ok(stand);
        }
        captures.sort_unstable();
        let maximizing = self.model.same_side(self.model.to_move(s), self.root);
        if maximizing && stand >= beta || !maximizing && stand <= alpha {
            self.give_back(ply as usize + 1, next, captures);
            return Ok(stand);
        }
        let mut next = next;
        self.history.push(self.model.key(s));
        let mut best = stand;
        for &x in &captures {
            let i = index(x);
            if self.out_of_budget() {
                break;
            }
            self.model.make(s, moves, i, &mut self.undo);
            let v = self.quiesce_child(s, &mut next, ply + 1, left - 1, alpha, beta);
            self.model.unmake(s, &mut self.undo);
            let v = v?;
            if self.stop {
                break;
            }
            if maximizing {
                best = best.max(v);
                alpha = alpha.max(v);
            } else {
                best = best.min(v);
                beta = beta.min(v);
            }
            if alpha >= beta {
                break;
            }
        }
        self.history.pop();
        self.give_back(ply as usize + 1, next, captures);
        Ok(best)
    }

    /// The value of a capture's position `s` at `ply` in the quiescence search (its moves listed into `next`).
    fn quiesce_child(
        &mut self,
        s: &mut M::State,
        next: &mut M::Moves,
        ply: u32,
        left: u32,
        alpha: i32,
        beta: i32,
    ) -> Result<i32, EngineError> {
        self.model.list(s, next, &mut self.undo)?;
        Ok(match self.model.outcome_at(s, next, &self.history)? {
            Some(r) => self.terminal(&r, ply),
            None => self.quiesce(s, next, ply, left, alpha, beta)?,
        })
    }

    fn node(
        &mut self,
        s: &mut M::State,
        depth: u32,
        ply: u32,
        alpha: i32,
        beta: i32,
    ) -> Result<i32, EngineError> {
        if self.out_of_budget() {
            return Ok(0);
        }
        let (mut moves, mut order) = self.take(ply as usize);
        let r = self.node_with(s, &mut moves, &mut order, depth, ply, alpha, beta);
        self.give_back(ply as usize, moves, order);
        r
    }

    /// The value of move `i` of `moves` (listed for `s` at `ply`) searched to `depth` with the window
    /// (`alpha`, `beta`), both from the point of view of the side moving: `sign` 1 for the root's side, -1 for
    /// the others (whose window and value are negated).
    #[allow(clippy::too_many_arguments)]
    fn child(
        &mut self,
        s: &mut M::State,
        moves: &M::Moves,
        i: usize,
        depth: u32,
        ply: u32,
        alpha: i32,
        beta: i32,
        sign: i32,
    ) -> Result<i32, EngineError> {
        let (a, b) = if sign > 0 {
            (alpha, beta)
        } else {
            (-beta, -alpha)
        };
        self.model.make(s, moves, i, &mut self.undo);
        let v = self.node(s, depth, ply + 1, a, b);
        self.model.unmake(s, &mut self.undo);
        Ok(sign * v?)
    }

    #[allow(clippy::too_many_arguments)]
    fn node_with(
        &mut self,
        s: &mut M::State,
        moves: &mut M::Moves,
        order: &mut Vec<u64>,
        mut depth: u32,
        ply: u32,
        alpha: i32,
        beta: i32,
    ) -> Result<i32, EngineError> {
        self.model.list(s, moves, &mut self.undo)?;
        if let Some(r) = self.model.outcome_at(s, moves, &self.history)? {
            return Ok(self.terminal(&r, ply));
        }
        let n = self.model.count(moves);
        let in_check = self.f.check_extension && n > 0 && self.model.in_check(s)?;
        if in_check && ply < 2 * self.iteration {
            depth += 1;
        }
        if depth == 0 || n == 0 {
            return self.quiesce(s, moves, ply, self.quiescence, alpha, beta);
        }
        let key = self.model.key(s) ^ crate::engine::state::mix(self.root as u64);
        let mut first = None;
        if let Some(e) = self.tt.probe(key) {
            if (e.best as usize) < n {
                first = Some(e.best as usize);
            }
            if e.depth as u32 >= depth {
                let sc = from_table(e.score, ply);
                match e.bound {
                    EXACT => return Ok(sc),
                    LOWER if sc >= beta => return Ok(sc),
                    UPPER if sc <= alpha => return Ok(sc),
                    _ => {}
                }
            }
        }
        let player = self.model.to_move(s);
        self.order(moves, first, ply as usize, player, order);
        self.history.push(self.model.key(s));
        let mut best_i = index(order[0]);
        let best;
        let bound;
        if self.model.is_chance(s) {
            let mut sum = 0i64;
            for &x in order.iter() {
                let i = index(x);
                self.model.make(s, moves, i, &mut self.undo);
                let v = self.node(s, depth - 1, ply + 1, -INF, INF);
                self.model.unmake(s, &mut self.undo);
                sum += v? as i64;
                if self.stop {
                    break;
                }
            }
            best = (sum / n as i64) as i32;
            bound = EXACT;
        } else {
            // The side to move's point of view: the root's side maximizes the score, the others minimize it
            // (maximize its negation).
            let sign = if self.model.same_side(player, self.root) {
                1
            } else {
                -1
            };
            let (mut a, b) = if sign > 0 {
                (alpha, beta)
            } else {
                (-beta, -alpha)
            };
            let a0 = a;
            let pvs = self.zero_sum && self.f.pvs;
            let lmr = if self.zero_sum { self.f.lmr } else { 0 };
            let mut bv = -INF;
            for (k, &x) in order.iter().enumerate() {
                let i = index(x);
                let captures = self.model.captures_at(moves, i);
                let extend = captures > 0
                    && self.extended < self.f.capture_extension
                    && ply < 2 * self.iteration;
                let d = depth - 1 + extend as u32;
                self.extended += extend as u32;
                // Late quiet moves first to a reduced depth with a null window: only one that beats the best
                // so far is searched in full.
                let reduce = if lmr > 0
                    && k >= lmr as usize
                    && depth >= 3
                    && captures == 0
                    && !in_check
                    && !self.is_killer(moves, i, ply as usize)
                {
                    1 + (depth >= 6 && k >= 12) as u32
                } else {
                    0
                };
                let mut v = a + 1;
                if reduce > 0 {
                    v = self.child(s, moves, i, d - reduce, ply, a, a + 1, sign)?;
                }
                if v > a && !self.stop {
                    v = if pvs && k > 0 {
                        let w = self.child(s, moves, i, d, ply, a, a + 1, sign)?;
                        if w > a && w < b && !self.stop {
                            self.child(s, moves, i, d, ply, a, b, sign)?
                        } else {
                            w
                        }
                    } else {
                        self.child(s, moves, i, d, ply, a, b, sign)?
                    };
                }
                self.extended -= extend as u32;
                if self.stop {
                    break;
                }
                if v > bv {
                    bv = v;
                    best_i = i;
                }
                a = a.max(v);
                if a >= b {
                    if captures == 0 {
                        self.cutoff(moves, i, ply as usize, player, depth);
                    }
                    break;
                }
            }
            // The bound in the mover's view, then in the root's.
            let mover = if bv <= a0 {
                UPPER
            } else if bv >= b {
                LOWER
            } else {
                EXACT
            };
            best = sign * bv;
            bound = match (sign > 0, mover) {
                (false, UPPER) => LOWER,
                (false, LOWER) => UPPER,
                (_, m) => m,
            };
        }
        self.history.pop();
        if self.stop {
            return Ok(0);
        }
        self.tt
            .store(key, depth, to_table(best, ply), bound, best_i);
        Ok(best)
    }
}
/// Searches `root` (whose legal moves are `moves`, not empty) and returns the best move's index. The search
/// lists each position's moves into a buffer per ply and makes and unmakes them on one copy of `root`
/// ([`Model::list`], [`Model::make`]).
pub fn search<M: Model>(
    model: &M,
    root: &M::State,
    moves: &[M::Move],
    history: &[u64],
    limits: Limits,
    tt: &mut Table,
    rng: &mut ChaCha8Rng,
) -> Result<SearchResult, EngineError> {
    if !limits.features.tt_reuse || tt.generation == 0 {
        tt.next_generation();
    }
    let root_player = model.to_move(root);
    let mut history = history.to_vec();
    history.push(model.key(root));
    let stakes: Vec<usize> = (0..model.num_players())
        .filter(|&p| !model.is_random_player(p))
        .collect();
    let zero_sum = stakes.len() == 2 && !model.same_side(stakes[0], stakes[1]);
    let f = limits.features;
    let mut s = Searcher {
        model,
        root: root_player,
        tt,
        nodes: 0,
        max_nodes: limits.nodes.unwrap_or(u64::MAX),
        deadline: limits.time.map(|t| Instant::now() + t),
        stop: false,
        quiescence: limits.quiescence,
        history,
        lists: vec![],
        orders: vec![],
        undo: M::Undo::default(),
        f,
        zero_sum,
        iteration: 0,
        extended: 0,
        killer: vec![],
        hist: if f.history {
            vec![0; 4 * HISTORY_SLOTS]
        } else {
            vec![]
        },
    };
    // Shuffle once (Fisher-Yates with the bot's stream) so equal moves vary between games, then captures first.
    let mut order: Vec<usize> = (0..moves.len()).collect();
    for i in (1..order.len()).rev() {
        order.swap(i, below(rng, i + 1));
    }
    order.sort_by_key(|&i| std::cmp::Reverse(model.captures(&moves[i])));
    let mut result = SearchResult {
        best: order[0],
        score: 0,
        depth: 0,
        nodes: 0,
    };
    if moves.len() == 1 {
        return Ok(result);
    }
    // The root's moves as a buffer: the same moves in the same order as `moves`.
    let mut work = root.clone();
    let mut root_moves = M::Moves::default();
    model.list(&mut work, &mut root_moves, &mut s.undo)?;
    if model.count(&root_moves) != moves.len() {
        return Err(EngineError(format!(
            "alpha-beta: {} legal moves given for the root, {} listed",
            moves.len(),
            model.count(&root_moves)
        )));
    }
    let pvs = zero_sum && f.pvs;
    for depth in 1..=limits.depth.max(1) {
        s.iteration = depth;
        // The aspiration window: around the last score, widened on the side that fails (to the full window).
        let w = if zero_sum { f.aspiration as i32 } else { 0 };
        let (mut lo, mut hi) = if w > 0 && depth > 1 && !score_is_decided(result.score) {
            (result.score - w, result.score + w)
        } else {
            (-INF, INF)
        };
        let mut found: Option<(usize, i32)>;
        loop {
            let mut alpha = lo;
            found = None;
            for (k, &i) in order.iter().enumerate() {
                let v = if pvs && k > 0 {
                    let t =
                        s.child(&mut work, &root_moves, i, depth - 1, 0, alpha, alpha + 1, 1)?;
                    if t > alpha && t < hi && !s.stop {
                        s.child(&mut work, &root_moves, i, depth - 1, 0, alpha, hi, 1)?
                    } else {
                        t
                    }
                } else {
                    s.child(&mut work, &root_moves, i, depth - 1, 0, alpha, hi, 1)?
                };
                if s.stop {
                    break;
                }
                if found.is_none_or(|(_, b)| v > b) {
                    found = Some((i, v));
                }
                alpha = alpha.max(v);
                if alpha >= hi {
                    break;
                }
            }
            if s.stop {
                break;
            }
            match found {
                Some((_, v)) if v <= lo && lo > -INF => lo = -INF,
                Some((_, v)) if v >= hi && hi < INF => hi = INF,
                _ => break,
            }
        }
        if let Some((best, score)) = found {
            // A cut-short iteration still searched the previous best first: whatever beat it is better (but a
            // score at or below the window's floor says nothing).
            if !s.stop || score > lo {
                result.best = best;
                result.score = score;
                if !s.stop {
                    result.depth = depth;
                }
                let at = order.iter().position(|&i| i == best).unwrap();
                order[..=at].rotate_right(1);
            }
        }
        if s.stop || score_is_decided(result.score) {
            break;
        }
    }
    result.nodes = s.nodes;
    Ok(result)
}

/// A move's place in the search order as one number, smallest first: not the table's move (`later`), its rank
/// (below 2^31: [`capture_rank`], killers, quiet moves by history), a later index. Sorting these orders the
/// moves as a stable sort by (`later`, rank) would.
fn packed(later: bool, rank: u32, i: usize) -> u64 {
    ((later as u64) << 63) | ((rank as u64 & 0x7FFF_FFFF) << 32) | (i as u64 & 0xFFFF_FFFF)
}

/// The rank of the first killer (the second's is one more): after every capture, before every quiet move.
const KILLER_RANK: u32 = 0x1_0000;
/// The rank of a quiet move with no history (one with history ranks lower by it, still after the killers).
const QUIET_RANK: u32 = 0x7FFF_FFFF;

/// The rank of a move capturing `c` pieces: most first, quiet moves ([`QUIET_RANK`]) last.
fn capture_rank(c: usize) -> u32 {
    if c == 0 {
        QUIET_RANK
    } else {
        0xFFFF - c.min(0xFFFF) as u32
    }
}

/// The history table's slot of a move key for a player.
fn hist_slot(player: usize, key: u32) -> usize {
    (player & 3) * HISTORY_SLOTS + (key as usize & (HISTORY_SLOTS - 1))
}

/// The move index of a [`packed`] place.
fn index(x: u64) -> usize {
    (x & 0xFFFF_FFFF) as usize
}

/// Whether a score is a forced win or loss (searching deeper will not change it).
fn score_is_decided(score: i32) -> bool {
    score.abs() > WIN - MAX_PLY
}

/// A search score as a bot reports it: a decided one (a win `WIN - plies`) as a mate in moves, counting the
/// mover's moves (plies 1 and 2: 1 move), else the score itself.
pub fn score_of(score: i32) -> super::Score {
    if score_is_decided(score) {
        let plies = WIN - score.abs();
        let moves = (plies + 1) / 2;
        super::Score::Mate(if score > 0 {
            moves.max(1)
        } else {
            -moves.max(1)
        })
    } else {
        super::Score::Cp(score)
    }
}

/// An alpha-beta bot.
pub struct AlphaBetaBot {
    name: String,
    config: AlphaBetaConfig,
    /// Allocated at the first move.
    tt: Option<Table>,
    values: ValueCache,
    /// What the last search found (for logs and tests).
    pub last: Option<SearchResult>,
    /// The clock's budget for the next move ([`Bot::set_clock`]).
    clock_time: Option<Duration>,
}

impl AlphaBetaBot {
    pub fn new(name: impl Into<String>, config: AlphaBetaConfig) -> Self {
        AlphaBetaBot {
            name: name.into(),
            config,
            tt: None,
            clock_time: None,
            values: ValueCache::default(),
            last: None,
        }
    }
}

impl Bot for AlphaBetaBot {
    fn name(&self) -> &str {
        &self.name
    }

    fn last_nodes(&self) -> Option<u64> {
        self.last.as_ref().map(|r| r.nodes)
    }

    /// The search's score in hundredths of the cheapest piece; a forced win or loss as a mate in moves.
    fn last_score(&self) -> Option<super::Score> {
        self.last.as_ref().map(|r| score_of(r.score))
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
        let values = if self.config.values.is_empty() {
            self.values.values(engine)
        } else if self.config.values.len() == engine.game.pieces.len() {
            self.config.values.clone()
        } else {
            return Err(BotError::Engine(EngineError(format!(
                "alphabeta: `values` gives {} piece values, the game has {} piece types",
                self.config.values.len(),
                engine.game.pieces.len()
            ))));
        };
        let squares = if self.config.squares.is_empty() {
            None
        } else {
            let t = super::squares::SquareTable::new(engine.game, &self.config.squares)
                .map_err(|e| BotError::Engine(EngineError(format!("alphabeta: {e}"))))?;
            Some(std::sync::Arc::new(t))
        };
        let model = EngineModel {
            engine,
            eval: Evaluator {
                values,
                weights: Weights {
                    material: self.config.material,
                    mobility: self.config.mobility,
                },
                squares,
            },
        };
        let c = &self.config;
        let limits = Limits {
            depth: c.depth,
            quiescence: c.quiescence,
            nodes: c.nodes,
            // On a clock, the clock's budget (or `time_ms`, if shorter).
            time: match (self.clock_time.take(), c.time_ms.map(Duration::from_millis)) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            },
            features: Features::of(c),
        };
        let tt = self.tt.get_or_insert_with(|| Table::new(c.tt_mb));
        let r = search(&model, state, moves, history, limits, tt, rng)?;
        let best = r.best;
        self.last = Some(r);
        Ok(best)
    }

    fn set_clock(&mut self, clock: &super::ClockView) {
        self.clock_time = Some(clock.allot());
    }

    fn reset(&mut self) {
        self.values.clear();
        // A new game: the table's entries die (the memory stays).
        if let Some(tt) = &mut self.tt {
            tt.next_generation();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::testgames::*;
    use crate::engine::playout::game_rng;

    fn limits(depth: u32) -> Limits {
        Limits {
            depth,
            quiescence: 0,
            nodes: None,
            time: None,
            features: Features::plain(),
        }
    }

    fn best<M: Model>(model: &M, s: &M::State, l: Limits, seed: u64) -> SearchResult {
        let moves = model.legal_moves(s).unwrap();
        let mut tt = Table::new(1);
        search(model, s, &moves, &[], l, &mut tt, &mut game_rng(seed, 0)).unwrap()
    }

    /// The engine's model with the search methods of the generic path (owned lists, a state copy per move).
    struct ByCopy<'e, 'g>(EngineModel<'e, 'g>);

    impl Model for ByCopy<'_, '_> {
        type State = State;
        type Move = Move;
        crate::bot::search_by_copy!();
        fn num_players(&self) -> usize {
            self.0.num_players()
        }
        fn to_move(&self, s: &State) -> usize {
            self.0.to_move(s)
        }
        fn is_chance(&self, s: &State) -> bool {
            self.0.is_chance(s)
        }
        fn is_random_player(&self, p: usize) -> bool {
            self.0.is_random_player(p)
        }
        fn same_side(&self, a: usize, b: usize) -> bool {
            self.0.same_side(a, b)
        }
        fn legal_moves(&self, s: &State) -> Result<Vec<Move>, EngineError> {
            self.0.legal_moves(s)
        }
        fn apply(&self, s: &State, m: &Move) -> State {
            self.0.apply(s, m)
        }
        fn outcome(
            &self,
            s: &State,
            moves: &[Move],
            history: &[u64],
        ) -> Result<Option<Vec<i8>>, EngineError> {
            self.0.outcome(s, moves, history)
        }
        fn key(&self, s: &State) -> u64 {
            self.0.key(s)
        }
        fn captures(&self, m: &Move) -> usize {
            self.0.captures(m)
        }
        fn move_key(&self, m: &Move) -> u32 {
            crate::engine::search::move_key(m)
        }
        fn in_check(&self, s: &State) -> Result<bool, EngineError> {
            self.0.in_check(s)
        }
        fn evaluate(&self, s: &State, moves: &[Move]) -> Result<Vec<f64>, EngineError> {
            self.0.evaluate(s, moves)
        }
    }

    /// Alpha-beta on the engine's move buffers and make/unmake searches exactly as on owned lists and state
    /// copies: the same move, score, depth and nodes, from positions along random games of games on every
    /// listing path (flat with a count plan or a sampling plan, the draughts kernel, royal candidates, owned).
    #[test]
    fn buffers_and_make_unmake_search_as_copies_do() {
        use crate::engine::playout::below;
        let dir = env!("CARGO_MANIFEST_DIR");
        for file in [
            "breakthrough",
            "english-checkers",
            "othello",
            "chess",
            "connect-four",
            "oware",
            "go-9x9",
            "backgammon",
        ] {
            let game = load_file(&format!("{dir}/games/{file}.zrf"));
            let engine = Engine::new(&game);
            let l = Limits {
                depth: 3,
                quiescence: 2,
                nodes: Some(3000),
                time: None,
                features: Features::of(&AlphaBetaConfig::default()),
            };
            let mut rng = game_rng(11, 0);
            let mut s = engine.initial();
            let mut history = vec![];
            for ply in 0..40 {
                let moves = engine.legal_moves(&s).unwrap();
                if engine.outcome(&s, &moves, &history).unwrap().is_some() {
                    break;
                }
                if ply % 8 == 0 && !engine.is_chance(&s) {
                    let fast = EngineModel::new(&engine, Weights::default());
                    let slow = ByCopy(EngineModel::new(&engine, Weights::default()));
                    let (mut t1, mut t2) = (Table::new(1), Table::new(1));
                    let a = search(&fast, &s, &moves, &history, l, &mut t1, &mut game_rng(5, 0));
                    let b = search(&slow, &s, &moves, &history, l, &mut t2, &mut game_rng(5, 0));
                    assert_eq!(a.unwrap(), b.unwrap(), "{file} ply {ply}");
                }
                history.push(s.key());
                s = engine.apply(&s, &moves[below(&mut rng, moves.len())]);
            }
        }
    }

    fn with(depth: u32, quiescence: u32, features: Features) -> Limits {
        Limits {
            depth,
            quiescence,
            nodes: None,
            time: None,
            features,
        }
    }

    fn all() -> Features {
        Features::of(&AlphaBetaConfig::default())
    }

    /// PVS with aspiration windows, killers, history and late-move reductions keep the game-theoretic values
    /// of small solved games: tic-tac-toe is a draw and its win in one is taken; Nim's won heaps are won in the
    /// fewest moves and its lost heaps lost.
    #[test]
    fn enhanced_search_keeps_the_values_of_solved_games() {
        let r = best(&TicTacToe, &TttState::new(), with(9, 0, all()), 1);
        assert_eq!(r.score, 0, "{r:?}");
        let mut s = TttState::new();
        s.cells = [1, 1, 0, 2, 2, 0, 0, 0, 0];
        let moves = TicTacToe.legal_moves(&s).unwrap();
        let r = best(&TicTacToe, &s, with(5, 0, all()), 3);
        assert_eq!((moves[r.best], r.score), (2, WIN - 1), "{r:?}");
        for max_take in [3, 5] {
            let nim = Nim { max_take };
            for heap in 1..=20u32 {
                let s = NimState { heap, turn: 0 };
                let moves = nim.legal_moves(&s).unwrap();
                let plain = best(&nim, &s, with(21, 0, Features::plain()), heap as u64);
                let r = best(&nim, &s, with(21, 0, all()), heap as u64);
                assert_eq!(
                    r.score, plain.score,
                    "take {max_take} heap {heap}: {r:?} {plain:?}"
                );
                if heap % (max_take + 1) != 0 {
                    assert_eq!(moves[r.best], heap % (max_take + 1), "heap {heap}: {r:?}");
                }
            }
        }
    }

    /// Positions along a random game of `file`, every `every` plies up to `plies`.
    fn positions(file: &str, plies: usize, every: usize) -> (crate::Game, Vec<(State, Vec<u64>)>) {
        let dir = env!("CARGO_MANIFEST_DIR");
        let game = load_file(&format!("{dir}/games/{file}.zrf"));
        let out = {
            let engine = Engine::new(&game);
            let mut rng = game_rng(3, 0);
            let mut s = engine.initial();
            let mut history = vec![];
            let mut out = vec![];
            for ply in 0..plies {
                let moves = engine.legal_moves(&s).unwrap();
                if engine.outcome(&s, &moves, &history).unwrap().is_some() {
                    break;
                }
                if ply % every == 0 {
                    out.push((s.clone(), history.clone()));
                }
                history.push(s.key());
                s = engine.apply(
                    &s,
                    &moves[crate::engine::playout::below(&mut rng, moves.len())],
                );
            }
            out
        };
        (game, out)
    }

    /// The nodes to search each position to a depth with some features.
    fn nodes(game: &crate::Game, at: &[(State, Vec<u64>)], l: Limits) -> Vec<u64> {
        let engine = Engine::new(game);
        let model = EngineModel::new(&engine, Weights::default());
        at.iter()
            .map(|(s, h)| {
                let moves = engine.legal_moves(s).unwrap();
                let mut tt = Table::new(4);
                search(&model, s, &moves, h, l, &mut tt, &mut game_rng(1, 0))
                    .unwrap()
                    .nodes
            })
            .collect()
    }

    /// Killers and history order cutoff moves first: fewer nodes to the same depth on chess and English
    /// checkers; PVS and late-move reductions on top, fewer again.
    #[test]
    fn killers_history_pvs_and_reductions_cut_nodes() {
        for (file, depth) in [("chess", 4), ("english-checkers", 6)] {
            let (game, at) = positions(file, 60, 10);
            let plain = Features::plain();
            let ordered = Features {
                killers: true,
                history: true,
                ..plain
            };
            let pvs = Features {
                pvs: true,
                aspiration: 50,
                lmr: 3,
                ..ordered
            };
            let sum = |f| nodes(&game, &at, with(depth, 2, f)).iter().sum::<u64>();
            let (a, b, c) = (sum(plain), sum(ordered), sum(pvs));
            assert!(b < a, "{file}: killers and history {b} nodes, plain {a}");
            assert!(c < b, "{file}: with PVS and LMR {c} nodes, without {b}");
        }
    }

    /// A win in two that the opponent cannot prevent is found by every combination of features: Fool's mate
    /// in chess (1. f3 e5 2. g4, black mates with Qh4), searched to 3 plies.
    #[test]
    fn every_feature_finds_the_mate() {
        let dir = env!("CARGO_MANIFEST_DIR");
        let game = load_file(&format!("{dir}/games/chess.zrf"));
        let engine = Engine::new(&game);
        let mut s = engine.initial();
        let mut history = vec![];
        assert!(!engine.in_check(&s).unwrap());
        for m in ["f2-f3", "e7-e5", "g2-g4"] {
            let moves = engine.legal_moves(&s).unwrap();
            let names = Move::notations(&game, &moves);
            let i = names
                .iter()
                .position(|n| n == m)
                .unwrap_or_else(|| panic!("{m} in {names:?}"));
            history.push(s.key());
            s = engine.apply(&s, &moves[i]);
        }
        let moves = engine.legal_moves(&s).unwrap();
        let names = Move::notations(&game, &moves);
        let model = EngineModel::new(&engine, Weights::default());
        for f in [
            Features::plain(),
            all(),
            Features {
                capture_extension: 2,
                ..all()
            },
        ] {
            let mut tt = Table::new(1);
            let r = search(
                &model,
                &s,
                &moves,
                &history,
                with(3, 2, f),
                &mut tt,
                &mut game_rng(2, 0),
            )
            .unwrap();
            assert_eq!(names[r.best], "d8-h4", "{f:?}: {r:?}");
            assert_eq!(r.score, WIN - 1, "{f:?}");
        }
        // After the mate, white is in check.
        let mut after = s.clone();
        let i = names.iter().position(|n| n == "d8-h4").unwrap();
        engine.play(&mut after, &moves[i]);
        assert!(engine.in_check(&after).unwrap());
    }

    /// The check extension searches a line one ply deeper where the side to move is in check.
    #[test]
    fn check_extension_sees_further_in_checks() {
        let (game, at) = positions("chess", 80, 4);
        let engine = Engine::new(&game);
        let no = Features {
            check_extension: false,
            ..all()
        };
        let l = with(3, 0, no);
        let yes = with(3, 0, all());
        // Checks within reach of the positions of a game: the extension searches more.
        let (a, b) = (nodes(&game, &at, l), nodes(&game, &at, yes));
        assert!(b.iter().sum::<u64>() > a.iter().sum::<u64>(), "{a:?} {b:?}");
        let _ = engine;
    }

    /// The table's entries serve the next move of the same game: the second search of a position needs fewer
    /// nodes with reuse; a new game (reset) starts from an empty table.
    #[test]
    fn the_table_is_reused_between_moves_and_reset_by_a_new_game() {
        let dir = env!("CARGO_MANIFEST_DIR");
        let game = load_file(&format!("{dir}/games/english-checkers.zrf"));
        let engine = Engine::new(&game);
        let s = engine.initial();
        let moves = engine.legal_moves(&s).unwrap();
        let config = AlphaBetaConfig {
            depth: 6,
            ..Default::default()
        };
        let mut bot = AlphaBetaBot::new("ab", config.clone());
        bot.choose(&engine, &s, &moves, &[], &mut game_rng(1, 0))
            .unwrap();
        let first = bot.last.clone().unwrap();
        bot.choose(&engine, &s, &moves, &[], &mut game_rng(1, 0))
            .unwrap();
        let again = bot.last.clone().unwrap();
        assert!(again.nodes < first.nodes, "{again:?} {first:?}");
        bot.reset();
        bot.choose(&engine, &s, &moves, &[], &mut game_rng(1, 0))
            .unwrap();
        assert_eq!(bot.last.clone().unwrap(), first);
        // Without reuse, every search starts afresh.
        let mut bot = AlphaBetaBot::new(
            "ab",
            AlphaBetaConfig {
                tt_reuse: false,
                ..config
            },
        );
        bot.choose(&engine, &s, &moves, &[], &mut game_rng(1, 0))
            .unwrap();
        let a = bot.last.clone().unwrap();
        bot.choose(&engine, &s, &moves, &[], &mut game_rng(1, 0))
            .unwrap();
        assert_eq!(bot.last.clone().unwrap(), a);
    }

    #[test]
    fn the_table_grows_on_demand_up_to_its_size() {
        let mut tt = Table::new(1);
        let max = tt.max;
        assert_eq!(tt.len(), FIRST_ENTRIES.min(max));
        tt.next_generation();
        let keys: Vec<u64> = (0..max as u64 * 2)
            .map(|i| crate::engine::state::mix(i + 1))
            .collect();
        for (i, &k) in keys.iter().enumerate() {
            tt.store(k, 3, i as i32, EXACT, i);
            // Every entry stored since the last growth is still found right after it is stored.
            assert_eq!(tt.probe(k).map(|e| e.score), Some(i as i32));
        }
        assert_eq!(tt.len(), max, "grown to its size and no further");
        // A table that only a few entries reach stays at its first size.
        let mut small = Table::new(64);
        small.next_generation();
        for &k in &keys[..100] {
            small.store(k, 1, 0, EXACT, 0);
        }
        assert_eq!(small.len(), FIRST_ENTRIES);
        // A new search starts counting again: the old entries are dead.
        small.next_generation();
        assert!(small.probe(keys[0]).is_none());
    }

    #[test]
    fn nim_winning_moves_are_found_at_full_depth() {
        let nim = Nim { max_take: 3 };
        for heap in 1..=15u32 {
            let s = NimState { heap, turn: 0 };
            let moves = nim.legal_moves(&s).unwrap();
            let r = best(&nim, &s, limits(16), heap as u64);
            if heap % 4 != 0 {
                assert_eq!(moves[r.best], heap % 4, "heap {heap}: {r:?}");
                if moves.len() > 1 {
                    assert_eq!(r.score, WIN - (2 * (heap / 4) + 1) as i32, "heap {heap}");
                }
            } else {
                assert!(r.score < -WIN + MAX_PLY, "heap {heap} is lost: {r:?}");
            }
        }
    }

    #[test]
    fn tic_tac_toe_is_a_draw_and_a_win_in_one_is_taken() {
        let r = best(&TicTacToe, &TttState::new(), limits(9), 1);
        assert_eq!(r.score, 0, "{r:?}");
        // X: 0 1 _ / O: 3 4 _ ; X to move wins at 2 (and must not block at 5 instead).
        let mut s = TttState::new();
        for (c, v) in [(0, 1), (1, 1), (3, 2), (4, 2)] {
            s.cells[c] = v;
        }
        let moves = TicTacToe.legal_moves(&s).unwrap();
        for seed in 0..5 {
            let r = best(&TicTacToe, &s, limits(3), seed);
            assert_eq!(moves[r.best], 2, "{r:?}");
            assert_eq!(r.score, WIN - 1);
        }
        // X: 0 1 5, O: 3 7, O to move must block at 2.
        s.cells = [1, 1, 0, 2, 0, 1, 0, 2, 0];
        s.turn = 1;
        let moves = TicTacToe.legal_moves(&s).unwrap();
        let r = best(&TicTacToe, &s, limits(4), 3);
        assert_eq!(moves[r.best], 2, "{r:?}");
    }

    #[test]
    fn node_budget_cuts_the_search_and_is_deterministic() {
        let l = Limits {
            depth: 9,
            quiescence: 0,
            nodes: Some(300),
            time: None,
            features: Features::plain(),
        };
        let a = best(&TicTacToe, &TttState::new(), l, 5);
        let b = best(&TicTacToe, &TttState::new(), l, 5);
        assert_eq!(a, b);
        assert!(a.nodes <= 301 && a.depth < 9, "{a:?}");
        // Different seeds shuffle equal moves differently.
        let picks: std::collections::BTreeSet<usize> = (0..20)
            .map(|seed| best(&TicTacToe, &TttState::new(), limits(2), seed).best)
            .collect();
        assert!(picks.len() > 1, "{picks:?}");
    }

    #[test]
    fn paranoid_search_with_three_players_and_chance() {
        // Three players, player 0 two squares from the goal: moving 2 wins at once.
        let race = Race {
            players: 3,
            goal: 10,
            dice: false,
        };
        let mut s = race.start();
        s.pos = vec![8, 9, 9];
        let r = best(&race, &s, limits(3), 1);
        assert_eq!(r.best, 1, "{r:?}");
        assert_eq!(r.score, WIN - 1);
        // With a die after each move, averaging: moving 2 is still the best.
        let race = Race {
            players: 3,
            goal: 30,
            dice: true,
        };
        let r = best(&race, &race.start(), limits(5), 2);
        assert_eq!(r.best, 1, "{r:?}");
    }

    #[test]
    fn partners_play_for_each_other() {
        // Teams 0+1 against 2+3. At depth 2 the root (0) and its partner (1) move: each gives the other 2 squares
        // (team mean 2, score 200). A search that took the partner for an opponent would expect it to advance
        // itself (1 square) and score the root's own squares only.
        let race = TeamRace { goal: 100 };
        let s = RaceState {
            pos: vec![0; 4],
            turn: 0,
        };
        let r = best(&race, &s, limits(2), 1);
        assert_eq!(r.best, 1, "{r:?}");
        assert_eq!(r.score, 200, "{r:?}");
        // The partner two squares from the goal: giving it two wins at once.
        let s = RaceState {
            pos: vec![0, 98, 97, 97],
            turn: 0,
        };
        let r = best(&race, &s, limits(3), 1);
        assert_eq!(r.best, 1, "{r:?}");
        assert_eq!(r.score, WIN - 1);
    }
}
