//! Rule tests for `games/surakarta.zrf`, from the rules written at the top of that file. Every move list below
//! is worked out by hand from those rules, the working written beside it; `tests/reference/surakarta_perft.py
//! --positions` (written apart from dagaz: it walks each circuit as a cyclic list of points, not with a heading
//! and loop links) prints the same lists. Circuits: inner = files b, e and ranks 2, 5 with the small loops
//! (b6-a5, e6-f5, f2-e1, b1-a2); outer = files c, d and ranks 3, 4 with the large loops (c6-a4, d6-f4, f3-d1,
//! c1-a3).

use dagaz::engine::{position, Engine};
use dagaz::load::{load_game, VariantSel};
use std::path::Path;

fn surakarta() -> dagaz::Game {
    load_game(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("games/surakarta.zrf"),
        &VariantSel::First,
    )
    .unwrap()
}

/// The sorted notations of White's moves from `from`, White to move with the stones given.
fn moves_from(g: &dagaz::Game, white: &str, black: &str, from: &str) -> Vec<String> {
    let mut text = "turn White\n".to_string();
    for p in white.split_whitespace() {
        text += &format!("piece White Stone {p}\n");
    }
    for p in black.split_whitespace() {
        text += &format!("piece Black Stone {p}\n");
    }
    let s = position::parse(g, &text).unwrap();
    let mut v: Vec<String> = Engine::new(g)
        .legal_moves(&s)
        .unwrap()
        .iter()
        .filter(|m| m.parts[0].from.map(|p| g.board.pos_name(p)) == Some(from))
        .map(|m| m.notation(g))
        .collect();
    v.sort();
    v
}

fn sorted(v: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

const STEPS_C4: [&str; 8] = [
    "c4-b3", "c4-b4", "c4-b5", "c4-c3", "c4-c5", "c4-d3", "c4-d4", "c4-d5",
];

/// The iG Game Center's example: a stone on c4 takes one on d6 by going right over d4, e4, f4 and around the
/// top-right outer loop (f4-d6). The other routes of the outer circuit reach d6 too (north around c6-a4 and
/// back over c4; south around c1-a3 and f3-d1, then up file d), the same move. With its eight steps: 9 moves.
#[test]
fn a_capture_goes_around_a_loop() {
    let g = surakarta();
    let mut want: Vec<&str> = STEPS_C4.to_vec();
    want.push("c4-d6");
    assert_eq!(moves_from(&g, "c4", "d6", "c4"), sorted(&want));
}

/// Only empty points are passed: with White's own stones on e4 and d5, every route from c4 to d6 is cut (east
/// at e4; north, around c6-a4 and back along rank 4, at e4; south and west, up file d, at d5): no capture, and
/// seven steps (d5 is taken).
#[test]
fn a_capture_passes_empty_points_only() {
    let g = surakarta();
    let want: Vec<&str> = STEPS_C4.iter().copied().filter(|m| *m != "c4-d5").collect();
    assert_eq!(moves_from(&g, "c4 e4 d5", "d6", "c4"), sorted(&want));
}

/// At least one loop: b3 and b5 are on file b, with b4 empty between them, but the straight way has no loop.
/// The long way, south around b1-a2, along rank 2, around f2-e1, up file e, around e6-f5 and west along rank
/// 5, takes b5 (three loops), unless it is cut: with White's a2, the way stops after the first loop. Rank 3 is
/// the outer circuit, which b5 is not on. Steps from b3: a2 (when empty), a3, a4, b2, b4, c2, c3, c4.
#[test]
fn a_capture_needs_a_loop() {
    let g = surakarta();
    assert_eq!(
        moves_from(&g, "b3", "b5", "b3"),
        sorted(&["b3-a2", "b3-a3", "b3-a4", "b3-b2", "b3-b4", "b3-b5", "b3-c2", "b3-c3", "b3-c4"])
    );
    assert_eq!(
        moves_from(&g, "b3 a2", "b5", "b3"),
        sorted(&["b3-a3", "b3-a4", "b3-b2", "b3-b4", "b3-c2", "b3-c3", "b3-c4"])
    );
}

/// The point the stone leaves counts as empty (the choice the file's header states): c4 takes e4 only by going
/// north, around c6-a4 and back east over a4, b4, c4 (its own start) and d4. The straight way east has no loop;
/// the ways south and west end at White's d2, on the way up file d.
#[test]
fn a_capture_may_pass_its_own_starting_point() {
    let g = surakarta();
    let mut want: Vec<&str> = STEPS_C4.to_vec();
    want.push("c4-e4");
    assert_eq!(moves_from(&g, "c4 d2", "e4", "c4"), sorted(&want));
}

/// Perft d1 by hand: only the six stones of rank 2 can step, to rank 3 (a2 and f2 two ways each, b2-e2
/// three), and no capture is open: 16. d2: Black's rank 5 the same, unaffected by one White step: 256.
/// d3-d4 (5,382 and 111,122) agree with `tests/reference/surakarta_perft.py`.
#[test]
fn perft_from_the_start() {
    let g = surakarta();
    let e = Engine::new(&g);
    let s = e.initial();
    let counts: Vec<u64> = (1..=4).map(|d| e.perft(&s, d).unwrap()).collect();
    assert_eq!(counts, [16, 256, 5_382, 111_122]);
}
