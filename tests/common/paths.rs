//! The engine's own paths against the general path (`EngineOptions::general`), move for move: what
//! `tests/connect_paths.rs`, `tests/chains.rs` and `tests/sow_tables.rs` share. A file that uses it includes
//! it with `#[path = "common/paths.rs"] mod paths;`, so that the other test files are not rebuilt when it
//! changes.
#![allow(dead_code)]

use dagaz::engine::playout::{below, game_rng};
use dagaz::engine::{Engine, EngineOptions, Move, MoveList, State};
use dagaz::Game;

/// `games` seeded random games (game g draws its moves from `game_rng(seed, g)`) of up to `plies` plies,
/// played by the default engine and the general path side by side and compared at every position: the start,
/// the legal moves in order, the moves listed into a move buffer where an engine has one (on the default
/// engine also as handles, as random playouts and the bots list them, each built), the outcome of the listed moves where
/// both list them, the outcome, and the state after the move both play. `at(what, state)` checks more at each position, and
/// `after(what, move, default engine's state, general path's state)` after each move. Returns the positions
/// compared.
pub fn same_games(
    name: &str,
    game: &Game,
    (games, plies, seed): (u64, u32, u64),
    mut at: impl FnMut(&str, &State),
    mut after: impl FnMut(&str, &Move, &State, &State),
) -> usize {
    let fast = Engine::with_options(game, EngineOptions::default());
    let general = Engine::with_options(game, EngineOptions::general());
    let (mut a, mut b) = (MoveList::new(), MoveList::new());
    let mut positions = 0;
    for g in 0..games {
        let mut rng = game_rng(seed, g);
        let mut s = fast.initial();
        assert_eq!(s, general.initial(), "{name} game {g}: start");
        let mut history = vec![];
        for _ in 0..plies {
            positions += 1;
            let what = format!("{name} game {g} ply {}", s.ply());
            let x = fast.legal_moves(&s).unwrap();
            let y = general.legal_moves(&s).unwrap();
            assert_eq!(x.len(), y.len(), "{what}: move count");
            for (i, (m, n)) in x.iter().zip(&y).enumerate() {
                assert_eq!(m, n, "{what}: move {i} of {}", x.len());
            }
            if general.flat() {
                general.legal_into(&s, &mut b).unwrap();
                assert_eq!(b.to_moves().unwrap(), y, "{what}: listed, general path");
            }
            if fast.flat() {
                fast.legal_into(&s, &mut a).unwrap();
                assert_eq!(a.to_moves().unwrap(), x, "{what}: listed");
                let oa = fast.outcome_of_list(&s, &a, &history).unwrap();
                let ob = if general.flat() {
                    general.outcome_of_list(&s, &b, &history).unwrap()
                } else {
                    // A game listed only off the general path (extension modules that say so,
                    // `Hooks::listed`): against the general path's owned outcome.
                    general.outcome(&s, &y, &history).unwrap()
                };
                assert_eq!(oa, ob, "{what}: outcome of the list");
                // As random playouts and the bots list them: composite moves as handles, each built when
                // chosen (`Engine::resolve`).
                a.lazy = true;
                fast.legal_into(&s, &mut a).unwrap();
                let n = a.len();
                let built: Vec<Move> = (0..n)
                    .map(|i| {
                        let j = fast.resolve(&s, &mut a, i).unwrap();
                        a.to_move(j).unwrap()
                    })
                    .collect();
                assert_eq!(built, x, "{what}: listed, handles asked for");
                a.lazy = false;
            }
            at(&what, &s);
            let o = fast.outcome(&s, &x, &history).unwrap();
            assert_eq!(
                o,
                general.outcome(&s, &y, &history).unwrap(),
                "{what}: outcome"
            );
            if o.is_some() || x.is_empty() {
                break;
            }
            history.push(s.key());
            let m = &x[below(&mut rng, x.len())];
            let mut t = s.clone();
            fast.play(&mut s, m);
            general.play(&mut t, m);
            assert_eq!(s, t, "{what}: after the move");
            after(&what, m, &s, &t);
        }
    }
    positions
}
