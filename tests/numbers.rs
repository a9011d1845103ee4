//! Rule tests of the number forms (`docs/language.md`, "Numbers"): each fails if its form is ignored.
//! Lines of Action (`games/lines-of-action.zrf`, Sackson's rules) for `count` along a line, move variables,
//! comparisons and `connected`; tiny inline games for game and player variables, and the errors.

#[path = "common/scratch.rs"]
mod scratch_dir;
use dagaz::engine::{position, Engine};
use dagaz::lang::diag::render_all;
use dagaz::lang::read_str;
use dagaz::load::compile_source as compile;
use dagaz::load::{load, load_game, VariantSel};
use scratch_dir::Scratch;
use std::path::Path;

const LOA: &str = "games/lines-of-action.zrf";

fn loa() -> dagaz::Game {
    load_game(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join(LOA),
        &VariantSel::First,
    )
    .unwrap()
}

fn game(src: &str) -> dagaz::Game {
    let read = read_str("inline.zrf", src, Path::new("."));
    assert!(!read.has_errors(), "{:?}", read.diagnostics);
    let mut diags = vec![];
    let g = compile(&read.games[0], &mut diags);
    assert!(diags.iter().all(|d| !d.is_error()), "{:?}", diags);
    g.unwrap()
}

fn notations(g: &dagaz::Game, pos: &str) -> Vec<String> {
    let e = Engine::new(g);
    let s = position::parse(g, pos).unwrap();
    let mut v: Vec<String> = e
        .legal_moves(&s)
        .unwrap()
        .iter()
        .map(|m| m.notation(g))
        .collect();
    v.sort();
    v
}

fn from(moves: &[String], sq: &str) -> Vec<String> {
    moves
        .iter()
        .filter(|m| m.starts_with(&format!("{sq}-")))
        .cloned()
        .collect()
}

#[test]
fn loa_distance_is_the_number_of_stones_on_the_whole_line() {
    // From the start, b1's file holds b1 and b8: north is two squares (b3). Its rank holds b1..g1, six
    // stones: east is six squares, past its own stones onto h1. Diagonal ne from b1 (b1 c2 d3 e4
    // f5 g6 h7) holds b1 and White's h7: two squares, d3. Diagonal nw (a2): b1 and a2, two squares: off the board.
    let g = loa();
    let e = Engine::new(&g);
    let s = e.initial();
    let mut v: Vec<String> = e
        .legal_moves(&s)
        .unwrap()
        .iter()
        .map(|m| m.notation(&g))
        .collect();
    v.sort();
    assert_eq!(from(&v, "b1"), vec!["b1-b3", "b1-d3", "b1-h1"]);
}

#[test]
fn loa_jumps_own_stones_not_enemy_ones_and_captures_by_landing() {
    let g = loa();
    let e = Engine::new(&g);
    // Rank 4 holds three stones (a4, b4, d4): a4 goes exactly three squares east, onto d4.
    // Over White's b4 it may not pass.
    let v = notations(
        &g,
        "turn Black\npiece Black Stone a4\npiece White Stone b4\npiece White Stone d4\n",
    );
    assert!(!v.iter().any(|m| m.starts_with("a4-d4")), "{v:?}");
    // Over its own b4 it may, and it takes White's d4 by landing there.
    let pos = "turn Black\npiece Black Stone a4\npiece Black Stone b4\npiece White Stone d4\n";
    let s = position::parse(&g, pos).unwrap();
    let m = e
        .legal_moves(&s)
        .unwrap()
        .into_iter()
        .find(|m| m.notation(&g).starts_with("a4-d4"))
        .expect("a4-d4");
    assert_eq!(m.captures(), 1);
    // Never onto its own stone: with d4 Black, a4 has no move east.
    let v = notations(&g, "turn Black\npiece Black Stone a4\npiece Black Stone b4\npiece Black Stone d4\npiece White Stone h8\n");
    assert!(!v.iter().any(|m| m.starts_with("a4-d4")), "{v:?}");
}

#[test]
fn loa_one_connected_group_wins_and_both_at_once_draw() {
    let g = loa();
    let e = Engine::new(&g);
    // Black: a1, c1, b3; White: h8, h6 (apart). b3's file holds one stone, so b3 goes one square south, to
    // b2, which touches a1 and c1: Black is one group and wins.
    let pos = "turn Black\npiece Black Stone a1\npiece Black Stone c1\npiece Black Stone b3\npiece White Stone h8\npiece White Stone h6\n";
    let s = position::parse(&g, pos).unwrap();
    let moves = e.legal_moves(&s).unwrap();
    let m = moves
        .iter()
        .find(|m| m.notation(&g) == "b3-b2")
        .expect("b3-b2");
    let after = e.apply(&s, m);
    let next = e.legal_moves(&after).unwrap();
    let out = e.outcome(&after, &next, &[]).unwrap().expect("game over");
    assert_eq!(out.results, vec![1, -1]);
    assert_eq!(out.name, "connected");
    // The same, but White's stones touch (h8, g7): both connected after the move: a draw.
    let pos2 = pos.replace("h6", "g7");
    let s = position::parse(&g, &pos2).unwrap();
    let moves = e.legal_moves(&s).unwrap();
    let m = moves.iter().find(|m| m.notation(&g) == "b3-b2").unwrap();
    let after = e.apply(&s, m);
    let next = e.legal_moves(&after).unwrap();
    let out = e.outcome(&after, &next, &[]).unwrap().expect("game over");
    assert_eq!(out.results, vec![0, 0]);
    assert_eq!(out.name, "both connected");
    // Not connected: the game goes on.
    let s = position::parse(&g, pos).unwrap();
    let moves = e.legal_moves(&s).unwrap();
    assert!(e.outcome(&s, &moves, &[]).unwrap().is_none());
}

/// Two players on a row of squares; every move adds one to the mover's `steps`; `(>= steps 3)` wins.
/// `total` counts all moves (a game variable); a move is allowed only while `total` < 10.
const COUNTER: &str = r#"
(game (title "Counter")
  (players A B) (turn-order A B)
  (board (grid (dimensions ("a/b/c/d/e/f/g/h" (50 0)) ("2/1" (0 50))) (directions (e 1 0) (w -1 0))))
  (player-variables (steps 0))
  (variables (total 0))
  (piece (name P)
    (moves ((verify (< total 10)) e (verify empty?)
            (set-var steps (+ steps 1)) (set-var total (+ total 1)) add)))
  (board-setup (A (P a1)) (B (P a2)))
  (win-condition (A B) (name "three steps") (>= steps 3)))
"#;

#[test]
fn a_player_variable_counter_ends_the_game() {
    let g = game(COUNTER);
    let e = Engine::new(&g);
    let mut s = e.initial();
    for ply in 0..5 {
        let moves = e.legal_moves(&s).unwrap();
        assert!(
            e.outcome(&s, &moves, &[]).unwrap().is_none(),
            "over at ply {ply}"
        );
        assert_eq!(moves.len(), 1);
        s = e.apply(&s, &moves[0]);
        assert_eq!(s.hash(), s.full_hash());
    }
    // A has made three moves, B two.
    let text = position::format(&g, &s);
    assert!(
        text.contains("var total 5\nvar steps A 3\nvar steps B 2\n"),
        "{text}"
    );
    let moves = e.legal_moves(&s).unwrap();
    let out = e
        .outcome(&s, &moves, &[])
        .unwrap()
        .expect("A has three steps");
    assert_eq!(out.results, vec![1, -1]);
    assert_eq!(out.name, "three steps");
}

#[test]
fn a_game_variable_is_read_by_a_comparison_in_a_move() {
    let g = game(COUNTER);
    // With total at 10 no move is allowed; at 9 one is.
    assert!(notations(&g, "turn A\npiece A P a1\npiece B P a2\nvar total 10\n").is_empty());
    assert_eq!(
        notations(&g, "turn A\npiece A P a1\npiece B P a2\nvar total 9\n").len(),
        1
    );
}

#[test]
fn variables_are_part_of_the_hash_and_the_position() {
    let g = game(COUNTER);
    let a = position::parse(&g, "turn A\npiece A P a1\npiece B P a2\n").unwrap();
    let b = position::parse(&g, "turn A\npiece A P a1\npiece B P a2\nvar steps B 1\n").unwrap();
    assert_ne!(a.key(), b.key());
    assert_ne!(a, b);
    assert_eq!(b.hash(), b.full_hash());
    // The position format keeps them.
    let back = position::parse(&g, &position::format(&g, &b)).unwrap();
    assert_eq!(back, b);
}

#[test]
fn arithmetic_folds_left_and_min_max_mod_work() {
    // A move is legal only if the expression equals the number on the right.
    for (expr, legal) in [
        ("(= (- 10 3 2) 5)", true),
        ("(= (- 4) -4)", true),
        ("(= (* 2 3 4) 24)", true),
        ("(= (/ 7 2) 3)", true),
        ("(= (mod -1 3) 2)", true),
        ("(= (min 4 2 9) 2)", true),
        ("(= (max 4 2 9) 9)", true),
        ("(!= 1 1)", false),
        ("(< 2 1)", false),
        ("(<= 2 2)", true),
        ("(> (/ 1 0) 0)", false),
        ("(>= (count (zone far)) 8)", true),
        ("(= (count (positions (friend?))) 1)", true),
        ("(= (count (ray e)) 0)", true),
        ("(= (piece-value) 3)", true),
        ("(= (piece-value e) 0)", true),
    ] {
        let src = format!(
            r#"(game (title "Arith") (players A B) (turn-order A B)
  (board (grid (dimensions ("a/b/c/d/e/f/g/h" (50 0)) ("2/1" (0 50))) (directions (e 1 0) (w -1 0)))
    (zone (name far) (players A B) (positions a2 b2 c2 d2 e2 f2 g2 h2)))
  (piece (name P) (value 3) (moves ((verify {expr}) e add)))
  (board-setup (A (P a1)) (B (P a2)))
  (loss-condition (A B) stalemated))"#
        );
        let g = game(&src);
        let n = notations(&g, "turn A\npiece A P a1\npiece B P a2\n").len();
        assert_eq!(n == 1, legal, "{expr}");
    }
}

fn errors(src: &str) -> String {
    let dir = Scratch::new("numbers");
    let f = dir.join("bad.zrf");
    std::fs::write(&f, src).unwrap();
    let l = load(&f, &VariantSel::First);
    assert!(l.game.is_none(), "should not load");
    render_all(&l.diagnostics, &l.file.sources).replace(&format!("{}/", dir.display()), "")
}

#[test]
fn number_forms_have_located_errors() {
    let src = r#"(game (title "Bad") (players A B) (turn-order A B)
  (board (grid (dimensions ("a/b" (50 0)) ("2/1" (0 50))) (directions (e 1 0))))
  (variables (total 0))
  (piece (name P) (moves ((verify (> totl 1)) (verify (< 1)) (set-var n (count (line x))) e add)))
  (board-setup (A (P a1)) (B (P a2)))
  (win-condition (A) (>= (count (line e)) 2)))
"#;
    let text = errors(src);
    assert!(text.contains("unknown number `totl`"), "{text}");
    assert!(text.contains("bad.zrf:4:38"), "{text}");
    assert!(text.contains("did you mean `total`?"), "{text}");
    assert!(text.contains("`<` compares two numbers"), "{text}");
    assert!(text.contains("unknown direction `x`"), "{text}");
    assert!(
        text.contains("is not a number of an end condition"),
        "{text}"
    );
}

#[test]
fn boolean_attributes_keep_their_zillions_meaning() {
    // `(attribute moved false)` stays a boolean attribute; `set-attribute` and the predicate work as before.
    let g = game(
        r#"(game (title "B") (players A B) (turn-order A B)
  (board (grid (dimensions ("a/b/c" (50 0)) ("2/1" (0 50))) (directions (e 1 0))))
  (piece (name P) (attribute moved false) (moves ((verify (not moved?)) e (set-attribute moved true) add)))
  (board-setup (A (P a1)) (B (P a2))))"#,
    );
    assert_eq!(
        notations(&g, "turn A\npiece A P a1\npiece B P a2\n").len(),
        1
    );
    assert!(notations(&g, "turn A\npiece A P a1 moved\npiece B P a2\n").is_empty());
}

/// A piece strikes the enemy piece east of it without moving: the target loses one hit point, and is removed
/// when it would reach 0.
const STRIKE: &str = r#"
(game (title "Strike") (players A B) (turn-order A B)
  (board (grid (dimensions ("a/b/c" (50 0)) ("1" (0 50))) (directions (e 1 0) (w -1 0))))
  (piece (name P) (attribute hp 2)
    (moves ((verify (enemy? e))
            (if (<= (hp e) 1) (capture e) else (set-attribute hp (- (hp e) 1) e))
            add)))
  (board-setup (A (P a1)) (B (P b1)))
  (loss-condition (A B) (pieces-remaining 0)))
"#;

#[test]
fn an_integer_attribute_is_decremented_and_the_piece_removed_at_zero() {
    let g = game(STRIKE);
    let e = Engine::new(&g);
    let s = e.initial();
    assert!(position::format(&g, &s).contains("piece B P b1 hp=2"));
    // A strikes: b1 keeps its place with one hit point.
    let m = e.legal_moves(&s).unwrap();
    assert_eq!(m.len(), 1);
    let s = e.apply(&s, &m[0]);
    assert_eq!(s.hash(), s.full_hash());
    assert!(
        position::format(&g, &s).contains("piece B P b1 hp=1"),
        "{}",
        position::format(&g, &s)
    );
    // B has no enemy to its east: no move. Give the turn back to A: the second strike removes b1.
    let mut s2 =
        position::parse(&g, &position::format(&g, &s).replace("turn B", "turn A")).unwrap();
    s2.set_turn(0);
    let m = e.legal_moves(&s2).unwrap();
    assert_eq!(m.len(), 1);
    assert_eq!(m[0].captures(), 1);
    let s3 = e.apply(&s2, &m[0]);
    assert!(!position::format(&g, &s3).contains("piece B"));
    // Two positions differing only in hit points are different keys.
    let a = position::parse(&g, "turn A\npiece A P a1 hp=2\npiece B P b1 hp=2\n").unwrap();
    let b = position::parse(&g, "turn A\npiece A P a1 hp=2\npiece B P b1 hp=1\n").unwrap();
    assert_ne!(a.key(), b.key());
}
