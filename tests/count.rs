//! The count-only mode of random playouts (`engine/count.rs`, issue 11 step 5): on every variant of `games/` and
//! of the corpus that its analysis accepts, the count equals the length of the list the engine builds, and the
//! move built for an index is the listed move at that index, at every position of random games; and random
//! playouts play the same games with the count as with the list.

mod common;

use dagaz::engine::count::Counted;
use dagaz::engine::gen::Emissions;
use dagaz::engine::playout::{below, game_rng, random_game, random_game_listing};
use dagaz::engine::{apply::Undo, Engine, MoveList};
use dagaz::load::{compile_selected, VariantSel};
use std::path::{Path, PathBuf};

/// Every variant of the files, compiled, that the count-only analysis accepts, named.
fn accepted(files: &[PathBuf]) -> Vec<(String, dagaz::Game)> {
    let mut out = vec![];
    for f in files {
        let read = dagaz::lang::read_file(f);
        if read.has_errors() {
            continue;
        }
        for g in &read.games {
            let (Some(game), _) = compile_selected(&read, &VariantSel::Number(g.number)) else {
                continue;
            };
            if Engine::new(&game).count_plan().is_some() {
                out.push((format!("{}:{}", f.display(), g.number), game));
            }
        }
    }
    out
}

fn games_dir() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "zrf"))
        .collect();
    v.sort();
    v
}

/// At every position of `games` random games: the count against the list, and the moves built at a spread
/// of indices (the first, the last, and about 40 between) against the listed ones.
fn check_counts(name: &str, game: &dagaz::Game, games: u64) -> usize {
    let engine = Engine::new(game);
    let plan = engine.count_plan().expect("accepted");
    let (mut list, mut built) = (MoveList::new(), MoveList::new());
    let (mut prefixes, mut em, mut undo) = (vec![], Emissions::default(), Undo::new());
    let mut positions = 0;
    for g in 0..games {
        let mut rng = game_rng(11, g);
        let mut s = engine.initial();
        for _ in 0..300 {
            positions += 1;
            engine.legal_into(&s, &mut list).unwrap();
            let listed = list.to_moves();
            let c: Counted = plan
                .count(game, &s, &mut prefixes)
                .expect("a small position");
            assert_eq!(c.total(), listed.len(), "{name} game {g} ply {}", s.ply);
            assert_eq!(
                c.moves == 0,
                listed.iter().all(|m| m.is_pass()),
                "{name} game {g} ply {}: only passes",
                s.ply
            );
            if engine.outcome_of_list(&s, &list, &[]).unwrap().is_some() || listed.is_empty() {
                break;
            }
            let step = (listed.len() / 40).max(1);
            let mut picks: Vec<usize> = (0..listed.len()).step_by(step).collect();
            picks.push(listed.len() - 1);
            let before = s.clone();
            for i in picks {
                plan.build(
                    game, &mut s, &prefixes, c, i, &mut em, &mut undo, &mut built,
                )
                .unwrap();
                assert_eq!(
                    s, before,
                    "{name} game {g} ply {}: build changed the state",
                    s.ply
                );
                assert_eq!(built.len(), 1);
                assert_eq!(
                    built.to_move(0),
                    listed[i],
                    "{name} game {g} ply {}: move {i} of {}",
                    s.ply,
                    listed.len()
                );
            }
            let m = &listed[below(&mut rng, listed.len())];
            engine.play(&mut s, m);
        }
    }
    positions
}

#[test]
fn counts_and_built_moves_equal_the_list_in_games() {
    let found = accepted(&games_dir());
    let names: Vec<&str> = found.iter().map(|(n, _)| n.as_str()).collect();
    eprintln!("games/ variants counted: {names:?}");
    assert!(
        names.iter().any(|n| n.ends_with("amazons.zrf:1")),
        "amazons is counted: {names:?}"
    );
    for (name, game) in &found {
        let n = check_counts(name, game, 6);
        assert!(n > 100, "{name}: {n} positions");
    }
}

#[test]
fn counts_and_built_moves_equal_the_list_in_the_corpus() {
    let found = accepted(&common::corpus_files());
    eprintln!(
        "corpus variants counted: {:?}",
        found.iter().map(|f| &f.0).collect::<Vec<_>>()
    );
    for (name, game) in &found {
        check_counts(name, game, 3);
    }
}

/// The count-only mode changes no game: the same plies, outcome and legal moves seen, game by game.
#[test]
fn playouts_are_the_same_with_the_count() {
    for (name, game) in accepted(&games_dir()) {
        let engine = Engine::new(&game);
        for g in 0..60 {
            let a = random_game(&engine, &mut game_rng(7, g), 1000).unwrap();
            let b = random_game_listing(&engine, &mut game_rng(7, g), 1000).unwrap();
            assert_eq!(
                (a.plies, format!("{:?}", a.outcome), a.moves_seen),
                (b.plies, format!("{:?}", b.outcome), b.moves_seen),
                "{name} game {g}"
            );
        }
        // A cap inside the game ends both at the same ply.
        let a = random_game(&engine, &mut game_rng(3, 0), 20).unwrap();
        let b = random_game_listing(&engine, &mut game_rng(3, 0), 20).unwrap();
        assert_eq!((a.plies, a.moves_seen), (b.plies, b.moves_seen), "{name}");
    }
}
