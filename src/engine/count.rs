//! Count-only move generation for random playouts (issue 11, step 5).
//!
//! A uniform random playout needs the number of legal moves and one of them, not the list. Where a load-time
//! analysis ([`plan`]) proves that every path of the composite-move tree is a move of its own (no two paths
//! have the same net effect, so `compose` merges none, and no path is dropped), the number of moves is a sum
//! of ray lengths, counted on the board as it stands, and a playout can draw an index into the list
//! `compose::generate_into` would build and build only the move at that index ([`CountPlan::build`]), with
//! the real interpreter. The same random draws then pick the same moves: the games of a seed do not change.
//!
//! The analysis is narrow on purpose. It accepts the shape of the Game of the Amazons and nothing else:
//! * a first part that slides the piece along a ray over empty squares, adding on each (`(d (while empty?
//!   (add-partial T) d))`, or a plain `add`: then the part is a move of its own);
//! * continuations of type `T` that each shoot along a ray from the piece's new square, putting a new piece of
//!   another type on each empty square (`(d (while empty? mark (create X) (go from) to add back d))`);
//! * on a board where, from every position and for every player, the rays of one piece type's slides (and
//!   those of one continuation's shots) never cross, never meet each other and never come back.
//!
//! Why no two paths merge: a move is its piece's start square `A` (which the merge key keeps apart), the
//! square `B` it slides to, and perhaps the square `C` of the new piece. Disjoint rays give distinct `B`s
//! from one `A`, and distinct `C`s from one `B`; after the move, `B` holds the moved piece (of type `K`) and
//! `C` a piece of another type `X`, so `(B, C)` can be read back from the board: different paths leave
//! different boards. A first part with no continuation is a move (it adds one piece fewer than any other).
//! The composer's other filter (a continuation back to a state of its own chain is dropped) never applies: a
//! shot adds a piece, so it leaves a board with more pieces than any state before it.
//!
//! The count itself needs no interpreter: after the slide `A -> B`, a square is empty where it was empty
//! before, or where it is `A` (`B` is never on a ray from `B`: rays do not come back).

use super::apply::{make_part, unmake, Undo};
use super::gen::Emissions;
use super::movelist::MoveList;
use super::run::{Mode, Run};
use super::state::State;
use super::EngineError;
use crate::compile::*;

/// Boards with more positions are not analysed. With this bound no program run of an accepted game can reach
/// the interpreter's step budget (3 steps a square of a ray) or its limit on emitted actions.
const MAX_POSITIONS: usize = 1024;
/// A position with more first parts, or more moves, than this is listed the usual way (whose limits on a
/// position's moves then apply as before).
const MAX_PREFIXES: usize = 16_384;
const MAX_MOVES: usize = 100_000;

/// What the analysis found for a game it accepts (see the module's paragraph): per turn-order entry, per
/// piece type, the rays its moves follow.
#[derive(Clone, Debug)]
pub struct CountPlan {
    turns: Vec<TurnPlan>,
    /// Per player (its navigation), where the board allows: the rays as bitboards (see [`Rays`]).
    rays: Option<Vec<Rays>>,
}

/// The rays of a board of at most 128 positions whose every ray in one direction runs through increasing
/// position indices, or every one through decreasing ones (a grid numbered row by row): the length of the
/// empty run from a square is then read from a bitboard of the occupied squares without a branch, the first
/// piece on the ray being its lowest bit (bits reversed for decreasing directions).
#[derive(Clone, Debug)]
struct Rays {
    np: usize,
    /// `rays[dir * np + pos]`: the squares of the ray, to the edge of the board (reversed: bit 127 - q), and
    /// how many they are.
    rays: Vec<(u128, i32)>,
    /// Per direction: whether its rays run through decreasing indices.
    reversed: Vec<bool>,
    /// `edge_at[dir][bit]`: how many squares the ray from the square at that bit of the direction's masks has;
    /// -1 at bit 128 (no piece on the ray).
    edge_at: Vec<[i32; 129]>,
}

impl Rays {
    /// The rays of one player's navigation, if the board has the shape [`Rays`] needs.
    fn of(nav: &[u16], np: usize, nd: usize) -> Option<Rays> {
        if np > 128 {
            return None;
        }
        let mut r = Rays {
            np,
            rays: vec![(0, 0); nd * np],
            reversed: vec![false; nd],
            edge_at: vec![[-1; 129]; nd],
        };
        for d in 0..nd {
            let (mut up, mut down) = (false, false);
            for a in 0..np {
                let t = nav[a * nd + d];
                if t != NO_POS {
                    up |= (t as usize) > a;
                    down |= (t as usize) < a;
                }
            }
            if up && down {
                return None;
            }
            r.reversed[d] = down;
            let bit = |q: usize| if down { 127 - q } else { q };
            for a in 0..np {
                let (mut q, mut n, mut mask) = (a, 0, 0u128);
                // Rays were checked not to come back: each ends within `np` steps.
                loop {
                    let t = nav[q * nd + d];
                    if t == NO_POS || n > np {
                        break;
                    }
                    q = t as usize;
                    mask |= 1u128 << bit(q);
                    n += 1;
                }
                r.rays[d * np + a] = (mask, n as i32);
                r.edge_at[d][bit(a)] = n as i32;
            }
        }
        Some(r)
    }

    /// The occupied squares as direction `d`'s masks see them, from the bitboard and its reverse.
    #[inline(always)]
    fn occupied(&self, d: usize, occ: u128, rev: u128) -> u128 {
        if self.reversed[d] {
            rev
        } else {
            occ
        }
    }

    /// The empty squares from `pos` in direction `d` before the first piece, given the occupied squares as
    /// [`Rays::occupied`] gives them for `d`.
    #[inline(always)]
    fn run(&self, pos: usize, d: usize, occ: u128) -> u32 {
        let (mask, edge) = self.rays[d * self.np + pos];
        let first = (mask & occ).trailing_zeros() as usize;
        (edge - self.edge_at[d][first.min(128)] - 1) as u32
    }
}

#[derive(Clone, Debug)]
struct TurnPlan {
    /// Per piece type.
    pieces: Vec<PiecePlan>,
}

#[derive(Clone, Debug, Default)]
struct PiecePlan {
    /// The first parts, one program each, in program order: the direction of the slide, what continues it
    /// (an index into `shoots`; `None`: the part is a move of its own), the program (in the piece's moves).
    slides: Vec<(Dir, Option<usize>, usize)>,
    /// Per continuation type: the directions of its shots and their programs, in program order.
    shoots: Vec<(MoveType, Vec<(Dir, usize)>)>,
}

/// One first part of the position counted: the piece's square, the square it slides to, its slide (an index
/// into the piece's plan), the part's index among that slide's parts, and the moves that start with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Prefix {
    pub from: Pos,
    pub to: Pos,
    pub slide: u16,
    pub along: u16,
    pub moves: u32,
}

/// What counting and building reuse from ply to ply: the first parts of the position counted, which squares
/// are empty, the interpreter's output and an undo log.
#[derive(Default)]
pub struct Counter {
    pub prefixes: Vec<Prefix>,
    empty: Vec<bool>,
    em: Emissions,
    undo: Undo,
}

/// The legal moves of a position, counted: moves other than the pass, and whether the pass is a move too (it
/// comes last in the list).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counted {
    pub moves: usize,
    pub pass: bool,
}

impl Counted {
    /// Every legal move, the pass included.
    pub fn total(&self) -> usize {
        self.moves + self.pass as usize
    }
}

/// Decides whether the count-only mode applies to a game whose legal moves no rule judges once generated
/// (`Engine::flat`); the reason when it does not.
pub fn plan(game: &Game) -> Result<CountPlan, &'static str> {
    let o = &game.options;
    if o.deferred_captures || game.stacks {
        return Err("deferred captures or stacks");
    }
    if o.move_memory {
        return Err("the memory of a composite move: later parts read the squares before them");
    }
    if o.detect_loops {
        return Err(
            "detect loops: a composite move's later parts are judged by the squares before them",
        );
    }
    if !game.board.rotations.is_empty() {
        return Err("board rotations: a move also turns pieces on other squares");
    }
    if o.pass_partial {
        return Err("pass partial: a first part may end the move beside its continuations");
    }
    if !game.phases.is_empty() || !game.extensions.is_empty() {
        return Err("phases or extension modules");
    }
    let np = game.board.positions.len();
    if np > MAX_POSITIONS {
        return Err("board too large");
    }
    let nd = game.board.directions.len();
    for nav in &game.board.nav {
        if nav.len() != np * nd || nav.iter().any(|&t| t != NO_POS && t as usize >= np) {
            return Err("navigation table");
        }
    }
    let mut turns = vec![];
    // Direction sets already checked (sorted), with the verdict: the turns of a game share them.
    let mut checked: Vec<(Vec<Dir>, bool)> = vec![];
    let apart = |checked: &mut Vec<(Vec<Dir>, bool)>, mut dirs: Vec<Dir>| {
        dirs.sort();
        if let Some(c) = checked.iter().find(|c| c.0 == dirs) {
            return c.1;
        }
        let ok = rays_apart(game, &dirs);
        checked.push((dirs, ok));
        ok
    };
    for entry in &game.turn_order.entries {
        let types = match entry.move_type {
            Some(t) => Some(t),
            None if game.move_priorities.is_empty() => None,
            None => return Err("move priorities"),
        };
        let wanted = |p: &MoveProgram| types.is_none() || p.move_type == types;
        let mut pieces = vec![];
        for (k, piece) in game.pieces.iter().enumerate() {
            if piece.drops.iter().any(wanted) {
                return Err("drops");
            }
            let mut pp = PiecePlan::default();
            for (pi, prog) in piece.moves.iter().enumerate().filter(|p| wanted(p.1)) {
                let Some((d, cont)) = slide(&prog.body) else {
                    return Err("a first part that is not a slide adding on empty squares");
                };
                let cont = match cont {
                    None => None,
                    Some(None) => return Err("a continuation of any type"),
                    Some(Some(t)) => Some(match pp.shoots.iter().position(|s| s.0 == t) {
                        Some(i) => i,
                        None => {
                            let mut dirs = vec![];
                            let of_t = piece.moves.iter().enumerate();
                            for (qi, q) in of_t.filter(|q| q.1.move_type == Some(t)) {
                                match shot(&q.body) {
                                    Some((d, x)) if x.idx() != k => dirs.push((d, qi)),
                                    Some(_) => {
                                        return Err(
                                            "a shot that creates a piece of the moving type",
                                        )
                                    }
                                    None => {
                                        return Err("a continuation that is not a shot onto empty \
                                                    squares")
                                    }
                                }
                            }
                            pp.shoots.push((t, dirs));
                            pp.shoots.len() - 1
                        }
                    }),
                };
                pp.slides.push((d, cont, pi));
            }
            let dirs: Vec<Dir> = pp.slides.iter().map(|s| s.0).collect();
            if !apart(&mut checked, dirs) {
                return Err("rays of the first parts that meet or come back");
            }
            for (_, shots) in &pp.shoots {
                if !apart(&mut checked, shots.iter().map(|s| s.0).collect()) {
                    return Err("rays of the shots that meet or come back");
                }
            }
            pieces.push(pp);
        }
        turns.push(TurnPlan { pieces });
    }
    let rays = game
        .board
        .nav
        .iter()
        .map(|nav| Rays::of(nav, np, nd))
        .collect::<Option<Vec<_>>>();
    Ok(CountPlan { turns, rays })
}

/// `(d (while empty? (add...) d))` with a plain `add` or `add-partial`: the direction and the `partial`.
fn slide(body: &[Instr]) -> Option<(Dir, Option<Option<MoveType>>)> {
    match body {
        [Instr::Step(d), Instr::While(Cond::Empty(Loc::Cursor), inner)] => match &inner[..] {
            [Instr::Add {
                promote,
                copy: false,
                partial,
            }, Instr::Step(e)]
                if promote.is_empty() && e == d =>
            {
                Some((*d, *partial))
            }
            _ => None,
        },
        _ => None,
    }
}

/// `(d (while empty? mark (create X) (go from) to add back d))`: the direction and the type created.
fn shot(body: &[Instr]) -> Option<(Dir, PieceType)> {
    match body {
        [Instr::Step(d), Instr::While(Cond::Empty(Loc::Cursor), inner)] => match &inner[..] {
            [Instr::Mark, Instr::Create {
                piece: Some(x),
                at: Loc::Cursor,
                ..
            }, Instr::Go(GoTarget::From), Instr::To, Instr::Add {
                promote,
                copy: false,
                partial: None,
            }, Instr::Back, Instr::Step(e)]
                if promote.is_empty() && e == d =>
            {
                Some((*d, *x))
            }
            _ => None,
        },
        _ => None,
    }
}

/// Whether, for every player's navigation and from every position, the rays in `dirs` visit no square twice
/// and never the start: then the squares they reach are distinct.
fn rays_apart(game: &Game, dirs: &[Dir]) -> bool {
    let np = game.board.positions.len();
    let nd = game.board.directions.len();
    let mut seen = vec![usize::MAX; np];
    for nav in &game.board.nav {
        for a in 0..np {
            seen[a] = a;
            for d in dirs {
                let mut p = a;
                loop {
                    let t = nav.get(p * nd + d.idx()).copied().unwrap_or(NO_POS);
                    if t == NO_POS {
                        break;
                    }
                    let t = t as usize;
                    if t >= np || seen[t] == a {
                        return false;
                    }
                    seen[t] = a;
                    p = t;
                }
            }
        }
        seen.iter_mut().for_each(|x| *x = usize::MAX);
    }
    true
}

impl CountPlan {
    /// The same plan counting by walking the rays square by square, as on boards that have no bitboards (for
    /// tests: both ways must count alike).
    pub fn without_bitboards(&self) -> CountPlan {
        CountPlan {
            turns: self.turns.clone(),
            rays: None,
        }
    }

    /// Counts the legal moves of `s`, noting every first part in `c.prefixes`; `None` when the position is
    /// too big to count (then list it). The same count as `compose::generate_into`'s list.
    pub fn count(&self, game: &Game, s: &State, c: &mut Counter) -> Option<Counted> {
        c.prefixes.clear();
        let entry = &game.turn_order.entries[s.turn];
        let turn = &self.turns[s.turn];
        let nd = game.board.directions.len();
        let np = s.cells.len();
        let nav: &[u16] = game.board.nav.get(entry.player.idx())?;
        if nav.len() != np * nd {
            return None;
        }
        let shared = game.options.shared_pieces;
        let mut total = 0usize;
        let rays = self.rays.as_ref().and_then(|r| r.get(entry.player.idx()));
        if let Some(rays) = rays.filter(|r| r.np == np) {
            let mut occ = 0u128;
            for (q, x) in s.cells.iter().enumerate() {
                occ |= (x.is_some() as u128) << q;
            }
            let rev = occ.reverse_bits();
            for a in 0..np {
                let Some(x) = s.cells[a] else { continue };
                if x.dead || (x.owner != entry.moves_as && !shared) {
                    continue;
                }
                let Some(pp) = turn.pieces.get(x.kind.idx()) else {
                    continue;
                };
                // After the slide, the start is empty; the square slid to is on none of its own rays.
                let (occ_a, rev_a) = (occ & !(1u128 << a), rev & !(1u128 << (127 - a)));
                for (si, &(d, cont, _)) in pp.slides.iter().enumerate() {
                    let d = d.idx();
                    let mut b = a;
                    for along in 0..rays.run(a, d, rays.occupied(d, occ, rev)) as u16 {
                        b = nav[b * nd + d] as usize;
                        let moves = match cont {
                            None => 1,
                            Some(k) => {
                                let mut n = 0;
                                for &(e, _) in &pp.shoots[k].1 {
                                    let e = e.idx();
                                    n += rays.run(b, e, rays.occupied(e, occ_a, rev_a));
                                }
                                // Without a shot the slide is a move of its own.
                                n.max(1)
                            }
                        };
                        total += moves as usize;
                        c.prefixes.push(Prefix {
                            from: Pos(a as u16),
                            to: Pos(b as u16),
                            slide: si as u16,
                            along,
                            moves,
                        });
                    }
                }
                if c.prefixes.len() > MAX_PREFIXES || total > MAX_MOVES {
                    return None;
                }
            }
            return Some(self.with_pass(game, s, total));
        }
        let empty = &mut c.empty;
        empty.clear();
        empty.extend(s.cells.iter().map(|x| x.is_none()));
        // The squares a ray from `p` in `d` crosses while they are empty (NO_POS stops it: not a square).
        let run = |empty: &[bool], p: usize, d: Dir| -> u32 {
            let mut n = 0;
            let mut q = p;
            loop {
                let t = nav[q * nd + d.idx()];
                if !empty.get(t as usize).copied().unwrap_or(false) {
                    return n;
                }
                n += 1;
                q = t as usize;
            }
        };
        for a in 0..np {
            let Some(x) = s.cells[a] else { continue };
            if x.dead || (x.owner != entry.moves_as && !shared) {
                continue;
            }
            let Some(pp) = turn.pieces.get(x.kind.idx()) else {
                continue;
            };
            // After the slide, the start is empty; the square slid to is on none of its own rays.
            empty[a] = true;
            for (si, &(d, cont, _)) in pp.slides.iter().enumerate() {
                let mut b = a;
                let mut along = 0u16;
                loop {
                    let t = nav[b * nd + d.idx()] as usize;
                    // The start is empty for the shots only: a slide never comes back to it.
                    if t == a || !empty.get(t).copied().unwrap_or(false) {
                        break;
                    }
                    b = t;
                    let moves = match cont {
                        None => 1,
                        Some(k) => {
                            let n: u32 =
                                pp.shoots[k].1.iter().map(|&(e, _)| run(empty, b, e)).sum();
                            // Without a shot the slide is a move of its own (it is no `add-partial-required`).
                            n.max(1)
                        }
                    };
                    total += moves as usize;
                    c.prefixes.push(Prefix {
                        from: Pos(a as u16),
                        to: Pos(b as u16),
                        slide: si as u16,
                        along,
                        moves,
                    });
                    along += 1;
                }
            }
            empty[a] = false;
            if c.prefixes.len() > MAX_PREFIXES || total > MAX_MOVES {
                return None;
            }
        }
        Some(self.with_pass(game, s, total))
    }

    /// The count of `total` moves and the pass, where it is one (as `compose::generate_into` adds it).
    fn with_pass(&self, game: &Game, s: &State, total: usize) -> Counted {
        let pass = match game.options.pass_turn {
            PassTurn::Yes => true,
            PassTurn::Forced => total == 0 && (s.passes as usize) < game.players.len(),
            _ => false,
        };
        Counted { moves: total, pass }
    }

    /// Puts move `i` of the list of `s` into `out` (cleared first) as its only move, given the count and what
    /// [`CountPlan::count`] left in `c` for this same `s` (its prefixes, its empty squares): the first part and the continuation at their
    /// indices, each emitted by the interpreter running its one program, as the composer would. `s` is left as
    /// it was.
    pub fn build(
        &self,
        game: &Game,
        s: &mut State,
        counted: Counted,
        i: usize,
        c: &mut Counter,
        out: &mut MoveList,
    ) -> Result<(), EngineError> {
        out.clear();
        if i >= counted.moves {
            out.push_pass();
            return Ok(());
        }
        let lost = || EngineError::Inconsistent {
            game: game.title.clone(),
            what: "a counted move could not be built".into(),
        };
        let mut k = i;
        let p = *c
            .prefixes
            .iter()
            .find(|p| {
                let here = k < p.moves as usize;
                if !here {
                    k -= p.moves as usize;
                }
                here
            })
            .ok_or_else(lost)?;
        let entry = &game.turn_order.entries[s.turn];
        let (player, owner) = (entry.player, entry.moves_as);
        let x = s.get(p.from).ok_or_else(lost)?;
        let pp = self.turns[s.turn]
            .pieces
            .get(x.kind.idx())
            .ok_or_else(lost)?;
        let (_, cont, prog) = *pp.slides.get(p.slide as usize).ok_or_else(lost)?;
        let programs = &game.pieces[x.kind.idx()].moves;
        let em = &mut c.em;
        em.clear();
        {
            let mut run = Run::new(game, s, player, Mode::Generate, em);
            run.owner = owner;
            run.exec(&programs[prog], p.from, Some(x), None)?;
        }
        let j = p.along as usize;
        let e = *em.parts.get(j).ok_or_else(lost)?;
        if e.head.to != Some(p.to) {
            return Err(lost());
        }
        let Some(cont) = cont else {
            if k != 0 {
                return Err(lost());
            }
            out.push_emitted(em, &[j]);
            return Ok(());
        };
        // The shot `k`: its program and its index among that program's parts, from the rays' lengths.
        let nd = game.board.directions.len();
        let nav = game.board.nav.get(player.idx()).ok_or_else(lost)?;
        // After the slide, the start is empty and the square slid to is on none of its own rays.
        let empty = |t: usize| t == p.from.idx() || s.cells.get(t).is_some_and(|x| x.is_none());
        let mut shot = None;
        for &(d, q) in &pp.shoots[cont].1 {
            let mut n = 0;
            let mut at = p.to.idx();
            while let Some(&t) = nav.get(at * nd + d.idx()) {
                if !empty(t as usize) {
                    break;
                }
                n += 1;
                at = t as usize;
            }
            if k < n {
                shot = Some(q);
                break;
            }
            k -= n;
        }
        let Some(q) = shot else {
            // No shot at all: the slide alone.
            if k != 0 {
                return Err(lost());
            }
            out.push_emitted(em, &[j]);
            return Ok(());
        };
        make_part(game, s, em.view(j), false, &mut c.undo);
        let base = em.len();
        let r = match s.get(p.to) {
            Some(y) => {
                let mut run = Run::new(game, s, player, Mode::Generate, em);
                run.owner = owner;
                run.exec(&programs[q], p.to, Some(y), None)
            }
            None => Ok(false),
        };
        unmake(s, &mut c.undo);
        r?;
        if base + k >= em.len() {
            return Err(lost());
        }
        out.push_emitted(em, &[j, base + k]);
        Ok(())
    }
}

/// Perft as `Engine::perft_flat` counts it (the same lists, the same end of the game), with the positions of
/// the last level counted by the plan instead of listed.
pub(super) fn perft(
    engine: &super::Engine,
    plan: &CountPlan,
    s: &mut State,
    depth: u32,
    undo: &mut Undo,
    lists: &mut [MoveList],
    c: &mut Counter,
) -> Result<u64, EngineError> {
    if depth == 0 {
        return Ok(1);
    }
    if depth == 1 {
        if let Some(n) = plan.count(engine.game, s, c) {
            let over = engine.outcome_of_count(s, n.total(), n.moves == 0, &[])?;
            return Ok(if over.is_some() { 0 } else { n.total() as u64 });
        }
    }
    let (list, deeper) = lists.split_first_mut().expect("a buffer per depth");
    engine.legal_into(s, list)?;
    if engine.outcome_of_list(s, list, &[])?.is_some() {
        return Ok(0);
    }
    if depth == 1 {
        return Ok(list.len() as u64);
    }
    let mut n = 0;
    for i in 0..list.len() {
        engine.make_listed_in(s, list, i, undo);
        let r = perft(engine, plan, s, depth - 1, undo, deeper, c);
        engine.unmake(s, undo);
        n += r?;
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::read_str;
    use crate::load::compile_source as compile;

    fn game(src: &str) -> Game {
        let read = read_str("inline.zrf", src, std::path::Path::new("."));
        assert!(!read.has_errors(), "{:?}", read.diagnostics);
        let mut diags = vec![];
        let g = compile(&read.games[0], &mut diags);
        assert!(diags.iter().all(|d| !d.is_error()), "{diags:?}");
        g.unwrap()
    }

    /// A small Amazons: `queen` and `shoot` are the directions of the two parts, `arrow` the type shot,
    /// `extra` more forms of the game.
    fn amazons(queen: &str, shoot: &str, arrow: &str, extra: &str, board: &str) -> String {
        let q: String = queen
            .split_whitespace()
            .map(|d| format!("(queen-move {d}) "))
            .collect();
        let a: String = shoot
            .split_whitespace()
            .map(|d| format!("(shoot-arrow {d}) "))
            .collect();
        format!(
            "(define queen-move ($1 (while empty? (add-partial shoot) $1)))
             (define shoot-arrow ($1 (while empty? mark (create {arrow}) (go from) to add back $1)))
             (game (title \"mini\") (players White Black) (turn-order (White queenmove) (Black queenmove))
               {board}
               (piece (name Amazon) (moves (move-type queenmove) {q} (move-type shoot) {a}))
               (piece (name Arrow))
               (board-setup (White (Amazon a1)) (Black (Amazon d4)))
               {extra}
               (loss-condition (White Black) stalemated))"
        )
    }

    const GRID: &str = "(board (grid (dimensions (\"a/b/c/d\" (50 0)) (\"4/3/2/1\" (0 50)))
        (directions (n 0 -1) (ne 1 -1) (e 1 0) (se 1 1) (s 0 1) (sw -1 1) (w -1 0) (nw -1 -1))))";
    /// `up` is `n` under another name.
    const ALIAS: &str = "(board (grid (dimensions (\"a/b/c/d\" (50 0)) (\"4/3/2/1\" (0 50)))
        (directions (n 0 -1) (ne 1 -1) (e 1 0) (se 1 1) (s 0 1) (sw -1 1) (w -1 0) (nw -1 -1) (up 0 -1))))";
    const ALL: &str = "n ne e se s sw w nw";

    fn verdict(src: &str) -> Result<(), &'static str> {
        plan(&game(src)).map(|_| ())
    }

    #[test]
    fn accepts_amazons() {
        assert_eq!(verdict(&amazons(ALL, ALL, "Arrow", "", GRID)), Ok(()));
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("games/amazons.zrf");
        let g = crate::load::load_game(&path, &crate::load::VariantSel::First).unwrap();
        assert!(
            plan(&g).unwrap().rays.is_some(),
            "a 10x10 grid counts on bitboards"
        );
        assert!(crate::engine::Engine::new(&g).count_plan().is_some());
    }

    /// Games where different paths can reach one net effect, or where the count would bypass a rule.
    #[test]
    fn rejects_what_it_cannot_prove() {
        let cases = [
            // Two names for one direction in the shots (identical programs are one program already).
            (amazons(ALL, "n e up", "Arrow", "", ALIAS), "rays of the shots"),
            // The arrow is an amazon: a1-b1 shooting c1 and a1-c1 shooting b1 leave the same board.
            (amazons(ALL, ALL, "Amazon", "", GRID), "creates a piece of the moving type"),
            // `pass partial`: a queen move alone is a move beside its shots.
            (
                amazons(ALL, ALL, "Arrow", "(option \"pass partial\" true)", GRID),
                "pass partial",
            ),
            // Two names for one direction: every queen move twice, merged by the composer.
            (amazons("n e up", ALL, "Arrow", "", ALIAS), "rays of the first parts"),
            // A board that wraps around: a ray comes back to its start.
            (
                amazons(
                    ALL,
                    ALL,
                    "Arrow",
                    "",
                    "(board (grid (dimensions (\"a/b/c/d\" (50 0)) (\"4/3/2/1\" (0 50)))
                       (directions (n 0 -1) (ne 1 -1) (e 1 0) (se 1 1) (s 0 1) (sw -1 1) (w -1 0) (nw -1 -1)))
                       (links e (d1 a1) (d2 a2) (d3 a3) (d4 a4)))",
                ),
                "rays of the first parts",
            ),
        ];
        for (src, why) in cases {
            let v = verdict(&src);
            assert!(
                matches!(v, Err(r) if r.contains(why)),
                "{why}: {v:?}\n{src}"
            );
        }
        // Other shapes: a queen that captures, a shot that lands on anything, move priorities, drops.
        let other = [
            "(define queen-move ($1 (while empty? (add-partial shoot) $1) (verify enemy?) (add-partial shoot)))
             (define shoot-arrow ($1 (while empty? mark (create Arrow) (go from) to add back $1)))",
            "(define queen-move ($1 (while empty? (add-partial shoot) $1)))
             (define shoot-arrow ($1 (while on-board? mark (create Arrow) (go from) to add back $1)))",
        ];
        for defs in other {
            let src = amazons(ALL, ALL, "Arrow", "", GRID);
            let body = src.split_once("(game").unwrap().1;
            let v = verdict(&format!("{defs} (game{body}"));
            assert!(v.is_err(), "{defs}: {v:?}");
        }
        let priorities = amazons(ALL, ALL, "Arrow", "(move-priorities queenmove shoot)", GRID)
            .replace("(turn-order (White queenmove) (Black queenmove))", "");
        assert_eq!(verdict(&priorities), Err("move priorities"));
        let untyped = amazons(ALL, ALL, "Arrow", "", GRID)
            .replace("(turn-order (White queenmove) (Black queenmove))", "");
        assert!(verdict(&untyped).is_err(), "every program is a first part");
    }

    /// A rule that judges moves once generated (a royal piece here) keeps the engine off the count, whatever
    /// the shape of the moves.
    #[test]
    fn legality_rules_keep_the_list() {
        let src = amazons(ALL, ALL, "Arrow", "", GRID).replace(
            "(loss-condition (White Black) stalemated)",
            "(loss-condition (White Black) (checkmated Amazon))",
        );
        let g = game(&src);
        assert!(plan(&g).is_ok(), "the shape alone is accepted");
        assert!(crate::engine::Engine::new(&g).count_plan().is_none());
    }
}
