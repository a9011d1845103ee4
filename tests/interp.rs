//! The interpreter's fast paths (`compile/code.rs`, `engine/run`): each is chosen by what the compiler proves
//! of a program, and each test here is a program the fast path must not take, or must take with the general
//! path's meaning.

use dagaz::compile::Game;
use dagaz::engine::Engine;
use dagaz::load::{load_game, VariantSel};

fn game(name: &str, text: &str) -> Game {
    let p = std::env::temp_dir().join(format!("dagaz-interp-{}-{name}.zrf", std::process::id()));
    std::fs::write(&p, text).unwrap();
    let g = load_game(&p, &VariantSel::First).unwrap();
    let _ = std::fs::remove_file(&p);
    g
}

/// The notations of the legal moves at the start, sorted.
fn start_moves(g: &Game) -> Vec<String> {
    let engine = Engine::new(g);
    let s = engine.initial();
    let mut v: Vec<String> = engine
        .legal_moves(&s)
        .unwrap()
        .iter()
        .map(|m| m.notation(g))
        .collect();
    v.sort();
    v
}

const BOARD: &str = r#"
  (players White Black)
  (turn-order White Black)
  (board
    (grid
      (dimensions ("a/b/c" (50 0)) ("3/2/1" (0 50)))
      (directions (n 0 -1) (e 1 0) (s 0 1) (w -1 0))))
"#;

/// A run's first `verify` is decided before the run is set up only when it reads the board alone: a flag is
/// the run's own, false at its start whatever the run before it set. Here the first program sets the flag on
/// every square and the second asks for it first: it never holds, so only the first program's drops are legal.
#[test]
fn a_first_verify_of_a_flag_reads_this_runs_flags() {
    let g = game(
        "flag-first",
        &format!(
            r#"(game (title "flags") {BOARD}
  (piece (name A) (drops ((set-flag seen true) (verify empty?) add)))
  (piece (name B) (drops ((verify (flag? seen)) add)))
  (board-setup (White (A a1)) (Black (A c3))))"#
        ),
    );
    let moves = start_moves(&g);
    assert_eq!(moves.len(), 7, "{moves:?}");
    assert!(moves.iter().all(|m| m.starts_with('A')), "{moves:?}");
}

/// A drop whose first instruction is `(verify empty?)` (decided before the run is set up) and one whose first
/// is `(verify (not empty?))` drop on the empty squares and on the occupied ones respectively.
#[test]
fn a_first_verify_of_the_square_is_decided_either_way() {
    let g = game(
        "verify-first",
        &format!(
            r#"(game (title "verify") {BOARD}
  (piece (name A) (drops ((verify empty?) add)))
  (piece (name B) (drops ((verify (not empty?)) (verify (not friend?)) add)))
  (board-setup (White (A a1)) (Black (A c3))))"#
        ),
    );
    let moves = start_moves(&g);
    let a = moves.iter().filter(|m| m.starts_with('A')).count();
    let b: Vec<_> = moves.iter().filter(|m| m.starts_with('B')).collect();
    assert_eq!(a, 7, "{moves:?}");
    assert_eq!(b.len(), 1, "{moves:?}");
    assert!(b[0].contains("c3"), "{moves:?}");
}

/// `set-flag` to a constant and `flag?` are ops of their own; flags past the 64 kept as bits behave the same.
#[test]
fn many_flags_are_set_and_read_as_few() {
    let names: Vec<String> = (0..70).map(|i| format!("f{i}")).collect();
    let sets: String = names
        .iter()
        .map(|n| format!("(set-flag {n} true) "))
        .collect();
    let g = game(
        "many-flags",
        &format!(
            r#"(game (title "many flags") {BOARD}
  (piece (name A) (drops ((verify empty?) {sets} (set-flag f3 false) (set-flag f68 false)
      (if (and (flag? f69) (flag? f2) (not (flag? f3)) (not (flag? f68))) add))))
  (piece (name B) (drops ((verify empty?) (set-flag f66 true) (verify (flag? f66)) (verify (not (flag? f67))) add)))
  (board-setup (White (A a1)) (Black (A c3))))"#
        ),
    );
    let moves = start_moves(&g);
    assert_eq!(moves.len(), 14, "{moves:?}");
}
