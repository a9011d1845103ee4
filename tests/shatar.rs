//! `games/shatar.zrf`: the end of the game as its header states it (Fairy-Stockfish's reading of the Shatar
//! mating rule: a mate by knights alone wins for the mated side; otherwise a mate wins if the mater's series of
//! checking moves holds a shak (a check by a bers, rook or knight), else it is a draw, niol; a bare king draws,
//! robado). Every position and result below is worked by hand from those rules; the perft counts are in
//! `tests/perft.rs` (`shatar`).

use dagaz::engine::{position, Engine, State};
use dagaz::load::{load_game, VariantSel};
use std::path::Path;

fn game() -> dagaz::Game {
    load_game(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("games/shatar.zrf"),
        &VariantSel::First,
    )
    .unwrap()
}

/// The position after the move written `notation` (the only legal move with that notation).
fn after(g: &dagaz::Game, s: &State, notation: &str) -> State {
    let e = Engine::new(g);
    let moves = e.legal_moves(s).unwrap();
    let found: Vec<_> = moves.iter().filter(|m| m.notation(g) == notation).collect();
    let names: Vec<String> = moves.iter().map(|m| m.notation(g)).collect();
    assert_eq!(found.len(), 1, "{notation} among {names:?}");
    e.apply(s, found[0])
}

/// The end's name and White's and Black's results (1 win, 0 draw, -1 loss), or None.
fn end(g: &dagaz::Game, s: &State) -> Option<(String, Vec<i8>)> {
    let e = Engine::new(g);
    let moves = e.legal_moves(s).unwrap();
    e.outcome(s, &moves, &[])
        .unwrap()
        .map(|o| (o.name, o.results))
}

fn var(g: &dagaz::Game, s: &State, line: &str) -> bool {
    position::format(g, s).lines().any(|l| l == line)
}

/// Back-rank mate by a rook, a shak: White wins. White Kg1 Ra1; Black Kg8, pawns f7 g7 h7. 1. Ra1-a8: the
/// king has no square (f8, h8 on the rank, its pawns in front) and nothing takes or blocks.
#[test]
fn a_mate_by_a_rook_wins() {
    let g = game();
    let s = position::parse(
        &g,
        "turn White\npiece White King g1\npiece White Rook a1\npiece Black King g8\n\
         piece Black Pawn f7\npiece Black Pawn g7\npiece Black Pawn h7\n",
    )
    .unwrap();
    assert_eq!(end(&g, &s), None);
    let s = after(&g, &s, "a1-a8");
    assert!(
        var(&g, &s, "var shak White 1"),
        "{}",
        position::format(&g, &s)
    );
    assert_eq!(end(&g, &s), Some(("mate".into(), vec![1, -1])));
}

/// Smothered mate by a knight: the mated side wins (Fairy-Stockfish: a mate by knights alone is not a win).
/// White Kg1 Ne5; Black Kh8 Rg8, pawns g7 h7. 1. Ne5-f7: check from f7; g8, g7, h7 are Black's own, and no
/// Black piece reaches f7.
#[test]
fn a_mate_by_a_knight_alone_wins_for_the_mated_side() {
    let g = game();
    let s = position::parse(
        &g,
        "turn White\npiece White King g1\npiece White Knight e5\npiece Black King h8\n\
         piece Black Rook g8\npiece Black Pawn g7\npiece Black Pawn h7\n",
    )
    .unwrap();
    let s = after(&g, &s, "e5-f7");
    assert_eq!(end(&g, &s), Some(("knight mate".into(), vec![-1, 1])));
}

/// A position where 1. Ba3-b2 mates by a bishop (a tuk): White Ke1 Ba3; Black Kh8 Bg8, pawn h7. The long
/// diagonal b2-h8 is open; the king's squares g8 and h7 are its own pieces', g7 is on the diagonal; the Black
/// bishop on g8 reaches none of c3, d4, e5, f6, g7.
const BISHOP_MATE: &str =
    "turn White\npiece White King e1\npiece White Bishop a3\npiece Black King h8\n\
                           piece Black Bishop g8\npiece Black Pawn h7\n";

/// A bishop's mate with no shak in White's series of checks (the move before it gave no check): niol, a draw.
#[test]
fn a_mate_with_no_shak_in_the_series_is_niol() {
    let g = game();
    let s = position::parse(&g, BISHOP_MATE).unwrap();
    let s = after(&g, &s, "a3-b2");
    assert!(!var(&g, &s, "var shak White 1"));
    assert_eq!(end(&g, &s), Some(("niol".into(), vec![0, 0])));
}

/// The same mate when White's series of checks already holds a shak (its previous move was a check by a rook,
/// `var shak White 1`): the bishop's check continues the series, which keeps its shak, and the mate wins.
#[test]
fn a_mate_ending_a_series_with_a_shak_wins() {
    let g = game();
    let s = position::parse(&g, &format!("{BISHOP_MATE}var shak White 1\n")).unwrap();
    let s = after(&g, &s, "a3-b2");
    assert!(var(&g, &s, "var shak White 1"));
    assert_eq!(end(&g, &s), Some(("mate".into(), vec![1, -1])));
}

/// A move that gives no check ends the series: White's `shak` goes back to 0 (the king's step Ke1-d1 checks
/// nothing), and a later bishop mate would be niol.
#[test]
fn a_move_without_check_ends_the_series() {
    let g = game();
    let s = position::parse(&g, &format!("{BISHOP_MATE}var shak White 1\n")).unwrap();
    let s = after(&g, &s, "e1-d1");
    assert!(
        !var(&g, &s, "var shak White 1"),
        "{}",
        position::format(&g, &s)
    );
}

/// Robado: a side left with its king alone draws, whatever else holds. Black Ka8 alone against White Kc1 Rh2.
#[test]
fn a_bare_king_is_robado() {
    let g = game();
    let s = position::parse(
        &g,
        "turn Black\npiece White King c1\npiece White Rook h2\npiece Black King a8\n",
    )
    .unwrap();
    assert_eq!(end(&g, &s), Some(("robado".into(), vec![0, 0])));
}

/// Stalemate draws. Black Ka8 Pa7 against White Kc7 Pa6: b8 and b7 are the White king's, a7 is Black's pawn,
/// which is blocked and takes nothing; Black is not in check.
#[test]
fn stalemate_is_a_draw() {
    let g = game();
    let s = position::parse(
        &g,
        "turn Black\npiece White King c7\npiece White Pawn a6\npiece Black King a8\npiece Black Pawn a7\n",
    )
    .unwrap();
    assert_eq!(end(&g, &s), Some(("stalemate".into(), vec![0, 0])));
}

/// No castling and no double step: from the start (after 1.d4 d5) the e-pawn has one move, e2-e3, and the
/// king's only move is e1-d2.
#[test]
fn no_double_step_and_no_castling() {
    let g = game();
    let e = Engine::new(&g);
    let s = e.initial();
    let moves: Vec<String> = e
        .legal_moves(&s)
        .unwrap()
        .iter()
        .map(|m| m.notation(&g))
        .collect();
    assert!(moves.contains(&"e2-e3".to_string()));
    assert!(!moves.contains(&"e2-e4".to_string()));
    let king: Vec<&String> = moves.iter().filter(|m| m.starts_with("e1-")).collect();
    assert_eq!(king, ["e1-d2"]);
}
