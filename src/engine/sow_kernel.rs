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
//! history. The end conditions are read once per position for every player at once (bit masks of players),
//! as one `or` whose shared first parts are read once (`factor`), on comparisons of the masks' sums computed
//! once per position (`masked_sum`). Boards are 16, 32 or 64 bytes by the game's size, and a sowing drops its
//! seeds by word additions (`Sowing::drops`). When the game ends the counts, the turn, the ply and the last
//! move are written back into the
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

/// A side of a comparison that is a constant plus at most one sum: `k` plus the sum of mask `sum` (the
/// index past the last mask: a sum that is always 0).
#[derive(Clone, Copy, Debug)]
struct Lin {
    k: i64,
    sum: usize,
}

/// A comparison of two [`Lin`] sides for one player, read without a branch: bit 0 of `holds` says whether
/// it holds where the first side is smaller, bit 1 where they are equal, bit 2 where it is larger.
#[derive(Clone, Copy, Debug)]
struct FlatCmp {
    holds: u8,
    a: Lin,
    b: Lin,
}

impl FlatCmp {
    /// The comparison `op` of `a` and `b` for player `p`, where both sides are constants or sums.
    fn of(op: CmpOp, a: &Num, b: &Num, p: Player, zero: usize) -> Option<FlatCmp> {
        let lin = |e: &Num| match e {
            Num::Int(v) => Some(Lin { k: *v, sum: zero }),
            Num::Sum(ids) => Some(Lin {
                k: 0,
                sum: ids[p.idx()],
            }),
            Num::Arith(..) => None,
        };
        let holds = match op {
            CmpOp::Lt => 0b001,
            CmpOp::Le => 0b011,
            CmpOp::Eq => 0b010,
            CmpOp::Ge => 0b110,
            CmpOp::Gt => 0b100,
            CmpOp::Ne => 0b101,
        };
        Some(FlatCmp {
            holds,
            a: lin(a)?,
            b: lin(b)?,
        })
    }

    /// Whether the comparison holds with these sums (the last one 0).
    #[inline(always)]
    fn holds(&self, sums: &[i64]) -> bool {
        let x = self.a.k + sums[self.a.sum];
        let y = self.b.k + sums[self.b.sum];
        let order = 1 + (x > y) as u32 - (x < y) as u32;
        self.holds >> order & 1 != 0
    }
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
    add(node, nodes)
}

/// The node `node` in `nodes`, added where no equal node is there yet.
fn add(node: Node, nodes: &mut Vec<Node>) -> usize {
    match nodes.iter().position(|x| *x == node) {
        Some(id) => id,
        None => {
            nodes.push(node);
            nodes.len() - 1
        }
    }
}

/// A node that holds where one of `ids` holds (their `or`), its parts reordered and factored: the `and`s
/// with the same first part become one `and` of that part and the `or` of their other parts (factored in
/// turn). The conditions read only the position, so the value is the same; a part shared by several end
/// conditions (as Kalah's `(ended)`, first in its win, its loss and its draw) is read once per position,
/// and, where it fails, nothing else.
fn factor(nodes: &mut Vec<Node>, ids: Vec<usize>) -> usize {
    let mut parts: Vec<usize> = vec![];
    // Per first part: the nodes of the other parts of each `and` that begins with it.
    let mut groups: Vec<(usize, Vec<usize>, usize)> = vec![];
    for id in ids {
        if parts.contains(&id) {
            continue;
        }
        match &nodes[id] {
            Node::And(cs) if cs.len() >= 2 => {
                let (head, tail) = (cs[0], cs[1..].to_vec());
                let rest = if tail.len() == 1 {
                    tail[0]
                } else {
                    add(Node::And(tail), nodes)
                };
                match groups.iter_mut().find(|(h, _, _)| *h == head) {
                    Some((_, rests, _)) => rests.push(rest),
                    None => {
                        groups.push((head, vec![rest], id));
                        parts.push(id);
                    }
                }
            }
            _ => parts.push(id),
        }
    }
    for (head, rests, first) in groups {
        if rests.len() > 1 {
            let rest = factor(nodes, rests);
            let node = add(Node::And(vec![head, rest]), nodes);
            let at = parts
                .iter()
                .position(|&x| x == first)
                .expect("the group's first and");
            parts[at] = node;
        }
    }
    if parts.len() == 1 {
        parts[0]
    } else {
        add(Node::Or(parts), nodes)
    }
}

/// A board of `N` bytes (16, 32 or 64: the smallest that holds the game's positions, so that copying and
/// comparing a board of a small game costs a word or two): the seeds of each position, 0 past the last one.
type Board<const N: usize> = [u8; N];

/// The word `w` of a board (bytes `8w..8w+8`).
#[inline(always)]
fn word<const N: usize>(b: &Board<N>, w: usize) -> u64 {
    u64::from_ne_bytes(b[8 * w..8 * w + 8].try_into().expect("8 bytes"))
}

/// The bytes of the boards of a game of `n` positions: 16, 32 or 64.
fn board_bytes(n: usize) -> usize {
    if n <= 16 {
        16
    } else if n <= 32 {
        32
    } else {
        64
    }
}

/// The positions of a board that hold seeds (bit `i` for position `i`): per word, the high bit of each
/// byte set where the byte is not 0 (a byte is at most [`MAX_SEEDS`], so adding 0x7f to it carries into
/// no other), then the eight bits gathered by one multiplication.
#[inline(always)]
fn holding<const N: usize>(b: &Board<N>) -> u64 {
    const LOW: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let mut m = 0;
    for w in 0..N / 8 {
        let x = word(b, w);
        let high = (x + LOW) & !LOW;
        m |= ((high >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) << (8 * w);
    }
    m
}

/// Whether two boards are the same, word by word.
#[inline(always)]
fn same<const N: usize>(a: &Board<N>, b: &Board<N>) -> bool {
    (0..N / 8).all(|w| word(a, w) == word(b, w))
}

/// The seeds on the positions of a byte mask (`0xff` per position counted, in the board's byte order): per
/// word, the masked bytes summed by one multiplication, exact because a board never holds more than
/// [`MAX_SEEDS`] seeds in all (`SowPlan::random_game` checks it at the start, and a sowing never adds seeds),
/// so no partial sum of bytes carries past a byte.
#[inline(always)]
fn masked_sum<const N: usize>(b: &Board<N>, mask: &[u64; MAX_POSITIONS / 8]) -> i64 {
    const _: () = assert!(MAX_SEEDS < 256);
    let mut t = 0u64;
    for (w, &m) in mask.iter().enumerate().take(N / 8) {
        t += (word(b, w) & m).wrapping_mul(0x0101_0101_0101_0101) >> 56;
    }
    t as i64
}

/// No position (in [`Sowing::opposite`]).
const NONE: u8 = u8::MAX;

/// One sowing, from one pit by one player: `gen::sow::sow` with its rules (read once from the tables) as bit
/// masks over the positions and the lap as bytes.
#[derive(Clone, Debug)]
struct Sowing {
    origin: u8,
    lap: Vec<u8>,
    /// Per count `k` of seeds from 0 to the lap's length: the words (a board's [`board_bytes`] / 8) to add to
    /// the board's words to drop a seed on each of the lap's first `k` positions (a byte of 1 on each). No
    /// byte carries into the next: a board holds at most [`MAX_SEEDS`] seeds in all.
    drops: Vec<u64>,
    /// `capture`: where, the counts that capture (bit c for count c), whether the pits before are taken too.
    capture: Option<(u64, u128, bool)>,
    grand_slam: GrandSlamRule,
    /// `capture-opposite`: the mover's pits, and per position the pit opposite it ([`NONE`]: none).
    opposite: Option<(u64, Vec<u8>)>,
    feed: Option<u64>,
    store: Option<u8>,
    again: u64,
}

impl Sowing {
    /// The sowing from `rules` (positions below [`MAX_POSITIONS`], as the plan checks).
    fn new(origin: Pos, r: &Rules, bytes: usize) -> Sowing {
        let mask = |m: &[bool]| {
            m.iter()
                .enumerate()
                .fold(0u64, |acc, (i, &x)| acc | (x as u64) << i)
        };
        let mut drops = vec![0u64; (r.lap.len() + 1) * bytes / 8];
        let mut row = vec![0u8; bytes];
        for k in 0..=r.lap.len() {
            if k > 0 {
                row[r.lap[k - 1].idx()] = 1;
            }
            for w in 0..bytes / 8 {
                drops[k * bytes / 8 + w] =
                    u64::from_ne_bytes(row[8 * w..8 * w + 8].try_into().expect("8 bytes"));
            }
        }
        Sowing {
            drops,
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
    fn has_seeds<const N: usize>(b: &Board<N>, mask: u64) -> bool {
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

    /// `gen::sow::sow` on a board: the same counts after it, the same refusals; whether the sowing earns
    /// another.
    #[inline(always)]
    fn sow<const N: usize>(&self, b: &mut Board<N>) -> Option<bool> {
        let origin = self.origin as usize;
        let n = b[origin] as usize;
        let len = self.lap.len();
        if n == 0 || len == 0 {
            return None;
        }
        let starving = self.feed.is_some_and(|m| !Sowing::has_seeds(b, m));
        // The origin emptied (in its word: a byte store before the word loads would stall them), a seed on each of the first `rest` positions of the lap, and `rounds` on each, word by word.
        let (rounds, rest, last_i) = if n <= len {
            (0, n, n - 1)
        } else {
            (n / len, n % len, (n - 1) % len)
        };
        let words = N / 8;
        let (part, full) = (
            &self.drops[rest * words..rest * words + words],
            &self.drops[len * words..len * words + words],
        );
        let (at, shift) = (origin / 8, 8 * (origin % 8));
        for w in 0..words {
            let keep = !((0xffu64 << shift) & ((w == at) as u64).wrapping_neg());
            let x = (word(b, w) & keep) + part[w] + rounds as u64 * full[w];
            b[8 * w..8 * w + 8].copy_from_slice(&x.to_ne_bytes());
        }
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
        // No byte store where nothing is captured (the next word load of the board would wait on it).
        if captured != 0 {
            if let Some(s) = self.store {
                b[s as usize] += captured;
            }
        }
        if starving && !Sowing::has_seeds(b, self.feed.unwrap_or(0)) {
            return None;
        }
        Some(self.again >> last & 1 != 0)
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
    /// Per player: the positions of its sowings (bit `i` for position `i`).
    origins: Vec<u64>,
    /// Per position with a sowing: its index in its player's `sowings`.
    slot: Vec<u8>,
    /// Per position: the pile standing there at the start, its count set to 0.
    piles: Vec<Piece>,
    /// Per position, per count 0..=MAX_SEEDS: the hash key of the pile with that count.
    keys: Vec<u64>,
    /// The masks the end conditions' sums read (distinct), as byte masks of a board (`0xff` on each position
    /// of the mask, word by word, as [`masked_sum`] reads them).
    masks: Vec<[u64; MAX_POSITIONS / 8]>,
    /// The comparisons of the end conditions (distinct).
    cmps: Vec<(CmpOp, Num, Num)>,
    /// Per comparison and player (`cmp * players + player`): the comparison as a [`FlatCmp`], where its
    /// sides are constants or sums.
    flat: Vec<Option<FlatCmp>>,
    /// The nodes of the end conditions (distinct), each after its parts, and those [`factor`] adds.
    nodes: Vec<Node>,
    /// Whether the game is over, as nodes: per set of players named by end conditions (bit `p` for player
    /// `p`), the node that holds for a player of the set where one of those end conditions holds for it
    /// ([`factor`]: the conditions in one `or`, their common first parts read once).
    ended: Vec<(usize, u64)>,
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
    if np > 64 {
        // The end conditions are read for all players at once, a bit each.
        return Err("more than 64 players");
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
    let mut slot = Vec::with_capacity(n);
    let mut origins = vec![0u64; np];
    for i in 0..n {
        let Some(x) = start.cells.get(i).copied().flatten().filter(|x| !x.dead) else {
            return Err("a position without a pile at the start");
        };
        if x.owner.idx() >= np {
            return Err("a pile of no player");
        }
        let mut at = 0;
        if let Some((e, s)) = entries[x.kind.idx()] {
            // No lap from here: never a move (the tables read the board alone).
            if let Some(r) = tables.rules(e, s, x.owner, Pos(i as u16)) {
                at = sowings[x.owner.idx()].len() as u8;
                origins[x.owner.idx()] |= 1u64 << i;
                sowings[x.owner.idx()].push(Sowing::new(Pos(i as u16), &r, board_bytes(n)));
            }
        }
        slot.push(at);
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
    let mut ends: Vec<(usize, u64)> = vec![];
    let mut nodes = vec![];
    for ec in &game.end_conditions {
        let c = cond(game, &start, &piles, field, &mut masks, &mut cmps, &ec.cond)?;
        let players = ec.players.iter().fold(0u64, |m, p| m | 1 << p.idx());
        ends.push((intern(&c, &mut nodes), players));
    }
    let zero = masks.len();
    let flat = cmps
        .iter()
        .flat_map(|(op, a, b)| (0..np).map(move |q| FlatCmp::of(*op, a, b, Player(q as u8), zero)))
        .collect();
    // The end conditions naming the same players, as one `or`.
    let mut by_players: Vec<(u64, Vec<usize>)> = vec![];
    for &(id, players) in &ends {
        match by_players.iter_mut().find(|(m, _)| *m == players) {
            Some((_, ids)) => ids.push(id),
            None => by_players.push((players, vec![id])),
        }
    }
    let ended = by_players
        .into_iter()
        .map(|(players, ids)| (factor(&mut nodes, ids), players))
        .collect();
    let masks = masks
        .iter()
        .map(|&m| {
            let mut bytes = [0u8; MAX_POSITIONS];
            for (i, b) in bytes.iter_mut().enumerate() {
                if m >> i & 1 != 0 {
                    *b = 0xff;
                }
            }
            let mut words = [0u64; MAX_POSITIONS / 8];
            for (w, x) in words.iter_mut().enumerate() {
                *x = word(&bytes, w);
            }
            words
        })
        .collect();
    Ok(SowPlan {
        field,
        n,
        sowings,
        origins,
        slot,
        piles,
        keys,
        masks,
        cmps,
        flat,
        nodes,
        ended,
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
    plan: &'a SowPlan,
    /// The sums of the plan's masks on the position.
    sums: &'a [i64],
    /// Players in the game.
    players: usize,
    player: Player,
    moves: usize,
    /// Occurrences of the position's key in the history, once counted.
    seen: Option<usize>,
    key: u64,
    history: &'a [u64],
    prefix: &'a [u64],
}

impl Ctx<'_> {
    /// A side of a comparison: a constant or a sum without a call.
    #[inline(always)]
    fn side(&self, e: &Num, p: Player) -> i64 {
        match e {
            Num::Int(v) => *v,
            Num::Sum(ids) => self.sums[ids[p.idx()]],
            _ => self.num(e, p),
        }
    }

    fn num(&self, e: &Num, p: Player) -> i64 {
        match e {
            Num::Int(v) => *v,
            Num::Sum(ids) => self.sums[ids[p.idx()]],
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

    /// Whether the position's key occurs twice or more in the history (counted once per position).
    fn repeated(&mut self) -> bool {
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

    /// The players of `want` (bit `p` for player `p`) for whom node `id` holds, all of them in one call: an
    /// `and` reads its next part only for the players its earlier parts left standing, an `or` only for
    /// those not yet decided.
    fn eval(&mut self, id: usize, want: u64) -> u64 {
        let plan = self.plan;
        match &plan.nodes[id] {
            Node::Cmp(c) => {
                let mut r = 0;
                let mut bits = want;
                while bits != 0 {
                    let q = bits.trailing_zeros();
                    bits &= bits - 1;
                    let holds = match &plan.flat[c * self.players + q as usize] {
                        Some(f) => f.holds(self.sums),
                        None => {
                            let (op, a, b) = &plan.cmps[*c];
                            let p = Player(q as u8);
                            op.holds(self.side(a, p), self.side(b, p))
                        }
                    };
                    r |= (holds as u64) << q;
                }
                r
            }
            Node::Stalemated => {
                if self.moves == 0 {
                    want & 1 << self.player.idx()
                } else {
                    0
                }
            }
            Node::Repetition => {
                if self.repeated() {
                    want
                } else {
                    0
                }
            }
            Node::And(cs) => {
                let mut acc = want;
                for &c in cs {
                    acc = self.eval(c, acc);
                    if acc == 0 {
                        break;
                    }
                }
                acc
            }
            Node::Or(cs) => {
                let (mut r, mut rest) = (0, want);
                for &c in cs {
                    let x = self.eval(c, rest);
                    r |= x;
                    rest &= !x;
                    if rest == 0 {
                        break;
                    }
                }
                r
            }
            Node::Not(c) => want & !self.eval(*c, want),
        }
    }
}

/// A whole move of a listed position: its first pit, its last pit and the board after it.
#[derive(Clone, Copy)]
struct Whole<const N: usize> {
    board: Board<N>,
    first: u8,
    last: u8,
}

/// The moves of one position.
struct Listed<const N: usize> {
    moves: Vec<Whole<N>>,
    /// The boards of the move being built (the position first), for the loop check.
    chain: Vec<Board<N>>,
    /// Moves finished, merged ones included.
    finished: usize,
    /// Where the moves of the first pit being extended begin (only they can share its first pit).
    group: usize,
}

impl<const N: usize> Listed<N> {
    fn new() -> Listed<N> {
        Listed {
            moves: vec![],
            chain: vec![],
            finished: 0,
            group: 0,
        }
    }
}

impl SowPlan {
    /// Lists the moves of `player` on `board` into `out` (cleared first), as the composer lists them.
    fn list<const N: usize>(
        &self,
        game: &Game,
        board: &Board<N>,
        player: Player,
        out: &mut Listed<N>,
    ) -> Result<(), EngineError> {
        out.moves.clear();
        out.finished = 0;
        let sowings = &self.sowings[player.idx()];
        let origins = self.origins[player.idx()];
        // The sowings of the piles holding seeds, in board order.
        let mut bits = holding(board) & origins;
        while bits != 0 {
            let s = &sowings[self.slot[bits.trailing_zeros() as usize] as usize];
            bits &= bits - 1;
            let mut next = *board;
            let Some(again) = s.sow(&mut next) else {
                continue;
            };
            if !again {
                out.finished += 1;
                out.moves.push(Whole {
                    board: next,
                    first: s.origin,
                    last: s.origin,
                });
                continue;
            }
            out.chain.clear();
            out.chain.push(*board);
            out.chain.push(next);
            out.group = out.moves.len();
            self.extend(game, player, s.origin, s.origin, &next, out)?;
        }
        Ok(())
    }

    /// Continues a move whose first pit is `first` and whose last part (from `at`) left `work` and earned
    /// another sowing, as the composer extends a part whose continuation may start anywhere.
    fn extend<const N: usize>(
        &self,
        game: &Game,
        player: Player,
        first: u8,
        at: u8,
        work: &Board<N>,
        out: &mut Listed<N>,
    ) -> Result<(), EngineError> {
        if out.chain.len() > super::compose::MAX_PARTS || out.finished >= super::compose::MAX_MOVES
        {
            return Err(EngineError::TooLarge {
                game: game.title.clone(),
            });
        }
        let (sowings, origins) = (&self.sowings[player.idx()], self.origins[player.idx()]);
        let mut any = false;
        let mut bits = holding(work) & origins;
        while bits != 0 {
            let s = &sowings[self.slot[bits.trailing_zeros() as usize] as usize];
            bits &= bits - 1;
            let mut next = *work;
            let Some(again) = s.sow(&mut next) else {
                continue;
            };
            // A continuation back to a board of this move would loop.
            if out.chain.iter().any(|b| same(b, &next)) {
                continue;
            }
            any = true;
            if again {
                out.chain.push(next);
                let r = self.extend(game, player, first, s.origin, &next, out);
                out.chain.pop();
                r?;
            } else {
                Self::finish(first, s.origin, &next, out);
            }
        }
        if !any {
            Self::finish(first, at, work, out);
        }
        Ok(())
    }

    /// A whole move: kept unless a move from the same first pit leaves the same board.
    #[inline]
    fn finish<const N: usize>(first: u8, last: u8, after: &Board<N>, out: &mut Listed<N>) {
        out.finished += 1;
        let same = out.moves[out.group..]
            .iter()
            .any(|m| m.first == first && same(&m.board, after));
        if !same {
            out.moves.push(Whole {
                board: *after,
                first,
                last,
            });
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
        match board_bytes(self.n) {
            16 => self.play::<16>(engine, s, prefix, rng, max_plies),
            32 => self.play::<32>(engine, s, prefix, rng, max_plies),
            _ => self.play::<64>(engine, s, prefix, rng, max_plies),
        }
    }

    /// [`SowPlan::random_game`] on boards of `N` bytes (at least the game's positions).
    fn play<const N: usize>(
        &self,
        engine: &Engine,
        s: &mut State,
        prefix: &[u64],
        rng: &mut impl RngCore,
        max_plies: u32,
    ) -> Result<Option<PlayoutResult>, EngineError> {
        let game = engine.game;
        let (n, field) = (self.n, self.field);
        if N != board_bytes(n) || s.cells.len() != n || s.has_columns() || !s.trail.is_empty() {
            return Ok(None);
        }
        let mut board: Board<N> = [0; N];
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
        let mut listed = Listed::<N>::new();
        // The last one: the sum of no position, 0 ([`Lin`]).
        let mut sums = vec![0i64; self.masks.len() + 1];
        let players = game.players.len();
        let mut moves_seen = 0u64;
        loop {
            let player = game.turn_order.entries[turn].player;
            self.list(game, &board, player, &mut listed)?;
            let count = listed.moves.len();
            for (t, m) in sums.iter_mut().zip(&self.masks) {
                *t = masked_sum(&board, m);
            }
            let mut ctx = Ctx {
                plan: self,
                sums: &sums,
                players,
                player,
                moves: count,
                seen: None,
                key: hash ^ turn_key(turn),
                history: &history,
                prefix,
            };
            let ended = count == 0
                || self
                    .ended
                    .iter()
                    .any(|&(c, players)| ctx.eval(c, players) != 0);
            if ended || ply >= max_plies {
                // The position back into the state, and the outcome as the general end conditions read it.
                // The hash moved by the plan's keys (the cell held the pile of `start[i]` seeds, as checked
                // at the start), not by hashing both piles anew.
                for i in 0..n {
                    if board[i] != start[i] {
                        let x = with_count(game, self.piles[i], field, board[i] as i32);
                        let base = i * (MAX_SEEDS as usize + 1);
                        s.hash ^= self.keys[base + start[i] as usize]
                            ^ self.keys[base + board[i] as usize];
                        s.put(Pos(i as u16), Some(x));
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
            let chosen = &listed.moves[i];
            if keep {
                history.push(hash ^ turn_key(turn));
                for (j, (&c, &a)) in board.iter().zip(&chosen.board).enumerate().take(n) {
                    if c != a {
                        let base = j * (MAX_SEEDS as usize + 1);
                        hash ^= self.keys[base + c as usize] ^ self.keys[base + a as usize];
                    }
                }
            }
            board = chosen.board;
            last = Some((chosen.last, turn));
            turn = game.turn_order.next(turn);
            ply += 1;
        }
    }
}
