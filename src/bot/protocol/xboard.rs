//! The `xboard` bot kind: an engine over the Chess Engine Communication Protocol, version 2 (CECP, "the xboard
//! protocol"), as XBoard/WinBoard speak it; engines of version 1 (GNU Shogi, old GNU Chess) are spoken to in
//! the same words, without the features.
//!
//! Started once per bot: `xboard`, `protover 2`, then the engine's `feature` lines, each answered `accepted` or
//! `rejected` (`san` is rejected, so the engine writes coordinate moves), until `done=1`, or for an engine that
//! sends none, for `protover_ms` (two seconds, as XBoard waits); `done=0` extends the wait to `startup_ms`.
//! Then an `option NAME=VALUE` per `option.NAME` key, and `memory`/`cores` where the engine asked for them.
//!
//! Each game: `new`, `variant NAME` (the `variant` key, or `shogi` on a shogi-like game when the engine lists
//! it), `force`, `post`, the clock (`level MPS BASE INC` or `st SECONDS`) or the bot's own limits (`sd DEPTH`,
//! `st SECONDS`), `setboard FEN` when the game does not start from chess's position (the engine must have
//! `feature setboard=1`), and `ping N` until `pong N` where the engine has `ping=1`. Before each of the
//! engine's moves: `force`, the moves it has not seen (`usermove e2e4` with `usermove=1`, else the bare move),
//! `time`/`otim` (centiseconds) on a clock, and `go`. The answer is `move MOVE` (or version 1's
//! `NUMBER. ... MOVE`), matched against the legal moves; the thinking lines that `post` asks for (`PLY SCORE
//! TIME NODES PV`) give the score (centipawns, mate as 100000 + N) and depth. `resign` loses the game; a result
//! claimed instead of a move (`1-0 {...}`) is an illegal answer unless it is the engine's own loss; `Illegal
//! move: X` for a move dagaz sent means the engine's position differs from dagaz's, an error with its text.
//! The game ends with `force` and `quit` when the bot is dropped: no `result` line is sent, since the runner
//! does not tell bots how a game ended (an engine that keeps a learning file or a log does not see the outcome).
//!
//! Moves are chess's coordinate notation (`e2e4`, `e7e8q`, `e1g1` for castling) on chess-like games, and USI's
//! (`7g7f`, `P*5e`, `8h2b+`) on shogi-like games, as GNU Shogi writes them.

use super::notation::{ChessNotation, ShogiNotation, CHESS_START, SHOGI_START};
use super::{match_move, moves_so_far, Conn, SearchInfo};
use crate::bot::external::program_config;
use crate::bot::{Bot, BotError, ClockView, Score};
use crate::compile::{Game, Player};
use crate::engine::{Engine, Move, State};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

program_config! {
    /// The settings of an XBoard (CECP) engine (the keys of its preset), e.g. `command = "/usr/games/gnushogi"`.
    /// A clock (`tc`) is sent as `level` and `time`/`otim`; a fixed time per move (`st`) as `st` (whole seconds,
    /// at least 1).
    pub struct XboardConfig {
        time_ms: 60_000,
        startup_ms: 10_000,
        /// Sent as `variant NAME` after `new` (`shogi`, `crazyhouse`, ...).
        pub variant: Option<String> = None,
        /// `sd DEPTH`, without a clock.
        pub depth: Option<u32> = None,
        /// `st SECONDS` without a clock, in milliseconds (a whole number of seconds: CECP's `st` counts seconds).
        pub movetime: Option<u64> = None,
        /// Sent as `memory MB` where the engine has `feature memory=1`.
        pub memory: Option<u64> = None,
        /// Sent as `cores N` where the engine has `feature smp=1`.
        pub cores: Option<u64> = None,
        /// How long to wait for `feature` lines after `protover 2` from an engine that does not send `done=0`
        /// (a version 1 engine sends none), in milliseconds.
        pub protover_ms: u64 = 2_000,
        /// Engine options, sent as `option NAME=VALUE` (`option.Threads=1` inline).
        #[serde(skip_serializing_if = "BTreeMap::is_empty")]
        pub option: BTreeMap<String, toml::Value> = BTreeMap::new(),
    }
}

impl XboardConfig {
    pub fn validate(&self) -> Result<(), String> {
        self.check_program(
            "an xboard bot needs a `command`, e.g. `xboard:command=/usr/games/gnushogi`",
        )?;
        if self.depth == Some(0) || self.movetime == Some(0) {
            return Err("`depth` and `movetime` must be at least 1".into());
        }
        if let Some(m) = self.movetime.filter(|m| !m.is_multiple_of(1000)) {
            return Err(format!(
                "`movetime` ({m} ms) must be a whole number of seconds: CECP's `st` counts seconds"
            ));
        }
        if let Some(v) = self.movetime.filter(|&m| m >= self.time_ms) {
            return Err(format!(
                "`movetime` ({v}) must be less than `time_ms` ({}), the limit after which the engine is taken to hang",
                self.time_ms
            ));
        }
        if let Some(v) = &self.variant {
            if v.is_empty() || v.contains(char::is_whitespace) {
                return Err(format!("`variant` `{v}` must be one word"));
            }
        }
        for (k, v) in &self.option {
            if option_text(v).is_none() {
                return Err(format!(
                    "option `{k}`: a value must be a string, number or boolean"
                ));
            }
        }
        Ok(())
    }

    /// A limit for each move where the bot plays without a clock.
    pub fn check_limits(&self) -> Result<(), String> {
        if self.depth.is_none() && self.movetime.is_none() {
            return Err(
                "an xboard bot needs a limit for each move: `depth` (sd) or `movetime` (st, ms)"
                    .into(),
            );
        }
        Ok(())
    }
}

fn option_text(v: &toml::Value) -> Option<String> {
    match v {
        toml::Value::String(s) => Some(s.clone()),
        toml::Value::Integer(i) => Some(i.to_string()),
        toml::Value::Float(f) => Some(f.to_string()),
        // CECP writes check boxes as 0 and 1.
        toml::Value::Boolean(b) => Some(u8::from(*b).to_string()),
        _ => None,
    }
}

/// A game's notation for an XBoard engine.
pub enum Notation {
    Chess(ChessNotation),
    Shogi(ShogiNotation),
}

impl Notation {
    /// Chess's coordinate notation where the game has it, else USI's (shogi-like games, with drops); the error
    /// names what each lacks.
    pub fn of(game: &Game) -> Result<Notation, String> {
        match ChessNotation::of(game) {
            Ok(n) => Ok(Notation::Chess(n)),
            Err(chess) => ShogiNotation::of(game)
                .map(Notation::Shogi)
                .map_err(|shogi| format!("{chess}; {shogi}")),
        }
    }

    fn move_name(&self, before: &State, m: &Move) -> Option<String> {
        match self {
            Notation::Chess(n) => n.move_name(before, m),
            Notation::Shogi(n) => n.move_name(m),
        }
    }

    /// The FEN for `setboard` (chess-like games only), and whether `s` is the standard start (`new` alone).
    fn setup(&self, engine: &Engine, s: &State) -> Result<(Option<String>, bool), EngineErr> {
        match self {
            Notation::Chess(n) => {
                let moves = engine.legal_moves(s)?;
                let fen = n.fen(engine.game, s, engine.to_move(s), &moves);
                let standard = fen == CHESS_START;
                Ok((Some(fen), standard))
            }
            Notation::Shogi(n) => {
                let standard = n.sfen(engine.game, s, engine.to_move(s)) == SHOGI_START;
                Ok((None, standard))
            }
        }
    }
}

type EngineErr = crate::engine::EngineError;

/// The features an engine declared (those dagaz acts on), with the protocol's defaults.
#[derive(Clone, Debug, PartialEq)]
pub struct Features {
    pub ping: bool,
    pub setboard: bool,
    pub usermove: bool,
    pub time: bool,
    pub memory: bool,
    pub smp: bool,
    pub myname: Option<String>,
    pub variants: Option<Vec<String>>,
}

impl Default for Features {
    fn default() -> Self {
        Features {
            ping: false,
            setboard: false,
            usermove: false,
            time: true,
            memory: false,
            smp: false,
            myname: None,
            variants: None,
        }
    }
}

/// The features of CECP v2 that dagaz accepts (it acts on those of [`Features`]; the others need nothing from
/// it: `sigint`/`sigterm` because it sends no signals but the last kill, `colors`, `draw`, `analyze`, ... because
/// it sends no such commands). `san=1` is rejected: the engine then writes coordinate moves.
const ACCEPTED: [&str; 22] = [
    "ping",
    "setboard",
    "playother",
    "usermove",
    "time",
    "draw",
    "sigint",
    "sigterm",
    "reuse",
    "analyze",
    "myname",
    "variants",
    "colors",
    "ics",
    "name",
    "pause",
    "nps",
    "debug",
    "memory",
    "smp",
    "done",
    "exclude",
];

/// The `NAME=VALUE` pairs of a `feature` line; a value may be quoted (`myname="GNU Chess 6"`).
pub fn feature_pairs(rest: &str) -> Vec<(String, String)> {
    let mut out = vec![];
    let mut chars = rest.chars().peekable();
    loop {
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        let mut name = String::new();
        while let Some(&c) = chars.peek() {
            if c == '=' || c.is_whitespace() {
                break;
            }
            name.push(c);
            chars.next();
        }
        if name.is_empty() {
            break;
        }
        let mut value = String::new();
        if chars.peek() == Some(&'=') {
            chars.next();
            if chars.peek() == Some(&'"') {
                chars.next();
                for c in chars.by_ref() {
                    if c == '"' {
                        break;
                    }
                    value.push(c);
                }
            } else {
                while let Some(&c) = chars.peek() {
                    if c.is_whitespace() {
                        break;
                    }
                    value.push(c);
                    chars.next();
                }
            }
        }
        out.push((name, value));
    }
    out
}

impl Features {
    /// Takes one feature; returns whether it is accepted.
    fn take(&mut self, name: &str, value: &str) -> bool {
        let on = value.trim() == "1";
        match name {
            "ping" => self.ping = on,
            "setboard" => self.setboard = on,
            "usermove" => self.usermove = on,
            "time" => self.time = on,
            "memory" => self.memory = on,
            "smp" => self.smp = on,
            "myname" => self.myname = Some(value.to_string()),
            "variants" => {
                self.variants = Some(value.split(',').map(|v| v.trim().to_string()).collect())
            }
            "san" => return !on,
            _ => {}
        }
        // `option` features describe the engine's options; dagaz sends the ones it is given, by name.
        ACCEPTED.contains(&name) || name == "option" || name == "san"
    }
}

/// The score of a thinking line, `PLY SCORE TIME NODES PV...` (the ply may end in `.` or `&`): centipawns from
/// the engine's side, mate in N as 100000 + N (and mated as -100000 - N).
pub fn read_thinking(line: &str, info: &mut SearchInfo) -> bool {
    let w: Vec<&str> = line.split_whitespace().collect();
    if w.len() < 4 {
        return false;
    }
    let ply = w[0].trim_end_matches(['.', '&']);
    let (Ok(ply), Ok(score), Ok(_time), Ok(nodes)) = (
        ply.parse::<u32>(),
        w[1].parse::<i64>(),
        w[2].parse::<u64>(),
        w[3].parse::<u64>(),
    ) else {
        return false;
    };
    info.depth = Some(ply);
    info.nodes = Some(nodes);
    if score >= 100_000 {
        info.mate = Some(((score - 100_000).max(1)).min(i32::MAX as i64) as i32);
        info.score_cp = None;
    } else if score <= -100_000 {
        info.mate = Some(-((-score - 100_000).max(1)).min(i32::MAX as i64) as i32);
        info.score_cp = None;
    } else {
        info.score_cp = Some(score as i32);
        info.mate = None;
    }
    true
}

/// What an engine's line says while dagaz waits for its move.
#[derive(Debug, PartialEq, Eq)]
pub enum Reply {
    /// `move X`, or version 1's `12. ... X`.
    Move(String),
    Resign,
    /// `1-0 {...}`, `0-1 {...}`, `1/2-1/2 {...}`: the result, then the whole line.
    Claim(String, String),
    /// `Illegal move: X` or `Illegal move (REASON): X`: the move named.
    Refused(String),
    /// Anything else (thinking, `telluser`, `Error (...)`, an echo of a move it was sent).
    Other,
}

/// Reads one line of the engine's output.
pub fn reply(line: &str) -> Reply {
    let l = line.trim();
    if l == "move" {
        return Reply::Move(String::new());
    }
    if let Some(m) = l.strip_prefix("move ") {
        return Reply::Move(m.trim().to_string());
    }
    if l == "resign" {
        return Reply::Resign;
    }
    if let Some(rest) = l.strip_prefix("Illegal move") {
        if let Some((_, m)) = rest.split_once(':') {
            return Reply::Refused(m.trim().to_string());
        }
        // Version 1 engines write `Illegal move (no match) WORD`.
        return Reply::Refused(rest.split_whitespace().last().unwrap_or("").to_string());
    }
    for r in ["1-0", "0-1", "1/2-1/2"] {
        if l == r || l.starts_with(&format!("{r} ")) {
            return Reply::Claim(r.into(), l.into());
        }
    }
    // Version 1: `NUMBER. ... MOVE [more]`.
    let w: Vec<&str> = l.split_whitespace().collect();
    if w.len() >= 3
        && w[0].ends_with('.')
        && w[0].trim_end_matches('.').parse::<u32>().is_ok()
        && w[1] == "..."
    {
        return Reply::Move(w[2].to_string());
    }
    Reply::Other
}

/// A CECP time: whole minutes (`5`), or minutes and seconds (`0:30`).
fn level_base(ms: u64) -> String {
    let s = ms / 1000;
    if s.is_multiple_of(60) {
        format!("{}", s / 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

/// The clock's setting at a new game: `level MPS BASE INC` for a time control (MPS 0: the whole game), `st S`
/// for a fixed time per move (whole seconds, at least 1).
pub fn level(c: &ClockView) -> Option<String> {
    if let Some(st) = c.st_ms {
        return Some(format!("st {}", st.div_ceil(1000).max(1)));
    }
    let tc = c.tc?;
    let inc = if tc.inc_ms.is_multiple_of(1000) {
        (tc.inc_ms / 1000).to_string()
    } else {
        format!("{}", tc.inc_ms as f64 / 1000.0)
    };
    Some(format!(
        "level {} {} {inc}",
        tc.moves.unwrap_or(0),
        level_base(tc.base_ms)
    ))
}

/// `time` (the engine's clock) and `otim` (its opponent's), in centiseconds, where both have a time control.
pub fn time_otim(c: &ClockView) -> Vec<String> {
    let mut out = vec![];
    if c.st_ms.is_some() {
        return out;
    }
    if let Some(t) = c.my_left_ms() {
        out.push(format!("time {}", t / 10));
    }
    let opp = (0..c.left_ms.len()).find(|&p| p != c.me);
    if let Some(o) = opp.and_then(|p| c.left_ms[p]) {
        out.push(format!("otim {}", o / 10));
    }
    out
}

/// A bot that asks an XBoard (CECP) engine.
pub struct XboardBot {
    name: String,
    config: XboardConfig,
    conn: Option<Conn>,
    features: Features,
    notation: Option<(usize, Notation)>,
    /// A new game (`new`, ...) is due before the next move.
    new_game: bool,
    /// The moves the engine has been sent or has played since its `new`.
    synced: Vec<String>,
    /// The engine is in force mode (it does not move by itself).
    forced: bool,
    cache: Vec<(u64, Player, Move, State)>,
    /// Where the game started, if not at the game's own start (an opening book's position).
    start: Option<State>,
    clock: Option<ClockView>,
    setup: Duration,
    pings: u32,
    /// The key of the position the engine was set up from (`new`, and `setboard` where sent).
    from_key: Option<u64>,
    /// What the engine reported with its last move.
    pub last: SearchInfo,
    /// The engine's `myname`.
    pub engine_name: Option<String>,
}

impl XboardBot {
    pub fn new(name: impl Into<String>, config: XboardConfig) -> Result<XboardBot, String> {
        config.validate()?;
        Ok(XboardBot {
            name: name.into(),
            config,
            conn: None,
            features: Features::default(),
            notation: None,
            new_game: true,
            synced: vec![],
            forced: false,
            cache: vec![],
            start: None,
            clock: None,
            setup: Duration::ZERO,
            pings: 0,
            from_key: None,
            last: SearchInfo::default(),
            engine_name: None,
        })
    }

    /// Starts the engine: `xboard`, `protover 2`, the features, the options.
    fn start(&mut self) -> Result<Conn, BotError> {
        let mut c = Conn::start(&self.config.external())?;
        c.send("xboard")?;
        c.send("protover 2")?;
        let mut features = Features::default();
        let mut waiting_for_done = false;
        let mut deadline = Instant::now() + Duration::from_millis(self.config.protover_ms);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let mut answers: Vec<String> = vec![];
            let mut done = None;
            let r = c.read_until(left, "`feature done=1`", |l| {
                let Some(rest) = l.strip_prefix("feature ") else {
                    return Ok(None);
                };
                for (k, v) in feature_pairs(rest) {
                    let ok = features.take(&k, &v);
                    answers.push(format!("{} {k}", if ok { "accepted" } else { "rejected" }));
                    if k == "done" {
                        done = Some(v.trim() == "1");
                    }
                }
                Ok(Some(()))
            });
            for a in &answers {
                c.send(a)?;
            }
            match r {
                Ok(()) => match done {
                    Some(true) => break,
                    Some(false) => {
                        // `done=0`: the engine needs time; wait for `done=1` up to the start-up limit.
                        waiting_for_done = true;
                        deadline = Instant::now() + Duration::from_millis(self.config.startup_ms);
                    }
                    None => {}
                },
                // No (more) features: a version 1 engine, or a version 2 engine that sent no `done`.
                Err(BotError::Timeout(e)) => {
                    if waiting_for_done {
                        return Err(BotError::Timeout(e));
                    }
                    break;
                }
                Err(e) => return Err(e),
            }
        }
        for (k, v) in &self.config.option {
            c.send(&format!(
                "option {k}={}",
                option_text(v).unwrap_or_default()
            ))?;
        }
        if let (Some(m), true) = (self.config.memory, features.memory) {
            c.send(&format!("memory {m}"))?;
        }
        if let (Some(n), true) = (self.config.cores, features.smp) {
            c.send(&format!("cores {n}"))?;
        }
        self.engine_name = features.myname.clone();
        self.features = features;
        Ok(c)
    }

    /// `ping N` until `pong N`, where the engine has `ping=1`.
    fn sync(&mut self, c: &mut Conn) -> Result<(), BotError> {
        if !self.features.ping {
            return Ok(());
        }
        self.pings += 1;
        let n = self.pings;
        c.send(&format!("ping {n}"))?;
        let want = format!("pong {n}");
        c.read_until(
            Duration::from_millis(self.config.startup_ms),
            &format!("`{want}`"),
            |l| Ok((l == want).then_some(())),
        )
    }

    /// A move as the engine is sent it.
    fn user_move(&self, m: &str) -> String {
        if self.features.usermove {
            format!("usermove {m}")
        } else {
            m.to_string()
        }
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
            let n = Notation::of(engine.game).map_err(BotError::Crashed)?;
            self.notation = Some((key, n));
            self.cache.clear();
            self.new_game = true;
        }
        let Some((_, n)) = self.notation.take() else {
            unreachable!("set above")
        };
        let r = self.search_with(&n, engine, state, moves, history);
        self.notation = Some((key, n));
        r
    }

    /// `new`, the variant, `force`, `post`, the limits or clock, the start position.
    fn new_game(
        &mut self,
        c: &mut Conn,
        n: &Notation,
        engine: &Engine,
        start: &State,
        clock: Option<&ClockView>,
    ) -> Result<(), BotError> {
        c.send("new")?;
        let variant = self.config.variant.clone().or_else(|| {
            let listed = self.features.variants.as_ref()?;
            (matches!(n, Notation::Shogi(_)) && listed.iter().any(|v| v == "shogi"))
                .then(|| "shogi".to_string())
        });
        if let Some(v) = &variant {
            if let Some(listed) = &self.features.variants {
                if !listed.iter().any(|x| x == v) {
                    return Err(BotError::Crashed(format!(
                        "the engine does not list the variant `{v}` (its `feature variants`: {})",
                        listed.join(",")
                    )));
                }
            }
            c.send(&format!("variant {v}"))?;
        }
        c.send("force")?;
        self.forced = true;
        c.send("post")?;
        match clock.and_then(level) {
            Some(l) => c.send(&l)?,
            None => {
                if let Some(d) = self.config.depth {
                    c.send(&format!("sd {d}"))?;
                }
                if let Some(m) = self.config.movetime {
                    c.send(&format!("st {}", m / 1000))?;
                }
            }
        }
        let (fen, standard) = n.setup(engine, start)?;
        if !standard {
            match (fen, self.features.setboard) {
                (Some(fen), true) => c.send(&format!("setboard {fen}"))?,
                (Some(_), false) => {
                    return Err(BotError::Crashed(
                        "the game does not start from chess's start position and the engine has no \
                         `feature setboard=1`"
                            .into(),
                    ))
                }
                (None, _) => {
                    return Err(BotError::Crashed(
                        "the game does not start from shogi's start position: dagaz sends a shogi position \
                         to an XBoard engine only as moves from the start"
                            .into(),
                    ))
                }
            }
        }
        self.synced.clear();
        self.from_key = Some(start.key());
        self.new_game = false;
        self.sync(c)
    }

    fn search_with(
        &mut self,
        n: &Notation,
        engine: &Engine,
        state: &State,
        moves: &[Move],
        history: &[u64],
    ) -> Result<usize, BotError> {
        let t0 = Instant::now();
        self.setup = Duration::ZERO;
        let mut c = match self.conn.take() {
            Some(c) => c,
            None => {
                self.new_game = true;
                self.start()?
            }
        };
        let clock = self.clock.take();
        let start = self.start.clone().unwrap_or_else(|| engine.initial());
        // The game so far as moves from its start; where they are not known, the position alone.
        let line = moves_so_far(engine, &start, state, history, &mut self.cache).and_then(|line| {
            line.iter()
                .map(|(_, m, before)| n.move_name(before, m))
                .collect::<Option<Vec<String>>>()
        });
        let (from, line) = match line {
            Some(l) => (start, l),
            None => (state.clone(), vec![]),
        };
        if self.new_game || self.from_key != Some(from.key()) || !line.starts_with(&self.synced) {
            self.new_game(&mut c, n, engine, &from, clock.as_ref())?;
        }
        self.setup = t0.elapsed();
        if !self.forced {
            c.send("force")?;
            self.forced = true;
        }
        let sent: Vec<String> = line[self.synced.len()..].to_vec();
        for m in &sent {
            c.send(&self.user_move(m))?;
        }
        self.synced = line;
        let mut wait = Duration::from_millis(self.config.time_ms);
        if let Some(clock) = &clock {
            if self.features.time {
                for t in time_otim(clock) {
                    c.send(&t)?;
                }
            }
            wait = clock.wait();
        }
        c.send("go")?;
        self.forced = false;
        let mut info = SearchInfo::default();
        let me_first = engine.to_move(state).0 == 0;
        let chess = matches!(n, Notation::Chess(_));
        let answer = c.read_until(wait, "`move`", |l| {
            if read_thinking(l, &mut info) {
                return Ok(None);
            }
            match reply(l) {
                Reply::Move(m) => Ok(Some(Ok(m))),
                Reply::Resign => Ok(Some(Err(format!("`{l}`")))),
                Reply::Claim(r, text) => {
                    let own_loss = chess && (r == "0-1" && me_first || r == "1-0" && !me_first);
                    if own_loss {
                        Ok(Some(Err(format!("`{text}`"))))
                    } else {
                        Err(format!(
                            "the engine claimed `{}` instead of moving, where dagaz's rules give {} legal moves",
                            super::clip(&text),
                            moves.len()
                        ))
                    }
                }
                Reply::Refused(m) if sent.contains(&m) => Err(format!(
                    "the engine refused the move `{m}` it was sent (`{}`): its position is not dagaz's",
                    super::clip(l)
                )),
                Reply::Refused(_) | Reply::Other => Ok(None),
            }
        })?;
        self.last = info;
        let answer = match answer {
            Ok(m) if m.is_empty() => {
                return Err(BotError::Illegal(format!(
                    "`move` names no move{}",
                    c.tail()
                )))
            }
            Ok(m) => m,
            Err(text) => return Err(BotError::Resigned(format!("{text} after `go`"))),
        };
        let i = match_move(moves, &answer, "move", |m| n.move_name(state, m)).map_err(|e| {
            BotError::Illegal(format!(
                "{e} (after {} moves){}",
                self.synced.len(),
                c.tail()
            ))
        })?;
        if let Some(name) = n.move_name(state, &moves[i]) {
            self.synced.push(name);
        }
        self.conn = Some(c);
        Ok(i)
    }
}

impl Bot for XboardBot {
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
        let r = self.search(engine, state, moves, history);
        if r.is_err() {
            // Whatever went wrong, the next game starts a new process.
            if let Some(mut c) = self.conn.take() {
                c.kill();
            }
        }
        r
    }

    fn reset(&mut self) {
        self.new_game = true;
        self.cache.clear();
        self.start = None;
    }

    fn set_clock(&mut self, clock: &ClockView) {
        self.clock = Some(clock.clone());
    }

    fn setup_time(&self) -> Duration {
        self.setup
    }

    fn last_nodes(&self) -> Option<u64> {
        self.last.nodes
    }

    fn last_score(&self) -> Option<Score> {
        match (self.last.mate, self.last.score_cp) {
            (Some(m), _) => Some(Score::Mate(m)),
            (None, Some(c)) => Some(Score::Cp(c)),
            _ => None,
        }
    }

    fn start_position(&mut self, start: &State) {
        self.start = Some(start.clone());
        self.cache.clear();
        self.new_game = true;
    }
}

impl Drop for XboardBot {
    fn drop(&mut self) {
        if let Some(mut c) = self.conn.take() {
            if !self.forced {
                let _ = c.send("force");
            }
            c.close("quit");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn feature_lines() {
        let f = feature_pairs(
            r#"ping=1 setboard=1 myname="GNU Chess 6.2" variants="normal,shogi" done=0"#,
        );
        assert_eq!(
            f,
            [
                ("ping".to_string(), "1".to_string()),
                ("setboard".into(), "1".into()),
                ("myname".into(), "GNU Chess 6.2".into()),
                ("variants".into(), "normal,shogi".into()),
                ("done".into(), "0".into())
            ]
        );
        let mut x = Features::default();
        assert!(x.take("usermove", "1") && x.usermove);
        assert!(x.take("san", "0"));
        assert!(!x.take("san", "1"), "SAN is refused");
        assert!(!x.take("frobnicate", "1"));
        assert!(x.take("time", "0") && !x.time);
    }

    #[test]
    fn replies_and_thinking() {
        assert_eq!(reply("move e2e4"), Reply::Move("e2e4".into()));
        assert_eq!(reply("1. ... 6g6f 8190"), Reply::Move("6g6f".into()));
        // GNU Shogi's echo of a move it was sent is not its move.
        assert_eq!(reply("1. 7g7f 299900"), Reply::Other);
        assert_eq!(reply("Illegal move: e2e5"), Reply::Refused("e2e5".into()));
        assert_eq!(
            reply("Illegal move (no match) otim"),
            Reply::Refused("otim".into())
        );
        assert_eq!(
            reply("0-1 {White resigns}"),
            Reply::Claim("0-1".into(), "0-1 {White resigns}".into())
        );
        assert_eq!(reply("resign"), Reply::Resign);
        let mut i = SearchInfo::default();
        assert!(read_thinking("9 156 1084 48000 Nf3 Nc6 Nc3", &mut i));
        assert_eq!(
            (i.depth, i.score_cp, i.nodes),
            (Some(9), Some(156), Some(48000))
        );
        assert!(read_thinking("12& 100003 50 999 Qh7", &mut i));
        assert_eq!((i.mate, i.score_cp), (Some(3), None));
        assert!(read_thinking("12. -100002 50 999 Kh8", &mut i));
        assert_eq!(i.mate, Some(-2));
        assert!(!read_thinking("telluser hello world now", &mut i));
    }

    #[test]
    fn clock_words() {
        use crate::tournament::clock::TimeControl;
        let view = |tc: Option<TimeControl>, st: Option<u64>| ClockView {
            me: 1,
            left_ms: vec![Some(61_230), Some(7_500)],
            inc_ms: vec![100, 100],
            moves_to_go: None,
            st_ms: st,
            margin_ms: 0,
            allowed_ms: 1,
            tc,
        };
        let tc = |moves, base_ms, inc_ms| {
            Some(TimeControl {
                moves,
                base_ms,
                inc_ms,
            })
        };
        assert_eq!(
            level(&view(tc(None, 10_000, 100), None)).unwrap(),
            "level 0 0:10 0.1"
        );
        assert_eq!(
            level(&view(tc(Some(40), 300_000, 0), None)).unwrap(),
            "level 40 5 0"
        );
        assert_eq!(
            level(&view(tc(None, 90_000, 2_000), None)).unwrap(),
            "level 0 1:30 2"
        );
        assert_eq!(level(&view(None, Some(2_500))).unwrap(), "st 3");
        // The mover is player 1: its clock is `time`, the other's `otim`, in centiseconds.
        assert_eq!(
            time_otim(&view(tc(None, 10_000, 100), None)),
            ["time 750", "otim 6123"]
        );
        assert!(time_otim(&view(None, Some(2_500))).is_empty());
    }

    use crate::engine::playout::game_rng;
    use crate::load::{load_game, VariantSel};

    /// The fake engine of `tests/fake_engines/cecp.py`, logging what it reads; `protover_ms` is the wait for
    /// the features of an engine that sends none.
    fn fake(mode: &str, tag: &str, answers: &[&str]) -> (crate::test_scratch::Scratch, XboardBot) {
        let dir = crate::test_scratch::Scratch::new(&format!("cecp-{tag}"));
        let log = dir.join("log");
        let _ = std::fs::remove_file(&log);
        let bot = XboardBot::new(
            "fake",
            XboardConfig {
                command: format!(
                    "python3 tests/fake_engines/cecp.py {mode} {} {}",
                    log.display(),
                    answers.join(" ")
                ),
                protover_ms: if mode == "v1" { 1000 } else { 5000 },
                ..Default::default()
            },
        )
        .unwrap();
        (dir.at("log"), bot)
    }

    fn clock(me: usize, left: [u64; 2]) -> ClockView {
        use crate::tournament::clock::TimeControl;
        ClockView {
            me,
            left_ms: vec![Some(left[0]), Some(left[1])],
            inc_ms: vec![100, 100],
            moves_to_go: None,
            st_ms: None,
            margin_ms: 0,
            allowed_ms: 5_000,
            tc: Some(TimeControl {
                moves: None,
                base_ms: 10_000,
                inc_ms: 100,
            }),
        }
    }

    /// The whole dialogue with a version 2 engine, line by line: features answered, a new game, the moves it
    /// has not seen as `usermove`, the clocks in centiseconds, and a position reached otherwise as `setboard`.
    #[test]
    fn the_dialogue_with_a_version_2_engine() {
        let g = load_game(std::path::Path::new("games/chess.zrf"), &VariantSel::First).unwrap();
        let e = Engine::new(&g);
        let n = ChessNotation::of(&g).unwrap();
        let play = |s: &State, u: &str| {
            let moves = e.legal_moves(s).unwrap();
            let m = moves
                .iter()
                .find(|m| n.move_name(s, m).as_deref() == Some(u))
                .unwrap();
            e.apply(s, m)
        };
        let (log, mut bot) = fake("play", "v2", &["e2e4", "g1f3", "b1c3"]);
        let mut rng = game_rng(1, 0);
        let s0 = e.initial();
        let moves = e.legal_moves(&s0).unwrap();
        bot.set_clock(&clock(0, [10_000, 10_000]));
        let i = bot.choose(&e, &s0, &moves, &[], &mut rng).unwrap();
        assert_eq!(n.move_name(&s0, &moves[i]).as_deref(), Some("e2e4"));
        assert_eq!(bot.engine_name.as_deref(), Some("fake-cecp-play"));
        assert_eq!(bot.last_score(), Some(Score::Cp(42)));
        assert_eq!((bot.last.depth, bot.last.nodes), (Some(3), Some(777)));
        let s1 = play(&s0, "e2e4");
        let s2 = play(&s1, "e7e5");
        let moves = e.legal_moves(&s2).unwrap();
        bot.set_clock(&clock(0, [9_870, 9_555]));
        let i = bot
            .choose(&e, &s2, &moves, &[s0.key(), s1.key()], &mut rng)
            .unwrap();
        assert_eq!(n.move_name(&s2, &moves[i]).as_deref(), Some("g1f3"));
        // The same position without the keys that lead to it: the position alone, with `setboard`.
        bot.clock = None;
        bot.choose(&e, &s2, &moves, &[], &mut rng).unwrap();
        drop(bot);
        let text = std::fs::read_to_string(&log).unwrap();
        let fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
        let want = [
            "xboard",
            "protover 2",
            "accepted usermove",
            "accepted ping",
            "accepted setboard",
            "accepted myname",
            "rejected san",
            "accepted done",
            "new",
            "force",
            "post",
            "level 0 0:10 0.1",
            "ping 1",
            "time 1000",
            "otim 1000",
            "go",
            "force",
            "usermove e7e5",
            "time 987",
            "otim 955",
            "go",
            "new",
            "force",
            "post",
            &format!("setboard {fen}"),
            "ping 2",
            "go",
            "force",
            "quit",
        ];
        assert_eq!(text.lines().collect::<Vec<_>>(), want, "{text}");
    }

    /// A version 1 engine (no features; `Illegal move (no match) protover`): bare moves, `NUMBER. ... MOVE`
    /// answers, and `sd` for the bot's depth.
    #[test]
    fn a_version_1_engine() {
        let g = load_game(std::path::Path::new("games/chess.zrf"), &VariantSel::First).unwrap();
        let e = Engine::new(&g);
        let (log, mut bot) = fake("v1", "v1", &["e7e5"]);
        bot.config.depth = Some(2);
        let mut rng = game_rng(1, 0);
        let s0 = e.initial();
        let moves = e.legal_moves(&s0).unwrap();
        let n = ChessNotation::of(&g).unwrap();
        let i = moves
            .iter()
            .position(|m| n.move_name(&s0, m).as_deref() == Some("e2e4"))
            .unwrap();
        let s1 = e.apply(&s0, &moves[i]);
        let moves = e.legal_moves(&s1).unwrap();
        let j = bot.choose(&e, &s1, &moves, &[s0.key()], &mut rng).unwrap();
        assert_eq!(n.move_name(&s1, &moves[j]).as_deref(), Some("e7e5"));
        drop(bot);
        let text = std::fs::read_to_string(&log).unwrap();
        assert_eq!(
            text.lines().collect::<Vec<_>>(),
            [
                "xboard",
                "protover 2",
                "new",
                "force",
                "post",
                "sd 2",
                "e2e4",
                "go",
                "force",
                "quit"
            ],
            "{text}"
        );
    }

    #[test]
    fn keys_are_checked() {
        let c = XboardConfig {
            command: "gnushogi".into(),
            ..Default::default()
        };
        c.validate().unwrap();
        assert!(c.check_limits().unwrap_err().contains("depth"));
        let bad = XboardConfig {
            movetime: Some(1500),
            ..c.clone()
        };
        assert!(bad
            .validate()
            .unwrap_err()
            .contains("whole number of seconds"));
        let bad = XboardConfig {
            variant: Some("two words".into()),
            ..c
        };
        assert!(bad.validate().is_err());
    }
}
