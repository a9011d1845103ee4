//! `dagaz check`: what a compiled game contains, as text for people or JSON for programs.

use crate::compile::*;
use serde_json::{json, Value};
use std::fmt::Write;

fn names<T: Copy>(items: &[T], f: impl Fn(T) -> String) -> String {
    items.iter().map(|&i| f(i)).collect::<Vec<_>>().join(" ")
}

fn cmp_text(op: numbers::CmpOp) -> &'static str {
    use numbers::CmpOp::*;
    match op {
        Eq => "=",
        Ne => "!=",
        Lt => "<",
        Le => "<=",
        Gt => ">",
        Ge => ">=",
    }
}

fn loc_text(g: &Game, l: &Loc) -> String {
    match l {
        Loc::Cursor => String::new(),
        Loc::Dir(d) => format!(" {}", g.board.directions[d.idx()]),
        Loc::Pos(p) => format!(" {}", g.board.positions[p.idx()].name),
    }
}

/// A number as the file writes it (`(sum seeds (zone store))`, `(+ (area Black) 7)`).
fn expr_text(g: &Game, e: &numbers::Expr) -> String {
    use numbers::{ArithOp, Expr};
    let attr = |field: u8| {
        g.int_attributes
            .get(field as usize)
            .and_then(|a| g.attributes.get(a.idx()))
            .cloned()
            .unwrap_or_else(|| format!("attribute#{field}"))
    };
    match e {
        Expr::Int(n) => n.to_string(),
        Expr::Var(v) => format!("(move-var #{v})"),
        // The index of a declared variable (not a slot of the state: a player variable has several).
        Expr::StateVar(v, p) => {
            let name = g
                .variables
                .get(*v as usize)
                .map_or_else(|| format!("variable#{v}"), |x| x.name.clone());
            match p {
                Some(p) => format!("(var {name} {})", g.players[p.idx()].name),
                None => name,
            }
        }
        Expr::Arith(op, args) => {
            let w = match op {
                ArithOp::Add => "+",
                ArithOp::Sub => "-",
                ArithOp::Mul => "*",
                ArithOp::Div => "/",
                ArithOp::Mod => "mod",
                ArithOp::Min => "min",
                ArithOp::Max => "max",
            };
            let args: Vec<String> = args.iter().map(|a| expr_text(g, a)).collect();
            format!("({w} {})", args.join(" "))
        }
        Expr::IntAttr(f, l) => format!("({}{})", attr(*f), loc_text(g, l)),
        Expr::PieceValue(l) => format!("(piece-value{})", loc_text(g, l)),
        Expr::Count(_) => "(count ...)".into(),
        Expr::Liberties(l) => format!("(liberties{})", loc_text(g, l)),
        Expr::GroupSize(l) => format!("(group-size{})", loc_text(g, l)),
        Expr::Area(p) => match p {
            Some(p) => format!("(area {})", g.players[p.idx()].name),
            None => "(area)".into(),
        },
        Expr::Passes => "(passes)".into(),
        Expr::QuietPlies => "(quiet-plies)".into(),
        Expr::Sum(s) => format!(
            "(sum {}{}{})",
            attr(s.field),
            s.zone
                .map(|z| format!(" (zone {})", g.board.zones[z.idx()].name))
                .unwrap_or_default(),
            if s.opponent { " opponent" } else { "" }
        ),
        Expr::Height(l) => format!("(stack-height{})", loc_text(g, l)),
    }
}

/// An end condition as text, with the positions it means for `player` (zones differ per player).
fn end_cond_text(g: &Game, c: &EndCond, player: Player) -> String {
    let pieces = |ts: &[PieceType]| names(ts, |t| g.pieces[t.idx()].name.clone());
    match c {
        EndCond::Stalemated => "stalemated".into(),
        EndCond::Blocked => "blocked".into(),
        EndCond::Repetition => "repetition".into(),
        EndCond::Compare(op, ab) => format!(
            "({} {} {})",
            cmp_text(*op),
            expr_text(g, &ab.0),
            expr_text(g, &ab.1)
        ),
        EndCond::Connected { types, opponent } => format!(
            "(connected {}{})",
            if *opponent { "opponent " } else { "" },
            pieces(types)
        )
        .replace(" )", ")"),
        EndCond::InReserve(t) => format!("(in-reserve {})", pieces(t)).replace(" )", ")"),
        EndCond::Connects { zones, types } => format!(
            "(connects {} {})",
            names(zones, |z| g.board.zones[z.idx()].name.clone()),
            pieces(types)
        )
        .replace(" )", ")"),
        EndCond::CausedRepetition(n) => format!("(caused-repetition {n})"),
        EndCond::PiecesRemaining { n, types } => {
            format!("(pieces-remaining {n} {})", pieces(types)).replace(" )", ")")
        }
        EndCond::TotalPieceCount { n, types } => {
            format!("(total-piece-count {n} {})", pieces(types)).replace(" )", ")")
        }
        EndCond::Checkmated(t) => format!("(checkmated {})", pieces(t)),
        EndCond::Captured(t) => format!("(captured {})", pieces(t)),
        EndCond::AbsoluteConfig {
            types,
            positions,
            opponent,
            negated,
        } => format!(
            "(absolute-config {}{}{} ({}))",
            if *opponent { "opponent " } else { "" },
            if *negated { "not " } else { "" },
            pieces(types),
            names(&positions[player.idx().min(positions.len() - 1)], |p| g
                .board
                .pos_name(p)
                .to_string())
        ),
        EndCond::RelativeConfig {
            types,
            dirs,
            opponent,
            negated,
        } => {
            let mut s = String::from("(relative-config");
            if *opponent {
                s.push_str(" opponent");
            }
            for (i, t) in types.iter().enumerate() {
                let not = if negated.get(i) == Some(&true) {
                    "not "
                } else {
                    ""
                };
                let _ = write!(s, " {not}{}", g.pieces[t.idx()].name);
                if let Some(d) = dirs.get(i) {
                    let _ = write!(s, " {}", g.board.directions[d.idx()]);
                }
            }
            s + ")"
        }
        EndCond::And(v) => format!(
            "(and {})",
            v.iter()
                .map(|c| end_cond_text(g, c, player))
                .collect::<Vec<_>>()
                .join(" ")
        ),
        EndCond::Or(v) => format!(
            "(or {})",
            v.iter()
                .map(|c| end_cond_text(g, c, player))
                .collect::<Vec<_>>()
                .join(" ")
        ),
        EndCond::Not(c) => format!("(not {})", end_cond_text(g, c, player)),
        EndCond::Attacked { types, all } => format!(
            "({} {})",
            if *all { "all-attacked" } else { "attacked" },
            pieces(types)
        ),
    }
}

/// An invariant condition as text.
fn inv_cond_text(g: &Game, c: &InvCond) -> String {
    let pieces = |ts: &[PieceType]| names(ts, |t| g.pieces[t.idx()].name.clone());
    let list = |w: &str, v: &[InvCond]| {
        let parts: Vec<String> = v.iter().map(|c| inv_cond_text(g, c)).collect();
        format!("({w} {})", parts.join(" "))
    };
    match c {
        InvCond::NotAttacked { types, all } => format!(
            "({} {})",
            if *all {
                "not-all-attacked"
            } else {
                "not-attacked"
            },
            pieces(types)
        ),
        InvCond::Facing { types, dirs } => format!(
            "(facing {} {})",
            pieces(types),
            names(dirs, |d| g.board.directions[d.idx()].clone())
        ),
        InvCond::Moved(t) => format!("(moved {})", pieces(t)),
        InvCond::Dropped(t) => format!("(dropped {})", pieces(t)),
        InvCond::Mates(t) => format!("(mates {})", pieces(t)),
        InvCond::And(v) => list("and", v),
        InvCond::Or(v) => list("or", v),
        InvCond::Not(c) => format!("(not {})", inv_cond_text(g, c)),
    }
}

fn kind_word(k: EndKind) -> &'static str {
    match k {
        EndKind::Win => "win",
        EndKind::Loss => "loss",
        EndKind::Draw => "draw",
        EndKind::Count => "count",
    }
}

fn turn_text(g: &Game, e: &TurnEntry) -> String {
    let p = &g.players[e.player.idx()].name;
    let mut parts = vec![p.clone()];
    if e.moves_as != e.player {
        parts.push(g.players[e.moves_as.idx()].name.clone());
    }
    if let Some(t) = e.move_type {
        parts.push(g.move_types[t.idx()].clone());
    }
    if parts.len() == 1 {
        parts.remove(0)
    } else {
        format!("({})", parts.join(" "))
    }
}

/// The condition's text grouped by the players it reads the same for, in declaration order.
fn per_player_text(g: &Game, e: &EndCondition) -> Vec<(Vec<Player>, String)> {
    if e.players.is_empty() {
        return vec![(vec![], end_cond_text(g, &e.cond, Player(0)))];
    }
    let mut out: Vec<(Vec<Player>, String)> = vec![];
    for &p in &e.players {
        let t = end_cond_text(g, &e.cond, p);
        match out.iter_mut().find(|(_, x)| *x == t) {
            Some((ps, _)) => ps.push(p),
            None => out.push((vec![p], t)),
        }
    }
    out
}

/// A readable summary of a game.
pub fn describe(g: &Game) -> String {
    let mut o = String::new();
    let b = &g.board;
    let _ = writeln!(o, "game {}: {}", g.variant, g.title);
    let players: Vec<String> = g
        .players
        .iter()
        .map(|p| {
            if p.random {
                format!("{} (random)", p.name)
            } else {
                p.name.clone()
            }
        })
        .collect();
    let _ = writeln!(o, "  players: {}", players.join(", "));
    let mut turns: Vec<String> = g
        .turn_order
        .entries
        .iter()
        .map(|e| turn_text(g, e))
        .collect();
    if g.turn_order.repeat_from > 0 {
        turns.insert(g.turn_order.repeat_from, "repeat".into());
    }
    let _ = writeln!(o, "  turn order: {}", turns.join(" "));
    for ph in &g.phases {
        let types: Vec<&str> = ph
            .move_types
            .iter()
            .map(|t| g.move_types[t.idx()].as_str())
            .collect();
        let when = ph.when.as_ref().map_or("always".to_string(), |c| {
            format!(
                "when {}",
                end_cond_text(g, c, g.turn_order.entries[0].player)
            )
        });
        let _ = writeln!(o, "  phase {}: {} ({when})", ph.name, types.join(" "));
    }
    let dummies = b.positions.iter().filter(|p| p.dummy).count();
    let _ = writeln!(
        o,
        "  positions: {} ({} on the board, {} off it)",
        b.positions.len(),
        b.positions.len() - dummies,
        dummies
    );
    let links = b.links.iter().filter(|&&l| l != NO_POS).count();
    let dirs: Vec<String> = b
        .directions
        .iter()
        .enumerate()
        .map(|(i, d)| match b.opposite.get(i).copied().flatten() {
            Some(o) => format!("{d}/{}", b.directions[o.idx()]),
            None => d.clone(),
        })
        .collect();
    let _ = writeln!(o, "  directions ({links} links): {}", dirs.join(" "));
    for z in &b.zones {
        let per: Vec<String> = z
            .members
            .iter()
            .enumerate()
            .filter(|(_, m)| m.iter().any(|&x| x))
            .map(|(p, m)| format!("{} {}", g.players[p].name, m.iter().filter(|&&x| x).count()))
            .collect();
        let _ = writeln!(o, "  zone {}: {}", z.name, per.join(", "));
    }
    for r in &b.rotations {
        let cycles: Vec<String> = r
            .cycles
            .iter()
            .map(|c| {
                let names: Vec<&str> = c.iter().map(|&p| b.pos_name(p)).collect();
                format!("({})", names.join(" "))
            })
            .collect();
        let _ = writeln!(o, "  rotation {}: {}", r.name, cycles.join(" "));
    }
    if !g.move_types.is_empty() {
        let _ = writeln!(o, "  move types: {}", g.move_types.join(" "));
    }
    if !g.move_priorities.is_empty() {
        let _ = writeln!(
            o,
            "  move priorities: {}",
            names(&g.move_priorities, |t| g.move_types[t.idx()].clone())
        );
    }
    if !g.optional_priority.is_empty() {
        let _ = writeln!(
            o,
            "  optional priority (not bound by the move priorities): {}",
            names(&g.optional_priority, |t| g.pieces[t.idx()].name.clone())
        );
    }
    if let Some(h) = &g.huffing {
        let _ = writeln!(
            o,
            "  huffing: {} (captures optional; a piece that could capture and did not may be removed by the opponent)",
            names(&h.types, |t| g.move_types[t.idx()].clone())
        );
    }
    if !g.capture_order.is_empty() {
        let _ = writeln!(
            o,
            "  capture order: {}",
            crate::compile::ordering::describe(g)
        );
    }
    if let Some(rule) = g.forbid_repetition {
        let _ = writeln!(
            o,
            "  forbid repetition: {}",
            crate::compile::groups::rule_name(rule)
        );
    }
    if let Some(types) = &g.irreversible {
        let names: Vec<&str> = types
            .iter()
            .map(|t| g.pieces[t.idx()].name.as_str())
            .collect();
        let _ = writeln!(
            o,
            "  quiet plies counted: a capture{}{} resets them",
            if names.is_empty() {
                ""
            } else {
                " or a move of "
            },
            names.join(", ")
        );
    }
    if let Some(hand) = &g.captures_to_hand {
        let demoted: Vec<String> = hand
            .iter()
            .enumerate()
            .filter(|&(i, t)| t.idx() != i)
            .map(|(i, t)| format!("({} {})", g.pieces[i].name, g.pieces[t.idx()].name))
            .collect();
        let _ = writeln!(o, "  captures to hand: {}", demoted.join(" "));
    }
    for p in &g.pieces {
        let attrs = p
            .attributes
            .iter()
            .map(|(a, v)| format!("{}={v}", g.attributes[a.idx()]))
            .collect::<Vec<_>>()
            .join(" ");
        let _ = writeln!(
            o,
            "  piece {}: {} moves, {} drops{}{}",
            p.name,
            p.moves.len(),
            p.drops.len(),
            if attrs.is_empty() {
                String::new()
            } else {
                format!(", attributes {attrs}")
            },
            p.value.map_or(String::new(), |v| format!(", value {v}"))
        );
        for (kind, progs) in [("move", &p.moves), ("drop", &p.drops)] {
            for m in progs {
                let t = m
                    .move_type
                    .map_or(String::new(), |t| format!(" [{}]", g.move_types[t.idx()]));
                let _ = writeln!(o, "    {kind}{t}: {}", m.source);
            }
        }
    }
    let _ = writeln!(
        o,
        "  setup: {} pieces on the board, {} in reserves",
        g.setup.pieces.len(),
        g.setup.reserves.iter().map(|r| r.2).sum::<u32>()
    );
    if g.has_stacks() {
        let _ = writeln!(
            o,
            "  stacks: a position holds a column (the top piece is the piece)"
        );
    }
    for v in &g.variables {
        let per = if v.per_player {
            "player "
        } else if v.per_turn {
            "turn "
        } else if v.per_ply {
            "ply "
        } else {
            ""
        };
        let _ = writeln!(o, "  {per}variable {} = {}", v.name, v.init);
    }
    for (k, v) in &g.options.all {
        let _ = writeln!(o, "  option {k}: {v}");
    }
    for e in &g.end_conditions {
        // One line for all the players, or one per player where the condition means other squares for each.
        for (players, text) in per_player_text(g, e) {
            let ps = names(&players, |p| g.players[p.idx()].name.clone());
            let _ = writeln!(
                o,
                "  {} for {ps}: {} (name {}, priority {})",
                kind_word(e.kind),
                text,
                e.name,
                e.priority
            );
        }
    }
    if let Some(mp) = &g.move_post {
        let _ = writeln!(o, "  move-post: {}", mp.source);
    }
    for inv in &g.invariants {
        let _ = writeln!(
            o,
            "  invariant {}: {}",
            inv.name,
            inv_cond_text(g, &inv.cond)
        );
    }
    if !g.teams.is_empty() {
        for (i, p) in g.players.iter().enumerate() {
            let _ = writeln!(
                o,
                "  team of {}: {}",
                p.name, g.players[g.teams[i] as usize].name
            );
        }
    }
    for m in &g.extensions {
        let _ = writeln!(o, "  extension module {}: {}", m.name, m.description);
    }
    if !g.missing_rules.is_empty() {
        let _ = writeln!(
            o,
            "  missing rules ({}): the engine plays this game without them",
            g.missing_rules.len()
        );
        // A file of junk can miss thousands; the first ones say what matters.
        let shown = crate::lang::diag::MAX_SHOWN;
        for r in g.missing_rules.iter().take(shown) {
            let _ = writeln!(o, "    {} at {}", r.what_with_value(), r.location);
        }
        if g.missing_rules.len() > shown {
            let _ = writeln!(o, "    ... and {} more", g.missing_rules.len() - shown);
        }
    }
    o
}

/// A game's missing rules as JSON (for `check --json` and `session`'s `info`).
pub fn missing_rules_json(g: &Game) -> Value {
    g.missing_rules
        .iter()
        .map(|r| {
            json!({
                "kind": r.kind.as_str(),
                "name": r.name,
                "value": r.value,
                "location": r.location,
                "message": r.clause(),
            })
        })
        .collect()
}

/// The same summary as JSON.
pub fn describe_json(g: &Game) -> Value {
    let b = &g.board;
    json!({
        "variant": g.variant,
        "title": g.title,
        "players": g.players.iter().map(|p| json!({"name": p.name, "random": p.random})).collect::<Vec<_>>(),
        "turn_order": g.turn_order.entries.iter().map(|e| turn_text(g, e)).collect::<Vec<_>>(),
        "repeat_from": g.turn_order.repeat_from,
        "phases": g.phases.iter().map(|ph| json!({
            "name": ph.name,
            "move_types": ph.move_types.iter().map(|t| g.move_types[t.idx()].clone()).collect::<Vec<_>>(),
            "when": ph.when.as_ref().map(|c| end_cond_text(g, c, g.turn_order.entries[0].player)),
        })).collect::<Vec<_>>(),
        "positions": b.positions.len(),
        "off_board_positions": b.positions.iter().filter(|p| p.dummy).map(|p| p.name.clone()).collect::<Vec<_>>(),
        "directions": b.directions,
        "zones": b.zones.iter().map(|z| z.name.clone()).collect::<Vec<_>>(),
        "move_types": g.move_types,
        "pieces": g.pieces.iter().map(|p| json!({
            "name": p.name,
            "moves": p.moves.iter().map(|m| m.source.clone()).collect::<Vec<_>>(),
            "drops": p.drops.iter().map(|m| m.source.clone()).collect::<Vec<_>>(),
            "value": p.value,
        })).collect::<Vec<_>>(),
        "options": g.options.all.iter().map(|(k, v)| json!({"name": k, "value": v})).collect::<Vec<_>>(),
        "end_conditions": g.end_conditions.iter().map(|e| json!({
            "kind": kind_word(e.kind),
            "players": e.players.iter().map(|p| g.players[p.idx()].name.clone()).collect::<Vec<_>>(),
            "condition": per_player_text(g, e).into_iter().map(|(_, t)| t).collect::<Vec<_>>().join(" / "),
            "per_player": e.players.iter().map(|p| json!({
                "player": g.players[p.idx()].name.clone(),
                "condition": end_cond_text(g, &e.cond, *p),
            })).collect::<Vec<_>>(),
            "name": e.name,
            "priority": e.priority,
        })).collect::<Vec<_>>(),
        "missing_rules": missing_rules_json(g),
        "stacks": g.has_stacks(),
        "extensions": g.extensions.iter().map(|m| json!({"name": m.name, "description": m.description})).collect::<Vec<_>>(),
        "capture_order": crate::compile::ordering::describe(g),
        "forbid_repetition": g.forbid_repetition.map(crate::compile::groups::rule_name),
    })
}
