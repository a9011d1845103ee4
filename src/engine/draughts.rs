//! A native move generator for draughts-shaped games (English checkers and its kin), chosen at load time by a
//! proof over the compiled move programs, listing the complete moves straight into a move buffer: the same
//! moves, in the same order, with the same parts and actions as the general path (`compose`) lists them.
//!
//! What the proof ([`plan`]) accepts: a game whose moves no rule judges once generated (`Engine::flat`: no
//! phases, maximal captures, `capture-order`, royal pieces, invariants, repetition rule or extension module),
//! without drops, stacks, shared pieces, teams, random players, captures to hand or recycled captures, on a
//! board of at most [`MAX_POSITIONS`] positions, where every move program of every piece is, in its bytecode
//! (so any ZRF spelling that compiles to it), one of two shapes:
//! * a step, `d (verify empty?)` then `add`, or `(if (in-zone? Z) (add T) else add)`;
//! * a jump, `d (verify enemy?) capture d (verify empty?)` then `(add-partial C)`, or
//!   `(if (in-zone? Z) (add T) else (add-partial C))`, where every program of type `C` of the piece is a jump.
//!
//! How the general path lists such a game, and so the kernel: a pass (`compose::generate_into` runs one per
//! move type under `move-priorities`, which stays there, as does the pass) visits the mover's pieces in board
//! order and each piece's programs of the pass in declaration order. A step or a promoting jump is a move of
//! one part. A jump that does not promote is made, and the piece continues with its programs of type `C`,
//! depth first in declaration order; a part with no continuation ends the move (with `pass partial`, every
//! part does, after its continuations). A promotion ends the chain (its part has no continuation). Every jump
//! takes a live enemy piece, so no continuation comes back to a state of its chain (the composer's loop
//! rule never applies). Moves with the same net effect from the same square are one move, the first listed
//! staying (the composer's merge; its `expanded` shortcut only skips routes whose moves all have the net
//! effect of moves listed before them). The net effect of a move from a square is its last square, the type
//! the piece ends as and the set of squares it captured, compared exactly here (the composer compares the
//! hash of the board they leave).
//!
//! During a chain the board is read as the general path's working state holds it: the start square is empty,
//! the piece stands on its current square, and a captured piece blocks `empty?` and fails `enemy?` until the
//! move ends under `deferred captures`, or is gone at once (its square empty) without.
//!
//! A pass that would enumerate more than [`MAX_PATHS`] chains (a pathological position) is handed back to the
//! general path, whose limits and errors then apply as before.

use super::gen::{PartHead, TypeFilter};
use super::movelist::{MoveHead, MoveList};
use super::moves::Action;
use super::state::{Piece, State};
use crate::compile::code::{Code, Op, Test, FAIL, START};
use crate::compile::*;

/// Boards with more positions are not accepted (the captured squares of a chain are a 256-bit set, and no
/// chain can reach the composer's limit of 256 parts).
pub const MAX_POSITIONS: usize = 256;
/// Chains (complete or merged away) one pass may enumerate before it is handed to the general path.
pub const MAX_PATHS: usize = 10_000;
/// Parts of those chains together, likewise.
const MAX_PARTS_TOTAL: usize = 1_000_000;

/// What a program is, as the proof read it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Prog {
    jump: bool,
    dir: u16,
    /// The promotion zone's slot in [`DraughtsPlan::zones`] and the type a piece landing there becomes.
    promote: Option<(u16, PieceType)>,
    /// A jump's continuation type (`add-partial C`).
    cont: MoveType,
    move_type: Option<MoveType>,
}

/// A piece type's programs, and which of them each pass runs.
#[derive(Clone, Debug, Default)]
struct Kind {
    progs: Vec<Prog>,
    /// `sel[slot]`: indices into `progs`; slot 0 holds the programs of no move type, slot `t + 1` those of
    /// type `t`, slot `slots` every program, slot `slots + 1` those `move-priorities` does not list.
    sel: Vec<Vec<u8>>,
}

/// The proof's result for a game it accepts (see the module's paragraph).
#[derive(Clone, Debug)]
pub struct DraughtsPlan {
    nd: usize,
    players: usize,
    deferred: bool,
    pass_partial: bool,
    /// Move types plus one (see [`Kind::sel`]).
    slots: usize,
    kinds: Vec<Kind>,
    /// Per promotion zone used and player (`zone * players + player`): its squares.
    zones: Vec<[u64; 4]>,
    priorities: Vec<MoveType>,
    /// No two one-part moves of a piece can have one net effect (the steps of a piece go to distinct squares,
    /// its jumps over distinct squares, on every square and for every player): only chains of two parts or
    /// more need the merge's comparison.
    singles_distinct: bool,
}

/// What listing reuses from ply to ply (cleared, never shrunk).
#[derive(Default)]
pub struct Scratch {
    levels: Vec<Level>,
    keys: Vec<Key>,
}

/// One jump of the chain being built.
#[derive(Clone, Copy, Debug)]
struct Level {
    from: u16,
    mid: u16,
    to: u16,
    prog: u8,
}

/// The net effect of a move of the piece being listed: where it ends, as what, having captured what.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Key {
    to: u16,
    kind: PieceType,
    caps: [u64; 4],
}

/// A piece of program text after the bytecode's control flow is followed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Atom {
    Step(Dir),
    Empty,
    Enemy,
    Capture,
}

/// How a program ends: an `add`, or a choice on a zone between two `add`s.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Tail {
    Add {
        promote: Option<PieceType>,
        partial: Option<Option<MoveType>>,
    },
    IfZone {
        zone: ZoneId,
        inside: Box<Tail>,
        outside: Box<Tail>,
    },
}

/// Ops followed before a program is declared not of the shapes (a jump back would otherwise loop).
const READ_LIMIT: u32 = 64;

/// Reads the program from `pc`: its atoms in order, then its tail; an error names what does not fit.
fn read(
    code: &Code,
    mut pc: usize,
    atoms: &mut Vec<Atom>,
    budget: &mut u32,
) -> Result<Tail, String> {
    loop {
        *budget = budget.checked_sub(1).ok_or("a jump back")?;
        let op = *code.ops.get(pc).ok_or("a jump off the program")?;
        pc += 1;
        match op {
            Op::Nop => {}
            Op::Jump(t) => pc = t as usize,
            Op::Step(d) => atoms.push(Atom::Step(d)),
            Op::StepVerify(d, t) => {
                atoms.push(Atom::Step(d));
                atoms.push(test_atom(t).ok_or_else(|| format!("a leap verifying {t:?}"))?);
            }
            // A verify, or an `if` whose other side ends the program with nothing emitted: the same.
            Op::Branch {
                test,
                when: false,
                to,
            } if test_atom(test).is_some() && (to == FAIL || ends(code, to as usize, budget)) => {
                atoms.push(test_atom(test).unwrap_or(Atom::Empty))
            }
            Op::Capture(Loc::Cursor) => atoms.push(Atom::Capture),
            Op::Branch {
                test: Test::Cond(i),
                when,
                to,
            } if to != FAIL => {
                let Some(Cond::InZone(zone, Loc::Cursor)) = code.conds.get(i as usize) else {
                    return Err("a condition other than in-zone? of the square".into());
                };
                // `when` false: the branch is taken outside the zone, the code after it runs inside.
                let (inside_pc, outside_pc) = if when {
                    (to as usize, pc)
                } else {
                    (pc, to as usize)
                };
                let mut none = vec![];
                let inside = read(code, inside_pc, &mut none, budget)?;
                let outside = read(code, outside_pc, &mut none, budget)?;
                if !none.is_empty() {
                    return Err("moves or tests after the in-zone? choice".into());
                }
                return Ok(Tail::IfZone {
                    zone: *zone,
                    inside: Box::new(inside),
                    outside: Box::new(outside),
                });
            }
            Op::AddPlain | Op::Add(_) => {
                let tail = match op {
                    Op::Add(i) => {
                        let a = code.adds.get(i as usize).ok_or("a missing add")?;
                        if a.copy || a.promote.len() > 1 {
                            return Err("an add that copies or offers several promotions".into());
                        }
                        Tail::Add {
                            promote: a.promote.first().copied(),
                            partial: a.partial,
                        }
                    }
                    _ => Tail::Add {
                        promote: None,
                        partial: None,
                    },
                };
                // Nothing after the add but the end.
                loop {
                    *budget = budget.checked_sub(1).ok_or("a jump back")?;
                    match code.ops.get(pc) {
                        Some(Op::Nop) => pc += 1,
                        Some(&Op::Jump(t)) => pc = t as usize,
                        Some(Op::End) => return Ok(tail),
                        _ => return Err("more after an add".into()),
                    }
                }
            }
            op => return Err(format!("the op {op:?}")),
        }
    }
}

/// Whether the code from `pc` ends the program at once (through no-ops and jumps only).
fn ends(code: &Code, mut pc: usize, budget: &mut u32) -> bool {
    loop {
        let Some(b) = budget.checked_sub(1) else {
            return false;
        };
        *budget = b;
        match code.ops.get(pc) {
            Some(Op::Nop) => pc += 1,
            Some(&Op::Jump(t)) => pc = t as usize,
            Some(Op::End) | Some(Op::Fail) => return true,
            _ => return false,
        }
    }
}

fn test_atom(t: Test) -> Option<Atom> {
    match t {
        Test::Empty(Loc::Cursor) => Some(Atom::Empty),
        Test::Enemy(Loc::Cursor) => Some(Atom::Enemy),
        _ => None,
    }
}

/// A program of one of the two shapes, with its promotion zone (not yet given a slot), or why not.
fn shape(prog: &MoveProgram) -> Result<(bool, Dir, Option<(ZoneId, PieceType)>, MoveType), String> {
    let mut atoms = vec![];
    let mut budget = READ_LIMIT;
    let tail = read(&prog.code, START, &mut atoms, &mut budget)?;
    let plain = Tail::Add {
        promote: None,
        partial: None,
    };
    let promoted = |t: &Tail| match t {
        Tail::Add {
            promote: Some(t),
            partial: None,
        } => Some(*t),
        _ => None,
    };
    let cont_of = |t: &Tail| match t {
        Tail::Add {
            promote: None,
            partial: Some(Some(c)),
        } => Some(*c),
        _ => None,
    };
    match atoms[..] {
        [Atom::Step(d), Atom::Empty] => match &tail {
            t if *t == plain => Ok((false, d, None, MoveType(0))),
            Tail::IfZone {
                zone,
                inside,
                outside,
            } if **outside == plain => match promoted(inside) {
                Some(t) => Ok((false, d, Some((*zone, t)), MoveType(0))),
                None => Err("a step whose promotion is not (add T)".into()),
            },
            _ => Err(format!("a step ending {tail:?}")),
        },
        [Atom::Step(d), Atom::Enemy, Atom::Capture, Atom::Step(e), Atom::Empty] if d == e => {
            match &tail {
                t if cont_of(t).is_some() => Ok((true, d, None, cont_of(t).unwrap_or(MoveType(0)))),
                Tail::IfZone {
                    zone,
                    inside,
                    outside,
                } => match (promoted(inside), cont_of(outside)) {
                    (Some(t), Some(c)) => Ok((true, d, Some((*zone, t)), c)),
                    _ => Err(format!("a jump ending {tail:?}")),
                },
                _ => Err(format!(
                    "a jump ending {tail:?} (not add-partial of one move type)"
                )),
            }
        }
        _ => Err(format!("the moves and tests {atoms:?}")),
    }
}

/// The proof: a plan if the game is draughts-shaped (see the module's paragraph), else why not.
pub fn plan(game: &Game) -> Result<DraughtsPlan, String> {
    let why = |s: &str| Err(s.to_string());
    if !game.phases.is_empty() {
        return why("phases");
    }
    if !matches!(game.options.maximal_captures, MaximalCaptures::No) {
        return why("maximal captures");
    }
    if !game.capture_order.is_empty() {
        return why("a capture order");
    }
    if !game.invariants.is_empty() {
        return why("invariants");
    }
    if game.forbid_repetition.is_some() {
        return why("a repetition rule");
    }
    if !game.extensions.is_empty() {
        return why("extension modules");
    }
    if game.has_stacks() {
        return why("stacks");
    }
    if game.options.shared_pieces {
        return why("shared pieces");
    }
    if game.captures_to_hand.is_some() || game.options.recycle_captures {
        return why("captured pieces go to a reserve");
    }
    if !game.teams.is_empty() {
        return why("teams");
    }
    if game.players.iter().any(|p| p.random) {
        return why("a random player");
    }
    if game
        .turn_order
        .entries
        .iter()
        .any(|e| e.player != e.moves_as)
    {
        return why("a turn that moves another player's pieces");
    }
    if game.board.positions.len() > MAX_POSITIONS {
        return why("a board of more than 256 positions");
    }
    fn royal(c: &EndCond) -> bool {
        match c {
            EndCond::Checkmated(_) => true,
            EndCond::And(cs) | EndCond::Or(cs) => cs.iter().any(royal),
            EndCond::Not(c) => royal(c),
            _ => false,
        }
    }
    if game.end_conditions.iter().any(|e| royal(&e.cond)) {
        return why("royal pieces (checkmated)");
    }
    let nd = game.board.directions.len();
    let players = game.players.len();
    let slot = |t: Option<MoveType>| t.map_or(0, |t| t.idx() + 1);
    let slots = game
        .pieces
        .iter()
        .flat_map(|p| &p.moves)
        .map(|p| slot(p.move_type) + 1)
        .max()
        .unwrap_or(1)
        .max(game.move_types.len() + 1);
    let mut zone_ids: Vec<ZoneId> = vec![];
    let mut kinds = vec![];
    for piece in &game.pieces {
        if !piece.drops.is_empty() {
            return Err(format!("drops ({})", piece.name));
        }
        if piece.moves.len() > u8::MAX as usize {
            return Err(format!("too many programs ({})", piece.name));
        }
        let mut progs = vec![];
        for p in &piece.moves {
            let (jump, dir, promote, cont) =
                shape(p).map_err(|e| format!("{}: {}: {e}", piece.name, p.source))?;
            if dir.idx() >= nd {
                return Err(format!("{}: a direction off the board", piece.name));
            }
            let promote = match promote {
                None => None,
                Some((z, t)) => {
                    if z.idx() >= game.board.zones.len() || t.idx() >= game.pieces.len() {
                        return Err(format!("{}: an unknown zone or type", piece.name));
                    }
                    let k = match zone_ids.iter().position(|&x| x == z) {
                        Some(k) => k,
                        None => {
                            zone_ids.push(z);
                            zone_ids.len() - 1
                        }
                    };
                    Some((k as u16, t))
                }
            };
            progs.push(Prog {
                jump,
                dir: dir.0,
                promote,
                cont,
                move_type: p.move_type,
            });
        }
        let mut sel = vec![vec![]; slots + 2];
        for (j, p) in progs.iter().enumerate() {
            sel[slot(p.move_type)].push(j as u8);
            sel[slots].push(j as u8);
            if p.move_type
                .is_none_or(|t| !game.move_priorities.contains(&t))
            {
                sel[slots + 1].push(j as u8);
            }
        }
        // A chain goes on with the piece's programs of the continuation type: jumps only.
        for p in progs.iter().filter(|p| p.jump) {
            let steps = sel
                .get(p.cont.idx() + 1)
                .is_some_and(|s| s.iter().any(|&j| !progs[j as usize].jump));
            if steps || p.cont.idx() + 1 >= slots {
                return Err(format!(
                    "{}: a jump continued by a move type that is not only jumps",
                    piece.name
                ));
            }
        }
        kinds.push(Kind { progs, sel });
    }
    let np = game.board.positions.len();
    let mut zones = vec![[0u64; 4]; zone_ids.len() * players];
    for (k, z) in zone_ids.iter().enumerate() {
        for pl in 0..players {
            for pos in 0..np {
                if game.board.in_zone(*z, Player(pl as u8), Pos(pos as u16)) {
                    zones[k * players + pl][pos >> 6] |= 1 << (pos & 63);
                }
            }
        }
    }
    // Whether two one-part moves of one piece may share a net effect: two steps to one square, or two jumps
    // over one square.
    let mut singles_distinct = true;
    for kind in &kinds {
        for pl in 0..players {
            let nav = &game.board.nav[pl];
            for pos in 0..np {
                let mut seen: Vec<(bool, u16)> = vec![];
                for p in &kind.progs {
                    let t = nav[pos * nd + p.dir as usize];
                    if t == NO_POS {
                        continue;
                    }
                    if seen.contains(&(p.jump, t)) {
                        singles_distinct = false;
                    }
                    seen.push((p.jump, t));
                }
            }
        }
    }
    Ok(DraughtsPlan {
        nd,
        players,
        deferred: game.options.deferred_captures,
        pass_partial: game.options.pass_partial,
        slots,
        kinds,
        zones,
        priorities: game.move_priorities.clone(),
        singles_distinct,
    })
}

/// The chain being built and what it reads.
struct Chain<'a> {
    plan: &'a DraughtsPlan,
    kind: &'a Kind,
    cells: &'a [Option<Piece>],
    nav: &'a [u16],
    player: Player,
    /// Where the piece started (empty during the chain), and its type.
    from0: u16,
    piece: PieceType,
    /// The squares captured so far.
    caps: [u64; 4],
    levels: &'a mut Vec<Level>,
    keys: &'a mut Vec<Key>,
    out: &'a mut MoveList,
    paths: usize,
    parts: usize,
}

#[inline(always)]
fn has(set: &[u64; 4], p: u16) -> bool {
    set[(p >> 6) as usize & 3] >> (p & 63) & 1 == 1
}

impl DraughtsPlan {
    /// The programs of piece type `k` a pass with this filter runs; `None` for a filter the plan did not
    /// prepare (the general path lists that pass).
    #[inline]
    fn select(&self, k: usize, filter: TypeFilter<'_>) -> Option<&[u8]> {
        let kind = self.kinds.get(k)?;
        let slot = match filter {
            TypeFilter::Any => self.slots,
            TypeFilter::Only(t) => t.map_or(0, |t| t.idx() + 1),
            TypeFilter::Unlisted(l) if l == &self.priorities[..] => self.slots + 1,
            _ => return None,
        };
        Some(kind.sel.get(slot).map_or(&[][..], |v| &v[..]))
    }

    #[inline(always)]
    fn promotes(&self, p: &Prog, player: Player, to: u16) -> Option<PieceType> {
        let (z, t) = p.promote?;
        has(&self.zones[z as usize * self.players + player.idx()], to).then_some(t)
    }

    /// Appends the complete moves of one pass (`compose::complete_moves_into` with this filter) to `out`, as
    /// the general path would; `false` (with `out` as it was) where the general path must list this pass.
    pub fn list(
        &self,
        game: &Game,
        state: &State,
        player: Player,
        filter: TypeFilter<'_>,
        out: &mut MoveList,
        scratch: &mut Scratch,
    ) -> bool {
        let (m0, p0, a0) = (out.moves.len(), out.parts.len(), out.actions.len());
        let Some(nav) = game.board.nav.get(player.idx()) else {
            return false;
        };
        let nd = self.nd;
        let cells = &state.cells[..];
        let mut paths = 0;
        let mut parts = 0;
        for (w, &bits) in state.occupancy(player).iter().enumerate() {
            let mut bits = bits;
            while bits != 0 {
                let i = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let Some(x) = cells.get(i).copied().flatten() else {
                    continue;
                };
                if x.dead || x.owner != player {
                    continue;
                }
                let Some(progs) = self.select(x.kind.idx(), filter) else {
                    out.moves.truncate(m0);
                    out.parts.truncate(p0);
                    out.actions.truncate(a0);
                    return false;
                };
                if progs.is_empty() {
                    continue;
                }
                let kind = &self.kinds[x.kind.idx()];
                scratch.keys.clear();
                let mut chain = Chain {
                    plan: self,
                    kind,
                    cells,
                    nav,
                    player,
                    from0: i as u16,
                    piece: x.kind,
                    caps: [0; 4],
                    levels: &mut scratch.levels,
                    keys: &mut scratch.keys,
                    out,
                    paths,
                    parts,
                };
                chain.levels.clear();
                for &j in progs {
                    let p = &kind.progs[j as usize];
                    let to = nav[i * nd + p.dir as usize];
                    if to == NO_POS {
                        continue;
                    }
                    if !p.jump {
                        if cells[to as usize].is_some() {
                            continue;
                        }
                        chain.step(p, to);
                        continue;
                    }
                    chain.jump(j, i as u16, to);
                }
                paths = chain.paths;
                parts = chain.parts;
                if paths > MAX_PATHS || parts > MAX_PARTS_TOTAL {
                    out.moves.truncate(m0);
                    out.parts.truncate(p0);
                    out.actions.truncate(a0);
                    return false;
                }
            }
        }
        true
    }
}

impl Chain<'_> {
    /// A step of the piece from its start square to the empty `to`.
    #[inline]
    fn step(&mut self, p: &Prog, to: u16) {
        let promote = self.plan.promotes(p, self.player, to);
        let kind = promote.unwrap_or(self.piece);
        if !self.plan.singles_distinct && !self.fresh(to, kind) {
            return;
        }
        let out = &mut *self.out;
        let start = out.actions.len() as u32;
        let (from, to) = (Pos(self.from0), Pos(to));
        out.actions.push(Action::Move { from, to });
        if let Some(t) = promote {
            out.actions.push(Action::ChangeType { at: to, kind: t });
        }
        let first = out.parts.len() as u32;
        out.parts.push(PartHead {
            start,
            end: out.actions.len() as u32,
            from: Some(from),
            to: Some(to),
            piece: self.piece,
            move_type: p.move_type,
        });
        out.moves.push(MoveHead { first, len: 1 });
    }

    /// Jump `j` of the piece, standing on `cur`, over `mid` (its neighbour in the jump's direction), and
    /// everything that follows it; whether the jump could be made.
    #[inline]
    fn jump(&mut self, j: u8, cur: u16, mid: u16) -> bool {
        let p = self.kind.progs[j as usize];
        let nd = self.plan.nd;
        if has(&self.caps, mid) {
            return false;
        }
        match self.cells[mid as usize] {
            Some(x) if !x.dead && x.owner != self.player => {}
            _ => return false,
        }
        let land = self.nav[mid as usize * nd + p.dir as usize];
        if land == NO_POS || land == cur {
            return false;
        }
        let empty = land == self.from0
            || self.cells[land as usize].is_none()
            || (!self.plan.deferred && has(&self.caps, land));
        if !empty {
            return false;
        }
        self.levels.push(Level {
            from: cur,
            mid,
            to: land,
            prog: j,
        });
        let bit = 1u64 << (mid & 63);
        self.caps[(mid >> 6) as usize & 3] |= bit;
        match self.plan.promotes(&p, self.player, land) {
            Some(t) => self.finish(Some(t)),
            None => self.extend(land, p.cont),
        }
        self.caps[(mid >> 6) as usize & 3] &= !bit;
        self.levels.pop();
        true
    }

    /// The continuations of the chain, the piece standing on `cur` and going on with its programs of type
    /// `cont`; the chain as it stands is a move when none exists (or always, with `pass partial`).
    fn extend(&mut self, cur: u16, cont: MoveType) {
        let progs = self
            .kind
            .sel
            .get(cont.idx() + 1)
            .map_or(&[][..], |v| &v[..]);
        let nd = self.plan.nd;
        let mut any = false;
        for &j in progs {
            if self.paths > MAX_PATHS {
                return;
            }
            let p = &self.kind.progs[j as usize];
            let mid = self.nav[cur as usize * nd + p.dir as usize];
            if mid == NO_POS {
                continue;
            }
            any |= self.jump(j, cur, mid);
        }
        if !any || self.plan.pass_partial {
            self.finish(None);
        }
    }

    /// Whether no move of this piece listed so far has this net effect (then it is noted).
    #[inline]
    fn fresh(&mut self, to: u16, kind: PieceType) -> bool {
        let key = Key {
            to,
            kind,
            caps: self.caps,
        };
        if self.keys.contains(&key) {
            return false;
        }
        self.keys.push(key);
        true
    }

    /// The chain in `levels` as a complete move, the last part promoting to `promote`, unless a move with its
    /// net effect is listed already.
    fn finish(&mut self, promote: Option<PieceType>) {
        self.paths += 1;
        let n = self.levels.len();
        self.parts += n;
        let Some(last) = self.levels.last().copied() else {
            return;
        };
        let kind = promote.unwrap_or(self.piece);
        if (n > 1 || !self.plan.singles_distinct) && !self.fresh(last.to, kind) {
            return;
        }
        let out = &mut *self.out;
        let first = out.parts.len() as u32;
        for (k, l) in self.levels.iter().enumerate() {
            let start = out.actions.len() as u32;
            let to = Pos(l.to);
            out.actions.push(Action::Capture { at: Pos(l.mid) });
            out.actions.push(Action::Move {
                from: Pos(l.from),
                to,
            });
            if k + 1 == n {
                if let Some(t) = promote {
                    out.actions.push(Action::ChangeType { at: to, kind: t });
                }
            }
            out.parts.push(PartHead {
                start,
                end: out.actions.len() as u32,
                from: Some(Pos(l.from)),
                to: Some(to),
                piece: self.piece,
                move_type: self.kind.progs[l.prog as usize].move_type,
            });
        }
        out.moves.push(MoveHead {
            first,
            len: n as u32,
        });
    }
}
