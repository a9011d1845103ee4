//! The group table (`engine/chains.rs`) and the repetition keys worked out from the squares a drop changes
//! (`groups::filter_repetition`, `key_after_drop`): the group forms `suicide?` and `capture-groups` read the
//! groups of the frozen board from a table built once per generation, and ko and superko compute the key
//! after a drop instead of applying it. On every variant of `games/` and of the corpus that uses a group form
//! or a repetition rule, and on small games written here for the forms' options (suicide that removes one's
//! own group, a moving piece, three players, superko of both kinds), the engine lists the same moves in the
//! same order, with the same outcomes, states and hashes, as the general path (`DAGAZ_GENERAL_PATH=1`, which
//! builds no table and applies every move), at every position of seeded random games.

mod common;
#[path = "common/paths.rs"]
mod paths;

use dagaz::engine::{Engine, EngineOptions};
use dagaz::Game;
use std::path::PathBuf;

/// Whether the game uses a group form in a move program or a repetition rule.
fn uses_groups(g: &Game) -> bool {
    let programs = format!("{:?}", g.pieces);
    g.forbid_repetition.is_some()
        || programs.contains("Suicide")
        || programs.contains("CaptureGroups")
}

/// [`paths::same_games`] (seed 31), and after each move the key and the hash (against the hash computed from
/// scratch). Returns the positions compared and the captures seen.
fn same_games(name: &str, game: &Game, games: u64, plies: u32) -> (usize, usize) {
    let mut captures = 0;
    let positions = paths::same_games(
        name,
        game,
        (games, plies, 31),
        |_, _| {},
        |what, m, s, t| {
            captures += format!("{m:?}").matches("Capture").count();
            assert_eq!(s.key(), t.key(), "{what}: key after the move");
            assert_eq!(s.hash(), s.full_hash(), "{what}: hash after the move");
        },
    );
    (positions, captures)
}

#[test]
fn the_table_lists_what_the_general_path_lists_in_games() {
    let found = common::variants_where(&common::games_dir(), uses_groups);
    let names: Vec<&str> = found.iter().map(|(n, _)| n.as_str()).collect();
    eprintln!("games/ variants with group forms or repetition rules: {names:#?}");
    for v in 1..=3 {
        assert!(
            names
                .iter()
                .any(|n| n.ends_with(&format!("/go-9x9.zrf:{v}"))),
            "go-9x9 variant {v}: {names:?}"
        );
    }
    for (name, game) in &found {
        // Go's repetition rule alone leaves it flat off the general path (the listed moves filtered), not on it.
        if name.contains("go-9x9") {
            assert!(
                Engine::new(game).flat(),
                "{name}: listed with its repetition rule"
            );
            assert!(
                !Engine::with_options(game, EngineOptions::general()).flat(),
                "{name}: not listed on the general path"
            );
        }
        let (n, c) = same_games(name, game, 30, 400);
        eprintln!("{name}: {n} positions, {c} captures");
        assert!(n > 1000 && c > 100, "{name}: {n} positions, {c} captures");
    }
}

/// The corpus's files with group forms or repetition rules (none as written), and its Go files with the `go`
/// and `atari-go` modules attached (the `go` module's `prepare` turns on simple ko).
#[test]
fn the_table_lists_what_the_general_path_lists_in_the_corpus() {
    // Only a file that names a group form, a repetition rule or a Go module is compiled (all 509 take a minute).
    let words = [
        "suicide",
        "capture-groups",
        "forbid-repetition",
        "go-capturing",
        "go-ko",
        "atari-go",
    ];
    let files: Vec<PathBuf> = common::corpus_files()
        .into_iter()
        .filter(|f| {
            std::fs::read(f)
                .map(|b| {
                    let t = String::from_utf8_lossy(&b).to_ascii_lowercase();
                    words.iter().any(|w| t.contains(w))
                })
                .unwrap_or(true)
        })
        .collect();
    let found = common::variants_where(&files, uses_groups);
    eprintln!(
        "corpus variants with group forms or repetition rules ({}):",
        found.len()
    );
    for (name, game) in &found {
        let (n, c) = same_games(name, game, 5, 300);
        eprintln!("  {name}: {n} positions, {c} captures");
    }
    // The corpus's Go files leave Go's rules to Dagaz scripts: with the modules that play them
    // (`--extension go`, `--extension atari-go`), `go` turns on simple ko, judged by the keys after drops.
    // Atari Go ends at the first capture: more, shorter games.
    for (file, module, games) in [("go.zrf", "go", 5), ("atari-go.zrf", "atari-go", 20)] {
        let path = common::corpus_root()
            .join("DagazProject.github.io/go/zrf")
            .join(file);
        let read = dagaz::lang::read_file(&path);
        for v in &read.games {
            let (Some(mut game), _) =
                dagaz::load::compile_selected(&read, &dagaz::load::VariantSel::Number(v.number))
            else {
                continue;
            };
            dagaz::extension::attach(&mut game, module).unwrap();
            let name = format!("{file}:{} with {module}", v.number);
            let (n, c) = same_games(&name, &game, games, 300);
            eprintln!("  {name}: {n} positions, {c} captures");
            assert!(n > 300, "{name}: {n} positions");
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

/// A small Go-like game on a 5x5 board for `PLAYERS`, whose stones are dropped by `DROP` and may move by
/// `MOVES`, with the repetition rule `RULE`; it ends after 60 plies or two passes in a row.
fn small(players: &str, drop: &str, moves: &str, rule: &str) -> Game {
    compile_src(&format!(
        "(game (title \"t\") (players {players}) (turn-order {players})
           (option \"pass turn\" true)
           {rule}
           (board (grid (dimensions (\"a/b/c/d/e\" (40 0)) (\"5/4/3/2/1\" (0 40)))
                        (directions (n 0 -1) (e 1 0) (s 0 1) (w -1 0))))
           (piece (name Stone) (drops ({drop})) {moves})
           (draw-condition ({players}) (>= (passes) 2)))"
    ))
}

/// The forms' options on small games: Go's drop, the drop where suicide removes one's own group, a stone that
/// steps and captures, three players, and each repetition rule.
#[test]
fn the_table_follows_every_option() {
    let go = "(verify empty?) (verify (not suicide?)) (capture-groups) add";
    let tt = "(verify empty?) (capture-groups suicide) add";
    let step = "((n (verify empty?) (capture-groups suicide) add) \
                 (e (verify empty?) (verify (not suicide?)) (capture-groups) add))";
    let cases = [
        (
            "two, Go, simple ko",
            "Black White",
            go,
            "",
            "(forbid-repetition simple-ko)",
        ),
        (
            "two, suicide removes, positional",
            "Black White",
            tt,
            "",
            "(forbid-repetition positional-superko)",
        ),
        (
            "two, suicide removes, situational",
            "Black White",
            tt,
            "",
            "(forbid-repetition situational-superko)",
        ),
        (
            "two, stepping stones",
            "Black White",
            go,
            step,
            "(forbid-repetition simple-ko)",
        ),
        (
            "three, Go, positional",
            "Red Green Blue",
            go,
            "",
            "(forbid-repetition positional-superko)",
        ),
        (
            "three, suicide removes, no rule",
            "Red Green Blue",
            tt,
            step,
            "",
        ),
    ];
    for (name, players, drop, moves, rule) in cases {
        let moves = if moves.is_empty() {
            String::new()
        } else {
            format!("(moves {moves})")
        };
        let g = small(players, drop, &moves, rule);
        let (n, c) = same_games(name, &g, 40, 60);
        eprintln!("{name}: {n} positions, {c} captures");
        assert!(n > 1000 && c > 50, "{name}: {n} positions, {c} captures");
    }
}
