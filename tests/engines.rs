//! Real engines as players over their own protocols (issue 23): Stockfish over UCI on chess, Fairy-Stockfish on
//! xiangqi (UCI) and shogi (USI), GNU Go over GTP on Go 9x9, and deliberately broken engines (small scripts) that must lose each game with the right `bot-error`
//! while the run finishes.
//!
//! `.ci/run` installs Debian's `stockfish`, `fairy-stockfish` and `gnugo` and sets `DAGAZ_REQUIRE_ENGINES=1`, so there a missing
//! engine fails the test; elsewhere a test whose engine is not installed says so and does nothing.

#[path = "common/scratch.rs"]
mod scratch_dir;
use scratch_dir::Scratch;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_dagaz");

fn scratch(name: &str) -> Scratch {
    Scratch::new(&format!("engines-{name}"))
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

/// The wins, draws and losses of bot `a` in `games`, printed (with `--nocapture`) as `MATCH label: a W/D/L
/// w/d/l against b`, with each game's end, so that the closing note can quote them.
fn wdl(label: &str, games: &[[String; 6]], a: &str, b: &str) -> (usize, usize, usize) {
    let w = games.iter().filter(|g| g[2] == a).count();
    let d = games.iter().filter(|g| g[2].is_empty()).count();
    let l = games.len() - w - d;
    let ends: Vec<String> = games
        .iter()
        .map(|g| format!("{}:{}", if g[2].is_empty() { "draw" } else { &g[2] }, g[4]))
        .collect();
    eprintln!(
        "MATCH {label}: {a} W/D/L {w}/{d}/{l} against {b} ({} games; {})",
        games.len(),
        ends.join(", ")
    );
    (w, d, l)
}

/// The Python of `target/chess-venv` (`python3 -m venv target/chess-venv && target/chess-venv/bin/pip install
/// chess`; `.ci/run` makes it), if it has python-chess.
fn python_chess() -> Option<PathBuf> {
    let py = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/chess-venv/bin/python");
    let ok = Command::new(&py)
        .args(["-c", "import chess.pgn"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        assert!(
            std::env::var_os("DAGAZ_REQUIRE_ENGINES").is_none(),
            "python-chess is not in target/chess-venv (python3 -m venv target/chess-venv && target/chess-venv/bin/pip install chess)"
        );
        eprintln!("skipped: python-chess is not in target/chess-venv");
        return None;
    }
    Some(py)
}

/// `games.pgn` read back by python-chess (`tests/engines/pgn_readback.py`): per game, White and Black, the
/// result, every move legal, the `%clk` of every move the engines chose equal to `timings.csv`'s `clock_ms` to
/// the millisecond, and a checkmate where dagaz recorded one.
fn pgn_reads_back(dir: &Path, games: &[[String; 6]]) {
    let Some(py) = python_chess() else {
        return;
    };
    let o = Command::new(py)
        .arg("tests/engines/pgn_readback.py")
        .arg(dir.join("games.pgn"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout).to_string();
    let read: Vec<&str> = text.lines().collect();
    assert_eq!(read.len(), games.len(), "{text}");
    let timings = std::fs::read_to_string(dir.join("timings.csv")).unwrap();
    let csv = std::fs::read_to_string(dir.join("games.csv")).unwrap();
    for (i, (g, line)) in games.iter().zip(&read).enumerate() {
        let field = |k: &str| -> String {
            let at = line
                .find(&format!("\"{k}\": "))
                .unwrap_or_else(|| panic!("{k}: {line}"));
            let rest = &line[at + k.len() + 4..];
            let end = rest.find([',', '}']).unwrap();
            rest[..end].trim_matches('"').to_string()
        };
        assert_eq!(
            (field("white"), field("black")),
            (g[0].clone(), g[1].clone()),
            "{line}"
        );
        let result = match g[2].as_str() {
            "" => "1/2-1/2",
            w if w == g[0] => "1-0",
            _ => "0-1",
        };
        assert_eq!(field("result"), result, "{line}");
        assert!(
            line.contains("\"errors\": []"),
            "python-chess met an error: {line}"
        );
        let row: Vec<&str> = csv.lines().nth(i + 1).unwrap().split(',').collect();
        assert_eq!(field("plies"), row[12], "{line}");
        if g[4] == "checkmate" {
            assert_eq!(field("end"), "checkmate", "{line}");
        }
        // The clocks: python-chess's seconds against timings.csv's milliseconds, move by move.
        let clocks_at = line.find("\"clocks\": [").unwrap() + 11;
        let clocks: Vec<Option<f64>> = line
            [clocks_at..line[clocks_at..].find(']').unwrap() + clocks_at]
            .split(',')
            .map(|c| c.trim().parse().ok())
            .collect();
        let t_row = timings.lines().nth(i + 1).unwrap();
        let clock_ms: Vec<Option<u64>> = t_row
            .rsplit(',')
            .next()
            .unwrap()
            .split(';')
            .map(|c| c.parse().ok())
            .collect();
        assert_eq!(clocks.len(), clock_ms.len(), "{line}");
        let with_clock = clock_ms.iter().filter(|c| c.is_some()).count();
        assert!(with_clock > 10, "{t_row}");
        for (c, ms) in clocks.iter().zip(&clock_ms) {
            assert_eq!(c.map(|s| (s * 1000.0).round() as u64), *ms, "{line}");
        }
    }
    eprintln!(
        "python-chess read back {} games with names, clocks and results",
        games.len()
    );
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
            "6",
            "--jobs",
            "2",
            "--max-plies",
            "400",
            // A clock as well as the nodes, so that the PGN has `%clk`.
            "--tc",
            "60+1",
        ],
    );
    assert_eq!(games.len(), 6);
    for g in &games {
        assert!(g[3] != "bot-error", "a bot error: {g:?}");
    }
    let (w, _, l) = wdl(
        "Stockfish nodes=20000 vs nodes=500, chess",
        &games,
        "sf20k",
        "sf500",
    );
    assert!(w > l, "{games:?}");
    pgn_reads_back(&d, &games);
    std::fs::remove_dir_all(d).ok();
}

/// The games of a `games.sgf`: each game's `KM`, `RE` and moves as GTP `play` commands (`play B D4`, `play W
/// pass`), the SGF's points turned into GTP vertices (columns A to T without I; rows from the bottom).
fn sgf_games(text: &str, size: usize) -> Vec<(String, String, Vec<String>)> {
    let prop = |g: &str, k: &str| -> String {
        let at = g.find(&format!("{k}[")).map(|i| i + k.len() + 1);
        at.map_or(String::new(), |i| {
            g[i..i + g[i..].find(']').unwrap()].to_string()
        })
    };
    text.split("(;")
        .skip(1)
        .map(|g| {
            // The move nodes `;B[cd]`, `;W[]` (the header's GC may hold a `;` of its own).
            let starts: Vec<usize> = (0..g.len())
                .filter(|&i| g[i..].starts_with(";B[") || g[i..].starts_with(";W["))
                .collect();
            let moves = starts
                .iter()
                .map(|&i| {
                    let node = &g[i + 1..];
                    let colour = &node[..1];
                    let point = &node[2..node.find(']').unwrap()];
                    let vertex = if point.is_empty() {
                        "pass".to_string()
                    } else {
                        let b = point.as_bytes();
                        let col = (b[0] - b'a') as usize;
                        let row = (b[1] - b'a') as usize;
                        let letter = b"ABCDEFGHJKLMNOPQRSTUVWXYZ"[col] as char;
                        format!("{letter}{}", size - row)
                    };
                    format!("play {colour} {vertex}")
                })
                .collect();
            (prop(g, "KM"), prop(g, "RE"), moves)
        })
        .collect()
}

/// GNU Go's answers to `commands` (one process, the commands in a row): the text of each `=` response.
fn gtp_answers(program: &str, args: &[&str], commands: &[String]) -> Vec<String> {
    use std::io::Write;
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = commands.join("\n");
    input.push_str("\nquit\n");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let answers: Vec<String> = text
        .split("\n\n")
        .map(|r| r.trim().to_string())
        .filter(|r| !r.is_empty())
        .collect();
    for (c, a) in commands.iter().zip(&answers) {
        assert!(a.starts_with('='), "GNU Go refused `{c}`: {a}");
    }
    answers
}

#[test]
fn gnugo_against_mcts_on_go_9x9_plays_only_legal_moves() {
    let Some(gg) = engine("gnugo") else {
        return;
    };
    let d = scratch("gnugo");
    // games/go-9x9.zrf scores by area (stones plus the empty points only one colour reaches, the Chinese rules'
    // count) with a komi of 7.5 (2 x Black > 2 x White + 15): GNU Go is told the same, and plays on until the
    // dead stones are taken off (`--capture-all-dead`), so that counting every stone as alive is the count.
    let gnugo = format!(
        "gtp:command={gg} --mode gtp --level 1 --chinese-rules --capture-all-dead,komi=7.5,name=gnugo1"
    );
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
    wdl("GNU Go level 1 vs MCTS, Go 9x9", &games, "gnugo1", "mcts50");
    // The SGF: komi and result with the margin; GNU Go, given each game's moves, scores it the same.
    let sgf = std::fs::read_to_string(d.join("games.sgf")).unwrap();
    let read = sgf_games(&sgf, 9);
    assert_eq!(read.len(), games.len());
    for ((km, re, moves), g) in read.iter().zip(&games) {
        assert_eq!(km, "7.5", "{sgf}");
        let black = &g[0]; // bot_1 plays Black, the first player
        let winner = if g[2] == *black { "B+" } else { "W+" };
        assert!(re.starts_with(winner), "RE[{re}] for {g:?}");
        let margin: f64 = re[2..]
            .parse()
            .unwrap_or_else(|_| panic!("RE[{re}] has no margin"));
        assert!(margin.fract() == 0.5, "RE[{re}]");
        let mut commands: Vec<String> = ["boardsize 9", "clear_board", "komi 7.5"]
            .iter()
            .map(|c| c.to_string())
            .collect();
        commands.extend(moves.iter().cloned());
        commands.push("final_score".into());
        let answers = gtp_answers(&gg, &["--mode", "gtp", "--chinese-rules"], &commands);
        let score = answers[commands.len() - 1]
            .trim_start_matches('=')
            .trim()
            .to_string();
        eprintln!(
            "GNU Go's final_score {score}, dagaz's RE[{re}] ({} moves)",
            moves.len()
        );
        assert_eq!(score, *re, "GNU Go's final_score against dagaz's result");
    }
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
    wdl(
        "Fairy-Stockfish (UCI) vs alpha-beta, xiangqi",
        &games,
        "fsf",
        "ab1",
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
    wdl(
        "Fairy-Stockfish (USI) vs alpha-beta, shogi",
        &games,
        "fsf",
        "ab1",
    );
    std::fs::remove_dir_all(d).ok();
}

#[test]
fn gnushogi_plays_shogi_over_xboard() {
    let Some(gs) = engine("gnushogi") else {
        return;
    };
    let d = scratch("gnushogi");
    // GNU Shogi speaks version 1 of the protocol (no features: dagaz waits `protover_ms` for them) and moves in
    // USI's words (`7g7f`, `P*5e`, `8h2b+`). It takes about 1 to 3 s a move whatever its clock (`level 60
    // 2:00` here), so the games are short.
    let bot = format!("xboard:command={gs},tc=60/120,protover_ms=1000,name=gnushogi");
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
            "30",
        ],
    );
    assert_eq!(games.len(), 2);
    for g in &games {
        assert!(g[3] != "bot-error", "a bot error: {g:?}");
    }
    wdl(
        "gnushogi (xboard) vs alpha-beta, shogi",
        &games,
        "gnushogi",
        "ab1",
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
    let cases: [(&str, &str, &str, &str, &str); 12] = [
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
        // The fake CECP engine of tests/fake_engines/cecp.py.
        ("games/chess.zrf", "xboard", "illegal", "illegal", "e2e5"),
        (
            "games/chess.zrf",
            "xboard",
            "hang",
            "timeout",
            "no `move` within 1000 ms",
        ),
        (
            "games/chess.zrf",
            "xboard",
            "crash",
            "crashed",
            "imitated segmentation fault",
        ),
        (
            "games/chess.zrf",
            "xboard",
            "garbage",
            "illegal",
            "`move` names no move",
        ),
        (
            "games/chess.zrf",
            "xboard",
            "refuse",
            "illegal",
            "the engine refused the move",
        ),
        (
            "games/chess.zrf",
            "xboard",
            "claim",
            "illegal",
            "claimed `1/2-1/2 {fake draw claim}` instead of moving",
        ),
    ];
    for (game, kind, mode, end_name, text) in cases {
        let cecp = Path::new("tests/fake_engines/cecp.py").to_path_buf();
        let script = match kind {
            "uci" => &uci,
            "xboard" => &cecp,
            _ => &gtp,
        };
        let limit = match kind {
            "uci" => ",nodes=1",
            "xboard" => ",depth=1",
            _ => "",
        };
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
        wdl(
            &format!("broken {kind} engine ({mode})"),
            &games,
            "broken",
            "random",
        );
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
    wdl(
        "Fairy-Stockfish (UCCI) vs alpha-beta, xiangqi",
        &games,
        "fsf",
        "ab1",
    );
    std::fs::remove_dir_all(d).ok();
}
