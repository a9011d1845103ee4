//! Rule tests for Long Nardy (`games/long-nardy.zrf`, module `long-nardy`), from the rules at the top of that
//! file (the Georgian Sport Nardi Federation's rules; Wikipedia's "Long Nardy"): the throw, the head rule and
//! its first-throw exception, blocking by a single enemy checker, the six-point block, bearing off with a
//! higher number, the use of both dice and of the larger one, the end and the mars. Every expected count is
//! worked out by hand from those rules, the working written beside it; no peer publishes a Long Nardy perft.
//! Points are named from White's side: White moves p24 -> p1 (home p1-p6); Black p12 -> p1 -> p24 -> p13
//! (home p13-p18).

mod common;
#[path = "common/tables.rs"]
mod tables;

use dagaz::engine::{position, Engine, Move, State};
use dagaz::load::{load_game, VariantSel};
use dagaz::Game;
use std::path::Path;
use tables::{count, pos};

fn game(variant: usize) -> Game {
    load_game(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("games/long-nardy.zrf"),
        &VariantSel::Number(variant),
    )
    .unwrap()
}

/// `side`'s checkers in `s`, as "p21 p24x14 offx2" (points in board order, then the tray).
fn of(g: &Game, s: &State, side: &str) -> String {
    let off = if side == "White" { "woff" } else { "boff" };
    let mut names: Vec<String> = (1..=24).map(|i| format!("p{i}")).collect();
    names.push(off.into());
    names
        .iter()
        .filter_map(|p| match count(g, s, side, p) {
            0 => None,
            1 => Some(p.replace(off, "off")),
            n => Some(format!("{}x{n}", p.replace(off, "off"))),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn moves(g: &Game, s: &State) -> Vec<Move> {
    Engine::new(g).legal_moves(s).unwrap()
}

/// The mover's checkers after each legal move, sorted.
fn after_each(g: &Game, s: &State, side: &str) -> Vec<String> {
    let e = Engine::new(g);
    let mut v: Vec<String> = moves(g, s)
        .iter()
        .map(|m| of(g, &e.apply(s, m), side))
        .collect();
    v.sort();
    v
}

fn sorted(v: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

/// The start: fifteen on each head, all 36 throws (a double may come first), White to move after the throw.
const START: [(&str, &str, u8); 2] = [("White", "p24", 15), ("Black", "p12", 15)];

#[test]
fn the_start_holds_fifteen_on_each_head_and_a_throw_is_one_of_36_moves() {
    let g = game(1);
    let e = Engine::new(&g);
    let s = e.initial();
    assert_eq!(of(&g, &s, "White"), "p24x15");
    assert_eq!(of(&g, &s, "Black"), "p12x15");
    assert!(e.is_chance(&s));
    assert_eq!(moves(&g, &s).len(), 36);
}

/// d1 = 36: the 36 ordered throws.
///
/// d2 = 37, White's first turns summed over the throws. Only the head (p24) holds White's checkers and
/// Black's single point is p12.
/// * A non-double a-b (30 ordered throws): one checker only may leave the head, so it plays both numbers:
///   through 24-a or 24-b (both empty) to 24-a-b, which is at least 13, so never Black's p12: one move each
///   (the two orders reach the same point): 30.
/// * 1-1, 2-2, 5-5: no first-throw exception; one checker plays all four: to p20, p16, and for 5-5 through
///   p19, p14, p9 to p4 (none is p12): one move each: 3.
/// * 6-6: one checker reaches p18, and p12 is Black's; the first-throw exception lets a second checker leave:
///   two on p18, the other two sixes cannot be played: 1.
/// * 4-4: likewise two checkers, each p24 -> p20 -> p16 (p16 -> p12 blocked): 1.
/// * 3-3: two checkers may leave, four threes, p12 blocked (p24 -> p21 -> p18 -> p15, and p15 -> p12 is
///   not): {p15, p24-p21}, that is one checker to p15 and one to p21, or two to p18: 2.
///
/// Total 30 + 3 + 1 + 1 + 2 = 37. d3 = 37 x 36 = 1,332 (every position after White's turn has 36 throws).
///
/// d4-d6 (Black's first turn, then White's second) are past a hand count: 1,369, 49,284 and 170,225 agree
/// with `tests/reference/long_nardy_perft.py`, written apart from dagaz from the same rules (and 36, 1,296,
/// 1,296, 46,656, 155,274 for d2-d6 of the narrow head exception, `--narrow`).
#[test]
fn perft_by_hand_from_the_start() {
    let g = game(1);
    let e = Engine::new(&g);
    let s = e.initial();
    let counts: Vec<u64> = (1..=6).map(|d| e.perft(&s, d).unwrap()).collect();
    assert_eq!(counts, [36, 37, 1332, 1369, 49_284, 170_225]);
    let g = game(2);
    let e = Engine::new(&g);
    let s = e.initial();
    let counts: Vec<u64> = (1..=6).map(|d| e.perft(&s, d).unwrap()).collect();
    assert_eq!(counts, [36, 36, 1296, 1296, 46_656, 155_274]);
}

/// The variant with the narrow exception (6-6 and 4-4 only): 3-3 lets one checker leave the head, which
/// plays the four threes as far as it can: p21, p18, p15, then p12 is Black's: one move, three threes used.
/// d2 = 37 - 2 + 1 = 36.
#[test]
fn the_narrow_head_exception_moves_one_checker_on_a_first_3_3() {
    let g = game(2);
    let e = Engine::new(&g);
    assert_eq!(e.perft(&e.initial(), 2).unwrap(), 36);
    let s = pos(&g, "White", (3, 3), &START);
    assert_eq!(after_each(&g, &s, "White"), sorted(&["p15 p24x14"]));
    // The federation's rule: two checkers, the two moves worked out above.
    let g = game(1);
    let s = pos(&g, "White", (3, 3), &START);
    assert_eq!(
        after_each(&g, &s, "White"),
        sorted(&["p15 p21 p24x13", "p18x2 p24x13"])
    );
    let s = pos(&g, "White", (6, 6), &START);
    assert_eq!(after_each(&g, &s, "White"), sorted(&["p18x2 p24x13"]));
    let s = pos(&g, "White", (5, 5), &START);
    assert_eq!(after_each(&g, &s, "White"), sorted(&["p4 p24x14"]));
}

/// The head rule after the first throw: one checker only leaves the head in a turn. White p24 x14 and p13 x1,
/// Black p12 x15, throw 2-1. Steps: from the head by 2 (p22) or 1 (p23); p13 by 2 (p11); p13 by 1 is p12,
/// Black's. Sequences: p24-p22-p21; p24-p23 then p23-p21 (the same) or p13-p11; p13-p11 then p24-p23 (the
/// same) or p11-p10. Not p24-p23 and p24-p22: two checkers off the head. Three moves.
#[test]
fn one_checker_leaves_the_head_in_a_turn() {
    let g = game(1);
    let s = pos(
        &g,
        "White",
        (2, 1),
        &[
            ("White", "p24", 14),
            ("White", "p13", 1),
            ("Black", "p12", 15),
        ],
    );
    assert_eq!(
        after_each(&g, &s, "White"),
        sorted(&["p13 p21 p24x13", "p11 p23 p24x13", "p10 p24x14"])
    );
    // A 6-6 after the first throw (fourteen on the head): one checker to p18, and p18 -> p12 is Black's: one
    // six is played, by one checker.
    let s = pos(
        &g,
        "White",
        (6, 6),
        &[
            ("White", "p24", 14),
            ("White", "p1", 1),
            ("Black", "p12", 15),
        ],
    );
    assert_eq!(after_each(&g, &s, "White"), sorted(&["p1 p18 p24x13"]));
}

/// A single enemy checker blocks its point; nothing is hit. White p24 x15; Black p21 x1 and p12 x14; throw
/// 3-1: p24 -> p21 is blocked, so the one checker off the head goes p24 -> p23 -> p20: one move, Black's
/// checker stays.
#[test]
fn a_single_enemy_checker_blocks_its_point() {
    let g = game(1);
    let e = Engine::new(&g);
    let s = pos(
        &g,
        "White",
        (3, 1),
        &[
            ("White", "p24", 15),
            ("Black", "p21", 1),
            ("Black", "p12", 14),
        ],
    );
    let ms = moves(&g, &s);
    assert_eq!(ms.len(), 1);
    let after = e.apply(&s, &ms[0]);
    assert_eq!(of(&g, &after, "White"), "p20 p24x14");
    assert_eq!(of(&g, &after, "Black"), "p12x14 p21");
}

/// Black's path wraps from p1 to p24. Black p1 x1 and p12 x14 (not a first throw), White p24 x14 and p22 x1;
/// Black throws 2-1. Steps: p1 by 1 is p24 (White's), by 2 p23; the head p12 by 1 p11, by 2 p10.
/// Sequences: p1-p23, then p23-p22 is White's, so p12-p11; p12-p10 then p10-p9 (p1-p24 blocked, the head
/// used); p12-p11 then p11-p9 or p1-p23 (both seen). Two moves.
#[test]
fn blacks_path_runs_from_p1_on_to_p24() {
    let g = game(1);
    let s = pos(
        &g,
        "Black",
        (2, 1),
        &[
            ("Black", "p1", 1),
            ("Black", "p12", 14),
            ("White", "p24", 14),
            ("White", "p22", 1),
        ],
    );
    assert_eq!(
        after_each(&g, &s, "Black"),
        sorted(&["p11 p12x13 p23", "p1 p9 p12x13"])
    );
}

/// Both numbers if possible, else the larger. White p24 x15; Black p13 x1, p12 x14; throw 6-5. p24 -> p18
/// then p18 -> p13 is Black's; p24 -> p19 then p19 -> p13 likewise; a second checker may not leave the head.
/// So only one number can be played, and it must be the 6: one move, to p18.
#[test]
fn when_one_number_only_can_be_played_it_is_the_larger() {
    let g = game(1);
    let s = pos(
        &g,
        "White",
        (6, 5),
        &[
            ("White", "p24", 15),
            ("Black", "p13", 1),
            ("Black", "p12", 14),
        ],
    );
    assert_eq!(after_each(&g, &s, "White"), sorted(&["p18 p24x14"]));
    // With p18 held by Black too, no number can be played from the head: the 5 to p19 is the only step, and
    // it is played.
    let s = pos(
        &g,
        "White",
        (6, 5),
        &[
            ("White", "p24", 15),
            ("Black", "p18", 1),
            ("Black", "p13", 1),
            ("Black", "p12", 13),
        ],
    );
    assert_eq!(after_each(&g, &s, "White"), sorted(&["p19 p24x14"]));
    // With p19 held as well, nothing moves: the turn is passed (one empty move).
    let s = pos(
        &g,
        "White",
        (6, 5),
        &[
            ("White", "p24", 15),
            ("Black", "p19", 1),
            ("Black", "p18", 1),
            ("Black", "p12", 13),
        ],
    );
    let ms = moves(&g, &s);
    assert_eq!(ms.len(), 1);
    assert!(ms[0].parts.is_empty());
}

/// The six-point block. White holds p3, p4, p5, p7, p8 (two each), one checker on p10 and four on p1; Black
/// one checker on p11 and the rest on p12. A checker on p6 would make p3-p8 six points in a row, which along
/// Black's path (p12 ... p1, then p24 ... p13) stand in front of Black's checkers on p11 and p12. Throw 4-1:
/// p10 -> p6 (the 4) or p7 -> p6 (the 1, p7 keeping a checker) would make it. With no Black checker past
/// the block (Black's others all on p12), no legal move makes it, and both numbers are still played by
/// other steps (p10 -> p9, p8 -> p4, ...); with one Black checker on p20 (past it: Black reaches p20 after
/// p1), p10 -> p6 is legal and some move makes the block.
#[test]
fn no_six_point_block_unless_an_enemy_checker_is_past_it() {
    let g = game(1);
    let e = Engine::new(&g);
    let white = [
        ("White", "p10", 1),
        ("White", "p8", 2),
        ("White", "p7", 2),
        ("White", "p5", 2),
        ("White", "p4", 2),
        ("White", "p3", 2),
        ("White", "p1", 4),
    ];
    let block = |s: &State| (3..=8).all(|i| count(&g, s, "White", &format!("p{i}")) > 0);
    let trapped: Vec<_> = white
        .iter()
        .copied()
        .chain([("Black", "p11", 1), ("Black", "p12", 14)])
        .collect();
    let s = pos(&g, "White", (4, 1), &trapped);
    let ms = moves(&g, &s);
    assert!(!ms.is_empty());
    for m in &ms {
        assert!(!block(&e.apply(&s, m)), "{}", m.notation(&g));
        assert_eq!(m.parts.len(), 2, "{}", m.notation(&g));
    }
    let free: Vec<_> = white
        .iter()
        .copied()
        .chain([
            ("Black", "p11", 1),
            ("Black", "p20", 1),
            ("Black", "p12", 13),
        ])
        .collect();
    let s = pos(&g, "White", (4, 1), &free);
    assert!(
        moves(&g, &s).iter().any(|m| block(&e.apply(&s, m))),
        "with a Black checker past the block, it may be made"
    );
}

/// Bearing off. White p5 x1, p2 x14 (all home); Black far away; throw 6-1. The 6 bears off from p5, the
/// highest point (no checker on p6). Sequences: 6 first (p5 off), then the 1: p2 -> p1; or the 1 first:
/// p5 -> p4, then the 6 bears off from p4, now the highest; or p2 -> p1, then the 6 from p5. Two moves:
/// {p1, p2 x13, one off} and {p2 x14, one off}. The 6 never bears off a checker from p2 while p5 is held.
#[test]
fn a_higher_number_bears_off_from_the_highest_point_only() {
    let g = game(1);
    let s = pos(
        &g,
        "White",
        (6, 1),
        &[
            ("White", "p5", 1),
            ("White", "p2", 14),
            ("Black", "p12", 15),
        ],
    );
    assert_eq!(
        after_each(&g, &s, "White"),
        sorted(&["p1 p2x13 off", "p2x14 off"])
    );
    // Not before all fifteen are home: with the checker on p7 instead of p5, nothing is borne off until it
    // is home. The 6 first: p7 -> p1, then the 1 bears off from p1 (exact) or takes p2 -> p1. The 1 first:
    // p7 -> p6, then the 6 bears it off from p6; or p2 -> p1, then the 6 takes p7 -> p1. Positions:
    // {p2 x14, one off} (twice) and {p1 x2, p2 x13}: two moves.
    let s = pos(
        &g,
        "White",
        (6, 1),
        &[
            ("White", "p7", 1),
            ("White", "p2", 14),
            ("Black", "p12", 15),
        ],
    );
    assert_eq!(
        after_each(&g, &s, "White"),
        sorted(&["p2x14 off", "p1x2 p2x13"])
    );
}

/// The first to bear off all fifteen wins; a win before the loser has borne off any is a mars.
#[test]
fn bearing_off_the_last_checker_wins_and_a_shutout_is_a_mars() {
    let g = game(1);
    let e = Engine::new(&g);
    for (black_off, end) in [(0u8, "mars"), (3, "borne-off")] {
        let mut checkers = vec![
            ("White", "p1", 1),
            ("White", "woff", 14),
            ("Black", "p14", 15 - black_off),
        ];
        if black_off > 0 {
            checkers.push(("Black", "boff", black_off));
        }
        let s = pos(&g, "White", (2, 1), &checkers);
        let ms = moves(&g, &s);
        assert_eq!(ms.len(), 1);
        let after = e.apply(&s, &ms[0]);
        let o = e
            .outcome(&after, &moves(&g, &after), &[])
            .unwrap()
            .expect("White has borne off all fifteen");
        assert_eq!(o.results[..2], [1, -1]);
        assert_eq!(o.end_type, end);
    }
    // One checker still on the board after the turn (p6 -> p3 with 1-2): no end.
    let s = pos(
        &g,
        "White",
        (1, 2),
        &[
            ("White", "p6", 1),
            ("White", "woff", 14),
            ("Black", "p14", 15),
        ],
    );
    let after = e.apply(&s, &moves(&g, &s)[0]);
    assert!(e
        .outcome(&after, &moves(&g, &after), &[])
        .unwrap()
        .is_none());
}

/// Along random games: fifteen checkers each wherever they are, the hash stays whole, no player ever holds a
/// six-point block with no enemy checker past it (counted here apart from the module, along the opponent's
/// path), and the game ends by bearing off.
#[test]
fn random_games_keep_the_rules_and_end() {
    let g = game(1);
    let e = Engine::new(&g);
    // The points of `side`'s path, from its head on.
    let path = |side: &str| -> Vec<String> {
        let start = if side == "White" { 24 } else { 12 };
        (0..24)
            .map(|k| format!("p{}", (start - 1 + 24 - k) % 24 + 1))
            .collect()
    };
    for seed in 0..4 {
        let mut rng = dagaz::engine::playout::game_rng(seed, 0);
        let mut s = e.initial();
        let mut ended = false;
        for _ in 0..3000 {
            assert_eq!(s.hash(), s.full_hash());
            for (me, other) in [("White", "Black"), ("Black", "White")] {
                let n: i32 = g
                    .board
                    .positions
                    .iter()
                    .map(|p| count(&g, &s, me, &p.name) as i32)
                    .sum();
                assert_eq!(n, 15, "{me} at ply {}", s.ply());
                // Along `other`'s path: a run of six held by `me` with `other` checkers on the board, none
                // of them past the run.
                let p = path(other);
                let held: Vec<bool> = p.iter().map(|q| count(&g, &s, me, q) > 0).collect();
                let theirs: Vec<bool> = p.iter().map(|q| count(&g, &s, other, q) > 0).collect();
                for start in 0..=18 {
                    if held[start..start + 6].iter().all(|&h| h) {
                        let run_end = (start..24).take_while(|&k| held[k]).last().unwrap();
                        assert!(
                            theirs[run_end + 1..].iter().any(|&t| t) || !theirs.iter().any(|&t| t),
                            "{me} blocks {other} at ply {}: {}",
                            s.ply(),
                            position::format(&g, &s)
                        );
                    }
                }
            }
            let ms = e.legal_moves(&s).unwrap();
            if e.outcome(&s, &ms, &[]).unwrap().is_some() {
                ended = true;
                break;
            }
            s = e.apply(&s, &ms[dagaz::engine::playout::below(&mut rng, ms.len())]);
        }
        assert!(ended, "no end in 3000 plies (seed {seed})");
    }
}

/// Every test of this file once more with the general path forced (`DAGAZ_GENERAL_PATH=1`).
#[test]
fn on_the_general_path() {
    common::rerun_on_general_path("on_the_general_path");
}
