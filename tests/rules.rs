//! Rule tests for the engine behaviour behind issue 7: end conditions read per player, the start of a game,
//! many attributes, equal moves merged, forced passes against `stalemated`, notation that names one move.
//! Each test states the published rule it checks; corpus files are read where they are, never copied.

#[path = "common/scratch.rs"]
mod scratch_dir;
use scratch_dir::Scratch;
mod common;

use dagaz::compile::Game;
use dagaz::engine::{position, Engine};
use dagaz::load::{load_game, VariantSel};

fn corpus(file: &str, variant: usize) -> Game {
    load_game(
        &common::corpus_root().join(file),
        &VariantSel::Number(variant),
    )
    .unwrap()
}

/// The outcome of a position given in the position format: (winner's name or "draw", end type), or `None`.
fn outcome(game: &Game, pos: &str) -> Option<(String, String)> {
    let engine = Engine::new(game);
    let s = position::parse(game, pos).unwrap();
    let moves = engine.legal_moves(&s).unwrap();
    engine.outcome(&s, &moves, &[]).unwrap().map(|o| {
        let winner = o
            .results
            .iter()
            .position(|&r| r == 1)
            .map_or("draw".to_string(), |p| game.players[p].name.clone());
        (winner, o.end_type)
    })
}

const DOBUTSU: &str = "ZRF/DobutsuShogi/Dobutsu.zrf";

/// Dobutsu Shogi: a player wins by bringing the lion (here `King`) onto the far rank, the opponent's home row.
/// The zone is declared per player, so each player's lion wins on the other's home row, and a lion on its own
/// home row (where both start) wins nothing.
#[test]
fn dobutsu_lion_wins_on_the_far_rank_only() {
    let g = corpus(DOBUTSU, 1);
    let engine = Engine::new(&g);
    let s = engine.initial();
    let moves = engine.legal_moves(&s).unwrap();
    assert!(!moves.is_empty());
    assert_eq!(
        engine.outcome(&s, &moves, &[]).unwrap(),
        None,
        "over at the start"
    );
    // Both lions at home, other pieces about: nobody has won.
    let home =
        "turn Green\npiece Green King b1\npiece Green Za b2\npiece Red King b4\npiece Red Za b3\n";
    assert_eq!(outcome(&g, home), None);
    // Green's lion on Red's home row (a4), Red's lion elsewhere: Green has won.
    let far = "turn Red\npiece Green King a4\npiece Red King c2\npiece Green Za b2\n";
    assert_eq!(
        outcome(&g, far),
        Some(("Green".into(), "absolute-config".into()))
    );
    // Red's lion on Green's home row (c1): Red has won.
    let far = "turn Green\npiece Red King c1\npiece Green King a3\npiece Red Za b3\n";
    assert_eq!(
        outcome(&g, far),
        Some(("Red".into(), "absolute-config".into()))
    );
}

const CHECKER_GAMES: &str = "GlukKazan-ZoG/External/Checker Games.zrf";

/// Cheskers (variant 11 of Checker Games): "The object of the game is to capture all kings of the opponent";
/// the file says it as `(loss-condition (White Black) (absolute-config (not King) (a1 ... h8)))`: a player with
/// no king on the board has lost. With two kings each at the start, nobody has.
#[test]
fn cheskers_is_lost_when_no_king_is_left() {
    let g = corpus(CHECKER_GAMES, 11);
    assert_eq!(g.title, "Cheskers");
    let engine = Engine::new(&g);
    let s = engine.initial();
    let moves = engine.legal_moves(&s).unwrap();
    assert!(!moves.is_empty());
    assert_eq!(
        engine.outcome(&s, &moves, &[]).unwrap(),
        None,
        "over at the start"
    );
    // White still has a king; Black (to move) has only a pawn left: Black has lost.
    let pos = "turn Black\npiece White King d8\npiece White Pawn a7\npiece Black Pawn c3\n";
    assert_eq!(
        outcome(&g, pos),
        Some(("White".into(), "absolute-config".into()))
    );
    // Both have a king: the game goes on.
    let pos = "turn Black\npiece White King d8\npiece Black King c1\npiece Black Pawn c3\n";
    assert_eq!(outcome(&g, pos), None);
}

/// Daldøs(a): each turn a player throws two dice, then moves by them; in the file the random player `?D`
/// throws for Black (`(?D Black dice-1) (?D Black dice-2) (Black normal-mode) ...`), dropping Black's dice on
/// the dice squares, a zone declared for Black and White only. So the game starts with a throw, the dice thrown
/// are Black's, and after two throws Black has a move to make.
#[test]
fn daldosa_dice_are_thrown_for_the_player_and_are_its_own() {
    let g = corpus("ZRF/Daldosa/Daldosa.zrf", 1);
    let engine = Engine::new(&g);
    let mut s = engine.initial();
    let black = g.player("Black").unwrap();
    for throw in 0..2 {
        let moves = engine.legal_moves(&s).unwrap();
        assert!(
            moves.iter().any(|m| !m.is_pass()),
            "throw {throw}: no dice to throw"
        );
        let m = moves.iter().find(|m| !m.is_pass()).unwrap();
        s = engine.apply(&s, m);
    }
    let dice: Vec<_> = ["X", "Y"]
        .iter()
        .filter_map(|p| s.get(g.board.position(p).unwrap()))
        .collect();
    assert!(
        !dice.is_empty() && dice.iter().all(|d| d.owner == black),
        "{dice:?}"
    );
    assert_eq!(engine.to_move(&s), black);
    let moves = engine.legal_moves(&s).unwrap();
    assert!(
        moves.iter().any(|m| !m.is_pass()),
        "Black cannot use its throw"
    );
}

/// A one-player game whose token declares `n` attributes `x1..xn`, only `x1` true. Its moves read and write
/// the 33rd and the 40th: a step while `x33` holds (never: it is false), a step that sets `x40` while it is
/// false, a step that clears it while it and `x1` hold. So the token walks a1..a5, one move per position.
fn attribute_game(n: usize) -> String {
    let attrs: String = (1..=n)
        .map(|i| format!("    (attribute x{i} {})\n", i == 1))
        .collect();
    format!(
        "(game (title \"Attributes\") (players You) (turn-order You)
  (board (grid (start-rectangle 0 0 10 10) (dimensions (\"a\" (10 0)) (\"5/4/3/2/1\" (0 10)))
    (directions (n 0 -1))))
  (piece (name Token)
{attrs}    (moves
      ((verify x33) n (verify empty?) add)
      ((verify (not x40)) n (verify empty?) (set-attribute x40 true) add)
      ((verify x40) (verify x1) n (verify empty?) (set-attribute x40 false) add)))
  (board-setup (You (Token a1))))
"
    )
}

/// ZRF attributes are independent booleans per piece, however many a game declares: writing the 40th changes
/// neither the 1st nor the 8th, and the 33rd is not the 1st. 40 attributes work; more than the engine holds is
/// an error at the first attribute too many.
#[test]
fn forty_attributes_are_forty_independent_flags() {
    let dir = Scratch::new("rules");
    let file = dagaz::lang::read_str("attributes.zrf", &attribute_game(40), &dir);
    let (game, diags) = dagaz::load::compile_selected(&file, &VariantSel::First);
    let game = game.unwrap_or_else(|| panic!("{diags:?}"));
    assert_eq!(game.attributes.len(), 40);
    let engine = Engine::new(&game);
    let mut s = engine.initial();
    let x1 = dagaz::compile::AttrId(0);
    let x40 = dagaz::compile::AttrId(39);
    for step in 0..4 {
        let moves = engine.legal_moves(&s).unwrap();
        assert_eq!(moves.len(), 1, "step {step}: {moves:?}");
        s = engine.apply(&s, &moves[0]);
        let pos = game.board.position(&format!("a{}", step + 2)).unwrap();
        let token = s.get(pos).expect("the token moved one step");
        assert!(token.attr(x1), "step {step}: x1 was lost");
        assert_eq!(token.attr(x40), step % 2 == 0, "step {step}: x40");
    }
    assert!(engine.legal_moves(&s).unwrap().is_empty());
    assert_eq!(engine.perft(&engine.initial(), 4).unwrap(), 1);

    // One attribute too many: an error that names the attribute and its place.
    let too_many = dagaz::compile::MAX_ATTRIBUTES + 1;
    let file = dagaz::lang::read_str("attributes.zrf", &attribute_game(too_many), &dir);
    let (game, diags) = dagaz::load::compile_selected(&file, &VariantSel::First);
    assert!(game.is_none());
    let text: Vec<String> = diags.iter().map(|d| format!("{d:?}")).collect();
    assert!(
        text.iter().any(|d| d.contains(&format!("x{too_many}"))),
        "{text:?}"
    );
}

/// Compiles a game written in the test.
fn game_from(text: &str) -> Game {
    let dir = Scratch::new("rules");
    let file = dagaz::lang::read_str("test.zrf", text, &dir);
    let (game, diags) = dagaz::load::compile_selected(&file, &VariantSel::First);
    game.unwrap_or_else(|| panic!("{diags:?}"))
}

/// Moves with the same net effect are one move (README, "Conventions"; the "drop duplicates" count): a piece
/// type that lists the same move program twice still has one move `a1-b2`, and one enemy stone found by two
/// scans (north, or east-north-west) is one removal.
#[test]
fn equal_moves_are_one_move() {
    let board = "(board (grid (start-rectangle 0 0 10 10) (dimensions (\"a/b/c\" (10 0)) (\"3/2/1\" (0 10)))
    (directions (n 0 -1) (e 1 0) (w -1 0) (ne 1 -1))))";
    let twice = format!(
        "(game (title \"Twice\") (players A B) (turn-order A B) {board}
  (piece (name P) (moves (ne (verify empty?) add) (ne (verify empty?) add)))
  (board-setup (A (P a1)) (B (P c3))))"
    );
    let g = game_from(&twice);
    let e = Engine::new(&g);
    let moves = e.legal_moves(&e.initial()).unwrap();
    let names: Vec<String> = moves.iter().map(|m| m.notation(&g)).collect();
    assert_eq!(names, ["a1-b2"]);
    assert_eq!(e.perft(&e.initial(), 1).unwrap(), 1);

    let scans = format!(
        "(game (title \"Scans\") (players A B) (turn-order A B) {board}
  (piece (name P) (moves
    (n (verify enemy?) capture (go from) add)
    (e n w (verify enemy?) capture (go from) add)))
  (board-setup (A (P a1)) (B (P a2) (P c3))))"
    );
    let g = game_from(&scans);
    let e = Engine::new(&g);
    let moves = e.legal_moves(&e.initial()).unwrap();
    assert_eq!(
        moves.len(),
        1,
        "{:?}",
        moves.iter().map(|m| m.notation(&g)).collect::<Vec<_>>()
    );
}

/// A move recorded by its notation must name one move of the list: two moves `a1-b2` that differ in what
/// else they do (one sets an attribute, one changes the piece's type elsewhere) get names that tell them apart,
/// and a notation that is already unique stays as it is.
#[test]
fn notation_names_one_move_of_the_list() {
    let g = game_from(
        "(game (title \"Names\") (players A B) (turn-order A B)
  (board (grid (start-rectangle 0 0 10 10) (dimensions (\"a/b/c\" (10 0)) (\"3/2/1\" (0 10)))
    (directions (n 0 -1) (ne 1 -1))))
  (piece (name P) (attribute moved false) (moves
    (ne (verify empty?) add)
    (ne (verify empty?) (set-attribute moved true) add)
    (n (verify empty?) add)))
  (piece (name Q))
  (board-setup (A (P a1)) (B (P c3))))",
    );
    let e = Engine::new(&g);
    let moves = e.legal_moves(&e.initial()).unwrap();
    assert_eq!(moves.len(), 3);
    let names = dagaz::engine::Move::notations(&g, &moves);
    let mut unique = names.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), 3, "{names:?}");
    assert!(names.contains(&"a1-a2".to_string()), "{names:?}");
    assert!(
        names.iter().filter(|n| n.starts_with("a1-b2")).count() == 2,
        "{names:?}"
    );
}

/// `pass turn forced` with `(loss-condition (A B) stalemated)`: as in Zillions (its Reversi: "If one player
/// can't move, he must pass his turn. The game ends when neither side can move"), a blocked player passes
/// while the other can still move; once both are blocked and have passed in turn, the player to move is
/// stalemated and loses.
#[test]
fn forced_pass_is_not_stalemate_while_the_other_player_moves() {
    let g = game_from(
        "(game (title \"Blocked\") (players A B) (turn-order A B)
  (option \"pass turn\" forced)
  (board (grid (start-rectangle 0 0 10 10) (dimensions (\"a/b\" (10 0)) (\"3/2/1\" (0 10)))
    (directions (n 0 -1))))
  (piece (name P) (moves (n (verify empty?) add)))
  (board-setup (A (P a3)) (B (P b1)))
  (loss-condition (A B) stalemated))",
    );
    let e = Engine::new(&g);
    let mut s = e.initial();
    let mut history = vec![];
    // A is blocked on the far rank: it passes; B walks b1-b2-b3 meanwhile, then is blocked and passes too.
    for ply in 0..6 {
        let moves = e.legal_moves(&s).unwrap();
        assert_eq!(e.outcome(&s, &moves, &history).unwrap(), None, "ply {ply}");
        let who = &g.players[e.to_move(&s).idx()].name;
        assert_eq!(moves.len(), 1, "ply {ply}");
        assert_eq!(
            moves[0].is_pass(),
            who == "A" || ply == 5,
            "ply {ply}: {who}"
        );
        history.push(s.key());
        s = e.apply(&s, &moves[0]);
    }
    // Both blocked and both have passed: A, to move, is stalemated and loses.
    let moves = e.legal_moves(&s).unwrap();
    let o = e.outcome(&s, &moves, &history).unwrap().expect("over");
    assert_eq!(o.end_type, "stalemated");
    assert_eq!(o.results, vec![-1, 1]);
}

/// `blocked` tells "only the pass" apart from "no moves" (spec/extensions.md §6: `pass turn forced` must not
/// break a loss by having no move; "stalemated and no Lock pieces remain" must be sayable). The same position as
/// above, with `(loss-condition (A B) blocked)`: A, whose only move is the forced pass, loses at once, while
/// `stalemated` (above) waits for a whole round of passes.
#[test]
fn blocked_holds_when_the_only_move_is_the_forced_pass() {
    let text = |cond: &str| {
        format!(
            "(game (title \"Blocked\") (players A B) (turn-order A B)
  (option \"pass turn\" forced)
  (board (grid (start-rectangle 0 0 10 10) (dimensions (\"a/b\" (10 0)) (\"3/2/1\" (0 10)))
    (directions (n 0 -1))))
  (piece (name P) (moves (n (verify empty?) add)))
  (piece (name Lock))
  (board-setup (A (P a3)) (B (P b1)))
  (loss-condition (A B) {cond}))"
        )
    };
    let g = game_from(&text("blocked"));
    let e = Engine::new(&g);
    let s = e.initial();
    let moves = e.legal_moves(&s).unwrap();
    assert!(moves.len() == 1 && moves[0].is_pass());
    let o = e.outcome(&s, &moves, &[]).unwrap().expect("A is blocked");
    assert_eq!(o.end_type, "blocked");
    assert_eq!(o.results, vec![-1, 1]);

    // Combined as the spec's example: blocked and no Lock piece left. A has no Lock, so it still loses; give
    // A a Lock and the game goes on with A's pass.
    let g = game_from(&text("(and blocked (pieces-remaining 0 Lock))"));
    let e = Engine::new(&g);
    let s = e.initial();
    let moves = e.legal_moves(&s).unwrap();
    assert_eq!(
        e.outcome(&s, &moves, &[]).unwrap().map(|o| o.results),
        Some(vec![-1, 1])
    );
    let with_lock =
        position::parse(&g, "turn A\npiece A P a3\npiece A Lock a1\npiece B P b1\n").unwrap();
    let moves = e.legal_moves(&with_lock).unwrap();
    assert!(moves.len() == 1 && moves[0].is_pass());
    assert_eq!(e.outcome(&with_lock, &moves, &[]).unwrap(), None);

    // B can move: not blocked, whatever the condition says of A.
    let b_to_move = position::parse(&g, "turn B\npiece A P a3\npiece B P b1\n").unwrap();
    let moves = e.legal_moves(&b_to_move).unwrap();
    assert!(!moves[0].is_pass());
    assert_eq!(e.outcome(&b_to_move, &moves, &[]).unwrap(), None);
}

/// Every test of this file once more with the general path forced (`DAGAZ_GENERAL_PATH=1`).
#[test]
fn on_the_general_path() {
    common::rerun_on_general_path("on_the_general_path");
}
