//! Rule tests for invariants (`(invariant ...)`), teams (`(allies ...)`, `my?`) and the end conditions
//! `attacked` / `all-attacked`, from the published rules of Xiangqi, four-player partnership chess, Tamerlane
//! chess's second royal piece and Shogi's "no mate by a dropped pawn". Each test fails if its form is ignored:
//! the positions are chosen so that the legal moves or the outcome differ without it.

#[path = "common/scratch.rs"]
mod scratch_dir;
use scratch_dir::Scratch;
mod common;

use dagaz::compile::Game;
use dagaz::engine::{position, Engine};
use dagaz::load::{load_game, VariantSel};
use std::path::Path;

fn load(file: &str) -> Game {
    load_game(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join(file),
        &VariantSel::First,
    )
    .unwrap()
}

fn game_from(text: &str) -> Game {
    // One folder per call: tests run in parallel and may load the same text.
    let path = Scratch::file("invariants", "g.zrf", text);
    load_game(&path, &VariantSel::First).unwrap()
}

fn has(moves: &[String], m: &str) -> bool {
    moves.iter().any(|x| x == m)
}

const XIANGQI: &str = "games/xiangqi.zrf";
const PARTNERSHIP: &str = "games/partnership-chess.zrf";

// --- Xiangqi: check is illegality (`not-attacked`), the flying general (`facing`) ---

#[test]
fn xiangqi_a_pinned_chariot_moves_only_along_the_pin() {
    // Red's chariot on e3 shields the general e1 from Black's chariot e8: it may move along the e-file (and take
    // e8) but not sideways. The general may go to e2 or f1, not d1, where it would face Black's general on d10
    // across an empty file.
    let g = load(XIANGQI);
    let pos = "turn Red\npiece Red General e1\npiece Red Chariot e3\npiece Black Chariot e8\npiece Black General d10\n";
    let m = common::sorted_moves(&g, pos);
    assert!(
        has(&m, "e3-e8") && has(&m, "e3-e4") && has(&m, "e3-e2"),
        "{m:?}"
    );
    assert!(
        !has(&m, "e3-d3") && !has(&m, "e3-a3") && !has(&m, "e3-i3"),
        "{m:?}"
    );
    assert!(has(&m, "e1-f1") && has(&m, "e1-e2"), "{m:?}");
    assert!(!has(&m, "e1-d1"), "flying general: {m:?}");
    assert_eq!(m.len(), 8, "{m:?}");
}

#[test]
fn xiangqi_the_last_piece_between_the_generals_may_not_leave_the_file() {
    // Red's horse on e5 is the only piece between the generals on e1 and e10: every horse move leaves the file
    // (a horse never lands on its own file after one leap), so none is legal; the general still moves.
    let g = load(XIANGQI);
    let pos = "turn Red\npiece Red General e1\npiece Red Horse e5\npiece Black General e10\n";
    let m = common::sorted_moves(&g, pos);
    assert!(m.iter().all(|x| x.starts_with("e1-")), "{m:?}");
    assert_eq!(m, vec!["e1-d1", "e1-e2", "e1-f1"]);
}

#[test]
fn xiangqi_no_legal_move_loses_even_without_check() {
    // Black's general e10 is not attacked, but it has no legal move: d10 would face Red's general d1 across the
    // empty d-file, f10 is attacked by the chariot f2, e9 by the chariot i9. Stalemate loses.
    let g = load(XIANGQI);
    let engine = Engine::new(&g);
    let pos = "turn Black\npiece Black General e10\npiece Red General d1\npiece Red Chariot f2\npiece Red Chariot i9\n";
    let s = position::parse(&g, pos).unwrap();
    let moves = engine.legal_moves(&s).unwrap();
    assert!(moves.is_empty(), "{:?}", common::sorted_moves(&g, pos));
    let o = engine.outcome(&s, &moves, &[]).unwrap().unwrap();
    assert_eq!(o.results, vec![1, -1]);
    assert_eq!(o.name, "no legal move");
}

// --- Partnership chess: allies (`allies`, `friend?`), allied kings, only one's own king ---

#[test]
fn partnership_a_piece_never_takes_an_allys_piece() {
    // Red's rook e5 sees Yellow's (its partner's) pawn on e8 and Blue's pawn on h5: it takes h5, not e8.
    let g = load(PARTNERSHIP);
    let pos = "turn Red\npiece Red Rook e5\npiece Yellow Pawn e8\npiece Blue Pawn h5\n";
    let m = common::sorted_moves(&g, pos);
    assert!(has(&m, "e5-h5") && has(&m, "e5-e7"), "{m:?}");
    assert!(!has(&m, "e5-e8"), "an ally's piece was taken: {m:?}");
}

#[test]
fn partnership_an_allied_king_or_queen_gives_no_check() {
    // Red's king g5 stands beside Yellow's king h6 with Yellow's queen on g7: Red's king may step to any of
    // its eight squares but h6 (occupied by an ally), next to the allied king and onto the allied queen's lines.
    let g = load(PARTNERSHIP);
    let pos = "turn Red\npiece Red King g5\npiece Yellow King h6\npiece Yellow Queen g7\n";
    let m = common::sorted_moves(&g, pos);
    assert_eq!(
        m,
        vec!["g5-f4", "g5-f5", "g5-f6", "g5-g4", "g5-g6", "g5-h4", "g5-h5"]
    );
}

#[test]
fn partnership_only_ones_own_king_must_be_safe() {
    // Red's rook e6 is pinned to Red's king e4 by Blue's rook e10: it may not leave the e-file. Red's bishop h6
    // shields Yellow's (the partner's) king h9 from Green's rook h3: it may move away.
    let g = load(PARTNERSHIP);
    let pos = "turn Red\npiece Red King e4\npiece Red Rook e6\npiece Blue Rook e10\n\
               piece Red Bishop h6\npiece Yellow King h9\npiece Green Rook h3\n";
    let m = common::sorted_moves(&g, pos);
    assert!(has(&m, "e6-e10") && has(&m, "e6-e5"), "{m:?}");
    assert!(
        !has(&m, "e6-d6") && !has(&m, "e6-f6"),
        "pinned rook left the file: {m:?}"
    );
    assert!(has(&m, "h6-g7") && has(&m, "h6-i5"), "{m:?}");
}

#[test]
fn partnership_a_checkmated_player_and_its_partner_lose() {
    // Blue's king a7 is checked by Red's rook a11; Yellow's rook b11 holds the b-file. Blue has no move: Blue and
    // its partner Green lose, Red and Yellow win.
    let g = load(PARTNERSHIP);
    let engine = Engine::new(&g);
    let pos = "turn Blue\npiece Blue King a7\npiece Red Rook a11\npiece Yellow Rook b11\n\
               piece Red King h1\npiece Yellow King g14\npiece Green King n8\n";
    let s = position::parse(&g, pos).unwrap();
    let moves = engine.legal_moves(&s).unwrap();
    assert!(moves.is_empty(), "{:?}", common::sorted_moves(&g, pos));
    let o = engine.outcome(&s, &moves, &[]).unwrap().unwrap();
    assert_eq!(o.name, "checkmate");
    assert_eq!(o.results, vec![1, -1, 1, -1]);
}

#[test]
fn partnership_the_allys_rook_on_the_file_is_no_check() {
    // The same position with Green's rook (Blue's partner) on a11 instead of Red's: Blue is not in check and
    // moves (a8, b-file squares are still held by Yellow's rook).
    let g = load(PARTNERSHIP);
    let pos = "turn Blue\npiece Blue King a7\npiece Green Rook a11\npiece Yellow Rook b11\n\
               piece Red King h1\npiece Yellow King g14\npiece Green King n8\n";
    let m = common::sorted_moves(&g, pos);
    assert_eq!(m, vec!["a7-a6", "a7-a8"]);
}

// --- `my?` against `friend?` ---

fn hopper(test: &str) -> String {
    format!(
        "(game (title \"Hop\") (players A B C) (turn-order A B C) (allies (A B))
           (board (grid (dimensions (\"a/b/c\" (50 0)) (\"3/2/1\" (0 50))) (directions (n 0 -1))))
           (piece (name Hopper) (moves (n (verify {test}) n (verify empty?) add)))
           (piece (name Stone))
           (board-setup (A (Hopper a1 b1 c1) (Stone a2)) (B (Stone b2)) (C (Stone c2))))"
    )
}

#[test]
fn my_is_the_movers_own_piece_and_friend_includes_allies() {
    // A hops over a2 (its own stone), b2 (ally B's), not c2 (C is an enemy). `my?` only over its own.
    let pos = "turn A\npiece A Hopper a1\npiece A Hopper b1\npiece A Hopper c1\n\
               piece A Stone a2\npiece B Stone b2\npiece C Stone c2\n";
    let friend = game_from(&hopper("friend?"));
    assert_eq!(common::sorted_moves(&friend, pos), vec!["a1-a3", "b1-b3"]);
    let my = game_from(&hopper("my?"));
    assert_eq!(common::sorted_moves(&my, pos), vec!["a1-a3"]);
}

// --- Two royal pieces (Tamerlane's king and prince): `not-all-attacked`, `all-attacked`, `pieces-remaining` ---

fn two_kings(invariant: &str) -> String {
    format!(
        "(define slide ($1 (while empty? add $1) (verify enemy?) add))
         (define step ($1 (verify not-friend?) add))
         (game (title \"Two kings\") (players White Black) (turn-order White Black)
           (board (grid (dimensions (\"a/b/c/d/e\" (50 0)) (\"5/4/3/2/1\" (0 50)))
             (directions (n 0 -1) (e 1 0) (s 0 1) (w -1 0) (ne 1 -1) (nw -1 -1) (se 1 1) (sw -1 1))))
           (piece (name King) (moves (step n) (step e) (step s) (step w) (step ne) (step nw) (step se) (step sw)))
           (piece (name Rook) (moves (slide n) (slide e) (slide s) (slide w)))
           (board-setup (White (King a1 e1)) (Black (King c5) (Rook a5)))
           (invariant (name \"royal\") {invariant})
           (loss-condition (White Black) (name \"all kings mated\") (and stalemated (all-attacked King)))
           (loss-condition (White Black) (name \"all kings taken\") (pieces-remaining 0 King))
           (draw-condition (White Black) stalemated))"
    )
}

#[test]
fn with_two_kings_one_may_be_left_attacked() {
    // Black's rook a5 attacks White's king a1. Under "illegal only when all royals are attacked" White may move
    // the other king (e1-e2); under "any attacked is illegal" it must save a1.
    let pos = "turn White\npiece White King a1\npiece White King e1\npiece Black King c5\npiece Black Rook a5\n";
    let all = game_from(&two_kings("(not-all-attacked King)"));
    let m = common::sorted_moves(&all, pos);
    assert!(has(&m, "e1-e2") && has(&m, "a1-b1"), "{m:?}");
    let any = game_from(&two_kings("(not-attacked King)"));
    let m = common::sorted_moves(&any, pos);
    assert!(!has(&m, "e1-e2") && has(&m, "a1-b1"), "{m:?}");
}

#[test]
fn losing_one_of_two_kings_is_not_the_end() {
    let g = game_from(&two_kings("(not-all-attacked King)"));
    let engine = Engine::new(&g);
    // One king left: the game goes on.
    let one = "turn White\npiece White King e1\npiece Black King c5\npiece Black Rook a5\n";
    let s = position::parse(&g, one).unwrap();
    let moves = engine.legal_moves(&s).unwrap();
    assert!(!moves.is_empty());
    assert_eq!(engine.outcome(&s, &moves, &[]).unwrap(), None);
    // None left: White loses.
    let none = "turn White\npiece White Rook e1\npiece Black King c5\npiece Black Rook a5\n";
    let s = position::parse(&g, none).unwrap();
    let moves = engine.legal_moves(&s).unwrap();
    let o = engine.outcome(&s, &moves, &[]).unwrap().unwrap();
    assert_eq!(
        (o.name.as_str(), o.results.clone()),
        ("all kings taken", vec![-1, 1])
    );
}

#[test]
fn both_kings_attacked_with_no_escape_is_mate() {
    // White's kings a1 and e1 are attacked along the a- and e-files (rooks a5, e5); the rooks c1 and c2 hold
    // every square either could step to (b1, d1, a2, b2, d2, e2). No move leaves one of them safe: "all kings
    // mated" holds.
    let g = game_from(&two_kings("(not-all-attacked King)"));
    let engine = Engine::new(&g);
    let pos = "turn White\npiece White King a1\npiece White King e1\npiece Black Rook a5\npiece Black Rook e5\n\
               piece Black Rook c1\npiece Black Rook c2\npiece Black King c5\n";
    let s = position::parse(&g, pos).unwrap();
    let moves = engine.legal_moves(&s).unwrap();
    assert!(moves.is_empty(), "{:?}", common::sorted_moves(&g, pos));
    let o = engine.outcome(&s, &moves, &[]).unwrap().unwrap();
    assert_eq!(
        (o.name.as_str(), o.results.clone()),
        ("all kings mated", vec![-1, 1])
    );
    // One king attacked is not "all-attacked": a king on d3, safe, and the game goes on.
    let pos = "turn White\npiece White King a1\npiece White King d3\npiece Black Rook a5\npiece Black King e5\n";
    let s = position::parse(&g, pos).unwrap();
    let moves = engine.legal_moves(&s).unwrap();
    assert_eq!(engine.outcome(&s, &moves, &[]).unwrap(), None);
}

// --- Shogi's "no mate by a dropped pawn": `drop-mate` ---

fn drop_game(with_rule: bool) -> String {
    let rule = if with_rule {
        "(invariant (name \"no pawn-drop mate\") (not (drop-mate Pawn King)))"
    } else {
        ""
    };
    game_with_rule(rule)
}

fn game_with_rule(rule: &str) -> String {
    format!(
        "(define step ($1 (verify not-friend?) add))
         (define slide ($1 (while empty? add $1) (verify enemy?) add))
         (game (title \"Drops\") (players White Black) (turn-order White Black)
           (board (grid (dimensions (\"a/b/c\" (50 0)) (\"3/2/1\" (0 50)))
             (directions (n 0 -1) (e 1 0) (s 0 1) (w -1 0) (ne 1 -1) (nw -1 -1) (se 1 1) (sw -1 1)))
             (symmetry Black (n s) (s n) (ne se) (se ne) (nw sw) (sw nw)))
           (piece (name Pawn) (moves (step n)) (drops ((verify empty?) add)))
           (piece (name King) (moves (step n) (step e) (step s) (step w) (step ne) (step nw) (step se) (step sw)))
           (piece (name Rook) (moves (slide n) (slide e) (slide s) (slide w)))
           (piece (name Knight) (moves (n n e (verify not-friend?) add) (n n w (verify not-friend?) add)
             (e e n (verify not-friend?) add) (w w n (verify not-friend?) add)))
           (board-setup (White (Pawn off 1) (Rook c2) (Knight c1)) (Black (King a3)))
           (invariant (name \"check\") (not-attacked King))
           {rule}
           (loss-condition (White Black) (and stalemated (attacked King))))"
    )
}

#[test]
fn a_pawn_drop_may_not_mate() {
    // Black's king a3: a2 and b2 are held by the rook c2, b3 by the knight c1. A pawn dropped on a2 would give a
    // check the king cannot escape (the pawn is guarded by the rook and the knight): that drop is illegal. Other
    // drops stay legal.
    let pos = "turn White\npiece White Rook c2\npiece White Knight c1\npiece Black King a3\nreserve White Pawn 1\n";
    let ruled = game_from(&drop_game(true));
    let m = common::sorted_moves(&ruled, pos);
    assert!(
        !has(&m, "Pawn@a2") && has(&m, "Pawn@b2") && has(&m, "c2-a2"),
        "{m:?}"
    );
    let plain = game_from(&drop_game(false));
    let p = common::sorted_moves(&plain, pos);
    assert!(has(&p, "Pawn@a2"), "{p:?}");
    assert_eq!(
        p.len(),
        m.len() + 1,
        "only the mating drop differs: {p:?} vs {m:?}"
    );
}

#[test]
fn a_pawn_drop_that_checks_without_mate_is_legal() {
    // Without the knight the king escapes to b3: the drop on a2 is legal.
    let pos = "turn White\npiece White Rook c2\npiece Black King a3\nreserve White Pawn 1\n";
    let ruled = game_from(&drop_game(true));
    let plain = game_from(&drop_game(false));
    assert_eq!(
        common::sorted_moves(&ruled, pos),
        common::sorted_moves(&plain, pos)
    );
}

// --- Compile errors, with their place ---

fn errors_of(text: &str) -> String {
    let path = Scratch::file("invariants", "e.zrf", text);
    load_game(&path, &VariantSel::First).expect_err("an error")
}

fn with_section(section: &str) -> String {
    format!(
        "(game (title \"E\") (players A B) (turn-order A B)
           (board (grid (dimensions (\"a/b\" (50 0)) (\"2/1\" (0 50))) (directions (n 0 -1) (s 0 1))))
           (piece (name King) (moves (n add)))
           (board-setup (A (King a1)) (B (King b2)))
{section})"
    )
}

#[test]
fn invariant_errors_name_their_place() {
    for (section, message, col) in [
        (
            "(invariant (name \"x\") (not-atacked King))",
            "unknown invariant condition `not-atacked`",
            23,
        ),
        (
            "(invariant (name \"x\"))",
            "`invariant` needs a condition",
            1,
        ),
        (
            "(invariant (facing King))",
            "`facing` needs piece types and directions",
            12,
        ),
        (
            "(invariant (facing King up))",
            "`up` is neither a piece type nor a direction",
            25,
        ),
        (
            "(invariant (not-attacked Kong))",
            "unknown piece type `Kong`",
            26,
        ),
        (
            "(invariant (not-attacked))",
            "`not-attacked` needs piece types",
            12,
        ),
        ("(allies (A B) (B))", "player `B` is in two teams", 16),
        ("(allies A)", "a team is a list of players", 9),
        (
            "(loss-condition (A B) (attacked))",
            "`attacked` needs piece types",
            23,
        ),
    ] {
        let e = errors_of(&with_section(section));
        assert!(e.contains(message), "{section}: {e}");
        assert!(e.contains(&format!(":5:{col}")), "{section}: {e}");
    }
}

#[test]
fn not_my_is_the_negation_of_my() {
    let g = game_from(&hopper("not-my?"));
    let pos = "turn A\npiece A Hopper a1\npiece A Hopper b1\npiece A Hopper c1\n\
               piece A Stone a2\npiece B Stone b2\npiece C Stone c2\n";
    assert_eq!(common::sorted_moves(&g, pos), vec!["b1-b3", "c1-c3"]);
}

// --- `moved`, `dropped`, `mates`: a mate by a given piece type forbidden (as Shatar forbids some mates) ---

#[test]
fn a_mate_by_a_given_piece_type_may_be_forbidden() {
    // c2-a2: the rook mates the king a3 (b2 and the rook held by the rook and the knight c1, b3 by the knight).
    // Under "a rook may not give mate" that move is illegal; the drop on a2, a mate by a pawn, stays legal.
    let pos = "turn White\npiece White Rook c2\npiece White Knight c1\npiece Black King a3\nreserve White Pawn 1\n";
    let plain = common::sorted_moves(&game_from(&game_with_rule("")), pos);
    let ruled = common::sorted_moves(
        &game_from(&game_with_rule(
            "(invariant (name \"no rook mate\") (not (and (moved Rook) (mates King))))",
        )),
        pos,
    );
    assert!(has(&plain, "c2-a2") && !has(&ruled, "c2-a2"), "{ruled:?}");
    assert!(has(&ruled, "Pawn@a2") && has(&ruled, "c2-b2"), "{ruled:?}");
    assert_eq!(plain.len(), ruled.len() + 1);
    // `dropped` tells drops from moves: "no mate by a dropped piece" keeps the rook mate, removes the pawn's.
    let drops = common::sorted_moves(
        &game_from(&game_with_rule(
            "(invariant (not (and (dropped Pawn Rook Knight) (mates King))))",
        )),
        pos,
    );
    assert!(has(&drops, "c2-a2") && !has(&drops, "Pawn@a2"), "{drops:?}");
}

/// Every test of this file once more with the general path forced (`DAGAZ_GENERAL_PATH=1`).
#[test]
fn on_the_general_path() {
    common::rerun_on_general_path("on_the_general_path");
}

// --- `mates` sees the replies the game allows: an extension module's filter counts ---

/// A module that forbids every move to b3: it stands for any module filter (or ko) that takes away a reply.
struct NoB3;

impl dagaz::engine::Hooks for NoB3 {
    fn moves(
        &self,
        game: &Game,
        _state: &dagaz::engine::State,
        moves: &mut Vec<dagaz::engine::Move>,
    ) -> Result<(), dagaz::engine::EngineError> {
        moves.retain(|m| !m.notation(game).ends_with("-b3"));
        Ok(())
    }
}

#[test]
fn a_mate_test_sees_the_moves_a_module_forbids() {
    // The rook c2 checks the king a3 after Pawn@a2, whose only escape is a3-b3 (a2 is guarded by the rook,
    // b2 too). Without a module the drop is no mate, so legal; with a module that forbids moving to b3 the
    // king has no reply, the drop mates, and "no pawn-drop mate" forbids it. (Before, `mates` generated the
    // replies without the modules, found a3-b3, and let the mating drop through.)
    let pos = "turn White\npiece White Rook c2\npiece Black King a3\nreserve White Pawn 1\n";
    let mut game = game_from(&drop_game(true));
    let s = position::parse(&game, pos).unwrap();
    let plain = Engine::new(&game).legal_moves(&s).unwrap();
    assert!(plain.iter().any(|m| m.notation(&game) == "Pawn@a2"));
    game.extensions.push(dagaz::compile::ExtensionRef {
        name: "no-b3".into(),
        description: "no move to b3".into(),
        stacks: false,
        covers: vec![],
    });
    static HOOK: NoB3 = NoB3;
    let resolve =
        |name: &str| (name == "no-b3").then_some(&HOOK as &'static dyn dagaz::engine::Hooks);
    for options in [Default::default(), dagaz::engine::EngineOptions::general()] {
        let engine = Engine::with_hooks(&game, options, &resolve).unwrap();
        let s = position::parse(&game, pos).unwrap();
        let moved: Vec<String> = engine
            .legal_moves(&s)
            .unwrap()
            .iter()
            .map(|m| m.notation(&game))
            .collect();
        assert!(!has(&moved, "Pawn@a2"), "{moved:?}");
        assert!(has(&moved, "Pawn@b2") && has(&moved, "c2-b2"), "{moved:?}");
    }
}
