//! This project's turn-order and choice forms (docs/language.md, "Turn order and phases" and "Choices"):
//! the `phases` section, and the compile-time shaping of `choose` in move programs.
//!
//! A `choose` forks the program: each chosen position runs the rest of the program on its own path. The
//! interpreter runs blocks without continuations, so the compiler moves whatever follows a `choose` (in its
//! block and in every enclosing block) into the choice's `rest`, copying the tail into both branches of an
//! enclosing `if`. A `choose` inside a `while` is refused: the loop's next rounds would be a tail too.

use super::game::*;
use super::Compiler;
use crate::lang::Node;
use rustc_hash::FxHashMap as HashMap;

/// Whether an instruction is or holds a `choose`.
pub fn has_choice(i: &Instr) -> bool {
    match i {
        Instr::Choose { .. } => true,
        Instr::If(_, a, b) => a.iter().chain(b).any(has_choice),
        Instr::While(_, b) => b.iter().any(has_choice),
        _ => false,
    }
}

/// Moves the tail after each `choose` into it (see the module's paragraph). `Err` with nothing when a
/// `choose` stands inside a `while`.
pub fn sink_choices(mut body: Vec<Instr>) -> Result<Vec<Instr>, ()> {
    let Some(i) = body.iter().position(has_choice) else {
        return Ok(body);
    };
    let tail: Vec<Instr> = body.split_off(i + 1);
    let Some(last) = body.pop() else {
        return Ok(body);
    };
    let shaped = match last {
        Instr::Choose(c) => {
            let Choice {
                set,
                otherwise,
                body: inner,
                mut rest,
            } = *c;
            rest.extend(tail);
            Instr::Choose(Box::new(Choice {
                set,
                otherwise,
                body: sink_choices(inner)?,
                rest: sink_choices(rest)?,
            }))
        }
        Instr::If(c, mut a, mut b) => {
            a.extend(tail.iter().cloned());
            b.extend(tail);
            Instr::If(c, sink_choices(a)?, sink_choices(b)?)
        }
        _ => return Err(()),
    };
    body.push(shaped);
    Ok(body)
}

/// Whether an end condition can be decided without the legal moves or the history: what a phase may ask.
fn decidable_now(c: &EndCond) -> Result<(), &'static str> {
    match c {
        EndCond::Stalemated => Err("stalemated"),
        EndCond::Blocked => Err("blocked"),
        EndCond::Checkmated(_) => Err("checkmated"),
        EndCond::Repetition => Err("repetition"),
        EndCond::CausedRepetition(_) => Err("caused-repetition"),
        EndCond::And(cs) | EndCond::Or(cs) => cs.iter().try_for_each(decidable_now),
        EndCond::Not(c) => decidable_now(c),
        _ => Ok(()),
    }
}

impl Compiler<'_> {
    /// The `phases` section: `(phases (NAME [(when CONDITION)] MOVE-TYPE...) ...)`.
    pub(super) fn phases(
        &mut self,
        section: &Node,
        pieces: &HashMap<String, PieceType>,
        board: &Board,
        move_types: &[String],
    ) -> Vec<Phase> {
        let mut out: Vec<Phase> = vec![];
        for p in section.args() {
            let Some(items) = p
                .list()
                .filter(|l| l.first().and_then(|n| n.atom()).is_some())
            else {
                self.err(
                    p.span,
                    "a phase is (NAME [(when CONDITION)] MOVE-TYPE...), e.g. (placing (when (in-reserve)) place)",
                );
                continue;
            };
            let name = items[0].atom().unwrap_or("").to_string();
            if out.iter().any(|q| q.name.eq_ignore_ascii_case(&name)) {
                self.err(items[0].span, format!("phase `{name}` is declared twice"));
            }
            let mut when = None;
            let mut types = vec![];
            for it in &items[1..] {
                if it.head().is_some_and(|h| h.eq_ignore_ascii_case("when")) {
                    let Some(c) = it.args().first() else {
                        self.err(it.span, "`when` needs a condition");
                        continue;
                    };
                    if when.is_some() {
                        self.err(it.span, "a phase has one `when`");
                    }
                    if let Some(c) = self.end_cond(c, pieces, board) {
                        match decidable_now(&c) {
                            Ok(()) => when = Some(c),
                            Err(w) => self.err(
                                it.span,
                                format!("`{w}` cannot select a phase: it depends on the moves of the phase"),
                            ),
                        }
                    }
                    continue;
                }
                match it.atom() {
                    Some(t) => match move_types.iter().position(|m| m.eq_ignore_ascii_case(t)) {
                        Some(i) => types.push(MoveType(i as u16)),
                        None => self.err(
                            it.span,
                            format!("move type `{t}` is used by no move program"),
                        ),
                    },
                    None => self.err(it.span, "expected a move type or (when CONDITION)"),
                }
            }
            if types.is_empty() {
                self.err(p.span, format!("phase `{name}` allows no move type"));
            }
            out.push(Phase {
                name,
                when,
                move_types: types,
                span: p.span,
            });
        }
        if out.is_empty() {
            self.err(section.span, "`phases` needs at least one phase");
        }
        out
    }
}
