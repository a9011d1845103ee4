//! The tables of `sow` instructions (`engine/sow.rs`, `Tables`): what a sowing reads of the board alone
//! (the masks of its conditions, its lap from each pit, the opposite pits, the store), built once per engine
//! instead of being read at every sowing. On every variant of `games/` and of the corpus whose engine builds
//! them, and on small games written here, the engine with tables lists the same moves in the same order,
//! with the same outcomes, as the general path (which builds none), at every position of seeded random games.

mod common;
#[path = "common/paths.rs"]
mod paths;

use dagaz::engine::{Engine, EngineOptions};
use dagaz::Game;
use std::path::PathBuf;

fn accepted(files: &[PathBuf]) -> Vec<(String, Game)> {
    common::variants_where(files, |g| Engine::new(g).sow_tabled() > 0)
}

/// [`paths::same_games`] (seed 29), on an engine that builds tables (and the general path, which builds none).
/// Returns the positions compared.
fn same_games(name: &str, game: &Game, games: u64, plies: u32) -> usize {
    assert!(Engine::new(game).sow_tabled() > 0, "{name}: tables built");
    assert_eq!(
        Engine::with_options(game, EngineOptions::general()).sow_tabled(),
        0,
        "{name}: none on the general path"
    );
    paths::same_games(name, game, (games, plies, 29), |_, _| {}, |_, _, _, _| {})
}

#[test]
fn the_tables_list_what_the_general_path_lists_in_games() {
    let found = accepted(&common::games_dir());
    let names: Vec<&str> = found.iter().map(|(n, _)| n.as_str()).collect();
    eprintln!("games/ variants with sow tables: {names:#?}");
    for f in ["kalah.zrf", "oware.zrf"] {
        assert!(
            names.iter().any(|n| n.ends_with(&format!("/{f}:1"))),
            "{f} has tables: {names:?}"
        );
    }
    for (name, game) in &found {
        let n = same_games(name, game, 40, 400);
        eprintln!("{name}: {n} positions");
        assert!(n > 1000, "{name}: {n} positions compared");
    }
}

/// The corpus's mancala files sow through extension modules, not the `sow` instruction: whatever variant
/// builds tables (none today) is compared the same way.
#[test]
fn the_tables_list_what_the_general_path_lists_in_the_corpus() {
    // Only a file that says `sow` can compile to a sowing: the others are not compiled (that took 55-110 s).
    let files: Vec<PathBuf> = common::corpus_files()
        .into_iter()
        .filter(|f| {
            std::fs::read(f)
                .map(|b| {
                    String::from_utf8_lossy(&b)
                        .to_ascii_lowercase()
                        .contains("sow")
                })
                .unwrap_or(true)
        })
        .collect();
    let found = accepted(&files);
    eprintln!("corpus variants with sow tables ({}):", found.len());
    for (name, game) in &found {
        let n = same_games(name, game, 5, 300);
        eprintln!("  {name}: {n} positions");
    }
}

fn compile_src(src: &str) -> Game {
    let read = dagaz::lang::read_str("t.zrf", src, std::path::Path::new("."));
    assert!(!read.has_errors(), "{:?}", read.diagnostics);
    let mut diags = vec![];
    let g = dagaz::load::compile_source(&read.games[0], &mut diags);
    assert!(diags.iter().all(|d| !d.is_error()), "{diags:?}");
    g.unwrap()
}

/// A two-row mancala whose `sow` is `SOW`: South a1-f1 and store ss, North a2-f2 and store ns, a track
/// through both stores; zones `home`, `store`, `their-store` per player.
fn mancala(sow: &str, seeds: u32) -> Game {
    compile_src(&format!(
        "(define ended (or (= (sum seeds (zone home)) 0) (= (sum seeds (zone home) opponent) 0)))
         (game (title \"t\") (players South North) (turn-order South North)
           (board
             (positions a1 b1 c1 d1 e1 f1 ss a2 b2 c2 d2 e2 f2 ns)
             (links ccw (a1 b1) (b1 c1) (c1 d1) (d1 e1) (e1 f1) (f1 ss) (ss f2)
                        (f2 e2) (e2 d2) (d2 c2) (c2 b2) (b2 a2) (a2 ns) (ns a1))
             (links across (a1 a2) (b1 b2) (c1 c2) (d1 d2) (e1 e2) (f1 f2)
                           (a2 a1) (b2 b1) (c2 c1) (d2 d1) (e2 e1) (f2 f1))
             (zone (name home) (players South) (positions a1 b1 c1 d1 e1 f1))
             (zone (name home) (players North) (positions a2 b2 c2 d2 e2 f2))
             (zone (name store) (players South) (positions ss))
             (zone (name store) (players North) (positions ns))
             (zone (name their-store) (players South) (positions ns))
             (zone (name their-store) (players North) (positions ss)))
           (piece (name Pit) (attribute seeds {seeds}) (moves ({sow} add)))
           (piece (name Store) (attribute seeds 0))
           (board-setup
             (South (Pit a1 b1 c1 d1 e1 f1) (Store ss))
             (North (Pit a2 b2 c2 d2 e2 f2) (Store ns)))
           (win-condition (South North) (and (ended) (> (sum seeds) (sum seeds opponent))))
           (loss-condition (South North) (and (ended) (< (sum seeds) (sum seeds opponent))))
           (draw-condition (South North) (and (ended) (= (sum seeds) (sum seeds opponent)))))"
    ))
}

/// The options of `sow` on small games: conditions of every kind the tables take (zones, positions, links,
/// `not`/`and`/`or`), and conditions that read pieces, which get no table and are read at each sowing.
#[test]
fn the_tables_follow_every_option_and_leave_what_reads_pieces() {
    let tabled = [
        "(sow seeds ccw (skip (in-zone? their-store)) (store store) \
         (capture-opposite (in-zone? home) across) (again (in-zone? store)))",
        "(sow seeds ccw skip-origin (skip (or (in-zone? store) (in-zone? their-store))) (store store) \
         (capture (not (in-zone? home)) (counts 2 3) chain) (feed (and (not (in-zone? home)) \
         (not (in-zone? store)) (not (in-zone? their-store)))))",
        "(sow seeds ccw (skip (position? ss)) (store store) (capture (on-board? across) (counts 1 4)) \
         (grand-slam illegal) (again (position? ns)))",
    ];
    for (k, sow) in tabled.iter().enumerate() {
        for seeds in [3, 4] {
            let g = mancala(sow, seeds);
            let n = same_games(&format!("tabled {k}, {seeds} seeds"), &g, 30, 300);
            assert!(n > 300, "{k}: {n} positions");
        }
    }
    // `empty?` and `friend?` read the pieces: that instruction gets no table, and plays as before.
    for sow in [
        "(sow seeds ccw (skip (empty?)) (store store) (again (in-zone? store)))",
        "(sow seeds ccw (store store) (capture (not friend?) (counts 2 3)))",
    ] {
        let g = mancala(sow, 4);
        assert_eq!(Engine::new(&g).sow_tabled(), 0, "{sow}");
    }
}
