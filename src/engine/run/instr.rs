//! Instructions: the interpreter's loop over the ops of a program's bytecode ([`Op`], `compile/code.rs`), and
//! the instructions the bytecode keeps whole.

use super::{Mode, Run, Stop, STEP_BUDGET};
use crate::compile::code::{Code, Op, Test};
use crate::compile::*;
use crate::engine::moves::Action;
use crate::engine::state::{initial_attrs, Piece};

impl Run<'_> {
    /// Runs the program's ops from `pc` until it ends (`Ok`) or its path does (`Err(Stop::Path)`). The
    /// instructions the bytecode keeps whole go through [`Run::instr`].
    #[inline(always)]
    pub(in crate::engine) fn run_code(&mut self, code: &Code, pc: usize) -> Result<(), Stop> {
        self.run_ops(code, pc)
    }

    /// The loop of [`Run::run_code`]. Each op adds the steps it stands for
    /// ([`Code::weights`]); the budget is checked on back-edges, between `choose` paths and when the run
    /// ends (`Run::exec`).
    #[inline(always)]
    fn run_ops(&mut self, code: &Code, mut pc: usize) -> Result<(), Stop> {
        let slots = &code.slots[..];
        loop {
            let Some(slot) = slots.get(pc) else {
                return Ok(());
            };
            // No overflow: the budget is checked long before (each op stands for a few steps).
            self.steps = self.steps.wrapping_add(slot.weight);
            pc += 1;
            match slot.op {
                Op::Fail => return Err(Stop::Path),
                Op::End => return Ok(()),
                Op::Jump(t) => {
                    pc = t as usize;
                }
                Op::Loop(to) => {
                    self.charge(0)?;
                    pc = to as usize;
                }
                Op::Nop => {}
                Op::Branch { test, when, to } => {
                    if self.test(code, test)? == when {
                        pc = to as usize;
                    }
                }
                Op::IfEmpty { at, when, to } => {
                    if self.empty(at) == when {
                        pc = to as usize;
                    }
                }
                Op::IfFriend { at, when, to } => {
                    if self.friend(at) == when {
                        pc = to as usize;
                    }
                }
                Op::IfEnemy { at, when, to } => {
                    if self.enemy(at) == when {
                        pc = to as usize;
                    }
                }
                Op::IfFlag { flag, when, to } => {
                    if self.flags.get(flag) == when {
                        pc = to as usize;
                    }
                }
                Op::Step(d) => self.cursor = self.step(self.cursor, d).ok_or(Stop::Path)?,
                Op::StepVerify(d, test) => {
                    self.cursor = self.step(self.cursor, d).ok_or(Stop::Path)?;
                    self.steps = self.steps.saturating_add(1);
                    if !self.test(code, test)? {
                        return Err(Stop::Path);
                    }
                }
                Op::Slide(d, add) => loop {
                    if !self.test(code, Test::Empty(Loc::Cursor))? {
                        break;
                    }
                    match add {
                        None => self.emit(&[], false, None)?,
                        Some(i) => {
                            let a = &code.adds[i as usize];
                            self.emit(&a.promote, a.copy, a.partial)?
                        }
                    }
                    self.cursor = self.step(self.cursor, d).ok_or(Stop::Path)?;
                    // The round, the add and the step.
                    self.charge(3)?;
                },
                Op::StepWhile(d, test) => {
                    while self.test(code, test)? {
                        self.cursor = self.step(self.cursor, d).ok_or(Stop::Path)?;
                        // The round and the step.
                        self.charge(2)?;
                    }
                }
                Op::Flank(d, f) => self.flank(d, f)?,
                Op::SetAttribute(attr, value, l) => {
                    let at = self.loc(l).ok_or(Stop::Path)?;
                    self.set_attribute(at, attr, value);
                }
                Op::SetFlag(f, v) => self.flags.set(f, v),
                Op::Flip(l) => self.flip(l)?,
                Op::JumpTo(p) => self.cursor = p,
                Op::Mark => self.mark = Some(self.cursor),
                Op::Back => self.cursor = self.mark.unwrap_or(self.start),
                Op::Go(t) => {
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
                Op::From => {
                    self.from = Some(self.cursor);
                    self.held = self.live(self.cursor);
                    self.drop = None;
                }
                Op::To => self.to = Some(self.cursor),
                Op::Cascade => {
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
                Op::Capture(l) => {
                    if let Some(p) = self.loc(l) {
                        if self.live(p).is_some_and(|x| !x.dead) {
                            if !self.captures.contains(&p) {
                                self.captures.push(p);
                            }
                        } else if !self.captured_empty.contains(&p) {
                            self.captured_empty.push(p);
                        }
                    }
                }
                Op::AddPlain => self.emit(&[], false, None)?,
                Op::Add(i) => {
                    let a = &code.adds[i as usize];
                    self.emit(&a.promote, a.copy, a.partial)?
                }
                Op::Choose(i) => {
                    return self.choose(code, &code.chooses[i as usize], pc);
                }
                Op::Post(i) => {
                    self.post_emit(code, pc)?;
                    pc = code.posts[i as usize] as usize;
                }
                Op::Instr(i) => self.instr(&code.instrs[i as usize])?,
                Op::Skip { to, set_mark } => {
                    // An effect-only region (`compile/code.rs`): nothing in it decides an attack run.
                    if let Mode::Attack(_) = self.mode {
                        if set_mark {
                            self.mark = Some(self.cursor);
                        }
                        pc = to as usize;
                    }
                }
            }
        }
    }

    /// A change of a boolean attribute. An attack search (see `emit`) asks only whether a part captures, which
    /// no such change decides, so it records none.
    #[inline]
    fn set_attribute(&mut self, at: Pos, attr: AttrId, value: bool) {
        if matches!(self.mode, Mode::Generate) {
            self.changes.push(Action::SetAttribute { at, attr, value });
        }
    }

    /// `(flip LOC)`: an enemy piece becomes the mover's, the mover's the next player's.
    #[inline]
    fn flip(&mut self, l: Loc) -> Result<(), Stop> {
        let at = self.loc(l).ok_or(Stop::Path)?;
        if let Some(x) = self.live(at) {
            let n = self.game.players.len() as u8;
            let owner = if x.owner != self.player {
                self.player
            } else {
                Player((x.owner.0 + 1) % n.max(1))
            };
            self.changes.push(Action::ChangeOwner { at, owner });
        }
        Ok(())
    }

    /// A flank line ([`Op::Flank`]): the ops of
    /// `(if (enemy? d) d (while (enemy? d) d) (if (friend? d) back d (while enemy? flip d) (set-flag f true)) back)`
    /// run in line, each charging the steps its op carries in the unfused bytecode (`Code::lower_unfused`), at
    /// the same point (before it runs) and with the budget checked where a back-edge checks it. The op's
    /// own weight, charged by the loop, is the outer `if`'s.
    #[inline(always)]
    fn flank(&mut self, d: Dir, f: FlagId) -> Result<(), Stop> {
        if !self.enemy(Loc::Dir(d)) {
            return Ok(());
        }
        // `d`, then `(while (enemy? d) d)` (the while's step; 2 a round, the budget checked each round).
        self.steps = self.steps.wrapping_add(1);
        self.cursor = self.step(self.cursor, d).ok_or(Stop::Path)?;
        self.steps = self.steps.wrapping_add(1);
        while self.enemy(Loc::Dir(d)) {
            self.cursor = self.step(self.cursor, d).ok_or(Stop::Path)?;
            self.charge(2)?;
        }
        // `(if (friend? d) ...)`.
        self.steps = self.steps.wrapping_add(1);
        if self.friend(Loc::Dir(d)) {
            // `back`, `d`, the while's step (a `Nop` before the loop's test).
            self.steps = self.steps.wrapping_add(1);
            self.cursor = self.mark.unwrap_or(self.start);
            self.steps = self.steps.wrapping_add(1);
            self.cursor = self.step(self.cursor, d).ok_or(Stop::Path)?;
            self.steps = self.steps.wrapping_add(1);
            while self.enemy(Loc::Cursor) {
                // The round and the `flip`, then the step, then the back-edge's check.
                self.steps = self.steps.wrapping_add(2);
                self.flip(Loc::Cursor)?;
                self.steps = self.steps.wrapping_add(1);
                self.cursor = self.step(self.cursor, d).ok_or(Stop::Path)?;
                self.charge(0)?;
            }
            // `(set-flag f true)`.
            self.steps = self.steps.wrapping_add(1);
            self.flags.set(f, true);
        }
        // The last `back`.
        self.steps = self.steps.wrapping_add(1);
        self.cursor = self.mark.unwrap_or(self.start);
        Ok(())
    }

    /// Charges `cost` steps and checks the budget (a loop's back-edge, a round of a fused loop).
    #[inline]
    pub(in crate::engine) fn charge(&mut self, cost: u32) -> Result<(), Stop> {
        self.steps = self.steps.saturating_add(cost);
        if self.steps > STEP_BUDGET {
            return Err(Stop::Budget);
        }
        Ok(())
    }

    /// The instructions that have no op of their own (see `compile/code.rs`).
    pub(in crate::engine) fn instr(&mut self, i: &Instr) -> Result<(), Stop> {
        match i {
            Instr::Create { player, piece, at } => {
                let Some(p) = self.loc(*at) else {
                    return Err(Stop::Path);
                };
                // Without a player, the piece is made for the side the turn moves for (Black in a random
                // player's `(?Dice Black setup)` turn), as a drop is.
                let owner = match player {
                    PlayerRef::Mover => self.owner,
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
            Instr::ChangeOwner(p, l) => {
                let at = self.loc(*l).ok_or(Stop::Path)?;
                let owner = match p {
                    PlayerRef::Mover => self.owner,
                    PlayerRef::Named(q) => *q,
                };
                self.changes.push(Action::ChangeOwner { at, owner });
            }
            Instr::SetFlag(f, c) => {
                let v = self.cond(c)?;
                self.flags.set(*f, v);
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
                self.set_attribute(at, *a, v);
            }
            Instr::ExtraTurn => self.extra = true,
            Instr::RequireContinuation => self.required = true,
            Instr::CaptureGroups(l, suicide) => self.capture_groups(*l, *suicide)?,
            Instr::Sow(s) => self.sow(s)?,
            Instr::GotoTurn(e) => self.goto_turn(*e),
            Instr::AddRotate(r, steps) => self.add_rotate(*r, *steps)?,
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
            // Lowered to ops of their own: never kept whole (`compile/code.rs`).
            Instr::Flip(_)
            | Instr::Step(_)
            | Instr::StepOpposite(_)
            | Instr::JumpTo(_)
            | Instr::Verify(_)
            | Instr::If(..)
            | Instr::While(..)
            | Instr::Mark
            | Instr::Back
            | Instr::Go(_)
            | Instr::From
            | Instr::To
            | Instr::Cascade
            | Instr::Add { .. }
            | Instr::Capture(_)
            | Instr::Choose(_)
            | Instr::Post(_) => debug_assert!(false, "{i:?} has an op of its own"),
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
