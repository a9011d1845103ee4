//! The sowing kernel (`engine/sow_kernel.rs`): random playouts of sowing games on an array of seed counts. On
//! every variant of `games/` and of the corpus that it takes, and on small games written here for every `sow`
//! option, a random game played by the kernel is the game the general path plays from the same random stream
//! (`EngineOptions::general`, which has no kernel): the same number of plies, the same outcome, the same count
//! of moves seen and the same state at the end (board, hash, turn, ply, last move), from the start and from
//! positions part-way through a game with their history.

mod common;

use dagaz::engine::playout::{game_rng, random_game_from};
use dagaz::engine::{sow_kernel, Engine, EngineOptions, State};
use dagaz::Game;
use std::path::PathBuf;

/// Plays `games` random games both ways from `start` (after `history`) and compares them; returns the plies
/// played by the kernel.
#[allow(clippy::too_many_arguments)]
fn compare_from(
    name: &str,
    fast: &Engine,
    general: &Engine,
    start: &State,
    history: &[u64],
    seed: u64,
    games: u64,
    max_plies: u32,
) -> u64 {
    let mut plies = 0;
    for g in 0..games {
        let (mut a, mut b) = (start.clone(), start.clone());
        // The kernel itself (not a fallback to the listed loop), then as the playouts reach it.
        let plan = fast.sow_plan().expect("a kernel");
        let mut k = start.clone();
        let rk = plan
            .random_game(fast, &mut k, history, &mut game_rng(seed, g), max_plies)
            .unwrap()
            .expect("the kernel plays this position");
        let ra =
            random_game_from(fast, &mut a, history, &mut game_rng(seed, g), max_plies).unwrap();
        assert_eq!(
            k, a,
            "{name} seed {seed} game {g}: the kernel is what random_game_from plays"
        );
        assert_eq!(rk.plies, ra.plies);
        let rb =
            random_game_from(general, &mut b, history, &mut game_rng(seed, g), max_plies).unwrap();
        let what = format!("{name} seed {seed} game {g}");
        assert_eq!(ra.plies, rb.plies, "{what}: plies");
        assert_eq!(ra.outcome, rb.outcome, "{what}: outcome");
        assert_eq!(ra.moves_seen, rb.moves_seen, "{what}: moves seen");
        assert_eq!(a, b, "{what}: the state at the end");
        assert_eq!(a.key(), b.key(), "{what}: key");
        plies += (ra.plies - start.ply()) as u64;
    }
    plies
}

/// [`compare_from`] from the start, then from positions part-way through general-path games (each with the
/// history of keys that led to it, as MCTS rollouts start), then with a ply cap reached mid-game.
fn same_games(name: &str, game: &Game, games: u64) -> u64 {
    let fast = Engine::new(game);
    let general = Engine::with_options(game, EngineOptions::general());
    assert!(fast.sow_plan().is_some(), "{name}: the kernel takes it");
    assert!(
        general.sow_plan().is_none(),
        "{name}: not on the general path"
    );
    let start = fast.initial();
    let mut plies = compare_from(name, &fast, &general, &start, &[], 7, games, 1000);
    // Part-way: the general path plays k random plies, keeping the keys, and both go on from there.
    for k in [1u32, 5, 20, 60] {
        for g in 0..games.div_ceil(10) {
            let mut s = general.initial();
            let mut history = vec![];
            let mut rng = game_rng(11, g);
            let mut moves = dagaz::engine::MoveList::new();
            let mut ended = false;
            for _ in 0..k {
                general.legal_into(&s, &mut moves).unwrap();
                if moves.is_empty()
                    || general
                        .outcome_of_list(&s, &moves, &history)
                        .unwrap()
                        .is_some()
                {
                    ended = true;
                    break;
                }
                history.push(s.key());
                let i = dagaz::engine::playout::below(&mut rng, moves.len());
                let i = general.resolve(&s, &mut moves, i).unwrap();
                general.play_listed(&mut s, &moves, i).unwrap();
            }
            if !ended {
                plies += compare_from(
                    &format!("{name} after {k} plies ({g})"),
                    &fast,
                    &general,
                    &s,
                    &history,
                    13 + g,
                    3,
                    1000,
                );
            }
        }
    }
    // A ply cap reached before the end.
    plies += compare_from(
        &format!("{name} capped"),
        &fast,
        &general,
        &start,
        &[],
        17,
        games.div_ceil(4),
        9,
    );
    plies
}

fn accepted(files: &[PathBuf]) -> Vec<(String, Game)> {
    common::variants_where(files, |g| Engine::new(g).sow_plan().is_some())
}

#[test]
fn the_kernel_plays_the_general_paths_games_in_games() {
    for f in ["kalah.zrf", "oware.zrf"] {
        let path = common::games_dir()
            .into_iter()
            .find(|p| p.ends_with(f))
            .unwrap();
        let found = common::variants_where(&[path], |_| true);
        let r = sow_kernel::plan(&found[0].1);
        assert!(r.is_ok(), "{f}: {:?}", r.err());
    }
    let found = accepted(&common::games_dir());
    let names: Vec<&str> = found.iter().map(|(n, _)| n.as_str()).collect();
    eprintln!("games/ variants the kernel takes: {names:#?}");
    assert!(names.len() >= 2, "{names:?}");
    for (name, game) in &found {
        let plies = same_games(name, game, 300);
        eprintln!("{name}: {plies} plies compared");
        assert!(plies > 5000, "{name}: {plies} plies");
    }
}

/// The corpus's mancala files sow through the `mancala` extension module, which the kernel does not take: a
/// variant written with `sow` that it takes (none today) is compared the same way.
#[test]
fn the_kernel_plays_the_general_paths_games_in_the_corpus() {
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
    eprintln!("corpus variants the kernel takes ({}):", found.len());
    for (name, game) in &found {
        let plies = same_games(name, game, 20);
        eprintln!("  {name}: {plies} plies");
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

/// A two-row mancala whose `sow` is `SOW`, with `SEEDS` seeds a pit and the end conditions `ENDS`: South a1-f1
/// and store ss, North a2-f2 and store ns, a track through both stores; zones `home`, `store`,
/// `their-store` per player.
fn mancala(sow: &str, seeds: u32, ends: &str) -> Game {
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
           {ends})"
    ))
}

const ROW_EMPTY: &str =
    "(win-condition (South North) (and (ended) (> (sum seeds) (sum seeds opponent))))
    (loss-condition (South North) (and (ended) (< (sum seeds) (sum seeds opponent))))
    (draw-condition (South North) (and (ended) (= (sum seeds) (sum seeds opponent))))";

/// Every `sow` option, and end conditions of every form the kernel reads (arithmetic, `not`, `stalemated`,
/// `repetition`, sums over zones and over a player's piles), against the general path.
#[test]
fn the_kernel_follows_every_sow_option() {
    let sows = [
        "(sow seeds ccw (skip (in-zone? their-store)) (store store) \
         (capture-opposite (in-zone? home) across) (again (in-zone? store)))",
        "(sow seeds ccw skip-origin (skip (or (in-zone? store) (in-zone? their-store))) (store store) \
         (capture (not (in-zone? home)) (counts 2 3) chain) (feed (and (not (in-zone? home)) \
         (not (in-zone? store)) (not (in-zone? their-store)))))",
        "(sow seeds ccw (skip (position? ss)) (store store) (capture (on-board? across) (counts 1 4)) \
         (grand-slam illegal) (again (position? ns)))",
        "(sow seeds ccw (skip (in-zone? their-store)) (store store) \
         (capture (not (in-zone? home)) (counts 2 3) chain) (grand-slam allowed) (again (in-zone? store)))",
        // Sowing without a skip: seeds go round every pit and store, the mover's own row captures, and a
        // last seed in either store sows again.
        "(sow seeds ccw (store store) (capture (in-zone? home) (counts 1 2) chain) (again (or (in-zone? store) \
         (in-zone? their-store))))",
    ];
    let ends = [
        ROW_EMPTY.to_string(),
        "(win-condition (South North) (> (+ (sum seeds (zone store)) (* 2 0)) 20))
         (draw-condition (South North) (or stalemated repetition))
         (loss-condition (South North) (not (< (sum seeds (zone store) opponent) 21)))"
            .to_string(),
    ];
    let mut total = 0;
    for (k, sow) in sows.iter().enumerate() {
        for (e, end) in ends.iter().enumerate() {
            for seeds in [2, 3, 4] {
                let g = mancala(sow, seeds, end);
                let r = sow_kernel::plan(&g);
                assert!(r.is_ok(), "sow {k} ends {e}: {:?}", r.err());
                let n = same_games(&format!("sow {k}, ends {e}, {seeds} seeds"), &g, 60);
                assert!(n > 500, "sow {k} ends {e} seeds {seeds}: {n} plies");
                total += n;
            }
        }
    }
    eprintln!("{total} plies compared");
}

/// What the kernel does not take is played by the general path: a condition that reads pieces, an end
/// condition it does not read. And near the most seeds a pile holds (120 of 127), the same games.
#[test]
fn the_kernel_leaves_what_it_does_not_read_to_the_general_path() {
    let plain =
        "(sow seeds ccw (skip (in-zone? their-store)) (store store) (again (in-zone? store)))";
    let g = mancala(
        "(sow seeds ccw (skip (empty?)) (store store) (again (in-zone? store)))",
        4,
        ROW_EMPTY,
    );
    assert!(sow_kernel::plan(&g).is_err());
    let g = mancala(
        plain,
        4,
        "(win-condition (South North) (pieces-remaining 3)) (draw-condition (South North) stalemated)",
    );
    assert!(sow_kernel::plan(&g).is_err());
    // 12 pits of 10 seeds: 120 seeds.
    let g = mancala(plain, 10, ROW_EMPTY);
    let fast = Engine::new(&g);
    let general = Engine::with_options(&g, EngineOptions::general());
    assert!(fast.sow_plan().is_some());
    let start = fast.initial();
    compare_from("120 seeds", &fast, &general, &start, &[], 3, 50, 1000);
}

/// Kalah's moves listed as the playouts list them (composite moves as handles, `MoveList::lazy`): asking for
/// them owned is an error that says how to build them (it panicked before), and each handle resolved by the
/// engine is the move the general path lists.
#[test]
fn a_list_of_handles_is_an_error_when_asked_for_owned_moves_and_resolves_to_the_moves() {
    let path = common::games_dir()
        .into_iter()
        .find(|p| p.ends_with("kalah.zrf"))
        .unwrap();
    let game = common::variants_where(&[path], |_| true).remove(0).1;
    let engine = Engine::new(&game);
    let s = engine.initial();
    let mut list = dagaz::engine::MoveList::new();
    list.lazy = true;
    engine.legal_into(&s, &mut list).unwrap();
    // From the start, c1 sows into the store and earns another sowing: Kalah's d1 is 10 (perft-families.md).
    assert_eq!(list.len(), 10);
    let err = list.to_moves().unwrap_err().to_string();
    assert!(
        err.contains("handle") && err.contains("Engine::resolve"),
        "{err}"
    );
    let moves = engine.legal_moves(&s).unwrap();
    for (i, m) in moves.iter().enumerate() {
        let j = engine.resolve(&s, &mut list, i).unwrap();
        assert_eq!(&list.to_move(j).unwrap(), m, "move {i}");
    }
}

/// A two-row mancala of `pits` pits a side and a store each (Kalah's rules, `seeds` a pit), its positions
/// named by row and column: the kernel's boards are 16, 32 or 64 bytes by the number of positions, each
/// width compared with the general path.
fn long_mancala(pits: usize, seeds: u32) -> Game {
    let south: Vec<String> = (0..pits).map(|i| format!("s{i}")).collect();
    let north: Vec<String> = (0..pits).map(|i| format!("n{i}")).collect();
    // Counter-clockwise: South's row left to right, its store, North's row right to left, North's store.
    let mut track: Vec<String> = south.clone();
    track.push("ss".into());
    track.extend(north.iter().rev().cloned());
    track.push("ns".into());
    let ccw: Vec<String> = (0..track.len())
        .map(|i| format!("({} {})", track[i], track[(i + 1) % track.len()]))
        .collect();
    let across: Vec<String> = (0..pits)
        .flat_map(|i| {
            [
                format!("({} {})", south[i], north[i]),
                format!("({} {})", north[i], south[i]),
            ]
        })
        .collect();
    compile_src(&format!(
        "(define ended (or (= (sum seeds (zone home)) 0) (= (sum seeds (zone home) opponent) 0)))
         (game (title \"t\") (players South North) (turn-order South North)
           (board
             (positions {south} ss {north} ns)
             (links ccw {ccw})
             (links across {across})
             (zone (name home) (players South) (positions {south}))
             (zone (name home) (players North) (positions {north}))
             (zone (name store) (players South) (positions ss))
             (zone (name store) (players North) (positions ns))
             (zone (name their-store) (players South) (positions ns))
             (zone (name their-store) (players North) (positions ss)))
           (piece (name Pit) (attribute seeds {seeds}) (moves ((sow seeds ccw (skip (in-zone? their-store))
             (store store) (capture-opposite (in-zone? home) across) (again (in-zone? store))) add)))
           (piece (name Store) (attribute seeds 0))
           (board-setup
             (South (Pit {south}) (Store ss))
             (North (Pit {north}) (Store ns)))
           {ROW_EMPTY})",
        south = south.join(" "),
        north = north.join(" "),
        ccw = ccw.join(" "),
        across = across.join(" "),
    ))
}

#[test]
fn the_kernel_plays_boards_of_every_width_as_the_general_path() {
    // 14, 18, 26 and 34 positions: boards of 16, 32, 32 and 64 bytes; 48 to 96 seeds.
    for (pits, seeds) in [(6, 4), (8, 4), (12, 3), (16, 3)] {
        let g = long_mancala(pits, seeds);
        let r = sow_kernel::plan(&g);
        assert!(r.is_ok(), "{pits} pits: {:?}", r.err());
        let n = same_games(&format!("{pits} pits of {seeds}"), &g, 40);
        assert!(n > 500, "{pits} pits: {n} plies");
    }
}
