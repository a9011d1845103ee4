//! Sowing (docs/language.md, "Sowing"): the `sow` instruction of a move program, and the sowing itself as a
//! function of seed counts, which the mancala extension modules reuse. A child module of the interpreter
//! (`gen`), so that the instruction reads the run's cursor and board as the predicates do.
//!
//! Seeds are an integer attribute of the pile in each pit. A sowing changes counts only: its effect is a list
//! of `SetIntAttribute` actions (a `Place` where a seed lands on a position with no pile), so the move carries
//! its whole net effect, and the hash, notation and deduplication stay exact.

use crate::compile::sow::{GrandSlam, Sow, Sum};
use crate::compile::*;
use crate::engine::moves::Action;
use crate::engine::run::{Run, Stop};
use crate::engine::state::{initial_attrs, Piece, State};

/// The rules of one sowing, as per-position tables (indexed by `Pos`).
pub struct Rules<'a> {
    /// The positions that receive seeds, in sowing order, from the one after the origin, once round: a seed
    /// count larger than the lap goes round again.
    pub lap: &'a [Pos],
    /// Where captures may be made, the counts that capture, and whether the pits before the last one are
    /// taken too while they qualify.
    pub capture: Option<(&'a [bool], &'a [i32], bool)>,
    pub grand_slam: GrandSlam,
    /// The mover's own pits and, per position, the pit opposite it: the last seed in an empty own pit takes
    /// the opposite seeds, if any, with itself.
    pub opposite: Option<(&'a [bool], &'a [Option<Pos>])>,
    /// The opponent's pits: when they hold no seed, the sowing must put one there.
    pub feed: Option<&'a [bool]>,
    /// Where captured seeds go. Without one they leave the board.
    pub store: Option<Pos>,
    /// Where the last seed earns another sowing in the same move.
    pub again: Option<&'a [bool]>,
}

/// What a sowing did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sown {
    /// The pit of the last seed.
    pub last: Pos,
    /// The move goes on with another sowing.
    pub again: bool,
    /// Seeds captured (to the store).
    pub captured: i32,
}

/// Sows the seeds of `origin` over `counts` (per position), then captures. `None` when the move is not
/// allowed: an empty origin, a lap with no position, a sowing that does not feed a starving opponent, a grand
/// slam declared illegal.
pub fn sow(counts: &mut [i32], origin: Pos, r: &Rules) -> Option<Sown> {
    let n = counts[origin.idx()];
    if n <= 0 || r.lap.is_empty() {
        return None;
    }
    let has_seeds = |counts: &[i32], m: &[bool]| m.iter().zip(counts).any(|(&x, &c)| x && c > 0);
    let starving = r.feed.is_some_and(|m| !has_seeds(counts, m));
    counts[origin.idx()] = 0;
    let len = r.lap.len() as i32;
    let (rounds, rest) = (n / len, n % len);
    for (i, p) in r.lap.iter().enumerate() {
        counts[p.idx()] += rounds + (i < rest as usize) as i32;
    }
    let last_i = ((n - 1) % len) as usize;
    let last = r.lap[last_i];
    let mut captured = 0;
    if let Some((mask, takes, chain)) = r.capture {
        let mut taken: Vec<Pos> = vec![];
        let mut i = last_i;
        loop {
            let p = r.lap[i];
            if !mask[p.idx()] || !takes.contains(&counts[p.idx()]) {
                break;
            }
            taken.push(p);
            if !chain || taken.len() == r.lap.len() {
                break;
            }
            i = (i + r.lap.len() - 1) % r.lap.len();
        }
        if !taken.is_empty() && r.grand_slam != GrandSlam::Allowed {
            let left: i32 = (0..counts.len())
                .filter(|&q| mask[q] && !taken.contains(&Pos(q as u16)))
                .map(|q| counts[q])
                .sum();
            if left == 0 {
                match r.grand_slam {
                    GrandSlam::Illegal => return None,
                    _ => taken.clear(),
                }
            }
        }
        for p in taken {
            captured += counts[p.idx()];
            counts[p.idx()] = 0;
        }
    }
    if let Some((own, opposite)) = r.opposite {
        if own[last.idx()] && counts[last.idx()] == 1 {
            if let Some(o) = opposite[last.idx()].filter(|o| counts[o.idx()] > 0) {
                captured += 1 + counts[o.idx()];
                counts[o.idx()] = 0;
                counts[last.idx()] = 0;
            }
        }
    }
    if let Some(s) = r.store {
        counts[s.idx()] += captured;
    }
    if starving && !has_seeds(counts, r.feed.unwrap_or(&[])) {
        return None;
    }
    Some(Sown {
        last,
        again: r.again.is_some_and(|m| m[last.idx()]),
        captured,
    })
}

/// The positions a sowing from `origin` along `dir` (for `player`) reaches once round, without those `skip`
/// marks, the origin last unless `skip_origin`. `None` when the direction does not lead back to the origin.
pub fn lap(
    board: &Board,
    player: Player,
    origin: Pos,
    dir: Dir,
    skip: Option<&[bool]>,
    skip_origin: bool,
) -> Option<Vec<Pos>> {
    let skipped = |p: Pos| skip.is_some_and(|m| m[p.idx()]);
    let mut out = vec![];
    let mut p = origin;
    for _ in 0..board.positions.len() {
        p = board.step(player, p, dir)?;
        if p == origin {
            if !skip_origin && !skipped(origin) {
                out.push(origin);
            }
            return Some(out);
        }
        if !skipped(p) {
            out.push(p);
        }
    }
    None
}

/// The actions that turn the counts `before` into `after` in attribute `field`: a changed pile gets its new
/// count; a position with no pile that receives seeds gets a new pile of type `kind`, owned by `owner`.
#[allow(clippy::too_many_arguments)]
pub fn count_actions(
    game: &Game,
    state: &State,
    field: u8,
    kind: PieceType,
    owner: Player,
    before: &[i32],
    after: &[i32],
    out: &mut Vec<Action>,
) {
    each_count_action(game, state, field, kind, owner, before, after, |a| {
        out.push(a)
    })
}

/// [`count_actions`], each action handed to `f` in turn.
#[allow(clippy::too_many_arguments)]
fn each_count_action(
    game: &Game,
    state: &State,
    field: u8,
    kind: PieceType,
    owner: Player,
    before: &[i32],
    after: &[i32],
    mut f: impl FnMut(Action),
) {
    for (i, (&b, &a)) in before.iter().zip(after).enumerate() {
        if a == b {
            continue;
        }
        let at = Pos(i as u16);
        let value = a.clamp(-128, 127) as i8;
        match state.get(at).filter(|x| !x.dead) {
            Some(_) => f(Action::SetIntAttribute { at, field, value }),
            None => f(Action::Place {
                at,
                piece: pile(game, kind, owner, field, value),
                reserve: false,
            }),
        }
    }
}

/// A new pile of `value` seeds.
pub fn pile(game: &Game, kind: PieceType, owner: Player, field: u8, value: i8) -> Piece {
    let mut attrs = initial_attrs(game, kind);
    attrs.set_int(field as usize, value);
    if let Some(a) = game.int_attributes.get(field as usize) {
        attrs.set(a.idx(), value != 0);
    }
    Piece {
        kind,
        owner,
        attrs,
        dead: false,
    }
}

/// The seed counts of every position in attribute `field` (0 where no pile stands).
pub fn counts(state: &State, field: u8) -> Vec<i32> {
    state
        .cells
        .iter()
        .map(|c| match c {
            Some(x) if !x.dead => x.attrs.get_int(field as usize) as i32,
            _ => 0,
        })
        .collect()
}

/// `(sum ATTR [(zone Z)] [opponent])` for `player`.
pub fn sum(game: &Game, state: &State, player: Player, s: &Sum) -> i64 {
    // Whose seeds count: the player's, or every other real player's with `opponent`.
    let counted = |q: Player| {
        if s.opponent {
            q != player && !game.players[q.idx()].random
        } else {
            q == player
        }
    };
    let field = s.field as usize;
    let mut total = 0;
    match s.zone {
        // The pieces of the counted players.
        None => {
            for x in state.cells.iter().flatten() {
                if !x.dead && counted(x.owner) {
                    total += x.attrs.get_int(field) as i64;
                }
            }
        }
        // The positions of the zone as it is for a counted player, whoever owns the piece there.
        Some(z) => {
            let members = &game.board.zones[z.idx()].members;
            let mut zones = (0..game.players.len().min(members.len()))
                .filter(|&q| counted(Player(q as u8)))
                .map(|q| &members[q]);
            match (zones.next(), zones.next()) {
                (None, _) => {}
                // One counted player (the mover, or the one opponent): the zone's positions as it has them.
                (Some(m), None) => {
                    for (c, &inside) in state.cells.iter().zip(m) {
                        if let Some(x) = c.as_ref().filter(|x| inside && !x.dead) {
                            total += x.attrs.get_int(field) as i64;
                        }
                    }
                }
                // Several: a position counts once, in the zone of any of them.
                _ => {
                    for (i, c) in state.cells.iter().enumerate() {
                        let Some(x) = c.as_ref().filter(|x| !x.dead) else {
                            continue;
                        };
                        let pos = Pos(i as u16);
                        if (0..game.players.len()).any(|q| {
                            counted(Player(q as u8)) && game.board.in_zone(z, Player(q as u8), pos)
                        }) {
                            total += x.attrs.get_int(field) as i64;
                        }
                    }
                }
            }
        }
    }
    total
}

/// What a `sow` instruction reads of the board alone, for one player: the masks of its conditions, the pit
/// opposite each position and the store. (Each condition is read with the cursor on each position.)
#[derive(Clone, Debug)]
struct Fixed {
    skip: Option<Vec<bool>>,
    capture: Option<Vec<bool>>,
    /// `capture-opposite`: where its condition holds, and the pit its direction leads to from each position.
    opposite: Option<(Vec<bool>, Vec<Option<Pos>>)>,
    feed: Option<Vec<bool>>,
    again: Option<Vec<bool>>,
    store: Option<Pos>,
}

/// One `sow` instruction's [`Fixed`] for one player, and its lap from each origin (`None`: no lap).
#[derive(Clone, Debug)]
struct PlayerTable {
    fixed: Fixed,
    laps: Vec<Option<Vec<Pos>>>,
}

/// The tables of a game's `sow` instructions whose conditions read the board alone (zones, positions,
/// links: no piece, flag or history), per player, computed once for the engine (none on the general path).
/// A sowing then reads its masks and lap instead of evaluating every condition on every position at every
/// move; the values are those `Run::sow` computes without them, by the same `Run::cond` on the same
/// positions. An instruction without a table (a condition that reads pieces) is computed as before.
#[derive(Clone, Debug, Default)]
pub struct Tables {
    /// Per instruction (by address: the game is immutable while an engine holds it), per player.
    entries: Vec<(usize, Vec<Option<PlayerTable>>)>,
}

/// Whether a condition reads the board's shape alone (so that its value at a position, for a player, never
/// changes).
fn reads_shape_only(c: &Cond) -> bool {
    match c {
        Cond::True | Cond::False | Cond::InZone(..) | Cond::OnBoard(_) | Cond::IsPosition(..) => {
            true
        }
        Cond::Not(c) => reads_shape_only(c),
        Cond::And(cs) | Cond::Or(cs) => cs.iter().all(reads_shape_only),
        _ => false,
    }
}

impl Tables {
    /// The tables of every `sow` in `game`'s programs whose conditions read the board's shape alone.
    pub fn build(game: &Game) -> Tables {
        fn walk<'g>(is: &'g [Instr], out: &mut Vec<&'g Sow>) {
            for i in is {
                match i {
                    Instr::Sow(s) => out.push(s),
                    Instr::If(_, a, b) => {
                        walk(a, out);
                        walk(b, out);
                    }
                    Instr::While(_, a) => walk(a, out),
                    Instr::Choose(c) => {
                        walk(&c.body, out);
                        walk(&c.rest, out);
                    }
                    _ => {}
                }
            }
        }
        let mut sows = vec![];
        for piece in &game.pieces {
            for prog in piece.moves.iter().chain(&piece.drops) {
                walk(&prog.code.instrs, &mut sows);
            }
        }
        let mut entries = vec![];
        if sows.is_empty() {
            return Tables { entries };
        }
        let state = State::initial(game);
        let mut scratch = crate::engine::gen::Emissions::default();
        for s in sows {
            let conds = [
                s.skip.as_ref(),
                s.capture.as_ref().map(|c| &c.cond),
                s.opposite.as_ref().map(|(c, _)| c),
                s.feed.as_ref(),
                s.again.as_ref(),
            ];
            if !conds.into_iter().flatten().all(reads_shape_only) {
                continue;
            }
            let per_player = (0..game.players.len())
                .map(|p| {
                    let player = Player(p as u8);
                    let mut run = Run::new(
                        game,
                        &state,
                        player,
                        crate::engine::run::Mode::Generate,
                        &mut scratch,
                    );
                    run.pick_nav();
                    let fixed = run.fixed(s).ok()?;
                    let laps = (0..game.board.positions.len())
                        .map(|o| {
                            lap(
                                &game.board,
                                player,
                                Pos(o as u16),
                                s.dir,
                                fixed.skip.as_deref(),
                                s.skip_origin,
                            )
                        })
                        .collect();
                    Some(PlayerTable { fixed, laps })
                })
                .collect();
            entries.push((s as *const Sow as usize, per_player));
        }
        Tables { entries }
    }

    /// How many instructions have tables.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no instruction has a table.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// `Some(self)` when it holds a table.
    pub fn if_any(&self) -> Option<&Tables> {
        (!self.entries.is_empty()).then_some(self)
    }

    /// The index of instruction `s`'s tables, if built (for [`Tables::rules`]).
    pub(crate) fn entry_of(&self, s: &Sow) -> Option<usize> {
        let key = s as *const Sow as usize;
        self.entries.iter().position(|(k, _)| *k == key)
    }

    /// Whether entry `e` has a table for every one of `players` players.
    pub(crate) fn covers(&self, e: usize, players: usize) -> bool {
        self.entries
            .get(e)
            .is_some_and(|(_, t)| t.len() >= players && t[..players].iter().all(Option::is_some))
    }

    /// The rules of a sowing of instruction `s` (whose tables are entry `e`) by `player` from `origin`, as
    /// `Run::sow` reads them from the same tables; `None` where the table has no lap from `origin` (the
    /// sowing is not allowed there) or no table for the player.
    #[inline]
    pub(crate) fn rules<'t>(
        &'t self,
        e: usize,
        s: &'t Sow,
        player: Player,
        origin: Pos,
    ) -> Option<Rules<'t>> {
        let t = self.entries.get(e)?.1.get(player.idx())?.as_ref()?;
        let lap = t.laps.get(origin.idx())?.as_deref()?;
        Some(rules_of(s, &t.fixed, lap))
    }

    /// The table of instruction `s` for `player`, if built.
    fn of(&self, s: &Sow, player: Player) -> Option<&PlayerTable> {
        let key = s as *const Sow as usize;
        self.entries
            .iter()
            .find(|(k, _)| *k == key)
            .and_then(|(_, t)| t.get(player.idx()))
            .and_then(|t| t.as_ref())
    }
}

/// The rules of a sowing of `s` along `lap`, with what its conditions read of the board in `fixed`.
fn rules_of<'a>(s: &'a Sow, fixed: &'a Fixed, lap: &'a [Pos]) -> Rules<'a> {
    Rules {
        lap,
        capture: s
            .capture
            .as_ref()
            .zip(fixed.capture.as_ref())
            .map(|(c, m)| (&m[..], &c.counts[..], c.chain)),
        grand_slam: s.grand_slam,
        opposite: fixed.opposite.as_ref().map(|(o, p)| (&o[..], &p[..])),
        feed: fixed.feed.as_deref(),
        store: fixed.store,
        again: fixed.again.as_deref(),
    }
}

impl Run<'_> {
    /// Where a condition holds, position by position, with the cursor there.
    #[inline(never)]
    fn mask(&mut self, c: &Cond) -> Result<Vec<bool>, Stop> {
        let here = self.cursor;
        let mut out = vec![false; self.game.board.positions.len()];
        for (i, o) in out.iter_mut().enumerate() {
            self.cursor = Pos(i as u16);
            *o = self.cond(c)?;
        }
        self.cursor = here;
        Ok(out)
    }

    /// The masks, opposite pits and store of `s` for the run's player, with the run's board.
    fn fixed(&mut self, s: &Sow) -> Result<Fixed, Stop> {
        let game = self.game;
        let skip = match &s.skip {
            Some(c) => Some(self.mask(c)?),
            None => None,
        };
        let capture = match &s.capture {
            Some(c) => Some(self.mask(&c.cond)?),
            None => None,
        };
        let opposite = match &s.opposite {
            Some((c, d)) => {
                let own = self.mask(c)?;
                let b = &game.board;
                let opp: Vec<Option<Pos>> = (0..b.positions.len())
                    .map(|i| b.step(self.player, Pos(i as u16), *d))
                    .collect();
                Some((own, opp))
            }
            None => None,
        };
        let feed = match &s.feed {
            Some(c) => Some(self.mask(c)?),
            None => None,
        };
        let again = match &s.again {
            Some(c) => Some(self.mask(c)?),
            None => None,
        };
        let store = s.store.and_then(|z| {
            (0..game.board.positions.len())
                .map(|i| Pos(i as u16))
                .find(|&p| game.board.in_zone(z, self.player, p))
        });
        Ok(Fixed {
            skip,
            capture,
            opposite,
            feed,
            again,
            store,
        })
    }

    /// `(sow ATTR DIR option...)`: sows the pile at the cursor; records the new counts as changes of the part,
    /// leaves `to` on the origin (a pile does not move) and the cursor on the last pit. The path ends where
    /// the sowing is not allowed. Kept out of `instr`, the interpreter's hot loop, like `choose`.
    #[inline(never)]
    #[cold]
    pub(in crate::engine) fn sow(&mut self, s: &Sow) -> Result<(), Stop> {
        let game = self.game;
        let origin = self.cursor;
        let mut counts = counts(self.state, s.field);
        // Counts this part already changed (an earlier `sow` or `set-attribute`) are the ones sown.
        for a in &self.changes {
            if let Action::SetIntAttribute { at, field, value } = *a {
                if field == s.field {
                    counts[at.idx()] = value as i32;
                }
            }
        }
        let before = counts.clone();
        // The tables hold the conditions as read for the player to move (a turn moving another player's
        // pieces reads zones for both: computed here).
        let table = match self.sow_tables {
            Some(t) if self.owner == self.player => t.of(s, self.player),
            _ => None,
        };
        let computed;
        let (fixed, lap): (&Fixed, &[Pos]) = match table {
            Some(t) => match t.laps.get(origin.idx()) {
                Some(Some(l)) => (&t.fixed, l),
                _ => return Err(Stop::Path),
            },
            None => {
                // As without tables: the lap is taken before the other conditions are read.
                let skip = match &s.skip {
                    Some(c) => Some(self.mask(c)?),
                    None => None,
                };
                let Some(l) = lap(
                    &game.board,
                    self.player,
                    origin,
                    s.dir,
                    skip.as_deref(),
                    s.skip_origin,
                ) else {
                    return Err(Stop::Path);
                };
                computed = (self.fixed(s)?, l);
                (&computed.0, &computed.1[..])
            }
        };
        let rules = rules_of(s, fixed, lap);
        let Some(sown) = sow(&mut counts, origin, &rules) else {
            return Err(Stop::Path);
        };
        let kind = self
            .held
            .or_else(|| self.state.get(origin))
            .map_or(PieceType(0), |x| x.kind);
        let (changes, placed) = (&mut self.changes, &mut self.placed);
        each_count_action(
            game,
            self.state,
            s.field,
            kind,
            self.player,
            &before,
            &counts,
            |a| match a {
                Action::Place { at, piece, .. } => placed.push((at, piece)),
                other => changes.push(other),
            },
        );
        self.to = Some(origin);
        self.cursor = sown.last;
        self.again = sown.again;
        Ok(())
    }
}
