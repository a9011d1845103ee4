//! The komi and the margin of a game scored by area (Go), for `games.sgf`'s `KM` and `RE[B+3.5]`.
//!
//! A ZRF game states its komi inside its end conditions: `games/go-9x9.zrf` wins for Black when
//! `(> (* 2 (area Black)) (+ (* 2 (area White)) 15))`, a komi of 7.5 kept whole by doubling. The komi is read
//! from the first player's `Win` condition: a comparison whose sides are `a x (area first) + c1` and `a x (area
//! second) + c2` (each a sum and product of numbers and one `area`), which gives komi `(c2 - c1) / a`. A game
//! whose end conditions have no such comparison has no komi known here, and its SGF gets neither `KM` nor a
//! margin.

use crate::compile::numbers::{ArithOp, Expr};
use crate::compile::{EndCond, EndKind, Game, Player};
use crate::engine::State;

/// `e` as `a * (area p) + c` over the two players' areas: `(coefficient of the first player's area, of the
/// second's, constant)`, where it is linear in them (sums, differences, products by numbers).
fn linear(e: &Expr) -> Option<(f64, f64, f64)> {
    match e {
        Expr::Int(n) => Some((0.0, 0.0, *n as f64)),
        Expr::Area(Some(p)) if p.0 == 0 => Some((1.0, 0.0, 0.0)),
        Expr::Area(Some(p)) if p.0 == 1 => Some((0.0, 1.0, 0.0)),
        Expr::Arith(op, args) => {
            let parts: Vec<(f64, f64, f64)> = args.iter().map(linear).collect::<Option<_>>()?;
            let (first, rest) = parts.split_first()?;
            let mut acc = *first;
            for &(a, b, c) in rest {
                acc = match op {
                    ArithOp::Add => (acc.0 + a, acc.1 + b, acc.2 + c),
                    ArithOp::Sub => (acc.0 - a, acc.1 - b, acc.2 - c),
                    // A product stays linear while one side is a number.
                    ArithOp::Mul if a == 0.0 && b == 0.0 => (acc.0 * c, acc.1 * c, acc.2 * c),
                    ArithOp::Mul if acc.0 == 0.0 && acc.1 == 0.0 => {
                        (a * acc.2, b * acc.2, c * acc.2)
                    }
                    _ => return None,
                };
            }
            Some(acc)
        }
        _ => None,
    }
}

fn find_komi(c: &EndCond) -> Option<f64> {
    match c {
        EndCond::Compare(_, sides) => {
            let (l, r) = (linear(&sides.0)?, linear(&sides.1)?);
            // a x first + c1 against a x second + c2.
            if l.0 > 0.0 && l.1 == 0.0 && r.0 == 0.0 && r.1 == l.0 {
                Some((r.2 - l.2) / l.0)
            } else {
                None
            }
        }
        EndCond::And(v) | EndCond::Or(v) => v.iter().find_map(find_komi),
        _ => None,
    }
}

/// The komi a two-player game scored by `area` gives the second player, read from its end conditions.
pub fn komi(game: &Game) -> Option<f64> {
    if game.players.len() != 2 {
        return None;
    }
    game.end_conditions
        .iter()
        .filter(|e| e.kind == EndKind::Win && e.players == [Player(0)])
        .find_map(|e| find_komi(&e.cond))
}

/// The first player's area less the second's and the komi, at the end of a game (positive: the first wins).
pub fn margin(game: &Game, state: &State, komi: f64) -> f64 {
    let area = |p| crate::engine::groups::area(game, state, Player(p)) as f64;
    area(0) - area(1) - komi
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::{load_game, VariantSel};

    #[test]
    fn the_komi_of_go_9x9_is_7_5() {
        let g = load_game(std::path::Path::new("games/go-9x9.zrf"), &VariantSel::First).unwrap();
        assert_eq!(komi(&g), Some(7.5));
        let chess = load_game(std::path::Path::new("games/chess.zrf"), &VariantSel::First).unwrap();
        assert_eq!(komi(&chess), None);
    }
}
