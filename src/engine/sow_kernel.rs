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
//! A playout ([`SowPlan::random_game`]) then lists the whole moves of each position as the composer would (the
//! same sowing function, `gen::sow::sow`, read from the same tables; a sowing whose last seed earns another
//! continues with every sowing of the mover, depth first, in the order of the board; a continuation back to a
//! board seen earlier in the move is not made; moves with the same first pit and the same board after them are
//! one, the first listed kept), draws among them with the same random calls as the listed loop
//! (`playout::random_game_listed`), and keeps the position's hash only where an end condition reads the
//! history. When the game ends the counts, the turn, the ply and the last move are written back into the
//! state, and the outcome is read from it by the general end conditions (`Engine::outcome_of_count`), which
//! must agree that the game is over. The same games as the general path, state for state: tested move for move
//! against it (`tests/sow_kernel.rs`) on `games/` and on small games for every `sow` option.

use super::gen::sow::{sow, Tables};
use super::playout::{below, PlayoutResult};
use super::state::{cell_key, turn_key, Piece, State};
use super::{Engine, EngineError};
use crate::compile::numbers::{ArithOp, CmpOp, Expr};
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
    /// The seeds on the positions of a mask (per tested player).
    Sum(Vec<Vec<u64>>),
    Arith(ArithOp, Vec<Num>),
}

/// An end condition on the counts.
#[derive(Clone, Debug)]
enum Cond {
    Cmp(CmpOp, Num, Num),
    Stalemated,
    Repetition,
    And(Vec<Cond>),
    Or(Vec<Cond>),
    Not(Box<Cond>),
}

/// What the analysis found for a game whose moves are sowings (see the module's documentation).
#[derive(Debug)]
pub struct SowPlan {
    tables: Tables,
    /// The sown attribute.
    field: u8,
    /// Positions on the board.
    n: usize,
    /// Per player: the positions of its piles that have a move program, in board order, each with the piece
    /// type whose program sows from it.
    origins: Vec<Vec<(Pos, PieceType)>>,
    /// Per piece type: the index of its `sow` instruction's tables.
    entries: Vec<Option<usize>>,
    /// Per position: the pile standing there at the start, its count set to 0.
    piles: Vec<Piece>,
    /// Per position, per count 0..=MAX_SEEDS: the hash key of the pile with that count.
    keys: Vec<u64>,
    /// Per end condition: its condition on the counts, and the players it names.
    ends: Vec<(Cond, Vec<Player>)>,
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
        }] if promote.is_empty() => sow_run(prog),
        _ => None,
    }
}

/// The `sow` instruction the bytecode of `prog` runs.
#[inline]
fn sow_run(prog: &MoveProgram) -> Option<&Sow> {
    prog.code.instrs.iter().find_map(|i| match i {
        Instr::Sow(s) => Some(&**s),
        _ => None,
    })
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
                entries[k] = Some(e);
            }
            _ => return Err("a piece type with several move programs"),
        }
    }
    let field = field.ok_or("no sowing")?;
    let n = game.board.positions.len();
    if n > MAX_POSITIONS {
        return Err("a board of more than 64 positions");
    }
    let start = State::initial(game);
    let mut piles = Vec::with_capacity(n);
    let mut origins = vec![vec![]; np];
    for i in 0..n {
        let Some(x) = start.cells.get(i).copied().flatten().filter(|x| !x.dead) else {
            return Err("a position without a pile at the start");
        };
        if x.owner.idx() >= np {
            return Err("a pile of no player");
        }
        if entries[x.kind.idx()].is_some() {
            origins[x.owner.idx()].push((Pos(i as u16), x.kind));
        }
        piles.push(with_count(game, x, field, 0));
    }
    let mut keys = Vec::with_capacity(n * (MAX_SEEDS as usize + 1));
    for (i, &p) in piles.iter().enumerate() {
        for c in 0..=MAX_SEEDS {
            keys.push(cell_key(Pos(i as u16), &with_count(game, p, field, c)));
        }
    }
    let mut ends = vec![];
    for ec in &game.end_conditions {
        let c = cond(game, &start, &piles, field, &ec.cond)?;
        ends.push((c, ec.players.clone()));
    }
    Ok(SowPlan {
        tables,
        field,
        n,
        origins,
        entries,
        piles,
        keys,
        ends,
    })
}

/// An end condition on the counts, or why not.
fn cond(
    game: &Game,
    start: &State,
    piles: &[Piece],
    field: u8,
    c: &EndCond,
) -> Result<Cond, Refusal> {
    let all = |cs: &[EndCond]| {
        cs.iter()
            .map(|c| cond(game, start, piles, field, c))
            .collect::<Result<Vec<_>, _>>()
    };
    Ok(match c {
        EndCond::Stalemated => Cond::Stalemated,
        EndCond::Repetition => Cond::Repetition,
        EndCond::And(cs) => Cond::And(all(cs)?),
        EndCond::Or(cs) => Cond::Or(all(cs)?),
        EndCond::Not(c) => Cond::Not(Box::new(cond(game, start, piles, field, c)?)),
        EndCond::Compare(op, ab) => Cond::Cmp(
            *op,
            num(game, start, piles, field, &ab.0)?,
            num(game, start, piles, field, &ab.1)?,
        ),
        _ => return Err("an end condition other than sums, stalemated and repetition"),
    })
}

/// A number of an end condition on the counts, or why not. A sum's positions, per tested player, are found
/// by the general `sum` itself: on the start position with one seed on one pile and none elsewhere.
fn num(game: &Game, start: &State, piles: &[Piece], field: u8, e: &Expr) -> Result<Num, Refusal> {
    Ok(match e {
        Expr::Int(v) => Num::Int(*v),
        Expr::Arith(op, xs) if !xs.is_empty() => Num::Arith(
            *op,
            xs.iter()
                .map(|x| num(game, start, piles, field, x))
                .collect::<Result<_, _>>()?,
        ),
        Expr::Sum(s) if s.field == field => {
            let mut probe = start.clone();
            for (i, &p) in piles.iter().enumerate() {
                probe.set(Pos(i as u16), Some(p));
            }
            let words = piles.len().div_ceil(64);
            let mut masks = vec![];
            for q in 0..game.players.len() {
                let mut m = vec![0u64; words];
                for (i, &p) in piles.iter().enumerate() {
                    probe.set(Pos(i as u16), Some(with_count(game, p, field, 1)));
                    if super::gen::sow::sum(game, &probe, Player(q as u8), s) == 1 {
                        m[i >> 6] |= 1 << (i & 63);
                    }
                    probe.set(Pos(i as u16), Some(p));
                }
                masks.push(m);
            }
            Num::Sum(masks)
        }
        _ => {
            return Err("a number other than constants, arithmetic and sums of the sown attribute")
        }
    })
}

/// The position a playout is at, as the kernel reads it.
struct Ctx<'a> {
    counts: &'a [i32],
    player: Player,
    moves: usize,
    /// Occurrences of the position's key in the history, once counted.
    seen: Option<usize>,
    key: u64,
    history: &'a [u64],
    prefix: &'a [u64],
}

impl Ctx<'_> {
    fn num(&self, e: &Num, p: Player) -> i64 {
        match e {
            Num::Int(v) => *v,
            Num::Sum(masks) => {
                let mut t = 0i64;
                for (w, &bits) in masks[p.idx()].iter().enumerate() {
                    let mut bits = bits;
                    while bits != 0 {
                        let i = w * 64 + bits.trailing_zeros() as usize;
                        bits &= bits - 1;
                        t += self.counts[i] as i64;
                    }
                }
                t
            }
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

    fn holds(&mut self, c: &Cond, p: Player) -> bool {
        match c {
            Cond::Cmp(op, a, b) => op.holds(self.num(a, p), self.num(b, p)),
            Cond::Stalemated => self.player == p && self.moves == 0,
            Cond::Repetition => {
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
            Cond::And(cs) => cs.iter().all(|c| self.holds(c, p)),
            Cond::Or(cs) => cs.iter().any(|c| self.holds(c, p)),
            Cond::Not(c) => !self.holds(c, p),
        }
    }
}

/// The moves of one position: per move its first pit, its last pit and the counts after it.
#[derive(Default)]
struct Listed {
    first: Vec<Pos>,
    last: Vec<Pos>,
    counts: Vec<i32>,
    /// The boards of the move being built (the position first), for the loop check.
    chain: Vec<i32>,
    /// Parts of the move being built.
    depth: usize,
    /// Moves finished, merged ones included.
    finished: usize,
}

impl SowPlan {
    /// The rules of a sowing from `origin` of a pile of type `kind`, by `player`.
    #[inline]
    fn sow_from(
        &self,
        game: &Game,
        kind: PieceType,
        player: Player,
        origin: Pos,
        counts: &mut [i32],
    ) -> Option<super::gen::sow::Sown> {
        let e = self.entries[kind.idx()]?;
        let s = sow_run(&game.pieces[kind.idx()].moves[0])?;
        let rules = self.tables.rules(e, s, player, origin)?;
        sow(counts, origin, &rules)
    }

    /// Lists the moves of `player` on `counts` into `out` (cleared first).
    fn list(
        &self,
        game: &Game,
        counts: &[i32],
        player: Player,
        out: &mut Listed,
    ) -> Result<(), EngineError> {
        out.first.clear();
        out.last.clear();
        out.counts.clear();
        out.chain.clear();
        out.finished = 0;
        let n = self.n;
        let mut buf = [0i32; MAX_POSITIONS];
        let next = &mut buf[..n];
        for &(o, kind) in &self.origins[player.idx()] {
            next.copy_from_slice(counts);
            let Some(sown) = self.sow_from(game, kind, player, o, next) else {
                continue;
            };
            if !sown.again {
                out.finished += 1;
                out.first.push(o);
                out.last.push(o);
                out.counts.extend_from_slice(next);
                continue;
            }
            out.chain.extend_from_slice(counts);
            out.chain.extend_from_slice(next);
            out.depth = 1;
            self.extend(game, player, o, o, next, out)?;
            out.chain.clear();
        }
        Ok(())
    }

    /// Continues a move whose first pit is `first` and whose last part (from `at`) left `work` and earned
    /// another sowing, as the composer extends a part whose continuation may start anywhere.
    fn extend(
        &self,
        game: &Game,
        player: Player,
        first: Pos,
        at: Pos,
        work: &[i32],
        out: &mut Listed,
    ) -> Result<(), EngineError> {
        if out.depth >= super::compose::MAX_PARTS || out.finished >= super::compose::MAX_MOVES {
            return Err(EngineError::TooLarge {
                game: game.title.clone(),
            });
        }
        let n = self.n;
        let mut any = false;
        let mut buf = [0i32; MAX_POSITIONS];
        let next = &mut buf[..n];
        for &(o, kind) in &self.origins[player.idx()] {
            next.copy_from_slice(work);
            let Some(sown) = self.sow_from(game, kind, player, o, next) else {
                continue;
            };
            // A continuation back to a board of this move would loop.
            if out.chain.chunks_exact(n).any(|b| b == &next[..]) {
                continue;
            }
            any = true;
            if sown.again {
                out.chain.extend_from_slice(next);
                out.depth += 1;
                let r = self.extend(game, player, first, o, next, out);
                out.depth -= 1;
                out.chain.truncate(out.chain.len() - n);
                r?;
            } else {
                self.finish(first, o, next, out);
            }
        }
        if !any {
            self.finish(first, at, work, out);
        }
        Ok(())
    }

    /// A whole move: kept unless a move from the same first pit leaves the same board.
    fn finish(&self, first: Pos, last: Pos, after: &[i32], out: &mut Listed) {
        out.finished += 1;
        let n = self.n;
        let same = out
            .first
            .iter()
            .enumerate()
            .any(|(j, &f)| f == first && &out.counts[j * n..(j + 1) * n] == after);
        if !same {
            out.first.push(first);
            out.last.push(last);
            out.counts.extend_from_slice(after);
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
        let mut counts = vec![0i32; n];
        let mut total = 0;
        for (i, c) in s.cells.iter().enumerate() {
            let Some(x) = c else { return Ok(None) };
            let v = x.attrs.get_int(field as usize) as i32;
            if !(0..=MAX_SEEDS).contains(&v) || *x != with_count(game, self.piles[i], field, v) {
                return Ok(None);
            }
            counts[i] = v;
            total += v;
        }
        if total > MAX_SEEDS {
            return Ok(None);
        }
        let start = counts.clone();
        let keep = engine.reads_history();
        let mut history: Vec<u64> = vec![];
        let mut hash = s.hash;
        let (mut turn, mut ply) = (s.turn, s.ply);
        let mut last: Option<(Pos, usize)> = None;
        let mut listed = Listed::default();
        let mut moves_seen = 0u64;
        loop {
            let player = game.turn_order.entries[turn].player;
            self.list(game, &counts, player, &mut listed)?;
            let count = listed.first.len();
            let mut ctx = Ctx {
                counts: &counts,
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
                    .any(|(c, players)| players.iter().any(|&p| ctx.holds(c, p)));
            if ended || ply >= max_plies {
                // The position back into the state, and the outcome as the general end conditions read it.
                for i in 0..n {
                    if counts[i] != start[i] {
                        let x = with_count(game, self.piles[i], field, counts[i]);
                        s.set(Pos(i as u16), Some(x));
                    }
                }
                if let Some((at, entry)) = last {
                    s.last_from = Some(at);
                    s.last_to = Some(at);
                    s.last_mover = Some(game.turn_order.entries[entry].player);
                    s.passes = 0;
                }
                s.turn = turn;
                s.ply = ply;
                let mut keys;
                let past: &[u64] = if keep {
                    keys = prefix.to_vec();
                    keys.extend_from_slice(&history);
                    &keys
                } else {
                    keys = vec![];
                    &keys
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
            if keep {
                history.push(hash ^ turn_key(turn));
            }
            let i = below(rng, count);
            let after = &listed.counts[i * n..(i + 1) * n];
            for (j, (c, &a)) in counts.iter_mut().zip(after).enumerate() {
                if *c != a {
                    if keep {
                        let base = j * (MAX_SEEDS as usize + 1);
                        hash ^= self.keys[base + *c as usize] ^ self.keys[base + a as usize];
                    }
                    *c = a;
                }
            }
            last = Some((listed.last[i], turn));
            turn = game.turn_order.next(turn);
            ply += 1;
        }
    }
}
