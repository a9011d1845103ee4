//! Bots: the players of a tournament, behind one trait.
//!
//! A [`Bot`] is asked for a move in a position and answers the index of one of the legal moves. Every bot is
//! deterministic given the random stream it is handed and its budget (depth, nodes, iterations): none reads the
//! clock unless a time budget is configured, and none depends on hash-map iteration order. The kinds:
//!
//! * [`random`]: uniform over the legal moves;
//! * [`alphabeta`]: iterative-deepening alpha-beta (paranoid for more than two players) with a transposition
//!   table and move ordering;
//! * [`mcts`]: UCT with random playouts, rewards per player, chance nodes for random (`?`) players;
//! * [`external`]: a process of any language speaking the JSON-lines protocol of `docs/bot-protocol.md`;
//! * [`protocol`]: real engines over their own protocols, UCI ([`protocol::uci`]) and GTP ([`protocol::gtp`]).
//! * [`auto`]: alpha-beta or MCTS, picked from the game's features.
//!
//! The searches are written against the small [`Model`] trait rather than [`Engine`] directly: the engine is
//! one model ([`EngineModel`], with the evaluation of [`eval`]), and the unit tests use tiny hand-written games
//! whose game-theoretic values are known. Bots are configured by a [`BotSpec`] (a `bots/*.toml` preset or an
//! inline `kind:key=value,...`).

pub mod alphabeta;
pub mod auto;
pub mod eval;
pub mod external;
pub mod mcts;
pub mod protocol;
pub mod random;
pub mod spec;
pub mod squares;
#[cfg(test)]
mod testgames;
#[cfg(test)]
mod tests;
pub mod tune;

pub use spec::BotSpec;

use crate::compile::Player;
use crate::engine::apply::Undo;
use crate::engine::search::SearchMoves;
use crate::engine::{Engine, EngineError, Move, State};
use rand_chacha::ChaCha8Rng;

pub use crate::tournament::clock::ClockView;

/// Why a bot gave no move. The tournament records any of these as a loss with termination `bot-error`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BotError {
    /// An external process could not be started, exited or closed its output.
    Crashed(String),
    /// An external process gave no answer within its time limit.
    Timeout(String),
    /// The answer names no legal move, or is not the protocol's JSON.
    Illegal(String),
    /// The engine failed while the bot searched (a runaway move program, ...).
    Engine(EngineError),
    /// The bot resigned the game (a GTP engine's `resign`): a loss, recorded as such, not as a fault.
    Resigned(String),
}

impl std::fmt::Display for BotError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BotError::Crashed(m) => write!(f, "bot crashed: {m}"),
            BotError::Timeout(m) => write!(f, "bot timed out: {m}"),
            BotError::Illegal(m) => write!(f, "bot answered an illegal move: {m}"),
            BotError::Engine(e) => write!(f, "engine error during search: {e}"),
            BotError::Resigned(m) => write!(f, "bot resigned: {m}"),
        }
    }
}

impl std::error::Error for BotError {}

impl From<EngineError> for BotError {
    fn from(e: EngineError) -> Self {
        BotError::Engine(e)
    }
}

/// A bot's evaluation of the position after its move, from its own (the mover's) side: what adjudication
/// reads (`src/tournament/adjudicate.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns for UCI and USI engines; hundredths of the cheapest piece for the built-in bots.
    Cp(i32),
    /// A forced win in this many moves (negative: a forced loss).
    Mate(i32),
}

/// A player of games.
pub trait Bot: Send {
    /// The name reports and result files show.
    fn name(&self) -> &str;

    /// Picks one of `moves` (the legal moves in `state`, in the engine's order, never empty) and returns its
    /// index. `history` holds the keys of the earlier positions of the game (for repetition). All randomness
    /// comes from `rng`.
    fn choose(
        &mut self,
        engine: &Engine,
        state: &State,
        moves: &[Move],
        history: &[u64],
        rng: &mut ChaCha8Rng,
    ) -> Result<usize, BotError>;

    /// Called before each new game: forget whatever the last game left behind.
    fn reset(&mut self) {}

    /// Called before each move of a bot that plays on a clock (`tc`, `st`): the clocks as they stand. Engines
    /// are sent them; the built-in bots search for [`ClockView::allot`] instead of their `time_ms`.
    fn set_clock(&mut self, _clock: &ClockView) {}

    /// The part of the last `choose` spent starting the bot (an engine's process and handshake), which its clock
    /// is not charged for.
    fn setup_time(&self) -> std::time::Duration {
        std::time::Duration::ZERO
    }

    /// Something the game's record should mention that is not an error (an external bot's answers that
    /// nobody asked for, discarded), about the bot's whole life so far: the runner asks after each move and
    /// keeps the last note.
    fn note(&self) -> Option<String> {
        None
    }

    /// The work of the last `choose`, in the bot's own unit (alpha-beta: nodes; MCTS: iterations), for the
    /// tournament's timings. `None` for bots that do not count.
    fn last_nodes(&self) -> Option<u64> {
        None
    }

    /// The score the bot gave its last move (see [`Score`]), `None` for bots that report none.
    fn last_score(&self) -> Option<Score> {
        None
    }

    /// Called before the first move of a game that does not start from the game's own start position (an
    /// opening book's position): the position the game's history starts from, so that an engine is sent
    /// that position plus the moves played.
    fn start_position(&mut self, _start: &State) {}
}

/// The error for being asked to move with no legal move (the runner's bug: the game is over then).
pub(crate) fn check_moves(moves: &[Move]) -> Result<(), BotError> {
    if moves.is_empty() {
        Err(BotError::Engine(EngineError(
            "a bot was asked to move in a position with no legal move".into(),
        )))
    } else {
        Ok(())
    }
}

/// What a search needs from a game: the engine is one model, the unit tests' toy games are others.
pub trait Model {
    type State: Clone;
    type Move;
    fn num_players(&self) -> usize;
    /// The index of the player to move.
    fn to_move(&self, s: &Self::State) -> usize;
    /// Whether the move in `s` is a chance event (a random player's), uniform over the legal moves.
    fn is_chance(&self, s: &Self::State) -> bool;
    /// Whether player `p` is a random player (dice): it has no stake, and evaluations leave it out.
    fn is_random_player(&self, _p: usize) -> bool {
        false
    }
    /// Whether players `a` and `b` play on one side (a team of a partnership game, or one player): they win
    /// and lose together, so a search maximizes for both and an evaluation adds their scores.
    fn same_side(&self, a: usize, b: usize) -> bool {
        a == b
    }
    fn legal_moves(&self, s: &Self::State) -> Result<Vec<Self::Move>, EngineError>;
    fn apply(&self, s: &Self::State, m: &Self::Move) -> Self::State;
    /// Plays `m` on `s` in place: [`Model::apply`] without the copy where the model has it.
    fn play(&self, s: &mut Self::State, m: &Self::Move) {
        *s = self.apply(s, m);
    }
    /// A uniformly random game from `s`, played on `s` in place, until the game is over (its per-player results)
    /// or `plies` more plies are played (`None`: `s` then holds the last position, not over). `history` holds the
    /// keys of the positions before `s`; the rollout may push onto it (the caller truncates it back). Every
    /// random draw comes from `rng`. This generic loop lists every position's moves; the engine's model plays
    /// the fast loops of `dagaz playout` instead.
    fn rollout(
        &self,
        s: &mut Self::State,
        history: &mut Vec<u64>,
        plies: u32,
        rng: &mut ChaCha8Rng,
    ) -> Result<Option<Vec<i8>>, EngineError> {
        let mut played = 0;
        loop {
            let moves = self.legal_moves(s)?;
            if let Some(r) = self.outcome(s, &moves, history)? {
                return Ok(Some(r));
            }
            if played >= plies || moves.is_empty() {
                return Ok(None);
            }
            history.push(self.key(s));
            self.play(s, &moves[crate::engine::playout::below(rng, moves.len())]);
            played += 1;
        }
    }
    /// [`Model::rollout`] that also records each move it plays, in order, onto `seq`: the move's identity
    /// ([`Model::move_id`]; `None` for a chance move) and its player (what GRAVE, Progressive History and MAST's
    /// statistics read). This default lists every position's moves into the model's buffer and draws one
    /// uniformly ([`mcts::listed_recording`]); the engine's model plays the fast loops of [`Model::rollout`].
    fn rollout_recording(
        &self,
        s: &mut Self::State,
        history: &mut Vec<u64>,
        plies: u32,
        rng: &mut ChaCha8Rng,
        seq: &mut mcts::Seq,
    ) -> Result<Option<Vec<i8>>, EngineError>
    where
        Self: Sized,
    {
        mcts::listed_recording(self, s, history, plies, rng, seq)
    }
    /// Per-player results (1 win, 0 draw, -1 loss) when the game is over in `s`.
    fn outcome(
        &self,
        s: &Self::State,
        moves: &[Self::Move],
        history: &[u64],
    ) -> Result<Option<Vec<i8>>, EngineError>;
    /// [`Model::outcome`] where the game is over in `s` whatever its legal moves, judged without listing them
    /// (what decisive-move checks ask after each candidate move); `None` where the game goes on or where that
    /// cannot be told without the list. `history` holds the keys of the positions before `s`. This default
    /// lists the moves (exact, for the unit tests' small games); the engine's model asks
    /// [`Engine::outcome_unlisted`].
    fn outcome_unlisted(
        &self,
        s: &Self::State,
        history: &[u64],
    ) -> Result<Option<Vec<i8>>, EngineError> {
        let moves = self.legal_moves(s)?;
        self.outcome(s, &moves, history)
    }
    /// The position's hash, whose turn it is included.
    fn key(&self, s: &Self::State) -> u64;
    /// Pieces the move captures (ordering: captures are searched first).
    fn captures(&self, m: &Self::Move) -> usize;
    /// The move's identity, the same for the same move in any position (MCTS's MAST statistics are keyed by
    /// it), or `None` where the model has none (MAST then plays such moves uniformly).
    fn move_id(&self, _m: &Self::Move) -> Option<u64> {
        None
    }
    /// [`Model::move_id`] of move `i` of a buffer (the same identity as the owned move's).
    fn move_id_at(&self, _moves: &Self::Moves, _i: usize) -> Option<u64> {
        None
    }
    /// A heuristic score per player, higher is better, in units of the cheapest piece. `moves` are the legal
    /// moves of the player to move.
    fn evaluate(&self, s: &Self::State, moves: &[Self::Move]) -> Result<Vec<f64>, EngineError>;

    // What alpha-beta searches with: the legal moves into a buffer reused per ply, made and unmade on one working
    // state. A model without a faster way gets them from the methods above with [`search_by_copy!`].

    /// A reusable buffer of one position's legal moves.
    type Moves: Default;
    /// What [`Model::make`] saves for [`Model::unmake`]: a stack (nested makes are unmade in reverse order).
    type Undo: Default;
    /// The legal moves of `s` into `out`, in the order of [`Model::legal_moves`]; `s` is left as it was.
    fn list(
        &self,
        s: &mut Self::State,
        out: &mut Self::Moves,
        undo: &mut Self::Undo,
    ) -> Result<(), EngineError>;
    /// How many moves a buffer holds.
    fn count(&self, moves: &Self::Moves) -> usize;
    /// [`Model::captures`] of move `i` of a buffer.
    fn captures_at(&self, moves: &Self::Moves, i: usize) -> usize;
    /// [`Model::outcome`] given the legal moves in a buffer.
    fn outcome_at(
        &self,
        s: &Self::State,
        moves: &Self::Moves,
        history: &[u64],
    ) -> Result<Option<Vec<i8>>, EngineError>;
    /// [`Model::evaluate`] given the legal moves in a buffer.
    fn evaluate_at(&self, s: &Self::State, moves: &Self::Moves) -> Result<Vec<f64>, EngineError>;
    /// Plays move `i` of a buffer (listed for `s`) on `s` in place.
    fn make(&self, s: &mut Self::State, moves: &Self::Moves, i: usize, undo: &mut Self::Undo);
    /// Takes back the latest [`Model::make`].
    fn unmake(&self, s: &mut Self::State, undo: &mut Self::Undo);

    /// A nonzero key naming move `m` in any position (its piece, from and to squares), for the killer and
    /// history heuristics of alpha-beta; 0 (the default) for none, which turns them off.
    fn move_key(&self, _m: &Self::Move) -> u32 {
        0
    }
    /// [`Model::move_key`] of move `i` of a buffer.
    fn move_key_at(&self, _moves: &Self::Moves, _i: usize) -> u32 {
        0
    }
    /// Whether the player to move in `s` is in check (a royal piece attacked), for alpha-beta's check
    /// extension; false by default.
    fn in_check(&self, _s: &Self::State) -> Result<bool, EngineError> {
        Ok(false)
    }
}

/// The search methods of [`Model`] from its other methods: owned move lists, a copy of the state per move
/// (the states before the moves made kept as the undo stack). For models with no faster way (the unit tests'
/// games).
#[cfg_attr(not(test), allow(unused_macros))]
macro_rules! search_by_copy {
    () => {
        type Moves = Vec<<Self as $crate::bot::Model>::Move>;
        type Undo = Vec<<Self as $crate::bot::Model>::State>;
        fn list(
            &self,
            s: &mut Self::State,
            out: &mut Self::Moves,
            _undo: &mut Self::Undo,
        ) -> Result<(), $crate::engine::EngineError> {
            *out = self.legal_moves(s)?;
            Ok(())
        }
        fn count(&self, moves: &Self::Moves) -> usize {
            moves.len()
        }
        fn captures_at(&self, moves: &Self::Moves, i: usize) -> usize {
            self.captures(&moves[i])
        }
        fn move_key_at(&self, moves: &Self::Moves, i: usize) -> u32 {
            self.move_key(&moves[i])
        }
        fn move_id_at(&self, moves: &Self::Moves, i: usize) -> Option<u64> {
            self.move_id(&moves[i])
        }
        fn outcome_at(
            &self,
            s: &Self::State,
            moves: &Self::Moves,
            history: &[u64],
        ) -> Result<Option<Vec<i8>>, $crate::engine::EngineError> {
            self.outcome(s, moves, history)
        }
        fn evaluate_at(
            &self,
            s: &Self::State,
            moves: &Self::Moves,
        ) -> Result<Vec<f64>, $crate::engine::EngineError> {
            self.evaluate(s, moves)
        }
        fn make(&self, s: &mut Self::State, moves: &Self::Moves, i: usize, undo: &mut Self::Undo) {
            let next = self.apply(s, &moves[i]);
            undo.push(std::mem::replace(s, next));
        }
        fn unmake(&self, s: &mut Self::State, undo: &mut Self::Undo) {
            *s = undo.pop().expect("unmake after make");
        }
    };
}
#[cfg_attr(not(test), allow(unused_imports))]
pub(crate) use search_by_copy;

/// The engine as a model, evaluated by an [`eval::Evaluator`].
pub struct EngineModel<'e, 'g> {
    pub engine: &'e Engine<'g>,
    pub eval: eval::Evaluator,
}

impl<'e, 'g> EngineModel<'e, 'g> {
    pub fn new(engine: &'e Engine<'g>, weights: eval::Weights) -> Self {
        EngineModel {
            engine,
            eval: eval::Evaluator::new(engine, weights),
        }
    }
}

impl Model for EngineModel<'_, '_> {
    type State = State;
    type Move = Move;

    fn num_players(&self) -> usize {
        self.engine.game.players.len()
    }

    fn to_move(&self, s: &State) -> usize {
        self.engine.to_move(s).idx()
    }

    fn is_chance(&self, s: &State) -> bool {
        self.engine.is_chance(s)
    }

    fn is_random_player(&self, p: usize) -> bool {
        self.engine.game.players[p].random
    }

    fn same_side(&self, a: usize, b: usize) -> bool {
        self.engine.game.same_team(Player(a as u8), Player(b as u8))
    }

    fn legal_moves(&self, s: &State) -> Result<Vec<Move>, EngineError> {
        self.engine.legal_moves(s)
    }

    fn apply(&self, s: &State, m: &Move) -> State {
        self.engine.apply(s, m)
    }

    fn play(&self, s: &mut State, m: &Move) {
        self.engine.play(s, m)
    }

    /// The loops of `dagaz playout` from `s` (`engine::playout::random_game_from`): move buffers, make and unmake,
    /// the native backends; the same game the generic loop would play only where those loops draw the same way.
    fn rollout(
        &self,
        s: &mut State,
        history: &mut Vec<u64>,
        plies: u32,
        rng: &mut ChaCha8Rng,
    ) -> Result<Option<Vec<i8>>, EngineError> {
        let limit = s.ply().saturating_add(plies);
        let r = crate::engine::playout::random_game_from(self.engine, s, history, rng, limit)?;
        Ok(r.outcome.map(|o| o.results))
    }

    /// The loops of [`Model::rollout`] (`engine::playout::random_game_recording`), each move's key read from the
    /// buffer it is played from: the same game as [`Model::rollout`] for the same stream.
    fn rollout_recording(
        &self,
        s: &mut State,
        history: &mut Vec<u64>,
        plies: u32,
        rng: &mut ChaCha8Rng,
        seq: &mut mcts::Seq,
    ) -> Result<Option<Vec<i8>>, EngineError> {
        struct Recorder<'q>(&'q mut mcts::Seq);
        impl crate::engine::playout::MoveSink for Recorder<'_> {
            const ON: bool = true;
            #[inline]
            fn played(&mut self, engine: &Engine, s: &State, key: u32) {
                let id = (!engine.is_chance(s)).then_some(key as u64);
                self.0.push((id, engine.to_move(s).idx()));
            }
        }
        let limit = s.ply().saturating_add(plies);
        let r = crate::engine::playout::random_game_recording(
            self.engine,
            s,
            history,
            rng,
            limit,
            &mut Recorder(seq),
        )?;
        Ok(r.outcome.map(|o| o.results))
    }

    fn outcome(
        &self,
        s: &State,
        moves: &[Move],
        history: &[u64],
    ) -> Result<Option<Vec<i8>>, EngineError> {
        Ok(self.engine.outcome(s, moves, history)?.map(|o| o.results))
    }

    fn outcome_unlisted(&self, s: &State, history: &[u64]) -> Result<Option<Vec<i8>>, EngineError> {
        Ok(self.engine.outcome_unlisted(s, history)?.map(|o| o.results))
    }

    fn key(&self, s: &State) -> u64 {
        s.key()
    }

    fn captures(&self, m: &Move) -> usize {
        m.captures()
    }

    /// The moving piece's type, the square it started from and the square its last part ended on, hashed
    /// ([`crate::engine::search::move_key`], the key of alpha-beta's killers and history).
    fn move_id(&self, m: &Move) -> Option<u64> {
        Some(crate::engine::search::move_key(m) as u64)
    }

    fn move_id_at(&self, moves: &SearchMoves, i: usize) -> Option<u64> {
        Some(moves.move_key(i) as u64)
    }

    fn evaluate(&self, s: &State, moves: &[Move]) -> Result<Vec<f64>, EngineError> {
        self.eval.evaluate(self.engine, s, moves)
    }

    type Moves = SearchMoves;
    type Undo = Undo;

    fn list(
        &self,
        s: &mut State,
        out: &mut SearchMoves,
        undo: &mut Undo,
    ) -> Result<(), EngineError> {
        self.engine.search_list(s, out, undo)
    }

    fn count(&self, moves: &SearchMoves) -> usize {
        moves.len()
    }

    fn captures_at(&self, moves: &SearchMoves, i: usize) -> usize {
        moves.captures(i)
    }

    fn outcome_at(
        &self,
        s: &State,
        moves: &SearchMoves,
        history: &[u64],
    ) -> Result<Option<Vec<i8>>, EngineError> {
        Ok(self
            .engine
            .search_outcome(s, moves, history)?
            .map(|o| o.results))
    }

    fn evaluate_at(&self, s: &State, moves: &SearchMoves) -> Result<Vec<f64>, EngineError> {
        self.eval.evaluate_counted(self.engine, s, moves.len())
    }

    fn make(&self, s: &mut State, moves: &SearchMoves, i: usize, undo: &mut Undo) {
        self.engine.search_make(s, moves, i, undo)
    }

    fn unmake(&self, s: &mut State, undo: &mut Undo) {
        self.engine.unmake(s, undo)
    }

    fn move_key_at(&self, moves: &SearchMoves, i: usize) -> u32 {
        moves.move_key(i)
    }

    fn in_check(&self, s: &State) -> Result<bool, EngineError> {
        self.engine.in_check(s)
    }
}

/// One player's share of a score vector against the others: the mean score of its side (itself and its
/// partners, see [`Model::same_side`]) minus the mean of the other players' (random players, who have no
/// stake, left out).
pub(crate) fn relative<M: Model>(model: &M, scores: &[f64], p: usize) -> f64 {
    let (mut mine, mut m) = (0.0, 0);
    let (mut theirs, mut n) = (0.0, 0);
    for (q, v) in scores.iter().enumerate() {
        if model.is_random_player(q) && q != p {
            continue;
        }
        if q == p || model.same_side(q, p) {
            mine += v;
            m += 1;
        } else {
            theirs += v;
            n += 1;
        }
    }
    let mine = if m == 0 { 0.0 } else { mine / m as f64 };
    if n == 0 {
        mine
    } else {
        mine - theirs / n as f64
    }
}
