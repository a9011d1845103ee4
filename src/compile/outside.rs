//! Rules a file leaves to code outside it, found from what the file does write. Two kinds of Dagaz file
//! look complete to a ZRF reader and are not:
//!
//! * **Dice dropped by the player to move** ([`MissingKind::MoverDice`]). Dagaz's race games (Russian
//!   backgammon, Tavola, Longgammon, Jacquet, Rosespring, Daldosa, Puluc, Sahkku, Senet, Shen, Tablan, Ur,
//!   Chaturaji) declare no random player: a die is a piece the mover drops into a dice zone, and a script
//!   of the page makes the drop random. Read as ZRF, the player to move chooses its own throw. The sign: a
//!   drop program that verifies `(in-zone? Z)` for a zone whose name holds `dice`, in a game with no
//!   random (`?`) player.
//! * **Seeds moved one pit** ([`MissingKind::SeedSteps`]). Dagaz's mancala files move a piece `Seed` one
//!   pit along a direction; the page's scripts turn that step into a sowing with its captures and its end.
//!   Read as ZRF, a pile moves one pit. The sign: a piece type named `Seed` with moves, and no `sow` in any
//!   program of the game.
//!
//! Each is a missing rule at the program (or the piece) that shows it, so `check` lists it and `playout` and
//! `tournament` refuse the game with the reason; an extension module that plays the real rules covers it
//! (`Module::covers`: `"mover-dice"`, `"seed-steps"`).

use super::game::{Cond, Game, Instr, Loc};
use super::missing::{MissingKind, MissingRule};

/// When dice are the mover's own drops: the rule, named by the dice zone, at the first die's drop program,
/// with the die's piece name as its value.
pub fn mover_dice(game: &Game) -> Option<MissingRule> {
    if game.players.iter().any(|p| p.random) {
        return None;
    }
    for piece in &game.pieces {
        for prog in &piece.drops {
            if let Some(zone) = dice_zone(game, &prog.body) {
                let mut r = MissingRule::new(MissingKind::MoverDice, &zone, "", prog.span);
                r.value = piece.name.clone();
                return Some(r);
            }
        }
    }
    None
}

/// The name of a zone holding `dice` that the program verifies its cursor is in.
fn dice_zone(game: &Game, body: &[Instr]) -> Option<String> {
    body.iter().find_map(|i| match i {
        Instr::Verify(Cond::InZone(z, Loc::Cursor)) => {
            let name = &game.board.zones[z.idx()].name;
            name.to_ascii_lowercase()
                .contains("dice")
                .then(|| name.clone())
        }
        Instr::If(_, a, b) => dice_zone(game, a).or_else(|| dice_zone(game, b)),
        Instr::While(_, a) => dice_zone(game, a),
        Instr::Choose(c) => dice_zone(game, &c.body).or_else(|| dice_zone(game, &c.rest)),
        _ => None,
    })
}

/// A piece `Seed` that moves, in a game that sows nowhere.
pub fn seed_steps(game: &Game) -> Option<MissingRule> {
    let seed = game
        .pieces
        .iter()
        .find(|p| p.name.eq_ignore_ascii_case("Seed") && !p.moves.is_empty())?;
    let sows = game
        .pieces
        .iter()
        .flat_map(|p| p.moves.iter().chain(&p.drops))
        .any(|prog| has_sow(&prog.body));
    (!sows).then(|| MissingRule::new(MissingKind::SeedSteps, &seed.name, "", seed.moves[0].span))
}

fn has_sow(body: &[Instr]) -> bool {
    body.iter().any(|i| match i {
        Instr::Sow(_) => true,
        Instr::If(_, a, b) => has_sow(a) || has_sow(b),
        Instr::While(_, a) => has_sow(a),
        Instr::Choose(c) => has_sow(&c.body) || has_sow(&c.rest),
        _ => false,
    })
}
