//! `tchuka-ruma`: Tchuka Ruma, the solitaire mancala, for Dagaz's file (`mancala/zrf/tchuka-ruma.zrf`), whose
//! sowing, end and setup are page scripts. The rules as published (Wikipedia, "Tchuka Ruma"; the game as
//! described from Indonesia, with four holes and a ruma):
//!
//! * A row of four holes and the ruma (the store) after them; two seeds in each hole at the start.
//! * A move takes every seed of a hole and sows them one by one into the holes that follow, towards the
//!   ruma and on round to the first hole after it (the ruma gets a seed each time it is passed).
//! * Last seed in the ruma: the sowing ends, and the player chooses a hole again (the next move).
//! * Last seed in a hole that held seeds: the player takes them all, the last one with them, and sows on
//!   from there (a relay), within the same move.
//! * Last seed in an empty hole: the game is lost.
//! * All the seeds in the ruma: the game is won.
//!
//! A move is the whole sowing with its relays, one part per sowing (`c1-c1 d1-d1`); the holes' counts are the
//! integer attribute `seeds`, as the other mancala modules keep them. A lost game is a game variable the
//! module declares, set by the move that ends in an empty hole. Only the published board is played: a
//! board with another number of holes (the file's second variant, six holes, whose seeds per hole are set
//! by a Dagaz script) is refused by `check`.
//!
//! A relay always ends: a sowing that does not pass the ruma moves every seed it lifts further along the
//! row, so the seeds' distance to the ruma falls, and a sowing that passes it adds a seed to the ruma,
//! which never gives one back.

use super::mancala::{declare_seeds, field, part};
use crate::compile::Module;
use crate::compile::{Dir, Game, Instr, Player, Pos, Variable};
use crate::engine::gen::apply_part;
use crate::engine::gen::sow::{counts, lap, sow, Rules};
use crate::engine::Hooks;
use crate::engine::{Action, EngineError, Move, Outcome, State};

/// The module (registered in `super::MODULES`).
pub struct TchukaRuma;

/// The game variable that marks a lost game (1).
const LOST: &str = "tchuka-ruma-lost";
const HOLES: usize = 4;
const SEEDS: i8 = 2;
/// A bound on the sowings of one move, far above any real relay (see the module's paragraph): never a hang.
const MAX_SOWINGS: usize = 10_000;

struct Layout {
    dir: Dir,
    holes: Vec<Pos>,
    ruma: Pos,
}

fn layout(game: &Game) -> Result<Layout, String> {
    if game.players.len() != 1 {
        return Err("Tchuka Ruma is played alone: the game needs one player".into());
    }
    let seed = game
        .piece_type("Seed")
        .ok_or("the game needs a piece type `Seed`")?;
    let dir = game.pieces[seed.idx()]
        .moves
        .iter()
        .flat_map(|p| &p.body)
        .find_map(|i| match i {
            Instr::Step(d) => Some(*d),
            _ => None,
        })
        .ok_or("the piece `Seed` needs a move that steps along the row")?;
    let home = game
        .board
        .zone("home")
        .ok_or("the game needs a zone `home` (the holes)")?;
    let player = Player(0);
    let holes: Vec<Pos> = (0..game.board.positions.len())
        .map(|i| Pos(i as u16))
        .filter(|&p| game.board.in_zone(home, player, p))
        .collect();
    if holes.len() != HOLES {
        return Err(format!(
            "the published Tchuka Ruma has {HOLES} holes of {SEEDS} seeds and a ruma; this board has {} \
             holes, and the seeds of each are left to a Dagaz script",
            holes.len()
        ));
    }
    // The ruma: the one position of the row's cycle that is not a hole.
    let mut ruma = None;
    let mut p = holes[0];
    for _ in 0..=HOLES {
        p = game
            .board
            .step(player, p, dir)
            .ok_or("the holes and the ruma must make a cycle along the `Seed`'s direction")?;
        if !holes.contains(&p) {
            if ruma.is_some_and(|r| r != p) {
                return Err(
                    "the row's cycle holds more than one position besides the holes".into(),
                );
            }
            ruma = Some(p);
        }
    }
    if p != holes[0] {
        return Err("the holes and the ruma must make one cycle of five positions".into());
    }
    let ruma = ruma.ok_or("the row's cycle has no ruma (a position that is not a hole)")?;
    Ok(Layout { dir, holes, ruma })
}

fn lost_slot(game: &Game) -> Option<usize> {
    game.variables
        .iter()
        .find(|v| v.name == LOST)
        .map(|v| v.slot)
}

impl Module for TchukaRuma {
    fn name(&self) -> &'static str {
        "tchuka-ruma"
    }

    fn description(&self) -> &'static str {
        "Tchuka Ruma, the solitaire mancala: four holes of two seeds, relay sowing, the last seed in the ruma \
         plays again, in an empty hole loses; all seeds in the ruma wins"
    }

    fn prepare(&self, game: &mut Game) -> Result<(), String> {
        declare_seeds(game)?;
        if lost_slot(game).is_some() {
            return Ok(());
        }
        let n = game.players.len();
        let slot = game
            .variables
            .iter()
            .map(|v| v.slot + if v.per_player { n } else { 1 })
            .max()
            .unwrap_or(0);
        game.variables.push(Variable {
            name: LOST.into(),
            per_player: false,
            init: 0,
            per_ply: false,
            per_turn: false,
            slot,
        });
        Ok(())
    }

    fn check(&self, game: &Game) -> Result<(), String> {
        layout(game).map(|_| ())
    }

    fn covers(&self) -> &[&str] {
        &[
            "no-end-condition",
            "seed-steps",
            "tchuka-ruma-goal",
            "tchuka-ruma-restriction",
            "tchuka-ruma-extension",
            "mancala-setup",
            // The page's setup of four holes of two seeds, which this module plays; the pages' other setups
            // (`tchuka-ruma-4x5`, `-4x6`, `-6x4`) stay listed as missing.
            "tchuka-ruma-4x2",
        ]
    }
}

impl Hooks for TchukaRuma {
    fn setup(&self, game: &Game, state: &mut State) {
        let (Ok(l), Some(k)) = (layout(game), field(game)) else {
            return;
        };
        let flag = game.int_attributes[k as usize].idx();
        for &h in &l.holes {
            if let Some(mut x) = state.get(h) {
                x.attrs.set_int(k as usize, SEEDS);
                x.attrs.set(flag, true);
                state.set(h, Some(x));
            }
        }
    }

    fn moves(&self, game: &Game, state: &State, moves: &mut Vec<Move>) -> Result<(), EngineError> {
        let l = layout(game).map_err(EngineError)?;
        let k = field(game).ok_or_else(|| EngineError("no seed count".into()))?;
        let slot = lost_slot(game).ok_or_else(|| EngineError("no variable for the end".into()))?;
        let player = Player(0);
        let start = counts(state, k);
        let mut out = vec![];
        for &hole in &l.holes {
            if start[hole.idx()] == 0 {
                continue;
            }
            let mut parts = vec![];
            let mut now = state.clone();
            let mut origin = hole;
            let mut lost = false;
            for n in 0.. {
                if n == MAX_SOWINGS {
                    return Err(EngineError(format!(
                        "tchuka-ruma: a relay of more than {MAX_SOWINGS} sowings"
                    )));
                }
                let mut c = counts(&now, k);
                let Some(cycle) = lap(&game.board, player, origin, l.dir, None, false) else {
                    return Err(EngineError("tchuka-ruma: the row has no cycle".into()));
                };
                let rules = Rules {
                    lap: &cycle,
                    capture: None,
                    grand_slam: crate::compile::sow::GrandSlam::Allowed,
                    opposite: None,
                    feed: None,
                    store: None,
                    again: None,
                };
                let Some(sown) = sow(&mut c, origin, &rules) else {
                    break;
                };
                let p = part(game, &now, k, origin, &c, None);
                apply_part(game, &mut now, &p, false);
                parts.push(p);
                let last = sown.last;
                if last == l.ruma {
                    break;
                }
                if c[last.idx()] > 1 {
                    origin = last;
                    continue;
                }
                lost = true;
                break;
            }
            if lost {
                if let Some(p) = parts.last_mut() {
                    p.actions.push(Action::SetVar {
                        slot: slot as u16,
                        value: 1,
                    });
                }
            }
            out.push(Move { parts });
        }
        *moves = out;
        Ok(())
    }

    fn outcome(&self, game: &Game, state: &State, _: &[Move], _: &[u64]) -> Option<Outcome> {
        let l = layout(game).ok()?;
        let k = field(game)?;
        let slot = lost_slot(game)?;
        let end = |r: i8, name: &str| Outcome {
            results: vec![r],
            end_type: name.into(),
            name: name.into(),
            priority: 0,
        };
        if state.vars()[slot] == 1 {
            return Some(end(-1, "last seed in an empty hole"));
        }
        let c = counts(state, k);
        if l.holes.iter().all(|h| c[h.idx()] == 0) {
            return Some(end(1, "all seeds in the ruma"));
        }
        None
    }
}
