//! `connect-four`: the rules of Connect Four (Captain's Mistress) that a ZRF file with a plain drop
//! (`(verify empty?) add`) leaves out, from the published rules (Wikipedia, "Connect Four"): a disc falls
//! to the lowest empty cell of its column, and the first player with four of their discs in a line
//! (across, up and down, or diagonally) wins; a full board with no line is a draw.
//!
//! "Down" is the board's direction `s` (as in the corpus's `connect-four.zrf`, whose rank 1 is the bottom
//! row). Lines run along every direction that has a reverse. Gravity only removes moves, and the end is read
//! from the position, so moves, hashing and perft stay those of the file.

use crate::compile::Module;
use crate::compile::{Dir, Game, Player, Pos, NO_POS};
use crate::engine::Hooks;
use crate::engine::{EngineError, Move, Outcome, State};

/// The module (registered in `super::MODULES`).
pub struct ConnectFour;

/// The length of a winning line.
const LINE: usize = 4;

fn down(game: &Game) -> Option<Dir> {
    game.board.direction("s")
}

fn neighbour(game: &Game, pos: Pos, dir: Dir) -> Option<Pos> {
    let b = &game.board;
    let t = b.links[pos.idx() * b.directions.len() + dir.idx()];
    (t != NO_POS).then_some(Pos(t))
}

/// One direction of each pair of reverse directions: the lines are read along these.
fn line_dirs(game: &Game) -> impl Iterator<Item = Dir> + '_ {
    game.board
        .opposite
        .iter()
        .enumerate()
        .filter_map(|(d, o)| o.filter(|o| o.idx() > d).map(|_| Dir(d as u16)))
}

/// The owner of a line of [`LINE`] pieces on the board, if any.
fn line_owner(game: &Game, state: &State) -> Option<Player> {
    // The directions, listed once rather than once a cell (boards have a handful).
    let mut dirs = [0usize; 16];
    let mut nd = 0;
    for d in line_dirs(game) {
        if nd == dirs.len() {
            return line_owner_any(game, state);
        }
        dirs[nd] = d.idx();
        nd += 1;
    }
    let b = &game.board;
    let stride = b.directions.len();
    let cells = state.cells();
    for (i, cell) in cells.iter().enumerate() {
        let Some(p) = cell else { continue };
        for &d in &dirs[..nd] {
            let mut at = i;
            let mut n = 1;
            while n < LINE {
                let t = b.links[at * stride + d];
                match cells.get(t as usize) {
                    Some(Some(q)) if t != NO_POS && q.owner == p.owner => {
                        at = t as usize;
                        n += 1;
                    }
                    _ => break,
                }
            }
            if n == LINE {
                return Some(p.owner);
            }
        }
    }
    None
}

/// What [`line_owner_kept`] keeps from call to call in a thread: the game (engines built, its address), each
/// player's discs (occupancy words, player after player) and whether they held no line.
#[derive(Default)]
struct Kept {
    key: (u64, usize),
    discs: Vec<u64>,
    no_line: bool,
}

thread_local! {
    static KEPT: std::cell::RefCell<(Kept, Vec<u64>)> = std::cell::RefCell::new(Default::default());
}

/// [`line_owner`], read around the discs new since the last call in this thread where that call found no
/// line and no disc has gone or changed hands since (discs are only added, as the game plays): a line now is
/// then a line through a new disc. Along each direction, the run of the new disc's owner through it is
/// counted forward and back (the reverse direction retraces every step of the direction), so every line
/// found is one `line_owner` finds, and every line through the new disc is found.
/// Where new lines of two players are found (only in positions no game reaches), or in any other case, the
/// board is read whole.
fn line_owner_kept(game: &Game, state: &State) -> Option<Player> {
    let np = game.players.len();
    let key = (
        crate::engine::connects::engines_built(),
        game as *const Game as usize,
    );
    KEPT.with(|k| {
        let (kept, now) = &mut *k.borrow_mut();
        now.clear();
        for p in 0..np {
            now.extend_from_slice(state.occupancy(Player(p as u8)));
        }
        let grown = kept.key == key
            && kept.no_line
            && kept.discs.len() == now.len()
            && kept.discs.iter().zip(now.iter()).all(|(o, n)| o & !n == 0);
        let found = if grown {
            lines_through_new(game, state, &kept.discs, now)
        } else {
            None
        };
        let owner = match found {
            Some(owner) => owner,
            None => line_owner(game, state),
        };
        kept.key = key;
        kept.discs.clone_from(now);
        kept.no_line = owner.is_none();
        owner
    })
}

/// The owner of the lines through the discs of `now` not in `before` (`Some(None)`: no line), or `None` where
/// this cannot tell (lines of two players, or too many directions).
fn lines_through_new(
    game: &Game,
    state: &State,
    before: &[u64],
    now: &[u64],
) -> Option<Option<Player>> {
    let b = &game.board;
    let stride = b.directions.len();
    let cells = state.cells();
    let mut pairs = [(0usize, 0usize); 16];
    let mut nd = 0;
    for d in line_dirs(game) {
        let back = b.opposite[d.idx()]?;
        *pairs.get_mut(nd)? = (d.idx(), back.idx());
        nd += 1;
    }
    let words = state.occupancy_words();
    let mut owners = 0u64;
    for (w, (o, n)) in before.iter().zip(now).enumerate() {
        let mut bits = n & !o;
        while bits != 0 {
            let i = (w % words.max(1)) * 64 + bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let Some(Some(p)) = cells.get(i) else {
                continue;
            };
            // A cell of this disc's owner at link `t`.
            let mine = |t: u16| {
                t != NO_POS && matches!(cells.get(t as usize), Some(Some(q)) if q.owner == p.owner)
            };
            for &(d, back) in &pairs[..nd] {
                // The run of the owner's discs through the new one: forward along `d`, then back along the
                // reverse, each step back one that `d` steps forward again (so the whole run is a line read
                // along `d` from its first cell, as `line_owner` reads it).
                let mut run = 1;
                let mut at = i;
                while run < LINE {
                    let t = b.links[at * stride + d];
                    if !mine(t) {
                        break;
                    }
                    at = t as usize;
                    run += 1;
                }
                let mut at = i;
                while run < LINE {
                    let t = b.links[at * stride + back];
                    if !mine(t) || b.links[t as usize * stride + d] as usize != at {
                        break;
                    }
                    at = t as usize;
                    run += 1;
                }
                if run == LINE {
                    owners |= 1 << (p.owner.idx() & 63);
                }
            }
        }
    }
    match owners.count_ones() {
        0 => Some(None),
        1 => Some(Some(Player(owners.trailing_zeros() as u8))),
        _ => None,
    }
}

/// [`line_owner`] for boards with more directions than its table holds.
fn line_owner_any(game: &Game, state: &State) -> Option<Player> {
    for (i, cell) in state.cells().iter().enumerate() {
        let Some(p) = cell else { continue };
        for d in line_dirs(game) {
            let mut at = Pos(i as u16);
            let mut n = 1;
            while n < LINE {
                match neighbour(game, at, d) {
                    Some(next) if state.get(next).is_some_and(|q| q.owner == p.owner) => {
                        at = next;
                        n += 1;
                    }
                    _ => break,
                }
            }
            if n == LINE {
                return Some(p.owner);
            }
        }
    }
    None
}

/// [`ConnectFour::drop_sites`] read cell by cell: a cell rests where the cell below it (direction `s`) holds
/// a disc or where there is none.
fn scan_drop_sites(game: &Game, state: &State, s: Dir, sites: &mut [u64]) {
    let b = &game.board;
    let stride = b.directions.len();
    let cells = state.cells();
    for i in 0..cells.len().min(sites.len() * 64) {
        let below = b.links[i * stride + s.idx()];
        if below == NO_POS || cells.get(below as usize).is_some_and(|c| c.is_some()) {
            sites[i >> 6] |= 1 << (i & 63);
        }
    }
}

/// What [`drop_sites_kept`] keeps per thread for the last game it read (engines built, the game's address):
/// the cells with no cell below them, as bitset words, and per cell the one cell whose cell below it is that
/// cell ([`NO_POS`]: none). `usable` is false where the board has no direction `s`, or where two cells have
/// the same cell below them: the cells are then scanned.
#[derive(Default)]
struct Columns {
    key: (u64, usize),
    usable: bool,
    bottom: Vec<u64>,
    above: Vec<u16>,
}

thread_local! {
    static COLUMNS: std::cell::RefCell<Columns> = std::cell::RefCell::new(Default::default());
}

impl Columns {
    fn build(game: &Game, n: usize) -> Columns {
        let mut c = Columns {
            key: (0, 0),
            usable: false,
            bottom: vec![0; n.div_ceil(64)],
            above: vec![NO_POS; n],
        };
        let Some(s) = down(game) else { return c };
        let b = &game.board;
        let stride = b.directions.len();
        for i in 0..n {
            let below = b.links[i * stride + s.idx()];
            if below == NO_POS {
                c.bottom[i >> 6] |= 1 << (i & 63);
            } else if let Some(a) = c.above.get_mut(below as usize) {
                if *a != NO_POS {
                    return c;
                }
                *a = i as u16;
            }
        }
        c.usable = true;
        c
    }
}

/// The drop sites of [`ConnectFour::drop_sites`] from the discs on the board rather than from every cell:
/// the cells with nothing below, and the cell above each disc (false, nothing set: not usable here).
fn drop_sites_kept(game: &Game, state: &State, sites: &mut [u64]) -> bool {
    let n = state.cells().len();
    if sites.len() * 64 < n {
        return false;
    }
    let key = (
        crate::engine::connects::engines_built(),
        game as *const Game as usize,
    );
    COLUMNS.with(|k| {
        let mut cols = k.borrow_mut();
        if cols.key != key || cols.above.len() != n {
            *cols = Columns::build(game, n);
            cols.key = key;
        }
        if !cols.usable {
            return false;
        }
        for (w, &b) in sites.iter_mut().zip(&cols.bottom) {
            *w |= b;
        }
        let words = state.occupancy_words();
        // Every owner's discs (the state keeps words for owners past the players too).
        for p in 0..=u8::MAX {
            let occ = state.occupancy(Player(p));
            if occ.is_empty() {
                break;
            }
            for (w, &bits) in occ.iter().enumerate().take(words) {
                let mut bits = bits;
                while bits != 0 {
                    let j = w * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    match cols.above.get(j) {
                        Some(&a) if a != NO_POS => sites[a as usize >> 6] |= 1 << (a & 63),
                        _ => {}
                    }
                }
            }
        }
        true
    })
}

impl Module for ConnectFour {
    fn name(&self) -> &'static str {
        "connect-four"
    }

    fn description(&self) -> &'static str {
        "discs fall to the lowest empty cell (direction s); four in a line wins; a full board draws"
    }

    fn check(&self, game: &Game) -> Result<(), String> {
        if down(game).is_none() {
            return Err("the board needs a direction `s` (down, towards the bottom row)".into());
        }
        if game.players.len() != 2 {
            return Err("Connect Four has two players".into());
        }
        Ok(())
    }

    fn covers(&self) -> &[&str] {
        &["no-end-condition"]
    }
}

impl Hooks for ConnectFour {
    fn moves(&self, game: &Game, state: &State, moves: &mut Vec<Move>) -> Result<(), EngineError> {
        let Some(s) = down(game) else { return Ok(()) };
        // A drop must rest on a disc or on the bottom row.
        let rests = |to: Pos| neighbour(game, to, s).is_none_or(|below| state.get(below).is_some());
        moves.retain(|m| {
            m.parts
                .iter()
                .all(|p| p.from.is_some() || p.to.is_none_or(rests))
        });
        Ok(())
    }

    /// The positions a drop that `moves` keeps lands on: those that rest on a disc or on the bottom row (the
    /// same test), so that the generation runs the drop from one cell a column instead of from every one.
    fn drop_sites(&self, game: &Game, state: &State, sites: &mut [u64]) -> bool {
        if drop_sites_kept(game, state, sites) {
            return true;
        }
        let Some(s) = down(game) else { return false };
        scan_drop_sites(game, state, s, sites);
        true
    }

    fn outcome(
        &self,
        game: &Game,
        state: &State,
        moves: &[Move],
        _history: &[u64],
    ) -> Option<Outcome> {
        // The board read whole: what the general path asks (the buffer's path reads around the new discs).
        end(game, moves.len(), line_owner(game, state))
    }

    /// `moves` removes exactly the drops that do not rest on a disc or the bottom row (the positions
    /// `drop_sites` sets), and the end reads only whether there is a move.
    fn listed(&self) -> bool {
        true
    }

    fn outcome_counted(
        &self,
        game: &Game,
        state: &State,
        moves: usize,
        _history: &[u64],
    ) -> Option<Outcome> {
        end(game, moves, line_owner_kept(game, state))
    }
}

/// The end of the game given the number of legal moves and the owner of a line of four.
fn end(game: &Game, moves: usize, line: Option<Player>) -> Option<Outcome> {
    let n = game.players.len();
    if let Some(w) = line {
        let results = (0..n).map(|q| if q == w.idx() { 1 } else { -1 }).collect();
        return Some(Outcome {
            results,
            end_type: "four-in-a-row".into(),
            name: "four in a row".into(),
            priority: 0,
        });
    }
    if moves == 0 {
        return Some(Outcome {
            results: vec![0; n],
            end_type: "full-board".into(),
            name: "full board".into(),
            priority: 0,
        });
    }
    None
}
