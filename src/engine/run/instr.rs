//! Instructions: the interpreter's dispatch over [`Instr`].

use super::{Run, Stop, STEP_BUDGET};
use crate::compile::*;
use crate::engine::moves::Action;
use crate::engine::state::{initial_attrs, Piece};

impl Run<'_> {
    pub(in crate::engine) fn block(&mut self, body: &[Instr]) -> Result<(), Stop> {
        for i in body {
            self.steps += 1;
            if self.steps > STEP_BUDGET {
                return Err(Stop::Budget);
            }
            self.instr(i)?;
        }
        Ok(())
    }

    pub(in crate::engine) fn instr(&mut self, i: &Instr) -> Result<(), Stop> {
        match i {
            Instr::Step(d) => {
                self.cursor = self
                    .game
                    .board
                    .step(self.player, self.cursor, *d)
                    .ok_or(Stop::Path)?
            }
            Instr::StepOpposite(d) => {
                let o = self.game.board.opposite[d.idx()].ok_or(Stop::Path)?;
                self.cursor = self
                    .game
                    .board
                    .step(self.player, self.cursor, o)
                    .ok_or(Stop::Path)?;
            }
            Instr::JumpTo(p) => self.cursor = *p,
            Instr::Verify(c) => {
                if !self.cond(c)? {
                    return Err(Stop::Path);
                }
            }
            Instr::If(c, then, els) => {
                if self.cond(c)? {
                    self.block(then)?
                } else {
                    self.block(els)?
                }
            }
            Instr::While(c, body) => {
                while self.cond(c)? {
                    self.steps += 1;
                    if self.steps > STEP_BUDGET {
                        return Err(Stop::Budget);
                    }
                    self.block(body)?;
                }
            }
            Instr::Mark => self.mark = Some(self.cursor),
            Instr::Back => self.cursor = self.mark.unwrap_or(self.start),
            Instr::Go(t) => {
                self.cursor = match t {
                    GoTarget::From => self.from.unwrap_or(self.start),
                    GoTarget::To => self.to.unwrap_or(self.cursor),
                    GoTarget::Mark => self.mark.unwrap_or(self.start),
                    GoTarget::LastFrom => {
                        self.read_last();
                        self.state.last_from.ok_or(Stop::Path)?
                    }
                    GoTarget::LastTo => {
                        self.read_last();
                        self.state.last_to.ok_or(Stop::Path)?
                    }
                }
            }
            Instr::From => {
                self.from = Some(self.cursor);
                self.held = self.live(self.cursor);
                self.drop = None;
            }
            Instr::To => self.to = Some(self.cursor),
            Instr::Cascade => {
                // The held piece's movement ends here; the piece that stood here at the start moves on.
                if let Some(f) = self.from {
                    if f != self.cursor {
                        self.cascades.push((f, self.cursor));
                    }
                }
                self.from = Some(self.cursor);
                self.held = self.live(self.cursor);
                self.to = None;
                self.drop = None;
            }
            Instr::Add {
                promote,
                copy,
                partial,
            } => self.emit(promote, *copy, *partial)?,
            Instr::Capture(l) => {
                if let Some(p) = self.loc(*l) {
                    if self.live(p).is_some_and(|x| !x.dead) && !self.captures.contains(&p) {
                        self.captures.push(p);
                    }
                }
            }
            Instr::Create { player, piece, at } => {
                let Some(p) = self.loc(*at) else {
                    return Err(Stop::Path);
                };
                let owner = match player {
                    PlayerRef::Mover => self.player,
                    PlayerRef::Named(q) => *q,
                };
                let Some(kind) = piece.or(self.held.map(|h| h.kind)) else {
                    return Ok(());
                };
                let attrs = initial_attrs(self.game, kind);
                self.placed.push((
                    p,
                    Piece {
                        kind,
                        owner,
                        attrs,
                        dead: false,
                    },
                ));
            }
            Instr::ChangeType(t, l) => {
                let at = self.loc(*l).ok_or(Stop::Path)?;
                self.changes.push(Action::ChangeType { at, kind: *t });
            }
            Instr::Flip(l) => {
                let at = self.loc(*l).ok_or(Stop::Path)?;
                if let Some(x) = self.live(at) {
                    let n = self.game.players.len() as u8;
                    let owner = if x.owner != self.player {
                        self.player
                    } else {
                        Player((x.owner.0 + 1) % n.max(1))
                    };
                    self.changes.push(Action::ChangeOwner { at, owner });
                }
            }
            Instr::ChangeOwner(p, l) => {
                let at = self.loc(*l).ok_or(Stop::Path)?;
                let owner = match p {
                    PlayerRef::Mover => self.player,
                    PlayerRef::Named(q) => *q,
                };
                self.changes.push(Action::ChangeOwner { at, owner });
            }
            Instr::SetFlag(f, c) => {
                let v = self.cond(c)?;
                if self.flags.len() <= f.idx() {
                    self.flags.resize(f.idx() + 1, false);
                }
                self.flags[f.idx()] = v;
            }
            Instr::SetPositionFlag(f, c, l) => {
                let v = self.cond(c)?;
                let p = self.loc(*l).ok_or(Stop::Path)?;
                self.position_flags.push((*f, p, v));
            }
            Instr::SetVar(v, e) => self.set_var(*v, e)?,
            Instr::SetStateVar(v, e) => self.set_state_var(*v, e)?,
            Instr::SetIntAttribute(k, e, l) => self.set_int_attribute(*k, e, *l)?,
            Instr::SetAttribute(a, c, l) => {
                let v = self.cond(c)?;
                let at = self.loc(*l).ok_or(Stop::Path)?;
                self.changes.push(Action::SetAttribute {
                    at,
                    attr: *a,
                    value: v,
                });
            }
            Instr::Choose(c) => self.choose(&c.set, c.otherwise.as_ref(), &c.body, &c.rest)?,
            Instr::ExtraTurn => self.extra = true,
            Instr::RequireContinuation => self.required = true,
            Instr::CaptureGroups(l, suicide) => self.capture_groups(*l, *suicide)?,
            Instr::Sow(s) => self.sow(s)?,
            Instr::GotoTurn(e) => self.goto_turn(*e),
            Instr::TakePrisoner(l) => {
                if let Some(at) = self.loc(*l) {
                    let taken =
                        |a: &Action| matches!(a, Action::TakePrisoner { at: q, .. } if *q == at);
                    if self.live(at).is_some_and(|x| !x.dead) && !self.changes.iter().any(taken) {
                        // `to` is filled in when the part is emitted: the moving column's destination.
                        self.changes.push(Action::TakePrisoner { at, to: at });
                    }
                }
            }
            Instr::Carry(e) => {
                let n = self.eval(e)?;
                // Kept among the changes (a marker the emission turns into the movement), so that programs
                // without stacks pay nothing for it.
                let count = n.clamp(1, u16::MAX as i64) as u16;
                self.changes
                    .retain(|a| !matches!(a, Action::MoveTop { .. }));
                self.changes.push(Action::MoveTop {
                    from: self.cursor,
                    to: self.cursor,
                    count,
                });
            }
        }
        Ok(())
    }

    /// A `sow` earned another sowing: the part is continued by any of the mover's piles, moves of any type.
    #[inline(never)]
    #[cold]
    pub(in crate::engine) fn take_again(&mut self) -> (Option<Option<MoveType>>, bool) {
        self.again = false;
        (Some(None), true)
    }

    /// `(goto-turn L)`: a change of the part. Out of the hot loop.
    #[inline(never)]
    #[cold]
    pub(in crate::engine) fn goto_turn(&mut self, entry: u16) {
        self.changes.push(Action::GotoTurn { entry });
    }
}
