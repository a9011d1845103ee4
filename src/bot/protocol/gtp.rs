//! The `gtp` bot kind: a Go engine (GNU Go, Pachi, KataGo, ...) over the Go Text Protocol (version 2).
//!
//! Started once per bot: `protocol_version`, `name`, `list_commands` (which must list `boardsize`,
//! `clear_board`, `komi`, `play` and `genmove`), `boardsize N` from the game's board and `komi K` from the bot's
//! `komi` key. Each game begins with `clear_board`; before each `genmove b|w` the engine is sent the moves it
//! has not seen yet (`play B D4`, `play W pass`), or, when the game went another way, `clear_board` and the
//! whole game again. The engine's answer is matched against the legal moves ([`GoNotation::move_name`]);
//! `resign` loses the game ([`BotError::Resigned`]).

use super::notation::GoNotation;
use super::{match_move, moves_so_far, Conn, SearchInfo};
use crate::bot::external::program_config;
use crate::bot::{Bot, BotError, ClockView};
use crate::compile::{Game, Player};
use crate::engine::{Engine, Move, State};
use rand_chacha::ChaCha8Rng;
use std::time::{Duration, Instant};

program_config! {
    /// The settings of a GTP engine (the keys of its preset), e.g. `command = "gnugo --mode gtp --level 1"`.
    pub struct GtpConfig {
        time_ms: 60_000,
        startup_ms: 10_000,
        /// Sent as `komi K`: it should be the game's (7.5 in `games/go-9x9.zrf`); dagaz scores the game by its
        /// own rules whatever the engine is told.
        pub komi: f64 = 7.5,
    }
}

impl GtpConfig {
    pub fn validate(&self) -> Result<(), String> {
        self.check_program(
            "a gtp bot needs a `command`, e.g. `gtp:command=gnugo --mode gtp --level 1`",
        )?;
        if !self.komi.is_finite() {
            return Err("`komi` must be a number".into());
        }
        Ok(())
    }
}

/// The commands a GTP engine must have.
const REQUIRED: [&str; 5] = ["boardsize", "clear_board", "komi", "play", "genmove"];

/// Whole seconds of a clock (GTP's unit), rounded down.
fn secs(ms: u64) -> u64 {
    ms / 1000
}

/// The clock as GTP's `time_settings MAIN BYO_YOMI STONES` gives it: a time control of one period as main time
/// (an increment cannot be said; `time_left` tells the clock with the increments credited), a control of N moves
/// in T as Canadian byo-yomi of T for N stones, a fixed time per move as byo-yomi of that time for 1 stone.
pub(crate) fn time_settings(c: &ClockView) -> String {
    match (c.st_ms, c.tc) {
        (Some(st), _) => format!("time_settings 0 {} 1", secs(st).max(1)),
        (None, Some(tc)) => match tc.moves {
            Some(m) => format!("time_settings 0 {} {m}", secs(tc.base_ms)),
            None => format!("time_settings {} 0 0", secs(tc.base_ms)),
        },
        (None, None) => "time_settings 0 0 0".into(),
    }
}

/// `time_left COLOUR SECONDS STONES` before a move: the clock left (and with periods the moves to the next).
pub(crate) fn time_left(colour: &str, c: &ClockView) -> String {
    match (c.st_ms, c.my_left_ms()) {
        (Some(st), _) => format!("time_left {colour} {} 1", secs(st).max(1)),
        (None, Some(left)) => format!(
            "time_left {colour} {} {}",
            secs(left),
            c.moves_to_go.unwrap_or(0)
        ),
        (None, None) => format!("time_left {colour} 0 0"),
    }
}

/// A bot that asks a GTP engine.
pub struct GtpBot {
    name: String,
    config: GtpConfig,
    conn: Option<Conn>,
    notation: Option<(usize, GoNotation)>,
    /// `clear_board` is due before the next move.
    new_game: bool,
    /// The `play` commands the engine has had since its last `clear_board`.
    synced: Vec<String>,
    cache: Vec<(u64, Player, Move, State)>,
    /// The engine's `name`.
    pub engine_name: Option<String>,
    pub last: SearchInfo,
    /// Whether the engine lists `time_settings` and `time_left` (the clock is sent only then).
    timed: bool,
    /// The clocks for the next move ([`Bot::set_clock`]).
    clock: Option<ClockView>,
    /// The time the last move spent starting the engine.
    setup: Duration,
}

/// The colour GTP gives a player: by its name where it is `Black` or `White`, else black for the first.
fn colour(game: &Game, p: Player) -> &'static str {
    let name = &game.players[p.idx()].name;
    if name.eq_ignore_ascii_case("white") {
        "W"
    } else if name.eq_ignore_ascii_case("black") || p.0 == 0 {
        "B"
    } else {
        "W"
    }
}

impl GtpBot {
    pub fn new(name: impl Into<String>, config: GtpConfig) -> Result<GtpBot, String> {
        config.validate()?;
        Ok(GtpBot {
            name: name.into(),
            config,
            conn: None,
            notation: None,
            new_game: true,
            synced: vec![],
            cache: vec![],
            engine_name: None,
            last: SearchInfo::default(),
            timed: false,
            clock: None,
            setup: Duration::ZERO,
        })
    }

    /// Sends a command and reads its response: `Ok(text)` for `=`, `Err(text)` for `?`.
    fn ask(c: &mut Conn, cmd: &str, limit_ms: u64) -> Result<Result<String, String>, BotError> {
        c.send(cmd)?;
        let mut head: Option<bool> = None;
        let mut body: Vec<String> = vec![];
        let what = format!("response to `{cmd}`");
        c.read_until(Duration::from_millis(limit_ms), &what, |l| {
            match head {
                None if l.is_empty() => Ok(None),
                None => {
                    let ok = match l.as_bytes()[0] {
                        b'=' => true,
                        b'?' => false,
                        _ => {
                            return Err(format!(
                                "`{}` is not a GTP response to `{cmd}`",
                                super::clip(l)
                            ))
                        }
                    };
                    head = Some(ok);
                    // Past the status and an optional command id.
                    let rest = l[1..].trim_start_matches(|c: char| c.is_ascii_digit());
                    body.push(rest.trim().to_string());
                    Ok(None)
                }
                Some(ok) if l.is_empty() => {
                    let text = body.join("\n").trim().to_string();
                    Ok(Some(if ok { Ok(text) } else { Err(text) }))
                }
                Some(_) => {
                    body.push(l.to_string());
                    Ok(None)
                }
            }
        })
    }

    /// A command that must succeed.
    fn must(c: &mut Conn, cmd: &str, limit_ms: u64) -> Result<String, BotError> {
        Self::ask(c, cmd, limit_ms)?.map_err(|e| {
            BotError::Illegal(format!(
                "the engine refused `{cmd}`: {}{}",
                super::clip(&e),
                c.tail()
            ))
        })
    }

    fn start(&mut self, n: &GoNotation) -> Result<Conn, BotError> {
        let mut c = Conn::start(&self.config.external())?;
        let ms = self.config.startup_ms;
        let _ = Self::ask(&mut c, "protocol_version", ms)?;
        self.engine_name = Self::ask(&mut c, "name", ms)?.ok();
        let list = Self::must(&mut c, "list_commands", ms)?;
        let have: Vec<&str> = list.split_whitespace().collect();
        let missing: Vec<&str> = REQUIRED
            .iter()
            .copied()
            .filter(|r| !have.contains(r))
            .collect();
        self.timed = have.contains(&"time_settings") && have.contains(&"time_left");
        if !missing.is_empty() {
            return Err(BotError::Crashed(format!(
                "the engine lacks the GTP commands {}",
                missing.join(", ")
            )));
        }
        Self::must(&mut c, &format!("boardsize {}", n.size()), ms)?;
        Self::must(&mut c, &format!("komi {}", self.config.komi), ms)?;
        Ok(c)
    }

    fn search(
        &mut self,
        engine: &Engine,
        state: &State,
        moves: &[Move],
        history: &[u64],
    ) -> Result<usize, BotError> {
        let key = engine.game as *const _ as usize;
        if self.notation.as_ref().is_none_or(|(k, _)| *k != key) {
            let n = GoNotation::of(engine.game).map_err(BotError::Crashed)?;
            self.notation = Some((key, n));
            self.cache.clear();
            if let Some(mut c) = self.conn.take() {
                c.close("quit");
            }
        }
        let Some((_, n)) = self.notation.take() else {
            unreachable!("set above")
        };
        let r = self.search_with(&n, engine, state, moves, history);
        self.notation = Some((key, n));
        r
    }

    fn search_with(
        &mut self,
        n: &GoNotation,
        engine: &Engine,
        state: &State,
        moves: &[Move],
        history: &[u64],
    ) -> Result<usize, BotError> {
        let g = engine.game;
        let ms = self.config.startup_ms;
        let t0 = Instant::now();
        self.setup = Duration::ZERO;
        let mut c = match self.conn.take() {
            Some(c) => c,
            None => {
                self.new_game = true;
                self.start(n)?
            }
        };
        self.setup = t0.elapsed();
        // The game so far as `play` commands: its moves, or else the stones of the position.
        let line = moves_so_far(engine, &engine.initial(), state, history, &mut self.cache)
            .and_then(|line| {
                line.iter()
                    .map(|(p, m, _)| Some(format!("play {} {}", colour(g, *p), n.move_name(m)?)))
                    .collect::<Option<Vec<String>>>()
            });
        let plays = match line {
            Some(l) => l,
            None => {
                let mut stones = vec![];
                for f in 0..n.grid.files {
                    for r in 0..n.grid.ranks {
                        let p = n.grid.at(f, r);
                        if let (Some(x), Some(v)) = (state.get(p), n.vertex(p)) {
                            stones.push(format!("play {} {v}", colour(g, x.owner)));
                        }
                    }
                }
                stones
            }
        };
        let clock = self.clock.take();
        if self.new_game || !plays.starts_with(&self.synced) {
            Self::must(&mut c, "clear_board", ms)?;
            self.synced.clear();
            if let (Some(clock), true) = (&clock, self.timed) {
                Self::must(&mut c, &time_settings(clock), ms)?;
            }
            self.new_game = false;
        }
        for cmd in &plays[self.synced.len()..] {
            Self::must(&mut c, cmd, ms)?;
        }
        self.synced = plays;
        let me = colour(g, engine.to_move(state));
        let mut wait = Duration::from_millis(self.config.time_ms);
        if let Some(clock) = &clock {
            if self.timed {
                Self::must(&mut c, &time_left(me, clock), ms)?;
            }
            wait = clock.wait();
        }
        let cmd = format!("genmove {}", me.to_ascii_lowercase());
        let answer = Self::ask(&mut c, &cmd, wait.as_millis() as u64)?.map_err(|e| {
            BotError::Illegal(format!(
                "the engine refused `{cmd}`: {}{}",
                super::clip(&e),
                c.tail()
            ))
        })?;
        self.last = SearchInfo::default();
        if answer.eq_ignore_ascii_case("resign") {
            return Err(BotError::Resigned(format!("`{cmd}` answered `resign`")));
        }
        let i = match_move(moves, &answer, "move", |m| n.move_name(m)).map_err(|e| {
            BotError::Illegal(format!(
                "{e} (`{cmd}` after {} moves){}",
                self.synced.len(),
                c.tail()
            ))
        })?;
        // The engine has played its move on its own board.
        if let Some(v) = n.move_name(&moves[i]) {
            self.synced.push(format!("play {me} {v}"));
        }
        self.conn = Some(c);
        Ok(i)
    }
}

impl Bot for GtpBot {
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
        crate::bot::check_moves(moves)?;
        // After any error the process has ended (its connection dropped): the next game starts a new one.
        self.search(engine, state, moves, history)
    }

    fn reset(&mut self) {
        self.new_game = true;
        self.cache.clear();
    }

    fn set_clock(&mut self, clock: &ClockView) {
        self.clock = Some(clock.clone());
    }

    fn setup_time(&self) -> Duration {
        self.setup
    }
}

impl Drop for GtpBot {
    fn drop(&mut self) {
        if let Some(mut c) = self.conn.take() {
            c.close("quit");
        }
    }
}
