//! `Hooks::chance` (`docs/extensions.md`): a module may say that the moves of a state are a throw the player
//! to move makes but does not choose (the dice of Dagaz's race files, which are the mover's own drops). The
//! engine then reports the state as chance (`Engine::is_chance`), as it does for a random (`?`) player, which
//! is what the tournament runner and the bots read to draw the move instead of choosing it.

#[path = "common/scratch.rs"]
mod scratch_dir;
use dagaz::compile::ExtensionRef;
use dagaz::engine::{Engine, EngineOptions, Hooks, State};
use dagaz::load::{load_game, VariantSel};
use dagaz::Game;
use scratch_dir::Scratch;

/// Two players who drop a piece on an empty cell of a 2x2 board; no random player.
const TINY: &str = "(game (title \"tiny\") (players A B) (turn-order A B)
  (board (grid (dimensions (\"a/b\" (50 0)) (\"2/1\" (0 50))) (directions (n 0 -1) (e 1 0) (s 0 1) (w -1 0))))
  (piece (name P) (drops ((verify empty?) add)))
  (loss-condition (A B) stalemated))";

fn tiny() -> Game {
    let p = Scratch::file("chance", "tiny.zrf", TINY);
    load_game(&p, &VariantSel::First).unwrap()
}

/// Says that A's turns are throws (the ply is even), B's are choices.
struct AThrows;

impl Hooks for AThrows {
    fn chance(&self, _: &Game, s: &State) -> bool {
        s.ply().is_multiple_of(2)
    }
}

#[test]
fn a_module_makes_the_states_it_names_chance() {
    let mut game = tiny();
    let plain = Engine::new(&game);
    let s = plain.initial();
    assert!(
        !plain.is_chance(&s),
        "no random player, no module: a choice"
    );

    game.extensions.push(ExtensionRef {
        name: "a-throws".into(),
        description: "A's moves are throws".into(),
        stacks: false,
        covers: vec![],
    });
    static HOOK: AThrows = AThrows;
    let resolve = |name: &str| (name == "a-throws").then_some(&HOOK as &'static dyn Hooks);
    let engine = Engine::with_hooks(&game, EngineOptions::default(), &resolve).unwrap();
    let mut s = engine.initial();
    for ply in 0..4 {
        assert_eq!(engine.is_chance(&s), ply % 2 == 0, "ply {ply}");
        let moves = engine.legal_moves(&s).unwrap();
        assert_eq!(moves.len(), 4 - ply, "the hook changes no move");
        s = engine.apply(&s, &moves[0]);
    }
}
