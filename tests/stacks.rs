//! Stacks (`(stacks)`, `docs/language.md` "Stacks"): rule tests of Lasca and Bashni from their published rules
//! (the comments of `games/lasca.zrf` and `games/bashni.zrf`), the position format of columns, and the hash.
//! Columns in positions are written from the bottom up: the last `piece` line on a square is the top.

#[path = "common/scratch.rs"]
mod scratch_dir;
use scratch_dir::Scratch;
mod common;

use dagaz::compile::Game;
use dagaz::engine::{position, Engine, Move, State};
use dagaz::lang::diag::render_all;
use dagaz::lang::read_str;
use dagaz::load::{load_game, VariantSel};
use std::path::Path;

const LASCA: &str = "games/lasca.zrf";
const BASHNI: &str = "games/bashni.zrf";

fn load(file: &str) -> Game {
    load_game(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join(file),
        &VariantSel::First,
    )
    .unwrap()
}

/// The legal moves of a position with their notations, sorted by notation.
fn moves(game: &Game, s: &State) -> Vec<(String, Move)> {
    let engine = Engine::new(game);
    let ms = engine.legal_moves(s).unwrap();
    let mut v: Vec<(String, Move)> = Move::notations(game, &ms).into_iter().zip(ms).collect();
    v.sort_by(|a, b| a.0.cmp(&b.0));
    v
}

/// The column on a square as `owner kind` words, top first.
fn column(game: &Game, s: &State, at: &str) -> Vec<String> {
    let p = game.board.position(at).unwrap();
    s.column(p)
        .iter()
        .map(|x| {
            format!(
                "{} {}",
                game.players[x.owner.idx()].name,
                game.pieces[x.kind.idx()].name
            )
        })
        .collect()
}

fn play(game: &Game, s: &State, notation: &str) -> State {
    let ms = moves(game, s);
    let m = ms
        .iter()
        .find(|(n, _)| n == notation)
        .unwrap_or_else(|| panic!("no move {notation} in {:?}", names(&ms)));
    Engine::new(game).apply(s, &m.1)
}

fn names(ms: &[(String, Move)]) -> Vec<&str> {
    ms.iter().map(|(n, _)| n.as_str()).collect()
}

#[test]
fn lasca_a_capture_takes_only_the_top_and_frees_the_prisoner() {
    // Black's column on d4: a White soldier (a prisoner) under a Black soldier. White's c3 jumps it: the
    // Black top goes under the White soldier on e5, and the White soldier left on d4 is White's again.
    let game = load(LASCA);
    let s = position::parse(
        &game,
        "turn White\npiece White Soldier c3\npiece White Soldier d4\npiece Black Soldier d4\n\
         piece Black Soldier a7\n",
    )
    .unwrap();
    assert_eq!(column(&game, &s, "d4"), ["Black Soldier", "White Soldier"]);
    let ms = moves(&game, &s);
    assert_eq!(names(&ms), ["c3-e5xd4"], "the capture is compulsory");
    let after = play(&game, &s, "c3-e5xd4");
    assert_eq!(
        column(&game, &after, "e5"),
        ["White Soldier", "Black Soldier"]
    );
    assert_eq!(
        column(&game, &after, "d4"),
        ["White Soldier"],
        "the prisoner is freed"
    );
    assert_eq!(column(&game, &after, "c3"), Vec::<String>::new());
    // Black to move; then the freed soldier moves for White like any of White's pieces.
    let after = play(&game, &after, "a7-b6");
    let ms = moves(&game, &after);
    assert!(names(&ms).contains(&"d4-c5"), "{:?}", names(&ms));
}

#[test]
fn lasca_a_column_moves_whole_and_is_commanded_by_its_top() {
    // A White column with a Black prisoner steps as a White soldier; a Black column with a White prisoner
    // is Black's: White cannot move it, and White's e3 must take its top (compulsory capture).
    let game = load(LASCA);
    let s = position::parse(
        &game,
        "turn White\npiece Black Soldier a3\npiece White Soldier a3\npiece White Soldier e3\n\
         piece White Soldier f4\npiece Black Soldier f4\npiece Black Soldier a7\n",
    )
    .unwrap();
    assert_eq!(names(&moves(&game, &s)), ["e3-g5xf4"]);
    let s = position::parse(
        &game,
        "turn White\npiece Black Soldier a3\npiece White Soldier a3\npiece Black Soldier a7\n",
    )
    .unwrap();
    let after = play(&game, &s, "a3-b4");
    assert_eq!(
        column(&game, &after, "b4"),
        ["White Soldier", "Black Soldier"]
    );
}

#[test]
fn lasca_a_soldier_reaching_the_far_row_becomes_an_officer_and_the_move_ends() {
    // The White column on c5 (a Black prisoner under it) jumps d6 onto e7: only its top is promoted, and as
    // an officer it could take f6 next, but the move ends on the promotion.
    let game = load(LASCA);
    let s = position::parse(
        &game,
        "turn White\npiece Black Soldier c5\npiece White Soldier c5\npiece Black Soldier d6\n\
         piece Black Soldier f6\n",
    )
    .unwrap();
    assert_eq!(names(&moves(&game, &s)), ["c5-e7xd6=Officer"]);
    let after = play(&game, &s, "c5-e7xd6=Officer");
    assert_eq!(
        column(&game, &after, "e7"),
        ["White Officer", "Black Soldier", "Black Soldier"]
    );
    // The officer now steps and jumps backwards.
    let after = play(&game, &after, "f6-g5");
    let ms = moves(&game, &after);
    assert!(names(&ms).contains(&"e7-d6"), "{:?}", names(&ms));
}

#[test]
fn lasca_an_officer_taken_prisoner_stays_an_officer_when_freed() {
    // White's officer on d4 lies under a Black soldier; White's b2... c3 takes the top and the officer, freed,
    // steps backwards as an officer.
    let game = load(LASCA);
    let s = position::parse(
        &game,
        "turn White\npiece White Soldier c3\npiece White Officer d4\npiece Black Soldier d4\n\
         piece Black Soldier a7\n",
    )
    .unwrap();
    let after = play(&game, &s, "c3-e5xd4");
    let after = play(&game, &after, "a7-b6");
    let ms = moves(&game, &after);
    assert!(names(&ms).contains(&"d4-c3"), "{:?}", names(&ms));
}

#[test]
fn bashni_a_capture_takes_only_the_top_of_the_column() {
    // Black's column on d4 is two Black men; White's c3 takes the top only: the other stays, Black's.
    let game = load(BASHNI);
    let s = position::parse(
        &game,
        "turn White\npiece White Man c3\npiece Black Man d4\npiece Black Man d4\npiece Black Man h8\n",
    )
    .unwrap();
    assert_eq!(names(&moves(&game, &s)), ["c3-e5xd4"]);
    let after = play(&game, &s, "c3-e5xd4");
    assert_eq!(column(&game, &after, "e5"), ["White Man", "Black Man"]);
    assert_eq!(column(&game, &after, "d4"), ["Black Man"]);
}

#[test]
fn bashni_a_flying_king_takes_only_the_top() {
    // The White king on a1 takes the top of the column on d4 (a White man under a Black man) from afar and
    // frees the White man.
    let game = load(BASHNI);
    let s = position::parse(
        &game,
        "turn White\npiece White King a1\npiece White Man d4\npiece Black Man d4\npiece Black Man h8\n",
    )
    .unwrap();
    let ms = moves(&game, &s);
    assert_eq!(names(&ms), ["a1-e5xd4", "a1-f6xd4", "a1-g7xd4"]);
    let after = play(&game, &s, "a1-f6xd4");
    assert_eq!(column(&game, &after, "f6"), ["White King", "Black Man"]);
    assert_eq!(column(&game, &after, "d4"), ["White Man"]);
}

#[test]
fn bashni_a_column_whose_top_man_reaches_the_far_row_is_promoted() {
    // White's column on c7 (a White man on top of two Black prisoners) steps to b8 or d8: its top becomes a
    // king, the prisoners stay men.
    let game = load(BASHNI);
    let s = position::parse(
        &game,
        "turn White\npiece Black Man c7\npiece Black Man c7\npiece White Man c7\npiece Black Man h8\n",
    )
    .unwrap();
    let after = play(&game, &s, "c7-d8=King");
    assert_eq!(
        column(&game, &after, "d8"),
        ["White King", "Black Man", "Black Man"]
    );
    // Promoted inside a chain, the column goes on capturing as a king at once (the Russian rule): f6 takes
    // the top of e7 landing on d8, and as a king takes b6 from afar, which a man could not.
    let s = position::parse(
        &game,
        "turn White\npiece White Man f6\npiece Black Man e7\npiece Black Man e7\npiece Black Man b6\n\
         piece Black Man h4\n",
    )
    .unwrap();
    assert_eq!(names(&moves(&game, &s)), ["f6-d8xe7=King-a5xb6"]);
    let after = play(&game, &s, "f6-d8xe7=King-a5xb6");
    assert_eq!(
        column(&game, &after, "a5"),
        ["White King", "Black Man", "Black Man"]
    );
    assert_eq!(column(&game, &after, "e7"), ["Black Man"]);
}

#[test]
fn bashni_a_column_cannot_be_jumped_twice_in_one_move() {
    // A ring of four Black columns around c5: c3 takes d4, d6, b6, b4 and is back on c3. The column on d4
    // still has a Black man under its taken top, but it may not be jumped again in the same move (no Turkish
    // strike): the longest chain takes four prisoners, not five.
    let game = load(BASHNI);
    let s = position::parse(
        &game,
        "turn White\npiece White Man c3\npiece Black Man d4\npiece Black Man d4\npiece Black Man d6\n\
         piece Black Man b6\npiece Black Man b4\npiece Black Man h8\n",
    )
    .unwrap();
    let ms = moves(&game, &s);
    let most = ms.iter().map(|(_, m)| m.captures()).max().unwrap();
    assert_eq!(most, 4, "{:?}", names(&ms));
    for (n, m) in &ms {
        let mut taken: Vec<_> = m
            .parts
            .iter()
            .flat_map(|p| &p.actions)
            .filter_map(|a| match a {
                dagaz::engine::Action::TakePrisoner { at, .. } => Some(*at),
                _ => None,
            })
            .collect();
        let n_taken = taken.len();
        taken.sort();
        taken.dedup();
        assert_eq!(taken.len(), n_taken, "{n} takes a column twice");
    }
    // The full ring: c3 ends where it started with four prisoners under it, in the order taken.
    let ring = ms
        .iter()
        .find(|(_, m)| m.captures() == 4)
        .map(|(n, _)| n.clone())
        .unwrap();
    let after = play(&game, &s, &ring);
    assert_eq!(column(&game, &after, "c3").len(), 5, "{ring}");
    assert_eq!(column(&game, &after, "d4"), ["Black Man"]);
}

#[test]
fn columns_round_trip_through_the_position_format() {
    let game = load(LASCA);
    let text = "turn White\nply 0\npiece Black Soldier d4\npiece White Officer d4\npiece Black Soldier d4\n\
                piece White Soldier c3\n";
    let s = position::parse(&game, text).unwrap();
    assert_eq!(s.hash(), s.full_hash());
    assert_eq!(
        column(&game, &s, "d4"),
        ["Black Soldier", "White Officer", "Black Soldier"]
    );
    let out = position::format(&game, &s);
    let again = position::parse(&game, &out).unwrap();
    assert_eq!(again, s, "{out}");
    // Without stacks, a later line replaces an earlier one.
    let chess = load("games/chess.zrf");
    let s = position::parse(
        &chess,
        "turn White\npiece White King e1\npiece White Queen e1\n",
    )
    .unwrap();
    let e1 = s.get(chess.board.position("e1").unwrap()).unwrap();
    assert_eq!(chess.pieces[e1.kind.idx()].name, "Queen");
}

#[test]
fn the_hash_of_columns_is_whole_along_random_games() {
    use dagaz::engine::playout::{below, game_rng};
    for file in [LASCA, BASHNI] {
        let game = load(file);
        let engine = Engine::new(&game);
        let mut columns = 0;
        for g in 0..30 {
            let mut rng = game_rng(11, g);
            let mut s = engine.initial();
            for _ in 0..300 {
                assert_eq!(s.hash(), s.full_hash(), "{file} game {g} ply {}", s.ply());
                // Two positions that differ only under a top have different keys: the format says so too.
                let again = position::parse(&game, &position::format(&game, &s)).unwrap();
                assert_eq!(again.hash(), s.hash(), "{file} game {g} ply {}", s.ply());
                columns += s
                    .columns()
                    .iter()
                    .flat_map(|c| c.iter())
                    .filter(|c| !c.is_empty())
                    .count();
                let ms = engine.legal_moves(&s).unwrap();
                if ms.is_empty() {
                    break;
                }
                s = engine.apply(&s, &ms[below(&mut rng, ms.len())]);
            }
        }
        assert!(
            columns > 100,
            "{file}: random games built few columns ({columns})"
        );
    }
}

#[test]
fn a_setup_with_several_pieces_on_one_position_is_not_silent() {
    // With (stacks), a column; without, a missing rule naming the position.
    let src = |stacks: &str| {
        format!(
            "(game (title \"t\") (players A B) (turn-order A B) {stacks}
               (board (grid (dimensions (\"a/b/c\" (50 0)) (\"3/2/1\" (0 50))) (directions (n 0 -1))))
               (piece (name P) (moves (n (verify empty?) add)))
               (board-setup (A (P a1 a1 a1)))
               (loss-condition (A B) stalemated))"
        )
    };
    let dir = Scratch::new("stacks");
    let with = dir.join("with.zrf");
    std::fs::write(&with, src("(stacks)")).unwrap();
    let game = load_game(&with, &VariantSel::First).unwrap();
    assert!(game.missing_rules.is_empty(), "{:?}", game.missing_rules);
    let s = Engine::new(&game).initial();
    assert_eq!(s.height(game.board.position("a1").unwrap()), 3);
    let without = dir.join("without.zrf");
    std::fs::write(&without, src("")).unwrap();
    let game = load_game(&without, &VariantSel::First).unwrap();
    let what: Vec<String> = game.missing_rules.iter().map(|r| r.what()).collect();
    assert_eq!(
        what,
        [
            "several pieces set up on position \"a1\"",
            "several pieces set up on position \"a1\""
        ]
    );
    std::fs::remove_dir_all(&dir).ok();
}

fn inline(src: &str) -> Game {
    let read = read_str("inline.zrf", src, Path::new("."));
    assert!(!read.has_errors(), "{:?}", read.diagnostics);
    let mut diags = vec![];
    let g = dagaz::load::compile_source(&read.games[0], &mut diags);
    assert!(diags.iter().all(|d| !d.is_error()), "{:?}", diags);
    g.unwrap()
}

/// A column of three on a1 of a one-file board; `(carry N)` moves part of it.
const SPLIT: &str = r#"(game (title "split") (players A B) (turn-order A B) (stacks)
  (board (grid (dimensions ("a" (50 0)) ("4/3/2/1" (0 50))) (directions (n 0 -1) (s 0 1))))
  (piece (name P) (moves
    (n (verify empty?) add)
    (n (verify empty?) (carry 1) add)
    (n (verify empty?) (verify (>= (stack-height a1) 3)) (carry 2) add)))
  (board-setup (A (P a1 a1 a1)) (B (P a4)))
  (loss-condition (A B) stalemated))"#;

#[test]
fn carry_moves_the_top_of_a_column_and_leaves_the_rest() {
    let game = inline(SPLIT);
    let s = Engine::new(&game).initial();
    let ms = moves(&game, &s);
    assert_eq!(names(&ms), ["a1-a2", "a1-a2/1", "a1-a2/2"]);
    let engine = Engine::new(&game);
    let height = |s: &State, at: &str| s.height(game.board.position(at).unwrap());
    let whole = engine.apply(&s, &ms[0].1);
    assert_eq!((height(&whole, "a1"), height(&whole, "a2")), (0, 3));
    let one = engine.apply(&s, &ms[1].1);
    assert_eq!((height(&one, "a1"), height(&one, "a2")), (2, 1));
    let two = engine.apply(&s, &ms[2].1);
    assert_eq!((height(&two, "a1"), height(&two, "a2")), (1, 2));
    for st in [&whole, &one, &two] {
        assert_eq!(st.hash(), st.full_hash());
    }
}

fn errors(src: &str) -> String {
    let dir = Scratch::new("stack-errors");
    let f = dir.join("bad.zrf");
    std::fs::write(&f, src).unwrap();
    let l = dagaz::load::load(&f, &VariantSel::First);
    assert!(l.game.is_none(), "should not load");
    render_all(&l.diagnostics, &l.file.sources).replace(&format!("{}/", dir.display()), "")
}

#[test]
fn stack_forms_have_located_errors() {
    let text = errors(
        r#"(game (title "Bad") (players A B) (turn-order A B)
  (board (grid (dimensions ("a/b" (50 0)) ("2/1" (0 50))) (directions (e 1 0))))
  (piece (name P) (moves (e take-prisoner add)))
  (board-setup (A (P a1)) (B (P a2)))
  (loss-condition (A B) stalemated))
"#,
    );
    assert!(
        text.contains("`take-prisoner` needs a game with stacks"),
        "{text}"
    );
    assert!(text.contains("bad.zrf:3:26"), "{text}");
    let text = errors(
        r#"(game (title "Bad") (players A B) (turn-order A B) (stacks all)
  (board (grid (dimensions ("a/b" (50 0)) ("2/1" (0 50))) (directions (e 1 0))))
  (piece (name P) (moves (e (carry) (take-prisoner e w) add)))
  (board-setup (A (P a1)) (B (P a2)))
  (loss-condition (A B) stalemated))
"#,
    );
    assert!(text.contains("`stacks` takes nothing"), "{text}");
    assert!(text.contains("bad.zrf:1:60"), "{text}");
    assert!(text.contains("`carry` needs one number"), "{text}");
    assert!(
        text.contains("`take-prisoner` takes at most a position or direction"),
        "{text}"
    );
}

#[test]
fn the_session_state_lists_the_pieces_under_each_top() {
    let game = load(LASCA);
    let s = position::parse(
        &game,
        "turn White\npiece White Soldier d4\npiece Black Officer d4\npiece White Soldier c3\n",
    )
    .unwrap();
    let j = dagaz::session::state_json(&game, &s);
    let d4 = j["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["at"] == "d4")
        .unwrap();
    assert_eq!(d4["piece"], "Officer");
    assert_eq!(d4["player"], "Black");
    assert_eq!(d4["under"][0]["player"], "White");
    let c3 = j["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["at"] == "c3")
        .unwrap();
    assert!(c3.get("under").is_none());
}

#[test]
fn a_board_model_option_is_a_missing_rule_that_points_to_stacks() {
    let dir = Scratch::new("board-model");
    let f = dir.join("heap.zrf");
    std::fs::write(
        &f,
        "(game (title \"t\") (players A B) (turn-order A B) (option \"board-model\" heap)
           (board (grid (dimensions (\"a/b\" (50 0)) (\"2/1\" (0 50))) (directions (n 0 -1))))
           (piece (name P) (moves (n (verify empty?) add)))
           (board-setup (A (P a1)))
           (loss-condition (A B) stalemated))",
    )
    .unwrap();
    let l = dagaz::load::load(&f, &VariantSel::First);
    let game = l.game.as_ref().expect("loads");
    let what: Vec<String> = game.missing_rules.iter().map(|r| r.what()).collect();
    assert_eq!(what, ["option \"board-model\""]);
    let text = render_all(&l.diagnostics, &l.file.sources);
    assert!(text.contains("declares `(stacks)`"), "{text}");
    std::fs::remove_dir_all(&dir).ok();
}

/// Every test of this file once more with the general path forced (`DAGAZ_GENERAL_PATH=1`).
#[test]
fn on_the_general_path() {
    common::rerun_on_general_path("on_the_general_path");
}
