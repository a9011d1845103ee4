//! `backgammon`: the moves and the end of standard backgammon, for a file that gives the board, the pieces,
//! the start and the turn order (`games/backgammon.zrf`). Rules as published by the World Backgammon
//! Federation / US Backgammon Federation ("Rules of Backgammon"; also Wikipedia, "Backgammon"):
//!
//! * Each turn starts with a throw of two dice; the throw is the move of the random player (`?Dice`), one
//!   move per ordered pair of numbers (36), so that a uniform choice gives each throw its real probability.
//!   The first throw of the game is never a double (the opening throw is thrown again on a tie).
//! * A checker moves exactly the number of a die towards its home, to a point that is not held by two or more
//!   enemy checkers. Landing on a single enemy checker (a blot) hits it: it goes to its owner's bar.
//! * A player with a checker on the bar must enter it, into the opponent's home board (the point 25 - n in
//!   the player's own count), before moving any other checker; a closed point cannot be entered.
//! * A double is played four times. Both numbers must be used when possible; when only one can be, the
//!   larger must be used if it can be; a player who can use no number loses the turn (a pass).
//! * With all fifteen checkers in the home board (points 1-6), a checker is borne off with the number of its
//!   point, or with a higher number from the highest occupied point. A checker hit in the meantime must come
//!   home again before bearing off goes on.
//! * The first player to bear off all fifteen checkers wins. No doubling cube; a gammon or backgammon is a
//!   plain win.
//!
//! What the module reads from the file (`check` refuses a file without it): players `White`, `Black` (the
//! first two players: White counts its points as `p1`..`p24` and moves towards `p1`, Black counts them the
//! other way and moves towards `p24`) and a random player; positions `p1`..`p24`, the bars `wbar`, `bbar`,
//! the trays `woff`, `boff`, the dice `die1`, `die2`; a piece `Checker` with an integer attribute `count`
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

/// The module (registered in `super::MODULES`).
pub struct Backgammon;

const CHECKERS: u8 = 15;
const POINT_NAMES: [&str; 24] = [
    "p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8", "p9", "p10", "p11", "p12", "p13", "p14", "p15",
    "p16", "p17", "p18", "p19", "p20", "p21", "p22", "p23", "p24",
];
const DICE_NAMES: [&str; 6] = ["One", "Two", "Three", "Four", "Five", "Six"];

/// The places the module reads, resolved from the game's names.
struct Layout {
    /// `points[i]`: White's point i+1.
    points: [Pos; 24],
    bar: [Pos; 2],
    off: [Pos; 2],
    dice: [Pos; 2],
    checker: PieceType,
    /// The integer field of `count` on a checker.
    count: u8,
    faces: [PieceType; 6],
    /// The random player, who throws the dice.
    thrower: Player,
}

fn layout(game: &Game) -> Result<Layout, String> {
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
    Ok(Layout {
        points,
        bar: [pos("wbar")?, pos("bbar")?],
        off: [pos("woff")?, pos("boff")?],
        dice: [pos("die1")?, pos("die2")?],
        checker,
        count: count_attr as u8,
        faces,
        thrower: Player(thrower as u8),
    })
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
            bar: [n(l.bar[0]), n(l.bar[1])],
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

    /// The absolute index (0..24) of the mover's point `rel` (1..=24, counted from its own home).
    fn abs(side: usize, rel: i32) -> usize {
        if side == 0 {
            rel as usize - 1
        } else {
            (24 - rel) as usize
        }
    }

    fn own(&self, side: usize, rel: i32) -> u8 {
        let v = self.pts[Board::abs(side, rel)];
        (if side == 0 { v } else { -v }).max(0) as u8
    }

    fn enemy(&self, side: usize, rel: i32) -> u8 {
        let v = self.pts[Board::abs(side, rel)];
        (if side == 0 { -v } else { v }).max(0) as u8
    }

    fn all_home(&self, side: usize) -> bool {
        self.bar[side] == 0 && (7..=24).all(|r| self.own(side, r) == 0)
    }
}

/// One checker step of a turn, in the mover's count: from `from` (25 = the bar) by `die`; `to` 0 = borne off.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Step {
    from: i32,
    to: i32,
}

/// The steps the mover may take with one die.
fn steps(b: &Board, side: usize, die: i32, out: &mut Vec<Step>) {
    if b.bar[side] > 0 {
        let to = 25 - die;
        if b.enemy(side, to) <= 1 {
            out.push(Step { from: 25, to });
        }
        return;
    }
    let home = b.all_home(side);
    let highest = (1..=24).rev().find(|&r| b.own(side, r) > 0).unwrap_or(0);
    for from in 1..=24 {
        if b.own(side, from) == 0 {
            continue;
        }
        let to = from - die;
        if to >= 1 {
            if b.enemy(side, to) <= 1 {
                out.push(Step { from, to });
            }
        } else if home && (to == 0 || from == highest) {
            out.push(Step { from, to: 0 });
        }
    }
}

/// Plays a step on the compact board.
fn play(b: &mut Board, side: usize, st: Step) {
    let sign: i8 = if side == 0 { 1 } else { -1 };
    if st.from == 25 {
        b.bar[side] -= 1;
    } else {
        b.pts[Board::abs(side, st.from)] -= sign;
    }
    if st.to == 0 {
        b.off[side] += 1;
    } else {
        let i = Board::abs(side, st.to);
        if b.enemy(side, st.to) == 1 {
            b.pts[i] = 0;
            b.bar[1 - side] += 1;
        }
        b.pts[i] += sign;
    }
}

/// Every maximal sequence of steps from `b` with the dice still to play: (steps with their dice, final
/// board). A board already reached with the same dice left is not expanded again: what follows from it is
/// the same (a double reaches most boards in many orders).
fn sequences(
    b: &Board,
    side: usize,
    dice: &mut Vec<i32>,
    path: &mut Vec<(Step, i32)>,
    seen: &mut FxHashSet<(Board, usize, i32)>,
    out: &mut Vec<(Vec<(Step, i32)>, Board)>,
) {
    // The dice left, as a key: how many, and their sum (two dice of a throw differ, so the sum tells which).
    if !seen.insert((*b, dice.len(), dice.iter().sum())) {
        return;
    }
    let mut moved = false;
    let mut tried: Vec<i32> = vec![];
    for k in 0..dice.len() {
        let d = dice[k];
        if tried.contains(&d) {
            continue;
        }
        tried.push(d);
        let mut st = vec![];
        steps(b, side, d, &mut st);
        for s in st {
            moved = true;
            let mut next = *b;
            play(&mut next, side, s);
            dice.remove(k);
            path.push((s, d));
            sequences(&next, side, dice, path, seen, out);
            path.pop();
            dice.insert(k, d);
        }
    }
    if !moved {
        out.push((path.clone(), *b));
    }
}

impl Backgammon {
    /// The 36 throws (30 on the first turn of the game: no double).
    fn throws(l: &Layout, game: &Game, state: &State) -> Vec<Move> {
        let mut out = vec![];
        let die = |n: usize| Piece {
            kind: l.faces[n],
            owner: l.thrower,
            attrs: initial_attrs(game, l.faces[n]),
            dead: false,
        };
        for a in 0..6 {
            for b in 0..6 {
                if a == b && state.ply() == 0 {
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
    fn turns(l: &Layout, game: &Game, state: &State, side: usize) -> Vec<Move> {
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
        let mut all = vec![];
        sequences(
            &board,
            side,
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
            moves.push(Backgammon::to_move(l, game, &board, side, &path));
        }
        moves
    }

    /// The actions of a sequence of steps, part by part.
    fn to_move(l: &Layout, game: &Game, start: &Board, side: usize, path: &[(Step, i32)]) -> Move {
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
            let (src, c) = if st.from == 25 {
                (l.bar[side], b.bar[side])
            } else {
                (l.points[Board::abs(side, st.from)], b.own(side, st.from))
            };
            let (dst, d, hit) = if st.to == 0 {
                (l.off[side], b.off[side], false)
            } else {
                (
                    l.points[Board::abs(side, st.to)],
                    b.own(side, st.to),
                    b.enemy(side, st.to) == 1,
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
            let hit_part = hit.then(|| {
                let mut piece = checker(1 - side);
                piece
                    .attrs
                    .set_int(l.count as usize, b.bar[1 - side] as i8 + 1);
                Part {
                    actions: vec![Action::Place {
                        at: l.bar[1 - side],
                        piece,
                        reserve: false,
                    }],
                    from: None,
                    to: None,
                    piece: l.checker,
                    move_type: None,
                }
            });
            play(&mut b, side, st);
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

impl Module for Backgammon {
    fn name(&self) -> &'static str {
        "backgammon"
    }

    fn description(&self) -> &'static str {
        "backgammon: throws of two dice by the random player, whole turns with hits, the bar, bearing off and the \
         use of both dice; bearing off all fifteen wins"
    }

    fn check(&self, game: &Game) -> Result<(), String> {
        layout(game).map(|_| ())
    }

    fn covers(&self) -> &[&str] {
        // `setup` reads a point listed n times in the board setup as n checkers (the `count` attribute).
        &["no-end-condition", "stacked-setup"]
    }
}

impl Hooks for Backgammon {
    fn setup(&self, game: &Game, state: &mut State) {
        let Ok(l) = layout(game) else { return };
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
        let l = layout(game).map_err(EngineError)?;
        let entry = &game.turn_order.entries[state.turn()];
        *moves = if game.players[entry.player.idx()].random {
            Backgammon::throws(&l, game, state)
        } else if entry.player.idx() < 2 {
            Backgammon::turns(&l, game, state, entry.player.idx())
        } else {
            vec![Move::default()]
        };
        Ok(())
    }

    fn outcome(&self, game: &Game, state: &State, _: &[Move], _: &[u64]) -> Option<Outcome> {
        let l = layout(game).ok()?;
        let b = Board::read(&l, state);
        let winner = (0..2).find(|&s| b.off[s] >= CHECKERS)?;
        let results = (0..game.players.len())
            .map(|p| match p {
                _ if p == winner => 1,
                0 | 1 => -1,
                _ => 0,
            })
            .collect();
        Some(Outcome {
            results,
            end_type: "borne-off".into(),
            name: "all checkers borne off".into(),
            priority: 0,
        })
    }

    fn evaluate(&self, game: &Game, state: &State, player: Player) -> Option<f64> {
        // The race: the pip count of the opponent less the player's own (a checker on the bar counts 25).
        let l = layout(game).ok()?;
        let b = Board::read(&l, state);
        let pips = |side: usize| -> i32 {
            (1..=24).map(|r| r * b.own(side, r) as i32).sum::<i32>() + 25 * b.bar[side] as i32
        };
        let p = player.idx();
        (p < 2).then(|| (pips(1 - p) - pips(p)) as f64)
    }
}
