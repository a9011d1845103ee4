//! Rule tests for the games in `games/`: small positions whose legal moves show one rule each (the perft
//! tests check the counts; these check that the rules behind them are the ones the file comments state).

use dagaz::engine::{position, Engine};
use dagaz::load::{load_game, VariantSel};
use std::path::Path;

fn load(file: &str) -> dagaz::compile::Game {
    load_game(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join(file),
        &VariantSel::First,
    )
    .unwrap()
}

/// The sorted notations of the legal moves of `pos` in the game of `file`.
fn moves(file: &str, pos: &str) -> Vec<String> {
    let game = load(file);
    let engine = Engine::new(&game);
    let s = position::parse(&game, pos).unwrap();
    let mut v: Vec<String> = engine
        .legal_moves(&s)
        .unwrap()
        .iter()
        .map(|m| m.notation(&game))
        .collect();
    v.sort();
    v
}

fn sorted(v: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

const ENGLISH: &str = "games/english-checkers.zrf";
const RUSSIAN: &str = "games/russian-draughts.zrf";
const BRAZILIAN: &str = "games/brazilian-draughts.zrf";
const INTERNATIONAL: &str = "games/international-draughts.zrf";
const TURKISH: &str = "games/turkish-draughts.zrf";

#[test]
fn english_jumps_are_compulsory_and_promotion_ends_the_move() {
    // The man jumps c7 onto the king row; as a king it could take e7 next, but the move ends there.
    let pos = "turn White\npiece White Man b6\npiece White Man g3\npiece Black Man c7\npiece Black Man e7\n";
    assert_eq!(moves(ENGLISH, pos), sorted(&["b6-d8xc7=King"]));
}

#[test]
fn english_men_jump_forward_only_and_chains_are_one_move() {
    // d4 takes e5 and then g7 in one move (crowned on h8); the piece behind it on c3 cannot be taken.
    let pos = "turn White\npiece White Man d4\npiece Black Man c3\npiece Black Man e5\npiece Black Man g7\n";
    assert_eq!(moves(ENGLISH, pos), sorted(&["d4-f6xe5-h8xg7=King"]));
}

#[test]
fn russian_king_must_land_where_the_capture_goes_on() {
    // After taking c3 the king could stop on d4..g7, but only from e5 can it take f4, so it must land there.
    let pos = "turn White\npiece White King a1\npiece Black Man c3\npiece Black Man f4\npiece Black Man h8\n";
    assert_eq!(
        moves(RUSSIAN, pos),
        sorted(&["a1-e5xc3-g3xf4", "a1-e5xc3-h2xf4"])
    );
}

#[test]
fn russian_king_may_land_anywhere_when_no_capture_follows() {
    let pos = "turn White\npiece White King a1\npiece Black Man c3\npiece Black Man h8\n";
    assert_eq!(
        moves(RUSSIAN, pos),
        sorted(&["a1-d4xc3", "a1-e5xc3", "a1-f6xc3", "a1-g7xc3"])
    );
}

#[test]
fn russian_man_promoted_in_a_chain_captures_on_as_a_king() {
    // f6xe7 reaches d8 and becomes a king, which then flies over c7 to b6 or a5.
    let pos = "turn White\npiece White Man f6\npiece Black Man e7\npiece Black Man c7\npiece Black Man h2\n";
    assert_eq!(
        moves(RUSSIAN, pos),
        sorted(&["f6-d8xe7=King-b6xc7", "f6-d8xe7=King-a5xc7"])
    );
}

#[test]
fn russian_any_chain_may_be_chosen() {
    // c3 can take d4 (one piece) or b4 and b6 (two): both are legal, and the man takes backwards too.
    let pos = "turn White\npiece White Man c3\npiece Black Man d4\npiece Black Man b4\npiece Black Man b6\npiece Black Man h8\n";
    assert_eq!(moves(RUSSIAN, pos), sorted(&["c3-a5xb4-c7xb6", "c3-e5xd4"]));
}

#[test]
fn russian_captured_pieces_stay_until_the_chain_ends() {
    // The king on a3 can run the ring b4, d4, d2, b2 back to a3. Were b4 gone at once, it could then fly
    // across its square and take e7 as well (the "Turkish strike"); taken pieces stay until the move ends, so
    // no chain takes more than four, and none takes a piece twice.
    let pos = "turn White\npiece White King a3\npiece Black Man b4\npiece Black Man d4\npiece Black Man d2\npiece Black Man b2\npiece Black Man e7\n";
    let m = moves(RUSSIAN, pos);
    for n in &m {
        let mut taken: Vec<&str> = n.split('x').skip(1).map(|t| &t[..2]).collect();
        assert!(taken.len() <= 4, "{n}");
        let all = taken.len();
        taken.sort();
        taken.dedup();
        assert_eq!(taken.len(), all, "{n} takes a piece twice");
    }
    assert!(m.iter().any(|n| n.matches('x').count() == 4), "{m:?}");
}

#[test]
fn brazilian_takes_the_most_pieces_and_promotes_only_at_the_end() {
    // The man passes d8 in the chain and leaves it again: it stays a man.
    let pos = "turn White\npiece White Man f6\npiece Black Man e7\npiece Black Man c7\npiece Black Man h2\n";
    assert_eq!(moves(BRAZILIAN, pos), sorted(&["f6-d8xe7-b6xc7"]));
    // Ending on the far row, it is promoted.
    let pos = "turn White\npiece White Man f6\npiece Black Man e7\npiece Black Man h2\n";
    assert_eq!(moves(BRAZILIAN, pos), sorted(&["f6-d8xe7=King"]));
    // The majority rule: of c3xd4 and c3xb4xb6 only the longer is legal.
    let pos = "turn White\npiece White Man c3\npiece Black Man d4\npiece Black Man b4\npiece Black Man b6\npiece Black Man h8\n";
    assert_eq!(moves(BRAZILIAN, pos), sorted(&["c3-a5xb4-c7xb6"]));
}

#[test]
fn international_flying_king_majority_capture() {
    // The king takes c3 and must land on e5, the one square from which it can also take f4; then it may stop
    // on any square beyond f4.
    let pos = "turn White\npiece White King a1\npiece Black Man c3\npiece Black Man f4\npiece Black Man j10\n";
    assert_eq!(
        moves(INTERNATIONAL, pos),
        sorted(&["a1-e5xc3-g3xf4", "a1-e5xc3-h2xf4", "a1-e5xc3-i1xf4"])
    );
}

#[test]
fn turkish_king_may_not_turn_back_between_captures() {
    // Taking d6 then d2 (or d2 then d6) would be a 180-degree turn: each capture stands alone.
    let pos = "turn White\npiece White King d4\npiece Black Man d6\npiece Black Man d2\npiece Black Man a8\n";
    assert_eq!(
        moves(TURKISH, pos),
        sorted(&["d4-d7xd6", "d4-d8xd6", "d4-d1xd2"])
    );
    // A right angle is allowed, and the largest capture is compulsory.
    let pos = "turn White\npiece White King d4\npiece Black Man d6\npiece Black Man b7\npiece Black Man a8\n";
    assert_eq!(moves(TURKISH, pos), sorted(&["d4-d7xd6-a7xb7"]));
}

#[test]
fn turkish_captured_pieces_leave_at_once() {
    // The king on a3 takes c3, d5, b6 and a4 and is back on a3; c3 is gone already, so it flies across c3's
    // square and takes f3 too: five pieces (with the pieces left standing it could take only four).
    let pos = "turn White\npiece White King a3\npiece Black Man c3\npiece Black Man d5\npiece Black Man b6\npiece Black Man a4\npiece Black Man f3\n";
    let m = moves(TURKISH, pos);
    assert!(!m.is_empty());
    for n in &m {
        assert_eq!(n.matches('x').count(), 5, "{n}");
        assert!(n.contains("xc3") && n.contains("xf3"), "{n}");
    }
}

#[test]
fn turkish_men_move_forward_and_sideways() {
    let pos = "turn White\npiece White Man d4\npiece Black Man h8\n";
    assert_eq!(moves(TURKISH, pos), sorted(&["d4-c4", "d4-d5", "d4-e4"]));
}

#[test]
fn othello_forced_pass_and_end_when_nobody_can_move() {
    let file = "games/othello.zrf";
    let game = load(file);
    let engine = Engine::new(&game);
    // Black cannot close in the corner stone; White can (c1 takes b1): Black must pass.
    let s = position::parse(
        &game,
        "turn Black\npiece White Stone a1\npiece Black Stone b1\n",
    )
    .unwrap();
    let ms = engine.legal_moves(&s).unwrap();
    assert_eq!(ms.len(), 1);
    assert!(ms[0].is_pass());
    assert!(engine.outcome(&s, &ms, &[]).unwrap().is_none());
    let s = engine.apply(&s, &ms[0]);
    let names: Vec<String> = engine
        .legal_moves(&s)
        .unwrap()
        .iter()
        .map(|m| m.notation(&game))
        .collect();
    assert_eq!(names, vec!["Stone@c1".to_string()]);
    // Nobody can move: Black passes, White passes, and then the game is over; White has more stones.
    let mut s = position::parse(
        &game,
        "turn Black\npiece White Stone a1\npiece White Stone a2\npiece Black Stone h8\n",
    )
    .unwrap();
    for _ in 0..2 {
        let ms = engine.legal_moves(&s).unwrap();
        assert!(ms.len() == 1 && ms[0].is_pass());
        assert!(engine.outcome(&s, &ms, &[]).unwrap().is_none());
        s = engine.apply(&s, &ms[0]);
    }
    let ms = engine.legal_moves(&s).unwrap();
    assert!(ms.is_empty());
    let o = engine.outcome(&s, &ms, &[]).unwrap().unwrap();
    let white = game.player("White").unwrap().idx();
    assert_eq!(o.results[white], 1);
}

#[test]
fn othello_flips_every_closed_line() {
    let file = "games/othello.zrf";
    let game = load(file);
    let engine = Engine::new(&game);
    // Black on d3 closes d4 (against d5) and e4 (against f5).
    let s = position::parse(
        &game,
        "turn Black\npiece White Stone d4\npiece White Stone e4\npiece Black Stone d5\npiece Black Stone f5\n",
    )
    .unwrap();
    let ms = engine.legal_moves(&s).unwrap();
    let m = ms.iter().find(|m| m.notation(&game) == "Stone@d3").unwrap();
    let after = engine.apply(&s, m);
    let black = game.player("Black").unwrap();
    for sq in ["d3", "d4", "e4", "d5", "f5"] {
        let p = after.get(game.board.position(sq).unwrap()).unwrap();
        assert_eq!(p.owner, black, "{sq}");
    }
}

#[test]
fn amazons_move_then_shoot() {
    let file = "games/amazons.zrf";
    let game = load(file);
    let engine = Engine::new(&game);
    // A lone amazon in the corner, boxed in but for one square: a1-a2, then the arrow anywhere it reaches
    // from a2, a1 included.
    let s = position::parse(
        &game,
        "turn White\npiece White Amazon a1\npiece Black Arrow b1\npiece Black Arrow b2\npiece Black Arrow b3\npiece Black Arrow a3\npiece Black Amazon j10\n",
    )
    .unwrap();
    let names: Vec<String> = engine
        .legal_moves(&s)
        .unwrap()
        .iter()
        .map(|m| m.notation(&game))
        .collect();
    assert_eq!(names, vec!["a1-a2 Arrow@a1".to_string()]);
    let after = engine.apply(&s, &engine.legal_moves(&s).unwrap()[0]);
    let a1 = after.get(game.board.position("a1").unwrap()).unwrap();
    assert_eq!(game.pieces[a1.kind.idx()].name, "Arrow");
    // White is now stuck; Black to move still can; after Black's move White has no move and loses.
    let ms = engine.legal_moves(&after).unwrap();
    assert!(!ms.is_empty());
}

/// The games written for this project play every rule they state: no variant of a `games/` file has a rule
/// the engine would ignore (`dagaz playout` and tournaments would refuse it without `--allow-missing-rules`).
#[test]
fn every_games_file_plays_all_its_rules() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "zrf"))
        .collect();
    files.sort();
    assert!(files.len() >= 20, "{files:?}");
    let mut problems = vec![];
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let read = dagaz::lang::read_str(&f.display().to_string(), &text, f.parent().unwrap());
        for k in 1..=read.games.len().max(1) {
            let game = load_game(f, &VariantSel::Number(k)).unwrap();
            if !game.missing_rules.is_empty() {
                problems.push(format!(
                    "{} variant {k}: {:?}",
                    f.display(),
                    game.missing_rules
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
