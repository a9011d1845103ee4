//! A tournament builds each variant's rules (the compiled game and the engine derived from it) once, however
//! many games, threads and output files it has: issue 20. One test in this file, so that nothing else in the
//! process builds rules meanwhile.

#[path = "common/scratch.rs"]
mod scratch_dir;
use dagaz::tournament::config::{BotConfig, Format};
use dagaz::tournament::rules;
use dagaz::tournament::{run, Progress, RunOptions, TournamentConfig};
use scratch_dir::Scratch;

const RACE3: &str = r#"
(game
  (title "Race")
  (players A B C)
  (turn-order A B C)
  (board (grid (dimensions ("a/b/c" (50 0)) ("6/5/4/3/2/1" (0 50))) (directions (n 0 -1))))
  (piece (name P) (moves (n (verify empty?) add) (n n (verify empty?) add)))
  (board-setup (A (P a1)) (B (P b1)) (C (P c1)))
  (win-condition (A B C) (name "home") (absolute-config P (a6 b6 c6))))
(variant
  (title "Short race")
  (board (grid (dimensions ("a/b/c" (50 0)) ("3/2/1" (0 50))) (directions (n 0 -1))))
  (win-condition (A B C) (name "home") (absolute-config P (a3 b3 c3))))
"#;

#[test]
fn a_run_builds_the_rules_once_per_variant() {
    let d = Scratch::new("rules-once");
    let game = d.join("race.zrf");
    std::fs::write(&game, RACE3).unwrap();
    let config = TournamentConfig {
        game: game.to_str().unwrap().into(),
        variants: vec!["all".into()],
        games: 12,
        opening_plies: 1,
        record_evals: true,
        format: Format::RoundRobin,
        bots: ["random", "alphabeta:depth=1", "mcts:iterations=20"]
            .map(|b| BotConfig::Name(b.into()))
            .to_vec(),
        ..TournamentConfig::default()
    };
    let before = rules::builds();
    let t = config.load().unwrap();
    assert_eq!(t.variants.len(), 2);
    assert_eq!(
        rules::builds() - before,
        2,
        "loading builds one per variant"
    );
    let r = run(
        &t,
        &RunOptions {
            out: d.join("out"),
            jobs: 3,
            progress: Progress::None,
            resume: false,
        },
    )
    .unwrap();
    // 2 variants × 2 groups of the 6 seat orders: every game, the evaluations, report.html's sample boards
    // and games.pgn played or replayed on the rules built at load.
    assert_eq!(r.summary.games, 24);
    assert!(std::fs::read_to_string(d.join("out/report.html"))
        .unwrap()
        .contains("sample-1"));
    assert_eq!(
        rules::builds() - before,
        2,
        "the run built rules of its own"
    );
    std::fs::remove_dir_all(&d).ok();
}
