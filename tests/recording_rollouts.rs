//! MCTS's recording rollouts (GRAVE, Progressive History): the fast random loops of `dagaz playout`, telling each
//! move they play (`engine::playout::random_game_recording`). They must play the same games as the plain loops,
//! name each move by the key of the move really played, and draw uniformly over the legal moves (issue 22).

use dagaz::bot::mcts::{listed_recording, Seq};
use dagaz::bot::{eval::Weights, EngineModel, Model};
use dagaz::compile::Game;
use dagaz::engine::playout::{game_rng, random_game_from, random_game_recording, MoveSink};
use dagaz::engine::search::move_key;
use dagaz::engine::{Engine, State};
use dagaz::load::VariantSel;
use std::collections::BTreeMap;
use std::path::Path;

fn load(file: &str) -> Game {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    dagaz::load::load_game(&path, &VariantSel::First).unwrap()
}

/// Which of the random loops plays the game (as `random_game_recording` chooses).
fn path(engine: &Engine) -> &'static str {
    if engine.flat() {
        if engine.sample_plan().is_some() {
            "sampled"
        } else if engine.count_plan().is_some() {
            "counted"
        } else {
            "listed"
        }
    } else if engine.royal_listed() {
        "royal"
    } else if !engine.lazy_legality() {
        "owned"
    } else {
        "drawn"
    }
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

/// One game of each loop (two where a second shows more: chance, a game list of its own).
const GAMES: [&str; 11] = [
    "breakthrough",
    "hex",
    "othello",
    "chess",
    "go-9x9",
    "english-checkers",
    "amazons",
    "connect-four",
    "backgammon",
    "xiangqi",
    "nine-mens-morris",
];

/// The recording loops play the plain loops' games, move for move, and the key each move is told by is the key
/// of a legal move that leads to the next position: checked against the owned legal moves, on every loop.
#[test]
fn recording_rollouts_play_the_plain_games_and_name_their_moves() {
    let mut paths = BTreeMap::new();
    for g in GAMES {
        let game = load(&format!("games/{g}.zrf"));
        let engine = Engine::new(&game);
        *paths.entry(path(&engine)).or_insert(0) += 1;
        for seed in 0..3 {
            let cap = 80;
            let mut plain = engine.initial();
            let a =
                random_game_from(&engine, &mut plain, &[], &mut game_rng(seed, 7), cap).unwrap();
            let mut rec = engine.initial();
            let mut keep = Keep::default();
            let b = random_game_recording(
                &engine,
                &mut rec,
                &[],
                &mut game_rng(seed, 7),
                cap,
                &mut keep,
            )
            .unwrap();
            assert_eq!(a.plies, b.plies, "{g} seed {seed}");
            assert_eq!(
                a.outcome.map(|o| o.results),
                b.outcome.map(|o| o.results),
                "{g} seed {seed}"
            );
            assert_eq!(plain.key(), rec.key(), "{g} seed {seed}");
            assert_eq!(
                keep.0.len() as u32,
                b.plies,
                "{g} seed {seed}: one key a ply"
            );
            assert!(b.plies >= 10, "{g} seed {seed}: {} plies", b.plies);
            for (k, (s, key)) in keep.0.iter().enumerate() {
                let next = keep.0.get(k + 1).map_or(&rec, |n| &n.0);
                let leading: Vec<u32> = engine
                    .legal_moves(s)
                    .unwrap()
                    .iter()
                    .filter(|m| engine.apply(s, m).key() == next.key())
                    .map(move_key)
                    .collect();
                assert!(
                    leading.contains(key),
                    "{g} seed {seed} ply {k}: key {key:x}, the moves leading on have {leading:x?}"
                );
            }
        }
    }
    // Every loop was played.
    let want = ["counted", "drawn", "listed", "owned", "royal", "sampled"];
    assert_eq!(paths.keys().copied().collect::<Vec<_>>(), want, "{paths:?}");
}

/// A rollout of `model` from the start by `f`: its moves, the last position's key and the result.
fn rollout_of(
    model: &EngineModel,
    seed: u64,
    f: impl Fn(&EngineModel, &mut State, &mut Vec<u64>, &mut Seq, u64) -> Option<Vec<i8>>,
) -> (Seq, u64, Option<Vec<i8>>) {
    let mut s = model.engine.initial();
    let (mut history, mut seq) = (vec![], vec![]);
    let r = f(model, &mut s, &mut history, &mut seq, seed);
    (seq, s.key(), r)
}

/// Where the fast loop lists every position's moves and draws an index as the generic loop does (the owned
/// lists of Connect Four and backgammon, checkers' native lists), the engine's recording
/// rollouts are the generic loop's (what GRAVE played before it had the fast loops): the same moves with the
/// same identities and players, chance moves unnamed.
#[test]
fn recording_rollouts_are_the_listed_ones_where_the_loop_lists() {
    for g in ["connect-four", "backgammon", "english-checkers"] {
        let game = load(&format!("games/{g}.zrf"));
        let engine = Engine::new(&game);
        let model = EngineModel::new(&engine, Weights::default());
        for seed in 0..3 {
            let plies = 120;
            let fast = rollout_of(&model, seed, |m, s, h, seq, seed| {
                m.rollout_recording(s, h, plies, &mut game_rng(seed, 3), seq)
                    .unwrap()
            });
            let listed = rollout_of(&model, seed, |m, s, h, seq, seed| {
                listed_recording(m, s, h, plies, &mut game_rng(seed, 3), seq).unwrap()
            });
            assert_eq!(fast, listed, "{g} seed {seed}");
            assert!(fast.0.len() >= 10, "{g} seed {seed}");
            if g == "backgammon" {
                // The dice are chance moves: no identity, the random player's.
                assert!(fast.0.iter().any(|e| e.0.is_none()), "{g}");
            } else {
                assert!(fast.0.iter().all(|e| e.0.is_some()), "{g}");
            }
        }
    }
}

/// The move a one-ply recording rollout plays from the start is uniform over the legal moves, on the loops
/// that draw otherwise than by an index into the whole list: the sampled generators (breakthrough, Hex, and
/// Go with its pass among them), the royal candidates (chess) and the drawn candidates (xiangqi). Each legal move has its own key here, and each
/// is told within 5 standard deviations of its share.
#[test]
fn recording_rollouts_draw_uniformly() {
    for (g, per_move) in [
        ("breakthrough", 2000),
        ("hex", 300),
        ("go-9x9", 300),
        ("chess", 2000),
        ("xiangqi", 1000),
    ] {
        let game = load(&format!("games/{g}.zrf"));
        let engine = Engine::new(&game);
        let model = EngineModel::new(&engine, Weights::default());
        let start = engine.initial();
        let mut keys: Vec<u32> = engine
            .legal_moves(&start)
            .unwrap()
            .iter()
            .map(move_key)
            .collect();
        let k = keys.len();
        keys.sort();
        keys.dedup();
        assert_eq!(keys.len(), k, "{g}: a key per move");
        let n = per_move * k as u32;
        let mut counts: BTreeMap<u64, u32> = BTreeMap::new();
        let mut rng = game_rng(11, 0);
        let mut seq = vec![];
        for _ in 0..n {
            let mut s = start.clone();
            seq.clear();
            let r = model
                .rollout_recording(&mut s, &mut vec![], 1, &mut rng, &mut seq)
                .unwrap();
            assert!(r.is_none());
            assert_eq!(seq.len(), 1);
            *counts.entry(seq[0].0.unwrap()).or_insert(0) += 1;
        }
        assert!(
            counts
                .keys()
                .all(|&id| keys.binary_search(&(id as u32)).is_ok()),
            "{g}: a key of no legal move"
        );
        let p = 1.0 / k as f64;
        let (mean, sd) = (n as f64 * p, (n as f64 * p * (1.0 - p)).sqrt());
        assert_eq!(counts.len(), k, "{g}: every move drawn");
        for (id, &c) in &counts {
            assert!(
                (c as f64 - mean).abs() <= 5.0 * sd,
                "{g}: move {id:x} drawn {c} times of {n}, {mean:.0} ± {sd:.0} expected"
            );
        }
    }
}
