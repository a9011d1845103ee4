//! Random playouts of sowing games on a flat array of seed counts (issue 26): the games whose every move is one
//! `sow` instruction followed by `add` (docs/language.md, "Sowing"), whose end conditions read only seed sums,
//! `stalemated` and `repetition`, played without building a move, a part or an action per ply.
//!
//! The analysis ([`plan`]) accepts a game by what its programs and rules are, never by its name or shape of
//! board: every piece type has no drop and at most one move program, `(sow ...) add`, whose conditions read the
//! board alone (so that `gen::sow::Tables` holds them for every player); every position holds a pile from the
//! start; the turn order is plain (each player moves its own piles, any move type, no `goto-turn`); no option,
//! variable, repetition rule, extension module or royal piece judges or changes a move; every end condition is
//! made of comparisons of numbers built from constants and `(sum ...)` of the sown attribute, `stalemated` and
//! `repetition`, with `and`, `or` and `not`.
//!
//! A playout ([`SowPlan::random_game`]) then lists the whole moves of each position as the composer would (each
//! sowing is `gen::sow::sow` on a board of bytes, its rules read once per pit from the same tables as bit
//! masks; a sowing whose last seed earns another
//! continues with every sowing of the mover, depth first, in the order of the board; a continuation back to a
//! board seen earlier in the move is not made; moves with the same first pit and the same board after them are
//! one, the first listed kept), draws among them with the same random calls as the listed loop
//! (`playout::random_game_listed`), and keeps the position's hash only where an end condition reads the
//! history. When the game ends the counts, the turn, the ply and the last move are written back into the
//! state, and the outcome is read from it by the general end conditions (`Engine::outcome_of_count`), which
//! must agree that the game is over. The same games as the general path, state for state: tested move for move
//! against it (`tests/sow_kernel.rs`) on `games/` and on small games for every `sow` option.

use super::gen::sow::{Rules, Tables};
use super::playout::{below, PlayoutResult};
use super::state::{cell_key, turn_key, Piece, State};
use super::{Engine, EngineError};
use crate::compile::numbers::{ArithOp, CmpOp, Expr};
use crate::compile::sow::GrandSlam as GrandSlamRule;
use crate::compile::sow::Sow;
use crate::compile::*;
use rand_core::RngCore;

/// The largest seed count a pile holds (the attribute is a byte): a playout whose seeds could pass it is left
/// to the general path.
const MAX_SEEDS: i32 = 127;
/// The largest board the kernel plays (its boards are arrays on the stack).
const MAX_POSITIONS: usize = 64;

/// A number of an end condition, per tested player.
#[derive(Clone, Debug)]
enum Num {
    Int(i64),
    /// The seeds on the positions of a mask: per tested player, the index of its mask in `SowPlan::masks`.
    Sum(Vec<usize>),
    Arith(ArithOp, Vec<Num>),
}

/// An end condition on the counts.
#[derive(Clone, Debug)]
enum Cond {
    /// A comparison: its index in `SowPlan::cmps` (the same comparison in several conditions is read once
    /// per position and player).
    Cmp(usize),
    Stalemated,
    Repetition,
    And(Vec<Cond>),
    Or(Vec<Cond>),
    Not(Box<Cond>),
}

/// An end condition as a node of `SowPlan::nodes`: equal sub-conditions (the same definition used by several
/// end conditions, as `(ended)` in a win, a loss and a draw) are one node, read once per position and player.
#[derive(Clone, Debug, PartialEq)]
enum Node {
    Cmp(usize),
    Stalemated,
    Repetition,
    And(Vec<usize>),
    Or(Vec<usize>),
    Not(usize),
}

/// The node of `c` in `nodes`, added with its sub-conditions where no equal node is there yet.
fn intern(c: &Cond, nodes: &mut Vec<Node>) -> usize {
    let node = match c {
        Cond::Cmp(id) => Node::Cmp(*id),
        Cond::Stalemated => Node::Stalemated,
        Cond::Repetition => Node::Repetition,
        Cond::And(cs) => Node::And(cs.iter().map(|c| intern(c, nodes)).collect()),
        Cond::Or(cs) => Node::Or(cs.iter().map(|c| intern(c, nodes)).collect()),
        Cond::Not(c) => Node::Not(intern(c, nodes)),
    };
    match nodes.iter().position(|x| *x == node) {
        Some(id) => id,
        None => {
            nodes.push(node);
            nodes.len() - 1
        }
    }
}

/// A board: the seeds of each position (at most [`MAX_POSITIONS`] positions, each at most [`MAX_SEEDS`]).
type Board = [u8; MAX_POSITIONS];

/// Whether two boards are the same (word by word: the bytes past the board's positions are 0 in every board).
#[inline]
fn same(a: &Board, b: &Board, n: usize) -> bool {
    let mut k = 0;
    while k < n {
        let x = u64::from_ne_bytes(a[k..k + 8].try_into().expect("8 bytes"));
        let y = u64::from_ne_bytes(b[k..k + 8].try_into().expect("8 bytes"));
        if x != y {
            return false;
        }
        k += 8;
    }
    true
}

/// No position (in [`Sowing::opposite`]).
const NONE: u8 = u8::MAX;

/// One sowing, from one pit by one player: `gen::sow::sow` with its rules (read once from the tables) as bit
/// masks over the positions and the lap as bytes.
#[derive(Clone, Debug)]
struct Sowing {
    origin: u8,
    lap: Vec<u8>,
    /// `capture`: where, the counts that capture (bit c for count c), whether the pits before are taken too.
    capture: Option<(u64, u128, bool)>,
    grand_slam: GrandSlamRule,
    /// `capture-opposite`: the mover's pits, and per position the pit opposite it ([`NONE`]: none).
    opposite: Option<(u64, Vec<u8>)>,
    feed: Option<u64>,
    store: Option<u8>,
    again: u64,
}

/// What a sowing did: whether it earns another sowing.
struct Sown {
    again: bool,
}

impl Sowing {
    /// The sowing from `rules` (positions below [`MAX_POSITIONS`], as the plan checks).
    fn new(origin: Pos, r: &Rules) -> Sowing {
        let mask = |m: &[bool]| {
            m.iter()
                .enumerate()
                .fold(0u64, |acc, (i, &x)| acc | (x as u64) << i)
        };
        Sowing {
            origin: origin.0 as u8,
            lap: r.lap.iter().map(|p| p.0 as u8).collect(),
            capture: r.capture.map(|(m, takes, chain)| {
                let bits = takes
                    .iter()
                    .filter(|&&c| (0..=MAX_SEEDS).contains(&c))
                    .fold(0u128, |acc, &c| acc | 1 << c);
                (mask(m), bits, chain)
            }),
            grand_slam: r.grand_slam,
            opposite: r.opposite.map(|(own, opp)| {
                (
                    mask(own),
                    opp.iter().map(|o| o.map_or(NONE, |o| o.0 as u8)).collect(),
                )
            }),
            feed: r.feed.map(mask),
            store: r.store.map(|s| s.0 as u8),
            again: r.again.map_or(0, mask),
        }
    }

    /// Whether a position of `mask` holds seeds.
    #[inline]
    fn has_seeds(b: &Board, mask: u64) -> bool {
        let mut bits = mask;
        while bits != 0 {
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            if b[i] != 0 {
                return true;
            }
        }
        false
    }

    /// `gen::sow::sow` on a board: the same counts after it, the same refusals.
    #[inline]
    fn sow(&self, b: &mut Board) -> Option<Sown> {
        let origin = self.origin as usize;
        let n = b[origin] as usize;
        let len = self.lap.len();
        if n == 0 || len == 0 {
            return None;
        }
        let starving = self.feed.is_some_and(|m| !Sowing::has_seeds(b, m));
        b[origin] = 0;
        if n < len {
            // Once round at most: a seed in each of the first n pits.
            for &p in &self.lap[..n] {
                b[p as usize] += 1;
            }
        } else {
            let (rounds, rest) = ((n / len) as u8, n % len);
            for (i, &p) in self.lap.iter().enumerate() {
                b[p as usize] += rounds + (i < rest) as u8;
            }
        }
        let last_i = (n - 1) % len;
        let last = self.lap[last_i];
        let mut captured = 0u8;
        if let Some((mask, takes, chain)) = self.capture {
            // The pits taken, as a mask (a lap visits each position once).
            let mut taken = 0u64;
            let mut k = 0;
            let mut i = last_i;
            loop {
                let p = self.lap[i] as usize;
                if mask >> p & 1 == 0 || takes >> b[p] & 1 == 0 {
                    break;
                }
                taken |= 1 << p;
                k += 1;
                if !chain || k == len {
                    break;
                }
                i = (i + len - 1) % len;
            }
            if taken != 0 && self.grand_slam != GrandSlamRule::Allowed {
                let mut left = mask & !taken;
                let mut any = false;
                while left != 0 {
                    let q = left.trailing_zeros() as usize;
                    left &= left - 1;
                    if b[q] != 0 {
                        any = true;
                        break;
                    }
                }
                if !any {
                    match self.grand_slam {
                        GrandSlamRule::Illegal => return None,
                        _ => taken = 0,
                    }
                }
            }
            while taken != 0 {
                let p = taken.trailing_zeros() as usize;
                taken &= taken - 1;
                captured += b[p];
                b[p] = 0;
            }
        }
        if let Some((own, opp)) = &self.opposite {
            let l = last as usize;
            if own >> l & 1 != 0 && b[l] == 1 {
                let o = opp[l];
                if o != NONE && b[o as usize] > 0 {
                    captured += 1 + b[o as usize];
                    b[o as usize] = 0;
                    b[l] = 0;
                }
            }
        }
        if let Some(s) = self.store {
            b[s as usize] += captured;
        }
        if starving && !Sowing::has_seeds(b, self.feed.unwrap_or(0)) {
            return None;
        }
        Some(Sown {
            again: self.again >> last & 1 != 0,
        })
    }
}

/// What the analysis found for a game whose moves are sowings (see the module's documentation).
#[derive(Debug)]
pub struct SowPlan {
    /// The sown attribute.
    field: u8,
    /// Positions on the board.
    n: usize,
    /// Per player: the sowings of its piles that have a move program and a lap, in board order.
    sowings: Vec<Vec<Sowing>>,
    /// Per position: the pile standing there at the start, its count set to 0.
    piles: Vec<Piece>,
    /// Per position, per count 0..=MAX_SEEDS: the hash key of the pile with that count.
    keys: Vec<u64>,
    /// The masks the end conditions' sums read (distinct).
    masks: Vec<u64>,
    /// The comparisons of the end conditions (distinct).
    cmps: Vec<(CmpOp, Num, Num)>,
    /// The nodes of the end conditions (distinct).
    nodes: Vec<Node>,
    /// Per end condition: the node of its condition on the counts, and the players it names.
    ends: Vec<(usize, Vec<Player>)>,
}

/// Why a game is not one the kernel plays (for tests and `dagaz check`-like reports).
pub type Refusal = &'static str;

/// The pile `p` with `count` seeds, as `apply` leaves it after `SetIntAttribute`.
fn with_count(game: &Game, p: Piece, field: u8, count: i32) -> Piece {
    let mut x = p;
    x.attrs.set_int(field as usize, count as i8);
    if let Some(a) = game.int_attributes.get(field as usize) {
        x.attrs.set(a.idx(), count != 0);
    }
    x
}

/// The `sow` instruction of a program that is exactly `(sow ...) add`: the one its bytecode runs (whose address
/// keys its tables).
fn sow_of(prog: &MoveProgram) -> Option<&Sow> {
    match &prog.body[..] {
        [Instr::Sow(_), Instr::Add {
            promote,
            copy: false,
            partial: None,
        }] if promote.is_empty() => prog.code.instrs.iter().find_map(|i| match i {
            Instr::Sow(s) => Some(&**s),
            _ => None,
        }),
        _ => None,
    }
}

/// The kernel's plan of `game`, or why it does not take the game. Only for games the engine lists flat with no
/// repetition rule (the caller checks).
pub fn plan(game: &Game) -> Result<SowPlan, Refusal> {
    let o = &game.options;
    if o.pass_turn != PassTurn::No
        || o.pass_partial
        || o.deferred_captures
        || o.shared_pieces
        || o.detect_loops
        || o.move_memory
        || o.include_off_pieces
        || game.stacks
        || !game.variables.is_empty()
        || game.irreversible.is_some()
        || game.forbid_repetition.is_some()
        || !game.extensions.is_empty()
        || !game.phases.is_empty()
    {
        return Err("an option, variable or rule the kernel does not apply");
    }
    let np = game.players.len();
    if np == 0 || game.players.iter().any(|p| p.random) {
        return Err("random players");
    }
    let to = &game.turn_order;
    if to.entries.is_empty()
        || !to.labels.is_empty()
        || to
            .entries
            .iter()
            .any(|e| e.player != e.moves_as || e.move_type.is_some())
    {
        return Err("a turn order that moves another's pieces or limits the move types");
    }
    let n = game.board.positions.len();
    if n > MAX_POSITIONS {
        return Err("a board of more than 64 positions");
    }
    let tables = Tables::build(game);
    let mut field = None;
    let mut entries = vec![None; game.pieces.len()];
    for (k, piece) in game.pieces.iter().enumerate() {
        if !piece.drops.is_empty() {
            return Err("drops");
        }
        match &piece.moves[..] {
            [] => {}
            [prog] => {
                let s = sow_of(prog).ok_or("a move program other than (sow ...) add")?;
                let e = tables
                    .entry_of(s)
                    .filter(|&e| tables.covers(e, np))
                    .ok_or("a sowing whose conditions read more than the board")?;
                if field.is_some_and(|f| f != s.field) {
                    return Err("sowings of different attributes");
                }
                field = Some(s.field);
                entries[k] = Some((e, s));
            }
            _ => return Err("a piece type with several move programs"),
        }
    }
    let field = field.ok_or("no sowing")?;
    let start = State::initial(game);
    let mut piles = Vec::with_capacity(n);
    let mut sowings = vec![vec![]; np];
    for i in 0..n {
        let Some(x) = start.cells.get(i).copied().flatten().filter(|x| !x.dead) else {
            return Err("a position without a pile at the start");
        };
        if x.owner.idx() >= np {
            return Err("a pile of no player");
        }
        if let Some((e, s)) = entries[x.kind.idx()] {
            // No lap from here: never a move (the tables read the board alone).
            if let Some(r) = tables.rules(e, s, x.owner, Pos(i as u16)) {
                sowings[x.owner.idx()].push(Sowing::new(Pos(i as u16), &r));
            }
        }
        piles.push(with_count(game, x, field, 0));
    }
    let mut keys = Vec::with_capacity(n * (MAX_SEEDS as usize + 1));
    for (i, &p) in piles.iter().enumerate() {
        for c in 0..=MAX_SEEDS {
            keys.push(cell_key(Pos(i as u16), &with_count(game, p, field, c)));
        }
    }
    let mut masks = vec![];
    let mut cmps = vec![];
    let mut ends = vec![];
    let mut nodes = vec![];
    for ec in &game.end_conditions {
        let c = cond(game, &start, &piles, field, &mut masks, &mut cmps, &ec.cond)?;
        ends.push((intern(&c, &mut nodes), ec.players.clone()));
    }
    Ok(SowPlan {
        field,
        n,
        sowings,
        piles,
        keys,
        masks,
        cmps,
        nodes,
        ends,
    })
}

/// An end condition on the counts, or why not.
fn cond(
    game: &Game,
    start: &State,
    piles: &[Piece],
    field: u8,
    masks: &mut Vec<u64>,
    cmps: &mut Vec<(CmpOp, Num, Num)>,
    c: &EndCond,
) -> Result<Cond, Refusal> {
    let mut all = |cs: &[EndCond]| {
        cs.iter()
            .map(|c| cond(game, start, piles, field, masks, cmps, c))
            .collect::<Result<Vec<_>, _>>()
    };
    Ok(match c {
        EndCond::Stalemated => Cond::Stalemated,
        EndCond::Repetition => Cond::Repetition,
        EndCond::And(cs) => Cond::And(all(cs)?),
        EndCond::Or(cs) => Cond::Or(all(cs)?),
        EndCond::Not(c) => Cond::Not(Box::new(cond(game, start, piles, field, masks, cmps, c)?)),
        EndCond::Compare(op, ab) => {
            let a = num(game, start, piles, field, masks, &ab.0)?;
            let b = num(game, start, piles, field, masks, &ab.1)?;
            let key = format!("{op:?} {a:?} {b:?}");
            match cmps
                .iter()
                .position(|(o, x, y)| format!("{o:?} {x:?} {y:?}") == key)
            {
                Some(id) => Cond::Cmp(id),
                None => {
                    cmps.push((*op, a, b));
                    Cond::Cmp(cmps.len() - 1)
                }
            }
        }
        _ => return Err("an end condition other than sums, stalemated and repetition"),
    })
}

/// A number of an end condition on the counts, or why not. A sum's positions, per tested player, are found
/// by the general `sum` itself: on the start position with one seed on one pile and none elsewhere.
fn num(
    game: &Game,
    start: &State,
    piles: &[Piece],
    field: u8,
    masks: &mut Vec<u64>,
    e: &Expr,
) -> Result<Num, Refusal> {
    Ok(match e {
        Expr::Int(v) => Num::Int(*v),
        Expr::Arith(op, xs) if !xs.is_empty() => Num::Arith(
            *op,
            xs.iter()
                .map(|x| num(game, start, piles, field, masks, x))
                .collect::<Result<_, _>>()?,
        ),
        Expr::Sum(s) if s.field == field => {
            let mut probe = start.clone();
            for (i, &p) in piles.iter().enumerate() {
                probe.set(Pos(i as u16), Some(p));
            }
            let mut ids = vec![];
            for q in 0..game.players.len() {
                let mut m = 0u64;
                for (i, &p) in piles.iter().enumerate() {
                    probe.set(Pos(i as u16), Some(with_count(game, p, field, 1)));
                    if super::gen::sow::sum(game, &probe, Player(q as u8), s) == 1 {
                        m |= 1 << i;
                    }
                    probe.set(Pos(i as u16), Some(p));
                }
                let id = match masks.iter().position(|&x| x == m) {
                    Some(id) => id,
                    None => {
                        masks.push(m);
                        masks.len() - 1
                    }
                };
                ids.push(id);
            }
            Num::Sum(ids)
        }
        _ => {
            return Err("a number other than constants, arithmetic and sums of the sown attribute")
        }
    })
}

/// The position a playout is at, as the kernel reads it.
struct Ctx<'a> {
    board: &'a Board,
    cmps: &'a [(CmpOp, Num, Num)],
    nodes: &'a [Node],
    /// The nodes read so far at this position: per node and player (`node * players + player`), 0 not read,
    /// 1 false, 2 true.
    memo: &'a mut [u8],
    players: usize,
    masks: &'a [u64],
    /// The sums read at this position so far (bit k of `known`: `sums[k]` is read; masks past 64 are not kept).
    sums: &'a mut [i64],
    known: u64,
    player: Player,
    moves: usize,
    /// Occurrences of the position's key in the history, once counted.
    seen: Option<usize>,
    key: u64,
    history: &'a [u64],
    prefix: &'a [u64],
}

impl Ctx<'_> {
    #[inline]
    fn sum(&mut self, id: usize) -> i64 {
        if id < 64 && self.known >> id & 1 != 0 {
            return self.sums[id];
        }
        let mut bits = self.masks[id];
        let mut t = 0i64;
        while bits != 0 {
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            t += self.board[i] as i64;
        }
        if id < 64 {
            self.sums[id] = t;
            self.known |= 1 << id;
        }
        t
    }

    /// [`Ctx::num`] without a call where the number is a constant or a sum (the usual sides of a comparison).
    #[inline(always)]
    fn side(&mut self, e: &Num, p: Player) -> i64 {
        match e {
            Num::Int(v) => *v,
            Num::Sum(ids) => self.sum(ids[p.idx()]),
            _ => self.num(e, p),
        }
    }

    fn num(&mut self, e: &Num, p: Player) -> i64 {
        match e {
            Num::Int(v) => *v,
            Num::Sum(ids) => self.sum(ids[p.idx()]),
            // As `gen::numbers::eval_static`.
            Num::Arith(op, xs) => {
                let mut acc = self.num(&xs[0], p);
                if xs.len() == 1 && *op == ArithOp::Sub {
                    return acc.wrapping_neg();
                }
                for x in &xs[1..] {
                    let v = self.num(x, p);
                    acc = match op {
                        ArithOp::Add => acc.wrapping_add(v),
                        ArithOp::Sub => acc.wrapping_sub(v),
                        ArithOp::Mul => acc.wrapping_mul(v),
                        ArithOp::Div => acc.checked_div(v).unwrap_or(0),
                        ArithOp::Mod => acc.checked_rem_euclid(v).unwrap_or(0),
                        ArithOp::Min => acc.min(v),
                        ArithOp::Max => acc.max(v),
                    };
                }
                acc
            }
        }
    }

    /// [`Ctx::holds`] without a call where the node is already read at this position.
    #[inline(always)]
    fn read(&mut self, id: usize, p: Player) -> bool {
        match self.memo.get(id * self.players + p.idx()) {
            Some(1) => false,
            Some(2) => true,
            _ => self.holds(id, p),
        }
    }

    fn holds(&mut self, id: usize, p: Player) -> bool {
        let slot = id * self.players + p.idx();
        match self.memo.get(slot) {
            Some(1) => return false,
            Some(2) => return true,
            _ => {}
        }
        let nodes = self.nodes;
        let v = match &nodes[id] {
            Node::Cmp(c) => {
                let cmps = self.cmps;
                let (op, a, b) = &cmps[*c];
                let a = self.side(a, p);
                let b = self.side(b, p);
                op.holds(a, b)
            }
            Node::Stalemated => self.player == p && self.moves == 0,
            Node::Repetition => {
                let n = match self.seen {
                    Some(n) => n,
                    None => {
                        let k = self.key;
                        let n = self.prefix.iter().filter(|&&h| h == k).count()
                            + self.history.iter().filter(|&&h| h == k).count();
                        self.seen = Some(n);
                        n
                    }
                };
                n >= 2
            }
            Node::And(cs) => cs.iter().all(|&c| self.read(c, p)),
            Node::Or(cs) => cs.iter().any(|&c| self.read(c, p)),
            Node::Not(c) => !self.read(*c, p),
        };
        if let Some(m) = self.memo.get_mut(slot) {
            *m = 1 + v as u8;
        }
        v
    }
}

/// The moves of one position: per move its first pit, its last pit and the board after it.
#[derive(Default)]
struct Listed {
    first: Vec<u8>,
    last: Vec<u8>,
    boards: Vec<Board>,
    /// The boards of the move being built (the position first), for the loop check.
    chain: Vec<Board>,
    /// Moves finished, merged ones included.
    finished: usize,
    /// Where the moves of the first pit being extended begin (only they can share its first pit).
    group: usize,
}

impl SowPlan {
    /// Lists the moves of `player` on `board` into `out` (cleared first), as the composer lists them.
    fn list(
        &self,
        game: &Game,
        board: &Board,
        player: Player,
        out: &mut Listed,
    ) -> Result<(), EngineError> {
        out.first.clear();
        out.last.clear();
        out.boards.clear();
        out.finished = 0;
        let sowings = &self.sowings[player.idx()];
        for s in sowings {
            let mut next = *board;
            let Some(sown) = s.sow(&mut next) else {
                continue;
            };
            if !sown.again {
                out.finished += 1;
                out.first.push(s.origin);
                out.last.push(s.origin);
                out.boards.push(next);
                continue;
            }
            out.chain.clear();
            out.chain.push(*board);
            out.chain.push(next);
            out.group = out.first.len();
            self.extend(game, sowings, s.origin, s.origin, &next, out)?;
        }
        Ok(())
    }

    /// Continues a move whose first pit is `first` and whose last part (from `at`) left `work` and earned
    /// another sowing, as the composer extends a part whose continuation may start anywhere.
    fn extend(
        &self,
        game: &Game,
        sowings: &[Sowing],
        first: u8,
        at: u8,
        work: &Board,
        out: &mut Listed,
    ) -> Result<(), EngineError> {
        if out.chain.len() > super::compose::MAX_PARTS || out.finished >= super::compose::MAX_MOVES
        {
            return Err(EngineError::TooLarge {
                game: game.title.clone(),
            });
        }
        let mut any = false;
        for s in sowings {
            let mut next = *work;
            let Some(sown) = s.sow(&mut next) else {
                continue;
            };
            // A continuation back to a board of this move would loop.
            if out.chain.iter().any(|b| same(b, &next, self.n)) {
                continue;
            }
            any = true;
            if sown.again {
                out.chain.push(next);
                let r = self.extend(game, sowings, first, s.origin, &next, out);
                out.chain.pop();
                r?;
            } else {
                self.finish(first, s.origin, &next, out);
            }
        }
        if !any {
            self.finish(first, at, work, out);
        }
        Ok(())
    }

    /// A whole move: kept unless a move from the same first pit leaves the same board.
    fn finish(&self, first: u8, last: u8, after: &Board, out: &mut Listed) {
        out.finished += 1;
        let same = out.first[out.group..]
            .iter()
            .zip(&out.boards[out.group..])
            .any(|(&f, b)| f == first && same(b, after, self.n));
        if !same {
            out.first.push(first);
            out.last.push(last);
            out.boards.push(*after);
        }
    }

    /// A random game from `s` as `playout::random_game_listed` plays it (the same draws, the same moves, the
    /// same state at the end), after the positions `prefix`; `None`, with nothing drawn, where the state is
    /// not one the plan was made for (a pile moved, changed or removed, seeds past a byte).
    pub fn random_game(
        &self,
        engine: &Engine,
        s: &mut State,
        prefix: &[u64],
        rng: &mut impl RngCore,
        max_plies: u32,
    ) -> Result<Option<PlayoutResult>, EngineError> {
        let game = engine.game;
        let (n, field) = (self.n, self.field);
        if s.cells.len() != n || s.has_columns() || !s.trail.is_empty() {
            return Ok(None);
        }
        let mut board: Board = [0; MAX_POSITIONS];
        let mut total = 0;
        for (i, c) in s.cells.iter().enumerate() {
            let Some(x) = c else { return Ok(None) };
            let v = x.attrs.get_int(field as usize) as i32;
            if !(0..=MAX_SEEDS).contains(&v) || *x != with_count(game, self.piles[i], field, v) {
                return Ok(None);
            }
            board[i] = v as u8;
            total += v;
        }
        if total > MAX_SEEDS {
            return Ok(None);
        }
        let start = board;
        let keep = engine.reads_history();
        let mut history: Vec<u64> = vec![];
        let mut hash = s.hash;
        let (mut turn, mut ply) = (s.turn, s.ply);
        let mut last: Option<(u8, usize)> = None;
        let mut listed = Listed::default();
        let mut sums = vec![0i64; self.masks.len().min(64)];
        let players = game.players.len();
        let mut memo = vec![0u8; self.nodes.len() * players];
        let mut moves_seen = 0u64;
        loop {
            let player = game.turn_order.entries[turn].player;
            self.list(game, &board, player, &mut listed)?;
            let count = listed.first.len();
            memo.fill(0);
            let mut ctx = Ctx {
                board: &board,
                cmps: &self.cmps,
                nodes: &self.nodes,
                memo: &mut memo,
                players,
                masks: &self.masks,
                sums: &mut sums,
                known: 0,
                player,
                moves: count,
                seen: None,
                key: hash ^ turn_key(turn),
                history: &history,
                prefix,
            };
            let ended = count == 0
                || self
                    .ends
                    .iter()
                    .any(|(c, players)| players.iter().any(|&p| ctx.holds(*c, p)));
            if ended || ply >= max_plies {
                // The position back into the state, and the outcome as the general end conditions read it.
                for i in 0..n {
                    if board[i] != start[i] {
                        let x = with_count(game, self.piles[i], field, board[i] as i32);
                        s.set(Pos(i as u16), Some(x));
                    }
                }
                if let Some((at, entry)) = last {
                    s.last_from = Some(Pos(at as u16));
                    s.last_to = Some(Pos(at as u16));
                    s.last_mover = Some(game.turn_order.entries[entry].player);
                    s.passes = 0;
                }
                s.turn = turn;
                s.ply = ply;
                let keys;
                let past: &[u64] = if keep {
                    keys = [prefix, &history[..]].concat();
                    &keys
                } else {
                    &[]
                };
                let outcome = engine.outcome_of_count(s, count, count == 0, past)?;
                if ended != outcome.is_some() {
                    return Err(EngineError::Inconsistent {
                        game: game.title.clone(),
                        what: format!(
                            "the sowing kernel and the end conditions disagree on whether ply {ply} ends the game"
                        ),
                    });
                }
                return Ok(Some(PlayoutResult {
                    plies: ply,
                    outcome,
                    moves_seen: Some(moves_seen),
                }));
            }
            moves_seen += count as u64;
            let i = below(rng, count);
            let after = &listed.boards[i];
            if keep {
                history.push(hash ^ turn_key(turn));
                for j in 0..n {
                    let (c, a) = (board[j], after[j]);
                    if c != a {
                        let base = j * (MAX_SEEDS as usize + 1);
                        hash ^= self.keys[base + c as usize] ^ self.keys[base + a as usize];
                    }
                }
            }
            board = *after;
            last = Some((listed.last[i], turn));
            turn = game.turn_order.next(turn);
            ply += 1;
        }
    }
}
