//! `dagaz playout` counts its games per end condition (type, name, priority), split by outcome per player, as a
//! tournament's `end_conditions.csv` does. The expected splits are worked out by hand from the rules of tiny games.

#[path = "common/scratch.rs"]
mod scratch;

use scratch::Scratch;
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_dagaz");

/// One drop by White on one of four cells ends the game. By the rules below: a1 wins for White ("left");
/// b1 loses for White ("middle"); c1 is a draw by a condition without a name (so named by its type); d1 meets
/// both "left" (a win, priority -1: minus its index) and "fourth" (a draw, priority 1), and the higher priority
/// decides: a draw by "fourth".
const FOUR: &str = r#"(game
  (title "Four cells")
  (players White Black)
  (turn-order White Black)
  (board (grid (dimensions ("a/b/c/d" (50 0)) ("1" (0 50)))))
  (piece (name Man) (drops ((verify empty?) add)))
  (board-setup (White (Man off 1)))
  (draw-condition (White) (name "fourth") (priority 1) (absolute-config Man (d1)))
  (win-condition (White) (name "left") (or (absolute-config Man (a1)) (absolute-config Man (d1))))
  (loss-condition (White) (name "middle") (absolute-config Man (b1)))
  (draw-condition (White) (absolute-config Man (c1))))
"#;

/// The game file in a scratch folder of its own, removed (with any run folder beside the file) when the guard
/// drops.
fn write(name: &str, text: &str) -> Scratch {
    Scratch::file("playout-ends", name, text)
}

fn dagaz(args: &[&str]) -> Output {
    let o = Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "dagaz {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

fn json(args: &[&str]) -> serde_json::Value {
    serde_json::from_slice(&dagaz(args).stdout).unwrap()
}

/// The row of `ends` named `name`.
fn end<'a>(v: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    v["ends"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == name)
        .unwrap_or_else(|| panic!("no end {name}: {v}"))
}

/// Per player name: [wins, draws, losses] of one row.
fn split(e: &serde_json::Value, player: &str) -> [u64; 3] {
    let p = &e["players"][player];
    ["wins", "draws", "losses"].map(|k| p[k].as_u64().unwrap())
}

#[test]
fn each_end_condition_is_split_by_outcome() {
    let f = write("four.zrf", FOUR);
    let f = f.to_str().unwrap();
    let args = ["playout", f, "--games", "400", "--seed", "1"];
    let v = json(&[&args[..], &["--json"]].concat());
    let ends = v["ends"].as_array().unwrap();
    assert_eq!(ends.len(), 4, "{v}");
    let games: Vec<u64> = ends.iter().map(|e| e["games"].as_u64().unwrap()).collect();
    assert_eq!(games.iter().sum::<u64>(), 400);
    // Each cell is drawn about a quarter of the time: every condition fired.
    assert!(games.iter().all(|&n| n > 0), "{v}");
    for (name, ty, priority, white, black) in [
        ("left", "absolute-config", -1, 0, 2),
        ("middle", "absolute-config", -2, 2, 0),
        ("absolute-config", "absolute-config", -3, 1, 1),
        ("fourth", "absolute-config", 1, 1, 1),
    ] {
        let e = end(&v, name);
        assert_eq!(e["type"], ty, "{e}");
        assert_eq!(e["priority"], priority, "{e}");
        let n = e["games"].as_u64().unwrap();
        let mut want = [0; 3];
        want[white] = n;
        assert_eq!(split(e, "White"), want, "White by {name}: {e}");
        let mut want = [0; 3];
        want[black] = n;
        assert_eq!(split(e, "Black"), want, "Black by {name}: {e}");
    }
    // The older keys still say the same.
    assert_eq!(v["end_types"]["absolute-config"], 400);
    assert_eq!(v["wins"]["White"], end(&v, "left")["games"]);
    assert_eq!(v["wins"]["Black"], end(&v, "middle")["games"]);
    // The text says it too.
    let text = String::from_utf8(dagaz(&args).stdout).unwrap();
    let n = &end(&v, "fourth")["games"];
    let line = format!(
        "end absolute-config \"fourth\" (priority 1): {n} games: White 0 won / {n} drawn / 0 lost; Black 0 won / {n} drawn / 0 lost"
    );
    assert!(text.contains(&line), "no `{line}` in:\n{text}");
    let n = &end(&v, "left")["games"];
    let line = format!(
        "end absolute-config \"left\" (priority -1): {n} games: White {n} won / 0 drawn / 0 lost; Black 0 won / 0 drawn / {n} lost"
    );
    assert!(text.contains(&line), "no `{line}` in:\n{text}");
}

/// The move limit and the engine's own stalemate (no legal move, no declared condition holding) are draws for
/// everyone, each its own row.
#[test]
fn the_move_limit_and_the_engines_stalemate_are_draws() {
    let f = write("four-capped.zrf", FOUR);
    let v = json(&[
        "playout",
        f.to_str().unwrap(),
        "--games",
        "5",
        "--max-plies",
        "0",
        "--json",
    ]);
    let e = end(&v, "move-limit");
    assert_eq!((&e["type"], &e["games"]), (&"move-limit".into(), &5.into()));
    assert_eq!(split(e, "White"), [0, 5, 0]);
    assert_eq!(split(e, "Black"), [0, 5, 0]);
    // Black, to move first, has no piece to drop; no cell is taken, so no condition holds.
    let stuck = FOUR.replace("(turn-order White Black)", "(turn-order Black White)");
    let f = write("stuck.zrf", &stuck);
    let v = json(&["playout", f.to_str().unwrap(), "--games", "3", "--json"]);
    assert_eq!(v["ends"].as_array().unwrap().len(), 1, "{v}");
    let e = end(&v, "stalemated");
    assert_eq!(e["type"], "stalemated");
    assert_eq!(e["games"], 3);
    assert_eq!(split(e, "White"), [0, 3, 0]);
    assert_eq!(split(e, "Black"), [0, 3, 0]);
}

/// A tournament of the same game names the same end conditions (type, name, priority) in `end_conditions.csv`,
/// with the same outcomes per player by each: the two commands agree.
#[test]
fn a_tournament_names_the_same_ends() {
    let f = write("four-tournament.zrf", FOUR);
    let f = f.to_str().unwrap();
    let out = f.replace(".zrf", "-run");
    let _ = std::fs::remove_dir_all(&out);
    dagaz(&[
        "tournament",
        f,
        "--bots",
        "random",
        "random:name=r2",
        "--games",
        "40",
        "--jobs",
        "1",
        "--out",
        &out,
        "--quiet",
    ]);
    let csv =
        std::fs::read_to_string(std::path::Path::new(&out).join("end_conditions.csv")).unwrap();
    let v = json(&["playout", f, "--games", "400", "--seed", "1", "--json"]);
    let mut lines = csv.lines();
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |k: &str| head.iter().position(|h| *h == k).unwrap();
    let mut seen = std::collections::BTreeSet::new();
    for l in lines {
        let r: Vec<&str> = l.split(',').collect();
        let (ty, name, priority) = (
            r[col("end_type")],
            r[col("end_name")],
            r[col("end_priority")],
        );
        let e = end(&v, name.trim_matches('"'));
        assert_eq!(e["type"], ty, "{l}");
        assert_eq!(e["priority"].to_string(), priority, "{l}");
        // Where the tournament saw a player win (draw, lose) by a condition, the playout saw it too: the
        // tournament never reports an outcome by a condition that the rules (and the playout) do not give.
        let wdl = ["wins", "draws", "losses"].map(|k| r[col(k)].parse::<u64>().unwrap() > 0);
        let ours = split(e, r[col("player")]).map(|n| n > 0);
        assert!(wdl.iter().zip(ours).all(|(&t, o)| !t || o), "{l}: {e}");
        seen.insert(name.to_string());
    }
    assert!(!seen.is_empty(), "{csv}");
    let _ = std::fs::remove_dir_all(&out);
}

/// README's example of the text, `dagaz playout games/pentago.zrf --games 300 --seed 1`, is what that command
/// prints: each of its `end ...` lines is a line of the output.
#[test]
fn the_readme_example_is_the_output() {
    let root = env!("CARGO_MANIFEST_DIR");
    let readme = std::fs::read_to_string(std::path::Path::new(root).join("README.md")).unwrap();
    let cmd = "dagaz playout games/pentago.zrf --games 300 --seed 1";
    let at = readme
        .find(&format!("(`{cmd}`):"))
        .expect("README names the command");
    let shown: Vec<&str> = readme[at..]
        .lines()
        .skip(2)
        .take_while(|l| l.starts_with("    "))
        .map(str::trim)
        .collect();
    assert!(shown.len() >= 2, "{shown:?}");
    let args: Vec<String> = cmd
        .split(' ')
        .skip(1)
        .map(|a| {
            if a.ends_with(".zrf") {
                format!("{root}/{a}")
            } else {
                a.to_string()
            }
        })
        .collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let text = String::from_utf8(dagaz(&args).stdout).unwrap();
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    for l in shown {
        assert!(
            lines.contains(&l),
            "README shows `{l}`, the command prints:\n{text}"
        );
    }
}
