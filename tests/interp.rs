//! The interpreter's fast paths (`compile/code.rs`, `engine/run`): each is chosen by what the compiler proves
//! of a program, and each test here is a program the fast path must not take, or must take with the general
//! path's meaning.

#[path = "common/scratch.rs"]
mod scratch_dir;
use scratch_dir::Scratch;
mod common;

use dagaz::compile::code::{Code, Op};
use dagaz::compile::Game;
use dagaz::compile::{MoveProgram, PieceType, Player, Pos};
use dagaz::engine::gen::Emissions;
use dagaz::engine::playout::{below, game_rng};
use dagaz::engine::Engine;
use dagaz::engine::{MoveList, State};
use dagaz::load::{load_game, VariantSel};

fn game(name: &str, text: &str) -> Game {
    let p = Scratch::file("interp", &format!("{name}.zrf"), text);
    load_game(&p, &VariantSel::First).unwrap()
}

/// The notations of the legal moves at the start, sorted.
fn start_moves(g: &Game) -> Vec<String> {
    let engine = Engine::new(g);
    let s = engine.initial();
    let mut v: Vec<String> = engine
        .legal_moves(&s)
        .unwrap()
        .iter()
        .map(|m| m.notation(g))
        .collect();
    v.sort();
    v
}

const BOARD: &str = r#"
  (players White Black)
  (turn-order White Black)
  (board
    (grid
      (dimensions ("a/b/c" (50 0)) ("3/2/1" (0 50)))
      (directions (n 0 -1) (e 1 0) (s 0 1) (w -1 0))))
"#;

/// A run's first `verify` is decided before the run is set up only when it reads the board alone: a flag is
/// the run's own, false at its start whatever the run before it set. Here the first program sets the flag on
/// every square and the second asks for it first: it never holds, so only the first program's drops are legal.
#[test]
fn a_first_verify_of_a_flag_reads_this_runs_flags() {
    let g = game(
        "flag-first",
        &format!(
            r#"(game (title "flags") {BOARD}
  (piece (name A) (drops ((set-flag seen true) (verify empty?) add)))
  (piece (name B) (drops ((verify (flag? seen)) add)))
  (board-setup (White (A a1)) (Black (A c3))))"#
        ),
    );
    let moves = start_moves(&g);
    assert_eq!(moves.len(), 7, "{moves:?}");
    assert!(moves.iter().all(|m| m.starts_with('A')), "{moves:?}");
}

/// A drop whose first instruction is `(verify empty?)` (decided before the run is set up) and one whose first
/// is `(verify (not empty?))` drop on the empty squares and on the occupied ones respectively.
#[test]
fn a_first_verify_of_the_square_is_decided_either_way() {
    let g = game(
        "verify-first",
        &format!(
            r#"(game (title "verify") {BOARD}
  (piece (name A) (drops ((verify empty?) add)))
  (piece (name B) (drops ((verify (not empty?)) (verify (not friend?)) add)))
  (board-setup (White (A a1)) (Black (A c3))))"#
        ),
    );
    let moves = start_moves(&g);
    let a = moves.iter().filter(|m| m.starts_with('A')).count();
    let b: Vec<_> = moves.iter().filter(|m| m.starts_with('B')).collect();
    assert_eq!(a, 7, "{moves:?}");
    assert_eq!(b.len(), 1, "{moves:?}");
    assert!(b[0].contains("c3"), "{moves:?}");
}

/// `set-flag` to a constant and `flag?` are ops of their own; flags past the 64 kept as bits behave the same.
#[test]
fn many_flags_are_set_and_read_as_few() {
    let names: Vec<String> = (0..70).map(|i| format!("f{i}")).collect();
    let sets: String = names
        .iter()
        .map(|n| format!("(set-flag {n} true) "))
        .collect();
    let g = game(
        "many-flags",
        &format!(
            r#"(game (title "many flags") {BOARD}
  (piece (name A) (drops ((verify empty?) {sets} (set-flag f3 false) (set-flag f68 false)
      (if (and (flag? f69) (flag? f2) (not (flag? f3)) (not (flag? f68))) add))))
  (piece (name B) (drops ((verify empty?) (set-flag f66 true) (verify (flag? f66)) (verify (not (flag? f67))) add)))
  (board-setup (White (A a1)) (Black (A c3))))"#
        ),
    );
    let moves = start_moves(&g);
    assert_eq!(moves.len(), 14, "{moves:?}");
}

/// Whether a program has a fused flank line.
fn has_flank(p: &MoveProgram) -> bool {
    p.code.ops.iter().any(|o| matches!(o, Op::Flank(..)))
}

/// At `state`, every program with a flank line run by `player` on every square, fused and as the general ops
/// it stands for: the same result, steps charged and parts (with their flips). Returns the runs that flipped.
fn compare_flanks(name: &str, game: &Game, state: &State, player: Player) -> usize {
    let (mut a, mut b) = (Emissions::default(), Emissions::default());
    let mut flipped = 0;
    for (t, piece) in game.pieces.iter().enumerate() {
        let progs = piece.moves.iter().map(|p| (p, false));
        for (prog, drop) in progs.chain(piece.drops.iter().map(|p| (p, true))) {
            if !has_flank(prog) {
                continue;
            }
            let mut general = prog.clone();
            general.code = Code::lower_unfused(&prog.body, &game.board.opposite);
            assert!(!has_flank(&general));
            for at in 0..game.board.positions.len() {
                let at = Pos(at as u16);
                if !drop && state.cells()[at.idx()].is_none() {
                    continue;
                }
                let drop = drop.then_some((PieceType(t as u16), false));
                a.clear();
                b.clear();
                let (ra, sa) =
                    dagaz::engine::run::trace(game, state, player, prog, at, drop, &mut a);
                let (rb, sb) =
                    dagaz::engine::run::trace(game, state, player, &general, at, drop, &mut b);
                let (ra, rb) = (ra.map_err(|e| e.to_string()), rb.map_err(|e| e.to_string()));
                let here = format!("{name} ply {} at {at:?}", state.ply());
                assert_eq!(ra, rb, "{here}: result");
                assert_eq!(sa, sb, "{here}: steps");
                assert_eq!(format!("{a:?}"), format!("{b:?}"), "{here}: parts");
                flipped += a
                    .actions
                    .iter()
                    .filter(|x| format!("{x:?}").contains("ChangeOwner"))
                    .count()
                    .min(1);
            }
        }
    }
    flipped
}

/// Positions along random games of `game`, each compared by [`compare_flanks`] for every player.
fn compare_along_games(name: &str, game: &Game, games: u64, plies: u32) -> usize {
    let engine = Engine::new(game);
    let mut list = MoveList::new();
    let mut flipped = 0;
    for g in 0..games {
        let mut rng = game_rng(11, g);
        let mut s = engine.initial();
        for _ in 0..plies {
            for p in 0..game.players.len() {
                flipped += compare_flanks(name, game, &s, Player(p as u8));
            }
            let Ok(()) = engine.legal_into(&s, &mut list) else {
                break;
            };
            if list.is_empty() || engine.outcome_of_list(&s, &list, &[]).unwrap().is_some() {
                break;
            }
            let i = below(&mut rng, list.len());
            let i = engine.resolve(&s, &mut list, i).unwrap();
            engine.play_listed(&mut s, &list, i).unwrap();
        }
    }
    flipped
}

/// The flank line of othello (`Op::Flank`) runs as the general ops it stands for: on every variant of
/// `games/` and the corpus where it appears, along random games, every program with one on every square.
#[test]
fn flank_lines_run_as_the_ops_they_stand_for() {
    let mut files = common::games_dir();
    files.extend(common::corpus_files());
    let found = common::variants_where(&files, |g| {
        g.pieces
            .iter()
            .any(|p| p.moves.iter().chain(&p.drops).any(has_flank))
    });
    let names: Vec<&str> = found.iter().map(|(n, _)| n.as_str()).collect();
    assert!(names.iter().any(|n| n.contains("othello.zrf")), "{names:?}");
    for (name, game) in &found {
        let flipped = compare_along_games(name, game, 6, 80);
        assert!(flipped > 100, "{name}: {flipped} runs flipped");
    }
}

const FLANK: &str = r#"
(define flip-line
  (if (enemy? $1)
      $1 (while (enemy? $1) $1)
      (if (friend? $1)
          back $1 (while enemy? flip $1) (set-flag flips true))
      back))
"#;

/// Flank lines on boards where they go round in circles and after a `mark`: the budget runs out inside the
/// first walk (a ring of enemies) and inside the flips (the `back` to a mark, on another ring), with the same
/// error and steps as the general ops; a `back` to a mark that is not the start flips the line from the mark;
/// three players.
#[test]
fn flank_lines_keep_the_budget_back_and_players() {
    // From a: e a -> d -> f (White's f closes the line), n a -> b -> c -> b (a ring of enemies).
    // From x: n x -> m (marked) -> y; from y, e closes p at q, w closes t at u; from the mark m, e walks the
    // ring r -> s -> r of enemies and w flips v.
    let g = game(
        "flank-rings",
        &format!(
            r#"{FLANK}
(game (title "rings")
  (players White Black Red)
  (turn-order White Black Red)
  (board
    (positions (a 0 0 1 1) (b 1 0 2 1) (c 2 0 3 1) (d 3 0 4 1) (f 4 0 5 1) (x 5 0 6 1) (m 6 0 7 1)
      (y 7 0 8 1) (p 8 0 9 1) (q 9 0 10 1) (r 10 0 11 1) (s 11 0 12 1) (t 12 0 13 1) (u 13 0 14 1)
      (v 14 0 15 1) (z 15 0 16 1))
    (links n (a b) (b c) (c b) (x m) (m y))
    (links e (a d) (d f) (y p) (p q) (m r) (r s) (s r))
    (links w (y t) (t u) (m v) (v z)))
  (piece (name S)
    (drops ((verify empty?) (set-flag flips false) (flip-line e) (flip-line n) (verify (flag? flips)) add)
           ((verify empty?) n mark n (flip-line e) add)
           ((verify empty?) n mark n (flip-line w) (verify (flag? flips)) add)))
  (board-setup (White (S f q u)) (Black (S b c d r s t)) (Red (S p v))))"#
        ),
    );
    let engine = Engine::new(&g);
    let s = engine.initial();
    let mut flipped = 0;
    let mut errors = 0;
    for p in 0..3 {
        flipped += compare_flanks("rings", &g, &s, Player(p));
        // Both forms end the same way (compared above): count the runs that ran out of steps.
        let mut em = Emissions::default();
        for prog in &g.pieces[0].drops {
            for at in 0..g.board.positions.len() {
                let (r, _) = dagaz::engine::run::trace(
                    &g,
                    &s,
                    Player(p),
                    prog,
                    Pos(at as u16),
                    Some((PieceType(0), false)),
                    &mut em,
                );
                errors += r.is_err() as usize;
            }
        }
    }
    assert!(errors >= 2, "{errors} programs ran out of steps");
    assert!(flipped >= 2, "{flipped} runs flipped");
}
