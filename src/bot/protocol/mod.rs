//! Real engines as players, over their own protocols: [`uci`] (Stockfish, Fairy-Stockfish), [`xboard`] (CECP:
//! GNU Shogi, XBoard engines) and [`gtp`] (GNU Go, Pachi, KataGo). Each adapter starts the engine's process with the machinery of the external bot
//! (`super::external`: a process group of its own, a capped line reader, kills that take the whole group),
//! speaks the protocol, and matches the engine's move against dagaz's legal moves: it is never trusted.
//!
//! * A process that cannot be started, exits or closes its output is [`BotError::Crashed`], with its exit
//!   status and last error lines; one that does not answer in its time limit is [`BotError::Timeout`]; an
//!   answer that cannot be read, or a move that is not legal, is [`BotError::Illegal`], with the engine's text.
//!   After any of these the process is killed, and the next game starts a new one.
//! * Positions and moves are written in the engine's notation, derived from the game ([`notation`]); a game
//!   that has no such notation is refused with a message naming what is missing, before the run
//!   ([`super::BotSpec::check_game`]).
//! * The game so far is sent as its start position plus the moves played (so the engine sees repetitions),
//!   recovered from the keys of the earlier positions that every bot is handed; where they do not lead to the
//!   position, the position alone is sent.

pub mod gtp;
pub mod notation;
pub mod uci;
pub mod xboard;

use super::external::{ExternalConfig, Process, MAX_ANSWER_BYTES};
use super::BotError;
use crate::compile::Player;
use crate::engine::{Engine, Move, State};
use std::collections::VecDeque;
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

/// Lines of the engine's output kept for error messages.
const TRANSCRIPT_LINES: usize = 12;

/// What the engine reported with its move, where it did: for adjudication and the record.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchInfo {
    /// Centipawns from the mover's side.
    pub score_cp: Option<i32>,
    /// Mate in this many moves (negative: the mover is mated).
    pub mate: Option<i32>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
}

/// A running engine process and the last lines it wrote.
pub(crate) struct Conn {
    process: Option<Process>,
    command: String,
    /// The last lines read, for the error messages.
    transcript: VecDeque<String>,
}

impl Conn {
    /// Starts the engine.
    pub(crate) fn start(config: &ExternalConfig) -> Result<Conn, BotError> {
        let mut command = config.command.clone();
        for a in &config.args {
            command.push(' ');
            command.push_str(a);
        }
        Ok(Conn {
            process: Some(Process::start(config)?),
            command,
            transcript: VecDeque::new(),
        })
    }

    fn crashed(&mut self) -> BotError {
        let status = match self.process.take() {
            Some(p) => p.post_mortem(),
            None => "not running".into(),
        };
        BotError::Crashed(format!("`{}` {status}{}", self.command, self.tail()))
    }

    /// The engine's last lines, for a message (empty if it wrote none).
    pub(crate) fn tail(&self) -> String {
        if self.transcript.is_empty() {
            String::new()
        } else {
            let lines: Vec<&str> = self.transcript.iter().map(|s| s.as_str()).collect();
            format!("; its last output: {}", lines.join(" | "))
        }
    }

    /// Sends one line (a crash if the engine's input is closed).
    pub(crate) fn send(&mut self, line: &str) -> Result<(), BotError> {
        let ok = match &mut self.process {
            Some(p) => p.write_line(line).is_ok(),
            None => false,
        };
        if ok {
            Ok(())
        } else {
            Err(self.crashed())
        }
    }

    /// Reads lines until `f` takes one (returns `Some`), within `limit`: `what` names the awaited answer for
    /// the timeout's message. `f` may fail with a message, which becomes [`BotError::Illegal`].
    pub(crate) fn read_until<T>(
        &mut self,
        limit: Duration,
        what: &str,
        mut f: impl FnMut(&str) -> Result<Option<T>, String>,
    ) -> Result<T, BotError> {
        let deadline = Instant::now() + limit;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let Some(p) = &self.process else {
                return Err(self.crashed());
            };
            let line = match p.next_line(left) {
                Ok(Some(l)) => String::from_utf8_lossy(&l).into_owned(),
                Ok(None) => {
                    return Err(BotError::Illegal(format!(
                        "`{}` wrote a line longer than {MAX_ANSWER_BYTES} bytes",
                        self.command
                    )))
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(BotError::Timeout(format!(
                        "no {what} within {} ms from `{}`{}",
                        limit.as_millis(),
                        self.command,
                        self.tail()
                    )))
                }
                Err(RecvTimeoutError::Disconnected) => return Err(self.crashed()),
            };
            let line = line.trim().to_string();
            if self.transcript.len() == TRANSCRIPT_LINES {
                self.transcript.pop_front();
            }
            self.transcript.push_back(clip(&line));
            match f(&line) {
                Ok(Some(t)) => return Ok(t),
                Ok(None) => {}
                Err(e) => return Err(BotError::Illegal(format!("{e}{}", self.tail()))),
            }
        }
    }

    /// Asks the engine to quit (`quit_line`), gives it a moment, then ends its whole process group.
    pub(crate) fn close(&mut self, quit_line: &str) {
        if let Some(mut p) = self.process.take() {
            let _ = p.write_line(quit_line);
            for _ in 0..20 {
                if p.has_exited() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            p.kill();
        }
    }

    /// Ends the process group at once (after a failure).
    pub(crate) fn kill(&mut self) {
        if let Some(p) = self.process.take() {
            p.kill();
        }
    }
}

impl Drop for Conn {
    fn drop(&mut self) {
        self.kill();
    }
}

/// A line cut to a readable length.
pub(crate) fn clip(s: &str) -> String {
    if s.chars().count() > 200 {
        s.chars().take(200).collect::<String>() + "..."
    } else {
        s.to_string()
    }
}

/// The moves of the game from its start (`start`: the game's own, or an opening book's position) to `state`,
/// recovered from `history` (the keys of the positions before each move, the start's first): at each position the one legal move that leads to the next key.
/// `None` where they do not lead from the start to `state` (a position set up otherwise). `cache` keeps the
/// moves and positions found at the last call, so a game costs one move generation per ply. Each move comes
/// with the player who made it and the position it was made in.
pub(crate) fn moves_so_far(
    engine: &Engine,
    start: &State,
    state: &State,
    history: &[u64],
    cache: &mut Vec<(u64, Player, Move, State)>,
) -> Option<Vec<(Player, Move, State)>> {
    if history.is_empty() {
        cache.clear();
        return (start.key() == state.key()).then(Vec::new);
    }
    let before = |cache: &[(u64, Player, Move, State)], i: usize| match i {
        0 => start.clone(),
        _ => cache[i - 1].3.clone(),
    };
    if history[0] != start.key() {
        return None;
    }
    // Keep the cached prefix that agrees with this history: entry i is the move from history[i].
    let dest = |i: usize| history.get(i + 1).copied().unwrap_or_else(|| state.key());
    let keep = (0..cache.len().min(history.len()))
        .take_while(|&i| cache[i].0 == history[i] && cache[i].3.key() == dest(i))
        .count();
    cache.truncate(keep);
    for (i, &key) in history.iter().enumerate().skip(cache.len()) {
        let at = before(cache, i);
        let next_key = dest(i);
        let moves = engine.legal_moves(&at).ok()?;
        let mut found = None;
        for m in moves {
            let s = engine.apply(&at, &m);
            if s.key() == next_key {
                if found.is_some() {
                    return None; // two moves to one position: the line is not known
                }
                found = Some((m, s));
            }
        }
        let (m, s) = found?;
        cache.push((key, engine.to_move(&at), m, s));
    }
    Some(
        cache
            .iter()
            .enumerate()
            .map(|(i, (_, p, m, _))| (*p, m.clone(), before(cache, i)))
            .collect(),
    )
}

/// The index of the one legal move whose notation (by `name`) is `answer`: an answer that names none, or
/// several, is illegal.
pub(crate) fn match_move(
    moves: &[Move],
    answer: &str,
    what: &str,
    mut name: impl FnMut(&Move) -> Option<String>,
) -> Result<usize, String> {
    let found: Vec<usize> = (0..moves.len())
        .filter(|&i| name(&moves[i]).is_some_and(|n| n.eq_ignore_ascii_case(answer)))
        .collect();
    match found.as_slice() {
        [one] => Ok(*one),
        [] => Err(format!(
            "the engine's {what} `{}` is not one of the {} legal moves",
            clip(answer),
            moves.len()
        )),
        many => Err(format!(
            "the engine's {what} `{}` names {} legal moves",
            clip(answer),
            many.len()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::uci::UciBot;
    use super::*;
    use crate::bot::{Bot, BotSpec};
    use crate::engine::playout::game_rng;
    use crate::load::{load_game, VariantSel};

    #[test]
    fn engine_options_inline_and_in_presets() {
        let s = BotSpec::parse_inline(
            "uci:command=stockfish,nodes=20000,option.Hash=16,option.UCI_Variant=xiangqi,name=sf",
        )
        .unwrap();
        let BotSpec::Uci(c) = &s else { panic!("{s:?}") };
        assert_eq!(c.option["Hash"], toml::Value::Integer(16));
        assert_eq!(
            c.option["UCI_Variant"],
            toml::Value::String("xiangqi".into())
        );
        assert_eq!(
            s.inline(),
            "uci:args=[],command=stockfish,nodes=20000,option.Hash=16,option.UCI_Variant=xiangqi,startup_ms=10000,time_ms=60000"
        );
        // What config.toml keeps reads back the same.
        let table = toml::Table::try_from(&s).unwrap();
        let back = BotSpec::from_toml(&toml::to_string(&table).unwrap(), "x").unwrap();
        assert_eq!(back, s);
        let e = BotSpec::parse_inline("uci:command=sf,nodes=1,option.Hash=1,option.Hash=2")
            .unwrap_err();
        assert!(e.contains("twice"), "{e}");
        let e = BotSpec::parse_inline("gtp:command=gnugo,nodes=5").unwrap_err();
        assert!(e.contains("unknown field `nodes`"), "{e}");
    }

    /// A fake engine that writes every line it reads to a log and answers the moves it is given, in turn.
    fn logging_engine(tag: &str, answers: &[&str]) -> (crate::test_scratch::Scratch, UciBot) {
        let dir = crate::test_scratch::Scratch::new(&format!("uci-{tag}"));
        let log = dir.join("log");
        let _ = std::fs::remove_file(&log);
        let script = dir.join("engine.py");
        std::fs::write(
            &script,
            format!(
                r#"import sys
answers = {answers:?}
log = open({log:?}, "a")
for line in sys.stdin:
    log.write(line); log.flush()
    w = line.split()
    if not w: continue
    if w[0] == "uci": print("uciok", flush=True)
    elif w[0] == "isready": print("readyok", flush=True)
    elif w[0] == "go":
        print("info depth 3 score cp 12 nodes 77")
        print("bestmove " + answers.pop(0), flush=True)
    elif w[0] == "quit": break
"#,
                log = log.display().to_string()
            ),
        )
        .unwrap();
        let bot = UciBot::new(
            "fake",
            super::uci::UciConfig {
                command: format!("python3 {}", script.display()),
                nodes: Some(5),
                ..Default::default()
            },
        )
        .unwrap();
        (dir.at("log"), bot)
    }

    #[test]
    fn the_game_so_far_is_sent_as_start_position_and_moves() {
        let g = load_game(std::path::Path::new("games/chess.zrf"), &VariantSel::First).unwrap();
        let e = Engine::new(&g);
        let (log, mut bot) = logging_engine("moves", &["e2e4", "g1f3", "d2d4"]);
        let n = notation::ChessNotation::of(&g).unwrap();
        let play = |s: &State, u: &str| {
            let moves = e.legal_moves(s).unwrap();
            let m = moves
                .iter()
                .find(|m| n.move_name(s, m).as_deref() == Some(u))
                .unwrap();
            e.apply(s, m)
        };
        let mut rng = game_rng(1, 0);
        let s0 = e.initial();
        let moves = e.legal_moves(&s0).unwrap();
        let i = bot.choose(&e, &s0, &moves, &[], &mut rng).unwrap();
        assert_eq!(n.move_name(&s0, &moves[i]).as_deref(), Some("e2e4"));
        assert_eq!(
            (bot.last.score_cp, bot.last.depth, bot.last.nodes),
            (Some(12), Some(3), Some(77))
        );
        let s1 = play(&s0, "e2e4");
        let s2 = play(&s1, "e7e5");
        let moves = e.legal_moves(&s2).unwrap();
        let history = [s0.key(), s1.key()];
        bot.choose(&e, &s2, &moves, &history, &mut rng).unwrap();
        // Without the keys that lead to it, the position alone.
        bot.choose(&e, &s2, &moves, &[], &mut rng).unwrap();
        drop(bot);
        let text = std::fs::read_to_string(&log).unwrap();
        let sent: Vec<&str> = text.lines().filter(|l| l.starts_with("position")).collect();
        assert_eq!(
            sent,
            [
                "position startpos",
                "position startpos moves e2e4 e7e5",
                "position fen rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
            ]
        );
        assert!(
            text.starts_with("uci\nisready\nucinewgame\nisready\n"),
            "{text}"
        );
        assert!(text.contains("go nodes 5\n"), "{text}");
    }

    #[test]
    fn a_game_from_a_book_position_is_sent_as_that_position_plus_moves() {
        let g = load_game(std::path::Path::new("games/chess.zrf"), &VariantSel::First).unwrap();
        let e = Engine::new(&g);
        let n = notation::ChessNotation::of(&g).unwrap();
        let fen = "r3k2r/pppq1ppp/2npbn2/2b1p3/2B1P3/2NPBN2/PPPQ1PPP/R3K2R w Kq - 0 8";
        let text = crate::tournament::openings::fen_to_position(&g, fen).unwrap();
        let s0 = crate::engine::position::parse(&g, &text).unwrap();
        let (log, mut bot) = logging_engine("book", &["e1g1", "e8c8"]);
        bot.start_position(&s0);
        let mut rng = game_rng(1, 0);
        let moves = e.legal_moves(&s0).unwrap();
        let i = bot.choose(&e, &s0, &moves, &[], &mut rng).unwrap();
        let s1 = e.apply(&s0, &moves[i]);
        let moves = e.legal_moves(&s1).unwrap();
        let j = bot.choose(&e, &s1, &moves, &[s0.key()], &mut rng).unwrap();
        assert_eq!(n.move_name(&s1, &moves[j]).as_deref(), Some("e8c8"));
        drop(bot);
        let text = std::fs::read_to_string(&log).unwrap();
        let sent: Vec<&str> = text.lines().filter(|l| l.starts_with("position")).collect();
        assert_eq!(
            sent,
            [
                format!("position fen {fen}"),
                format!("position fen {fen} moves e1g1")
            ]
        );
    }
}
