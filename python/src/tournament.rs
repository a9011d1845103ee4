//! Tournaments from Python: the runner of `dagaz tournament`, with its command line's settings, and Python
//! callables as bots played in-process.

use crate::{action_id_of, Loaded, PyState};
use dagaz::bot::{Bot, BotError};
use dagaz::engine::{Engine, Move, State};
use dagaz::tournament::config::BotEntry;
use dagaz::tournament::{runner, Progress, Tournament};
use pyo3::prelude::*;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// A Python callable as a bot: called with a `dagaz.State` (the position, the earlier positions' keys for
/// repetition; no move history), it returns the move to play as an action id or a notation.
struct PyBot {
    name: String,
    func: Arc<Py<PyAny>>,
    /// The game the states it is shown belong to, built at its first move from the engine's game.
    loaded: Option<Arc<Loaded>>,
}

impl Bot for PyBot {
    fn name(&self) -> &str {
        &self.name
    }

    fn choose(
        &mut self,
        engine: &Engine,
        state: &State,
        moves: &[Move],
        history: &[u64],
        _rng: &mut ChaCha8Rng,
    ) -> Result<usize, BotError> {
        let loaded = self
            .loaded
            .get_or_insert_with(|| Loaded::new(engine.game.clone(), "<tournament>".into()))
            .clone();
        let name = &self.name;
        Python::with_gil(|py| {
            let st = PyState {
                game: loaded.clone(),
                stack: vec![state.clone()],
                history: history.to_vec(),
                played: vec![],
                listed: None,
            };
            let answer = self
                .func
                .call1(py, (st,))
                .map_err(|e| BotError::Illegal(format!("the Python bot `{name}` raised {e}")))?;
            let answer = answer.bind(py);
            if let Ok(text) = answer.extract::<String>() {
                let names = Move::notations(engine.game, moves);
                return names.iter().position(|n| *n == text).ok_or_else(|| {
                    BotError::Illegal(format!(
                        "the Python bot `{name}` answered `{text}`, not a legal move"
                    ))
                });
            }
            if let Ok(id) = answer.extract::<usize>() {
                let found: Vec<usize> = (0..moves.len())
                    .filter(|&i| action_id_of(&loaded, &moves[i]) == Some(id))
                    .collect();
                return match found.as_slice() {
                    [i] => Ok(*i),
                    [] => Err(BotError::Illegal(format!(
                        "the Python bot `{name}` answered action {id}, not a legal move"
                    ))),
                    _ => Err(BotError::Illegal(format!(
                        "the Python bot `{name}` answered action {id}, which names {} legal moves; answer a notation",
                        found.len()
                    ))),
                };
            }
            Err(BotError::Illegal(format!(
                "the Python bot `{name}` answered {answer}, neither an action id nor a notation"
            )))
        })
    }
}

#[derive(clap::Parser)]
#[command(name = "tournament", no_binary_name = true)]
struct Args {
    #[command(flatten)]
    a: dagaz::cli::tournament::TournamentArgs,
}

/// Runs a tournament with the settings of `dagaz tournament ARGS` (the same words, as a list: `["games/x.zrf",
/// "--bots", "random", "mcts-1k", "--games", "10"]`), plus `python_bots`, (name, callable) pairs played
/// in-process after the command line's bots. Every game's files go to the run's folder (`--out`, or
/// `results/<game>-<time>` as the command line does), which it returns with the standings' text. A Python bot
/// is called with a `dagaz.State` and answers an action id or a notation; an exception or an illegal answer
/// loses that game as a bot error (recorded in `games.csv`). Python bots cannot be resumed (`--resume`).
#[pyfunction]
#[pyo3(signature = (args, python_bots=Vec::new()))]
pub fn run_tournament(
    py: Python<'_>,
    args: Vec<String>,
    python_bots: Vec<(String, Py<PyAny>)>,
) -> PyResult<(String, String)> {
    use clap::Parser;
    let err = |e: String| crate::DagazError::new_err(e);
    let a = Args::try_parse_from(&args)
        .map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))?
        .a;
    if a.resume || a.start_or_resume {
        return Err(err(
            "run_tournament does not resume runs: use `dagaz tournament --resume`".into(),
        ));
    }
    let config = dagaz::cli::tournament::tournament_config(&a).map_err(err)?;
    let clock = config.clock().map_err(err)?;
    let mut bots = vec![];
    let mut specs = vec![];
    // Without `--bots` (or a `--config` file's), only the Python bots play, not the default bots.
    let named = if a.bots.is_empty() && a.config.is_none() && !python_bots.is_empty() {
        vec![]
    } else {
        config.bots.clone()
    };
    for b in &named {
        let spec = b.resolve_in(&config.bots_dirs).map_err(err)?;
        specs.push(spec.clone());
        let entry = BotEntry::from_spec(spec.clone()).with_clock(clock);
        spec.check_limits(entry.clock.is_some()).map_err(err)?;
        bots.push(entry);
    }
    let variants = config.load_variants().map_err(err)?;
    for spec in &specs {
        for v in &variants {
            spec.check_game(&v.game).map_err(err)?;
        }
    }
    for (name, func) in python_bots {
        let func = Arc::new(func);
        let n = name.clone();
        bots.push(BotEntry {
            name: name.clone(),
            config: None,
            make: Arc::new(move || {
                Ok(Box::new(PyBot {
                    name: n.clone(),
                    func: func.clone(),
                    loaded: None,
                }) as Box<dyn Bot>)
            }),
            own_time_limit: None,
            fixed_budget: false,
            clock,
        });
    }
    let mut config = config;
    config.bots = named;
    let mut t = Tournament::new(config, variants, bots).map_err(err)?;
    let out = a.out.clone().unwrap_or_else(|| {
        let stem = t
            .config
            .game
            .rsplit(['/', '\\', ':'])
            .next()
            .unwrap_or("game")
            .trim_end_matches(".zrf")
            .to_string();
        let secs = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        std::path::PathBuf::from("results").join(format!("{stem}-py-{secs}"))
    });
    t.config.rebase(&out).map_err(err)?;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let (jobs, _) = dagaz::cli::tournament::jobs_for(a.jobs, cores);
    let opts = runner::RunOptions {
        out: out.clone(),
        jobs,
        progress: Progress::None,
        resume: false,
    };
    // The games' threads call the Python bots, each taking the GIL: this thread lets it go meanwhile.
    let r = py.allow_threads(|| runner::run(&t, &opts)).map_err(err)?;
    let text = dagaz::tournament::report::render_standings(&r.summary);
    Ok((out.display().to_string(), text))
}
