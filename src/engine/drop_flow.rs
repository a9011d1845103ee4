//! What a drop program's bytecode does, found by a data-flow analysis rather than by its shape, for the sampling
//! plan (`engine/sample.rs`): whether the drop is *in place* (at most one part per run, on the drop square) and
//! whether it has a *guard* (its `add` is reached only when an enemy stands next to the drop square in one of
//! some directions, so a square with none there yields nothing and need not be run).
//!
//! Any spelling of the same rule gets the same answer: othello's flank lines fused into one op, a flag per
//! direction set in a first pass and read in a second, a `mark` and `back` around a walk out and back that
//! changes owners and sets a position flag. The analysis runs the ops over an abstract state, to a fixed point
//! over every path (loops included):
//! * where the cursor and the mark are: on the drop square, one step from it along a known direction, or
//!   elsewhere (`back` and `(go mark)` return to the mark, which is the drop square until a `mark`);
//! * whether the path has passed a *witness*: a test of `enemy?` found true one step from the drop square,
//!   along some direction `d` (collected into the guard's directions), or an op that is true only where one
//!   was passed;
//! * per flag and per position flag (all positions together): surely false, true only on paths that passed a
//!   witness, or unknown. Flags and position flags are false when a run starts. A test of a flag found true
//!   that is true only after a witness is itself a witness.
//!
//! The guard holds when every path that reaches the `add` has passed a witness (or none reaches it); likewise,
//! a drop on an occupied square yields nothing when every such path found the drop square empty. The ops
//! that may set nothing the analysis does not follow are listed in `flow`; any other op (a second `add`, a
//! `to`, `from`, `cascade`, `choose`, a slide, a tree instruction that creates, sows or jumps the turn) refuses
//! the program, as the shape-based proof before it did.

use crate::compile::code::{Code, Op, Test, FAIL, START};
use crate::compile::*;
use std::collections::BTreeMap;

/// Where the cursor (or the mark) is, relative to the drop square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    Start,
    /// One step from the drop square along this direction (after the mover's symmetry, as the run steps).
    Next(Dir),
    Elsewhere,
}

impl Place {
    fn join(self, o: Place) -> Place {
        if self == o {
            self
        } else {
            Place::Elsewhere
        }
    }

    fn step(self, d: Dir) -> Place {
        match self {
            Place::Start => Place::Next(d),
            _ => Place::Elsewhere,
        }
    }

    /// The direction from the drop square of the square a test at `at` reads, if it is next to it.
    fn next_of(self, at: Loc) -> Option<Dir> {
        match (self, at) {
            (Place::Start, Loc::Dir(d)) | (Place::Next(d), Loc::Cursor) => Some(d),
            _ => None,
        }
    }
}

/// A flag's value on a path, ordered: each is implied by the next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Val {
    False,
    /// True only on paths that have passed a witness.
    OnlyWitnessed,
    Unknown,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Abs {
    cursor: Place,
    mark: Place,
    /// Every path here has passed a witness.
    witnessed: bool,
    /// Every path here found the drop square empty (`empty?` there true).
    start_empty: bool,
    /// Flags not listed are false.
    flags: BTreeMap<FlagId, Val>,
    position_flags: BTreeMap<FlagId, Val>,
}

fn get(m: &BTreeMap<FlagId, Val>, f: FlagId) -> Val {
    m.get(&f).copied().unwrap_or(Val::False)
}

fn join_vals(a: &BTreeMap<FlagId, Val>, b: &BTreeMap<FlagId, Val>) -> BTreeMap<FlagId, Val> {
    let mut out = a.clone();
    for (&f, &v) in b {
        let w = get(a, f).max(v);
        out.insert(f, w);
    }
    out
}

impl Abs {
    fn join(&self, o: &Abs) -> Abs {
        Abs {
            cursor: self.cursor.join(o.cursor),
            mark: self.mark.join(o.mark),
            witnessed: self.witnessed && o.witnessed,
            start_empty: self.start_empty && o.start_empty,
            flags: join_vals(&self.flags, &o.flags),
            position_flags: join_vals(&self.position_flags, &o.position_flags),
        }
    }

    /// The value a flag set to true (or to something unknown) takes here.
    fn set_true(&self) -> Val {
        if self.witnessed {
            Val::OnlyWitnessed
        } else {
            Val::Unknown
        }
    }
}

/// What [`analyse`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DropFlow {
    /// The directions of the guard, when every path to the `add` passes a witness: a drop square with no enemy
    /// next to it along any of them yields nothing. (Empty: the `add` is never reached.)
    pub guard: Option<Vec<Dir>>,
    /// Every path to the `add` found the drop square empty: a drop on an occupied square yields nothing.
    pub needs_empty: bool,
}

/// The ops a drop program in place may hold, and the `add`'s index; `None` if another op, or a second `add`.
fn the_add(code: &Code) -> Option<usize> {
    let mut add = None;
    for (i, op) in code.ops.iter().enumerate() {
        match *op {
            Op::Fail
            | Op::End
            | Op::Jump(_)
            | Op::Loop(_)
            | Op::Nop
            | Op::Branch { .. }
            | Op::Step(_)
            | Op::StepVerify(..)
            | Op::StepWhile(..)
            | Op::Flank(..)
            | Op::SetFlag(..)
            | Op::SetAttribute(..)
            | Op::Flip(_)
            | Op::Capture(_)
            | Op::Mark
            | Op::Back
            | Op::Go(GoTarget::Mark | GoTarget::From) => {}
            Op::Instr(k) => match code.instrs.get(k as usize)? {
                Instr::ChangeOwner(..)
                | Instr::ChangeType(..)
                | Instr::Create { .. }
                | Instr::SetFlag(..)
                | Instr::SetPositionFlag(..)
                | Instr::SetAttribute(..)
                // Go's captures (`capture-groups`): they take pieces and leave the cursor and flags as they
                // are. With `suicide` the drop may put nothing down: refused.
                | Instr::CaptureGroups(_, false) => {}
                _ => return None,
            },
            Op::AddPlain if add.is_none() => add = Some(i),
            Op::Add(k) if add.is_none() => {
                let a = code.adds.get(k as usize)?;
                if a.partial.is_some() || a.promote.len() > 1 || a.copy {
                    return None;
                }
                add = Some(i);
            }
            _ => return None,
        }
    }
    add
}

/// Whether a drop program emits at most one part per run, on the drop square (one `add` outside every loop,
/// reached only with the cursor surely on the drop square, and only the ops `the_add` lists), and if so its
/// guard. `None`: not proved in place.
pub fn analyse(code: &Code) -> Option<DropFlow> {
    let add = the_add(code)?;
    // Outside every loop: no jump back spans the add.
    for (i, op) in code.ops.iter().enumerate() {
        if let Op::Jump(t) | Op::Loop(t) | Op::Branch { to: t, .. } = *op {
            let t = t as usize;
            if t <= i && t <= add && add <= i {
                return None;
            }
        }
    }
    let (states, dirs) = flow(code)?;
    match &states[add] {
        // Never reached: the program yields nothing anywhere.
        None => Some(DropFlow {
            guard: Some(vec![]),
            needs_empty: true,
        }),
        Some(here) if here.cursor == Place::Start => Some(DropFlow {
            guard: here.witnessed.then_some(dirs),
            needs_empty: here.start_empty,
        }),
        Some(_) => None,
    }
}

/// The abstract state before each op (`None`: not reached) and the directions of every witness; `None` if an
/// op leaves the program or is one the analysis does not follow.
fn flow(code: &Code) -> Option<(Vec<Option<Abs>>, Vec<Dir>)> {
    let ops = &code.ops;
    let n = ops.len();
    if n <= START {
        return None;
    }
    let mut states: Vec<Option<Abs>> = vec![None; n];
    states[START] = Some(Abs {
        cursor: Place::Start,
        mark: Place::Start,
        witnessed: false,
        start_empty: false,
        flags: BTreeMap::new(),
        position_flags: BTreeMap::new(),
    });
    let mut dirs: Vec<Dir> = vec![];
    let mut work = vec![START];
    // Each state only grows in a lattice of finite height: the loop ends. A bound all the same.
    let mut budget = 1_000_000usize;
    while let Some(i) = work.pop() {
        budget = budget.checked_sub(1)?;
        let here = states[i].clone()?;
        let mut out: Vec<(usize, Abs)> = vec![];
        let next = |a: Abs, out: &mut Vec<(usize, Abs)>| out.push((i + 1, a));
        match ops[i] {
            Op::Fail | Op::End => {}
            Op::Jump(t) | Op::Loop(t) => out.push((t as usize, here)),
            Op::Nop | Op::Flip(_) | Op::Capture(_) | Op::SetAttribute(..) => next(here, &mut out),
            Op::Branch { test, when, to } => {
                for value in [true, false] {
                    if let Some(a) = refine(code, &here, test, value, &mut dirs) {
                        let j = if value == when { to as usize } else { i + 1 };
                        if j != FAIL as usize {
                            out.push((j, a));
                        }
                    }
                }
            }
            Op::Step(d) => {
                let mut a = here;
                a.cursor = a.cursor.step(d);
                next(a, &mut out);
            }
            Op::StepVerify(d, test) => {
                let mut a = here;
                a.cursor = a.cursor.step(d);
                if let Some(a) = refine(code, &a, test, true, &mut dirs) {
                    next(a, &mut out);
                }
            }
            Op::StepWhile(..) => {
                // No round, or some rounds away from the square.
                let mut a = here;
                a.cursor = a.cursor.join(Place::Elsewhere);
                next(a, &mut out);
            }
            Op::Flank(d, f) => {
                // The flag is set only with an enemy next to the cursor along `d`; the cursor stays, or the
                // line ends with a `back`.
                let mut a = here;
                let v = if a.cursor == Place::Start {
                    if !dirs.contains(&d) {
                        dirs.push(d);
                    }
                    Val::OnlyWitnessed
                } else {
                    a.set_true()
                };
                let old = get(&a.flags, f);
                a.flags.insert(f, old.max(v));
                a.cursor = a.cursor.join(a.mark);
                next(a, &mut out);
            }
            Op::SetFlag(f, v) => {
                let mut a = here;
                let val = if v { a.set_true() } else { Val::False };
                a.flags.insert(f, val);
                next(a, &mut out);
            }
            Op::Mark => {
                let mut a = here;
                a.mark = a.cursor;
                next(a, &mut out);
            }
            Op::Back | Op::Go(GoTarget::Mark) => {
                let mut a = here;
                a.cursor = a.mark;
                next(a, &mut out);
            }
            // A drop has no `from` (no op here sets one): `(go from)` goes to the drop square.
            Op::Go(GoTarget::From) => {
                let mut a = here;
                a.cursor = Place::Start;
                next(a, &mut out);
            }
            Op::Instr(k) => {
                let mut a = here;
                match code.instrs.get(k as usize)? {
                    Instr::ChangeOwner(..)
                    | Instr::ChangeType(..)
                    | Instr::Create { .. }
                    | Instr::SetAttribute(..)
                    | Instr::CaptureGroups(_, false) => {}
                    Instr::SetFlag(f, c) => {
                        let val = if *c == Cond::False {
                            Val::False
                        } else {
                            a.set_true()
                        };
                        a.flags.insert(*f, val);
                    }
                    Instr::SetPositionFlag(f, c, _) => {
                        // One square's flag: the others keep theirs, so a false one changes nothing.
                        if *c != Cond::False {
                            let old = get(&a.position_flags, *f);
                            a.position_flags.insert(*f, old.max(a.set_true()));
                        }
                    }
                    _ => return None,
                }
                next(a, &mut out);
            }
            Op::AddPlain | Op::Add(_) => next(here, &mut out),
            _ => return None,
        }
        for (j, a) in out {
            let slot = states.get_mut(j)?;
            let new = match slot {
                None => a,
                Some(old) => old.join(&a),
            };
            if slot.as_ref() != Some(&new) {
                *slot = Some(new);
                work.push(j);
            }
        }
    }
    Some((states, dirs))
}

/// The state on the path where `test` came out `value`; `None` where that cannot happen.
fn refine(code: &Code, here: &Abs, test: Test, value: bool, dirs: &mut Vec<Dir>) -> Option<Abs> {
    let mut a = here.clone();
    if !value {
        return Some(a);
    }
    let witness = |a: &mut Abs, val: Val| -> bool {
        match val {
            Val::False => false,
            Val::OnlyWitnessed => {
                a.witnessed = true;
                true
            }
            Val::Unknown => true,
        }
    };
    match test {
        Test::Empty(Loc::Cursor) if a.cursor == Place::Start => a.start_empty = true,
        Test::Enemy(at) => {
            if let Some(d) = a.cursor.next_of(at) {
                if !dirs.contains(&d) {
                    dirs.push(d);
                }
                a.witnessed = true;
            }
        }
        Test::Flag(f) => {
            let v = get(&a.flags, f);
            if !witness(&mut a, v) {
                return None;
            }
        }
        Test::Cond(i) => {
            if let Some(Cond::PositionFlag(f, _)) = code.conds.get(i as usize) {
                let v = get(&a.position_flags, *f);
                if !witness(&mut a, v) {
                    return None;
                }
            }
        }
        _ => {}
    }
    Some(a)
}
