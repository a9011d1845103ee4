//! Rotations (docs/language.md, "Rotations"): `(rotation (name R) (cycle ...) ...)` in the board and
//! `(add-rotate R [STEPS])` in a move program. Each test states the rule it checks; the expected boards are
//! worked out by hand and fail if the rotation is ignored or turned the wrong way.
//!
//! The board of these tests: files a b, ranks 2 1 (a2 top left), one rotation `r` with one cycle
//! a2 -> b2 -> b1 -> a1 (clockwise, rank 2 on top).

use dagaz::engine::{position, Engine, State};
use dagaz::lang::read_str;
use dagaz::load::compile_source as compile;

/// A game on the 2x2 board: A's piece P with move programs `moves`, drops `drops`, the board's extra forms
/// `board`; A to move from `setup` (position text lines).
fn game(board: &str, moves: &str, drops: &str) -> Result<dagaz::Game, String> {
    let src = format!(
        "(game (title \"rotation\") (players A B) (turn-order A B)
           (board (grid (dimensions (\"a/b\" (10 0)) (\"2/1\" (0 10)))
                        (directions (e 1 0) (w -1 0) (n 0 -1) (s 0 1)))
                  {board})
           (piece (name P) (moves {moves}) (drops {drops})))"
    );
    let read = read_str("inline.zrf", &src, std::path::Path::new("."));
    if read.has_errors() {
        return Err(format!("{:?}", read.diagnostics));
    }
    let mut diags = vec![];
    let g = compile(&read.games[0], &mut diags);
    let errors: Vec<String> = diags
        .iter()
        .filter(|d| d.is_error())
        .map(|d| {
            let hint = d.hint.clone().unwrap_or_default();
            format!("{} ({hint})", d.message)
        })
        .collect();
    if !errors.is_empty() {
        return Err(errors.join("\n"));
    }
    g.ok_or_else(|| "no game".to_string())
}

const CYCLE: &str = "(rotation (name r) (cycle a2 b2 b1 a1))";

fn at(g: &dagaz::Game, pieces: &str) -> State {
    position::parse(g, &format!("turn A\n{pieces}")).unwrap()
}

/// Every legal move's board, as `owner@square` sorted, one string per move, sorted.
fn boards(g: &dagaz::Game, s: &State) -> Vec<String> {
    let e = Engine::new(g);
    let mut out: Vec<String> = e
        .legal_moves(s)
        .unwrap()
        .iter()
        .map(|m| {
            let t = e.apply(s, m);
            let mut v: Vec<String> = position::format(g, &t)
                .lines()
                .filter_map(|l| l.strip_prefix("piece "))
                .map(|l| {
                    let w: Vec<&str> = l.split_whitespace().collect();
                    format!("{}@{}", w[0], w[2])
                })
                .collect();
            v.sort();
            v.join(" ")
        })
        .collect();
    out.sort();
    out
}

/// A drop on a1 with one step: the dropped piece turns too (a1 -> a2), and B's piece on b2 goes to b1.
/// With -1 steps: the drop on a1 goes to b1 and b2 to a2. With 2 steps: a1 -> b2 and b2 -> a1.
#[test]
fn a_dropped_piece_and_the_pieces_there_turn_by_the_steps_asked() {
    for (steps, want) in [
        ("", "A@a2 B@b1"),
        ("1", "A@a2 B@b1"),
        ("-1", "A@b1 B@a2"),
        ("2", "A@b2 B@a1"),
        ("-3", "A@a2 B@b1"),
    ] {
        let g = game(
            CYCLE,
            "",
            &format!("((verify (position? a1)) (verify empty?) (add-rotate r {steps}))"),
        )
        .unwrap();
        let s = at(&g, "piece B P b2\n");
        assert_eq!(boards(&g, &s), vec![want.to_string()], "steps {steps}");
    }
}

/// A piece that moves onto a turning square ends where that square turns to: A's a2 steps east to b2, the
/// turn takes b2 to b1; B's piece on b1 goes on to a1. The square it left (a2) receives nothing (a1 was empty).
#[test]
fn a_moved_piece_lands_where_its_square_turns_to() {
    let g = game(CYCLE, "(e (verify empty?) (add-rotate r))", "").unwrap();
    let s = at(&g, "piece A P a2\npiece B P b1\n");
    assert_eq!(boards(&g, &s), vec!["A@b1 B@a1".to_string()]);
}

/// A piece that stays (`add-rotate` where it stands) turns with the others: A on a2, B on b2: a2 -> b2 and
/// b2 -> b1.
#[test]
fn a_piece_that_stays_turns_with_the_others() {
    let g = game(CYCLE, "((add-rotate r))", "").unwrap();
    let s = at(&g, "piece A P a2\npiece B P b2\n");
    assert_eq!(boards(&g, &s), vec!["A@b2 B@b1".to_string()]);
}

/// A captured piece leaves the board and does not turn: the drop on a1 captures b2, then the turn takes a1 to
/// a2 and B's b1 to a1.
#[test]
fn a_captured_piece_does_not_turn() {
    let g = game(
        CYCLE,
        "",
        "((verify (position? a1)) (verify empty?) (capture b2) (add-rotate r))",
    )
    .unwrap();
    let s = at(&g, "piece B P b2\npiece B P b1\n");
    assert_eq!(boards(&g, &s), vec!["A@a2 B@a1".to_string()]);
}

/// A position on no cycle stays: a cycle of a2 and b2 alone swaps them, b1 and a1 stay.
#[test]
fn positions_on_no_cycle_stay() {
    let g = game(
        "(rotation (name r) (cycle a2 b2))",
        "",
        "((verify (position? a1)) (verify empty?) (add-rotate r))",
    )
    .unwrap();
    let s = at(&g, "piece B P a2\npiece B P b1\n");
    assert_eq!(boards(&g, &s), vec!["A@a1 B@b1 B@b2".to_string()]);
}

/// The fast sampler would draw a drop without running it; it refuses a game with rotations, and accepts the
/// same game without one.
#[test]
fn the_sampling_path_refuses_a_game_with_rotations() {
    let plain = game("", "", "((verify empty?) add)").unwrap();
    assert!(dagaz::engine::sample::plan(&plain).is_ok());
    let turning = game(CYCLE, "", "((verify empty?) add)").unwrap();
    assert!(dagaz::engine::sample::plan(&turning).is_err());
}

/// Errors name what is wrong, at load time where the compiler can tell.
#[test]
fn mistakes_are_errors_with_their_reason() {
    let err = |board: &str, drops: &str| game(board, "", drops).err().unwrap_or_default();
    let e = err(CYCLE, "((verify empty?) (add-rotate q))");
    assert!(e.contains("unknown rotation `q`"), "{e}");
    let e = err(
        "(rotation (name upper) (cycle a2 b2))",
        "((verify empty?) (add-rotate uper))",
    );
    assert!(e.contains("did you mean `upper`?"), "{e}");
    let e = err(CYCLE, "((verify empty?) (add-rotate r 0))");
    assert!(e.contains("other than 0"), "{e}");
    let e = err(CYCLE, "((verify empty?) (add-rotate r 1 2))");
    assert!(e.contains("at most a number of steps"), "{e}");
    let e = err(
        "(rotation (name r) (cycle a2 b2) (cycle b2 b1))",
        "((verify empty?) add)",
    );
    assert!(e.contains("position `b2` is twice in this rotation"), "{e}");
    let e = err("(rotation (name r) (cycle a2))", "((verify empty?) add)");
    assert!(e.contains("a cycle needs two positions or more"), "{e}");
    let e = err("(rotation (cycle a2 b2))", "((verify empty?) add)");
    assert!(e.contains("this rotation has no name"), "{e}");
    let e = err("(rotation (name r) (cycle a2 z9))", "((verify empty?) add)");
    assert!(e.contains("unknown position `z9`"), "{e}");
    let e = err(
        "(rotation (name r) (cycle a2 b2)) (rotation (name R) (cycle a1 b1))",
        "((verify empty?) add)",
    );
    assert!(e.contains("rotation `R` is declared twice"), "{e}");
}

/// A part that rotates cannot also cascade (the cascade's movements and the turn's would meet): an error when
/// the moves are listed, with the program, never a silent move. A's a1 steps east onto B's b1 and cascades it
/// north to b2, then turns.
#[test]
fn a_rotating_part_that_cascades_is_an_error() {
    let g = game(CYCLE, "(e cascade n (add-rotate r))", "").unwrap();
    let s = at(&g, "piece A P a1\npiece B P b1\n");
    let e = Engine::new(&g).legal_moves(&s).expect_err("an error");
    assert!(
        e.to_string()
            .contains("a part that rotates cannot also cascade"),
        "{e}"
    );
}
