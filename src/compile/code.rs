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
//! * `opposite` steps are resolved here (the board's opposite directions are known at load time); the mover's
//!   symmetry is applied at run time through the per-player navigation table the run picks once per program.
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
    /// Any other instruction, run from the tree: [`Code::instrs`]`[i]`.
    Instr(u32),
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

    fn lower_with(body: &[Instr], opposite: &[Option<Dir>], fuse_flanks: bool) -> Code {
        let mut l = Lower {
            code: Code::default(),
            opposite,
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
}

/// The lowering: ops are built with label numbers as targets, resolved to indices at the end.
struct Lower<'b> {
    code: Code,
    /// The board's opposite directions.
    opposite: &'b [Option<Dir>],
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
                Op::Loop(to) | Op::Branch { to, .. } => *to = at(*to),
                _ => {}
            }
        }
        for c in &mut self.code.chooses {
            c.rest = at(c.rest);
        }
        self.code.weights = std::mem::take(&mut self.weights);
    }

    fn block(&mut self, body: &[Instr]) {
        for i in body {
            // One step per instruction, as the tree's interpreter counted.
            self.charge(1);
            self.instr(i);
        }
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
