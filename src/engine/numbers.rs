//! Numbers in move programs (`docs/language.md`, "Numbers"): evaluation of [`Expr`] and comparisons, move
//! variables, and the `connected` end condition. A child module of the interpreter (`gen`), so that it reads
//! the run's cursor and board the way the predicates do (every square read is tracked).

use crate::compile::*;
use crate::engine::moves::Action;
use crate::engine::run::{Run, Stop};
use crate::engine::state::State;

impl Run<'_> {
    /// Evaluates an integer expression. Division or `mod` by zero ends the path, like a failed `verify`.
    pub(in crate::engine) fn eval(&mut self, e: &Expr) -> Result<i64, Stop> {
        Ok(match e {
            Expr::Int(v) => *v,
            Expr::StateVar(v, p) => {
                let slot = slot(self.game, *v, p.unwrap_or(self.player));
                // A turn variable starts again with each move: its first part reads the start value.
                let var = &self.game.variables[*v as usize];
                let stored = if var.per_turn && self.state.trail.is_empty() {
                    var.init
                } else {
                    self.state.vars[slot]
                };
                // A value this program already set wins over the state's.
                self.changes
                    .iter()
                    .rev()
                    .find_map(|a| match a {
                        Action::SetVar { slot: s, value } if *s as usize == slot => Some(*value),
                        _ => None,
                    })
                    .unwrap_or(stored) as i64
            }
            Expr::Var(v) => self.vars.get(*v as usize).copied().unwrap_or(0),
            Expr::Arith(op, xs) => {
                let mut acc = self.eval(&xs[0])?;
                if xs.len() == 1 && *op == ArithOp::Sub {
                    return Ok(acc.wrapping_neg());
                }
                for x in &xs[1..] {
                    let v = self.eval(x)?;
                    acc = match op {
                        ArithOp::Add => acc.wrapping_add(v),
                        ArithOp::Sub => acc.wrapping_sub(v),
                        ArithOp::Mul => acc.wrapping_mul(v),
                        ArithOp::Div => acc.checked_div(v).ok_or(Stop::Path)?,
                        ArithOp::Mod => acc.checked_rem_euclid(v).ok_or(Stop::Path)?,
                        ArithOp::Min => acc.min(v),
                        ArithOp::Max => acc.max(v),
                    };
                }
                acc
            }
            Expr::Count(c) => self.count(c)?,
            Expr::Sum(s) => super::sow::sum(self.game, self.state, self.player, s),
            Expr::IntAttr(k, l) => {
                let pos = self.loc(*l);
                // A value this program already set on that square wins over the state's.
                let pending = self.changes.iter().rev().find_map(|a| match a {
                    Action::SetIntAttribute { at, field, value }
                        if Some(*at) == pos && *field == *k =>
                    {
                        Some(*value)
                    }
                    _ => None,
                });
                match pending {
                    Some(v) => v as i64,
                    None => pos
                        .and_then(|p| self.live(p))
                        .map_or(0, |x| x.attrs.get_int(*k as usize) as i64),
                }
            }
            Expr::PieceValue(l) => self
                .loc(*l)
                .and_then(|p| self.live(p))
                .filter(|x| !x.dead)
                .and_then(|x| self.game.pieces[x.kind.idx()].value)
                .map_or(0, |v| v.round() as i64),
            Expr::Liberties(l) | Expr::GroupSize(l) => match self.loc(*l) {
                Some(p) => {
                    let (libs, size) =
                        crate::engine::groups::group_of(self.game, &|q| self.owner_at(q), p);
                    if matches!(e, Expr::Liberties(_)) {
                        libs as i64
                    } else {
                        size as i64
                    }
                }
                None => 0,
            },
            Expr::Area(_) | Expr::Passes | Expr::QuietPlies => {
                eval_static(self.game, self.state, self.player, e)
            }
            Expr::Height(l) => self.loc(*l).map_or(0, |p| {
                self.live(p);
                self.state.height(p) as i64
            }),
        })
    }

    fn piece_at(&self, p: u16) -> bool {
        self.live(Pos(p)).is_some_and(|x| !x.dead)
    }

    /// Pieces from `from` along `dir` to the edge, `from` excluded.
    fn ray(&self, from: Pos, dir: Dir) -> i64 {
        let b = &self.game.board;
        let mut n = 0;
        let mut p = from;
        while let Some(q) = b.step(self.player, p, dir) {
            n += self.piece_at(q.0) as i64;
            p = q;
        }
        n
    }

    fn count(&mut self, c: &Counted) -> Result<i64, Stop> {
        let b = &self.game.board;
        Ok(match c {
            Counted::Ray(d) => self.ray(self.cursor, *d),
            Counted::Line(d) => {
                let back = b.opposite[d.idx()].map_or(0, |o| self.ray(self.cursor, o));
                self.piece_at(self.cursor.0) as i64 + self.ray(self.cursor, *d) + back
            }
            Counted::Zone(z) => {
                let z = *z;
                (0..b.positions.len())
                    .filter(|&i| b.in_zone(z, self.player, Pos(i as u16)))
                    .count() as i64
            }
            Counted::Positions(cond) => {
                let saved = self.cursor;
                let mut n = 0;
                let mut result = Ok(());
                for i in 0..self.game.board.positions.len() {
                    if self.game.board.positions[i].dummy {
                        continue;
                    }
                    self.cursor = Pos(i as u16);
                    match self.cond(cond) {
                        Ok(true) => n += 1,
                        Ok(false) => {}
                        Err(e) => {
                            result = Err(e);
                            break;
                        }
                    }
                }
                self.cursor = saved;
                result?;
                n
            }
        })
    }

    /// `(set-var v EXPR)`.
    pub(in crate::engine) fn set_var(&mut self, v: u16, e: &Expr) -> Result<(), Stop> {
        let x = self.eval(e)?;
        let i = v as usize;
        if self.vars.len() <= i {
            self.vars.resize(i + 1, 0);
        }
        self.vars[i] = x;
        Ok(())
    }

    /// `(set-var v EXPR)` on a game or player variable: recorded as a change of the part, as `set-attribute`
    /// is. The value is kept in the range of the state's 32-bit integers (saturating).
    pub(in crate::engine) fn set_state_var(&mut self, v: u16, e: &Expr) -> Result<(), Stop> {
        let x = self.eval(e)?;
        let slot = slot(self.game, v, self.player) as u16;
        let value = x.clamp(i32::MIN as i64, i32::MAX as i64) as i32;
        self.changes.push(Action::SetVar { slot, value });
        Ok(())
    }

    /// `(set-attribute hp EXPR [LOC])` on an integer attribute: a change of the part (it follows the moving
    /// piece, like `set-attribute`); the value saturates to the attribute's 8-bit range (-128..127).
    pub(in crate::engine) fn set_int_attribute(
        &mut self,
        k: u8,
        e: &Expr,
        l: Loc,
    ) -> Result<(), Stop> {
        let x = self.eval(e)?;
        let Some(at) = self.loc(l) else {
            return Err(Stop::Path);
        };
        let value = x.clamp(-128, 127) as i8;
        self.changes.push(Action::SetIntAttribute {
            at,
            field: k,
            value,
        });
        Ok(())
    }

    /// A comparison condition.
    pub(in crate::engine) fn compare(
        &mut self,
        op: CmpOp,
        ab: &(Expr, Expr),
    ) -> Result<bool, Stop> {
        let a = self.eval(&ab.0)?;
        let b = self.eval(&ab.1)?;
        Ok(op.holds(a, b))
    }
}

/// Whether `player`'s pieces of `types` (all types when empty) form one group under all the board's
/// directions, and there is at least one. Off-board positions and dead pieces do not count.
pub fn connected(game: &Game, state: &State, player: Player, types: &[PieceType]) -> bool {
    let b = &game.board;
    let mine = |i: usize| {
        !b.positions[i].dummy
            && state.cells[i].is_some_and(|x| {
                !x.dead && x.owner == player && (types.is_empty() || types.contains(&x.kind))
            })
    };
    let total = (0..state.cells.len()).filter(|&i| mine(i)).count();
    let Some(first) = (0..state.cells.len()).find(|&i| mine(i)) else {
        return false;
    };
    let nd = b.directions.len();
    let mut seen = vec![false; state.cells.len()];
    let mut stack = vec![first];
    seen[first] = true;
    let mut reached = 0;
    while let Some(p) = stack.pop() {
        reached += 1;
        for d in 0..nd {
            let q = b.links[p * nd + d];
            if q != NO_POS && !seen[q as usize] && mine(q as usize) {
                seen[q as usize] = true;
                stack.push(q as usize);
            }
        }
    }
    reached == total
}

/// The slot in `State::vars` of variable `v` (for `player`, when it is a player variable).
fn slot(game: &Game, v: u16, player: Player) -> usize {
    let var = &game.variables[v as usize];
    var.slot + if var.per_player { player.idx() } else { 0 }
}

/// A number of an end condition, for the tested player `p`: integers, variables and arithmetic (the compiler
/// allows nothing else there). Division by zero gives 0.
pub fn eval_static(game: &Game, state: &State, p: Player, e: &Expr) -> i64 {
    match e {
        Expr::Int(v) => *v,
        Expr::StateVar(v, q) => state.vars[slot(game, *v, q.unwrap_or(p))] as i64,
        Expr::Arith(op, xs) => {
            let mut acc = eval_static(game, state, p, &xs[0]);
            if xs.len() == 1 && *op == ArithOp::Sub {
                return acc.wrapping_neg();
            }
            for x in &xs[1..] {
                let v = eval_static(game, state, p, x);
                acc = match op {
                    ArithOp::Add => acc.wrapping_add(v),
                    ArithOp::Sub => acc.wrapping_sub(v),
                    ArithOp::Mul => acc.wrapping_mul(v),
                    ArithOp::Div => acc.checked_div(v).unwrap_or(0),
                    ArithOp::Mod => acc.checked_rem_euclid(v).unwrap_or(0),
                    ArithOp::Min => acc.min(v),
                    ArithOp::Max => acc.max(v),
                };
            }
            acc
        }
        Expr::Area(q) => crate::engine::groups::area(game, state, q.unwrap_or(p)),
        Expr::Passes => state.passes as i64,
        Expr::QuietPlies => state.quiet as i64,
        Expr::Sum(s) => super::sow::sum(game, state, p, s),
        Expr::Var(_)
        | Expr::Count(_)
        | Expr::PieceValue(_)
        | Expr::IntAttr(..)
        | Expr::Liberties(_)
        | Expr::GroupSize(_)
        | Expr::Height(_) => 0,
    }
}
