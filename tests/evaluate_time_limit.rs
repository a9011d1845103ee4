//! `dagaz evaluate --time-limit` (issue 25): a rule set that uses up its CPU time is a row whose reason says
//! so, whether its games never end or one move does not return; a rule set within the limit gets the row it
//! gets without one, for any `--jobs`; `--resume` keeps a stopped row and the batches finished before. The
//! limits are CPU time and the slow rule sets slow by design (a game no position ends, a search of depth
//! 12), so that load on the machine changes how long these tests take, not what they see.

use cli::scratch_dir::Scratch;
#[path = "common/cli.rs"]
mod cli;

use cli::{assert_stdout_has, dagaz, read, rows};
use std::path::{Path, PathBuf};
use std::process::Output;

fn scratch(name: &str) -> Scratch {
    Scratch::new(&format!("timelimit-{name}"))
}

/// Ends within three plies: the player who cannot drop loses.
const GOOD: &str = r#"; Three cells; each player drops a piece on an empty one; a player who cannot loses.
(game (title "First wins") (players A B) (turn-order A B)
  (board (grid (dimensions ("a/b/c" (50 0)) ("1" (0 50))) (directions (e 1 0) (w -1 0))))
  (piece (name P) (drops ((verify empty?) add)))
  (loss-condition (A B) stalemated))
"#;

/// Slow by design: three moves in every position and no position that ends the game (five pieces of one
/// player on three cells), so that with a ply cap of 4,000,000,000 no game ends.
const ENDLESS: &str = r#"; Three cells; each player drops a piece on any cell, taking what is there.
(game (title "Endless") (players A B) (turn-order A B)
  (board (grid (dimensions ("a/b/c" (50 0)) ("1" (0 50))) (directions (e 1 0) (w -1 0))))
  (piece (name P) (drops (add)))
  (win-condition (A B) (pieces-remaining 5 P)))
"#;

/// A folder with the two rule sets, `a-good.zrf` first.
fn folder(d: &Path) -> PathBuf {
    let g = d.join("games");
    std::fs::create_dir_all(&g).unwrap();
    std::fs::write(g.join("a-good.zrf"), GOOD).unwrap();
    std::fs::write(g.join("b-endless.zrf"), ENDLESS).unwrap();
    g
}

/// Random bots, one batch of 2 games per encounter, no ply cap to speak of.
fn evaluate(paths: &[&Path], out: &Path, rest: &[&str]) -> Output {
    let mut a: Vec<String> = vec!["evaluate".into()];
    a.extend(paths.iter().map(|p| p.to_string_lossy().into_owned()));
    for x in [
        "--strong",
        "random",
        "--weak",
        "random:name=weak",
        "--batch",
        "2",
        "--max-plies",
        "4000000000",
        "--quiet",
        "--out",
    ] {
        a.push(x.into());
    }
    a.push(out.to_string_lossy().into_owned());
    a.extend(rest.iter().map(|x| x.to_string()));
    dagaz(&a.iter().map(String::as_str).collect::<Vec<_>>())
}

/// The gauntlet of a batch: the stronger bot against its copy and against the weaker bot, 2 games each.
const BATCH_GAMES: u32 = 4;

#[test]
fn an_endless_rule_set_is_stopped_by_its_limit_and_a_quick_one_is_not_changed() {
    let d = scratch("endless");
    let g = folder(&d);
    let one = d.join("one");
    let o = evaluate(
        &[&g],
        &one,
        &["--max-games", "2", "--time-limit", "1", "--jobs", "1"],
    );
    assert_stdout_has(
        &o,
        "2 rule sets evaluated (0 could not be played, 1 stopped by the time limit)",
    );
    let r = rows(&one.join("evaluation.csv"));
    assert_eq!(r.len(), 2);
    assert_eq!(
        (r[0]["title"].as_str(), r[0]["status"].as_str()),
        ("First wins", "ok")
    );
    assert_eq!(r[0]["games"], "2");
    assert_eq!(r[1]["title"], "Endless");
    assert_eq!(r[1]["status"], "time limit");
    assert_eq!(
        r[1]["reason"],
        format!(
            "time limit: 1 s of CPU used up in batch 1 after 0 of its {BATCH_GAMES} games; no batch \
             finished, so nothing is measured"
        )
    );
    assert_eq!(r[1]["games"], "", "nothing measured");
    let html = read(&one.join("evaluation.html"));
    assert!(
        html.contains("not measured: time limit: 1 s of CPU"),
        "{html}"
    );

    // Two jobs: one rule set on each thread; the same file.
    let two = d.join("two");
    evaluate(
        &[&g],
        &two,
        &["--max-games", "2", "--time-limit", "1", "--jobs", "2"],
    );
    assert_eq!(
        read(&one.join("evaluation.csv")),
        read(&two.join("evaluation.csv"))
    );
    // The endless rule set alone on two jobs: two games at once charge the one budget.
    let alone = d.join("alone");
    evaluate(
        &[&g.join("b-endless.zrf")],
        &alone,
        &["--max-games", "2", "--time-limit", "1", "--jobs", "2"],
    );
    assert_eq!(
        rows(&alone.join("evaluation.csv"))[0]["reason"],
        r[1]["reason"]
    );

    // The quick rule set without a limit: the same row.
    let free = d.join("free");
    evaluate(
        &[&g.join("a-good.zrf")],
        &free,
        &["--max-games", "2", "--time-limit", "0", "--jobs", "1"],
    );
    assert_eq!(rows(&free.join("evaluation.csv"))[0], r[0]);

    // --resume keeps the stopped row without playing it again (its batch folder, removed, stays away).
    let batch = one.join("sets/0001-b-endless/batch-0");
    assert!(batch.is_dir());
    std::fs::remove_dir_all(&batch).unwrap();
    let before = read(&one.join("evaluation.csv"));
    evaluate(
        &[&g],
        &one,
        &[
            "--max-games",
            "2",
            "--time-limit",
            "1",
            "--jobs",
            "1",
            "--resume",
        ],
    );
    assert!(!batch.exists(), "the stopped rule set was played again");
    assert_eq!(read(&one.join("evaluation.csv")), before);
    let _ = std::fs::remove_dir_all(&d);
}

/// A move that does not return within the limit (a fixed-depth search of depth 12 at Breakthrough, which
/// the runner would otherwise wait 600 s for) is cut by the game's watcher, which reads the game thread's
/// CPU clock while it searches.
#[test]
fn a_move_that_does_not_return_is_cut() {
    let d = scratch("deep");
    let out = d.join("out");
    let o = dagaz(&[
        "evaluate",
        "games/breakthrough.zrf",
        "--strong",
        "alphabeta:depth=12,name=deep",
        "--weak",
        "random",
        "--batch",
        "2",
        "--max-games",
        "2",
        "--time-limit",
        "1",
        "--jobs",
        "1",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    let r = rows(&out.join("evaluation.csv"));
    assert_eq!(r.len(), 1);
    assert_eq!(r[0]["status"], "time limit");
    assert_eq!(
        r[0]["reason"],
        format!(
            "time limit: 1 s of CPU used up in batch 1 after 0 of its {BATCH_GAMES} games; no batch \
             finished, so nothing is measured"
        )
    );
    let _ = std::fs::remove_dir_all(&d);
}

/// A limit used up between batches keeps the measures of the batches finished: they are the measures of
/// those games alone. (The limit is used up on `--resume`: a rule set's finished batches' CPU time is kept in
/// `cpu-seconds` for a resume; written here as the whole limit.)
#[test]
fn finished_batches_are_kept_when_the_limit_falls_between_them() {
    let d = scratch("between");
    let g = folder(&d);
    let good = g.join("a-good.zrf");
    let out = d.join("out");
    let args = ["--max-games", "4", "--time-limit", "50", "--jobs", "1"];
    evaluate(&[&good], &out, &args);
    let full = rows(&out.join("evaluation.csv"));
    assert_eq!(
        (full[0]["games"].as_str(), full[0]["stopped"].as_str()),
        ("4", "max-games after 2 batches")
    );
    let set = out.join("sets/0000-a-good");
    let spent: f64 = read(&set.join("cpu-seconds")).trim().parse().unwrap();
    assert!(spent > 0.0 && spent < 50.0, "{spent}");
    std::fs::remove_dir_all(set.join("batch-1")).unwrap();
    std::fs::remove_file(set.join("row.json")).unwrap();
    std::fs::write(set.join("cpu-seconds"), "50.000\n").unwrap();
    let mut resume = args.to_vec();
    resume.push("--resume");
    evaluate(&[&good], &out, &resume);
    let cut = rows(&out.join("evaluation.csv"));
    assert_eq!(cut[0]["status"], "time limit");
    assert_eq!(
        cut[0]["reason"],
        "time limit: 50 s of CPU used up after batch 1; kept: the measures of batch 1 (2 self-play games)"
    );
    assert_eq!(cut[0]["stopped"], "time limit after 1 batches");
    // The page shows the measures, with the reason among the flags.
    let html = read(&out.join("evaluation.html"));
    assert!(
        !html.contains("not measured")
            && html.contains("<td class=\"flags\">time limit: 50 s of CPU"),
        "{html}"
    );
    // The measures are those of batch 1 alone: the same as an evaluation of one batch.
    let one = d.join("one");
    evaluate(
        &[&good],
        &one,
        &["--max-games", "2", "--time-limit", "50", "--jobs", "1"],
    );
    let first = rows(&one.join("evaluation.csv"));
    assert_eq!(first[0]["games"], "2");
    for (k, v) in &first[0] {
        if !["status", "reason", "stopped", "flags"].contains(&k.as_str()) {
            assert_eq!(&cut[0][k], v, "column {k}");
        }
    }
    let _ = std::fs::remove_dir_all(&d);
}
