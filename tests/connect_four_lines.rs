//! Connect Four's four in a row read around the discs new since the last call (`Hooks::outcome_counted` of
//! the `connect-four` module, what the move buffer's path asks) against the board read whole (its
//! `Hooks::outcome`, what the general path asks), on boards whose discs are added, removed, handed to the
//! other player and cleared in random order; and by hand on lines the rules give.

#[path = "common/connect_four.rs"]
mod c4;

use c4::{connect_four, disc};
use dagaz::compile::Pos;
use dagaz::engine::playout::{below, game_rng};
use dagaz::engine::state::State;
use dagaz::engine::{Engine, Outcome};

/// Both readings of the end (with `moves` legal moves), which must agree.
fn both(engine: &Engine, s: &State, moves: usize) -> Option<Outcome> {
    let hooks = engine.extension_hooks();
    assert_eq!(hooks.len(), 1);
    let kept = hooks[0].outcome_counted(engine.game, s, moves, &[]);
    let whole = hooks[0].outcome(engine.game, s, &vec![Default::default(); moves], &[]);
    assert_eq!(kept, whole, "the two readings of\n{s:?}");
    kept
}

#[test]
fn lines_read_around_new_discs_agree_with_the_whole_board() {
    let game = connect_four();
    let engine = Engine::new(&game);
    let n = game.board.positions.len();
    let mut wins = [0usize; 2];
    for seed in 0..40 {
        let mut rng = game_rng(seed, 0);
        let mut s = engine.initial();
        for _ in 0..400 {
            let at = Pos(below(&mut rng, n) as u16);
            match below(&mut rng, 100) {
                0..=79 => s.set(at, Some(disc(below(&mut rng, 2)))),
                80..=89 => s.set(at, None),
                90..=97 => {
                    if let Some(x) = s.get(at) {
                        s.set(at, Some(disc(1 - x.owner.idx())));
                    }
                }
                _ => s = engine.initial(),
            }
            if let Some(o) = both(&engine, &s, 1) {
                wins[o.results.iter().position(|&r| r == 1).unwrap()] += 1;
            }
        }
    }
    // Both players' lines occur (and the boards between, with none).
    assert!(wins[0] > 100 && wins[1] > 100, "{wins:?}");
}

/// By the rules: four of a player's discs in a row across, up and down, or diagonally win; three do not; a
/// full board without a line draws (the end read with no legal move).
#[test]
fn four_in_a_row_by_hand() {
    let game = connect_four();
    let engine = Engine::new(&game);
    let at = |name: &str| game.board.position(name).unwrap();
    let winner = |o: Option<Outcome>| o.map(|o| o.results.iter().position(|&r| r == 1));
    let lines: [&[&str]; 4] = [
        &["a1", "b1", "c1", "d1"],
        &["g1", "g2", "g3", "g4"],
        &["a1", "b2", "c3", "d4"],
        &["g1", "f2", "e3", "d4"],
    ];
    for (k, line) in lines.iter().enumerate() {
        for owner in 0..2 {
            let mut s = engine.initial();
            // A disc of the other player elsewhere, so that both players have discs.
            s.set(at("c6"), Some(disc(1 - owner)));
            for (i, p) in line.iter().enumerate() {
                s.set(at(p), Some(disc(owner)));
                let want = if i == 3 { Some(Some(owner)) } else { None };
                assert_eq!(
                    winner(both(&engine, &s, 1)),
                    want,
                    "line {k}, {} discs",
                    i + 1
                );
            }
            // The line broken: no winner; the disc given to the other player: still none.
            s.set(at(line[1]), None);
            assert_eq!(winner(both(&engine, &s, 1)), None, "line {k} broken");
            s.set(at(line[1]), Some(disc(1 - owner)));
            assert_eq!(winner(both(&engine, &s, 1)), None, "line {k} held by two");
            assert_eq!(
                winner(both(&engine, &s, 0)),
                Some(None),
                "no move and no line: a draw"
            );
        }
    }
}
