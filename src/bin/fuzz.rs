//! A structure-aware fuzzer for the reader, the compiler and the engine, on stable Rust.
//!
//! It mutates the corpus (`../shared/corpus/zrf` and `games/`): forms deleted, duplicated, swapped, spliced in
//! from another file, wrapped in parentheses, atoms and numbers changed, plus byte-level mutations. Each input
//! is read, every variant compiled and printed, and the games played a few random plies and a perft(1).
//!
//! The inputs run in a worker process (`--worker`), so that what cannot be caught in-process (a stack
//! overflow, an allocation failure under the worker's address-space limit) is a finding like a caught panic;
//! the parent is the watchdog: an input that takes longer than `--timeout-ms` is a hang. Each finding is saved
//! to `--out` as `<kind>-<n>.zrf` with a `.txt` describing it; one per kind and message.
//!
//!     cargo run --release --bin fuzz -- --seconds 3600 --seed 1 --out findings/
//!     cargo run --release --bin fuzz -- --replay findings/panic-1.zrf
//!
//! With `--iterations N` instead of `--seconds` the run is deterministic (the default `cargo test` runs one).

use dagaz::lang::{sexp, source, Node, NodeKind};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// splitmix64: small, deterministic, good enough to pick mutations.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn chance(&mut self, one_in: usize) -> bool {
        self.below(one_in) == 0
    }
}

struct Args {
    seconds: Option<u64>,
    iterations: Option<u64>,
    seed: u64,
    out: PathBuf,
    corpus: Vec<PathBuf>,
    timeout_ms: u64,
    mem_mb: u64,
    worker: bool,
    replay: Option<PathBuf>,
    quiet: bool,
}

fn parse_args() -> Result<Args, String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut a = Args {
        seconds: None,
        iterations: None,
        seed: 1,
        out: PathBuf::from("findings"),
        corpus: vec![],
        timeout_ms: 10_000,
        mem_mb: 1024,
        worker: false,
        replay: None,
        quiet: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        let num = |v: String| v.parse::<u64>().map_err(|e| format!("{v}: {e}"));
        match flag.as_str() {
            "--seconds" => a.seconds = Some(num(value()?)?),
            "--iterations" => a.iterations = Some(num(value()?)?),
            "--seed" => a.seed = num(value()?)?,
            "--out" => a.out = PathBuf::from(value()?),
            "--corpus" => a.corpus.push(PathBuf::from(value()?)),
            "--timeout-ms" => a.timeout_ms = num(value()?)?,
            "--mem-mb" => a.mem_mb = num(value()?)?,
            "--worker" => a.worker = true,
            "--replay" => a.replay = Some(PathBuf::from(value()?)),
            "--quiet" => a.quiet = true,
            _ => return Err(format!("unknown argument `{flag}`")),
        }
    }
    if a.corpus.is_empty() {
        a.corpus = vec![root.join("../shared/corpus/zrf"), root.join("games")];
    }
    Ok(a)
}

fn main() {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    if args.worker {
        worker(args.mem_mb);
    } else if let Some(p) = &args.replay {
        match exercise_file(p) {
            Ok(summary) => println!("ok: {summary}"),
            Err(e) => {
                println!("{e}");
                std::process::exit(1);
            }
        }
    } else {
        std::process::exit(fuzz(&args));
    }
}

// ---------------------------------------------------------------------------------------------------------
// The worker: runs one input at a time, in-process, catching panics and measuring memory.

/// The last panic's message and place (set by the hook on the panicking thread, read by the worker's).
static PANIC: std::sync::Mutex<String> = std::sync::Mutex::new(String::new());

fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        let p = info.payload();
        let msg = p
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| p.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        let at = info.location().map(|l| l.to_string()).unwrap_or_default();
        if let Ok(mut s) = PANIC.lock() {
            *s = format!("{msg} at {at}");
        }
    }));
}

/// Peak resident memory of this process in MB since the last reset.
fn peak_rss_mb() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|k| k.parse::<u64>().ok())
        .map_or(0, |kb| kb / 1024)
}

fn reset_peak_rss() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

/// Reads, compiles, prints and plays one file; `Err` is a finding.
fn exercise_file(path: &Path) -> Result<String, String> {
    install_panic_hook();
    let path = path.to_path_buf();
    // The tournament plays on threads with the default 2 MB stack; so does the fuzzer.
    let h = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || std::panic::catch_unwind(|| exercise(&path)))
        .map_err(|e| format!("spawn: {e}"))?;
    match h.join() {
        Ok(Ok(s)) => Ok(s),
        _ => Err(format!(
            "panic {}",
            PANIC.lock().map(|s| s.clone()).unwrap_or_default()
        )),
    }
}

fn exercise(path: &Path) -> String {
    use dagaz::engine::{playout, Engine};
    let read = dagaz::lang::read_file(path);
    let rendered = dagaz::lang::diag::render_all(&read.diagnostics, &read.sources);
    let mut compiled = 0;
    let mut plies = 0;
    if !read.has_errors() {
        for g in read.games.iter().take(16) {
            let mut d = vec![];
            let Some(game) = dagaz::load::compile_source(g, &mut d) else {
                let _ = dagaz::lang::diag::render_all(&d, &read.sources);
                continue;
            };
            compiled += 1;
            let _ = dagaz::check::describe(&game);
            let _ = dagaz::check::describe_json(&game).to_string();
            let engine = Engine::new(&game);
            let _ = engine.perft(&engine.initial(), 1);
            let mut rng = playout::game_rng(7, g.number as u64);
            if let Ok(r) = playout::random_game(&engine, &mut rng, 30) {
                plies += r.plies;
            }
        }
    }
    format!(
        "{} games, {compiled} compiled, {plies} plies, {} diagnostics ({} bytes rendered)",
        read.games.len(),
        read.diagnostics.len(),
        rendered.len()
    )
}

fn worker(mem_mb: u64) {
    // Twice the budget as a hard limit: past it an allocation fails and the worker aborts, which the parent
    // records; between the budget and the limit the measured peak is the finding.
    #[cfg(unix)]
    unsafe {
        let lim = (mem_mb * 2 + 256) << 20;
        let r = libc::rlimit {
            rlim_cur: lim as libc::rlim_t,
            rlim_max: lim as libc::rlim_t,
        };
        libc::setrlimit(libc::RLIMIT_AS, &r);
    }
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        reset_peak_rss();
        let t = Instant::now();
        let r = exercise_file(Path::new(line.trim()));
        let ms = t.elapsed().as_millis();
        let rss = peak_rss_mb();
        let reply = match r {
            Ok(_) if rss > mem_mb => format!("memory {rss} MB peak"),
            Ok(_) => format!("ok {ms} {rss}"),
            Err(e) => e.replace('\n', " "),
        };
        if writeln!(out, "{reply}").and_then(|_| out.flush()).is_err() {
            break;
        }
    }
}

// ---------------------------------------------------------------------------------------------------------
// The parent: mutates, feeds the worker, watches it.

struct Worker {
    child: Child,
    stdin: ChildStdin,
    replies: mpsc::Receiver<String>,
}

impl Worker {
    fn start(mem_mb: u64) -> Worker {
        let exe = std::env::current_exe().expect("own path");
        let mut child = Command::new(exe)
            .args(["--worker", "--mem-mb", &mem_mb.to_string()])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start the worker");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, replies) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(l) = line else { break };
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        Worker {
            child,
            stdin,
            replies,
        }
    }

    /// The worker's scheduler state (`R` runnable, `S` sleeping, `D` in the disk, ...) and the CPU time it has
    /// used in milliseconds (user and system), from /proc.
    fn sample(&self) -> (char, u64) {
        let stat =
            std::fs::read_to_string(format!("/proc/{}/stat", self.child.id())).unwrap_or_default();
        parse_stat(&stat)
    }

    /// The worker's answer, or a timeout. An input hangs when the worker has spent `timeout_ms` of CPU time on
    /// it, or when it has sat blocked (not runnable) with its CPU time standing still for ten times that. Time the
    /// worker spends waiting for a core is never counted: the fuzzer runs niced on a shared machine, and a busy
    /// machine is not a hang.
    fn answer(&mut self, timeout_ms: u64) -> Result<String, mpsc::RecvTimeoutError> {
        let (_, cpu0) = self.sample();
        let mut last_cpu = cpu0;
        let mut blocked_since: Option<Instant> = None;
        loop {
            match self
                .replies
                .recv_timeout(Duration::from_millis(timeout_ms / 4 + 1))
            {
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    let (state, cpu) = self.sample();
                    if cpu.saturating_sub(cpu0) >= timeout_ms {
                        return Err(mpsc::RecvTimeoutError::Timeout);
                    }
                    if state == 'R' || cpu != last_cpu {
                        blocked_since = None;
                    } else {
                        let since = *blocked_since.get_or_insert_with(Instant::now);
                        if since.elapsed() >= Duration::from_millis(timeout_ms * 10) {
                            return Err(mpsc::RecvTimeoutError::Timeout);
                        }
                    }
                    last_cpu = cpu;
                }
                r => return r,
            }
        }
    }

    fn stop(mut self) -> String {
        let _ = self.child.kill();
        match self.child.wait() {
            Ok(s) => s.to_string(),
            Err(e) => e.to_string(),
        }
    }
}

/// The state letter and the CPU milliseconds (utime + stime) of a `/proc/PID/stat` line; `('?', 0)` when the
/// line cannot be read (the process is gone).
fn parse_stat(stat: &str) -> (char, u64) {
    // The command name is in parentheses and may hold spaces; the state is the first field after it, and utime
    // and stime are the 12th and 13th.
    let after = stat.rsplit(')').next().unwrap_or("");
    let fields: Vec<&str> = after.split_whitespace().collect();
    let state = fields.first().and_then(|f| f.chars().next()).unwrap_or('?');
    let num = |i: usize| {
        fields
            .get(i)
            .and_then(|x| x.parse::<u64>().ok())
            .unwrap_or(0)
    };
    (state, (num(11) + num(12)) * 10) // USER_HZ is 100 on Linux
}

/// The seed files: every `.zrf` under the corpus directories, sorted, so a seed gives the same run.
fn seed_files(dirs: &[PathBuf]) -> Vec<(PathBuf, String)> {
    let mut paths = vec![];
    let mut todo: Vec<PathBuf> = dirs.to_vec();
    while let Some(d) = todo.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                todo.push(p);
            } else if p.extension().is_some_and(|x| x.eq_ignore_ascii_case("zrf")) {
                paths.push(p);
            }
        }
    }
    paths.sort();
    paths
        .into_iter()
        .filter_map(|p| {
            let bytes = std::fs::read(&p).ok()?;
            Some((p, source::decode(bytes).0))
        })
        .collect()
}

/// Every form of a parsed file, by span (iteratively: a mutated input may nest deeply).
fn form_spans(text: &str) -> Vec<(usize, usize, bool)> {
    let (nodes, _) = sexp::parse(text, source::FileId(0));
    let mut out = vec![];
    let mut todo: Vec<&Node> = nodes.iter().collect();
    while let Some(n) = todo.pop() {
        let (s, e) = (n.span.start as usize, n.span.end as usize);
        if s <= e && e <= text.len() && text.is_char_boundary(s) && text.is_char_boundary(e) {
            out.push((s, e, matches!(n.kind, NodeKind::Atom(_))));
        }
        if let NodeKind::List(items) = &n.kind {
            todo.extend(items.iter());
        }
    }
    out
}

const WORDS: &[&str] = &[
    "(",
    ")",
    "\"",
    "$1",
    "$2",
    "$99",
    "()",
    "(define x (x))",
    "(define y ($1 $1))",
    "add",
    "(verify",
    "(include \"common.zrf\")",
    "(include \"/etc/passwd\")",
    "(game",
    "(variant",
    "(variant (title \"v\"))",
    "(moves (n add))",
    "(dimensions (\"a-z\" (0 0)) (\"1-99\" (0 0)))",
    "(board-setup (White (Pawn off 9999)))",
    "(option \"pass turn\" forced)",
    "(count-condition (total-piece-count 0))",
    "(while true n)",
    "(if (not (not true)) add)",
    "(and (or true false) (not empty?))",
    "not-",
    "?",
    "-1",
    "0",
    "4294967296",
    "-9223372036854775808",
    "99999",
    "repeat",
    "Pawn",
    "King",
    "n",
    "a1",
    "zone",
    "mark",
    "back",
    "cascade",
    "add-partial",
    "\u{1F600}",
    "\u{0}",
];

/// One mutation of `text`; `other` is another corpus file for splicing.
fn mutate(text: &str, other: &str, rng: &mut Rng) -> String {
    let forms = form_spans(text);
    let pick = |rng: &mut Rng, atoms: Option<bool>| -> Option<(usize, usize)> {
        let cands: Vec<_> = forms
            .iter()
            .filter(|f| atoms.is_none_or(|a| f.2 == a))
            .collect();
        (!cands.is_empty()).then(|| {
            let f = cands[rng.below(cands.len())];
            (f.0, f.1)
        })
    };
    let splice = |at: usize, ins: &str, del_end: usize| -> String {
        let mut s = String::with_capacity(text.len() + ins.len());
        s.push_str(&text[..at]);
        s.push_str(ins);
        s.push_str(&text[del_end..]);
        s
    };
    match rng.below(12) {
        // Delete a form.
        0 => match pick(rng, None) {
            Some((s, e)) => splice(s, "", e),
            None => text.to_string(),
        },
        // Duplicate a form, once or many times (variants, pieces, sections that multiply).
        1 => match pick(rng, None) {
            Some((s, e)) => {
                let times = if rng.chance(8) {
                    1 + rng.below(3000)
                } else {
                    1
                };
                let copy = format!("{} ", &text[s..e]).repeat(times);
                if copy.len() > 8 << 20 {
                    return text.to_string();
                }
                splice(s, &copy, s)
            }
            None => text.to_string(),
        },
        // Swap two disjoint forms.
        2 => match (pick(rng, None), pick(rng, None)) {
            (Some(a), Some(b)) if a.1 <= b.0 || b.1 <= a.0 => {
                let (a, b) = if a.0 < b.0 { (a, b) } else { (b, a) };
                format!(
                    "{}{}{}{}{}",
                    &text[..a.0],
                    &text[b.0..b.1],
                    &text[a.1..b.0],
                    &text[a.0..a.1],
                    &text[b.1..]
                )
            }
            _ => text.to_string(),
        },
        // Splice a form of another file in place of one of this file, or beside it.
        3 | 4 => {
            let theirs = form_spans(other);
            match (pick(rng, None), theirs.get(rng.below(theirs.len()))) {
                (Some((s, e)), Some(t)) => {
                    let ins = &other[t.0..t.1];
                    if rng.chance(2) {
                        splice(s, ins, e)
                    } else {
                        splice(e, &format!(" {ins}"), e)
                    }
                }
                _ => text.to_string(),
            }
        }
        // Change an atom: another word, a number, a word of the file.
        5 | 6 => match pick(rng, Some(true)) {
            Some((s, e)) => {
                let w = match rng.below(4) {
                    0 => WORDS[rng.below(WORDS.len())].to_string(),
                    1 => {
                        let n: i64 = match rng.below(5) {
                            0 => -(rng.below(3) as i64),
                            1 => rng.below(10) as i64,
                            2 => rng.below(1000) as i64,
                            3 => 1 << rng.below(63),
                            _ => i64::MAX,
                        };
                        n.to_string()
                    }
                    2 => match pick(rng, Some(true)) {
                        Some((a, b)) => text[a..b].to_string(),
                        None => "x".into(),
                    },
                    _ => format!("{}{}", &text[s..e], ["?", "-", "s", "$1"][rng.below(4)]),
                };
                splice(s, &w, e)
            }
            None => text.to_string(),
        },
        // Nest a form in parentheses, a little or a lot.
        7 => match pick(rng, None) {
            Some((s, e)) => {
                let k = match rng.below(4) {
                    0 => 1 + rng.below(3),
                    1 => 10 + rng.below(300),
                    2 => 1000 + rng.below(5000),
                    _ => 20_000 + rng.below(30_000),
                };
                format!(
                    "{}{}{}{}{}",
                    &text[..s],
                    "(".repeat(k),
                    &text[s..e],
                    ")".repeat(k),
                    &text[e..]
                )
            }
            None => text.to_string(),
        },
        // Replace a form with a macro call of it, or a macro that doubles it.
        8 => match pick(rng, Some(false)) {
            Some((s, e)) => {
                let body = &text[s..e];
                let name = format!("fz{}", rng.below(1000));
                format!(
                    "(define {name} {}) {}({name} {body}){}",
                    ["$1", "($1 $1)", "(($1))", "$1 $1"][rng.below(4)],
                    &text[..s],
                    &text[e..]
                )
            }
            None => text.to_string(),
        },
        // Byte level: truncate, insert a word, delete a range, repeat a range.
        _ => {
            let mut b = text.as_bytes().to_vec();
            let at = rng.below(b.len() + 1);
            match rng.below(5) {
                0 => b.truncate(at),
                1 => {
                    let w = WORDS[rng.below(WORDS.len())];
                    b.splice(at..at, format!(" {w} ").into_bytes());
                }
                2 => {
                    let end = (at + rng.below(64)).min(b.len());
                    b.drain(at..end);
                }
                3 => {
                    let end = (at + rng.below(64)).min(b.len());
                    let chunk = b[at..end].to_vec();
                    let most = if rng.chance(8) { 5000 } else { 8 };
                    let times = 1 + rng.below(most);
                    for _ in 0..times {
                        b.splice(at..at, chunk.iter().copied());
                    }
                }
                _ => {
                    for _ in 0..1 + rng.below(8) {
                        let i = rng.below(b.len());
                        if i < b.len() {
                            b[i] = rng.next() as u8;
                        }
                    }
                }
            }
            String::from_utf8_lossy(&b).into_owned()
        }
    }
}

/// A short signature of a finding's message, so that one bug gives one finding.
fn signature(kind: &str, msg: &str) -> String {
    let at = msg.rsplit(" at ").next().unwrap_or("");
    match kind {
        "panic" => format!("panic {at}"),
        _ => kind.to_string(),
    }
}

fn fuzz(a: &Args) -> i32 {
    let seeds = seed_files(&a.corpus);
    if seeds.is_empty() {
        eprintln!("error: no .zrf files under {:?}", a.corpus);
        return 2;
    }
    let work = a.out.join(format!(".work-{}", a.seed));
    if let Err(e) = std::fs::create_dir_all(&work) {
        eprintln!("error: {}: {e}", work.display());
        return 2;
    }
    let input = work.join("input.zrf");
    let mut rng = Rng(a.seed);
    let start = Instant::now();
    let deadline = a.seconds.map(|s| start + Duration::from_secs(s));
    let mut worker = Worker::start(a.mem_mb);
    let mut execs = 0u64;
    let mut findings: BTreeMap<String, usize> = BTreeMap::new();
    let mut slowest = (0u128, String::new());
    let mut last_report = Instant::now();
    loop {
        if a.iterations.is_some_and(|n| execs >= n) || deadline.is_some_and(|d| Instant::now() >= d)
        {
            break;
        }
        let (path, text) = &seeds[rng.below(seeds.len())];
        let other = &seeds[rng.below(seeds.len())].1;
        let mut m = text.clone();
        for _ in 0..1 + rng.below(4) {
            m = mutate(&m, other, &mut rng);
        }
        if std::fs::write(&input, &m).is_err() {
            eprintln!("error: cannot write {}", input.display());
            return 2;
        }
        execs += 1;
        let sent = writeln!(worker.stdin, "{}", input.display()).and_then(|_| worker.stdin.flush());
        let reply = match sent {
            Ok(()) => worker.answer(a.timeout_ms),
            Err(_) => Err(mpsc::RecvTimeoutError::Disconnected),
        };
        let finding = match reply {
            Ok(r) if r.starts_with("ok ") => {
                let ms: u128 = r
                    .split(' ')
                    .nth(1)
                    .and_then(|x| x.parse().ok())
                    .unwrap_or(0);
                if ms > slowest.0 {
                    slowest = (ms, path.display().to_string());
                }
                None
            }
            Ok(r) => {
                let kind = r.split(' ').next().unwrap_or("panic").to_string();
                Some((kind, r))
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                let status = std::mem::replace(&mut worker, Worker::start(a.mem_mb)).stop();
                Some((
                    "hang".into(),
                    format!(
                        "no answer within {} ms of CPU time ({status})",
                        a.timeout_ms
                    ),
                ))
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                let status = std::mem::replace(&mut worker, Worker::start(a.mem_mb)).stop();
                Some((
                    "crash".into(),
                    format!("the worker died: {status} (stack overflow, abort or out of memory)"),
                ))
            }
        };
        if let Some((kind, msg)) = finding {
            let sig = signature(&kind, &msg);
            let n = findings.len() + 1;
            let count = findings.entry(sig.clone()).or_insert(0);
            *count += 1;
            // Panics have a place; hangs and crashes do not, so a few inputs of each are kept.
            if *count == 1 || (*count <= 3 && kind != "panic") {
                let name = format!("{kind}-s{}-{n}", a.seed);
                let _ = std::fs::write(a.out.join(format!("{name}.zrf")), &m);
                let _ = std::fs::write(
                    a.out.join(format!("{name}.txt")),
                    format!("{msg}\nseed file: {}\nexecution: {execs}\n", path.display()),
                );
                eprintln!("finding {name}: {msg}");
            }
        }
        if !a.quiet && last_report.elapsed() > Duration::from_secs(60) {
            last_report = Instant::now();
            eprintln!(
                "{:.0} s: {execs} executions, {} distinct findings",
                start.elapsed().as_secs_f64(),
                findings.len()
            );
        }
    }
    let _ = worker.stop();
    let _ = std::fs::remove_dir_all(&work);
    let total: usize = findings.values().sum();
    println!(
        "seed {}: {execs} executions in {:.1} s, {} distinct findings ({total} inputs); slowest input {} ms (from {})",
        a.seed,
        start.elapsed().as_secs_f64(),
        findings.len(),
        slowest.0,
        slowest.1
    );
    for (sig, n) in &findings {
        println!("  {n:6}  {sig}");
    }
    if findings.is_empty() {
        0
    } else {
        1
    }
}

#[cfg(test)]
mod tests {
    use super::parse_stat;

    #[test]
    fn the_state_and_cpu_time_are_read_after_a_command_name_with_spaces_and_parentheses() {
        // A line as /proc/PID/stat writes it: utime 250 ticks, stime 12 ticks.
        let line = "4242 (dagaz (w) x) R 1 4242 4242 0 -1 4194304 300 0 0 0 250 12 0 0 20 0 1 0 99 1000 10";
        assert_eq!(parse_stat(line), ('R', 2620));
        let blocked = "7 (fuzz) S 1 7 7 0 -1 0 0 0 0 0 3 4 0 0 20 0 1 0 5 1 1";
        assert_eq!(parse_stat(blocked), ('S', 70));
        assert_eq!(parse_stat(""), ('?', 0));
    }
}
