//! The native generator of draughts-shaped games (`engine/draughts.rs`): on every variant of `games/` and of
//! the corpus that its proof accepts, and on small games written here to reach its other options, the kernel's
//! move list equals the general path's move for move (same order, same parts, same actions), at every
//! position of seeded random games and on random boards full of men and kings (multi-jumps, promotions, kings
//! going round); and the proof refuses what the kernel does not implement.

mod common;

use dagaz::compile::{PieceType, Player, Pos};
use dagaz::engine::draughts::plan;
use dagaz::engine::playout::{below, game_rng};
use dagaz::engine::state::{initial_attrs, Piece};
use dagaz::engine::{Engine, MoveList, State};
use dagaz::Game;
use std::path::{Path, PathBuf};

fn accepted(files: &[PathBuf]) -> Vec<(String, Game)> {
    common::variants_where(files, |g| Engine::new(g).draughts_plan().is_some())
}

/// The kernel's list and the general path's, compared whole.
fn same_lists(engine: &Engine, s: &State, a: &mut MoveList, b: &mut MoveList, what: &str) -> usize {
    engine.legal_into(s, a).unwrap();
    engine.legal_into_general(s, b).unwrap();
    assert_eq!(a.len(), b.len(), "{what}: move count");
    let (x, y) = (a.to_moves().unwrap(), b.to_moves().unwrap());
    for (i, (m, n)) in x.iter().zip(&y).enumerate() {
        assert_eq!(m, n, "{what}: move {i} of {}", x.len());
    }
    x.iter().map(|m| m.parts.len()).max().unwrap_or(0)
}

/// Every move of the list played natively (`Engine::play_listed`) and by the general `apply::play` of the owned
/// move: the same state.
fn same_play(engine: &Engine, s: &State, list: &MoveList, what: &str) {
    for i in 0..list.len() {
        let mut x = s.clone();
        engine.play_listed(&mut x, list, i).unwrap();
        let mut y = s.clone();
        engine.play(&mut y, &list.to_move(i).unwrap());
        assert_eq!(x, y, "{what}: move {i} played");
        assert_eq!(x.hash(), x.full_hash(), "{what}: move {i}: hash");
    }
}

/// Random games from the start, then random boards: returns the positions compared and the longest chain seen.
fn check(name: &str, game: &Game, games: u64, plies: u32, boards: u64) -> (usize, usize) {
    let engine = Engine::new(game);
    assert!(engine.draughts_plan().is_some(), "{name}: accepted");
    let (mut a, mut b) = (MoveList::new(), MoveList::new());
    let mut positions = 0;
    let mut longest = 0;
    for g in 0..games {
        let mut rng = game_rng(17, g);
        let mut s = engine.initial();
        for _ in 0..plies {
            positions += 1;
            let what = format!("{name} game {g} ply {}", s.ply());
            longest = longest.max(same_lists(&engine, &s, &mut a, &mut b, &what));
            if a.is_empty() || engine.outcome_of_list(&s, &a, &[]).unwrap().is_some() {
                break;
            }
            let i = below(&mut rng, a.len());
            same_play(&engine, &s, &a, &what);
            engine.play_listed(&mut s, &a, i).unwrap();
        }
    }
    // Random boards: every playing position holds a man or a king of either side, or nothing.
    let squares: Vec<usize> = (0..game.board.positions.len())
        .filter(|&p| {
            !game.board.positions[p].dummy
                && (0..game.board.directions.len())
                    .any(|d| game.board.links[p * game.board.directions.len() + d] != u16::MAX)
        })
        .collect();
    let kinds = game.pieces.len();
    for k in 0..boards {
        let mut rng = game_rng(23, k);
        let mut s = engine.initial();
        for p in 0..s.cells().len() {
            s.set(Pos(p as u16), None);
        }
        let density = 2 + below(&mut rng, 5);
        for &p in &squares {
            if below(&mut rng, 8) < density {
                let kind = PieceType(below(&mut rng, kinds) as u16);
                let owner = Player(below(&mut rng, game.players.len()) as u8);
                s.set(
                    Pos(p as u16),
                    Some(Piece {
                        kind,
                        owner,
                        attrs: initial_attrs(game, kind),
                        dead: false,
                    }),
                );
            }
        }
        s.set_turn(below(&mut rng, game.turn_order.entries.len()));
        positions += 1;
        let what = format!("{name} board {k}");
        longest = longest.max(same_lists(&engine, &s, &mut a, &mut b, &what));
        same_play(&engine, &s, &a, &what);
    }
    (positions, longest)
}

#[test]
fn the_kernel_lists_what_the_general_path_lists_in_games() {
    let found = accepted(&common::games_dir());
    let names: Vec<&str> = found.iter().map(|(n, _)| n.as_str()).collect();
    eprintln!("games/ variants accepted: {names:#?}");
    assert!(
        names.iter().any(|n| n.ends_with("/english-checkers.zrf:1")),
        "English checkers accepted: {names:?}"
    );
    for refused in ["chess.zrf", "international-draughts.zrf", "amazons.zrf"] {
        assert!(
            !names.iter().any(|n| n.ends_with(&format!("/{refused}:1"))),
            "{refused} refused: {names:?}"
        );
    }
    for (name, game) in &found {
        let (n, longest) = check(name, game, 30, 300, 3000);
        eprintln!("{name}: {n} positions, chains up to {longest} parts");
        assert!(longest >= 3, "{name}: the positions reach multi-jumps");
    }
}

#[test]
fn the_kernel_lists_what_the_general_path_lists_in_the_corpus() {
    let found = accepted(&common::corpus_files());
    eprintln!("corpus variants accepted ({}):", found.len());
    for (name, game) in &found {
        let (n, longest) = check(name, game, 4, 200, 400);
        eprintln!("  {name}: {n} positions, chains up to {longest} parts");
    }
    assert!(
        found
            .iter()
            .any(|(n, _)| n.contains("checkers/zrf/english-checkers.zrf")),
        "the corpus's English checkers accepted"
    );
}

fn compile_src(src: &str) -> Game {
    let read = dagaz::lang::read_str("t.zrf", src, Path::new("."));
    assert!(!read.has_errors(), "{:?}", read.diagnostics);
    let mut diags = vec![];
    let g = dagaz::load::compile_source(&read.games[0], &mut diags);
    assert!(diags.iter().all(|d| !d.is_error()), "{diags:?}");
    g.unwrap()
}

/// Checkers on a 6x6 board: `defs` define `man-step`, `man-jump`, `king-step` and `king-jump` (those not given
/// are English checkers'), `extra` is spliced into the game.
fn small(defs: &str, extra: &str) -> Game {
    let mut all = defs.to_string();
    let std = [
        ("man-step", "(define man-step ($1 (verify empty?) (if (in-zone? promotion) (add King) else add)))"),
        ("man-jump", "(define man-jump ($1 (verify enemy?) capture $1 (verify empty?) (if (in-zone? promotion) (add King) else (add-partial jumptype))))"),
        ("king-step", "(define king-step ($1 (verify empty?) add))"),
        ("king-jump", "(define king-jump ($1 (verify enemy?) capture $1 (verify empty?) (add-partial jumptype)))"),
    ];
    for (name, def) in std {
        if !defs.contains(&format!("(define {name} ")) {
            all.push_str(def);
            all.push('\n');
        }
    }
    compile_src(&format!(
        "{all}
         (game (title \"t\") (players Black White) (turn-order Black White)
           (board (grid (dimensions (\"a/b/c/d/e/f\" (50 0)) (\"6/5/4/3/2/1\" (0 50)))
             (directions (ne 1 -1) (nw -1 -1) (se 1 1) (sw -1 1)))
             (kill-positions b1 d1 f1 a2 c2 e2 b3 d3 f3 a4 c4 e4 b5 d5 f5 a6 c6 e6)
             (symmetry Black (ne se) (nw sw) (se ne) (sw nw))
             (zone (name promotion) (players White) (positions b6 d6 f6))
             (zone (name promotion) (players Black) (positions a1 c1 e1)))
           (piece (name Man) (moves (move-type jumptype) (man-jump ne) (man-jump nw)
             (move-type normaltype) (man-step ne) (man-step nw)))
           (piece (name King) (moves (move-type jumptype) (king-jump ne) (king-jump nw) (king-jump se)
             (king-jump sw) (move-type normaltype) (king-step ne) (king-step nw) (king-step se) (king-step sw)))
           (board-setup (Black (Man b6 d6 f6 a5 c5 e5)) (White (Man b2 d2 f2 a1 c1 e1)))
           {extra}
           (loss-condition (Black White) stalemated))"
    ))
}

/// The options the kernel implements, each on a small game, against the general path.
#[test]
fn the_kernel_follows_the_options_it_accepts() {
    let cases = [
        (
            "deferred captures, priorities",
            small("", "(option \"deferred captures\" true) (move-priorities jumptype normaltype)"),
        ),
        (
            "captures at once, priorities",
            small("", "(move-priorities jumptype normaltype)"),
        ),
        ("no priorities (captures optional)", small("", "(option \"deferred captures\" true)")),
        (
            "pass partial",
            small(
                "",
                "(option \"deferred captures\" true) (option \"pass partial\" true) (move-priorities jumptype normaltype)",
            ),
        ),
        (
            "the same programs spelled otherwise",
            small(
                "(define man-jump ($1 (verify (enemy?)) (capture) $1 (verify (and empty?))
                   (if (not (in-zone? promotion)) (add-partial jumptype) else (add King))))
                 (define king-step ($1 (if empty? add)))",
                "(option \"deferred captures\" true) (move-priorities jumptype normaltype)",
            ),
        ),
        (
            "men that do not promote",
            small(
                "(define man-step ($1 (verify empty?) add))
                 (define man-jump ($1 (verify enemy?) capture $1 (verify empty?) (add-partial jumptype)))",
                "(option \"deferred captures\" true) (move-priorities jumptype normaltype)",
            ),
        ),
    ];
    for (name, game) in &cases {
        if let Err(e) = plan(game) {
            panic!("{name}: refused: {e}");
        }
        let (n, longest) = check(name, game, 20, 200, 3000);
        eprintln!("{name}: {n} positions, chains up to {longest} parts");
        assert!(longest >= 3, "{name}: multi-jumps reached");
    }
}

#[test]
fn the_proof_refuses_what_the_kernel_does_not_implement() {
    let deferred = "(option \"deferred captures\" true) (move-priorities jumptype normaltype)";
    let cases = [
        (
            "a jump that does not verify its landing square",
            small(
                "(define king-jump ($1 (verify enemy?) capture $1 (add-partial jumptype)))",
                deferred,
            ),
        ),
        (
            "a flying king",
            small("(define king-step ($1 (while empty? add $1)))", deferred),
        ),
        (
            "maximal captures",
            small(
                "",
                "(option \"deferred captures\" true) (option \"maximal captures\" true) (move-priorities jumptype normaltype)",
            ),
        ),
        (
            "a jump continued by steps",
            small(
                "(define king-jump ($1 (verify enemy?) capture $1 (verify empty?) (add-partial normaltype)))",
                deferred,
            ),
        ),
        (
            "a jump continued by any move type",
            small(
                "(define king-jump ($1 (verify enemy?) capture $1 (verify empty?) (add-partial)))",
                deferred,
            ),
        ),
        (
            "a man promoted in the middle of a chain",
            small(
                "(define man-jump ($1 (verify enemy?) capture $1 (verify empty?)
                   (if (in-zone? promotion) (add-partial King jumptype) else (add-partial jumptype))))",
                deferred,
            ),
        ),
        (
            "a jump over a friend",
            small(
                "(define king-jump ($1 (verify friend?) capture $1 (verify empty?) (add-partial jumptype)))",
                deferred,
            ),
        ),
        (
            "a jump that lands two directions apart",
            small(
                "(define king-jump ($1 (verify enemy?) capture $2 (verify empty?) (add-partial jumptype)))
                 (define king-jumps ((king-jump ne nw) (king-jump nw ne) (king-jump se sw) (king-jump sw se)))",
                deferred,
            ),
        ),
        (
            "drops",
            small(
                "",
                "(option \"deferred captures\" true) (piece (name Stone) (drops ((verify empty?) add)))",
            ),
        ),
        (
            "a step that goes on after its add",
            small("(define king-step ($1 (verify empty?) add $1 (verify empty?) add))", deferred),
        ),
    ];
    for (name, game) in &cases {
        assert!(plan(game).is_err(), "{name}: accepted");
        assert!(
            Engine::new(game).draughts_plan().is_none(),
            "{name}: the engine uses the kernel"
        );
    }
}

/// Perft and playouts of English checkers through the kernel: the counts of `tests/perft` and the games of a
/// seed (pinned from the general path).
#[test]
fn english_checkers_plays_the_same_games_through_the_kernel() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("games/english-checkers.zrf");
    let game = dagaz::load::load_game(&path, &dagaz::load::VariantSel::First).unwrap();
    let engine = Engine::new(&game);
    assert!(engine.draughts_plan().is_some());
    let s = engine.initial();
    assert_eq!(engine.perft(&s, 7).unwrap(), 179_740);
    // The same random games as on the general path: the list at every ply is the same list.
    let (mut a, mut b) = (MoveList::new(), MoveList::new());
    for g in 0..20 {
        let mut rng = game_rng(7, g);
        let mut s = engine.initial();
        loop {
            engine.legal_into(&s, &mut a).unwrap();
            engine.legal_into_general(&s, &mut b).unwrap();
            assert_eq!(
                a.to_moves().unwrap(),
                b.to_moves().unwrap(),
                "game {g} ply {}",
                s.ply()
            );
            if a.is_empty() || s.ply() > 500 {
                break;
            }
            let i = below(&mut rng, a.len());
            engine.play_listed(&mut s, &a, i).unwrap();
        }
    }
}

#[test]
fn playouts_keep_the_history_where_an_end_condition_reads_it() {
    use dagaz::compile::EndCond;
    use dagaz::engine::cond_reads_history;
    let load = |name: &str| {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("games")
            .join(name);
        dagaz::load::load_game(&path, &dagaz::load::VariantSel::First).unwrap()
    };
    // Chess draws by repetition: its playouts must keep the history; checkers ends on stalemate alone.
    let chess = load("chess.zrf");
    assert!(Engine::new(&chess).reads_history());
    let checkers = load("english-checkers.zrf");
    assert!(!Engine::new(&checkers).reads_history());
    // A repetition anywhere inside a condition reads it, as does caused-repetition.
    let nested = EndCond::Not(Box::new(EndCond::And(vec![
        EndCond::Stalemated,
        EndCond::Or(vec![EndCond::Blocked, EndCond::Repetition]),
    ])));
    assert!(cond_reads_history(&nested));
    assert!(cond_reads_history(&EndCond::CausedRepetition(3)));
    assert!(!cond_reads_history(&EndCond::And(vec![
        EndCond::Stalemated,
        EndCond::Blocked
    ])));
}

#[test]
fn relocate_is_two_sets() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("games/english-checkers.zrf");
    let game = dagaz::load::load_game(&path, &dagaz::load::VariantSel::First).unwrap();
    let engine = Engine::new(&game);
    let s0 = engine.initial();
    let occupied: Vec<Pos> = (0..s0.cells().len() as u16)
        .map(Pos)
        .filter(|&p| s0.get(p).is_some())
        .collect();
    let empty: Vec<Pos> = (0..s0.cells().len() as u16)
        .map(Pos)
        .filter(|&p| s0.get(p).is_none())
        .collect();
    let king = PieceType(game.pieces.len() as u16 - 1);
    // Onto an empty square, onto an occupied one, onto itself, as another type and as another owner.
    for &from in occupied.iter().take(6) {
        let p = s0.get(from).unwrap();
        let other = Piece {
            owner: Player(1 - p.owner.0),
            ..p
        };
        let promoted = Piece { kind: king, ..p };
        for &to in empty
            .iter()
            .take(3)
            .chain(occupied.iter().rev().take(3))
            .chain([&from])
        {
            for new in [p, promoted, other] {
                let (mut a, mut b) = (s0.clone(), s0.clone());
                a.relocate(from, to, new);
                b.set(from, None);
                b.set(to, Some(new));
                assert_eq!(a, b, "{from:?} -> {to:?} as {new:?}");
                assert_eq!(a.hash(), a.full_hash());
                for pl in 0..2 {
                    assert_eq!(a.occupancy(Player(pl)), b.occupancy(Player(pl)));
                }
            }
        }
    }
}
