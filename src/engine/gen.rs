//! The move-program interpreter and the generation of complete moves.
//!
//! A program runs with a cursor over a frozen board (the state at the start of the part): predicates read the
//! board as it was, and actions are recorded, not applied. `add` emits a part and the program goes on;
//! captures and drops made before an `add` are not carried into later emissions (Zillions' rule), movements
//! and cascades are. Composite moves are enumerated whole: a part made by `add-partial` is applied to a copy of
//! the state and the same piece continues; only complete moves are returned.

use super::moves::{Action, Move, Part};
use super::state::{initial_attrs, Piece, State};
use super::EngineError;
use crate::compile::*;
use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

/// Keys here are Zobrist hashes, already well mixed: hashing them again (SipHash) only costs time.
#[derive(Default)]
struct IdentityHasher(u64);

impl Hasher for IdentityHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = x;
    }
}

#[path = "numbers.rs"]
pub mod numbers;
#[path = "sow.rs"]
pub mod sow;

type KeySet = HashSet<u64, BuildHasherDefault<IdentityHasher>>;

/// Instructions one program run may execute before it is declared runaway.
const STEP_BUDGET: u32 = 1_000_000;
/// Actions the parts emitted by one position's programs may hold together. Changes made before an `add` are
/// carried into every later part of the run, so a `while` that changes and adds at each step grows
/// quadratically: a fuzzed file reached 3.2 GB within the step budget.
const MAX_EMITTED_ACTIONS: usize = 10_000_000;
/// Parts one composite move may have.
const MAX_PARTS: usize = 256;
/// Complete moves one position may have.
const MAX_MOVES: usize = 200_000;
/// Parts all the complete moves of one position may have together: long composite moves times many moves
/// would otherwise reach gigabytes before either limit above (a fuzzed file: 2.9 GB).
const MAX_TOTAL_PARTS: usize = 2_000_000;

/// A part emitted by a program, with what continues it.
#[derive(Clone, Debug)]
pub struct Emitted {
    pub part: Part,
    /// `Some(t)` for `add-partial`: the same piece continues with moves of type `t` (any type for `None`).
    pub cont: Option<Option<MoveType>>,
    /// `add-partial-required`: without a continuation this part is no move at all.
    pub required: bool,
    /// The continuation may be made by any of the mover's pieces, not only the one that moved (a sowing
    /// whose last seed earns another: `(sow ... (again COND))`).
    pub anywhere: bool,
}

/// Why a program run stopped early.
enum Stop {
    /// The path ends (a failed `verify`, a step off the board): nothing more is emitted.
    Path,
    /// In attack mode: a capture on the target was found.
    Found,
    /// The step budget ran out.
    Budget,
    /// The parts emitted hold [`MAX_EMITTED_ACTIONS`] actions.
    TooMany,
}

/// What a program run is for.
#[derive(Clone, Copy)]
enum Mode {
    /// Emit every part.
    Generate,
    /// Stop at the first part that captures on this position.
    Attack(Pos),
}

struct Run<'a> {
    game: &'a Game,
    state: &'a State,
    /// The player to move: symmetry, zones, `friend?` refer to it.
    player: Player,
    /// Whose pieces it moves (`(turn-order (?Dice Black dice))`): a zone the file declares for this player and
    /// not for the mover is read for this player (Daldosa's dice zone exists for Black and White, and the
    /// random `?D` throws Black's dice).
    owner: Player,
    mode: Mode,
    start: Pos,
    cursor: Pos,
    mark: Option<Pos>,
    from: Option<Pos>,
    held: Option<Piece>,
    to: Option<Pos>,
    /// A drop: the type dropped and whether it comes from the reserve.
    drop: Option<(PieceType, bool)>,
    captures: Vec<Pos>,
    placed: Vec<(Pos, Piece)>,
    cascades: Vec<(Pos, Pos)>,
    changes: Vec<Action>,
    flags: Vec<bool>,
    /// Move variables (`set-var`), 0 until set.
    vars: Vec<i64>,
    position_flags: Vec<(FlagId, Pos, bool)>,
    move_type: Option<MoveType>,
    /// `(extra-turn)` was executed on this path.
    extra: bool,
    /// `add-partial-required` set it for the next emission.
    required: bool,
    /// A `sow` earned another sowing: the next emission is continued by any of the mover's piles.
    again: bool,
    steps: u32,
    out: &'a mut Vec<Emitted>,
    /// Actions in the parts this run emitted (see [`MAX_EMITTED_ACTIONS`]).
    emitted_actions: usize,
    /// When set, every square whose contents the program reads is recorded in `reads`, and any read of the
    /// last move in `reads_last` (see [`LegalityCache`]).
    track: bool,
    reads: std::cell::Cell<[u64; 4]>,
    reads_last: std::cell::Cell<bool>,
}

impl Run<'_> {
    #[inline]
    fn loc(&self, l: Loc) -> Option<Pos> {
        match l {
            Loc::Cursor => Some(self.cursor),
            Loc::Dir(d) => self.game.board.step(self.player, self.cursor, d),
            Loc::Pos(p) => Some(p),
        }
    }

    #[inline]
    fn live(&self, pos: Pos) -> Option<Piece> {
        if self.track {
            let i = pos.idx();
            let mut r = self.reads.get();
            r[(i >> 6) & 3] |= 1 << (i & 63);
            self.reads.set(r);
        }
        self.state.get(pos)
    }

    /// The location, noting that the last move is read.
    fn read_last_then(&self, l: &Loc) -> Option<Pos> {
        self.read_last();
        self.loc(*l)
    }

    #[inline]
    fn read_last(&self) {
        if self.track {
            self.reads_last.set(true);
        }
    }

    fn cond(&mut self, c: &Cond) -> Result<bool, Stop> {
        Ok(match c {
            Cond::True => true,
            Cond::False => false,
            Cond::Not(c) => !self.cond(c)?,
            Cond::And(cs) => {
                for c in cs {
                    if !self.cond(c)? {
                        return Ok(false);
                    }
                }
                true
            }
            Cond::Or(cs) => {
                for c in cs {
                    if self.cond(c)? {
                        return Ok(true);
                    }
                }
                false
            }
            Cond::Empty(l) => self.loc(*l).is_some_and(|p| self.live(p).is_none()),
            Cond::Friend(l) => self
                .loc(*l)
                .and_then(|p| self.live(p))
                .is_some_and(|x| !x.dead && self.game.same_team(x.owner, self.player)),
            Cond::Enemy(l) => self
                .loc(*l)
                .and_then(|p| self.live(p))
                .is_some_and(|x| !x.dead && !self.game.same_team(x.owner, self.player)),
            Cond::Mine(l) => self
                .loc(*l)
                .and_then(|p| self.live(p))
                .is_some_and(|x| !x.dead && x.owner == self.player),
            Cond::Neutral(l) => {
                let turn_players = &self.game.turn_order.entries;
                self.loc(*l)
                    .and_then(|p| self.live(p))
                    .is_some_and(|x| !x.dead && !turn_players.iter().any(|e| e.player == x.owner))
            }
            Cond::Piece(ts, l) => self
                .loc(*l)
                .and_then(|p| self.live(p))
                .is_some_and(|x| ts.contains(&x.kind)),
            Cond::InZone(z, l) => self.loc(*l).is_some_and(|p| {
                let b = &self.game.board;
                b.in_zone(*z, self.player, p)
                    || (self.owner != self.player
                        && b.in_zone(*z, self.owner, p)
                        && !b.zones[z.idx()]
                            .members
                            .get(self.player.idx())
                            .is_some_and(|m| m.iter().any(|&x| x)))
            }),
            Cond::OnBoard(l) => self.loc(*l).is_some(),
            Cond::LastFrom(l) => self
                .read_last_then(l)
                .is_some_and(|p| self.state.last_from == Some(p)),
            Cond::LastTo(l) => self
                .read_last_then(l)
                .is_some_and(|p| self.state.last_to == Some(p)),
            Cond::Marked(l) => self.loc(*l).is_some_and(|p| self.mark == Some(p)),
            Cond::IsPosition(q, l) => self.loc(*l) == Some(*q),
            Cond::Attacked(l, mt) | Cond::Defended(l, mt) => {
                if matches!(self.mode, Mode::Attack(_)) {
                    return Ok(false); // no nested attack searches
                }
                let Some(p) = self.loc(*l) else {
                    return Ok(false);
                };
                let defended = matches!(c, Cond::Defended(..));
                match attacked_by(self.game, self.state, p, self.player, defended, *mt) {
                    Ok(b) => b,
                    Err(_) => return Err(Stop::Budget),
                }
            }
            Cond::Flag(f) => self.flags.get(f.idx()).copied().unwrap_or(false),
            Cond::PositionFlag(f, l) => match self.loc(*l) {
                Some(p) => self
                    .position_flags
                    .iter()
                    .rev()
                    .find(|(g, q, _)| g == f && *q == p)
                    .is_some_and(|x| x.2),
                None => false,
            },
            Cond::Attribute(a, l) => self
                .loc(*l)
                .and_then(|p| self.live(p))
                .is_some_and(|x| x.attr(*a)),
            Cond::Compare(op, ab) => self.compare(*op, ab)?,
            Cond::Suicide(l) => self.suicide(*l),
        })
    }

    fn block(&mut self, body: &[Instr]) -> Result<(), Stop> {
        for i in body {
            self.steps += 1;
            if self.steps > STEP_BUDGET {
                return Err(Stop::Budget);
            }
            self.instr(i)?;
        }
        Ok(())
    }

    fn instr(&mut self, i: &Instr) -> Result<(), Stop> {
        match i {
            Instr::Step(d) => {
                self.cursor = self
                    .game
                    .board
                    .step(self.player, self.cursor, *d)
                    .ok_or(Stop::Path)?
            }
            Instr::StepOpposite(d) => {
                let o = self.game.board.opposite[d.idx()].ok_or(Stop::Path)?;
                self.cursor = self
                    .game
                    .board
                    .step(self.player, self.cursor, o)
                    .ok_or(Stop::Path)?;
            }
            Instr::JumpTo(p) => self.cursor = *p,
            Instr::Verify(c) => {
                if !self.cond(c)? {
                    return Err(Stop::Path);
                }
            }
            Instr::If(c, then, els) => {
                if self.cond(c)? {
                    self.block(then)?
                } else {
                    self.block(els)?
                }
            }
            Instr::While(c, body) => {
                while self.cond(c)? {
                    self.steps += 1;
                    if self.steps > STEP_BUDGET {
                        return Err(Stop::Budget);
                    }
                    self.block(body)?;
                }
            }
            Instr::Mark => self.mark = Some(self.cursor),
            Instr::Back => self.cursor = self.mark.unwrap_or(self.start),
            Instr::Go(t) => {
                self.cursor = match t {
                    GoTarget::From => self.from.unwrap_or(self.start),
                    GoTarget::To => self.to.unwrap_or(self.cursor),
                    GoTarget::Mark => self.mark.unwrap_or(self.start),
                    GoTarget::LastFrom => {
                        self.read_last();
                        self.state.last_from.ok_or(Stop::Path)?
                    }
                    GoTarget::LastTo => {
                        self.read_last();
                        self.state.last_to.ok_or(Stop::Path)?
                    }
                }
            }
            Instr::From => {
                self.from = Some(self.cursor);
                self.held = self.live(self.cursor);
                self.drop = None;
            }
            Instr::To => self.to = Some(self.cursor),
            Instr::Cascade => {
                // The held piece's movement ends here; the piece that stood here at the start moves on.
                if let Some(f) = self.from {
                    if f != self.cursor {
                        self.cascades.push((f, self.cursor));
                    }
                }
                self.from = Some(self.cursor);
                self.held = self.live(self.cursor);
                self.to = None;
                self.drop = None;
            }
            Instr::Add {
                promote,
                copy,
                partial,
            } => self.emit(promote, *copy, *partial)?,
            Instr::Capture(l) => {
                if let Some(p) = self.loc(*l) {
                    if self.live(p).is_some_and(|x| !x.dead) && !self.captures.contains(&p) {
                        self.captures.push(p);
                    }
                }
            }
            Instr::Create { player, piece, at } => {
                let Some(p) = self.loc(*at) else {
                    return Err(Stop::Path);
                };
                let owner = match player {
                    PlayerRef::Mover => self.player,
                    PlayerRef::Named(q) => *q,
                };
                let Some(kind) = piece.or(self.held.map(|h| h.kind)) else {
                    return Ok(());
                };
                let attrs = initial_attrs(self.game, kind);
                self.placed.push((
                    p,
                    Piece {
                        kind,
                        owner,
                        attrs,
                        dead: false,
                    },
                ));
            }
            Instr::ChangeType(t, l) => {
                let at = self.loc(*l).ok_or(Stop::Path)?;
                self.changes.push(Action::ChangeType { at, kind: *t });
            }
            Instr::Flip(l) => {
                let at = self.loc(*l).ok_or(Stop::Path)?;
                if let Some(x) = self.live(at) {
                    let n = self.game.players.len() as u8;
                    let owner = if x.owner != self.player {
                        self.player
                    } else {
                        Player((x.owner.0 + 1) % n.max(1))
                    };
                    self.changes.push(Action::ChangeOwner { at, owner });
                }
            }
            Instr::ChangeOwner(p, l) => {
                let at = self.loc(*l).ok_or(Stop::Path)?;
                let owner = match p {
                    PlayerRef::Mover => self.player,
                    PlayerRef::Named(q) => *q,
                };
                self.changes.push(Action::ChangeOwner { at, owner });
            }
            Instr::SetFlag(f, c) => {
                let v = self.cond(c)?;
                if self.flags.len() <= f.idx() {
                    self.flags.resize(f.idx() + 1, false);
                }
                self.flags[f.idx()] = v;
            }
            Instr::SetPositionFlag(f, c, l) => {
                let v = self.cond(c)?;
                let p = self.loc(*l).ok_or(Stop::Path)?;
                self.position_flags.push((*f, p, v));
            }
            Instr::SetVar(v, e) => self.set_var(*v, e)?,
            Instr::SetStateVar(v, e) => self.set_state_var(*v, e)?,
            Instr::SetIntAttribute(k, e, l) => self.set_int_attribute(*k, e, *l)?,
            Instr::SetAttribute(a, c, l) => {
                let v = self.cond(c)?;
                let at = self.loc(*l).ok_or(Stop::Path)?;
                self.changes.push(Action::SetAttribute {
                    at,
                    attr: *a,
                    value: v,
                });
            }
            Instr::Choose(c) => self.choose(&c.set, c.otherwise.as_ref(), &c.body, &c.rest)?,
            Instr::ExtraTurn => self.extra = true,
            Instr::RequireContinuation => self.required = true,
            Instr::CaptureGroups(l, suicide) => self.capture_groups(*l, *suicide)?,
            Instr::Sow(s) => self.sow(s)?,
            Instr::GotoTurn(e) => self.goto_turn(*e),
            Instr::TakePrisoner(l) => {
                if let Some(at) = self.loc(*l) {
                    let taken =
                        |a: &Action| matches!(a, Action::TakePrisoner { at: q, .. } if *q == at);
                    if self.live(at).is_some_and(|x| !x.dead) && !self.changes.iter().any(taken) {
                        // `to` is filled in when the part is emitted: the moving column's destination.
                        self.changes.push(Action::TakePrisoner { at, to: at });
                    }
                }
            }
            Instr::Carry(e) => {
                let n = self.eval(e)?;
                // Kept among the changes (a marker the emission turns into the movement), so that programs
                // without stacks pay nothing for it.
                let count = n.clamp(1, u16::MAX as i64) as u16;
                self.changes
                    .retain(|a| !matches!(a, Action::MoveTop { .. }));
                self.changes.push(Action::MoveTop {
                    from: self.cursor,
                    to: self.cursor,
                    count,
                });
            }
        }
        Ok(())
    }

    /// The owner of the live piece on position `q` (a tracked read), for the group forms.
    fn owner_at(&self, q: usize) -> Option<Player> {
        self.live(Pos(q as u16))
            .filter(|x| !x.dead)
            .map(|x| x.owner)
    }

    /// `suicide?`: see [`Cond::Suicide`]. Out of line, like the other group forms, to keep the interpreter's
    /// hot functions as they were.
    #[inline(never)]
    fn suicide(&self, l: Loc) -> bool {
        match self.loc(l) {
            Some(p) => super::groups::suicide(self.game, &|q| self.owner_at(q), p, self.player),
            None => false,
        }
    }

    /// `(capture-groups [suicide] LOC)`: see [`Instr::CaptureGroups`].
    #[inline(never)]
    fn capture_groups(&mut self, l: Loc, suicide: bool) -> Result<(), Stop> {
        let at = self.loc(l).ok_or(Stop::Path)?;
        let owner = |q: usize| self.owner_at(q);
        let mut taken = super::groups::captured_by_placing(self.game, &owner, at, self.player);
        if suicide && taken.is_empty() && super::groups::suicide(self.game, &owner, at, self.player)
        {
            // The piece dies with its group: the group's stones are captured and the piece never stands
            // here (a drop puts nothing down; a moving piece is captured where it started).
            taken = super::groups::own_groups_next_to(self.game, &owner, at, self.player);
            if self.drop.take().is_none() {
                if let Some(f) = self.from {
                    taken.push(f.idx());
                    self.held = None;
                }
            }
        }
        for q in taken {
            let p = Pos(q as u16);
            if !self.captures.contains(&p) {
                self.captures.push(p);
            }
        }
        Ok(())
    }

    /// A `sow` earned another sowing: the part is continued by any of the mover's piles, moves of any type.
    #[inline(never)]
    #[cold]
    fn take_again(&mut self) -> (Option<Option<MoveType>>, bool) {
        self.again = false;
        (Some(None), true)
    }

    /// `(goto-turn L)`: a change of the part. Out of the hot loop.
    #[inline(never)]
    #[cold]
    fn goto_turn(&mut self, entry: u16) {
        self.changes.push(Action::GotoTurn { entry });
    }

    /// `choose`: one path per chosen position (see [`Instr::Choose`]). Each path starts from the program's
    /// state before the choice, so that nothing one choice records leaks into another. Kept out of `instr`,
    /// the interpreter's hot loop, whose frame it would otherwise enlarge.
    #[inline(never)]
    #[cold]
    fn choose(
        &mut self,
        set: &Cond,
        otherwise: Option<&Cond>,
        body: &[Instr],
        rest: &[Instr],
    ) -> Result<(), Stop> {
        let here = self.cursor;
        let mut chosen = vec![];
        for c in std::iter::once(set).chain(otherwise) {
            for (i, info) in self.game.board.positions.iter().enumerate() {
                if info.dummy {
                    continue;
                }
                self.cursor = Pos(i as u16);
                if self.cond(c)? {
                    chosen.push(self.cursor);
                }
            }
            if !chosen.is_empty() {
                break;
            }
        }
        self.cursor = here;
        if chosen.is_empty() {
            return self.block(rest);
        }
        for p in chosen {
            let saved = self.save();
            self.cursor = p;
            let r = self.block(body).and_then(|()| self.block(rest));
            self.restore(saved);
            match r {
                Ok(()) | Err(Stop::Path) => {}
                Err(e) => return Err(e),
            }
        }
        // Every choice ran the rest of the program: nothing follows on this path.
        Err(Stop::Path)
    }

    fn save(&self) -> Saved {
        Saved {
            cursor: self.cursor,
            mark: self.mark,
            from: self.from,
            held: self.held,
            to: self.to,
            drop: self.drop,
            captures: self.captures.clone(),
            placed: self.placed.clone(),
            cascades: self.cascades.clone(),
            changes: self.changes.clone(),
            flags: self.flags.clone(),
            position_flags: self.position_flags.clone(),
            extra: self.extra,
            required: self.required,
            again: self.again,
        }
    }

    fn restore(&mut self, s: Saved) {
        self.cursor = s.cursor;
        self.mark = s.mark;
        self.from = s.from;
        self.held = s.held;
        self.to = s.to;
        self.drop = s.drop;
        self.captures = s.captures;
        self.placed = s.placed;
        self.cascades = s.cascades;
        self.changes = s.changes;
        self.flags = s.flags;
        self.position_flags = s.position_flags;
        self.extra = s.extra;
        self.required = s.required;
        self.again = s.again;
    }

    /// Whether a cascaded piece arriving on `t` captures what stands there: not when that piece moves on itself
    /// (it is a cascade's start, or the held piece leaving for `dest`), nor when it is captured already.
    fn cascade_captures(&self, t: Pos, dest: Pos) -> bool {
        self.live(t).is_some_and(|x| !x.dead)
            && !self.captures.contains(&t)
            && !self.cascades.iter().any(|c| c.0 == t)
            && !(self.from == Some(t) && dest != t)
    }

    /// Whether a piece stands on `pos` when the held piece arrives there (so arriving captures it).
    fn occupied_on_arrival(&self, pos: Pos) -> bool {
        self.live(pos).is_some_and(|x| !x.dead)
            && !self.cascades.iter().any(|(f, _)| *f == pos)
            && self.from != Some(pos)
            && !self.captures.contains(&pos)
    }

    fn emit(
        &mut self,
        promote: &[PieceType],
        copy: bool,
        cont: Option<Option<MoveType>>,
    ) -> Result<(), Stop> {
        if let Mode::Attack(target) = self.mode {
            // Only whether this emission would capture the target matters: decide it without building a part.
            let dest = self.to.unwrap_or(self.cursor);
            let moves_piece = self.drop.is_some()
                || (self.held.is_some() && self.from.is_some_and(|f| f != dest));
            let hit =
                self.captures.contains(&target)
                    || (dest == target && moves_piece && self.occupied_on_arrival(target))
                    || self.cascades.iter().any(|&(f, t)| {
                        t == target && f != target && self.cascade_captures(t, dest)
                    })
                    || self
                        .placed
                        .iter()
                        .any(|(p, _)| *p == target && self.live(*p).is_some())
                    || (self.game.stacks
                        && self.changes.iter().any(
                            |a| matches!(a, Action::TakePrisoner { at, .. } if *at == target),
                        ));
            if hit {
                return Err(Stop::Found);
            }
            self.captures.clear();
            self.placed.clear();
            return Ok(());
        }
        let dest = self.to.unwrap_or(self.cursor);
        let mut actions = Vec::with_capacity(4 + self.captures.len() + self.changes.len());
        for &c in &self.captures {
            actions.push(Action::Capture { at: c });
        }
        for &(f, t) in &self.cascades {
            if self.cascade_captures(t, dest) {
                actions.push(Action::Capture { at: t });
            }
            actions.push(Action::Move { from: f, to: t });
        }
        let piece_kind;
        let mut from = None;
        match (self.drop, self.from, self.held) {
            (Some((kind, reserve)), _, _) => {
                if self.occupied_on_arrival(dest) {
                    actions.push(Action::Capture { at: dest });
                }
                let attrs = initial_attrs(self.game, kind);
                // A drop comes from the reserve of the player whose pieces this turn moves, and stays its piece
                // (a random `?D` throwing Black's dice puts down Black's dice).
                actions.push(Action::Place {
                    at: dest,
                    piece: Piece {
                        kind,
                        owner: self.owner,
                        attrs,
                        dead: false,
                    },
                    reserve,
                });
                piece_kind = kind;
            }
            (None, Some(f), Some(h)) => {
                if f != dest {
                    if self.occupied_on_arrival(dest) {
                        actions.push(Action::Capture { at: dest });
                    }
                    let carry = match self.game.stacks {
                        true => self.changes.iter().find_map(|a| match a {
                            Action::MoveTop { count, .. } => Some(*count),
                            _ => None,
                        }),
                        false => None,
                    };
                    if let Some(count) = carry.filter(|&c| self.state.under(f).len() >= c as usize)
                    {
                        actions.push(Action::MoveTop {
                            from: f,
                            to: dest,
                            count,
                        });
                    } else {
                        actions.push(Action::Move { from: f, to: dest });
                    }
                    if copy {
                        actions.push(Action::Place {
                            at: f,
                            piece: h,
                            reserve: false,
                        });
                    }
                }
                piece_kind = h.kind;
                from = Some(f);
            }
            _ => piece_kind = PieceType(0),
        }
        for &(p, piece) in &self.placed {
            if self.live(p).is_some() && !self.captures.contains(&p) {
                actions.push(Action::Capture { at: p });
            }
            actions.push(Action::Place {
                at: p,
                piece,
                reserve: false,
            });
        }
        // A change made on the square the held piece left follows the piece.
        let moved = from.filter(|f| *f != dest);
        for ch in &self.changes {
            let mut ch = *ch;
            if let Some(f) = moved {
                match &mut ch {
                    Action::ChangeType { at, .. }
                    | Action::ChangeOwner { at, .. }
                    | Action::SetAttribute { at, .. }
                    | Action::SetIntAttribute { at, .. }
                        if *at == f =>
                    {
                        *at = dest
                    }
                    _ => {}
                }
            }
            if let Action::TakePrisoner { to, .. } = &mut ch {
                *to = dest;
            }
            if matches!(ch, Action::MoveTop { .. }) {
                continue; // `carry`'s marker: the movement above says it
            }
            actions.push(ch);
        }
        if self.extra {
            actions.push(Action::ExtraTurn);
        }
        let required = std::mem::take(&mut self.required);
        let (cont, anywhere) = if self.again {
            self.take_again()
        } else {
            (cont, false)
        };
        let part = Part {
            actions,
            from,
            to: Some(dest),
            piece: piece_kind,
            move_type: self.move_type,
        };
        if let Mode::Attack(target) = self.mode {
            if part
                .actions
                .iter()
                .any(|a| matches!(a, Action::Capture { at } if *at == target))
            {
                return Err(Stop::Found);
            }
        } else {
            self.emitted_actions += (part.actions.len() + 1) * promote.len().max(1);
            if self.emitted_actions > MAX_EMITTED_ACTIONS {
                return Err(Stop::TooMany);
            }
        }
        if matches!(self.mode, Mode::Attack(_)) {
            // Only a capture of the target mattered (above).
        } else if promote.is_empty() {
            self.out.push(Emitted {
                part,
                cont,
                required,
                anywhere,
            });
        } else {
            for &t in promote {
                let mut p = part.clone();
                p.actions.push(Action::ChangeType { at: dest, kind: t });
                self.out.push(Emitted {
                    part: p,
                    cont,
                    required,
                    anywhere,
                });
            }
        }
        // Captures and drops before an `add` are not carried into later emissions; nor are cascades, under
        // `discard cascades`.
        self.captures.clear();
        self.placed.clear();
        if self.game.options.discard_cascades {
            self.cascades.clear();
        }
        // Prisoners, like captures, belong to the part that took them.
        if self.game.stacks && !self.changes.is_empty() {
            self.changes
                .retain(|a| !matches!(a, Action::TakePrisoner { .. } | Action::MoveTop { .. }));
        }
        Ok(())
    }
}

/// A program run's state before a `choose`, restored after each choice.
struct Saved {
    cursor: Pos,
    mark: Option<Pos>,
    from: Option<Pos>,
    held: Option<Piece>,
    to: Option<Pos>,
    drop: Option<(PieceType, bool)>,
    captures: Vec<Pos>,
    placed: Vec<(Pos, Piece)>,
    cascades: Vec<(Pos, Pos)>,
    changes: Vec<Action>,
    flags: Vec<bool>,
    position_flags: Vec<(FlagId, Pos, bool)>,
    extra: bool,
    required: bool,
    again: bool,
}

/// What a tracked run read: the squares (a bitmap) and whether it looked at the last move.
#[derive(Clone, Copy, Default)]
struct Reads {
    squares: [u64; 4],
    last: bool,
}

impl<'a> Run<'a> {
    /// A context for running programs of `player` on `state`; reused for many programs, so that a program run
    /// costs no setup beyond resetting a few fields.
    fn new(
        game: &'a Game,
        state: &'a State,
        player: Player,
        mode: Mode,
        out: &'a mut Vec<Emitted>,
    ) -> Run<'a> {
        Run {
            game,
            state,
            player,
            owner: player,
            mode,
            start: Pos(0),
            cursor: Pos(0),
            mark: None,
            from: None,
            held: None,
            to: None,
            drop: None,
            captures: vec![],
            placed: vec![],
            cascades: vec![],
            changes: vec![],
            flags: vec![],
            vars: vec![],
            position_flags: vec![],
            move_type: None,
            extra: false,
            required: false,
            again: false,
            steps: 0,
            emitted_actions: 0,
            out,
            track: false,
            reads: std::cell::Cell::new([0; 4]),
            reads_last: std::cell::Cell::new(false),
        }
    }

    /// Runs one program from `start`; returns whether an attack target was found. A runaway program is an error.
    fn exec(
        &mut self,
        prog: &MoveProgram,
        start: Pos,
        held: Option<Piece>,
        drop: Option<(PieceType, bool)>,
    ) -> Result<bool, EngineError> {
        self.start = start;
        self.cursor = start;
        self.mark = None;
        self.from = if drop.is_some() { None } else { Some(start) };
        self.held = held;
        self.to = None;
        self.drop = drop;
        self.captures.clear();
        self.placed.clear();
        self.cascades.clear();
        self.changes.clear();
        self.flags.clear();
        self.vars.clear();
        self.position_flags.clear();
        self.move_type = prog.move_type;
        self.extra = false;
        self.required = false;
        self.again = false;
        self.steps = 0;
        if self.track {
            self.reads.set([0; 4]);
            self.reads_last.set(false);
        }
        match self.block(&prog.body) {
            Ok(()) | Err(Stop::Path) => Ok(false),
            Err(Stop::Found) => Ok(true),
            Err(Stop::TooMany) => Err(EngineError(format!(
                "{}: the move programs of one position emitted more than {MAX_EMITTED_ACTIONS} actions",
                self.game.title
            ))),
            Err(Stop::Budget) => Err(EngineError(format!(
                "{}: a move program ran more than {STEP_BUDGET} steps from {} (an endless `while`?): {}",
                self.game.title,
                self.game.board.pos_name(start),
                prog.source
            ))),
        }
    }
}

/// Whether `pos` could be captured by a player other than `player` (or, with `defended`, by `player` itself),
/// on the given board, by a single part of any of their moves: plain programs by a backward walk from the
/// square, the others forwards (`super::attack`).
#[inline]
pub fn attacked_by(
    game: &Game,
    state: &State,
    pos: Pos,
    player: Player,
    defended: bool,
    move_type: Option<MoveType>,
) -> Result<bool, EngineError> {
    super::attack::attacked_by(game, state, pos, player, defended, move_type)
}

/// [`attacked_by`] by running programs forwards against the square: every program of every attacking piece, or
/// with `only`, the programs that table says are not plain (its shapes cover the others).
pub fn attacked_by_forward(
    game: &Game,
    state: &State,
    pos: Pos,
    player: Player,
    defended: bool,
    move_type: Option<MoveType>,
    only: Option<&crate::compile::attack::AttackTable>,
) -> Result<bool, EngineError> {
    let attacks = |x: &Piece| {
        !(x.dead
            || game.same_team(x.owner, player) != defended
            || game.players[x.owner.idx()].random)
    };
    let wanted = |p: &MoveProgram| move_type.is_none() || p.move_type == move_type;
    let pieces = &game.pieces;
    if let Some(t) = only {
        // Nothing to run forwards: no state copy, no interpreter.
        let any = state.cells.iter().flatten().any(|x| {
            attacks(x)
                && t.forward[x.kind.idx()].iter().any(|&j| {
                    pieces[x.kind.idx()]
                        .moves
                        .get(j as usize)
                        .is_some_and(wanted)
                })
        });
        if !any {
            return Ok(false);
        }
    }
    // An empty square is attacked when a piece standing there could be captured: put a phantom piece of the
    // defending side there, so that moves which need a victim (`enemy?`) see one and quiet moves do not count.
    if state.get(pos).is_none() {
        let mut with_phantom = state.clone();
        with_phantom.set(pos, Some(super::attack::phantom(game, player, defended)));
        return attacked_by_forward(game, &with_phantom, pos, player, defended, move_type, only);
    }
    let mut scratch = vec![];
    let mut run = Run::new(game, state, player, Mode::Attack(pos), &mut scratch);
    for (i, c) in state.cells.iter().enumerate() {
        let Some(x) = c else { continue };
        if !attacks(x) {
            continue;
        }
        run.player = x.owner;
        let progs = &pieces[x.kind.idx()].moves;
        match only {
            None => {
                for prog in progs.iter().filter(|p| wanted(p)) {
                    if run.exec(prog, Pos(i as u16), Some(*x), None)? {
                        return Ok(true);
                    }
                }
            }
            Some(t) => {
                for &j in &t.forward[x.kind.idx()] {
                    let Some(prog) = progs.get(j as usize).filter(|p| wanted(p)) else {
                        continue;
                    };
                    if run.exec(prog, Pos(i as u16), Some(*x), None)? {
                        return Ok(true);
                    }
                }
            }
        }
    }
    Ok(false)
}

/// The player to move and whose pieces it moves, with the turn's move type.
pub fn turn_of<'g>(game: &'g Game, state: &State) -> &'g TurnEntry {
    &game.turn_order.entries[state.turn]
}

/// Which move programs a generation pass runs.
#[derive(Clone, Copy, Debug)]
pub enum TypeFilter<'a> {
    Any,
    /// Programs of this type (`None`: programs declared before any `move-type`).
    Only(Option<MoveType>),
    /// Programs whose type is not in the list (the lowest group under `move-priorities`).
    Unlisted(&'a [MoveType]),
    /// Programs whose type is in the first list and not in the second (a phase's types below its
    /// `move-priorities`).
    Among(&'a [MoveType], &'a [MoveType]),
}

impl TypeFilter<'_> {
    fn wants(&self, p: &MoveProgram) -> bool {
        match self {
            TypeFilter::Any => true,
            TypeFilter::Only(t) => p.move_type == *t,
            TypeFilter::Unlisted(list) => p.move_type.is_none_or(|t| !list.contains(&t)),
            TypeFilter::Among(yes, no) => p
                .move_type
                .is_some_and(|t| yes.contains(&t) && !no.contains(&t)),
        }
    }
}

/// Every single part available to `player` in `state`: moves of its pieces and drops from its reserve.
/// `only` restricts generation to the piece on one square (the continuation of a composite move), `types`
/// to moves of one type.
pub fn parts(
    game: &Game,
    state: &State,
    player: Player,
    owner: Player,
    types: TypeFilter<'_>,
    only: Option<Pos>,
    out: &mut Vec<Emitted>,
) -> Result<(), EngineError> {
    let wanted = |p: &MoveProgram| types.wants(p);
    let (first, last) = match only {
        Some(p) => (p.idx(), p.idx() + 1),
        None => (0, state.cells.len()),
    };
    let mut run = Run::new(game, state, player, Mode::Generate, out);
    run.owner = owner;
    let shared = game.options.shared_pieces;
    for (i, c) in state.cells[first..last].iter().enumerate() {
        // Look at the owner before copying the piece: most squares hold none of the mover's.
        let Some(x) = c else { continue };
        if x.dead || (x.owner != owner && !shared) {
            continue;
        }
        let x = *x;
        let at = Pos((first + i) as u16);
        for prog in game.pieces[x.kind.idx()].moves.iter().filter(|p| wanted(p)) {
            run.exec(prog, at, Some(x), None)?;
        }
    }
    if only.is_some() {
        return Ok(());
    }
    let np = game.pieces.len();
    for (t, piece) in game.pieces.iter().enumerate() {
        if piece.drops.is_empty() {
            continue;
        }
        let kind = PieceType(t as u16);
        let limited =
            game.captures_to_hand.is_some() || game.setup.reserves.iter().any(|r| r.1 == kind);
        if limited && state.reserves[owner.idx() * np + t] == 0 {
            continue;
        }
        for prog in piece.drops.iter().filter(|p| wanted(p)) {
            for (i, info) in game.board.positions.iter().enumerate() {
                if !info.dummy {
                    run.exec(prog, Pos(i as u16), None, Some((kind, limited)))?;
                }
            }
        }
    }
    Ok(())
}

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

struct Composer<'a> {
    game: &'a Game,
    player: Player,
    owner: Player,
    out: Vec<Move>,
    /// Per move of `out`: the hash of the board it leaves, where the enumeration already computed it (a
    /// composite move without deferred captures); `None`, or past the end, where the merge must apply it.
    after: Vec<Option<u64>>,
    seen: KeySet,
    /// Continuation states already expanded in this position (see `extend`).
    expanded: KeySet,
    /// Parts of the moves in `out`, together.
    total_parts: usize,
}

impl Composer<'_> {
    /// Extends a composite move whose last part left `state`, continuing the piece on `at`.
    fn extend(
        &mut self,
        prefix: &mut Vec<Part>,
        state: &State,
        at: Pos,
        types: Option<MoveType>,
        chain: &mut Vec<u64>,
        required: bool,
        anywhere: bool,
    ) -> Result<(), EngineError> {
        if prefix.len() >= MAX_PARTS
            || self.out.len() >= MAX_MOVES
            || self.total_parts >= MAX_TOTAL_PARTS
        {
            return Err(EngineError(format!(
                "{}: a composite move grew past {MAX_PARTS} parts, or the position past {MAX_MOVES} moves or \
                 {MAX_TOTAL_PARTS} parts in all",
                self.game.title
            )));
        }
        let mut conts = vec![];
        let filter = match types {
            Some(t) => TypeFilter::Only(Some(t)),
            None => TypeFilter::Any,
        };
        parts(
            self.game,
            state,
            self.player,
            self.owner,
            filter,
            (!anywhere).then_some(at),
            &mut conts,
        )?;
        // A continuation that comes back to a state already seen in this chain would loop.
        let deferred = self.game.options.deferred_captures;
        let mut any = false;
        for e in conts {
            let mut next = state.clone();
            apply_part(self.game, &mut next, &e.part, deferred);
            if chain.contains(&next.hash) {
                continue;
            }
            any = true;
            prefix.push(e.part.clone());
            match (e.cont, e.part.to) {
                (Some(t), Some(to)) => {
                    // Two routes of one piece to the same state (same board, same last move, same continuation)
                    // have the same completions, so the second adds only moves with an already-seen net effect,
                    // which are merged anyway. Skipping it turns an exponential count of capture routes (flying
                    // kings that take pieces at once) into a search over distinct states. Exact when the part
                    // into the state captured and nothing was created: every earlier state of any route then has
                    // more pieces, so the loop check forbids the same continuations on every route.
                    // A prisoner taken counts as a capture here: every state of a route then has fewer
                    // prisoners under the moving column (or fewer live tops) than the states after it.
                    let captured =
                        e.part.actions.iter().any(|a| {
                            matches!(a, Action::Capture { .. } | Action::TakePrisoner { .. })
                        });
                    let created = prefix
                        .iter()
                        .flat_map(|p| &p.actions)
                        .any(|a| matches!(a, Action::Place { .. }));
                    let key = next.hash
                        ^ super::state::mix(
                            (next.last_from.map_or(0xFFFF, |p| p.0) as u64) << 32
                                | (next.last_to.map_or(0xFFFF, |p| p.0) as u64) << 16
                                | t.map_or(0xFFFF, |m| m.0) as u64,
                        )
                        ^ super::state::mix(prefix[0].from.map_or(0, |f| f.0 as u64 + 1) << 40);
                    if !(captured && !created) || self.expanded.insert(key) {
                        chain.push(next.hash);
                        self.extend(prefix, &next, to, t, chain, e.required, e.anywhere)?;
                        chain.pop();
                    }
                }
                _ => self.finish(prefix, next.hash),
            }
            prefix.pop();
        }
        // A part made by `add-partial-required` is no move without its continuation.
        if (!any || self.game.options.pass_partial) && !required {
            if prefix.len() > 0 {
                self.finish(prefix, state.hash);
            }
        }
        Ok(())
    }

    /// A complete move, with the hash of the board it leaves (`state.hash` after its last part).
    fn finish(&mut self, parts: &[Part], after: u64) {
        self.total_parts += parts.len();
        self.out.push(Move {
            parts: parts.to_vec(),
        });
        // Deferred captures are removed only when the move ends: let the merge apply such a move whole.
        if !self.game.options.deferred_captures {
            self.after.resize(self.out.len() - 1, None);
            self.after.push(Some(after));
        }
    }
}

/// The complete moves whose first part comes from programs the filter selects, with moves of the same net
/// effect merged.
fn complete_moves(
    game: &Game,
    state: &State,
    player: Player,
    owner: Player,
    filter: TypeFilter<'_>,
) -> Result<Vec<Move>, EngineError> {
    let mut firsts = vec![];
    parts(game, state, player, owner, filter, None, &mut firsts)?;
    let mut c = Composer {
        game,
        player,
        owner,
        out: Vec::with_capacity(firsts.len()),
        after: vec![],
        seen: KeySet::default(),
        expanded: KeySet::default(),
        total_parts: 0,
    };
    let deferred = game.options.deferred_captures;
    let mut composite = false;
    for e in firsts {
        match (e.cont, e.part.to) {
            (Some(t), Some(to)) => {
                composite = true;
                let mut next = state.clone();
                apply_part(game, &mut next, &e.part, deferred);
                let mut prefix = vec![e.part];
                let mut chain = vec![state.hash, next.hash];
                c.extend(
                    &mut prefix,
                    &next,
                    to,
                    t,
                    &mut chain,
                    e.required,
                    e.anywhere,
                )?;
            }
            _ => c.out.push(Move {
                parts: vec![e.part],
            }),
        }
    }
    let mut moves = c.out;
    if composite {
        // Moves with the same net effect are one move.
        let mut seen = std::mem::take(&mut c.seen);
        let after = c.after;
        let mut i = 0;
        moves.retain(|m| {
            i += 1;
            let key = match after.get(i - 1).copied().flatten() {
                Some(h) => h ^ from_key(m) ^ extra_key(m),
                None => effect_key(game, state, m),
            };
            seen.insert(key)
        });
    } else {
        merge_equal_singles(game, state, &mut moves);
    }
    Ok(moves)
}

/// The net effect of a move from `state`: the board and reserves after it, and the square its piece started
/// from. Equal keys are one move.
fn effect_key(game: &Game, state: &State, m: &Move) -> u64 {
    apply_move(game, state, m).hash ^ from_key(m) ^ extra_key(m)
}

/// A move that earns another turn (or sends the turn order elsewhere) differs from the same move without it.
fn extra_key(m: &Move) -> u64 {
    let jump = m
        .goto_turn()
        .map_or(0, |e| super::state::mix(0x7E57 ^ e as u64));
    if m.extra_turn() {
        0x6A09_E667_F3BC_C908 ^ jump
    } else {
        jump
    }
}

/// The square the move's piece started from, as a key to mix with the board it leaves.
fn from_key(m: &Move) -> u64 {
    m.parts
        .first()
        .and_then(|p| p.from)
        .map_or(0, |f| super::state::mix(f.0 as u64 + 1))
}

/// Whether two moves may share their (from, to) key, decided without allocating: moves come grouped by the
/// square they start from, so within each group a bitmap of destinations finds a repeat; a start square seen
/// again in a later group, or a board past 256 positions, answers "maybe" and the caller sorts.
fn may_share_ends(moves: &[Move], ends: impl Fn(&Move) -> u32) -> bool {
    let mut froms = [0u64; 5];
    let mut tos = [0u64; 5];
    let mut current = u32::MAX;
    let bit = |x: u32| -> Option<(usize, u64)> {
        // 0xFFFF (no square) takes bit 256.
        let i = if x == 0xFFFF { 256 } else { x as usize };
        (i <= 256).then(|| (i >> 6, 1u64 << (i & 63)))
    };
    for m in moves {
        let k = ends(m);
        let (from, to) = (k >> 16, k & 0xFFFF);
        if from != current {
            let Some((w, b)) = bit(from) else { return true };
            if froms[w] & b != 0 {
                return true;
            }
            froms[w] |= b;
            tos = [0; 5];
            current = from;
        }
        let Some((w, b)) = bit(to) else { return true };
        if tos[w] & b != 0 {
            return true;
        }
        tos[w] |= b;
    }
    false
}

/// Merges single-part moves with the same net effect (two identical move programs, one removal found by two
/// scans). Cheap where nothing can merge: a moving piece ends on its part's `to`, so moves of one net effect
/// share their (from, to), and only moves that share it with another are applied and compared; in chess that
/// is promotions alone. (Two parts that move no piece and end their cursors on different squares are compared
/// by that square too, so such a pair with one effect stays two moves.)
fn merge_equal_singles(game: &Game, state: &State, moves: &mut Vec<Move>) {
    if moves.len() < 2 {
        return;
    }
    let ends = |m: &Move| -> u32 {
        let p = m.parts.first();
        let from = p.and_then(|p| p.from).map_or(0xFFFF, |x| x.0 as u32);
        let to = m
            .parts
            .last()
            .and_then(|p| p.to)
            .map_or(0xFFFF, |x| x.0 as u32);
        from << 16 | to
    };
    if !may_share_ends(moves, ends) {
        return;
    }
    let mut keys: Vec<u32> = moves.iter().map(ends).collect();
    keys.sort_unstable();
    let shared: Vec<u32> = keys
        .windows(2)
        .filter(|w| w[0] == w[1])
        .map(|w| w[0])
        .collect();
    let mut seen = KeySet::default();
    moves.retain(|m| {
        let e = ends(m);
        // `shared` is sorted: a linear scan per move was quadratic in a file that repeats one program
        // thousands of times (a fuzzed Thud).
        shared.binary_search(&e).is_err()
            || seen.insert(effect_key(game, state, m) ^ (e as u64) << 20)
    });
}

/// Every legal complete move of the player to move, after move priorities, maximal captures, passing and the
/// `checkmated` legality rule.
///
/// `pass turn forced`: a player with no move must pass, unless every player has just passed in turn (a whole
/// round of passes has not changed the board); then the player has no legal move at all, so `stalemated`
/// holds and the game ends. This is Othello's "neither side can move", counted as in the published perft
/// numbers: each pass is a ply, and the game is over once both players have passed in a row.
pub fn legal_moves(
    game: &Game,
    state: &State,
    royal: &[Vec<PieceType>],
    kings: &[PieceType],
) -> Result<Vec<Move>, EngineError> {
    let entry = turn_of(game, state);
    let (player, owner) = (entry.player, entry.moves_as);
    if !game.phases.is_empty() {
        let moves = phase_moves(game, state, entry)?;
        return finish_legal(game, state, royal, kings, player, moves);
    }
    // Under `move-priorities`, only the first type with a move counts: generate the types in that order and
    // stop at the first that has one. Types not listed rank below all listed ones (README: decisions).
    let moves = match entry.move_type {
        Some(t) => complete_moves(game, state, player, owner, TypeFilter::Only(Some(t)))?,
        None if game.move_priorities.is_empty() => {
            complete_moves(game, state, player, owner, TypeFilter::Any)?
        }
        None => {
            let mut found = vec![];
            for &t in &game.move_priorities {
                found = complete_moves(game, state, player, owner, TypeFilter::Only(Some(t)))?;
                if !found.is_empty() {
                    break;
                }
            }
            if found.is_empty() {
                found = complete_moves(
                    game,
                    state,
                    player,
                    owner,
                    TypeFilter::Unlisted(&game.move_priorities),
                )?;
            }
            found
        }
    };
    finish_legal(game, state, royal, kings, player, moves)
}

/// The moves of the phase the player to move is in (see [`Phase`]): the first phase whose condition holds
/// gives the move types; `move-priorities` orders them as it orders all types without phases. No phase holds:
/// no move.
fn phase_moves(game: &Game, state: &State, entry: &TurnEntry) -> Result<Vec<Move>, EngineError> {
    let (player, owner) = (entry.player, entry.moves_as);
    let mut phase = None;
    for p in &game.phases {
        let holds = match &p.when {
            None => true,
            Some(c) => super::end::phase_holds(game, state, c, owner)?,
        };
        if holds {
            phase = Some(p);
            break;
        }
    }
    let Some(phase) = phase else {
        return Ok(vec![]);
    };
    let types = &phase.move_types[..];
    if let Some(t) = entry.move_type {
        if !types.contains(&t) {
            return Ok(vec![]);
        }
        return complete_moves(game, state, player, owner, TypeFilter::Only(Some(t)));
    }
    for &t in game.move_priorities.iter().filter(|t| types.contains(t)) {
        let found = complete_moves(game, state, player, owner, TypeFilter::Only(Some(t)))?;
        if !found.is_empty() {
            return Ok(found);
        }
    }
    complete_moves(
        game,
        state,
        player,
        owner,
        TypeFilter::Among(types, &game.move_priorities),
    )
}

/// What every list of legal moves goes through after generation: maximal captures, the `checkmated`
/// legality rule, passing.
fn finish_legal(
    game: &Game,
    state: &State,
    royal: &[Vec<PieceType>],
    kings: &[PieceType],
    player: Player,
    mut moves: Vec<Move>,
) -> Result<Vec<Move>, EngineError> {
    match game.options.maximal_captures {
        MaximalCaptures::No => {}
        MaximalCaptures::Pieces => {
            if let Some(best) = moves.iter().map(Move::captures).max() {
                moves.retain(|m| m.captures() == best);
            }
        }
        MaximalCaptures::KingsThenPieces => {
            // Most kings taken first, then most pieces. A king is a piece type some promotion produces (see
            // `Engine::new`). Opponents' pieces do not move during a move, so the pieces taken are those standing
            // on the captured squares now.
            let score = |m: &Move| {
                let kings = m
                    .parts
                    .iter()
                    .flat_map(|p| &p.actions)
                    .filter(|a| match a {
                        Action::Capture { at } => {
                            state.get(*at).is_some_and(|x| kings.contains(&x.kind))
                        }
                        _ => false,
                    })
                    .count();
                (kings, m.captures())
            };
            if let Some(best) = moves.iter().map(score).max() {
                moves.retain(|m| score(m) == best);
            }
        }
    }
    if !game.capture_order.is_empty() {
        super::ordering::keep_best(game, state, kings, &mut moves);
    }
    if let Some(types) = royal.get(player.idx()).filter(|t| !t.is_empty()) {
        let cache = LegalityCache::build(game, state, player, types)?;
        let mut keep = Vec::with_capacity(moves.len());
        for m in moves {
            let after = apply_move(game, state, &m);
            let attacked = match &cache {
                Some(c) => c.attacked_after(game, &after, &m, player, types)?,
                None => royal_attacked(game, &after, player, types)?,
            };
            if !attacked {
                keep.push(m);
            }
        }
        moves = keep;
    }
    if !game.invariants.is_empty() {
        moves = super::invariant::filter(game, state, player, moves, royal, kings)?;
    }
    match game.options.pass_turn {
        PassTurn::Yes => moves.push(Move::default()),
        PassTurn::Forced if moves.is_empty() && (state.passes as usize) < game.players.len() => {
            moves.push(Move::default())
        }
        _ => {}
    }
    Ok(moves)
}

/// Whether any of `player`'s pieces of the given types is attacked.
pub fn royal_attacked(
    game: &Game,
    state: &State,
    player: Player,
    types: &[PieceType],
) -> Result<bool, EngineError> {
    for (i, c) in state.cells.iter().enumerate() {
        if let Some(x) = c {
            if x.owner == player
                && types.contains(&x.kind)
                && attacked_by(game, state, Pos(i as u16), player, false, None)?
            {
                return Ok(true);
            }
        }
    }
    Ok(false)
}

/// The `checkmated` legality rule made cheap. Before the candidate moves are tried, every opponent program is run
/// once against the player's royal square, recording which squares it read. A move changes a few squares; a
/// program that read none of them (and not the last move, which every move changes) gives the same answer as
/// before, so only the others run again. Exact, not a heuristic: a program's result depends only on what it
/// reads. Used when the player has one royal piece, which the move does not touch, on a board of at most 256
/// positions, and the move creates no piece and changes no owner; otherwise the full test runs.
pub(super) struct LegalityCache {
    royal: Pos,
    /// Per opponent program run: the attacker's square, the piece there, the program, its answer, its reads.
    runs: Vec<(Pos, Piece, usize, bool, Reads)>,
    /// Per backward walk of an attack shape (`super::attack`): the shape, the attacking player, its answer,
    /// its reads. Empty when the game's programs are all run forwards.
    walks: Vec<(u16, Player, bool, Reads)>,
}

impl LegalityCache {
    pub(super) fn build(
        game: &Game,
        state: &State,
        player: Player,
        types: &[PieceType],
    ) -> Result<Option<LegalityCache>, EngineError> {
        if state.cells.len() > 256 {
            return Ok(None);
        }
        let mut royals = state.cells.iter().enumerate().filter(|(_, c)| {
            c.is_some_and(|x| x.owner == player && types.contains(&x.kind) && !x.dead)
        });
        let (Some((k, _)), None) = (royals.next(), royals.next()) else {
            return Ok(None);
        };
        let royal = Pos(k as u16);
        let table = game.attack_table();
        let mut runs = vec![];
        let mut scratch = vec![];
        let mut run = Run::new(game, state, player, Mode::Attack(royal), &mut scratch);
        run.track = true;
        for (i, c) in state.cells.iter().enumerate() {
            let Some(x) = c else { continue };
            if x.dead || game.same_team(x.owner, player) || game.players[x.owner.idx()].random {
                continue;
            }
            let start = Pos(i as u16);
            run.player = x.owner;
            for (j, prog) in game.pieces[x.kind.idx()].moves.iter().enumerate() {
                // Plain programs are answered by the backward walk in `attacked_after`.
                if table.usable && !table.forward[x.kind.idx()].contains(&(j as u16)) {
                    continue;
                }
                let hit = run.exec(prog, start, Some(*x), None)?;
                let mut reads = Reads {
                    squares: run.reads.get(),
                    last: run.reads_last.get(),
                };
                reads.squares[i >> 6] |= 1 << (i & 63);
                runs.push((start, *x, j, hit, reads));
            }
        }
        let mut walks = vec![];
        if table.usable {
            let target = state.get(royal).filter(|x| !x.dead);
            for (i, info) in game.players.iter().enumerate() {
                let attacker = Player(i as u8);
                let Some(target) = target else { break };
                if info.random || game.same_team(attacker, player) {
                    continue;
                }
                for (k, shape) in table.shapes.iter().enumerate() {
                    let mut w = super::attack::Walk::new(
                        game, table, state, royal, target, attacker, player,
                    );
                    w.track = true;
                    let hit = w.hits(k, shape);
                    let reads = Reads {
                        squares: w.reads.get(),
                        last: w.reads_last.get(),
                    };
                    walks.push((k as u16, attacker, hit, reads));
                }
            }
        }
        Ok(Some(LegalityCache { royal, runs, walks }))
    }

    pub(super) fn attacked_after(
        &self,
        game: &Game,
        after: &State,
        m: &Move,
        player: Player,
        types: &[PieceType],
    ) -> Result<bool, EngineError> {
        let mut changed = [0u64; 4];
        for part in &m.parts {
            for a in &part.actions {
                let squares: &[Pos] = match a {
                    Action::Move { from, to }
                    | Action::MoveTop { from, to, .. }
                    | Action::TakePrisoner { at: from, to } => &[*from, *to],
                    Action::Capture { at }
                    | Action::ChangeType { at, .. }
                    | Action::SetAttribute { at, .. }
                    | Action::SetIntAttribute { at, .. } => &[*at],
                    Action::ExtraTurn | Action::GotoTurn { .. } => &[],
                    // A new piece or a new owner may add an attacker the cache never saw.
                    // So may a variable that a program reads.
                    Action::Place { .. } | Action::ChangeOwner { .. } | Action::SetVar { .. } => {
                        return royal_attacked(game, after, player, types)
                    }
                };
                for p in squares {
                    if *p == self.royal {
                        return royal_attacked(game, after, player, types);
                    }
                    changed[(p.idx() >> 6) & 3] |= 1 << (p.idx() & 63);
                }
            }
        }
        let table = game.attack_table();
        if !self.walks.is_empty() {
            let Some(target) = after.get(self.royal).filter(|x| !x.dead) else {
                return royal_attacked(game, after, player, types);
            };
            for &(k, attacker, hit, reads) in &self.walks {
                let touched = reads.last || (0..4).any(|w| reads.squares[w] & changed[w] != 0);
                let hit = if touched {
                    let w = super::attack::Walk::new(
                        game, table, after, self.royal, target, attacker, player,
                    );
                    w.hits(k as usize, &table.shapes[k as usize])
                } else {
                    hit
                };
                if hit {
                    return Ok(true);
                }
            }
        }
        let mut scratch = vec![];
        let mut run = Run::new(game, after, player, Mode::Attack(self.royal), &mut scratch);
        for (start, piece, j, hit, reads) in &self.runs {
            let touched = reads.last || (0..4).any(|w| reads.squares[w] & changed[w] != 0);
            if !touched {
                if *hit {
                    return Ok(true);
                }
                continue;
            }
            // The attacker itself may be gone or changed.
            let Some(now) = after.get(*start) else {
                continue;
            };
            if game.same_team(now.owner, player) || now.dead {
                continue;
            }
            let prog = if now.kind == piece.kind {
                game.pieces[now.kind.idx()].moves.get(*j)
            } else {
                None
            };
            match prog {
                Some(prog) => {
                    run.player = now.owner;
                    if run.exec(prog, *start, Some(now), None)? {
                        return Ok(true);
                    }
                }
                // A piece of another type stands there now: test all of its programs (those the backward
                // walk does not cover).
                None => {
                    run.player = now.owner;
                    for (j, prog) in game.pieces[now.kind.idx()].moves.iter().enumerate() {
                        if table.usable && !table.forward[now.kind.idx()].contains(&(j as u16)) {
                            continue;
                        }
                        if run.exec(prog, *start, Some(now), None)? {
                            return Ok(true);
                        }
                    }
                }
            }
        }
        Ok(false)
    }
}
