//! `(option "detect loops" true)`: a Dagaz option (Zillions has no such option). Dagaz's move generator
//! (`zrf-model.js`, `notLooped`) fails a composite move when a later part lands on a square where an earlier
//! part began or ended: the square the piece started from, or the end of any part so far. The first part is
//! never judged. Without the option, a chain may come back to its start when the board differs (pieces taken
//! on the way), as in Zillions.

use dagaz::engine::{position, Engine};
use dagaz::lang::read_str;
use dagaz::load::compile_source as compile;

/// A 3x3 board; a King jumps an enemy orthogonally and must go on jumping while it can.
fn game(option: &str) -> dagaz::Game {
    let src = format!(
        "(define jump ($1 (verify enemy?) capture $1 (verify empty?) (add-partial jumptype)))
         (game (title \"loops\") (players White Black) {option}
           (board (grid (dimensions (\"a/b/c\" (50 0)) (\"3/2/1\" (0 50)))
                        (directions (n 0 -1) (s 0 1) (e 1 0) (w -1 0))))
           (piece (name King) (moves (move-type jumptype) (jump n) (jump s) (jump e) (jump w)))
           (piece (name Man))
           (board-setup (White (King a1)) (Black (Man b1 c2 b3 a2)))
           (loss-condition (White Black) stalemated))"
    );
    let read = read_str("inline.zrf", &src, std::path::Path::new("."));
    assert!(!read.has_errors(), "{:?}", read.diagnostics);
    let mut diags = vec![];
    let g = compile(&read.games[0], &mut diags);
    assert!(diags.iter().all(|d| !d.is_error()), "{diags:?}");
    g.unwrap()
}

/// Per legal move at the start: the square the King ends on and how many Black men are left.
fn ends(g: &dagaz::Game) -> Vec<(String, usize)> {
    let e = Engine::new(g);
    let s = e.initial();
    let mut out: Vec<(String, usize)> = e
        .legal_moves(&s)
        .unwrap()
        .iter()
        .map(|m| {
            let after = e.apply(&s, m);
            let text = position::format(g, &after);
            let king = text
                .lines()
                .find_map(|l| l.strip_prefix("piece White King "))
                .unwrap()
                .to_string();
            let men = text
                .lines()
                .filter(|l| l.starts_with("piece Black Man"))
                .count();
            (king, men)
        })
        .collect();
    out.sort();
    out
}

#[test]
fn without_the_option_a_capture_chain_may_come_back_to_its_start() {
    // a1 x b1 to c1, x c2 to c3, x b3 to a3, x a2 to a1 (and the same ring the other way): one move, all four
    // men taken, the King back on a1.
    assert_eq!(ends(&game("")), [("a1".to_string(), 0)]);
}

#[test]
fn with_detect_loops_no_later_part_lands_where_an_earlier_part_began_or_ended() {
    // The last jump would land on a1, where the move began: the chain stops on a3 (or on c1 going the other
    // way), with three men taken.
    assert_eq!(
        ends(&game("(option \"detect loops\" true)")),
        [("a3".to_string(), 1), ("c1".to_string(), 1)]
    );
}
