//! Every game a tournament records in `games.csv` replays move by move from its notation through
//! `dagaz session`, and ends as recorded: tournaments of random bots on each file of `games/` and on 20 corpus
//! games (the morris files among them, whose moves once shared a notation).

#[path = "common/scratch.rs"]
mod scratch_dir;
use scratch_dir::Scratch;
mod common;

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_dagaz");

/// Corpus files (under `../shared/corpus/zrf`) with two seats: games of every family, with drops, dice,
/// forced passes, composite moves, promotions, cascades.
const CORPUS: [&str; 20] = [
    "DagazProject.github.io/morris/zrf/morris.zrf",
    "GlukKazan-Dagaz/src/debug/games/morris/morris.zrf",
    "ZRF/DobutsuShogi/Dobutsu.zrf",
    "ZRF/Daldosa/Daldosa.zrf",
    "GlukKazan-ZoG/External/Checker Games.zrf",
    "ZRF/Duel/Duel.zrf",
    "ZRF/HiQue/hi-que.zrf",
    "ZRF/Kamisado/kamisado.zrf",
    "ZRF/LittleShogiPack/TreasureShogi.zrf",
    "ZRF/Ur/Ur.zrf",
    "ZRF/Sahkku/Sahkku.zrf",
    "ZRF/Bolotoudou/bolotoudou.zrf",
    "ZRF/BombChess/Bombs.zrf",
    "ZRF/Anathem/Anathem.zrf",
    "ZRF/Agon/agon.zrf",
    "ZRF/Thud/Thud.zrf",
    "ZRF/Makyek/Makyek.zrf",
    "GlukKazan-ZoG/Rules/Chess_mandatory.zrf",
    "DagazProject.github.io/breakthrough/zrf/breakthrough.zrf",
    "DagazProject.github.io/custodian/zrf/reversi.zrf",
];

/// Runs a tournament of two random bots on `game` (every variant with `all`, else the first) and returns the
/// rows of its `games.csv`, header first.
fn tournament(game: &Path, out: &Path, all: bool) -> Vec<Vec<String>> {
    let variants: &[&str] = if all { &["--variants", "all"] } else { &[] };
    let settings = [
        "--games",
        "2",
        "--max-plies",
        "300",
        "--seed",
        "11",
        "--quiet",
    ];
    // One random bot per seat: two, or as many as the runner asks for (four-player partnership chess).
    let mut bots: Vec<String> = vec!["random:name=r1".into(), "random:name=r2".into()];
    let run = |bots: &[String], extra: &[&str]| {
        let _ = std::fs::remove_dir_all(out);
        Command::new(BIN)
            .args(["tournament", game.to_str().unwrap()])
            .arg("--bots")
            .args(bots)
            .args(variants)
            .args(settings)
            .args(extra)
            .arg("--out")
            .arg(out)
            .stdout(Stdio::null())
            .output()
            .unwrap()
    };
    let mut status = run(&bots, &[]);
    let stderr = String::from_utf8_lossy(&status.stderr).to_string();
    if let Some(n) = stderr
        .split("give at least ")
        .nth(1)
        .and_then(|t| t.split_whitespace().next())
        .and_then(|n| n.parse::<usize>().ok())
    {
        bots = (1..=n).map(|i| format!("random:name=r{i}")).collect();
        status = run(&bots, &[]);
    }
    // Morris needs rules its ZRF does not hold; where the runner asks for consent to play such a game anyway,
    // give it: what is tested here is the notation, which the missing rules do not change.
    if !status.status.success()
        && String::from_utf8_lossy(&status.stderr).contains("--allow-missing-rules")
    {
        status = run(&bots, &["--allow-missing-rules"]);
    }
    assert!(
        status.status.success(),
        "{}: {}",
        game.display(),
        String::from_utf8_lossy(&status.stderr)
    );
    let mut r = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_path(out.join("games.csv"))
        .unwrap();
    r.records()
        .map(|x| x.unwrap().iter().map(String::from).collect())
        .collect()
}

/// Replays one recorded game in a session: every move must be accepted by its notation, and the game must end
/// as recorded (or, at the ply cap, still be going). Returns the number of moves replayed.
fn replay(game: &Path, variant: &str, moves: &[&str], end_type: &str) -> usize {
    let mut child = Command::new(BIN)
        .args(["session", game.to_str().unwrap(), "--variant", variant])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut ask = |req: Value| -> Value {
        writeln!(stdin, "{req}").unwrap();
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        serde_json::from_str(&line).unwrap()
    };
    let name = game.display();
    for (i, m) in moves.iter().enumerate() {
        let a = ask(json!({"cmd": "play", "move": m}));
        assert_eq!(
            a["ok"], true,
            "{name} ({variant}), ply {i}: `{m}` does not replay: {a}"
        );
    }
    let r = ask(json!({"cmd": "result"}));
    if end_type == "move-limit" {
        assert_eq!(
            r["over"], false,
            "{name} ({variant}): over before the cap: {r}"
        );
    } else {
        assert_eq!(r["over"], true, "{name} ({variant}): not over: {r}");
        assert_eq!(r["outcome"]["end_type"], end_type, "{name} ({variant})");
    }
    drop(stdin);
    child.wait().unwrap();
    moves.len()
}

fn check(files: &[PathBuf], tag: &str, all: bool) {
    let out = Scratch::unmade(&format!("replay-{tag}"));
    let (mut games, mut plies) = (0, 0);
    for (k, f) in files.iter().enumerate() {
        let rows = tournament(f, &out.join(k.to_string()), all);
        let (header, rows) = rows.split_first().unwrap();
        let col = |n: &str| header.iter().position(|h| h == n).unwrap();
        let (variant, end, moves) = (col("variant"), col("end_type"), col("moves"));
        assert!(!rows.is_empty(), "{}: no games", f.display());
        for row in rows {
            let ms: Vec<&str> = row[moves].split(';').filter(|m| !m.is_empty()).collect();
            plies += replay(f, &row[variant], &ms, &row[end]);
            games += 1;
        }
    }
    println!("{tag}: {games} games, {plies} plies replayed from their notation");
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn recorded_games_of_every_project_game_replay() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "zrf"))
        .collect();
    files.sort();
    assert!(files.len() >= 9);
    check(&files, "games", true);
}

#[test]
fn recorded_corpus_games_replay() {
    let files: Vec<PathBuf> = CORPUS
        .iter()
        .map(|f| common::corpus_root().join(f))
        .collect();
    check(&files, "corpus", false);
}
