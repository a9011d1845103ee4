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

/// A complete move.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Move {
    pub parts: Vec<Part>,
}

impl Move {
    pub fn is_pass(&self) -> bool {
        self.parts.is_empty()
    }

    /// Number of pieces this move captures (explicitly, or by arriving on them).
    pub fn captures(&self) -> usize {
        self.parts
            .iter()
            .flat_map(|p| &p.actions)
            .filter(|a| matches!(a, Action::Capture { .. }))
            .count()
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
            // Movements cascaded before the main one (castling's king) come first: `e1-g1 h1-f1`.
            for a in &part.actions {
                if let Action::Move { from, to } = a {
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
                    Action::Capture { at } if Some(*at) != part.to => {
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
