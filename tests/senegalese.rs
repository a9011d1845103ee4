//! Rule tests for `games/senegalese-draughts.zrf`, from the rules written at the top of that file. Every
//! expected count or board is worked out by hand from those rules, the working written beside it; none was
//! taken from dagaz's output. No peer publishes a perft for Senegalese draughts. The board has files a-f and
//! ranks 1-5; White moves north (forward) and sideways, Black south and sideways.

use dagaz::engine::{position, Engine, State};
use dagaz::load::{load_game, VariantSel};
use std::path::Path;

fn senegalese() -> dagaz::Game {
    load_game(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("games/senegalese-draughts.zrf"),
        &VariantSel::First,
    )
    .unwrap()
}

/// `turn` to move, with White's men on `white` and Black's on `black`.
fn at(g: &dagaz::Game, turn: &str, white: &str, black: &str) -> State {
    let mut text = format!("turn {turn}\n");
    for p in white.split_whitespace() {
        text += &format!("piece White Man {p}\n");
    }
    for p in black.split_whitespace() {
        text += &format!("piece Black Man {p}\n");
    }
    position::parse(g, &text).unwrap()
}

/// The men on the board as `W[...] B[...]`, each list sorted.
fn board(g: &dagaz::Game, s: &State) -> String {
    let text = position::format(g, s);
    let of = |owner: &str| {
        let mut v: Vec<&str> = text
            .lines()
            .filter_map(|l| l.strip_prefix(&format!("piece {owner} Man ")))
            .collect();
        v.sort();
        v.join(" ")
    };
    format!("W[{}] B[{}]", of("White"), of("Black"))
}

/// The board after each legal move, with the number of men the move takes (`captures()`), sorted.
fn after_each_move(g: &dagaz::Game, s: &State) -> Vec<String> {
    let e = Engine::new(g);
    let mut out: Vec<String> = e
        .legal_moves(s)
        .unwrap()
        .iter()
        .map(|m| format!("{} x{}", board(g, &e.apply(s, m)), m.captures()))
        .collect();
    out.sort();
    out
}

fn sorted(v: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

/// Perft from the start, by hand. White: a1-f1, a2-f2, e3, f3; Black: a5-f5, a4-f4, a3, b3; c3 and d3 empty.
///
/// Depth 1 (3): c2-c3, d2-d3 and e3-d3 (west). Every other man is blocked ahead and beside, and no jump lands on
/// an empty square (a2 over a3, b2 over b3, e3 over e4, f3 over f4: a4, b4, e5, f5 are occupied).
///
/// Depth 2 (6): after e3-d3 Black has no capture (d4 over d3 lands on d2, occupied) and three steps: b3-c3
/// (east), c4-c3 and e4-e3 (south). After c2-c3 Black must capture, and has two: c4 over c3 to c2, and b3
/// over c3 to d3; neither goes on (from c2: c1 beyond the board, d2 and b2 with e2 and a2 behind occupied;
/// from d3: d2 with d1 behind, e3 with f3 behind). After d2-d3: d4 over d3 to d2 only (from d2 nothing goes
/// on: d1 is the edge, c2 and e2 have b2 and f2 behind them). 3 + 2 + 1.
///
/// Depth 3 (6): each line leaves White one move, a forced capture that does not go on:
/// * e3-d3 b3-c3: d3 over c3 to b3 (c2 over c3 lands on c4, occupied);
/// * e3-d3 c4-c3: c2 over c3 to c4 (d3 over c3 lands on b3, occupied);
/// * e3-d3 e4-e3: e2 over e3 to e4 (d3 over e3 and f3 over e3 land on own men);
/// * c2-c3 c4xc2: c1 over c2 to c3 (b2 and d2 over c2 land on own men);
/// * c2-c3 b3xd3: e3 over d3 to c3 (d2 over d3 lands on d4, occupied);
/// * d2-d3 d4xd2: d1 over d2 to d3.
///
/// Depth 4 (10): Black's replies in those six positions.
/// * after d3xb3: a3 over b3 to c3, forced (b4 over b3 lands on b2): 1;
/// * after c2xc4: c5 over c4 to c3, and from c3 on over d3 to e3 (must go on): 1;
/// * after e2xe4: e5 over e4 to e3, and from e3 on over d3 to c3: 1;
/// * after c1xc3: b3 over c3 to d3: 1;
/// * after e3xc3: c4 over c3 to c2: 1;
/// * after d1xd3 no capture (d3's neighbours c3 and d4 are empty; e4 over e3, f4 over f3, a3 over a2, b3 over
///   b2 all land on occupied squares) and five steps: d5-d4, c4-c3, c4-d4, e4-d4, b3-c3: 5.
///
/// Depth 5 (29): White's replies.
/// * after a3xb3: no capture (b3 and d3 empty, so nothing stands beside c3); steps a2-a3, b2-b3, d2-d3,
///   e2-e3, f3-e3: 5;
/// * after c5xc4xd3: f3 over e3 to d3, forced, not going on (d4 with d5 behind): 1;
/// * after e5xe4xd3: no capture (c2 over c3 lands on c4; b2 over b3 on b4; f3 over f4 on f5); steps e1-e2,
///   d2-d3, d2-e2, f2-e2, f3-e3: 5;
/// * after b3xd3: e3 over d3 to c3: 1;
/// * after c4xc2: c1 over c2 to c3: 1;
/// * after d5-d4: d3 over d4 to d5, the far rank, with no sideways jump (c5, e5 have b5, f5 behind): 1;
///   after c4-c3: c2 over c3 to c4 (d3 over c3 lands on b3): 1; after c4-d4: no capture, steps c1-d1, e1-d1,
///   c2-c3, c2-d2, e2-d2, d3-c3: 6; after e4-d4: steps c1-d1, e1-d1, c2-c3, c2-d2, e2-d2, d3-c3, e3-e4: 7;
///   after b3-c3: d3 over c3 to b3 (c2 over c3 lands on c4): 1. 16 in all.
///
/// 5 + 1 + 5 + 1 + 1 + 16 = 29.
///
/// Deeper, d6-d10 agree with `tests/reference/senegalese_perft.py`, a generator written apart from dagaz from
/// the same rules (`python3 tests/reference/senegalese_perft.py 13`: d11-d13 86,422, 400,895, 1,942,492 agree
/// too). d6 is the first depth where the far-rank rule counts: 90, and 88 for a file that keeps the man
/// (`--no-removal`; the line is worked by hand in the next test).
#[test]
fn perft_by_hand_from_the_start() {
    let g = senegalese();
    let e = Engine::new(&g);
    let s = e.initial();
    let counts: Vec<u64> = (1..=10).map(|d| e.perft(&s, d).unwrap()).collect();
    assert_eq!(counts, [3, 6, 6, 10, 29, 90, 295, 1_142, 4_618, 19_694]);
}

/// The first move that ends on the far rank, by hand: 1.d2-d3 d4xd2 2.d1xd3 d5-d4 3.d3xd5. The man that
/// lands on d5 cannot jump on (c5 and e5 are Black with b5 and f5 behind them), so it leaves the board: White
/// has 12 men, Black 12 (d4 and d2 taken), and d3, d4, d5 are empty. Black then has no capture (e4 over e3,
/// f4 over f3, a3 over a2, b3 over b2 all land on occupied squares) and six steps: c5-d5, e5-d5, c4-d4, e4-d4,
/// c4-c3, b3-c3. Were the man to stay on d5, c5-d5 and e5-d5 would not exist: 4.
#[test]
fn a_capture_that_ends_on_the_far_rank_removes_the_capturer() {
    let g = senegalese();
    let e = Engine::new(&g);
    let s = at(
        &g,
        "White",
        "a1 b1 c1 e1 f1 a2 b2 c2 e2 f2 d3 e3 f3",
        "a5 b5 c5 e5 f5 a4 b4 c4 d4 e4 f4 a3 b3",
    );
    let ms = e.legal_moves(&s).unwrap();
    assert_eq!(ms.len(), 1, "the capture d3 over d4 is forced");
    let after = e.apply(&s, &ms[0]);
    assert_eq!(
        board(&g, &after),
        "W[a1 a2 b1 b2 c1 c2 e1 e2 e3 f1 f2 f3] B[a3 a4 a5 b3 b4 b5 c4 c5 e4 e5 f4 f5]"
    );
    assert_eq!(
        ms[0].captures(),
        1,
        "the man that leaves is not a piece taken"
    );
    assert_eq!(e.legal_moves(&after).unwrap().len(), 6);
}

/// A step onto the far rank removes the man, and takes nothing. White's c4 with Black's man on a3: c4-c5
/// (the man leaves), c4-b4, c4-d4. After c4-c5 White has no man left and has lost.
#[test]
fn a_step_onto_the_far_rank_removes_the_man() {
    let g = senegalese();
    let e = Engine::new(&g);
    let s = at(&g, "White", "c4", "a3");
    assert_eq!(
        after_each_move(&g, &s),
        sorted(&["W[] B[a3] x0", "W[b4] B[a3] x0", "W[d4] B[a3] x0"])
    );
    let leave = e
        .legal_moves(&s)
        .unwrap()
        .into_iter()
        .find(|m| board(&g, &e.apply(&s, m)) == "W[] B[a3]")
        .unwrap();
    let after = e.apply(&s, &leave);
    let ms = e.legal_moves(&after).unwrap();
    let o = e.outcome(&after, &ms, &[]).unwrap().expect("over");
    assert_eq!((o.results, o.name.as_str()), (vec![-1, 1], "no men"));
}

/// A jump onto the far rank from which a sideways jump exists goes on along the far rank, and the man leaves
/// where the chain ends. White c3, a1; Black c4, d5, a5: c3 over c4 to c5, then (compulsory) over d5 to e5;
/// from e5 nothing more (f5 is empty, nothing to jump), so the man leaves: White keeps a1, Black keeps a5, two
/// men taken. The same westward: Black c4, b5 (a5 empty): c3 over c4 to c5, over b5 to a5, and leaves.
/// Without a sideways jump (Black c4 alone beside empty squares) the man leaves on c5 after one jump.
#[test]
fn a_jump_onto_the_far_rank_goes_on_sideways_and_the_man_leaves_where_it_ends() {
    let g = senegalese();
    let s = at(&g, "White", "c3 a1", "c4 d5 a5");
    assert_eq!(after_each_move(&g, &s), ["W[a1] B[a5] x2"]);
    let s = at(&g, "White", "c3 f1", "c4 b5 f4");
    assert_eq!(after_each_move(&g, &s), ["W[f1] B[f4] x2"]);
    let s = at(&g, "White", "c3 f1", "c4 f4");
    assert_eq!(after_each_move(&g, &s), ["W[f1] B[f4] x1"]);
}

/// Men move and capture forward and sideways, never backward, and capturing is compulsory.
///
/// White c3 with Black c2 behind it (c1 empty) and Black f5 far away: no backward jump; steps c3-c4, c3-b3,
/// c3-d3: 3. White c3 and e2, Black d3 beside c3 (e3 empty) and a5: the capture c3 over d3 to e3 is the only
/// move: e2 has no capture, and its steps are illegal beside a capture.
#[test]
fn men_never_go_back_and_must_capture() {
    let g = senegalese();
    let s = at(&g, "White", "c3", "c2 f5");
    assert_eq!(
        after_each_move(&g, &s),
        sorted(&[
            "W[c4] B[c2 f5] x0",
            "W[b3] B[c2 f5] x0",
            "W[d3] B[c2 f5] x0"
        ])
    );
    let s = at(&g, "White", "c3 e2", "d3 a5");
    assert_eq!(after_each_move(&g, &s), ["W[e2 e3] B[a5] x1"]);
}

/// A player who cannot move ends the game, and the one with more men wins. White's a1 is boxed in: Black's
/// a2 and b1 beside it with a3 and c1 behind them. White (1 man) cannot move; Black has 4 men and wins.
#[test]
fn no_move_ends_the_game_and_more_men_win() {
    let g = senegalese();
    let e = Engine::new(&g);
    let s = at(&g, "White", "a1", "a2 b1 a3 c1");
    let ms = e.legal_moves(&s).unwrap();
    assert!(ms.is_empty());
    let o = e.outcome(&s, &ms, &[]).unwrap().expect("over");
    assert_eq!((o.results, o.name.as_str()), (vec![-1, 1], "no move"));
}
