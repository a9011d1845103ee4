//! Plays the schedule: games in parallel on a rayon pool, each game's randomness from the run seed and its ids,
//! every finished game appended to `games.csv` at once, the SPRT checked in pair order, and a stopped run
//! resumed from what its files hold.
//!
//! Each game runs on a thread of its own, watched by the pool thread that started it: a bot that panics loses
//! (the panic is caught), and one that takes longer than the move time limit loses too, its thread abandoned
//! (an in-process bot cannot be stopped from outside; it goes on until it returns or the process ends). The
//! result of every game depends only on the seed, its game id and its pair id, never on the thread that played
//! it or on the order games finished in: the final files are written sorted by game id.

use super::budget::{CpuBudget, Meter};
use super::clock::GameClocks;
use super::config::{seats_of, BotEntry, Tournament};
pub use super::progress::Progress;
use super::progress::ProgressView;
use super::record::{GameRecord, GameTiming, BOT_ERROR, ENGINE_ERROR, MOVE_LIMIT, TIME_FORFEIT};
use super::rules::Rules;
use super::schedule::{Pairing, Schedule};
pub(crate) use super::sprt::SprtTracker;
pub use super::sprt::{outcome_of, SprtStatus};
use super::writers::{self, RunFiles};
use super::{report, Summary};
use crate::bot::{Bot, BotError};
use crate::engine::playout::{below, game_rng};
use crate::engine::{EngineError, State};
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

/// Mixed into the run seed for the openings' streams, so that they differ from the games' streams of the
/// same index.
const OPENING_SALT: u64 = 0x6f70_656e_696e_6773; // "openings"

/// The engine gets at least this long for one step before a game is given up as an engine error.
const ENGINE_TIME_LIMIT: Duration = Duration::from_secs(60);

/// A bot with a fixed budget (depth, nodes, iterations) is not subject to the move timeout, whose expiry would
/// make its results depend on the machine and its load; a move that takes longer than this (or than the move
/// timeout, if longer) is taken for an engine fault: the game ends as an engine error, counted for nobody.
pub const FIXED_BUDGET_SAFETY_LIMIT: Duration = Duration::from_secs(600);

/// How long past a clocked bot's flag its watcher waits for the move before giving the game up as lost on time
/// (the engine adapters give up a second after the flag themselves).
const CLOCK_GRACE: Duration = Duration::from_secs(3);

/// How often a game's watcher looks at what the game is doing.
const WATCH_INTERVAL: Duration = Duration::from_millis(50);

/// How to run (none of it changes the results).
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// The run's folder (`results/<run>/`).
    pub out: PathBuf,
    /// Games played at once.
    pub jobs: usize,
    pub progress: Progress,
    /// Go on with the games a stopped run in `out` had not finished.
    pub resume: bool,
}

/// What a run produced.
pub struct RunOutcome {
    /// The run's folder.
    pub out: PathBuf,
    /// Width of the per-seat columns of its CSV files.
    pub seats: usize,
    /// Every statistic of the run.
    pub summary: Summary,
    /// Games played by this invocation, and read back from an earlier one.
    pub played: u64,
    pub resumed: u64,
    pub seconds: f64,
}

impl RunOutcome {
    /// Every game of the run, in game-id order, read back from `games.csv` (the run keeps none in memory).
    pub fn records(&self) -> Result<Vec<GameRecord>, String> {
        RunFiles::new(&self.out, self.seats).read_games()
    }

    /// The timings of the run's games, in game-id order, read back from `timings.csv`.
    pub fn timings(&self) -> Result<Vec<GameTiming>, String> {
        RunFiles::new(&self.out, self.seats).read_timings()
    }
}

/// The game ids a run had finished before this invocation: ranges, so that a long run read back in
/// game-id order costs a few bytes, not a few per game.
#[derive(Default)]
struct DoneIds {
    /// Disjoint, increasing half-open ranges.
    ranges: Vec<(u64, u64)>,
}

impl DoneIds {
    /// Adds an id; ids come in increasing order.
    fn push(&mut self, id: u64) {
        match self.ranges.last_mut() {
            Some((_, end)) if *end == id => *end += 1,
            _ => self.ranges.push((id, id + 1)),
        }
    }

    fn contains(&self, id: u64) -> bool {
        let i = self.ranges.partition_point(|&(start, _)| start <= id);
        i > 0 && id < self.ranges[i - 1].1
    }
}

/// Runs (or resumes) a tournament and writes every output into `opts.out`.
///
/// Memory does not grow with the number of games: the schedule is computed game by game, finished games go
/// straight to the files, the SPRT keeps only pairs not yet complete, and the statistics are counted from
/// the final `games.csv` read one row at a time.
pub fn run(t: &Tournament, opts: &RunOptions) -> Result<RunOutcome, String> {
    run_limited(t, opts, None)
}

/// [`run`] within a CPU budget (`dagaz evaluate --time-limit`): once it is used up no game starts, and the
/// games under way are cut (each game charges its thread's CPU time at every ply, and its watcher charges it
/// meanwhile, so that a ply or a move that does not return is cut as well) and not filed; the run then ends
/// as a stopped run does, its `games.csv` holding the games finished before.
pub fn run_limited(
    t: &Tournament,
    opts: &RunOptions,
    budget: Option<Arc<CpuBudget>>,
) -> Result<RunOutcome, String> {
    let start = Instant::now();
    let seats = t.max_seats();
    let files = RunFiles::new(&opts.out, seats);
    let sched = Schedule::new(
        t.config.format,
        t.bots.len(),
        &t.variants
            .iter()
            .map(|v| v.seats().len())
            .collect::<Vec<_>>(),
        t.config.games,
    )?;

    // Every bot process the run starts ends with it, however it ends.
    let scope = BotScope(crate::bot::external::new_scope());
    // One process per run folder; then a resume must run what the run started with.
    let _lock = files.lock()?;
    let fingerprint = t.fingerprint();
    let first_bot = t.bots[0].name.clone();
    // A shard holds a part of each pair: the SPRT is decided when the shards are merged.
    let shard = t.config.shard;
    let mut sprt = t
        .config
        .sprt
        .filter(|_| shard.is_none())
        .map(|c| SprtTracker::new(c, &sched));
    let stop = Arc::new(AtomicU64::new(u64::MAX));
    // What an earlier invocation finished.
    let mut done = DoneIds::default();
    let mut resumed = 0u64;
    if opts.resume {
        files.check_fingerprint(&fingerprint)?;
        // Sorted and rewritten first: drops a row a killed run left half written.
        files.finish_files(None)?;
        files.for_each_game(|r| {
            let Some(p) = sched.get(r.game_id) else {
                return Err(format!(
                    "{}: game {} is not in this run's schedule",
                    files.games.display(),
                    r.game_id
                ));
            };
            let want: Vec<&str> = p.seats.iter().map(|&b| t.bots[b].name.as_str()).collect();
            if r.pair_id != p.pair_id || r.bots != want || r.variant != t.variants[p.variant].title
            {
                return Err(format!(
                    "{}: game {} does not match the run's configuration",
                    files.games.display(),
                    r.game_id
                ));
            }
            done.push(r.game_id);
            resumed += 1;
            if let Some(sp) = sprt.as_mut().and_then(|s| s.add(&r, &first_bot)) {
                stop.store(sp, Ordering::SeqCst);
            }
            Ok(())
        })?;
    } else {
        files.create(&t.config)?;
        files.write_fingerprint(&fingerprint)?;
        files.rewrite([].iter(), [].iter())?;
    }
    // A shard of a run with an SPRT stops with the others once the test decides over all their games.
    let watch = super::shards::SprtWatch::new(t, &opts.out)?;
    if let Some(w) = &watch {
        if let Some(sp) = w.poll(&sched)? {
            stop.fetch_min(sp, Ordering::SeqCst);
        }
    }
    let in_shard = shard.map_or(sched.len(), |sh| sh.count(sched.len()));
    let total = match stop.load(Ordering::SeqCst) {
        u64::MAX => in_shard,
        sp => games_through_pair(&sched, sp),
    };

    let collector = Mutex::new(Collector {
        appender: files.appender()?,
        progress: ProgressView::new(opts.progress, resumed, total),
        sprt,
        first_bot,
        played: 0,
        error: None,
    });
    let failed = AtomicBool::new(false);
    {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(opts.jobs.max(1))
            .thread_name(|i| format!("tournament-{i}"))
            .build()
            .map_err(|e| format!("cannot start the worker threads: {e}"))?;
        let next = AtomicU64::new(0);
        let shared = Shared {
            rules: t.variants.iter().map(|v| v.rules.clone()).collect(),
            titles: t.variants.iter().map(|v| v.title.clone()).collect(),
            bots: t.bots.clone(),
            seed: t.config.seed,
            max_plies: t.config.max_plies,
            opening_plies: t.config.opening_plies,
            record_evals: t.config.record_evals,
            move_limit: Duration::from_millis(t.config.move_timeout_ms),
            book: t.book.clone(),
            draw: t.config.draw,
            resign: t.config.resign,
            stop: stop.clone(),
            scope: scope.0,
            budget,
        };
        // The progress is refreshed by the clock too, not only when a game ends (a chess game can take minutes).
        let finished = AtomicBool::new(false);
        std::thread::scope(|scope| {
            scope.spawn(|| {
                let mut ticks = 0u32;
                while !finished.load(Ordering::SeqCst) {
                    std::thread::sleep(Duration::from_millis(200));
                    c_lock(&collector).progress.refresh();
                    ticks += 1;
                    // About once a second: has the SPRT of the shards decided? (A file being written by
                    // another shard may not read; the next look will.)
                    if let (Some(w), 0) = (&watch, ticks % 5) {
                        if let Ok(Some(sp)) = w.poll(&sched) {
                            stop.fetch_min(sp, Ordering::SeqCst);
                        }
                    }
                }
            });
            // Each worker takes the next game of the schedule and files it itself (under the collector's lock):
            // no hand-off per game to another thread.
            pool.broadcast(|_| {
                let mut thread = None;
                while !failed.load(Ordering::SeqCst) {
                    let j = next.fetch_add(1, Ordering::SeqCst);
                    let i = match shard {
                        None => j,
                        Some(sh) => match sh.game(j) {
                            Some(i) => i,
                            None => break,
                        },
                    };
                    if i >= sched.len() {
                        break;
                    }
                    if done.contains(i) {
                        continue;
                    }
                    let Some(p) = sched.get(i) else { break };
                    if p.pair_id > stop.load(Ordering::SeqCst) {
                        break; // pair ids grow with game ids: everything after is past the SPRT's decision
                    }
                    if shared.budget.as_ref().is_some_and(|b| b.exhausted()) {
                        break;
                    }
                    if let Some((rec, tm)) = play_supervised(&shared, &p, &mut thread) {
                        let mut c = c_lock(&collector);
                        if let Err(e) = c.add(rec, tm, &sched, &stop) {
                            c.error.get_or_insert(e);
                            failed.store(true, Ordering::SeqCst);
                        }
                    }
                }
            });
            finished.store(true, Ordering::SeqCst);
        });
    }
    let Collector {
        mut progress,
        sprt,
        played,
        error,
        ..
    } = collector.into_inner().unwrap_or_else(|e| e.into_inner());
    progress.finish();
    if let Some(e) = error {
        return Err(e);
    }

    // A shard's last look: it may be the one whose games let the SPRT decide.
    if let Some(w) = &watch {
        if let Some(sp) = w.poll(&sched)? {
            stop.fetch_min(sp, Ordering::SeqCst);
        }
    }
    let stop_pair = stop.load(Ordering::SeqCst);
    let games = files.finish_files((stop_pair != u64::MAX).then_some(stop_pair))?;
    let complete = stop_pair != u64::MAX || games == in_shard;
    let summary = conclude(t, &files, sprt.map(|s| s.status), complete, games)?;
    Ok(RunOutcome {
        out: opts.out.clone(),
        seats,
        summary,
        played,
        resumed,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// Every statistic and output of a run whose `games.csv` is in its final form, counted from it one game at a
/// time: the summary, `standings.csv`, `end_conditions.csv`, `pairwise.csv`, `report.md`, `results_long.csv`,
/// `games.pgn` and `report.html`. Shared by a run and by `dagaz merge`.
/// `games` is the number of games in the file (what `finish_files` returned): `report.html`'s Elo checkpoints
/// are shares of it, gathered in the same, only, pass over the file.
pub(crate) fn conclude(
    t: &Tournament,
    files: &RunFiles,
    sprt: Option<SprtStatus>,
    complete: bool,
    games: u64,
) -> Result<Summary, String> {
    let mut tally = report::Tally::new(t);
    let mut records = super::records_out::GameFiles::new(&files.dir, t)?;
    let mut page = super::html::ReportPass::new(t, games, sprt.is_some());
    files.for_each_game(|r| {
        tally.add_game(t, &r);
        page.add(t, &r, &tally);
        records.add(t, &r)
    })?;
    records.finish(&files.dir)?;
    let gathered = page.finish(&files.games)?;
    let summary = tally.summary(t, sprt, complete);
    writers::write_outputs(files, t, &summary)?;
    super::html::write_report(files, t, &summary, &gathered)?;
    Ok(summary)
}

/// The SPRT of a run replayed over its final `games.csv`, in pair order: its status, and the last pair to keep
/// once it decided (`dagaz merge` decides it on the merged pairs as one machine would have).
pub(crate) fn replay_sprt(
    t: &Tournament,
    files: &RunFiles,
    sched: &Schedule,
) -> Result<Option<(SprtStatus, Option<u64>)>, String> {
    let Some(c) = t.config.sprt else {
        return Ok(None);
    };
    let mut tracker = SprtTracker::new(c, sched);
    let first = t.bots[0].name.clone();
    let mut stop = None;
    files.for_each_game(|r| {
        if stop.is_none() {
            stop = tracker.add(&r, &first);
        }
        Ok(())
    })?;
    Ok(Some((tracker.status, stop)))
}

/// The number of games of pairs 0 to `pair` (the games of a pair have consecutive ids).
pub(crate) fn games_through_pair(sched: &Schedule, pair: u64) -> u64 {
    // The first game of the next pair, found by bisection on game ids (pair ids grow with them).
    let (mut lo, mut hi) = (0u64, sched.len());
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        match sched.get(mid) {
            Some(p) if p.pair_id <= pair => lo = mid + 1,
            _ => hi = mid,
        }
    }
    lo
}

/// Kills the external bot processes of a run when dropped.
struct BotScope(u64);

impl Drop for BotScope {
    fn drop(&mut self) {
        crate::bot::external::kill_scope(self.0);
    }
}

/// Files finished games: appends them to the CSV files, runs the SPRT and shows progress. It keeps nothing
/// per game.
struct Collector {
    appender: writers::Appender,
    progress: ProgressView,
    sprt: Option<SprtTracker>,
    first_bot: String,
    played: u64,
    error: Option<String>,
}

fn c_lock(c: &Mutex<Collector>) -> std::sync::MutexGuard<'_, Collector> {
    c.lock().unwrap_or_else(|e| e.into_inner())
}

impl Collector {
    fn add(
        &mut self,
        rec: GameRecord,
        tm: GameTiming,
        sched: &Schedule,
        stop: &AtomicU64,
    ) -> Result<(), String> {
        if rec.pair_id > stop.load(Ordering::SeqCst) {
            return Ok(()); // played past the SPRT's decision: not part of the run
        }
        self.appender.append(&rec, &tm)?;
        self.played += 1;
        self.progress.tick(&rec);
        if let Some(sp) = self
            .sprt
            .as_mut()
            .and_then(|s| s.add(&rec, &self.first_bot))
        {
            if stop.load(Ordering::SeqCst) != sp {
                stop.store(sp, Ordering::SeqCst);
                self.progress.set_total(games_through_pair(sched, sp));
            }
        }
        if let Some(t) = &self.sprt {
            let s = &t.status;
            self.progress.set_sprt(s.llr, s.lower, s.upper, s.pairs);
        }
        Ok(())
    }
}

/// What every game needs from the run.
struct Shared {
    /// Per variant, built once for the whole run.
    rules: Vec<Arc<Rules>>,
    titles: Vec<String>,
    bots: Vec<BotEntry>,
    seed: u64,
    max_plies: u32,
    opening_plies: u32,
    record_evals: bool,
    move_limit: Duration,
    /// The opening book, if any.
    book: Option<Arc<super::openings::Book>>,
    /// Adjudication by the bots' scores.
    draw: Option<super::adjudicate::DrawRule>,
    resign: Option<super::adjudicate::ResignRule>,
    /// The last pair of the run once the SPRT has decided (u64::MAX before).
    stop: Arc<AtomicU64>,
    /// The run's scope for external bot processes, all killed when it ends.
    scope: u64,
    /// The CPU time the run may use ([`run_limited`]).
    budget: Option<Arc<CpuBudget>>,
}

/// What the game thread is doing, for its watcher.
#[derive(Clone, Copy, PartialEq)]
enum Phase {
    Engine,
    Bot(usize),
}

/// A game in progress, shared between its thread and its watcher.
pub(crate) struct Live {
    phase: Phase,
    /// When the phase began.
    since: Instant,
    /// While a bot on a clock moves: when its flag falls, from the phase's start.
    clock_limit: Option<Duration>,
    record: GameRecord,
    timing: GameTiming,
    /// Per seat: the bot's last note (see [`Bot::note`]), added to the record's `error` column at the end.
    notes: Vec<Option<String>>,
    /// With `--record-evals`: per position from the start, each player's evaluation in [−1, 1].
    evals: Vec<Vec<f64>>,
    /// Within a CPU budget: the game thread's time, charged by the thread and its watcher.
    meter: Option<Meter>,
}

/// A game's own copy of what it needs (its thread may outlive the pool's wait for it).
pub(crate) struct Job {
    rules: Arc<Rules>,
    pairing: Pairing,
    bots: Vec<BotEntry>,
    seed: u64,
    max_plies: u32,
    opening_plies: u32,
    record_evals: bool,
    /// The book's opening of this game's round, if the run has a book.
    opening: Option<super::openings::Opening>,
    draw: Option<super::adjudicate::DrawRule>,
    resign: Option<super::adjudicate::ResignRule>,
    stop: Arc<AtomicU64>,
    budget: Option<Arc<CpuBudget>>,
}

/// A thread that plays the games of one worker, one after the other (a new thread per game would cost a
/// fresh allocator heap each time). Replaced when a game on it has to be abandoned.
pub(crate) struct GameThread {
    jobs: mpsc::Sender<(Job, Arc<Mutex<Live>>)>,
    done: mpsc::Receiver<Option<()>>,
}

impl GameThread {
    fn start(scope: u64) -> std::io::Result<GameThread> {
        let (jobs, job_rx) = mpsc::channel::<(Job, Arc<Mutex<Live>>)>();
        let (done_tx, done) = mpsc::sync_channel::<Option<()>>(1);
        std::thread::Builder::new()
            .name("game".into())
            .spawn(move || {
                crate::bot::external::set_scope(scope);
                for (job, live) in job_rx {
                    let finished = match catch_unwind(AssertUnwindSafe(|| play(&job, &live))) {
                        Ok(f) => f,
                        Err(panic) => {
                            // A bug outside the bots (their panics are caught where they are called).
                            let msg = format!("panic: {}", panic_message(&*panic));
                            end_engine_error(&mut lock(&live).record, &msg);
                            Some(())
                        }
                    };
                    if done_tx.send(finished).is_err() {
                        break; // abandoned
                    }
                }
            })?;
        Ok(GameThread { jobs, done })
    }
}

/// Plays one game on the worker's game thread and waits for it, giving up on a bot (or the engine) that takes
/// too long: the thread is then abandoned and the next game gets a new one. `None` if the game was cancelled
/// (the SPRT stopped the run before it).
fn play_supervised(
    shared: &Shared,
    p: &Pairing,
    thread: &mut Option<GameThread>,
) -> Option<(GameRecord, GameTiming)> {
    let seats = p.seats.len();
    let live = Arc::new(Mutex::new(Live {
        phase: Phase::Engine,
        since: Instant::now(),
        clock_limit: None,
        record: GameRecord {
            game_id: p.game_id,
            pair_id: p.pair_id,
            seed: shared.seed,
            variant: shared.titles[p.variant].clone(),
            bots: p
                .seats
                .iter()
                .map(|&b| shared.bots[b].name.clone())
                .collect(),
            results: vec![],
            end_type: String::new(),
            end_name: String::new(),
            end_priority: 0,
            plies: 0,
            opening_plies: 0,
            legal_moves: 0,
            evals: Default::default(),
            error: String::new(),
            start: String::new(),
            moves: vec![],
        },
        timing: GameTiming {
            game_id: p.game_id,
            wall: 0.0,
            time: vec![0.0; seats],
            nodes: vec![0; seats],
            move_ms: vec![],
            clock_ms: vec![],
        },
        notes: vec![None; seats],
        evals: vec![],
        meter: None,
    }));
    let job = Job {
        rules: shared.rules[p.variant].clone(),
        pairing: p.clone(),
        bots: shared.bots.clone(),
        seed: shared.seed,
        max_plies: shared.max_plies,
        opening_plies: shared.opening_plies,
        record_evals: shared.record_evals,
        opening: shared
            .book
            .as_ref()
            .and_then(|b| b.for_round(p.variant, p.round))
            .cloned(),
        draw: shared.draw,
        resign: shared.resign,
        stop: shared.stop.clone(),
        budget: shared.budget.clone(),
    };
    let started = Instant::now();
    let finish = |mut l: Live| {
        l.timing.wall = started.elapsed().as_secs_f64();
        if !l.evals.is_empty() && l.record.is_rated() {
            let seats = seats_of(shared.rules[p.variant].game());
            // Per seat, in seat order, as the results are.
            let by_seat: Vec<Vec<f64>> = l
                .evals
                .iter()
                .map(|e| seats.iter().map(|&q| e[q]).collect())
                .collect();
            let r = &l.record.results;
            let best = r.iter().copied().max().unwrap_or(0);
            let winner = (r.iter().filter(|&&x| x == best).count() == 1
                && r.iter().any(|&x| x < best))
            .then(|| r.iter().position(|&x| x == best))
            .flatten();
            l.record
                .set_evals(&super::stats::game_eval_measures(&by_seat, winner));
        }
        for (seat, note) in l.notes.iter().enumerate() {
            if let Some(n) = note {
                let line = one_line(&format!("{}: {n}", l.record.bots[seat]));
                if l.record.error.is_empty() {
                    l.record.error = line;
                } else {
                    l.record.error = format!("{} | {line}", l.record.error);
                }
            }
        }
        Some((l.record, l.timing))
    };
    if thread.is_none() {
        match GameThread::start(shared.scope) {
            Ok(t) => *thread = Some(t),
            Err(e) => {
                let mut l = take(&live);
                end_engine_error(&mut l.record, &format!("cannot start a game thread: {e}"));
                return finish(l);
            }
        }
    }
    let gt = thread.as_ref().expect("started above");
    if gt.jobs.send((job, live.clone())).is_err() {
        *thread = None;
        let mut l = take(&live);
        end_engine_error(&mut l.record, "the game thread has ended");
        return finish(l);
    }
    let rx = &gt.done;
    loop {
        let (phase, since, clock_limit) = {
            let l = lock(&live);
            (l.phase, l.since, l.clock_limit)
        };
        let limit = match phase {
            // On a clock: its flag, and a grace for the bot's own answer that it ran out of time.
            Phase::Bot(_) if clock_limit.is_some() => clock_limit.unwrap_or_default() + CLOCK_GRACE,
            Phase::Bot(seat) if shared.bots[p.seats[seat]].fixed_budget => {
                shared.move_limit.max(FIXED_BUDGET_SAFETY_LIMIT)
            }
            Phase::Bot(seat) => match shared.bots[p.seats[seat]].own_time_limit {
                Some(own) => shared.move_limit.max(own + Duration::from_secs(1)),
                None => shared.move_limit,
            },
            Phase::Engine => shared.move_limit.max(ENGINE_TIME_LIMIT),
        };
        // Wake up now and then: the phase may change (and its deadline with it) while we wait.
        let wait = (since + limit)
            .saturating_duration_since(Instant::now())
            .min(WATCH_INTERVAL);
        match rx.recv_timeout(wait) {
            // Within a budget, the game's time so far is charged at each look; once the budget is used up
            // the game is cut and not filed, its thread abandoned (it stops at its next ply).
            Err(mpsc::RecvTimeoutError::Timeout) if over_budget(shared, &live) => {
                *thread = None;
                lock(&live).record.end_type = CUT.into();
                return None;
            }
            Err(mpsc::RecvTimeoutError::Timeout) if Instant::now() < since + limit => continue,
            Ok(Some(())) => return finish(take(&live)),
            Ok(None) => return None,
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                *thread = None;
                let mut l = take(&live);
                end_engine_error(&mut l.record, "the game thread ended without a result");
                return finish(l);
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                let mut l = lock(&live);
                if l.phase != phase || l.since != since {
                    continue; // the game moved on meanwhile
                }
                // Give up on the game; its thread is left to finish (or not) on its own.
                let ms = limit.as_millis();
                match phase {
                    Phase::Bot(seat) if clock_limit.is_some() => {
                        l.timing.time[seat] += limit.as_secs_f64();
                        end_time_forfeit(
                            &mut l.record,
                            seat,
                            &format!("no move within {ms} ms, past its clock"),
                        );
                    }
                    Phase::Bot(seat) if shared.bots[p.seats[seat]].fixed_budget => {
                        l.timing.time[seat] += limit.as_secs_f64();
                        let name = shared.bots[p.seats[seat]].name.clone();
                        end_engine_error(
                            &mut l.record,
                            &format!(
                                "{name} took longer than {ms} ms for one move with a fixed budget \
                                 (depth, nodes or iterations): an engine fault, not a loss"
                            ),
                        );
                    }
                    Phase::Bot(seat) => {
                        l.timing.time[seat] += limit.as_secs_f64();
                        end_bot_error(
                            &mut l.record,
                            seat,
                            "timeout",
                            &format!("no move within {ms} ms"),
                        );
                    }
                    Phase::Engine => end_engine_error(
                        &mut l.record,
                        &format!("the engine took longer than {ms} ms"),
                    ),
                }
                // The abandoned thread sees the game ended and stops at its next step, if it ever gets there;
                // then it finds its result channel closed and ends.
                *thread = None;
                let snapshot = Live {
                    phase: l.phase,
                    since: l.since,
                    clock_limit: None,
                    record: l.record.clone(),
                    timing: l.timing.clone(),
                    notes: l.notes.clone(),
                    evals: std::mem::take(&mut l.evals),
                    meter: None,
                };
                drop(l);
                return finish(snapshot);
            }
        }
    }
}

fn lock(live: &Mutex<Live>) -> std::sync::MutexGuard<'_, Live> {
    live.lock().unwrap_or_else(|e| e.into_inner())
}

/// The game's state once its thread is done with it.
fn take(live: &Arc<Mutex<Live>>) -> Live {
    let mut l = lock(live);
    Live {
        phase: l.phase,
        since: l.since,
        clock_limit: None,
        record: std::mem::take(&mut l.record),
        timing: std::mem::take(&mut l.timing),
        notes: std::mem::take(&mut l.notes),
        evals: std::mem::take(&mut l.evals),
        meter: None,
    }
}

/// The end type a game cut by the budget is marked with for its abandoned thread (it is not filed).
const CUT: &str = "cut";

/// Charges the game's time to the run's budget, if it has one; whether the budget is used up.
fn over_budget(shared: &Shared, live: &Mutex<Live>) -> bool {
    let Some(b) = &shared.budget else {
        return false;
    };
    match lock(live).meter.as_mut() {
        Some(m) => m.charge(b),
        None => b.exhausted(),
    }
}

pub(crate) fn panic_message(p: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "(no message)".into()
    }
}

/// One line: the CSV rows stay one line each, which is what lets a resume drop a half-written last row.
fn one_line(s: &str) -> String {
    s.split(['\n', '\r'])
        .map(str::trim_end)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" | ")
}

fn end_engine_error(r: &mut GameRecord, msg: &str) {
    if !r.end_type.is_empty() {
        return;
    }
    r.results.clear();
    r.end_type = ENGINE_ERROR.into();
    r.end_name = ENGINE_ERROR.into();
    r.end_priority = 0;
    r.error = one_line(msg);
}

/// The bot in `seat` loses; every other seat wins.
fn end_bot_error(r: &mut GameRecord, seat: usize, what: &str, msg: &str) {
    if !r.end_type.is_empty() {
        return;
    }
    r.results = (0..r.bots.len())
        .map(|i| if i == seat { -1 } else { 1 })
        .collect();
    // A resignation (a GTP engine's `resign`) is a loss of its own end type, not a fault.
    r.end_type = if what == RESIGN { RESIGN } else { BOT_ERROR }.into();
    r.end_name = what.into();
    r.end_priority = 0;
    r.error = one_line(&format!("{}: {msg}", r.bots[seat]));
}

/// The bot in `seat` lost on time; every other seat wins.
fn end_time_forfeit(r: &mut GameRecord, seat: usize, msg: &str) {
    if !r.end_type.is_empty() {
        return;
    }
    r.results = (0..r.bots.len())
        .map(|i| if i == seat { -1 } else { 1 })
        .collect();
    r.end_type = TIME_FORFEIT.into();
    r.end_name = TIME_FORFEIT.into();
    r.end_priority = 0;
    r.error = one_line(&format!("{}: {msg}", r.bots[seat]));
}

/// The end type and name of a game a bot resigned.
const RESIGN: &str = "resign";

fn bot_error_kind(e: &BotError) -> &'static str {
    match e {
        BotError::Crashed(_) => "crashed",
        BotError::Timeout(_) => "timeout",
        BotError::Illegal(_) => "illegal",
        BotError::Engine(_) => "engine",
        BotError::Resigned(_) => RESIGN,
    }
}

/// Plays the game, writing its progress into `live`. `None` if cancelled.
fn play(job: &Job, live: &Mutex<Live>) -> Option<()> {
    match play_inner(job, live) {
        Ok(finished) => finished,
        Err(e) => {
            end_engine_error(&mut lock(live).record, &e.to_string());
            Some(())
        }
    }
}

fn play_inner(job: &Job, live: &Mutex<Live>) -> Result<Option<()>, EngineError> {
    if job.budget.is_some() {
        lock(live).meter = Some(Meter::start());
    }
    // The run's engine for this variant, shared with every other game: nothing is derived per game.
    let engine = job.rules.engine();
    let game = engine.game;
    let seat_players = seats_of(game);
    let mut seat_of_player = vec![None; game.players.len()];
    for (seat, &p) in seat_players.iter().enumerate() {
        seat_of_player[p] = Some(seat);
    }
    let pair_id = job.pairing.pair_id;

    // Every stream from the seed and the ids: the opening from the pair, the rest from the game.
    let mut opening_rng = game_rng(job.seed ^ OPENING_SALT, pair_id);
    let mut master = game_rng(job.seed, job.pairing.game_id);
    let mut chance_rng = ChaCha8Rng::seed_from_u64(master.next_u64());
    let mut seat_rngs: Vec<ChaCha8Rng> = seat_players
        .iter()
        .map(|_| ChaCha8Rng::seed_from_u64(master.next_u64()))
        .collect();

    let mut bots: Vec<Box<dyn Bot>> = vec![];
    for (seat, &b) in job.pairing.seats.iter().enumerate() {
        match catch_unwind(AssertUnwindSafe(|| (job.bots[b].make)())) {
            Ok(Ok(bot)) => bots.push(bot),
            Ok(Err(e)) => {
                let msg = format!("cannot start: {e}");
                end_bot_error(&mut lock(live).record, seat, "crashed", &msg);
                return Ok(Some(()));
            }
            Err(p) => {
                let msg = format!("panic while starting: {}", panic_message(&*p));
                end_bot_error(&mut lock(live).record, seat, "panic", &msg);
                return Ok(Some(()));
            }
        }
    }

    let specs: Vec<_> = job
        .pairing
        .seats
        .iter()
        .map(|&b| job.bots[b].clock)
        .collect();
    let mut clocks = GameClocks::new(&specs, &seat_players, game.players.len());

    // An opening book's start position, else the game's own.
    let mut s: State = match job.opening.as_ref().and_then(|o| o.start.as_ref()) {
        Some(text) => {
            let start = super::openings::decode_start(game, text).map_err(EngineError)?;
            lock(live).record.start = text.clone();
            for b in bots.iter_mut() {
                b.start_position(&start);
            }
            start
        }
        None => engine.initial(),
    };
    // With --record-evals: every player's evaluation of every position by one fixed evaluator, the bots'
    // material and mobility ([`crate::bot::eval`]), as (own − the others' mean)/(own + the others' mean).
    let evaluator = job
        .record_evals
        .then(|| crate::bot::eval::Evaluator::new(engine, Default::default()));
    let record_eval = |s: &State| -> Result<(), EngineError> {
        if let Some(ev) = &evaluator {
            let moves = engine.legal_moves(s)?;
            let e = relative_evals(&ev.evaluate(engine, s, &moves)?);
            lock(live).evals.push(e);
        }
        Ok(())
    };
    record_eval(&s)?;
    let mut history: Vec<u64> = vec![];
    let mut plies = 0u32;
    // A move is recorded by its notation in the list it was chosen from, which names it alone (so that the
    // moves column replays).
    // With the bot's time for the move and its clock after it, where a bot chose it.
    let push = |live: &Mutex<Live>,
                moves: &[crate::engine::Move],
                i: usize,
                opening: bool,
                time: Option<(u64, Option<u64>)>| {
        let name = crate::engine::Move::notations(game, moves).swap_remove(i);
        let mut l = lock(live);
        l.record.moves.push(name);
        l.timing.move_ms.push(time.map(|t| t.0));
        l.timing.clock_ms.push(time.and_then(|t| t.1));
        l.record.plies += 1;
        l.record.legal_moves += moves.len() as u64;
        if opening {
            l.record.opening_plies += 1;
        }
    };

    // The book's moves, checked when the run started; recorded as opening plies.
    if let Some(o) = &job.opening {
        for name in &o.moves {
            let moves = engine.legal_moves(&s)?;
            let names = crate::engine::Move::notations(game, &moves);
            let Some(i) = names.iter().position(|n| n == name) else {
                return Err(EngineError(format!(
                    "opening move `{name}` (line {} of the openings) is not legal here",
                    o.line
                )));
            };
            push(live, &moves, i, true, None);
            history.push(s.key());
            s = engine.apply(&s, &moves[i]);
            record_eval(&s)?;
            plies += 1;
        }
    }
    let mut adjudicator = super::adjudicate::Adjudicator::new(job.draw, job.resign);
    let mut verdict = None;

    // The opening: random plies that do not end the game, the same for every game of the pair.
    for _ in 0..job.opening_plies.min(job.max_plies) {
        let moves = engine.legal_moves(&s)?;
        if moves.is_empty() || engine.outcome(&s, &moves, &history)?.is_some() {
            break;
        }
        let mut candidates: Vec<usize> = (0..moves.len()).collect();
        let mut chosen = None;
        history.push(s.key());
        while !candidates.is_empty() {
            let i = candidates.swap_remove(below(&mut opening_rng, candidates.len()));
            let next = engine.apply(&s, &moves[i]);
            let next_moves = engine.legal_moves(&next)?;
            if engine.outcome(&next, &next_moves, &history)?.is_none() {
                chosen = Some((i, next));
                break;
            }
        }
        let Some((i, next)) = chosen else {
            history.pop();
            break;
        };
        push(live, &moves, i, true, None);
        s = next;
        record_eval(&s)?;
        plies += 1;
    }

    loop {
        if pair_id > job.stop.load(Ordering::Relaxed) || !lock(live).record.end_type.is_empty() {
            return Ok(None);
        }
        // Within a budget: this game's time is charged at every ply, and the game cut once it is used up.
        if let Some(b) = &job.budget {
            if lock(live).meter.as_mut().is_some_and(|m| m.charge(b)) {
                return Ok(None);
            }
        }
        let moves = engine.legal_moves(&s)?;
        if let Some(o) = engine.outcome(&s, &moves, &history)? {
            let mut l = lock(live);
            l.record.results = seat_players.iter().map(|&p| o.results[p]).collect();
            l.record.end_type = o.end_type;
            l.record.end_name = o.name;
            l.record.end_priority = o.priority;
            return Ok(Some(()));
        }
        // The game's own end comes first; then the bots' scores.
        if let Some(v) = verdict.take() {
            use super::adjudicate::{Verdict, ADJUDICATED_DRAW, ADJUDICATED_RESIGN};
            let mut l = lock(live);
            let (kind, msg) = match v {
                Verdict::Draw(m) => {
                    l.record.results = vec![0; seat_players.len()];
                    (ADJUDICATED_DRAW, m)
                }
                Verdict::Resign(loser, m) => {
                    l.record.results = (0..seat_players.len())
                        .map(|i| if i == loser { -1 } else { 1 })
                        .collect();
                    (ADJUDICATED_RESIGN, m)
                }
            };
            l.record.end_type = kind.into();
            l.record.end_name = kind.into();
            l.record.end_priority = 0;
            l.record.error = one_line(&format!("adjudicated: {msg}"));
            return Ok(Some(()));
        }
        if plies >= job.max_plies {
            let mut l = lock(live);
            l.record.results = vec![0; seat_players.len()];
            l.record.end_type = MOVE_LIMIT.into();
            l.record.end_name = MOVE_LIMIT.into();
            l.record.end_priority = 0;
            return Ok(Some(()));
        }
        if moves.is_empty() {
            return Err(EngineError(
                "no legal move and no end condition holds".into(),
            ));
        }
        let player = engine.to_move(&s).idx();
        let mut ply_time = None;
        // A random player's move, or a throw a module makes chance (`Hooks::chance`), is drawn, never asked.
        let seat = seat_of_player[player].filter(|_| !engine.is_chance(&s));
        let index = match seat {
            None => below(&mut chance_rng, moves.len()),
            Some(seat) => {
                let view = clocks.view(seat);
                if let Some(v) = &view {
                    bots[seat].set_clock(v);
                }
                let t0 = Instant::now();
                {
                    let mut l = lock(live);
                    l.phase = Phase::Bot(seat);
                    l.since = t0;
                    l.clock_limit = view.as_ref().map(|v| Duration::from_millis(v.allowed_ms));
                }
                let bot = &mut bots[seat];
                let rng = &mut seat_rngs[seat];
                let r = catch_unwind(AssertUnwindSafe(|| {
                    bot.choose(engine, &s, &moves, &history, rng)
                }));
                let t1 = Instant::now();
                let mut l = lock(live);
                l.phase = Phase::Engine;
                l.since = t1;
                l.clock_limit = None;
                l.timing.time[seat] += (t1 - t0).as_secs_f64();
                // The move's time, less the engine's start; charged to the clock, where there is one.
                let used = (t1 - t0).saturating_sub(bots[seat].setup_time());
                let used_ms = used.as_millis() as u64;
                let flag = match clocks.seats[seat].as_mut() {
                    Some(c) => c.spend(used_ms).err(),
                    None => None,
                };
                ply_time = Some((
                    used_ms,
                    clocks.seats[seat].as_ref().and_then(|c| c.left_ms()),
                ));
                if let Some(f) = flag {
                    // Whatever the bot answered (a move, or nothing in time), its flag fell first. The move's
                    // time is kept, one entry past the plies.
                    l.timing.move_ms.push(Some(used_ms));
                    l.timing.clock_ms.push(Some(0));
                    end_time_forfeit(&mut l.record, seat, &f.to_string());
                    return Ok(Some(()));
                }
                l.timing.nodes[seat] += bots[seat].last_nodes().unwrap_or(0);
                if let Some(n) = bots[seat].note() {
                    l.notes[seat] = Some(n);
                }
                match r {
                    Ok(Ok(i)) if i < moves.len() => i,
                    Ok(Ok(i)) => {
                        let msg = format!("chose move {i} of {}", moves.len());
                        end_bot_error(&mut l.record, seat, "illegal", &msg);
                        return Ok(Some(()));
                    }
                    Ok(Err(e)) => {
                        end_bot_error(&mut l.record, seat, bot_error_kind(&e), &e.to_string());
                        return Ok(Some(()));
                    }
                    Err(p) => {
                        let msg = format!("panic: {}", panic_message(&*p));
                        end_bot_error(&mut l.record, seat, "panic", &msg);
                        return Ok(Some(()));
                    }
                }
            }
        };
        push(live, &moves, index, false, ply_time);
        if let (Some(seat), true) = (seat, adjudicator.is_active()) {
            verdict = adjudicator.update(plies, seat, bots[seat].last_score());
        }
        history.push(s.key());
        s = engine.apply(&s, &moves[index]);
        record_eval(&s)?;
        plies += 1;
    }
}

/// Scores (material and mobility, never negative) as evaluations in [−1, 1]: each player's own score against
/// the mean of the others', (own − others)/(own + others); 0 where both are 0.
pub(crate) fn relative_evals(score: &[f64]) -> Vec<f64> {
    let n = score.len();
    (0..n)
        .map(|p| {
            let others = if n > 1 {
                (score.iter().sum::<f64>() - score[p]) / (n - 1) as f64
            } else {
                0.0
            };
            let total = score[p].abs() + others.abs();
            if total == 0.0 {
                0.0
            } else {
                ((score[p] - others) / total).clamp(-1.0, 1.0)
            }
        })
        .collect()
}

#[cfg(test)]
mod eval_tests {
    use super::relative_evals;

    #[test]
    fn scores_become_evaluations_against_the_others_mean() {
        // (3 − 1)/(3 + 1) = 0.5 and back; three equal players are even; nothing on the board is even.
        assert_eq!(relative_evals(&[3.0, 1.0]), [0.5, -0.5]);
        assert_eq!(relative_evals(&[2.0, 2.0, 2.0]), [0.0, 0.0, 0.0]);
        assert_eq!(relative_evals(&[0.0, 0.0]), [0.0, 0.0]);
        // Three players 4, 1, 1: the first against 1 is 0.6; the second against (4 + 1)/2 = 2.5 is −1.5/3.5.
        let e = relative_evals(&[4.0, 1.0, 1.0]);
        assert!((e[0] - 0.6).abs() < 1e-12 && (e[1] + 1.5 / 3.5).abs() < 1e-12);
    }
}
