//! Uniform random playouts: the building block of the `playout` command, MCTS and throughput benchmarks.

use super::state::State;
use super::{Engine, EngineError, Move, Outcome};
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

/// A uniform integer below `n` (n > 0), without modulo bias.
pub fn below(rng: &mut impl RngCore, n: usize) -> usize {
    let n = n as u64;
    let zone = u64::MAX - u64::MAX % n;
    loop {
        let x = rng.next_u64();
        if x < zone {
            return (x % n) as usize;
        }
    }
}

/// The keys of the positions a playout has passed, kept only where the end of the game may read them
/// ([`Engine::reads_history`]); elsewhere it stays empty, with the same outcomes.
struct History {
    keys: Vec<u64>,
    keep: bool,
}

impl History {
    /// The history of a game from `s`, after the positions `prefix` (oldest first).
    fn new(engine: &Engine, s: &State, prefix: &[u64], max_plies: u32) -> History {
        let keep = engine.reads_history();
        let mut keys = vec![];
        if keep {
            keys.reserve(prefix.len() + capacity(s, max_plies));
            keys.extend_from_slice(prefix);
        }
        History { keys, keep }
    }

    /// Notes the position about to be left.
    #[inline]
    fn note(&mut self, s: &State) {
        if self.keep {
            self.keys.push(s.key());
        }
    }
}

/// The keys a game from `s` may add before ply `max_plies`, as a capacity (bounded: a far cap is met by growth).
fn capacity(s: &State, max_plies: u32) -> usize {
    (max_plies.saturating_sub(s.ply) as usize + 1).min(1 << 12)
}

/// Every key of a game from `s` after the positions `prefix`: the history of the reference loops.
fn full_history(s: &State, prefix: &[u64], max_plies: u32) -> Vec<u64> {
    let mut keys = Vec::with_capacity(prefix.len() + capacity(s, max_plies));
    keys.extend_from_slice(prefix);
    keys
}

/// How a random game went if it is over at this ply: its outcome where an end condition holds, else a draw of
/// type `move-limit` (no outcome) where `ply` has reached `max_plies`.
fn over(
    outcome: Option<Outcome>,
    ply: u32,
    max_plies: u32,
    moves_seen: Option<u64>,
) -> Option<PlayoutResult> {
    (outcome.is_some() || ply >= max_plies).then_some(PlayoutResult {
        plies: ply,
        outcome,
        moves_seen,
    })
}

/// The seeded random stream of one game: derived from a run seed and a game index, never from a thread.
pub fn game_rng(seed: u64, game: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(game);
    rng
}

/// How a random game went.
#[derive(Clone, Debug)]
pub struct PlayoutResult {
    pub plies: u32,
    /// `None` when the ply cap was reached (a draw of type `move-limit`).
    pub outcome: Option<Outcome>,
    /// Legal moves summed over the positions where a move was chosen (for the branching factor). `None` where
    /// [`random_game`] tested only the drawn moves' legality, so never counted the legal moves (games with
    /// `checkmated` or invariants); [`random_game_counting`] always counts them.
    pub moves_seen: Option<u64>,
}

/// Plays uniformly random moves from the start until the game ends or `max_plies` are played.
///
/// Where the engine allows it ([`Engine::lazy_legality`]), each ply draws among the candidate moves and tests
/// only the drawn one: an illegal move is removed and another drawn from the rest, so the move played is
/// uniform over the legal moves, and the position is over for want of a move only when every candidate was
/// rejected. The end conditions then see the one legal move found (or the forced pass, or nothing), which is
/// all they read of the list (whether it is empty, whether it holds only passes). Games whose every candidate
/// is legal draw exactly as [`random_game_counting`] does.
pub fn random_game(
    engine: &Engine,
    rng: &mut impl RngCore,
    max_plies: u32,
) -> Result<PlayoutResult, EngineError> {
    random_game_from(engine, &mut engine.initial(), &[], rng, max_plies)
}

/// [`random_game`] from the position `s` (played on in place: it holds the last position when this returns),
/// whose game passed the positions with keys `history` before it (oldest first, as [`Engine::outcome`] reads
/// them). The game stops as a draw of type `move-limit` at ply `max_plies` of the whole game ([`State::ply`],
/// not counted from `s`). The same loops as from the start: what MCTS rollouts play.
pub fn random_game_from(
    engine: &Engine,
    s: &mut State,
    history: &[u64],
    rng: &mut impl RngCore,
    max_plies: u32,
) -> Result<PlayoutResult, EngineError> {
    random_game_recording(engine, s, history, rng, max_plies, &mut ())
}

/// What a random game tells of each move it plays: the position before the move and the move's key
/// ([`super::search::move_key`], the identity MCTS's all-moves-as-first and move-average statistics use).
pub trait MoveSink {
    /// Whether the loops call [`MoveSink::played`] at all (false: no key is computed).
    const ON: bool;
    fn played(&mut self, engine: &Engine, s: &State, key: u32);
}

/// No sink: the plain loops.
impl MoveSink for () {
    const ON: bool = false;
    #[inline(always)]
    fn played(&mut self, _: &Engine, _: &State, _: u32) {}
}

/// Whether `sink` is told of the moves ([`MoveSink::ON`]).
fn has_sink<S: MoveSink>(_: &S) -> bool {
    S::ON
}

/// [`random_game_from`] telling `sink` of every move it plays, in order, just before it is played: the same
/// loops, the same random draws, so the same game as [`random_game_from`] for the same stream.
pub fn random_game_recording(
    engine: &Engine,
    s: &mut State,
    history: &[u64],
    rng: &mut impl RngCore,
    max_plies: u32,
    sink: &mut impl MoveSink,
) -> Result<PlayoutResult, EngineError> {
    // Sowing games on their seed counts (`super::sow_kernel`), where no move is reported.
    if !has_sink(sink) {
        if let Some(plan) = engine.sow_plan() {
            if let Some(r) = plan.random_game(engine, s, history, rng, max_plies)? {
                return Ok(r);
            }
        }
    }
    if engine.flat() {
        if let Some(plan) = engine.sample_plan() {
            return random_game_sampled(engine, plan, s, history, rng, max_plies, sink);
        }
        return random_game_listed(engine, s, history, rng, max_plies, true, sink);
    }
    if engine.royal_listed() {
        return random_game_royal(engine, s, history, rng, max_plies, sink);
    }
    if !engine.lazy_legality() {
        return counting_from(engine, s, history, rng, max_plies, sink);
    }
    drawn_from(engine, s, history, rng, max_plies, sink)
}

/// [`random_game`] by [`draw_legal`] on owned moves, a state copied per ply: what games with `checkmated` or
/// invariants play where no move buffer serves them, and the reference the buffer's path is held to.
pub fn random_game_drawn(
    engine: &Engine,
    rng: &mut impl RngCore,
    max_plies: u32,
) -> Result<PlayoutResult, EngineError> {
    drawn_from(engine, &mut engine.initial(), &[], rng, max_plies, &mut ())
}

fn drawn_from<S: MoveSink>(
    engine: &Engine,
    s: &mut State,
    prefix: &[u64],
    rng: &mut impl RngCore,
    max_plies: u32,
    sink: &mut S,
) -> Result<PlayoutResult, EngineError> {
    let mut history = full_history(s, prefix, max_plies);
    let mut moves_seen = (!engine.tests_moves()).then_some(0);
    loop {
        let (chosen, n, all_legal) = draw_legal(engine, s, rng)?;
        let fallback;
        let moves: &[Move] = match &chosen {
            Some(m) => std::slice::from_ref(m),
            None => {
                fallback = engine.no_candidate(s);
                &fallback
            }
        };
        if let Some(r) = over(
            engine.outcome(s, moves, &history)?,
            s.ply,
            max_plies,
            moves_seen,
        ) {
            return Ok(r);
        }
        // Every candidate is legal where no move is tested: then they are the legal moves.
        debug_assert!(all_legal || engine.tests_moves());
        if let Some(k) = &mut moves_seen {
            *k += if chosen.is_some() {
                n
            } else {
                moves.len() as u64
            };
        }
        history.push(s.key());
        let m = match &chosen {
            Some(m) => m,
            // The forced pass, drawn as the only move of its list.
            None => &moves[below(rng, moves.len())],
        };
        if S::ON {
            sink.played(engine, s, super::search::move_key(m));
        }
        *s = engine.apply(s, m);
    }
}

/// A legal move drawn uniformly (`None`: no candidate is legal), by drawing among the candidate moves and
/// testing only the drawn one, removed and drawn again when illegal; with the number of candidates and whether
/// all those tested were legal.
pub fn draw_legal(
    engine: &Engine,
    s: &super::State,
    rng: &mut impl RngCore,
) -> Result<(Option<Move>, u64, bool), EngineError> {
    let (player, mut cands) = engine.candidates(s)?;
    let n = cands.len() as u64;
    let mut all_legal = true;
    while !cands.is_empty() {
        let m = cands.swap_remove(below(rng, cands.len()));
        if engine.candidate_legal(s, player, &m)? {
            return Ok((Some(m), n, all_legal));
        }
        all_legal = false;
    }
    Ok((None, n, all_legal))
}

/// [`random_game`] listing every legal move at every ply: the branching factor is exact.
pub fn random_game_counting(
    engine: &Engine,
    rng: &mut impl RngCore,
    max_plies: u32,
) -> Result<PlayoutResult, EngineError> {
    counting_from(engine, &mut engine.initial(), &[], rng, max_plies, &mut ())
}

fn counting_from<S: MoveSink>(
    engine: &Engine,
    s: &mut State,
    prefix: &[u64],
    rng: &mut impl RngCore,
    max_plies: u32,
    sink: &mut S,
) -> Result<PlayoutResult, EngineError> {
    let mut history = full_history(s, prefix, max_plies);
    let mut moves_seen = 0;
    loop {
        let moves = engine.legal_moves(s)?;
        if let Some(r) = over(
            engine.outcome(s, &moves, &history)?,
            s.ply,
            max_plies,
            Some(moves_seen),
        ) {
            return Ok(r);
        }
        moves_seen += moves.len() as u64;
        history.push(s.key());
        let m = &moves[below(rng, moves.len())];
        if S::ON {
            sink.played(engine, s, super::search::move_key(m));
        }
        engine.play(s, m);
    }
}

/// [`random_game`] listing every legal move at every ply, on a move buffer (games where `Engine::flat` holds;
/// an error otherwise): never the count-only mode. The same games as [`random_game`]; for tests and
/// measurements of that mode.
pub fn random_game_listing(
    engine: &Engine,
    rng: &mut impl RngCore,
    max_plies: u32,
) -> Result<PlayoutResult, EngineError> {
    random_game_listed(
        engine,
        &mut engine.initial(),
        &[],
        rng,
        max_plies,
        false,
        &mut (),
    )
}

/// [`random_game`] on a move buffer reused from ply to ply (games where `Engine::flat` holds): the same moves
/// in the same order, so the same games, with nothing allocated per ply. With `counted`, where the engine has
/// a count-only plan (`super::count`), a ply counts the moves, draws an index into the list it would have
/// built, and builds only that move: the same random draws, the same move.
fn random_game_listed<S: MoveSink>(
    engine: &Engine,
    s: &mut State,
    prefix: &[u64],
    rng: &mut impl RngCore,
    max_plies: u32,
    counted: bool,
    sink: &mut S,
) -> Result<PlayoutResult, EngineError> {
    let mut history = History::new(engine, s, prefix, max_plies);
    let mut moves_seen = 0;
    let mut moves = super::MoveList::new();
    // Composite moves stay handles until one is chosen.
    moves.lazy = true;
    let plan = engine.count_plan().filter(|_| counted);
    let mut counter = super::count::Counter::default();
    // The part of the history a repetition can reach (see `RepetitionWindow`), where the history is kept.
    let mut window = super::end::RepetitionWindow::default();
    loop {
        if history.keep {
            window.update(s, history.keys.len());
        }
        let past = window.of(&history.keys);
        if let Some(c) = plan.and_then(|p| p.count(engine.game, s, &mut counter)) {
            let n = c.total();
            if let Some(r) = over(
                engine.outcome_of_count(s, n, c.moves == 0, past)?,
                s.ply,
                max_plies,
                Some(moves_seen),
            ) {
                return Ok(r);
            }
            moves_seen += n as u64;
            history.note(s);
            let i = below(rng, n);
            let p = plan.expect("counted with a plan");
            p.build(engine.game, s, c, i, &mut counter, &mut moves)?;
            if S::ON {
                sink.played(engine, s, super::search::list_key(&moves, 0));
            }
            engine.play_listed_in(s, &moves, 0);
            continue;
        }
        engine.legal_into(s, &mut moves)?;
        if let Some(r) = over(
            engine.outcome_of_list(s, &moves, past)?,
            s.ply,
            max_plies,
            Some(moves_seen),
        ) {
            return Ok(r);
        }
        moves_seen += moves.len() as u64;
        history.note(s);
        let i = below(rng, moves.len());
        let i = engine.resolve(s, &mut moves, i)?;
        if S::ON {
            sink.played(engine, s, super::search::list_key(&moves, i));
        }
        engine.play_listed_in(s, &moves, i);
    }
}

/// [`random_game`] for games where [`Engine::royal_listed`] holds (chess): the candidates listed into a move
/// buffer reused from ply to ply, the drawn move tested by make and unmake on the game's one state. The same
/// candidates in the same order, drawn with the same calls as [`draw_legal`] (an index removed by
/// `swap_remove` as the move was), so the same games, with no state copied and nothing allocated per ply.
fn random_game_royal<S: MoveSink>(
    engine: &Engine,
    s: &mut State,
    prefix: &[u64],
    rng: &mut impl RngCore,
    max_plies: u32,
    sink: &mut S,
) -> Result<PlayoutResult, EngineError> {
    let mut history = History::new(engine, s, prefix, max_plies);
    let mut list = super::MoveList::new();
    let mut order: Vec<u32> = vec![];
    let mut undo = super::apply::Undo::new();
    let mut window = super::end::RepetitionWindow::default();
    loop {
        engine.candidates_into(s, &mut list)?;
        let player = engine.to_move(s);
        order.clear();
        order.extend(0..list.len() as u32);
        let mut chosen = None;
        while !order.is_empty() {
            let i = order.swap_remove(below(rng, order.len())) as usize;
            if engine.listed_legal(s, &list, i, player, &mut undo)? {
                chosen = Some(i);
                break;
            }
        }
        // The end conditions see the one legal move found, or none (as in `random_game`).
        let count = super::end::MoveCount {
            count: chosen.is_some() as usize,
            all_pass: chosen.is_none_or(|i| list.is_pass_in(i)),
        };
        window.update(s, history.keys.len());
        if let Some(r) = over(
            engine.outcome_counted(s, count, window.of(&history.keys))?,
            s.ply,
            max_plies,
            None,
        ) {
            return Ok(r);
        }
        // A position without a legal move is over (stalemated at least), so a move was found.
        let Some(i) = chosen else {
            return Err(EngineError(format!(
                "{}: no legal move and the game not over",
                engine.game.title
            )));
        };
        history.note(s);
        if S::ON {
            sink.played(engine, s, super::search::list_key(&list, i));
        }
        engine.play_listed_in(s, &list, i);
    }
}

/// [`random_game`] for games the sampling analysis accepts (`super::sample`): each ply draws a move generator
/// uniformly among those not yet tried and runs it alone; the first that yields a move gives the move played,
/// uniform over the legal moves, since each legal move is the one move of one generator. Only when every
/// generator is rejected is the position listed whole (the forced pass, or no move). The end conditions see the
/// one move found, which is all they read of the list (whether it is empty, whether it holds only passes).
/// The legal moves are not counted (`moves_seen` is `None`).
fn random_game_sampled<S: MoveSink>(
    engine: &Engine,
    plan: &super::sample::SamplePlan,
    s: &mut State,
    prefix: &[u64],
    rng: &mut impl RngCore,
    max_plies: u32,
    sink: &mut S,
) -> Result<PlayoutResult, EngineError> {
    use super::sample::Drawn;
    let game = engine.game;
    let mut history = History::new(engine, s, prefix, max_plies);
    let mut moves = super::MoveList::new();
    let mut gens = vec![];
    let mut em = super::gen::Emissions::default();
    loop {
        let entry = &game.turn_order.entries[s.turn];
        let (player, owner) = (entry.player, entry.moves_as);
        let drawn = plan.draw(game, s, player, owner, rng, &mut gens, &mut em)?;
        moves.clear();
        let outcome = match drawn {
            Drawn::Move => {
                moves.push_singles(&mut em);
                engine.outcome_of_list(s, &moves, &history.keys)?
            }
            // The end conditions read the list as one pass, with another move when there is one.
            Drawn::Pass { others } => {
                moves.push_pass();
                engine.outcome_of_count(s, 1 + others as usize, !others, &history.keys)?
            }
            Drawn::Nothing => {
                engine.legal_into(s, &mut moves)?;
                // The proof says a position whose generators all fail has no move but the pass.
                if (0..moves.len()).any(|i| !moves.is_pass_in(i)) {
                    return Err(EngineError(format!(
                        "{}: a move no sampled generator yields",
                        game.title
                    )));
                }
                engine.outcome_of_list(s, &moves, &history.keys)?
            }
        };
        if let Some(r) = over(outcome, s.ply, max_plies, None) {
            return Ok(r);
        }
        history.note(s);
        let i = match drawn {
            Drawn::Nothing => below(rng, moves.len()),
            _ => 0,
        };
        if S::ON {
            sink.played(engine, s, super::search::list_key(&moves, i));
        }
        engine.play_listed_in(s, &moves, i);
    }
}
