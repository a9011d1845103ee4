//! Adjudication by the bots' scores (`--draw`, `--resign`): games of a fake UCI engine
//! (`tests/engines/scripted_uci.py`, which plays a fixed line of pawn moves and reports the scores it is given)
//! end at the ply worked out by hand from those scores; a built-in bot's own score makes it resign.

#[path = "common/scratch.rs"]
mod scratch_dir;
use dagaz::bot::mcts::{score_of, SearchResult};
use dagaz::bot::Score;
use dagaz::tournament::adjudicate::{DrawRule, ResignRule, ADJUDICATED_DRAW, ADJUDICATED_RESIGN};
use dagaz::tournament::config::BotConfig;
use dagaz::tournament::{run, GameRecord, Progress, RunOptions, TournamentConfig};
use scratch_dir::Scratch;

fn scratch(name: &str) -> Scratch {
    Scratch::new(&format!("adjudication-{name}"))
}

/// The scripted engine named `name`, reporting `scores` with its moves 1, 2, ... of each game.
fn scripted(name: &str, scores: &[&str]) -> BotConfig {
    let t: toml::Table = toml::from_str(&format!(
        "kind = \"uci\"\ncommand = \"python3\"\nargs = [\"tests/engines/scripted_uci.py\", \"{}\"]\ndepth = 1\nname = \"{name}\"\n",
        scores.join(",")
    ))
    .unwrap();
    BotConfig::Table(t)
}

/// One pair of chess games from the start between A and B (game 0: A White; game 1: B White).
fn pair(
    tag: &str,
    a: &[&str],
    b: &[&str],
    draw: Option<DrawRule>,
    resign: Option<ResignRule>,
) -> (GameRecord, GameRecord) {
    let d = scratch(tag);
    let t = TournamentConfig {
        game: "games/chess.zrf".into(),
        games: 2,
        opening_plies: 0,
        max_plies: 28,
        draw,
        resign,
        bots: vec![scripted("A", a), scripted("B", b)],
        ..TournamentConfig::default()
    }
    .load()
    .unwrap();
    let r = run(
        &t,
        &RunOptions {
            out: d.join("run"),
            jobs: 1,
            progress: Progress::None,
            resume: false,
        },
    )
    .unwrap();
    let mut g = r.records().unwrap();
    assert_eq!(g.len(), 2);
    let (first, second) = (g.remove(0), g.remove(0));
    assert_eq!(first.bots, ["A", "B"], "{first:?}");
    assert_eq!(second.bots, ["B", "A"], "{second:?}");
    (first, second)
}

const FLAT: [&str; 15] = ["0"; 15];

#[test]
fn draw_adjudication_ends_the_game_at_the_worked_out_ply() {
    // --draw movenumber=3,movecount=2,score=10: from ply 4 (move 3), four plies in a row within 10.
    // A White: plies 4 A 0, 5 B 0, 6 A 3, 7 B 20 (breaks), 8 A 0, 9 B 0, 10 A 0, 11 B 0: the fourth even
    // ply in a row is ply 11, so the game has 12 plies.
    // B White: 4 B 0, 5 A 0, 6 B 20 (breaks), 7 A 3, 8 B 0, 9 A 0, 10 B 0: ply 10, 11 plies.
    let a = [
        "50", "5", "0", "3", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0",
    ];
    let b = [
        "0", "0", "0", "20", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0",
    ];
    let draw = "movenumber=3,movecount=2,score=10".parse().unwrap();
    let (g0, g1) = pair("draw", &a, &b, Some(draw), None);
    for (g, plies) in [(&g0, 12), (&g1, 11)] {
        assert_eq!(g.end_type, ADJUDICATED_DRAW, "{g:?}");
        assert_eq!(g.plies, plies, "{g:?}");
        assert_eq!(g.results, [0, 0]);
        assert!(g.error.contains("adjudicated"), "{g:?}");
    }
}

#[test]
fn one_sided_resign_counts_the_losing_side_s_moves() {
    // --resign movecount=3,score=500: A's own scores 0, -600, -600, -100, -500, -700, -900: in a row at or
    // below -500 after its 5th, 6th and 7th moves. A White: its 7th move is ply 12 (13 plies); A Black:
    // ply 13 (14 plies). B's scores never count.
    let a = [
        "0", "-600", "-600", "-100", "-500", "-700", "-900", "-900", "0", "0", "0", "0", "0", "0",
        "0",
    ];
    let resign = "movecount=3,score=500".parse().unwrap();
    let (g0, g1) = pair("resign1", &a, &FLAT, None, Some(resign));
    assert_eq!(
        (g0.end_type.as_str(), g0.plies),
        (ADJUDICATED_RESIGN, 13),
        "{g0:?}"
    );
    assert_eq!(g0.results, [-1, 1]);
    assert_eq!(
        (g1.end_type.as_str(), g1.plies),
        (ADJUDICATED_RESIGN, 14),
        "{g1:?}"
    );
    assert_eq!(g1.results, [1, -1]);
}

#[test]
fn two_sided_resign_needs_both_sides_to_agree() {
    // --resign movecount=2,score=300,twosided=true: A says -400 every move; B says 100, then 400.
    // A White: ply 0 A -400 (1), ply 1 B 100 (breaks), plies 2-5 agree: ply 5, 6 plies.
    // B White: ply 0 B 100, plies 1-4 agree: ply 4, 5 plies. A loses both.
    let a = ["-400"; 15];
    let b = [
        "100", "400", "400", "400", "400", "400", "400", "400", "400", "400", "400", "400", "400",
        "400", "400",
    ];
    let resign = "movecount=2,score=300,twosided=true".parse().unwrap();
    let (g0, g1) = pair("resign2", &a, &b, None, Some(resign));
    assert_eq!(
        (g0.end_type.as_str(), g0.plies),
        (ADJUDICATED_RESIGN, 6),
        "{g0:?}"
    );
    assert_eq!(g0.results, [-1, 1]);
    assert_eq!(
        (g1.end_type.as_str(), g1.plies),
        (ADJUDICATED_RESIGN, 5),
        "{g1:?}"
    );
    assert_eq!(g1.results, [1, -1]);
    // A mate against the mover counts as lost: A mated-in-3 on its first two moves, one-sided, K = 2.
    let a = [
        "m-3", "m-2", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0",
    ];
    let resign = "movecount=2,score=300".parse().unwrap();
    let (g0, _) = pair("mate", &a, &FLAT, None, Some(resign));
    assert_eq!(
        (g0.end_type.as_str(), g0.plies),
        (ADJUDICATED_RESIGN, 3),
        "{g0:?}"
    );
}

#[test]
fn without_adjudication_the_same_games_run_on() {
    let (g0, g1) = pair("none", &FLAT, &FLAT, None, None);
    for g in [g0, g1] {
        assert_eq!(g.end_type, "move-limit", "{g:?}");
        assert_eq!(g.plies, 28);
    }
}

#[test]
fn a_built_in_bot_s_score_makes_it_resign() {
    // White: queen, rook and king; Black: the king alone. Alpha-beta's score for Black is its material
    // against White's (queen 9 + rook 5 pawns: about -1400 hundredths), far below -500: with
    // --resign movecount=1,score=500, Black resigns at its first move (ply 1: two plies), whichever bot is
    // Black. White's positive score never counts (one-sided). No mate in one exists for White there.
    let d = scratch("builtin");
    let book = d.join("book.epd");
    std::fs::write(&book, "4k3/8/8/8/8/8/8/QR2K3 w - - 0 1\n").unwrap();
    let t = TournamentConfig {
        game: "games/chess.zrf".into(),
        games: 2,
        opening_plies: 0,
        max_plies: 20,
        openings: Some(book.to_str().unwrap().into()),
        resign: Some("movecount=1,score=500".parse().unwrap()),
        bots: ["alphabeta:depth=1,name=ab1", "alphabeta:depth=2,name=ab2"]
            .map(|b| BotConfig::Name(b.into()))
            .to_vec(),
        ..TournamentConfig::default()
    }
    .load()
    .unwrap();
    let r = run(
        &t,
        &RunOptions {
            out: d.join("run"),
            jobs: 1,
            progress: Progress::None,
            resume: false,
        },
    )
    .unwrap();
    for g in r.records().unwrap() {
        assert_eq!(g.end_type, ADJUDICATED_RESIGN, "{g:?}");
        assert_eq!(g.plies, 2, "{g:?}");
        assert_eq!(g.results, [1, -1], "{g:?}");
    }
    // end_conditions.csv counts the adjudicated ends apart from the game's own.
    let ends = std::fs::read_to_string(d.join("run/end_conditions.csv")).unwrap();
    assert!(ends.contains(ADJUDICATED_RESIGN), "{ends}");
}

#[test]
fn mcts_scores_are_its_mean_result_through_the_logistic() {
    let r = |mean: f64, proven: Option<f64>| SearchResult {
        best: 0,
        iterations: 10,
        visits: vec![10],
        means: vec![mean],
        proven: vec![proven],
        reused: 0,
    };
    // 100 ln(p / (1 - p)): p = 1/2 is even; p = 3/4 is 100 ln 3 = 109.86; a proven win is capped at
    // p = 0.999: 100 ln 999 = 690.68.
    assert_eq!(score_of(&r(0.5, None)), Some(Score::Cp(0)));
    assert_eq!(score_of(&r(0.75, None)), Some(Score::Cp(110)));
    assert_eq!(score_of(&r(0.25, None)), Some(Score::Cp(-110)));
    assert_eq!(score_of(&r(0.2, Some(1.0))), Some(Score::Cp(691)));
    let mut unvisited = r(0.5, None);
    unvisited.visits = vec![0];
    assert_eq!(score_of(&unvisited), None);
}
