//! The group forms of move programs: `suicide?` and `capture-groups` (`engine/groups.rs` does the work).

use super::{Run, Stop};
use crate::compile::*;

impl Run<'_> {
    /// The owner of the live piece on position `q` (a tracked read), for the group forms.
    pub(in crate::engine) fn owner_at(&self, q: usize) -> Option<Player> {
        self.live(Pos(q as u16))
            .filter(|x| !x.dead)
            .map(|x| x.owner)
    }

    /// `suicide?`: see [`Cond::Suicide`]. Out of line, like the other group forms, to keep the interpreter's
    /// hot functions as they were.
    #[inline(never)]
    pub(in crate::engine) fn suicide(&self, l: Loc) -> bool {
        match self.loc(l) {
            Some(p) => {
                crate::engine::groups::suicide(self.game, &|q| self.owner_at(q), p, self.player)
            }
            None => false,
        }
    }

    /// `(capture-groups [suicide] LOC)`: see [`Instr::CaptureGroups`].
    #[inline(never)]
    pub(in crate::engine) fn capture_groups(&mut self, l: Loc, suicide: bool) -> Result<(), Stop> {
        let at = self.loc(l).ok_or(Stop::Path)?;
        let owner = |q: usize| self.owner_at(q);
        let mut taken =
            crate::engine::groups::captured_by_placing(self.game, &owner, at, self.player);
        if suicide
            && taken.is_empty()
            && crate::engine::groups::suicide(self.game, &owner, at, self.player)
        {
            // The piece dies with its group: the group's stones are captured and the piece never stands
            // here (a drop puts nothing down; a moving piece is captured where it started).
            taken = crate::engine::groups::own_groups_next_to(self.game, &owner, at, self.player);
            if self.drop.take().is_none() {
                if let Some(f) = self.from {
                    taken.push(f.idx());
                    self.held = None;
                }
            }
        }
        for q in taken {
            let p = Pos(q as u16);
            if !self.captures.contains(&p) {
                self.captures.push(p);
            }
        }
        Ok(())
    }
}
