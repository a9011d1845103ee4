//! The `uci` bot kind: a chess engine (Stockfish, Fairy-Stockfish, ...) over the Universal Chess Interface.
//!
//! Started once per bot: `uci` until `uciok`, a `setoption` per `option.NAME` key, `isready` until `readyok`.
//! Each game begins with `ucinewgame` and `isready`. Each move: `position startpos moves e2e4 ...` (or
//! `position fen FEN moves ...` when the game does not start from chess's position, or sets `UCI_Variant`),
//! then `go` with the bot's `nodes`, `depth` and `movetime`; the answer is the `bestmove`, with the last
//! `info` line's `score cp|mate`, `depth` and `nodes` ([`SearchInfo`]). The move is matched against the legal
//! moves by its squares and promotion ([`ChessNotation::move_name`]).
//!
//! The `usi` kind is the same dialogue in the Universal Shogi Interface's words (`usi`/`usiok`, `usinewgame`,
//! `position startpos|sfen ...`), with SFEN and USI moves ([`ShogiNotation`]); `bestmove resign` loses the game.

use super::notation::{ChessNotation, ShogiNotation, CHESS_START, SHOGI_START};
use super::{match_move, moves_so_far, Conn, SearchInfo};
use crate::bot::external::program_config;
use crate::bot::{Bot, BotError, ClockView};
use crate::compile::Player;
use crate::engine::{Engine, Move, State};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

program_config! {
    /// The settings of a UCI engine (the keys of its preset), e.g. `command = "stockfish"`.
    pub struct UciConfig {
        time_ms: 60_000,
        startup_ms: 10_000,
        /// `go nodes N`.
        pub nodes: Option<u64> = None,
        /// `go depth N`.
        pub depth: Option<u32> = None,
        /// `go movetime MS`.
        pub movetime: Option<u64> = None,
        /// Engine options, sent as `setoption name NAME value VALUE` (`option.Hash=16` inline).
        #[serde(skip_serializing_if = "BTreeMap::is_empty")]
        pub option: BTreeMap<String, toml::Value> = BTreeMap::new(),
    }
}

impl UciConfig {
    pub fn validate(&self) -> Result<(), String> {
        self.check_program(
            "a uci bot needs a `command`, e.g. `uci:command=stockfish,nodes=20000`",
        )?;
        if self.nodes == Some(0) || self.depth == Some(0) || self.movetime == Some(0) {
            return Err("`nodes`, `depth` and `movetime` must be at least 1".into());
        }
        if let Some(v) = self.movetime.filter(|&m| m >= self.time_ms) {
            return Err(format!(
                "`movetime` ({v}) must be less than `time_ms` ({}), the limit after which the engine is taken to hang",
                self.time_ms
            ));
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

    /// A limit for each move, where the bot plays without a clock (checked with the tournament's clock known:
    /// [`crate::bot::BotSpec::check_limits`]).
    pub fn check_limits(&self) -> Result<(), String> {
        if self.nodes.is_none() && self.depth.is_none() && self.movetime.is_none() {
            return Err(
                "an engine bot needs a limit for each move: `nodes`, `depth` or `movetime` (ms)"
                    .into(),
            );
        }
        Ok(())
    }

    /// Whether `option.UCI_Variant` asks for a game other than chess.
    fn variant(&self) -> Option<String> {
        self.option
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case("UCI_Variant"))
            .and_then(|(_, v)| option_text(v))
            .filter(|v| !v.eq_ignore_ascii_case("chess"))
    }
}

fn option_text(v: &toml::Value) -> Option<String> {
    match v {
        toml::Value::String(s) => Some(s.clone()),
        toml::Value::Integer(i) => Some(i.to_string()),
        toml::Value::Float(f) => Some(f.to_string()),
        toml::Value::Boolean(b) => Some(b.to_string()),
        _ => None,
    }
}

/// The protocol's words: UCI, or USI for shogi engines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Uci,
    Usi,
    /// UCCI, the Chinese chess dialect: `ucci`/`ucciok`, `setoption NAME VALUE`, no new-game command, ranks
    /// numbered from 0 (`h2e2`), `go time T increment I opptime T oppincrement I` in milliseconds.
    Ucci,
}

impl Dialect {
    fn word(self) -> &'static str {
        match self {
            Dialect::Uci => "uci",
            Dialect::Usi => "usi",
            Dialect::Ucci => "ucci",
        }
    }
}

/// A game's notation in the dialect.
enum Notation {
    Chess(ChessNotation),
    Shogi(ShogiNotation),
    /// FEN as for UCI (xiangqi's letters), squares with ranks from 0.
    Ucci(ChessNotation),
}

/// A UCI move (`h3e3`, `a10a9`) with its ranks counted from 0, as UCCI writes them (`h2e2`, `a9a8`).
pub(crate) fn ucci_move(uci: &str) -> Option<String> {
    let mut out = String::new();
    let mut digits = String::new();
    let flush = |digits: &mut String, out: &mut String| -> Option<()> {
        if !digits.is_empty() {
            let r: u32 = digits.parse().ok()?;
            out.push_str(&r.checked_sub(1)?.to_string());
            digits.clear();
        }
        Some(())
    };
    for ch in uci.chars() {
        if ch.is_ascii_digit() {
            digits.push(ch);
        } else {
            flush(&mut digits, &mut out)?;
            out.push(ch);
        }
    }
    flush(&mut digits, &mut out)?;
    Some(out)
}

impl Notation {
    fn of(d: Dialect, game: &crate::compile::Game) -> Result<Notation, String> {
        match d {
            Dialect::Uci => ChessNotation::of(game).map(Notation::Chess),
            Dialect::Usi => ShogiNotation::of(game).map(Notation::Shogi),
            Dialect::Ucci => ChessNotation::of(game).map(Notation::Ucci),
        }
    }

    fn move_name(&self, before: &State, m: &Move) -> Option<String> {
        match self {
            Notation::Chess(n) => n.move_name(before, m),
            Notation::Shogi(n) => n.move_name(m),
            Notation::Ucci(n) => n.move_name(before, m).and_then(|u| ucci_move(&u)),
        }
    }

    /// `fen FEN` or `sfen SFEN`, and whether it is the protocol's `startpos`.
    fn position(&self, engine: &Engine, s: &State, moves: &[Move]) -> (String, bool) {
        match self {
            Notation::Chess(n) => {
                let fen = n.fen(engine.game, s, engine.to_move(s), moves);
                let start = fen == CHESS_START;
                (format!("fen {fen}"), start)
            }
            Notation::Shogi(n) => {
                let sfen = n.sfen(engine.game, s, engine.to_move(s));
                let start = sfen == SHOGI_START;
                (format!("sfen {sfen}"), start)
            }
            // Always the FEN: UCCI's `startpos` is xiangqi's, whatever the game.
            Notation::Ucci(n) => (
                format!("fen {}", n.fen(engine.game, s, engine.to_move(s), moves)),
                false,
            ),
        }
    }
}

/// A bot that asks a UCI (or USI) engine.
pub struct UciBot {
    name: String,
    dialect: Dialect,
    config: UciConfig,
    conn: Option<Conn>,
    /// `ucinewgame` is due before the next search.
    new_game: bool,
    /// The notation of the game last played (its address, to notice another game).
    notation: Option<(usize, Notation)>,
    cache: Vec<(u64, Player, Move, State)>,
    /// What the engine reported with its last move.
    pub last: SearchInfo,
    /// The engine's `id name`.
    pub engine_name: Option<String>,
    /// Where the game started, if not at the game's own start (an opening book's position).
    start: Option<State>,
    /// The clocks for the next move ([`Bot::set_clock`]).
    clock: Option<ClockView>,
    /// The time the last move spent starting the engine and its new game.
    setup: Duration,
}

impl UciBot {
    pub fn new(name: impl Into<String>, config: UciConfig) -> Result<UciBot, String> {
        Self::with_dialect(name, config, Dialect::Uci)
    }

    /// A UCCI (xiangqi) engine.
    pub fn ucci(name: impl Into<String>, config: UciConfig) -> Result<UciBot, String> {
        Self::with_dialect(name, config, Dialect::Ucci)
    }

    /// A USI (shogi) engine.
    pub fn usi(name: impl Into<String>, config: UciConfig) -> Result<UciBot, String> {
        Self::with_dialect(name, config, Dialect::Usi)
    }

    fn with_dialect(
        name: impl Into<String>,
        config: UciConfig,
        dialect: Dialect,
    ) -> Result<UciBot, String> {
        config.validate()?;
        Ok(UciBot {
            name: name.into(),
            dialect,
            config,
            conn: None,
            new_game: true,
            notation: None,
            cache: vec![],
            last: SearchInfo::default(),
            engine_name: None,
            start: None,
            clock: None,
            setup: Duration::ZERO,
        })
    }

    fn limit(ms: u64) -> Duration {
        Duration::from_millis(ms)
    }

    /// Starts the engine: `uci`/`uciok`, the options, `isready`/`readyok`.
    fn start(&mut self) -> Result<Conn, BotError> {
        let mut c = Conn::start(&self.config.external())?;
        let startup = Self::limit(self.config.startup_ms);
        let word = self.dialect.word();
        c.send(word)?;
        let mut name = None;
        let ok = format!("{word}ok");
        c.read_until(startup, &format!("`{ok}`"), |l| {
            if let Some(n) = l.strip_prefix("id name ") {
                name = Some(n.trim().to_string());
            }
            Ok((l == ok).then_some(()))
        })?;
        self.engine_name = name;
        for (k, v) in &self.config.option {
            let v = option_text(v).unwrap_or_default();
            match self.dialect {
                Dialect::Ucci => c.send(&format!("setoption {k} {v}"))?,
                _ => c.send(&format!("setoption name {k} value {v}"))?,
            }
        }
        c.send("isready")?;
        c.read_until(startup, "`readyok`", |l| Ok((l == "readyok").then_some(())))?;
        Ok(c)
    }

    /// The `position` command for `state`.
    fn position(
        &mut self,
        n: &Notation,
        engine: &Engine,
        state: &State,
        moves: &[Move],
        history: &[u64],
    ) -> Result<String, BotError> {
        let start = self.start.clone().unwrap_or_else(|| engine.initial());
        let line = moves_so_far(engine, &start, state, history, &mut self.cache).and_then(|line| {
            line.iter()
                .map(|(_, m, before)| n.move_name(before, m))
                .collect::<Option<Vec<String>>>()
        });
        let Some(line) = line else {
            return Ok(format!("position {}", n.position(engine, state, moves).0));
        };
        let start_moves = engine.legal_moves(&start)?;
        let (text, standard) = n.position(engine, &start, &start_moves);
        let mut cmd = if standard && self.config.variant().is_none() {
            "position startpos".to_string()
        } else {
            format!("position {text}")
        };
        if !line.is_empty() {
            cmd.push_str(" moves ");
            cmd.push_str(&line.join(" "));
        }
        Ok(cmd)
    }

    fn go(&self) -> String {
        let mut cmd = "go".to_string();
        if let Some(c) = &self.clock {
            cmd.push_str(&clock_words(self.dialect, c));
        }
        if let Some(n) = self.config.nodes {
            cmd.push_str(&format!(" nodes {n}"));
        }
        if let Some(d) = self.config.depth {
            cmd.push_str(&format!(" depth {d}"));
        }
        if let Some(m) = self.config.movetime {
            match self.dialect {
                Dialect::Ucci => cmd.push_str(&format!(" time {m} movestogo 1")),
                _ => cmd.push_str(&format!(" movetime {m}")),
            }
        }
        cmd
    }

    /// One search: the index of the engine's move among `moves`.
    fn search(
        &mut self,
        engine: &Engine,
        state: &State,
        moves: &[Move],
        history: &[u64],
    ) -> Result<usize, BotError> {
        let key = engine.game as *const _ as usize;
        if self.notation.as_ref().is_none_or(|(k, _)| *k != key) {
            let n = Notation::of(self.dialect, engine.game).map_err(BotError::Crashed)?;
            self.notation = Some((key, n));
            self.cache.clear();
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
        if self.new_game {
            let newgame = format!("{}newgame", self.dialect.word());
            // UCCI has no new-game command: only `isready`.
            if self.dialect != Dialect::Ucci {
                c.send(&newgame)?;
            }
            c.send("isready")?;
            c.read_until(
                Self::limit(self.config.startup_ms),
                &format!("`readyok` after `{newgame}`"),
                |l| Ok((l == "readyok").then_some(())),
            )?;
            self.new_game = false;
        }
        self.setup = t0.elapsed();
        let position = self.position(n, engine, state, moves, history)?;
        c.send(&position)?;
        c.send(&self.go())?;
        let mut info = SearchInfo::default();
        // On a clock, the engine is waited for until a second past its flag.
        let wait = match self.clock.take() {
            Some(clock) => clock.wait(),
            None => Self::limit(self.config.time_ms),
        };
        let best = c.read_until(wait, "`bestmove`", |l| {
            if let Some(rest) = l.strip_prefix("info ") {
                read_info(rest, &mut info);
                return Ok(None);
            }
            if l == "nobestmove" {
                return Ok(Some(l.to_string()));
            }
            if l == "bestmove" || l.starts_with("bestmove ") {
                return match l.split_whitespace().nth(1) {
                    Some(m) => Ok(Some(m.to_string())),
                    None => Err("`bestmove` names no move".to_string()),
                };
            }
            Ok(None)
        })?;
        self.last = info;
        if best == "resign" {
            return Err(BotError::Resigned(format!(
                "`bestmove resign` after `{}`",
                super::clip(&position)
            )));
        }
        if best == "(none)" || best == "0000" || best == "win" || best == "nobestmove" {
            return Err(BotError::Illegal(format!(
                "the engine answered `bestmove {best}` (no move) where there are {} legal moves, after `{position}`{}",
                moves.len(),
                c.tail()
            )));
        }
        let i = match_move(moves, &best, "move", |m| n.move_name(state, m)).map_err(|e| {
            BotError::Illegal(format!(
                "{e}, after `{}`{}",
                super::clip(&position),
                c.tail()
            ))
        })?;
        self.conn = Some(c);
        Ok(i)
    }
}

/// The clock as `go` sends it, with a leading space: UCI `wtime`, `btime`, `winc`, `binc`, `movestogo` (White is
/// the game's first player) or `movetime` for a fixed time per move; USI `btime`, `wtime`, `binc`, `winc` (sente,
/// `b`, is the first player) or `byoyomi` for a fixed time per move.
pub(crate) fn clock_words(d: Dialect, c: &ClockView) -> String {
    let mut out = String::new();
    if d == Dialect::Ucci {
        // UCCI: the mover's clock, then the opponent's.
        match (c.st_ms, c.my_left_ms()) {
            (Some(st), _) => out.push_str(&format!(" time {st} movestogo 1")),
            (None, Some(t)) => {
                out.push_str(&format!(" time {t} increment {}", c.my_inc_ms()));
                if let Some(m) = c.moves_to_go {
                    out.push_str(&format!(" movestogo {m}"));
                }
                let opp = (0..c.left_ms.len()).find(|&p| p != c.me);
                if let Some(p) = opp {
                    if let Some(o) = c.left_ms[p] {
                        out.push_str(&format!(" opptime {o} oppincrement {}", c.inc_ms[p]));
                    }
                }
            }
            (None, None) => {}
        }
        return out;
    }
    if let Some(st) = c.st_ms {
        match d {
            Dialect::Usi => out.push_str(&format!(" btime 0 wtime 0 byoyomi {st}")),
            _ => out.push_str(&format!(" movetime {st}")),
        }
        return out;
    }
    let side = |p: usize| {
        c.left_ms
            .get(p)
            .copied()
            .flatten()
            .map(|t| (t, c.inc_ms[p]))
    };
    let (first, second) = match d {
        Dialect::Usi => ("b", "w"),
        _ => ("w", "b"),
    };
    for (p, colour) in [(0, first), (1, second)] {
        if let Some((t, _)) = side(p) {
            out.push_str(&format!(" {colour}time {t}"));
        }
    }
    for (p, colour) in [(0, first), (1, second)] {
        if let Some((_, inc)) = side(p) {
            out.push_str(&format!(" {colour}inc {inc}"));
        }
    }
    if let (Some(m), Dialect::Uci) = (c.moves_to_go, d) {
        out.push_str(&format!(" movestogo {m}"));
    }
    out
}

/// Reads the fields of an `info` line that a search reports: `depth`, `score cp|mate`, `nodes`. A line without
/// a score (`info string ...`, `info currmove ...`) leaves the score as it was.
fn read_info(rest: &str, info: &mut SearchInfo) {
    let words: Vec<&str> = rest.split_whitespace().collect();
    if words.first() == Some(&"string") {
        return;
    }
    let mut i = 0;
    while i < words.len() {
        let next = words.get(i + 1);
        match words[i] {
            "depth" => {
                if let Some(d) = next.and_then(|v| v.parse().ok()) {
                    info.depth = Some(d);
                }
            }
            "nodes" => {
                if let Some(n) = next.and_then(|v| v.parse().ok()) {
                    info.nodes = Some(n);
                }
            }
            "score" => match (next.copied(), words.get(i + 2).and_then(|v| v.parse().ok())) {
                (Some("cp"), Some(v)) => {
                    info.score_cp = Some(v);
                    info.mate = None;
                }
                (Some("mate"), Some(v)) => {
                    info.mate = Some(v);
                    info.score_cp = None;
                }
                _ => {}
            },
            "pv" => break,
            _ => {}
        }
        i += 1;
    }
}

impl Bot for UciBot {
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

    fn last_score(&self) -> Option<crate::bot::Score> {
        match (self.last.mate, self.last.score_cp) {
            (Some(m), _) => Some(crate::bot::Score::Mate(m)),
            (None, Some(c)) => Some(crate::bot::Score::Cp(c)),
            _ => None,
        }
    }

    fn start_position(&mut self, start: &State) {
        self.start = Some(start.clone());
        self.cache.clear();
    }
}

impl Drop for UciBot {
    fn drop(&mut self) {
        if let Some(mut c) = self.conn.take() {
            c.close("quit");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines() {
        let mut i = SearchInfo::default();
        read_info(
            "depth 12 seldepth 15 multipv 1 score cp -34 nodes 20011 nps 1 pv e2e4 e7e5",
            &mut i,
        );
        assert_eq!(
            i,
            SearchInfo {
                score_cp: Some(-34),
                mate: None,
                depth: Some(12),
                nodes: Some(20011)
            }
        );
        read_info("depth 13 score mate -3 lowerbound nodes 5", &mut i);
        assert_eq!((i.score_cp, i.mate, i.depth), (None, Some(-3), Some(13)));
        read_info("string depth 99 score cp 1", &mut i);
        assert_eq!(ucci_move("h3e3").as_deref(), Some("h2e2"));
        assert_eq!(ucci_move("a10a9").as_deref(), Some("a9a8"));
        assert_eq!(i.depth, Some(13));
    }

    #[test]
    fn limits_are_required() {
        let c = UciConfig {
            command: "stockfish".into(),
            ..Default::default()
        };
        c.validate().unwrap();
        assert!(c.check_limits().unwrap_err().contains("nodes"));
        let c = UciConfig {
            nodes: Some(10),
            ..c
        };
        c.check_limits().unwrap();
    }
}
