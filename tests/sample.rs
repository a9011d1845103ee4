//! Sampling move generators (`engine/sample.rs`): the proof's claim checked at run time on every game it
//! accepts, the uniformity of the draw, and the analysis' rejections one by one.

mod common;

use dagaz::compile::Game;
use dagaz::engine::gen::Emissions;
use dagaz::engine::playout::{below, game_rng};
use dagaz::engine::sample::Drawn;
use dagaz::engine::{Engine, MoveList, State};
use dagaz::load::VariantSel;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Every variant of `files` the sampling analysis accepts.
fn accepted(files: &[PathBuf]) -> Vec<(String, Game)> {
    common::variants_where(files, |g| Engine::new(g).sample_plan().is_some())
}

/// The net effect of a move, as its (from, to) word and the key of the state after it.
type Effect = (u32, u64);

/// At positions along random games: every generator run alone yields at most one part, and the parts of all
/// generators are exactly the list's moves (passes aside), the same multiset by net effect.
fn check_generators(name: &str, game: &Game, games: u64, plies: u32) -> usize {
    check_generators_skipped(name, game, games, plies).0
}

/// [`check_generators`], also checking that every generator the draw skips unrun yields nothing; returns the
/// positions and the generators skipped.
fn check_generators_skipped(name: &str, game: &Game, games: u64, plies: u32) -> (usize, usize) {
    let engine = Engine::new(game);
    let plan = engine.sample_plan().expect("accepted");
    let (mut list, mut gens, mut em) = (MoveList::new(), vec![], Emissions::default());
    let mut positions = 0;
    let mut skipped = 0;
    for g in 0..games {
        let mut rng = game_rng(5, g);
        let mut s = engine.initial();
        for _ in 0..plies {
            positions += 1;
            engine.legal_into(&s, &mut list).unwrap();
            let effect_of = |m: &MoveList, i: usize| -> Effect {
                let mut t = s.clone();
                engine.play_listed(&mut t, m, i).unwrap();
                (m.ends(i).unwrap(), t.key())
            };
            let mut want: Vec<Effect> = (0..list.len())
                .filter(|&i| !list.is_pass(i).unwrap())
                .map(|i| effect_of(&list, i))
                .collect();
            let entry = &game.turn_order.entries[s.turn()];
            plan.generators(game, &s, entry.moves_as, &mut gens);
            let mut got = vec![];
            for &gen in &gens {
                em.clear();
                plan.run(game, &s, entry.player, entry.moves_as, gen, &mut em)
                    .unwrap();
                assert!(em.len() <= 1, "{name}: {gen:?} yields {} parts", em.len());
                // A generator the draw skips unrun (the flank guard) yields nothing.
                if plan.skips(&s, entry.player, gen) {
                    assert!(
                        em.is_empty(),
                        "{name} game {g} ply {}: {gen:?} skipped but yields",
                        s.ply()
                    );
                    skipped += 1;
                }
                if em.len() == 1 {
                    let mut one = MoveList::new();
                    one.push_singles(&mut em);
                    got.push(effect_of(&one, 0));
                }
            }
            // The slots of the draw with replacement stand for the generators, each for one.
            let (pieces, drops) = plan.slots(game, &s, entry.moves_as);
            let mut slotted: Vec<_> = (0..pieces + drops)
                .filter_map(|k| plan.slot(game, &s, entry.moves_as, k, pieces))
                .map(|g| (g.at, g.prog, g.drop))
                .collect();
            let mut listed: Vec<_> = gens.iter().map(|g| (g.at, g.prog, g.drop)).collect();
            slotted.sort();
            listed.sort();
            assert_eq!(slotted, listed, "{name} game {g} ply {}: slots", s.ply());
            want.sort();
            got.sort();
            assert_eq!(got, want, "{name} game {g} ply {}", s.ply());
            if engine.outcome_of_list(&s, &list, &[]).unwrap().is_some() || list.is_empty() {
                break;
            }
            let i = below(&mut rng, list.len());
            let i = engine.resolve(&s, &mut list, i).unwrap();
            engine.play_listed(&mut s, &list, i).unwrap();
        }
    }
    (positions, skipped)
}

#[test]
fn generators_are_the_list_in_games() {
    let found = accepted(&common::games_dir());
    let names: Vec<&str> = found.iter().map(|(n, _)| n.as_str()).collect();
    for want in ["breakthrough.zrf", "othello.zrf"] {
        assert!(
            names.iter().any(|n| n.contains(want)),
            "{want} accepted: {names:?}"
        );
    }
    for refused in ["chess.zrf", "english-checkers.zrf", "amazons.zrf"] {
        assert!(
            !names.iter().any(|n| n.ends_with(&format!("/{refused}:1"))),
            "{refused} refused: {names:?}"
        );
    }
    for (name, game) in &found {
        check_generators(name, game, 4, 120);
    }
}

#[test]
fn generators_are_the_list_in_the_corpus() {
    let found = accepted(&common::corpus_files());
    eprintln!("{} corpus variants accepted", found.len());
    for (name, game) in &found {
        check_generators(name, game, 2, 40);
    }
}

fn load(file: &str) -> Game {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    dagaz::load::load_game(&path, &VariantSel::First).unwrap()
}

/// Whether every one of `k` moves was drawn within 5 standard deviations of `n / k` times.
fn uniform(counts: &BTreeMap<u32, u32>, k: usize, n: u32) -> bool {
    let p = 1.0 / k as f64;
    let (mean, sd) = (n as f64 * p, (n as f64 * p * (1.0 - p)).sqrt());
    counts.len() == k
        && counts
            .values()
            .all(|&c| (c as f64 - mean).abs() <= 5.0 * sd)
}

/// The draw on breakthrough's start (22 moves: 2 or 3 per pawn of the second row, none for the first) is
/// uniform over the moves; a sampler drawing a piece first, then one of its moves, fails the same bound.
#[test]
fn the_draw_is_uniform() {
    let game = load("games/breakthrough.zrf");
    let engine = Engine::new(&game);
    let plan = engine.sample_plan().expect("breakthrough is sampled");
    let s: State = engine.initial();
    let mut list = MoveList::new();
    engine.legal_into(&s, &mut list).unwrap();
    let k = list.len();
    assert_eq!(k, 22);
    let entry = &game.turn_order.entries[s.turn()];
    let (mut gens, mut em) = (vec![], Emissions::default());
    let n = 44_000;
    let mut rng = game_rng(17, 0);
    // The default draw, the list alone, and a mixture of both stages.
    let default = plan.tries(&game, &s, entry.moves_as);
    for tries in [default, 0, 2] {
        let mut counts = BTreeMap::new();
        for _ in 0..n {
            let found = plan
                .draw_tries(
                    &game,
                    &s,
                    entry.player,
                    entry.moves_as,
                    &mut rng,
                    &mut gens,
                    &mut em,
                    tries,
                )
                .unwrap();
            assert_eq!(found, Drawn::Move);
            *counts.entry(em.parts[0].head.ends()).or_insert(0) += 1;
        }
        assert!(uniform(&counts, k, n), "tries {tries}: {counts:?}");
    }
    // The biased sampler: a piece with a move uniformly, then one of its moves.
    let mut by_piece: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
    for i in 0..k {
        let e = list.ends(i).unwrap();
        by_piece.entry(e >> 16).or_default().push(e);
    }
    let pieces: Vec<&Vec<u32>> = by_piece.values().collect();
    let mut biased = BTreeMap::new();
    for _ in 0..n {
        let moves = pieces[below(&mut rng, pieces.len())];
        *biased
            .entry(moves[below(&mut rng, moves.len())])
            .or_insert(0) += 1;
    }
    assert!(!uniform(&biased, k, n), "{biased:?}");
}

/// Sampled playouts end as listed ones may: same kinds of endings, no error, on the accepted games.
#[test]
fn sampled_playouts_run() {
    for file in ["games/breakthrough.zrf", "games/othello.zrf"] {
        let game = load(file);
        let engine = Engine::new(&game);
        for g in 0..30 {
            let r =
                dagaz::engine::playout::random_game(&engine, &mut game_rng(3, g), 1000).unwrap();
            assert!(r.outcome.is_some(), "{file} game {g}");
            assert!(r.moves_seen.is_none());
        }
    }
}

fn compile_src(src: &str) -> Game {
    let read = dagaz::lang::read_str("t.zrf", src, Path::new("."));
    assert!(!read.has_errors(), "{:?}", read.diagnostics);
    let mut diags = vec![];
    let g = dagaz::load::compile_source(&read.games[0], &mut diags);
    assert!(diags.iter().all(|d| !d.is_error()), "{diags:?}");
    g.unwrap()
}

/// A small game: `defs` and `extra` spliced in, `moves` the pawn's programs, `drops` its drop programs.
fn small(defs: &str, moves: &str, drops: &str, extra: &str) -> Game {
    compile_src(&format!(
        "(define step ($1 (verify empty?) add))
         (define take ($1 (verify enemy?) add))
         {defs}
         (game (title \"t\") (players White Black) (turn-order White Black)
           (board (grid (dimensions (\"a/b/c/d/e\" (50 0)) (\"5/4/3/2/1\" (0 50)))
             (directions (n 0 -1) (e 1 0) (s 0 1) (w -1 0) (ne 1 -1) (nw -1 -1))))
           (piece (name Pawn) {moves} {drops})
           (piece (name King) (moves (step n)))
           (board-setup (White (Pawn a1 b1 c1)) (Black (Pawn a5 b5 c5)))
           {extra}
           (loss-condition (White Black) stalemated))"
    ))
}

fn sampled(g: &Game) -> bool {
    Engine::new(g).sample_plan().is_some()
}

#[test]
fn the_analysis_accepts_exclusive_leaps_and_a_drop_in_place() {
    let g = small("", "(moves (step n) (step ne) (take ne) (take nw))", "", "");
    assert!(sampled(&g));
    check_generators("leaps", &g, 3, 40);
    let g = small(
        "(define place ((verify empty?) (if (enemy? n) n (while enemy? n) back) add))",
        "",
        "(drops (place))",
        "",
    );
    assert!(sampled(&g));
    check_generators("drop", &g, 3, 40);
    // Drops from a reserve: no drop once it is empty.
    let g = small(
        "(define place ((verify empty?) add))",
        "(moves (step n))",
        "(drops (place))",
        "(board-setup (White (Pawn off 2)) (Black (Pawn off 2)))",
    );
    assert!(sampled(&g));
    check_generators("reserve", &g, 3, 40);
    let engine = Engine::new(&g);
    for seed in 0..20 {
        dagaz::engine::playout::random_game(&engine, &mut game_rng(seed, 0), 200).unwrap();
    }
}

/// Othello's drop has a flank guard: squares with no enemy next to them are skipped unrun, and each skipped
/// one, run anyway, yields nothing (along random games with every player to move).
#[test]
fn the_flank_guard_skips_only_barren_drops() {
    let g = load("games/othello.zrf");
    let plan = Engine::new(&g)
        .sample_plan()
        .cloned()
        .expect("othello is sampled");
    assert!(plan.has_drop_guard());
    let (positions, skipped) = check_generators_skipped("othello", &g, 8, 80);
    assert!(
        skipped > positions,
        "{skipped} skipped at {positions} positions"
    );
    // Every accepted variant with a guard, games/, the other spellings of the test data (issue 26) and the
    // corpus: the same check.
    let mut files = common::games_dir();
    let spellings = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/spellings");
    let mut others: Vec<PathBuf> = std::fs::read_dir(&spellings)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "zrf"))
        .collect();
    others.sort();
    for f in &others {
        let g = dagaz::load::load_game(f, &VariantSel::First).unwrap();
        let plan = Engine::new(&g).sample_plan().cloned();
        assert!(
            plan.is_some_and(|p| p.has_drop_guard()),
            "{}: sampled with a guard",
            f.display()
        );
    }
    files.extend(others);
    files.extend(common::corpus_files());
    for (name, game) in common::variants_where(&files, |g| {
        Engine::new(g)
            .sample_plan()
            .is_some_and(|p| p.has_drop_guard())
    }) {
        check_generators_skipped(&name, &game, 3, 60);
    }
}

/// The guard is taken only where every path to the drop's `add` found an enemy next to the drop square,
/// directly or through a flag (or position flag) set only on such paths, however the program is spelled; each
/// guarded case is checked along random games (a skipped square yields nothing).
#[test]
fn the_flank_guard_needs_its_proof() {
    let flank = "(define fl (if (enemy? $1) $1 (while (enemy? $1) $1)
                   (if (friend? $1) back $1 (while enemy? flip $1) (set-flag f true)) back))";
    let guarded = |drop: &str| {
        let g = small(flank, "", &format!("(drops ({drop}))"), "");
        let plan = Engine::new(&g).sample_plan().cloned().expect("sampled");
        check_generators_skipped(drop, &g, 3, 30);
        plan.has_drop_guard()
    };
    assert!(guarded(
        "(verify empty?) (set-flag f false) (fl n) (fl e) (fl ne) (verify (flag? f)) add"
    ));
    // A flag no flank line sets: no drop ever yields, and the guard skips every square.
    assert!(guarded(
        "(verify empty?) (fl n) (fl e) (verify (flag? g)) add"
    ));
    // A test after the flag's: the add is still reached only with the flag set.
    assert!(guarded(
        "(verify empty?) (fl n) (verify (flag? f)) (verify (empty? s)) add"
    ));
    // Other spellings: a flag per direction set in a first pass and read in a second; a `mark`, a walk out and
    // back that changes owners, and a position flag; an enemy tested after a step.
    let two_pass = "(define look (set-flag $1-ok false)
                      (if (enemy? $1) $1 (while (enemy? $1) $1) (if (friend? $1) (set-flag $1-ok true)) back))
                    (define turn (if (flag? $1-ok) $1 (while enemy? flip $1) back))";
    let walk = "(define walk mark (if (enemy? $1) $1 (while (enemy? $1) $1)
                   (if (friend? $1) (while (not-empty?) (change-owner) $2) (set-position-flag t true))) back)";
    let step = "(define probe (if (on-board? $1) $1 (if enemy? (set-flag f true)) back))";
    for (defs, drop) in [
        (
            two_pass,
            "(verify empty?) (look n) (look e) (verify (or (flag? n-ok) (flag? e-ok))) (turn n) (turn e) add",
        ),
        (
            walk,
            "(verify empty?) (walk n s) (walk s n) (walk e w) (verify (position-flag? t)) add",
        ),
        (step, "(verify empty?) (probe n) (probe e) (verify (flag? f)) add"),
        // Flips as a capture and a new piece, with `(go from)` back to the drop square, the flag reset before
        // the square is tested.
        (
            "(define cflip (if (enemy? $1) $1 (while (enemy? $1) $1)
               (if (friend? $1) (go from) $1 (while enemy? capture (create Pawn) $1) (set-flag f true)) (go from)))",
            "(set-flag f false) (verify empty?) (cflip n) (cflip e) (cflip ne) (verify (flag? f)) add",
        ),
    ] {
        let g = small(defs, "", &format!("(drops ({drop}))"), "");
        let plan = Engine::new(&g).sample_plan().cloned().expect("sampled");
        assert!(plan.has_drop_guard(), "{drop}");
        let (_, skipped) = check_generators_skipped(drop, &g, 3, 30);
        assert!(skipped > 0, "{drop}: some square skipped");
    }
    // Sampled, but without a guard: a flag set before any enemy is seen, a position flag set on a square
    // whatever stands next to the drop, an enemy tested two steps away.
    for (defs, drop) in [
        (
            two_pass,
            "(verify empty?) (look n) (set-flag e-ok true) (verify (or (flag? n-ok) (flag? e-ok))) (turn n) add",
        ),
        (
            walk,
            "(verify empty?) (walk n s) (set-position-flag t true n) (verify (position-flag? t)) add",
        ),
        (
            "(define far (if (on-board? $1) $1 (if (enemy? $1) (set-flag f true)) back))",
            "(verify empty?) (far n) (far e) (verify (flag? f)) add",
        ),
    ] {
        let g = small(defs, "", &format!("(drops ({drop}))"), "");
        let plan = Engine::new(&g).sample_plan().cloned().expect("sampled");
        assert!(!plan.has_drop_guard(), "{drop}");
        check_generators(drop, &g, 3, 30);
    }
    for (what, drop) in [
        (
            "the flag set elsewhere",
            "(verify empty?) (set-flag f true) (fl n) (fl e) (verify (flag? f)) add",
        ),
        ("no test of the flag", "(verify empty?) (fl n) (fl e) add"),
        (
            "the add reached by a jump",
            "(verify empty?) (fl n) (if (empty? e) (verify (flag? f))) add",
        ),
        (
            "a flank line away from the square",
            "(verify empty?) (if (on-board? s) s (fl n) back) (verify (flag? f)) add",
        ),
    ] {
        assert!(!guarded(drop), "{what}");
    }
}

#[test]
fn the_analysis_rejects_what_it_cannot_prove() {
    let cases = [
        (
            "two adds",
            small("(define two ($1 add $1 add))", "(moves (two n))", "", ""),
        ),
        (
            "an add in a loop",
            small("(define r ($1 (while empty? add $1)))", "(moves (r n))", "", ""),
        ),
        (
            "an add after a loop, in a loop of steps",
            small(
                "(define r ((while (empty? n) n (verify empty?) add)))",
                "(moves (r))",
                "",
                "",
            ),
        ),
        (
            "a composite move",
            small(
                "(define j ($1 (verify enemy?) capture $1 (verify empty?) (add-partial)))",
                "(moves (j n))",
                "",
                "",
            ),
        ),
        (
            "move priorities",
            small(
                "",
                "(moves (move-type a) (step n) (move-type b) (take ne))",
                "",
                "(move-priorities a b)",
            ),
        ),
        (
            // (Two identical programs are one: the compiler keeps one.)
            "two programs to one square",
            small(
                "(define step2 ($1 (verify empty?) (verify (empty? s)) add))",
                "(moves (step n) (step2 n))",
                "",
                "",
            ),
        ),
        (
            "two paths to one square",
            small(
                "(define two ($1 $2 (verify empty?) add))",
                "(moves (two n e) (two e n))",
                "",
                "",
            ),
        ),
        (
            "a step and a capture not exclusive",
            small(
                "(define any ($1 add))",
                "(moves (any ne) (take ne))",
                "",
                "",
            ),
        ),
        (
            "two drop programs for one type",
            small(
                "(define d1 ((verify empty?) add)) (define d2 ((verify empty?) (verify (empty? n)) add))",
                "",
                "(drops (d1) (d2))",
                "",
            ),
        ),
        (
            "a drop whose add is away from its square",
            small("(define d (n (verify empty?) add))", "", "(drops (d))", ""),
        ),
        (
            "a drop program whose mark is away from its square",
            small(
                "(define d ((verify empty?) n mark s back add))",
                "",
                "(drops (d))",
                "",
            ),
        ),
        (
            "a drop whose captures may take its own group instead (`capture-groups suicide`)",
            small(
                "(define d ((verify empty?) (capture-groups suicide) add))",
                "",
                "(drops (d))",
                "",
            ),
        ),
    ];
    for (name, g) in &cases {
        assert!(!sampled(g), "{name} is rejected");
    }
    // The controls: each case minus what it is rejected for is accepted.
    assert!(sampled(&small("", "(moves (step n) (take ne))", "", "")));
    assert!(sampled(&small(
        "(define d ((verify empty?) n back add))",
        "",
        "(drops (d))",
        ""
    )));
    assert!(sampled(&small(
        "(define d ((verify empty?) mark n s n back add))",
        "",
        "(drops (d))",
        ""
    )));
    assert!(sampled(&small(
        "(define d ((verify empty?) (verify (not suicide?)) (capture-groups) add))",
        "",
        "(drops (d))",
        ""
    )));
    // The pass always a move is one more generator (Go's), accepted.
    assert!(sampled(&small(
        "",
        "(moves (step n))",
        "",
        "(option \"pass turn\" true)"
    )));
    // Not flat (royal pieces) or counted: not sampled.
    assert!(!sampled(&load("games/chess.zrf")));
    assert!(!sampled(&load("games/amazons.zrf")));
}
