//! Rule tests of sowing (`docs/language.md`, "Sowing") on `games/oware.zrf` (Abapa, the Oware Society's
//! rules) and `games/kalah.zrf` (Kalah(6,4)): each position is built from the published rule it tests, and
//! each test fails if that rule is ignored. Perft is in `tests/perft.rs`.

#[path = "common/scratch.rs"]
mod scratch_dir;
use scratch_dir::Scratch;
mod common;

use dagaz::engine::{position, Engine, Move, State};
use dagaz::lang::diag::render_all;
use dagaz::load::{load, load_game, VariantSel};
use std::path::Path;

fn game(file: &str) -> dagaz::Game {
    load_game(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join(file),
        &VariantSel::First,
    )
    .unwrap()
}

/// A position: South's pits a1..f1, North's a2..f2, the stores, and who moves.
fn board(south: [i32; 6], north: [i32; 6], ss: i32, ns: i32, turn: &str) -> String {
    let mut s = format!("turn {turn}\n");
    for (i, f) in "abcdef".chars().enumerate() {
        s += &format!("piece South Pit {f}1 seeds={}\n", south[i]);
        s += &format!("piece North Pit {f}2 seeds={}\n", north[i]);
    }
    s += &format!("piece South Store ss seeds={ss}\npiece North Store ns seeds={ns}\n");
    s
}

/// The seeds at each of a1..f1, a2..f2, ss, ns.
fn seeds(g: &dagaz::Game, s: &State) -> ([i32; 6], [i32; 6], i32, i32) {
    let at = |name: &str| {
        let p = g.board.position(name).unwrap();
        s.get(p).map_or(-1, |x| x.attrs.get_int(0) as i32)
    };
    let row = |r: char| {
        let mut out = [0; 6];
        for (i, f) in "abcdef".chars().enumerate() {
            out[i] = at(&format!("{f}{r}"));
        }
        out
    };
    (row('1'), row('2'), at("ss"), at("ns"))
}

fn moves(g: &dagaz::Game, s: &State) -> Vec<(String, Move)> {
    let e = Engine::new(g);
    let mut v: Vec<(String, Move)> = e
        .legal_moves(s)
        .unwrap()
        .into_iter()
        .map(|m| (m.notation(g), m))
        .collect();
    v.sort_by(|a, b| a.0.cmp(&b.0));
    v
}

fn names(g: &dagaz::Game, s: &State) -> Vec<String> {
    moves(g, s).into_iter().map(|x| x.0).collect()
}

/// The state after the move written `name`.
fn play(g: &dagaz::Game, s: &State, name: &str) -> State {
    let (_, m) = moves(g, s)
        .into_iter()
        .find(|x| x.0 == name)
        .unwrap_or_else(|| panic!("no move {name} in {:?}", names(g, s)));
    Engine::new(g).apply(s, &m)
}

fn outcome(g: &dagaz::Game, s: &State) -> Option<(Vec<i8>, String)> {
    let e = Engine::new(g);
    let m = e.legal_moves(s).unwrap();
    e.outcome(s, &m, &[]).unwrap().map(|o| (o.results, o.name))
}

const OWARE: &str = "games/oware.zrf";
const KALAH: &str = "games/kalah.zrf";

/// "If the last seed makes 2 or 3 in an opponent's pit, they are captured, and so are those of the preceding
/// pits of the opponent's row that hold 2 or 3." South's f1 sows f2, e2, d2: d2 1->2, e2 2->3, f2 1->2, all
/// taken (7); a pit of 4 seeds breaks the chain.
#[test]
fn oware_captures_twos_and_threes_and_the_chain_before_them() {
    let g = game(OWARE);
    let s = position::parse(
        &g,
        &board([4, 4, 4, 4, 4, 3], [4, 4, 4, 1, 2, 1], 0, 0, "South"),
    )
    .unwrap();
    let after = play(&g, &s, "f1");
    assert_eq!(
        seeds(&g, &after),
        ([4, 4, 4, 4, 4, 0], [4, 4, 4, 0, 0, 0], 7, 0)
    );

    // e2 ends with 5: only d2 is taken, the chain stops there.
    let s = position::parse(
        &g,
        &board([4, 4, 4, 4, 4, 3], [4, 4, 4, 1, 4, 1], 0, 0, "South"),
    )
    .unwrap();
    let after = play(&g, &s, "f1");
    assert_eq!(
        seeds(&g, &after),
        ([4, 4, 4, 4, 4, 0], [4, 4, 4, 0, 5, 2], 2, 0)
    );

    // A 2 or 3 made in the mover's own row is not captured.
    let s = position::parse(
        &g,
        &board([2, 1, 4, 4, 4, 4], [4, 4, 4, 4, 4, 4], 0, 0, "South"),
    )
    .unwrap();
    let after = play(&g, &s, "a1");
    assert_eq!(
        seeds(&g, &after),
        ([0, 2, 5, 4, 4, 4], [4, 4, 4, 4, 4, 4], 0, 0)
    );
}

/// "A sowing of 12 seeds or more skips the pit it started from." a1's 12 seeds fill the 11 other pits,
/// pass a1 by and end in b1.
#[test]
fn oware_a_lap_skips_the_origin_pit() {
    let g = game(OWARE);
    let s = position::parse(
        &g,
        &board([12, 0, 0, 0, 0, 0], [5, 5, 5, 5, 5, 5], 0, 6, "South"),
    )
    .unwrap();
    let after = play(&g, &s, "a1");
    assert_eq!(
        seeds(&g, &after),
        ([0, 2, 1, 1, 1, 1], [6, 6, 6, 6, 6, 6], 0, 6)
    );
}

/// "If the opponent has no seeds, the player must make a move that gives it some." a1's single seed stays
/// in South's row; f1's reaches North: only f1 is legal.
#[test]
fn oware_a_starving_opponent_must_be_fed() {
    let g = game(OWARE);
    let s = position::parse(&g, &board([1, 0, 0, 0, 0, 1], [0; 6], 23, 23, "South")).unwrap();
    assert_eq!(names(&g, &s), vec!["f1"]);
}

/// "If no move can feed the opponent, the game ends and the player takes the seeds left." South can give
/// North nothing: South takes its two seeds, 25 against 23, and wins.
#[test]
fn oware_when_no_move_feeds_the_game_ends_and_the_mover_takes_the_rest() {
    let g = game(OWARE);
    let s = position::parse(&g, &board([1, 1, 0, 0, 0, 0], [0; 6], 23, 23, "South")).unwrap();
    assert!(names(&g, &s).is_empty());
    assert_eq!(outcome(&g, &s), Some((vec![1, -1], "no move".into())));
}

/// Grand slam: "a move that would capture all the opponent's seeds captures nothing" (the convention of the
/// perft source, OpenSpiel, and of Abapa). f1's two seeds make f2 3 and e2 2, North's only seeds.
/// `(grand-slam illegal)` forbids the move instead; `allowed` captures them.
#[test]
fn oware_a_grand_slam_captures_nothing_or_as_declared() {
    let pos = board([4, 4, 4, 4, 4, 2], [0, 0, 0, 0, 1, 2], 10, 11, "South");
    let g = game(OWARE);
    let s = position::parse(&g, &pos).unwrap();
    let after = play(&g, &s, "f1");
    assert_eq!(
        seeds(&g, &after),
        ([4, 4, 4, 4, 4, 0], [0, 0, 0, 0, 2, 3], 10, 11)
    );

    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(OWARE)).unwrap();
    for (rule, legal, store) in [("illegal", false, 10), ("allowed", true, 15)] {
        let dir = Scratch::new(&format!("sow-{rule}"));
        let f = dir.join("oware.zrf");
        std::fs::write(
            &f,
            text.replace(
                "(grand-slam capture-nothing)",
                &format!("(grand-slam {rule})"),
            ),
        )
        .unwrap();
        let g = load_game(&f, &VariantSel::First).unwrap();
        let s = position::parse(&g, &pos).unwrap();
        assert_eq!(names(&g, &s).contains(&"f1".to_string()), legal, "{rule}");
        if legal {
            assert_eq!(seeds(&g, &play(&g, &s, "f1")).2, store, "{rule}");
        }
    }
}

/// "A player who has captured more than 24 seeds wins"; 24 each is a draw.
#[test]
fn oware_more_than_half_wins() {
    let g = game(OWARE);
    let s = position::parse(
        &g,
        &board([4, 4, 0, 0, 0, 0], [1, 1, 1, 1, 1, 0], 25, 10, "North"),
    )
    .unwrap();
    assert_eq!(
        outcome(&g, &s),
        Some((vec![1, -1], "more than half".into()))
    );
    let s = position::parse(&g, &board([0; 6], [0; 6], 24, 24, "North")).unwrap();
    assert_eq!(outcome(&g, &s), Some((vec![0, 0], "half each".into())));
}

/// "If the last seed falls in the player's own store, the player moves again." From the start c1's four
/// seeds end in South's store: South sows again, in the same move (whole turns), from any of its other five
/// pits: 5 + 5 = 10 moves, and the turn passes only after the second sowing.
#[test]
fn kalah_a_last_seed_in_the_own_store_sows_again() {
    let g = game(KALAH);
    let e = Engine::new(&g);
    let s = e.initial();
    assert_eq!(
        names(&g, &s),
        vec!["a1", "b1", "c1 a1", "c1 b1", "c1 d1", "c1 e1", "c1 f1", "d1", "e1", "f1"]
    );
    let after = play(&g, &s, "c1 f1");
    assert_eq!(
        seeds(&g, &after),
        ([4, 4, 0, 5, 5, 0], [4, 4, 5, 5, 5, 5], 2, 0)
    );
    assert_eq!(e.to_move(&after), g.player("North").unwrap());
}

/// "If the last seed falls in an empty pit of the player's own row, it and the seeds of the opposite pit go
/// to the player's store." a1's seed lands in the empty b1, opposite b2's 5: 6 to ss. With b2 empty, nothing
/// is taken (OpenSpiel's convention).
#[test]
fn kalah_the_last_seed_in_an_empty_own_pit_takes_the_opposite_pit() {
    let g = game(KALAH);
    let s = position::parse(
        &g,
        &board([1, 0, 4, 4, 4, 4], [4, 5, 4, 4, 4, 4], 3, 0, "South"),
    )
    .unwrap();
    let after = play(&g, &s, "a1");
    assert_eq!(
        seeds(&g, &after),
        ([0, 0, 4, 4, 4, 4], [4, 0, 4, 4, 4, 4], 9, 0)
    );
    let s = position::parse(
        &g,
        &board([1, 0, 4, 4, 4, 4], [4, 0, 4, 4, 4, 4], 3, 5, "South"),
    )
    .unwrap();
    let after = play(&g, &s, "a1");
    assert_eq!(
        seeds(&g, &after),
        ([0, 1, 4, 4, 4, 4], [4, 0, 4, 4, 4, 4], 3, 5)
    );
}

/// "Seeds are sown into the player's own store, never into the opponent's." f1's 8 seeds: ss, f2..a2, then
/// past ns to a1.
#[test]
fn kalah_the_opponents_store_is_skipped() {
    let g = game(KALAH);
    let s = position::parse(
        &g,
        &board([4, 4, 4, 4, 4, 8], [4, 4, 4, 4, 4, 4], 0, 0, "South"),
    )
    .unwrap();
    let after = play(&g, &s, "f1");
    assert_eq!(
        seeds(&g, &after),
        ([5, 4, 4, 4, 4, 0], [5, 5, 5, 5, 5, 5], 1, 0)
    );
}

/// "When one player's pits are all empty, the game ends and each player takes the seeds left on its side."
/// South's last seed goes to its store and empties its row: North keeps its 10 seeds, 27 against 21.
/// Without the sweep South's store (21) would beat North's (17).
#[test]
fn kalah_the_end_sweeps_the_rows_to_their_owners() {
    let g = game(KALAH);
    let s = position::parse(
        &g,
        &board([0, 0, 0, 0, 0, 1], [2, 2, 2, 2, 2, 0], 20, 17, "South"),
    )
    .unwrap();
    assert_eq!(names(&g, &s), vec!["f1"]);
    let after = play(&g, &s, "f1");
    assert_eq!(outcome(&g, &after), Some((vec![-1, 1], "row empty".into())));
}

fn errors(src: &str) -> String {
    let dir = Scratch::new("sowing");
    let f = dir.join("bad.zrf");
    std::fs::write(&f, src).unwrap();
    let l = load(&f, &VariantSel::First);
    assert!(l.game.is_none(), "should not load");
    render_all(&l.diagnostics, &l.file.sources).replace(&format!("{}/", dir.display()), "")
}

#[test]
fn sow_forms_have_located_errors() {
    let src = r#"(game (title "Bad") (players A B) (turn-order A B)
  (board (positions a b c) (links cw (a b) (b c) (c a)) (zone (name st) (players A B) (positions c)))
  (piece (name P) (attribute seeds 4) (attribute red true)
    (moves ((sow red cw) add)
           ((sow seeds cw (skp origin)) add)
           ((sow seeds cw (capture (empty?) (counts 2 3))) add)
           ((sow seeds cw (store st) (grand-slam maybe) skip-origin skip-origin) add)
           ((verify (> (sum seeds (zone nowhere)) 0)) add)))
  (board-setup (A (P a)) (B (P b)))
  (win-condition (A B) (> (sum sedes) 3)))
"#;
    let out = errors(src);
    for (msg, at) in [
        ("`red` is not an integer attribute", "bad.zrf:4:18"),
        ("unknown sow option `(skp origin)`", "bad.zrf:5:27"),
        (
            "captured seeds need a store: add (store ZONE)",
            "bad.zrf:6:13",
        ),
        (
            "a grand slam is `capture-nothing`, `illegal` or `allowed`",
            "bad.zrf:7:50",
        ),
        ("`skip-origin` is given twice in one `sow`", "bad.zrf:7:69"),
        ("`(zone Z)` names one zone of the board", "bad.zrf:8:35"),
        ("`sum` needs an integer attribute", "bad.zrf:10:32"),
    ] {
        let i = out
            .find(&format!("error: {msg}"))
            .unwrap_or_else(|| panic!("missing {msg:?} in:\n{out}"));
        let located = out[i..].lines().nth(1).unwrap_or("");
        assert!(located.ends_with(at), "{msg:?} at {located:?}, not {at}");
    }
    assert!(out.contains("did you mean `skip`?"), "{out}");
}

/// A board whose seeds could pile past a pile's 8 bits is refused at the `sow`.
#[test]
fn more_seeds_than_a_pile_holds_is_an_error() {
    let src = r#"(game (title "Big") (players A B) (turn-order A B)
  (board (positions a b c) (links cw (a b) (b c) (c a)))
  (piece (name P) (attribute seeds 50) (moves ((sow seeds cw) add)))
  (board-setup (A (P a b)) (B (P c)))
  (win-condition (A B) stalemated))
"#;
    let out = errors(src);
    assert!(
        out.contains(
            "error: the board starts with 150 seeds; a pile holds at most 127\n --> bad.zrf:3:48"
        ),
        "{out}"
    );
}

const CORPUS_MANCALA: &str = "../shared/corpus/zrf/DagazProject.github.io/mancala/zrf";

/// A corpus mancala file (variant `v`) with a module attached, as `--extension NAME` does.
fn corpus_with(file: &str, variant: usize, module: &str) -> dagaz::Game {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(CORPUS_MANCALA)
        .join(file);
    // As the command line does: the module is known while the file compiles, then attached.
    let opts = dagaz::lang::ReadOptions {
        extensions: vec![module.into()],
        ..Default::default()
    };
    let mut g = dagaz::load::load_game_with(&p, &VariantSel::Number(variant), &opts).unwrap();
    dagaz::extension::attach(&mut g, module).unwrap();
    g
}

/// A corpus position: the piles are `Seed`s, the stores X1 (South's) and X2.
fn corpus_board(south: [i32; 6], north: [i32; 6], x1: i32, x2: i32, turn: &str) -> String {
    board(south, north, x1, x2, turn)
        .replace(" Pit ", " Seed ")
        .replace("Store ss", "Seed X1")
        .replace("Store ns", "Seed X2")
}

fn corpus_seeds(g: &dagaz::Game, s: &State, at: &str) -> i32 {
    let k = g
        .int_attributes
        .iter()
        .position(|a| g.attributes[a.idx()] == "seeds")
        .unwrap();
    s.get(g.board.position(at).unwrap())
        .map_or(0, |x| x.attrs.get_int(k) as i32)
}

/// The corpus Oware (whose sowing, captures and end are Dagaz scripts) plays them with `--extension oware`:
/// four seeds a pit, perft as OpenSpiel's Oware where the rules agree (d1-d6), a capture of 2s and 3s with
/// its chain, and Dagaz's "no full capturing": a move that would take all the opponent's seeds is not
/// allowed while another move is.
#[test]
fn corpus_oware_plays_its_dagaz_rules_with_the_module() {
    let g = corpus_with("oware.zrf", 1, "oware");
    assert!(g.missing_rules.is_empty(), "{:?}", g.missing_rules);
    let e = Engine::new(&g);
    let s = e.initial();
    for (d, want) in [
        (1, 6),
        (2, 36),
        (3, 190),
        (4, 1_014),
        (5, 5_219),
        (6, 27_332),
    ] {
        assert_eq!(e.perft(&s, d).unwrap(), want, "corpus oware d{d}");
    }
    let s = position::parse(
        &g,
        &corpus_board([4, 4, 4, 4, 4, 3], [4, 4, 4, 1, 2, 1], 0, 0, "South"),
    )
    .unwrap();
    let after = play(&g, &s, "f1");
    assert_eq!(corpus_seeds(&g, &after, "X1"), 7);
    assert_eq!(corpus_seeds(&g, &after, "e2"), 0);

    let s = position::parse(
        &g,
        &corpus_board([1, 0, 0, 0, 0, 2], [0, 0, 0, 0, 1, 2], 20, 20, "South"),
    )
    .unwrap();
    assert_eq!(names(&g, &s), vec!["a1"]);
}

/// Cross-Wari, the corpus file's second variant, sows either way (its two move types): twelve moves.
#[test]
fn corpus_cross_wari_sows_both_ways() {
    let g = corpus_with("oware.zrf", 2, "oware");
    let e = Engine::new(&g);
    assert_eq!(e.legal_moves(&e.initial()).unwrap().len(), 12);
}

/// The corpus Kalah (Dagaz's page: six seeds a pit), unchanged, with `--extension kalah`. Its setup names
/// `g1` and `g2`, which its board lacks: an error without the module; with it, the module accounts for them
/// (Dagaz's converted board puts them where North's own seeds are) and the file loads. Its perft equals that
/// of `games/kalah.zrf` with six seeds, the same rules written in the language; a random game ends by a row
/// emptied or a store holding more than half.
#[test]
fn corpus_kalah_plays_its_dagaz_rules_with_the_module() {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(CORPUS_MANCALA)
        .join("kalah.zrf");
    let err = load_game(&p, &VariantSel::First).unwrap_err();
    assert!(err.contains("unknown position `g1`"), "{err}");
    assert!(err.contains("unknown position `g2`"), "{err}");
    let l = dagaz::load::load_with(
        &p,
        &VariantSel::First,
        &dagaz::lang::ReadOptions {
            extensions: vec!["kalah".into()],
            ..Default::default()
        },
    );
    assert!(l
        .diagnostics
        .iter()
        .any(|d| !d.is_error() && d.message.starts_with("setup position `g1` is not placed")));
    let g = corpus_with("kalah.zrf", 1, "kalah");
    let dir = Scratch::new("kalah");
    let six = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(KALAH))
        .unwrap()
        .replace("(attribute seeds 4)", "(attribute seeds 6)");
    let f6 = dir.join("kalah6.zrf");
    std::fs::write(&f6, six).unwrap();
    let g6 = load_game(&f6, &VariantSel::First).unwrap();
    let (e, e6) = (Engine::new(&g), Engine::new(&g6));
    for d in 1..=4 {
        assert_eq!(
            e.perft(&e.initial(), d).unwrap(),
            e6.perft(&e6.initial(), d).unwrap(),
            "d{d}"
        );
    }
    assert_eq!(e.perft(&e.initial(), 1).unwrap(), 10);
    // a1's six seeds end in the store: South sows again from another pit in the same move.
    let s = e.initial();
    assert!(names(&g, &s)
        .iter()
        .any(|n| n.starts_with("a1 ") && n.contains(" b1")));
    let mut rng = dagaz::engine::playout::game_rng(1, 0);
    let mut s = s;
    let mut end = None;
    for _ in 0..500 {
        let moves = e.legal_moves(&s).unwrap();
        if let Some(o) = e.outcome(&s, &moves, &[]).unwrap() {
            end = Some(o.name);
            break;
        }
        s = e.apply(
            &s,
            &moves[dagaz::engine::playout::below(&mut rng, moves.len())],
        );
    }
    let end = end.expect("the game ends");
    assert!(end == "row empty" || end == "more than half", "{end}");
}

/// The corpus Mini Mancala with `--extension mini-mancala` (Dagaz's page: two seeds a pit, plain sowing
/// round the four pits, a player with no seed loses): a1's two seeds go to b1 and b2; South, left without
/// seeds, has lost.
#[test]
fn corpus_mini_mancala_sows_and_a_player_without_seeds_loses() {
    let g = corpus_with("mini-mancala.zrf", 1, "mini-mancala");
    let e = Engine::new(&g);
    let s = e.initial();
    assert_eq!(names(&g, &s), vec!["a1", "b1"]);
    let after = play(&g, &s, "a1");
    for (at, n) in [("a1", 0), ("b1", 3), ("b2", 3), ("a2", 2)] {
        assert_eq!(corpus_seeds(&g, &after, at), n, "{at}");
    }
    let pos = "turn South\npiece South Seed a1\npiece South Seed b1\npiece North Seed a2 seeds=5\npiece North Seed b2 seeds=3\n";
    let s = position::parse(&g, pos).unwrap();
    assert_eq!(outcome(&g, &s), Some((vec![-1, 1], "no move".into())));
}

/// The corpus Bakuk with `--extension bakuk` (Dagaz's page: six seeds a pit in three a side; a last seed
/// making 2 or 4 in either row captures, and so do the pits after it reached by a full lap): a1's seven
/// seeds go round and end in b1 (0 -> 2), then c1 (1 -> 2) is taken too: 4 to X1.
#[test]
fn corpus_bakuk_captures_twos_and_fours_onwards() {
    let g = corpus_with("bakuk.zrf", 1, "bakuk");
    let e = Engine::new(&g);
    assert_eq!(e.perft(&e.initial(), 2).unwrap(), 9);
    let pos = "turn South
piece South Seed a1 seeds=7
piece South Seed b1
piece South Seed c1 seeds=1
piece North Seed a2 seeds=3
piece North Seed b2 seeds=3
piece North Seed c2
piece South Seed X1
piece North Seed X2
";
    let s = position::parse(&g, pos).unwrap();
    let after = play(&g, &s, "a1");
    for (at, n) in [
        ("a1", 1),
        ("b1", 0),
        ("c1", 0),
        ("c2", 1),
        ("b2", 4),
        ("a2", 4),
        ("X1", 4),
    ] {
        assert_eq!(corpus_seeds(&g, &after, at), n, "{at}");
    }
}

/// The corpus Alemungula with `--extension alemungula` (Dagaz's page: five seeds a pit; the file's own
/// zones say which pits sow which way, c1 both; a last seed making 2 or 4 in the opponent's row captures):
/// six moves from the start; e1's seed makes e2 4, taken to X1.
#[test]
fn corpus_alemungula_sows_both_ways_and_captures_fours() {
    let g = corpus_with("alemungula.zrf", 1, "alemungula");
    let e = Engine::new(&g);
    assert_eq!(e.legal_moves(&e.initial()).unwrap().len(), 6);
    let mut pos = String::from("turn South\n");
    for (at, n) in [("a1", 5), ("b1", 5), ("c1", 5), ("d1", 5), ("e1", 1)] {
        pos += &format!("piece South Seed {at} seeds={n}\n");
    }
    for (at, n) in [("a2", 5), ("b2", 5), ("c2", 5), ("d2", 5), ("e2", 3)] {
        pos += &format!("piece North Seed {at} seeds={n}\n");
    }
    let s = position::parse(&g, &pos).unwrap();
    // The store has no pile yet: the capture creates it (`Seed@X1` in the notation).
    let after = play(&g, &s, "e1 Seed@X1");
    assert_eq!(corpus_seeds(&g, &after, "e2"), 0);
    assert_eq!(corpus_seeds(&g, &after, "X1"), 4);
}

/// A corpus position of any row length: South's pits a1.., North's a2.., the stores X1 (South's) and X2.
fn corpus_rows(south: &[i32], north: &[i32], x1: i32, x2: i32, turn: &str) -> String {
    let mut s = format!("turn {turn}\n");
    for (i, f) in "abcdefgh".chars().take(south.len()).enumerate() {
        s += &format!("piece South Seed {f}1 seeds={}\n", south[i]);
        s += &format!("piece North Seed {f}2 seeds={}\n", north[i]);
    }
    s + &format!("piece South Seed X1 seeds={x1}\npiece North Seed X2 seeds={x2}\n")
}

/// The corpus Dakon with `--extension dakon` (Dagaz's `dakon-extension` "mikul": seven seeds a pit, relay
/// sowing). From the start, South's f1 ends in North's a2, which now holds 8: the pit is lifted and sown on
/// (a relay, in the same move: `f1 Seed@X1 a2`, the store getting its pile), its last seed falls in South's emptied f1, which takes the
/// opposite f2 (8) to the store and keeps its seed. "Mikul": a last seed in North's empty b2, between a2 and
/// c2 holding 3 each, takes all seven; with c2 at 4, nothing.
#[test]
fn corpus_dakon_relays_and_captures_with_the_module() {
    let g = corpus_with("dakon.zrf", 1, "dakon");
    assert!(g.missing_rules.is_empty(), "{:?}", g.missing_rules);
    let e = Engine::new(&g);
    let s = e.initial();
    assert_eq!(e.perft(&s, 1).unwrap(), 7);
    let after = play(&g, &s, "f1 Seed@X1 a2");
    for (at, n) in [
        ("a2", 0),
        ("f1", 1),
        ("f2", 0),
        ("X1", 9),
        ("g1", 8),
        ("b2", 8),
    ] {
        assert_eq!(corpus_seeds(&g, &after, at), n, "{at}");
    }
    let total: i32 = g
        .board
        .positions
        .iter()
        .map(|p| corpus_seeds(&g, &after, &p.name))
        .sum();
    assert_eq!(total, 98);

    let mikul = |c2: i32| {
        let text = corpus_rows(
            &[3, 0, 0, 0, 0, 0, 1],
            &[2, 0, c2, 1, 0, 0, 0],
            0,
            0,
            "South",
        );
        let s = position::parse(&g, &text).unwrap();
        play(&g, &s, "a1")
    };
    let after = mikul(3);
    for (at, n) in [("a2", 0), ("b2", 0), ("c2", 0), ("X1", 8)] {
        assert_eq!(corpus_seeds(&g, &after, at), n, "{at}");
    }
    let after = mikul(4);
    for (at, n) in [("a2", 3), ("b2", 1), ("c2", 4), ("X1", 1)] {
        assert_eq!(corpus_seeds(&g, &after, at), n, "{at}");
    }
    // A random game ends by a store holding more than half or an empty row.
    let mut rng = dagaz::engine::playout::game_rng(1, 0);
    let mut s = e.initial();
    let mut end = None;
    for _ in 0..1000 {
        let moves = e.legal_moves(&s).unwrap();
        if let Some(o) = e.outcome(&s, &moves, &[]).unwrap() {
            end = Some(o.name);
            break;
        }
        s = e.apply(
            &s,
            &moves[dagaz::engine::playout::below(&mut rng, moves.len())],
        );
    }
    let end = end.expect("the game ends");
    assert!(end == "row empty" || end == "more than half", "{end}");
}

/// The corpus Ohvalhu with `--extension ohvalhu` (Dagaz's `ohvalhu-extension`, `dakon-restrictions`
/// "extended": eight seeds a pit). From the start, South's h1 ends in the store: South plays again. g1
/// ends in North's a2 (now 9), which is sown on (`g1 Seed@X1 a2`) and ends in South's emptied g1: that seed and the
/// opposite g2 (9) go to the store. A pit holding a `Dead` piece is passed over.
#[test]
fn corpus_ohvalhu_relays_sows_again_and_captures_with_the_module() {
    let g = corpus_with("ohvalhu.zrf", 1, "ohvalhu");
    assert!(g.missing_rules.is_empty(), "{:?}", g.missing_rules);
    let e = Engine::new(&g);
    let s = e.initial();
    assert_eq!(e.perft(&s, 1).unwrap(), 8);
    let after = play(&g, &s, "h1 Seed@X1");
    assert_eq!(corpus_seeds(&g, &after, "X1"), 1);
    assert_eq!(
        g.turn_order.entries[after.turn()].player,
        g.turn_order.entries[s.turn()].player,
        "a last seed in the store: the mover plays again"
    );
    let after = play(&g, &s, "g1 Seed@X1 a2");
    for (at, n) in [
        ("a2", 0),
        ("g1", 0),
        ("g2", 0),
        ("X1", 11),
        ("h1", 9),
        ("h2", 9),
    ] {
        assert_eq!(corpus_seeds(&g, &after, at), n, "{at}");
    }
    assert_ne!(
        g.turn_order.entries[after.turn()].player,
        g.turn_order.entries[s.turn()].player
    );
    // A dead pit (b1) is passed over: c1's two seeds go to a1 and the store.
    let text = corpus_rows(&[0, 0, 2, 0, 0, 0, 0, 1], &[1; 8], 0, 0, "South")
        .replace("piece South Seed b1 seeds=0", "piece South Dead b1");
    let s = position::parse(&g, &text).unwrap();
    let after = play(&g, &s, "c1");
    assert_eq!(corpus_seeds(&g, &after, "a1"), 1);
    assert_eq!(corpus_seeds(&g, &after, "X1"), 1);
    // A random game ends with an empty row that no new round follows.
    let mut rng = dagaz::engine::playout::game_rng(1, 0);
    let mut s = e.initial();
    let mut end = None;
    for _ in 0..50_000 {
        let moves = e.legal_moves(&s).unwrap();
        if let Some(o) = e.outcome(&s, &moves, &[]).unwrap() {
            end = Some(o.name);
            break;
        }
        s = e.apply(
            &s,
            &moves[dagaz::engine::playout::below(&mut rng, moves.len())],
        );
    }
    assert_eq!(end.as_deref(), Some("row empty"));
}

/// Ohvalhu's rounds (Dagaz's page goes on to a next round): when a row is empty each player gathers its row
/// and store and fills its pits again, eight a pit, from the pit nearest its store; the pits it cannot fill
/// are dead; the rest stays in its store; the player with fewer seeds starts. Worked by hand: South's last
/// seed (a1) goes to its store, which empties South's row. South holds 40 + 1 = 41: five pits (a1-e1, nearest
/// X1 on its path h1 ... a1 X1), f1-h1 dead, 1 left in X1. North holds 40 + 47 = 87: all eight pits, 23 left
/// in X2. South has fewer, so South moves again. With 5 + 1 seeds South cannot fill a pit: the game ends
/// there and North, with more, wins.
#[test]
fn corpus_ohvalhu_plays_rounds_until_a_pit_cannot_be_filled() {
    let g = corpus_with("ohvalhu.zrf", 1, "ohvalhu");
    let e = Engine::new(&g);
    let dead = g.piece_type("Dead").unwrap();
    let s = position::parse(
        &g,
        &corpus_rows(&[1, 0, 0, 0, 0, 0, 0, 0], &[5; 8], 40, 47, "South"),
    )
    .unwrap();
    let m = e.legal_moves(&s).unwrap();
    assert_eq!(m.len(), 1);
    let after = e.apply(&s, &m[0]);
    for (at, n) in [
        ("a1", 8),
        ("b1", 8),
        ("c1", 8),
        ("d1", 8),
        ("e1", 8),
        ("X1", 1),
        ("a2", 8),
        ("h2", 8),
        ("X2", 23),
    ] {
        assert_eq!(corpus_seeds(&g, &after, at), n, "{at}");
    }
    for at in ["f1", "g1", "h1"] {
        let x = after.get(g.board.position(at).unwrap()).expect(at);
        assert_eq!(x.kind, dead, "{at}");
    }
    assert_eq!(
        g.turn_order.entries[after.turn()].player,
        g.turn_order.entries[s.turn()].player,
        "the player with fewer seeds starts the round"
    );
    assert_eq!(outcome(&g, &after), None);
    // The new round: South sows from its five live pits only.
    let m = e.legal_moves(&after).unwrap();
    assert_eq!(m.len(), 5, "a1 to e1");
    // Too few seeds for a pit: no new round, and the totals decide.
    let s = position::parse(
        &g,
        &corpus_rows(&[1, 0, 0, 0, 0, 0, 0, 0], &[15; 8], 5, 2, "South"),
    )
    .unwrap();
    let m = e.legal_moves(&s).unwrap();
    let after = e.apply(&s, &m[0]);
    assert_eq!(corpus_seeds(&g, &after, "X1"), 6);
    let (results, name) = outcome(&g, &after).expect("over");
    assert_eq!(name, "row empty");
    assert_eq!(results, vec![-1, 1]);
    // Random games: the 128 seeds stay 128 through every round, and rounds with dead pits come. (Random
    // players keep the totals close, so a game often lasts thousands of rounds: `dagaz playout` of this file,
    // 10 games, averaged 106,538 plies; the first test above sees one end.)
    let total = |s: &State| -> i32 {
        g.board
            .positions
            .iter()
            .map(|p| corpus_seeds(&g, s, &p.name))
            .sum()
    };
    let mut later_rounds = 0;
    for seed in 1..=5 {
        let mut rng = dagaz::engine::playout::game_rng(seed, 0);
        let mut s = e.initial();
        let mut dead_seen = false;
        for _ in 0..3_000 {
            let moves = e.legal_moves(&s).unwrap();
            if e.outcome(&s, &moves, &[]).unwrap().is_some() {
                break;
            }
            s = e.apply(
                &s,
                &moves[dagaz::engine::playout::below(&mut rng, moves.len())],
            );
            assert_eq!(total(&s), 128, "seed {seed}, ply {}", s.ply());
            dead_seen |= s.cells().iter().any(|c| c.is_some_and(|x| x.kind == dead));
        }
        later_rounds += dead_seen as u32;
    }
    assert!(
        later_rounds > 0,
        "no random game reached a round with dead pits"
    );
}

/// Every test of this file once more with the general path forced (`DAGAZ_GENERAL_PATH=1`).
#[test]
fn on_the_general_path() {
    common::rerun_on_general_path("on_the_general_path");
}
