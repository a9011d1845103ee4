//! The legality cache (`engine::legality`) against the general path, which never builds it: on every variant
//! of `games/` and of the corpus whose legal moves the default engine finds by testing candidates against the
//! `checkmated` rule (`Engine::royal_listed`), seeded random games are played and, at every position, the legal
//! moves are compared in order three ways: the general path's `legal_moves` (the full attack test after each
//! move), the default engine's `search_list` (the candidates in a move buffer, each answered by the cache
//! without being made where it can, as perft and the searches list them) and its `legal_moves` (the cache
//! on owned moves).

mod common;

use dagaz::engine::apply::Undo;
use dagaz::engine::playout::{below, game_rng};
use dagaz::engine::search::SearchMoves;
use dagaz::engine::{Engine, EngineOptions, Move};

#[test]
fn the_cache_lists_the_general_paths_legal_moves() {
    compare(1, 30, 11);
}

/// Longer games (about 4 minutes of one core): `cargo test --release --test legality_cache -- --ignored`.
#[test]
#[ignore]
fn the_cache_lists_the_general_paths_legal_moves_deep() {
    compare(4, 200, 12);
}

/// `games` seeded random games of up to `plies` plies per variant.
fn compare(games: u64, plies: u32, seed: u64) {
    let mut files = common::games_dir();
    files.extend(common::corpus_files());
    let variants = common::variants_where(&files, |g| {
        Engine::with_options(g, EngineOptions::default()).royal_listed()
    });
    let (mut positions, mut checks) = (0usize, 0usize);
    for (name, game) in &variants {
        let fast = Engine::with_options(game, EngineOptions::default());
        let general = Engine::with_options(game, EngineOptions::general());
        let mut listed = SearchMoves::default();
        let mut undo = Undo::new();
        for g in 0..games {
            let mut rng = game_rng(seed, g);
            let mut s = general.initial();
            for _ in 0..plies {
                let what = format!("{name} game {g} ply {}", s.ply());
                let Ok(want) = general.legal_moves(&s) else {
                    break;
                };
                let mut work = s.clone();
                fast.search_list(&mut work, &mut listed, &mut undo)
                    .unwrap_or_else(|e| panic!("{what}: {e}"));
                assert_eq!(work, s, "{what}: the state after listing");
                let got: Vec<Move> = (0..listed.len())
                    .map(|i| listed.to_move(i).unwrap())
                    .collect();
                assert_eq!(got, want, "{what}: search_list");
                let owned = fast
                    .legal_moves(&s)
                    .unwrap_or_else(|e| panic!("{what}: {e}"));
                assert_eq!(owned, want, "{what}: legal_moves");
                positions += 1;
                checks += want.len();
                if want.is_empty() || general.outcome(&s, &want, &[]).ok().flatten().is_some() {
                    break;
                }
                s = general.apply(&s, &want[below(&mut rng, want.len())]);
            }
        }
    }
    println!(
        "{} variants, {positions} positions, {checks} legal moves compared",
        variants.len()
    );
    // chess, shogi, xiangqi and their kin: far more than a handful of variants list this way.
    assert!(variants.len() >= 50, "{} variants", variants.len());
    assert!(positions as u64 >= 50 * games * 20, "{positions} positions");
}
