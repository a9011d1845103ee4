//! A move buffer's accessors given an index that names no whole move of the list (past its end, stale after
//! the list was refilled, or a composite move still kept as a handle) answer with an error, never a panic, and
//! the engine's methods that play a listed move leave the state untouched.

use dagaz::engine::apply::Undo;
use dagaz::engine::playout::{below, game_rng};
use dagaz::engine::{Engine, MoveList, State};
use dagaz::load::{load_game, VariantSel};
use std::path::Path;

fn game(name: &str) -> dagaz::compile::Game {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("games")
        .join(name);
    load_game(&path, &VariantSel::Number(1)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Every accessor of move `i` and every engine method that plays it: an error, and `s` as it was.
fn all_refuse(
    engine: &Engine,
    s: &State,
    list: &mut MoveList,
    i: usize,
    what: &str,
) -> Vec<String> {
    let mut errors = vec![];
    let mut note = |name: &str, r: Result<(), dagaz::engine::EngineError>| match r {
        Ok(()) => panic!("{what}: {name}({i}) answered for a move that is not in the list"),
        Err(e) => errors.push(e.to_string()),
    };
    note("check", list.check(i));
    note("heads", list.heads(i).map(|_| ()));
    note("view", list.view(i, 0).map(|_| ()));
    note("actions_of", list.actions_of(i).map(|_| ()));
    note("ends", list.ends(i).map(|_| ()));
    note("from", list.from(i).map(|_| ()));
    note("to_move", list.to_move(i).map(|_| ()));
    let mut t = s.clone();
    note("play_listed", engine.play_listed(&mut t, list, i));
    assert_eq!(&t, s, "{what}: play_listed({i}) changed the state");
    let mut undo = Undo::new();
    note(
        "make_listed",
        engine.make_listed(&mut t, list, i, &mut undo),
    );
    assert_eq!(&t, s, "{what}: make_listed({i}) changed the state");
    errors
}

#[test]
fn an_index_past_the_end_of_the_list_is_an_error() {
    let g = game("breakthrough.zrf");
    let engine = Engine::new(&g);
    assert!(engine.flat(), "Breakthrough is listed into the move buffer");
    let s = engine.initial();
    let mut list = MoveList::new();
    engine.legal_into(&s, &mut list).unwrap();
    // Breakthrough's first position: each of the 8 pieces of the second row moves straight or diagonally
    // forward to an empty square, 3 moves each but 2 at the edges.
    assert_eq!(list.len(), 22);
    for i in [22, 23, 1000, usize::MAX] {
        let errors = all_refuse(&engine, &s, &mut list, i, "breakthrough");
        for e in &errors {
            assert!(
                e.contains(&format!("move {i} is not in the list")) && e.contains("22 move(s)"),
                "unclear error for move {i}: {e}"
            );
        }
        assert!(list.is_pass(i).is_err(), "is_pass({i})");
        assert!(engine.resolve(&s, &mut list, i).is_err(), "resolve({i})");
    }
    // A part past the end of a listed move.
    let e = list.view(0, 7).unwrap_err().to_string();
    assert!(e.contains("there is no part 7"), "{e}");
    // Index 0 is a move, and its accessors answer.
    assert!(list.heads(0).is_ok() && list.view(0, 0).is_ok() && list.to_move(0).is_ok());
    assert!(!list.is_pass(0).unwrap());
}

/// Chess's candidate moves, tested one by one with `listed_legal`: past the end is an error, the state kept.
#[test]
fn a_candidate_past_the_end_is_an_error() {
    let g = game("chess.zrf");
    let engine = Engine::new(&g);
    assert!(engine.royal_listed(), "chess's candidates are listed");
    let s = engine.initial();
    let mut cands = MoveList::new();
    engine.candidates_into(&s, &mut cands).unwrap();
    // The 20 moves of chess's first position (FIDE laws: 16 pawn moves and 4 knight moves), none in check.
    assert_eq!(cands.len(), 20);
    let player = engine.to_move(&s);
    let mut undo = Undo::new();
    for i in [20, 21, usize::MAX] {
        let mut t = s.clone();
        let e = engine
            .listed_legal(&mut t, &cands, i, player, &mut undo)
            .unwrap_err()
            .to_string();
        assert!(e.contains(&format!("move {i} is not in the list")), "{e}");
        assert_eq!(t, s);
        all_refuse(&engine, &s, &mut cands, i, "chess candidates");
    }
    let mut t = s.clone();
    assert!(engine
        .listed_legal(&mut t, &cands, 19, player, &mut undo)
        .unwrap());
}

#[test]
fn a_stale_index_into_a_refilled_list_is_an_error() {
    let g = game("breakthrough.zrf");
    let engine = Engine::new(&g);
    let mut s = engine.initial();
    let mut list = MoveList::new();
    engine.legal_into(&s, &mut list).unwrap();
    let last = list.len() - 1;
    list.clear();
    all_refuse(&engine, &s, &mut list, last, "a cleared list");
    // Refilled after a move: the index one past its end is refused as well.
    engine.legal_into(&s, &mut list).unwrap();
    let first = list.to_move(0).unwrap();
    engine.play(&mut s, &first);
    engine.legal_into(&s, &mut list).unwrap();
    let n = list.len();
    all_refuse(&engine, &s, &mut list, n, "a refilled list");
}

/// A composite move of a list in handle mode, not yet resolved, has no parts to read: every accessor says so,
/// and once resolved its index answers.
#[test]
fn an_unresolved_handle_is_an_error() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
    let mut found = None;
    'files: for name in [
        "english-checkers.zrf",
        "russian-draughts.zrf",
        "international-draughts.zrf",
        "fanorona.zrf",
        "lasca.zrf",
        "bashni.zrf",
    ] {
        if !dir.join(name).exists() {
            continue;
        }
        let g = game(name);
        let engine = Engine::new(&g);
        if !engine.flat() {
            continue;
        }
        let mut list = MoveList::new();
        list.lazy = true;
        for n in 0..4 {
            let mut rng = game_rng(11, n);
            let mut s = engine.initial();
            for _ in 0..120 {
                engine.legal_into(&s, &mut list).unwrap();
                if list.is_empty() {
                    break;
                }
                if let Some(i) = (0..list.len()).find(|&i| list.to_move(i).is_err()) {
                    let errors = all_refuse(&engine, &s, &mut list, i, name);
                    for e in &errors {
                        assert!(
                            e.contains("handle"),
                            "{name}: unclear error for a handle: {e}"
                        );
                    }
                    // A handle is never a pass.
                    assert!(!list.is_pass(i).unwrap());
                    let r = engine.resolve(&s, &mut list, i).unwrap();
                    assert!(list.check(r).is_ok() && list.to_move(r).is_ok(), "{name}");
                    let mut t = s.clone();
                    engine.play_listed(&mut t, &list, r).unwrap();
                    assert_ne!(t, s, "{name}: the resolved move was not played");
                    found = Some(name);
                    break 'files;
                }
                let i = below(&mut rng, list.len());
                let i = engine.resolve(&s, &mut list, i).unwrap();
                engine.play_listed(&mut s, &list, i).unwrap();
            }
        }
    }
    assert!(found.is_some(), "no game of games/ listed a handle");
}
