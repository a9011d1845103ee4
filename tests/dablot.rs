//! Rule tests for `games/dablot-prejjesne.zrf`, from the rules written at the top of that file (Walker's
//! leaflet, with Keyland's account as a variant). Every expected count or move list is worked out by hand from
//! those rules, the working written beside it; none was taken from dagaz's output. No peer publishes a perft for
//! Dablot.
//!
//! The board: corners a1-f7 (files a-f, rows 1-7 from the Sami side), square centres A1-E6 (centre Xn between
//! files X and the next and corner rows n and n+1). A centre touches the four corners of its square only; the
//! diagonal directions walk corner, centre, corner in a straight line (a1 ne A1 ne b2 ne B2 ...).

use dagaz::engine::{position, Engine, State};
use dagaz::load::{load_game, VariantSel};
use std::path::Path;

/// Variant 1: Walker's rules (warriors must capture, prince and king need not).
const WALKER: usize = 1;
/// Variant 2: only the king is free; the prince is bound like a warrior.
const KINGS_ONLY: usize = 2;
/// Variant 3: Keyland's account, no capture compulsory.
const KEYLAND: usize = 3;

fn dablot(variant: usize) -> dagaz::Game {
    load_game(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("games/dablot-prejjesne.zrf"),
        &VariantSel::Number(variant),
    )
    .unwrap()
}

/// Sami to move with the pieces given as `Type point` pairs for each side.
fn at(g: &dagaz::Game, sami: &str, farmer: &str) -> State {
    let mut text = "turn Sami\n".to_string();
    for (owner, list) in [("Sami", sami), ("Farmer", farmer)] {
        let words: Vec<&str> = list.split_whitespace().collect();
        for pair in words.chunks(2) {
            text += &format!("piece {owner} {} {}\n", pair[0], pair[1]);
        }
    }
    position::parse(g, &text).unwrap()
}

/// The sorted notations of the legal moves.
fn moves(g: &dagaz::Game, s: &State) -> Vec<String> {
    let mut v: Vec<String> = Engine::new(g)
        .legal_moves(s)
        .unwrap()
        .iter()
        .map(|m| m.notation(g))
        .collect();
    v.sort();
    v
}

fn sorted(v: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

/// Perft from the start, by hand. The start is the same for both sides turned round (Sami warriors on corner
/// rows 1-3 and centre rows 1-2, prince E3, king f4; Farmers on rows 5-7 and centre rows 5-6, prince A4, king
/// a4); the empty points are b4-e4 and the centres A3-D3 and B4-E4.
///
/// Depth 1, the Sami moves (15):
/// * the row-3 warriors stepping north: b3, c3, d3, e3 (a4 holds the Farmer king, f4 the Sami king): 4;
/// * the row-3 warriors stepping diagonally onto the empty centres A3-D3: a3 to A3; b3 to A3, B3; c3 to B3, C3;
///   d3 to C3, D3; e3 to D3 (E3 is the prince): 8;
/// * the prince E3 (touching e3, f3, f4, e4): only e4 is empty: 1;
/// * the king f4: west to e4 and north-west to the centre E4; north is the warrior f5 with f6 behind it occupied,
///   and no point lies east: 2;
/// * every other piece touches only occupied points, and no capture exists (no enemy piece is next to a piece
///   with an empty point beyond, except the Farmer king next to a3, which a warrior may not take).
///
/// 4 + 8 + 1 + 2 = 15 for every variant.
///
/// Depth 2. The Farmer has 15 moves in the start position (the same working turned round: the row-5 warriors
/// b5-e5 south, eight diagonal steps onto B4-E4, the prince A4 to b4, the king a4 to b4 and the centre A3).
/// After each Sami move:
/// * b3-b4: the warrior b5 can jump b4 (b3 is now empty behind it), and so can the prince A4 (south-east over
///   b4 to the centre B3) and the king a4 (east over b4 to c4). No jump goes on (every point two steps from b3,
///   B3 or c4 across an enemy is occupied). Keyland: the three captures, and the 15 quiet moves less the three
///   onto b4 (b5, A4, a4): 15. Walker and kings-only: the warrior's capture binds the turn, the prince's and
///   king's captures stay legal beside it (they are captures): 3.
/// * c3-c4, d3-d4, e3-e4: the warrior c5 (d5, e5) jumps south onto the emptied c3 (d3, e3), and no other
///   Farmer piece touches c4 (d4, e4). Keyland: 15 - 1 (that warrior's step onto the point) + 1 = 15. With
///   compulsion: the capture alone, 1 each.
/// * the eight diagonal steps onto A3-D3: A3 touches the Farmer king a4; after a3-A3 the king loses its step
///   to A3 and gains the step south to the emptied a3 (the jump over A3 lands on b3, occupied): 15. After b3-A3
///   it loses the step to A3 and may jump over A3 onto the emptied b3, a king's capture that binds nothing: 15.
///   The other six touch no Farmer piece and empty no point a Farmer piece touches: 15 each. 8 x 15 = 120 in
///   every variant.
/// * E3-e4 (the prince): the warrior e5 loses its step onto e4 and may not jump the prince (rank); E3 touches
///   no Farmer piece: 14.
/// * f4-e4 (the king): e5 loses the step onto e4, f5 gains the step onto f4: 15.
/// * f4-E4 (the king onto the centre): e5 and f5 both lose their diagonal step onto E4, f5 gains f4: 14.
///
/// Walker and kings-only: 3 + 1 + 1 + 1 + 120 + 14 + 15 + 14 = 169. Keyland: 4 x 15 + 120 + 14 + 15 + 14 = 223.
///
/// Deeper, d3 and d4 (and d5 for Walker's rules) agree with `tests/reference/dablot_perft.py`, a generator
/// written apart from dagaz from the same rules (`python3 tests/reference/dablot_perft.py 4 keyland`; d5 of
/// `walker` takes about two minutes).
#[test]
fn perft_by_hand_from_the_start() {
    for (variant, counts) in [
        (WALKER, &[15, 169, 2_345, 34_657, 562_365][..]),
        (KINGS_ONLY, &[15, 169, 2_307, 33_086][..]),
        (KEYLAND, &[15, 223, 4_361, 85_410][..]),
    ] {
        let g = dablot(variant);
        let e = Engine::new(&g);
        let s = e.initial();
        let got: Vec<u64> = (1..=counts.len() as u32)
            .map(|d| e.perft(&s, d).unwrap())
            .collect();
        assert_eq!(got, counts, "variant {variant}");
    }
}

/// A warrior may not take a prince or a king; a warrior next to an enemy warrior with an empty point beyond
/// must take it.
///
/// The Sami warrior b2 with the Farmer prince on b3 (b4 empty): no capture (rank), and its steps are s b1,
/// e c2, w a2 and the four centres A1, B1, A2, B2 (north is occupied): 7. The Farmer king on b3 instead: the
/// same 7. A Farmer warrior on b3: the capture b2 over b3 to b4 binds the turn, and nothing follows from b4
/// (no enemy is left): 1 move.
#[test]
fn a_warrior_takes_warriors_only_and_must_take_them() {
    let g = dablot(WALKER);
    let steps = sorted(&[
        "b2-b1", "b2-c2", "b2-a2", "b2-A1", "b2-B1", "b2-A2", "b2-B2",
    ]);
    for higher in ["Prince", "King"] {
        let s = at(&g, "Man b2", &format!("{higher} b3"));
        assert_eq!(moves(&g, &s), steps, "the Farmer {higher} on b3");
    }
    let s = at(&g, "Man b2", "Man b3");
    assert_eq!(moves(&g, &s), ["b2-b4xb3"]);
}

/// A prince takes princes and warriors but not a king; a king takes a king.
///
/// The Sami prince b2, the Farmer prince b3 (b4 empty), a Farmer warrior c2 (d2 empty) and the Farmer king on
/// the centre A2 (a3, beyond it on the line b2-A2-a3, empty). Captures: b2 over b3 to b4 and b2 over c2 to d2,
/// neither going on (b4 and d2 touch no enemy left with an empty point beyond: from b4 the king is not next to
/// it; from d2 nothing). Not over the king. Steps: b1, a2, and the centres A1, B1, B2 (b3, c2, A2 occupied): 5.
/// The prince is free, and no warrior of the mover's can capture, so all 7 are legal.
///
/// The Sami king b2 and the Farmer king b3 alone: the capture b2 over b3 to b4, and the seven steps (every
/// neighbour but b3): 8 (the king's capture binds nothing).
#[test]
fn a_prince_takes_princes_and_warriors_and_a_king_takes_a_king() {
    let g = dablot(WALKER);
    let s = at(&g, "Prince b2", "Prince b3 Man c2 King A2");
    assert_eq!(
        moves(&g, &s),
        sorted(&["b2-b4xb3", "b2-d2xc2", "b2-b1", "b2-a2", "b2-A1", "b2-B1", "b2-B2"])
    );
    let s = at(&g, "King b2", "King b3");
    assert_eq!(
        moves(&g, &s),
        sorted(&["b2-b4xb3", "b2-b1", "b2-c2", "b2-a2", "b2-A1", "b2-B1", "b2-A2", "b2-B2",])
    );
}

/// Walker's rule 15: capturing is compulsory for warriors, optional for the prince and the king.
///
/// The Sami warrior a1 with a Farmer warrior on a2 (a3 empty), the Sami king f1 with a Farmer warrior on f2
/// (f3 empty). The warrior's capture binds the turn; the king's capture stays legal beside it; the quiet moves
/// do not: a1-a3xa2 and f1-f3xf2 (neither jump goes on). Keyland (nothing compulsory): those two and the steps
/// a1-b1, a1-A1, f1-e1, f1-E1: 6.
///
/// With no Farmer piece on a2 the king's capture alone binds nothing: the warrior's steps a1-a2, a1-b1, a1-A1,
/// the king's f1-e1, f1-E1 and its capture: 6, under Walker and kings-only alike.
///
/// With the Sami prince on f1 instead of the king, alone able to capture: Walker frees it (6 moves); the
/// kings-only variant binds it like a warrior: its capture only.
#[test]
fn warriors_must_capture_and_the_prince_and_king_need_not() {
    let both = "Man a2 Man f2 Man c7";
    let g = dablot(WALKER);
    let s = at(&g, "Man a1 King f1", both);
    assert_eq!(moves(&g, &s), sorted(&["a1-a3xa2", "f1-f3xf2"]));
    let g = dablot(KEYLAND);
    let s = at(&g, "Man a1 King f1", both);
    assert_eq!(
        moves(&g, &s),
        sorted(&["a1-a3xa2", "f1-f3xf2", "a1-b1", "a1-A1", "f1-e1", "f1-E1"])
    );

    let king_alone = sorted(&["f1-f3xf2", "a1-a2", "a1-b1", "a1-A1", "f1-e1", "f1-E1"]);
    for variant in [WALKER, KINGS_ONLY] {
        let g = dablot(variant);
        let s = at(&g, "Man a1 King f1", "Man f2 Man c7");
        assert_eq!(moves(&g, &s), king_alone, "variant {variant}");
    }

    let g = dablot(WALKER);
    let s = at(&g, "Man a1 Prince f1", "Man f2 Man c7");
    assert_eq!(moves(&g, &s), king_alone);
    let g = dablot(KINGS_ONLY);
    let s = at(&g, "Man a1 Prince f1", "Man f2 Man c7");
    assert_eq!(moves(&g, &s), ["f1-f3xf2"]);
}

/// Walker's rule 10: a piece that has captured may go on capturing, changing direction, and is free to stop.
///
/// The Sami warrior c3; Farmer warriors c4, c6 and d7, the Farmer king a7. c3 jumps c4 to c5, then c6 to c7,
/// then d7 to e7 (east, a change of direction); from e7 nothing is left to take (f7 empty behind nothing).
/// The chain may stop after each jump: three moves. The warrior's capture binds the turn, so the Sami king and
/// prince (f1, a1, with steps of their own) have no legal move.
#[test]
fn a_chain_changes_direction_and_may_stop_after_any_jump() {
    let g = dablot(WALKER);
    let s = at(
        &g,
        "Man c3 King f1 Prince a1",
        "Man c4 Man c6 Man d7 King a7",
    );
    assert_eq!(
        moves(&g, &s),
        sorted(&["c3-c5xc4", "c3-c5xc4-c7xc6", "c3-c5xc4-c7xc6-e7xd7"])
    );
}

/// Walker's rule 11: a player who cannot move loses, whether every piece is blocked or none is left.
/// Keyland's two lone kings: a draw.
#[test]
fn no_move_loses_and_two_lone_kings_draw() {
    let g = dablot(WALKER);
    let e = Engine::new(&g);
    // The Sami warrior a1 is boxed in: its neighbours a2, b1, A1 are Farmer warriors, and the points beyond
    // them (a3, c1, b2) are occupied too. No move: the Sami lose.
    let s = at(&g, "Man a1", "Man a2 Man b1 Man A1 Man a3 Man c1 Man b2");
    let ms = e.legal_moves(&s).unwrap();
    assert!(ms.is_empty(), "{:?}", moves(&g, &s));
    let o = e.outcome(&s, &ms, &[]).unwrap().expect("over");
    assert_eq!((o.results, o.name.as_str()), (vec![-1, 1], "no move"));
    // The Sami warrior c3 takes the last Farmer piece, c4: the Farmers have no piece and no move, and lose.
    let s = at(&g, "Man c3", "Man c4");
    let ms = e.legal_moves(&s).unwrap();
    assert_eq!(ms.len(), 1);
    let after = e.apply(&s, &ms[0]);
    let ms = e.legal_moves(&after).unwrap();
    let o = e.outcome(&after, &ms, &[]).unwrap().expect("over");
    assert_eq!((o.results, o.name.as_str()), (vec![1, -1], "no move"));
    // Two kings alone: a draw. A king and a warrior against a king: not over.
    let s = at(&g, "King c3", "King d6");
    let ms = e.legal_moves(&s).unwrap();
    let o = e.outcome(&s, &ms, &[]).unwrap().expect("over");
    assert_eq!((o.results, o.name.as_str()), (vec![0, 0], "two kings"));
    let s = at(&g, "King c3 Man a1", "King d6");
    let ms = e.legal_moves(&s).unwrap();
    assert!(e.outcome(&s, &ms, &[]).unwrap().is_none());
}
