//! Options and end-condition rules on tiny games written inline: each test states the rule and a position
//! where it decides the move list or the outcome.

mod common;

use dagaz::engine::{position, Engine};
use dagaz::lang::read_str;
use dagaz::load::compile_source as compile;

fn game(src: &str) -> dagaz::Game {
    let read = read_str("inline.zrf", src, std::path::Path::new("."));
    assert!(!read.has_errors(), "{:?}", read.diagnostics);
    let mut diags = vec![];
    let g = compile(&read.games[0], &mut diags);
    assert!(diags.iter().all(|d| !d.is_error()), "{:?}", diags);
    g.unwrap()
}

fn notations(g: &dagaz::Game, pos: &str) -> Vec<String> {
    let e = Engine::new(g);
    let s = position::parse(g, pos).unwrap();
    let mut v: Vec<String> = e
        .legal_moves(&s)
        .unwrap()
        .iter()
        .map(|m| m.notation(g))
        .collect();
    v.sort();
    v
}

/// A row of nine squares; men jump enemies in a chain; a man stepping east becomes a King (so King is what a
/// promotion produces: a "king" for `maximal captures 2`).
fn row_game(option: &str) -> String {
    format!(
        "(define jump ($1 (verify enemy?) capture $1 (verify empty?) (add-partial jumptype)))
         (game (title \"row\") (players White Black) {option}
           (board (grid (dimensions (\"a/b/c/d/e/f/g/h/i\" (50 0)) (\"1\" (0 50))) (directions (e 1 0) (w -1 0))))
           (piece (name Man) (moves (move-type jumptype) (jump e) (jump w) (move-type step) (e (verify empty?) (add King))))
           (piece (name King) (moves (move-type jumptype) (jump e) (jump w)))
           (board-setup (White (Man d1)) (Black (Man e1 g1) (King c1))))"
    )
}

const ROW: &str =
    "turn White\npiece White Man d1\npiece Black Man e1\npiece Black Man g1\npiece Black King c1\n";

#[test]
fn without_maximal_captures_every_chain_is_legal() {
    let g = game(&row_game(""));
    assert_eq!(notations(&g, ROW), ["d1-b1xc1", "d1-f1xe1-h1xg1"]);
}

#[test]
fn maximal_captures_true_keeps_the_most_pieces() {
    let g = game(&row_game("(option \"maximal captures\" true)"));
    assert_eq!(notations(&g, ROW), ["d1-f1xe1-h1xg1"]);
}

#[test]
fn maximal_captures_2_prefers_kings_then_pieces() {
    let g = game(&row_game("(option \"maximal captures\" 2)"));
    assert_eq!(notations(&g, ROW), ["d1-b1xc1"]);
}

/// `cascade` moves the held piece to the cursor and picks up the piece standing there; the program then emits
/// two moves. Normally the cascade is part of both; with `discard cascades` only of the first.
fn cascade_game(option: &str) -> dagaz::Game {
    game(&format!(
        "(game (title \"cascade\") (players White Black) {option}
           (board (grid (dimensions (\"a/b/c/d\" (50 0)) (\"1\" (0 50))) (directions (e 1 0))))
           (piece (name P) (moves (e cascade e add e add)))
           (piece (name Q))
           (board-setup (White (P a1) (Q b1)) (Black (Q d1))))"
    ))
}

#[test]
fn cascades_are_carried_into_later_moves_unless_discarded() {
    let pos = "turn White\npiece White P a1\npiece White Q b1\n";
    let kept = cascade_game("");
    assert_eq!(notations(&kept, pos), ["a1-b1 b1-c1", "a1-b1 b1-d1"]);
    let discarded = cascade_game("(option \"discard cascades\" true)");
    assert_eq!(notations(&discarded, pos), ["a1-b1 b1-c1", "b1-d1"]);
}

/// White's man reaching the last square both wins by `absolute-config` and meets a draw condition; which end
/// is recorded depends on priorities.
fn ending_game(draw_priority: &str) -> dagaz::Game {
    game(&format!(
        "(game (title \"ends\") (players White Black)
           (board (grid (dimensions (\"a/b/c\" (50 0)) (\"1\" (0 50))) (directions (e 1 0))))
           (piece (name Man) (moves (e (verify empty?) add)))
           (board-setup (White (Man b1)) (Black (Man a1)))
           (win-condition (White) (name \"arrival\") (absolute-config Man (c1)))
           (draw-condition (White Black) (name \"crowded\") {draw_priority} (pieces-remaining 1)))"
    ))
}

#[test]
fn end_priorities_decide_between_conditions_that_hold_at_once() {
    for (priority, expected) in [("", "arrival"), ("(priority 5)", "crowded")] {
        let g = ending_game(priority);
        let e = Engine::new(&g);
        let s = e.initial();
        let moves = e.legal_moves(&s).unwrap();
        assert_eq!(moves.len(), 1);
        let after = e.apply(&s, &moves[0]);
        let next = e.legal_moves(&after).unwrap();
        let o = e
            .outcome(&after, &next, &[])
            .unwrap()
            .expect("the game is over");
        assert_eq!(o.name, expected, "with {priority:?}");
    }
}

/// Every test of this file once more with the general path forced (`DAGAZ_GENERAL_PATH=1`).
#[test]
fn on_the_general_path() {
    common::rerun_on_general_path("on_the_general_path");
}
