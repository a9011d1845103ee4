//! The emission of parts (`add`): the boundary between the interpreter and the move representation.

use super::{Emitted, Mode, Run, Stop, MAX_EMITTED_ACTIONS};
use crate::compile::*;
use crate::engine::gen::PartHead;
use crate::engine::moves::Action;
use crate::engine::state::{initial_attrs, Piece};

impl Run<'_> {
    /// Whether a cascaded piece arriving on `t` captures what stands there: not when that piece moves on itself
    /// (it is a cascade's start, or the held piece leaving for `dest`), nor when it is captured already.
    pub(in crate::engine) fn cascade_captures(&self, t: Pos, dest: Pos) -> bool {
        self.live(t).is_some_and(|x| !x.dead)
            && !self.captures.contains(&t)
            && !self.cascades.iter().any(|c| c.0 == t)
            && (self.from != Some(t) || dest == t)
    }

    /// Whether a piece stands on `pos` when the held piece arrives there (so arriving captures it).
    pub(in crate::engine) fn occupied_on_arrival(&self, pos: Pos) -> bool {
        self.live(pos).is_some_and(|x| !x.dead)
            && !self.cascades.iter().any(|(f, _)| *f == pos)
            && self.from != Some(pos)
            && !self.captures.contains(&pos)
    }

    /// `add`: emits the part the run has built (or, in attack mode, says whether it captures the target).
    /// Inlined into the interpreter's `add` ops for the commonest part ([`Run::emit_plain`]); everything else
    /// goes to [`Run::emit_general`].
    #[inline(always)]
    pub(in crate::engine) fn emit(
        &mut self,
        promote: &[PieceType],
        copy: bool,
        cont: Option<Option<MoveType>>,
    ) -> Result<(), Stop> {
        if let (Mode::Generate, Some(f), Some(h), None, true, false, false) = (
            self.mode,
            self.from,
            self.held,
            self.drop,
            promote.is_empty(),
            copy,
            self.extra | self.again | self.required,
        ) {
            if self.captures.is_empty()
                && self.captured_empty.is_empty()
                && self.cascades.is_empty()
                && self.placed.is_empty()
                && self.changes.is_empty()
            {
                let dest = self.to.unwrap_or(self.cursor);
                return self.emit_plain(f, h.kind, dest, cont);
            }
        }
        self.emit_general(promote, copy, cont)
    }

    #[inline(never)]
    fn emit_general(
        &mut self,
        promote: &[PieceType],
        copy: bool,
        cont: Option<Option<MoveType>>,
    ) -> Result<(), Stop> {
        if let Mode::Attack(target) = self.mode {
            // Only whether this emission would capture the target matters: decide it without building a part.
            let dest = self.to.unwrap_or(self.cursor);
            let moves_piece = self.drop.is_some()
                || (self.held.is_some() && self.from.is_some_and(|f| f != dest));
            let hit =
                self.captures.contains(&target)
                    || (dest == target && moves_piece && self.occupied_on_arrival(target))
                    || self.cascades.iter().any(|&(f, t)| {
                        t == target && f != target && self.cascade_captures(t, dest)
                    })
                    || self
                        .placed
                        .iter()
                        .any(|(p, _)| *p == target && self.live(*p).is_some())
                    || (self.game.stacks
                        && self.changes.iter().any(
                            |a| matches!(a, Action::TakePrisoner { at, .. } if *at == target),
                        ));
            if hit {
                return Err(Stop::Found);
            }
            self.captures.clear();
            self.captured_empty.clear();
            self.placed.clear();
            return Ok(());
        }
        let dest = self.to.unwrap_or(self.cursor);
        // The actions go straight into the shared buffer (no vector per part).
        let start = self.out.actions.len();
        for &c in &self.captures {
            self.out.actions.push(Action::Capture { at: c });
        }
        for &(f, t) in &self.cascades {
            if self.cascade_captures(t, dest) {
                self.out.actions.push(Action::Capture { at: t });
            }
            self.out.actions.push(Action::Move { from: f, to: t });
        }
        let piece_kind;
        let mut from = None;
        match (self.drop, self.from, self.held) {
            (Some((kind, reserve)), _, _) => {
                if self.occupied_on_arrival(dest) {
                    self.out.actions.push(Action::Capture { at: dest });
                }
                let attrs = initial_attrs(self.game, kind);
                // A drop comes from the reserve of the player whose pieces this turn moves, and stays its piece
                // (a random `?D` throwing Black's dice puts down Black's dice).
                self.out.actions.push(Action::Place {
                    at: dest,
                    piece: Piece {
                        kind,
                        owner: self.owner,
                        attrs,
                        dead: false,
                    },
                    reserve,
                });
                // A capture of the drop's own square removes the dropped piece once it is down (Zillions'
                // kamikaze, as for a moving piece below): a capture listed after the placement on its square
                // is applied after it (`apply`).
                if self.captures.contains(&dest) || self.captured_empty.contains(&dest) {
                    self.out.actions.push(Action::Capture { at: dest });
                }
                piece_kind = kind;
            }
            (None, Some(f), Some(h)) => {
                if f != dest {
                    if self.occupied_on_arrival(dest) {
                        self.out.actions.push(Action::Capture { at: dest });
                    }
                    let carry = match self.game.stacks {
                        true => self.changes.iter().find_map(|a| match a {
                            Action::MoveTop { count, .. } => Some(*count),
                            _ => None,
                        }),
                        false => None,
                    };
                    if let Some(count) = carry.filter(|&c| self.state.under(f).len() >= c as usize)
                    {
                        self.out.actions.push(Action::MoveTop {
                            from: f,
                            to: dest,
                            count,
                        });
                    } else {
                        self.out.actions.push(Action::Move { from: f, to: dest });
                    }
                    if copy {
                        self.out.actions.push(Action::Place {
                            at: f,
                            piece: h,
                            reserve: false,
                        });
                    }
                    // Zillions' capture on the destination: a `capture` of the square the piece ends on
                    // removes the piece itself (the founding articles' kamikaze piece), whether or not
                    // something stood there. Said as the capture of the square it left: `apply` runs
                    // captures before movements, so the movement then carries nothing, and the square ends
                    // empty. (A piece that stays where it is, `f == dest`, is taken by the capture itself.)
                    if self.captures.contains(&dest) || self.captured_empty.contains(&dest) {
                        self.out.actions.push(Action::Capture { at: f });
                    }
                }
                piece_kind = h.kind;
                from = Some(f);
            }
            _ => piece_kind = PieceType(0),
        }
        // The square the held piece left is empty once it has moved: a piece created there (Ur's stacks give
        // the piece underneath back to the square the mover leaves) captures nothing, least of all the mover.
        let left = from.filter(|f| *f != dest);
        for &(p, piece) in &self.placed {
            if self.live(p).is_some() && !self.captures.contains(&p) && left != Some(p) {
                self.out.actions.push(Action::Capture { at: p });
            }
            self.out.actions.push(Action::Place {
                at: p,
                piece,
                reserve: false,
            });
        }
        // A change made on the square the held piece left follows the piece.
        let moved = from.filter(|f| *f != dest);
        for ch in &self.changes {
            let mut ch = *ch;
            if let Some(f) = moved {
                match &mut ch {
                    Action::ChangeType { at, .. }
                    | Action::ChangeOwner { at, .. }
                    | Action::SetAttribute { at, .. }
                    | Action::SetIntAttribute { at, .. }
                        if *at == f =>
                    {
                        *at = dest
                    }
                    _ => {}
                }
            }
            if let Action::TakePrisoner { to, .. } = &mut ch {
                *to = dest;
            }
            if matches!(ch, Action::MoveTop { .. }) {
                continue; // `carry`'s marker: the movement above says it
            }
            self.out.actions.push(ch);
        }
        if self.extra {
            self.out.actions.push(Action::ExtraTurn);
        }
        let required = std::mem::take(&mut self.required);
        let (cont, anywhere) = if self.again {
            self.take_again()
        } else {
            (cont, false)
        };
        let end = self.out.actions.len();
        let head = PartHead {
            start: start as u32,
            end: end as u32,
            from,
            to: Some(dest),
            piece: piece_kind,
            move_type: self.move_type,
        };
        self.emitted_actions += (end - start + 1) * promote.len().max(1);
        if self.emitted_actions > MAX_EMITTED_ACTIONS {
            self.out.actions.truncate(start);
            return Err(Stop::TooMany);
        }
        let emitted = |head| Emitted {
            head,
            cont,
            required,
            anywhere,
        };
        match promote {
            [] => self.out.parts.push(emitted(head)),
            [first, rest @ ..] => {
                // One part per promotion: the first ends with its change of type where it stands, each other
                // one is a copy of the actions before it with its own.
                self.out.actions.push(Action::ChangeType {
                    at: dest,
                    kind: *first,
                });
                let mut h = head;
                h.end += 1;
                self.out.parts.push(emitted(h));
                for &t in rest {
                    let s = self.out.actions.len();
                    self.out.actions.extend_from_within(start..end);
                    self.out
                        .actions
                        .push(Action::ChangeType { at: dest, kind: t });
                    let mut h = head;
                    h.start = s as u32;
                    h.end = self.out.actions.len() as u32;
                    self.out.parts.push(emitted(h));
                }
            }
        }
        self.forget_emitted();
        Ok(())
    }

    /// What an emission consumes of the registers, for the path that goes on after it.
    pub(in crate::engine) fn forget_emitted(&mut self) {
        // Captures and drops before an `add` are not carried into later emissions; nor are cascades, under
        // `discard cascades`.
        self.captures.clear();
        self.captured_empty.clear();
        self.placed.clear();
        if self.game.options.discard_cascades {
            self.cascades.clear();
        }
        // Prisoners, like captures, belong to the part that took them.
        if self.game.stacks && !self.changes.is_empty() {
            self.changes
                .retain(|a| !matches!(a, Action::TakePrisoner { .. } | Action::MoveTop { .. }));
        }
    }
}

impl Run<'_> {
    /// [`Run::emit`] of the commonest part: the held piece goes from `f` to `dest` (capturing what stands
    /// there) or stays, with nothing captured, placed, cascaded or changed on the way, no promotion, no extra
    /// turn: the actions and head the general path builds for it, with none of its tests.
    #[inline]
    fn emit_plain(
        &mut self,
        f: Pos,
        kind: PieceType,
        dest: Pos,
        cont: Option<Option<MoveType>>,
    ) -> Result<(), Stop> {
        let start = self.out.actions.len();
        if f != dest {
            // `occupied_on_arrival` with no cascades or captures under way.
            if self.live(dest).is_some_and(|x| !x.dead) {
                self.out.actions.push(Action::Capture { at: dest });
            }
            self.out.actions.push(Action::Move { from: f, to: dest });
        }
        let end = self.out.actions.len();
        self.emitted_actions += end - start + 1;
        if self.emitted_actions > MAX_EMITTED_ACTIONS {
            self.out.actions.truncate(start);
            return Err(Stop::TooMany);
        }
        self.out.parts.push(Emitted {
            head: PartHead {
                start: start as u32,
                end: end as u32,
                from: Some(f),
                to: Some(dest),
                piece: kind,
                move_type: self.move_type,
            },
            cont,
            required: false,
            anywhere: false,
        });
        Ok(())
    }
}
