//! `choose`: one path per chosen position, each from the program's state before the choice.

use super::{Run, Stop};
use crate::compile::code::{ChooseOp, Code};
use crate::compile::*;
use crate::engine::moves::Action;
use crate::engine::state::Piece;

impl Run<'_> {
    /// `choose`: one path per chosen position (see [`Instr::Choose`]). Each path starts from the program's
    /// state before the choice, so that nothing one choice records leaks into another, and runs the choice's
    /// body (from `body`, the op after the choice) and the rest of the program. Kept out of the interpreter's
    /// loop, whose frame it would otherwise enlarge.
    #[inline(never)]
    #[cold]
    pub(in crate::engine) fn choose(
        &mut self,
        code: &Code,
        op: &ChooseOp,
        body: usize,
    ) -> Result<(), Stop> {
        // The positions of this choice go at the end of `chosen`, above those of the choices it is inside.
        let first = self.chosen.len();
        let r = self.choose_from(code, op, body, first);
        self.chosen.truncate(first);
        r
    }

    fn choose_from(
        &mut self,
        code: &Code,
        op: &ChooseOp,
        body: usize,
        first: usize,
    ) -> Result<(), Stop> {
        let here = self.cursor;
        for c in std::iter::once(&op.set).chain(op.otherwise.as_ref()) {
            for (i, info) in self.game.board.positions.iter().enumerate() {
                if info.dummy {
                    continue;
                }
                self.cursor = Pos(i as u16);
                if self.cond(c)? {
                    self.chosen.push(self.cursor);
                }
            }
            if self.chosen.len() > first {
                break;
            }
        }
        self.cursor = here;
        let last = self.chosen.len();
        if last == first {
            return self.run_code(code, op.rest as usize);
        }
        for k in first..last {
            self.charge(0)?;
            let mut saved = self.saved.pop().unwrap_or_default();
            self.save(&mut saved);
            self.cursor = self.chosen[k];
            let r = self.run_code(code, body);
            self.restore(&saved);
            self.saved.push(saved);
            match r {
                Ok(()) | Err(Stop::Path) => {}
                Err(e) => return Err(e),
            }
        }
        // Every choice ran the rest of the program: nothing follows on this path.
        Err(Stop::Path)
    }

    /// An emission with its `post` instructions ([`Instr::Post`]): they and the emission (the ops from `body` to
    /// their [`Op::End`](crate::compile::code::Op::End)) run on a copy of the registers, which are then put
    /// back: a failed `verify` in `post` drops this emission only, and what `post` recorded (a change of type,
    /// a capture, a flag) belongs to this emission only. When the emission was made, the registers then lose
    /// what an emission consumes (`Run::forget_emitted`), as after a bare `add`.
    #[inline(never)]
    #[cold]
    pub(in crate::engine) fn post_emit(&mut self, code: &Code, body: usize) -> Result<(), Stop> {
        let mut saved = self.saved.pop().unwrap_or_default();
        self.save(&mut saved);
        let r = self.run_code(code, body);
        self.restore(&saved);
        self.saved.push(saved);
        match r {
            Ok(()) => {
                // The registers were put back as they were before the emission: it consumed these too
                // (`emit_general` takes them as it emits).
                self.forget_emitted();
                self.required = false;
                self.again = false;
                Ok(())
            }
            Err(Stop::Path) => Ok(()),
            Err(e) => Err(e),
        }
    }

    /// Copies the run's state into `s`, reusing its vectors.
    fn save(&self, s: &mut Saved) {
        s.cursor = self.cursor;
        s.mark = self.mark;
        s.from = self.from;
        s.held = self.held;
        s.to = self.to;
        s.drop = self.drop;
        s.captures.clone_from(&self.captures);
        s.captured_empty.clone_from(&self.captured_empty);
        s.placed.clone_from(&self.placed);
        s.cascades.clone_from(&self.cascades);
        s.changes.clone_from(&self.changes);
        s.flags.clone_from(&self.flags);
        s.vars.clone_from(&self.vars);
        s.position_flags.clone_from(&self.position_flags);
        s.extra = self.extra;
        s.required = self.required;
        s.again = self.again;
    }

    fn restore(&mut self, s: &Saved) {
        self.cursor = s.cursor;
        self.mark = s.mark;
        self.from = s.from;
        self.held = s.held;
        self.to = s.to;
        self.drop = s.drop;
        self.captures.clone_from(&s.captures);
        self.captured_empty.clone_from(&s.captured_empty);
        self.placed.clone_from(&s.placed);
        self.cascades.clone_from(&s.cascades);
        self.changes.clone_from(&s.changes);
        self.flags.clone_from(&s.flags);
        self.vars.clone_from(&s.vars);
        self.position_flags.clone_from(&s.position_flags);
        self.extra = s.extra;
        self.required = s.required;
        self.again = s.again;
    }
}

/// A program run's state before a `choose`, restored after each choice.
#[derive(Default)]
pub(in crate::engine) struct Saved {
    cursor: Pos,
    mark: Option<Pos>,
    from: Option<Pos>,
    held: Option<Piece>,
    to: Option<Pos>,
    drop: Option<(PieceType, bool)>,
    captures: Vec<Pos>,
    captured_empty: Vec<Pos>,
    placed: Vec<(Pos, Piece)>,
    cascades: Vec<(Pos, Pos)>,
    changes: Vec<Action>,
    flags: super::Flags,
    /// The move variables (`set-var`).
    vars: Vec<i64>,
    position_flags: Vec<(FlagId, Pos, bool)>,
    extra: bool,
    required: bool,
    again: bool,
}
