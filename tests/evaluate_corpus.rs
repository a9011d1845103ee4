//! `dagaz evaluate` on folders whose files cannot all be played (issue 25): a row for every rule set of every
//! file, and for a file that cannot be played a row with the reason, which begins with what kind it is
//! (`load error:`, `missing rules:`, `engine error:`). The fast test uses a small folder; the ignored one runs
//! README's corpus command ("Rule sets", the public corpus) as written.

use cli::scratch_dir::Scratch;
#[path = "common/cli.rs"]
mod cli;
mod common;

use cli::{assert_stdout_has, rows, run, ROOT};
use std::collections::BTreeMap;
use std::path::Path;

fn scratch(name: &str) -> Scratch {
    Scratch::new(&format!("evalcorpus-{name}"))
}

/// What a row says of its rule set: `played`, or the kind its reason begins with, or `other`.
fn kind(row: &BTreeMap<String, String>) -> &'static str {
    let reason = row["reason"].as_str();
    match row["status"].as_str() {
        "ok" => "played",
        "time limit" if reason.starts_with("time limit:") => "time limit",
        _ if reason.starts_with("load error:") => "load error",
        _ if reason.starts_with("missing rules:") => "missing rule",
        _ if reason.starts_with("engine error:") => "engine error",
        _ => "other",
    }
}

const GOOD: &str = r#"; Three cells; each player drops a piece on an empty one; a player who cannot loses.
(game (title "First wins") (players A B) (turn-order A B)
  (board (grid (dimensions ("a/b/c" (50 0)) ("1" (0 50))) (directions (e 1 0) (w -1 0))))
  (piece (name P) (drops ((verify empty?) add)))
  (loss-condition (A B) stalemated))
"#;

#[test]
fn a_folder_of_good_broken_and_unplayable_files_is_a_row_each() {
    let d = scratch("small");
    let games = d.join("games");
    std::fs::create_dir_all(games.join("sub")).unwrap();
    std::fs::write(games.join("a-good.zrf"), GOOD).unwrap();
    // Cut short: a reading error on line 1.
    std::fs::write(games.join("sub/b-broken.zrf"), "(game (title \"x\"").unwrap();
    // A rule the engine does not apply.
    std::fs::write(
        games.join("c-missing.zrf"),
        GOOD.replace(
            "(players A B)",
            "(players A B) (option \"no such option\" true)",
        ),
    )
    .unwrap();
    // Rules in an Axiom engine.
    std::fs::write(
        games.join("d-axiom.zrf"),
        GOOD.replace("(players A B)", "(players A B) (engine \"x.dll\")"),
    )
    .unwrap();
    // Macros and no game.
    std::fs::write(games.join("e-empty.zrf"), "(define x (y))\n").unwrap();
    // An error inside a macro's expansion: named at the macro's body (line 1) and at the call (line 4).
    std::fs::write(
        games.join("f-macro.zrf"),
        GOOD.replace("(turn-order A B)", "(turn-order A B)\n  (bad)")
            .replace(
                "; Three cells",
                "(define bad (turn-order $1 X))\n; Three cells",
            ),
    )
    .unwrap();
    let out = d.join("out");
    let mut args: Vec<String> = ["evaluate", games.to_str().unwrap()]
        .map(String::from)
        .to_vec();
    for a in [
        "--strong",
        "random",
        "--weak",
        "random:name=weak",
        "--batch",
        "2",
        "--max-games",
        "2",
        "--jobs",
        "1",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ] {
        args.push(a.into());
    }
    let o = run(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_stdout_has(&o, "6 rule sets evaluated (5 could not be played)");
    let r = rows(&out.join("evaluation.csv"));
    let got: Vec<(String, &str)> = r
        .iter()
        .map(|x| {
            let f = Path::new(&x["file"]).file_name().unwrap();
            (f.to_string_lossy().into_owned(), kind(x))
        })
        .collect();
    let want = [
        ("a-good.zrf", "played"),
        ("c-missing.zrf", "missing rule"),
        ("d-axiom.zrf", "load error"),
        ("e-empty.zrf", "load error"),
        ("f-macro.zrf", "load error"),
        ("b-broken.zrf", "load error"),
    ];
    assert_eq!(
        got,
        want.map(|(f, k)| (f.to_string(), k)).to_vec(),
        "one row per file, in the order of the sorted paths"
    );
    let reason = |i: usize| r[i]["reason"].as_str();
    assert!(reason(1).contains("no such option"), "{}", reason(1));
    assert!(reason(2).contains("Axiom"), "{}", reason(2));
    assert!(reason(3).contains("holds no game"), "{}", reason(3));
    assert!(reason(4).contains("f-macro.zrf:1:"), "{}", reason(4));
    assert!(
        reason(4).contains("macro `bad` called here") && reason(4).contains("f-macro.zrf:4:"),
        "{}",
        reason(4)
    );
    assert!(reason(5).contains("b-broken.zrf:1"), "{}", reason(5));
    assert_eq!(r[0]["games"], "2");
}

/// README's corpus command: the line of its "Rule sets" section that evaluates `../shared/corpus/zrf`.
fn readme_corpus_command() -> Vec<String> {
    let readme = std::fs::read_to_string(Path::new(ROOT).join("README.md")).unwrap();
    let line = readme
        .lines()
        .find(|l| {
            l.trim_start()
                .starts_with("dagaz evaluate ../shared/corpus/zrf ")
        })
        .expect("README gives the corpus command");
    line.split_whitespace().skip(1).map(String::from).collect()
}

#[test]
fn readme_gives_the_corpus_budget() {
    let c = readme_corpus_command();
    for flag in [
        "--max-games",
        "--max-plies",
        "--batch",
        "--time-limit",
        "--out",
    ] {
        assert!(c.iter().any(|a| a == flag), "README's command sets {flag}");
    }
}

/// Every `.zrf` file of the corpus is at least one row; a file's rows are its variants 1..=n, or one row
/// with the reason it could not be read. Prints the counts and the time.
#[test]
#[ignore]
fn the_corpus_is_a_row_per_file() {
    let mut args = readme_corpus_command();
    let out = scratch("corpus");
    let at = args.iter().position(|a| a == "--out").unwrap();
    args[at + 1] = out.to_string_lossy().into_owned();
    let started = std::time::Instant::now();
    let o = run(&args);
    let wall = started.elapsed().as_secs_f64();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let r = rows(&out.join("evaluation.csv"));
    let mut by_file: BTreeMap<String, Vec<&BTreeMap<String, String>>> = BTreeMap::new();
    for x in &r {
        let canon = std::fs::canonicalize(Path::new(ROOT).join(&x["file"])).unwrap();
        by_file
            .entry(canon.to_string_lossy().into_owned())
            .or_default()
            .push(x);
        assert!(
            x["status"] == "ok" || !x["reason"].is_empty(),
            "an error without a reason: {x:?}"
        );
    }
    let files = common::corpus_files();
    for f in &files {
        let canon = std::fs::canonicalize(f).unwrap();
        let rows = by_file
            .get(&*canon.to_string_lossy())
            .unwrap_or_else(|| panic!("no row for {}", f.display()));
        let numbers: Vec<String> = rows.iter().map(|x| x["variant"].clone()).collect();
        let whole_file_error = numbers == [""];
        let counted: Vec<String> = (1..=rows.len()).map(|i| i.to_string()).collect();
        assert!(
            whole_file_error || numbers == counted,
            "{}: variants {numbers:?}",
            f.display()
        );
    }
    assert_eq!(by_file.len(), files.len(), "rows only for corpus files");
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for x in &r {
        *counts.entry(kind(x)).or_default() += 1;
    }
    let mut file_counts: BTreeMap<&str, usize> = BTreeMap::new();
    for rows in by_file.values() {
        // A file counts as played when any variant played, else by its first row's kind.
        let k = if rows.iter().any(|x| kind(x) == "played") {
            "played"
        } else {
            kind(rows[0])
        };
        *file_counts.entry(k).or_default() += 1;
    }
    println!(
        "{} files, {} rule sets in {wall:.0} s; rule sets {counts:?}; files {file_counts:?}",
        files.len(),
        r.len()
    );
    for x in r
        .iter()
        .filter(|x| kind(x) == "other" || kind(x) == "engine error")
    {
        println!("  {} #{}: {}", x["file"], x["variant"], x["reason"]);
    }
    let _ = std::fs::remove_dir_all(&out);
}
