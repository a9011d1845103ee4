//! Move programs as flat bytecode: the [`Instr`] tree of a [`MoveProgram`] lowered, once at load time, to an
//! array of [`Op`]s with jumps, which the interpreter (`engine/run`) executes in one loop without recursion
//! (but for `choose`, which runs the rest of the program once per choice).
//!
//! The tree stays the program's definition: `dagaz check` prints it, and compile-time analyses (invariants,
//! capture orders, `Engine::new`'s promotions, sowing and stacks) read it. The bytecode is derived from it and
//! has the same meaning:
//! * `if`, `while`, `verify` and the `and`/`or`/`not` of their conditions become conditional jumps
//!   ([`Op::Branch`]) that evaluate the same leaves in the same order, with the same short cuts;
//! * the step budget counts what the tree's interpreter counted (one step per instruction executed, one per
//!   round of a `while`): each op stands for a number of steps ([`Code::weights`]), and the budget is
//!   checked only on loop back-edges, between `choose` paths and when the run ends, so that a program stops
//!   with the budget error exactly when it did before, with no test per instruction;
//! * common shapes are fused: a step followed by a `verify` of a simple predicate ([`Op::StepVerify`], a leap),
//!   an `add` with no promotion, copy or continuation ([`Op::AddPlain`]), and othello's flank line, a whole
//!   `if` recognized on the tree ([`Op::Flank`], run as the ops it stands for, step for step);
//! * effect-only regions are marked ([`Op::Skip`], see "Regions that runs for a destination skip" below);
//! * `opposite` steps are resolved here (the board's opposite directions are known at load time); the mover's
//!   symmetry is applied at run time through the per-player navigation table the run picks once per program.
//!
//! ## Regions that runs for a destination skip
//!
//! A run in attack mode (`engine::run::Mode::Attack`: is some emission a capture of one square?) looks only
//! at where its `add`s land and what they capture; the changes a part would make to other squares
//! (`set-attribute`, `change-owner`, `change-type`, `flip`) are recorded and thrown away, and the board is
//! frozen while a program runs (`../shared/spec/zrf.md`, "Principles"), so no later condition sees them.
//! Code that does nothing else is pure cost there, and worse, its reads are recorded as the run's reads, so
//! the legality cache (`engine::legality::LegalityCache`) runs the program again after any move that touches a
//! square it only scanned. Gwangsanghui's move programs end with three scans of the whole board before their
//! `add`, which made every legality test re-run every enemy program.
//!
//! [`Code::lower_on`] marks such code with an [`Op::Skip`] in front of it, jumped over in attack mode (a
//! no-op otherwise). A *skippable region* is a run of consecutive instructions of one block such that, on
//! every path through it:
//! * it emits nothing and ends nothing: no `add`, `verify`, `choose`, `from`, `to`, `cascade`, `capture`,
//!   `create`, `take-prisoner` (a capture or a new piece on the target is a hit), no flag, position flag,
//!   variable or numeric attribute (later conditions read them), no `extra-turn`, `goto-turn`, `sow`,
//!   group capture or `carry`; what it may do is `set-attribute` (of a constant or a condition),
//!   `change-owner`, `change-type` and `flip`, and move the cursor and the mark;
//! * it cannot end the path: every step is *guarded*, its direction known to exist from the cursor (by an
//!   enclosing `if` or `while` whose condition implies it: `(on-board? d)`, or `empty?`, `friend?`,
//!   `enemy?`, `my?`, `piece?`, `in-zone?` or an attribute test of `d`, through `and`, `or` and `not`), an
//!   action on a neighbour (`(set-attribute A true d)`) likewise, and no condition holds a number comparison
//!   (which fails on a division by zero); `go last-from`/`last-to` is refused (it may fail);
//! * it ends: each of its `while` loops moves the cursor exactly one step along one direction `d` per round
//!   (the body, every path of it, ends one `d` from where the round began), and `d` has no cycle on the board
//!   for any player (so a loop runs at most once per position);
//! * it leaves the cursor where it found it (`mark ... back`: the cursor is followed symbolically), and the
//!   mark either untouched on every path or set to that square on every path (the skip then sets it);
//! * it holds at least one `while` (a region without a loop costs a few ops: skipping it would not pay).
//!
//! Such a region cannot change whether, where or what an `add` after it emits in attack mode, and reads
//! nothing an emission depends on; the regions of a block are taken greedily, longest first from the left.
//! Its reads are not made, so not recorded. The step budget: a skipped region charges nothing but the
//! steps owed before it; the budget guards against programs that never end, and a skipped region always
//! ends (above), so an attack run can finish where the full run would pass the budget only through the
//! region's bounded steps (a move generation of that position still runs the region and reports it).
//! [`Code::lower`] (used where the board is not yet known) marks nothing; `without_skips` turns the marks
//! into no-ops, for the tests that compare both.
//!
//! Adding an instruction: (1) a variant of [`Instr`] (`compile/game.rs`) and its parsing in
//! `compile/program.rs`; (2) here, in `Lower::instr`, either nothing (it then runs as [`Op::Instr`], the tree
//! instruction executed by `Run::instr` in `engine/run/instr.rs`) or, for a hot or control-flow instruction, an
//! [`Op`] of its own; (3) its execution: in `Run::instr` for the default, in `Run::run_code`
//! (`engine/run/mod.rs`) for an op of its own. A new condition needs only its variant, its parsing and its case
//! in `Run::cond` (`engine/run/cond.rs`); a [`Test`] of its own only if it is hot.

use super::game::*;

/// The op every failing test jumps to: the path ends there.
pub const FAIL: u32 = 0;

/// A predicate tested by a jump: the common ones inline, any other by its index in [`Code::conds`].
/// (`repr(u8)`: a plain tag byte, which the interpreter's `match` reads in one load.)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Test {
    Empty(Loc),
    Friend(Loc),
    Enemy(Loc),
    Mine(Loc),
    OnBoard(Loc),
    /// `(flag? f)`.
    Flag(FlagId),
    Cond(u32),
}

impl Test {
    /// Whether the test reads only the board and the cursor (not the run's flags, marks or variables), so
    /// that it can be decided before a run is set up (`Run::exec`).
    pub fn board_only(self) -> bool {
        matches!(
            self,
            Test::Empty(_) | Test::Friend(_) | Test::Enemy(_) | Test::Mine(_) | Test::OnBoard(_)
        )
    }
}

/// One instruction of the flat form. Jump targets are indices into [`Code::ops`].
/// (`repr(u8)`: a plain tag byte, which the interpreter's dispatch reads in one load.)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Op {
    /// The path ends (a failed `verify`, a step off the board): op 0 of every program.
    Fail,
    /// The program ends normally.
    End,
    Jump(u32),
    /// A loop's back-edge: checks the step budget, then jumps to `to`.
    Loop(u32),
    /// Nothing: carries steps where no other op does (before a loop's first test, at a join).
    Nop,
    /// Jumps to `to` when the test's outcome is `when`; goes on otherwise.
    Branch {
        test: Test,
        when: bool,
        to: u32,
    },
    /// Moves the cursor one link (after the mover's symmetry); the path ends if there is none.
    Step(Dir),
    /// A step, then a `verify` of the test (the path ends if either fails): a leap. The verify's step is
    /// charged when the step succeeds.
    StepVerify(Dir, Test),
    /// `(while empty? add d)`, the add plain (`None`) or [`Code::adds`]`[i]`: a slide that emits a part on
    /// every empty square. Charges 3 steps a square (the round, the add, the step), as the tree did.
    Slide(Dir, Option<u32>),
    /// `(while TEST d)`: steps while the test holds (the path ends where the board does); 2 steps a round.
    StepWhile(Dir, Test),
    /// A flank line, othello's capture along one direction: the whole of
    /// `(if (enemy? d) d (while (enemy? d) d) (if (friend? d) back d (while enemy? flip d) (set-flag f true)) back)`
    /// as one op (the `If` of [`Code::lower`]'s fusions). It runs the same tests, steps, `back`s and flips in
    /// the same order and charges the same steps at the same points as the ops it stands for (see
    /// `Run::flank`); the op's own weight is the outer `if`'s.
    Flank(Dir, FlagId),
    /// `(set-attribute A true|false [LOC])`.
    SetAttribute(AttrId, bool, Loc),
    /// `(set-flag f true|false)`.
    SetFlag(FlagId, bool),
    /// `(flip [LOC])`.
    Flip(Loc),
    JumpTo(Pos),
    Mark,
    Back,
    Go(GoTarget),
    From,
    To,
    Cascade,
    Capture(Loc),
    /// `add` with no promotion, no copy and no continuation.
    AddPlain,
    /// Any other `add`: its parameters are [`Code::adds`]`[i]`.
    Add(u32),
    /// `choose`: [`Code::chooses`]`[i]`. The choice's body follows this op, then its rest.
    Choose(u32),
    /// An emission with its `post` instructions ([`Instr::Post`]): they follow this op, then the emission,
    /// then an [`Op::End`]; the run goes on at [`Code::posts`]`[i]`, with the registers as they were here
    /// (less what the emission consumed, when it emitted).
    Post(u32),
    /// Any other instruction, run from the tree: [`Code::instrs`]`[i]`.
    Instr(u32),
    /// The start of a skippable region (see the module's "Regions that runs for a destination skip"), which
    /// ends at `to`: in attack mode the run jumps there (setting the mark to the cursor when `set_mark`);
    /// otherwise it goes on into the region. It carries the steps owed before the region.
    Skip {
        to: u32,
        set_mark: bool,
    },
    /// A [`Op::Branch`] on `empty?`, `friend?`, `enemy?` or `flag?`, with the test in the op's own tag (one
    /// dispatch instead of two): only in [`Code::slots`], made from the `Branch` of [`Code::ops`].
    IfEmpty {
        at: Loc,
        when: bool,
        to: u32,
    },
    IfFriend {
        at: Loc,
        when: bool,
        to: u32,
    },
    IfEnemy {
        at: Loc,
        when: bool,
        to: u32,
    },
    IfFlag {
        flag: FlagId,
        when: bool,
        to: u32,
    },
}

impl Op {
    /// The form the interpreter runs: a branch on a common test as an op of its own.
    fn specialized(self) -> Op {
        match self {
            Op::Branch { test, when, to } => match test {
                Test::Empty(at) => Op::IfEmpty { at, when, to },
                Test::Friend(at) => Op::IfFriend { at, when, to },
                Test::Enemy(at) => Op::IfEnemy { at, when, to },
                Test::Flag(flag) => Op::IfFlag { flag, when, to },
                _ => self,
            },
            _ => self,
        }
    }
}

/// The parameters of an `add`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AddOp {
    pub promote: Vec<PieceType>,
    pub copy: bool,
    pub partial: Option<Option<MoveType>>,
}

/// The parameters of a `choose` (see [`Instr::Choose`]).
#[derive(Clone, Debug, PartialEq)]
pub struct ChooseOp {
    pub set: Cond,
    pub otherwise: Option<Cond>,
    /// Where the rest of the program starts (after the choice's body): run alone when nothing is chosen.
    pub rest: u32,
}

/// An op with the steps it stands for, side by side: what the interpreter's loop reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    pub op: Op,
    pub weight: u32,
}

/// A move program as flat bytecode (see the module's paragraph).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Code {
    pub ops: Vec<Op>,
    /// `ops` and `weights` zipped.
    pub slots: Vec<Slot>,
    /// Per op, the steps of the step budget it stands for: the tree instructions it starts (one each) and
    /// the rounds of a `while` whose body it starts.
    pub weights: Vec<u32>,
    pub conds: Vec<Cond>,
    pub adds: Vec<AddOp>,
    pub chooses: Vec<ChooseOp>,
    /// Per [`Op::Post`], where the program goes on after the emission.
    pub posts: Vec<u32>,
    pub instrs: Vec<Instr>,
    /// The program is its first op and a plain `add`: `[Fail, first, AddPlain, End]`, so that a run whose
    /// first op passed only emits (`Run::exec`).
    pub adds_after_entry: bool,
}

/// Where execution starts: after [`FAIL`].
pub const START: usize = 1;

impl Code {
    /// Lowers a program's tree. Total: every tree has a flat form.
    pub fn lower(body: &[Instr], opposite: &[Option<Dir>]) -> Code {
        Code::lower_with(body, opposite, true)
    }

    /// [`Code::lower`] without the flank-line fusion ([`Op::Flank`]): the general ops it stands for, for the
    /// tests that run both forms side by side.
    #[doc(hidden)]
    pub fn lower_unfused(body: &[Instr], opposite: &[Option<Dir>]) -> Code {
        Code::lower_with(body, opposite, false)
    }

    /// [`Code::lower`] on a known board: also marks the regions attack runs skip ([`Op::Skip`]), given the
    /// board's [`acyclic_directions`] (computed once per game; empty when no program has a loop).
    pub fn lower_on(body: &[Instr], opposite: &[Option<Dir>], acyclic: &[bool]) -> Code {
        Code::lower_full(body, opposite, true, Some(acyclic))
    }

    fn lower_with(body: &[Instr], opposite: &[Option<Dir>], fuse_flanks: bool) -> Code {
        Code::lower_full(body, opposite, fuse_flanks, None)
    }

    fn lower_full(
        body: &[Instr],
        opposite: &[Option<Dir>],
        fuse_flanks: bool,
        acyclic: Option<&[bool]>,
    ) -> Code {
        let mut l = Lower {
            code: Code::default(),
            opposite,
            acyclic,
            fuse_flanks,
            labels: vec![FAIL],
            bound_here: false,
            pending: 0,
            weights: vec![],
        };
        l.push(Op::Fail);
        l.block(body);
        l.push(Op::End);
        l.resolve();
        let mut code = l.code;
        code.slots = code
            .ops
            .iter()
            .zip(&code.weights)
            .map(|(&op, &weight)| Slot {
                op: op.specialized(),
                weight,
            })
            .collect();
        code.adds_after_entry = matches!(code.ops[..], [Op::Fail, _, Op::AddPlain, Op::End]);
        code
    }

    /// The number of skippable regions marked ([`Op::Skip`]).
    pub fn skips(&self) -> usize {
        self.ops
            .iter()
            .filter(|o| matches!(o, Op::Skip { .. }))
            .count()
    }

    /// The same code with every [`Op::Skip`] a no-op (the same steps): attack runs then run every region.
    /// For the tests that compare both.
    #[doc(hidden)]
    pub fn without_skips(&mut self) {
        for op in self.ops.iter_mut() {
            if matches!(op, Op::Skip { .. }) {
                *op = Op::Nop;
            }
        }
        for slot in self.slots.iter_mut() {
            if matches!(slot.op, Op::Skip { .. }) {
                slot.op = Op::Nop;
            }
        }
    }
}

/// The skippable regions marked in all of a game's programs ([`Code::skips`]).
pub fn skips(game: &Game) -> usize {
    game.pieces
        .iter()
        .flat_map(|p| p.moves.iter().chain(&p.drops))
        .map(|p| p.code.skips())
        .sum()
}

/// [`Code::without_skips`] for every program of the game: its attack runs then run every region.
#[doc(hidden)]
pub fn without_skips(game: &mut Game) {
    for piece in &mut game.pieces {
        for prog in piece.moves.iter_mut().chain(piece.drops.iter_mut()) {
            prog.code.without_skips();
        }
    }
}

/// Whether a program holds a `while` (only then can it have a skippable region).
pub fn has_loops(body: &[Instr]) -> bool {
    body.iter().any(|i| match i {
        Instr::While(..) => true,
        Instr::If(_, t, e) => has_loops(t) || has_loops(e),
        Instr::Choose(c) => has_loops(&c.body) || has_loops(&c.rest),
        _ => false,
    })
}

/// Per direction, whether following it never comes back to a position, for every player (after symmetry):
/// then a walk along it visits each position at most once.
pub fn acyclic_directions(board: &Board) -> Vec<bool> {
    let nd = board.directions.len();
    let n = board.positions.len();
    let mut state = vec![0u8; n];
    let mut walk = vec![];
    (0..nd)
        .map(|d| {
            board.nav.iter().all(|nav| {
                // 0 unseen, 1 on the walk under way, 2 known to end.
                state.iter_mut().for_each(|x| *x = 0);
                for s in 0..n {
                    let mut p = s;
                    walk.clear();
                    let cycle = loop {
                        match state[p] {
                            1 => break true,
                            2 => break false,
                            _ => {}
                        }
                        state[p] = 1;
                        walk.push(p);
                        match nav.get(p * nd + d) {
                            Some(&t) if t != NO_POS && (t as usize) < n => p = t as usize,
                            _ => break false,
                        }
                    };
                    if cycle {
                        return false;
                    }
                    for &q in &walk {
                        state[q] = 2;
                    }
                }
                true
            })
        })
        .collect()
}

/// The lowering: ops are built with label numbers as targets, resolved to indices at the end.
struct Lower<'b> {
    code: Code,
    /// The board's opposite directions.
    opposite: &'b [Option<Dir>],
    /// Per direction, whether it has no cycle on the board ([`acyclic_directions`]); `None`: no region is
    /// marked ([`Op::Skip`]).
    acyclic: Option<&'b [bool]>,
    /// Whether flank lines become [`Op::Flank`].
    fuse_flanks: bool,
    /// Per label, its op index once bound (`u32::MAX` before). Label 0 is [`FAIL`].
    labels: Vec<u32>,
    /// A label is bound at the next op's index: that op is a jump target and must not be fused backwards.
    bound_here: bool,
    /// Steps not yet carried by an op: the next op pushed carries them.
    pending: u32,
    /// Per op, the steps it stands for (see [`Code::weights`]).
    weights: Vec<u32>,
}

impl Lower<'_> {
    fn here(&self) -> u32 {
        self.code.ops.len() as u32
    }

    fn push(&mut self, op: Op) {
        self.code.ops.push(op);
        self.weights.push(std::mem::take(&mut self.pending));
        self.bound_here = false;
    }

    /// Steps the next op carries.
    fn charge(&mut self, n: u32) {
        self.pending += n;
    }

    fn label(&mut self) -> u32 {
        self.labels.push(u32::MAX);
        self.labels.len() as u32 - 1
    }

    fn bind(&mut self, label: u32) {
        // Steps owed by the code before a join are not owed by the paths that jump to it.
        if self.pending > 0 {
            self.push(Op::Nop);
        }
        self.labels[label as usize] = self.here();
        self.bound_here = true;
    }

    fn resolve(&mut self) {
        let at = |l: u32| self.labels[l as usize];
        for op in &mut self.code.ops {
            match op {
                Op::Jump(t) => *t = at(*t),
                Op::Loop(to) | Op::Branch { to, .. } | Op::Skip { to, .. } => *to = at(*to),
                _ => {}
            }
        }
        for c in &mut self.code.chooses {
            c.rest = at(c.rest);
        }
        for r in &mut self.code.posts {
            *r = at(*r);
        }
        self.code.weights = std::mem::take(&mut self.weights);
    }

    fn block(&mut self, body: &[Instr]) {
        let mut k = 0;
        while k < body.len() {
            if let Some((n, set_mark)) = self.region(&body[k..]) {
                // The skip carries the steps owed before the region; the region's own steps are its ops'.
                let end = self.label();
                self.push(Op::Skip { to: end, set_mark });
                for i in &body[k..k + n] {
                    self.charge(1);
                    self.instr(i);
                }
                self.bind(end);
                k += n;
                continue;
            }
            // One step per instruction, as the tree's interpreter counted.
            self.charge(1);
            self.instr(&body[k]);
            k += 1;
        }
    }

    /// The longest skippable region at the start of `body` (see the module's paragraph): its length and
    /// whether the skip sets the mark.
    fn region(&self, body: &[Instr]) -> Option<(usize, bool)> {
        let acyclic = self.acyclic?;
        if !body.iter().any(has_loop) {
            return None;
        }
        let mut scan = Scan {
            opposite: self.opposite,
            acyclic,
            depth: 0,
            loops: false,
        };
        let mut st = St {
            cursor: Sym::Entry,
            mark: Sym::Outer,
            onboard: 0,
        };
        let mut best = None;
        for (k, i) in body.iter().enumerate() {
            match scan.instr(i, st) {
                Some(s) => st = s,
                None => break,
            }
            if scan.loops && st.cursor == Sym::Entry {
                match st.mark {
                    Sym::Outer => best = Some((k + 1, false)),
                    Sym::Entry => best = Some((k + 1, true)),
                    _ => {}
                }
            }
        }
        best
    }

    fn instr(&mut self, i: &Instr) {
        match i {
            Instr::Step(d) => self.push(Op::Step(*d)),
            Instr::StepOpposite(d) => match self.opposite.get(d.idx()).copied().flatten() {
                Some(o) => self.push(Op::Step(o)),
                None => self.push(Op::Fail),
            },
            Instr::JumpTo(p) => self.push(Op::JumpTo(*p)),
            Instr::Verify(c) => self.jump_if(c, false, FAIL),
            Instr::If(c, then, els) if self.fuse_flanks && els.is_empty() => match flank(c, then) {
                Some((d, f)) => self.push(Op::Flank(d, f)),
                None => self.lower_if(c, then, els),
            },
            Instr::If(c, then, els) => self.lower_if(c, then, els),
            Instr::While(c, body) if self.fused_loop(c, body) => {}
            Instr::While(c, body) => {
                let top = self.label();
                let end = self.label();
                self.bind(top);
                self.jump_if(c, false, end);
                // One step per round.
                self.charge(1);
                self.block(body);
                self.push(Op::Loop(top));
                self.bind(end);
            }
            Instr::Mark => self.push(Op::Mark),
            Instr::Back => self.push(Op::Back),
            Instr::Go(t) => self.push(Op::Go(*t)),
            Instr::From => self.push(Op::From),
            Instr::To => self.push(Op::To),
            Instr::Cascade => self.push(Op::Cascade),
            Instr::Capture(l) => self.push(Op::Capture(*l)),
            Instr::Add {
                promote,
                copy,
                partial,
            } => {
                if promote.is_empty() && !copy && partial.is_none() {
                    self.push(Op::AddPlain)
                } else {
                    self.code.adds.push(AddOp {
                        promote: promote.clone(),
                        copy: *copy,
                        partial: *partial,
                    });
                    self.push(Op::Add(self.code.adds.len() as u32 - 1))
                }
            }
            Instr::SetAttribute(a, c @ (Cond::True | Cond::False), l) => {
                self.push(Op::SetAttribute(*a, *c == Cond::True, *l))
            }
            Instr::SetFlag(f, c @ (Cond::True | Cond::False)) => {
                self.push(Op::SetFlag(*f, *c == Cond::True))
            }
            Instr::Flip(l) => self.push(Op::Flip(*l)),
            Instr::Choose(c) => {
                let k = self.code.chooses.len() as u32;
                let rest = self.label();
                self.code.chooses.push(ChooseOp {
                    set: c.set.clone(),
                    otherwise: c.otherwise.clone(),
                    rest,
                });
                self.push(Op::Choose(k));
                self.block(&c.body);
                self.bind(rest);
                self.block(&c.rest);
            }
            Instr::Post(p) => {
                let k = self.code.posts.len() as u32;
                let rest = self.label();
                self.code.posts.push(rest);
                self.push(Op::Post(k));
                self.block(&p.post);
                self.block(&p.emit);
                self.push(Op::End);
                self.bind(rest);
            }
            _ => {
                self.code.instrs.push(i.clone());
                self.push(Op::Instr(self.code.instrs.len() as u32 - 1))
            }
        }
    }

    fn lower_if(&mut self, c: &Cond, then: &[Instr], els: &[Instr]) {
        let other = self.label();
        self.jump_if(c, false, other);
        self.block(then);
        if els.is_empty() {
            self.bind(other);
        } else {
            let end = self.label();
            self.push(Op::Jump(end));
            self.bind(other);
            self.block(els);
            self.bind(end);
        }
    }

    /// The loops with an op of their own: a slide that adds on every empty square, a run of steps while a
    /// simple test holds. Whether it was one.
    fn fused_loop(&mut self, c: &Cond, body: &[Instr]) -> bool {
        match (c, body) {
            (
                Cond::Empty(Loc::Cursor),
                [Instr::Add {
                    promote,
                    copy,
                    partial,
                }, Instr::Step(d)],
            ) => {
                let add = if promote.is_empty() && !copy && partial.is_none() {
                    None
                } else {
                    self.code.adds.push(AddOp {
                        promote: promote.clone(),
                        copy: *copy,
                        partial: *partial,
                    });
                    Some(self.code.adds.len() as u32 - 1)
                };
                self.push(Op::Slide(*d, add));
                true
            }
            (
                Cond::Empty(_)
                | Cond::Friend(_)
                | Cond::Enemy(_)
                | Cond::Mine(_)
                | Cond::OnBoard(_),
                [Instr::Step(d)],
            ) => {
                let test = self.test(c);
                self.push(Op::StepWhile(*d, test));
                true
            }
            _ => false,
        }
    }

    /// The test of a leaf condition.
    fn test(&mut self, c: &Cond) -> Test {
        match c {
            Cond::Empty(l) => Test::Empty(*l),
            Cond::Friend(l) => Test::Friend(*l),
            Cond::Enemy(l) => Test::Enemy(*l),
            Cond::Mine(l) => Test::Mine(*l),
            Cond::OnBoard(l) => Test::OnBoard(*l),
            Cond::Flag(f) => Test::Flag(*f),
            _ => {
                self.code.conds.push(c.clone());
                Test::Cond(self.code.conds.len() as u32 - 1)
            }
        }
    }

    /// Code that jumps to `target` when `c` is `when` and goes on otherwise, evaluating the leaves of `c` in
    /// order and stopping as soon as the outcome is known (as `Run::cond` does).
    fn jump_if(&mut self, c: &Cond, when: bool, target: u32) {
        match c {
            Cond::True => {
                if when {
                    self.push(Op::Jump(target))
                }
            }
            Cond::False => {
                if !when {
                    self.push(Op::Jump(target))
                }
            }
            Cond::Not(c) => self.jump_if(c, !when, target),
            // `and` jumps on the first false leaf; it is true when all are: `or` is its mirror image.
            Cond::And(cs) | Cond::Or(cs) => {
                let all = matches!(c, Cond::And(_));
                match cs.split_last() {
                    None => {
                        if when == all {
                            self.push(Op::Jump(target))
                        }
                    }
                    Some((last, init)) if when != all => {
                        for c in init {
                            self.jump_if(c, when, target);
                        }
                        self.jump_if(last, when, target);
                    }
                    Some((last, init)) => {
                        let skip = self.label();
                        for c in init {
                            self.jump_if(c, !all, skip);
                        }
                        self.jump_if(last, when, target);
                        self.bind(skip);
                    }
                }
            }
            _ => {
                let test = self.test(c);
                // A step followed by a verify: one op, unless the verify is a jump target. The op charges the
                // verify's step itself, after the step.
                if !when && target == FAIL && !self.bound_here && self.pending == 1 {
                    if let Some(Op::Step(d)) = self.code.ops.last().copied() {
                        *self.code.ops.last_mut().unwrap() = Op::StepVerify(d, test);
                        self.pending = 0;
                        return;
                    }
                }
                self.push(Op::Branch {
                    test,
                    when,
                    to: target,
                })
            }
        }
    }
}

fn has_loop(i: &Instr) -> bool {
    match i {
        Instr::While(..) => true,
        Instr::If(_, t, e) => t.iter().chain(e).any(has_loop),
        _ => false,
    }
}

/// Where the cursor or the mark stands, as far as the region analysis knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sym {
    /// The cursor's square when the region began.
    Entry,
    /// The mark's value when the region began (perhaps none: `back` then goes to the start square).
    Outer,
    /// The cursor's square at the start of a round of the loop at this depth.
    Head(u8),
    /// One step along the direction from that square.
    Stepped(u8, Dir),
    Unknown,
}

/// The analysis state between two instructions of a candidate region.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct St {
    cursor: Sym,
    mark: Sym,
    /// Directions (below 64) known to lead somewhere from the cursor.
    onboard: u64,
}

fn join(a: St, b: St) -> St {
    let same = |x: Sym, y: Sym| if x == y { x } else { Sym::Unknown };
    St {
        cursor: same(a.cursor, b.cursor),
        mark: same(a.mark, b.mark),
        onboard: a.onboard & b.onboard,
    }
}

fn dir_bit(d: Dir) -> u64 {
    if d.idx() < 64 {
        1 << d.idx()
    } else {
        0
    }
}

/// The directions that lead somewhere from the cursor when `c` has the value `truth` (a test of a
/// neighbour's contents is false where there is none).
fn facts(c: &Cond, truth: bool) -> u64 {
    match c {
        Cond::Not(c) => facts(c, !truth),
        Cond::And(cs) if truth => cs.iter().fold(0, |a, c| a | facts(c, true)),
        Cond::Or(cs) if !truth => cs.iter().fold(0, |a, c| a | facts(c, false)),
        Cond::Or(cs) if truth && !cs.is_empty() => {
            cs.iter().fold(u64::MAX, |a, c| a & facts(c, true))
        }
        Cond::OnBoard(Loc::Dir(d))
        | Cond::Empty(Loc::Dir(d))
        | Cond::Friend(Loc::Dir(d))
        | Cond::Enemy(Loc::Dir(d))
        | Cond::Mine(Loc::Dir(d))
        | Cond::Piece(_, Loc::Dir(d))
        | Cond::InZone(_, Loc::Dir(d))
        | Cond::Attribute(_, Loc::Dir(d))
            if truth =>
        {
            dir_bit(*d)
        }
        _ => 0,
    }
}

/// Whether evaluating `c` can end the path or stop the run: only a number comparison can (a division by
/// zero ends the path). In attack mode `attacked?` and `defended?` are false without a search.
fn cannot_fail(c: &Cond) -> bool {
    match c {
        Cond::Not(c) => cannot_fail(c),
        Cond::And(cs) | Cond::Or(cs) => cs.iter().all(cannot_fail),
        Cond::Compare(..) => false,
        _ => true,
    }
}

/// The region analysis: follows the cursor and the mark through instructions, `None` for one a region may
/// not hold.
struct Scan<'b> {
    opposite: &'b [Option<Dir>],
    acyclic: &'b [bool],
    /// Loops entered.
    depth: u8,
    /// A loop was seen.
    loops: bool,
}

impl Scan<'_> {
    fn block(&mut self, body: &[Instr], mut st: St) -> Option<St> {
        for i in body {
            st = self.instr(i, st)?;
        }
        Some(st)
    }

    fn at(&self, l: &Loc, st: St) -> Option<()> {
        match l {
            Loc::Cursor | Loc::Pos(_) => Some(()),
            Loc::Dir(d) => (st.onboard & dir_bit(*d) != 0).then_some(()),
        }
    }

    fn step(&self, d: Dir, st: St) -> Option<St> {
        if st.onboard & dir_bit(d) == 0 {
            return None;
        }
        let cursor = match st.cursor {
            Sym::Head(n) => Sym::Stepped(n, d),
            _ => Sym::Unknown,
        };
        Some(St {
            cursor,
            onboard: 0,
            ..st
        })
    }

    fn instr(&mut self, i: &Instr, st: St) -> Option<St> {
        match i {
            Instr::Step(d) => self.step(*d, st),
            Instr::StepOpposite(d) => self.step(self.opposite.get(d.idx()).copied().flatten()?, st),
            Instr::JumpTo(_) => Some(St {
                cursor: Sym::Unknown,
                onboard: 0,
                ..st
            }),
            Instr::Mark => Some(St {
                mark: st.cursor,
                ..st
            }),
            Instr::Back | Instr::Go(GoTarget::Mark) => Some(St {
                cursor: st.mark,
                onboard: if st.mark == st.cursor { st.onboard } else { 0 },
                ..st
            }),
            Instr::If(c, then, els) => {
                if !cannot_fail(c) {
                    return None;
                }
                let yes = St {
                    onboard: st.onboard | facts(c, true),
                    ..st
                };
                let no = St {
                    onboard: st.onboard | facts(c, false),
                    ..st
                };
                Some(join(self.block(then, yes)?, self.block(els, no)?))
            }
            Instr::While(c, body) => self.walk(c, body, st),
            Instr::SetAttribute(_, c, l) => {
                self.at(l, st)?;
                cannot_fail(c).then_some(st)
            }
            Instr::ChangeOwner(_, l) | Instr::ChangeType(_, l) | Instr::Flip(l) => {
                self.at(l, st)?;
                Some(st)
            }
            _ => None,
        }
    }

    /// A `while` that walks one direction, one step a round, along a direction without cycles.
    fn walk(&mut self, c: &Cond, body: &[Instr], st: St) -> Option<St> {
        if !cannot_fail(c) || self.depth == u8::MAX {
            return None;
        }
        self.loops = true;
        let n = self.depth;
        self.depth += 1;
        let mut mark = st.mark;
        let out = loop {
            let head = St {
                cursor: Sym::Head(n),
                mark,
                onboard: facts(c, true),
            };
            let Some(end) = self.block(body, head) else {
                self.depth -= 1;
                return None;
            };
            match end.cursor {
                Sym::Stepped(m, d) if m == n && self.acyclic.get(d.idx()) == Some(&true) => {}
                _ => {
                    self.depth -= 1;
                    return None;
                }
            }
            let joined = if end.mark == mark { mark } else { Sym::Unknown };
            if joined == mark {
                break St {
                    cursor: Sym::Unknown,
                    mark,
                    onboard: facts(c, false),
                };
            }
            mark = joined;
        };
        self.depth -= 1;
        Some(out)
    }
}

/// Whether `(if c then)` (no `else`) is a flank line ([`Op::Flank`]), exactly
/// `(if (enemy? d) d (while (enemy? d) d) (if (friend? d) back d (while enemy? flip d) (set-flag f true)) back)`
/// with one direction `d` throughout: its direction and flag.
fn flank(c: &Cond, then: &[Instr]) -> Option<(Dir, FlagId)> {
    let &Cond::Enemy(Loc::Dir(d)) = c else {
        return None;
    };
    let [Instr::Step(d1), Instr::While(Cond::Enemy(Loc::Dir(d2)), walk), Instr::If(Cond::Friend(Loc::Dir(d3)), close, no), Instr::Back] =
        then
    else {
        return None;
    };
    if [*d1, *d2, *d3] != [d, d, d] || !no.is_empty() || walk[..] != [Instr::Step(d)] {
        return None;
    }
    let [Instr::Back, Instr::Step(d4), Instr::While(Cond::Enemy(Loc::Cursor), turn), Instr::SetFlag(f, Cond::True)] =
        &close[..]
    else {
        return None;
    };
    (*d4 == d && turn[..] == [Instr::Flip(Loc::Cursor), Instr::Step(d)]).then_some((d, *f))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leaf(p: u16) -> Cond {
        Cond::IsPosition(Pos(p), Loc::Cursor)
    }

    /// Evaluates the lowered form of `c` as `verify` would, with leaf `IsPosition(p)` true when bit p of
    /// `bits` is set; returns whether the verify passed and the leaves evaluated, in order.
    fn run_verify(c: &Cond, bits: u32) -> (bool, Vec<u16>) {
        let code = Code::lower(&[Instr::Verify(c.clone())], &[]);
        let mut pc = START;
        let mut seen = vec![];
        loop {
            match code.ops[pc] {
                Op::Fail => return (false, seen),
                Op::End => return (true, seen),
                Op::Jump(t) => pc = t as usize,
                Op::Branch { test, when, to } => {
                    let Test::Cond(i) = test else { panic!() };
                    let Cond::IsPosition(p, _) = code.conds[i as usize] else {
                        panic!()
                    };
                    seen.push(p.0);
                    let v = bits >> p.0 & 1 == 1;
                    pc = if v == when { to as usize } else { pc + 1 };
                }
                op => panic!("{op:?}"),
            }
        }
    }

    /// The tree's evaluation, with the same leaves.
    fn eval(c: &Cond, bits: u32, seen: &mut Vec<u16>) -> bool {
        match c {
            Cond::True => true,
            Cond::False => false,
            Cond::Not(c) => !eval(c, bits, seen),
            Cond::And(cs) => cs.iter().all(|c| eval(c, bits, seen)),
            Cond::Or(cs) => cs.iter().any(|c| eval(c, bits, seen)),
            Cond::IsPosition(p, _) => {
                seen.push(p.0);
                bits >> p.0 & 1 == 1
            }
            _ => unreachable!(),
        }
    }

    /// Only a first op followed by a plain `add` and the end is run as an emission alone.
    #[test]
    fn adds_after_entry_only_for_a_first_op_and_a_plain_add() {
        let n = Dir(0);
        let add = || Instr::Add {
            promote: vec![],
            copy: false,
            partial: None,
        };
        let empty = Cond::Empty(Loc::Cursor);
        let yes = [
            vec![Instr::Step(n), add()],
            vec![Instr::Step(n), Instr::Verify(empty.clone()), add()],
            vec![Instr::Verify(empty.clone()), add()],
        ];
        for body in &yes {
            assert!(Code::lower(body, &[]).adds_after_entry, "{body:?}");
        }
        let no = [
            vec![add()],
            vec![Instr::Step(n), Instr::Capture(Loc::Cursor), add()],
            vec![Instr::Step(n), add(), Instr::Step(n), add()],
            vec![
                Instr::Step(n),
                Instr::Add {
                    promote: vec![PieceType(1)],
                    copy: false,
                    partial: None,
                },
            ],
            vec![
                Instr::Step(n),
                Instr::Add {
                    promote: vec![],
                    copy: false,
                    partial: Some(None),
                },
            ],
            vec![Instr::Verify(empty.clone()), Instr::Verify(empty), add()],
        ];
        for body in &no {
            assert!(!Code::lower(body, &[]).adds_after_entry, "{body:?}");
        }
    }

    /// Othello's flank line along `d` with the flag `f`, as the tree of its macro.
    fn flank_line(d: Dir, f: FlagId) -> Instr {
        let enemy = |l| Cond::Enemy(l);
        Instr::If(
            enemy(Loc::Dir(d)),
            vec![
                Instr::Step(d),
                Instr::While(enemy(Loc::Dir(d)), vec![Instr::Step(d)]),
                Instr::If(
                    Cond::Friend(Loc::Dir(d)),
                    vec![
                        Instr::Back,
                        Instr::Step(d),
                        Instr::While(
                            enemy(Loc::Cursor),
                            vec![Instr::Flip(Loc::Cursor), Instr::Step(d)],
                        ),
                        Instr::SetFlag(f, Cond::True),
                    ],
                    vec![],
                ),
                Instr::Back,
            ],
            vec![],
        )
    }

    fn flanks(body: &[Instr]) -> usize {
        let code = Code::lower(body, &[]);
        code.ops
            .iter()
            .filter(|o| matches!(o, Op::Flank(..)))
            .count()
    }

    /// The flank line is one op; any other shape (another direction inside, a side effect inside, an `else`,
    /// another test, a `back` missing, a flag set to false) keeps the general ops.
    #[test]
    fn only_the_flank_line_is_fused() {
        let (n, s, f) = (Dir(0), Dir(4), FlagId(0));
        assert_eq!(flanks(&[flank_line(n, f), flank_line(s, f)]), 2);
        assert_eq!(
            Code::lower(&[flank_line(n, f)], &[]).ops,
            vec![Op::Fail, Op::Flank(n, f), Op::End]
        );
        assert_eq!(flanks(&[flank_line(n, f)]), 1);
        // Each edit of one place of the tree.
        type Edit = fn(&mut Instr);
        fn then(i: &mut Instr) -> &mut Vec<Instr> {
            let Instr::If(_, t, _) = i else { panic!() };
            t
        }
        fn close(i: &mut Instr) -> &mut Vec<Instr> {
            then(&mut then(i)[2])
        }
        let edits: Vec<(&str, Edit)> = vec![
            ("test", |i| {
                let Instr::If(c, ..) = i else { panic!() };
                *c = Cond::Friend(Loc::Dir(Dir(0)));
            }),
            ("else", |i| {
                let Instr::If(_, _, e) = i else { panic!() };
                e.push(Instr::Back);
            }),
            ("first step", |i| then(i)[0] = Instr::Step(Dir(4))),
            ("walk direction", |i| {
                then(i)[1] = Instr::While(Cond::Enemy(Loc::Dir(Dir(0))), vec![Instr::Step(Dir(4))])
            }),
            ("walk side effect", |i| {
                then(i)[1] = Instr::While(
                    Cond::Enemy(Loc::Dir(Dir(0))),
                    vec![Instr::SetFlag(FlagId(1), Cond::True), Instr::Step(Dir(0))],
                )
            }),
            ("last back", |i| {
                then(i).pop();
            }),
            ("close test", |i| {
                let Instr::If(c, ..) = &mut then(i)[2] else {
                    panic!()
                };
                *c = Cond::Empty(Loc::Dir(Dir(0)));
            }),
            ("flip place", |i| {
                close(i)[2] = Instr::While(
                    Cond::Enemy(Loc::Cursor),
                    vec![Instr::Flip(Loc::Dir(Dir(0))), Instr::Step(Dir(0))],
                )
            }),
            ("flip side effect", |i| {
                close(i)[2] = Instr::While(
                    Cond::Enemy(Loc::Cursor),
                    vec![
                        Instr::Flip(Loc::Cursor),
                        Instr::Capture(Loc::Cursor),
                        Instr::Step(Dir(0)),
                    ],
                )
            }),
            ("flag false", |i| {
                close(i)[3] = Instr::SetFlag(FlagId(0), Cond::False)
            }),
            ("no back before", |i| {
                close(i).remove(0);
            }),
        ];
        for (what, edit) in edits {
            let mut i = flank_line(n, f);
            edit(&mut i);
            assert_eq!(flanks(&[i]), 0, "{what}");
        }
    }

    #[test]
    fn jumps_evaluate_conditions_as_the_tree_does() {
        let (a, b, c, d) = (leaf(0), leaf(1), leaf(2), leaf(3));
        let not = |x: Cond| Cond::Not(Box::new(x));
        let conds = vec![
            Cond::And(vec![a.clone(), b.clone()]),
            Cond::Or(vec![a.clone(), b.clone(), c.clone()]),
            not(Cond::And(vec![a.clone(), not(b.clone())])),
            Cond::Or(vec![
                Cond::And(vec![a.clone(), b.clone()]),
                not(Cond::Or(vec![c.clone(), d.clone()])),
            ]),
            Cond::And(vec![
                Cond::Or(vec![a.clone(), not(b.clone())]),
                Cond::Or(vec![]),
                c.clone(),
            ]),
            Cond::And(vec![]),
            not(Cond::Or(vec![])),
            Cond::Or(vec![Cond::False, Cond::And(vec![Cond::True, d.clone()])]),
            not(Cond::And(vec![
                Cond::Or(vec![a.clone(), b.clone()]),
                not(c.clone()),
            ])),
        ];
        for c in &conds {
            for bits in 0..16 {
                let mut seen = vec![];
                let want = eval(c, bits, &mut seen);
                assert_eq!(run_verify(c, bits), (want, seen), "{c:?} with {bits:04b}");
            }
        }
    }
}
