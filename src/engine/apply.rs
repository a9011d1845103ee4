//! Applying moves to a state: one part at a time, or a complete move with the turn passed.

use super::moves::{Action, Move, Part};
use super::state::State;
use crate::compile::*;

/// A part as the apply functions read it: its actions, where its piece started and where it ended. Borrowed
/// from an owned [`Part`] or from a move buffer (`super::buffer`).
#[derive(Clone, Copy, Debug)]
pub struct PartView<'a> {
    pub actions: &'a [Action],
    pub from: Option<Pos>,
    pub to: Option<Pos>,
}

impl<'a> From<&'a Part> for PartView<'a> {
    fn from(p: &'a Part) -> PartView<'a> {
        PartView {
            actions: &p.actions,
            from: p.from,
            to: p.to,
        }
    }
}

/// Applies one part to a state (not advancing the turn).
pub fn apply_part(game: &Game, state: &mut State, part: &Part, deferred: bool) {
    apply_actions(game, state, part.into(), deferred)
}

/// Applies one part, given as a view, to a state (not advancing the turn).
pub fn apply_actions(game: &Game, state: &mut State, part: PartView<'_>, deferred: bool) {
    let PartView { actions, from, to } = part;
    let np = game.pieces.len();
    // Captures first (they take what stood there when the part began), then every movement at once (a cascade
    // may move a piece onto the square another leaves), then placements and changes in order.
    for a in actions {
        if let Action::Capture { at } = *a {
            let Some(mut x) = state.get(at) else { continue };
            if from == Some(at) && to != from {
                // The moving piece, removed by a capture of its own destination (Zillions' kamikaze,
                // `run/emit.rs`): it leaves the game at once, even under deferred captures, and goes to no hand
                // or reserve (it is not a piece taken; `Part::taken`). The movement then carries nothing.
                state.set(at, None);
                if state.has_columns() {
                    state.take_under(at);
                }
                continue;
            }
            if deferred {
                x.dead = true;
                state.set(at, Some(x));
            } else {
                state.set(at, None);
                if state.has_columns() {
                    state.take_under(at);
                }
                if let Some(hand) = &game.captures_to_hand {
                    // To the hand of the player making the move, as its base type.
                    let captor = game.turn_order.entries[state.turn].moves_as;
                    let slot = captor.idx() * np + hand[x.kind.idx()].idx();
                    let c = state.reserves[slot] + 1;
                    state.set_reserve(slot, c);
                } else if game.options.recycle_captures {
                    let slot = x.owner.idx() * np + x.kind.idx();
                    let c = state.reserves[slot] + 1;
                    state.set_reserve(slot, c);
                }
            }
        }
    }
    let movements = actions
        .iter()
        .filter(|a| matches!(a, Action::Move { .. }))
        .count();
    if state.has_columns() {
        // A movement carries the whole column (see `super::stack`).
        super::stack::apply_movements(state, actions);
    } else if movements == 1 {
        for a in actions {
            if let Action::Move { from, to } = *a {
                let p = state.get(from);
                state.set(from, None);
                state.set(to, p);
            }
        }
    } else if movements > 1 {
        // Lift every moving piece, then put them down (castling: two movements). Lifted pieces are read back
        // from the actions, so nothing is allocated.
        let mut lifted = [None; 8];
        if movements > lifted.len() {
            let mut many = Vec::with_capacity(movements);
            for a in actions {
                if let Action::Move { from, to } = *a {
                    many.push((to, state.get(from)));
                    state.set(from, None);
                }
            }
            for (to, p) in many {
                state.set(to, p);
            }
        } else {
            let mut k = 0;
            for a in actions {
                if let Action::Move { from, .. } = *a {
                    lifted[k] = state.get(from);
                    state.set(from, None);
                    k += 1;
                }
            }
            k = 0;
            for a in actions {
                if let Action::Move { to, .. } = *a {
                    state.set(to, lifted[k]);
                    k += 1;
                }
            }
        }
    }
    for (i, a) in actions.iter().enumerate() {
        match *a {
            // A capture listed after a placement on its square removes the piece placed: a drop that captures
            // its own square (Zillions' kamikaze, `run/emit.rs`). Every other capture was applied above.
            Action::Capture { at }
                if actions[..i]
                    .iter()
                    .any(|b| matches!(*b, Action::Place { at: p, .. } if p == at)) =>
            {
                state.set(at, None);
            }
            Action::Move { .. }
            | Action::Capture { .. }
            | Action::ExtraTurn
            | Action::GotoTurn { .. }
            | Action::MoveTop { .. } => {}
            Action::TakePrisoner { at, to } => super::stack::take_prisoner(state, at, to, deferred),
            Action::Place { at, piece, reserve } => {
                state.set(at, Some(piece));
                if reserve {
                    let slot = piece.owner.idx() * np + piece.kind.idx();
                    let c = state.reserves[slot].saturating_sub(1);
                    state.set_reserve(slot, c);
                }
            }
            Action::ChangeType { at, kind } => {
                if let Some(mut x) = state.get(at) {
                    x.kind = kind;
                    state.set(at, Some(x));
                }
            }
            Action::ChangeOwner { at, owner } => {
                if let Some(mut x) = state.get(at) {
                    x.owner = owner;
                    state.set(at, Some(x));
                }
            }
            Action::SetVar { slot, value } => state.set_var(slot as usize, value),
            Action::SetIntAttribute { at, field, value } => {
                if let Some(mut x) = state.get(at) {
                    x.attrs.set_int(field as usize, value);
                    let a = game.int_attributes[field as usize];
                    x.attrs.set(a.idx(), value != 0);
                    state.set(at, Some(x));
                }
            }
            Action::SetAttribute { at, attr, value } => {
                if let Some(mut x) = state.get(at) {
                    x.attrs.set(attr.idx(), value);
                    state.set(at, Some(x));
                }
            }
        }
    }
    // A part with no destination (a `move-post` part, `gen::move_post`) leaves the last move's squares.
    if to.is_some() {
        state.last_from = from.or(to);
        state.last_to = to;
    }
}

/// Removes the pieces a composite move captured under `deferred captures`: only the squares its captures name
/// (`at`) can hold one, since a captured piece can neither move nor be captured again until the move ends.
fn remove_dead(game: &Game, state: &mut State, at: impl Iterator<Item = Pos>) {
    let np = game.pieces.len();
    for p in at {
        if let Some(x) = state.get(p) {
            if x.dead {
                state.set(p, None);
                if state.has_columns() {
                    state.take_under(p);
                }
                if let Some(hand) = &game.captures_to_hand {
                    let captor = game.turn_order.entries[state.turn].moves_as;
                    let slot = captor.idx() * np + hand[x.kind.idx()].idx();
                    let c = state.reserves[slot] + 1;
                    state.set_reserve(slot, c);
                } else if game.options.recycle_captures {
                    let slot = x.owner.idx() * np + x.kind.idx();
                    let c = state.reserves[slot] + 1;
                    state.set_reserve(slot, c);
                }
            }
        }
    }
}

/// Applies a complete move and passes the turn.
pub fn apply_move(game: &Game, state: &State, m: &Move) -> State {
    let mut s = state.clone();
    play(game, &mut s, m);
    s
}

/// Applies a complete move to the state in place and passes the turn (copy-free; see [`make`] to undo it).
pub fn play(game: &Game, state: &mut State, m: &Move) {
    play_parts(game, state, m.parts.len(), |i| (&m.parts[i]).into())
}

/// Applies a complete move of `n` parts, the part `i` given by `part(i)`, and passes the turn.
pub fn play_parts<'a>(game: &Game, s: &mut State, n: usize, part: impl Fn(usize) -> PartView<'a>) {
    let past = game
        .forbid_repetition
        .map(|rule| super::groups::record(rule, s));
    let deferred = game.options.deferred_captures && n > 1;
    // `(quiet-plies)`: whether this move is irreversible, each part read on the board before it.
    let irr = game.irreversible.as_deref();
    let mut progress = false;
    // `(ply-variables ...)` and `(turn-variables ...)`: back to their start values before the move's own
    // changes.
    for v in &game.variables {
        if (v.per_ply || v.per_turn) && s.vars.get(v.slot).is_some_and(|&x| x != v.init) {
            s.set_var(v.slot, v.init);
        }
    }
    let mut extra = false;
    let mut goto = None;
    for i in 0..n {
        let p = part(i);
        if let Some(types) = irr {
            progress = progress || irreversible(s, types, p.actions);
        }
        // The commonest part, a piece moving (and taking what stands where it lands), written directly:
        // what `apply_actions` does for it where a capture goes nowhere (no hand, no recycling, no columns).
        if let [Action::Move { from, to }]
        | [Action::Capture { at: _ }, Action::Move { from, to }] = p.actions
        {
            if !s.has_columns()
                && game.captures_to_hand.is_none()
                && !game.options.recycle_captures
                && !deferred
            {
                if let [Action::Capture { at }, _] = p.actions {
                    if s.get(*at).is_some() {
                        s.set(*at, None);
                    }
                }
                let x = s.get(*from);
                s.set(*from, None);
                s.set(*to, x);
                if p.to.is_some() {
                    s.last_from = p.from.or(p.to);
                    s.last_to = p.to;
                }
                continue;
            }
        }
        apply_actions(game, s, p, deferred);
        for a in p.actions {
            match *a {
                Action::ExtraTurn => extra = true,
                Action::GotoTurn { entry } => goto = Some(entry as usize),
                _ => {}
            }
        }
    }
    if deferred {
        if s.has_columns() {
            if let Some(end) = part(n - 1).to {
                let prisoners =
                    (0..n)
                        .flat_map(|i| part(i).actions.iter())
                        .filter_map(|a| match a {
                            Action::TakePrisoner { at, .. } => Some(*at),
                            _ => None,
                        });
                super::stack::release_prisoners(s, end, prisoners);
            }
        }
        let captured = (0..n)
            .flat_map(|i| part(i).actions.iter())
            .filter_map(|a| match a {
                Action::Capture { at } | Action::TakePrisoner { at, .. } => Some(*at),
                _ => None,
            });
        remove_dead(game, s, captured);
    }
    // Who made this move (or pass): the player of the entry it was played in, before the turn moves on.
    s.last_mover = Some(game.turn_order.entries[s.turn].player);
    // `(extra-turn)`: the same entry of the turn order moves again; `(goto-turn L)`: the label's entry.
    if !extra {
        s.turn = game.turn_order.next(s.turn);
    }
    if !game.turn_order.labels.is_empty() {
        if let Some(e) = goto {
            s.turn = e;
        }
    }
    s.ply += 1;
    s.passes = if n == 0 { s.passes + 1 } else { 0 };
    if irr.is_some() {
        s.quiet = if progress {
            0
        } else {
            s.quiet.saturating_add(1)
        };
    }
    if let Some(p) = past {
        s.past = p;
    }
}

/// Whether a part's actions, read on the state before them, make an irreversible move: it removes a piece
/// from the board (an explicit capture, or a movement onto an occupied position), or moves, places or
/// changes a piece of one of `types` (`(irreversible T...)`).
fn irreversible(s: &State, types: &[PieceType], actions: &[Action]) -> bool {
    let listed = |at: Pos| s.get(at).is_some_and(|x| types.contains(&x.kind));
    actions.iter().any(|a| match *a {
        Action::Capture { at } => s.get(at).is_some(),
        Action::Move { from, to } | Action::MoveTop { from, to, .. } => {
            listed(from) || (from != to && s.get(to).is_some())
        }
        Action::TakePrisoner { .. } => true,
        Action::Place { piece, .. } => types.contains(&piece.kind),
        Action::ChangeType { at, kind } => listed(at) || types.contains(&kind),
        _ => false,
    })
}

/// What [`make`] changed, so that [`unmake`] restores the state exactly (cells, columns, hash, reserves,
/// variables, last move, turn, ply, passes, history). One log serves a whole search: makes nest, each
/// [`unmake`] undoes the latest, and the buffers keep their capacity, so a make costs no allocation once
/// warm (games with stacks excepted: a column is saved as a copy).
///
/// How: before a move or part is applied, the log saves the contents of every square its actions (and its
/// `from` and `to`) name, and the reserves or variables when an action may change them. Every write of the
/// apply functions is to such a square (captured pieces, movements, placements, changes, prisoners; the
/// pieces `remove_dead` takes were captured by the same move), which the round-trip test
/// (`tests/make_undo.rs`) checks on random games of every file of `games/`.
#[derive(Debug, Default)]
pub struct Undo {
    frames: Vec<Frame>,
    cells: Vec<(Pos, Option<super::Piece>)>,
    columns: Vec<(Pos, Vec<super::Piece>)>,
    reserves: Vec<u32>,
    vars: Vec<i32>,
}

#[derive(Debug)]
struct Frame {
    cells: usize,
    columns: usize,
    /// Where this frame's copy of the reserves starts in `Undo::reserves`, if it saved them.
    reserves: Option<usize>,
    vars: Option<usize>,
    hash: u64,
    turn: usize,
    ply: u32,
    passes: u32,
    quiet: u32,
    last_from: Option<Pos>,
    last_to: Option<Pos>,
    last_mover: Option<Player>,
    past: Option<super::groups::Past>,
    /// The length of `State::trail` before (parts of a composite move push onto it).
    trail: usize,
}

impl Undo {
    pub fn new() -> Undo {
        Undo::default()
    }

    /// Moves made and not yet undone.
    pub fn depth(&self) -> usize {
        self.frames.len()
    }

    /// Saves what the parts may change; `whole` for a complete move (the history changes too).
    fn save<'a>(
        &mut self,
        game: &Game,
        s: &State,
        parts: impl Iterator<Item = PartView<'a>>,
        whole: bool,
    ) {
        let mut frame = Frame {
            cells: self.cells.len(),
            columns: self.columns.len(),
            reserves: None,
            vars: None,
            hash: s.hash,
            turn: s.turn,
            ply: s.ply,
            passes: s.passes,
            quiet: s.quiet,
            last_from: s.last_from,
            last_to: s.last_to,
            last_mover: s.last_mover,
            past: (whole && game.forbid_repetition.is_some()).then(|| s.past.clone()),
            trail: s.trail.len(),
        };
        let columns = s.has_columns();
        let mut reserves = false;
        let mut vars = false;
        for p in parts {
            for pos in p.from.into_iter().chain(p.to) {
                self.cell(s, pos, columns);
            }
            for a in p.actions {
                match *a {
                    Action::Move { from, to }
                    | Action::MoveTop { from, to, .. }
                    | Action::TakePrisoner { at: from, to } => {
                        self.cell(s, from, columns);
                        self.cell(s, to, columns);
                    }
                    Action::Capture { at } => {
                        reserves = true;
                        self.cell(s, at, columns);
                    }
                    Action::Place { at, reserve, .. } => {
                        reserves |= reserve;
                        self.cell(s, at, columns);
                    }
                    Action::ChangeType { at, .. }
                    | Action::ChangeOwner { at, .. }
                    | Action::SetAttribute { at, .. }
                    | Action::SetIntAttribute { at, .. } => self.cell(s, at, columns),
                    Action::SetVar { .. } => vars = true,
                    Action::ExtraTurn | Action::GotoTurn { .. } => {}
                }
            }
        }
        if reserves && !s.reserves.is_empty() {
            frame.reserves = Some(self.reserves.len());
            self.reserves.extend_from_slice(&s.reserves);
        }
        // A whole move also resets the `ply-variables` and `turn-variables`.
        vars |= whole && game.variables.iter().any(|v| v.per_ply || v.per_turn);
        if vars && !s.vars.is_empty() {
            frame.vars = Some(self.vars.len());
            self.vars.extend_from_slice(&s.vars);
        }
        self.frames.push(frame);
    }

    #[inline]
    fn cell(&mut self, s: &State, pos: Pos, columns: bool) {
        self.cells.push((pos, s.cells[pos.idx()]));
        if columns {
            self.columns.push((pos, s.under(pos).to_vec()));
        }
    }
}

/// Applies a complete move in place and passes the turn, saving in `undo` what [`unmake`] needs.
pub fn make(game: &Game, state: &mut State, m: &Move, undo: &mut Undo) {
    make_parts(game, state, m.parts.len(), |i| (&m.parts[i]).into(), undo)
}

/// [`make`] for a move of `n` parts given by views.
pub fn make_parts<'a>(
    game: &Game,
    state: &mut State,
    n: usize,
    part: impl Fn(usize) -> PartView<'a> + Copy,
    undo: &mut Undo,
) {
    undo.save(game, state, (0..n).map(part), true);
    play_parts(game, state, n, part);
}

/// Applies one part in place (not passing the turn), saving in `undo` what [`unmake`] needs: the step of a
/// composite move.
pub fn make_part(
    game: &Game,
    state: &mut State,
    part: PartView<'_>,
    deferred: bool,
    undo: &mut Undo,
) {
    undo.save(game, state, std::iter::once(part), false);
    apply_actions(game, state, part, deferred);
    note_part(game, state, part);
}

/// Adds a part made inside a composite move to the move's memory (`State::trail`), in games that read it:
/// the piece's start square before the first part, then the square where each part ends.
pub(super) fn note_part(game: &Game, state: &mut State, part: PartView<'_>) {
    if !game.options.move_memory {
        return;
    }
    if state.trail.is_empty() {
        if let Some(f) = part.from {
            state.trail.push(f);
        }
    }
    if let Some(t) = part.to {
        state.trail.push(t);
    }
}

/// Undoes the latest [`make`] or [`make_part`] still made.
pub fn unmake(state: &mut State, undo: &mut Undo) {
    let Some(f) = undo.frames.pop() else { return };
    for (pos, c) in undo.cells.drain(f.cells..).rev() {
        state.put(pos, c);
    }
    if let Some(cols) = &mut state.columns {
        for (pos, c) in undo.columns.drain(f.columns..).rev() {
            cols[pos.idx()] = c;
        }
    }
    if let Some(r) = f.reserves {
        let n = state.reserves.len();
        state.reserves.copy_from_slice(&undo.reserves[r..r + n]);
        undo.reserves.truncate(r);
    }
    if let Some(v) = f.vars {
        let n = state.vars.len();
        state.vars.copy_from_slice(&undo.vars[v..v + n]);
        undo.vars.truncate(v);
    }
    state.hash = f.hash;
    state.turn = f.turn;
    state.ply = f.ply;
    state.passes = f.passes;
    state.quiet = f.quiet;
    state.last_from = f.last_from;
    state.last_to = f.last_to;
    state.last_mover = f.last_mover;
    state.trail.truncate(f.trail);
    if let Some(p) = f.past {
        state.past = p;
    }
}
