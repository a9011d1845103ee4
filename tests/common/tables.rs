//! Positions of the tables games (`games/backgammon.zrf`, `games/long-nardy.zrf`: a `Checker` per point with
//! its `count`, two dice pieces of the random player `?Dice`), for their rule tests (`tests/backgammon.rs`,
//! `tests/long_nardy.rs`).
#![allow(dead_code)]

use dagaz::engine::{position, State};
use dagaz::Game;

/// A position with dice thrown: `dice` as (die1, die2), `side` to move, then checkers as ("White", "p13", 2).
pub fn pos(g: &Game, side: &str, dice: (usize, usize), checkers: &[(&str, &str, u8)]) -> State {
    const FACES: [&str; 6] = ["One", "Two", "Three", "Four", "Five", "Six"];
    let mut text = format!(
        "turn {side}\npiece ?Dice {} die1\npiece ?Dice {} die2\n",
        FACES[dice.0 - 1],
        FACES[dice.1 - 1]
    );
    for (owner, at, n) in checkers {
        text.push_str(&format!("piece {owner} Checker {at} count={n}\n"));
    }
    position::parse(g, &text).unwrap()
}

/// The number of checkers of `owner` at `at` in `s`.
pub fn count(g: &Game, s: &State, owner: &str, at: &str) -> i8 {
    let p = g.board.position(at).unwrap();
    let who = g.player(owner).unwrap();
    s.get(p)
        .filter(|x| x.owner == who && g.pieces[x.kind.idx()].name == "Checker")
        .map_or(0, |x| x.attrs.get_int(0))
}
