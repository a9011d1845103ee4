//! Predicates: the tests of the bytecode's jumps, and conditions evaluated whole (`Run::cond`).

use super::{attacked_by, Mode, Run, Stop};
use crate::compile::code::{Code, Test};
use crate::compile::*;

impl Run<'_> {
    /// A jump's test: the common predicates inline, the others through [`Run::cond`].
    #[inline(always)]
    pub(in crate::engine) fn test(&mut self, code: &Code, t: Test) -> Result<bool, Stop> {
        Ok(match t {
            Test::Empty(l) => self.empty(l),
            Test::Friend(l) => self.friend(l),
            Test::Enemy(l) => self.enemy(l),
            Test::Mine(l) => self.mine(l),
            Test::OnBoard(l) => self.loc(l).is_some(),
            Test::Flag(f) => self.flags.get(f),
            Test::Cond(i) => self.cond(&code.conds[i as usize])?,
        })
    }

    #[inline(always)]
    pub(super) fn empty(&self, l: Loc) -> bool {
        self.loc(l).is_some_and(|p| self.live(p).is_none())
    }

    #[inline(always)]
    pub(super) fn friend(&self, l: Loc) -> bool {
        self.loc(l)
            .and_then(|p| self.live(p))
            .is_some_and(|x| !x.dead && self.allied(x.owner))
    }

    #[inline(always)]
    pub(super) fn enemy(&self, l: Loc) -> bool {
        self.loc(l)
            .and_then(|p| self.live(p))
            .is_some_and(|x| !x.dead && !self.allied(x.owner))
    }

    /// Whether `owner` is the side this turn moves for or on its team: the team table is read only when the
    /// game has teams. The side is `self.owner`, the player whose pieces the turn moves: in a turn where a
    /// random player acts for a real one (`(?Dice Black setup)`), `friend?` means Black's pieces, as in
    /// Zillions (the corpus Ur's dice turns test `not-friend?` so that a throw fills each slot once).
    #[inline(always)]
    fn allied(&self, owner: Player) -> bool {
        owner == self.owner || (self.teams && self.game.same_team(owner, self.owner))
    }

    #[inline(always)]
    fn mine(&self, l: Loc) -> bool {
        self.loc(l)
            .and_then(|p| self.live(p))
            .is_some_and(|x| !x.dead && x.owner == self.owner)
    }

    pub(in crate::engine) fn cond(&mut self, c: &Cond) -> Result<bool, Stop> {
        Ok(match c {
            Cond::True => true,
            Cond::False => false,
            Cond::Not(c) => !self.cond(c)?,
            Cond::And(cs) => {
                for c in cs {
                    if !self.cond(c)? {
                        return Ok(false);
                    }
                }
                true
            }
            Cond::Or(cs) => {
                for c in cs {
                    if self.cond(c)? {
                        return Ok(true);
                    }
                }
                false
            }
            Cond::Empty(l) => self.empty(*l),
            Cond::Friend(l) => self.friend(*l),
            Cond::Enemy(l) => self.enemy(*l),
            Cond::Mine(l) => self.mine(*l),
            Cond::Neutral(l) => {
                let turn_players = &self.game.turn_order.entries;
                self.loc(*l)
                    .and_then(|p| self.live(p))
                    .is_some_and(|x| !x.dead && !turn_players.iter().any(|e| e.player == x.owner))
            }
            Cond::Piece(ts, l) => self
                .loc(*l)
                .and_then(|p| self.live(p))
                .is_some_and(|x| ts.contains(&x.kind)),
            Cond::InZone(z, l) => self.loc(*l).is_some_and(|p| {
                let b = &self.game.board;
                b.in_zone(*z, self.player, p)
                    || (self.owner != self.player
                        && b.in_zone(*z, self.owner, p)
                        && !b.zones[z.idx()]
                            .members
                            .get(self.player.idx())
                            .is_some_and(|m| m.iter().any(|&x| x)))
            }),
            Cond::OnBoard(l) => self.loc(*l).is_some(),
            Cond::LastFrom(l) => self
                .read_last_then(l)
                .is_some_and(|p| self.state.last_from == Some(p)),
            Cond::LastTo(l) => self
                .read_last_then(l)
                .is_some_and(|p| self.state.last_to == Some(p)),
            Cond::Marked(l) => self.loc(*l).is_some_and(|p| self.mark == Some(p)),
            Cond::IsPosition(q, l) => self.loc(*l) == Some(*q),
            Cond::Attacked(l, mt) | Cond::Defended(l, mt) => {
                if matches!(self.mode, Mode::Attack(_)) {
                    return Ok(false); // no nested attack searches
                }
                let Some(p) = self.loc(*l) else {
                    return Ok(false);
                };
                let defended = matches!(c, Cond::Defended(..));
                match attacked_by(self.game, self.state, p, self.player, defended, *mt) {
                    Ok(b) => b,
                    Err(_) => return Err(Stop::Budget),
                }
            }
            Cond::Flag(f) => self.flags.get(*f),
            Cond::PositionFlag(f, l) => match self.loc(*l) {
                Some(p) => self
                    .position_flags
                    .iter()
                    .rev()
                    .find(|(g, q, _)| g == f && *q == p)
                    .is_some_and(|x| x.2),
                None => false,
            },
            Cond::Visited(l) => {
                self.read_last();
                self.loc(*l).is_some_and(|p| self.state.trail.contains(&p))
            }
            Cond::LastDirection(d) => {
                self.read_last();
                self.last_direction(*d)
            }
            Cond::Attribute(a, l) => self
                .loc(*l)
                .and_then(|p| self.live(p))
                .is_some_and(|x| x.attr(*a)),
            Cond::Compare(op, ab) => self.compare(*op, ab)?,
            Cond::Suicide(l) => self.suicide(*l),
        })
    }

    /// `(last-direction? DIR)`: an earlier part of this composite move took the piece from `last_from` to
    /// `last_to` along `d` (one step or several, after the mover's symmetry).
    fn last_direction(&self, d: Dir) -> bool {
        let s = self.state;
        let (Some(from), Some(to)) = (s.last_from, s.last_to) else {
            return false;
        };
        if s.trail.len() < 2 || from == to {
            return false;
        }
        let mut p = from;
        for _ in 0..s.cells.len() {
            match self.step(p, d) {
                Some(q) if q == to => return true,
                Some(q) => p = q,
                None => return false,
            }
        }
        false
    }
}
