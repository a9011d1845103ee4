//! Moves: an ordered list of parts, each a list of actions. A move with no parts is a pass.

use crate::compile::*;
use crate::engine::state::Piece;

/// One change to the state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// The piece at `from` goes to `to`, replacing whatever stands there.
    Move {
        from: Pos,
        to: Pos,
    },
    /// Remove the piece there.
    Capture {
        at: Pos,
    },
    /// Put a new piece there; `reserve` when it comes from the player's off-board reserve.
    Place {
        at: Pos,
        piece: Piece,
        reserve: bool,
    },
    ChangeType {
        at: Pos,
        kind: PieceType,
    },
    ChangeOwner {
        at: Pos,
        owner: Player,
    },
    SetAttribute {
        at: Pos,
        attr: AttrId,
        value: bool,
    },
    /// Integer attribute field `field` of the piece there takes a value.
    SetIntAttribute {
        at: Pos,
        field: u8,
        value: i8,
    },
    /// A game or player variable (its slot in `State::vars`) takes a value.
    SetVar {
        slot: u16,
        value: i32,
    },
    /// `(extra-turn)`: the mover moves again; the turn order does not advance.
    ExtraTurn,
    /// `(goto-turn LABEL)`: the turn order goes on at this entry (a label's).
    GotoTurn {
        entry: u16,
    },
    /// Games with stacks (`(carry N)`): the top `count` pieces of the column at `from` go to `to`; the rest
    /// stays. (`Move` carries the whole column.)
    MoveTop {
        from: Pos,
        to: Pos,
        count: u16,
    },
    /// Games with stacks (`take-prisoner`): the top piece of the column at `at` goes to the bottom of the
    /// column at `to` (the capturing column's destination); the piece under it becomes the top.
    TakePrisoner {
        at: Pos,
        to: Pos,
    },
}

/// One part of a composite move (a single move has one part).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    pub actions: Vec<Action>,
    /// Where the moving piece started (`None` for a drop).
    pub from: Option<Pos>,
    /// Where it ended.
    pub to: Option<Pos>,
    /// The type of the piece that moved or was dropped.
    pub piece: PieceType,
    pub move_type: Option<MoveType>,
}

impl Part {
    /// The squares whose pieces this part takes, in order: its captures and prisoners, but not the moving or
    /// dropped piece itself when a capture of its destination removes it (Zillions' kamikaze, written as a
    /// capture of the square it left, or a capture after the placement, `run/emit.rs`).
    pub fn taken(&self) -> impl Iterator<Item = Pos> + '_ {
        let own = self.from.filter(|f| Some(*f) != self.to);
        self.actions
            .iter()
            .enumerate()
            .filter_map(move |(i, a)| match *a {
                Action::Capture { at } if Some(at) == own => None,
                // A dropped piece removed by a capture of its own square (listed after its placement).
                Action::Capture { at }
                    if self.actions[..i]
                        .iter()
                        .any(|b| matches!(*b, Action::Place { at: p, .. } if p == at)) =>
                {
                    None
                }
                Action::Capture { at } | Action::TakePrisoner { at, .. } => Some(at),
                _ => None,
            })
    }
}

/// A complete move.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Move {
    pub parts: Vec<Part>,
}

impl Move {
    pub fn is_pass(&self) -> bool {
        self.parts.is_empty()
    }

    /// The turn-order entry the move sends the game to (`(goto-turn LABEL)`), if any: the last one written.
    pub fn goto_turn(&self) -> Option<usize> {
        self.parts.iter().rev().find_map(|p| {
            p.actions.iter().rev().find_map(|a| match a {
                Action::GotoTurn { entry } => Some(*entry as usize),
                _ => None,
            })
        })
    }

    /// Whether the move earns its player another turn (`(extra-turn)`).
    pub fn extra_turn(&self) -> bool {
        self.parts
            .iter()
            .any(|p| p.actions.contains(&Action::ExtraTurn))
    }

    /// Number of pieces this move captures (explicitly, or by arriving on them). A piece removed by a capture
    /// of its own destination (see [`Part::taken`]) is not one of them.
    pub fn captures(&self) -> usize {
        self.parts.iter().map(|p| p.taken().count()).sum()
    }

    /// Readable notation: `e2-e4`, `a3-c5-e7` for a chain, `Stone@d4` for a drop, `=Queen` for a promotion,
    /// `d1-d5 Arrow@d8` for a piece created elsewhere.
    pub fn notation(&self, game: &Game) -> String {
        if self.parts.is_empty() {
            return "pass".into();
        }
        let b = &game.board;
        let mut s = String::new();
        let mut prev_to: Option<Pos> = None;
        for part in &self.parts {
            // A `move-post` part (`gen::move_post`): what it changed, in brackets: `[xa1]`, `[e8=King]`.
            if let (Some(_), None) = (part.from, part.to) {
                let mut shown = vec![];
                for a in &part.actions {
                    match a {
                        Action::Capture { at } => shown.push(format!("x{}", b.pos_name(*at))),
                        Action::ChangeType { at, kind } => shown.push(format!(
                            "{}={}",
                            b.pos_name(*at),
                            game.pieces[kind.idx()].name
                        )),
                        Action::Place { at, piece, .. } => shown.push(format!(
                            "{}@{}",
                            game.pieces[piece.kind.idx()].name,
                            b.pos_name(*at)
                        )),
                        _ => {}
                    }
                }
                if !shown.is_empty() {
                    s.push_str(&format!(" [{}]", shown.join(" ")));
                }
                continue;
            }
            // Movements cascaded before the main one (castling's king) come first: `e1-g1 h1-f1`.
            for a in &part.actions {
                if let Action::Move { from, to } | Action::MoveTop { from, to, .. } = a {
                    if Some(*from) != part.from {
                        if !s.is_empty() {
                            s.push(' ');
                        }
                        s.push_str(b.pos_name(*from));
                        s.push('-');
                        s.push_str(b.pos_name(*to));
                        prev_to = None;
                    }
                }
            }
            match (part.from, part.to) {
                (Some(f), Some(t)) => {
                    if prev_to != Some(f) {
                        if !s.is_empty() {
                            s.push(' ');
                        }
                        s.push_str(b.pos_name(f));
                    }
                    if f != t {
                        s.push('-');
                        s.push_str(b.pos_name(t));
                    }
                    // Part of a column: `c3-d4/2` moves its top two pieces.
                    for a in &part.actions {
                        if let Action::MoveTop { from, count, .. } = a {
                            if *from == f {
                                s.push_str(&format!("/{count}"));
                            }
                        }
                    }
                }
                (None, Some(t)) => {
                    if !s.is_empty() {
                        s.push(' ');
                    }
                    s.push_str(&game.pieces[part.piece.idx()].name);
                    s.push('@');
                    s.push_str(b.pos_name(t));
                }
                _ => {}
            }
            for a in &part.actions {
                match a {
                    Action::ChangeType { at, kind } if Some(*at) == part.to => {
                        s.push('=');
                        s.push_str(&game.pieces[kind.idx()].name);
                    }
                    Action::Capture { at } | Action::TakePrisoner { at, .. }
                        if Some(*at) != part.to =>
                    {
                        s.push('x');
                        s.push_str(b.pos_name(*at));
                    }
                    // A piece created away from the moving piece (an Amazons arrow): ` Arrow@d8`.
                    Action::Place { at, piece, .. }
                        if Some(*at) != part.to && Some(*at) != part.from =>
                    {
                        s.push(' ');
                        s.push_str(&game.pieces[piece.kind.idx()].name);
                        s.push('@');
                        s.push_str(b.pos_name(*at));
                    }
                    _ => {}
                }
            }
            prev_to = part.to;
        }
        s
    }
}

impl Move {
    /// Every action of the move, by square: what tells apart two moves that share their common notation
    /// (`xd5` a capture, `Arrow@d8` a created piece, `d8=Queen` a change of type, `d8>Black` of owner,
    /// `d8.moved=1` an attribute, `h1-f1` a movement).
    fn details(&self, game: &Game) -> String {
        let b = &game.board;
        let mut out: Vec<String> = vec![];
        for part in &self.parts {
            for a in &part.actions {
                out.push(match *a {
                    Action::Move { from, to } => format!("{}-{}", b.pos_name(from), b.pos_name(to)),
                    Action::Capture { at } => format!("x{}", b.pos_name(at)),
                    Action::Place { at, piece, .. } => {
                        format!("{}@{}", game.pieces[piece.kind.idx()].name, b.pos_name(at))
                    }
                    Action::ChangeType { at, kind } => {
                        format!("{}={}", b.pos_name(at), game.pieces[kind.idx()].name)
                    }
                    Action::ChangeOwner { at, owner } => {
                        format!("{}>{}", b.pos_name(at), game.players[owner.idx()].name)
                    }
                    Action::SetAttribute { at, attr, value } => format!(
                        "{}.{}={}",
                        b.pos_name(at),
                        game.attributes[attr.idx()],
                        value as u8
                    ),
                    Action::SetVar { slot, value } => format!("{}={value}", var_name(game, slot)),
                    Action::SetIntAttribute { at, field, value } => format!(
                        "{}.{}={value}",
                        b.pos_name(at),
                        game.attributes[game.int_attributes[field as usize].idx()]
                    ),
                    Action::ExtraTurn => "extra-turn".into(),
                    Action::GotoTurn { entry } => format!("turn={entry}"),
                    Action::MoveTop { from, to, count } => {
                        format!("{}-{}/{count}", b.pos_name(from), b.pos_name(to))
                    }
                    Action::TakePrisoner { at, to } => {
                        format!("x{}>{}", b.pos_name(at), b.pos_name(to))
                    }
                });
            }
        }
        out.join(" ")
    }

    /// The notation of each move of a list of legal moves, each naming one move of the list, so that a game
    /// recorded in notation replays: the common notation ([`Move::notation`]) where it is unique in the list;
    /// where moves share it, that notation followed by every action in brackets (`f6-d6 [f6-d6 xb4]`); where
    /// even those are equal, the move's rank among them (`#2`).
    pub fn notations(game: &Game, moves: &[Move]) -> Vec<String> {
        let mut out: Vec<String> = moves.iter().map(|m| m.notation(game)).collect();
        let mut order: Vec<usize> = (0..out.len()).collect();
        order.sort_by(|&a, &b| out[a].cmp(&out[b]));
        let shared: Vec<usize> = order
            .windows(2)
            .filter(|w| out[w[0]] == out[w[1]])
            .flat_map(|w| [w[0], w[1]])
            .collect();
        if shared.is_empty() {
            return out;
        }
        let mut shared = shared;
        shared.sort_unstable();
        shared.dedup();
        for &i in &shared {
            out[i] = format!("{} [{}]", out[i], moves[i].details(game));
        }
        // Equal in every action (parts in another order): number them in list order.
        let mut count: std::collections::HashMap<String, (usize, usize)> = Default::default();
        for &i in &shared {
            count.entry(out[i].clone()).or_default().0 += 1;
        }
        for &i in &shared {
            let c = count.get_mut(&out[i]).expect("counted");
            if c.0 > 1 {
                c.1 += 1;
                out[i] = format!("{} #{}", out[i], c.1);
            }
        }
        out
    }
}

/// A variable's slot as text: `captured` for a game variable, `captured.White` for a player's.
pub fn var_name(game: &Game, slot: u16) -> String {
    let slot = slot as usize;
    for v in &game.variables {
        if v.per_player && (v.slot..v.slot + game.players.len()).contains(&slot) {
            return format!("{}.{}", v.name, game.players[slot - v.slot].name);
        }
        if !v.per_player && v.slot == slot {
            return v.name.clone();
        }
    }
    format!("var{slot}")
}
