//! The tables machinery shared by the modules `backgammon` (`super::backgammon`) and `long-nardy`
//! (`super::long_nardy`): two players racing fifteen checkers each round 24 points with two dice thrown by a
//! random player, a player's move being the whole turn. What differs between the games is a [`Rules`]
//! value: where each side's path runs, whether a single enemy checker is hit or blocks, the head rule and
//! the six-point-prime rule of Long Nardy, whether the first throw may be a double, and the names of the
//! ends.
//!
//! What a module reads from the file (`check` refuses a file without it): players `White`, `Black` (the
//! first two players) and a random player; positions `p1`..`p24` (numbered along White's path: White moves
//! from `p24` towards `p1` and bears off from `p1`-`p6`), the trays `woff`, `boff`, the dice `die1`, `die2`,
//! and, in a game with hits, the bars `wbar`, `bbar`; a piece `Checker` with an integer attribute `count`
//! (the number of checkers on a point: a point holds one piece), and the dice pieces `One`..`Six`. In the
//! setup, a point listed n times holds n checkers (the module's `setup` counts them).
//!
//! A player's move is the whole turn: one part per checker step (`p13-p7 p8-p7`, `wbar-p22-p17`), whose
//! actions change the counts (`SetIntAttribute`), move a single checker (`Move`), put a checker on an
//! empty point or the tray (`Place`); a hit adds a part that puts the bar's new count there (`Place`), shown
//! as `Checker@bbar`. Sequences that reach the same position are one move.

use crate::compile::Module;
use crate::compile::{Game, PieceType, Player, Pos};
use crate::engine::state::initial_attrs;
use crate::engine::Hooks;
use crate::engine::{Action, EngineError, Move, Outcome, Part, Piece, State};
use rustc_hash::FxHashSet;

const CHECKERS: u8 = 15;
const POINT_NAMES: [&str; 24] = [
    "p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8", "p9", "p10", "p11", "p12", "p13", "p14", "p15",
    "p16", "p17", "p18", "p19", "p20", "p21", "p22", "p23", "p24",
];
const DICE_NAMES: [&str; 6] = ["One", "Two", "Three", "Four", "Five", "Six"];

/// Where Black's path runs, White's being always `p24` -> `p1`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Paths {
    /// Backgammon: Black moves the other way, `p1` -> `p24` (Black's own point n is `p(25-n)`).
    Opposite,
    /// Long Nardy: both the same way round; Black starts on `p12` and moves `p12` -> `p1` -> `p24` -> `p13`
    /// (Black's own point n is `p((n + 11) mod 24 + 1)`: its 24-point `p12`, its home `p13`-`p18`).
    Parallel,
}

/// The rules of one tables game, for [`Tables`].
pub struct Rules {
    pub paths: Paths,
    /// A checker landing on a single enemy checker hits it (to the bar, which the board then needs); without,
    /// any enemy checker blocks its point and the game has no bar.
    pub hits: bool,
    /// The head rule: at most one checker leaves the own 24-point (the head) in a turn, except on a player's
    /// first throw with one of these doubles, when two may. `None`: no head rule.
    pub head_doubles: Option<&'static [i32]>,
    /// No six-point prime: a step may not make six or more consecutive points (along the opponent's path)
    /// held by the mover unless an enemy checker is already past them.
    pub no_prime: bool,
    /// The first throw of the game may be a double (backgammon's opening throw never is).
    pub first_double: bool,
    /// The end when the loser has borne off no checker: its end type and name (`None`: a plain win).
    pub shutout: Option<(&'static str, &'static str)>,
}

/// A tables module: a name, a description, the rules, the missing rules it covers.
pub struct Tables {
    pub name: &'static str,
    pub description: &'static str,
    pub rules: Rules,
    pub covers: &'static [&'static str],
}

/// The places the module reads, resolved from the game's names.
struct Layout {
    /// `points[i]`: White's point i+1.
    points: [Pos; 24],
    /// The bars, in a game with hits.
    bar: Option<[Pos; 2]>,
    off: [Pos; 2],
    dice: [Pos; 2],
    checker: PieceType,
    /// The integer field of `count` on a checker.
    count: u8,
    faces: [PieceType; 6],
    /// The random player, who throws the dice.
    thrower: Player,
}

fn layout(game: &Game, rules: &Rules) -> Result<Layout, String> {
    let pos = |n: &str| {
        game.board
            .position(n)
            .ok_or_else(|| format!("the board needs a position `{n}`"))
    };
    let mut points = [Pos(0); 24];
    for (p, name) in points.iter_mut().zip(POINT_NAMES) {
        *p = pos(name)?;
    }
    let piece = |n: &str| {
        game.piece_type(n)
            .ok_or_else(|| format!("the game needs a piece `{n}`"))
    };
    let checker = piece("Checker")?;
    let count_attr = game
        .attributes
        .iter()
        .position(|a| a.eq_ignore_ascii_case("count"))
        .and_then(|a| game.int_attributes.iter().position(|x| x.idx() == a))
        .ok_or("the piece `Checker` needs an integer attribute, `(attribute count +1)`")?;
    let mut faces = [PieceType(0); 6];
    for (f, n) in faces.iter_mut().zip(DICE_NAMES) {
        *f = piece(n)?;
    }
    if game.players.len() < 3 || game.players[..2].iter().any(|p| p.random) {
        return Err("the players are White, Black and a random player that throws the dice".into());
    }
    let thrower = game
        .players
        .iter()
        .position(|p| p.random)
        .ok_or("the game needs a random player (`?Dice`) to throw the dice")?;
    let bar = if rules.hits {
        Some([pos("wbar")?, pos("bbar")?])
    } else {
        None
    };
    Ok(Layout {
        points,
        bar,
        off: [pos("woff")?, pos("boff")?],
        dice: [pos("die1")?, pos("die2")?],
        checker,
        count: count_attr as u8,
        faces,
        thrower: Player(thrower as u8),
    })
}

/// The absolute index (0..24, White's point minus one) of `side`'s own point `rel` (1..=24, counted from its
/// own home: 24 is where its path starts).
#[inline]
fn abs(paths: Paths, side: usize, rel: i32) -> usize {
    if side == 0 {
        rel as usize - 1
    } else if paths == Paths::Opposite {
        (24 - rel) as usize
    } else {
        ((rel + 11) % 24) as usize
    }
}

/// `side`'s own point number (1..=24) of the absolute index `i`: the inverse of [`abs`].
#[inline]
fn rel(paths: Paths, side: usize, i: usize) -> i32 {
    if side == 0 {
        i as i32 + 1
    } else if paths == Paths::Opposite {
        24 - i as i32
    } else {
        ((i + 12) % 24) as i32 + 1
    }
}

/// The checkers, compactly: `pts[i]` White's point i+1, positive for White's checkers, negative for Black's.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Board {
    pts: [i8; 24],
    bar: [u8; 2],
    off: [u8; 2],
}

impl Board {
    fn read(l: &Layout, s: &State) -> Board {
        let n = |p: Pos| {
            s.get(p)
                .map_or(0, |x| x.attrs.get_int(l.count as usize).max(0) as u8)
        };
        let mut b = Board {
            pts: [0; 24],
            bar: l.bar.map_or([0, 0], |bar| [n(bar[0]), n(bar[1])]),
            off: [n(l.off[0]), n(l.off[1])],
        };
        for (i, &p) in l.points.iter().enumerate() {
            if let Some(x) = s.get(p) {
                let c = x.attrs.get_int(l.count as usize).max(0);
                b.pts[i] = if x.owner.0 == 0 { c } else { -c };
            }
        }
        b
    }

    /// `side`'s checkers on the absolute index `i`.
    #[inline]
    fn own_at(&self, side: usize, i: usize) -> u8 {
        let v = self.pts[i];
        (if side == 0 { v } else { -v }).max(0) as u8
    }

    fn own(&self, r: &Rules, side: usize, rel: i32) -> u8 {
        self.own_at(side, abs(r.paths, side, rel))
    }

    fn enemy(&self, r: &Rules, side: usize, rel: i32) -> u8 {
        self.own_at(1 - side, abs(r.paths, side, rel))
    }

    fn all_home(&self, r: &Rules, side: usize) -> bool {
        self.bar[side] == 0 && (7..=24).all(|p| self.own(r, side, p) == 0)
    }

    /// Whether `side`'s checkers on the absolute index `i` are part of six or more consecutive points, along
    /// the opponent's path, that no enemy checker has passed yet (Long Nardy's forbidden prime).
    fn closes_prime(&self, r: &Rules, side: usize, i: usize) -> bool {
        let other = 1 - side;
        let e = rel(r.paths, other, i);
        let held = |q: i32| (1..=24).contains(&q) && self.own_at(side, abs(r.paths, other, q)) > 0;
        let mut lo = e;
        while held(lo - 1) {
            lo -= 1;
        }
        let mut hi = e;
        while held(hi + 1) {
            hi += 1;
        }
        hi - lo + 1 >= 6 && !(1..lo).any(|q| self.own_at(other, abs(r.paths, other, q)) > 0)
    }
}

/// One checker step of a turn, in the mover's count: from `from` (25 = the bar) by `die`; `to` 0 = borne off.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Step {
    from: i32,
    to: i32,
}

/// The steps the mover may take with one die; `head_ok`: a checker may still leave the head (point 24).
fn steps(r: &Rules, b: &Board, side: usize, die: i32, head_ok: bool, out: &mut Vec<Step>) {
    let open = |to: i32| {
        let enemy = b.enemy(r, side, to);
        if r.hits {
            enemy <= 1
        } else {
            enemy == 0
        }
    };
    if b.bar[side] > 0 {
        let to = 25 - die;
        if open(to) {
            out.push(Step { from: 25, to });
        }
        return;
    }
    let home = b.all_home(r, side);
    let highest = (1..=24).rev().find(|&p| b.own(r, side, p) > 0).unwrap_or(0);
    for from in 1..=24 {
        if b.own(r, side, from) == 0 || (from == 24 && !head_ok) {
            continue;
        }
        let to = from - die;
        if to >= 1 {
            if open(to)
                && !(r.no_prime && b.own(r, side, to) == 0 && makes_prime(r, b, side, from, to))
            {
                out.push(Step { from, to });
            }
        } else if home && (to == 0 || from == highest) {
            out.push(Step { from, to: 0 });
        }
    }
}

/// Whether the step `from` -> `to` (onto a point the mover does not hold yet) makes a forbidden prime.
fn makes_prime(r: &Rules, b: &Board, side: usize, from: i32, to: i32) -> bool {
    let mut next = *b;
    play(r, &mut next, side, Step { from, to });
    next.closes_prime(r, side, abs(r.paths, side, to))
}

/// Plays a step on the compact board.
fn play(r: &Rules, b: &mut Board, side: usize, st: Step) {
    let sign: i8 = if side == 0 { 1 } else { -1 };
    if st.from == 25 {
        b.bar[side] -= 1;
    } else {
        b.pts[abs(r.paths, side, st.from)] -= sign;
    }
    if st.to == 0 {
        b.off[side] += 1;
    } else {
        let i = abs(r.paths, side, st.to);
        if b.enemy(r, side, st.to) == 1 {
            b.pts[i] = 0;
            b.bar[1 - side] += 1;
        }
        b.pts[i] += sign;
    }
}

/// What stays fixed while the sequences of one turn are listed.
struct Turn<'a> {
    r: &'a Rules,
    side: usize,
    /// How many checkers may leave the head in this turn (`u8::MAX`: no head rule).
    head_max: u8,
    /// The head's checkers at the start of the turn (a checker never comes back to it, so the board tells
    /// how many have left).
    head_start: u8,
}

/// Every maximal sequence of steps from `b` with the dice still to play: (steps with their dice, final
/// board). A board already reached with the same dice left is not expanded again: what follows from it is
/// the same (a double reaches most boards in many orders).
fn sequences(
    t: &Turn,
    b: &Board,
    dice: &mut Vec<i32>,
    path: &mut Vec<(Step, i32)>,
    seen: &mut FxHashSet<(Board, usize, i32)>,
    out: &mut Vec<(Vec<(Step, i32)>, Board)>,
) {
    // The dice left, as a key: how many, and their sum (two dice of a throw differ, so the sum tells which).
    if !seen.insert((*b, dice.len(), dice.iter().sum())) {
        return;
    }
    let head_ok = t.head_max == u8::MAX || t.head_start - b.own(t.r, t.side, 24) < t.head_max;
    let mut moved = false;
    let mut tried: Vec<i32> = vec![];
    for k in 0..dice.len() {
        let d = dice[k];
        if tried.contains(&d) {
            continue;
        }
        tried.push(d);
        let mut st = vec![];
        steps(t.r, b, t.side, d, head_ok, &mut st);
        for s in st {
            moved = true;
            let mut next = *b;
            play(t.r, &mut next, t.side, s);
            dice.remove(k);
            path.push((s, d));
            sequences(t, &next, dice, path, seen, out);
            path.pop();
            dice.insert(k, d);
        }
    }
    if !moved {
        out.push((path.clone(), *b));
    }
}

impl Tables {
    /// The 36 throws (30 on the first turn of the game when its first throw is never a double).
    fn throws(&self, l: &Layout, game: &Game, state: &State) -> Vec<Move> {
        let mut out = vec![];
        let die = |n: usize| Piece {
            kind: l.faces[n],
            owner: l.thrower,
            attrs: initial_attrs(game, l.faces[n]),
            dead: false,
        };
        for a in 0..6 {
            for b in 0..6 {
                if a == b && state.ply() == 0 && !self.rules.first_double {
                    continue;
                }
                out.push(Move {
                    parts: vec![Part {
                        actions: vec![
                            Action::Place {
                                at: l.dice[0],
                                piece: die(a),
                                reserve: false,
                            },
                            Action::Place {
                                at: l.dice[1],
                                piece: die(b),
                                reserve: false,
                            },
                        ],
                        from: None,
                        to: Some(l.dice[0]),
                        piece: l.faces[a],
                        move_type: None,
                    }],
                });
            }
        }
        out
    }

    /// The whole turns of `side` with the dice on the board.
    fn turns(&self, l: &Layout, game: &Game, state: &State, side: usize) -> Vec<Move> {
        let r = &self.rules;
        let face = |p: Pos| {
            state
                .get(p)
                .and_then(|x| l.faces.iter().position(|&f| f == x.kind))
                .map(|i| i as i32 + 1)
        };
        let (Some(a), Some(b)) = (face(l.dice[0]), face(l.dice[1])) else {
            return vec![Move::default()];
        };
        let board = Board::read(l, state);
        let mut dice = if a == b { vec![a; 4] } else { vec![a, b] };
        let head_start = board.own(r, side, 24);
        let head_max = match r.head_doubles {
            None => u8::MAX,
            // The player's first throw: all fifteen still on the head (none ever comes back to it).
            Some(ds) if a == b && head_start == CHECKERS && ds.contains(&a) => 2,
            Some(_) => 1,
        };
        let turn = Turn {
            r,
            side,
            head_max,
            head_start,
        };
        let mut all = vec![];
        sequences(
            &turn,
            &board,
            &mut dice,
            &mut vec![],
            &mut FxHashSet::default(),
            &mut all,
        );
        let most = all.iter().map(|(p, _)| p.len()).max().unwrap_or(0);
        if most == 0 {
            return vec![Move::default()];
        }
        all.retain(|(p, _)| p.len() == most);
        // One die only: the larger, when it can be played.
        if most == 1 && a != b {
            let larger = a.max(b);
            if all.iter().any(|(p, _)| p[0].1 == larger) {
                all.retain(|(p, _)| p[0].1 == larger);
            }
        }
        let mut seen: FxHashSet<Board> = FxHashSet::default();
        let mut moves = vec![];
        for (path, end) in all {
            if !seen.insert(end) {
                continue;
            }
            moves.push(self.to_move(l, game, &board, side, &path));
        }
        moves
    }

    /// The actions of a sequence of steps, part by part.
    fn to_move(
        &self,
        l: &Layout,
        game: &Game,
        start: &Board,
        side: usize,
        path: &[(Step, i32)],
    ) -> Move {
        let r = &self.rules;
        let mut b = *start;
        let checker = |owner: usize| {
            let mut attrs = initial_attrs(game, l.checker);
            attrs.set_int(l.count as usize, 1);
            attrs.set(game.int_attributes[l.count as usize].idx(), true);
            Piece {
                kind: l.checker,
                owner: Player(owner as u8),
                attrs,
                dead: false,
            }
        };
        let set = |at: Pos, n: u8| Action::SetIntAttribute {
            at,
            field: l.count,
            value: n as i8,
        };
        let mut parts = vec![];
        for &(st, _) in path {
            let (src, c) = match (st.from, l.bar) {
                (25, Some(bar)) => (bar[side], b.bar[side]),
                _ => (
                    l.points[abs(r.paths, side, st.from)],
                    b.own(r, side, st.from),
                ),
            };
            let (dst, d, hit) = if st.to == 0 {
                (l.off[side], b.off[side], false)
            } else {
                (
                    l.points[abs(r.paths, side, st.to)],
                    b.own(r, side, st.to),
                    b.enemy(r, side, st.to) == 1,
                )
            };
            let mut actions = vec![];
            if c == 1 {
                // The last checker there moves itself (onto an empty point, or replacing a blot).
                actions.push(Action::Move { from: src, to: dst });
                if d > 0 {
                    actions.push(set(dst, d + 1));
                }
            } else {
                actions.push(set(src, c - 1));
                if d == 0 {
                    actions.push(Action::Place {
                        at: dst,
                        piece: checker(side),
                        reserve: false,
                    });
                } else {
                    actions.push(set(dst, d + 1));
                }
            }
            // A hit is a part of its own, after the step: the bar with its new count (`Checker@bbar` in the
            // notation, which then names the next step in full rather than chaining it to the bar).
            let hit_part = match l.bar {
                Some(bar) if hit => {
                    let mut piece = checker(1 - side);
                    piece
                        .attrs
                        .set_int(l.count as usize, b.bar[1 - side] as i8 + 1);
                    Some(Part {
                        actions: vec![Action::Place {
                            at: bar[1 - side],
                            piece,
                            reserve: false,
                        }],
                        from: None,
                        to: None,
                        piece: l.checker,
                        move_type: None,
                    })
                }
                _ => None,
            };
            play(r, &mut b, side, st);
            parts.push(Part {
                actions,
                from: Some(src),
                to: Some(dst),
                piece: l.checker,
                move_type: None,
            });
            parts.extend(hit_part);
        }
        Move { parts }
    }
}

impl Module for Tables {
    fn name(&self) -> &'static str {
        self.name
    }

    fn description(&self) -> &'static str {
        self.description
    }

    fn check(&self, game: &Game) -> Result<(), String> {
        layout(game, &self.rules).map(|_| ())
    }

    fn covers(&self) -> &[&str] {
        self.covers
    }
}

impl Hooks for Tables {
    fn setup(&self, game: &Game, state: &mut State) {
        let Ok(l) = layout(game, &self.rules) else {
            return;
        };
        // A point listed n times in the setup holds n checkers.
        for &(player, kind, pos) in &game.setup.pieces {
            if kind != l.checker {
                continue;
            }
            let n = game
                .setup
                .pieces
                .iter()
                .filter(|&&(p, k, q)| p == player && k == kind && q == pos)
                .count();
            if let Some(mut x) = state.get(pos) {
                x.attrs.set_int(l.count as usize, n as i8);
                state.set(pos, Some(x));
            }
        }
    }

    fn moves(&self, game: &Game, state: &State, moves: &mut Vec<Move>) -> Result<(), EngineError> {
        let l = layout(game, &self.rules).map_err(EngineError)?;
        let entry = &game.turn_order.entries[state.turn()];
        *moves = if game.players[entry.player.idx()].random {
            self.throws(&l, game, state)
        } else if entry.player.idx() < 2 {
            self.turns(&l, game, state, entry.player.idx())
        } else {
            vec![Move::default()]
        };
        Ok(())
    }

    fn outcome(&self, game: &Game, state: &State, _: &[Move], _: &[u64]) -> Option<Outcome> {
        let l = layout(game, &self.rules).ok()?;
        let b = Board::read(&l, state);
        let winner = (0..2).find(|&s| b.off[s] >= CHECKERS)?;
        let results = (0..game.players.len())
            .map(|p| match p {
                _ if p == winner => 1,
                0 | 1 => -1,
                _ => 0,
            })
            .collect();
        let (end_type, name) = match self.rules.shutout {
            Some(named) if b.off[1 - winner] == 0 => named,
            _ => ("borne-off", "all checkers borne off"),
        };
        Some(Outcome {
            results,
            end_type: end_type.into(),
            name: name.into(),
            priority: 0,
        })
    }

    fn evaluate(&self, game: &Game, state: &State, player: Player) -> Option<f64> {
        // The race: the pip count of the opponent less the player's own (a checker on the bar counts 25).
        let r = &self.rules;
        let l = layout(game, r).ok()?;
        let b = Board::read(&l, state);
        let pips = |side: usize| -> i32 {
            (1..=24).map(|p| p * b.own(r, side, p) as i32).sum::<i32>() + 25 * b.bar[side] as i32
        };
        let p = player.idx();
        (p < 2).then(|| (pips(1 - p) - pips(p)) as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_sides_points_map_onto_the_board_and_back() {
        for paths in [Paths::Opposite, Paths::Parallel] {
            for side in 0..2 {
                let mut seen = [false; 24];
                for p in 1..=24 {
                    let i = abs(paths, side, p);
                    assert!(!seen[i]);
                    seen[i] = true;
                    assert_eq!(rel(paths, side, i), p);
                }
            }
        }
        // Long Nardy: Black's head (its 24-point) is White's 12-point, its home White's 13-18.
        assert_eq!(abs(Paths::Parallel, 1, 24), 11);
        assert_eq!(abs(Paths::Parallel, 1, 1), 12);
        assert_eq!(abs(Paths::Parallel, 1, 6), 17);
        // Backgammon: Black's 24-point is White's 1-point.
        assert_eq!(abs(Paths::Opposite, 1, 24), 0);
    }
}
