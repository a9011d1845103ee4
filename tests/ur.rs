//! The corpus's Royal Game of Ur with a random player named like a real one (`(players ?Up Up Down ?Dice)`,
//! `GlukKazan-ZoG/Rules/07.Ur.zrf`): a name is matched as written before the `?` is left out, so `Up`'s
//! symmetry and zones are Up's, not `?Up`'s (issue 24: Up never moved in 1,500 plies).

mod common;

use dagaz::engine::Engine;
use dagaz::load::{load_game, VariantSel};

fn ur(variant: usize) -> dagaz::compile::Game {
    let f = common::corpus_root().join("GlukKazan-ZoG/Rules/07.Ur.zrf");
    load_game(&f, &VariantSel::Number(variant)).unwrap()
}

#[test]
fn a_random_player_named_like_a_real_one_keeps_apart_from_it() {
    let game = ur(1);
    let up = game.player("Up").unwrap();
    let rand_up = game.player("?Up").unwrap();
    assert_ne!(up, rand_up);
    // The zone `promotion` is h3 for ?Up and Up, h1 for Down: each as its own line says.
    let z = game.board.zone("promotion").unwrap();
    let members = &game.board.zones[z.idx()].members;
    let h3 = game.board.position("h3").unwrap().idx();
    let h1 = game.board.position("h1").unwrap().idx();
    let down = game.player("Down").unwrap();
    assert!(members[up.idx()][h3] && !members[up.idx()][h1]);
    assert!(members[down.idx()][h1] && !members[down.idx()][h3]);
}

/// Plays `games` seeded uniformly random games of `variant` up to `cap` plies; per game, the players who made
/// a move that was not a pass, and whether it ended by the rules.
fn random_games(variant: usize, games: u64, cap: usize) -> Vec<(Vec<String>, bool)> {
    let game = ur(variant);
    let engine = Engine::new(&game);
    let mut out = vec![];
    for g in 0..games {
        let mut rng = 0x9E37_79B9_7F4A_7C15u64 ^ g.wrapping_mul(0xD1B5_4A32_D192_ED03);
        let mut s = engine.initial();
        let mut history = vec![];
        let mut movers = std::collections::BTreeSet::new();
        let mut ended = false;
        for _ in 0..cap {
            let moves = engine.legal_moves(&s).unwrap();
            if engine.outcome(&s, &moves, &history).unwrap().is_some() {
                ended = true;
                break;
            }
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let m = &moves[(rng % moves.len() as u64) as usize];
            if !m.is_pass() {
                movers.insert(game.players[engine.to_move(&s).idx()].name.clone());
            }
            history.push(s.key());
            s = engine.apply(&s, m);
        }
        out.push((movers.into_iter().collect(), ended));
    }
    out
}

#[test]
fn every_player_of_the_corpus_ur_moves() {
    for (movers, _) in random_games(1, 5, 3_000) {
        assert_eq!(movers, ["?Dice", "Down", "Up"], "{movers:?}");
    }
}
