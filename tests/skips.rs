//! Regions of move programs that attack runs skip (`src/compile/code.rs`, "Regions that runs for a destination
//! skip"): code that only adds effects to a move (a scan of the whole board before `add`) is jumped over when a
//! run only asks whether an `add` captures a square (legality tests, `attacked?`), and its reads are not
//! recorded. These tests check that the compiler marks exactly the regions that cannot change an attack run's
//! answer, and that skipping them changes no legal move: on a small game of our own (`tests/data/scans/`),
//! whose counts are worked by hand from its rules, on Gwangsanghui, the corpus game that made the skip
//! necessary, and on every corpus variant with a marked region (the skip against the same game with every
//! mark turned off, `code::without_skips`).

mod common;

use dagaz::compile::code::{skips, without_skips};
use dagaz::compile::{Game, Player, Pos};
use dagaz::engine::playout::{below, game_rng};
use dagaz::engine::{gen, position, Engine, State};
use dagaz::lang::read_file;
use dagaz::load::{compile_source, load_game, VariantSel};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

fn defectors() -> Game {
    load_game(
        &root().join("tests/data/scans/defectors.zrf"),
        &VariantSel::First,
    )
    .unwrap()
}

fn unskipped(game: &Game) -> Game {
    let mut g = game.clone();
    without_skips(&mut g);
    assert_eq!(skips(&g), 0);
    g
}

/// The legal moves of a position, as text, sorted.
fn legal(game: &Game, s: &State) -> Vec<String> {
    let engine = Engine::new(game);
    let mut v: Vec<String> = engine
        .legal_moves(s)
        .unwrap()
        .iter()
        .map(|m| format!("{m:?}"))
        .collect();
    v.sort();
    v
}

/// The marks the compiler makes in Defectors, program by program: the Scout's scan before each `add` (two a
/// program: in the slide's loop and before the capture), the Herald's scan (one); none in the King's leaps, the
/// Lancer's walk (an unguarded step after it can end the path) or the Archer's scan (a `verify` in it).
#[test]
fn the_compiler_marks_the_scans_that_only_add_effects() {
    let game = defectors();
    let per_type: Vec<(String, Vec<usize>)> = game
        .pieces
        .iter()
        .map(|p| {
            (
                p.name.clone(),
                p.moves.iter().map(|m| m.code.skips()).collect(),
            )
        })
        .collect();
    let want: Vec<(String, Vec<usize>)> = [
        ("King", vec![0; 8]),
        ("Scout", vec![2; 4]),
        ("Lancer", vec![0]),
        ("Archer", vec![0, 0]),
        ("Herald", vec![1]),
    ]
    .into_iter()
    .map(|(n, v)| (n.to_string(), v))
    .collect();
    assert_eq!(per_type, want);
    assert_eq!(skips(&game), 9);
}

/// Positions whose legal moves depend on attack runs through each kind of program, counted by hand from the
/// rules in the file's header. Each count would be different if the region were skipped where it must not be
/// (or the skip did not set the mark).
#[test]
fn legal_moves_by_hand_with_and_without_the_skip() {
    let game = defectors();
    let plain = unskipped(&game);
    let cases = [
        // The start: King b1 d1, Scout a2 a3 a4 a5 (takes the Archer) b1, Lancers b3 d3, Herald c3.
        (None, 10),
        // King b1 among a Black Scout on a4 (its slide south attacks a3 a2 a1, through the skipped scan in its
        // loop and before its capture) and a Black Lancer on c2, which does not attack c1: from c1 the walk
        // east ends on e1, and the step forward (south for Black) from there is off the board. Legal: b2, c1,
        // c2 (taking the Lancer). Skipping the Lancer's walk would make c1 attacked: 2.
        (
            Some("turn White\npiece White King b1\npiece Black Lancer c2\npiece Black Scout a4\npiece Black King e5\n"),
            3,
        ),
        // A Black Archer on c3 would attack b2 and d2, but its scan finds an enemy Lancer (White's, on e1) and
        // its `verify` ends every move. King c1: b1 b2 c2 d1 d2; Lancer e1: e2. Skipping the Archer's scan: 4.
        (
            Some("turn White\npiece White King c1\npiece White Lancer e1\npiece Black Archer c3\npiece Black King a5\n"),
            6,
        ),
        // Black Heralds on c2 and e2: the one on c2 attacks c1 (d1, east of c1, exists), the one on e2 does not
        // attack e1 (nothing east of it). King d1: c2 (takes), d2, e1, e2 (takes); c1 is attacked. If the skip
        // left the mark where it was, the Herald's `back` would return to c2 and c1 would not be attacked: 5.
        (
            Some("turn White\npiece White King d1\npiece Black Herald c2\npiece Black Herald e2\npiece Black King a5\n"),
            4,
        ),
    ];
    for (pos, n) in cases {
        let s = match pos {
            None => State::initial(&game),
            Some(text) => position::parse(&game, text).unwrap(),
        };
        let with = legal(&game, &s);
        assert_eq!(with.len(), n, "{pos:?}: {with:#?}");
        assert_eq!(with, legal(&plain, &s), "{pos:?}");
    }
}

/// Perft of Defectors to depth 4 (its Scouts' moves change the owners of Lancers, so the effects the attack runs
/// skip are in the moves that are generated): the same with and without the skip.
#[test]
fn perft_is_the_same_with_and_without_the_skip() {
    let game = defectors();
    let plain = unskipped(&game);
    let s = State::initial(&game);
    for d in 1..=4 {
        let a = Engine::new(&game).perft(&s, d).unwrap();
        let b = Engine::new(&plain).perft(&s, d).unwrap();
        assert_eq!(a, b, "depth {d}");
        if d == 1 {
            assert_eq!(a, 10);
        }
    }
}

/// What an attack run reads and pays with the skip: the Black Scout on e5 sliding south onto the White Archer
/// on e1 reads the e-file only (its scans of the board are skipped), and charges fewer steps than the same run
/// without the skip, which reads every square.
#[test]
fn an_attack_run_reads_only_its_path() {
    let game = defectors();
    let plain = unskipped(&game);
    let s = State::initial(&game);
    let e1 = game.board.position("e1").unwrap();
    let e5 = game.board.position("e5").unwrap();
    let black = Player(1);
    let scout = game.piece_type("Scout").unwrap();
    let south = 0; // `(scout-slide n)`: n is south for Black.
    let file_e: Vec<Pos> = ["e1", "e2", "e3", "e4", "e5"]
        .iter()
        .map(|n| game.board.position(n).unwrap())
        .collect();
    let run = |g: &Game| {
        let prog = &g.pieces[scout.idx()].moves[south];
        dagaz::engine::run::trace_attack(g, &s, black, prog, e5, e1)
    };
    let (hit, steps, reads) = run(&game);
    assert!(hit.unwrap(), "the Scout attacks e1");
    let read: Vec<Pos> = (0..s.cells().len())
        .map(|i| Pos(i as u16))
        .filter(|p| reads[p.idx() >> 6] >> (p.idx() & 63) & 1 == 1)
        .collect();
    assert!(
        read.iter().all(|p| file_e.contains(p)),
        "reads off the e-file: {:?}",
        read.iter()
            .map(|p| game.board.pos_name(*p))
            .collect::<Vec<_>>()
    );
    let (hit2, steps2, reads2) = run(&plain);
    assert!(hit2.unwrap());
    let n2: u32 = reads2.iter().map(|w| w.count_ones()).sum();
    assert!(n2 >= 20, "without the skip the scans read the board: {n2}");
    assert!(
        steps * 4 < steps2,
        "steps with the skip {steps}, without {steps2}"
    );
}

const GWANGSANGHUI: &str = "ZRF/Gwangsanghui/Gwangsanghui.old.zrf";

/// Gwangsanghui, the corpus game whose scans made the skip worth having: its perft is unchanged (78 and 4,996:
/// the counts before the skip, when every scan ran) and the compiler marks its scans.
#[test]
fn gwangsanghui_perft_is_unchanged() {
    let game = load_game(
        &common::corpus_root().join(GWANGSANGHUI),
        &VariantSel::First,
    )
    .unwrap();
    assert!(skips(&game) > 0);
    let engine = Engine::new(&game);
    let s = engine.initial();
    assert_eq!(engine.perft(&s, 1).unwrap(), 78);
    assert_eq!(engine.perft(&s, 2).unwrap(), 4_996);
}

/// The corpus files that may hold a marked region (a `while` and a `back` in the text), every variant that
/// compiles and has one: (name, game). Each file is read once, its games compiled one by one.
fn corpus_with_skips() -> Vec<(String, Game)> {
    let mut out = vec![];
    for f in common::corpus_files() {
        let Ok(text) = std::fs::read(&f) else {
            continue;
        };
        let text = String::from_utf8_lossy(&text).to_ascii_lowercase();
        if !(text.contains("while") && text.contains("back")) {
            continue;
        }
        let read = read_file(&f);
        if read.has_errors() {
            continue;
        }
        for (v, src) in read.games.iter().enumerate() {
            let mut diags = vec![];
            let Some(game) = compile_source(src, &mut diags) else {
                continue;
            };
            if skips(&game) > 0 {
                out.push((
                    format!("{} variant {}", common::corpus_name(&f), v + 1),
                    game,
                ));
            }
        }
    }
    out
}

/// Plays `games` seeded random games and compares, on `per_game` positions of each, the legal moves with and
/// without the skip and, on `squares` occupied squares, whether an enemy attacks the piece there (every
/// program run forwards in attack mode); returns the positions compared.
fn compare_variant(name: &str, game: &Game, games: u64, per_game: u32, squares: usize) -> usize {
    let plain = unskipped(game);
    let engine = Engine::new(game);
    let mut n = 0;
    for g in 0..games {
        let mut rng = game_rng(28, g);
        let mut s = engine.initial();
        for _ in 0..per_game {
            let Ok(moves) = engine.legal_moves(&s) else {
                break;
            };
            let mut a: Vec<String> = moves.iter().map(|m| format!("{m:?}")).collect();
            a.sort();
            assert_eq!(a, legal(&plain, &s), "{name}: game {g} ply {}", s.ply());
            let occupied: Vec<(Pos, Player)> = s
                .cells()
                .iter()
                .enumerate()
                .filter_map(|(i, c)| c.map(|x| (Pos(i as u16), x.owner)))
                .collect();
            let picked: Vec<(Pos, Player)> = if squares >= occupied.len() {
                occupied
            } else {
                (0..squares)
                    .map(|_| occupied[below(&mut rng, occupied.len())])
                    .collect()
            };
            for (p, owner) in picked {
                let x = gen::attacked_by_forward(game, &s, p, owner, false, None, None);
                let y = gen::attacked_by_forward(&plain, &s, p, owner, false, None, None);
                assert_eq!(
                    x.ok(),
                    y.ok(),
                    "{name}: game {g} ply {}: {} attacked",
                    s.ply(),
                    game.board.pos_name(p)
                );
            }
            n += 1;
            if moves.is_empty() || engine.outcome(&s, &moves, &[]).ok().flatten().is_some() {
                break;
            }
            s = engine.apply(&s, &moves[below(&mut rng, moves.len())]);
        }
    }
    n
}

/// Every corpus variant with a marked region: the legal moves of 20 positions (2 random games, 10 plies each)
/// and attack tests of 4 pieces a position are the same with the skip as without it.
#[test]
fn corpus_legal_moves_are_the_same_with_and_without_the_skip() {
    let variants = corpus_with_skips();
    assert!(
        variants.len() >= 5,
        "the Gwangsanghui copies at least: {:?}",
        variants.iter().map(|v| &v.0).collect::<Vec<_>>()
    );
    for (name, game) in &variants {
        let t = std::time::Instant::now();
        let n = compare_variant(name, game, 2, 10, 4);
        eprintln!(
            "{name}: {} regions, {n} positions, {:.1} s",
            skips(game),
            t.elapsed().as_secs_f64()
        );
        assert!(n >= 2, "{name}: {n} positions");
    }
}

/// The slow full version: 10 random games of 40 plies per variant, every occupied square's attack test.
/// `cargo test --release --test skips -- --ignored` (README, "Slow checks").
#[test]
#[ignore]
fn corpus_legal_moves_are_the_same_with_and_without_the_skip_full() {
    for (name, game) in &corpus_with_skips() {
        let t = std::time::Instant::now();
        let n = compare_variant(name, game, 10, 40, usize::MAX);
        eprintln!("{name}: {n} positions, {:.1} s", t.elapsed().as_secs_f64());
    }
}
