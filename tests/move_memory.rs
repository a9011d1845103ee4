//! The memory of a composite move (docs/language.md, "Memory of a composite move"): `(visited? [LOC])`,
//! `(last-direction? DIR)` and `(turn-variables ...)`. Each test states the rule it checks and fails if the
//! form is ignored: the expected moves are worked out by hand from the rule, written next to them.

use dagaz::engine::{position, Engine, State};
use dagaz::lang::read_str;
use dagaz::load::compile_source as compile;

/// A two-rank strip, files a..e: A's piece P on c1, B's on c2. A part steps one square east or west;
/// `check` is what the part verifies besides an empty square; `rest` adds end conditions.
fn strip(check: &str, rest: &str, setup: &str) -> Result<dagaz::Game, String> {
    let src = format!(
        "(define walk ((verify (< steps 2)) {check} $1 (verify empty?) (set-var steps (+ steps 1))
                       (add-partial stride)))
         (game (title \"memory\") (players A B) (turn-order A B)
           (option \"pass partial\" true)
           (turn-variables (steps 0))
           (board (grid (dimensions (\"a/b/c/d/e\" (10 0)) (\"2/1\" (0 10)))
                        (directions (e 1 0) (w -1 0))))
           (piece (name P) (moves (move-type stride) (walk e) (walk w)))
           (board-setup {setup})
           {rest})"
    );
    let read = read_str("inline.zrf", &src, std::path::Path::new("."));
    if read.has_errors() {
        return Err(format!("{:?}", read.diagnostics));
    }
    let mut diags = vec![];
    let g = compile(&read.games[0], &mut diags);
    let errors: Vec<String> = diags
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.message.clone())
        .collect();
    if !errors.is_empty() {
        return Err(errors.join("\n"));
    }
    g.ok_or_else(|| "no game".to_string())
}

const SETUP: &str = "(A (P c1)) (B (P c2))";

/// Per legal move: where the mover's piece ends and the value of `steps` after the move, sorted.
fn ends(g: &dagaz::Game, s: &State, owner: &str) -> Vec<(String, String)> {
    let e = Engine::new(g);
    let mut out: Vec<(String, String)> = e
        .legal_moves(s)
        .unwrap()
        .iter()
        .map(|m| after(g, &e.apply(s, m), owner))
        .collect();
    out.sort();
    out
}

/// Where `owner`'s piece stands and the value of `steps`, read from the position's text.
fn after(g: &dagaz::Game, s: &State, owner: &str) -> (String, String) {
    let text = position::format(g, s);
    let at = text
        .lines()
        .find_map(|l| l.strip_prefix(&format!("piece {owner} P ")))
        .unwrap_or_else(|| panic!("no piece of {owner} in\n{text}"))
        .to_string();
    let steps = text
        .lines()
        .find_map(|l| l.strip_prefix("var steps "))
        .unwrap_or("0")
        .to_string();
    (at, steps)
}

fn pairs(v: &[(&str, &str)]) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = v
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    out.sort();
    out
}

/// Each rule of the memory against the same strip without it: the moves it forbids are gone, and only those.
/// Two steps at most (`steps` < 2 when a part begins); the moves by hand, as (where the piece ends, `steps`):
/// * `visited?`, "the piece may not come back to a square it stood on in this move": from c1, c1-d1,
///   c1-d1-e1, c1-b1, c1-b1-a1 (4 moves). Without it, c1-d1-c1 (and c1-b1-c1, the same net effect: one move)
///   is a fifth.
/// * `last-direction?`, "never twice in a row in the same direction": from a1 (B's piece on a2), no
///   `visited?`, the parts must alternate east and west, so the moves are a1-b1 (1 step) and a1-b1-a1 (2).
///   Without it, a1-b1-c1 is a third.
#[test]
fn each_memory_rule_forbids_its_moves() {
    type Moves = &'static [(&'static str, &'static str)];
    let cases: [(&str, &str, Moves, Moves); 2] = [
        (
            "(verify (not (visited? $1)))",
            SETUP,
            &[
                ("a1", "2"),
                ("b1", "1"),
                ("c1", "2"),
                ("d1", "1"),
                ("e1", "2"),
            ],
            &[("a1", "2"), ("b1", "1"), ("d1", "1"), ("e1", "2")],
        ),
        (
            "(verify (not (last-direction? $1)))",
            "(A (P a1)) (B (P a2))",
            &[("a1", "2"), ("b1", "1"), ("c1", "2")],
            &[("a1", "2"), ("b1", "1")],
        ),
    ];
    for (rule, setup, without, with) in cases {
        let g = strip("", "", setup).unwrap();
        let s = Engine::new(&g).initial();
        assert_eq!(ends(&g, &s, "A"), pairs(without), "without {rule}");
        let g = strip(rule, "", setup).unwrap();
        let s = Engine::new(&g).initial();
        assert_eq!(ends(&g, &s, "A"), pairs(with), "with {rule}");
    }
}

/// `(visited?)` with no argument reads the cursor: written after the step, it judges the destination.
#[test]
fn visited_reads_the_cursor_by_default() {
    let g = {
        let src = "(define walk ((verify (< steps 2)) $1 (verify empty?) (verify (not visited?))
                       (set-var steps (+ steps 1)) (add-partial stride)))
         (game (title \"memory\") (players A B) (turn-order A B)
           (option \"pass partial\" true)
           (turn-variables (steps 0))
           (board (grid (dimensions (\"a/b/c/d/e\" (10 0)) (\"2/1\" (0 10)))
                        (directions (e 1 0) (w -1 0))))
           (piece (name P) (moves (move-type stride) (walk e) (walk w)))
           (board-setup (A (P c1)) (B (P c2))))";
        let read = read_str("inline.zrf", src, std::path::Path::new("."));
        assert!(!read.has_errors(), "{:?}", read.diagnostics);
        let mut diags = vec![];
        let g = compile(&read.games[0], &mut diags);
        assert!(diags.iter().all(|d| !d.is_error()), "{diags:?}");
        g.unwrap()
    };
    let s = Engine::new(&g).initial();
    assert_eq!(
        ends(&g, &s, "A"),
        pairs(&[("a1", "2"), ("b1", "1"), ("d1", "1"), ("e1", "2")])
    );
}

/// A turn variable starts again with each move: after A's two-step move `steps` is 2, and B's first part
/// reads 0 (not 2: with 2 the bound `(< steps 2)` would leave B no move), so B has its own four moves and
/// ends with `steps` 1 or 2. A later part reads what the earlier ones set: that is what stops every chain at
/// two steps.
#[test]
fn a_turn_variable_starts_again_with_each_move() {
    let g = strip("(verify (not (visited? $1)))", "", SETUP).unwrap();
    let e = Engine::new(&g);
    let s = e.initial();
    let two = e
        .legal_moves(&s)
        .unwrap()
        .into_iter()
        .map(|m| e.apply(&s, &m))
        .find(|t| after(&g, t, "A") == ("e1".to_string(), "2".to_string()))
        .expect("c1-d1-e1");
    assert_eq!(
        ends(&g, &two, "B"),
        pairs(&[("a2", "2"), ("b2", "1"), ("d2", "1"), ("e2", "2")])
    );
}

/// An end condition reads a turn variable after the move: "a player who makes a two-step move wins".
#[test]
fn an_end_condition_reads_a_turn_variable() {
    let g = strip(
        "(verify (not (visited? $1)))",
        "(win-condition (A) (= steps 2))",
        SETUP,
    )
    .unwrap();
    let e = Engine::new(&g);
    let s = e.initial();
    let mut seen = vec![];
    for m in e.legal_moves(&s).unwrap() {
        let t = e.apply(&s, &m);
        let (at, steps) = after(&g, &t, "A");
        let moves = e.legal_moves(&t).unwrap();
        let o = e.outcome(&t, &moves, &[]).unwrap();
        seen.push((at.clone(), o.as_ref().map(|o| o.results.clone())));
        if steps == "2" {
            assert_eq!(o.expect("over").results, [1, -1], "{at}");
        } else {
            assert_eq!(o, None, "{at}");
        }
    }
    assert_eq!(seen.len(), 4, "{seen:?}");
}

/// A direction the board lacks is an error at the word, not a condition that never holds.
#[test]
fn last_direction_needs_a_direction_of_the_board() {
    let err = strip("(verify (not (last-direction? up)))", "", SETUP).unwrap_err();
    assert!(err.contains("unknown direction `up`"), "{err}");
    let err = strip("(verify (not (last-direction?)))", "", SETUP).unwrap_err();
    assert!(err.contains("direction"), "{err}");
}

/// The memory is no part of the position: a complete move is played from an empty memory and leaves it
/// empty, so the position after a move, written and read back, lists the same moves (the composer's state is
/// not carried over), and the text has no trace of the trail.
#[test]
fn the_memory_is_not_part_of_the_position() {
    let g = strip("(verify (not (visited? $1)))", "", SETUP).unwrap();
    let e = Engine::new(&g);
    let s = e.initial();
    for m in e.legal_moves(&s).unwrap() {
        let t = e.apply(&s, &m);
        let text = position::format(&g, &t);
        let back = position::parse(&g, &text).unwrap();
        assert_eq!(ends(&g, &t, "B"), ends(&g, &back, "B"), "{text}");
        assert_eq!(e.legal_moves(&t).unwrap().len(), 4, "{text}");
    }
}
