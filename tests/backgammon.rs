//! Rule tests for backgammon (`games/backgammon.zrf`, module `backgammon`), from the published rules (WBF /
//! USBF "Rules of Backgammon"): the throw, hitting a blot, entering from the bar (and a closed board), bearing
//! off, doubles, the use of both dice and of the larger one, the end. Points are named from White's side:
//! White moves towards p1, Black towards p24; Black enters on p1-p6, White on p19-p24.

mod common;
#[path = "common/tables.rs"]
mod tables;

use dagaz::engine::{Engine, Move, State};
use dagaz::load::{load_game, VariantSel};
use dagaz::Game;
use std::path::Path;
use tables::{count, pos};

fn game() -> Game {
    load_game(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("games/backgammon.zrf"),
        &VariantSel::First,
    )
    .unwrap()
}

fn moves(g: &Game, s: &State) -> Vec<Move> {
    Engine::new(g).legal_moves(s).unwrap()
}

fn from_names(g: &Game, m: &Move) -> Vec<String> {
    m.parts
        .iter()
        .map(|p| g.board.pos_name(p.from.unwrap()).to_string())
        .collect()
}

#[test]
fn the_start_holds_fifteen_checkers_each_and_a_throw_is_one_of_36_moves() {
    let g = game();
    let e = Engine::new(&g);
    let s = e.initial();
    for (side, pts) in [
        ("White", ["p24", "p13", "p8", "p6"]),
        ("Black", ["p1", "p12", "p17", "p19"]),
    ] {
        let n: Vec<i8> = pts.iter().map(|p| count(&g, &s, side, p)).collect();
        assert_eq!(n, [2, 5, 3, 5], "{side}");
    }
    assert!(e.is_chance(&s));
    // The opening throw is never a double: 30 throws; later, all 36.
    assert_eq!(moves(&g, &s).len(), 30);
    let after = e.apply(
        &e.apply(&s, &moves(&g, &s)[0]),
        &moves(&g, &e.apply(&s, &moves(&g, &s)[0]))[0],
    );
    assert!(e.is_chance(&after));
    assert_eq!(moves(&g, &after).len(), 36);
}

#[test]
fn a_checker_landing_on_a_blot_sends_it_to_the_bar() {
    let g = game();
    let e = Engine::new(&g);
    // White's checker on p10 throws 3-6: 10/7 lands on Black's blot.
    let s = pos(
        &g,
        "White",
        (3, 6),
        &[
            ("White", "p10", 1),
            ("White", "p24", 14),
            ("Black", "p7", 1),
            ("Black", "p1", 14),
        ],
    );
    let hits: Vec<State> = moves(&g, &s)
        .iter()
        .map(|m| e.apply(&s, m))
        .filter(|a| count(&g, a, "Black", "bbar") == 1)
        .collect();
    assert!(!hits.is_empty(), "no move hits the blot on p7");
    // The notation shows the hit: `p10-p7 Checker@bbar p7-p1` and the like.
    for m in moves(&g, &s) {
        let hit = count(&g, &e.apply(&s, &m), "Black", "bbar") == 1;
        assert_eq!(
            m.notation(&g).contains("Checker@bbar"),
            hit,
            "{}",
            m.notation(&g)
        );
    }
    for a in &hits {
        assert_eq!(count(&g, a, "Black", "p7"), 0);
    }
    // A point held by two enemy checkers cannot be landed on.
    let s = pos(
        &g,
        "White",
        (3, 6),
        &[
            ("White", "p10", 1),
            ("White", "p24", 14),
            ("Black", "p7", 2),
            ("Black", "p1", 13),
        ],
    );
    for m in moves(&g, &s) {
        assert!(
            m.parts
                .iter()
                .all(|p| g.board.pos_name(p.to.unwrap()) != "p7"),
            "{}",
            m.notation(&g)
        );
    }
}

#[test]
fn a_checker_on_the_bar_enters_before_any_other_move() {
    let g = game();
    // White on the bar throws 3-1: it enters on p22 or p24, then plays the other number.
    let s = pos(
        &g,
        "White",
        (3, 1),
        &[
            ("White", "wbar", 1),
            ("White", "p13", 14),
            ("Black", "p1", 15),
        ],
    );
    let ms = moves(&g, &s);
    assert!(!ms.is_empty());
    for m in &ms {
        assert_eq!(from_names(&g, m)[0], "wbar", "{}", m.notation(&g));
        let to = g.board.pos_name(m.parts[0].to.unwrap());
        assert!(to == "p22" || to == "p24", "{}", m.notation(&g));
    }
    // Two on the bar and a throw of 3-1: both must enter; no other checker moves.
    let s = pos(
        &g,
        "White",
        (3, 1),
        &[
            ("White", "wbar", 2),
            ("White", "p13", 13),
            ("Black", "p1", 15),
        ],
    );
    for m in moves(&g, &s) {
        assert_eq!(from_names(&g, &m), ["wbar", "wbar"], "{}", m.notation(&g));
    }
}

#[test]
fn a_closed_board_keeps_the_checker_on_the_bar_and_the_turn_is_lost() {
    let g = game();
    let e = Engine::new(&g);
    let mut black = vec![];
    for p in ["p19", "p20", "p21", "p22", "p23", "p24"] {
        black.push(("Black", p, 2));
    }
    black.push(("Black", "p1", 3));
    let mut all = vec![("White", "wbar", 1), ("White", "p13", 14)];
    all.extend(black.iter().copied());
    let s = pos(&g, "White", (6, 5), &all);
    let ms = moves(&g, &s);
    assert_eq!(ms.len(), 1);
    assert!(ms[0].is_pass(), "{}", ms[0].notation(&g));
    // With one point open (p22 for a 3), the checker enters.
    all.retain(|c| c.1 != "p22");
    all.push(("Black", "p1", 5));
    let s = pos(&g, "White", (6, 3), &all);
    let ms = moves(&g, &s);
    assert!(ms
        .iter()
        .all(|m| from_names(&g, m)[0] == "wbar" && !m.is_pass()));
    assert!(e.outcome(&s, &ms, &[]).unwrap().is_none());
}

#[test]
fn bearing_off_needs_all_fifteen_home_and_a_higher_number_takes_the_highest_point() {
    let g = game();
    let e = Engine::new(&g);
    // All home: a 6 and a 5 bear off from p6 and p5.
    let s = pos(
        &g,
        "White",
        (6, 5),
        &[
            ("White", "p6", 5),
            ("White", "p5", 5),
            ("White", "p2", 5),
            ("Black", "p24", 15),
        ],
    );
    let off = |s: &State, m: &Move| count(&g, &e.apply(s, m), "White", "woff");
    assert!(moves(&g, &s).iter().any(|m| off(&s, m) == 2));
    // One checker outside, on p9: a 1 and a 2 cannot bring it home before the dice are used up, so nothing
    // is borne off.
    let s = pos(
        &g,
        "White",
        (1, 2),
        &[
            ("White", "p9", 1),
            ("White", "p6", 4),
            ("White", "p5", 5),
            ("White", "p2", 5),
            ("Black", "p24", 15),
        ],
    );
    assert!(moves(&g, &s).iter().all(|m| off(&s, m) == 0));
    // On p7, the 1 brings it home (7/6) and then the 2 bears off from p2, in the same turn.
    let s = pos(
        &g,
        "White",
        (1, 2),
        &[
            ("White", "p7", 1),
            ("White", "p6", 4),
            ("White", "p5", 5),
            ("White", "p2", 5),
            ("Black", "p24", 15),
        ],
    );
    assert!(moves(&g, &s).iter().any(|m| off(&s, m) == 1));
    assert!(moves(&g, &s)
        .iter()
        .all(|m| off(&s, m) == 0 || count(&g, &e.apply(&s, m), "White", "p7") == 0));
    // A 6 with the highest checker on p4 bears off from p4; a 6 with a checker on p6 must take it from p6.
    let s = pos(
        &g,
        "White",
        (6, 6),
        &[
            ("White", "p4", 2),
            ("White", "p1", 1),
            ("White", "woff", 12),
            ("Black", "p24", 15),
        ],
    );
    let ms = moves(&g, &s);
    assert_eq!(ms.len(), 1);
    let after = e.apply(&s, &ms[0]);
    assert_eq!(count(&g, &after, "White", "woff"), 15);
    // The game is over when the fifteenth checker is off.
    let o = e
        .outcome(&after, &moves(&g, &after), &[])
        .unwrap()
        .expect("White has borne off all");
    assert_eq!(o.results[..2], [1, -1]);
    assert_eq!(o.end_type, "borne-off");
}

#[test]
fn a_double_is_played_four_times() {
    let g = game();
    let s = pos(
        &g,
        "White",
        (2, 2),
        &[("White", "p13", 15), ("Black", "p1", 15)],
    );
    let ms = moves(&g, &s);
    assert!(!ms.is_empty());
    for m in &ms {
        assert_eq!(m.parts.len(), 4, "{}", m.notation(&g));
    }
    // From p13, steps of 2: p11, p9, p7, p5 open: the distinct ways of moving 8 pips with one to four
    // checkers: 13/5, 13/7 13/11, 13/9 13/9, 13/9 13/11 13/11, 13/11 x4.
    assert_eq!(ms.len(), 5);
}

#[test]
fn both_numbers_must_be_used_when_possible() {
    let g = game();
    let e = Engine::new(&g);
    // 6-5. A on p13: 13/7 then no 5 for anyone (7/2, 20/15 blocked); 13/8 then 20/14 uses both. The only
    // move is 13/8 20/14, though 13/7 plays the larger number.
    let s = pos(
        &g,
        "White",
        (6, 5),
        &[
            ("White", "p13", 1),
            ("White", "p20", 1),
            ("White", "woff", 13),
            ("Black", "p2", 2),
            ("Black", "p15", 2),
            ("Black", "p9", 2),
            ("Black", "p1", 9),
        ],
    );
    let ms = moves(&g, &s);
    assert_eq!(
        ms.len(),
        1,
        "{:?}",
        ms.iter().map(|m| m.notation(&g)).collect::<Vec<_>>()
    );
    let after = e.apply(&s, &ms[0]);
    assert_eq!(count(&g, &after, "White", "p8"), 1);
    assert_eq!(count(&g, &after, "White", "p14"), 1);
}

#[test]
fn when_only_one_number_can_be_used_it_is_the_larger() {
    let g = game();
    let e = Engine::new(&g);
    // 6-5 for a lone checker on p13 (the rest borne off): 13/7 or 13/8, but p2 is closed, so only one number
    // is played: the 6.
    let s = pos(
        &g,
        "White",
        (5, 6),
        &[
            ("White", "p13", 1),
            ("White", "woff", 14),
            ("Black", "p2", 2),
            ("Black", "p1", 13),
        ],
    );
    let ms = moves(&g, &s);
    assert_eq!(ms.len(), 1);
    assert_eq!(count(&g, &e.apply(&s, &ms[0]), "White", "p7"), 1);
    // With p7 closed as well, the 5 is the only number that can be played, and it is.
    let s = pos(
        &g,
        "White",
        (5, 6),
        &[
            ("White", "p13", 1),
            ("White", "woff", 14),
            ("Black", "p2", 2),
            ("Black", "p7", 2),
            ("Black", "p1", 11),
        ],
    );
    let ms = moves(&g, &s);
    assert_eq!(ms.len(), 1);
    assert_eq!(count(&g, &e.apply(&s, &ms[0]), "White", "p8"), 1);
}

#[test]
fn random_games_end_with_all_checkers_borne_off_and_the_hash_stays_whole() {
    let g = game();
    let e = Engine::new(&g);
    let mut rng = dagaz::engine::playout::game_rng(3, 0);
    let mut s = e.initial();
    for _ in 0..2000 {
        assert_eq!(s.hash(), s.full_hash());
        let ms = e.legal_moves(&s).unwrap();
        if e.outcome(&s, &ms, &[]).unwrap().is_some() {
            return;
        }
        s = e.apply(&s, &ms[dagaz::engine::playout::below(&mut rng, ms.len())]);
        // Fifteen checkers each, wherever they are.
        for side in ["White", "Black"] {
            let n: i32 = g
                .board
                .positions
                .iter()
                .map(|p| count(&g, &s, side, &p.name) as i32)
                .sum();
            assert_eq!(n, 15, "{side} at ply {}", s.ply());
        }
    }
    panic!("no end in 2000 plies");
}

/// Every test of this file once more with the general path forced (`DAGAZ_GENERAL_PATH=1`).
#[test]
fn on_the_general_path() {
    common::rerun_on_general_path("on_the_general_path");
}
