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
use super::gen::{parts, Emissions, TypeFilter};
use super::movelist::MoveList;
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
}

#[derive(Clone, Debug)]
struct TurnPlan {
    /// The programs of the turn: the entry's move type (`None`: every program, no move priorities).
    types: Option<MoveType>,
    /// Per piece type.
    pieces: Vec<PiecePlan>,
}

#[derive(Clone, Debug, Default)]
struct PiecePlan {
    /// The first parts, one program each, in program order: the direction of the slide and what continues it
    /// (an index into `shoots`; `None`: the part is a move of its own).
    slides: Vec<(Dir, Option<usize>)>,
    /// Per continuation type: the directions of its shots, in program order.
    shoots: Vec<(MoveType, Vec<Dir>)>,
}

/// One first part of the position counted: the piece's square, the square it slides to, the part's index among
/// the parts of that piece's programs (as `gen::parts` emits them), and the moves that start with it.
#[derive(Clone, Copy, Debug)]
pub struct Prefix {
    pub from: Pos,
    pub to: Pos,
    pub index: u32,
    pub moves: u32,
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
            for prog in piece.moves.iter().filter(|p| wanted(p)) {
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
                            for q in piece.moves.iter().filter(|q| q.move_type == Some(t)) {
                                match shot(&q.body) {
                                    Some((d, x)) if x.idx() != k => dirs.push(d),
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
                pp.slides.push((d, cont));
            }
            let mut dirs: Vec<Dir> = pp.slides.iter().map(|s| s.0).collect();
            if !rays_apart(game, &dirs) {
                return Err("rays of the first parts that meet or come back");
            }
            for (_, shots) in &pp.shoots {
                dirs.clone_from(shots);
                if !rays_apart(game, &dirs) {
                    return Err("rays of the shots that meet or come back");
                }
            }
            pieces.push(pp);
        }
        turns.push(TurnPlan { types, pieces });
    }
    Ok(CountPlan { turns })
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
    /// Counts the legal moves of `s`, noting every first part in `prefixes` (cleared first); `None` when the
    /// position is too big to count (then list it). The same count as `compose::generate_into`'s list.
    pub fn count(&self, game: &Game, s: &State, prefixes: &mut Vec<Prefix>) -> Option<Counted> {
        prefixes.clear();
        let entry = &game.turn_order.entries[s.turn];
        let turn = &self.turns[s.turn];
        let nd = game.board.directions.len();
        let nav: &[u16] = game.board.nav.get(entry.player.idx()).map_or(&[], |v| v);
        let step = |p: usize, d: Dir| -> Option<usize> {
            match nav.get(p * nd + d.idx()) {
                Some(&t) if t != NO_POS => Some(t as usize),
                _ => None,
            }
        };
        let cells = &s.cells;
        let shared = game.options.shared_pieces;
        let mut total = 0usize;
        for (a, c) in cells.iter().enumerate() {
            let Some(x) = c else { continue };
            if x.dead || (x.owner != entry.moves_as && !shared) {
                continue;
            }
            let Some(pp) = turn.pieces.get(x.kind.idx()) else {
                continue;
            };
            let mut index = 0u32;
            for &(d, cont) in &pp.slides {
                let mut b = step(a, d);
                while let Some(bb) = b {
                    if cells[bb].is_some() {
                        break;
                    }
                    let moves = match cont {
                        None => 1,
                        Some(k) => {
                            let mut n = 0u32;
                            for &e in &pp.shoots[k].1 {
                                let mut q = step(bb, e);
                                while let Some(qq) = q {
                                    if qq != a && cells[qq].is_some() {
                                        break;
                                    }
                                    n += 1;
                                    q = step(qq, e);
                                }
                            }
                            // Without a shot the slide is a move of its own (it is no `add-partial-required`).
                            n.max(1)
                        }
                    };
                    total += moves as usize;
                    prefixes.push(Prefix {
                        from: Pos(a as u16),
                        to: Pos(bb as u16),
                        index,
                        moves,
                    });
                    index += 1;
                    b = step(bb, d);
                }
            }
            if prefixes.len() > MAX_PREFIXES || total > MAX_MOVES {
                return None;
            }
        }
        let pass = match game.options.pass_turn {
            PassTurn::Yes => true,
            PassTurn::Forced => total == 0 && (s.passes as usize) < game.players.len(),
            _ => false,
        };
        Some(Counted { moves: total, pass })
    }

    /// Puts move `i` of the list of `s` into `out` (cleared first) as its only move, given the prefixes
    /// [`CountPlan::count`] noted for `s` and its count: the first part and the continuation at their indices,
    /// generated by the interpreter as the composer generates them. `s` is left as it was.
    #[allow(clippy::too_many_arguments)]
    pub fn build(
        &self,
        game: &Game,
        s: &mut State,
        prefixes: &[Prefix],
        counted: Counted,
        i: usize,
        em: &mut Emissions,
        undo: &mut Undo,
        out: &mut MoveList,
    ) -> Result<(), EngineError> {
        out.clear();
        if i >= counted.moves {
            out.push_pass();
            return Ok(());
        }
        let lost = || EngineError(format!("{}: a counted move could not be built", game.title));
        let mut k = i;
        let p = prefixes
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
        let types = match self.turns[s.turn].types {
            Some(t) => TypeFilter::Only(Some(t)),
            None => TypeFilter::Any,
        };
        em.clear();
        parts(game, s, player, owner, types, Some(p.from), em)?;
        let j = p.index as usize;
        let e = *em.parts.get(j).ok_or_else(lost)?;
        if e.head.to != Some(p.to) {
            return Err(lost());
        }
        match e.cont {
            Some(Some(t)) => {
                make_part(game, s, em.view(j), false, undo);
                let base = em.len();
                let r = parts(
                    game,
                    s,
                    player,
                    owner,
                    TypeFilter::Only(Some(t)),
                    Some(p.to),
                    em,
                );
                unmake(s, undo);
                r?;
                if base + k < em.len() {
                    out.push_emitted(em, &[j, base + k]);
                } else if k == 0 && em.len() == base {
                    out.push_emitted(em, &[j]);
                } else {
                    return Err(lost());
                }
            }
            None if k == 0 => out.push_emitted(em, &[j]),
            _ => return Err(lost()),
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile::compile;
    use crate::lang::read_str;

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
        assert!(plan(&g).is_ok());
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
