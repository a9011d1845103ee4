//! Piece-square terms: a value per piece type and board position, written as the first player sees the board
//! and read for every other player through a map of the board onto itself (its *frame*).
//!
//! The frame of a player is the board's mirror image or half turn (or the board unchanged) that carries that
//! player's starting pieces onto the first player's of the same type: in chess the mirror top to bottom
//! (a1 is a8 for Black), in checkers the half turn (Black's men start on the dark squares too). It is found from
//! the positions' screen rectangles, the only geometry a game gives for every kind of board. Where the setups
//! do not decide (no pieces at the start, or several maps as good), the map under which the player's declared
//! `symmetry` of directions holds on most links wins, and the board unchanged before any other.

use crate::compile::{Game, Player, Pos};
use crate::engine::State;

/// Piece-square values with each player's frame.
#[derive(Clone, Debug, PartialEq)]
pub struct SquareTable {
    /// Positions on the board (the table's row length).
    pub positions: usize,
    /// `values[kind * positions + pos]`, in the first player's frame.
    pub values: Vec<f64>,
    /// `frame[player][pos]`: the first player's position that `pos` is for that player.
    pub frame: Vec<Vec<u16>>,
}

impl SquareTable {
    /// The table of a game from one row per piece type (as a preset gives them): an error names the row that
    /// does not fit the game.
    pub fn new(game: &Game, rows: &[Vec<f64>]) -> Result<SquareTable, String> {
        let n = game.board.positions.len();
        if rows.len() != game.pieces.len() {
            return Err(format!(
                "`squares` gives {} rows, the game has {} piece types (one row per type, in the game's order)",
                rows.len(),
                game.pieces.len()
            ));
        }
        let mut values = Vec::with_capacity(n * rows.len());
        for (t, row) in rows.iter().enumerate() {
            if row.len() != n {
                return Err(format!(
                    "`squares` row {} ({}) gives {} values, the board has {} positions",
                    t + 1,
                    game.pieces[t].name,
                    row.len(),
                    n
                ));
            }
            if let Some(i) = row.iter().position(|v| !v.is_finite()) {
                return Err(format!(
                    "`squares` row {} ({}), value {} is not a finite number",
                    t + 1,
                    game.pieces[t].name,
                    i + 1
                ));
            }
            values.extend_from_slice(row);
        }
        Ok(SquareTable {
            positions: n,
            values,
            frame: frames(game),
        })
    }

    /// The value of a piece of `kind` owned by `owner` at `pos`.
    #[inline]
    pub fn value(&self, owner: Player, kind: usize, pos: usize) -> f64 {
        let f = self.frame.get(owner.idx()).map_or(pos, |m| m[pos] as usize);
        self.values[kind * self.positions + f]
    }
}

/// Each player's frame: `frames(game)[player][pos]` is the first player's position that `pos` is for `player`.
pub fn frames(game: &Game) -> Vec<Vec<u16>> {
    let n = game.board.positions.len();
    let identity: Vec<u16> = (0..n as u16).collect();
    let candidates = candidate_maps(game);
    let initial = State::initial(game);
    let cells = initial.cells();
    (0..game.players.len())
        .map(|q| {
            if q == 0 {
                return identity.clone();
            }
            let mut best: Option<((i64, i64), &Vec<u16>)> = None;
            for m in &candidates {
                // Pieces of player q that land on a piece of player 0 of the same type, less those that do not.
                let mut setup = 0i64;
                for (p, c) in cells.iter().enumerate() {
                    if let Some(piece) = c {
                        if piece.owner.idx() == q {
                            match &cells[m[p] as usize] {
                                Some(o) if o.owner.idx() == 0 && o.kind == piece.kind => setup += 1,
                                _ => setup -= 1,
                            }
                        }
                    }
                }
                let score = (setup, links_kept(game, q, m));
                if best.as_ref().is_none_or(|(b, _)| score > *b) {
                    best = Some((score, m));
                }
            }
            best.map_or_else(|| identity.clone(), |(_, m)| m.clone())
        })
        .collect()
}

/// The board unchanged, then its mirror images left to right and top to bottom and its half turn, where the
/// positions' rectangles make them maps of the board onto itself (off-board positions stay in place).
fn candidate_maps(game: &Game) -> Vec<Vec<u16>> {
    let positions = &game.board.positions;
    let n = positions.len();
    let identity: Vec<u16> = (0..n as u16).collect();
    let centre = |i: usize| -> Option<(i64, i64)> {
        let p = &positions[i];
        if p.dummy {
            return None;
        }
        p.rect
            .or(p.layout)
            .map(|[x1, y1, x2, y2]| (i64::from(x1) + i64::from(x2), i64::from(y1) + i64::from(y2)))
    };
    let centres: Vec<Option<(i64, i64)>> = (0..n).map(centre).collect();
    let placed: Vec<(i64, i64)> = centres.iter().flatten().copied().collect();
    let mut maps = vec![identity];
    if placed.is_empty() {
        return maps;
    }
    let (x0, x1) = (
        placed.iter().map(|c| c.0).min().unwrap_or(0),
        placed.iter().map(|c| c.0).max().unwrap_or(0),
    );
    let (y0, y1) = (
        placed.iter().map(|c| c.1).min().unwrap_or(0),
        placed.iter().map(|c| c.1).max().unwrap_or(0),
    );
    let mut at = std::collections::HashMap::new();
    for (i, c) in centres.iter().enumerate() {
        if let Some(c) = c {
            // Two positions drawn at one place make the geometry ambiguous: no map but the board unchanged.
            if at.insert(*c, i as u16).is_some() {
                return maps;
            }
        }
    }
    for (fx, fy) in [(true, false), (false, true), (true, true)] {
        let mut m = Vec::with_capacity(n);
        let mut ok = true;
        for (i, c) in centres.iter().enumerate() {
            match c {
                None => m.push(i as u16),
                Some((x, y)) => {
                    let x = if fx { x0 + x1 - x } else { *x };
                    let y = if fy { y0 + y1 - y } else { *y };
                    match at.get(&(x, y)) {
                        Some(&j) => m.push(j),
                        None => {
                            ok = false;
                            break;
                        }
                    }
                }
            }
        }
        if ok {
            maps.push(m);
        }
    }
    maps
}

/// Links on which player `q`'s directions, read through the map, are the first player's: a step from `p` in
/// direction `d` as `q` lands where the first player's step in `d` lands from the image of `p`.
fn links_kept(game: &Game, q: usize, m: &[u16]) -> i64 {
    let b = &game.board;
    let nd = b.directions.len();
    let mut kept = 0;
    for p in 0..b.positions.len() {
        for d in 0..nd {
            let there = b.step(
                Player(q as u8),
                Pos(p as u16),
                crate::compile::Dir(d as u16),
            );
            let mine = b.step(Player(0), Pos(m[p]), crate::compile::Dir(d as u16));
            if there.map(|t| m[t.idx()]) == mine.map(|t| t.0) {
                kept += 1;
            }
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::testgames::load_zrf;

    fn load(path: &str) -> Game {
        let text = std::fs::read_to_string(path).unwrap();
        load_zrf(path, &text)
    }

    fn at(game: &Game, name: &str) -> usize {
        game.board.position(name).unwrap().idx()
    }

    /// Chess: Black's a8 is White's a1 and its e8 (the king's square) is White's e1: the mirror top to bottom.
    #[test]
    fn chess_frames_mirror_top_to_bottom() {
        let game = load("games/chess.zrf");
        let f = frames(&game);
        assert_eq!(f[1][at(&game, "a8")] as usize, at(&game, "a1"));
        assert_eq!(f[1][at(&game, "e8")] as usize, at(&game, "e1"));
        assert_eq!(f[1][at(&game, "d7")] as usize, at(&game, "d2"));
        assert_eq!(f[0][at(&game, "d7")] as usize, at(&game, "d7"));
    }

    /// English checkers: the men stand on the dark squares for both sides; Black's h8 is White's a1 (the half
    /// turn), so a square keeps its colour.
    #[test]
    fn checkers_frames_turn_the_board() {
        let game = load("games/english-checkers.zrf");
        let f = frames(&game);
        let a1 = at(&game, "a1");
        let h8 = at(&game, "h8");
        assert_eq!(f[1][h8] as usize, a1);
        assert_eq!(f[1][a1] as usize, h8);
        assert_eq!(f[1][at(&game, "c3")] as usize, at(&game, "f6"));
    }

    #[test]
    fn a_row_of_the_wrong_length_is_an_error_naming_it() {
        let game = load("games/english-checkers.zrf");
        let n = game.board.positions.len();
        let e = SquareTable::new(&game, &[vec![0.0; n], vec![0.0; n - 1]]).unwrap_err();
        assert!(e.contains("row 2 (King)"), "{e}");
        let e = SquareTable::new(&game, &[vec![0.0; n]]).unwrap_err();
        assert!(e.contains("2 piece types"), "{e}");
        let t = SquareTable::new(&game, &[vec![0.0; n], vec![1.0; n]]).unwrap();
        assert_eq!(t.value(Player(1), 1, 3), 1.0);
    }
}
