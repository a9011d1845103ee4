//! Rule tests for `games/fanorona.zrf`, from the rules written at the top of that file (English Wikipedia,
//! "Fanorona", rules section). Every expected move list is worked out by hand from those rules; the working
//! is written beside it, and `tests/reference/fanorona_perft.py --positions` (a generator written apart
//! from dagaz) prints the same lists. A move is shown by its net effect: `from>to x captured...` (the
//! moving stone's start and end, and the enemy stones gone, in alphabetical order).

use dagaz::engine::{position, Engine, State};
use dagaz::load::{load_game, VariantSel};
use std::collections::BTreeSet;
use std::path::Path;

fn fanorona() -> dagaz::Game {
    load_game(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("games/fanorona.zrf"),
        &VariantSel::First,
    )
    .unwrap()
}

/// The squares of `owner`'s stones in a position.
fn stones(g: &dagaz::Game, s: &State, owner: &str) -> BTreeSet<String> {
    position::format(g, s)
        .lines()
        .filter_map(|l| l.strip_prefix(&format!("piece {owner} Stone ")))
        .map(|p| p.to_string())
        .collect()
}

/// Every legal move's net effect, sorted.
fn effects(g: &dagaz::Game, s: &State, mover: &str, enemy: &str) -> Vec<String> {
    let e = Engine::new(g);
    let before = stones(g, s, mover);
    let enemies = stones(g, s, enemy);
    let mut out: Vec<String> = e
        .legal_moves(s)
        .unwrap()
        .iter()
        .map(|m| {
            let t = e.apply(s, m);
            let after = stones(g, &t, mover);
            let from: Vec<_> = before.difference(&after).cloned().collect();
            let to: Vec<_> = after.difference(&before).cloned().collect();
            let left = stones(g, &t, enemy);
            let taken: Vec<_> = enemies.difference(&left).cloned().collect();
            let mut text = format!("{}>{}", from.join(","), to.join(","));
            if !taken.is_empty() {
                text += &format!(" x {}", taken.join(" "));
            }
            text
        })
        .collect();
    out.sort();
    out
}

fn sorted(v: &[&str]) -> Vec<String> {
    let mut out: Vec<String> = v.iter().map(|x| x.to_string()).collect();
    out.sort();
    out
}

fn at(g: &dagaz::Game, text: &str) -> State {
    position::parse(g, text).unwrap()
}

/// The opening: only e3 is empty, so every move goes there, and a capture exists, so only captures count.
/// White's stones beside e3 are d3, e2, d2 and f2 (e3 is a strong point: 8 lines).
/// * d3-e3 (east): approach takes f3 (g3 is White: the line stops); withdrawal takes c3 (b3 is White).
/// * e2-e3 (north): approach takes e4 and e5; withdrawal would need an enemy on e1 (White).
/// * d2-e3 (north-east): approach takes f4 and g5; c1 behind is White.
/// * f2-e3 (north-west): approach takes d4 and c5; g1 behind is White.
///
/// No chain goes on: the only empty points next to e3 afterwards are the stone's start (visited) and the
/// first point it took, which lies in the direction it just moved. Five moves.
#[test]
fn the_opening_position_has_five_moves() {
    let g = fanorona();
    let s = Engine::new(&g).initial();
    assert_eq!(
        effects(&g, &s, "White", "Black"),
        sorted(&[
            "d3>e3 x f3",
            "d3>e3 x c3",
            "e2>e3 x e4 e5",
            "d2>e3 x f4 g5",
            "f2>e3 x c5 d4",
        ])
    );
}

/// "It is not permitted to move twice in a row in the same direction": White c2; Black c1, c5, a3, e3.
/// c2 is a weak point (orthogonal lines only). The only first capture is c2-c3 by withdrawal from c1
/// (moving north away from it); approach to c3 finds c4 empty, and the west and east steps find nothing.
/// From c3 (strong) the stone may go on: west to b3 approaching a3, east to d3 approaching e3. North to c4
/// would approach c5, but the stone has just moved north: forbidden. South is c2, its start. After b3 or d3
/// nothing more: each has only the direction just taken, c3 (visited) or empty lines.
/// Moves: c2-c3 alone, then with b3, then with d3: three.
#[test]
fn a_chain_never_moves_twice_in_one_direction() {
    let g = fanorona();
    let s = at(
        &g,
        "turn White\npiece White Stone c2\npiece Black Stone c1\npiece Black Stone c5\n\
         piece Black Stone a3\npiece Black Stone e3\n",
    );
    assert_eq!(
        effects(&g, &s, "White", "Black"),
        sorted(&["c2>c3 x c1", "c2>b3 x a3 c1", "c2>d3 x c1 e3"])
    );
}

/// "The piece is not allowed to arrive at the same point twice", and "when one step could capture either
/// way, the player chooses": White c2; Black c1, c4, c5, a3, e3. c2-c3 captures c4 and c5 by approach or
/// c1 by withdrawal: two moves. After either, c3-c2 would capture again (approach to c1, or withdrawal
/// from c4 and c5) but c2 is the stone's start: forbidden. West to b3 takes a3 and east to d3 takes e3, as
/// above, and nothing follows them. Six moves: each first capture alone, with b3, with d3.
#[test]
fn a_chain_never_returns_to_a_point_and_the_player_chooses_approach_or_withdrawal() {
    let g = fanorona();
    let s = at(
        &g,
        "turn White\npiece White Stone c2\npiece Black Stone c1\npiece Black Stone c4\n\
         piece Black Stone c5\npiece Black Stone a3\npiece Black Stone e3\n",
    );
    assert_eq!(
        effects(&g, &s, "White", "Black"),
        sorted(&[
            "c2>c3 x c4 c5",
            "c2>b3 x a3 c4 c5",
            "c2>d3 x c4 c5 e3",
            "c2>c3 x c1",
            "c2>b3 x a3 c1",
            "c2>d3 x c1 e3",
        ])
    );
}

/// Paika: with no capture anywhere, a stone steps to any empty neighbour along a line. White e3 (strong: 8
/// lines), Black a5: no step ends next to a5 in line, nothing stands next to e3. Eight moves.
#[test]
fn paika_moves_when_no_capture_exists() {
    let g = fanorona();
    let s = at(
        &g,
        "turn White\npiece White Stone e3\npiece Black Stone a5\n",
    );
    assert_eq!(
        effects(&g, &s, "White", "Black"),
        sorted(&["e3>d2", "e3>d3", "e3>d4", "e3>e2", "e3>e4", "e3>f2", "e3>f3", "e3>f4"])
    );
}

/// "Capturing moves are obligatory": White e3 and a1, Black a3. a1-a2 approaches a3, so none of e3's
/// eight paika steps (nor a1's other steps) is allowed: one move. It takes Black's last stone: White wins.
#[test]
fn a_capture_excludes_every_paika_and_the_last_capture_wins() {
    let g = fanorona();
    let e = Engine::new(&g);
    let s = at(
        &g,
        "turn White\npiece White Stone e3\npiece White Stone a1\npiece Black Stone a3\n",
    );
    assert_eq!(effects(&g, &s, "White", "Black"), ["a1>a2 x a3"]);
    let m = e.legal_moves(&s).unwrap().remove(0);
    let t = e.apply(&s, &m);
    let moves = e.legal_moves(&t).unwrap();
    let o = e.outcome(&t, &moves, &[]).unwrap().expect("over");
    assert_eq!(
        (o.results, o.name.as_str()),
        (vec![1, -1], "all stones captured")
    );
}

/// A player who cannot move loses (gasy-fanorona's rules page): Black's a5 (strong: lines to a4, b5, b4)
/// is hemmed in by White stones and has no empty point to move to, so no capture either.
#[test]
fn a_player_who_cannot_move_loses() {
    let g = fanorona();
    let e = Engine::new(&g);
    let s = at(
        &g,
        "turn Black\npiece Black Stone a5\npiece White Stone a4\npiece White Stone b5\n\
         piece White Stone b4\n",
    );
    let moves = e.legal_moves(&s).unwrap();
    assert!(moves.is_empty());
    let o = e.outcome(&s, &moves, &[]).unwrap().expect("over");
    assert_eq!(
        (o.results, o.end_type.as_str()),
        (vec![1, -1], "stalemated")
    );
}

/// Perft from the opening. No published Fanorona perft was found (OpenSpiel has no Fanorona; a search of
/// engines' sources and the rules pages gave none). d1 is the hand count above (5). d2-d4 are those of
/// `tests/reference/fanorona_perft.py`, a generator written apart from dagaz from the same rules (it also
/// prints the moves of every position of this file, which agree with the hand counts). Convention: a turn is
/// one move; moves with the same start point and resulting position are one move.
#[test]
fn perft_from_the_opening() {
    let g = fanorona();
    let e = Engine::new(&g);
    for (d, want) in [(1, 5), (2, 39), (3, 724), (4, 18_026)] {
        assert_eq!(e.perft(&e.initial(), d).unwrap(), want, "fanorona d{d}");
    }
}
