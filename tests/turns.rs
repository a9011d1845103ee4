//! Rule tests for this project's turn-order and choice forms (docs/language.md, "Turn order and phases" and
//! "Choices"): phases selected by a condition, `choose`, `extra-turn`, `add-partial-required`. The Nine Men's
//! Morris tests state the published rule they check (the rules written at the top of
//! games/nine-mens-morris.zrf); each fails if the form it checks is ignored.

#[path = "common/scratch.rs"]
mod scratch_dir;
use scratch_dir::Scratch;
mod common;

use dagaz::compile::Game;
use dagaz::engine::{position, Engine, Move};
use dagaz::load::{load_game, VariantSel};
use std::path::Path;

fn morris() -> Game {
    load_game(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("games/nine-mens-morris.zrf"),
        &VariantSel::First,
    )
    .unwrap()
}

fn notations(g: &Game, moves: &[Move]) -> Vec<String> {
    Move::notations(g, moves)
}

/// Compiles a game written in the test; the errors rendered one per line (`file:line:col: error: ...`).
fn compile(text: &str) -> Result<Game, String> {
    let dir = Scratch::new("turns");
    let file = dagaz::lang::read_str("test.zrf", text, &dir);
    let (game, diags) = dagaz::load::compile_selected(&file, &VariantSel::First);
    game.ok_or_else(|| {
        diags
            .iter()
            .filter(|d| d.is_error())
            .map(|d| d.one_line(&file.sources))
            .collect::<Vec<_>>()
            .join("\n")
    })
}

/// "The players take turns placing one stone from hand ... no stone moves while its player has a stone in
/// hand": with stones on the board beside empty points and stones still in hand, every move is a placement.
#[test]
fn no_stone_moves_during_placement() {
    let g = morris();
    let e = Engine::new(&g);
    let s = position::parse(
        &g,
        "turn White\npiece White Man a1\npiece White Man d2\npiece Black Man g7\nreserve White Man 7\nreserve Black Man 8\n",
    )
    .unwrap();
    let moves = e.legal_moves(&s).unwrap();
    assert_eq!(moves.len(), 21, "{:?}", notations(&g, &moves));
    assert!(
        moves.iter().all(|m| m.parts[0].from.is_none()),
        "{:?}",
        notations(&g, &moves)
    );
    // Both hands empty: the same stones now move along the lines (d2-d1 closes a mill: one move per Black
    // stone to remove).
    let s = position::parse(
        &g,
        "turn White\npiece White Man a1\npiece White Man d2\npiece White Man g1\npiece White Man f4\npiece Black Man g7\npiece Black Man a7\npiece Black Man b6\npiece Black Man f6\n",
    )
    .unwrap();
    let moves = e.legal_moves(&s).unwrap();
    let mut names = notations(&g, &moves);
    names.sort();
    assert_eq!(
        names,
        [
            "a1-a4", "a1-d1", "d2-b2", "d2-d1xa7", "d2-d1xb6", "d2-d1xf6", "d2-d1xg7", "d2-d3",
            "d2-f2", "f4-e4", "f4-f2", "f4-g4", "g1-d1", "g1-g4"
        ]
    );
}

/// "Completing three in a row removes one enemy stone of the mover's choice that is not in a mill": one move
/// per stone that may be taken, each replaying from its notation, and the removal belongs to the move.
#[test]
fn a_mill_removes_one_chosen_stone() {
    let g = morris();
    let e = Engine::new(&g);
    let s = position::parse(
        &g,
        "turn White\npiece White Man d1\npiece White Man g1\npiece Black Man b2\npiece Black Man c3\npiece Black Man e5\nreserve White Man 5\nreserve Black Man 6\n",
    )
    .unwrap();
    let moves = e.legal_moves(&s).unwrap();
    let names = notations(&g, &moves);
    let mut at_a1: Vec<&String> = names.iter().filter(|n| n.starts_with("Man@a1")).collect();
    at_a1.sort();
    assert_eq!(at_a1, ["Man@a1xb2", "Man@a1xc3", "Man@a1xe5"]);
    // 18 other empty points, no mill there: one move each.
    assert_eq!(moves.len(), 18 + 3);
    let mut unique = names.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), names.len(), "two moves share a notation");
    // The chosen stone is gone after the move, the others stay; Black moves next.
    let i = names.iter().position(|n| n == "Man@a1xc3").unwrap();
    let after = e.apply(&s, &moves[i]);
    let text = position::format(&g, &after);
    assert!(!text.contains("Black Man c3"), "{text}");
    assert!(
        text.contains("Black Man b2") && text.contains("Black Man e5"),
        "{text}"
    );
    assert_eq!(e.to_move(&after), g.player("Black").unwrap());
}

/// "... that is not in a mill; if every enemy stone stands in a mill, any may be taken."
#[test]
fn stones_in_mills_are_protected_unless_all_are() {
    let g = morris();
    let e = Engine::new(&g);
    let base = "turn White\npiece White Man d1\npiece White Man g1\npiece Black Man a7\npiece Black Man d7\npiece Black Man g7\nreserve White Man 5\nreserve Black Man 5\n";
    let taken = |extra: &str| -> Vec<String> {
        let s = position::parse(&g, &format!("{base}{extra}")).unwrap();
        let moves = e.legal_moves(&s).unwrap();
        let mut v: Vec<String> = notations(&g, &moves)
            .into_iter()
            .filter(|n| n.starts_with("Man@a1"))
            .collect();
        v.sort();
        v
    };
    // A stone outside the mill: only it may be taken.
    assert_eq!(taken("piece Black Man b2\n"), ["Man@a1xb2"]);
    // All in the mill: any of them.
    assert_eq!(taken(""), ["Man@a1xa7", "Man@a1xd7", "Man@a1xg7"]);
}

/// "A player reduced to 3 stones may move a stone to any empty point"; with 4 stones, only along lines.
#[test]
fn three_stones_fly() {
    let g = morris();
    let e = Engine::new(&g);
    let black = "piece Black Man a7\npiece Black Man d7\npiece Black Man b6\npiece Black Man f6\n";
    let three =
        format!("turn White\npiece White Man a1\npiece White Man d2\npiece White Man g4\n{black}");
    let s = position::parse(&g, &three).unwrap();
    let moves = e.legal_moves(&s).unwrap();
    // Each of the 3 stones to each of the 17 empty points.
    assert_eq!(moves.len(), 3 * 17, "{:?}", notations(&g, &moves));
    assert!(notations(&g, &moves).contains(&"a1-e5".to_string()));
    let four = format!("{three}piece White Man c3\n");
    let s = position::parse(&g, &four).unwrap();
    let names = notations(&g, &e.legal_moves(&s).unwrap());
    assert!(!names.iter().any(|n| n == "a1-e5"), "{names:?}");
}

/// "A player with 2 stones (on the board and in hand together) ... loses."
#[test]
fn two_stones_lose() {
    let g = morris();
    let e = Engine::new(&g);
    let black = "piece Black Man a7\npiece Black Man d7\npiece Black Man b6\npiece Black Man f6\n";
    let s = position::parse(
        &g,
        &format!("turn White\npiece White Man a1\npiece White Man d2\n{black}"),
    )
    .unwrap();
    let moves = e.legal_moves(&s).unwrap();
    let o = e.outcome(&s, &moves, &[]).unwrap().expect("over");
    assert_eq!(o.results, [-1, 1]);
    assert_eq!(o.end_type, "pieces-remaining");
    // Two on the board and one in hand is three stones: not lost.
    let s = position::parse(
        &g,
        &format!("turn White\npiece White Man a1\npiece White Man d2\nreserve White Man 1\n{black}reserve Black Man 1\n"),
    )
    .unwrap();
    let moves = e.legal_moves(&s).unwrap();
    assert_eq!(e.outcome(&s, &moves, &[]).unwrap(), None);
}

/// "... or with no legal move, loses": White's four stones are hemmed in.
#[test]
fn a_blocked_player_loses() {
    let g = morris();
    let e = Engine::new(&g);
    let s = position::parse(
        &g,
        "turn White\npiece White Man a1\npiece White Man d1\npiece White Man g1\npiece White Man b2\n\
         piece Black Man a4\npiece Black Man d2\npiece Black Man g4\npiece Black Man b4\npiece Black Man f4\n",
    )
    .unwrap();
    let moves = e.legal_moves(&s).unwrap();
    assert!(moves.is_empty(), "{:?}", notations(&g, &moves));
    let o = e.outcome(&s, &moves, &[]).unwrap().expect("over");
    assert_eq!(
        (o.results, o.end_type.as_str()),
        (vec![-1, 1], "stalemated")
    );
}

const LINE: &str =
    "(board (grid (start-rectangle 0 0 10 10) (dimensions (\"a\" (10 0)) (\"5/4/3/2/1\" (0 10)))
    (directions (n 0 -1))))";

/// `add-partial-required`: a part that must be continued is no move when it cannot be; `add-partial` offers
/// the same part alone (ZRF's rule: the continuation is obligatory only while one exists).
#[test]
fn a_required_continuation_is_not_offered_as_a_prefix() {
    let game = |add: &str| {
        compile(&format!(
            "(game (title \"Two steps\") (players A B) (turn-order (A first) (B first)) {LINE}
  (piece (name P) (moves
    (move-type first) ((verify (not-piece? Q n)) n (verify empty?) ({add} second))
    (move-type second) (n (verify empty?) add)))
  (piece (name Q))
  (board-setup (A (P a1)) (B (Q a3) (Q a5))))"
        ))
        .unwrap()
    };
    let free = game("add-partial");
    let e = Engine::new(&free);
    let names = notations(&free, &e.legal_moves(&e.initial()).unwrap());
    assert_eq!(names, ["a1-a2"], "a3 is taken: the first step stands alone");
    let required = game("add-partial-required");
    let e = Engine::new(&required);
    let moves = e.legal_moves(&e.initial()).unwrap();
    assert!(moves.is_empty(), "{:?}", notations(&required, &moves));
    // With room for the second step, both games have the whole move.
    let s = position::parse(&required, "turn A\npiece A P a1\npiece B Q a5\n").unwrap();
    assert_eq!(
        notations(&required, &e.legal_moves(&s).unwrap()),
        ["a1-a2-a3"]
    );
}

/// `(extra-turn)` (Kalah's "the last seed in one's own store gives another turn"): a move that reaches the
/// far square is followed by another move of the same player; any other move passes the turn.
#[test]
fn an_extra_turn_is_earned_by_the_move() {
    let g = compile(&format!(
        "(game (title \"Again\") (players A B) (turn-order A B) {LINE}
  (piece (name P) (moves (n (verify empty?) (if (not-on-board? n) (extra-turn)) add)))
  (board-setup (A (P a3)) (B (P a1))))"
    ))
    .unwrap();
    let e = Engine::new(&g);
    let (a, b) = (g.player("A").unwrap(), g.player("B").unwrap());
    let s = e.initial();
    let m = &e.legal_moves(&s).unwrap()[0];
    let s = e.apply(&s, m);
    assert_eq!(e.to_move(&s), b, "a3-a4 earns nothing");
    let s = e.apply(&s, &e.legal_moves(&s).unwrap()[0]);
    let m = &e.legal_moves(&s).unwrap()[0];
    assert_eq!(m.notation(&g), "a4-a5");
    let s = e.apply(&s, m);
    assert_eq!(e.to_move(&s), a, "reaching a5 gives A another turn");
    assert_eq!(s.ply(), 3);

    // The same step with and without the extra turn are two moves, not one merged.
    let g = compile(&format!(
        "(game (title \"Two\") (players A B) (turn-order A B) {LINE}
  (piece (name P) (moves (n (verify empty?) add) (n (verify empty?) (extra-turn) add)))
  (board-setup (A (P a3)) (B (P a1))))"
    ))
    .unwrap();
    let e = Engine::new(&g);
    let moves = e.legal_moves(&e.initial()).unwrap();
    assert_eq!(moves.len(), 2);
    assert_eq!(moves.iter().filter(|m| m.extra_turn()).count(), 1);
    let names = notations(&g, &moves);
    assert_eq!(names, ["a3-a4 [a3-a4]", "a3-a4 [a3-a4 extra-turn]"]);
}

/// Phases: the first whose condition holds gives the move types; the last without `when` is the default.
#[test]
fn phases_select_move_types_by_condition() {
    let g = compile(&format!(
        "(game (title \"Phases\") (players A B) (turn-order A B) {LINE}
  (piece (name P)
    (drops (move-type drop) ((verify empty?) add))
    (moves (move-type step) (n (verify empty?) add)))
  (board-setup (A (P a1) (P off 1)) (B (P a5)))
  (phases (dropping (when (in-reserve P)) drop) (stepping step)))"
    ))
    .unwrap();
    let e = Engine::new(&g);
    let s = e.initial();
    let mut names = notations(&g, &e.legal_moves(&s).unwrap());
    names.sort();
    assert_eq!(names, ["P@a2", "P@a3", "P@a4"]);
    let s = position::parse(&g, "turn A\npiece A P a1\npiece B P a5\n").unwrap();
    assert_eq!(notations(&g, &e.legal_moves(&s).unwrap()), ["a1-a2"]);
}

/// New forms report their errors at their place in the file.
#[test]
fn errors_of_the_new_forms_have_locations() {
    let head = format!("(game (title \"E\") (players A B) (turn-order A B) {LINE}\n");
    let piece = "(piece (name P) (drops (move-type drop) ((verify empty?) add)))\n";
    let cases = [
        (
            "(phases (one (when stalemated) drop))",
            "test.zrf:4:14: error: `stalemated` cannot select a phase",
        ),
        (
            "(phases (one drop jump))",
            "test.zrf:4:19: error: move type `jump` is used by no move program",
        ),
        (
            "(phases (one (when (in-reserve P))))",
            "test.zrf:4:9: error: phase `one` allows no move type",
        ),
    ];
    for (text, want) in cases {
        let err = compile(&format!("{head}{piece}{text})")).unwrap_err();
        assert!(err.contains(want), "{text}: {err}");
    }
    let cases = [
        (
            "(while empty? (choose (positions empty?)) n)",
            "`choose` inside `while` is not supported",
        ),
        (
            "(choose empty? capture)",
            "the first argument of `choose` is (positions CONDITION...)",
        ),
        (
            "(choose (positions enemy?) (otherwise empty?) capture)",
            "`otherwise` is (positions CONDITION...)",
        ),
    ];
    for (prog, want) in cases {
        let err = compile(&format!("{head}(piece (name P) (moves (n {prog} add))))")).unwrap_err();
        assert!(
            err.contains("test.zrf:3:") && err.contains(want),
            "{prog}: {err}"
        );
    }
}

/// Two choices on one path, the second excluding the first's stone by a position flag: one move per pair of
/// stones, each pair listed once (the two orders have one net effect), and the moving piece stays (`to` on
/// its own square): a move that only removes.
#[test]
fn two_choices_remove_two_stones_once_per_pair() {
    let g = compile(&format!(
        "(game (title \"Two removals\") (players A B) (turn-order A B) {LINE}
  (piece (name P) (moves (to
    (choose (positions enemy?) capture (set-position-flag taken true))
    (choose (positions enemy? (not (position-flag? taken))) capture)
    add)))
  (board-setup (A (P a1)) (B (P a2) (P a3) (P a4))))"
    ))
    .unwrap();
    let e = Engine::new(&g);
    let moves = e.legal_moves(&e.initial()).unwrap();
    let mut names = notations(&g, &moves);
    names.sort();
    assert_eq!(names, ["a1xa3xa2", "a1xa4xa2", "a1xa4xa3"]);
}

/// Labels and jumps in the turn order (issue 9, "labels and jumps", e.g. Bao's stages): `(label NAME)`
/// marks a turn, `(goto NAME)` after a turn loops the order back, and a move's `(goto-turn NAME)` sends it
/// to another stage, the label chosen by the move (here: by the player who reached the far square). The
/// opening stage loops A-up, B-up until A's piece reaches a5; then the main stage, B-down, A-down, loops.
#[test]
fn labels_and_jumps_send_the_turn_order_to_another_stage() {
    let g = compile(
        "(game (title \"Stages\") (players A B)
  (turn-order (label opening) (A up) (B up) (goto opening)
              (label main) (A down) (label main-b) (B down) (goto main))
  (board (grid (start-rectangle 0 0 10 10) (dimensions (\"a\" (10 0)) (\"5/4/3/2/1\" (0 10)))
    (directions (n 0 -1) (s 0 1))))
  (piece (name P) (moves
    (move-type up) (n (verify empty?) (if (not-on-board? n) (goto-turn main-b)) add)
    (move-type down) (s (verify empty?) add)))
  (board-setup (A (P a3)) (B (P a1)))
  (loss-condition (A B) stalemated))",
    )
    .unwrap();
    let e = Engine::new(&g);
    let (a, b) = (g.player("A").unwrap(), g.player("B").unwrap());
    let play = |s: &dagaz::engine::State, want: &str| {
        let moves = e.legal_moves(s).unwrap();
        let m = moves
            .iter()
            .find(|m| m.notation(&g) == want)
            .unwrap_or_else(|| panic!("no {want} in {:?}", notations(&g, &moves)));
        e.apply(s, m)
    };
    let s = e.initial();
    let s = play(&s, "a3-a4");
    assert_eq!((e.to_move(&s), s.turn()), (b, 1));
    let s = play(&s, "a1-a2");
    assert_eq!(
        (e.to_move(&s), s.turn()),
        (a, 0),
        "(goto opening) loops the opening"
    );
    let s = play(&s, "a4-a5");
    assert_eq!(
        (e.to_move(&s), s.turn()),
        (b, 3),
        "a5 sends the order to main-b"
    );
    let s = play(&s, "a2-a1");
    assert_eq!(
        (e.to_move(&s), s.turn()),
        (a, 2),
        "(goto main) after B's main turn"
    );
    let s = play(&s, "a5-a4");
    assert_eq!((e.to_move(&s), s.turn()), (b, 3));
}

#[test]
fn turn_labels_have_located_errors() {
    let base = |order: &str, prog: &str| {
        compile(&format!(
            "(game (title \"Bad\") (players A B) (turn-order {order}) {LINE}
  (piece (name P) (moves (n {prog} add)))
  (board-setup (A (P a3)) (B (P a1))))"
        ))
        .unwrap_err()
    };
    let e = base("(label one) A B (goto onw)", "");
    assert!(
        e.contains("test.zrf:1:63: error: unknown label `onw`"),
        "{e}"
    );
    let e = base("(label one) A (label one) B", "");
    assert!(e.contains("error: label `one` is declared twice"), "{e}");
    let e = base("(goto one) (label one) A B", "");
    assert!(e.contains("error: `goto` follows a turn"), "{e}");
    let e = base("A B (label end)", "");
    assert!(
        e.contains("error: label `end` stands before no turn"),
        "{e}"
    );
    let e = base("(label one) A B", "(goto-turn onee)");
    assert!(e.contains("error: unknown label `onee`"), "{e}");
}

/// A row of five squares, a1 to e1, where each player's piece steps east or west onto an empty square; a step
/// that lands in the zone `bonus` (d1, e1 for B; a1, b1 for A) runs `BONUS`. Whoever makes the second
/// occurrence of a position (with the player to move) loses: `(caused-repetition 2)`.
fn repetition_row(order: &str, bonus: &str) -> Game {
    compile(&format!(
        "(game (title \"Row\") (players A B) (turn-order {order})
  (board (grid (start-rectangle 0 0 10 10) (dimensions (\"a/b/c/d/e\" (10 0)) (\"1\" (0 10)))
    (directions (e 1 0) (w -1 0)))
    (zone (name bonus) (players A) (positions a1 b1))
    (zone (name bonus) (players B) (positions d1 e1)))
  (piece (name P) (moves
    (e (verify empty?) (if (in-zone? bonus) {bonus}) add)
    (w (verify empty?) (if (in-zone? bonus) {bonus}) add)))
  (board-setup (A (P a1)) (B (P e1)))
  (loss-condition (A B) (name \"repeats\") (caused-repetition 2)))"
    ))
    .unwrap()
}

/// Plays `line` from the start, each move named by its notation; the state after it and the keys of the
/// positions before it (the history `outcome` reads).
fn play_line(g: &Game, e: &Engine, line: &[&str]) -> (dagaz::engine::State, Vec<u64>) {
    let mut s = e.initial();
    let mut history = vec![];
    for want in line {
        let moves = e.legal_moves(&s).unwrap();
        let m = moves
            .iter()
            .find(|m| m.notation(g) == *want)
            .unwrap_or_else(|| panic!("no {want} in {:?}", notations(g, &moves)));
        history.push(s.key());
        s = e.apply(&s, m);
    }
    (s, history)
}

/// "The tested player made the last move, and the position after it occurs for the N-th time" (docs/language.md,
/// `caused-repetition`): A's step into its bonus zone earns an extra turn, so A's two steps a1-b1, b1-a1
/// bring back the start with A to move. A made the last move and loses; B, who has not moved, does not. (Naming
/// the last mover as the turn entry before the current one made B lose.)
#[test]
fn caused_repetition_after_an_extra_turn_loses_for_the_player_who_moved_twice() {
    let g = repetition_row("A B", "(extra-turn)");
    let e = Engine::new(&g);
    let (s, history) = play_line(&g, &e, &["a1-b1", "b1-a1"]);
    assert_eq!(
        e.to_move(&s),
        g.player("A").unwrap(),
        "both steps earned a turn"
    );
    assert_eq!(s.key(), e.initial().key(), "the start is back");
    let moves = e.legal_moves(&s).unwrap();
    let out = e.outcome(&s, &moves, &history).unwrap().expect("game over");
    assert_eq!(out.name, "repeats");
    assert_eq!(out.results, vec![-1, 1], "A repeated and loses");
}

/// `(goto-turn b-turn)` on B's step into its bonus zone sends the order back to B's own turn: B's e1-d1 and
/// d1-e1 bring back the position after A's a1-b1, with B to move. B made the last move and loses. (Naming the
/// entry before B's, A, made A lose.)
#[test]
fn caused_repetition_after_goto_turn_loses_for_the_player_who_jumped() {
    let g = repetition_row("(label a-turn) A (label b-turn) B", "(goto-turn b-turn)");
    let e = Engine::new(&g);
    let b = g.player("B").unwrap();
    let (s, history) = play_line(&g, &e, &["a1-b1", "e1-d1", "d1-e1"]);
    assert_eq!(
        e.to_move(&s),
        b,
        "B's steps into d1 and e1 sent the turn back to B"
    );
    assert_eq!(s.key(), history[1], "the position after a1-b1 is back");
    let moves = e.legal_moves(&s).unwrap();
    let out = e.outcome(&s, &moves, &history).unwrap().expect("game over");
    assert_eq!(out.name, "repeats");
    assert_eq!(out.results, vec![1, -1], "B repeated and loses");
}

/// Make and unmake keep who made the last move: after an extra turn, a jump and an ordinary move, undoing
/// gives back the state before, and making equals applying.
#[test]
fn make_and_unmake_keep_the_last_mover() {
    for (order, bonus) in [
        ("A B", "(extra-turn)"),
        ("(label a-turn) A (label b-turn) B", "(goto-turn b-turn)"),
    ] {
        let g = repetition_row(order, bonus);
        let e = Engine::new(&g);
        let (mut s, _) = play_line(&g, &e, &["a1-b1"]);
        let mut undo = dagaz::engine::apply::Undo::new();
        for _ in 0..6 {
            let moves = e.legal_moves(&s).unwrap();
            let Some(m) = moves.first() else { break };
            let before = s.clone();
            let applied = e.apply(&s, m);
            e.make(&mut s, m, &mut undo);
            assert_eq!(s, applied, "{order}: make equals apply");
            e.unmake(&mut s, &mut undo);
            assert_eq!(s, before, "{order}: unmake restores");
            s = applied;
        }
    }
}

/// Every test of this file once more with the general path forced (`DAGAZ_GENERAL_PATH=1`).
#[test]
fn on_the_general_path() {
    common::rerun_on_general_path("on_the_general_path");
}

/// Each choice of a `choose` starts from the program's state before it, move variables included: a count kept
/// by `set-var` inside the choice is 1 on every path, never the number of choices tried before it.
#[test]
fn a_choice_does_not_see_the_move_variables_of_another() {
    let g = compile(&format!(
        "(game (title \"Counted\") (players A B) (turn-order A B) {LINE}
  (piece (name P) (moves (to (set-var n 0)
    (choose (positions enemy?) capture (set-var n (+ n 1)))
    (verify (= n 1))
    add)))
  (board-setup (A (P a1)) (B (P a2) (P a3) (P a4))))"
    ))
    .unwrap();
    let e = Engine::new(&g);
    let moves = e.legal_moves(&e.initial()).unwrap();
    let mut names = notations(&g, &moves);
    names.sort();
    assert_eq!(names, ["a1xa2", "a1xa3", "a1xa4"]);
}
