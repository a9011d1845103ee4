//! The corpus's column draughts played with their extension modules (`src/extension/stapeldammen.rs`,
//! `src/extension/adiuh_checkers.rs`): the rules their Dagaz scripts add to the ZRF, each tested on a small
//! position where the ZRF alone would play otherwise. Columns in positions are written from the bottom up.

mod common;

use dagaz::compile::Game;
use dagaz::engine::{position, Action, Engine, Move, State};
use dagaz::load::{load_game, VariantSel};
use std::path::Path;

fn corpus(file: &str, module: &str) -> Game {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus/zrf/DagazProject.github.io/checkers/zrf")
        .join(file);
    let mut game = load_game(&path, &VariantSel::First).unwrap();
    dagaz::extension::attach(&mut game, module).unwrap();
    // The Adiuh page also loads `russian-captures` (a capture chain may not stop where it could go on) and
    // `column-checkers-restriction` (a chain may not jump a square it has emptied), which the module does not
    // play: they stay listed (`compile::dagaz_site`); these tests are about what the module plays.
    let unplayed = ["russian-captures", "column-checkers-restriction"];
    game.missing_rules.retain(|r| {
        !(module == "adiuh-checkers"
            && r.kind == dagaz::compile::MissingKind::Script
            && unplayed.contains(&r.name.as_str()))
    });
    assert!(game.missing_rules.is_empty(), "{:?}", game.missing_rules);
    game
}

fn moves(game: &Game, s: &State) -> Vec<(String, Move)> {
    let ms = Engine::new(game).legal_moves(s).unwrap();
    let mut v: Vec<(String, Move)> = Move::notations(game, &ms).into_iter().zip(ms).collect();
    v.sort_by(|a, b| a.0.cmp(&b.0));
    v
}

fn prisoners(m: &Move) -> Vec<String> {
    m.parts
        .iter()
        .flat_map(|p| &p.actions)
        .filter_map(|a| match a {
            Action::TakePrisoner { at, .. } => Some(at.0.to_string()),
            _ => None,
        })
        .collect()
}

fn height(game: &Game, s: &State, at: &str) -> usize {
    s.height(game.board.position(at).unwrap())
}

#[test]
fn stapeldammen_captures_take_tops_and_a_column_may_be_jumped_again() {
    // A ring of Red columns around d6: White's d4 takes e5, e7, c7, c5 and is back on d4, from where it
    // takes e5 again (a Red man was under its top). The ZRF alone would take e5 and stop.
    let game = corpus("stapeldammen.zrf", "stapeldammen");
    let s = position::parse(
        &game,
        "turn White\npiece White Man d4\npiece Red Man e5\npiece Red Man e5\npiece Red Man e7\n\
         piece Red Man c7\npiece Red Man c5\npiece Red Man j10\n",
    )
    .unwrap();
    let ms = moves(&game, &s);
    let longest = ms.iter().map(|(_, m)| m.captures()).max().unwrap();
    assert_eq!(
        longest,
        5,
        "{:?}",
        ms.iter().map(|m| &m.0).collect::<Vec<_>>()
    );
    let (name, ring) = ms.iter().find(|(_, m)| m.captures() == 5).unwrap();
    let e5 = game.board.position("e5").unwrap().0.to_string();
    assert_eq!(
        prisoners(ring).iter().filter(|p| **p == e5).count(),
        2,
        "{name}"
    );
    let after = Engine::new(&game).apply(&s, ring);
    assert_eq!(after.hash(), after.full_hash());
    // Five prisoners under the White man on f6; every Red column of the ring is gone.
    assert_eq!(height(&game, &after, "f6"), 6, "{name}");
    for sq in ["e5", "e7", "c7", "c5", "d4"] {
        assert_eq!(height(&game, &after, sq), 0, "{name}: {sq}");
    }
}

#[test]
fn stapeldammen_a_freed_prisoner_is_its_owners_and_no_move_loses() {
    // White's d4 takes the Red top of e5, freeing the White man under it. Red then has no piece: it loses.
    let game = corpus("stapeldammen.zrf", "stapeldammen");
    let s = position::parse(
        &game,
        "turn White\npiece White Man d4\npiece White Man e5\npiece Red Man e5\n",
    )
    .unwrap();
    let ms = moves(&game, &s);
    assert_eq!(
        ms.iter().map(|m| m.0.as_str()).collect::<Vec<_>>(),
        ["d4-f6xe5"]
    );
    let engine = Engine::new(&game);
    let after = engine.apply(&s, &ms[0].1);
    let e5 = after.get(game.board.position("e5").unwrap()).unwrap();
    assert_eq!(game.players[e5.owner.idx()].name, "White");
    let o = engine
        .outcome(&after, &engine.legal_moves(&after).unwrap(), &[])
        .unwrap()
        .expect("Red cannot move");
    assert_eq!(o.results, [1, -1]);
}

#[test]
fn adiuh_a_capture_takes_the_top_and_a_king_ending_off_the_far_row_is_a_man_again() {
    let game = corpus("adiuh-checkers.zrf", "adiuh-checkers");
    // The man on c3 takes the top of the Black column on d4 onto e5: the column's other man stays.
    let s = position::parse(
        &game,
        "turn White\npiece White Man c3\npiece Black Man d4\npiece Black Man d4\n",
    )
    .unwrap();
    let ms = moves(&game, &s);
    let (_, jump) = ms.iter().find(|(n, _)| n == "c3-e5xd4").unwrap();
    let after = Engine::new(&game).apply(&s, jump);
    assert_eq!(height(&game, &after, "e5"), 2);
    assert_eq!(height(&game, &after, "d4"), 1);
    // A king flies over d4; landing short of the far row it is a man again, on h8 it stays a king.
    let s = position::parse(
        &game,
        "turn White\npiece White King b2\npiece Black Man d4\npiece Black Man a7\n",
    )
    .unwrap();
    let ms = moves(&game, &s);
    let kind_after = |n: &str| {
        let (_, m) = ms.iter().find(|(x, _)| x.starts_with(n)).unwrap();
        let after = Engine::new(&game).apply(&s, m);
        let to = &n[3..5];
        let x = after.get(game.board.position(to).unwrap()).unwrap();
        game.pieces[x.kind.idx()].name.clone()
    };
    assert_eq!(kind_after("b2-f6xd4"), "Man");
    assert_eq!(kind_after("b2-h8xd4"), "King");
}

#[test]
fn adiuh_a_column_that_can_capture_on_moves_again_and_the_end_counts_halves() {
    let game = corpus("adiuh-checkers.zrf", "adiuh-checkers");
    // c3 takes d4 onto e5 and, as e5 could capture again, must move the same column again (not back
    // toward c3): take f6 onto g7, or (the file has no compulsory capture) step to d6. Stopping on e5 is
    // not a move. After the double capture Black has nothing left to move, and the pieces are counted by
    // halves: all three are on Black's half, White wins.
    let s = position::parse(
        &game,
        "turn White\npiece White Man c3\npiece Black Man d4\npiece Black Man f6\n",
    )
    .unwrap();
    let ms = moves(&game, &s);
    assert_eq!(
        ms.iter().map(|m| m.0.as_str()).collect::<Vec<_>>(),
        ["c3-b4", "c3-e5xd4-d6", "c3-e5xd4-g7xf6"]
    );
    let engine = Engine::new(&game);
    let after = engine.apply(&s, &ms[2].1);
    assert_eq!(height(&game, &after, "g7"), 3);
    let o = engine
        .outcome(&after, &engine.legal_moves(&after).unwrap(), &[])
        .unwrap()
        .expect("Black cannot move");
    assert_eq!(o.results, [1, -1]);
}

#[test]
fn the_hash_stays_whole_and_columns_form_in_random_games() {
    use dagaz::engine::playout::{below, game_rng};
    for (file, module) in [
        ("stapeldammen.zrf", "stapeldammen"),
        ("adiuh-checkers.zrf", "adiuh-checkers"),
    ] {
        let game = corpus(file, module);
        let engine = Engine::new(&game);
        let mut tallest = 0;
        for g in 0..10 {
            let mut rng = game_rng(3, g);
            let mut s = engine.initial();
            for _ in 0..200 {
                assert_eq!(s.hash(), s.full_hash(), "{file} game {g} ply {}", s.ply());
                for i in 0..s.cells().len() {
                    tallest = tallest.max(s.height(dagaz::compile::Pos(i as u16)));
                }
                let ms = engine.legal_moves(&s).unwrap();
                if engine.outcome(&s, &ms, &[]).unwrap().is_some() {
                    break;
                }
                s = engine.apply(&s, &ms[below(&mut rng, ms.len())]);
            }
        }
        assert!(tallest >= 3, "{file}: no column of three formed");
    }
}

/// Every test of this file once more with the general path forced (`DAGAZ_GENERAL_PATH=1`).
#[test]
fn on_the_general_path() {
    common::rerun_on_general_path("on_the_general_path");
}

/// Frisian Columns, the file's second variant, names a player `Black` its game does not have (`White Red`) and
/// has no end condition: it is refused with both places named, not played with a guess (README, "Decisions
/// where ZRF is unclear").
#[test]
fn frisian_columns_is_refused_at_its_unknown_player() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus/zrf/DagazProject.github.io/checkers/zrf/stapeldammen.zrf");
    let err = load_game(&path, &VariantSel::Number(2)).unwrap_err();
    assert!(err.contains("unknown player `Black`"), "{err}");
    for line in ["stapeldammen.zrf:115:", "stapeldammen.zrf:150:"] {
        assert!(err.contains(line), "{line} not named in:\n{err}");
    }
    // The first variant loads.
    assert!(load_game(&path, &VariantSel::Number(1)).is_ok());
}
