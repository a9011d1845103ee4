//! The external bot: a process, written in any language, that reads one JSON request per line on its standard
//! input and answers one JSON line on its standard output (`docs/bot-protocol.md`). Moves and states have the
//! shapes of `dagaz session` ([`move_json`], [`state_json`]).
//!
//! A process that cannot be started, exits, or closes its output is [`BotError::Crashed`]; one that does not
//! answer within its time limit is [`BotError::Timeout`]; an answer that is not JSON or names no legal move is
//! [`BotError::Illegal`]. After any of these the process is killed and started anew at the next request, so a
//! tournament records the game as lost (`bot-error`) and goes on. Its standard error is kept (the last lines)
//! for the error message.
//!
//! Requests are written by a thread of the process's own, so that a bot that does not read its input (a
//! request larger than the pipe holds) cannot block the game: its time budget runs from the moment the request
//! is handed over, and it loses on time like a bot that does not answer. A write that fails (the bot closed
//! its input) is reported at once as a crash. The `dagaz` binary ignores SIGPIPE, so such a write is an error,
//! not the end of the runner.

use super::{Bot, BotError};
use crate::engine::{Engine, Move, State};
use crate::session::{move_json, state_json};
use rand_chacha::ChaCha8Rng;
use rand_core::RngCore;
use serde_json::{json, Value};
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::mpsc::TrySendError;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The protocol version sent in every request.
pub const PROTOCOL: u32 = 1;
/// Lines of standard error kept for error messages.
const STDERR_LINES: usize = 20;
/// The longest answer line read, in bytes: an answer names one move, so anything longer is an illegal
/// answer, given up on as soon as this many bytes have come without a newline (the runner's memory stays
/// bounded whatever the bot writes).
pub const MAX_ANSWER_BYTES: usize = 64 * 1024;
/// The longest standard-error line kept (longer ones are cut).
const MAX_STDERR_LINE: usize = 1024;
/// Lines read ahead of the runner: a bot that writes without pause blocks on its pipe beyond this.
const LINES_AHEAD: usize = 16;

/// What the reader thread hands over from the bot's standard output.
pub(crate) enum Output {
    /// One line, without its newline (not yet checked to be UTF-8).
    Line(Vec<u8>),
    /// More than [`MAX_ANSWER_BYTES`] without a newline; nothing more is read.
    TooLong,
}

/// Requests handed to the writer thread and not yet written: one move request, a `new-game` and a `quit`
/// at most are ever outstanding for a bot that reads.
const WRITES_AHEAD: usize = 4;

/// How long a protocol adapter's line may wait for room among the [`WRITES_AHEAD`] unread ones (a handshake
/// sends several lines at once; an engine that reads drains them at once).
const ENGINE_WRITE_WAIT: Duration = Duration::from_secs(5);

/// How often a bot waited on is checked for a failed write.
const WRITE_CHECK: Duration = Duration::from_millis(20);

/// Writes each request handed over to the bot's standard input, on a thread of its own; the first failure is
/// sent to `failed` (the bot closed its input) and ends the thread. It ends too when the process is dropped
/// (the channel closes) or killed (the write fails).
fn write_requests(mut stdin: ChildStdin, requests: Receiver<Vec<u8>>, failed: SyncSender<String>) {
    for r in requests {
        if let Err(e) = stdin.write_all(&r).and_then(|_| stdin.flush()) {
            let _ = failed.try_send(e.to_string());
            return;
        }
    }
}

/// Declares the settings of a bot that runs a program (the keys of its preset), as the external bot and the
/// engine protocols (`uci`, `gtp`, `xboard`) have them: first the keys they all share, then the bot's own, each
/// with its default. The shared keys:
/// * `name`;
/// * the clock, kept by the tournament (see `tournament::clock`): `tc` (`tc=40/60+0.6`, moves/seconds+increment),
///   `st` (a fixed time per move, in seconds), `timemargin` (how far past its clock the bot may answer before
///   its flag falls, in milliseconds);
/// * the program: `command` (the program and its arguments, split at whitespace), `args` (more arguments,
///   passed as they are, for arguments with spaces), `dir` (its working directory, default the runner's);
/// * `time_ms`, the time allowed for one answer before the program is taken to hang, and `startup_ms`, the
///   time allowed for its start (an engine's handshake, a plain bot's first answer), in milliseconds; their
///   defaults are given first, as `time_ms: T, startup_ms: S,`.
///
/// It also writes `Default` and `check_program` (the shared keys' checks). One declaration, so that a key
/// every program bot has is spelled, documented and checked once (serde's `flatten` cannot be used with
/// `deny_unknown_fields`).
macro_rules! program_config {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            time_ms: $time_ms:expr,
            startup_ms: $startup_ms:expr,
            $( $(#[$fmeta:meta])* pub $field:ident: $ty:ty = $default:expr, )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
        #[serde(deny_unknown_fields, default)]
        pub struct $name {
            pub name: Option<String>,
            /// A clock (`tc=40/60+0.6`, moves/seconds+increment), kept by the tournament.
            #[serde(skip_serializing_if = "Option::is_none")]
            pub tc: Option<String>,
            /// A fixed time per move, in seconds.
            #[serde(skip_serializing_if = "Option::is_none")]
            pub st: Option<f64>,
            /// How far past its clock the bot may answer before its flag falls, in milliseconds.
            #[serde(skip_serializing_if = "Option::is_none")]
            pub timemargin: Option<u64>,
            /// The program and its arguments, split at whitespace.
            pub command: String,
            /// More arguments, passed as they are (for arguments with spaces).
            pub args: Vec<String>,
            /// The working directory of the program (default: the runner's).
            pub dir: Option<String>,
            $( $(#[$fmeta])* pub $field: $ty, )*
            /// Time allowed for one answer before the program is taken to hang, in milliseconds.
            pub time_ms: u64,
            /// Time allowed for the program's start (an engine's handshake, a bot's first answer), in
            /// milliseconds.
            pub startup_ms: u64,
        }

        impl Default for $name {
            fn default() -> Self {
                $name {
                    name: None,
                    tc: None,
                    st: None,
                    timemargin: None,
                    command: String::new(),
                    args: vec![],
                    dir: None,
                    $( $field: $default, )*
                    time_ms: $time_ms,
                    startup_ms: $startup_ms,
                }
            }
        }

        impl $name {
            /// The shared keys' checks: a `command` (else `no_command`, which says how to give one), and
            /// answer and start-up times of at least 1 ms.
            #[allow(dead_code)]
            pub(crate) fn check_program(&self, no_command: &str) -> Result<(), String> {
                if self.command.split_whitespace().next().is_none() {
                    return Err(no_command.to_string());
                }
                if self.time_ms == 0 || self.startup_ms == 0 {
                    return Err("`time_ms` and `startup_ms` must be at least 1".into());
                }
                Ok(())
            }

            /// The program's settings as an external bot's, for the connection to it.
            #[allow(dead_code)]
            pub(crate) fn external(&self) -> crate::bot::external::ExternalConfig {
                crate::bot::external::ExternalConfig {
                    name: self.name.clone(),
                    command: self.command.clone(),
                    args: self.args.clone(),
                    dir: self.dir.clone(),
                    ..Default::default()
                }
            }
        }
    };
}
pub(crate) use program_config;

program_config! {
    /// The settings of an external bot (the keys of its preset), e.g. `command = "python3
    /// bots/examples/random_bot.py"`.
    pub struct ExternalConfig {
        time_ms: 10_000,
        startup_ms: 2_000,
    }
}

/// A move request's `clock`: per player name the milliseconds left (players with a time control) and the
/// increment, the mover's moves to the next time control, its fixed time per move, and the longest the move
/// may take before its flag falls.
fn clock_json(g: &crate::compile::Game, c: &super::ClockView) -> Value {
    let mut left = serde_json::Map::new();
    let mut inc = serde_json::Map::new();
    for (p, info) in g.players.iter().enumerate() {
        if let Some(t) = c.left_ms.get(p).copied().flatten() {
            left.insert(info.name.clone(), json!(t));
            inc.insert(info.name.clone(), json!(c.inc_ms[p]));
        }
    }
    json!({
        "left_ms": left,
        "inc_ms": inc,
        "moves_to_go": c.moves_to_go,
        "st_ms": c.st_ms,
        "allowed_ms": c.allowed_ms,
    })
}

/// A running bot process.
pub(crate) struct Process {
    child: Child,
    /// The value of [`TOKEN_VAR`] in its environment, which its descendants inherit.
    token: String,
    /// To the writer thread ([`write_requests`]), and its failure.
    stdin: SyncSender<Vec<u8>>,
    write_failed: Receiver<String>,
    lines: Receiver<Output>,
    stderr: Arc<Mutex<VecDeque<String>>>,
    /// No request answered yet: the startup time is added to the limit.
    fresh: bool,
}

impl Process {
    pub(crate) fn kill(mut self) {
        kill_tree(&mut self.child);
        // Forgotten before it is reaped: once reaped, its id may name a new bot's process.
        forget(self.child.id());
        let _ = self.child.wait();
        // What left its process group (`setsid`) goes too.
        sweep_token(&self.token);
    }

    /// The exit status (after waiting a little for it) and the last lines of standard error.
    pub(crate) fn post_mortem(mut self) -> String {
        // Polled without reaping, so that its id still names its group when the group is killed.
        let mut gone = false;
        for _ in 0..50 {
            if exited(&self.child) {
                gone = true;
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        // Whatever it started goes with it.
        kill_tree(&mut self.child);
        forget(self.child.id());
        let waited = self.child.wait();
        sweep_token(&self.token);
        let status = match waited {
            Ok(s) if gone => s.to_string(),
            _ => "closed its output".into(),
        };
        let tail: Vec<String> = self
            .stderr
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .cloned()
            .collect();
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
    /// Move requests sent so far (each carries its number).
    requests: u64,
    /// Answers discarded: lines that came when no request was waiting, or that echo an earlier request's
    /// number.
    unasked: u64,
    /// The clocks for the next move ([`Bot::set_clock`]), sent in the request.
    clock: Option<super::ClockView>,
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
            requests: 0,
            unasked: 0,
            clock: None,
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

    pub(crate) fn spawn(&mut self) -> Result<Process, BotError> {
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
        let token = new_token();
        cmd.env(TOKEN_VAR, &token);
        self.starts += 1;
        let mut child = {
            // Registered under the lock, so that `kill_scope` cannot run between the start and the record.
            let mut live = live_groups();
            let child = cmd.spawn().map_err(|e| {
                BotError::Crashed(format!("cannot start `{}`: {e}", self.command_line()))
            })?;
            live.push((child.id(), SCOPE.with(|s| s.get()), token.clone()));
            remember_for_signals(child.id());
            child
        };
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let stderr = child.stderr.take().expect("piped stderr");
        let (tx, lines) = mpsc::sync_channel(LINES_AHEAD);
        let (requests, to_write) = mpsc::sync_channel(WRITES_AHEAD);
        let (failed, write_failed) = mpsc::sync_channel(1);
        std::thread::spawn(move || write_requests(stdin, to_write, failed));
        std::thread::spawn(move || read_lines(stdout, tx));
        let tail = Arc::new(Mutex::new(VecDeque::new()));
        let t = tail.clone();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stderr);
            while let Ok(Some((line, complete))) = read_line_capped(&mut r, MAX_STDERR_LINE) {
                let mut q = t.lock().unwrap_or_else(|e| e.into_inner());
                if q.len() == STDERR_LINES {
                    q.pop_front();
                }
                let mut l = String::from_utf8_lossy(&line).into_owned();
                if !complete {
                    l.push_str("...");
                }
                q.push_back(l);
            }
        });
        Ok(Process {
            child,
            token,
            stdin: requests,
            write_failed,
            lines,
            stderr: tail,
            fresh: true,
        })
    }

    /// The request for one move.
    fn request(
        &self,
        engine: &Engine,
        state: &State,
        moves: &[Move],
        seed: u64,
        number: u64,
    ) -> Value {
        let g = engine.game;
        json!({
            "type": "move",
            "protocol": PROTOCOL,
            "request": number,
            "game": g.title,
            "players": g.players.iter().map(|p| p.name.clone()).collect::<Vec<_>>(),
            "player": g.players[engine.to_move(state).idx()].name,
            "time_ms": self.config.time_ms,
            "seed": seed,
            "state": state_json(g, state),
            "moves": moves.iter().zip(Move::notations(g, moves)).enumerate().map(|(i, (m, n))| move_json(g, i, m, &n)).collect::<Vec<_>>(),
        })
    }

    /// Reads the answer's move index; `Ok(None)` for an answer to an earlier request (it echoes another
    /// request number).
    fn parse(
        engine: &Engine,
        moves: &[Move],
        line: &str,
        number: u64,
    ) -> Result<Option<usize>, String> {
        let v: Value =
            serde_json::from_str(line).map_err(|e| format!("`{}` is not JSON: {e}", clip(line)))?;
        if let Some(r) = v.get("request").filter(|r| !r.is_null()) {
            let r = r
                .as_u64()
                .ok_or_else(|| format!("`request` must be a number: `{}`", clip(line)))?;
            if r != number {
                return Ok(None);
            }
        }
        Self::parse_move(engine, moves, &v, line).map(Some)
    }

    fn parse_move(engine: &Engine, moves: &[Move], v: &Value, line: &str) -> Result<usize, String> {
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

/// Reads the bot's standard output line by line into `tx`, each line capped at [`MAX_ANSWER_BYTES`]: past
/// the cap it sends [`Output::TooLong`] and stops reading (the process is then killed).
fn read_lines(stdout: impl Read, tx: SyncSender<Output>) {
    let mut r = BufReader::new(stdout);
    loop {
        match read_line_capped(&mut r, MAX_ANSWER_BYTES) {
            Ok(Some((line, true))) => {
                if tx.send(Output::Line(line)).is_err() {
                    return;
                }
            }
            Ok(Some((line, false))) if line.len() >= MAX_ANSWER_BYTES => {
                let _ = tx.send(Output::TooLong);
                return;
            }
            // The last line, cut by the end of the output: still an answer.
            Ok(Some((line, false))) => {
                let _ = tx.send(Output::Line(line));
                return;
            }
            Ok(None) | Err(_) => return,
        }
    }
}

/// One line of at most `cap` bytes, and whether it ended with a newline. A line longer than `cap` is cut
/// there (`false`, exactly `cap` bytes); the end of the input gives what came before it (`false`), or
/// `None` if nothing did.
fn read_line_capped(r: &mut impl BufRead, cap: usize) -> std::io::Result<Option<(Vec<u8>, bool)>> {
    let mut line = Vec::new();
    loop {
        let buf = match r.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok((!line.is_empty()).then_some((line, false)));
        }
        let room = cap - line.len();
        match buf.iter().take(room).position(|&b| b == b'\n') {
            Some(i) => {
                line.extend_from_slice(&buf[..i]);
                r.consume(i + 1);
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                return Ok(Some((line, true)));
            }
            None => {
                let n = buf.len().min(room);
                line.extend_from_slice(&buf[..n]);
                r.consume(n);
                if line.len() >= cap {
                    return Ok(Some((line, false)));
                }
            }
        }
    }
}

/// The process groups of bot processes started and not yet reaped, each with the scope (a tournament run)
/// of the thread that started it: [`kill_scope`] ends a run's when the run ends, even those of games whose
/// thread was abandoned.
fn live_groups() -> std::sync::MutexGuard<'static, Vec<(u32, u64, String)>> {
    static LIVE: Mutex<Vec<(u32, u64, String)>> = Mutex::new(Vec::new());
    LIVE.lock().unwrap_or_else(|e| e.into_inner())
}

thread_local! {
    static SCOPE: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Names the scope of the bot processes this thread starts from now on (0: none).
pub fn set_scope(scope: u64) {
    SCOPE.with(|s| s.set(scope));
}

/// A scope number not used before in this process.
pub fn new_scope() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// Drops a process about to be reaped from the live list.
fn forget(pid: u32) {
    live_groups().retain(|(p, _, _)| *p != pid);
    if let Ok(pid) = i32::try_from(pid) {
        for slot in &SIGNAL_SLOTS {
            if slot
                .compare_exchange(pid, 0, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
            {
                break;
            }
        }
    }
}

/// The live bot processes again, where a signal handler can read them without a lock (the first 512; the
/// rest are ended by the normal paths only).
static SIGNAL_SLOTS: [AtomicI32; 512] = [const { AtomicI32::new(0) }; 512];

fn remember_for_signals(pid: u32) {
    let Ok(pid) = i32::try_from(pid) else { return };
    for slot in &SIGNAL_SLOTS {
        if slot
            .compare_exchange(0, pid, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok()
        {
            return;
        }
    }
}

/// Makes SIGINT, SIGTERM and SIGHUP kill every live bot's process group before the runner dies of them, so
/// that a run stopped with Ctrl-C or `kill` leaves no bot behind (SIGKILL cannot be caught: a bot then sees
/// its input close).
pub fn kill_bots_on_signals() {
    #[cfg(unix)]
    {
        extern "C" fn on_signal(sig: libc::c_int) {
            // write(2) is safe in a handler; the note was set before the handler was installed.
            if let Some(note) = INTERRUPT_NOTE.get() {
                unsafe {
                    libc::write(2, note.as_ptr() as *const libc::c_void, note.len());
                }
            }
            for slot in &SIGNAL_SLOTS {
                let pid = slot.load(Ordering::SeqCst);
                if pid > 0 {
                    // SAFETY: kill, signal and raise are async-signal-safe.
                    unsafe {
                        libc::kill(-pid, libc::SIGKILL);
                    }
                }
            }
            unsafe {
                libc::signal(sig, libc::SIG_DFL);
                libc::raise(sig);
            }
        }
        for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
            // SAFETY: installs a handler that only makes async-signal-safe calls.
            unsafe {
                libc::signal(sig, on_signal as *const () as libc::sighandler_t);
            }
        }
    }
}

/// Kills the process group of every bot process of `scope` still running (the end of a tournament run).
/// The leaders are not reaped yet, so their ids (the groups' ids) cannot have been reused.
/// What standard error says when a signal (Ctrl-C) ends the process, e.g. how to finish the run.
static INTERRUPT_NOTE: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();

/// Sets the note written when a signal ends the process (once; call before [`kill_bots_on_signals`]).
pub fn set_interrupt_note(note: &str) {
    let _ = INTERRUPT_NOTE.set(note.as_bytes().to_vec());
}

pub fn kill_scope(scope: u64) {
    let tokens: Vec<String> = {
        let live = live_groups();
        for (pid, s, _) in live.iter() {
            if *s == scope {
                kill_group(*pid);
            }
        }
        live.iter()
            .filter(|(_, s, _)| *s == scope)
            .map(|(_, _, t)| t.clone())
            .collect()
    };
    for t in &tokens {
        sweep_token(t);
    }
    if SUBREAPER.load(Ordering::SeqCst) {
        // The binary's run: every process left with us as its parent came from a bot (only bots are started).
        sweep(|ours, _| ours);
    }
}

/// The environment variable that marks a bot process and, by inheritance, everything it starts: a value per
/// process started (`new_token`). A descendant that left the bot's process group (`setsid`) is found by it.
pub const TOKEN_VAR: &str = "DAGAZ_BOT_TOKEN";

fn new_token() -> String {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    format!(
        "{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    )
}

/// Set once this process is the subreaper of what its bots start ([`become_subreaper`]).
static SUBREAPER: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Makes this process the parent of every orphan its bots leave (Linux: `PR_SET_CHILD_SUBREAPER`), so that
/// the end of a run can find and end them even if they changed their environment. For the `dagaz` binary,
/// whose only children are bots: a library caller's other children would be taken for bots' at the end of a
/// run.
pub fn become_subreaper() {
    #[cfg(target_os = "linux")]
    unsafe {
        if libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0 {
            SUBREAPER.store(true, Ordering::SeqCst);
        }
    }
}

/// Ends every process (but a live bot) whose environment carries this bot's token: what the bot started,
/// wherever it went.
fn sweep_token(token: &str) {
    let mut want = format!("{TOKEN_VAR}={token}").into_bytes();
    want.push(0);
    sweep(|_, env| env.windows(want.len()).any(|w| w == want.as_slice()));
}

/// Kills the processes `hit(ours, environment)` picks (`ours`: this process is its parent), other than live bots (their own paths end them), and
/// reaps those that are our children, the killed ones and the zombies orphans left; again until none is
/// found (a killed process's children are found in the next round).
fn sweep(hit: impl Fn(bool, &[u8]) -> bool) {
    #[cfg(target_os = "linux")]
    {
        let me = std::process::id() as i32;
        for _round in 0..16 {
            let live: Vec<u32> = live_groups().iter().map(|(p, _, _)| *p).collect();
            let Ok(dir) = std::fs::read_dir("/proc") else {
                return;
            };
            let mut found = false;
            for e in dir.flatten() {
                let Some(pid) = e.file_name().to_str().and_then(|s| s.parse::<i32>().ok()) else {
                    continue;
                };
                if pid == me || live.contains(&(pid as u32)) {
                    continue;
                }
                // State and parent: after the last `)` of `pid (comm) S ppid ...`.
                let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
                    continue;
                };
                let mut rest = stat
                    .rsplit_once(')')
                    .map_or("", |(_, r)| r)
                    .split_whitespace();
                let state = rest.next().unwrap_or("");
                let ours = rest.next().and_then(|p| p.parse::<i32>().ok()) == Some(me);
                if state == "Z" {
                    // A zombie's environment cannot be read, so it cannot be told a bot's: reap it only where
                    // every child is a bot's (the binary, our subreaper). In a library caller (a test binary
                    // running tournaments beside its own `Command`s) it belongs to whoever waits for it, and
                    // reaping it made that wait fail with ECHILD.
                    if ours && SUBREAPER.load(Ordering::SeqCst) {
                        unsafe {
                            libc::waitpid(pid, std::ptr::null_mut(), libc::WNOHANG);
                        }
                    }
                    continue;
                }
                // Unreadable (another user's, a kernel thread's, one just gone): not a bot's.
                let env = std::fs::read(format!("/proc/{pid}/environ")).unwrap_or_default();
                if !hit(ours, &env) {
                    continue;
                }
                found = true;
                unsafe {
                    libc::kill(pid, libc::SIGKILL);
                    if ours {
                        libc::waitpid(pid, std::ptr::null_mut(), 0);
                    }
                }
            }
            if !found {
                return;
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = hit;
}

/// Whether the child has exited, without reaping it.
fn exited(child: &Child) -> bool {
    #[cfg(unix)]
    {
        let Ok(pid) = libc::pid_t::try_from(child.id()) else {
            return true;
        };
        // SAFETY: a zeroed siginfo_t is valid; waitid only writes into it.
        unsafe {
            let mut info: libc::siginfo_t = std::mem::zeroed();
            let r = libc::waitid(
                libc::P_PID,
                pid as libc::id_t,
                &mut info,
                libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
            );
            r == 0 && info.si_pid() != 0
        }
    }
    #[cfg(not(unix))]
    {
        let _ = child;
        false
    }
}

fn kill_group(pid: u32) {
    #[cfg(unix)]
    if let Ok(pid) = i32::try_from(pid) {
        if pid > 0 {
            // SAFETY: kill(2) has no memory effects; a negative id names the process group.
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
            }
        }
    }
}

/// Kills the process and, on Unix, every process of its group (the bot runs in a process group of its own,
/// so a bot started through a shell script, or one that forked, does not leave anything running). Must be
/// called before the child is reaped.
fn kill_tree(child: &mut Child) {
    kill_group(child.id());
    let _ = child.kill();
}

/// A message as the line written to the bot.
fn line_of(v: &Value) -> Vec<u8> {
    let mut line = v.to_string().into_bytes();
    line.push(b'\n');
    line
}

/// The bot closed its standard input: a crash, with what the process says of itself.
fn input_closed(p: Process, error: &str) -> BotError {
    BotError::Crashed(format!(
        "closed its standard input ({error}); {}",
        p.post_mortem()
    ))
}

fn too_long() -> String {
    format!("an answer line longer than {MAX_ANSWER_BYTES} bytes")
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
        self.requests += 1;
        let number = self.requests;
        let mut request = self.request(engine, state, moves, seed, number);
        let clock = self.clock.take();
        if let Some(c) = &clock {
            request["clock"] = clock_json(engine.game, c);
            request["time_ms"] = json!(c.allowed_ms);
        }
        let mut p = match self.process.take() {
            Some(p) => p,
            None => self.spawn()?,
        };
        if let Ok(e) = p.write_failed.try_recv() {
            return Err(input_closed(p, &e));
        }
        // Lines that came since the last answer answer no request: discarded (and counted).
        loop {
            match p.lines.try_recv() {
                Ok(Output::Line(l)) => {
                    if !l.trim_ascii().is_empty() {
                        self.unasked += 1;
                    }
                }
                Ok(Output::TooLong) => {
                    p.kill();
                    return Err(BotError::Illegal(too_long()));
                }
                Err(mpsc::TryRecvError::Empty) => break,
                Err(mpsc::TryRecvError::Disconnected) => {
                    return Err(BotError::Crashed(p.post_mortem()));
                }
            }
        }
        // Handed to the writer thread: the clock runs whether or not the bot reads it.
        match p.stdin.try_send(line_of(&request)) {
            Ok(()) => {}
            // Earlier messages still unread: the bot does not read its input.
            Err(TrySendError::Full(_)) => {
                p.kill();
                return Err(BotError::Timeout(format!(
                    "`{}` does not read its input",
                    self.command_line()
                )));
            }
            Err(TrySendError::Disconnected(_)) => {
                return Err(BotError::Crashed(p.post_mortem()));
            }
        }
        let mut limit = match &clock {
            // On a clock: until a second past the flag.
            Some(c) => c.wait().as_millis() as u64,
            None => self.config.time_ms,
        };
        if p.fresh {
            limit += self.config.startup_ms;
        }
        let deadline = std::time::Instant::now() + Duration::from_millis(limit);
        loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            let bytes = match p.lines.recv_timeout(left.min(WRITE_CHECK)) {
                Ok(Output::Line(l)) if l.trim_ascii().is_empty() => continue,
                Ok(Output::Line(l)) => l,
                Ok(Output::TooLong) => {
                    p.kill();
                    return Err(BotError::Illegal(too_long()));
                }
                Err(RecvTimeoutError::Timeout) => {
                    if let Ok(e) = p.write_failed.try_recv() {
                        return Err(input_closed(p, &e));
                    }
                    if std::time::Instant::now() < deadline {
                        continue;
                    }
                    p.kill();
                    return Err(BotError::Timeout(format!(
                        "no answer within {limit} ms from `{}`",
                        self.command_line()
                    )));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(BotError::Crashed(p.post_mortem()));
                }
            };
            let parsed = match std::str::from_utf8(&bytes) {
                Ok(line) => Self::parse(engine, moves, line, number),
                Err(e) => Err(format!(
                    "the answer is not UTF-8 ({e}): `{}`",
                    clip(&String::from_utf8_lossy(&bytes))
                )),
            };
            match parsed {
                Ok(Some(i)) => {
                    p.fresh = false;
                    self.process = Some(p);
                    return Ok(i);
                }
                // An answer to an earlier request, come late: not this one's.
                Ok(None) => self.unasked += 1,
                Err(e) => {
                    p.kill();
                    return Err(BotError::Illegal(e));
                }
            }
        }
    }

    fn note(&self) -> Option<String> {
        let n = self.unasked;
        (n > 0).then(|| {
            format!(
                "{n} answer{} nobody asked for discarded",
                if n == 1 { "" } else { "s" }
            )
        })
    }

    fn set_clock(&mut self, clock: &super::ClockView) {
        self.clock = Some(clock.clone());
    }

    fn reset(&mut self) {
        if let Some(p) = &mut self.process {
            let ok = p
                .stdin
                .try_send(line_of(&json!({"type": "new-game", "protocol": PROTOCOL})));
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
        if let Some(p) = self.process.take() {
            let _ = p.stdin.try_send(line_of(&json!({"type": "quit"})));
            // A moment to exit on its own; then its whole group goes, whatever it left running (it is not
            // reaped before, so its id still names its group).
            for _ in 0..20 {
                if exited(&p.child) {
                    break;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            p.kill();
        }
    }
}

/// The process machinery as the protocol adapters (`super::protocol`: UCI, GTP) use it: the same start in a
/// process group of its own, the same capped line reader, the same ends.
impl Process {
    /// Starts the process of `config` (its command, arguments and folder; the time limits are the caller's).
    pub(crate) fn start(config: &ExternalConfig) -> Result<Process, BotError> {
        ExternalBot::new("", config.clone())
            .map_err(BotError::Crashed)?
            .spawn()
    }

    /// Hands one line to the process's writer thread ([`write_requests`]). An engine that has closed its input
    /// gives `BrokenPipe`; one that leaves [`WRITES_AHEAD`] lines unread for [`ENGINE_WRITE_WAIT`] gives
    /// `WouldBlock` (it does not read), so a deaf engine never blocks the game.
    pub(crate) fn write_line(&mut self, line: &str) -> std::io::Result<()> {
        use std::io::{Error, ErrorKind};
        if let Ok(e) = self.write_failed.try_recv() {
            return Err(Error::new(ErrorKind::BrokenPipe, e));
        }
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        let deadline = std::time::Instant::now() + ENGINE_WRITE_WAIT;
        loop {
            match self.stdin.try_send(bytes) {
                Ok(()) => return Ok(()),
                Err(TrySendError::Disconnected(_)) => {
                    return Err(Error::new(
                        ErrorKind::BrokenPipe,
                        "the engine's input is closed",
                    ))
                }
                Err(TrySendError::Full(b)) => {
                    if std::time::Instant::now() >= deadline {
                        return Err(Error::new(
                            ErrorKind::WouldBlock,
                            "the engine does not read its input",
                        ));
                    }
                    bytes = b;
                    std::thread::sleep(Duration::from_millis(1));
                }
            }
        }
    }

    /// The next line of standard output within `timeout`: `Ok(None)` for a line past [`MAX_ANSWER_BYTES`]
    /// (nothing more is read then).
    pub(crate) fn next_line(&self, timeout: Duration) -> Result<Option<Vec<u8>>, RecvTimeoutError> {
        match self.lines.recv_timeout(timeout)? {
            Output::Line(l) => Ok(Some(l)),
            Output::TooLong => Ok(None),
        }
    }

    /// Whether the process has exited (not reaped).
    pub(crate) fn has_exited(&self) -> bool {
        exited(&self.child)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::testgames::bare_game;
    use crate::engine::playout::game_rng;

    /// A python script that misbehaves (`bad`) in its first process only, then plays move 1: the counter file
    /// beside it counts the processes started.
    fn script(tag: &str, bad: &str) -> (crate::test_scratch::Scratch, ExternalConfig) {
        let dir = crate::test_scratch::Scratch::new(&format!("bot-{tag}"));
        let path = dir.join("bot.py");
        let text = format!(
            r#"import json, os, sys, time
counter = os.path.join(os.path.dirname(os.path.abspath(__file__)), "starts")
n = int(open(counter).read()) if os.path.exists(counter) else 0
open(counter, "w").write(str(n + 1))
k = 0
for line in sys.stdin:
    req = json.loads(line)
    if req.get("type") != "move":
        continue
    k += 1
    if n == 0 and k == 2:
{bad}
    print(json.dumps({{"id": 1}}), flush=True)
"#
        );
        std::fs::write(&path, text).unwrap();
        let _ = std::fs::remove_file(dir.join("starts"));
        // The script misbehaves at its second request, after it has answered one: so its start (python's,
        // slow on a loaded machine) is never what is timed, and the generous budgets cost nothing when the
        // script answers. Only a sleeping script spends its 3 s.
        let config = ExternalConfig {
            command: format!("python3 {}", path.display()),
            time_ms: 3000,
            startup_ms: 60_000,
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
        assert_eq!(ask(&mut bot, 1), Ok(1), "{tag}: the first answer");
        let e = ask(&mut bot, 2).unwrap_err();
        assert!(check(&e), "{tag}: {e}");
        assert_eq!(
            ask(&mut bot, 3),
            Ok(1),
            "{tag}: the restarted process answers"
        );
        assert_eq!(ask(&mut bot, 4), Ok(1), "{tag}: and keeps answering");
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
        // Ten minutes of sleep: a run that waited for the script instead of its 3 s could not pass.
        let t = std::time::Instant::now();
        fails_then_recovers("sleep", "        time.sleep(600)", |e| {
            matches!(e, BotError::Timeout(_))
        });
        assert!(t.elapsed() < Duration::from_secs(300), "{:?}", t.elapsed());
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
        let dir = crate::test_scratch::Scratch::new("bot-tree");
        let pidfile = dir.join("pid");
        // The bot starts a child (the runner's grandchild), waits until it runs, answers its first request, and
        // never answers the second. Nothing here is timed but the second request, which never gets an answer:
        // the machine's load cannot change the outcome.
        std::fs::write(
            dir.join("bot.py"),
            format!(
                "import json, os, subprocess, sys, time\n\
                 subprocess.Popen([sys.executable, '-c', 'import os, time; \
                 open({p:?} + \".tmp\", \"w\").write(str(os.getpid())); os.rename({p:?} + \".tmp\", {p:?}); \
                 time.sleep(600)'], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)\n\
                 while not os.path.exists({p:?}): time.sleep(0.01)\n\
                 k = 0\n\
                 for line in sys.stdin:\n    k += 1\n    if k == 2: time.sleep(600)\n    print(json.dumps({{'id': 0}}), flush=True)\n",
                p = pidfile.display().to_string()
            ),
        )
        .unwrap();
        let mut bot = ExternalBot::new(
            "ext",
            ExternalConfig {
                command: format!("python3 {}", dir.join("bot.py").display()),
                time_ms: 3000,
                startup_ms: 60_000,
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!(ask(&mut bot, 1), Ok(0));
        let pid = std::fs::read_to_string(&pidfile).unwrap();
        let alive = || {
            std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| !s.contains(") Z "))
        };
        assert!(alive(), "the bot's child {pid} runs while the bot does");
        assert!(matches!(ask(&mut bot, 2), Err(BotError::Timeout(_))));
        // Killed at the timeout; give the kernel up to a minute to end it.
        let gone = (0..3000).any(|_| {
            std::thread::sleep(Duration::from_millis(20));
            !alive()
        });
        assert!(gone, "the bot's own child {pid} is still running");
        std::fs::remove_dir_all(dir).ok();
    }

    /// A bot that never reads its input, asked with a request larger than a pipe holds (about 1 MB here):
    /// the write used to block the game until the process ended (30 s); now the bot loses on its own time.
    #[cfg(unix)]
    #[test]
    fn a_bot_that_does_not_read_a_large_request_loses_on_its_own_time() {
        let mut bot = ExternalBot::new(
            "deaf",
            ExternalConfig {
                command: "sleep 600".into(),
                time_ms: 3000,
                startup_ms: 0,
                ..Default::default()
            },
        )
        .unwrap();
        let game = bare_game();
        let engine = Engine::new(&game);
        let s = engine.initial();
        let moves = vec![Move::default(); 20_000];
        assert!(bot.request(&engine, &s, &moves, 1, 1).to_string().len() > 256 * 1024);
        let t = std::time::Instant::now();
        let e = bot
            .choose(&engine, &s, &moves, &[], &mut game_rng(1, 0))
            .unwrap_err();
        assert!(matches!(e, BotError::Timeout(_)), "{e}");
        // Well before the process ends by itself (600 s), whatever the machine's load.
        assert!(t.elapsed() < Duration::from_secs(300), "{:?}", t.elapsed());
    }

    /// A bot that closes its input: the next request is an error that says so (a crash), not a SIGPIPE.
    #[cfg(unix)]
    #[test]
    fn a_bot_that_closes_its_input_crashes_at_the_next_request() {
        let (dir, config) = script(
            "closes",
            "        os.close(0); print(json.dumps({'id': 0}), flush=True); time.sleep(3)",
        );
        let mut bot = ExternalBot::new("ext", config).unwrap();
        assert_eq!(ask(&mut bot, 1), Ok(1));
        assert_eq!(ask(&mut bot, 2), Ok(0));
        let e = ask(&mut bot, 3).unwrap_err();
        assert!(
            matches!(&e, BotError::Crashed(m) if m.contains("closed its standard input")),
            "{e}"
        );
        assert_eq!(ask(&mut bot, 4), Ok(1), "the restarted process answers");
        std::fs::remove_dir_all(dir).ok();
    }

    /// A grandchild that leaves the bot's process group and session (`setsid`) used to outlive the bot; it
    /// carries the bot's token, and ends when the bot is dropped at the end of its game.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_grandchild_that_calls_setsid_ends_with_the_bot() {
        let dir = crate::test_scratch::Scratch::new("bot-setsid");
        let pidfile = dir.join("gc.pid");
        std::fs::write(
            dir.join("bot.py"),
            format!(
                "import json, os, subprocess, sys, time\n\
                 subprocess.Popen([sys.executable, '-c', 'import os, time; \
                 open({p:?} + \".tmp\", \"w\").write(str(os.getpid())); os.rename({p:?} + \".tmp\", {p:?}); \
                 time.sleep(60)'], start_new_session=True, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)\n\
                 while not os.path.exists({p:?}): time.sleep(0.01)\n\
                 for line in sys.stdin:\n    print(json.dumps({{'id': 0}}), flush=True)\n",
                p = pidfile.display().to_string()
            ),
        )
        .unwrap();
        let mut bot = ExternalBot::new(
            "ext",
            ExternalConfig {
                command: format!("python3 {}", dir.join("bot.py").display()),
                time_ms: 5000,
                startup_ms: 5000,
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!(ask(&mut bot, 1), Ok(0));
        let pid = std::fs::read_to_string(&pidfile).unwrap();
        let alive = || {
            std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| !s.contains(") Z "))
        };
        assert!(alive(), "the grandchild {pid} runs while the bot does");
        drop(bot);
        // Up to a minute for the kernel to end it, whatever the load.
        let gone = (0..3000).any(|_| {
            std::thread::sleep(Duration::from_millis(20));
            !alive()
        });
        assert!(gone, "the bot's setsid grandchild {pid} is still running");
        std::fs::remove_dir_all(dir).ok();
    }

    #[test]
    fn invalid_utf8_is_illegal() {
        fails_then_recovers(
            "utf8",
            "        sys.stdout.buffer.write(b'{\"id\": \"\\xff\\xfe\"}\\n'); sys.stdout.flush(); continue",
            |e| matches!(e, BotError::Illegal(m) if m.contains("not UTF-8")),
        );
    }

    #[test]
    fn a_line_past_the_cap_is_illegal() {
        fails_then_recovers(
            "long",
            "        sys.stdout.write('{\"id\": 1, \"pad\": \"' + 'x' * 100000 + '\"}\\n'); sys.stdout.flush(); continue",
            |e| matches!(e, BotError::Illegal(m) if m.contains("longer than")),
        );
    }

    /// `cat /dev/zero` never writes a newline: the answer is illegal as soon as the cap is reached, long
    /// before the time limit, and the reader keeps no more than the cap.
    #[cfg(unix)]
    #[test]
    fn endless_output_without_a_newline_is_illegal_at_once() {
        let mut bot = ExternalBot::new(
            "zero",
            ExternalConfig {
                command: "cat /dev/zero".into(),
                time_ms: 600_000,
                ..Default::default()
            },
        )
        .unwrap();
        let t = std::time::Instant::now();
        let e = ask(&mut bot, 1).unwrap_err();
        assert!(
            matches!(&e, BotError::Illegal(m) if m.contains("longer than")),
            "{e}"
        );
        // Long before the time limit (600 s), whatever the machine's load.
        assert!(t.elapsed() < Duration::from_secs(300), "{:?}", t.elapsed());
    }

    /// A bot that answers twice without echoing the request number: the second line, come before the
    /// next request, is discarded and counted, and the next request gets its own answer.
    #[test]
    fn a_second_answer_is_discarded_not_used() {
        let (dir, config) = script(
            "twice",
            "        print(json.dumps({'id': 0}), flush=True); print(json.dumps({'id': 2}), flush=True); n = 1; continue",
        );
        let mut bot = ExternalBot::new("ext", config).unwrap();
        assert_eq!(ask(&mut bot, 1), Ok(1));
        assert_eq!(ask(&mut bot, 2), Ok(0));
        assert_eq!(bot.note(), None);
        // The runner's work between two requests (other moves, the engine): long enough for the second line,
        // written just after the first, to have come.
        std::thread::sleep(Duration::from_secs(3));
        assert_eq!(ask(&mut bot, 3), Ok(1), "the stale answer was used");
        assert_eq!(ask(&mut bot, 4), Ok(1));
        assert_eq!(bot.starts, 1);
        assert_eq!(
            bot.note().as_deref(),
            Some("1 answer nobody asked for discarded")
        );
        std::fs::remove_dir_all(dir).ok();
    }

    /// A bot that echoes the request number: an answer to an earlier request, however late it comes, is
    /// never taken for the current one.
    #[test]
    fn a_late_answer_to_an_earlier_request_is_discarded() {
        let dir = crate::test_scratch::Scratch::new("bot-late");
        let path = dir.join("bot.py");
        std::fs::write(
            &path,
            r#"import json, sys, time
first = True
for line in sys.stdin:
    req = json.loads(line)
    if req.get("type") != "move":
        continue
    r = req["request"]
    if first:
        first = False
        print(json.dumps({"id": 0, "request": r}), flush=True)
        time.sleep(0.4)
        print(json.dumps({"id": 2, "request": r}), flush=True)
    else:
        time.sleep(0.8)
        print(json.dumps({"id": 1, "request": r}), flush=True)
"#,
        )
        .unwrap();
        let mut bot = ExternalBot::new(
            "ext",
            ExternalConfig {
                command: format!("python3 {}", path.display()),
                time_ms: 3000,
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!(ask(&mut bot, 1), Ok(0));
        // Asked at once: the late answer comes while this request waits.
        assert_eq!(ask(&mut bot, 2), Ok(1), "the late answer was used");
        assert_eq!(bot.starts, 1);
        assert_eq!(
            bot.note().as_deref(),
            Some("1 answer nobody asked for discarded")
        );
        std::fs::remove_dir_all(dir).ok();
    }

    /// A bot that forks a child into its process group: the child is gone once the bot is dropped after a
    /// normal game (no failure), not only after a failure.
    #[cfg(target_os = "linux")]
    #[test]
    fn the_bots_whole_group_ends_with_it() {
        let dir = crate::test_scratch::Scratch::new("bot-fork");
        let pidfile = dir.join("pid");
        std::fs::write(
            dir.join("bot.py"),
            format!(
                r#"import json, os, sys, time
if os.fork() == 0:
    open({:?}, "w").write(str(os.getpid()))
    os.close(1)
    time.sleep(60)
    sys.exit(0)
for line in sys.stdin:
    req = json.loads(line)
    if req.get("type") == "quit":
        break
    if req.get("type") == "move":
        print(json.dumps({{"id": 1}}), flush=True)
"#,
                pidfile.display().to_string()
            ),
        )
        .unwrap();
        let mut bot = ExternalBot::new(
            "ext",
            ExternalConfig {
                command: format!("python3 {}", dir.join("bot.py").display()),
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!(ask(&mut bot, 1), Ok(1));
        let mut pid = String::new();
        for _ in 0..100 {
            pid = std::fs::read_to_string(&pidfile).unwrap_or_default();
            if !pid.is_empty() {
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(!pid.is_empty(), "the child did not start");
        let alive = || {
            std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| !s.contains(") Z "))
        };
        assert!(alive(), "the child should run while the bot does");
        drop(bot);
        std::thread::sleep(Duration::from_millis(100));
        assert!(!alive(), "the bot's child {pid} outlived it");
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
