//! Sampling move generators: a random playout that draws one move without listing all.
//!
//! A *generator* is one run that `gen::parts` would make: one program of one of the mover's pieces, or the drop
//! program on one square. Where [`plan`] proves that (a) a generator yields at most one entry of the list
//! `Engine::legal_into` builds, and (b) entries of different generators never merge in that list, the list is
//! exactly the moves of the generators that yield one, one each. A uniform move over the list is then: draw a
//! generator uniformly among those not yet tried, run it alone, keep its move if it yields one, else drop it and
//! draw again (the first generator with a move, in a uniformly random order, is uniform over the generators
//! with a move). When every generator is rejected the position has no move of its own: the caller lists it
//! the usual way (which gives the forced pass or the empty list the end conditions read).
//!
//! The proof, decided once per game (only for games where `Engine::flat` holds and no count plan applies):
//! * nothing chooses among or reorders whole moves: no move priorities, no move type per turn, no deferred
//!   captures, shared pieces or stacks;
//! * every piece program is a *leap*: a straight line of steps, `verify`s and one `add` (no partial, at most
//!   one promotion, no copy). Its destination is a fixed path from the piece's square, so two programs of one
//!   piece can only meet on a square if, for some square and some player's navigation, their paths end on the
//!   same square; then their last tests of that square must exclude each other (`empty?` against `enemy?`, ...);
//! * the game has at most one drop program, whose one `add` is outside every loop, reached with the cursor
//!   surely on the drop square (`drop_flow::analyse`: a data-flow analysis of the cursor and the mark; no
//!   `go` but to the mark, no `to`, `from`, `choose`, cascade or slide, and of the tree instructions only
//!   those that change pieces in place or set flags).
//!
//! A single-part move's list entries merge only when they share their (from, to) (`compose::may_share_ends`):
//! pieces stand on different squares, a drop has no `from`, and the destinations above are distinct.
//!
//! Two rules judge the list without breaking that correspondence, and the draw follows them:
//! * a pass that is always a move (`(option "pass turn" true)`, Go) is one more entry, never merged with a
//!   move: it is one more slot and one more generator, which always yields the pass. When the pass is drawn,
//!   the end conditions still need to know whether the list holds another move (`stalemated` reads it): the
//!   remaining generators are run until one yields ([`Drawn::Pass`]);
//! * a repetition rule (`forbid-repetition`, ko and superko) removes from the list each move whose position
//!   after it the rule forbids, each judged alone (`groups::filter_listed`): a generator whose move is
//!   forbidden yields nothing (`groups::PartJudge`, the same judgement on the one part run).
//!
//! Where the drop program has a *guard* (`drop_flow::analyse`: its `add` is reached only on paths that found
//! an enemy next to the drop square, directly or through a flag or position flag set only on such paths, as
//! in othello however it is spelled), a drawn drop square with no piece but the mover's next to it in the
//! guard's directions is known to yield nothing: it is drawn as before (the same random stream, the same
//! games) but not run.

use super::gen::Emissions;
use super::groups::PartJudge;
use super::run::{Mode, Run};
use super::state::{Piece, State};
use super::EngineError;
use crate::compile::code::{Code, Op, Test, FAIL};
use crate::compile::*;

thread_local! {
    /// The run's vector of changes of this thread's draws in drop games with flank lines (see `draw_tries`).
    static CHANGES: std::cell::Cell<Vec<super::moves::Action>> = const { std::cell::Cell::new(Vec::new()) };
}

/// [`super::playout::below`] for many draws below one `n`: the same values from the same random stream, with
/// the rejection zone computed once and a power of two reduced by a mask, so that a draw divides at most once
/// (a 64-bit division costs tens of cycles; othello's 64 drop slots need none).
#[derive(Clone, Copy, Debug)]
pub struct Below {
    n: u64,
    zone: u64,
    mask: Option<u64>,
}

impl Below {
    /// Draws below `n` (n > 0).
    pub fn new(n: usize) -> Below {
        let n = n as u64;
        Below {
            n,
            zone: u64::MAX - u64::MAX % n,
            mask: n.is_power_of_two().then(|| n - 1),
        }
    }

    /// `below(rng, n)`.
    #[inline(always)]
    pub fn draw(&self, rng: &mut impl rand_core::RngCore) -> usize {
        loop {
            let x = rng.next_u64();
            if x < self.zone {
                return match self.mask {
                    Some(m) => x & m,
                    None => x % self.n,
                } as usize;
            }
        }
    }
}

/// What the proof accepted: generators can be sampled.
#[derive(Clone, Debug)]
pub struct SamplePlan {
    /// The one drop program, if any: (piece type, index into its drops).
    drop: Option<(PieceType, usize)>,
    /// Every path of the drop program to its `add` found its square empty (`drop_flow::analyse`): occupied
    /// squares are no generators.
    drop_needs_empty: bool,
    /// The most move programs a piece type has.
    max_progs: usize,
    /// The drop program's guard (`drop_flow::analyse`), as neighbour masks: drop squares it proves barren are
    /// not run.
    drop_guard: Option<Guard>,
    /// The squares a drop may be made on (the board's, not the off-board ones), as bitset words.
    drop_squares: Vec<u64>,
    /// The pass is always a move (`PassTurn::Yes`): one more slot and generator, which yields the pass.
    pass: bool,
}

/// What [`SamplePlan::draw`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Drawn {
    /// A move, the one part in the draw's `out`.
    Move,
    /// The pass (a game whose pass is always a move); `others`: the list holds another move too.
    Pass { others: bool },
    /// No generator yields a move and there is no pass of the plan's own: the position has no move of its own
    /// (the caller lists it, which gives the forced pass or the empty list).
    Nothing,
}

/// A flank guard's neighbour masks: per navigation table (player) and square, the squares next to it in the
/// guard's directions, as bitset words (boards of up to 256 squares).
#[derive(Clone, Debug)]
struct Guard {
    words: usize,
    /// `masks[(nav * positions + pos) * words + w]`.
    masks: Vec<u64>,
    positions: usize,
}

/// Boards up to this many squares get a guard (its words fit the fixed scratch of a draw).
const GUARD_SQUARES: usize = 256;

impl Guard {
    fn new(game: &Game, dirs: &[Dir]) -> Option<Guard> {
        let positions = game.board.positions.len();
        if positions > GUARD_SQUARES {
            return None;
        }
        let words = positions.div_ceil(64);
        let nd = game.board.directions.len();
        let mut masks = vec![0u64; game.board.nav.len() * positions * words];
        for (k, nav) in game.board.nav.iter().enumerate() {
            for at in 0..positions {
                for d in dirs {
                    match nav.get(at * nd + d.idx()) {
                        Some(&q) if q != NO_POS => {
                            let q = q as usize;
                            masks[(k * positions + at) * words + (q >> 6)] |= 1 << (q & 63);
                        }
                        _ => {}
                    }
                }
            }
        }
        Some(Guard {
            words,
            masks,
            positions,
        })
    }

    /// The squares of pieces not `player`'s (every enemy's among them), for [`Guard::barren`].
    fn others(&self, state: &State, player: Player) -> Option<[u64; GUARD_SQUARES / 64]> {
        if state.occupancy_words() != self.words {
            return None;
        }
        let mut others = [0u64; GUARD_SQUARES / 64];
        // Every owner's bitset, those past the game's players included (`State::occupancy` is empty past the last).
        for k in 0..=u8::MAX {
            let occ = state.occupancy(Player(k));
            if occ.is_empty() {
                break;
            }
            if Player(k) != player {
                for (o, w) in others.iter_mut().zip(occ) {
                    *o |= w;
                }
            }
        }
        Some(others)
    }

    /// Whether the drop on `at` surely yields nothing for `player`: no piece but the mover's next to it in the
    /// guard's directions (after `player`'s symmetry), so no enemy either.
    #[inline]
    fn barren(&self, player: Player, at: Pos, others: &[u64; GUARD_SQUARES / 64]) -> bool {
        let base = (player.idx() * self.positions + at.idx()) * self.words;
        match self.masks.get(base..base + self.words) {
            Some(m) => m.iter().zip(others).all(|(m, o)| m & o == 0),
            // A player without a navigation table of its own: no claim.
            None => false,
        }
    }
}

/// One generator: a piece program (`prog` into the piece's moves) from the piece on `at`, or the drop program
/// on `at` (`drop`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Generator {
    pub at: Pos,
    pub prog: u16,
    pub drop: bool,
}

/// Decides whether generators of `game` can be sampled (see the module). The caller checks `Engine::flat`.
pub fn plan(game: &Game) -> Result<SamplePlan, String> {
    if !game.move_priorities.is_empty() {
        return Err("move priorities".into());
    }
    if game
        .turn_order
        .entries
        .iter()
        .any(|e| e.move_type.is_some())
    {
        return Err("a turn of one move type".into());
    }
    if game.options.deferred_captures || game.options.shared_pieces || game.stacks {
        return Err("deferred captures, shared pieces or stacks".into());
    }
    if game.options.move_memory {
        return Err(
            "the memory of a composite move (visited?, last-direction?, turn-variables)".into(),
        );
    }
    if game.options.detect_loops {
        return Err(
            "detect loops: a composite move's later parts are judged by the squares before them"
                .into(),
        );
    }
    if !game.board.rotations.is_empty() {
        return Err("board rotations: moves from different squares may leave one board".into());
    }
    let nd = game.board.directions.len();
    // The pairwise check below walks every square for every player: bounded, a huge game is refused.
    let mut budget: usize = 20_000_000;
    for piece in &game.pieces {
        let mut leaps = vec![];
        for p in &piece.moves {
            leaps.push(
                leap(&p.code).ok_or_else(|| format!("{}: a program is no leap", piece.name))?,
            );
        }
        // Two programs of one piece that reach one square from one square must exclude each other there.
        for (i, a) in leaps.iter().enumerate() {
            for b in &leaps[i + 1..] {
                if exclusive(&a.1, &b.1) {
                    continue;
                }
                let cost =
                    game.board.nav.len() * game.board.positions.len() * (a.0.len() + b.0.len() + 1);
                budget = budget
                    .checked_sub(cost)
                    .ok_or("too large to check where programs lead")?;
                for nav in &game.board.nav {
                    for at in 0..game.board.positions.len() {
                        let (x, y) = (walk(nav, nd, at, &a.0), walk(nav, nd, at, &b.0));
                        if x.is_some() && x == y {
                            return Err(format!("{}: two programs reach one square", piece.name));
                        }
                    }
                }
            }
        }
    }
    let mut drop = None;
    let mut drop_needs_empty = false;
    let mut drop_guard = None;
    for (t, piece) in game.pieces.iter().enumerate() {
        for (k, p) in piece.drops.iter().enumerate() {
            if drop.is_some() {
                return Err("two drop programs".into());
            }
            let Some(flow) = super::drop_flow::analyse(&p.code) else {
                return Err(format!(
                    "{}: a drop program not proved in place",
                    piece.name
                ));
            };
            drop = Some((PieceType(t as u16), k));
            drop_guard = flow.guard.and_then(|dirs| Guard::new(game, &dirs));
            drop_needs_empty = flow.needs_empty;
        }
    }
    Ok(SamplePlan {
        drop,
        drop_needs_empty,
        max_progs: game.pieces.iter().map(|p| p.moves.len()).max().unwrap_or(0),
        drop_guard,
        drop_squares: {
            let mut w = vec![0u64; game.board.positions.len().div_ceil(64)];
            for (i, info) in game.board.positions.iter().enumerate() {
                if !info.dummy {
                    w[i >> 6] |= 1 << (i & 63);
                }
            }
            w
        },
        pass: game.options.pass_turn == PassTurn::Yes,
    })
}

/// A test the run requires to hold (`true`) or to fail (`false`) on the destination square.
type Required = Vec<(Test, bool)>;

/// A leap: the directions of its steps, and the tests of the destination it requires; `None` if the program
/// is not a straight line of steps, `verify`s and one `add` that emits one part.
fn leap(code: &Code) -> Option<(Vec<Dir>, Required)> {
    let mut dirs = vec![];
    let mut last: Required = vec![];
    let mut adds = 0;
    for (i, op) in code.ops.iter().enumerate() {
        // Nothing after the add but the end.
        if adds == 1 && !(*op == Op::End && i == code.ops.len() - 1) {
            return None;
        }
        match *op {
            Op::Fail if i == 0 => {}
            Op::End if i == code.ops.len() - 1 => {}
            Op::Nop => {}
            Op::Step(d) => {
                dirs.push(d);
                last.clear();
            }
            Op::StepVerify(d, t) => {
                dirs.push(d);
                last.clear();
                last.push((t, true));
            }
            Op::Branch { test, when, to } if to == FAIL => last.push((test, !when)),
            Op::AddPlain if adds == 0 => adds += 1,
            Op::Add(k) if adds == 0 => {
                let a = code.adds.get(k as usize)?;
                if a.partial.is_some() || a.promote.len() > 1 || a.copy {
                    return None;
                }
                adds += 1;
            }
            _ => return None,
        }
    }
    (adds == 1).then_some((dirs, last))
}

/// Whether two sets of required tests of one square cannot hold together.
fn exclusive(a: &Required, b: &Required) -> bool {
    // 0 `empty?`, 1 `friend?`, 2 `enemy?`, 3 a piece of the mover's own, all of the square itself.
    let kind = |t: Test| match t {
        Test::Empty(Loc::Cursor) => Some(0),
        Test::Friend(Loc::Cursor) => Some(1),
        Test::Enemy(Loc::Cursor) => Some(2),
        Test::Mine(Loc::Cursor) => Some(3),
        _ => None,
    };
    a.iter().any(|&(x, vx)| {
        b.iter().any(|&(y, vy)| {
            let (Some(p), Some(q)) = (kind(x), kind(y)) else {
                return false;
            };
            if p == q {
                return vx != vy;
            }
            // Both hold: an empty square holds no piece; an enemy is no friend, nor the mover's own.
            vx && vy && matches!((p, q), (0, _) | (_, 0) | (2, 1) | (2, 3) | (1, 2) | (3, 2))
        })
    })
}

/// Where the steps `dirs` lead from `at` on one navigation table (`None`: off the board).
fn walk(nav: &[u16], nd: usize, at: usize, dirs: &[Dir]) -> Option<u16> {
    let mut p = at;
    for d in dirs {
        let q = *nav.get(p * nd + d.idx())?;
        if q == NO_POS {
            return None;
        }
        p = q as usize;
    }
    Some(p as u16)
}

impl SamplePlan {
    /// Every generator of `player` (moving `owner`'s pieces) in `state`, into `out` (cleared first).
    pub fn generators(&self, game: &Game, state: &State, owner: Player, out: &mut Vec<Generator>) {
        out.clear();
        // No piece has a program (othello): no piece to visit.
        let pieces = if self.max_progs == 0 {
            None
        } else {
            Some(state.pieces_of(owner))
        };
        for at in pieces.into_iter().flatten() {
            let Some(x) = state.cells.get(at.idx()).copied().flatten() else {
                continue;
            };
            if x.dead || x.owner != owner {
                continue;
            }
            let n = game.pieces[x.kind.idx()].moves.len();
            out.extend((0..n).map(|k| Generator {
                at,
                prog: k as u16,
                drop: false,
            }));
        }
        if let Some((t, k)) = self.drop {
            if self.drop_limited(game, t)
                && state.reserves[owner.idx() * game.pieces.len() + t.idx()] == 0
            {
                return;
            }
            for (w, &bits) in self.drop_squares.iter().enumerate() {
                let mut bits = bits;
                while bits != 0 {
                    let i = w * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    if self.drop_needs_empty && state.cells.get(i).is_none_or(|c| c.is_some()) {
                        continue;
                    }
                    out.push(Generator {
                        at: Pos(i as u16),
                        prog: k as u16,
                        drop: true,
                    });
                }
            }
        }
    }

    /// Draws a move uniformly among the legal moves of the player to move (`gens` and `out` are scratch):
    /// [`Drawn::Move`] with the move as the one part in `out`, [`Drawn::Pass`] for the pass that is always a
    /// move, [`Drawn::Nothing`] when no generator yields a move (the position has no move of its own). First
    /// up to [`SamplePlan::tries`] draws with replacement among fixed slots (each slot a generator, the pass,
    /// or nothing: uniform over the generators that yield a move, without listing them), then, if none
    /// yielded, generators drawn among those not yet tried. Each stage alone picks uniformly among the
    /// generators with a move, so their mixture does too.
    #[allow(clippy::too_many_arguments)]
    pub fn draw(
        &self,
        game: &Game,
        state: &State,
        player: Player,
        owner: Player,
        rng: &mut impl rand_core::RngCore,
        gens: &mut Vec<Generator>,
        out: &mut Emissions,
    ) -> Result<Drawn, EngineError> {
        let tries = self.tries(game, state, owner);
        self.draw_tries(game, state, player, owner, rng, gens, out, tries)
    }

    /// How many draws with replacement [`SamplePlan::draw`] makes before it lists the generators: enough that
    /// a position with a fair share of moves rarely needs the list.
    pub fn tries(&self, game: &Game, state: &State, owner: Player) -> usize {
        let (pieces, drops) = self.slots(game, state, owner);
        (pieces + drops) / 2 + 8
    }

    /// The slots of the draw with replacement: the mover's pieces (dead ones included) times the most programs
    /// a piece type has, and the board's positions when there is a drop program.
    pub fn slots(&self, game: &Game, state: &State, owner: Player) -> (usize, usize) {
        let pieces: u32 = state.occupancy(owner).iter().map(|w| w.count_ones()).sum();
        // No drop slots when the drop's reserve is empty (as `gen::parts` skips the type).
        let drops = match self.drop {
            Some((t, _)) if !self.reserve_empty(game, state, owner, t) => {
                game.board.positions.len()
            }
            _ => 0,
        };
        (pieces as usize * self.max_progs, drops)
    }

    /// The generator of drop slot `i` (the drop on position `i`), if it is one: a square of the board, empty
    /// where the drop program needs it (`drop_needs_empty`).
    #[inline(always)]
    fn drop_slot(&self, state: &State, i: usize) -> Option<Generator> {
        let (_, prog) = self.drop?;
        if self
            .drop_squares
            .get(i >> 6)
            .is_none_or(|w| w >> (i & 63) & 1 == 0)
            || (self.drop_needs_empty && state.cells.get(i).is_none_or(|c| c.is_some()))
        {
            return None;
        }
        Some(Generator {
            at: Pos(i as u16),
            prog: prog as u16,
            drop: true,
        })
    }

    /// The generator of slot `k` (see [`SamplePlan::slots`]), if it is one.
    pub fn slot(
        &self,
        game: &Game,
        state: &State,
        owner: Player,
        k: usize,
        pieces: usize,
    ) -> Option<Generator> {
        if k >= pieces {
            return self.drop_slot(state, k - pieces);
        }
        let (mut r, prog) = (k / self.max_progs, k % self.max_progs);
        for (w, &bits) in state.occupancy(owner).iter().enumerate() {
            let c = bits.count_ones() as usize;
            if r >= c {
                r -= c;
                continue;
            }
            let mut bits = bits;
            for _ in 0..r {
                bits &= bits - 1;
            }
            let i = w * 64 + bits.trailing_zeros() as usize;
            let x = state.cells.get(i).copied().flatten()?;
            if x.dead || x.owner != owner || prog >= game.pieces[x.kind.idx()].moves.len() {
                return None;
            }
            return Some(Generator {
                at: Pos(i as u16),
                prog: prog as u16,
                drop: false,
            });
        }
        None
    }

    /// [`SamplePlan::draw`] with `tries` draws with replacement before the list.
    #[allow(clippy::too_many_arguments)]
    pub fn draw_tries(
        &self,
        game: &Game,
        state: &State,
        player: Player,
        owner: Player,
        rng: &mut impl rand_core::RngCore,
        gens: &mut Vec<Generator>,
        out: &mut Emissions,
        tries: usize,
    ) -> Result<Drawn, EngineError> {
        out.clear();
        let (pieces, drops) = self.slots(game, state, owner);
        let mut judge = PartJudge::new(game, state);
        // The pass's slot, after the others.
        let pass = self.pass as usize;
        let mut run = Run::new(game, state, player, Mode::Generate, out);
        run.owner = owner;
        let guard = self
            .drop_guard
            .as_ref()
            .and_then(|g| Some((g, g.others(state, player)?)));
        // A drop the guard proves barren is drawn as before (the same random stream) but not run.
        let barren =
            |g: Generator| g.drop && guard.is_some_and(|(x, o)| x.barren(player, g.at, &o));
        // A drop game with flank lines records its flips in the run's vector of changes: that vector is kept
        // from ply to ply (with its capacity) rather than grown anew each time.
        let keep = pieces == 0 && drops > 0 && guard.is_some();
        if keep {
            run.changes = CHANGES.with(|c| c.take());
        }
        let give_back = |run: &mut Run<'_>| {
            if keep {
                CHANGES.with(|c| c.set(std::mem::take(&mut run.changes)));
            }
        };
        if pieces == 0 && drops > 0 {
            // Drop slots alone (othello, Go): each decided here, the guard's barren squares not run; the pass's
            // slot after them.
            let below_drops = Below::new(drops + pass);
            for _ in 0..tries {
                let k = below_drops.draw(rng);
                if k == drops {
                    let others = self.any_move(game, state, owner, &mut run, gens, &mut judge)?;
                    give_back(&mut run);
                    return Ok(Drawn::Pass { others });
                }
                let Some(g) = self.drop_slot(state, k) else {
                    continue;
                };
                if barren(g) {
                    continue;
                }
                self.run_in(game, state, &mut run, g, &mut judge)?;
                if self.yielded(game, run.out)? {
                    give_back(&mut run);
                    return Ok(Drawn::Move);
                }
            }
        } else if pieces + drops + pass > 0 {
            let below_all = Below::new(pieces + drops + pass);
            for _ in 0..tries {
                let k = below_all.draw(rng);
                if k == pieces + drops {
                    let others = self.any_move(game, state, owner, &mut run, gens, &mut judge)?;
                    give_back(&mut run);
                    return Ok(Drawn::Pass { others });
                }
                let Some(g) = self.slot(game, state, owner, k, pieces) else {
                    continue;
                };
                if barren(g) {
                    continue;
                }
                self.run_in(game, state, &mut run, g, &mut judge)?;
                if self.yielded(game, run.out)? {
                    give_back(&mut run);
                    return Ok(Drawn::Move);
                }
            }
        }
        self.generators(game, state, owner, gens);
        // The pass, while not drawn, stands after the generators.
        let pass_left = self.pass;
        while !gens.is_empty() || pass_left {
            let k = super::playout::below(rng, gens.len() + pass_left as usize);
            if k == gens.len() {
                // Every generator not yet tried may still yield (those tried did not).
                let mut others = false;
                while let Some(g) = gens.pop() {
                    if barren(g) {
                        continue;
                    }
                    self.run_in(game, state, &mut run, g, &mut judge)?;
                    if self.yielded(game, run.out)? {
                        others = true;
                        break;
                    }
                }
                run.out.clear();
                give_back(&mut run);
                return Ok(Drawn::Pass { others });
            }
            let g = gens.swap_remove(k);
            if barren(g) {
                continue;
            }
            self.run_in(game, state, &mut run, g, &mut judge)?;
            if self.yielded(game, run.out)? {
                give_back(&mut run);
                return Ok(Drawn::Move);
            }
        }
        give_back(&mut run);
        Ok(Drawn::Nothing)
    }

    /// Whether some generator of `owner` yields a move (the pass aside), for the pass drawn with replacement:
    /// the end conditions read whether the list holds another move. Leaves `run`'s output empty.
    fn any_move(
        &self,
        game: &Game,
        state: &State,
        owner: Player,
        run: &mut Run<'_>,
        gens: &mut Vec<Generator>,
        judge: &mut Option<PartJudge<'_>>,
    ) -> Result<bool, EngineError> {
        self.generators(game, state, owner, gens);
        let player = run.player;
        for &g in gens.iter() {
            if self.skips(state, player, g) {
                continue;
            }
            self.run_in(game, state, run, g, judge)?;
            if self.yielded(game, run.out)? {
                run.out.clear();
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Whether the draw skips generator `g` of `player` without running it: a drop on a square the drop
    /// program's guard proves barren (see `drop_flow::analyse`). Such a generator yields nothing.
    pub fn skips(&self, state: &State, player: Player, g: Generator) -> bool {
        g.drop
            && self.drop_guard.as_ref().is_some_and(|x| {
                x.others(state, player)
                    .is_some_and(|o| x.barren(player, g.at, &o))
            })
    }

    /// Whether the drop program has a flank guard (for the tests).
    pub fn has_drop_guard(&self) -> bool {
        self.drop_guard.is_some()
    }

    /// Whether the generator just run yielded its move (an error if it yielded more than one part).
    fn yielded(&self, game: &Game, out: &Emissions) -> Result<bool, EngineError> {
        match out.len() {
            0 => Ok(false),
            1 => Ok(true),
            n => Err(EngineError::Inconsistent {
                game: game.title.clone(),
                what: format!("a sampled move generator yielded {n} parts"),
            }),
        }
    }

    /// Whether drops of `kind` are limited by the reserve and `owner`'s is empty.
    fn reserve_empty(&self, game: &Game, state: &State, owner: Player, kind: PieceType) -> bool {
        self.drop_limited(game, kind)
            && state
                .reserves
                .get(owner.idx() * game.pieces.len() + kind.idx())
                .is_none_or(|&n| n == 0)
    }

    fn drop_limited(&self, game: &Game, kind: PieceType) -> bool {
        game.captures_to_hand.is_some() || game.setup.reserves.iter().any(|r| r.1 == kind)
    }

    /// Runs one generator alone, its parts into `out` (at most one, by the proof).
    pub fn run(
        &self,
        game: &Game,
        state: &State,
        player: Player,
        owner: Player,
        g: Generator,
        out: &mut Emissions,
    ) -> Result<(), EngineError> {
        let mut run = Run::new(game, state, player, Mode::Generate, out);
        run.owner = owner;
        self.run_in(game, state, &mut run, g, &mut PartJudge::new(game, state))
    }

    /// [`SamplePlan::run`] in a run context set up for the player (reused from generator to generator, as
    /// `gen::parts` reuses one for all programs), its move dropped if `judge` (the repetition rule) forbids it.
    fn run_in(
        &self,
        game: &Game,
        state: &State,
        run: &mut Run<'_>,
        g: Generator,
        judge: &mut Option<PartJudge<'_>>,
    ) -> Result<(), EngineError> {
        self.exec(game, state, run, g)?;
        if let Some(j) = judge {
            if run.out.len() == 1 && j.forbids(game, run.out) {
                run.out.clear();
            }
        }
        Ok(())
    }

    /// Runs generator `g` in `run`.
    fn exec(
        &self,
        game: &Game,
        state: &State,
        run: &mut Run<'_>,
        g: Generator,
    ) -> Result<(), EngineError> {
        if g.drop {
            let Some((t, k)) = self.drop else {
                return Ok(());
            };
            let limited = self.drop_limited(game, t);
            run.exec(
                &game.pieces[t.idx()].drops[k],
                g.at,
                None,
                Some((t, limited)),
            )?;
        } else {
            let Some(x) = state.cells.get(g.at.idx()).copied().flatten() else {
                return Ok(());
            };
            let x: Piece = x;
            let Some(prog) = game.pieces[x.kind.idx()].moves.get(g.prog as usize) else {
                return Ok(());
            };
            run.exec(prog, g.at, Some(x), None)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::playout::{below, game_rng};

    /// `Below` draws what `below` draws, from the same stream, for powers of two and others.
    #[test]
    fn below_once_is_below() {
        let ns = (1..=130)
            .chain([
                255,
                256,
                257,
                1 << 20,
                (1 << 20) + 3,
                usize::MAX / 3 + 1,
                usize::MAX,
            ])
            .collect::<Vec<_>>();
        for (k, &n) in ns.iter().enumerate() {
            let (mut a, mut b) = (game_rng(9, k as u64), game_rng(9, k as u64));
            let fast = Below::new(n);
            for _ in 0..500 {
                assert_eq!(fast.draw(&mut a), below(&mut b, n), "n = {n}");
            }
        }
    }
}
