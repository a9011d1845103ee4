//! Issue 26's paths for Connect Four and Hex, each checked against the general path (`EngineOptions::general`,
//! which turns both off) move for move, over seeded random games on every variant of `games/` and of the corpus
//! that uses them:
//! * the drop sites of an extension module (`Hooks::drop_sites`, asked by `gen::parts` when every drop lands
//!   where it starts): Connect Four's generation runs the drop from one cell a column;
//! * games whose modules all keep exactly the drops on their sites (`Hooks::listed`) listed into the move
//!   buffer, the module's end asked from the count of moves (`Hooks::outcome_counted`): the listed moves and
//!   their outcome against the general path's owned ones (`common/paths.rs`); Connect Four's four in a row
//!   read around the discs new since the last call;
//! * the `connects` end condition read through the player's occupancy (`engine/connects.rs`), against the
//!   reference fill (`engine/groups.rs`), which the general path keeps.
//!
//! Compared at every position: the legal moves (owned, in order), the outcome, the state after the move both
//! play (cells, hash, player to move); and, for `connects`, the condition itself for each player on both
//! readings.

mod common;
#[path = "common/paths.rs"]
mod paths;

use dagaz::compile::{EndCond, Player};
use dagaz::engine::playout::{game_rng, random_game};
use dagaz::engine::{connects, groups, Engine, EngineOptions};
use dagaz::Game;
use std::path::PathBuf;

fn uses_connects(c: &EndCond) -> bool {
    match c {
        EndCond::Connects { .. } => true,
        EndCond::And(cs) | EndCond::Or(cs) => cs.iter().any(uses_connects),
        EndCond::Not(c) => uses_connects(c),
        _ => false,
    }
}

fn connects_conds(game: &Game) -> Vec<(EndCond, Vec<Player>)> {
    game.end_conditions
        .iter()
        .filter(|ec| uses_connects(&ec.cond))
        .map(|ec| (ec.cond.clone(), ec.players.clone()))
        .collect()
}

/// Every `connects` inside a condition, with its zones and types.
fn each_connects(c: &EndCond, out: &mut Vec<EndCond>) {
    match c {
        EndCond::Connects { .. } => out.push(c.clone()),
        EndCond::And(cs) | EndCond::Or(cs) => cs.iter().for_each(|c| each_connects(c, out)),
        EndCond::Not(c) => each_connects(c, out),
        _ => {}
    }
}

/// [`paths::same_games`] (seed 26), and at every position each `connects` condition answered by the path and by
/// the reference fill; after each move the hash and the key.
fn same_games(name: &str, game: &Game, games: u64, plies: u32) -> usize {
    let mut conds = vec![];
    for (c, _) in connects_conds(game) {
        each_connects(&c, &mut conds);
    }
    paths::same_games(
        name,
        game,
        (games, plies, 26),
        |what, s| {
            for c in &conds {
                let EndCond::Connects { zones, types } = c else {
                    unreachable!()
                };
                for p in 0..game.players.len() {
                    let p = Player(p as u8);
                    assert_eq!(
                        connects::connects(game, s, p, zones, types),
                        groups::connects(game, s, p, zones, types),
                        "{what}: connects for player {}",
                        p.idx()
                    );
                }
            }
        },
        |what, _, s, t| {
            assert_eq!(s.hash(), t.hash(), "{what}: hash after the move");
            assert_eq!(s.key(), t.key(), "{what}: key after the move");
        },
    )
}

/// The variants that use either path: a `connects` end condition, or a module that names drop sites.
fn accepted(files: &[PathBuf]) -> Vec<(String, Game)> {
    common::variants_where(files, |g| {
        !connects_conds(g).is_empty() || Engine::new(g).drop_sites()
    })
}

#[test]
fn games_play_the_same_on_both_paths() {
    let found = accepted(&common::games_dir());
    let names: Vec<&str> = found.iter().map(|(n, _)| n.as_str()).collect();
    eprintln!("games/ variants: {names:#?}");
    for f in ["hex.zrf:1", "hex.zrf:2", "connect-four.zrf:1"] {
        assert!(
            names.iter().any(|n| n.ends_with(&format!("/{f}"))),
            "{f} is compared: {names:?}"
        );
    }
    for (name, game) in &found {
        let n = same_games(name, game, 60, 400);
        eprintln!("{name}: {n} positions");
        assert!(n > 1000, "{name}: {n} positions compared");
    }
}

/// The corpus: its Connect Four (the module attached by its Dagaz-site script, or by hand as `--extension`
/// does) and any file whose text names `connects` or the module.
#[test]
fn corpus_plays_the_same_on_both_paths() {
    let files: Vec<PathBuf> = common::corpus_files()
        .into_iter()
        .filter(|f| {
            std::fs::read(f)
                .map(|b| {
                    let t = String::from_utf8_lossy(&b).to_ascii_lowercase();
                    t.contains("connects") || t.contains("connect-four")
                })
                .unwrap_or(true)
        })
        .collect();
    let mut found = accepted(&files);
    let c4 = common::corpus_root().join("DagazProject.github.io/arrange/zrf/connect-four.zrf");
    let mut game =
        dagaz::load::load_game(&c4, &dagaz::load::VariantSel::First).expect("corpus Connect Four");
    if !game.extensions.iter().any(|e| e.name == "connect-four") {
        dagaz::extension::attach(&mut game, "connect-four").unwrap();
    }
    assert!(
        Engine::new(&game).drop_sites(),
        "the module names drop sites"
    );
    found.push((format!("{}:1 with connect-four", c4.display()), game));
    for (name, game) in &found {
        let n = same_games(name, game, 60, 400);
        eprintln!("{name}: {n} positions");
        assert!(n > 500, "{name}: {n} positions compared");
    }
}

/// The drop sites are on by default and off on the general path; and the random games `dagaz playout` plays
/// at Connect Four (the golden traces' kind) are the same games on both.
#[test]
fn the_general_path_turns_the_drop_sites_off_and_plays_the_same_games() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("games/connect-four.zrf");
    let game =
        dagaz::load::load_game(&path, &dagaz::load::VariantSel::First).expect("Connect Four");
    let fast = Engine::with_options(&game, EngineOptions::default());
    let general = Engine::with_options(&game, EngineOptions::general());
    assert!(fast.drop_sites());
    assert!(!general.drop_sites());
    // The module keeps exactly the drops on its sites (`Hooks::listed`): the default engine lists the moves
    // into its buffer; the general path builds owned moves and asks the module to filter them.
    assert!(fast.flat());
    assert!(!general.flat());
    // (Hex's default engine draws its random moves by the sample plan, the general path from the list: their
    // random games differ by design, so Hex is compared move for move above, not game for game here.)
    for file in ["games/connect-four.zrf"] {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
        let game = dagaz::load::load_game(&path, &dagaz::load::VariantSel::First).unwrap();
        let fast = Engine::with_options(&game, EngineOptions::default());
        let general = Engine::with_options(&game, EngineOptions::general());
        for g in 0..200 {
            let a = random_game(&fast, &mut game_rng(3, g), 1000).unwrap();
            let b = random_game(&general, &mut game_rng(3, g), 1000).unwrap();
            assert_eq!(a.plies, b.plies, "{file} game {g}: plies");
            assert_eq!(a.outcome, b.outcome, "{file} game {g}: outcome");
        }
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

/// A drop that lands elsewhere than where it starts (one step down from where it starts) is not sped up: the
/// module's sites say where a drop lands, not where its program starts. A drop that stays is, with the same
/// moves as the general path either way.
#[test]
fn only_drops_that_land_where_they_start_use_the_sites() {
    let tiny = |drop: &str| {
        compile_src(&format!(
            "(game (title \"tiny\") (players A B) (turn-order A B)
               (board (grid (dimensions (\"a/b/c/d\" (50 0)) (\"4/3/2/1\" (0 50)))
                 (directions (s 0 1) (n 0 -1) (e 1 0) (w -1 0) (ne 1 -1) (sw -1 1) (nw -1 -1) (se 1 1))))
               (piece (name P) (drops ({drop})))
               (extension connect-four))"
        ))
    };
    let still = tiny("(verify empty?) add");
    assert!(Engine::new(&still).drop_sites());
    assert!(Engine::with_options(&still, EngineOptions::default()).flat());
    let n = same_games("still drop", &still, 40, 40);
    assert!(n > 100, "{n} positions");
    let moving = tiny("s (verify empty?) add");
    assert!(!Engine::new(&moving).drop_sites());
    assert!(!Engine::with_options(&moving, EngineOptions::default()).flat());
    let n = same_games("moving drop", &moving, 40, 40);
    assert!(n > 100, "{n} positions");
}
