//! Runs that cannot be killed by their inputs (issue 21): each test plays what used to kill, hang or exhaust
//! the runner, through the binary, and checks the exit code, the message and the peak memory (from `wait4`).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_dagaz");

/// A fresh, empty folder for one test.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("dagaz-hostile-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// How a run of the binary ended.
#[derive(Debug)]
struct Ended {
    /// The exit code, or `None` if a signal ended it (then `signal`).
    code: Option<i32>,
    signal: Option<i32>,
    /// Peak resident memory, MB.
    peak_mb: f64,
    stdout: String,
    stderr: String,
}

/// Runs the binary in `dir` with `args`, standard input from `stdin` (or nothing), and waits for it with
/// `wait4`, which gives its own peak memory.
fn measured(dir: &Path, args: &[&str], stdin: Option<&Path>) -> Ended {
    let (out, err) = (dir.join("stdout.txt"), dir.join("stderr.txt"));
    let child = Command::new(BIN)
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
    let mut status = 0;
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = child.id() as libc::pid_t;
    assert_eq!(unsafe { libc::wait4(pid, &mut status, 0, &mut usage) }, pid);
    Ended {
        code: libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status)),
        signal: libc::WIFSIGNALED(status).then(|| libc::WTERMSIG(status)),
        peak_mb: usage.ru_maxrss as f64 / 1024.0,
        stdout: std::fs::read_to_string(&out).unwrap_or_default(),
        stderr: std::fs::read_to_string(&err).unwrap_or_default(),
    }
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
