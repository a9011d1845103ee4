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

    /// The groups of the frozen board (`chains.rs`), when the group forms may read them for a piece put on
    /// `at`: the table is allowed, no read is tracked (a tracked run reads square by square), and `at` is empty.
    fn chains(&self, at: Pos) -> Option<&crate::engine::chains::Table> {
        if !self.chains_allowed || self.track || self.owner_at(at.idx()).is_some() {
            return None;
        }
        Some(
            self.chains
                .get_or_init(|| crate::engine::chains::Table::new(self.game, self.cells)),
        )
    }

    /// `suicide?`: see [`Cond::Suicide`]. Out of line, like the other group forms, to keep the interpreter's
    /// hot functions as they were.
    #[inline(never)]
    pub(in crate::engine) fn suicide(&self, l: Loc) -> bool {
        match self.loc(l) {
            Some(p) => match self.chains(p) {
                Some(t) => t.suicide(self.game, &|q| self.owner_at(q), p, self.player),
                None => {
                    crate::engine::groups::suicide(self.game, &|q| self.owner_at(q), p, self.player)
                }
            },
            None => false,
        }
    }

    /// `(capture-groups [suicide] LOC)`: see [`Instr::CaptureGroups`].
    #[inline(never)]
    pub(in crate::engine) fn capture_groups(&mut self, l: Loc, suicide: bool) -> Result<(), Stop> {
        let at = self.loc(l).ok_or(Stop::Path)?;
        let owner = |q: usize| self.owner_at(q);
        let chains = self.chains(at);
        let mut taken = match chains {
            Some(t) => t.captured_by_placing(self.game, &owner, at, self.player),
            None => crate::engine::groups::captured_by_placing(self.game, &owner, at, self.player),
        };
        if suicide
            && taken.is_empty()
            && match chains {
                Some(t) => t.suicide(self.game, &owner, at, self.player),
                None => crate::engine::groups::suicide(self.game, &owner, at, self.player),
            }
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
