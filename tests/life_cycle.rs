//! The move life cycle (`docs/language.md`, "The move life cycle"; issue 24; the founding article seed 004's
//! "pre" and "post" actions per piece and per game, and the global "post" that may reject a move).
//!
//! Every expected count is either published (`../shared/reference/perft.json`, the draughts start positions) or
//! worked by hand from the rules in the comment above it; none is read from the engine. The equivalence tests
//! write promotion once (in `post` or `move-post`) in a copy of a `games/` file and compare with the published
//! counts and with a hand-worked position where the promotion happens in the middle of a capture.

use dagaz::engine::{position, Engine, State};
use dagaz::lang::read_str;
use dagaz::load::compile_source as compile;
use serde_json::Value;
use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Compiles a game from text; panics with the diagnostics if it has errors.
fn game_of(src: &str) -> dagaz::Game {
    let read = read_str("inline.zrf", src, root());
    assert!(!read.has_errors(), "{:?}", read.diagnostics);
    let mut diags = vec![];
    let g = compile(&read.games[0], &mut diags);
    assert!(diags.iter().all(|d| !d.is_error()), "{diags:?}");
    g.expect("a game")
}

/// The error messages of a game text that does not compile.
fn errors_of(src: &str) -> Vec<String> {
    let read = read_str("inline.zrf", src, root());
    let mut diags = read.diagnostics.clone();
    if !read.has_errors() {
        let _ = compile(&read.games[0], &mut diags);
    }
    diags
        .iter()
        .filter(|d| d.is_error())
        .map(|d| {
            let at = d.span.map_or(String::new(), |s| read.sources.location(s));
            let line = at.rsplit(':').nth(1).unwrap_or("?").to_string();
            format!("{line}: {}", d.message)
        })
        .collect()
}

/// A `games/` file with its text rewritten; every replacement must have matched.
fn rewritten(file: &str, edits: &[(&str, &str)]) -> String {
    let mut s = std::fs::read_to_string(root().join(file)).unwrap();
    for (from, to) in edits {
        assert!(s.contains(from), "{file}: `{from}` not found");
        s = s.replacen(from, to, 1);
    }
    s
}

/// English checkers with promotion written once, in `move-post`: the programs still end the move on
/// reaching the king row, and only the change of type moves out of them.
fn english_move_post() -> String {
    rewritten(
        "games/english-checkers.zrf",
        &[
            (
                "(define man-step ($1 (verify empty?) (if (in-zone? promotion) (add King) else add)))",
                "(define man-step ($1 (verify empty?) add))",
            ),
            (
                "(if (in-zone? promotion) (add King) else (add-partial jumptype))))",
                "(if (in-zone? promotion) add else (add-partial jumptype))))",
            ),
            (
                "(loss-condition (Black White) (name \"no moves\") stalemated))",
                "(move-post (if (and (in-zone? promotion) (piece? Man)) (change-type King)))
  (loss-condition (Black White) (name \"no moves\") stalemated))",
            ),
        ],
    )
}

/// Russian draughts with promotion written once, in the man's `post`: at every emission in the zone, so a man
/// that reaches the far row in the middle of a capture goes on capturing as a king.
fn russian_post() -> String {
    rewritten(
        "games/russian-draughts.zrf",
        &[
            (
                "(define man-step ($1 (verify empty?) (if (in-zone? promotion) (add King) else add)))",
                "(define man-step ($1 (verify empty?) add))",
            ),
            (
                "(if (in-zone? promotion) (add-partial King jumptype) else (add-partial jumptype))))",
                "(add-partial jumptype)))",
            ),
            (
                "(name Man)\n    (notation \"M\")",
                "(name Man)\n    (notation \"M\")\n    (post (if (in-zone? promotion) (change-type King)))",
            ),
        ],
    )
}

/// The published counts of a draughts start position (`duplicates: drop`, the convention the engine counts).
fn published(variant: &str) -> Vec<(u32, u64)> {
    let p = root().join("../shared/reference/perft.json");
    let v: Value = serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap();
    let e = v["entries"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| {
            e["game"] == "draughts"
                && e["variant"].as_str().unwrap().starts_with(variant)
                && e["position"].as_str().unwrap().starts_with("start")
                && e["duplicates"] == "drop"
        })
        .expect("a published start position");
    let mut d: Vec<(u32, u64)> = e["depths"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, n)| (k.parse().unwrap(), n.as_u64().unwrap()))
        .collect();
    d.sort();
    d
}

fn pieces(g: &dagaz::Game, s: &State) -> Vec<String> {
    let mut v: Vec<String> = position::format(g, s)
        .lines()
        .filter_map(|l| l.strip_prefix("piece "))
        .map(str::to_string)
        .collect();
    v.sort();
    v
}

/// The boards after each legal move, sorted.
fn boards_after(g: &dagaz::Game, s: &State) -> Vec<Vec<String>> {
    let e = Engine::new(g);
    let mut out: Vec<Vec<String>> = e
        .legal_moves(s)
        .unwrap()
        .iter()
        .map(|m| pieces(g, &e.apply(s, m)))
        .collect();
    out.sort();
    out
}

fn sorted(v: &[&str]) -> Vec<String> {
    let mut b: Vec<String> = v.iter().map(|s| s.to_string()).collect();
    b.sort();
    b
}

#[test]
fn english_checkers_with_promotion_in_move_post_has_the_published_perft() {
    let g = game_of(&english_move_post());
    assert!(g.move_post.is_some());
    let e = Engine::new(&g);
    let s = e.initial();
    let mut ran = 0;
    for (d, n) in published("english") {
        if n > 200_000 {
            break;
        }
        assert_eq!(e.perft(&s, d).unwrap(), n, "English checkers d{d}");
        ran += 1;
    }
    assert!(ran >= 7, "{ran} depths");
}

#[test]
fn russian_draughts_with_promotion_in_post_has_the_published_perft() {
    let g = game_of(&russian_post());
    let e = Engine::new(&g);
    let s = e.initial();
    let mut ran = 0;
    for (d, n) in published("russian") {
        if n > 200_000 {
            break;
        }
        assert_eq!(e.perft(&s, d).unwrap(), n, "Russian draughts d{d}");
        ran += 1;
    }
    assert!(ran >= 7, "{ran} depths");
}

/// Russian rules: a man that reaches the far row during a capture is a king at once and goes on capturing as
/// a king. White man b6, Black men c7 and e7, White to move. The only capture is b6xc7, landing on d8 (the far
/// row). As a king on d8 it must take e7 along d8-h4 and may land on f6, g5 or h4 (no further capture from any
/// of them): 3 moves, each ending with a White king. (A man on d8 would take e7 and land on f6 only: 1 move.)
#[test]
fn a_man_promoted_by_post_in_the_middle_of_a_capture_goes_on_as_a_king() {
    let pos = "turn White\npiece White Man b6\npiece Black Man c7\npiece Black Man e7\npiece Black Man a1\n";
    for src in [
        russian_post(),
        std::fs::read_to_string(root().join("games/russian-draughts.zrf")).unwrap(),
    ] {
        let g = game_of(&src);
        let s = position::parse(&g, pos).unwrap();
        let want: Vec<Vec<String>> = ["f6", "g5", "h4"]
            .iter()
            .map(|sq| sorted(&[&format!("White King {sq}"), "Black Man a1"]))
            .collect();
        assert_eq!(boards_after(&g, &s), want, "{}", g.title);
    }
}

/// English rules: reaching the king row ends the move and crowns the man. White man b6, Black men c7 and e7:
/// b6xc7 lands on d8 and stops there, a king (it does not take e7). One move.
#[test]
fn move_post_crowns_a_man_at_the_end_of_its_move() {
    let g = game_of(&english_move_post());
    let s = position::parse(
        &g,
        "turn White\npiece White Man b6\npiece Black Man c7\npiece Black Man e7\n",
    )
    .unwrap();
    assert_eq!(
        boards_after(&g, &s),
        vec![sorted(&["White King d8", "Black Man e7"])]
    );
    let e = Engine::new(&g);
    let moves = e.legal_moves(&s).unwrap();
    assert_eq!(moves[0].notation(&g), "b6-d8xc7 [d8=King]");
}

/// A one-file strip, ranks 1..6, for the small rule tests: A's pieces, B's pieces, sections.
fn strip(pieces: &str, setup: &str, sections: &str) -> dagaz::Game {
    game_of(&format!(
        "(game (title \"life cycle\") (players A B) (turn-order A B) {sections}
           (board (grid (dimensions (\"a\" (10 0)) (\"6/5/4/3/2/1\" (0 10)))
                        (directions (n 0 -1) (s 0 1)))
                  (zone (name low) (players A B) (positions a1 a2))
                  (zone (name top) (players A B) (positions a6)))
           {pieces}
           (board-setup {setup})
           (loss-condition (A B) stalemated))"
    ))
}

/// The destinations of A's legal moves at the start, sorted.
fn destinations(g: &dagaz::Game) -> Vec<String> {
    let e = Engine::new(g);
    let s = e.initial();
    let mut v: Vec<String> = e
        .legal_moves(&s)
        .unwrap()
        .iter()
        .map(|m| m.notation(g))
        .collect();
    v.sort();
    v
}

/// `pre` runs before every program of the piece: a failed `verify` there means the piece has no move. A slider
/// on a2 (in `low`) and one on a4: only the one on a4 moves (a5, a6). Without the `pre` the one on a2 moves
/// too (a3, then a4 is its own piece's): 1 + 2.
#[test]
fn a_failed_verify_in_pre_removes_every_move_of_the_piece() {
    let slider = "(moves (n (while empty? add n)))";
    let with_pre = strip(
        &format!("(piece (name R) (pre (verify (not-in-zone? low))) {slider})"),
        "(A (R a2 a4))",
        "",
    );
    assert_eq!(destinations(&with_pre), ["a4-a5", "a4-a6"]);
    // The same rule as the game's `pre`, for every piece type.
    let game_pre = strip(
        &format!("(piece (name R) {slider})"),
        "(A (R a2 a4))",
        "(pre (verify (not-in-zone? low)))",
    );
    assert_eq!(destinations(&game_pre), ["a4-a5", "a4-a6"]);
    let without = strip(&format!("(piece (name R) {slider})"), "(A (R a2 a4))", "");
    assert_eq!(destinations(&without), ["a2-a3", "a4-a5", "a4-a6"]);
}

/// `post` runs at each emission: a failed `verify` there drops that landing only, and the slide goes on. A
/// slider on a1 that may not stop on a3: a2, a4, a5, a6.
#[test]
fn a_failed_verify_in_post_drops_one_landing_and_keeps_the_squares_beyond() {
    let g = strip(
        "(piece (name R) (post (verify (not-position? a3))) (moves (n (while empty? add n))))",
        "(A (R a1))",
        "",
    );
    assert_eq!(destinations(&g), ["a1-a2", "a1-a4", "a1-a5", "a1-a6"]);
}

/// What `post` changes belongs to its emission only: a slider from a4 promoted on a6 (`top`) by its `post`
/// reaches a5 unpromoted and a6 as a Q; the change on a6 is not carried to any other landing.
#[test]
fn a_change_in_post_belongs_to_its_emission_only() {
    let g = strip(
        "(piece (name R) (post (if (in-zone? top) (change-type Q))) (moves (n (while empty? add n))))
         (piece (name Q) (moves (s add)))",
        "(A (R a4))",
        "",
    );
    let s = Engine::new(&g).initial();
    assert_eq!(
        boards_after(&g, &s),
        vec![sorted(&["A Q a6"]), sorted(&["A R a5"])]
    );
}

/// `move-post` capturing the square the move ended on: the piece that moved leaves the board (Senegalese
/// draughts' man on the last rank), and the move takes no piece.
#[test]
fn move_post_capturing_its_square_removes_the_mover_and_takes_nothing() {
    let g = strip(
        "(piece (name P) (moves (n (verify empty?) add)))",
        "(A (P a5 a2)) (B (P a1))",
        "(move-post (if (in-zone? top) capture))",
    );
    let e = Engine::new(&g);
    let s = e.initial();
    let moves = e.legal_moves(&s).unwrap();
    assert_eq!(moves.len(), 2);
    assert!(moves.iter().all(|m| m.captures() == 0), "{moves:?}");
    assert_eq!(
        boards_after(&g, &s),
        vec![
            sorted(&["A P a2", "B P a1"]),
            sorted(&["A P a3", "A P a5", "B P a1"])
        ]
    );
}

/// A failed `verify` in `move-post` removes the move; it reads the position after the move: a piece may not
/// end its move next to (north of) an enemy. A on a3 steps or jumps north (a4, a5); B stands on a6: a5 is
/// refused, a4 kept.
#[test]
fn a_failed_verify_in_move_post_removes_the_move() {
    let g = strip(
        "(piece (name P) (moves (n (verify empty?) add) (n n (verify empty?) add)))",
        "(A (P a3)) (B (P a6))",
        "(move-post (verify (not-enemy? n)))",
    );
    assert_eq!(destinations(&g), ["a3-a4"]);
}

/// `move-post`'s `set-var` is a change of the move, read by an end condition: the move to the top sets
/// `arrived`, and A wins on it (after a3-a4 the game goes on).
#[test]
fn move_post_sets_a_variable_an_end_condition_reads() {
    let g = strip(
        "(piece (name P) (moves (n (verify empty?) add) (n n (verify empty?) add)))",
        "(A (P a4)) (B (P a1))",
        "(player-variables (arrived 0))
         (move-post (if (in-zone? top) (set-var arrived 1)))
         (win-condition (A) (name \"arrived\") (= (var arrived A) 1))",
    );
    let e = Engine::new(&g);
    let s = e.initial();
    let mut ends = vec![];
    for m in e.legal_moves(&s).unwrap() {
        let after = e.apply(&s, &m);
        let moves = e.legal_moves(&after).unwrap();
        let o = e.outcome(&after, &moves, &[]).unwrap();
        ends.push((m.notation(&g), o.map(|o| o.name)));
    }
    ends.sort();
    assert_eq!(
        ends,
        [
            ("a4-a5".to_string(), None),
            ("a4-a6".to_string(), Some("arrived".to_string()))
        ]
    );
}

/// Misuse is a compile error at the section, with its line.
#[test]
fn misuse_of_the_life_cycle_is_an_error_with_its_location() {
    let base = |piece: &str, sections: &str| {
        format!(
            "(game (title \"x\") (players A B) (turn-order A B)\n{sections}\n\
             (board (grid (dimensions (\"a\" (10 0)) (\"3/2/1\" (0 10))) (directions (n 0 -1))))\n\
             {piece}\n(board-setup (A (P a1)))\n(loss-condition (A B) stalemated))"
        )
    };
    let plain = "(piece (name P) (moves (n add)))";
    let cases: &[(String, &str)] = &[
        (base(plain, "(pre)"), "2: `pre` needs instructions"),
        (
            base("(piece (name P) (post n add) (moves (n add)))", ""),
            "4: `pre` and `post` run inside a part and cannot emit one (`add` in `post`)",
        ),
        (
            base(plain, "(move-post (add-partial))"),
            "2: `move-post` runs after the move; it cannot add a part (`add-partial`)",
        ),
        (
            base(plain, "(move-post (choose (positions empty?) capture))"),
            "2: `move-post` runs once on the position after the move; it cannot `choose`",
        ),
        (
            base(plain, "(move-post capture) (move-post capture)"),
            "2: a game has one `move-post`",
        ),
    ];
    for (src, want) in cases {
        let errs = errors_of(src);
        assert!(
            errs.iter().any(|e| e == want),
            "expected `{want}` in {errs:?}"
        );
    }
}
