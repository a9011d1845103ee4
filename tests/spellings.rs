//! Issue 26's other spellings: Othello written in other styles (`tests/data/spellings/othello-*.zrf`), which
//! `tests/bench/bench.py --spellings` times against `games/othello.zrf`. Each must be the same game, so that the
//! timing compares like with like:
//! * perft from the start equals the published counts (`../shared/reference/perft.json`, Aart Bik's "Perft for
//!   Reversi") to depth 6, on the default engine and on the general path;
//! * over seeded random games, at every position the spelling and `games/othello.zrf` reach the same set of
//!   positions (stones by square name and colour, the player to move), and end alike (the result per player).
//!
//! Every `othello-*.zrf` in the folder is checked, so a spelling added there is checked without a change here.

use dagaz::engine::playout::{below, game_rng};
use dagaz::engine::{Engine, EngineOptions, State};
use dagaz::load::{load_game, VariantSel};
use dagaz::Game;
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn load(path: &Path) -> Game {
    load_game(path, &VariantSel::First).unwrap_or_else(|e| panic!("{}: {e:?}", path.display()))
}

/// The Othello spellings of the test data, sorted.
fn spellings() -> Vec<PathBuf> {
    let dir = root().join("tests/data/spellings");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            name.starts_with("othello-") && name.ends_with(".zrf")
        })
        .collect();
    v.sort();
    assert!(v.len() >= 2, "at least two spellings in {}", dir.display());
    v
}

/// The published perft counts of Othello's start position, by depth.
fn published() -> Vec<(u32, u64)> {
    let p = root().join("../shared/reference/perft.json");
    let v: Value = serde_json::from_str(&std::fs::read_to_string(p).expect("perft.json")).unwrap();
    let entry = v["entries"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["game"] == "othello" && e["position"] == "start" && e["depths"].is_object())
        .expect("Othello's start in perft.json");
    let mut d: Vec<(u32, u64)> = entry["depths"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(d, n)| (d.parse().unwrap(), n.as_u64().unwrap()))
        .collect();
    d.sort();
    d
}

#[test]
fn each_spelling_has_the_published_perft() {
    let counts: Vec<(u32, u64)> = published().into_iter().filter(|&(d, _)| d <= 6).collect();
    assert_eq!(counts.len(), 6, "depths 1 to 6 are published");
    for path in spellings() {
        let game = load(&path);
        assert!(
            game.missing_rules.is_empty(),
            "{}: missing rules",
            path.display()
        );
        for options in [EngineOptions::default(), EngineOptions::general()] {
            let engine = Engine::with_options(&game, options);
            let start = engine.initial();
            for &(d, n) in &counts {
                assert_eq!(
                    engine.perft(&start, d).unwrap(),
                    n,
                    "{} perft({d}), general path {}",
                    path.display(),
                    options.general_path
                );
            }
        }
    }
}

/// A position in words both files share: the player to move and each stone's square and colour.
fn words(game: &Game, engine: &Engine, s: &State) -> String {
    let mut stones: Vec<String> = s
        .cells()
        .iter()
        .enumerate()
        .filter_map(|(i, c)| {
            c.map(|p| {
                format!(
                    "{}:{}",
                    game.board.positions[i].name,
                    game.players[p.owner.idx()].name
                )
            })
        })
        .collect();
    stones.sort();
    format!(
        "{} to move; {}",
        game.players[engine.to_move(s).idx()].name,
        stones.join(" ")
    )
}

/// The positions the legal moves of `s` reach, in words.
fn successors(game: &Game, engine: &Engine, s: &State) -> (BTreeSet<String>, Vec<(String, State)>) {
    let moves = engine.legal_moves(s).unwrap();
    let mut set = BTreeSet::new();
    let mut after = vec![];
    for m in &moves {
        let mut t = s.clone();
        engine.play(&mut t, m);
        let w = words(game, engine, &t);
        assert!(set.insert(w.clone()), "two moves reach {w}");
        after.push((w, t));
    }
    (set, after)
}

/// Random games on `games/othello.zrf`, followed position by position on the spelling.
fn same_game(reference: &Game, path: &Path, options: EngineOptions, games: u64) -> usize {
    let spelled = load(path);
    let a = Engine::with_options(reference, options);
    let b = Engine::with_options(&spelled, options);
    let mut positions = 0;
    for g in 0..games {
        let mut rng = game_rng(26, g);
        let (mut s, mut t) = (a.initial(), b.initial());
        let (mut hs, mut ht) = (vec![], vec![]);
        loop {
            let what = format!("{} game {g} ply {}", path.display(), s.ply());
            assert_eq!(words(reference, &a, &s), words(&spelled, &b, &t), "{what}");
            positions += 1;
            let (xs, xa) = successors(reference, &a, &s);
            let (ys, ya) = successors(&spelled, &b, &t);
            assert_eq!(xs, ys, "{what}: the positions the moves reach");
            let xm = a.legal_moves(&s).unwrap();
            let ym = b.legal_moves(&t).unwrap();
            let xo = a.outcome(&s, &xm, &hs).unwrap().map(|o| o.results);
            let yo = b.outcome(&t, &ym, &ht).unwrap().map(|o| o.results);
            assert_eq!(xo, yo, "{what}: the end");
            if xo.is_some() || xa.is_empty() {
                assert!(
                    s.ply() >= 9,
                    "{what}: a game of Othello lasts at least 9 plies"
                );
                break;
            }
            hs.push(s.key());
            ht.push(t.key());
            let (w, next) = &xa[below(&mut rng, xa.len())];
            s = next.clone();
            t = ya.iter().find(|(v, _)| v == w).unwrap().1.clone();
        }
    }
    positions
}

#[test]
fn each_spelling_plays_the_same_game_as_games_othello() {
    let reference = load(&root().join("games/othello.zrf"));
    for path in spellings() {
        for options in [EngineOptions::default(), EngineOptions::general()] {
            let n = same_game(&reference, &path, options, 60);
            eprintln!("{}: {n} positions", path.display());
            assert!(n > 3000, "{}: {n} positions compared", path.display());
        }
    }
}
