//! A text format for a whole state, to load instead of the start position and to print from any state.
//!
//! ```text
//! # comments start with '#'
//! turn Black            # whose turn: a player (the first turn-order entry of that player) or an entry index
//! ply 12
//! passes 1             # passes made in a row just before (for `pass turn forced`); 0 when absent
//! quiet 37              # plies since the last irreversible move (for `(quiet-plies)`); 0 when absent
//! last e7 e5            # the last move's from and to (for last-from?, last-to?, en passant)
//! piece White King e1 never-moved    # owner, type, position, then the attributes that are true
//! piece White Knight b1 hp=2        # ... and integer attributes that are not 0
//! reserve White Stone 10
//! var moves-made 4      # a game variable (`(variables ...)`); `var captured White 2` a player variable
//! ```
//! Unlisted attributes are false; unlisted positions are empty. In a game with stacks (`(stacks)`), several
//! `piece` lines on one position make a column, listed from the bottom up (the last line is the top); in a
//! game without, a later line replaces an earlier one.
//!
//! Not written: the history (`State::past`) and who made the last move (`State::last_mover`). A state read
//! from text has neither (`last_mover` is `None`), so `caused-repetition` cannot hold in it; both are exact
//! again from the first move played on it.

use super::state::{Piece, State};
use crate::compile::*;

/// Reads a position; errors name the line.
pub fn parse(game: &Game, text: &str) -> Result<State, String> {
    let mut s = State::initial(game);
    for p in 0..s.cells.len() {
        s.set(Pos(p as u16), None);
        s.take_under(Pos(p as u16));
    }
    for slot in 0..s.reserves.len() {
        s.set_reserve(slot, 0);
    }
    let np = game.pieces.len();
    let player = |w: &str, line: usize| {
        game.player(w)
            .ok_or_else(|| format!("line {line}: unknown player `{w}`"))
    };
    let piece = |w: &str, line: usize| {
        game.piece_type(w)
            .ok_or_else(|| format!("line {line}: unknown piece type `{w}`"))
    };
    let pos = |w: &str, line: usize| {
        game.board
            .position(w)
            .ok_or_else(|| format!("line {line}: unknown position `{w}`"))
    };
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let words: Vec<&str> = raw
            .split('#')
            .next()
            .unwrap_or("")
            .split_whitespace()
            .collect();
        match words.as_slice() {
            [] => {}
            ["turn", w] => {
                s.turn = match w.parse::<usize>() {
                    Ok(n) if n < game.turn_order.entries.len() => n,
                    Ok(n) => return Err(format!("line {line}: turn {n} is past the turn order")),
                    Err(_) => {
                        let p = player(w, line)?;
                        game.turn_order
                            .entries
                            .iter()
                            .position(|e| e.player == p)
                            .ok_or_else(|| {
                                format!("line {line}: `{w}` has no turn in the turn order")
                            })?
                    }
                }
            }
            ["ply", n] => {
                s.ply = n
                    .parse()
                    .map_err(|_| format!("line {line}: `ply` needs a number"))?
            }
            ["quiet", n] => {
                s.quiet = n
                    .parse()
                    .map_err(|_| format!("line {line}: `quiet` needs a number"))?
            }
            ["passes", n] => {
                s.passes = n
                    .parse()
                    .map_err(|_| format!("line {line}: `passes` needs a number"))?
            }
            ["last", f, t] => {
                s.last_from = Some(pos(f, line)?);
                s.last_to = Some(pos(t, line)?);
            }
            ["piece", p, t, at, attrs @ ..] => {
                let (owner, kind, at) = (player(p, line)?, piece(t, line)?, pos(at, line)?);
                let mut bits = AttrBits::default();
                for a in attrs {
                    if let Some((name, v)) = a.split_once('=') {
                        // An integer attribute: `hp=2`.
                        let k = game
                            .int_attributes
                            .iter()
                            .position(|x| game.attributes[x.idx()].eq_ignore_ascii_case(name))
                            .ok_or_else(|| format!("line {line}: unknown integer attribute `{name}`"))?;
                        let v: i8 = v
                            .parse()
                            .map_err(|_| format!("line {line}: `{a}`: an integer from -128 to 127"))?;
                        bits.set_int(k, v);
                        bits.set(game.int_attributes[k].idx(), v != 0);
                        continue;
                    }
                    let id = game
                        .attributes
                        .iter()
                        .position(|x| {
                            x.eq_ignore_ascii_case(a)
                                || x.trim_end_matches('?').eq_ignore_ascii_case(a)
                        })
                        .ok_or_else(|| format!("line {line}: unknown attribute `{a}`"))?;
                    bits.set(id, true);
                }
                let piece = Piece {
                    kind,
                    owner,
                    attrs: bits,
                    dead: false,
                };
                if s.has_columns() {
                    s.put_on_top(at, piece);
                } else {
                    // Without stacks a later line replaces an earlier one (position texts rely on it).
                    s.set(at, Some(piece));
                }
            }
            ["var", name, rest @ ..] if !rest.is_empty() && rest.len() <= 2 => {
                let v = game
                    .variables
                    .iter()
                    .find(|v| v.name.eq_ignore_ascii_case(name))
                    .ok_or_else(|| format!("line {line}: unknown variable `{name}`"))?;
                let slot = match (v.per_player, rest) {
                    (false, [_]) => v.slot,
                    (true, [p, _]) => v.slot + player(p, line)?.idx(),
                    _ => return Err(format!("line {line}: `var {name}` needs {}a value", if v.per_player { "a player and " } else { "" })),
                };
                let value = rest[rest.len() - 1]
                    .parse()
                    .map_err(|_| format!("line {line}: a variable's value is an integer"))?;
                s.set_var(slot, value);
            }
            ["reserve", p, t, n] => {
                let slot = player(p, line)?.idx() * np + piece(t, line)?.idx();
                let n = n
                    .parse()
                    .map_err(|_| format!("line {line}: a reserve needs a count"))?;
                s.set_reserve(slot, n);
            }
            _ => {
                return Err(format!(
                    "line {line}: expected `turn`, `ply`, `passes`, `quiet`, `last`, `piece`, `reserve` or `var`, found `{}`",
                    raw.trim()
                ))
            }
        }
    }
    Ok(s)
}

/// Writes a state in the format [`parse`] reads.
pub fn format(game: &Game, s: &State) -> String {
    let mut out = String::new();
    let entry = &game.turn_order.entries[s.turn];
    let first = game
        .turn_order
        .entries
        .iter()
        .position(|e| e.player == entry.player);
    if first == Some(s.turn) {
        out += &format!("turn {}\n", game.players[entry.player.idx()].name);
    } else {
        out += &format!("turn {}\n", s.turn);
    }
    out += &format!("ply {}\n", s.ply);
    if s.passes > 0 {
        out += &format!("passes {}\n", s.passes);
    }
    if s.quiet > 0 {
        out += &format!("quiet {}\n", s.quiet);
    }
    if let (Some(f), Some(t)) = (s.last_from, s.last_to) {
        out += &format!(
            "last {} {}\n",
            game.board.pos_name(f),
            game.board.pos_name(t)
        );
    }
    for (i, c) in s.cells.iter().enumerate() {
        if let Some(top) = c {
            // A column from the bottom up, the top last.
            let under = s.under(Pos(i as u16));
            for x in under.iter().rev().chain(std::iter::once(top)) {
                out += &format!(
                    "piece {} {} {}",
                    game.players[x.owner.idx()].name,
                    game.pieces[x.kind.idx()].name,
                    game.board.positions[i].name
                );
                for (a, name) in game.attributes.iter().enumerate() {
                    if x.attrs.get(a) && !game.int_attributes.iter().any(|i| i.idx() == a) {
                        out += " ";
                        out += name;
                    }
                }
                for (k, a) in game.int_attributes.iter().enumerate() {
                    let v = x.attrs.get_int(k);
                    if v != 0 {
                        out += &format!(" {}={v}", game.attributes[a.idx()]);
                    }
                }
                out += "\n";
            }
        }
    }
    for v in &game.variables {
        if v.per_player {
            for (p, info) in game.players.iter().enumerate() {
                out += &format!("var {} {} {}\n", v.name, info.name, s.vars[v.slot + p]);
            }
        } else {
            out += &format!("var {} {}\n", v.name, s.vars[v.slot]);
        }
    }
    let np = game.pieces.len();
    for (slot, &n) in s.reserves.iter().enumerate() {
        if n > 0 {
            out += &format!(
                "reserve {} {} {n}\n",
                game.players[slot / np].name,
                game.pieces[slot % np].name
            );
        }
    }
    out
}
