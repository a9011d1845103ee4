//! Rust extension modules (issue 10, item 5; `docs/extensions.md`): `(extension NAME)` in a file and
//! `--extension NAME` on the command line attach a module; an unknown name is an error; the modules' hooks
//! change the moves and the end of the game; the missing rules they supply are no longer listed.

#[path = "common/scratch.rs"]
mod scratch_dir;
use scratch_dir::Scratch;
mod common;

use dagaz::engine::{position, Engine};
use dagaz::load::{load_game, VariantSel};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_dagaz");

fn dagaz(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn path(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

const CORPUS_C4: &str = "DagazProject.github.io/arrange/zrf/connect-four.zrf";

/// A scratch file with the given text.
fn scratch(name: &str, text: &str) -> Scratch {
    Scratch::file("ext", &format!("{name}.zrf"), text)
}

const TINY: &str = "(game (title \"tiny\") (players A B) (turn-order A B)
  (board (grid (dimensions (\"a/b/c/d\" (50 0)) (\"4/3/2/1\" (0 50))) (directions (s 0 1) (n 0 -1) (e 1 0) (w -1 0))))
  (piece (name P) (drops ((verify empty?) add)))
  EXT
  (loss-condition (A B) stalemated))";

#[test]
fn an_unknown_module_in_a_file_is_an_error_at_its_name() {
    let p = scratch(
        "unknown",
        &TINY.replace("EXT", "(extension connect-four go-capturez)"),
    );
    let l = dagaz::load::load(&p, &VariantSel::First);
    assert!(l.game.is_none());
    let text = l.render();
    assert!(
        text.contains("unknown extension module `go-capturez`"),
        "{text}"
    );
    // The caret's place: line 4, the column of the name.
    assert!(text.contains(":4:27"), "{text}");
    assert!(
        text.contains("connect-four"),
        "the hint lists the known modules: {text}"
    );
}

#[test]
fn a_module_that_refuses_the_game_is_an_error_at_the_form() {
    let no_down = TINY
        .replace("(s 0 1) ", "")
        .replace("EXT", "(extension connect-four)");
    let p = scratch("refused", &no_down);
    let l = dagaz::load::load(&p, &VariantSel::First);
    assert!(l.game.is_none());
    assert!(l.render().contains("direction `s`"), "{}", l.render());
}

#[test]
fn a_module_named_in_the_file_is_attached_and_its_gravity_applies() {
    let game = load_game(&path("games/connect-four.zrf"), &VariantSel::First).unwrap();
    assert_eq!(game.extensions.len(), 1);
    assert!(game.missing_rules.is_empty(), "{:?}", game.missing_rules);
    // A disc on a1: in the a column only a2 is open; every other column takes its bottom cell.
    let moves = common::sorted_moves(&game, "turn Red\npiece Yellow Disc a1\n");
    assert_eq!(
        moves,
        ["Disc@a2", "Disc@b1", "Disc@c1", "Disc@d1", "Disc@e1", "Disc@f1", "Disc@g1"]
    );
}

#[test]
fn four_in_a_row_wins_for_its_owner_and_three_does_not() {
    let game = load_game(&path("games/connect-four.zrf"), &VariantSel::First).unwrap();
    let engine = Engine::new(&game);
    let end = |pos: &str| {
        let s = position::parse(&game, pos).unwrap();
        let moves = engine.legal_moves(&s).unwrap();
        engine.outcome(&s, &moves, &[]).unwrap()
    };
    let three = "turn Yellow\npiece Red Disc a1\npiece Red Disc b2\npiece Red Disc c3\n\
                 piece Yellow Disc b1\npiece Yellow Disc c1\npiece Yellow Disc c2\n";
    assert!(end(three).is_none());
    // The diagonal a1-d4, made by Red.
    let four = format!(
        "{three}piece Red Disc d4\npiece Yellow Disc d1\npiece Yellow Disc d2\npiece Red Disc d3\n"
    );
    let o = end(&four).expect("four in a row ends the game");
    assert_eq!(o.results, vec![-1, 1]);
    assert_eq!(o.end_type, "four-in-a-row");
}

/// The corpus's Captain's Mistress, unchanged, with `--extension connect-four`: the published Connect Four
/// perft (`../shared/reference/perft.json`, "connect four" 7x6 start; won positions not expanded).
#[test]
fn corpus_connect_four_with_the_module_matches_the_published_perft() {
    let mut game = load_game(&common::corpus_root().join(CORPUS_C4), &VariantSel::First).unwrap();
    assert!(
        !game.missing_rules.is_empty(),
        "without the module it has no end"
    );
    dagaz::extension::attach(&mut game, "connect-four").unwrap();
    assert!(game.missing_rules.is_empty(), "{:?}", game.missing_rules);
    let engine = Engine::new(&game);
    let s = engine.initial();
    for (d, n) in [
        (1, 7),
        (2, 49),
        (3, 343),
        (4, 2401),
        (5, 16807),
        (6, 117649),
    ] {
        assert_eq!(engine.perft(&s, d).unwrap(), n, "d{d}");
    }
}

#[test]
fn the_command_line_adds_a_module_and_refuses_an_unknown_one() {
    let file = common::corpus_root().join(CORPUS_C4);
    let f = file.to_str().unwrap();
    let o = dagaz(&[
        "playout",
        f,
        "--games",
        "20",
        "--seed",
        "1",
        "--extension",
        "connect-four",
    ]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.contains("end four-in-a-row"), "{out}");
    // Without it, the file has no end: playout refuses it.
    assert!(!dagaz(&["playout", f, "--games", "1"]).status.success());
    let o = dagaz(&["perft", f, "2", "--extension", "no-such-module"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success());
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("unknown extension module `no-such-module`") && err.contains("connect-four"),
        "{err}"
    );
    let o = dagaz(&["check", f, "--extension", "connect-four"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("extension module connect-four"), "{out}");
    assert!(!out.contains("missing rules"), "{out}");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        !err.contains("no end condition"),
        "the covered rule's warning is gone: {err}"
    );
    let o = dagaz(&["perft", f, "4", "--extension", "connect-four"]);
    assert!(String::from_utf8_lossy(&o.stdout).contains("perft(4) = 2401"));
}

#[test]
fn a_tournament_records_its_modules_and_a_resume_with_other_modules_is_refused() {
    let out = Scratch::unmade("ext-tour");
    let file = common::corpus_root().join(CORPUS_C4);
    let o = dagaz(&[
        "tournament",
        file.to_str().unwrap(),
        "--bots",
        "random",
        "random:name=r2",
        "--games",
        "2",
        "--jobs",
        "1",
        "--quiet",
        "--extension",
        "connect-four",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let config = std::fs::read_to_string(out.join("config.toml")).unwrap();
    assert!(
        config.contains("extensions = [\"connect-four\"]"),
        "{config}"
    );
    let fp = std::fs::read_to_string(out.join("fingerprint.json")).unwrap();
    assert!(fp.contains("connect-four"), "{fp}");
    // The same run resumes; with the modules edited out of config.toml it is refused.
    assert!(dagaz(&[
        "tournament",
        "--resume",
        "--out",
        out.to_str().unwrap(),
        "--quiet"
    ])
    .status
    .success());
    std::fs::write(
        out.join("config.toml"),
        config.replace(
            "extensions = [\"connect-four\"]\n",
            "allow_missing_rules = true\n",
        ),
    )
    .unwrap();
    let o = dagaz(&[
        "tournament",
        "--resume",
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && err.contains("extensions"), "{err}");
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn a_variant_names_its_own_modules() {
    let text = format!(
        "{}\n(variant (title \"tiny with gravity\") (extension connect-four))",
        TINY.replace("EXT", "")
    );
    let p = scratch("variant", &text);
    let plain = load_game(&p, &VariantSel::Number(1)).unwrap();
    let with = load_game(&p, &VariantSel::Number(2)).unwrap();
    assert!(plain.extensions.is_empty());
    assert_eq!(with.extensions.len(), 1);
    // Gravity: 16 empty cells to drop on without it, the 4 bottom ones with it.
    let n = |g: &dagaz::Game| {
        Engine::new(g)
            .legal_moves(&Engine::new(g).initial())
            .unwrap()
            .len()
    };
    assert_eq!((n(&plain), n(&with)), (16, 4));
}

/// `dagaz session` with `--extension`: `info` lists no missing rule, moves follow the module, the result is
/// the module's; a backgammon throw is played back by its notation like any move.
#[test]
fn a_session_plays_with_the_modules() {
    use std::io::Write;
    let run = |args: &[&str], input: &str| -> Vec<serde_json::Value> {
        let mut child = Command::new(BIN)
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    let file = common::corpus_root().join(CORPUS_C4);
    // Blue fills column a from the bottom, Red plays beside it: four in column a after Blue's fourth disc.
    let mut input = String::from("{\"cmd\":\"info\"}\n");
    for (b, r) in [("a1", "b1"), ("a2", "b2"), ("a3", "b3")] {
        input.push_str(&format!("{{\"cmd\":\"play\",\"move\":\"Stone@{b}\"}}\n{{\"cmd\":\"play\",\"move\":\"Stone@{r}\"}}\n"));
    }
    input.push_str("{\"cmd\":\"result\"}\n{\"cmd\":\"play\",\"move\":\"Stone@a5\"}\n{\"cmd\":\"play\",\"move\":\"Stone@a4\"}\n{\"cmd\":\"result\"}\n");
    let out = run(
        &[
            "session",
            file.to_str().unwrap(),
            "--extension",
            "connect-four",
        ],
        &input,
    );
    assert_eq!(
        out[0]["missing_rules"],
        serde_json::json!([]),
        "{:?}",
        out[0]
    );
    assert_eq!(out[7]["over"], false, "{:?}", out[7]);
    // a5 floats above an empty a4: not a legal move.
    assert!(out[8].get("error").is_some(), "{:?}", out[8]);
    assert_eq!(
        out[10]["outcome"]["end_type"], "four-in-a-row",
        "{:?}",
        out[10]
    );
    assert_eq!(
        out[10]["outcome"]["results"],
        serde_json::json!({"Blue": 1, "Red": -1})
    );

    let input = "{\"cmd\":\"play\",\"move\":\"Six@die1 Five@die2\"}\n{\"cmd\":\"moves\"}\n";
    let out = run(&["session", "games/backgammon.zrf"], input);
    assert_eq!(out[0]["ok"], true, "{:?}", out[0]);
    assert_eq!(out[1]["to_move"], "White");
    assert_eq!(out[1]["moves"].as_array().unwrap().len(), 7, "{:?}", out[1]);
}

/// Every test of this file once more with the general path forced (`DAGAZ_GENERAL_PATH=1`).
#[test]
fn on_the_general_path() {
    common::rerun_on_general_path("on_the_general_path");
}
