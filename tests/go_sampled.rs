//! Sampled random playouts of Go (`engine/sample.rs` with a pass that is always a move and a repetition rule;
//! `engine/drop_flow.rs` accepting `capture-groups`): each ply runs the drop program on drawn points until one
//! yields a move the repetition rule allows, instead of listing every point. Checked here against the general
//! path (`EngineOptions::general`: the interpreter lists every move, ko applied by playing each), move for
//! move: every move a sampled game plays is a legal move of the general path leading to the next position, no
//! position before the last is over on the general path, and the last ends as the general path ends it. Also:
//! the draw is uniform over the legal moves with the pass among them, a ko recapture is never drawn, and the
//! pass drawn tells the end conditions whether another move exists (`Drawn::Pass`).
//!
//! Go's rules as tested here are those of `games/go-9x9.zrf`'s header (Tromp-Taylor area scoring, simple ko,
//! suicide illegal, two passes end the game); the positions are worked by hand from those rules.

mod common;

use dagaz::compile::Game;
use dagaz::engine::gen::Emissions;
use dagaz::engine::playout::{game_rng, random_game_recording, MoveSink};
use dagaz::engine::sample::Drawn;
use dagaz::engine::search::move_key;
use dagaz::engine::{position, Engine, EngineOptions, Move, State};
use dagaz::load::{load_game, VariantSel};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn load_variant(title: &str) -> Game {
    load_game(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("games/go-9x9.zrf"),
        &VariantSel::Title(title.into()),
    )
    .unwrap()
}

/// Keeps every position a move is played from, with the move's key.
#[derive(Default)]
struct Keep(Vec<(State, u32)>);

impl MoveSink for Keep {
    const ON: bool = true;
    fn played(&mut self, _: &Engine, s: &State, key: u32) {
        self.0.push((s.clone(), key));
    }
}

/// Whether the game uses a group form in a move program or a repetition rule.
fn uses_groups(g: &Game) -> bool {
    let programs = format!("{:?}", g.pieces);
    g.forbid_repetition.is_some()
        || programs.contains("Suicide")
        || programs.contains("CaptureGroups")
}

/// Plays `games` sampled random games of `game` to their end (at most `cap` plies) and checks each against the
/// general path (see the module). Returns the plies played, the passes played and the captures played.
fn follows_the_general_path(name: &str, game: &Game, games: u64, cap: u32) -> (u64, u64, u64) {
    let engine = Engine::new(game);
    assert!(engine.sample_plan().is_some(), "{name}: sampled");
    let general = Engine::with_options(game, EngineOptions::general());
    assert!(general.sample_plan().is_none());
    let (mut plies, mut passes, mut captures) = (0, 0, 0);
    for g in 0..games {
        let mut s = engine.initial();
        let mut keep = Keep::default();
        let r = random_game_recording(&engine, &mut s, &[], &mut game_rng(41, g), cap, &mut keep)
            .unwrap();
        assert_eq!(
            keep.0.len() as u32,
            r.plies,
            "{name} game {g}: one move a ply"
        );
        for (k, (before, key)) in keep.0.iter().enumerate() {
            let next = keep.0.get(k + 1).map_or(&s, |n| &n.0);
            let moves: Vec<Move> = general.legal_moves(before).unwrap();
            assert!(
                general.outcome(before, &moves, &[]).unwrap().is_none(),
                "{name} game {g} ply {k}: over on the general path"
            );
            let played: Vec<&Move> = moves
                .iter()
                .filter(|m| move_key(m) == *key && general.apply(before, m).key() == next.key())
                .collect();
            assert!(
                !played.is_empty(),
                "{name} game {g} ply {k}: key {key:x} is no legal move of the general path leading on"
            );
            passes += played[0].is_pass() as u64;
            captures += format!("{:?}", played[0]).matches("Capture").count() as u64;
            // The history of ko keys the fast path kept is the general path's.
            assert_eq!(general.apply(before, played[0]).past(), next.past());
        }
        plies += r.plies as u64;
        let moves = general.legal_moves(&s).unwrap();
        let end = general.outcome(&s, &moves, &[]).unwrap();
        match &r.outcome {
            Some(o) => {
                let e =
                    end.unwrap_or_else(|| panic!("{name} game {g}: not over on the general path"));
                assert_eq!(
                    (&o.results, &o.end_type, &o.name),
                    (&e.results, &e.end_type, &e.name),
                    "{name} game {g}"
                );
            }
            None => {
                assert_eq!(r.plies, cap, "{name} game {g}");
                assert!(
                    end.is_none(),
                    "{name} game {g}: over on the general path at the cap"
                );
            }
        }
    }
    (plies, passes, captures)
}

/// The three variants of `games/go-9x9.zrf` (9x9 simple ko, 5x5, 9x9 positional superko): sampled, and every
/// sampled game the general path's, with passes and captures played.
#[test]
fn sampled_go_follows_the_general_path_in_games() {
    let found = common::variants_where(&common::games_dir(), uses_groups);
    let mut sampled = 0;
    for (name, game) in &found {
        if Engine::new(game).sample_plan().is_none() {
            eprintln!("{name}: not sampled");
            continue;
        }
        sampled += 1;
        let games = if game.board.positions.len() > 40 {
            60
        } else {
            150
        };
        let (plies, passes, captures) = follows_the_general_path(name, game, games, 1000);
        eprintln!("{name}: {games} games, {plies} plies, {passes} passes, {captures} captures");
        assert!(
            passes >= 2 * games && captures > 50,
            "{name}: {passes} passes, {captures} captures"
        );
    }
    for v in 1..=3 {
        assert!(
            found
                .iter()
                .any(|(n, g)| n.ends_with(&format!("/go-9x9.zrf:{v}"))
                    && Engine::new(g).sample_plan().is_some()),
            "go-9x9 variant {v} sampled"
        );
    }
    assert!(sampled >= 3);
}

/// Every corpus variant with a group form or a repetition rule that the sampling analysis accepts (as written:
/// the corpus's Go files leave Go to Dagaz scripts or, with `--extension go`, to a module, which is not
/// sampled), checked as above. The count is printed; the check holds for each.
#[test]
fn sampled_go_follows_the_general_path_in_the_corpus() {
    let words = ["suicide", "capture-groups", "forbid-repetition"];
    let files: Vec<PathBuf> = common::corpus_files()
        .into_iter()
        .filter(|f| {
            std::fs::read(f)
                .map(|b| {
                    let t = String::from_utf8_lossy(&b).to_ascii_lowercase();
                    words.iter().any(|w| t.contains(w))
                })
                .unwrap_or(true)
        })
        .collect();
    let found = common::variants_where(&files, |g| {
        uses_groups(g) && Engine::new(g).sample_plan().is_some()
    });
    eprintln!(
        "corpus variants with group forms or repetition rules, sampled: {}",
        found.len()
    );
    for (name, game) in &found {
        let (plies, passes, captures) = follows_the_general_path(name, game, 5, 300);
        eprintln!("  {name}: {plies} plies, {passes} passes, {captures} captures");
    }
    // The modules' Go is not sampled (an extension module judges whole moves).
    let path = common::corpus_root().join("DagazProject.github.io/go/zrf/go.zrf");
    if path.exists() {
        let read = dagaz::lang::read_file(&path);
        if let (Some(mut game), _) = dagaz::load::compile_selected(&read, &VariantSel::First) {
            dagaz::extension::attach(&mut game, "go").unwrap();
            assert!(Engine::new(&game).sample_plan().is_none());
        }
    }
}

/// A position of Go 5x5: `turn`, then Black's and White's stones.
fn stones(g: &Game, turn: &str, black: &[&str], white: &[&str]) -> State {
    let mut text = format!("turn {turn}\n");
    for s in black {
        text += &format!("piece Black Stone {s}\n");
    }
    for s in white {
        text += &format!("piece White Stone {s}\n");
    }
    position::parse(g, &text).unwrap()
}

/// `n` draws of the sampler at `s`, counted by move key (the pass by its key too), with the draws' kinds.
fn draws(g: &Game, s: &State, n: u32, tries: Option<usize>) -> (BTreeMap<u32, u32>, Vec<Drawn>) {
    let engine = Engine::new(g);
    let plan = engine.sample_plan().expect("sampled");
    let entry = &g.turn_order.entries[s.turn()];
    let (mut gens, mut em) = (vec![], Emissions::default());
    let mut rng = game_rng(23, 0);
    let mut counts = BTreeMap::new();
    let mut kinds = vec![];
    for _ in 0..n {
        let tries = tries.unwrap_or_else(|| plan.tries(g, s, entry.moves_as));
        let d = plan
            .draw_tries(
                g,
                s,
                entry.player,
                entry.moves_as,
                &mut rng,
                &mut gens,
                &mut em,
                tries,
            )
            .unwrap();
        let key = match d {
            Drawn::Move => {
                let mut one = dagaz::engine::MoveList::new();
                one.push_singles(&mut em);
                move_key(&one.to_move(0).unwrap())
            }
            Drawn::Pass { .. } => move_key(&Move::default()),
            Drawn::Nothing => u32::MAX,
        };
        *counts.entry(key).or_insert(0) += 1;
        if !kinds.contains(&d) {
            kinds.push(d);
        }
    }
    (counts, kinds)
}

/// Whether every key of `want` was drawn within 5 standard deviations of its share of `n`, and no other.
fn uniform(counts: &BTreeMap<u32, u32>, want: &[u32], n: u32) -> bool {
    let p = 1.0 / want.len() as f64;
    let (mean, sd) = (n as f64 * p, (n as f64 * p * (1.0 - p)).sqrt());
    counts.len() == want.len()
        && want.iter().all(|k| {
            counts
                .get(k)
                .is_some_and(|&c| (c as f64 - mean).abs() <= 5.0 * sd)
        })
}

/// On the empty 5x5 board the 25 drops and the pass are the legal moves: each drawn within 5 standard
/// deviations of 1/26 of the draws, with replacement first (the default), by the list of generators alone,
/// and mixed; the pass drawn says that other moves exist.
#[test]
fn the_draw_is_uniform_with_the_pass() {
    let g = load_variant("Go 5x5");
    let engine = Engine::new(&g);
    let s = engine.initial();
    let want: Vec<u32> = engine
        .legal_moves(&s)
        .unwrap()
        .iter()
        .map(move_key)
        .collect();
    assert_eq!(want.len(), 26);
    for tries in [None, Some(0), Some(2)] {
        let n = 26 * 1500;
        let (counts, kinds) = draws(&g, &s, n, tries);
        assert!(uniform(&counts, &want, n), "tries {tries:?}: {counts:?}");
        assert!(kinds.contains(&Drawn::Pass { others: true }), "{kinds:?}");
        assert!(!kinds.contains(&Drawn::Pass { others: false }), "{kinds:?}");
    }
}

/// The ko shape (Black a2, b1, b3 around White b2; White c1, d2, c3 around c2): Black c2 takes b2. White may
/// not retake at b2 at once (simple ko), so the sampler never draws it; every other empty point and the pass
/// are drawn uniformly.
#[test]
fn the_draw_never_retakes_the_ko() {
    let g = load_variant("Go 5x5");
    let engine = Engine::new(&g);
    let before = stones(&g, "Black", &["a2", "b1", "b3"], &["b2", "c1", "d2", "c3"]);
    let c2 = engine
        .legal_moves(&before)
        .unwrap()
        .into_iter()
        .find(|m| m.parts.len() == 1 && m.parts[0].to == g.board.position("c2"))
        .expect("c2 is legal");
    let s = engine.apply(&before, &c2);
    let want: Vec<u32> = engine
        .legal_moves(&s)
        .unwrap()
        .iter()
        .map(move_key)
        .collect();
    // 25 points less 7 stones, less the ko point b2 and a1 (suicide for White: a2 and b1 keep liberties at
    // a3 and b2); the pass.
    assert_eq!(want.len(), 25 - 7 - 2 + 1);
    let b2 = g.board.position("b2").unwrap();
    let a1 = g.board.position("a1").unwrap();
    let targets: Vec<_> = engine
        .legal_moves(&s)
        .unwrap()
        .iter()
        .filter_map(|m| m.parts.first().and_then(|p| p.to))
        .collect();
    assert!(!targets.contains(&b2) && !targets.contains(&a1));
    let n = want.len() as u32 * 1500;
    let (counts, _) = draws(&g, &s, n, None);
    assert!(uniform(&counts, &want, n), "{counts:?}");
    // Without the position before (read from text, no history), b2 is a legal capture.
    let fresh = stones(&g, "White", &["a2", "b1", "b3", "c2"], &["c1", "d2", "c3"]);
    let (counts, _) = draws(&g, &fresh, 2000, None);
    let retake = engine
        .legal_moves(&fresh)
        .unwrap()
        .into_iter()
        .find(|m| m.parts.len() == 1 && m.parts[0].to == Some(b2))
        .expect("b2 takes c2 without the ko");
    assert!(counts.contains_key(&move_key(&retake)));
}

/// Black fills the 5x5 board but for two single-point eyes, a1 and e5, of one group. White has no legal drop
/// (each eye is suicide: the group keeps its other eye), so the pass is White's only move and the draw says
/// so; Black may fill one eye, so a pass drawn for Black has other moves beside it.
#[test]
fn the_pass_drawn_says_whether_another_move_exists() {
    let g = load_variant("Go 5x5");
    let engine = Engine::new(&g);
    let mut black = vec![];
    let names: Vec<String> = "abcde"
        .chars()
        .flat_map(|c| (1..=5).map(move |r| format!("{c}{r}")))
        .filter(|p| p != "a1" && p != "e5")
        .collect();
    black.extend(names.iter().map(|s| s.as_str()));
    let white = stones(&g, "White", &black, &[]);
    assert!(engine
        .legal_moves(&white)
        .unwrap()
        .iter()
        .all(|m| m.is_pass()));
    let (counts, kinds) = draws(&g, &white, 200, None);
    assert_eq!(kinds, vec![Drawn::Pass { others: false }]);
    assert_eq!(counts.len(), 1);
    let black_turn = stones(&g, "Black", &black, &[]);
    let want: Vec<u32> = engine
        .legal_moves(&black_turn)
        .unwrap()
        .iter()
        .map(move_key)
        .collect();
    assert_eq!(want.len(), 3, "a1, e5 and the pass");
    let (counts, kinds) = draws(&g, &black_turn, 3000, None);
    assert!(uniform(&counts, &want, 3000), "{counts:?}");
    assert!(kinds.contains(&Drawn::Pass { others: true }), "{kinds:?}");
    assert!(!kinds.contains(&Drawn::Pass { others: false }), "{kinds:?}");
}

fn compile_src(src: &str) -> Game {
    let read = dagaz::lang::read_str("t.zrf", src, Path::new("."));
    assert!(!read.has_errors(), "{:?}", read.diagnostics);
    let mut diags = vec![];
    let g = dagaz::load::compile_source(&read.games[0], &mut diags);
    assert!(diags.iter().all(|d| !d.is_error()), "{diags:?}");
    g.unwrap()
}

/// A game of our own where the end reads whether the list holds only passes: stones dropped on the empty
/// squares of a 3x3 board, the pass always a move, and the player to move with nothing but the pass loses
/// (`blocked`), which happens only on the full board. A pass drawn while drops remain must not end the game:
/// sampled games checked move for move against the general path as above, and every game ends blocked on a
/// full board (9 drops) after any number of passes.
#[test]
fn a_pass_drawn_beside_other_moves_does_not_block() {
    let g = compile_src(
        r#"(game (title "Fill") (players White Black) (turn-order White Black)
             (option "pass turn" true)
             (board (grid (dimensions ("a/b/c" (50 0)) ("3/2/1" (0 50)))
               (directions (n 0 -1) (e 1 0) (s 0 1) (w -1 0))))
             (piece (name Stone) (drops ((verify empty?) add)))
             (loss-condition (White Black) blocked))"#,
    );
    let (plies, passes, _) = follows_the_general_path("Fill", &g, 200, 1000);
    // 9 drops a game, and passes drawn beside them (1 in 10 on the empty board).
    assert_eq!(plies - passes, 9 * 200);
    assert!(passes > 100, "{passes} passes");
}
