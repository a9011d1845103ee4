//! Connect Four's drop sites (`Hooks::drop_sites` of the `connect-four` module, which the move buffer's path
//! runs the drops from): by the published rules a disc falls to the lowest empty cell of its column, so a drop
//! can only land on a cell of the bottom row or on a cell just above a disc. Checked on boards whose discs are
//! added, removed and handed over in random order (positions the game never reaches included), against that
//! rule read from the cells' names (file letter, rank 1 the bottom row), not from the board's links.

#[path = "common/connect_four.rs"]
mod c4;

use c4::{connect_four, disc};
use dagaz::compile::{Game, Pos};
use dagaz::engine::playout::{below, game_rng};
use dagaz::engine::state::State;
use dagaz::engine::Engine;

/// The cells a drop may land on, by the rule: rank 1, or the cell of the same file one rank lower holds a
/// disc.
fn by_the_rule(game: &Game, s: &State) -> Vec<bool> {
    game.board
        .positions
        .iter()
        .map(|info| {
            let (file, rank) = info.name.split_at(1);
            let rank: u32 = rank.parse().expect("a rank");
            rank == 1 || {
                let lower = game
                    .board
                    .position(&format!("{file}{}", rank - 1))
                    .expect("the cell below");
                s.get(lower).is_some()
            }
        })
        .collect()
}

fn sites(engine: &Engine, s: &State) -> Vec<bool> {
    let hooks = engine.extension_hooks();
    assert_eq!(hooks.len(), 1);
    let n = engine.game.board.positions.len();
    let mut words = vec![0u64; n.div_ceil(64)];
    assert!(hooks[0].drop_sites(engine.game, s, &mut words));
    (0..n).map(|i| words[i >> 6] >> (i & 63) & 1 != 0).collect()
}

#[test]
fn drop_sites_are_the_bottom_row_and_the_cells_above_discs() {
    let game = connect_four();
    assert_eq!(game.board.positions.len(), 42);
    let engine = Engine::new(&game);
    let n = game.board.positions.len();
    let mut counted = [0usize; 2];
    for seed in 0..30 {
        let mut rng = game_rng(seed, 0);
        let mut s = engine.initial();
        assert_eq!(
            sites(&engine, &s).iter().filter(|&&x| x).count(),
            7,
            "the bottom row"
        );
        for _ in 0..300 {
            let at = Pos(below(&mut rng, n) as u16);
            match below(&mut rng, 100) {
                0..=69 => s.set(at, Some(disc(below(&mut rng, 2)))),
                70..=89 => s.set(at, None),
                90..=97 => {
                    if let Some(x) = s.get(at) {
                        s.set(at, Some(disc(1 - x.owner.idx())));
                    }
                }
                _ => s = engine.initial(),
            }
            let want = by_the_rule(&game, &s);
            assert_eq!(sites(&engine, &s), want, "the drop sites of\n{s:?}");
            counted[0] += want.iter().filter(|&&x| x).count();
            counted[1] += 1;
        }
    }
    // Boards well past the bottom row were seen.
    assert!(counted[0] > counted[1] * 10, "{counted:?}");
}
