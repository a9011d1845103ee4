//! Real engines as players over their own protocols (issue 23): Stockfish over UCI on chess, Fairy-Stockfish on
//! xiangqi (UCI) and shogi (USI), GNU Go over GTP on Go 9x9, and deliberately broken engines (small scripts) that must lose each game with the right `bot-error`
//! while the run finishes.
//!
//! `.ci/run` installs Debian's `stockfish`, `fairy-stockfish` and `gnugo` and sets `DAGAZ_REQUIRE_ENGINES=1`, so there a missing
//! engine fails the test; elsewhere a test whose engine is not installed says so and does nothing.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_dagaz");

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("dagaz-engines-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The engine's program: on the PATH, or in /usr/games where Debian puts it.
fn engine(name: &str) -> Option<String> {
    let path = std::env::var("PATH").unwrap_or_default();
    let found = path
        .split(':')
        .chain(["/usr/games"])
        .map(|d| Path::new(d).join(name))
        .find(|p| p.is_file())
        .map(|p| p.display().to_string());
    if found.is_none() {
        assert!(
            std::env::var_os("DAGAZ_REQUIRE_ENGINES").is_none(),
            "`{name}` is not installed (apt-get install {name})"
        );
        eprintln!("skipped: `{name}` is not installed");
    }
    found
}

/// Runs a tournament; its games.csv as (bot_1, bot_2, winner, end_type, end_name, error) per game.
fn tournament(out: &Path, args: &[&str]) -> Vec<[String; 6]> {
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
    let text = std::fs::read_to_string(out.join("games.csv")).unwrap();
    text.lines()
        .skip(1)
        .map(|l| {
            // The columns up to `error` hold no commas (bot names are given without).
            let f: Vec<&str> = l.splitn(22, ',').collect();
            let error = f[20].to_string() + "," + f.get(21).unwrap_or(&"");
            [
                f[4].into(),
                f[5].into(),
                f[8].into(),
                f[9].into(),
                f[10].into(),
                error,
            ]
        })
        .collect()
}

#[test]
fn stockfish_at_20000_nodes_beats_stockfish_at_500() {
    let Some(sf) = engine("stockfish") else {
        return;
    };
    let d = scratch("sf");
    let strong = format!("uci:command={sf},nodes=20000,option.Hash=16,option.Threads=1,name=sf20k");
    let weak = format!("uci:command={sf},nodes=500,option.Hash=16,option.Threads=1,name=sf500");
    let games = tournament(
        &d,
        &[
            "games/chess.zrf",
            "--bots",
            &strong,
            &weak,
            "--games",
            "4",
            "--jobs",
            "2",
            "--max-plies",
            "400",
        ],
    );
    assert_eq!(games.len(), 4);
    for g in &games {
        assert!(g[3] != "bot-error", "a bot error: {g:?}");
    }
    let wins = |b: &str| games.iter().filter(|g| g[2] == b).count();
    eprintln!(
        "sf20k {} wins, sf500 {} wins, {} draws: {:?}",
        wins("sf20k"),
        wins("sf500"),
        4 - wins("sf20k") - wins("sf500"),
        games.iter().map(|g| &g[4]).collect::<Vec<_>>()
    );
    assert!(wins("sf20k") > wins("sf500"), "{games:?}");
    std::fs::remove_dir_all(d).ok();
}

#[test]
fn gnugo_against_mcts_on_go_9x9_plays_only_legal_moves() {
    let Some(gg) = engine("gnugo") else {
        return;
    };
    let d = scratch("gnugo");
    // games/go-9x9.zrf scores with a komi of 7.5 (2 x Black > 2 x White + 15): GNU Go is told the same.
    let gnugo = format!("gtp:command={gg} --mode gtp --level 1,komi=7.5,name=gnugo1");
    let games = tournament(
        &d,
        &[
            "games/go-9x9.zrf",
            "--bots",
            &gnugo,
            "mcts:iterations=50,name=mcts50",
            "--games",
            "2",
            "--jobs",
            "2",
        ],
    );
    assert_eq!(games.len(), 2);
    for g in &games {
        assert!(
            g[3] != "bot-error" && g[3] != "move-limit",
            "not a game ended by its rules: {g:?}"
        );
    }
    eprintln!(
        "winners: {:?}",
        games.iter().map(|g| (&g[2], &g[4])).collect::<Vec<_>>()
    );
    std::fs::remove_dir_all(d).ok();
}

#[test]
fn fairy_stockfish_plays_xiangqi_over_uci() {
    let Some(fsf) = engine("fairy-stockfish") else {
        return;
    };
    let d = scratch("xiangqi");
    // games/xiangqi.zrf's letters (K A B N R C P) are Fairy-Stockfish's; Red moves first (FEN's `w`).
    let bot =
        format!("uci:command={fsf},nodes=1000,option.UCI_Variant=xiangqi,option.Hash=16,name=fsf");
    let games = tournament(
        &d,
        &[
            "games/xiangqi.zrf",
            "--bots",
            &bot,
            "alphabeta:depth=1,name=ab1",
            "--games",
            "2",
            "--jobs",
            "2",
            "--max-plies",
            "300",
        ],
    );
    assert_eq!(games.len(), 2);
    for g in &games {
        assert!(g[3] != "bot-error", "a bot error: {g:?}");
    }
    eprintln!(
        "winners: {:?}",
        games.iter().map(|g| (&g[2], &g[4])).collect::<Vec<_>>()
    );
    std::fs::remove_dir_all(d).ok();
}

#[test]
fn fairy_stockfish_plays_shogi_over_usi() {
    let Some(fsf) = engine("fairy-stockfish") else {
        return;
    };
    let d = scratch("shogi");
    // SFEN with hands from the reserves, drops (`P*5e`) and promotions (`8h2b+`).
    let bot = format!("usi:command={fsf},nodes=1000,option.USI_Hash=16,name=fsf");
    let games = tournament(
        &d,
        &[
            "games/shogi.zrf",
            "--bots",
            &bot,
            "alphabeta:depth=1,name=ab1",
            "--games",
            "2",
            "--jobs",
            "2",
            "--max-plies",
            "120",
        ],
    );
    assert_eq!(games.len(), 2);
    for g in &games {
        assert!(g[3] != "bot-error", "a bot error: {g:?}");
        // Something was dropped or promoted: the notation was exercised.
        assert!(g[5].contains('@') || g[5].contains('='), "{g:?}");
    }
    eprintln!(
        "winners: {:?}",
        games.iter().map(|g| (&g[2], &g[4])).collect::<Vec<_>>()
    );
    std::fs::remove_dir_all(d).ok();
}

/// A UCI engine that handshakes properly, then misbehaves at `go`.
const BROKEN_UCI: &str = r#"import sys
mode = sys.argv[1]
for line in sys.stdin:
    cmd = line.split()
    if not cmd:
        continue
    if cmd[0] == "uci":
        print("id name broken-" + mode)
        print("uciok", flush=True)
    elif cmd[0] == "isready":
        print("readyok", flush=True)
    elif cmd[0] == "go":
        if mode == "illegal":
            print("info depth 1 score cp 7 nodes 1")
            print("bestmove e2e5", flush=True)
        elif mode == "crash":
            sys.stderr.write("imitated segmentation fault\n")
            sys.exit(3)
        elif mode == "garbage":
            print("bestmove", flush=True)
        # "hang": never answers
    elif cmd[0] == "quit":
        break
"#;

/// A GTP engine that answers every command, then misbehaves at `genmove`.
const BROKEN_GTP: &str = r#"import sys
mode = sys.argv[1]
for line in sys.stdin:
    cmd = line.split()
    if not cmd:
        continue
    if cmd[0] == "list_commands":
        print("= boardsize\nclear_board\nkomi\nplay\ngenmove\nquit\n", flush=True)
    elif cmd[0] == "genmove":
        print("= resign\n" if mode == "resign" else "= Z99\n", flush=True)
    elif cmd[0] == "quit":
        print("=\n", flush=True)
        break
    else:
        print("=\n", flush=True)
"#;

#[test]
fn broken_engines_lose_each_game_with_the_right_error() {
    let d = scratch("broken");
    let uci = d.join("broken_uci.py");
    std::fs::write(&uci, BROKEN_UCI).unwrap();
    let gtp = d.join("broken_gtp.py");
    std::fs::write(&gtp, BROKEN_GTP).unwrap();
    let cases: [(&str, &str, &str, &str, &str); 6] = [
        ("games/chess.zrf", "uci", "illegal", "illegal", "e2e5"),
        (
            "games/chess.zrf",
            "uci",
            "hang",
            "timeout",
            "no `bestmove` within 1000 ms",
        ),
        (
            "games/chess.zrf",
            "uci",
            "crash",
            "crashed",
            "imitated segmentation fault",
        ),
        (
            "games/chess.zrf",
            "uci",
            "garbage",
            "illegal",
            "names no move",
        ),
        ("games/go-9x9.zrf", "gtp", "illegal", "illegal", "Z99"),
        ("games/go-9x9.zrf", "gtp", "resign", "resign", "resign"),
    ];
    for (game, kind, mode, end_name, text) in cases {
        let script = if kind == "uci" { &uci } else { &gtp };
        let limit = if kind == "uci" { ",nodes=1" } else { "" };
        let bot = format!(
            "{kind}:command=python3 {} {mode}{limit},time_ms=1000,startup_ms=5000,name=broken",
            script.display()
        );
        let out = d.join(format!("{kind}-{mode}"));
        let t = std::time::Instant::now();
        let games = tournament(
            &out,
            &[
                game, "--bots", &bot, "random", "--games", "2", "--jobs", "2",
            ],
        );
        assert_eq!(games.len(), 2, "{kind} {mode}");
        for g in &games {
            let end_type = if end_name == "resign" {
                "resign"
            } else {
                "bot-error"
            };
            assert_eq!(
                (g[2].as_str(), g[3].as_str(), g[4].as_str()),
                ("random", end_type, end_name),
                "{kind} {mode}: {g:?}"
            );
            assert!(g[5].contains(text), "{kind} {mode}: {}", g[5]);
        }
        assert!(
            t.elapsed().as_secs() < 20,
            "{kind} {mode}: {:?}",
            t.elapsed()
        );
    }
    std::fs::remove_dir_all(d).ok();
}

#[test]
fn a_game_without_the_engines_notation_is_refused_before_the_run() {
    let d = scratch("refused");
    for (game, bot, want) in [
        (
            "games/go-9x9.zrf",
            "uci:command=stockfish,nodes=1,name=u",
            "piece `Stone` is dropped",
        ),
        (
            "games/chess.zrf",
            "gtp:command=gnugo,name=g",
            "piece `Pawn` moves on the board",
        ),
        (
            "games/oware.zrf",
            "uci:command=stockfish,nodes=1,name=u",
            "no FEN/UCI notation",
        ),
    ] {
        let o = Command::new(BIN)
            .args(["tournament", game, "--bots", bot, "random", "--quiet"])
            .args(["--out", d.join("run").to_str().unwrap()])
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success(), "{game} {bot}: the run started");
        assert!(
            err.contains("cannot play") && err.contains(want),
            "{game} {bot}: {err}"
        );
        assert!(!d.join("run").join("games.csv").exists());
    }
    std::fs::remove_dir_all(d).ok();
}

#[test]
fn fairy_stockfish_plays_xiangqi_over_ucci() {
    let Some(fsf) = engine("fairy-stockfish") else {
        return;
    };
    let d = scratch("ucci");
    // UCCI: `ucci`/`ucciok`, `setoption NAME VALUE`, FEN with xiangqi's letters, ranks from 0 (`h2e2`).
    let bot = format!("ucci:command={fsf},nodes=1000,option.Hash=16,name=fsf");
    let games = tournament(
        &d,
        &[
            "games/xiangqi.zrf",
            "--bots",
            &bot,
            "alphabeta:depth=1,name=ab1",
            "--games",
            "2",
            "--jobs",
            "2",
            "--max-plies",
            "300",
        ],
    );
    assert_eq!(games.len(), 2);
    for g in &games {
        assert!(g[3] != "bot-error", "a bot error: {g:?}");
    }
    eprintln!(
        "winners: {:?}",
        games.iter().map(|g| (&g[2], &g[4])).collect::<Vec<_>>()
    );
    std::fs::remove_dir_all(d).ok();
}
