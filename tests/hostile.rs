//! Runs that cannot be killed by their inputs (issue 21): each test plays what used to kill, hang or exhaust
//! the runner, through the binary, and checks the exit code, the message and the peak memory (from `wait4`).

#[path = "common/scratch.rs"]
mod scratch_dir;
use scratch_dir::Scratch;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The binary under test: this build's, or the one `DAGAZ_HOSTILE_BIN` names, so that the same checks can be
/// run against an older build to see them fail there (README, "Slow checks").
fn bin() -> String {
    std::env::var("DAGAZ_HOSTILE_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_dagaz").to_string())
}

/// A run still going after this long is killed and reported as such (an old build may never end).
const WALL_LIMIT: std::time::Duration = std::time::Duration::from_secs(120);

/// A fresh, empty folder for one test.
fn scratch(name: &str) -> Scratch {
    Scratch::new(&format!("hostile-{name}"))
}

/// How a run of the binary ended.
#[derive(Debug)]
struct Ended {
    /// The exit code, or `None` if a signal ended it (then `signal`).
    code: Option<i32>,
    signal: Option<i32>,
    /// Peak resident memory, MB.
    peak_mb: f64,
    /// Wall-clock and CPU (user + system) seconds.
    wall_s: f64,
    cpu_s: f64,
    /// Killed after `WALL_LIMIT`.
    killed: bool,
    stdout: String,
    stderr: String,
}

/// Runs the binary in `dir` with `args`, standard input from `stdin` (or nothing), and waits for it with
/// `wait4`, which gives its own peak memory and CPU time; kills it after `WALL_LIMIT`. Prints the figures (seen
/// with `--nocapture`).
fn measured(dir: &Path, args: &[&str], stdin: Option<&Path>) -> Ended {
    let (out, err) = (dir.join("stdout.txt"), dir.join("stderr.txt"));
    let start = std::time::Instant::now();
    // Reaped by `wait4` below, which `Child::wait` cannot replace: it gives the child's own peak memory.
    #[allow(clippy::zombie_processes)]
    let child = Command::new(bin())
        .args(args)
        .current_dir(dir)
        .stdin(match stdin {
            Some(p) => Stdio::from(std::fs::File::open(p).unwrap()),
            None => Stdio::null(),
        })
        .stdout(std::fs::File::create(&out).unwrap())
        .stderr(std::fs::File::create(&err).unwrap())
        .spawn()
        .unwrap();
    let pid = child.id() as libc::pid_t;
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let killed = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let watchdog = {
        let (done, killed) = (done.clone(), killed.clone());
        std::thread::spawn(move || {
            while start.elapsed() < WALL_LIMIT {
                if done.load(std::sync::atomic::Ordering::SeqCst) {
                    return;
                }
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            if !done.load(std::sync::atomic::Ordering::SeqCst) {
                killed.store(true, std::sync::atomic::Ordering::SeqCst);
                unsafe { libc::kill(pid, libc::SIGKILL) };
            }
        })
    };
    let mut status = 0;
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    assert_eq!(unsafe { libc::wait4(pid, &mut status, 0, &mut usage) }, pid);
    done.store(true, std::sync::atomic::Ordering::SeqCst);
    watchdog.join().unwrap();
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    let e = Ended {
        code: libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status)),
        signal: libc::WIFSIGNALED(status).then(|| libc::WTERMSIG(status)),
        peak_mb: usage.ru_maxrss as f64 / 1024.0,
        wall_s: start.elapsed().as_secs_f64(),
        cpu_s: secs(usage.ru_utime) + secs(usage.ru_stime),
        killed: killed.load(std::sync::atomic::Ordering::SeqCst),
        stdout: std::fs::read_to_string(&out).unwrap_or_default(),
        stderr: std::fs::read_to_string(&err).unwrap_or_default(),
    };
    let first_error = e
        .stderr
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("");
    eprintln!(
        "figures: dagaz {}: {}, {:.2} s wall, {:.2} s CPU, peak {:.0} MB; stderr: {}",
        args.join(" "),
        match (e.code, e.signal, e.killed) {
            (_, _, true) => format!("killed after {} s", WALL_LIMIT.as_secs()),
            (Some(c), _, _) => format!("exit {c}"),
            (_, Some(s), _) => format!("signal {s}"),
            _ => "?".into(),
        },
        e.wall_s,
        e.cpu_s,
        e.peak_mb,
        first_error.chars().take(160).collect::<String>()
    );
    e
}

/// A race of twelve players on a board of 12 columns: each moves its piece one step north; the first home
/// wins.
fn race12(dir: &Path) -> PathBuf {
    let cols = "abcdefghijkl";
    let players: Vec<String> = (1..=12).map(|i| format!("P{i}")).collect();
    let players = players.join(" ");
    let setup: String = cols
        .chars()
        .enumerate()
        .map(|(i, c)| format!("(P{} (P {c}1)) ", i + 1))
        .collect();
    let home: String = cols.chars().map(|c| format!("{c}3 ")).collect();
    let files: Vec<String> = cols.chars().map(String::from).collect();
    let text = format!(
        "(game (title \"Race of twelve\") (players {players}) (turn-order {players})\n\
         (board (grid (dimensions (\"{}\" (50 0)) (\"3/2/1\" (0 50))) (directions (n 0 -1))))\n\
         (piece (name P) (moves (n (verify empty?) add)))\n\
         (board-setup {setup})\n\
         (win-condition ({players}) (name \"home\") (absolute-config P ({home}))))\n",
        files.join("/")
    );
    let path = dir.join("race12.zrf");
    std::fs::write(&path, text).unwrap();
    path
}

/// Twelve players, twelve bots, `--games 24`: each group is the 12 rotations of one seat order, never the
/// 12! orders (which took 5.4 GB, then an abort).
#[test]
fn twelve_players_play_in_bounded_memory() {
    let d = scratch("twelve");
    race12(&d);
    let names: Vec<String> = (1..=12).map(|i| format!("random:name=r{i}")).collect();
    let mut args = vec![
        "tournament",
        "race12.zrf",
        "--games",
        "24",
        "--jobs",
        "2",
        "--quiet",
    ];
    args.extend(["--out", "out", "--bots"]);
    args.extend(names.iter().map(String::as_str));
    let e = measured(&d, &args, None);
    assert_eq!(e.code, Some(0), "{e:?}");
    let games = std::fs::read_to_string(d.join("out/games.csv")).unwrap();
    assert_eq!(games.lines().count(), 25, "24 games and the header");
    assert!(e.peak_mb < 100.0, "peak memory {} MB", e.peak_mb);
    std::fs::remove_dir_all(&d).ok();
}

/// An external bot that closes its standard input after reading the first request (and still answers it):
/// the next write to it used to kill the runner with SIGPIPE (exit 141, no standings, the bot left running).
/// Now the write fails, the bot loses that game as crashed, and the run finishes.
#[test]
fn a_bot_that_closes_its_input_loses_and_the_run_goes_on() {
    let d = scratch("closes");
    std::fs::write(
        d.join("closer.py"),
        "import json, os, sys, time\n\
         req = json.loads(sys.stdin.readline())\n\
         os.close(0)\n\
         print(json.dumps({'id': 0, 'request': req.get('request')}), flush=True)\n\
         time.sleep(2)\n",
    )
    .unwrap();
    std::fs::write(
        d.join("closer.toml"),
        "kind = \"external\"\nname = \"closer\"\ncommand = \"python3 closer.py\"\ntime_ms = 5000\n",
    )
    .unwrap();
    let args = [
        "tournament",
        "--bots",
        "random",
        "closer.toml",
        "--games",
        "2",
        "--jobs",
        "1",
        "--out",
        "out",
        "--quiet",
    ];
    let e = measured(&d, &args, None);
    assert_eq!((e.code, e.signal), (Some(0), None), "{e:?}");
    let games = std::fs::read_to_string(d.join("out/games.csv")).unwrap();
    assert_eq!(games.lines().count(), 3, "{games}");
    assert!(games.contains("closed its standard input"), "{games}");
    assert!(e.stdout.contains("closer"), "standings: {}", e.stdout);
    std::fs::remove_dir_all(&d).ok();
}

/// `--jobs 100000` used to start a thread per game and finish nothing in two minutes (two games); now it is
/// capped at 16 per core with a warning. `--jobs 0` is refused without naming 2^64 − 1.
#[test]
fn jobs_are_capped_and_zero_is_refused_plainly() {
    let d = scratch("jobs");
    let args = [
        "tournament",
        "--bots",
        "random",
        "random:name=r2",
        "--games",
        "2",
        "--jobs",
        "100000",
        "--out",
        "out",
        "--quiet",
    ];
    let e = measured(&d, &args, None);
    assert_eq!(e.code, Some(0), "{e:?}");
    assert!(
        e.stderr
            .contains("warning: --jobs 100000 is more than 16 per core"),
        "{}",
        e.stderr
    );
    let e = measured(&d, &["tournament", "--jobs", "0"], None);
    assert_eq!(e.code, Some(2), "{e:?}");
    assert!(e.stderr.contains("at least 1"), "{}", e.stderr);
    assert!(!e.stderr.contains("18446744073709551615"), "{}", e.stderr);
    std::fs::remove_dir_all(&d).ok();
}

/// A bot whose child leaves its process group and session (`setsid`, as a daemon does): the child used to
/// outlive the run. Now the runner ends it with the bot's game (its environment carries the bot's token) or,
/// failing that, at the end of the run (the runner is the subreaper of what its bots leave).
#[cfg(target_os = "linux")]
#[test]
fn a_bots_setsid_grandchild_ends_with_the_run() {
    let d = scratch("setsid");
    std::fs::write(
        d.join("spawner.py"),
        "import json, os, subprocess, sys, time\n\
         n = len([f for f in os.listdir('.') if f.startswith('gc-')])\n\
         p = 'gc-%d-%d' % (os.getpid(), n)\n\
         subprocess.Popen([sys.executable, '-c', 'import os, sys, time; \
         open(sys.argv[1] + \".tmp\", \"w\").write(str(os.getpid())); os.rename(sys.argv[1] + \".tmp\", sys.argv[1]); \
         time.sleep(60)', p], start_new_session=True, env={'PATH': os.environ.get('PATH', '')}, \
         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)\n\
         while not os.path.exists(p): time.sleep(0.01)\n\
         for line in sys.stdin:\n\
         \x20   req = json.loads(line)\n\
         \x20   if req.get('type') == 'move':\n\
         \x20       print(json.dumps({'id': 0, 'request': req['request']}), flush=True)\n",
    )
    .unwrap();
    std::fs::write(
        d.join("spawner.toml"),
        "kind = \"external\"\nname = \"spawner\"\ncommand = \"python3 spawner.py\"\ntime_ms = 5000\n",
    )
    .unwrap();
    let args = [
        "tournament",
        "--bots",
        "random",
        "spawner.toml",
        "--games",
        "2",
        "--jobs",
        "1",
        "--out",
        "out",
        "--quiet",
    ];
    let e = measured(&d, &args, None);
    assert_eq!(e.code, Some(0), "{e:?}");
    let pids: Vec<String> = std::fs::read_dir(&d)
        .unwrap()
        .filter_map(|f| f.ok())
        .map(|f| f.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("gc-") && !n.ends_with(".tmp"))
        .map(|n| std::fs::read_to_string(d.join(n)).unwrap())
        .collect();
    assert!(!pids.is_empty(), "the bot started no grandchild");
    std::thread::sleep(std::time::Duration::from_millis(200));
    for pid in &pids {
        let alive =
            std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| !s.contains(") Z "));
        if alive {
            unsafe { libc::kill(pid.parse().unwrap(), libc::SIGKILL) };
        }
        assert!(!alive, "the bot's setsid grandchild {pid} outlived the run");
    }
    std::fs::remove_dir_all(&d).ok();
}

/// Settings read from an endless stream used to be read until memory ran out (0.8-1.1 GB under a 2 GB cap,
/// then "out of memory" or an abort); now each is cut at 1 MB with an error naming the limit.
#[cfg(unix)]
#[test]
fn settings_files_have_a_size_limit() {
    let d = scratch("limits");
    std::os::unix::fs::symlink("/dev/zero", d.join("zero.toml")).unwrap();
    let game = format!("{}/games/breakthrough.zrf", env!("CARGO_MANIFEST_DIR"));
    for args in [
        vec!["tournament", "--config", "/dev/zero"],
        vec!["perft", &game, "1", "--position", "/dev/zero"],
        vec![
            "tournament",
            "--bots",
            "zero.toml",
            "random",
            "--games",
            "2",
        ],
    ] {
        let e = measured(&d, &args, None);
        assert_eq!(e.code, Some(1), "{args:?}: {e:?}");
        assert!(
            e.stderr.contains("larger than 1 MB"),
            "{args:?}: {}",
            e.stderr
        );
        assert!(e.peak_mb < 100.0, "{args:?}: peak {} MB", e.peak_mb);
    }
    std::fs::remove_dir_all(&d).ok();
}

/// `session` answers a line that is not UTF-8, or longer than its limit, with an error object and goes on
/// (a non-UTF-8 line used to end it with exit 1; a long one was held whole).
#[test]
fn session_answers_bad_lines_and_goes_on() {
    let d = scratch("session");
    let mut input = b"\xff\xfe{\"cmd\": \"info\"}\n".to_vec();
    input.extend(std::iter::repeat_n(b'x', 3 << 20));
    input.extend(b"\nnot json\n{\"cmd\": \"info\"}\n");
    std::fs::write(d.join("in.txt"), &input).unwrap();
    let game = format!("{}/games/breakthrough.zrf", env!("CARGO_MANIFEST_DIR"));
    let e = measured(&d, &["session", &game], Some(&d.join("in.txt")));
    assert_eq!(e.code, Some(0), "{e:?}");
    let answers: Vec<serde_json::Value> = e
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(answers.len(), 4, "{}", e.stdout);
    let error = |i: usize| answers[i]["error"].as_str().unwrap_or("").to_string();
    assert!(error(0).contains("line 1: not UTF-8"), "{}", error(0));
    assert!(error(1).contains("line 2: longer than"), "{}", error(1));
    assert!(error(2).contains("line 3: not JSON"), "{}", error(2));
    assert_eq!(answers[3]["title"], "Breakthrough", "{}", e.stdout);
    assert!(e.peak_mb < 100.0, "peak {} MB", e.peak_mb);
    std::fs::remove_dir_all(&d).ok();
}

/// Ctrl-C ends a run (its bots with it) and says how to finish it; it used to exit in silence.
#[cfg(unix)]
#[test]
fn ctrl_c_says_how_to_finish_the_run() {
    let d = scratch("sigint");
    let err = std::fs::File::create(d.join("stderr.txt")).unwrap();
    let mut child = Command::new(bin())
        .args([
            "tournament",
            "--bots",
            "mcts-10k",
            "mcts-1k",
            "--games",
            "1000",
            "--jobs",
            "1",
        ])
        .args(["--out", "run", "--quiet"])
        .current_dir(&d)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(err)
        .spawn()
        .unwrap();
    // games.csv is made once the run has started (the handler is in place before).
    for _ in 0..600 {
        if d.join("run/games.csv").exists() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let status = child.wait().unwrap();
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(status.signal(), Some(libc::SIGINT), "{status:?}");
    let stderr = std::fs::read_to_string(d.join("stderr.txt")).unwrap();
    assert!(
        stderr.contains("`dagaz tournament --resume --out run` finishes the run"),
        "{stderr}"
    );
    std::fs::remove_dir_all(&d).ok();
}

/// `tournament` refuses `--include-path`, so its `--help` does not list it; `check --help` does.
#[test]
fn tournament_help_does_not_list_include_path() {
    let d = scratch("help");
    let e = measured(&d, &["tournament", "--help"], None);
    assert_eq!(e.code, Some(0), "{e:?}");
    assert!(!e.stdout.contains("--include-path"), "{}", e.stdout);
    let e = measured(&d, &["check", "--help"], None);
    assert!(e.stdout.contains("--include-path"), "{}", e.stdout);
    let e = measured(
        &d,
        &["tournament", "--include-path", ".", "--games", "1"],
        None,
    );
    assert_eq!(e.code, Some(2), "{e:?}");
    std::fs::remove_dir_all(&d).ok();
}
