//! Applying moves to a state: one part at a time, or a complete move with the turn passed.

use super::moves::Action;
use super::moves::{Move, Part};
use super::state::State;
use crate::compile::*;

/// Applies one part to a state (not advancing the turn).
pub fn apply_part(game: &Game, state: &mut State, part: &Part, deferred: bool) {
    let np = game.pieces.len();
    // Captures first (they take what stood there when the part began), then every movement at once (a cascade
    // may move a piece onto the square another leaves), then placements and changes in order.
    for a in &part.actions {
        if let Action::Capture { at } = *a {
            let Some(mut x) = state.get(at) else { continue };
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
    let movements = part
        .actions
        .iter()
        .filter(|a| matches!(a, Action::Move { .. }))
        .count();
    if state.has_columns() {
        // A movement carries the whole column (see `super::stack`).
        super::stack::apply_movements(state, part);
    } else if movements == 1 {
        for a in &part.actions {
            if let Action::Move { from, to } = *a {
                let p = state.get(from);
                state.set(from, None);
                state.set(to, p);
            }
        }
    } else if movements > 1 {
        let mut lifted = Vec::with_capacity(movements);
        for a in &part.actions {
            if let Action::Move { from, to } = *a {
                lifted.push((to, state.get(from)));
                state.set(from, None);
            }
        }
        for (to, p) in lifted {
            state.set(to, p);
        }
    }
    for a in &part.actions {
        match *a {
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
    if part.from.is_some() || part.to.is_some() {
        state.last_from = part.from.or(part.to);
        state.last_to = part.to;
    }
}

/// Removes the pieces a composite move captured under `deferred captures`.
fn remove_dead(game: &Game, state: &mut State) {
    let np = game.pieces.len();
    for i in 0..state.cells.len() {
        if let Some(x) = state.cells[i] {
            if x.dead {
                state.set(Pos(i as u16), None);
                if state.has_columns() {
                    state.take_under(Pos(i as u16));
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
    let deferred = game.options.deferred_captures && m.parts.len() > 1;
    for p in &m.parts {
        apply_part(game, &mut s, p, deferred);
    }
    if deferred {
        if s.has_columns() {
            super::stack::release_prisoners(&mut s, m);
        }
        remove_dead(game, &mut s);
    }
    // `(extra-turn)`: the same entry of the turn order moves again; `(goto-turn L)`: the label's entry.
    if !m.extra_turn() {
        s.turn = game.turn_order.next(s.turn);
    }
    if !game.turn_order.labels.is_empty() {
        if let Some(e) = m.goto_turn() {
            s.turn = e;
        }
    }
    s.ply += 1;
    s.passes = if m.is_pass() { s.passes + 1 } else { 0 };
    if let Some(rule) = game.forbid_repetition {
        s.past = super::groups::record(rule, state);
    }
    s
}
