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
//! How the general path lists such a game, and so the kernel (`Engine::legal_into` asks it first; the pass of
//! `pass turn` is added after it by `compose::add_pass`): the passes of the turn's move type, or of
//! `move-priorities` in order until one has a move, then the types it does not list; a pass visits the mover's
//! pieces in board order and each piece's programs of the pass in declaration order. A step or a promoting jump is a move of
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

use super::gen::PartHead;
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
    /// A jump's continuations: the piece's programs of type `cont`, `DraughtsPlan::progs[c.0..c.1]`.
    conts: (u32, u32),
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
    kinds: usize,
    deferred: bool,
    pass_partial: bool,
    /// Move types plus one (see [`Kind::sel`]).
    slots: usize,
    /// The programs each pass runs, per slot and piece type: `progs[ranges[slot * kinds + kind]]`, in
    /// declaration order (slots as in [`Kind::sel`]).
    progs: Vec<Prog>,
    ranges: Vec<(u32, u32)>,
    /// Per player, what its moves read of the board (see [`Side`]).
    sides: Vec<Side>,
    priorities: Vec<MoveType>,
    /// No two one-part moves of a piece can have one net effect (the steps of a piece go to distinct squares,
    /// its jumps over distinct squares, on every square and for every player): only chains of two parts or
    /// more need the merge's comparison.
    singles_distinct: bool,
    /// The board fits one 64-bit word.
    small: bool,
    /// The board's positions.
    np: usize,
    /// The hash key of a piece with no attributes, alive, per owner, type and square:
    /// `keys[(owner * kinds + kind) * np + square]`, as `state::cell_key` computes it.
    keys: Vec<u64>,
    /// Per slot: every program of every piece type in it is a jump (a pass that only jumps).
    jumps_only: Vec<bool>,
    /// Per slot: every program in it is a step (a pass that only steps).
    steps_only: Vec<bool>,
}

/// The board as one player's moves read it.
#[derive(Clone, Debug)]
struct Side {
    /// The board's navigation after the player's symmetry (`Board::nav`), and the two-link neighbours
    /// `mid | land << 16` of each square in each direction (`NO_POS` where the board ends).
    nav: Vec<u16>,
    two: Vec<u32>,
    /// Per square: the squares a jump of any piece type from there would take. A pass that only jumps skips
    /// a piece with no enemy on any of them without reading it.
    near: Vec<[u64; 4]>,
    /// Per square: the squares a step of any piece type from there would reach. A pass that only steps skips
    /// a piece with none of them empty without reading it.
    step_near: Vec<[u64; 4]>,
    /// Per promotion zone used: its squares for this player.
    zones: Vec<[u64; 4]>,
    /// The steps of each program in each slot, resolved for this player: `steps[step_ranges[(slot * kinds +
    /// kind) * positions + square]]`, in the order of the slot's programs, those leaving the board left out,
    /// each with the type the piece becomes there (what [`Chain::step`] works out per move).
    steps: Vec<StepTo>,
    step_ranges: Vec<(u32, u32)>,
}

/// A step of a program from a square, as [`Side::steps`] holds it.
#[derive(Clone, Copy, Debug)]
struct StepTo {
    to: u16,
    promote: Option<PieceType>,
    move_type: Option<MoveType>,
}

/// One jump of the chain being built, on the stack of the search (each level's frame points to the one
/// before it): the chain needs no buffer of its own.
#[derive(Clone, Copy, Debug)]
struct Frame<'f> {
    from: u16,
    mid: u16,
    to: u16,
    move_type: Option<MoveType>,
    /// Jumps in the chain up to this one.
    depth: u32,
    parent: Option<&'f Frame<'f>>,
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

/// What [`shape`] reads from a program: whether it jumps, its direction, its promotion (zone and piece type)
/// and the move type of its continuation.
type Shape = (bool, Dir, Option<(ZoneId, PieceType)>, MoveType);

/// A program of one of the two shapes, with its promotion zone (not yet given a slot), or why not.
fn shape(prog: &MoveProgram) -> Result<Shape, String> {
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
    if !game.optional_priority.is_empty() {
        return why("an optional priority");
    }
    if game.huffing.is_some() {
        return why("huffing");
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
    if game.options.move_memory {
        return why("the memory of a composite move");
    }
    if game.options.detect_loops {
        return why("detect loops");
    }
    if !game.board.rotations.is_empty() {
        return why("board rotations");
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
    let slots = super::gen::type_slots(game);
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
                conts: (0, 0),
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
        for nav in game.board.nav.iter().take(players) {
            if nav.len() != np * nd {
                return why("a player without navigation");
            }
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
    let nkinds = kinds.len();
    let mut progs = vec![];
    let mut ranges = vec![(0, 0); (slots + 2) * nkinds];
    for slot in 0..slots + 2 {
        for (k, kind) in kinds.iter().enumerate() {
            let start = progs.len() as u32;
            progs.extend(kind.sel[slot].iter().map(|&j| kind.progs[j as usize]));
            ranges[slot * nkinds + k] = (start, progs.len() as u32);
        }
    }
    for k in 0..nkinds {
        for slot in 0..slots + 2 {
            let (a, b) = ranges[slot * nkinds + k];
            for j in a..b {
                let p = &mut progs[j as usize];
                if p.jump {
                    p.conts = ranges[(p.cont.idx() + 1) * nkinds + k];
                }
            }
        }
    }
    let jumps_only: Vec<bool> = (0..slots + 2)
        .map(|slot| {
            ranges[slot * nkinds..(slot + 1) * nkinds]
                .iter()
                .all(|&(a, b)| progs[a as usize..b as usize].iter().all(|p| p.jump))
        })
        .collect();
    let steps_only: Vec<bool> = (0..slots + 2)
        .map(|slot| {
            ranges[slot * nkinds..(slot + 1) * nkinds]
                .iter()
                .all(|&(a, b)| progs[a as usize..b as usize].iter().all(|p| !p.jump))
        })
        .collect();
    let mut sides = vec![];
    for pl in 0..players {
        let Some(nav) = game.board.nav.get(pl).filter(|n| n.len() == np * nd) else {
            return why("a player without navigation");
        };
        let mut two = vec![NO_POS as u32 | (NO_POS as u32) << 16; np * nd];
        let mut near = vec![[0u64; 4]; np];
        let mut step_near = vec![[0u64; 4]; np];
        for pos in 0..np {
            for d in 0..nd {
                let mid = nav[pos * nd + d];
                if mid != NO_POS {
                    let land = nav[mid as usize * nd + d];
                    two[pos * nd + d] = mid as u32 | (land as u32) << 16;
                }
            }
            for p in &progs {
                let next = nav[pos * nd + p.dir as usize];
                if next != NO_POS {
                    let set = if p.jump {
                        &mut near[pos]
                    } else {
                        &mut step_near[pos]
                    };
                    set[next as usize >> 6] |= 1 << (next & 63);
                }
            }
        }
        let zone_sets: Vec<[u64; 4]> = (0..zone_ids.len())
            .map(|k| zones[k * players + pl])
            .collect();
        let mut steps = vec![];
        let mut step_ranges = vec![(0, 0); (slots + 2) * nkinds * np];
        for slot in 0..slots + 2 {
            for k in 0..nkinds {
                let (a, b) = ranges[slot * nkinds + k];
                for pos in 0..np {
                    let start = steps.len() as u32;
                    for p in progs[a as usize..b as usize].iter().filter(|p| !p.jump) {
                        let to = nav[pos * nd + p.dir as usize];
                        if to == NO_POS {
                            continue;
                        }
                        let promote = p.promote.and_then(|(z, t)| {
                            let set = zone_sets[z as usize];
                            (set[to as usize >> 6] >> (to & 63) & 1 == 1).then_some(t)
                        });
                        steps.push(StepTo {
                            to,
                            promote,
                            move_type: p.move_type,
                        });
                    }
                    step_ranges[(slot * nkinds + k) * np + pos] = (start, steps.len() as u32);
                }
            }
        }
        sides.push(Side {
            steps,
            step_ranges,
            nav: nav.clone(),
            two,
            near,
            step_near,
            zones: zone_sets,
        });
    }
    Ok(DraughtsPlan {
        nd,
        players,
        kinds: nkinds,
        deferred: game.options.deferred_captures,
        pass_partial: game.options.pass_partial,
        slots,
        progs,
        ranges,
        sides,
        priorities: game.move_priorities.clone(),
        singles_distinct,
        small: np <= 64,
        np,
        keys: (0..players * nkinds * np)
            .map(|j| {
                let piece = Piece {
                    kind: PieceType((j / np % nkinds) as u16),
                    owner: Player((j / np / nkinds) as u8),
                    attrs: Default::default(),
                    dead: false,
                };
                super::state::cell_key(Pos((j % np) as u16), &piece)
            })
            .collect(),
        jumps_only,
        steps_only,
    })
}

/// A set of squares in `W` words.
type Set<const W: usize> = [u64; W];

#[inline(always)]
fn has<const W: usize>(set: &Set<W>, p: u16) -> bool {
    set[(p >> 6) as usize % W] >> (p & 63) & 1 == 1
}

#[inline(always)]
fn put<const W: usize>(set: &mut Set<W>, p: u16, on: bool) {
    let w = &mut set[(p >> 6) as usize % W];
    let bit = 1u64 << (p & 63);
    if on {
        *w |= bit
    } else {
        *w &= !bit
    }
}

/// The chain being built and what it reads.
struct Chain<'a, const W: usize> {
    plan: &'a DraughtsPlan,
    cells: &'a [Option<Piece>],
    side: &'a Side,
    player: Player,
    /// The squares that are not empty as the chain stands (the piece on its current square, not on its start
    /// square; captured pieces until the move ends under deferred captures), and the live enemy pieces not
    /// captured yet.
    blocked: Set<W>,
    enemy: Set<W>,
    /// The squares captured so far.
    caps: Set<W>,
    /// Where the piece started, and its type.
    from0: u16,
    piece: PieceType,
    /// Where the moves of the piece being listed start in `out` (the merge compares a move with them).
    piece_first: usize,
    out: &'a mut MoveList,
    paths: usize,
    parts: usize,
}

impl DraughtsPlan {
    /// The moves of the player to move into `out` (cleared first), as `compose::generate_into` lists them
    /// before it adds the pass: the passes of the turn's move type, or of `move-priorities` in order until one
    /// has a move, then the types it does not list. `false` (and `out` empty) where the general path must list
    /// this position.
    pub fn generate(&self, game: &Game, state: &State, out: &mut MoveList) -> bool {
        out.clear();
        let listed = if self.small {
            self.generate_in::<1>(game, state, out)
        } else {
            self.generate_in::<4>(game, state, out)
        };
        if !listed {
            out.clear();
        }
        listed
    }

    /// Plays move `i` of a list on the state in place and passes the turn, as `apply::play_parts` does, for
    /// the moves the kernel lists: parts of a piece going on from square to square, each taking at most one
    /// piece, the last perhaps changing its type. The state after it is the same (the captured pieces gone,
    /// the piece on its last square as what it became; the hash, a function of the board, the same).
    /// `false`, with the state untouched, for any other move (a pass, a move of another shape).
    pub fn play(&self, game: &Game, s: &mut State, moves: &MoveList, i: usize) -> bool {
        // `(quiet-plies)` counts plies since a capture or a listed type's move, and `ply-variables` go back
        // to their start at each move: the general path keeps both.
        if game.irreversible.is_some() || game.variables.iter().any(|v| v.per_ply || v.per_turn) {
            return false;
        }
        let heads = moves.heads_in(i);
        // The commonest move, a step: one part, one movement.
        if let [h] = heads {
            if let Some(&[Action::Move { from, to }]) =
                moves.actions.get(h.start as usize..h.end as usize)
            {
                if h.from == Some(from) && h.to == Some(to) && from != to {
                    let Some(piece) = s.get(from) else {
                        return false;
                    };
                    let delta = self.key(from, &piece) ^ self.key(to, &piece);
                    s.relocate_hashed(from, to, piece, delta);
                    s.last_from = Some(from);
                    s.last_to = Some(to);
                    s.last_mover = Some(game.turn_order.entries[s.turn].player);
                    s.turn = game.turn_order.next(s.turn);
                    s.ply += 1;
                    s.passes = 0;
                    return true;
                }
            }
        }
        let (Some(first), Some(last)) = (heads.first(), heads.last()) else {
            return false;
        };
        let (Some(from), Some(to)) = (first.from, last.to) else {
            return false;
        };
        // The shape, checked before anything is written.
        let mut at = from;
        let mut promote = None;
        for (k, h) in heads.iter().enumerate() {
            let Some(actions) = moves.actions.get(h.start as usize..h.end as usize) else {
                return false;
            };
            let (mv, change) = match actions {
                [Action::Move { from, to }]
                | [Action::Capture { .. }, Action::Move { from, to }] => ((*from, *to), None),
                [Action::Move { from, to }, Action::ChangeType { at, kind }]
                | [Action::Capture { .. }, Action::Move { from, to }, Action::ChangeType { at, kind }] =>
                {
                    if *at != *to || k + 1 != heads.len() {
                        return false;
                    }
                    ((*from, *to), Some(*kind))
                }
                _ => return false,
            };
            if mv.0 != at || h.from != Some(mv.0) || h.to != Some(mv.1) || mv.0 == mv.1 {
                return false;
            }
            at = mv.1;
            promote = change;
        }
        let Some(mut piece) = s.get(from) else {
            return false;
        };
        // The captures first (never of the start square, which holds the mover), then the piece moved: the
        // same state as emptying the start square, taking the captured pieces and writing the last square.
        for h in heads {
            if let Some(Action::Capture { at }) = moves.actions.get(h.start as usize) {
                if *at != from && s.get(*at).is_some() {
                    s.set(*at, None);
                }
            }
        }
        let old = self.key(from, &piece);
        if let Some(t) = promote {
            piece.kind = t;
        }
        s.relocate_hashed(from, to, piece, old ^ self.key(to, &piece));
        s.last_from = Some(last.from.unwrap_or(to));
        s.last_to = Some(to);
        s.last_mover = Some(game.turn_order.entries[s.turn].player);
        s.turn = game.turn_order.next(s.turn);
        s.ply += 1;
        s.passes = 0;
        true
    }

    /// The hash key of `x` on `pos` (`state::cell_key`), from the table where it holds the piece.
    #[inline(always)]
    fn key(&self, pos: Pos, x: &Piece) -> u64 {
        if x.attrs.word() == 0
            && !x.dead
            && x.kind.idx() < self.kinds
            && x.owner.idx() < self.players
        {
            let j = (x.owner.idx() * self.kinds + x.kind.idx()) * self.np + pos.idx();
            if let Some(&k) = self.keys.get(j) {
                return k;
            }
        }
        super::state::cell_key(pos, x)
    }

    fn generate_in<const W: usize>(&self, game: &Game, state: &State, out: &mut MoveList) -> bool {
        let Some(entry) = game.turn_order.entries.get(state.turn) else {
            return false;
        };
        let player = entry.player;
        let Some(side) = self.sides.get(player.idx()) else {
            return false;
        };
        let nav = &side.nav[..];
        let words = state.occupancy_words();
        if words > W {
            return false;
        }
        let mut blocked = [0u64; W];
        let mut enemy = [0u64; W];
        for q in 0..self.players {
            let occ = state.occupancy(Player(q as u8));
            for (w, &o) in occ.iter().enumerate().take(W) {
                blocked[w] |= o;
                if q != player.idx() {
                    enemy[w] |= o;
                }
            }
        }
        let mut chain = Chain::<W> {
            plan: self,
            cells: &state.cells,
            side,
            player,
            blocked,
            enemy,
            caps: [0; W],
            from0: 0,
            piece: PieceType(0),
            piece_first: 0,
            out,
            paths: 0,
            parts: 0,
        };
        let mine = state.occupancy(player);
        match entry.move_type {
            Some(t) if t.idx() + 1 < self.slots => chain.pass(t.idx() + 1, mine, nav),
            Some(_) => return false,
            None if self.priorities.is_empty() => chain.pass(self.slots, mine, nav),
            None => {
                for &t in &self.priorities {
                    if t.idx() + 1 >= self.slots {
                        return false;
                    }
                    chain.pass(t.idx() + 1, mine, nav);
                    if !chain.out.is_empty() {
                        break;
                    }
                }
                if chain.out.is_empty() {
                    chain.pass(self.slots + 1, mine, nav);
                }
            }
        }
        chain.paths <= MAX_PATHS && chain.parts <= MAX_PARTS_TOTAL
    }
}

impl<const W: usize> Chain<'_, W> {
    /// The type a piece of this side landing on `to` by program `p` becomes, if it is promoted there.
    #[inline(always)]
    fn promotes(&self, p: &Prog, to: u16) -> Option<PieceType> {
        let (z, t) = p.promote?;
        let set = self.side.zones.get(z as usize)?;
        (set[(to >> 6) as usize & 3] >> (to & 63) & 1 == 1).then_some(t)
    }

    /// One pass: the moves of the programs in slot `slot` of each piece type, piece after piece in board
    /// order (`mine`: the mover's occupancy).
    #[inline(always)]
    fn pass(&mut self, slot: usize, mine: &[u64], nav: &[u16]) {
        let plan = self.plan;
        let ranges = &plan.ranges[slot * plan.kinds..(slot + 1) * plan.kinds];
        let nd = plan.nd;
        let jumps_only = plan.jumps_only[slot];
        let steps_only = plan.steps_only[slot];
        let resolved_steps = steps_only && plan.singles_distinct;
        let near = &self.side.near[..];
        let step_near = &self.side.step_near[..];
        for (w, &bits) in mine.iter().enumerate() {
            let mut bits = bits;
            while bits != 0 {
                let i = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if jumps_only {
                    // No enemy next to the piece: no jump.
                    let Some(n) = near.get(i) else {
                        continue;
                    };
                    if (0..W).all(|k| n[k] & self.enemy[k] == 0) {
                        continue;
                    }
                } else if steps_only {
                    // Nowhere to step.
                    let Some(n) = step_near.get(i) else {
                        continue;
                    };
                    if (0..W).all(|k| n[k] & !self.blocked[k] == 0) {
                        continue;
                    }
                }
                let Some(x) = self.cells.get(i).copied().flatten() else {
                    continue;
                };
                if x.dead || x.owner != self.player {
                    continue;
                }
                if resolved_steps {
                    // The steps resolved at load time: no two to one square, so no merge.
                    if x.kind.idx() >= plan.kinds {
                        continue;
                    }
                    let side = self.side;
                    let k = (slot * plan.kinds + x.kind.idx()) * plan.np + i;
                    let Some(&(a, b)) = side.step_ranges.get(k) else {
                        continue;
                    };
                    self.from0 = i as u16;
                    self.piece = x.kind;
                    for e in side.steps.get(a as usize..b as usize).unwrap_or(&[]) {
                        if !has(&self.blocked, e.to) {
                            self.push_step(e);
                        }
                    }
                    continue;
                }
                let Some(&(a, b)) = ranges.get(x.kind.idx()) else {
                    continue;
                };
                self.from0 = i as u16;
                self.piece = x.kind;
                self.piece_first = self.out.moves.len();
                for p in &plan.progs[a as usize..b as usize] {
                    if p.jump {
                        self.jump(p, i as u16, None);
                    } else if let Some(&to) = nav.get(i * nd + p.dir as usize) {
                        if to != NO_POS && !has(&self.blocked, to) {
                            self.step(p, to);
                        }
                    }
                }
                if self.paths > MAX_PATHS {
                    return;
                }
            }
        }
    }

    /// A step of the piece from its start square to the empty `to`.
    #[inline(always)]
    fn step(&mut self, p: &Prog, to: u16) {
        let promote = self.promotes(p, to);
        let kind = promote.unwrap_or(self.piece);
        if !self.plan.singles_distinct && !self.fresh(to, kind) {
            return;
        }
        self.push_single(to, promote, p.move_type);
    }

    /// A step resolved at load time, from the piece's start square to the empty `e.to`, as [`Chain::step`]
    /// lists it.
    #[inline(always)]
    fn push_step(&mut self, e: &StepTo) {
        self.push_single(e.to, e.promote, e.move_type);
    }

    /// A move of one part, the piece from its start square to `to` (becoming `promote` there), as the general
    /// path lists a step or a promoting jump's move.
    #[inline(always)]
    fn push_single(&mut self, to: u16, promote: Option<PieceType>, move_type: Option<MoveType>) {
        let out = &mut *self.out;
        let start = out.actions.len() as u32;
        let (from, to) = (Pos(self.from0), Pos(to));
        match promote {
            None => out.actions.push(Action::Move { from, to }),
            Some(t) => out.actions.extend_from_slice(&[
                Action::Move { from, to },
                Action::ChangeType { at: to, kind: t },
            ]),
        }
        let first = out.parts.len() as u32;
        out.parts.push(PartHead {
            start,
            end: out.actions.len() as u32,
            from: Some(from),
            to: Some(to),
            piece: self.piece,
            move_type,
        });
        out.moves.push(MoveHead { first, len: 1 });
    }

    /// Jump `p` of the piece standing on `cur`, and everything that follows it (`parent`: the chain's jump
    /// before it); whether the jump could be made.
    #[inline(always)]
    fn jump(&mut self, p: &Prog, cur: u16, parent: Option<&Frame<'_>>) -> bool {
        let Some(&t) = self
            .side
            .two
            .get(cur as usize * self.plan.nd + p.dir as usize)
        else {
            return false;
        };
        let (mid, land) = ((t & 0xFFFF) as u16, (t >> 16) as u16);
        if land == NO_POS || !has(&self.enemy, mid) || has(&self.blocked, land) {
            return false;
        }
        // A dead piece (a state in the middle of a move) is no enemy.
        if self.cells[mid as usize].is_none_or(|x| x.dead) {
            return false;
        }
        self.descend(p, cur, mid, land, parent);
        true
    }

    /// The jump from `cur` over `mid` to `land` made, what follows it listed, and the jump unmade.
    #[inline(never)]
    fn descend(&mut self, p: &Prog, cur: u16, mid: u16, land: u16, parent: Option<&Frame<'_>>) {
        let frame = Frame {
            from: cur,
            mid,
            to: land,
            move_type: p.move_type,
            depth: parent.map_or(1, |f| f.depth + 1),
            parent,
        };
        let deferred = self.plan.deferred;
        put(&mut self.enemy, mid, false);
        put(&mut self.caps, mid, true);
        if !deferred {
            put(&mut self.blocked, mid, false);
        }
        put(&mut self.blocked, cur, false);
        put(&mut self.blocked, land, true);
        match self.promotes(p, land) {
            Some(t) => self.finish(&frame, Some(t)),
            None => self.extend(&frame, p.conts),
        }
        put(&mut self.blocked, land, false);
        put(&mut self.blocked, cur, true);
        if !deferred {
            put(&mut self.blocked, mid, true);
        }
        put(&mut self.caps, mid, false);
        put(&mut self.enemy, mid, true);
    }

    /// The continuations of the chain ending with `frame`, the piece going on from its square with the
    /// programs `progs[conts]`; the chain as it stands is a move when none exists (or always, with
    /// `pass partial`).
    fn extend(&mut self, frame: &Frame<'_>, conts: (u32, u32)) {
        let mut any = false;
        let plan = self.plan;
        for p in &plan.progs[conts.0 as usize..conts.1 as usize] {
            if self.paths > MAX_PATHS {
                return;
            }
            any |= self.jump(p, frame.to, Some(frame));
        }
        if !any || plan.pass_partial {
            self.finish(frame, None);
        }
    }

    /// Whether no move of this piece listed so far ends on `to` as `kind` having captured the squares of
    /// `caps` (its net effect).
    fn fresh(&self, to: u16, kind: PieceType) -> bool {
        let out = &*self.out;
        for j in self.piece_first..out.moves.len() {
            let heads = out.heads_in(j);
            if heads.last().and_then(|h| h.to) != Some(Pos(to)) {
                continue;
            }
            let mut k = self.piece;
            let mut caps = [0u64; W];
            for h in heads {
                for a in out
                    .actions
                    .get(h.start as usize..h.end as usize)
                    .unwrap_or(&[])
                {
                    match *a {
                        Action::Capture { at } => put(&mut caps, at.0, true),
                        Action::ChangeType { kind, .. } => k = kind,
                        _ => {}
                    }
                }
            }
            if k == kind && caps == self.caps {
                return false;
            }
        }
        true
    }

    /// The chain ending with `frame` as a complete move, its last part promoting to `promote`, unless a move
    /// with its net effect is listed already. The parts are written from the last back to the first, as the
    /// frames are walked.
    fn finish(&mut self, frame: &Frame<'_>, promote: Option<PieceType>) {
        self.paths += 1;
        let n = frame.depth as usize;
        self.parts += n;
        let kind = promote.unwrap_or(self.piece);
        if (n > 1 || !self.plan.singles_distinct) && !self.fresh(frame.to, kind) {
            return;
        }
        let piece = self.piece;
        let out = &mut *self.out;
        let first = out.parts.len();
        let a0 = out.actions.len();
        out.actions
            .resize(a0 + 2 * n + promote.is_some() as usize, Action::ExtraTurn);
        out.parts.resize(
            first + n,
            PartHead {
                start: 0,
                end: 0,
                from: None,
                to: None,
                piece,
                move_type: None,
            },
        );
        let mut at = Some(frame);
        let mut k = n;
        while let Some(f) = at {
            if k == 0 {
                break;
            }
            k -= 1;
            let start = a0 + 2 * k;
            let (from, to) = (Pos(f.from), Pos(f.to));
            out.actions[start] = Action::Capture { at: Pos(f.mid) };
            out.actions[start + 1] = Action::Move { from, to };
            out.parts[first + k] = PartHead {
                start: start as u32,
                end: start as u32 + 2,
                from: Some(from),
                to: Some(to),
                piece,
                move_type: f.move_type,
            };
            at = f.parent;
        }
        if let Some(t) = promote {
            out.actions[a0 + 2 * n] = Action::ChangeType {
                at: Pos(frame.to),
                kind: t,
            };
            out.parts[first + n - 1].end += 1;
        }
        out.moves.push(MoveHead {
            first: first as u32,
            len: n as u32,
        });
    }
}
