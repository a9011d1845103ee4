//! The count-only mode of random playouts (`engine/count.rs`, issue 11 step 5): on every variant of `games/` and
//! of the corpus that its analysis accepts, the count equals the length of the list the engine builds, and the
//! move built for an index is the listed move at that index, at every position of random games; and random
//! playouts play the same games with the count as with the list.

mod common;

use dagaz::engine::count::{Counted, Counter};
use dagaz::engine::playout::{below, game_rng, random_game, random_game_listing};
use dagaz::engine::{Engine, MoveList};
use dagaz::load::VariantSel;
use std::path::{Path, PathBuf};

/// Every variant of the files, compiled, that the count-only analysis accepts, named.
fn accepted(files: &[PathBuf]) -> Vec<(String, dagaz::Game)> {
    common::variants_where(files, |g| Engine::new(g).count_plan().is_some())
}

/// At every position of `games` random games: the count against the list, and the moves built at a spread
/// of indices (the first, the last, and about 40 between) against the listed ones.
fn check_counts(name: &str, game: &dagaz::Game, games: u64) -> usize {
    let engine = Engine::new(game);
    let plan = engine.count_plan().expect("accepted");
    let walking = plan.without_bitboards();
    let (mut list, mut built) = (MoveList::new(), MoveList::new());
    let mut counter = Counter::default();
    let mut positions = 0;
    for g in 0..games {
        let mut rng = game_rng(11, g);
        let mut s = engine.initial();
        for _ in 0..300 {
            positions += 1;
            engine.legal_into(&s, &mut list).unwrap();
            let listed = list.to_moves().unwrap();
            let c: Counted = plan
                .count(game, &s, &mut counter)
                .expect("a small position");
            // Walking the rays square by square (boards without bitboards) counts alike.
            let prefixes = counter.prefixes.clone();
            let walked = walking
                .count(game, &s, &mut counter)
                .expect("a small position");
            assert_eq!(walked, c, "{name} game {g} ply {}: walked", s.ply());
            assert_eq!(
                counter.prefixes,
                prefixes,
                "{name} game {g} ply {}: walked",
                s.ply()
            );
            assert_eq!(c.total(), listed.len(), "{name} game {g} ply {}", s.ply());
            assert_eq!(
                c.moves == 0,
                listed.iter().all(|m| m.is_pass()),
                "{name} game {g} ply {}: only passes",
                s.ply()
            );
            if engine.outcome_of_list(&s, &list, &[]).unwrap().is_some() || listed.is_empty() {
                break;
            }
            let step = (listed.len() / 40).max(1);
            let mut picks: Vec<usize> = (0..listed.len()).step_by(step).collect();
            picks.push(listed.len() - 1);
            let before = s.clone();
            for i in picks {
                plan.build(game, &mut s, c, i, &mut counter, &mut built)
                    .unwrap();
                assert_eq!(
                    s,
                    before,
                    "{name} game {g} ply {}: build changed the state",
                    s.ply()
                );
                assert_eq!(built.len(), 1);
                assert_eq!(
                    built.to_move(0).unwrap(),
                    listed[i],
                    "{name} game {g} ply {}: move {i} of {}",
                    s.ply(),
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
    let found = accepted(&common::games_dir());
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
    for (name, game) in accepted(&common::games_dir()) {
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

/// Perft by listing every level, as `Engine::perft` counts without the count-only mode.
fn perft_listed(engine: &Engine, s: &mut dagaz::engine::State, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut list = MoveList::new();
    engine.legal_into(s, &mut list).unwrap();
    if engine.outcome_of_list(s, &list, &[]).unwrap().is_some() {
        return 0;
    }
    let mut undo = dagaz::engine::apply::Undo::new();
    let mut n = 0;
    for i in 0..list.len() {
        engine.make_listed(s, &list, i, &mut undo).unwrap();
        n += perft_listed(engine, s, depth - 1);
        engine.unmake(s, &mut undo);
    }
    n
}

/// Perft, whose last level the count-only mode counts, equals perft listed level by level: from the start
/// (the published 2,176 and 4,307,152) and from positions along random games.
#[test]
fn perft_counts_the_last_level_alike() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("games/amazons.zrf");
    let game = dagaz::load::load_game(&path, &VariantSel::First).unwrap();
    let engine = Engine::new(&game);
    assert!(engine.count_plan().is_some());
    let start = engine.initial();
    assert_eq!(engine.perft(&start, 1).unwrap(), 2_176);
    assert_eq!(engine.perft(&start, 2).unwrap(), 4_307_152);
    for g in 0..3 {
        let mut rng = game_rng(5, g);
        let mut s = engine.initial();
        for ply in 0.. {
            if ply % 10 == 5 {
                let mut work = s.clone();
                assert_eq!(
                    engine.perft(&s, 2).unwrap(),
                    perft_listed(&engine, &mut work, 2),
                    "game {g} ply {ply}"
                );
            }
            let moves = engine.legal_moves(&s).unwrap();
            if moves.is_empty() {
                break;
            }
            engine.play(&mut s, &moves[below(&mut rng, moves.len())]);
        }
    }
}

/// A small Amazons written inline (with rooks that slide without a continuation), with `extra` forms in the
/// game.
fn variant(board: &str, arrow: &str, extra: &str) -> dagaz::Game {
    let src = format!(
        "(define q ($1 (while empty? (add-partial shoot) $1)))
         (define a ($1 (while empty? mark (create {arrow}) (go from) to add back $1)))
         (define r ($1 (while empty? add $1)))
         (game (title \"variant\") (players White Black) (turn-order (White queenmove) (Black queenmove))
           {board}
           (piece (name Amazon) (moves (move-type queenmove) (q n) (q ne) (q e) (q se) (q s) (q sw) (q w) (q nw)
             (move-type shoot) (a n) (a ne) (a e) (a se) (a s) (a sw) (a w) (a nw)))
           (piece (name Rook) (moves (move-type queenmove) (r n) (r e) (r s) (r w)))
           (piece (name Arrow))
           (board-setup (White (Amazon a1 c2) (Rook e1)) (Black (Amazon e5 b4) (Rook a5)))
           {extra}
           (loss-condition (White Black) stalemated))"
    );
    let read = dagaz::lang::read_str("variant.zrf", &src, Path::new("."));
    assert!(!read.has_errors(), "{:?}", read.diagnostics);
    let mut diags = vec![];
    let g = dagaz::load::compile_source(&read.games[0], &mut diags);
    assert!(diags.iter().all(|d| !d.is_error()), "{diags:?}");
    g.unwrap()
}

/// The analysis' cases one by one, each against the list: a board with a hole, another player's symmetry,
/// the pass as a move (always, or when forced), arrows given to a named player, pieces that slide without a
/// continuation beside composite moves, shared pieces, and a board past 128 positions (no bitboards).
#[test]
fn counts_equal_the_list_on_variants() {
    let grid = |cols: &str, rows: &str, kill: &str, after: &str| {
        format!(
            "(board (grid (dimensions (\"{cols}\" (50 0)) (\"{rows}\" (0 50)))
               (directions (n 0 -1) (ne 1 -1) (e 1 0) (se 1 1) (s 0 1) (sw -1 1) (w -1 0) (nw -1 -1)) {kill})
               {after})"
        )
    };
    let (cols, rows) = ("a/b/c/d/e", "5/4/3/2/1");
    let five = grid(cols, rows, "", "");
    let holed = grid(cols, rows, "(kill-positions c3 d4)", "");
    let sym = grid(
        cols,
        rows,
        "",
        "(symmetry Black (n s) (s n) (ne se) (se ne) (nw sw) (sw nw))",
    );
    let big = grid(
        "a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p",
        "12/11/10/9/8/7/6/5/4/3/2/1",
        "",
        "",
    );
    let cases = [
        ("plain", variant(&five, "Arrow", "")),
        ("holed", variant(&holed, "Arrow", "")),
        ("symmetry", variant(&sym, "Arrow", "")),
        (
            "pass forced",
            variant(&five, "Arrow", "(option \"pass turn\" forced)"),
        ),
        (
            "pass always",
            variant(&five, "Arrow", "(option \"pass turn\" true)"),
        ),
        ("named arrows", variant(&five, "Black Arrow", "")),
        (
            "shared",
            variant(&five, "Arrow", "(option \"shared pieces\" true)"),
        ),
        ("big", variant(&big, "Arrow", "")),
    ];
    for (name, game) in &cases {
        let engine = Engine::new(game);
        assert!(engine.count_plan().is_some(), "{name} is counted");
        check_counts(name, game, 4);
        for g in 0..10 {
            let a = random_game(&engine, &mut game_rng(9, g), 300).unwrap();
            let b = random_game_listing(&engine, &mut game_rng(9, g), 300).unwrap();
            assert_eq!(
                (a.plies, format!("{:?}", a.outcome), a.moves_seen),
                (b.plies, format!("{:?}", b.outcome), b.moves_seen),
                "{name} game {g}"
            );
        }
    }
}
