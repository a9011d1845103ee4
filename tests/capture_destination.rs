//! Zillions' capture on the destination (docs/language.md, "Capture on the destination"). The founding article
//! "Dagaz: a new beginning" (part on the burden of compatibility, `../shared/seeds/001_*`) lists what a ZRF
//! engine must copy from Zillions: a move ending on an occupied square takes what stands there ("chess
//! capture"); an explicit `capture` of that same square removes the piece that made the move ("this way you can
//! make kamikaze pieces"). Every expected board below is worked out from those two sentences, not read from
//! the engine; each test also runs the same position without the explicit `capture`, so a test fails if the
//! form is ignored.

mod common;

use dagaz::engine::{apply::Undo, position, Engine, State};
use dagaz::lang::read_str;
use dagaz::load::compile_source as compile;

/// A one-file strip, ranks 1..5: A's piece P on a1 moves north along the programs given; B's pieces stand
/// where `setup` puts them. `options` goes into the game.
fn strip(programs: &str, setup: &str, options: &str) -> dagaz::Game {
    let src = format!(
        "(game (title \"kamikaze\") (players A B) (turn-order A B) {options}
           (board (grid (dimensions (\"a/b\" (10 0)) (\"5/4/3/2/1\" (0 10)))
                        (directions (n 0 -1) (s 0 1))))
           (piece (name P) (moves {programs}))
           (board-setup (A (P a1)) (B {setup})))"
    );
    let read = read_str("inline.zrf", &src, std::path::Path::new("."));
    assert!(!read.has_errors(), "{:?}", read.diagnostics);
    let mut diags = vec![];
    let g = compile(&read.games[0], &mut diags);
    assert!(diags.iter().all(|d| !d.is_error()), "{diags:?}");
    g.expect("a game")
}

/// The pieces on the board after each legal move of the first player, one sorted list per move, sorted.
fn boards_after(g: &dagaz::Game) -> Vec<Vec<String>> {
    let e = Engine::new(g);
    let s = e.initial();
    let mut out: Vec<Vec<String>> = e
        .legal_moves(&s)
        .unwrap()
        .iter()
        .map(|m| pieces(g, &e.apply(&s, m)))
        .collect();
    out.sort();
    out
}

/// "A P a2"-style names of the pieces standing on the board.
fn pieces(g: &dagaz::Game, s: &State) -> Vec<String> {
    let mut v: Vec<String> = position::format(g, s)
        .lines()
        .filter_map(|l| l.strip_prefix("piece "))
        .map(str::to_string)
        .collect();
    v.sort();
    v
}

fn board(v: &[&str]) -> Vec<String> {
    let mut b: Vec<String> = v.iter().map(|s| s.to_string()).collect();
    b.sort();
    b
}

/// An enemy on a2. `n (verify enemy?) add`: chess capture, A's piece stands on a2 and B's is gone.
/// `n (verify enemy?) capture add`: the same move with the square captured explicitly; the article's kamikaze:
/// both pieces are gone.
#[test]
fn an_explicit_capture_of_the_destination_removes_the_moving_piece_too() {
    let chess = strip("(n (verify enemy?) add)", "(P a2)", "");
    assert_eq!(boards_after(&chess), vec![board(&["A P a2"])]);
    let kamikaze = strip("(n (verify enemy?) capture add)", "(P a2)", "");
    assert_eq!(boards_after(&kamikaze), vec![Vec::<String>::new()]);
    // `to` fixes the destination before the cursor moves on: capturing the destination after coming back to
    // it through `mark`/`back` is the same kamikaze.
    let marked = strip(
        "(n (verify enemy?) to mark s back capture add)",
        "(P a2)",
        "",
    );
    assert_eq!(boards_after(&marked), vec![Vec::<String>::new()]);
}

/// The capture names the square, not a piece: on an empty destination it removes the piece that arrives
/// (the way the article's kamikaze piece, and Senegalese draughts' man on the last rank, leave the board).
#[test]
fn a_capture_of_an_empty_destination_removes_the_piece_that_arrives() {
    let plain = strip("(n n (verify empty?) add)", "(P a5)", "");
    assert_eq!(boards_after(&plain), vec![board(&["A P a3", "B P a5"])]);
    let kamikaze = strip("(n n (verify empty?) capture add)", "(P a5)", "");
    assert_eq!(boards_after(&kamikaze), vec![board(&["B P a5"])]);
}

/// A capture of any other square leaves the mover alone: the draughts jump over a2 to a3 keeps A's piece on
/// a3, and a capture made on the way (a2) followed by a move on (a3) is not a capture of the destination.
#[test]
fn a_capture_elsewhere_does_not_touch_the_moving_piece() {
    let jump = strip(
        "(n (verify enemy?) capture n (verify empty?) add)",
        "(P a2)",
        "",
    );
    assert_eq!(boards_after(&jump), vec![board(&["A P a3"])]);
    // Two emissions from one program: the first (a2, captured) is a kamikaze, the second (a3) is not: a
    // capture is not carried past an `add` (spec principle 2), so it does not reach the second destination.
    let two = strip(
        "(n (verify empty?) capture add n (verify empty?) add)",
        "(P a5)",
        "",
    );
    assert_eq!(
        boards_after(&two),
        vec![board(&["A P a3", "B P a5"]), board(&["B P a5"])]
    );
}

/// The piece removed by its own capture is not a piece taken: under "maximal captures" a kamikaze capture of
/// one enemy and a jump over one enemy both take one piece and both stay legal. (Counting the mover as a second
/// piece taken would leave the kamikaze alone.)
#[test]
fn the_moving_piece_is_not_counted_among_the_pieces_taken() {
    let g = strip(
        "(n (verify enemy?) capture add) (n (verify enemy?) capture n (verify empty?) add)",
        "(P a2)",
        "(option \"maximal captures\" true)",
    );
    let e = Engine::new(&g);
    let s = e.initial();
    let moves = e.legal_moves(&s).unwrap();
    assert_eq!(moves.len(), 2, "{moves:?}");
    assert!(moves.iter().all(|m| m.captures() == 1), "{moves:?}");
}

/// Make and unmake restore the position exactly after a kamikaze move (its board, and the hash the state
/// keeps), so searches see the same positions as `apply`.
#[test]
fn undoing_a_kamikaze_move_restores_the_position() {
    let g = strip(
        "(n (verify enemy?) capture add) (n n (verify empty?) capture add)",
        "(P a2)",
        "",
    );
    let e = Engine::new(&g);
    let s = e.initial();
    let before = position::format(&g, &s);
    for m in e.legal_moves(&s).unwrap() {
        let mut w = s.clone();
        let mut undo = Undo::new();
        e.make(&mut w, &m, &mut undo);
        assert_eq!(pieces(&g, &w), pieces(&g, &e.apply(&s, &m)));
        e.unmake(&mut w, &mut undo);
        assert_eq!(position::format(&g, &w), before);
        assert_eq!(w.hash(), s.hash());
    }
}

/// A composite move does not go on from a part that removes its own piece: there is no piece left to continue
/// with. A's piece takes B's a2 kamikaze-style with `add-partial`; B's a3 would be next on a continuation, but
/// the move ends after the one part: one move, leaving B's a3 alone.
#[test]
fn a_kamikaze_part_ends_a_composite_move() {
    let g = strip(
        "(move-type go) (n (verify enemy?) capture (add-partial go))",
        "(P a2) (P a3)",
        "",
    );
    assert_eq!(boards_after(&g), vec![board(&["B P a3"])]);
}

/// A drop is a move too: a drop that captures its own square puts the piece down from the reserve and
/// removes it (the reserve is one piece shorter, the square empty); the plain drop leaves it there. (The corpus
/// Luzhanqi spends its first South turn so: its `Start` piece is dropped with `(verify empty?) capture add`.)
#[test]
fn a_drop_that_captures_its_own_square_uses_up_the_piece() {
    let lines = |drop: &str| {
        let src = format!(
            "(game (title \"drop\") (players A B) (turn-order A B)
               (board (grid (dimensions (\"a/b\" (10 0)) (\"2/1\" (0 10))) (directions (n 0 -1))))
               (piece (name Q) (drops {drop}))
               (board-setup (A (Q off 2)) (B (Q b2))))"
        );
        let read = read_str("inline.zrf", &src, std::path::Path::new("."));
        assert!(!read.has_errors(), "{:?}", read.diagnostics);
        let mut diags = vec![];
        let g = compile(&read.games[0], &mut diags).expect("a game");
        let e = Engine::new(&g);
        let s = e.initial();
        let mut out: Vec<Vec<String>> = e
            .legal_moves(&s)
            .unwrap()
            .iter()
            .map(|m| {
                let mut v: Vec<String> = position::format(&g, &e.apply(&s, m))
                    .lines()
                    .filter(|l| l.starts_with("piece ") || l.starts_with("reserve "))
                    .map(str::to_string)
                    .collect();
                v.sort();
                v
            })
            .collect();
        out.sort();
        out
    };
    let plain = lines("((verify (position? a1)) (verify empty?) add)");
    assert_eq!(
        plain,
        vec![vec!["piece A Q a1", "piece B Q b2", "reserve A Q 1"]]
    );
    let kamikaze = lines("((verify (position? a1)) (verify empty?) capture add)");
    assert_eq!(kamikaze, vec![vec!["piece B Q b2", "reserve A Q 1"]]);
    // On an occupied square both go: the piece there and the one dropped.
    let onto = lines("((verify (position? b2)) capture add)");
    assert_eq!(onto, vec![vec!["reserve A Q 1"]]);
}

/// How a move's parts remove their own piece: `(destination, start)`. Destination: a capture of the square the
/// piece ends on, Zillions' kamikaze (written as a capture of the square it left *after* the movement, or a
/// capture after a drop's placement, `run/emit.rs`). Start: a capture of the square the piece leaves, listed
/// before the movement: the program captured its own starting square, which removed the piece before this
/// change too.
fn own_removals(m: &dagaz::engine::Move) -> (bool, bool) {
    use dagaz::engine::Action;
    let (mut dest, mut start) = (false, false);
    for p in &m.parts {
        let mut moved = false;
        for (i, a) in p.actions.iter().enumerate() {
            match *a {
                Action::Move { from, .. } if Some(from) == p.from => moved = true,
                Action::Capture { at } if Some(at) == p.from && p.to != p.from => {
                    if moved {
                        dest = true;
                    } else {
                        start = true;
                    }
                }
                Action::Capture { at }
                    if p.from.is_none()
                        && p.actions[..i]
                            .iter()
                            .any(|b| matches!(*b, Action::Place { at: q, .. } if q == at)) =>
                {
                    dest = true
                }
                _ => {}
            }
        }
    }
    (dest, start)
}

/// The corpus files whose move programs capture on their own destination, as random games meet them: for
/// each loadable variant, 3 random games of at most 200 plies (every legal move of every position looked at, at
/// most 5 s per file). Prints each file with the number of positions where such a move was legal and one such
/// move, then, apart, the files whose programs capture the square their piece leaves (unchanged by the
/// destination rule). A survey for the commit that changed the semantics, not a check: run it with
/// `cargo test --release --test capture_destination -- --ignored --nocapture` (README, "Slow checks").
#[test]
#[ignore]
fn corpus_files_whose_moves_capture_their_own_destination() {
    use rand_core::RngCore;
    let (mut dest_files, mut start_lines) = (0, vec![]);
    for path in common::corpus_files() {
        let read = dagaz::lang::read_file(&path);
        if read.has_errors() {
            continue;
        }
        let t = std::time::Instant::now();
        let (mut hits, mut sample) = (0, None);
        let (mut start_hits, mut start_sample) = (0, None);
        for (v, src) in read.games.iter().enumerate() {
            if dagaz::compile::engine_of(src).is_some() {
                continue;
            }
            let mut d = vec![];
            let Some(g) = compile(src, &mut d) else {
                continue;
            };
            let Ok(e) = Engine::try_new(&g) else { continue };
            for game in 0..3u64 {
                let mut rng = dagaz::engine::playout::game_rng(1, game);
                let mut s = e.initial();
                for _ in 0..200 {
                    if t.elapsed().as_secs() >= 5 {
                        break;
                    }
                    let Ok(moves) = e.legal_moves(&s) else { break };
                    if !matches!(e.outcome(&s, &moves, &[]), Ok(None)) || moves.is_empty() {
                        break;
                    }
                    if let Some(m) = moves.iter().find(|m| own_removals(m).0) {
                        hits += 1;
                        sample.get_or_insert_with(|| {
                            format!("variant {}: {}", v + 1, m.notation(&g))
                        });
                    }
                    if let Some(m) = moves.iter().find(|m| own_removals(m).1) {
                        start_hits += 1;
                        start_sample.get_or_insert_with(|| {
                            format!("variant {}: {}", v + 1, m.notation(&g))
                        });
                    }
                    let m = &moves[rng.next_u64() as usize % moves.len()];
                    s = e.apply(&s, m);
                }
            }
        }
        let name = common::corpus_name(&path);
        if hits > 0 {
            dest_files += 1;
            println!(
                "destination: {name}: {hits} positions; {}",
                sample.unwrap_or_default()
            );
        }
        if start_hits > 0 {
            start_lines.push(format!(
                "start: {name}: {start_hits} positions; {}",
                start_sample.unwrap_or_default()
            ));
        }
    }
    println!("{dest_files} corpus files capture on their own destination");
    for l in &start_lines {
        println!("{l}");
    }
    println!(
        "{} corpus files capture the square their piece leaves",
        start_lines.len()
    );
}
