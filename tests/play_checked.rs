//! `Engine::play_checked` plays a legal move as `Engine::play` does and refuses any other, leaving the state as it
//! was: a move of the player not to move, a move made up off the list, a move of another position, a pass where
//! the game has none, any move where there is no legal move.

use dagaz::compile::Game;
use dagaz::engine::{Action, Engine, IllegalMove, Move, Part, State};
use dagaz::load::{load_game, VariantSel};
use std::path::Path;

fn load(file: &str) -> Game {
    load_game(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join(file),
        &VariantSel::First,
    )
    .unwrap()
}

/// The legal move of `s` written `text` (the engine's notation).
fn find(engine: &Engine, s: &State, text: &str) -> Move {
    let moves = engine.legal_moves(s).unwrap();
    let found = moves
        .iter()
        .find(|m| m.notation(engine.game) == text)
        .cloned();
    found.unwrap_or_else(|| {
        panic!(
            "no move `{text}` among {:?}",
            Move::notations(engine.game, &moves)
        )
    })
}

/// Refused, with the error that says so, and the state untouched.
fn refused(engine: &Engine, s: &State, m: &Move) -> IllegalMove {
    let mut work = s.clone();
    let err = engine.play_checked(&mut work, m).unwrap_err();
    assert_eq!(work.cells(), s.cells(), "a refused move changed the board");
    assert_eq!(
        (work.turn(), work.ply(), work.hash()),
        (s.turn(), s.ply(), s.hash())
    );
    err
}

#[test]
fn a_legal_move_is_played_as_play_plays_it() {
    let game = load("games/chess.zrf");
    let engine = Engine::new(&game);
    let start = engine.initial();
    for m in engine.legal_moves(&start).unwrap() {
        let (mut checked, mut unchecked) = (start.clone(), start.clone());
        engine.play_checked(&mut checked, &m).unwrap();
        engine.play(&mut unchecked, &m);
        assert_eq!(checked.cells(), unchecked.cells());
        assert_eq!(
            (checked.turn(), checked.ply(), checked.hash()),
            (unchecked.turn(), unchecked.ply(), unchecked.hash())
        );
    }
}

#[test]
fn a_move_of_the_player_not_to_move_is_refused() {
    let game = load("games/chess.zrf");
    let engine = Engine::new(&game);
    let start = engine.initial();
    let mut after = start.clone();
    engine.play(&mut after, &find(&engine, &start, "e2-e4"));
    // Black's reply, offered while White is to move.
    let black = find(&engine, &after, "e7-e5");
    let err = refused(&engine, &start, &black);
    assert_eq!(err, IllegalMove::NotLegal { legal: 20 });
    assert_eq!(
        err.to_string(),
        "illegal move: not one of the 20 legal moves of the position"
    );
}

#[test]
fn a_move_of_another_position_is_refused() {
    let game = load("games/chess.zrf");
    let engine = Engine::new(&game);
    let start = engine.initial();
    let mut s = start.clone();
    for text in ["e2-e4", "e7-e5"] {
        let m = find(&engine, &s, text);
        engine.play_checked(&mut s, &m).unwrap();
    }
    // Legal for White after 1. e4 e5, not at the start (the e-pawn still blocks the bishop).
    let bishop = find(&engine, &s, "f1-c4");
    refused(&engine, &start, &bishop);
    // And the other way: a first move that is no longer legal (the pawn has left e2).
    let pawn = find(&engine, &start, "e2-e4");
    assert!(matches!(
        refused(&engine, &s, &pawn),
        IllegalMove::NotLegal { .. }
    ));
}

#[test]
fn a_move_off_the_list_and_a_pass_are_refused() {
    let game = load("games/chess.zrf");
    let engine = Engine::new(&game);
    let start = engine.initial();
    // A pawn three squares forward: its own piece and squares, but no rule makes it.
    let push = find(&engine, &start, "e2-e4");
    let mut made_up = push.clone();
    let (e2, e5) = (
        game.board.position("e2").unwrap(),
        game.board.position("e5").unwrap(),
    );
    made_up.parts[0] = Part {
        actions: vec![Action::Move { from: e2, to: e5 }],
        to: Some(e5),
        ..push.parts[0].clone()
    };
    refused(&engine, &start, &made_up);
    // Chess has no pass.
    refused(&engine, &start, &Move::default());
}

#[test]
fn nothing_is_legal_where_there_is_no_move() {
    let game = load("games/chess.zrf");
    let engine = Engine::new(&game);
    // Fool's mate: White is checkmated and has no move.
    let mut s = engine.initial();
    for text in ["f2-f3", "e7-e5", "g2-g4", "d8-h4"] {
        let m = find(&engine, &s, text);
        engine.play_checked(&mut s, &m).unwrap();
    }
    assert!(engine.legal_moves(&s).unwrap().is_empty());
    let mut other = engine.initial();
    let m = find(&engine, &other.clone(), "e2-e4");
    let err = refused(&engine, &s, &m);
    assert_eq!(err, IllegalMove::NotLegal { legal: 0 });
    assert_eq!(
        err.to_string(),
        "illegal move: the player to move has no legal move"
    );
    // The same move is still legal where it belongs.
    engine.play_checked(&mut other, &m).unwrap();
}
