//! The external bot: a process, written in any language, that reads one JSON request per line on its standard
//! input and answers one JSON line on its standard output (`docs/bot-protocol.md`). Moves and states have the
//! shapes of `dagaz session` ([`move_json`], [`state_json`]).
//!
//! A process that cannot be started, exits, or closes its output is [`BotError::Crashed`]; one that does not
//! answer within its time limit is [`BotError::Timeout`]; an answer that is not JSON or names no legal move is
//! [`BotError::Illegal`]. After any of these the process is killed and started anew at the next request, so a
//! tournament records the game as lost (`bot-error`) and goes on. Its standard error is kept (the last lines)
//! for the error message.

use super::{Bot, BotError};
use crate::engine::{Engine, Move, State};
use crate::session::{move_json, state_json};
use rand_chacha::ChaCha8Rng;
use rand_core::RngCore;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The protocol version sent in every request.
pub const PROTOCOL: u32 = 1;
/// Lines of standard error kept for error messages.
const STDERR_LINES: usize = 20;

/// The settings of an external bot (the keys of its preset).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ExternalConfig {
    pub name: Option<String>,
    /// The program and its arguments, split at whitespace (`python3 bots/examples/random_bot.py`).
    pub command: String,
    /// More arguments, passed as they are (for arguments with spaces).
    pub args: Vec<String>,
    /// The working directory of the process (default: the runner's).
    pub dir: Option<String>,
    /// Time allowed for each answer, in milliseconds.
    pub time_ms: u64,
    /// Extra time for the first answer of a newly started process (interpreters start slowly).
    pub startup_ms: u64,
}

impl Default for ExternalConfig {
    fn default() -> Self {
        ExternalConfig {
            name: None,
            command: String::new(),
            args: vec![],
            dir: None,
            time_ms: 10_000,
            startup_ms: 2_000,
        }
    }
}

/// A running bot process.
struct Process {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    stderr: Arc<Mutex<VecDeque<String>>>,
    /// No request answered yet: the startup time is added to the limit.
    fresh: bool,
}

impl Process {
    fn kill(mut self) {
        kill_tree(&mut self.child);
        let _ = self.child.wait();
    }

    /// The exit status (after waiting a little for it) and the last lines of standard error.
    fn post_mortem(mut self) -> String {
        let mut status = None;
        for _ in 0..50 {
            if let Ok(Some(s)) = self.child.try_wait() {
                status = Some(s);
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let status = match status {
            Some(s) => s.to_string(),
            None => {
                kill_tree(&mut self.child);
                self.child.wait().ok();
                "closed its output".into()
            }
        };
        let tail: Vec<String> = self.stderr.lock().unwrap().iter().cloned().collect();
        if tail.is_empty() {
            status
        } else {
            format!("{status}; its last error output:\n{}", tail.join("\n"))
        }
    }
}

/// A bot that asks a process.
pub struct ExternalBot {
    name: String,
    config: ExternalConfig,
    process: Option<Process>,
    /// Processes started so far (the first, then one after each failure).
    pub starts: u32,
}

impl ExternalBot {
    pub fn new(name: impl Into<String>, config: ExternalConfig) -> Result<Self, String> {
        if config.command.split_whitespace().next().is_none() {
            return Err(
                "an external bot needs a `command` (e.g. `python3 bots/examples/random_bot.py`)"
                    .into(),
            );
        }
        Ok(ExternalBot {
            name: name.into(),
            config,
            process: None,
            starts: 0,
        })
    }

    fn command_line(&self) -> String {
        let mut s = self.config.command.clone();
        for a in &self.config.args {
            s.push(' ');
            s.push_str(a);
        }
        s
    }

    fn spawn(&mut self) -> Result<Process, BotError> {
        let mut words = self.config.command.split_whitespace();
        let program = words.next().unwrap_or_default();
        let mut cmd = Command::new(program);
        cmd.args(words)
            .args(&self.config.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(d) = &self.config.dir {
            cmd.current_dir(d);
        }
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        self.starts += 1;
        let mut child = cmd.spawn().map_err(|e| {
            BotError::Crashed(format!("cannot start `{}`: {e}", self.command_line()))
        })?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let stderr = child.stderr.take().expect("piped stderr");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(l) = line else { break };
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        let tail = Arc::new(Mutex::new(VecDeque::new()));
        let t = tail.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(l) = line else { break };
                let mut q = t.lock().unwrap();
                if q.len() == STDERR_LINES {
                    q.pop_front();
                }
                q.push_back(l);
            }
        });
        Ok(Process {
            child,
            stdin,
            lines,
            stderr: tail,
            fresh: true,
        })
    }

    /// The request for one move.
    fn request(&self, engine: &Engine, state: &State, moves: &[Move], seed: u64) -> Value {
        let g = engine.game;
        json!({
            "type": "move",
            "protocol": PROTOCOL,
            "game": g.title,
            "players": g.players.iter().map(|p| p.name.clone()).collect::<Vec<_>>(),
            "player": g.players[engine.to_move(state).idx()].name,
            "time_ms": self.config.time_ms,
            "seed": seed,
            "state": state_json(g, state),
            "moves": moves.iter().zip(Move::notations(g, moves)).enumerate().map(|(i, (m, n))| move_json(g, i, m, &n)).collect::<Vec<_>>(),
        })
    }

    /// Reads the answer's move index.
    fn parse(engine: &Engine, moves: &[Move], line: &str) -> Result<usize, String> {
        let v: Value =
            serde_json::from_str(line).map_err(|e| format!("`{}` is not JSON: {e}", clip(line)))?;
        if let Some(id) = v.get("id") {
            let id = id
                .as_u64()
                .ok_or_else(|| format!("`id` must be a number: `{}`", clip(line)))?;
            return if (id as usize) < moves.len() {
                Ok(id as usize)
            } else {
                Err(format!("no move with id {id}; there are {}", moves.len()))
            };
        }
        if let Some(n) = v.get("move") {
            let n = n
                .as_str()
                .ok_or_else(|| format!("`move` must be a string: `{}`", clip(line)))?;
            let names = Move::notations(engine.game, moves);
            let found: Vec<usize> = (0..moves.len()).filter(|&i| names[i] == n).collect();
            return match found.as_slice() {
                [one] => Ok(*one),
                [] => Err(format!("`{n}` is not a legal move")),
                _ => Err(format!("`{n}` names {} moves; answer an id", found.len())),
            };
        }
        Err(format!(
            "the answer has neither `id` nor `move`: `{}`",
            clip(line)
        ))
    }
}

/// Kills the process and, on Unix, every process it started (the bot runs in a process group of its own, so
/// a bot started through a shell script does not leave the real bot running).
fn kill_tree(child: &mut Child) {
    #[cfg(unix)]
    {
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{}", child.id())])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }
    let _ = child.kill();
}

fn clip(s: &str) -> String {
    if s.chars().count() > 200 {
        s.chars().take(200).collect::<String>() + "..."
    } else {
        s.to_string()
    }
}

impl Bot for ExternalBot {
    fn name(&self) -> &str {
        &self.name
    }

    fn choose(
        &mut self,
        engine: &Engine,
        state: &State,
        moves: &[Move],
        _history: &[u64],
        rng: &mut ChaCha8Rng,
    ) -> Result<usize, BotError> {
        super::check_moves(moves)?;
        let seed = rng.next_u64();
        let request = self.request(engine, state, moves, seed);
        let mut p = match self.process.take() {
            Some(p) => p,
            None => self.spawn()?,
        };
        // Lines left over from an earlier request are not answers to this one.
        loop {
            match p.lines.try_recv() {
                Ok(_) => continue,
                Err(mpsc::TryRecvError::Empty) => break,
                Err(mpsc::TryRecvError::Disconnected) => {
                    return Err(BotError::Crashed(p.post_mortem()));
                }
            }
        }
        if writeln!(p.stdin, "{request}")
            .and_then(|_| p.stdin.flush())
            .is_err()
        {
            return Err(BotError::Crashed(p.post_mortem()));
        }
        let mut limit = self.config.time_ms;
        if p.fresh {
            limit += self.config.startup_ms;
        }
        let deadline = std::time::Instant::now() + Duration::from_millis(limit);
        let line = loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            match p.lines.recv_timeout(left) {
                Ok(l) if l.trim().is_empty() => continue,
                Ok(l) => break l,
                Err(RecvTimeoutError::Timeout) => {
                    p.kill();
                    return Err(BotError::Timeout(format!(
                        "no answer within {limit} ms from `{}`",
                        self.command_line()
                    )));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(BotError::Crashed(p.post_mortem()));
                }
            }
        };
        match Self::parse(engine, moves, &line) {
            Ok(i) => {
                p.fresh = false;
                self.process = Some(p);
                Ok(i)
            }
            Err(e) => {
                p.kill();
                Err(BotError::Illegal(e))
            }
        }
    }

    fn reset(&mut self) {
        if let Some(p) = &mut self.process {
            let ok = writeln!(
                p.stdin,
                "{}",
                json!({"type": "new-game", "protocol": PROTOCOL})
            )
            .and_then(|_| p.stdin.flush());
            if ok.is_err() {
                if let Some(p) = self.process.take() {
                    p.kill();
                }
            }
        }
    }
}

impl Drop for ExternalBot {
    fn drop(&mut self) {
        if let Some(mut p) = self.process.take() {
            let _ = writeln!(p.stdin, "{}", json!({"type": "quit"}));
            let _ = p.stdin.flush();
            for _ in 0..20 {
                if let Ok(Some(_)) = p.child.try_wait() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            p.kill();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::testgames::bare_game;
    use crate::engine::playout::game_rng;
    use std::path::PathBuf;

    /// A python script that misbehaves (`bad`) in its first process only, then plays move 1: the counter file
    /// beside it counts the processes started.
    fn script(tag: &str, bad: &str) -> (PathBuf, ExternalConfig) {
        let dir = std::env::temp_dir().join(format!("dagaz-bot-{}-{tag}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("bot.py");
        let text = format!(
            r#"import json, os, sys, time
counter = os.path.join(os.path.dirname(os.path.abspath(__file__)), "starts")
n = int(open(counter).read()) if os.path.exists(counter) else 0
open(counter, "w").write(str(n + 1))
for line in sys.stdin:
    req = json.loads(line)
    if req.get("type") != "move":
        continue
    if n == 0:
{bad}
    print(json.dumps({{"id": 1}}), flush=True)
"#
        );
        std::fs::write(&path, text).unwrap();
        let _ = std::fs::remove_file(dir.join("starts"));
        let config = ExternalConfig {
            command: format!("python3 {}", path.display()),
            time_ms: 300,
            startup_ms: 1500,
            ..Default::default()
        };
        (dir, config)
    }

    fn ask(bot: &mut ExternalBot, seed: u64) -> Result<usize, BotError> {
        let game = bare_game();
        let engine = Engine::new(&game);
        let s = engine.initial();
        let moves = vec![Move::default(); 3];
        bot.choose(&engine, &s, &moves, &[], &mut game_rng(seed, 0))
    }

    fn fails_then_recovers(tag: &str, bad: &str, check: impl Fn(&BotError) -> bool) {
        let (dir, config) = script(tag, bad);
        let mut bot = ExternalBot::new("ext", config).unwrap();
        let e = ask(&mut bot, 1).unwrap_err();
        assert!(check(&e), "{tag}: {e}");
        assert_eq!(
            ask(&mut bot, 2),
            Ok(1),
            "{tag}: the restarted process answers"
        );
        assert_eq!(ask(&mut bot, 3), Ok(1), "{tag}: and keeps answering");
        assert_eq!(bot.starts, 2);
        std::fs::remove_dir_all(dir).ok();
    }

    #[test]
    fn nonsense_is_illegal() {
        fails_then_recovers(
            "nonsense",
            "        print('e2e4 please', flush=True); continue",
            |e| matches!(e, BotError::Illegal(m) if m.contains("not JSON")),
        );
    }

    #[test]
    fn a_move_id_out_of_range_is_illegal() {
        fails_then_recovers(
            "range",
            "        print(json.dumps({'id': 7}), flush=True); continue",
            |e| matches!(e, BotError::Illegal(m) if m.contains("no move with id 7")),
        );
    }

    #[test]
    fn sleeping_is_a_timeout() {
        let t = std::time::Instant::now();
        fails_then_recovers("sleep", "        time.sleep(30)", |e| {
            matches!(e, BotError::Timeout(_))
        });
        assert!(t.elapsed() < Duration::from_secs(10));
    }

    #[test]
    fn exiting_is_a_crash_with_its_error_output() {
        fails_then_recovers(
            "exit",
            "        sys.stderr.write('out of cheese\\n'); sys.exit(3)",
            |e| matches!(e, BotError::Crashed(m) if m.contains("out of cheese") && m.contains('3')),
        );
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_timeout_kills_what_the_bot_started_too() {
        let dir = std::env::temp_dir().join(format!("dagaz-bot-{}-tree", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let pidfile = dir.join("pid");
        std::fs::write(
            dir.join("bot.py"),
            format!(
                "import os, time\nopen({:?}, 'w').write(str(os.getpid()))\ntime.sleep(60)\n",
                pidfile.display().to_string()
            ),
        )
        .unwrap();
        // A shell that starts python (not `exec`): python is a grandchild of the runner.
        std::fs::write(
            dir.join("bot.sh"),
            "python3 \"$(dirname \"$0\")/bot.py\"\necho done\n",
        )
        .unwrap();
        let mut bot = ExternalBot::new(
            "ext",
            ExternalConfig {
                command: format!("sh {}", dir.join("bot.sh").display()),
                time_ms: 300,
                startup_ms: 700,
                ..Default::default()
            },
        )
        .unwrap();
        assert!(matches!(ask(&mut bot, 1), Err(BotError::Timeout(_))));
        let pid = std::fs::read_to_string(&pidfile).unwrap();
        std::thread::sleep(Duration::from_millis(100));
        let alive =
            std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| !s.contains(") Z "));
        assert!(!alive, "the bot's own child {pid} is still running");
        std::fs::remove_dir_all(dir).ok();
    }

    #[test]
    fn a_missing_program_is_a_crash() {
        let mut bot = ExternalBot::new(
            "ext",
            ExternalConfig {
                command: "/nonexistent/dagaz-bot".into(),
                ..Default::default()
            },
        )
        .unwrap();
        assert!(
            matches!(ask(&mut bot, 1), Err(BotError::Crashed(m)) if m.contains("cannot start"))
        );
        assert!(ExternalBot::new("ext", ExternalConfig::default()).is_err());
    }

    #[test]
    fn the_example_bot_plays_and_is_reproducible() {
        let config = ExternalConfig {
            command: "python3 bots/examples/random_bot.py".into(),
            ..Default::default()
        };
        let mut bot = ExternalBot::new("ext", config).unwrap();
        let a: Vec<usize> = (0..10).map(|i| ask(&mut bot, i).unwrap()).collect();
        bot.reset();
        let b: Vec<usize> = (0..10).map(|i| ask(&mut bot, i).unwrap()).collect();
        assert_eq!(a, b, "the example bot draws from the request's seed");
        assert!(a.iter().all(|&i| i < 3));
        assert!(a.iter().any(|&i| i != a[0]), "{a:?}");
        assert_eq!(bot.starts, 1);
    }
}
