//! Random playouts test only the drawn move's legality (`engine::playout::draw_legal`). These tests hold it to
//! the full list: the candidates the move-by-move tests accept are the legal moves, in order, on positions of
//! seeded random games of the games with `checkmated` or invariants; the draw is uniform over the legal moves
//! where some candidates are illegal; and a position with no legal move is found so by the draw.

#[path = "common/scratch.rs"]
mod scratch_dir;
use dagaz::compile::Game;
use dagaz::engine::playout::{
    below, draw_legal, game_rng, random_game, random_game_counting, random_game_drawn,
    random_game_listing,
};
use dagaz::engine::{position, Engine, Move, State};
use dagaz::load::{load_game, VariantSel};
use rand_core::RngCore;
use scratch_dir::Scratch;
use std::path::Path;

fn load(file: &str) -> Game {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    load_game(&p, &VariantSel::First).unwrap()
}

/// The legal moves as the lazy path sees them: the accepted candidates, or the fallback when none is.
fn accepted(engine: &Engine, s: &State) -> Vec<Move> {
    let (player, cands) = engine.candidates(s).unwrap();
    let mut v: Vec<Move> = cands
        .into_iter()
        .filter(|m| engine.candidate_legal(s, player, m).unwrap())
        .collect();
    if v.is_empty() {
        v = engine.no_candidate(s);
    }
    v
}

#[test]
fn accepted_candidates_are_the_legal_moves() {
    for (file, games, plies) in [
        ("games/chess.zrf", 8, 300),
        ("games/shogi.zrf", 3, 200),
        ("games/xiangqi.zrf", 4, 200),
        ("games/partnership-chess.zrf", 3, 200),
        ("games/breakthrough.zrf", 3, 100),
        ("games/othello.zrf", 3, 100),
    ] {
        let game = load(file);
        let engine = Engine::new(&game);
        assert!(engine.lazy_legality(), "{file}");
        let mut positions = 0;
        for g in 0..games {
            let mut rng = game_rng(5, g);
            let mut s = engine.initial();
            while s.ply() < plies {
                let legal = engine.legal_moves(&s).unwrap();
                assert_eq!(
                    accepted(&engine, &s),
                    legal,
                    "{file} game {g} ply {}:\n{}",
                    s.ply(),
                    position::format(&game, &s)
                );
                positions += 1;
                if legal.is_empty() || engine.outcome(&s, &legal, &[]).unwrap().is_some() {
                    break;
                }
                s = engine.apply(&s, &legal[below(&mut rng, legal.len())]);
            }
        }
        assert!(positions > 100, "{file}: {positions} positions");
    }
}

/// A position where most candidates are illegal (the king in check): every legal move is drawn about as often.
#[test]
fn the_draw_is_uniform_over_the_legal_moves() {
    let game = load("games/chess.zrf");
    let engine = Engine::new(&game);
    // White in check from the rook on e8: king steps and two blocks among about 30 candidates.
    let s = position::parse(
        &game,
        "turn White\npiece White King e1\npiece White Rook a2\npiece White Pawn h2\npiece White Pawn g2\n\
         piece White Knight d4\npiece Black Rook e8\npiece Black King a8\n",
    )
    .unwrap();
    let legal = engine.legal_moves(&s).unwrap();
    let (_, cands) = engine.candidates(&s).unwrap();
    assert!(
        legal.len() >= 3 && cands.len() > 2 * legal.len(),
        "{} legal of {} candidates",
        legal.len(),
        cands.len()
    );
    let mut counts = vec![0u32; legal.len()];
    let mut rng = game_rng(9, 0);
    let draws = 3000 * legal.len() as u32;
    for _ in 0..draws {
        let (m, _, _) = draw_legal(&engine, &s, &mut rng).unwrap();
        let m = m.expect("a legal move");
        counts[legal
            .iter()
            .position(|x| *x == m)
            .expect("drawn move is legal")] += 1;
    }
    // Binomial(3000 * k, 1 / k) per move: 5 standard deviations are under 300.
    for (m, c) in legal.iter().zip(&counts) {
        assert!(
            (2700..=3300).contains(c),
            "{m:?}: {c} of {draws}: {counts:?}"
        );
    }
}

/// Mate and stalemate are found by the draw: every candidate rejected.
#[test]
fn no_legal_move_is_found_when_every_candidate_is_rejected() {
    let game = load("games/chess.zrf");
    let engine = Engine::new(&game);
    for text in [
        // Fool's mate: White is checkmated.
        "turn White\npiece White King e1\npiece White Queen d1\npiece White Bishop f1\n\
         piece White Pawn d2\npiece White Pawn e2\npiece White Pawn f3\npiece White Pawn g4\n\
         piece Black Queen h4\npiece Black King e8\n",
        // Stalemate: the White king on a1 has no square the queen on b3 does not watch.
        "turn White\npiece White King a1\npiece Black Queen b3\npiece Black King e8\n",
    ] {
        let s = position::parse(&game, text).unwrap();
        assert!(engine.legal_moves(&s).unwrap().is_empty(), "{text}");
        let (_, cands) = engine.candidates(&s).unwrap();
        assert!(!cands.is_empty());
        let mut rng = game_rng(1, 0);
        assert!(draw_legal(&engine, &s, &mut rng).unwrap().0.is_none());
    }
}

/// Lazy and counting playouts end the same ways on games where every candidate is legal (the same draws), and
/// play the same number of plies; on chess both end by the game's rules. Where `random_game` samples move
/// generators instead (`engine/sample.rs`: breakthrough, othello) its draws differ from the list's by design:
/// there the drawn-candidate path and the move buffer's path are held to the counting playouts, and
/// `random_game` only to ending by the rules (its uniformity is `tests/sample.rs`'s).
#[test]
fn lazy_playouts_agree_with_counting_playouts() {
    for file in [
        "games/breakthrough.zrf",
        "games/othello.zrf",
        "games/english-checkers.zrf",
    ] {
        let game = load(file);
        let engine = Engine::new(&game);
        for g in 0..10 {
            let b = random_game_counting(&engine, &mut game_rng(3, g), 300).unwrap();
            let mut lazy = vec![random_game_drawn(&engine, &mut game_rng(3, g), 300).unwrap()];
            if engine.flat() {
                lazy.push(random_game_listing(&engine, &mut game_rng(3, g), 300).unwrap());
            }
            let a = random_game(&engine, &mut game_rng(3, g), 300).unwrap();
            if engine.sample_plan().is_some() {
                assert!(a.moves_seen.is_none() && a.plies > 0, "{file} game {g}");
                assert!(a.outcome.is_some() || a.plies == 300, "{file} game {g}");
            } else {
                lazy.push(a);
            }
            for a in lazy {
                assert_eq!(a.plies, b.plies, "{file} game {g}");
                assert_eq!(a.moves_seen, b.moves_seen, "{file} game {g}");
                assert_eq!(
                    a.outcome.map(|o| (o.name, o.results)),
                    b.outcome.clone().map(|o| (o.name, o.results)),
                    "{file} game {g}"
                );
            }
        }
    }
    let game = load("games/chess.zrf");
    let engine = Engine::new(&game);
    for g in 0..5 {
        let a = random_game(&engine, &mut game_rng(3, g), 1000).unwrap();
        assert!(a.moves_seen.is_none());
        assert!(a.plies > 0);
    }
}

/// Chess's playouts list the candidates into a move buffer and test the drawn move by make and unmake
/// (`Engine::royal_listed`): the same games as drawing among owned moves, ply for ply, with the random stream
/// used the same way. Games with invariants or a pass are left to the owned path.
#[test]
fn listed_royal_playouts_play_the_games_of_owned_draws() {
    for (file, listed) in [
        ("games/chess.zrf", true),
        ("games/shogi.zrf", false),
        ("games/xiangqi.zrf", false),
        ("games/breakthrough.zrf", false),
    ] {
        let game = load(file);
        let engine = Engine::new(&game);
        assert_eq!(engine.royal_listed(), listed, "{file}");
    }
    // A forced pass is a legal move only when no candidate is: the buffer's path does not list it.
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("games/chess.zrf"))
            .unwrap()
            .replace(
                "(title \"Chess\")",
                "(title \"Chess\") (option \"pass turn\" forced)",
            );
    let path = Scratch::file("pass-chess", "chess.zrf", &text);
    let passing = load_game(&path, &VariantSel::First).unwrap();
    drop(path);
    assert!(!Engine::new(&passing).royal_listed());
    let game = load("games/chess.zrf");
    let engine = Engine::new(&game);
    for g in 0..12 {
        let (mut ra, mut rb) = (game_rng(11, g), game_rng(11, g));
        let a = random_game(&engine, &mut ra, 600).unwrap();
        let b = random_game_drawn(&engine, &mut rb, 600).unwrap();
        assert_eq!(a.plies, b.plies, "game {g}");
        assert_eq!(
            a.outcome.map(|o| (o.name, o.results)),
            b.outcome.map(|o| (o.name, o.results)),
            "game {g}"
        );
        assert_eq!(ra.next_u64(), rb.next_u64(), "game {g}: the random stream");
    }
}

/// The repetition window reads the history since the number of pieces on the board last fell, and the whole
/// history again for good once that number has grown.
#[test]
fn the_repetition_window_follows_the_piece_count() {
    use dagaz::engine::end::RepetitionWindow;
    let game = load("games/chess.zrf");
    let kings = "turn White\npiece White King e1\npiece Black King e8\n";
    let with = |extra: &str| position::parse(&game, &format!("{kings}{extra}")).unwrap();
    let history: Vec<u64> = (0..12).collect();
    let mut w = RepetitionWindow::default();
    w.update(&with("piece White Rook a1\npiece Black Rook a8\n"), 3);
    assert_eq!(w.of(&history[..3]).len(), 3);
    w.update(&with("piece White Rook a1\npiece Black Rook a8\n"), 4);
    assert_eq!(w.of(&history[..4]).len(), 4);
    // A capture: the positions before it had more pieces.
    w.update(&with("piece White Rook a1\n"), 5);
    assert_eq!(w.of(&history[..5]), &[] as &[u64]);
    w.update(&with("piece White Rook a2\n"), 6);
    assert_eq!(w.of(&history[..6]), &[5]);
    // A piece created: earlier positions may recur from now on, even after later captures.
    w.update(&with("piece White Rook a2\npiece Black Knight b8\n"), 7);
    assert_eq!(w.of(&history[..7]).len(), 7);
    w.update(&with(""), 9);
    assert_eq!(w.of(&history[..9]).len(), 9);
}
