//! The move-program interpreter: one `Run` executes a [`MoveProgram`] from a start square over a frozen
//! board (the state at the start of the part). Predicates read the board as it was, and actions are recorded,
//! not applied; `add` emits a part and the program goes on. Captures and drops made before an `add` are not
//! carried into later emissions (Zillions' rule), movements and cascades are.
//!
//! Split by concern: predicates (`cond.rs`), instructions (`instr.rs`), `choose` and its backtracking
//! (`choose.rs`), the group forms (`groups.rs`), and the emission of parts (`emit.rs`, the boundary with the
//! move representation). Numbers and sowing are in `engine/numbers.rs` and `engine/sow.rs`.

mod choose;
mod cond;
mod emit;
mod groups;
mod instr;
mod rotate;

use super::gen::{attacked_by, Emissions, Emitted};
use super::moves::Action;
use super::state::{Piece, State};
use super::EngineError;
use crate::compile::code::{Op, FAIL, START};
use crate::compile::*;

/// Instructions one program run may execute before it is declared runaway.
pub(super) const STEP_BUDGET: u32 = 1_000_000;
/// Actions the parts emitted by one position's programs may hold together. Changes made before an `add` are
/// carried into every later part of the run, so a `while` that changes and adds at each step grows
/// quadratically: a fuzzed file reached 3.2 GB within the step budget.
pub(super) const MAX_EMITTED_ACTIONS: usize = 10_000_000;

/// Why a program run stopped early.
pub(in crate::engine) enum Stop {
    /// The path ends (a failed `verify`, a step off the board): nothing more is emitted.
    Path,
    /// In attack mode: a capture on the target was found.
    Found,
    /// The step budget ran out.
    Budget,
    /// The parts emitted hold [`MAX_EMITTED_ACTIONS`] actions.
    TooMany,
    /// `add-rotate` in a part that a rotation cannot be combined with (`rotate.rs`).
    Rotation(rotate::Misuse),
}

/// What a program run is for.
#[derive(Clone, Copy)]
pub(in crate::engine) enum Mode {
    /// Emit every part.
    Generate,
    /// Stop at the first part that captures on this position.
    Attack(Pos),
}

pub(in crate::engine) struct Run<'a> {
    pub(in crate::engine) game: &'a Game,
    pub(in crate::engine) state: &'a State,
    /// `state.cells`, one load nearer.
    cells: &'a [Option<Piece>],
    /// The player to move: symmetry, zones, `friend?` refer to it.
    pub(in crate::engine) player: Player,
    /// The board's navigation after `player`'s symmetry (`Board::nav`), picked once per program run:
    /// `nav[pos * nd + dir]`.
    nav: &'a [u16],
    /// Whose table `nav` is.
    nav_for: Option<Player>,
    nd: usize,
    /// The game has teams (`friend?` and `enemy?` read them).
    teams: bool,
    /// Whose pieces it moves (`(turn-order (?Dice Black dice))`): a zone the file declares for this player and
    /// not for the mover is read for this player (Daldosa's dice zone exists for Black and White, and the
    /// random `?D` throws Black's dice).
    pub(in crate::engine) owner: Player,
    pub(in crate::engine) mode: Mode,
    pub(in crate::engine) start: Pos,
    pub(in crate::engine) cursor: Pos,
    pub(in crate::engine) mark: Option<Pos>,
    pub(in crate::engine) from: Option<Pos>,
    pub(in crate::engine) held: Option<Piece>,
    pub(in crate::engine) to: Option<Pos>,
    /// A drop: the type dropped and whether it comes from the reserve.
    pub(in crate::engine) drop: Option<(PieceType, bool)>,
    pub(in crate::engine) captures: Vec<Pos>,
    /// Squares a `capture` named while they were empty. A piece that ends its part on one is removed, as on a
    /// captured square (Zillions' capture on the destination, `emit.rs`).
    pub(in crate::engine) captured_empty: Vec<Pos>,
    pub(in crate::engine) placed: Vec<(Pos, Piece)>,
    pub(in crate::engine) cascades: Vec<(Pos, Pos)>,
    pub(in crate::engine) changes: Vec<Action>,
    pub(in crate::engine) flags: Flags,
    /// Move variables (`set-var`), 0 until set.
    pub(in crate::engine) vars: Vec<i64>,
    pub(in crate::engine) position_flags: Vec<(FlagId, Pos, bool)>,
    /// The positions of the `choose`s under way, innermost last (see `choose.rs`).
    pub(in crate::engine) chosen: Vec<Pos>,
    /// Copies of the run's state before a `choose`, to reuse (see `choose.rs`).
    pub(in crate::engine) saved: Vec<choose::Saved>,
    pub(in crate::engine) move_type: Option<MoveType>,
    /// `(extra-turn)` was executed on this path.
    pub(in crate::engine) extra: bool,
    /// `add-partial-required` set it for the next emission.
    pub(in crate::engine) required: bool,
    /// A `sow` earned another sowing: the next emission is continued by any of the mover's piles.
    pub(in crate::engine) again: bool,
    pub(in crate::engine) steps: u32,
    pub(in crate::engine) out: &'a mut Emissions,
    /// Actions in the parts this run emitted (see [`MAX_EMITTED_ACTIONS`]).
    pub(in crate::engine) emitted_actions: usize,
    /// When set, every square whose contents the program reads is recorded in `reads`, and any read of the
    /// last move in `reads_last` (see `super::legality::LegalityCache`).
    pub(in crate::engine) track: bool,
    pub(in crate::engine) reads: std::cell::Cell<[u64; 4]>,
    pub(in crate::engine) reads_last: std::cell::Cell<bool>,
    /// The tables of the game's `sow` instructions (`gen::sow::Tables`), where the engine built them: set by
    /// the move generation (`gen::parts`); without them a `sow` computes what it needs.
    pub(in crate::engine) sow_tables: Option<&'a super::gen::sow::Tables>,
    /// The group forms may read the groups of the frozen board from a table built once per run (`chains.rs`):
    /// set by the move generation (`gen::parts`), off on the general path.
    pub(in crate::engine) chains_allowed: bool,
    /// That table, built at the first group form that reads it.
    pub(in crate::engine) chains: std::cell::OnceCell<super::chains::Table>,
}

impl Run<'_> {
    #[inline]
    pub(in crate::engine) fn loc(&self, l: Loc) -> Option<Pos> {
        match l {
            Loc::Cursor => Some(self.cursor),
            Loc::Dir(d) => self.step(self.cursor, d),
            Loc::Pos(p) => Some(p),
        }
    }

    /// The neighbour of `pos` in direction `d` after the mover's symmetry.
    #[inline]
    pub(in crate::engine) fn step(&self, pos: Pos, d: Dir) -> Option<Pos> {
        match self.nav.get(pos.idx() * self.nd + d.idx()) {
            Some(&t) if t != NO_POS => Some(Pos(t)),
            _ => None,
        }
    }

    #[inline(always)]
    pub(in crate::engine) fn live(&self, pos: Pos) -> Option<Piece> {
        if self.track {
            let i = pos.idx();
            let mut r = self.reads.get();
            r[(i >> 6) & 3] |= 1 << (i & 63);
            self.reads.set(r);
        }
        self.cells[pos.idx()]
    }

    /// The location, noting that the last move is read.
    pub(in crate::engine) fn read_last_then(&self, l: &Loc) -> Option<Pos> {
        self.read_last();
        self.loc(*l)
    }

    #[inline]
    pub(in crate::engine) fn read_last(&self) {
        if self.track {
            self.reads_last.set(true);
        }
    }
}

/// The flags of a program run (`set-flag`), false until set: the first 64 as bits, so that a run clears them
/// in one store and a test reads one word.
#[derive(Default)]
pub(in crate::engine) struct Flags {
    low: u64,
    /// Flags 64 and over, by index - 64.
    high: Vec<bool>,
}

impl Flags {
    #[inline]
    pub(in crate::engine) fn clear(&mut self) {
        self.low = 0;
        self.high.clear();
    }

    #[inline]
    pub(in crate::engine) fn get(&self, f: FlagId) -> bool {
        match f.idx().checked_sub(64) {
            None => self.low >> f.idx() & 1 == 1,
            Some(i) => self.high.get(i).copied().unwrap_or(false),
        }
    }

    #[inline]
    pub(in crate::engine) fn set(&mut self, f: FlagId, v: bool) {
        match f.idx().checked_sub(64) {
            None => self.low = self.low & !(1 << f.idx()) | (v as u64) << f.idx(),
            Some(i) => {
                if self.high.len() <= i {
                    self.high.resize(i + 1, false);
                }
                self.high[i] = v;
            }
        }
    }

    /// A copy that reuses `self`'s vector.
    pub(in crate::engine) fn clone_from(&mut self, other: &Flags) {
        self.low = other.low;
        self.high.clone_from(&other.high);
    }
}

impl<'a> Run<'a> {
    /// A context for running programs of `player` on `state`; reused for many programs, so that a program run
    /// costs no setup beyond resetting a few fields.
    pub(in crate::engine) fn new(
        game: &'a Game,
        state: &'a State,
        player: Player,
        mode: Mode,
        out: &'a mut Emissions,
    ) -> Run<'a> {
        Run {
            game,
            state,
            cells: &state.cells,
            player,
            nav: &[],
            nav_for: None,
            teams: !game.teams.is_empty(),
            nd: game.board.directions.len(),
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
            captured_empty: vec![],
            placed: vec![],
            cascades: vec![],
            changes: vec![],
            flags: Flags::default(),
            vars: vec![],
            position_flags: vec![],
            chosen: vec![],
            saved: vec![],
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
            sow_tables: None,
            chains_allowed: false,
            chains: std::cell::OnceCell::new(),
        }
    }

    /// Runs one program from `start`; returns whether an attack target was found. A runaway program is an error.
    ///
    /// Inlined into its callers: most runs end at their first op, decided here; the rest of the run is
    /// [`Run::exec_from`].
    #[inline(always)]
    pub(in crate::engine) fn exec(
        &mut self,
        prog: &MoveProgram,
        start: Pos,
        held: Option<Piece>,
        drop: Option<(PieceType, bool)>,
    ) -> Result<bool, EngineError> {
        if self.track {
            self.reads.set([0; 4]);
            self.reads_last.set(false);
        }
        if self.nav_for != Some(self.player) {
            self.pick_nav();
        }
        // Most runs end at their first op, a step off the board or a leap that fails its test: decide it before
        // setting the run up. Those tests read the board and the cursor alone.
        self.cursor = start;
        let (pc, steps) = match prog.code.ops.get(START) {
            Some(&Op::Step(d)) => match self.step(start, d) {
                Some(p) => {
                    self.cursor = p;
                    (
                        START + 1,
                        prog.code.weights.get(START).copied().unwrap_or(0),
                    )
                }
                None => return Ok(false),
            },
            Some(&Op::StepVerify(d, t)) if t.board_only() => {
                let Some(p) = self.step(start, d) else {
                    return Ok(false);
                };
                self.cursor = p;
                if !self.test(&prog.code, t).unwrap_or(false) {
                    return Ok(false);
                }
                (
                    START + 1,
                    prog.code.weights.get(START).copied().unwrap_or(0) + 1,
                )
            }
            // A first `verify` of the square (`(verify empty?)` of a drop).
            Some(&Op::Branch { test, when, to }) if to == FAIL && test.board_only() => {
                if self.test(&prog.code, test).unwrap_or(when) == when {
                    return Ok(false);
                }
                (
                    START + 1,
                    prog.code.weights.get(START).copied().unwrap_or(0),
                )
            }
            _ => (START, 0),
        };
        self.exec_from(prog, start, held, drop, pc, steps)
    }

    /// [`Run::exec`] for a program whose first op the caller has already decided passes, as `exec` decides it
    /// (`gen::parts` by its program index, see `gen::First`): a step (`tested` false) or a leap with a test of
    /// the square it lands on (`tested`) from `start` to `to`. The run goes on from its second op.
    #[inline(always)]
    pub(in crate::engine) fn exec_entered(
        &mut self,
        prog: &MoveProgram,
        start: Pos,
        to: Pos,
        tested: bool,
        held: Option<Piece>,
    ) -> Result<bool, EngineError> {
        if self.track {
            return self.exec(prog, start, held, None);
        }
        if self.nav_for != Some(self.player) {
            self.pick_nav();
        }
        self.cursor = to;
        let steps = prog.code.weights.get(START).copied().unwrap_or(0) + tested as u32;
        self.exec_from(prog, start, held, None, START + 1, steps)
    }

    /// The mover's navigation table (the caller may change `player` between runs).
    #[inline(never)]
    pub(in crate::engine) fn pick_nav(&mut self) {
        self.nav = self
            .game
            .board
            .nav
            .get(self.player.idx())
            .map_or(&[], |v| &v[..]);
        self.nav_for = Some(self.player);
    }

    /// The run past its first op: set up, then the ops from `pc`, `steps` already charged.
    #[inline(never)]
    fn exec_from(
        &mut self,
        prog: &MoveProgram,
        start: Pos,
        held: Option<Piece>,
        drop: Option<(PieceType, bool)>,
        pc: usize,
        steps: u32,
    ) -> Result<bool, EngineError> {
        self.start = start;
        self.mark = None;
        self.from = if drop.is_some() { None } else { Some(start) };
        self.held = held;
        self.to = None;
        self.drop = drop;
        self.captures.clear();
        self.captured_empty.clear();
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
        self.steps = steps;
        // A leap or a drop that adds once its first op passed (`Code::adds_after_entry`): the emission alone,
        // without the interpreter's loop. Its steps are a handful, far from the budget.
        if pc == START + 1 && prog.code.adds_after_entry {
            return match self.emit(&[], false, None) {
                Ok(()) | Err(Stop::Path) => Ok(false),
                Err(Stop::Found) => Ok(true),
                Err(e) => Err(self.stopped(e, prog, start)),
            };
        }
        let mut r = self.run_code(&prog.code, pc);
        // The budget is checked on back-edges; a run that passed it since ends with the error all the same,
        // as it did when every instruction was checked.
        if self.steps > STEP_BUDGET {
            r = Err(Stop::Budget);
        }
        match r {
            Ok(()) | Err(Stop::Path) => Ok(false),
            Err(Stop::Found) => Ok(true),
            Err(e) => Err(self.stopped(e, prog, start)),
        }
    }

    /// The error of a run stopped by the budget or the size of its emissions.
    #[cold]
    #[inline(never)]
    fn stopped(&self, e: Stop, prog: &MoveProgram, start: Pos) -> EngineError {
        match e {
            Stop::Path | Stop::Found => EngineError::Other(String::new()),
            Stop::TooMany => EngineError::TooManyActions {
                game: self.game.title.clone(),
            },
            Stop::Rotation(why) => EngineError::Other(format!(
                "{}: {}: {}",
                self.game.title,
                why.text(),
                prog.source
            )),
            Stop::Budget => EngineError::Runaway {
                game: self.game.title.clone(),
                from: self.game.board.pos_name(start).to_string(),
                program: prog.source.to_string(),
            },
        }
    }
}

/// For tests of the fused ops: runs one program of `player` from `start` on `state` (a drop of `drop`, else a
/// move of the piece there) as the generator would, its parts into `out`; returns the run's result and the
/// steps it charged against the budget.
#[doc(hidden)]
pub fn trace(
    game: &Game,
    state: &State,
    player: Player,
    prog: &MoveProgram,
    start: Pos,
    drop: Option<(PieceType, bool)>,
    out: &mut Emissions,
) -> (Result<bool, EngineError>, u32) {
    let held = if drop.is_some() {
        None
    } else {
        state.cells.get(start.idx()).copied().flatten()
    };
    let mut run = Run::new(game, state, player, Mode::Generate, out);
    let r = run.exec(prog, start, held, drop);
    (r, run.steps)
}

/// For tests of skipped regions: runs one program of `player` from `start` on `state` in attack mode against
/// `target`, with its reads recorded, as the legality cache runs it; returns whether it captures there, the
/// steps it charged and the squares it read (a bitmap of the first 256 positions).
#[doc(hidden)]
pub fn trace_attack(
    game: &Game,
    state: &State,
    player: Player,
    prog: &MoveProgram,
    start: Pos,
    target: Pos,
) -> (Result<bool, EngineError>, u32, [u64; 4]) {
    let held = state.cells.get(start.idx()).copied().flatten();
    let mut out = Emissions::default();
    let mut run = Run::new(game, state, player, Mode::Attack(target), &mut out);
    run.track = true;
    let r = run.exec(prog, start, held, None);
    (r, run.steps, run.reads.get())
}
