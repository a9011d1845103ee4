//! The generation of complete moves, on the move-program interpreter (`engine/run`).
//!
//! Composite moves are enumerated whole: a part made by `add-partial` is applied to a copy of
//! the state and the same piece continues; only complete moves are returned.

use super::moves::{Action, Move, Part};
use super::run::{Mode, Run};
use super::state::{Piece, State};
use super::EngineError;
use crate::compile::code::{Op, Test, START};
use crate::compile::*;

pub use super::apply::{apply_move, apply_part};
use super::compose::complete_moves;

#[path = "numbers.rs"]
pub mod numbers;
#[path = "sow.rs"]
pub mod sow;

/// A part emitted by a program, with what continues it. Its actions are `Emissions::actions[start..end]`.
#[derive(Clone, Copy, Debug)]
pub struct Emitted {
    pub head: PartHead,
    /// `Some(t)` for `add-partial`: the same piece continues with moves of type `t` (any type for `None`).
    pub cont: Option<Option<MoveType>>,
    /// `add-partial-required`: without a continuation this part is no move at all.
    pub required: bool,
    /// The continuation may be made by any of the mover's pieces, not only the one that moved (a sowing
    /// whose last seed earns another: `(sow ... (again COND))`).
    pub anywhere: bool,
}

/// The parts program runs emitted, flat: the actions of all in one vector, each part a Copy header with its
/// range. Reused across runs and plies (cleared, never shrunk), so that emitting a part allocates nothing once
/// the buffer is warm. Runs append; a caller that needs a stack (the continuations of composite moves,
/// `super::compose`) notes the length before and truncates back to it.
#[derive(Clone, Debug, Default)]
pub struct Emissions {
    pub actions: Vec<Action>,
    pub parts: Vec<Emitted>,
}

impl Emissions {
    pub fn len(&self) -> usize {
        self.parts.len()
    }

    pub fn is_empty(&self) -> bool {
        self.parts.is_empty()
    }

    pub fn clear(&mut self) {
        self.actions.clear();
        self.parts.clear();
    }

    /// Drops the parts from `n` on, with their actions.
    pub fn truncate(&mut self, n: usize) {
        if let Some(p) = self.parts.get(n) {
            self.actions.truncate(p.head.start as usize);
            self.parts.truncate(n);
        }
    }

    pub fn actions(&self, i: usize) -> &[Action] {
        let h = &self.parts[i].head;
        &self.actions[h.start as usize..h.end as usize]
    }

    pub fn view(&self, i: usize) -> super::apply::PartView<'_> {
        let h = &self.parts[i].head;
        super::apply::PartView {
            actions: self.actions(i),
            from: h.from,
            to: h.to,
        }
    }

    /// The part `i` as an owned [`Part`].
    pub fn part(&self, i: usize) -> Part {
        self.parts[i].head.to_part(&self.actions)
    }
}

/// A part without its actions: their range in a flat buffer, where its piece started and ended, its type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PartHead {
    pub start: u32,
    pub end: u32,
    pub from: Option<Pos>,
    pub to: Option<Pos>,
    pub piece: PieceType,
    pub move_type: Option<MoveType>,
}

impl PartHead {
    /// Where the part's piece started and where it ended (`0xFFFF` for none), in one word: a single-part
    /// move's `MoveList::ends`.
    #[inline]
    pub fn ends(&self) -> u32 {
        let from = self.from.map_or(0xFFFF, |x| x.0 as u32);
        let to = self.to.map_or(0xFFFF, |x| x.0 as u32);
        from << 16 | to
    }

    /// The owned part, its actions read from the buffer the range refers to.
    pub fn to_part(&self, actions: &[Action]) -> Part {
        Part {
            actions: actions[self.start as usize..self.end as usize].to_vec(),
            from: self.from,
            to: self.to,
            piece: self.piece,
            move_type: self.move_type,
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
    let filter =
        only.map(|t| super::attack::ForwardFilter::new(game, t, state, pos, player, defended));
    let empty = state.get(pos).is_none();
    if let (Some(t), Some(filter), true) = (only, &filter, empty) {
        // Nothing to run forwards: no state copy, no interpreter. (On an occupied square the loop below
        // finds the same runs, with no copy to spare.)
        let any = state.cells.iter().enumerate().any(|(i, c)| {
            c.as_ref().is_some_and(|x| {
                attacks(x)
                    && t.forward[x.kind.idx()].iter().enumerate().any(|(k, &j)| {
                        pieces[x.kind.idx()]
                            .moves
                            .get(j as usize)
                            .is_some_and(wanted)
                            && filter.may_pass(Pos(i as u16), x, k)
                    })
            })
        });
        if !any {
            return Ok(false);
        }
    }
    // An empty square is attacked when a piece standing there could be captured: put a phantom piece of the
    // defending side there, so that moves which need a victim (`enemy?`) see one and quiet moves do not count.
    if empty {
        let mut with_phantom = state.clone();
        with_phantom.set(pos, Some(super::attack::phantom(game, player, defended)));
        return attacked_by_forward(game, &with_phantom, pos, player, defended, move_type, only);
    }
    let mut scratch = Emissions::default();
    let mut run = Run::new(game, state, player, Mode::Attack(pos), &mut scratch);
    for (i, c) in state.cells.iter().enumerate() {
        let Some(x) = c else { continue };
        if !attacks(x) {
            continue;
        }
        run.player = x.owner;
        run.owner = x.owner;
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
                for (k, &j) in t.forward[x.kind.idx()].iter().enumerate() {
                    let Some(prog) = progs.get(j as usize).filter(|p| wanted(p)) else {
                        continue;
                    };
                    if filter
                        .as_ref()
                        .is_some_and(|f| !f.may_pass(Pos(i as u16), x, k))
                    {
                        continue;
                    }
                    if run.exec(prog, Pos(i as u16), Some(*x), None)? {
                        return Ok(true);
                    }
                }
            }
        }
    }
    Ok(false)
}

/// [`attacked_by_forward`] (by `player`'s enemies, any move type, the table's forward programs only) of an
/// occupied square, looking only at the pieces on `starts`: every square, in board order, of a live piece of
/// an enemy (not a random player) with programs run forwards. The same runs in the same order; the interpreter
/// is set up only if one is needed.
pub fn attacked_by_forward_from(
    game: &Game,
    table: &crate::compile::attack::AttackTable,
    state: &State,
    pos: Pos,
    player: Player,
    starts: &[u16],
) -> Result<bool, EngineError> {
    let filter = super::attack::ForwardFilter::new(game, table, state, pos, player, false);
    let passes = |i: u16| {
        state.get(Pos(i)).is_some_and(|x| {
            (0..table.forward[x.kind.idx()].len()).any(|k| filter.may_pass(Pos(i), &x, k))
        })
    };
    let Some(first) = starts.iter().position(|&i| passes(i)) else {
        return Ok(false);
    };
    let mut scratch = Emissions::default();
    let mut run = Run::new(game, state, player, Mode::Attack(pos), &mut scratch);
    for &i in &starts[first..] {
        let Some(x) = state.get(Pos(i)) else { continue };
        let progs = &game.pieces[x.kind.idx()].moves;
        for (k, &j) in table.forward[x.kind.idx()].iter().enumerate() {
            let Some(prog) = progs.get(j as usize) else {
                continue;
            };
            if !filter.may_pass(Pos(i), &x, k) {
                continue;
            }
            run.player = x.owner;
            run.owner = x.owner;
            if run.exec(prog, Pos(i), Some(x), None)? {
                return Ok(true);
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

/// Each piece type's move programs by move type, so that a generation pass for one type (`move-priorities`,
/// the continuation of a composite move) runs the programs of that type without testing the others; with
/// each program's first op where it is a step or a leap with a test of the square it lands on, which
/// `parts` decides before calling the run (see [`First`]).
#[derive(Clone, Debug, Default)]
pub struct ProgramIndex {
    /// Move types plus one: slot 0 holds the programs declared before any `move-type`, slot `t + 1` those of
    /// type `t`; slot `slots` holds every program.
    slots: usize,
    /// Per piece type and slot (`kind * (slots + 1) + slot`): its programs are `entries[range.0..range.1]`.
    ranges: Vec<(u32, u32)>,
    entries: Vec<Entry>,
    /// The engine's general path is forced (`EngineOptions::general_path`): no first op is decided before
    /// a run, and the legality tests build no `super::legality::LegalityCache`. Carried here because the index goes wherever
    /// moves are generated.
    general: bool,
    /// The hooks of the game's extension modules, for the same reason: the `mates` invariant generates the
    /// replies of the player who may be mated, and those are the complete legal moves ([`complete_legal_moves`]),
    /// the modules' filters and ko included.
    hooks: ModuleHooks,
    /// What the game's `sow` instructions read of the board alone, per player, computed once (none on the
    /// general path): the generation hands it to each run (`sow::Tables`).
    sow: sow::Tables,
    /// Every drop program of the game puts its piece where it starts (no step, leap, `from` or `to`: see
    /// [`still_drop`]), and the general path is not forced: the modules' [`Hooks::drop_sites`] may then
    /// spare the runs from positions where no drop they keep can land.
    ///
    /// [`Hooks::drop_sites`]: super::Hooks::drop_sites
    still_drops: bool,
}

/// Whether a drop program's part lands where the program starts: its instructions never move the cursor nor
/// name another origin or destination (a whitelist; conditions only read). Such a program run from a position
/// emits parts whose `to` is that position, or none.
pub fn still_drop(body: &[Instr]) -> bool {
    body.iter().all(|i| match i {
        Instr::If(_, a, b) => still_drop(a) && still_drop(b),
        Instr::While(_, a) => still_drop(a),
        Instr::Add { partial, .. } => partial.is_none(),
        Instr::Verify(_)
        | Instr::Mark
        | Instr::Back
        | Instr::Capture(_)
        | Instr::Create { .. }
        | Instr::ChangeType(..)
        | Instr::Flip(_)
        | Instr::ChangeOwner(..)
        | Instr::SetFlag(..)
        | Instr::SetPositionFlag(..)
        | Instr::SetAttribute(..)
        | Instr::SetVar(..)
        | Instr::SetStateVar(..)
        | Instr::SetIntAttribute(..)
        | Instr::ExtraTurn => true,
        _ => false,
    })
}

/// The hooks of a game's extension modules (shown by their number).
#[derive(Clone, Default)]
struct ModuleHooks(Vec<&'static dyn super::Hooks>);

impl std::fmt::Debug for ModuleHooks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} module hooks", self.0.len())
    }
}

/// A program of a piece type, with its first op when [`parts`] may decide it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Its index among the piece's move programs.
    pub prog: u16,
    pub dir: Dir,
    pub first: First,
}

/// What a program's first op is, as far as deciding it before the run goes: `Run::exec` ends a run at once
/// when its first op is a step off the board, or a leap (`StepVerify`) whose test of the square it lands on
/// fails; those are the only ops taken here, each test read exactly as `Run::test` reads it with the cursor
/// on that square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum First {
    /// Anything else: the run decides.
    Run,
    /// `Step(dir)`.
    Step,
    /// `StepVerify(dir, t)` with `t` one of these tests of the cursor's square.
    Empty,
    Friend,
    Enemy,
    Mine,
    OnBoard,
}

impl First {
    fn of(prog: &MoveProgram) -> (First, Dir) {
        match prog.code.ops.get(START) {
            Some(&Op::Step(d)) => (First::Step, d),
            Some(&Op::StepVerify(d, t)) => {
                let first = match t {
                    Test::Empty(Loc::Cursor) => First::Empty,
                    Test::Friend(Loc::Cursor) => First::Friend,
                    Test::Enemy(Loc::Cursor) => First::Enemy,
                    Test::Mine(Loc::Cursor) => First::Mine,
                    Test::OnBoard(Loc::Cursor) => First::OnBoard,
                    _ => First::Run,
                };
                (first, d)
            }
            _ => (First::Run, Dir(0)),
        }
    }
}

/// The slots of move types a per-type table needs: slot 0 for the programs of no move type, slot `t + 1` for
/// type `t`, as many as the game's move types and the types its programs name (at least one).
pub(crate) fn type_slots(game: &Game) -> usize {
    let slot = |t: Option<MoveType>| t.map_or(0, |t| t.idx() + 1);
    game.pieces
        .iter()
        .flat_map(|p| &p.moves)
        .map(|p| slot(p.move_type) + 1)
        .max()
        .unwrap_or(1)
        .max(game.move_types.len() + 1)
}

impl ProgramIndex {
    /// The index of `game`'s programs, with each program's first op where [`parts`] may decide it before the
    /// run (see [`First`]); on the `general` path, every first op is left to the run.
    pub fn new(game: &Game, general: bool) -> ProgramIndex {
        let slot = |t: Option<MoveType>| t.map_or(0, |t| t.idx() + 1);
        let slots = type_slots(game);
        let mut ranges = Vec::with_capacity(game.pieces.len() * (slots + 1));
        let mut entries = vec![];
        for piece in &game.pieces {
            for k in 0..=slots {
                let start = entries.len() as u32;
                for (j, p) in piece.moves.iter().enumerate() {
                    if k == slots || slot(p.move_type) == k {
                        let (first, dir) = if general {
                            (First::Run, Dir(0))
                        } else {
                            First::of(p)
                        };
                        entries.push(Entry {
                            prog: j as u16,
                            dir,
                            first,
                        });
                    }
                }
                ranges.push((start, entries.len() as u32));
            }
        }
        ProgramIndex {
            slots,
            ranges,
            entries,
            general,
            hooks: ModuleHooks::default(),
            sow: if general {
                sow::Tables::default()
            } else {
                sow::Tables::build(game)
            },
            still_drops: !general
                && game
                    .pieces
                    .iter()
                    .flat_map(|p| &p.drops)
                    .all(|d| still_drop(&d.body)),
        }
    }

    /// The index, with the hooks of the game's extension modules (see the field).
    pub fn with_hooks(mut self, hooks: Vec<&'static dyn super::Hooks>) -> ProgramIndex {
        self.hooks = ModuleHooks(hooks);
        self
    }

    /// Whether the engine's general path is forced (see the field).
    #[inline]
    pub fn general(&self) -> bool {
        self.general
    }

    /// Whether the generation asks the modules where drops may land (see the field `still_drops`): the game
    /// has a module and a drop, every drop lands where it starts, and the general path is not forced.
    pub fn drop_sites(&self, game: &Game) -> bool {
        self.still_drops
            && !self.hooks.0.is_empty()
            && game.pieces.iter().any(|p| !p.drops.is_empty())
    }

    /// How many of the game's `sow` instructions have tables (`sow::Tables`): none on the general path.
    pub fn sow_tabled(&self) -> usize {
        self.sow.len()
    }

    /// The move programs of piece type `kind` with move type `t`, in declaration order.
    #[inline]
    pub fn of_type(&self, kind: PieceType, t: Option<MoveType>) -> &[Entry] {
        let slot = t.map_or(0, |t| t.idx() + 1);
        if slot >= self.slots {
            return &[];
        }
        self.slot(kind, slot)
    }

    /// Every move program of piece type `kind`, in declaration order.
    #[inline]
    pub fn all(&self, kind: PieceType) -> &[Entry] {
        self.slot(kind, self.slots)
    }

    #[inline]
    fn slot(&self, kind: PieceType, slot: usize) -> &[Entry] {
        match self.ranges.get(kind.idx() * (self.slots + 1) + slot) {
            Some(&(a, b)) => self.entries.get(a as usize..b as usize).unwrap_or(&[]),
            None => &[],
        }
    }
}

/// Every single part available to `player` in `state`: moves of its pieces and drops from its reserve.
/// `only` restricts generation to the piece on one square (the continuation of a composite move), `types`
/// to moves of one type.
#[allow(clippy::too_many_arguments)]
pub fn parts(
    game: &Game,
    index: &ProgramIndex,
    state: &State,
    player: Player,
    owner: Player,
    types: TypeFilter<'_>,
    only: Option<Pos>,
    out: &mut Emissions,
) -> Result<(), EngineError> {
    let wanted = |p: &MoveProgram| types.wants(p);
    let (first, last) = match only {
        Some(p) => (p.idx(), p.idx() + 1),
        None => (0, state.cells.len()),
    };
    let mut run = Run::new(game, state, player, Mode::Generate, out);
    run.owner = owner;
    run.sow_tables = index.sow.if_any();
    run.chains_allowed = !index.general();
    let shared = game.options.shared_pieces;
    // The mover's navigation, as `Run::exec` picks it.
    let nav = game.board.nav.get(player.idx()).map_or(&[][..], |v| &v[..]);
    let nd = game.board.directions.len();
    // One program from one piece. Most runs end at their first op, a step off the board or a leap onto a
    // square that fails its test: decided here as `Run::exec` decides it on entry (the same step, the same
    // test of the square: see `First`), so such a run costs no call.
    macro_rules! run_program {
        ($e:expr, $progs:expr, $at:expr, $x:expr) => {{
            let (e, at): (&Entry, Pos) = ($e, $at);
            if e.first == First::Run {
                run.exec(&$progs[e.prog as usize], at, Some($x), None)?;
            } else if let Some(&to) = nav.get(at.idx() * nd + e.dir.idx()) {
                if to != NO_POS {
                    let c = state.cells.get(to as usize).copied().flatten();
                    let pass = match e.first {
                        First::Empty => c.is_none(),
                        First::Friend => {
                            c.is_some_and(|y| !y.dead && game.same_team(y.owner, owner))
                        }
                        First::Enemy => {
                            c.is_some_and(|y| !y.dead && !game.same_team(y.owner, owner))
                        }
                        First::Mine => c.is_some_and(|y| !y.dead && y.owner == owner),
                        First::Run | First::Step | First::OnBoard => true,
                    };
                    // Decided here, the first op is not decided again by the run.
                    if pass {
                        run.exec_entered(
                            &$progs[e.prog as usize],
                            at,
                            Pos(to),
                            e.first != First::Step,
                            Some($x),
                        )?;
                    }
                }
            }
        }};
    }
    // The entries and programs of each piece type for this pass, looked up once per pass rather than once per
    // piece (games with up to `TABLED` piece types, passes of all types or of one).
    const TABLED: usize = 8;
    let mut entries: [&[Entry]; TABLED] = [&[]; TABLED];
    let mut programs: [&[MoveProgram]; TABLED] = [&[]; TABLED];
    let tabled =
        game.pieces.len() <= TABLED && matches!(types, TypeFilter::Any | TypeFilter::Only(_));
    if tabled {
        for (k, piece) in game.pieces.iter().enumerate() {
            let kind = PieceType(k as u16);
            entries[k] = match types {
                TypeFilter::Only(t) => index.of_type(kind, t),
                _ => index.all(kind),
            };
            programs[k] = &piece.moves;
        }
    }
    // The programs of one piece (a macro, not a closure: inlined at both loops below).
    macro_rules! visit {
        ($at:expr, $x:expr) => {{
            let (at, x): (Pos, Piece) = ($at, $x);
            let k = x.kind.idx();
            if tabled && k < TABLED {
                let progs = programs[k];
                for e in entries[k] {
                    run_program!(e, progs, at, x);
                }
                continue;
            }
            let progs = &game.pieces[k].moves;
            match types {
                TypeFilter::Any => {
                    for e in index.all(x.kind) {
                        run_program!(e, progs, at, x);
                    }
                }
                TypeFilter::Only(t) => {
                    for e in index.of_type(x.kind, t) {
                        run_program!(e, progs, at, x);
                    }
                }
                _ => {
                    for e in index.all(x.kind) {
                        if wanted(&progs[e.prog as usize]) {
                            run_program!(e, progs, at, x);
                        }
                    }
                }
            }
        }};
    }
    if only.is_none() && !shared {
        // The mover's pieces from its occupancy bitset, in the order of a scan of the board.
        for (w, &bits) in state.occupancy(owner).iter().enumerate() {
            let mut bits = bits;
            while bits != 0 {
                let i = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let Some(x) = state.cells.get(i).copied().flatten() else {
                    continue;
                };
                if x.dead || x.owner != owner {
                    continue;
                }
                visit!(Pos(i as u16), x);
            }
        }
    } else {
        let cells = state.cells.get(first..last).unwrap_or(&[]);
        for (i, c) in cells.iter().enumerate() {
            // Look at the owner before copying the piece: most squares hold none of the mover's.
            let Some(x) = c else { continue };
            if x.dead || (x.owner != owner && !shared) {
                continue;
            }
            visit!(Pos((first + i) as u16), *x);
        }
    }
    if only.is_some() {
        return Ok(());
    }
    let np = game.pieces.len();
    // Where the modules say where the drops they keep can land, and every drop lands where it starts, the runs
    // from other positions are spared: their moves would be filtered out by the same modules' `moves`.
    let mut sites: Vec<u64> = vec![];
    if index.drop_sites(game) {
        let words = state.cells.len().div_ceil(64);
        let mut one = vec![0u64; words];
        for h in &index.hooks.0 {
            one.iter_mut().for_each(|w| *w = 0);
            if h.drop_sites(game, state, &mut one) {
                if sites.is_empty() {
                    sites.clone_from(&one);
                } else {
                    sites.iter_mut().zip(&one).for_each(|(a, b)| *a &= b);
                }
            }
        }
    }
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
            if !sites.is_empty() {
                // A program that first verifies its square is empty ends at once on a live piece: no run.
                let empty_first = matches!(
                    prog.body.first(),
                    Some(Instr::Verify(Cond::Empty(Loc::Cursor)))
                );
                for (w, &bits) in sites.iter().enumerate() {
                    let mut bits = bits;
                    while bits != 0 {
                        let i = w * 64 + bits.trailing_zeros() as usize;
                        bits &= bits - 1;
                        if empty_first
                            && state
                                .cells
                                .get(i)
                                .is_some_and(|c| c.is_some_and(|x| !x.dead))
                        {
                            continue;
                        }
                        if game.board.positions.get(i).is_some_and(|info| !info.dummy) {
                            run.exec(prog, Pos(i as u16), None, Some((kind, limited)))?;
                        }
                    }
                }
                continue;
            }
            for (i, info) in game.board.positions.iter().enumerate() {
                if !info.dummy {
                    run.exec(prog, Pos(i as u16), None, Some((kind, limited)))?;
                }
            }
        }
    }
    Ok(())
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
    index: &ProgramIndex,
    state: &State,
    royal: &[Vec<PieceType>],
    kings: &[PieceType],
) -> Result<Vec<Move>, EngineError> {
    let (player, moves) = candidates(game, index, state, kings)?;
    finish_legal(game, index, state, royal, kings, player, moves)
}

/// The legal moves as the game has them: [`legal_moves`], then rewritten or filtered by the extension modules'
/// hooks (in the order the game names them), then without the moves that ko or superko forbid, judged on the
/// whole moves, the modules' captures included. `Engine::legal_moves` is this.
pub fn complete_legal_moves(
    game: &Game,
    index: &ProgramIndex,
    state: &State,
    royal: &[Vec<PieceType>],
    kings: &[PieceType],
) -> Result<Vec<Move>, EngineError> {
    let mut moves = legal_moves(game, index, state, royal, kings)?;
    for m in &index.hooks.0 {
        m.moves(game, state, &mut moves)?;
    }
    if let Some(rule) = game.forbid_repetition {
        super::groups::filter_repetition(game, state, rule, &mut moves, !index.general());
    }
    Ok(moves)
}

/// The player to move and its candidate moves: every complete move after move priorities, maximal captures
/// and `capture-order`, before the tests made move by move (the `checkmated` rule, invariants) and passing.
/// [`legal_moves`] is these, filtered by [`candidate_legal`], with the pass added as `finish_legal` says.
pub fn candidates(
    game: &Game,
    index: &ProgramIndex,
    state: &State,
    kings: &[PieceType],
) -> Result<(Player, Vec<Move>), EngineError> {
    let entry = turn_of(game, state);
    let player = entry.player;
    let mut moves = generated(game, index, state, entry)?;
    if let Some(prog) = &game.move_post {
        moves = move_post(game, state, entry, prog, moves)?;
    }
    order_filters(game, state, kings, &mut moves);
    if let Some(h) = &game.huffing {
        // Huffing (`huff.rs`): every move marks and clears; the huffs follow the ordinary moves.
        let ordinary = |s: &State| -> Result<Vec<Move>, EngineError> {
            let mut moves = generated(game, index, s, entry)?;
            // The moves after a huff are complete moves too: the life cycle's `move-post` runs on them.
            if let Some(prog) = &game.move_post {
                moves = move_post(game, s, entry, prog, moves)?;
            }
            order_filters(game, s, kings, &mut moves);
            super::huff::mark(h, s, &mut moves);
            Ok(moves)
        };
        let huffs = super::huff::huffs(h, state, entry.moves_as, ordinary)?;
        super::huff::mark(h, state, &mut moves);
        moves.extend(huffs);
    }
    Ok((player, moves))
}

/// The move life cycle's `move-post` (`docs/language.md`, "The move life cycle"): once per complete move, on
/// the position after it, with the cursor on the last part's destination (its start when it has none) and the
/// mover as the player. What it records is the move's last part, with that square as its origin and no
/// destination (the squares of the last move stay the last real part's, `apply`); a failed `verify` removes
/// the move.
fn move_post(
    game: &Game,
    state: &State,
    entry: &TurnEntry,
    prog: &MoveProgram,
    moves: Vec<Move>,
) -> Result<Vec<Move>, EngineError> {
    let mut kept = Vec::with_capacity(moves.len());
    let mut out = Emissions::default();
    for mut m in moves {
        let Some(at) = m.parts.last().and_then(|p| p.to.or(p.from)) else {
            kept.push(m);
            continue;
        };
        let after = apply_move(game, state, &m);
        out.clear();
        let mut run = Run::new(game, &after, entry.player, Mode::Generate, &mut out);
        run.owner = entry.moves_as;
        run.exec(prog, at, after.get(at), None)?;
        // The program ends with its own emission (`compile/mod.rs`): none means a `verify` failed.
        let Some(part) = out.parts.first() else {
            continue;
        };
        let (a, b) = (part.head.start as usize, part.head.end as usize);
        if a < b {
            // Its origin is the square it ran on, so that a capture there removes the mover and takes
            // nothing (`Part::taken`), as Zillions' capture on the destination does.
            m.parts.push(Part {
                actions: out.actions[a..b].to_vec(),
                from: Some(at),
                to: None,
                piece: part.head.piece,
                move_type: None,
            });
        }
        kept.push(m);
    }
    Ok(kept)
}

/// The complete moves of the turn, under phases and move priorities.
fn generated(
    game: &Game,
    index: &ProgramIndex,
    state: &State,
    entry: &TurnEntry,
) -> Result<Vec<Move>, EngineError> {
    let (player, owner) = (entry.player, entry.moves_as);
    if !game.phases.is_empty() {
        return phase_moves(game, index, state, entry);
    }
    // Under `move-priorities`, only the first type with a move counts: generate the types in that order and
    // stop at the first that has one. Types not listed rank below all listed ones (README: decisions).
    let moves = match entry.move_type {
        Some(t) => complete_moves(game, index, state, player, owner, TypeFilter::Only(Some(t)))?,
        None if game.move_priorities.is_empty() => {
            complete_moves(game, index, state, player, owner, TypeFilter::Any)?
        }
        None if !game.optional_priority.is_empty() => optional_priority_moves(
            game,
            index,
            state,
            entry,
            game.move_priorities.iter().copied(),
            TypeFilter::Unlisted(&game.move_priorities),
        )?,
        None => {
            let mut found = vec![];
            for &t in &game.move_priorities {
                found =
                    complete_moves(game, index, state, player, owner, TypeFilter::Only(Some(t)))?;
                if !found.is_empty() {
                    break;
                }
            }
            if found.is_empty() {
                found = complete_moves(
                    game,
                    index,
                    state,
                    player,
                    owner,
                    TypeFilter::Unlisted(&game.move_priorities),
                )?;
            }
            found
        }
    };
    Ok(moves)
}

/// The moves of the phase the player to move is in (see [`Phase`]): the first phase whose condition holds
/// gives the move types; `move-priorities` orders them as it orders all types without phases. No phase holds:
/// no move.
fn phase_moves(
    game: &Game,
    index: &ProgramIndex,
    state: &State,
    entry: &TurnEntry,
) -> Result<Vec<Move>, EngineError> {
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
        return complete_moves(game, index, state, player, owner, TypeFilter::Only(Some(t)));
    }
    if !game.optional_priority.is_empty() {
        return optional_priority_moves(
            game,
            index,
            state,
            entry,
            game.move_priorities
                .iter()
                .copied()
                .filter(|t| types.contains(t)),
            TypeFilter::Among(types, &game.move_priorities),
        );
    }
    for &t in game.move_priorities.iter().filter(|t| types.contains(t)) {
        let found = complete_moves(game, index, state, player, owner, TypeFilter::Only(Some(t)))?;
        if !found.is_empty() {
            return Ok(found);
        }
    }
    complete_moves(
        game,
        index,
        state,
        player,
        owner,
        TypeFilter::Among(types, &game.move_priorities),
    )
}

/// `move-priorities` under `(optional-priority T...)` (docs/language.md, "Optional priority"): the ranked
/// types in their order, every move of each kept, up to and including the first type that a piece of another
/// type can move with; when no such type has a move, the moves of `rest` (the types not ranked) too, so that
/// every move is legal. A move is its first part's piece's.
fn optional_priority_moves(
    game: &Game,
    index: &ProgramIndex,
    state: &State,
    entry: &TurnEntry,
    ranked: impl Iterator<Item = MoveType>,
    rest: TypeFilter<'_>,
) -> Result<Vec<Move>, EngineError> {
    let (player, owner) = (entry.player, entry.moves_as);
    let mut all = vec![];
    for t in ranked {
        let found = complete_moves(game, index, state, player, owner, TypeFilter::Only(Some(t)))?;
        let binds = found.iter().any(|m| {
            m.parts
                .first()
                .is_some_and(|p| !game.optional_priority.contains(&p.piece))
        });
        all.extend(found);
        if binds {
            return Ok(all);
        }
    }
    all.extend(complete_moves(game, index, state, player, owner, rest)?);
    Ok(all)
}

/// The filters that compare moves with each other, applied to the whole list before any move-by-move test:
/// maximal captures and `capture-order`.
fn order_filters(game: &Game, state: &State, kings: &[PieceType], moves: &mut Vec<Move>) {
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
                    .flat_map(|p| p.taken())
                    .filter(|at| state.get(*at).is_some_and(|x| kings.contains(&x.kind)))
                    .count();
                (kings, m.captures())
            };
            if let Some(best) = moves.iter().map(score).max() {
                moves.retain(|m| score(m) == best);
            }
        }
    }
    if !game.capture_order.is_empty() {
        super::ordering::keep_best(game, state, kings, moves);
    }
}

/// What every list of candidates goes through to be the legal moves: the `checkmated` legality rule and the
/// invariants, move by move, then passing.
fn finish_legal(
    game: &Game,
    index: &ProgramIndex,
    state: &State,
    royal: &[Vec<PieceType>],
    kings: &[PieceType],
    player: Player,
    mut moves: Vec<Move>,
) -> Result<Vec<Move>, EngineError> {
    if let Some(types) = royal.get(player.idx()).filter(|t| !t.is_empty()) {
        let cache = if index.general() {
            None
        } else {
            super::legality::LegalityCache::build(game, state, player, types)?
        };
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
        moves = super::invariant::filter(game, index, state, player, moves, royal, kings)?;
    }
    add_pass(game, state, &mut moves);
    Ok(moves)
}

/// `pass turn`: the pass is a move always (`true`), or when there is no other (`forced`) unless a whole round
/// of passes has just been made.
pub fn add_pass(game: &Game, state: &State, moves: &mut Vec<Move>) {
    match game.options.pass_turn {
        PassTurn::Yes => moves.push(Move::default()),
        PassTurn::Forced if moves.is_empty() && (state.passes as usize) < game.players.len() => {
            moves.push(Move::default())
        }
        _ => {}
    }
}

/// Whether a candidate move (see [`candidates`]) is legal: the tests `finish_legal` makes of each move, one
/// move alone (the `checkmated` rule, then every invariant), with the same answers.
#[allow(clippy::too_many_arguments)]
pub fn candidate_legal(
    game: &Game,
    index: &ProgramIndex,
    state: &State,
    royal: &[Vec<PieceType>],
    kings: &[PieceType],
    player: Player,
    m: &Move,
) -> Result<bool, EngineError> {
    let types = royal.get(player.idx()).filter(|t| !t.is_empty());
    if types.is_none() && game.invariants.is_empty() {
        return Ok(true);
    }
    let after = apply_move(game, state, m);
    if let Some(types) = types {
        if royal_attacked(game, &after, player, types)? {
            return Ok(false);
        }
    }
    if !m.is_pass() {
        for inv in &game.invariants {
            if !super::invariant::holds(game, index, &inv.cond, m, &after, player, royal, kings)? {
                return Ok(false);
            }
        }
    }
    Ok(true)
}

/// Whether any of `player`'s pieces of the given types is attacked.
pub fn royal_attacked(
    game: &Game,
    state: &State,
    player: Player,
    types: &[PieceType],
) -> Result<bool, EngineError> {
    // One pass finds the royal pieces and the types each player has on the board (the shapes of types an
    // attacker lacks are not walked); with one royal piece, as in chess, no second pass.
    let n = game.players.len();
    if n <= 8 {
        let mut present = [0u64; 8];
        let (mut first, mut several) = (None, false);
        // The enemy pieces with programs run forwards (en passant, castling), up to a few.
        let table = game.attack_table();
        let mut forward = [0u16; 24];
        let mut nf = 0;
        for (i, c) in state.cells.iter().enumerate() {
            let Some(x) = c else { continue };
            if !x.dead {
                present[x.owner.idx() & 7] |= super::attack::type_bit(x.kind);
                if table
                    .forward
                    .get(x.kind.idx())
                    .is_some_and(|f| !f.is_empty())
                    && !game.same_team(x.owner, player)
                    && !game.players[x.owner.idx()].random
                {
                    if let Some(slot) = forward.get_mut(nf) {
                        *slot = i as u16;
                    }
                    nf += 1;
                }
            }
            if x.owner == player && types.contains(&x.kind) {
                several |= first.is_some();
                first.get_or_insert(i);
            }
        }
        let Some(first) = first else {
            return Ok(false);
        };
        let present = &present[..n];
        let forward = forward.get(..nf);
        if !several {
            return super::attack::attacked_by_known(
                game,
                state,
                Pos(first as u16),
                player,
                present,
                forward,
            );
        }
        for (i, c) in state.cells.iter().enumerate().skip(first) {
            if let Some(x) = c {
                if x.owner == player
                    && types.contains(&x.kind)
                    && super::attack::attacked_by_known(
                        game,
                        state,
                        Pos(i as u16),
                        player,
                        present,
                        forward,
                    )?
                {
                    return Ok(true);
                }
            }
        }
        return Ok(false);
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::{load_game, VariantSel};

    /// The program index lists, for every piece type and move type, exactly the programs the type filter
    /// selects, in declaration order, on every file of `games/` (and a type no program has lists none).
    #[test]
    fn program_index_selects_what_the_filter_selects() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
        let mut checked = 0;
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "zrf") {
                continue;
            }
            let Ok(game) = load_game(&path, &VariantSel::First) else {
                continue;
            };
            let index = ProgramIndex::new(&game, false);
            let types = (0..game.move_types.len() + 2).map(|t| match t {
                0 => None,
                t => Some(MoveType((t - 1) as u16)),
            });
            for t in types {
                for (k, piece) in game.pieces.iter().enumerate() {
                    let want: Vec<u16> = piece
                        .moves
                        .iter()
                        .enumerate()
                        .filter(|(_, p)| TypeFilter::Only(t).wants(p))
                        .map(|(j, _)| j as u16)
                        .collect();
                    let got: Vec<u16> = index
                        .of_type(PieceType(k as u16), t)
                        .iter()
                        .map(|e| e.prog)
                        .collect();
                    assert_eq!(
                        got,
                        want,
                        "{} piece {} type {t:?}",
                        path.display(),
                        piece.name
                    );
                    checked += got.len();
                    // Every entry's first op is the program's own.
                    for e in index.all(PieceType(k as u16)) {
                        let (first, dir) = First::of(&piece.moves[e.prog as usize]);
                        assert_eq!((e.first, e.dir), (first, dir));
                    }
                    let all: Vec<u16> = index
                        .all(PieceType(k as u16))
                        .iter()
                        .map(|e| e.prog)
                        .collect();
                    assert_eq!(all, (0..piece.moves.len() as u16).collect::<Vec<_>>());
                }
            }
        }
        assert!(checked > 100, "only {checked} programs indexed");
    }

    /// `parts` decides a program's first op from its index and runs the rest from the second op
    /// (`Run::exec_entered`): along deterministic lines of every file of `games/`, it emits exactly the parts
    /// that running every program of every piece of the mover from its first op emits, in the same order.
    #[test]
    fn parts_with_first_ops_decided_emit_what_whole_runs_emit() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
        let mut compared = 0;
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "zrf") {
                continue;
            }
            let Ok(game) = load_game(&path, &VariantSel::First) else {
                continue;
            };
            if game.options.shared_pieces {
                continue;
            }
            let engine = crate::engine::Engine::new(&game);
            let mut s = engine.initial();
            for k in 0..30usize {
                let entry = &game.turn_order.entries[s.turn];
                let (player, owner) = (entry.player, entry.moves_as);
                let mut fast = Emissions::default();
                let index = ProgramIndex::new(&game, false);
                parts(
                    &game,
                    &index,
                    &s,
                    player,
                    owner,
                    TypeFilter::Any,
                    None,
                    &mut fast,
                )
                .unwrap();
                let mut whole = Emissions::default();
                {
                    let mut run = Run::new(&game, &s, player, Mode::Generate, &mut whole);
                    run.owner = owner;
                    for (i, c) in s.cells.iter().enumerate() {
                        let Some(x) = *c else { continue };
                        if x.dead || x.owner != owner {
                            continue;
                        }
                        for prog in &game.pieces[x.kind.idx()].moves {
                            run.exec(prog, Pos(i as u16), Some(x), None).unwrap();
                        }
                    }
                }
                // Drops come after the pieces' moves and run whole in both.
                let n = whole.len();
                assert_eq!(
                    format!(
                        "{:?}",
                        (
                            &fast.parts[..n.min(fast.len())],
                            &fast.actions[..fast
                                .parts
                                .get(n.wrapping_sub(1))
                                .map_or(0, |e| e.head.end as usize)]
                        )
                    ),
                    format!("{:?}", (&whole.parts[..], &whole.actions[..])),
                    "{} ply {k}",
                    path.display()
                );
                compared += n;
                let moves = engine.legal_moves(&s).unwrap();
                if moves.is_empty() || engine.outcome(&s, &moves, &[]).unwrap().is_some() {
                    break;
                }
                s = engine.apply(&s, &moves[(7 * k + 1) % moves.len()]);
            }
        }
        assert!(compared > 1000, "only {compared} parts compared");
    }

    /// A program whose first op is a leap with a test of the cursor's neighbour (`(n (verify (empty? e)) add)`)
    /// is not decided by the first-op check of `parts` (it would need the run's navigation): b1 takes on b2,
    /// whose east neighbour is empty; a1 cannot go to a2, whose east neighbour b2 is occupied.
    #[test]
    fn a_first_test_of_a_neighbour_is_left_to_the_run() {
        let src = r#"
(game
  (title "Neighbour test")
  (players White Black)
  (turn-order White Black)
  (board
    (grid
      (dimensions ("a/b/c" (50 0)) ("3/2/1" (0 50)))
      (directions (n 0 -1) (e 1 0))))
  (piece
    (name Pawn)
    (moves (n (verify (empty? e)) add)))
  (board-setup
    (White (Pawn a1 b1))
    (Black (Pawn b2)))
  (draw-condition (White Black) stalemated))
"#;
        let path = crate::test_scratch::Scratch::file("neighbour", "neighbour.zrf", src);
        let game = load_game(&path, &VariantSel::First);
        drop(path);
        let game = game.unwrap();
        let engine = crate::engine::Engine::new(&game);
        let s = engine.initial();
        let moves = engine.legal_moves(&s).unwrap();
        let names: Vec<String> = moves
            .iter()
            .map(|m| {
                let p = &m.parts[0];
                format!(
                    "{}-{}",
                    game.board.pos_name(p.from.unwrap()),
                    game.board.pos_name(p.to.unwrap())
                )
            })
            .collect();
        assert_eq!(names, ["b1-b2"]);
        let mut list = crate::engine::MoveList::new();
        engine.legal_into(&s, &mut list).unwrap();
        assert_eq!(list.len(), 1);
    }
}
