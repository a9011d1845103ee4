//! Which move programs attack in a way `attacked?` can check by walking backwards from the target square.
//!
//! In attack mode (`engine::gen`, `Mode::Attack`) a program run answers one question: does some emission of it
//! capture the target? For most programs of real games the answer depends on a few squares along a fixed path:
//! a leaper (`n ne (verify not-friend?) add`), a slider (`n (while empty? add n) (verify enemy?) add`), a pawn's
//! capture (`ne (verify enemy?) (if (in-zone? last-rank) (add Queen ...) else add)`). Such a program is *plain*:
//! it linearises into steps, pure checks of squares and at most one slide over empty squares before each
//! `add`, and it captures only by arriving on an occupied square. A plain program is turned into attack
//! [`Shape`]s, one per `add` that can capture; `engine::attack` walks a shape backwards from the target
//! (through the inverse of each direction, per player) to find the one square its attacker could start from.
//! Everything else (captures by `capture`, cascades, `from`/`to`, marks, flags, variables, choices, ...) is run
//! forwards as before: [`AttackTable::forward`] lists those programs per piece type.
//!
//! Exactness rests on three facts of the interpreter in attack mode: the board is frozen (actions are recorded,
//! never applied, so `set-attribute` and `change-type` change nothing a later check reads, and do not decide a
//! capture); an `add` on a square just checked `empty?` never captures; an `add` captures the target exactly
//! when the cursor stands on it, it is not the start square and a live piece stands there. A direction is
//! inverted only where no two positions step onto the same one (then the predecessor is unique); otherwise the
//! programs that use it run forwards.

use super::game::*;

/// One operation of a linearised program, in forward order.
#[derive(Clone, Debug, PartialEq)]
pub enum Op {
    /// The cursor steps; the path ends where there is no link.
    Step(Dir),
    /// A pure condition at the cursor (see [`pure`]); the path ends where it fails.
    Check(Cond),
    /// `(while empty? [add] DIR)`: the cursor steps while it stands on an empty square.
    Slide(Dir),
}

/// A path from the attacker's square to the square an `add` captures on: the ops before that `add`.
#[derive(Clone, Debug)]
pub struct Shape {
    pub ops: Vec<Op>,
    pub move_type: Option<MoveType>,
    /// Piece types with a program that has this shape (sorted).
    pub types: Vec<PieceType>,
    /// The checks at the end of `ops` (read on the target square), as indices into [`AttackTable::conds`].
    pub finals: Vec<u16>,
    /// `ops` without those final checks.
    pub path: Vec<Op>,
    pub form: Form,
    /// `types` as a bitmap (bit t: type t; every bit when a type is past 63), to skip a shape none of whose
    /// types the attacker has on the board.
    pub mask: u64,
}

/// How a shape's start square is found from the target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// Steps only: the start is a fixed function of the target (`AttackTable::fixed`).
    Fixed,
    /// `d (while empty? d)`: the first occupied square on the ray from the target against `d`.
    Ray(Dir),
    /// Anything else: walked op by op.
    General,
}

/// What the compiler knows about attacks in one game: the shapes checked backwards, the programs run forwards.
#[derive(Clone, Debug, Default)]
pub struct AttackTable {
    /// False when the board is too large for the shapes to be trusted (see [`classify`]): every program then
    /// runs forwards, as [`AttackTable::forward`] says.
    pub usable: bool,
    pub shapes: Vec<Shape>,
    /// Per piece type: the indices of its move programs that are not plain, run forwards.
    pub forward: Vec<Vec<u16>>,
    /// `pred[player][pos * ndirs + dir]`: the one position that steps onto `pos` in `dir` for that player, or
    /// `NO_POS`. Only meaningful for directions that shapes use (all invertible).
    pub pred: Vec<Vec<u16>>,
    pub ndirs: usize,
    /// Per piece type: whether it has a plain program with at least one shape (a quick filter).
    pub has_shape: Vec<bool>,
    /// The distinct final checks of the shapes, evaluated once per attack test and player.
    pub conds: Vec<Cond>,
    /// `fixed[player][shape * positions + target]`: the start square of a [`Form::Fixed`] shape, or `NO_POS`.
    pub fixed: Vec<Vec<u16>>,
    /// Per piece type, per entry of its `forward` list: what a forward run must get past before it can do
    /// anything (see [`Prefilter`]).
    pub prefilter: Vec<Vec<Prefilter>>,
}

/// The opening of a program run forwards in attack tests, read before it runs: its steps and pure checks up to
/// the first other instruction. A run stops there with nothing emitted (and no error: these ops cannot fail)
/// unless the opening passes, so a start square where it cannot pass needs no run (`engine::attack`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Prefilter {
    /// The opening itself: steps and pure checks, in order.
    pub opening: Vec<Op>,
    /// `Some((steps, last_from))`: after these steps (each invertible) the opening checks `last-to?` at the
    /// cursor (`last-from?` when `last_from`), so only the square the steps lead back to from the last move's
    /// square can start a run that passes (en passant).
    pub anchor: Option<(Vec<Dir>, bool)>,
}

/// Whether the condition holds only where the cursor is the last move's `to` (false) or `from` (true) square.
fn last_anchor(c: &Cond) -> Option<bool> {
    match c {
        Cond::LastTo(Loc::Cursor) => Some(false),
        Cond::LastFrom(Loc::Cursor) => Some(true),
        Cond::And(cs) => cs.iter().find_map(last_anchor),
        _ => None,
    }
}

/// The [`Prefilter`] of a program: its opening of steps and pure checks, read as the interpreter runs it.
fn prefilter(body: &[Instr], invertible: impl Fn(Dir) -> bool) -> Prefilter {
    let mut f = Prefilter::default();
    let mut steps = vec![];
    let mut exact = true;
    for i in body {
        match i {
            Instr::Step(d) => {
                exact &= invertible(*d);
                steps.push(*d);
                f.opening.push(Op::Step(*d));
            }
            Instr::Verify(c) if pure(c) => {
                f.opening.push(Op::Check(c.clone()));
                if let Some(from) = last_anchor(c) {
                    if exact && f.anchor.is_none() {
                        f.anchor = Some((steps.clone(), from));
                    }
                }
            }
            _ => break,
        }
    }
    f
}

impl AttackTable {
    /// The position from which `dir` steps onto `pos` for `player`.
    #[inline]
    pub fn pred(&self, player: Player, pos: Pos, dir: Dir) -> Option<Pos> {
        let t = self.pred[player.idx()][pos.idx() * self.ndirs + dir.idx()];
        (t != NO_POS).then_some(Pos(t))
    }
}

/// Whether a condition reads only the squares around the cursor, fixed facts of the board (zones,
/// positions) and the last move, without side effects or errors: the conditions a backward walk can evaluate.
pub fn pure(c: &Cond) -> bool {
    match c {
        Cond::True | Cond::False => true,
        Cond::Not(c) => pure(c),
        Cond::And(cs) | Cond::Or(cs) => cs.iter().all(pure),
        Cond::Empty(_)
        | Cond::Friend(_)
        | Cond::Enemy(_)
        | Cond::Neutral(_)
        | Cond::Mine(_)
        | Cond::Piece(..)
        | Cond::InZone(..)
        | Cond::OnBoard(_)
        | Cond::LastFrom(_)
        | Cond::LastTo(_)
        | Cond::Marked(_)
        | Cond::IsPosition(..)
        | Cond::Attacked(..)
        | Cond::Defended(..)
        | Cond::Flag(_)
        | Cond::PositionFlag(..)
        | Cond::Attribute(..) => true,
        // The memory of a composite move: not read from the board.
        Cond::Compare(..) | Cond::Suicide(_) | Cond::Visited(_) | Cond::LastDirection(_) => false,
    }
}

/// A linearised program: ops, and the points where an `add` stands (its index in the ops).
#[derive(Clone, Debug, PartialEq, Default)]
struct Lin {
    ops: Vec<Op>,
    adds: Vec<usize>,
    /// The path ends here for certain (a step to the opposite of a direction that has none).
    ends: bool,
}

/// The instructions as one straight path, or `None` when they are not plain.
fn linearise(board: &Board, body: &[Instr], lin: &mut Lin) -> Option<()> {
    for i in body {
        if lin.ends {
            return Some(());
        }
        match i {
            Instr::Step(d) => lin.ops.push(Op::Step(*d)),
            Instr::StepOpposite(d) => match board.opposite.get(d.idx()).copied().flatten() {
                Some(o) => lin.ops.push(Op::Step(o)),
                None => lin.ends = true,
            },
            Instr::Verify(c) if pure(c) => lin.ops.push(Op::Check(c.clone())),
            // Recorded changes: nothing in attack mode reads them; only their location must exist.
            Instr::SetAttribute(_, c, l) if pure(c) => on_board(lin, *l),
            Instr::ChangeType(_, l) => on_board(lin, *l),
            Instr::ExtraTurn | Instr::RequireContinuation => {}
            // A variable set by a number that cannot end the path: a recorded change (a state variable) or a
            // move variable, read only by comparisons, which no plain path checks (`pure`): inert.
            Instr::SetVar(_, e) | Instr::SetStateVar(_, e) if total(e) => {}
            Instr::Add { .. } => lin.adds.push(lin.ops.len()),
            // A comparison whose branches are inert (only recorded changes, no movement, no `add`) decides
            // nothing about captures: `(if (!= ep 0) (set-var ep 0))`.
            Instr::If(c, a, b) if !pure(c) && total_cond(c) => {
                let (mut la, mut lb) = (Lin::default(), Lin::default());
                linearise(board, a, &mut la)?;
                linearise(board, b, &mut lb)?;
                if la != Lin::default() || lb != Lin::default() {
                    return None;
                }
            }
            Instr::If(c, a, b) if pure(c) => {
                let (mut la, mut lb) = (Lin::default(), Lin::default());
                linearise(board, a, &mut la)?;
                linearise(board, b, &mut lb)?;
                if la != lb {
                    return None;
                }
                let base = lin.ops.len();
                lin.adds.extend(la.adds.iter().map(|k| k + base));
                lin.ops.extend(la.ops);
                lin.ends |= la.ends;
            }
            Instr::While(Cond::Empty(Loc::Cursor), body) => {
                // `(while empty? add d)` or `(while empty? d)`: an `add` on an empty square captures nothing.
                let d = match &body[..] {
                    [Instr::Step(d)] => *d,
                    [Instr::Add { .. }, Instr::Step(d)] => *d,
                    _ => return None,
                };
                lin.ops.push(Op::Slide(d));
            }
            _ => return None,
        }
    }
    Some(())
}

/// Whether evaluating the number can never end the path, and reads no square: integers, variables and
/// arithmetic without division (by zero, it would end the path).
fn total(e: &super::numbers::Expr) -> bool {
    use super::numbers::{ArithOp, Expr};
    match e {
        Expr::Int(_) | Expr::Var(_) | Expr::StateVar(..) | Expr::Passes | Expr::QuietPlies => true,
        Expr::Arith(op, xs) => !matches!(op, ArithOp::Div | ArithOp::Mod) && xs.iter().all(total),
        _ => false,
    }
}

/// A condition whose evaluation cannot end the path: a pure one, or comparisons of [`total`] numbers.
fn total_cond(c: &Cond) -> bool {
    match c {
        Cond::Compare(_, ab) => total(&ab.0) && total(&ab.1),
        Cond::Not(c) => total_cond(c),
        Cond::And(cs) | Cond::Or(cs) => cs.iter().all(total_cond),
        c => pure(c),
    }
}

fn on_board(lin: &mut Lin, l: Loc) {
    if let Loc::Dir(_) = l {
        lin.ops.push(Op::Check(Cond::OnBoard(l)));
    }
}

/// Whether a condition holds only on an empty cursor square (an `add` right after it captures nothing).
fn implies_empty(c: &Cond) -> bool {
    match c {
        Cond::Empty(Loc::Cursor) => true,
        Cond::And(cs) => cs.iter().any(implies_empty),
        _ => false,
    }
}

/// The shapes of a plain program (possibly none: a pawn's advance never captures), or `None` when the program
/// is not plain.
fn shapes_of(board: &Board, prog: &MoveProgram) -> Option<Vec<Vec<Op>>> {
    let mut lin = Lin::default();
    linearise(board, &prog.body, &mut lin)?;
    let mut out: Vec<Vec<Op>> = vec![];
    for &k in &lin.adds {
        let ops = &lin.ops[..k];
        // Checks since the last movement of the cursor: one that needs an empty square means no capture.
        let since = ops
            .iter()
            .rposition(|o| !matches!(o, Op::Check(_)))
            .map_or(0, |i| i + 1);
        if ops[since..]
            .iter()
            .any(|o| matches!(o, Op::Check(c) if implies_empty(c)))
        {
            continue;
        }
        if ops.iter().filter(|o| matches!(o, Op::Slide(_))).count() > 1 {
            return None;
        }
        if !ops.iter().any(|o| !matches!(o, Op::Check(_))) {
            continue; // the cursor never left the start square: no movement, no capture
        }
        if !out.iter().any(|o| o[..] == *ops) {
            out.push(ops.to_vec());
        }
    }
    Some(out)
}

/// The inverse of every direction for every player, and which directions are invertible for all players.
fn inverses(board: &Board) -> (Vec<Vec<u16>>, Vec<bool>) {
    let nd = board.directions.len();
    let np = board.positions.len();
    let mut ok = vec![true; nd];
    let mut pred = Vec::with_capacity(board.nav.len());
    for nav in &board.nav {
        let mut p = vec![NO_POS; np * nd];
        for pos in 0..np {
            for d in 0..nd {
                let t = nav.get(pos * nd + d).copied().unwrap_or(NO_POS);
                if t == NO_POS || t as usize >= np {
                    continue;
                }
                let slot = &mut p[t as usize * nd + d];
                if *slot != NO_POS {
                    ok[d] = false;
                }
                *slot = pos as u16;
            }
        }
        pred.push(p);
    }
    (pred, ok)
}

/// Piece types as a bitmap (bit t: type t), every bit when a type is past 63.
pub fn type_mask(types: &[PieceType]) -> u64 {
    types
        .iter()
        .fold(0, |m, t| match 1u64.checked_shl(t.0 as u32) {
            Some(b) if t.0 < 64 => m | b,
            _ => u64::MAX,
        })
}

/// Boards up to this many positions: a slide is then far below the interpreter's step budget, so a forward run
/// of a plain program can never fail where the backward walk answers.
const MAX_POSITIONS: usize = 60_000;

/// Classifies every move program of the game.
pub fn classify(game: &Game) -> AttackTable {
    let board = &game.board;
    let mut table = AttackTable {
        usable: false,
        shapes: vec![],
        forward: game
            .pieces
            .iter()
            .map(|p| (0..p.moves.len() as u16).collect())
            .collect(),
        pred: vec![],
        ndirs: board.directions.len(),
        has_shape: vec![false; game.pieces.len()],
        conds: vec![],
        fixed: vec![],
        prefilter: vec![],
    };
    let np = board.positions.len();
    if np == 0
        || np > MAX_POSITIONS
        || board.nav.len() < game.players.len()
        || board.nav.iter().any(|n| n.len() < np * table.ndirs)
    {
        return table;
    }
    let (pred, invertible) = inverses(board);
    let dir_ok = |d: &Dir| invertible.get(d.idx()).copied().unwrap_or(false);
    for (t, piece) in game.pieces.iter().enumerate() {
        let mut forward = vec![];
        for (j, prog) in piece.moves.iter().enumerate() {
            let shapes = shapes_of(board, prog).filter(|ss| {
                ss.iter().flatten().all(|o| match o {
                    Op::Step(d) | Op::Slide(d) => dir_ok(d),
                    Op::Check(_) => true,
                })
            });
            let Some(shapes) = shapes else {
                forward.push(j as u16);
                continue;
            };
            for ops in shapes {
                table.has_shape[t] = true;
                let kind = PieceType(t as u16);
                match table
                    .shapes
                    .iter_mut()
                    .find(|s| s.ops == ops && s.move_type == prog.move_type)
                {
                    Some(s) => {
                        if !s.types.contains(&kind) {
                            s.types.push(kind);
                        }
                    }
                    None => table.shapes.push(Shape {
                        ops,
                        move_type: prog.move_type,
                        types: vec![kind],
                        finals: vec![],
                        path: vec![],
                        form: Form::General,
                        mask: 0,
                    }),
                }
            }
        }
        table.forward[t] = forward;
    }
    let mut conds: Vec<Cond> = vec![];
    for s in &mut table.shapes {
        s.types.sort();
        s.mask = type_mask(&s.types);
        let cut = s
            .ops
            .iter()
            .rposition(|o| !matches!(o, Op::Check(_)))
            .map_or(0, |i| i + 1);
        s.path = s.ops[..cut].to_vec();
        for o in &s.ops[cut..] {
            let Op::Check(c) = o else { continue };
            let i = match conds.iter().position(|x| x == c) {
                Some(i) => i,
                None => {
                    conds.push(c.clone());
                    conds.len() - 1
                }
            };
            s.finals.push(i as u16);
        }
        s.form = match &s.path[..] {
            [Op::Step(a), Op::Slide(b)] if a == b => Form::Ray(*a),
            p if p.iter().all(|o| matches!(o, Op::Step(_))) => Form::Fixed,
            _ => Form::General,
        };
    }
    // Start squares of the fixed shapes, per player, found by walking forwards from every square.
    if table.shapes.len() * np * board.nav.len() <= 1 << 22 {
        let nd = table.ndirs;
        for nav in &board.nav {
            let mut f = vec![NO_POS; table.shapes.len() * np];
            for (k, s) in table.shapes.iter().enumerate() {
                if s.form != Form::Fixed {
                    continue;
                }
                for start in 0..np {
                    let mut at = start as u16;
                    for o in &s.path {
                        let Op::Step(d) = o else { continue };
                        at = nav[at as usize * nd + d.idx()];
                        if at == NO_POS || at as usize >= np {
                            at = NO_POS;
                            break;
                        }
                    }
                    if at != NO_POS {
                        f[k * np + at as usize] = start as u16;
                    }
                }
            }
            table.fixed.push(f);
        }
    } else {
        for s in &mut table.shapes {
            if s.form == Form::Fixed {
                s.form = Form::General;
            }
        }
    }
    table.prefilter = game
        .pieces
        .iter()
        .zip(&table.forward)
        .map(|(piece, forward)| {
            forward
                .iter()
                .map(|&j| match piece.moves.get(j as usize) {
                    Some(prog) => prefilter(&prog.body, |d| dir_ok(&d)),
                    None => Prefilter::default(),
                })
                .collect()
        })
        .collect();
    table.conds = conds;
    table.pred = pred;
    table.usable = true;
    table
}

/// Whether evaluating the condition runs an attack search (`attacked?`, `defended?`): the expensive checks.
fn costly(c: &Cond) -> bool {
    match c {
        Cond::Attacked(..) | Cond::Defended(..) => true,
        Cond::Not(c) => costly(c),
        Cond::And(cs) | Cond::Or(cs) => cs.iter().any(costly),
        _ => false,
    }
}

/// Whether evaluating the condition may end the program run with an error (a number form: its evaluation can
/// fail) or is an attack search (which can run out of budget): such conditions are not moved past others.
fn may_fail(c: &Cond) -> bool {
    match c {
        Cond::Compare(..) => true,
        Cond::Not(c) => may_fail(c),
        Cond::And(cs) | Cond::Or(cs) => cs.iter().any(may_fail),
        _ => false,
    }
}

/// Cheap checks before expensive ones: in each run of consecutive `verify`s, and in each `and`, the conditions
/// that search for attacks go last, in their order. Conditions have no side effects and read a frozen board with
/// the same cursor, so the order changes nothing but the work done: a failing cheap check now spares the
/// search. Not done past a condition that may fail (`Compare`), whose error the search could have prevented.
pub fn cheap_checks_first(body: &mut [Instr]) {
    reorder(body);
}

/// [`cheap_checks_first`], and then, where a run of verifies is followed by one step and more cheap verifies,
/// the attack searches of the first run move past them, their cursor locations rewritten as the step back
/// (`(verify not-attacked?) e (verify empty?)` becomes `e (verify empty?) (verify (not-attacked? w))`). Exact
/// only where stepping back undoes the step on every square for every player, checked on the board; a step
/// that fails ends the path either way. Castling's check of the king's square is then skipped when the square
/// next to it is occupied.
pub fn cheap_checks_first_on(board: &Board, body: &mut Vec<Instr>) {
    reorder(body);
    defer_past_steps(board, body);
}

/// The direction that steps back from `d` on every square for every player, if there is one.
fn step_back(board: &Board, d: Dir) -> Option<Dir> {
    let o = board.opposite.get(d.idx()).copied().flatten()?;
    let nd = board.directions.len();
    let np = board.positions.len();
    for nav in &board.nav {
        for c in 0..np {
            let t = *nav.get(c * nd + d.idx())?;
            if t == NO_POS {
                continue;
            }
            if *nav.get(t as usize * nd + o.idx())? as usize != c {
                return None;
            }
        }
    }
    Some(o)
}

/// The condition with every cursor location replaced by `at`; `None` if it reads a neighbour (which would be
/// two steps away) or is not a plain square test.
fn relocated(c: &Cond, at: Loc) -> Option<Cond> {
    let l = |x: &Loc| match x {
        Loc::Cursor => Some(at),
        Loc::Pos(p) => Some(Loc::Pos(*p)),
        Loc::Dir(_) => None,
    };
    Some(match c {
        Cond::True => Cond::True,
        Cond::False => Cond::False,
        Cond::Not(c) => Cond::Not(Box::new(relocated(c, at)?)),
        Cond::And(cs) => Cond::And(cs.iter().map(|c| relocated(c, at)).collect::<Option<_>>()?),
        Cond::Or(cs) => Cond::Or(cs.iter().map(|c| relocated(c, at)).collect::<Option<_>>()?),
        Cond::Attacked(x, t) => Cond::Attacked(l(x)?, *t),
        Cond::Defended(x, t) => Cond::Defended(l(x)?, *t),
        Cond::Empty(x) => Cond::Empty(l(x)?),
        Cond::Friend(x) => Cond::Friend(l(x)?),
        Cond::Enemy(x) => Cond::Enemy(l(x)?),
        Cond::Mine(x) => Cond::Mine(l(x)?),
        Cond::Piece(ts, x) => Cond::Piece(ts.clone(), l(x)?),
        Cond::Attribute(a, x) => Cond::Attribute(*a, l(x)?),
        _ => return None,
    })
}

/// See [`cheap_checks_first_on`]: one step at a time, each search moved at most once. The searches keep their
/// order among themselves (only cheap checks, which cannot fail, are evaluated earlier than before), so a search
/// that would fail with an error is reached no later than it was.
fn defer_past_steps(board: &Board, body: &mut Vec<Instr>) {
    for i in body.iter_mut() {
        match i {
            Instr::If(_, a, b) => {
                defer_past_steps(board, a);
                defer_past_steps(board, b);
            }
            Instr::While(_, a) => defer_past_steps(board, a),
            _ => {}
        }
    }
    let is_verify = |x: &Instr| matches!(x, Instr::Verify(_));
    let mut i = 0;
    while i < body.len() {
        // A run of verifies [i, j), a step at j, a run of verifies (j, k).
        let j = (i..body.len())
            .find(|&x| !is_verify(&body[x]))
            .unwrap_or(body.len());
        if j == i || j >= body.len() {
            i = j.max(i + 1);
            continue;
        }
        let Instr::Step(d) = body[j] else {
            i = j + 1;
            continue;
        };
        let k = (j + 1..body.len())
            .find(|&x| !is_verify(&body[x]))
            .unwrap_or(body.len());
        // Where the moved searches go: before the first search of the run after the step (that run is sorted
        // cheap first); the cheap checks they pass must not fail.
        let first_costly = (j + 1..k)
            .find(|&x| matches!(&body[x], Instr::Verify(c) if costly(c)))
            .unwrap_or(k);
        let cheap_ok = first_costly > j + 1
            && (j + 1..first_costly).all(|x| matches!(&body[x], Instr::Verify(c) if !may_fail(c)));
        let back = if cheap_ok { step_back(board, d) } else { None };
        let Some(o) = back else {
            i = j + 1;
            continue;
        };
        // The searches of the run before that can move: the last ones, up to one that cannot.
        let mut moved = vec![];
        for x in (i..j).rev() {
            let Instr::Verify(c) = &body[x] else { break };
            if !costly(c) {
                continue;
            }
            match relocated(c, Loc::Dir(o)) {
                Some(r) => moved.push((x, Instr::Verify(r))),
                None => break,
            }
        }
        if moved.is_empty() {
            i = j + 1;
            continue;
        }
        let n = moved.len();
        for (x, _) in &moved {
            body.remove(*x); // in decreasing order of x
        }
        let at = first_costly - n;
        for (m, (_, v)) in moved.into_iter().rev().enumerate() {
            body.insert(at + m, v);
        }
        // Go on from the run after the step (the step is now at j - n).
        i = j - n + 1;
    }
}

fn reorder(body: &mut [Instr]) {
    let mut i = 0;
    while i < body.len() {
        match &mut body[i] {
            Instr::If(c, a, b) => {
                reorder_cond(c);
                reorder(a);
                reorder(b);
            }
            Instr::While(c, a) => {
                reorder_cond(c);
                reorder(a);
            }
            Instr::Choose(ch) => {
                reorder_cond(&mut ch.set);
                if let Some(o) = &mut ch.otherwise {
                    reorder_cond(o);
                }
                reorder(&mut ch.body);
                reorder(&mut ch.rest);
            }
            Instr::Verify(_) => {
                let mut j = i;
                while j < body.len() && matches!(body[j], Instr::Verify(_)) {
                    if let Instr::Verify(c) = &mut body[j] {
                        reorder_cond(c);
                    }
                    j += 1;
                }
                let run = &mut body[i..j];
                let safe = !run
                    .iter()
                    .any(|x| matches!(x, Instr::Verify(c) if may_fail(c)));
                if safe {
                    // A stable sort: cheap checks first, expensive ones after, each group in its order.
                    run.sort_by_key(|x| matches!(x, Instr::Verify(c) if costly(c)));
                }
                i = j;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
}

fn reorder_cond(c: &mut Cond) {
    match c {
        Cond::Not(c) => reorder_cond(c),
        Cond::Or(cs) => cs.iter_mut().for_each(reorder_cond),
        Cond::And(cs) => {
            cs.iter_mut().for_each(reorder_cond);
            if !cs.iter().any(may_fail) {
                cs.sort_by_key(costly);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(file: &str) -> (Game, AttackTable) {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
        let game = crate::load::load_game(&path, &crate::load::VariantSel::First).unwrap();
        let t = classify(&game);
        (game, t)
    }

    /// Chess: everything is plain but en passant and castling; a rook's `set-attribute` and a pawn's promoting
    /// `add` do not stop a program from being plain; the pawn's advance has no shape.
    #[test]
    fn chess_programs_are_classified() {
        let (game, t) = table("games/chess.zrf");
        assert!(t.usable);
        let kind = |n: &str| game.piece_type(n).unwrap().idx();
        assert_eq!(t.forward[kind("Pawn")], vec![3, 4]); // en passant
        assert_eq!(t.forward[kind("King")], vec![8, 9]); // castling
        for p in ["Knight", "Bishop", "Rook", "Queen"] {
            assert!(t.forward[kind(p)].is_empty(), "{p}");
        }
        // 8 slides (rook and queen share 4, bishop and queen 4), 8 knight leaps, 8 king steps, 2 pawn captures.
        assert_eq!(t.shapes.len(), 26);
        let slides = t
            .shapes
            .iter()
            .filter(|s| s.ops.iter().any(|o| matches!(o, Op::Slide(_))))
            .count();
        assert_eq!(slides, 8);
        assert!(t.shapes.iter().all(|s| !s.types.is_empty()));
    }

    /// The openings of the programs run forwards: en passant is anchored on the last move's square one step
    /// back; castling checks the king's attribute first. An anchor is taken only from an opening of steps and
    /// pure checks, with every step invertible.
    #[test]
    fn forward_programs_have_their_openings_read() {
        let (game, t) = table("games/chess.zrf");
        let kind = |n: &str| game.piece_type(n).unwrap().idx();
        let e = game.board.direction("e").unwrap();
        let w = game.board.direction("w").unwrap();
        let pawn = &t.prefilter[kind("Pawn")];
        assert_eq!(pawn[0].anchor, Some((vec![e], false)));
        assert_eq!(pawn[1].anchor, Some((vec![w], false)));
        assert!(pawn.iter().all(|f| matches!(
            &f.opening[..],
            [Op::Step(_), Op::Check(_), Op::Check(_), Op::Check(_)]
        )));
        for f in &t.prefilter[kind("King")] {
            assert_eq!(f.anchor, None);
            // The attribute, then square by square up to the rook (long castling: one more empty square).
            assert!(
                matches!(
                    &f.opening[..3],
                    [Op::Check(Cond::Attribute(..)), Op::Step(_), Op::Check(_)]
                ),
                "{f:?}"
            );
            assert!(f.opening.len() >= 7, "{f:?}");
        }
        let last = Instr::Verify(Cond::And(vec![
            Cond::Enemy(Loc::Cursor),
            Cond::LastTo(Loc::Cursor),
        ]));
        let yes = |_: Dir| true;
        let body = vec![Instr::Step(e), last.clone()];
        assert_eq!(prefilter(&body, yes).anchor, Some((vec![e], false)));
        // A step that cannot be walked back, or anything but steps and pure checks before the check: no anchor.
        assert_eq!(prefilter(&body, |d| d != e).anchor, None);
        let after_capture = vec![Instr::Step(e), Instr::Capture(Loc::Cursor), last.clone()];
        assert_eq!(prefilter(&after_capture, yes).anchor, None);
        let after_loop = vec![
            Instr::While(Cond::Empty(Loc::Cursor), vec![Instr::Step(e)]),
            last.clone(),
        ];
        assert_eq!(prefilter(&after_loop, yes).anchor, None);
        // `last-to?` under `or` or `not` does not pin the cursor.
        let either = vec![
            Instr::Step(e),
            Instr::Verify(Cond::Or(vec![Cond::LastTo(Loc::Cursor), Cond::True])),
        ];
        assert_eq!(prefilter(&either, yes).anchor, None);
        let not = vec![Instr::Verify(Cond::Not(Box::new(Cond::LastTo(
            Loc::Cursor,
        ))))];
        assert_eq!(prefilter(&not, yes).anchor, None);
    }

    /// Castling: the check of the king's square waits until the square next to it is found empty, and each
    /// square's check until the next square is; the searches keep their order.
    #[test]
    fn castling_searches_wait_for_the_next_square() {
        let (game, _) = table("games/chess.zrf");
        let king = &game.pieces[game.piece_type("King").unwrap().idx()];
        let body = &king.moves[8].body; // castle-short
        let e = game.board.direction("e").unwrap();
        let w = game.board.direction("w").unwrap();
        let att = |l| Instr::Verify(Cond::Not(Box::new(Cond::Attacked(l, None))));
        let empty = Instr::Verify(Cond::Empty(Loc::Cursor));
        assert!(
            matches!(&body[0], Instr::Verify(Cond::Attribute(..))),
            "{body:?}"
        );
        // The bytecode the interpreter runs is the reordered body's.
        for piece in &game.pieces {
            for prog in &piece.moves {
                assert_eq!(
                    prog.code,
                    crate::compile::code::Code::lower_on(
                        &prog.body,
                        &game.board.opposite,
                        &crate::compile::code::acyclic_directions(&game.board)
                    ),
                    "{}",
                    prog.source
                );
            }
        }
        assert_eq!(
            body[1..8],
            [
                Instr::Step(e),
                empty.clone(),
                att(Loc::Dir(w)),
                Instr::Step(e),
                empty.clone(),
                att(Loc::Dir(w)),
                att(Loc::Cursor),
            ],
            "{body:?}"
        );
    }

    #[test]
    fn attack_searches_go_after_cheap_checks() {
        let att = Cond::Not(Box::new(Cond::Attacked(Loc::Cursor, None)));
        let empty = Cond::Empty(Loc::Cursor);
        let mut body = vec![
            Instr::Verify(att.clone()),
            Instr::Verify(empty.clone()),
            Instr::Step(Dir(0)),
            Instr::Verify(Cond::And(vec![att.clone(), empty.clone()])),
        ];
        cheap_checks_first(&mut body);
        assert_eq!(
            body,
            vec![
                Instr::Verify(empty.clone()),
                Instr::Verify(att.clone()),
                Instr::Step(Dir(0)),
                Instr::Verify(Cond::And(vec![empty.clone(), att.clone()])),
            ]
        );
    }
}
