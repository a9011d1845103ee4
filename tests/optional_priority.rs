//! `(optional-priority T...)`: capture compulsion per piece type (docs/language.md, "Optional priority"). The
//! rules, from the founding article "Dagaz: Episodes (part 1)" (`../shared/seeds/002_*`): in Shashmat capturing
//! "remains a priority for the draughts men but not for the chess pieces": if chess captures are outside the
//! priority, a chess piece cannot capture while a man can; if they are inside it, chess pieces are forced to
//! capture. Both are wrong. In Dablot capturing is optional for the kings, and declaring the king's capture a
//! priority breaks the rules, while leaving it out forbids the king's capture when a man has one. The rule the
//! article's own extension states: when a piece that is not exempt can capture, every move that does not
//! capture is illegal (the exempt piece's captures stay legal); when only exempt pieces can capture, nothing is
//! forced.
//!
//! The test game: a 5 x 5 board; A's Man steps or jumps north (a draughts man), A's Rook slides and captures
//! like a chess rook. Captures are the move type `jump`, everything else `step`, with `(move-priorities jump
//! step)`. Every count below is worked out by hand, and each case is also played without the form, where plain
//! `move-priorities` gives another answer.

use dagaz::engine::{position, Engine};
use dagaz::lang::read_str;
use dagaz::load::compile_source as compile;

fn game(extra: &str) -> Result<dagaz::Game, String> {
    let src = format!(
        "(define mjump ($1 (verify enemy?) capture $1 (verify empty?) add))
         (define mstep ($1 (verify empty?) add))
         (define rcap ((while (empty? $1) $1) $1 (verify enemy?) add))
         (define rslide ($1 (while empty? add $1)))
         (game (title \"priority\") (players A B) (turn-order A B)
           (board (grid (dimensions (\"a/b/c/d/e\" (1 0)) (\"5/4/3/2/1\" (0 1)))
                        (directions (n 0 -1) (s 0 1) (e 1 0) (w -1 0))))
           (piece (name Man) (moves (move-type jump) (mjump n) (move-type step) (mstep n)))
           (piece (name Rook) (moves (move-type jump) (rcap n) (rcap s) (rcap e) (rcap w)
                                     (move-type step) (rslide n) (rslide s) (rslide e) (rslide w)))
           (move-priorities jump step)
           {extra})"
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
    g.ok_or_else(|| "no game".into())
}

/// The sorted notations of A's legal moves in a position given as `piece` lines.
fn moves(g: &dagaz::Game, pieces: &str) -> Vec<String> {
    let text = format!("turn A\n{pieces}");
    let s = position::parse(g, &text).unwrap();
    let mut v: Vec<String> = Engine::new(g)
        .legal_moves(&s)
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

/// A's Man on c1 with B on c2 (c3 empty) can jump; A's Rook on e1 can take B's e3 (e2 empty) or slide to e2
/// or d1 (c1 is its own man). A man's capture binds the turn: only captures are legal, and the Rook's capture
/// is one of them (Dablot: the king may take instead of the man). Without the form: the same two moves.
#[test]
fn a_mans_capture_binds_the_turn_but_the_free_pieces_capture_stays_legal() {
    let pieces = "piece A Man c1\npiece B Man c2\npiece A Rook e1\npiece B Man e3\n";
    let with = game("(optional-priority Rook)").unwrap();
    assert_eq!(moves(&with, pieces), sorted(&["c1-c3xc2", "e1-e3"]));
    let without = game("").unwrap();
    assert_eq!(moves(&without, pieces), sorted(&["c1-c3xc2", "e1-e3"]));
}

/// Nothing in front of the Man (c2 empty): only the Rook can capture. Its capture does not bind (Shashmat: a
/// chess piece need not take): the Man's step c1-c2, the Rook's capture e1-e3 and its slides to e2 and d1 are
/// all legal, 4 moves. Without the form the Rook's capture is compulsory: 1 move.
#[test]
fn a_free_pieces_capture_alone_binds_nothing() {
    let pieces = "piece A Man c1\npiece A Rook e1\npiece B Man e3\n";
    let with = game("(optional-priority Rook)").unwrap();
    assert_eq!(
        moves(&with, pieces),
        sorted(&["c1-c2", "e1-d1", "e1-e2", "e1-e3"])
    );
    let without = game("").unwrap();
    assert_eq!(moves(&without, pieces), sorted(&["e1-e3"]));
}

/// The free pieces' quiet moves are bound like everyone's once a man can capture: A's Man c1 can jump B's c2,
/// the Rook on e1 has nothing to take (e2-e5 are empty, c1 is its own): only the jump, 1 move, with and
/// without the form; the Rook's slides to e2 and d1 are not legal.
#[test]
fn a_free_pieces_quiet_moves_yield_to_a_mans_capture() {
    let pieces = "piece A Man c1\npiece B Man c2\npiece A Rook e1\n";
    let with = game("(optional-priority Rook)").unwrap();
    assert_eq!(moves(&with, pieces), sorted(&["c1-c3xc2"]));
    let without = game("").unwrap();
    assert_eq!(moves(&without, pieces), sorted(&["c1-c3xc2"]));
}

/// Errors at load time: an unknown type (with a suggestion), the form without `move-priorities`, the form
/// with no type.
#[test]
fn optional_priority_errors_are_located() {
    let e = game("(optional-priority Rok)").unwrap_err();
    assert!(e.contains("unknown piece type `Rok`"), "{e}");
    let e = game("(optional-priority)").unwrap_err();
    assert!(e.contains("names one piece type or more"), "{e}");
    let src = "(game (title \"t\") (players A B) (turn-order A B)
                 (board (grid (dimensions (\"a/b\" (1 0)) (\"2/1\" (0 1))) (directions (n 0 -1))))
                 (piece (name P) (moves ((verify empty?) n add)))
                 (optional-priority P))";
    let read = read_str("inline.zrf", src, std::path::Path::new("."));
    let mut diags = vec![];
    let _ = compile(&read.games[0], &mut diags);
    assert!(
        diags
            .iter()
            .any(|d| d.is_error() && d.message.contains("which this game does not declare")),
        "{diags:?}"
    );
}

/// The same rule inside `phases` (whose move types `move-priorities` orders as everywhere): one phase with both
/// types gives the answers above, 4 moves with the form and 1 without when only the Rook can capture, 2 with
/// both when the Man can too.
#[test]
fn optional_priority_holds_inside_phases() {
    let only_rook = "piece A Man c1\npiece A Rook e1\npiece B Man e3\n";
    let both = "piece A Man c1\npiece B Man c2\npiece A Rook e1\npiece B Man e3\n";
    let with = game("(phases (all jump step)) (optional-priority Rook)").unwrap();
    assert_eq!(
        moves(&with, only_rook),
        sorted(&["c1-c2", "e1-d1", "e1-e2", "e1-e3"])
    );
    assert_eq!(moves(&with, both), sorted(&["c1-c3xc2", "e1-e3"]));
    let without = game("(phases (all jump step))").unwrap();
    assert_eq!(moves(&without, only_rook), sorted(&["e1-e3"]));
}
