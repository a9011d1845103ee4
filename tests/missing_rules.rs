//! Nothing is dropped silently: a rule the file asks for that the engine does not apply (an unknown option or
//! section, no end condition at all) is listed by `check`, answered by `session`'s `info`, and makes `playout`
//! and `tournament` refuse the game in one line unless given `--allow-missing-rules`; a run that plays anyway
//! lists what it played without in `config.toml` and `report.md`, and can be resumed.

#[path = "common/scratch.rs"]
mod scratch_dir;
use dagaz::compile::MissingKind;
use dagaz::lang::read_str;
use dagaz::load::compile_source as compile;
use scratch_dir::Scratch;
use serde_json::Value;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_dagaz");

/// The corpus XiangQi, which leaves the flying-general rule to `(option "xiangqi-extension" true)` (line 61).
fn xiangqi() -> String {
    corpus("DagazProject.github.io/xiangqi/zrf/xiangqi.zrf")
}

/// The corpus Hex, which declares no end condition (its goal is a Dagaz script).
fn hex() -> String {
    corpus("DagazProject.github.io/arrange/zrf/hex.zrf")
}

fn corpus(rel: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus/zrf")
        .join(rel);
    assert!(p.is_file(), "missing corpus file {}", p.display());
    p.to_string_lossy().into_owned()
}

fn dagaz(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn scratch(name: &str) -> Scratch {
    Scratch::new(&format!("missing-{name}"))
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// A refusal: a failure whose standard error is one `error:` line naming each of `names` and pointing at the
/// flag, with nothing on standard output.
fn assert_refused(out: &Output, names: &[&str]) {
    let err = text(&out.stderr);
    assert!(!out.status.success(), "not refused; stderr:\n{err}");
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 1, "one line expected:\n{err}");
    assert!(lines[0].starts_with("error: "), "{err}");
    assert!(lines[0].contains("--allow-missing-rules"), "{err}");
    for n in names {
        assert!(lines[0].contains(n), "`{n}` not named:\n{err}");
    }
    assert!(out.stdout.is_empty(), "{}", text(&out.stdout));
}

#[test]
fn playout_refuses_a_game_that_misses_rules_unless_allowed() {
    let x = xiangqi();
    let out = dagaz(&["playout", &x, "--games", "1", "--max-plies", "20"]);
    assert_refused(
        &out,
        &["option \"xiangqi-extension\" (line 61)", "option \"ko\""],
    );
    let h = hex();
    let out = dagaz(&["playout", &h, "--games", "1", "--max-plies", "20"]);
    assert_refused(&out, &["no end condition", "(line 6)"]);

    let out = dagaz(&[
        "playout",
        &x,
        "--games",
        "2",
        "--max-plies",
        "40",
        "--json",
        "--allow-missing-rules",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains(
        "playing without option \"ko\" (line 60), option \"xiangqi-extension\" (line 61)"
    ));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["games"], 2);
    let names: Vec<&str> = v["missing_rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["ko", "xiangqi-extension"]);

    // A complete game is played as before, without a word about missing rules.
    let chess = Path::new(env!("CARGO_MANIFEST_DIR")).join("games/chess.zrf");
    let out = dagaz(&[
        "playout",
        chess.to_str().unwrap(),
        "--games",
        "1",
        "--max-plies",
        "10",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
}

#[test]
fn check_lists_the_missing_rules() {
    let out = dagaz(&["check", &xiangqi()]);
    assert!(out.status.success());
    let o = text(&out.stdout);
    assert!(o.contains("missing rules (2)"), "{o}");
    assert!(
        o.contains("option \"xiangqi-extension\" = true at ") && o.contains("xiangqi.zrf:61:"),
        "{o}"
    );
    // Each one is also a warning at its place in the file.
    assert!(text(&out.stderr)
        .contains("warning: the engine does not apply option \"xiangqi-extension\""));

    let out = dagaz(&["check", "--json", &hex()]);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let game = v
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x.get("missing_rules").is_some())
        .expect("a described game");
    assert_eq!(game["missing_rules"][0]["kind"], "no-end-condition");

    // With several files, each file's line says what it plays without.
    let chess = Path::new(env!("CARGO_MANIFEST_DIR")).join("games/chess.zrf");
    let out = dagaz(&["check", &hex(), chess.to_str().unwrap()]);
    let o = text(&out.stdout);
    // (and the Dagaz rule scripts of the Dagaz site's Hex, `compile::dagaz_site`)
    assert!(
        o.contains("hex.zrf (plays without: no end condition, Dagaz rule script \"hex-goal\", Dagaz rule script \"hex-pie\")"),
        "{o}"
    );
    assert!(o.contains("1 of the loaded files ask for rules"), "{o}");
}

fn session(file: &str, requests: &str) -> Vec<Value> {
    let mut child = Command::new(BIN)
        .args(["session", file])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(requests.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn session_info_lists_the_missing_rules() {
    let info = &session(&xiangqi(), "{\"cmd\":\"info\"}\n")[0];
    let rules = info["missing_rules"].as_array().unwrap();
    assert_eq!(rules.len(), 2, "{info}");
    assert_eq!(rules[1]["kind"], "option");
    assert_eq!(rules[1]["name"], "xiangqi-extension");
    assert_eq!(rules[1]["value"], "true");
    assert!(
        rules[1]["location"]
            .as_str()
            .unwrap()
            .ends_with("xiangqi.zrf:61:32"),
        "{info}"
    );
    let info = &session(&hex(), "{\"cmd\":\"info\"}\n")[0];
    assert_eq!(info["missing_rules"][0]["kind"], "no-end-condition");
    let chess = Path::new(env!("CARGO_MANIFEST_DIR")).join("games/chess.zrf");
    let info = &session(chess.to_str().unwrap(), "{\"cmd\":\"info\"}\n")[0];
    assert_eq!(info["missing_rules"], serde_json::json!([]));
}

/// Drops the last `n` lines of a run's file, as a run killed before writing them would have left it.
fn drop_last_lines(p: &Path, n: usize) {
    let t = read(p);
    let lines: Vec<&str> = t.lines().collect();
    let keep = &lines[..lines.len() - n];
    std::fs::write(p, format!("{}\n", keep.join("\n"))).unwrap();
}

/// `tournament` refuses, then plays with the flag, lists the rules in both files, and resumes.
fn tournament_case(game: &str, name: &str, named: &[&str], listed: &[&str]) {
    let d = scratch(name);
    let out_dir = d.join("run");
    let out = out_dir.to_str().unwrap();
    let base = [
        "tournament",
        game,
        "--bots",
        "random",
        "random:name=other",
        "--games",
        "2",
        "--max-plies",
        "30",
        "--quiet",
        "--jobs",
        "1",
        "--out",
        out,
    ];
    let refused = dagaz(&base);
    assert_refused(&refused, named);
    assert!(!out_dir.exists(), "a refused run wrote {out}");

    let mut args = base.to_vec();
    args.push("--allow-missing-rules");
    let ran = dagaz(&args);
    assert!(ran.status.success(), "{}", text(&ran.stderr));
    let config = read(&out_dir.join("config.toml"));
    let report = read(&out_dir.join("report.md"));
    assert!(config.contains("allow_missing_rules = true"), "{config}");
    assert!(report.contains("## Missing rules"), "{report}");
    for l in listed {
        assert!(
            config.contains(l),
            "config.toml does not list `{l}`:\n{config}"
        );
        assert!(
            report.contains(l),
            "report.md does not list `{l}`:\n{report}"
        );
    }
    let games = read(&out_dir.join("games.csv"));
    assert_eq!(games.lines().count(), 3, "{games}");

    // A run stopped before its last game resumes from its config.toml, which carries the permission.
    drop_last_lines(&out_dir.join("games.csv"), 1);
    drop_last_lines(&out_dir.join("timings.csv"), 1);
    let resumed = dagaz(&["tournament", "--resume", "--quiet", "--out", out]);
    assert!(resumed.status.success(), "{}", text(&resumed.stderr));
    assert_eq!(read(&out_dir.join("games.csv")), games);
    assert_eq!(read(&out_dir.join("report.md")), report);

    // The flag belongs to the run's settings: --resume takes them from config.toml only.
    let again = dagaz(&[
        "tournament",
        "--resume",
        "--allow-missing-rules",
        "--out",
        out,
    ]);
    assert!(!again.status.success());
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn tournament_refuses_xiangqi_without_its_extension_unless_allowed() {
    tournament_case(
        &xiangqi(),
        "xiangqi",
        &["option \"xiangqi-extension\" (line 61)"],
        &[
            "option \"xiangqi-extension\" = true",
            "option \"ko\" = situation",
        ],
    );
}

#[test]
fn tournament_refuses_a_game_with_no_end_condition_unless_allowed() {
    tournament_case(&hex(), "hex", &["no end condition"], &["no end condition"]);
}

fn missing(src: &str) -> Vec<(MissingKind, String)> {
    let read = read_str("inline.zrf", src, Path::new("."));
    assert!(!read.has_errors(), "{:?}", read.diagnostics);
    let mut diags = vec![];
    let g = compile(&read.games[0], &mut diags).expect("compiles");
    g.missing_rules
        .iter()
        .map(|r| (r.kind, r.name.clone()))
        .collect()
}

/// A one-square game with a win condition, plus `extra` sections.
fn tiny(extra: &str, piece_extra: &str) -> String {
    format!(
        "(game (title \"t\") (players A B) {extra}
           (board (grid (dimensions (\"a/b\" (50 0)) (\"1\" (0 50))) (directions (e 1 0))))
           (piece (name P) {piece_extra} (moves (e (verify empty?) add)))
           (board-setup (A (P a1)))
           (loss-condition (A B) stalemated))"
    )
}

#[test]
fn screen_settings_are_not_rules_and_unknown_names_are() {
    // Screen settings, known options and an unknown rule switched off: nothing missing.
    let ok = tiny(
        "(option \"animate captures\" false) (option \"smart moves\" from) (option \"prevent flipping\" 2)
         (option \"Silent ? Moves\" true) (option \"show blink\" false) (option \"pass turn\" true)
         (option \"damone-extension\" false) (allow-flipping false) (description \"d\") (move-sound \"x.wav\")",
        "(help \"h\") (image A \"a.bmp\") (glyph A \"g.bmp\") (description \"p\")",
    );
    assert_eq!(missing(&ok), []);

    let bad = tiny(
        "(option \"ko\" situation) (option \"Chess-Invariant\" true) (capture-rule x)",
        "(dummy) stray",
    );
    let got = missing(&bad);
    assert_eq!(
        got,
        [
            (MissingKind::PieceForm, "dummy".to_string()),
            (MissingKind::PieceForm, "stray".to_string()),
            (MissingKind::Option, "ko".to_string()),
            (MissingKind::Option, "Chess-Invariant".to_string()),
            (MissingKind::Section, "capture-rule".to_string()),
        ]
    );

    let no_end = "(game (title \"t\") (players A B)
           (board (grid (dimensions (\"a/b\" (50 0)) (\"1\" (0 50))) (directions (e 1 0))))
           (piece (name P) (moves (e (verify empty?) add))))";
    assert_eq!(
        missing(no_end),
        [(MissingKind::NoEndCondition, String::new())]
    );
}

#[test]
fn a_form_outside_the_game_is_a_missing_rule_of_every_game() {
    // A `piece` written after the game's closing parenthesis is dropped by the reader: the game is played
    // without it.
    let d = scratch("top-level");
    let f = d.join("stray.zrf");
    let game = tiny("", "");
    std::fs::write(&f, format!("{game}\n(piece (name Q) (moves (e add)))\n")).unwrap();
    let p = f.to_str().unwrap();
    let out = dagaz(&["playout", p, "--games", "1", "--max-plies", "5"]);
    assert_refused(&out, &["top-level form \"piece\" (line 6)"]);
    let info = &session(p, "{\"cmd\":\"info\"}\n")[0];
    assert_eq!(info["missing_rules"][0]["kind"], "top-level-form");
    let _ = std::fs::remove_dir_all(&d);
}
