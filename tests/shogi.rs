//! Rule tests for `games/shogi.zrf`, from the published rules of shogi (the Japan Shogi Association's rules as
//! summarised by FESA): captured pieces go to the captor's hand unpromoted (`captures-to-hand`), the drop
//! restrictions (last ranks, nifu), forced promotion, and no checkmate by a dropped pawn. Each test fails if
//! its rule is ignored: the positions are chosen so that the legal moves differ without it.

#[path = "common/scratch.rs"]
mod scratch_dir;
use scratch_dir::Scratch;
mod common;

use dagaz::compile::Game;
use dagaz::engine::{position, Engine};
use dagaz::load::{load_game, VariantSel};
use std::path::Path;

fn shogi() -> Game {
    load_game(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("games/shogi.zrf"),
        &VariantSel::First,
    )
    .unwrap()
}

fn has(moves: &[String], m: &str) -> bool {
    moves.iter().any(|x| x == m)
}

/// The count of `kind` in `player`'s hand.
fn hand(game: &Game, s: &dagaz::engine::State, player: &str, kind: &str) -> u32 {
    let p = game.player(player).unwrap();
    let t = game.pieces.iter().position(|x| x.name == kind).unwrap();
    s.reserves()[p.idx() * game.pieces.len() + t]
}

#[test]
fn a_captured_piece_goes_to_the_captors_hand_demoted() {
    // Black's silver on d6 takes White's tokin on d7: Black's hand gains a Pawn (not a Tokin), White's hand
    // stays empty, and on Black's next turn the pawn may be dropped.
    let g = shogi();
    let engine = Engine::new(&g);
    let pos = "turn Black\npiece Black King e1\npiece White King i9\npiece Black Silver d6\npiece White Tokin d7\n";
    let s = position::parse(&g, pos).unwrap();
    let m = engine
        .legal_moves(&s)
        .unwrap()
        .into_iter()
        .find(|m| m.notation(&g) == "d6-d7=Silver")
        .expect("the capture");
    let after = engine.apply(&s, &m);
    assert_eq!(hand(&g, &after, "Black", "Pawn"), 1);
    assert_eq!(hand(&g, &after, "Black", "Tokin"), 0);
    assert_eq!(hand(&g, &after, "White", "Pawn"), 0);
    assert_eq!(hand(&g, &after, "White", "Tokin"), 0);
    // White passes the turn with a king step; Black may drop the pawn.
    let w = engine
        .legal_moves(&after)
        .unwrap()
        .into_iter()
        .find(|m| m.notation(&g) == "i9-i8")
        .unwrap();
    let back = engine.apply(&after, &w);
    let drops: Vec<String> = engine
        .legal_moves(&back)
        .unwrap()
        .iter()
        .map(|m| m.notation(&g))
        .filter(|n| n.starts_with("Pawn@"))
        .collect();
    assert!(drops.contains(&"Pawn@e5".to_string()), "{drops:?}");
    // Without pieces in hand there are no drops at all.
    assert!(!common::sorted_moves(&g, pos)
        .iter()
        .any(|n| n.contains('@')));
}

#[test]
fn drops_respect_the_last_ranks_and_nifu() {
    // Black has a Pawn, a Lance and a Knight in hand, an unpromoted pawn on a5 and a tokin on b5.
    let g = shogi();
    let pos = "turn Black\npiece Black King e1\npiece White King i9\npiece Black Pawn a5\npiece Black Tokin b5\n\
               reserve Black Pawn 1\nreserve Black Lance 1\nreserve Black Knight 1\n";
    let m = common::sorted_moves(&g, pos);
    // Nifu: no pawn on the a-file, which holds an unpromoted Black pawn; the b-file's tokin does not count.
    assert!(!m.iter().any(|n| n.starts_with("Pawn@a")), "{m:?}");
    assert!(has(&m, "Pawn@b4") && has(&m, "Pawn@b8"), "{m:?}");
    // Not on the last rank (a pawn or lance there would never move), nor a knight on the last two.
    assert!(!has(&m, "Pawn@c9") && !has(&m, "Lance@c9"), "{m:?}");
    assert!(has(&m, "Lance@c8") && has(&m, "Knight@c7"), "{m:?}");
    assert!(!has(&m, "Knight@c8") && !has(&m, "Knight@c9"), "{m:?}");
    let pawns = m.iter().filter(|n| n.starts_with("Pawn@")).count();
    // Files b..i (8 files) x ranks 1..8, minus b5 (tokin), e1 (king): 62.
    assert_eq!(pawns, 62, "{m:?}");
}

#[test]
fn promotion_is_forced_where_the_piece_would_have_no_move_and_optional_elsewhere() {
    let g = shogi();
    let pos = "turn Black\npiece Black King e1\npiece White King i9\npiece Black Pawn a8\npiece Black Lance b5\n\
               piece Black Knight c6\npiece Black Knight g5\npiece Black Silver e7\npiece Black Pawn d6\n";
    let m = common::sorted_moves(&g, pos);
    // Pawn to the last rank: only promoted.
    assert!(has(&m, "a8-a9=Tokin") && !has(&m, "a8-a9"), "{m:?}");
    // Pawn into the zone (rank 7): may promote or not.
    assert!(has(&m, "d6-d7=Pawn") && has(&m, "d6-d7=Tokin"), "{m:?}");
    // Lance: to the last rank promoted only, inside the zone either way, outside no promotion.
    assert!(
        has(&m, "b5-b9=PLance") && !has(&m, "b5-b9") && !has(&m, "b5-b9=Lance"),
        "{m:?}"
    );
    assert!(has(&m, "b5-b8=Lance") && has(&m, "b5-b8=PLance"), "{m:?}");
    assert!(has(&m, "b5-b6") && !has(&m, "b5-b6=PLance"), "{m:?}");
    // Knight to rank 8: forced; to rank 7: optional.
    assert!(
        has(&m, "c6-b8=PKnight") && !has(&m, "c6-b8=Knight") && !has(&m, "c6-b8"),
        "{m:?}"
    );
    assert!(has(&m, "g5-f7=Knight") && has(&m, "g5-f7=PKnight"), "{m:?}");
    // Silver leaving the zone (e7 to d6 is occupied; e7-f6): it may promote, as its move starts in the zone.
    assert!(has(&m, "e7-f6=Silver") && has(&m, "e7-f6=PSilver"), "{m:?}");
}

#[test]
fn a_dropped_pawn_may_not_give_checkmate() {
    // White's king on a9, its knight on b9; Black's gold on a7 guards a8 and b8. A pawn dropped on a8 would
    // be mate: illegal. A gold dropped there mates legally, and a pawn drop that checks without mating is
    // legal (with the gold moved off, the king takes the pawn).
    let g = shogi();
    let pos = "turn Black\npiece Black King e1\npiece White King a9\npiece White Knight b9\npiece Black Gold a7\n\
               reserve Black Pawn 1\nreserve Black Gold 1\n";
    let m = common::sorted_moves(&g, pos);
    assert!(!has(&m, "Pawn@a8"), "{m:?}");
    assert!(has(&m, "Gold@a8") && has(&m, "Pawn@c8"), "{m:?}");
    let pos2 = "turn Black\npiece Black King e1\npiece White King a9\npiece White Knight b9\npiece Black Gold c7\n\
               reserve Black Pawn 1\n";
    assert!(has(&common::sorted_moves(&g, pos2), "Pawn@a8"));
}

#[test]
fn captures_to_hand_errors_have_places() {
    let dir = Scratch::new("shogi");
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("games/shogi.zrf"))
            .unwrap();
    for (bad, msg) in [
        (
            "(captures-to-hand (Tokin Pawn)",
            "(captures-to-hand (Tokin)",
        ),
        (
            "(captures-to-hand (Tokin Pawn)",
            "(captures-to-hand (Tokn Pawn)",
        ),
    ] {
        let path = dir.join("bad.zrf");
        std::fs::write(&path, text.replace(bad, msg)).unwrap();
        let err = load_game(&path, &VariantSel::First).unwrap_err();
        assert!(err.contains("bad.zrf:"), "{err}");
        if msg.contains("(Tokin)") {
            assert!(
                err.contains("a captures-to-hand entry is (PROMOTED BASE)"),
                "{err}"
            );
        } else {
            assert!(err.contains("Tokn"), "{err}");
        }
    }
}

/// Every test of this file once more with the general path forced (`DAGAZ_GENERAL_PATH=1`).
#[test]
fn on_the_general_path() {
    common::rerun_on_general_path("on_the_general_path");
}

/// Sennichite (JSA rules): the same position, with the same pieces in hand and the same player to move, for
/// the fourth time is a draw; the third time is not. Both rooks step aside and back: the start position comes
/// back every four plies, so it occurs for the fourth time after ply 12.
#[test]
fn the_fourth_occurrence_of_a_position_is_a_draw() {
    let g = shogi();
    let engine = Engine::new(&g);
    let mut s = engine.initial();
    let mut history = vec![];
    let cycle = ["h2-g2", "b8-c8", "g2-h2", "c8-b8"];
    for ply in 0..12 {
        let moves = engine.legal_moves(&s).unwrap();
        assert!(
            engine.outcome(&s, &moves, &history).unwrap().is_none(),
            "over before ply {ply}"
        );
        let want = cycle[ply % 4];
        let m = moves
            .iter()
            .find(|m| m.notation(&g) == want)
            .unwrap_or_else(|| panic!("{want} at ply {ply}"));
        history.push(s.key());
        s = engine.apply(&s, m);
    }
    let moves = engine.legal_moves(&s).unwrap();
    let o = engine
        .outcome(&s, &moves, &history)
        .unwrap()
        .expect("sennichite");
    assert_eq!(o.name, "sennichite");
    assert!(o.results.iter().all(|&r| r == 0), "{:?}", o.results);
}
