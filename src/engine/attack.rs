//! `attacked?` by walking backwards from the target square.
//!
//! The compiler sorts each move program into plain (an attack [`Shape`]: steps, pure checks and at most one
//! slide before an `add` that captures on arrival) or not (`compile/attack.rs`). For a target square and each
//! attacking player, every shape is walked from the target back through the inverse directions to the one
//! square its attacker could start from (a slide: the first occupied square of the ray), and the piece there
//! is checked; the checks of the shape are evaluated on the squares the forward run would read them on. Only
//! programs that are not plain run forwards, as they always did (`gen::attacked_by_forward`). The answers are
//! the same as running every program forwards; `tests/attack.rs` compares the two on every square of positions
//! sampled from random games.

use super::gen;
use super::state::{Piece, State};
use super::EngineError;
use crate::compile::attack::{AttackTable, Form, Op, Shape};
use crate::compile::*;

/// Whether `pos` could be captured by a player other than `player` (or, with `defended`, by `player` itself) by
/// a single part of any of their moves (of `move_type` only, when given). The same answer as running every
/// enemy program forwards against the square.
pub fn attacked_by(
    game: &Game,
    state: &State,
    pos: Pos,
    player: Player,
    defended: bool,
    move_type: Option<MoveType>,
) -> Result<bool, EngineError> {
    let table = game.attack_table();
    if !table.usable {
        return gen::attacked_by_forward(game, state, pos, player, defended, move_type, None);
    }
    if attacked_plain(game, table, state, pos, player, defended, move_type, None) {
        return Ok(true);
    }
    gen::attacked_by_forward(game, state, pos, player, defended, move_type, Some(table))
}

/// [`attacked_by`] (by the enemies of `player`, any move type) given the piece types each player has on the
/// board (`present[p]`, bit t for type t, every bit for types past 63; dead pieces left out): the shapes of
/// types the attacker does not have are not walked.
pub fn attacked_by_present(
    game: &Game,
    state: &State,
    pos: Pos,
    player: Player,
    present: &[u64],
) -> Result<bool, EngineError> {
    attacked_by_known(game, state, pos, player, present, None)
}

/// [`attacked_by_present`] on an occupied square, given also (`forward`) every square, in board order, of a
/// live enemy piece that has programs run forwards (`AttackTable::forward`): only those are looked at for them.
pub(super) fn attacked_by_known(
    game: &Game,
    state: &State,
    pos: Pos,
    player: Player,
    present: &[u64],
    forward: Option<&[u16]>,
) -> Result<bool, EngineError> {
    let table = game.attack_table();
    if !table.usable {
        return gen::attacked_by_forward(game, state, pos, player, false, None, None);
    }
    if attacked_plain(game, table, state, pos, player, false, None, Some(present)) {
        return Ok(true);
    }
    match forward {
        Some(starts) if state.get(pos).is_some() => {
            gen::attacked_by_forward_from(game, table, state, pos, player, starts)
        }
        _ => gen::attacked_by_forward(game, state, pos, player, false, None, Some(table)),
    }
}

/// The bit of a piece type in the bitmaps of [`attacked_by_present`].
#[inline]
pub fn type_bit(t: PieceType) -> u64 {
    if t.0 < 64 {
        1 << t.0
    } else {
        u64::MAX
    }
}

/// The piece an empty target holds for the attack test: a phantom of the defending side, so that moves which
/// need a victim (`enemy?`) see one and quiet moves do not count.
pub(super) fn phantom(game: &Game, player: Player, defended: bool) -> Piece {
    let defender = if defended {
        Player(((player.0 as usize + 1) % game.players.len().max(1)) as u8)
    } else {
        player
    };
    Piece {
        kind: PieceType(0),
        owner: defender,
        attrs: AttrBits::default(),
        dead: false,
    }
}

/// The plain programs' part of the answer: whether some shape reaches `pos` from a piece that has it. With
/// `present` (see [`attacked_by_present`]), shapes whose types the attacker lacks are skipped: no piece of
/// theirs could stand at the start of the walk.
#[allow(clippy::too_many_arguments)]
pub(super) fn attacked_plain(
    game: &Game,
    table: &AttackTable,
    state: &State,
    pos: Pos,
    player: Player,
    defended: bool,
    move_type: Option<MoveType>,
    present: Option<&[u64]>,
) -> bool {
    if table.shapes.is_empty() {
        return false;
    }
    let target = state
        .get(pos)
        .unwrap_or_else(|| phantom(game, player, defended));
    // An `add` captures only a live piece.
    if target.dead {
        return false;
    }
    for (i, info) in game.players.iter().enumerate() {
        let attacker = Player(i as u8);
        if info.random || game.same_team(attacker, player) != defended {
            continue;
        }
        let has = present.map_or(u64::MAX, |p| p.get(i).copied().unwrap_or(u64::MAX));
        if has == 0 {
            continue;
        }
        let w = Walk::new(game, table, state, pos, target, attacker, player);
        for (k, s) in table.shapes.iter().enumerate() {
            if s.mask & has != 0
                && (move_type.is_none() || s.move_type == move_type)
                && w.hits(k, s)
            {
                return true;
            }
        }
    }
    false
}

/// Which forward runs of an attack test can be skipped, read from the programs' openings
/// ([`crate::compile::attack::Prefilter`]): a run from a square where the opening fails stops there with
/// nothing emitted, so it cannot find the target (nor fail).
pub(super) struct ForwardFilter<'a> {
    game: &'a Game,
    table: &'a AttackTable,
    state: &'a State,
    target: Pos,
    target_piece: Piece,
    defender: Player,
}

impl<'a> ForwardFilter<'a> {
    /// For an attack test of `pos` on `state` (the phantom on an empty square, as the forward run sees it).
    pub(super) fn new(
        game: &'a Game,
        table: &'a AttackTable,
        state: &'a State,
        pos: Pos,
        player: Player,
        defended: bool,
    ) -> ForwardFilter<'a> {
        ForwardFilter {
            game,
            table,
            state,
            target: pos,
            target_piece: state
                .get(pos)
                .unwrap_or_else(|| phantom(game, player, defended)),
            defender: player,
        }
    }

    /// Whether the `k`-th forward program of piece `x` (`AttackTable::forward`) run from `start` may get past
    /// its opening.
    #[inline]
    pub(super) fn may_pass(&self, start: Pos, x: &Piece, k: usize) -> bool {
        let Some(f) = self
            .table
            .prefilter
            .get(x.kind.idx())
            .and_then(|v| v.get(k))
        else {
            return true;
        };
        if let Some((steps, from)) = &f.anchor {
            let last = if *from {
                self.state.last_from
            } else {
                self.state.last_to
            };
            let Some(mut at) = last else {
                return false;
            };
            for d in steps.iter().rev() {
                match self.table.pred(x.owner, at, *d) {
                    Some(p) => at = p,
                    None => return false,
                }
            }
            if at != start {
                return false;
            }
        }
        if f.opening.is_empty() {
            return true;
        }
        // The opening run as the interpreter runs it in attack mode: steps after the attacker's symmetry,
        // checks on the board with the target's piece (or phantom), no side effects.
        let w = Walk::new(
            self.game,
            self.table,
            self.state,
            self.target,
            self.target_piece,
            x.owner,
            self.defender,
        );
        let mut at = start;
        for o in &f.opening {
            match o {
                Op::Step(d) => match self.game.board.step(x.owner, at, *d) {
                    Some(p) => at = p,
                    None => return false,
                },
                Op::Check(c) => {
                    if !w.cond(c, at) {
                        return false;
                    }
                }
                Op::Slide(_) => return true,
            }
        }
        true
    }
}

/// One backward walk: the target, who attacks, and the board as the forward run would see it.
pub(super) struct Walk<'a> {
    game: &'a Game,
    table: &'a AttackTable,
    state: &'a State,
    target: Pos,
    /// What stands on the target (a phantom on an empty square).
    target_piece: Piece,
    attacker: Player,
    /// The `player` of the attack test: the forward run's owner, which `in-zone?` reads.
    defender: Player,
    /// The final checks evaluated so far (bit i: `table.conds[i]` known) and their values.
    known: std::cell::Cell<(u64, u64)>,
    /// When tracking: the squares read, and whether the last move was.
    pub(super) track: bool,
    pub(super) reads: std::cell::Cell<[u64; 4]>,
    pub(super) reads_last: std::cell::Cell<bool>,
}

impl<'a> Walk<'a> {
    pub(super) fn new(
        game: &'a Game,
        table: &'a AttackTable,
        state: &'a State,
        target: Pos,
        target_piece: Piece,
        attacker: Player,
        defender: Player,
    ) -> Walk<'a> {
        Walk {
            game,
            table,
            state,
            target,
            target_piece,
            attacker,
            defender,
            known: std::cell::Cell::new((0, 0)),
            track: false,
            reads: std::cell::Cell::new([0; 4]),
            reads_last: std::cell::Cell::new(false),
        }
    }

    #[inline]
    fn get(&self, p: Pos) -> Option<Piece> {
        if self.track {
            let i = p.idx();
            let mut r = self.reads.get();
            r[(i >> 6) & 3] |= 1 << (i & 63);
            self.reads.set(r);
        }
        if p == self.target {
            Some(self.target_piece)
        } else {
            self.state.get(p)
        }
    }

    #[inline]
    fn pred(&self, p: Pos, d: Dir) -> Option<Pos> {
        self.table.pred(self.attacker, p, d)
    }

    /// Whether final check `i` holds on the target (evaluated once per walk).
    #[inline]
    fn final_holds(&self, i: u16) -> bool {
        let i = i as usize;
        if i >= 64 {
            return self.cond(&self.table.conds[i], self.target);
        }
        let (known, value) = self.known.get();
        if known >> i & 1 != 0 {
            return value >> i & 1 != 0;
        }
        let v = self.cond(&self.table.conds[i], self.target);
        self.known.set((known | 1 << i, value | (v as u64) << i));
        v
    }

    /// Whether shape `k` reaches the target from a piece of the attacker that has it.
    pub(super) fn hits(&self, k: usize, s: &Shape) -> bool {
        if !s.finals.iter().all(|&c| self.final_holds(c)) {
            return false;
        }
        match s.form {
            Form::Fixed => {
                let np = self.game.board.positions.len();
                let start = self.table.fixed[self.attacker.idx()][k * np + self.target.idx()];
                start != NO_POS && self.attacker_on(Pos(start), s)
            }
            Form::Ray(d) => {
                let mut q = self.target;
                for _ in 0..self.game.board.positions.len() {
                    let Some(p) = self.pred(q, d) else {
                        return false;
                    };
                    if p == self.target {
                        return false;
                    }
                    if self.get(p).is_some() {
                        return self.attacker_on(p, s);
                    }
                    q = p;
                }
                false
            }
            Form::General => self.general(&s.path, s),
        }
    }

    fn general(&self, ops: &[Op], s: &Shape) -> bool {
        match ops.iter().position(|o| matches!(o, Op::Slide(_))) {
            None => self
                .undo(ops, self.target)
                .is_some_and(|start| self.attacker_on(start, s)),
            Some(k) => {
                let Op::Slide(d) = ops[k] else {
                    return false;
                };
                // Where the slide stopped: the first square it found occupied.
                let Some(end) = self.undo(&ops[k + 1..], self.target) else {
                    return false;
                };
                if self.get(end).is_none() {
                    return false;
                }
                // The slide may have begun on `end` itself or on any of the empty squares before it.
                let mut begin = end;
                for _ in 0..=self.game.board.positions.len() {
                    if let Some(start) = self.undo(&ops[..k], begin) {
                        if self.attacker_on(start, s) {
                            return true;
                        }
                    }
                    match self.pred(begin, d) {
                        Some(q) if q != end && self.get(q).is_none() => begin = q,
                        _ => break,
                    }
                }
                false
            }
        }
    }

    /// Runs ops backwards from the square the cursor reached: the square it started from, if every step has an
    /// inverse and every check holds where the forward run reads it.
    #[inline]
    fn undo(&self, ops: &[Op], mut at: Pos) -> Option<Pos> {
        for o in ops.iter().rev() {
            match o {
                Op::Step(d) => at = self.pred(at, *d)?,
                Op::Check(c) => {
                    if !self.cond(c, at) {
                        return None;
                    }
                }
                Op::Slide(_) => return None,
            }
        }
        Some(at)
    }

    /// Whether a piece of the attacker with this shape stands on `start` (not the target itself: the cursor
    /// must have moved for an `add` to capture).
    #[inline]
    fn attacker_on(&self, start: Pos, s: &Shape) -> bool {
        start != self.target
            && self.get(start).is_some_and(|x| {
                !x.dead && x.owner == self.attacker && s.types.binary_search(&x.kind).is_ok()
            })
    }

    fn loc(&self, l: Loc, cursor: Pos) -> Option<Pos> {
        match l {
            Loc::Cursor => Some(cursor),
            Loc::Dir(d) => self.game.board.step(self.attacker, cursor, d),
            Loc::Pos(p) => Some(p),
        }
    }

    /// A pure condition (`compile::attack::pure`) as the interpreter evaluates it in attack mode, for the
    /// attacker, with the cursor on `cursor`: no mark, no flag, no nested attack test.
    pub(super) fn cond(&self, c: &Cond, cursor: Pos) -> bool {
        let g = self.game;
        let p = self.attacker;
        let piece = |l: &Loc| self.loc(*l, cursor).and_then(|q| self.get(q));
        match c {
            Cond::True => true,
            Cond::False => false,
            Cond::Not(c) => !self.cond(c, cursor),
            Cond::And(cs) => cs.iter().all(|c| self.cond(c, cursor)),
            Cond::Or(cs) => cs.iter().any(|c| self.cond(c, cursor)),
            Cond::Empty(l) => self.loc(*l, cursor).is_some_and(|q| self.get(q).is_none()),
            Cond::Friend(l) => piece(l).is_some_and(|x| !x.dead && g.same_team(x.owner, p)),
            Cond::Enemy(l) => piece(l).is_some_and(|x| !x.dead && !g.same_team(x.owner, p)),
            Cond::Mine(l) => piece(l).is_some_and(|x| !x.dead && x.owner == p),
            Cond::Neutral(l) => piece(l).is_some_and(|x| {
                !x.dead && !g.turn_order.entries.iter().any(|e| e.player == x.owner)
            }),
            Cond::Piece(ts, l) => piece(l).is_some_and(|x| ts.contains(&x.kind)),
            Cond::InZone(z, l) => self.loc(*l, cursor).is_some_and(|q| {
                let b = &g.board;
                let owner = self.defender;
                b.in_zone(*z, p, q)
                    || (owner != p
                        && b.in_zone(*z, owner, q)
                        && !b.zones[z.idx()]
                            .members
                            .get(p.idx())
                            .is_some_and(|m| m.iter().any(|&x| x)))
            }),
            Cond::OnBoard(l) => self.loc(*l, cursor).is_some(),
            Cond::LastFrom(l) => {
                self.reads_last.set(self.track);
                self.loc(*l, cursor)
                    .is_some_and(|q| self.state.last_from == Some(q))
            }
            Cond::LastTo(l) => {
                self.reads_last.set(self.track);
                self.loc(*l, cursor)
                    .is_some_and(|q| self.state.last_to == Some(q))
            }
            Cond::IsPosition(q, l) => self.loc(*l, cursor) == Some(*q),
            Cond::Attribute(a, l) => piece(l).is_some_and(|x| x.attr(*a)),
            // No mark, flag or position flag is set on a plain path; attack tests do not nest.
            Cond::Marked(_)
            | Cond::Flag(_)
            | Cond::PositionFlag(..)
            | Cond::Attacked(..)
            | Cond::Defended(..) => false,
            // Not pure: such programs are never plain.
            Cond::Compare(..) | Cond::Suicide(_) | Cond::Visited(_) | Cond::LastDirection(_) => {
                false
            }
        }
    }
}
