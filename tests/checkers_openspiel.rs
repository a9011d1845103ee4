//! `games/english-checkers.zrf`'s variant "English Checkers (OpenSpiel)": the rules of OpenSpiel's `checkers`
//! (open_spiel/games/checkers/checkers.cc), which the strength harness plays dagaz against. Each test states a
//! rule of that game and checks it on a position set up by hand:
//! * the game is a draw once 40 plies in a row have taken nothing (checkers.cc: `kMaxMovesWithoutCapture = 40`;
//!   every action adds one to `moves_without_capture_`, a jump sets it back to 0, and `LegalActions` is empty
//!   from 40 on: the game is over, and `Returns` calls it a draw before looking at who has no move);
//! * a captured piece leaves the board at once (checkers.cc empties the square in the jump itself). For short
//!   pieces this changes no move: a chain lands on squares of one colour class and jumps over the other's
//!   (both coordinates of a landing square move by 2, of a jumped square by 1), so it never lands on or jumps
//!   over a square it emptied. The test compares the two variants' moves on positions of random games.

use dagaz::compile::Game;
use dagaz::engine::{position, Engine, State};
use dagaz::load::{load_game, VariantSel};
use std::path::Path;

const FILE: &str = "games/english-checkers.zrf";
const OPENSPIEL: &str = "English Checkers (OpenSpiel)";
const DRAW: &str = "40 plies without capture";

fn load(variant: &str) -> Game {
    load_game(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join(FILE),
        &VariantSel::parse(variant),
    )
    .unwrap()
}

/// Plays the move written `notation` (the only legal move so written).
fn play(game: &Game, s: &State, notation: &str) -> State {
    let engine = Engine::new(game);
    let moves = engine.legal_moves(s).unwrap();
    let found: Vec<_> = moves
        .iter()
        .filter(|m| m.notation(game) == notation)
        .collect();
    assert_eq!(
        found.len(),
        1,
        "`{notation}` among {:?}",
        moves.iter().map(|m| m.notation(game)).collect::<Vec<_>>()
    );
    engine.apply(s, found[0])
}

/// The end of the game at `s`: None while it goes on, else (name, result of Black, result of White).
fn end(game: &Game, s: &State) -> Option<(String, i8, i8)> {
    let engine = Engine::new(game);
    let moves = engine.legal_moves(s).unwrap();
    engine
        .outcome(s, &moves, &[])
        .unwrap()
        .map(|o| (o.name, o.results[0], o.results[1]))
}

/// Two kings each, far apart, nothing to take: every move is quiet.
const KINGS: &str = "turn Black\npiece Black King b8\npiece Black King h8\npiece White King a1\npiece White King g1\n";

#[test]
fn forty_plies_without_a_capture_draw() {
    let game = load(OPENSPIEL);
    // After 39 quiet plies the 40th ends the game, drawn.
    let s = position::parse(&game, &format!("{KINGS}quiet 39\n")).unwrap();
    assert_eq!(end(&game, &s), None);
    let after = play(&game, &s, "b8-a7");
    assert_eq!(after.quiet(), 40);
    assert_eq!(end(&game, &after), Some((DRAW.to_string(), 0, 0)));
    // After 38, the 40th is one ply further on.
    let s = position::parse(&game, &format!("{KINGS}quiet 38\n")).unwrap();
    let after = play(&game, &s, "b8-a7");
    assert_eq!(end(&game, &after), None);
    let after = play(&game, &after, "a1-b2");
    assert_eq!(end(&game, &after), Some((DRAW.to_string(), 0, 0)));
    // From the start of the game the count is the plies played while nothing was taken.
    let mut s = State::initial(&game);
    let shuffle = [
        ["h6-g5", "a3-b4"],
        ["g5-h4", "b4-a5"],
        ["g7-h6", "c3-b4"],
        ["f8-g7", "b2-c3"],
    ];
    let mut plies = 0;
    for pair in shuffle {
        for m in pair {
            s = play(&game, &s, m);
            plies += 1;
        }
    }
    assert_eq!(s.quiet(), plies);
    assert_eq!(end(&game, &s), None);
}

#[test]
fn the_rule_is_not_in_the_plain_game() {
    let game = load("English Checkers");
    let s = position::parse(&game, &format!("{KINGS}quiet 39\n")).unwrap();
    let after = play(&game, &s, "b8-a7");
    assert_eq!(end(&game, &after), None);
}

#[test]
fn every_jump_sets_the_count_back() {
    let game = load(OPENSPIEL);
    // After 39 quiet plies Black must take: the man on b6 jumps c5 and e3 in one chain (two OpenSpiel actions,
    // each a capture). The count is 0 after it, and the game goes on.
    let pos = "turn Black\nquiet 39\npiece Black Man b6\npiece White Man c5\npiece White Man e3\n\
               piece White King a1\npiece Black King h8\n";
    let s = position::parse(&game, pos).unwrap();
    let after = play(&game, &s, "b6-d4xc5-f2xe3");
    assert_eq!(after.quiet(), 0);
    assert_eq!(end(&game, &after), None);
    // Then 40 quiet plies again to the draw.
    let after = play(&game, &after, "a1-b2");
    assert_eq!(after.quiet(), 1);
    assert_eq!(end(&game, &after), None);
}

#[test]
fn the_draw_comes_before_the_loss_of_the_player_without_a_move() {
    // White's man on a7 is stuck behind Black's man on b8 (its jump would leave the board). Black's 40th quiet
    // ply, a king's step, leaves White without a move: OpenSpiel's game is then a draw, not White's loss.
    let pos = "turn Black\npiece White Man a7\npiece Black Man b8\npiece Black King h2\n";
    let game = load(OPENSPIEL);
    let s = position::parse(&game, &format!("{pos}quiet 39\n")).unwrap();
    let after = play(&game, &s, "h2-g1");
    assert!(Engine::new(&game).legal_moves(&after).unwrap().is_empty());
    assert_eq!(end(&game, &after), Some((DRAW.to_string(), 0, 0)));
    // Before the 40th ply the player without a move loses, as in the plain game.
    let s = position::parse(&game, &format!("{pos}quiet 10\n")).unwrap();
    let after = play(&game, &s, "h2-g1");
    assert_eq!(end(&game, &after), Some(("no moves".to_string(), 1, -1)));
    let plain = load("English Checkers");
    let s = position::parse(&plain, &format!("{pos}quiet 39\n")).unwrap();
    let after = play(&plain, &s, "h2-g1");
    assert_eq!(end(&plain, &after), Some(("no moves".to_string(), 1, -1)));
}

#[test]
fn a_king_may_take_round_a_ring_back_to_its_square() {
    // The king on c3 takes the four men round it and lands where it started (its square is empty once it has
    // left). The two ways round leave the same board: one move (OpenSpiel lists both orders of its actions).
    for variant in [OPENSPIEL, "English Checkers"] {
        let game = load(variant);
        let pos = "turn White\npiece White King c3\npiece Black Man b4\npiece Black Man b6\n\
                   piece Black Man d6\npiece Black Man d4\n";
        let s = position::parse(&game, pos).unwrap();
        let engine = Engine::new(&game);
        let moves = engine.legal_moves(&s).unwrap();
        let notes: Vec<String> = moves.iter().map(|m| m.notation(&game)).collect();
        assert_eq!(moves.len(), 1, "{variant}: {notes:?}");
        let n = &notes[0];
        assert!(n.starts_with("c3-") && n.contains("-c3x"), "{variant}: {n}");
        for taken in ["xb4", "xb6", "xd6", "xd4"] {
            assert!(n.contains(taken), "{variant}: {n} takes {taken}");
        }
        let after = engine.apply(&s, &moves[0]);
        assert_eq!(end(&game, &after), Some(("no moves".to_string(), -1, 1)));
    }
}

#[test]
fn taking_at_once_lists_the_same_moves_as_taking_at_the_end() {
    // Random games of the plain rules (deferred captures): at every position, the OpenSpiel variant (captures at
    // once) lists the same moves. Kings and multi-jumps occur along them.
    let plain = load("English Checkers");
    let os = load(OPENSPIEL);
    let (ep, eo) = (Engine::new(&plain), Engine::new(&os));
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let (mut positions, mut chains, mut king_chains) = (0, 0, 0);
    for _ in 0..300 {
        let mut s = State::initial(&plain);
        for _ in 0..200 {
            let text = position::format(&plain, &s);
            let t = position::parse(&os, &text).unwrap();
            let mut a: Vec<String> = ep
                .legal_moves(&s)
                .unwrap()
                .iter()
                .map(|m| m.notation(&plain))
                .collect();
            let mut b: Vec<String> = eo
                .legal_moves(&t)
                .unwrap()
                .iter()
                .map(|m| m.notation(&os))
                .collect();
            a.sort();
            b.sort();
            assert_eq!(a, b, "at\n{text}");
            positions += 1;
            chains += a.iter().filter(|m| m.matches('x').count() >= 2).count();
            king_chains += a
                .iter()
                .filter(|m| m.matches('x').count() >= 2 && text.lines().any(|l| is_king_at(l, m)))
                .count();
            let moves = ep.legal_moves(&s).unwrap();
            if moves.is_empty() {
                break;
            }
            s = ep.apply(&s, &moves[next(moves.len())]);
        }
    }
    eprintln!("{positions} positions, {chains} chains of 2 jumps or more, {king_chains} by kings");
    assert!(
        chains >= 100 && king_chains >= 10,
        "{chains} chains, {king_chains} by kings"
    );
}

/// Whether the position line `l` puts a king on the square move `m` starts from.
fn is_king_at(l: &str, m: &str) -> bool {
    l.starts_with("piece ") && l.contains(" King ") && l.ends_with(&format!(" {}", &m[..2]))
}

/// OpenSpiel's own `checkers` agrees with the variant on 200 random games played side by side (boards, players
/// to move, moves, ends), and disagrees with the plain game (which has no 40-ply draw). Needs OpenSpiel in
/// `target/strength-venv` (or the Python named by `DAGAZ_OPENSPIEL_PYTHON`); see README, "Slow checks".
#[test]
#[ignore = "slow (~1.5 min) and needs OpenSpiel; see README"]
fn openspiel_agrees() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let python = std::env::var("DAGAZ_OPENSPIEL_PYTHON")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|_| root.join("target/strength-venv/bin/python"));
    let run = |variant: &str| {
        let out = std::process::Command::new(&python)
            .current_dir(root)
            .arg(root.join("tests/bench/openspiel_bot.py"))
            .args(["--game", "english-checkers", "--cross-check", FILE])
            .args(["--variant", variant, "--cross-games", "200", "--seed", "1"])
            .arg("--dagaz")
            .arg(env!("CARGO_BIN_EXE_dagaz"))
            .output()
            .unwrap_or_else(|e| panic!("cannot run {}: {e}", python.display()));
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        eprintln!("{variant}: {text}");
        (out.status.success(), text)
    };
    let (ok, text) = run(OPENSPIEL);
    assert!(ok, "OpenSpiel disagrees:\n{text}");
    assert!(
        text.contains("cross-checked 200 random games of english-checkers"),
        "{text}"
    );
    assert!(text.contains("40 plies without capture: "), "{text}");
    let (ok, text) = run("English Checkers");
    assert!(!ok && text.contains("over in OpenSpiel only"), "{text}");
}
