//! `oware`, `kalah`, `mini-mancala`, `bakuk`, `alemungula`, `dakon`, `ohvalhu`: the sowing rules that Dagaz's mancala files (`../shared/corpus/.../mancala/zrf`)
//! keep in scripts, for those files unchanged. The ZRF moves a `Seed` piece one pit along a direction; the
//! scripts give each pit a count of seeds and turn that step into a sowing. Learnt from the Dagaz scripts
//! the corpus lists (`oware-extension`, `dearth-extension`, `mancala-setup`, `mancala-goal`;
//! `dakon-extension` "simple" and "mati-bela", `dakon-restrictions`, `dakon-goal` for Kalah; "mikul" for
//! Dakon; `ohvalhu-extension` with the "extended" restrictions for Ohvalhu), written
//! anew on this project's sowing (`engine::gen::sow`).
//!
//! The file's own moves say which pit may be sown in which direction (a step from the pit along a direction
//! the file gives: Cross-Wari's second move type sows the other way); a module replaces each such step by
//! the sowing. Seeds are the integer attribute `seeds`, which `prepare` declares when the file does not, so
//! a sowing is a list of count changes in the move: hash, notation and perft stay whole. A pit keeps its
//! pile at 0 seeds; a store gets its pile with its first seeds.
//!
//! Where a player's store is: the position the direction `fr` leads to, for that player (the files link
//! `a2` to `X1` by `fr` and mirror `fr` and `er` for North). Pits: the zone `home` of each player.

use crate::compile::sow::GrandSlam;
use crate::compile::Module;
use crate::compile::{AttrId, Dir, Game, Instr, MoveType, PieceType, Player, Pos};
use crate::engine::gen::apply_part;
use crate::engine::gen::sow::{count_actions, counts, lap, pile, sow, Rules};
use crate::engine::moves::Action;
use crate::engine::Hooks;
use crate::engine::{EngineError, Move, Outcome, Part, State};

/// The attribute that counts a pile's seeds.
const SEEDS: &str = "seeds";

/// Declares `seeds` as an integer attribute, unless the game has it.
pub(super) fn declare_seeds(game: &mut Game) -> Result<(), String> {
    if field(game).is_some() {
        return Ok(());
    }
    if game
        .attributes
        .iter()
        .any(|a| a.eq_ignore_ascii_case(SEEDS))
    {
        return Err(format!("the file's attribute `{SEEDS}` is not an integer"));
    }
    let booleans = game.attributes.len() - game.int_attributes.len();
    if booleans + 8 * (game.int_attributes.len() + 1) > crate::compile::MAX_ATTRIBUTES {
        return Err("no room for the seed count among the pieces' attributes".into());
    }
    game.attributes.push(SEEDS.into());
    game.int_attributes
        .push(AttrId(game.attributes.len() as u16 - 1));
    Ok(())
}

/// The integer field of `seeds`.
pub(super) fn field(game: &Game) -> Option<u8> {
    game.int_attributes
        .iter()
        .position(|a| game.attributes[a.idx()].eq_ignore_ascii_case(SEEDS))
        .map(|k| k as u8)
}

/// What the two modules need of a file: two players, the `Seed` piece, a `home` zone, and a store for each
/// player along `fr`.
fn check_board(game: &Game) -> Result<(), String> {
    if game.players.len() != 2 {
        return Err("a mancala needs two players".into());
    }
    if game.piece_type("Seed").is_none() {
        return Err("no piece type `Seed`".into());
    }
    if game.board.zone("home").is_none() {
        return Err("no zone `home` (each player's pits)".into());
    }
    for p in 0..2 {
        if store(game, Player(p)).is_none() {
            return Err(format!(
                "no store for {}: no position reached by direction `fr`",
                game.players[p as usize].name
            ));
        }
    }
    Ok(())
}

fn is_home(game: &Game, player: Player, pos: Pos) -> bool {
    game.board
        .zone("home")
        .is_some_and(|z| game.board.in_zone(z, player, pos))
}

/// A player's store: where `fr` leads, for that player, from the first position that has the link.
fn store(game: &Game, player: Player) -> Option<Pos> {
    let fr = game.board.direction("fr")?;
    (0..game.board.positions.len()).find_map(|i| game.board.step(player, Pos(i as u16), fr))
}

/// Every pit of either player starts with `n` seeds.
fn fill(game: &Game, state: &mut State, n: i8) {
    let Some(k) = field(game) else { return };
    let a = game.int_attributes[k as usize];
    for i in 0..state.cells().len() {
        let pos = Pos(i as u16);
        if !(0..2).any(|p| is_home(game, Player(p), pos)) {
            continue;
        }
        if let Some(mut x) = state.get(pos) {
            x.attrs.set_int(k as usize, n);
            x.attrs.set(a.idx(), n != 0);
            state.set(pos, Some(x));
        }
    }
}

/// The directions the file's `Seed` programs step along (the first step of each program, after its
/// tests), with their move types: `(nx add)` sows along `nx`.
fn program_dirs(game: &Game) -> Vec<(Dir, Option<MoveType>)> {
    let Some(seed) = game.piece_type("Seed") else {
        return vec![];
    };
    game.pieces[seed.idx()]
        .moves
        .iter()
        .filter_map(|prog| {
            prog.body.iter().find_map(|i| match i {
                Instr::Step(d) => Some((*d, prog.move_type)),
                _ => None,
            })
        })
        .collect()
}

/// The (pit, direction, move type) of each step the file's own moves make: what may be sown, and how.
fn sowings(game: &Game, player: Player, moves: &[Move]) -> Vec<(Pos, Dir, Option<MoveType>)> {
    let dirs = program_dirs(game);
    let mut out = vec![];
    for m in moves {
        let [part] = &m.parts[..] else { continue };
        let (Some(f), Some(t)) = (part.from, part.to) else {
            continue;
        };
        for &(d, mt) in &dirs {
            if mt == part.move_type
                && game.board.step(player, f, d) == Some(t)
                && !out.iter().any(|x: &(Pos, Dir, _)| x.0 == f && x.1 == d)
            {
                out.push((f, d, mt));
            }
        }
    }
    out
}

/// The part that turns `state`'s counts into `after`, sowing from `origin`.
pub(super) fn part(
    game: &Game,
    state: &State,
    k: u8,
    origin: Pos,
    after: &[i32],
    mt: Option<MoveType>,
) -> Part {
    let before = counts(state, k);
    let player = game.turn_order.entries[state.turn()].player;
    let kind = state.get(origin).map_or(PieceType(0), |x| x.kind);
    let mut actions = vec![];
    count_actions(game, state, k, kind, player, &before, after, &mut actions);
    Part {
        actions,
        from: Some(origin),
        to: Some(origin),
        piece: kind,
        move_type: mt,
    }
}

/// The seeds of `player`'s pits.
fn row(game: &Game, counts: &[i32], player: Player) -> i32 {
    (0..counts.len())
        .filter(|&i| is_home(game, player, Pos(i as u16)))
        .map(|i| counts[i])
        .sum()
}

/// Whether either player's row is empty.
fn round_over(game: &Game, counts: &[i32]) -> bool {
    (0..2).any(|p| row(game, counts, Player(p)) == 0)
}

/// The outcome for two totals: the player with more wins.
fn decide(mine: i32, theirs: i32, me: Player, name: &str) -> Outcome {
    let r = (mine - theirs).signum() as i8;
    let mut results = vec![0i8; 2];
    results[me.idx()] = r;
    results[1 - me.idx()] = -r;
    Outcome {
        results,
        end_type: name.into(),
        name: name.into(),
        priority: 0,
    }
}

/// The end both modules share: more than half of all seeds in a store wins; when `ended` holds, each player
/// adds the seeds of its own pits to its store and the larger total wins.
fn mancala_outcome(game: &Game, state: &State, ended: bool, name: &str) -> Option<Outcome> {
    let k = field(game)?;
    let c = counts(state, k);
    let total: i32 = c.iter().sum();
    let me = game.turn_order.entries[state.turn()].player;
    let other = Player(1 - me.0);
    let kept = |p: Player| store(game, p).map_or(0, |s| c[s.idx()]);
    for p in [me, other] {
        if 2 * kept(p) > total {
            return Some(decide(1, 0, p, "more than half"));
        }
    }
    if ended {
        let sum = |p: Player| kept(p) + row(game, &c, p);
        return Some(decide(sum(me), sum(other), me, name));
    }
    None
}

/// A mancala of the Oware kind, as Dagaz's `oware-extension` and `alemungula-extension` play it: each own
/// pit may be sown along the file's directions, one seed a pit; a last seed in the opponent's row making one
/// of `takes` captures it and the pits before it that hold one of `takes`, to the mover's store; the
/// `dearth-extension`: when the opponent has no seed (always, with `no_full_capture`), only the moves that
/// leave it seeds are played, if some do; the end of `mancala-goal`.
pub struct OwareLike {
    name: &'static str,
    description: &'static str,
    seeds: i8,
    /// A sowing of a full lap skips its pit (Oware); otherwise the pit gets a seed on each lap.
    skip_origin: bool,
    takes: &'static [i32],
    /// Dagaz's "no-full-capturing": a move must leave the opponent seeds whenever one can (which is the
    /// feeding rule and forbids a grand slam), not only when the opponent has none.
    no_full_capture: bool,
    covers: &'static [&'static str],
}

/// `oware`: Dagaz's Oware (and its Cross-Wari and Mangala variants): 4 seeds a pit; a sowing of 12 or more
/// skips its pit; a last seed making 2 or 3 in the opponent's row captures it and the pits before it that
/// hold 2 or 3; a move must leave the opponent seeds when one can (Dagaz's `dearth-extension`
/// "no-full-capturing": this is both the feeding rule and the grand slam, which is then forbidden unless
/// every move is one); more than half of the seeds in a store wins, and when the player to move has no
/// seed, the other takes its own row and the stores decide (`mancala-goal`).
pub static OWARE: OwareLike = OwareLike {
    name: "oware",
    description:
        "Oware sowing for Dagaz's mancala files: 4 seeds, captures of 2 and 3, feeding, stores",
    seeds: 4,
    skip_origin: true,
    takes: &[2, 3],
    no_full_capture: true,
    covers: &[
        "no-end-condition",
        "seed-steps",
        "oware-extension",
        "dearth-extension",
        "mancala-setup",
        "mancala-goal",
    ],
};

/// `alemungula`: Dagaz's Alemungula (`alemungula-extension`, `mancala-setup` 5, `dearth-extension`,
/// `mancala-goal`): five pits a side, five seeds each; the pit sown from gets a seed on each lap; a last seed
/// making 2 or 4 in the opponent's row captures, with the pits before it holding 2 or 4; a player whose
/// opponent has no seed must give it some when it can. The page's `ko` script (no repeated position) is not
/// applied.
pub static ALEMUNGULA: OwareLike = OwareLike {
    name: "alemungula",
    description: "Alemungula for Dagaz's file: 5 seeds, captures of 2 and 4, feeding, stores",
    seeds: 5,
    skip_origin: false,
    takes: &[2, 4],
    no_full_capture: false,
    covers: &[
        "no-end-condition",
        "seed-steps",
        "alemungula-extension",
        "dearth-extension",
        "mancala-setup",
        "mancala-goal",
    ],
};

impl Module for OwareLike {
    fn name(&self) -> &'static str {
        self.name
    }

    fn description(&self) -> &'static str {
        self.description
    }

    fn prepare(&self, game: &mut Game) -> Result<(), String> {
        declare_seeds(game)
    }

    fn check(&self, game: &Game) -> Result<(), String> {
        check_board(game)
    }

    fn covers(&self) -> &[&str] {
        self.covers
    }
}

impl Hooks for OwareLike {
    fn setup(&self, game: &Game, state: &mut State) {
        fill(game, state, self.seeds);
    }

    fn moves(&self, game: &Game, state: &State, moves: &mut Vec<Move>) -> Result<(), EngineError> {
        let Some(k) = field(game) else { return Ok(()) };
        let player = game.turn_order.entries[state.turn()].player;
        let other = Player(1 - player.0);
        let n = game.board.positions.len();
        let theirs: Vec<bool> = (0..n)
            .map(|i| is_home(game, other, Pos(i as u16)))
            .collect();
        let store = store(game, player);
        let start = counts(state, k);
        let starving = row(game, &start, other) == 0;
        let mut out = vec![];
        let mut feeding = vec![];
        for (origin, dir, mt) in sowings(game, player, moves) {
            if !is_home(game, player, origin) || start[origin.idx()] <= 0 {
                continue;
            }
            let Some(lap) = lap(&game.board, player, origin, dir, None, self.skip_origin) else {
                continue;
            };
            let mut c = start.clone();
            let rules = Rules {
                lap: &lap,
                capture: Some((&theirs, self.takes, true)),
                grand_slam: GrandSlam::Allowed,
                opposite: None,
                feed: None,
                store,
                again: None,
            };
            if sow(&mut c, origin, &rules).is_none() {
                continue;
            }
            feeding.push(row(game, &c, other) > 0);
            out.push(Move {
                parts: vec![part(game, state, k, origin, &c, mt)],
            });
        }
        // The opponent must keep (or be given) seeds when some move does that.
        if (self.no_full_capture || starving) && feeding.iter().any(|&f| f) {
            let mut i = 0;
            out.retain(|_| {
                i += 1;
                feeding[i - 1]
            });
        }
        *moves = out;
        Ok(())
    }

    fn outcome(
        &self,
        game: &Game,
        state: &State,
        _moves: &[Move],
        _history: &[u64],
    ) -> Option<Outcome> {
        let k = field(game)?;
        let me = game.turn_order.entries[state.turn()].player;
        let empty = row(game, &counts(state, k), me) == 0;
        mancala_outcome(game, state, empty, "no seeds")
    }
}

/// `kalah`: Dagaz's Kalah (`dakon-extension` "simple" and "mati-bela", `dakon-restrictions` and
/// `dakon-goal` "extended", `mancala-setup` 6): 6 seeds a pit; the sowing passes the mover's store and
/// skips the other; a last seed in the own store sows again (Dagaz makes the opponent pass; here the whole
/// turn is one move, as this project's perft counts Kalah); a last seed in an empty own pit takes itself
/// and the opposite pit (direction `up`) when that holds seeds; more than half of the seeds in a store
/// wins, and when either row is empty each player takes its own row and the totals decide.
pub struct Kalah;

impl Kalah {
    /// Every whole turn from `state`: a sowing, and another while the last seed falls in the store.
    #[allow(clippy::too_many_arguments)]
    fn turns(
        &self,
        game: &Game,
        state: &State,
        k: u8,
        steps: &[(Pos, Dir, Option<MoveType>)],
        prefix: &mut Vec<Part>,
        seen: &mut std::collections::HashSet<(Pos, Vec<i32>)>,
        out: &mut Vec<Move>,
    ) {
        let player = game.turn_order.entries[state.turn()].player;
        let n = game.board.positions.len();
        let pool = game.board.zone("pool");
        let own_store = store(game, player);
        let skip: Vec<bool> = (0..n)
            .map(|i| {
                let p = Pos(i as u16);
                Some(p) != own_store
                    && (Some(p) == store(game, Player(1 - player.0))
                        || pool.is_some_and(|z| game.board.in_zone(z, player, p)))
            })
            .collect();
        let mine: Vec<bool> = (0..n)
            .map(|i| is_home(game, player, Pos(i as u16)))
            .collect();
        let up = game.board.direction("up");
        let opposite: Vec<Option<Pos>> = (0..n)
            .map(|i| up.and_then(|d| game.board.step(player, Pos(i as u16), d)))
            .collect();
        let again: Vec<bool> = (0..n).map(|i| Some(Pos(i as u16)) == own_store).collect();
        let start = counts(state, k);
        for &(origin, dir, mt) in steps {
            if !mine[origin.idx()] || start[origin.idx()] <= 0 {
                continue;
            }
            let Some(lap) = lap(&game.board, player, origin, dir, Some(&skip), false) else {
                continue;
            };
            let mut c = start.clone();
            let rules = Rules {
                lap: &lap,
                capture: None,
                grand_slam: GrandSlam::Allowed,
                opposite: up.map(|_| (&mine[..], &opposite[..])),
                feed: None,
                store: own_store,
                again: Some(&again),
            };
            let Some(sown) = sow(&mut c, origin, &rules) else {
                continue;
            };
            let p = part(game, state, k, origin, &c, mt);
            let mut next = state.clone();
            apply_part(game, &mut next, &p, false);
            prefix.push(p);
            if sown.again && row(game, &c, player) > 0 {
                self.turns(game, &next, k, steps, prefix, seen, out);
            } else if seen.insert((prefix[0].from.unwrap_or(origin), c)) {
                out.push(Move {
                    parts: prefix.clone(),
                });
            }
            prefix.pop();
        }
    }
}

impl Module for Kalah {
    fn name(&self) -> &'static str {
        "kalah"
    }

    fn description(&self) -> &'static str {
        "Kalah sowing for Dagaz's mancala files: 6 seeds, stores, sowing again, capture opposite"
    }

    fn prepare(&self, game: &mut Game) -> Result<(), String> {
        declare_seeds(game)
    }

    fn check(&self, game: &Game) -> Result<(), String> {
        check_board(game)
    }

    /// The corpus `kalah.zrf` sets up a seed on `g1` and `g2`, which its board lacks. Dagaz's converter
    /// gives them the first two positions of its list (its `kalah.js` sets up South on `a2` and North on
    /// `b2` for them), which North's own setup fills after them: they place nothing there either.
    fn setup_position(&self, name: &str) -> Option<&'static str> {
        ["g1", "g2"].contains(&name.to_ascii_lowercase().as_str()).then_some(
            "Dagaz's Kalah places nothing there (its converted board puts `g1` and `g2` on `a2` and `b2`, which North's setup fills)",
        )
    }

    fn covers(&self) -> &[&str] {
        &[
            "no-end-condition",
            "seed-steps",
            "dakon-extension",
            "dakon-goal",
            "dakon-restrictions",
            "mancala-setup",
        ]
    }
}

impl Hooks for Kalah {
    fn setup(&self, game: &Game, state: &mut State) {
        fill(game, state, 6);
    }

    fn moves(&self, game: &Game, state: &State, moves: &mut Vec<Move>) -> Result<(), EngineError> {
        let Some(k) = field(game) else { return Ok(()) };
        let player = game.turn_order.entries[state.turn()].player;
        // The file's steps from the pits; a continuation sows in the same directions from the other pits.
        let mut steps = sowings(game, player, moves);
        let dirs: Vec<(Dir, Option<MoveType>)> = steps.iter().map(|s| (s.1, s.2)).collect();
        for i in 0..game.board.positions.len() {
            let p = Pos(i as u16);
            if is_home(game, player, p) {
                for &(d, mt) in &dirs {
                    if !steps.iter().any(|s| s.0 == p && s.1 == d) {
                        steps.push((p, d, mt));
                    }
                }
            }
        }
        let mut out = vec![];
        let mut seen = Default::default();
        self.turns(game, state, k, &steps, &mut vec![], &mut seen, &mut out);
        *moves = out;
        Ok(())
    }

    fn outcome(
        &self,
        game: &Game,
        state: &State,
        _moves: &[Move],
        _history: &[u64],
    ) -> Option<Outcome> {
        let k = field(game)?;
        let c = counts(state, k);
        let ended = (0..2).any(|p| row(game, &c, Player(p)) == 0);
        mancala_outcome(game, state, ended, "row empty")
    }
}

/// `mini-mancala`: Dagaz's Mini Mancala (`mini-mancala-extension`, `mancala-setup` 2, `mini-mancala-ai`):
/// two pits a side, two seeds a pit; a move sows every seed of an own pit one by one round the four pits
/// (the pit sown from included on a second lap); nothing is captured and there are no stores; seeds
/// falling in a pit belong to its owner. A player with no seed cannot move and loses (the page's
/// `STALEMATE = -1`).
pub struct MiniMancala;

impl Module for MiniMancala {
    fn name(&self) -> &'static str {
        "mini-mancala"
    }

    fn description(&self) -> &'static str {
        "Mini Mancala for Dagaz's file: 2 seeds, plain sowing, no move loses"
    }

    fn prepare(&self, game: &mut Game) -> Result<(), String> {
        declare_seeds(game)
    }

    fn check(&self, game: &Game) -> Result<(), String> {
        if game.players.len() != 2 || game.piece_type("Seed").is_none() {
            return Err("a mancala needs two players and the piece type `Seed`".into());
        }
        if game.board.zone("home").is_none() {
            return Err("no zone `home` (each player's pits)".into());
        }
        Ok(())
    }

    fn covers(&self) -> &[&str] {
        &[
            "no-end-condition",
            "seed-steps",
            "mini-mancala-extension",
            "mancala-setup",
        ]
    }
}

impl Hooks for MiniMancala {
    fn setup(&self, game: &Game, state: &mut State) {
        fill(game, state, 2);
    }

    fn moves(&self, game: &Game, state: &State, moves: &mut Vec<Move>) -> Result<(), EngineError> {
        let Some(k) = field(game) else { return Ok(()) };
        let player = game.turn_order.entries[state.turn()].player;
        let start = counts(state, k);
        let mut out = vec![];
        for (origin, dir, mt) in sowings(game, player, moves) {
            if !is_home(game, player, origin) || start[origin.idx()] <= 0 {
                continue;
            }
            let Some(lap) = lap(&game.board, player, origin, dir, None, false) else {
                continue;
            };
            let mut c = start.clone();
            let rules = Rules {
                lap: &lap,
                capture: None,
                grand_slam: GrandSlam::Allowed,
                opposite: None,
                feed: None,
                store: None,
                again: None,
            };
            if sow(&mut c, origin, &rules).is_some() {
                out.push(Move {
                    parts: vec![part(game, state, k, origin, &c, mt)],
                });
            }
        }
        *moves = out;
        Ok(())
    }

    fn outcome(
        &self,
        game: &Game,
        state: &State,
        moves: &[Move],
        _history: &[u64],
    ) -> Option<Outcome> {
        let me = game.turn_order.entries[state.turn()].player;
        moves.is_empty().then(|| decide(0, 1, me, "no move"))
    }
}

/// `bakuk`: Dagaz's Bakuk (`bakuk-extension`, `mancala-setup` 6, `mancala-goal`): three pits a side, six
/// seeds each; a move sows every seed of an own pit round the six pits (the pit sown from included on a
/// second lap); if the last seed makes 2 or 4, in either row, those seeds go to the mover's store, and so do
/// those of the pits after it that this sowing reached once round (only a sowing of a full lap reaches
/// them), while each holds 2 or 4 (the script's order: onwards from the last pit, not back). More than half
/// of the seeds in a store wins; when the player to move has no seed, each keeps its own row and the totals
/// decide.
pub struct Bakuk;

impl Module for Bakuk {
    fn name(&self) -> &'static str {
        "bakuk"
    }

    fn description(&self) -> &'static str {
        "Bakuk for Dagaz's file: 6 seeds, captures of 2 and 4 onwards from the last pit, stores"
    }

    fn prepare(&self, game: &mut Game) -> Result<(), String> {
        declare_seeds(game)
    }

    fn check(&self, game: &Game) -> Result<(), String> {
        check_board(game)
    }

    fn covers(&self) -> &[&str] {
        &[
            "no-end-condition",
            "seed-steps",
            "bakuk-extension",
            "mancala-setup",
            "mancala-goal",
        ]
    }
}

impl Hooks for Bakuk {
    fn setup(&self, game: &Game, state: &mut State) {
        fill(game, state, 6);
    }

    fn moves(&self, game: &Game, state: &State, moves: &mut Vec<Move>) -> Result<(), EngineError> {
        let Some(k) = field(game) else { return Ok(()) };
        let player = game.turn_order.entries[state.turn()].player;
        let store = store(game, player);
        let start = counts(state, k);
        let mut out = vec![];
        for (origin, dir, mt) in sowings(game, player, moves) {
            let n = start[origin.idx()];
            if !is_home(game, player, origin) || n <= 0 {
                continue;
            }
            let Some(lap) = lap(&game.board, player, origin, dir, None, false) else {
                continue;
            };
            let mut c = start.clone();
            let rules = Rules {
                lap: &lap,
                capture: None,
                grand_slam: GrandSlam::Allowed,
                opposite: None,
                feed: None,
                store: None,
                again: None,
            };
            let Some(sown) = sow(&mut c, origin, &rules) else {
                continue;
            };
            // Steps from the origin, as the script numbers them: step i (1..) is lap[i-1], the origin is 0.
            let len = lap.len();
            let reached = (n as usize + 1).min(len);
            let mut i = (lap.iter().position(|&p| p == sown.last).unwrap_or(0) + 1) % len;
            let mut taken = 0;
            while i < reached {
                let p = if i == 0 { origin } else { lap[i - 1] };
                if !matches!(c[p.idx()], 2 | 4) {
                    break;
                }
                taken += c[p.idx()];
                c[p.idx()] = 0;
                i += 1;
            }
            if let Some(s) = store {
                c[s.idx()] += taken;
            }
            out.push(Move {
                parts: vec![part(game, state, k, origin, &c, mt)],
            });
        }
        *moves = out;
        Ok(())
    }

    fn outcome(
        &self,
        game: &Game,
        state: &State,
        _moves: &[Move],
        _history: &[u64],
    ) -> Option<Outcome> {
        let k = field(game)?;
        let me = game.turn_order.entries[state.turn()].player;
        let empty = row(game, &counts(state, k), me) == 0;
        mancala_outcome(game, state, empty, "no seeds")
    }
}

/// A mancala of the Dakon kind, as Dagaz's `dakon-extension` and `ohvalhu-extension` play it: a sowing
/// passes the own store (the other store is not on the track); a last seed in an occupied pit lifts that
/// pit and sows on from it (relay sowing, Dagaz's negative count, which `dakon-restrictions` makes the
/// mover's only move while the opponent passes); a last seed in an empty own pit takes the opposite pit
/// (direction `up`) when that holds seeds. What the two pages differ in is in the fields.
pub struct DakonLike {
    name: &'static str,
    description: &'static str,
    seeds: i8,
    /// The single seed of the capture opposite goes to the store too (Ohvalhu; Dakon's "mikul" page leaves
    /// it in its pit).
    takes_own: bool,
    /// Dakon's "mikul": a last seed in an empty pit of the opponent's row, inside the row, whose two
    /// neighbours (along the sowing and along `rv`) hold as many seeds, takes both with itself.
    mikul: bool,
    /// A last seed in the own store gives the mover another ply (`dakon-restrictions` "extended": the
    /// opponent passes; here an `ExtraTurn` action); otherwise the turn ends there.
    again: bool,
    /// More than half of the seeds in a store wins (Dakon's `WIN_CNT` 49 of 98; Ohvalhu's 128 of 128 can
    /// never be passed, so only an empty row ends it).
    half_wins: bool,
    /// Rounds (Ohvalhu, Dagaz's `Dagaz.Model.continue`): when a row is empty, each player gathers its own
    /// row and store and fills its pits again, `seeds` a pit, from the pit nearest its store back; pits it
    /// cannot fill hold a `Dead` piece and are passed over; what is left stays in its store. The player with
    /// fewer seeds (South on a tie) starts the next round. The game ends when a player has fewer seeds than a
    /// pit takes, the round's totals deciding.
    rounds: bool,
    covers: &'static [&'static str],
}

/// `dakon`: Dagaz's Dakon (`dakon-extension` "mikul", `dakon-restrictions`, `dakon-goal`, `mancala-setup`
/// 7): seven pits a side, seven seeds each; relay sowing; a last seed in the own store ends the turn (the
/// page's restrictions are not "extended"); a last seed in an empty own pit takes the opposite pit's seeds
/// (the seed stays); "mikul": a last seed in an empty pit inside the opponent's row whose two neighbours hold
/// equal counts takes both and itself; more than 49 seeds in a store wins, and when a row is empty each
/// player keeps its own row and the totals decide.
pub static DAKON: DakonLike = DakonLike {
    name: "dakon",
    description: "Dakon for Dagaz's file: 7 seeds, relay sowing, capture opposite, mikul, stores",
    seeds: 7,
    takes_own: false,
    mikul: true,
    again: false,
    half_wins: true,
    rounds: false,
    covers: &[
        "no-end-condition",
        "seed-steps",
        "dakon-extension",
        "dakon-goal",
        "dakon-restrictions",
        "mancala-setup",
    ],
};

/// `ohvalhu`: Dagaz's Ohvalhu (`ohvalhu-extension`, `dakon-restrictions` "extended", `dakon-goal`,
/// `mancala-setup` 8): eight pits a side, eight seeds each; relay sowing, skipping pits that hold a `Dead`
/// piece; a last seed in the own store sows again; a last seed in an empty own pit takes itself and the
/// opposite pit's seeds; a round ends when a row is empty, each keeping its own row; then the next round
/// (see `rounds`), until a player cannot fill a pit, the last round's totals deciding.
pub static OHVALHU: DakonLike = DakonLike {
    name: "ohvalhu",
    description:
        "Ohvalhu for Dagaz's file: 8 seeds, relay sowing, sowing again, capture opposite, \
                  rounds until a player cannot fill a pit (its unfilled pits dead)",
    seeds: 8,
    takes_own: true,
    mikul: false,
    again: true,
    half_wins: false,
    rounds: true,
    covers: &[
        "no-end-condition",
        "seed-steps",
        "ohvalhu-extension",
        "dakon-goal",
        "dakon-restrictions",
        "mancala-setup",
    ],
};

/// What a turn of a `DakonLike` game reads of the board for the player to move.
struct Track {
    k: u8,
    player: Player,
    skip: Vec<bool>,
    mine: Vec<bool>,
    theirs: Vec<bool>,
    store: Option<Pos>,
    up: Option<Dir>,
    rv: Option<Dir>,
}

impl DakonLike {
    /// One sowing from `origin` along `dir`, its captures, and the relays that follow it; `None` when it
    /// cannot be sown. The counts are `c`; returns the last pit.
    fn sow_once(
        &self,
        game: &Game,
        t: &Track,
        c: &mut [i32],
        origin: Pos,
        dir: Dir,
    ) -> Option<Pos> {
        let lap = lap(&game.board, t.player, origin, dir, Some(&t.skip), false)?;
        let rules = Rules {
            lap: &lap,
            capture: None,
            grand_slam: GrandSlam::Allowed,
            opposite: None,
            feed: None,
            store: None,
            again: None,
        };
        let last = sow(c, origin, &rules)?.last;
        if Some(last) == t.store || c[last.idx()] != 1 {
            return Some(last);
        }
        let mut taken = 0;
        if t.mine[last.idx()] {
            // An empty own pit: the opposite pit's seeds, and with `takes_own` the last seed.
            let opp = t.up.and_then(|d| game.board.step(t.player, last, d));
            if let Some(o) = opp.filter(|o| c[o.idx()] > 0) {
                taken += c[o.idx()];
                c[o.idx()] = 0;
                if self.takes_own {
                    taken += 1;
                    c[last.idx()] = 0;
                }
            }
        } else if self.mikul && t.theirs[last.idx()] {
            let next = game.board.step(t.player, last, dir);
            let prev = t.rv.and_then(|d| game.board.step(t.player, last, d));
            if let (Some(p), Some(q)) = (next, prev) {
                if c[p.idx()] > 0 && c[p.idx()] == c[q.idx()] {
                    taken += c[p.idx()] + c[q.idx()] + 1;
                    c[p.idx()] = 0;
                    c[q.idx()] = 0;
                    c[last.idx()] = 0;
                }
            }
        }
        if let Some(s) = t.store {
            c[s.idx()] += taken;
        }
        Some(last)
    }

    /// The actions that set up the next round after a turn that emptied a row, with `c` the counts it left
    /// (see `rounds`); none when a player cannot fill a pit, which ends the game.
    fn next_round(&self, game: &Game, t: &Track, c: &[i32], dir: Dir, out: &mut Vec<Action>) {
        let (Some(seed), Some(dead)) = (game.piece_type("Seed"), game.piece_type("Dead")) else {
            return;
        };
        let per = self.seeds as i32;
        let total = |p: Player| store(game, p).map_or(0, |s| c[s.idx()]) + row(game, c, p);
        let totals = [total(Player(0)), total(Player(1))];
        if totals.iter().any(|&x| x < per) {
            return;
        }
        for (i, &x) in totals.iter().enumerate() {
            let p = Player(i as u8);
            let Some(st) = store(game, p) else { return };
            // The player's pits in its sowing order, starting after its store: the last ones are nearest it.
            let Some(path) = lap(&game.board, p, st, dir, None, true) else {
                return;
            };
            let pits: Vec<Pos> = path.into_iter().filter(|&q| is_home(game, p, q)).collect();
            let filled = ((x / per) as usize).min(pits.len());
            for (j, &at) in pits.iter().enumerate() {
                let piece = if j >= pits.len() - filled {
                    pile(game, seed, p, t.k, per as i8)
                } else {
                    pile(game, dead, p, t.k, 0)
                };
                out.push(Action::Place {
                    at,
                    piece,
                    reserve: false,
                });
            }
            let left = (x - per * filled as i32).clamp(0, 127) as i8;
            out.push(Action::Place {
                at: st,
                piece: pile(game, seed, p, t.k, left),
                reserve: false,
            });
        }
        let starter = if totals[1] < totals[0] {
            Player(1)
        } else {
            Player(0)
        };
        if starter == t.player {
            out.push(Action::ExtraTurn);
        }
    }

    /// Every move from `state`: a sowing and its relays, each sowing a part; with `again`, a move whose
    /// last seed falls in the store gives the mover another ply.
    #[allow(clippy::too_many_arguments)]
    fn turns(
        &self,
        game: &Game,
        t: &Track,
        state: &State,
        steps: &[(Pos, Dir, Option<MoveType>)],
        relay: Option<(Pos, Dir, Option<MoveType>)>,
        prefix: &mut Vec<Part>,
        seen: &mut std::collections::HashSet<(Option<Pos>, Vec<i32>)>,
        out: &mut Vec<Move>,
    ) {
        let start = counts(state, t.k);
        let choices: Vec<(Pos, Dir, Option<MoveType>)> = match relay {
            Some(r) => vec![r],
            None => steps
                .iter()
                .copied()
                .filter(|s| t.mine[s.0.idx()] && start[s.0.idx()] > 0)
                .collect(),
        };
        for (origin, dir, mt) in choices {
            let mut c = start.clone();
            let Some(last) = self.sow_once(game, t, &mut c, origin, dir) else {
                continue;
            };
            let p = part(game, state, t.k, origin, &c, mt);
            let first = prefix.first().and_then(|x| x.from).or(Some(origin));
            let mut next = state.clone();
            apply_part(game, &mut next, &p, false);
            prefix.push(p);
            let in_store = Some(last) == t.store;
            if !in_store && c[last.idx()] > 1 {
                // Relay: the pit of the last seed is lifted and sown on, along the same direction.
                self.turns(
                    game,
                    t,
                    &next,
                    steps,
                    Some((last, dir, mt)),
                    prefix,
                    seen,
                    out,
                );
            } else if in_store
                && self.again
                && row(game, &c, t.player) > 0
                && !(self.rounds && round_over(game, &c))
            {
                // Sowing again is a ply of its own (Dagaz: the opponent passes), as a whole turn of
                // chained choices would be too many moves to list.
                if let Some(last) = prefix.last_mut() {
                    last.actions.push(Action::ExtraTurn);
                }
                out.push(Move {
                    parts: prefix.clone(),
                });
            } else if seen.insert((first, c.clone())) {
                let mut parts = prefix.clone();
                if self.rounds && round_over(game, &c) {
                    if let Some(last) = parts.last_mut() {
                        self.next_round(game, t, &c, dir, &mut last.actions);
                    }
                }
                out.push(Move { parts });
            }
            prefix.pop();
        }
    }
}

impl Module for DakonLike {
    fn name(&self) -> &'static str {
        self.name
    }

    fn description(&self) -> &'static str {
        self.description
    }

    fn prepare(&self, game: &mut Game) -> Result<(), String> {
        declare_seeds(game)
    }

    fn check(&self, game: &Game) -> Result<(), String> {
        check_board(game)
    }

    fn covers(&self) -> &[&str] {
        self.covers
    }
}

impl Hooks for DakonLike {
    fn setup(&self, game: &Game, state: &mut State) {
        fill(game, state, self.seeds);
    }

    fn moves(&self, game: &Game, state: &State, moves: &mut Vec<Move>) -> Result<(), EngineError> {
        let Some(k) = field(game) else { return Ok(()) };
        let player = game.turn_order.entries[state.turn()].player;
        let other = Player(1 - player.0);
        let n = game.board.positions.len();
        let own_store = store(game, player);
        let dead = game.piece_type("Dead");
        let t = Track {
            k,
            player,
            skip: (0..n)
                .map(|i| {
                    let p = Pos(i as u16);
                    Some(p) != own_store
                        && (Some(p) == store(game, other)
                            || dead.is_some_and(|d| state.get(p).is_some_and(|x| x.kind == d)))
                })
                .collect(),
            mine: (0..n)
                .map(|i| is_home(game, player, Pos(i as u16)))
                .collect(),
            theirs: (0..n)
                .map(|i| is_home(game, other, Pos(i as u16)))
                .collect(),
            store: own_store,
            up: game.board.direction("up"),
            rv: game.board.direction("rv"),
        };
        // The file's steps from the pits; a later sowing of the turn may start from any own pit.
        let mut steps = sowings(game, player, moves);
        let dirs: Vec<(Dir, Option<MoveType>)> = steps.iter().map(|s| (s.1, s.2)).collect();
        for i in 0..n {
            let p = Pos(i as u16);
            if t.mine[i] {
                for &(d, mt) in &dirs {
                    if !steps.iter().any(|s| s.0 == p && s.1 == d) {
                        steps.push((p, d, mt));
                    }
                }
            }
        }
        let mut out = vec![];
        let mut seen = Default::default();
        self.turns(
            game,
            &t,
            state,
            &steps,
            None,
            &mut vec![],
            &mut seen,
            &mut out,
        );
        *moves = out;
        Ok(())
    }

    fn outcome(
        &self,
        game: &Game,
        state: &State,
        _moves: &[Move],
        _history: &[u64],
    ) -> Option<Outcome> {
        let k = field(game)?;
        let c = counts(state, k);
        let ended = (0..2).any(|p| row(game, &c, Player(p)) == 0);
        if self.half_wins {
            return mancala_outcome(game, state, ended, "row empty");
        }
        // Each keeps its store and its own row; the larger total wins.
        let me = game.turn_order.entries[state.turn()].player;
        let sum = |p: Player| store(game, p).map_or(0, |s| c[s.idx()]) + row(game, &c, p);
        ended.then(|| decide(sum(me), sum(Player(1 - me.0)), me, "row empty"))
    }
}
