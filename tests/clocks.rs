//! Clocks (issue 23): fastchess-style time controls kept by the runner, sent to the engines, charged after each
//! move; a flag fall loses with end type `time-forfeit`. The engines here are the fake UCI engine of
//! `tests/fake_engines/clock_uci.py`, which plays the moves of a fixed game and logs the clock it is sent.
//!
//! Nothing here depends on the clock's precision: the increments are checked by exact arithmetic on what the
//! engine was sent and what `timings.csv` says each move took (whole milliseconds on both sides), and the bot
//! that runs out of time oversleeps its clock by three seconds.

#[path = "common/scratch.rs"]
mod scratch_dir;
use dagaz::tournament::writers::RunFiles;
use dagaz::tournament::{GameRecord, GameTiming};
use scratch_dir::Scratch;
use std::path::Path;
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_dagaz");
const FAKE: &str = "tests/fake_engines/clock_uci.py";

fn scratch(name: &str) -> Scratch {
    Scratch::new(&format!("clocks-{name}"))
}

fn tournament(out: &Path, args: &[&str]) -> (Vec<GameRecord>, Vec<GameTiming>) {
    let o = Command::new(BIN)
        .arg("tournament")
        .args(args)
        .args(["--out", out.to_str().unwrap(), "--quiet"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "dagaz tournament {args:?} failed:\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let f = RunFiles::new(out, 2);
    (f.read_games().unwrap(), f.read_timings().unwrap())
}

fn fake(log: &Path, mode: &str, name: &str) -> String {
    format!(
        "uci:command=python3 {FAKE} {} {mode},name={name}",
        log.display()
    )
}

/// The `go` lines a fake engine logged: (moves played before it, the line's words).
fn gos(log: &Path) -> Vec<(usize, Vec<String>)> {
    std::fs::read_to_string(log)
        .unwrap()
        .lines()
        .map(|l| {
            let (n, rest) = l.split_once(' ').unwrap();
            (
                n.parse().unwrap(),
                rest.split_whitespace().map(String::from).collect(),
            )
        })
        .collect()
}

fn field(words: &[String], name: &str) -> Option<u64> {
    let i = words.iter().position(|w| w == name)?;
    words.get(i + 1)?.parse().ok()
}

/// On 10+0.1, the clock an engine is sent before its k-th move (from 0) is 10 s plus k increments less the time
/// its earlier moves took, to the millisecond; the opponent's likewise. `movestogo` is not sent for a control
/// of one period; a 3/6 control sends it, counting down, and adds the period's time after its last move.
#[test]
fn increments_are_credited_and_the_clocks_sent_add_up() {
    for (tc, inc, period) in [("10+0.1", 100u64, None), ("3/6+0.05", 50, Some(3u64))] {
        let d = scratch(&format!("inc-{}", inc));
        let (la, lb) = (d.join("a.log"), d.join("b.log"));
        let (games, timings) = tournament(
            &d.join("run"),
            &[
                "games/chess.zrf",
                "--bots",
                &fake(&la, "fast", "a"),
                &fake(&lb, "fast", "b"),
                "--games",
                "2",
                "--jobs",
                "1",
                "--opening-plies",
                "0",
                "--tc",
                tc,
            ],
        );
        assert_eq!(games.len(), 2);
        let base: u64 = if period.is_some() { 6000 } else { 10_000 };
        // Jobs 1: game 0 then game 1, each a fresh process appending to its bot's log.
        let (mut a, mut b) = (gos(&la).into_iter(), gos(&lb).into_iter());
        for (g, t) in games.iter().zip(&timings) {
            // The fixed game: 33 plies, White mates.
            assert_eq!((g.plies, g.end_name.as_str()), (33, "checkmate"), "{g:?}");
            assert_eq!(g.results, [1, -1]);
            assert_eq!(t.move_ms.len(), 33);
            // Each player's clock before each of its moves, from the times charged.
            let mut left = [base, base];
            let mut made = [0u64, 0];
            for ply in 0..33usize {
                let me = ply % 2;
                let log = if g.bots[me] == "a" { &mut a } else { &mut b };
                let (played, words) = log.next().expect("a logged go");
                assert_eq!(played, ply);
                let (mine, theirs) = if me == 0 {
                    ("wtime", "btime")
                } else {
                    ("btime", "wtime")
                };
                assert_eq!(field(&words, mine), Some(left[me]), "ply {ply}: {words:?}");
                assert_eq!(
                    field(&words, theirs),
                    Some(left[1 - me]),
                    "ply {ply}: {words:?}"
                );
                assert_eq!(field(&words, "winc"), Some(inc));
                assert_eq!(field(&words, "binc"), Some(inc));
                let to_go = period.map(|m| m - made[me] % m);
                assert_eq!(field(&words, "movestogo"), to_go, "ply {ply}: {words:?}");
                let used = t.move_ms[ply].expect("a bot's move has its time");
                left[me] = left[me] - used + inc;
                made[me] += 1;
                if period.is_some_and(|m| made[me].is_multiple_of(m)) {
                    left[me] += base;
                }
                assert_eq!(t.clock_ms[ply], Some(left[me]), "ply {ply}");
            }
            // Increments did arrive: the engines answer at once, so their clocks grew.
            assert!(left[0] > base && left[1] > base, "{left:?}");
        }
        assert!(a.next().is_none() && b.next().is_none());
        // The PGN has the clocks.
        let pgn = std::fs::read_to_string(d.join("run/games.pgn")).unwrap();
        assert!(pgn.contains("{[%clk 0:00:"), "{pgn}");
        std::fs::remove_dir_all(d).ok();
    }
}

/// A bot on 10+0.1 that spends its whole clock (and more) loses on time, as White and as Black, and the run
/// goes on.
#[test]
fn a_bot_that_spends_its_whole_clock_loses_on_time() {
    let d = scratch("flag");
    let log = d.join("spender.log");
    let t = std::time::Instant::now();
    let (games, timings) = tournament(
        &d.join("run"),
        &[
            "games/chess.zrf",
            "--bots",
            &fake(&log, "spend", "spender"),
            "random",
            "--games",
            "2",
            "--jobs",
            "2",
            "--opening-plies",
            "0",
            "--tc",
            "10+0.1",
        ],
    );
    assert_eq!(games.len(), 2);
    for (g, tm) in games.iter().zip(&timings) {
        assert_eq!(
            (
                g.winner().as_str(),
                g.end_type.as_str(),
                g.end_name.as_str()
            ),
            ("random", "time-forfeit", "time-forfeit"),
            "{g:?}"
        );
        assert!(
            g.error.contains("spender") && g.error.contains("10000 ms"),
            "{}",
            g.error
        );
        // The move that ran out is timed (one entry past the plies), over the clock.
        assert_eq!(tm.move_ms.len(), g.plies as usize + 1);
        assert!(tm.move_ms.last().unwrap().unwrap() > 10_000, "{tm:?}");
    }
    // Each engine was sent its full clock first.
    for (_, words) in gos(&log) {
        assert!(words.contains(&"10000".to_string()), "{words:?}");
    }
    assert!(t.elapsed().as_secs() < 60, "{:?}", t.elapsed());
    std::fs::remove_dir_all(d).ok();
}

/// The built-in bots take the same controls: alpha-beta and MCTS on 5+0.1 budget their search from the clock
/// and finish their games on time (a margin of 3 s keeps a loaded machine from deciding).
#[test]
fn built_in_bots_play_on_the_clock() {
    let d = scratch("builtin");
    let (games, timings) = tournament(
        &d.join("run"),
        &[
            "games/breakthrough.zrf",
            "--bots",
            "alphabeta:depth=64,name=ab",
            "mcts:iterations=100000000,name=mcts",
            "--games",
            "2",
            "--jobs",
            "2",
            "--tc",
            "5+0.1",
            "--timemargin",
            "3000",
            "--max-plies",
            "40",
        ],
    );
    for (g, t) in games.iter().zip(&timings) {
        assert_ne!(g.end_type, "time-forfeit", "{g:?}");
        assert_ne!(g.end_type, "bot-error", "{g:?}");
        // Every bot move is timed and its clock kept; the opening's random plies are not.
        for ply in 0..g.plies as usize {
            let bot = ply >= g.opening_plies as usize;
            assert_eq!(t.move_ms[ply].is_some(), bot, "ply {ply}");
            assert_eq!(t.clock_ms[ply].is_some(), bot, "ply {ply}");
        }
    }
    // They searched for their time, not for their (huge) budgets.
    let config = std::fs::read_to_string(d.join("run/config.toml")).unwrap();
    assert!(config.contains("tc = \"5+0.1\""), "{config}");
    std::fs::remove_dir_all(d).ok();
}

#[test]
fn bad_clocks_are_refused_before_the_run() {
    let d = scratch("bad");
    for (args, want) in [
        (vec!["--tc", "40/"], "time control `40/`"),
        (vec!["--tc", "10", "--st", "1"], "not both"),
        (vec!["--timemargin", "5"], "needs a clock"),
    ] {
        let o = Command::new(BIN)
            .args(["tournament", "--bots", "random", "alphabeta-3", "--quiet"])
            .args(&args)
            .args(["--out", d.join("run").to_str().unwrap()])
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success() && err.contains(want), "{args:?}: {err}");
    }
    let o = Command::new(BIN)
        .args([
            "tournament",
            "--bots",
            "alphabeta:tc=1/,name=x",
            "random",
            "--quiet",
        ])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && err.contains("time control"), "{err}");
    std::fs::remove_dir_all(d).ok();
}
