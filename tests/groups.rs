//! Rule tests of groups, connections and repetition rules (`docs/language.md`, "Groups, connections and
//! repetition"), from the published rules of Go (area scoring: Chinese rules, Tromp-Taylor) and Hex. Each
//! fails if its rule is ignored. Go positions are on the 5x5 variant of `games/go-9x9.zrf` (columns a-e,
//! rows 1-5); Hex on the 9x9 variant of `games/hex.zrf`.

#[path = "common/scratch.rs"]
mod scratch_dir;
use scratch_dir::Scratch;
mod common;

use dagaz::engine::{position, Action, Engine, Move, State};
use dagaz::lang::diag::render_all;
use dagaz::lang::read_str;
use dagaz::load::compile_source as compile;
use dagaz::load::{load, load_game, VariantSel};
use std::path::Path;

fn load_variant(file: &str, title: &str) -> dagaz::Game {
    load_game(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join(file),
        &VariantSel::Title(title.into()),
    )
    .unwrap()
}

fn go5() -> dagaz::Game {
    load_variant("games/go-9x9.zrf", "Go 5x5")
}

fn hex9() -> dagaz::Game {
    load_variant("games/hex.zrf", "Hex 9x9")
}

fn game(src: &str) -> dagaz::Game {
    let read = read_str("inline.zrf", src, Path::new("."));
    assert!(!read.has_errors(), "{:?}", read.diagnostics);
    let mut diags = vec![];
    let g = compile(&read.games[0], &mut diags);
    assert!(diags.iter().all(|d| !d.is_error()), "{:?}", diags);
    g.unwrap()
}

/// A position: `turn`, then `piece OWNER Stone POS` for each stone of `black` and `white` (the two players
/// of the file, in order).
fn stones(g: &dagaz::Game, turn: &str, first: &[&str], second: &[&str]) -> State {
    let (p0, p1) = (&g.players[0].name, &g.players[1].name);
    let mut text = format!("turn {turn}\n");
    for s in first {
        text += &format!("piece {p0} Stone {s}\n");
    }
    for s in second {
        text += &format!("piece {p1} Stone {s}\n");
    }
    position::parse(g, &text).unwrap()
}

/// The legal drop on `at`, if there is one.
fn drop_at(g: &dagaz::Game, moves: &[Move], at: &str) -> Option<Move> {
    let pos = g.board.position(at).unwrap();
    moves
        .iter()
        .find(|m| {
            m.parts
                .iter()
                .flat_map(|p| &p.actions)
                .any(|a| matches!(a, Action::Place { at, .. } if *at == pos))
        })
        .cloned()
}

fn occupied(g: &dagaz::Game, s: &State, at: &str) -> bool {
    s.get(g.board.position(at).unwrap()).is_some()
}

/// Plays the drop on `at` (which must be legal).
fn play(e: &Engine, s: &State, at: &str) -> State {
    let moves = e.legal_moves(s).unwrap();
    let m = drop_at(e.game, &moves, at).unwrap_or_else(|| panic!("{at} is not legal"));
    e.apply(s, &m)
}

fn pass(e: &Engine, s: &State) -> State {
    let moves = e.legal_moves(s).unwrap();
    let m = moves.iter().find(|m| m.is_pass()).expect("a pass");
    e.apply(s, m)
}

#[test]
fn go_a_stone_without_liberties_is_captured() {
    let g = go5();
    let e = Engine::new(&g);
    // White a1 in the corner, Black b1: Black a2 takes its last liberty.
    let s = stones(&g, "Black", &["b1"], &["a1"]);
    let after = play(&e, &s, "a2");
    assert!(!occupied(&g, &after, "a1"), "a1 is captured");
    assert!(occupied(&g, &after, "a2") && occupied(&g, &after, "b1"));
    // A stone that keeps a liberty stays: Black c2 next to White a1 takes nothing.
    let after = play(&e, &s, "c2");
    assert!(occupied(&g, &after, "a1"));
}

#[test]
fn go_a_whole_group_without_liberties_is_captured() {
    let g = go5();
    let e = Engine::new(&g);
    // White b1-c1, a group of two along the edge; Black a1, d1, b2: c2 is the group's last liberty.
    let s = stones(&g, "Black", &["a1", "d1", "b2"], &["b1", "c1"]);
    let after = play(&e, &s, "c2");
    assert!(!occupied(&g, &after, "b1") && !occupied(&g, &after, "c1"));
    // With a liberty left (d1 empty), the group stays.
    let s = stones(&g, "Black", &["a1", "b2"], &["b1", "c1"]);
    let after = play(&e, &s, "c2");
    assert!(occupied(&g, &after, "b1") && occupied(&g, &after, "c1"));
}

#[test]
fn go_suicide_is_illegal_unless_it_captures() {
    let g = go5();
    let e = Engine::new(&g);
    // Black b1 and a2: White a1 would have no liberty and take nothing.
    let s = stones(&g, "White", &["b1", "a2"], &[]);
    let moves = e.legal_moves(&s).unwrap();
    assert!(drop_at(&g, &moves, "a1").is_none(), "suicide at a1");
    assert_eq!(moves.len(), 22 + 1, "every other empty point and the pass");
    // Filling one's own group's last liberty is suicide too: White's b2-c2, surrounded by Black, has b3 as
    // its last liberty, and b3 takes no Black group.
    let s = stones(
        &g,
        "White",
        &["a2", "b1", "c1", "d2", "c3", "a3", "b4"],
        &["b2", "c2"],
    );
    let moves = e.legal_moves(&s).unwrap();
    assert!(
        drop_at(&g, &moves, "b3").is_none(),
        "b3 fills the group's last liberty"
    );
    // But a move whose stone has no liberty is legal when it captures: White c1, b2 around Black b1, so White
    // a1 takes b1 (its last liberty) and then has b1 as a liberty.
    let s = stones(&g, "White", &["b1", "a2"], &["c1", "b2"]);
    let after = play(&e, &s, "a1");
    assert!(!occupied(&g, &after, "b1"), "b1 is captured");
    assert!(occupied(&g, &after, "a1"));
}

/// The ko shape: Black a2, b1, b3 around White b2; White c1, d2, c3 around c2. Black c2 takes b2, leaving
/// its own c2 with b2 as its one liberty.
fn ko_position(g: &dagaz::Game) -> State {
    stones(g, "Black", &["a2", "b1", "b3"], &["b2", "c1", "d2", "c3"])
}

#[test]
fn go_ko_forbids_the_immediate_recapture_only() {
    let g = go5();
    let e = Engine::new(&g);
    let s = play(&e, &ko_position(&g), "c2");
    assert!(!occupied(&g, &s, "b2"), "Black took b2");
    let moves = e.legal_moves(&s).unwrap();
    assert!(
        drop_at(&g, &moves, "b2").is_none(),
        "White may not retake the ko at once"
    );
    // After an exchange elsewhere, the recapture is legal and takes c2.
    let s = play(&e, &s, "e5");
    let s = play(&e, &s, "e1");
    let after = play(&e, &s, "b2");
    assert!(!occupied(&g, &after, "c2"), "White retook the ko");
}

/// A toy game where positions repeat: A and B each have one piece on a row of five squares, stepping east or
/// west to an empty square; a player may pass. `RULE` is replaced by the repetition rule.
const TOY: &str = r#"
(game (title "Toy")
  (players A B) (turn-order A B)
  (option "pass turn" true)
  (board (grid (dimensions ("a/b/c/d/e" (50 0)) ("1" (0 50))) (directions (e 1 0) (w -1 0))))
  (piece (name Stone) (moves ((e (verify empty?) add)) ((w (verify empty?) add))))
  (board-setup (A (Stone a1)) (B (Stone e1)))
  RULE
  (win-condition (A B) (pieces-remaining 5)))
"#;

fn step(e: &Engine, s: &State, notation: &str) -> State {
    let moves = e.legal_moves(s).unwrap();
    let m = moves
        .iter()
        .find(|m| m.notation(e.game) == notation)
        .unwrap_or_else(|| panic!("{notation} is not legal"));
    e.apply(s, m)
}

fn legal(e: &Engine, s: &State, notation: &str) -> bool {
    e.legal_moves(s)
        .unwrap()
        .iter()
        .any(|m| m.notation(e.game) == notation)
}

#[test]
fn superko_forbids_any_earlier_position_and_simple_ko_only_the_last() {
    // a1-b1, e1-d1, b1-a1: B's d1-e1 would recreate the start (A to move), four plies back.
    for (rule, allowed) in [
        ("", true),
        ("(forbid-repetition simple-ko)", true),
        ("(forbid-repetition positional-superko)", false),
        ("(forbid-repetition situational-superko)", false),
    ] {
        let g = game(&TOY.replace("RULE", rule));
        let e = Engine::new(&g);
        let s = step(&e, &e.initial(), "a1-b1");
        let s = step(&e, &s, "e1-d1");
        let s = step(&e, &s, "b1-a1");
        assert_eq!(legal(&e, &s, "d1-e1"), allowed, "{rule}");
        // Perft from there counts the same moves as the list.
        assert_eq!(
            e.perft(&s, 1).unwrap(),
            e.legal_moves(&s).unwrap().len() as u64
        );
    }
}

#[test]
fn positional_superko_ignores_who_is_to_move_and_situational_does_not() {
    // a1-b1, B passes, then A's b1-a1 recreates the start's board with B to move (the start had A to move).
    for (rule, allowed) in [
        ("(forbid-repetition simple-ko)", true),
        ("(forbid-repetition positional-superko)", false),
        ("(forbid-repetition situational-superko)", true),
    ] {
        let g = game(&TOY.replace("RULE", rule));
        let e = Engine::new(&g);
        let s = step(&e, &e.initial(), "a1-b1");
        let s = pass(&e, &s);
        assert_eq!(legal(&e, &s, "b1-a1"), allowed, "{rule}");
        // A pass is never refused.
        assert!(legal(&e, &s, "pass"), "{rule}");
    }
}

#[test]
fn caused_repetition_loses_for_the_player_who_repeats() {
    let src = TOY.replace(
        "RULE",
        r#"(loss-condition (A B) (name "repeats") (caused-repetition 2))"#,
    );
    let g = game(&src);
    let e = Engine::new(&g);
    let mut s = e.initial();
    let mut history = vec![];
    for m in ["a1-b1", "e1-d1", "b1-a1", "d1-e1"] {
        history.push(s.key());
        s = step(&e, &s, m);
    }
    // B's d1-e1 brought back the start: B loses.
    let moves = e.legal_moves(&s).unwrap();
    let out = e.outcome(&s, &moves, &history).unwrap().expect("game over");
    assert_eq!(out.results, vec![1, -1]);
    assert_eq!(out.name, "repeats");
    // One ply earlier nothing had repeated.
    history.pop();
    let s = step(
        &e,
        &step(&e, &step(&e, &e.initial(), "a1-b1"), "e1-d1"),
        "b1-a1",
    );
    let moves = e.legal_moves(&s).unwrap();
    assert!(e.outcome(&s, &moves, &history).unwrap().is_none());
}

#[test]
fn go_area_scoring_counts_stones_and_territory_with_komi() {
    let g = go5();
    let e = Engine::new(&g);
    // Black's wall on row 3 encloses rows 4 and 5: 5 stones + 10 points = 15. White has a1-e1 and a2-c2, 8
    // stones; d2 and e2 touch both colours and count for nobody. 15 - 8 = 7 < 7.5: White wins on komi.
    let black = ["a3", "b3", "c3", "d3", "e3"];
    let white = ["a1", "b1", "c1", "d1", "e1", "a2", "b2", "c2"];
    let mut s = stones(&g, "Black", &black, &white);
    s.set_passes(2);
    let moves = e.legal_moves(&s).unwrap();
    let out = e.outcome(&s, &moves, &[]).unwrap().expect("two passes end");
    assert_eq!(out.results, vec![-1, 1], "White wins by half a point");
    // Without c2, White has 7: Black wins by 8 - 7.5. Counting stones alone, White (7) would beat Black (5).
    let mut s = stones(&g, "Black", &black, &white[..7]);
    s.set_passes(2);
    let moves = e.legal_moves(&s).unwrap();
    let out = e.outcome(&s, &moves, &[]).unwrap().expect("two passes end");
    assert_eq!(out.results, vec![1, -1], "Black wins by half a point");
    assert_eq!(out.name, "area");
}

#[test]
fn go_two_passes_in_a_row_end_the_game() {
    let g = go5();
    let e = Engine::new(&g);
    let s = pass(&e, &e.initial());
    let moves = e.legal_moves(&s).unwrap();
    assert!(e.outcome(&s, &moves, &[]).unwrap().is_none(), "one pass");
    // A stone between two passes starts the count again.
    let s2 = pass(&e, &play(&e, &s, "c3"));
    let moves = e.legal_moves(&s2).unwrap();
    assert!(e.outcome(&s2, &moves, &[]).unwrap().is_none());
    let s = pass(&e, &s);
    let moves = e.legal_moves(&s).unwrap();
    let out = e.outcome(&s, &moves, &[]).unwrap().expect("two passes");
    // The empty board: 0 to 0 plus komi.
    assert_eq!(out.results, vec![-1, 1]);
    assert_eq!(out.end_type, "passes");
}

#[test]
fn group_numbers_read_liberties_and_size() {
    // A drop is legal only next to (east of) a group of exactly two stones with exactly three liberties.
    let g = game(
        r#"(game (title "G") (players A B) (turn-order A B)
  (board (grid (dimensions ("a/b/c/d" (50 0)) ("3/2/1" (0 50))) (directions (n 0 -1) (e 1 0) (s 0 1) (w -1 0))))
  (piece (name Stone) (drops ((verify empty?) (verify (= (group-size w) 2)) (verify (= (liberties w) 3)) add)))
  (win-condition (A B) (pieces-remaining 9)))"#,
    );
    let e = Engine::new(&g);
    // A's a1-a2 has liberties a3, b1, b2: b1 and b2 are east of it.
    let s = stones(&g, "A", &["a1", "a2"], &[]);
    let mut moves: Vec<String> = e
        .legal_moves(&s)
        .unwrap()
        .iter()
        .map(|m| m.notation(&g))
        .collect();
    moves.sort();
    assert_eq!(moves, vec!["Stone@b1", "Stone@b2"]);
    // A third stone makes the group too big.
    let s = stones(&g, "A", &["a1", "a2", "a3"], &[]);
    assert!(e.legal_moves(&s).unwrap().is_empty());
}

#[test]
fn hex_a_chain_between_its_edges_wins_for_each_player() {
    let g = hex9();
    let e = Engine::new(&g);
    let over = |s: &State| {
        let moves = e.legal_moves(s).unwrap();
        e.outcome(s, &moves, &[]).unwrap()
    };
    // Red joins rows 1 and 9; the chain bends through the ne/sw diagonal (e2 to d3), which is a hex
    // neighbour.
    let red = ["e1", "e2", "d3", "d4", "d5", "d6", "d7", "d8", "d9"];
    let s = stones(&g, "Blue", &red, &["a1", "b1"]);
    let out = over(&s).expect("Red connected");
    assert_eq!(out.results, vec![1, -1]);
    assert_eq!(out.end_type, "connects");
    // e2 to f3 is not a neighbour on a hex board (the other diagonal): no chain.
    let broken = ["e1", "e2", "f3", "f4", "f5", "f6", "f7", "f8", "f9"];
    assert!(over(&stones(&g, "Blue", &broken, &[])).is_none());
    // Nine stones on a column that misses one edge do not win either.
    let short = ["e1", "e2", "e3", "e4", "e5", "e6", "e7", "e8"];
    assert!(over(&stones(&g, "Blue", &short, &[])).is_none());
    // Blue joins columns a and i along row 5; Red's column does not cross it here.
    let blue = ["a5", "b5", "c5", "d5", "e5", "f5", "g5", "h5", "i5"];
    let out = over(&stones(&g, "Red", &["a1"], &blue)).expect("Blue connected");
    assert_eq!(out.results, vec![-1, 1]);
    // Red's stones on a full row (its own edges are rows 1 and 9) do not win for Red.
    assert!(over(&stones(&g, "Blue", &blue, &[])).is_none());
}

fn errors(src: &str) -> String {
    let dir = Scratch::new("groups");
    let f = dir.join("bad.zrf");
    std::fs::write(&f, src).unwrap();
    let l = load(&f, &VariantSel::First);
    assert!(l.game.is_none(), "should not load");
    render_all(&l.diagnostics, &l.file.sources).replace(&format!("{}/", dir.display()), "")
}

#[test]
fn group_forms_have_located_errors() {
    let src = r#"(game (title "Bad") (players A B) (turn-order A B)
  (board (grid (dimensions ("a/b" (50 0)) ("2/1" (0 50))) (directions (e 1 0)))
    (zone (name top) (players A B) (positions a2 b2)))
  (forbid-repetition simple-co)
  (piece (name Stone) (drops ((verify (> (liberties a1 a2) 0)) (capture-groups a1 b1) add)))
  (win-condition (A) (connects top))
  (win-condition (B) (connects top botom))
  (loss-condition (A B) (caused-repetition 1))
  (draw-condition (A B) (> (liberties) 1)))
"#;
    let text = errors(src);
    for want in [
        "unknown repetition rule `simple-co`",
        "bad.zrf:4:22",
        "did you mean `simple-ko`?",
        "`liberties` takes at most a position or direction",
        "`capture-groups` takes `suicide` and at most a position or direction",
        "`connects` needs at least two zones",
        "unknown zone or piece type `botom`",
        "bad.zrf:7:36",
        "`caused-repetition` counts occurrences",
        "`liberties` reads a group at the cursor",
    ] {
        assert!(text.contains(want), "missing {want:?} in:\n{text}");
    }
}

fn corpus_with(file: &str, module: &str) -> dagaz::Game {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus/zrf/DagazProject.github.io/go/zrf")
        .join(file);
    let mut g = load_game(&path, &VariantSel::First).unwrap();
    dagaz::extension::attach(&mut g, module).unwrap();
    g
}

/// The corpus's `go.zrf` (a plain drop, its rules in Dagaz scripts) with `--extension go`: captures,
/// suicide, ko and the end by passes are the module's; without it a surrounded stone stays.
#[test]
fn corpus_go_with_the_go_module_plays_go() {
    let g = corpus_with("go.zrf", "go");
    assert!(g.missing_rules.is_empty(), "{:?}", g.missing_rules);
    let e = Engine::new(&g);
    // Capture: White a1 in the corner, Black b1; Black a2 takes it.
    let s = stones(&g, "Black", &["b1"], &["a1"]);
    let after = play(&e, &s, "a2");
    assert!(!occupied(&g, &after, "a1"), "a1 is captured");
    // Suicide: White may not play a1 between Black b1 and a2.
    let s = stones(&g, "White", &["b1", "a2"], &[]);
    assert!(drop_at(&g, &e.legal_moves(&s).unwrap(), "a1").is_none());
    // Ko (the module declares simple ko): the shape of `ko_position`, on the 19x19 board.
    let s = play(
        &e,
        &stones(&g, "Black", &["a2", "b1", "b3"], &["b2", "c1", "d2", "c3"]),
        "c2",
    );
    assert!(drop_at(&g, &e.legal_moves(&s).unwrap(), "b2").is_none());
    // Two passes end the game; an empty board is White's by komi.
    let s = pass(&e, &pass(&e, &e.initial()));
    let moves = e.legal_moves(&s).unwrap();
    let out = e.outcome(&s, &moves, &[]).unwrap().expect("two passes");
    assert_eq!(out.results, vec![-1, 1]);
    assert_eq!(out.end_type, "area");
    // Without the module, the stone on a1 stays and nothing ends the game.
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus/zrf/DagazProject.github.io/go/zrf/go.zrf");
    let plain = load_game(&path, &VariantSel::First).unwrap();
    let e = Engine::new(&plain);
    let after = play(&e, &stones(&plain, "Black", &["b1"], &["a1"]), "a2");
    assert!(occupied(&plain, &after, "a1"));
}

/// The corpus's `atari-go.zrf` with `--extension atari-go`: the first capture wins.
#[test]
fn corpus_atari_go_with_its_module_ends_at_the_first_capture() {
    let g = corpus_with("atari-go.zrf", "atari-go");
    assert!(g.missing_rules.is_empty(), "{:?}", g.missing_rules);
    let e = Engine::new(&g);
    let mut s = e.initial();
    // Black e5, White a1, Black b1, White h8, Black a2 takes a1: Black wins.
    for at in ["e5", "a1", "b1", "h8"] {
        s = play(&e, &s, at);
        let moves = e.legal_moves(&s).unwrap();
        assert!(e.outcome(&s, &moves, &[]).unwrap().is_none(), "after {at}");
    }
    s = play(&e, &s, "a2");
    assert!(!occupied(&g, &s, "a1"));
    let moves = e.legal_moves(&s).unwrap();
    let out = e.outcome(&s, &moves, &[]).unwrap().expect("first capture");
    assert_eq!(out.results, vec![1, -1]);
    assert_eq!(out.end_type, "first-capture");
}

/// A fill that stops at its first liberty must not leave marks that cut the same group short when it is
/// reached again from another stone. Black plays c3; White's c4-d4-d3 touches it twice (c4 north, d3 east).
/// The fill from c4 stops at once on c5; the fill from d3 must still reach c5 through d4 and c4, or it
/// would take d3 and d4, whose other neighbours (d2, e3, e4, d5) are Black's.
#[test]
fn a_group_reached_twice_from_the_new_stone_keeps_its_far_liberty() {
    let g = go5();
    let e = Engine::new(&g);
    let s = stones(&g, "Black", &["d2", "e3", "e4", "d5"], &["c4", "d4", "d3"]);
    let after = play(&e, &s, "c3");
    for at in ["c4", "d4", "d3"] {
        assert!(occupied(&g, &after, at), "{at} has a liberty on c5 and b4");
    }
}

/// The corpus's `arrange/zrf/hex.zrf` (its goal and swap rule in Dagaz scripts) with `--extension hex`:
/// a chain between one's edges wins, and the second player's first move may be the swap.
#[test]
fn corpus_hex_with_the_hex_module_wins_by_connection_and_offers_the_swap() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus/zrf/DagazProject.github.io/arrange/zrf/hex.zrf");
    let mut g = load_game(&path, &VariantSel::First).unwrap();
    let plain_moves = {
        let e = Engine::new(&g);
        let s = play(&e, &e.initial(), "c5");
        e.legal_moves(&s).unwrap().len()
    };
    dagaz::extension::attach(&mut g, "hex").unwrap();
    assert!(g.missing_rules.is_empty(), "{:?}", g.missing_rules);
    let e = Engine::new(&g);
    // Red c5; Blue has the 120 empty cells and the swap, which puts a Blue stone on e3 and removes c5.
    let s = play(&e, &e.initial(), "c5");
    let moves = e.legal_moves(&s).unwrap();
    assert_eq!(plain_moves, 120);
    assert_eq!(moves.len(), 121);
    let swap = moves.iter().find(|m| m.captures() == 1).expect("the swap");
    let after = e.apply(&s, swap);
    assert!(!occupied(&g, &after, "c5"));
    let e3 = after
        .get(g.board.position("e3").unwrap())
        .expect("a stone on e3");
    assert_eq!(e3.owner, dagaz::compile::Player(1));
    // No swap later in the game.
    let s = play(&e, &play(&e, &s, "a1"), "b1");
    assert!(e.legal_moves(&s).unwrap().iter().all(|m| m.captures() == 0));
    // Red joins rows 1 and 11 along column f: Red wins; Blue joins columns a and k along row 6: Blue wins.
    let red: Vec<String> = (1..=11).map(|r| format!("f{r}")).collect();
    let red: Vec<&str> = red.iter().map(String::as_str).collect();
    let s = stones(&g, "Blue", &red, &[]);
    let out = e
        .outcome(&s, &e.legal_moves(&s).unwrap(), &[])
        .unwrap()
        .expect("Red joined");
    assert_eq!(out.results, vec![1, -1]);
    let blue: Vec<String> = "abcdefghijk".chars().map(|c| format!("{c}6")).collect();
    let blue: Vec<&str> = blue.iter().map(String::as_str).collect();
    let s = stones(&g, "Red", &[], &blue);
    let out = e
        .outcome(&s, &e.legal_moves(&s).unwrap(), &[])
        .unwrap()
        .expect("Blue joined");
    assert_eq!(out.results, vec![-1, 1]);
    // Ten of column f's eleven cells: no chain.
    let s = stones(&g, "Blue", &red[..10], &[]);
    assert!(e
        .outcome(&s, &e.legal_moves(&s).unwrap(), &[])
        .unwrap()
        .is_none());
}

fn alak(variant: &str) -> dagaz::Game {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus/zrf/DagazProject.github.io/go/zrf/alak.zrf");
    let mut g = load_game(&path, &VariantSel::Title(variant.into())).unwrap();
    dagaz::extension::attach(&mut g, "alak").unwrap();
    assert!(g.missing_rules.is_empty(), "{:?}", g.missing_rules);
    g
}

/// The corpus's `alak.zrf` with `--extension alak`: enemy runs closed by the mover's stone or the row's end
/// are taken; no drop where a stone was just taken; a full row is scored.
#[test]
fn corpus_alak_takes_closed_runs_and_forbids_the_ko_cells() {
    let g = alak("Alak");
    let e = Engine::new(&g);
    // White c1 d1 between Black b1 and the drop on e1.
    let s = play(&e, &stones(&g, "Black", &["b1"], &["c1", "d1"]), "e1");
    assert!(!occupied(&g, &s, "c1") && !occupied(&g, &s, "d1"));
    // White may not drop on c1 or d1 right away, but may elsewhere.
    let moves = e.legal_moves(&s).unwrap();
    assert!(drop_at(&g, &moves, "c1").is_none() && drop_at(&g, &moves, "d1").is_none());
    assert!(drop_at(&g, &moves, "g1").is_some());
    // One move later the cells are free again.
    let s = play(&e, &play(&e, &s, "g1"), "i1");
    assert!(drop_at(&g, &e.legal_moves(&s).unwrap(), "c1").is_some());
    // The end of the row closes a run: White a1 b1, Black drops c1.
    let s = play(&e, &stones(&g, "Black", &[], &["a1", "b1"]), "c1");
    assert!(!occupied(&g, &s, "a1") && !occupied(&g, &s, "b1"));
    // A run with an empty cell beyond stays.
    let s = play(&e, &stones(&g, "Black", &[], &["b1"]), "c1");
    assert!(occupied(&g, &s, "b1"));
    // A full row: Black 6 stones, White 5: Black wins on the count.
    let full = stones(
        &g,
        "White",
        &["a1", "b1", "c1", "d1", "e1", "f1"],
        &["g1", "h1", "i1", "j1", "k1"],
    );
    let out = e
        .outcome(&full, &e.legal_moves(&full).unwrap(), &[])
        .unwrap()
        .expect("no move left");
    assert_eq!(out.results, vec![1, -1]);
    assert_eq!(out.end_type, "territory");
}

/// The moving variant ("Alak Checkers"): a stone slides to the next empty cell and takes the closed runs
/// beside it; fewer than two stones loses.
#[test]
fn corpus_alak_checkers_takes_runs_and_ends_below_two_stones() {
    let g = alak("Alak Checkers");
    let e = Engine::new(&g);
    // White a1 and e1, Black b1 c1 (and j1 k1): e1 slides west to d1, closing b1-c1 against a1.
    let s = stones(&g, "White", &["b1", "c1", "j1", "k1"], &["a1", "e1"]);
    let after = slide(&e, &s, "e1", "d1");
    assert!(!occupied(&g, &after, "b1") && !occupied(&g, &after, "c1"));
    // Black's two stones left: the game goes on; with one, Black loses.
    assert!(e
        .outcome(&after, &e.legal_moves(&after).unwrap(), &[])
        .unwrap()
        .is_none());
    let s = stones(&g, "White", &["b1", "c1", "k1"], &["a1", "e1"]);
    let after = slide(&e, &s, "e1", "d1");
    let out = e
        .outcome(&after, &e.legal_moves(&after).unwrap(), &[])
        .unwrap()
        .expect("Black has one stone");
    assert_eq!(out.results, vec![-1, 1]);
}

/// Plays the move of the piece on `from` to `to`.
fn slide(e: &Engine, s: &State, from: &str, to: &str) -> State {
    let (f, t) = (e.game.board.position(from), e.game.board.position(to));
    let moves = e.legal_moves(s).unwrap();
    let m = moves
        .iter()
        .find(|m| m.parts.len() == 1 && m.parts[0].from == f && m.parts[0].to == t)
        .unwrap_or_else(|| panic!("{from}-{to} is not legal"));
    e.apply(s, m)
}

/// Tromp-Taylor's rule, declared with `(capture-groups suicide)` in place of the `suicide?` test: a suicide is
/// legal and removes the mover's own group, the new stone included.
#[test]
fn declared_suicide_removes_the_movers_own_group() {
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("games/go-9x9.zrf"))
            .unwrap();
    let old = "(verify (not suicide?))   ; suicide is illegal\n   (capture-groups)";
    assert!(text.contains(old));
    let g = game(&text.replace(old, "(capture-groups suicide)"));
    let e = Engine::new(&g);
    // White b1 next to Black a2, b2, c1: White a1 leaves a1-b1 without a liberty and takes nothing.
    let s = stones(&g, "White", &["a2", "b2", "c1"], &["b1"]);
    let moves = e.legal_moves(&s).unwrap();
    let m = moves
        .iter()
        .find(|m| m.parts.len() == 1 && m.parts[0].to == g.board.position("a1"))
        .expect("the suicide is legal");
    let after = e.apply(&s, m);
    assert!(!occupied(&g, &after, "a1") && !occupied(&g, &after, "b1"));
    assert!(occupied(&g, &after, "a2") && occupied(&g, &after, "b2") && occupied(&g, &after, "c1"));
    // A move that captures is no suicide: it keeps its stone.
    let s = stones(&g, "White", &["b1", "a2"], &["c1", "b2"]);
    let after = play(&e, &s, "a1");
    assert!(occupied(&g, &after, "a1") && !occupied(&g, &after, "b1"));
}

/// `connects` with three zones, as Y's three sides: one group must touch all three; two groups that touch
/// them between them do not.
#[test]
fn connects_with_three_zones_needs_one_group_touching_all() {
    let g = game(
        r#"(game (title "Y-like") (players A B) (turn-order A B)
  (board (grid (dimensions ("a/b/c/d" (50 0)) ("4/3/2/1" (0 50))) (directions (n 0 -1) (e 1 0) (s 0 1) (w -1 0)))
    (zone (name left) (players A B) (positions a1 a2 a3 a4))
    (zone (name top) (players A B) (positions a4 b4 c4 d4))
    (zone (name right) (players A B) (positions d1 d2 d3 d4)))
  (piece (name Stone) (drops ((verify empty?) add)))
  (win-condition (A B) (connects left top right)))"#,
    );
    let e = Engine::new(&g);
    let over = |s: &State| e.outcome(s, &e.legal_moves(s).unwrap(), &[]).unwrap();
    // a1-b1-c1-d1 along the bottom touches left and right, not top.
    assert!(over(&stones(&g, "B", &["a1", "b1", "c1", "d1"], &[])).is_none());
    // Add b2, b3, b4: the same group reaches the top.
    let s = stones(&g, "B", &["a1", "b1", "c1", "d1", "b2", "b3", "b4"], &[]);
    assert_eq!(over(&s).expect("all three").results, vec![1, -1]);
    // Two groups: a1-a2 (left) and c4-d4 (top, right) do not.
    assert!(over(&stones(&g, "B", &["a1", "a2", "c4", "d4"], &[])).is_none());
}

/// Every test of this file once more with the general path forced (`DAGAZ_GENERAL_PATH=1`).
#[test]
fn on_the_general_path() {
    common::rerun_on_general_path("on_the_general_path");
}
