//! `dagaz session`: a JSON-lines protocol on stdin/stdout through which any program drives the engine. One
//! request per line, one response per line. See `docs/protocol.md`.

use crate::compile::Game;
use crate::engine::{Action, Engine, Move, Outcome, State};
use serde_json::{json, Value};
use std::io::{BufRead, Write};

/// A piece's attributes as JSON fields: `attributes`, its true boolean attributes, and `values`, its integer
/// attributes that are not 0 (as a position file writes them: `hp=2`).
fn attributes_json(g: &Game, x: &crate::engine::state::Piece) -> (Value, Value) {
    let is_int = |a: usize| g.int_attributes.iter().any(|i| i.idx() == a);
    let flags: Vec<&str> = (0..g.attributes.len())
        .filter(|&a| !is_int(a) && x.attrs.get(a))
        .map(|a| g.attributes[a].as_str())
        .collect();
    let mut values = serde_json::Map::new();
    for (k, a) in g.int_attributes.iter().enumerate() {
        let v = x.attrs.get_int(k);
        if v != 0 {
            values.insert(g.attributes[a.idx()].clone(), json!(v));
        }
    }
    (json!(flags), Value::Object(values))
}

fn action_json(g: &Game, a: &Action) -> Value {
    let pos = |p: crate::compile::Pos| g.board.pos_name(p).to_string();
    match *a {
        Action::Move { from, to } => json!({"action": "move", "from": pos(from), "to": pos(to)}),
        Action::Capture { at } => json!({"action": "capture", "at": pos(at)}),
        Action::Place { at, piece, reserve } => {
            let (attributes, values) = attributes_json(g, &piece);
            json!({"action": "place", "at": pos(at), "piece": g.pieces[piece.kind.idx()].name,
                "player": g.players[piece.owner.idx()].name, "from_reserve": reserve,
                "attributes": attributes, "values": values})
        }
        Action::ChangeType { at, kind } => {
            json!({"action": "change-type", "at": pos(at), "piece": g.pieces[kind.idx()].name})
        }
        Action::ChangeOwner { at, owner } => {
            json!({"action": "change-owner", "at": pos(at), "player": g.players[owner.idx()].name})
        }
        Action::SetIntAttribute { at, field, value } => {
            json!({"action": "set-attribute", "at": pos(at),
            "attribute": g.attributes[g.int_attributes[field as usize].idx()], "value": value})
        }
        Action::SetVar { slot, value } => {
            json!({"action": "set-var", "variable": crate::engine::moves::var_name(g, slot), "value": value})
        }
        Action::SetAttribute { at, attr, value } => {
            json!({"action": "set-attribute", "at": pos(at),
            "attribute": g.attributes[attr.idx()], "value": value})
        }
        Action::ExtraTurn => json!({"action": "extra-turn"}),
        Action::GotoTurn { entry } => json!({"action": "goto-turn", "entry": entry}),
        Action::MoveTop { from, to, count } => {
            json!({"action": "move-top", "from": pos(from), "to": pos(to), "count": count})
        }
        Action::TakePrisoner { at, to } => {
            json!({"action": "take-prisoner", "at": pos(at), "to": pos(to)})
        }
    }
}

/// A move in structured form: its id in the current move list, its notation in that list (see
/// [`Move::notations`]), and parts with their actions.
pub fn move_json(g: &Game, id: usize, m: &Move, notation: &str) -> Value {
    let parts: Vec<Value> = m
        .parts
        .iter()
        .map(|p| {
            json!({
                "from": p.from.map(|f| g.board.pos_name(f).to_string()),
                "to": p.to.map(|t| g.board.pos_name(t).to_string()),
                "piece": g.pieces[p.piece.idx()].name,
                "actions": p.actions.iter().map(|a| action_json(g, a)).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({"id": id, "notation": notation, "parts": parts})
}

pub fn outcome_json(g: &Game, o: &Outcome) -> Value {
    let results: serde_json::Map<String, Value> = g
        .players
        .iter()
        .zip(&o.results)
        .map(|(p, r)| (p.name.clone(), json!(r)))
        .collect();
    json!({"end_type": o.end_type, "name": o.name, "priority": o.priority, "results": results})
}

/// The state as JSON: pieces by position, reserves, whose turn, last move.
pub fn state_json(g: &Game, s: &State) -> Value {
    let mut pieces = vec![];
    for (i, c) in s.cells().iter().enumerate() {
        if let Some(x) = c {
            let (attributes, values) = attributes_json(g, x);
            let mut piece = json!({"at": g.board.positions[i].name, "piece": g.pieces[x.kind.idx()].name,
                "player": g.players[x.owner.idx()].name, "attributes": attributes, "values": values});
            // A column: the pieces under the top, from the one just under it down to the bottom.
            let under = s.under(crate::compile::Pos(i as u16));
            if !under.is_empty() {
                piece["under"] = under
                    .iter()
                    .map(|u| json!({"piece": g.pieces[u.kind.idx()].name, "player": g.players[u.owner.idx()].name}))
                    .collect();
            }
            pieces.push(piece);
        }
    }
    let np = g.pieces.len();
    let mut reserves = vec![];
    for (slot, &n) in s.reserves().iter().enumerate() {
        if n > 0 {
            reserves.push(json!({"player": g.players[slot / np].name, "piece": g.pieces[slot % np].name, "count": n}));
        }
    }
    let turn = &g.turn_order.entries[s.turn()];
    json!({
        "to_move": g.players[turn.player.idx()].name,
        "ply": s.ply(),
        "last_from": s.last_from().map(|p| g.board.pos_name(p).to_string()),
        "last_to": s.last_to().map(|p| g.board.pos_name(p).to_string()),
        "last_mover": s.last_mover().map(|p| g.players[p.idx()].name.clone()),
        "pieces": pieces,
        "reserves": reserves,
    })
}

/// The longest request line read, in bytes (a `load` carries a whole position): a longer line is answered
/// with an error and skipped, so that no input can make the session hold more than this.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// A line of input: its bytes (without the newline), or that it was longer than [`MAX_LINE_BYTES`] (the rest
/// of it read and dropped). `None` at the end of the input.
enum Line {
    Bytes(Vec<u8>),
    TooLong,
}

fn next_line(r: &mut impl BufRead) -> std::io::Result<Option<Line>> {
    let mut line = Vec::new();
    let mut too_long = false;
    let mut any = false;
    loop {
        let buf = match r.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok(any.then_some({
                if too_long {
                    Line::TooLong
                } else {
                    Line::Bytes(line)
                }
            }));
        }
        any = true;
        let (part, end) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        if !too_long {
            if line.len() + part.len() > MAX_LINE_BYTES {
                too_long = true;
                line = Vec::new();
            } else {
                line.extend_from_slice(part);
            }
        }
        let used = end.unwrap_or(buf.len());
        r.consume(used);
        if end.is_some() {
            return Ok(Some(if too_long {
                Line::TooLong
            } else {
                Line::Bytes(line)
            }));
        }
    }
}

/// Runs a session until end of input or `quit`. A line that is too long, not UTF-8 or not JSON gets an error
/// answer, and the session goes on.
pub fn run(game: &Game, mut input: impl BufRead, mut output: impl Write) -> std::io::Result<()> {
    let engine = Engine::new(game);
    let mut stack: Vec<State> = vec![engine.initial()];
    let mut history: Vec<u64> = vec![];
    let mut lineno = 0usize;
    while let Some(line) = next_line(&mut input)? {
        lineno += 1;
        let line = match line {
            Line::TooLong => {
                let e = format!("line {lineno}: longer than {MAX_LINE_BYTES} bytes; skipped");
                writeln!(output, "{}", json!({ "error": e }))?;
                output.flush()?;
                continue;
            }
            Line::Bytes(b) => match String::from_utf8(b) {
                Ok(l) => l,
                Err(e) => {
                    let e = format!("line {lineno}: not UTF-8: {}", e.utf8_error());
                    writeln!(output, "{}", json!({ "error": e }))?;
                    output.flush()?;
                    continue;
                }
            },
        };
        let line = line.strip_suffix('\r').unwrap_or(&line);
        if line.trim().is_empty() {
            continue;
        }
        let lineno = lineno - 1;
        let reply = match serde_json::from_str::<Value>(line) {
            Err(e) => json!({"error": format!("line {}: not JSON: {e}", lineno + 1)}),
            Ok(req) => {
                let cmd = req.get("cmd").and_then(Value::as_str).unwrap_or("");
                let s = stack.last().unwrap().clone();
                let moves = engine.legal_moves(&s);
                match (cmd, moves) {
                    ("quit", _) => break,
                    (_, Err(e)) => json!({"error": format!("engine error: {e}")}),
                    ("info", _) => {
                        json!({"title": game.title, "players": game.players.iter().map(|p| p.name.clone()).collect::<Vec<_>>(),
                        "positions": game.board.positions.len(), "pieces": game.pieces.iter().map(|p| p.name.clone()).collect::<Vec<_>>(),
                        "missing_rules": crate::check::missing_rules_json(game)})
                    }
                    ("moves", Ok(moves)) => {
                        let names = Move::notations(game, &moves);
                        json!({
                            "to_move": game.players[engine.to_move(&s).idx()].name,
                            "moves": moves.iter().enumerate().map(|(i, m)| move_json(game, i, m, &names[i])).collect::<Vec<_>>(),
                        })
                    }
                    ("state", Ok(_)) => state_json(game, &s),
                    ("position", Ok(_)) => {
                        json!({"position": crate::engine::position::format(game, &s)})
                    }
                    ("load", _) => match req.get("position").and_then(Value::as_str) {
                        None => {
                            json!({"error": "`load` needs a `position` string in the position text format"})
                        }
                        Some(text) => match crate::engine::position::parse(game, text) {
                            Ok(loaded) => {
                                stack = vec![loaded];
                                history.clear();
                                json!({"ok": true})
                            }
                            Err(e) => json!({"error": format!("position: {e}")}),
                        },
                    },
                    ("result", Ok(moves)) => match engine.outcome(&s, &moves, &history) {
                        Ok(Some(o)) => json!({"over": true, "outcome": outcome_json(game, &o)}),
                        Ok(None) => json!({"over": false}),
                        Err(e) => json!({"error": format!("engine error: {e}")}),
                    },
                    ("play", Ok(moves)) => {
                        let names = Move::notations(game, &moves);
                        let chosen = if let Some(id) = req.get("id").and_then(Value::as_u64) {
                            moves
                                .get(id as usize)
                                .map(|m| (m, &names[id as usize]))
                                .ok_or_else(|| {
                                    format!("no move with id {id}; there are {}", moves.len())
                                })
                        } else if let Some(n) = req.get("move").and_then(Value::as_str) {
                            let found: Vec<(&Move, &String)> =
                                moves.iter().zip(&names).filter(|(_, x)| *x == n).collect();
                            match found.as_slice() {
                                [one] => Ok(*one),
                                [] => Err(format!("`{n}` is not a legal move")),
                                _ => Err(format!(
                                    "`{n}` names {} moves; play one by id",
                                    found.len()
                                )),
                            }
                        } else {
                            Err("`play` needs an `id` or a `move`".to_string())
                        };
                        match chosen {
                            Err(e) => json!({"error": e}),
                            Ok((m, name)) => match engine.outcome(&s, &moves, &history) {
                                Ok(Some(_)) => json!({"error": "the game is over"}),
                                _ => {
                                    history.push(s.key());
                                    let next = engine.apply(&s, m);
                                    stack.push(next);
                                    json!({"ok": true, "played": name})
                                }
                            },
                        }
                    }
                    ("undo", Ok(_)) => {
                        if stack.len() > 1 {
                            stack.pop();
                            history.pop();
                            json!({"ok": true})
                        } else {
                            json!({"error": "nothing to undo"})
                        }
                    }
                    (other, _) => {
                        json!({"error": format!("unknown command `{other}`; commands are info, moves, play, undo, state, position, load, result, quit")})
                    }
                }
            }
        };
        writeln!(output, "{reply}")?;
        output.flush()?;
    }
    Ok(())
}
