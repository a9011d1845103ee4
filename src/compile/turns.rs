//! This project's turn-order and choice forms (docs/language.md, "Turn order and phases" and "Choices"):
//! the `phases` section, and the compile-time shaping of `choose` in move programs.
//!
//! A `choose` forks the program: each chosen position runs the rest of the program on its own path. The
//! interpreter runs blocks without continuations, so the compiler moves whatever follows a `choose` (in its
//! block and in every enclosing block) into the choice's `rest`, copying the tail into both branches of an
//! enclosing `if`. A `choose` inside a `while` is refused: the loop's next rounds would be a tail too.

use super::game::PlayerInfo;
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

/// Moves the tail after each `choose` into it (see the module's paragraph). `None` when a `choose` stands
/// inside a `while` (the compiler has reported that as an error already).
pub fn sink_choices(mut body: Vec<Instr>) -> Option<Vec<Instr>> {
    let Some(i) = body.iter().position(has_choice) else {
        return Some(body);
    };
    let tail: Vec<Instr> = body.split_off(i + 1);
    let Some(last) = body.pop() else {
        return Some(body);
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
        _ => return None,
    };
    body.push(shaped);
    Some(body)
}

/// The turn-order labels: each name with the turn it stands before.
pub(super) type Labels = Vec<(String, usize)>;
/// The turn-order jumps: each (entry jumped after, entry jumped to) pair.
pub(super) type Jumps = Vec<(usize, usize)>;

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

/// `(label NAME)` and `(goto NAME)` read from a turn order, resolved once the whole order is read.
#[derive(Default)]
pub struct Marks {
    /// Each label, the entry it stands before, and where it is written.
    labels: Vec<(String, usize, crate::lang::Span)>,
    /// Each `goto`: the entry it follows, the label named, where it is written.
    gotos: Vec<(Option<usize>, String, crate::lang::Span)>,
}

impl Compiler<'_> {
    /// Reads `(label NAME)` or `(goto NAME)` at its place in the turn order (`entries` entries before it);
    /// `false` for anything else (a turn). A player named `label` or `goto` keeps its ZRF meaning.
    pub(super) fn turn_mark(
        &mut self,
        a: &Node,
        players: &[PlayerInfo],
        entries: usize,
        marks: &mut Marks,
    ) -> bool {
        let Some(head) = a.head().map(str::to_ascii_lowercase) else {
            return false;
        };
        if !matches!(head.as_str(), "label" | "goto")
            || players.iter().any(|p| p.name.eq_ignore_ascii_case(&head))
        {
            return false;
        }
        let name = match a.args() {
            [n] if n.atom().is_some() => n.atom().unwrap_or("").to_ascii_lowercase(),
            _ => {
                self.err(
                    a.span,
                    format!("`{head}` names one label, as in ({head} board)"),
                );
                return true;
            }
        };
        if head == "label" {
            if marks.labels.iter().any(|l| l.0 == name) {
                self.err(a.span, format!("label `{name}` is declared twice"));
            } else {
                marks.labels.push((name, entries, a.span));
            }
        } else {
            let after = entries.checked_sub(1);
            if after.is_some() && marks.gotos.iter().any(|g| g.0 == after) {
                self.err(a.span, "two `goto` follow one turn");
            }
            marks.gotos.push((after, name, a.span));
        }
        true
    }

    /// The labels (name, entry) and jumps (after entry, to entry) of a turn order of `len` entries.
    pub(super) fn resolve_marks(&mut self, marks: Marks, len: usize) -> (Labels, Jumps) {
        let mut labels = vec![];
        for (name, at, span) in marks.labels {
            if at >= len {
                self.err(span, format!("label `{name}` stands before no turn"));
                continue;
            }
            labels.push((name, at));
        }
        let mut jumps = vec![];
        for (after, name, span) in marks.gotos {
            let Some(&(_, to)) = labels.iter().find(|l| l.0 == name) else {
                let known: Vec<&str> = labels.iter().map(|l| l.0.as_str()).collect();
                let d = crate::lang::Diagnostic::error(span, format!("unknown label `{name}`"));
                self.diags
                    .push(match crate::lang::diag::suggest(&name, known) {
                        Some(s) => d.with_hint(format!("did you mean `{s}`?")),
                        None => d.with_hint("declare it before a turn: (label NAME)"),
                    });
                continue;
            };
            match after {
                Some(e) => jumps.push((e, to)),
                None => self.err(
                    span,
                    "`goto` follows a turn: write it after the turn it ends",
                ),
            }
        }
        (labels, jumps)
    }
}

impl super::program::ProgramCompiler<'_, '_> {
    /// `(goto-turn LABEL)`: after the move, the turn order goes on at the label.
    pub(super) fn goto_turn(&mut self, node: &Node, args: &[Node]) -> Option<Instr> {
        let labels = self.names.turn_labels;
        let name = match args {
            [n] => n.atom().unwrap_or(""),
            _ => "",
        };
        match labels.iter().find(|l| l.0.eq_ignore_ascii_case(name)) {
            Some(&(_, entry)) => Some(Instr::GotoTurn(entry as u16)),
            None => {
                let at = args.first().map_or(node.span, |n| n.span);
                let known: Vec<&str> = labels.iter().map(|l| l.0.as_str()).collect();
                let d = crate::lang::Diagnostic::error(
                    at,
                    if name.is_empty() {
                        "`goto-turn` names one label of the turn order".to_string()
                    } else {
                        format!("unknown label `{name}`")
                    },
                );
                self.diags
                    .push(match crate::lang::diag::suggest(name, known) {
                        Some(s) => d.with_hint(format!("did you mean `{s}`?")),
                        None => d.with_hint(
                            "declare it in the turn order: (turn-order (label NAME) ...)",
                        ),
                    });
                None
            }
        }
    }
}
