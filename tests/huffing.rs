//! Huffing, `(huffing T...)` (docs/language.md, "Huffing"). The rules, from the founding article seed 003
//! (`../shared/seeds/`, the "rule of wrath") and Damii's rules in `games/damii.zrf`: capturing is never
//! compulsory; a piece that could capture when its player moved without capturing, or the capturing piece of a
//! chain that stopped where it could have gone on, may be removed by the opponent at the next turn, who then
//! makes an ordinary move in the same turn; a mark lapses once the opponent has had that turn.
//!
//! The positions use Damii (`games/damii.zrf`: International draughts' board, White moving up from rank 1;
//! men step forward diagonally and capture in all four diagonals; chains may stop). Every count below is
//! worked by hand from those rules (the plan `docs/plans/issue24-next-games.md`, section 6, re-checked here).

use dagaz::engine::{position, Engine, EngineOptions, Move, State};
use dagaz::lang::read_str;
use dagaz::load::compile_source as compile;
use std::path::Path;

fn compile_text(src: &str) -> Result<dagaz::Game, Vec<String>> {
    let read = read_str("inline.zrf", src, Path::new("."));
    if read.has_errors() {
        return Err(read.diagnostics.iter().map(|d| format!("{d:?}")).collect());
    }
    let mut diags = vec![];
    let g = compile(&read.games[0], &mut diags);
    let errors: Vec<String> = diags
        .iter()
        .filter(|d| d.is_error())
        .map(|d| format!("{}:{:?}", d.message, d.span))
        .collect();
    if !errors.is_empty() {
        return Err(errors);
    }
    g.ok_or_else(|| vec!["no game".into()])
}

fn damii() -> dagaz::Game {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("games/damii.zrf");
    compile_text(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn sorted(g: &dagaz::Game, moves: &[Move]) -> Vec<String> {
    let mut v: Vec<String> = moves.iter().map(|m| m.notation(g)).collect();
    v.sort();
    v
}

fn find<'a>(g: &dagaz::Game, moves: &'a [Move], notation: &str) -> &'a Move {
    moves
        .iter()
        .find(|m| m.notation(g) == notation)
        .unwrap_or_else(|| panic!("no move {notation} in {:?}", sorted(g, moves)))
}

/// The positions holding a marked (`huffable`) piece, by name.
fn marked(g: &dagaz::Game, s: &State) -> Vec<String> {
    let text = position::format(g, s);
    let mut v: Vec<String> = text
        .lines()
        .filter(|l| l.starts_with("piece ") && l.split_whitespace().any(|w| w == "huffable"))
        .map(|l| l.split_whitespace().nth(3).unwrap().to_string())
        .collect();
    v.sort();
    v
}

fn perft(e: &Engine, s: &State, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = e.legal_moves(s).unwrap();
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|m| perft(e, &e.apply(s, m), depth - 1))
        .sum()
}

/// H1: White men c3, i1; Black men d4, a9; White to move.
const H1: &str =
    "turn White\npiece White Man c3\npiece White Man i1\npiece Black Man d4\npiece Black Man a9\n";

/// White: c3-b4, c3xe5, i1-h2, i1-j2 = 4 (capture not forced). After each of the three quiet moves c3 (or b4,
/// where it went) is marked: Black has its 3 ordinary moves and 3 huffs (remove the marked man, then the 3
/// moves of the position without it), 6 each; after c3xe5 Black has a9-b8 alone. d2 = 6 + 6 + 6 + 1 = 19.
#[test]
fn h1_counts_by_hand() {
    let g = damii();
    for options in [EngineOptions::default(), EngineOptions::general()] {
        let e = Engine::with_options(&g, options);
        let s = position::parse(&g, H1).unwrap();
        let first = e.legal_moves(&s).unwrap();
        assert_eq!(
            sorted(&g, &first),
            ["c3-b4", "c3-e5xd4", "i1-h2", "i1-j2"],
            "White's moves in H1"
        );
        let after = e.apply(&s, find(&g, &first, "i1-h2"));
        assert_eq!(marked(&g, &after), ["c3"], "c3 could capture and did not");
        assert_eq!(
            sorted(&g, &e.legal_moves(&after).unwrap()),
            [
                "a9-b8",
                "d4-b2xc3",
                "d4-e3",
                "xc3 a9-b8",
                "xc3 d4-c3",
                "xc3 d4-e3"
            ],
            "Black after i1-h2: 3 ordinary moves, 3 huffs"
        );
        let after = e.apply(&s, find(&g, &first, "c3-b4"));
        assert_eq!(marked(&g, &after), ["b4"], "the mark travels with the man");
        assert_eq!(e.legal_moves(&after).unwrap().len(), 6);
        let after = e.apply(&s, find(&g, &first, "c3-e5xd4"));
        assert!(marked(&g, &after).is_empty(), "a capture marks nothing");
        assert_eq!(sorted(&g, &e.legal_moves(&after).unwrap()), ["a9-b8"]);
        assert_eq!(perft(&e, &s, 1), 4);
        assert_eq!(perft(&e, &s, 2), 19);
        assert_eq!(e.perft(&s, 2).unwrap(), 19);
    }
}

/// A huff removes the piece, then the move is made: after i1-h2, "xc3 d4-c3" leaves White i1's man on h2
/// alone against d4's man now on c3 and a9's; no mark remains (Black moved quietly with no capture possible
/// once c3 was gone: d4 could not capture in the position without c3).
#[test]
fn a_huff_removes_the_marked_piece() {
    let g = damii();
    let e = Engine::new(&g);
    let s = position::parse(&g, H1).unwrap();
    let s = e.apply(&s, find(&g, &e.legal_moves(&s).unwrap(), "i1-h2"));
    let moves = e.legal_moves(&s).unwrap();
    let huff = find(&g, &moves, "xc3 d4-c3");
    let after = e.apply(&s, huff);
    let text = position::format(&g, &after);
    assert!(
        !text.contains(" c3 ") || text.contains("Black Man c3"),
        "{text}"
    );
    assert_eq!(
        text.lines()
            .filter(|l| l.starts_with("piece White"))
            .count(),
        1,
        "{text}"
    );
    assert!(marked(&g, &after).is_empty(), "{text}");
    // Not huffing is allowed too: the quiet a9-b8 keeps Black's d4, which could capture c3, marked.
    let after = e.apply(&s, find(&g, &moves, "a9-b8"));
    assert_eq!(marked(&g, &after), ["d4"], "Black's d4 ignored its capture");
}

/// A mark lapses after one opponent turn, and a capture clears the mover's marks: after i1-h2 (c3 marked)
/// and Black's a9-b8 without huffing, c3's mark is gone (and d4, which ignored its capture, is marked); White
/// may now huff d4 (3 ordinary + ... ), and White's capture c3xe5 leaves no mark anywhere.
#[test]
fn marks_lapse_and_captures_clear() {
    let g = damii();
    let e = Engine::new(&g);
    let s = position::parse(&g, H1).unwrap();
    let s = e.apply(&s, find(&g, &e.legal_moves(&s).unwrap(), "i1-h2"));
    let s = e.apply(&s, find(&g, &e.legal_moves(&s).unwrap(), "a9-b8"));
    assert_eq!(marked(&g, &s), ["d4"]);
    // White: c3-b4, c3xe5, h2-g3 = 3 (h2-i3 too: 4); huffs: remove d4, then c3-b4, c3-d4, h2-g3, h2-i3 = 4.
    let moves = e.legal_moves(&s).unwrap();
    assert_eq!(
        sorted(&g, &moves),
        [
            "c3-b4",
            "c3-e5xd4",
            "h2-g3",
            "h2-i3",
            "xd4 c3-b4",
            "xd4 c3-d4",
            "xd4 h2-g3",
            "xd4 h2-i3"
        ]
    );
    let after = e.apply(&s, find(&g, &moves, "c3-e5xd4"));
    assert!(marked(&g, &after).is_empty());
}

/// A chain that stops where it could go on marks the capturing piece; the full chain marks nothing. White man
/// c3, Black men d4 and f6: c3xe5 may stop (e5 marked) or go on over f6 to g7 (no mark). After the stop,
/// Black (f6 alone) has f6-g5 and f6xd4 (over e5), and the huffs "remove e5, then f6-e5 or f6-g5": 4.
#[test]
fn a_stopped_chain_marks_the_capturing_piece() {
    let g = damii();
    let e = Engine::new(&g);
    let s = position::parse(
        &g,
        "turn White\npiece White Man c3\npiece Black Man d4\npiece Black Man f6\n",
    )
    .unwrap();
    let moves = e.legal_moves(&s).unwrap();
    assert_eq!(
        sorted(&g, &moves),
        ["c3-b4", "c3-e5xd4", "c3-e5xd4-g7xf6"],
        "the chain may stop"
    );
    let stopped = e.apply(&s, find(&g, &moves, "c3-e5xd4"));
    assert_eq!(marked(&g, &stopped), ["e5"]);
    assert_eq!(
        sorted(&g, &e.legal_moves(&stopped).unwrap()),
        ["f6-d4xe5", "f6-g5", "xe5 f6-e5", "xe5 f6-g5"]
    );
    let full = e.apply(&s, find(&g, &moves, "c3-e5xd4-g7xf6"));
    assert!(marked(&g, &full).is_empty());
}

/// The position format writes the mark and reads it back; two positions differing only in a mark are
/// different positions (hash and key).
#[test]
fn the_mark_round_trips_and_is_hashed() {
    let g = damii();
    let plain = position::parse(&g, H1).unwrap();
    let text = H1.replace("White Man c3", "White Man c3 huffable");
    let marked_state = position::parse(&g, &text).unwrap();
    let written = position::format(&g, &marked_state);
    assert!(written.contains("c3 huffable"), "{written}");
    let again = position::parse(&g, &written).unwrap();
    assert_eq!(again, marked_state);
    assert_ne!(plain.key(), marked_state.key());
    assert_ne!(plain.hash(), marked_state.hash());
    // Black may huff c3 in the marked position, not in the plain one.
    let e = Engine::new(&g);
    let black = |s: &str| position::parse(&g, &s.replace("turn White", "turn Black")).unwrap();
    assert_eq!(e.legal_moves(&black(H1)).unwrap().len(), 3);
    assert_eq!(e.legal_moves(&black(&text)).unwrap().len(), 6);
}

/// Damii's start: d1-d3 = 9, 81, 793, which huffing cannot change (the first huff is possible at ply 4, after
/// a quiet move at ply 3 that ignored a capture). The same counts as International draughts without
/// compulsion: its 9 and 81, and 793 = 658 with compulsion + the 135 quiet moves compulsion forbids at ply 3
/// (the plan's two encodings, the corpus `CheckersCollection.zrf` variant 27 among them).
#[test]
fn damii_start_perft() {
    let g = damii();
    let e = Engine::new(&g);
    let s = e.initial();
    assert_eq!(e.perft(&s, 1).unwrap(), 9);
    assert_eq!(e.perft(&s, 2).unwrap(), 81);
    assert_eq!(e.perft(&s, 3).unwrap(), 793);
}

const TINY: &str = "(game (title \"t\") (players A B) (turn-order A B)
  (board (grid (dimensions (\"a/b/c\" (1 0)) (\"3/2/1\" (0 1))) (directions (n 0 -1))))
  (piece (name P) (moves (move-type jump) (n (verify enemy?) n (verify empty?) add)
                         (move-type step) (n (verify empty?) add)))
  EXTRA
  (loss-condition (A B) stalemated))";

/// Misuse is an error at its place: a capture type ranked in `move-priorities`, an unknown type, no type,
/// two sections, an attribute of the same name.
#[test]
fn huffing_errors_are_located() {
    let err = |extra: &str| compile_text(&TINY.replace("EXTRA", extra)).unwrap_err();
    let e = err("(move-priorities jump step) (huffing jump)");
    assert!(
        e.iter()
            .any(|m| m
                .contains("huffing makes captures optional; `jump` is ranked in move-priorities")),
        "{e:?}"
    );
    let e = err("(huffing jmp)");
    assert!(
        e.iter()
            .any(|m| m.contains("move type `jmp` in `huffing` is used by no piece")),
        "{e:?}"
    );
    let e = err("(huffing)");
    assert!(e.iter().any(|m| m.contains("one or more")), "{e:?}");
    let e = err("(huffing jump) (huffing jump)");
    assert!(
        e.iter().any(|m| m.contains("a game has one `huffing`")),
        "{e:?}"
    );
    assert!(compile_text(&TINY.replace("EXTRA", "(huffing jump)")).is_ok());
    let src = TINY
        .replace("(name P)", "(name P) (attribute huffable false)")
        .replace("EXTRA", "(huffing jump)");
    let e = compile_text(&src).unwrap_err();
    assert!(
        e.iter()
            .any(|m| m.contains("which a piece of this game declares too")),
        "{e:?}"
    );
}

/// Promotion at the end of the move, also where a chain stops short on the far row: White man b8, Black men
/// c9 and e9 (and j2, so that Black keeps a man). White: b8-a9; b8xc9 landing on d10 and stopping there; or
/// on over e9 to f8 (a man passing the far row in a chain stays a man) = 3. The stopped chain ends the move on
/// the far row: the man is crowned there, and marked, since it could have captured e9 from d10. The full chain
/// ends on f8 as a man, with no mark.
#[test]
fn a_man_stopping_its_chain_on_the_far_row_is_crowned_and_marked() {
    let g = damii();
    for options in [EngineOptions::default(), EngineOptions::general()] {
        let e = Engine::with_options(&g, options);
        let s = position::parse(
            &g,
            "turn White\npiece White Man b8\npiece Black Man c9\npiece Black Man e9\npiece Black Man j2\n",
        )
        .unwrap();
        let moves = e.legal_moves(&s).unwrap();
        assert_eq!(moves.len(), 3, "{:?}", sorted(&g, &moves));
        let piece_at = |s: &State, at: &str| -> Option<String> {
            position::format(&g, s)
                .lines()
                .find(|l| l.starts_with("piece White") && l.split_whitespace().nth(3) == Some(at))
                .map(|l| l.split_whitespace().nth(2).unwrap().to_string())
        };
        let mut ends = vec![];
        for m in &moves {
            let after = e.apply(&s, m);
            let at = ["a9", "d10", "f8"]
                .into_iter()
                .find(|sq| piece_at(&after, sq).is_some())
                .unwrap_or_else(|| panic!("{}: White's man is gone", m.notation(&g)));
            ends.push((at, piece_at(&after, at).unwrap(), marked(&g, &after)));
        }
        ends.sort();
        assert_eq!(
            ends,
            [
                ("a9", "Man".to_string(), vec!["a9".to_string()]),
                ("d10", "King".to_string(), vec!["d10".to_string()]),
                ("f8", "Man".to_string(), vec![]),
            ]
        );
    }
}

/// The move after a huff is a complete move, so the game's `move-post` crowns it as it crowns an ordinary
/// one: Black man j2 steps to i1, its far row, crowned with or without the huff of White's marked a9 first.
#[test]
fn a_move_after_a_huff_is_crowned_like_any_other() {
    let g = damii();
    for options in [EngineOptions::default(), EngineOptions::general()] {
        let e = Engine::with_options(&g, options);
        let s = position::parse(
            &g,
            "turn Black\npiece White Man a9 huffable\npiece White Man c3\npiece Black Man j2\npiece Black Man a7\n",
        )
        .unwrap();
        let moves = e.legal_moves(&s).unwrap();
        for n in ["j2-i1 [i1=King]", "xa9 j2-i1 [i1=King]"] {
            let after = e.apply(&s, find(&g, &moves, n));
            let text = position::format(&g, &after);
            assert!(text.contains("piece Black King i1"), "{n}: {text}");
        }
    }
}
