//! Rule tests for `games/ur.zrf`, the Royal Game of Ur by Irving Finkel's rules as written at the top of that
//! file. Every expected result is worked out by hand from those rules, the working written beside it. Squares
//! are named by their number on the mover's track: w1-w4, w13-w14 White's own, b1-b4, b13-b14 Black's, s5-s12
//! the shared row; woff/boff is square 15, off the board. The dice are four Marked/Blank pieces on d1-d4.

use dagaz::engine::{position, Engine, Outcome, State};
use dagaz::load::{load_game, VariantSel};
use std::path::Path;

fn ur() -> dagaz::Game {
    load_game(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("games/ur.zrf"),
        &VariantSel::First,
    )
    .unwrap()
}

/// A position with White to move after a throw of `throw` (that many marked dice), its pieces on `white`,
/// Black's on `black`, and reserves as given.
fn at(g: &dagaz::Game, throw: usize, white: &str, black: &str, reserves: (u32, u32)) -> State {
    let mut text = "turn White\n".to_string();
    for (i, d) in ["d1", "d2", "d3", "d4"].iter().enumerate() {
        let die = if i < throw { "Marked" } else { "Blank" };
        text += &format!("piece ?Dice {die} {d}\n");
    }
    for p in white.split_whitespace() {
        text += &format!("piece White Man {p}\n");
    }
    for p in black.split_whitespace() {
        text += &format!("piece Black Man {p}\n");
    }
    if reserves.0 > 0 {
        text += &format!("reserve White Man {}\n", reserves.0);
    }
    if reserves.1 > 0 {
        text += &format!("reserve Black Man {}\n", reserves.1);
    }
    position::parse(g, &text).unwrap()
}

/// The men after each legal move, as `W[...] B[...] r(W,B)` (positions sorted, then the reserves), sorted.
fn after_each(g: &dagaz::Game, s: &State) -> Vec<String> {
    let e = Engine::new(g);
    let mut out: Vec<String> = e
        .legal_moves(s)
        .unwrap()
        .iter()
        .map(|m| men(g, &e.apply(s, m)))
        .collect();
    out.sort();
    out
}

fn men(g: &dagaz::Game, s: &State) -> String {
    let text = position::format(g, s);
    let of = |owner: &str| {
        let mut v: Vec<&str> = text
            .lines()
            .filter_map(|l| l.strip_prefix(&format!("piece {owner} Man ")))
            .collect();
        v.sort();
        v.join(" ")
    };
    let reserve = |owner: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(&format!("reserve {owner} Man ")))
            .unwrap_or("0")
            .to_string()
    };
    format!(
        "W[{}] B[{}] r({},{})",
        of("White"),
        of("Black"),
        reserve("White"),
        reserve("Black")
    )
}

fn sorted(v: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

/// Perft from the start, by hand. Plies 1-4 are White's four dice, two faces each: 2, 4, 8, 16. Ply 5 is
/// White's move: with a throw of n > 0 the only move enters a man on square n, with 0 the forced pass: one
/// move for each of the 16 dice, 16. Plies 6-9, Black's dice: 32, 64, 128, 256, except that after the one
/// throw of 4 (all four dice marked) White's man entered on w4, a rosette, and White throws again: still two
/// faces a die, so still 256 at ply 9. Ply 10: in the 15 lines without the rosette, Black's one move (enter
/// or pass) for each of 16 dice, 15 x 16 = 240; in the rosette line White moves again with a man on w4 and six
/// in reserve: a throw of 0 (1 way in 16) passes; 1, 2 or 3 (4 + 6 + 4 ways) enter a man or move w4 to s5, s6,
/// s7 (2 moves each); 4 (1 way) cannot enter (w4 is its own) and moves w4 to s8: 1 + 28 + 1 = 30. Total 270.
#[test]
fn perft_by_hand_from_the_start() {
    let g = ur();
    let e = Engine::new(&g);
    let s = e.initial();
    let counts: Vec<u64> = (1..=10).map(|d| e.perft(&s, d).unwrap()).collect();
    assert_eq!(counts, [2, 4, 8, 16, 16, 32, 64, 128, 256, 270]);
}

/// Each die is marked or blank with one move each: the throw's chances are the binomial 1, 4, 6, 4, 1 in 16.
#[test]
fn the_dice_are_four_binary_lots() {
    let g = ur();
    let e = Engine::new(&g);
    let mut s = e.initial();
    for _ in 0..4 {
        assert!(e.is_chance(&s));
        let moves = e.legal_moves(&s).unwrap();
        assert_eq!(moves.len(), 2, "a die has two faces");
        s = e.apply(&s, &moves[0]);
    }
    assert!(!e.is_chance(&s), "after four dice White moves");
}

/// A man enters on the square of the throw; a throw of 0 is a pass. With a throw of 3 and men on w1 and s5:
/// enter on w3; w1 to w4 (the rosette); s5 to s8. Nothing may land on its own side's man: with a throw of 1 and
/// men on w1 and w2, entering (w1) and w1-w2 are both blocked, leaving w2-w3.
#[test]
fn entering_and_moving_by_the_throw() {
    let g = ur();
    let s = at(&g, 3, "w1 s5", "", (5, 7));
    assert_eq!(
        after_each(&g, &s),
        sorted(&[
            "W[s5 w1 w3] B[] r(4,7)",
            "W[s5 w4] B[] r(5,7)",
            "W[s8 w1] B[] r(5,7)",
        ])
    );
    let s = at(&g, 1, "w1 w2", "", (5, 7));
    assert_eq!(after_each(&g, &s), sorted(&["W[w1 w3] B[] r(5,7)"]));
    let s = at(&g, 0, "w1 w2", "", (5, 7));
    let e = Engine::new(&g);
    let moves = e.legal_moves(&s).unwrap();
    assert!(
        moves.len() == 1 && moves[0].is_pass(),
        "a throw of 0 passes"
    );
}

/// Both tracks run the same way along the shared row; landing on an enemy there captures it and it goes back
/// to its owner's reserve. The central rosette (s8) is safe: White's man on s6 with a throw of 2 may not land
/// on Black's man on s8; with Black's man on s7 and a throw of 1 it captures it (Black's reserve 6 to 7).
/// White's own squares are never Black's: Black's men on b1-b4 are out of White's way.
#[test]
fn captures_in_the_shared_row_and_the_safe_rosette() {
    let g = ur();
    let s = at(&g, 1, "s6", "s7 b2", (6, 5));
    assert_eq!(
        after_each(&g, &s),
        sorted(&["W[s6 w1] B[b2 s7] r(5,5)", "W[s7] B[b2] r(6,6)"])
    );
    let s = at(&g, 2, "s6", "s8", (6, 6));
    // Only the entry on w2 is left.
    assert_eq!(after_each(&g, &s), sorted(&["W[s6 w2] B[s8] r(5,6)"]));
}

/// A man is borne off by the exact throw to square 15: from w13 with 2, from w14 with 1; from w13 a throw of 3
/// is too many, and only an entry is left. The man borne off leaves the board and the reserve.
#[test]
fn bearing_off_needs_the_exact_throw() {
    let g = ur();
    let s = at(&g, 2, "w13", "", (3, 7));
    assert_eq!(
        after_each(&g, &s),
        sorted(&["W[w13 w2] B[] r(2,7)", "W[] B[] r(3,7)"])
    );
    let s = at(&g, 3, "w13", "", (3, 7));
    assert_eq!(after_each(&g, &s), sorted(&["W[w13 w3] B[] r(2,7)"]));
    let s = at(&g, 1, "w14", "", (0, 7));
    assert_eq!(after_each(&g, &s), sorted(&["W[] B[] r(0,7)"]));
}

/// Landing on a rosette (square 4, 8 or 14 of the track) earns another throw: the next turn is White's first
/// die again, not Black's. Any other landing passes the dice to Black.
#[test]
fn a_rosette_earns_another_throw() {
    let g = ur();
    let e = Engine::new(&g);
    let s = at(&g, 2, "s6 s12", "", (5, 7));
    let white_die = e.initial().turn();
    for m in e.legal_moves(&s).unwrap() {
        let to = g.board.pos_name(m.parts[0].to.unwrap()).to_string();
        let next = e.apply(&s, &m);
        if to == "s8" || to == "w14" {
            assert_eq!(next.turn(), white_die, "{to}: another throw");
        } else {
            assert_ne!(next.turn(), white_die, "{to}: Black's dice");
            assert!(e.is_chance(&next));
        }
    }
}

/// The first to bear off all seven men wins: White's last man, on w14 with a throw of 1, goes off and White
/// has won; with a man still in reserve the game goes on.
#[test]
fn bearing_off_the_last_man_wins() {
    let g = ur();
    let e = Engine::new(&g);
    let s = at(&g, 1, "w14", "s9", (0, 4));
    let moves = e.legal_moves(&s).unwrap();
    assert_eq!(moves.len(), 1);
    let after = e.apply(&s, &moves[0]);
    let next = e.legal_moves(&after).unwrap();
    let o: Option<Outcome> = e.outcome(&after, &next, &[]).unwrap();
    let o = o.expect("the game is over");
    // Results per player in the order White, Black, ?Dice: White wins.
    assert_eq!(o.results[..2], [1, -1], "{o:?}");
    let s = at(&g, 1, "w14", "s9", (1, 4));
    let moves = e.legal_moves(&s).unwrap();
    let off = moves
        .iter()
        .find(|m| g.board.pos_name(m.parts[0].to.unwrap()) == "woff")
        .expect("bearing off");
    let after = e.apply(&s, off);
    let next = e.legal_moves(&after).unwrap();
    assert!(e.outcome(&after, &next, &[]).unwrap().is_none());
}
