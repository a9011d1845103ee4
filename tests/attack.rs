//! `attacked?` walked backwards from the square (`engine::attack`) against the forward run of every enemy
//! program (`gen::attacked_by_forward`, the definition): on every square of positions sampled from seeded random
//! games, for every player as the attacked side, attacked and defended, with and without each move type. The
//! games: chess, shogi, xiangqi, partnership chess of `games/`, and the corpus files that use `checkmated`.

use dagaz::compile::{Game, MoveType, Player, Pos};
use dagaz::engine::playout::{below, game_rng};
use dagaz::engine::{attack, gen, Engine, State};
use dagaz::load::{load_game, VariantSel};
use std::path::{Path, PathBuf};

/// Compares the two answers on every square of `s`; returns the number of comparisons.
fn compare(game: &Game, s: &State, what: &str) -> usize {
    let mut n = 0;
    // The test of the `checkmated` rule (one pass over the board, then the walks and the forward runs of the
    // enemy pieces it found) against the forward runs on every square the player's pieces of a type hold.
    for (p, info) in game.players.iter().enumerate() {
        let player = Player(p as u8);
        if info.random {
            continue;
        }
        for t in 0..game.pieces.len() {
            let t = dagaz::compile::PieceType(t as u16);
            let mut forward = Ok(false);
            for (i, x) in s.cells().iter().enumerate() {
                if x.is_some_and(|x| x.owner == player && x.kind == t) {
                    let pos = Pos(i as u16);
                    match gen::attacked_by_forward(game, s, pos, player, false, None, None) {
                        Ok(false) => continue,
                        r => {
                            forward = r;
                            break;
                        }
                    }
                }
            }
            let Ok(forward) = forward else { continue };
            assert_eq!(
                gen::royal_attacked(game, s, player, &[t]).expect("the forward run succeeded"),
                forward,
                "{what}: a {} of {} attacked, position:\n{}",
                game.pieces[t.idx()].name,
                info.name,
                dagaz::engine::position::format(game, s)
            );
        }
    }
    let mut types: Vec<Option<MoveType>> = vec![None];
    types.extend((0..game.move_types.len().min(2)).map(|t| Some(MoveType(t as u16))));
    for pos in 0..s.cells().len() {
        let pos = Pos(pos as u16);
        for (p, info) in game.players.iter().enumerate() {
            if info.random {
                continue;
            }
            let player = Player(p as u8);
            for defended in [false, true] {
                for &mt in &types {
                    let forward =
                        gen::attacked_by_forward(game, s, pos, player, defended, mt, None);
                    let Ok(forward) = forward else { continue };
                    let backward = attack::attacked_by(game, s, pos, player, defended, mt)
                        .expect("the forward run succeeded");
                    assert_eq!(
                        backward,
                        forward,
                        "{what}: {} attacked for {} (defended {defended}, move type {mt:?}), position:\n{}",
                        game.board.pos_name(pos),
                        info.name,
                        dagaz::engine::position::format(game, s)
                    );
                    n += 1;
                    if !defended && mt.is_none() && game.players.len() <= 8 {
                        // The test the `checkmated` rule makes, with the types each side has on the board.
                        let mut present = vec![0u64; game.players.len()];
                        for x in s.cells().iter().flatten().filter(|x| !x.dead) {
                            present[x.owner.idx()] |= attack::type_bit(x.kind);
                        }
                        let masked = attack::attacked_by_present(game, s, pos, player, &present)
                            .expect("the forward run succeeded");
                        assert_eq!(
                            masked,
                            forward,
                            "{what}: {} attacked for {} (types on the board), position:\n{}",
                            game.board.pos_name(pos),
                            info.name,
                            dagaz::engine::position::format(game, s)
                        );
                    }
                }
            }
        }
    }
    n
}

/// Plays `games` seeded random games of up to `plies` plies and compares on every `every`-th position, until
/// `most` comparisons are made.
fn check_game(game: &Game, what: &str, games: u64, plies: u32, every: u32, most: usize) -> usize {
    let engine = Engine::new(game);
    let mut n = 0;
    // Some corpus games generate slowly (seconds a position): their coverage is capped by time, not skipped.
    let t = std::time::Instant::now();
    for g in 0..games {
        if t.elapsed().as_secs() >= 3 {
            break;
        }
        let mut rng = game_rng(11, g);
        let mut s = engine.initial();
        while s.ply() < plies && n < most && t.elapsed().as_secs() < 3 {
            if s.ply().is_multiple_of(every) {
                n += compare(game, &s, &format!("{what} game {g} ply {}", s.ply()));
            }
            let Ok(moves) = engine.legal_moves(&s) else {
                break;
            };
            if moves.is_empty() || engine.outcome(&s, &moves, &[]).ok().flatten().is_some() {
                break;
            }
            s = engine.apply(&s, &moves[below(&mut rng, moves.len())]);
        }
    }
    n
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

#[test]
fn backward_equals_forward_on_the_games_of_the_project() {
    for (file, games, plies) in [
        ("games/chess.zrf", 6, 200),
        ("games/shogi.zrf", 4, 150),
        ("games/xiangqi.zrf", 4, 150),
        ("games/partnership-chess.zrf", 3, 160),
    ] {
        let game = load_game(&root().join(file), &VariantSel::First).unwrap();
        assert!(game.attack_table().usable, "{file}");
        let t = std::time::Instant::now();
        let n = check_game(&game, file, games, plies, 3, usize::MAX);
        eprintln!(
            "{file}: {n} comparisons, {:.1} s",
            t.elapsed().as_secs_f64()
        );
        assert!(n > 1000, "{file}: only {n} comparisons");
    }
}

/// Every corpus file that uses `checkmated`, every variant (up to 4 per file).
#[test]
fn backward_equals_forward_on_the_corpus_games_with_checkmated() {
    let corpus = root().join("../shared/corpus/zrf");
    let mut files = vec![];
    let mut stack = vec![corpus];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "zrf")
                && std::fs::read(&p)
                    .map(|b| {
                        String::from_utf8_lossy(&b)
                            .to_ascii_lowercase()
                            .contains("checkmated")
                    })
                    .unwrap_or(false)
            {
                files.push(p);
            }
        }
    }
    files.sort();
    let mut loaded = 0;
    let mut with_shapes = 0;
    let mut total = 0;
    for f in &files {
        let mut any = false;
        for v in 1..=4 {
            let Ok(game) = load_game(f, &VariantSel::Number(v)) else {
                break;
            };
            any = true;
            if game.attack_table().usable && !game.attack_table().shapes.is_empty() {
                with_shapes += 1;
            }
            let t = std::time::Instant::now();
            let n = check_game(
                &game,
                &format!("{} variant {v}", f.display()),
                2,
                60,
                5,
                6000,
            );
            eprintln!(
                "{} variant {v}: {n} comparisons, {:.1} s",
                f.display(),
                t.elapsed().as_secs_f64()
            );
            total += n;
        }
        loaded += any as usize;
    }
    assert!(
        loaded >= 20,
        "only {loaded} of {} files loaded",
        files.len()
    );
    assert!(with_shapes >= 20, "only {with_shapes} variants with shapes");
    assert!(total > 50_000, "only {total} comparisons");
    eprintln!(
        "{loaded} files of {} loaded, {with_shapes} variants with shapes, {total} comparisons",
        files.len()
    );
}
