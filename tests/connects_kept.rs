//! The groups `connects` keeps from call to call (`engine/connects.rs`): a piece set that only grows is
//! joined piece by piece, any other change builds the groups afresh. Checked here against the reference
//! fill (`groups::connects`, the general path's) on piece sets that grow, shrink, change owner and type and
//! start over in random order, on Hex, on a board whose links go one way only (no groups kept), and on a
//! condition with piece types; and by hand on positions whose answers the rules give.

use dagaz::compile::{EndCond, Game, PieceType, Player, Pos};
use dagaz::engine::playout::{below, game_rng};
use dagaz::engine::state::{Piece, State};
use dagaz::engine::{connects, groups, Engine};

fn compile_src(src: &str) -> Game {
    let read = dagaz::lang::read_str("t.zrf", src, std::path::Path::new("."));
    assert!(!read.has_errors(), "{:?}", read.diagnostics);
    let mut diags = vec![];
    let g = dagaz::load::compile_source(&read.games[0], &mut diags);
    assert!(diags.iter().all(|d| !d.is_error()), "{diags:?}");
    g.unwrap()
}

/// Every `connects` of the game's end conditions: its zones and types.
fn conds(game: &Game) -> Vec<EndCond> {
    let mut out = vec![];
    fn each(c: &EndCond, out: &mut Vec<EndCond>) {
        match c {
            EndCond::Connects { .. } => out.push(c.clone()),
            EndCond::And(cs) | EndCond::Or(cs) => cs.iter().for_each(|c| each(c, out)),
            EndCond::Not(c) => each(c, out),
            _ => {}
        }
    }
    for ec in &game.end_conditions {
        each(&ec.cond, &mut out);
    }
    assert!(!out.is_empty(), "{}: a connects condition", game.title);
    out
}

fn piece(kind: usize, owner: usize) -> Piece {
    Piece {
        kind: PieceType(kind as u16),
        owner: Player(owner as u8),
        attrs: Default::default(),
        dead: false,
    }
}

/// `steps` random changes to the board from the start position (mostly a piece added, as stone games play;
/// also removed, given to the other player, changed in type, or the board cleared), and after each both
/// answers for every condition and player. Returns how many answers were "yes".
fn random_changes(game: &Game, seed: u64, steps: usize) -> usize {
    let engine = Engine::new(game);
    let conds = conds(game);
    let mut rng = game_rng(seed, 0);
    let mut s: State = engine.initial();
    let n = game.board.positions.len();
    let (players, kinds) = (game.players.len(), game.pieces.len());
    let mut yes = 0;
    for step in 0..steps {
        let at = Pos(below(&mut rng, n) as u16);
        match below(&mut rng, 100) {
            // Most stones the first player's, so that its chains grow long and connect.
            0..=69 => {
                let owner = if below(&mut rng, 4) > 0 {
                    0
                } else {
                    below(&mut rng, players)
                };
                s.set(at, Some(piece(below(&mut rng, kinds), owner)))
            }
            70..=84 => s.set(at, None),
            85..=92 => {
                if let Some(x) = s.get(at) {
                    s.set(at, Some(piece(x.kind.idx(), (x.owner.idx() + 1) % players)));
                }
            }
            93..=98 => {
                if let Some(x) = s.get(at) {
                    s.set(at, Some(piece((x.kind.idx() + 1) % kinds, x.owner.idx())));
                }
            }
            _ => s = engine.initial(),
        }
        for c in &conds {
            let EndCond::Connects { zones, types } = c else {
                unreachable!()
            };
            for p in 0..players {
                let p = Player(p as u8);
                let want = groups::connects(game, &s, p, zones, types);
                assert_eq!(
                    connects::connects(game, &s, p, zones, types),
                    want,
                    "{}: seed {seed} step {step}, player {}",
                    game.title,
                    p.idx()
                );
                yes += want as usize;
            }
        }
    }
    yes
}

fn hex() -> Game {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("games/hex.zrf");
    dagaz::load::load_game(&path, &dagaz::load::VariantSel::First).expect("Hex")
}

#[test]
fn kept_groups_answer_as_the_reference_fill_on_hex() {
    let game = hex();
    let mut yes = 0;
    for seed in 0..20 {
        yes += random_changes(&game, seed, 2_000);
    }
    // Both answers occur often (the boards fill up between clearings).
    eprintln!("hex: {yes} yes");
    assert!(yes > 5_000, "{yes} answers were yes");
}

/// A 4x4 board whose links go only south and east: groups differ from each of their pieces, so no groups
/// are kept and the fill answers every call.
#[test]
fn one_way_links_answer_as_the_reference_fill() {
    let game = compile_src(
        "(game (title \"one way\") (players A B) (turn-order A B)
           (board (grid (dimensions (\"a/b/c/d\" (50 0)) (\"4/3/2/1\" (0 50)))
             (directions (s 0 1) (e 1 0)))
             (zone (name top) (players A B) (positions a4 b4 c4 d4))
             (zone (name bottom) (players A B) (positions a1 b1 c1 d1)))
           (piece (name P) (drops ((verify empty?) add)))
           (win-condition (A B) (connects top bottom)))",
    );
    let mut yes = 0;
    for seed in 0..20 {
        yes += random_changes(&game, seed, 1_000);
    }
    eprintln!("one way: {yes} yes");
    assert!(yes > 500, "{yes} answers were yes");
}

/// A condition that counts only one piece type (the other type's pieces break a chain), with three zones.
#[test]
fn typed_connects_with_three_zones_answers_as_the_reference_fill() {
    let game = compile_src(
        "(game (title \"typed\") (players A B) (turn-order A B)
           (board (grid (dimensions (\"a/b/c/d/e\" (50 0)) (\"5/4/3/2/1\" (0 50)))
             (directions (s 0 1) (n 0 -1) (e 1 0) (w -1 0)))
             (zone (name top) (players A B) (positions a5 b5 c5 d5 e5))
             (zone (name bottom) (players A B) (positions a1 b1 c1 d1 e1))
             (zone (name left) (players A B) (positions a1 a2 a3 a4 a5)))
           (piece (name P) (drops ((verify empty?) add)))
           (piece (name Q) (drops ((verify empty?) add)))
           (win-condition (A B) (connects top bottom left P)))",
    );
    let mut yes = 0;
    for seed in 0..20 {
        yes += random_changes(&game, seed, 1_000);
    }
    eprintln!("typed: {yes} yes");
    assert!(yes > 100, "{yes} answers were yes");
}

/// Hex 11x11 by the rules: Red joins rows 1 and 11, Blue columns a and k; a cell's neighbours are e, w, n,
/// s, ne and sw on the rhombus (b5's: a5, c5, b4, b6, c4, a6). A chain down column a joins Red's rows; cut at
/// a6 it no longer does, although every other stone stays (a kept "yes" must not survive a removal); b5 and
/// b6 bridge the cut (a5-b5-b6-a7).
#[test]
fn hex_chains_join_and_break_by_the_rules() {
    let game = hex();
    let engine = Engine::new(&game);
    let c = conds(&game);
    let EndCond::Connects { zones, types } = &c[0] else {
        unreachable!()
    };
    let at = |name: &str| game.board.position(name).unwrap();
    let (red, blue) = (Player(0), Player(1));
    let mut s = engine.initial();
    let ask = |s: &State, p: Player| connects::connects(&game, s, p, zones, types);
    for r in 1..=10 {
        s.set(at(&format!("a{r}")), Some(piece(0, 0)));
        assert!(!ask(&s, red), "a1-a{r} does not reach row 11");
        assert!(!ask(&s, blue));
    }
    s.set(at("a11"), Some(piece(0, 0)));
    assert!(ask(&s, red), "a1-a11 joins rows 1 and 11");
    assert!(!ask(&s, blue), "Blue has no stone");
    s.set(at("a6"), None);
    assert!(!ask(&s, red), "cut at a6");
    s.set(at("b5"), Some(piece(0, 0)));
    assert!(!ask(&s, red), "b5 alone does not bridge the cut");
    s.set(at("b6"), Some(piece(0, 0)));
    assert!(ask(&s, red), "a5-b5-b6-a7 bridges the cut");
    // The same stones turned Blue's one by one: Red's chain breaks at once, and Blue, whose edges are columns
    // a and k, has no stone on column k.
    s.set(at("b5"), Some(piece(0, 1)));
    assert!(!ask(&s, red), "b5 is Blue's");
    assert!(!ask(&s, blue), "Blue has no stone on column k");
}
