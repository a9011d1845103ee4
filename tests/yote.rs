//! Rule tests for `games/yote.zrf`, from the rules written at the top of that file. Every expected count or
//! board is worked out by hand from those rules, the working written beside it. The board has files a-f and
//! ranks 1-5.

use dagaz::engine::{position, Engine, State};
use dagaz::load::{load_game, VariantSel};
use std::path::Path;

fn yote() -> dagaz::Game {
    load_game(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("games/yote.zrf"),
        &VariantSel::First,
    )
    .unwrap()
}

/// White to move with stones on `white`, Black's on `black`, and the given stones in hand.
fn at(g: &dagaz::Game, white: &str, black: &str, hands: (u32, u32)) -> State {
    let mut text = "turn White\n".to_string();
    for p in white.split_whitespace() {
        text += &format!("piece White Stone {p}\n");
    }
    for p in black.split_whitespace() {
        text += &format!("piece Black Stone {p}\n");
    }
    if hands.0 > 0 {
        text += &format!("reserve White Stone {}\n", hands.0);
    }
    if hands.1 > 0 {
        text += &format!("reserve Black Stone {}\n", hands.1);
    }
    position::parse(g, &text).unwrap()
}

/// The stones after each legal move that moves a stone (drops left out), as `W[...] B[...]`, sorted.
fn boards_after_moves(g: &dagaz::Game, s: &State) -> Vec<String> {
    let e = Engine::new(g);
    let mut out: Vec<String> = e
        .legal_moves(s)
        .unwrap()
        .iter()
        .filter(|m| m.parts[0].from.is_some())
        .map(|m| board(g, &e.apply(s, m)))
        .collect();
    out.sort();
    out
}

fn board(g: &dagaz::Game, s: &State) -> String {
    let text = position::format(g, s);
    let of = |owner: &str| {
        let mut v: Vec<&str> = text
            .lines()
            .filter_map(|l| l.strip_prefix(&format!("piece {owner} Stone ")))
            .collect();
        v.sort();
        v.join(" ")
    };
    format!("W[{}] B[{}]", of("White"), of("Black"))
}

fn sorted(v: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

/// Perft by hand. Ply 1: a stone on any of the 30 squares, 30. Ply 2: Black has only drops, 29 squares each,
/// 870. Ply 3: White drops on 28 squares (870 x 28 = 24,360), or steps its stone to an empty neighbour: summed
/// over the 870 boards, each neighbour of White's stone is empty on the 28 boards of the 29 where Black's stone is
/// elsewhere, so 28 x (the sum of the squares' neighbours, 2 x 49 links of the 6 x 5 grid = 98) = 2,744; or
/// jumps Black's stone when it is adjacent and a square lies beyond: one board per (square, direction) with two
/// squares beyond it, 2 x (5 rows x 4 + 6 files x 3) = 76, and no second stone to take. 24,360 + 2,744 + 76 =
/// 27,180. d4, 823,848, agrees with `tests/reference/yote_perft.py`, written apart from dagaz.
#[test]
fn perft_by_hand_from_the_start() {
    let g = yote();
    let e = Engine::new(&g);
    let s = e.initial();
    let counts: Vec<u64> = (1..=4).map(|d| e.perft(&s, d).unwrap()).collect();
    assert_eq!(counts, [30, 870, 27_180, 823_848]);
}

/// A capture takes the stone jumped and one more enemy stone of the mover's choice, from the board: White on c3
/// jumping Black's d3 to e3, with Black's other stones on a1, f5 and e4, gives three moves, one per second
/// stone. Steps from c3: c2, c4, b3 (d3 is taken). Black's stones in hand are never taken.
#[test]
fn a_capture_takes_a_second_stone_of_the_capturers_choice() {
    let g = yote();
    let s = at(&g, "c3", "d3 a1 f5 e4", (11, 8));
    assert_eq!(
        boards_after_moves(&g, &s),
        sorted(&[
            "W[b3] B[a1 d3 e4 f5]",
            "W[c2] B[a1 d3 e4 f5]",
            "W[c4] B[a1 d3 e4 f5]",
            "W[e3] B[e4 f5]",
            "W[e3] B[a1 f5]",
            "W[e3] B[a1 e4]",
        ])
    );
}

/// With no other enemy stone on the board the jump takes the one stone alone (Black's stones in hand stay):
/// c3 over d3 to e3 is one move. Jumps do not chain: from a3 over b3 to c3, with Black's d3 beyond and e3 empty,
/// the second stone (d3) is taken by the capturer's choice, and no move goes on to jump it and land on e3.
#[test]
fn a_lone_enemy_stone_is_taken_alone_and_jumps_do_not_chain() {
    let g = yote();
    let s = at(&g, "c3", "d3", (11, 5));
    let e = Engine::new(&g);
    let jumps: Vec<String> = e
        .legal_moves(&s)
        .unwrap()
        .iter()
        .filter(|m| m.captures() > 0)
        .map(|m| board(&g, &e.apply(&s, m)))
        .collect();
    assert_eq!(jumps, ["W[e3] B[]"]);
    // Chains: White a3, Black b3 and d3 with c3 and e3 empty. One jump (a3 x b3 to c3) and the second stone
    // (d3) is taken by choice, not by a second jump; a chained jump would also reach e3.
    let s = at(&g, "a3", "b3 d3", (11, 5));
    let jumps: Vec<String> = e
        .legal_moves(&s)
        .unwrap()
        .iter()
        .filter(|m| m.captures() > 0)
        .map(|m| board(&g, &e.apply(&s, m)))
        .collect();
    assert_eq!(jumps, ["W[c3] B[]"]);
}

/// Capturing is never compulsory: with a capture available White may still drop or step. Here White's c3 may
/// jump d3 (1 move, Black has no other stone on the board), step to c2, c4, b3 (3), or drop on the 28 empty
/// squares: 32 moves.
#[test]
fn capturing_is_not_compulsory() {
    let g = yote();
    let s = at(&g, "c3", "d3", (11, 11));
    assert_eq!(Engine::new(&g).legal_moves(&s).unwrap().len(), 32);
}

/// A player with no stone left, on the board or in hand, has lost: Black's last stone on d3 is jumped.
/// A player who cannot move ends the game and the one with more stones wins: White, with no stone in hand and
/// its only stone boxed in a corner, has no move; Black has more stones.
#[test]
fn losing_all_stones_loses_and_no_move_counts_the_stones() {
    let g = yote();
    let e = Engine::new(&g);
    let s = at(&g, "c3", "d3", (0, 0));
    let capture = e
        .legal_moves(&s)
        .unwrap()
        .into_iter()
        .find(|m| m.captures() > 0)
        .unwrap();
    let after = e.apply(&s, &capture);
    let moves = e.legal_moves(&after).unwrap();
    let o = e.outcome(&after, &moves, &[]).unwrap().expect("over");
    assert_eq!(o.results, [1, -1], "{o:?}");
    // White's a1 boxed by Black's a2 and b1, with a3 and c1 Black too, so no jump lands: no move for White.
    let s = at(&g, "a1", "a2 b1 a3 c1", (0, 0));
    let moves = e.legal_moves(&s).unwrap();
    let o = e.outcome(&s, &moves, &[]).unwrap().expect("over");
    assert_eq!(o.results, [-1, 1], "{o:?}");
}
