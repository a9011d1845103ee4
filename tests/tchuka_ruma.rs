//! Tchuka Ruma, the solitaire mancala, with the corpus file `mancala/zrf/tchuka-ruma.zrf` and the module
//! `tchuka-ruma` (`src/extension/tchuka_ruma.rs`). Rules as published (Wikipedia, "Tchuka Ruma"): four holes of
//! two seeds and a ruma; a sowing goes round through the ruma; the last seed in the ruma lets the player
//! choose again, in a hole that held seeds it is lifted with them and sown on, in an empty hole it loses; all
//! seeds in the ruma win.
//!
//! The counts below are worked by hand from those rules, holes a1 b1 c1 d1 and the ruma X in sowing order.

mod common;

use dagaz::engine::{Engine, Move, State};
use dagaz::load::{load_game_with, VariantSel};
use dagaz::Game;
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_dagaz");
const FILE: &str = "DagazProject.github.io/mancala/zrf/tchuka-ruma.zrf";

fn game(variant: usize) -> Result<Game, String> {
    let p = common::corpus_root().join(FILE);
    let opts = dagaz::lang::ReadOptions {
        extensions: vec!["tchuka-ruma".into()],
        ..Default::default()
    };
    let mut g =
        load_game_with(&p, &VariantSel::Number(variant), &opts).map_err(|e| e.to_string())?;
    dagaz::extension::attach(&mut g, "tchuka-ruma")?;
    Ok(g)
}

/// The seeds of a1 b1 c1 d1 X.
fn seeds(g: &Game, s: &State) -> [i32; 5] {
    let k = g
        .int_attributes
        .iter()
        .position(|a| g.attributes[a.idx()] == "seeds")
        .unwrap();
    ["a1", "b1", "c1", "d1", "X"].map(|at| {
        s.get(g.board.position(at).unwrap())
            .map_or(0, |x| x.attrs.get_int(k) as i32)
    })
}

/// The move that starts from hole `at`.
fn from<'a>(g: &Game, moves: &'a [Move], at: &str) -> &'a Move {
    let p = g.board.position(at).unwrap();
    moves
        .iter()
        .find(|m| m.parts[0].from == Some(p))
        .unwrap_or_else(|| panic!("no move from {at}"))
}

/// The end after `s`, as (result, name), if the game is over.
fn end(e: &Engine, s: &State) -> Option<(i8, String)> {
    let moves = e.legal_moves(s).unwrap();
    e.outcome(s, &moves, &[])
        .unwrap()
        .map(|o| (o.results[0], o.name))
}

#[test]
fn from_the_start_three_holes_lose_and_one_goes_on() {
    let g = game(1).unwrap();
    // What the module does not play: the Dagaz pages' other setups (other seed counts, six holes).
    let missing: Vec<&str> = g.missing_rules.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(
        missing,
        ["tchuka-ruma-4x5", "tchuka-ruma-4x6", "tchuka-ruma-6x4"],
        "{:?}",
        g.missing_rules
    );
    let e = Engine::new(&g);
    let s = e.initial();
    assert_eq!(seeds(&g, &s), [2, 2, 2, 2, 0]);
    let moves = e.legal_moves(&s).unwrap();
    assert_eq!(moves.len(), 4);
    // a1: b1 3, c1 3; c1 held seeds: lifted, d1 3, X 1, a1 1; a1 was empty: lost.
    // b1: c1 3, d1 3; relay from d1: X 1, a1 3, b1 1; b1 was empty: lost.
    // c1: d1 3, X 1: in the ruma, the game goes on.
    // d1: X 1, a1 3; relay from a1: b1 3, c1 3, d1 1; d1 was empty: lost.
    for (at, after, sowings, over) in [
        ("a1", [1, 3, 0, 3, 1], 2, true),
        ("b1", [3, 1, 3, 0, 1], 2, true),
        ("c1", [2, 2, 0, 3, 1], 1, false),
        ("d1", [0, 3, 3, 1, 1], 2, true),
    ] {
        let m = from(&g, &moves, at);
        assert_eq!(m.parts.len(), sowings, "{at}");
        let t = e.apply(&s, m);
        assert_eq!(seeds(&g, &t), after, "{at}");
        let want = over.then(|| (-1, "last seed in an empty hole".to_string()));
        assert_eq!(end(&e, &t), want, "{at}");
    }
    assert_eq!(e.perft(&s, 1).unwrap(), 4);
}

#[test]
fn relays_go_on_until_the_ruma_or_an_empty_hole() {
    let g = game(1).unwrap();
    let e = Engine::new(&g);
    let s = e.initial();
    let s = e.apply(&s, from(&g, &e.legal_moves(&s).unwrap(), "c1"));
    let moves = e.legal_moves(&s).unwrap();
    // c1 is empty: a1, b1, d1.
    assert_eq!(moves.len(), 3);
    // a1: b1 3, c1 1; c1 was empty: lost.
    // b1: c1 1, d1 4; relay from d1: X 2, a1 3, b1 1, c1 2; relay from c1: d1 1, X 3: in the ruma.
    // d1: X 2, a1 3, b1 3; relay from b1: c1 1, d1 1, X 3: in the ruma.
    for (at, after, sowings, over) in [
        ("a1", [0, 3, 1, 3, 1], 1, true),
        ("b1", [3, 1, 0, 1, 3], 3, false),
        ("d1", [3, 0, 1, 1, 3], 2, false),
    ] {
        let m = from(&g, &moves, at);
        assert_eq!(m.parts.len(), sowings, "{at}");
        let t = e.apply(&s, m);
        assert_eq!(seeds(&g, &t), after, "{at}");
        assert_eq!(end(&e, &t).is_some(), over, "{at}");
    }
    // Over positions are leaves: perft(2) from the start counts the three moves after c1 only.
    assert_eq!(e.perft(&e.initial(), 2).unwrap(), 3);
}

/// The published puzzle can be won: some line of moves puts all eight seeds in the ruma, and a won game ends
/// there with the win.
#[test]
fn the_four_by_two_game_can_be_won() {
    fn search(e: &Engine, s: &State, depth: usize, line: &mut Vec<State>) -> bool {
        let moves = e.legal_moves(s).unwrap();
        if let Some(o) = e.outcome(s, &moves, &[]).unwrap() {
            return o.results[0] == 1;
        }
        if depth == 0 {
            return false;
        }
        for m in &moves {
            let t = e.apply(s, m);
            line.push(t.clone());
            if search(e, &t, depth - 1, line) {
                return true;
            }
            line.pop();
        }
        false
    }
    let g = game(1).unwrap();
    let e = Engine::new(&g);
    let mut line = vec![];
    // Each move puts at least one seed in the ruma or ends the game: eight moves at most.
    assert!(search(&e, &e.initial(), 8, &mut line), "no winning line");
    let last = line.last().unwrap();
    assert_eq!(seeds(&g, last), [0, 0, 0, 0, 8]);
    assert_eq!(
        end(&e, last),
        Some((1, "all seeds in the ruma".to_string()))
    );
}

/// The second variant has six holes, whose seeds a Dagaz script sets: refused with the reason.
#[test]
fn a_board_that_is_not_the_published_one_is_refused() {
    let err = game(2).unwrap_err();
    assert!(
        err.contains(
            "the published Tchuka Ruma has 4 holes of 2 seeds and a ruma; this board has 6 holes"
        ),
        "{err}"
    );
}

/// The command line: refused without the module (the sowing is outside the file), played with it.
#[test]
fn playout_plays_the_file_with_the_module() {
    let p = common::corpus_root().join(FILE);
    let run = |extra: &[&str]| {
        Command::new(BIN)
            .arg("playout")
            .arg(&p)
            .args(["--games", "20", "--seed", "1", "--json"])
            .args(extra)
            .output()
            .unwrap()
    };
    let out = run(&[]);
    assert!(!out.status.success());
    // Refused for the pages' other setups, which the module does not play; allowed, it plays.
    let out = run(&["--extension", "tchuka-ruma"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("tchuka-ruma-4x5"));
    let out = run(&["--extension", "tchuka-ruma", "--allow-missing-rules"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["games"], 20);
    assert_eq!(v["errors"], 0);
    assert_eq!(v["missing_rules"].as_array().unwrap().len(), 3, "{v}");
}
