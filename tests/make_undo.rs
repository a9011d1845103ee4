//! Make/undo round trip (issue 11): on random games of every variant of every file of `games/`, making a move
//! on a working state gives exactly the state the copying `apply` gives (cells, columns, reserves, variables,
//! hash, turn, ply, passes, last move, history), and undoing it gives back the state before, hash included.
//! Two moves made in a row are undone in turn. Many moves of each position are tried, not only the one
//! played, so captures, promotions, drops, composite moves and passes all come by.

use dagaz::engine::apply::Undo;
use dagaz::engine::playout::{below, game_rng};
use dagaz::engine::{Engine, MoveList, State};
use dagaz::load::{load_game, VariantSel};
use std::path::Path;

/// Games per variant, plies per game, moves tried per position.
const GAMES: u64 = 4;
const PLIES: u32 = 80;
const TRIED: usize = 12;

/// Each player's occupancy (`State::pieces_of`) is exactly the positions a scan of the cells finds its pieces on.
fn check_occupancy(engine: &Engine, what: &str, s: &State) {
    for p in 0..engine.game.players.len() {
        let player = dagaz::compile::Player(p as u8);
        let scanned: Vec<usize> = (0..s.cells().len())
            .filter(|&i| s.cells()[i].is_some_and(|x| x.owner == player))
            .collect();
        let kept: Vec<usize> = s.pieces_of(player).map(|q| q.idx()).collect();
        assert_eq!(
            kept,
            scanned,
            "{what} ply {}: occupancy of player {p}",
            s.ply()
        );
    }
}

fn check_round_trip(engine: &Engine, what: &str, s: &State, undo: &mut Undo) -> Option<State> {
    check_occupancy(engine, what, s);
    let moves = engine.legal_moves(s).unwrap();
    if moves.is_empty() {
        return None;
    }
    // An even spread over the list, so that late moves (promotions, long chains) come by too.
    let step = moves.len().div_ceil(TRIED).max(1);
    let mut work = s.clone();
    let mut first_after = None;
    for m in moves.iter().step_by(step) {
        let copied = engine.apply(s, m);
        engine.make(&mut work, m, undo);
        assert_eq!(
            work,
            copied,
            "{what} ply {}: make {:?} differs from apply",
            s.ply(),
            m
        );
        assert_eq!(
            work.hash(),
            work.full_hash(),
            "{what} ply {}: hash after make",
            s.ply()
        );
        check_occupancy(engine, what, &work);
        check_occupancy(engine, what, &copied);
        // A second move on top, then both undone.
        if let Ok(next) = engine.legal_moves(&work) {
            if let Some(m2) = next.get(next.len() / 2) {
                let copied2 = engine.apply(&work, m2);
                engine.make(&mut work, m2, undo);
                assert_eq!(work, copied2, "{what} ply {}: second make", s.ply());
                engine.unmake(&mut work, undo);
                assert_eq!(
                    work,
                    copied,
                    "{what} ply {}: undo of the second move",
                    s.ply()
                );
            }
        }
        engine.unmake(&mut work, undo);
        check_occupancy(engine, what, &work);
        assert_eq!(&work, s, "{what} ply {}: undo of {:?}", s.ply(), m);
        assert_eq!(
            work.hash(),
            s.hash(),
            "{what} ply {}: hash after undo",
            s.ply()
        );
        assert_eq!(undo.depth(), 0);
        first_after.get_or_insert(copied);
    }
    first_after
}

#[test]
fn make_then_unmake_is_the_identity_and_make_equals_apply() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "zrf"))
        .collect();
    files.sort();
    assert!(files.len() >= 20, "games/ holds {} files", files.len());
    let mut variants = 0;
    for file in &files {
        for v in 1.. {
            let Ok(game) = load_game(file, &VariantSel::Number(v)) else {
                assert!(v > 1, "{} does not load", file.display());
                break;
            };
            variants += 1;
            let engine = Engine::new(&game);
            let what = format!(
                "{} variant {v}",
                file.file_name().unwrap().to_string_lossy()
            );
            let mut undo = Undo::new();
            for g in 0..GAMES {
                let mut rng = game_rng(11, g);
                let mut s = engine.initial();
                for _ in 0..PLIES {
                    if check_round_trip(&engine, &what, &s, &mut undo).is_none() {
                        break;
                    }
                    let moves = engine.legal_moves(&s).unwrap();
                    if engine.outcome(&s, &moves, &[]).unwrap().is_some() {
                        break;
                    }
                    let m = &moves[below(&mut rng, moves.len())];
                    // The game goes on in place, as a playout does.
                    let copied = engine.apply(&s, m);
                    engine.play(&mut s, m);
                    assert_eq!(s, copied, "{what}: play differs from apply");
                }
            }
        }
    }
    assert!(variants > files.len());
}

/// The move buffer lists the same moves in the same order as `legal_moves`, in both of its modes: whole moves,
/// and handles (composite moves kept as a path, rebuilt when chosen: what random playouts use). Checked on
/// random games of every variant of every file of `games/` the buffer serves (`Engine::flat`).
#[test]
fn the_move_buffer_lists_the_legal_moves_whole_and_as_handles() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "zrf"))
        .collect();
    files.sort();
    let mut served = vec![];
    for file in &files {
        for v in 1.. {
            let Ok(game) = load_game(file, &VariantSel::Number(v)) else {
                break;
            };
            let engine = Engine::new(&game);
            if !engine.flat() {
                continue;
            }
            let what = format!(
                "{} variant {v}",
                file.file_name().unwrap().to_string_lossy()
            );
            served.push(what.clone());
            let mut whole = MoveList::new();
            let mut lazy = MoveList::new();
            lazy.lazy = true;
            for g in 0..3 {
                let mut rng = game_rng(5, g);
                let mut s = engine.initial();
                for _ in 0..60 {
                    let moves = engine.legal_moves(&s).unwrap();
                    engine.legal_into(&s, &mut whole).unwrap();
                    assert_eq!(whole.to_moves().unwrap(), moves, "{what} ply {}", s.ply());
                    engine.legal_into(&s, &mut lazy).unwrap();
                    assert_eq!(lazy.len(), moves.len(), "{what} ply {}", s.ply());
                    for (i, m) in moves.iter().enumerate() {
                        let r = engine.resolve(&s, &mut lazy, i).unwrap();
                        assert_eq!(
                            &lazy.to_move(r).unwrap(),
                            m,
                            "{what} ply {} move {i}",
                            s.ply()
                        );
                    }
                    if moves.is_empty() || engine.outcome(&s, &moves, &[]).unwrap().is_some() {
                        break;
                    }
                    engine.play(&mut s, &moves[below(&mut rng, moves.len())]);
                }
            }
        }
    }
    for name in [
        "amazons.zrf",
        "english-checkers.zrf",
        "breakthrough.zrf",
        "othello.zrf",
    ] {
        assert!(
            served.iter().any(|s| s.starts_with(name)),
            "{name} is not served: {served:?}"
        );
    }
}
