//! `dagaz._dagaz`: the Python binding of dagaz (PyO3). A ZRF game loaded once ([`PyGame`]) and its states
//! ([`PyState`]), played through the library's own engine, the one the bots and `dagaz playout` use: nothing here
//! generates or applies moves itself.
//!
//! Python sees these classes through the `dagaz` package (`python/dagaz/__init__.py`), which adds numpy views.

use dagaz::engine::playout::{game_rng, random_game, random_game_from};
use dagaz::engine::{Engine, EngineError, Move, Outcome, State};
use dagaz::load::VariantSel;
use dagaz::Game;
use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use rand_core::SeedableRng;
use std::sync::Arc;

mod tournament;

create_exception!(
    _dagaz,
    DagazError,
    PyException,
    "A game file that does not load, or an error of the engine while playing."
);
create_exception!(
    _dagaz,
    IllegalMoveError,
    PyValueError,
    "A move that is not legal in the state it was played in (or a game that is over)."
);

/// A compiled game and its engine. The engine borrows the game: it is declared first, so it is dropped first,
/// and the game lives in an `Arc` whose contents never move.
pub(crate) struct Loaded {
    engine: Engine<'static>,
    game: Arc<Game>,
    path: String,
}

impl Loaded {
    pub(crate) fn new(game: Game, path: String) -> Arc<Loaded> {
        let game = Arc::new(game);
        // SAFETY: the reference points into the `Arc`'s allocation, which outlives `engine` (dropped first, see
        // the field order) and is never mutated; `engine` is never handed out with the `'static` lifetime.
        let r: &'static Game = unsafe { &*Arc::as_ptr(&game) };
        Arc::new(Loaded {
            engine: Engine::new(r),
            game,
            path,
        })
    }

    fn positions(&self) -> usize {
        self.game.board.positions.len()
    }

    /// The size of the action space: 0 for a pass, then one id per (piece type after the move, start square or
    /// "none" for a drop, end square).
    fn num_actions(&self) -> usize {
        let p = self.positions();
        1 + self.game.pieces.len() * (p + 1) * p
    }

    /// The move's action id: see [`PyGame::num_distinct_actions`].
    fn action_id(&self, m: &Move) -> Result<usize, String> {
        let Some(first) = m.parts.first() else {
            return Ok(0);
        };
        let last = m.parts.last().expect("a first part");
        let p = self.positions();
        let from = first.from.map_or(p, |x| x.idx());
        let to = last
            .to
            .or(first.to)
            .ok_or_else(|| {
                format!(
                    "the move `{}` ends on no square, so it has no action id",
                    m.notation(&self.game)
                )
            })?
            .idx();
        let mut kind = last.piece;
        for a in &last.actions {
            if let dagaz::engine::moves::Action::ChangeType { at, kind: k } = a {
                if at.idx() == to {
                    kind = *k;
                }
            }
        }
        Ok(1 + (kind.idx() * (p + 1) + from) * p + to)
    }

    fn describe_action(&self, id: usize) -> String {
        if id == 0 {
            return "pass".into();
        }
        let p = self.positions();
        let x = id - 1;
        let to = x % p;
        let from = (x / p) % (p + 1);
        let kind = x / p / (p + 1);
        let g = &self.game;
        let piece = g.pieces.get(kind).map_or("?", |k| k.name.as_str());
        let to = &g.board.positions[to].name;
        if from == p {
            format!("{piece}@{to}")
        } else {
            format!("{piece} {}-{to}", g.board.positions[from].name)
        }
    }
}

/// The action id of `m` in `game` (see `Game.num_distinct_actions`), `None` for a move with none.
pub(crate) fn action_id_of(game: &Loaded, m: &Move) -> Option<usize> {
    game.action_id(m).ok()
}

fn engine_err(e: EngineError) -> PyErr {
    DagazError::new_err(format!("engine error: {e}"))
}

/// A ZRF game, loaded and compiled once; `new_initial_state()` starts a game of it.
#[pyclass(name = "Game", module = "dagaz._dagaz", frozen, unsendable)]
struct PyGame {
    inner: Arc<Loaded>,
}

#[pymethods]
impl PyGame {
    /// Loads game `variant` of the ZRF file at `path`: `None` for the file's first game, an int for the
    /// 1-based variant number, a string for its title. `extensions` names extension modules to attach (as
    /// `--extension`). A game that uses rules dagaz does not apply is refused (`DagazError` listing them)
    /// unless `allow_missing_rules` is true, as `dagaz playout` does. Errors name the file and line.
    #[new]
    #[pyo3(signature = (path, variant=None, extensions=Vec::new(), allow_missing_rules=false))]
    fn new(
        path: std::path::PathBuf,
        variant: Option<&Bound<'_, PyAny>>,
        extensions: Vec<String>,
        allow_missing_rules: bool,
    ) -> PyResult<PyGame> {
        let sel = match variant {
            None => VariantSel::First,
            Some(v) => {
                if let Ok(n) = v.extract::<usize>() {
                    VariantSel::Number(n)
                } else if let Ok(s) = v.extract::<String>() {
                    VariantSel::Title(s)
                } else {
                    return Err(pyo3::exceptions::PyTypeError::new_err(
                        "variant must be None, an int (1-based) or a title",
                    ));
                }
            }
        };
        let opts = dagaz::lang::ReadOptions {
            include_paths: vec![],
            extensions: extensions.clone(),
        };
        let mut game = dagaz::load::load_game_with(&path, &sel, &opts)
            .map_err(|e| DagazError::new_err(e.trim_end().to_string()))?;
        for name in &extensions {
            dagaz::extension::attach(&mut game, name)
                .map_err(|e| DagazError::new_err(format!("{}: {e}", path.display())))?;
        }
        let shown = path.display().to_string();
        let rules = dagaz::compile::missing::distinct(&game.missing_rules);
        if !rules.is_empty() && !allow_missing_rules {
            return Err(DagazError::new_err(dagaz::compile::missing::refusal(
                &shown, &rules,
            )));
        }
        Ok(PyGame {
            inner: Loaded::new(game, shown),
        })
    }

    /// The file this game was loaded from.
    #[getter]
    fn path(&self) -> String {
        self.inner.path.clone()
    }

    /// The game's title.
    #[getter]
    fn title(&self) -> String {
        self.inner.game.title.clone()
    }

    /// The players' names, in the order of `(players ...)`; player indices refer to this list.
    #[getter]
    fn players(&self) -> Vec<String> {
        self.inner
            .game
            .players
            .iter()
            .map(|p| p.name.clone())
            .collect()
    }

    /// The number of players, random (dice) players included.
    #[getter]
    fn num_players(&self) -> usize {
        self.inner.game.players.len()
    }

    /// The indices of the random players (`?` players, dice): their moves are chance events.
    #[getter]
    fn random_players(&self) -> Vec<usize> {
        let g = &self.inner.game;
        (0..g.players.len())
            .filter(|&i| g.players[i].random)
            .collect()
    }

    /// The board's position names (off-board ones, such as hands, included), in the engine's order: the
    /// columns of the observation tensor.
    #[getter]
    fn positions(&self) -> Vec<String> {
        self.inner
            .game
            .board
            .positions
            .iter()
            .map(|p| p.name.clone())
            .collect()
    }

    /// The piece type names, in the engine's order.
    #[getter]
    fn piece_types(&self) -> Vec<String> {
        self.inner
            .game
            .pieces
            .iter()
            .map(|p| p.name.clone())
            .collect()
    }

    /// The size of the action space. A move's action id is 0 for a pass, else
    /// `1 + (kind * (P + 1) + from) * P + to`, where P is the number of positions, `from` the position the move
    /// starts from (P for a drop), `to` the position its last part ends on and `kind` the piece type standing
    /// there after the move (so promotions to different types differ). The id depends on the move alone, not
    /// on the state. Two legal moves of one state with one id (draughts captures along different paths) make
    /// `State.legal_actions()` raise `DagazError`; notation always tells moves apart.
    #[getter]
    fn num_distinct_actions(&self) -> usize {
        self.inner.num_actions()
    }

    /// The shape of `State.observation()`: (piece types x players, positions).
    #[getter]
    fn observation_shape(&self) -> (usize, usize) {
        let g = &self.inner.game;
        (g.pieces.len() * g.players.len(), g.board.positions.len())
    }

    /// A readable form of an action id (piece type, from and to squares), for messages: no state needed.
    fn action_to_string(&self, action: usize) -> PyResult<String> {
        if action >= self.inner.num_actions() {
            return Err(PyValueError::new_err(format!(
                "action {action} is outside the action space (size {})",
                self.inner.num_actions()
            )));
        }
        Ok(self.inner.describe_action(action))
    }

    /// The game's start position.
    fn new_initial_state(&self) -> PyState {
        PyState::start(&self.inner)
    }

    /// Plays `games` uniformly random games from the start inside Rust, with the loops and random streams of
    /// `dagaz playout --seed SEED --max-plies MAX_PLIES` (game i draws from a stream of `seed` and i alone, so
    /// the games are the same). Returns a dict: `games`, `plies` (total), `end_types` (count per type;
    /// `move-limit` for a game stopped at `max_plies`), `wins` (per player index), `errors`.
    #[pyo3(signature = (games, seed=1, max_plies=1000))]
    fn random_playouts<'py>(
        &self,
        py: Python<'py>,
        games: u64,
        seed: u64,
        max_plies: u32,
    ) -> PyResult<Bound<'py, PyDict>> {
        let engine = &self.inner.engine;
        let n = self.inner.game.players.len();
        let mut wins = vec![0u64; n];
        let mut plies = 0u64;
        let mut by_type: std::collections::BTreeMap<String, u64> = Default::default();
        for g in 0..games {
            let mut rng = game_rng(seed, g);
            let r = random_game(engine, &mut rng, max_plies)
                .map_err(|e| DagazError::new_err(format!("game {g}: engine error: {e}")))?;
            plies += r.plies as u64;
            let ty = r
                .outcome
                .as_ref()
                .map_or("move-limit".to_string(), |o| o.end_type.clone());
            if let Some(o) = &r.outcome {
                for (p, &x) in o.results.iter().enumerate() {
                    if x > 0 {
                        wins[p] += 1;
                    }
                }
            }
            *by_type.entry(ty).or_default() += 1;
        }
        let d = PyDict::new(py);
        d.set_item("games", games)?;
        d.set_item("plies", plies)?;
        d.set_item("end_types", by_type)?;
        d.set_item("wins", wins)?;
        Ok(d)
    }

    fn __repr__(&self) -> String {
        format!(
            "<dagaz.Game {:?} from {}>",
            self.inner.game.title, self.inner.path
        )
    }
}

/// The legal moves of the current state, their notations and whether the game is over there: computed once per
/// state.
pub(crate) struct Listed {
    moves: Vec<Move>,
    names: Vec<String>,
    outcome: Option<Outcome>,
}

/// A game in progress: its current position, the positions before it (for `undo` and repetition) and the moves
/// played. `play` and `undo` change it in place; `clone()` copies it.
#[pyclass(name = "State", module = "dagaz._dagaz", unsendable)]
pub(crate) struct PyState {
    pub(crate) game: Arc<Loaded>,
    /// The positions from the start (or the loaded position) to the current one, which is last.
    pub(crate) stack: Vec<State>,
    /// The keys of the positions before the current one (what the end conditions read for repetition).
    pub(crate) history: Vec<u64>,
    /// The notations of the moves played, one per entry of `stack` after the first.
    pub(crate) played: Vec<String>,
    pub(crate) listed: Option<Arc<Listed>>,
}

impl PyState {
    fn start(game: &Arc<Loaded>) -> PyState {
        PyState {
            game: game.clone(),
            stack: vec![game.engine.initial()],
            history: vec![],
            played: vec![],
            listed: None,
        }
    }

    fn current(&self) -> &State {
        self.stack.last().expect("the stack is never empty")
    }

    fn listed(&mut self) -> PyResult<Arc<Listed>> {
        if let Some(l) = &self.listed {
            return Ok(l.clone());
        }
        let engine = &self.game.engine;
        let s = self.current();
        let moves = engine.legal_moves(s).map_err(engine_err)?;
        let outcome = engine
            .outcome(s, &moves, &self.history)
            .map_err(engine_err)?;
        if outcome.is_none() && moves.is_empty() {
            return Err(DagazError::new_err(
                "the player to move has no legal move and no end condition holds",
            ));
        }
        let names = Move::notations(&self.game.game, &moves);
        let l = Arc::new(Listed {
            moves,
            names,
            outcome,
        });
        self.listed = Some(l.clone());
        Ok(l)
    }

    fn play_index(&mut self, l: &Listed, i: usize) {
        let next = self.game.engine.apply(self.current(), &l.moves[i]);
        self.history.push(self.current().key());
        self.played.push(l.names[i].clone());
        self.stack.push(next);
        self.listed = None;
    }

    /// The index in the legal move list of `action` (an action id or a notation).
    fn find(&mut self, action: &Bound<'_, PyAny>) -> PyResult<(Arc<Listed>, usize)> {
        let l = self.listed()?;
        if l.outcome.is_some() {
            return Err(IllegalMoveError::new_err(format!(
                "the game is over; no move can be played (tried {action})"
            )));
        }
        if let Ok(id) = action.extract::<usize>() {
            let mut found = None;
            for (i, m) in l.moves.iter().enumerate() {
                if self.game.action_id(m).ok() == Some(id) {
                    if found.is_some() {
                        return Err(IllegalMoveError::new_err(format!(
                            "action {id} names more than one legal move; play it by notation"
                        )));
                    }
                    found = Some(i);
                }
            }
            return match found {
                Some(i) => Ok((l, i)),
                None => Err(IllegalMoveError::new_err(format!(
                    "action {id} ({}) is not a legal move here",
                    if id < self.game.num_actions() {
                        self.game.describe_action(id)
                    } else {
                        "outside the action space".into()
                    }
                ))),
            };
        }
        let text: String = action.extract().map_err(|_| {
            pyo3::exceptions::PyTypeError::new_err(
                "a move is an action id (int) or a notation (str)",
            )
        })?;
        match l.names.iter().position(|n| *n == text) {
            Some(i) => Ok((l, i)),
            None => Err(IllegalMoveError::new_err(format!(
                "`{text}` is not a legal move here; legal: {}",
                l.names.join(", ")
            ))),
        }
    }
}

#[pymethods]
impl PyState {
    /// The game this state belongs to.
    #[getter]
    fn game(&self) -> PyGame {
        PyGame {
            inner: self.game.clone(),
        }
    }

    /// The index (in `Game.players`) of the player to move. In a position where the game is over, the player
    /// whose turn it would be.
    fn current_player(&self) -> usize {
        self.game.engine.to_move(self.current()).idx()
    }

    /// Whether the move to make is a chance event: a random (`?`) player's, uniform over its legal moves.
    fn is_chance_node(&self) -> bool {
        self.game.engine.is_chance(self.current())
    }

    /// The chance outcomes at a chance node: (action id, probability) pairs, uniform over the legal moves; an
    /// empty list elsewhere.
    fn chance_outcomes(&mut self) -> PyResult<Vec<(usize, f64)>> {
        if !self.is_chance_node() {
            return Ok(vec![]);
        }
        let ids = self.legal_actions()?;
        let p = 1.0 / ids.len().max(1) as f64;
        Ok(ids.into_iter().map(|a| (a, p)).collect())
    }

    /// The legal moves in notation (`e2-e4`, `Stone@d4`, ...), in the engine's order; each names one move.
    /// Empty when the game is over.
    fn legal_moves(&mut self) -> PyResult<Vec<String>> {
        let l = self.listed()?;
        Ok(if l.outcome.is_some() {
            vec![]
        } else {
            l.names.clone()
        })
    }

    /// The legal moves' action ids (see `Game.num_distinct_actions`), in the order of `legal_moves()`. Raises
    /// `DagazError` where two legal moves share an id.
    fn legal_actions(&mut self) -> PyResult<Vec<usize>> {
        let l = self.listed()?;
        if l.outcome.is_some() {
            return Ok(vec![]);
        }
        let mut ids = Vec::with_capacity(l.moves.len());
        for m in &l.moves {
            ids.push(self.game.action_id(m).map_err(DagazError::new_err)?);
        }
        let mut seen: std::collections::HashMap<usize, usize> = Default::default();
        for (i, &id) in ids.iter().enumerate() {
            if let Some(j) = seen.insert(id, i) {
                return Err(DagazError::new_err(format!(
                    "the legal moves `{}` and `{}` share action id {id}; this game's moves need notation",
                    l.names[j], l.names[i]
                )));
            }
        }
        Ok(ids)
    }

    /// The action id of a legal move given in notation.
    fn notation_to_action(&mut self, notation: &Bound<'_, PyAny>) -> PyResult<usize> {
        let (l, i) = self.find(notation)?;
        self.game
            .action_id(&l.moves[i])
            .map_err(DagazError::new_err)
    }

    /// The notation of a legal move given by action id.
    fn action_to_notation(&mut self, action: &Bound<'_, PyAny>) -> PyResult<String> {
        let (l, i) = self.find(action)?;
        Ok(l.names[i].clone())
    }

    /// Plays a legal move, given by action id (int) or notation (str), in place. An illegal move, or any move
    /// once the game is over, raises `IllegalMoveError` and leaves the state as it was.
    fn play(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let (l, i) = self.find(action)?;
        self.play_index(&l, i);
        Ok(())
    }

    /// Takes back the last move played. Raises `IndexError` at the first position.
    fn undo(&mut self) -> PyResult<()> {
        if self.stack.len() < 2 {
            return Err(pyo3::exceptions::PyIndexError::new_err(
                "nothing to undo: no move was played",
            ));
        }
        self.stack.pop();
        self.history.pop();
        self.played.pop();
        self.listed = None;
        Ok(())
    }

    /// The notations of the moves played so far, oldest first.
    fn history(&self) -> Vec<String> {
        self.played.clone()
    }

    /// The ply count of the game (the engine's; it counts every move, random players' included).
    fn ply(&self) -> u32 {
        self.current().ply()
    }

    /// Whether the game is over: an end condition of the game holds.
    fn is_terminal(&mut self) -> PyResult<bool> {
        Ok(self.listed()?.outcome.is_some())
    }

    /// The result per player index: 1.0 win, 0.0 draw, -1.0 loss once the game is over; all 0.0 before.
    fn returns(&mut self) -> PyResult<Vec<f64>> {
        let n = self.game.game.players.len();
        Ok(match &self.listed()?.outcome {
            Some(o) => o.results.iter().map(|&r| r as f64).collect(),
            None => vec![0.0; n],
        })
    }

    /// How the game ended: a dict with `end_type` (`checkmated`, `stalemated`, ...), `name`, `results` (by
    /// player name); `None` while it goes on.
    fn outcome<'py>(&mut self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let l = self.listed()?;
        let Some(o) = &l.outcome else {
            return Ok(None);
        };
        let d = PyDict::new(py);
        d.set_item("end_type", &o.end_type)?;
        d.set_item("name", &o.name)?;
        let results = PyDict::new(py);
        for (p, r) in self.game.game.players.iter().zip(&o.results) {
            results.set_item(&p.name, *r)?;
        }
        d.set_item("results", results)?;
        Ok(Some(d))
    }

    /// The bytes behind `observation()`: little-endian float32, planes by rows.
    fn observation_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        let g = &self.game.game;
        let p = g.board.positions.len();
        let k = g.pieces.len();
        let planes = k * g.players.len();
        PyBytes::new_with(py, planes * p * 4, |buf| {
            buf.fill(0);
            for (i, c) in self.current().cells().iter().enumerate() {
                if let Some(x) = c {
                    let plane = x.owner.idx() * k + x.kind.idx();
                    let at = (plane * p + i) * 4;
                    buf[at..at + 4].copy_from_slice(&1.0f32.to_le_bytes());
                }
            }
            Ok(())
        })
        .expect("filling a buffer does not fail")
    }

    /// The state as a numpy float32 array of shape `game.observation_shape`: one plane per (player, piece type)
    /// over the board's positions (`Game.positions`), 1.0 where that player's piece of that type stands (the top
    /// piece, where pieces stack). Plane `player * len(game.piece_types) + kind`. A read-only view of the bytes
    /// the engine filled (`numpy.frombuffer`), not a copy. Pieces in reserve are not on a position (see
    /// `to_json()`).
    fn observation<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let g = &self.game.game;
        let shape = (g.pieces.len() * g.players.len(), g.board.positions.len());
        let bytes = self.observation_bytes(py);
        let np = py.import("numpy")?;
        np.call_method1("frombuffer", (bytes, "<f4"))?
            .call_method1("reshape", (shape,))
    }

    /// The position in the text format of `dagaz perft --position` and the session's `load`.
    fn __str__(&self) -> String {
        dagaz::engine::position::format(&self.game.game, self.current())
    }

    fn __repr__(&self) -> String {
        format!(
            "<dagaz.State of {:?} at ply {}>",
            self.game.game.title,
            self.current().ply()
        )
    }

    /// The state as JSON text: pieces by position, reserves, whose turn, the last move (as the session's
    /// `state` answers).
    fn to_json(&self) -> String {
        dagaz::session::state_json(&self.game.game, self.current()).to_string()
    }

    /// A state at the position in `text` (the format of `str(state)`), with no history.
    fn load_position(&self, text: &str) -> PyResult<PyState> {
        let s = dagaz::engine::position::parse(&self.game.game, text)
            .map_err(|e| DagazError::new_err(format!("position: {e}")))?;
        Ok(PyState {
            game: self.game.clone(),
            stack: vec![s],
            history: vec![],
            played: vec![],
            listed: None,
        })
    }

    /// An independent copy: playing on one does not change the other.
    fn clone(&self) -> PyState {
        PyState {
            game: self.game.clone(),
            stack: self.stack.clone(),
            history: self.history.clone(),
            played: self.played.clone(),
            listed: self.listed.clone(),
        }
    }

    fn __copy__(&self) -> PyState {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyState {
        self.clone()
    }

    /// Plays one uniformly random game from this state inside Rust (the loops of `dagaz playout` and MCTS
    /// rollouts), on a copy: this state does not change. The game stops as a draw of type `move-limit` at ply
    /// `max_plies` of the whole game. Returns (returns per player, plies played, end type).
    #[pyo3(signature = (seed, max_plies=1000))]
    fn random_playout(&self, seed: u64, max_plies: u32) -> PyResult<(Vec<f64>, u32, String)> {
        let mut s = self.current().clone();
        let start = s.ply();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let r = random_game_from(
            &self.game.engine,
            &mut s,
            &self.history,
            &mut rng,
            max_plies,
        )
        .map_err(engine_err)?;
        let n = self.game.game.players.len();
        Ok(match r.outcome {
            Some(o) => (
                o.results.iter().map(|&x| x as f64).collect(),
                s.ply() - start,
                o.end_type,
            ),
            None => (vec![0.0; n], s.ply() - start, "move-limit".into()),
        })
    }
}

/// The compiled part of the `dagaz` package.
#[pymodule]
fn _dagaz(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // Which build this is, for the fingerprint of a tournament run from Python (`dagaz build`).
    dagaz::tournament::shards::set_build_commit(dagaz_build_stamp::build_commit!());
    m.add_class::<PyGame>()?;
    m.add_class::<PyState>()?;
    m.add_function(wrap_pyfunction!(tournament::run_tournament, m)?)?;
    m.add("DagazError", m.py().get_type::<DagazError>())?;
    m.add("IllegalMoveError", m.py().get_type::<IllegalMoveError>())?;
    Ok(())
}
