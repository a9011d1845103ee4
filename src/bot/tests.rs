//! Bots playing whole games of Breakthrough through the engine: reproducibility, tactics, strength.

use super::testgames::{breakthrough, load_file};
use super::{Bot, BotError, BotSpec};
use crate::compile::Game;
use crate::engine::playout::game_rng;
use crate::engine::{Engine, Piece};

/// How a test game went: the moves played (notation) and the results per player (`None`: ply cap).
struct Played {
    moves: Vec<String>,
    results: Option<Vec<i8>>,
}

/// Plays one game, `bots[p]` for player p, each with its own random stream derived from `seed`.
fn play(game: &Game, bots: &mut [Box<dyn Bot>], seed: u64, max_plies: u32) -> Played {
    let engine = Engine::new(game);
    let mut s = engine.initial();
    let mut history = vec![];
    let mut rngs: Vec<_> = (0..bots.len()).map(|p| game_rng(seed, p as u64)).collect();
    for b in bots.iter_mut() {
        b.reset();
    }
    let mut moves_played = vec![];
    loop {
        let moves = engine.legal_moves(&s).unwrap();
        if let Some(o) = engine.outcome(&s, &moves, &history).unwrap() {
            return Played {
                moves: moves_played,
                results: Some(o.results),
            };
        }
        if s.ply() >= max_plies {
            return Played {
                moves: moves_played,
                results: None,
            };
        }
        let p = engine.to_move(&s).idx();
        let i = bots[p]
            .choose(&engine, &s, &moves, &history, &mut rngs[p])
            .unwrap();
        moves_played.push(moves[i].notation(game));
        history.push(s.key());
        s = engine.apply(&s, &moves[i]);
    }
}

fn bot(spec: &str) -> Box<dyn Bot> {
    BotSpec::parse_inline(spec).unwrap().build().unwrap()
}

#[test]
fn the_games_file_breakthrough_loads_and_bots_play_it() {
    let game = load_file("games/breakthrough.zrf");
    let mut bots = [bot("alphabeta:depth=2"), bot("mcts:iterations=50")];
    let g = play(&game, &mut bots, 1, 300);
    assert!(
        g.results.is_some(),
        "a game of Breakthrough always ends: {:?}",
        g.moves
    );
}

#[test]
fn same_seed_same_game_for_every_kind() {
    let game = breakthrough(6);
    for spec in [
        "random",
        "alphabeta:depth=2",
        "mcts:iterations=100",
        "mcts:iterations=60,eval_at_cap=true,playout_plies=8",
        "mcts:iterations=60,rollout=nst,grave=10,progressive_history=3,reuse=true",
        "mcts:iterations=60,progressive_bias=2,playout_cutoff=6,threads=3,solver=true",
    ] {
        let run = |seed| {
            let mut bots = [bot(spec), bot(spec)];
            play(&game, &mut bots, seed, 24).moves
        };
        let a = run(7);
        assert_eq!(a, run(7), "{spec}: same seed, same game");
        assert_ne!(a, run(8), "{spec}: another seed, another game");
    }
}

/// Breakthrough 6x6 with only the pieces given (`(name, White?)`), White to move.
fn position(game: &Game, pieces: &[(&str, bool)]) -> crate::engine::State {
    let engine = Engine::new(game);
    let mut s = engine.initial();
    for i in 0..s.cells().len() {
        s.set(crate::compile::Pos(i as u16), None);
    }
    for &(at, white) in pieces {
        let pos = game.board.position(at).unwrap();
        let owner = crate::compile::Player(if white { 0 } else { 1 });
        s.set(
            pos,
            Some(Piece {
                kind: crate::compile::PieceType(0),
                owner,
                attrs: Default::default(),
                dead: false,
            }),
        );
    }
    s
}

fn choice(game: &Game, b: &mut Box<dyn Bot>, s: &crate::engine::State, seed: u64) -> String {
    let engine = Engine::new(game);
    let moves = engine.legal_moves(s).unwrap();
    let i = b
        .choose(&engine, s, &moves, &[], &mut game_rng(seed, 0))
        .unwrap();
    moves[i].notation(game)
}

#[test]
fn alphabeta_and_mcts_win_in_one_and_take_the_breaking_pawn() {
    let game = breakthrough(6);
    // White's pawn on d5 reaches the last row at once; nothing else wins.
    let win = position(
        &game,
        &[("d5", true), ("a1", true), ("f2", false), ("a6", false)],
    );
    // Black's pawn on b2 wins next move unless White's a1 pawn takes it; the c3 pawn cannot reach it.
    let take = position(
        &game,
        &[("a1", true), ("c3", true), ("b2", false), ("f6", false)],
    );
    for spec in [
        "alphabeta:depth=1",
        "alphabeta:depth=3",
        "mcts:iterations=300",
    ] {
        for seed in 0..4 {
            let mut b = bot(spec);
            let m = choice(&game, &mut b, &win, seed);
            assert!(m.starts_with("d5-"), "{spec} seed {seed}: {m}");
            if spec != "alphabeta:depth=1" {
                let m = choice(&game, &mut b, &take, seed);
                assert_eq!(m, "a1-b2", "{spec} seed {seed}");
            }
        }
    }
}

/// Plays `games` games of `a` against `b` on Breakthrough n×n, `a` taking White in even games; returns a's
/// points (a win 1, a draw ½) and the time taken.
fn match_score(n: usize, a: &str, b: &str, games: u64) -> f64 {
    let game = breakthrough(n);
    let mut points = 0.0;
    for g in 0..games {
        let mut bots = if g % 2 == 0 {
            [bot(a), bot(b)]
        } else {
            [bot(b), bot(a)]
        };
        let r = play(&game, &mut bots, 1000 + g, 200).results;
        let mine = r.map_or(0, |r| r[(g % 2) as usize]);
        points += (mine as f64 + 1.0) / 2.0;
    }
    points
}

#[test]
fn mcts_beats_random_at_breakthrough_5x5() {
    let t = std::time::Instant::now();
    let points = match_score(5, "mcts:iterations=300", "random", 20);
    eprintln!(
        "mcts:iterations=300 vs random, breakthrough 5x5: {points}/20 in {:?}",
        t.elapsed()
    );
    assert!(points >= 16.0, "{points}/20");
}

#[test]
fn alphabeta_beats_random_at_breakthrough_5x5() {
    let t = std::time::Instant::now();
    let points = match_score(5, "alphabeta:depth=3", "random", 20);
    eprintln!(
        "alphabeta:depth=3 vs random, breakthrough 5x5: {points}/20 in {:?}",
        t.elapsed()
    );
    assert!(points >= 16.0, "{points}/20");
}

#[test]
fn the_example_external_bot_plays_a_game_and_an_illegal_notation_is_caught() {
    let game = breakthrough(5);
    let mut bots = [
        bot("external:command=python3 bots/examples/random_bot.py"),
        bot("random"),
    ];
    let g = play(&game, &mut bots, 3, 20);
    assert!(!g.moves.is_empty());
    // A bot answering by notation: a legal one is taken, an illegal one is an error.
    let dir = crate::test_scratch::Scratch::new("bot-notation");
    let script = dir.join("bot.py");
    std::fs::write(
        &script,
        r#"import json, sys
for line in sys.stdin:
    req = json.loads(line)
    if req.get("type") == "move":
        print(json.dumps({"move": req["moves"][-1]["notation"] if req["state"]["ply"] == 0 else "a1-a5"}), flush=True)
"#,
    )
    .unwrap();
    let mut b = bot(&format!("external:command=python3 {}", script.display()));
    let engine = Engine::new(&game);
    let s = engine.initial();
    let moves = engine.legal_moves(&s).unwrap();
    let i = b
        .choose(&engine, &s, &moves, &[], &mut game_rng(1, 0))
        .unwrap();
    assert_eq!(i, moves.len() - 1);
    let s2 = engine.apply(&s, &moves[i]);
    let moves2 = engine.legal_moves(&s2).unwrap();
    let e = b
        .choose(&engine, &s2, &moves2, &[], &mut game_rng(1, 0))
        .unwrap_err();
    assert!(
        matches!(&e, BotError::Illegal(m) if m.contains("`a1-a5` is not a legal move")),
        "{e}"
    );
    drop(dir);
}

/// Speed and value figures for the report: `cargo test --release --lib bot::tests::figures -- --ignored --nocapture`.
#[test]
#[ignore]
fn figures() {
    // More files (`:`-separated) to estimate piece values for.
    let extra: Vec<String> = std::env::var("DAGAZ_FIGURES")
        .map(|v| v.split(':').map(String::from).collect())
        .unwrap_or_default();
    let mut files = vec![
        ("games/breakthrough.zrf", false),
        ("games/chess.zrf", false),
        ("games/chess.zrf", true),
    ];
    files.extend(extra.iter().map(|p| (p.as_str(), false)));
    for (path, strip) in files {
        let mut game = load_file(path);
        if strip {
            for p in &mut game.pieces {
                p.value = None;
            }
        }
        let engine = Engine::new(&game);
        let t = std::time::Instant::now();
        let values = super::eval::piece_values(&engine);
        let names: Vec<String> = game
            .pieces
            .iter()
            .zip(&values)
            .map(|(p, v)| format!("{}={v:.2}", p.name))
            .collect();
        eprintln!(
            "{path} (declared values ignored: {strip}): {} in {:?}",
            names.join(" "),
            t.elapsed()
        );
    }
    for (path, spec, plies) in [
        ("games/breakthrough.zrf", "alphabeta:depth=3", 10),
        ("games/breakthrough.zrf", "alphabeta:depth=4", 10),
        ("games/breakthrough.zrf", "alphabeta:depth=5", 10),
        ("games/breakthrough.zrf", "mcts:iterations=1000", 10),
        ("games/chess.zrf", "alphabeta:depth=3", 10),
        ("games/chess.zrf", "mcts:iterations=1000", 4),
    ] {
        let game = load_file(path);
        let t = std::time::Instant::now();
        let mut bots = [bot(spec), bot(spec)];
        play(&game, &mut bots, 1, plies);
        eprintln!("{path}: {spec}: {:?} per move", t.elapsed() / plies);
    }
}

/// A chess position from `(square, piece, White?)`, White to move.
fn chess_position(game: &Game, pieces: &[(&str, &str, bool)]) -> crate::engine::State {
    let engine = Engine::new(game);
    let mut s = engine.initial();
    for i in 0..s.cells().len() {
        s.set(crate::compile::Pos(i as u16), None);
    }
    for &(at, name, white) in pieces {
        let kind = game.piece_type(name).unwrap();
        s.set(
            game.board.position(at).unwrap(),
            Some(Piece {
                kind,
                owner: crate::compile::Player(if white { 0 } else { 1 }),
                attrs: crate::engine::state::initial_attrs(game, kind),
                dead: false,
            }),
        );
    }
    s
}

#[test]
fn chess_mate_in_one_and_a_hanging_queen() {
    let game = load_file("games/chess.zrf");
    let back_rank = chess_position(
        &game,
        &[
            ("g1", "King", true),
            ("a1", "Rook", true),
            ("g8", "King", false),
            ("f7", "Pawn", false),
            ("g7", "Pawn", false),
            ("h7", "Pawn", false),
        ],
    );
    let queen = chess_position(
        &game,
        &[
            ("g1", "King", true),
            ("d1", "Rook", true),
            ("g8", "King", false),
            ("d5", "Queen", false),
            ("f7", "Pawn", false),
            ("g7", "Pawn", false),
            ("h7", "Pawn", false),
        ],
    );
    for spec in [
        "alphabeta:depth=2",
        "mcts:iterations=200,playout_plies=4,eval_at_cap=true",
    ] {
        let mut b = bot(spec);
        assert_eq!(choice(&game, &mut b, &back_rank, 1), "a1-a8", "{spec}");
        assert_eq!(choice(&game, &mut b, &queen, 1), "d1-d5", "{spec}");
    }
}

#[test]
fn time_budgets_stop_the_search() {
    let game = load_file("games/breakthrough.zrf");
    let engine = Engine::new(&game);
    let s = engine.initial();
    for spec in [
        "alphabeta:depth=30,time_ms=100",
        "mcts:iterations=100000000,time_ms=100",
    ] {
        let t = std::time::Instant::now();
        let i = choice(&game, &mut bot(spec), &s, 1);
        assert!(
            t.elapsed() < std::time::Duration::from_secs(2),
            "{spec}: {:?}",
            t.elapsed()
        );
        assert!(engine
            .legal_moves(&s)
            .unwrap()
            .iter()
            .any(|m| m.notation(&game) == i));
    }
}

/// Strength figures for the report: `cargo test --release --lib bot::tests::strength -- --ignored --nocapture`.
#[test]
#[ignore]
fn strength() {
    for (n, a, b, games) in [
        (6, "alphabeta:depth=3", "alphabeta:depth=3,quiescence=0", 20),
        (8, "alphabeta:depth=3", "alphabeta:depth=3,quiescence=0", 20),
        (8, "mcts:iterations=1000", "random", 10),
        (8, "alphabeta:depth=3", "random", 10),
        (6, "alphabeta:depth=3", "mcts:iterations=1000", 20),
        (6, "alphabeta:depth=4", "alphabeta:depth=2", 20),
        (6, "mcts:iterations=2000", "mcts:iterations=200", 20),
        (
            6,
            "mcts:iterations=1000,eval_at_cap=true,playout_plies=10",
            "mcts:iterations=1000",
            20,
        ),
    ] {
        let t = std::time::Instant::now();
        let p = match_score(n, a, b, games);
        eprintln!(
            "breakthrough {n}x{n}: {a} vs {b}: {p}/{games} in {:?}",
            t.elapsed()
        );
    }
}

#[test]
fn bots_play_with_a_random_player_in_the_turn_order() {
    // After each move a die player (`?WindW`, `?WindB`) makes a random extra move for the side that just moved.
    // Luck weighs much here (alpha-beta to depths 1 to 6 scored 62% to 80% over 40 games, measured when one
    // `?Wind` served both sides and its `enemy?` meant every piece), so the bar is lower.
    // Each side has its own wind, so that the wind moves a side's pieces the way that side moves them (its
    // symmetry) and, as for the side, `enemy?` means the other side's pieces.
    let text = super::testgames::breakthrough_zrf(5)
        .replace(
            "(players White Black)",
            "(players White Black ?WindW ?WindB)",
        )
        .replace(
            "(turn-order White Black)",
            "(turn-order White (?WindW White) Black (?WindB Black))",
        )
        .replace(
            "(symmetry Black (n s) (ne se) (nw sw) (s n) (se ne) (sw nw))",
            "(symmetry Black (n s) (ne se) (nw sw) (s n) (se ne) (sw nw)) \
             (symmetry ?WindB (n s) (ne se) (nw sw) (s n) (se ne) (sw nw))",
        );
    let game = super::testgames::load_zrf("windy", &text);
    let engine = Engine::new(&game);
    assert!(engine.is_chance(&engine.apply(
        &engine.initial(),
        &engine.legal_moves(&engine.initial()).unwrap()[0]
    )));
    for (spec, games, want) in [
        ("mcts:iterations=500", 20u64, 14.0),
        ("alphabeta:depth=3", 20, 14.0),
    ] {
        let mut points = 0.0;
        let mut first = None;
        for g in 0..games {
            let mine = (g % 2) as usize;
            let mut bots = if mine == 0 {
                [bot(spec), bot("random"), bot("random"), bot("random")]
            } else {
                [bot("random"), bot(spec), bot("random"), bot("random")]
            };
            let r = play(&game, &mut bots, 500 + g, 300);
            if g == 0 {
                first = Some(r.moves.clone());
            }
            points += r.results.map_or(0.5, |r| (r[mine] as f64 + 1.0) / 2.0);
        }
        eprintln!("windy breakthrough 5x5: {spec} vs random: {points}/{games}");
        assert!(points >= want, "{spec}: {points}/{games}");
        let mut bots = [bot(spec), bot("random"), bot("random"), bot("random")];
        assert_eq!(
            Some(play(&game, &mut bots, 500, 300).moves),
            first,
            "{spec}: reproducible"
        );
    }
}

#[test]
fn quiescence_sees_the_recapture() {
    let game = load_file("games/chess.zrf");
    // The d5 pawn is defended by e6: at depth 1 without quiescence the queen takes it and is lost.
    let s = chess_position(
        &game,
        &[
            ("g1", "King", true),
            ("d1", "Queen", true),
            ("g8", "King", false),
            ("d5", "Pawn", false),
            ("e6", "Pawn", false),
        ],
    );
    assert_eq!(
        choice(&game, &mut bot("alphabeta:depth=1,quiescence=0"), &s, 1),
        "d1-d5"
    );
    assert_ne!(choice(&game, &mut bot("alphabeta:depth=1"), &s, 1), "d1-d5");
}

/// Every loadable corpus game, a few plies of each searching bot: no panic, no error but the engine's, and the
/// time it takes (time budgets keep the games whose move generation is slow from taking minutes). `cargo test --release --lib bot::tests::corpus_smoke -- --ignored --nocapture`
#[test]
#[ignore]
fn corpus_smoke() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/zrf");
    let mut files = vec![];
    let mut dirs = vec![root];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x.eq_ignore_ascii_case("zrf")) {
                files.push(p);
            }
        }
    }
    files.sort();
    let (mut played, mut engine_errors, mut slow) = (0, 0, vec![]);
    for f in &files {
        let Ok(game) = crate::load::load_game(f, &crate::load::VariantSel::First) else {
            continue;
        };
        let t = std::time::Instant::now();
        let engine = Engine::new(&game);
        let mut bots = [
            bot("alphabeta:depth=2,quiescence=2,nodes=5000,time_ms=300"),
            bot("mcts:iterations=30,playout_plies=30,eval_at_cap=true,time_ms=300"),
            bot("random"),
        ];
        let mut s = engine.initial();
        let mut history = vec![];
        let mut rng = game_rng(1, 0);
        let mut err = None;
        'game: for ply in 0..6 {
            let moves = match engine.legal_moves(&s) {
                Ok(m) => m,
                Err(e) => {
                    err = Some(e.to_string());
                    break;
                }
            };
            if moves.is_empty()
                || matches!(engine.outcome(&s, &moves, &history), Ok(Some(_)) | Err(_))
            {
                break;
            }
            let b = if engine.is_chance(&s) { 2 } else { ply % 2 };
            match bots[b].choose(&engine, &s, &moves, &history, &mut rng) {
                Ok(i) => {
                    assert!(i < moves.len());
                    history.push(s.key());
                    s = engine.apply(&s, &moves[i]);
                }
                Err(BotError::Engine(e)) => {
                    err = Some(e.to_string());
                    break 'game;
                }
                Err(e) => panic!("{}: {e}", f.display()),
            }
        }
        played += 1;
        if err.is_some() {
            engine_errors += 1;
        }
        eprintln!(
            "{} {:?} {}",
            f.display(),
            t.elapsed(),
            err.unwrap_or_default()
        );
        if t.elapsed() > std::time::Duration::from_secs(2) {
            slow.push(format!("{} {:?}", f.display(), t.elapsed()));
        }
    }
    eprintln!("{played} games played, {engine_errors} stopped by an engine error; slow (> 2 s): {slow:#?}");
}

#[test]
fn every_bot_plays_every_game_of_the_games_folder() {
    let mut paths: Vec<_> = std::fs::read_dir("games")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "zrf"))
        .collect();
    paths.sort();
    assert!(paths.len() >= 2);
    for path in paths {
        let game = load_file(path.to_str().unwrap());
        let t = std::time::Instant::now();
        let mut bots = [
            // Small budgets: amazons has 2176 moves at the start, a generation takes milliseconds.
            bot("alphabeta:depth=2,quiescence=2,nodes=500"),
            bot("mcts:iterations=20,playout_plies=10,eval_at_cap=true"),
            bot("random"),
        ];
        let engine = Engine::new(&game);
        let mut s = engine.initial();
        let mut history = vec![];
        let mut rng = game_rng(1, 0);
        for ply in 0..6 {
            let moves = engine.legal_moves(&s).unwrap();
            if engine.outcome(&s, &moves, &history).unwrap().is_some() {
                break;
            }
            let b = if engine.is_chance(&s) { 2 } else { ply % 2 };
            let i = bots[b]
                .choose(&engine, &s, &moves, &history, &mut rng)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            history.push(s.key());
            s = engine.apply(&s, &moves[i]);
        }
        eprintln!("{}: 6 plies in {:?}", path.display(), t.elapsed());
    }
}
