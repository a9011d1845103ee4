//! `go` and `atari-go`: the rules of Go and of Atari Go (capture Go) that a ZRF file with a plain drop
//! (`(verify empty?) add`) leaves out, as the Dagaz corpus writes them (`go/zrf/go.zrf`,
//! `go/zrf/atari-go.zrf`, whose rules live in the Dagaz scripts `go-capturing`, `go-ko`, `atari-go-goal`).
//! From the published rules of Go (the Chinese area-scoring rules; Tromp and Taylor's logical rules):
//!
//! * after a stone is put down, every enemy group it leaves without a liberty is removed (`go-capturing`);
//! * suicide is illegal: a stone may not be put where its own group has no liberty after those removals
//!   (`go-capturing`);
//! * `go` only: simple ko, a move may not recreate the position before the opponent's last move (`go-ko`,
//!   Dagaz's `ko` kernel rule with the value `true`); the module turns on the language's
//!   `(forbid-repetition simple-ko)` (see `docs/language.md`), so the state keeps the history ko needs;
//! * `go` only: the game ends when every player has passed in a row (two passes with two players; the
//!   Dagaz scripts leave the end to the players, so the module adds the standard one) and is scored by area
//!   (stones plus the empty points reached only by one's stones), with a komi of 7.5 for the second player
//!   of two; with more players (the corpus's three-colour Go) the largest area wins, a tie draws;
//! * `atari-go` only: the first capture wins (`atari-go-goal`). A capture is read from the position: a
//!   player whose stones on the board are fewer than those it has put down from its reserve has lost some,
//!   so the file must count its stones in reserves (`(board-setup (Black (Stone off 81)) ...)`, as the
//!   corpus file does).
//!
//! The captures are actions of the moves (`Capture`), so apply, notation, hashing and perft stay whole.
//! `go-mark` (a drawing of the last stone) and `atari` (move-ordering patterns for Dagaz's bot) are screen
//! and bot aids, not rules.

use crate::compile::Module;
use crate::compile::{Game, Player, RepetitionRule};
use crate::engine::groups;
use crate::engine::Hooks;
use crate::engine::{Action, EngineError, Move, Outcome, State};

/// The `go` module (registered in `super::MODULES`).
pub struct Go;

/// The `atari-go` module.
pub struct AtariGo;

/// White's komi in half points (7.5), for two players.
const KOMI_HALF_POINTS: i64 = 15;

/// Adds the group captures to every drop, and removes the drops that are suicide.
fn capture_groups(game: &Game, state: &State, moves: &mut Vec<Move>) {
    let owner = |i: usize| state.cells()[i].filter(|x| !x.dead).map(|x| x.owner);
    let mover = game.turn_order.entries[state.turn()].moves_as;
    moves.retain_mut(|m| {
        let [part] = &mut m.parts[..] else {
            return true;
        };
        let Some(at) = part.actions.iter().find_map(|a| match a {
            Action::Place { at, .. } if part.from.is_none() => Some(*at),
            _ => None,
        }) else {
            return true;
        };
        if groups::suicide(game, &owner, at, mover) {
            return false;
        }
        let taken = groups::captured_by_placing(game, &owner, at, mover);
        // Captures go first, as the interpreter writes them.
        let mut actions: Vec<Action> = taken
            .into_iter()
            .map(|q| Action::Capture {
                at: crate::compile::Pos(q as u16),
            })
            .collect();
        if !actions.is_empty() {
            actions.append(&mut part.actions);
            part.actions = actions;
        }
        true
    });
}

fn outcome(results: Vec<i8>, end_type: &str, name: &str) -> Option<Outcome> {
    Some(Outcome {
        results,
        end_type: end_type.into(),
        name: name.into(),
        priority: 0,
    })
}

impl Module for Go {
    fn name(&self) -> &'static str {
        "go"
    }

    fn description(&self) -> &'static str {
        "Go: groups without liberties are captured, no suicide, simple ko; every player passing in a row \
         ends the game, area scoring with komi 7.5"
    }

    fn prepare(&self, game: &mut Game) -> Result<(), String> {
        if game.forbid_repetition.is_none() {
            game.forbid_repetition = Some(RepetitionRule::SimpleKo);
        }
        Ok(())
    }

    fn check(&self, game: &Game) -> Result<(), String> {
        if game.pieces.iter().all(|p| p.drops.is_empty()) {
            return Err("Go puts stones down: the game needs a piece with drops".into());
        }
        Ok(())
    }

    fn covers(&self) -> &[&str] {
        &["no-end-condition", "go-capturing", "go-ko", "ko"]
    }
}

impl Hooks for Go {
    fn moves(&self, game: &Game, state: &State, moves: &mut Vec<Move>) -> Result<(), EngineError> {
        capture_groups(game, state, moves);
        Ok(())
    }

    fn outcome(
        &self,
        game: &Game,
        state: &State,
        _moves: &[Move],
        _history: &[u64],
    ) -> Option<Outcome> {
        let n = game.players.len();
        if (state.passes() as usize) < n {
            return None;
        }
        let areas: Vec<i64> = (0..n)
            .map(|p| groups::area(game, state, Player(p as u8)))
            .collect();
        let results = if n == 2 {
            let margin = 2 * (areas[0] - areas[1]) - KOMI_HALF_POINTS;
            match margin.signum() {
                1 => vec![1, -1],
                -1 => vec![-1, 1],
                _ => vec![0, 0],
            }
        } else {
            let best = areas.iter().copied().max().unwrap_or(0);
            let winners = areas.iter().filter(|&&a| a == best).count();
            areas
                .iter()
                .map(|&a| match (a == best, winners) {
                    (true, 1) => 1,
                    (true, _) => 0,
                    _ => -1,
                })
                .collect()
        };
        outcome(results, "area", "area scoring")
    }
}

/// Whether `player` has lost stones: fewer on the board than it has put down from its reserve.
fn lost_stones(game: &Game, state: &State, player: Player) -> bool {
    let np = game.pieces.len();
    let put_down: i64 = game
        .setup
        .reserves
        .iter()
        .filter(|r| r.0 == player)
        .map(|r| r.2 as i64 - state.reserves()[player.idx() * np + r.1.idx()] as i64)
        .sum::<i64>()
        + game.setup.pieces.iter().filter(|p| p.0 == player).count() as i64;
    let on_board = state
        .cells()
        .iter()
        .flatten()
        .filter(|x| !x.dead && x.owner == player)
        .count() as i64;
    on_board < put_down
}

impl Module for AtariGo {
    fn name(&self) -> &'static str {
        "atari-go"
    }

    fn description(&self) -> &'static str {
        "Atari Go: groups without liberties are captured, no suicide; the first capture wins"
    }

    fn check(&self, game: &Game) -> Result<(), String> {
        if game.setup.reserves.is_empty() {
            return Err(
                "atari-go reads captures from the stones put down: give the players their stones in \
                 reserves, as in (board-setup (Black (Stone off 81)) (White (Stone off 81)))"
                    .into(),
            );
        }
        Ok(())
    }

    fn covers(&self) -> &[&str] {
        &["no-end-condition", "go-capturing", "atari-go-goal"]
    }
}

impl Hooks for AtariGo {
    fn moves(&self, game: &Game, state: &State, moves: &mut Vec<Move>) -> Result<(), EngineError> {
        capture_groups(game, state, moves);
        Ok(())
    }

    fn outcome(
        &self,
        game: &Game,
        state: &State,
        _moves: &[Move],
        _history: &[u64],
    ) -> Option<Outcome> {
        let n = game.players.len();
        let losers: Vec<bool> = (0..n)
            .map(|p| lost_stones(game, state, Player(p as u8)))
            .collect();
        if !losers.iter().any(|&l| l) {
            return None;
        }
        let results = losers.iter().map(|&l| if l { -1 } else { 1 }).collect();
        outcome(results, "first-capture", "first capture")
    }
}
